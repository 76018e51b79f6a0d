/*
 * memory/mem_image.c — image objects: clCreateImage(WithProperties) and the 1.1 forms,
 * clGetSupportedImageFormats, clGetImageInfo (OpenCL 3.0 API §5.3.1, §5.3.2, §5.3.7).
 * Image commands: mem_image_xfer.c; samplers: mem_sampler.c.
 *
 * Every image is created through the runtime's HSA image extension (runtime/rt_hsa.c
 * loads its table) in the LINEAR layout, on both runtimes: rows of
 * align(width * element size, 256) bytes — the pitch gfx9's address library gives a
 * linear surface, which ROCr's image extension checks a given pitch against — and slices
 * of row pitch x height bytes. The driver allocates the memory from the device pool and
 * passes those pitches to hsa_ext_image_data_get_info_with_layout / _create_with_layout, so
 * the texel at (x, y, z) is at a known byte offset (struct mem_image) and the buffer copy
 * engine moves image data like rectangles of a buffer. The descriptor (T# plus the words
 * the ROCm device libraries read) is the runtime's; its address is the image kernel
 * argument, one descriptor per device of the context.
 *
 * A 1D-buffer image, and a 2D image made from a buffer (cl_khr_image2d_from_buffer),
 * address the buffer's memory: the image holds an internal reference on the buffer. A 2D
 * image made from a 2D image (OpenCL 2.0, §5.3.1: a view in another channel order, sRGB or
 * depth) is a second descriptor set over the parent's memory with the parent's pitches,
 * and holds an internal reference on the parent.
 *
 * Formats: every OpenCL format this file can express (format_info) for which the runtime
 * reports the capabilities the flags need, for every device of the context with image
 * support, minus the sRGB orders for writes (cl_khr_srgb_image_writes is not reported);
 * CL_DEPTH for 2D images and arrays when cl_khr_depth_images is reported.
 */
#include "mem_priv.h"

#include "runtime/rt.h"
#include "platform/plat.h"

#include <assert.h>
#include <string.h>

/* Every bit clCreateImage accepts (the buffer flags plus CL_MEM_KERNEL_READ_AND_WRITE). */
#define ACCESS_FLAGS (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY)
#define HOST_PTR_FLAGS (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)
#define HOST_ACCESS_FLAGS (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)
#define IMAGE_FLAGS                                                                         \
   (ACCESS_FLAGS | HOST_PTR_FLAGS | HOST_ACCESS_FLAGS | CL_MEM_KERNEL_READ_AND_WRITE)

/* Linear rows are aligned to this many bytes (gfx9 addrlib, ADDR_SW_LINEAR). */
#define LINEAR_ROW_ALIGN 256u

static bool
more_than_one(cl_mem_flags bits)
{
   return (bits & (bits - 1)) != 0;
}

/* ---- formats ------------------------------------------------------------------------ */

/*
 * An OpenCL channel order and data type as the HSA image extension names them, with the
 * element size. False when the pair is not a valid OpenCL format (§5.3.1.1 "Image Format
 * Descriptor": the packed types go with RGB/RGBx (101010_2 with RGBA), BGRA/ARGB/ABGR and
 * the sRGB orders take 8-bit types, INTENSITY and LUMINANCE normalized and float types,
 * DEPTH UNORM_INT16 or FLOAT).
 */
static bool
format_info(const cl_image_format *f, hsa_ext_image_format_t *hf, size_t *elem)
{
   unsigned nch, bytes = 0;
   hsa_ext_image_channel_order_t o;
   switch (f->image_channel_order) {
   case CL_R: o = HSA_EXT_IMAGE_CHANNEL_ORDER_R, nch = 1; break;
   case CL_A: o = HSA_EXT_IMAGE_CHANNEL_ORDER_A, nch = 1; break;
   case CL_Rx: o = HSA_EXT_IMAGE_CHANNEL_ORDER_RX, nch = 1; break;
   case CL_INTENSITY: o = HSA_EXT_IMAGE_CHANNEL_ORDER_INTENSITY, nch = 1; break;
   case CL_LUMINANCE: o = HSA_EXT_IMAGE_CHANNEL_ORDER_LUMINANCE, nch = 1; break;
   case CL_DEPTH: o = HSA_EXT_IMAGE_CHANNEL_ORDER_DEPTH, nch = 1; break;
   case CL_RG: o = HSA_EXT_IMAGE_CHANNEL_ORDER_RG, nch = 2; break;
   case CL_RA: o = HSA_EXT_IMAGE_CHANNEL_ORDER_RA, nch = 2; break;
   case CL_RGx: o = HSA_EXT_IMAGE_CHANNEL_ORDER_RGX, nch = 2; break;
   case CL_RGB: o = HSA_EXT_IMAGE_CHANNEL_ORDER_RGB, nch = 3; break;
   case CL_RGBx: o = HSA_EXT_IMAGE_CHANNEL_ORDER_RGBX, nch = 3; break;
   case CL_RGBA: o = HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA, nch = 4; break;
   case CL_BGRA: o = HSA_EXT_IMAGE_CHANNEL_ORDER_BGRA, nch = 4; break;
   case CL_ARGB: o = HSA_EXT_IMAGE_CHANNEL_ORDER_ARGB, nch = 4; break;
   case CL_ABGR: o = HSA_EXT_IMAGE_CHANNEL_ORDER_ABGR, nch = 4; break;
   case CL_sRGB: o = HSA_EXT_IMAGE_CHANNEL_ORDER_SRGB, nch = 3; break;
   case CL_sRGBx: o = HSA_EXT_IMAGE_CHANNEL_ORDER_SRGBX, nch = 3; break;
   case CL_sRGBA: o = HSA_EXT_IMAGE_CHANNEL_ORDER_SRGBA, nch = 4; break;
   case CL_sBGRA: o = HSA_EXT_IMAGE_CHANNEL_ORDER_SBGRA, nch = 4; break;
   default: return false;
   }
   hsa_ext_image_channel_type_t t;
   bool packed = false, eight = false, norm_or_float = false;
   switch (f->image_channel_data_type) {
   case CL_SNORM_INT8: t = HSA_EXT_IMAGE_CHANNEL_TYPE_SNORM_INT8, bytes = 1, eight = norm_or_float = true; break;
   case CL_SNORM_INT16: t = HSA_EXT_IMAGE_CHANNEL_TYPE_SNORM_INT16, bytes = 2, norm_or_float = true; break;
   case CL_UNORM_INT8: t = HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT8, bytes = 1, eight = norm_or_float = true; break;
   case CL_UNORM_INT16: t = HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT16, bytes = 2, norm_or_float = true; break;
   case CL_UNORM_SHORT_565: t = HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_SHORT_565, packed = true; break;
   case CL_UNORM_SHORT_555: t = HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_SHORT_555, packed = true; break;
   case CL_UNORM_INT_101010: t = HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_SHORT_101010, packed = true; break;
   case CL_SIGNED_INT8: t = HSA_EXT_IMAGE_CHANNEL_TYPE_SIGNED_INT8, bytes = 1, eight = true; break;
   case CL_SIGNED_INT16: t = HSA_EXT_IMAGE_CHANNEL_TYPE_SIGNED_INT16, bytes = 2; break;
   case CL_SIGNED_INT32: t = HSA_EXT_IMAGE_CHANNEL_TYPE_SIGNED_INT32, bytes = 4; break;
   case CL_UNSIGNED_INT8: t = HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT8, bytes = 1, eight = true; break;
   case CL_UNSIGNED_INT16: t = HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT16, bytes = 2; break;
   case CL_UNSIGNED_INT32: t = HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT32, bytes = 4; break;
   case CL_HALF_FLOAT: t = HSA_EXT_IMAGE_CHANNEL_TYPE_HALF_FLOAT, bytes = 2, norm_or_float = true; break;
   case CL_FLOAT: t = HSA_EXT_IMAGE_CHANNEL_TYPE_FLOAT, bytes = 4, norm_or_float = true; break;
   default: return false;
   }
   cl_channel_order co = f->image_channel_order;
   cl_channel_type ct = f->image_channel_data_type;
   bool rgb = co == CL_RGB || co == CL_RGBx;
   if (packed != rgb)
      return false;
   if ((co == CL_BGRA || co == CL_ARGB || co == CL_ABGR) && !eight)
      return false;
   if ((co == CL_sRGB || co == CL_sRGBx || co == CL_sRGBA || co == CL_sBGRA) &&
       ct != CL_UNORM_INT8)
      return false;
   if ((co == CL_INTENSITY || co == CL_LUMINANCE) && !norm_or_float)
      return false;
   if (co == CL_DEPTH && ct != CL_UNORM_INT16 && ct != CL_FLOAT)
      return false;
   *elem = packed ? (ct == CL_UNORM_INT_101010 ? 4 : 2) : (size_t)nch * bytes;
   if (co == CL_sRGB || co == CL_sRGBx)
      *elem = 4; /* 8-bit channels, the fourth unused */
   hf->channel_order = o;
   hf->channel_type = t;
   return true;
}

