/*
 * tests/memory/api_image_kernel_test.c — kernels with images and samplers end to end (OpenCL 3.0
 * API §5.7, §5.9.2; OpenCL C §6.13.14): read_imagef/i/ui with and without samplers (kernel
 * argument, program-scope constant sampler_t, literal sampler), write_imagef/i/ui, the
 * get_image_* queries, 1D/1D-array/2D-array/3D reads (1D writes), NEAREST exact and LINEAR
 * within a tolerance; sRGB decode, packed 565 / 101010 unpacking; sampler objects and their errors; clSetKernelArg's image and
 * sampler checks. Expected values are computed on the host from the texels written.
 *
 * Without image support (the software runtime before sim/ provides the image extension)
 * it checks that the kernels still build and that image/sampler arguments are refused.
 */
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>

#include "hsacl_test.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

static const char *source =
   "constant sampler_t prog_nearest = CLK_NORMALIZED_COORDS_FALSE |\n"
   "   CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;\n"
   "kernel void copy_f(read_only image2d_t src, write_only image2d_t dst) {\n"
   "   int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
   "   write_imagef(dst, p, read_imagef(src, p));\n"
   "}\n"
   "kernel void copy_ui(read_only image2d_t src, write_only image2d_t dst, sampler_t s) {\n"
   "   int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
   "   write_imageui(dst, p, read_imageui(src, s, p));\n"
   "}\n"
   "kernel void copy_i(read_only image2d_t src, write_only image2d_t dst) {\n"
   "   int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
   "   write_imagei(dst, p, read_imagei(src, prog_nearest, p) * 2);\n"
   "}\n"
   "kernel void literal(read_only image2d_t src, global float4 *out) {\n"
   "   int x = get_global_id(0), y = get_global_id(1);\n"
   "   float2 c = (float2)((x + 0.5f) / get_image_width(src), (y + 0.5f) / get_image_height(src));\n"
   "   out[y * get_image_width(src) + x] = read_imagef(src,\n"
   "      CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST, c);\n"
   "}\n"
   "kernel void literal_border(read_only image2d_t src, global float4 *out) {\n"
   "   const sampler_t s = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;\n"
   "   out[0] = read_imagef(src, s, (float2)(-3.0f, 1.5f));\n"
   "   out[1] = read_imagef(src, s, (float2)(1.5f, 100.0f));\n"
   "}\n"
   "kernel void border(read_only image2d_t src, sampler_t s, global float4 *out) {\n"
   "   out[0] = read_imagef(src, s, (float2)(-3.0f, 1.5f));\n"
   "   out[1] = read_imagef(src, s, (float2)(1.5f, 100.0f));\n"
   "}\n"
   "kernel void lin(read_only image2d_t src, sampler_t s, global float4 *out) {\n"
   "   int x = get_global_id(0), y = get_global_id(1);\n"
   "   out[y * get_image_width(src) + x] = read_imagef(src, s, (float2)(x + 0.75f, y + 0.5f));\n"
   "}\n"
   "kernel void read_f(read_only image2d_t src, global float4 *out) {\n"
   "   int x = get_global_id(0);\n"
   "   out[x] = read_imagef(src, (int2)(x, 0));\n"
   "}\n"
   "kernel void queries(read_only image3d_t a, read_only image2d_array_t b,\n"
   "                    read_only image1d_array_t c, global int *out) {\n"
   "   out[0] = get_image_width(a); out[1] = get_image_height(a); out[2] = get_image_depth(a);\n"
   "   out[3] = get_image_channel_data_type(a); out[4] = get_image_channel_order(a);\n"
   "   out[5] = get_image_array_size(b); out[6] = get_image_height(b);\n"
   "   out[7] = get_image_array_size(c); out[8] = get_image_width(c);\n"
   "   out[9] = get_image_channel_order(b); out[10] = get_image_channel_data_type(c);\n"
   "}\n"
   "kernel void read3d(read_only image3d_t a, global uint4 *out) {\n"
   "   int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);\n"
   "   out[(z * get_image_height(a) + y) * get_image_width(a) + x] =\n"
   "      read_imageui(a, prog_nearest, (int4)(x, y, z, 0));\n"
   "}\n"
   "kernel void read2da(read_only image2d_array_t a, global uint4 *out) {\n"
   "   int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);\n"
   "   out[(z * get_image_height(a) + y) * get_image_width(a) + x] =\n"
   "      read_imageui(a, (int4)(x, y, z, 0));\n"
   "}\n"
   "kernel void read1da(read_only image1d_array_t a, global uint4 *out) {\n"
   "   int x = get_global_id(0), l = get_global_id(1);\n"
   "   out[l * get_image_width(a) + x] = read_imageui(a, (int2)(x, l));\n"
   "}\n"
   "kernel void read1d(read_only image1d_t a, global float4 *out) {\n"
   "   int x = get_global_id(0);\n"
   "   out[x] = read_imagef(a, x);\n"
   "}\n"
   "kernel void write1d(write_only image1d_t a) {\n"
   "   int x = get_global_id(0);\n"
   "   write_imagef(a, x, (float4)(x / 255.0f, 1.0f - x / 255.0f, 0.5f, 1.0f));\n"
   "}\n"
   /* Kernels on 1D buffer images are buffer_load/store_format_* on gfx9, which sim/isa
    * does not model yet: their objects and commands are tested in
    * api_image_objects_test.c. */
   ;

