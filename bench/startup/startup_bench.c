/*
 * bench/startup/startup_bench.c — what a new OpenCL process pays before and around its
 * first kernel, hsacl beside PoCL (the peer) in the same run. Each figure is the wall time
 * of a whole child process (spawn to exit, the median of N), the ICD loader given one
 * vendor's .icd file (OCL_ICD_VENDORS), in three shapes:
 *   list     clGetPlatformIDs and clGetDeviceIDs: what every OpenCL application pays for
 *            each installed vendor (the ICD loader loads them all to list platforms);
 *   warm     a context, a program built from the kernel cache, one launch and its result;
 *   cold     the same with the cache emptied first (one compile).
 * Prints figures; never fails on time.
 * Usage: hsacl-bench-startup [-r N] VENDORS_DIR
 *        (VENDORS_DIR holds hsacl.icd and pocl.icd: <build>/icd-vendors-bench)
 */
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static const char kernel_src[] =
   "kernel void add1(global int *p) { p[get_global_id(0)] += 1; }\n";

static double
now(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The child: one shape against the only platform the loader sees. 0 on success. */
static int
child(const char *shape)
{
   cl_platform_id plat;
   cl_device_id dev;
   cl_uint n = 0;
   if (clGetPlatformIDs(1, &plat, &n) != CL_SUCCESS || !n ||
       clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL) != CL_SUCCESS)
      return 1;
   if (!strcmp(shape, "list"))
      return 0;
   cl_int err;
   int rc = 1;
   cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
   cl_command_queue q = ctx ? clCreateCommandQueueWithProperties(ctx, dev, NULL, &err) : NULL;
   const char *src = kernel_src;
   cl_program p = q ? clCreateProgramWithSource(ctx, 1, &src, NULL, &err) : NULL;
   cl_kernel k = NULL;
   cl_mem buf = NULL;
   if (!p || clBuildProgram(p, 1, &dev, NULL, NULL, NULL) != CL_SUCCESS)
      goto out;
   k = clCreateKernel(p, "add1", &err);
   int host[64] = { 0 };
   buf = k ? clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(host), host,
                            &err)
           : NULL;
   size_t global = 64;
   if (!buf || clSetKernelArg(k, 0, sizeof(buf), &buf) != CL_SUCCESS ||
       clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL) != CL_SUCCESS ||
       clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof(host), host, 0, NULL, NULL) != CL_SUCCESS)
      goto out;
   rc = host[0] == 1 && host[63] == 1 ? 0 : 1;
out:
   if (buf)
      clReleaseMemObject(buf);
   if (k)
      clReleaseKernel(k);
   if (p)
      clReleaseProgram(p);
   if (q)
      clReleaseCommandQueue(q);
   if (ctx)
      clReleaseContext(ctx);
   return rc;
}

/* Seconds for one child process of `shape` with `icd` as the only vendor, or -1. */
static double
run_child(const char *self, const char *icd, const char *cache, const char *shape)
{
   if (!strcmp(shape, "cold")) {
      char cmd[4200];
      snprintf(cmd, sizeof(cmd), "rm -rf '%s'", cache);
      if (system(cmd) != 0)
         return -1;
   }
   setenv("OCL_ICD_VENDORS", icd, 1);
   setenv("HSACL_CACHE_DIR", cache, 1);
   setenv("POCL_CACHE_DIR", cache, 1);
   char *argv[] = { (char *)self, "--child", (char *)shape, NULL };
   pid_t pid;
   double t0 = now();
   if (posix_spawn(&pid, self, NULL, NULL, argv, environ) != 0)
      return -1;
   int status = -1;
   waitpid(pid, &status, 0);
   double t = now() - t0;
   return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? t : -1;
}

static int
cmp_double(const void *a, const void *b)
{
   double x = *(const double *)a, y = *(const double *)b;
   return (x > y) - (x < y);
}

int
main(int argc, char **argv)
{
   if (argc == 3 && !strcmp(argv[1], "--child"))
      return child(argv[2]);
   int reps = 9, argi = 1;
   if (argc > 2 && !strcmp(argv[1], "-r")) {
      reps = atoi(argv[2]);
      argi = 3;
   }
   if (argi != argc - 1 || reps < 1 || reps > 99) {
      fprintf(stderr, "usage: %s [-r N] VENDORS_DIR\n", argv[0]);
      return 2;
   }
   const char *dir = argv[argi];
   const char *names[] = { "hsacl", "pocl" };
   const char *shapes[] = { "list", "warm", "cold" };
   char tmpl[] = "/tmp/hsacl-bench-startup-XXXXXX";
   if (!mkdtemp(tmpl)) {
      perror("mkdtemp");
      return 1;
   }
   printf("startup: one process each, median of %d, ms (spawn to exit)\n", reps);
   printf("%-8s %10s %10s %10s\n", "", "list", "warm", "cold");
   for (int v = 0; v < 2; v++) {
      char icd[4096], cache[4200];
      snprintf(icd, sizeof(icd), "%s/%s.icd", dir, names[v]);
      snprintf(cache, sizeof(cache), "%s/%s", tmpl, names[v]);
      printf("%-8s", names[v]);
      /* One untimed warm run fills the cache (and the page cache) for the warm figures. */
      run_child("/proc/self/exe", icd, cache, "warm");
      for (int s = 0; s < 3; s++) {
         double t[99];
         int ok = 0;
         for (int r = 0; r < reps; r++) {
            double x = run_child("/proc/self/exe", icd, cache, shapes[s]);
            if (x >= 0)
               t[ok++] = x;
         }
         if (ok < reps) {
            printf(" %10s", "failed");
            continue;
         }
         qsort(t, (size_t)ok, sizeof(t[0]), cmp_double);
         printf(" %10.1f", t[ok / 2] * 1e3);
      }
      printf("\n");
   }
   char cmd[4200];
   snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpl);
   return system(cmd) == 0 ? 0 : 1;
}
