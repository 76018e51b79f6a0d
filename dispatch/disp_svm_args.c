/*
 * dispatch/disp_svm_args.c — SVM pointers as kernel arguments: clSetKernelArgSVMPointer
 * and clSetKernelExecInfo (OpenCL 3.0 API §5.9.2, §5.9.3).
 *
 * An SVM argument is stored in the kernel's argument table as the raw pointer (8 bytes)
 * with comp_kernel_arg_value.svm set; the launch (disp_kernel.c) writes it into the
 * kernarg segment unchanged. Coarse-grained SVM allocations are GPU-accessible from
 * clSVMAlloc on (mem_svm.c), so pointers the kernel finds inside SVM memory work without
 * further action; the CL_KERNEL_EXEC_INFO_SVM_PTRS list is kept (and cloned with the
 * kernel) but nothing needs to be made resident from it.
 */
#include "dispatch/disp.h"
#include "compiler/comp.h"

#include <string.h>

/* The kernel's clSetKernelExecInfo state (struct _cl_kernel.exec_info). */
struct svm_exec_info {
   void **ptrs;               /* CL_KERNEL_EXEC_INFO_SVM_PTRS, as last given */
   size_t num_ptrs;
   cl_bool fine_grain_system; /* CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM; only CL_FALSE
                               * can be set (no fine-grained system SVM) */
};

static void
exec_info_destroy(void *p)
{
   struct svm_exec_info *info = p;
   if (!info)
      return;
   icd_free(info->ptrs);
   icd_free(info);
}

/* Returns a new copy of `p`, or NULL when out of memory. */
static void *
exec_info_clone(const void *p)
{
   const struct svm_exec_info *src = p;
   struct svm_exec_info *info = icd_calloc(1, sizeof(*info));
   if (!info)
      return NULL;
   *info = *src;
   info->ptrs = NULL;
   if (src->num_ptrs) {
      info->ptrs = icd_malloc(src->num_ptrs * sizeof(*info->ptrs));
      if (!info->ptrs) {
         icd_free(info);
         return NULL;
      }
      memcpy(info->ptrs, src->ptrs, src->num_ptrs * sizeof(*info->ptrs));
   }
   return info;
}

static const struct comp_kernel_exec_info_ops svm_exec_info_ops = {
   .clone = exec_info_clone,
   .destroy = exec_info_destroy,
};

#define KERNEL_OR_RETURN(k, handle)                                                          \
   struct _cl_kernel *k = comp_kernel_from_handle(handle);                                  \
   if (!k)                                                                                  \
      return ICD_ERROR(CL_INVALID_KERNEL, "kernel %p is not an hsacl kernel", (void *)(handle));

/*
 * §5.9.2. The argument must be a pointer to global or constant memory
 * (CL_INVALID_ARG_INDEX otherwise, as for clSetKernelArgDevicePointerEXT). Any value is
 * accepted: a pointer into an SVM allocation, or one the kernel does not dereference.
 * CL_INVALID_OPERATION (no device with SVM) cannot happen: every hsacl device has
 * coarse-grained buffer SVM.
 */
cl_int CL_API_CALL
disp_SetKernelArgSVMPointer(cl_kernel kernel, cl_uint arg_index, const void *arg_value)
{
   KERNEL_OR_RETURN(k, kernel);
   if (arg_index >= k->num_args)
      return ICD_ERROR(CL_INVALID_ARG_INDEX, "kernel %s has %u arguments, index %u", k->name,
                       k->num_args, arg_index);
   const struct comp_kernel_arg *a = &k->sig->args[arg_index];
   if (a->kind != COMP_ARG_GLOBAL_BUFFER)
      return ICD_ERROR(CL_INVALID_ARG_INDEX, "argument %u of %s is not a pointer to global or "
                       "constant memory", arg_index, k->name);
   cl_int err = comp_kernel_set_arg_raw(k, arg_index, sizeof(arg_value), &arg_value);
   if (err != CL_SUCCESS)
      return err;
   k->args[arg_index].svm = true;
   return CL_SUCCESS;
}

/* Returns the kernel's exec-info state, creating it on first use. */
static cl_int
exec_info_get(struct _cl_kernel *k, struct svm_exec_info **out)
{
   if (!k->exec_info) {
      struct svm_exec_info *info = icd_calloc(1, sizeof(*info));
      if (!info)
         return ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "allocating kernel exec info");
      info->fine_grain_system = CL_FALSE;
      k->exec_info = info;
      k->exec_info_ops = &svm_exec_info_ops;
   }
   *out = k->exec_info;
   return CL_SUCCESS;
}

/*
 * §5.9.3. CL_KERNEL_EXEC_INFO_SVM_PTRS replaces the set of SVM pointers the kernel may
 * reach indirectly (size 0 with NULL: the empty set); CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_
 * SYSTEM = CL_TRUE is CL_INVALID_OPERATION since no device has fine-grained system SVM.
 * Like clSetKernelArg, not thread safe on one kernel (Appendix A.2).
 */
cl_int CL_API_CALL
disp_SetKernelExecInfo(cl_kernel kernel, cl_kernel_exec_info param_name,
                       size_t param_value_size, const void *param_value)
{
   KERNEL_OR_RETURN(k, kernel);
   const bool fgs = param_name == CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM;
   if (fgs && param_value && param_value_size == sizeof(cl_bool) &&
       *(const cl_bool *)param_value == CL_TRUE)
      return ICD_ERROR(CL_INVALID_OPERATION, "fine-grained system SVM is not supported");
   if (param_name != CL_KERNEL_EXEC_INFO_SVM_PTRS && !fgs)
      return ICD_ERROR(CL_INVALID_VALUE, "param_name 0x%x is not a kernel exec info",
                       (unsigned)param_name);
   if (!param_value && param_value_size)
      return ICD_ERROR(CL_INVALID_VALUE, "param_value is NULL with param_value_size %zu",
                       param_value_size);
   if (fgs ? (!param_value || param_value_size != sizeof(cl_bool))
           : param_value_size % sizeof(void *) != 0)
      return ICD_ERROR(CL_INVALID_VALUE, "param_value_size %zu is invalid for 0x%x",
                       param_value_size, (unsigned)param_name);

   struct svm_exec_info *info = NULL;
   cl_int err = exec_info_get(k, &info);
   if (err != CL_SUCCESS)
      return err;
   if (fgs) {
      info->fine_grain_system = CL_FALSE;
      return CL_SUCCESS;
   }
   size_t n = param_value_size / sizeof(void *);
   void **ptrs = NULL;
   if (n) {
      ptrs = icd_malloc(n * sizeof(*ptrs));
      if (!ptrs)
         return ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "copying %zu SVM pointers", n);
      memcpy(ptrs, param_value, n * sizeof(*ptrs));
   }
   icd_free(info->ptrs);
   info->ptrs = ptrs;
   info->num_ptrs = n;
   return CL_SUCCESS;
}
