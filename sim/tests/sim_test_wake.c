/*
 * sim/tests/sim_test_wake.c — stress of the runtime's sleep/wake protocol (sim_priv.h's
 * eventcount): doorbell rings that must wake a packet processor going to sleep, signal
 * stores that must wake a thread going to sleep in hsa_signal_wait, completions that must
 * wake the async-handler thread, and multi-signal waits. Producers ring at gaps chosen to
 * land in every phase of the consumer (busy, polling, announcing, asleep).
 *
 * The first part repeats sim_test_queue's pattern (barrier dependencies stored by the
 * host, a completion signal the processor decrements many times while the host announces
 * its sleep), the one that hung in sim_test_queue until 9747a66.
 *
 * The runtime runs with HSACL_SIM_WAKE_DELAY, which pauses at random between every two
 * steps of the protocol on both sides (sim_signal.c), widening each window a lost wake-up
 * needs. A lost wake-up shows as a stall: a blocked wait has no safety poll and gives up
 * after WAIT_BOUND_NS, a failed check; the packet processor's safety poll (1 s) and the
 * worker's (50 ms) turn it into a delay, which the test counts: a round trip over LOST_NS
 * is a failure for the processor and for waits, and more than a few are one for handlers
 * (a loaded machine can stall a thread that long now and then).
 *
 * Checked against the bug of 9747a66 put back (ticket read after the clear): every run
 * failed, the queue part alone in each of 15 runs (within its first 2000 rounds), the
 * signal part in each of 3, the doorbell and wait_any parts in most.
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <time.h>

#include "sim_test_common.h"

#define LOST_NS 400000000ull       /* a round trip this long means a lost wake-up */
#define HANDLER_LATE_NS 45000000ull /* near the worker's 50 ms safety poll */
#define WAIT_BOUND_NS 5000000000ull /* a blocked wait this long: lost for good */

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

/* A blocked wait: nothing but a wake-up ends it early. A lost one would block forever
 * (nothing polls on this side); the bound turns that into a failed check within seconds
 * instead of a ctest timeout. */
static hsa_signal_value_t
wait_eq(hsa_signal_t s, hsa_signal_value_t v)
{
   return hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, v, WAIT_BOUND_NS,
                                    HSA_WAIT_STATE_BLOCKED);
}

/* ---- doorbell: several producers, one packet processor ---------------------------------- */

typedef struct {
   hsa_queue_t *q;
   unsigned id, rounds;
   uint64_t worst_ns;
} producer_arg;

