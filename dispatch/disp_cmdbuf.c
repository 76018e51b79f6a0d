/*
 * dispatch/disp_cmdbuf.c — the command-buffer object (cl_khr_command_buffer 0.9.8):
 * create, finalize, retain/release, info, and the replay of clEnqueueCommandBufferKHR.
 * Recording is disp_cmdbuf_record.c; mutable dispatch is disp_cmdbuf_mutable.c. Design:
 * docs/cmdbuf.md.
 *
 * A replay on one queue of a command buffer of kernels is one command over packets built at
 * finalize (disp_cmdbuf_image.c). Otherwise a replay enqueues each recorded command through
 * the entry point that recorded it, with
 * the parameters checked at record time (a kernel through the launch planned at record
 * time, unchecked), on the queue it was recorded for (or its substitute): the command,
 * queue and event core is the one every enqueue uses. Sync points
 * become event wait lists; the returned event is a host command of type
 * CL_COMMAND_COMMAND_BUFFER_KHR that completes after every command of the replay.
 */
#include "dispatch/disp.h"
#include "dispatch/disp_priv.h"
#include "compiler/comp.h"
#include "memory/mem.h"
#include "platform/plat.h"

#include <string.h>

/* ---- creation ------------------------------------------------------------------------ */

/* CL_INCOMPATIBLE_COMMAND_QUEUE_KHR unless `q` has the properties a command buffer needs. */
static cl_int
check_queue_properties(const struct _cl_command_queue *q)
{
   const cl_command_queue_properties p = q->properties;
   if ((p & ICD_CMDBUF_REQUIRED_QUEUE_PROPERTIES) != ICD_CMDBUF_REQUIRED_QUEUE_PROPERTIES)
      return ICD_ERROR(CL_INCOMPATIBLE_COMMAND_QUEUE_KHR,
                       "queue %p lacks the properties "
                       "command buffers require",
                       (void *)q);
   if (p & ~(cl_command_queue_properties)ICD_CMDBUF_SUPPORTED_QUEUE_PROPERTIES)
      return ICD_ERROR(
         CL_INCOMPATIBLE_COMMAND_QUEUE_KHR,
         "queue %p has properties 0x%llx "
         "command buffers do not support",
         (void *)q,
         (unsigned long long)(p &
                              ~(cl_command_queue_properties)ICD_CMDBUF_SUPPORTED_QUEUE_PROPERTIES));
   return CL_SUCCESS;
}

/* The flags a device supports in CL_COMMAND_BUFFER_FLAGS_KHR: simultaneous use always (a
 * replay shares nothing with another), mutable commands and device-side sync with their
 * extensions. */
static cl_command_buffer_flags_khr
supported_flags(const struct _cl_device_id *dev)
{
   cl_command_buffer_flags_khr f = CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR;
   if (plat_device_has_extension(dev, "cl_khr_command_buffer_mutable_dispatch"))
      f |= CL_COMMAND_BUFFER_MUTABLE_KHR;
   /* Every device syncs with every other on the device side (CL_DEVICE_COMMAND_BUFFER_
    * SYNC_DEVICES_KHR lists them all). */
   if (plat_device_has_extension(dev, "cl_khr_command_buffer_multi_device"))
      f |= CL_COMMAND_BUFFER_DEVICE_SIDE_SYNC_KHR;
   return f;
}

static bool
flag_known(cl_command_buffer_flags_khr f)
{
   return !(f & ~(cl_command_buffer_flags_khr)(CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR |
                                               CL_COMMAND_BUFFER_MUTABLE_KHR |
                                               CL_COMMAND_BUFFER_DEVICE_SIDE_SYNC_KHR));
}

/* The properties list: CL_INVALID_VALUE for an unknown or repeated name or an unknown flag,
 * CL_INVALID_PROPERTY for a known flag the devices do not support. */
