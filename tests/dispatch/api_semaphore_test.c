/*
 * tests/dispatch/api_semaphore_test.c — binary semaphores (cl_khr_semaphore 1.0) through the
 * loader and clGetExtensionFunctionAddressForPlatform:
 *   - the platform and device type queries, the semaphore queries (properties as given,
 *     payload 0 and 1 as the semaphore is waited and signaled, reference counts);
 *   - signal then wait across two queues, a kernel behind the wait seeing the buffer a
 *     kernel before the signal wrote;
 *   - a wait enqueued before its signal: it and the kernel behind it run only after a
 *     signal enqueued later, held on a user event the host completes;
 *   - a signal whose wait list failed fails the wait waiting for it;
 *   - a semaphore released while its commands are in flight;
 *   - the error codes of creation, the commands, the queries, retain and release.
 */
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <CL/cl_ext.h>

#include <stdbool.h>

#include "hsacl_cl_test.h"
#include "hsacl_test.h"

#ifndef CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR
#define CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR 0x2053
#define CL_SEMAPHORE_DEVICE_HANDLE_LIST_END_KHR 0
#endif

static cl_platform_id platform;
static cl_device_id device;
static cl_context ctx;
static cl_command_queue q1, q2;

static clCreateSemaphoreWithPropertiesKHR_fn create_sema;
static clEnqueueWaitSemaphoresKHR_fn wait_sema;
static clEnqueueSignalSemaphoresKHR_fn signal_sema;
static clGetSemaphoreInfoKHR_fn sema_info;
static clRetainSemaphoreKHR_fn retain_sema;
static clReleaseSemaphoreKHR_fn release_sema;

static const cl_semaphore_properties_khr binary[] = { CL_SEMAPHORE_TYPE_KHR,
                                                      CL_SEMAPHORE_TYPE_BINARY_KHR, 0 };

static const char *source =
   "kernel void put(global int *p, int v) { p[get_global_id(0)] = v; }\n"
   "kernel void add(global const int *a, global int *b) {\n"
   "   size_t i = get_global_id(0); b[i] = a[i] + 1;\n"
   "}\n";

static cl_semaphore_payload_khr
payload(cl_semaphore_khr s)
{
   cl_semaphore_payload_khr p = 99;
   CHECK_EQ_INT(sema_info(s, CL_SEMAPHORE_PAYLOAD_KHR, sizeof(p), &p, NULL), CL_SUCCESS);
   return p;
}

static cl_int
status(cl_event ev)
{
   cl_int st = 1;
   clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(st), &st, NULL);
   return st;
}

