/*
 * dispatch/tests/disp_core_test.c — dispatch's object core (disp.h: queues, events,
 * commands) against a fake HSA table installed with rt_hsa_install, as the Khronos loader's
 * test/driver_stub fakes a whole ICD: no runtime, no GPU. The device and context are
 * records built here; the fake's signals are host atomics, its async handlers run on one
 * thread of its own (as ROCr's do), and its AQL rings are memory nobody reads, whose write
 * index tells whether the core wrote packets.
 *
 * What it checks: completion of long chains of host commands held on a user event runs
 * iteratively (on a thread with a small stack) and in order, in-order and out-of-order;
 * a failed user event fails its dependants without running them; commands in a queue's
 * completion FIFO retire in submission order whatever order their signals reach 0 in; and a
 * command held back on the pending list is submitted once its user event completes; and a
 * command whose work is done when it is submitted completes on the enqueueing thread; and
 * the object pools' per-thread lists are given back at a thread's exit; and a signal taken
 * from the signal pool is reset to 1 without a notifying store (nobody waits on a pooled
 * signal; a notifying store costs every launch a fence, on ROCr a look at its KFD event).
 */
#include "dispatch/disp.h"
#include "dispatch/disp_priv.h"
#include "platform/plat.h"
#include "runtime/rt.h"

#include "hsacl_test.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

/* ---- the fake HSA table -------------------------------------------------------------- */

struct fake_signal {
   _Atomic hsa_signal_value_t value;
};

struct fake_handler {
   hsa_signal_t signal;
   hsa_signal_condition_t cond;
   hsa_signal_value_t value;
   hsa_amd_signal_handler fn;
   void *arg;
   struct fake_handler *next;
};

struct fake_queue {
   hsa_queue_t q;
   _Atomic uint64_t write, read;
};

/* `generation` moves on every signal store and handler registration; the handler thread and
 * waiters sleep on `changed` until it moves. */
static pthread_mutex_t fake_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t fake_changed = PTHREAD_COND_INITIALIZER;
static uint64_t generation;
static struct fake_handler *handlers;
static atomic_int live_queues;
static atomic_int registrations;  /* hsa_amd_signal_async_handler calls */
static atomic_int relaxed_stores; /* hsa_signal_store_relaxed calls (they notify waiters) */
static atomic_int silent_stores;  /* hsa_signal_silent_store_relaxed calls */

static struct fake_signal *
sig_of(hsa_signal_t s)
{
   return (struct fake_signal *)(uintptr_t)s.handle;
}

static void
fake_bump(void)
{
   pthread_mutex_lock(&fake_lock);
   generation++;
   pthread_cond_broadcast(&fake_changed);
   pthread_mutex_unlock(&fake_lock);
}

static bool
cond_holds(hsa_signal_condition_t cond, hsa_signal_value_t v, hsa_signal_value_t want)
{
   switch (cond) {
   case HSA_SIGNAL_CONDITION_EQ: return v == want;
   case HSA_SIGNAL_CONDITION_NE: return v != want;
   case HSA_SIGNAL_CONDITION_LT: return v < want;
   case HSA_SIGNAL_CONDITION_GTE: return v >= want;
   }
   return false;
}

static hsa_status_t
fake_signal_create(hsa_signal_value_t initial, hsa_signal_t *out)
{
   struct fake_signal *s = calloc(1, sizeof(*s));
   if (!s)
      return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
   atomic_init(&s->value, initial);
   out->handle = (uint64_t)(uintptr_t)s;
   return HSA_STATUS_SUCCESS;
}

static hsa_status_t
fake_hsa_signal_create(hsa_signal_value_t initial, uint32_t n, const hsa_agent_t *consumers,
                       hsa_signal_t *out)
{
   (void)n, (void)consumers;
   return fake_signal_create(initial, out);
}

static hsa_status_t
fake_amd_signal_create(hsa_signal_value_t initial, uint32_t n, const hsa_agent_t *consumers,
                       uint64_t attributes, hsa_signal_t *out)
{
   (void)n, (void)consumers, (void)attributes;
   return fake_signal_create(initial, out);
}

static hsa_status_t
fake_signal_destroy(hsa_signal_t s)
{
   free(sig_of(s));
   return HSA_STATUS_SUCCESS;
}