static cl_int
parse_properties(const cl_command_buffer_properties_khr *props, struct _cl_command_queue **queues,
                 cl_uint num_queues, struct _cl_command_buffer_khr *cb)
{
   cb->num_props = 0;
   cb->flags = 0;
   if (!props)
      return CL_SUCCESS;
   bool seen_flags = false, seen_asserts = false;
   cl_uint n = 0;
   for (; props[n]; n += 2) {
      if (n + 3 > sizeof(cb->props) / sizeof(cb->props[0]))
         return ICD_ERROR(CL_INVALID_VALUE, "too many command-buffer properties");
      switch (props[n]) {
      case CL_COMMAND_BUFFER_FLAGS_KHR:
         if (seen_flags)
            return ICD_ERROR(CL_INVALID_VALUE, "CL_COMMAND_BUFFER_FLAGS_KHR given twice");
         seen_flags = true;
         if (!flag_known(props[n + 1]))
            return ICD_ERROR(CL_INVALID_VALUE, "unknown command-buffer flags 0x%llx",
                             (unsigned long long)props[n + 1]);
         cb->flags = props[n + 1];
         break;
      case CL_COMMAND_BUFFER_MUTABLE_DISPATCH_ASSERTS_KHR:
         if (seen_asserts)
            return ICD_ERROR(CL_INVALID_VALUE, "CL_COMMAND_BUFFER_MUTABLE_DISPATCH_ASSERTS_KHR "
                                               "given twice");
         seen_asserts = true;
         if (props[n + 1] & ~(cl_command_buffer_properties_khr)
                               CL_MUTABLE_DISPATCH_ASSERT_NO_ADDITIONAL_WORK_GROUPS_KHR)
            return ICD_ERROR(CL_INVALID_VALUE, "unknown mutable-dispatch asserts");
         break;
      default:
         return ICD_ERROR(CL_INVALID_VALUE, "unknown command-buffer property 0x%llx",
                          (unsigned long long)props[n]);
      }
   }
   for (cl_uint i = 0; i < num_queues; i++) {
      if (cb->flags & ~supported_flags(queues[i]->device))
         return ICD_ERROR(CL_INVALID_PROPERTY,
                          "command-buffer flags 0x%llx not supported by "
                          "%s",
                          (unsigned long long)cb->flags, queues[i]->device->name);
   }
   memcpy(cb->props, props, (n + 1) * sizeof(*props));
   cb->num_props = n + 1;
   return CL_SUCCESS;
}

static void
cmdbuf_destroy(struct _cl_command_buffer_khr *cb)
{
   disp__cmdbuf_image_drop_locked(cb); /* no other thread has cb any more */
   for (cl_uint i = 0; i < cb->num_commands; i++)
      disp__cmdbuf_command_finish(&cb->commands[i]);
   icd_free(cb->commands);
   for (cl_uint i = 0; i < cb->num_queues; i++)
      disp_queue_release_internal(cb->queues[i]);
   if (cb->context)
      plat_context_release_internal(cb->context);
   pthread_mutex_destroy(&cb->lock);
   icd_object_finish(&cb->obj);
   icd_free(cb);
}

/* Whether the devices of `queues` may share a command buffer: one device, or several when
 * cl_khr_command_buffer_multi_device is reported by all of them. */
static bool
multi_device_ok(struct _cl_command_queue **queues, cl_uint n)
{
   for (cl_uint i = 0; i < n; i++)
      if (!plat_device_has_extension(queues[i]->device, "cl_khr_command_buffer_multi_device"))
         return false;
   return true;
}