static void
test_queries(void)
{
   cl_semaphore_type_khr t = 0;
   size_t ret = 0;
   CHECK_EQ_INT(clGetPlatformInfo(platform, CL_PLATFORM_SEMAPHORE_TYPES_KHR, sizeof(t), &t, &ret),
                CL_SUCCESS);
   CHECK(t == CL_SEMAPHORE_TYPE_BINARY_KHR && ret == sizeof(t));
   t = 0;
   CHECK_EQ_INT(clGetDeviceInfo(device, CL_DEVICE_SEMAPHORE_TYPES_KHR, sizeof(t), &t, &ret),
                CL_SUCCESS);
   CHECK(t == CL_SEMAPHORE_TYPE_BINARY_KHR && ret == sizeof(t));

   const cl_semaphore_properties_khr props[] = {
      CL_SEMAPHORE_TYPE_KHR, CL_SEMAPHORE_TYPE_BINARY_KHR, CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR,
      (cl_semaphore_properties_khr)device, CL_SEMAPHORE_DEVICE_HANDLE_LIST_END_KHR, 0
   };
   cl_int err;
   cl_semaphore_khr s = create_sema(ctx, props, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_semaphore_properties_khr got[8];
   CHECK_EQ_INT(sema_info(s, CL_SEMAPHORE_PROPERTIES_KHR, sizeof(got), got, &ret), CL_SUCCESS);
   CHECK(ret == sizeof(props) && !memcmp(got, props, sizeof(props)));
   cl_device_id d = NULL;
   CHECK_EQ_INT(sema_info(s, CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR, sizeof(d), &d, &ret),
                CL_SUCCESS);
   CHECK(d == device && ret == sizeof(d));
   cl_context c = NULL;
   CHECK_EQ_INT(sema_info(s, CL_SEMAPHORE_CONTEXT_KHR, sizeof(c), &c, NULL), CL_SUCCESS);
   CHECK(c == ctx);
   CHECK_EQ_INT(sema_info(s, CL_SEMAPHORE_TYPE_KHR, sizeof(t), &t, NULL), CL_SUCCESS);
   CHECK_EQ_INT(t, CL_SEMAPHORE_TYPE_BINARY_KHR);
   cl_uint refs = 0;
   CHECK_EQ_INT(retain_sema(s), CL_SUCCESS);
   CHECK_EQ_INT(sema_info(s, CL_SEMAPHORE_REFERENCE_COUNT_KHR, sizeof(refs), &refs, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(refs, 2);
   CHECK_EQ_INT(release_sema(s), CL_SUCCESS);
   CHECK_EQ_INT(payload(s), 0);
   CHECK_EQ_INT(sema_info(s, CL_SEMAPHORE_PAYLOAD_KHR, 4, &refs, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(sema_info(s, 0x1234, sizeof(refs), &refs, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(release_sema(s), CL_SUCCESS);
}

/* A kernel on q1 fills a, the semaphore orders q2's kernel b = a + 1 after it. */
static void
test_cross_queue(cl_program prog)
{
   cl_int err;
   enum { N = 64 };
   cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * sizeof(cl_int), NULL, &err);
   cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * sizeof(cl_int), NULL, &err);
   cl_kernel put = clCreateKernel(prog, "put", &err), add = clCreateKernel(prog, "add", &err);
   cl_semaphore_khr s = create_sema(ctx, binary, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   size_t gsz = N;
   for (int round = 0; round < 3; round++) {
      cl_int v = 10 * round;
      clSetKernelArg(put, 0, sizeof(a), &a);
      clSetKernelArg(put, 1, sizeof(v), &v);
      CHECK_EQ_INT(clEnqueueNDRangeKernel(q1, put, 1, NULL, &gsz, NULL, 0, NULL, NULL),
                   CL_SUCCESS);
      cl_event sig, wt;
      CHECK_EQ_INT(signal_sema(q1, 1, &s, NULL, 0, NULL, &sig), CL_SUCCESS);
      CHECK_EQ_INT(wait_sema(q2, 1, &s, NULL, 0, NULL, &wt), CL_SUCCESS);
      clSetKernelArg(add, 0, sizeof(a), &a);
      clSetKernelArg(add, 1, sizeof(b), &b);
      CHECK_EQ_INT(clEnqueueNDRangeKernel(q2, add, 1, NULL, &gsz, NULL, 0, NULL, NULL),
                   CL_SUCCESS);
      cl_int out[N];
      CHECK_EQ_INT(clEnqueueReadBuffer(q2, b, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL),
                   CL_SUCCESS);
      int bad = 0;
      for (int i = 0; i < N; i++)
         bad += out[i] != v + 1;
      CHECK_EQ_INT(bad, 0);
      cl_command_type type = 0;
      clGetEventInfo(sig, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, NULL);
      CHECK_EQ_INT(type, CL_COMMAND_SEMAPHORE_SIGNAL_KHR);
      clGetEventInfo(wt, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, NULL);
      CHECK_EQ_INT(type, CL_COMMAND_SEMAPHORE_WAIT_KHR);
      CHECK_EQ_INT(status(sig), CL_COMPLETE);
      CHECK_EQ_INT(status(wt), CL_COMPLETE);
      CHECK_EQ_INT(payload(s), 0); /* waited */
      clReleaseEvent(sig);
      clReleaseEvent(wt);
   }
   /* signaled and not waited: payload 1 */
   CHECK_EQ_INT(signal_sema(q1, 1, &s, NULL, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clFinish(q1), CL_SUCCESS);
   CHECK_EQ_INT(payload(s), 1);
   CHECK_EQ_INT(wait_sema(q1, 1, &s, NULL, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clFinish(q1), CL_SUCCESS);
   CHECK_EQ_INT(payload(s), 0);
   release_sema(s);
   clReleaseKernel(put);
   clReleaseKernel(add);
   clReleaseMemObject(a);
   clReleaseMemObject(b);
}

/* A wait enqueued before any signal waits for the next one; a failed signal fails it. */
static void
test_wait_first(cl_program prog)
{
   cl_int err;
   cl_semaphore_khr s = create_sema(ctx, binary, &err);
   cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(cl_int), NULL, &err);
   cl_int zero = 0, v = 7, got = -1;
   clEnqueueWriteBuffer(q1, m, CL_TRUE, 0, sizeof(zero), &zero, 0, NULL, NULL);
   cl_kernel put = clCreateKernel(prog, "put", &err);
   clSetKernelArg(put, 0, sizeof(m), &m);
   clSetKernelArg(put, 1, sizeof(v), &v);
   cl_event wt, kev, sig;
   CHECK_EQ_INT(wait_sema(q2, 1, &s, NULL, 0, NULL, &wt), CL_SUCCESS);
   size_t one = 1;
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q2, put, 1, NULL, &one, NULL, 1, &wt, &kev), CL_SUCCESS);
   cl_event gate = clCreateUserEvent(ctx, &err);
   CHECK_EQ_INT(signal_sema(q1, 1, &s, NULL, 1, &gate, &sig), CL_SUCCESS);
   usleep(100000);
   CHECK(status(wt) > CL_COMPLETE);
   CHECK(status(kev) > CL_COMPLETE);
   /* q1 is held by the signal's gate and q2 by the wait: read through a third queue */
   cl_command_queue q3 = clCreateCommandQueue(ctx, device, 0, &err);
   clEnqueueReadBuffer(q3, m, CL_TRUE, 0, sizeof(got), &got, 0, NULL, NULL);
   clReleaseCommandQueue(q3);
   CHECK_EQ_INT(got, 0); /* the kernel behind the wait has not run */
   CHECK_EQ_INT(release_sema(s), CL_SUCCESS); /* in flight: the commands keep it */
   clSetUserEventStatus(gate, CL_COMPLETE);
   CHECK_EQ_INT(clFinish(q2), CL_SUCCESS);
   CHECK_EQ_INT(status(sig), CL_COMPLETE);
   CHECK_EQ_INT(status(wt), CL_COMPLETE);
   clEnqueueReadBuffer(q2, m, CL_TRUE, 0, sizeof(got), &got, 0, NULL, NULL);
   CHECK_EQ_INT(got, 7);
   clReleaseEvent(wt);
   clReleaseEvent(kev);
   clReleaseEvent(sig);
   clReleaseEvent(gate);

   /* a signal whose dependency fails fails the wait paired with it */
   s = create_sema(ctx, binary, &err);
   CHECK_EQ_INT(wait_sema(q2, 1, &s, NULL, 0, NULL, &wt), CL_SUCCESS);
   gate = clCreateUserEvent(ctx, &err);
   CHECK_EQ_INT(signal_sema(q1, 1, &s, NULL, 1, &gate, &sig), CL_SUCCESS);
   clSetUserEventStatus(gate, -42);
   clWaitForEvents(1, &sig);
   CHECK(status(sig) < 0);
   CHECK_EQ_INT(clWaitForEvents(1, &wt), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
   CHECK(status(wt) < 0);
   CHECK_EQ_INT(payload(s), 0);
   clReleaseEvent(wt);
   clReleaseEvent(sig);
   clReleaseEvent(gate);
   release_sema(s);
   clReleaseKernel(put);
   clReleaseMemObject(m);
}

static void
test_errors(void)
{
   cl_int err = 0;
   CHECK(!create_sema(NULL, binary, &err) && err == CL_INVALID_CONTEXT);
   CHECK(!create_sema(ctx, NULL, &err) && err == CL_INVALID_VALUE);
   const cl_semaphore_properties_khr empty[] = { 0 };
   CHECK(!create_sema(ctx, empty, &err) && err == CL_INVALID_VALUE);
   const cl_semaphore_properties_khr unknown[] = { 0x7777, 1, 0 };
   CHECK(!create_sema(ctx, unknown, &err) && err == CL_INVALID_PROPERTY);
   const cl_semaphore_properties_khr bad_type[] = { CL_SEMAPHORE_TYPE_KHR, 5, 0 };
   CHECK(!create_sema(ctx, bad_type, &err) && err == CL_INVALID_PROPERTY);
   const cl_semaphore_properties_khr twice[] = { CL_SEMAPHORE_TYPE_KHR,
                                                 CL_SEMAPHORE_TYPE_BINARY_KHR,
                                                 CL_SEMAPHORE_TYPE_KHR, 0 };
   CHECK(!create_sema(ctx, twice, &err) && err == CL_INVALID_PROPERTY);
   const cl_semaphore_properties_khr no_dev[] = {
      CL_SEMAPHORE_TYPE_KHR, CL_SEMAPHORE_TYPE_BINARY_KHR, CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR,
      CL_SEMAPHORE_DEVICE_HANDLE_LIST_END_KHR, 0
   };
   CHECK(!create_sema(ctx, no_dev, &err) && err == CL_INVALID_DEVICE);
   const cl_semaphore_properties_khr two_dev[] = {
      CL_SEMAPHORE_TYPE_KHR, CL_SEMAPHORE_TYPE_BINARY_KHR, CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR,
      (cl_semaphore_properties_khr)device, (cl_semaphore_properties_khr)device,
      CL_SEMAPHORE_DEVICE_HANDLE_LIST_END_KHR, 0
   };
   CHECK(!create_sema(ctx, two_dev, &err) && err == CL_INVALID_DEVICE);
   const cl_semaphore_properties_khr bad_dev[] = {
      CL_SEMAPHORE_TYPE_KHR, CL_SEMAPHORE_TYPE_BINARY_KHR, CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR,
      (cl_semaphore_properties_khr)ctx, CL_SEMAPHORE_DEVICE_HANDLE_LIST_END_KHR, 0
   };
   CHECK(!create_sema(ctx, bad_dev, &err) && err == CL_INVALID_DEVICE);

   cl_semaphore_khr s = create_sema(ctx, binary, &err);
   cl_context other = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
   cl_semaphore_khr foreign = create_sema(other, binary, &err);
   cl_event user = clCreateUserEvent(ctx, &err), failed = clCreateUserEvent(ctx, &err);
   clSetUserEventStatus(failed, -1);
   cl_semaphore_khr bogus = (cl_semaphore_khr)ctx;
   CHECK_EQ_INT(signal_sema(NULL, 1, &s, NULL, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
   CHECK_EQ_INT(signal_sema(q1, 0, &s, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(signal_sema(q1, 1, &bogus, NULL, 0, NULL, NULL), CL_INVALID_SEMAPHORE_KHR);
   CHECK_EQ_INT(signal_sema(q1, 1, &foreign, NULL, 0, NULL, NULL), CL_INVALID_CONTEXT);
   CHECK_EQ_INT(signal_sema(q1, 1, &s, NULL, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
   CHECK_EQ_INT(signal_sema(q1, 1, &s, NULL, 0, &user, NULL), CL_INVALID_EVENT_WAIT_LIST);
   CHECK_EQ_INT(signal_sema(q1, 1, &s, NULL, 1, &failed, NULL),
                CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
   CHECK_EQ_INT(wait_sema(NULL, 1, &s, NULL, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
   CHECK_EQ_INT(wait_sema(q1, 0, &s, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(wait_sema(q1, 1, &bogus, NULL, 0, NULL, NULL), CL_INVALID_SEMAPHORE_KHR);
   CHECK_EQ_INT(wait_sema(q1, 1, &foreign, NULL, 0, NULL, NULL), CL_INVALID_CONTEXT);
   CHECK_EQ_INT(wait_sema(q1, 1, &s, NULL, 1, &failed, NULL),
                CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
   CHECK_EQ_INT(payload(s), 0); /* nothing was enqueued */
   cl_uint refs;
   CHECK_EQ_INT(sema_info(bogus, CL_SEMAPHORE_REFERENCE_COUNT_KHR, sizeof(refs), &refs, NULL),
                CL_INVALID_SEMAPHORE_KHR);
   CHECK_EQ_INT(retain_sema(NULL), CL_INVALID_SEMAPHORE_KHR);
   CHECK_EQ_INT(release_sema(bogus), CL_INVALID_SEMAPHORE_KHR);
   release_sema(s);
   release_sema(foreign);
   clSetUserEventStatus(user, CL_COMPLETE);
   clReleaseEvent(user);
   clReleaseEvent(failed);
   clReleaseContext(other);
}

#define GET(var, name) var = (void *)clGetExtensionFunctionAddressForPlatform(platform, name)

int
main(void)
{
   test_watchdog("api_semaphore", 240);
   cl_int err;
   if (clGetPlatformIDs(1, &platform, NULL) != CL_SUCCESS ||
       clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &device, NULL) != CL_SUCCESS) {
      fprintf(stderr, "no OpenCL GPU\n");
      return 1;
   }
   ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
   q1 = clCreateCommandQueue(ctx, device, 0, &err);
   q2 = clCreateCommandQueue(ctx, device, 0, &err);
   CHECK(test_device_lists(device, CL_DEVICE_EXTENSIONS, "cl_khr_semaphore"));
   GET(create_sema, "clCreateSemaphoreWithPropertiesKHR");
   GET(wait_sema, "clEnqueueWaitSemaphoresKHR");
   GET(signal_sema, "clEnqueueSignalSemaphoresKHR");
   GET(sema_info, "clGetSemaphoreInfoKHR");
   GET(retain_sema, "clRetainSemaphoreKHR");
   GET(release_sema, "clReleaseSemaphoreKHR");
   CHECK(create_sema && wait_sema && signal_sema && sema_info && retain_sema && release_sema);
   if (create_sema && wait_sema && signal_sema && sema_info && retain_sema && release_sema) {
      cl_program prog = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
      CHECK_EQ_INT(clBuildProgram(prog, 1, &device, NULL, NULL, NULL), CL_SUCCESS);
      test_queries();
      test_cross_queue(prog);
      test_wait_first(prog);
      test_errors();
      clReleaseProgram(prog);
   }
   clReleaseCommandQueue(q1);
   clReleaseCommandQueue(q2);
   clReleaseContext(ctx);
   return test_main_end();
}
