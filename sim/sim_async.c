/*
 * sim/sim_async.c — worker threads that run jobs once signals reach a condition, and the
 * two AMD entry points built on them: hsa_amd_signal_async_handler and
 * hsa_amd_async_function (hsa_ext_amd.h). The copy engine (sim_copy.c) is a second worker.
 *
 * A worker sleeps on its condition variable while it has no jobs and on the global signal
 * epoch while jobs wait for signals, so it never spins.
 */
#include <stdlib.h>
#include <string.h>

#include "sim_priv.h"

/* Safety net for wake-ups lost to non-notifying writes (hsa_signal_silent_store_*). */
#define WORKER_POLL_NS 50000000ull

static bool
job_ready(const sim_job *job)
{
   if (job->dep_count == 0)
      return true;
   for (uint32_t i = 0; i < job->dep_count; i++) {
      sim_signal *s = sim__signal_get(job->deps[i]);
      /* A destroyed dependency can never change again: count it as met, don't hang. */
      bool met = !s || sim__signal_cond(job->cond, sim__signal_load(s), job->value);
      if (job->any && met)
         return true;
      if (!job->any && !met)
         return false;
   }
   return !job->any;
}

static void *
worker_main(void *arg)
{
   sim_worker *w = arg;
   pthread_mutex_lock(&w->lock);
   while (!w->stop) {
      uint32_t seen = sim__epoch();
      sim_job *prev = NULL, *job = w->head;
      while (job && !job_ready(job)) {
         prev = job;
         job = job->next;
      }
      if (job) {
         if (prev)
            prev->next = job->next;
         else
            w->head = job->next;
         if (w->tail == job)
            w->tail = prev;
         job->next = NULL;
         pthread_mutex_unlock(&w->lock);
         bool keep = job->run(job);
         pthread_mutex_lock(&w->lock);
         if (keep && !w->stop) {
            if (w->tail)
               w->tail->next = job;
            else
               w->head = job;
            w->tail = job;
         } else {
            job->destroy(job);
         }
         continue;
      }
      if (!w->head) {
         pthread_cond_wait(&w->cond, &w->lock);
         continue;
      }
      pthread_mutex_unlock(&w->lock);
      sim__epoch_wait(seen, WORKER_POLL_NS);
      pthread_mutex_lock(&w->lock);
   }
   pthread_mutex_unlock(&w->lock);
   return NULL;
}

hsa_status_t
sim__worker_submit(sim_worker *w, sim_job *job)
{
   hsa_status_t st = HSA_STATUS_SUCCESS;
   job->next = NULL;
   pthread_mutex_lock(&w->lock);
   if (!w->started) {
      w->stop = false;
      if (pthread_create(&w->thread, NULL, worker_main, w) != 0) {
         st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
         goto out_unlock;
      }
      w->started = true;
   }
   if (w->tail)
      w->tail->next = job;
   else
      w->head = job;
   w->tail = job;
   pthread_cond_signal(&w->cond);
out_unlock:
   pthread_mutex_unlock(&w->lock);
   if (st == HSA_STATUS_SUCCESS)
      sim__epoch_bump();
   return st;
}

void
sim__worker_finish(sim_worker *w)
{
   pthread_mutex_lock(&w->lock);
   if (!w->started) {
      pthread_mutex_unlock(&w->lock);
      return;
   }
   w->stop = true;
   pthread_cond_broadcast(&w->cond);
   pthread_mutex_unlock(&w->lock);
   sim__epoch_bump();
   pthread_join(w->thread, NULL);
   pthread_mutex_lock(&w->lock);
   sim_job *job = w->head;
   while (job) {
      sim_job *next = job->next;
      job->destroy(job);
      job = next;
   }
   w->head = w->tail = NULL;
   w->started = false;
   w->stop = false;
   pthread_mutex_unlock(&w->lock);
}

/* ---- signal handlers and async functions --------------------------------------------------- */

static sim_worker async_worker = SIM_WORKER_INIT("async");

typedef struct handler_job {
   hsa_amd_signal_handler handler;
   void (*function)(void *arg);
   void *arg;
   sim_job job; /* last: flexible deps */
} handler_job;

static bool
handler_run(sim_job *job)
{
   handler_job *h = (handler_job *)((char *)job - offsetof(handler_job, job));
   if (h->function) {
      h->function(h->arg);
      return false;
   }
   sim_signal *s = sim__signal_get(job->deps[0]);
   if (!s)
      return false;
   return h->handler(sim__signal_load(s), h->arg);
}

static void
handler_destroy(sim_job *job)
{
   free((char *)job - offsetof(handler_job, job));
}

static handler_job *
handler_job_create(uint32_t deps)
{
   handler_job *h = calloc(1, sizeof(*h) + deps * sizeof(hsa_signal_t));
   if (!h)
      return NULL;
   h->job.run = handler_run;
   h->job.destroy = handler_destroy;
   h->job.dep_count = deps;
   return h;
}

/*
 * hsa_ext_amd.h: calls `handler(value, arg)` on the runtime's handler thread once `signal`
 * satisfies `cond` against `value`; a true return re-arms it. Handlers may call HSA APIs
 * (no runtime lock is held) but must not block on another handler.
 */
SIM_EXPORT hsa_status_t
hsa_amd_signal_async_handler(hsa_signal_t signal, hsa_signal_condition_t cond,
                             hsa_signal_value_t value, hsa_amd_signal_handler handler, void *arg)
{
   SIM_CHECK_INIT();
   if (!sim__signal_get(signal))
      return HSA_STATUS_ERROR_INVALID_SIGNAL;
   if (!handler || cond < HSA_SIGNAL_CONDITION_EQ || cond > HSA_SIGNAL_CONDITION_GTE)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   handler_job *h = handler_job_create(1);
   if (!h)
      return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
   h->handler = handler;
   h->arg = arg;
   h->job.cond = cond;
   h->job.value = value;
   h->job.deps[0] = signal;
   hsa_status_t st = sim__worker_submit(&async_worker, &h->job);
   if (st != HSA_STATUS_SUCCESS)
      free(h);
   return st;
}

SIM_EXPORT hsa_status_t
hsa_amd_async_function(void (*callback)(void *arg), void *arg)
{
   SIM_CHECK_INIT();
   if (!callback)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   handler_job *h = handler_job_create(0);
   if (!h)
      return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
   h->function = callback;
   h->arg = arg;
   hsa_status_t st = sim__worker_submit(&async_worker, &h->job);
   if (st != HSA_STATUS_SUCCESS)
      free(h);
   return st;
}

void
sim__async_finish(void)
{
   sim__worker_finish(&async_worker);
}
