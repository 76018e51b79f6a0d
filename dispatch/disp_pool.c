/*
 * dispatch/disp_pool.c — free lists for the objects every enqueue creates (commands,
 * events), so the steady-state enqueue path does not call malloc. A pool keeps at most
 * `max` freed objects; beyond that they go back to the heap. Giving an object back takes no
 * lock (disp_priv.h), so the completion path never contends with the enqueueing thread
 * here. Also the launch path's mutex initialiser (disp_priv.h).
 */
#include "dispatch/disp.h"
#include "dispatch/disp_priv.h"

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

void *
disp__pool_alloc(struct disp_pool *p)
{
   pthread_mutex_lock(&p->lock);
   void **obj = p->head;
   if (!obj)
      obj = atomic_exchange_explicit(&p->returned, NULL, memory_order_acquire);
   if (obj) {
      p->head = *obj;
      atomic_fetch_sub_explicit(&p->count, 1, memory_order_relaxed);
   }
   pthread_mutex_unlock(&p->lock);
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
