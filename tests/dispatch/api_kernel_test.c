/*
 * tests/dispatch/api_kernel_test.c — kernel arguments and launches through the loader on the
 * software GPU: clSetKernelArg validation, clEnqueueNDRangeKernel with 1-3 dimensions,
 * offsets, chosen and given local sizes, __local arguments, reqd_work_group_size,
 * non-uniform work-groups (OpenCL C 2.0), clEnqueueTask, printf, profiling, and a kernel
 * that faults: its event fails, the context's pfn_notify is called, the queue goes on.
 */
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS /* clEnqueueTask is tested */
#include <CL/cl.h>

#include <pthread.h>
#include <stdint.h>
#include <unistd.h>

#include <stdatomic.h>

#include "hsacl_test.h"

static cl_context ctx;
static cl_device_id device;
static cl_command_queue q;
static int notified;

static void CL_CALLBACK
ctx_notify(const char *errinfo, const void *pi, size_t cb, void *user)
{
   notified++;
}

static const char *source =
   "kernel void vadd(global const int *a, global const int *b, global int *c) {\n"
   "   size_t i = get_global_id(0);\n"
   "   c[i] = a[i] + b[i];\n"
   "}\n"
   "kernel void ids(global int *out, int w) {\n"
   "   size_t x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);\n"
   "   size_t lin = (z * get_global_size(1) + y) * get_global_size(0) + x;\n"
   "   out[4 * lin + 0] = (int)x; out[4 * lin + 1] = (int)y; out[4 * lin + 2] = (int)z;\n"
   "   out[4 * lin + 3] = (int)(get_local_size(0) * 10000 + get_num_groups(0) * 100 + w);\n"
   "}\n"
   "kernel void reduce(global const int *in, global int *out, local int *scratch) {\n"
   "   size_t l = get_local_id(0), n = get_local_size(0);\n"
   "   scratch[l] = in[get_global_id(0)];\n"
   "   barrier(CLK_LOCAL_MEM_FENCE);\n"
   "   for (size_t s = n / 2; s > 0; s /= 2) {\n"
   "      if (l < s) scratch[l] += scratch[l + s];\n"
   "      barrier(CLK_LOCAL_MEM_FENCE);\n"
   "   }\n"
   "   if (l == 0) out[get_group_id(0)] = scratch[0];\n"
   "}\n"
   "__attribute__((reqd_work_group_size(64, 1, 1)))\n"
   "kernel void fixed(global int *out) { out[get_global_id(0)] = (int)get_local_size(0); }\n"
   "kernel void task(global int *out, long v) { out[0] = (int)(v >> 32) + 1; }\n"
   "kernel void hello(int v) { if (get_global_id(0) == 0) printf(\"hello %d %s\\n\", v, \"gpu\"); }\n"
   "kernel void oob(global int *p) { p[get_global_id(0) + (1 << 28)] = 1; }\n";

static cl_program
build(const char *src, const char *options)
{
   cl_int err;
   cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   err = clBuildProgram(p, 1, &device, options, NULL, NULL);
   if (err != CL_SUCCESS) {
      char log[4096] = "";
      clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, sizeof(log), log, NULL);
      fprintf(stderr, "build failed: %d\n%s\n", err, log);
   }
   CHECK_EQ_INT(err, CL_SUCCESS);
   return p;
}

