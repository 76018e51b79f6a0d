/*
 * runtime/rt_signal.c — a free list of HSA signals, so the steady-state enqueue path
 * creates none (hsa_signal_create may be a system call on ROCr). A signal handed out has
 * the value 1; one returned may have any value. The value is reset as it is given back, with
 * a silent store: nobody waits for a signal given back (nor in the free list), and a
 * notifying store costs a sequentially consistent fence and a look at the waiters (ROCr's
 * InterruptSignal::StoreRelaxed, the software runtime's signal_notify) on every launch. At
 * the give-back the signal's cache line is the completion path's, which just read the value;
 * the enqueueing thread then only copies the handle into a packet: a reset there cost it a
 * cache miss on a line the GPU and the completion path last wrote.
 *
 * Signals are taken by the enqueueing threads and mostly given back by the completion path,
 * so the cache is two stacks with a lock each: takers pop `take` under take_lock, givers
 * push on `give` under give_lock, and a taker that finds `take` empty swaps the two arrays
 * (then, and only then, both locks): the two sides meet when the takers' stack runs
 * empty, not once per signal.
 */
#include "runtime/rt.h"

#include <pthread.h>

#define SIGNAL_CACHE_MAX 16384 /* per stack: as DISP_POOL_MAX (dispatch/disp_priv.h) */

/* Held for a few instructions by the enqueueing thread and the runtime's completion thread
 * at once: glibc's adaptive mutex spins briefly before it sleeps (as dispatch's
 * DISP_MUTEX_INITIALIZER, dispatch/disp_priv.h). */
#ifdef PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP
#define SIGNAL_MUTEX_INITIALIZER PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP
#else
#define SIGNAL_MUTEX_INITIALIZER PTHREAD_MUTEX_INITIALIZER
#endif

struct signal_stack {
   hsa_signal_t *sig;
   unsigned count;
};

static hsa_signal_t storage[2][SIGNAL_CACHE_MAX];
/* Lock order: take_lock, then give_lock. */
static pthread_mutex_t take_lock = SIGNAL_MUTEX_INITIALIZER;
static pthread_mutex_t give_lock = SIGNAL_MUTEX_INITIALIZER;
static struct signal_stack take = { storage[0], 0 }; /* under take_lock */
static struct signal_stack give = { storage[1], 0 }; /* under give_lock */

/* Each taking thread keeps up to THREAD_BATCH signals of its own, taken from `take` in
 * one lock round trip (one per signal was a tenth of a launch's CPU time); a thread's are
 * given back at its exit. */
#define THREAD_BATCH 32

struct thread_signals {
   hsa_signal_t sig[THREAD_BATCH];
   unsigned count;
};
static _Thread_local struct thread_signals mine;
static pthread_key_t thread_key;
static pthread_once_t thread_key_once = PTHREAD_ONCE_INIT;

static void
thread_signals_put(void *unused)
{
   (void)unused;
   while (mine.count)
      rt_signal_put(mine.sig[--mine.count]);
}

static void
thread_key_create(void)
{
   if (pthread_key_create(&thread_key, thread_signals_put) != 0)
      thread_key = (pthread_key_t)-1;
}

/* Refills the calling thread's batch from `take` (swapped with `give` when empty). */
static void
thread_refill(void)
{
   pthread_once(&thread_key_once, thread_key_create);
   if (thread_key == (pthread_key_t)-1)
      return;
   if (!pthread_getspecific(thread_key))
      pthread_setspecific(thread_key, (void *)1);
   pthread_mutex_lock(&take_lock);
   if (!take.count) {
      pthread_mutex_lock(&give_lock);
      struct signal_stack t = take;
      take = give;
      give = t;
      pthread_mutex_unlock(&give_lock);
   }
   while (take.count && mine.count < THREAD_BATCH)
      mine.sig[mine.count++] = take.sig[--take.count];
   pthread_mutex_unlock(&take_lock);
}

cl_int
rt_signal_get(hsa_signal_t *out)
{
   const struct rt_hsa *hsa = rt_hsa();
   struct thread_signals *t = ICD_TLS_ADDR(mine);
   if (!t->count)
      thread_refill();
   if (t->count) {
      *out = t->sig[--t->count]; /* at 1 (rt_signal_put) */
      return CL_SUCCESS;
   }
   /* Created with no consumer list, like ROCclr's, so any agent may wait on it. */
   hsa_status_t st = hsa->hsa_amd_signal_create(1, 0, NULL, 0, out);
   if (st != HSA_STATUS_SUCCESS)
      return rt_status_to_cl(st, "creating an HSA signal");
   return CL_SUCCESS;
}

void
rt_signal_put(hsa_signal_t signal)
{
   rt_hsa()->hsa_signal_silent_store_relaxed(signal, 1);
   pthread_mutex_lock(&give_lock);
   if (give.count < SIGNAL_CACHE_MAX) {
      give.sig[give.count++] = signal;
      pthread_mutex_unlock(&give_lock);
      return;
   }
   pthread_mutex_unlock(&give_lock);
   rt_hsa()->hsa_signal_destroy(signal);
}
