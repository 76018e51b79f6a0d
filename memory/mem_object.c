/*
 * memory/mem_object.c — what every memory object shares, buffers, images and pipes alike
 * (OpenCL 3.0 API §5.5): its life (creation of the common part, the internal reference
 * count, destruction: host memory unlocked, destructor callbacks, maps, the memory freed),
 * clRetainMemObject, clReleaseMemObject, clSetMemObjectDestructorCallback and
 * clGetMemObjectInfo. What each kind adds is in mem_buffer.c, mem_image.c and mem_pipe.c.
 */
#include "memory/mem_priv.h"
#include "runtime/rt.h"

#include <string.h>

/* ---- lifetime ----------------------------------------------------------------------- */

/*
 * Ends an object, possibly half-built. Order (§5.5.1 clSetMemObjectDestructorCallback):
 * host memory is unlocked first, so the callbacks may free or reuse host_ptr; callbacks
 * run newest first, with the handle still valid; then the memory is freed.
 */
static void
mem_destroy(struct _cl_mem *mem)
{
   const struct rt_hsa *hsa = rt_hsa();
   if (mem->image)
      mem__image_finish(mem); /* its descriptors go before the memory they describe */
   if (mem->backing == MEM_BACKING_LOCKED && mem->alloc_base) {
      hsa_status_t st = hsa->hsa_amd_memory_unlock(mem->alloc_base);
      if (st != HSA_STATUS_SUCCESS)
         rt_error(st, CL_OUT_OF_RESOURCES, "unlocking a CL_MEM_USE_HOST_PTR buffer");
      mem->alloc_base = NULL;
   }
   for (struct mem_destructor *d = mem->destructors, *next; d; d = next) {
      next = d->next;
      d->fn(mem_mem_to_handle(mem), d->user_data);
      icd_free(d);
   }
   for (struct mem_map *m = mem->maps, *next; m; m = next) {
      next = m->next;
      if (m->staging)
         mem_staging_free(m->staging_dev, m->staging, m->staging_size);
      icd_free(m);
   }
   if (mem->alloc_base) {
      rt_pool_free(mem->alloc_base);
      if (mem->backing == MEM_BACKING_DEVICE)
         atomic_fetch_sub(&mem->device->device_bytes_in_use, mem->size);
   }
   if (mem->parent)
      mem_release_internal(mem->parent);
   if (mem->context)
      plat_context_release_internal(mem->context);
   pthread_mutex_destroy(&mem->lock);
   icd_object_finish(&mem->obj);
   icd_free(mem->props);
   icd_free(mem);
}

void
mem_retain_internal(struct _cl_mem *mem)
{
   icd_object_retain_internal(&mem->obj);
}

void
mem_release_internal(struct _cl_mem *mem)
{
   if (icd_object_release_internal(&mem->obj))
      mem_destroy(mem);
}

cl_int
mem__object_alloc(struct _cl_mem **out)
{
   struct _cl_mem *mem = icd_calloc(1, sizeof(*mem));
   if (!mem)
      return ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "allocating a memory object");
   icd_object_init(&mem->obj, ICD_TYPE_MEM);
   atomic_init(&mem->map_count, 0);
   pthread_mutex_init(&mem->lock, NULL);
   mem->type = CL_MEM_OBJECT_BUFFER;
   *out = mem;
   return CL_SUCCESS;
}

cl_int
mem__object_create(struct _cl_context *ctx, struct _cl_device_id *dev, struct _cl_mem **out)
{
   struct _cl_mem *mem;
   cl_int err = mem__object_alloc(&mem);
   if (err != CL_SUCCESS)
      return err;
   plat_context_retain_internal(ctx);
   mem->context = ctx;
   mem->device = dev;
   *out = mem;
   return CL_SUCCESS;
}

void
mem__object_destroy(struct _cl_mem *mem)
{
   mem_destroy(mem);
}

/* ---- reference counting, callbacks, queries ---------------------------------------- */

cl_int CL_API_CALL
mem_RetainMemObject(cl_mem memobj)
{
   struct _cl_mem *mem = mem_mem_from_handle(memobj);
   if (!mem)
      return ICD_ERROR(CL_INVALID_MEM_OBJECT, "%p is not an hsacl memory object", (void *)memobj);
   icd_object_retain(&mem->obj);
   return CL_SUCCESS;
}

cl_int CL_API_CALL
mem_ReleaseMemObject(cl_mem memobj)
{
   struct _cl_mem *mem = mem_mem_from_handle(memobj);
   if (!mem)
      return ICD_ERROR(CL_INVALID_MEM_OBJECT, "%p is not an hsacl memory object", (void *)memobj);
   if (icd_object_release(&mem->obj))
      mem_release_internal(mem);
   return CL_SUCCESS;
}

