/*
 * compiler/comp_kernel_args.c — a kernel's argument values and exec info (OpenCL 3.0 API
 * §5.9.2, §5.9.3): clSetKernelArg, validated against the argument's kind in the code
 * object's signature; clSetKernelArgSVMPointer; clSetKernelExecInfo; the copy clCloneKernel
 * takes. The kernel owns this state; dispatch/ only reads it when it launches
 * (disp_kernarg.c writes the values into the kernarg segment).
 *
 * Values are stored raw (struct comp_kernel_arg_value): a cl_mem, cl_sampler or
 * cl_command_queue handle as given, by-value bytes, a __local size with a NULL value, or an
 * SVM, USM or device pointer (`svm` set: clSetKernelArgSVMPointer, clSetKernelArgMemPointerINTEL,
 * clSetKernelArgDevicePointerEXT) written into the kernarg segment unchanged. SVM and USM
 * allocations are GPU-accessible from their allocation on, and buffers from their creation
 * (memory/), so pointers the kernel finds inside them work without further action; the
 * pointer sets and indirect-access flags of clSetKernelExecInfo are kept (and cloned with
 * the kernel) but nothing needs to be made resident from them.
 *
 * Validation sees the objects an argument names (memory objects, samplers, device queues,
 * which memory/ and dispatch/ own, modules above this one) as the application does: a handle
 * whose ICD header carries the right type tag, and whose type, context and access flags it
 * asks through the dispatch table (clGetMemObjectInfo, clGetSamplerInfo,
 * clGetCommandQueueInfo). It depends on the API's contract, not on those modules' structs,
 * and writes nothing of theirs.
 *
 * The specification makes clSetKernelArg and clSetKernelExecInfo on one kernel from several
 * threads the application's problem (Appendix A.2), but not an enqueue of the kernel on
 * another thread: a value changes under the kernel's argument lock, which also forgets the
 * launch capture dispatch/ keeps in the kernel (comp.h), so the next launch captures the
 * values anew while launches already enqueued keep theirs.
 */
#include "comp_program_priv.h"
#include "platform/plat.h"

#include <string.h>

/* What an argument handle is, asked through the dispatch table (see the top). */
struct arg_object {
   cl_context context;
   cl_mem_object_type mem_type; /* memory objects */
   cl_mem_flags mem_flags;      /* memory objects */
   cl_command_queue_properties queue_properties; /* queues */
};

/* A live hsacl memory object: its type, context and flags in *o. */
static bool
arg_mem(cl_mem h, struct arg_object *o)
{
   const cl_icd_dispatch *d = &icd_dispatch.base;
   return icd_object_is(h, ICD_TYPE_MEM) &&
          d->clGetMemObjectInfo(h, CL_MEM_TYPE, sizeof(o->mem_type), &o->mem_type, NULL) ==
             CL_SUCCESS &&
          d->clGetMemObjectInfo(h, CL_MEM_CONTEXT, sizeof(o->context), &o->context, NULL) ==
             CL_SUCCESS &&
          d->clGetMemObjectInfo(h, CL_MEM_FLAGS, sizeof(o->mem_flags), &o->mem_flags, NULL) ==
             CL_SUCCESS;
}

/* A live hsacl sampler: its context in *o. */
static bool
arg_sampler(cl_sampler h, struct arg_object *o)
{
   return icd_object_is(h, ICD_TYPE_SAMPLER) &&
          icd_dispatch.base.clGetSamplerInfo(h, CL_SAMPLER_CONTEXT, sizeof(o->context),
                                             &o->context, NULL) == CL_SUCCESS;
}

/* A live hsacl command queue: its context and properties in *o. */
static bool
arg_queue(cl_command_queue h, struct arg_object *o)
{
   const cl_icd_dispatch *d = &icd_dispatch.base;
   return icd_object_is(h, ICD_TYPE_COMMAND_QUEUE) &&
          d->clGetCommandQueueInfo(h, CL_QUEUE_CONTEXT, sizeof(o->context), &o->context,
                                   NULL) == CL_SUCCESS &&
          d->clGetCommandQueueInfo(h, CL_QUEUE_PROPERTIES, sizeof(o->queue_properties),
                                   &o->queue_properties, NULL) == CL_SUCCESS;
}

