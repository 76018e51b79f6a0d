/*
 * dispatch/disp_command.c — how an enqueued command reaches the HSA runtime and completes.
 *
 * A command is submitted once every dependency (its wait list, plus the in-order
 * predecessor or the out-of-order queue's last barrier) is either complete or already
 * wired into HSA work with a signal; it then waits for those signals inside HSA
 * (barrier-AND packets, async-copy dependency lists). A dependency held on the host
 * (a user event not yet set, or a command itself held back) keeps the command on the
 * pending list until it resolves.
 *
 * Completion. Commands whose packets go to the queue's AQL ring are retired in the order
 * they were written: the submit lock's holder pushes each onto the queue's completion FIFO,
 * and one HSA async handler per queue, armed on the oldest one's work signal, retires every
 * command at the front whose signal reached 0 (in batches), then re-arms on the new
 * oldest, or disarms when the FIFO is empty. So an enqueue registers
 * no handler while the queue is busy (on ROCr each registration wakes its async-events
 * thread, a system call, and lengthens the signal list that thread waits on); the thread
 * whose push finds the handler disarmed arms it. Retiring in ring order cannot deadlock:
 * every dependency of a command was submitted before it, so the oldest command in flight
 * across all queues depends only on retired work. Commands outside the ring (copies) get
 * a handler of their own. No thread spins.
 *
 * Lock order: pending_lock, then a queue's submit lock, then its queue lock, then its
 * fifo_lock, then event locks. Callbacks into the application run with no lock held. A
 * launch's enqueue takes the submit lock (uncontended but by other enqueueing threads and
 * the completion path's trylock), its retirement only fifo_lock (uncontended but by the
 * rare walkers of the FIFO): the two sides share no lock in the steady state.
 *
 * Packets are written under the queue's submit lock, which the writer keeps while it waits
 * for ring space; the completion path (work_done_handler and what it calls) never waits
 * for a submit lock or for ring space, since packets in the ring may wait for the signals
 * of host-completed commands that only it sets. It submits a held-back command only when
 * the lock is free and the ring has room (may_block false); otherwise the command stays
 * held, and the submit lock's holder (which rescans after unlocking) or the next
 * completion on the queue (ring space frees before completion signals drop) submits it.
 */
#include "dispatch/disp.h"
#include "dispatch/disp_priv.h"
#include "platform/plat.h"

#include <sched.h>
#include <stddef.h>
#include <string.h>

/* Commands held back on the host, oldest first. `pending_count` lets the completion path
 * skip pending_lock while no command is held back: an enqueue increments it (under the
 * lock) before it re-reads its dependencies' status, a completion stores the status before
 * it reads the count (both sequentially consistent), so one of them sees the other. */
static pthread_mutex_t pending_lock = DISP_MUTEX_INITIALIZER;
static struct disp_command *pending_head, **pending_tail = &pending_head;
static atomic_uint pending_count;

static struct disp_pool command_pool = DISP_POOL_INIT(sizeof(struct disp_command), DISP_POOL_MAX);

static bool
terminal(cl_int status)
{
   return status == CL_COMPLETE || status < 0;
}

/* disp__set_dry_run: per thread, so recording never affects another thread's enqueues. */
static _Thread_local bool dry_run;

void
disp__set_dry_run(bool on)
{
   dry_run = on;
}

cl_int
disp_command_create(struct _cl_command_queue *q, cl_command_type type, cl_uint num_events,
                    const cl_event *event_wait_list, struct disp_command **out)
{
   if (q->devq)
      return ICD_ERROR(CL_INVALID_COMMAND_QUEUE, "a device queue takes no host commands");
   struct disp_command *cmd = disp__pool_alloc(&command_pool);
   if (!cmd)
      return ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "allocating a command");
   /* Wait-list events, then room for their signals plus the predecessor's; short lists
    * live in the command itself. */
   if (num_events <= DISP_INLINE_DEPS) {
      cmd->deps = cmd->inline_deps;
      cmd->dep_signals = cmd->inline_signals;
   } else {
      cmd->deps = icd_malloc((num_events + 1) * (sizeof(*cmd->deps) + sizeof(hsa_signal_t)));
      if (!cmd->deps) {
         disp__pool_free(&command_pool, cmd);
         return ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "allocating a wait list");
      }
      cmd->dep_signals = (hsa_signal_t *)(cmd->deps + num_events + 1);
   }
   cl_int err = disp__event_create(q->context, q, type, &cmd->event);
   if (err != CL_SUCCESS) {
      if (cmd->deps != cmd->inline_deps)
         icd_free(cmd->deps);
      disp__pool_free(&command_pool, cmd);
      return err;
   }
   for (cl_uint i = 0; i < num_events; i++) {
      cmd->deps[i] = disp_event_from_handle(event_wait_list[i]);
      disp_event_retain_internal(cmd->deps[i]);
   }
   cmd->num_deps = num_events;
   cmd->queue = q;
   cmd->kind = DISP_COMMAND_HOST;
   cmd->release_fence = false;
   cmd->release_covers = 0;
   cmd->release_signal.handle = 0;
   cmd->release_ring = NULL;
   *out = cmd;
   return CL_SUCCESS;
}

