/*
 * memory/mem_usm.c — unified shared memory (cl_intel_unified_shared_memory): host, device
 * and shared allocations, their frees and clGetMemAllocInfoINTEL. The commands are in
 * mem_usm_enqueue.c, pointer kernel arguments and the indirect-access exec info in
 * compiler/comp_kernel_args.c.
 *
 * The allocations are entries of the one allocation registry (mem_svm.c), tagged with
 * their kind, associated device and allocation flags, on the pools SVM uses:
 *   host    the CPU agent's fine-grained system pool, every GPU of the context granted
 *           access (fine-grained SVM's memory: uncached on the GPU, coherent with the host
 *           while kernels run);
 *   shared  the same memory: the host and every GPU of the context reach it without
 *           migration, so the device argument only names the allocation's device;
 *   device  the device's coarse-grained device pool, every GPU of the context granted
 *           access, and the CPU agent as for coarse-grained SVM (the system pool when the
 *           runtime refuses it): the application may not touch it, the driver's copies and
 *           fills run on the host like the SVM commands. Counted in the device's free
 *           memory.
 * A kernel reaches every allocation of its context whatever the indirect-access flags say:
 * nothing is made resident per launch.
 */
#include "memory/mem_priv.h"
#include "dispatch/disp.h"

/* The largest data type of every hsacl device (long16, double16): the default alignment
 * and the largest one the extension allows. */
#define USM_MAX_ALIGNMENT 128u

#define USM_PLACEMENT_FLAGS                                                                  \
   (CL_MEM_ALLOC_INITIAL_PLACEMENT_DEVICE_INTEL | CL_MEM_ALLOC_INITIAL_PLACEMENT_HOST_INTEL)

/* The device query of an allocation kind's capabilities. */
static cl_device_info
kind_query(enum mem_alloc_kind kind)
{
   switch (kind) {
   case MEM_ALLOC_USM_HOST:
      return CL_DEVICE_HOST_MEM_CAPABILITIES_INTEL;
   case MEM_ALLOC_USM_DEVICE:
      return CL_DEVICE_DEVICE_MEM_CAPABILITIES_INTEL;
   default:
      return CL_DEVICE_SINGLE_DEVICE_SHARED_MEM_CAPABILITIES_INTEL;
   }
}

/* True when `dev` can hold allocations of `kind` (its capability query is not 0). */
static bool
device_supports(const struct _cl_device_id *dev, enum mem_alloc_kind kind)
{
   if (kind == MEM_ALLOC_USM_SHARED &&
       plat_device_usm_capabilities(dev, CL_DEVICE_CROSS_DEVICE_SHARED_MEM_CAPABILITIES_INTEL))
      return true;
   return plat_device_usm_capabilities(dev, kind_query(kind)) != 0;
}

/*
 * The allocation flags of `props` (0-terminated name/value pairs, or NULL) in *flags.
 * CL_INVALID_PROPERTY for an unknown or repeated name, unknown flag bits, write-combined
 * memory (HSA's pools have no write-combined allocation), a placement hint outside
 * clSharedMemAllocINTEL, or both placement hints.
 */
static cl_int
parse_properties(const cl_mem_properties_intel *props, enum mem_alloc_kind kind,
                 cl_mem_alloc_flags_intel *flags)
{
   *flags = 0;
   bool seen = false;
   for (size_t i = 0; props && props[i]; i += 2) {
      if (props[i] != CL_MEM_ALLOC_FLAGS_INTEL)
         return ICD_ERROR(CL_INVALID_PROPERTY, "unknown USM allocation property 0x%llx",
                          (unsigned long long)props[i]);
      if (seen)
         return ICD_ERROR(CL_INVALID_PROPERTY, "CL_MEM_ALLOC_FLAGS_INTEL given twice");
      seen = true;
      *flags = (cl_mem_alloc_flags_intel)props[i + 1];
   }
   const cl_mem_alloc_flags_intel known = CL_MEM_ALLOC_WRITE_COMBINED_INTEL | USM_PLACEMENT_FLAGS;
   if (*flags & ~known)
      return ICD_ERROR(CL_INVALID_PROPERTY, "unknown allocation flags 0x%llx",
                       (unsigned long long)*flags);
   if (*flags & CL_MEM_ALLOC_WRITE_COMBINED_INTEL)
      return ICD_ERROR(CL_INVALID_PROPERTY, "write-combined memory is not supported (the HSA "
                       "pools have none)");
   if ((*flags & USM_PLACEMENT_FLAGS) && kind != MEM_ALLOC_USM_SHARED)
      return ICD_ERROR(CL_INVALID_PROPERTY, "initial-placement flags are for shared "
                       "allocations only");
   if ((*flags & USM_PLACEMENT_FLAGS) == USM_PLACEMENT_FLAGS)
      return ICD_ERROR(CL_INVALID_PROPERTY, "both initial-placement flags");
   return CL_SUCCESS;
}

