/*
 * dispatch/disp_queue.c — cl_command_queue: creation (OpenCL 1.x and 2.0+ entry points),
 * property validation, the HSA AQL queue behind each, reference counting and queries
 * (OpenCL 3.0 API §5.1), the AQL packet writer, and recovery from a faulted HSA queue.
 * Commands are submitted as soon as their dependencies allow (disp_command.c), so
 * clFlush has nothing to do; clFinish waits for the queue's outstanding commands.
 */
#include "dispatch/disp.h"
#include "dispatch/disp_devq.h"
#include "dispatch/disp_priv.h"
#include "platform/plat.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

/* Packets in each AQL ring (capped by the agent's HSA_AGENT_INFO_QUEUE_MAX_SIZE). */
#define DISP_AQL_QUEUE_PACKETS 4096u

static const cl_command_queue_properties host_queue_props =
   CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE;
static const cl_command_queue_properties all_queue_props =
   CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_ON_DEVICE |
   CL_QUEUE_ON_DEVICE_DEFAULT;

/*
 * Called by the HSA runtime when the AQL queue faults (memory violation, illegal
 * instruction, trap). The runtime stops processing that queue, so every AQL command in
 * flight on it fails: the oldest with the fault's error, the rest as dependants. Their work
 * signals are released so their completion path runs and nothing waits forever. The
 * queue gets a fresh HSA queue at its next submission. Runtime thread, no lock held.
 */
static void queue_error_callback_body(hsa_status_t status, hsa_queue_t *source, void *data);

static void
queue_error_callback(hsa_status_t status, hsa_queue_t *source, void *data)
{
   disp__runtime_callback_enter();
   queue_error_callback_body(status, source, data);
   disp__runtime_callback_leave();
}

/* What the application's user can do about a fault of `status`, for the log and pfn_notify.
 * The software GPU stops a dispatch that runs past its watchdog (HSACL_SIM_WATCHDOG, 60 s
 * by default) as a hung queue's reset: ROCr and the software runtime both report it as
 * HSA_STATUS_ERROR_EXCEPTION, the status of a trap, and give the driver nothing else to tell
 * the two apart. A long benchmark or a big problem on the slow software GPU meets the limit
 * with a correct kernel, so the message says how to raise it. */
static const char *
fault_hint(hsa_status_t status)
{
   if (status != HSA_STATUS_ERROR_EXCEPTION)
      return "";
   return ": a trap in the kernel, or, on the software GPU, a dispatch its watchdog stopped "
          "(HSACL_SIM_WATCHDOG seconds, 60 by default: set HSACL_SIM_WATCHDOG=seconds to "
          "allow longer kernels, 0 to disable it)";
}

static void
queue_error_callback_body(hsa_status_t status, hsa_queue_t *source, void *data)
{
   struct _cl_command_queue *q = data;
   const struct rt_hsa *hsa = rt_hsa();
   const char *msg = NULL;
   hsa->hsa_status_string(status, &msg);
   char info[768];
   snprintf(info, sizeof(info), "a command of queue %p faulted on the device: HSA status 0x%x "
            "(%s)%s", (void *)q, (unsigned)status, msg ? msg : "?", fault_hint(status));
   /* Before any command fails: whoever sees a failed event finds the context notified
    * (which also logs the line, once). */
   plat_context_notify(q->context, info);

   /* A writer waiting for space in the dead ring gives up and drops submit_lock; once we
    * hold it, every command is either on the dead ring (failed below) or not yet written
    * (it will see `faulted` and start a new ring). */
   atomic_store(&q->fault_pending, true);
   pthread_mutex_lock(&q->submit_lock);
   pthread_mutex_lock(&q->lock);
   q->faulted = true;
   /* Commands on the ring are in the completion FIFO, oldest first; fifo_lock keeps them
    * from being retired while we look. */
   pthread_mutex_lock(&q->fifo_lock);
   struct disp_command *oldest = NULL;
   for (struct disp_fifo_node *node = atomic_load(&q->fifo_head); node;
        node = atomic_load(&node->next)) {
      struct disp_command *c = disp__fifo_command(q, node);
      if (!c || c->event->aql_queue != source || !c->work_signal.handle)
         continue;
      if (!oldest && c->uses_aql)
         oldest = c;
      if (!c->fault_status)
         c->fault_status = c == oldest ? CL_OUT_OF_RESOURCES
                                       : CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
      atomic_store(&c->event->failing, c->fault_status);
      /* Released at once: the handler that retires it waits for fifo_lock meanwhile. */
      hsa->hsa_signal_store_screlease(c->work_signal, 0);
   }
   pthread_mutex_unlock(&q->fifo_lock);
   /* Copies in flight outside the ring (listed) whose release barrier sits on the dead
    * ring: that barrier never completes, so the copy would wait for it forever (and a
    * blocking read behind the faulted kernel with it). Its signal is released; the copy
    * runs and its event fails as a dependant of the fault. */
   for (struct disp_command *c = q->commands; c; c = c->next_in_queue) {
      if (!c->release_signal.handle || c->release_ring != source ||
          hsa->hsa_signal_load_relaxed(c->release_signal) == 0)
         continue;
      if (!c->fault_status)
         c->fault_status = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
      hsa->hsa_signal_store_screlease(c->release_signal, 0);
   }
   pthread_mutex_unlock(&q->lock);
   pthread_mutex_unlock(&q->submit_lock);
}

