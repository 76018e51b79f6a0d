/*
 * dispatch/disp.h — what other modules use from dispatch/: command queues, events and
 * commands. HSA itself is reached through runtime/rt.h.
 */
#ifndef DISP_H
#define DISP_H

#include "icd.h"
#include "runtime/rt.h"
#include <pthread.h>

/* ---- events ------------------------------------------------------------------------ */

typedef void(CL_CALLBACK *disp_event_notify_fn)(cl_event event, cl_int status, void *user_data);

struct disp_event_callback {
   cl_int status; /* CL_SUBMITTED, CL_RUNNING or CL_COMPLETE */
   disp_event_notify_fn fn;
   void *user_data;
   struct disp_event_callback *next;
};

/* Profiling timestamps, host timer domain (plat_host_timer_ns), OpenCL 3.0 §5.14. */
enum { DISP_TIME_QUEUED, DISP_TIME_SUBMIT, DISP_TIME_START, DISP_TIME_END, DISP_TIME_COMPLETE,
       DISP_TIME_COUNT };

struct disp_command;

/*
 * A command's or user's event. Status moves CL_QUEUED -> CL_SUBMITTED -> CL_RUNNING ->
 * CL_COMPLETE, or to a negative error; terminal states never change. `signal` is what HSA
 * work that depends on this event waits for (1 until the command's work, host part
 * included, is done); user events have none.
 */
struct _cl_event {
   struct icd_object obj;
   struct _cl_context *context;      /* internal reference */
   struct _cl_command_queue *queue;  /* internal reference; NULL for user events */
   cl_command_type command_type;
   hsa_signal_t signal;              /* 0 handle: none (user events) */
   atomic_int status;                /* written under lock; read lock-free */
   /* Set by a queue's fault callback before it releases the signal of this event's command
    * on the dead ring: work wired to that signal runs at once, possibly before the command
    * is retired and `status` turns negative, and must fail as a dependant (disp_command.c). */
   atomic_int failing;
   atomic_bool submitted;            /* signal is wired into HSA work, or status terminal */
   /* obj.internal_refs: API references together hold one; commands, queues and waiters
    * hold the others. */
   pthread_mutex_t lock;
   pthread_cond_t cond;              /* broadcast on every status change */
   struct disp_event_callback *callbacks; /* under lock */
   cl_ulong times[DISP_TIME_COUNT];
   bool profiling;                   /* queue had CL_QUEUE_PROFILING_ENABLE */
   /* The HSA queue whose packets signal completion (an in-order successor on the same
    * HSA queue is ordered by the barrier bit instead of a dependency); NULL otherwise. */
   hsa_queue_t *aql_queue;
   /* The work ends in an agent-scope release (a kernel, or a marker after one): what it
    * wrote may still be in the device's L2 (disp_fence.c). */
   atomic_bool agent_release;
};

ICD_DEFINE_HANDLE_CASTS(disp_event, struct _cl_event, cl_event, ICD_TYPE_EVENT)

void disp_event_retain_internal(struct _cl_event *ev);
void disp_event_release_internal(struct _cl_event *ev);

/* Moves `ev` to `status` (CL_SUBMITTED, CL_RUNNING, CL_COMPLETE or negative) and runs the
 * callbacks that became due, with no lock held. Ignored once the status is terminal.
 * May submit commands held back for `ev`, waiting for AQL ring space: not for the
 * completion path (disp_command.c uses disp__event_set_status). */
void disp_event_set_status(struct _cl_event *ev, cl_int status);

/* Blocks until `ev` is terminal; returns its final status. No spinning. */
cl_int disp_event_wait(struct _cl_event *ev);

/*
 * Validates an event wait list at an entry point (OpenCL 3.0 §5.12):
 * CL_INVALID_EVENT_WAIT_LIST when the list is NULL with a count or non-NULL without one, or
 * an entry is not a valid event; CL_INVALID_CONTEXT when an event belongs to another
 * context than `ctx`.
 */