/* The candidates clGetSupportedImageFormats asks the runtime about: every valid pair of
 * the orders and types OpenCL 3.0 core names. */
static const cl_channel_order candidate_orders[] = {
   CL_R,  CL_A,    CL_RG,   CL_RA,   CL_RGB,       CL_RGBA,      CL_BGRA, CL_ARGB,
   CL_ABGR, CL_INTENSITY, CL_LUMINANCE, CL_Rx, CL_RGx, CL_RGBx, CL_sRGB, CL_sRGBA, CL_sBGRA,
   CL_sRGBx, CL_DEPTH,
};
static const cl_channel_type candidate_types[] = {
   CL_SNORM_INT8,       CL_SNORM_INT16,     CL_UNORM_INT8,      CL_UNORM_INT16,
   CL_UNORM_SHORT_565,  CL_UNORM_SHORT_555, CL_UNORM_INT_101010, CL_SIGNED_INT8,
   CL_SIGNED_INT16,     CL_SIGNED_INT32,    CL_UNSIGNED_INT8,   CL_UNSIGNED_INT16,
   CL_UNSIGNED_INT32,   CL_HALF_FLOAT,      CL_FLOAT,
};

/*
 * The formats the driver moves and converts correctly on both runtimes' GPU (the texture
 * unit model of sim/isa/sim_texel.c): 1, 2 and 4 channels of 8/16/32 bits, and RGB in the
 * packed 565 / 555 / 101010 types; no Rx/RGx/RGBx padding orders; depth for 2D images
 * and 2D arrays on devices reporting cl_khr_depth_images.
 */
static bool
format_driver_supported(const struct _cl_context *ctx, cl_mem_object_type type,
                        const cl_image_format *f)
{
   if (f->image_channel_order == CL_DEPTH) {
      for (cl_uint i = 0; i < ctx->num_devices; i++) {
         if (ctx->devices[i]->image_support &&
             !plat_device_has_image_feature(ctx->devices[i], "cl_khr_depth_images"))
            return false;
      }
      return type == CL_MEM_OBJECT_IMAGE2D || type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
   }
   switch (f->image_channel_order) {
   case CL_R:
   case CL_A:
   case CL_RG:
   case CL_RA:
   case CL_RGB: /* packed types only (format_info) */
   case CL_RGBA:
   case CL_BGRA:
   case CL_ARGB:
   case CL_ABGR:
   case CL_INTENSITY:
   case CL_LUMINANCE:
   case CL_sRGBA:
   case CL_sBGRA:
      return true;
   default:
      return false;
   }
}

/* The HSA geometry of an OpenCL image type and format: CL_DEPTH images are the depth
 * geometries (cl_khr_depth_images: 2D and 2D array only). */
static hsa_ext_image_geometry_t
geometry_of(cl_mem_object_type t, const cl_image_format *f)
{
   if (f->image_channel_order == CL_DEPTH)
      return t == CL_MEM_OBJECT_IMAGE2D_ARRAY ? HSA_EXT_IMAGE_GEOMETRY_2DADEPTH
                                              : HSA_EXT_IMAGE_GEOMETRY_2DDEPTH;
   switch (t) {
   case CL_MEM_OBJECT_IMAGE1D: return HSA_EXT_IMAGE_GEOMETRY_1D;
   case CL_MEM_OBJECT_IMAGE1D_BUFFER: return HSA_EXT_IMAGE_GEOMETRY_1DB;
   case CL_MEM_OBJECT_IMAGE1D_ARRAY: return HSA_EXT_IMAGE_GEOMETRY_1DA;
   case CL_MEM_OBJECT_IMAGE2D: return HSA_EXT_IMAGE_GEOMETRY_2D;
   case CL_MEM_OBJECT_IMAGE2D_ARRAY: return HSA_EXT_IMAGE_GEOMETRY_2DA;
   default: return HSA_EXT_IMAGE_GEOMETRY_3D;
   }
}

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

/* True when every image device of `ctx` handles format `f` for `type` with `flags`. */
static bool
format_supported(const struct _cl_context *ctx, cl_mem_flags flags, cl_mem_object_type type,
                 const cl_image_format *f)
{
   const struct rt_hsa *hsa = rt_hsa();
   hsa_ext_image_format_t hf;
   size_t elem;
   if (!format_info(f, &hf, &elem) || !format_driver_supported(ctx, type, f))
      return false;
   bool sRGB = f->image_channel_order == CL_sRGBA || f->image_channel_order == CL_sBGRA;
   bool kernel_writes = (flags & (CL_MEM_WRITE_ONLY | CL_MEM_READ_WRITE |
                                  CL_MEM_KERNEL_READ_AND_WRITE)) ||
                        !(flags & ACCESS_FLAGS);
   if (sRGB && kernel_writes)
      return false; /* sRGB writes are cl_khr_srgb_image_writes, not reported */
   uint32_t need = 0;
   if (flags & CL_MEM_KERNEL_READ_AND_WRITE)
      need |= HSA_EXT_IMAGE_CAPABILITY_READ_WRITE;
   if (flags & CL_MEM_WRITE_ONLY)
      need |= HSA_EXT_IMAGE_CAPABILITY_WRITE_ONLY;
   else if (flags & CL_MEM_READ_ONLY)
      need |= HSA_EXT_IMAGE_CAPABILITY_READ_ONLY;
   else
      need |= HSA_EXT_IMAGE_CAPABILITY_READ_ONLY | HSA_EXT_IMAGE_CAPABILITY_WRITE_ONLY;
   bool any = false;
   for (cl_uint i = 0; i < ctx->num_devices; i++) {
      const struct _cl_device_id *dev = ctx->devices[i];
      if (!dev->image_support)
         continue;
      uint32_t caps = 0;
      if (hsa->img.hsa_ext_image_get_capability_with_layout(
             dev->agent, geometry_of(type, f), &hf, HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, &caps) !=
             HSA_STATUS_SUCCESS ||
          (caps & need) != need)
         return false;
      any = true;
   }
   return any;
}

static bool
context_has_images(const struct _cl_context *ctx)
{
   for (cl_uint i = 0; i < ctx->num_devices; i++) {
      if (ctx->devices[i]->image_support)
         return true;
   }
   return false;
}

cl_int CL_API_CALL
mem_GetSupportedImageFormats(cl_context context, cl_mem_flags flags,
                             cl_mem_object_type image_type, cl_uint num_entries,
                             cl_image_format *image_formats, cl_uint *num_image_formats)
{
   struct _cl_context *ctx = plat_context_from_handle(context);
   if (!ctx)
      return ICD_ERROR(CL_INVALID_CONTEXT, "context %p is not an hsacl context", (void *)context);
   if (flags & ~(cl_mem_flags)IMAGE_FLAGS)
      return ICD_ERROR(CL_INVALID_VALUE, "flags 0x%llx has bits no image takes",
                       (unsigned long long)flags);
   if (!image_type_valid(image_type))
      return ICD_ERROR(CL_INVALID_VALUE, "image_type 0x%x is not an image type", image_type);
   if (num_entries == 0 && image_formats)
      return ICD_ERROR(CL_INVALID_VALUE, "num_entries is 0 and image_formats is not NULL");
   cl_uint n = 0;
   if (context_has_images(ctx)) {
      for (size_t o = 0; o < sizeof(candidate_orders) / sizeof(*candidate_orders); o++) {
         for (size_t t = 0; t < sizeof(candidate_types) / sizeof(*candidate_types); t++) {
            cl_image_format f = { candidate_orders[o], candidate_types[t] };
            if (!format_supported(ctx, flags, image_type, &f))
               continue;
            if (image_formats && n < num_entries)
               image_formats[n] = f;
            n++;
         }
      }
   }
   if (num_image_formats)
      *num_image_formats = n;
   return CL_SUCCESS;
}

