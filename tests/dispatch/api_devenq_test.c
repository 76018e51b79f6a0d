/*
 * tests/dispatch/api_devenq_test.c — device-side enqueue (OpenCL C §6.15.15, API §5.1 device queues,
 * dispatch/disp_devq.c): child kernels over 1-3-D ranges, each CLK_ENQUEUE_FLAGS_*, events
 * between children, markers, user events, captured variables, local-memory arguments,
 * nesting, printf in children, queue_t arguments, the parent-completes-after-children rule,
 * a full device queue, enqueue errors, device-event profiling; the device queue API
 * (creation, queries, clSetDefaultDeviceCommandQueue, host commands refused) and the device
 * queries; the same kernels built as OpenCL C 2.0.
 *
 * Argument "off" (run with HSACL_OPENCL_VERSION=1.2): the 1.2 profile has none of it; "2.0"
 * (HSACL_OPENCL_VERSION=2.0): all of it in OpenCL C 2.0, the 3.0 queries refused.
 *
 * Every child's output is checked after the host waits for the parent's event only: a
 * parent's command completes when all its children (recursively) did.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hsacl_test.h"

static cl_device_id device;
static cl_context ctx;
static cl_command_queue q;

static const char source[] =
   "#define N 1000\n"
   /* basic child: a captured scalar and buffer */
   "kernel void basic(global int *out, int x) {\n"
   "  if (get_global_id(0)) return;\n"
   "  int r = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL,\n"
   "                         ndrange_1D(N), ^{ out[get_global_id(0)] = (int)get_global_id(0) * x; });\n"
   "  out[N] = r;\n"
   "}\n"
   /* every flag; the child reads what the parent wrote after enqueueing: children start
    * after their parent finished */
   "kernel void flags(global int *out, global int *flag) {\n"
   "  if (get_global_id(0)) return;\n"
   "  int r0 = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(64),\n"
   "                          ^{ out[get_global_id(0)] = 1; });\n"
   "  int r1 = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(64),\n"
   "                          ^{ out[64 + get_global_id(0)] = flag[0]; });\n"
   "  int r2 = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_WORK_GROUP,\n"
   "                          ndrange_1D(64), ^{ out[128 + get_global_id(0)] = flag[0] + 1; });\n"
   "  flag[0] = 7;\n"
   "  out[192] = r0; out[193] = r1; out[194] = r2;\n"
   "}\n"
   /* 2-D and 3-D ranges with offsets and local sizes */
   "kernel void ranges(global int *out) {\n"
   "  if (get_global_id(0)) return;\n"
   "  size_t g2[2] = { 10, 6 }, l2[2] = { 5, 3 };\n"
   "  int r0 = enqueue_kernel(get_default_queue(), 0, ndrange_2D(g2, l2), ^{\n"
   "     size_t i = get_global_id(1) * 10 + get_global_id(0);\n"
   "     out[i] = 1000 + (int)(get_local_size(0) * 10 + get_local_size(1)) * 0 +\n"
   "              (int)(get_global_size(0) * 100 + get_global_size(1)); });\n"
   "  size_t o3[3] = { 1, 2, 3 }, g3[3] = { 4, 3, 2 }, l3[3] = { 2, 3, 1 };\n"
   "  int r1 = enqueue_kernel(get_default_queue(), 0, ndrange_3D(o3, g3, l3), ^{\n"
   "     size_t x = get_global_id(0) - 1, y = get_global_id(1) - 2, z = get_global_id(2) - 3;\n"
   "     out[100 + (z * 3 + y) * 4 + x] = (int)(get_work_dim() * 1000 + get_local_size(0) * 100 +\n"
   "                                           get_local_size(1) * 10 + get_num_groups(0)); });\n"
   "  out[200] = r0; out[201] = r1;\n"
   "}\n"
   /* events: b waits for a and reads its output; a marker waits for both; c waits for the
    * marker */
   "kernel void events(global int *out) {\n"
   "  if (get_global_id(0)) return;\n"
   "  queue_t qq = get_default_queue();\n"
   "  clk_event_t ea, eb, em;\n"
   "  int r0 = enqueue_kernel(qq, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(256), 0, 0, &ea,\n"
   "                          ^{ out[get_global_id(0)] = (int)get_global_id(0) + 1; });\n"
   "  int r1 = enqueue_kernel(qq, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(256), 1, &ea, &eb,\n"
   "                          ^{ out[256 + get_global_id(0)] = out[255 - get_global_id(0)] * 2; });\n"
   "  int r2 = enqueue_marker(qq, 1, &eb, &em);\n"
   "  int r3 = enqueue_kernel(qq, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &em, 0,\n"
   "                          ^{ int s = 0; for (int i = 0; i < 512; i++) s += out[i];\n"
   "                             out[512] = s; });\n"
   "  out[513] = r0; out[514] = r1; out[515] = r2; out[516] = r3;\n"
   "  out[517] = is_valid_event(ea) && is_valid_event(em);\n"
   "  release_event(ea); release_event(eb); release_event(em);\n"
   "}\n"
   /* user events: one set by the parent (the child runs), one never set (its child does not
    * run, and the tree still ends) */
   "kernel void user_events(global int *out) {\n"
   "  if (get_global_id(0)) return;\n"
   "  clk_event_t u = create_user_event(), v = create_user_event();\n"
   "  out[3] = is_valid_event(u) && is_valid_event(v);\n"
   "  out[4] = enqueue_kernel(get_default_queue(), 0, ndrange_1D(1), 1, &u, 0, ^{ out[0] = 11; });\n"
   "  out[5] = enqueue_kernel(get_default_queue(), 0, ndrange_1D(1), 1, &v, 0, ^{ out[1] = 22; });\n"
   "  set_user_event_status(u, CL_COMPLETE);\n"
   "  release_event(u); release_event(v);\n"
   "}\n"
   /* local-memory arguments: two blocks of local memory per work-group */
   "kernel void locals(global int *out) {\n"
   "  if (get_global_id(0)) return;\n"
   "  out[300] = enqueue_kernel(get_default_queue(), 0, ndrange_1D(128, 64),\n"
   "    ^(local void *a, local void *b) {\n"
   "      local int *la = (local int *)a; local int *lb = (local int *)b;\n"
   "      size_t l = get_local_id(0);\n"
   "      la[l] = (int)get_global_id(0); lb[63 - l] = (int)get_group_id(0) + 1;\n"
   "      barrier(CLK_LOCAL_MEM_FENCE);\n"
   "      out[get_global_id(0)] = la[63 - l] * 10 + lb[l]; }, 256u, 512u);\n"
   "}\n"
   /* nested: each level enqueues two children until depth 0 */
   "void rec(queue_t qq, global int *counter, global int *codes, int depth) {\n"
   "  atomic_inc(counter);\n"
   "  if (depth == 0) return;\n"
   "  int r = enqueue_kernel(qq, CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(2),\n"
   "                        ^{ rec(qq, counter, codes, depth - 1); });\n"
   "  if (r != CLK_SUCCESS) atomic_inc(codes);\n"
   "}\n"
   "kernel void nested(global int *counter, global int *codes, int depth) {\n"
   "  rec(get_default_queue(), counter, codes, depth);\n"
   "}\n"
   /* the parent completes after its children: a slow grandchild's output is there */
   "kernel void slow(global int *out) {\n"
   "  if (get_global_id(0)) return;\n"
   "  queue_t qq = get_default_queue();\n"
   "  enqueue_kernel(qq, 0, ndrange_1D(1), ^{\n"
   "    enqueue_kernel(qq, 0, ndrange_1D(1), ^{\n"
   "      int s = 0; for (int i = 0; i < 200000; i++) s += i & 3; out[0] = s; }); });\n"
   "}\n"
   /* a full queue: as many children as records, the rest CLK_DEVICE_QUEUE_FULL */
   "kernel void full(global int *out, int n) {\n"
   "  if (get_global_id(0)) return;\n"
   "  for (int i = 0; i < n; i++)\n"
   "    out[100 + i] = enqueue_kernel(get_default_queue(), 0, ndrange_1D(1), ^{ out[i] = i + 1; });\n"
   "}\n"
   /* errors */
   "kernel void errors(global int *out) {\n"
   "  if (get_global_id(0)) return;\n"
   "  queue_t qq = get_default_queue();\n"
   "  clk_event_t e;\n"
   "  out[0] = enqueue_kernel(qq, 0, ndrange_1D(1024, 512), ^{ out[100] = 1; });\n"
   "  out[1] = enqueue_kernel(qq, 0, ndrange_1D(0), ^{ out[101] = 1; });\n"
   "  out[2] = enqueue_kernel(qq, 0, ndrange_1D(1), 1, 0, 0, ^{ out[102] = 1; });\n"
   "  out[3] = enqueue_kernel(qq, 0, ndrange_1D(1), 0, &e, 0, ^{ out[103] = 1; });\n"
   "  out[4] = enqueue_marker(qq, 0, 0, &e);\n"
   "  out[5] = enqueue_kernel(qq, 0, ndrange_1D(1), ^(local void *p) { out[104] = 1; }, 0u);\n"
   "  out[6] = (int)get_kernel_work_group_size(^{ out[105] = 1; });\n"
   "  out[7] = (int)get_kernel_preferred_work_group_size_multiple(^{ out[106] = 1; });\n"
   "}\n"
   /* printf in a child and a grandchild; a queue_t argument */
   "kernel void printer(queue_t dq, global int *out) {\n"
   "  if (get_global_id(0)) return;\n"
   "  out[0] = enqueue_kernel(dq, 0, ndrange_1D(3), ^{\n"
   "    printf(\"devenq child %d\\n\", (int)get_global_id(0));\n"
   "    if (get_global_id(0) == 2)\n"
   "      enqueue_kernel(get_default_queue(), 0, ndrange_1D(1), ^{ printf(\"devenq grandchild\\n\"); });\n"
   "  });\n"
   "}\n"
   /* many kernels in one tree: more packets than the tree's AQL ring has slots */
   "void grand(global int *out, int i) {\n"
   "  enqueue_kernel(get_default_queue(), 0, ndrange_1D(2), ^{ out[2 * i + get_global_id(0)] += 2 * i + (int)get_global_id(0) + 1; });\n"
   "}\n"
   "kernel void wide(global int *out) {\n"
   "  int i = (int)get_global_id(0);\n"
   "  enqueue_kernel(get_default_queue(), 0, ndrange_1D(1), ^{ grand(out, i); });\n"
   "}\n"
   /* one child a work-item, all pending until the parent ends (the CTS's command-buffer
    * device_enqueue); the child copies its parent's enqueue status */
   "kernel void each(global int *out) {\n"
   "  int i = (int)get_global_id(0);\n"
   "  int r = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(1),\n"
   "                         ^{ out[i] = i + 1; });\n"
   "  if (r) out[i] = r;\n"
   "}\n"
   /* profiling of a child's event */
   "kernel void profiling(global ulong *t) {\n"
   "  if (get_global_id(0)) return;\n"
   "  clk_event_t e;\n"
   "  enqueue_kernel(get_default_queue(), 0, ndrange_1D(64), 0, 0, &e,\n"
   "                 ^{ int s = 0; for (int i = 0; i < 20000; i++) s += i; if (s == 1) t[9] = 1; });\n"
   "  capture_event_profiling_info(e, CLK_PROFILING_COMMAND_EXEC_TIME, t);\n"
   "  release_event(e);\n"
   "}\n";