static cl_context ctx;
static cl_command_queue q;
static cl_program prog;

static cl_kernel
kernel(const char *name)
{
   cl_int err;
   cl_kernel k = clCreateKernel(prog, name, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   return k;
}

static cl_image_desc
desc2d(size_t w, size_t h)
{
   return (cl_image_desc){ .image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = w,
                           .image_height = h };
}

static void
run2d(cl_kernel k, size_t w, size_t h)
{
   size_t g[2] = { w, h };
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 2, NULL, g, NULL, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
}

/* Runs `k` (its last argument `out`) as one work-item and reads its two float4 results. */
static void
run_two_reads(cl_kernel k, cl_mem out, float fo[8])
{
   size_t one = 1;
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, NULL, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueReadBuffer(q, out, CL_TRUE, 0, 32, fo, 0, NULL, NULL), CL_SUCCESS);
}

enum { W = 16, H = 8 };

static void
test_copies(void)
{
   cl_int err;
   cl_image_format f8 = { CL_RGBA, CL_UNORM_INT8 };
   cl_image_desc d = desc2d(W, H);
   uint8_t px[W * H * 4], back[W * H * 4];
   for (size_t i = 0; i < sizeof px; i++)
      px[i] = (uint8_t)(i * 37 + 11);
   cl_mem src = clCreateImage(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &f8, &d, px, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_mem dst = clCreateImage(ctx, CL_MEM_WRITE_ONLY, &f8, &d, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   size_t o[3] = { 0, 0, 0 }, r[3] = { W, H, 1 };

   /* Samplerless read_imagef / write_imagef: UNORM8 -> float -> UNORM8 is exact. */
   cl_kernel k = kernel("copy_f");
   CHECK_EQ_INT(clSetKernelArg(k, 0, sizeof src, &src), CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArg(k, 1, sizeof dst, &dst), CL_SUCCESS);
   /* Access qualifiers: a CL_MEM_WRITE_ONLY image is no read_only argument and vice versa. */
   CHECK_EQ_INT(clSetKernelArg(k, 0, sizeof dst, &dst), CL_INVALID_ARG_VALUE);
   CHECK_EQ_INT(clSetKernelArg(k, 1, sizeof src, &src), CL_INVALID_ARG_VALUE);
   cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, &err);
   CHECK_EQ_INT(clSetKernelArg(k, 0, sizeof buf, &buf), CL_INVALID_MEM_OBJECT);
   CHECK_EQ_INT(clSetKernelArg(k, 0, 4, &src), CL_INVALID_ARG_SIZE);
   CHECK_EQ_INT(clSetKernelArg(k, 0, sizeof src, NULL), CL_INVALID_MEM_OBJECT);
   run2d(k, W, H);
   memset(back, 0, sizeof back);
   CHECK_EQ_INT(clEnqueueReadImage(q, dst, CL_TRUE, o, r, 0, 0, back, 0, NULL, NULL),
                CL_SUCCESS);
   CHECK(memcmp(back, px, sizeof px) == 0);
   clReleaseKernel(k);

   /* Literal sampler, normalized coordinates at texel centres: exact texels. */
   k = kernel("literal");
   cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, W * H * 16, NULL, &err);
   clSetKernelArg(k, 0, sizeof src, &src);
   clSetKernelArg(k, 1, sizeof out, &out);
   run2d(k, W, H);
   float fo[W * H * 4];
   CHECK_EQ_INT(clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof fo, fo, 0, NULL, NULL),
                CL_SUCCESS);
   size_t bad = 0;
   for (size_t i = 0; i < W * H * 4; i++)
      bad += fabsf(fo[i] - px[i] / 255.0f) > 1e-6f;
   CHECK_EQ_INT(bad, 0);
   clReleaseKernel(k);

   /* A literal CLAMP sampler outside the image: the border colour, (0,0,0,0) for RGBA
    * (transparent black on every generation; opencl.bc's gfx10 table asks for opaque black). */
   k = kernel("literal_border");
   clSetKernelArg(k, 0, sizeof src, &src);
   clSetKernelArg(k, 1, sizeof out, &out);
   run_two_reads(k, out, fo);
   for (int i = 0; i < 8; i++)
      CHECK(fo[i] == 0.0f);
   clReleaseKernel(k);

   /* A sampler argument: CLAMP gives the border colour (0,0,0,0 for RGBA) outside,
    * CLAMP_TO_EDGE the edge texel. */
   cl_sampler clamp = clCreateSampler(ctx, CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_sampler edge = clCreateSampler(ctx, CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST,
                                     &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   k = kernel("border");
   clSetKernelArg(k, 0, sizeof src, &src);
   CHECK_EQ_INT(clSetKernelArg(k, 1, sizeof clamp, &clamp), CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArg(k, 1, sizeof clamp, NULL), CL_INVALID_SAMPLER);
   CHECK_EQ_INT(clSetKernelArg(k, 1, sizeof src, &src), CL_INVALID_SAMPLER);
   CHECK_EQ_INT(clSetKernelArg(k, 1, 4, &clamp), CL_INVALID_ARG_SIZE);
   clSetKernelArg(k, 2, sizeof out, &out);
   run_two_reads(k, out, fo);
   for (int i = 0; i < 8; i++)
      CHECK(fo[i] == 0.0f);
   CHECK_EQ_INT(clSetKernelArg(k, 1, sizeof edge, &edge), CL_SUCCESS);
   run_two_reads(k, out, fo);
   /* (-3, 1.5) -> texel (0, 1); (1.5, 100) -> texel (1, H - 1). */
   for (int c = 0; c < 4; c++) {
      CHECK(fabsf(fo[c] - px[(1 * W + 0) * 4 + c] / 255.0f) < 1e-6f);
      CHECK(fabsf(fo[4 + c] - px[((H - 1) * W + 1) * 4 + c] / 255.0f) < 1e-6f);
   }
   clReleaseKernel(k);

   /* Unsigned integers through a sampler argument; signed through the program-scope
    * sampler (the kernel doubles them). */
   cl_image_format fu = { CL_RGBA, CL_UNSIGNED_INT32 };
   uint32_t u[W * H * 4], ub[W * H * 4];
   for (size_t i = 0; i < W * H * 4; i++)
      u[i] = (uint32_t)(i * 2654435761u);
   cl_mem usrc = clCreateImage(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &fu, &d, u, &err);
   cl_mem udst = clCreateImage(ctx, CL_MEM_WRITE_ONLY, &fu, &d, NULL, &err);
   k = kernel("copy_ui");
   clSetKernelArg(k, 0, sizeof usrc, &usrc);
   clSetKernelArg(k, 1, sizeof udst, &udst);
   clSetKernelArg(k, 2, sizeof edge, &edge);
   run2d(k, W, H);
   CHECK_EQ_INT(clEnqueueReadImage(q, udst, CL_TRUE, o, r, 0, 0, ub, 0, NULL, NULL), CL_SUCCESS);
   CHECK(memcmp(u, ub, sizeof u) == 0);
   clReleaseKernel(k);
   cl_image_format fi = { CL_RG, CL_SIGNED_INT16 };
   int16_t s16[W * H * 2], s16b[W * H * 2];
   for (size_t i = 0; i < W * H * 2; i++)
      s16[i] = (int16_t)((int)(i * 97) % 16000 - 8000);
   cl_mem isrc = clCreateImage(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &fi, &d, s16, &err);
   cl_mem idst = clCreateImage(ctx, CL_MEM_WRITE_ONLY, &fi, &d, NULL, &err);
   k = kernel("copy_i");
   clSetKernelArg(k, 0, sizeof isrc, &isrc);
   clSetKernelArg(k, 1, sizeof idst, &idst);
   run2d(k, W, H);
   CHECK_EQ_INT(clEnqueueReadImage(q, idst, CL_TRUE, o, r, 0, 0, s16b, 0, NULL, NULL),
                CL_SUCCESS);
   bad = 0;
   for (size_t i = 0; i < W * H * 2; i++)
      bad += s16b[i] != (int16_t)(s16[i] * 2);
   CHECK_EQ_INT(bad, 0);
   clReleaseKernel(k);

   /* LINEAR filtering of a float image, a quarter of the way to the next texel
    * (CLAMP_TO_EDGE at the right edge). The texture unit's weights are fixed point: the
    * CTS allows far more than the 1e-3 used here for values in [0, 1]. */
   cl_image_format ff = { CL_RGBA, CL_FLOAT };
   float fl[W * H * 4];
   for (size_t i = 0; i < W * H * 4; i++)
      fl[i] = (float)((i * 7919) % 1000) / 1000.0f;
   cl_mem fsrc = clCreateImage(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &ff, &d, fl, &err);
   cl_sampler lin = clCreateSampler(ctx, CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR,
                                    &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   k = kernel("lin");
   clSetKernelArg(k, 0, sizeof fsrc, &fsrc);
   clSetKernelArg(k, 1, sizeof lin, &lin);
   clSetKernelArg(k, 2, sizeof out, &out);
   run2d(k, W, H);
   CHECK_EQ_INT(clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof fo, fo, 0, NULL, NULL),
                CL_SUCCESS);
   bad = 0;
   for (size_t y = 0; y < H; y++)
      for (size_t x = 0; x < W; x++)
         for (int c = 0; c < 4; c++) {
            size_t x1 = x + 1 < W ? x + 1 : W - 1;
            float want = 0.75f * fl[(y * W + x) * 4 + c] + 0.25f * fl[(y * W + x1) * 4 + c];
            bad += fabsf(fo[(y * W + x) * 4 + c] - want) > 1e-3f;
         }
   CHECK_EQ_INT(bad, 0);
   clReleaseKernel(k);
   /* Releasing a sampler while a kernel that uses it is queued is safe (internal
    * references); the kernel keeps working. */
   clReleaseSampler(lin);

   clReleaseSampler(clamp);
   clReleaseSampler(edge);
   cl_mem all[] = { src, dst, buf, out, usrc, udst, isrc, idst, fsrc };
   for (size_t i = 0; i < sizeof all / sizeof *all; i++)
      clReleaseMemObject(all[i]);
}

static void
test_geometries(void)
{
   cl_int err;
   enum { X = 7, Y = 5, Z = 3 };
   cl_image_format fu = { CL_RGBA, CL_UNSIGNED_INT8 };
   uint8_t t[X * Y * Z * 4];
   for (size_t i = 0; i < sizeof t; i++)
      t[i] = (uint8_t)(i * 13 + 1);
   cl_image_desc d3 = { .image_type = CL_MEM_OBJECT_IMAGE3D, .image_width = X,
                        .image_height = Y, .image_depth = Z };
   cl_image_desc d2a = { .image_type = CL_MEM_OBJECT_IMAGE2D_ARRAY, .image_width = X,
                         .image_height = Y, .image_array_size = Z };
   cl_image_desc d1a = { .image_type = CL_MEM_OBJECT_IMAGE1D_ARRAY, .image_width = X,
                         .image_array_size = Y };
   cl_mem i3 = clCreateImage(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &fu, &d3, t, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_mem i2a = clCreateImage(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &fu, &d2a, t, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_mem i1a = clCreateImage(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &fu, &d1a, t, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(uint32_t) * 4 * X * Y * Z, NULL,
                               &err);
   uint32_t res[X * Y * Z * 4];

   cl_kernel k = kernel("queries");
   clSetKernelArg(k, 0, sizeof i3, &i3);
   clSetKernelArg(k, 1, sizeof i2a, &i2a);
   clSetKernelArg(k, 2, sizeof i1a, &i1a);
   clSetKernelArg(k, 3, sizeof out, &out);
   size_t one = 1;
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, NULL, 0, NULL, NULL), CL_SUCCESS);
   int32_t qv[11];
   CHECK_EQ_INT(clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof qv, qv, 0, NULL, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(qv[0], X);
   CHECK_EQ_INT(qv[1], Y);
   CHECK_EQ_INT(qv[2], Z);
   CHECK_EQ_INT(qv[3], CL_UNSIGNED_INT8);
   CHECK_EQ_INT(qv[4], CL_RGBA);
   CHECK_EQ_INT(qv[5], Z);
   CHECK_EQ_INT(qv[6], Y);
   CHECK_EQ_INT(qv[7], Y);
   CHECK_EQ_INT(qv[8], X);
   CHECK_EQ_INT(qv[9], CL_RGBA);
   CHECK_EQ_INT(qv[10], CL_UNSIGNED_INT8);
   clReleaseKernel(k);

   const char *names[] = { "read3d", "read2da" };
   cl_mem imgs[] = { i3, i2a };
   for (int n = 0; n < 2; n++) {
      k = kernel(names[n]);
      clSetKernelArg(k, 0, sizeof imgs[n], &imgs[n]);
      clSetKernelArg(k, 1, sizeof out, &out);
      size_t g[3] = { X, Y, Z };
      CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 3, NULL, g, NULL, 0, NULL, NULL), CL_SUCCESS);
      CHECK_EQ_INT(clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof res, res, 0, NULL, NULL),
                   CL_SUCCESS);
      size_t bad = 0;
      for (size_t i = 0; i < X * Y * Z * 4; i++)
         bad += res[i] != t[i];
      CHECK_EQ_INT(bad, 0);
      clReleaseKernel(k);
   }
   k = kernel("read1da");
   clSetKernelArg(k, 0, sizeof i1a, &i1a);
   clSetKernelArg(k, 1, sizeof out, &out);
   run2d(k, X, Y);
   CHECK_EQ_INT(clEnqueueReadBuffer(q, out, CL_TRUE, 0, X * Y * 16, res, 0, NULL, NULL),
                CL_SUCCESS);
   size_t bad = 0;
   for (size_t i = 0; i < X * Y * 4; i++)
      bad += res[i] != t[i];
   CHECK_EQ_INT(bad, 0);
   clReleaseKernel(k);

   /* 1D: a kernel writes, another reads (UNORM8 through float). */
   cl_image_format f8 = { CL_RGBA, CL_UNORM_INT8 };
   cl_image_desc d1 = { .image_type = CL_MEM_OBJECT_IMAGE1D, .image_width = 64 };
   cl_mem i1 = clCreateImage(ctx, CL_MEM_READ_WRITE, &f8, &d1, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   k = kernel("write1d");
   clSetKernelArg(k, 0, sizeof i1, &i1);
   size_t g = 64;
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL), CL_SUCCESS);
   clReleaseKernel(k);
   uint8_t b1[64 * 4];
   size_t o[3] = { 0, 0, 0 }, r[3] = { 64, 1, 1 };
   CHECK_EQ_INT(clEnqueueReadImage(q, i1, CL_TRUE, o, r, 0, 0, b1, 0, NULL, NULL), CL_SUCCESS);
   bad = 0;
   for (int x = 0; x < 64; x++)
      bad += b1[x * 4] != x || b1[x * 4 + 1] != 255 - x || b1[x * 4 + 2] != 128 ||
             b1[x * 4 + 3] != 255;
   CHECK_EQ_INT(bad, 0);
   k = kernel("read1d");
   clSetKernelArg(k, 0, sizeof i1, &i1);
   clSetKernelArg(k, 1, sizeof out, &out);
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL), CL_SUCCESS);
   float f1[64 * 4];
   CHECK_EQ_INT(clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof f1, f1, 0, NULL, NULL),
                CL_SUCCESS);
   bad = 0;
   for (int i = 0; i < 64 * 4; i++)
      bad += fabsf(f1[i] - b1[i] / 255.0f) > 1e-6f;
   CHECK_EQ_INT(bad, 0);
   clReleaseKernel(k);

   cl_mem all[] = { i3, i2a, i1a, out, i1 };
   for (size_t i = 0; i < sizeof all / sizeof *all; i++)
      clReleaseMemObject(all[i]);
}

