/*
 * kfd_test_kernel — a real OpenCL kernel through AMD's ROCr on the software KFD: ROCr's
 * loader loads the code object (VRAM allocation, blit copy, PM4 code-cache invalidate),
 * the test dispatches through a ROCr AQL queue and checks the results; relocations of
 * constant pointers; profiling timestamps in ROCr's domain; a kernel executing s_trap 2
 * reaches the queue's error callback (HSA_STATUS_ERROR_EXCEPTION) through
 * queue_inactive_signal, and the process goes on; queues destroyed while idle.
 *
 * argv[1]: sim/tests' k.hsaco (kernels scale and bump), argv[2]: trap.hsaco.
 */
#define _GNU_SOURCE
#include <stdatomic.h>
#include <stdint.h>
#include <unistd.h>

#include "kfd_test_common.h"

static uint8_t *
read_file(const char *path, size_t *size)
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

typedef struct kernel {
   uint64_t object;
   uint32_t kernarg_size, group_size, private_size;
} kernel;

static hsa_executable_t
load(hsa_agent_t gpu, const char *path)
{
   size_t size;
   uint8_t *data = read_file(path, &size);
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

static kernel
find_kernel(hsa_executable_t exec, hsa_agent_t gpu, const char *name)
{
   hsa_executable_symbol_t sym;
   CHECK_HSA(hsa_executable_get_symbol_by_name(exec, name, &gpu, &sym));
   kernel k;
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

static _Atomic int errors_seen;
static _Atomic hsa_status_t last_error;

static void
queue_error(hsa_status_t status, hsa_queue_t *source, void *data)
{
   (void)source, (void)data;
   atomic_store(&last_error, status);
   atomic_fetch_add(&errors_seen, 1);
}

/* Writes one dispatch packet (header last) and rings the doorbell. */
static void
dispatch(hsa_queue_t *q, const kernel *k, void *kernarg, uint32_t grid, uint32_t wg,
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

static hsa_signal_value_t
wait_done(hsa_signal_t s, uint64_t timeout_ns)
{
   return hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_LT, 1, timeout_ns,
                                    HSA_WAIT_STATE_BLOCKED);
}

static void
test_scale(kfd_test_env *env, hsa_queue_t *q, hsa_executable_t exec)
{
   hsa_agent_t gpu = env->gpus[0];
   kernel k = find_kernel(exec, gpu, "scale.kd");
   CHECK(k.kernarg_size >= 24 && k.group_size == 1024);
   const uint32_t n = 1000, grid = 1024;
   float *in = kfd_test_alloc(env, env->system_pool, grid * sizeof(float));
   float *out = kfd_test_alloc(env, env->vram_pool, grid * sizeof(float));
   for (uint32_t i = 0; i < grid; i++) {
      in[i] = (float)i + 0.5f;
      out[i] = -1.0f;
   }
   struct {
      float *out;
      const float *in;
      float factor;
      uint32_t n;
   } args = {out, in, 3.0f, n};
   uint8_t *kernarg = kfd_test_alloc(env, env->kernarg_pool, 4096);
   memset(kernarg, 0, 4096);
   memcpy(kernarg, &args, sizeof(args));
   hsa_signal_t done;
   CHECK_HSA(hsa_signal_create(1, 0, NULL, &done));
   CHECK_HSA(hsa_amd_profiling_set_profiler_enabled(q, 1));
   dispatch(q, &k, kernarg, grid, 256, done);
   CHECK(wait_done(done, 30000000000ull) == 0);
   for (uint32_t i = 0; i < grid; i++) {
      uint32_t wg = i / 256, l = i % 256;
      float want = i < n ? ((float)(wg * 256 + 255 - l) + 0.5f) * 3.0f : -1.0f;
      if (out[i] != want) {
         fprintf(stderr, "scale: out[%u] = %g, want %g\n", i, out[i], want);
         exit(1);
      }
   }
   hsa_amd_profiling_dispatch_time_t t;
   CHECK_HSA(hsa_amd_profiling_get_dispatch_time(gpu, done, &t));
   uint64_t now;
   CHECK_HSA(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &now));
   CHECK(t.start > 0 && t.start <= t.end && t.end <= now);
   printf("scale: 1024 work-items checked, dispatch %.1f us\n", (t.end - t.start) / 1e3);
   CHECK_HSA(hsa_signal_destroy(done));
   CHECK_HSA(hsa_amd_memory_pool_free(kernarg));
   CHECK_HSA(hsa_amd_memory_pool_free(in));
   CHECK_HSA(hsa_amd_memory_pool_free(out));
}

/* bump: out[0] = *ptrs[out[1] & 1] + table[out[2] & 3], constant pointers relocated. */
static void
test_bump(kfd_test_env *env, hsa_queue_t *q, hsa_executable_t exec)
{
   kernel k = find_kernel(exec, env->gpus[0], "bump.kd");
   int32_t *out = kfd_test_alloc(env, env->system_pool, 64);
   uint8_t *kernarg = kfd_test_alloc(env, env->kernarg_pool, 4096);
   hsa_signal_t done;
   CHECK_HSA(hsa_signal_create(1, 0, NULL, &done));
   static const int32_t cases[][3] = {{0, 0, 2}, {1, 1, 3}, {0, 0, 7}};
   for (unsigned c = 0; c < 3; c++) {
      out[0] = -1;
      out[1] = cases[c][0];
      out[2] = cases[c][2];
      memset(kernarg, 0, 4096);
      memcpy(kernarg, &out, sizeof(out));
      hsa_signal_store_screlease(done, 1);
      dispatch(q, &k, kernarg, 1, 1, done);
      CHECK(wait_done(done, 30000000000ull) == 0);
      int32_t table[4] = {1, 2, 3, 4};
      int32_t want = table[cases[c][0] ? 3 : 1] + table[cases[c][2] & 3];
      CHECK(out[0] == want);
   }
   CHECK_HSA(hsa_signal_destroy(done));
   CHECK_HSA(hsa_amd_memory_pool_free(kernarg));
   CHECK_HSA(hsa_amd_memory_pool_free(out));
}

static void
test_trap(kfd_test_env *env, const char *trap_path)
{
   hsa_agent_t gpu = env->gpus[0];
   hsa_executable_t exec = load(gpu, trap_path);
   kernel k = find_kernel(exec, gpu, "trap_kernel.kd");
   hsa_queue_t *q;
   CHECK_HSA(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, queue_error, NULL, UINT32_MAX,
                              UINT32_MAX, &q));
   uint8_t *kernarg = kfd_test_alloc(env, env->kernarg_pool, 4096);
   hsa_signal_t done;
   CHECK_HSA(hsa_signal_create(1, 0, NULL, &done));
   atomic_store(&errors_seen, 0);
   dispatch(q, &k, kernarg, 64, 64, done);
   for (int i = 0; i < 3000 && atomic_load(&errors_seen) == 0; i++)
      usleep(1000);
   CHECK(atomic_load(&errors_seen) == 1);
   CHECK(atomic_load(&last_error) == HSA_STATUS_ERROR_EXCEPTION);
   CHECK(hsa_signal_load_scacquire(done) == 1); /* the faulting packet never completes */
   CHECK_HSA(hsa_queue_destroy(q));
   CHECK_HSA(hsa_signal_destroy(done));
   CHECK_HSA(hsa_amd_memory_pool_free(kernarg));
   CHECK_HSA(hsa_executable_destroy(exec));
   printf("trap: queue error callback with HSA_STATUS_ERROR_EXCEPTION\n");
}

int
main(int argc, char **argv)
{
   CHECK(argc == 3);
   CHECK_HSA(hsa_init());
   kfd_test_env env;
   kfd_test_env_init(&env);
   hsa_agent_t gpu = env.gpus[0];
   hsa_executable_t exec = load(gpu, argv[1]);
   hsa_queue_t *q;
   CHECK_HSA(hsa_queue_create(gpu, 128, HSA_QUEUE_TYPE_MULTI, queue_error, NULL, UINT32_MAX,
                              UINT32_MAX, &q));
   test_scale(&env, q, exec);
   test_bump(&env, q, exec);
   CHECK(atomic_load(&errors_seen) == 0);
   CHECK_HSA(hsa_queue_destroy(q)); /* idle */
   test_trap(&env, argv[2]);
   /* The process and the runtime go on after a queue error: a new queue works. */
   CHECK_HSA(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, queue_error, NULL, UINT32_MAX,
                              UINT32_MAX, &q));
   test_bump(&env, q, exec);
   CHECK_HSA(hsa_queue_destroy(q));
   CHECK_HSA(hsa_executable_destroy(exec));
   CHECK_HSA(hsa_shut_down());
   printf("kfd_test_kernel: ok\n");
   return 0;
}
