/*
 * tests/dispatch/api_mfma_test.c — gfx90a's matrix and float-atomic instructions reached from
 * OpenCL C through clang's AMDGPU builtins, end to end (docs/sim.md "Targets"): one wave
 * multiplies matrices with __builtin_amdgcn_mfma_f32_16x16x4f32 (v_mfma_f32_16x16x4f32),
 * _f32_32x32x2f32 and _f64_16x16x4f64, each operand placed in the lanes the CDNA2 ISA guide
 * gives, and the products are checked against the host's D = A B + C; a second kernel adds
 * to one float and one double in global memory from 256 work-items with
 * __builtin_amdgcn_global_atomic_fadd_f32 / _f64 (GLOBAL_ATOMIC_ADD_F32 / _F64 with return),
 * whose returned old values must be a permutation of 0..255 (each seen by one work-item).
 *
 * The device must be a gfx90a (HSACL_SIM_GPUS=gfx90a; the builtins exist on no other target
 * hsacl's software GPU models). The matrix entries are small multiples of 1/2, so every sum
 * is exact whatever the order of accumulation.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hsacl_test.h"

/* Lane l of the wave; A is M x K, B K x M, C and D M x M, row-major in memory.
 *   16x16x4: A[i][k] in lane 16k+i, B[k][j] in lane 16k+j, D[i][j] in lane 16(i/4)+j,
 *            element i%4 (f32) — for f64, lane 16(i%4)+j, element i/4;
 *   32x32x2: A[i][k] in lane 32k+i, B[k][j] in lane 32k+j, D[i][j] in lane 32((i/4)%2)+j,
 *            element 4(i/8) + i%4. */
static const char *source =
   "kernel void mm16(global const float *a, global const float *b, global const float *c,\n"
   "                 global float *d) {\n"
   "   uint l = get_local_id(0), i0 = 4 * (l / 16), j = l % 16;\n"
   "   float av = a[(l % 16) * 4 + l / 16], bv = b[(l / 16) * 16 + l % 16];\n"
   "   float4 cv = (float4)(c[i0 * 16 + j], c[(i0 + 1) * 16 + j], c[(i0 + 2) * 16 + j],\n"
   "                        c[(i0 + 3) * 16 + j]);\n"
   "   float4 r = __builtin_amdgcn_mfma_f32_16x16x4f32(av, bv, cv, 0, 0, 0);\n"
   "   d[i0 * 16 + j] = r.x; d[(i0 + 1) * 16 + j] = r.y;\n"
   "   d[(i0 + 2) * 16 + j] = r.z; d[(i0 + 3) * 16 + j] = r.w;\n"
   "}\n"
   "kernel void mm32(global const float *a, global const float *b, global const float *c,\n"
   "                 global float *d) {\n"
   "   uint l = get_local_id(0), j = l % 32, h = l / 32;\n"
   "   float av = a[(l % 32) * 2 + l / 32], bv = b[(l / 32) * 32 + l % 32];\n"
   "   float cv[16], dv[16];\n"
   "   for (int e = 0; e < 16; e++)\n"
   "      cv[e] = c[(8 * (e / 4) + 4 * h + e % 4) * 32 + j];\n"
   "   float16 r = __builtin_amdgcn_mfma_f32_32x32x2f32(av, bv, vload16(0, cv), 0, 0, 0);\n"
   "   vstore16(r, 0, dv);\n"
   "   for (int e = 0; e < 16; e++)\n"
   "      d[(8 * (e / 4) + 4 * h + e % 4) * 32 + j] = dv[e];\n"
   "}\n"
   "kernel void mm64(global const double *a, global const double *b, global const double *c,\n"
   "                 global double *d) {\n"
   "   uint l = get_local_id(0), j = l % 16, i1 = l / 16;\n"
   "   double av = a[(l % 16) * 4 + l / 16], bv = b[(l / 16) * 16 + l % 16];\n"
   "   double4 cv = (double4)(c[i1 * 16 + j], c[(i1 + 4) * 16 + j], c[(i1 + 8) * 16 + j],\n"
   "                          c[(i1 + 12) * 16 + j]);\n"
   "   double4 r = __builtin_amdgcn_mfma_f64_16x16x4f64(av, bv, cv, 0, 0, 0);\n"
   "   d[i1 * 16 + j] = r.x; d[(i1 + 4) * 16 + j] = r.y;\n"
   "   d[(i1 + 8) * 16 + j] = r.z; d[(i1 + 12) * 16 + j] = r.w;\n"
   "}\n"
   "kernel void fadd(global float *f, global double *g, global float *of, global double *og) {\n"
   "   size_t i = get_global_id(0);\n"
   "   of[i] = __builtin_amdgcn_global_atomic_fadd_f32(f, 1.0f);\n"
   "   og[i] = __builtin_amdgcn_global_atomic_fadd_f64(g, 1.0);\n"
   "}\n";

