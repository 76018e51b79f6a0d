/*
 * dispatch/disp_pool.c — free lists for the objects every enqueue creates (commands,
 * events), so the steady-state enqueue path does not call malloc. A pool keeps at most
 * `max` freed objects; beyond that they go back to the heap. Also the launch path's mutex
 * initialiser (disp_priv.h).
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
   if (obj) {
      p->head = *obj;
      p->count--;
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
   pthread_mutex_lock(&p->lock);
   if (p->count < p->max) {
      *(void **)obj = p->head;
      p->head = obj;
      p->count++;
      obj = NULL;
   }
   pthread_mutex_unlock(&p->lock);
   icd_free(obj);
}