/* A barrier-AND packet on `deps` (up to 5) that decrements `completion`. */
static void
publish_barrier(hsa_queue_t *q, const hsa_signal_t *deps, unsigned ndeps,
                hsa_signal_t completion)
{
   hsa_barrier_and_packet_t pkt;
   memset(&pkt, 0, sizeof(pkt));
   for (unsigned i = 0; i < ndeps; i++)
      pkt.dep_signal[i] = deps[i];
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

static void
publish(hsa_queue_t *q, hsa_signal_t completion)
{
   publish_barrier(q, NULL, 0, completion);
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

/* ---- sim_test_queue's pattern ----------------------------------------------------------
 * A barrier-AND whose two dependencies the host stores one after the other (the packet
 * processor sleeps on the epoch: the first store wakes it for nothing, the second must
 * wake it again), followed by packets without dependencies, every one decrementing the
 * completion signal the host blocks on: those decrements come back to back while the host
 * announces its sleep. Until 9747a66 a decrement could land between the host's clear of
 * `woken` and its ticket, and every later one found `woken` set: sim_test_queue's wait
 * for 200 barriers hung (once, under load, with ASan). Here the wait has a timeout, so a
 * lost wake-up shows as a round trip of that length, and so does one the processor's
 * safety poll (1 s) ends. Now and then the host first waits briefly for a value that does
 * not come (a timed-out sleeper leaves its announcement behind, as sim_test_queue's 30 ms
 * waits do). */
static void
test_queue_pattern(const test_env *env, unsigned rounds)
{
   hsa_queue_t *q;
   CHECK_HSA(hsa_queue_create(env->gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX,
                              UINT32_MAX, &q));
   hsa_signal_t deps[2], c;
   CHECK_HSA(hsa_signal_create(1, 0, NULL, &deps[0]));
   CHECK_HSA(hsa_signal_create(1, 0, NULL, &deps[1]));
   CHECK_HSA(hsa_signal_create(1, 0, NULL, &c));
   uint64_t worst = 0;
   for (unsigned i = 0; i < rounds; i++) {
      unsigned n = 2 + i % 23; /* packets, all decrementing c; below the ring's 64 */
      hsa_signal_store_relaxed(deps[0], 1);
      hsa_signal_store_relaxed(deps[1], 1);
      hsa_signal_store_relaxed(c, n);
      publish_barrier(q, deps, 2, c);
      for (unsigned k = 1; k < n; k++)
         publish_barrier(q, NULL, 0, c);
      if (i % 16 == 0)
         CHECK(hsa_signal_wait_scacquire(c, HSA_SIGNAL_CONDITION_EQ, 0, 100000,
                                         HSA_WAIT_STATE_BLOCKED) == (hsa_signal_value_t)n);
      gap(i);
      hsa_signal_store_screlease(deps[0], 0);
      gap(3 * i + 1);
      uint64_t t0 = now_ns();
      hsa_signal_store_screlease(deps[1], 0);
      hsa_signal_value_t v = hsa_signal_wait_scacquire(c, HSA_SIGNAL_CONDITION_EQ, 0,
                                                       2 * LOST_NS, HSA_WAIT_STATE_BLOCKED);
      uint64_t dt = now_ns() - t0;
      if (v != 0 || dt >= LOST_NS)
         fprintf(stderr, "round %u (%u packets): c = %lld after %.1f ms\n", i, n,
                 (long long)v, dt / 1e6);
      CHECK(v == 0 && dt < LOST_NS);
      worst = dt > worst ? dt : worst;
   }
   CHECK(hsa_queue_load_read_index_scacquire(q) == hsa_queue_load_write_index_scacquire(q));
   CHECK_HSA(hsa_queue_destroy(q));
   CHECK_HSA(hsa_signal_destroy(deps[0]));
   CHECK_HSA(hsa_signal_destroy(deps[1]));
   CHECK_HSA(hsa_signal_destroy(c));
   printf("queue pattern: %u rounds, worst %.1f ms\n", rounds, worst / 1e6);
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
test_signal_wait(unsigned rounds)
{
   pingpong_arg a = { .rounds = rounds };
   CHECK_HSA(hsa_signal_create(0, 0, NULL, &a.ping));
   CHECK_HSA(hsa_signal_create(0, 0, NULL, &a.pong));
   pthread_t t;
   CHECK(pthread_create(&t, NULL, pong_main, &a) == 0);
   for (unsigned i = 1; i <= a.rounds; i++) {
      hsa_signal_store_relaxed(a.ping, 2 * i - 1);
      gap(i);
      uint64_t t0 = now_ns();
      hsa_signal_store_relaxed(a.ping, 2 * i);
      CHECK(wait_eq(a.pong, i) == (hsa_signal_value_t)i);
      CHECK(now_ns() - t0 < LOST_NS);
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
test_handlers(unsigned rounds)
{
   trigger_arg a = { .rounds = rounds };
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
      CHECK(hsa_amd_signal_wait_any(2, sigs, conds, values, WAIT_BOUND_NS,
                                    HSA_WAIT_STATE_BLOCKED, &v) == 1);
      CHECK(v == (hsa_signal_value_t)i);
      hsa_signal_store_screlease(a->ping, i);
   }
   return NULL;
}

static void
test_wait_any(unsigned rounds)
{
   pingpong_arg a = { .rounds = rounds };
   CHECK_HSA(hsa_signal_create(0, 0, NULL, &a.ping));
   CHECK_HSA(hsa_signal_create(0, 0, NULL, &a.pong));
   pthread_t t;
   CHECK(pthread_create(&t, NULL, any_main, &a) == 0);
   for (unsigned i = 1; i <= a.rounds; i++) {
      hsa_signal_store_relaxed(a.pong, -2); /* a wake-up for nothing */
      gap(i);
      uint64_t t0 = now_ns();
      hsa_signal_store_relaxed(a.pong, i);
      CHECK(wait_eq(a.ping, i) == (hsa_signal_value_t)i);
      CHECK(now_ns() - t0 < LOST_NS); /* the other side's wait has a bound, not a poll */
   }
   CHECK(pthread_join(t, NULL) == 0);
   CHECK_HSA(hsa_signal_destroy(a.ping));
   CHECK_HSA(hsa_signal_destroy(a.pong));
   printf("wait_any: %u rounds\n", a.rounds);
}

static unsigned
scaled(unsigned rounds, double scale)
{
   double r = rounds * scale;
   return r < 1 ? 1 : (unsigned)r;
}

/*
 * argv[1], optional: a factor on every round count (a soak run: 20); argv[2], optional:
 * run only the part whose name starts with it (queue, doorbell, signal, handlers, any).
 * The default counts take about 3 s on an idle two-core machine.
 */
int
main(int argc, char **argv)
{
   double scale = argc > 1 ? atof(argv[1]) : 1.0;
   const char *only = argc > 2 ? argv[2] : "";
   CHECK(scale > 0);
   /* Widen the race windows (sim_priv.h): a lost wake-up then shows within a few rounds. */
   setenv("HSACL_SIM_WAKE_DELAY", "1", 1);
   test_env env;
   test_env_init(&env);
   uint64_t t0 = now_ns(), t = t0;
#define PART(name, call)                                                                      \
   do {                                                                                       \
      if (strncmp(name, only, strlen(only)) != 0)                                             \
         break;                                                                               \
      call;                                                                                   \
      uint64_t t1_ = now_ns();                                                                \
      printf("   (%.2f s)\n", (t1_ - t) / 1e9);                                              \
      t = t1_;                                                                                \
   } while (0)
   PART("queue", test_queue_pattern(&env, scaled(2000, scale)));
   PART("doorbell", test_doorbell(&env, 1, scaled(8000, scale)));
   PART("doorbell", test_doorbell(&env, 3, scaled(2000, scale)));
   PART("signal", test_signal_wait(scaled(4000, scale)));
   PART("handlers", test_handlers(scaled(2000, scale)));
   PART("any", test_wait_any(scaled(4000, scale)));
#undef PART
   CHECK_HSA(hsa_shut_down());
   printf("%.1f s\n", (now_ns() - t0) / 1e9);
   printf("sim_test_wake: ok\n");
   return 0;
}
