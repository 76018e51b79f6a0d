/*
 * dispatch/disp_cmdbuf_record.c — recording into a command buffer: clCommand*KHR.
 *
 * Each entry point checks what is the command buffer's (handle, queue, state, properties,
 * mutable handle, sync points), then runs the enqueue entry point of the same command on
 * the command buffer's queue in dry-run mode (disp__set_dry_run): the parameters are checked
 * by the code that will run them, with the same errors in the same order, and the command it
 * builds is dropped. The parameters are then kept for the replay (disp_cmdbuf.c); a kernel's
 * arguments are captured by cloning the kernel (clCloneKernel), so later clSetKernelArg
 * calls on the application's kernel do not change the recorded launch, and the clone's
 * launch is planned once (disp__launch_prepare) for the replay to enqueue unchecked.
 */
#include "dispatch/disp.h"
#include "dispatch/disp_priv.h"
#include "compiler/comp.h"
#include "memory/mem.h"
#include "platform/plat.h"

#include <string.h>

void
disp__cmdbuf_command_finish(struct disp_cmdbuf_command *c)
{
   if (c->src)
      mem_release_internal(mem_mem_from_handle(c->src));
   if (c->dst)
      mem_release_internal(mem_mem_from_handle(c->dst));
   icd_free(c->waits);
   struct _cl_mutable_command_khr *l = c->launch;
   if (l) {
      if (l->clone)
         comp_ReleaseKernel(l->clone);
      if (l->kernel)
         comp_kernel_release_internal(comp_kernel_from_handle(l->kernel));
      icd_object_finish(&l->obj);
      icd_free(l);
   }
   memset(c, 0, sizeof(*c));
}

cl_int
disp__cmdbuf_command_copy(struct disp_cmdbuf_command *dst, const struct disp_cmdbuf_command *src,
                          struct _cl_command_buffer_khr *owner)
{
   *dst = *src;
   dst->waits = NULL;
   dst->launch = NULL;
   dst->src = dst->dst = NULL;
   cl_int err = CL_SUCCESS;
   if (src->num_waits) {
      dst->waits = icd_malloc(src->num_waits * sizeof(*dst->waits));
      if (!dst->waits) {
         err = ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "copying a sync-point list");
         goto out_err;
      }
      memcpy(dst->waits, src->waits, src->num_waits * sizeof(*dst->waits));
   }
   if (src->launch) {
      struct _cl_mutable_command_khr *l = icd_calloc(1, sizeof(*l));
      if (!l) {
         err = ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "copying a kernel command");
         goto out_err;
      }
      *l = *src->launch;
      icd_object_init(&l->obj, ICD_TYPE_MUTABLE_COMMAND);
      l->cmdbuf = owner;
      l->kernel = NULL;
      dst->launch = l;
      l->clone = comp_CloneKernel(src->launch->clone, &err);
      if (err != CL_SUCCESS) {
         l->clone = NULL;
         goto out_err;
      }
      l->kernel = src->launch->kernel;
      comp_kernel_retain_internal(comp_kernel_from_handle(l->kernel));
   }
   dst->src = src->src;
   dst->dst = src->dst;
   if (dst->src)
      mem_retain_internal(mem_mem_from_handle(dst->src));
   if (dst->dst)
      mem_retain_internal(mem_mem_from_handle(dst->dst));
   return CL_SUCCESS;
out_err:
   disp__cmdbuf_command_finish(dst);
   return err;
}

cl_int
disp__cmdbuf_append(struct _cl_command_buffer_khr *cb, struct disp_cmdbuf_command *c,
                    cl_sync_point_khr *sync_point)
{
   if (cb->num_commands == cb->cap_commands) {
      cl_uint cap = cb->cap_commands ? 2 * cb->cap_commands : 16;
      struct disp_cmdbuf_command *grown = icd_realloc(cb->commands, cap * sizeof(*grown));
      if (!grown)
         return ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "growing a command buffer");
      cb->commands = grown;
      cb->cap_commands = cap;
   }
   if (sync_point)
      *sync_point = cb->num_commands;
   cb->commands[cb->num_commands++] = *c;
   for (cl_uint i = 0; i < c->num_waits; i++)
      cb->commands[c->waits[i]].referenced = true;
   return CL_SUCCESS;
}

