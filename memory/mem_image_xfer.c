/*
 * memory/mem_image_xfer.c — image commands: clEnqueueReadImage, WriteImage, CopyImage,
 * CopyImageToBuffer, CopyBufferToImage, FillImage, MapImage (unmap is the common
 * clEnqueueUnmapMemObject), OpenCL 3.0 API §5.3.3–§5.3.6.
 *
 * Images are linear (mem_image.c): a region of texels is a rectangle of bytes with the
 * image's row and slice pitches, so every command is one of the buffer transfer engine's
 * rectangle commands (mem_transfer.c): async copies between device memory and staging,
 * one per row or per run of rows adjacent on both sides, through the runtime's copy path. That is exact for every format (no
 * conversion happens on a copy), does not depend on the runtime's image blit kernels, and
 * keeps the fence rules of buffers (images are coarse-grained device memory). Only fill
 * converts: the fill colour becomes one texel on the host (§5.3.5's conversion rules), then
 * the region is written with copies of it.
 */
#include "mem_priv.h"

#include "dispatch/disp.h"
#include "platform/plat.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

static cl_int
check_image(struct _cl_command_queue *q, cl_mem handle, struct _cl_mem **out, const char *what)
{
   struct _cl_mem *mem = mem_mem_from_handle(handle);
   if (!mem || !mem_is_image(mem))
      return ICD_ERROR(CL_INVALID_MEM_OBJECT, "%s %p is not an image object", what,
                       (void *)handle);
   if (mem->context != disp_queue_context(q))
      return ICD_ERROR(CL_INVALID_CONTEXT, "%s belongs to another context than the queue", what);
   *out = mem;
   return CL_SUCCESS;
}

/* A command's region of an image, resolved: the mip level, its place in the byte-rectangle
 * view, and the origin within it (the level coordinate taken out). */
struct at {
   cl_uint level;
   struct mem_level lv;
   size_t o[3];
};

/* cl_khr_mipmap_image: the origin component naming the mip level of a mipmapped image, the
 * one after the type's coordinates (origin[3] for 2D arrays and 3D images). */
static unsigned
mip_index(cl_mem_object_type t)
{
   switch (t) {
   case CL_MEM_OBJECT_IMAGE1D:
      return 1;
   case CL_MEM_OBJECT_IMAGE1D_ARRAY:
   case CL_MEM_OBJECT_IMAGE2D:
      return 2;
   default:
      return 3;
   }
}

/*
 * §5.3.3: origin and region inside the image (a mipmapped image's level, which the origin
 * names, else CL_INVALID_MIP_LEVEL), region non-zero, and the coordinates the image type
 * does not have at 0 (origin) or 1 (region).
 */
static cl_int
check_region(const struct _cl_mem *mem, const size_t *origin, const size_t *region,
             const char *what, struct at *at)
{
   if (!origin || !region)
      return ICD_ERROR(CL_INVALID_VALUE, "%s origin or region is NULL", what);
   const struct mem_image *im = mem->image;
   memcpy(at->o, origin, sizeof(at->o));
   at->level = 0;
   if (im->num_levels > 1) {
      unsigned k = mip_index(im->desc.image_type);
      if (origin[k] >= im->num_levels)
         return ICD_ERROR(CL_INVALID_MIP_LEVEL, "%s origin[%u] names mip level %zu of an "
                          "image of %u levels", what, k, origin[k], im->num_levels);
      at->level = (cl_uint)origin[k];
      if (k < 3)
         at->o[k] = 0;
   }
   mem__image_level(im, at->level, &at->lv);
   const size_t *ext = at->lv.ext, *o = at->o;
   for (int i = 0; i < 3; i++) {
      if (region[i] == 0 || o[i] > ext[i] || region[i] > ext[i] - o[i])
         return ICD_ERROR(CL_INVALID_VALUE, "%s region {%zu, %zu, %zu} at {%zu, %zu, %zu} is "
                          "empty or outside the image (level %u) of {%zu, %zu, %zu}", what,
                          region[0], region[1], region[2], o[0], o[1], o[2], at->level,
                          ext[0], ext[1], ext[2]);
   }
   /* Within an extent of 1 the origin is 0 and the region 1 (checked above), which are
    * exactly the values §5.3.3 requires of the coordinates a type does not have. */
   return CL_SUCCESS;
}

