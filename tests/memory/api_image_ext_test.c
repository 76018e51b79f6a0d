/*
 * tests/memory/api_image_ext_test.c — what an image device reports beyond core images, each end to
 * end on the runtime it runs on: read_write images (__opencl_c_read_write_images,
 * CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS, CL_MEM_KERNEL_READ_AND_WRITE formats), 3D image
 * writes (cl_khr_3d_image_writes), depth images (cl_khr_depth_images), 2D images over a
 * buffer's memory (cl_khr_image2d_from_buffer), kernels on 1D buffer images, and image
 * kernels from SPIR-V (argv[1], api_image_kernels.cl made by clang-15 and llvm-spirv-15)
 * with the SPIR-V image capabilities cl_khr_spirv_queries lists. A device with image
 * support must report and pass all of them; one without reports none.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include "hsacl_cl_test.h"
#include "hsacl_test.h"

#include <math.h>
#include <stdint.h>

static const char *source =
   "#pragma OPENCL EXTENSION cl_khr_3d_image_writes : enable\n"
   "#pragma OPENCL EXTENSION cl_khr_depth_images : enable\n"
   "kernel void rw(read_write image2d_t img) {\n"
   "   int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
   "   float4 v = read_imagef(img, p);\n"
   "   write_imagef(img, p, v * 0.5f + (float4)(0.25f));\n"
   "}\n"
   "kernel void rw_ui(read_write image2d_t img) {\n"
   "   int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
   "   uint4 v = read_imageui(img, p);\n"
   "   atomic_work_item_fence(CLK_IMAGE_MEM_FENCE, memory_order_acq_rel, memory_scope_work_item);\n"
   "   write_imageui(img, p, v + (uint4)(1, 2, 3, 4));\n"
   "}\n"
   "kernel void w3d(write_only image3d_t img) {\n"
   "   int4 p = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);\n"
   "   write_imageui(img, p, (uint4)(p.x, p.y, p.z, p.x + p.y + p.z));\n"
   "}\n"
   "kernel void depth(read_only image2d_depth_t src, write_only image2d_depth_t dst,\n"
   "                  global float *out) {\n"
   "   int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
   "   float v = read_imagef(src, p);\n"
   "   out[p.y * get_image_width(src) + p.x] = v;\n"
   "   write_imagef(dst, p, 1.0f - v);\n"
   "}\n"
   "kernel void from_buf(read_only image2d_t img, write_only image2d_t dst) {\n"
   "   int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
   "   write_imageui(dst, p, read_imageui(img, p) * 2);\n"
   "}\n"
   "kernel void read1db(read_only image1d_buffer_t a, global uint4 *out) {\n"
   "   int x = get_global_id(0);\n"
   "   out[x] = read_imageui(a, x);\n"
   "}\n"
   "kernel void write1db(write_only image1d_buffer_t a) {\n"
   "   int x = get_global_id(0);\n"
   "   write_imageui(a, x, (uint4)(x, x + 1, x * 3, 255 - x));\n"
   "}\n";

static cl_device_id device;
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

static void
run(cl_kernel k, cl_uint dims, size_t x, size_t y, size_t z)
{
   size_t g[3] = { x, y, z };
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, dims, NULL, g, NULL, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
}

static bool
listed(const cl_image_format *list, cl_uint n, cl_channel_order o, cl_channel_type t)
{
   for (cl_uint i = 0; i < n; i++)
      if (list[i].image_channel_order == o && list[i].image_channel_data_type == t)
         return true;
   return false;
}

static void
test_read_write(void)
{
   cl_int err;
   cl_uint n = 0, max = 0;
   CHECK_EQ_INT(clGetDeviceInfo(device, CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS, sizeof max, &max,
                                NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(max, 64);
   clGetSupportedImageFormats(ctx, CL_MEM_KERNEL_READ_AND_WRITE, CL_MEM_OBJECT_IMAGE2D, 0, NULL,
                              &n);
   cl_image_format list[512];
   CHECK(n <= 512);
   clGetSupportedImageFormats(ctx, CL_MEM_KERNEL_READ_AND_WRITE, CL_MEM_OBJECT_IMAGE2D, 512,
                              list, NULL);
   /* OpenCL 3.0 "Minimum list of supported image formats", read and write. */
   static const cl_channel_type types[] = { CL_UNORM_INT8,    CL_SIGNED_INT8,   CL_SIGNED_INT16,
                                            CL_SIGNED_INT32,  CL_UNSIGNED_INT8, CL_UNSIGNED_INT16,
                                            CL_UNSIGNED_INT32, CL_HALF_FLOAT,   CL_FLOAT };
   for (size_t i = 0; i < sizeof types / sizeof *types; i++) {
      CHECK(listed(list, n, CL_RGBA, types[i]));
      CHECK(listed(list, n, CL_R, types[i]));
   }
   CHECK(!listed(list, n, CL_sRGBA, CL_UNORM_INT8));

   enum { W = 13, H = 6 };
   cl_image_format f = { CL_RGBA, CL_FLOAT };
   cl_image_desc d = { .image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = W, .image_height = H };
   float px[W * H * 4], back[W * H * 4];
   for (int i = 0; i < W * H * 4; i++)
      px[i] = (float)(i % 17) / 16.0f;
   cl_mem img = clCreateImage(ctx, CL_MEM_READ_WRITE | CL_MEM_KERNEL_READ_AND_WRITE |
                                      CL_MEM_COPY_HOST_PTR, &f, &d, px, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_kernel k = kernel("rw");
   CHECK_EQ_INT(clSetKernelArg(k, 0, sizeof img, &img), CL_SUCCESS);
   /* A read_write argument takes no read-only or write-only image. */
   cl_mem ro = clCreateImage(ctx, CL_MEM_READ_ONLY, &f, &d, NULL, &err);
   CHECK_EQ_INT(clSetKernelArg(k, 0, sizeof ro, &ro), CL_INVALID_ARG_VALUE);
   clReleaseMemObject(ro);
   run(k, 2, W, H, 1);
   size_t o[3] = { 0, 0, 0 }, r[3] = { W, H, 1 };
   CHECK_EQ_INT(clEnqueueReadImage(q, img, CL_TRUE, o, r, 0, 0, back, 0, NULL, NULL), CL_SUCCESS);
   size_t bad = 0;
   for (int i = 0; i < W * H * 4; i++)
      bad += back[i] != px[i] * 0.5f + 0.25f;
   CHECK_EQ_INT(bad, 0);
   clReleaseKernel(k);
   clReleaseMemObject(img);

   cl_image_format fu = { CL_R, CL_UNSIGNED_INT16 };
   uint16_t u[W * H], ub[W * H];
   for (int i = 0; i < W * H; i++)
      u[i] = (uint16_t)(i * 311);
   img = clCreateImage(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &fu, &d, u, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   k = kernel("rw_ui");
   clSetKernelArg(k, 0, sizeof img, &img);
   run(k, 2, W, H, 1);
   run(k, 2, W, H, 1);
   CHECK_EQ_INT(clEnqueueReadImage(q, img, CL_TRUE, o, r, 0, 0, ub, 0, NULL, NULL), CL_SUCCESS);
   bad = 0;
   for (int i = 0; i < W * H; i++)
      bad += ub[i] != (uint16_t)(u[i] + 2);
   CHECK_EQ_INT(bad, 0);
   clReleaseKernel(k);
   clReleaseMemObject(img);
}

static void
test_3d_writes(void)
{
   cl_int err;
   enum { X = 9, Y = 4, Z = 5 };
   cl_image_format f = { CL_RGBA, CL_UNSIGNED_INT16 };
   cl_image_desc d = { .image_type = CL_MEM_OBJECT_IMAGE3D, .image_width = X, .image_height = Y,
                       .image_depth = Z };
   cl_uint n = 0;
   clGetSupportedImageFormats(ctx, CL_MEM_WRITE_ONLY, CL_MEM_OBJECT_IMAGE3D, 0, NULL, &n);
   CHECK(n > 0);
   cl_mem img = clCreateImage(ctx, CL_MEM_WRITE_ONLY, &f, &d, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_kernel k = kernel("w3d");
   clSetKernelArg(k, 0, sizeof img, &img);
   run(k, 3, X, Y, Z);
   uint16_t back[X * Y * Z * 4];
   size_t o[3] = { 0, 0, 0 }, r[3] = { X, Y, Z };
   CHECK_EQ_INT(clEnqueueReadImage(q, img, CL_TRUE, o, r, 0, 0, back, 0, NULL, NULL), CL_SUCCESS);
   size_t bad = 0;
   for (int z = 0; z < Z; z++)
      for (int y = 0; y < Y; y++)
         for (int x = 0; x < X; x++) {
            const uint16_t *t = back + ((z * Y + y) * X + x) * 4;
            bad += t[0] != x || t[1] != y || t[2] != z || t[3] != x + y + z;
         }
   CHECK_EQ_INT(bad, 0);
   clReleaseKernel(k);
   clReleaseMemObject(img);
}

static void
test_depth(void)
{
   cl_int err;
   enum { W = 11, H = 3 };
   cl_uint n = 0;
   cl_image_format list[512];
   clGetSupportedImageFormats(ctx, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 512, list, &n);
   CHECK(n <= 512);
   CHECK(listed(list, n, CL_DEPTH, CL_FLOAT));
   CHECK(listed(list, n, CL_DEPTH, CL_UNORM_INT16));
   clGetSupportedImageFormats(ctx, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D_ARRAY, 512, list, &n);
   CHECK(listed(list, n, CL_DEPTH, CL_FLOAT));
   clGetSupportedImageFormats(ctx, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE3D, 512, list, &n);
   CHECK(!listed(list, n, CL_DEPTH, CL_FLOAT));
   cl_image_format f = { CL_DEPTH, CL_FLOAT };
   cl_image_desc d = { .image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = W, .image_height = H };
   float px[W * H], back[W * H], seen[W * H];
   for (int i = 0; i < W * H; i++)
      px[i] = (float)i / (W * H);
   cl_mem src = clCreateImage(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &f, &d, px, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_mem dst = clCreateImage(ctx, CL_MEM_WRITE_ONLY, &f, &d, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof seen, NULL, &err);
   cl_kernel k = kernel("depth");
   clSetKernelArg(k, 0, sizeof src, &src);
   clSetKernelArg(k, 1, sizeof dst, &dst);
   clSetKernelArg(k, 2, sizeof out, &out);
   run(k, 2, W, H, 1);
   size_t o[3] = { 0, 0, 0 }, r[3] = { W, H, 1 };
   CHECK_EQ_INT(clEnqueueReadImage(q, dst, CL_TRUE, o, r, 0, 0, back, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof seen, seen, 0, NULL, NULL),
                CL_SUCCESS);
   size_t bad = 0;
   for (int i = 0; i < W * H; i++)
      bad += seen[i] != px[i] || back[i] != 1.0f - px[i];
   CHECK_EQ_INT(bad, 0);
   /* A depth fill colour is one float. */
   float depth = 0.75f;
   CHECK_EQ_INT(clEnqueueFillImage(q, dst, &depth, o, r, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueReadImage(q, dst, CL_TRUE, o, r, 0, 0, back, 0, NULL, NULL), CL_SUCCESS);
   CHECK(back[0] == 0.75f && back[W * H - 1] == 0.75f);
   /* Depth is for 2D images and 2D arrays only. */
   cl_image_desc d1 = { .image_type = CL_MEM_OBJECT_IMAGE1D, .image_width = W };
   CHECK(clCreateImage(ctx, 0, &f, &d1, NULL, &err) == NULL);
   CHECK_EQ_INT(err, CL_IMAGE_FORMAT_NOT_SUPPORTED);
   clReleaseKernel(k);
   clReleaseMemObject(src);
   clReleaseMemObject(dst);
   clReleaseMemObject(out);
}

static void
test_from_buffer(void)
{
   cl_int err;
   cl_uint pitch_align = 0, base_align = 0;
   clGetDeviceInfo(device, CL_DEVICE_IMAGE_PITCH_ALIGNMENT, sizeof pitch_align, &pitch_align,
                   NULL);
   clGetDeviceInfo(device, CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT, sizeof base_align,
                   &base_align, NULL);
   CHECK(pitch_align > 0 && (pitch_align & (pitch_align - 1)) == 0);
   CHECK(base_align > 0 && (base_align & (base_align - 1)) == 0);
   enum { W = 20, H = 9 };
   const size_t es = 4, row = ((W + pitch_align - 1) / pitch_align) * pitch_align * es;
   uint8_t *host = calloc(row * H, 1);
   for (size_t y = 0; y < H; y++)
      for (size_t x = 0; x < W * es; x++)
         host[y * row + x] = (uint8_t)(y * 31 + x);
   cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, row * H, host,
                               &err);
   cl_image_format f = { CL_RGBA, CL_UNSIGNED_INT8 };
   cl_image_desc d = { .image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = W,
                       .image_height = H, .image_row_pitch = row, .buffer = buf };
   cl_mem img = clCreateImage(ctx, CL_MEM_READ_ONLY, &f, &d, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_mem assoc = NULL;
   clGetMemObjectInfo(img, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, NULL);
   CHECK(assoc == buf);
   size_t rp = 0;
   clGetImageInfo(img, CL_IMAGE_ROW_PITCH, sizeof rp, &rp, NULL);
   CHECK_EQ_INT(rp, row);
   cl_image_desc dd = { .image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = W,
                        .image_height = H };
   cl_mem dst = clCreateImage(ctx, CL_MEM_WRITE_ONLY, &f, &dd, NULL, &err);
   cl_kernel k = kernel("from_buf");
   clSetKernelArg(k, 0, sizeof img, &img);
   clSetKernelArg(k, 1, sizeof dst, &dst);
   run(k, 2, W, H, 1);
   uint8_t back[W * H * 4];
   size_t o[3] = { 0, 0, 0 }, r[3] = { W, H, 1 };
   CHECK_EQ_INT(clEnqueueReadImage(q, dst, CL_TRUE, o, r, 0, 0, back, 0, NULL, NULL), CL_SUCCESS);
   size_t bad = 0;
   for (size_t y = 0; y < H; y++)
      for (size_t x = 0; x < W * es; x++)
         bad += back[y * W * es + x] != (host[y * row + x] < 128 ? host[y * row + x] * 2 : 255);
   CHECK_EQ_INT(bad, 0);
   /* The image reads what is written into the buffer later. */
   uint8_t v[4] = { 9, 8, 7, 6 };
   CHECK_EQ_INT(clEnqueueWriteBuffer(q, buf, CL_TRUE, 3 * row + 5 * es, 4, v, 0, NULL, NULL),
                CL_SUCCESS);
   uint8_t t[4] = { 0 };
   size_t at[3] = { 5, 3, 0 }, one[3] = { 1, 1, 1 };
   CHECK_EQ_INT(clEnqueueReadImage(q, img, CL_TRUE, at, one, 0, 0, t, 0, NULL, NULL), CL_SUCCESS);
   CHECK(memcmp(t, v, 4) == 0);
   /* Errors: a pitch off the alignment, rows past the buffer's end. */
   cl_image_desc bad_d = d;
   bad_d.image_row_pitch = row + es;
   CHECK(clCreateImage(ctx, CL_MEM_READ_ONLY, &f, &bad_d, NULL, &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_IMAGE_DESCRIPTOR);
   bad_d = d;
   bad_d.image_height = H + 1;
   CHECK(clCreateImage(ctx, CL_MEM_READ_ONLY, &f, &bad_d, NULL, &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_IMAGE_DESCRIPTOR);
   clReleaseKernel(k);
   clReleaseMemObject(img);
   clReleaseMemObject(dst);
   clReleaseMemObject(buf);
   free(host);
}

static void
test_1d_buffer_kernels(void)
{
   cl_int err;
   cl_image_format fu = { CL_RGBA, CL_UNSIGNED_INT8 };
   cl_mem ib = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64 * 4, NULL, &err);
   cl_image_desc d1b = { .image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER, .image_width = 64,
                         .buffer = ib };
   cl_mem i1b = clCreateImage(ctx, CL_MEM_READ_WRITE, &fu, &d1b, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64 * 16, NULL, &err);
   cl_kernel k = kernel("write1db");
   clSetKernelArg(k, 0, sizeof i1b, &i1b);
   run(k, 1, 64, 1, 1);
   clReleaseKernel(k);
   uint8_t b1[64 * 4];
   CHECK_EQ_INT(clEnqueueReadBuffer(q, ib, CL_TRUE, 0, sizeof b1, b1, 0, NULL, NULL), CL_SUCCESS);
   size_t bad = 0;
   for (int x = 0; x < 64; x++)
      bad += b1[x * 4] != x || b1[x * 4 + 1] != x + 1 || b1[x * 4 + 2] != (uint8_t)(x * 3) ||
             b1[x * 4 + 3] != 255 - x;
   CHECK_EQ_INT(bad, 0);
   k = kernel("read1db");
   clSetKernelArg(k, 0, sizeof i1b, &i1b);
   clSetKernelArg(k, 1, sizeof out, &out);
   run(k, 1, 64, 1, 1);
   uint32_t res[64 * 4];
   CHECK_EQ_INT(clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof res, res, 0, NULL, NULL),
                CL_SUCCESS);
   bad = 0;
   for (int i = 0; i < 64 * 4; i++)
      bad += res[i] != b1[i];
   CHECK_EQ_INT(bad, 0);
   clReleaseKernel(k);
   clReleaseMemObject(i1b);
   clReleaseMemObject(ib);
   clReleaseMemObject(out);
}

/* The SPIR-V module's kernels: sampler argument + literal sampler + samplerless read, and
 * a read_write image. */
static void
test_spirv(const char *path)
{
   static const cl_uint image_caps[] = { 13, 20, 43, 44, 46, 47, 14 };
   cl_uint caps[128];
   size_t size = 0;
   CHECK_EQ_INT(clGetDeviceInfo(device, 0x12BB /* CL_DEVICE_SPIRV_CAPABILITIES_KHR */,
                                sizeof caps, caps, &size),
                CL_SUCCESS);
   for (size_t i = 0; i < sizeof image_caps / sizeof *image_caps; i++) {
      bool found = false;
      for (size_t j = 0; j < size / sizeof(cl_uint); j++)
         found |= caps[j] == image_caps[i];
      CHECK(found);
   }
   FILE *f = fopen(path, "rb");
   CHECK(f != NULL);
   if (!f)
      return;
   static unsigned char il[1 << 16];
   size_t n = fread(il, 1, sizeof il, f);
   fclose(f);
   cl_int err;
   cl_program p = clCreateProgramWithIL(ctx, il, n, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   CHECK_EQ_INT(clBuildProgram(p, 1, &device, "", NULL, NULL), CL_SUCCESS);
   cl_kernel k = clCreateKernel(p, "cp", &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   enum { W = 6, H = 5 };
   cl_image_format fmt = { CL_RGBA, CL_FLOAT };
   cl_image_desc d = { .image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = W, .image_height = H };
   float px[W * H * 4], back[W * H * 4];
   for (int i = 0; i < W * H * 4; i++)
      px[i] = (float)i;
   cl_mem a = clCreateImage(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &fmt, &d, px, &err);
   cl_mem b = clCreateImage(ctx, CL_MEM_READ_WRITE, &fmt, &d, NULL, &err);
   cl_sampler s = clCreateSamplerWithProperties(ctx, (cl_sampler_properties[]){
      CL_SAMPLER_NORMALIZED_COORDS, CL_FALSE, 0 }, &err);
   CHECK_EQ_INT(clSetKernelArg(k, 0, sizeof a, &a), CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArg(k, 1, sizeof b, &b), CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArg(k, 2, sizeof s, &s), CL_SUCCESS);
   run(k, 2, W, H, 1);
   size_t o[3] = { 0, 0, 0 }, r[3] = { W, H, 1 };
   CHECK_EQ_INT(clEnqueueReadImage(q, b, CL_TRUE, o, r, 0, 0, back, 0, NULL, NULL), CL_SUCCESS);
   size_t bad = 0;
   for (int i = 0; i < W * H * 4; i++)
      bad += back[i] != 3.0f * px[i];
   CHECK_EQ_INT(bad, 0);
   clReleaseKernel(k);
   k = clCreateKernel(p, "rw", &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   clSetKernelArg(k, 0, sizeof b, &b);
   run(k, 2, W, H, 1);
   CHECK_EQ_INT(clEnqueueReadImage(q, b, CL_TRUE, o, r, 0, 0, back, 0, NULL, NULL), CL_SUCCESS);
   bad = 0;
   for (int i = 0; i < W * H * 4; i++)
      bad += back[i] != 6.0f * px[i];
   CHECK_EQ_INT(bad, 0);
   clReleaseKernel(k);
   clReleaseSampler(s);
   clReleaseMemObject(a);
   clReleaseMemObject(b);
   clReleaseProgram(p);
}

int
main(int argc, char **argv)
{
   test_watchdog("api_image_ext_test", 240);
   cl_platform_id platform;
   cl_int err;
   if (clGetPlatformIDs(1, &platform, NULL) != CL_SUCCESS ||
       clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &device, NULL) != CL_SUCCESS) {
      fprintf(stderr, "no hsacl device\n");
      return 1;
   }
   cl_bool images = CL_FALSE;
   clGetDeviceInfo(device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL);
   const char *rt = getenv("HSACL_RUNTIME");
   if (rt && !strcmp(rt, "rocr"))
      CHECK_EQ_INT(images, CL_TRUE);
   static const char *const exts[] = { "cl_khr_3d_image_writes", "cl_khr_depth_images",
                                       "cl_khr_image2d_from_buffer" };
   static const char *const feats[] = { "__opencl_c_images", "__opencl_c_read_write_images",
                                        "__opencl_c_3d_image_writes" };
   for (size_t i = 0; i < 3; i++) {
      CHECK_EQ_INT(test_device_lists(device, CL_DEVICE_EXTENSIONS, exts[i]), images);
      CHECK_EQ_INT(test_device_lists(device, CL_DEVICE_EXTENSIONS_WITH_VERSION, exts[i]), images);
      CHECK_EQ_INT(test_device_lists(device, CL_DEVICE_OPENCL_C_FEATURES, feats[i]), images);
   }
   if (!images)
      return test_main_end();

   ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   q = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   prog = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
   err = clBuildProgram(prog, 1, &device, "-cl-std=CL3.0", NULL, NULL);
   CHECK_EQ_INT(err, CL_SUCCESS);
   if (err != CL_SUCCESS) {
      char log[8192] = "";
      clGetProgramBuildInfo(prog, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
      fprintf(stderr, "%s\n", log);
      return test_main_end();
   }
   test_read_write();
   test_3d_writes();
   test_depth();
   test_from_buffer();
   test_1d_buffer_kernels();
   if (argc > 1)
      test_spirv(argv[1]);
   else
      CHECK(!"no SPIR-V module path given");
   clReleaseProgram(prog);
   clReleaseCommandQueue(q);
   clReleaseContext(ctx);
   return test_main_end();
}