/* What every clCommand*KHR checks first, in the specification's order; on success returns
 * with cb->lock held and the command's queue index and sync points filled in `c`. */
struct record_args {
   cl_command_buffer_khr command_buffer;
   cl_command_queue command_queue;
   const icd_command_properties_khr *properties;
   cl_uint num_sync_points;
   const cl_sync_point_khr *sync_points;
   cl_mutable_command_khr *mutable_handle;
   bool kernel; /* clCommandNDRangeKernelKHR: properties and a mutable handle are allowed */
};

static cl_int
record_begin(const struct record_args *a, struct _cl_command_buffer_khr **cb_out,
             struct disp_cmdbuf_command *c)
{
   memset(c, 0, sizeof(*c));
   struct _cl_command_buffer_khr *cb = disp_cmdbuf_from_handle(a->command_buffer);
   if (!cb)
      return ICD_ERROR(CL_INVALID_COMMAND_BUFFER_KHR, "%p is not a command buffer",
                       (void *)a->command_buffer);
   const struct _cl_device_id *dev = cb->queues[0]->device;
   /* multi-device: command_queue names one of the command buffer's queues; without it
    * (or with one queue) it must be NULL. */
   c->queue_index = 0;
   if (a->command_queue) {
      cl_uint i = 0;
      if (plat_device_has_extension(dev, "cl_khr_command_buffer_multi_device"))
         while (i < cb->num_queues && disp_queue_to_handle(cb->queues[i]) != a->command_queue)
            i++;
      else
         i = cb->num_queues;
      if (i == cb->num_queues)
         return ICD_ERROR(CL_INVALID_COMMAND_QUEUE,
                          "command_queue %p is not NULL (nor a queue "
                          "of the command buffer)",
                          (void *)a->command_queue);
      c->queue_index = i;
   } else if (cb->num_queues > 1) {
      return ICD_ERROR(CL_INVALID_COMMAND_QUEUE,
                       "command_queue is NULL and the command buffer "
                       "has %u queues",
                       cb->num_queues);
   }
   if ((a->num_sync_points == 0) != (a->sync_points == NULL))
      return ICD_ERROR(CL_INVALID_SYNC_POINT_WAIT_LIST_KHR,
                       "sync_point_wait_list and "
                       "num_sync_points_in_wait_list disagree");
   if (!a->kernel && a->properties && a->properties[0])
      return ICD_ERROR(CL_INVALID_VALUE, "this command takes no properties");
   const bool mutable_ext =
      plat_device_has_extension(dev, "cl_khr_command_buffer_mutable_dispatch");
   if (a->mutable_handle && !(a->kernel && mutable_ext))
      return ICD_ERROR(CL_INVALID_VALUE, "mutable_handle is not NULL");
   pthread_mutex_lock(&cb->lock);
   cl_int err = CL_SUCCESS;
   if (cb->finalized) {
      err = ICD_ERROR(CL_INVALID_OPERATION, "the command buffer is finalized");
      goto out_unlock;
   }
   for (cl_uint i = 0; i < a->num_sync_points; i++) {
      if (a->sync_points[i] >= cb->num_commands) {
         err = ICD_ERROR(CL_INVALID_SYNC_POINT_WAIT_LIST_KHR,
                         "sync point %u was not "
                         "returned by this command buffer",
                         a->sync_points[i]);
         goto out_unlock;
      }
   }
   if (a->num_sync_points) {
      c->waits = icd_malloc(a->num_sync_points * sizeof(*c->waits));
      if (!c->waits) {
         err = ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "allocating a sync-point list");
         goto out_unlock;
      }
      memcpy(c->waits, a->sync_points, a->num_sync_points * sizeof(*c->waits));
      c->num_waits = a->num_sync_points;
   }
   *cb_out = cb;
   return CL_SUCCESS;
out_unlock:
   pthread_mutex_unlock(&cb->lock);
   return err;
}

