/*
 * tests/dispatch/api_scratch_test.c — kernels that need private (scratch) memory, on both runtimes
 * (as api_scratch.rocr on ROCr over the software KFD, where every queue starts without
 * scratch and the first such kernel goes through ROCr's dynamic scratch request):
 *   - private arrays indexed with values read from memory, 256 B and 16 KiB per work-item
 *     (the second is ROCr's single-use "large" scratch), checked against the host;
 *   - interleaved on one queue (the queue's scratch grows, is given back, grows again), and
 *     on two queues at once;
 *   - CL_KERNEL_PRIVATE_MEM_SIZE reports each kernel's need;
 *   - a kernel whose private memory exceeds what a gfx906 wave can have (131056 bytes per
 *     work-item: 8191 KiB per wave) does not build, on both runtimes (the runtimes' refusal
 *     of such a dispatch is kfd_test_scratch's).
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <stdint.h>
#include <string.h>

#include "hsacl_test.h"

static const char *source =
   "#define BODY(N)                                                     \\\n"
   "   uint t[N];                                                       \\\n"
   "   uint g = get_global_id(0);                                       \\\n"
   "   for (uint i = 0; i < N; i++) t[i] = g * 131u + i * 7u;           \\\n"
   "   uint s = 0;                                                      \\\n"
   "   for (uint k = 0; k < 8; k++) s += t[idx[(g + k) % n] % N] ^ k;   \\\n"
   "   out[g] = s;\n"
   "kernel void small(global uint *out, global const uint *idx, uint n) { BODY(64) }\n"
   "kernel void large(global uint *out, global const uint *idx, uint n) { BODY(4096) }\n";

static const char *too_big =
   "kernel void huge(global uint *out, global const uint *idx, uint n) {\n"
   "   uint t[80000];\n"
   "   uint g = get_global_id(0);\n"
   "   for (uint i = 0; i < 80000; i++) t[i] = g + i;\n"
   "   out[g] = t[idx[g % n] % 80000];\n"
   "}\n";

#define N 2048
#define NIDX 97

static cl_uint idx_host[NIDX];

static cl_uint
expect(cl_uint g, cl_uint len)
{
   cl_uint s = 0;
   for (cl_uint k = 0; k < 8; k++) {
      cl_uint i = idx_host[(g + k) % NIDX] % len;
      s += (g * 131u + i * 7u) ^ k;
   }
   return s;
}

/* Enqueues `k` over N work-items into `out` (no wait). */
static cl_int
launch(cl_command_queue q, cl_kernel k, cl_mem out, cl_mem idx, cl_event *ev)
{
   cl_uint n = NIDX;
   clSetKernelArg(k, 0, sizeof(out), &out);
   clSetKernelArg(k, 1, sizeof(idx), &idx);
   clSetKernelArg(k, 2, sizeof(n), &n);
   size_t global = N, local = 64;
   return clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, ev);
}

static int
wrong(cl_command_queue q, cl_mem out, cl_uint len)
{
   static cl_uint host[N];
   memset(host, 0, sizeof(host));
   if (clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof(host), host, 0, NULL, NULL) != CL_SUCCESS)
      return N;
   int bad = 0;
   for (cl_uint g = 0; g < N; g++)
      bad += host[g] != expect(g, len);
   return bad;
}

int
main(void)
{
   test_watchdog("api_scratch", 240);
   cl_platform_id platform;
   cl_device_id dev;
   cl_int err;
   CHECK_EQ_INT(clGetPlatformIDs(1, &platform, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &dev, NULL), CL_SUCCESS);
   cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_program prog = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
   err = clBuildProgram(prog, 1, &dev, NULL, NULL, NULL);
   CHECK_EQ_INT(err, CL_SUCCESS);
   if (err != CL_SUCCESS) {
      static char log[16384];
      clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof(log) - 1, log, NULL);
      fprintf(stderr, "build log:\n%s\n", log);
      return test_main_end();
   }
   cl_kernel small = clCreateKernel(prog, "small", &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_kernel large = clCreateKernel(prog, "large", &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_ulong priv[2] = {0, 0};
   cl_kernel ks[2] = {small, large};
   for (int i = 0; i < 2; i++)
      clGetKernelWorkGroupInfo(ks[i], dev, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof(priv[i]),
                               &priv[i], NULL);
   CHECK(priv[0] >= 256 && priv[1] >= 16384);

   for (cl_uint i = 0; i < NIDX; i++)
      idx_host[i] = (i * 2654435761u) >> 5;
   cl_mem idx = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(idx_host),
                               idx_host, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_mem out[2];
   for (int i = 0; i < 2; i++) {
      out[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * 4, NULL, &err);
      CHECK_EQ_INT(err, CL_SUCCESS);
   }
   cl_command_queue q[2];
   for (int i = 0; i < 2; i++) {
      q[i] = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
      CHECK_EQ_INT(err, CL_SUCCESS);
   }

   /* One queue: small, large, small again (the queue's scratch grows and shrinks). */
   cl_uint lens[3] = {64, 4096, 64};
   cl_kernel seq[3] = {small, large, small};
   for (int i = 0; i < 3; i++) {
      CHECK_EQ_INT(launch(q[0], seq[i], out[0], idx, NULL), CL_SUCCESS);
      CHECK_EQ_INT(wrong(q[0], out[0], lens[i]), 0);
   }
   /* Back to back without waiting, then two queues at once. */
   CHECK_EQ_INT(launch(q[0], large, out[0], idx, NULL), CL_SUCCESS);
   CHECK_EQ_INT(launch(q[0], small, out[1], idx, NULL), CL_SUCCESS);
   CHECK_EQ_INT(wrong(q[0], out[0], 4096), 0);
   CHECK_EQ_INT(wrong(q[0], out[1], 64), 0);
   CHECK_EQ_INT(launch(q[0], small, out[0], idx, NULL), CL_SUCCESS);
   CHECK_EQ_INT(launch(q[1], large, out[1], idx, NULL), CL_SUCCESS);
   CHECK_EQ_INT(wrong(q[0], out[0], 64), 0);
   CHECK_EQ_INT(wrong(q[1], out[1], 4096), 0);

   /* More than a wave's scratch: the build fails, naming the stack frame. */
   cl_program big = clCreateProgramWithSource(ctx, 1, &too_big, NULL, &err);
   CHECK_EQ_INT(clBuildProgram(big, 1, &dev, NULL, NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
   static char log[16384];
   clGetProgramBuildInfo(big, dev, CL_PROGRAM_BUILD_LOG, sizeof(log) - 1, log, NULL);
   CHECK(strstr(log, "stack frame size") != NULL);
   clReleaseProgram(big);
   /* The context's queues work on. */
   CHECK_EQ_INT(launch(q[1], small, out[0], idx, NULL), CL_SUCCESS);
   CHECK_EQ_INT(wrong(q[1], out[0], 64), 0);

   for (int i = 0; i < 2; i++) {
      clReleaseCommandQueue(q[i]);
      clReleaseMemObject(out[i]);
   }
   clReleaseMemObject(idx);
   for (int i = 0; i < 2; i++)
      clReleaseKernel(ks[i]);
   clReleaseProgram(prog);
   clReleaseContext(ctx);
   return test_main_end();
}
