/*
 * bench/sim/bench_sim.c — throughput of hsacl's software GPU beside PoCL, same OpenCL C
 * kernels, same run. Prints figures; never passes or fails on them.
 *
 * For each kernel (vector add, work-group reduction with barriers, matrix multiply,
 * Mandelbrot) the parent runs child processes of itself, each with its own environment
 * set before the OpenCL runtime initialises:
 * (and copy1, a copy enqueued in work-groups of one work-item, as CTS test_basic's
 * imagedim_* kernels are; and image, a 1024 x 1024 RGBA8 image copied
 * through a nearest sampler in 16 x 16 work-groups: the image instructions; and image1, the
 * same copy of a 256 x 256 image enqueued in work-groups of one work-item, as CTS
 * test_basic's imagedim_non_pow2 launches it — neither kernel can tell its groups apart, so
 * hsacl runs both in groups of 64 (dispatch/disp_kernel.c coarsen_free_groups); and dpoly, a
 * double-precision recurrence of fused multiply-adds and products per work-item: the f64
 * arithmetic of molecular dynamics and clpeak's double-precision test; and hpoly, the same
 * recurrence in half2: the packed f16 arithmetic of clpeak's half-precision test, where
 * the device has cl_khr_fp16; and dmad, clpeak's double-precision loop (chains of
 * dependent fused multiply-adds on two doubles a work-item, bounded here by a constant
 * addend); and parray, a private array of 32 floats per work-item
 * indexed by data: scratch loads and stores, as register-hungry kernels with private
 * tables (hashing, sorting networks) make them)
 *   hsacl, HSACL_SIM_THREADS=1        wall time per launch (best of the repetitions)
 *   hsacl, HSACL_SIM_THREADS=<cores>  the same on all cores
 *   hsacl, HSACL_SIM_COUNTS=<file>    one launch with the interpreter's per-opcode counters:
 *                                     vector lane-instructions = sum over vector encodings
 *                                     of executions x active lanes (popcount(EXEC)); scalar
 *                                     instructions (SOP*, SMEM) are counted separately, once
 *                                     per wave, and not included in the lane figure
 *   PoCL (vendors folder holding only pocl.icd), wall time per launch
 * and prints, for 1 thread and for all cores: wall time (the best launch), process CPU time
 * (the mean of the later launches) and lane-instructions/s, and hsacl time / PoCL time. On a
 * shared machine compare CPU times: "par" = all-core CPU time / the same launches' mean
 * wall time is how many cores the run really had (near the
 * core count on an idle machine; near 1 when other processes hold the cores, and then the
 * all-core wall time cannot beat the 1-thread one). The load average is printed before
 * and after. Goals from the issue: >= 1e9 lane-instructions/s on all cores, within 30x
 * of PoCL.
 *
 * Usage: hsacl-bench-sim [repetitions]   (child mode: --child <kernel> <repetitions>)
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *source =
   "kernel void vadd(global const int *a, global const int *b, global int *c) {\n"
   "  size_t i = get_global_id(0); c[i] = a[i] + b[i];\n"
   "}\n"
   "kernel void reduce(global const int *in, global int *out, local int *l) {\n"
   "  uint lid = get_local_id(0);\n"
   "  l[lid] = in[get_global_id(0)];\n"
   "  barrier(CLK_LOCAL_MEM_FENCE);\n"
   "  for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {\n"
   "    if (lid < s) l[lid] += l[lid + s];\n"
   "    barrier(CLK_LOCAL_MEM_FENCE);\n"
   "  }\n"
   "  if (lid == 0) out[get_group_id(0)] = l[0];\n"
   "}\n"
   "kernel void matmul(global const float *a, global const float *b, global float *c, int n) {\n"
   "  int x = get_global_id(0), y = get_global_id(1);\n"
   "  float s = 0.0f;\n"
   "  for (int k = 0; k < n; k++) s += a[y * n + k] * b[k * n + x];\n"
   "  c[y * n + x] = s;\n"
   "}\n"
   "kernel void mandel(global int *out, int w, int h, int maxit) {\n"
   "  int x = get_global_id(0), y = get_global_id(1);\n"
   "  float cr = -2.0f + 2.5f * x / w, ci = -1.25f + 2.5f * y / h, zr = 0.0f, zi = 0.0f;\n"
   "  int it = 0;\n"
   "  while (it < maxit && zr * zr + zi * zi < 4.0f) {\n"
   "    float t = zr * zr - zi * zi + cr; zi = 2.0f * zr * zi + ci; zr = t; it++;\n"
   "  }\n"
   "  out[y * w + x] = it;\n"
   "}\n"
   "kernel void copy1(global const int *in, global int *out) {\n"
   "  size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0); out[i] = in[i];\n"
   "}\n"
   "kernel void dpoly(global const double *in, global double *out, int n) {\n"
   "  size_t i = get_global_id(0); double x = in[i], y = 0.0;\n"
   "  for (int k = 0; k < n; k++) { y = fma(y, x, 0.5) + x * 0.25; x = x * 0.999; }\n"
   "  out[i] = y;\n"
   "}\n"
   "#ifdef cl_khr_fp16\n"
   "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
   "kernel void hpoly(global const half2 *in, global half2 *out, int n) {\n"
   "  size_t i = get_global_id(0); half2 x = in[i], y = (half2)(0.0h);\n"
   "  for (int k = 0; k < n; k++) { y = fma(y, x, (half2)(0.5h)) + x * (half2)(0.25h); "
   "x = x * (half2)(0.999h); }\n"
   "  out[i] = y;\n"
   "}\n"
   "#endif\n"
   "#define DM4(x, y) x = fma(y, x, 0.25); y = fma(x, y, 0.25); x = fma(y, x, 0.25); "
   "y = fma(x, y, 0.25);\n"
   "kernel void dmad(global double *out, int n) {\n"
   "  double x = 0.3, y = 0.25 + get_local_id(0) / 1024.0;\n"
   "  for (int i = 0; i < n; i++) { DM4(x, y) DM4(x, y) DM4(x, y) DM4(x, y) }\n"
   "  out[get_global_id(0)] = y;\n"
   "}\n"
   "kernel void parray(global const int *ix, global float *out, int n) {\n"
   "  float a[32]; int g = get_global_id(0);\n"
   "  for (int i = 0; i < 32; i++) a[i] = g + i;\n"
   "  for (int r = 0; r < n; r++) { int j = ix[(g + r) & 255] & 31; "
   "a[j] += a[(j + 5) & 31] * 0.5f; }\n"
   "  float s = 0.0f; for (int i = 0; i < 32; i++) s += a[i];\n"
   "  out[g] = s;\n"
   "}\n"
   "constant sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE |\n"
   "                             CLK_FILTER_NEAREST;\n"
   "kernel void image(read_only image2d_t in, write_only image2d_t out) {\n"
   "  int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
   "  write_imagef(out, p, read_imagef(in, nearest, p));\n"
   "}\n";

enum { VADD_N = 1 << 20, RED_N = 1 << 20, RED_L = 256, MM_N = 256, MB_W = 512, MB_H = 512,
       MB_IT = 256, C1_W = 256, C1_H = 256, IM_W = 1024, IM_H = 1024,
       I1_W = 256, I1_H = 256, DP_N = 1 << 16,
       DP_IT = 256, HP_N = 1 << 16, HP_IT = 256, PA_N = 1 << 16, PA_IT = 64,
       DM_N = 1 << 16, DM_IT = 128 };
static const char *const kernels[] = {"vadd", "reduce", "matmul", "mandel", "copy1", "image",
                                      "image1",
                                      "dpoly", "hpoly", "dmad", "parray"};
#define NK (sizeof(kernels) / sizeof(kernels[0]))

static double
clock_s(clockid_t id)
{
   struct timespec ts;
   clock_gettime(id, &ts);
   return ts.tv_sec + ts.tv_nsec * 1e-9;
}
static double
now_s(void)
{
   return clock_s(CLOCK_MONOTONIC);
}

/* The binary16 bits of `f` (round to nearest even, GCC's _Float16). */
static uint16_t
half_bits(float f)
{
   _Float16 h = (_Float16)f;
   uint16_t b;
   memcpy(&b, &h, sizeof(b));
   return b;
}

