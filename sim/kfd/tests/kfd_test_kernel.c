/*
 * kfd_test_kernel — a real OpenCL kernel through AMD's ROCr on the software KFD: ROCr's
 * loader loads the code object (VRAM allocation, blit copy, PM4 code-cache invalidate),
 * the test dispatches through a ROCr AQL queue and checks the results; relocations of
 * constant pointers; profiling timestamps in ROCr's domain; a kernel executing s_trap 2
 * reaches the queue's error callback (HSA_STATUS_ERROR_EXCEPTION) through
 * queue_inactive_signal, and the process goes on; queues destroyed while idle; doorbells:
 * a packet written but not rung for is not run, and a kernel rings another queue through
 * ROCr's doorbell signal (the KFD's doorbell page, mapped for the GPU).
 *
 * argv[1]: sim/tests' k.hsaco (kernels scale and bump), argv[2]: trap.hsaco, argv[3]:
 * ring.hsaco.
 */
#define _GNU_SOURCE
#include <stdatomic.h>
#include <stdint.h>
#include <unistd.h>

#include "kfd_test_common.h"

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
   kfd_test_kernel k = kfd_test_find_kernel(exec, gpu, "scale.kd");
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
   kfd_test_dispatch(q, &k, kernarg, grid, 256, done);
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
   kfd_test_kernel k = kfd_test_find_kernel(exec, env->gpus[0], "bump.kd");
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
      kfd_test_dispatch(q, &k, kernarg, 1, 1, done);
      CHECK(wait_done(done, 30000000000ull) == 0);
      int32_t table[4] = {1, 2, 3, 4};
      int32_t want = table[cases[c][0] ? 3 : 1] + table[cases[c][2] & 3];
      CHECK(out[0] == want);
   }
   CHECK_HSA(hsa_signal_destroy(done));
   CHECK_HSA(hsa_amd_memory_pool_free(kernarg));
   CHECK_HSA(hsa_amd_memory_pool_free(out));
}

/* Host memory locked twice (two OpenCL buffers over one host array, the first released
 * while the second is in use): unlocking one must leave the other reachable by the GPU. */
static void
test_locked_twice(kfd_test_env *env, hsa_queue_t *q, hsa_executable_t exec)
{
   kfd_test_kernel k = kfd_test_find_kernel(exec, env->gpus[0], "bump.kd");
   int32_t *host = aligned_alloc(4096, 4096);
   CHECK(host);
   uint8_t *kernarg = kfd_test_alloc(env, env->kernarg_pool, 4096);
   hsa_signal_t done;
   CHECK_HSA(hsa_signal_create(1, 0, NULL, &done));
   void *p1 = NULL, *p2 = NULL;
   CHECK_HSA(hsa_amd_memory_lock(host, 64, &env->gpus[0], 1, &p1));
   CHECK_HSA(hsa_amd_memory_lock(host, 64, &env->gpus[0], 1, &p2));
   CHECK_HSA(hsa_amd_memory_unlock(host));
   int32_t *out = p2;
   host[0] = -1;
   host[1] = 0;
   host[2] = 2;
   memset(kernarg, 0, 4096);
   memcpy(kernarg, &out, sizeof(out));
   atomic_store(&errors_seen, 0);
   kfd_test_dispatch(q, &k, kernarg, 1, 1, done);
   CHECK(wait_done(done, 30000000000ull) == 0);
   CHECK(atomic_load(&errors_seen) == 0);
   CHECK(host[0] == 2 + 3);
   CHECK_HSA(hsa_amd_memory_unlock(host));
   /* A range locked inside a locked page, the outer lock released first: the inner one
    * stays reachable, and once it goes the memory is no longer locked at all. */
   CHECK_HSA(hsa_amd_memory_lock(host, 4096, &env->gpus[0], 1, &p1));
   CHECK_HSA(hsa_amd_memory_lock(host + 16, 64, &env->gpus[0], 1, &p2));
   CHECK_HSA(hsa_amd_memory_unlock(host));
   out = p2;
   out[0] = -1;
   out[1] = 1;
   out[2] = 0;
   memcpy(kernarg, &out, sizeof(out));
   hsa_signal_store_screlease(done, 1);
   kfd_test_dispatch(q, &k, kernarg, 1, 1, done);
   CHECK(wait_done(done, 30000000000ull) == 0);
   CHECK(atomic_load(&errors_seen) == 0);
   CHECK(out[0] == 4 + 1);
   CHECK_HSA(hsa_amd_memory_unlock(host + 16));
   hsa_amd_pointer_info_t info = { .size = sizeof(info) };
   CHECK_HSA(hsa_amd_pointer_info(host + 16, &info, NULL, NULL, NULL));
   CHECK(info.type == HSA_EXT_POINTER_TYPE_UNKNOWN);
   CHECK_HSA(hsa_signal_destroy(done));
   CHECK_HSA(hsa_amd_memory_pool_free(kernarg));
   free(host);
   printf("locked twice: reachable after one unlock\n");
}