/* ---- creation ----------------------------------------------------------------------- */

/* The first device of the context with image support (limits are per device; hsacl's
 * devices of one runtime share them). NULL when none. */
static struct _cl_device_id *
image_device(const struct _cl_context *ctx)
{
   for (cl_uint i = 0; i < ctx->num_devices; i++) {
      if (ctx->devices[i]->image_support)
         return ctx->devices[i];
   }
   return NULL;
}

/* Whether the context's image devices lay mip chains out alike: one chain in memory serves
 * every device's descriptor, and gfx9's and gfx10's linear chains differ. */
static bool
mip_layouts_agree(const struct _cl_context *ctx)
{
   int gfx10 = -1;
   for (cl_uint i = 0; i < ctx->num_devices; i++) {
      const struct _cl_device_id *d = ctx->devices[i];
      if (!d->image_support)
         continue;
      int g = d->info.gfx_major == 10;
      if (gfx10 >= 0 && g != gfx10)
         return false;
      gfx10 = g;
   }
   return true;
}

/*
 * The bytes of host memory from host_ptr that an image of descriptor `d` covers (§5.3.1.2:
 * the row pitch defaults to width x element size `min_row`; the slice pitch to row pitch x
 * height, for a 1D array to the row pitch): from the first texel to one past the last.
 * False when a product or sum overflows.
 */
static bool
host_span(const cl_image_desc *d, size_t min_row, size_t *out)
{
   cl_mem_object_type t = d->image_type;
   size_t row = d->image_row_pitch ? d->image_row_pitch : min_row;
   size_t rows = 1, slices = 1, slice = 0, a, b;
   switch (t) {
   case CL_MEM_OBJECT_IMAGE1D_ARRAY:
      /* Layers are rows of the byte-rectangle view, one slice pitch apart. */
      row = d->image_slice_pitch ? d->image_slice_pitch : row;
      rows = d->image_array_size;
      break;
   case CL_MEM_OBJECT_IMAGE2D:
      rows = d->image_height;
      break;
   case CL_MEM_OBJECT_IMAGE2D_ARRAY:
   case CL_MEM_OBJECT_IMAGE3D:
      rows = d->image_height;
      slices = t == CL_MEM_OBJECT_IMAGE3D ? d->image_depth : d->image_array_size;
      slice = d->image_slice_pitch;
      if (!slice && __builtin_mul_overflow(row, rows, &slice))
         return false;
      break;
   default:
      break;
   }
   return !__builtin_mul_overflow(rows - 1, row, &a) &&
          !__builtin_mul_overflow(slices - 1, slice, &b) &&
          !__builtin_add_overflow(a, b, &a) && !__builtin_add_overflow(a, min_row, out);
}

/* Levels a full mip chain of `d` has: floor(log2(the largest of width, height, depth)) + 1
 * (array layers are not a dimension). */
static cl_uint
max_mip_levels(const cl_image_desc *d)
{
   cl_mem_object_type t = d->image_type;
   size_t big = d->image_width;
   if (t != CL_MEM_OBJECT_IMAGE1D && t != CL_MEM_OBJECT_IMAGE1D_ARRAY &&
       d->image_height > big)
      big = d->image_height;
   if (t == CL_MEM_OBJECT_IMAGE3D && d->image_depth > big)
      big = d->image_depth;
   cl_uint n = 0;
   for (; big; big >>= 1)
      n++;
   return n;
}

/* cl_khr_mipmap_image, num_mip_levels > 1: devices reporting the extension, a 1D, 1D array,
 * 2D, 2D array or 3D image made from no memory object, at most a full chain of levels; else
 * CL_INVALID_IMAGE_DESCRIPTOR. (Mipmapped images take no host pointer: the entry point
 * answers CL_INVALID_HOST_PTR; no depth format: check_mip_format.) */
static cl_int
check_mip_levels(const cl_image_desc *d, const struct _cl_mem *buf,
                 const struct _cl_device_id *dev)
{
   if (!plat_device_has_image_feature(dev, "cl_khr_mipmap_image"))
      return ICD_ERROR(CL_INVALID_IMAGE_DESCRIPTOR, "num_mip_levels %u: the device does not "
                       "report cl_khr_mipmap_image (must be 0 or 1)", d->num_mip_levels);
   if (d->image_type == CL_MEM_OBJECT_IMAGE1D_BUFFER || buf)
      return ICD_ERROR(CL_INVALID_IMAGE_DESCRIPTOR, "num_mip_levels %u for a 1D buffer image "
                       "or an image made from a memory object", d->num_mip_levels);
   if (d->num_mip_levels > max_mip_levels(d))
      return ICD_ERROR(CL_INVALID_IMAGE_DESCRIPTOR, "num_mip_levels %u exceeds the %u levels "
                       "of a full chain of a %zu x %zu x %zu image", d->num_mip_levels,
                       max_mip_levels(d), d->image_width, d->image_height, d->image_depth);
   return CL_SUCCESS;
}

/* §5.3.1 "Image Descriptor": the fields of `d` for its type; CL_INVALID_IMAGE_DESCRIPTOR
 * and CL_INVALID_IMAGE_SIZE in the specification's order. `buf` is d->buffer validated
 * (NULL when not given). */
static cl_int
check_desc(const cl_image_desc *d, size_t elem, void *host_ptr, struct _cl_mem *buf,
           struct _cl_device_id *dev)
{
   cl_mem_object_type t = d->image_type;
   bool is1d = t == CL_MEM_OBJECT_IMAGE1D || t == CL_MEM_OBJECT_IMAGE1D_BUFFER ||
               t == CL_MEM_OBJECT_IMAGE1D_ARRAY;
   bool arr = t == CL_MEM_OBJECT_IMAGE1D_ARRAY || t == CL_MEM_OBJECT_IMAGE2D_ARRAY;
   if (d->image_width == 0)
      return ICD_ERROR(CL_INVALID_IMAGE_DESCRIPTOR, "image_width is 0");
   if (!is1d && d->image_height == 0)
      return ICD_ERROR(CL_INVALID_IMAGE_DESCRIPTOR, "image_height is 0");
   if (t == CL_MEM_OBJECT_IMAGE3D && d->image_depth == 0)
      return ICD_ERROR(CL_INVALID_IMAGE_DESCRIPTOR, "image_depth is 0");
   if (arr && d->image_array_size == 0)
      return ICD_ERROR(CL_INVALID_IMAGE_DESCRIPTOR, "image_array_size is 0");
   if (d->num_samples != 0)
      return ICD_ERROR(CL_INVALID_IMAGE_DESCRIPTOR, "num_samples %u: multisampling is not "
                       "supported (must be 0)", d->num_samples);
   if (d->num_mip_levels > 1) {
      cl_int err = check_mip_levels(d, buf, dev);
      if (err != CL_SUCCESS)
         return err;
   }
   if (t == CL_MEM_OBJECT_IMAGE1D_BUFFER && !buf)
      return ICD_ERROR(CL_INVALID_IMAGE_DESCRIPTOR, "a 1D buffer image needs a buffer");
   if (buf && t != CL_MEM_OBJECT_IMAGE1D_BUFFER && t != CL_MEM_OBJECT_IMAGE2D)
      return ICD_ERROR(CL_INVALID_IMAGE_DESCRIPTOR, "mem_object is given for an image type "
                       "that cannot be made from a buffer");
   /* Pitches: only with a host pointer, or for a 2D image over a buffer (row pitch). */
   bool from_buf2d = buf && t == CL_MEM_OBJECT_IMAGE2D;
   size_t min_row;
   if (__builtin_mul_overflow(d->image_width, elem, &min_row))
      return ICD_ERROR(CL_INVALID_IMAGE_SIZE, "image_width %zu x the %zu-byte element "
                       "overflows", d->image_width, elem);
   if (d->image_row_pitch) {
      if (!host_ptr && !from_buf2d)
         return ICD_ERROR(CL_INVALID_IMAGE_DESCRIPTOR, "image_row_pitch %zu without host_ptr",
                          d->image_row_pitch);
      if (d->image_row_pitch < min_row || d->image_row_pitch % elem)
         return ICD_ERROR(CL_INVALID_IMAGE_DESCRIPTOR, "image_row_pitch %zu: less than %zu or "
                          "not a multiple of the %zu-byte element", d->image_row_pitch, min_row,
                          elem);
   }
   if (d->image_slice_pitch) {
      bool slices = t == CL_MEM_OBJECT_IMAGE3D || arr;
      size_t row = d->image_row_pitch ? d->image_row_pitch : min_row;
      size_t min_slice = row;
      if (!host_ptr || !slices)
         return ICD_ERROR(CL_INVALID_IMAGE_DESCRIPTOR, "image_slice_pitch %zu without "
                          "host_ptr or for an image without slices", d->image_slice_pitch);
      if ((t != CL_MEM_OBJECT_IMAGE1D_ARRAY &&
           __builtin_mul_overflow(row, d->image_height, &min_slice)) ||
          d->image_slice_pitch < min_slice || d->image_slice_pitch % row)
         return ICD_ERROR(CL_INVALID_IMAGE_DESCRIPTOR, "image_slice_pitch %zu: less than row "
                          "pitch %zu x height %zu or not a multiple of the row pitch",
                          d->image_slice_pitch, row, d->image_height);
   }
   if (host_ptr) {
      size_t span;
      if (!host_span(d, min_row, &span) || span > dev->max_alloc_size ||
          span > UINTPTR_MAX - (uintptr_t)host_ptr)
         return ICD_ERROR(CL_INVALID_IMAGE_DESCRIPTOR, "image of %zu x %zu x %zu (%zu layers) "
                          "with row pitch %zu and slice pitch %zu spans more host memory at %p "
                          "than CL_DEVICE_MAX_MEM_ALLOC_SIZE (%llu bytes) or the address space",
                          d->image_width, d->image_height, d->image_depth, d->image_array_size,
                          d->image_row_pitch, d->image_slice_pitch, host_ptr,
                          (unsigned long long)dev->max_alloc_size);
   }
   if (t == CL_MEM_OBJECT_IMAGE1D_BUFFER && min_row > buf->size)
      return ICD_ERROR(CL_INVALID_IMAGE_DESCRIPTOR, "%zu texels of %zu bytes exceed the "
                       "%zu-byte buffer", d->image_width, elem, buf->size);
   if (from_buf2d) {
      size_t align = (size_t)plat_device_limits(dev)->image_pitch_alignment * elem;
      size_t row = d->image_row_pitch ? d->image_row_pitch : min_row;
      if (align && row % align)
         return ICD_ERROR(CL_INVALID_IMAGE_DESCRIPTOR, "row pitch %zu of a 2D image from a "
                          "buffer is not a multiple of CL_DEVICE_IMAGE_PITCH_ALIGNMENT (%zu "
                          "bytes)", row, align);
      size_t bytes;
      if (__builtin_mul_overflow(row, d->image_height, &bytes) || bytes > buf->size)
         return ICD_ERROR(CL_INVALID_IMAGE_DESCRIPTOR, "%zu rows of %zu bytes exceed the "
                          "%zu-byte buffer", d->image_height, row, buf->size);
      size_t base = (size_t)plat_device_limits(dev)->image_base_address_alignment * elem;
      if (base && buf->device_va % (base < LINEAR_ROW_ALIGN ? base : LINEAR_ROW_ALIGN))
         return ICD_ERROR(CL_INVALID_IMAGE_DESCRIPTOR, "the buffer's address is not aligned "
                          "to CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT");
   }