/* A child's exit status when the device lacks what the kernel needs (hpoly: cl_khr_fp16). */
enum { CHILD_UNSUPPORTED = 3 };

#define CL(x)                                                                               \
   do {                                                                                     \
      cl_int e_ = (x);                                                                      \
      if (e_ != CL_SUCCESS) {                                                               \
         fprintf(stderr, "%s:%d: %s = %d\n", __FILE__, __LINE__, #x, e_);                   \
         exit(1);                                                                           \
      }                                                                                     \
   } while (0)

/* dpoly's and hpoly's arguments: `bytes` of `host` in, as many out (bufs[0], bufs[2]), the
 * iteration count `it`. */
static void
poly_args(cl_context ctx, cl_kernel k, cl_mem *bufs, size_t bytes, const void *host, int it)
{
   cl_int err;
   bufs[0] = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, bytes, (void *)host, &err);
   CL(err);
   bufs[2] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
   CL(err);
   CL(clSetKernelArg(k, 0, sizeof(cl_mem), &bufs[0]));
   CL(clSetKernelArg(k, 1, sizeof(cl_mem), &bufs[2]));
   CL(clSetKernelArg(k, 2, sizeof(int), &it));
}

/* Child: runs kernel `name` once to warm up, then `reps` timed launches; prints
 * "<best seconds> <checksum> <mean process CPU seconds>" on stdout. The CPU time of a
 * 1-thread run is the figure to compare on a shared machine: time the scheduler gives
 * other processes does not count (the waiting host thread sleeps in clFinish). It is the
 * mean over the second half of the launches, not the least: the process clock adds a
 * thread that is still running (the software GPU's, between launches) only at its last
 * scheduler tick, so one launch of a few milliseconds reads as 0 or as a whole tick, and
 * the least of 30 such readings was 0; the first half is left out because the software
 * GPU's translator compiles the kernel's hot blocks on a thread of its own during the
 * first launches. */