static float
srgb_to_linear(float c)
{
   return c <= 0.04045f ? c / 12.92f : powf((c + 0.055f) / 1.055f, 2.4f);
}

/* sRGB reads decode to linear; packed RGB formats unpack to [0, 1] with alpha 1. */
static void
test_format_reads(void)
{
   cl_int err;
   enum { N = 64 };
   cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * 16, NULL, &err);
   cl_image_desc d = desc2d(N, 1);
   float fo[N * 4];
   size_t g = N;
   cl_kernel k = kernel("read_f");
   clSetKernelArg(k, 1, sizeof out, &out);

   cl_image_format fs = { CL_sRGBA, CL_UNORM_INT8 };
   uint8_t s8[N * 4];
   for (int i = 0; i < N * 4; i++)
      s8[i] = (uint8_t)(i * 5 + 3);
   cl_mem img = clCreateImage(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &fs, &d, s8, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   clSetKernelArg(k, 0, sizeof img, &img);
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof fo, fo, 0, NULL, NULL),
                CL_SUCCESS);
   size_t bad = 0;
   for (int i = 0; i < N * 4; i++) {
      float want = i % 4 == 3 ? s8[i] / 255.0f : srgb_to_linear(s8[i] / 255.0f);
      bad += fabsf(fo[i] - want) > 2e-3f;
   }
   CHECK_EQ_INT(bad, 0);
   clReleaseMemObject(img);

   cl_image_format f5 = { CL_RGB, CL_UNORM_SHORT_565 };
   uint16_t p5[N];
   for (int i = 0; i < N; i++)
      p5[i] = (uint16_t)(i * 1021 + 7);
   img = clCreateImage(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &f5, &d, p5, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   clSetKernelArg(k, 0, sizeof img, &img);
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof fo, fo, 0, NULL, NULL),
                CL_SUCCESS);
   bad = 0;
   for (int i = 0; i < N; i++) {
      float want[4] = { (p5[i] >> 11) / 31.0f, ((p5[i] >> 5) & 63) / 63.0f, (p5[i] & 31) / 31.0f,
                        1.0f };
      for (int c = 0; c < 4; c++)
         bad += fabsf(fo[i * 4 + c] - want[c]) > 1e-6f;
   }
   CHECK_EQ_INT(bad, 0);
   clReleaseMemObject(img);

   cl_image_format f10 = { CL_RGB, CL_UNORM_INT_101010 };
   uint32_t p10[N];
   for (int i = 0; i < N; i++)
      p10[i] = (uint32_t)i * 2654435761u;
   img = clCreateImage(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &f10, &d, p10, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   clSetKernelArg(k, 0, sizeof img, &img);
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof fo, fo, 0, NULL, NULL),
                CL_SUCCESS);
   bad = 0;
   for (int i = 0; i < N; i++) {
      float want[4] = { ((p10[i] >> 20) & 1023) / 1023.0f, ((p10[i] >> 10) & 1023) / 1023.0f,
                        (p10[i] & 1023) / 1023.0f, 1.0f };
      for (int c = 0; c < 4; c++)
         bad += fabsf(fo[i * 4 + c] - want[c]) > 1e-6f;
   }
   CHECK_EQ_INT(bad, 0);
   clReleaseMemObject(img);
   clReleaseKernel(k);
   clReleaseMemObject(out);
}

