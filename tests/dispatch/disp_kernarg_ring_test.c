/*
 * tests/dispatch/disp_kernarg_ring_test.c — kernarg segments beyond the queue's kernarg ring
 * (dispatch/disp_kernarg.c: 4096 entries, 256 KiB, replaced by a larger ring when full; a
 * launch takes its segment when it is submitted): more launches in flight than the ring
 * holds, held behind a user event (the enqueues must not block; the event's release submits
 * them all at once) or streamed, on in-order and out-of-order queues, with segments small
 * (the ring's entries run out) and large (its bytes run out). Every launch must run with the
 * arguments it was enqueued with. Through the ICD loader, like tests/.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <signal.h>
#include <stdbool.h>
#include <unistd.h>

#include "hsacl_test.h"

#define HELD 6000   /* > 4096 ring entries */
#define STREAM 12000
#define BIG_HELD 4000 /* segments of > 1 KiB: more bytes than the rings the first tests grew */
#define BIG_WORDS 256

static cl_context ctx;
static cl_device_id device;
static cl_kernel small_k, big_k;
static cl_mem out;

static const char *src =
   "kernel void small_k(global int *o, int i, int v) { o[i] = v; }\n"
   "typedef struct { int w[256]; } big_t;\n"
   "kernel void big_k(global int *o, int i, big_t b) { o[i] = b.w[i % 256] + b.w[255 - i % 256]; }\n";

static int
small_value(int i, int round)
{
   return i * 7 + round * 100003 + 1;
}

static void
clear_out(cl_command_queue q, int n)
{
   int zero = 0;
   CHECK_EQ_INT(clEnqueueFillBuffer(q, out, &zero, sizeof(zero), 0, (size_t)n * 4, 0, NULL,
                                    NULL), CL_SUCCESS);
   CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
}

static void
check_out(cl_command_queue q, int n, int (*want)(int i, int round), int round, const char *what)
{
   int *h = calloc((size_t)n, sizeof(int));
   CHECK_EQ_INT(clEnqueueReadBuffer(q, out, CL_TRUE, 0, (size_t)n * 4, h, 0, NULL, NULL),
                CL_SUCCESS);
   int bad = 0, first = -1;
   for (int i = 0; i < n; i++) {
      if (h[i] != want(i, round)) {
         if (first < 0)
            first = i;
         bad++;
      }
   }
   if (bad)
      fprintf(stderr, "%s: %d of %d launches saw wrong arguments (first: %d: %d, want %d)\n",
              what, bad, n, first, h[first], want(first, round));
   CHECK_EQ_INT(bad, 0);
   free(h);
}

static cl_int
launch_small(cl_command_queue q, int i, int round, cl_uint nwait, const cl_event *wait)
{
   int v = small_value(i, round);
   clSetKernelArg(small_k, 1, sizeof(i), &i);
   clSetKernelArg(small_k, 2, sizeof(v), &v);
   size_t one = 1;
   return clEnqueueNDRangeKernel(q, small_k, 1, NULL, &one, &one, nwait, wait, NULL);
}

/* HELD launches behind a user event, submitted all at once when it is set: more kernarg
 * segments live than the ring has entries while the completion path catches up. */
static void
test_held(cl_command_queue q, bool in_order)
{
   cl_int err;
   clear_out(q, HELD);
   cl_event gate = clCreateUserEvent(ctx, &err);
   for (int i = 0; i < HELD; i++) {
      /* In order, the first one holds the rest; out of order, each waits itself. */
      bool wait = !in_order || i == 0;
      CHECK_EQ_INT(launch_small(q, i, 1, wait ? 1 : 0, wait ? &gate : NULL), CL_SUCCESS);
   }
   CHECK_EQ_INT(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
   CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
   check_out(q, HELD, small_value, 1, "held");
   clReleaseEvent(gate);
}

/* STREAM launches back to back: the device falls behind, segments stay in flight. */
static void
test_stream(cl_command_queue q)
{
   clear_out(q, STREAM);
   for (int i = 0; i < STREAM; i++)
      CHECK_EQ_INT(launch_small(q, i, 2, 0, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
   check_out(q, STREAM, small_value, 2, "stream");
}

static int
big_word(int launch, int word)
{
   return (launch * 31 + word * 17) & 0xffff;
}

static int
big_value(int i, int round)
{
   (void)round;
   return big_word(i, i % BIG_WORDS) + big_word(i, BIG_WORDS - 1 - i % BIG_WORDS);
}

/* Segments over 1 KiB held behind a user event: the ring's bytes run out first. */
static void
test_big_held(cl_command_queue q, bool in_order)
{
   cl_int err;
   clear_out(q, BIG_HELD);
   cl_event gate = clCreateUserEvent(ctx, &err);
   int b[BIG_WORDS];
   size_t one = 1;
   for (int i = 0; i < BIG_HELD; i++) {
      for (int w = 0; w < BIG_WORDS; w++)
         b[w] = big_word(i, w);
      clSetKernelArg(big_k, 1, sizeof(i), &i);
      clSetKernelArg(big_k, 2, sizeof(b), b);
      bool wait = !in_order || i == 0;
      CHECK_EQ_INT(clEnqueueNDRangeKernel(q, big_k, 1, NULL, &one, &one, wait ? 1 : 0,
                                          wait ? &gate : NULL, NULL), CL_SUCCESS);
   }
   CHECK_EQ_INT(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
   CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
   check_out(q, BIG_HELD, big_value, 0, "big held");
   clReleaseEvent(gate);
}

int
main(void)
{
   cl_platform_id platform;
   cl_int err;
   test_watchdog("disp_kernarg_ring", 240);
   clGetPlatformIDs(1, &platform, NULL);
   if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &device, NULL) != CL_SUCCESS) {
      fprintf(stderr, "no hsacl device\n");
      return 1;
   }
   ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
   cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
   CHECK_EQ_INT(clBuildProgram(prog, 1, &device, "", NULL, NULL), CL_SUCCESS);
   small_k = clCreateKernel(prog, "small_k", &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   big_k = clCreateKernel(prog, "big_k", &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, (size_t)STREAM * 4, NULL, &err);
   clSetKernelArg(small_k, 0, sizeof(out), &out);
   clSetKernelArg(big_k, 0, sizeof(out), &out);

   const cl_queue_properties ooo[] = { CL_QUEUE_PROPERTIES,
                                       CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0 };
   for (int mode = 0; mode < 2; mode++) {
      cl_command_queue q =
         clCreateCommandQueueWithProperties(ctx, device, mode ? ooo : NULL, &err);
      CHECK_EQ_INT(err, CL_SUCCESS);
      fprintf(stderr, "%s queue\n", mode ? "out-of-order" : "in-order");
      test_held(q, mode == 0);
      test_stream(q);
      test_big_held(q, mode == 0);
      /* Again, on the grown ring (and the drained old one freed). */
      test_held(q, mode == 0);
      CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
      clReleaseCommandQueue(q);
   }
   clReleaseMemObject(out);
   clReleaseKernel(small_k);
   clReleaseKernel(big_k);
   clReleaseProgram(prog);
   clReleaseContext(ctx);
   return test_main_end();
}
