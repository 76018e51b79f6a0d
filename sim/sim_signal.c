/*
 * sim/sim_signal.c — HSA signals (HSA Runtime PRM §2.6 "Signals") and signal groups.
 *
 * Storage. Signals live in one arena reserved at first use and never unmapped, so a stale
 * or garbage handle is detected (range, alignment, live check word) instead of crashing.
 * Freed slots are recycled through a free list.
 *
 * Waiting (the eventcount protocol of sim_priv.h). A modification is a write, a sequentially
 * consistent fence, and a look at two counters: `waiters` (threads about to sleep on this
 * signal's `seq` word) and `watchers` (multi-signal waiters interested in it, who sleep on
 * the global epoch word). Only a non-zero count leads to a bump of the word and a futex
 * wake, so a modification nobody waits for is a plain store and a fence: no system call.
 *
 * Interrupts. Every signal is an interrupt signal, as ROCr's are: its amd_signal_t names a
 * mailbox of its own (`mailbox`, which the GPU reaches with the arena) and its slot number + 1
 * as event id. A kernel that changes the signal with ockl's signal operations writes the id
 * into the mailbox and executes s_sendmsg MSG_INTERRUPT; the runtime's interrupt handler
 * (sim__interrupt_hook, interrupt_hook) wakes the signal's sleepers as a host modification
 * does. The CP's completions wake them directly (sim_queue.c) and leave the mailbox written:
 * the next interrupt's search costs that signal one spurious wake-up.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <sched.h>
#include <linux/futex.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "sim_cp.h"
#include "sim_priv.h"

#define SIGNAL_LIVE 0x5349474eu /* "SIGN" */
#define SIGNAL_MAX (1u << 20)
#define MAILBOX_UNSIGNALED UINT64_MAX /* as amdkfd's UNSIGNALED_EVENT_SLOT */

/*
 * The handle is the address of `amd`: AMD's amd_signal_t (value at +8, timestamps at
 * +0x20/+0x28), the layout the command processor completes on both front ends
 * (sim__cp_signal_complete). The runtime's own state follows in the second cache line.
 */
struct sim_signal {
   sim_amd_signal amd;
   _Atomic uint32_t seq;      /* futex word of single-signal sleepers */
   _Atomic uint32_t waiters;  /* threads between sim__signal_prepare and the wake-up */
   _Atomic uint32_t check;
   uint32_t next_free; /* index + 1 of the next free slot; free list only */
   uint64_t attributes;
   _Atomic uint32_t watchers; /* multi-signal waiters and worker jobs watching it */
   _Atomic uint32_t woken;    /* a wake-up is on its way to the announced sleepers */
   _Atomic uint64_t mailbox;  /* amd.event_mailbox_ptr points here; MAILBOX_UNSIGNALED */
   uint64_t pad[3];
};
_Static_assert(sizeof(struct sim_signal) == 128, "two cache lines per signal");
_Static_assert(offsetof(struct sim_signal, amd) == 0, "the handle is the amd_signal_t");

/*
 * The 64-bit word a value operation acts on: the signal's value, or, for a queue's doorbell
 * (AMD_SIGNAL_KIND_DOORBELL, as ROCr's queues have), the doorbell word that the union slot
 * at +8 points to (hardware_doorbell_ptr), where ockl's __ockl_hsa_signal_store writes from
 * a kernel too (sim_cp.h).
 */
static inline _Atomic int64_t *
value_word(sim_signal *s)
{
   if (__builtin_expect(s->amd.kind == SIM_AMD_SIGNAL_KIND_DOORBELL, 0))
      return (_Atomic int64_t *)(uintptr_t)atomic_load_explicit(&s->amd.value,
                                                                memory_order_relaxed);
   return &s->amd.value;
}

/*
 * A store of `v`. To a doorbell the store keeps the largest index rung: ROCr's gfx9
 * doorbells ("AQL semantics", doorbell type 2) take the rings of a multi-producer queue in
 * any order, and a later ring with an earlier packet's index must not hide a packet rung
 * for already (sim_cp.h). ROCr's own and a kernel's doorbell stores are plain stores.
 */
static inline void
store_value(sim_signal *s, int64_t v, memory_order order)
{
   _Atomic int64_t *word = value_word(s);
   if (__builtin_expect(word != &s->amd.value, 0)) {
      int64_t old = atomic_load_explicit(word, memory_order_relaxed);
      while (old < v && !atomic_compare_exchange_weak_explicit(word, &old, v, order,
                                                               memory_order_relaxed))
         ;
      return;
   }
   atomic_store_explicit(word, v, order);
}

static pthread_once_t arena_once = PTHREAD_ONCE_INIT;
static sim_signal *arena;
static pthread_mutex_t arena_lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic uint32_t arena_used; /* slots ever handed out */
static uint32_t free_head;          /* index + 1, 0 = empty */