static cl_int
queue_create_hsa(struct _cl_command_queue *q)
{
   const struct rt_hsa *hsa = rt_hsa();
   uint32_t packets = DISP_AQL_QUEUE_PACKETS;
   if (q->device->queue_max_size && q->device->queue_max_size < packets)
      packets = q->device->queue_max_size;
   hsa_status_t st = hsa->hsa_queue_create(q->device->agent, packets, HSA_QUEUE_TYPE_MULTI,
                                           queue_error_callback, q, UINT32_MAX, UINT32_MAX,
                                           &q->hsa_queue);
   if (st != HSA_STATUS_SUCCESS) {
      q->hsa_queue = NULL;
      return rt_status_to_cl(st, "creating the AQL queue of a command queue");
   }
   if (q->properties & CL_QUEUE_PROFILING_ENABLE) {
      st = hsa->hsa_amd_profiling_set_profiler_enabled(q->hsa_queue, 1);
      if (st != HSA_STATUS_SUCCESS)
         icd_log(ICD_LOG_WARN, "dispatch", "the HSA runtime refused dispatch profiling "
                 "(0x%x): kernel start/end times will be host-side", (unsigned)st);
   }
   return CL_SUCCESS;
}

/* One calibration per process: the HSA system timestamp and the host timer run at fixed
 * rates; their offset is taken once, reading both back to back. */
static pthread_once_t clock_once = PTHREAD_ONCE_INIT;
static int64_t clock_offset_ns;
static uint64_t clock_freq;

static void
clock_calibrate(void)
{
   uint64_t t = 0;
   const struct rt_hsa *hsa = rt_hsa();
   hsa->hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &clock_freq);
   if (!clock_freq)
      clock_freq = 1000000000ull;
   uint64_t h0 = plat_host_timer_ns();
   hsa->hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &t);
   uint64_t h1 = plat_host_timer_ns();
   uint64_t dev_ns = (uint64_t)((unsigned __int128)t * 1000000000ull / clock_freq);
   clock_offset_ns = (int64_t)((h0 + h1) / 2) - (int64_t)dev_ns;
}

cl_ulong
disp__device_time_to_host(struct _cl_device_id *dev, uint64_t ticks)
{
   pthread_once(&clock_once, clock_calibrate);
   uint64_t ns = (uint64_t)((unsigned __int128)ticks * 1000000000ull / clock_freq);
   return (cl_ulong)((int64_t)ns + clock_offset_ns);
}

static _Thread_local unsigned runtime_callback_depth;

void
disp__runtime_callback_enter(void)
{
   runtime_callback_depth++;
}

void
disp__runtime_callback_leave(void)
{
   runtime_callback_depth--;
}

bool
disp__in_completion(void)
{
   return runtime_callback_depth != 0;
}

static void queue_destroy_now(struct _cl_command_queue *q);

/* Every queue of the process, for disp_context_finish. A queue is listed from creation
 * until it is destroyed (no internal reference left: nothing outstanding). */
static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static struct _cl_command_queue *live_queues;

static void
live_add(struct _cl_command_queue *q)
{
   pthread_mutex_lock(&live_lock);
   q->next_live = live_queues;
   live_queues = q;
   pthread_mutex_unlock(&live_lock);
}

static void
live_remove(struct _cl_command_queue *q)
{
   pthread_mutex_lock(&live_lock);
   for (struct _cl_command_queue **p = &live_queues; *p; p = &(*p)->next_live) {
      if (*p == q) {
         *p = q->next_live;
         break;
      }
   }
   pthread_mutex_unlock(&live_lock);
}

static void *
queue_destroy_main(void *arg)
{
   queue_destroy_now(arg);
   return NULL;
}

/* On a runtime callback thread, on a detached thread of its own (disp_priv.h). */
static void
queue_destroy(struct _cl_command_queue *q)
{
   if (runtime_callback_depth == 0) {
      queue_destroy_now(q);
      return;
   }
   pthread_t t;
   pthread_attr_t attr;
   pthread_attr_init(&attr);
   pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
   int rc = pthread_create(&t, &attr, queue_destroy_main, q);
   pthread_attr_destroy(&attr);
   if (rc != 0)
      icd_log(ICD_LOG_ERROR, "dispatch", "cannot start a thread to destroy queue %p (%d): "
              "it is leaked rather than destroyed on the HSA runtime's thread", (void *)q, rc);
}

