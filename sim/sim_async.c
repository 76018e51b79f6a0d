/*
 * sim/sim_async.c — worker threads that run jobs once signals reach a condition, and the
 * two AMD entry points built on them: hsa_amd_signal_async_handler and
 * hsa_amd_async_function (hsa_ext_amd.h). The copy engine (sim_copy.c) is a second worker.
 *
 * A worker never spins for long and never misses a wake-up: it watches its jobs'
 * signals and sleeps on the global epoch with the eventcount protocol of sim_priv.h.
 * Submitting a job is a lock-free push that makes no system call unless the thread sleeps
 * and the job can run at once.
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

static void
job_watch(const sim_job *job, bool watch)
{
   for (uint32_t i = 0; i < job->dep_count; i++) {
      sim_signal *s = sim__signal_get(job->deps[i]);
      if (s && watch)
         sim__signal_watch(s);
      else if (s)
         sim__signal_unwatch(s);
   }
}

static void
job_destroy(sim_job *job)
{
   job_watch(job, false);
   job->destroy(job);
}

/* Moves submitted jobs to the end of the thread's list, oldest first. */
static void
take_incoming(sim_worker *w)
{
   sim_job *job = atomic_exchange(&w->incoming, NULL);
   sim_job *reversed = NULL;
   while (job) {
      sim_job *next = job->next;
      job->next = reversed;
      reversed = job;
      job = next;
   }
   if (!reversed)
      return;
   if (w->tail)
      w->tail->next = reversed;
   else
      w->head = reversed;
   for (w->tail = reversed; w->tail->next; w->tail = w->tail->next)
      ;
}

/* Unlinks and returns the oldest ready job, or NULL. */
static sim_job *
take_ready(sim_worker *w)
{
   sim_job *prev = NULL, *job = w->head;
   while (job && !job_ready(job)) {
      prev = job;
      job = job->next;
   }
   if (!job)
      return NULL;
   if (prev)
      prev->next = job->next;
   else
      w->head = job->next;
   if (w->tail == job)
      w->tail = prev;
   job->next = NULL;
   return job;
}

/* Polls, for up to `budget_ns`, for a submission or the oldest job becoming ready. */
static void
worker_poll(sim_worker *w, uint64_t budget_ns)
{
   uint64_t start = sim__timestamp();
   for (uint32_t i = 1;; i++) {
      if (atomic_load_explicit(&w->incoming, memory_order_relaxed) || atomic_load(&w->stop) ||
          (w->head && job_ready(w->head)))
         return;
      __builtin_ia32_pause();
      if (i % 16 == 0 && sim__timestamp() - start >= budget_ns)
         return;
   }
}

/*
 * Polls (sim_priv.h) while jobs are in flight: their completions may come back to back.
 * With none it sleeps at once (polling then too cost the host thread that waits for each
 * launch twice its round trip on a two-core machine, and saved nothing measurable).
 */
static void *
worker_main(void *arg)
{
   sim_worker *w = arg;
   bool polled = false;
   while (!atomic_load(&w->stop)) {
      take_incoming(w);
      sim_job *job = take_ready(w);
      if (!job && !polled && w->head) {
         polled = true;
         worker_poll(w, SIM_POLL_NS);
         continue;
      }
      if (!job) {
         uint32_t ticket = sim__epoch_prepare();
         take_incoming(w);
         job = take_ready(w);
         if (!job && !atomic_load(&w->stop)) {
            /* Jobs not ready yet (also ones pushed since take_incoming, not taken):
             * the safety poll; none: nothing to miss. */
            bool pending = w->head || atomic_load_explicit(&w->incoming, memory_order_relaxed);
            sim__epoch_sleep(ticket, pending ? WORKER_POLL_NS : UINT64_MAX);
            continue;
         }
         sim__epoch_cancel();
         if (!job)
            continue;
      }
      polled = false;
      if (job->run(job) && !atomic_load(&w->stop)) {
         if (w->tail)
            w->tail->next = job;
         else
            w->head = job;
         w->tail = job;
      } else {
         job_destroy(job);
      }
   }
   return NULL;
}

