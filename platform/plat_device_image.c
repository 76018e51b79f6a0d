/*
 * platform/plat_device_image.c — whether a device supports images, and its image limits
 * (OpenCL 3.0 API §4.2, the CL_DEVICE_IMAGE_* queries).
 *
 * A device supports images exactly when the HSA runtime provides the image extension
 * (runtime/rt_hsa.c loads its table) and the extension answers capabilities for the
 * device's agent: a 2D RGBA UNORM_INT8 image, the format every image device must offer,
 * readable and writable in the linear layout memory/mem_image.c creates images with. So
 * CL_DEVICE_IMAGE_SUPPORT is truthful per runtime and per device. Everything else image
 * related (formats, features, limits) is reported only for such a device; the limits are
 * fields of the device record (plat_device_limits), 0 on a device without images.
 *
 * Limits are the gfx9 texture unit's (the T# image resource has 14-bit width/height
 * fields, 13-bit depth; a 1D-buffer image is a buffer resource whose num_records counts
 * bytes), the values AMD's OpenCL reports for Vega 20.
 */
#include "platform/plat_priv.h"
#include "runtime/rt.h"

#define IMAGE_2D_MAX 16384u
#define IMAGE_3D_MAX 2048u
#define IMAGE_ARRAY_MAX 2048u
#define IMAGE_BUFFER_MAX (1u << 27) /* texels */
/* Linear rows are 256-byte aligned (memory/mem_image.c): 256 pixels of any format keeps
 * every row of a 2D image made from a buffer on that alignment, and the base too. */
#define IMAGE_PITCH_ALIGN 256u
#define IMAGE_BASE_ALIGN 256u

void
plat__device_image_init(struct _cl_device_id *dev)
{
   const struct rt_hsa *hsa = rt_hsa();
   dev->image_support = false;
   dev->mipmap_support = false;
   if (!hsa || !hsa->has_images)
      return;
   hsa_ext_image_format_t fmt = { .channel_type = HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT8,
                                  .channel_order = HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA };
   uint32_t caps = 0;
   hsa_status_t st = hsa->img.hsa_ext_image_get_capability_with_layout(
      dev->agent, HSA_EXT_IMAGE_GEOMETRY_2D, &fmt, HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, &caps);
   const uint32_t need = HSA_EXT_IMAGE_CAPABILITY_READ_ONLY | HSA_EXT_IMAGE_CAPABILITY_WRITE_ONLY;
   if (st != HSA_STATUS_SUCCESS || (caps & need) != need) {
      icd_log(ICD_LOG_INFO, "platform", "device %s: the HSA image extension offers no linear "
              "2D RGBA8 image (status 0x%x, capabilities 0x%x): no image support", dev->name,
              (unsigned)st, caps);
      return;
   }
   dev->image_support = true;
   /* Mip levels are set in the gfx9 or gfx10 T# (memory/mem_image.c) and laid out as that
    * generation's address library lays out a linear chain; the gradient forms of
    * read_image{f,i,ui} are IMAGE_SAMPLE_D, which gfx90a and gfx94x lack (LLVM's
    * extended-image-insts: the compiler refuses such kernels there). gfx11's linear chain
    * and T# are not built. */
   const plat_gpu_info *gi = &dev->info;
   dev->mipmap_support = (gi->gfx_major == 9 && gi->gfx_minor == 0 && gi->gfx_stepping != 10) ||
                         gi->gfx_major == 10;
}

void
plat__device_image_limits_init(struct _cl_device_id *dev)
{
   struct plat_device_limits *l = &dev->limits;
   if (!dev->image_support)
      return;
   l->max_read_image_args = 128;
   l->max_write_image_args = 64;
   l->max_read_write_image_args =
      plat_device_has_image_feature(dev, "__opencl_c_read_write_images") ? 64 : 0;
   l->max_samplers = 16;
   l->image_pitch_alignment = IMAGE_PITCH_ALIGN;
   l->image_base_address_alignment = IMAGE_BASE_ALIGN;
   l->image2d_max_width = l->image2d_max_height = IMAGE_2D_MAX;
   l->image3d_max_width = l->image3d_max_height = l->image3d_max_depth = IMAGE_3D_MAX;
   /* Texels; an RGBA32F texel is 16 bytes and the buffer must fit one allocation. */
   uint64_t n = dev->max_alloc_size / 16;
   l->image_max_buffer_size = (size_t)(n < IMAGE_BUFFER_MAX ? n : IMAGE_BUFFER_MAX);
   l->image_max_array_size = IMAGE_ARRAY_MAX;
}

bool
plat__device_info_image(const struct _cl_device_id *dev, cl_device_info param_name, size_t size,
                        void *value, size_t *size_ret, cl_int *err)
{
   const struct plat_device_limits *l = &dev->limits;
#define SCALAR(type, v) (*err = ICD_GET_INFO_SCALAR(type, (v), size, value, size_ret), true)
   switch (param_name) {
   case CL_DEVICE_IMAGE_SUPPORT:
      return SCALAR(cl_bool, dev->image_support ? CL_TRUE : CL_FALSE);
   case CL_DEVICE_MAX_READ_IMAGE_ARGS:
      return SCALAR(cl_uint, l->max_read_image_args);
   case CL_DEVICE_MAX_WRITE_IMAGE_ARGS:
      return SCALAR(cl_uint, l->max_write_image_args);
   case CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS:
      return SCALAR(cl_uint, l->max_read_write_image_args);
   case CL_DEVICE_IMAGE_PITCH_ALIGNMENT:
      return SCALAR(cl_uint, l->image_pitch_alignment);
   case CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT:
      return SCALAR(cl_uint, l->image_base_address_alignment);
   case CL_DEVICE_IMAGE2D_MAX_WIDTH:
      return SCALAR(size_t, l->image2d_max_width);
   case CL_DEVICE_IMAGE2D_MAX_HEIGHT:
      return SCALAR(size_t, l->image2d_max_height);
   case CL_DEVICE_IMAGE3D_MAX_WIDTH:
      return SCALAR(size_t, l->image3d_max_width);
   case CL_DEVICE_IMAGE3D_MAX_HEIGHT:
      return SCALAR(size_t, l->image3d_max_height);
   case CL_DEVICE_IMAGE3D_MAX_DEPTH:
      return SCALAR(size_t, l->image3d_max_depth);
   case CL_DEVICE_IMAGE_MAX_BUFFER_SIZE:
      return SCALAR(size_t, l->image_max_buffer_size);
   case CL_DEVICE_IMAGE_MAX_ARRAY_SIZE:
      return SCALAR(size_t, l->image_max_array_size);
   case CL_DEVICE_MAX_SAMPLERS:
      return SCALAR(cl_uint, l->max_samplers);
   default:
      return false;
   }
#undef SCALAR
}