static cl_context ctx;
static cl_command_queue queue;
static cl_program program;

static cl_mem
buffer(size_t size, const void *init)
{
   cl_int err;
   cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE | (init ? CL_MEM_COPY_HOST_PTR : 0), size,
                             (void *)init, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   return m;
}

/* Runs kernel `name` over `n` work-items in work-groups of `local` on buffers 0..nargs-1. */
static void
run(const char *name, size_t n, size_t local, cl_mem *args, unsigned nargs)
{
   cl_int err;
   cl_kernel k = clCreateKernel(program, name, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   if (err != CL_SUCCESS)
      return;
   for (unsigned i = 0; i < nargs; i++)
      CHECK_EQ_INT(clSetKernelArg(k, i, sizeof(cl_mem), &args[i]), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueNDRangeKernel(queue, k, 1, NULL, &n, &local, 0, NULL, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(clFinish(queue), CL_SUCCESS);
   clReleaseKernel(k);
}

/* Entries in -4 .. 4 step 1/2, reproducible. */
static double
entry(unsigned *seed)
{
   *seed = *seed * 1103515245u + 12345u;
   return ((int)((*seed >> 16) % 17) - 8) / 2.0;
}

/* D = A (m x k) B (k x m) + C for float (wide = false) or double; compares with the GPU's. */
static void
check_mm(const char *name, unsigned m, unsigned kk, bool wide)
{
   size_t es = wide ? sizeof(double) : sizeof(float);
   double *a = malloc(m * kk * 8), *b = malloc(kk * m * 8), *c = malloc(m * m * 8);
   unsigned char *ha = malloc(m * kk * es), *hb = malloc(kk * m * es), *hc = malloc(m * m * es);
   unsigned char *hd = malloc(m * m * es);
   unsigned seed = m * 7 + kk + wide;
   for (unsigned i = 0; i < m * kk; i++)
      a[i] = entry(&seed), b[i] = entry(&seed);
   for (unsigned i = 0; i < m * m; i++)
      c[i] = entry(&seed);
   for (unsigned i = 0; i < m * kk; i++) {
      if (wide) {
         memcpy(ha + 8 * i, &a[i], 8), memcpy(hb + 8 * i, &b[i], 8);
      } else {
         float fa = (float)a[i], fb = (float)b[i];
         memcpy(ha + 4 * i, &fa, 4), memcpy(hb + 4 * i, &fb, 4);
      }
   }
   for (unsigned i = 0; i < m * m; i++) {
      float fc = (float)c[i];
      if (wide)
         memcpy(hc + 8 * i, &c[i], 8);
      else
         memcpy(hc + 4 * i, &fc, 4);
   }
   cl_mem args[4] = {buffer(m * kk * es, ha), buffer(kk * m * es, hb), buffer(m * m * es, hc),
                     buffer(m * m * es, NULL)};
   run(name, 64, 64, args, 4);
   CHECK_EQ_INT(clEnqueueReadBuffer(queue, args[3], CL_TRUE, 0, m * m * es, hd, 0, NULL, NULL),
                CL_SUCCESS);
   unsigned bad = 0;
   for (unsigned i = 0; i < m; i++)
      for (unsigned j = 0; j < m; j++) {
         double want = c[i * m + j];
         for (unsigned k = 0; k < kk; k++)
            want += a[i * kk + k] * b[k * m + j];
         double got;
         if (wide) {
            memcpy(&got, hd + 8 * (i * m + j), 8);
         } else {
            float f;
            memcpy(&f, hd + 4 * (i * m + j), 4);
            got = f;
         }
         if (got != want && bad++ < 4)
            fprintf(stderr, "%s: D[%u][%u] = %g, want %g\n", name, i, j, got, want);
      }
   CHECK_EQ_INT(bad, 0);
   for (unsigned i = 0; i < 4; i++)
      clReleaseMemObject(args[i]);
   free(a), free(b), free(c), free(ha), free(hb), free(hc), free(hd);
}

/* 256 work-items (4 work-groups) add 1 to one float and one double starting at 0. */
static void
check_fadd(void)
{
   enum { N = 256 };
   float zero_f = 0.0f, of[N];
   double zero_d = 0.0, og[N];
   cl_mem args[4] = {buffer(4, &zero_f), buffer(8, &zero_d), buffer(sizeof(of), NULL),
                     buffer(sizeof(og), NULL)};
   run("fadd", N, 64, args, 4);
   float f;
   double g;
   CHECK_EQ_INT(clEnqueueReadBuffer(queue, args[0], CL_TRUE, 0, 4, &f, 0, NULL, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueReadBuffer(queue, args[1], CL_TRUE, 0, 8, &g, 0, NULL, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueReadBuffer(queue, args[2], CL_TRUE, 0, sizeof(of), of, 0, NULL, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueReadBuffer(queue, args[3], CL_TRUE, 0, sizeof(og), og, 0, NULL, NULL),
                CL_SUCCESS);
   CHECK(f == (float)N);
   CHECK(g == (double)N);
   bool seen_f[N] = {false}, seen_g[N] = {false};
   unsigned bad = 0;
   for (unsigned i = 0; i < N; i++) {
      int vf = (int)of[i], vg = (int)og[i];
      bad += vf < 0 || vf >= N || of[i] != vf || seen_f[vf];
      bad += vg < 0 || vg >= N || og[i] != vg || seen_g[vg];
      if (vf >= 0 && vf < N)
         seen_f[vf] = true;
      if (vg >= 0 && vg < N)
         seen_g[vg] = true;
   }
   CHECK_EQ_INT(bad, 0);
   for (unsigned i = 0; i < 4; i++)
      clReleaseMemObject(args[i]);
}

int
main(void)
{
   test_watchdog("api_mfma", 120);
   cl_platform_id platform;
   cl_device_id device;
   cl_int err;
   CHECK_EQ_INT(clGetPlatformIDs(1, &platform, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &device, NULL), CL_SUCCESS);
   char name[64] = "";
   clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof(name), name, NULL);
   CHECK_STR(name, "gfx90a");
   ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   queue = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   program = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   err = clBuildProgram(program, 1, &device, "", NULL, NULL);
   if (err != CL_SUCCESS) {
      char log[8192] = "";
      clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof(log), log, NULL);
      fprintf(stderr, "build failed (%d):\n%s\n", err, log);
   }
   CHECK_EQ_INT(err, CL_SUCCESS);
   if (err == CL_SUCCESS) {
      check_mm("mm16", 16, 4, false);
      check_mm("mm32", 32, 2, false);
      check_mm("mm64", 16, 4, true);
      check_fadd();
   }
   clReleaseProgram(program);
   clReleaseCommandQueue(queue);
   clReleaseContext(ctx);
   return test_main_end();
}