static void
command_free(struct disp_command *cmd)
{
   if (cmd->release)
      cmd->release(cmd);
   for (cl_uint i = 0; i < cmd->num_deps; i++)
      disp_event_release_internal(cmd->deps[i]);
   if (cmd->prev)
      disp_event_release_internal(cmd->prev);
   if (cmd->work_signal.handle && cmd->work_signal.handle != cmd->event->signal.handle)
      rt_signal_put(cmd->work_signal);
   if (cmd->release_signal.handle)
      rt_signal_put(cmd->release_signal);
   if (cmd->deps != cmd->inline_deps)
      icd_free(cmd->deps);
   disp__pool_free(&command_pool, cmd);
}

void
disp_command_abort(struct disp_command *cmd)
{
   struct _cl_event *ev = cmd->event;
   command_free(cmd);
   /* The event was never visible: drop its API and internal references. */
   icd_object_release(&ev->obj);
   disp_event_release_internal(ev);
}

static bool
event_failed(struct _cl_event *ev)
{
   return atomic_load(&ev->status) < 0 || atomic_load(&ev->failing) != 0;
}

/* Whether a dependency failed, or is failing: its queue faulted and released its signal
 * before retiring it (disp_queue.c), so this command may have run meanwhile. */
static bool
deps_failed(const struct disp_command *cmd)
{
   for (cl_uint i = 0; i < cmd->num_deps; i++) {
      if (event_failed(cmd->deps[i]))
         return true;
   }
   return cmd->prev && event_failed(cmd->prev);
}

/*
 * A dependency of `cmd` (a wait-list event, or its in-order predecessor) that is not
 * terminal, or NULL. A command's HSA work may finish before a dependency is retired: that
 * one's own queue retires it, on its own handler, which may not have run yet. `cmd` is
 * retired after its dependencies, so that an application that sees it CL_COMPLETE sees its
 * wait list complete too (§5.11: the wait list completes before the command starts).
 * Commands of `fifo_q`'s completion FIFO are skipped: they are ahead of `cmd` there, and
 * the FIFO retires them first.
 */
static struct _cl_event *
dep_unretired(const struct disp_command *cmd, const struct _cl_command_queue *fifo_q)
{
   for (cl_uint i = 0; i <= cmd->num_deps; i++) {
      struct _cl_event *dep = i < cmd->num_deps ? cmd->deps[i] : cmd->prev;
      if (!dep || (fifo_q && dep->queue == fifo_q && dep->aql_queue))
         continue;
      if (!terminal(atomic_load(&dep->status)))
         return dep;
   }
   return NULL;
}

/* A retirement put off until a dependency is retired (retire_after). */
struct retire_deferral {
   struct disp_event_callback cb; /* first: the event frees the deferral as its callback */
   hsa_signal_t signal;           /* the command's work signal, already 0 */
   hsa_amd_signal_handler handler;
   void *arg;
};

/* The dependency is retired: the retirement goes on, on a runtime thread (not nested in
 * the dependency's completion, whose queue may be the one retiring it). */
static void CL_CALLBACK
deferral_fire(cl_event event, cl_int status, void *data)
{
   (void)event;
   (void)status;
   struct retire_deferral *d = data;
   const struct rt_hsa *hsa = rt_hsa();
   if (hsa->hsa_amd_signal_async_handler(d->signal, HSA_SIGNAL_CONDITION_EQ, 0, d->handler,
                                         d->arg) != HSA_STATUS_SUCCESS)
      d->handler(0, d->arg);
}

/*
 * Calls handler(0, arg) on a runtime thread once `dep` is terminal; `signal` is the
 * command's work signal, already 0. Returns false when `dep` is terminal already, or no
 * memory is left for the deferral (then the command is retired now, before it).
 */