/* Returns a new API reference. */
cl_command_buffer_khr CL_API_CALL
disp_CreateCommandBufferKHR(cl_uint num_queues, const cl_command_queue *queues,
                            const cl_command_buffer_properties_khr *properties, cl_int *errcode_ret)
{
   cl_int err;
   struct _cl_command_queue *qs[DISP_CMDBUF_MAX_QUEUES];
   if (!queues || num_queues == 0) {
      err = ICD_ERROR(CL_INVALID_VALUE, "queues is NULL or num_queues is 0");
      goto out_err;
   }
   for (cl_uint i = 0; i < num_queues && i < DISP_CMDBUF_MAX_QUEUES; i++) {
      qs[i] = disp_queue_from_handle(queues[i]);
      if (!qs[i] || qs[i]->devq) {
         err = ICD_ERROR(CL_INVALID_COMMAND_QUEUE, "queues[%u] is not a host queue", i);
         goto out_err;
      }
   }
   if (num_queues > DISP_CMDBUF_MAX_QUEUES ||
       (num_queues > 1 && !multi_device_ok(qs, num_queues))) {
      err = ICD_ERROR(CL_INVALID_VALUE,
                      "num_queues %u: a command buffer has one queue without "
                      "cl_khr_command_buffer_multi_device",
                      num_queues);
      goto out_err;
   }
   for (cl_uint i = 1; i < num_queues; i++) {
      if (qs[i]->context != qs[0]->context) {
         err = ICD_ERROR(CL_INVALID_CONTEXT, "queues of different contexts");
         goto out_err;
      }
   }
   for (cl_uint i = 0; i < num_queues; i++) {
      err = check_queue_properties(qs[i]);
      if (err != CL_SUCCESS)
         goto out_err;
   }
   struct _cl_command_buffer_khr *cb = icd_calloc(1, sizeof(*cb));
   if (!cb) {
      err = ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "allocating a command buffer");
      goto out_err;
   }
   err = parse_properties(properties, qs, num_queues, cb);
   if (err != CL_SUCCESS) {
      icd_free(cb);
      goto out_err;
   }
   icd_object_init(&cb->obj, ICD_TYPE_COMMAND_BUFFER);
   pthread_mutex_init(&cb->lock, NULL);
   cb->context = qs[0]->context;
   plat_context_retain_internal(cb->context);
   cb->num_queues = num_queues;
   for (cl_uint i = 0; i < num_queues; i++) {
      cb->queues[i] = qs[i];
      disp_queue_retain_internal(qs[i]);
   }
   icd_set_errcode(errcode_ret, CL_SUCCESS);
   return disp_cmdbuf_to_handle(cb);
out_err:
   icd_set_errcode(errcode_ret, err);
   return NULL;
}

cl_int CL_API_CALL
disp_FinalizeCommandBufferKHR(cl_command_buffer_khr command_buffer)
{
   struct _cl_command_buffer_khr *cb = disp_cmdbuf_from_handle(command_buffer);
   if (!cb)
      return ICD_ERROR(CL_INVALID_COMMAND_BUFFER_KHR, "%p is not a command buffer",
                       (void *)command_buffer);
   cl_int err = CL_SUCCESS;
   pthread_mutex_lock(&cb->lock);
   if (cb->finalized) {
      err = ICD_ERROR(CL_INVALID_OPERATION, "the command buffer is already finalized");
   } else {
      cb->finalized = true;
      disp__cmdbuf_image_refresh_locked(cb, NULL, 0);
   }
   pthread_mutex_unlock(&cb->lock);
   return err;
}

cl_int CL_API_CALL
disp_RetainCommandBufferKHR(cl_command_buffer_khr command_buffer)
{
   struct _cl_command_buffer_khr *cb = disp_cmdbuf_from_handle(command_buffer);
   if (!cb)
      return ICD_ERROR(CL_INVALID_COMMAND_BUFFER_KHR, "%p is not a command buffer",
                       (void *)command_buffer);
   icd_object_retain(&cb->obj);
   return CL_SUCCESS;
}

/* The replays in flight hold nothing of the command buffer: each enqueued command holds
 * its own references, so the last API release destroys it at once. */
cl_int CL_API_CALL
disp_ReleaseCommandBufferKHR(cl_command_buffer_khr command_buffer)
{
   struct _cl_command_buffer_khr *cb = disp_cmdbuf_from_handle(command_buffer);
   if (!cb)
      return ICD_ERROR(CL_INVALID_COMMAND_BUFFER_KHR, "%p is not a command buffer",
                       (void *)command_buffer);
   if (icd_object_release(&cb->obj))
      cmdbuf_destroy(cb);
   return CL_SUCCESS;
}