static cl_mem
buffer(size_t bytes)
{
   cl_int err;
   cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   int zero = 0;
   clEnqueueFillBuffer(q, m, &zero, sizeof(zero), 0, bytes, 0, NULL, NULL);
   return m;
}

/* Runs kernel `k` with one work-item per `groups` x 64, waits for its event only, and
 * returns it. */
static void
run(cl_kernel k, size_t global)
{
   cl_event ev = NULL;
   cl_int err = clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, &ev);
   CHECK_EQ_INT(err, CL_SUCCESS);
   if (ev) {
      CHECK_EQ_INT(clWaitForEvents(1, &ev), CL_SUCCESS);
      cl_int st = 1;
      clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(st), &st, NULL);
      CHECK_EQ_INT(st, CL_COMPLETE);
      clReleaseEvent(ev);
   }
}

static void
read_ints(cl_mem m, int *dst, size_t n)
{
   CHECK_EQ_INT(clEnqueueReadBuffer(q, m, CL_TRUE, 0, n * sizeof(int), dst, 0, NULL, NULL),
                CL_SUCCESS);
}

static cl_kernel
kernel(cl_program p, const char *name)
{
   cl_int err;
   cl_kernel k = clCreateKernel(p, name, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   return k;
}

static void
test_basic(cl_program p)
{
   cl_kernel k = kernel(p, "basic");
   cl_mem out = buffer(1001 * sizeof(int));
   int x = 3;
   clSetKernelArg(k, 0, sizeof(out), &out);
   clSetKernelArg(k, 1, sizeof(x), &x);
   run(k, 64);
   int h[1001];
   read_ints(out, h, 1001);
   CHECK_EQ_INT(h[1000], 0 /* CLK_SUCCESS */);
   int bad = 0;
   for (int i = 0; i < 1000; i++)
      bad += h[i] != i * 3;
   CHECK_EQ_INT(bad, 0);
   /* again, with another value: the device queue is reused */
   x = -2;
   clSetKernelArg(k, 1, sizeof(x), &x);
   run(k, 64);
   read_ints(out, h, 1001);
   bad = 0;
   for (int i = 0; i < 1000; i++)
      bad += h[i] != i * -2;
   CHECK_EQ_INT(bad, 0);
   clReleaseMemObject(out);
   clReleaseKernel(k);
}

/* Two launches that enqueue, the first held by a user event the host sets only after the
 * second was enqueued: the second tree waits for the first on the GPU, not in
 * clEnqueueNDRangeKernel (which would never return). */
static void
test_chained(cl_program p)
{
   cl_int err;
   cl_kernel k1 = kernel(p, "basic"), k2 = kernel(p, "basic");
   cl_mem o1 = buffer(1001 * sizeof(int)), o2 = buffer(1001 * sizeof(int));
   int x1 = 5, x2 = 9;
   clSetKernelArg(k1, 0, sizeof(o1), &o1);
   clSetKernelArg(k1, 1, sizeof(x1), &x1);
   clSetKernelArg(k2, 0, sizeof(o2), &o2);
   clSetKernelArg(k2, 1, sizeof(x2), &x2);
   CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
   cl_event u = clCreateUserEvent(ctx, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   size_t g = 1;
   cl_event e1, e2;
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k1, 1, NULL, &g, NULL, 1, &u, &e1), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k2, 1, NULL, &g, NULL, 0, NULL, &e2), CL_SUCCESS);
   cl_int st = CL_COMPLETE;
   clGetEventInfo(e2, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(st), &st, NULL);
   CHECK(st != CL_COMPLETE);
   CHECK_EQ_INT(clSetUserEventStatus(u, CL_COMPLETE), CL_SUCCESS);
   CHECK_EQ_INT(clWaitForEvents(1, &e2), CL_SUCCESS);
   CHECK_EQ_INT(clWaitForEvents(1, &e1), CL_SUCCESS);
   int h1[1001], h2[1001];
   read_ints(o1, h1, 1001);
   read_ints(o2, h2, 1001);
   int bad = 0;
   for (int i = 0; i < 1000; i++)
      bad += h1[i] != i * 5 || h2[i] != i * 9;
   CHECK_EQ_INT(bad, 0);
   clReleaseEvent(e1);
   clReleaseEvent(e2);
   clReleaseEvent(u);
   clReleaseMemObject(o1);
   clReleaseMemObject(o2);
   clReleaseKernel(k1);
   clReleaseKernel(k2);
}

