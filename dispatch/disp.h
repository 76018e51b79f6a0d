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

/* A command's or user's event (struct _cl_event, disp_priv.h). */
ICD_DEFINE_OPAQUE_HANDLE_CASTS(disp_event, struct _cl_event, cl_event, ICD_TYPE_EVENT)

/* The event's context (CL_EVENT_CONTEXT); fixed at creation. */
struct _cl_context *disp_event_context(const struct _cl_event *ev);

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

void disp_queue_retain_internal(struct _cl_command_queue *q);
void disp_queue_release_internal(struct _cl_command_queue *q);

/* A command queue (struct _cl_command_queue, disp_priv.h): a host queue, or a device queue
 * for device-side enqueue. */
ICD_DEFINE_OPAQUE_HANDLE_CASTS(disp_queue, struct _cl_command_queue, cl_command_queue,
                               ICD_TYPE_COMMAND_QUEUE)

/* The queue's context and device (CL_QUEUE_CONTEXT, CL_QUEUE_DEVICE); fixed at creation. */
struct _cl_context *disp_queue_context(const struct _cl_command_queue *q);
struct _cl_device_id *disp_queue_device(const struct _cl_command_queue *q);

/* True for a device queue (CL_QUEUE_ON_DEVICE): host commands are not enqueued to it. */
bool disp_queue_is_device_queue(const struct _cl_command_queue *q);

/* Entry-point prologue: declares `q` from `handle` or returns CL_INVALID_COMMAND_QUEUE
 * (also for a device queue: host commands need a host queue). */
#define QUEUE_OR_RETURN(q, handle)                                                           \
   struct _cl_command_queue *q = disp_queue_from_handle(handle);                            \
   if (!q || disp_queue_is_device_queue(q))                                                 \
      return ICD_ERROR(CL_INVALID_COMMAND_QUEUE, "command_queue %p is not an hsacl host "   \
                       "queue", (void *)(handle));

/* Waits until every command enqueued so far on the host queues of `ctx` is complete
 * (clFinish on each; clMemBlockingFreeINTEL). CL_INVALID_OPERATION on the completion
 * thread, which would wait for itself. */
cl_int disp_context_finish(const struct _cl_context *ctx);

/* cl_khr_semaphore (disp_semaphore.c), through clGetExtensionFunctionAddressForPlatform. */
cl_semaphore_khr CL_API_CALL disp_CreateSemaphoreWithPropertiesKHR(
   cl_context context, const cl_semaphore_properties_khr *sema_props, cl_int *errcode_ret);
cl_int CL_API_CALL disp_EnqueueWaitSemaphoresKHR(
   cl_command_queue command_queue, cl_uint num_sema_objects, const cl_semaphore_khr *sema_objects,
   const cl_semaphore_payload_khr *sema_payload_list, cl_uint num_events_in_wait_list,
   const cl_event *event_wait_list, cl_event *event);
cl_int CL_API_CALL disp_EnqueueSignalSemaphoresKHR(
   cl_command_queue command_queue, cl_uint num_sema_objects, const cl_semaphore_khr *sema_objects,
   const cl_semaphore_payload_khr *sema_payload_list, cl_uint num_events_in_wait_list,
   const cl_event *event_wait_list, cl_event *event);
cl_int CL_API_CALL disp_GetSemaphoreInfoKHR(cl_semaphore_khr sema_object,
                                           cl_semaphore_info_khr param_name,
                                           size_t param_value_size, void *param_value,
                                           size_t *param_value_size_ret);
cl_int CL_API_CALL disp_GetSemaphoreHandleForTypeKHR(
   cl_semaphore_khr sema_object, cl_device_id device,
   cl_external_semaphore_handle_type_khr handle_type, size_t handle_size, void *handle_ptr,
   size_t *handle_size_ret);
cl_int CL_API_CALL disp_RetainSemaphoreKHR(cl_semaphore_khr sema_object);
cl_int CL_API_CALL disp_ReleaseSemaphoreKHR(cl_semaphore_khr sema_object);

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
