/*
 * bench/transfer/bench_transfer.c — host<->device transfer rates, hsacl beside PoCL in the
 * same run, through the system ICD loader (the clpeak figures: enqueueReadBuffer,
 * enqueueWriteBuffer, memcpy to/from a mapped pointer). For each platform and each size
 * (4 KiB to 256 MiB, powers of 4):
 *   write      clEnqueueWriteBuffer, blocking, from pageable malloc'd memory
 *   read       clEnqueueReadBuffer, blocking, into pageable memory
 *   write-pin  the same from a CL_MEM_ALLOC_HOST_PTR buffer's mapped pointer (the "pinned"
 *              host memory applications get from OpenCL)
 *   read-pin   the same into it
 *   map-read   clEnqueueMapBuffer(CL_MAP_READ), memcpy out of the mapped pointer, unmap
 *   map-write  clEnqueueMapBuffer(CL_MAP_WRITE_INVALIDATE_REGION), memcpy in, unmap
 * as GB/s (10^9 bytes per second) of the best of R repetitions (R shrinks with size so a
 * size takes about the same time), after one untimed transfer of the size (first-touch and
 * pool growth are not in the figures; --cold counts them). Prints figures; never fails.
 * Usage: hsacl-bench-transfer [--only=<platform name prefix>] [--max=<MiB>] [--cold]
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double
now_s(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return ts.tv_sec + ts.tv_nsec / 1e9;
}

enum { OP_WRITE, OP_READ, OP_WRITE_PIN, OP_READ_PIN, OP_MAP_READ, OP_MAP_WRITE, NUM_OPS };
static const char *const op_names[NUM_OPS] = { "write",   "read",     "write-pin",
                                               "read-pin", "map-read", "map-write" };

struct ctx {
   cl_context c;
   cl_command_queue q;
   cl_mem dev, pin;
   void *pin_ptr, *host;
};

/* One transfer of `size` bytes by `op`; false on an error (printed). */
static bool
transfer(struct ctx *x, int op, size_t size)
{
   cl_int err = CL_SUCCESS;
   switch (op) {
   case OP_WRITE:
      err = clEnqueueWriteBuffer(x->q, x->dev, CL_TRUE, 0, size, x->host, 0, NULL, NULL);
      break;
   case OP_READ:
      err = clEnqueueReadBuffer(x->q, x->dev, CL_TRUE, 0, size, x->host, 0, NULL, NULL);
      break;
   case OP_WRITE_PIN:
      err = clEnqueueWriteBuffer(x->q, x->dev, CL_TRUE, 0, size, x->pin_ptr, 0, NULL, NULL);
      break;
   case OP_READ_PIN:
      err = clEnqueueReadBuffer(x->q, x->dev, CL_TRUE, 0, size, x->pin_ptr, 0, NULL, NULL);
      break;
   case OP_MAP_READ:
   case OP_MAP_WRITE: {
      void *p = clEnqueueMapBuffer(x->q, x->dev, CL_TRUE,
                                   op == OP_MAP_READ ? CL_MAP_READ
                                                     : CL_MAP_WRITE_INVALIDATE_REGION,
                                   0, size, 0, NULL, NULL, &err);
      if (!p)
         break;
      if (op == OP_MAP_READ)
         memcpy(x->host, p, size);
      else
         memcpy(p, x->host, size);
      err = clEnqueueUnmapMemObject(x->q, x->dev, p, 0, NULL, NULL);
      if (err == CL_SUCCESS)
         err = clFinish(x->q);
      break;
   }
   }
   if (err != CL_SUCCESS)
      fprintf(stderr, "  %s of %zu bytes: error %d\n", op_names[op], size, err);
   return err == CL_SUCCESS;
}