   size_t max2d = plat_device_limits(dev)->image2d_max_width;
   size_t max3d = plat_device_limits(dev)->image3d_max_width;
   size_t maxarr = plat_device_limits(dev)->image_max_array_size;
   size_t maxbuf = plat_device_limits(dev)->image_max_buffer_size;
   bool too_big;
   switch (t) {
   case CL_MEM_OBJECT_IMAGE1D_BUFFER:
      too_big = d->image_width > maxbuf;
      break;
   case CL_MEM_OBJECT_IMAGE1D:
      too_big = d->image_width > max2d;
      break;
   case CL_MEM_OBJECT_IMAGE1D_ARRAY:
      too_big = d->image_width > max2d || d->image_array_size > maxarr;
      break;
   case CL_MEM_OBJECT_IMAGE2D:
      too_big = d->image_width > max2d || d->image_height > max2d;
      break;
   case CL_MEM_OBJECT_IMAGE2D_ARRAY:
      too_big = d->image_width > max2d || d->image_height > max2d ||
                d->image_array_size > maxarr;
      break;
   default:
      too_big = d->image_width > max3d || d->image_height > max3d || d->image_depth > max3d;
      break;
   }
   if (too_big)
      return ICD_ERROR(CL_INVALID_IMAGE_SIZE, "image of %zu x %zu x %zu (%zu layers) exceeds "
                       "the device's image limits", d->image_width, d->image_height,
                       d->image_depth, d->image_array_size);
   return CL_SUCCESS;
}

/* ---- images from images ------------------------------------------------------------- */

/* Images made from 2D images are OpenCL 2.0 core (§5.3.1); in the 1.2 profile an image as
 * mem_object keeps 1.2's answer, CL_INVALID_IMAGE_DESCRIPTOR. */
static bool
views_in_profile(void)
{
   return plat_opencl_version() >= CL_MAKE_VERSION(2, 0, 0);
}

/* True when `src` is an image a 2D image of `ctx` may be made from: a 2D image of the
 * context (itself possibly made from a buffer or an image), in a profile with views. */
static bool
is_view_source(const struct _cl_context *ctx, const struct _cl_mem *src)
{
   return views_in_profile() && mem_is_image(src) && src->type == CL_MEM_OBJECT_IMAGE2D &&
          src->context == ctx;
}

/* §5.3.1 "Compatible Image Channel Orders": {order of the new image, order of mem_object}. */
static const cl_channel_order view_orders[][2] = {
   { CL_sBGRA, CL_BGRA }, { CL_BGRA, CL_sBGRA }, { CL_sRGBA, CL_RGBA }, { CL_RGBA, CL_sRGBA },
   { CL_sRGB, CL_RGB },   { CL_RGB, CL_sRGB },   { CL_sRGBx, CL_RGBx }, { CL_RGBx, CL_sRGBx },
   { CL_DEPTH, CL_R },
};

/* §5.3.1, a 2D image from a 2D image: the parent's channel data type and an order the table
 * pairs with the parent's (each pair of valid formats has one element size), else
 * CL_INVALID_IMAGE_FORMAT_DESCRIPTOR. The parent's own order is not in the table. */
static cl_int
check_view_format(const cl_image_format *f, const struct _cl_mem *parent)
{
   const cl_image_format *pf = &parent->image->format;
   if (f->image_channel_data_type != pf->image_channel_data_type)
      return ICD_ERROR(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, "channel data type 0x%x differs "
                       "from the parent image's 0x%x", f->image_channel_data_type,
                       pf->image_channel_data_type);
   for (size_t i = 0; i < sizeof(view_orders) / sizeof(*view_orders); i++) {
      if (view_orders[i][0] == f->image_channel_order &&
          view_orders[i][1] == pf->image_channel_order)
         return CL_SUCCESS;
   }
   return ICD_ERROR(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, "channel order 0x%x is not one the "
                    "specification pairs with the parent image's 0x%x (sRGB and linear "
                    "orders, CL_DEPTH over CL_R)", f->image_channel_order,
                    pf->image_channel_order);
}

/*
 * §5.3.1: every field of a view's descriptor but mem_object matches what clGetImageInfo
 * reports for the parent — its width and height; depth, array size and slice pitch 0 (a 2D
 * image); mip levels and samples 0 — and the row pitch is the parent's CL_IMAGE_ROW_PITCH,
 * or 0, the default, which for a view can only mean the parent's. Else
 * CL_INVALID_IMAGE_DESCRIPTOR.
 */
static cl_int
check_view_desc(const cl_image_desc *d, const struct _cl_mem *parent)
{
   const struct mem_image *pim = parent->image;
   if (pim->num_levels > 1)
      return ICD_ERROR(CL_INVALID_IMAGE_DESCRIPTOR, "mem_object is a mipmapped 2D image: "
                       "a view would address its level 0 only");
   if (d->image_width != pim->desc.image_width || d->image_height != pim->desc.image_height ||
       d->image_depth != 0 || d->image_array_size != 0 || d->image_slice_pitch != 0 ||
       d->num_mip_levels != 0 || d->num_samples != 0 ||
       (d->image_row_pitch != 0 && d->image_row_pitch != pim->row_pitch))
      return ICD_ERROR(CL_INVALID_IMAGE_DESCRIPTOR, "image_desc (%zu x %zu, depth %zu, %zu "
                       "layers, pitches %zu/%zu, %u mip levels, %u samples) does not match the "
                       "parent 2D image (%zu x %zu, row pitch %zu)", d->image_width,
                       d->image_height, d->image_depth, d->image_array_size,
                       d->image_row_pitch, d->image_slice_pitch, d->num_mip_levels,
                       d->num_samples, pim->desc.image_width, pim->desc.image_height,
                       pim->row_pitch);
   return CL_SUCCESS;
}