cl_int CL_API_CALL
disp_GetCommandBufferInfoKHR(cl_command_buffer_khr command_buffer,
                             cl_command_buffer_info_khr param_name, size_t param_value_size,
                             void *param_value, size_t *param_value_size_ret)
{
   struct _cl_command_buffer_khr *cb = disp_cmdbuf_from_handle(command_buffer);
   if (!cb)
      return ICD_ERROR(CL_INVALID_COMMAND_BUFFER_KHR, "%p is not a command buffer",
                       (void *)command_buffer);
   const size_t pvs = param_value_size;
   void *pv = param_value;
   size_t *pvsr = param_value_size_ret;
   switch (param_name) {
   case CL_COMMAND_BUFFER_QUEUES_KHR: {
      cl_command_queue qs[DISP_CMDBUF_MAX_QUEUES];
      for (cl_uint i = 0; i < cb->num_queues; i++)
         qs[i] = disp_queue_to_handle(cb->queues[i]);
      return icd_get_info(qs, cb->num_queues * sizeof(qs[0]), pvs, pv, pvsr);
   }
   case CL_COMMAND_BUFFER_NUM_QUEUES_KHR:
      return ICD_GET_INFO_SCALAR(cl_uint, cb->num_queues, pvs, pv, pvsr);
   case CL_COMMAND_BUFFER_REFERENCE_COUNT_KHR:
      return ICD_GET_INFO_SCALAR(cl_uint, icd_object_refcount(&cb->obj), pvs, pv, pvsr);
   case CL_COMMAND_BUFFER_STATE_KHR: {
      pthread_mutex_lock(&cb->lock);
      cl_command_buffer_state_khr s = !cb->finalized ? CL_COMMAND_BUFFER_STATE_RECORDING_KHR
                                      : disp__cmdbuf_args_pending_locked(cb)
                                         ? CL_COMMAND_BUFFER_STATE_FINALIZED_KHR
                                         : CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR;
      pthread_mutex_unlock(&cb->lock);
      return ICD_GET_INFO_SCALAR(cl_command_buffer_state_khr, s, pvs, pv, pvsr);
   }
   case CL_COMMAND_BUFFER_PROPERTIES_ARRAY_KHR:
      return icd_get_info(cb->props, cb->num_props * sizeof(cb->props[0]), pvs, pv, pvsr);
   case CL_COMMAND_BUFFER_CONTEXT_KHR:
      return ICD_GET_INFO_SCALAR(cl_context, plat_context_to_handle(cb->context), pvs, pv, pvsr);
   default:
      return ICD_ERROR(CL_INVALID_VALUE, "unknown command-buffer info 0x%x", param_name);
   }
}

bool
disp__cmdbuf_args_pending_locked(const struct _cl_command_buffer_khr *cb)
{
   for (cl_uint i = 0; i < cb->num_commands; i++)
      if (cb->commands[i].launch && cb->commands[i].launch->args_pending)
         return true;
   return false;
}

/* ---- replay -------------------------------------------------------------------------- */

/* The queues a replay runs on: the command buffer's, or `queues` when given, checked as
 * §clEnqueueCommandBufferKHR lists. */
static cl_int
replay_queues(const struct _cl_command_buffer_khr *cb, cl_uint num_queues, cl_command_queue *queues,
              struct _cl_command_queue **out)
{
   if ((num_queues == 0) != (queues == NULL))
      return ICD_ERROR(CL_INVALID_VALUE, "queues and num_queues disagree");
   if (queues && num_queues != cb->num_queues)
      return ICD_ERROR(CL_INVALID_VALUE, "num_queues %u, the command buffer has %u", num_queues,
                       cb->num_queues);
   for (cl_uint i = 0; i < cb->num_queues; i++) {
      struct _cl_command_queue *q = cb->queues[i];
      if (queues) {
         q = disp_queue_from_handle(queues[i]);
         if (!q || q->devq)
            return ICD_ERROR(CL_INVALID_COMMAND_QUEUE, "queues[%u] is not a host queue", i);
         if (q->context != cb->context)
            return ICD_ERROR(CL_INVALID_CONTEXT, "queues[%u] is of another context", i);
         if (q->device != cb->queues[i]->device)
            return ICD_ERROR(CL_INCOMPATIBLE_COMMAND_QUEUE_KHR,
                             "queues[%u] is of another "
                             "device than the queue the command buffer was recorded for",
                             i);
      }
      cl_int err = check_queue_properties(q);
      if (err != CL_SUCCESS)
         return err;
      out[i] = q;
   }
   return CL_SUCCESS;
}

