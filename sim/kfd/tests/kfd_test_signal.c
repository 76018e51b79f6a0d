/*
 * kfd_test_signal — ROCr's interrupt signals on the software KFD's events: a blocked wait
 * woken from another thread, waits that time out (and sleep instead of spinning: the
 * waiter's CPU time stays far below the wall time), ping-pong between two threads,
 * hsa_amd_signal_wait_any, and an async handler (ROCr's async-event thread sleeps in
 * hsaKmtWaitOnMultipleEvents).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include "kfd_test_common.h"

static uint64_t
now_ns(clockid_t clock)
{
   struct timespec ts;
   clock_gettime(clock, &ts);
   return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

typedef struct waker {
   hsa_signal_t s;
   unsigned delay_ms;
   hsa_signal_value_t value;
} waker;

static void *
waker_main(void *arg)
{
   waker *w = arg;
   usleep(w->delay_ms * 1000);
   hsa_signal_store_screlease(w->s, w->value);
   return NULL;
}

static void
check_wake_across_threads(void)
{
   hsa_signal_t s;
   CHECK_HSA(hsa_signal_create(1, 0, NULL, &s));
   waker w = {s, 100, 0};
   pthread_t t;
   CHECK(pthread_create(&t, NULL, waker_main, &w) == 0);
   uint64_t wall0 = now_ns(CLOCK_MONOTONIC), cpu0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
   hsa_signal_value_t v =
      hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX, HSA_WAIT_STATE_BLOCKED);
   uint64_t wall = now_ns(CLOCK_MONOTONIC) - wall0, cpu = now_ns(CLOCK_THREAD_CPUTIME_ID) - cpu0;
   CHECK(v == 0);
   CHECK(wall >= 90000000ull);
   CHECK(cpu < wall / 4); /* slept in hsaKmtWaitOnEvent, did not spin */
   pthread_join(t, NULL);
   CHECK_HSA(hsa_signal_destroy(s));
   printf("wake across threads: %.1f ms wall, %.2f ms CPU\n", wall / 1e6, cpu / 1e6);
}

static void
check_timeout(void)
{
   hsa_signal_t s;
   CHECK_HSA(hsa_signal_create(7, 0, NULL, &s));
   uint64_t wall0 = now_ns(CLOCK_MONOTONIC), cpu0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
   /* Timeouts are in the system timestamp domain: 1 GHz here. */
   hsa_signal_value_t v = hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_LT, 0, 200000000ull,
                                                    HSA_WAIT_STATE_BLOCKED);
   uint64_t wall = now_ns(CLOCK_MONOTONIC) - wall0, cpu = now_ns(CLOCK_THREAD_CPUTIME_ID) - cpu0;
   CHECK(v == 7);
   CHECK(wall >= 190000000ull && wall < 2000000000ull);
   CHECK(cpu < wall / 4);
   CHECK_HSA(hsa_signal_destroy(s));
   printf("timeout 200 ms: %.1f ms wall, %.2f ms CPU\n", wall / 1e6, cpu / 1e6);
}

typedef struct pingpong {
   hsa_signal_t ping, pong;
   unsigned rounds;
} pingpong;

static void *
pong_main(void *arg)
{
   pingpong *p = arg;
   for (unsigned i = 1; i <= p->rounds; i++) {
      hsa_signal_value_t v = hsa_signal_wait_scacquire(p->ping, HSA_SIGNAL_CONDITION_GTE, i,
                                                       UINT64_MAX, HSA_WAIT_STATE_BLOCKED);
      CHECK(v >= (hsa_signal_value_t)i);
      hsa_signal_store_screlease(p->pong, i);
   }
   return NULL;
}

static void
check_pingpong(void)
{
   pingpong p = {.rounds = 500};
   CHECK_HSA(hsa_signal_create(0, 0, NULL, &p.ping));
   CHECK_HSA(hsa_signal_create(0, 0, NULL, &p.pong));
   pthread_t t;
   CHECK(pthread_create(&t, NULL, pong_main, &p) == 0);
   for (unsigned i = 1; i <= p.rounds; i++) {
      hsa_signal_store_screlease(p.ping, i);
      hsa_signal_value_t v = hsa_signal_wait_scacquire(p.pong, HSA_SIGNAL_CONDITION_GTE, i,
                                                       UINT64_MAX, HSA_WAIT_STATE_BLOCKED);
      CHECK(v == (hsa_signal_value_t)i);
   }
   pthread_join(t, NULL);
   CHECK_HSA(hsa_signal_destroy(p.ping));
   CHECK_HSA(hsa_signal_destroy(p.pong));
}

static void
check_wait_any(void)
{
   hsa_signal_t s[2];
   CHECK_HSA(hsa_signal_create(1, 0, NULL, &s[0]));
   CHECK_HSA(hsa_signal_create(1, 0, NULL, &s[1]));
   waker w = {s[1], 50, 0};
   pthread_t t;
   CHECK(pthread_create(&t, NULL, waker_main, &w) == 0);
   hsa_signal_condition_t conds[2] = {HSA_SIGNAL_CONDITION_EQ, HSA_SIGNAL_CONDITION_EQ};
   hsa_signal_value_t values[2] = {0, 0}, seen = -1;
   uint32_t i = hsa_amd_signal_wait_any(2, s, conds, values, UINT64_MAX, HSA_WAIT_STATE_BLOCKED,
                                        &seen);
   CHECK(i == 1 && seen == 0);
   pthread_join(t, NULL);
   /* Nothing changes: the wait-any times out. */
   hsa_signal_store_screlease(s[1], 1);
   i = hsa_amd_signal_wait_any(2, s, conds, values, 50000000ull, HSA_WAIT_STATE_BLOCKED, &seen);
   CHECK(i == UINT32_MAX);
   CHECK_HSA(hsa_signal_destroy(s[0]));
   CHECK_HSA(hsa_signal_destroy(s[1]));
}

static _Atomic int handler_calls;
static _Atomic hsa_signal_value_t handler_value;

static bool
handler(hsa_signal_value_t value, void *arg)
{
   (void)arg;
   atomic_store(&handler_value, value);
   atomic_fetch_add(&handler_calls, 1);
   return false; /* once */
}

static void
check_async_handler(void)
{
   hsa_signal_t s;
   CHECK_HSA(hsa_signal_create(1, 0, NULL, &s));
   CHECK_HSA(hsa_amd_signal_async_handler(s, HSA_SIGNAL_CONDITION_EQ, 5, handler, NULL));
   usleep(20000);
   CHECK(atomic_load(&handler_calls) == 0);
   hsa_signal_store_screlease(s, 5);
   for (int i = 0; i < 2000 && atomic_load(&handler_calls) == 0; i++)
      usleep(1000);
   CHECK(atomic_load(&handler_calls) == 1 && atomic_load(&handler_value) == 5);
   CHECK_HSA(hsa_signal_destroy(s));
}

int
main(void)
{
   CHECK_HSA(hsa_init());
   kfd_test_env env;
   kfd_test_env_init(&env);
   check_wake_across_threads();
   check_timeout();
   check_pingpong();
   check_wait_any();
   check_async_handler();
   CHECK_HSA(hsa_shut_down());
   printf("kfd_test_signal: ok\n");
   return 0;
}
