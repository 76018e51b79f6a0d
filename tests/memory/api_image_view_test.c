/*
 * tests/memory/api_image_view_test.c — 2D images made from 2D images (OpenCL 3.0 API §5.3.1,
 * core since 2.0; memory/mem_image.c): a view shares its parent's memory in a compatible
 * channel order. Checked end to end on the runtime it runs on: an sRGBA view of an RGBA
 * image decodes what the parent holds within the specification's tolerance (OpenCL C
 * environment §"sRGB images": |x - 255 c_sRGB(y)| <= 0.5), the RGBA view of an sRGBA image
 * reads the bytes linearly, a CL_DEPTH view of a CL_R image is written by a kernel and read
 * through the parent and back, views of views and of images made from buffers, a
 * CL_MEM_USE_HOST_PTR parent's host pointer, the queries, every error of §5.3.1 for views,
 * both release orders (destructor callbacks and device memory in use), and the 1.2
 * profile's refusal. argv[1] is the profile the environment selects (3.1, 2.0 or 1.2).
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext.h>

#include "hsacl_cl_test.h"
#include "hsacl_test.h"

#include <math.h>
#include <stdint.h>

static const char *source =
   "#pragma OPENCL EXTENSION cl_khr_depth_images : enable\n"
   "kernel void readf(read_only image2d_t img, global float4 *out) {\n"
   "   int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
   "   out[p.y * get_image_width(img) + p.x] = read_imagef(img, p);\n"
   "}\n"
   "kernel void writef(write_only image2d_t img, global const float4 *in) {\n"
   "   int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
   "   write_imagef(img, p, in[p.y * get_image_width(img) + p.x]);\n"
   "}\n"
   "kernel void readd(read_only image2d_depth_t img, global float *out) {\n"
   "   int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
   "   out[p.y * get_image_width(img) + p.x] = read_imagef(img, p);\n"
   "}\n"
   "kernel void writed(write_only image2d_depth_t img, global const float *in) {\n"
   "   int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
   "   write_imagef(img, p, in[p.y * get_image_width(img) + p.x]);\n"
   "}\n"
   "kernel void order(read_only image2d_t img, global int *out) {\n"
   "   out[0] = get_image_channel_order(img);\n"
   "   out[1] = get_image_channel_data_type(img);\n"
   "}\n";

static cl_device_id device;
static cl_context ctx;
static cl_command_queue q;
static cl_program prog;

enum { W = 16, H = 8, N = W * H };
static const size_t origin[3] = { 0, 0, 0 }, region[3] = { W, H, 1 };

static cl_mem
image(cl_mem_flags flags, cl_channel_order o, cl_channel_type t, cl_mem parent, void *host,
      cl_int *err)
{
   cl_image_format f = { o, t };
   cl_image_desc d = { .image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = W,
                       .image_height = H, .mem_object = parent };
   return clCreateImage(ctx, flags, &f, &d, host, err);
}

static cl_mem
view_of(cl_mem parent, cl_mem_flags flags, cl_channel_order o, cl_channel_type t)
{
   cl_int err;
   cl_mem v = image(flags, o, t, parent, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   return v;
}

/* Runs kernel `name` over the W x H image `img` with buffer `buf` as its second argument. */
static void
run(const char *name, cl_mem img, cl_mem buf)
{
   cl_int err;
   cl_kernel k = clCreateKernel(prog, name, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArg(k, 0, sizeof img, &img), CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArg(k, 1, sizeof buf, &buf), CL_SUCCESS);
   size_t g[2] = { W, H };
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 2, NULL, g, NULL, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
   clReleaseKernel(k);
}

/* read_imagef of every texel of `img` (four floats each) into out[4 * N]. */
static void
read_texels(cl_mem img, float *out)
{
   cl_int err;
   cl_mem buf = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, N * 4 * sizeof(float), NULL, &err);
   run("readf", img, buf);
   CHECK_EQ_INT(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, N * 4 * sizeof(float), out, 0, NULL,
                                    NULL),
                CL_SUCCESS);
   clReleaseMemObject(buf);
}

static bool
image_order_is(cl_mem img, cl_int order, cl_int type)
{
   cl_int err, got[2] = { -1, -1 };
   cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof got, NULL, &err);
   cl_kernel k = clCreateKernel(prog, "order", &err);
   clSetKernelArg(k, 0, sizeof img, &img);
   clSetKernelArg(k, 1, sizeof buf, &buf);
   size_t one = 1;
   clEnqueueNDRangeKernel(q, k, 1, NULL, &one, NULL, 0, NULL, NULL);
   clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL);
   clReleaseKernel(k);
   clReleaseMemObject(buf);
   return got[0] == order && got[1] == type;
}

