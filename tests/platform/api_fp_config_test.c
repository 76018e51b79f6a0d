/*
 * tests/platform/api_fp_config_test.c — CL_DEVICE_SINGLE_FP_CONFIG and what it promises (OpenCL 3.0
 * API §4.2, OpenCL C §7.4): with CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT reported, a program
 * built with -cl-fp32-correctly-rounded-divide-sqrt divides and takes square roots
 * correctly rounded (round to nearest even), denormals included since CL_FP_DENORM is
 * reported. Checked bit for bit against the host's IEEE arithmetic on random bit patterns
 * and the edge cases. CL_FP_INF_NAN: an invalid operation computed at run time gives the
 * GPU's default NaN, sign clear (0x7FC00000), not the x86 host's 0xFFC00000, and a NaN
 * operand comes back with its sign.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <math.h>
#include <stdint.h>

#include "hsacl_test.h"

#define N (1 << 16)

static const char *source =
   "kernel void divsqrt(global const float *a, global const float *b, global float *q,\n"
   "                    global float *s)\n"
   "{\n"
   "   size_t i = get_global_id(0);\n"
   "   q[i] = a[i] / b[i];\n"
   "   s[i] = sqrt(a[i]);\n"
   "}\n";

static uint32_t
bits(float f)
{
   uint32_t u;
   memcpy(&u, &f, 4);
   return u;
}

static float
from_bits(uint32_t u)
{
   float f;
   memcpy(&f, &u, 4);
   return f;
}

/* The operands come from a buffer, so the compiler folds none of the invalid operations; the
 * program is built without options (the default division and sqrt). */
static const char *nan_source =
   "kernel void nanbits(global const float *z, global uint *out)\n"
   "{\n"
   "   float zero = z[0], inf = z[1], m1 = z[2], one = z[3], nnan = z[4];\n"
   "   out[0] = as_uint(zero / zero);\n"
   "   out[1] = as_uint(inf - inf);\n"
   "   out[2] = as_uint(zero * inf);\n"
   "   out[3] = as_uint(sqrt(m1));\n"
   "   out[4] = as_uint(fma(zero, inf, one));\n"
   "   out[5] = as_uint(log2(m1));\n"
   "   out[6] = as_uint(one + nnan);\n"
   "   out[7] = as_uint(inf / inf);\n"
   "}\n";

/* Runs nanbits; the first six results are +NaN 0x7FC00000 as on AMD GPUs, the seventh keeps
 * the NaN operand's sign. */
static void
check_nan_bits(cl_context ctx, cl_command_queue queue, cl_device_id device)
{
   cl_int err;
   const float z[5] = { 0.0f, INFINITY, -1.0f, 1.0f, from_bits(0xFFC00000u) };
   cl_uint out[8] = { 0 };
   cl_program prog = clCreateProgramWithSource(ctx, 1, &nan_source, NULL, &err);
   CHECK_EQ_INT(clBuildProgram(prog, 1, &device, "", NULL, NULL), CL_SUCCESS);
   cl_kernel k = clCreateKernel(prog, "nanbits", &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_mem mz = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof(z), (void *)z, &err);
   cl_mem mo = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, sizeof(out), NULL, &err);
   CHECK_EQ_INT(clSetKernelArg(k, 0, sizeof(cl_mem), &mz), CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArg(k, 1, sizeof(cl_mem), &mo), CL_SUCCESS);
   size_t g = 1;
   CHECK_EQ_INT(clEnqueueNDRangeKernel(queue, k, 1, NULL, &g, NULL, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueReadBuffer(queue, mo, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL),
                CL_SUCCESS);
   static const char *what[8] = { "0/0",       "inf-inf",   "0*inf",  "sqrt(-1)",
                                  "fma(0,inf,1)", "log2(-1)", "1+-NaN", "inf/inf" };
   for (int i = 0; i < 8; i++) {
      cl_uint want = i == 6 ? 0xFFC00000u : 0x7FC00000u;
      if (out[i] != want) {
         fprintf(stderr, "%s: got 0x%08x, want 0x%08x\n", what[i], out[i], want);
         CHECK(out[i] == want);
      }
   }
   clReleaseMemObject(mz);
   clReleaseMemObject(mo);
   clReleaseKernel(k);
   clReleaseProgram(prog);
}