static hsa_signal_value_t
fake_signal_load(hsa_signal_t s)
{
   return atomic_load(&sig_of(s)->value);
}

static void
fake_signal_store(hsa_signal_t s, hsa_signal_value_t v)
{
   atomic_store(&sig_of(s)->value, v);
   fake_bump();
}

static void
fake_signal_store_relaxed(hsa_signal_t s, hsa_signal_value_t v)
{
   atomic_fetch_add(&relaxed_stores, 1);
   fake_signal_store(s, v);
}

/* No waiter is told (HSA 1.2 hsa_signal_silent_store_relaxed): no bump. */
static void
fake_signal_silent_store(hsa_signal_t s, hsa_signal_value_t v)
{
   atomic_fetch_add(&silent_stores, 1);
   atomic_store(&sig_of(s)->value, v);
}

static void
fake_signal_subtract(hsa_signal_t s, hsa_signal_value_t v)
{
   atomic_fetch_sub(&sig_of(s)->value, v);
   fake_bump();
}

static hsa_signal_value_t
fake_signal_wait(hsa_signal_t s, hsa_signal_condition_t cond, hsa_signal_value_t want,
                 uint64_t timeout, hsa_wait_state_t state)
{
   (void)timeout, (void)state;
   pthread_mutex_lock(&fake_lock);
   hsa_signal_value_t v;
   while (!cond_holds(cond, v = atomic_load(&sig_of(s)->value), want))
      pthread_cond_wait(&fake_changed, &fake_lock);
   pthread_mutex_unlock(&fake_lock);
   return v;
}

static hsa_status_t
fake_async_handler(hsa_signal_t s, hsa_signal_condition_t cond, hsa_signal_value_t value,
                   hsa_amd_signal_handler fn, void *arg)
{
   struct fake_handler *h = calloc(1, sizeof(*h));
   if (!h)
      return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
   atomic_fetch_add(&registrations, 1);
   *h = (struct fake_handler){ s, cond, value, fn, arg, NULL };
   pthread_mutex_lock(&fake_lock);
   h->next = handlers;
   handlers = h;
   generation++;
   pthread_cond_broadcast(&fake_changed);
   pthread_mutex_unlock(&fake_lock);
   return HSA_STATUS_SUCCESS;
}

/* The runtime's handler thread: calls every handler whose condition holds, outside the lock;
 * one that returns true stays registered. */
static void *
fake_handler_thread(void *unused)
{
   (void)unused;
   uint64_t seen = 0;
   pthread_mutex_lock(&fake_lock);
   for (;;) {
      while (generation == seen)
         pthread_cond_wait(&fake_changed, &fake_lock);
      seen = generation;
      struct fake_handler *due = NULL, **pp = &handlers;
      while (*pp) {
         struct fake_handler *h = *pp;
         if (cond_holds(h->cond, atomic_load(&sig_of(h->signal)->value), h->value)) {
            *pp = h->next;
            h->next = due;
            due = h;
         } else {
            pp = &h->next;
         }
      }
      pthread_mutex_unlock(&fake_lock);
      while (due) {
         struct fake_handler *h = due;
         due = h->next;
         if (h->fn(atomic_load(&sig_of(h->signal)->value), h->arg))
            fake_async_handler(h->signal, h->cond, h->value, h->fn, h->arg);
         free(h);
      }
      pthread_mutex_lock(&fake_lock);
   }
   return NULL;
}

static hsa_status_t
fake_queue_create(hsa_agent_t agent, uint32_t size, hsa_queue_type32_t type,
                  void (*callback)(hsa_status_t, hsa_queue_t *, void *), void *data,
                  uint32_t private_size, uint32_t group_size, hsa_queue_t **out)
{
   (void)agent, (void)type, (void)callback, (void)data, (void)private_size, (void)group_size;
   struct fake_queue *fq = calloc(1, sizeof(*fq));
   void *ring = calloc(size, 64);
   if (!fq || !ring || fake_signal_create(0, &fq->q.doorbell_signal) != HSA_STATUS_SUCCESS) {
      free(fq);
      free(ring);
      return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
   }
   fq->q.base_address = ring;
   fq->q.size = size;
   atomic_fetch_add(&live_queues, 1);
   *out = &fq->q;
   return HSA_STATUS_SUCCESS;
}