static void
queue_destroy_now(struct _cl_command_queue *q)
{
   live_remove(q);
   if (q->devq) {
      disp_devq_forget(q->devq);
      disp_devq_destroy(q->devq);
   }
   if (q->hsa_queue)
      rt_hsa()->hsa_queue_destroy(q->hsa_queue);
   disp__kernarg_ring_finish(q);
   for (unsigned i = 0; i < DISP_CHECKPOINTS; i++) {
      if (q->checkpoint[i].handle)
         rt_hsa()->hsa_signal_destroy(q->checkpoint[i]);
   }
   pthread_cond_destroy(&q->idle);
   pthread_mutex_destroy(&q->fifo_lock);
   pthread_mutex_destroy(&q->lock);
   pthread_mutex_destroy(&q->submit_lock);
   icd_object_finish(&q->obj);
   if (q->context)
      plat_context_release_internal(q->context);
   icd_free(q->props);
   icd_free(q);
}

struct _cl_context *
disp_queue_context(const struct _cl_command_queue *q)
{
   return q->context;
}

struct _cl_device_id *
disp_queue_device(const struct _cl_command_queue *q)
{
   return q->device;
}

bool
disp_queue_is_device_queue(const struct _cl_command_queue *q)
{
   return q->devq != NULL;
}

void
disp_queue_retain_internal(struct _cl_command_queue *q)
{
   icd_object_retain_internal(&q->obj);
}

void
disp_queue_release_internal(struct _cl_command_queue *q)
{
   if (icd_object_release_internal(&q->obj))
      queue_destroy(q);
}

static void
unlist_locked(struct _cl_command_queue *q, struct disp_command *cmd)
{
   if (cmd->prev_in_queue)
      cmd->prev_in_queue->next_in_queue = cmd->next_in_queue;
   else if (q->commands == cmd)
      q->commands = cmd->next_in_queue;
   if (cmd->next_in_queue)
      cmd->next_in_queue->prev_in_queue = cmd->prev_in_queue;
   cmd->next_in_queue = cmd->prev_in_queue = NULL;
   cmd->listed = false;
}

void
disp__queue_list(struct _cl_command_queue *q, struct disp_command *cmd)
{
   pthread_mutex_lock(&q->lock);
   cmd->prev_in_queue = NULL;
   cmd->next_in_queue = q->commands;
   if (q->commands)
      q->commands->prev_in_queue = cmd;
   q->commands = cmd;
   cmd->listed = true;
   pthread_mutex_unlock(&q->lock);
}

void
disp__queue_unlist(struct _cl_command_queue *q, struct disp_command *cmd)
{
   pthread_mutex_lock(&q->lock);
   if (cmd->listed)
      unlist_locked(q, cmd);
   pthread_mutex_unlock(&q->lock);
}

void
disp__queue_commands_done(struct _cl_command_queue *q, struct disp_command *const *cmds,
                          unsigned n)
{
   bool lock = false;
   for (unsigned i = 0; i < n && !lock; i++)
      lock = cmds[i]->listed || atomic_load(&q->barrier_event) == cmds[i]->event;
   struct _cl_event *drop[2]; /* one each from last_event and barrier_event, at most */
   unsigned ndrop = 0;
   if (lock) {
      pthread_mutex_lock(&q->lock);
      for (unsigned i = 0; i < n; i++) {
         if (cmds[i]->listed)
            unlist_locked(q, cmds[i]);
         if (atomic_load(&q->barrier_event) == cmds[i]->event) {
            drop[ndrop++] = cmds[i]->event;
            atomic_store(&q->barrier_event, NULL);
         }
      }
      pthread_mutex_unlock(&q->lock);
   }
   /* Completed events need not be kept for ordering; this also breaks the
    * queue -> event -> queue reference cycle of an event the application holds. An enqueue
    * that swapped it out first owns the reference instead. */
   for (unsigned i = 0; i < n; i++) {
      struct _cl_event *ev = cmds[i]->event;
      if (atomic_load(&q->last_event) == ev &&
          atomic_compare_exchange_strong(&q->last_event, &ev, NULL))
         drop[ndrop++] = ev;
   }
   /* Dekker with disp_Finish: it counts itself in finish_waiters, then reads outstanding;
    * we drop outstanding, then read finish_waiters (both sequentially consistent). The
    * empty critical section orders us after a waiter that read outstanding before the drop
    * (it is then in pthread_cond_wait); the broadcast follows the unlock, so the woken
    * waiter does not block again on the lock we still hold (a second wake-up, and on a
    * loaded machine a second wait for a time slice, in every blocking round trip). The
    * commands in flight hold q together: the last one's reference goes last. */
   const bool idle = atomic_fetch_sub(&q->outstanding, n) == n;
   if (idle && atomic_load(&q->finish_waiters)) {
      pthread_mutex_lock(&q->lock);
      pthread_mutex_unlock(&q->lock);
      pthread_cond_broadcast(&q->idle);
   }
   for (unsigned i = 0; i < ndrop; i++)
      disp_event_release_internal(drop[i]);
   if (idle)
      disp_queue_release_internal(q);
}