/* The image's queue device must support images (§5.3.3 CL_INVALID_OPERATION). */
static cl_int
check_queue_images(const struct _cl_command_queue *q)
{
   if (!disp_queue_device(q)->image_support)
      return ICD_ERROR(CL_INVALID_OPERATION, "the queue's device does not support images");
   return CL_SUCCESS;
}

/* Byte origin and region of a texel region, in the image's memory with the pitches of the
 * level `at` names (its offset folded into the first coordinate). */
static void
byte_rect(const struct mem_image *im, const struct at *at, const size_t *region, size_t bo[3],
          size_t br[3])
{
   bo[0] = at->lv.offset + at->o[0] * im->elem_size;
   bo[1] = at->o[1];
   bo[2] = at->o[2];
   br[0] = region[0] * im->elem_size;
   br[1] = region[1];
   br[2] = region[2];
}

/* The host side's pitches for a region at `ptr`: §5.3.3's defaults; 1D arrays' layer pitch
 * is the slice pitch. CL_INVALID_VALUE for a slice pitch given for a 1D or 2D image (§5.3.3:
 * "This must be 0 if image is a 1D or 2D image"; a 1D image buffer is a 1D image), for a
 * pitch below the region, and for pitches whose span from `ptr` overflows, wraps around the
 * address space or exceeds PTRDIFF_MAX (no C object is larger; the copy would address
 * memory past any the application owns). */
static cl_int
host_pitches(const struct mem_image *im, const size_t *region, size_t row, size_t slice,
             const void *ptr, size_t *hrow, size_t *hslice)
{
   cl_mem_object_type t = im->desc.image_type;
   if (slice && (t == CL_MEM_OBJECT_IMAGE1D || t == CL_MEM_OBJECT_IMAGE1D_BUFFER ||
                 t == CL_MEM_OBJECT_IMAGE2D))
      return ICD_ERROR(CL_INVALID_VALUE, "slice pitch %zu for a 1D or 2D image: it must be 0",
                       slice);
   size_t min_row = region[0] * im->elem_size;
   if (row == 0)
      row = min_row;
   else if (row < min_row)
      return ICD_ERROR(CL_INVALID_VALUE, "row pitch %zu is less than the region's %zu bytes",
                       row, min_row);
   bool overflow;
   if (im->desc.image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY) {
      if (slice == 0)
         slice = row;
      else if (slice < row)
         return ICD_ERROR(CL_INVALID_VALUE, "slice pitch %zu is less than the row pitch %zu",
                          slice, row);
      *hrow = slice;
      overflow = __builtin_mul_overflow(slice, region[1], hslice);
   } else {
      size_t min_slice;
      overflow = __builtin_mul_overflow(row, region[1], &min_slice);
      if (slice == 0)
         slice = min_slice;
      else if ((overflow || slice < min_slice) &&
               (im->desc.image_type == CL_MEM_OBJECT_IMAGE3D ||
                im->desc.image_type == CL_MEM_OBJECT_IMAGE2D_ARRAY))
         return ICD_ERROR(CL_INVALID_VALUE, "slice pitch %zu is less than row pitch %zu x "
                          "height %zu", slice, row, region[1]);
      *hrow = row;
      *hslice = slice < min_slice ? min_slice : slice;
   }
   /* One past the region's last byte on the host side. */
   size_t a, b, span;
   if (overflow || __builtin_mul_overflow(region[1] - 1, *hrow, &a) ||
       __builtin_mul_overflow(region[2] - 1, *hslice, &b) || __builtin_add_overflow(a, b, &a) ||
       __builtin_add_overflow(a, min_row, &span) || span > PTRDIFF_MAX ||
       span > UINTPTR_MAX - (uintptr_t)ptr)
      return ICD_ERROR(CL_INVALID_VALUE, "region {%zu, %zu, %zu} with host row pitch %zu and "
                       "slice pitch %zu at %p overflows the address space", region[0],
                       region[1], region[2], row, slice, ptr);
   return CL_SUCCESS;
}

