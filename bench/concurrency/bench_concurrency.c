/*
 * bench/concurrency/bench_concurrency.c — do kernels of different queues share the GPU, and
 * do an out-of-order queue's independent kernels overlap? hsacl beside PoCL in one run,
 * through the system ICD loader. Per platform:
 *   long      one work-group of 64 work-items that loops (about a second on the software
 *             GPU; one work-group keeps one core busy, so two of them can overlap)
 *   short     20 small kernels (1024 work-items each) and a clFinish
 *   short|long  the 20 short kernels on queue B, enqueued just after the long kernel
 *             started on queue A: when B finished, and when A finished
 *   ooo 2x    the long kernel twice on one out-of-order queue without dependencies, against
 *             twice the time of one: 1.0 = no overlap, 0.5 = full overlap
 * Prints figures; never passes or fails on time.
 * Usage: hsacl-bench-concurrency [--only=<platform name prefix>] [--iters=N]
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *source =
   "kernel void spin(global int *out, int iters)\n"
   "{ int x = get_global_id(0); for (int i = 0; i < iters; i++) x = x * 1103515245 + 12345;\n"
   "  out[get_global_id(0)] = x; }\n"
   "kernel void add1(global int *a) { a[get_global_id(0)] += 1; }\n";

static double
now_s(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return ts.tv_sec + ts.tv_nsec * 1e-9;
}

struct env {
   cl_context ctx;
   cl_device_id dev;
   cl_command_queue qa, qb, ooo;
   cl_kernel spin, spin2, add1;
   cl_mem out, out2, a;
};

static void
shorts(struct env *e, cl_command_queue q)
{
   size_t g = 1024;
   for (int k = 0; k < 20; k++)
      clEnqueueNDRangeKernel(q, e->add1, 1, NULL, &g, NULL, 0, NULL, NULL);
}

static void
run_platform(cl_platform_id p, int iters)
{
   char name[128] = "";
   clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof(name), name, NULL);
   struct env e;
   cl_int err;
   if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &e.dev, NULL) != CL_SUCCESS)
      return;
   e.ctx = clCreateContext(NULL, 1, &e.dev, NULL, NULL, &err);
   e.qa = clCreateCommandQueueWithProperties(e.ctx, e.dev, NULL, &err);
   e.qb = clCreateCommandQueueWithProperties(e.ctx, e.dev, NULL, &err);
   cl_queue_properties props[] = { CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
                                   0 };
   e.ooo = clCreateCommandQueueWithProperties(e.ctx, e.dev, props, &err);
   cl_program prog = clCreateProgramWithSource(e.ctx, 1, &source, NULL, &err);
   if (clBuildProgram(prog, 1, &e.dev, NULL, NULL, NULL) != CL_SUCCESS) {
      printf("%-28s build failed\n", name);
      return;
   }
   e.spin = clCreateKernel(prog, "spin", &err);
   e.spin2 = clCreateKernel(prog, "spin", &err);
   e.add1 = clCreateKernel(prog, "add1", &err);
   e.out = clCreateBuffer(e.ctx, CL_MEM_READ_WRITE, 256 * 4, NULL, &err);
   e.out2 = clCreateBuffer(e.ctx, CL_MEM_READ_WRITE, 256 * 4, NULL, &err);
   e.a = clCreateBuffer(e.ctx, CL_MEM_READ_WRITE, 1024 * 4, NULL, &err);
   clSetKernelArg(e.spin, 0, sizeof(e.out), &e.out);
   clSetKernelArg(e.spin, 1, sizeof(iters), &iters);
   clSetKernelArg(e.spin2, 0, sizeof(e.out2), &e.out2);
   clSetKernelArg(e.spin2, 1, sizeof(iters), &iters);
   clSetKernelArg(e.add1, 0, sizeof(e.a), &e.a);
   size_t gl = 64, ll = 64; /* one work-group: one interpreter thread, so two can overlap */

   /* Warm-up: every kernel once. */
   clEnqueueNDRangeKernel(e.qa, e.spin, 1, NULL, &gl, &ll, 0, NULL, NULL);
   shorts(&e, e.qb);
   clFinish(e.qa);
   clFinish(e.qb);

   double t = now_s();
   clEnqueueNDRangeKernel(e.qa, e.spin, 1, NULL, &gl, &ll, 0, NULL, NULL);
   clFinish(e.qa);
   double t_long = now_s() - t;

   t = now_s();
   shorts(&e, e.qb);
   clFinish(e.qb);
   double t_short = now_s() - t;

   t = now_s();
   clEnqueueNDRangeKernel(e.qa, e.spin, 1, NULL, &gl, &ll, 0, NULL, NULL);
   clFlush(e.qa);
   shorts(&e, e.qb);
   clFinish(e.qb);
   double t_b = now_s() - t;
   clFinish(e.qa);
   double t_a = now_s() - t;

   t = now_s();
   clEnqueueNDRangeKernel(e.ooo, e.spin, 1, NULL, &gl, &ll, 0, NULL, NULL);
   clEnqueueNDRangeKernel(e.ooo, e.spin2, 1, NULL, &gl, &ll, 0, NULL, NULL);
   clFinish(e.ooo);
   double t_ooo = now_s() - t;

   printf("%-28s long %7.3f s  short %7.4f s  short|long: B done %7.3f s, A done %7.3f s"
          "  ooo 2x %5.2f of serial\n",
          name, t_long, t_short, t_b, t_a, t_ooo / (2 * t_long));
   clReleaseMemObject(e.out);
   clReleaseMemObject(e.out2);
   clReleaseMemObject(e.a);
   clReleaseKernel(e.spin);
   clReleaseKernel(e.spin2);
   clReleaseKernel(e.add1);
   clReleaseProgram(prog);
   clReleaseCommandQueue(e.qa);
   clReleaseCommandQueue(e.qb);
   clReleaseCommandQueue(e.ooo);
   clReleaseContext(e.ctx);
}

int
main(int argc, char **argv)
{
   const char *only = NULL;
   int iters = 2000000;
   for (int i = 1; i < argc; i++) {
      if (!strncmp(argv[i], "--only=", 7))
         only = argv[i] + 7;
      else if (!strncmp(argv[i], "--iters=", 8))
         iters = atoi(argv[i] + 8);
   }
   cl_platform_id ps[8];
   cl_uint n = 0;
   clGetPlatformIDs(8, ps, &n);
   for (cl_uint i = 0; i < n; i++) {
      char name[128] = "";
      clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, sizeof(name), name, NULL);
      if (only && strncmp(name, only, strlen(only)))
         continue;
      run_platform(ps[i], iters);
   }
   return 0;
}
