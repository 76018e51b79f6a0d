/*
 * kfd_test_interrupt — interrupt signals completed by a kernel on AMD's ROCr over the software
 * KFD, waited for by the host without polling.
 *
 * ROCr's signals are interrupt signals: each owns a KFD event, and its amd_signal_t carries
 * the event's mailbox slot (the KFD's event page) and id. A kernel that changes such a signal
 * with ockl's __ockl_hsa_signal_store / _add writes the id into the slot and executes
 * s_sendmsg MSG_INTERRUPT; the KFD's interrupt handler sets the event and wakes the host,
 * which sleeps in hsaKmtWaitOnEvent (ROCr spins only 200 us; every kernel here waits 100 ms
 * first). The KFD's waits have no cap: a lost interrupt is a timeout here, and a mailbox the
 * GPU cannot reach a memory fault.
 *
 * Checked: the slot lies in GPU-mapped memory and reads UNSIGNALED (all ones) before and
 * after (the handler acknowledges it); a store from one work-item wakes the host, for an
 * event id below 256 (M0 names it) and one above (M0 holds only its low 8 bits: the handler
 * searches the written slots); adds from 256 work-items (4 waves, 4 interrupts) take the
 * value to 0; no queue error and no memory fault.
 *
 * The same program runs on the software HSA runtime (ctest sim_test_interrupt), whose
 * signals are interrupt signals too (sim/sim_signal.c).
 *
 * argv[1]: interrupt.hsaco.
 */
#define _GNU_SOURCE
#include <hsa/amd_hsa_signal.h>
#include <time.h>

#include "kfd_test_common.h"

#define DELAY_TICKS 10000000ull      /* 100 ms of the kernel's 100 MHz real-time clock */
#define WAIT_NS 20000000000ull       /* the host's wait: 20 s */
#define SLOT_UNSIGNALED UINT64_MAX   /* amdkfd's UNSIGNALED_EVENT_SLOT */
#define EXTRA_SIGNALS 300            /* pushes event ids past 255 */

static amd_signal_t *
amd_signal(hsa_signal_t s)
{
   return (amd_signal_t *)(uintptr_t)s.handle;
}

static double
now_ms(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* The signal's event mailbox: a slot of the KFD's event page, mapped for the GPU. */
static volatile uint64_t *
check_mailbox(hsa_signal_t s)
{
   amd_signal_t *a = amd_signal(s);
   CHECK(a->kind == AMD_SIGNAL_KIND_USER);
   CHECK(a->event_mailbox_ptr != 0 && a->event_id != 0);
   volatile uint64_t *slot = (volatile uint64_t *)(uintptr_t)a->event_mailbox_ptr;
   CHECK(__atomic_load_n(slot, __ATOMIC_ACQUIRE) == SLOT_UNSIGNALED);
   return slot;
}

typedef struct test_ctx {
   kfd_test_env *env;
   hsa_queue_t *q;
   kfd_test_kernel store_late, add_each;
   uint64_t *kernarg;
   hsa_signal_t done;
} test_ctx;

static void
wait_done(test_ctx *t)
{
   CHECK(hsa_signal_wait_scacquire(t->done, HSA_SIGNAL_CONDITION_LT, 1, WAIT_NS,
                                   HSA_WAIT_STATE_BLOCKED) == 0);
   hsa_signal_store_relaxed(t->done, 1);
}

/* Work-item 0 stores 7 into `s` after 100 ms; the host sleeps until the interrupt. */
static void
test_store(test_ctx *t, hsa_signal_t s)
{
   volatile uint64_t *slot = check_mailbox(s);
   uint32_t id = amd_signal(s)->event_id;
   t->kernarg[0] = s.handle;
   t->kernarg[1] = 7;
   t->kernarg[2] = DELAY_TICKS;
   double t0 = now_ms();
   kfd_test_dispatch(t->q, &t->store_late, t->kernarg, 64, 64, t->done);
   hsa_signal_value_t v =
      hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 7, WAIT_NS, HSA_WAIT_STATE_BLOCKED);
   double waited = now_ms() - t0;
   if (v != 7) {
      fprintf(stderr, "store: event %u: the host was not woken (value %lld after %.0f ms)\n",
              id, (long long)v, waited);
      exit(1);
   }
   /* The host may wake on the value before the wave's interrupt is handled; once the
    * dispatch is done, the handler (run by s_sendmsg on the wave's thread) has acknowledged
    * the slot. */
   wait_done(t);
   CHECK(__atomic_load_n(slot, __ATOMIC_ACQUIRE) == SLOT_UNSIGNALED);
   CHECK(atomic_load(&errors_seen) == 0 && atomic_load(&faults_seen) == 0);
   printf("store: event %u (M0 %u) woke the host after %.0f ms\n", id, id & 0xff, waited);
}

