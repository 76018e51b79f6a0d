/*
 * sim/tests/sim_test_wake.c — stress of the runtime's sleep/wake protocol (sim_priv.h's
 * eventcount): doorbell rings that must wake a packet processor going to sleep, signal
 * stores that must wake a thread going to sleep in hsa_signal_wait, completions that must
 * wake the async-handler thread, and multi-signal waits. Producers ring at gaps chosen to
 * land in every phase of the consumer (busy, polling, announcing, asleep).
 *
 * The runtime runs with HSACL_SIM_WAKE_DELAY, which widens the window between a waiter's
 * last look and its announcement. A lost wake-up shows as a stall: a blocked wait (no timeout) hangs until the ctest
 * timeout; the packet processor's safety poll (1 s) and the worker's (50 ms) turn it into
 * a delay, which the test counts: a round trip over LOST_NS is a failure for the processor
 * and for waits, and more than a few are one for handlers (a loaded machine can stall a
 * thread that long now and then).
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <time.h>

#include "sim_test_common.h"

#define LOST_NS 400000000ull       /* a round trip this long means a lost wake-up */
#define HANDLER_LATE_NS 45000000ull /* near the worker's 50 ms safety poll */

static uint64_t
now_ns(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Every round first makes the consumer handle one item, then, after a gap swept in fine
 * steps (0 to ~4000 pauses, with an occasional yield or sleep), hands it the item the
 * round waits for: some gaps end exactly while the consumer is between its last look for
 * work and its announcement that it sleeps, the window a lost wake-up needs. The round
 * then blocks, so nothing but that one wake-up can end it. */
static void
gap(unsigned i)
{
   unsigned step = (i * 7919u) % 4096u;
   if (step % 97 == 0) {
      sched_yield();
      return;
   }
   if (step % 89 == 0) {
      struct timespec ts = { 0, 50000 };
      nanosleep(&ts, NULL);
      return;
   }
   for (unsigned s = 0; s < step; s++)
      __builtin_ia32_pause();
}

static hsa_signal_value_t
wait_eq(hsa_signal_t s, hsa_signal_value_t v)
{
   return hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, v, UINT64_MAX,
                                    HSA_WAIT_STATE_BLOCKED);
}

/* ---- doorbell: several producers, one packet processor ---------------------------------- */

typedef struct {
   hsa_queue_t *q;
   unsigned id, rounds;
   uint64_t worst_ns;
} producer_arg;

static void
publish(hsa_queue_t *q, hsa_signal_t completion)
{
   hsa_barrier_and_packet_t pkt;
   memset(&pkt, 0, sizeof(pkt));
   pkt.completion_signal = completion;
   uint64_t index = hsa_queue_add_write_index_scacq_screl(q, 1);
   while (index - hsa_queue_load_read_index_scacquire(q) >= q->size)
      sched_yield();
   uint8_t *slot = (uint8_t *)q->base_address + (index & (q->size - 1)) * 64;
   memcpy(slot + 4, (const uint8_t *)&pkt + 4, 60);
   uint32_t first = (uint32_t)(HSA_PACKET_TYPE_BARRIER_AND << HSA_PACKET_HEADER_TYPE) |
                    (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE);
   __atomic_store_n((uint32_t *)slot, first, __ATOMIC_RELEASE);
   hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)index);
}

static void *
producer_main(void *p)
{
   producer_arg *a = p;
   hsa_signal_t first, second;
   CHECK_HSA(hsa_signal_create(1, 0, NULL, &first));
   CHECK_HSA(hsa_signal_create(1, 0, NULL, &second));
   for (unsigned i = 0; i < a->rounds; i++) {
      hsa_signal_store_relaxed(first, 1);
      hsa_signal_store_relaxed(second, 1);
      publish(a->q, first);
      gap(i + a->id * 1000);
      uint64_t t0 = now_ns();
      publish(a->q, second);
      CHECK(wait_eq(second, 0) == 0);
      uint64_t dt = now_ns() - t0;
      if (dt > a->worst_ns)
         a->worst_ns = dt;
      CHECK(wait_eq(first, 0) == 0);
   }
   CHECK_HSA(hsa_signal_destroy(first));
   CHECK_HSA(hsa_signal_destroy(second));
   return NULL;
}