static cl_int
enqueue_image_rw(cl_command_queue command_queue, cl_mem image, cl_bool blocking, bool read,
                 const size_t *origin, const size_t *region, size_t row_pitch,
                 size_t slice_pitch, void *ptr, cl_uint num_events, const cl_event *wait_list,
                 cl_event *event)
{
   QUEUE_OR_RETURN(q, command_queue);
   struct _cl_mem *mem;
   cl_int err = check_image(q, image, &mem, "image");
   if (err != CL_SUCCESS)
      return err;
   struct at at;
   err = check_region(mem, origin, region, "image", &at);
   if (err != CL_SUCCESS)
      return err;
   if (!ptr)
      return ICD_ERROR(CL_INVALID_VALUE, "ptr is NULL");
   size_t hrow = 0, hslice = 0;
   err = host_pitches(mem->image, region, row_pitch, slice_pitch, ptr, &hrow, &hslice);
   if (err != CL_SUCCESS)
      return err;
   err = disp_validate_wait_list(disp_queue_context(q), num_events, wait_list);
   if (err != CL_SUCCESS)
      return err;
   err = check_queue_images(q);
   if (err != CL_SUCCESS)
      return err;
   err = read ? mem__check_host_read(mem) : mem__check_host_write(mem);
   if (err != CL_SUCCESS)
      return err;
   size_t bo[3], br[3];
   byte_rect(mem->image, &at, region, bo, br);
   const size_t zero[3] = { 0, 0, 0 };
   return mem__enqueue_rect_rw(q, mem, read ? CL_COMMAND_READ_IMAGE : CL_COMMAND_WRITE_IMAGE,
                               read, blocking, bo, zero, br, at.lv.row_pitch,
                               at.lv.slice_pitch, hrow, hslice, ptr, false, num_events,
                               wait_list, event);
}

cl_int CL_API_CALL
mem_EnqueueReadImage(cl_command_queue command_queue, cl_mem image, cl_bool blocking_read,
                     const size_t *origin, const size_t *region, size_t row_pitch,
                     size_t slice_pitch, void *ptr, cl_uint num_events_in_wait_list,
                     const cl_event *event_wait_list, cl_event *event)
{
   return enqueue_image_rw(command_queue, image, blocking_read, true, origin, region,
                           row_pitch, slice_pitch, ptr, num_events_in_wait_list,
                           event_wait_list, event);
}

cl_int CL_API_CALL
mem_EnqueueWriteImage(cl_command_queue command_queue, cl_mem image, cl_bool blocking_write,
                      const size_t *origin, const size_t *region, size_t input_row_pitch,
                      size_t input_slice_pitch, const void *ptr,
                      cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                      cl_event *event)
{
   return enqueue_image_rw(command_queue, image, blocking_write, false, origin, region,
                           input_row_pitch, input_slice_pitch, (void *)ptr,
                           num_events_in_wait_list, event_wait_list, event);
}

/* ---- copies ------------------------------------------------------------------------- */

/* True when two texel boxes of one image intersect. */
static bool
boxes_overlap(const size_t *a, const size_t *b, const size_t *region)
{
   for (int i = 0; i < 3; i++) {
      if (a[i] >= b[i] + region[i] || b[i] >= a[i] + region[i])
         return false;
   }
   return true;
}