/* A view's layout (*out, the caller's): the parent's description, pitches and size, with
 * format `fmt` (validated against it) and mem_object the parent. */
static cl_int
view_layout(struct _cl_mem *parent, const cl_image_format *fmt, struct mem_image **out,
            size_t *size)
{
   struct mem_image *im = icd_malloc(sizeof(*im));
   if (!im)
      return ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "allocating an image");
   *im = *parent->image;
   im->format = *fmt;
   format_info(fmt, &im->hsa_format, &im->elem_size);
   assert(im->elem_size == parent->image->elem_size);
   im->geometry = geometry_of(CL_MEM_OBJECT_IMAGE2D, fmt);
   im->desc.mem_object = mem_mem_to_handle(parent);
   memset(im->handles, 0, sizeof(im->handles));
   im->num_handles = 0;
   *out = im;
   *size = parent->size;
   return CL_SUCCESS;
}

/* The descriptor the HSA extension takes for `d`. */
static hsa_ext_image_descriptor_t
hsa_desc(const struct mem_image *im)
{
   const cl_image_desc *d = &im->desc;
   hsa_ext_image_descriptor_t hd = { .geometry = im->geometry, .width = d->image_width,
                                     .format = im->hsa_format };
   switch (im->geometry) {
   case HSA_EXT_IMAGE_GEOMETRY_1DA:
      hd.array_size = d->image_array_size;
      break;
   case HSA_EXT_IMAGE_GEOMETRY_2D:
   case HSA_EXT_IMAGE_GEOMETRY_2DDEPTH:
      hd.height = d->image_height;
      break;
   case HSA_EXT_IMAGE_GEOMETRY_2DA:
   case HSA_EXT_IMAGE_GEOMETRY_2DADEPTH:
      hd.height = d->image_height;
      hd.array_size = d->image_array_size;
      break;
   case HSA_EXT_IMAGE_GEOMETRY_3D:
      hd.height = d->image_height;
      hd.depth = d->image_depth;
      break;
   default:
      break;
   }
   return hd;
}

/* The extent of an image in the byte-rectangle view of struct mem_image:
 * x in texels, y rows (layers of a 1D array), z slices (layers of a 2D array). */
void
mem__image_extent(const struct mem_image *im, size_t ext[3])
{
   const cl_image_desc *d = &im->desc;
   ext[0] = d->image_width;
   ext[1] = 1;
   ext[2] = 1;
   switch (d->image_type) {
   case CL_MEM_OBJECT_IMAGE1D_ARRAY:
      ext[1] = d->image_array_size;
      break;
   case CL_MEM_OBJECT_IMAGE2D:
      ext[1] = d->image_height;
      break;
   case CL_MEM_OBJECT_IMAGE2D_ARRAY:
      ext[1] = d->image_height;
      ext[2] = d->image_array_size;
      break;
   case CL_MEM_OBJECT_IMAGE3D:
      ext[1] = d->image_height;
      ext[2] = d->image_depth;
      break;
   default:
      break;
   }
}

/* Texels of a dimension of `size` texels at mip level m: max(1, size >> m). */
static size_t
level_size(size_t size, cl_uint m)
{
   size_t v = m < sizeof(size_t) * 8 ? size >> m : 0;
   return v ? v : 1;
}

/* Rows of level m in a slice of the linear mip chain: one for the 1D types, max(1, height
 * >> m) for the others. */
static size_t
level_rows(const struct mem_image *im, cl_uint m)
{
   cl_mem_object_type t = im->desc.image_type;
   bool one_d = t == CL_MEM_OBJECT_IMAGE1D || t == CL_MEM_OBJECT_IMAGE1D_ARRAY;
   return one_d ? 1 : level_size(im->desc.image_height, m);
}

/* Row pitch of level m in bytes: gfx9's chain has level 0's for every level; gfx10's gives
 * each level its width rounded up to 256 bytes, as the row of an image of one level. */
static size_t
level_pitch(const struct mem_image *im, cl_uint m)
{
   if (!im->gfx10_chain)
      return im->row_pitch;
   size_t row = level_size(im->desc.image_width, m) * im->elem_size;
   return (row + LINEAR_ROW_ALIGN - 1) & ~(size_t)(LINEAR_ROW_ALIGN - 1);
}

/* Byte offset of level m within a slice (a 3D slice, an array layer) of the linear mip
 * chain (docs/images.md "Mip levels"): gfx9 puts the levels one below the other from level
 * 0; gfx10 puts the smallest level first, level m after levels num_levels - 1 .. m + 1. */
static size_t
level_offset(const struct mem_image *im, cl_uint m)
{
   size_t off = 0;
   if (!im->gfx10_chain) {
      for (cl_uint k = 0; k < m; k++)
         off += level_rows(im, k) * im->row_pitch;
      return off;
   }
   for (cl_uint k = m + 1; k < im->num_levels; k++)
      off += level_rows(im, k) * level_pitch(im, k);
   return off;
}

/* Bytes of one slice's whole chain (levels 0..num_levels - 1). */
static size_t
chain_bytes(const struct mem_image *im)
{
   size_t n = 0;
   for (cl_uint m = 0; m < im->num_levels; m++)
      n += level_rows(im, m) * level_pitch(im, m);
   return n;
}

void
mem__image_level(const struct mem_image *im, cl_uint level, struct mem_level *out)
{
   cl_mem_object_type t = im->desc.image_type;
   size_t ext[3];
   mem__image_extent(im, ext);
   out->offset = level_offset(im, level);
   out->row_pitch = t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? im->slice_pitch : level_pitch(im, level);
   out->slice_pitch = im->slice_pitch;
   out->ext[0] = level_size(ext[0], level);
   out->ext[1] = t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? ext[1] : level_size(ext[1], level);
   out->ext[2] = t == CL_MEM_OBJECT_IMAGE3D ? level_size(ext[2], level) : ext[2];
}

/* Level 0's slice pitch (a 1D array's layer pitch): what the HSA image extension takes and
 * the T# implies for an image without mip levels. */
static size_t
base_slice_pitch(const struct mem_image *im)
{
   cl_mem_object_type t = im->desc.image_type;
   if (t == CL_MEM_OBJECT_IMAGE1D_ARRAY)
      return im->row_pitch;
   if (t == CL_MEM_OBJECT_IMAGE3D || t == CL_MEM_OBJECT_IMAGE2D_ARRAY)
      return im->row_pitch * im->desc.image_height;
   return 0;
}

void
mem__image_finish(struct _cl_mem *mem)
{
   struct mem_image *im = mem->image;
   const struct rt_hsa *hsa = rt_hsa();
   if (!im)
      return;
   for (cl_uint i = 0; i < im->num_handles && i < mem->context->num_devices; i++) {
      if (!im->handles[i].handle)
         continue;
      hsa_status_t st =
         hsa->img.hsa_ext_image_destroy(mem->context->devices[i]->agent, im->handles[i]);
      if (st != HSA_STATUS_SUCCESS)
         rt_error(st, CL_OUT_OF_RESOURCES, "destroying an image descriptor");
   }
   icd_free(im);
   mem->image = NULL;
}

uint64_t
mem_image_descriptor(const struct _cl_mem *mem, const struct _cl_device_id *dev)
{
   const struct _cl_context *ctx = mem->context;
   for (cl_uint i = 0; i < ctx->num_devices && i < mem->image->num_handles; i++) {
      if (ctx->devices[i] == dev)
         return mem->image->handles[i].handle;
   }
   return 0;
}

/*
 * Copies the application's texels at `src` (pitches host_row/host_slice in the
 * byte-rectangle view) into the image's device memory, whole.
 */
