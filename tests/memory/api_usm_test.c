/*
 * tests/memory/api_usm_test.c — unified shared memory (cl_intel_unified_shared_memory) the way
 * SYCL runtimes use it, through the loader and clGetExtensionFunctionAddressForPlatform:
 *   - the capability queries (device access with atomics, host and shared with concurrent
 *     atomics, no system allocator) and the extension's version;
 *   - host, device and shared allocations, clGetMemAllocInfoINTEL on base and interior
 *     pointers and on memory that is no USM allocation (SVM, the stack);
 *   - clEnqueueMemcpyINTEL between every pair of kinds and plain host memory, pointer kernel
 *     arguments (clSetKernelArgMemPointerINTEL, with an offset), a kernel that follows
 *     pointers stored in a struct in shared memory to device and host allocations (the
 *     indirect-access exec info and CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL), device atomics on
 *     host memory;
 *   - fills of 1 to 128-byte patterns and the deprecated memset, the bytes around each
 *     checked; migrate and advise; the event command types;
 *   - clMemBlockingFreeINTEL while a kernel using the allocation waits on a user event: it
 *     returns only after the kernel ran;
 *   - the error codes of every entry point.
 * argv[1] "1.2": HSACL_OPENCL_VERSION=1.2, where the extension is not reported and its
 * functions are not found.
 */
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <CL/cl_ext.h>

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "hsacl_cl_test.h"
#include "hsacl_test.h"

static cl_platform_id platform;
static cl_context ctx;
static cl_device_id device;
static cl_command_queue q;

static clHostMemAllocINTEL_fn host_alloc;
static clDeviceMemAllocINTEL_fn device_alloc;
static clSharedMemAllocINTEL_fn shared_alloc;
static clMemFreeINTEL_fn mem_free;
static clMemBlockingFreeINTEL_fn blocking_free;
static clGetMemAllocInfoINTEL_fn alloc_info;
static clSetKernelArgMemPointerINTEL_fn set_arg_ptr;
static clEnqueueMemcpyINTEL_fn memcpy_intel;
static clEnqueueMemFillINTEL_fn fill_intel;
static clEnqueueMemsetINTEL_fn memset_intel;
static clEnqueueMigrateMemINTEL_fn migrate_intel;
static clEnqueueMemAdviseINTEL_fn advise_intel;

#define N 256

static const char *source =
   "kernel void scale(global const int *in, global int *out) {\n"
   "   size_t i = get_global_id(0);\n"
   "   out[i] = in[i] * 3 + 1;\n"
   "}\n"
   "typedef struct node { global const int *src; global int *dst; int add; int pad; } node;\n"
   "kernel void walk(global const node *nodes) {\n"
   "   size_t i = get_global_id(0);\n"
   "   nodes[i].dst[i] = nodes[i].src[i] + nodes[i].add;\n"
   "}\n"
   "kernel void count(global int *c) { atomic_inc(c); }\n"
   "kernel void mark(global int *p, int v) { p[get_global_id(0)] = v; }\n";

/* The host view of kernel walk's struct node (64-bit global pointers). */
struct node {
   const cl_int *src;
   cl_int *dst;
   cl_int add, pad;
};

#define GET(var, name) var = (void *)clGetExtensionFunctionAddressForPlatform(platform, name)

static bool
setup(void)
{
   cl_int err;
   if (clGetPlatformIDs(1, &platform, NULL) != CL_SUCCESS ||
       clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &device, NULL) != CL_SUCCESS)
      return false;
   ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
   q = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
   GET(host_alloc, "clHostMemAllocINTEL");
   GET(device_alloc, "clDeviceMemAllocINTEL");
   GET(shared_alloc, "clSharedMemAllocINTEL");
   GET(mem_free, "clMemFreeINTEL");
   GET(blocking_free, "clMemBlockingFreeINTEL");
   GET(alloc_info, "clGetMemAllocInfoINTEL");
   GET(set_arg_ptr, "clSetKernelArgMemPointerINTEL");
   GET(memcpy_intel, "clEnqueueMemcpyINTEL");
   GET(fill_intel, "clEnqueueMemFillINTEL");
   GET(memset_intel, "clEnqueueMemsetINTEL");
   GET(migrate_intel, "clEnqueueMigrateMemINTEL");
   GET(advise_intel, "clEnqueueMemAdviseINTEL");
   return ctx && q;
}

