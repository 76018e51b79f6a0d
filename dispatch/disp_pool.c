/*
 * dispatch/disp_pool.c — free lists for the objects every enqueue creates (commands,
 * events), so the steady-state enqueue path does not call malloc. A pool keeps at most
 * `max` freed objects; beyond that they go back to the heap. Giving an object back takes no
 * lock (disp_priv.h), so the completion path never contends with the enqueueing thread
 * here; taking one takes none either: each allocating thread keeps its own list, refilled
 * from the given-back list at once (three lock round trips per launch were a tenth of its
 * CPU time). Also the launch path's mutex initialiser (disp_priv.h).
 */
#include "dispatch/disp.h"
#include "dispatch/disp_priv.h"

#include <pthread.h>
#include <string.h>

void
disp__mutex_init(pthread_mutex_t *m)
{
   pthread_mutexattr_t attr;
   pthread_mutexattr_init(&attr);
#ifdef PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP
   pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_ADAPTIVE_NP);
#endif
   pthread_mutex_init(m, &attr);
   pthread_mutexattr_destroy(&attr);
}

/* Pools whose allocations come from a per-thread list: the first POOL_SLOTS pools to
 * allocate (the launch path's: commands, events, launches); later ones use `head` under
 * `lock`. */
#define POOL_SLOTS 8

static struct disp_pool *_Atomic slot_pools[POOL_SLOTS];
static atomic_uint slots_used;
/* A thread's lists, and per pool the objects it took and has not yet subtracted from the
 * pool's count: the count is an approximate bound, updated every COUNT_BATCH allocations
 * (an atomic per allocation on a line the completion path writes cost as much as the rest
 * of it). One object, so a function reaches it with one TLS lookup. */
#define COUNT_BATCH 64u
struct thread_lists {
   void *heads[POOL_SLOTS];
   unsigned taken[POOL_SLOTS];
};
static _Thread_local struct thread_lists mine;
static pthread_key_t thread_key;
static pthread_once_t thread_key_once = PTHREAD_ONCE_INIT;

/* At the exit of a thread that allocated: what its lists hold goes back to the heap. */
static void
thread_lists_free(void *unused)
{
   (void)unused;
   for (unsigned i = 0; i < POOL_SLOTS; i++) {
      struct disp_pool *p = atomic_load(&slot_pools[i]);
      if (p && mine.taken[i])
         atomic_fetch_sub_explicit(&p->count, mine.taken[i], memory_order_relaxed);
      mine.taken[i] = 0;
      while (mine.heads[i]) {
         void **obj = mine.heads[i];
         mine.heads[i] = *obj;
         atomic_fetch_sub_explicit(&p->count, 1, memory_order_relaxed);
         icd_free(obj);
      }
   }
}

static void
thread_key_create(void)
{
   if (pthread_key_create(&thread_key, thread_lists_free) != 0)
      thread_key = (pthread_key_t)-1;
}

/* The pool's per-thread slot, assigned on its first allocation; POOL_SLOTS when none is
 * left or the thread's lists could not be freed at its exit. */
static unsigned
pool_slot(struct disp_pool *p)
{
   unsigned slot = atomic_load_explicit(&p->slot, memory_order_acquire);
   if (slot)
      return slot - 1;
   pthread_once(&thread_key_once, thread_key_create);
   pthread_mutex_lock(&p->lock);
   slot = atomic_load(&p->slot);
   if (!slot) {
      unsigned i = atomic_load(&slots_used);
      slot = i < POOL_SLOTS && thread_key != (pthread_key_t)-1 ? i + 1 : POOL_SLOTS + 1;
      if (i < POOL_SLOTS) {
         atomic_store(&slot_pools[i], p);
         atomic_store(&slots_used, i + 1);
      }
      atomic_store_explicit(&p->slot, slot, memory_order_release);
   }
   pthread_mutex_unlock(&p->lock);
   return slot - 1;
}

/* An object from the calling thread's list of pool slot `i`, refilled with the whole
 * `returned` list when empty; NULL when both are empty. No lock. */
static void **
thread_take(struct disp_pool *p, unsigned i)
{
   struct thread_lists *t = ICD_TLS_ADDR(mine);
   void **obj = t->heads[i];
   if (!obj) {
      obj = atomic_exchange_explicit(&p->returned, NULL, memory_order_acquire);
      if (!obj)
         return NULL;
      /* Makes thread_lists_free run at this thread's exit. */
      if (!pthread_getspecific(thread_key))
         pthread_setspecific(thread_key, (void *)1);
   }
   t->heads[i] = *obj;
   /* The next object was last written by the completion path, on another CPU: its line
    * comes over while this one is being used (reading its link here was the dearest load of
    * an enqueue). */
   if (t->heads[i])
      __builtin_prefetch(t->heads[i], 1);
   if (++t->taken[i] == COUNT_BATCH) {
      atomic_fetch_sub_explicit(&p->count, COUNT_BATCH, memory_order_relaxed);
      t->taken[i] = 0;
   }
   return obj;
}

void *
disp__pool_alloc(struct disp_pool *p)
{
   unsigned i = pool_slot(p);
   void **obj;
   if (i < POOL_SLOTS) {
      obj = thread_take(p, i);
   } else {
      pthread_mutex_lock(&p->lock);
      obj = p->head;
      if (!obj)
         obj = atomic_exchange_explicit(&p->returned, NULL, memory_order_acquire);
      if (obj) {
         p->head = *obj;
         atomic_fetch_sub_explicit(&p->count, 1, memory_order_relaxed);
      }
      pthread_mutex_unlock(&p->lock);
   }
   if (!obj)
      return icd_calloc(1, p->size);
   memset(obj, 0, p->size);
   return obj;
}

void
disp__pool_free(struct disp_pool *p, void *obj)
{
   if (!obj)
      return;
   if (atomic_fetch_add_explicit(&p->count, 1, memory_order_relaxed) >= p->max) {
      atomic_fetch_sub_explicit(&p->count, 1, memory_order_relaxed);
      icd_free(obj);
      return;
   }
   /* A push only: the allocator takes the whole list with one exchange, never a single
    * node, so a node seen here cannot be popped and pushed back under us (no ABA). */
   void *head = atomic_load_explicit(&p->returned, memory_order_relaxed);
   do {
      *(void **)obj = head;
   } while (!atomic_compare_exchange_weak_explicit(&p->returned, &head, obj,
                                                   memory_order_release,
                                                   memory_order_relaxed));
}