static hsa_status_t
fake_queue_destroy(hsa_queue_t *q)
{
   struct fake_queue *fq = (struct fake_queue *)q;
   /* No test here makes the core write packets: host work held on the host and commands
    * whose submit() the test provides need none. */
   CHECK_EQ_INT(atomic_load(&fq->write), 0);
   fake_signal_destroy(q->doorbell_signal);
   free(q->base_address);
   free(fq);
   atomic_fetch_sub(&live_queues, 1);
   return HSA_STATUS_SUCCESS;
}

static uint64_t
fake_queue_load_write(const hsa_queue_t *q)
{
   return atomic_load(&((struct fake_queue *)q)->write);
}

static uint64_t
fake_queue_load_read(const hsa_queue_t *q)
{
   return atomic_load(&((struct fake_queue *)q)->read);
}

static uint64_t
fake_queue_add_write(const hsa_queue_t *q, uint64_t n)
{
   return atomic_fetch_add(&((struct fake_queue *)q)->write, n);
}

static void
fake_queue_store_write(const hsa_queue_t *q, uint64_t value)
{
   atomic_store(&((struct fake_queue *)q)->write, value);
}

static hsa_status_t
fake_system_get_info(hsa_system_info_t attribute, void *value)
{
   struct timespec ts;
   switch (attribute) {
   case HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY:
      *(uint64_t *)value = 1000000000ull;
      return HSA_STATUS_SUCCESS;
   case HSA_SYSTEM_INFO_TIMESTAMP:
      clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
      *(uint64_t *)value = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
      return HSA_STATUS_SUCCESS;
   default:
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   }
}

static hsa_status_t
fake_status_string(hsa_status_t status, const char **out)
{
   (void)status;
   *out = "fake HSA status";
   return HSA_STATUS_SUCCESS;
}

static hsa_status_t
fake_profiler_enabled(hsa_queue_t *q, int enable)
{
   (void)q, (void)enable;
   return HSA_STATUS_SUCCESS;
}

static void
fake_install(void)
{
   static struct rt_hsa t;
   t.hsa_status_string = fake_status_string;
   t.hsa_system_get_info = fake_system_get_info;
   t.hsa_signal_create = fake_hsa_signal_create;
   t.hsa_amd_signal_create = fake_amd_signal_create;
   t.hsa_signal_destroy = fake_signal_destroy;
   t.hsa_signal_load_relaxed = fake_signal_load;
   t.hsa_signal_load_scacquire = fake_signal_load;
   t.hsa_signal_store_relaxed = fake_signal_store_relaxed;
   t.hsa_signal_silent_store_relaxed = fake_signal_silent_store;
   t.hsa_signal_store_screlease = fake_signal_store;
   t.hsa_signal_subtract_screlease = fake_signal_subtract;
   t.hsa_signal_wait_scacquire = fake_signal_wait;
   t.hsa_signal_wait_relaxed = fake_signal_wait;
   t.hsa_amd_signal_async_handler = fake_async_handler;
   t.hsa_queue_create = fake_queue_create;
   t.hsa_queue_destroy = fake_queue_destroy;
   t.hsa_queue_load_write_index_relaxed = fake_queue_load_write;
   t.hsa_queue_load_read_index_scacquire = fake_queue_load_read;
   t.hsa_queue_add_write_index_scacq_screl = fake_queue_add_write;
   t.hsa_queue_store_write_index_relaxed = fake_queue_store_write;
   t.hsa_amd_profiling_set_profiler_enabled = fake_profiler_enabled;
   t.kind = RT_RUNTIME_PATH;
   CHECK(rt_hsa_install(&t));
   pthread_t thread;
   CHECK(pthread_create(&thread, NULL, fake_handler_thread, NULL) == 0);
   pthread_detach(thread);
}

/* ---- a device and a context without hardware ----------------------------------------- */

static struct _cl_device_id dev;
static cl_context context;
static cl_device_id device;