cl_int disp_validate_wait_list(const struct _cl_context *ctx, cl_uint num_events,
                               const cl_event *event_wait_list);

/* ---- commands ---------------------------------------------------------------------- */

/* Commands whose packets are in the AQL ring are retired in the order they were written:
 * the queue keeps them in a FIFO (a Vyukov intrusive queue: the submit lock's holder
 * pushes, the queue's one completion handler pops) and arms one HSA async handler, on the
 * oldest one's signal, while the FIFO is not empty (disp_command.c). */
struct disp_fifo_node {
   _Atomic(struct disp_fifo_node *) next;
};

typedef enum disp_command_kind {
   DISP_COMMAND_HSA,  /* submit() starts HSA work that decrements the completion signal */
   DISP_COMMAND_HOST, /* no HSA work: only complete(), once the dependencies are done */
} disp_command_kind;

/*
 * One enqueued command. The enqueue entry point fills kind, the callbacks and its payload,
 * then hands it to disp_command_enqueue(), which owns it from then on.
 *
 *   submit(cmd, deps, n, signal)  start the HSA work after the `n` dependency signals
 *                                 reach 0 and make it decrement `signal` when done.
 *                                 Called once, from the enqueueing thread or the thread
 *                                 that completed the last host-held dependency, with the
 *                                 queue's submit lock held. Returns CL_SUCCESS or an error
 *                                 that fails the command's event.
 *   complete(cmd)                 host work after the HSA work (copy out of staging,
 *                                 printf); runs once on a runtime or enqueueing thread, no
 *                                 lock held. Returns CL_SUCCESS or the event's error status.
 *   release(cmd)                  frees the payload's resources (internal references on mem
 *                                 objects, staging memory); always called exactly once.
 */
struct disp_command {
   struct _cl_command_queue *queue;
   struct _cl_event *event;             /* the command's event (internal reference) */
   disp_command_kind kind;
   bool uses_aql;                       /* submit() writes packets to queue->hsa_queue */
   /* `deps` is NULL when `num_deps` is 0 (ROCr rejects an empty non-NULL signal list). */
   cl_int (*submit)(struct disp_command *cmd, const hsa_signal_t *deps, uint32_t num_deps,
                    hsa_signal_t signal);
   cl_int (*complete)(struct disp_command *cmd);
   void (*release)(struct disp_command *cmd);
   struct _cl_event **deps;             /* internal references */
   cl_uint num_deps;
   hsa_signal_t *dep_signals;           /* scratch: num_deps + 1 entries */
#define DISP_INLINE_DEPS 4
   struct _cl_event *inline_deps[DISP_INLINE_DEPS + 1]; /* deps when num_deps is small */
   hsa_signal_t inline_signals[DISP_INLINE_DEPS + 1];
   struct _cl_event *prev;              /* in-order predecessor (internal ref) or NULL */
   hsa_signal_t work_signal;            /* decremented by the HSA work (== event->signal
                                         * unless complete() must run first) */
   cl_int fault_status;                 /* set when the HSA queue faulted under it */
   bool submitted;
   bool listed;                         /* on queue->commands (under queue->lock) */
   bool quiet;                          /* the application has no handle on the event: its
                                         * SUBMITTED and RUNNING states go unobserved */
   struct disp_fifo_node fifo;          /* queue's completion FIFO (AQL commands) */
   struct disp_command *next_pending;   /* global pending list */
   struct disp_command *next_in_queue;  /* queue->commands, when listed; */
   struct disp_command *prev_in_queue;  /* newest first; O(1) removal */
   void *payload;                       /* owned by the enqueue code; freed by release() */
   /* A barrier-AND with a system-scope release precedes the work (disp_fence.c): it
    * covers `release_covers` completed kernels; `release_signal` is its completion, which
    * a copy waits for (0: none of ours). */
   bool release_fence;
   uint64_t release_covers;
   hsa_signal_t release_signal;
   hsa_queue_t *release_ring;           /* the AQL ring that barrier went to (a fault
                                         * there releases release_signal, disp_queue.c) */
};