/* Ticks of HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY in one millisecond (calibrated when the
 * first queue was created, so the enqueue path never runs pthread_once's slow path). */
static uint64_t
ms_ticks(void)
{
   return clock_freq / 1000 ? clock_freq / 1000 : 1;
}

static void
checkpoints_reset_locked(struct _cl_command_queue *q)
{
   for (unsigned i = 0; i < DISP_CHECKPOINTS; i++)
      q->checkpoint_index[i] = UINT64_MAX;
   q->checkpoint_last = 0;
}

void
disp__queue_checkpoint_locked(struct _cl_command_queue *q, uint32_t packets)
{
   const struct rt_hsa *hsa = rt_hsa();
   hsa_queue_t *hq = q->hsa_queue;
   if (q->faulted || !hq)
      return;
   uint64_t w = hsa->hsa_queue_load_write_index_relaxed(hq);
   uint64_t used = w - hsa->hsa_queue_load_read_index_scacquire(hq);
   if (used <= hq->size / 2 || w - q->checkpoint_last < hq->size / 8 ||
       used + 1 + packets > hq->size)
      return;
   uint32_t k = q->checkpoint_next;
   if (!q->checkpoint[k].handle &&
       hsa->hsa_amd_signal_create(1, 0, NULL, 0, &q->checkpoint[k]) != HSA_STATUS_SUCCESS) {
      q->checkpoint[k].handle = 0;
      return; /* no checkpoint: a writer waiting for space naps instead */
   }
   /* Its previous packet is 2 rings back (16 checkpoints, ring/8 apart): consumed. */
   hsa->hsa_signal_store_relaxed(q->checkpoint[k], 1);
   /* No fences: it only marks how far the packet processor got. */
   if (disp_queue_barrier_and_scoped(q, NULL, 0, q->checkpoint[k], 0) != CL_SUCCESS)
      return;
   q->checkpoint_index[k] = w;
   q->checkpoint_last = w;
   q->checkpoint_next = (k + 1) % DISP_CHECKPOINTS;
}

/*
 * Waits until packet `index` of `hq` has a slot: the packet processor consumed packet
 * index - size (HSA PSA §2.8.3). HSA has no wait on a queue's read index, so the writer
 * blocks on the oldest checkpoint signal past that packet (disp.h), which the packet
 * processor decrements once it got there; it wakes with much of the ring free and refills
 * it in one go. It does not spin first: a writer that went on at the first freed slot
 * found the ring full again at its next packet and spun again, in step with the packet
 * processor, CPU time on every launch while the device is the slower side. On ROCr it naps
 * until that signal drops instead: ROCr's blocking wait spins for 200 us before it sleeps
 * in the KFD, and a full ring made every few hundred launches spend that on the enqueueing
 * thread (over half of a stream's CPU time there). Without a usable checkpoint it naps
 * 50 us at a time. A faulted ring is never consumed again: the fault callback sets
 * fault_pending, seen within a millisecond.
 */
static cl_int
wait_for_slot(struct _cl_command_queue *q, hsa_queue_t *hq, uint64_t index)
{
   const struct rt_hsa *hsa = rt_hsa();
   const uint64_t need = index - hq->size; /* the packet that must be consumed */
   for (;;) {
      if (index - hsa->hsa_queue_load_read_index_scacquire(hq) < hq->size)
         return CL_SUCCESS;
      if (atomic_load(&q->fault_pending))
         return ICD_ERROR(CL_OUT_OF_RESOURCES, "the AQL queue faulted while waiting for "
                          "ring space");
      int pick = -1;
      for (int i = 0; i < DISP_CHECKPOINTS; i++) {
         uint64_t at = q->checkpoint_index[i];
         if (at == UINT64_MAX || at < need || at >= index ||
             hsa->hsa_signal_load_relaxed(q->checkpoint[i]) < 1)
            continue;
         if (pick < 0 || at < q->checkpoint_index[pick])
            pick = i;
      }
      struct timespec nap = { 0, 50000 };
      if (pick >= 0 && hsa->kind != RT_RUNTIME_ROCR) {
         hsa->hsa_signal_wait_scacquire(q->checkpoint[pick], HSA_SIGNAL_CONDITION_LT, 1,
                                        ms_ticks(), HSA_WAIT_STATE_BLOCKED);
      } else if (pick >= 0) {
         while (hsa->hsa_signal_load_relaxed(q->checkpoint[pick]) >= 1 &&
                !atomic_load(&q->fault_pending))
            nanosleep(&nap, NULL);
      } else {
         nanosleep(&nap, NULL);
      }
   }
}