cl_int CL_API_CALL
mem_EnqueueCopyImage(cl_command_queue command_queue, cl_mem src_image, cl_mem dst_image,
                     const size_t *src_origin, const size_t *dst_origin, const size_t *region,
                     cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                     cl_event *event)
{
   QUEUE_OR_RETURN(q, command_queue);
   struct _cl_mem *src, *dst;
   cl_int err = check_image(q, src_image, &src, "src_image");
   if (err == CL_SUCCESS)
      err = check_image(q, dst_image, &dst, "dst_image");
   if (err != CL_SUCCESS)
      return err;
   if (src->image->format.image_channel_order != dst->image->format.image_channel_order ||
       src->image->format.image_channel_data_type != dst->image->format.image_channel_data_type)
      return ICD_ERROR(CL_IMAGE_FORMAT_MISMATCH, "src_image and dst_image have different "
                       "formats");
   struct at sa, da;
   err = check_region(src, src_origin, region, "src_image", &sa);
   if (err == CL_SUCCESS)
      err = check_region(dst, dst_origin, region, "dst_image", &da);
   if (err != CL_SUCCESS)
      return err;
   err = disp_validate_wait_list(disp_queue_context(q), num_events_in_wait_list, event_wait_list);
   if (err != CL_SUCCESS)
      return err;
   err = check_queue_images(q);
   if (err != CL_SUCCESS)
      return err;
   if (src == dst && sa.level == da.level && boxes_overlap(sa.o, da.o, region))
      return ICD_ERROR(CL_MEM_COPY_OVERLAP, "source and destination regions of one image "
                       "overlap");
   size_t so[3], sr[3], d0[3], dr[3];
   byte_rect(src->image, &sa, region, so, sr);
   byte_rect(dst->image, &da, region, d0, dr);
   return mem__enqueue_rect_copy(q, src, dst, CL_COMMAND_COPY_IMAGE, so, d0, sr,
                                 sa.lv.row_pitch, sa.lv.slice_pitch, da.lv.row_pitch,
                                 da.lv.slice_pitch,
                                 num_events_in_wait_list, event_wait_list, event);
}

static cl_int
check_buffer(struct _cl_command_queue *q, cl_mem handle, struct _cl_mem **out, const char *what)
{
   struct _cl_mem *mem = mem_mem_from_handle(handle);
   if (!mem || !mem_is_buffer(mem))
      return ICD_ERROR(CL_INVALID_MEM_OBJECT, "%s %p is not a buffer", what, (void *)handle);
   if (mem->context != disp_queue_context(q))
      return ICD_ERROR(CL_INVALID_CONTEXT, "%s belongs to another context than the queue", what);
   *out = mem;
   return CL_SUCCESS;
}

/* Image <-> buffer copies: the buffer side is tightly packed from `offset` (§5.3.4). */
static cl_int
enqueue_image_buffer(cl_command_queue command_queue, cl_mem image, cl_mem buffer,
                     bool to_buffer, const size_t *origin, const size_t *region,
                     size_t offset, cl_uint num_events, const cl_event *wait_list,
                     cl_event *event)
{
   QUEUE_OR_RETURN(q, command_queue);
   struct _cl_mem *img, *buf;
   cl_int err;
   if (to_buffer) {
      err = check_image(q, image, &img, "src_image");
      if (err == CL_SUCCESS)
         err = check_buffer(q, buffer, &buf, "dst_buffer");
   } else {
      err = check_buffer(q, buffer, &buf, "src_buffer");
      if (err == CL_SUCCESS)
         err = check_image(q, image, &img, "dst_image");
   }
   if (err != CL_SUCCESS)
      return err;
   struct at at;
   err = check_region(img, origin, region, to_buffer ? "src_image" : "dst_image", &at);
   if (err != CL_SUCCESS)
      return err;
   size_t row = region[0] * img->image->elem_size, slice = row * region[1], bytes;
   if (__builtin_mul_overflow(slice, region[2], &bytes) || offset > buf->size ||
       bytes > buf->size - offset)
      return ICD_ERROR(CL_INVALID_VALUE, "%zu bytes at offset %zu do not fit the %zu-byte "
                       "buffer", bytes, offset, buf->size);
   err = disp_validate_wait_list(disp_queue_context(q), num_events, wait_list);
   if (err != CL_SUCCESS)
      return err;
   err = check_queue_images(q);
   if (err != CL_SUCCESS)
      return err;
   if (img->parent && mem_root(img->parent) == mem_root(buf))
      return ICD_ERROR(CL_MEM_COPY_OVERLAP, "the image is made from the buffer's memory");
   size_t io[3], ir[3];
   byte_rect(img->image, &at, region, io, ir);
   const size_t bo[3] = { offset, 0, 0 };
   if (to_buffer)
      return mem__enqueue_rect_copy(q, img, buf, CL_COMMAND_COPY_IMAGE_TO_BUFFER, io, bo, ir,
                                    at.lv.row_pitch, at.lv.slice_pitch, row, slice,
                                    num_events, wait_list, event);
   return mem__enqueue_rect_copy(q, buf, img, CL_COMMAND_COPY_BUFFER_TO_IMAGE, bo, io, ir, row,
                                 slice, at.lv.row_pitch, at.lv.slice_pitch,
                                 num_events, wait_list, event);
}

