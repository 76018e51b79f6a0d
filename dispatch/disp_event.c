/*
 * dispatch/disp_event.c — cl_event: status, callbacks, waiting, user events, queries and
 * profiling info (OpenCL 3.0 API §5.11–§5.14). Completion is driven by the command code
 * (disp_command.c) through disp_event_set_status(); waiters block on a condition variable.
 */
#include "dispatch/disp.h"
#include "dispatch/disp_priv.h"
#include "platform/plat.h"

#include <string.h>

static struct disp_pool event_pool = DISP_POOL_INIT(sizeof(struct _cl_event), DISP_POOL_MAX);
static const pthread_mutex_t event_lock_init = DISP_MUTEX_INITIALIZER;
static const pthread_cond_t event_cond_init = PTHREAD_COND_INITIALIZER;

cl_int
disp__event_create(struct _cl_context *ctx, struct _cl_command_queue *q, cl_command_type type,
                   struct _cl_event **out)
{
   struct _cl_event *ev = disp__pool_alloc(&event_pool);
   if (!ev)
      return ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "allocating an event");
   if (q) {
      cl_int err = rt_signal_get(&ev->signal);
      if (err != CL_SUCCESS) {
         disp__pool_free(&event_pool, ev);
         return err;
      }
   }
   icd_object_init(&ev->obj, ICD_TYPE_EVENT);
   atomic_init(&ev->status, q ? CL_QUEUED : CL_SUBMITTED);
   atomic_init(&ev->submitted, false);
   atomic_init(&ev->failing, 0);
   /* The initialisers' values (no attribute objects to build per event). */
   ev->lock = event_lock_init;
   ev->cond = event_cond_init;
   ev->command_type = type;
   ev->queue_hidden = false; /* pooled: not zeroed */
   ev->context = ctx;
   ev->holds_queue = false;
   if (q) {
      /* The queue holds the context (its own reference, until it is destroyed). A reference
       * on the queue is taken when the command is enqueued, and only for an event the
       * application gets (disp_command_enqueue): the caller holds q until then, its commands
       * in flight hold it after. One shared count less to move per quiet launch, on a line
       * the completion thread moves back. */
      ev->queue = q;
      ev->profiling = (q->properties & CL_QUEUE_PROFILING_ENABLE) != 0;
      if (ev->profiling)
         ev->times[DISP_TIME_QUEUED] = plat_host_timer_ns();
   } else {
      plat_context_retain_internal(ctx);
   }
   *out = ev;
   return CL_SUCCESS;
}

static void
event_destroy(struct _cl_event *ev)
{
   struct disp_event_callback *cb = ev->callbacks;
   while (cb) {
      struct disp_event_callback *next = cb->next;
      icd_free(cb);
      cb = next;
   }
   if (ev->signal.handle)
      rt_signal_put(ev->signal);
   pthread_cond_destroy(&ev->cond);
   pthread_mutex_destroy(&ev->lock);
   icd_object_finish(&ev->obj);
   if (ev->holds_queue)
      disp_queue_release_internal(ev->queue);
   else if (!ev->queue)
      plat_context_release_internal(ev->context);
   disp__pool_free(&event_pool, ev);
}

struct _cl_context *
disp_event_context(const struct _cl_event *ev)
{
   return ev->context;
}

void
disp_event_retain_internal(struct _cl_event *ev)
{
   icd_object_retain_internal(&ev->obj);
}

void
disp_event_release_internal(struct _cl_event *ev)
{
   if (icd_object_release_internal(&ev->obj))
      event_destroy(ev);
}

static bool
status_terminal(cl_int status)
{
   return status == CL_COMPLETE || status < 0;
}

void
disp_event_set_status(struct _cl_event *ev, cl_int status)
{
   disp__event_set_status(ev, status, true);
}