/*
 * Creates a command of `type` for queue `q` with a new event and internal references on
 * the wait-list events (already validated). Returns CL_OUT_OF_HOST_MEMORY or
 * CL_OUT_OF_RESOURCES on failure.
 */
cl_int disp_command_create(struct _cl_command_queue *q, cl_command_type type,
                           cl_uint num_events, const cl_event *event_wait_list,
                           struct disp_command **out);

/* Frees a command that was never enqueued (error path of an entry point). */
void disp_command_abort(struct disp_command *cmd);

/*
 * Submits `cmd` (now, or when its host-held dependencies complete) and stores a new API
 * reference to its event in *event_out when non-NULL. With `blocking`, waits for the
 * event and returns CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST if it failed.
 */
cl_int disp_command_enqueue(struct disp_command *cmd, cl_event *event_out, bool blocking);

/* The driver wrote memory a device may hold in its L2 without a command (a buffer
 * initialised at creation): the next kernel acquires at system scope (disp_fence.c). */
void disp_fence_host_wrote(void);

/* ---- command queues ---------------------------------------------------------------- */

/*
 * Kernarg segments come from a ring of kernarg-pool memory per queue (disp_kernarg.c). Only
 * enqueueing threads allocate (under the queue's kernarg_lock); the completion path returns
 * a segment by setting bit 63 of its entry with one atomic OR, and the allocator reclaims
 * returned entries from the oldest on. A full ring is replaced by one twice its size, kept
 * as the queue's ring from then on; the old one stays on `older` until all its segments
 * are back, then the allocator frees it.
 */
struct disp_kernarg_ring {
   void *base;              /* `bytes` of kernarg-pool memory */
   uint32_t bytes, entries; /* powers of two */
   uint64_t head, tail;     /* byte positions (monotonic); allocator only */
   uint32_t first, count;   /* live entries; allocator only */
   _Atomic uint64_t *ends;  /* end position of each live entry; bit 63: returned */
   struct disp_kernarg_ring *older; /* replaced, not yet drained; allocator only */
};

struct disp_kernarg_slot {
   void *ptr;
   struct disp_kernarg_ring *ring;
   uint32_t ring_index;
};