cl_int
disp_queue_write_packet(struct _cl_command_queue *q, const void *packet)
{
   const struct rt_hsa *hsa = rt_hsa();
   if (q->faulted || !q->hsa_queue) {
      /* The old ring is dead after a fault: continue on a new one. */
      if (q->hsa_queue)
         hsa->hsa_queue_destroy(q->hsa_queue);
      q->hsa_queue = NULL;
      q->faulted = false;
      atomic_store(&q->fault_pending, false);
      checkpoints_reset_locked(q);
      cl_int err = queue_create_hsa(q);
      if (err != CL_SUCCESS)
         return err;
   }
   hsa_queue_t *hq = q->hsa_queue;
   /* The submit lock's holder is the ring's only producer: a plain store moves the write
    * index (a locked add was one more full fence per packet); the doorbell's release store
    * below publishes it with the packet. */
   uint64_t index = hsa->hsa_queue_load_write_index_relaxed(hq);
   hsa->hsa_queue_store_write_index_relaxed(hq, index + 1);
   /* Ring full: wait for the packet processor to consume. Only submit_lock is held: the
    * completion path, which the packets ahead may wait for (host commands' signals), never
    * needs it. */
   if (index - hsa->hsa_queue_load_read_index_scacquire(hq) >= hq->size) {
      cl_int err = wait_for_slot(q, hq, index);
      if (err != CL_SUCCESS)
         return err;
   }
   uint32_t *slot = (uint32_t *)((char *)hq->base_address + (index & (hq->size - 1)) * 64);
   const uint32_t *src = packet;
   /* Body first with the header still INVALID, then header+setup with one release store
    * (conventions.md rule 16). */
   memcpy(slot + 1, src + 1, 60);
   __atomic_store_n(slot, src[0], __ATOMIC_RELEASE);
   hsa->hsa_signal_store_screlease(hq->doorbell_signal, (hsa_signal_value_t)index);
   return CL_SUCCESS;
}

bool
disp__queue_has_room_locked(struct _cl_command_queue *q, uint32_t packets)
{
   const struct rt_hsa *hsa = rt_hsa();
   hsa_queue_t *hq = q->hsa_queue;
   if (q->faulted || !hq)
      return true;
   uint64_t used = hsa->hsa_queue_load_write_index_relaxed(hq) -
                   hsa->hsa_queue_load_read_index_scacquire(hq);
   /* More packets than the ring holds (a wait list of over 5 * ring size events): an
    * empty ring is the best there is; the writer then waits for its own first packets. */
   if (packets > hq->size)
      packets = hq->size;
   return used + packets <= hq->size;
}

_Static_assert(sizeof(hsa_barrier_and_packet_t) == 64, "AQL packets are 64 bytes");
_Static_assert(sizeof(hsa_kernel_dispatch_packet_t) == 64, "AQL packets are 64 bytes");

cl_int
disp_queue_barrier_and(struct _cl_command_queue *q, const hsa_signal_t *deps, uint32_t num_deps,
                       hsa_signal_t completion)
{
   /* System-scope fences: the host or the copy engine observes this completion. */
   return disp_queue_barrier_and_scoped(
      q, deps, num_deps, completion,
      (uint16_t)((HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) |
                 (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE)));
}

cl_int
disp_queue_barrier_and_scoped(struct _cl_command_queue *q, const hsa_signal_t *deps,
                              uint32_t num_deps, hsa_signal_t completion, uint16_t scopes)
{
   const bool in_order = !(q->properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
   uint32_t done = 0;
   do {
      hsa_barrier_and_packet_t p;
      memset(&p, 0, sizeof(p));
      uint32_t n = num_deps - done > 5 ? 5 : num_deps - done;
      for (uint32_t i = 0; i < n; i++)
         p.dep_signal[i] = deps[done + i];
      done += n;
      bool last = done == num_deps;
      if (last)
         p.completion_signal = completion;
      p.header = (uint16_t)((HSA_PACKET_TYPE_BARRIER_AND << HSA_PACKET_HEADER_TYPE) |
                            ((in_order ? 1 : 0) << HSA_PACKET_HEADER_BARRIER) | scopes);
      cl_int err = disp_queue_write_packet(q, &p);
      if (err != CL_SUCCESS)
         return err;
   } while (done < num_deps);
   return CL_SUCCESS;
}

/* Returns a new queue with one API reference; inputs validated by the entry point. */
static cl_int
queue_create(struct _cl_context *ctx, struct _cl_device_id *dev,
             cl_command_queue_properties properties, const cl_queue_properties *props,
             size_t num_props, struct _cl_command_queue **out)
{
   cl_int err;
   struct _cl_command_queue *q = icd_calloc(1, sizeof(*q));
   if (!q)
      return ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "allocating a command queue");
   icd_object_init(&q->obj, ICD_TYPE_COMMAND_QUEUE);
   disp__mutex_init(&q->lock);
   disp__mutex_init(&q->submit_lock);
   disp__mutex_init(&q->fifo_lock);
   pthread_cond_init(&q->idle, NULL);
   atomic_init(&q->fifo_stub.next, NULL);
   atomic_init(&q->fifo_head, &q->fifo_stub);
   atomic_init(&q->fifo_tail, &q->fifo_stub);
   atomic_init(&q->armed, false);
   checkpoints_reset_locked(q);
   q->device = dev;
   q->properties = properties;
   if (props) {
      q->props = icd_malloc(num_props * sizeof(*props));
      if (!q->props) {
         err = ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "copying queue properties");
         goto out_destroy;
      }
      memcpy(q->props, props, num_props * sizeof(*props));
      q->num_props = num_props;
   }
   err = queue_create_hsa(q);
   if (err != CL_SUCCESS)
      goto out_destroy;
   pthread_once(&clock_once, clock_calibrate);
   plat_context_retain_internal(ctx);
   q->context = ctx;
   live_add(q);
   *out = q;
   return CL_SUCCESS;