void
disp__event_set_status(struct _cl_event *ev, cl_int status, bool may_block)
{
   struct disp_event_callback *due = NULL, **tail = &due;
   pthread_mutex_lock(&ev->lock);
   cl_int old = atomic_load(&ev->status);
   /* Terminal states never change; statuses only move towards CL_COMPLETE. */
   if (status_terminal(old) || (status >= 0 && status >= old)) {
      pthread_mutex_unlock(&ev->lock);
      return;
   }
   /* Timestamps only matter for profiling (§5.14); the clock read is skipped otherwise. */
   cl_ulong now = ev->profiling ? plat_host_timer_ns() : 0;
   if (status <= CL_SUBMITTED && !ev->times[DISP_TIME_SUBMIT])
      ev->times[DISP_TIME_SUBMIT] = now;
   if (status <= CL_RUNNING && !ev->times[DISP_TIME_START])
      ev->times[DISP_TIME_START] = now;
   if (status_terminal(status)) {
      if (!ev->times[DISP_TIME_END])
         ev->times[DISP_TIME_END] = now;
      /* Device-clock END (converted) never exceeds COMPLETE. */
      ev->times[DISP_TIME_COMPLETE] = now > ev->times[DISP_TIME_END] ? now
                                                                   : ev->times[DISP_TIME_END];
      atomic_store(&ev->submitted, true);
   }
   atomic_store(&ev->status, status);
   /* Callbacks registered for a status now reached run once, those of earlier statuses
    * first when one call passes several (§5.11: a negative status runs every callback not
    * yet run, with that status). */
   for (cl_int level = CL_SUBMITTED; level >= (status < 0 ? CL_COMPLETE : status); level--) {
      struct disp_event_callback **link = &ev->callbacks;
      while (*link) {
         struct disp_event_callback *cb = *link;
         if (cb->status == level) {
            *link = cb->next;
            cb->next = NULL;
            *tail = cb;
            tail = &cb->next;
         } else {
            link = &cb->next;
         }
      }
   }
   /* Callbacks may release the event: hold it across them (and the broadcast). */
   disp_event_retain_internal(ev);
   pthread_mutex_unlock(&ev->lock);
   /* After the unlock: a woken waiter takes the lock at once instead of blocking on it
    * again. Waiters test the status under the lock, so each one either saw it or is
    * waiting by now. */
   pthread_cond_broadcast(&ev->cond);

   bool draining = due ? disp__pending_suspend() : false;
   while (due) {
      struct disp_event_callback *next = due->next;
      due->fn(disp_event_to_handle(ev), status < 0 ? status : due->status, due->user_data);
      icd_free(due);
      due = next;
   }
   if (draining)
      disp__pending_resume(draining);
   if (status_terminal(status))
      disp__pending_event_done(ev, may_block);
   disp_event_release_internal(ev);
}

bool
disp__event_when_terminal(struct _cl_event *ev, struct disp_event_callback *cb)
{
   cb->status = CL_COMPLETE; /* a negative status runs it too */
   pthread_mutex_lock(&ev->lock);
   bool registered = !status_terminal(atomic_load(&ev->status));
   if (registered) {
      cb->next = ev->callbacks;
      ev->callbacks = cb;
   }
   pthread_mutex_unlock(&ev->lock);
   return registered;
}

cl_int
disp_event_wait(struct _cl_event *ev)
{
   pthread_mutex_lock(&ev->lock);
   while (!status_terminal(atomic_load(&ev->status)))
      pthread_cond_wait(&ev->cond, &ev->lock);
   cl_int status = atomic_load(&ev->status);
   pthread_mutex_unlock(&ev->lock);
   return status;
}

cl_int
disp_validate_wait_list(const struct _cl_context *ctx, cl_uint num_events,
                        const cl_event *event_wait_list)
{
   if ((num_events == 0) != (event_wait_list == NULL))
      return ICD_ERROR(CL_INVALID_EVENT_WAIT_LIST, "num_events_in_wait_list %u with list %p",
                       num_events, (void *)event_wait_list);
   for (cl_uint i = 0; i < num_events; i++) {
      struct _cl_event *ev = disp_event_from_handle(event_wait_list[i]);
      if (!ev)
         return ICD_ERROR(CL_INVALID_EVENT_WAIT_LIST, "event_wait_list[%u] = %p is not an event",
                          i, (void *)event_wait_list[i]);
      if (ctx && ev->context != ctx)
         return ICD_ERROR(CL_INVALID_CONTEXT, "event_wait_list[%u] belongs to another context",
                          i);
   }
   return CL_SUCCESS;
}

/* ---- entry points ------------------------------------------------------------------ */