static void
test_samplers(void)
{
   cl_int err;
   cl_sampler_properties props[] = { CL_SAMPLER_NORMALIZED_COORDS, CL_FALSE,
                                     CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, 0 };
   cl_sampler s = clCreateSamplerWithProperties(ctx, props, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_bool b = CL_TRUE;
   cl_addressing_mode am = 0;
   cl_filter_mode fm = 0;
   cl_uint rc = 0;
   cl_context c = NULL;
   CHECK_EQ_INT(clGetSamplerInfo(s, CL_SAMPLER_NORMALIZED_COORDS, sizeof b, &b, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(b, CL_FALSE);
   CHECK_EQ_INT(clGetSamplerInfo(s, CL_SAMPLER_ADDRESSING_MODE, sizeof am, &am, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(am, CL_ADDRESS_CLAMP); /* the default */
   CHECK_EQ_INT(clGetSamplerInfo(s, CL_SAMPLER_FILTER_MODE, sizeof fm, &fm, NULL), CL_SUCCESS);
   CHECK_EQ_INT(fm, CL_FILTER_LINEAR);
   CHECK_EQ_INT(clGetSamplerInfo(s, CL_SAMPLER_CONTEXT, sizeof c, &c, NULL), CL_SUCCESS);
   CHECK(c == ctx);
   CHECK_EQ_INT(clRetainSampler(s), CL_SUCCESS);
   CHECK_EQ_INT(clGetSamplerInfo(s, CL_SAMPLER_REFERENCE_COUNT, sizeof rc, &rc, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(rc, 2);
   size_t psize = 0;
   CHECK_EQ_INT(clGetSamplerInfo(s, CL_SAMPLER_PROPERTIES, 0, NULL, &psize), CL_SUCCESS);
   CHECK_EQ_INT(psize, sizeof props);
   CHECK_EQ_INT(clGetSamplerInfo(s, 0x7777, sizeof rc, &rc, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(clGetSamplerInfo(s, CL_SAMPLER_REFERENCE_COUNT, 1, &rc, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(clReleaseSampler(s), CL_SUCCESS);
   CHECK_EQ_INT(clReleaseSampler(s), CL_SUCCESS);
   CHECK_EQ_INT(clGetSamplerInfo(NULL, CL_SAMPLER_CONTEXT, sizeof c, &c, NULL),
                CL_INVALID_SAMPLER);
   CHECK_EQ_INT(clReleaseSampler(NULL), CL_INVALID_SAMPLER);
   CHECK_EQ_INT(clRetainSampler((cl_sampler)ctx), CL_INVALID_SAMPLER);

   CHECK(clCreateSampler(NULL, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_CONTEXT);
   CHECK(clCreateSampler(ctx, 7, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_VALUE);
   CHECK(clCreateSampler(ctx, CL_TRUE, 0x7777, CL_FILTER_NEAREST, &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_VALUE);
   CHECK(clCreateSampler(ctx, CL_TRUE, CL_ADDRESS_CLAMP, 0x7777, &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_VALUE);
   cl_sampler_properties badp[] = { 0x7777, 1, 0 };
   CHECK(clCreateSamplerWithProperties(ctx, badp, &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_VALUE);
   cl_sampler_properties twice[] = { CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR,
                                     CL_SAMPLER_FILTER_MODE, CL_FILTER_NEAREST, 0 };
   CHECK(clCreateSamplerWithProperties(ctx, twice, &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_VALUE);
   s = clCreateSamplerWithProperties(ctx, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   CHECK_EQ_INT(clGetSamplerInfo(s, CL_SAMPLER_NORMALIZED_COORDS, sizeof b, &b, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(b, CL_TRUE);
   clReleaseSampler(s);
}

int
main(void)
{
   test_watchdog("api_image_kernel_test", 240);
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
   cl_bool images = CL_FALSE;
   clGetDeviceInfo(device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL);
   const char *rt = getenv("HSACL_RUNTIME");
   if (rt && !strcmp(rt, "rocr"))
      CHECK_EQ_INT(images, CL_TRUE);
   prog = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   err = clBuildProgram(prog, 1, &device, "", NULL, NULL);
   CHECK_EQ_INT(err, CL_SUCCESS);
   if (err != CL_SUCCESS) {
      char log[8192] = "";
      clGetProgramBuildInfo(prog, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
      fprintf(stderr, "%s\n", log);
      return test_main_end();
   }
   /* __IMAGE_SUPPORT__ is defined exactly on image devices (OpenCL C §6.13.14). */
   static const char *probe = "kernel void k(global int *o) {\n"
                              "#ifdef __IMAGE_SUPPORT__\n o[0] = 1;\n#else\n o[0] = 0;\n#endif\n}\n";
   cl_program pp = clCreateProgramWithSource(ctx, 1, &probe, NULL, &err);
   CHECK_EQ_INT(clBuildProgram(pp, 1, &device, "", NULL, NULL), CL_SUCCESS);
   cl_kernel pk = clCreateKernel(pp, "k", &err);
   cl_mem pb = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4, NULL, &err);
   clSetKernelArg(pk, 0, sizeof pb, &pb);
   size_t one = 1;
   int v = -1;
   clEnqueueNDRangeKernel(q, pk, 1, NULL, &one, NULL, 0, NULL, NULL);
   clEnqueueReadBuffer(q, pb, CL_TRUE, 0, 4, &v, 0, NULL, NULL);
   CHECK_EQ_INT(v, images ? 1 : 0);
   clReleaseMemObject(pb);
   clReleaseKernel(pk);
   clReleaseProgram(pp);

   if (images) {
      test_copies();
      test_format_reads();
      test_geometries();
      test_samplers();
   } else {
      cl_kernel k = kernel("copy_f");
      cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, &err);
      CHECK_EQ_INT(clSetKernelArg(k, 0, sizeof buf, &buf), CL_INVALID_MEM_OBJECT);
      clReleaseKernel(k);
      clReleaseMemObject(buf);
   }
   clReleaseProgram(prog);
   clReleaseCommandQueue(q);
   clReleaseContext(ctx);
   return test_main_end();
}
