/*
 * examples/image_blur.c — a Gaussian blur of a PNG on the first hsacl device, through
 * OpenCL images: the picture is an image2d_t (CL_RGBA, CL_UNORM_INT8) read with a
 * CLK_FILTER_LINEAR | CLK_ADDRESS_CLAMP_TO_EDGE sampler, the result is written with
 * write_imagef into a second image, read back, checked against the host and written as a
 * PNG.
 *
 * usage: image_blur [OUTPUT.png [INPUT.png]]
 * OUTPUT defaults to ./image_blur.png; without INPUT the program blurs a generated test
 * card (301x203: gradients, a checkerboard touching every border, a disc, thin lines, an
 * alpha ramp), so it needs no file to run.
 *
 * The blur is the 9x9 binomial filter (1 8 28 56 70 56 28 8 1)/256 in each direction, done
 * with 5x5 bilinear samples instead of 81 texel reads: a sample at 4/3 texels from the
 * centre weighs texels 1 and 2 as 2:1 (56:28), one at 28/9 weighs texels 3 and 4 as 8:1;
 * so the linear filter does the work, and a wrong filter shows.
 *
 * The check. Each output channel is compared with the host's value of the same sum, each
 * bilinear sample evaluated exactly (double) at the float coordinate the kernel passes,
 * with the tolerance the Khronos CTS applies to image reads and writes (test_common/
 * harness/imageHelpers.cpp and images/kernel_read_write/test_common.cpp at v2023-05-16-00):
 *  - a LINEAR-filtered read may be off by (2^-7 + 2 FLT_EPSILON) times the largest of the
 *    texels it blends (get_max_relative_error: the CTS's chosen bound, the specification
 *    itself leaves linear filtering's precision open), and an error below one UNORM_INT8
 *    step, 1/255, always passes (get_max_absolute_error);
 *  - write_imagef to CL_UNORM_INT8 may be off by 0.6 of a step from the exact product
 *    (OpenCL C: conversion to normalized integers may approximate round-to-nearest-even
 *    within 0.6; filter_rounding_errors);
 * so output code O of a channel passes when |O - 255 R| <= 255 sum_k w_k e_k + 0.6 + 0.01,
 * R the host's value, w_k the weight of sample k, e_k its allowed error above, and 0.01 for
 * the 25 float multiply-adds. That is 1.6 to 2.6 codes: a NEAREST filter, a half-texel
 * offset or a border colour instead of clamp-to-edge miss by tens of codes on the edges.
 *
 * Exit status (examples/example.h): 0 right image, 1 pixels out of tolerance, 2 no hsacl
 * device, a device without image support (or without CL_RGBA/CL_UNORM_INT8), a CL error, or
 * a PNG that could not be read or written.
 */
#include "example.h"

#include <float.h>
#include <math.h>
#include <png.h>
#include <stdint.h>
#include <time.h>

#define CARD_W 301
#define CARD_H 203
#define TAPS 5

/* Sample offsets from the pixel centre and their weights, one axis (see the top comment).
   The weights are exact in float; the offsets are the float values host and kernel use. */
static const float tap_offset[TAPS] = { -28.0f / 9.0f, -4.0f / 3.0f, 0.0f, 4.0f / 3.0f,
                                        28.0f / 9.0f };
static const float tap_weight[TAPS] = { 9.0f / 256, 84.0f / 256, 70.0f / 256, 84.0f / 256,
                                        9.0f / 256 };

/* The kernel; the taps are pasted in (as hexadecimal floats) by main. */
static const char *source_fmt =
   "constant sampler_t smp = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE |\n"
   "                         CLK_FILTER_LINEAR;\n"
   "constant float off[5] = { %a, %a, %a, %a, %a };\n"
   "constant float wt[5] = { %a, %a, %a, %a, %a };\n"
   "\n"
   "kernel void blur(read_only image2d_t src, write_only image2d_t dst)\n"
   "{\n"
   "   int x = get_global_id(0), y = get_global_id(1);\n"
   "   if (x >= get_image_width(dst) || y >= get_image_height(dst))\n"
   "      return;\n"
   "   float4 sum = (float4)(0.0f);\n"
   "   for (int j = 0; j < 5; j++) {\n"
   "      float v = (float)y + 0.5f + off[j];\n"
   "      float4 row = (float4)(0.0f);\n"
   "      for (int i = 0; i < 5; i++)\n"
   "         row += wt[i] * read_imagef(src, smp, (float2)((float)x + 0.5f + off[i], v));\n"
   "      sum += wt[j] * row;\n"
   "   }\n"
   "   write_imagef(dst, (int2)(x, y), sum);\n"
   "}\n";