static void
test_flags(cl_program p)
{
   cl_kernel k = kernel(p, "flags");
   cl_mem out = buffer(200 * sizeof(int)), flag = buffer(sizeof(int));
   clSetKernelArg(k, 0, sizeof(out), &out);
   clSetKernelArg(k, 1, sizeof(flag), &flag);
   run(k, 64);
   int h[200];
   read_ints(out, h, 200);
   CHECK_EQ_INT(h[192], 0);
   CHECK_EQ_INT(h[193], 0);
   CHECK_EQ_INT(h[194], 0);
   int bad = 0;
   for (int i = 0; i < 64; i++)
      bad += h[i] != 1 || h[64 + i] != 7 || h[128 + i] != 8;
   CHECK_EQ_INT(bad, 0);
   clReleaseMemObject(out);
   clReleaseMemObject(flag);
   clReleaseKernel(k);
}

static void
test_ranges(cl_program p)
{
   cl_kernel k = kernel(p, "ranges");
   cl_mem out = buffer(202 * sizeof(int));
   clSetKernelArg(k, 0, sizeof(out), &out);
   run(k, 1);
   int h[202];
   read_ints(out, h, 202);
   CHECK_EQ_INT(h[200], 0);
   CHECK_EQ_INT(h[201], 0);
   int bad = 0;
   for (int i = 0; i < 60; i++)
      bad += h[i] != 1000 + 1006;
   CHECK_EQ_INT(bad, 0);
   bad = 0;
   for (int i = 0; i < 24; i++)
      bad += h[100 + i] != 3000 + 200 + 30 + 2;
   CHECK_EQ_INT(bad, 0);
   CHECK_EQ_INT(h[124], 0); /* nothing past the range */
   clReleaseMemObject(out);
   clReleaseKernel(k);
}