cl_int CL_API_CALL
mem_EnqueueCopyImageToBuffer(cl_command_queue command_queue, cl_mem src_image,
                             cl_mem dst_buffer, const size_t *src_origin, const size_t *region,
                             size_t dst_offset, cl_uint num_events_in_wait_list,
                             const cl_event *event_wait_list, cl_event *event)
{
   return enqueue_image_buffer(command_queue, src_image, dst_buffer, true, src_origin, region,
                               dst_offset, num_events_in_wait_list, event_wait_list, event);
}

cl_int CL_API_CALL
mem_EnqueueCopyBufferToImage(cl_command_queue command_queue, cl_mem src_buffer,
                             cl_mem dst_image, size_t src_offset, const size_t *dst_origin,
                             const size_t *region, cl_uint num_events_in_wait_list,
                             const cl_event *event_wait_list, cl_event *event)
{
   return enqueue_image_buffer(command_queue, dst_image, src_buffer, false, dst_origin, region,
                               src_offset, num_events_in_wait_list, event_wait_list, event);
}

/* ---- fill --------------------------------------------------------------------------- */

static uint16_t
float_to_half(float f)
{
   /* Round to nearest even, with overflow to infinity and gradual underflow. */
   union { float f; uint32_t u; } v = { f };
   uint32_t sign = (v.u >> 16) & 0x8000u, abs = v.u & 0x7FFFFFFFu;
   if (abs > 0x7F800000u)
      return (uint16_t)(sign | 0x7E00u);
   if (abs >= 0x477FF000u) /* rounds to >= 65520: infinity */
      return (uint16_t)(sign | 0x7C00u);
   if (abs < 0x38800000u) { /* below the smallest normal half: denormal */
      float a;
      memcpy(&a, &abs, 4);
      return (uint16_t)(sign | (uint16_t)lrintf(a * 16777216.0f));
   }
   uint32_t m = abs + 0xFFFu + ((abs >> 13) & 1u) - 0x38000000u;
   return (uint16_t)(sign | (m >> 13));
}

static float
clampf(float v, float lo, float hi)
{
   return v != v ? 0.0f : v < lo ? lo : v > hi ? hi : v;
}

static float
linear_to_srgb(float c)
{
   c = clampf(c, 0.0f, 1.0f);
   return c <= 0.0031308f ? c * 12.92f : 1.055f * powf(c, 1.0f / 2.4f) - 0.055f;
}

/* One channel of the fill colour in the image's data type (§5.3.5: float colours are
 * converted like write_imagef, integer colours saturate like write_imagei/ui). */