/* Same value, or both NaN (the NaN's payload is not specified). */
static int
same(float got, float want)
{
   return (isnan(got) && isnan(want)) || bits(got) == bits(want);
}

int
main(void)
{
   test_watchdog("api_fp_config", 240);
   cl_platform_id platform;
   cl_device_id device;
   cl_int err;
   CHECK_EQ_INT(clGetPlatformIDs(1, &platform, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &device, NULL), CL_SUCCESS);
   cl_device_fp_config fp = 0;
   CHECK_EQ_INT(clGetDeviceInfo(device, CL_DEVICE_SINGLE_FP_CONFIG, sizeof(fp), &fp, NULL),
                CL_SUCCESS);
   CHECK(fp & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT);
   CHECK(fp & CL_FP_DENORM);
   CHECK(fp & CL_FP_ROUND_TO_NEAREST);
   CHECK(fp & CL_FP_INF_NAN);

   static float a[N], b[N], q[N], s[N];
   uint64_t x = 0x9E3779B97F4A7C15ull;
   for (int i = 0; i < N; i++) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      a[i] = from_bits((uint32_t)x);
      b[i] = from_bits((uint32_t)(x >> 32));
      if (i % 4 == 1) /* denormal operands and results */
         a[i] = from_bits((uint32_t)x & 0x807fffffu);
      if (i % 8 == 2) /* quotients near 1 and exact ones */
         b[i] = nextafterf(a[i], INFINITY);
   }
   const float edge[] = { 0.0f, -0.0f, 1.0f, -1.0f, INFINITY, -INFINITY, NAN, 3.0f,
                          from_bits(1), from_bits(0x007fffff), from_bits(0x00800000),
                          from_bits(0x7f7fffff), 2.0f, 0.5f, 7.0f, 1e-38f };
   const int ne = (int)(sizeof(edge) / sizeof(edge[0]));
   for (int i = 0; i < ne * ne; i++) {
      a[i] = edge[i / ne];
      b[i] = edge[i % ne];
   }

   cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_command_queue queue = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_program prog = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
   CHECK_EQ_INT(clBuildProgram(prog, 1, &device, "-cl-fp32-correctly-rounded-divide-sqrt",
                               NULL, NULL),
                CL_SUCCESS);
   cl_kernel k = clCreateKernel(prog, "divsqrt", &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   if (test_failed)
      return test_main_end();
   cl_mem ma = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof(a), a, &err);
   cl_mem mb = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof(b), b, &err);
   cl_mem mq = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, sizeof(q), NULL, &err);
   cl_mem ms = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, sizeof(s), NULL, &err);
   cl_mem args[4] = { ma, mb, mq, ms };
   for (cl_uint i = 0; i < 4; i++)
      CHECK_EQ_INT(clSetKernelArg(k, i, sizeof(cl_mem), &args[i]), CL_SUCCESS);
   size_t g = N;
   CHECK_EQ_INT(clEnqueueNDRangeKernel(queue, k, 1, NULL, &g, NULL, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueReadBuffer(queue, mq, CL_FALSE, 0, sizeof(q), q, 0, NULL, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueReadBuffer(queue, ms, CL_TRUE, 0, sizeof(s), s, 0, NULL, NULL),
                CL_SUCCESS);
   int bad_q = 0, bad_s = 0;
   for (int i = 0; i < N; i++) {
      float wq = a[i] / b[i], ws = sqrtf(a[i]);
      if (!same(q[i], wq) && bad_q++ < 5)
         fprintf(stderr, "%a / %a: got %a, IEEE %a\n", a[i], b[i], q[i], wq);
      if (!same(s[i], ws) && bad_s++ < 5)
         fprintf(stderr, "sqrt(%a): got %a, IEEE %a\n", a[i], s[i], ws);
   }
   CHECK_EQ_INT(bad_q, 0);
   CHECK_EQ_INT(bad_s, 0);
   check_nan_bits(ctx, queue, device);
   for (int i = 0; i < 4; i++)
      clReleaseMemObject(args[i]);
   clReleaseKernel(k);
   clReleaseProgram(prog);
   clReleaseCommandQueue(queue);
   clReleaseContext(ctx);
   return test_main_end();
}