static int
child(const char *name, int reps)
{
   cl_platform_id plat;
   cl_device_id dev;
   cl_int err;
   CL(clGetPlatformIDs(1, &plat, NULL));
   CL(clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL));
   if (!strcmp(name, "hpoly")) {
      char ext[8192] = "";
      CL(clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, sizeof(ext) - 1, ext, NULL));
      if (!strstr(ext, "cl_khr_fp16"))
         return CHILD_UNSUPPORTED;
   }
   cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
   CL(err);
   cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
   CL(err);
   cl_program p = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
   CL(err);
   CL(clBuildProgram(p, 1, &dev, NULL, NULL, NULL));
   /* image1 is the image kernel launched otherwise */
   cl_kernel k = clCreateKernel(p, strcmp(name, "image1") ? name : "image", &err);
   CL(err);
   size_t g[2] = {1, 1}, l[2] = {64, 1}, outn = 0;
   unsigned dims = 1;
   cl_mem bufs[3] = {0};
   bool image = false; /* bufs[0] and bufs[2] are images */
   if (!strcmp(name, "vadd")) {
      int *a = malloc(VADD_N * 4), *b = malloc(VADD_N * 4);
      for (int i = 0; i < VADD_N; i++)
         a[i] = i, b[i] = 3 * i;
      bufs[0] = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, VADD_N * 4, a, &err);
      bufs[1] = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, VADD_N * 4, b, &err);
      bufs[2] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, VADD_N * 4, NULL, &err);
      for (int i = 0; i < 3; i++)
         CL(clSetKernelArg(k, i, sizeof(cl_mem), &bufs[i]));
      g[0] = VADD_N, outn = VADD_N;
      free(a), free(b);
   } else if (!strcmp(name, "reduce")) {
      int *a = malloc(RED_N * 4);
      for (int i = 0; i < RED_N; i++)
         a[i] = i % 1000;
      bufs[0] = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, RED_N * 4, a, &err);
      bufs[2] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, RED_N / RED_L * 4, NULL, &err);
      CL(clSetKernelArg(k, 0, sizeof(cl_mem), &bufs[0]));
      CL(clSetKernelArg(k, 1, sizeof(cl_mem), &bufs[2]));
      CL(clSetKernelArg(k, 2, RED_L * 4, NULL));
      g[0] = RED_N, l[0] = RED_L, outn = RED_N / RED_L;
      free(a);
   } else if (!strcmp(name, "matmul")) {
      float *a = malloc(MM_N * MM_N * 4);
      for (int i = 0; i < MM_N * MM_N; i++)
         a[i] = (float)(i % 7) - 3.0f;
      bufs[0] = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, MM_N * MM_N * 4, a, &err);
      bufs[1] = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, MM_N * MM_N * 4, a, &err);
      bufs[2] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, MM_N * MM_N * 4, NULL, &err);
      int n = MM_N;
      for (int i = 0; i < 3; i++)
         CL(clSetKernelArg(k, i, sizeof(cl_mem), &bufs[i]));
      CL(clSetKernelArg(k, 3, sizeof(int), &n));
      dims = 2, g[0] = g[1] = MM_N, l[0] = 16, l[1] = 16, outn = MM_N * MM_N;
      free(a);
   } else if (!strcmp(name, "copy1")) {
      int *a = malloc(C1_W * C1_H * 4);
      for (int i = 0; i < C1_W * C1_H; i++)
         a[i] = i * 7 + 1;
      bufs[0] = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, C1_W * C1_H * 4, a, &err);
      bufs[2] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, C1_W * C1_H * 4, NULL, &err);
      CL(clSetKernelArg(k, 0, sizeof(cl_mem), &bufs[0]));
      CL(clSetKernelArg(k, 1, sizeof(cl_mem), &bufs[2]));
      dims = 2, g[0] = C1_W, g[1] = C1_H, l[0] = 1, l[1] = 1, outn = C1_W * C1_H;
      free(a);
   } else if (!strcmp(name, "image") || !strcmp(name, "image1")) {
      bool one = !strcmp(name, "image1");
      size_t w = one ? I1_W : IM_W, h = one ? I1_H : IM_H;
      cl_image_format fmt = {CL_RGBA, CL_UNORM_INT8};
      cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = w,
                            .image_height = h};
      unsigned *a = malloc(w * h * 4);
      for (unsigned i = 0; i < w * h; i++)
         a[i] = i * 2654435761u;
      bufs[0] = clCreateImage(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &fmt, &desc, a,
                              &err);
      CL(err);
      bufs[2] = clCreateImage(ctx, CL_MEM_WRITE_ONLY, &fmt, &desc, NULL, &err);
      CL(err);
      CL(clSetKernelArg(k, 0, sizeof(cl_mem), &bufs[0]));
      CL(clSetKernelArg(k, 1, sizeof(cl_mem), &bufs[2]));
      dims = 2, g[0] = w, g[1] = h, l[0] = l[1] = one ? 1 : 16, outn = w * h;
      image = true;
      free(a);
   } else if (!strcmp(name, "dpoly")) {
      double *a = malloc(DP_N * 8);
      for (int i = 0; i < DP_N; i++)
         a[i] = (double)(i % 1000) / 1000.0 - 0.5;
      poly_args(ctx, k, bufs, DP_N * 8, a, DP_IT);
      g[0] = DP_N, outn = 2 * DP_N; /* the checksum reads the doubles as int pairs */
      free(a);
   } else if (!strcmp(name, "hpoly")) {
      /* half2 pairs from halves in [-0.5, 0.5) (binary16 bits built from floats here: the
       * host has no half type) */
      uint16_t *a = malloc(HP_N * 4);
      for (int i = 0; i < 2 * HP_N; i++)
         a[i] = half_bits((float)(i % 1000) / 1000.0f - 0.5f);
      poly_args(ctx, k, bufs, HP_N * 4, a, HP_IT);
      g[0] = HP_N, outn = HP_N;
      free(a);
   } else if (!strcmp(name, "dmad")) {
      int it = DM_IT;
      bufs[2] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, DM_N * 8, NULL, &err);
      CL(err);
      CL(clSetKernelArg(k, 0, sizeof(cl_mem), &bufs[2]));
      CL(clSetKernelArg(k, 1, sizeof(int), &it));
      g[0] = DM_N, l[0] = 256, outn = 2 * DM_N; /* the doubles as int pairs */
   } else if (!strcmp(name, "parray")) {
      int ix[256], it = PA_IT;
      for (int i = 0; i < 256; i++)
         ix[i] = (i * 37 + 11) & 31;
      bufs[0] = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof(ix), ix, &err);
      CL(err);
      bufs[2] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, PA_N * 4, NULL, &err);
      CL(err);
      CL(clSetKernelArg(k, 0, sizeof(cl_mem), &bufs[0]));
      CL(clSetKernelArg(k, 1, sizeof(cl_mem), &bufs[2]));
      CL(clSetKernelArg(k, 2, sizeof(int), &it));
      g[0] = PA_N, outn = PA_N;
   } else {
      int w = MB_W, h = MB_H, it = MB_IT;
      bufs[2] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, MB_W * MB_H * 4, NULL, &err);
      CL(clSetKernelArg(k, 0, sizeof(cl_mem), &bufs[2]));
      CL(clSetKernelArg(k, 1, sizeof(int), &w));
      CL(clSetKernelArg(k, 2, sizeof(int), &h));
      CL(clSetKernelArg(k, 3, sizeof(int), &it));
      dims = 2, g[0] = MB_W, g[1] = MB_H, l[0] = 16, l[1] = 16, outn = MB_W * MB_H;
   }
   CL(clEnqueueNDRangeKernel(q, k, dims, NULL, g, l, 0, NULL, NULL));
   CL(clFinish(q));
   double best = 1e30, cpu_sum = 0, wall_sum = 0;
   for (int r = 0; r < reps; r++) {
      double t0 = now_s(), c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
      CL(clEnqueueNDRangeKernel(q, k, dims, NULL, g, l, 0, NULL, NULL));
      CL(clFinish(q));
      double t = now_s() - t0, c = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
      best = t < best ? t : best;
      if (2 * r >= reps)
         cpu_sum += c, wall_sum += t;
   }
   int *out = malloc(outn * 4);
   if (image) {
      size_t origin[3] = {0, 0, 0}, region[3] = {g[0], g[1], 1};
      CL(clEnqueueReadImage(q, bufs[2], CL_TRUE, origin, region, 0, 0, out, 0, NULL, NULL));
   } else {
      CL(clEnqueueReadBuffer(q, bufs[2], CL_TRUE, 0, outn * 4, out, 0, NULL, NULL));
   }
   unsigned long long sum = 0;
   for (size_t i = 0; i < outn; i++)
      sum = sum * 31 + (unsigned)out[i];
   unsigned later = reps - reps / 2;
   printf("%.9f %llu %.9f %.9f\n", reps ? best : 0.0, sum, reps ? cpu_sum / later : 0.0,
          reps ? wall_sum / later : 0.0);
   free(out);
   for (int i = 0; i < 3; i++)
      if (bufs[i])
         clReleaseMemObject(bufs[i]);
   clReleaseKernel(k);
   clReleaseProgram(p);
   clReleaseCommandQueue(q);
   clReleaseContext(ctx);
   return 0;
}