hsa_status_t
sim__worker_submit(sim_worker *w, sim_job *job)
{
   if (!atomic_load(&w->started)) {
      pthread_mutex_lock(&w->lock);
      hsa_status_t st = HSA_STATUS_SUCCESS;
      if (!atomic_load(&w->started)) {
         atomic_store(&w->stop, false);
         if (pthread_create(&w->thread, NULL, worker_main, w) == 0)
            atomic_store(&w->started, true);
         else
            st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
      }
      pthread_mutex_unlock(&w->lock);
      if (st != HSA_STATUS_SUCCESS)
         return st;
   }
   /* Watch first, then push, then test: a dependency modified after the watch wakes the
    * sleeping thread, one modified before it is seen by the test, which then wakes it.
    * The test reads a copy: once pushed, the job may already be gone. */
   sim_job copy = *job;
   hsa_signal_t deps[4];
   bool small = job->dep_count <= 4;
   if (small)
      memcpy(deps, job->deps, job->dep_count * sizeof(hsa_signal_t));
   job_watch(job, true);
   job->next = atomic_load(&w->incoming);
   while (!atomic_compare_exchange_weak(&w->incoming, &job->next, job))
      ;
   atomic_thread_fence(memory_order_seq_cst);
   bool ready = true; /* more deps than copied: wake it to be safe */
   if (small) {
      /* all: met until one is not; any: unmet until one is (no deps: met) */
      ready = !copy.any || copy.dep_count == 0;
      for (uint32_t i = 0; i < copy.dep_count; i++) {
         sim_signal *s = sim__signal_get(deps[i]);
         bool met = !s || sim__signal_cond(copy.cond, sim__signal_load(s), copy.value);
         if (met == copy.any) {
            ready = met;
            break;
         }
      }
   }
   if (ready)
      sim__epoch_bump();
   return HSA_STATUS_SUCCESS;
}

static void
destroy_list(sim_job *job)
{
   while (job) {
      sim_job *next = job->next;
      job_destroy(job);
      job = next;
   }
}

void
sim__worker_finish(sim_worker *w)
{
   pthread_mutex_lock(&w->lock);
   if (!atomic_load(&w->started)) {
      pthread_mutex_unlock(&w->lock);
      return;
   }
   atomic_store(&w->stop, true);
   sim__epoch_bump();
   pthread_join(w->thread, NULL);
   destroy_list(w->head);
   destroy_list(atomic_exchange(&w->incoming, NULL));
   w->head = w->tail = NULL;
   atomic_store(&w->started, false);
   atomic_store(&w->stop, false);
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

/* Handler jobs are recycled (at most HANDLER_CACHE_MAX): registering a handler per command
 * does not call malloc in the steady state. */
#define HANDLER_CACHE_MAX 4096u

static pthread_mutex_t handler_cache_lock = PTHREAD_MUTEX_INITIALIZER;
static handler_job *handler_cache;
static uint32_t handler_cached;

static void
handler_destroy(sim_job *job)
{
   handler_job *h = (handler_job *)((char *)job - offsetof(handler_job, job));
   pthread_mutex_lock(&handler_cache_lock);
   if (handler_cached < HANDLER_CACHE_MAX) {
      h->arg = handler_cache;
      handler_cache = h;
      handler_cached++;
      h = NULL;
   }
   pthread_mutex_unlock(&handler_cache_lock);
   free(h);
}

/* A zeroed job with room for one dependency. */
static handler_job *
handler_job_create(uint32_t deps)
{
   pthread_mutex_lock(&handler_cache_lock);
   handler_job *h = handler_cache;
   if (h) {
      handler_cache = h->arg;
      handler_cached--;
   }
   pthread_mutex_unlock(&handler_cache_lock);
   if (h)
      memset(h, 0, sizeof(*h) + sizeof(hsa_signal_t));
   else
      h = calloc(1, sizeof(*h) + sizeof(hsa_signal_t));
   if (!h)
      return NULL;
   h->job.run = handler_run;
   h->job.destroy = handler_destroy;
   h->job.dep_count = deps;
   return h;
}

static void
handler_cache_finish(void)
{
   pthread_mutex_lock(&handler_cache_lock);
   while (handler_cache) {
      handler_job *h = handler_cache;
      handler_cache = h->arg;
      free(h);
   }
   handler_cached = 0;
   pthread_mutex_unlock(&handler_cache_lock);
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
      handler_destroy(&h->job);
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
      handler_destroy(&h->job);
   return st;
}

void
sim__async_finish(void)
{
   sim__worker_finish(&async_worker);
   handler_cache_finish();
}
