/*
 * tests/memory/api_memory_test.c — buffer, sub-buffer and SVM allocation entry points
 * through the system ICD loader (OCL_ICD_VENDORS points at the build tree): every
 * clCreateBuffer flag combination with and without a host pointer, error codes and their
 * order (OpenCL 3.0 API §5.2.1, §5.2.2, §5.6.1), every clGetMemObjectInfo query with the
 * size-query protocol, reference counts and the objects' lifetimes (sub-buffer on parent,
 * buffer on context), destructor-callback order, large allocations, concurrent use.
 * Buffer contents are not read: that needs the enqueue functions (tests/).
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <unistd.h>
#include "hsacl_test.h"

static cl_platform_id platform;
static cl_device_id device;
static cl_context context;
static cl_ulong max_alloc;
static size_t base_align; /* CL_DEVICE_MEM_BASE_ADDR_ALIGN in bytes */

#define ACCESS (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY)
#define HOST_ACCESS (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)

static int
popcount(cl_mem_flags f)
{
   return __builtin_popcountll(f);
}

/* The size-query protocol for one query: size alone, exact size, too small, both NULL. */
static void
check_info_protocol(cl_mem mem, cl_mem_info param)
{
   size_t size = 0;
   cl_int err = clGetMemObjectInfo(mem, param, 0, NULL, &size);
   if (err != CL_SUCCESS) {
      fprintf(stderr, "clGetMemObjectInfo 0x%x: size query returned %d\n", param, err);
      test_failed++;
      return;
   }
   test_passed++;
   unsigned char *buf = malloc(size + 16);
   size_t got = 12345;
   memset(buf, 0xa5, size + 16);
   CHECK_EQ_INT(clGetMemObjectInfo(mem, param, size, buf, &got), CL_SUCCESS);
   CHECK_EQ_INT(got, size);
   CHECK(buf[size] == 0xa5); /* nothing written past the value */
   CHECK_EQ_INT(clGetMemObjectInfo(mem, param, size + 16, buf, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clGetMemObjectInfo(mem, param, 0, NULL, NULL), CL_SUCCESS);
   if (size > 0)
      CHECK_EQ_INT(clGetMemObjectInfo(mem, param, size - 1, buf, &got), CL_INVALID_VALUE);
   free(buf);
}

static const cl_mem_info all_queries[] = {
   CL_MEM_TYPE,       CL_MEM_FLAGS,
   CL_MEM_SIZE,       CL_MEM_HOST_PTR,
   CL_MEM_MAP_COUNT,  CL_MEM_REFERENCE_COUNT,
   CL_MEM_CONTEXT,    CL_MEM_ASSOCIATED_MEMOBJECT,
   CL_MEM_OFFSET,     CL_MEM_USES_SVM_POINTER,
   CL_MEM_PROPERTIES,
};

static cl_mem_flags
get_flags(cl_mem m)
{
   cl_mem_flags f = 0;
   clGetMemObjectInfo(m, CL_MEM_FLAGS, sizeof(f), &f, NULL);
   return f;
}

static void *
get_host_ptr(cl_mem m)
{
   void *p = (void *)1;
   clGetMemObjectInfo(m, CL_MEM_HOST_PTR, sizeof(p), &p, NULL);
   return p;
}

static cl_uint
get_refcount(cl_mem m)
{
   cl_uint n = 0;
   clGetMemObjectInfo(m, CL_MEM_REFERENCE_COUNT, sizeof(n), &n, NULL);
   return n;
}

static void
setup(void)
{
   CHECK_EQ_INT(clGetPlatformIDs(1, &platform, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &device, NULL), CL_SUCCESS);
   cl_int err = -1;
   context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   CHECK_EQ_INT(
      clGetDeviceInfo(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof(max_alloc), &max_alloc, NULL),
      CL_SUCCESS);
   cl_uint bits = 0;
   CHECK_EQ_INT(clGetDeviceInfo(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof(bits), &bits, NULL),
                CL_SUCCESS);
   base_align = bits / 8;
   CHECK(base_align >= 8);
}

/* ---- clCreateBuffer: flags and host_ptr ---------------------------------------------- */

/* §5.2.1 "Memory flags": which combinations are invalid, and the host_ptr rule. */
static cl_int
expected_create(cl_mem_flags f, bool with_ptr)
{
   if (popcount(f & ACCESS) > 1 || popcount(f & HOST_ACCESS) > 1 ||
       ((f & CL_MEM_USE_HOST_PTR) && (f & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR))))
      return CL_INVALID_VALUE;
   bool wants = f & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
   if (wants != with_ptr)
      return CL_INVALID_HOST_PTR;
   return CL_SUCCESS;
}

