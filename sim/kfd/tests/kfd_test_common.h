/*
 * sim/kfd/tests/kfd_test_common.h — helpers of the software KFD's tests. The tests are
 * HSA programs linked against Debian's ROCr (libhsa-runtime64.so.1) and run with
 * LD_LIBRARY_PATH=<build>/sim/kfd: AMD's ROCr on the software KFD.
 */
#ifndef KFD_TEST_COMMON_H
#define KFD_TEST_COMMON_H

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <stdint.h>
#include <unistd.h>

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

/* What ROCr's callbacks reported: queue errors (hsa_queue_create's callback) and GPU memory
 * faults (a system event handler: without one ROCr aborts the process on a fault). */
#define KFD_TEST_UNUSED __attribute__((unused))
static _Atomic int errors_seen KFD_TEST_UNUSED;
static _Atomic hsa_status_t last_error KFD_TEST_UNUSED;
static _Atomic int faults_seen KFD_TEST_UNUSED;
static _Atomic uint64_t fault_address KFD_TEST_UNUSED;

static inline void
queue_error(hsa_status_t status, hsa_queue_t *source, void *data)
{
   (void)source, (void)data;
   atomic_store(&last_error, status);
   atomic_fetch_add(&errors_seen, 1);
}

static inline hsa_status_t
system_event(const hsa_amd_event_t *event, void *data)
{
   (void)data;
   if (event->event_type != HSA_AMD_GPU_MEMORY_FAULT_EVENT)
      return HSA_STATUS_ERROR;
   atomic_store(&fault_address, event->memory_fault.virtual_address);
   atomic_fetch_add(&faults_seen, 1);
   return HSA_STATUS_SUCCESS;
}

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

static inline uint8_t *
kfd_test_read_file(const char *path, size_t *size)
{
   FILE *f = fopen(path, "rb");
   CHECK(f);
   fseek(f, 0, SEEK_END);
   long n = ftell(f);
   fseek(f, 0, SEEK_SET);
   uint8_t *data = malloc((size_t)n);
   CHECK(data && fread(data, 1, (size_t)n, f) == (size_t)n);
   fclose(f);
   *size = (size_t)n;
   return data;
}

typedef struct kfd_test_kernel {
   uint64_t object;
   uint32_t kernarg_size, group_size, private_size;
} kfd_test_kernel;

static inline hsa_executable_t
kfd_test_load(hsa_agent_t gpu, const char *path)
{
   size_t size;
   uint8_t *data = kfd_test_read_file(path, &size);
   hsa_code_object_reader_t reader;
   CHECK_HSA(hsa_code_object_reader_create_from_memory(data, size, &reader));
   hsa_executable_t exec;
   CHECK_HSA(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
                                       NULL, &exec));
   CHECK_HSA(hsa_executable_load_agent_code_object(exec, gpu, reader, NULL, NULL));
   CHECK_HSA(hsa_executable_freeze(exec, NULL));
   CHECK_HSA(hsa_code_object_reader_destroy(reader));
   free(data);
   return exec;
}

static inline kfd_test_kernel
kfd_test_find_kernel(hsa_executable_t exec, hsa_agent_t gpu, const char *name)
{
   hsa_executable_symbol_t sym;
   CHECK_HSA(hsa_executable_get_symbol_by_name(exec, name, &gpu, &sym));
   kfd_test_kernel k;
   CHECK_HSA(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT,
                                            &k.object));
   CHECK_HSA(hsa_executable_symbol_get_info(
      sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE, &k.kernarg_size));
   CHECK_HSA(hsa_executable_symbol_get_info(
      sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE, &k.group_size));
   CHECK_HSA(hsa_executable_symbol_get_info(
      sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE, &k.private_size));
   CHECK(k.object != 0);
   return k;
}

/* Writes one dispatch packet (header last) and rings the doorbell. */
static inline void
kfd_test_dispatch(hsa_queue_t *q, const kfd_test_kernel *k, void *kernarg, uint32_t grid, uint32_t wg,
         hsa_signal_t done)
{
   uint64_t index = hsa_queue_add_write_index_scacq_screl(q, 1);
   while (index - hsa_queue_load_read_index_scacquire(q) >= q->size)
      usleep(100);
   hsa_kernel_dispatch_packet_t *p =
      (hsa_kernel_dispatch_packet_t *)q->base_address + (index & (q->size - 1));
   memset((uint8_t *)p + 4, 0, sizeof(*p) - 4);
   p->workgroup_size_x = (uint16_t)wg;
   p->workgroup_size_y = 1;
   p->workgroup_size_z = 1;
   p->grid_size_x = grid;
   p->grid_size_y = 1;
   p->grid_size_z = 1;
   p->kernel_object = k->object;
   p->kernarg_address = kernarg;
   p->group_segment_size = k->group_size;
   p->private_segment_size = k->private_size;
   p->completion_signal = done;
   uint16_t header = HSA_PACKET_TYPE_KERNEL_DISPATCH << HSA_PACKET_HEADER_TYPE |
                     HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE |
                     HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE;
   uint32_t word = header | (uint32_t)1 << 16; /* setup: 1 dimension */
   __atomic_store_n((uint32_t *)p, word, __ATOMIC_RELEASE);
   hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)index);
}

/* Publishes a barrier-AND completing `done` at the next index, without ringing. */
static inline uint64_t
kfd_test_write_unrung_barrier(hsa_queue_t *q, hsa_signal_t done)
{
   uint64_t index = hsa_queue_add_write_index_scacq_screl(q, 1);
   hsa_barrier_and_packet_t *p =
      (hsa_barrier_and_packet_t *)q->base_address + (index & (q->size - 1));
   memset((uint8_t *)p + 4, 0, sizeof(*p) - 4);
   p->completion_signal = done;
   uint32_t header = HSA_PACKET_TYPE_BARRIER_AND << HSA_PACKET_HEADER_TYPE |
                     HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE |
                     HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE;
   __atomic_store_n((uint32_t *)p, header, __ATOMIC_RELEASE);
   return index;
}

#endif
