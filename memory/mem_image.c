/*
 * memory/mem_image.c — images and samplers on devices that support neither.
 *
 * hsacl's devices report CL_DEVICE_IMAGE_SUPPORT = CL_FALSE and no image formats until
 * images exist (pipes: mem_pipe.c). The API still answers exactly as the
 * OpenCL 3.0 API specification says for such a context, instead of "not implemented":
 *
 *  - clGetSupportedImageFormats succeeds with zero formats (§5.3.2: the list of formats a
 *    context supports; a device without image support has none). Programs and the CTS ask
 *    it on every device.
 *  - clCreateImage* and clCreateSampler* fail with CL_INVALID_OPERATION, the code §5.3.1
 *    and §5.7.1 name for "no devices in context support images".
 *  - functions taking an image or sampler get CL_INVALID_MEM_OBJECT or
 *    CL_INVALID_SAMPLER: no such object can exist. Queues and contexts are validated first,
 *    in the order of the specification's error lists.
 */
#include "mem_priv.h"

#include "dispatch/disp.h"
#include "platform/plat.h"

static const char no_images[] = "no device of the context supports images "
                                "(CL_DEVICE_IMAGE_SUPPORT is CL_FALSE)";

static bool
image_type_valid(cl_mem_object_type t)
{
   switch (t) {
   case CL_MEM_OBJECT_IMAGE1D:
   case CL_MEM_OBJECT_IMAGE1D_BUFFER:
   case CL_MEM_OBJECT_IMAGE1D_ARRAY:
   case CL_MEM_OBJECT_IMAGE2D:
   case CL_MEM_OBJECT_IMAGE2D_ARRAY:
   case CL_MEM_OBJECT_IMAGE3D:
      return true;
   default:
      return false;
   }
}

/* Every bit clCreateImage accepts (the buffer flags plus CL_MEM_KERNEL_READ_AND_WRITE). */
#define IMAGE_FLAGS                                                                         \
   (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR |       \
    CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR | CL_MEM_HOST_WRITE_ONLY |                \
    CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS | CL_MEM_KERNEL_READ_AND_WRITE)

cl_int CL_API_CALL
mem_GetSupportedImageFormats(cl_context context, cl_mem_flags flags,
                             cl_mem_object_type image_type, cl_uint num_entries,
                             cl_image_format *image_formats, cl_uint *num_image_formats)
{
   if (!plat_context_from_handle(context))
      return ICD_ERROR(CL_INVALID_CONTEXT, "context %p is not an hsacl context", (void *)context);
   if (flags & ~(cl_mem_flags)IMAGE_FLAGS)
      return ICD_ERROR(CL_INVALID_VALUE, "flags 0x%llx has bits no image takes",
                       (unsigned long long)flags);
   if (!image_type_valid(image_type))
      return ICD_ERROR(CL_INVALID_VALUE, "image_type 0x%x is not an image type", image_type);
   if (num_entries == 0 && image_formats)
      return ICD_ERROR(CL_INVALID_VALUE, "num_entries is 0 and image_formats is not NULL");
   if (num_image_formats)
      *num_image_formats = 0; /* no device of an hsacl context supports images */
   return CL_SUCCESS;
}

static cl_mem
no_image(cl_context context, cl_int *errcode_ret)
{
   cl_int err;
   if (!plat_context_from_handle(context))
      err = ICD_ERROR(CL_INVALID_CONTEXT, "context %p is not an hsacl context", (void *)context);
   else
      err = ICD_ERROR(CL_INVALID_OPERATION, "cannot create an image: %s", no_images);
   icd_set_errcode(errcode_ret, err);
   return NULL;
}

cl_mem CL_API_CALL
mem_CreateImage(cl_context context, cl_mem_flags flags, const cl_image_format *image_format,
                const cl_image_desc *image_desc, void *host_ptr, cl_int *errcode_ret)
{
   (void)flags, (void)image_format, (void)image_desc, (void)host_ptr;
   return no_image(context, errcode_ret);
}