static bool
retire_after(struct _cl_event *dep, hsa_signal_t signal, hsa_amd_signal_handler handler,
             void *arg)
{
   struct retire_deferral *d = icd_malloc(sizeof(*d));
   if (!d) {
      icd_log(ICD_LOG_WARN, "dispatch", "no memory to retire a command after its "
              "dependency: retired first");
      return false;
   }
   d->cb.fn = deferral_fire;
   d->cb.user_data = d;
   d->signal = signal;
   d->handler = handler;
   d->arg = arg;
   if (disp__event_when_terminal(dep, &d->cb))
      return true;
   icd_free(d);
   return false;
}

/* First half of retiring a command that reached a terminal state with `status`: releases
 * HSA work waiting for it and its payload, and stores the event's final status (before the
 * queue can look idle). The second half is disp__queue_commands_done, then command_free. */
static void
command_finish_status(struct disp_command *cmd, cl_int status, bool may_block)
{
   struct _cl_event *ev = cmd->event;
   /* A failed dependency that was already wired into HSA fails this command too. */
   if (status == CL_SUCCESS && deps_failed(cmd))
      status = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
   /* HSA work waiting for this event may go on (a failed event releases it too, so
    * nothing hangs; its dependants fail as above). */
   const struct rt_hsa *hsa = rt_hsa();
   if (ev->signal.handle && hsa->hsa_signal_load_relaxed(ev->signal) != 0)
      hsa->hsa_signal_store_screlease(ev->signal, 0);
   /* The payload's references (kernel, buffers) go before the queue can look idle: once
    * clFinish returns, the application may rebuild a program or free what it released. */
   if (cmd->release) {
      cmd->release(cmd);
      cmd->release = NULL;
   }
   if (status == CL_SUCCESS && cmd->release_fence)
      disp__fence_released(cmd);
   if (status == CL_SUCCESS && cmd->uses_aql)
      disp__fence_kernel_completed(cmd); /* before the host can see CL_COMPLETE */
   /* The final status is stored before the queue can look idle: clFinish returns only
    * once every command it covers reads CL_COMPLETE or its error (§5.15; CL_COMPLETE
    * callbacks have run by then too). */
   if (status == CL_SUCCESS) {
      if (!cmd->quiet)
         disp__event_set_status(ev, CL_RUNNING, may_block);
      disp__event_set_status(ev, CL_COMPLETE, may_block);
   } else {
      disp__event_set_status(ev, status, may_block);
   }
}

/* Frees a retired command and its reference on the event. */
static void
command_finish_free(struct disp_command *cmd)
{
   struct _cl_event *ev = cmd->event;
   command_free(cmd);
   disp_event_release_internal(ev);
}

/* The command reached a terminal state with `status`; frees it. */
static void
command_finish(struct disp_command *cmd, cl_int status, bool may_block)
{
   command_finish_status(cmd, status, may_block);
   disp__queue_commands_done(cmd->queue, &cmd, 1);
   command_finish_free(cmd);
}

/* Retires a command outside the AQL ring (a copy) whose work is done. */
static bool work_done_handler(hsa_signal_value_t value, void *arg);

static void
work_done(struct disp_command *cmd, bool may_block)
{
   struct _cl_event *wait = dep_unretired(cmd, NULL);
   if (wait && retire_after(wait, cmd->work_signal, work_done_handler, cmd))
      return;
   cl_int status = cmd->fault_status;
   /* Behind a failed command its work ran on garbage: no completion step (a read's copy to
    * the application's memory), the command fails. */
   if (status == CL_SUCCESS && deps_failed(cmd))
      status = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
   if (status == CL_SUCCESS && cmd->complete)
      status = cmd->complete(cmd);
   command_finish(cmd, status, may_block);
}

/* Runs on an HSA runtime thread when a command outside the AQL ring (a copy) is done. */
static bool
work_done_handler(hsa_signal_value_t value, void *arg)
{
   (void)value;
   disp__runtime_callback_enter();
   work_done(arg, false);
   disp__runtime_callback_leave();
   return false;
}

/* ---- the completion FIFO (disp.h) ------------------------------------------------------ */

/* Appends `n`. Callers: the submit lock's holder, and fifo_pop_locked (the stub). */
static void
fifo_push(struct _cl_command_queue *q, struct disp_fifo_node *n)
{
   atomic_store_explicit(&n->next, NULL, memory_order_relaxed);
   struct disp_fifo_node *prev = atomic_exchange(&q->fifo_tail, n);
   atomic_store(&prev->next, n);
}

/* Whether the FIFO holds no command whose push completed. Reads only: anyone may call it. */
static bool
fifo_empty(struct _cl_command_queue *q)
{
   struct disp_fifo_node *h = atomic_load(&q->fifo_head);
   return h == &q->fifo_stub && !atomic_load(&h->next);
}