static void
test_flag_combinations(void)
{
   static const cl_mem_flags bits[] = {
      CL_MEM_READ_WRITE,      CL_MEM_WRITE_ONLY,     CL_MEM_READ_ONLY,
      CL_MEM_USE_HOST_PTR,    CL_MEM_ALLOC_HOST_PTR, CL_MEM_COPY_HOST_PTR,
      CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_READ_ONLY, CL_MEM_HOST_NO_ACCESS,
   };
   enum { NBITS = sizeof(bits) / sizeof(bits[0]) };
   static char host[8192] __attribute__((aligned(4096)));
   unsigned mismatches = 0, created = 0;
   for (unsigned combo = 0; combo < (1u << NBITS); combo++) {
      cl_mem_flags f = 0;
      for (unsigned b = 0; b < NBITS; b++)
         if (combo & (1u << b))
            f |= bits[b];
      for (int with_ptr = 0; with_ptr < 2; with_ptr++) {
         cl_int err = 12345;
         cl_mem m = clCreateBuffer(context, f, 4096, with_ptr ? host : NULL, &err);
         cl_int want = expected_create(f, with_ptr);
         if (err != want || (want == CL_SUCCESS) != (m != NULL)) {
            if (mismatches++ < 10)
               fprintf(stderr, "flags 0x%llx ptr %d: got %d (%p), want %d\n", (unsigned long long)f,
                       with_ptr, err, (void *)m, want);
         }
         if (m) {
            created++;
            cl_mem_flags want_flags = f & ACCESS ? f : f | CL_MEM_READ_WRITE;
            if (get_flags(m) != want_flags && mismatches++ < 10)
               fprintf(stderr, "flags 0x%llx: CL_MEM_FLAGS 0x%llx\n", (unsigned long long)f,
                       (unsigned long long)get_flags(m));
            void *want_ptr = f & CL_MEM_USE_HOST_PTR ? host : NULL;
            if (get_host_ptr(m) != want_ptr && mismatches++ < 10)
               fprintf(stderr, "flags 0x%llx: CL_MEM_HOST_PTR %p\n", (unsigned long long)f,
                       get_host_ptr(m));
            clReleaseMemObject(m);
         }
      }
   }
   CHECK_EQ_INT(mismatches, 0);
   CHECK(created > 0);
   /* Flags and host_ptr for the same combination with the errcode_ret omitted. */
   cl_mem m = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, 100, host, NULL);
   CHECK(m != NULL);
   clReleaseMemObject(m);
}