/* Images are every memory object type but buffers and pipes. */
static bool
is_image_type(cl_mem_object_type t)
{
   return t != CL_MEM_OBJECT_BUFFER && t != CL_MEM_OBJECT_PIPE;
}

/* Stores the raw value of explicit argument `index` (< kernel->num_args): copies `size`
 * bytes of `value`, or records a NULL value (local memory size, NULL buffer) when `value`
 * is NULL, and marks it set, an SVM pointer or not (`svm`). The caller validated index,
 * size and value against kernel->sig. CL_OUT_OF_HOST_MEMORY leaves the old value. Under
 * the argument lock; forgets the launch capture. */
static cl_int
kernel_set_arg_raw(struct _cl_kernel *kernel, cl_uint index, size_t size, const void *value,
                   bool svm)
{
   struct comp_kernel_arg_value *a = &kernel->args[index];
   cl_int err = CL_SUCCESS;
   pthread_mutex_lock(&kernel->args_lock);
   if (value) {
      if (size > a->capacity) {
         void *p = icd_realloc(a->value, size);
         if (!p) {
            err = ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "kernel argument %u (%zu bytes)", index,
                            size);
            goto out_unlock;
         }
         a->value = p;
         a->capacity = size;
      }
      memcpy(a->value, value, size);
   } else {
      icd_free(a->value);
      a->value = NULL;
      a->capacity = 0;
   }
   a->size = size;
   if (!a->set)
      atomic_fetch_add_explicit(&kernel->num_set, 1, memory_order_relaxed);
   a->set = true;
   a->svm = svm;
   kernel->capture = NULL;
out_unlock:
   pthread_mutex_unlock(&kernel->args_lock);
   return err;
}

#define KERNEL_OR_RETURN(k, handle)                                                          \
   struct _cl_kernel *k = comp_kernel_from_handle(handle);                                  \
   if (!k)                                                                                  \
      return ICD_ERROR(CL_INVALID_KERNEL, "kernel %p is not an hsacl kernel", (void *)(handle));

