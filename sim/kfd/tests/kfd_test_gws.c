/*
 * kfd_test_gws: global wave sync through ROCr's cooperative queue. The software KFD reports
 * NumGws 64, so ROCr 5.2.3 offers cooperative queues (HSA_AMD_AGENT_INFO_COOPERATIVE_QUEUES)
 * and creates the agent's shared one with hsaKmtAllocQueueGWS (AqlQueue::EnableGWS). On it a
 * barrier across the 24 work-groups of a dispatch (gws.cl) holds every work-group until all
 * arrived, twice (the barrier re-arms itself). With several GPUs each has its own cooperative
 * queue holding its own GWS, all at once, and their barriers run together (amdkfd allows one
 * GWS queue per process and GPU). A queue without GWS faults on the same kernel with an
 * illegal instruction, reported through the queue's error callback.
 * Usage: kfd_test_gws gws.hsaco [GPUs expected, default 1]
 */
#include <stdbool.h>
#include "kfd_test_common.h"

#define GROUPS 24u
#define MAX_GPUS 4u

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
   CHECK(argc == 2 || argc == 3);
   unsigned want_gpus = argc == 3 ? (unsigned)atoi(argv[2]) : 1;
   CHECK(want_gpus >= 1 && want_gpus <= MAX_GPUS);
   CHECK_HSA(hsa_init());
   kfd_test_env env;
   kfd_test_env_init(&env);
   CHECK(env.ngpus == want_gpus);
   hsa_executable_t execs[MAX_GPUS];
   kfd_test_kernel init[MAX_GPUS], count[MAX_GPUS];
   hsa_queue_t *qs[MAX_GPUS], *q2s[MAX_GPUS];
   for (unsigned g = 0; g < env.ngpus; g++) {
      hsa_agent_t gpu = env.gpus[g];
      bool coop = false;
      CHECK_HSA(hsa_agent_get_info(
         gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_COOPERATIVE_QUEUES, &coop));
      CHECK(coop);
      execs[g] = kfd_test_load(gpu, argv[1]);
      init[g] = kfd_test_find_kernel(execs[g], gpu, "gws_init.kd");
      count[g] = kfd_test_find_kernel(execs[g], gpu, "grid_count.kd");
      /* Every GPU's cooperative queue at once: amdkfd limits a process to one GWS queue per
       * GPU (pqm_set_gws checks the process's per-device data), not one in all. */
      CHECK_HSA(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_COOPERATIVE, queue_error, NULL,
                                 UINT32_MAX, UINT32_MAX, &qs[g]));
      /* ROCr shares the agent's one GWS queue. */
      CHECK_HSA(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_COOPERATIVE, queue_error, NULL,
                                 UINT32_MAX, UINT32_MAX, &q2s[g]));
      CHECK(q2s[g] == qs[g] && qs[g]->type == HSA_QUEUE_TYPE_COOPERATIVE);
      CHECK(g == 0 || qs[g] != qs[0]);
   }

   /* Per GPU: a counter, GROUPS results, and its kernarg. */
   uint32_t *ctr = kfd_test_alloc(&env, env.system_pool, 4 * (1 + GROUPS) * env.ngpus);
   uint8_t *kernarg = kfd_test_alloc(&env, env.kernarg_pool, 64 * env.ngpus);
   uint32_t nwm1 = GROUPS - 1;
   for (unsigned g = 0; g < env.ngpus; g++) {
      memcpy(kernarg + 64 * g, &nwm1, 4);
      run_and_wait(qs[g], &init[g], kernarg + 64 * g, 1);
   }
   for (int round = 1; round <= 2; round++) {
      memset(ctr, 0, 4 * (1 + GROUPS) * env.ngpus);
      hsa_signal_t done;
      CHECK_HSA(hsa_signal_create(env.ngpus, 0, NULL, &done));
      /* All GPUs' barriers in flight together, each on its own GWS. */
      for (unsigned g = 0; g < env.ngpus; g++) {
         struct {
            uint32_t *ctr, *out;
            uint32_t nwm1;
         } args = {ctr + (1 + GROUPS) * g, ctr + (1 + GROUPS) * g + 1, nwm1};
         memcpy(kernarg + 64 * g, &args, sizeof(args));
         kfd_test_dispatch(qs[g], &count[g], kernarg + 64 * g, GROUPS * 64, 64, done);
      }
      CHECK(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_LT, 1, UINT64_MAX,
                                      HSA_WAIT_STATE_BLOCKED) == 0);
      CHECK_HSA(hsa_signal_destroy(done));
      for (unsigned g = 0; g < env.ngpus; g++) {
         uint32_t *c = ctr + (1 + GROUPS) * g;
         CHECK(c[0] == GROUPS);
         for (uint32_t w = 0; w < GROUPS; w++)
            CHECK(c[1 + w] == GROUPS);
      }
   }
   CHECK(atomic_load(&errors_seen) == 0);
   printf("cooperative queues of %u GPU(s): %u work-groups met at each GWS barrier, twice\n",
          env.ngpus, GROUPS);
   for (unsigned g = 0; g < env.ngpus; g++) {
      CHECK_HSA(hsa_queue_destroy(q2s[g]));
      CHECK_HSA(hsa_queue_destroy(qs[g]));
   }

   /* An ordinary queue has no GWS: the barrier is an illegal instruction. */
   hsa_queue_t *q;
   CHECK_HSA(hsa_queue_create(env.gpus[0], 64, HSA_QUEUE_TYPE_MULTI, queue_error, NULL, UINT32_MAX,
                              UINT32_MAX, &q));
   hsa_signal_t done;
   CHECK_HSA(hsa_signal_create(1, 0, NULL, &done));
   kfd_test_dispatch(q, &count[0], kernarg, 2 * 64, 64, done);
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
   for (unsigned g = 0; g < env.ngpus; g++)
      CHECK_HSA(hsa_executable_destroy(execs[g]));
   CHECK_HSA(hsa_shut_down());
   printf("kfd_test_gws: ok\n");
   return 0;
}