static void
test_vadd(cl_program p)
{
   enum { N = 100000 };
   cl_int err;
   int *a = malloc(N * 4), *b = malloc(N * 4), *c = malloc(N * 4);
   for (int i = 0; i < N; i++) {
      a[i] = i;
      b[i] = 3 * i + 1;
   }
   cl_mem ba = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * 4, a, &err);
   cl_mem bb = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * 4, b, &err);
   cl_mem bc = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, N * 4, NULL, &err);
   cl_kernel k = clCreateKernel(p, "vadd", &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 1, NULL, (size_t[]){ N }, NULL, 0, NULL, NULL),
                CL_INVALID_KERNEL_ARGS);
   CHECK_EQ_INT(clSetKernelArg(k, 0, sizeof(cl_mem), &ba), CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArg(k, 1, sizeof(cl_mem), &bb), CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArg(k, 2, sizeof(cl_mem), &bc), CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArg(k, 3, sizeof(cl_mem), &bc), CL_INVALID_ARG_INDEX);
   CHECK_EQ_INT(clSetKernelArg(k, 0, 4, &ba), CL_INVALID_ARG_SIZE);
   cl_mem bogus = (cl_mem)q;
   CHECK_EQ_INT(clSetKernelArg(k, 0, sizeof(cl_mem), &bogus), CL_INVALID_MEM_OBJECT);
   cl_event ev;
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 1, NULL, (size_t[]){ N }, NULL, 0, NULL, &ev),
                CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueReadBuffer(q, bc, CL_TRUE, 0, N * 4, c, 0, NULL, NULL), CL_SUCCESS);
   int bad = 0;
   for (int i = 0; i < N; i++)
      bad += c[i] != a[i] + b[i];
   CHECK_EQ_INT(bad, 0);
   cl_ulong t0 = 0, t1 = 0, t2 = 0;
   CHECK_EQ_INT(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_SUBMIT, 8, &t0, NULL),
                CL_SUCCESS);
   clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, 8, &t1, NULL);
   clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, 8, &t2, NULL);
   CHECK(t1 <= t2 && t2 - t1 < 60ull * 1000000000ull && t1 + 1000000 >= t0);
   clReleaseEvent(ev);
   /* Errors of §5.10. */
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 0, NULL, (size_t[]){ N }, NULL, 0, NULL, NULL),
                CL_INVALID_WORK_DIMENSION);
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 1, NULL, NULL, NULL, 0, NULL, NULL),
                CL_INVALID_GLOBAL_WORK_SIZE);
   /* A zero global size is an empty command from OpenCL 2.1 on (the 1.2 profile's error
    * is checked in api_version_test). */
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 1, NULL, (size_t[]){ 0 }, NULL, 0, NULL, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 1, NULL, (size_t[]){ 128 }, (size_t[]){ 2048 }, 0,
                                       NULL, NULL), CL_INVALID_WORK_ITEM_SIZE);
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 1, NULL, (size_t[]){ 100 }, (size_t[]){ 64 }, 0,
                                       NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, (cl_kernel)q, 1, NULL, (size_t[]){ 1 }, NULL, 0, NULL,
                                       NULL), CL_INVALID_KERNEL);
   clReleaseKernel(k);
   clReleaseMemObject(ba);
   clReleaseMemObject(bb);
   clReleaseMemObject(bc);
   free(a);
   free(b);
   free(c);
}

static void
test_ids(cl_program p)
{
   cl_int err;
   cl_kernel k = clCreateKernel(p, "ids", &err);
   const size_t g[3] = { 8, 6, 4 }, l[3] = { 4, 3, 2 }, off[3] = { 5, 7, 9 };
   const size_t n = 8 * 6 * 4;
   cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n * 16 + 4096 * 16, NULL, &err);
   int w = 7;
   clSetKernelArg(k, 0, sizeof(cl_mem), &out);
   clSetKernelArg(k, 1, sizeof(int), &w);
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 3, NULL, g, l, 0, NULL, NULL), CL_SUCCESS);
   int *h = malloc(n * 16);
   clEnqueueReadBuffer(q, out, CL_TRUE, 0, n * 16, h, 0, NULL, NULL);
   int bad = 0;
   for (size_t z = 0; z < 4; z++)
      for (size_t y = 0; y < 6; y++)
         for (size_t x = 0; x < 8; x++) {
            int *e = h + 4 * ((z * 6 + y) * 8 + x);
            bad += e[0] != (int)x || e[1] != (int)y || e[2] != (int)z ||
                   e[3] != 4 * 10000 + 2 * 100 + 7;
         }
   CHECK_EQ_INT(bad, 0);
   /* With a global offset: ids start at the offset, the linear index does not. */
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 1, off, (size_t[]){ 16 }, NULL, 0, NULL, NULL),
                CL_SUCCESS);
   clEnqueueReadBuffer(q, out, CL_TRUE, 0, n * 16, h, 0, NULL, NULL);
   /* out index uses the global id: lin = x = off + i */
   int *hh = malloc((16 + 5) * 16);
   clEnqueueReadBuffer(q, out, CL_TRUE, 0, (16 + 5) * 16, hh, 0, NULL, NULL);
   bad = 0;
   for (int i = 0; i < 16; i++)
      bad += hh[4 * (5 + i)] != 5 + i;
   CHECK_EQ_INT(bad, 0);
   free(hh);
   free(h);
   clReleaseMemObject(out);
   clReleaseKernel(k);
}

