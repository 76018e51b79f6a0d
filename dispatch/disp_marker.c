/*
 * dispatch/disp_marker.c — markers, barriers and the OpenCL 1.x wait/marker/barrier
 * commands (OpenCL 3.0 API §5.13). A marker or barrier with no wait list waits for every
 * command enqueued before it; a barrier also orders every command enqueued after it.
 */
#include "dispatch/disp.h"
#include "dispatch/disp_priv.h"
#include "platform/plat.h"

/* Snapshot of the queue's outstanding commands' events, as a wait list (API handles): those
 * held back or running outside the AQL ring (q->commands) and those in the completion FIFO.
 * submit_lock keeps a command from moving between the two meanwhile (disp_command.c). */
static cl_int
outstanding_events(struct _cl_command_queue *q, cl_event **list, cl_uint *count)
{
   cl_int err = CL_SUCCESS;
   *list = NULL;
   *count = 0;
   pthread_mutex_lock(&q->submit_lock);
   pthread_mutex_lock(&q->lock);
   pthread_mutex_lock(&q->fifo_lock);
   cl_uint n = 0;
   for (struct disp_command *c = q->commands; c; c = c->next_in_queue)
      n++;
   for (struct disp_fifo_node *node = atomic_load(&q->fifo_head); node;
        node = atomic_load(&node->next))
      n += disp__fifo_command(q, node) != NULL;
   if (n) {
      *list = icd_malloc(n * sizeof(cl_event));
      if (!*list) {
         err = ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "allocating a marker's wait list");
         goto out_unlock;
      }
      for (struct disp_command *c = q->commands; c; c = c->next_in_queue)
         (*list)[(*count)++] = disp_event_to_handle(c->event);
      /* Pushes after the count above are not ours to wait for (a concurrent enqueue). */
      for (struct disp_fifo_node *node = atomic_load(&q->fifo_head); node && *count < n;
           node = atomic_load(&node->next)) {
         struct disp_command *c = disp__fifo_command(q, node);
         if (c)
            (*list)[(*count)++] = disp_event_to_handle(c->event);
      }
   }
   /* Keep them alive until the command has taken its own references. */
   for (cl_uint i = 0; i < *count; i++)
      disp_event_retain_internal(disp_event_from_handle((*list)[i]));
out_unlock:
   pthread_mutex_unlock(&q->fifo_lock);
   pthread_mutex_unlock(&q->lock);
   pthread_mutex_unlock(&q->submit_lock);
   return err;
}

static cl_int
enqueue_marker(struct _cl_command_queue *q, cl_command_type type, bool barrier,
               cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
   const bool in_order = !(q->properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
   cl_event *all = NULL;
   cl_uint all_count = 0;
   cl_int err;
   /* In an in-order queue the predecessor covers everything before. */
   if (num_events == 0 && !in_order) {
      err = outstanding_events(q, &all, &all_count);
      if (err != CL_SUCCESS)
         return err;
      wait_list = all;
      num_events = all_count;
   }
   struct disp_command *cmd = NULL;
   err = disp_command_create(q, type, num_events, wait_list, &cmd);
   for (cl_uint i = 0; i < all_count; i++)
      disp_event_release_internal(disp_event_from_handle(all[i]));
   icd_free(all);
   if (err != CL_SUCCESS)
      return err;
   cmd->kind = DISP_COMMAND_HOST;
   if (barrier && !in_order) {
      pthread_mutex_lock(&q->lock);
      disp_event_retain_internal(cmd->event);
      struct _cl_event *old = atomic_exchange(&q->barrier_event, cmd->event);
      pthread_mutex_unlock(&q->lock);
      if (old)
         disp_event_release_internal(old);
   }
   return disp_command_enqueue(cmd, event, false);
}

cl_int CL_API_CALL
disp_EnqueueMarkerWithWaitList(cl_command_queue command_queue, cl_uint num_events_in_wait_list,
                               const cl_event *event_wait_list, cl_event *event)
{
   QUEUE_OR_RETURN(q, command_queue);
   cl_int err = disp_validate_wait_list(q->context, num_events_in_wait_list, event_wait_list);
   if (err != CL_SUCCESS)
      return err;
   return enqueue_marker(q, CL_COMMAND_MARKER, false, num_events_in_wait_list, event_wait_list,
                         event);
}

cl_int CL_API_CALL
disp_EnqueueBarrierWithWaitList(cl_command_queue command_queue, cl_uint num_events_in_wait_list,
                                const cl_event *event_wait_list, cl_event *event)
{
   QUEUE_OR_RETURN(q, command_queue);
   cl_int err = disp_validate_wait_list(q->context, num_events_in_wait_list, event_wait_list);
   if (err != CL_SUCCESS)
      return err;
   return enqueue_marker(q, CL_COMMAND_BARRIER, true, num_events_in_wait_list, event_wait_list,
                         event);
}

cl_int CL_API_CALL
disp_EnqueueMarker(cl_command_queue command_queue, cl_event *event)
{
   QUEUE_OR_RETURN(q, command_queue);
   if (!event)
      return ICD_ERROR(CL_INVALID_VALUE, "event is NULL");
   return enqueue_marker(q, CL_COMMAND_MARKER, false, 0, NULL, event);
}

cl_int CL_API_CALL
disp_EnqueueBarrier(cl_command_queue command_queue)
{
   QUEUE_OR_RETURN(q, command_queue);
   return enqueue_marker(q, CL_COMMAND_BARRIER, true, 0, NULL, NULL);
}

cl_int CL_API_CALL
disp_EnqueueWaitForEvents(cl_command_queue command_queue, cl_uint num_events,
                          const cl_event *event_list)
{
   QUEUE_OR_RETURN(q, command_queue);
   if (num_events == 0 || !event_list)
      return ICD_ERROR(CL_INVALID_VALUE, "num_events %u, event_list %p", num_events,
                       (void *)event_list);
   cl_int err = disp_validate_wait_list(q->context, num_events, event_list);
   if (err == CL_INVALID_EVENT_WAIT_LIST)
      return ICD_ERROR(CL_INVALID_EVENT, "event_list holds an invalid event");
   if (err != CL_SUCCESS)
      return err;
   /* A barrier on those events: later commands wait for them. */
   return enqueue_marker(q, CL_COMMAND_BARRIER, true, num_events, event_list, NULL);
}