/* Linear to sRGB, the specification's c_sRGB (with the standard's -0.055 term). */
static double
c_srgb(double y)
{
   if (!(y >= 0))
      return 0;
   if (y < 0.0031308)
      return 12.92 * y;
   if (y <= 1)
      return 1.055 * pow(y, 1 / 2.4) - 0.055;
   return 1;
}

/* Counts texels of `got` (read through an sRGB view) off the stored bytes `x`: colour
 * channels beyond |x - 255 c_sRGB(y)| <= 0.5, alpha (linear) beyond half a step of 1/255. */
static size_t
srgb_misses(const uint8_t *x, const float *got)
{
   size_t bad = 0;
   for (size_t i = 0; i < N * 4; i++) {
      double d = i % 4 == 3 ? fabs(x[i] - 255.0 * got[i]) : fabs(x[i] - 255.0 * c_srgb(got[i]));
      if (!(d <= 0.5)) {
         if (bad < 4)
            fprintf(stderr, "texel %zu channel %zu: byte %u read %.7f\n", i / 4, i % 4,
                    x[i], got[i]);
         bad++;
      }
   }
   return bad;
}

static size_t
linear_misses(const uint8_t *x, const float *got)
{
   size_t bad = 0;
   for (size_t i = 0; i < N * 4; i++)
      bad += !(fabs(got[i] - x[i] / 255.0) <= 1e-6);
   return bad;
}