static bool
queue_in_order(const struct _cl_command_queue *q)
{
   return !(q->properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
}

/* One replay's state: the event of each command (NULL when nobody needs it) and the wait
 * list being built. */
struct replay {
   struct _cl_command_queue **queues;
   cl_uint num_queues;
   bool serial;      /* one in-order queue: the queue orders the commands itself */
   bool chain;       /* recorded on an in-order queue but replayed out of order: each
                      * command also waits for the one before it */
   cl_event *events; /* per command */
   cl_event floor;   /* the latest barrier's event: every later command waits for it */
   cl_event last;
   const cl_event *base;
   cl_uint num_base;
   cl_event *wait; /* scratch */
};

static cl_int
replay_one(struct replay *r, const struct disp_cmdbuf_command *c, cl_uint index, bool want_event)
{
   cl_uint n = 0;
   if (!r->serial || index == 0) {
      for (cl_uint i = 0; i < r->num_base; i++)
         r->wait[n++] = r->base[i];
   }
   for (cl_uint i = 0; i < c->num_waits; i++)
      if (r->events[c->waits[i]])
         r->wait[n++] = r->events[c->waits[i]];
   if (r->floor && !r->serial)
      r->wait[n++] = r->floor;
   if (r->chain && r->last)
      r->wait[n++] = r->last;
   struct _cl_command_queue *qs = r->queues[c->queue_index];
   cl_command_queue q = disp_queue_to_handle(qs);
   const cl_event *wl = n ? r->wait : NULL;
   cl_event *ev = want_event ? &r->events[index] : NULL;
   switch (c->kind) {
   case DISP_CB_BARRIER: {
      /* Waits for its sync points, or for every command before it; orders every command
       * after it. Not a queue barrier: commands outside the command buffer are not
       * ordered by it. */
      if (c->num_waits == 0 && !r->serial) {
         for (cl_uint i = 0; i < index; i++)
            if (r->events[i])
               r->wait[n++] = r->events[i];
         wl = n ? r->wait : NULL;
      }
      cl_int err = disp_EnqueueMarkerWithWaitList(q, n, wl, &r->events[index]);
      if (err == CL_SUCCESS)
         r->floor = r->events[index];
      return err;
   }
   case DISP_CB_COPY:
      return mem_EnqueueCopyBuffer(q, c->src, c->dst, c->src_offset, c->dst_offset, c->size, n, wl,
                                   ev);
   case DISP_CB_COPY_RECT:
      return mem_EnqueueCopyBufferRect(q, c->src, c->dst, c->src_origin, c->dst_origin, c->region,
                                       c->src_row_pitch, c->src_slice_pitch, c->dst_row_pitch,
                                       c->dst_slice_pitch, n, wl, ev);
   case DISP_CB_COPY_BUFFER_TO_IMAGE:
      return mem_EnqueueCopyBufferToImage(q, c->src, c->dst, c->src_offset, c->dst_origin,
                                          c->region, n, wl, ev);
   case DISP_CB_COPY_IMAGE:
      return mem_EnqueueCopyImage(q, c->src, c->dst, c->src_origin, c->dst_origin, c->region, n, wl,
                                  ev);
   case DISP_CB_COPY_IMAGE_TO_BUFFER:
      return mem_EnqueueCopyImageToBuffer(q, c->src, c->dst, c->src_origin, c->region,
                                          c->dst_offset, n, wl, ev);
   case DISP_CB_FILL:
      return mem_EnqueueFillBuffer(q, c->dst, c->pattern, c->pattern_size, c->dst_offset, c->size,
                                   n, wl, ev);
   case DISP_CB_FILL_IMAGE:
      return mem_EnqueueFillImage(q, c->dst, c->pattern, c->dst_origin, c->region, n, wl, ev);
   case DISP_CB_SVM_COPY:
      return mem_EnqueueSVMMemcpy(q, CL_FALSE, c->dst_ptr, c->src_ptr, c->size, n, wl, ev);
   case DISP_CB_SVM_FILL:
      return mem_EnqueueSVMMemFill(q, c->dst_ptr, c->pattern, c->pattern_size, c->size, n, wl, ev);
   case DISP_CB_KERNEL:
      return disp__launch_enqueue_plan(qs, &c->launch->plan, n, wl, ev);
   }
   return ICD_ERROR(CL_INVALID_OPERATION, "unknown recorded command %d", (int)c->kind);
}

/* The replay's event: a host command of type CL_COMMAND_COMMAND_BUFFER_KHR on the first
 * queue that completes after every command of the replay (on one in-order queue, after the
 * last one, which the queue orders before it). */
static cl_int
replay_join(struct replay *r, cl_uint num_commands, cl_event *event)
{
   cl_uint n = 0;
   if (!r->serial || num_commands == 0) {
      for (cl_uint i = 0; i < r->num_base; i++)
         r->wait[n++] = r->base[i];
   }
   if (!r->serial) {
      for (cl_uint i = 0; i < num_commands; i++)
         if (r->events[i])
            r->wait[n++] = r->events[i];
   }
   struct disp_command *cmd = NULL;
   cl_int err =
      disp_command_create(r->queues[0], CL_COMMAND_COMMAND_BUFFER_KHR, n, n ? r->wait : NULL, &cmd);
   if (err != CL_SUCCESS)
      return err;
   cmd->kind = DISP_COMMAND_HOST;
   /* multi_device: the event of a replay over several queues belongs to none of them. */
   cmd->event->queue_hidden = r->num_queues > 1;
   return disp_command_enqueue(cmd, event, false);
}

/* Whether command `i`'s event is needed: another command waits for it, or the commands are
 * not ordered by one in-order queue (the join and the barriers wait for every command). */
static bool
event_needed(const struct _cl_command_buffer_khr *cb, const struct replay *r, cl_uint i)
{
   return !r->serial || r->chain || cb->commands[i].referenced;
}

cl_int CL_API_CALL
disp_EnqueueCommandBufferKHR(cl_uint num_queues, cl_command_queue *queues,
                             cl_command_buffer_khr command_buffer, cl_uint num_events_in_wait_list,
                             const cl_event *event_wait_list, cl_event *event)
{
   struct _cl_command_buffer_khr *cb = disp_cmdbuf_from_handle(command_buffer);
   if (!cb)
      return ICD_ERROR(CL_INVALID_COMMAND_BUFFER_KHR, "%p is not a command buffer",
                       (void *)command_buffer);
   pthread_mutex_lock(&cb->lock);
   const bool finalized = cb->finalized, pending = disp__cmdbuf_args_pending_locked(cb);
   pthread_mutex_unlock(&cb->lock);
   if (!finalized)
      return ICD_ERROR(CL_INVALID_OPERATION, "the command buffer is not finalized");
   if (pending)
      return ICD_ERROR(CL_INVALID_OPERATION,
                       "a kernel command of the command buffer still "
                       "has arguments to be set by clUpdateMutableCommandsKHR");
   struct _cl_command_queue *qs[DISP_CMDBUF_MAX_QUEUES];
   cl_int err = replay_queues(cb, num_queues, queues, qs);
   if (err != CL_SUCCESS)
      return err;
   err = disp_validate_wait_list(cb->context, num_events_in_wait_list, event_wait_list);
   if (err != CL_SUCCESS)
      return err;

   /* Updates (clUpdateMutableCommandsKHR) wait for the replay to have enqueued. */
   pthread_mutex_lock(&cb->lock);
   if (cb->num_queues == 1 &&
       disp__cmdbuf_image_usable_locked(cb, qs[0], num_events_in_wait_list, event_wait_list)) {
      /* The common case: one command over the packets built at finalize. */
      err = disp__cmdbuf_image_enqueue_locked(cb, qs[0], num_events_in_wait_list, event_wait_list,
                                              event);
      pthread_mutex_unlock(&cb->lock);
      return err;
   }
   const cl_uint nc = cb->num_commands;
   struct replay r = {
      .queues = qs,
      .num_queues = cb->num_queues,
      .serial = cb->num_queues == 1 && queue_in_order(qs[0]),
      .chain = cb->num_queues == 1 && queue_in_order(cb->queues[0]) && !queue_in_order(qs[0]),
      .base = event_wait_list,
      .num_base = num_events_in_wait_list,
   };
   r.events = icd_calloc(nc ? nc : 1, sizeof(cl_event));
   /* The longest wait list: the enqueue's, a command's sync points (which may repeat one)
    * or every earlier command (a barrier, the join), the latest barrier and the command
    * before. */
   cl_uint most_waits = nc;
   for (cl_uint i = 0; i < nc; i++)
      if (cb->commands[i].num_waits > most_waits)
         most_waits = cb->commands[i].num_waits;
   r.wait = icd_malloc((num_events_in_wait_list + most_waits + 2) * sizeof(cl_event));
   if (!r.events || !r.wait) {
      err = ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "allocating a replay");
      goto out_free;
   }
   for (cl_uint i = 0; i < nc && err == CL_SUCCESS; i++) {
      err = replay_one(&r, &cb->commands[i], i, event_needed(cb, &r, i));
      if (r.events[i])
         r.last = r.events[i];
   }
   if (err == CL_SUCCESS && event)
      err = replay_join(&r, nc, event);
   for (cl_uint i = 0; i < nc; i++)
      if (r.events[i])
         disp_ReleaseEvent(r.events[i]);
out_free:
   pthread_mutex_unlock(&cb->lock);
   icd_free(r.events);
   icd_free(r.wait);
   return err;
}

