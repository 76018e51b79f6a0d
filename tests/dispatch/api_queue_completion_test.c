/*
 * tests/dispatch/api_queue_completion_test.c — what clFinish, clWaitForEvents and blocking commands
 * promise about event status (OpenCL 3.0 API §5.11, §5.15: once they return, the events
 * they cover read CL_COMPLETE), callbacks running once per status, and queues that must not
 * deadlock: wait lists of hundreds of events (many barrier-AND packets whose dependencies
 * are host-completed markers), chains longer than the AQL ring, and more commands than the
 * ring holds released at once by a user event; on in-order and out-of-order queues.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <signal.h>
#include <stdatomic.h>
#include <unistd.h>

#include "hsacl_test.h"

/* Above the AQL ring's packets (DISP_AQL_QUEUE_PACKETS, dispatch/disp_queue.c). */
#define MORE_THAN_RING 5000
#define LOOPS 600
#define WIDE 300 /* wait-list length: 60 barrier-AND packets */

static cl_context ctx;
static cl_device_id device;
static cl_kernel kernel;
static cl_mem buf;

static cl_int
status_of(cl_event ev)
{
   cl_int s = 1234;
   clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(s), &s, NULL);
   return s;
}

static atomic_int cb_calls[3]; /* CL_COMPLETE, CL_RUNNING, CL_SUBMITTED */

static void CL_CALLBACK
status_cb(cl_event ev, cl_int status, void *user)
{
   (void)ev;
   cl_int want = (cl_int)(intptr_t)user;
   if (status == want && status >= CL_COMPLETE && status <= CL_SUBMITTED)
      atomic_fetch_add(&cb_calls[status], 1);
}

static cl_int
launch(cl_command_queue q, cl_uint n, const cl_event *wait, cl_event *ev, int i)
{
   size_t g = 64 + (size_t)(i % 7) * 64, l = 64;
   return clEnqueueNDRangeKernel(q, kernel, 1, NULL, &g, &l, n, wait, ev);
}

enum wait_kind { WAIT_FINISH, WAIT_EVENTS, WAIT_BLOCKING_READ };

/* After each way of waiting, the command's event reads CL_COMPLETE at once. */
static void
test_complete_after_wait(cl_command_queue q, enum wait_kind how)
{
   int bad = 0, first_bad = -1;
   cl_int bad_status = 0;
   for (int i = 0; i < LOOPS; i++) {
      cl_event ev = NULL;
      cl_int err = launch(q, 0, NULL, &ev, i);
      CHECK_EQ_INT(err, CL_SUCCESS);
      if (err != CL_SUCCESS)
         return;
      if (how == WAIT_FINISH) {
         err = clFinish(q);
      } else if (how == WAIT_EVENTS) {
         err = clWaitForEvents(1, &ev);
      } else {
         /* A blocking read: its own event and (in order, or waited for) the kernel's. */
         cl_int word = 0;
         cl_event rd = NULL;
         err = clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof(word), &word, 1, &ev, &rd);
         if (status_of(rd) != CL_COMPLETE && bad++ == 0) {
            first_bad = i;
            bad_status = status_of(rd);
         }
         clReleaseEvent(rd);
      }
      CHECK_EQ_INT(err, CL_SUCCESS);
      cl_int st = status_of(ev);
      if (st != CL_COMPLETE && bad++ == 0) {
         first_bad = i;
         bad_status = st;
      }
      clReleaseEvent(ev);
   }
   if (bad)
      fprintf(stderr, "wait kind %d: %d events not CL_COMPLETE after the wait (first: "
              "iteration %d, status %d)\n", (int)how, bad, first_bad, bad_status);
   CHECK_EQ_INT(bad, 0);
}

/* Callbacks of every status run once each, whichever thread completes the command. */
static void
test_callbacks_once(cl_command_queue q)
{
   for (int s = 0; s < 3; s++)
      atomic_store(&cb_calls[s], 0);
   enum { N = 200 };
   for (int i = 0; i < N; i++) {
      cl_event ev = NULL;
      CHECK_EQ_INT(launch(q, 0, NULL, &ev, i), CL_SUCCESS);
      for (cl_int s = CL_COMPLETE; s <= CL_SUBMITTED; s++)
         clSetEventCallback(ev, s, status_cb, (void *)(intptr_t)s);
      if (i % 2)
         clFinish(q);
      else
         clWaitForEvents(1, &ev);
      clReleaseEvent(ev);
   }
   clFinish(q);
   for (int t = 0; t < 2000 && atomic_load(&cb_calls[CL_COMPLETE]) < N; t++)
      usleep(1000);
   usleep(10000);
   for (int s = 0; s < 3; s++)
      CHECK_EQ_INT(atomic_load(&cb_calls[s]), N);
}

/*
 * Markers and a kernel waiting for WIDE events each, the events being markers (completed by
 * the host, so the barrier-AND packets wait for the completion path), repeated until the
 * packets outnumber the AQL ring's slots.
 */