/*
 * §5.5.1: callbacks run newest first when the object is destroyed — on the thread that
 * drops its last reference, which may be a command-completion thread. No lock is held
 * while they run.
 */
cl_int CL_API_CALL
mem_SetMemObjectDestructorCallback(cl_mem memobj, mem_destructor_fn pfn_notify, void *user_data)
{
   struct _cl_mem *mem = mem_mem_from_handle(memobj);
   if (!mem)
      return ICD_ERROR(CL_INVALID_MEM_OBJECT, "%p is not an hsacl memory object", (void *)memobj);
   if (!pfn_notify)
      return ICD_ERROR(CL_INVALID_VALUE, "pfn_notify is NULL");
   struct mem_destructor *d = icd_malloc(sizeof(*d));
   if (!d)
      return ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "allocating a destructor callback");
   d->fn = pfn_notify;
   d->user_data = user_data;
   pthread_mutex_lock(&mem->lock);
   d->next = mem->destructors;
   mem->destructors = d;
   pthread_mutex_unlock(&mem->lock);
   return CL_SUCCESS;
}

cl_int CL_API_CALL
mem_GetMemObjectInfo(cl_mem memobj, cl_mem_info param_name, size_t param_value_size,
                     void *param_value, size_t *param_value_size_ret)
{
   struct _cl_mem *mem = mem_mem_from_handle(memobj);
   if (!mem)
      return ICD_ERROR(CL_INVALID_MEM_OBJECT, "%p is not an hsacl memory object", (void *)memobj);
   size_t pvs = param_value_size;
   void *pv = param_value;
   size_t *pvsr = param_value_size_ret;
   switch (param_name) {
   case CL_MEM_TYPE:
      return ICD_GET_INFO_SCALAR(cl_mem_object_type, mem->type, pvs, pv, pvsr);
   case CL_MEM_FLAGS:
      return ICD_GET_INFO_SCALAR(cl_mem_flags, mem->flags, pvs, pv, pvsr);
   case CL_MEM_SIZE:
      return ICD_GET_INFO_SCALAR(size_t, mem->size, pvs, pv, pvsr);
   case CL_MEM_HOST_PTR:
      return ICD_GET_INFO_SCALAR(void *, mem->host_ptr, pvs, pv, pvsr);
   case CL_MEM_MAP_COUNT:
      return ICD_GET_INFO_SCALAR(cl_uint, atomic_load(&mem->map_count), pvs, pv, pvsr);
   case CL_MEM_REFERENCE_COUNT:
      return ICD_GET_INFO_SCALAR(cl_uint, icd_object_refcount(&mem->obj), pvs, pv, pvsr);
   case CL_MEM_CONTEXT:
      return ICD_GET_INFO_SCALAR(cl_context, plat_context_to_handle(mem->context), pvs, pv, pvsr);
   case CL_MEM_ASSOCIATED_MEMOBJECT:
      return ICD_GET_INFO_SCALAR(cl_mem, mem->parent ? mem_mem_to_handle(mem->parent) : NULL, pvs,
                                 pv, pvsr);
   case CL_MEM_OFFSET:
      return ICD_GET_INFO_SCALAR(size_t, mem->origin, pvs, pv, pvsr);
   case CL_MEM_USES_SVM_POINTER:
      return ICD_GET_INFO_SCALAR(cl_bool, mem->uses_svm_pointer ? CL_TRUE : CL_FALSE, pvs, pv,
                                 pvsr);
   case CL_MEM_PROPERTIES:
      /* §5.5.2: size 0 when created without a property list. */
      return icd_get_info(mem->props, mem->num_props * sizeof(cl_mem_properties), pvs, pv, pvsr);
   case CL_MEM_DEVICE_ADDRESS_EXT: {
      /* cl_ext_buffer_device_address: one address per device of the context, in its order;
       * every device reaches the one allocation at the same address. */
      if (!mem->device_address)
         return ICD_ERROR(CL_INVALID_OPERATION, "CL_MEM_DEVICE_ADDRESS_EXT of a memory object "
                          "created without CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT");
      cl_mem_device_address_ext addrs[MEM_MAX_AGENTS];
      cl_uint n = mem->context->num_devices < MEM_MAX_AGENTS ? mem->context->num_devices
                                                             : MEM_MAX_AGENTS;
      for (cl_uint i = 0; i < n; i++)
         addrs[i] = mem->device_va;
      return icd_get_info(addrs, n * sizeof(addrs[0]), pvs, pv, pvsr);
   }
   default:
      return ICD_ERROR(CL_INVALID_VALUE, "unknown memory object query 0x%x", (unsigned)param_name);
   }
}