cl_int CL_API_CALL
comp_SetKernelArg(cl_kernel kernel, cl_uint arg_index, size_t arg_size, const void *arg_value)
{
   KERNEL_OR_RETURN(k, kernel);
   if (arg_index >= k->num_args)
      return ICD_ERROR(CL_INVALID_ARG_INDEX, "kernel %s has %u arguments, index %u", k->name,
                       k->num_args, arg_index);
   const struct comp_kernel_arg *a = &k->sig->args[arg_index];
   switch (a->kind) {
   case COMP_ARG_GLOBAL_BUFFER:
      if (arg_size != sizeof(cl_mem))
         return ICD_ERROR(CL_INVALID_ARG_SIZE, "argument %u of %s is a buffer: size must be "
                          "sizeof(cl_mem), not %zu", arg_index, k->name, arg_size);
      if (arg_value && *(const cl_mem *)arg_value) {
         struct arg_object m;
         if (!arg_mem(*(const cl_mem *)arg_value, &m) || m.mem_type != CL_MEM_OBJECT_BUFFER)
            return ICD_ERROR(CL_INVALID_MEM_OBJECT, "argument %u of %s is not a buffer",
                             arg_index, k->name);
         if (m.context != plat_context_to_handle(k->context))
            return ICD_ERROR(CL_INVALID_MEM_OBJECT, "argument %u of %s: buffer of another "
                             "context", arg_index, k->name);
      }
      /* A NULL value or a NULL cl_mem is a NULL pointer (§5.9.2). */
      return kernel_set_arg_raw(k, arg_index, sizeof(cl_mem),
                                arg_value ? arg_value : &(cl_mem){ NULL }, false);
   case COMP_ARG_DYNAMIC_SHARED_POINTER:
      if (arg_value)
         return ICD_ERROR(CL_INVALID_ARG_VALUE, "argument %u of %s is __local: arg_value must "
                          "be NULL", arg_index, k->name);
      /* OpenCL 3.1 allows a local-memory argument of size 0 (the kernel must not access
       * it); earlier versions name CL_INVALID_ARG_SIZE. */
      if (arg_size == 0 && plat_opencl_version() < CL_MAKE_VERSION(3, 1, 0))
         return ICD_ERROR(CL_INVALID_ARG_SIZE, "argument %u of %s is __local: size is 0",
                          arg_index, k->name);
      return kernel_set_arg_raw(k, arg_index, arg_size, NULL, false);
   case COMP_ARG_BY_VALUE:
      if (arg_size != a->size)
         return ICD_ERROR(CL_INVALID_ARG_SIZE, "argument %u of %s takes %u bytes, not %zu",
                          arg_index, k->name, a->size, arg_size);
      if (!arg_value)
         return ICD_ERROR(CL_INVALID_ARG_VALUE, "argument %u of %s: arg_value is NULL",
                          arg_index, k->name);
      return kernel_set_arg_raw(k, arg_index, arg_size, arg_value, false);
   case COMP_ARG_SAMPLER: {
      if (arg_size != sizeof(cl_sampler))
         return ICD_ERROR(CL_INVALID_ARG_SIZE, "argument %u of %s is a sampler: size must be "
                          "sizeof(cl_sampler), not %zu", arg_index, k->name, arg_size);
      struct arg_object s;
      if (!arg_value || !arg_sampler(*(const cl_sampler *)arg_value, &s) ||
          s.context != plat_context_to_handle(k->context))
         return ICD_ERROR(CL_INVALID_SAMPLER, "argument %u of %s: not a sampler of the "
                          "kernel's context", arg_index, k->name);
      return kernel_set_arg_raw(k, arg_index, sizeof(cl_sampler), arg_value, false);
   }
   case COMP_ARG_PIPE: {
      /* §5.9.2: a pipe argument takes a pipe object of the kernel's context. */
      if (arg_size != sizeof(cl_mem))
         return ICD_ERROR(CL_INVALID_ARG_SIZE, "argument %u of %s is a pipe: size must be "
                          "sizeof(cl_mem), not %zu", arg_index, k->name, arg_size);
      if (!arg_value)
         return ICD_ERROR(CL_INVALID_ARG_VALUE, "argument %u of %s is a pipe: arg_value is "
                          "NULL", arg_index, k->name);
      struct arg_object m;
      if (!arg_mem(*(const cl_mem *)arg_value, &m) || m.mem_type != CL_MEM_OBJECT_PIPE)
         return ICD_ERROR(CL_INVALID_MEM_OBJECT, "argument %u of %s: %p is not a pipe object",
                          arg_index, k->name, (void *)*(const cl_mem *)arg_value);
      if (m.context != plat_context_to_handle(k->context))
         return ICD_ERROR(CL_INVALID_MEM_OBJECT, "argument %u of %s: pipe of another context",
                          arg_index, k->name);
      return kernel_set_arg_raw(k, arg_index, sizeof(cl_mem), arg_value, false);
   }
   case COMP_ARG_IMAGE: {
      if (arg_size != sizeof(cl_mem))
         return ICD_ERROR(CL_INVALID_ARG_SIZE, "argument %u of %s takes a cl_mem, not %zu "
                          "bytes", arg_index, k->name, arg_size);
      struct arg_object m;
      if (!arg_value || !arg_mem(*(const cl_mem *)arg_value, &m) ||
          !is_image_type(m.mem_type) || m.context != plat_context_to_handle(k->context))
         return ICD_ERROR(CL_INVALID_MEM_OBJECT, "argument %u of %s: not an image of the "
                          "kernel's context", arg_index, k->name);
      /* §5.9.2 CL_INVALID_ARG_VALUE: an image argument declared write_only (read_only) takes
       * no image created CL_MEM_READ_ONLY (CL_MEM_WRITE_ONLY); read_write images take
       * neither. */
      cl_mem_flags f = m.mem_flags;
      bool bad = (a->access == COMP_ACCESS_WRITE_ONLY && (f & CL_MEM_READ_ONLY)) ||
                 (a->access != COMP_ACCESS_WRITE_ONLY && a->access != COMP_ACCESS_READ_WRITE &&
                  (f & CL_MEM_WRITE_ONLY)) ||
                 (a->access == COMP_ACCESS_READ_WRITE && (f & (CL_MEM_READ_ONLY |
                                                               CL_MEM_WRITE_ONLY)));
      if (bad)
         return ICD_ERROR(CL_INVALID_ARG_VALUE, "argument %u of %s: the image's access flags "
                          "0x%llx do not allow the argument's access qualifier", arg_index,
                          k->name, (unsigned long long)f);
      return kernel_set_arg_raw(k, arg_index, sizeof(cl_mem), arg_value, false);
   }
   case COMP_ARG_QUEUE: {
      /* queue_t: a device queue of the kernel's context (device-side enqueue, disp_devq.c) */
      if (arg_size != sizeof(cl_command_queue))
         return ICD_ERROR(CL_INVALID_ARG_SIZE, "argument %u of %s is a queue: size must be "
                          "sizeof(cl_command_queue), not %zu", arg_index, k->name, arg_size);
      if (!arg_value)
         return ICD_ERROR(CL_INVALID_ARG_VALUE, "argument %u of %s is a queue: arg_value is "
                          "NULL", arg_index, k->name);
      struct arg_object dq;
      if (!arg_queue(*(const cl_command_queue *)arg_value, &dq) ||
          !(dq.queue_properties & CL_QUEUE_ON_DEVICE) ||
          dq.context != plat_context_to_handle(k->context))
         return ICD_ERROR(CL_INVALID_DEVICE_QUEUE, "argument %u of %s: %p is not a device "
                          "queue of the kernel's context", arg_index, k->name,
                          (void *)*(const cl_command_queue *)arg_value);
      return kernel_set_arg_raw(k, arg_index, sizeof(cl_command_queue), arg_value,
                                false);
   }
   default:
      return ICD_ERROR(CL_INVALID_ARG_VALUE, "argument %u of %s is of a kind hsacl does not "
                       "support", arg_index, k->name);
   }
}

