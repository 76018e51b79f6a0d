/*
 * tests/dispatch/api_launch_args_test.c — what a launch's argument capture shares
 * (dispatch/disp_args.c: launches of a kernel share one capture of its arguments until one
 * changes): an enqueued launch keeps the arguments it was enqueued with when they change
 * before it runs, and a launch after the change sees the new ones; a buffer and a kernel the
 * application releases after the enqueue stay alive until the launch completes, and the
 * buffer goes then (its destructor callback runs), though the kernel's later launches could
 * have shared the capture holding it; threads enqueueing one kernel while another sets its
 * arguments each launch with values that were set.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <unistd.h>

#include "hsacl_cl_test.h"

static cl_context ctx;
static cl_device_id device;
static cl_command_queue q;

static const char *source =
   "kernel void put(global int *out, int slot, int v) { out[slot] = v; }\n"
   "kernel void copy(global int *dst, global const int *src) { dst[0] = src[0]; }\n";

static void
set_put(cl_kernel k, cl_mem out, int slot, int v)
{
   CHECK_EQ_INT(clSetKernelArg(k, 0, sizeof(out), &out), CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArg(k, 1, sizeof(slot), &slot), CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArg(k, 2, sizeof(v), &v), CL_SUCCESS);
}

/* Launches held on a user event while their kernel's arguments change between them: each
 * runs with what was set at its enqueue; two launches with nothing set between them share. */
static void
test_set_after_enqueue(cl_program p)
{
   cl_int err;
   cl_kernel k = clCreateKernel(p, "put", &err);
   static const int zero[4];
   cl_mem a = test_cl_buffer(ctx, sizeof(zero), zero);
   cl_mem b = test_cl_buffer(ctx, sizeof(zero), zero);
   cl_event gate = clCreateUserEvent(ctx, &err);
   const size_t one = 1;
   set_put(k, a, 0, 1);
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, NULL, 1, &gate, NULL), CL_SUCCESS);
   set_put(k, a, 1, 2);
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, NULL, 0, NULL, NULL), CL_SUCCESS);
   int v = 3;
   CHECK_EQ_INT(clSetKernelArg(k, 2, sizeof(v), &v), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, NULL, 0, NULL, NULL), CL_SUCCESS);
   set_put(k, b, 2, 4);
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, NULL, 0, NULL, NULL), CL_SUCCESS);
   int slot = 3;
   CHECK_EQ_INT(clSetKernelArg(k, 1, sizeof(slot), &slot), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, NULL, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, NULL, 0, NULL, NULL), CL_SUCCESS);
   set_put(k, a, 3, 5); /* after the last enqueue: changes none of them */
   CHECK_EQ_INT(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
   int got_a[4] = { -1, -1, -1, -1 }, got_b[4] = { -1, -1, -1, -1 };
   clEnqueueReadBuffer(q, a, CL_TRUE, 0, sizeof(got_a), got_a, 0, NULL, NULL);
   clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof(got_b), got_b, 0, NULL, NULL);
   CHECK_EQ_INT(got_a[0], 1);
   CHECK_EQ_INT(got_a[1], 3);
   CHECK_EQ_INT(got_a[2], 0);
   CHECK_EQ_INT(got_a[3], 0);
   CHECK_EQ_INT(got_b[0], 0);
   CHECK_EQ_INT(got_b[1], 0);
   CHECK_EQ_INT(got_b[2], 4);
   CHECK_EQ_INT(got_b[3], 4);
   clReleaseEvent(gate);
   clReleaseKernel(k);
   clReleaseMemObject(a);
   clReleaseMemObject(b);
}

static atomic_int destroyed;

static void CL_CALLBACK
on_destroy(cl_mem m, void *user)
{
   (void)m;
   (void)user;
   atomic_fetch_add(&destroyed, 1);
}

/* The source buffer and the kernel are released right after the enqueue of a launch held on
 * a user event: the launch still reads the buffer, which goes once it completed. */