out_destroy:
   queue_destroy(q);
   return err;
}

static cl_int
check_context_device(cl_context context, cl_device_id device, struct _cl_context **ctx_out,
                     struct _cl_device_id **dev_out)
{
   struct _cl_context *ctx = plat_context_from_handle(context);
   if (!ctx)
      return ICD_ERROR(CL_INVALID_CONTEXT, "context %p is not an hsacl context",
                       (void *)context);
   struct _cl_device_id *dev = plat_device_from_handle(device);
   if (!dev)
      return ICD_ERROR(CL_INVALID_DEVICE, "device %p is not an hsacl device", (void *)device);
   if (!plat_context_has_device(ctx, dev))
      return ICD_ERROR(CL_INVALID_DEVICE, "device %s is not in context %p", dev->name,
                       (void *)ctx);
   *ctx_out = ctx;
   *dev_out = dev;
   return CL_SUCCESS;
}

cl_command_queue CL_API_CALL
disp_CreateCommandQueueWithProperties(cl_context context, cl_device_id device,
                                      const cl_queue_properties *properties,
                                      cl_int *errcode_ret)
{
   struct _cl_context *ctx;
   struct _cl_device_id *dev;
   struct _cl_command_queue *q = NULL;
   cl_int err = check_context_device(context, device, &ctx, &dev);
   if (err != CL_SUCCESS)
      goto out;

   cl_command_queue_properties bits = 0;
   bool seen_props = false, seen_size = false;
   cl_queue_properties queue_size = PLAT_DEVQ_PREFERRED_SIZE;
   size_t n = 0;
   if (properties) {
      for (; properties[n] != 0; n += 2) {
         cl_queue_properties value = properties[n + 1];
         switch (properties[n]) {
         case CL_QUEUE_PROPERTIES:
            if (seen_props) {
               err = ICD_ERROR(CL_INVALID_VALUE, "CL_QUEUE_PROPERTIES given twice");
               goto out;
            }
            seen_props = true;
            bits = value;
            break;
         case CL_QUEUE_SIZE:
            if (seen_size) {
               err = ICD_ERROR(CL_INVALID_VALUE, "CL_QUEUE_SIZE given twice");
               goto out;
            }
            seen_size = true;
            queue_size = value;
            break;
         default:
            err = ICD_ERROR(CL_INVALID_VALUE, "unknown queue property 0x%llx",
                            (unsigned long long)properties[n]);
            goto out;
         }
      }
      n++; /* the terminator */
   }
   if (bits & ~all_queue_props) {
      err = ICD_ERROR(CL_INVALID_VALUE, "unknown CL_QUEUE_PROPERTIES bits 0x%llx",
                      (unsigned long long)(bits & ~all_queue_props));
      goto out;
   }
   if ((bits & CL_QUEUE_ON_DEVICE) && !(bits & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)) {
      err = ICD_ERROR(CL_INVALID_VALUE, "CL_QUEUE_ON_DEVICE requires out-of-order execution");
      goto out;
   }
   if ((bits & CL_QUEUE_ON_DEVICE_DEFAULT) && !(bits & CL_QUEUE_ON_DEVICE)) {
      err = ICD_ERROR(CL_INVALID_VALUE, "CL_QUEUE_ON_DEVICE_DEFAULT requires CL_QUEUE_ON_DEVICE");
      goto out;
   }
   if (seen_size && !(bits & CL_QUEUE_ON_DEVICE)) {
      err = ICD_ERROR(CL_INVALID_VALUE, "CL_QUEUE_SIZE is only valid for device queues");
      goto out;
   }
   if ((bits & CL_QUEUE_ON_DEVICE) && !disp_devq_enabled()) {
      err = ICD_ERROR(CL_INVALID_QUEUE_PROPERTIES,
                      "device-side queues are not supported (no device enqueue)");
      goto out;
   }
   if ((bits & CL_QUEUE_ON_DEVICE) && (queue_size == 0 || queue_size > PLAT_DEVQ_MAX_SIZE)) {
      err = ICD_ERROR(CL_INVALID_VALUE, "CL_QUEUE_SIZE %llu is not in 1..%u",
                      (unsigned long long)queue_size, PLAT_DEVQ_MAX_SIZE);
      goto out;
   }
   err = queue_create(ctx, dev, bits, properties, n, &q);
   if (err == CL_SUCCESS && (bits & CL_QUEUE_ON_DEVICE)) {
      /* device-side enqueue: disp_devq.c */
      q->size = (cl_uint)queue_size;
      err = disp_devq_create(ctx, context, dev, device, q->size, &q->devq);
      if (err == CL_SUCCESS) {
         err = disp_devq_register(dev, q->devq, disp_queue_to_handle(q));
         if (err != CL_SUCCESS) {
            disp_devq_destroy(q->devq);
            q->devq = NULL;
         }
      }
      if (err != CL_SUCCESS) {
         queue_destroy_now(q);
         q = NULL;
      } else if (bits & CL_QUEUE_ON_DEVICE_DEFAULT) {
         disp_devq_set_default(dev, q->devq);
      }
   }
out:
   icd_set_errcode(errcode_ret, err);
   return err == CL_SUCCESS ? disp_queue_to_handle(q) : NULL;
}