cl_mem CL_API_CALL
mem_CreateImageWithProperties(cl_context context, const cl_mem_properties *properties,
                              cl_mem_flags flags, const cl_image_format *image_format,
                              const cl_image_desc *image_desc, void *host_ptr,
                              cl_int *errcode_ret)
{
   (void)properties, (void)flags, (void)image_format, (void)image_desc, (void)host_ptr;
   return no_image(context, errcode_ret);
}

cl_mem CL_API_CALL
mem_CreateImage2D(cl_context context, cl_mem_flags flags, const cl_image_format *image_format,
                  size_t image_width, size_t image_height, size_t image_row_pitch,
                  void *host_ptr, cl_int *errcode_ret)
{
   (void)flags, (void)image_format, (void)image_width, (void)image_height;
   (void)image_row_pitch, (void)host_ptr;
   return no_image(context, errcode_ret);
}

cl_mem CL_API_CALL
mem_CreateImage3D(cl_context context, cl_mem_flags flags, const cl_image_format *image_format,
                  size_t image_width, size_t image_height, size_t image_depth,
                  size_t image_row_pitch, size_t image_slice_pitch, void *host_ptr,
                  cl_int *errcode_ret)
{
   (void)flags, (void)image_format, (void)image_width, (void)image_height, (void)image_depth;
   (void)image_row_pitch, (void)image_slice_pitch, (void)host_ptr;
   return no_image(context, errcode_ret);
}

static cl_int
not_an_image(cl_mem image)
{
   return ICD_ERROR(CL_INVALID_MEM_OBJECT, "%p is not an image object (%s)", (void *)image,
                    no_images);
}

cl_int CL_API_CALL
mem_GetImageInfo(cl_mem image, cl_image_info param_name, size_t param_value_size,
                 void *param_value, size_t *param_value_size_ret)
{
   (void)param_name, (void)param_value_size, (void)param_value, (void)param_value_size_ret;
   return not_an_image(image);
}

/* ---- enqueued image commands: the queue first, then the image ------------------------- */

cl_int CL_API_CALL
mem_EnqueueReadImage(cl_command_queue command_queue, cl_mem image, cl_bool blocking_read,
                     const size_t *origin, const size_t *region, size_t row_pitch,
                     size_t slice_pitch, void *ptr, cl_uint num_events_in_wait_list,
                     const cl_event *event_wait_list, cl_event *event)
{
   QUEUE_OR_RETURN(q, command_queue);
   (void)q, (void)blocking_read, (void)origin, (void)region, (void)row_pitch;
   (void)slice_pitch, (void)ptr, (void)num_events_in_wait_list, (void)event_wait_list;
   (void)event;
   return not_an_image(image);
}

cl_int CL_API_CALL
mem_EnqueueWriteImage(cl_command_queue command_queue, cl_mem image, cl_bool blocking_write,
                      const size_t *origin, const size_t *region, size_t input_row_pitch,
                      size_t input_slice_pitch, const void *ptr,
                      cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                      cl_event *event)
{
   QUEUE_OR_RETURN(q, command_queue);
   (void)q, (void)blocking_write, (void)origin, (void)region, (void)input_row_pitch;
   (void)input_slice_pitch, (void)ptr, (void)num_events_in_wait_list, (void)event_wait_list;
   (void)event;
   return not_an_image(image);
}

cl_int CL_API_CALL
mem_EnqueueCopyImage(cl_command_queue command_queue, cl_mem src_image, cl_mem dst_image,
                     const size_t *src_origin, const size_t *dst_origin, const size_t *region,
                     cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                     cl_event *event)
{
   QUEUE_OR_RETURN(q, command_queue);
   (void)q, (void)dst_image, (void)src_origin, (void)dst_origin, (void)region;
   (void)num_events_in_wait_list, (void)event_wait_list, (void)event;
   return not_an_image(src_image);
}

cl_int CL_API_CALL
mem_EnqueueCopyImageToBuffer(cl_command_queue command_queue, cl_mem src_image,
                             cl_mem dst_buffer, const size_t *src_origin, const size_t *region,
                             size_t dst_offset, cl_uint num_events_in_wait_list,
                             const cl_event *event_wait_list, cl_event *event)
{
   QUEUE_OR_RETURN(q, command_queue);
   (void)q, (void)dst_buffer, (void)src_origin, (void)region, (void)dst_offset;
   (void)num_events_in_wait_list, (void)event_wait_list, (void)event;
   return not_an_image(src_image);
}