/* True when a device of the kernel's context reports `extension`. */
static bool
context_has_extension(const struct _cl_kernel *k, const char *extension)
{
   for (cl_uint i = 0; i < k->context->num_devices; i++) {
      if (plat_device_has_extension(k->context->devices[i], extension))
         return true;
   }
   return false;
}

/* Stores a raw pointer value for argument `arg_index`, a pointer to global or constant
 * memory (CL_INVALID_ARG_INDEX otherwise). */
static cl_int
set_arg_pointer(struct _cl_kernel *k, cl_uint arg_index, const void *arg_value)
{
   if (arg_index >= k->num_args)
      return ICD_ERROR(CL_INVALID_ARG_INDEX, "kernel %s has %u arguments, index %u", k->name,
                       k->num_args, arg_index);
   const struct comp_kernel_arg *a = &k->sig->args[arg_index];
   if (a->kind != COMP_ARG_GLOBAL_BUFFER)
      return ICD_ERROR(CL_INVALID_ARG_INDEX, "argument %u of %s is not a pointer to global or "
                       "constant memory", arg_index, k->name);
   return kernel_set_arg_raw(k, arg_index, sizeof(arg_value), &arg_value, true);
}

/*
 * §5.9.2. The argument must be a pointer to global or constant memory
 * (CL_INVALID_ARG_INDEX otherwise, as for clSetKernelArgDevicePointerEXT). Any value is
 * accepted: a pointer into an SVM allocation, or one the kernel does not dereference.
 * CL_INVALID_OPERATION (no device with SVM) cannot happen: every hsacl device has
 * coarse-grained buffer SVM.
 */