static void
test_release_after_enqueue(cl_program p)
{
   cl_int err;
   cl_kernel k = clCreateKernel(p, "copy", &err);
   const int seven = 7, zero = 0;
   cl_mem src = test_cl_buffer(ctx, sizeof(int), &seven);
   cl_mem dst = test_cl_buffer(ctx, sizeof(int), &zero);
   CHECK_EQ_INT(clSetMemObjectDestructorCallback(src, on_destroy, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArg(k, 0, sizeof(dst), &dst), CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArg(k, 1, sizeof(src), &src), CL_SUCCESS);
   cl_event gate = clCreateUserEvent(ctx, &err);
   const size_t one = 1;
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, NULL, 1, &gate, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clReleaseMemObject(src), CL_SUCCESS);
   CHECK_EQ_INT(clReleaseKernel(k), CL_SUCCESS);
   usleep(10000);
   CHECK_EQ_INT(atomic_load(&destroyed), 0);
   CHECK_EQ_INT(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
   CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
   int got = -1;
   clEnqueueReadBuffer(q, dst, CL_TRUE, 0, sizeof(got), &got, 0, NULL, NULL);
   CHECK_EQ_INT(got, 7);
   for (int i = 0; i < 1000 && !atomic_load(&destroyed); i++)
      usleep(1000);
   CHECK_EQ_INT(atomic_load(&destroyed), 1);
   clReleaseEvent(gate);
   clReleaseMemObject(dst);
}

/* Two threads enqueue one kernel while a third sets its value and buffer arguments: every
 * launch runs with a value that was set (seen[v] = 1 for 1 <= v <= SETS, in either buffer). */
enum { SETS = 300, LAUNCHES = 300, SLOTS = SETS + 1 };
static cl_kernel shared_kernel;
static cl_mem seen[2];
static atomic_int enqueue_errors;

static void *
enqueue_thread(void *arg)
{
   (void)arg;
   const size_t one = 1;
   for (int i = 0; i < LAUNCHES; i++)
      if (clEnqueueNDRangeKernel(q, shared_kernel, 1, NULL, &one, NULL, 0, NULL, NULL) !=
          CL_SUCCESS)
         atomic_fetch_add(&enqueue_errors, 1);
   return NULL;
}

static void *
set_thread(void *arg)
{
   (void)arg;
   for (int v = 1; v <= SETS; v++) {
      if (clSetKernelArg(shared_kernel, 0, sizeof(cl_mem), &seen[v & 1]) != CL_SUCCESS ||
          clSetKernelArg(shared_kernel, 1, sizeof(int), &v) != CL_SUCCESS)
         atomic_fetch_add(&enqueue_errors, 1);
   }
   return NULL;
}

static void
test_threads(cl_program p)
{
   cl_int err;
   shared_kernel = clCreateKernel(p, "put", &err);
   static int zero[SLOTS];
   seen[0] = test_cl_buffer(ctx, sizeof(zero), zero);
   seen[1] = test_cl_buffer(ctx, sizeof(zero), zero);
   int v = 1;
   set_put(shared_kernel, seen[1], v, 1);
   /* One launch before the threads: seen[1][1] is marked however they are scheduled. */
   const size_t one = 1;
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, shared_kernel, 1, NULL, &one, NULL, 0, NULL, NULL),
                CL_SUCCESS);
   pthread_t t[3];
   pthread_create(&t[0], NULL, enqueue_thread, NULL);
   pthread_create(&t[1], NULL, enqueue_thread, NULL);
   pthread_create(&t[2], NULL, set_thread, NULL);
   for (int i = 0; i < 3; i++)
      pthread_join(t[i], NULL);
   CHECK_EQ_INT(atomic_load(&enqueue_errors), 0);
   /* After the setter: the last values. */
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, shared_kernel, 1, NULL, &one, NULL, 0, NULL, NULL),
                CL_SUCCESS);
   static int got[2][SLOTS];
   for (int b = 0; b < 2; b++)
      clEnqueueReadBuffer(q, seen[b], CL_TRUE, 0, sizeof(got[b]), got[b], 0, NULL, NULL);
   int bad = 0;
   for (int b = 0; b < 2; b++) {
      bad += got[b][0] != 0;
      for (int s = 1; s < SLOTS; s++) {
         /* A slot holds 0, or 1 from launches whose value and buffer were set together
          * (odd values go to seen[1]); a mark in the other buffer is a launch with a value
          * and buffer from different sets, which the setter makes for moments too. */
         bad += got[b][s] != 0 && got[b][s] != 1;
      }
   }
   CHECK_EQ_INT(bad, 0);
   /* How the threads' launches interleave with the sets is the scheduler's: only the launch
    * before them and the one after the setter have marks the test can name. */
   CHECK_EQ_INT(got[1][1], 1);
   CHECK_EQ_INT(got[SETS & 1][SETS], 1);
   clReleaseKernel(shared_kernel);
   clReleaseMemObject(seen[0]);
   clReleaseMemObject(seen[1]);
}

int
main(void)
{
   if (!test_cl_open(&device, &ctx, &q))
      return 1;
   cl_program p = test_cl_build(ctx, device, source, NULL, 0, NULL);
   if (!p)
      return test_main_end();
   test_set_after_enqueue(p);
   test_release_after_enqueue(p);
   test_threads(p);
   clReleaseProgram(p);
   clReleaseCommandQueue(q);
   clReleaseContext(ctx);
   return test_main_end();
}