/* ---- remapping (cl_khr_command_buffer_multi_device) ---------------------------------- */

/* Checks that every command of `cb` can run on the queue it is remapped to, by a dry run of
 * its enqueue there (a kernel without an executable for that device, a work-group too
 * large for it, a misaligned sub-buffer: the recording errors). */
static cl_int
remap_check(struct _cl_command_buffer_khr *cb)
{
   struct replay r = { .queues = cb->queues, .serial = true };
   cl_event none[1] = { NULL };
   cl_int err = CL_SUCCESS;
   for (cl_uint i = 0; i < cb->num_commands && err == CL_SUCCESS; i++) {
      const struct disp_cmdbuf_command *c = &cb->commands[i];
      if (c->kind == DISP_CB_BARRIER)
         continue;
      if (c->kind == DISP_CB_KERNEL) {
         /* The plan was made for the old queue's device: made again for the new one. */
         struct _cl_mutable_command_khr *l = c->launch;
         err = disp__launch_prepare(disp_queue_to_handle(cb->queues[c->queue_index]), l->clone,
                                    l->work_dim, l->has_offset ? l->offset : NULL, l->global,
                                    l->has_local ? l->local : NULL, &l->plan);
         if (err == CL_INVALID_KERNEL_ARGS && l->args_pending)
            err = CL_SUCCESS;
         continue;
      }
      struct disp_cmdbuf_command bare = *c;
      bare.num_waits = 0;
      r.events = none;
      r.wait = none;
      disp__set_dry_run(true);
      err = replay_one(&r, &bare, 0, false);
      disp__set_dry_run(false);
   }
   return err;
}