/* The oldest node, or NULL when fifo_empty. Holder of `armed`, under fifo_lock. */
static struct disp_fifo_node *
fifo_peek_locked(struct _cl_command_queue *q)
{
   struct disp_fifo_node *h = atomic_load(&q->fifo_head);
   if (h == &q->fifo_stub) {
      struct disp_fifo_node *next = atomic_load(&h->next);
      if (!next)
         return NULL;
      atomic_store(&q->fifo_head, next);
      h = next;
   }
   return h;
}

/* Unlinks `h`, which fifo_peek_locked returned. Holder of `armed`, under fifo_lock. */
static void
fifo_pop_locked(struct _cl_command_queue *q, struct disp_fifo_node *h)
{
   struct disp_fifo_node *next = atomic_load(&h->next);
   if (!next) {
      /* `h` is the newest: the stub goes behind it so the head can move on. A producer
       * between its exchange and its link makes us wait for that one store. */
      fifo_push(q, &q->fifo_stub);
      for (unsigned spins = 0; !(next = atomic_load(&h->next)); spins++) {
         if (spins < 64)
            __builtin_ia32_pause();
         else
            sched_yield();
      }
   }
   atomic_store(&q->fifo_head, next);
}

static bool queue_retire_handler(hsa_signal_value_t value, void *arg);
static void pending_drain(bool may_block);

#define RETIRE_BATCH 64

/*
 * Retires the commands at the front of q's FIFO whose work signal reached 0, then arms the
 * queue's handler on the oldest one left, or disarms when none is left. Caller holds
 * `armed` (it won the exchange, or is the armed handler) and a reference on q.
 */
static void
queue_retire(struct _cl_command_queue *q)
{
   const struct rt_hsa *hsa = rt_hsa();
   for (;;) {
      struct disp_command *batch[RETIRE_BATCH];
      unsigned n = 0;
      struct disp_fifo_node *h;
      struct _cl_event *wait = NULL; /* the oldest command's unretired dependency */
      pthread_mutex_lock(&q->fifo_lock);
      while (n < RETIRE_BATCH && (h = fifo_peek_locked(q))) {
         struct disp_command *cmd = disp__fifo_command(q, h);
         if (hsa->hsa_signal_load_scacquire(cmd->work_signal) != 0)
            break;
         if ((wait = dep_unretired(cmd, q)))
            break;
         fifo_pop_locked(q, h);
         batch[n++] = cmd;
      }
      pthread_mutex_unlock(&q->fifo_lock);
      if (n) {
         for (unsigned i = 0; i < n; i++) {
            struct disp_command *cmd = batch[i];
            cl_int status = cmd->fault_status;
            if (status == CL_SUCCESS && cmd->complete)
               status = cmd->complete(cmd);
            command_finish_status(cmd, status, false);
         }
         disp__queue_commands_done(q, batch, n);
         for (unsigned i = 0; i < n; i++)
            command_finish_free(batch[i]);
         continue;
      }
      /* Done, but a dependency on another queue is not retired yet: `armed` stays ours
       * until it is, and passes to the handler retire_after registers then. */
      if (wait) {
         if (retire_after(wait, disp__fifo_command(q, h)->work_signal,
                          queue_retire_handler, q))
            return;
         continue;
      }
      if (h) {
         hsa_signal_t sig = disp__fifo_command(q, h)->work_signal;
         hsa_status_t st = hsa->hsa_amd_signal_async_handler(sig, HSA_SIGNAL_CONDITION_EQ, 0,
                                                             queue_retire_handler, q);
         if (st == HSA_STATUS_SUCCESS)
            return;
         /* Without a handler nobody would see completion: wait here instead. */
         icd_log(ICD_LOG_WARN, "dispatch", "hsa_amd_signal_async_handler failed (0x%x); "
                 "waiting for the command on this thread", (unsigned)st);
         hsa->hsa_signal_wait_scacquire(sig, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX,
                                        HSA_WAIT_STATE_BLOCKED);
         continue;
      }
      /* Empty: disarm, then look again; a push that did not see us disarm is seen here,
       * and whichever of us takes `armed` back continues (both sequentially consistent). */
      atomic_store(&q->armed, false);
      if (fifo_empty(q) || atomic_exchange(&q->armed, true))
         return;
   }
}