static void
put_channel(unsigned char *dst, cl_channel_type t, const void *color, int c, bool srgb)
{
   const float *f = color;
   const int32_t *si = color;
   const uint32_t *ui = color;
   switch (t) {
   case CL_UNORM_INT8: {
      float v = srgb && c < 3 ? linear_to_srgb(f[c]) : f[c];
      *dst = (uint8_t)lrintf(clampf(v, 0.0f, 1.0f) * 255.0f);
      break;
   }
   case CL_SNORM_INT8:
      *(int8_t *)dst = (int8_t)lrintf(clampf(f[c], -1.0f, 1.0f) * 127.0f);
      break;
   case CL_UNORM_INT16: {
      uint16_t v = (uint16_t)lrintf(clampf(f[c], 0.0f, 1.0f) * 65535.0f);
      memcpy(dst, &v, 2);
      break;
   }
   case CL_SNORM_INT16: {
      int16_t v = (int16_t)lrintf(clampf(f[c], -1.0f, 1.0f) * 32767.0f);
      memcpy(dst, &v, 2);
      break;
   }
   case CL_HALF_FLOAT: {
      uint16_t v = float_to_half(f[c]);
      memcpy(dst, &v, 2);
      break;
   }
   case CL_FLOAT:
      memcpy(dst, &f[c], 4);
      break;
   case CL_SIGNED_INT8:
      *(int8_t *)dst = (int8_t)(si[c] < -128 ? -128 : si[c] > 127 ? 127 : si[c]);
      break;
   case CL_SIGNED_INT16: {
      int16_t v = (int16_t)(si[c] < -32768 ? -32768 : si[c] > 32767 ? 32767 : si[c]);
      memcpy(dst, &v, 2);
      break;
   }
   case CL_SIGNED_INT32:
      memcpy(dst, &si[c], 4);
      break;
   case CL_UNSIGNED_INT8:
      *dst = (uint8_t)(ui[c] > 255 ? 255 : ui[c]);
      break;
   case CL_UNSIGNED_INT16: {
      uint16_t v = (uint16_t)(ui[c] > 65535 ? 65535 : ui[c]);
      memcpy(dst, &v, 2);
      break;
   }
   case CL_UNSIGNED_INT32:
      memcpy(dst, &ui[c], 4);
      break;
   default:
      break;
   }
}

/* The fill colour {r, g, b, a} as one texel of `im`'s format, channels in memory order. */
static void
pack_texel(const struct mem_image *im, const void *color, unsigned char *texel)
{
   static const int r[] = { 0 }, a[] = { 3 }, rg[] = { 0, 1 }, ra[] = { 0, 3 },
                    rgba[] = { 0, 1, 2, 3 }, bgra[] = { 2, 1, 0, 3 }, argb[] = { 3, 0, 1, 2 },
                    abgr[] = { 3, 2, 1, 0 };
   const float *fc = color;
   cl_channel_type ct = im->format.image_channel_data_type;
   if (ct == CL_UNORM_SHORT_565 || ct == CL_UNORM_SHORT_555 || ct == CL_UNORM_INT_101010) {
      /* §5.3.1.1: 565 is R 15:11, G 10:5, B 4:0; 555 R 14:10, G 9:5, B 4:0; 101010
       * R 29:20, G 19:10, B 9:0 (the other bits unused, written 0). */
      unsigned rb = ct == CL_UNORM_INT_101010 ? 10 : 5, gb = ct == CL_UNORM_SHORT_565 ? 6 : rb;
      uint32_t r = (uint32_t)lrintf(clampf(fc[0], 0.0f, 1.0f) * (float)((1u << rb) - 1));
      uint32_t g = (uint32_t)lrintf(clampf(fc[1], 0.0f, 1.0f) * (float)((1u << gb) - 1));
      uint32_t b = (uint32_t)lrintf(clampf(fc[2], 0.0f, 1.0f) * (float)((1u << rb) - 1));
      uint32_t v = (r << (gb + rb)) | (g << rb) | b;
      memcpy(texel, &v, im->elem_size); /* little endian: the low 2 or 4 bytes */
      return;
   }
   const int *order;
   int n;
   bool srgb = false;
   switch (im->format.image_channel_order) {
   case CL_A: order = a, n = 1; break;
   case CL_RG: order = rg, n = 2; break;
   case CL_RA: order = ra, n = 2; break;
   case CL_sRGBA: srgb = true; /* fall through */
   case CL_RGBA: order = rgba, n = 4; break;
   case CL_sBGRA: srgb = true; /* fall through */
   case CL_BGRA: order = bgra, n = 4; break;
   case CL_ARGB: order = argb, n = 4; break;
   case CL_ABGR: order = abgr, n = 4; break;
   default: order = r, n = 1; break; /* R, INTENSITY, LUMINANCE */
   }
   size_t bytes = im->elem_size / (size_t)n;
   for (int i = 0; i < n; i++)
      put_channel(texel + (size_t)i * bytes, im->format.image_channel_data_type, color,
                  order[i], srgb);
}