static cl_int
image_upload(struct _cl_mem *mem, const void *src, size_t host_row, size_t host_slice)
{
   struct mem_image *im = mem->image;
   size_t ext[3];
   mem__image_extent(im, ext);
   size_t row_bytes = ext[0] * im->elem_size;
   size_t total = (ext[2] - 1) * im->slice_pitch + (ext[1] - 1) * im->row_pitch + row_bytes;
   unsigned char *tmp = icd_calloc(1, total);
   if (!tmp)
      return ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "staging %zu bytes of initial image data", total);
   for (size_t z = 0; z < ext[2]; z++)
      for (size_t y = 0; y < ext[1]; y++)
         memcpy(tmp + z * im->slice_pitch + y * im->row_pitch,
                (const unsigned char *)src + z * host_slice + y * host_row, row_bytes);
   cl_int err = mem__copy_to_device(mem->device, mem->device_va, tmp, total);
   icd_free(tmp);
   return err;
}

/* The layout of a new image of format `fmt` and description `desc` (validated) on `dev`:
 * the description as queries report it, the application's host_ptr pitches, the image's
 * own pitches (a buffer's for an image of a buffer) and its size in bytes. *out: a new
 * struct mem_image, the caller's. */
static cl_int
image_layout(struct _cl_device_id *dev, const cl_image_format *fmt, const cl_image_desc *desc,
             const struct _cl_mem *buf, struct mem_image **out, size_t *size)
{
   const struct rt_hsa *hsa = rt_hsa();
   struct mem_image *im = icd_calloc(1, sizeof(*im));
   if (!im)
      return ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "allocating an image");
   im->format = *fmt;
   im->desc = *desc;
   format_info(fmt, &im->hsa_format, &im->elem_size);
   im->geometry = geometry_of(desc->image_type, fmt);
   cl_mem_object_type t = desc->image_type;
   /* Sizes the type does not use are 0 in queries (§5.3.7). */
   if (t != CL_MEM_OBJECT_IMAGE2D && t != CL_MEM_OBJECT_IMAGE2D_ARRAY &&
       t != CL_MEM_OBJECT_IMAGE3D)
      im->desc.image_height = 0;
   if (t != CL_MEM_OBJECT_IMAGE3D)
      im->desc.image_depth = 0;
   if (t != CL_MEM_OBJECT_IMAGE1D_ARRAY && t != CL_MEM_OBJECT_IMAGE2D_ARRAY)
      im->desc.image_array_size = 0;

   size_t ext[3];
   mem__image_extent(im, ext);
   size_t min_row = ext[0] * im->elem_size;
   /* The application's layout of host_ptr in the byte-rectangle view. */
   size_t hrow = desc->image_row_pitch ? desc->image_row_pitch : min_row;
   size_t hslice = desc->image_slice_pitch ? desc->image_slice_pitch : hrow * ext[1];
   if (t == CL_MEM_OBJECT_IMAGE1D_ARRAY)
      hrow = desc->image_slice_pitch ? desc->image_slice_pitch : hrow;
   im->host_row_pitch = hrow;
   im->host_slice_pitch = t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? hrow * ext[1] : hslice;

   im->num_levels = desc->num_mip_levels > 1 ? desc->num_mip_levels : 1;
   im->gfx10_chain = im->num_levels > 1 && dev->info.gfx_major == 10;
   if (buf) {
      im->row_pitch = t == CL_MEM_OBJECT_IMAGE2D ? hrow : min_row;
      im->slice_pitch = t == CL_MEM_OBJECT_IMAGE2D ? hrow * ext[1] : min_row;
      *size = im->slice_pitch;
   } else {
      im->row_pitch = (min_row + LINEAR_ROW_ALIGN - 1) & ~(size_t)(LINEAR_ROW_ALIGN - 1);
      /* A slice (a 1D array's layer) holds its whole mip chain (docs/images.md). */
      im->slice_pitch = chain_bytes(im);
      hsa_ext_image_descriptor_t hd = hsa_desc(im);
      hsa_ext_image_data_info_t info = { 0 };
      hsa_status_t st = hsa->img.hsa_ext_image_data_get_info_with_layout(
         dev->agent, &hd, HSA_ACCESS_PERMISSION_RW, HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR,
         im->row_pitch, base_slice_pitch(im), &info);
      if (st != HSA_STATUS_SUCCESS) {
         icd_free(im);
         return rt_error(st, CL_IMAGE_FORMAT_NOT_SUPPORTED,
                         "hsa_ext_image_data_get_info_with_layout (linear image)");
      }
      *size = info.size;
      if (im->num_levels > 1) {
         /* The extension sizes level 0 only: the chain is every slice's (layer's) levels. */
         size_t slices = t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? ext[1] : ext[2];
         *size = im->slice_pitch * slices;
      }
   }

   *out = im;
   return CL_SUCCESS;
}

/* §5.3.1: an image made from another memory object (buffer or image) takes from it the
 * access and host access flags `flags` does not give, and its host pointer flags. */
static cl_mem_flags
inherited_flags(cl_mem_flags flags, const struct _cl_mem *src)
{
   cl_mem_flags f = flags;
   if (!(f & ACCESS_FLAGS))
      f |= src->flags & ACCESS_FLAGS;
   if (!(f & HOST_ACCESS_FLAGS))
      f |= src->flags & HOST_ACCESS_FLAGS;
   return f | (src->flags & HOST_PTR_FLAGS);
}

/* The image's memory: that of `src` for an image made from a buffer or an image (flags
 * inherited from it), else device memory of `size` bytes granted to the context's devices;
 * then its flags and properties. Errors leave what was taken to mem__object_destroy. */
static cl_int
image_backing(struct _cl_mem *mem, struct _cl_context *ctx, struct _cl_device_id *dev,
              struct _cl_mem *src, cl_mem_flags flags, void *host_ptr, size_t size,
              const cl_mem_properties *props, size_t num_props)
{
   cl_int err;
   cl_mem_flags f = flags;
   if (src) {
      f = inherited_flags(flags, src);
      mem_retain_internal(src);
      mem->parent = src;
      mem->backing = MEM_BACKING_SUB;
      mem->device_va = src->device_va;
      mem->host_ptr = src->host_ptr;
      mem->host_accessible = src->host_accessible;
      mem->uses_svm_pointer = src->uses_svm_pointer;
      mem->device = src->device;
   } else {
      mem->backing = MEM_BACKING_DEVICE;
      hsa_agent_t agents[MEM_MAX_AGENTS];
      uint32_t num_agents = mem__context_agents(ctx, agents);
      err = rt_pool_alloc(dev->device_pool, size, agents, num_agents > 1 ? num_agents : 0,
                          CL_MEM_OBJECT_ALLOCATION_FAILURE, "allocating an image",
                          &mem->alloc_base);
      if (err != CL_SUCCESS)
         return err;
      atomic_fetch_add(&dev->device_bytes_in_use, size);
      mem->device_va = (uintptr_t)mem->alloc_base;
      if (f & CL_MEM_USE_HOST_PTR)
         mem->host_ptr = host_ptr;
   }
   mem->flags = f & ACCESS_FLAGS ? f : f | CL_MEM_READ_WRITE;
   if (props) {
      mem->props = icd_malloc(num_props * sizeof(*props));
      if (!mem->props)
         return ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "copying image properties");
      memcpy(mem->props, props, num_props * sizeof(*props));
      mem->num_props = num_props;
   }
   return CL_SUCCESS;
}

/*
 * Makes the descriptor of image handle `h` address mip levels 0..last: ROCr 5.2.3's image
 * extension has no mip levels, so a mipmapped image's descriptor is made for level 0 (its
 * pitch, format and sizes are every level's base) and its T# LAST_LEVEL (dword 3, bits 19:16,
 * on gfx9 and gfx10) and MAX_MIP (the resource's last level, from which the texture unit
 * lays out the chain: gfx9 dword 5 bits 31:28, ROCr's resource_ai.h; gfx10 dword 5 bits 7:4,
 * resource_nv.h) set here; BASE_LEVEL stays 0. The chain follows from MAX_MIP and level 0's
 * sizes (docs/images.md "Mip levels"). Both runtimes keep descriptors in host-visible system
 * memory, the handle being the T#'s address, and nothing reads it until a kernel is
 * launched with it.
 */
static void
set_last_level(hsa_ext_image_t h, cl_uint last, bool gfx10)
{
   volatile uint32_t *t = (volatile uint32_t *)(uintptr_t)h.handle;
   unsigned max_mip_shift = gfx10 ? 4 : 28;
   t[3] = (t[3] & ~(0xFu << 16)) | (last & 0xFu) << 16;
   t[5] = (t[5] & ~(0xFu << max_mip_shift)) | (last & 0xFu) << max_mip_shift;
}