static cl_kernel
kernel(cl_program prog, const char *name)
{
   cl_int err;
   cl_kernel k = clCreateKernel(prog, name, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   return k;
}

static void
test_queries(void)
{
   cl_name_version nv[256];
   size_t size = 0;
   CHECK_EQ_INT(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS_WITH_VERSION, sizeof(nv), nv, &size),
                CL_SUCCESS);
   cl_version version = 0;
   for (size_t i = 0; i < size / sizeof(nv[0]); i++) {
      if (!strcmp(nv[i].name, "cl_intel_unified_shared_memory"))
         version = nv[i].version;
   }
   CHECK_EQ_INT(version, CL_MAKE_VERSION(1, 1, 0));
   const cl_bitfield all = CL_UNIFIED_SHARED_MEMORY_ACCESS_INTEL |
                           CL_UNIFIED_SHARED_MEMORY_ATOMIC_ACCESS_INTEL |
                           CL_UNIFIED_SHARED_MEMORY_CONCURRENT_ACCESS_INTEL |
                           CL_UNIFIED_SHARED_MEMORY_CONCURRENT_ATOMIC_ACCESS_INTEL;
   const struct {
      cl_device_info param;
      cl_bitfield want;
   } caps[] = {
      { CL_DEVICE_HOST_MEM_CAPABILITIES_INTEL, all },
      { CL_DEVICE_DEVICE_MEM_CAPABILITIES_INTEL,
        CL_UNIFIED_SHARED_MEMORY_ACCESS_INTEL | CL_UNIFIED_SHARED_MEMORY_ATOMIC_ACCESS_INTEL },
      { CL_DEVICE_SINGLE_DEVICE_SHARED_MEM_CAPABILITIES_INTEL, all },
      { CL_DEVICE_CROSS_DEVICE_SHARED_MEM_CAPABILITIES_INTEL, all },
      { CL_DEVICE_SHARED_SYSTEM_MEM_CAPABILITIES_INTEL, 0 },
   };
   for (size_t i = 0; i < sizeof(caps) / sizeof(caps[0]); i++) {
      cl_device_unified_shared_memory_capabilities_intel c = ~0ull;
      size_t ret = 0;
      CHECK_EQ_INT(clGetDeviceInfo(device, caps[i].param, sizeof(c), &c, &ret), CL_SUCCESS);
      CHECK_EQ_INT(ret, sizeof(c));
      CHECK_EQ_INT(c, caps[i].want);
   }
}

/* clGetMemAllocInfoINTEL of `p` matches type, base, size and device. */
static void
check_info(const void *p, cl_unified_shared_memory_type_intel type, const void *base,
           size_t size, cl_device_id dev)
{
   cl_unified_shared_memory_type_intel t = 0;
   void *b = (void *)1;
   size_t s = 1;
   cl_device_id d = (cl_device_id)1;
   CHECK_EQ_INT(alloc_info(ctx, p, CL_MEM_ALLOC_TYPE_INTEL, sizeof(t), &t, NULL), CL_SUCCESS);
   CHECK_EQ_INT(t, type);
   CHECK_EQ_INT(alloc_info(ctx, p, CL_MEM_ALLOC_BASE_PTR_INTEL, sizeof(b), &b, NULL), CL_SUCCESS);
   CHECK(b == base);
   CHECK_EQ_INT(alloc_info(ctx, p, CL_MEM_ALLOC_SIZE_INTEL, sizeof(s), &s, NULL), CL_SUCCESS);
   CHECK_EQ_INT(s, size);
   CHECK_EQ_INT(alloc_info(ctx, p, CL_MEM_ALLOC_DEVICE_INTEL, sizeof(d), &d, NULL), CL_SUCCESS);
   CHECK(d == dev);
}

