/*
 * tests/memory/api_image_objects_test.c — image objects and image commands end to end through the ICD
 * loader (OpenCL 3.0 API §5.3): clGetSupportedImageFormats (the minimum list), every
 * creation error of §5.3.1 in order, clGetImageInfo / clGetMemObjectInfo, and exact round
 * trips — write with a padded host pitch, read back with another — for every supported
 * format of every image type, plus copies (image/image, image/buffer), fills and maps.
 *
 * Image support is the runtime's: under ROCr (HSACL_RUNTIME=rocr, whose image extension
 * exists) the device must report it; on the software runtime the device reports it exactly
 * when sim/ provides the extension, and otherwise this test checks the no-image answers
 * (tests/memory/api_image_test.c has the rest of those).
 */
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>

#include "hsacl_test.h"

#include <stdbool.h>
#include <stdint.h>

static cl_context ctx;
static cl_command_queue q;

static size_t
elem_size(const cl_image_format *f)
{
   size_t ch;
   switch (f->image_channel_order) {
   case CL_RG: case CL_RA: ch = 2; break;
   case CL_RGBA: case CL_BGRA: case CL_ARGB: case CL_ABGR: case CL_sRGBA: case CL_sBGRA:
      ch = 4; break;
   default: ch = 1; break;
   }
   switch (f->image_channel_data_type) {
   case CL_UNORM_SHORT_565: case CL_UNORM_SHORT_555:
      return 2;
   case CL_UNORM_INT_101010:
      return 4;
   case CL_SNORM_INT16: case CL_UNORM_INT16: case CL_SIGNED_INT16: case CL_UNSIGNED_INT16:
   case CL_HALF_FLOAT:
      return ch * 2;
   case CL_SIGNED_INT32: case CL_UNSIGNED_INT32: case CL_FLOAT:
      return ch * 4;
   default:
      return ch;
   }
}

static bool
listed(const cl_image_format *list, cl_uint n, cl_channel_order o, cl_channel_type t)
{
   for (cl_uint i = 0; i < n; i++)
      if (list[i].image_channel_order == o && list[i].image_channel_data_type == t)
         return true;
   return false;
}

static cl_image_desc
desc_of(cl_mem_object_type t, size_t w, size_t h, size_t d, cl_mem buffer)
{
   cl_image_desc desc = { .image_type = t, .image_width = w };
   switch (t) {
   case CL_MEM_OBJECT_IMAGE1D_ARRAY: desc.image_array_size = h; break;
   case CL_MEM_OBJECT_IMAGE2D: desc.image_height = h; break;
   case CL_MEM_OBJECT_IMAGE2D_ARRAY: desc.image_height = h, desc.image_array_size = d; break;
   case CL_MEM_OBJECT_IMAGE3D: desc.image_height = h, desc.image_depth = d; break;
   default: break;
   }
   desc.buffer = buffer;
   return desc;
}

/* Fills n bytes with a pattern that depends on `seed` and the position. */
static void
pattern(unsigned char *p, size_t n, unsigned seed)
{
   uint32_t x = seed * 2654435761u + 1;
   for (size_t i = 0; i < n; i++) {
      x ^= x << 13, x ^= x >> 17, x ^= x << 5;
      p[i] = (unsigned char)x;
   }
}

/*
 * Writes a region with a padded host row pitch (and slice pitch), reads the whole image
 * back tightly packed, and checks every byte: the written region holds the data, the rest
 * the initial contents (COPY_HOST_PTR).
 */