#define EVENT_OR_RETURN(ev, handle)                                                          \
   struct _cl_event *ev = disp_event_from_handle(handle);                                   \
   if (!ev)                                                                                 \
      return ICD_ERROR(CL_INVALID_EVENT, "event %p is not an hsacl event", (void *)(handle));

cl_int CL_API_CALL
disp_WaitForEvents(cl_uint num_events, const cl_event *event_list)
{
   if (num_events == 0 || !event_list)
      return ICD_ERROR(CL_INVALID_VALUE, "num_events %u, event_list %p", num_events,
                       (void *)event_list);
   const struct _cl_context *ctx = NULL;
   for (cl_uint i = 0; i < num_events; i++) {
      struct _cl_event *ev = disp_event_from_handle(event_list[i]);
      if (!ev)
         return ICD_ERROR(CL_INVALID_EVENT, "event_list[%u] = %p is not an event", i,
                          (void *)event_list[i]);
      if (ctx && ev->context != ctx)
         return ICD_ERROR(CL_INVALID_CONTEXT, "events of event_list belong to several contexts");
      ctx = ev->context;
   }
   if (disp__in_completion()) {
      for (cl_uint i = 0; i < num_events; i++)
         if (!status_terminal(atomic_load(&disp_event_from_handle(event_list[i])->status)))
            return ICD_ERROR(CL_INVALID_OPERATION, "clWaitForEvents in an event callback run "
                             "by the completion thread: it would wait for itself");
   }
   /* §5.11: commands are flushed (hsacl submits at enqueue, and held ones whose
    * dependencies resolved go now), then the host blocks. */
   disp__pending_event_done(NULL, true);
   cl_int result = CL_SUCCESS;
   for (cl_uint i = 0; i < num_events; i++) {
      if (disp_event_wait(disp_event_from_handle(event_list[i])) < 0)
         result = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
   }
   if (result != CL_SUCCESS)
      return ICD_ERROR(result, "an event of the list failed");
   return CL_SUCCESS;
}

cl_int CL_API_CALL
disp_GetEventInfo(cl_event event, cl_event_info param_name, size_t param_value_size,
                  void *param_value, size_t *param_value_size_ret)
{
   EVENT_OR_RETURN(ev, event);
   switch (param_name) {
   case CL_EVENT_COMMAND_QUEUE:
      return ICD_GET_INFO_SCALAR(cl_command_queue,
                                 ev->queue_hidden ? NULL : (cl_command_queue)ev->queue,
                                 param_value_size, param_value, param_value_size_ret);
   case CL_EVENT_CONTEXT:
      return ICD_GET_INFO_SCALAR(cl_context, (cl_context)ev->context, param_value_size,
                                 param_value, param_value_size_ret);
   case CL_EVENT_COMMAND_TYPE:
      return ICD_GET_INFO_SCALAR(cl_command_type, ev->command_type, param_value_size,
                                 param_value, param_value_size_ret);
   case CL_EVENT_COMMAND_EXECUTION_STATUS:
      return ICD_GET_INFO_SCALAR(cl_int, atomic_load(&ev->status), param_value_size,
                                 param_value, param_value_size_ret);
   case CL_EVENT_REFERENCE_COUNT:
      return ICD_GET_INFO_SCALAR(cl_uint, icd_object_refcount(&ev->obj), param_value_size,
                                 param_value, param_value_size_ret);
   default:
      return ICD_ERROR(CL_INVALID_VALUE, "unknown event query 0x%x", (unsigned)param_name);
   }
}

cl_int CL_API_CALL
disp_RetainEvent(cl_event event)
{
   EVENT_OR_RETURN(ev, event);
   icd_object_retain(&ev->obj);
   return CL_SUCCESS;
}

cl_int CL_API_CALL
disp_ReleaseEvent(cl_event event)
{
   EVENT_OR_RETURN(ev, event);
   if (icd_object_release(&ev->obj))
      disp_event_release_internal(ev);
   return CL_SUCCESS;
}