cl_int CL_API_CALL
disp_SetDefaultDeviceCommandQueue(cl_context context, cl_device_id device,
                                  cl_command_queue command_queue)
{
   struct _cl_context *ctx;
   struct _cl_device_id *dev;
   cl_int err = check_context_device(context, device, &ctx, &dev);
   if (err != CL_SUCCESS)
      return err;
   if (!disp_devq_enabled())
      return ICD_ERROR(CL_INVALID_OPERATION, "the device supports no device queue");
   struct _cl_command_queue *q = disp_queue_from_handle(command_queue);
   if (!q || !q->devq || q->device != dev || q->context != ctx)
      return ICD_ERROR(CL_INVALID_COMMAND_QUEUE, "command_queue %p is not a device queue of "
                       "this device and context", (void *)command_queue);
   disp_devq_set_default(dev, q->devq);
   return CL_SUCCESS;
}

cl_command_queue CL_API_CALL
disp_CreateCommandQueue(cl_context context, cl_device_id device,
                        cl_command_queue_properties properties, cl_int *errcode_ret)
{
   struct _cl_context *ctx;
   struct _cl_device_id *dev;
   struct _cl_command_queue *q = NULL;
   cl_int err = check_context_device(context, device, &ctx, &dev);
   if (err != CL_SUCCESS)
      goto out;
   if (properties & ~host_queue_props) {
      err = ICD_ERROR(CL_INVALID_VALUE, "invalid command-queue properties 0x%llx",
                      (unsigned long long)properties);
      goto out;
   }
   err = queue_create(ctx, dev, properties, NULL, 0, &q);
out:
   icd_set_errcode(errcode_ret, err);
   return err == CL_SUCCESS ? disp_queue_to_handle(q) : NULL;
}

cl_int CL_API_CALL
disp_RetainCommandQueue(cl_command_queue command_queue)
{
   struct _cl_command_queue *q = disp_queue_from_handle(command_queue);
   if (!q)
      return ICD_ERROR(CL_INVALID_COMMAND_QUEUE, "command_queue %p is not an hsacl queue",
                       (void *)command_queue);
   icd_object_retain(&q->obj);
   return CL_SUCCESS;
}

cl_int CL_API_CALL
disp_ReleaseCommandQueue(cl_command_queue command_queue)
{
   struct _cl_command_queue *q = disp_queue_from_handle(command_queue);
   if (!q)
      return ICD_ERROR(CL_INVALID_COMMAND_QUEUE, "command_queue %p is not an hsacl queue",
                       (void *)command_queue);
   /* §5.1: the last release flushes (commands are already submitted); the queue lives on
    * while commands are in flight and events the application holds refer to it. */
   if (icd_object_release(&q->obj))
      disp_queue_release_internal(q);
   return CL_SUCCESS;
}

