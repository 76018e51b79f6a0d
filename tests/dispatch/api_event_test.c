/*
 * tests/dispatch/api_event_test.c — events, user events, callbacks, markers and barriers, wait
 * lists across queues, clWaitForEvents/clFinish and error propagation (OpenCL 3.0 API
 * §5.11–§5.13), through the system ICD loader on the software GPU.
 */
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#include <CL/cl.h>

#include <pthread.h>
#include <stdint.h>
#include <stdatomic.h>
#include <unistd.h>

#include "hsacl_test.h"

static cl_context ctx;
static cl_device_id device;

static cl_int
status_of(cl_event ev)
{
   cl_int s = 1234;
   clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(s), &s, NULL);
   return s;
}

static atomic_int cb_count;
static cl_int cb_last_status;

static void CL_CALLBACK
count_cb(cl_event ev, cl_int status, void *user)
{
   atomic_fetch_add(&cb_count, 1);
   cb_last_status = status;
   *(cl_int *)user = status;
}

static void
test_user_event_gates_marker(cl_command_queue q)
{
   cl_int err;
   cl_event user = clCreateUserEvent(ctx, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   CHECK_EQ_INT(status_of(user), CL_SUBMITTED);
   cl_command_type type = 0;
   clGetEventInfo(user, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, NULL);
   CHECK_EQ_INT(type, CL_COMMAND_USER);
   cl_command_queue uq = (cl_command_queue)1;
   clGetEventInfo(user, CL_EVENT_COMMAND_QUEUE, sizeof(uq), &uq, NULL);
   CHECK(uq == NULL);

   cl_event marker = NULL;
   CHECK_EQ_INT(clEnqueueMarkerWithWaitList(q, 1, &user, &marker), CL_SUCCESS);
   cl_int seen = 0;
   CHECK_EQ_INT(clSetEventCallback(marker, CL_COMPLETE, count_cb, &seen), CL_SUCCESS);
   usleep(20000);
   CHECK(status_of(marker) > CL_COMPLETE); /* held back by the user event */
   CHECK_EQ_INT(seen, 0);
   CHECK_EQ_INT(clSetUserEventStatus(user, CL_COMPLETE), CL_SUCCESS);
   CHECK_EQ_INT(clWaitForEvents(1, &marker), CL_SUCCESS);
   CHECK_EQ_INT(status_of(marker), CL_COMPLETE);
   for (int i = 0; i < 200 && !seen; i++)
      usleep(1000);
   CHECK_EQ_INT(seen, CL_COMPLETE);
   CHECK_EQ_INT(clSetUserEventStatus(user, CL_COMPLETE), CL_INVALID_OPERATION);
   CHECK_EQ_INT(clSetUserEventStatus(marker, CL_COMPLETE), CL_INVALID_EVENT);
   /* A callback registered after completion runs at once. */
   cl_int late = 0;
   CHECK_EQ_INT(clSetEventCallback(marker, CL_SUBMITTED, count_cb, &late), CL_SUCCESS);
   CHECK_EQ_INT(late, CL_SUBMITTED);
   clReleaseEvent(marker);
   clReleaseEvent(user);
}

static void
test_failure_propagates(cl_command_queue q)
{
   cl_int err;
   cl_event user = clCreateUserEvent(ctx, &err);
   cl_event m1 = NULL, m2 = NULL;
   CHECK_EQ_INT(clEnqueueMarkerWithWaitList(q, 1, &user, &m1), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueMarkerWithWaitList(q, 1, &m1, &m2), CL_SUCCESS);
   cl_int seen = 0;
   clSetEventCallback(m2, CL_COMPLETE, count_cb, &seen);
   CHECK_EQ_INT(clSetUserEventStatus(user, -77), CL_SUCCESS);
   CHECK_EQ_INT(clWaitForEvents(1, &m2), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
   CHECK(status_of(m1) < 0);
   CHECK(status_of(m2) < 0);
   for (int i = 0; i < 200 && !seen; i++)
      usleep(1000);
   CHECK(seen < 0); /* CL_COMPLETE callbacks run with the error status */
   CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
   clReleaseEvent(m1);
   clReleaseEvent(m2);
   clReleaseEvent(user);
}

static void
test_cross_queue(cl_command_queue q1, cl_command_queue q2)
{
   cl_int err;
   cl_event user = clCreateUserEvent(ctx, &err);
   cl_event a = NULL, b = NULL, c = NULL;
   CHECK_EQ_INT(clEnqueueMarkerWithWaitList(q1, 1, &user, &a), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueMarkerWithWaitList(q2, 1, &a, &b), CL_SUCCESS);
   /* In-order: c follows a on q1 even without a wait list. */
   CHECK_EQ_INT(clEnqueueMarkerWithWaitList(q1, 0, NULL, &c), CL_SUCCESS);
   usleep(10000);
   CHECK(status_of(b) > CL_COMPLETE);
   CHECK(status_of(c) > CL_COMPLETE);
   clSetUserEventStatus(user, CL_COMPLETE);
   cl_event both[2] = { b, c };
   CHECK_EQ_INT(clWaitForEvents(2, both), CL_SUCCESS);
   CHECK_EQ_INT(status_of(a), CL_COMPLETE);
   clReleaseEvent(a);
   clReleaseEvent(b);
   clReleaseEvent(c);
   clReleaseEvent(user);
}

static void
test_out_of_order_barrier(void)
{
   cl_int err;
   cl_queue_properties props[] = { CL_QUEUE_PROPERTIES,
                                   CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE |
                                      CL_QUEUE_PROFILING_ENABLE,
                                   0 };
   cl_command_queue q = clCreateCommandQueueWithProperties(ctx, device, props, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_event u1 = clCreateUserEvent(ctx, &err), u2 = clCreateUserEvent(ctx, &err);
   cl_event m1, m2, bar, after;
   clEnqueueMarkerWithWaitList(q, 1, &u1, &m1);
   clEnqueueMarkerWithWaitList(q, 1, &u2, &m2);
   CHECK_EQ_INT(clEnqueueBarrierWithWaitList(q, 0, NULL, &bar), CL_SUCCESS);
   clEnqueueMarkerWithWaitList(q, 0, NULL, &after);
   clSetUserEventStatus(u2, CL_COMPLETE);
   CHECK_EQ_INT(clWaitForEvents(1, &m2), CL_SUCCESS);
   /* Out of order: m2 completed before m1; the barrier waits for both. */
   usleep(10000);
   CHECK(status_of(m1) > CL_COMPLETE);
   CHECK(status_of(bar) > CL_COMPLETE);
   CHECK(status_of(after) > CL_COMPLETE);
   clSetUserEventStatus(u1, CL_COMPLETE);
   CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
   CHECK_EQ_INT(status_of(after), CL_COMPLETE);
   cl_ulong t[5] = { 0 };
   const cl_profiling_info names[5] = { CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                        CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END,
                                        CL_PROFILING_COMMAND_COMPLETE };
   for (int i = 0; i < 5; i++)
      CHECK_EQ_INT(clGetEventProfilingInfo(bar, names[i], sizeof(t[i]), &t[i], NULL),
                   CL_SUCCESS);
   CHECK(t[0] && t[0] <= t[1] && t[1] <= t[2] && t[2] <= t[3] && t[3] <= t[4]);
   CHECK_EQ_INT(clGetEventProfilingInfo(u1, CL_PROFILING_COMMAND_QUEUED, sizeof(t[0]), t, NULL),
                CL_PROFILING_INFO_NOT_AVAILABLE);
   cl_event evs[] = { m1, m2, bar, after, u1, u2 };
   for (int i = 0; i < 6; i++)
      clReleaseEvent(evs[i]);
   clReleaseCommandQueue(q);
}

static void
test_errors(cl_command_queue q)
{
   cl_int err;
   cl_event ev = NULL;
   CHECK_EQ_INT(clEnqueueMarkerWithWaitList(q, 1, NULL, &ev), CL_INVALID_EVENT_WAIT_LIST);
   cl_event bogus = (cl_event)q;
   CHECK_EQ_INT(clEnqueueMarkerWithWaitList(q, 1, &bogus, &ev), CL_INVALID_EVENT_WAIT_LIST);
   CHECK_EQ_INT(clEnqueueMarkerWithWaitList((cl_command_queue)ctx, 0, NULL, &ev),
                CL_INVALID_COMMAND_QUEUE);
   CHECK_EQ_INT(clWaitForEvents(0, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(clWaitForEvents(1, &bogus), CL_INVALID_EVENT);
   CHECK_EQ_INT(clRetainEvent(bogus), CL_INVALID_EVENT);
   cl_context other = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
   cl_event foreign = clCreateUserEvent(other, &err);
   CHECK_EQ_INT(clEnqueueMarkerWithWaitList(q, 1, &foreign, &ev), CL_INVALID_CONTEXT);
   cl_event u = clCreateUserEvent(ctx, &err);
   cl_event two[2] = { u, foreign };
   CHECK_EQ_INT(clWaitForEvents(2, two), CL_INVALID_CONTEXT);
   CHECK_EQ_INT(clSetUserEventStatus(u, 5), CL_INVALID_VALUE);
   CHECK_EQ_INT(clSetEventCallback(u, 77, count_cb, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(clSetEventCallback(u, CL_COMPLETE, NULL, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(clCreateUserEvent((cl_context)q, &err) == NULL, 1);
   CHECK_EQ_INT(err, CL_INVALID_CONTEXT);
   CHECK_EQ_INT(clEnqueueMarker(q, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(clEnqueueWaitForEvents(q, 0, NULL), CL_INVALID_VALUE);
   cl_uint rc = 0;
   clRetainEvent(u);
   clGetEventInfo(u, CL_EVENT_REFERENCE_COUNT, sizeof(rc), &rc, NULL);
   CHECK_EQ_INT(rc, 2);
   clReleaseEvent(u);
   clSetUserEventStatus(u, CL_COMPLETE);
   clReleaseEvent(u);
   clSetUserEventStatus(foreign, CL_COMPLETE);
   clReleaseEvent(foreign);
   clReleaseContext(other);
}

/* Completion of a long chain of held commands runs in a loop, not a frame per command:
 * markers behind one user event, set from a thread with a small stack (an application's
 * callback thread). */
struct set_status_arg {
   cl_event ev;
   cl_int status;
   cl_int ret;
};

static void *
set_status_thread(void *arg)
{
   struct set_status_arg *a = arg;
   a->ret = clSetUserEventStatus(a->ev, a->status);
   return NULL;
}

static void
set_on_small_stack(cl_event ev, cl_int status)
{
#ifdef __SANITIZE_ADDRESS__
   const size_t stack = 256 << 10; /* the sanitizer's frames are larger */
#else
   const size_t stack = 64 << 10;
#endif
   struct set_status_arg a = { ev, status, 1 };
   pthread_attr_t attr;
   pthread_attr_init(&attr);
   CHECK_EQ_INT(pthread_attr_setstacksize(&attr, stack), 0);
   pthread_t t;
   CHECK_EQ_INT(pthread_create(&t, &attr, set_status_thread, &a), 0);
   pthread_join(t, NULL);
   pthread_attr_destroy(&attr);
   CHECK_EQ_INT(a.ret, CL_SUCCESS);
}

static void
test_long_chain(cl_command_queue q, long n, cl_int status)
{
   cl_int err;
   cl_event user = clCreateUserEvent(ctx, &err);
   CHECK_EQ_INT(clEnqueueMarkerWithWaitList(q, 1, &user, NULL), CL_SUCCESS);
   long enqueued = 0;
   for (; enqueued < n; enqueued++)
      if (clEnqueueMarkerWithWaitList(q, 0, NULL, NULL) != CL_SUCCESS)
         break;
   CHECK_EQ_INT((int)(enqueued == n), 1);
   cl_event last = NULL;
   CHECK_EQ_INT(clEnqueueMarkerWithWaitList(q, 0, NULL, &last), CL_SUCCESS);
   CHECK(status_of(last) > CL_COMPLETE);
   set_on_small_stack(user, status);
   CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
   if (status == CL_COMPLETE)
      CHECK_EQ_INT(status_of(last), CL_COMPLETE);
   else
      CHECK(status_of(last) < 0);
   clReleaseEvent(last);
   clReleaseEvent(user);
}

/* A callback that releases held work and waits for it: completion must not leave that
 * work to the frame the callback was called from. */
static cl_command_queue nested_q;

static void CL_CALLBACK
release_and_wait_cb(cl_event ev, cl_int status, void *user)
{
   (void)ev;
   (void)status;
   cl_event *pair = user; /* a user event, a marker held behind it */
   clSetUserEventStatus(pair[0], CL_COMPLETE);
   pair[2] = (cl_event)(intptr_t)clWaitForEvents(1, &pair[1]);
}

static void
test_callback_waits_for_held(cl_command_queue q)
{
   cl_int err;
   cl_event gate = clCreateUserEvent(ctx, &err);
   cl_event inner = clCreateUserEvent(ctx, &err);
   cl_event outer = NULL, pair[3] = { inner, NULL, (cl_event)(intptr_t)1 };
   nested_q = q;
   CHECK_EQ_INT(clEnqueueMarkerWithWaitList(q, 1, &gate, &outer), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueMarkerWithWaitList(q, 1, &inner, &pair[1]), CL_SUCCESS);
   CHECK_EQ_INT(clSetEventCallback(outer, CL_COMPLETE, release_and_wait_cb, pair), CL_SUCCESS);
   CHECK_EQ_INT(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
   CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
   CHECK_EQ_INT((int)(intptr_t)pair[2], CL_SUCCESS);
   CHECK_EQ_INT(status_of(pair[1]), CL_COMPLETE);
   clReleaseEvent(outer);
   clReleaseEvent(pair[1]);
   clReleaseEvent(gate);
   clReleaseEvent(inner);
}

/* Several threads enqueue markers on one queue and on their own queues. */
/* A command complete means its wait list is complete (§5.11: the list completes before it
 * starts), also when the list's event is another queue's, retired by that queue's own
 * completion handler: a marker (in the AQL ring) and a copy (outside it) behind another
 * queue's copy. Many rounds, as the two retirements race. */
static void
test_dependant_after_dependency(cl_command_queue q1, cl_command_queue q2)
{
   enum { SIZE = 1 << 16 };
   cl_int err;
   cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE, SIZE, NULL, &err);
   cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, SIZE, NULL, &err);
   cl_mem c = clCreateBuffer(ctx, CL_MEM_READ_WRITE, SIZE, NULL, &err);
   int early = 0;
   for (int i = 0; i < 1000; i++) {
      cl_event first = NULL, then = NULL;
      CHECK_EQ_INT(clEnqueueCopyBuffer(q1, a, b, 0, 0, SIZE, 0, NULL, &first), CL_SUCCESS);
      if (i % 2)
         err = clEnqueueMarkerWithWaitList(q2, 1, &first, &then);
      else
         err = clEnqueueCopyBuffer(q2, a, c, 0, 0, SIZE, 1, &first, &then);
      CHECK_EQ_INT(err, CL_SUCCESS);
      CHECK_EQ_INT(clWaitForEvents(1, &then), CL_SUCCESS);
      early += status_of(first) != CL_COMPLETE;
      clReleaseEvent(first);
      clReleaseEvent(then);
   }
   CHECK_EQ_INT(early, 0);
   clReleaseMemObject(a);
   clReleaseMemObject(b);
   clReleaseMemObject(c);
}

static cl_command_queue shared_q;

static void *
enqueue_thread(void *arg)
{
   cl_int err;
   cl_command_queue own = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
   for (int i = 0; i < 200; i++) {
      cl_event e1 = NULL, e2 = NULL;
      clEnqueueMarkerWithWaitList(shared_q, 0, NULL, &e1);
      clEnqueueMarkerWithWaitList(own, 1, &e1, &e2);
      clReleaseEvent(e1);
      if (i % 50 == 49)
         clWaitForEvents(1, &e2);
      clReleaseEvent(e2);
   }
   clFinish(own);
   clReleaseCommandQueue(own);
   return NULL;
}

static void
test_threads(void)
{
   cl_int err;
   shared_q = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
   pthread_t t[4];
   for (int i = 0; i < 4; i++)
      pthread_create(&t[i], NULL, enqueue_thread, NULL);
   for (int i = 0; i < 4; i++)
      pthread_join(t[i], NULL);
   CHECK_EQ_INT(clFinish(shared_q), CL_SUCCESS);
   clReleaseCommandQueue(shared_q);
}

int
main(void)
{
   cl_platform_id platform;
   cl_int err;
   clGetPlatformIDs(1, &platform, NULL);
   if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &device, NULL) != CL_SUCCESS) {
      fprintf(stderr, "no hsacl device\n");
      return 1;
   }
   ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
   cl_command_queue q1 = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
   cl_command_queue q2 = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
   test_user_event_gates_marker(q1);
   test_failure_propagates(q1);
   test_cross_queue(q1, q2);
   test_dependant_after_dependency(q1, q2);
   test_out_of_order_barrier();
   test_errors(q1);
   test_threads();
   test_long_chain(q1, 1000000, CL_COMPLETE);
   test_long_chain(q1, 100000, -1);
   test_callback_waits_for_held(q1);
   CHECK_EQ_INT(clFinish(q1), CL_SUCCESS);
   CHECK_EQ_INT(clFinish(q2), CL_SUCCESS);
   clReleaseCommandQueue(q1);
   clReleaseCommandQueue(q2);
   clReleaseContext(ctx);
   return test_main_end();
}