static void
test_events(cl_program p)
{
   cl_kernel k = kernel(p, "events");
   cl_mem out = buffer(520 * sizeof(int));
   clSetKernelArg(k, 0, sizeof(out), &out);
   run(k, 1);
   int h[520];
   read_ints(out, h, 520);
   for (int i = 513; i <= 516; i++)
      CHECK_EQ_INT(h[i], 0);
   CHECK_EQ_INT(h[517], 1);
   int bad = 0, sum = 0;
   for (int i = 0; i < 256; i++) {
      bad += h[i] != i + 1 || h[256 + i] != (256 - i) * 2;
      sum += (i + 1) + (256 - i) * 2;
   }
   CHECK_EQ_INT(bad, 0);
   CHECK_EQ_INT(h[512], sum);
   clReleaseMemObject(out);
   clReleaseKernel(k);
}

static void
test_user_events(cl_program p)
{
   cl_kernel k = kernel(p, "user_events");
   cl_mem out = buffer(8 * sizeof(int));
   clSetKernelArg(k, 0, sizeof(out), &out);
   run(k, 1);
   int h[8];
   read_ints(out, h, 8);
   CHECK_EQ_INT(h[3], 1);
   CHECK_EQ_INT(h[4], 0);
   CHECK_EQ_INT(h[5], 0);
   CHECK_EQ_INT(h[0], 11);
   CHECK_EQ_INT(h[1], 0); /* its event never completed: never ran */
   clReleaseMemObject(out);
   clReleaseKernel(k);
}

static void
test_locals(cl_program p)
{
   cl_kernel k = kernel(p, "locals");
   cl_mem out = buffer(301 * sizeof(int));
   clSetKernelArg(k, 0, sizeof(out), &out);
   run(k, 1);
   int h[301];
   read_ints(out, h, 301);
   CHECK_EQ_INT(h[300], 0);
   int bad = 0;
   for (int g = 0; g < 128; g++) {
      int grp = g / 64, l = g % 64;
      int want = (grp * 64 + 63 - l) * 10 + grp + 1;
      bad += h[g] != want;
   }
   CHECK_EQ_INT(bad, 0);
   clReleaseMemObject(out);
   clReleaseKernel(k);
}

static void
test_nested(cl_program p)
{
   cl_kernel k = kernel(p, "nested");
   cl_mem counter = buffer(sizeof(int)), codes = buffer(sizeof(int));
   int depth = 4;
   clSetKernelArg(k, 0, sizeof(counter), &counter);
   clSetKernelArg(k, 1, sizeof(codes), &codes);
   clSetKernelArg(k, 2, sizeof(depth), &depth);
   run(k, 1);
   int c, e;
   read_ints(counter, &c, 1);
   read_ints(codes, &e, 1);
   /* 1 + 2 + 4 + 8 + 16 work-items, levels 4..0 */
   CHECK_EQ_INT(c, 31);
   CHECK_EQ_INT(e, 0);
   clReleaseMemObject(counter);
   clReleaseMemObject(codes);
   clReleaseKernel(k);
}

static void
test_completion(cl_program p)
{
   cl_kernel k = kernel(p, "slow");
   cl_mem out = buffer(sizeof(int));
   clSetKernelArg(k, 0, sizeof(out), &out);
   cl_event ev;
   size_t g = 1;
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, &ev), CL_SUCCESS);
   CHECK_EQ_INT(clWaitForEvents(1, &ev), CL_SUCCESS);
   /* a non-blocking map, so that only the parent's event orders the read */
   int *m = clEnqueueMapBuffer(q, out, CL_TRUE, CL_MAP_READ, 0, sizeof(int), 0, NULL, NULL, NULL);
   CHECK(m != NULL);
   if (m) {
      CHECK_EQ_INT(*m, 300000);
      clEnqueueUnmapMemObject(q, out, m, 0, NULL, NULL);
   }
   clReleaseEvent(ev);
   clReleaseMemObject(out);
   clReleaseKernel(k);
}