/* One HSA image descriptor per image device of the context, over the image's memory. Errors
 * leave the descriptors made to mem__object_destroy. */
static cl_int
image_descriptors(struct _cl_mem *mem, struct _cl_context *ctx)
{
   const struct rt_hsa *hsa = rt_hsa();
   struct mem_image *im = mem->image;
   cl_mem_object_type t = im->desc.image_type;
   hsa_ext_image_descriptor_t hd = hsa_desc(im);
   size_t ext[3];
   mem__image_extent(im, ext);
   size_t min_row = ext[0] * im->elem_size;
   size_t slice_arg = base_slice_pitch(im);
   /* A 1D buffer image's descriptor is a buffer resource (its stride is the element), but
    * ROCr 5.2.3 still sizes it as a linear 1D surface first, and its address library
    * asserts (aborting the process) unless the row pitch is the 256-byte aligned one. */
   size_t row_arg = t == CL_MEM_OBJECT_IMAGE1D_BUFFER
                       ? (min_row + LINEAR_ROW_ALIGN - 1) & ~(size_t)(LINEAR_ROW_ALIGN - 1)
                       : im->row_pitch;
   im->num_handles = ctx->num_devices;
   for (cl_uint i = 0; i < ctx->num_devices; i++) {
      if (!ctx->devices[i]->image_support)
         continue;
      hsa_status_t st = hsa->img.hsa_ext_image_create_with_layout(
         ctx->devices[i]->agent, &hd, (void *)(uintptr_t)mem->device_va,
         HSA_ACCESS_PERMISSION_RW, HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, row_arg, slice_arg,
         &im->handles[i]);
      if (st != HSA_STATUS_SUCCESS) {
         im->handles[i].handle = 0;
         return rt_error(st, CL_OUT_OF_RESOURCES, "hsa_ext_image_create_with_layout");
      }
      if (im->num_levels > 1)
         set_last_level(im->handles[i], im->num_levels - 1, im->gfx10_chain);
   }
   return CL_SUCCESS;
}

/* Builds the image: memory (or that of `src`, the buffer or 2D image it is made from),
 * descriptors, initial contents. Inputs are validated. Returns a new object with one API
 * reference. */
static cl_int
image_create(struct _cl_context *ctx, struct _cl_device_id *dev, const cl_mem_properties *props,
             size_t num_props, cl_mem_flags flags, const cl_image_format *fmt,
             const cl_image_desc *desc, void *host_ptr, struct _cl_mem *src,
             struct _cl_mem **out)
{
   struct mem_image *im = NULL;
   size_t size = 0;
   cl_int err = src && mem_is_image(src) ? view_layout(src, fmt, &im, &size)
                                         : image_layout(dev, fmt, desc, src, &im, &size);
   if (err != CL_SUCCESS)
      return err;
   struct _cl_mem *mem;
   err = mem__object_create(ctx, dev, &mem);
   if (err != CL_SUCCESS) {
      icd_free(im);
      return err;
   }
   mem->image = im;
   mem->type = im->desc.image_type;
   mem->size = size;
   err = image_backing(mem, ctx, dev, src, flags, host_ptr, size, props, num_props);
   if (err == CL_SUCCESS)
      err = image_descriptors(mem, ctx);
   if (err == CL_SUCCESS && !src && (mem->flags & (CL_MEM_COPY_HOST_PTR | CL_MEM_USE_HOST_PTR)))
      err = image_upload(mem, host_ptr, im->host_row_pitch, im->host_slice_pitch);
   if (err != CL_SUCCESS) {
      mem__object_destroy(mem);
      return err;
   }
   *out = mem;
   return CL_SUCCESS;
}

static cl_int
check_flags(cl_mem_flags flags)
{
   if (flags & ~(cl_mem_flags)IMAGE_FLAGS)
      return ICD_ERROR(CL_INVALID_VALUE, "unknown memory flags 0x%llx",
                       (unsigned long long)(flags & ~(cl_mem_flags)IMAGE_FLAGS));
   if (more_than_one(flags & ACCESS_FLAGS))
      return ICD_ERROR(CL_INVALID_VALUE, "more than one of CL_MEM_READ_WRITE/WRITE_ONLY/"
                       "READ_ONLY in 0x%llx", (unsigned long long)flags);
   if ((flags & CL_MEM_USE_HOST_PTR) && (flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)))
      return ICD_ERROR(CL_INVALID_VALUE, "CL_MEM_USE_HOST_PTR with CL_MEM_ALLOC_HOST_PTR or "
                       "CL_MEM_COPY_HOST_PTR");
   if (more_than_one(flags & HOST_ACCESS_FLAGS))
      return ICD_ERROR(CL_INVALID_VALUE, "more than one of CL_MEM_HOST_WRITE_ONLY/READ_ONLY/"
                       "NO_ACCESS in 0x%llx", (unsigned long long)flags);
   return CL_SUCCESS;
}

/* §5.3.1: flags of an image made from a buffer or an image must not widen its flags, nor
 * name a host pointer. */
static cl_int
check_source_flags(cl_mem_flags flags, const struct _cl_mem *src)
{
   cl_mem_flags bf = src->flags;
   if (((bf & CL_MEM_WRITE_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))) ||
       ((bf & CL_MEM_READ_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY))) ||
       (flags & HOST_PTR_FLAGS))
      return ICD_ERROR(CL_INVALID_VALUE, "image flags 0x%llx conflict with mem_object's "
                       "0x%llx (or name a host pointer)", (unsigned long long)flags,
                       (unsigned long long)bf);
   if (((bf & CL_MEM_HOST_WRITE_ONLY) && (flags & CL_MEM_HOST_READ_ONLY)) ||
       ((bf & CL_MEM_HOST_READ_ONLY) && (flags & CL_MEM_HOST_WRITE_ONLY)) ||
       ((bf & CL_MEM_HOST_NO_ACCESS) && (flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY))))
      return ICD_ERROR(CL_INVALID_VALUE, "image host access flags 0x%llx conflict with "
                       "mem_object's 0x%llx", (unsigned long long)flags, (unsigned long long)bf);
   return CL_SUCCESS;
}

/* §5.3.1, the descriptor's mem_object (validated: not NULL, the handle unwrapped to `src`,
 * NULL when it is no memory object): a buffer of the context for a 1D buffer or 2D image, a
 * 2D image of the context for a 2D image (is_view_source), else
 * CL_INVALID_IMAGE_DESCRIPTOR. A view's descriptor must match its parent. */
static cl_int
check_source(const struct _cl_context *ctx, const cl_image_desc *d, const struct _cl_mem *src)
{
   if (src && mem_is_buffer(src) && src->context == ctx)
      return CL_SUCCESS; /* check_desc checks the image type and sizes against the buffer */
   if (!src || !is_view_source(ctx, src) || d->image_type != CL_MEM_OBJECT_IMAGE2D)
      return ICD_ERROR(CL_INVALID_IMAGE_DESCRIPTOR, "mem_object %p is not a buffer of the "
                       "context%s", (void *)d->mem_object,
                       views_in_profile() ? ", nor a 2D image of the context for a 2D image"
                                          : " (images from images are OpenCL 2.0)");
   return check_view_desc(d, src);
}

