/*
 * platform/plat_context.c — cl_context: creation from a device list or a device type,
 * properties (CL_CONTEXT_PLATFORM, CL_CONTEXT_INTEROP_USER_SYNC), pfn_notify, reference
 * counting, queries and destructor callbacks (OpenCL 3.0 API §4.4).
 */
#include "platform/plat.h"
#include "platform/plat_priv.h"

#include <string.h>

/* Validates a property list; fills the context's copy. Errors in the order §4.4 lists. */
static cl_int
parse_properties(const cl_context_properties *properties, cl_context_properties **copy_out,
                 size_t *count_out, bool *interop_out)
{
   *copy_out = NULL;
   *count_out = 0;
   *interop_out = false;
   if (!properties)
      return CL_SUCCESS;
   size_t n = 0;
   bool seen_platform = false, seen_interop = false;
   while (properties[n] != 0) {
      cl_context_properties name = properties[n], value = properties[n + 1];
      switch (name) {
      case CL_CONTEXT_PLATFORM:
         if (seen_platform)
            return ICD_ERROR(CL_INVALID_PROPERTY, "CL_CONTEXT_PLATFORM given twice");
         seen_platform = true;
         if (!plat_platform_from_handle((cl_platform_id)value))
            return ICD_ERROR(CL_INVALID_PLATFORM, "CL_CONTEXT_PLATFORM %p is not hsacl's",
                             (void *)value);
         break;
      case CL_CONTEXT_INTEROP_USER_SYNC:
         if (seen_interop)
            return ICD_ERROR(CL_INVALID_PROPERTY, "CL_CONTEXT_INTEROP_USER_SYNC given twice");
         seen_interop = true;
         if (value != CL_TRUE && value != CL_FALSE)
            return ICD_ERROR(CL_INVALID_PROPERTY,
                             "CL_CONTEXT_INTEROP_USER_SYNC value %ld is not a cl_bool",
                             (long)value);
         *interop_out = value == CL_TRUE;
         break;
      default:
         return ICD_ERROR(CL_INVALID_PROPERTY, "unsupported context property 0x%lx",
                          (unsigned long)name);
      }
      n += 2;
   }
   cl_context_properties *copy = icd_malloc((n + 1) * sizeof(*copy));
   if (!copy)
      return ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "copying context properties");
   memcpy(copy, properties, (n + 1) * sizeof(*copy));
   *copy_out = copy;
   *count_out = n + 1;
   return CL_SUCCESS;
}

static void
context_destroy(struct _cl_context *ctx)
{
   /* Destructor callbacks run in reverse order of registration (§4.4). */
   struct plat_context_destructor *d = ctx->destructors;
   while (d) {
      struct plat_context_destructor *next = d->next;
      d->fn(plat_context_to_handle(ctx), d->user_data);
      icd_free(d);
      d = next;
   }
   pthread_mutex_destroy(&ctx->lock);
   icd_object_finish(&ctx->obj);
   icd_free(ctx->devices);
   icd_free(ctx->props);
   icd_free(ctx);
}

/* Returns a new context with one API reference. Devices are valid and deduplicated. */
static cl_int
context_create(cl_context_properties *props, size_t num_props, bool interop,
               struct _cl_device_id **devices, cl_uint num_devices,
               plat_context_notify_fn notify, void *user_data, struct _cl_context **out)
{
   struct _cl_context *ctx = icd_calloc(1, sizeof(*ctx));
   if (!ctx)
      return ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "allocating a context");
   icd_object_init(&ctx->obj, ICD_TYPE_CONTEXT);
   pthread_mutex_init(&ctx->lock, NULL);
   ctx->platform = plat_platform_get();
   ctx->devices = devices;
   ctx->num_devices = num_devices;
   ctx->props = props;
   ctx->num_props = num_props;
   ctx->interop_user_sync = interop;
   ctx->notify = notify;
   ctx->notify_user_data = user_data;
   *out = ctx;
   return CL_SUCCESS;
}