/* An sRGBA view of an RGBA image, both ways, and the RGBA view of an sRGBA image. */
static void
test_srgb(void)
{
   cl_int err;
   uint8_t bytes[N * 4], back[N * 4];
   for (size_t i = 0; i < sizeof bytes; i++)
      bytes[i] = (uint8_t)(i * 7 + i / 256);
   cl_mem parent = image(CL_MEM_READ_WRITE, CL_RGBA, CL_UNORM_INT8, NULL, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueWriteImage(q, parent, CL_TRUE, origin, region, 0, 0, bytes, 0, NULL,
                                    NULL),
                CL_SUCCESS);
   cl_mem view = view_of(parent, CL_MEM_READ_ONLY, CL_sRGBA, CL_UNORM_INT8);

   /* Queries: the parent is the associated object; format, pitch and size are the view's. */
   cl_mem assoc = NULL, ibuf = (cl_mem)1;
   CHECK_EQ_INT(clGetMemObjectInfo(view, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc,
                                   NULL),
                CL_SUCCESS);
   CHECK(assoc == parent);
   CHECK_EQ_INT(clGetImageInfo(view, CL_IMAGE_BUFFER, sizeof ibuf, &ibuf, NULL), CL_SUCCESS);
   CHECK(ibuf == NULL);
   cl_image_format f = { 0, 0 };
   clGetImageInfo(view, CL_IMAGE_FORMAT, sizeof f, &f, NULL);
   CHECK(f.image_channel_order == CL_sRGBA && f.image_channel_data_type == CL_UNORM_INT8);
   size_t prow = 0, vrow = 0, psize = 0, vsize = 0, w = 0, h = 0;
   clGetImageInfo(parent, CL_IMAGE_ROW_PITCH, sizeof prow, &prow, NULL);
   clGetImageInfo(view, CL_IMAGE_ROW_PITCH, sizeof vrow, &vrow, NULL);
   clGetMemObjectInfo(parent, CL_MEM_SIZE, sizeof psize, &psize, NULL);
   clGetMemObjectInfo(view, CL_MEM_SIZE, sizeof vsize, &vsize, NULL);
   clGetImageInfo(view, CL_IMAGE_WIDTH, sizeof w, &w, NULL);
   clGetImageInfo(view, CL_IMAGE_HEIGHT, sizeof h, &h, NULL);
   CHECK(prow >= W * 4 && vrow == prow && vsize == psize && w == W && h == H);
   cl_mem_flags vf = 0;
   clGetMemObjectInfo(view, CL_MEM_FLAGS, sizeof vf, &vf, NULL);
   CHECK_EQ_INT(vf, CL_MEM_READ_ONLY);
   cl_uint refs = 0;
   clGetMemObjectInfo(parent, CL_MEM_REFERENCE_COUNT, sizeof refs, &refs, NULL);
   CHECK_EQ_INT(refs, 1); /* the view's reference is internal */
   CHECK(image_order_is(view, CL_sRGBA, CL_UNORM_INT8));
   CHECK(image_order_is(parent, CL_RGBA, CL_UNORM_INT8));

   /* Written through the parent, read decoded through the view, linearly through the
    * parent. */
   float got[N * 4];
   read_texels(view, got);
   CHECK_EQ_INT(srgb_misses(bytes, got), 0);
   read_texels(parent, got);
   CHECK_EQ_INT(linear_misses(bytes, got), 0);

   /* Written through the view (its bytes, no conversion on a copy), read through the
    * parent by the host and by a kernel. */
   for (size_t i = 0; i < sizeof bytes; i++)
      bytes[i] = (uint8_t)(255 - i * 3);
   CHECK_EQ_INT(clEnqueueWriteImage(q, view, CL_TRUE, origin, region, 0, 0, bytes, 0, NULL,
                                    NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueReadImage(q, parent, CL_TRUE, origin, region, 0, 0, back, 0, NULL,
                                   NULL),
                CL_SUCCESS);
   CHECK(memcmp(back, bytes, sizeof bytes) == 0);
   read_texels(parent, got);
   CHECK_EQ_INT(linear_misses(bytes, got), 0);

   /* A kernel writes the parent; the view decodes what it wrote. */
   float in[N * 4];
   for (size_t i = 0; i < N * 4; i++)
      in[i] = (float)((i * 37) % 256) / 255.0f;
   cl_mem inb = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in, in,
                               &err);
   run("writef", parent, inb);
   for (size_t i = 0; i < N * 4; i++)
      bytes[i] = (uint8_t)((i * 37) % 256);
   read_texels(view, got);
   CHECK_EQ_INT(srgb_misses(bytes, got), 0);

   /* The other direction of the table: the RGBA view of an sRGBA image reads the bytes. */
   cl_mem sparent = image(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, CL_sRGBA, CL_UNORM_INT8,
                          NULL, bytes, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_mem lview = view_of(sparent, 0, CL_RGBA, CL_UNORM_INT8);
   clGetMemObjectInfo(lview, CL_MEM_FLAGS, sizeof vf, &vf, NULL);
   CHECK_EQ_INT(vf, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR); /* inherited (§5.3.1) */
   read_texels(lview, got);
   CHECK_EQ_INT(linear_misses(bytes, got), 0);
   read_texels(sparent, got);
   CHECK_EQ_INT(srgb_misses(bytes, got), 0);

   /* A view of a view: the RGBA view of the sRGBA view sees the same memory. */
   cl_mem vv = view_of(view, 0, CL_RGBA, CL_UNORM_INT8);
   clGetMemObjectInfo(vv, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, NULL);
   CHECK(assoc == view);
   read_texels(vv, got);
   CHECK_EQ_INT(linear_misses(bytes, got), 0);

   /* A fill through the sRGB view encodes the linear colour (|x - 255 c_sRGB(y)| <= 0.6 for
    * writes); alpha is stored linearly. */
   const float colour[4] = { 0.2f, 0.5f, 0.0025f, 0.75f };
   CHECK_EQ_INT(clEnqueueFillImage(q, view, colour, origin, region, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueReadImage(q, parent, CL_TRUE, origin, region, 0, 0, back, 0, NULL,
                                   NULL),
                CL_SUCCESS);
   size_t bad = 0;
   for (size_t i = 0; i < N * 4; i++) {
      double want = i % 4 == 3 ? 255.0 * colour[3] : 255.0 * c_srgb(colour[i % 4]);
      bad += !(fabs(back[i] - want) <= 0.6);
   }
   CHECK_EQ_INT(bad, 0);

   clReleaseMemObject(vv);
   clReleaseMemObject(lview);
   clReleaseMemObject(sparent);
   clReleaseMemObject(inb);
   clReleaseMemObject(view);
   clReleaseMemObject(parent);
}

/* A CL_DEPTH view of a CL_R image: a kernel writes through the view, the parent reads it;
 * the parent is written, the view reads it. */
static void
test_depth(void)
{
   cl_int err;
   cl_mem parent = image(CL_MEM_READ_WRITE, CL_R, CL_FLOAT, NULL, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_mem view = view_of(parent, 0, CL_DEPTH, CL_FLOAT);
   cl_mem_flags vf = 0;
   clGetMemObjectInfo(view, CL_MEM_FLAGS, sizeof vf, &vf, NULL);
   CHECK_EQ_INT(vf, CL_MEM_READ_WRITE);
   float in[N], back[N], got4[N * 4];
   for (int i = 0; i < N; i++)
      in[i] = (float)i / N - 0.25f;
   cl_mem inb = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in, in,
                               &err);
   run("writed", view, inb);
   CHECK_EQ_INT(clEnqueueReadImage(q, parent, CL_TRUE, origin, region, 0, 0, back, 0, NULL,
                                   NULL),
                CL_SUCCESS);
   CHECK(memcmp(back, in, sizeof in) == 0);
   read_texels(parent, got4);
   size_t bad = 0;
   for (int i = 0; i < N; i++)
      bad += got4[4 * i] != in[i] || got4[4 * i + 1] != 0 || got4[4 * i + 3] != 1;
   CHECK_EQ_INT(bad, 0);
   for (int i = 0; i < N; i++)
      in[i] = 1.0f - (float)i / 64;
   CHECK_EQ_INT(clEnqueueWriteImage(q, parent, CL_TRUE, origin, region, 0, 0, in, 0, NULL,
                                    NULL),
                CL_SUCCESS);
   cl_mem out = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, sizeof back, NULL, &err);
   run("readd", view, out);
   CHECK_EQ_INT(clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL),
                CL_SUCCESS);
   CHECK(memcmp(back, in, sizeof in) == 0);
   clReleaseMemObject(out);
   clReleaseMemObject(inb);
   clReleaseMemObject(view);
   clReleaseMemObject(parent);
}

