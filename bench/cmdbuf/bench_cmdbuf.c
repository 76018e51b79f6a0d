/*
 * bench/cmdbuf/bench_cmdbuf.c — what a command buffer saves on the host: the same M kernel
 * launches (an empty kernel with two buffer, an int and a float argument; one in-order
 * queue) enqueued one by one with clEnqueueNDRangeKernel, and recorded once into a command
 * buffer (cl_khr_command_buffer) then replayed with clEnqueueCommandBufferKHR. Every
 * platform the ICD loader sees is measured in the same run (hsacl, PoCL); the platforms take
 * turns repetition by repetition and every figure is the median of REPEATS repetitions.
 *   one-by-one  host wall time of the M enqueues, per command
 *   replay      host wall time of one clEnqueueCommandBufferKHR of the M commands, per
 *               command
 *   record      host time of recording and finalizing, per command (once per repetition)
 *   done 1by1, done replay   enqueue to clFinish returning, per command
 * PoCL 3.1 (Debian 12) reports cl_khr_command_buffer 0.9.0, whose clCommandNDRangeKernelKHR,
 * clCreateCommandBufferKHR, clFinalizeCommandBufferKHR and clEnqueueCommandBufferKHR have the
 * same parameters as in 0.9.8 (the only functions used here), so both are driven the same
 * way; a platform without the extension gets its one-by-one figures only.
 * Usage: hsacl-bench-cmdbuf [M] [--repeats=R]   (M default 1000, R default 5).
 * Prints figures; never passes or fails on time.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_PLATFORMS 4
#define MAX_REPEATS 31

typedef cl_command_buffer_khr(CL_API_CALL *create_fn)(cl_uint, const cl_command_queue *,
                                                      const cl_command_buffer_properties_khr *,
                                                      cl_int *);
typedef cl_int(CL_API_CALL *finalize_fn)(cl_command_buffer_khr);
typedef cl_int(CL_API_CALL *release_fn)(cl_command_buffer_khr);
typedef cl_int(CL_API_CALL *enqueue_fn)(cl_uint, cl_command_queue *, cl_command_buffer_khr, cl_uint,
                                        const cl_event *, cl_event *);
typedef cl_int(CL_API_CALL *ndrange_fn)(cl_command_buffer_khr, cl_command_queue,
                                        const cl_properties *, cl_kernel, cl_uint, const size_t *,
                                        const size_t *, const size_t *, cl_uint,
                                        const cl_sync_point_khr *, cl_sync_point_khr *,
                                        cl_mutable_command_khr *);

struct target {
   char name[64];
   char version[32]; /* of cl_khr_command_buffer, or "" */
   cl_context ctx;
   cl_command_queue q;
   cl_kernel k;
   cl_mem a, b;
   create_fn create;
   finalize_fn finalize;
   release_fn release;
   enqueue_fn enqueue;
   ndrange_fn ndrange;
   double one[MAX_REPEATS], replay[MAX_REPEATS], record[MAX_REPEATS], done1[MAX_REPEATS],
      doner[MAX_REPEATS];
};

static const char *source = "kernel void empty(global int *a, global int *b, int i, float f) {}\n";

static double
now_us(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int
cmp(const void *x, const void *y)
{
   double a = *(const double *)x, b = *(const double *)y;
   return a < b ? -1 : a > b;
}

static double
median(double *v, int n)
{
   qsort(v, n, sizeof(*v), cmp);
   return v[n / 2];
}

#define OK(call)                                                                                   \
   do {                                                                                            \
      cl_int e_ = (call);                                                                          \
      if (e_ != CL_SUCCESS) {                                                                      \
         fprintf(stderr, "%s:%d: %s = %d\n", __FILE__, __LINE__, #call, e_);                       \
         return false;                                                                             \
      }                                                                                            \
   } while (0)

static void
command_buffer_version(cl_device_id dev, struct target *t)
{
   cl_name_version ext[256];
   size_t size = 0;
   t->version[0] = 0;
   if (clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS_WITH_VERSION, sizeof(ext), ext, &size))
      return;
   for (size_t i = 0; i < size / sizeof(ext[0]); i++)
      if (!strcmp(ext[i].name, "cl_khr_command_buffer"))
         snprintf(t->version, sizeof(t->version), "%u.%u.%u", CL_VERSION_MAJOR(ext[i].version),
                  CL_VERSION_MINOR(ext[i].version), CL_VERSION_PATCH(ext[i].version));
}

static bool
setup(cl_platform_id p, struct target *t)
{
   cl_device_id dev;
   cl_int err;
   OK(clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof(t->name), t->name, NULL));
   OK(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &dev, NULL));
   t->ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
   OK(err);
   t->q = clCreateCommandQueueWithProperties(t->ctx, dev, NULL, &err);
   OK(err);
   cl_program prog = clCreateProgramWithSource(t->ctx, 1, &source, NULL, &err);
   OK(err);
   OK(clBuildProgram(prog, 1, &dev, NULL, NULL, NULL));
   t->k = clCreateKernel(prog, "empty", &err);
   OK(err);
   clReleaseProgram(prog);
   t->a = clCreateBuffer(t->ctx, CL_MEM_READ_WRITE, 4096, NULL, &err);
   OK(err);
   t->b = clCreateBuffer(t->ctx, CL_MEM_READ_WRITE, 4096, NULL, &err);
   OK(err);
   const int i = 1;
   const float f = 2.0f;
   OK(clSetKernelArg(t->k, 0, sizeof(t->a), &t->a));
   OK(clSetKernelArg(t->k, 1, sizeof(t->b), &t->b));
   OK(clSetKernelArg(t->k, 2, sizeof(i), &i));
   OK(clSetKernelArg(t->k, 3, sizeof(f), &f));
   command_buffer_version(dev, t);
   if (t->version[0]) {
      t->create =
         (create_fn)clGetExtensionFunctionAddressForPlatform(p, "clCreateCommandBufferKHR");
      t->finalize =
         (finalize_fn)clGetExtensionFunctionAddressForPlatform(p, "clFinalizeCommandBufferKHR");
      t->release =
         (release_fn)clGetExtensionFunctionAddressForPlatform(p, "clReleaseCommandBufferKHR");
      t->enqueue =
         (enqueue_fn)clGetExtensionFunctionAddressForPlatform(p, "clEnqueueCommandBufferKHR");
      t->ndrange =
         (ndrange_fn)clGetExtensionFunctionAddressForPlatform(p, "clCommandNDRangeKernelKHR");
      if (!t->create || !t->finalize || !t->release || !t->enqueue || !t->ndrange)
         t->version[0] = 0;
   }
   return true;
}