static void
make_context(void)
{
   icd_object_init(&dev.obj, ICD_TYPE_DEVICE);
   snprintf(dev.name, sizeof(dev.name), "gfx906");
   dev.agent.handle = 1;
   dev.queue_max_size = 4096;
   device = plat_device_to_handle(&dev);
   struct _cl_context *ctx = icd_calloc(1, sizeof(*ctx));
   struct _cl_device_id **list = icd_calloc(1, sizeof(*list));
   CHECK(ctx && list);
   list[0] = &dev;
   icd_object_init(&ctx->obj, ICD_TYPE_CONTEXT);
   pthread_mutex_init(&ctx->lock, NULL);
   ctx->devices = list;
   ctx->num_devices = 1;
   context = plat_context_to_handle(ctx);
}

static cl_command_queue
make_queue(bool out_of_order)
{
   cl_queue_properties props[] = {
      CL_QUEUE_PROPERTIES, out_of_order ? CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE : 0, 0
   };
   cl_int err = -1;
   cl_command_queue q = disp_CreateCommandQueueWithProperties(context, device, props, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   return q;
}

static cl_int
event_status(cl_event ev)
{
   cl_int status = 1;
   CHECK_EQ_INT(disp_GetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status),
                                  &status, NULL), CL_SUCCESS);
   return status;
}

/* ---- commands whose work the test does ------------------------------------------------ */

/* Each command's payload: its place in the order the test expects them to finish. */
struct work {
   size_t index;
   hsa_signal_t signal; /* submit()'s completion signal (HSA commands) */
   atomic_bool submitted;
   bool done_in_submit; /* submit() finishes the work before it returns */
};

static atomic_size_t completed;
static atomic_bool out_of_order_seen;

static cl_int
work_complete(struct disp_command *cmd)
{
   struct work *w = cmd->payload;
   if (atomic_fetch_add(&completed, 1) != w->index)
      atomic_store(&out_of_order_seen, true);
   return CL_SUCCESS;
}

static void
work_release(struct disp_command *cmd)
{
   (void)cmd; /* the payloads are the test's arrays */
}

static cl_int
work_submit(struct disp_command *cmd, const hsa_signal_t *deps, uint32_t num_deps,
            hsa_signal_t signal)
{
   struct work *w = cmd->payload;
   CHECK_EQ_INT(num_deps, 0);
   CHECK(deps == NULL);
   w->signal = signal;
   atomic_store(&w->submitted, true);
   if (w->done_in_submit)
      fake_signal_store(signal, 0);
   return CL_SUCCESS;
}

static cl_event
enqueue(cl_command_queue queue, disp_command_kind kind, bool uses_aql, struct work *w,
        cl_uint num_deps, const cl_event *deps)
{
   struct disp_command *cmd = NULL;
   CHECK_EQ_INT(disp_command_create(disp_queue_from_handle(queue), CL_COMMAND_USER + 1,
                                    num_deps, deps, &cmd), CL_SUCCESS);
   cmd->kind = kind;
   cmd->uses_aql = uses_aql;
   cmd->payload = w;
   cmd->complete = work_complete;
   cmd->release = work_release;
   cmd->submit = kind == DISP_COMMAND_HSA ? work_submit : NULL;
   cl_event ev = NULL;
   CHECK_EQ_INT(disp_command_enqueue(cmd, &ev, false), CL_SUCCESS);
   return ev;
}

/* ---- the tests ------------------------------------------------------------------------ */

struct status_arg {
   cl_event event;
   cl_int status;
};

static void *
set_status_thread(void *p)
{
   struct status_arg *a = p;
   CHECK_EQ_INT(disp_SetUserEventStatus(a->event, a->status), CL_SUCCESS);
   return NULL;
}

/* Sets a user event's status on a thread with a 512 KiB stack: completing a chain that
 * deep recursively would overflow it. */
static void
set_status_small_stack(cl_event ev, cl_int status)
{
   pthread_attr_t attr;
   pthread_attr_init(&attr);
   pthread_attr_setstacksize(&attr, 512 * 1024);
   struct status_arg a = { ev, status };
   pthread_t t;
   CHECK(pthread_create(&t, &attr, set_status_thread, &a) == 0);
   pthread_join(t, NULL);
   pthread_attr_destroy(&attr);
}

#define CHAIN 20000

/* A chain of CHAIN host commands held on one user event: in-order by the queue, or
 * out-of-order with each waiting for the one before. Completing the user event runs them
 * all, in order, without recursion. With a failing status none runs and all fail. */