static void
test_full(cl_program p, cl_command_queue small)
{
   (void)small;
   cl_kernel k = kernel(p, "full");
   cl_mem out = buffer(200 * sizeof(int));
   int n = 10;
   clSetKernelArg(k, 0, sizeof(out), &out);
   clSetKernelArg(k, 1, sizeof(n), &n);
   run(k, 1);
   int h[200];
   read_ints(out, h, 200);
   /* 4 records (CL_QUEUE_SIZE 4096): 4 succeed, 6 find the queue full */
   int ok = 0, full = 0, ran = 0, wrong = 0;
   for (int i = 0; i < n; i++) {
      ok += h[100 + i] == 0;
      full += h[100 + i] == -161; /* CLK_DEVICE_QUEUE_FULL */
      if (h[100 + i] == 0)
         wrong += h[i] != i + 1;
      ran += h[i] != 0;
   }
   CHECK_EQ_INT(ok, 4);
   CHECK_EQ_INT(full, 6);
   CHECK_EQ_INT(ran, 4);
   CHECK_EQ_INT(wrong, 0);
   clReleaseMemObject(out);
   clReleaseKernel(k);
}

/* 1500 children and 3000 grandchildren: 4500 kernels, more than the 4096 slots of the
 * tree's AQL ring, which the scheduler goes round. Needs 4500 records (an 8 MiB queue). */
static void
test_wide(cl_program p)
{
   enum { N = 1500 };
   cl_kernel k = kernel(p, "wide");
   cl_mem out = buffer(2 * N * sizeof(int));
   clSetKernelArg(k, 0, sizeof(out), &out);
   run(k, N);
   static int h[2 * N];
   read_ints(out, h, 2 * N);
   int bad = 0;
   for (int i = 0; i < 2 * N; i++)
      bad += h[i] != i + 1;
   CHECK_EQ_INT(bad, 0);
   clReleaseMemObject(out);
   clReleaseKernel(k);
}

static void
test_errors(cl_program p)
{
   cl_kernel k = kernel(p, "errors");
   cl_mem out = buffer(120 * sizeof(int));
   clSetKernelArg(k, 0, sizeof(out), &out);
   run(k, 1);
   int h[120];
   read_ints(out, h, 120);
   CHECK_EQ_INT(h[0], -160); /* CLK_INVALID_NDRANGE: 512 > the kernel's 256 */
   CHECK_EQ_INT(h[1], -160); /* CLK_INVALID_NDRANGE: empty */
   CHECK_EQ_INT(h[2], -57);  /* CLK_INVALID_EVENT_WAIT_LIST */
   CHECK_EQ_INT(h[3], -57);
   CHECK_EQ_INT(h[4], -57);
   CHECK_EQ_INT(h[5], -51);  /* CLK_INVALID_ARG_SIZE: local size 0 */
   CHECK_EQ_INT(h[6], 256);
   CHECK_EQ_INT(h[7], 64);
   for (int i = 100; i < 105; i++)
      CHECK_EQ_INT(h[i], 0);
   clReleaseMemObject(out);
   clReleaseKernel(k);
}

static void
test_profiling(cl_program p)
{
   cl_kernel k = kernel(p, "profiling");
   cl_mem t = buffer(10 * sizeof(cl_ulong));
   clSetKernelArg(k, 0, sizeof(t), &t);
   run(k, 1);
   cl_ulong h[10];
   CHECK_EQ_INT(clEnqueueReadBuffer(q, t, CL_TRUE, 0, sizeof(h), h, 0, NULL, NULL), CL_SUCCESS);
   /* execution time <= time to completion, both written, under a minute */
   CHECK(h[1] > 0);
   CHECK(h[0] <= h[1]);
   CHECK(h[1] < 60ull * 1000000000ull);
   clReleaseMemObject(t);
   clReleaseKernel(k);
}

static void
test_printf_and_queue_arg(cl_program p, cl_command_queue dq)
{
   cl_kernel k = kernel(p, "printer");
   cl_mem out = buffer(sizeof(int));
   /* clSetKernelArg of a queue_t: a device queue only */
   CHECK_EQ_INT(clSetKernelArg(k, 0, sizeof(q), &q), CL_INVALID_DEVICE_QUEUE);
   CHECK_EQ_INT(clSetKernelArg(k, 0, 4, &dq), CL_INVALID_ARG_SIZE);
   CHECK_EQ_INT(clSetKernelArg(k, 0, sizeof(dq), NULL), CL_INVALID_ARG_VALUE);
   cl_command_queue junk = (cl_command_queue)&junk;
   CHECK_EQ_INT(clSetKernelArg(k, 0, sizeof(junk), &junk), CL_INVALID_DEVICE_QUEUE);
   CHECK_EQ_INT(clSetKernelArg(k, 0, sizeof(dq), &dq), CL_SUCCESS);
   clSetKernelArg(k, 1, sizeof(out), &out);
   fflush(stdout);
   FILE *tmp = tmpfile();
   int saved = dup(STDOUT_FILENO);
   if (tmp)
      dup2(fileno(tmp), STDOUT_FILENO);
   run(k, 1);
   CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
   fflush(stdout);
   dup2(saved, STDOUT_FILENO);
   close(saved);
   char text[4096] = "";
   if (tmp) {
      rewind(tmp);
      size_t n = fread(text, 1, sizeof(text) - 1, tmp);
      text[n] = 0;
      fclose(tmp);
   }
   CHECK(strstr(text, "devenq child 0\n") != NULL);
   CHECK(strstr(text, "devenq child 1\n") != NULL);
   CHECK(strstr(text, "devenq child 2\n") != NULL);
   CHECK(strstr(text, "devenq grandchild\n") != NULL);
   int h = -1;
   read_ints(out, &h, 1);
   CHECK_EQ_INT(h, 0);
   clReleaseMemObject(out);
   clReleaseKernel(k);
}