/* 256 work-items add -1 each to a signal at 256; the host sleeps until it reads 0. */
static void
test_add(test_ctx *t, hsa_signal_t s)
{
   volatile uint64_t *slot = check_mailbox(s);
   hsa_signal_store_relaxed(s, 256);
   t->kernarg[0] = s.handle;
   t->kernarg[1] = DELAY_TICKS;
   double t0 = now_ms();
   kfd_test_dispatch(t->q, &t->add_each, t->kernarg, 256, 64, t->done);
   hsa_signal_value_t v =
      hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 0, WAIT_NS, HSA_WAIT_STATE_BLOCKED);
   double waited = now_ms() - t0;
   if (v != 0) {
      fprintf(stderr, "add: the host was not woken (value %lld after %.0f ms)\n",
              (long long)v, waited);
      exit(1);
   }
   wait_done(t);
   CHECK(__atomic_load_n(slot, __ATOMIC_ACQUIRE) == SLOT_UNSIGNALED);
   CHECK(atomic_load(&errors_seen) == 0 && atomic_load(&faults_seen) == 0);
   printf("add: 256 work-items took the value to 0; the host woke after %.0f ms\n", waited);
}

int
main(int argc, char **argv)
{
   CHECK(argc == 2);
   CHECK_HSA(hsa_init());
   CHECK_HSA(hsa_amd_register_system_event_handler(system_event, NULL));
   kfd_test_env env;
   kfd_test_env_init(&env);
   hsa_agent_t gpu = env.gpus[0];
   hsa_executable_t exec = kfd_test_load(gpu, argv[1]);
   test_ctx t = {.env = &env};
   t.store_late = kfd_test_find_kernel(exec, gpu, "store_late.kd");
   t.add_each = kfd_test_find_kernel(exec, gpu, "add_each.kd");
   CHECK_HSA(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, queue_error, NULL, UINT32_MAX,
                              UINT32_MAX, &t.q));
   t.kernarg = kfd_test_alloc(&env, env.kernarg_pool, 4096);
   CHECK_HSA(hsa_signal_create(1, 0, NULL, &t.done));

   hsa_signal_t low, extra[EXTRA_SIGNALS];
   CHECK_HSA(hsa_signal_create(0, 0, NULL, &low));
   CHECK(amd_signal(low)->event_id < 256);
   for (int i = 0; i < EXTRA_SIGNALS; i++)
      CHECK_HSA(hsa_signal_create(0, 0, NULL, &extra[i]));
   hsa_signal_t high = extra[EXTRA_SIGNALS - 1];
   CHECK(amd_signal(high)->event_id >= 256);

   test_store(&t, low);
   test_store(&t, high);
   test_add(&t, low);

   for (int i = 0; i < EXTRA_SIGNALS; i++)
      CHECK_HSA(hsa_signal_destroy(extra[i]));
   CHECK_HSA(hsa_signal_destroy(low));
   CHECK_HSA(hsa_signal_destroy(t.done));
   CHECK_HSA(hsa_amd_memory_pool_free(t.kernarg));
   CHECK_HSA(hsa_queue_destroy(t.q));
   CHECK_HSA(hsa_executable_destroy(exec));
   CHECK_HSA(hsa_shut_down());
   printf("kfd_test_interrupt: ok\n");
   return 0;
}