/* Ends a recording begun by record_begin: `err` is the dry run's result. */
static cl_int
record_end(struct _cl_command_buffer_khr *cb, struct disp_cmdbuf_command *c, cl_int err,
           cl_sync_point_khr *sync_point)
{
   if (err == CL_SUCCESS) {
      if (c->src)
         mem_retain_internal(mem_mem_from_handle(c->src));
      if (c->dst)
         mem_retain_internal(mem_mem_from_handle(c->dst));
      err = disp__cmdbuf_append(cb, c, sync_point);
   } else {
      c->src = c->dst = NULL; /* no references taken */
   }
   if (err != CL_SUCCESS)
      disp__cmdbuf_command_finish(c);
   pthread_mutex_unlock(&cb->lock);
   return err;
}

static cl_command_queue
record_queue(const struct _cl_command_buffer_khr *cb, const struct disp_cmdbuf_command *c)
{
   return disp_queue_to_handle(cb->queues[c->queue_index]);
}

#define RECORD_ARGS(is_kernel)                                                                     \
   {                                                                                               \
      .command_buffer = command_buffer, .command_queue = command_queue, .properties = properties,  \
      .num_sync_points = num_sync_points_in_wait_list, .sync_points = sync_point_wait_list,        \
      .mutable_handle = mutable_handle, .kernel = (is_kernel)                                      \
   }

/* What every command entry point starts with: its common arguments checked (record_begin),
 * which gives the command buffer `cb` and the command `c` to fill; `err` for the rest. */
#define RECORD_BEGIN(is_kernel)                                                                    \
   const struct record_args a = RECORD_ARGS(is_kernel);                                            \
   struct _cl_command_buffer_khr *cb;                                                              \
   struct disp_cmdbuf_command c;                                                                   \
   cl_int err = record_begin(&a, &cb, &c);                                                         \
   if (err != CL_SUCCESS)                                                                          \
      return err

cl_int CL_API_CALL
disp_CommandBarrierWithWaitListKHR(cl_command_buffer_khr command_buffer,
                                   cl_command_queue command_queue,
                                   const icd_command_properties_khr *properties,
                                   cl_uint num_sync_points_in_wait_list,
                                   const cl_sync_point_khr *sync_point_wait_list,
                                   cl_sync_point_khr *sync_point,
                                   cl_mutable_command_khr *mutable_handle)
{
   RECORD_BEGIN(false);
   c.kind = DISP_CB_BARRIER;
   return record_end(cb, &c, CL_SUCCESS, sync_point);
}

/* Runs `call` (an enqueue entry point's call) in dry-run mode. */
#define DRY_RUN(err, call)                                                                         \
   do {                                                                                            \
      disp__set_dry_run(true);                                                                     \
      (err) = (call);                                                                              \
      disp__set_dry_run(false);                                                                    \
   } while (0)

static void
copy3(size_t *dst, const size_t *src)
{
   if (src)
      memcpy(dst, src, 3 * sizeof(size_t));
}

cl_int CL_API_CALL
disp_CommandCopyBufferKHR(cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
                          const icd_command_properties_khr *properties, cl_mem src_buffer,
                          cl_mem dst_buffer, size_t src_offset, size_t dst_offset, size_t size,
                          cl_uint num_sync_points_in_wait_list,
                          const cl_sync_point_khr *sync_point_wait_list,
                          cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle)
{
   RECORD_BEGIN(false);
   DRY_RUN(err, mem_EnqueueCopyBuffer(record_queue(cb, &c), src_buffer, dst_buffer, src_offset,
                                      dst_offset, size, 0, NULL, NULL));
   c.kind = DISP_CB_COPY;
   c.src = src_buffer;
   c.dst = dst_buffer;
   c.src_offset = src_offset;
   c.dst_offset = dst_offset;
   c.size = size;
   return record_end(cb, &c, err, sync_point);
}

cl_int CL_API_CALL
disp_CommandCopyBufferRectKHR(cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
                              const icd_command_properties_khr *properties, cl_mem src_buffer,
                              cl_mem dst_buffer, const size_t *src_origin, const size_t *dst_origin,
                              const size_t *region, size_t src_row_pitch, size_t src_slice_pitch,
                              size_t dst_row_pitch, size_t dst_slice_pitch,
                              cl_uint num_sync_points_in_wait_list,
                              const cl_sync_point_khr *sync_point_wait_list,
                              cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle)
{
   RECORD_BEGIN(false);
   DRY_RUN(err, mem_EnqueueCopyBufferRect(record_queue(cb, &c), src_buffer, dst_buffer, src_origin,
                                          dst_origin, region, src_row_pitch, src_slice_pitch,
                                          dst_row_pitch, dst_slice_pitch, 0, NULL, NULL));
   c.kind = DISP_CB_COPY_RECT;
   c.src = src_buffer;
   c.dst = dst_buffer;
   copy3(c.src_origin, src_origin);
   copy3(c.dst_origin, dst_origin);
   copy3(c.region, region);
   c.src_row_pitch = src_row_pitch;
   c.src_slice_pitch = src_slice_pitch;
   c.dst_row_pitch = dst_row_pitch;
   c.dst_slice_pitch = dst_slice_pitch;
   return record_end(cb, &c, err, sync_point);
}

