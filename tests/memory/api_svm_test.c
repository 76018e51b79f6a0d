/*
 * tests/memory/api_svm_test.c — coarse-grained buffer SVM through the loader on the software GPU
 * (fine-grained: api_svm_fine_test.c) (OpenCL 3.0 API §5.6, §5.9.2): clEnqueueSVMMemcpy/MemFill/Map/Unmap/Free/MigrateMem with
 * their errors, round trips between SVM and host memory, clEnqueueSVMFree with and without
 * a callback (and its order in the queue), clSetKernelArgSVMPointer and
 * clSetKernelExecInfo, kernels that take SVM pointers directly, chase a linked list and a
 * pointer array the host built in SVM memory, mix SVM pointers with cl_mem buffers, and
 * SVM commands held behind user events.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <stdint.h>

#include "hsacl_test.h"

static cl_context ctx;
static cl_device_id device;
static cl_command_queue q;

static const char *source =
   "typedef struct node { global struct node *next; int value; } node;\n"
   "kernel void scale(global int *p, int f) { p[get_global_id(0)] *= f; }\n"
   "kernel void chase(global node *head, global int *out) {\n"
   "   int s = 0, n = 0;\n"
   "   for (global node *it = head; it; it = it->next) { s += it->value; n++; }\n"
   "   out[0] = s; out[1] = n;\n"
   "}\n"
   "typedef struct ref { global int *p; } ref;\n"
   "kernel void gather(global const ref *refs, global int *out) {\n"
   "   size_t i = get_global_id(0);\n"
   "   out[i] = *refs[i].p;\n"
   "}\n"
   "kernel void vadd(global const int *a, global const int *b, global int *c) {\n"
   "   size_t i = get_global_id(0);\n"
   "   c[i] = a[i] + b[i];\n"
   "}\n"
   "kernel void isnull(global int *p, global int *out) { out[0] = p == 0 ? 7 : 9; }\n"
   "kernel void byval(int v, local int *l, global int *out) { out[0] = v; }\n";

static cl_program
build(const char *src)
{
   cl_int err;
   cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   err = clBuildProgram(p, 1, &device, NULL, NULL, NULL);
   if (err != CL_SUCCESS) {
      char log[4096] = "";
      clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, sizeof(log), log, NULL);
      fprintf(stderr, "build failed: %d\n%s\n", err, log);
   }
   CHECK_EQ_INT(err, CL_SUCCESS);
   return p;
}

static void
test_capabilities(void)
{
   cl_device_svm_capabilities caps = 0;
   CHECK_EQ_INT(clGetDeviceInfo(device, CL_DEVICE_SVM_CAPABILITIES, sizeof(caps), &caps, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(caps, CL_DEVICE_SVM_COARSE_GRAIN_BUFFER | CL_DEVICE_SVM_FINE_GRAIN_BUFFER |
                         CL_DEVICE_SVM_ATOMICS);
}

/* Memcpy host -> SVM -> SVM -> host, fill, map/unmap, migrate. */
static void
test_round_trips(void)
{
   enum { N = 1 << 16 };
   unsigned char *host = malloc(N), *back = malloc(N);
   for (size_t i = 0; i < N; i++)
      host[i] = (unsigned char)(i * 7 + 3);
   unsigned char *a = clSVMAlloc(ctx, CL_MEM_READ_WRITE, N, 0);
   unsigned char *b = clSVMAlloc(ctx, CL_MEM_READ_WRITE, N, 64);
   CHECK(a && b);
   CHECK_EQ_INT((uintptr_t)b % 64, 0);

   CHECK_EQ_INT(clEnqueueSVMMemcpy(q, CL_TRUE, a, host, N, 0, NULL, NULL), CL_SUCCESS);
   cl_event e1;
   CHECK_EQ_INT(clEnqueueSVMMemcpy(q, CL_FALSE, b, a, N, 0, NULL, &e1), CL_SUCCESS);
   cl_command_type type = 0;
   clGetEventInfo(e1, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, NULL);
   CHECK_EQ_INT(type, CL_COMMAND_SVM_MEMCPY);
   memset(back, 0, N);
   CHECK_EQ_INT(clEnqueueSVMMemcpy(q, CL_TRUE, back, b, N, 1, &e1, NULL), CL_SUCCESS);
   CHECK(!memcmp(back, host, N));
   clReleaseEvent(e1);
   /* Partial copy at offsets inside the allocations; size 0 is a no-op. */
   CHECK_EQ_INT(clEnqueueSVMMemcpy(q, CL_TRUE, b + 100, a + 5000, 300, 0, NULL, NULL),
                CL_SUCCESS);
   CHECK(!memcmp(b + 100, host + 5000, 300));
   CHECK_EQ_INT(clEnqueueSVMMemcpy(q, CL_TRUE, b, a, 0, 0, NULL, NULL), CL_SUCCESS);

   /* Fill with several pattern sizes, then map and look at it directly. */
   const cl_uint pat4 = 0xdeadbeef;
   CHECK_EQ_INT(clEnqueueSVMMemFill(q, a, &pat4, 4, N, 0, NULL, NULL), CL_SUCCESS);
   unsigned char pat16[16];
   for (int i = 0; i < 16; i++)
      pat16[i] = (unsigned char)(0xa0 + i);
   CHECK_EQ_INT(clEnqueueSVMMemFill(q, a + 64, pat16, 16, 256, 0, NULL, NULL), CL_SUCCESS);
   const unsigned char pat1 = 0x5a;
   CHECK_EQ_INT(clEnqueueSVMMemFill(q, a + N - 3, &pat1, 1, 3, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueSVMMap(q, CL_TRUE, CL_MAP_READ, a, N, 0, NULL, NULL), CL_SUCCESS);
   int bad = 0;
   for (size_t i = 0; i < N; i++) {
      unsigned char want;
      if (i >= 64 && i < 64 + 256)
         want = pat16[(i - 64) % 16];
      else if (i >= N - 3)
         want = pat1;
      else
         want = ((const unsigned char *)&pat4)[i % 4];
      bad += a[i] != want;
   }
   CHECK_EQ_INT(bad, 0);
   CHECK_EQ_INT(clEnqueueSVMUnmap(q, a, 0, NULL, NULL), CL_SUCCESS);

   /* Map for writing, write from the host, unmap, copy out through the queue. */
   cl_event me;
   CHECK_EQ_INT(clEnqueueSVMMap(q, CL_FALSE, CL_MAP_WRITE_INVALIDATE_REGION, b, N, 0, NULL,
                                &me),
                CL_SUCCESS);
   CHECK_EQ_INT(clWaitForEvents(1, &me), CL_SUCCESS);
   clGetEventInfo(me, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, NULL);
   CHECK_EQ_INT(type, CL_COMMAND_SVM_MAP);
   clReleaseEvent(me);
   for (size_t i = 0; i < N; i++)
      b[i] = (unsigned char)(255 - i % 251);
   cl_event ue;
   CHECK_EQ_INT(clEnqueueSVMUnmap(q, b, 0, NULL, &ue), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueSVMMemcpy(q, CL_TRUE, back, b, N, 1, &ue, NULL), CL_SUCCESS);
   clGetEventInfo(ue, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, NULL);
   CHECK_EQ_INT(type, CL_COMMAND_SVM_UNMAP);
   clReleaseEvent(ue);
   bad = 0;
   for (size_t i = 0; i < N; i++)
      bad += back[i] != (unsigned char)(255 - i % 251);
   CHECK_EQ_INT(bad, 0);

   /* Migrate: orders only. */
   const void *ptrs[2] = { a + 10, b };
   const size_t sizes[2] = { 100, 0 };
   cl_event mig;
   CHECK_EQ_INT(clEnqueueSVMMigrateMem(q, 2, ptrs, sizes, 0, 0, NULL, &mig), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueSVMMigrateMem(q, 2, ptrs, NULL, CL_MIGRATE_MEM_OBJECT_HOST, 0, NULL,
                                       NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(clWaitForEvents(1, &mig), CL_SUCCESS);
   clGetEventInfo(mig, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, NULL);
   CHECK_EQ_INT(type, CL_COMMAND_SVM_MIGRATE_MEM);
   clReleaseEvent(mig);

   CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
   clSVMFree(ctx, a);
   clSVMFree(ctx, b);
   free(host);
   free(back);
}

/* Every error of §5.6.2, in the order the specification lists them. */
static void
test_errors(void)
{
   enum { N = 4096 };
   unsigned char host[N], host2[N];
   unsigned char *a = clSVMAlloc(ctx, CL_MEM_READ_WRITE, N, 0);
   cl_int err;
   cl_command_queue bad_q = (cl_command_queue)ctx;
   cl_context ctx2 = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
   cl_event foreign = clCreateUserEvent(ctx2, &err);
   cl_event bogus = (cl_event)ctx;
   const cl_uint pat = 1;

   /* clEnqueueSVMMemcpy */
   CHECK_EQ_INT(clEnqueueSVMMemcpy(bad_q, CL_TRUE, a, host, N, 0, NULL, NULL),
                CL_INVALID_COMMAND_QUEUE);
   CHECK_EQ_INT(clEnqueueSVMMemcpy(q, CL_TRUE, NULL, host, N, 1, &foreign, NULL),
                CL_INVALID_CONTEXT);
   CHECK_EQ_INT(clEnqueueSVMMemcpy(q, CL_TRUE, NULL, host, N, 0, NULL, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(clEnqueueSVMMemcpy(q, CL_TRUE, a, NULL, N, 0, NULL, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(clEnqueueSVMMemcpy(q, CL_TRUE, a + 1, host, N, 0, NULL, NULL),
                CL_INVALID_VALUE); /* runs off the allocation */
   CHECK_EQ_INT(clEnqueueSVMMemcpy(q, CL_TRUE, a, host, N, 1, NULL, NULL),
                CL_INVALID_EVENT_WAIT_LIST);
   CHECK_EQ_INT(clEnqueueSVMMemcpy(q, CL_TRUE, a, host, N, 0, &bogus, NULL),
                CL_INVALID_EVENT_WAIT_LIST);
   CHECK_EQ_INT(clEnqueueSVMMemcpy(q, CL_TRUE, a, host, N, 1, &bogus, NULL),
                CL_INVALID_EVENT_WAIT_LIST);
   CHECK_EQ_INT(clEnqueueSVMMemcpy(q, CL_TRUE, a + 100, a, 200, 0, NULL, NULL),
                CL_MEM_COPY_OVERLAP);
   CHECK_EQ_INT(clEnqueueSVMMemcpy(q, CL_TRUE, a, a + 100, 101, 0, NULL, NULL),
                CL_MEM_COPY_OVERLAP);
   CHECK_EQ_INT(clEnqueueSVMMemcpy(q, CL_TRUE, a, a + 100, 100, 0, NULL, NULL), CL_SUCCESS);
   /* Host to host is a plain ordered memcpy. */
   memset(host, 1, N);
   memset(host2, 0, N);
   CHECK_EQ_INT(clEnqueueSVMMemcpy(q, CL_TRUE, host2, host, N, 0, NULL, NULL), CL_SUCCESS);
   CHECK(!memcmp(host, host2, N));

   /* clEnqueueSVMMemFill */
   CHECK_EQ_INT(clEnqueueSVMMemFill(bad_q, a, &pat, 4, N, 0, NULL, NULL),
                CL_INVALID_COMMAND_QUEUE);
   CHECK_EQ_INT(clEnqueueSVMMemFill(q, NULL, &pat, 4, N, 1, &foreign, NULL),
                CL_INVALID_CONTEXT);
   CHECK_EQ_INT(clEnqueueSVMMemFill(q, NULL, &pat, 4, N, 0, NULL, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(clEnqueueSVMMemFill(q, a + 2, &pat, 4, 8, 0, NULL, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(clEnqueueSVMMemFill(q, a, NULL, 4, N, 0, NULL, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(clEnqueueSVMMemFill(q, a, &pat, 0, N, 0, NULL, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(clEnqueueSVMMemFill(q, a, &pat, 3, 6, 0, NULL, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(clEnqueueSVMMemFill(q, a, host, 256, 256, 0, NULL, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(clEnqueueSVMMemFill(q, a, &pat, 4, 6, 0, NULL, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(clEnqueueSVMMemFill(q, a, &pat, 4, N + 4, 0, NULL, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(clEnqueueSVMMemFill(q, host, &pat, 1, 4, 0, NULL, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(clEnqueueSVMMemFill(q, a, &pat, 4, N, 1, NULL, NULL),
                CL_INVALID_EVENT_WAIT_LIST);
   CHECK_EQ_INT(clEnqueueSVMMemFill(q, a, &pat, 4, 0, 0, NULL, NULL), CL_SUCCESS);

   /* clEnqueueSVMMap / clEnqueueSVMUnmap */
   CHECK_EQ_INT(clEnqueueSVMMap(bad_q, CL_TRUE, CL_MAP_READ, a, N, 0, NULL, NULL),
                CL_INVALID_COMMAND_QUEUE);
   CHECK_EQ_INT(clEnqueueSVMMap(q, CL_TRUE, CL_MAP_READ, NULL, N, 1, &foreign, NULL),
                CL_INVALID_CONTEXT);
   CHECK_EQ_INT(clEnqueueSVMMap(q, CL_TRUE, CL_MAP_READ, NULL, N, 0, NULL, NULL),
                CL_INVALID_VALUE);
   CHECK_EQ_INT(clEnqueueSVMMap(q, CL_TRUE, CL_MAP_READ, a, 0, 0, NULL, NULL),
                CL_INVALID_VALUE);
   CHECK_EQ_INT(clEnqueueSVMMap(q, CL_TRUE, 0x100, a, N, 0, NULL, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(clEnqueueSVMMap(q, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, a, N,
                                0, NULL, NULL),
                CL_INVALID_VALUE);
   CHECK_EQ_INT(clEnqueueSVMMap(q, CL_TRUE, CL_MAP_READ, a, N + 1, 0, NULL, NULL),
                CL_INVALID_VALUE);
   CHECK_EQ_INT(clEnqueueSVMMap(q, CL_TRUE, CL_MAP_READ, host, 16, 0, NULL, NULL),
                CL_INVALID_VALUE);
   CHECK_EQ_INT(clEnqueueSVMMap(q, CL_TRUE, CL_MAP_READ, a, N, 0, &bogus, NULL),
                CL_INVALID_EVENT_WAIT_LIST);
   CHECK_EQ_INT(clEnqueueSVMUnmap(bad_q, a, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
   CHECK_EQ_INT(clEnqueueSVMUnmap(q, NULL, 1, &foreign, NULL), CL_INVALID_CONTEXT);
   CHECK_EQ_INT(clEnqueueSVMUnmap(q, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(clEnqueueSVMUnmap(q, host, 0, NULL, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(clEnqueueSVMUnmap(q, a, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);

   /* clEnqueueSVMMigrateMem */
   const void *ptrs[1] = { a };
   const void *hptrs[1] = { host };
   size_t big[1] = { N + 1 };
   CHECK_EQ_INT(clEnqueueSVMMigrateMem(bad_q, 1, ptrs, NULL, 0, 0, NULL, NULL),
                CL_INVALID_COMMAND_QUEUE);
   CHECK_EQ_INT(clEnqueueSVMMigrateMem(q, 0, ptrs, NULL, 0, 1, &foreign, NULL),
                CL_INVALID_CONTEXT);
   CHECK_EQ_INT(clEnqueueSVMMigrateMem(q, 0, ptrs, NULL, 0, 0, NULL, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(clEnqueueSVMMigrateMem(q, 1, NULL, NULL, 0, 0, NULL, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(clEnqueueSVMMigrateMem(q, 1, ptrs, NULL, 0x80, 0, NULL, NULL),
                CL_INVALID_VALUE);
   CHECK_EQ_INT(clEnqueueSVMMigrateMem(q, 1, ptrs, big, 0, 0, NULL, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(clEnqueueSVMMigrateMem(q, 1, hptrs, NULL, 0, 0, NULL, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(clEnqueueSVMMigrateMem(q, 1, ptrs, NULL, 0, 1, NULL, NULL),
                CL_INVALID_EVENT_WAIT_LIST);

   /* clEnqueueSVMFree */
   void *fptrs[1] = { a };
   void *hfptrs[1] = { host };
   CHECK_EQ_INT(clEnqueueSVMFree(bad_q, 1, fptrs, NULL, NULL, 0, NULL, NULL),
                CL_INVALID_COMMAND_QUEUE);
   CHECK_EQ_INT(clEnqueueSVMFree(q, 0, fptrs, NULL, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(clEnqueueSVMFree(q, 1, NULL, NULL, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(clEnqueueSVMFree(q, 1, hfptrs, NULL, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
   void *mid[1] = { a + 8 };
   CHECK_EQ_INT(clEnqueueSVMFree(q, 1, mid, NULL, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(clEnqueueSVMFree(q, 1, fptrs, NULL, NULL, 1, NULL, NULL),
                CL_INVALID_EVENT_WAIT_LIST);
   CHECK_EQ_INT(clEnqueueSVMFree(q, 1, fptrs, NULL, NULL, 1, &foreign, NULL),
                CL_INVALID_CONTEXT);
   /* An empty free is a valid (ordering) command. */
   CHECK_EQ_INT(clEnqueueSVMFree(q, 0, NULL, NULL, NULL, 0, NULL, NULL), CL_SUCCESS);

   CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
   clReleaseEvent(foreign);
   clReleaseContext(ctx2);
   clSVMFree(ctx, a);
}

/* ---- clEnqueueSVMFree with a callback, in queue order --------------------------------- */

static int free_calls;
static int free_order; /* free_calls when the callback saw the data copied before it */
static void *free_seen[4];
static cl_uint free_seen_n;
static cl_command_queue free_seen_q;

static void CL_CALLBACK
free_cb(cl_command_queue queue, cl_uint n, void *ptrs[], void *user_data)
{
   int *marker = user_data;
   free_seen_q = queue;
   free_seen_n = n;
   for (cl_uint i = 0; i < n && i < 4; i++)
      free_seen[i] = ptrs[i];
   /* The memcpy enqueued before the free (in order) has already run. */
   if (*(int *)ptrs[0] == 4242)
      free_order = ++free_calls;
   else
      ++free_calls;
   *marker = 1;
   for (cl_uint i = 0; i < n; i++)
      clSVMFree(ctx, ptrs[i]);
}

static void
test_svm_free(void)
{
   cl_int err;
   int *a = clSVMAlloc(ctx, CL_MEM_READ_WRITE, 64, 0);
   int *b = clSVMAlloc(ctx, CL_MEM_READ_WRITE, 64, 0);
   int marker = 0, v = 4242;
   cl_event gate = clCreateUserEvent(ctx, &err);
   CHECK_EQ_INT(clEnqueueSVMMemcpy(q, CL_FALSE, a, &v, sizeof(v), 1, &gate, NULL), CL_SUCCESS);
   void *ptrs[2] = { a, b };
   cl_event fe;
   CHECK_EQ_INT(clEnqueueSVMFree(q, 2, ptrs, free_cb, &marker, 0, NULL, &fe), CL_SUCCESS);
   ptrs[0] = ptrs[1] = NULL; /* the list may be reused once the call returns */
   cl_int status = 0;
   clGetEventInfo(fe, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status, NULL);
   CHECK(status != CL_COMPLETE);
   CHECK_EQ_INT(free_calls, 0);
   CHECK_EQ_INT(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
   CHECK_EQ_INT(clWaitForEvents(1, &fe), CL_SUCCESS);
   CHECK_EQ_INT(free_calls, 1);
   CHECK_EQ_INT(free_order, 1);
   CHECK_EQ_INT(marker, 1);
   CHECK(free_seen_q == q);
   CHECK_EQ_INT(free_seen_n, 2);
   CHECK(free_seen[0] == a && free_seen[1] == b);
   cl_command_type type = 0;
   clGetEventInfo(fe, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, NULL);
   CHECK_EQ_INT(type, CL_COMMAND_SVM_FREE);
   clReleaseEvent(fe);
   clReleaseEvent(gate);

   /* Default free: the allocation is gone once the command has run (a pointer into it no
    * longer names SVM memory), not before. */
   int *c = clSVMAlloc(ctx, CL_MEM_READ_WRITE, 64, 0);
   void *cptrs[2] = { c, NULL };
   gate = clCreateUserEvent(ctx, &err);
   CHECK_EQ_INT(clEnqueueSVMFree(q, 2, cptrs, NULL, NULL, 1, &gate, &fe), CL_SUCCESS);
   /* Still an SVM region: validation gets as far as the (bad) wait list. */
   CHECK_EQ_INT(clEnqueueSVMMap(q, CL_TRUE, CL_MAP_READ, c, 64, 1, NULL, NULL),
                CL_INVALID_EVENT_WAIT_LIST);
   CHECK_EQ_INT(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
   CHECK_EQ_INT(clWaitForEvents(1, &fe), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueSVMMap(q, CL_TRUE, CL_MAP_READ, c, 64, 1, NULL, NULL),
                CL_INVALID_VALUE);
   clReleaseEvent(fe);
   clReleaseEvent(gate);
}

/* ---- SVM commands behind user events -------------------------------------------------- */

static void
test_user_event_order(void)
{
   cl_int err;
   int *a = clSVMAlloc(ctx, CL_MEM_READ_WRITE, 4096, 0);
   int host[1024], out[1024];
   for (int i = 0; i < 1024; i++)
      host[i] = i * 3;
   memset(out, 0, sizeof(out));
   CHECK_EQ_INT(clEnqueueSVMMap(q, CL_TRUE, CL_MAP_WRITE, a, 4096, 0, NULL, NULL), CL_SUCCESS);
   memset(a, 0, 4096);
   CHECK_EQ_INT(clEnqueueSVMUnmap(q, a, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clFinish(q), CL_SUCCESS);

   /* On an out-of-order queue, so only the wait lists order the commands. */
   cl_queue_properties props[] = { CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
                                   0 };
   cl_command_queue oq = clCreateCommandQueueWithProperties(ctx, device, props, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_event gate = clCreateUserEvent(ctx, &err);
   cl_event w, f, r;
   CHECK_EQ_INT(clEnqueueSVMMemcpy(oq, CL_FALSE, a, host, sizeof(host), 1, &gate, &w),
                CL_SUCCESS);
   const cl_uint pat = 77;
   CHECK_EQ_INT(clEnqueueSVMMemFill(oq, a + 1000, &pat, 4, 24 * 4, 1, &w, &f), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueSVMMemcpy(oq, CL_FALSE, out, a, sizeof(out), 1, &f, &r), CL_SUCCESS);
   /* Nothing ran: the gate is still closed. */
   cl_int st = 0;
   clGetEventInfo(r, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(st), &st, NULL);
   CHECK(st != CL_COMPLETE);
   CHECK_EQ_INT(a[5], 0);
   CHECK_EQ_INT(out[5], 0);
   CHECK_EQ_INT(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
   CHECK_EQ_INT(clWaitForEvents(1, &r), CL_SUCCESS);
   int bad = 0;
   for (int i = 0; i < 1024; i++)
      bad += out[i] != (i >= 1000 ? 77 : i * 3);
   CHECK_EQ_INT(bad, 0);
   clReleaseEvent(w);
   clReleaseEvent(f);
   clReleaseEvent(r);
   clReleaseEvent(gate);

   /* A failed gate fails the SVM command; a blocking one reports it. */
   gate = clCreateUserEvent(ctx, &err);
   cl_event m;
   CHECK_EQ_INT(clEnqueueSVMMemcpy(oq, CL_FALSE, out, a, 16, 1, &gate, &m), CL_SUCCESS);
   CHECK_EQ_INT(clSetUserEventStatus(gate, -7), CL_SUCCESS);
   CHECK(clWaitForEvents(1, &m) != CL_SUCCESS);
   clGetEventInfo(m, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(st), &st, NULL);
   CHECK(st < 0);
   CHECK_EQ_INT(clEnqueueSVMMap(oq, CL_TRUE, CL_MAP_READ, a, 16, 1, &gate, NULL),
                CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
   clReleaseEvent(m);
   clReleaseEvent(gate);
   clReleaseCommandQueue(oq);
   clSVMFree(ctx, a);
}

/* ---- kernels ------------------------------------------------------------------------ */

static void
test_kernel_args(cl_program p)
{
   cl_int err;
   cl_kernel k = clCreateKernel(p, "scale", &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   enum { N = 256 };
   int *a = clSVMAlloc(ctx, CL_MEM_READ_WRITE, 2 * N * sizeof(int), 0);
   CHECK_EQ_INT(clEnqueueSVMMap(q, CL_TRUE, CL_MAP_WRITE, a, 2 * N * sizeof(int), 0, NULL,
                                NULL),
                CL_SUCCESS);
   for (int i = 0; i < 2 * N; i++)
      a[i] = i;
   CHECK_EQ_INT(clEnqueueSVMUnmap(q, a, 0, NULL, NULL), CL_SUCCESS);
   /* Errors of §5.9.2. */
   CHECK_EQ_INT(clSetKernelArgSVMPointer((cl_kernel)q, 0, a), CL_INVALID_KERNEL);
   CHECK_EQ_INT(clSetKernelArgSVMPointer(k, 2, a), CL_INVALID_ARG_INDEX);
   CHECK_EQ_INT(clSetKernelArgSVMPointer(k, 1, a), CL_INVALID_ARG_INDEX); /* an int */
   /* A pointer into the middle of the allocation: the second half is scaled. */
   CHECK_EQ_INT(clSetKernelArgSVMPointer(k, 0, a + N), CL_SUCCESS);
   int f = 3;
   clSetKernelArg(k, 1, sizeof(f), &f);
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 1, NULL, (size_t[]){ N }, NULL, 0, NULL, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueSVMMap(q, CL_TRUE, CL_MAP_READ, a, 2 * N * sizeof(int), 0, NULL,
                                NULL),
                CL_SUCCESS);
   int bad = 0;
   for (int i = 0; i < 2 * N; i++)
      bad += a[i] != (i < N ? i : 3 * i);
   CHECK_EQ_INT(bad, 0);
   CHECK_EQ_INT(clEnqueueSVMUnmap(q, a, 0, NULL, NULL), CL_SUCCESS);

   /* A clone keeps the SVM pointer; clSetKernelArg with a buffer replaces it. */
   cl_kernel k2 = clCloneKernel(k, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k2, 1, NULL, (size_t[]){ N }, NULL, 0, NULL, NULL),
                CL_SUCCESS);
   cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * sizeof(int), NULL, &err);
   const int one = 1;
   clEnqueueFillBuffer(q, buf, &one, sizeof(one), 0, N * sizeof(int), 0, NULL, NULL);
   CHECK_EQ_INT(clSetKernelArg(k, 0, sizeof(buf), &buf), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 1, NULL, (size_t[]){ N }, NULL, 0, NULL, NULL),
                CL_SUCCESS);
   int back[N];
   CHECK_EQ_INT(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof(back), back, 0, NULL, NULL),
                CL_SUCCESS);
   bad = 0;
   for (int i = 0; i < N; i++)
      bad += back[i] != 3;
   CHECK_EQ_INT(bad, 0);
   CHECK_EQ_INT(clEnqueueSVMMap(q, CL_TRUE, CL_MAP_READ, a, 2 * N * sizeof(int), 0, NULL,
                                NULL),
                CL_SUCCESS);
   bad = 0;
   for (int i = 0; i < 2 * N; i++)
      bad += a[i] != (i < N ? i : 9 * i); /* scaled twice: kernel and its clone */
   CHECK_EQ_INT(bad, 0);
   CHECK_EQ_INT(clEnqueueSVMUnmap(q, a, 0, NULL, NULL), CL_SUCCESS);
   clReleaseKernel(k2);

   /* A NULL SVM pointer is a NULL pointer in the kernel; so is any value it ignores. */
   cl_kernel kn = clCreateKernel(p, "isnull", &err);
   CHECK_EQ_INT(clSetKernelArgSVMPointer(kn, 0, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArgSVMPointer(kn, 1, a), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, kn, 1, NULL, (size_t[]){ 1 }, NULL, 0, NULL, NULL),
                CL_SUCCESS);
   int flag = 0;
   CHECK_EQ_INT(clEnqueueSVMMemcpy(q, CL_TRUE, &flag, a, sizeof(flag), 0, NULL, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(flag, 7);
   CHECK_EQ_INT(clSetKernelArgSVMPointer(kn, 0, (void *)(uintptr_t)0x1000), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, kn, 1, NULL, (size_t[]){ 1 }, NULL, 0, NULL, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueSVMMemcpy(q, CL_TRUE, &flag, a, sizeof(flag), 0, NULL, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(flag, 9);
   clReleaseKernel(kn);

   /* __local and by-value arguments are not SVM pointer arguments. */
   cl_kernel kb = clCreateKernel(p, "byval", &err);
   CHECK_EQ_INT(clSetKernelArgSVMPointer(kb, 0, a), CL_INVALID_ARG_INDEX);
   CHECK_EQ_INT(clSetKernelArgSVMPointer(kb, 1, a), CL_INVALID_ARG_INDEX);
   clReleaseKernel(kb);

   /* clSetKernelExecInfo, §5.9.3. */
   void *list[2] = { a, a + 5 };
   CHECK_EQ_INT(clSetKernelExecInfo((cl_kernel)q, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof(list),
                                    list),
                CL_INVALID_KERNEL);
   CHECK_EQ_INT(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof(list), list),
                CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, 0, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof(list), NULL),
                CL_INVALID_VALUE);
   CHECK_EQ_INT(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, 3, list),
                CL_INVALID_VALUE);
   CHECK_EQ_INT(clSetKernelExecInfo(k, 0x1234, sizeof(list), list), CL_INVALID_VALUE);
   cl_bool t = CL_TRUE, fl = CL_FALSE;
   CHECK_EQ_INT(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof(t),
                                    &t),
                CL_INVALID_OPERATION);
   CHECK_EQ_INT(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof(fl),
                                    &fl),
                CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, 1, &fl),
                CL_INVALID_VALUE);
   CHECK_EQ_INT(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof(list), list),
                CL_SUCCESS);
   cl_kernel k3 = clCloneKernel(k, &err); /* clones the exec info too */
   CHECK_EQ_INT(err, CL_SUCCESS);
   clReleaseKernel(k3);
   clReleaseKernel(k);
   clReleaseMemObject(buf);
   clSVMFree(ctx, a);
}

struct host_node {
   struct host_node *next;
   int value;
};

/* The host builds a linked list and a pointer array inside SVM memory; kernels follow the
 * pointers (the allocations reached only indirectly are named by exec info). */
static void
test_pointer_chasing(cl_program p)
{
   enum { NODES = 100 };
   cl_int err;
   /* The nodes spread over two allocations, linked in a shuffled order. */
   struct host_node *pool1 = clSVMAlloc(ctx, CL_MEM_READ_WRITE, NODES / 2 * sizeof(*pool1), 0);
   struct host_node *pool2 = clSVMAlloc(ctx, CL_MEM_READ_WRITE, NODES / 2 * sizeof(*pool2), 0);
   int *out = clSVMAlloc(ctx, CL_MEM_READ_WRITE, 4 * NODES, 0);
   CHECK(pool1 && pool2 && out);
   clEnqueueSVMMap(q, CL_TRUE, CL_MAP_WRITE, pool1, NODES / 2 * sizeof(*pool1), 0, NULL, NULL);
   clEnqueueSVMMap(q, CL_TRUE, CL_MAP_WRITE, pool2, NODES / 2 * sizeof(*pool2), 0, NULL, NULL);
   struct host_node *order[NODES];
   for (int i = 0; i < NODES; i++)
      order[i] = i % 2 ? &pool2[i / 2] : &pool1[NODES / 2 - 1 - i / 2];
   int sum = 0;
   for (int i = 0; i < NODES; i++) {
      order[i]->value = i * i + 1;
      order[i]->next = i + 1 < NODES ? order[i + 1] : NULL;
      sum += i * i + 1;
   }
   clEnqueueSVMUnmap(q, pool1, 0, NULL, NULL);
   clEnqueueSVMUnmap(q, pool2, 0, NULL, NULL);

   cl_kernel k = clCreateKernel(p, "chase", &err);
   CHECK_EQ_INT(clSetKernelArgSVMPointer(k, 0, order[0]), CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArgSVMPointer(k, 1, out), CL_SUCCESS);
   void *reach[2] = { pool1, pool2 };
   CHECK_EQ_INT(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof(reach), reach),
                CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 1, NULL, (size_t[]){ 1 }, NULL, 0, NULL, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueSVMMap(q, CL_TRUE, CL_MAP_READ, out, 8, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(out[0], sum);
   CHECK_EQ_INT(out[1], NODES);
   clEnqueueSVMUnmap(q, out, 0, NULL, NULL);
   /* Start in the middle of the list. */
   CHECK_EQ_INT(clSetKernelArgSVMPointer(k, 0, order[NODES - 3]), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 1, NULL, (size_t[]){ 1 }, NULL, 0, NULL, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueSVMMap(q, CL_TRUE, CL_MAP_READ, out, 8, 0, NULL, NULL), CL_SUCCESS);
   int tail = 0;
   for (int i = NODES - 3; i < NODES; i++)
      tail += i * i + 1;
   CHECK_EQ_INT(out[0], tail);
   CHECK_EQ_INT(out[1], 3);
   clEnqueueSVMUnmap(q, out, 0, NULL, NULL);
   clReleaseKernel(k);

   /* A pointer array in SVM memory whose entries point into another SVM allocation. */
   int **ptrs = clSVMAlloc(ctx, CL_MEM_READ_WRITE, NODES * sizeof(int *), 0); /* ref[] */
   int *vals = clSVMAlloc(ctx, CL_MEM_READ_WRITE, NODES * sizeof(int), 0);
   clEnqueueSVMMap(q, CL_TRUE, CL_MAP_WRITE, ptrs, NODES * sizeof(int *), 0, NULL, NULL);
   clEnqueueSVMMap(q, CL_TRUE, CL_MAP_WRITE, vals, NODES * sizeof(int), 0, NULL, NULL);
   for (int i = 0; i < NODES; i++) {
      vals[i] = 1000 + i;
      ptrs[i] = &vals[NODES - 1 - i];
   }
   clEnqueueSVMUnmap(q, ptrs, 0, NULL, NULL);
   clEnqueueSVMUnmap(q, vals, 0, NULL, NULL);
   k = clCreateKernel(p, "gather", &err);
   clSetKernelArgSVMPointer(k, 0, ptrs);
   clSetKernelArgSVMPointer(k, 1, out);
   clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof(void *), (void *[]){ vals });
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 1, NULL, (size_t[]){ NODES }, NULL, 0, NULL, NULL),
                CL_SUCCESS);
   int host_out[NODES];
   CHECK_EQ_INT(clEnqueueSVMMemcpy(q, CL_TRUE, host_out, out, sizeof(host_out), 0, NULL, NULL),
                CL_SUCCESS);
   int bad = 0;
   for (int i = 0; i < NODES; i++)
      bad += host_out[i] != 1000 + NODES - 1 - i;
   CHECK_EQ_INT(bad, 0);
   clReleaseKernel(k);
   clSVMFree(ctx, ptrs);
   clSVMFree(ctx, vals);
   clSVMFree(ctx, pool1);
   clSVMFree(ctx, pool2);
   clSVMFree(ctx, out);
}

/* One kernel with an SVM pointer, a device buffer, and a buffer over SVM memory. */
static void
test_mixed(cl_program p)
{
   enum { N = 1024 };
   cl_int err;
   int *a = clSVMAlloc(ctx, CL_MEM_READ_ONLY, N * sizeof(int), 0);
   int *c = clSVMAlloc(ctx, CL_MEM_READ_WRITE, N * sizeof(int), 0);
   int hb[N];
   for (int i = 0; i < N; i++)
      hb[i] = 5 * i;
   cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(hb), hb, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   clEnqueueSVMMap(q, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, a, N * sizeof(int), 0, NULL,
                   NULL);
   for (int i = 0; i < N; i++)
      a[i] = i - 7;
   clEnqueueSVMUnmap(q, a, 0, NULL, NULL);
   const int zero = 0;
   clEnqueueSVMMemFill(q, c, &zero, sizeof(zero), N * sizeof(int), 0, NULL, NULL);
   cl_kernel k = clCreateKernel(p, "vadd", &err);
   CHECK_EQ_INT(clSetKernelArgSVMPointer(k, 0, a), CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArg(k, 1, sizeof(b), &b), CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArgSVMPointer(k, 2, c), CL_SUCCESS);
   cl_event ke;
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 1, NULL, (size_t[]){ N }, NULL, 0, NULL, &ke),
                CL_SUCCESS);
   int back[N];
   CHECK_EQ_INT(clEnqueueSVMMemcpy(q, CL_TRUE, back, c, sizeof(back), 1, &ke, NULL),
                CL_SUCCESS);
   int bad = 0;
   for (int i = 0; i < N; i++)
      bad += back[i] != (i - 7) + 5 * i;
   CHECK_EQ_INT(bad, 0);
   clReleaseEvent(ke);

   /* A cl_mem made over the SVM allocation (CL_MEM_USE_HOST_PTR) sees the same bytes. */
   cl_mem over = clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, N * sizeof(int), c, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArg(k, 2, sizeof(over), &over), CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArg(k, 0, sizeof(b), &b), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 1, NULL, (size_t[]){ N }, NULL, 0, NULL, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueSVMMemcpy(q, CL_TRUE, back, c, sizeof(back), 0, NULL, NULL),
                CL_SUCCESS);
   bad = 0;
   for (int i = 0; i < N; i++)
      bad += back[i] != 10 * i;
   CHECK_EQ_INT(bad, 0);
   clReleaseMemObject(over);
   clReleaseKernel(k);
   clReleaseMemObject(b);
   CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
   clSVMFree(ctx, a);
   clSVMFree(ctx, c);
}

/* A successful clSVMAlloc logs no error, whichever pool it came from (issue #17: the quiet
 * fallback to the system pool used to log CL_MEM_OBJECT_ALLOCATION_FAILURE). */
static void
test_quiet_alloc(void)
{
   char log[4096];
   setenv("HSACL_LOG", "error", 1);
   test_stderr_begin();
   void *p = clSVMAlloc(ctx, CL_MEM_READ_WRITE, 1 << 20, 0);
   test_stderr_end(log, sizeof(log));
   CHECK(p != NULL);
   if (strstr(log, "error"))
      fprintf(stderr, "clSVMAlloc logged: %s", log);
   CHECK(!strstr(log, "error"));
   clSVMFree(ctx, p);
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
   ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
   q = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   test_capabilities();
   test_quiet_alloc();
   test_round_trips();
   test_errors();
   test_svm_free();
   test_user_event_order();
   cl_program p = build(source);
   test_kernel_args(p);
   test_pointer_chasing(p);
   test_mixed(p);
   clReleaseProgram(p);
   clReleaseCommandQueue(q);
   clReleaseContext(ctx);
   return test_main_end();
}
