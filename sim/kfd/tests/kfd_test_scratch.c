/*
 * kfd_test_scratch — kernels that need scratch, through the HSA API. On ROCr over the
 * software KFD (argv[2] = "rocr") they go through ROCr's dynamic scratch protocol: the
 * queue starts without scratch, the command processor stalls the dispatch and raises
 * ROCr's scratch request (queue_inactive_signal = 1), ROCr's handler allocates and maps
 * scratch, fills amd_queue_t's scratch fields and restarts the queue, and the waves' private
 * memory is that scratch. Checked: results; amd_queue_t's fields (V#, base, size, per-lane
 * size, COMPUTE_TMPRING_SIZE) agree with each other and with the kernel's need; the
 * kernel's private arrays are found in the scratch memory ROCr provided; a
 * second dispatch keeps the queue's scratch; a kernel of 16 KiB per work-item gets ROCr's
 * single-use ("large") scratch, which the CP gives back after the dispatch (fields 0
 * again) and the queue goes on; a dispatch asking for more scratch per wave than gfx906
 * allows reaches the queue's error callback with HSA_STATUS_ERROR_OUT_OF_RESOURCES; a
 * packet that claims no private memory for a kernel that uses it gets no scratch, and the
 * waves' private accesses fault (a GPU memory fault near address 0, where the queue's absent
 * scratch would be: nothing else supplies private memory). The same program on the software
 * runtime (argv[2] = "sim", its own scratch provision) checks
 * the results and the error, not amd_queue_t.
 *
 * argv[1]: scratch.hsaco (priv_small, priv_large).
 */
#define _GNU_SOURCE
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>
#include <hsa/amd_hsa_queue.h>

#include "kfd_test_common.h"

#define MARK 0x5C000000u

static bool on_rocr;

static bool
wait_done(hsa_signal_t s)
{
   return hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_LT, 1, 60000000000ull,
                                    HSA_WAIT_STATE_BLOCKED) == 0;
}

typedef struct run {
   uint32_t *out, *idx;
   void *kernarg;
   uint32_t grid, n;
} run;