/* The queue's completion handler: the oldest command in its FIFO is done (or failed). */
static bool
queue_retire_handler(hsa_signal_value_t value, void *arg)
{
   (void)value;
   struct _cl_command_queue *q = arg;
   disp__runtime_callback_enter();
   /* The commands retired may hold the last references to q. */
   disp_queue_retain_internal(q);
   queue_retire(q);
   disp_queue_release_internal(q);
   disp__runtime_callback_leave();
   return false;
}

/*
 * Collects the signals `cmd` must wait for. Returns 1 when ready (signals in deps[]),
 * 0 when a dependency is still held on the host, -1 when one failed.
 */
static int
collect_deps(struct disp_command *cmd, hsa_signal_t *deps, uint32_t *num)
{
   *num = 0;
   for (cl_uint i = 0; i <= cmd->num_deps; i++) {
      struct _cl_event *dep = i < cmd->num_deps ? cmd->deps[i] : cmd->prev;
      if (!dep)
         continue;
      cl_int status = atomic_load(&dep->status);
      if (status < 0)
         return -1;
      if (status == CL_COMPLETE)
         continue;
      if (!atomic_load(&dep->submitted) || !dep->signal.handle)
         return 0;
      deps[(*num)++] = dep->signal; /* cmd->prev, when wired, comes last */
   }
   return 1;
}

/* AQL packets command_submit may write for `cmd` with `num_deps` dependencies. */
static uint32_t
packets_needed(const struct disp_command *cmd, uint32_t num_deps)
{
   uint32_t barriers = (num_deps + 4) / 5;
   if (cmd->kind == DISP_COMMAND_HOST)
      return barriers ? barriers : 1; /* an empty one when a release fence is needed */
   /* A copy's release fence: barriers over its dependencies (disp_fence.c). */
   return cmd->uses_aql ? barriers + 1 : (barriers ? barriers : 1);
}

/* Takes cmd's queue submit lock if it is free and the ring has room for the command's
 * packets and a checkpoint (the completion path's submission; see the top of the file). */
static bool
submit_trylock(struct disp_command *cmd, uint32_t num_deps)
{
   struct _cl_command_queue *q = cmd->queue;
   if (pthread_mutex_trylock(&q->submit_lock) != 0)
      return false;
   if (disp__queue_has_room_locked(q, packets_needed(cmd, num_deps) + 1))
      return true;
   pthread_mutex_unlock(&q->submit_lock);
   return false;
}

/*
 * The part of command_submit under q->submit_lock: drops the in-order predecessor the
 * barrier bit orders, takes the work signal, writes the release barrier and the command's
 * packets, and puts the command on the queue's FIFO (*in_ring) or list (a copy in flight
 * outside the ring). *num_deps_io receives the dependencies that remain (the status the
 * event starts with follows from it); *run_inline says the command is host work with
 * nothing to wait for, which the caller runs on this thread. For a command put on the FIFO
 * the event becomes submitted before the push and, unless the command is quiet (nothing
 * touches its event after the push then), gets an internal reference, which submit_watch
 * drops.
 */