static void
test_create_errors(void)
{
   static char host[4096];
   cl_int err;
   /* Unknown bits, including SVM flags, which are not buffer flags. */
   static const cl_mem_flags bad[] = { 1ull << 6, CL_MEM_SVM_FINE_GRAIN_BUFFER, CL_MEM_SVM_ATOMICS,
                                       1ull << 20, 1ull << 40 };
   for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
      err = 0;
      CHECK(clCreateBuffer(context, bad[i], 64, NULL, &err) == NULL);
      CHECK_EQ_INT(err, CL_INVALID_VALUE);
   }
   /* Size. */
   err = 0;
   CHECK(clCreateBuffer(context, 0, 0, NULL, &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_BUFFER_SIZE);
   err = 0;
   CHECK(clCreateBuffer(context, 0, (size_t)max_alloc + 1, NULL, &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_BUFFER_SIZE);
   err = 0;
   CHECK(clCreateBuffer(context, 0, SIZE_MAX, NULL, &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_BUFFER_SIZE);
   /* Wrong-type context handle (a device): CL_INVALID_CONTEXT. */
   err = 0;
   CHECK(clCreateBuffer((cl_context)device, 0, 64, NULL, &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_CONTEXT);

   /* Order of §5.2.1: context, property, value, buffer size, host ptr. */
   const cl_mem_properties bad_props[] = { 0x4242, 1, 0 };
   err = 0;
   CHECK(clCreateBufferWithProperties((cl_context)device, bad_props, 7, 0, host, &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_CONTEXT);
   err = 0;
   CHECK(clCreateBufferWithProperties(context, bad_props, 7, 0, host, &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_PROPERTY);
   err = 0;
   CHECK(clCreateBufferWithProperties(context, NULL, 7, 0, host, &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_VALUE);
   err = 0;
   CHECK(clCreateBuffer(context, CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR, 0, NULL, &err) ==
         NULL);
   CHECK_EQ_INT(err, CL_INVALID_VALUE);
   err = 0;
   CHECK(clCreateBuffer(context, CL_MEM_READ_WRITE, 0, host, &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_BUFFER_SIZE);
   err = 0;
   CHECK(clCreateBuffer(context, CL_MEM_USE_HOST_PTR, 0, NULL, &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_BUFFER_SIZE);
   err = 0;
   CHECK(clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, 64, NULL, &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_HOST_PTR);
   err = 0;
   CHECK(clCreateBuffer(context, CL_MEM_ALLOC_HOST_PTR, 64, host, &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_HOST_PTR);
}

static void
test_properties(void)
{
   cl_int err = -1;
   size_t size = 99;
   /* NULL: no properties, size 0. */
   cl_mem m = clCreateBufferWithProperties(context, NULL, 0, 64, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   CHECK_EQ_INT(clGetMemObjectInfo(m, CL_MEM_PROPERTIES, 0, NULL, &size), CL_SUCCESS);
   CHECK_EQ_INT(size, 0);
   clReleaseMemObject(m);
   /* clCreateBuffer: size 0 too. */
   m = clCreateBuffer(context, 0, 64, NULL, &err);
   size = 99;
   CHECK_EQ_INT(clGetMemObjectInfo(m, CL_MEM_PROPERTIES, 0, NULL, &size), CL_SUCCESS);
   CHECK_EQ_INT(size, 0);
   clReleaseMemObject(m);
   /* An empty list: returned as given. */
   const cl_mem_properties empty[] = { 0 };
   m = clCreateBufferWithProperties(context, empty, CL_MEM_READ_ONLY, 64, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_mem_properties got[2] = { 77, 77 };
   CHECK_EQ_INT(clGetMemObjectInfo(m, CL_MEM_PROPERTIES, sizeof(got), got, &size), CL_SUCCESS);
   CHECK_EQ_INT(size, sizeof(cl_mem_properties));
   CHECK_EQ_INT(got[0], 0);
   CHECK_EQ_INT(got[1], 77);
   check_info_protocol(m, CL_MEM_PROPERTIES);
   clReleaseMemObject(m);
   /* Unknown names. */
   const cl_mem_properties unknown[] = { CL_MEM_FLAGS, CL_MEM_READ_WRITE, 0 };
   err = 0;
   CHECK(clCreateBufferWithProperties(context, unknown, 0, 64, NULL, &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_PROPERTY);
}

/* ---- clGetMemObjectInfo -------------------------------------------------------------- */

static void
test_info(void)
{
   static char host[8192];
   cl_int err = -1;
   cl_mem m = clCreateBuffer(context, CL_MEM_USE_HOST_PTR | CL_MEM_HOST_READ_ONLY, sizeof(host),
                             host, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   for (unsigned i = 0; i < sizeof(all_queries) / sizeof(all_queries[0]); i++)
      check_info_protocol(m, all_queries[i]);

   cl_mem_object_type type = 0;
   CHECK_EQ_INT(clGetMemObjectInfo(m, CL_MEM_TYPE, sizeof(type), &type, NULL), CL_SUCCESS);
   CHECK_EQ_INT(type, CL_MEM_OBJECT_BUFFER);
   CHECK_EQ_INT(get_flags(m), CL_MEM_USE_HOST_PTR | CL_MEM_HOST_READ_ONLY | CL_MEM_READ_WRITE);
   size_t size = 0;
   CHECK_EQ_INT(clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof(size), &size, NULL), CL_SUCCESS);
   CHECK_EQ_INT(size, sizeof(host));
   CHECK(get_host_ptr(m) == host);
   cl_uint maps = 99;
   CHECK_EQ_INT(clGetMemObjectInfo(m, CL_MEM_MAP_COUNT, sizeof(maps), &maps, NULL), CL_SUCCESS);
   CHECK_EQ_INT(maps, 0);
   CHECK_EQ_INT(get_refcount(m), 1);
   cl_context ctx = NULL;
   CHECK_EQ_INT(clGetMemObjectInfo(m, CL_MEM_CONTEXT, sizeof(ctx), &ctx, NULL), CL_SUCCESS);
   CHECK(ctx == context);
   cl_mem assoc = (cl_mem)1;
   CHECK_EQ_INT(clGetMemObjectInfo(m, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof(assoc), &assoc, NULL),
                CL_SUCCESS);
   CHECK(assoc == NULL);
   size_t offset = 99;
   CHECK_EQ_INT(clGetMemObjectInfo(m, CL_MEM_OFFSET, sizeof(offset), &offset, NULL), CL_SUCCESS);
   CHECK_EQ_INT(offset, 0);
   cl_bool svm = CL_TRUE;
   CHECK_EQ_INT(clGetMemObjectInfo(m, CL_MEM_USES_SVM_POINTER, sizeof(svm), &svm, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(svm, CL_FALSE);

   /* Errors. */
   CHECK_EQ_INT(clGetMemObjectInfo(m, 0x1234, sizeof(size), &size, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(clGetMemObjectInfo(m, CL_IMAGE_FORMAT, sizeof(size), &size, NULL),
                CL_INVALID_VALUE);
   CHECK_EQ_INT(clGetMemObjectInfo((cl_mem)context, CL_MEM_SIZE, sizeof(size), &size, NULL),
                CL_INVALID_MEM_OBJECT);
   CHECK_EQ_INT(clReleaseMemObject(m), CL_SUCCESS);

   /* ALLOC_HOST_PTR and COPY_HOST_PTR buffers report no host pointer. */
   m = clCreateBuffer(context, CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR, 100, host, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   CHECK(get_host_ptr(m) == NULL);
   clReleaseMemObject(m);
   m = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, 100, host, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   CHECK(get_host_ptr(m) == NULL);
   clReleaseMemObject(m);
}

/* ---- reference counts and destructor callbacks --------------------------------------- */

static int order_log[16];
static unsigned order_count;
static cl_mem order_mem[16];

static void CL_CALLBACK
record_destructor(cl_mem memobj, void *user_data)
{
   if (order_count < 16) {
      order_mem[order_count] = memobj;
      order_log[order_count++] = (int)(intptr_t)user_data;
   }
}

static void
test_refcount_and_destructors(void)
{
   cl_int err = -1;
   cl_mem m = clCreateBuffer(context, 0, 256, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   CHECK_EQ_INT(get_refcount(m), 1);
   CHECK_EQ_INT(clRetainMemObject(m), CL_SUCCESS);
   CHECK_EQ_INT(get_refcount(m), 2);
   CHECK_EQ_INT(clSetMemObjectDestructorCallback(m, NULL, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(clSetMemObjectDestructorCallback((cl_mem)context, record_destructor, NULL),
                CL_INVALID_MEM_OBJECT);
   order_count = 0;
   for (int i = 1; i <= 3; i++)
      CHECK_EQ_INT(clSetMemObjectDestructorCallback(m, record_destructor, (void *)(intptr_t)i),
                   CL_SUCCESS);
   CHECK_EQ_INT(clReleaseMemObject(m), CL_SUCCESS);
   CHECK_EQ_INT(get_refcount(m), 1);
   CHECK_EQ_INT(order_count, 0);
   CHECK_EQ_INT(clReleaseMemObject(m), CL_SUCCESS);
   /* §5.5.1: reverse order of registration, with the object's handle. */
   CHECK_EQ_INT(order_count, 3);
   CHECK_EQ_INT(order_log[0], 3);
   CHECK_EQ_INT(order_log[1], 2);
   CHECK_EQ_INT(order_log[2], 1);
   CHECK(order_mem[0] == m && order_mem[2] == m);
   /* A stale handle is rejected. */
   CHECK_EQ_INT(clRetainMemObject((cl_mem)context), CL_INVALID_MEM_OBJECT);
   CHECK_EQ_INT(clReleaseMemObject((cl_mem)device), CL_INVALID_MEM_OBJECT);

   /* USE_HOST_PTR: the callback tells the application it may free host_ptr. */
   char *host = malloc(10000);
   m = clCreateBuffer(context, CL_MEM_USE_HOST_PTR, 10000, host, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   CHECK(get_host_ptr(m) == host);
   order_count = 0;
   clSetMemObjectDestructorCallback(m, record_destructor, (void *)7);
   clReleaseMemObject(m);
   CHECK_EQ_INT(order_count, 1);
   free(host);
}

static unsigned context_destroyed;

static void CL_CALLBACK
context_destructor(cl_context ctx, void *user_data)
{
   context_destroyed++;
}

/* A buffer keeps its context alive: the context goes when its last buffer does. */
static void
test_context_lifetime(void)
{
   cl_int err = -1;
   cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   context_destroyed = 0;
   CHECK_EQ_INT(clSetContextDestructorCallback(ctx, context_destructor, NULL), CL_SUCCESS);
   cl_mem m = clCreateBuffer(ctx, 0, 4096, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_mem_properties props[] = { 0 };
   cl_mem m2 = clCreateBufferWithProperties(ctx, props, CL_MEM_ALLOC_HOST_PTR, 4096, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   CHECK_EQ_INT(clReleaseContext(ctx), CL_SUCCESS);
   CHECK_EQ_INT(context_destroyed, 0);
   cl_context got = NULL;
   CHECK_EQ_INT(clGetMemObjectInfo(m, CL_MEM_CONTEXT, sizeof(got), &got, NULL), CL_SUCCESS);
   CHECK(got == ctx);
   clReleaseMemObject(m);
   CHECK_EQ_INT(context_destroyed, 0);
   clReleaseMemObject(m2);
   CHECK_EQ_INT(context_destroyed, 1);
}

/* ---- sub-buffers --------------------------------------------------------------------- */

static cl_mem
sub(cl_mem parent, cl_mem_flags flags, size_t origin, size_t size, cl_int *err)
{
   cl_buffer_region r = { origin, size };
   *err = 12345;
   return clCreateSubBuffer(parent, flags, CL_BUFFER_CREATE_TYPE_REGION, &r, err);
}

static void
expect_sub_error(cl_mem parent, cl_mem_flags flags, size_t origin, size_t size, cl_int want,
                 int line)
{
   cl_int err;
   cl_mem m = sub(parent, flags, origin, size, &err);
   if (m || err != want) {
      fprintf(stderr, "%s:%d: sub-buffer flags 0x%llx [%zu, +%zu): got %d (%p), want %d\n",
              __FILE__, line, (unsigned long long)flags, origin, size, err, (void *)m, want);
      test_failed++;
      if (m)
         clReleaseMemObject(m);
   } else {
      test_passed++;
   }
}
#define EXPECT_SUB_ERROR(p, f, o, s, want) expect_sub_error(p, f, o, s, want, __LINE__)

static void
test_sub_buffer_errors(void)
{
   cl_int err;
   const size_t size = 64 * base_align;
   cl_mem rw = clCreateBuffer(context, CL_MEM_READ_WRITE, size, NULL, &err);
   cl_mem wo =
      clCreateBuffer(context, CL_MEM_WRITE_ONLY | CL_MEM_HOST_WRITE_ONLY, size, NULL, &err);
   cl_mem ro = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_HOST_READ_ONLY, size, NULL, &err);
   cl_mem na = clCreateBuffer(context, CL_MEM_HOST_NO_ACCESS, size, NULL, &err);
   CHECK(rw && wo && ro && na);

   /* CL_INVALID_MEM_OBJECT: a sub-buffer or a non-buffer as parent. */
   cl_mem s = sub(rw, 0, base_align, base_align, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   EXPECT_SUB_ERROR(s, 0, 0, base_align, CL_INVALID_MEM_OBJECT);
   EXPECT_SUB_ERROR((cl_mem)context, 0, 0, base_align, CL_INVALID_MEM_OBJECT);
   /* ... before every CL_INVALID_VALUE. */
   EXPECT_SUB_ERROR(s, CL_MEM_USE_HOST_PTR, 1, 0, CL_INVALID_MEM_OBJECT);
   clReleaseMemObject(s);

   /* Host-pointer and unknown flags. */
   EXPECT_SUB_ERROR(rw, CL_MEM_USE_HOST_PTR, 0, base_align, CL_INVALID_VALUE);
   EXPECT_SUB_ERROR(rw, CL_MEM_ALLOC_HOST_PTR, 0, base_align, CL_INVALID_VALUE);
   EXPECT_SUB_ERROR(rw, CL_MEM_COPY_HOST_PTR, 0, base_align, CL_INVALID_VALUE);
   EXPECT_SUB_ERROR(rw, 1ull << 30, 0, base_align, CL_INVALID_VALUE);
   EXPECT_SUB_ERROR(rw, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 0, base_align, CL_INVALID_VALUE);
   EXPECT_SUB_ERROR(rw, CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS, 0, base_align,
                    CL_INVALID_VALUE);
   /* Access flags against the parent's. */
   EXPECT_SUB_ERROR(wo, CL_MEM_READ_WRITE, 0, base_align, CL_INVALID_VALUE);
   EXPECT_SUB_ERROR(wo, CL_MEM_READ_ONLY, 0, base_align, CL_INVALID_VALUE);
   EXPECT_SUB_ERROR(ro, CL_MEM_READ_WRITE, 0, base_align, CL_INVALID_VALUE);
   EXPECT_SUB_ERROR(ro, CL_MEM_WRITE_ONLY, 0, base_align, CL_INVALID_VALUE);
   /* Host access flags against the parent's. */
   EXPECT_SUB_ERROR(wo, CL_MEM_HOST_READ_ONLY, 0, base_align, CL_INVALID_VALUE);
   EXPECT_SUB_ERROR(ro, CL_MEM_HOST_WRITE_ONLY, 0, base_align, CL_INVALID_VALUE);
   EXPECT_SUB_ERROR(na, CL_MEM_HOST_READ_ONLY, 0, base_align, CL_INVALID_VALUE);
   EXPECT_SUB_ERROR(na, CL_MEM_HOST_WRITE_ONLY, 0, base_align, CL_INVALID_VALUE);
   /* Create type and info. */
   cl_buffer_region r = { 0, base_align };
   err = 0;
   CHECK(clCreateSubBuffer(rw, 0, 0x1235, &r, &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_VALUE);
   err = 0;
   CHECK(clCreateSubBuffer(rw, 0, CL_BUFFER_CREATE_TYPE_REGION, NULL, &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_VALUE);
   /* Region outside the parent (CL_INVALID_VALUE), before alignment and size. */
   EXPECT_SUB_ERROR(rw, 0, size, 1, CL_INVALID_VALUE);
   EXPECT_SUB_ERROR(rw, 0, 0, size + 1, CL_INVALID_VALUE);
   EXPECT_SUB_ERROR(rw, 0, base_align, SIZE_MAX, CL_INVALID_VALUE);
   EXPECT_SUB_ERROR(rw, 0, SIZE_MAX - 1, 2, CL_INVALID_VALUE);
   EXPECT_SUB_ERROR(rw, 0, 1, size, CL_INVALID_VALUE);
   /* Alignment, before size 0. */
   EXPECT_SUB_ERROR(rw, 0, 1, 8, CL_MISALIGNED_SUB_BUFFER_OFFSET);
   EXPECT_SUB_ERROR(rw, 0, base_align / 2, 8, CL_MISALIGNED_SUB_BUFFER_OFFSET);
   EXPECT_SUB_ERROR(rw, 0, 1, 0, CL_MISALIGNED_SUB_BUFFER_OFFSET);
   EXPECT_SUB_ERROR(rw, 0, base_align, 0, CL_INVALID_BUFFER_SIZE);
   EXPECT_SUB_ERROR(rw, 0, size, 0, CL_INVALID_BUFFER_SIZE);

   /* Valid: the whole parent; the last aligned byte; narrower host access. */
   s = sub(rw, 0, 0, size, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   clReleaseMemObject(s);
   s = sub(rw, 0, size - base_align, base_align, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   clReleaseMemObject(s);
   s = sub(wo, CL_MEM_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS, 0, 16, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   CHECK_EQ_INT(get_flags(s), CL_MEM_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS);
   clReleaseMemObject(s);
   s = sub(ro, CL_MEM_HOST_READ_ONLY, 0, 16, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   CHECK_EQ_INT(get_flags(s), CL_MEM_READ_ONLY | CL_MEM_HOST_READ_ONLY);
   clReleaseMemObject(s);
   s = sub(rw, CL_MEM_READ_ONLY, 0, 16, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   CHECK_EQ_INT(get_flags(s), CL_MEM_READ_ONLY);
   clReleaseMemObject(s);

   clReleaseMemObject(rw);
   clReleaseMemObject(wo);
   clReleaseMemObject(ro);
   clReleaseMemObject(na);
}

static void
test_sub_buffer_objects(void)
{
   cl_int err;
   const size_t size = 16 * base_align;
   char *host = aligned_alloc(4096, size);
   cl_mem parent = clCreateBuffer(
      context, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR | CL_MEM_HOST_WRITE_ONLY, size, host, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_mem s = sub(parent, 0, 2 * base_align, 3 * base_align, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   for (unsigned i = 0; i < sizeof(all_queries) / sizeof(all_queries[0]); i++)
      check_info_protocol(s, all_queries[i]);
   /* §5.2.2: flags inherited; host_ptr = parent's + origin. */
   CHECK_EQ_INT(get_flags(s), CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR | CL_MEM_HOST_WRITE_ONLY);
   CHECK(get_host_ptr(s) == host + 2 * base_align);
   size_t v = 0;
   CHECK_EQ_INT(clGetMemObjectInfo(s, CL_MEM_SIZE, sizeof(v), &v, NULL), CL_SUCCESS);
   CHECK_EQ_INT(v, 3 * base_align);
   CHECK_EQ_INT(clGetMemObjectInfo(s, CL_MEM_OFFSET, sizeof(v), &v, NULL), CL_SUCCESS);
   CHECK_EQ_INT(v, 2 * base_align);
   cl_mem assoc = NULL;
   CHECK_EQ_INT(clGetMemObjectInfo(s, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof(assoc), &assoc, NULL),
                CL_SUCCESS);
   CHECK(assoc == parent);
   size_t psize = 99;
   CHECK_EQ_INT(clGetMemObjectInfo(s, CL_MEM_PROPERTIES, 0, NULL, &psize), CL_SUCCESS);
   CHECK_EQ_INT(psize, 0);
   CHECK_EQ_INT(get_refcount(parent), 1); /* sub-buffers hold internal references only */

   /* The sub-buffer keeps its parent: destroyed (callbacks) after the sub-buffer. */
   order_count = 0;
   clSetMemObjectDestructorCallback(parent, record_destructor, (void *)1);
   clSetMemObjectDestructorCallback(s, record_destructor, (void *)2);
   CHECK_EQ_INT(clReleaseMemObject(parent), CL_SUCCESS);
   CHECK_EQ_INT(order_count, 0);
   CHECK_EQ_INT(clGetMemObjectInfo(s, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof(assoc), &assoc, NULL),
                CL_SUCCESS);
   CHECK(assoc == parent);
   CHECK_EQ_INT(clReleaseMemObject(s), CL_SUCCESS);
   CHECK_EQ_INT(order_count, 2);
   CHECK_EQ_INT(order_log[0], 2);
   CHECK_EQ_INT(order_log[1], 1);
   free(host);

   /* Many sub-buffers of one parent, released in any order. */
   parent = clCreateBuffer(context, CL_MEM_ALLOC_HOST_PTR, size, NULL, &err);
   cl_mem subs[16];
   for (int i = 0; i < 16; i++) {
      subs[i] = sub(parent, 0, (size_t)i * base_align, base_align, &err);
      CHECK_EQ_INT(err, CL_SUCCESS);
      CHECK(get_host_ptr(subs[i]) == NULL);
   }
   clReleaseMemObject(parent);
   for (int i = 0; i < 16; i += 2)
      clReleaseMemObject(subs[i]);
   for (int i = 1; i < 16; i += 2)
      clReleaseMemObject(subs[i]);
}

/* ---- large allocations --------------------------------------------------------------- */

static void
test_large(void)
{
   cl_int err = -1;
   const size_t big = (size_t)3 << 30; /* > 2 GiB and > 4 GiB / 2: no 32-bit size anywhere */
   CHECK(max_alloc >= big);
   cl_mem m = clCreateBuffer(context, CL_MEM_READ_WRITE, big, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   size_t size = 0;
   clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof(size), &size, NULL);
   CHECK(size == big);
   cl_mem s = sub(m, 0, (size_t)5 << 29, (size_t)1 << 29, &err); /* origin 2.5 GiB */
   CHECK_EQ_INT(err, CL_SUCCESS);
   clGetMemObjectInfo(s, CL_MEM_OFFSET, sizeof(size), &size, NULL);
   CHECK(size == (size_t)5 << 29);
   clReleaseMemObject(s);
   clReleaseMemObject(m);
   /* The full allowance, twice in a row (the first is really freed). */
   for (int i = 0; i < 2; i++) {
      m = clCreateBuffer(context, 0, (size_t)max_alloc, NULL, &err);
      CHECK_EQ_INT(err, CL_SUCCESS);
      clReleaseMemObject(m);
   }
   m = clCreateBuffer(context, CL_MEM_ALLOC_HOST_PTR, big, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   clReleaseMemObject(m);
}

/*
 * Host memory has a budget (issue #17: 256 x 1 GiB CL_MEM_ALLOC_HOST_PTR buffers "succeeded"
 * on a 23 GiB machine and the OOM killer came later): allocations past the machine's
 * physical memory fail with CL_MEM_OBJECT_ALLOCATION_FAILURE (clSVMAlloc with NULL), and
 * memory freed is available again. Nothing is touched, so no RAM is used.
 */
static void
test_host_memory_budget(void)
{
   long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
   CHECK(pages > 0 && page > 0);
   size_t phys = (size_t)pages * (size_t)page, chunk = (size_t)1 << 30;
   size_t limit = phys / chunk + 2, n = 0;
   cl_mem *bufs = calloc(limit, sizeof(*bufs));
   cl_int err = CL_SUCCESS;
   for (; n < limit; n++) {
      bufs[n] = clCreateBuffer(context, CL_MEM_ALLOC_HOST_PTR, chunk, NULL, &err);
      if (!bufs[n])
         break;
   }
   fprintf(stderr, "host memory budget: %zu GiB buffers before refusal (%zu MiB physical)\n",
           n, phys >> 20);
   CHECK(n < limit);      /* refused before physical memory + 2 GiB */
   CHECK(n + 2 >= phys / chunk); /* and not much earlier */
   CHECK_EQ_INT(err, CL_MEM_OBJECT_ALLOCATION_FAILURE);
   void *svm = clSVMAlloc(context, CL_MEM_READ_WRITE, chunk, 0);
   if (svm) {
      /* Device memory may still have room; then the system pool was not needed. */
      clSVMFree(context, svm);
   }
   for (size_t i = 0; i < n; i++)
      clReleaseMemObject(bufs[i]);
   cl_mem again = clCreateBuffer(context, CL_MEM_ALLOC_HOST_PTR, chunk, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   clReleaseMemObject(again);
   free(bufs);
}

/* ---- SVM ----------------------------------------------------------------------------- */

static void
test_svm(void)
{
   void *p = clSVMAlloc(context, CL_MEM_READ_WRITE, 4096, 0);
   CHECK(p != NULL);
   CHECK(((uintptr_t)p & 127) == 0);
   for (cl_uint align = 1; align <= (1u << 21); align <<= 1) {
      void *q = clSVMAlloc(context, 0, 1000, align);
      CHECK(q != NULL);
      CHECK(((uintptr_t)q & (align - 1)) == 0);
      clSVMFree(context, q);
   }
   /* Invalid: alignment, flags, size, context. */
   CHECK(clSVMAlloc(context, 0, 4096, 3) == NULL);
   CHECK(clSVMAlloc(context, 0, 4096, 96) == NULL);
   CHECK(clSVMAlloc(context, 0, 4096, 1u << 22) == NULL);
   CHECK(clSVMAlloc(context, 0, 4096, 1u << 31) == NULL);
   CHECK(clSVMAlloc(context, CL_MEM_SVM_ATOMICS, 4096, 0) == NULL);
   CHECK(clSVMAlloc(context, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 4096, 0) == NULL);
   CHECK(clSVMAlloc(context, CL_MEM_USE_HOST_PTR, 4096, 0) == NULL);
   CHECK(clSVMAlloc(context, 0, 0, 0) == NULL);
   CHECK(clSVMAlloc(context, 0, (size_t)max_alloc + 1, 0) == NULL);
   CHECK(clSVMAlloc((cl_context)device, 0, 4096, 0) == NULL);
   void *ro = clSVMAlloc(context, CL_MEM_READ_ONLY, 64, 0);
   CHECK(ro != NULL);
   clSVMFree(context, ro);
   clSVMFree(context, NULL); /* no-op */

   /* A buffer on an SVM pointer uses the allocation (§5.6.1). */
   cl_int err = -1;
   cl_mem m = clCreateBuffer(context, CL_MEM_USE_HOST_PTR, 4096, p, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_bool svm = CL_FALSE;
   CHECK_EQ_INT(clGetMemObjectInfo(m, CL_MEM_USES_SVM_POINTER, sizeof(svm), &svm, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(svm, CL_TRUE);
   CHECK(get_host_ptr(m) == p);
   cl_mem s = sub(m, 0, base_align, base_align, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   CHECK_EQ_INT(clGetMemObjectInfo(s, CL_MEM_USES_SVM_POINTER, sizeof(svm), &svm, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(svm, CL_TRUE);
   CHECK(get_host_ptr(s) == (char *)p + base_align);
   clReleaseMemObject(s);
   clReleaseMemObject(m);
   m = clCreateBuffer(context, CL_MEM_USE_HOST_PTR, 1024, (char *)p + 1024, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   clReleaseMemObject(m);
   err = 0;
   CHECK(clCreateBuffer(context, CL_MEM_USE_HOST_PTR, 4096, (char *)p + 1024, &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_BUFFER_SIZE);
   clSVMFree(context, p);

   /* Large SVM allocation. */
   p = clSVMAlloc(context, CL_MEM_READ_WRITE, (size_t)3 << 30, 4096);
   CHECK(p != NULL);
   clSVMFree(context, p);
}

/* ---- concurrency --------------------------------------------------------------------- */

static void *
thread_body(void *arg)
{
   unsigned failures = 0;
   for (int i = 0; i < 200; i++) {
      cl_int err;
      cl_mem_flags f = (i % 3 == 0) ? CL_MEM_ALLOC_HOST_PTR : CL_MEM_READ_WRITE;
      cl_mem m = clCreateBuffer(context, f, 4096 + (size_t)i * 64, NULL, &err);
      if (!m) {
         failures++;
         continue;
      }
      cl_mem s = sub(m, 0, 0, 64, &err);
      clRetainMemObject(m);
      clReleaseMemObject(m);
      clReleaseMemObject(m);
      if (s)
         clReleaseMemObject(s);
      else
         failures++;
      void *p = clSVMAlloc(context, 0, 256, 0);
      if (!p)
         failures++;
      clSVMFree(context, p);
   }
   return (void *)(uintptr_t)failures;
}

static void
test_threads(void)
{
   pthread_t t[4];
   for (int i = 0; i < 4; i++)
      pthread_create(&t[i], NULL, thread_body, NULL);
   uintptr_t failures = 0;
   for (int i = 0; i < 4; i++) {
      void *r;
      pthread_join(t[i], &r);
      failures += (uintptr_t)r;
   }
   CHECK_EQ_INT(failures, 0);
}

int
main(void)
{
   setup();
   if (!context)
      return test_main_end();
   test_flag_combinations();
   test_create_errors();
   test_properties();
   test_info();
   test_refcount_and_destructors();
   test_context_lifetime();
   test_sub_buffer_errors();
   test_sub_buffer_objects();
   test_large();
   test_host_memory_budget();
   test_svm();
   test_threads();
   CHECK_EQ_INT(clReleaseContext(context), CL_SUCCESS);
   return test_main_end();
}
