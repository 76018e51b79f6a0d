/*
 * sim/kfd/tests/kfd_test_common.h — helpers of the software KFD's tests. The tests are
 * HSA programs linked against Debian's ROCr (libhsa-runtime64.so.1) and run with
 * LD_LIBRARY_PATH=<build>/sim/kfd: AMD's ROCr on the software KFD.
 */
#ifndef KFD_TEST_COMMON_H
#define KFD_TEST_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#define CHECK(cond)                                                                           \
   do {                                                                                       \
      if (!(cond)) {                                                                          \
         fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);             \
         exit(1);                                                                             \
      }                                                                                       \
   } while (0)

#define CHECK_HSA(expr)                                                                       \
   do {                                                                                       \
      hsa_status_t st_ = (expr);                                                              \
      if (st_ != HSA_STATUS_SUCCESS) {                                                        \
         const char *s_ = NULL;                                                               \
         hsa_status_string(st_, &s_);                                                         \
         fprintf(stderr, "%s:%d: %s failed: 0x%x %s\n", __FILE__, __LINE__, #expr, st_,       \
                 s_ ? s_ : "");                                                               \
         exit(1);                                                                             \
      }                                                                                       \
   } while (0)

#define KFD_TEST_MAX_AGENTS 16

typedef struct kfd_test_env {
   hsa_agent_t cpu;
   hsa_agent_t gpus[KFD_TEST_MAX_AGENTS];
   unsigned ngpus, ncpus;
   hsa_amd_memory_pool_t system_pool, kernarg_pool, coarse_pool; /* CPU agent */
   hsa_amd_memory_pool_t vram_pool;                               /* first GPU */
} kfd_test_env;

static hsa_status_t
kfd_test_agent_cb(hsa_agent_t agent, void *data)
{
   kfd_test_env *env = data;
   hsa_device_type_t type;
   CHECK_HSA(hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type));
   if (type == HSA_DEVICE_TYPE_CPU) {
      if (!env->ncpus++)
         env->cpu = agent;
   } else if (type == HSA_DEVICE_TYPE_GPU && env->ngpus < KFD_TEST_MAX_AGENTS) {
      env->gpus[env->ngpus++] = agent;
   }
   return HSA_STATUS_SUCCESS;
}

static hsa_status_t
kfd_test_pool_cb(hsa_amd_memory_pool_t pool, void *data)
{
   hsa_amd_memory_pool_t *out = data; /* [0] fine, [1] kernarg, [2] coarse */
   hsa_amd_segment_t segment;
   uint32_t flags;
   CHECK_HSA(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &segment));
   if (segment != HSA_AMD_SEGMENT_GLOBAL)
      return HSA_STATUS_SUCCESS;
   CHECK_HSA(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags));
   if (flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT) {
      if (!out[1].handle)
         out[1] = pool;
   } else if (flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED) {
      if (!out[0].handle)
         out[0] = pool;
   } else if (flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED) {
      if (!out[2].handle)
         out[2] = pool;
   }
   return HSA_STATUS_SUCCESS;
}

/* After hsa_init: the agents and the pools every test uses. */
static inline void
kfd_test_env_init(kfd_test_env *env)
{
   memset(env, 0, sizeof(*env));
   CHECK_HSA(hsa_iterate_agents(kfd_test_agent_cb, env));
   CHECK(env->ncpus == 1 && env->ngpus >= 1);
   hsa_amd_memory_pool_t cpu_pools[3] = {{0}}, gpu_pools[3] = {{0}};
   CHECK_HSA(hsa_amd_agent_iterate_memory_pools(env->cpu, kfd_test_pool_cb, cpu_pools));
   CHECK_HSA(hsa_amd_agent_iterate_memory_pools(env->gpus[0], kfd_test_pool_cb, gpu_pools));
   env->system_pool = cpu_pools[0];
   env->kernarg_pool = cpu_pools[1];
   env->coarse_pool = cpu_pools[2];
   env->vram_pool = gpu_pools[2];
   CHECK(env->system_pool.handle && env->kernarg_pool.handle && env->vram_pool.handle);
}

/* Allocates from `pool` and lets every agent of `env` access it. */
static inline void *
kfd_test_alloc(kfd_test_env *env, hsa_amd_memory_pool_t pool, size_t size)
{
   void *p = NULL;
   CHECK_HSA(hsa_amd_memory_pool_allocate(pool, size, 0, &p));
   CHECK(p != NULL);
   hsa_agent_t all[KFD_TEST_MAX_AGENTS + 1];
   all[0] = env->cpu;
   for (unsigned i = 0; i < env->ngpus; i++)
      all[i + 1] = env->gpus[i];
   CHECK_HSA(hsa_amd_agents_allow_access(env->ngpus + 1, all, NULL, p));
   return p;
}

#endif