cl_context CL_API_CALL
plat_CreateContext(const cl_context_properties *properties, cl_uint num_devices,
                   const cl_device_id *devices, plat_context_notify_fn pfn_notify,
                   void *user_data, cl_int *errcode_ret)
{
   cl_context_properties *props = NULL;
   size_t num_props = 0;
   bool interop = false;
   struct _cl_device_id **list = NULL;
   struct _cl_context *ctx = NULL;

   cl_int err = parse_properties(properties, &props, &num_props, &interop);
   if (err != CL_SUCCESS)
      goto out;
   if (!devices || num_devices == 0) {
      err = ICD_ERROR(CL_INVALID_VALUE, "devices %p with num_devices %u", (void *)devices,
                      num_devices);
      goto out_free_props;
   }
   if (!pfn_notify && user_data) {
      err = ICD_ERROR(CL_INVALID_VALUE, "user_data given without pfn_notify");
      goto out_free_props;
   }
   for (cl_uint i = 0; i < num_devices; i++) {
      if (!plat_device_from_handle(devices[i])) {
         err = ICD_ERROR(CL_INVALID_DEVICE, "devices[%u] = %p is not an hsacl device", i,
                         (void *)devices[i]);
         goto out_free_props;
      }
   }
   list = icd_malloc(num_devices * sizeof(*list));
   if (!list) {
      err = ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "allocating the context's device list");
      goto out_free_props;
   }
   /* Duplicate devices are ignored (§4.4). */
   cl_uint unique = 0;
   for (cl_uint i = 0; i < num_devices; i++) {
      struct _cl_device_id *d = plat_device_from_handle(devices[i]);
      bool dup = false;
      for (cl_uint j = 0; j < unique; j++)
         dup |= list[j] == d;
      if (!dup)
         list[unique++] = d;
   }
   err = context_create(props, num_props, interop, list, unique, pfn_notify, user_data, &ctx);
   if (err != CL_SUCCESS)
      goto out_free_list;
   icd_set_errcode(errcode_ret, CL_SUCCESS);
   return plat_context_to_handle(ctx);

out_free_list:
   icd_free(list);
out_free_props:
   icd_free(props);
out:
   icd_set_errcode(errcode_ret, err);
   return NULL;
}

cl_context CL_API_CALL
plat_CreateContextFromType(const cl_context_properties *properties, cl_device_type device_type,
                           plat_context_notify_fn pfn_notify, void *user_data,
                           cl_int *errcode_ret)
{
   cl_context_properties *props = NULL;
   size_t num_props = 0;
   bool interop = false;
   struct _cl_device_id **list = NULL;
   struct _cl_context *ctx = NULL;
   cl_uint count = 0;

   cl_int err = parse_properties(properties, &props, &num_props, &interop);
   if (err != CL_SUCCESS)
      goto out;
   if (!pfn_notify && user_data) {
      err = ICD_ERROR(CL_INVALID_VALUE, "user_data given without pfn_notify");
      goto out_free_props;
   }
   err = plat_GetDeviceIDs(NULL, device_type, 0, NULL, &count);
   if (err != CL_SUCCESS)
      goto out_free_props;
   list = icd_malloc(count * sizeof(*list));
   if (!list) {
      err = ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "allocating the context's device list");
      goto out_free_props;
   }
   err = plat_GetDeviceIDs(NULL, device_type, count, (cl_device_id *)list, NULL);
   if (err != CL_SUCCESS)
      goto out_free_list;
   err = context_create(props, num_props, interop, list, count, pfn_notify, user_data, &ctx);
   if (err != CL_SUCCESS)
      goto out_free_list;
   icd_set_errcode(errcode_ret, CL_SUCCESS);
   return plat_context_to_handle(ctx);

out_free_list:
   icd_free(list);
out_free_props:
   icd_free(props);
out:
   icd_set_errcode(errcode_ret, err);
   return NULL;
}