/* The 2.0 profile (argument "2.0"): CL_QUEUE_DEVICE_DEFAULT is an OpenCL 2.1 query. */
static bool profile20;

/* CL_QUEUE_DEVICE_DEFAULT of `queue` is `want`; in the 2.0 profile the query is refused. */
static void
check_device_default(cl_command_queue queue, cl_command_queue want)
{
   cl_command_queue got = (cl_command_queue)1;
   cl_int err = clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE_DEFAULT, sizeof(got), &got, NULL);
   CHECK_EQ_INT(err, profile20 ? CL_INVALID_VALUE : CL_SUCCESS);
   if (!profile20)
      CHECK(got == want);
}

/* Device queues take no host commands; one per device; the default is replaceable. */
static void
test_queue_api(cl_command_queue dq)
{
   cl_int err;
   check_device_default(dq, dq);
   check_device_default(q, dq);
   cl_command_queue_properties props = 0;
   clGetCommandQueueInfo(dq, CL_QUEUE_PROPERTIES, sizeof(props), &props, NULL);
   CHECK_EQ_INT(props, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_ON_DEVICE |
                          CL_QUEUE_ON_DEVICE_DEFAULT);
   CHECK_EQ_INT(clFinish(dq), CL_INVALID_COMMAND_QUEUE);
   CHECK_EQ_INT(clFlush(dq), CL_INVALID_COMMAND_QUEUE);
   CHECK_EQ_INT(clEnqueueMarkerWithWaitList(dq, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
   cl_mem m = buffer(16);
   int v[4];
   CHECK_EQ_INT(clEnqueueReadBuffer(dq, m, CL_TRUE, 0, 16, v, 0, NULL, NULL),
                CL_INVALID_COMMAND_QUEUE);
   cl_program p = NULL;
   const char *src = "kernel void k(global int *o) { o[0] = 1; }";
   p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
   clBuildProgram(p, 1, &device, "", NULL, NULL);
   cl_kernel k = clCreateKernel(p, "k", &err);
   clSetKernelArg(k, 0, sizeof(m), &m);
   size_t g = 1;
   CHECK_EQ_INT(clEnqueueNDRangeKernel(dq, k, 1, NULL, &g, NULL, 0, NULL, NULL),
                CL_INVALID_COMMAND_QUEUE);
   clReleaseKernel(k);
   clReleaseProgram(p);
   clReleaseMemObject(m);
   /* CL_DEVICE_MAX_ON_DEVICE_QUEUES is 1 */
   cl_queue_properties dprops[] = {
      CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_ON_DEVICE, 0
   };
   CHECK(clCreateCommandQueueWithProperties(ctx, device, dprops, &err) == NULL);
   CHECK_EQ_INT(err, CL_OUT_OF_RESOURCES);
   /* clSetDefaultDeviceCommandQueue */
   CHECK_EQ_INT(clSetDefaultDeviceCommandQueue(NULL, device, dq), CL_INVALID_CONTEXT);
   CHECK_EQ_INT(clSetDefaultDeviceCommandQueue(ctx, NULL, dq), CL_INVALID_DEVICE);
   CHECK_EQ_INT(clSetDefaultDeviceCommandQueue(ctx, device, q), CL_INVALID_COMMAND_QUEUE);
   CHECK_EQ_INT(clSetDefaultDeviceCommandQueue(ctx, device, NULL), CL_INVALID_COMMAND_QUEUE);
   CHECK_EQ_INT(clSetDefaultDeviceCommandQueue(ctx, device, dq), CL_SUCCESS);
   /* CL_QUEUE_SIZE of a host queue */
   cl_uint size;
   CHECK_EQ_INT(clGetCommandQueueInfo(q, CL_QUEUE_SIZE, sizeof(size), &size, NULL),
                CL_INVALID_COMMAND_QUEUE);
}

/* A device queue made default by clSetDefaultDeviceCommandQueue. */
static void
test_set_default(cl_program p)
{
   cl_int err;
   cl_queue_properties dprops[] = {
      CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_ON_DEVICE, 0
   };
   cl_command_queue dq = clCreateCommandQueueWithProperties(ctx, device, dprops, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   check_device_default(q, NULL);
   /* no default device queue: get_default_queue() is CLK_NULL_QUEUE, enqueue fails */
   cl_kernel k = kernel(p, "basic");
   cl_mem out = buffer(1001 * sizeof(int));
   int x = 4;
   clSetKernelArg(k, 0, sizeof(out), &out);
   clSetKernelArg(k, 1, sizeof(x), &x);
   run(k, 1);
   int h[1001];
   read_ints(out, h, 1001);
   CHECK_EQ_INT(h[1000], -102); /* CLK_INVALID_QUEUE */
   CHECK_EQ_INT(h[5], 0);
   CHECK_EQ_INT(clSetDefaultDeviceCommandQueue(ctx, device, dq), CL_SUCCESS);
   check_device_default(q, dq);
   run(k, 1);
   read_ints(out, h, 1001);
   CHECK_EQ_INT(h[1000], 0);
   CHECK_EQ_INT(h[5], 20);
   clReleaseMemObject(out);
   clReleaseKernel(k);
   clReleaseCommandQueue(dq);
}

static cl_program
build(const char *options)
{
   cl_int err;
   const char *src = source;
   cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   err = clBuildProgram(p, 1, &device, options, NULL, NULL);
   CHECK_EQ_INT(err, CL_SUCCESS);
   if (err != CL_SUCCESS) {
      char log[8192] = "";
      clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, sizeof(log), log, NULL);
      fprintf(stderr, "%s\n", log);
   }
   return p;
}

/* `n` work-items of kernel "each" enqueue one child each on a default queue of `size` bytes
 * (0: no CL_QUEUE_SIZE, the preferred size); with CLK_ENQUEUE_FLAGS_WAIT_KERNEL none runs
 * before the parent ends, so all are held at once. Every slot shows its child's run or the
 * CLK_DEVICE_QUEUE_FULL the work-item got (a 0 is a child lost silently); `want_ran` children
 * ran. */
static void
each_check(cl_program p, cl_uint size, int n, int want_ran)
{
   cl_queue_properties props[] = { CL_QUEUE_PROPERTIES,
                                   CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_ON_DEVICE |
                                      CL_QUEUE_ON_DEVICE_DEFAULT,
                                   size ? CL_QUEUE_SIZE : 0, size, 0 };
   cl_int err;
   cl_command_queue dq = clCreateCommandQueueWithProperties(ctx, device, props, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_kernel k = kernel(p, "each");
   cl_mem out = buffer((size_t)n * sizeof(int));
   clSetKernelArg(k, 0, sizeof(out), &out);
   run(k, (size_t)n);
   int *h = malloc((size_t)n * sizeof(int));
   read_ints(out, h, (size_t)n);
   int ran = 0, full = 0, lost = 0, first_lost = -1;
   for (int i = 0; i < n; i++) {
      ran += h[i] == i + 1;
      full += h[i] == -161; /* CLK_DEVICE_QUEUE_FULL */
      if (h[i] != i + 1 && h[i] != -161 && first_lost < 0)
         first_lost = i;
   }
   lost = n - ran - full;
   CHECK_EQ_INT(lost, 0);
   CHECK_EQ_INT(ran, want_ran);
   if (lost || ran != want_ran)
      fprintf(stderr, "each %d on %u bytes: %d ran, %d full, first lost %d (%d)\n", n, size,
              ran, full, first_lost, first_lost < 0 ? 0 : h[first_lost]);
   free(h);
   clReleaseMemObject(out);
   clReleaseKernel(k);
   if (dq)
      clReleaseCommandQueue(dq);
}

/* A default queue of the preferred size holds a child for each of 16384 work-items, the
 * CTS's default element count (its command-buffer device_enqueue sub-test ignores what
 * enqueue_kernel returns). Past a queue's capacity, every work-item's enqueue either runs
 * or returns CLK_DEVICE_QUEUE_FULL, however many work-items claim records at once. */
static void
test_capacity(cl_program p)
{
   each_check(p, 0, 16384, 16384);
   each_check(p, 64 * 1024, 1000, 64);
}

static cl_command_queue
device_queue(cl_uint size, bool dflt, cl_int *err)
{
   cl_queue_properties props[] = {
      CL_QUEUE_PROPERTIES,
      CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_ON_DEVICE |
         (dflt ? CL_QUEUE_ON_DEVICE_DEFAULT : 0),
      CL_QUEUE_SIZE, size, 0
   };
   return clCreateCommandQueueWithProperties(ctx, device, props, err);
}

/* The 1.2 profile: no device queues, no device-enqueue queries, no OpenCL C 2.0. */
static void
test_off(void)
{
   cl_int err;
   cl_command_queue dq = device_queue(65536, true, &err);
   CHECK(dq == NULL);
   CHECK_EQ_INT(err, CL_INVALID_QUEUE_PROPERTIES);
   CHECK_EQ_INT(clSetDefaultDeviceCommandQueue(ctx, device, q), CL_INVALID_OPERATION);
   cl_device_device_enqueue_capabilities caps = 1;
   CHECK_EQ_INT(clGetDeviceInfo(device, CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, sizeof(caps),
                                &caps, NULL), CL_SUCCESS);
   CHECK_EQ_INT(caps, 0);
   cl_uint n = 1;
   clGetDeviceInfo(device, CL_DEVICE_MAX_ON_DEVICE_QUEUES, sizeof(n), &n, NULL);
   CHECK_EQ_INT(n, 0);
   const char *src = "kernel void k(global int *o) {\n"
                     "#ifdef __opencl_c_device_enqueue\n o[0] = 1;\n#endif\n}\n";
   cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
   CHECK_EQ_INT(clBuildProgram(p, 1, &device, "", NULL, NULL), CL_SUCCESS);
   cl_kernel k = kernel(p, "k");
   cl_mem out = buffer(sizeof(int));
   clSetKernelArg(k, 0, sizeof(out), &out);
   run(k, 1);
   int h = -1;
   read_ints(out, &h, 1);
   CHECK_EQ_INT(h, 0);
   clReleaseMemObject(out);
   clReleaseKernel(k);
   clReleaseProgram(p);
   p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
   CHECK_EQ_INT(clBuildProgram(p, 1, &device, "-cl-std=CL2.0", NULL, NULL),
                CL_BUILD_PROGRAM_FAILURE);
   clReleaseProgram(p);
}

/* What the device reports in the 3.x profiles and (`v20`) in the 2.0 profile, where the
 * queries OpenCL 3.0 added are refused. */
static void
test_queries(bool v20)
{
   cl_device_device_enqueue_capabilities caps = 0;
   if (v20) {
      static const cl_device_info added_30[] = { CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES,
                                                 CL_DEVICE_OPENCL_C_ALL_VERSIONS,
                                                 CL_DEVICE_OPENCL_C_FEATURES };
      for (size_t i = 0; i < sizeof(added_30) / sizeof(added_30[0]); i++) {
         size_t sz = 0;
         CHECK_EQ_INT(clGetDeviceInfo(device, added_30[i], 0, NULL, &sz), CL_INVALID_VALUE);
      }
   } else {
      clGetDeviceInfo(device, CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, sizeof(caps), &caps, NULL);
      CHECK_EQ_INT(caps, CL_DEVICE_QUEUE_SUPPORTED | CL_DEVICE_QUEUE_REPLACEABLE_DEFAULT);
   }
   cl_uint u = 0;
   clGetDeviceInfo(device, CL_DEVICE_MAX_ON_DEVICE_QUEUES, sizeof(u), &u, NULL);
   CHECK_EQ_INT(u, 1);
   clGetDeviceInfo(device, CL_DEVICE_MAX_ON_DEVICE_EVENTS, sizeof(u), &u, NULL);
   CHECK_EQ_INT(u, 1024);
   clGetDeviceInfo(device, CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE, sizeof(u), &u, NULL);
   CHECK_EQ_INT(u, 16 * 1024 * 1024);
   clGetDeviceInfo(device, CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE, sizeof(u), &u, NULL);
   CHECK_EQ_INT(u, 64 * 1024 * 1024);
   cl_command_queue_properties props = 0;
   clGetDeviceInfo(device, CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES, sizeof(props), &props, NULL);
   CHECK_EQ_INT(props, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE);
   char ver[64] = "";
   clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_VERSION, sizeof(ver), ver, NULL);
   CHECK_STR(ver, "OpenCL C 2.0 ");
   if (v20)
      return;
   cl_name_version nv[16];
   size_t size = 0;
   clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_ALL_VERSIONS, sizeof(nv), nv, &size);
   bool listed20 = false;
   for (size_t i = 0; i < size / sizeof(nv[0]); i++)
      listed20 |= nv[i].version == CL_MAKE_VERSION(2, 0, 0);
   CHECK(listed20);
   cl_name_version feats[64];
   size = 0;
   clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES, sizeof(feats), feats, &size);
   bool de = false;
   for (size_t i = 0; i < size / sizeof(feats[0]); i++)
      de |= !strcmp(feats[i].name, "__opencl_c_device_enqueue");
   CHECK(de);
}

