/*
 * sim/tests/sim_test_common.h — helpers shared by the software runtime's tests. The tests
 * use only Debian's HSA headers, so they run unchanged against any HSA runtime.
 */
#ifndef SIM_TEST_COMMON_H
#define SIM_TEST_COMMON_H

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

typedef struct test_env {
   hsa_agent_t cpu, gpu;
   hsa_amd_memory_pool_t system_pool, kernarg_pool, device_pool;
} test_env;

static hsa_status_t
test_find_agent(hsa_agent_t agent, void *data)
{
   test_env *env = data;
   hsa_device_type_t type;
   CHECK_HSA(hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type));
   if (type == HSA_DEVICE_TYPE_CPU && !env->cpu.handle)
      env->cpu = agent;
   if (type == HSA_DEVICE_TYPE_GPU && !env->gpu.handle)
      env->gpu = agent;
   return HSA_STATUS_SUCCESS;
}

static hsa_status_t
test_find_pool(hsa_amd_memory_pool_t pool, void *data)
{
   hsa_amd_memory_pool_t *out = data; /* [0] fine system, [1] kernarg, [2] coarse */
   hsa_amd_segment_t segment;
   uint32_t flags;
   bool alloc;
   CHECK_HSA(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &segment));
   if (segment != HSA_AMD_SEGMENT_GLOBAL)
      return HSA_STATUS_SUCCESS;
   CHECK_HSA(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags));
   CHECK_HSA(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED,
                                          &alloc));
   if (!alloc)
      return HSA_STATUS_SUCCESS;
   if ((flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT) && !out[1].handle)
      out[1] = pool;
   else if ((flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED) && !out[0].handle)
      out[0] = pool;
   else if ((flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED) && !out[2].handle)
      out[2] = pool;
   return HSA_STATUS_SUCCESS;
}

/* The whole file at `path` (a code object), malloc'ed; exits on failure. */
static inline void *
test_read_file(const char *path, size_t *size)
{
   FILE *f = fopen(path, "rb");
   CHECK(f);
   fseek(f, 0, SEEK_END);
   long n = ftell(f);
   fseek(f, 0, SEEK_SET);
   void *data = malloc((size_t)n);
   CHECK(data && fread(data, 1, (size_t)n, f) == (size_t)n);
   fclose(f);
   *size = (size_t)n;
   return data;
}

/* hsa_init plus the CPU and GPU agents and their main pools. */
static void
test_env_init(test_env *env)
{
   memset(env, 0, sizeof(*env));
   CHECK_HSA(hsa_init());
   CHECK_HSA(hsa_iterate_agents(test_find_agent, env));
   CHECK(env->cpu.handle && env->gpu.handle);
   hsa_amd_memory_pool_t cpu_pools[3] = {{0}}, gpu_pools[3] = {{0}};
   CHECK_HSA(hsa_amd_agent_iterate_memory_pools(env->cpu, test_find_pool, cpu_pools));
   CHECK_HSA(hsa_amd_agent_iterate_memory_pools(env->gpu, test_find_pool, gpu_pools));
   env->system_pool = cpu_pools[0];
   env->kernarg_pool = cpu_pools[1];
   env->device_pool = gpu_pools[2];
   CHECK(env->system_pool.handle && env->kernarg_pool.handle && env->device_pool.handle);
}

#endif