cl_int CL_API_CALL
mem_EnqueueFillImage(cl_command_queue command_queue, cl_mem image, const void *fill_color,
                     const size_t *origin, const size_t *region,
                     cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                     cl_event *event)
{
   QUEUE_OR_RETURN(q, command_queue);
   struct _cl_mem *mem;
   cl_int err = check_image(q, image, &mem, "image");
   if (err != CL_SUCCESS)
      return err;
   if (!fill_color)
      return ICD_ERROR(CL_INVALID_VALUE, "fill_color is NULL");
   struct at at;
   err = check_region(mem, origin, region, "image", &at);
   if (err != CL_SUCCESS)
      return err;
   err = disp_validate_wait_list(disp_queue_context(q), num_events_in_wait_list, event_wait_list);
   if (err != CL_SUCCESS)
      return err;
   err = check_queue_images(q);
   if (err != CL_SUCCESS)
      return err;
   const struct mem_image *im = mem->image;
   unsigned char texel[16] = { 0 };
   pack_texel(im, fill_color, texel);
   size_t row = region[0] * im->elem_size, bytes = row * region[1] * region[2];
   unsigned char *data = icd_malloc(bytes);
   if (!data)
      return ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "allocating %zu bytes of fill texels", bytes);
   for (size_t off = 0; off < bytes; off += im->elem_size)
      memcpy(data + off, texel, im->elem_size);
   size_t bo[3], br[3];
   byte_rect(im, &at, region, bo, br);
   const size_t zero[3] = { 0, 0, 0 };
   return mem__enqueue_rect_rw(q, mem, CL_COMMAND_FILL_IMAGE, false, false, bo, zero, br,
                               at.lv.row_pitch, at.lv.slice_pitch, row, row * region[1], data,
                               true,
                               num_events_in_wait_list, event_wait_list, event);
}

/* ---- map ---------------------------------------------------------------------------- */