/* One producer first: with several, a later ring would hide a lost one. */
static void
test_doorbell(const test_env *env, unsigned producers, unsigned rounds)
{
   hsa_queue_t *q;
   CHECK_HSA(hsa_queue_create(env->gpu, 256, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX,
                              UINT32_MAX, &q));
   pthread_t t[4];
   producer_arg a[4];
   uint64_t worst = 0;
   CHECK(producers <= 4);
   for (unsigned i = 0; i < producers; i++) {
      a[i] = (producer_arg){ .q = q, .id = i, .rounds = rounds };
      CHECK(pthread_create(&t[i], NULL, producer_main, &a[i]) == 0);
   }
   for (unsigned i = 0; i < producers; i++) {
      CHECK(pthread_join(t[i], NULL) == 0);
      CHECK(a[i].worst_ns < LOST_NS);
      worst = a[i].worst_ns > worst ? a[i].worst_ns : worst;
   }
   CHECK_HSA(hsa_queue_destroy(q));
   printf("doorbell: %u round trips by %u producer(s), worst %.1f ms\n", rounds * producers,
          producers, (double)worst / 1e6);
}

/* ---- signal stores against hsa_signal_wait --------------------------------------------- */

typedef struct {
   hsa_signal_t ping, pong;
   unsigned rounds;
} pingpong_arg;

static void *
pong_main(void *p)
{
   pingpong_arg *a = p;
   for (unsigned i = 1; i <= a->rounds; i++) {
      /* The odd value wakes this thread for nothing; it must sleep again in time. */
      CHECK(wait_eq(a->ping, 2 * i) == (hsa_signal_value_t)(2 * i));
      if (i % 2)
         hsa_signal_store_screlease(a->pong, i);
      else
         hsa_signal_add_relaxed(a->pong, 1);
   }
   return NULL;
}

static void
test_signal_wait(void)
{
   pingpong_arg a = { .rounds = 10000 };
   CHECK_HSA(hsa_signal_create(0, 0, NULL, &a.ping));
   CHECK_HSA(hsa_signal_create(0, 0, NULL, &a.pong));
   pthread_t t;
   CHECK(pthread_create(&t, NULL, pong_main, &a) == 0);
   for (unsigned i = 1; i <= a.rounds; i++) {
      hsa_signal_store_relaxed(a.ping, 2 * i - 1);
      gap(i);
      hsa_signal_store_relaxed(a.ping, 2 * i);
      CHECK(wait_eq(a.pong, i) == (hsa_signal_value_t)i);
   }
   CHECK(pthread_join(t, NULL) == 0);
   CHECK_HSA(hsa_signal_destroy(a.ping));
   CHECK_HSA(hsa_signal_destroy(a.pong));
   printf("signal wait: %u ping-pongs\n", a.rounds);
}

/* ---- async handlers: registered per round, completed by another thread ------------------ */

static atomic_uint handled;

static bool
count_handler(hsa_signal_value_t value, void *arg)
{
   (void)value;
   hsa_signal_t done = *(hsa_signal_t *)arg;
   atomic_fetch_add(&handled, 1);
   hsa_signal_subtract_screlease(done, 1);
   return false;
}

typedef struct {
   hsa_signal_t first, second;
   atomic_uint armed;
   unsigned rounds;
} trigger_arg;

static void *
trigger_main(void *p)
{
   trigger_arg *a = p;
   for (unsigned i = 1; i <= a->rounds; i++) {
      while (atomic_load(&a->armed) < i)
         sched_yield();
      hsa_signal_store_screlease(a->first, 0);
      gap(i);
      hsa_signal_store_screlease(a->second, 0);
   }
   return NULL;
}