cl_int CL_API_CALL
disp_CommandCopyBufferToImageKHR(cl_command_buffer_khr command_buffer,
                                 cl_command_queue command_queue,
                                 const icd_command_properties_khr *properties, cl_mem src_buffer,
                                 cl_mem dst_image, size_t src_offset, const size_t *dst_origin,
                                 const size_t *region, cl_uint num_sync_points_in_wait_list,
                                 const cl_sync_point_khr *sync_point_wait_list,
                                 cl_sync_point_khr *sync_point,
                                 cl_mutable_command_khr *mutable_handle)
{
   RECORD_BEGIN(false);
   DRY_RUN(err, mem_EnqueueCopyBufferToImage(record_queue(cb, &c), src_buffer, dst_image,
                                             src_offset, dst_origin, region, 0, NULL, NULL));
   c.kind = DISP_CB_COPY_BUFFER_TO_IMAGE;
   c.src = src_buffer;
   c.dst = dst_image;
   c.src_offset = src_offset;
   copy3(c.dst_origin, dst_origin);
   copy3(c.region, region);
   return record_end(cb, &c, err, sync_point);
}

cl_int CL_API_CALL
disp_CommandCopyImageKHR(cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
                         const icd_command_properties_khr *properties, cl_mem src_image,
                         cl_mem dst_image, const size_t *src_origin, const size_t *dst_origin,
                         const size_t *region, cl_uint num_sync_points_in_wait_list,
                         const cl_sync_point_khr *sync_point_wait_list,
                         cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle)
{
   RECORD_BEGIN(false);
   DRY_RUN(err, mem_EnqueueCopyImage(record_queue(cb, &c), src_image, dst_image, src_origin,
                                     dst_origin, region, 0, NULL, NULL));
   c.kind = DISP_CB_COPY_IMAGE;
   c.src = src_image;
   c.dst = dst_image;
   copy3(c.src_origin, src_origin);
   copy3(c.dst_origin, dst_origin);
   copy3(c.region, region);
   return record_end(cb, &c, err, sync_point);
}

cl_int CL_API_CALL
disp_CommandCopyImageToBufferKHR(cl_command_buffer_khr command_buffer,
                                 cl_command_queue command_queue,
                                 const icd_command_properties_khr *properties, cl_mem src_image,
                                 cl_mem dst_buffer, const size_t *src_origin, const size_t *region,
                                 size_t dst_offset, cl_uint num_sync_points_in_wait_list,
                                 const cl_sync_point_khr *sync_point_wait_list,
                                 cl_sync_point_khr *sync_point,
                                 cl_mutable_command_khr *mutable_handle)
{
   RECORD_BEGIN(false);
   DRY_RUN(err, mem_EnqueueCopyImageToBuffer(record_queue(cb, &c), src_image, dst_buffer,
                                             src_origin, region, dst_offset, 0, NULL, NULL));
   c.kind = DISP_CB_COPY_IMAGE_TO_BUFFER;
   c.src = src_image;
   c.dst = dst_buffer;
   copy3(c.src_origin, src_origin);
   copy3(c.region, region);
   c.dst_offset = dst_offset;
   return record_end(cb, &c, err, sync_point);
}