/* Returns a new API reference. */
cl_command_buffer_khr CL_API_CALL
disp_RemapCommandBufferKHR(cl_command_buffer_khr command_buffer, cl_bool automatic,
                           cl_uint num_queues, const cl_command_queue *queues, cl_uint num_handles,
                           const cl_mutable_command_khr *handles,
                           cl_mutable_command_khr *handles_ret, cl_int *errcode_ret)
{
   cl_int err;
   struct _cl_command_buffer_khr *cb = disp_cmdbuf_from_handle(command_buffer);
   struct _cl_command_buffer_khr *copy = NULL;
   struct _cl_command_queue *qs[DISP_CMDBUF_MAX_QUEUES];
   if (!cb) {
      err = ICD_ERROR(CL_INVALID_COMMAND_BUFFER_KHR, "%p is not a command buffer",
                      (void *)command_buffer);
      goto out_err;
   }
   if (!num_queues || !queues || num_queues > DISP_CMDBUF_MAX_QUEUES) {
      err = ICD_ERROR(CL_INVALID_VALUE, "num_queues is %u or queues is NULL", num_queues);
      goto out_err;
   }
   if (!automatic && num_queues != cb->num_queues) {
      err = ICD_ERROR(CL_INVALID_VALUE, "num_queues %u, the command buffer has %u", num_queues,
                      cb->num_queues);
      goto out_err;
   }
   if ((num_handles == 0) != (handles == NULL) || (num_handles == 0) != (handles_ret == NULL)) {
      err = ICD_ERROR(CL_INVALID_VALUE, "handles, handles_ret and num_handles disagree");
      goto out_err;
   }
   for (cl_uint i = 0; i < num_handles; i++) {
      struct _cl_mutable_command_khr *l = disp_mutable_from_handle(handles[i]);
      if (!l || l->cmdbuf != cb) {
         err = ICD_ERROR(CL_INVALID_VALUE,
                         "handles[%u] is not a command of this command "
                         "buffer",
                         i);
         goto out_err;
      }
   }
   for (cl_uint i = 0; i < num_queues; i++) {
      qs[i] = disp_queue_from_handle(queues[i]);
      if (!qs[i] || qs[i]->devq) {
         err = ICD_ERROR(CL_INVALID_COMMAND_QUEUE, "queues[%u] is not a host queue", i);
         goto out_err;
      }
   }
   for (cl_uint i = 0; i < num_queues; i++) {
      if (qs[i]->context != cb->context) {
         err = ICD_ERROR(CL_INVALID_CONTEXT, "queues[%u] is of another context", i);
         goto out_err;
      }
   }
   for (cl_uint i = 0; i < num_queues; i++) {
      err = check_queue_properties(qs[i]);
      if (err != CL_SUCCESS)
         goto out_err;
   }
   copy = icd_calloc(1, sizeof(*copy));
   if (!copy) {
      err = ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "allocating a command buffer");
      goto out_err;
   }
   icd_object_init(&copy->obj, ICD_TYPE_COMMAND_BUFFER);
   pthread_mutex_init(&copy->lock, NULL);
   copy->context = cb->context;
   plat_context_retain_internal(copy->context);
   copy->num_queues = num_queues;
   for (cl_uint i = 0; i < num_queues; i++) {
      copy->queues[i] = qs[i];
      disp_queue_retain_internal(qs[i]);
   }
   pthread_mutex_lock(&cb->lock);
   copy->flags = cb->flags;
   copy->num_props = cb->num_props;
   memcpy(copy->props, cb->props, sizeof(copy->props));
   copy->finalized = cb->finalized;
   copy->commands = icd_calloc(cb->num_commands ? cb->num_commands : 1, sizeof(*copy->commands));
   err = copy->commands ? CL_SUCCESS
                        : ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "allocating remapped commands");
   copy->cap_commands = cb->num_commands;
   /* Automatic: the commands of queue i go to queue i modulo the new count (on one queue,
    * all of them; sync points keep their order). */
   for (cl_uint i = 0; i < cb->num_commands && err == CL_SUCCESS; i++) {
      err = disp__cmdbuf_command_copy(&copy->commands[i], &cb->commands[i], copy);
      if (err == CL_SUCCESS) {
         copy->num_commands++;
         copy->commands[i].queue_index = cb->commands[i].queue_index % num_queues;
         if (copy->commands[i].launch)
            copy->commands[i].launch->queue_index = copy->commands[i].queue_index;
      }
   }
   for (cl_uint h = 0; h < num_handles && err == CL_SUCCESS; h++)
      for (cl_uint i = 0; i < cb->num_commands; i++)
         if (cb->commands[i].launch && disp_mutable_to_handle(cb->commands[i].launch) == handles[h])
            handles_ret[h] = disp_mutable_to_handle(copy->commands[i].launch);
   pthread_mutex_unlock(&cb->lock);
   if (err == CL_SUCCESS)
      err = remap_check(copy);
   if (err != CL_SUCCESS)
      goto out_destroy;
   pthread_mutex_lock(&copy->lock);
   disp__cmdbuf_image_refresh_locked(copy, NULL, 0);
   pthread_mutex_unlock(&copy->lock);
   icd_set_errcode(errcode_ret, CL_SUCCESS);
   return disp_cmdbuf_to_handle(copy);
out_destroy:
   cmdbuf_destroy(copy);
out_err:
   icd_set_errcode(errcode_ret, err);
   return NULL;
}