static void
test_reduce_and_fixed(cl_program p)
{
   enum { N = 4096, L = 128 };
   cl_int err;
   int *in = malloc(N * 4), out[N / L];
   for (int i = 0; i < N; i++)
      in[i] = (i * 13) % 101;
   cl_mem bin = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, N * 4, in, &err);
   cl_mem bout = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(out), NULL, &err);
   cl_kernel k = clCreateKernel(p, "reduce", &err);
   clSetKernelArg(k, 0, sizeof(cl_mem), &bin);
   clSetKernelArg(k, 1, sizeof(cl_mem), &bout);
   CHECK_EQ_INT(clSetKernelArg(k, 2, L * 4, &bin), CL_INVALID_ARG_VALUE);
   /* Size 0: an error up to OpenCL 3.0, allowed from 3.1 (the default profile); the size
    * set next replaces it. api_version_30/31 pin both. */
   CHECK_EQ_INT(clSetKernelArg(k, 2, 0, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArg(k, 2, L * 4, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 1, NULL, (size_t[]){ N }, (size_t[]){ L }, 0, NULL,
                                       NULL), CL_SUCCESS);
   clEnqueueReadBuffer(q, bout, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL);
   int bad = 0;
   for (int g = 0; g < N / L; g++) {
      int s = 0;
      for (int i = 0; i < L; i++)
         s += in[g * L + i];
      bad += out[g] != s;
   }
   CHECK_EQ_INT(bad, 0);
   clReleaseKernel(k);

   k = clCreateKernel(p, "fixed", &err);
   clSetKernelArg(k, 0, sizeof(cl_mem), &bin);
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 1, NULL, (size_t[]){ 256 }, (size_t[]){ 32 }, 0,
                                       NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 1, NULL, (size_t[]){ 256 }, NULL, 0, NULL, NULL),
                CL_SUCCESS);
   clEnqueueReadBuffer(q, bin, CL_TRUE, 0, 256 * 4, in, 0, NULL, NULL);
   bad = 0;
   for (int i = 0; i < 256; i++)
      bad += in[i] != 64;
   CHECK_EQ_INT(bad, 0);
   clReleaseKernel(k);

   k = clCreateKernel(p, "task", &err);
   cl_long v = (cl_long)41 << 32;
   clSetKernelArg(k, 0, sizeof(cl_mem), &bout);
   CHECK_EQ_INT(clSetKernelArg(k, 1, 4, &v), CL_INVALID_ARG_SIZE);
   clSetKernelArg(k, 1, sizeof(v), &v);
   CHECK_EQ_INT(clEnqueueTask(q, k, 0, NULL, NULL), CL_SUCCESS);
   clEnqueueReadBuffer(q, bout, CL_TRUE, 0, 4, out, 0, NULL, NULL);
   CHECK_EQ_INT(out[0], 42);
   clReleaseKernel(k);
   clReleaseMemObject(bin);
   clReleaseMemObject(bout);
   free(in);
}

static void
test_nonuniform(void)
{
   const char *src = "kernel void f(global int *o) { o[get_global_id(0)] = (int)get_local_size(0); }";
   cl_program p = build(src, "-cl-std=CL3.0");
   cl_int err;
   cl_kernel k = clCreateKernel(p, "f", &err);
   cl_mem o = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 100 * 4, NULL, &err);
   clSetKernelArg(k, 0, sizeof(cl_mem), &o);
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 1, NULL, (size_t[]){ 100 }, (size_t[]){ 64 }, 0,
                                       NULL, NULL), CL_SUCCESS);
   int h[100];
   clEnqueueReadBuffer(q, o, CL_TRUE, 0, sizeof(h), h, 0, NULL, NULL);
   CHECK_EQ_INT(h[0], 64);
   CHECK_EQ_INT(h[63], 64);
   CHECK_EQ_INT(h[64], 36); /* the partial last group */
   CHECK_EQ_INT(h[99], 36);
   clReleaseMemObject(o);
   clReleaseKernel(k);
   clReleaseProgram(p);
   p = build(src, "-cl-std=CL3.0 -cl-uniform-work-group-size");
   k = clCreateKernel(p, "f", &err);
   o = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 100 * 4, NULL, &err);
   clSetKernelArg(k, 0, sizeof(cl_mem), &o);
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 1, NULL, (size_t[]){ 100 }, (size_t[]){ 64 }, 0,
                                       NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
   clReleaseMemObject(o);
   clReleaseKernel(k);
   clReleaseProgram(p);
}