static double
now_ms(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Runs `k` over `grid` work-items and checks each sum of 8 private elements; returns the
 * milliseconds from the doorbell to the completion signal. */
static double
dispatch_check(kfd_test_env *env, hsa_queue_t *q, kfd_test_kernel *k, uint32_t elems,
               uint32_t base, uint32_t grid)
{
   run r = {.grid = grid, .n = 97};
   r.out = kfd_test_alloc(env, env->system_pool, grid * 4);
   r.idx = kfd_test_alloc(env, env->system_pool, r.n * 4);
   for (uint32_t i = 0; i < r.n; i++)
      r.idx[i] = (i * 2654435761u) >> 7;
   memset(r.out, 0, grid * 4);
   struct {
      uint32_t *out;
      const uint32_t *idx;
      uint32_t n;
   } args = {r.out, r.idx, r.n};
   r.kernarg = kfd_test_alloc(env, env->kernarg_pool, 4096);
   memset(r.kernarg, 0, 4096);
   memcpy(r.kernarg, &args, sizeof(args));
   hsa_signal_t done;
   CHECK_HSA(hsa_signal_create(1, 0, NULL, &done));
   double t0 = now_ms();
   kfd_test_dispatch(q, k, r.kernarg, grid, 64, done);
   CHECK(wait_done(done));
   double ms = now_ms() - t0;
   uint32_t bad = 0;
   for (uint32_t g = 0; g < grid; g++) {
      uint32_t want = 0;
      for (uint32_t j = 0; j < 8; j++)
         want += base + g * elems + (r.idx[(g + j) % r.n] & (elems - 1));
      bad += r.out[g] != want;
   }
   CHECK(bad == 0);
   CHECK_HSA(hsa_signal_destroy(done));
   CHECK_HSA(hsa_amd_memory_pool_free(r.kernarg));
   CHECK_HSA(hsa_amd_memory_pool_free(r.idx));
   CHECK_HSA(hsa_amd_memory_pool_free(r.out));
   return ms;
}

/* The queue's scratch as ROCr described it in amd_queue_t (InitScratchSRD). */
static void
check_queue_scratch(const amd_queue_t *a, uint32_t private_size)
{
   uint32_t waves = a->compute_tmpring_size & 0xfff;
   uint32_t wave_kib = (a->compute_tmpring_size >> 12) & 0x1fff;
   uint64_t base = a->scratch_backing_memory_location;
   uint64_t srd_base = a->scratch_resource_descriptor[0] |
                       (uint64_t)(a->scratch_resource_descriptor[1] & 0xffff) << 32;
   printf("scratch: base 0x%llx, %llu bytes, %u bytes per lane, %u waves of %u KiB\n",
          (unsigned long long)base, (unsigned long long)a->scratch_backing_memory_byte_size,
          a->scratch_wave64_lane_byte_size, waves, wave_kib);
   CHECK(base != 0 && srd_base == base);
   CHECK(a->scratch_resource_descriptor[1] >> 31); /* SWIZZLE_ENABLE */
   CHECK(a->scratch_resource_descriptor[2] == (uint32_t)a->scratch_backing_memory_byte_size);
   CHECK(a->scratch_wave64_lane_byte_size >= private_size);
   CHECK(waves > 0 && (uint64_t)wave_kib * 1024 >= (uint64_t)private_size * 64);
   CHECK((uint64_t)waves * wave_kib * 1024 <= a->scratch_backing_memory_byte_size);
}

/* priv_small's private arrays are in [base, base + size): waves reuse the slots of earlier
 * ones, so what is left is the arrays of the last work-group in each slot used, each
 * complete (all 64 values of each of its work-items). */
static void
check_marks_in(uint64_t base, uint64_t size, uint32_t grid)
{
   uint32_t count = grid * 64;
   uint8_t *seen = calloc(count, 1);
   CHECK(seen);
   const uint32_t *p = (const uint32_t *)(uintptr_t)base;
   for (uint64_t i = 0; i < size / 4; i++) {
      uint32_t v = p[i] - MARK;
      if (v < count)
         seen[v] = 1;
   }
   uint32_t found = 0, items = 0, partial = 0;
   for (uint32_t g = 0; g < grid; g++) {
      uint32_t n = 0;
      for (uint32_t i = 0; i < 64; i++)
         n += seen[g * 64 + i];
      found += n;
      items += n == 64;
      partial += n != 0 && n != 64;
   }
   free(seen);
   printf("scratch: the private arrays of %u work-items (%u values) in the queue's scratch\n",
          items, found);
   CHECK(items >= 64 && items % 64 == 0 && partial == 0);
}

int
main(int argc, char **argv)
{
   CHECK(argc == 3);
   on_rocr = strcmp(argv[2], "rocr") == 0;
   CHECK_HSA(hsa_init());
   kfd_test_env env;
   kfd_test_env_init(&env);
   hsa_agent_t gpu = env.gpus[0];
   hsa_executable_t exec = kfd_test_load(gpu, argv[1]);
   kfd_test_kernel small = kfd_test_find_kernel(exec, gpu, "priv_small.kd");
   kfd_test_kernel large = kfd_test_find_kernel(exec, gpu, "priv_large.kd");
   CHECK(small.private_size >= 256 && large.private_size >= 16384);
   hsa_queue_t *q;
   CHECK_HSA(hsa_queue_create(gpu, 128, HSA_QUEUE_TYPE_MULTI, queue_error, NULL, UINT32_MAX,
                              UINT32_MAX, &q));
   const amd_queue_t *a = (const amd_queue_t *)q; /* ROCr: hsa_queue_t is its first member */
   if (on_rocr) /* queues start without scratch */
      CHECK(a->scratch_backing_memory_location == 0 && a->compute_tmpring_size == 0);

   /* Small scratch: requested once, kept by the queue. */
   const uint32_t grid = 4096;
   double first = dispatch_check(&env, q, &small, 64, MARK, grid);
   uint64_t base = 0, size = 0;
   if (on_rocr) {
      check_queue_scratch(a, small.private_size);
      CHECK(!(a->queue_properties & AMD_QUEUE_PROPERTIES_USE_SCRATCH_ONCE));
      base = a->scratch_backing_memory_location;
      size = a->scratch_backing_memory_byte_size;
      check_marks_in(base, size, grid);
   }
   double second = dispatch_check(&env, q, &small, 64, MARK, grid);
   if (on_rocr)
      CHECK(a->scratch_backing_memory_location == base &&
            a->scratch_backing_memory_byte_size == size);
   printf("small: %u work-items x %u bytes of private memory, twice: %.2f ms (with the "
          "scratch request on ROCr), then %.2f ms\n", grid, small.private_size, first, second);

   /* Large scratch (16 KiB per work-item): single use, given back after the dispatch. */
   double t_large = dispatch_check(&env, q, &large, 4096, 0, 1024);
   if (on_rocr) {
      CHECK(a->scratch_backing_memory_location == 0 && a->compute_tmpring_size == 0);
      CHECK(!(a->queue_properties & AMD_QUEUE_PROPERTIES_USE_SCRATCH_ONCE));
   }
   printf("large: 1024 work-items x %u bytes of private memory: %.2f ms\n", large.private_size,
          t_large);
   /* The queue goes on: small scratch again. */
   dispatch_check(&env, q, &small, 64, MARK, 256);
   if (on_rocr)
      check_queue_scratch(a, small.private_size);
   CHECK(atomic_load(&errors_seen) == 0);
   CHECK_HSA(hsa_queue_destroy(q));

   /* More scratch per wave than COMPUTE_TMPRING_SIZE can hold: the queue's error callback. */
   CHECK_HSA(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, queue_error, NULL, UINT32_MAX,
                              UINT32_MAX, &q));
   kfd_test_kernel huge = small;
   huge.private_size = 200000;
   uint8_t *kernarg = kfd_test_alloc(&env, env.kernarg_pool, 4096);
   memset(kernarg, 0, 4096);
   hsa_signal_t done;
   CHECK_HSA(hsa_signal_create(1, 0, NULL, &done));
   kfd_test_dispatch(q, &huge, kernarg, 64, 64, done);
   for (int i = 0; i < 5000 && atomic_load(&errors_seen) == 0; i++)
      usleep(1000);
   CHECK(atomic_load(&errors_seen) == 1);
   CHECK(atomic_load(&last_error) == HSA_STATUS_ERROR_OUT_OF_RESOURCES);
   CHECK(hsa_signal_load_scacquire(done) == 1); /* never ran */
   printf("huge: %u bytes per work-item -> HSA_STATUS_ERROR_OUT_OF_RESOURCES\n",
          huge.private_size);
   CHECK_HSA(hsa_queue_destroy(q));
   CHECK_HSA(hsa_signal_destroy(done));

   if (on_rocr) {
      /* No private_segment_size in the packet: no scratch request, no scratch. */
      CHECK_HSA(hsa_amd_register_system_event_handler(system_event, NULL));
      CHECK_HSA(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, queue_error, NULL, UINT32_MAX,
                                 UINT32_MAX, &q));
      kfd_test_kernel none = small;
      none.private_size = 0;
      uint32_t *out = kfd_test_alloc(&env, env.system_pool, 64 * 4);
      uint32_t *idx = kfd_test_alloc(&env, env.system_pool, 4);
      idx[0] = 5;
      struct {
         uint32_t *out;
         const uint32_t *idx;
         uint32_t n;
      } args = {out, idx, 1};
      memset(kernarg, 0, 4096);
      memcpy(kernarg, &args, sizeof(args));
      CHECK_HSA(hsa_signal_create(1, 0, NULL, &done));
      atomic_store(&errors_seen, 0);
      kfd_test_dispatch(q, &none, kernarg, 64, 64, done);
      for (int i = 0; i < 5000 && (atomic_load(&errors_seen) == 0 ||
                                   atomic_load(&faults_seen) == 0); i++)
         usleep(1000);
      CHECK(atomic_load(&errors_seen) == 1);
      CHECK(atomic_load(&last_error) ==
            (hsa_status_t)HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION);
      CHECK(atomic_load(&faults_seen) >= 1 && atomic_load(&fault_address) < (1u << 20));
      CHECK(hsa_signal_load_scacquire(done) == 1);
      printf("no scratch: private access faulted at 0x%llx\n",
             (unsigned long long)atomic_load(&fault_address));
      CHECK_HSA(hsa_queue_destroy(q));
      CHECK_HSA(hsa_signal_destroy(done));
      CHECK_HSA(hsa_amd_memory_pool_free(idx));
      CHECK_HSA(hsa_amd_memory_pool_free(out));
   }
   CHECK_HSA(hsa_amd_memory_pool_free(kernarg));
   CHECK_HSA(hsa_executable_destroy(exec));
   CHECK_HSA(hsa_shut_down());
   printf("kfd_test_scratch: ok (%s)\n", argv[2]);
   return 0;
}