cl_int CL_API_CALL
disp_CommandFillBufferKHR(cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
                          const icd_command_properties_khr *properties, cl_mem buffer,
                          const void *pattern, size_t pattern_size, size_t offset, size_t size,
                          cl_uint num_sync_points_in_wait_list,
                          const cl_sync_point_khr *sync_point_wait_list,
                          cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle)
{
   RECORD_BEGIN(false);
   DRY_RUN(err, mem_EnqueueFillBuffer(record_queue(cb, &c), buffer, pattern, pattern_size, offset,
                                      size, 0, NULL, NULL));
   c.kind = DISP_CB_FILL;
   c.dst = buffer;
   if (err == CL_SUCCESS)
      memcpy(c.pattern, pattern, pattern_size); /* the dry run checked pattern_size <= 128 */
   c.pattern_size = pattern_size;
   c.dst_offset = offset;
   c.size = size;
   return record_end(cb, &c, err, sync_point);
}

cl_int CL_API_CALL
disp_CommandFillImageKHR(cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
                         const icd_command_properties_khr *properties, cl_mem image,
                         const void *fill_color, const size_t *origin, const size_t *region,
                         cl_uint num_sync_points_in_wait_list,
                         const cl_sync_point_khr *sync_point_wait_list,
                         cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle)
{
   RECORD_BEGIN(false);
   DRY_RUN(err, mem_EnqueueFillImage(record_queue(cb, &c), image, fill_color, origin, region, 0,
                                     NULL, NULL));
   c.kind = DISP_CB_FILL_IMAGE;
   c.dst = image;
   /* A fill colour is four 32-bit components whatever the image format. */
   if (err == CL_SUCCESS)
      memcpy(c.pattern, fill_color, 4 * sizeof(cl_uint));
   copy3(c.dst_origin, origin);
   copy3(c.region, region);
   return record_end(cb, &c, err, sync_point);
}

cl_int CL_API_CALL
disp_CommandSVMMemcpyKHR(cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
                         const icd_command_properties_khr *properties, void *dst_ptr,
                         const void *src_ptr, size_t size, cl_uint num_sync_points_in_wait_list,
                         const cl_sync_point_khr *sync_point_wait_list,
                         cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle)
{
   RECORD_BEGIN(false);
   DRY_RUN(err, mem_EnqueueSVMMemcpy(record_queue(cb, &c), CL_FALSE, dst_ptr, src_ptr, size, 0,
                                     NULL, NULL));
   c.kind = DISP_CB_SVM_COPY;
   c.dst_ptr = dst_ptr;
   c.src_ptr = (void *)src_ptr;
   c.size = size;
   return record_end(cb, &c, err, sync_point);
}

cl_int CL_API_CALL
disp_CommandSVMMemFillKHR(cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
                          const icd_command_properties_khr *properties, void *svm_ptr,
                          const void *pattern, size_t pattern_size, size_t size,
                          cl_uint num_sync_points_in_wait_list,
                          const cl_sync_point_khr *sync_point_wait_list,
                          cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle)
{
   RECORD_BEGIN(false);
   DRY_RUN(err, mem_EnqueueSVMMemFill(record_queue(cb, &c), svm_ptr, pattern, pattern_size, size, 0,
                                      NULL, NULL));
   c.kind = DISP_CB_SVM_FILL;
   c.dst_ptr = svm_ptr;
   if (err == CL_SUCCESS)
      memcpy(c.pattern, pattern, pattern_size); /* checked: at most 128 bytes */
   c.pattern_size = pattern_size;
   c.size = size;
   return record_end(cb, &c, err, sync_point);
}

/* The kernel command's properties: CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR (fields the
 * device can update) and CL_MUTABLE_DISPATCH_ASSERTS_KHR, with the mutable-dispatch
 * extension; anything else is CL_INVALID_VALUE. */
static cl_int
kernel_properties(const struct _cl_command_buffer_khr *cb, const icd_command_properties_khr *p,
                  struct _cl_mutable_command_khr *l)
{
   l->num_props = 0;
   l->updatable = 0;
   if (!p)
      return CL_SUCCESS;
   const bool mutable_ext =
      plat_device_has_extension(cb->queues[0]->device, "cl_khr_command_buffer_mutable_dispatch");
   cl_uint n = 0;
   for (; p[n]; n += 2) {
      if (n + 3 > sizeof(l->props) / sizeof(l->props[0]))
         return ICD_ERROR(CL_INVALID_VALUE, "too many command properties");
      if (mutable_ext && p[n] == CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR) {
         if (p[n + 1] & ~(icd_command_properties_khr)ICD_CMDBUF_MUTABLE_CAPABILITIES)
            return ICD_ERROR(CL_INVALID_VALUE, "updatable fields 0x%llx not supported",
                             (unsigned long long)p[n + 1]);
         l->updatable = p[n + 1];
      } else if (mutable_ext && p[n] == CL_MUTABLE_DISPATCH_ASSERTS_KHR) {
         if (p[n + 1] &
             ~(icd_command_properties_khr)CL_MUTABLE_DISPATCH_ASSERT_NO_ADDITIONAL_WORK_GROUPS_KHR)
            return ICD_ERROR(CL_INVALID_VALUE, "unknown mutable-dispatch asserts");
      } else {
         return ICD_ERROR(CL_INVALID_VALUE, "unknown command property 0x%llx",
                          (unsigned long long)p[n]);
      }
   }
   memcpy(l->props, p, (n + 1) * sizeof(*p));
   l->num_props = n + 1;
   return CL_SUCCESS;
}