/* The generated input: RGBA8, row after row. */
static uint8_t *
make_card(int *w, int *h)
{
   *w = CARD_W;
   *h = CARD_H;
   uint8_t *p = malloc((size_t)CARD_W * CARD_H * 4);
   if (!p)
      return NULL;
   for (int y = 0; y < CARD_H; y++)
      for (int x = 0; x < CARD_W; x++) {
         uint8_t *t = p + 4 * ((size_t)y * CARD_W + x);
         int dx = x - CARD_W / 2, dy = y - CARD_H / 2;
         t[0] = (uint8_t)(x * 255 / (CARD_W - 1));        /* horizontal ramp */
         t[1] = ((x / 8) ^ (y / 8)) & 1 ? 255 : 0;         /* checkerboard to the borders */
         t[2] = dx * dx + dy * dy < 60 * 60 ? 230 : 20;    /* a disc */
         if (x % 37 == 5 || y % 29 == 3)                   /* thin lines */
            t[2] = 255 - t[2];
         t[3] = (uint8_t)(255 - y * 200 / (CARD_H - 1));  /* alpha ramp */
      }
   return p;
}

static uint8_t *
read_png(const char *path, int *w, int *h)
{
   png_image img;
   memset(&img, 0, sizeof(img));
   img.version = PNG_IMAGE_VERSION;
   if (!png_image_begin_read_from_file(&img, path)) {
      fprintf(stderr, "image_blur: cannot read %s: %s\n", path, img.message);
      return NULL;
   }
   img.format = PNG_FORMAT_RGBA;
   uint8_t *p = malloc(PNG_IMAGE_SIZE(img));
   if (!p || !png_image_finish_read(&img, NULL, p, 0, NULL)) {
      fprintf(stderr, "image_blur: cannot decode %s: %s\n", path, img.message);
      free(p);
      png_image_free(&img);
      return NULL;
   }
   *w = (int)img.width;
   *h = (int)img.height;
   return p;
}

static int
write_png(const char *path, const uint8_t *rgba, int w, int h)
{
   png_image img;
   memset(&img, 0, sizeof(img));
   img.version = PNG_IMAGE_VERSION;
   img.width = (png_uint_32)w;
   img.height = (png_uint_32)h;
   img.format = PNG_FORMAT_RGBA;
   return png_image_write_to_file(&img, path, 0, rgba, 0, NULL) ? 0 : -1;
}

static int
clampi(int v, int lo, int hi)
{
   return v < lo ? lo : v > hi ? hi : v;
}

/*
 * The host's value of one output pixel, channel by channel: ref[c] = R (in [0, 1]) and
 * tol[c] = the allowed |O - 255 R| in codes (see the top comment), from the same float
 * coordinates the kernel computes.
 */
static void
host_pixel(const uint8_t *in, int w, int h, int x, int y, double ref[4], double tol[4])
{
   const double rel = 0x1.0p-7 + 2 * (double)FLT_EPSILON, abs_step = 1.0 / 255;
   for (int c = 0; c < 4; c++)
      ref[c] = tol[c] = 0;
   for (int j = 0; j < TAPS; j++) {
      float v = (float)y + 0.5f + tap_offset[j];
      for (int i = 0; i < TAPS; i++) {
         float u = (float)x + 0.5f + tap_offset[i];
         /* OpenCL C, linear filtering of unnormalized coordinates with clamp-to-edge. */
         double fu = floor((double)u - 0.5), fv = floor((double)v - 0.5);
         double a = (double)u - 0.5 - fu, b = (double)v - 0.5 - fv;
         int i0 = clampi((int)fu, 0, w - 1), i1 = clampi((int)fu + 1, 0, w - 1);
         int j0 = clampi((int)fv, 0, h - 1), j1 = clampi((int)fv + 1, 0, h - 1);
         const uint8_t *t00 = in + 4 * ((size_t)j0 * w + i0), *t10 = in + 4 * ((size_t)j0 * w + i1);
         const uint8_t *t01 = in + 4 * ((size_t)j1 * w + i0), *t11 = in + 4 * ((size_t)j1 * w + i1);
         double wk = (double)tap_weight[j] * tap_weight[i];
         for (int c = 0; c < 4; c++) {
            double s = ((1 - a) * (1 - b) * t00[c] + a * (1 - b) * t10[c] +
                        (1 - a) * b * t01[c] + a * b * t11[c]) / 255.0;
            int m = t00[c];
            m = t10[c] > m ? t10[c] : m;
            m = t01[c] > m ? t01[c] : m;
            m = t11[c] > m ? t11[c] : m;
            double e = rel * m / 255.0;
            ref[c] += wk * s;
            tol[c] += wk * (e > abs_step ? e : abs_step);
         }
      }
   }
   for (int c = 0; c < 4; c++)
      tol[c] = 255 * tol[c] + 0.6 + 0.01;
}