void
plat_context_retain_internal(struct _cl_context *ctx)
{
   icd_object_retain_internal(&ctx->obj);
}

void
plat_context_release_internal(struct _cl_context *ctx)
{
   if (icd_object_release_internal(&ctx->obj))
      context_destroy(ctx);
}

cl_int CL_API_CALL
plat_RetainContext(cl_context context)
{
   struct _cl_context *ctx = plat_context_from_handle(context);
   if (!ctx)
      return ICD_ERROR(CL_INVALID_CONTEXT, "context %p is not an hsacl context",
                       (void *)context);
   icd_object_retain(&ctx->obj);
   return CL_SUCCESS;
}

cl_int CL_API_CALL
plat_ReleaseContext(cl_context context)
{
   struct _cl_context *ctx = plat_context_from_handle(context);
   if (!ctx)
      return ICD_ERROR(CL_INVALID_CONTEXT, "context %p is not an hsacl context",
                       (void *)context);
   if (icd_object_release(&ctx->obj))
      plat_context_release_internal(ctx);
   return CL_SUCCESS;
}

cl_int CL_API_CALL
plat_GetContextInfo(cl_context context, cl_context_info param_name, size_t param_value_size,
                    void *param_value, size_t *param_value_size_ret)
{
   struct _cl_context *ctx = plat_context_from_handle(context);
   if (!ctx)
      return ICD_ERROR(CL_INVALID_CONTEXT, "context %p is not an hsacl context",
                       (void *)context);
   switch (param_name) {
   case CL_CONTEXT_REFERENCE_COUNT:
      return ICD_GET_INFO_SCALAR(cl_uint, icd_object_refcount(&ctx->obj), param_value_size,
                                 param_value, param_value_size_ret);
   case CL_CONTEXT_NUM_DEVICES:
      return ICD_GET_INFO_SCALAR(cl_uint, ctx->num_devices, param_value_size, param_value,
                                 param_value_size_ret);
   case CL_CONTEXT_DEVICES:
      return icd_get_info(ctx->devices, ctx->num_devices * sizeof(cl_device_id),
                          param_value_size, param_value, param_value_size_ret);
   case CL_CONTEXT_PROPERTIES:
      return icd_get_info(ctx->props, ctx->num_props * sizeof(cl_context_properties),
                          param_value_size, param_value, param_value_size_ret);
   default:
      return ICD_ERROR(CL_INVALID_VALUE, "unknown context query 0x%x", (unsigned)param_name);
   }
}

cl_int CL_API_CALL
plat_SetContextDestructorCallback(cl_context context, plat_context_destructor_fn pfn_notify,
                                  void *user_data)
{
   struct _cl_context *ctx = plat_context_from_handle(context);
   if (!ctx)
      return ICD_ERROR(CL_INVALID_CONTEXT, "context %p is not an hsacl context",
                       (void *)context);
   if (!pfn_notify)
      return ICD_ERROR(CL_INVALID_VALUE, "pfn_notify is NULL");
   struct plat_context_destructor *d = icd_malloc(sizeof(*d));
   if (!d)
      return ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "allocating a destructor callback");
   d->fn = pfn_notify;
   d->user_data = user_data;
   pthread_mutex_lock(&ctx->lock);
   d->next = ctx->destructors;
   ctx->destructors = d;
   pthread_mutex_unlock(&ctx->lock);
   return CL_SUCCESS;
}

bool
plat_context_has_device(const struct _cl_context *ctx, const struct _cl_device_id *dev)
{
   for (cl_uint i = 0; i < ctx->num_devices; i++) {
      if (ctx->devices[i] == dev)
         return true;
   }
   return false;
}

void
plat_context_notify(struct _cl_context *ctx, const char *errinfo)
{
   icd_log(ICD_LOG_ERROR, "platform", "context %p: %s", (void *)ctx, errinfo);
   if (ctx->notify)
      ctx->notify(errinfo, NULL, 0, ctx->notify_user_data);
}
