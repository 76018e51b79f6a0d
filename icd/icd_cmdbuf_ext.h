/*
 * icd/icd_cmdbuf_ext.h — the definitions of cl_khr_command_buffer 0.9.8,
 * cl_khr_command_buffer_mutable_dispatch 0.9.5 and cl_khr_command_buffer_multi_device 0.9.2
 * that Debian's OpenCL headers (2023.04, provisional versions of the three) lack, with the
 * values of Khronos' OpenCL-Headers v2026.05.29 (the headers the Khronos CTS v2026-07-09 is
 * built against). Each is guarded so that a newer installed header wins. Types whose layout
 * changed since Debian's header (the mutable-dispatch configuration) get a name of ours.
 * In icd/ because platform (device queries) and dispatch (the objects) both need them.
 */
#ifndef ICD_CMDBUF_EXT_H
#define ICD_CMDBUF_EXT_H

#include <CL/cl.h>
#include <CL/cl_ext.h>

/* The versions reported are in platform/plat_extensions.def. */

/* The properties argument every clCommand*KHR takes since 0.9.5; Debian's typedef has the
 * older per-command name. Both are cl_properties. */
typedef cl_properties icd_command_properties_khr;
typedef cl_uint icd_command_buffer_update_type_khr;
typedef cl_bitfield icd_platform_command_buffer_capabilities_khr;

#ifndef CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR
#define CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR 0x129A
#endif
#ifndef CL_COMMAND_BUFFER_CONTEXT_KHR
#define CL_COMMAND_BUFFER_CONTEXT_KHR 0x1299
#endif
#ifndef CL_COMMAND_BUFFER_CAPABILITY_OUT_OF_ORDER_KHR
#define CL_COMMAND_BUFFER_CAPABILITY_OUT_OF_ORDER_KHR (1 << 3)
#endif
#ifndef CL_COMMAND_BUFFER_MUTABLE_KHR
#define CL_COMMAND_BUFFER_MUTABLE_KHR (1 << 1)
#endif
#ifndef CL_COMMAND_BUFFER_DEVICE_SIDE_SYNC_KHR
#define CL_COMMAND_BUFFER_DEVICE_SIDE_SYNC_KHR (1 << 2)
#endif
#ifndef CL_INVALID_MUTABLE_COMMAND_KHR
#define CL_INVALID_MUTABLE_COMMAND_KHR -1141
#endif
#ifndef CL_DEVICE_MUTABLE_DISPATCH_CAPABILITIES_KHR
#define CL_DEVICE_MUTABLE_DISPATCH_CAPABILITIES_KHR 0x12B0
#endif
#ifndef CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR
#define CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR 0x12B1
#endif
#ifndef CL_MUTABLE_DISPATCH_GLOBAL_OFFSET_KHR
#define CL_MUTABLE_DISPATCH_GLOBAL_OFFSET_KHR (1 << 0)
#define CL_MUTABLE_DISPATCH_GLOBAL_SIZE_KHR (1 << 1)
#define CL_MUTABLE_DISPATCH_LOCAL_SIZE_KHR (1 << 2)
#define CL_MUTABLE_DISPATCH_ARGUMENTS_KHR (1 << 3)
#define CL_MUTABLE_DISPATCH_EXEC_INFO_KHR (1 << 4)
#endif
#ifndef CL_MUTABLE_COMMAND_COMMAND_QUEUE_KHR
#define CL_MUTABLE_COMMAND_COMMAND_QUEUE_KHR 0x12A0
#endif
#ifndef CL_MUTABLE_COMMAND_COMMAND_BUFFER_KHR
#define CL_MUTABLE_COMMAND_COMMAND_BUFFER_KHR 0x12A1
#endif
#ifndef CL_MUTABLE_COMMAND_PROPERTIES_ARRAY_KHR
#define CL_MUTABLE_COMMAND_PROPERTIES_ARRAY_KHR 0x12A2
#endif
#ifndef CL_MUTABLE_DISPATCH_KERNEL_KHR
#define CL_MUTABLE_DISPATCH_KERNEL_KHR 0x12A3
#endif
#ifndef CL_MUTABLE_DISPATCH_DIMENSIONS_KHR
#define CL_MUTABLE_DISPATCH_DIMENSIONS_KHR 0x12A4
#endif
#ifndef CL_MUTABLE_DISPATCH_GLOBAL_WORK_OFFSET_KHR
#define CL_MUTABLE_DISPATCH_GLOBAL_WORK_OFFSET_KHR 0x12A5
#endif
#ifndef CL_MUTABLE_DISPATCH_GLOBAL_WORK_SIZE_KHR
#define CL_MUTABLE_DISPATCH_GLOBAL_WORK_SIZE_KHR 0x12A6
#endif
#ifndef CL_MUTABLE_DISPATCH_LOCAL_WORK_SIZE_KHR
#define CL_MUTABLE_DISPATCH_LOCAL_WORK_SIZE_KHR 0x12A7
#endif
#ifndef CL_MUTABLE_COMMAND_COMMAND_TYPE_KHR
#define CL_MUTABLE_COMMAND_COMMAND_TYPE_KHR 0x12AD
#endif
/* 0 since 0.9.5 (Debian's header has the provisional 1, with a base configuration at 0):
 * a name of ours so that an older header cannot give the wrong value. */