cl_int CL_API_CALL
disp_CommandNDRangeKernelKHR(cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
                             const icd_command_properties_khr *properties, cl_kernel kernel,
                             cl_uint work_dim, const size_t *global_work_offset,
                             const size_t *global_work_size, const size_t *local_work_size,
                             cl_uint num_sync_points_in_wait_list,
                             const cl_sync_point_khr *sync_point_wait_list,
                             cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle)
{
   RECORD_BEGIN(true);
   c.kind = DISP_CB_KERNEL;
   struct _cl_mutable_command_khr *l = icd_calloc(1, sizeof(*l));
   if (!l) {
      err = ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "allocating a kernel command");
      return record_end(cb, &c, err, NULL);
   }
   icd_object_init(&l->obj, ICD_TYPE_MUTABLE_COMMAND);
   c.launch = l;
   err = kernel_properties(cb, properties, l);
   if (err != CL_SUCCESS)
      return record_end(cb, &c, err, NULL);
   struct _cl_kernel *k = comp_kernel_from_handle(kernel);
   if (k && comp_kernel_context(k) != cb->context) {
      err = ICD_ERROR(CL_INVALID_CONTEXT, "kernel and command buffer belong to different "
                                          "contexts");
      return record_end(cb, &c, err, NULL);
   }
   DRY_RUN(err,
           disp_EnqueueNDRangeKernel(record_queue(cb, &c), kernel, work_dim, global_work_offset,
                                     global_work_size, local_work_size, 0, NULL, NULL));
   /* A mutable command buffer may take a launch whose arguments an update will set
    * (clEnqueueNDRangeKernel checks them last, so everything else was checked). */
   if (err == CL_INVALID_KERNEL_ARGS && (cb->flags & CL_COMMAND_BUFFER_MUTABLE_KHR) &&
       (disp__mutable_updatable(l) & CL_MUTABLE_DISPATCH_ARGUMENTS_KHR)) {
      l->args_pending = true;
      err = CL_SUCCESS;
   }
   if (err != CL_SUCCESS)
      return record_end(cb, &c, err, NULL);
   l->clone = comp_CloneKernel(kernel, &err);
   if (err != CL_SUCCESS)
      return record_end(cb, &c, err, NULL);
   /* What a replay enqueues: the clone's code and range, checked once. */
   if (!l->args_pending) {
      err = disp__launch_prepare(record_queue(cb, &c), l->clone, work_dim, global_work_offset,
                                 global_work_size, local_work_size, &l->plan);
      if (err != CL_SUCCESS)
         return record_end(cb, &c, err, NULL);
   }
   l->cmdbuf = cb;
   l->queue_index = c.queue_index;
   l->kernel = kernel;
   comp_kernel_retain_internal(k);
   l->work_dim = work_dim;
   l->has_offset = global_work_offset != NULL;
   l->has_local = local_work_size != NULL;
   for (cl_uint i = 0; i < 3; i++) {
      l->offset[i] = global_work_offset && i < work_dim ? global_work_offset[i] : 0;
      l->global[i] = i < work_dim ? global_work_size[i] : 1;
      l->local[i] = local_work_size && i < work_dim ? local_work_size[i] : 1;
   }
   err = record_end(cb, &c, CL_SUCCESS, sync_point);
   if (err == CL_SUCCESS && mutable_handle)
      *mutable_handle = disp_mutable_to_handle(l);
   return err;
}