cl_mem CL_API_CALL
mem_CreateImageWithProperties(cl_context context, const cl_mem_properties *properties,
                              cl_mem_flags flags, const cl_image_format *image_format,
                              const cl_image_desc *image_desc, void *host_ptr,
                              cl_int *errcode_ret)
{
   struct _cl_mem *mem = NULL, *src = NULL;
   size_t num_props = 0;
   cl_int err;
   struct _cl_context *ctx = plat_context_from_handle(context);
   if (!ctx) {
      err = ICD_ERROR(CL_INVALID_CONTEXT, "context %p is not an hsacl context", (void *)context);
      goto out;
   }
   if (properties) {
      if (properties[0] != 0) {
         err = ICD_ERROR(CL_INVALID_PROPERTY, "unsupported image property 0x%llx",
                         (unsigned long long)properties[0]);
         goto out;
      }
      num_props = 1;
   }
   err = check_flags(flags);
   if (err != CL_SUCCESS)
      goto out;
   if (image_desc && image_desc->mem_object) {
      src = mem_mem_from_handle(image_desc->mem_object);
      if (src && (mem_is_buffer(src) || (views_in_profile() && mem_is_image(src)))) {
         err = check_source_flags(flags, src);
         if (err != CL_SUCCESS)
            goto out;
      }
   }
   hsa_ext_image_format_t hf;
   size_t elem = 0;
   if (!image_format || !format_info(image_format, &hf, &elem)) {
      err = ICD_ERROR(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, "image_format is NULL or not a "
                      "valid channel order / data type pair");
      goto out;
   }
   bool view = src && is_view_source(ctx, src) &&
               image_desc->image_type == CL_MEM_OBJECT_IMAGE2D;
   if (view) {
      err = check_view_format(image_format, src);
      if (err != CL_SUCCESS)
         goto out;
   }
   if (!image_desc || !image_type_valid(image_desc->image_type)) {
      err = ICD_ERROR(CL_INVALID_IMAGE_DESCRIPTOR, "image_desc is NULL or its image_type is "
                      "not an image type");
      goto out;
   }
   if (image_desc->mem_object) {
      err = check_source(ctx, image_desc, src);
      if (err != CL_SUCCESS)
         goto out;
   } else {
      src = NULL;
   }
   struct _cl_device_id *dev = image_device(ctx);
   if (!dev) {
      err = ICD_ERROR(CL_INVALID_OPERATION, "no device of the context supports images "
                      "(CL_DEVICE_IMAGE_SUPPORT is CL_FALSE)");
      goto out;
   }
   if (!view) {
      err = check_desc(image_desc, elem, host_ptr, src, dev);
      if (err != CL_SUCCESS)
         goto out;
   }
   bool wants_ptr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
   if (!view && image_desc->num_mip_levels > 1) {
      /* cl_khr_mipmap_image "Restrictions": no host pointer, no depth images. */
      if (host_ptr || wants_ptr) {
         err = ICD_ERROR(CL_INVALID_HOST_PTR, "a mipmapped image takes no host_ptr nor "
                         "CL_MEM_USE_HOST_PTR / CL_MEM_COPY_HOST_PTR");
         goto out;
      }
      if (image_format->image_channel_order == CL_DEPTH) {
         err = ICD_ERROR(CL_INVALID_IMAGE_DESCRIPTOR, "num_mip_levels %u with a CL_DEPTH "
                         "image: depth images cannot be mipmapped",
                         image_desc->num_mip_levels);
         goto out;
      }
      if (!mip_layouts_agree(ctx)) {
         err = ICD_ERROR(CL_INVALID_IMAGE_DESCRIPTOR, "num_mip_levels %u in a context of "
                         "gfx9 and gfx10 devices, whose linear mip chains differ",
                         image_desc->num_mip_levels);
         goto out;
      }
   }
   if (!host_ptr != !wants_ptr) {
      err = ICD_ERROR(CL_INVALID_HOST_PTR, "host_ptr %p with flags 0x%llx: USE/COPY_HOST_PTR "
                      "need a host_ptr, other flags take none", host_ptr,
                      (unsigned long long)flags);
      goto out;
   }
   /* The flags the image will have: an image of a buffer or image inherits access flags. */
   cl_mem_flags eff = src ? inherited_flags(flags, src) : flags;
   if (!format_supported(ctx, eff, image_desc->image_type, image_format)) {
      err = ICD_ERROR(CL_IMAGE_FORMAT_NOT_SUPPORTED, "format (order 0x%x, type 0x%x) is not "
                      "supported for this image type and flags 0x%llx",
                      image_format->image_channel_order,
                      image_format->image_channel_data_type, (unsigned long long)eff);
      goto out;
   }
   err = image_create(ctx, dev, properties, num_props, flags, image_format, image_desc,
                      host_ptr, src, &mem);
   if (err != CL_SUCCESS)
      goto out;
   icd_set_errcode(errcode_ret, CL_SUCCESS);
   return mem_mem_to_handle(mem);

out:
   icd_set_errcode(errcode_ret, err);
   return NULL;
}

cl_mem CL_API_CALL
mem_CreateImage(cl_context context, cl_mem_flags flags, const cl_image_format *image_format,
                const cl_image_desc *image_desc, void *host_ptr, cl_int *errcode_ret)
{
   return mem_CreateImageWithProperties(context, NULL, flags, image_format, image_desc,
                                        host_ptr, errcode_ret);
}

cl_mem CL_API_CALL
mem_CreateImage2D(cl_context context, cl_mem_flags flags, const cl_image_format *image_format,
                  size_t image_width, size_t image_height, size_t image_row_pitch,
                  void *host_ptr, cl_int *errcode_ret)
{
   cl_image_desc d = { .image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = image_width,
                       .image_height = image_height, .image_row_pitch = image_row_pitch };
   return mem_CreateImage(context, flags, image_format, &d, host_ptr, errcode_ret);
}

cl_mem CL_API_CALL
mem_CreateImage3D(cl_context context, cl_mem_flags flags, const cl_image_format *image_format,
                  size_t image_width, size_t image_height, size_t image_depth,
                  size_t image_row_pitch, size_t image_slice_pitch, void *host_ptr,
                  cl_int *errcode_ret)
{
   cl_image_desc d = { .image_type = CL_MEM_OBJECT_IMAGE3D, .image_width = image_width,
                       .image_height = image_height, .image_depth = image_depth,
                       .image_row_pitch = image_row_pitch,
                       .image_slice_pitch = image_slice_pitch };
   return mem_CreateImage(context, flags, image_format, &d, host_ptr, errcode_ret);
}

/* ---- queries ------------------------------------------------------------------------ */

cl_int CL_API_CALL
mem_GetImageInfo(cl_mem image, cl_image_info param_name, size_t param_value_size,
                 void *param_value, size_t *param_value_size_ret)
{
   struct _cl_mem *mem = mem_mem_from_handle(image);
   if (!mem || !mem_is_image(mem))
      return ICD_ERROR(CL_INVALID_MEM_OBJECT, "%p is not an image object", (void *)image);
   const struct mem_image *im = mem->image;
   size_t pvs = param_value_size;
   void *pv = param_value;
   size_t *pvsr = param_value_size_ret;
   cl_mem_object_type t = im->desc.image_type;
   switch (param_name) {
   case CL_IMAGE_FORMAT:
      return icd_get_info(&im->format, sizeof(im->format), pvs, pv, pvsr);
   case CL_IMAGE_ELEMENT_SIZE:
      return ICD_GET_INFO_SCALAR(size_t, im->elem_size, pvs, pv, pvsr);
   case CL_IMAGE_ROW_PITCH:
      return ICD_GET_INFO_SCALAR(size_t, im->row_pitch, pvs, pv, pvsr);
   case CL_IMAGE_SLICE_PITCH: {
      size_t s = t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? im->slice_pitch
                 : (t == CL_MEM_OBJECT_IMAGE2D_ARRAY || t == CL_MEM_OBJECT_IMAGE3D)
                    ? im->slice_pitch : 0;
      return ICD_GET_INFO_SCALAR(size_t, s, pvs, pv, pvsr);
   }
   case CL_IMAGE_WIDTH:
      return ICD_GET_INFO_SCALAR(size_t, im->desc.image_width, pvs, pv, pvsr);
   case CL_IMAGE_HEIGHT:
      return ICD_GET_INFO_SCALAR(size_t, im->desc.image_height, pvs, pv, pvsr);
   case CL_IMAGE_DEPTH:
      return ICD_GET_INFO_SCALAR(size_t, im->desc.image_depth, pvs, pv, pvsr);
   case CL_IMAGE_ARRAY_SIZE:
      return ICD_GET_INFO_SCALAR(size_t, im->desc.image_array_size, pvs, pv, pvsr);
   case CL_IMAGE_BUFFER: {
      /* The buffer whose memory the image addresses, through the images it is a view of. */
      struct _cl_mem *b = mem->parent;
      while (b && mem_is_image(b))
         b = b->parent;
      return ICD_GET_INFO_SCALAR(cl_mem, b ? mem_mem_to_handle(b) : NULL, pvs, pv, pvsr);
   }
   case CL_IMAGE_NUM_MIP_LEVELS:
      return ICD_GET_INFO_SCALAR(cl_uint, im->desc.num_mip_levels, pvs, pv, pvsr);
   case CL_IMAGE_NUM_SAMPLES:
      return ICD_GET_INFO_SCALAR(cl_uint, 0, pvs, pv, pvsr);
   default:
      return ICD_ERROR(CL_INVALID_VALUE, "unknown image query 0x%x", (unsigned)param_name);
   }
}
