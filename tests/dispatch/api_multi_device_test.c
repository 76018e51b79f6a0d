/*
 * tests/dispatch/api_multi_device_test.c — a context over every GPU device (run with
 * HSACL_KFD_GPUS=2 on the software runtime and on ROCr over the software KFD): one program
 * built for all of them (a binary per device), a queue per device, a buffer written by a
 * kernel on the first device and read by a kernel on the second (an event across the two
 * queues orders them), the same buffer copied and read back through the second device's
 * queue, migrated to it, and written there then read through the first; a command on the
 * second device held by the first device's event until a user event releases it; kernels
 * on every device at once, and the results read back through each queue.
 * argv[1]: the device count expected, unless HSACL_SIM_GPUS names the GPUs (then one a
 * name: it takes precedence over HSACL_KFD_GPUS, docs/sim.md "Targets"); with two targets
 * (gfx906,gfx90a) the one program holds a binary of each.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "hsacl_test.h"

static const char *source =
   "kernel void fill(global uint *b, uint base) {\n"
   "   uint i = get_global_id(0);\n"
   "   b[i] = base + i * 3u;\n"
   "}\n"
   "kernel void twice(global const uint *in, global uint *out) {\n"
   "   uint i = get_global_id(0);\n"
   "   out[i] = in[i] * 2u + 1u;\n"
   "}\n";

#define N 4096
#define MAX_DEV 8

int
main(int argc, char **argv)
{
   test_watchdog("api_multi_device", 240);
   cl_uint want = argc > 1 ? (cl_uint)atoi(argv[1]) : 2;
   const char *gpus = getenv("HSACL_SIM_GPUS");
   if (gpus && *gpus) {
      want = 1;
      for (const char *c = gpus; *c; c++)
         want += *c == ',';
   }
   cl_platform_id platform;
   cl_device_id dev[MAX_DEV];
   cl_uint n = 0;
   cl_int err;
   CHECK_EQ_INT(clGetPlatformIDs(1, &platform, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, MAX_DEV, dev, &n), CL_SUCCESS);
   CHECK_EQ_INT(n, want);
   if (n < 2)
      return test_main_end();
   cl_context ctx = clCreateContext(NULL, n, dev, NULL, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_program prog = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
   CHECK_EQ_INT(clBuildProgram(prog, n, dev, NULL, NULL, NULL), CL_SUCCESS);
   /* Built for every device: a build status and a binary each. */
   size_t sizes[MAX_DEV] = {0};
   CHECK_EQ_INT(clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, n * sizeof(size_t), sizes, NULL),
                CL_SUCCESS);
   for (cl_uint d = 0; d < n; d++) {
      cl_build_status bs = CL_BUILD_NONE;
      CHECK_EQ_INT(clGetProgramBuildInfo(prog, dev[d], CL_PROGRAM_BUILD_STATUS, sizeof(bs), &bs,
                                         NULL),
                   CL_SUCCESS);
      CHECK_EQ_INT(bs, CL_BUILD_SUCCESS);
      CHECK(sizes[d] > 0);
   }
   cl_command_queue q[MAX_DEV];
   for (cl_uint d = 0; d < n; d++) {
      q[d] = clCreateCommandQueueWithProperties(ctx, dev[d], NULL, &err);
      CHECK_EQ_INT(err, CL_SUCCESS);
   }
   cl_kernel fill = clCreateKernel(prog, "fill", &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_kernel twice = clCreateKernel(prog, "twice", &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   size_t global = N;

   /* Written on device 0, read on device 1, ordered by an event across the queues. */
   cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * 4, NULL, &err);
   cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * 4, NULL, &err);
   cl_uint base = 7;
   clSetKernelArg(fill, 0, sizeof(a), &a);
   clSetKernelArg(fill, 1, sizeof(base), &base);
   cl_event filled;
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q[0], fill, 1, NULL, &global, NULL, 0, NULL, &filled),
                CL_SUCCESS);
   clSetKernelArg(twice, 0, sizeof(a), &a);
   clSetKernelArg(twice, 1, sizeof(b), &b);
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q[1], twice, 1, NULL, &global, NULL, 1, &filled, NULL),
                CL_SUCCESS);
   static cl_uint out[N];
   CHECK_EQ_INT(clEnqueueReadBuffer(q[1], b, CL_TRUE, 0, N * 4, out, 0, NULL, NULL),
                CL_SUCCESS);
   int bad = 0;
   for (cl_uint i = 0; i < N; i++)
      bad += out[i] != (7u + i * 3u) * 2u + 1u;
   CHECK_EQ_INT(bad, 0);

   /* The buffer device 0 wrote, copied by device 1's queue (after device 0's event) into
    * another buffer and read back through it. */
   cl_mem c = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * 4, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_event copied;
   CHECK_EQ_INT(clEnqueueCopyBuffer(q[1], a, c, 0, 0, N * 4, 1, &filled, &copied), CL_SUCCESS);
   memset(out, 0, sizeof(out));
   CHECK_EQ_INT(clEnqueueReadBuffer(q[1], c, CL_TRUE, 0, N * 4, out, 1, &copied, NULL),
                CL_SUCCESS);
   bad = 0;
   for (cl_uint i = 0; i < N; i++)
      bad += out[i] != 7u + i * 3u;
   CHECK_EQ_INT(bad, 0);
   clReleaseEvent(copied);
   clReleaseEvent(filled);

   /* Migrated to device 1, written there by a transfer on its queue, then read through
    * device 0's queue once device 1's write event completes. */
   cl_event moved, written;
   CHECK_EQ_INT(clEnqueueMigrateMemObjects(q[1], 1, &c, 0, 0, NULL, &moved), CL_SUCCESS);
   static cl_uint in[N];
   for (cl_uint i = 0; i < N; i++)
      in[i] = 0x5000u + i * 11u;
   CHECK_EQ_INT(clEnqueueWriteBuffer(q[1], c, CL_FALSE, 0, N * 4, in, 1, &moved, &written),
                CL_SUCCESS);
   memset(out, 0, sizeof(out));
   CHECK_EQ_INT(clEnqueueReadBuffer(q[0], c, CL_TRUE, 0, N * 4, out, 1, &written, NULL),
                CL_SUCCESS);
   bad = 0;
   for (cl_uint i = 0; i < N; i++)
      bad += out[i] != in[i];
   CHECK_EQ_INT(bad, 0);
   clReleaseEvent(moved);
   clReleaseEvent(written);

   /* Device 1's kernel waits on device 0's event, and device 0's command waits on a user
    * event: nothing runs until the user event completes. */
   cl_event user = clCreateUserEvent(ctx, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_event on0, on1;
   base = 100;
   clSetKernelArg(fill, 0, sizeof(a), &a);
   clSetKernelArg(fill, 1, sizeof(base), &base);
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q[0], fill, 1, NULL, &global, NULL, 1, &user, &on0),
                CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q[1], twice, 1, NULL, &global, NULL, 1, &on0, &on1),
                CL_SUCCESS);
   clFlush(q[0]);
   clFlush(q[1]);
   usleep(100000);
   cl_int st0 = CL_COMPLETE, st1 = CL_COMPLETE;
   clGetEventInfo(on0, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(st0), &st0, NULL);
   clGetEventInfo(on1, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(st1), &st1, NULL);
   CHECK(st0 > CL_COMPLETE && st1 > CL_COMPLETE); /* still waiting */
   CHECK_EQ_INT(clSetUserEventStatus(user, CL_COMPLETE), CL_SUCCESS);
   CHECK_EQ_INT(clWaitForEvents(1, &on1), CL_SUCCESS);
   clGetEventInfo(on0, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(st0), &st0, NULL);
   CHECK_EQ_INT(st0, CL_COMPLETE);
   memset(out, 0, sizeof(out));
   CHECK_EQ_INT(clEnqueueReadBuffer(q[1], b, CL_TRUE, 0, N * 4, out, 0, NULL, NULL),
                CL_SUCCESS);
   bad = 0;
   for (cl_uint i = 0; i < N; i++)
      bad += out[i] != (100u + i * 3u) * 2u + 1u;
   CHECK_EQ_INT(bad, 0);
   clReleaseEvent(user);
   clReleaseEvent(on0);
   clReleaseEvent(on1);
   clReleaseMemObject(c);

   /* A kernel on every device at once, each on its own buffer. */
   cl_mem per[MAX_DEV];
   for (cl_uint d = 0; d < n; d++) {
      per[d] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * 4, NULL, &err);
      cl_kernel k = clCreateKernel(prog, "fill", &err);
      cl_uint bd = 1000u * d;
      clSetKernelArg(k, 0, sizeof(per[d]), &per[d]);
      clSetKernelArg(k, 1, sizeof(bd), &bd);
      CHECK_EQ_INT(clEnqueueNDRangeKernel(q[d], k, 1, NULL, &global, NULL, 0, NULL, NULL),
                   CL_SUCCESS);
      clReleaseKernel(k);
   }
   for (cl_uint d = 0; d < n; d++) {
      CHECK_EQ_INT(clEnqueueReadBuffer(q[d], per[d], CL_TRUE, 0, N * 4, out, 0, NULL, NULL),
                   CL_SUCCESS);
      bad = 0;
      for (cl_uint i = 0; i < N; i++)
         bad += out[i] != 1000u * d + i * 3u;
      CHECK_EQ_INT(bad, 0);
      clReleaseMemObject(per[d]);
   }

   for (cl_uint d = 0; d < n; d++)
      clReleaseCommandQueue(q[d]);
   clReleaseMemObject(a);
   clReleaseMemObject(b);
   clReleaseKernel(fill);
   clReleaseKernel(twice);
   clReleaseProgram(prog);
   clReleaseContext(ctx);
   return test_main_end();
}