int
main(int argc, char **argv)
{
   test_watchdog("api_devenq", 280);
   cl_platform_id platform;
   cl_int err;
   clGetPlatformIDs(1, &platform, NULL);
   if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &device, NULL) != CL_SUCCESS) {
      fprintf(stderr, "no hsacl device\n");
      return 1;
   }
   ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   q = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   if (argc > 1 && !strcmp(argv[1], "off")) {
      test_off();
   } else {
      /* API edges of device queues */
      cl_queue_properties in_order[] = { CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE, 0 };
      CHECK(clCreateCommandQueueWithProperties(ctx, device, in_order, &err) == NULL);
      CHECK_EQ_INT(err, CL_INVALID_VALUE);
      cl_command_queue dq = device_queue(262144, true, &err);
      CHECK_EQ_INT(err, CL_SUCCESS);
      cl_uint size = 0;
      CHECK_EQ_INT(clGetCommandQueueInfo(dq, CL_QUEUE_SIZE, sizeof(size), &size, NULL),
                   CL_SUCCESS);
      CHECK_EQ_INT(size, 262144);
      /* "2.0": the 2.0 profile (HSACL_OPENCL_VERSION=2.0), where OpenCL C 2.0 is the
       * highest version. */
      bool v20 = profile20 = argc > 1 && !strcmp(argv[1], "2.0");
      test_queries(v20);
      cl_program p = build(v20 ? "-cl-std=CL2.0" : "-cl-std=CL3.0");
      test_basic(p);
      test_chained(p);
      test_flags(p);
      test_ranges(p);
      test_events(p);
      test_user_events(p);
      test_locals(p);
      test_nested(p);
      test_completion(p);
      test_errors(p);
      test_profiling(p);
      test_printf_and_queue_arg(p, dq);
      test_queue_api(dq);
      CHECK_EQ_INT(clReleaseCommandQueue(dq), CL_SUCCESS);
      /* a small default queue: 4 records */
      cl_command_queue small = device_queue(4096, true, &err);
      CHECK_EQ_INT(err, CL_SUCCESS);
      test_full(p, small);
      clReleaseCommandQueue(small);
      test_capacity(p);
      test_set_default(p);
      clReleaseProgram(p);
      /* OpenCL C 2.0 */
      cl_command_queue dq2 = device_queue(8 * 1024 * 1024, true, &err);
      CHECK_EQ_INT(err, CL_SUCCESS);
      p = build("-cl-std=CL2.0");
      test_wide(p);
      test_basic(p);
      test_events(p);
      test_locals(p);
      test_nested(p);
      clReleaseProgram(p);
      clReleaseCommandQueue(dq2);
   }
   clReleaseCommandQueue(q);
   clReleaseContext(ctx);
   return test_main_end();
}
