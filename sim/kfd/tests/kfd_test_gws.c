/*
 * kfd_test_gws: global wave sync through ROCr's cooperative queue. The software KFD reports
 * NumGws 64, so ROCr 5.2.3 offers cooperative queues (HSA_AMD_AGENT_INFO_COOPERATIVE_QUEUES)
 * and creates the agent's shared one with hsaKmtAllocQueueGWS (AqlQueue::EnableGWS). On it a
 * barrier across the 24 work-groups of a dispatch (gws.cl) holds every work-group until all
 * arrived, twice (the barrier re-arms itself). A queue without GWS faults on the same kernel
 * with an illegal instruction, reported through the queue's error callback.
 * Usage: kfd_test_gws gws.hsaco
 */
#include <stdbool.h>
#include "kfd_test_common.h"

#define GROUPS 24u

static void
run_and_wait(hsa_queue_t *q, const kfd_test_kernel *k, void *kernarg, uint32_t groups)
{
   hsa_signal_t done;
   CHECK_HSA(hsa_signal_create(1, 0, NULL, &done));
   kfd_test_dispatch(q, k, kernarg, groups * 64, 64, done);
   CHECK(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_LT, 1, UINT64_MAX,
                                   HSA_WAIT_STATE_BLOCKED) == 0);
   CHECK_HSA(hsa_signal_destroy(done));
}

int
main(int argc, char **argv)
{
   CHECK(argc == 2);
   CHECK_HSA(hsa_init());
   kfd_test_env env;
   kfd_test_env_init(&env);
   hsa_agent_t gpu = env.gpus[0];
   bool coop = false;
   CHECK_HSA(hsa_agent_get_info(gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_COOPERATIVE_QUEUES,
                                &coop));
   CHECK(coop);
   hsa_executable_t exec = kfd_test_load(gpu, argv[1]);
   kfd_test_kernel init = kfd_test_find_kernel(exec, gpu, "gws_init.kd");
   kfd_test_kernel count = kfd_test_find_kernel(exec, gpu, "grid_count.kd");

   hsa_queue_t *q, *q2;
   CHECK_HSA(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_COOPERATIVE, queue_error, NULL,
                              UINT32_MAX, UINT32_MAX, &q));
   /* ROCr shares the agent's one GWS queue. */
   CHECK_HSA(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_COOPERATIVE, queue_error, NULL,
                              UINT32_MAX, UINT32_MAX, &q2));
   CHECK(q2 == q && q->type == HSA_QUEUE_TYPE_COOPERATIVE);

   uint32_t *ctr = kfd_test_alloc(&env, env.system_pool, 4 * (1 + GROUPS));
   uint32_t *out = ctr + 1;
   uint8_t *kernarg = kfd_test_alloc(&env, env.kernarg_pool, 64);
   uint32_t nwm1 = GROUPS - 1;
   memcpy(kernarg, &nwm1, 4);
   run_and_wait(q, &init, kernarg, 1);
   for (int round = 1; round <= 2; round++) {
      memset(ctr, 0, 4 * (1 + GROUPS));
      struct {
         uint32_t *ctr, *out;
         uint32_t nwm1;
      } args = {ctr, out, nwm1};
      memcpy(kernarg, &args, sizeof(args));
      run_and_wait(q, &count, kernarg, GROUPS);
      CHECK(ctr[0] == GROUPS);
      for (uint32_t g = 0; g < GROUPS; g++)
         CHECK(out[g] == GROUPS);
   }
   CHECK(atomic_load(&errors_seen) == 0);
   printf("cooperative queue: %u work-groups met at the GWS barrier, twice\n", GROUPS);
   CHECK_HSA(hsa_queue_destroy(q2));
   CHECK_HSA(hsa_queue_destroy(q));

   /* An ordinary queue has no GWS: the barrier is an illegal instruction. */
   CHECK_HSA(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, queue_error, NULL, UINT32_MAX,
                              UINT32_MAX, &q));
   hsa_signal_t done;
   CHECK_HSA(hsa_signal_create(1, 0, NULL, &done));
   kfd_test_dispatch(q, &count, kernarg, 2 * 64, 64, done);
   for (int i = 0; i < 5000 && atomic_load(&errors_seen) == 0; i++)
      usleep(1000);
   CHECK(atomic_load(&errors_seen) == 1);
   CHECK(atomic_load(&last_error) == (hsa_status_t)HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION);
   CHECK(hsa_signal_load_scacquire(done) == 1);
   printf("ordinary queue: the GWS barrier is an illegal instruction\n");
   CHECK_HSA(hsa_queue_destroy(q));
   CHECK_HSA(hsa_signal_destroy(done));
   CHECK_HSA(hsa_amd_memory_pool_free(kernarg));
   CHECK_HSA(hsa_amd_memory_pool_free(ctr));
   CHECK_HSA(hsa_executable_destroy(exec));
   CHECK_HSA(hsa_shut_down());
   printf("kfd_test_gws: ok\n");
   return 0;
}