/* Runs a child with the given environment; returns 0 and its figures on success. */
static int
spawn(const char *self, const char *kernel, int reps, const char *vendors, int threads,
      const char *counts, double *secs, unsigned long long *sum, double *cpu,
      double *wall_mean)
{
   int fd[2];
   if (pipe(fd))
      return -1;
   pid_t pid = fork();
   if (pid == 0) {
      dup2(fd[1], 1);
      close(fd[0]);
      close(fd[1]);
      char t[16], r[16];
      snprintf(t, sizeof(t), "%d", threads);
      snprintf(r, sizeof(r), "%d", reps);
      setenv("OCL_ICD_VENDORS", vendors, 1);
      setenv("HSACL_SIM_THREADS", t, 1);
      if (counts)
         setenv("HSACL_SIM_COUNTS", counts, 1);
      else
         unsetenv("HSACL_SIM_COUNTS");
      execl(self, self, "--child", kernel, r, (char *)NULL);
      _exit(127);
   }
   close(fd[1]);
   FILE *f = fdopen(fd[0], "r");
   double c = 0, wm = 0;
   int ok = fscanf(f, "%lf %llu %lf %lf", secs, sum, &c, &wm) >= 2;
   if (cpu)
      *cpu = c;
   if (wall_mean)
      *wall_mean = wm;
   fclose(f);
   int st;
   waitpid(pid, &st, 0);
   if (WIFEXITED(st) && WEXITSTATUS(st) == CHILD_UNSUPPORTED)
      return CHILD_UNSUPPORTED;
   return ok && WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

/* Sums a HSACL_SIM_COUNTS file: vector lane-instructions and scalar instructions. */
static void
read_counts(const char *path, double *vlanes, double *sinst, double *vinst)
{
   *vlanes = *sinst = *vinst = 0;
   FILE *f = fopen(path, "r");
   if (!f)
      return;
   char line[256], enc[32], mnem[64];
   unsigned long long c, lanes;
   while (fgets(line, sizeof(line), f)) {
      if (sscanf(line, "%31[A-Z0-9_]:%63s %llu %llu", enc, mnem, &c, &lanes) != 4)
         continue;
      if (!strncmp(enc, "SOP", 3) || !strcmp(enc, "SMEM"))
         *sinst += c;
      else
         *vlanes += lanes, *vinst += c;
   }
   fclose(f);
}

static void
print_load(const char *when)
{
   double l[3];
   if (getloadavg(l, 3) == 3)
      printf("load average %s: %.2f %.2f %.2f (%ld cores)\n", when, l[0], l[1], l[2],
             sysconf(_SC_NPROCESSORS_ONLN));
}

int
main(int argc, char **argv)
{
   if (argc >= 4 && !strcmp(argv[1], "--child"))
      return child(argv[2], atoi(argv[3]));
   int reps = argc > 1 ? atoi(argv[1]) : 3;
   if (reps < 1)
      reps = 1;
   char self[4096];
   ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
   if (n <= 0)
      return 1;
   self[n] = 0;
   int cores = (int)sysconf(_SC_NPROCESSORS_ONLN);
   char counts[] = "/tmp/hsacl-bench-sim-XXXXXX";
   int cfd = mkstemp(counts);
   if (cfd >= 0)
      close(cfd);
   /* The children inherit HSACL_SIM_XLATE: 0 interprets, anything else (or nothing)
    * translates hot blocks (docs/sim.md, "Speed"). */
   const char *xlate = getenv("HSACL_SIM_XLATE");
   const char *mode = "translator";
   if (xlate && strcmp(xlate, "0") == 0)
      mode = "interpreter";
   else if (xlate && strcmp(xlate, "check") == 0)
      mode = "translator checked against the interpreter";
   /* The children inherit HSACL_SIM_GPUS too: the target they run on (gfx906 without it). */
   const char *gpus = getenv("HSACL_SIM_GPUS");
   if (!gpus || !*gpus)
      gpus = "gfx906";
   printf("hsacl software GPU (%s, %s) vs PoCL, best of %d launches; lane-instr = "
          "vector instructions x active lanes (scalar instructions not included)\n", gpus, mode,
          reps);
   print_load("before");
   printf("%-7s %10s %9s | %8s %8s %9s %6s | %8s %8s %5s %9s %6s | %8s\n", "", "lane-", "scalar",
          "1 thread", "", "", "ratio", "all", "cores", "", "", "ratio", "PoCL");
   printf("%-7s %10s %9s | %8s %8s %9s %6s | %8s %8s %5s %9s %6s | %8s\n", "kernel", "instr",
          "instr", "wall s", "CPU s", "lane-i/s", "/PoCL", "wall s", "CPU s", "par", "lane-i/s",
          "/PoCL", "wall s");
   for (unsigned i = 0; i < NK; i++) {
      double t1 = 0, c1 = 0, tn = 0, cn = 0, wn = 0, tp = 0, tc, vl = 0, si = 0, vi = 0;
      unsigned long long s1 = 0, sn = 0, sp = 0, sc;
      int e1 = spawn(self, kernels[i], reps, BENCH_HSACL_VENDORS, 1, NULL, &t1, &s1, &c1,
                     NULL);
      int en = spawn(self, kernels[i], reps, BENCH_HSACL_VENDORS, cores, NULL, &tn, &sn, &cn,
                     &wn);
      int ec = spawn(self, kernels[i], 0, BENCH_HSACL_VENDORS, 1, counts, &tc, &sc, NULL, NULL);
      if (!ec)
         read_counts(counts, &vl, &si, &vi);
      int ep = spawn(self, kernels[i], reps, BENCH_POCL_VENDORS, cores, NULL, &tp, &sp, NULL, NULL);
      char note[96] = "";
      if (e1 || en || ec)
         snprintf(note, sizeof(note), "hsacl run failed");
      else if (ep == CHILD_UNSUPPORTED)
         snprintf(note, sizeof(note), "PoCL has no cl_khr_fp16");
      else if (ep)
         snprintf(note, sizeof(note), "PoCL run failed");
      else if (s1 != sp || sn != sp)
         snprintf(note, sizeof(note), "(results differ from PoCL)");
      printf("%-7s %10.4g %9.4g | %8.4f %8.4f %9.3g %6.1f | %8.4f %8.4f %5.2f %9.3g %6.1f | "
             "%8.4f %s\n",
             kernels[i], vl, si, t1, c1, e1 ? 0 : vl / t1, ep || e1 ? 0 : t1 / tp, tn, cn,
             wn > 0 ? cn / wn : 0, en ? 0 : vl / tn, ep || en ? 0 : tn / tp, tp, note);
      fflush(stdout);
   }
   print_load("after");
   printf("all cores = %d threads (HSACL_SIM_THREADS) for hsacl; PoCL uses its default. Times "
          "are per launch: wall the best, CPU the mean of the later half; par = that CPU / the "
          "same launches' mean wall, all cores. Goals: >= 1e9 lane-instr/s, ratio <= 30.\n",
          cores);
   unlink(counts);
   return 0;
}