#define ICD_STRUCTURE_TYPE_MUTABLE_DISPATCH_CONFIG_KHR 0
#ifndef CL_COMMAND_BUFFER_MUTABLE_DISPATCH_ASSERTS_KHR
#define CL_COMMAND_BUFFER_MUTABLE_DISPATCH_ASSERTS_KHR 0x12B7
#endif
#ifndef CL_MUTABLE_DISPATCH_ASSERTS_KHR
#define CL_MUTABLE_DISPATCH_ASSERTS_KHR 0x12B8
#endif
#ifndef CL_MUTABLE_DISPATCH_ASSERT_NO_ADDITIONAL_WORK_GROUPS_KHR
#define CL_MUTABLE_DISPATCH_ASSERT_NO_ADDITIONAL_WORK_GROUPS_KHR (1 << 0)
#endif
/* Mutable dispatch: finalized with kernel arguments still to be set by an update. */
#ifndef CL_COMMAND_BUFFER_STATE_FINALIZED_KHR
#define CL_COMMAND_BUFFER_STATE_FINALIZED_KHR 2
#endif
#ifndef CL_PLATFORM_COMMAND_BUFFER_CAPABILITIES_KHR
#define CL_PLATFORM_COMMAND_BUFFER_CAPABILITIES_KHR 0x0908
#endif
#ifndef CL_COMMAND_BUFFER_PLATFORM_UNIVERSAL_SYNC_KHR
#define CL_COMMAND_BUFFER_PLATFORM_UNIVERSAL_SYNC_KHR (1 << 0)
#define CL_COMMAND_BUFFER_PLATFORM_REMAP_QUEUES_KHR (1 << 1)
#define CL_COMMAND_BUFFER_PLATFORM_AUTOMATIC_REMAP_KHR (1 << 2)
#endif
#ifndef CL_DEVICE_COMMAND_BUFFER_NUM_SYNC_DEVICES_KHR
#define CL_DEVICE_COMMAND_BUFFER_NUM_SYNC_DEVICES_KHR 0x12AB
#define CL_DEVICE_COMMAND_BUFFER_SYNC_DEVICES_KHR 0x12AC
#endif
#ifndef CL_COMMAND_BUFFER_CAPABILITY_MULTIPLE_QUEUE_KHR
#define CL_COMMAND_BUFFER_CAPABILITY_MULTIPLE_QUEUE_KHR (1 << 4)
#endif

/* What hsacl's command buffers support, on every device (platform answers the device
 * queries with these, dispatch checks queues and properties against them): printf and
 * simultaneous use come with the replay through the ordinary enqueue paths, out-of-order
 * queues with the sync points becoming event wait lists (dispatch/disp_cmdbuf.c); with
 * cl_khr_command_buffer_multi_device, several queues of one device too
 * (CL_COMMAND_BUFFER_CAPABILITY_MULTIPLE_QUEUE_KHR), and device-side enqueue wherever the
 * device has it (CL_COMMAND_BUFFER_CAPABILITY_DEVICE_SIDE_ENQUEUE_KHR): both added by
 * platform/plat_device_amd.c. */
#define ICD_CMDBUF_CAPABILITIES                                                                    \
   (CL_COMMAND_BUFFER_CAPABILITY_KERNEL_PRINTF_KHR |                                               \
    CL_COMMAND_BUFFER_CAPABILITY_SIMULTANEOUS_USE_KHR |                                            \
    CL_COMMAND_BUFFER_CAPABILITY_OUT_OF_ORDER_KHR)
#define ICD_CMDBUF_SUPPORTED_QUEUE_PROPERTIES                                                      \
   (CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE)
#define ICD_CMDBUF_REQUIRED_QUEUE_PROPERTIES 0
#define ICD_CMDBUF_MUTABLE_CAPABILITIES                                                            \
   (CL_MUTABLE_DISPATCH_GLOBAL_OFFSET_KHR | CL_MUTABLE_DISPATCH_GLOBAL_SIZE_KHR |                  \
    CL_MUTABLE_DISPATCH_LOCAL_SIZE_KHR | CL_MUTABLE_DISPATCH_ARGUMENTS_KHR |                       \
    CL_MUTABLE_DISPATCH_EXEC_INFO_KHR)

/* cl_mutable_dispatch_arg_khr and _exec_info_khr keep Debian's layout; the configuration
 * lost its type and next members in 0.9.5 (clUpdateMutableCommandsKHR takes arrays of
 * configuration types and pointers instead). */
struct icd_mutable_dispatch_config {
   cl_mutable_command_khr command;
   cl_uint num_args;
   cl_uint num_svm_args;
   cl_uint num_exec_infos;
   cl_uint work_dim;
   const cl_mutable_dispatch_arg_khr *arg_list;
   const cl_mutable_dispatch_arg_khr *arg_svm_list;
   const cl_mutable_dispatch_exec_info_khr *exec_info_list;
   const size_t *global_work_offset;
   const size_t *global_work_size;
   const size_t *local_work_size;
};

#endif
