/*
 * dispatch/disp_cmdbuf.h — command buffers (cl_khr_command_buffer 0.9.8,
 * cl_khr_command_buffer_mutable_dispatch 0.9.5, cl_khr_command_buffer_multi_device 0.9.2):
 * the entry points the extension-function table (icd/icd_dispatch.c) names. The objects and
 * what the files of the command buffer share are in disp_priv.h. Design: docs/cmdbuf.md.
 */
#ifndef DISP_CMDBUF_H
#define DISP_CMDBUF_H

#include "dispatch/disp.h"
#include "icd/icd_cmdbuf_ext.h"

/* Command buffers and mutable commands are reached only through extension functions, never
 * through the loader's dispatch table, but carry the ICD header like every object so that
 * handles are checked the same way. */
struct _cl_command_buffer_khr;
struct _cl_mutable_command_khr;

cl_command_buffer_khr CL_API_CALL disp_CreateCommandBufferKHR(
   cl_uint num_queues, const cl_command_queue *queues,
   const cl_command_buffer_properties_khr *properties, cl_int *errcode_ret);
cl_int CL_API_CALL disp_FinalizeCommandBufferKHR(cl_command_buffer_khr command_buffer);
cl_int CL_API_CALL disp_RetainCommandBufferKHR(cl_command_buffer_khr command_buffer);
cl_int CL_API_CALL disp_ReleaseCommandBufferKHR(cl_command_buffer_khr command_buffer);
cl_int CL_API_CALL disp_EnqueueCommandBufferKHR(cl_uint num_queues, cl_command_queue *queues,
                                                cl_command_buffer_khr command_buffer,
                                                cl_uint num_events_in_wait_list,
                                                const cl_event *event_wait_list, cl_event *event);
cl_int CL_API_CALL disp_GetCommandBufferInfoKHR(cl_command_buffer_khr command_buffer,
                                                cl_command_buffer_info_khr param_name,
                                                size_t param_value_size, void *param_value,
                                                size_t *param_value_size_ret);
cl_int CL_API_CALL disp_CommandBarrierWithWaitListKHR(cl_command_buffer_khr command_buffer,
                                                      cl_command_queue command_queue,
                                                      const icd_command_properties_khr *properties,
                                                      cl_uint num_sync_points_in_wait_list,
                                                      const cl_sync_point_khr *sync_point_wait_list,
                                                      cl_sync_point_khr *sync_point,
                                                      cl_mutable_command_khr *mutable_handle);
cl_int CL_API_CALL disp_CommandCopyBufferKHR(
   cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
   const icd_command_properties_khr *properties, cl_mem src_buffer, cl_mem dst_buffer,
   size_t src_offset, size_t dst_offset, size_t size, cl_uint num_sync_points_in_wait_list,
   const cl_sync_point_khr *sync_point_wait_list, cl_sync_point_khr *sync_point,
   cl_mutable_command_khr *mutable_handle);
cl_int CL_API_CALL disp_CommandCopyBufferRectKHR(
   cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
   const icd_command_properties_khr *properties, cl_mem src_buffer, cl_mem dst_buffer,
   const size_t *src_origin, const size_t *dst_origin, const size_t *region, size_t src_row_pitch,
   size_t src_slice_pitch, size_t dst_row_pitch, size_t dst_slice_pitch,
   cl_uint num_sync_points_in_wait_list, const cl_sync_point_khr *sync_point_wait_list,
   cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle);
cl_int CL_API_CALL disp_CommandCopyBufferToImageKHR(
   cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
   const icd_command_properties_khr *properties, cl_mem src_buffer, cl_mem dst_image,
   size_t src_offset, const size_t *dst_origin, const size_t *region,
   cl_uint num_sync_points_in_wait_list, const cl_sync_point_khr *sync_point_wait_list,
   cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle);
cl_int CL_API_CALL disp_CommandCopyImageKHR(
   cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
   const icd_command_properties_khr *properties, cl_mem src_image, cl_mem dst_image,
   const size_t *src_origin, const size_t *dst_origin, const size_t *region,
   cl_uint num_sync_points_in_wait_list, const cl_sync_point_khr *sync_point_wait_list,
   cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle);
cl_int CL_API_CALL disp_CommandCopyImageToBufferKHR(
   cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
   const icd_command_properties_khr *properties, cl_mem src_image, cl_mem dst_buffer,
   const size_t *src_origin, const size_t *region, size_t dst_offset,
   cl_uint num_sync_points_in_wait_list, const cl_sync_point_khr *sync_point_wait_list,
   cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle);
cl_int CL_API_CALL disp_CommandFillBufferKHR(
   cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
   const icd_command_properties_khr *properties, cl_mem buffer, const void *pattern,
   size_t pattern_size, size_t offset, size_t size, cl_uint num_sync_points_in_wait_list,
   const cl_sync_point_khr *sync_point_wait_list, cl_sync_point_khr *sync_point,
   cl_mutable_command_khr *mutable_handle);
cl_int CL_API_CALL disp_CommandFillImageKHR(
   cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
   const icd_command_properties_khr *properties, cl_mem image, const void *fill_color,
   const size_t *origin, const size_t *region, cl_uint num_sync_points_in_wait_list,
   const cl_sync_point_khr *sync_point_wait_list, cl_sync_point_khr *sync_point,
   cl_mutable_command_khr *mutable_handle);
cl_int CL_API_CALL disp_CommandSVMMemcpyKHR(
   cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
   const icd_command_properties_khr *properties, void *dst_ptr, const void *src_ptr, size_t size,
   cl_uint num_sync_points_in_wait_list, const cl_sync_point_khr *sync_point_wait_list,
   cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle);
cl_int CL_API_CALL disp_CommandSVMMemFillKHR(
   cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
   const icd_command_properties_khr *properties, void *svm_ptr, const void *pattern,
   size_t pattern_size, size_t size, cl_uint num_sync_points_in_wait_list,
   const cl_sync_point_khr *sync_point_wait_list, cl_sync_point_khr *sync_point,
   cl_mutable_command_khr *mutable_handle);
cl_int CL_API_CALL disp_CommandNDRangeKernelKHR(
   cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
   const icd_command_properties_khr *properties, cl_kernel kernel, cl_uint work_dim,
   const size_t *global_work_offset, const size_t *global_work_size, const size_t *local_work_size,
   cl_uint num_sync_points_in_wait_list, const cl_sync_point_khr *sync_point_wait_list,
   cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle);
cl_command_buffer_khr CL_API_CALL disp_RemapCommandBufferKHR(
   cl_command_buffer_khr command_buffer, cl_bool automatic, cl_uint num_queues,
   const cl_command_queue *queues, cl_uint num_handles, const cl_mutable_command_khr *handles,
   cl_mutable_command_khr *handles_ret, cl_int *errcode_ret);
cl_int CL_API_CALL disp_UpdateMutableCommandsKHR(
   cl_command_buffer_khr command_buffer, cl_uint num_configs,
   const icd_command_buffer_update_type_khr *config_types, const void **configs);
cl_int CL_API_CALL disp_GetMutableCommandInfoKHR(cl_mutable_command_khr command,
                                                 cl_mutable_command_info_khr param_name,
                                                 size_t param_value_size, void *param_value,
                                                 size_t *param_value_size_ret);

#endif