static cl_int
submit_locked(struct disp_command *cmd, const hsa_signal_t *deps, uint32_t *num_deps_io,
              bool *run_inline, bool *in_ring)
{
   struct _cl_command_queue *q = cmd->queue;
   struct _cl_event *ev = cmd->event;
   const bool in_order = !(q->properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
   uint32_t num_deps = *num_deps_io;
   cl_int err = CL_SUCCESS;
   /* An in-order predecessor on the same AQL ring: the barrier bit orders it. Both read
    * under the submit lock, which orders the ring's writes and its replacement. */
   if (in_order && cmd->uses_aql && cmd->prev && num_deps &&
       deps[num_deps - 1].handle == cmd->prev->signal.handle && cmd->prev->aql_queue &&
       cmd->prev->aql_queue == q->hsa_queue && cmd->prev->ring_orders && !q->faulted)
      num_deps--;
   /* Kernels of this device may have left what this command reads in the L2. */
   if (!cmd->uses_aql)
      cmd->release_fence = disp__fence_release_needed(cmd);
   if (cmd->kind == DISP_COMMAND_HOST && num_deps == 0 && !cmd->release_fence) {
      *run_inline = true;
   } else {
      if (cmd->complete || cmd->kind == DISP_COMMAND_HOST) {
         err = rt_signal_get(&cmd->work_signal);
      } else {
         cmd->work_signal = ev->signal;
      }
      *in_ring = cmd->uses_aql || cmd->kind == DISP_COMMAND_HOST;
      if (err == CL_SUCCESS && (*in_ring || cmd->release_fence))
         disp__queue_checkpoint_locked(q, packets_needed(cmd, num_deps));
      if (err == CL_SUCCESS && cmd->kind == DISP_COMMAND_HSA && cmd->release_fence) {
         /* A copy reads memory, not the L2: a system-scope release after its
          * dependencies on this device's queue first, and the copy waits for that. */
         err = rt_signal_get(&cmd->release_signal);
         if (err == CL_SUCCESS)
            err = disp_queue_barrier_and_scoped(q, deps, num_deps, cmd->release_signal,
                                                disp__fence_release_scopes());
         if (err == CL_SUCCESS) {
            cmd->release_ring = q->hsa_queue; /* the ring the barrier went to */
            deps = &cmd->release_signal;
            num_deps = 1;
         }
      }
      if (err == CL_SUCCESS) {
         if (cmd->kind == DISP_COMMAND_HSA)
            /* No list for no dependencies: ROCr's hsa_amd_memory_async_copy rejects a
             * non-NULL dep_signals with num_dep_signals 0 (INVALID_ARGUMENT). */
            err = cmd->submit(cmd, num_deps ? deps : NULL, num_deps, cmd->work_signal);
         else if (cmd->release_fence)
            err = disp_queue_barrier_and_scoped(q, deps, num_deps, cmd->work_signal,
                                                disp__fence_release_scopes());
         else /* host work after other commands: no cache action of its own */
            err = disp_queue_barrier_and_scoped(q, deps, num_deps, cmd->work_signal,
                                                disp__fence_barrier_scopes(q));
      }
      if (err == CL_SUCCESS && *in_ring) {
         ev->aql_queue = q->hsa_queue;
         /* A host command's complete() (a copy, a semaphore's state) runs after its barrier
          * packet retires: a successor ordered by the barrier bit alone would start before
          * it. */
         ev->ring_orders = !(cmd->kind == DISP_COMMAND_HOST && cmd->complete);
         /* From the list (held back until now) to the FIFO; both under submit_lock, which
          * the walkers of the two take too, so it is always on one of them. From the push
          * on the queue's handler may retire cmd (and free it): ev stays ours through the
          * reference taken here. */
         if (cmd->listed)
            disp__queue_unlist(q, cmd);
         /* A quiet command's event is not touched after the push: no reference. */
         atomic_store(&ev->submitted, true);
         if (!cmd->quiet)
            disp_event_retain_internal(ev);
         fifo_push(q, &cmd->fifo);
      } else if (err == CL_SUCCESS && !cmd->listed) {
         disp__queue_list(q, cmd); /* in flight outside the ring (a copy) */
      }
   }
   *num_deps_io = num_deps;
   return err;
}

/* After submission: completion of a command in the ring comes through the queue's handler
 * (armed here if it is not), of one outside it through a handler of its own (or a wait on
 * this thread if none can be registered), or on this thread when its work is already done
 * (a runtime may finish a small copy inside hsa_amd_memory_async_copy: a handler would
 * cost two thread switches, more than the copy). `ev` is cmd's event; `quiet`, cmd's, read
 * before the push (submit_locked took no reference on a quiet command's event). */
static void
submit_watch(struct disp_command *cmd, struct _cl_command_queue *q, struct _cl_event *ev,
             bool in_ring, bool quiet, bool may_block)
{
   const struct rt_hsa *hsa = rt_hsa();
   if (in_ring) {
      /* The handler is armed while the FIFO is not empty; the push that finds it disarmed
       * arms it (and may retire what is already done, on this thread). */
      if (!atomic_load(&q->armed) && !atomic_exchange(&q->armed, true)) {
         /* Completion on this thread: its callbacks must not wait for q either. */
         disp__runtime_callback_enter();
         disp_queue_retain_internal(q);
         queue_retire(q);
         disp_queue_release_internal(q);
         disp__runtime_callback_leave();
      }
      if (!quiet)
         disp_event_release_internal(ev);
   } else if (hsa->hsa_signal_load_scacquire(cmd->work_signal) == 0) {
      work_done(cmd, may_block);
   } else {
      hsa_status_t st = hsa->hsa_amd_signal_async_handler(
         cmd->work_signal, HSA_SIGNAL_CONDITION_EQ, 0, work_done_handler, cmd);
      if (st != HSA_STATUS_SUCCESS) {
         /* Without a handler nobody would see completion: wait here instead. */
         icd_log(ICD_LOG_WARN, "dispatch", "hsa_amd_signal_async_handler failed (0x%x); "
                 "waiting on the enqueueing thread", (unsigned)st);
         hsa->hsa_signal_wait_scacquire(cmd->work_signal, HSA_SIGNAL_CONDITION_EQ, 0,
                                        UINT64_MAX, HSA_WAIT_STATE_BLOCKED);
         work_done_handler(0, cmd);
      }
   }
}

/*
 * Starts the command's work; called once its dependencies are resolved or wired (`deps`,
 * the in-order predecessor's last). With `locked`, the caller took q->submit_lock.
 */
static void
command_submit(struct disp_command *cmd, const hsa_signal_t *deps, uint32_t num_deps,
               bool may_block, bool locked)
{
   struct _cl_command_queue *q = cmd->queue;
   struct _cl_event *ev = cmd->event;
   const bool quiet = cmd->quiet; /* cmd may be retired and freed once pushed */
   bool run_inline = false, in_ring = false;

   /* The submit time precedes the work's start: take it before the packets exist. */
   if (ev->profiling)
      ev->times[DISP_TIME_SUBMIT] = plat_host_timer_ns();
   if (!locked)
      pthread_mutex_lock(&q->submit_lock);
   cl_int err = submit_locked(cmd, deps, &num_deps, &run_inline, &in_ring);
   cmd->submitted = true;
   pthread_mutex_unlock(&q->submit_lock);

   if (err != CL_SUCCESS) {
      command_finish(cmd, err, may_block);
      disp__pending_event_done(NULL, may_block);
      return;
   }
   if (!in_ring)
      atomic_store(&ev->submitted, true);
   /* Nothing to wait for: it starts now (one transition runs SUBMITTED callbacks first).
    * Ignored if the command completed meanwhile (a terminal status never changes). */
   if (!quiet)
      disp_event_set_status(ev, num_deps == 0 ? CL_RUNNING : CL_SUBMITTED);
   if (run_inline) {
      cl_int status = cmd->complete ? cmd->complete(cmd) : CL_SUCCESS;
      command_finish(cmd, status, may_block);
      disp__pending_event_done(NULL, may_block);
      return;
   }
   submit_watch(cmd, q, ev, in_ring, quiet, may_block);
   /* Commands held back for this one may now wire its signal, and those the completion
    * path left held while we had the submit lock may go. */
   disp__pending_event_done(NULL, may_block);
}

/* Set while this thread runs disp__pending_event_done's loop. Submitting or failing a
 * held command completes events, and completing an event calls disp__pending_event_done
 * again: nested calls return at once and the outer loop, which rescans the list after
 * every command it handles, does their work. So a chain of n held commands (markers
 * behind one user event) completes in a loop, not in n nested frames. */
static _Thread_local bool pending_draining;

bool
disp__pending_suspend(void)
{
   bool was = pending_draining;
   pending_draining = false;
   return was;
}

void
disp__pending_resume(bool was)
{
   pending_draining = was;
}

void
disp__pending_event_done(struct _cl_event *ev, bool may_block)
{
   (void)ev;
   if (atomic_load(&pending_count) == 0 || pending_draining)
      return;
   pending_draining = true;
   pending_drain(may_block);
   pending_draining = false;
}

static void
pending_drain(bool may_block)
{
   for (;;) {
      struct disp_command *ready = NULL;
      uint32_t num = 0;
      int state = 0;
      bool locked = false;
      pthread_mutex_lock(&pending_lock);
      for (struct disp_command **link = &pending_head; *link; link = &(*link)->next_pending) {
         struct disp_command *cmd = *link;
         state = collect_deps(cmd, cmd->dep_signals, &num);
         if (state > 0 && !may_block) {
            /* Left held: the lock's holder rescans after unlocking; a full ring drains
             * and its completions rescan. Later commands wait for the same. */
            if (!submit_trylock(cmd, num))
               break;
            locked = true;
         }
         if (state != 0) {
            *link = cmd->next_pending;
            if (pending_tail == &cmd->next_pending)
               pending_tail = link;
            cmd->next_pending = NULL;
            atomic_fetch_sub(&pending_count, 1);
            ready = cmd;
            break;
         }
      }
      pthread_mutex_unlock(&pending_lock);
      if (!ready)
         return;
      /* The application may have released the queue: once the command is pushed (or
       * finished) it may be retired and q freed, and command_submit still reads it. */
      struct _cl_command_queue *q = ready->queue;
      disp_queue_retain_internal(q);
      if (state < 0)
         command_finish(ready, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, may_block);
      else
         command_submit(ready, ready->dep_signals, num, may_block, locked);
      disp_queue_release_internal(q);
   }
}

cl_int
disp_command_enqueue(struct disp_command *cmd, cl_event *event_out, bool blocking)
{
   if (dry_run) {
      disp_command_abort(cmd);
      if (event_out)
         *event_out = NULL;
      return CL_SUCCESS;
   }
   struct _cl_command_queue *q = cmd->queue;
   struct _cl_event *ev = cmd->event;
   const bool in_order = !(q->properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);

   if (blocking && disp__in_completion()) {
      disp_command_abort(cmd);
      return ICD_ERROR(CL_INVALID_OPERATION, "a blocking command enqueued in an event callback "
                       "run by the completion thread: it would wait for itself");
   }
   /* The event's internal references, in one step before the queue can see it (a marker may
    * have published it as the barrier event: an add, not a store): the command's until it
    * finishes, last_event's (in order), the blocking wait's; the API side's goes when the
    * application takes no handle (a quiet command). Nobody else holds an API reference. */
   const bool quiet = !event_out;
   unsigned refs = 1u + in_order + blocking - quiet;
   if (refs)
      atomic_fetch_add_explicit(&ev->obj.internal_refs, refs, memory_order_relaxed);
   if (quiet) {
      atomic_store_explicit(&ev->obj.refcount, 0, memory_order_relaxed);
      cmd->quiet = true;
   } else {
      ev->holds_queue = true;
      disp_queue_retain_internal(q);
   }
   /* The commands in flight hold q together (disp__queue_commands_done drops it). */
   if (atomic_fetch_add(&q->outstanding, 1) == 0)
      disp_queue_retain_internal(q);
   if (in_order) {
      /* last_event's reference on the predecessor passes to cmd->prev. */
      struct _cl_event *before = atomic_exchange(&q->last_event, ev);
      if (before && !terminal(atomic_load(&before->status)))
         cmd->prev = before;
      else if (before)
         disp_event_release_internal(before);
   } else if (atomic_load(&q->barrier_event)) {
      pthread_mutex_lock(&q->lock);
      struct _cl_event *before = atomic_load(&q->barrier_event);
      if (before && before != ev && !terminal(atomic_load(&before->status))) {
         disp_event_retain_internal(before);
         cmd->prev = before;
      }
      pthread_mutex_unlock(&q->lock);
   }

   if (event_out)
      *event_out = disp_event_to_handle(ev);
   /* A blocking command returns with the events it waited for complete too (their work is
    * done when it completes, but the runtime thread that retires them may lag: ROCr's
    * async-handler thread does). References (the wait's on ev is taken above): cmd may be
    * freed before the wait ends. */
   struct _cl_event **waited = NULL;
   cl_uint num_waited = 0;
   if (blocking) {
      if (cmd->num_deps) {
         waited = icd_calloc(cmd->num_deps, sizeof(*waited));
         for (cl_uint i = 0; waited && i < cmd->num_deps; i++) {
            if (cmd->deps[i]) {
               disp_event_retain_internal(cmd->deps[i]);
               waited[num_waited++] = cmd->deps[i];
            }
         }
      }
   }

   uint32_t num = 0;
   int state = collect_deps(cmd, cmd->dep_signals, &num);
   if (state == 0) {
      /* Held back: on the queue's list while off the FIFO (markers see it), announced
       * (pending_count), then looked at again under the lock. */
      disp__queue_list(q, cmd);
      pthread_mutex_lock(&pending_lock);
      atomic_fetch_add(&pending_count, 1);
      state = collect_deps(cmd, cmd->dep_signals, &num);
      if (state == 0) {
         *pending_tail = cmd;
         pending_tail = &cmd->next_pending;
      } else {
         atomic_fetch_sub(&pending_count, 1);
      }
      pthread_mutex_unlock(&pending_lock);
   }
   /* From here on the completion path may free cmd and drop ev's last references. */
   if (state < 0)
      command_finish(cmd, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, true);
   else if (state > 0)
      command_submit(cmd, cmd->dep_signals, num, true, false);

   if (!blocking)
      return CL_SUCCESS;
   cl_int status = disp_event_wait(ev);
   disp_event_release_internal(ev);
   for (cl_uint i = 0; i < num_waited; i++) {
      /* Only after success: a failed command may have failed before a dependency ended
       * (one of them failed), and that one may be a user event nobody will ever set. */
      if (status == CL_COMPLETE)
         disp_event_wait(waited[i]);
      disp_event_release_internal(waited[i]);
   }
   icd_free(waited);
   if (status < 0)
      return ICD_ERROR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
                       "the blocking command failed with %s", icd_error_name(status));
   return CL_SUCCESS;
}