static void
test_wide_wait_lists(cl_command_queue q)
{
   cl_event deps[WIDE];
   for (int i = 0; i < WIDE; i++) {
      deps[i] = NULL;
      CHECK_EQ_INT(clEnqueueMarkerWithWaitList(q, 0, NULL, &deps[i]), CL_SUCCESS);
   }
   /* 100 rounds of 2 commands * 60 packets: 12000 packets through a 4096-packet ring. */
   for (int round = 0; round < 100; round++) {
      cl_event m = NULL, k = NULL;
      CHECK_EQ_INT(clEnqueueMarkerWithWaitList(q, WIDE, deps, &m), CL_SUCCESS);
      CHECK_EQ_INT(launch(q, WIDE, deps, &k, round), CL_SUCCESS);
      /* Replace a few dependencies by these, so later lists wait for fresh work. */
      clReleaseEvent(deps[round % WIDE]);
      deps[round % WIDE] = m;
      clReleaseEvent(deps[(round + 150) % WIDE]);
      deps[(round + 150) % WIDE] = k;
   }
   CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
   int done = 0;
   for (int i = 0; i < WIDE; i++) {
      done += status_of(deps[i]) == CL_COMPLETE;
      clReleaseEvent(deps[i]);
   }
   CHECK_EQ_INT(done, WIDE);
}

/* A chain longer than the ring: each command waits for the previous one's event. */
static void
test_long_chain(cl_command_queue q)
{
   cl_event prev = NULL;
   for (int i = 0; i < MORE_THAN_RING; i++) {
      cl_event ev = NULL;
      cl_int err = i % 3 == 2 ? clEnqueueMarkerWithWaitList(q, prev ? 1 : 0, prev ? &prev : NULL,
                                                            &ev)
                              : launch(q, prev ? 1 : 0, prev ? &prev : NULL, &ev, i);
      if (err != CL_SUCCESS) {
         CHECK_EQ_INT(err, CL_SUCCESS);
         break;
      }
      if (prev)
         clReleaseEvent(prev);
      prev = ev;
   }
   CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
   CHECK_EQ_INT(status_of(prev), CL_COMPLETE);
   clReleaseEvent(prev);
}

/*
 * Commands held on the host behind a user event are not written to the ring, so more of
 * them than the ring holds wait without filling it; setting the event releases them all.
 */
static void
test_user_event_holds_many(cl_command_queue q)
{
   cl_int err;
   cl_event user = clCreateUserEvent(ctx, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_event first = NULL, last = NULL;
   CHECK_EQ_INT(launch(q, 1, &user, &first, 0), CL_SUCCESS);
   for (int i = 1; i < MORE_THAN_RING; i++) {
      cl_event ev = NULL;
      /* In order, everything waits for `first`; out of order, chain on the user event. */
      if (i % 4 == 3)
         err = clEnqueueMarkerWithWaitList(q, 1, &first, &ev);
      else
         err = launch(q, 1, i % 2 ? &first : &user, &ev, i);
      if (err != CL_SUCCESS) {
         CHECK_EQ_INT(err, CL_SUCCESS);
         break;
      }
      if (last)
         clReleaseEvent(last);
      last = ev;
   }
   usleep(20000);
   CHECK(status_of(first) > CL_COMPLETE);
   CHECK(status_of(last) > CL_COMPLETE);
   /* Work on an unrelated queue is not held up by the held commands. */
   cl_command_queue other = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
   cl_event ev = NULL;
   CHECK_EQ_INT(launch(other, 0, NULL, &ev, 0), CL_SUCCESS);
   CHECK_EQ_INT(clWaitForEvents(1, &ev), CL_SUCCESS);
   clReleaseEvent(ev);
   clReleaseCommandQueue(other);

   CHECK_EQ_INT(clSetUserEventStatus(user, CL_COMPLETE), CL_SUCCESS);
   CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
   CHECK_EQ_INT(status_of(first), CL_COMPLETE);
   CHECK_EQ_INT(status_of(last), CL_COMPLETE);
   clReleaseEvent(first);
   clReleaseEvent(last);
   clReleaseEvent(user);
}

int
main(void)
{
   cl_platform_id platform;
   cl_int err;
   test_watchdog("api_queue_completion", 240);
   clGetPlatformIDs(1, &platform, NULL);
   if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &device, NULL) != CL_SUCCESS) {
      fprintf(stderr, "no hsacl device\n");
      return 1;
   }
   ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
   const char *src = "kernel void k(global int *p) { atomic_inc(&p[get_global_id(0) & 7]); }";
   cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
   CHECK_EQ_INT(clBuildProgram(prog, 1, &device, "", NULL, NULL), CL_SUCCESS);
   kernel = clCreateKernel(prog, "k", &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4096, NULL, &err);
   CHECK_EQ_INT(clSetKernelArg(kernel, 0, sizeof(buf), &buf), CL_SUCCESS);

   const cl_queue_properties ooo[] = { CL_QUEUE_PROPERTIES,
                                       CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0 };
   for (int mode = 0; mode < 2; mode++) {
      cl_command_queue q =
         clCreateCommandQueueWithProperties(ctx, device, mode ? ooo : NULL, &err);
      CHECK_EQ_INT(err, CL_SUCCESS);
      fprintf(stderr, "%s queue\n", mode ? "out-of-order" : "in-order");
      test_complete_after_wait(q, WAIT_FINISH);
      test_complete_after_wait(q, WAIT_EVENTS);
      test_complete_after_wait(q, WAIT_BLOCKING_READ);
      test_callbacks_once(q);
      fprintf(stderr, "  wide wait lists\n");
      test_wide_wait_lists(q);
      fprintf(stderr, "  long chain\n");
      test_long_chain(q);
      fprintf(stderr, "  user event holding more than the ring\n");
      test_user_event_holds_many(q);
      CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
      clReleaseCommandQueue(q);
   }
   clReleaseMemObject(buf);
   clReleaseKernel(kernel);
   clReleaseProgram(prog);
   clReleaseContext(ctx);
   return test_main_end();
}
