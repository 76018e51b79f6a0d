/*
 * memory/tests/mem_unit_test.c — the module's interface (memory/mem.h) as the transfer and
 * dispatch code use it, linked against the driver directly (no ICD loader) and run on the
 * software HSA runtime: where each kind of buffer lives (device_va, host_accessible, the
 * initial contents of COPY_HOST_PTR read back through HSA), sub-buffer addresses, in-flight
 * references, the staging cache, SVM lookup, and out-of-host-memory injection.
 */
#include "runtime/rt.h"
#include "memory/mem.h"
#include "platform/plat.h"

#include "hsacl_test.h"

#include <stdint.h>

static struct _cl_device_id *dev;
static struct _cl_context *ctx;
static const struct rt_hsa *hsa;

static void
fill_pattern(unsigned char *p, size_t n, unsigned seed)
{
   for (size_t i = 0; i < n; i++)
      p[i] = (unsigned char)(i * 7 + seed + (i >> 12));
}

/* Reads `size` bytes at GPU address `va` through HSA (device-only memory included). */
static int
device_equals(uint64_t va, const void *want, size_t size)
{
   unsigned char *got = malloc(size);
   int ok = hsa->hsa_memory_copy(got, (void *)(uintptr_t)va, size) == HSA_STATUS_SUCCESS &&
            memcmp(got, want, size) == 0;
   free(got);
   return ok;
}