/*
 * The three allocators: validation in the order the extension lists the errors, then one
 * allocation on `device` (host, or shared without a device: the first device of the
 * context that supports the kind and whose allocation limit fits `size`).
 */
static void *
usm_alloc(cl_context context, cl_device_id device, enum mem_alloc_kind kind,
          const cl_mem_properties_intel *properties, size_t size, cl_uint alignment,
          cl_int *errcode_ret)
{
   cl_int err;
   struct _cl_context *ctx = plat_context_from_handle(context);
   if (!ctx) {
      err = ICD_ERROR(CL_INVALID_CONTEXT, "context %p is not an hsacl context", (void *)context);
      goto out;
   }
   struct _cl_device_id *dev = NULL;
   if (kind != MEM_ALLOC_USM_HOST && (device || kind == MEM_ALLOC_USM_DEVICE)) {
      dev = plat_device_from_handle(device);
      if (!dev || !plat_context_has_device(ctx, dev)) {
         err = ICD_ERROR(CL_INVALID_DEVICE, "device %p is not a device of the context",
                         (void *)device);
         goto out;
      }
      if (!device_supports(dev, kind)) {
         err = ICD_ERROR(CL_INVALID_OPERATION, "device %s supports no USM allocation of kind "
                         "%d", dev->name, (int)kind);
         goto out;
      }
   } else {
      bool any = false;
      for (cl_uint i = 0; i < ctx->num_devices && !any; i++)
         any = device_supports(ctx->devices[i], kind);
      if (!any) {
         err = ICD_ERROR(CL_INVALID_OPERATION, "no device of the context supports USM "
                         "allocations of kind %d", (int)kind);
         goto out;
      }
   }
   if (alignment & (alignment - 1)) {
      err = ICD_ERROR(CL_INVALID_VALUE, "alignment %u is not 0 or a power of two", alignment);
      goto out;
   }
   if (alignment > USM_MAX_ALIGNMENT) {
      err = ICD_ERROR(CL_INVALID_VALUE, "alignment %u is above the largest data type (%u "
                      "bytes)", alignment, USM_MAX_ALIGNMENT);
      goto out;
   }
   cl_mem_alloc_flags_intel flags;
   err = parse_properties(properties, kind, &flags);
   if (err != CL_SUCCESS)
      goto out;
   /* The associated device decides the limit; without one, any device that supports the
    * kind and whose limit fits (the extension: "greater than ... for any device"). */
   struct _cl_device_id *on = dev;
   for (cl_uint i = 0; i < ctx->num_devices && !on; i++) {
      if (device_supports(ctx->devices[i], kind) && size <= ctx->devices[i]->max_alloc_size)
         on = ctx->devices[i];
   }
   if (size == 0 || !on || size > on->max_alloc_size) {
      err = ICD_ERROR(CL_INVALID_BUFFER_SIZE, "size %zu is 0 or above CL_DEVICE_MAX_MEM_ALLOC_"
                      "SIZE", size);
      goto out;
   }
   void *ptr = NULL;
   err = mem__alloc_create(ctx, on, size, alignment ? alignment : USM_MAX_ALIGNMENT,
                           kind != MEM_ALLOC_USM_DEVICE, kind, dev, flags, &ptr);
   if (err == CL_MEM_OBJECT_ALLOCATION_FAILURE)
      err = CL_OUT_OF_RESOURCES; /* the extension's code for an allocation the device refuses */
   if (err != CL_SUCCESS)
      goto out;
   icd_set_errcode(errcode_ret, CL_SUCCESS);
   return ptr;

out:
   icd_set_errcode(errcode_ret, err);
   return NULL;
}

void *CL_API_CALL
mem_HostMemAllocINTEL(cl_context context, const cl_mem_properties_intel *properties, size_t size,
                      cl_uint alignment, cl_int *errcode_ret)
{
   return usm_alloc(context, NULL, MEM_ALLOC_USM_HOST, properties, size, alignment,
                    errcode_ret);
}

void *CL_API_CALL
mem_DeviceMemAllocINTEL(cl_context context, cl_device_id device,
                        const cl_mem_properties_intel *properties, size_t size,
                        cl_uint alignment, cl_int *errcode_ret)
{
   return usm_alloc(context, device, MEM_ALLOC_USM_DEVICE, properties, size, alignment,
                    errcode_ret);
}

