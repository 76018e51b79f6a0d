/*
 * bench/enqueue/bench_enqueue.c — host cost of launching kernels, hsacl beside PoCL in the
 * same run, through the system ICD loader:
 *   enqueue   host time per clEnqueueNDRangeKernel of an empty kernel (a long run of
 *             enqueues, then one clFinish; the finish is not counted)
 *   cpu       the enqueueing thread's CPU time per enqueue over the same run: what the
 *             enqueue path costs when the machine is busy with other work too
 *   drain     time from the end of those enqueues until clFinish returns, per launch
 *   round     enqueue-to-completion round trip (enqueue + clFinish), per launch
 * Prints figures; never passes or fails on time.
 * Usage: hsacl-bench-enqueue [launches] [--only=<platform name prefix>] [--mark] [--no-round]
 * With --mark, the timed run of enqueues is bracketed by getppid() system calls, so a
 * tracer can count the system calls the enqueues made (bench/enqueue/syscalls does);
 * --no-round skips the round trips (counting runs).
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static double
clock_us(clockid_t clock)
{
   struct timespec ts;
   clock_gettime(clock, &ts);
   return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static double
now_us(void)
{
   return clock_us(CLOCK_MONOTONIC);
}

struct result {
   char name[64];
   double enqueue_us, cpu_us, drain_us, round_us;
   bool ok;
};

static bool mark, no_round;

/* A system call nothing else in the process makes: brackets the timed run for tracers. */
static void
trace_mark(void)
{
   if (mark)
      syscall(SYS_getppid);
}

static const char *source = "kernel void empty(global int *p) { }\n";

static void
run(cl_platform_id platform, int launches, struct result *r)
{
   cl_device_id dev;
   cl_int err;
   r->ok = false;
   clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof(r->name), r->name, NULL);
   if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &dev, NULL) != CL_SUCCESS)
      return;
   char dname[64] = "";
   clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof(dname), dname, NULL);
   size_t len = strlen(r->name);
   snprintf(r->name + len, sizeof(r->name) - len, " (%.30s)", dname);
   cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
   cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
   cl_program p = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
   if (clBuildProgram(p, 1, &dev, NULL, NULL, NULL) != CL_SUCCESS)
      goto out;
   cl_kernel k = clCreateKernel(p, "empty", &err);
   cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, &err);
   clSetKernelArg(k, 0, sizeof(m), &m);
   const size_t g = 64, l = 64;
   /* Warm up: first launches allocate rings and caches. */
   for (int i = 0; i < 100; i++)
      clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL);
   clFinish(q);

   trace_mark();
   double c0 = clock_us(CLOCK_THREAD_CPUTIME_ID);
   double t0 = now_us();
   for (int i = 0; i < launches; i++)
      clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL);
   double t1 = now_us();
   double c1 = clock_us(CLOCK_THREAD_CPUTIME_ID);
   trace_mark();
   clFinish(q);
   double t2 = now_us();
   int rounds = no_round ? 0 : launches / 10 > 100 ? launches / 10 : 100;
   double t3 = now_us();
   for (int i = 0; i < rounds; i++) {
      clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL);
      clFinish(q);
   }
   double t4 = now_us();
   r->enqueue_us = (t1 - t0) / launches;
   r->cpu_us = (c1 - c0) / launches;
   r->drain_us = (t2 - t1) / launches;
   r->round_us = rounds ? (t4 - t3) / rounds : 0;
   r->ok = true;
   clReleaseMemObject(m);
   clReleaseKernel(k);
out:
   clReleaseProgram(p);
   clReleaseCommandQueue(q);
   clReleaseContext(ctx);
}

int
main(int argc, char **argv)
{
   int launches = 20000;
   const char *only = NULL;
   for (int i = 1; i < argc; i++) {
      if (!strncmp(argv[i], "--only=", 7))
         only = argv[i] + 7;
      else if (!strcmp(argv[i], "--mark"))
         mark = true;
      else if (!strcmp(argv[i], "--no-round"))
         no_round = true;
      else
         launches = atoi(argv[i]);
   }
   cl_platform_id plats[8];
   cl_uint n = 0;
   if (clGetPlatformIDs(8, plats, &n) != CL_SUCCESS || n == 0) {
      fprintf(stderr, "no OpenCL platform\n");
      return 1;
   }
   printf("empty-kernel launches: %d enqueues then one clFinish; round trips: enqueue+finish\n",
          launches);
   printf("%-36s %11s %11s %16s %14s\n", "platform (device)", "enqueue us", "(cpu us)",
          "drain us/launch", "round trip us");
   struct result res[8];
   for (cl_uint i = 0; i < n; i++) {
      res[i].ok = false;
      clGetPlatformInfo(plats[i], CL_PLATFORM_NAME, sizeof(res[i].name), res[i].name, NULL);
      if (only && strncmp(res[i].name, only, strlen(only)))
         continue;
      run(plats[i], launches, &res[i]);
      if (res[i].ok)
         printf("%-36.36s %11.3f %11.3f %16.3f %14.1f\n", res[i].name, res[i].enqueue_us,
                res[i].cpu_us, res[i].drain_us, res[i].round_us);
      else
         printf("%-36.36s %11s\n", res[i].name, "(no device or build failed)");
   }
   for (cl_uint i = 0; i < n; i++) {
      for (cl_uint j = 0; j < n; j++) {
         if (i != j && res[i].ok && res[j].ok && strstr(res[i].name, "hsacl") &&
             !strstr(res[j].name, "hsacl"))
            printf("ratio hsacl/%.*s: enqueue %.2fx (cpu %.2fx), round trip %.2fx\n",
                   (int)strcspn(res[j].name, " "), res[j].name,
                   res[i].enqueue_us / res[j].enqueue_us, res[i].cpu_us / res[j].cpu_us,
                   res[i].round_us / res[j].round_us);
      }
   }
   return 0;
}
