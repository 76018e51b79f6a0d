/*
 * dispatch/disp_queue.c — cl_command_queue: creation (OpenCL 1.x and 2.0+ entry points),
 * property validation, the HSA AQL queue behind each, reference counting and queries
 * (OpenCL 3.0 API §5.1). Enqueueing work lands with the memory-and-dispatch issue; until
 * then a queue is always empty, so clFlush/clFinish return at once.
 */
#include "dispatch/disp.h"
#include "platform/plat.h"

#include <string.h>

/* Packets in each AQL ring (capped by the agent's HSA_AGENT_INFO_QUEUE_MAX_SIZE). */
#define DISP_AQL_QUEUE_PACKETS 4096u

static const cl_command_queue_properties host_queue_props =
   CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE;
static const cl_command_queue_properties all_queue_props =
   CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_ON_DEVICE |
   CL_QUEUE_ON_DEVICE_DEFAULT;

/* Called by the HSA runtime on a queue error (no lock held, runtime thread). */
static void
queue_error_callback(hsa_status_t status, hsa_queue_t *source, void *data)
{
   struct _cl_command_queue *q = data;
   const struct disp_hsa *hsa = disp_hsa_get();
   const char *msg = NULL;
   hsa->hsa_status_string(status, &msg);
   icd_log(ICD_LOG_ERROR, "dispatch", "command queue %p: HSA queue error 0x%x (%s)", (void *)q,
           (unsigned)status, msg ? msg : "?");
}

static void
queue_destroy(struct _cl_command_queue *q)
{
   if (q->hsa_queue)
      disp_hsa_get()->hsa_queue_destroy(q->hsa_queue);
   pthread_mutex_destroy(&q->lock);
   icd_object_finish(&q->obj);
   if (q->context)
      plat_context_release_internal(q->context);
   icd_free(q->props);
   icd_free(q);
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
   pthread_mutex_init(&q->lock, NULL);
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
   const struct disp_hsa *hsa = disp_hsa_get();
   uint32_t packets = DISP_AQL_QUEUE_PACKETS;
   if (dev->queue_max_size && dev->queue_max_size < packets)
      packets = dev->queue_max_size;
   hsa_status_t st = hsa->hsa_queue_create(dev->agent, packets, HSA_QUEUE_TYPE_MULTI,
                                           queue_error_callback, q, UINT32_MAX, UINT32_MAX,
                                           &q->hsa_queue);
   if (st != HSA_STATUS_SUCCESS) {
      q->hsa_queue = NULL;
      err = disp_hsa_status_to_cl(st, "creating the AQL queue of a command queue");
      goto out_destroy;
   }
   plat_context_retain_internal(ctx);
   q->context = ctx;
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
   if (bits & CL_QUEUE_ON_DEVICE) {
      err = ICD_ERROR(CL_INVALID_QUEUE_PROPERTIES,
                      "device-side queues are not supported (no device enqueue)");
      goto out;
   }
   err = queue_create(ctx, dev, bits, properties, n, &q);
out:
   icd_set_errcode(errcode_ret, err);
   return err == CL_SUCCESS ? disp_queue_to_handle(q) : NULL;
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
   /* §5.1: releasing the last reference flushes the queue; it is always empty for now. */
   if (icd_object_release(&q->obj))
      queue_destroy(q);
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
      return ICD_ERROR(CL_INVALID_COMMAND_QUEUE, "CL_QUEUE_SIZE asked of a host queue");
   case CL_QUEUE_DEVICE_DEFAULT:
      return ICD_GET_INFO_SCALAR(cl_command_queue, NULL, param_value_size, param_value,
                                 param_value_size_ret);
   default:
      return ICD_ERROR(CL_INVALID_VALUE, "unknown command-queue query 0x%x",
                       (unsigned)param_name);
   }
}

cl_int CL_API_CALL
disp_Flush(cl_command_queue command_queue)
{
   if (!disp_queue_from_handle(command_queue))
      return ICD_ERROR(CL_INVALID_COMMAND_QUEUE, "command_queue %p is not an hsacl queue",
                       (void *)command_queue);
   return CL_SUCCESS;
}

cl_int CL_API_CALL
disp_Finish(cl_command_queue command_queue)
{
   if (!disp_queue_from_handle(command_queue))
      return ICD_ERROR(CL_INVALID_COMMAND_QUEUE, "command_queue %p is not an hsacl queue",
                       (void *)command_queue);
   return CL_SUCCESS;
}
