/*
 * examples/mandelbrot.c — a 512x384 Mandelbrot image computed on the first hsacl device
 * and written as an 8-bit RGB PNG with libpng: to argv[1] if given, else
 * ./mandelbrot.png.
 *
 * The kernel stores each pixel's iteration count. Contraction is off on both sides
 * (FP_CONTRACT OFF in the kernel, -ffp-contract=off for this file), so each iteration is
 * the same sequence of correctly rounded float operations on host and device and the
 * counts must match the host's exactly.
 * Exit status: 0 right image, 1 wrong counts, 2 no hsacl device, a CL error or the PNG
 * could not be written.
 */
#include "example.h"

#include <png.h>
#include <stdint.h>

#define WIDTH 512
#define HEIGHT 384
#define MAX_ITER 256

/* The view: x in [X0, X0 + SPAN], y centred on 0 with square pixels. */
#define X0 -2.25f
#define SPAN 3.0f

static const char *source =
   "#pragma OPENCL FP_CONTRACT OFF\n"
   "/* iter[y * width + x] = iterations of z = z^2 + c before |z| > 2, at most max_iter. */\n"
   "kernel void mandelbrot(global uint *iter, int width, float x0, float y0, float step,\n"
   "                       uint max_iter)\n"
   "{\n"
   "   int px = get_global_id(0), py = get_global_id(1);\n"
   "   float cr = x0 + px * step, ci = y0 + py * step;\n"
   "   float zr = 0.0f, zi = 0.0f;\n"
   "   uint n = 0;\n"
   "   while (n < max_iter) {\n"
   "      float zr2 = zr * zr, zi2 = zi * zi;\n"
   "      if (zr2 + zi2 > 4.0f)\n"
   "         break;\n"
   "      float t = zr * zi;\n"
   "      zi = t + t + ci;\n"
   "      zr = zr2 - zi2 + cr;\n"
   "      n++;\n"
   "   }\n"
   "   iter[py * width + px] = n;\n"
   "}\n";

/* The same iteration as the kernel, in the same float operations. */
static uint32_t
host_iter(int px, int py, float x0, float y0, float step)
{
   float cr = x0 + px * step, ci = y0 + py * step;
   float zr = 0.0f, zi = 0.0f;
   uint32_t n = 0;
   while (n < MAX_ITER) {
      float zr2 = zr * zr, zi2 = zi * zi;
      if (zr2 + zi2 > 4.0f)
         break;
      float t = zr * zi;
      zi = t + t + ci;
      zr = zr2 - zi2 + cr;
      n++;
   }
   return n;
}

/* Writes the counts as a PNG: black inside the set, a smooth palette outside. */
static int
write_png(const char *path, const uint32_t *iter)
{
   FILE *f = fopen(path, "wb");
   if (!f)
      return -1;
   png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
   png_infop info = png ? png_create_info_struct(png) : NULL;
   uint8_t *row = malloc(WIDTH * 3);
   if (!png || !info || !row || setjmp(png_jmpbuf(png))) {
      png_destroy_write_struct(&png, &info);
      free(row);
      fclose(f);
      return -1;
   }
   png_init_io(png, f);
   png_set_IHDR(png, info, WIDTH, HEIGHT, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
   png_write_info(png, info);
   for (int y = 0; y < HEIGHT; y++) {
      for (int x = 0; x < WIDTH; x++) {
         uint32_t n = iter[y * WIDTH + x];
         uint8_t *p = row + 3 * x;
         if (n >= MAX_ITER) {
            p[0] = p[1] = p[2] = 0;
         } else {
            float t = (float)n / MAX_ITER;
            p[0] = (uint8_t)(9 * (1 - t) * t * t * t * 255);
            p[1] = (uint8_t)(15 * (1 - t) * (1 - t) * t * t * 255);
            p[2] = (uint8_t)(8.5f * (1 - t) * (1 - t) * (1 - t) * t * 255);
         }
      }
      png_write_row(png, row);
   }
   png_write_end(png, NULL);
   png_destroy_write_struct(&png, &info);
   free(row);
   return fclose(f) == 0 ? 0 : -1;
}

int
main(int argc, char **argv)
{
   const char *path = argc > 1 ? argv[1] : "mandelbrot.png";
   cl_int err;
   cl_context ctx;
   cl_command_queue q;
   example_name = "mandelbrot";
   cl_device_id dev = example_open(&ctx, &q);
   cl_program prog = example_build(ctx, dev, source, NULL);
   cl_kernel k = clCreateKernel(prog, "mandelbrot", &err);
   CL_TRY(err);

   const size_t bytes = WIDTH * HEIGHT * sizeof(uint32_t);
   cl_mem biter = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, bytes, NULL, &err);
   CL_TRY(err);
   cl_int width = WIDTH;
   cl_float x0 = X0, step = SPAN / WIDTH, y0 = -step * HEIGHT / 2;
   cl_uint max_iter = MAX_ITER;
   CL_TRY(clSetKernelArg(k, 0, sizeof(cl_mem), &biter));
   CL_TRY(clSetKernelArg(k, 1, sizeof(cl_int), &width));
   CL_TRY(clSetKernelArg(k, 2, sizeof(cl_float), &x0));
   CL_TRY(clSetKernelArg(k, 3, sizeof(cl_float), &y0));
   CL_TRY(clSetKernelArg(k, 4, sizeof(cl_float), &step));
   CL_TRY(clSetKernelArg(k, 5, sizeof(cl_uint), &max_iter));
   size_t global[2] = { WIDTH, HEIGHT }, local[2] = { 16, 16 };
   CL_TRY(clEnqueueNDRangeKernel(q, k, 2, NULL, global, local, 0, NULL, NULL));
   uint32_t *iter = malloc(bytes);
   CL_TRY(clEnqueueReadBuffer(q, biter, CL_TRUE, 0, bytes, iter, 0, NULL, NULL));

   long bad = 0, inside = 0;
   for (int y = 0; y < HEIGHT; y++)
      for (int x = 0; x < WIDTH; x++) {
         uint32_t got = iter[y * WIDTH + x], want = host_iter(x, y, x0, y0, step);
         if (got != want) {
            if (bad < 5)
               fprintf(stderr, "mandelbrot: pixel (%d,%d) = %u iterations, expected %u\n", x,
                       y, got, want);
            bad++;
         }
         inside += got >= MAX_ITER;
      }
   printf("mandelbrot: %dx%d pixels, at most %d iterations; %ld pixels (%.1f%%) in the set\n",
          WIDTH, HEIGHT, MAX_ITER, inside, 100.0 * inside / (WIDTH * HEIGHT));
   int png_ok = write_png(path, iter) == 0;
   if (png_ok)
      printf("mandelbrot: image written to %s\n", path);
   else
      fprintf(stderr, "mandelbrot: could not write %s\n", path);
   printf("mandelbrot: %s (%ld of %d pixels differ from the host)\n", bad ? "FAILED" : "OK",
          bad, WIDTH * HEIGHT);

   clReleaseMemObject(biter);
   clReleaseKernel(k);
   clReleaseProgram(prog);
   clReleaseCommandQueue(q);
   clReleaseContext(ctx);
   free(iter);
   if (bad)
      return EXAMPLE_WRONG;
   return png_ok ? EXAMPLE_OK : EXAMPLE_ERROR;
}