cl_int CL_API_CALL
disp_GetEventProfilingInfo(cl_event event, cl_profiling_info param_name,
                           size_t param_value_size, void *param_value,
                           size_t *param_value_size_ret)
{
   EVENT_OR_RETURN(ev, event);
   if (!ev->queue || !ev->profiling)
      return ICD_ERROR(CL_PROFILING_INFO_NOT_AVAILABLE,
                       "event of a %s without CL_QUEUE_PROFILING_ENABLE",
                       ev->queue ? "queue" : "user event");
   if (atomic_load(&ev->status) != CL_COMPLETE)
      return ICD_ERROR(CL_PROFILING_INFO_NOT_AVAILABLE, "the command is not complete");
   int slot;
   switch (param_name) {
   case CL_PROFILING_COMMAND_QUEUED:
      slot = DISP_TIME_QUEUED;
      break;
   case CL_PROFILING_COMMAND_SUBMIT:
      slot = DISP_TIME_SUBMIT;
      break;
   case CL_PROFILING_COMMAND_START:
      slot = DISP_TIME_START;
      break;
   case CL_PROFILING_COMMAND_END:
      slot = DISP_TIME_END;
      break;
   case CL_PROFILING_COMMAND_COMPLETE:
      slot = DISP_TIME_COMPLETE;
      break;
   default:
      return ICD_ERROR(CL_INVALID_VALUE, "unknown profiling query 0x%x", (unsigned)param_name);
   }
   return ICD_GET_INFO_SCALAR(cl_ulong, ev->times[slot], param_value_size, param_value,
                              param_value_size_ret);
}

cl_event CL_API_CALL
disp_CreateUserEvent(cl_context context, cl_int *errcode_ret)
{
   struct _cl_context *ctx = plat_context_from_handle(context);
   if (!ctx) {
      icd_set_errcode(errcode_ret, ICD_ERROR(CL_INVALID_CONTEXT, "context %p is not valid",
                                             (void *)context));
      return NULL;
   }
   struct _cl_event *ev = NULL;
   cl_int err = disp__event_create(ctx, NULL, CL_COMMAND_USER, &ev);
   icd_set_errcode(errcode_ret, err);
   return err == CL_SUCCESS ? disp_event_to_handle(ev) : NULL;
}

cl_int CL_API_CALL
disp_SetUserEventStatus(cl_event event, cl_int execution_status)
{
   EVENT_OR_RETURN(ev, event);
   if (ev->command_type != CL_COMMAND_USER || ev->queue)
      return ICD_ERROR(CL_INVALID_EVENT, "event %p is not a user event", (void *)event);
   if (execution_status != CL_COMPLETE && execution_status >= 0)
      return ICD_ERROR(CL_INVALID_VALUE, "execution_status %d is neither CL_COMPLETE nor "
                       "negative", execution_status);
   pthread_mutex_lock(&ev->lock);
   bool already = status_terminal(atomic_load(&ev->status));
   pthread_mutex_unlock(&ev->lock);
   if (already)
      return ICD_ERROR(CL_INVALID_OPERATION, "the user event's status was already set");
   disp_event_set_status(ev, execution_status);
   return CL_SUCCESS;
}

cl_int CL_API_CALL
disp_SetEventCallback(cl_event event, cl_int command_exec_callback_type,
                      disp_event_notify_fn pfn_notify, void *user_data)
{
   EVENT_OR_RETURN(ev, event);
   if (!pfn_notify)
      return ICD_ERROR(CL_INVALID_VALUE, "pfn_notify is NULL");
   if (command_exec_callback_type != CL_SUBMITTED && command_exec_callback_type != CL_RUNNING &&
       command_exec_callback_type != CL_COMPLETE)
      return ICD_ERROR(CL_INVALID_VALUE, "command_exec_callback_type %d is not CL_SUBMITTED, "
                       "CL_RUNNING or CL_COMPLETE", command_exec_callback_type);
   struct disp_event_callback *cb = icd_malloc(sizeof(*cb));
   if (!cb)
      return ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "allocating an event callback");
   cb->status = command_exec_callback_type;
   cb->fn = pfn_notify;
   cb->user_data = user_data;
   pthread_mutex_lock(&ev->lock);
   cl_int status = atomic_load(&ev->status);
   if (status <= command_exec_callback_type) {
      /* Already reached: call now, on this thread (§5.11 allows it). */
      pthread_mutex_unlock(&ev->lock);
      pfn_notify(event, status < 0 ? status : command_exec_callback_type, user_data);
      icd_free(cb);
      return CL_SUCCESS;
   }
   cb->next = ev->callbacks;
   ev->callbacks = cb;
   pthread_mutex_unlock(&ev->lock);
   return CL_SUCCESS;
}