/* The plain 9x9 binomial blur with clamped texel indices, for the report only. */
static double
binomial(const uint8_t *in, int w, int h, int x, int y, int c)
{
   static const int k[9] = { 1, 8, 28, 56, 70, 56, 28, 8, 1 };
   double s = 0;
   for (int j = 0; j < 9; j++)
      for (int i = 0; i < 9; i++)
         s += k[j] * k[i] *
              (double)in[4 * ((size_t)clampi(y + j - 4, 0, h - 1) * w +
                              clampi(x + i - 4, 0, w - 1)) + c];
   return s / 65536.0;
}

/* Exits with EXAMPLE_ERROR, saying why, when the device cannot run this example. */
static void
require_images(cl_context ctx, cl_device_id dev, int w, int h)
{
   cl_bool images = CL_FALSE;
   size_t max_w = 0, max_h = 0;
   CL_TRY(clGetDeviceInfo(dev, CL_DEVICE_IMAGE_SUPPORT, sizeof(images), &images, NULL));
   if (!images) {
      fprintf(stderr, "image_blur: the device has no image support (CL_DEVICE_IMAGE_SUPPORT "
                      "is CL_FALSE): nothing to run\n");
      exit(EXAMPLE_ERROR);
   }
   CL_TRY(clGetDeviceInfo(dev, CL_DEVICE_IMAGE2D_MAX_WIDTH, sizeof(max_w), &max_w, NULL));
   CL_TRY(clGetDeviceInfo(dev, CL_DEVICE_IMAGE2D_MAX_HEIGHT, sizeof(max_h), &max_h, NULL));
   if ((size_t)w > max_w || (size_t)h > max_h) {
      fprintf(stderr, "image_blur: %dx%d is larger than the device's 2D images (%zux%zu)\n",
              w, h, max_w, max_h);
      exit(EXAMPLE_ERROR);
   }
   static const cl_mem_flags flags[2] = { CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY };
   for (int f = 0; f < 2; f++) {
      cl_image_format formats[256];
      cl_uint n = 0, found = 0;
      CL_TRY(clGetSupportedImageFormats(ctx, flags[f], CL_MEM_OBJECT_IMAGE2D, 256, formats,
                                        &n));
      for (cl_uint i = 0; i < n && i < 256; i++)
         found |= formats[i].image_channel_order == CL_RGBA &&
                  formats[i].image_channel_data_type == CL_UNORM_INT8;
      if (!found) {
         fprintf(stderr, "image_blur: the device does not list CL_RGBA / CL_UNORM_INT8 for "
                         "%s 2D images\n", f ? "write-only" : "read-only");
         exit(EXAMPLE_ERROR);
      }
   }
}