cl_int CL_API_CALL
mem_EnqueueCopyBufferToImage(cl_command_queue command_queue, cl_mem src_buffer,
                             cl_mem dst_image, size_t src_offset, const size_t *dst_origin,
                             const size_t *region, cl_uint num_events_in_wait_list,
                             const cl_event *event_wait_list, cl_event *event)
{
   QUEUE_OR_RETURN(q, command_queue);
   (void)q, (void)src_buffer, (void)src_offset, (void)dst_origin, (void)region;
   (void)num_events_in_wait_list, (void)event_wait_list, (void)event;
   return not_an_image(dst_image);
}

void *CL_API_CALL
mem_EnqueueMapImage(cl_command_queue command_queue, cl_mem image, cl_bool blocking_map,
                    cl_map_flags map_flags, const size_t *origin, const size_t *region,
                    size_t *image_row_pitch, size_t *image_slice_pitch,
                    cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                    cl_event *event, cl_int *errcode_ret)
{
   (void)blocking_map, (void)map_flags, (void)origin, (void)region, (void)image_row_pitch;
   (void)image_slice_pitch, (void)num_events_in_wait_list, (void)event_wait_list, (void)event;
   cl_int err;
   if (!disp_queue_from_handle(command_queue))
      err = ICD_ERROR(CL_INVALID_COMMAND_QUEUE, "command_queue %p is not an hsacl queue",
                      (void *)command_queue);
   else
      err = not_an_image(image);
   icd_set_errcode(errcode_ret, err);
   return NULL;
}

cl_int CL_API_CALL
mem_EnqueueFillImage(cl_command_queue command_queue, cl_mem image, const void *fill_color,
                     const size_t *origin, const size_t *region,
                     cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                     cl_event *event)
{
   QUEUE_OR_RETURN(q, command_queue);
   (void)q, (void)fill_color, (void)origin, (void)region, (void)num_events_in_wait_list;
   (void)event_wait_list, (void)event;
   return not_an_image(image);
}

/* ---- samplers (§5.7): they exist only for image reads --------------------------------- */

static cl_sampler
no_sampler(cl_context context, cl_int *errcode_ret)
{
   cl_int err;
   if (!plat_context_from_handle(context))
      err = ICD_ERROR(CL_INVALID_CONTEXT, "context %p is not an hsacl context", (void *)context);
   else
      err = ICD_ERROR(CL_INVALID_OPERATION, "cannot create a sampler: %s", no_images);
   icd_set_errcode(errcode_ret, err);
   return NULL;
}

cl_sampler CL_API_CALL
mem_CreateSampler(cl_context context, cl_bool normalized_coords,
                  cl_addressing_mode addressing_mode, cl_filter_mode filter_mode,
                  cl_int *errcode_ret)
{
   (void)normalized_coords, (void)addressing_mode, (void)filter_mode;
   return no_sampler(context, errcode_ret);
}

cl_sampler CL_API_CALL
mem_CreateSamplerWithProperties(cl_context context,
                                const cl_sampler_properties *sampler_properties,
                                cl_int *errcode_ret)
{
   (void)sampler_properties;
   return no_sampler(context, errcode_ret);
}

static cl_int
not_a_sampler(cl_sampler sampler)
{
   return ICD_ERROR(CL_INVALID_SAMPLER, "%p is not a sampler (%s)", (void *)sampler, no_images);
}

cl_int CL_API_CALL
mem_RetainSampler(cl_sampler sampler)
{
   return not_a_sampler(sampler);
}

cl_int CL_API_CALL
mem_ReleaseSampler(cl_sampler sampler)
{
   return not_a_sampler(sampler);
}

cl_int CL_API_CALL
mem_GetSamplerInfo(cl_sampler sampler, cl_sampler_info param_name, size_t param_value_size,
                   void *param_value, size_t *param_value_size_ret)
{
   (void)param_name, (void)param_value_size, (void)param_value, (void)param_value_size_ret;
   return not_a_sampler(sampler);
}