/* A view of a 2D image made from a buffer addresses the buffer; a view of a
 * CL_MEM_USE_HOST_PTR image maps at the application's pointer. */
static void
test_sources(void)
{
   cl_int err;
   cl_uint pitch_align = 0;
   clGetDeviceInfo(device, CL_DEVICE_IMAGE_PITCH_ALIGNMENT, sizeof pitch_align, &pitch_align,
                   NULL);
   size_t row = ((W + pitch_align - 1) / pitch_align) * pitch_align * 4;
   uint8_t *host = malloc(row * H);
   for (size_t i = 0; i < row * H; i++)
      host[i] = (uint8_t)(i * 13);
   cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, row * H, host,
                               &err);
   cl_image_format rgba = { CL_RGBA, CL_UNORM_INT8 };
   cl_image_desc bd = { .image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = W,
                        .image_height = H, .image_row_pitch = row, .mem_object = buf };
   cl_mem img = clCreateImage(ctx, CL_MEM_READ_WRITE, &rgba, &bd, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_image_format srgba = { CL_sRGBA, CL_UNORM_INT8 };
   bd.mem_object = img;
   cl_mem view = clCreateImage(ctx, CL_MEM_READ_ONLY, &srgba, &bd, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_mem ibuf = NULL;
   clGetImageInfo(view, CL_IMAGE_BUFFER, sizeof ibuf, &ibuf, NULL);
   CHECK(ibuf == buf);
   uint8_t bytes[N * 4];
   float got[N * 4];
   for (size_t y = 0; y < H; y++)
      memcpy(bytes + y * W * 4, host + y * row, W * 4);
   read_texels(view, got);
   CHECK_EQ_INT(srgb_misses(bytes, got), 0);
   /* The buffer is the view's memory: copying one to the other overlaps (§5.3.3). */
   CHECK_EQ_INT(clEnqueueCopyImageToBuffer(q, view, buf, origin, region, 0, 0, NULL, NULL),
                CL_MEM_COPY_OVERLAP);
   clReleaseMemObject(view);
   clReleaseMemObject(img);

   /* An image made from a read-only buffer with flags 0 is read-only (inherited), so an
    * sRGB format, which kernels may only read, is supported for it. */
   cl_mem robuf = clCreateBuffer(ctx, CL_MEM_READ_ONLY, row * H, NULL, &err);
   bd.mem_object = robuf;
   img = clCreateImage(ctx, 0, &srgba, &bd, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   clReleaseMemObject(img);
   clReleaseMemObject(robuf);
   clReleaseMemObject(buf);

   /* USE_HOST_PTR is inherited, and the view maps into the parent's host memory. */
   img = image(CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, CL_RGBA, CL_UNORM_INT8, NULL, host,
               &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   view = view_of(img, CL_MEM_READ_ONLY, CL_sRGBA, CL_UNORM_INT8);
   cl_mem_flags vf = 0;
   void *hp = NULL;
   clGetMemObjectInfo(view, CL_MEM_FLAGS, sizeof vf, &vf, NULL);
   clGetMemObjectInfo(view, CL_MEM_HOST_PTR, sizeof hp, &hp, NULL);
   CHECK_EQ_INT(vf, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR);
   CHECK(hp == host);
   size_t at[3] = { 3, 2, 0 }, one[3] = { 1, 1, 1 }, rp = 0;
   uint8_t *m = clEnqueueMapImage(q, view, CL_TRUE, CL_MAP_READ, at, one, &rp, NULL, 0, NULL,
                                  NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   CHECK(m == host + 2 * W * 4 + 3 * 4);
   CHECK_EQ_INT(rp, W * 4);
   if (m)
      CHECK_EQ_INT(clEnqueueUnmapMemObject(q, view, m, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
   clReleaseMemObject(view);
   clReleaseMemObject(img);
   free(host);
}

static cl_int
view_error(cl_mem_flags flags, cl_channel_order o, cl_channel_type t, const cl_image_desc *d,
           void *host)
{
   cl_int err = CL_SUCCESS;
   cl_image_format f = { o, t };
   cl_mem m = clCreateImage(ctx, flags, &f, d, host, &err);
   CHECK(m == NULL);
   if (m)
      clReleaseMemObject(m);
   return err;
}

/* §5.3.1's errors for images made from images. */
static void
test_errors(void)
{
   cl_int err;
   cl_mem rgba = image(CL_MEM_READ_WRITE, CL_RGBA, CL_UNORM_INT8, NULL, NULL, &err);
   cl_mem ro = image(CL_MEM_READ_ONLY | CL_MEM_HOST_NO_ACCESS, CL_RGBA, CL_UNORM_INT8, NULL,
                     NULL, &err);
   cl_mem wo = image(CL_MEM_WRITE_ONLY | CL_MEM_HOST_READ_ONLY, CL_RGBA, CL_UNORM_INT8, NULL,
                     NULL, &err);
   cl_mem hw = image(CL_MEM_READ_WRITE | CL_MEM_HOST_WRITE_ONLY, CL_RGBA, CL_UNORM_INT8, NULL,
                     NULL, &err);
   cl_mem r16 = image(CL_MEM_READ_WRITE, CL_R, CL_UNORM_INT16, NULL, NULL, &err);
   cl_mem depth = image(CL_MEM_READ_WRITE, CL_DEPTH, CL_FLOAT, NULL, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   size_t row = 0;
   clGetImageInfo(rgba, CL_IMAGE_ROW_PITCH, sizeof row, &row, NULL);
   const cl_image_desc good = { .image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = W,
                                .image_height = H, .mem_object = rgba };
   cl_image_desc d = good;

   /* CL_INVALID_VALUE: widening access flags, host pointer flags, conflicting host access. */
   d.mem_object = ro;
   CHECK_EQ_INT(view_error(CL_MEM_READ_WRITE, CL_sRGBA, CL_UNORM_INT8, &d, NULL),
                CL_INVALID_VALUE);
   CHECK_EQ_INT(view_error(CL_MEM_WRITE_ONLY, CL_sRGBA, CL_UNORM_INT8, &d, NULL),
                CL_INVALID_VALUE);
   CHECK_EQ_INT(view_error(CL_MEM_HOST_READ_ONLY, CL_sRGBA, CL_UNORM_INT8, &d, NULL),
                CL_INVALID_VALUE);
   d.mem_object = wo;
   CHECK_EQ_INT(view_error(CL_MEM_READ_ONLY, CL_sRGBA, CL_UNORM_INT8, &d, NULL),
                CL_INVALID_VALUE);
   CHECK_EQ_INT(view_error(CL_MEM_HOST_WRITE_ONLY, CL_sRGBA, CL_UNORM_INT8, &d, NULL),
                CL_INVALID_VALUE);
   d.mem_object = hw;
   CHECK_EQ_INT(view_error(CL_MEM_READ_ONLY | CL_MEM_HOST_READ_ONLY, CL_sRGBA,
                           CL_UNORM_INT8, &d, NULL),
                CL_INVALID_VALUE);
   d = good;
   uint8_t host[N * 4];
   CHECK_EQ_INT(view_error(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, CL_sRGBA,
                           CL_UNORM_INT8, &d, host),
                CL_INVALID_VALUE);
   CHECK_EQ_INT(view_error(CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, CL_sRGBA,
                           CL_UNORM_INT8, &d, host),
                CL_INVALID_VALUE);
   CHECK_EQ_INT(view_error(CL_MEM_READ_ONLY | CL_MEM_ALLOC_HOST_PTR, CL_sRGBA,
                           CL_UNORM_INT8, &d, NULL),
                CL_INVALID_VALUE);

   /* CL_INVALID_IMAGE_FORMAT_DESCRIPTOR: no or an invalid format, another data type, an
    * order the table does not pair with the parent's (its own, BGRA over RGBA, R over
    * DEPTH). */
   CHECK(clCreateImage(ctx, CL_MEM_READ_ONLY, NULL, &d, NULL, &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
   CHECK_EQ_INT(view_error(CL_MEM_READ_ONLY, CL_sRGBA, CL_UNORM_INT16, &d, NULL),
                CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
   CHECK_EQ_INT(view_error(CL_MEM_READ_ONLY, CL_RGBA, CL_UNORM_INT8, &d, NULL),
                CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
   CHECK_EQ_INT(view_error(CL_MEM_READ_ONLY, CL_BGRA, CL_UNORM_INT8, &d, NULL),
                CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
   CHECK_EQ_INT(view_error(CL_MEM_READ_ONLY, CL_RGBA, CL_SNORM_INT8, &d, NULL),
                CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
   d.mem_object = r16;
   CHECK_EQ_INT(view_error(0, CL_DEPTH, CL_FLOAT, &d, NULL),
                CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
   d.mem_object = depth;
   CHECK_EQ_INT(view_error(0, CL_R, CL_FLOAT, &d, NULL),
                CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
   d.mem_object = r16;
   cl_mem dv = view_of(r16, 0, CL_DEPTH, CL_UNORM_INT16); /* the pair the table has */
   clReleaseMemObject(dv);

   /* CL_INVALID_IMAGE_DESCRIPTOR: a field that does not match the parent's queries, a type
    * other than 2D, a mem_object that is no 2D image of the context. */
   cl_image_desc bad[8];
   for (int i = 0; i < 8; i++)
      bad[i] = good;
   bad[0].image_width = W + 1;
   bad[1].image_height = H - 1;
   bad[2].image_row_pitch = row + 4;
   bad[3].image_slice_pitch = row * H;
   bad[4].image_depth = 1;
   bad[5].image_array_size = 1;
   bad[6].num_mip_levels = 1;
   bad[7].num_samples = 1;
   for (int i = 0; i < 8; i++)
      CHECK_EQ_INT(view_error(CL_MEM_READ_ONLY, CL_sRGBA, CL_UNORM_INT8, &bad[i], NULL),
                   CL_INVALID_IMAGE_DESCRIPTOR);
   d = good;
   d.image_row_pitch = row; /* the parent's CL_IMAGE_ROW_PITCH matches */
   cl_image_format srgba = { CL_sRGBA, CL_UNORM_INT8 };
   dv = clCreateImage(ctx, CL_MEM_READ_ONLY, &srgba, &d, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   clReleaseMemObject(dv);
   static const cl_mem_object_type types[] = { CL_MEM_OBJECT_IMAGE1D,
                                               CL_MEM_OBJECT_IMAGE1D_BUFFER,
                                               CL_MEM_OBJECT_IMAGE2D_ARRAY,
                                               CL_MEM_OBJECT_IMAGE3D };
   for (size_t i = 0; i < 4; i++) {
      d = good;
      d.image_type = types[i];
      d.image_depth = types[i] == CL_MEM_OBJECT_IMAGE3D ? 1 : 0;
      d.image_array_size = types[i] == CL_MEM_OBJECT_IMAGE2D_ARRAY ? 1 : 0;
      CHECK_EQ_INT(view_error(CL_MEM_READ_ONLY, CL_sRGBA, CL_UNORM_INT8, &d, NULL),
                   CL_INVALID_IMAGE_DESCRIPTOR);
   }
   cl_image_format rgba8 = { CL_RGBA, CL_UNORM_INT8 };
   cl_image_desc d3 = { .image_type = CL_MEM_OBJECT_IMAGE3D, .image_width = W,
                        .image_height = H, .image_depth = 2 };
   cl_mem img3 = clCreateImage(ctx, CL_MEM_READ_WRITE, &rgba8, &d3, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   d = good;
   d.mem_object = img3;
   CHECK_EQ_INT(view_error(CL_MEM_READ_ONLY, CL_sRGBA, CL_UNORM_INT8, &d, NULL),
                CL_INVALID_IMAGE_DESCRIPTOR);
   cl_context other = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
   cl_image_desc od = { .image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = W,
                        .image_height = H };
   cl_mem oimg = clCreateImage(other, CL_MEM_READ_WRITE, &rgba8, &od, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   d = good;
   d.mem_object = oimg;
   CHECK_EQ_INT(view_error(CL_MEM_READ_ONLY, CL_sRGBA, CL_UNORM_INT8, &d, NULL),
                CL_INVALID_IMAGE_DESCRIPTOR);
   d.mem_object = (cl_mem)q; /* not a memory object */
   CHECK_EQ_INT(view_error(CL_MEM_READ_ONLY, CL_sRGBA, CL_UNORM_INT8, &d, NULL),
                CL_INVALID_IMAGE_DESCRIPTOR);

   /* CL_INVALID_HOST_PTR: a host pointer without a flag that takes one. */
   d = good;
   CHECK_EQ_INT(view_error(CL_MEM_READ_ONLY, CL_sRGBA, CL_UNORM_INT8, &d, host),
                CL_INVALID_HOST_PTR);

   /* CL_IMAGE_FORMAT_NOT_SUPPORTED: an sRGB view kernels may write (given or inherited:
    * cl_khr_srgb_image_writes is not reported), sBGRA where the device does not list it. */
   CHECK_EQ_INT(view_error(CL_MEM_READ_WRITE, CL_sRGBA, CL_UNORM_INT8, &d, NULL),
                CL_IMAGE_FORMAT_NOT_SUPPORTED);
   CHECK_EQ_INT(view_error(0, CL_sRGBA, CL_UNORM_INT8, &d, NULL),
                CL_IMAGE_FORMAT_NOT_SUPPORTED);
   cl_image_format fmts[256];
   cl_uint nf = 0;
   clGetSupportedImageFormats(ctx, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 256, fmts, &nf);
   bool sbgra = false;
   for (cl_uint i = 0; i < nf && i < 256; i++)
      sbgra |= fmts[i].image_channel_order == CL_sBGRA &&
               fmts[i].image_channel_data_type == CL_UNORM_INT8;
   cl_mem bgra = image(CL_MEM_READ_WRITE, CL_BGRA, CL_UNORM_INT8, NULL, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   d.mem_object = bgra;
   cl_image_format sb = { CL_sBGRA, CL_UNORM_INT8 };
   dv = clCreateImage(ctx, CL_MEM_READ_ONLY, &sb, &d, NULL, &err);
   CHECK_EQ_INT(err, sbgra ? CL_SUCCESS : CL_IMAGE_FORMAT_NOT_SUPPORTED);
   if (dv)
      clReleaseMemObject(dv);

   clReleaseMemObject(bgra);
   clReleaseMemObject(oimg);
   clReleaseContext(other);
   clReleaseMemObject(img3);
   clReleaseMemObject(depth);
   clReleaseMemObject(r16);
   clReleaseMemObject(hw);
   clReleaseMemObject(wo);
   clReleaseMemObject(ro);
   clReleaseMemObject(rgba);
}

static int destroyed[4], destroy_count;

static void CL_CALLBACK
on_destroy(cl_mem m, void *user)
{
   (void)m;
   destroyed[destroy_count++ & 3] = (int)(intptr_t)user;
}

/* KiB of device memory this process has not taken (cl_amd_device_attribute_query). */
static size_t
free_kib(void)
{
   size_t kib[2] = { 0, 0 };
   CHECK_EQ_INT(clGetDeviceInfo(device, CL_DEVICE_GLOBAL_FREE_MEMORY_AMD, sizeof kib, kib,
                                NULL),
                CL_SUCCESS);
   return kib[0];
}

/* Both release orders: the parent lives while a view does; nothing is left after both. */
static void
test_release_order(void)
{
   cl_int err;
   for (int parent_first = 0; parent_first < 2; parent_first++) {
      size_t before = free_kib();
      uint8_t bytes[N * 4];
      for (size_t i = 0; i < sizeof bytes; i++)
         bytes[i] = (uint8_t)(i + parent_first);
      cl_mem parent = image(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, CL_RGBA, CL_UNORM_INT8,
                            NULL, bytes, &err);
      CHECK_EQ_INT(err, CL_SUCCESS);
      size_t with_parent = free_kib();
      CHECK(with_parent < before);
      cl_mem view = view_of(parent, CL_MEM_READ_ONLY, CL_sRGBA, CL_UNORM_INT8);
      CHECK_EQ_INT(free_kib(), with_parent); /* no memory of its own */
      destroy_count = 0;
      clSetMemObjectDestructorCallback(parent, on_destroy, (void *)1);
      clSetMemObjectDestructorCallback(view, on_destroy, (void *)2);
      float got[N * 4];
      if (parent_first) {
         CHECK_EQ_INT(clReleaseMemObject(parent), CL_SUCCESS);
         CHECK_EQ_INT(destroy_count, 0);
         CHECK_EQ_INT(free_kib(), with_parent);
         read_texels(view, got); /* the parent's memory is still there */
         CHECK_EQ_INT(srgb_misses(bytes, got), 0);
         CHECK_EQ_INT(destroy_count, 0);
         CHECK_EQ_INT(clReleaseMemObject(view), CL_SUCCESS);
      } else {
         CHECK_EQ_INT(clReleaseMemObject(view), CL_SUCCESS);
         CHECK_EQ_INT(destroy_count, 1);
         read_texels(parent, got);
         CHECK_EQ_INT(linear_misses(bytes, got), 0);
         CHECK_EQ_INT(destroy_count, 1);
         CHECK_EQ_INT(clReleaseMemObject(parent), CL_SUCCESS);
      }
      /* The view goes first, then the parent it held. */
      CHECK_EQ_INT(destroy_count, 2);
      CHECK_EQ_INT(destroyed[0], 2);
      CHECK_EQ_INT(destroyed[1], 1);
      CHECK_EQ_INT(free_kib(), before);
   }
}

/* The 1.2 profile has no images from images: OpenCL 1.2's answer for a mem_object that is
 * not a buffer, whatever else is wrong. */
static void
test_refused(void)
{
   cl_int err;
   cl_mem parent = image(CL_MEM_READ_WRITE, CL_RGBA, CL_UNORM_INT8, NULL, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_mem v = image(CL_MEM_READ_ONLY, CL_sRGBA, CL_UNORM_INT8, parent, NULL, &err);
   CHECK(v == NULL);
   CHECK_EQ_INT(err, CL_INVALID_IMAGE_DESCRIPTOR);
   v = image(CL_MEM_READ_ONLY, CL_RGBA, CL_UNORM_INT8, parent, NULL, &err);
   CHECK(v == NULL);
   CHECK_EQ_INT(err, CL_INVALID_IMAGE_DESCRIPTOR);
   clReleaseMemObject(parent);
}

int
main(int argc, char **argv)
{
   test_watchdog("api_image_view_test", 240);
   const char *profile = argc > 1 ? argv[1] : "3.1";
   cl_platform_id platform;
   cl_int err;
   if (clGetPlatformIDs(1, &platform, NULL) != CL_SUCCESS ||
       clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &device, NULL) != CL_SUCCESS) {
      fprintf(stderr, "no hsacl device\n");
      return 1;
   }
   char version[64] = "";
   clGetDeviceInfo(device, CL_DEVICE_VERSION, sizeof version, version, NULL);
   CHECK(!strncmp(version + strlen("OpenCL "), profile, 3));
   cl_bool images = CL_FALSE;
   clGetDeviceInfo(device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL);
   CHECK_EQ_INT(images, CL_TRUE); /* both runtimes have the image extension */
   CHECK(test_device_lists(device, CL_DEVICE_EXTENSIONS, "cl_khr_depth_images"));
   if (!images)
      return test_main_end();
   ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   q = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   if (!strcmp(profile, "1.2")) {
      test_refused();
   } else {
      prog = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
      err = clBuildProgram(prog, 1, &device, "-cl-std=CL2.0", NULL, NULL);
      CHECK_EQ_INT(err, CL_SUCCESS);
      if (err != CL_SUCCESS) {
         char log[8192] = "";
         clGetProgramBuildInfo(prog, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
         fprintf(stderr, "%s\n", log);
         return test_main_end();
      }
      test_srgb();
      test_depth();
      test_sources();
      test_errors();
      test_release_order();
      clReleaseProgram(prog);
   }
   clReleaseCommandQueue(q);
   clReleaseContext(ctx);
   return test_main_end();
}