struct _cl_command_queue {
   struct icd_object obj;
   struct _cl_context *context;  /* holds a reference */
   struct _cl_device_id *device;
   cl_command_queue_properties properties;
   cl_queue_properties *props;   /* as given to ...WithProperties, 0-terminated; or NULL */
   size_t num_props;             /* entries in props including the terminator */
   cl_uint size;                 /* CL_QUEUE_SIZE (device queues only) */
   struct disp_devq *devq;       /* device queues only (disp_devq.c) */
   hsa_queue_t *hsa_queue;       /* the AQL queue backing it; replaced after a fault
                                  * (under submit_lock) */
   /* Orders the AQL packet writes: a command's packets go to the ring contiguously, and
    * whoever holds it may wait for ring space. The completion path never waits for it
    * (see disp_command.c), so the packets it waits behind can always complete.
    * Lock order: pending list, submit_lock, lock, fifo_lock, event locks. */
   pthread_mutex_t submit_lock;
   /* The list of commands below, barrier_event's writes, clFinish's sleep; held for a few
    * instructions. A launch's enqueue and retirement take it not at all. */
   pthread_mutex_t lock;
   pthread_cond_t idle;          /* broadcast (under lock) when `outstanding` drops to 0
                                  * while finish_waiters is not 0 */
   atomic_uint outstanding;      /* commands enqueued and not terminal */
   atomic_uint finish_waiters;   /* clFinish callers about to sleep or sleeping */
   /* In-order: the latest command's event (internal reference). Swapped by each enqueue;
    * cleared with a compare-exchange when that command is retired. */
   _Atomic(struct _cl_event *) last_event;
   /* Non-terminal commands that are not in the completion FIFO (held back on the host, or
    * running outside the AQL ring); under lock. Those in the FIFO are reached through it
    * (under fifo_lock): the two together are every command held back or submitted. */
   struct disp_command *commands;
   _Atomic(struct _cl_event *) barrier_event; /* out-of-order: latest barrier; internal
                                               * reference; written under lock */
   bool faulted;                 /* the HSA queue reported an error: replace it (written
                                  * under submit_lock and lock) */
   atomic_bool fault_pending;    /* set by the error callback before it takes submit_lock:
                                  * a writer waiting for ring space gives up */
   pthread_mutex_t kernarg_lock; /* allocators of kernarg segments (enqueueing threads) */
   struct disp_kernarg_ring *kernarg; /* under kernarg_lock; NULL until the first launch */
   /* Completion FIFO (disp_command.c): `fifo_tail` is pushed by the submit lock's holder;
    * `fifo_head` moves under fifo_lock, taken by whoever holds `armed` (the handler, or the
    * thread arming it) and by the rare walkers of the FIFO (markers, the fault callback). */
   pthread_mutex_t fifo_lock;
   _Atomic(struct disp_fifo_node *) fifo_tail;
   _Atomic(struct disp_fifo_node *) fifo_head;
   struct disp_fifo_node fifo_stub;
   atomic_bool armed;            /* a completion handler is registered or running */
   /* Ring-space checkpoints (disp_queue.c): while the AQL ring is over half full, every
    * ring/8 packets an empty barrier-AND decrements one of these; a writer waiting for
    * space blocks on the oldest one past the slot it needs. Under submit_lock. */
#define DISP_CHECKPOINTS 16
   hsa_signal_t checkpoint[DISP_CHECKPOINTS];
   uint64_t checkpoint_index[DISP_CHECKPOINTS]; /* packet index of each; UINT64_MAX: none */
   uint32_t checkpoint_next;
   uint64_t checkpoint_last;     /* packet index of the newest checkpoint */
   /* obj.internal_refs: API references together hold one; every event of the queue holds
    * one. Destroyed when the count drops to zero. */
};

void disp_queue_retain_internal(struct _cl_command_queue *q);
void disp_queue_release_internal(struct _cl_command_queue *q);

/* Writes `packet` (64 bytes, header last) into the queue's AQL ring with a release store
 * of header+setup and rings the doorbell; waits for ring space when the ring is full.
 * Caller holds q->submit_lock (not q->lock). */
cl_int disp_queue_write_packet(struct _cl_command_queue *q, const void *packet);

/* Writes BARRIER_AND packets waiting for `deps` (5 per packet); the last one decrements
 * `completion` when non-zero. With no deps and a completion signal, one empty barrier.
 * System-scope fences; _scoped takes the header's fence-scope bits. Caller holds
 * q->submit_lock. */
cl_int disp_queue_barrier_and(struct _cl_command_queue *q, const hsa_signal_t *deps,
                              uint32_t num_deps, hsa_signal_t completion);
cl_int disp_queue_barrier_and_scoped(struct _cl_command_queue *q, const hsa_signal_t *deps,
                                     uint32_t num_deps, hsa_signal_t completion,
                                     uint16_t scopes);

ICD_DEFINE_HANDLE_CASTS(disp_queue, struct _cl_command_queue, cl_command_queue,
                        ICD_TYPE_COMMAND_QUEUE)

/* Entry-point prologue: declares `q` from `handle` or returns CL_INVALID_COMMAND_QUEUE
 * (also for a device queue: host commands need a host queue). */
#define QUEUE_OR_RETURN(q, handle)                                                           \
   struct _cl_command_queue *q = disp_queue_from_handle(handle);                            \
   if (!q || q->devq)                                                                       \
      return ICD_ERROR(CL_INVALID_COMMAND_QUEUE, "command_queue %p is not an hsacl host "   \
                       "queue", (void *)(handle));

