/*
 * icd/icd_dispatch.c — the cl_icd_dispatch table (cl_khr_icd) and the loader-facing entry
 * points: clIcdGetPlatformIDsKHR and the extension-function lookups. One static const
 * table with designated initialisers, expanded from icd_entry_points.def.
 */
#include "icd.h"
#include "icd_priv.h"
#include "platform/plat.h"
#include "compiler/comp.h"
#include "dispatch/disp.h"
#include "dispatch/disp_cmdbuf.h"
#include "memory/mem.h"

#include <string.h>

/* Slots that exist only on Windows (void * on Linux): never called; filled so no slot is
 * NULL. */
static cl_int CL_API_CALL
icd_stub_unavailable(void)
{
   return ICD_ERROR(CL_INVALID_OPERATION, "Direct3D/DX9 sharing is not available on Linux");
}

const struct icd_dispatch_table icd_dispatch = {
   .base = {
#define ICD_ENTRY(slot, fn) .slot = fn,
#define ICD_LATER(slot) .slot = icd_stub_##slot,
#define ICD_NONE(slot) .slot = (void *)icd_stub_unavailable,
#include "icd_entry_points.def"
#undef ICD_ENTRY
#undef ICD_LATER
#undef ICD_NONE
   },
   /* The same function as cl_khr_suggested_local_work_size's (same parameters, same
    * rules), core in OpenCL 3.1. */
   .clGetKernelSuggestedLocalWorkSize = (void *)disp_GetKernelSuggestedLocalWorkSizeKHR,
};
_Static_assert(offsetof(struct icd_dispatch_table, clGetKernelSuggestedLocalWorkSize) ==
                  sizeof(cl_icd_dispatch),
               "the OpenCL 3.1 slots follow the 3.0 table without padding");

cl_int CL_API_CALL
icd_IcdGetPlatformIDsKHR(cl_uint num_entries, cl_platform_id *platforms, cl_uint *num_platforms)
{
   if ((num_entries == 0 && platforms) || (!platforms && !num_platforms))
      return ICD_ERROR(CL_INVALID_VALUE, "num_entries %u with platforms %p and num_platforms %p",
                       num_entries, (void *)platforms, (void *)num_platforms);
   if (platforms)
      platforms[0] = plat_platform_handle();
   if (num_platforms)
      *num_platforms = 1;
   return CL_SUCCESS;
}

/* Extension functions this platform exposes, by name (OpenCL 3.0 API §4.5: not core
 * functions), each with the extension that brings it (NULL: always there). */