static void
chain(bool out_of_order, cl_int user_status)
{
   cl_command_queue q = make_queue(out_of_order);
   cl_int err = -1;
   cl_event user = disp_CreateUserEvent(context, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   struct work *w = calloc(CHAIN, sizeof(*w));
   cl_event *ev = calloc(CHAIN, sizeof(*ev));
   CHECK(w && ev);
   atomic_store(&completed, 0);
   atomic_store(&out_of_order_seen, false);
   for (size_t i = 0; i < CHAIN; i++) {
      w[i].index = i;
      const cl_event *dep = i == 0 ? &user : &ev[i - 1];
      bool waits = i == 0 || out_of_order;
      ev[i] = enqueue(q, DISP_COMMAND_HOST, false, &w[i], waits ? 1 : 0, waits ? dep : NULL);
   }
   /* Held on the host: nothing ran. */
   CHECK_EQ_INT((int)atomic_load(&completed), 0);
   CHECK_EQ_INT(event_status(ev[CHAIN - 1]), CL_QUEUED);
   set_status_small_stack(user, user_status);
   CHECK_EQ_INT(disp_Finish(q), CL_SUCCESS);
   if (user_status == CL_COMPLETE) {
      CHECK_EQ_INT((int)atomic_load(&completed), CHAIN);
      CHECK(!atomic_load(&out_of_order_seen));
      CHECK_EQ_INT(event_status(ev[0]), CL_COMPLETE);
      CHECK_EQ_INT(event_status(ev[CHAIN - 1]), CL_COMPLETE);
   } else {
      CHECK_EQ_INT((int)atomic_load(&completed), 0);
      CHECK(event_status(ev[0]) < 0);
      CHECK(event_status(ev[CHAIN - 1]) < 0);
   }
   for (size_t i = 0; i < CHAIN; i++)
      CHECK_EQ_INT(disp_ReleaseEvent(ev[i]), CL_SUCCESS);
   CHECK_EQ_INT(disp_ReleaseEvent(user), CL_SUCCESS);
   CHECK_EQ_INT(disp_ReleaseCommandQueue(q), CL_SUCCESS);
   free(w);
   free(ev);
}

static void
sleep_ms(int ms)
{
   struct timespec ts = { 0, ms * 1000000L };
   nanosleep(&ts, NULL);
}

#define FIFO 64

/* Commands in the AQL ring retire in the order they were submitted: signals reaching 0
 * newest first retire nothing until the oldest is done, then all of them, in order. */
static void
fifo_order(void)
{
   cl_command_queue q = make_queue(false);
   struct work w[FIFO] = { 0 };
   cl_event ev[FIFO];
   atomic_store(&completed, 0);
   atomic_store(&out_of_order_seen, false);
   for (size_t i = 0; i < FIFO; i++) {
      w[i].index = i;
      ev[i] = enqueue(q, DISP_COMMAND_HSA, true, &w[i], 0, NULL);
      CHECK(atomic_load(&w[i].submitted));
   }
   for (size_t i = FIFO - 1; i > 0; i--)
      fake_signal_store(w[i].signal, 0);
   sleep_ms(50);
   CHECK_EQ_INT((int)atomic_load(&completed), 0);
   CHECK_EQ_INT(event_status(ev[FIFO - 1]), CL_RUNNING); /* submitted with nothing to wait for */
   fake_signal_store(w[0].signal, 0);
   CHECK_EQ_INT(disp_Finish(q), CL_SUCCESS);
   CHECK_EQ_INT((int)atomic_load(&completed), FIFO);
   CHECK(!atomic_load(&out_of_order_seen));
   for (size_t i = 0; i < FIFO; i++) {
      CHECK_EQ_INT(event_status(ev[i]), CL_COMPLETE);
      CHECK_EQ_INT(disp_ReleaseEvent(ev[i]), CL_SUCCESS);
   }
   CHECK_EQ_INT(disp_ReleaseCommandQueue(q), CL_SUCCESS);
}

/* A command that waits for a user event stays on the pending list, unsubmitted; the user
 * event's completion submits it (with nothing left to wait for: CL_RUNNING), and its signal
 * completes it through its own handler (it is not in the ring). */
static void
pending_submit(void)
{
   cl_command_queue q = make_queue(true);
   cl_int err = -1;
   cl_event user = disp_CreateUserEvent(context, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   struct work w = { 0 };
   atomic_store(&completed, 0);
   cl_event ev = enqueue(q, DISP_COMMAND_HSA, false, &w, 1, &user);
   sleep_ms(20);
   CHECK(!atomic_load(&w.submitted));
   CHECK_EQ_INT(event_status(ev), CL_QUEUED);
   CHECK_EQ_INT(disp_SetUserEventStatus(user, CL_COMPLETE), CL_SUCCESS);
   CHECK(atomic_load(&w.submitted));
   CHECK_EQ_INT(event_status(ev), CL_RUNNING);
   fake_signal_store(w.signal, 0);
   CHECK_EQ_INT(disp_Finish(q), CL_SUCCESS);
   CHECK_EQ_INT((int)atomic_load(&completed), 1);
   CHECK_EQ_INT(event_status(ev), CL_COMPLETE);
   CHECK_EQ_INT(disp_ReleaseEvent(ev), CL_SUCCESS);
   CHECK_EQ_INT(disp_ReleaseEvent(user), CL_SUCCESS);
   CHECK_EQ_INT(disp_ReleaseCommandQueue(q), CL_SUCCESS);
}

/* A command outside the ring whose work is done when submit() returns (a copy the runtime
 * ran inside hsa_amd_memory_async_copy) completes on the enqueueing thread: no handler is
 * registered for it, and its event reads CL_COMPLETE when the enqueue returns. */
static void
done_in_submit(void)
{
   cl_command_queue q = make_queue(false);
   struct work w = { .done_in_submit = true };
   atomic_store(&completed, 0);
   int before = atomic_load(&registrations);
   cl_event ev = enqueue(q, DISP_COMMAND_HSA, false, &w, 0, NULL);
   CHECK_EQ_INT(atomic_load(&registrations) - before, 0);
   CHECK_EQ_INT((int)atomic_load(&completed), 1);
   CHECK_EQ_INT(event_status(ev), CL_COMPLETE);
   CHECK_EQ_INT(disp_Finish(q), CL_SUCCESS);
   CHECK_EQ_INT(disp_ReleaseEvent(ev), CL_SUCCESS);
   CHECK_EQ_INT(disp_ReleaseCommandQueue(q), CL_SUCCESS);
}

/* ---- object pools ----------------------------------------------------------------------- */

static struct disp_pool test_pool = DISP_POOL_INIT(64, 8);

/* On a thread of its own: objects given back are taken again by the thread (its own list,
 * refilled from the given-back list), zeroed; at the thread's exit its list goes back to
 * the heap, so the pool counts no object left. */
static void *
pool_thread(void *unused)
{
   (void)unused;
   void *objs[4];
   for (int i = 0; i < 4; i++) {
      objs[i] = disp__pool_alloc(&test_pool);
      CHECK(objs[i] != NULL);
      memset(objs[i], 0xab, 64);
   }
   for (int i = 0; i < 4; i++)
      disp__pool_free(&test_pool, objs[i]);
   CHECK_EQ_INT((int)atomic_load(&test_pool.count), 4);
   unsigned char *again = disp__pool_alloc(&test_pool);
   bool reused = false;
   for (int i = 0; i < 4; i++)
      reused |= again == objs[i];
   CHECK(reused);
   CHECK(again[0] == 0 && again[63] == 0);
   disp__pool_free(&test_pool, again);
   return NULL;
}

static void
pool_thread_lists(void)
{
   pthread_t t;
   CHECK(pthread_create(&t, NULL, pool_thread, NULL) == 0);
   pthread_join(t, NULL);
   /* Three of the four were in the thread's list at its exit (freed); the one given back
    * last is on the given-back list. */
   CHECK_EQ_INT((int)atomic_load(&test_pool.count), 1);
   void *last = disp__pool_alloc(&test_pool);
   CHECK(last != NULL);
   icd_free(last);
}

/* Signals come back from the pool at 1, reset by a silent store as they are given back: the
 * enqueueing thread's get touches no signal (a store there was a cache miss a launch). */
static void
signal_pool_silent(void)
{
   hsa_signal_t taken[40];
   for (int i = 0; i < 40; i++) {
      CHECK(rt_signal_get(&taken[i]) == CL_SUCCESS);
      atomic_store(&sig_of(taken[i])->value, i % 2 ? 0 : -5); /* as a completion leaves it */
   }
   for (int i = 0; i < 40; i++)
      rt_signal_put(taken[i]);
   int stores = atomic_load(&relaxed_stores), silent = atomic_load(&silent_stores);
   /* More than one thread batch: some come from the given-back stack. */
   for (int i = 0; i < 40; i++) {
      CHECK(rt_signal_get(&taken[i]) == CL_SUCCESS);
      CHECK_EQ_INT((int)atomic_load(&sig_of(taken[i])->value), 1);
   }
   CHECK_EQ_INT(atomic_load(&relaxed_stores), stores);
   CHECK_EQ_INT(atomic_load(&silent_stores), silent);
   for (int i = 0; i < 40; i++)
      rt_signal_put(taken[i]);
}

/* Until the queues earlier checks released are destroyed (the last reference may go on the
 * completion thread, which destroys a queue on a thread of its own): the context's internal
 * references are then its API side's alone. */
static void
wait_queues_destroyed(struct _cl_context *ctx)
{
   for (int i = 0; i < 2000 && atomic_load(&ctx->obj.internal_refs) > 1; i++)
      usleep(1000);
   CHECK_EQ_INT((int)atomic_load(&ctx->obj.internal_refs), 1);
}

/* A user event references the context. A command's event references its queue only when the
 * application gets it, from the enqueue on; the queue's commands in flight hold it together:
 * a quiet command leaves no reference behind, and one created but never enqueued takes
 * none. */
static void
event_references(void)
{
   struct _cl_context *ctx = plat_context_from_handle(context);
   wait_queues_destroyed(ctx);
   cl_command_queue queue = make_queue(false);
   struct _cl_command_queue *q = disp_queue_from_handle(queue);
   unsigned ctx_refs = atomic_load(&ctx->obj.internal_refs);
   unsigned q_refs = atomic_load(&q->obj.internal_refs);
   struct disp_command *cmd = NULL;
   CHECK_EQ_INT(disp_command_create(q, CL_COMMAND_MARKER, 0, NULL, &cmd), CL_SUCCESS);
   CHECK_EQ_INT((int)atomic_load(&ctx->obj.internal_refs), (int)ctx_refs);
   CHECK_EQ_INT((int)atomic_load(&q->obj.internal_refs), (int)q_refs);
   disp_command_abort(cmd);
   CHECK_EQ_INT((int)atomic_load(&q->obj.internal_refs), (int)q_refs);
   CHECK_EQ_INT((int)atomic_load(&ctx->obj.internal_refs), (int)ctx_refs);
   /* A marker with nothing to wait for completes inside the enqueue. */
   cl_event marker = NULL;
   CHECK_EQ_INT(disp_EnqueueMarkerWithWaitList(queue, 0, NULL, &marker), CL_SUCCESS);
   CHECK_EQ_INT(event_status(marker), CL_COMPLETE);
   CHECK_EQ_INT((int)atomic_load(&q->obj.internal_refs), (int)q_refs + 1);
   CHECK_EQ_INT(disp_ReleaseEvent(marker), CL_SUCCESS);
   CHECK_EQ_INT((int)atomic_load(&q->obj.internal_refs), (int)q_refs);
   CHECK_EQ_INT(disp_EnqueueMarkerWithWaitList(queue, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT((int)atomic_load(&q->obj.internal_refs), (int)q_refs);
   CHECK_EQ_INT((int)atomic_load(&q->outstanding), 0);
   cl_int err = -1;
   cl_event user = disp_CreateUserEvent(context, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   CHECK_EQ_INT((int)atomic_load(&ctx->obj.internal_refs), (int)ctx_refs + 1);
   CHECK_EQ_INT(disp_ReleaseEvent(user), CL_SUCCESS);
   CHECK_EQ_INT((int)atomic_load(&ctx->obj.internal_refs), (int)ctx_refs);
   CHECK_EQ_INT(disp_ReleaseCommandQueue(queue), CL_SUCCESS);
}

int
main(void)
{
   fake_install();
   make_context();
   chain(false, CL_COMPLETE);
   chain(true, CL_COMPLETE);
   chain(false, -42);
   chain(true, -42);
   fifo_order();
   pending_submit();
   done_in_submit();
   pool_thread_lists();
   signal_pool_silent();
   event_references();
   return test_main_end();
}