static void
round_trip(cl_mem_object_type t, const cl_image_format *f)
{
   const size_t w = 19, h = t == CL_MEM_OBJECT_IMAGE1D || t == CL_MEM_OBJECT_IMAGE1D_BUFFER ? 1 : 7;
   const size_t d = t == CL_MEM_OBJECT_IMAGE3D || t == CL_MEM_OBJECT_IMAGE2D_ARRAY ? 5 : 1;
   size_t es = elem_size(f), row = w * es, total = row * h * d;
   cl_int err;
   unsigned char *init = malloc(total), *data = malloc(total * 4), *back = malloc(total);
   pattern(init, total, 1);
   cl_mem buffer = NULL;
   cl_mem img;
   if (t == CL_MEM_OBJECT_IMAGE1D_BUFFER) {
      buffer = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, total, init, &err);
      CHECK_EQ_INT(err, CL_SUCCESS);
      cl_image_desc desc = desc_of(t, w, h, d, buffer);
      img = clCreateImage(ctx, CL_MEM_READ_WRITE, f, &desc, NULL, &err);
   } else {
      cl_image_desc desc = desc_of(t, w, h, d, NULL);
      img = clCreateImage(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, f, &desc, init, &err);
   }
   CHECK_EQ_INT(err, CL_SUCCESS);
   if (!img) {
      fprintf(stderr, "  type 0x%x format 0x%x/0x%x\n", t, f->image_channel_order,
              f->image_channel_data_type);
      goto out;
   }
   /* The initial contents read back exactly. */
   size_t origin[3] = { 0, 0, 0 }, full[3] = { w, h, d };
   memset(back, 0xAB, total);
   CHECK_EQ_INT(clEnqueueReadImage(q, img, CL_TRUE, origin, full, 0, 0, back, 0, NULL, NULL),
                CL_SUCCESS);
   CHECK(memcmp(back, init, total) == 0);

   /* A sub-region written with padded pitches. */
   size_t ro[3] = { 3, h > 1 ? 2 : 0, d > 1 ? 1 : 0 };
   size_t rr[3] = { w - 5, h > 1 ? h - 3 : 1, d > 1 ? d - 2 : 1 };
   size_t hrow = rr[0] * es + 3 * es, hslice = hrow * rr[1] + 5 * hrow;
   bool slices = t == CL_MEM_OBJECT_IMAGE3D || t == CL_MEM_OBJECT_IMAGE2D_ARRAY;
   bool arr1 = t == CL_MEM_OBJECT_IMAGE1D_ARRAY;
   pattern(data, total * 4, 2);
   CHECK_EQ_INT(clEnqueueWriteImage(q, img, CL_TRUE, ro, rr, arr1 ? 0 : hrow,
                                    slices ? hslice : arr1 ? hrow : 0, data, 0, NULL, NULL),
                CL_SUCCESS);
   memset(back, 0, total);
   CHECK_EQ_INT(clEnqueueReadImage(q, img, CL_FALSE, origin, full, row, slices ? row * h : 0,
                                   back, 0, NULL, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
   size_t bad = 0;
   for (size_t z = 0; z < d; z++)
      for (size_t y = 0; y < h; y++)
         for (size_t x = 0; x < w; x++) {
            const unsigned char *got = back + (z * h + y) * row + x * es;
            const unsigned char *want = init + (z * h + y) * row + x * es;
            bool in = x >= ro[0] && x < ro[0] + rr[0] && y >= ro[1] && y < ro[1] + rr[1] &&
                      z >= ro[2] && z < ro[2] + rr[2];
            if (in) {
               size_t hy = y - ro[1], hz = z - ro[2];
               /* 1D array: layers are the rows, at the layer (slice) pitch. */
               want = data + (x - ro[0]) * es + hy * hrow + hz * hslice;
            }
            bad += memcmp(got, want, es) != 0;
         }
   CHECK_EQ_INT(bad, 0);
   if (bad)
      fprintf(stderr, "  type 0x%x format 0x%x/0x%x: %zu texels differ\n", t,
              f->image_channel_order, f->image_channel_data_type, bad);
   clReleaseMemObject(img);
out:
   if (buffer)
      clReleaseMemObject(buffer);
   free(init);
   free(data);
   free(back);
}

static void
test_formats(void)
{
   const cl_mem_object_type types[] = { CL_MEM_OBJECT_IMAGE1D, CL_MEM_OBJECT_IMAGE1D_BUFFER,
                                        CL_MEM_OBJECT_IMAGE1D_ARRAY, CL_MEM_OBJECT_IMAGE2D,
                                        CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_MEM_OBJECT_IMAGE3D };
   for (size_t ti = 0; ti < sizeof types / sizeof *types; ti++) {
      cl_uint n = 0;
      CHECK_EQ_INT(clGetSupportedImageFormats(ctx, CL_MEM_READ_WRITE, types[ti], 0, NULL, &n),
                   CL_SUCCESS);
      cl_image_format *list = calloc(n ? n : 1, sizeof(*list));
      cl_uint n2 = 0;
      CHECK_EQ_INT(clGetSupportedImageFormats(ctx, CL_MEM_READ_WRITE, types[ti], n, list, &n2),
                   CL_SUCCESS);
      CHECK_EQ_INT(n2, n);
      /* OpenCL 3.0 API, "Minimum list of supported image formats", read or write. */
      static const cl_channel_type rgba_types[] = {
         CL_UNORM_INT8,   CL_UNORM_INT16,   CL_SNORM_INT8,    CL_SNORM_INT16,
         CL_SIGNED_INT8,  CL_SIGNED_INT16,  CL_SIGNED_INT32,  CL_UNSIGNED_INT8,
         CL_UNSIGNED_INT16, CL_UNSIGNED_INT32, CL_HALF_FLOAT, CL_FLOAT,
      };
      for (size_t k = 0; k < sizeof rgba_types / sizeof *rgba_types; k++) {
         CHECK(listed(list, n, CL_RGBA, rgba_types[k]));
         if (!listed(list, n, CL_RGBA, rgba_types[k]))
            fprintf(stderr, "  type 0x%x lacks RGBA/0x%x\n", types[ti], rgba_types[k]);
      }
      CHECK(listed(list, n, CL_BGRA, CL_UNORM_INT8));
      if (types[ti] != CL_MEM_OBJECT_IMAGE1D_BUFFER) {
         CHECK(listed(list, n, CL_RGB, CL_UNORM_SHORT_565));
         CHECK(listed(list, n, CL_RGB, CL_UNORM_INT_101010));
      }
      /* sRGB only for reading (cl_khr_srgb_image_writes is not reported). */
      CHECK(!listed(list, n, CL_sRGBA, CL_UNORM_INT8));
      cl_uint nro = 0;
      CHECK_EQ_INT(clGetSupportedImageFormats(ctx, CL_MEM_READ_ONLY, types[ti], 0, NULL, &nro),
                   CL_SUCCESS);
      CHECK(nro >= n);
      /* Every listed format round-trips exactly. */
      for (cl_uint i = 0; i < n; i++)
         round_trip(types[ti], &list[i]);
      free(list);
   }
}

static void
test_create_errors(cl_mem buf)
{
   cl_int err;
   cl_image_format rgba = { CL_RGBA, CL_UNORM_INT8 };
   cl_image_desc d2 = desc_of(CL_MEM_OBJECT_IMAGE2D, 16, 16, 1, NULL);
   unsigned char host[16 * 16 * 4 * 2];
#define EXPECT_FAIL(call, code)                                                              \
   do {                                                                                     \
      err = 0;                                                                              \
      cl_mem m_ = (call);                                                                   \
      CHECK(m_ == NULL);                                                                    \
      CHECK_EQ_INT(err, code);                                                              \
      if (m_)                                                                               \
         clReleaseMemObject(m_);                                                            \
   } while (0)
   EXPECT_FAIL(clCreateImage(NULL, 0, &rgba, &d2, NULL, &err), CL_INVALID_CONTEXT);
   cl_mem_properties bad_props[] = { 0x1234, 0, 0 };
   EXPECT_FAIL(clCreateImageWithProperties(ctx, bad_props, 0, &rgba, &d2, NULL, &err),
               CL_INVALID_PROPERTY);
   EXPECT_FAIL(clCreateImage(ctx, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, &rgba, &d2, NULL, &err),
               CL_INVALID_VALUE);
   EXPECT_FAIL(clCreateImage(ctx, (cl_mem_flags)1 << 40, &rgba, &d2, NULL, &err),
               CL_INVALID_VALUE);
   EXPECT_FAIL(clCreateImage(ctx, 0, NULL, &d2, NULL, &err), CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
   cl_image_format bgra_f = { CL_BGRA, CL_FLOAT }, bad_order = { 0x7777, CL_UNORM_INT8 };
   cl_image_format rgb8 = { CL_RGB, CL_UNORM_INT8 };
   EXPECT_FAIL(clCreateImage(ctx, 0, &bgra_f, &d2, NULL, &err), CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
   EXPECT_FAIL(clCreateImage(ctx, 0, &bad_order, &d2, NULL, &err),
               CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
   EXPECT_FAIL(clCreateImage(ctx, 0, &rgb8, &d2, NULL, &err), CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
   /* The format is checked before the descriptor. */
   EXPECT_FAIL(clCreateImage(ctx, 0, NULL, NULL, NULL, &err), CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
   EXPECT_FAIL(clCreateImage(ctx, 0, &rgba, NULL, NULL, &err), CL_INVALID_IMAGE_DESCRIPTOR);
   cl_image_desc bad = d2;
   bad.image_type = CL_MEM_OBJECT_BUFFER;
   EXPECT_FAIL(clCreateImage(ctx, 0, &rgba, &bad, NULL, &err), CL_INVALID_IMAGE_DESCRIPTOR);
   bad = d2, bad.image_width = 0;
   EXPECT_FAIL(clCreateImage(ctx, 0, &rgba, &bad, NULL, &err), CL_INVALID_IMAGE_DESCRIPTOR);
   bad = d2, bad.image_height = 0;
   EXPECT_FAIL(clCreateImage(ctx, 0, &rgba, &bad, NULL, &err), CL_INVALID_IMAGE_DESCRIPTOR);
   bad = d2, bad.num_mip_levels = 40; /* more than a full chain (cl_khr_mipmap_image) */
   EXPECT_FAIL(clCreateImage(ctx, 0, &rgba, &bad, NULL, &err), CL_INVALID_IMAGE_DESCRIPTOR);
   bad = d2, bad.image_row_pitch = 16 * 4;
   EXPECT_FAIL(clCreateImage(ctx, 0, &rgba, &bad, NULL, &err), CL_INVALID_IMAGE_DESCRIPTOR);
   bad = d2, bad.image_row_pitch = 16 * 4 - 4;
   EXPECT_FAIL(clCreateImage(ctx, CL_MEM_COPY_HOST_PTR, &rgba, &bad, host, &err),
               CL_INVALID_IMAGE_DESCRIPTOR);
   bad = d2, bad.image_row_pitch = 16 * 4 + 2; /* not a multiple of the element */
   EXPECT_FAIL(clCreateImage(ctx, CL_MEM_COPY_HOST_PTR, &rgba, &bad, host, &err),
               CL_INVALID_IMAGE_DESCRIPTOR);
   cl_image_desc d1b = desc_of(CL_MEM_OBJECT_IMAGE1D_BUFFER, 16, 1, 1, NULL);
   EXPECT_FAIL(clCreateImage(ctx, 0, &rgba, &d1b, NULL, &err), CL_INVALID_IMAGE_DESCRIPTOR);
   d1b.buffer = buf, d1b.image_width = 1 << 20; /* larger than the 4096-byte buffer */
   EXPECT_FAIL(clCreateImage(ctx, 0, &rgba, &d1b, NULL, &err), CL_INVALID_IMAGE_DESCRIPTOR);
   cl_image_desc d3 = desc_of(CL_MEM_OBJECT_IMAGE3D, 4, 4, 4, buf);
   EXPECT_FAIL(clCreateImage(ctx, 0, &rgba, &d3, NULL, &err), CL_INVALID_IMAGE_DESCRIPTOR);
   bad = d2, bad.image_width = 16385;
   EXPECT_FAIL(clCreateImage(ctx, 0, &rgba, &bad, NULL, &err), CL_INVALID_IMAGE_SIZE);
   d3 = desc_of(CL_MEM_OBJECT_IMAGE3D, 4, 4, 2049, NULL);
   EXPECT_FAIL(clCreateImage(ctx, 0, &rgba, &d3, NULL, &err), CL_INVALID_IMAGE_SIZE);
   cl_image_desc d2a = desc_of(CL_MEM_OBJECT_IMAGE2D_ARRAY, 4, 4, 2049, NULL);
   EXPECT_FAIL(clCreateImage(ctx, 0, &rgba, &d2a, NULL, &err), CL_INVALID_IMAGE_SIZE);
   EXPECT_FAIL(clCreateImage(ctx, CL_MEM_COPY_HOST_PTR, &rgba, &d2, NULL, &err),
               CL_INVALID_HOST_PTR);
   EXPECT_FAIL(clCreateImage(ctx, CL_MEM_USE_HOST_PTR, &rgba, &d2, NULL, &err),
               CL_INVALID_HOST_PTR);
   EXPECT_FAIL(clCreateImage(ctx, 0, &rgba, &d2, host, &err), CL_INVALID_HOST_PTR);
   /* Valid OpenCL formats the device does not offer. */
   cl_image_format fabgr16 = { CL_ABGR, CL_UNORM_INT8 }, rx = { CL_Rx, CL_FLOAT };
   EXPECT_FAIL(clCreateImage(ctx, 0, &rx, &d2, NULL, &err), CL_IMAGE_FORMAT_NOT_SUPPORTED);
   (void)fabgr16;
   cl_image_format srgb = { CL_sRGBA, CL_UNORM_INT8 };
   EXPECT_FAIL(clCreateImage(ctx, CL_MEM_WRITE_ONLY, &srgb, &d2, NULL, &err),
               CL_IMAGE_FORMAT_NOT_SUPPORTED);
   /* An image of a buffer may not widen its flags. */
   cl_mem ro = clCreateBuffer(ctx, CL_MEM_READ_ONLY, 4096, NULL, &err);
   d1b = desc_of(CL_MEM_OBJECT_IMAGE1D_BUFFER, 16, 1, 1, ro);
   EXPECT_FAIL(clCreateImage(ctx, CL_MEM_READ_WRITE, &rgba, &d1b, NULL, &err), CL_INVALID_VALUE);
   EXPECT_FAIL(clCreateImage(ctx, CL_MEM_COPY_HOST_PTR, &rgba, &d1b, host, &err),
               CL_INVALID_VALUE);
   cl_mem ok = clCreateImage(ctx, 0, &rgba, &d1b, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_mem_flags flags = 0;
   CHECK_EQ_INT(clGetMemObjectInfo(ok, CL_MEM_FLAGS, sizeof flags, &flags, NULL), CL_SUCCESS);
   CHECK(flags & CL_MEM_READ_ONLY); /* inherited */
   clReleaseMemObject(ok);
   clReleaseMemObject(ro);
#undef EXPECT_FAIL
}

static void
test_info(cl_mem buf)
{
   cl_int err;
   cl_image_format f = { CL_RG, CL_HALF_FLOAT };
   cl_image_desc d = desc_of(CL_MEM_OBJECT_IMAGE2D_ARRAY, 33, 9, 3, NULL);
   cl_mem img = clCreateImageWithProperties(ctx, (cl_mem_properties[]){ 0 }, CL_MEM_READ_ONLY,
                                            &f, &d, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_image_format got;
   size_t v = 0;
   CHECK_EQ_INT(clGetImageInfo(img, CL_IMAGE_FORMAT, sizeof got, &got, NULL), CL_SUCCESS);
   CHECK(got.image_channel_order == CL_RG && got.image_channel_data_type == CL_HALF_FLOAT);
   CHECK_EQ_INT(clGetImageInfo(img, CL_IMAGE_ELEMENT_SIZE, sizeof v, &v, NULL), CL_SUCCESS);
   CHECK_EQ_INT(v, 4);
   CHECK_EQ_INT(clGetImageInfo(img, CL_IMAGE_WIDTH, sizeof v, &v, NULL), CL_SUCCESS);
   CHECK_EQ_INT(v, 33);
   CHECK_EQ_INT(clGetImageInfo(img, CL_IMAGE_HEIGHT, sizeof v, &v, NULL), CL_SUCCESS);
   CHECK_EQ_INT(v, 9);
   CHECK_EQ_INT(clGetImageInfo(img, CL_IMAGE_DEPTH, sizeof v, &v, NULL), CL_SUCCESS);
   CHECK_EQ_INT(v, 0);
   CHECK_EQ_INT(clGetImageInfo(img, CL_IMAGE_ARRAY_SIZE, sizeof v, &v, NULL), CL_SUCCESS);
   CHECK_EQ_INT(v, 3);
   size_t row = 0, slice = 0;
   CHECK_EQ_INT(clGetImageInfo(img, CL_IMAGE_ROW_PITCH, sizeof row, &row, NULL), CL_SUCCESS);
   CHECK(row >= 33 * 4);
   CHECK_EQ_INT(clGetImageInfo(img, CL_IMAGE_SLICE_PITCH, sizeof slice, &slice, NULL),
                CL_SUCCESS);
   CHECK(slice >= row * 9);
   cl_uint u = 7;
   CHECK_EQ_INT(clGetImageInfo(img, CL_IMAGE_NUM_MIP_LEVELS, sizeof u, &u, NULL), CL_SUCCESS);
   CHECK_EQ_INT(u, 0);
   CHECK_EQ_INT(clGetImageInfo(img, CL_IMAGE_ROW_PITCH, 1, &v, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(clGetImageInfo(img, 0x7777, sizeof v, &v, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(clGetImageInfo(buf, CL_IMAGE_WIDTH, sizeof v, &v, NULL), CL_INVALID_MEM_OBJECT);
   cl_mem_object_type mt = 0;
   CHECK_EQ_INT(clGetMemObjectInfo(img, CL_MEM_TYPE, sizeof mt, &mt, NULL), CL_SUCCESS);
   CHECK_EQ_INT(mt, CL_MEM_OBJECT_IMAGE2D_ARRAY);
   CHECK_EQ_INT(clGetMemObjectInfo(img, CL_MEM_SIZE, sizeof v, &v, NULL), CL_SUCCESS);
   CHECK(v >= slice * 3);
   size_t psize = 99;
   CHECK_EQ_INT(clGetMemObjectInfo(img, CL_MEM_PROPERTIES, 0, NULL, &psize), CL_SUCCESS);
   CHECK_EQ_INT(psize, sizeof(cl_mem_properties));
   /* Images are not buffers. */
   char b[8];
   CHECK_EQ_INT(clEnqueueReadBuffer(q, img, CL_TRUE, 0, 8, b, 0, NULL, NULL),
                CL_INVALID_MEM_OBJECT);
   cl_buffer_region r = { 0, 64 };
   CHECK(clCreateSubBuffer(img, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_MEM_OBJECT);
   clReleaseMemObject(img);

   /* A 1D buffer image: its buffer is the associated object; writes land in the buffer. */
   cl_image_format rgba = { CL_RGBA, CL_UNSIGNED_INT8 };
   cl_image_desc d1b = desc_of(CL_MEM_OBJECT_IMAGE1D_BUFFER, 64, 1, 1, buf);
   img = clCreateImage(ctx, 0, &rgba, &d1b, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_mem assoc = NULL;
   CHECK_EQ_INT(clGetMemObjectInfo(img, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, NULL),
                CL_SUCCESS);
   CHECK(assoc == buf);
   CHECK_EQ_INT(clGetImageInfo(img, CL_IMAGE_BUFFER, sizeof assoc, &assoc, NULL), CL_SUCCESS);
   CHECK(assoc == buf);
   size_t origin[3] = { 4, 0, 0 }, region[3] = { 2, 1, 1 };
   const unsigned char px[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
   CHECK_EQ_INT(clEnqueueWriteImage(q, img, CL_TRUE, origin, region, 0, 0, px, 0, NULL, NULL),
                CL_SUCCESS);
   unsigned char back[8] = { 0 };
   CHECK_EQ_INT(clEnqueueReadBuffer(q, buf, CL_TRUE, 16, 8, back, 0, NULL, NULL), CL_SUCCESS);
   CHECK(memcmp(back, px, 8) == 0);
   clReleaseMemObject(img);
}

static void
test_commands(cl_mem buf)
{
   cl_int err;
   cl_image_format f = { CL_RGBA, CL_UNORM_INT8 };
   cl_image_desc d = desc_of(CL_MEM_OBJECT_IMAGE2D, 37, 11, 1, NULL);
   cl_mem a = clCreateImage(ctx, CL_MEM_READ_WRITE, &f, &d, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_mem b = clCreateImage(ctx, CL_MEM_READ_WRITE, &f, &d, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   uint32_t src[37 * 11], back[37 * 11];
   pattern((unsigned char *)src, sizeof src, 7);
   size_t o0[3] = { 0, 0, 0 }, full[3] = { 37, 11, 1 };
   CHECK_EQ_INT(clEnqueueWriteImage(q, a, CL_FALSE, o0, full, 0, 0, src, 0, NULL, NULL),
                CL_SUCCESS);

   /* Image to image, at an offset. */
   size_t so[3] = { 5, 2, 0 }, dst[3] = { 1, 3, 0 }, reg[3] = { 20, 6, 1 };
   CHECK_EQ_INT(clEnqueueFillImage(q, b, (float[]){ 0, 0, 0, 0 }, o0, full, 0, NULL, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueCopyImage(q, a, b, so, dst, reg, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueReadImage(q, b, CL_TRUE, o0, full, 0, 0, back, 0, NULL, NULL),
                CL_SUCCESS);
   size_t bad = 0;
   for (size_t y = 0; y < 11; y++)
      for (size_t x = 0; x < 37; x++) {
         bool in = x >= 1 && x < 21 && y >= 3 && y < 9;
         uint32_t want = in ? src[(y - 3 + 2) * 37 + x - 1 + 5] : 0;
         bad += back[y * 37 + x] != want;
      }
   CHECK_EQ_INT(bad, 0);

   /* Image to buffer and back to another place. */
   CHECK_EQ_INT(clEnqueueCopyImageToBuffer(q, a, buf, so, reg, 64, 0, NULL, NULL), CL_SUCCESS);
   uint32_t packed[20 * 6];
   CHECK_EQ_INT(clEnqueueReadBuffer(q, buf, CL_TRUE, 64, sizeof packed, packed, 0, NULL, NULL),
                CL_SUCCESS);
   bad = 0;
   for (size_t y = 0; y < 6; y++)
      for (size_t x = 0; x < 20; x++)
         bad += packed[y * 20 + x] != src[(y + 2) * 37 + x + 5];
   CHECK_EQ_INT(bad, 0);
   CHECK_EQ_INT(clEnqueueCopyBufferToImage(q, buf, b, 64, o0, reg, 0, NULL, NULL), CL_SUCCESS);
   uint32_t part[20 * 6];
   CHECK_EQ_INT(clEnqueueReadImage(q, b, CL_TRUE, o0, reg, 0, 0, part, 0, NULL, NULL),
                CL_SUCCESS);
   CHECK(memcmp(part, packed, sizeof part) == 0);

   /* Fill converts the colour: UNORM8 rounds to nearest. */
   float color[4] = { 1.0f, 0.5f, 0.25f, 0.0f };
   size_t fo[3] = { 30, 9, 0 }, fr[3] = { 7, 2, 1 };
   CHECK_EQ_INT(clEnqueueFillImage(q, a, color, fo, fr, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueReadImage(q, a, CL_TRUE, o0, full, 0, 0, back, 0, NULL, NULL),
                CL_SUCCESS);
   bad = 0;
   const uint32_t filled = 0xFFu | (128u << 8) | (64u << 16);
   for (size_t y = 0; y < 11; y++)
      for (size_t x = 0; x < 37; x++) {
         bool in = x >= 30 && y >= 9;
         bad += back[y * 37 + x] != (in ? filled : src[y * 37 + x]);
      }
   CHECK_EQ_INT(bad, 0);
   cl_image_format fi = { CL_RGBA, CL_SIGNED_INT16 };
   cl_mem c = clCreateImage(ctx, 0, &fi, &d, NULL, &err);
   int32_t icolor[4] = { -5, 40000, 7, -40000 };
   CHECK_EQ_INT(clEnqueueFillImage(q, c, icolor, o0, full, 0, NULL, NULL), CL_SUCCESS);
   int16_t ib[4];
   size_t one[3] = { 1, 1, 1 }, at[3] = { 36, 10, 0 };
   CHECK_EQ_INT(clEnqueueReadImage(q, c, CL_TRUE, at, one, 0, 0, ib, 0, NULL, NULL), CL_SUCCESS);
   CHECK(ib[0] == -5 && ib[1] == 32767 && ib[2] == 7 && ib[3] == -32768);
   clReleaseMemObject(c);

   /* Packed formats: the fill colour lands in the bits §5.3.1.1 names. */
   {
      cl_image_format p565 = { CL_RGB, CL_UNORM_SHORT_565 }, p101 = { CL_RGB, CL_UNORM_INT_101010 };
      cl_mem m5 = clCreateImage(ctx, 0, &p565, &d, NULL, &err);
      CHECK_EQ_INT(err, CL_SUCCESS);
      cl_mem m10 = clCreateImage(ctx, 0, &p101, &d, NULL, &err);
      CHECK_EQ_INT(err, CL_SUCCESS);
      float pc[4] = { 1.0f, 0.5f, 0.25f, 0.0f };
      size_t at[3] = { 3, 4, 0 }, one1[3] = { 1, 1, 1 };
      uint16_t v5 = 0;
      uint32_t v10 = 0;
      CHECK_EQ_INT(clEnqueueFillImage(q, m5, pc, o0, full, 0, NULL, NULL), CL_SUCCESS);
      CHECK_EQ_INT(clEnqueueReadImage(q, m5, CL_TRUE, at, one1, 0, 0, &v5, 0, NULL, NULL),
                   CL_SUCCESS);
      CHECK_EQ_INT(v5, (31u << 11) | (32u << 5) | 8u);
      CHECK_EQ_INT(clEnqueueFillImage(q, m10, pc, o0, full, 0, NULL, NULL), CL_SUCCESS);
      CHECK_EQ_INT(clEnqueueReadImage(q, m10, CL_TRUE, at, one1, 0, 0, &v10, 0, NULL, NULL),
                   CL_SUCCESS);
      CHECK_EQ_INT(v10, (1023u << 20) | (512u << 10) | 256u);
      clReleaseMemObject(m5);
      clReleaseMemObject(m10);
   }

   /* Map for reading and writing. */
   size_t rp = 0, sp = 99;
   size_t mo[3] = { 2, 1, 0 }, mr[3] = { 10, 4, 1 };
   uint32_t *m = clEnqueueMapImage(q, a, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, mo, mr, &rp, &sp,
                                   0, NULL, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   CHECK(m != NULL && rp >= 37 * 4);
   if (m) {
      bad = 0;
      for (size_t y = 0; y < 4; y++)
         for (size_t x = 0; x < 10; x++) {
            uint32_t *p = (uint32_t *)((char *)m + y * rp) + x;
            bad += *p != src[(y + 1) * 37 + x + 2];
            *p = (uint32_t)(y * 100 + x);
         }
      CHECK_EQ_INT(bad, 0);
      cl_uint mc = 0;
      CHECK_EQ_INT(clGetMemObjectInfo(a, CL_MEM_MAP_COUNT, sizeof mc, &mc, NULL), CL_SUCCESS);
      CHECK_EQ_INT(mc, 1);
      CHECK_EQ_INT(clEnqueueUnmapMemObject(q, a, m, 0, NULL, NULL), CL_SUCCESS);
      CHECK_EQ_INT(clEnqueueReadImage(q, a, CL_TRUE, o0, full, 0, 0, back, 0, NULL, NULL),
                   CL_SUCCESS);
      bad = 0;
      for (size_t y = 0; y < 4; y++)
         for (size_t x = 0; x < 10; x++)
            bad += back[(y + 1) * 37 + x + 2] != (uint32_t)(y * 100 + x);
      bad += back[0] != src[0];
      CHECK_EQ_INT(bad, 0);
   }

   /* A CL_MEM_USE_HOST_PTR image maps at host_ptr with its own pitches (§5.3.6). */
   {
      const size_t hrow = 37 * 4 + 12;
      unsigned char *host = malloc(hrow * 11);
      pattern(host, hrow * 11, 9);
      cl_image_desc du = d;
      du.image_row_pitch = hrow;
      cl_mem u = clCreateImage(ctx, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, &f, &du, host, &err);
      CHECK_EQ_INT(err, CL_SUCCESS);
      void *hp = NULL;
      CHECK_EQ_INT(clGetMemObjectInfo(u, CL_MEM_HOST_PTR, sizeof hp, &hp, NULL), CL_SUCCESS);
      CHECK(hp == host);
      /* Written through the API, then mapped: host_ptr holds the new texels. */
      uint32_t px[4] = { 0x01020304u, 0x05060708u, 0x0a0b0c0du, 0x11223344u };
      size_t wo[3] = { 4, 6, 0 }, wr[3] = { 2, 2, 1 };
      CHECK_EQ_INT(clEnqueueWriteImage(q, u, CL_TRUE, wo, wr, 0, 0, px, 0, NULL, NULL),
                   CL_SUCCESS);
      size_t urp = 0;
      uint32_t *um = clEnqueueMapImage(q, u, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, wo, wr, &urp,
                                       NULL, 0, NULL, NULL, &err);
      CHECK_EQ_INT(err, CL_SUCCESS);
      CHECK(um == (uint32_t *)(host + 6 * hrow + 4 * 4));
      CHECK_EQ_INT(urp, hrow);
      if (um) {
         CHECK(um[0] == px[0] && um[1] == px[1]);
         uint32_t *row1 = (uint32_t *)((char *)um + urp);
         CHECK(row1[0] == px[2] && row1[1] == px[3]);
         row1[1] = 0xdeadbeefu;
         CHECK_EQ_INT(clEnqueueUnmapMemObject(q, u, um, 0, NULL, NULL), CL_SUCCESS);
         uint32_t t = 0;
         size_t at[3] = { 5, 7, 0 }, one1[3] = { 1, 1, 1 };
         CHECK_EQ_INT(clEnqueueReadImage(q, u, CL_TRUE, at, one1, 0, 0, &t, 0, NULL, NULL),
                      CL_SUCCESS);
         CHECK_EQ_INT(t, 0xdeadbeefu);
      }
      cl_uint mc = 9;
      clGetMemObjectInfo(u, CL_MEM_MAP_COUNT, sizeof mc, &mc, NULL);
      CHECK_EQ_INT(mc, 0);
      clReleaseMemObject(u);
      free(host);
   }

   /* Errors of the commands. */
   size_t big[3] = { 38, 1, 1 }, zero[3] = { 0, 1, 1 }, z1[3] = { 0, 0, 1 };
   CHECK_EQ_INT(clEnqueueReadImage(q, a, CL_TRUE, o0, big, 0, 0, back, 0, NULL, NULL),
                CL_INVALID_VALUE);
   CHECK_EQ_INT(clEnqueueReadImage(q, a, CL_TRUE, o0, zero, 0, 0, back, 0, NULL, NULL),
                CL_INVALID_VALUE);
   CHECK_EQ_INT(clEnqueueReadImage(q, a, CL_TRUE, z1, one, 0, 0, back, 0, NULL, NULL),
                CL_INVALID_VALUE); /* origin[2] of a 2D image must be 0 */
   CHECK_EQ_INT(clEnqueueReadImage(q, a, CL_TRUE, o0, full, 4, 0, back, 0, NULL, NULL),
                CL_INVALID_VALUE); /* row pitch below the region */
   CHECK_EQ_INT(clEnqueueReadImage(q, a, CL_TRUE, o0, full, 0, 0, NULL, 0, NULL, NULL),
                CL_INVALID_VALUE);
   CHECK_EQ_INT(clEnqueueReadImage(q, a, CL_TRUE, NULL, full, 0, 0, back, 0, NULL, NULL),
                CL_INVALID_VALUE);
   CHECK_EQ_INT(clEnqueueReadImage(q, buf, CL_TRUE, o0, full, 0, 0, back, 0, NULL, NULL),
                CL_INVALID_MEM_OBJECT);
   CHECK_EQ_INT(clEnqueueReadImage(q, a, CL_TRUE, o0, one, 0, 0, back, 1, NULL, NULL),
                CL_INVALID_EVENT_WAIT_LIST);
   cl_image_format other = { CL_RGBA, CL_UNSIGNED_INT8 };
   cl_mem o = clCreateImage(ctx, 0, &other, &d, NULL, &err);
   CHECK_EQ_INT(clEnqueueCopyImage(q, a, o, o0, o0, one, 0, NULL, NULL), CL_IMAGE_FORMAT_MISMATCH);
   clReleaseMemObject(o);
   size_t ov[3] = { 3, 1, 0 };
   CHECK_EQ_INT(clEnqueueCopyImage(q, a, a, o0, ov, reg, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
   size_t far[3] = { 30, 0, 0 }, r4[3] = { 4, 4, 1 };
   CHECK_EQ_INT(clEnqueueCopyImage(q, a, a, o0, far, r4, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueCopyImageToBuffer(q, a, buf, o0, full, 4096 - 4, 0, NULL, NULL),
                CL_INVALID_VALUE);
   CHECK_EQ_INT(clEnqueueCopyImageToBuffer(q, buf, a, o0, full, 0, 0, NULL, NULL),
                CL_INVALID_MEM_OBJECT);
   CHECK_EQ_INT(clEnqueueCopyBufferToImage(q, a, b, 0, o0, full, 0, NULL, NULL),
                CL_INVALID_MEM_OBJECT);
   CHECK_EQ_INT(clEnqueueFillImage(q, a, NULL, o0, full, 0, NULL, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(clEnqueueFillImage(q, a, color, o0, big, 0, NULL, NULL), CL_INVALID_VALUE);
   err = 0;
   CHECK(clEnqueueMapImage(q, a, CL_TRUE, CL_MAP_READ, o0, full, NULL, NULL, 0, NULL, NULL,
                           &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_VALUE);
   CHECK(clEnqueueMapImage(q, a, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, o0, full,
                           &rp, NULL, 0, NULL, NULL, &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_VALUE);
   CHECK(clEnqueueMapImage(q, a, CL_TRUE, CL_MAP_READ, o0, big, &rp, NULL, 0, NULL, NULL,
                           &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_VALUE);
   /* Host access flags (§5.3.3 CL_INVALID_OPERATION). */
   cl_mem wo = clCreateImage(ctx, CL_MEM_HOST_WRITE_ONLY, &f, &d, NULL, &err);
   CHECK_EQ_INT(clEnqueueReadImage(q, wo, CL_TRUE, o0, one, 0, 0, back, 0, NULL, NULL),
                CL_INVALID_OPERATION);
   CHECK_EQ_INT(clEnqueueWriteImage(q, wo, CL_TRUE, o0, one, 0, 0, back, 0, NULL, NULL),
                CL_SUCCESS);
   clReleaseMemObject(wo);
   clReleaseMemObject(a);
   clReleaseMemObject(b);
}

/*
 * Pitches, sizes, origins and regions whose products or sums overflow (issue 24): a row
 * pitch of 2^62 crashed the upload of CL_MEM_COPY_HOST_PTR, SIZE_MAX - 3 read host memory
 * before host_ptr, a wrapped rows x row pitch passed the buffer-size check of a 2D image from
 * a buffer, a width whose row wraps to 0 divided by zero. Each is refused with the code §5.3.1
 * and §5.3.3 name, before any memory is touched.
 */
static void
test_overflow(void)
{
   cl_int err;
   cl_image_format rgba = { CL_RGBA, CL_UNORM_INT8 };
   static unsigned char host[16 * 16 * 4 * 4];
   const size_t huge = (size_t)1 << 62, top = SIZE_MAX - 3;
   struct {
      cl_mem_object_type type;
      size_t w, h, d, row, slice;
   } bad[] = {
      { CL_MEM_OBJECT_IMAGE2D, 16, 16, 1, huge, 0 },
      { CL_MEM_OBJECT_IMAGE2D, 16, 16, 1, top, 0 },
      { CL_MEM_OBJECT_IMAGE2D, 16, 2, 1, huge, 0 },    /* no wrap, past any allocation */
      { CL_MEM_OBJECT_IMAGE3D, 4, 4, 4, huge, 0 },     /* row x height wraps to 0 */
      { CL_MEM_OBJECT_IMAGE3D, 4, 4, 4, 0, huge },
      { CL_MEM_OBJECT_IMAGE3D, 4, 4, 4, (size_t)1 << 61, 0 },
      { CL_MEM_OBJECT_IMAGE2D_ARRAY, 4, 4, 3, 0, (size_t)1 << 63 },
      { CL_MEM_OBJECT_IMAGE1D_ARRAY, 4, 3, 1, 0, huge },
      { CL_MEM_OBJECT_IMAGE1D_ARRAY, 4, 3, 1, top, 0 },
   };
   for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
      cl_image_desc d = desc_of(bad[i].type, bad[i].w, bad[i].h, bad[i].d, NULL);
      d.image_row_pitch = bad[i].row;
      d.image_slice_pitch = bad[i].slice;
      for (int use = 0; use < 2; use++) {
         err = 0;
         cl_mem m = clCreateImage(ctx, use ? CL_MEM_USE_HOST_PTR : CL_MEM_COPY_HOST_PTR, &rgba,
                                  &d, host, &err);
         CHECK(m == NULL);
         if (err != CL_INVALID_IMAGE_DESCRIPTOR)
            fprintf(stderr, "  overflow case %zu (%s): %d\n", i, use ? "USE" : "COPY", err);
         CHECK_EQ_INT(err, CL_INVALID_IMAGE_DESCRIPTOR);
         if (m)
            clReleaseMemObject(m);
      }
   }
   /* A host pointer near the top of the address space: the span wraps. */
   cl_image_desc d2 = desc_of(CL_MEM_OBJECT_IMAGE2D, 16, 16, 1, NULL);
   CHECK(clCreateImage(ctx, CL_MEM_COPY_HOST_PTR, &rgba, &d2, (void *)(UINTPTR_MAX - 64), &err) ==
         NULL);
   CHECK_EQ_INT(err, CL_INVALID_IMAGE_DESCRIPTOR);
   /* width x element wraps to 0 (a division by zero in the slice pitch check). */
   cl_image_desc d3 = desc_of(CL_MEM_OBJECT_IMAGE3D, huge, 1, 1, NULL);
   d3.image_slice_pitch = 16;
   CHECK(clCreateImage(ctx, CL_MEM_COPY_HOST_PTR, &rgba, &d3, host, &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_IMAGE_SIZE);
   CHECK(clCreateImage3D(ctx, CL_MEM_COPY_HOST_PTR, &rgba, 4, 4, 4, huge, 0, host, &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_IMAGE_DESCRIPTOR);
   CHECK(clCreateImage2D(ctx, CL_MEM_COPY_HOST_PTR, &rgba, 16, 16, top, host, &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_IMAGE_DESCRIPTOR);

   /* Images from buffers: rows x row pitch and width x element wrap past the buffer size. */
   cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4096, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_image_desc db = desc_of(CL_MEM_OBJECT_IMAGE2D, 4, 4, 1, buf);
   db.image_row_pitch = huge;
   CHECK(clCreateImage(ctx, 0, &rgba, &db, NULL, &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_IMAGE_DESCRIPTOR);
   db = desc_of(CL_MEM_OBJECT_IMAGE1D_BUFFER, ((size_t)1 << 62) + 1, 1, 1, buf);
   CHECK(clCreateImage(ctx, 0, &rgba, &db, NULL, &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_IMAGE_SIZE);
   clReleaseMemObject(buf);

   /* Commands: host pitches whose span wraps, origins and regions past SIZE_MAX. */
   cl_image_desc d = desc_of(CL_MEM_OBJECT_IMAGE2D, 37, 11, 1, NULL);
   cl_mem a = clCreateImage(ctx, CL_MEM_READ_WRITE, &rgba, &d, NULL, &err);
   d = desc_of(CL_MEM_OBJECT_IMAGE3D, 8, 4, 4, NULL);
   cl_mem a3 = clCreateImage(ctx, CL_MEM_READ_WRITE, &rgba, &d, NULL, &err);
   d = desc_of(CL_MEM_OBJECT_IMAGE1D_ARRAY, 8, 4, 1, NULL);
   cl_mem a1 = clCreateImage(ctx, CL_MEM_READ_WRITE, &rgba, &d, NULL, &err);
   CHECK(a && a3 && a1);
   size_t o0[3] = { 0, 0, 0 }, full[3] = { 37, 11, 1 }, full3[3] = { 8, 4, 4 },
          full1[3] = { 8, 4, 1 };
   const struct {
      cl_mem img;
      const size_t *region;
      size_t row, slice;
   } rw[] = {
      { a, full, huge, 0 }, { a, full, top, 0 }, { a3, full3, huge, 0 },
      { a3, full3, 0, huge }, { a3, full3, top, 0 }, { a1, full1, 0, huge },
      { a1, full1, top, 0 },
   };
   for (size_t i = 0; i < sizeof rw / sizeof *rw; i++) {
      CHECK_EQ_INT(clEnqueueReadImage(q, rw[i].img, CL_TRUE, o0, rw[i].region, rw[i].row,
                                      rw[i].slice, host, 0, NULL, NULL),
                   CL_INVALID_VALUE);
      CHECK_EQ_INT(clEnqueueWriteImage(q, rw[i].img, CL_TRUE, o0, rw[i].region, rw[i].row,
                                       rw[i].slice, host, 0, NULL, NULL),
                   CL_INVALID_VALUE);
   }
   CHECK_EQ_INT(clEnqueueReadImage(q, a, CL_TRUE, o0, full, 0, 0, (void *)(UINTPTR_MAX - 64), 0,
                                   NULL, NULL),
                CL_INVALID_VALUE);
   size_t far[3] = { SIZE_MAX, 0, 0 }, one[3] = { 1, 1, 1 }, wrap[3] = { SIZE_MAX, 1, 1 },
          at1[3] = { 1, 0, 0 };
   CHECK_EQ_INT(clEnqueueReadImage(q, a, CL_TRUE, far, one, 0, 0, host, 0, NULL, NULL),
                CL_INVALID_VALUE);
   CHECK_EQ_INT(clEnqueueReadImage(q, a, CL_TRUE, at1, wrap, 0, 0, host, 0, NULL, NULL),
                CL_INVALID_VALUE);
   CHECK_EQ_INT(clEnqueueCopyImage(q, a, a3, far, o0, one, 0, NULL, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(clEnqueueCopyImage(q, a, a3, at1, o0, wrap, 0, NULL, NULL), CL_INVALID_VALUE);
   cl_float color[4] = { 0 };
   CHECK_EQ_INT(clEnqueueFillImage(q, a, color, at1, wrap, 0, NULL, NULL), CL_INVALID_VALUE);
   size_t rp = 0, sp = 0;
   CHECK(clEnqueueMapImage(q, a3, CL_TRUE, CL_MAP_READ, at1, wrap, &rp, &sp, 0, NULL, NULL,
                           &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_VALUE);
   cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4096, NULL, &err);
   CHECK_EQ_INT(clEnqueueCopyImageToBuffer(q, a, b, o0, one, SIZE_MAX - 1, 0, NULL, NULL),
                CL_INVALID_VALUE);
   CHECK_EQ_INT(clEnqueueCopyBufferToImage(q, b, a, SIZE_MAX - 1, o0, one, 0, NULL, NULL),
                CL_INVALID_VALUE);
   clReleaseMemObject(b);
   clReleaseMemObject(a);
   clReleaseMemObject(a3);
   clReleaseMemObject(a1);
}

/* The largest 2D and 3D images of the one-byte format allocate and address their last
 * texel. */
static void
test_limits(void)
{
   cl_int err;
   size_t w2 = 0, w3 = 0, arr = 0;
   cl_device_id dev;
   clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof dev, &dev, NULL);
   clGetDeviceInfo(dev, CL_DEVICE_IMAGE2D_MAX_WIDTH, sizeof w2, &w2, NULL);
   clGetDeviceInfo(dev, CL_DEVICE_IMAGE3D_MAX_DEPTH, sizeof w3, &w3, NULL);
   clGetDeviceInfo(dev, CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, sizeof arr, &arr, NULL);
   CHECK_EQ_INT(w2, 16384);
   CHECK_EQ_INT(w3, 2048);
   CHECK_EQ_INT(arr, 2048);
   cl_image_format f = { CL_R, CL_UNSIGNED_INT8 };
   cl_image_desc d = desc_of(CL_MEM_OBJECT_IMAGE2D, w2, w2, 1, NULL);
   cl_mem big = clCreateImage(ctx, 0, &f, &d, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   if (big) {
      size_t at[3] = { w2 - 1, w2 - 1, 0 }, one[3] = { 1, 1, 1 };
      unsigned char v = 0x5A, back = 0;
      CHECK_EQ_INT(clEnqueueWriteImage(q, big, CL_TRUE, at, one, 0, 0, &v, 0, NULL, NULL),
                   CL_SUCCESS);
      CHECK_EQ_INT(clEnqueueReadImage(q, big, CL_TRUE, at, one, 0, 0, &back, 0, NULL, NULL),
                   CL_SUCCESS);
      CHECK_EQ_INT(back, 0x5A);
      clReleaseMemObject(big);
   }
   d = desc_of(CL_MEM_OBJECT_IMAGE2D_ARRAY, 64, 16, arr, NULL);
   big = clCreateImage(ctx, 0, &f, &d, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   if (big) {
      size_t at[3] = { 63, 15, arr - 1 }, one[3] = { 1, 1, 1 };
      unsigned char v = 0xC3, back = 0;
      CHECK_EQ_INT(clEnqueueWriteImage(q, big, CL_TRUE, at, one, 0, 0, &v, 0, NULL, NULL),
                   CL_SUCCESS);
      CHECK_EQ_INT(clEnqueueReadImage(q, big, CL_TRUE, at, one, 0, 0, &back, 0, NULL, NULL),
                   CL_SUCCESS);
      CHECK_EQ_INT(back, 0xC3);
      clReleaseMemObject(big);
   }
}

static void
test_no_images(void)
{
   cl_int err;
   cl_uint n = 77;
   CHECK_EQ_INT(clGetSupportedImageFormats(ctx, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0,
                                           NULL, &n),
                CL_SUCCESS);
   CHECK_EQ_INT(n, 0);
   cl_image_format f = { CL_RGBA, CL_UNORM_INT8 };
   cl_image_desc d = desc_of(CL_MEM_OBJECT_IMAGE2D, 4, 4, 1, NULL);
   CHECK(clCreateImage(ctx, 0, &f, &d, NULL, &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_OPERATION);
   CHECK(clCreateSampler(ctx, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_OPERATION);
}

int
main(void)
{
   test_watchdog("api_image_objects_test", 240);
   cl_platform_id platform;
   cl_device_id device;
   cl_int err;
   if (clGetPlatformIDs(1, &platform, NULL) != CL_SUCCESS ||
       clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &device, NULL) != CL_SUCCESS) {
      fprintf(stderr, "no hsacl device\n");
      return 1;
   }
   ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   q = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4096, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);

   cl_bool images = CL_FALSE;
   CHECK_EQ_INT(clGetDeviceInfo(device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL),
                CL_SUCCESS);
   const char *rt = getenv("HSACL_RUNTIME");
   if (rt && !strcmp(rt, "rocr"))
      CHECK_EQ_INT(images, CL_TRUE); /* ROCr 5.2.3 has its image extension built in */
   printf("CL_DEVICE_IMAGE_SUPPORT %s\n", images ? "true" : "false");
   if (images) {
      test_formats();
      test_create_errors(buf);
      test_info(buf);
      test_commands(buf);
      test_overflow();
      test_limits();
   } else {
      test_no_images();
   }
   clReleaseMemObject(buf);
   clReleaseCommandQueue(q);
   clReleaseContext(ctx);
   return test_main_end();
}