static void
test_handlers(void)
{
   trigger_arg a = { .rounds = 5000 };
   hsa_signal_t done;
   CHECK_HSA(hsa_signal_create(1, 0, NULL, &a.first));
   CHECK_HSA(hsa_signal_create(1, 0, NULL, &a.second));
   CHECK_HSA(hsa_signal_create(2, 0, NULL, &done));
   pthread_t t;
   CHECK(pthread_create(&t, NULL, trigger_main, &a) == 0);
   unsigned late = 0;
   uint64_t worst = 0;
   for (unsigned i = 1; i <= a.rounds; i++) {
      hsa_signal_store_relaxed(a.first, 1);
      hsa_signal_store_relaxed(a.second, 1);
      hsa_signal_store_relaxed(done, 2);
      CHECK_HSA(hsa_amd_signal_async_handler(a.first, HSA_SIGNAL_CONDITION_EQ, 0, count_handler,
                                             &done));
      CHECK_HSA(hsa_amd_signal_async_handler(a.second, HSA_SIGNAL_CONDITION_EQ, 0,
                                             count_handler, &done));
      atomic_store(&a.armed, i);
      CHECK(wait_eq(a.second, 0) == 0);
      uint64_t t0 = now_ns();
      CHECK(wait_eq(done, 0) == 0);
      uint64_t dt = now_ns() - t0;
      CHECK(dt < LOST_NS);
      late += dt > HANDLER_LATE_NS;
      worst = dt > worst ? dt : worst;
   }
   /* Registered after its signal fired, to a thread that may be asleep: runs at once. */
   for (unsigned i = 0; i < 200; i++) {
      hsa_signal_store_relaxed(done, 1);
      gap(i * 13);
      CHECK_HSA(hsa_amd_signal_async_handler(a.first, HSA_SIGNAL_CONDITION_EQ, 0,
                                             count_handler, &done));
      CHECK(wait_eq(done, 0) == 0);
   }
   CHECK(pthread_join(t, NULL) == 0);
   CHECK(atomic_load(&handled) == 2 * a.rounds + 200);
   CHECK(late <= a.rounds / 200);
   CHECK_HSA(hsa_signal_destroy(a.first));
   CHECK_HSA(hsa_signal_destroy(a.second));
   CHECK_HSA(hsa_signal_destroy(done));
   printf("async handlers: %u rounds, %u slower than %.0f ms, worst %.1f ms\n", a.rounds, late,
          HANDLER_LATE_NS / 1e6, worst / 1e6);
}

/* ---- wait_any over two signals, one of them modified by another thread ------------------ */

static void *
any_main(void *p)
{
   pingpong_arg *a = p;
   for (unsigned i = 1; i <= a->rounds; i++) {
      hsa_signal_t sigs[2] = { a->ping, a->pong };
      hsa_signal_condition_t conds[2] = { HSA_SIGNAL_CONDITION_EQ, HSA_SIGNAL_CONDITION_EQ };
      hsa_signal_value_t values[2] = { -1, (hsa_signal_value_t)i };
      hsa_signal_value_t v = 0;
      CHECK(hsa_amd_signal_wait_any(2, sigs, conds, values, UINT64_MAX, HSA_WAIT_STATE_BLOCKED,
                                    &v) == 1);
      CHECK(v == (hsa_signal_value_t)i);
      hsa_signal_store_screlease(a->ping, i);
   }
   return NULL;
}

static void
test_wait_any(void)
{
   pingpong_arg a = { .rounds = 10000 };
   CHECK_HSA(hsa_signal_create(0, 0, NULL, &a.ping));
   CHECK_HSA(hsa_signal_create(0, 0, NULL, &a.pong));
   pthread_t t;
   CHECK(pthread_create(&t, NULL, any_main, &a) == 0);
   for (unsigned i = 1; i <= a.rounds; i++) {
      hsa_signal_store_relaxed(a.pong, -2); /* a wake-up for nothing */
      gap(i);
      hsa_signal_store_relaxed(a.pong, i);
      CHECK(wait_eq(a.ping, i) == (hsa_signal_value_t)i);
   }
   CHECK(pthread_join(t, NULL) == 0);
   CHECK_HSA(hsa_signal_destroy(a.ping));
   CHECK_HSA(hsa_signal_destroy(a.pong));
   printf("wait_any: %u rounds\n", a.rounds);
}

int
main(void)
{
   /* Widen the race windows (sim_priv.h): a lost wake-up then shows within a few rounds. */
   setenv("HSACL_SIM_WAKE_DELAY", "1", 1);
   test_env env;
   test_env_init(&env);
   test_doorbell(&env, 1, 30000);
   test_doorbell(&env, 3, 5000);
   test_signal_wait();
   test_handlers();
   test_wait_any();
   CHECK_HSA(hsa_shut_down());
   printf("sim_test_wake: ok\n");
   return 0;
}