void *CL_API_CALL
mem_SharedMemAllocINTEL(cl_context context, cl_device_id device,
                        const cl_mem_properties_intel *properties, size_t size,
                        cl_uint alignment, cl_int *errcode_ret)
{
   return usm_alloc(context, device, MEM_ALLOC_USM_SHARED, properties, size, alignment,
                    errcode_ret);
}

/* Frees now: commands still using `ptr` are the application's problem (the extension). */
cl_int CL_API_CALL
mem_MemFreeINTEL(cl_context context, void *ptr)
{
   struct _cl_context *ctx = plat_context_from_handle(context);
   if (!ctx)
      return ICD_ERROR(CL_INVALID_CONTEXT, "context %p is not an hsacl context",
                       (void *)context);
   return ptr ? mem__alloc_free(ctx, ptr, true) : CL_SUCCESS;
}

/*
 * Waits for every command enqueued so far on the context's queues, then frees: a kernel
 * with indirect access counts as using every allocation, so no narrower set of commands
 * is known to leave `ptr` alone. Validated first, so a wrong pointer does not wait.
 */
cl_int CL_API_CALL
mem_MemBlockingFreeINTEL(cl_context context, void *ptr)
{
   struct _cl_context *ctx = plat_context_from_handle(context);
   if (!ctx)
      return ICD_ERROR(CL_INVALID_CONTEXT, "context %p is not an hsacl context",
                       (void *)context);
   if (!ptr)
      return CL_SUCCESS;
   struct mem_alloc_info a;
   if (!mem__alloc_lookup(ctx, ptr, &a) || a.base != ptr || a.kind == MEM_ALLOC_SVM)
      return ICD_ERROR(CL_INVALID_VALUE, "%p is not a unified shared memory allocation of "
                       "context %p", ptr, (void *)context);
   cl_int err = disp_context_finish(ctx);
   if (err != CL_SUCCESS)
      return err;
   return mem__alloc_free(ctx, ptr, true);
}

static cl_unified_shared_memory_type_intel
usm_type(const struct mem_alloc_info *a)
{
   switch (a->kind) {
   case MEM_ALLOC_USM_HOST:
      return CL_MEM_TYPE_HOST_INTEL;
   case MEM_ALLOC_USM_DEVICE:
      return CL_MEM_TYPE_DEVICE_INTEL;
   case MEM_ALLOC_USM_SHARED:
      return CL_MEM_TYPE_SHARED_INTEL;
   default:
      return CL_MEM_TYPE_UNKNOWN_INTEL;
   }
}

/* Any pointer: one outside every USM allocation of the context (SVM allocations included)
 * answers as CL_MEM_TYPE_UNKNOWN_INTEL with NULL, 0 and no flags. */
cl_int CL_API_CALL
mem_GetMemAllocInfoINTEL(cl_context context, const void *ptr, cl_mem_info_intel param_name,
                         size_t param_value_size, void *param_value,
                         size_t *param_value_size_ret)
{
   struct _cl_context *ctx = plat_context_from_handle(context);
   if (!ctx)
      return ICD_ERROR(CL_INVALID_CONTEXT, "context %p is not an hsacl context",
                       (void *)context);
   struct mem_alloc_info a;
   if (!mem__alloc_lookup(ctx, ptr, &a) || a.kind == MEM_ALLOC_SVM)
      a = (struct mem_alloc_info){ .kind = MEM_ALLOC_SVM };
   const size_t pvs = param_value_size;
   switch (param_name) {
   case CL_MEM_ALLOC_TYPE_INTEL:
      return ICD_GET_INFO_SCALAR(cl_unified_shared_memory_type_intel, usm_type(&a), pvs,
                                 param_value, param_value_size_ret);
   case CL_MEM_ALLOC_BASE_PTR_INTEL:
      return ICD_GET_INFO_SCALAR(void *, a.base, pvs, param_value, param_value_size_ret);
   case CL_MEM_ALLOC_SIZE_INTEL:
      return ICD_GET_INFO_SCALAR(size_t, a.size, pvs, param_value, param_value_size_ret);
   case CL_MEM_ALLOC_DEVICE_INTEL:
      return ICD_GET_INFO_SCALAR(cl_device_id, a.device ? plat_device_to_handle(a.device) : NULL,
                                 pvs, param_value, param_value_size_ret);
   case CL_MEM_ALLOC_FLAGS_INTEL:
      return ICD_GET_INFO_SCALAR(cl_mem_alloc_flags_intel, a.flags, pvs, param_value,
                                 param_value_size_ret);
   default:
      return ICD_ERROR(CL_INVALID_VALUE, "param_name 0x%x is not a USM allocation query",
                       (unsigned)param_name);
   }
}