static void groups_finish(void);

static _Atomic uint32_t epoch;          /* futex word of multi-signal sleepers */
static _Atomic uint32_t epoch_sleepers; /* threads between sim__epoch_prepare and wake-up */
static _Atomic uint32_t epoch_woken;    /* as sim_signal.woken */

/* ---- futex helpers and the eventcount ---------------------------------------------------- */

static void
futex_wait(_Atomic uint32_t *word, uint32_t old, uint64_t timeout_ns)
{
   struct timespec ts, *tsp = NULL;
   if (timeout_ns != UINT64_MAX) {
      ts.tv_sec = (time_t)(timeout_ns / 1000000000ull);
      ts.tv_nsec = (long)(timeout_ns % 1000000000ull);
      tsp = &ts;
   }
   syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, old, tsp, NULL, 0);
}

static void
futex_wake_all(_Atomic uint32_t *word)
{
   syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

bool sim__wake_delay_enabled;

/* Half the time nothing, else up to ~1000 pauses or (1 in 64) a yield: the windows between
 * the steps of an announcement or a wake-up are a few instructions wide, and a pause of
 * either kind at any of them lets the other side run through its whole sequence there. */
void
sim__wake_delay(void)
{
   static _Atomic uint32_t state = 2463534242u; /* shared: no TLS in this library */
   uint32_t x = atomic_fetch_add_explicit(&state, 0x9e3779b9u, memory_order_relaxed);
   x ^= x << 13;
   x ^= x >> 17;
   x ^= x << 5;
   if (x & 1)
      return;
   x >>= 1;
   if (x % 64 == 0) {
      sched_yield();
      return;
   }
   for (uint32_t i = x % 1024; i; i--)
      __builtin_ia32_pause();
}

/* Test hook (sim_priv.h): between every two steps of the protocol on both sides. */
#define WAKE_DELAY()                                                                          \
   do {                                                                                       \
      if (__builtin_expect(sim__wake_delay_enabled, 0))                                      \
         sim__wake_delay();                                                                   \
   } while (0)

/*
 * One futex wake per announcement, not one per modification: a sleeper that was woken
 * stays counted until it runs again, which on a busy machine can take a while, and every
 * modification meanwhile would make the system call again. So the first modifier after an
 * announcement sets `woken` and wakes everyone; later ones see it set and leave it.
 *
 * The protocol, for a signal's (seq, waiters, woken) and the same for (epoch,
 * epoch_sleepers, epoch_woken), whose modifiers are writes to watched signals and
 * sim__epoch_bump. The sleeper's steps, the xchg and the bump are sequentially consistent;
 * the value write (any order the API allows) and the relaxed `waiters` load are placed by
 * the two fences, which lie in the same single total order:
 *
 *    sleeper S                               modifier M
 *    s1  t = seq                             m1  write the value (the condition)
 *    s2  waiters++                           m2  fence                  (F_M)
 *    s3  woken = 0                           m3  if waiters != 0 && !xchg(woken, 1):
 *    s4  fence                  (F_S)        m4     seq++
 *    s5  re-test the condition               m5     futex_wake_all(seq)
 *    s6  futex_wait(seq, t)     (returns at once if seq != t)
 *    s7  waiters--
 *
 * Invariants:
 *  I1 from s2 to s7, S's unit is in `waiters` (nobody else removes it; a signal's counter
 *     is never reset, not even when its slot is recycled).
 *  I2 if F_M precedes F_S, S's re-test (s5) sees M's write: S does not sleep on it.
 *  I3 if F_S precedes F_M, M's m3 sees S's unit (I1) and its xchg reads S's clear or a later
 *     store to `woken`. It reads 0: M bumps after F_S, so after s1. It reads 1: that 1 came
 *     from a modifier M' whose xchg came after s3, and M' bumps after its xchg, so after s1.
 *     Either way some bump follows s1, so seq != t when S's futex_wait compares, or the
 *     bump's futex_wake_all (after it) finds S asleep: S wakes.
 *  I4 (what I3 needs of s1) the ticket is read before the clear. Read after it (as until
 *     9747a66), M' could set `woken` and bump between s3 and s1, the ticket include that
 *     bump, the re-test run before M's write, and M find `woken` set: nobody bumps after
 *     s1, and S sleeps through M's write. With no timeout that is a hang: sim_test_queue's
 *     wait for a completion signal that the packet processor decrements 200 times in a
 *     row, the async worker of a CTS buffers run (epoch == ticket, woken == 0).
 * A timed-out or cancelled sleeper leaves `woken` as it is: a stale 1 only saves bumps
 * until the next announcement clears it, and every sleeper clears it before its fence.
 */
uint32_t
sim__epoch_prepare(void)
{
   WAKE_DELAY();
   uint32_t ticket = atomic_load(&epoch); /* before the clear: I4 */
   WAKE_DELAY();
   atomic_fetch_add(&epoch_sleepers, 1);
   WAKE_DELAY();
   atomic_store(&epoch_woken, 0);
   atomic_thread_fence(memory_order_seq_cst);
   return ticket;
}

void
sim__epoch_cancel(void)
{
   atomic_fetch_sub(&epoch_sleepers, 1);
}

void
sim__epoch_sleep(uint32_t ticket, uint64_t timeout_ns)
{
   WAKE_DELAY();
   futex_wait(&epoch, ticket, timeout_ns);
   atomic_fetch_sub(&epoch_sleepers, 1);
}

/* After the caller's fence: wakes epoch sleepers, if any. */
static void
epoch_wake_fenced(void)
{
   if (atomic_load_explicit(&epoch_sleepers, memory_order_relaxed) &&
       !atomic_exchange(&epoch_woken, 1)) {
      WAKE_DELAY();
      atomic_fetch_add(&epoch, 1);
      WAKE_DELAY();
      futex_wake_all(&epoch);
   }
}

void
sim__epoch_bump(void)
{
   atomic_thread_fence(memory_order_seq_cst);
   epoch_wake_fenced();
}

uint32_t
sim__signal_prepare(sim_signal *s)
{
   WAKE_DELAY();
   uint32_t ticket = atomic_load(&s->seq); /* before the clear: I4 */
   WAKE_DELAY();
   atomic_fetch_add(&s->waiters, 1);
   WAKE_DELAY();
   atomic_store(&s->woken, 0);
   atomic_thread_fence(memory_order_seq_cst);
   return ticket;
}

void
sim__signal_cancel(sim_signal *s)
{
   atomic_fetch_sub(&s->waiters, 1);
}

void
sim__signal_sleep(sim_signal *s, uint32_t ticket, uint64_t timeout_ns)
{
   WAKE_DELAY();
   futex_wait(&s->seq, ticket, timeout_ns);
   atomic_fetch_sub(&s->waiters, 1);
}

void
sim__signal_watch(sim_signal *s)
{
   atomic_fetch_add(&s->watchers, 1);
}

void
sim__signal_unwatch(sim_signal *s)
{
   /* Saturating: a slot destroyed and re-created under a watcher must not wrap. */
   uint32_t n = atomic_load(&s->watchers);
   while (n && !atomic_compare_exchange_weak(&s->watchers, &n, n - 1))
      ;
}

/* Called after every modification of a signal's value: wakes whoever announced a sleep. */
static void
signal_notify(sim_signal *s)
{
   WAKE_DELAY();
   atomic_thread_fence(memory_order_seq_cst);
   if (atomic_load_explicit(&s->waiters, memory_order_relaxed) &&
       !atomic_exchange(&s->woken, 1)) {
      WAKE_DELAY();
      atomic_fetch_add(&s->seq, 1);
      WAKE_DELAY();
      futex_wake_all(&s->seq);
   }
   if (atomic_load_explicit(&s->watchers, memory_order_relaxed))
      epoch_wake_fenced();
}

/* ---- arena -------------------------------------------------------------------------------- */

static void
arena_map(void)
{
   void *p = mmap(NULL, (size_t)SIGNAL_MAX * sizeof(sim_signal), PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
   /* Release: sim__signal_get runs without pthread_once (any handle, any thread). */
   __atomic_store_n(&arena, p == MAP_FAILED ? NULL : p, __ATOMIC_RELEASE);
}

sim_signal *
sim__signal_get(hsa_signal_t signal)
{
   uintptr_t h = (uintptr_t)signal.handle;
   uintptr_t base = (uintptr_t)__atomic_load_n(&arena, __ATOMIC_ACQUIRE);
   if (!base || h < base || h >= base + (uintptr_t)atomic_load(&arena_used) * sizeof(sim_signal) ||
       (h - base) % sizeof(sim_signal) != 0)
      return NULL;
   sim_signal *s = (sim_signal *)h;
   return atomic_load_explicit(&s->check, memory_order_relaxed) == SIGNAL_LIVE ? s : NULL;
}

static hsa_status_t
signal_create(hsa_signal_value_t initial_value, uint32_t num_consumers,
              const hsa_agent_t *consumers, uint64_t attributes, hsa_signal_t *signal)
{
   SIM_CHECK_INIT();
   if (!signal || (num_consumers > 0 && !consumers))
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   for (uint32_t i = 0; i < num_consumers; i++) {
      enum sim_agent_kind kind;
      if (!sim__agent_from_handle(consumers[i], &kind))
         return HSA_STATUS_ERROR_INVALID_AGENT;
   }
   pthread_once(&arena_once, arena_map);
   if (!arena)
      return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
   sim_signal *s;
   pthread_mutex_lock(&arena_lock);
   if (free_head) {
      s = &arena[free_head - 1];
      free_head = s->next_free;
   } else if (atomic_load(&arena_used) < SIGNAL_MAX) {
      s = &arena[atomic_load(&arena_used)];
      atomic_fetch_add(&arena_used, 1);
   } else {
      pthread_mutex_unlock(&arena_lock);
      return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
   }
   pthread_mutex_unlock(&arena_lock);
   /* `waiters` and `watchers` are not reset: a thread still (wrongly) waiting on the slot's
    * previous signal keeps its unit and takes it back itself (I1). */
   s->amd.kind = SIM_AMD_SIGNAL_KIND_USER;
   atomic_store_explicit(&s->mailbox, MAILBOX_UNSIGNALED, memory_order_relaxed);
   __atomic_store_n(&s->amd.event_mailbox_ptr, (uint64_t)(uintptr_t)&s->mailbox,
                    __ATOMIC_RELAXED);
   __atomic_store_n(&s->amd.event_id, (uint32_t)(s - arena) + 1, __ATOMIC_RELAXED);
   atomic_store(&s->amd.value, initial_value);
   atomic_store(&s->amd.start_ts, 0);
   atomic_store(&s->amd.end_ts, 0);
   s->attributes = attributes;
   s->next_free = 0;
   atomic_store_explicit(&s->check, SIGNAL_LIVE, memory_order_release);
   signal->handle = (uint64_t)(uintptr_t)s;
   return HSA_STATUS_SUCCESS;
}

SIM_EXPORT hsa_status_t
hsa_signal_create(hsa_signal_value_t initial_value, uint32_t num_consumers,
                  const hsa_agent_t *consumers, hsa_signal_t *signal)
{
   return signal_create(initial_value, num_consumers, consumers, 0, signal);
}

SIM_EXPORT hsa_status_t
hsa_amd_signal_create(hsa_signal_value_t initial_value, uint32_t num_consumers,
                      const hsa_agent_t *consumers, uint64_t attributes, hsa_signal_t *signal)
{
   return signal_create(initial_value, num_consumers, consumers, attributes, signal);
}

SIM_EXPORT hsa_status_t
hsa_signal_destroy(hsa_signal_t signal)
{
   SIM_CHECK_INIT();
   if (signal.handle == 0)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   sim_signal *s = sim__signal_get(signal);
   if (!s)
      return HSA_STATUS_ERROR_INVALID_SIGNAL;
   pthread_mutex_lock(&arena_lock);
   uint32_t expected = SIGNAL_LIVE;
   if (!atomic_compare_exchange_strong(&s->check, &expected, 0)) {
      pthread_mutex_unlock(&arena_lock);
      return HSA_STATUS_ERROR_INVALID_SIGNAL;
   }
   s->next_free = free_head;
   free_head = (uint32_t)(s - arena) + 1;
   pthread_mutex_unlock(&arena_lock);
   /* Wake anyone (wrongly) still waiting so they notice the signal is gone. */
   signal_notify(s);
   return HSA_STATUS_SUCCESS;
}

/* Shutdown: every signal dies; the arena stays mapped for stale-handle detection. */
void
sim__signal_finish(void)
{
   if (!__atomic_load_n(&arena, __ATOMIC_ACQUIRE))
      return;
   pthread_mutex_lock(&arena_lock);
   uint32_t used = atomic_load(&arena_used);
   for (uint32_t i = 0; i < used; i++)
      atomic_store(&arena[i].check, 0);
   free_head = 0;
   for (uint32_t i = used; i > 0; i--) {
      arena[i - 1].next_free = free_head;
      free_head = i;
   }
   pthread_mutex_unlock(&arena_lock);
   groups_finish();
}

SIM_EXPORT hsa_status_t
hsa_amd_signal_value_pointer(hsa_signal_t signal, volatile hsa_signal_value_t **value_ptr)
{
   SIM_CHECK_INIT();
   sim_signal *s = sim__signal_get(signal);
   if (!s)
      return HSA_STATUS_ERROR_INVALID_SIGNAL;
   if (!value_ptr)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   *value_ptr = (volatile hsa_signal_value_t *)value_word(s);
   return HSA_STATUS_SUCCESS;
}

/* ---- internal accessors ------------------------------------------------------------------- */

hsa_status_t
sim__signal_create_doorbell(_Atomic int64_t *word, hsa_signal_t *signal)
{
   hsa_status_t st = signal_create(0, 0, NULL, 0, signal);
   if (st != HSA_STATUS_SUCCESS)
      return st;
   sim_signal *s = sim__signal_get(*signal);
   atomic_store(word, -1);
   s->amd.kind = SIM_AMD_SIGNAL_KIND_DOORBELL;
   __atomic_store_n(&s->amd.event_mailbox_ptr, 0, __ATOMIC_RELAXED); /* rings raise none */
   atomic_store(&s->amd.value, (int64_t)(uintptr_t)word);
   return HSA_STATUS_SUCCESS;
}

/* The signal's mailbox was written: reset it and wake its sleepers. */
static bool
interrupt_take(sim_signal *s)
{
   if (atomic_load_explicit(&s->mailbox, memory_order_relaxed) == MAILBOX_UNSIGNALED ||
       atomic_exchange(&s->mailbox, MAILBOX_UNSIGNALED) == MAILBOX_UNSIGNALED)
      return false;
   signal_notify(s);
   return true;
}

/*
 * s_sendmsg MSG_INTERRUPT (an interpreter thread), as the KFD's handler (kfd/kfd_event.c):
 * the signal whose event id is the payload (M0[23:0]) if its mailbox was written, else every
 * signal whose mailbox was written (ockl sends only the id's low 8 bits). A freed slot's
 * sleepers re-validate their handle when woken.
 */
static void
interrupt_hook(unsigned agent, uint32_t payload)
{
   (void)agent;
   sim_signal *base = __atomic_load_n(&arena, __ATOMIC_ACQUIRE);
   uint32_t used = atomic_load(&arena_used);
   if (!base)
      return;
   if (payload >= 1 && payload <= used && interrupt_take(&base[payload - 1]))
      return;
   for (uint32_t i = 0; i < used; i++)
      interrupt_take(&base[i]);
}

hsa_status_t
sim__signal_arena_register(void)
{
   pthread_once(&arena_once, arena_map);
   if (!arena)
      return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
   /* Kernels reach the signals from now on: their interrupts too. */
   __atomic_store_n(&sim__interrupt_hook, interrupt_hook, __ATOMIC_RELEASE);
   return sim__mem_register_internal(arena, (size_t)SIGNAL_MAX * sizeof(sim_signal));
}

/* Sequentially consistent: the re-test of the eventcount protocol (free on x86). */
int64_t
sim__signal_load(sim_signal *s)
{
   return atomic_load(value_word(s));
}

void
sim__signal_sub(sim_signal *s, int64_t v)
{
   atomic_fetch_sub_explicit(value_word(s), v, memory_order_acq_rel);
   signal_notify(s);
}

sim_amd_signal *
sim__signal_amd(sim_signal *s)
{
   return &s->amd;
}

void
sim__signal_notify(sim_signal *s)
{
   signal_notify(s);
}

void
sim__signal_store(sim_signal *s, int64_t v)
{
   store_value(s, v, memory_order_release);
   signal_notify(s);
}

void
sim__signal_set_times(sim_signal *s, uint64_t start, uint64_t end)
{
   atomic_store(&s->amd.start_ts, start);
   atomic_store(&s->amd.end_ts, end);
}

void
sim__signal_get_times(sim_signal *s, uint64_t *start, uint64_t *end)
{
   *start = atomic_load(&s->amd.start_ts);
   *end = atomic_load(&s->amd.end_ts);
}

bool
sim__signal_cond(hsa_signal_condition_t cond, int64_t value, int64_t compare)
{
   switch (cond) {
   case HSA_SIGNAL_CONDITION_EQ: return value == compare;
   case HSA_SIGNAL_CONDITION_NE: return value != compare;
   case HSA_SIGNAL_CONDITION_LT: return value < compare;
   case HSA_SIGNAL_CONDITION_GTE: return value >= compare;
   default: return false;
   }
}

/* ---- value operations (PRM §2.6.1): every memory-order variant the header declares ------- */

#define MO_relaxed memory_order_relaxed
#define MO_scacquire memory_order_acquire
#define MO_acquire memory_order_acquire
#define MO_screlease memory_order_release
#define MO_release memory_order_release
#define MO_scacq_screl memory_order_acq_rel
#define MO_acq_rel memory_order_acq_rel

#define SIM_SIGNAL_LOAD(order)                                                                \
   SIM_EXPORT hsa_signal_value_t hsa_signal_load_##order(hsa_signal_t signal)                 \
   {                                                                                          \
      sim_signal *s = sim__signal_get(signal);                                                \
      return s ? atomic_load_explicit(value_word(s), MO_##order) : 0;                             \
   }

#define SIM_SIGNAL_STORE(name, order, notify)                                                 \
   SIM_EXPORT void hsa_signal_##name##_##order(hsa_signal_t signal, hsa_signal_value_t value) \
   {                                                                                          \
      sim_signal *s = sim__signal_get(signal);                                                \
      if (!s)                                                                                 \
         return;                                                                              \
      store_value(s, value, MO_##order);                                                      \
      if (notify)                                                                             \
         signal_notify(s);                                                                    \
   }

#define SIM_SIGNAL_RMW(name, op, order)                                                       \
   SIM_EXPORT void hsa_signal_##name##_##order(hsa_signal_t signal, hsa_signal_value_t value) \
   {                                                                                          \
      sim_signal *s = sim__signal_get(signal);                                                \
      if (!s)                                                                                 \
         return;                                                                              \
      atomic_##op##_explicit(value_word(s), value, MO_##order);                                   \
      signal_notify(s);                                                                       \
   }

#define SIM_SIGNAL_EXCHANGE(order)                                                            \
   SIM_EXPORT hsa_signal_value_t hsa_signal_exchange_##order(hsa_signal_t signal,             \
                                                             hsa_signal_value_t value)        \
   {                                                                                          \
      sim_signal *s = sim__signal_get(signal);                                                \
      if (!s)                                                                                 \
         return 0;                                                                            \
      hsa_signal_value_t old = atomic_exchange_explicit(value_word(s), value, MO_##order);        \
      signal_notify(s);                                                                       \
      return old;                                                                             \
   }

/* Returns the observed value; the store happens only if it equaled `expected`. */
#define SIM_SIGNAL_CAS(order)                                                                 \
   SIM_EXPORT hsa_signal_value_t hsa_signal_cas_##order(                                      \
      hsa_signal_t signal, hsa_signal_value_t expected, hsa_signal_value_t value)             \
   {                                                                                          \
      sim_signal *s = sim__signal_get(signal);                                                \
      if (!s)                                                                                 \
         return 0;                                                                            \
      hsa_signal_value_t seen = expected;                                                     \
      if (atomic_compare_exchange_strong_explicit(value_word(s), &seen, value, MO_##order,       \
                                                  memory_order_relaxed)) {                    \
         signal_notify(s);                                                                    \
         return expected;                                                                     \
      }                                                                                       \
      return seen;                                                                            \
   }

#define SIM_RMW_ORDERS(X, name, op)                                                           \
   X(name, op, relaxed)                                                                       \
   X(name, op, scacquire)                                                                     \
   X(name, op, screlease)                                                                     \
   X(name, op, scacq_screl)                                                                   \
   X(name, op, acquire)                                                                       \
   X(name, op, release)                                                                       \
   X(name, op, acq_rel)

SIM_SIGNAL_LOAD(relaxed)
SIM_SIGNAL_LOAD(scacquire)
SIM_SIGNAL_LOAD(acquire)
SIM_SIGNAL_STORE(store, relaxed, true)
SIM_SIGNAL_STORE(store, screlease, true)
SIM_SIGNAL_STORE(store, release, true)
SIM_SIGNAL_STORE(silent_store, relaxed, false)
SIM_SIGNAL_STORE(silent_store, screlease, false)
SIM_RMW_ORDERS(SIM_SIGNAL_RMW, add, fetch_add)
SIM_RMW_ORDERS(SIM_SIGNAL_RMW, subtract, fetch_sub)
SIM_RMW_ORDERS(SIM_SIGNAL_RMW, and, fetch_and)
SIM_RMW_ORDERS(SIM_SIGNAL_RMW, or, fetch_or)
SIM_RMW_ORDERS(SIM_SIGNAL_RMW, xor, fetch_xor)

#define SIM_X_EXCHANGE(name, op, order) SIM_SIGNAL_EXCHANGE(order)
#define SIM_X_CAS(name, op, order) SIM_SIGNAL_CAS(order)
SIM_RMW_ORDERS(SIM_X_EXCHANGE, exchange, exchange)
SIM_RMW_ORDERS(SIM_X_CAS, cas, cas)

/* ---- waiting (PRM §2.6.1 hsa_signal_wait) ------------------------------------------------- */

/* Spin briefly for HSA_WAIT_STATE_ACTIVE, never long enough to hog a core. */
#define ACTIVE_SPINS 200

static hsa_signal_value_t
signal_wait(hsa_signal_t signal, hsa_signal_condition_t cond, hsa_signal_value_t compare,
            uint64_t timeout, hsa_wait_state_t hint, memory_order order)
{
   sim_signal *s = sim__signal_get(signal);
   if (!s)
      return 0;
   uint64_t start = sim__timestamp();
   int spins = hint == HSA_WAIT_STATE_ACTIVE ? ACTIVE_SPINS : 0;
   for (;;) {
      hsa_signal_value_t v = atomic_load_explicit(value_word(s), order);
      if (sim__signal_cond(cond, v, compare))
         return v;
      if (atomic_load_explicit(&s->check, memory_order_relaxed) != SIGNAL_LIVE)
         return v;
      uint64_t elapsed = sim__timestamp() - start;
      if (timeout != UINT64_MAX && elapsed >= timeout)
         return v;
      if (spins > 0) {
         spins--;
         __builtin_ia32_pause();
         continue;
      }
      uint32_t ticket = sim__signal_prepare(s);
      v = atomic_load(value_word(s));
      if (sim__signal_cond(cond, v, compare) ||
          atomic_load_explicit(&s->check, memory_order_relaxed) != SIGNAL_LIVE) {
         sim__signal_cancel(s);
         atomic_thread_fence(memory_order_acquire);
         return v;
      }
      sim__signal_sleep(s, ticket, timeout == UINT64_MAX ? UINT64_MAX : timeout - elapsed);
   }
}

SIM_EXPORT hsa_signal_value_t
hsa_signal_wait_scacquire(hsa_signal_t signal, hsa_signal_condition_t condition,
                          hsa_signal_value_t compare_value, uint64_t timeout_hint,
                          hsa_wait_state_t wait_state_hint)
{
   return signal_wait(signal, condition, compare_value, timeout_hint, wait_state_hint,
                      memory_order_acquire);
}

SIM_EXPORT hsa_signal_value_t
hsa_signal_wait_acquire(hsa_signal_t signal, hsa_signal_condition_t condition,
                        hsa_signal_value_t compare_value, uint64_t timeout_hint,
                        hsa_wait_state_t wait_state_hint)
{
   return signal_wait(signal, condition, compare_value, timeout_hint, wait_state_hint,
                      memory_order_acquire);
}

SIM_EXPORT hsa_signal_value_t
hsa_signal_wait_relaxed(hsa_signal_t signal, hsa_signal_condition_t condition,
                        hsa_signal_value_t compare_value, uint64_t timeout_hint,
                        hsa_wait_state_t wait_state_hint)
{
   return signal_wait(signal, condition, compare_value, timeout_hint, wait_state_hint,
                      memory_order_relaxed);
}

/*
 * Waits until one of the pairs is satisfied or `timeout` ns passed. Returns the index, or
 * UINT32_MAX on timeout. A handle that is not a live signal counts as never satisfied.
 */
static uint32_t
wait_any(uint32_t count, const hsa_signal_t *signals, const hsa_signal_condition_t *conds,
         const hsa_signal_value_t *values, uint64_t timeout, hsa_signal_value_t *satisfying)
{
   uint64_t start = sim__timestamp();
   uint32_t found = UINT32_MAX;
   for (uint32_t i = 0; i < count; i++) {
      sim_signal *s = sim__signal_get(signals[i]);
      if (s)
         sim__signal_watch(s);
   }
   for (bool announced = false;; announced = true) {
      uint32_t ticket = announced ? sim__epoch_prepare() : 0;
      for (uint32_t i = 0; i < count && found == UINT32_MAX; i++) {
         sim_signal *s = sim__signal_get(signals[i]);
         if (!s)
            continue;
         hsa_signal_value_t v = atomic_load(value_word(s));
         if (sim__signal_cond(conds[i], v, values[i])) {
            if (satisfying)
               *satisfying = v;
            found = i;
         }
      }
      uint64_t elapsed = sim__timestamp() - start;
      if (found != UINT32_MAX || (timeout != UINT64_MAX && elapsed >= timeout)) {
         if (announced)
            sim__epoch_cancel();
         break;
      }
      if (announced)
         sim__epoch_sleep(ticket, timeout == UINT64_MAX ? UINT64_MAX : timeout - elapsed);
   }
   for (uint32_t i = 0; i < count; i++) {
      sim_signal *s = sim__signal_get(signals[i]);
      if (s)
         sim__signal_unwatch(s);
   }
   return found;
}

SIM_EXPORT uint32_t
hsa_amd_signal_wait_any(uint32_t signal_count, hsa_signal_t *signals,
                        hsa_signal_condition_t *conds, hsa_signal_value_t *values,
                        uint64_t timeout_hint, hsa_wait_state_t wait_hint,
                        hsa_signal_value_t *satisfying_value)
{
   if (!sim__initialized() || signal_count == 0 || !signals || !conds || !values)
      return UINT32_MAX;
   return wait_any(signal_count, signals, conds, values, timeout_hint, satisfying_value);
}

/* ---- signal groups (PRM §2.6.2) ------------------------------------------------------------ */


#define GROUP_LIVE 0x47525550u /* "GRUP" */

typedef struct sim_signal_group {
   uint32_t check;
   uint32_t count;
   struct sim_signal_group *next;
   hsa_signal_t signals[];
} sim_signal_group;

static pthread_mutex_t group_lock = PTHREAD_MUTEX_INITIALIZER;
static sim_signal_group *groups;

static sim_signal_group *
group_get_locked(hsa_signal_group_t handle)
{
   for (sim_signal_group *g = groups; g; g = g->next) {
      if ((uint64_t)(uintptr_t)g == handle.handle)
         return g;
   }
   return NULL;
}

SIM_EXPORT hsa_status_t
hsa_signal_group_create(uint32_t num_signals, const hsa_signal_t *signals,
                        uint32_t num_consumers, const hsa_agent_t *consumers,
                        hsa_signal_group_t *signal_group)
{
   SIM_CHECK_INIT();
   if (num_signals == 0 || !signals || !signal_group || (num_consumers > 0 && !consumers))
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   for (uint32_t i = 0; i < num_consumers; i++) {
      enum sim_agent_kind kind;
      if (!sim__agent_from_handle(consumers[i], &kind))
         return HSA_STATUS_ERROR_INVALID_AGENT;
   }
   for (uint32_t i = 0; i < num_signals; i++) {
      if (!sim__signal_get(signals[i]))
         return HSA_STATUS_ERROR_INVALID_ARGUMENT;
      for (uint32_t j = 0; j < i; j++) {
         if (signals[i].handle == signals[j].handle)
            return HSA_STATUS_ERROR_INVALID_ARGUMENT;
      }
   }
   sim_signal_group *g = malloc(sizeof(*g) + num_signals * sizeof(hsa_signal_t));
   if (!g)
      return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
   g->check = GROUP_LIVE;
   g->count = num_signals;
   memcpy(g->signals, signals, num_signals * sizeof(hsa_signal_t));
   pthread_mutex_lock(&group_lock);
   g->next = groups;
   groups = g;
   pthread_mutex_unlock(&group_lock);
   signal_group->handle = (uint64_t)(uintptr_t)g;
   return HSA_STATUS_SUCCESS;
}

SIM_EXPORT hsa_status_t
hsa_signal_group_destroy(hsa_signal_group_t signal_group)
{
   SIM_CHECK_INIT();
   pthread_mutex_lock(&group_lock);
   for (sim_signal_group **p = &groups; *p; p = &(*p)->next) {
      if ((uint64_t)(uintptr_t)*p == signal_group.handle) {
         sim_signal_group *g = *p;
         *p = g->next;
         pthread_mutex_unlock(&group_lock);
         free(g);
         return HSA_STATUS_SUCCESS;
      }
   }
   pthread_mutex_unlock(&group_lock);
   return HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP;
}

static hsa_status_t
group_wait_any(hsa_signal_group_t signal_group, const hsa_signal_condition_t *conditions,
               const hsa_signal_value_t *compare_values, hsa_signal_t *signal,
               hsa_signal_value_t *value)
{
   SIM_CHECK_INIT();
   if (!conditions || !compare_values || !signal || !value)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   /* Copy the members: the group may not be destroyed during a wait (PRM), but be safe. */
   pthread_mutex_lock(&group_lock);
   sim_signal_group *g = group_get_locked(signal_group);
   if (!g) {
      pthread_mutex_unlock(&group_lock);
      return HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP;
   }
   uint32_t count = g->count;
   hsa_signal_t *copy = malloc(count * sizeof(*copy));
   if (!copy) {
      pthread_mutex_unlock(&group_lock);
      return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
   }
   memcpy(copy, g->signals, count * sizeof(*copy));
   pthread_mutex_unlock(&group_lock);
   uint32_t i = wait_any(count, copy, conditions, compare_values, UINT64_MAX, value);
   if (i != UINT32_MAX)
      *signal = copy[i];
   free(copy);
   return HSA_STATUS_SUCCESS;
}

SIM_EXPORT hsa_status_t
hsa_signal_group_wait_any_scacquire(hsa_signal_group_t signal_group,
                                    const hsa_signal_condition_t *conditions,
                                    const hsa_signal_value_t *compare_values,
                                    hsa_wait_state_t wait_state_hint, hsa_signal_t *signal,
                                    hsa_signal_value_t *value)
{
   return group_wait_any(signal_group, conditions, compare_values, signal, value);
}

SIM_EXPORT hsa_status_t
hsa_signal_group_wait_any_relaxed(hsa_signal_group_t signal_group,
                                  const hsa_signal_condition_t *conditions,
                                  const hsa_signal_value_t *compare_values,
                                  hsa_wait_state_t wait_state_hint, hsa_signal_t *signal,
                                  hsa_signal_value_t *value)
{
   return group_wait_any(signal_group, conditions, compare_values, signal, value);
}

static void
groups_finish(void)
{
   pthread_mutex_lock(&group_lock);
   while (groups) {
      sim_signal_group *g = groups;
      groups = g->next;
      free(g);
   }
   pthread_mutex_unlock(&group_lock);
}