static void
test_fault(cl_program p)
{
   cl_int err;
   cl_kernel k = clCreateKernel(p, "oob", &err);
   cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4096, NULL, &err);
   clSetKernelArg(k, 0, sizeof(cl_mem), &m);
   cl_event ev, after;
   char log[8192];
   test_stderr_begin();
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 1, NULL, (size_t[]){ 64 }, NULL, 0, NULL, &ev),
                CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueMarkerWithWaitList(q, 1, &ev, &after), CL_SUCCESS);
   CHECK(clWaitForEvents(1, &ev) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
   test_stderr_end(log, sizeof(log));
   fputs(log, stderr);
   /* One fault, one line in the log (it also reaches the context's callback). */
   const char *line = strstr(log, "faulted on the device");
   CHECK(line != NULL);
   CHECK(line && !strstr(line + 1, "faulted on the device"));
   cl_int st = 0;
   clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(st), &st, NULL);
   CHECK(st < 0);
   clWaitForEvents(1, &after);
   clGetEventInfo(after, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(st), &st, NULL);
   CHECK(st < 0);
   CHECK(notified >= 1);
   clReleaseEvent(ev);
   clReleaseEvent(after);
   clReleaseKernel(k);
   /* The queue keeps working after the fault. */
   int v = 0x1234, back = 0;
   CHECK_EQ_INT(clEnqueueWriteBuffer(q, m, CL_TRUE, 0, 4, &v, 0, NULL, NULL), CL_SUCCESS);
   k = clCreateKernel(p, "task", &err);
   cl_long lv = (cl_long)9 << 32;
   clSetKernelArg(k, 0, sizeof(cl_mem), &m);
   clSetKernelArg(k, 1, sizeof(lv), &lv);
   CHECK_EQ_INT(clEnqueueTask(q, k, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueReadBuffer(q, m, CL_TRUE, 0, 4, &back, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(back, 10);
   clReleaseKernel(k);
   clReleaseMemObject(m);
}

/* Blocking transfers queued right behind a kernel that faults (no clFinish between): each
 * returns CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST instead of waiting forever for the
 * release barrier left on the dead AQL ring; the queue then works on. The kernel waits for
 * a user event that another thread completes while the transfer blocks: so the transfer is
 * always enqueued behind a kernel that has not failed yet (one that faulted and retired
 * before the transfer was enqueued is no longer its predecessor, and the transfer runs). */
struct gate {
   cl_event ev;
};

static void *
open_gate(void *arg)
{
   struct gate *g = arg;
   usleep(50000);
   clSetUserEventStatus(g->ev, CL_COMPLETE);
   return NULL;
}

/* Enqueues the faulting kernel `k` behind a user event another thread completes in 50 ms;
 * the caller joins *t after its blocking call. */
static void
fault_behind_gate(cl_kernel k, struct gate *g, pthread_t *t)
{
   cl_int err;
   g->ev = clCreateUserEvent(ctx, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 1, NULL, (size_t[]){ 64 }, NULL, 1, &g->ev, NULL),
                CL_SUCCESS);
   pthread_create(t, NULL, open_gate, g);
}

static void
gate_done(struct gate *g, pthread_t t)
{
   pthread_join(t, NULL);
   clReleaseEvent(g->ev);
}

static void
test_fault_blocking(cl_program p)
{
   cl_int err;
   cl_kernel k = clCreateKernel(p, "oob", &err);
   cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4096, NULL, &err);
   clSetKernelArg(k, 0, sizeof(cl_mem), &m);
   int h[16] = { 0 };
   struct gate g;
   pthread_t t;
   fault_behind_gate(k, &g, &t);
   CHECK_EQ_INT(clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof(h), h, 0, NULL, NULL),
                CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
   gate_done(&g, t);
   fault_behind_gate(k, &g, &t);
   CHECK_EQ_INT(clEnqueueWriteBuffer(q, m, CL_TRUE, 0, sizeof(h), h, 0, NULL, NULL),
                CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
   gate_done(&g, t);
   fault_behind_gate(k, &g, &t);
   void *map = clEnqueueMapBuffer(q, m, CL_TRUE, CL_MAP_READ, 0, sizeof(h), 0, NULL, NULL,
                                  &err);
   CHECK_EQ_INT(err, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
   CHECK(map == NULL);
   gate_done(&g, t);
   clReleaseKernel(k);
   /* The queue works on. */
   int v = 0x5678, back = 0;
   CHECK_EQ_INT(clEnqueueWriteBuffer(q, m, CL_TRUE, 0, 4, &v, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueReadBuffer(q, m, CL_TRUE, 0, 4, &back, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(back, 0x5678);
   clReleaseMemObject(m);
}

/* An event callback run by the completion path that waits for its own queue: clFinish,
 * clWaitForEvents and a blocking read return CL_INVALID_OPERATION there instead of
 * deadlocking the process. */
struct waits_in_cb {
   cl_command_queue q;
   cl_mem m;
   cl_event held;
   cl_int finish, wait, read;
   atomic_int done;
};

static void CL_CALLBACK
wait_in_callback(cl_event ev, cl_int status, void *user)
{
   (void)ev;
   (void)status;
   struct waits_in_cb *w = user;
   int h = 0;
   w->finish = clFinish(w->q);
   w->wait = clWaitForEvents(1, &w->held);
   w->read = clEnqueueReadBuffer(w->q, w->m, CL_TRUE, 0, 4, &h, 0, NULL, NULL);
   atomic_store(&w->done, 1);
}

static void
test_wait_in_callback(cl_program p)
{
   cl_int err;
   cl_kernel k = clCreateKernel(p, "task", &err);
   cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, &err);
   cl_long lv = 5;
   clSetKernelArg(k, 0, sizeof(cl_mem), &m);
   clSetKernelArg(k, 1, sizeof(lv), &lv);
   cl_event go = clCreateUserEvent(ctx, &err), gate = clCreateUserEvent(ctx, &err), kev;
   struct waits_in_cb w = { .q = q, .m = m, .finish = 1, .wait = 1, .read = 1 };
   atomic_init(&w.done, 0);
   /* The kernel waits for `go`, so its callback is registered before it can complete;
    * a marker held by `gate` keeps the queue busy while the callback runs. */
   CHECK_EQ_INT(clEnqueueTask(q, k, 1, &go, &kev), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueMarkerWithWaitList(q, 1, &gate, &w.held), CL_SUCCESS);
   CHECK_EQ_INT(clSetEventCallback(kev, CL_COMPLETE, wait_in_callback, &w), CL_SUCCESS);
   CHECK_EQ_INT(clSetUserEventStatus(go, CL_COMPLETE), CL_SUCCESS);
   for (int i = 0; i < 20000 && !atomic_load(&w.done); i++)
      usleep(1000);
   CHECK_EQ_INT(atomic_load(&w.done), 1);
   CHECK_EQ_INT(w.finish, CL_INVALID_OPERATION);
   CHECK_EQ_INT(w.wait, CL_INVALID_OPERATION);
   CHECK_EQ_INT(w.read, CL_INVALID_OPERATION);
   CHECK_EQ_INT(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
   CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
   int back = 0;
   CHECK_EQ_INT(clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof(back), &back, 0, NULL, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(back, 1); /* (5 >> 32) + 1 */
   clReleaseEvent(kev);
   clReleaseEvent(w.held);
   clReleaseEvent(go);
   clReleaseEvent(gate);
   clReleaseKernel(k);
   clReleaseMemObject(m);
}

static void
test_printf(cl_program p)
{
   cl_int err;
   cl_kernel k = clCreateKernel(p, "hello", &err);
   int v = 42;
   clSetKernelArg(k, 0, sizeof(int), &v);
   fflush(stdout);
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 1, NULL, (size_t[]){ 64 }, NULL, 0, NULL, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
   clReleaseKernel(k);
}

/* Several host threads launch kernels: each on the shared queue and on its own queue,
 * with its own kernel object (clSetKernelArg on one kernel is not thread safe, §A.2). */
static cl_program thread_program;
static atomic_int thread_bad;

static void *
launch_thread(void *arg)
{
   int id = (int)(intptr_t)arg;
   cl_int err;
   cl_command_queue own = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
   cl_kernel k = clCreateKernel(thread_program, "task", &err);
   cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4, NULL, &err);
   clSetKernelArg(k, 0, sizeof(cl_mem), &m);
   for (int i = 0; i < 40; i++) {
      cl_long v = (cl_long)(id * 1000 + i) << 32;
      int back = -1;
      clSetKernelArg(k, 1, sizeof(v), &v);
      cl_command_queue use = i % 2 ? own : q;
      cl_event done;
      clEnqueueTask(use, k, 0, NULL, &done);
      clEnqueueReadBuffer(own, m, CL_TRUE, 0, 4, &back, 1, &done, NULL);
      clReleaseEvent(done);
      if (back != id * 1000 + i + 1)
         atomic_fetch_add(&thread_bad, 1);
   }
   clReleaseMemObject(m);
   clReleaseKernel(k);
   clReleaseCommandQueue(own);
   return NULL;
}

static void
test_threads(cl_program p)
{
   thread_program = p;
   pthread_t t[4];
   for (int i = 0; i < 4; i++)
      pthread_create(&t[i], NULL, launch_thread, (void *)(intptr_t)i);
   for (int i = 0; i < 4; i++)
      pthread_join(t[i], NULL);
   CHECK_EQ_INT(atomic_load(&thread_bad), 0);
   CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
}

/* A program created from an executable binary gives kernels without clBuildProgram (as
 * AMD's and PoCL's OpenCL; piglit api@clcreateprogramwithbinary), and building it again
 * while a launch of a released kernel is in flight succeeds. */
static void
test_binary_program(cl_program built)
{
   cl_int err;
   size_t size = 0;
   clGetProgramInfo(built, CL_PROGRAM_BINARY_SIZES, sizeof(size), &size, NULL);
   unsigned char *bin = malloc(size);
   clGetProgramInfo(built, CL_PROGRAM_BINARIES, sizeof(bin), &bin, NULL);
   cl_int status = 1;
   cl_program p = clCreateProgramWithBinary(ctx, 1, &device, &size,
                                            (const unsigned char **)&bin, &status, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   CHECK_EQ_INT(status, CL_SUCCESS);
   cl_kernel k = clCreateKernel(p, "task", &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4, NULL, &err);
   cl_long v = (cl_long)6 << 32;
   clSetKernelArg(k, 0, sizeof(cl_mem), &m);
   clSetKernelArg(k, 1, sizeof(v), &v);
   CHECK_EQ_INT(clEnqueueTask(q, k, 0, NULL, NULL), CL_SUCCESS);
   clReleaseKernel(k);
   CHECK_EQ_INT(clBuildProgram(p, 1, &device, NULL, NULL, NULL), CL_SUCCESS);
   int back = 0;
   clEnqueueReadBuffer(q, m, CL_TRUE, 0, 4, &back, 0, NULL, NULL);
   CHECK_EQ_INT(back, 7);
   clReleaseMemObject(m);
   clReleaseProgram(p);
   free(bin);
}

/* A vector element chosen by a per-work-item index (compiler/comp_passes.cpp): from a global
 * int4 array, a constant int4 array, a by-value uint4 kernel argument and a by-value struct
 * holding an array. LLVM 19 alone gives every lane of a wave lane 0's element for the first
 * three (v_readfirstlane + s_load). Built at -O3 and -cl-opt-disable. */
static void
test_dynamic_extract(void)
{
   const char *src =
      "typedef struct { int a[8]; } S;\n"
      "kernel void g(global const int4 *in, global int *o, int k) {\n"
      "   size_t i = get_global_id(0); o[i] = in[i][(k + i) & 3]; }\n"
      "kernel void c(constant int4 *in, global int *o, int k) {\n"
      "   size_t i = get_global_id(0); o[i] = in[i & 7][(k + i) & 3]; }\n"
      "kernel void v(uint4 v, global uint *o) {\n"
      "   size_t i = get_global_id(0); o[i] = v[i & 3]; }\n"
      "kernel void s(S s, global int *o) {\n"
      "   size_t i = get_global_id(0); o[i] = s.a[i & 7]; }\n";
   static const char *const opts[] = { "", "-cl-opt-disable" };
   enum { N = 128 };
   for (int o = 0; o < 2; o++) {
      cl_program p = build(src, opts[o]);
      cl_int err;
      static cl_int in[4 * N], out[N];
      for (int i = 0; i < 4 * N; i++)
         in[i] = 1000 + i;
      cl_mem bin = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(in), in,
                                  &err);
      cl_mem bout = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(out), NULL, &err);
      size_t g = N, l = 64;
      for (int k = 0; k < 4; k++) {
         static const char *const names[] = { "g", "c" };
         for (int n = 0; n < 2; n++) {
            cl_kernel kk = clCreateKernel(p, names[n], &err);
            clSetKernelArg(kk, 0, sizeof(bin), &bin);
            clSetKernelArg(kk, 1, sizeof(bout), &bout);
            clSetKernelArg(kk, 2, sizeof(k), &k);
            CHECK_EQ_INT(clEnqueueNDRangeKernel(q, kk, 1, NULL, &g, &l, 0, NULL, NULL),
                         CL_SUCCESS);
            clEnqueueReadBuffer(q, bout, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL);
            unsigned bad = 0;
            for (int i = 0; i < N; i++) {
               int row = n == 0 ? i : i & 7;
               bad += out[i] != in[4 * row + ((k + i) & 3)];
            }
            if (bad)
               fprintf(stderr, "dynamic extract %s (%s) k=%d: %u wrong\n", names[n], opts[o],
                       k, bad);
            CHECK_EQ_INT(bad, 0);
            clReleaseKernel(kk);
         }
      }
      cl_uint v4[4] = { 11, 22, 33, 44 };
      cl_kernel kv = clCreateKernel(p, "v", &err);
      clSetKernelArg(kv, 0, sizeof(v4), v4);
      clSetKernelArg(kv, 1, sizeof(bout), &bout);
      CHECK_EQ_INT(clEnqueueNDRangeKernel(q, kv, 1, NULL, &g, &l, 0, NULL, NULL), CL_SUCCESS);
      clEnqueueReadBuffer(q, bout, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL);
      unsigned bad = 0;
      for (int i = 0; i < N; i++)
         bad += (cl_uint)out[i] != v4[i & 3];
      CHECK_EQ_INT(bad, 0);
      clReleaseKernel(kv);
      struct {
         cl_int a[8];
      } st = { { 5, 6, 7, 8, 9, 10, 11, 12 } };
      cl_kernel ks = clCreateKernel(p, "s", &err);
      clSetKernelArg(ks, 0, sizeof(st), &st);
      clSetKernelArg(ks, 1, sizeof(bout), &bout);
      CHECK_EQ_INT(clEnqueueNDRangeKernel(q, ks, 1, NULL, &g, &l, 0, NULL, NULL), CL_SUCCESS);
      clEnqueueReadBuffer(q, bout, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL);
      bad = 0;
      for (int i = 0; i < N; i++)
         bad += out[i] != st.a[i & 7];
      CHECK_EQ_INT(bad, 0);
      clReleaseKernel(ks);
      clReleaseMemObject(bin);
      clReleaseMemObject(bout);
      clReleaseProgram(p);
   }
}

int
main(int argc, char **argv)
{
   cl_platform_id platform;
   cl_int err;
   clGetPlatformIDs(1, &platform, NULL);
   if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &device, NULL) != CL_SUCCESS) {
      fprintf(stderr, "no hsacl device\n");
      return 1;
   }
   ctx = clCreateContext(NULL, 1, &device, ctx_notify, NULL, &err);
   cl_queue_properties props[] = { CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0 };
   q = clCreateCommandQueueWithProperties(ctx, device, props, &err);
   cl_program p = build(source, NULL);
   test_vadd(p);
   test_ids(p);
   test_reduce_and_fixed(p);
   test_nonuniform();
   test_dynamic_extract();
   test_printf(p);
   test_threads(p);
   test_binary_program(p);
   test_fault(p);
   test_fault_blocking(p);
   test_wait_in_callback(p);
   clReleaseProgram(p);
   clReleaseCommandQueue(q);
   clReleaseContext(ctx);
   return test_main_end();
}