static struct _cl_mem *
create(cl_mem_flags flags, size_t size, void *host_ptr)
{
   cl_int err = -1;
   cl_mem m = mem_CreateBuffer(plat_context_to_handle(ctx), flags, size, host_ptr, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   return mem_mem_from_handle(m);
}

static void
test_placement(void)
{
   /* Device memory, several staging chunks and a tail: contents copied. */
   size_t size = (10u << 20) + 123;
   unsigned char *host = malloc(size);
   fill_pattern(host, size, 1);
   struct _cl_mem *m = create(CL_MEM_COPY_HOST_PTR, size, host);
   CHECK(m && m->backing == MEM_BACKING_DEVICE && !m->host_accessible && !m->host_ptr);
   CHECK(m->device_va != 0 && m->device == dev && m->context == ctx);
   CHECK(device_equals(m->device_va, host, size));
   /* A sub-buffer's address includes its origin. */
   cl_buffer_region r = { 4096, 8192 };
   cl_int err = -1;
   struct _cl_mem *s = mem_mem_from_handle(
      mem_CreateSubBuffer(mem_mem_to_handle(m), 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err));
   CHECK_EQ_INT(err, CL_SUCCESS);
   CHECK(s->device_va == m->device_va + 4096 && s->parent == m && s->origin == 4096);
   CHECK(mem_root(s) == m && mem_is_buffer(s));
   CHECK(device_equals(s->device_va, host + 4096, 8192));
   mem_ReleaseMemObject(mem_mem_to_handle(s));
   mem_ReleaseMemObject(mem_mem_to_handle(m));

   /* ALLOC_HOST_PTR | COPY_HOST_PTR: host-visible, contents there. */
   m = create(CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR, size, host);
   CHECK(m->backing == MEM_BACKING_SYSTEM && m->host_accessible && !m->host_ptr);
   CHECK(memcmp((void *)(uintptr_t)m->device_va, host, size) == 0);
   CHECK(device_equals(m->device_va, host, size));
   mem_ReleaseMemObject(mem_mem_to_handle(m));

   /* USE_HOST_PTR: the GPU uses the application's memory; a GPU-side write lands there. */
   m = create(CL_MEM_USE_HOST_PTR, size, host);
   CHECK(m->backing == MEM_BACKING_LOCKED && m->host_accessible && m->host_ptr == host);
   uint32_t word = 0xdeadbeef;
   CHECK(hsa->hsa_memory_copy((void *)(uintptr_t)(m->device_va + 64), &word, 4) ==
         HSA_STATUS_SUCCESS);
   CHECK(memcmp(host + 64, &word, 4) == 0);
   mem_ReleaseMemObject(mem_mem_to_handle(m));

   /* USE_HOST_PTR on memory HSA already gives the GPU (a host-visible buffer's bytes):
    * used as it is, not locked again. */
   struct _cl_mem *h = create(CL_MEM_ALLOC_HOST_PTR, 65536, NULL);
   char *hp = (char *)(uintptr_t)h->device_va + 4096;
   m = create(CL_MEM_USE_HOST_PTR, 8192, hp);
   CHECK(m->backing == MEM_BACKING_LOCKED && !m->alloc_base && m->host_ptr == hp);
   CHECK(m->device_va == h->device_va + 4096 && m->host_accessible);
   mem_ReleaseMemObject(mem_mem_to_handle(m));
   mem_ReleaseMemObject(mem_mem_to_handle(h));

   /* Device memory can be initialised with an HSA fill. */
   m = create(0, 4096, NULL);
   CHECK(hsa->hsa_amd_memory_fill((void *)(uintptr_t)m->device_va, 0x01020304u, 1024) ==
         HSA_STATUS_SUCCESS);
   uint32_t words[1024];
   for (int i = 0; i < 1024; i++)
      words[i] = 0x01020304u;
   CHECK(device_equals(m->device_va, words, sizeof(words)));
   mem_ReleaseMemObject(mem_mem_to_handle(m));
   free(host);
}

static unsigned destroyed;

static void CL_CALLBACK
on_destroy(cl_mem memobj, void *user_data)
{
   destroyed++;
}

/* A command's internal reference keeps the object after the application's last release. */
static void
test_in_flight(void)
{
   struct _cl_mem *m = create(0, 4096, NULL);
   cl_buffer_region r = { 0, 256 };
   cl_int err;
   struct _cl_mem *s = mem_mem_from_handle(
      mem_CreateSubBuffer(mem_mem_to_handle(m), 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err));
   destroyed = 0;
   mem_SetMemObjectDestructorCallback(mem_mem_to_handle(m), on_destroy, NULL);
   mem_SetMemObjectDestructorCallback(mem_mem_to_handle(s), on_destroy, NULL);
   mem_retain_internal(s); /* an enqueued command on the sub-buffer */
   CHECK_EQ_INT(mem_ReleaseMemObject(mem_mem_to_handle(s)), CL_SUCCESS);
   CHECK_EQ_INT(mem_ReleaseMemObject(mem_mem_to_handle(m)), CL_SUCCESS);
   CHECK_EQ_INT(destroyed, 0);
   static const char zeros[256]; /* fresh device memory reads as zero on the software GPU */
   CHECK(device_equals(s->device_va, zeros, sizeof(zeros)));
   mem_release_internal(s); /* the command completes */
   CHECK_EQ_INT(destroyed, 2);
}

static void
test_staging(void)
{
   void *a = NULL, *b = NULL, *c = NULL;
   CHECK_EQ_INT(mem_staging_alloc(dev, 100000, &a), CL_SUCCESS);
   CHECK(a && ((uintptr_t)a & 4095) == 0);
   memset(a, 0x5a, 100000); /* host memory */
   /* ... the GPU can reach: copy into device memory and back. */
   struct _cl_mem *m = create(0, 100000, NULL);
   CHECK(hsa->hsa_memory_copy((void *)(uintptr_t)m->device_va, a, 100000) == HSA_STATUS_SUCCESS);
   CHECK(device_equals(m->device_va, a, 100000));
   mem_ReleaseMemObject(mem_mem_to_handle(m));
   mem_staging_free(dev, a, 100000);
   /* Same size class: the cached block comes back. */
   CHECK_EQ_INT(mem_staging_alloc(dev, 70000, &b), CL_SUCCESS);
   CHECK(b == a);
   CHECK_EQ_INT(mem_staging_alloc(dev, 70000, &c), CL_SUCCESS);
   CHECK(c && c != b);
   mem_staging_free(dev, b, 70000);
   mem_staging_free(dev, c, 70000);
   /* Beyond the cached sizes: straight to HSA and back. */
   CHECK_EQ_INT(mem_staging_alloc(dev, MEM_STAGING_MAX_CACHED + 1, &a), CL_SUCCESS);
   CHECK(a != NULL);
   mem_staging_free(dev, a, MEM_STAGING_MAX_CACHED + 1);
   mem_staging_free(dev, NULL, 10);
}

static void
test_svm_lookup(void)
{
   cl_context h = plat_context_to_handle(ctx);
   char *p = mem_SVMAlloc(h, 0, 10000, 0);
   char *q = mem_SVMAlloc(h, 0, 100, 0);
   CHECK(p && q);
   void *base = NULL;
   size_t size = 0;
   CHECK(mem_svm_lookup(ctx, p, &base, &size) && base == p && size == 10000);
   CHECK(mem_svm_lookup(ctx, p + 9999, &base, NULL) && base == p);
   CHECK(!mem_svm_lookup(ctx, p + 10000, NULL, NULL) || (p + 10000 == q));
   CHECK(mem_svm_lookup(ctx, q + 50, &base, &size) && base == q && size == 100);
   CHECK(!mem_svm_lookup(ctx, p - 1, NULL, NULL));
   /* Host and GPU share the address: the host may write it, HSA copies read it. */
   memset(p, 0x33, 10000);
   char want[10000];
   memset(want, 0x33, sizeof(want));
   CHECK(device_equals((uintptr_t)p, want, sizeof(want)));
   /* Another context does not see it. */
   cl_int err;
   cl_device_id d = plat_device_to_handle(dev);
   cl_context other = plat_CreateContext(NULL, 1, &d, NULL, NULL, &err);
   CHECK(!mem_svm_lookup(plat_context_from_handle(other), p, NULL, NULL));
   CHECK_EQ_INT(mem_svm_free(plat_context_from_handle(other), p), CL_INVALID_VALUE);
   plat_ReleaseContext(other);
   CHECK_EQ_INT(mem_svm_free(ctx, p + 16), CL_INVALID_VALUE);
   CHECK_EQ_INT(mem_svm_free(ctx, p), CL_SUCCESS);
   CHECK(!mem_svm_lookup(ctx, p, NULL, NULL));
   CHECK(mem_svm_lookup(ctx, q, NULL, NULL));
   mem_SVMFree(h, q);
   CHECK(!mem_svm_lookup(ctx, q, NULL, NULL));
}

/* Every host allocation failure surfaces as CL_OUT_OF_HOST_MEMORY, nothing leaks. */
static void
test_out_of_host_memory(void)
{
   cl_context h = plat_context_to_handle(ctx);
   cl_int err = 0;
   icd_test_fail_alloc_after(1);
   CHECK(mem_CreateBuffer(h, 0, 64, NULL, &err) == NULL);
   CHECK_EQ_INT(err, CL_OUT_OF_HOST_MEMORY);
   const cl_mem_properties props[] = { 0 };
   icd_test_fail_alloc_after(2); /* the object succeeds, the property copy fails */
   CHECK(mem_CreateBufferWithProperties(h, props, 0, 64, NULL, &err) == NULL);
   CHECK_EQ_INT(err, CL_OUT_OF_HOST_MEMORY);
   icd_test_fail_alloc_after(0);
   cl_mem m = mem_CreateBuffer(h, 0, 4096, NULL, &err);
   cl_buffer_region r = { 0, 64 };
   icd_test_fail_alloc_after(1);
   CHECK(mem_CreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err) == NULL);
   CHECK_EQ_INT(err, CL_OUT_OF_HOST_MEMORY);
   CHECK_EQ_INT(mem_SetMemObjectDestructorCallback(m, on_destroy, NULL), CL_OUT_OF_HOST_MEMORY);
   CHECK(mem_SVMAlloc(h, 0, 64, 0) == NULL); /* the table's first growth fails */
   icd_test_fail_alloc_after(0);
   mem_ReleaseMemObject(m);
}

int
main(void)
{
   cl_platform_id platform;
   cl_device_id device;
   if (plat_GetPlatformIDs(1, &platform, NULL) != CL_SUCCESS ||
       plat_GetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &device, NULL) != CL_SUCCESS) {
      fprintf(stderr, "no device\n");
      return 1;
   }
   cl_int err;
   cl_context context = plat_CreateContext(NULL, 1, &device, NULL, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   dev = plat_device_from_handle(device);
   ctx = plat_context_from_handle(context);
   hsa = rt_hsa();
   CHECK(hsa != NULL);
   test_placement();
   test_in_flight();
   test_staging();
   test_svm_lookup();
   test_out_of_host_memory();
   plat_ReleaseContext(context);
   return test_main_end();
}