int
main(int argc, char **argv)
{
   const char *out_path = argc > 1 ? argv[1] : "image_blur.png";
   const char *in_path = argc > 2 ? argv[2] : NULL;
   cl_int err;
   cl_context ctx;
   cl_command_queue q;
   example_name = "image_blur";

   int w, h;
   uint8_t *in = in_path ? read_png(in_path, &w, &h) : make_card(&w, &h);
   if (!in)
      return EXAMPLE_ERROR;
   cl_device_id dev = example_open(&ctx, &q);
   require_images(ctx, dev, w, h);

   char source[2048];
   snprintf(source, sizeof(source), source_fmt, tap_offset[0], tap_offset[1], tap_offset[2],
            tap_offset[3], tap_offset[4], tap_weight[0], tap_weight[1], tap_weight[2],
            tap_weight[3], tap_weight[4]);
   cl_program prog = example_build(ctx, dev, source, NULL);
   cl_kernel k = clCreateKernel(prog, "blur", &err);
   CL_TRY(err);

   cl_image_format fmt = { CL_RGBA, CL_UNORM_INT8 };
   cl_image_desc desc = { .image_type = CL_MEM_OBJECT_IMAGE2D,
                          .image_width = (size_t)w,
                          .image_height = (size_t)h };
   cl_mem src = clCreateImage(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &fmt, &desc, in,
                              &err);
   CL_TRY(err);
   cl_mem dst = clCreateImage(ctx, CL_MEM_WRITE_ONLY, &fmt, &desc, NULL, &err);
   CL_TRY(err);
   CL_TRY(clSetKernelArg(k, 0, sizeof(cl_mem), &src));
   CL_TRY(clSetKernelArg(k, 1, sizeof(cl_mem), &dst));

   struct timespec t0, t1;
   clock_gettime(CLOCK_MONOTONIC, &t0);
   size_t local[2] = { 16, 16 };
   size_t global[2] = { (w + 15) / 16 * 16, (h + 15) / 16 * 16 };
   CL_TRY(clEnqueueNDRangeKernel(q, k, 2, NULL, global, local, 0, NULL, NULL));
   uint8_t *out = malloc((size_t)w * h * 4);
   memset(out, 0xCD, (size_t)w * h * 4); /* what the kernel does not write shows */
   size_t origin[3] = { 0, 0, 0 }, region[3] = { (size_t)w, (size_t)h, 1 };
   CL_TRY(clEnqueueReadImage(q, dst, CL_TRUE, origin, region, 0, 0, out, 0, NULL, NULL));
   clock_gettime(CLOCK_MONOTONIC, &t1);

   long bad = 0;
   double worst = 0, worst_tol = 0, sum_err = 0, worst_binomial = 0;
   for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++) {
         double ref[4], tol[4];
         host_pixel(in, w, h, x, y, ref, tol);
         for (int c = 0; c < 4; c++) {
            int o = out[4 * ((size_t)y * w + x) + c];
            double e = fabs(o - 255 * ref[c]);
            double eb = fabs(o - binomial(in, w, h, x, y, c));
            sum_err += e;
            worst_binomial = eb > worst_binomial ? eb : worst_binomial;
            if (e > worst) {
               worst = e;
               worst_tol = tol[c];
            }
            if (e > tol[c] && bad++ < 5)
               fprintf(stderr, "image_blur: pixel (%d,%d) channel %d = %d, host %.3f "
                       "(error %.3f > tolerance %.3f codes)\n", x, y, c, o, 255 * ref[c], e,
                       tol[c]);
         }
      }
   double ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
   printf("image_blur: %dx%d RGBA8 %s, 9x9 binomial blur as 5x5 linear samples: %.0f ms "
          "(kernel and read-back)\n", w, h, in_path ? in_path : "test card", ms);
   printf("image_blur: error against the host: largest %.3f codes (tolerance there %.3f), "
          "mean %.4f; largest difference from the exact 9x9 binomial filter %.3f codes\n",
          worst, worst_tol, sum_err / ((double)w * h * 4), worst_binomial);
   int png_ok = write_png(out_path, out, w, h) == 0;
   if (png_ok)
      printf("image_blur: blurred image written to %s\n", out_path);
   else
      fprintf(stderr, "image_blur: could not write %s\n", out_path);
   printf("image_blur: %s (%ld of %ld channel values out of tolerance)\n",
          bad ? "FAILED" : "OK", bad, (long)w * h * 4);

   clReleaseMemObject(src);
   clReleaseMemObject(dst);
   clReleaseKernel(k);
   clReleaseProgram(prog);
   clReleaseCommandQueue(q);
   clReleaseContext(ctx);
   free(in);
   free(out);
   if (bad)
      return EXAMPLE_WRONG;
   return png_ok ? EXAMPLE_OK : EXAMPLE_ERROR;
}