static const struct {
   const char *name;
   void *fn;
   const char *extension;
} icd_extension_functions[] = {
   { "clIcdGetPlatformIDsKHR", (void *)icd_IcdGetPlatformIDsKHR, NULL },
   { "clGetKernelSubGroupInfoKHR", (void *)comp_GetKernelSubGroupInfo, "cl_khr_subgroups" },
   { "clCreateProgramWithILKHR", (void *)comp_CreateProgramWithIL, "cl_khr_il_program" },
   { "clGetKernelSuggestedLocalWorkSizeKHR", (void *)disp_GetKernelSuggestedLocalWorkSizeKHR,
     "cl_khr_suggested_local_work_size" },
   /* cl_khr_command_buffer and its mutable-dispatch extension (dispatch/disp_cmdbuf*.c). */
#define ICD_CMDBUF_FN(name) { "cl" #name, (void *)disp_##name, "cl_khr_command_buffer" }
   ICD_CMDBUF_FN(CreateCommandBufferKHR),
   ICD_CMDBUF_FN(FinalizeCommandBufferKHR),
   ICD_CMDBUF_FN(RetainCommandBufferKHR),
   ICD_CMDBUF_FN(ReleaseCommandBufferKHR),
   ICD_CMDBUF_FN(EnqueueCommandBufferKHR),
   ICD_CMDBUF_FN(GetCommandBufferInfoKHR),
   ICD_CMDBUF_FN(CommandBarrierWithWaitListKHR),
   ICD_CMDBUF_FN(CommandCopyBufferKHR),
   ICD_CMDBUF_FN(CommandCopyBufferRectKHR),
   ICD_CMDBUF_FN(CommandCopyBufferToImageKHR),
   ICD_CMDBUF_FN(CommandCopyImageKHR),
   ICD_CMDBUF_FN(CommandCopyImageToBufferKHR),
   ICD_CMDBUF_FN(CommandFillBufferKHR),
   ICD_CMDBUF_FN(CommandFillImageKHR),
   ICD_CMDBUF_FN(CommandSVMMemcpyKHR),
   ICD_CMDBUF_FN(CommandSVMMemFillKHR),
   ICD_CMDBUF_FN(CommandNDRangeKernelKHR),
#undef ICD_CMDBUF_FN
   { "clUpdateMutableCommandsKHR", (void *)disp_UpdateMutableCommandsKHR,
     "cl_khr_command_buffer_mutable_dispatch" },
   { "clGetMutableCommandInfoKHR", (void *)disp_GetMutableCommandInfoKHR,
     "cl_khr_command_buffer_mutable_dispatch" },
   { "clRemapCommandBufferKHR", (void *)disp_RemapCommandBufferKHR,
     "cl_khr_command_buffer_multi_device" },
#define USM "cl_intel_unified_shared_memory"
   { "clHostMemAllocINTEL", (void *)mem_HostMemAllocINTEL, USM },
   { "clDeviceMemAllocINTEL", (void *)mem_DeviceMemAllocINTEL, USM },
   { "clSharedMemAllocINTEL", (void *)mem_SharedMemAllocINTEL, USM },
   { "clMemFreeINTEL", (void *)mem_MemFreeINTEL, USM },
   { "clMemBlockingFreeINTEL", (void *)mem_MemBlockingFreeINTEL, USM },
   { "clGetMemAllocInfoINTEL", (void *)mem_GetMemAllocInfoINTEL, USM },
   { "clSetKernelArgMemPointerINTEL", (void *)comp_SetKernelArgMemPointerINTEL, USM },
   { "clEnqueueMemcpyINTEL", (void *)mem_EnqueueMemcpyINTEL, USM },
   { "clEnqueueMemFillINTEL", (void *)mem_EnqueueMemFillINTEL, USM },
   { "clEnqueueMemsetINTEL", (void *)mem_EnqueueMemsetINTEL, USM },
   { "clEnqueueMigrateMemINTEL", (void *)mem_EnqueueMigrateMemINTEL, USM },
   { "clEnqueueMemAdviseINTEL", (void *)mem_EnqueueMemAdviseINTEL, USM },
#undef USM
   { "clSetKernelArgDevicePointerEXT", (void *)comp_SetKernelArgDevicePointerEXT,
     "cl_ext_buffer_device_address" },
#define SEMA "cl_khr_semaphore"
   { "clCreateSemaphoreWithPropertiesKHR", (void *)disp_CreateSemaphoreWithPropertiesKHR, SEMA },
   { "clEnqueueWaitSemaphoresKHR", (void *)disp_EnqueueWaitSemaphoresKHR, SEMA },
   { "clEnqueueSignalSemaphoresKHR", (void *)disp_EnqueueSignalSemaphoresKHR, SEMA },
   { "clGetSemaphoreInfoKHR", (void *)disp_GetSemaphoreInfoKHR, SEMA },
   { "clRetainSemaphoreKHR", (void *)disp_RetainSemaphoreKHR, SEMA },
   { "clReleaseSemaphoreKHR", (void *)disp_ReleaseSemaphoreKHR, SEMA },
   { "clGetSemaphoreHandleForTypeKHR", (void *)disp_GetSemaphoreHandleForTypeKHR, SEMA },
#undef SEMA
};

void *CL_API_CALL
icd_GetExtensionFunctionAddress(const char *func_name)
{
   if (!func_name)
      return NULL;
   for (size_t i = 0; i < sizeof(icd_extension_functions) / sizeof(icd_extension_functions[0]);
        i++) {
      if (!strcmp(func_name, icd_extension_functions[i].name))
         return !icd_extension_functions[i].extension ||
                      plat_extension_reported(icd_extension_functions[i].extension)
                   ? icd_extension_functions[i].fn
                   : NULL;
   }
   return NULL;
}

void *CL_API_CALL
icd_GetExtensionFunctionAddressForPlatform(cl_platform_id platform, const char *func_name)
{
   if (!plat_platform_from_handle(platform))
      return NULL;
   return icd_GetExtensionFunctionAddress(func_name);
}

/* The loader's entry points: the only symbols libhsacl.so exports (hsacl.map). */
__attribute__((visibility("default"))) CL_API_ENTRY cl_int CL_API_CALL
clIcdGetPlatformIDsKHR(cl_uint num_entries, cl_platform_id *platforms, cl_uint *num_platforms)
{
   return icd_IcdGetPlatformIDsKHR(num_entries, platforms, num_platforms);
}

__attribute__((visibility("default"))) CL_API_ENTRY void *CL_API_CALL
clGetExtensionFunctionAddress(const char *func_name)
{
   return icd_GetExtensionFunctionAddress(func_name);
}

__attribute__((visibility("default"))) CL_API_ENTRY void *CL_API_CALL
clGetExtensionFunctionAddressForPlatform(cl_platform_id platform, const char *func_name)
{
   return icd_GetExtensionFunctionAddressForPlatform(platform, func_name);
}

/* ocl-icd 2.3 looks clGetPlatformInfo up by name before trusting the dispatch table. */
__attribute__((visibility("default"))) CL_API_ENTRY cl_int CL_API_CALL
clGetPlatformInfo(cl_platform_id platform, cl_platform_info param_name, size_t param_value_size,
                  void *param_value, size_t *param_value_size_ret)
{
   return plat_GetPlatformInfo(platform, param_name, param_value_size, param_value,
                               param_value_size_ret);
}