cl_int CL_API_CALL
disp_GetCommandQueueInfo(cl_command_queue command_queue, cl_command_queue_info param_name,
                         size_t param_value_size, void *param_value,
                         size_t *param_value_size_ret)
{
   struct _cl_command_queue *q = disp_queue_from_handle(command_queue);
   if (!q)
      return ICD_ERROR(CL_INVALID_COMMAND_QUEUE, "command_queue %p is not an hsacl queue",
                       (void *)command_queue);
   /* The 2.0 profile has neither the 2.1 default-queue query nor 3.0's properties array. */
   if ((param_name == CL_QUEUE_DEVICE_DEFAULT &&
        !plat_query_in_profile(CL_MAKE_VERSION(2, 1, 0))) ||
       (param_name == CL_QUEUE_PROPERTIES_ARRAY &&
        !plat_query_in_profile(CL_MAKE_VERSION(3, 0, 0))))
      return ICD_ERROR(CL_INVALID_VALUE, "command-queue query 0x%x is not part of OpenCL %u.%u",
                       (unsigned)param_name, PLAT_CL_VERSION_MAJOR, PLAT_CL_VERSION_MINOR);
   switch (param_name) {
   case CL_QUEUE_CONTEXT:
      return ICD_GET_INFO_SCALAR(cl_context, (cl_context)q->context, param_value_size,
                                 param_value, param_value_size_ret);
   case CL_QUEUE_DEVICE:
      return ICD_GET_INFO_SCALAR(cl_device_id, (cl_device_id)q->device, param_value_size,
                                 param_value, param_value_size_ret);
   case CL_QUEUE_REFERENCE_COUNT:
      return ICD_GET_INFO_SCALAR(cl_uint, icd_object_refcount(&q->obj), param_value_size,
                                 param_value, param_value_size_ret);
   case CL_QUEUE_PROPERTIES:
      return ICD_GET_INFO_SCALAR(cl_command_queue_properties, q->properties, param_value_size,
                                 param_value, param_value_size_ret);
   case CL_QUEUE_PROPERTIES_ARRAY:
      return icd_get_info(q->props, q->num_props * sizeof(cl_queue_properties),
                          param_value_size, param_value, param_value_size_ret);
   case CL_QUEUE_SIZE:
      if (q->devq)
         return ICD_GET_INFO_SCALAR(cl_uint, q->size, param_value_size, param_value,
                                    param_value_size_ret);
      return ICD_ERROR(CL_INVALID_COMMAND_QUEUE, "CL_QUEUE_SIZE asked of a host queue");
   case CL_QUEUE_DEVICE_DEFAULT:
      return ICD_GET_INFO_SCALAR(cl_command_queue,
                                 (cl_command_queue)disp_devq_default_owner(q->device),
                                 param_value_size, param_value, param_value_size_ret);
   default:
      return ICD_ERROR(CL_INVALID_VALUE, "unknown command-queue query 0x%x",
                       (unsigned)param_name);
   }
}

cl_int CL_API_CALL
disp_Flush(cl_command_queue command_queue)
{
   struct _cl_command_queue *q = disp_queue_from_handle(command_queue);
   if (!q || q->devq)
      return ICD_ERROR(CL_INVALID_COMMAND_QUEUE, "command_queue %p is not an hsacl host queue",
                       (void *)command_queue);
   return CL_SUCCESS;
}

/* Waits for the queue's outstanding commands (clFinish's worker). */
static cl_int
queue_finish(struct _cl_command_queue *q)
{
   if (!atomic_load(&q->outstanding))
      return CL_SUCCESS;
   if (disp__in_completion())
      return ICD_ERROR(CL_INVALID_OPERATION, "clFinish in an event callback run by the "
                       "completion thread: it would wait for itself (wait elsewhere)");
   /* Held commands whose dependencies resolved while this thread was in an application
    * callback (which suspends the drain it was called from) go now. */
   disp__pending_event_done(NULL, true);
   pthread_mutex_lock(&q->lock);
   atomic_fetch_add(&q->finish_waiters, 1);
   while (atomic_load(&q->outstanding))
      pthread_cond_wait(&q->idle, &q->lock);
   atomic_fetch_sub(&q->finish_waiters, 1);
   pthread_mutex_unlock(&q->lock);
   return CL_SUCCESS;
}

cl_int CL_API_CALL
disp_Finish(cl_command_queue command_queue)
{
   struct _cl_command_queue *q = disp_queue_from_handle(command_queue);
   if (!q || q->devq)
      return ICD_ERROR(CL_INVALID_COMMAND_QUEUE, "command_queue %p is not an hsacl host queue",
                       (void *)command_queue);
   return queue_finish(q);
}

cl_int
disp_context_finish(const struct _cl_context *ctx)
{
   cl_int err = CL_SUCCESS;
   /* Under live_lock the listed queues cannot be destroyed; a queue being destroyed has
    * nothing outstanding and is skipped by queue_finish. */
   pthread_mutex_lock(&live_lock);
   for (struct _cl_command_queue *q = live_queues; q && err == CL_SUCCESS; q = q->next_live) {
      if (q->context == ctx && !q->devq)
         err = queue_finish(q);
   }
   pthread_mutex_unlock(&live_lock);
   return err;
}
