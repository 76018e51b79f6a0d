/*
 * kfd_test_fault — faulting kernels through ROCr on the software KFD, and the process
 * survives:
 *  - a store to an address no allocation covers: the KFD's memory event carries the
 *    address (ROCr's VMFaultHandler hands it to the system event handler registered here;
 *    without one ROCr 5.2.3 aborts the process, as on hardware) and the queue's error
 *    callback reports HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION (queue_inactive_signal
 *    error code 0x20000000);
 *  - an instruction gfx906 does not have: HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION
 *    (0x40000000).
 * After each, the faulting packet's completion signal stays 1 and a new queue runs work.
 *
 * argv[1]: fault.hsaco (kernels mem_fault and illegal).
 */
#define _GNU_SOURCE
#include <stdatomic.h>

#include "kfd_test_common.h"

static void
run_faulting(kfd_test_env *env, hsa_executable_t exec, const char *name, uint64_t arg,
             hsa_status_t want)
{
   hsa_agent_t gpu = env->gpus[0];
   kfd_test_kernel k = kfd_test_find_kernel(exec, gpu, name);
   hsa_queue_t *q;
   CHECK_HSA(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, queue_error, NULL, UINT32_MAX,
                              UINT32_MAX, &q));
   uint64_t *kernarg = kfd_test_alloc(env, env->kernarg_pool, 4096);
   kernarg[0] = arg;
   hsa_signal_t done;
   CHECK_HSA(hsa_signal_create(1, 0, NULL, &done));
   atomic_store(&errors_seen, 0);
   kfd_test_dispatch(q, &k, kernarg, 64, 64, done);
   for (int i = 0; i < 5000 && atomic_load(&errors_seen) == 0; i++)
      usleep(1000);
   CHECK(atomic_load(&errors_seen) == 1);
   CHECK(atomic_load(&last_error) == want);
   CHECK(hsa_signal_load_scacquire(done) == 1);
   CHECK_HSA(hsa_queue_destroy(q));
   CHECK_HSA(hsa_signal_destroy(done));
   CHECK_HSA(hsa_amd_memory_pool_free(kernarg));
}

/* A healthy queue after the faults: hsa_amd_memory_fill runs a blit kernel. */
static void
check_alive(kfd_test_env *env)
{
   uint32_t *p = kfd_test_alloc(env, env->vram_pool, 4096);
   CHECK_HSA(hsa_amd_memory_fill(p, 0x600d600d, 1024));
   for (int i = 0; i < 1024; i++)
      CHECK(p[i] == 0x600d600d);
   CHECK_HSA(hsa_amd_memory_pool_free(p));
}

int
main(int argc, char **argv)
{
   CHECK(argc == 2);
   CHECK_HSA(hsa_init());
   kfd_test_env env;
   kfd_test_env_init(&env);
   CHECK_HSA(hsa_amd_register_system_event_handler(system_event, NULL));
   hsa_executable_t exec = kfd_test_load(env.gpus[0], argv[1]);

   const uint64_t bad = 0x100000000000ull + 0x1234; /* 16 TiB: nothing is mapped there */
   run_faulting(&env, exec, "mem_fault.kd", bad,
                (hsa_status_t)HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION);
   for (int i = 0; i < 2000 && atomic_load(&faults_seen) == 0; i++)
      usleep(1000);
   CHECK(atomic_load(&faults_seen) == 1);
   CHECK(atomic_load(&fault_address) == bad);
   printf("memory fault at 0x%llx: system event and queue error callback\n",
          (unsigned long long)bad);
   check_alive(&env);

   run_faulting(&env, exec, "illegal.kd", 0,
                (hsa_status_t)HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION);
   CHECK(atomic_load(&faults_seen) == 1); /* not a memory fault */
   printf("illegal instruction: queue error callback\n");
   check_alive(&env);

   CHECK_HSA(hsa_executable_destroy(exec));
   CHECK_HSA(hsa_shut_down());
   printf("kfd_test_fault: ok\n");
   return 0;
}