cl_int CL_API_CALL disp_Flush(cl_command_queue command_queue);
cl_int CL_API_CALL disp_EnqueueNDRangeKernel(cl_command_queue command_queue, cl_kernel kernel,
                                             cl_uint work_dim, const size_t *global_work_offset,
                                             const size_t *global_work_size,
                                             const size_t *local_work_size,
                                             cl_uint num_events_in_wait_list,
                                             const cl_event *event_wait_list, cl_event *event);
/* cl_khr_suggested_local_work_size, through clGetExtensionFunctionAddress. */
cl_int CL_API_CALL disp_GetKernelSuggestedLocalWorkSizeKHR(cl_command_queue command_queue,
                                                          cl_kernel kernel, cl_uint work_dim,
                                                          const size_t *global_work_offset,
                                                          const size_t *global_work_size,
                                                          size_t *suggested_local_work_size);
cl_int CL_API_CALL disp_EnqueueTask(cl_command_queue command_queue, cl_kernel kernel,
                                    cl_uint num_events_in_wait_list,
                                    const cl_event *event_wait_list, cl_event *event);
cl_int CL_API_CALL disp_WaitForEvents(cl_uint num_events, const cl_event *event_list);
cl_int CL_API_CALL disp_GetEventInfo(cl_event event, cl_event_info param_name,
                                     size_t param_value_size, void *param_value,
                                     size_t *param_value_size_ret);
cl_int CL_API_CALL disp_RetainEvent(cl_event event);
cl_int CL_API_CALL disp_ReleaseEvent(cl_event event);
cl_int CL_API_CALL disp_GetEventProfilingInfo(cl_event event, cl_profiling_info param_name,
                                              size_t param_value_size, void *param_value,
                                              size_t *param_value_size_ret);
cl_event CL_API_CALL disp_CreateUserEvent(cl_context context, cl_int *errcode_ret);
cl_int CL_API_CALL disp_SetUserEventStatus(cl_event event, cl_int execution_status);
cl_int CL_API_CALL disp_SetEventCallback(cl_event event, cl_int command_exec_callback_type,
                                         disp_event_notify_fn pfn_notify, void *user_data);
cl_int CL_API_CALL disp_EnqueueMarkerWithWaitList(cl_command_queue command_queue,
                                                  cl_uint num_events_in_wait_list,
                                                  const cl_event *event_wait_list,
                                                  cl_event *event);
cl_int CL_API_CALL disp_EnqueueBarrierWithWaitList(cl_command_queue command_queue,
                                                   cl_uint num_events_in_wait_list,
                                                   const cl_event *event_wait_list,
                                                   cl_event *event);
cl_int CL_API_CALL disp_EnqueueMarker(cl_command_queue command_queue, cl_event *event);
cl_int CL_API_CALL disp_EnqueueBarrier(cl_command_queue command_queue);
cl_int CL_API_CALL disp_EnqueueWaitForEvents(cl_command_queue command_queue, cl_uint num_events,
                                             const cl_event *event_list);
cl_int CL_API_CALL disp_Finish(cl_command_queue command_queue);
cl_command_queue CL_API_CALL disp_CreateCommandQueue(cl_context context, cl_device_id device,
                                                     cl_command_queue_properties properties,
                                                     cl_int *errcode_ret);
cl_command_queue CL_API_CALL disp_CreateCommandQueueWithProperties(
   cl_context context, cl_device_id device, const cl_queue_properties *properties,
   cl_int *errcode_ret);
cl_int CL_API_CALL disp_RetainCommandQueue(cl_command_queue command_queue);
cl_int CL_API_CALL disp_ReleaseCommandQueue(cl_command_queue command_queue);
cl_int CL_API_CALL disp_SetDefaultDeviceCommandQueue(cl_context context, cl_device_id device,
                                                    cl_command_queue command_queue);
cl_int CL_API_CALL disp_GetCommandQueueInfo(cl_command_queue command_queue,
                                            cl_command_queue_info param_name,
                                            size_t param_value_size, void *param_value,
                                            size_t *param_value_size_ret);

#endif