static void
bench_platform(cl_platform_id platform, size_t max_size, bool cold)
{
   char name[128] = "", version[128] = "";
   clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof(name), name, NULL);
   clGetPlatformInfo(platform, CL_PLATFORM_VERSION, sizeof(version), version, NULL);
   cl_device_id dev;
   if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &dev, NULL) != CL_SUCCESS)
      return;
   char dname[128] = "";
   clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof(dname), dname, NULL);
   cl_ulong max_alloc = 0;
   clGetDeviceInfo(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof(max_alloc), &max_alloc, NULL);
   if (max_size > max_alloc)
      max_size = (size_t)max_alloc;
   printf("== %s (%s), %s\n", name, version, dname);
   printf("%10s", "size");
   for (int op = 0; op < NUM_OPS; op++)
      printf(" %10s", op_names[op]);
   printf("   (GB/s)\n");
   struct ctx x = { 0 };
   cl_int err;
   x.c = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
   x.q = clCreateCommandQueueWithProperties(x.c, dev, NULL, &err);
   x.dev = clCreateBuffer(x.c, CL_MEM_READ_WRITE, max_size, NULL, &err);
   x.pin = clCreateBuffer(x.c, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, max_size, NULL, &err);
   x.host = malloc(max_size);
   if (!x.dev || !x.pin || !x.host) {
      printf("  cannot allocate %zu bytes\n", max_size);
      goto out;
   }
   memset(x.host, 0x5a, max_size);
   x.pin_ptr = clEnqueueMapBuffer(x.q, x.pin, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, max_size,
                                  0, NULL, NULL, &err);
   if (!x.pin_ptr) {
      printf("  cannot map the pinned buffer (%d)\n", err);
      goto out;
   }
   memset(x.pin_ptr, 0xa5, max_size);
   for (size_t size = 4096; size <= max_size; size *= 4) {
      printf("%7zu %s", size >= 1 << 20 ? size >> 20 : size >> 10, size >= 1 << 20 ? "MiB" : "KiB");
      /* About 64 MiB of traffic per figure, at least 3 and at most 200 repetitions. */
      int reps = (int)((64u << 20) / size);
      reps = reps < 3 ? 3 : reps > 200 ? 200 : reps;
      for (int op = 0; op < NUM_OPS; op++) {
         if (!cold && !transfer(&x, op, size)) {
            printf(" %10s", "error");
            continue;
         }
         double best = 1e30;
         bool ok = true;
         for (int r = 0; r < reps && ok; r++) {
            double t = now_s();
            ok = transfer(&x, op, size);
            t = now_s() - t;
            if (t < best)
               best = t;
         }
         if (ok)
            printf(" %10.2f", size / best / 1e9);
         else
            printf(" %10s", "error");
      }
      printf("\n");
      fflush(stdout);
   }
   clEnqueueUnmapMemObject(x.q, x.pin, x.pin_ptr, 0, NULL, NULL);
   clFinish(x.q);
out:
   if (x.dev)
      clReleaseMemObject(x.dev);
   if (x.pin)
      clReleaseMemObject(x.pin);
   free(x.host);
   clReleaseCommandQueue(x.q);
   clReleaseContext(x.c);
}

int
main(int argc, char **argv)
{
   const char *only = NULL;
   size_t max_size = 256u << 20;
   bool cold = false;
   for (int i = 1; i < argc; i++) {
      if (!strncmp(argv[i], "--only=", 7))
         only = argv[i] + 7;
      else if (!strncmp(argv[i], "--max=", 6))
         max_size = (size_t)strtoul(argv[i] + 6, NULL, 10) << 20;
      else if (!strcmp(argv[i], "--cold"))
         cold = true;
      else {
         fprintf(stderr, "usage: %s [--only=<platform>] [--max=<MiB>] [--cold]\n", argv[0]);
         return 2;
      }
   }
   cl_platform_id platforms[8];
   cl_uint n = 0;
   if (clGetPlatformIDs(8, platforms, &n) != CL_SUCCESS || n == 0) {
      fprintf(stderr, "no OpenCL platform\n");
      return 1;
   }
   for (cl_uint i = 0; i < n && i < 8; i++) {
      char name[128] = "";
      clGetPlatformInfo(platforms[i], CL_PLATFORM_NAME, sizeof(name), name, NULL);
      if (only && strncmp(name, only, strlen(only)))
         continue;
      bench_platform(platforms[i], max_size, cold);
   }
   return 0;
}