void *CL_API_CALL
mem_EnqueueMapImage(cl_command_queue command_queue, cl_mem image, cl_bool blocking_map,
                    cl_map_flags map_flags, const size_t *origin, const size_t *region,
                    size_t *image_row_pitch, size_t *image_slice_pitch,
                    cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                    cl_event *event, cl_int *errcode_ret)
{
   cl_int err;
   void *result = NULL;
   struct _cl_mem *mem = NULL;
   struct _cl_command_queue *q = disp_queue_from_handle(command_queue);
   if (!q) {
      err = ICD_ERROR(CL_INVALID_COMMAND_QUEUE, "command_queue %p is not an hsacl queue",
                      (void *)command_queue);
      goto out;
   }
   err = check_image(q, image, &mem, "image");
   if (err != CL_SUCCESS)
      goto out;
   struct at at;
   err = check_region(mem, origin, region, "image", &at);
   if (err != CL_SUCCESS)
      goto out;
   const struct mem_image *im = mem->image;
   cl_mem_object_type t = im->desc.image_type;
   bool slices = t == CL_MEM_OBJECT_IMAGE3D || t == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                 t == CL_MEM_OBJECT_IMAGE1D_ARRAY;
   if (!image_row_pitch || (slices && !image_slice_pitch)) {
      err = ICD_ERROR(CL_INVALID_VALUE, "image_row_pitch is NULL, or image_slice_pitch is "
                      "NULL for an image with slices");
      goto out;
   }
   const cl_map_flags known = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
   if ((map_flags & ~known) || ((map_flags & CL_MAP_WRITE_INVALIDATE_REGION) &&
                                (map_flags & (CL_MAP_READ | CL_MAP_WRITE)))) {
      err = ICD_ERROR(CL_INVALID_VALUE, "invalid map_flags 0x%llx",
                      (unsigned long long)map_flags);
      goto out;
   }
   err = disp_validate_wait_list(disp_queue_context(q), num_events_in_wait_list, event_wait_list);
   if (err != CL_SUCCESS)
      goto out;
   err = check_queue_images(q);
   if (err != CL_SUCCESS)
      goto out;
   if ((map_flags & CL_MAP_READ) && (err = mem__check_host_read(mem)) != CL_SUCCESS)
      goto out;
   if ((map_flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) &&
       (err = mem__check_host_write(mem)) != CL_SUCCESS)
      goto out;
   if ((mem->flags & CL_MEM_USE_HOST_PTR) && !mem_is_buffer(mem_root(mem))) {
      /* §5.3.6: a CL_MEM_USE_HOST_PTR image maps at host_ptr with the pitches it was created
       * with. The region is read from the device copy into host_ptr; unmap writes it back.
       * A view of such an image has its host_ptr and pitches (an image of a buffer maps the
       * buffer's memory like a buffer, below). */
      struct mem_map *map = icd_calloc(1, sizeof(*map));
      if (!map) {
         err = ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "allocating a mapping");
         goto out;
      }
      byte_rect(im, &at, region, map->rect_origin, map->rect_region); /* level 0 */
      map->rect = true;
      map->flags = map_flags;
      map->host_ptr = (char *)mem->host_ptr + map->rect_origin[0] +
                      map->rect_origin[1] * im->host_row_pitch +
                      map->rect_origin[2] * im->host_slice_pitch;
      mem__map_add(mem, map);
      err = mem__enqueue_rect_rw(q, mem, CL_COMMAND_MAP_IMAGE, true, blocking_map,
                                 map->rect_origin, map->rect_origin, map->rect_region,
                                 im->row_pitch, im->slice_pitch, im->host_row_pitch,
                                 im->host_slice_pitch, mem->host_ptr, false,
                                 num_events_in_wait_list, event_wait_list, event);
      if (err != CL_SUCCESS) {
         mem__map_drop(mem, map); /* no staging: the application's memory */
         goto out;
      }
      result = map->host_ptr;
      size_t hrow = t == CL_MEM_OBJECT_IMAGE1D_ARRAY
                       ? (im->desc.image_row_pitch ? im->desc.image_row_pitch
                                                   : im->desc.image_width * im->elem_size)
                       : im->host_row_pitch;
      *image_row_pitch = hrow;
      if (image_slice_pitch)
         *image_slice_pitch = t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? im->host_row_pitch
                              : slices                         ? im->host_slice_pitch
                                                               : 0;
      goto out;
   }
   /* The bytes from the region's first texel to its last, with the image's own pitches. */
   const struct mem_level *lv = &at.lv;
   const size_t *o = at.o;
   size_t first = lv->offset + o[0] * im->elem_size + o[1] * lv->row_pitch +
                  o[2] * lv->slice_pitch;
   size_t end = lv->offset + (o[0] + region[0]) * im->elem_size +
                (o[1] + region[1] - 1) * lv->row_pitch + (o[2] + region[2] - 1) * lv->slice_pitch;
   err = mem__enqueue_map(q, mem, CL_COMMAND_MAP_IMAGE, blocking_map, map_flags, first,
                          end - first, num_events_in_wait_list, event_wait_list, event,
                          &result);
   if (err == CL_SUCCESS) {
      /* The level's own row pitch (gfx10 chains give each level one); a 1D array's level
       * rows are its layers (lv->row_pitch), its row pitch stays level 0's. */
      *image_row_pitch = t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? im->row_pitch : lv->row_pitch;
      if (image_slice_pitch)
         *image_slice_pitch = t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? lv->row_pitch
                              : slices                         ? lv->slice_pitch
                                                               : 0;
   }
out:
   icd_set_errcode(errcode_ret, err);
   return err == CL_SUCCESS ? result : NULL;
}