/* One repetition: M launches one by one, then (with the extension) recorded and replayed. */
static bool
run(struct target *t, int m, int rep)
{
   const size_t g = 64;
   double t0 = now_us();
   for (int i = 0; i < m; i++)
      OK(clEnqueueNDRangeKernel(t->q, t->k, 1, NULL, &g, NULL, 0, NULL, NULL));
   double t1 = now_us();
   OK(clFinish(t->q));
   double t2 = now_us();
   t->one[rep] = (t1 - t0) / m;
   t->done1[rep] = (t2 - t0) / m;
   if (!t->version[0])
      return true;
   cl_int err;
   double r0 = now_us();
   cl_command_buffer_khr cb = t->create(1, &t->q, NULL, &err);
   OK(err);
   for (int i = 0; i < m; i++)
      OK(t->ndrange(cb, NULL, NULL, t->k, 1, NULL, &g, NULL, 0, NULL, NULL, NULL));
   OK(t->finalize(cb));
   double r1 = now_us();
   /* One untimed replay first: the same steady state as the one-by-one launches, which
    * ran just before. */
   OK(t->enqueue(0, NULL, cb, 0, NULL, NULL));
   OK(clFinish(t->q));
   double e0 = now_us();
   OK(t->enqueue(0, NULL, cb, 0, NULL, NULL));
   double e1 = now_us();
   OK(clFinish(t->q));
   double e2 = now_us();
   t->record[rep] = (r1 - r0) / m;
   t->replay[rep] = (e1 - e0) / m;
   t->doner[rep] = (e2 - e0) / m;
   OK(t->release(cb));
   return true;
}

int
main(int argc, char **argv)
{
   int m = 1000, repeats = 5;
   for (int i = 1; i < argc; i++) {
      if (!strncmp(argv[i], "--repeats=", 10))
         repeats = atoi(argv[i] + 10);
      else
         m = atoi(argv[i]);
   }
   if (repeats < 1 || repeats > MAX_REPEATS || m < 1) {
      fprintf(stderr, "usage: hsacl-bench-cmdbuf [M] [--repeats=R] (R at most %d)\n", MAX_REPEATS);
      return 2;
   }
   cl_platform_id ps[MAX_PLATFORMS];
   cl_uint np = 0;
   if (clGetPlatformIDs(MAX_PLATFORMS, ps, &np) != CL_SUCCESS || !np) {
      fprintf(stderr, "no OpenCL platform\n");
      return 1;
   }
   if (np > MAX_PLATFORMS)
      np = MAX_PLATFORMS;
   struct target *ts = calloc(np, sizeof(*ts));
   int nt = 0;
   for (cl_uint i = 0; i < np; i++)
      if (setup(ps[i], &ts[nt]))
         nt++;
   /* Warm-up: pools, kernarg rings and code caches grow to what the runs need. */
   for (int i = 0; i < nt; i++)
      run(&ts[i], m, 0);
   for (int r = 0; r < repeats; r++)
      for (int i = 0; i < nt; i++)
         if (!run(&ts[i], m, r))
            return 1;
   printf("%d kernel launches (empty kernel, 4 arguments, one in-order queue), median of %d; "
          "microseconds per command\n",
          m, repeats);
   printf("%-10s %-14s %11s %9s %9s %11s %11s\n", "platform", "command_buffer", "one-by-one",
          "replay", "record", "done 1by1", "done replay");
   for (int i = 0; i < nt; i++) {
      struct target *t = &ts[i];
      printf("%-10.10s %-14s %11.2f", t->name, t->version[0] ? t->version : "-",
             median(t->one, repeats));
      if (t->version[0])
         printf(" %9.2f %9.2f %11.2f %11.2f\n", median(t->replay, repeats),
                median(t->record, repeats), median(t->done1, repeats), median(t->doner, repeats));
      else
         printf(" %9s %9s %11.2f %11s\n", "-", "-", median(t->done1, repeats), "-");
   }
   return 0;
}