cl_int CL_API_CALL
comp_SetKernelArgSVMPointer(cl_kernel kernel, cl_uint arg_index, const void *arg_value)
{
   KERNEL_OR_RETURN(k, kernel);
   return set_arg_pointer(k, arg_index, arg_value);
}

/* cl_intel_unified_shared_memory 1.1.0: any pointer value is valid (one the kernel does
 * not dereference need not point anywhere), for an argument that is a pointer to global or
 * constant memory. */
cl_int CL_API_CALL
comp_SetKernelArgMemPointerINTEL(cl_kernel kernel, cl_uint arg_index, const void *arg_value)
{
   KERNEL_OR_RETURN(k, kernel);
   return set_arg_pointer(k, arg_index, arg_value);
}

/* cl_ext_buffer_device_address 1.0.2: a device address (of a buffer created with
 * CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT, or any value the kernel does not dereference) for an
 * argument that is a pointer to global memory. */
cl_int CL_API_CALL
comp_SetKernelArgDevicePointerEXT(cl_kernel kernel, cl_uint arg_index,
                                  cl_ulong arg_value)
{
   KERNEL_OR_RETURN(k, kernel);
   if (!context_has_extension(k, "cl_ext_buffer_device_address"))
      return ICD_ERROR(CL_INVALID_OPERATION, "no device of the kernel's context supports "
                       "cl_ext_buffer_device_address");
   return set_arg_pointer(k, arg_index, (const void *)(uintptr_t)arg_value);
}

/* Replaces pointer set `set` with the param_value_size / sizeof(void *) pointers of
 * `value` (the empty set when 0). */
static cl_int
set_pointer_list(struct _cl_kernel *k, int set, size_t param_value_size, const void *value)
{
   size_t n = param_value_size / sizeof(void *);
   void **ptrs = NULL;
   if (n) {
      ptrs = icd_malloc(n * sizeof(*ptrs));
      if (!ptrs)
         return ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "copying %zu pointers", n);
      memcpy(ptrs, value, n * sizeof(*ptrs));
   }
   icd_free(k->ptrs[set]);
   k->ptrs[set] = ptrs;
   k->num_ptrs[set] = n;
   return CL_SUCCESS;
}

/* The exec info a name sets: a pointer set, a flag, or neither (`set` -1, `flag` 0). */
struct exec_info {
   cl_kernel_exec_info name;
   int set;
   unsigned flag;
   const char *extension; /* reported by a device of the context, or CL_INVALID_OPERATION */
};

static const struct exec_info exec_infos[] = {
   { CL_KERNEL_EXEC_INFO_SVM_PTRS, COMP_PTRS_SVM, 0, NULL },
   { CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, -1, 0, NULL },
   { CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL, COMP_PTRS_USM, 0, "cl_intel_unified_shared_memory" },
   { CL_KERNEL_EXEC_INFO_INDIRECT_HOST_ACCESS_INTEL, -1, 1u << 0,
     "cl_intel_unified_shared_memory" },
   { CL_KERNEL_EXEC_INFO_INDIRECT_DEVICE_ACCESS_INTEL, -1, 1u << 1,
     "cl_intel_unified_shared_memory" },
   { CL_KERNEL_EXEC_INFO_INDIRECT_SHARED_ACCESS_INTEL, -1, 1u << 2,
     "cl_intel_unified_shared_memory" },
   { CL_KERNEL_EXEC_INFO_DEVICE_PTRS_EXT, COMP_PTRS_DEVICE, 0, "cl_ext_buffer_device_address" },
};