static void
test_alloc_info(cl_int *h, cl_int *d, cl_int *s)
{
   check_info(h, CL_MEM_TYPE_HOST_INTEL, h, N * sizeof(cl_int), NULL);
   check_info((char *)h + 17, CL_MEM_TYPE_HOST_INTEL, h, N * sizeof(cl_int), NULL);
   check_info(d + N - 1, CL_MEM_TYPE_DEVICE_INTEL, d, N * sizeof(cl_int), device);
   check_info(s + 3, CL_MEM_TYPE_SHARED_INTEL, s, N * sizeof(cl_int), device);
   int local = 0;
   check_info(&local, CL_MEM_TYPE_UNKNOWN_INTEL, NULL, 0, NULL);
   check_info(d + N, CL_MEM_TYPE_UNKNOWN_INTEL, NULL, 0, NULL); /* one past the end */
   void *svm = clSVMAlloc(ctx, CL_MEM_READ_WRITE, 64, 0);
   CHECK(svm != NULL);
   check_info(svm, CL_MEM_TYPE_UNKNOWN_INTEL, NULL, 0, NULL);
   CHECK_EQ_INT(mem_free(ctx, svm), CL_INVALID_VALUE); /* SVM is not USM */
   clSVMFree(ctx, svm);

   /* a buffer over a host allocation uses it as its storage, and it is no SVM pointer */
   cl_int err;
   cl_mem over = clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, 64, h, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_bool uses_svm = CL_TRUE;
   CHECK_EQ_INT(clGetMemObjectInfo(over, CL_MEM_USES_SVM_POINTER, sizeof(uses_svm), &uses_svm,
                                   NULL), CL_SUCCESS);
   CHECK_EQ_INT(uses_svm, CL_FALSE);
   cl_int probe = 0x5a5a;
   CHECK_EQ_INT(clEnqueueWriteBuffer(q, over, CL_TRUE, 0, sizeof(probe), &probe, 0, NULL, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(h[0], 0x5a5a);
   clReleaseMemObject(over);

   cl_mem_alloc_flags_intel f = 1;
   size_t ret = 0;
   CHECK_EQ_INT(alloc_info(ctx, s, CL_MEM_ALLOC_FLAGS_INTEL, sizeof(f), &f, &ret), CL_SUCCESS);
   CHECK_EQ_INT(f, 0);
   CHECK_EQ_INT(ret, sizeof(f));
   CHECK_EQ_INT(alloc_info(ctx, s, CL_MEM_ALLOC_TYPE_INTEL, 0, NULL, &ret), CL_SUCCESS);
   CHECK_EQ_INT(ret, sizeof(cl_unified_shared_memory_type_intel));
   cl_unified_shared_memory_type_intel t;
   CHECK_EQ_INT(alloc_info(ctx, s, CL_MEM_ALLOC_TYPE_INTEL, 1, &t, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(alloc_info(ctx, s, 0x4242, sizeof(t), &t, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(alloc_info(NULL, s, CL_MEM_ALLOC_TYPE_INTEL, sizeof(t), &t, NULL),
                CL_INVALID_CONTEXT);
}

/* Copies between every kind, a kernel between two of them, fills. */
static void
test_copies_and_kernel(cl_program prog, cl_int *h, cl_int *d, cl_int *s)
{
   cl_int host_src[N], host_dst[N];
   for (int i = 0; i < N; i++) {
      h[i] = i;
      s[i] = -1;
      host_src[i] = 1000 + i;
   }
   cl_event ev;
   /* host USM -> device, device -> shared through a kernel that takes an interior pointer */
   CHECK_EQ_INT(memcpy_intel(q, CL_FALSE, d, h, N * sizeof(cl_int), 0, NULL, &ev), CL_SUCCESS);
   cl_command_type type = 0;
   CHECK_EQ_INT(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, NULL), CL_SUCCESS);
   CHECK_EQ_INT(type, CL_COMMAND_MEMCPY_INTEL);
   clReleaseEvent(ev);
   cl_kernel k = kernel(prog, "scale");
   CHECK_EQ_INT(set_arg_ptr(k, 0, d + 8), CL_SUCCESS);
   CHECK_EQ_INT(set_arg_ptr(k, 1, s), CL_SUCCESS);
   size_t gsz = N - 8;
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 1, NULL, &gsz, NULL, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
   int bad = 0;
   for (int i = 0; i < N; i++)
      bad += s[i] != (i < N - 8 ? (i + 8) * 3 + 1 : -1);
   CHECK_EQ_INT(bad, 0);

   /* shared -> host USM, plain host -> device -> device (second half) -> plain host */
   CHECK_EQ_INT(memcpy_intel(q, CL_TRUE, h, s, N * sizeof(cl_int), 0, NULL, NULL), CL_SUCCESS);
   bad = 0;
   for (int i = 0; i < N; i++)
      bad += h[i] != s[i];
   CHECK_EQ_INT(bad, 0);
   CHECK_EQ_INT(memcpy_intel(q, CL_FALSE, d, host_src, N / 2 * sizeof(cl_int), 0, NULL, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(memcpy_intel(q, CL_FALSE, d + N / 2, d, N / 2 * sizeof(cl_int), 0, NULL, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(memcpy_intel(q, CL_TRUE, host_dst, d, N * sizeof(cl_int), 0, NULL, NULL),
                CL_SUCCESS);
   bad = 0;
   for (int i = 0; i < N; i++)
      bad += host_dst[i] != 1000 + i % (N / 2);
   CHECK_EQ_INT(bad, 0);
   /* device -> shared, then a kernel reads the shared copy and writes host memory */
   CHECK_EQ_INT(memcpy_intel(q, CL_FALSE, s, d, N * sizeof(cl_int), 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(set_arg_ptr(k, 0, s), CL_SUCCESS);
   CHECK_EQ_INT(set_arg_ptr(k, 1, h), CL_SUCCESS);
   gsz = N;
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 1, NULL, &gsz, NULL, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
   bad = 0;
   for (int i = 0; i < N; i++)
      bad += h[i] != (1000 + i % (N / 2)) * 3 + 1;
   CHECK_EQ_INT(bad, 0);
   clReleaseKernel(k);

   /* fills of every pattern size at an offset, the bytes around each untouched */
   unsigned char pattern[128], out[N * sizeof(cl_int)];
   for (int i = 0; i < 128; i++)
      pattern[i] = (unsigned char)(0x40 + i);
   for (size_t ps = 1; ps <= 128; ps *= 2) {
      CHECK_EQ_INT(memset_intel(q, d, 0x11, N * sizeof(cl_int), 0, NULL, NULL), CL_SUCCESS);
      size_t off = 128, len = ps * 3;
      CHECK_EQ_INT(fill_intel(q, (char *)d + off, pattern, ps, len, 0, NULL, &ev), CL_SUCCESS);
      CHECK_EQ_INT(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, NULL),
                   CL_SUCCESS);
      CHECK_EQ_INT(type, CL_COMMAND_MEMFILL_INTEL);
      clReleaseEvent(ev);
      CHECK_EQ_INT(memcpy_intel(q, CL_TRUE, out, d, sizeof(out), 0, NULL, NULL), CL_SUCCESS);
      bad = 0;
      for (size_t i = 0; i < sizeof(out); i++) {
         unsigned char want = i >= off && i < off + len ? pattern[(i - off) % ps] : 0x11;
         bad += out[i] != want;
      }
      CHECK_EQ_INT(bad, 0);
   }
   /* memset on host and shared memory, seen by the host directly */
   CHECK_EQ_INT(memset_intel(q, s, 0x7f, 10, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
   CHECK(((unsigned char *)s)[9] == 0x7f && ((unsigned char *)s)[10] != 0x7f);

   /* migrate and advise only order */
   CHECK_EQ_INT(migrate_intel(q, s, N, CL_MIGRATE_MEM_OBJECT_HOST, 0, NULL, &ev), CL_SUCCESS);
   CHECK_EQ_INT(clWaitForEvents(1, &ev), CL_SUCCESS);
   CHECK_EQ_INT(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, NULL), CL_SUCCESS);
   CHECK_EQ_INT(type, CL_COMMAND_MIGRATEMEM_INTEL);
   clReleaseEvent(ev);
   CHECK_EQ_INT(migrate_intel(q, s, N, 0, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(advise_intel(q, s, N, 0, 0, NULL, &ev), CL_SUCCESS);
   CHECK_EQ_INT(clWaitForEvents(1, &ev), CL_SUCCESS);
   CHECK_EQ_INT(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, NULL), CL_SUCCESS);
   CHECK_EQ_INT(type, CL_COMMAND_MEMADVISE_INTEL);
   clReleaseEvent(ev);
}

/* Pointers stored in memory: nodes in shared memory point at device and host memory. */
static void
test_indirect(cl_program prog, cl_int *h, cl_int *d, cl_int *s)
{
   cl_int err;
   struct node *nodes = shared_alloc(ctx, device, NULL, N * sizeof(*nodes), 0, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   if (!nodes)
      return;
   cl_int init[N];
   for (int i = 0; i < N; i++)
      init[i] = 7 * i;
   CHECK_EQ_INT(memcpy_intel(q, CL_TRUE, d, init, sizeof(init), 0, NULL, NULL), CL_SUCCESS);
   for (int i = 0; i < N; i++) {
      h[i] = -1;
      s[i] = -1;
      /* even nodes read device memory into host memory, odd ones host memory into shared */
      nodes[i] = (struct node){ .src = i % 2 ? h + N / 2 : d, .dst = i % 2 ? s : h, .add = i };
   }
   for (int i = N / 2; i < N; i++)
      h[i] = 5 * i; /* what odd node i reads: (h + N/2)[i] */
   cl_kernel k = kernel(prog, "walk");
   const cl_bool yes = CL_TRUE;
   CHECK_EQ_INT(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_INDIRECT_HOST_ACCESS_INTEL,
                                    sizeof(yes), &yes), CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_INDIRECT_DEVICE_ACCESS_INTEL,
                                    sizeof(yes), &yes), CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_INDIRECT_SHARED_ACCESS_INTEL,
                                    sizeof(yes), &yes), CL_SUCCESS);
   void *ptrs[] = { h, d, s };
   CHECK_EQ_INT(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL, sizeof(ptrs), ptrs),
                CL_SUCCESS);
   CHECK_EQ_INT(set_arg_ptr(k, 0, nodes), CL_SUCCESS);
   size_t gsz = N / 2; /* node i writes dst[i] for i < N/2: disjoint from what odd nodes read */
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 1, NULL, &gsz, NULL, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
   int bad = 0;
   for (int i = 0; i < N / 2; i++) {
      if (i % 2)
         bad += s[i] != 5 * (N / 2 + i) + i;
      else
         bad += h[i] != 7 * i + i;
   }
   CHECK_EQ_INT(bad, 0);
   /* the exec info's errors */
   CHECK_EQ_INT(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_INDIRECT_HOST_ACCESS_INTEL, 1, &yes),
                CL_INVALID_VALUE);
   CHECK_EQ_INT(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_INDIRECT_HOST_ACCESS_INTEL,
                                    sizeof(yes), NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL, 3, ptrs),
                CL_INVALID_VALUE);
   CHECK_EQ_INT(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL, 0, NULL), CL_SUCCESS);
   clReleaseKernel(k);
   CHECK_EQ_INT(mem_free(ctx, nodes), CL_SUCCESS);

   /* device atomics on host memory */
   cl_int *counter = host_alloc(ctx, NULL, sizeof(cl_int), 4, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   if (!counter)
      return;
   *counter = 5;
   k = kernel(prog, "count");
   CHECK_EQ_INT(set_arg_ptr(k, 0, counter), CL_SUCCESS);
   gsz = 1024;
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 1, NULL, &gsz, NULL, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
   CHECK_EQ_INT(*counter, 1029);
   clReleaseKernel(k);
   CHECK_EQ_INT(mem_free(ctx, counter), CL_SUCCESS);
}

/*
 * In-order ordering behind a host-run copy: a copy that waits for a kernel of another queue
 * runs on the host after its barrier packet retires, and the kernel after it on the same
 * queue must not start before the copy is done (the barrier bit alone let it: it read the
 * old last element of a 64 MiB copy).
 */
static void
test_copy_then_kernel(cl_program prog)
{
   cl_int err;
   const size_t n = (64u << 20) / sizeof(cl_int);
   cl_int *src = malloc(n * sizeof(cl_int));
   cl_int *dst = shared_alloc(ctx, device, NULL, n * sizeof(cl_int), 0, &err);
   cl_int *out = shared_alloc(ctx, device, NULL, 2 * sizeof(cl_int), 0, &err);
   cl_command_queue other = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
   if (!src || !dst || !out || !other) {
      CHECK(!"allocations for the ordering test");
      return;
   }
   cl_kernel mark = kernel(prog, "mark"), scale = kernel(prog, "scale");
   for (int round = 0; round < 3; round++) {
      for (size_t i = 0; i < n; i++)
         src[i] = (cl_int)i + round;
      dst[n - 1] = -1;
      out[0] = -2;
      /* a kernel on the other queue, which the copy waits for */
      cl_int v = round;
      set_arg_ptr(mark, 0, out + 1);
      clSetKernelArg(mark, 1, sizeof(v), &v);
      size_t one = 1;
      cl_event kev;
      CHECK_EQ_INT(clEnqueueNDRangeKernel(other, mark, 1, NULL, &one, NULL, 0, NULL, &kev),
                   CL_SUCCESS);
      CHECK_EQ_INT(memcpy_intel(q, CL_FALSE, dst, src, n * sizeof(cl_int), 1, &kev, NULL),
                   CL_SUCCESS);
      /* out[0] = dst[n - 1] * 3 + 1 */
      set_arg_ptr(scale, 0, dst + n - 1);
      set_arg_ptr(scale, 1, out);
      CHECK_EQ_INT(clEnqueueNDRangeKernel(q, scale, 1, NULL, &one, NULL, 0, NULL, NULL),
                   CL_SUCCESS);
      CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
      CHECK_EQ_INT(out[0], ((cl_int)(n - 1) + round) * 3 + 1);
      clReleaseEvent(kev);
   }
   clReleaseKernel(mark);
   clReleaseKernel(scale);
   clReleaseCommandQueue(other);
   mem_free(ctx, dst);
   mem_free(ctx, out);
   free(src);
}

struct release_arg {
   cl_event ev;
   double delay;
};

static void *
release_later(void *p)
{
   struct release_arg *a = p;
   usleep((useconds_t)(a->delay * 1e6));
   clSetUserEventStatus(a->ev, CL_COMPLETE);
   return NULL;
}

/* clMemBlockingFreeINTEL waits for a kernel using the allocation, held on a user event. */
static void
test_blocking_free(cl_program prog)
{
   cl_int err;
   cl_int *d = device_alloc(ctx, device, NULL, 64 * sizeof(cl_int), 0, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   if (!d)
      return;
   cl_event user = clCreateUserEvent(ctx, &err), kev;
   cl_kernel k = kernel(prog, "mark");
   cl_int v = 9;
   CHECK_EQ_INT(set_arg_ptr(k, 0, d), CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArg(k, 1, sizeof(v), &v), CL_SUCCESS);
   size_t gsz = 64;
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 1, NULL, &gsz, NULL, 1, &user, &kev), CL_SUCCESS);
   struct release_arg a = { user, 0.3 };
   pthread_t t;
   double t0 = test_now_s();
   pthread_create(&t, NULL, release_later, &a);
   CHECK_EQ_INT(blocking_free(ctx, d), CL_SUCCESS);
   double waited = test_now_s() - t0;
   cl_int status = 1;
   CHECK_EQ_INT(clGetEventInfo(kev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status,
                               NULL), CL_SUCCESS);
   CHECK_EQ_INT(status, CL_COMPLETE);
   CHECK(waited >= 0.25);
   pthread_join(t, NULL);
   CHECK_EQ_INT(mem_free(ctx, d), CL_INVALID_VALUE); /* freed */
   clReleaseEvent(kev);
   clReleaseEvent(user);
   clReleaseKernel(k);
}

static void
test_alloc_errors(void)
{
   cl_int err = 0;
   cl_ulong max = 0;
   clGetDeviceInfo(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof(max), &max, NULL);
   CHECK(!host_alloc(NULL, NULL, 16, 0, &err) && err == CL_INVALID_CONTEXT);
   CHECK(!device_alloc(ctx, NULL, NULL, 16, 0, &err) && err == CL_INVALID_DEVICE);
   CHECK(!device_alloc(ctx, (cl_device_id)ctx, NULL, 16, 0, &err) && err == CL_INVALID_DEVICE);
   CHECK(!shared_alloc(ctx, (cl_device_id)q, NULL, 16, 0, &err) && err == CL_INVALID_DEVICE);
   CHECK(!host_alloc(ctx, NULL, 16, 3, &err) && err == CL_INVALID_VALUE);
   CHECK(!device_alloc(ctx, device, NULL, 16, 256, &err) && err == CL_INVALID_VALUE);
   CHECK(!shared_alloc(ctx, device, NULL, 0, 0, &err) && err == CL_INVALID_BUFFER_SIZE);
   CHECK(!host_alloc(ctx, NULL, (size_t)max + 1, 0, &err) && err == CL_INVALID_BUFFER_SIZE);
   CHECK(!device_alloc(ctx, device, NULL, (size_t)max + 1, 0, &err) &&
         err == CL_INVALID_BUFFER_SIZE);
   const cl_mem_properties_intel unknown[] = { 0x1234, 0, 0 };
   CHECK(!host_alloc(ctx, unknown, 16, 0, &err) && err == CL_INVALID_PROPERTY);
   const cl_mem_properties_intel twice[] = { CL_MEM_ALLOC_FLAGS_INTEL, 0,
                                             CL_MEM_ALLOC_FLAGS_INTEL, 0, 0 };
   CHECK(!shared_alloc(ctx, device, twice, 16, 0, &err) && err == CL_INVALID_PROPERTY);
   const cl_mem_properties_intel wc[] = { CL_MEM_ALLOC_FLAGS_INTEL,
                                          CL_MEM_ALLOC_WRITE_COMBINED_INTEL, 0 };
   CHECK(!host_alloc(ctx, wc, 16, 0, &err) && err == CL_INVALID_PROPERTY);
   const cl_mem_properties_intel place[] = { CL_MEM_ALLOC_FLAGS_INTEL,
                                             CL_MEM_ALLOC_INITIAL_PLACEMENT_DEVICE_INTEL, 0 };
   CHECK(!host_alloc(ctx, place, 16, 0, &err) && err == CL_INVALID_PROPERTY);
   CHECK(!device_alloc(ctx, device, place, 16, 0, &err) && err == CL_INVALID_PROPERTY);
   const cl_mem_properties_intel both[] = { CL_MEM_ALLOC_FLAGS_INTEL,
                                            CL_MEM_ALLOC_INITIAL_PLACEMENT_DEVICE_INTEL |
                                               CL_MEM_ALLOC_INITIAL_PLACEMENT_HOST_INTEL, 0 };
   CHECK(!shared_alloc(ctx, device, both, 16, 0, &err) && err == CL_INVALID_PROPERTY);
   const cl_mem_properties_intel bits[] = { CL_MEM_ALLOC_FLAGS_INTEL, 1u << 7, 0 };
   CHECK(!shared_alloc(ctx, device, bits, 16, 0, &err) && err == CL_INVALID_PROPERTY);

   /* what succeeds: a placement hint on shared memory (reported back), no device,
    * alignments up to 128 */
   void *p = shared_alloc(ctx, device, place, 100, 128, &err);
   CHECK(p && err == CL_SUCCESS && (uintptr_t)p % 128 == 0);
   cl_mem_alloc_flags_intel f = 0;
   CHECK_EQ_INT(alloc_info(ctx, p, CL_MEM_ALLOC_FLAGS_INTEL, sizeof(f), &f, NULL), CL_SUCCESS);
   CHECK_EQ_INT(f, CL_MEM_ALLOC_INITIAL_PLACEMENT_DEVICE_INTEL);
   void *p2 = shared_alloc(ctx, NULL, NULL, 100, 0, &err);
   CHECK(p2 && err == CL_SUCCESS && (uintptr_t)p2 % 128 == 0);
   check_info(p2, CL_MEM_TYPE_SHARED_INTEL, p2, 100, NULL);
   /* frees */
   CHECK_EQ_INT(mem_free(NULL, p), CL_INVALID_CONTEXT);
   CHECK_EQ_INT(blocking_free(NULL, p), CL_INVALID_CONTEXT);
   CHECK_EQ_INT(mem_free(ctx, (char *)p + 4), CL_INVALID_VALUE);
   CHECK_EQ_INT(blocking_free(ctx, (char *)p + 4), CL_INVALID_VALUE);
   CHECK_EQ_INT(mem_free(ctx, &err), CL_INVALID_VALUE);
   CHECK_EQ_INT(mem_free(ctx, NULL), CL_SUCCESS);
   CHECK_EQ_INT(blocking_free(ctx, NULL), CL_SUCCESS);
   CHECK_EQ_INT(mem_free(ctx, p), CL_SUCCESS);
   CHECK_EQ_INT(blocking_free(ctx, p2), CL_SUCCESS);
   CHECK_EQ_INT(mem_free(ctx, p), CL_INVALID_VALUE);
}

static void
test_command_errors(cl_program prog, cl_int *h, cl_int *d)
{
   cl_int v = 0, host[4];
   cl_event user = clCreateUserEvent(ctx, NULL);
   cl_context other = clCreateContext(NULL, 1, &device, NULL, NULL, NULL);
   cl_event foreign = clCreateUserEvent(other, NULL);
   CHECK_EQ_INT(memcpy_intel(NULL, CL_TRUE, d, h, 4, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
   CHECK_EQ_INT(memcpy_intel(q, CL_TRUE, d, h, 4, 1, &foreign, NULL), CL_INVALID_CONTEXT);
   CHECK_EQ_INT(memcpy_intel(q, CL_TRUE, NULL, h, 4, 0, NULL, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(memcpy_intel(q, CL_TRUE, d, NULL, 4, 0, NULL, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(memcpy_intel(q, CL_TRUE, d, h, 4, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
   CHECK_EQ_INT(memcpy_intel(q, CL_TRUE, d, h, 4, 0, &user, NULL), CL_INVALID_EVENT_WAIT_LIST);
   CHECK_EQ_INT(memcpy_intel(q, CL_TRUE, d + 1, d, 8, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
   CHECK_EQ_INT(memcpy_intel(q, CL_TRUE, host, d + N - 1, 8, 0, NULL, NULL), CL_INVALID_VALUE);
   /* a failed dependency of a blocking copy */
   cl_event failed = clCreateUserEvent(ctx, NULL);
   clSetUserEventStatus(failed, -5);
   CHECK_EQ_INT(memcpy_intel(q, CL_TRUE, host, d, 4, 1, &failed, NULL),
                CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
   clReleaseEvent(failed);

   CHECK_EQ_INT(fill_intel(q, NULL, &v, 4, 4, 0, NULL, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(fill_intel(q, (char *)d + 2, &v, 4, 4, 0, NULL, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(fill_intel(q, d, NULL, 4, 4, 0, NULL, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(fill_intel(q, d, &v, 3, 6, 0, NULL, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(fill_intel(q, d, &v, 256, 256, 0, NULL, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(fill_intel(q, d, &v, 4, 6, 0, NULL, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(fill_intel(q, host, &v, 4, 4, 0, NULL, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(fill_intel(q, d + N - 1, &v, 4, 8, 0, NULL, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(fill_intel(q, d, &v, 4, 4, 0, &user, NULL), CL_INVALID_EVENT_WAIT_LIST);
   CHECK_EQ_INT(fill_intel(q, d, &v, 4, 4, 1, &foreign, NULL), CL_INVALID_CONTEXT);
   CHECK_EQ_INT(memset_intel(NULL, d, 0, 4, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
   CHECK_EQ_INT(migrate_intel(q, d, 4, 0x80, 0, NULL, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(migrate_intel(q, d, 4, 0, 1, &foreign, NULL), CL_INVALID_CONTEXT);
   CHECK_EQ_INT(migrate_intel(q, d, 4, 0, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
   CHECK_EQ_INT(advise_intel(q, d, 4, 1, 0, NULL, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(advise_intel(NULL, d, 4, 0, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);

   cl_kernel k = kernel(prog, "mark");
   CHECK_EQ_INT(set_arg_ptr(NULL, 0, d), CL_INVALID_KERNEL);
   CHECK_EQ_INT(set_arg_ptr(k, 2, d), CL_INVALID_ARG_INDEX);
   CHECK_EQ_INT(set_arg_ptr(k, 1, d), CL_INVALID_ARG_INDEX); /* int v */
   CHECK_EQ_INT(set_arg_ptr(k, 0, (void *)0x1234), CL_SUCCESS); /* any value (1.1.0) */
   CHECK_EQ_INT(set_arg_ptr(k, 0, NULL), CL_SUCCESS);
   clReleaseKernel(k);
   clSetUserEventStatus(user, CL_COMPLETE);
   clReleaseEvent(user);
   clReleaseEvent(foreign);
   clReleaseContext(other);
}

/* The 1.2 profile: no extension, no functions. */
static void
test_not_reported(void)
{
   CHECK(!test_device_lists(device, CL_DEVICE_EXTENSIONS, "cl_intel_unified_shared_memory"));
   CHECK(host_alloc == NULL && device_alloc == NULL && memcpy_intel == NULL);
   cl_bitfield c;
   CHECK_EQ_INT(clGetDeviceInfo(device, CL_DEVICE_HOST_MEM_CAPABILITIES_INTEL, sizeof(c), &c,
                                NULL), CL_INVALID_VALUE);
}

int
main(int argc, char **argv)
{
   test_watchdog("api_usm", 240);
   const bool cl12 = argc > 1 && !strcmp(argv[1], "1.2");
   if (!setup()) {
      fprintf(stderr, "no OpenCL GPU\n");
      return 1;
   }
   if (cl12) {
      test_not_reported();
      goto out;
   }
   CHECK(test_device_lists(device, CL_DEVICE_EXTENSIONS, "cl_intel_unified_shared_memory"));
   CHECK(host_alloc && device_alloc && shared_alloc && mem_free && blocking_free && alloc_info &&
         set_arg_ptr && memcpy_intel && fill_intel && memset_intel && migrate_intel &&
         advise_intel);
   if (!host_alloc || !advise_intel)
      goto out;
   test_queries();
   cl_int err;
   cl_program prog = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
   CHECK_EQ_INT(clBuildProgram(prog, 1, &device, NULL, NULL, NULL), CL_SUCCESS);
   cl_int *h = host_alloc(ctx, NULL, N * sizeof(cl_int), 0, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_int *d = device_alloc(ctx, device, NULL, N * sizeof(cl_int), 64, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_int *s = shared_alloc(ctx, device, NULL, N * sizeof(cl_int), 0, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   if (h && d && s) {
      CHECK((uintptr_t)h % 128 == 0 && (uintptr_t)d % 64 == 0 && (uintptr_t)s % 128 == 0);
      test_alloc_info(h, d, s);
      test_copies_and_kernel(prog, h, d, s);
      test_indirect(prog, h, d, s);
      test_command_errors(prog, h, d);
   }
   test_copy_then_kernel(prog);
   test_blocking_free(prog);
   test_alloc_errors();
   CHECK_EQ_INT(mem_free(ctx, h), CL_SUCCESS);
   CHECK_EQ_INT(mem_free(ctx, d), CL_SUCCESS);
   CHECK_EQ_INT(blocking_free(ctx, s), CL_SUCCESS);
   clReleaseProgram(prog);
out:
   clReleaseCommandQueue(q);
   clReleaseContext(ctx);
   return test_main_end();
}