static void
test_trap(kfd_test_env *env, const char *trap_path)
{
   hsa_agent_t gpu = env->gpus[0];
   hsa_executable_t exec = kfd_test_load(gpu, trap_path);
   kfd_test_kernel k = kfd_test_find_kernel(exec, gpu, "trap_kernel.kd");
   hsa_queue_t *q;
   CHECK_HSA(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, queue_error, NULL, UINT32_MAX,
                              UINT32_MAX, &q));
   uint8_t *kernarg = kfd_test_alloc(env, env->kernarg_pool, 4096);
   hsa_signal_t done;
   CHECK_HSA(hsa_signal_create(1, 0, NULL, &done));
   atomic_store(&errors_seen, 0);
   kfd_test_dispatch(q, &k, kernarg, 64, 64, done);
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

/*
 * The CP reads a packet only after the doorbell was written with its index (sim_cp.h): by
 * ROCr's host store, or by a kernel's store through ROCr's doorbell signal
 * (AMD_SIGNAL_KIND_DOORBELL: ring.hsaco stores to its hardware_doorbell_ptr, as ockl does).
 */
static void
test_doorbell(kfd_test_env *env, hsa_queue_t *q, const char *ring_path)
{
   hsa_agent_t gpu = env->gpus[0];
   hsa_executable_t exec = kfd_test_load(gpu, ring_path);
   kfd_test_kernel k = kfd_test_find_kernel(exec, gpu, "ring.kd");
   hsa_queue_t *other;
   CHECK_HSA(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, queue_error, NULL, UINT32_MAX,
                              UINT32_MAX, &other));
   hsa_signal_t done, ran;
   CHECK_HSA(hsa_signal_create(1, 0, NULL, &done));
   CHECK_HSA(hsa_signal_create(1, 0, NULL, &ran));
   uint64_t i0 = kfd_test_write_unrung_barrier(other, done);
   CHECK(wait_done(done, 200000000ull) == 1);
   CHECK(hsa_queue_load_read_index_scacquire(other) == i0);
   hsa_signal_store_screlease(other->doorbell_signal, (hsa_signal_value_t)i0);
   CHECK(wait_done(done, 30000000000ull) == 0);
   /* From the GPU: nothing but the kernel's store rings for packet i0 + 1. */
   hsa_signal_store_screlease(done, 1);
   uint64_t i1 = kfd_test_write_unrung_barrier(other, done);
   CHECK(wait_done(done, 200000000ull) == 1);
   uint64_t *kernarg = kfd_test_alloc(env, env->kernarg_pool, 4096);
   memset(kernarg, 0, 4096);
   kernarg[0] = other->doorbell_signal.handle;
   kernarg[1] = i1;
   kfd_test_dispatch(q, &k, kernarg, 1, 1, ran);
   CHECK(wait_done(ran, 30000000000ull) == 0);
   CHECK(wait_done(done, 30000000000ull) == 0);
   CHECK(atomic_load(&errors_seen) == 0);
   CHECK_HSA(hsa_queue_destroy(other));
   CHECK_HSA(hsa_signal_destroy(done));
   CHECK_HSA(hsa_signal_destroy(ran));
   CHECK_HSA(hsa_amd_memory_pool_free(kernarg));
   CHECK_HSA(hsa_executable_destroy(exec));
   printf("doorbell: unrung packets wait; a kernel rings another queue\n");
}

int
main(int argc, char **argv)
{
   CHECK(argc == 4);
   CHECK_HSA(hsa_init());
   kfd_test_env env;
   kfd_test_env_init(&env);
   hsa_agent_t gpu = env.gpus[0];
   hsa_executable_t exec = kfd_test_load(gpu, argv[1]);
   hsa_queue_t *q;
   CHECK_HSA(hsa_queue_create(gpu, 128, HSA_QUEUE_TYPE_MULTI, queue_error, NULL, UINT32_MAX,
                              UINT32_MAX, &q));
   test_scale(&env, q, exec);
   test_bump(&env, q, exec);
   CHECK(atomic_load(&errors_seen) == 0);
   test_locked_twice(&env, q, exec);
   test_doorbell(&env, q, argv[3]);
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