/*
 * §5.9.3. A pointer set (CL_KERNEL_EXEC_INFO_SVM_PTRS, _USM_PTRS_INTEL, _DEVICE_PTRS_EXT)
 * replaces the kernel's previous one (size 0 with NULL: the empty set); a cl_bool
 * (_SVM_FINE_GRAIN_SYSTEM, _INDIRECT_{HOST,DEVICE,SHARED}_ACCESS_INTEL) sets its flag.
 * CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM = CL_TRUE is CL_INVALID_OPERATION since no
 * device has fine-grained system SVM; the extensions' names are CL_INVALID_OPERATION where
 * no device of the context reports the extension (USM: a device that reports it supports
 * every kind of allocation the flags name). Like clSetKernelArg, not thread safe on one
 * kernel (Appendix A.2).
 */
cl_int CL_API_CALL
comp_SetKernelExecInfo(cl_kernel kernel, cl_kernel_exec_info param_name,
                       size_t param_value_size, const void *param_value)
{
   KERNEL_OR_RETURN(k, kernel);
   const struct exec_info *info = NULL;
   for (size_t i = 0; i < sizeof(exec_infos) / sizeof(exec_infos[0]) && !info; i++) {
      if (exec_infos[i].name == param_name)
         info = &exec_infos[i];
   }
   if (!info)
      return ICD_ERROR(CL_INVALID_VALUE, "param_name 0x%x is not a kernel exec info",
                       (unsigned)param_name);
   if (info->extension && !context_has_extension(k, info->extension))
      return ICD_ERROR(CL_INVALID_OPERATION, "param_name 0x%x needs %s, which no device of the "
                       "kernel's context supports", (unsigned)param_name, info->extension);
   const bool is_bool = info->set < 0;
   const bool fgs = param_name == CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM;
   if (fgs && param_value && param_value_size == sizeof(cl_bool) &&
       *(const cl_bool *)param_value == CL_TRUE)
      return ICD_ERROR(CL_INVALID_OPERATION, "fine-grained system SVM is not supported");
   if (!param_value && param_value_size)
      return ICD_ERROR(CL_INVALID_VALUE, "param_value is NULL with param_value_size %zu",
                       param_value_size);
   if (is_bool ? (!param_value || param_value_size != sizeof(cl_bool))
               : param_value_size % sizeof(void *) != 0)
      return ICD_ERROR(CL_INVALID_VALUE, "param_value_size %zu is invalid for 0x%x",
                       param_value_size, (unsigned)param_name);

   if (!is_bool)
      return set_pointer_list(k, info->set, param_value_size, param_value);
   if (*(const cl_bool *)param_value)
      k->indirect |= info->flag;
   else
      k->indirect &= ~info->flag;
   return CL_SUCCESS; /* fine-grained system SVM CL_FALSE: what every kernel has */
}

cl_int
comp__kernel_args_copy(struct _cl_kernel *k, const struct _cl_kernel *src)
{
   for (cl_uint i = 0; i < src->num_args; i++) {
      const struct comp_kernel_arg_value *a = &src->args[i];
      if (a->set) {
         cl_int err = kernel_set_arg_raw(k, i, a->size, a->value, a->svm);
         if (err != CL_SUCCESS)
            return err;
      }
   }
   for (int set = 0; set < COMP_PTR_SETS; set++) {
      cl_int err = set_pointer_list(k, set, src->num_ptrs[set] * sizeof(void *), src->ptrs[set]);
      if (err != CL_SUCCESS)
         return err;
   }
   k->indirect = src->indirect;
   return CL_SUCCESS;
}

void
comp__kernel_args_finish(struct _cl_kernel *k)
{
   for (cl_uint i = 0; k->args && i < k->num_args; i++)
      icd_free(k->args[i].value);
   icd_free(k->args);
   k->args = NULL;
   for (int set = 0; set < COMP_PTR_SETS; set++) {
      icd_free(k->ptrs[set]);
      k->ptrs[set] = NULL;
      k->num_ptrs[set] = 0;
   }
}
