/*
 * icd/tests/icd_unit_test.c — the ICD layer, linked directly (no loader): the dispatch
 * table has no NULL slot, handle casts reject NULL, misaligned, foreign and wrong-type
 * pointers and destroyed objects, the two reference counts of the object header say when
 * the last reference went, the info helper follows the size protocol, injected allocation
 * failures surface as CL_OUT_OF_HOST_MEMORY, error names resolve.
 */
#include "icd.h"
#include "platform/plat.h"
#include "dispatch/disp.h"
#include "compiler/comp.h"

#include "hsacl_test.h"

static void
test_dispatch_table(void)
{
   const void *const *slot = (const void *const *)&icd_dispatch;
   size_t n = sizeof(icd_dispatch) / sizeof(void *);
   CHECK(n >= 141);
   CHECK(icd_dispatch.clGetKernelSuggestedLocalWorkSize ==
         (void *)disp_GetKernelSuggestedLocalWorkSizeKHR);
   for (size_t i = 0; i < n; i++) {
      if (!slot[i])
         fprintf(stderr, "dispatch slot %zu is NULL\n", i);
      CHECK(slot[i] != NULL);
   }
   CHECK(icd_dispatch.base.clGetPlatformIDs == plat_GetPlatformIDs);
   CHECK(icd_dispatch.base.clCreateCommandQueueWithProperties == disp_CreateCommandQueueWithProperties);
   CHECK(icd_GetExtensionFunctionAddress("clIcdGetPlatformIDsKHR") ==
         (void *)icd_IcdGetPlatformIDsKHR);
   CHECK(icd_GetExtensionFunctionAddress("clGetPlatformIDs") == NULL); /* core: not here */
   /* An extension's functions only while the devices report it (3.0 profile). */
   CHECK(plat_extension_reported("cl_khr_subgroups") ==
         (plat_opencl_version() >= CL_MAKE_VERSION(3, 0, 0)));
   CHECK(icd_GetExtensionFunctionAddress("clGetKernelSubGroupInfoKHR") ==
         (plat_extension_reported("cl_khr_subgroups") ? (void *)comp_GetKernelSubGroupInfo
                                                      : NULL));
   CHECK(icd_GetExtensionFunctionAddress(NULL) == NULL);
   CHECK(icd_GetExtensionFunctionAddressForPlatform(NULL, "clIcdGetPlatformIDsKHR") == NULL);
   CHECK(icd_GetExtensionFunctionAddressForPlatform(plat_platform_handle(),
                                                    "clIcdGetPlatformIDsKHR") != NULL);
}

static void
test_handles(void)
{
   struct _cl_context fake_ctx;
   memset(&fake_ctx, 0, sizeof(fake_ctx));
   CHECK(plat_context_from_handle(NULL) == NULL);
   CHECK(plat_context_from_handle((cl_context)&fake_ctx) == NULL); /* zeroed memory */
   static uint64_t junk[8] = { 0x1234, 0x5678, 0xdeadbeef };
   CHECK(plat_context_from_handle((cl_context)junk) == NULL);
   CHECK(plat_context_from_handle((cl_context)((char *)junk + 1)) == NULL); /* misaligned */

   icd_object_init(&fake_ctx.obj, ICD_TYPE_CONTEXT);
   CHECK(plat_context_from_handle((cl_context)&fake_ctx) == &fake_ctx);
   CHECK(disp_queue_from_handle((cl_command_queue)&fake_ctx) == NULL);   /* wrong type */
   CHECK(plat_device_from_handle((cl_device_id)&fake_ctx) == NULL);
   CHECK(plat_platform_from_handle((cl_platform_id)&fake_ctx) == NULL);
   fake_ctx.obj.type = ICD_TYPE_COMMAND_QUEUE; /* type changed, check word not */
   CHECK(disp_queue_from_handle((cl_command_queue)&fake_ctx) == NULL);
   fake_ctx.obj.type = ICD_TYPE_CONTEXT;
   icd_object_finish(&fake_ctx.obj);
   CHECK(plat_context_from_handle((cl_context)&fake_ctx) == NULL); /* destroyed */
   CHECK(plat_platform_from_handle(plat_platform_handle()) != NULL);

   /* Entry points turn bad handles into their specific codes. */
   size_t size;
   CHECK_EQ_INT(plat_GetContextInfo((cl_context)junk, CL_CONTEXT_NUM_DEVICES, 0, NULL, &size),
                CL_INVALID_CONTEXT);
   CHECK_EQ_INT(disp_GetCommandQueueInfo(NULL, CL_QUEUE_CONTEXT, 0, NULL, &size),
                CL_INVALID_COMMAND_QUEUE);
   CHECK_EQ_INT(plat_GetDeviceInfo((cl_device_id)junk, CL_DEVICE_NAME, 0, NULL, &size),
                CL_INVALID_DEVICE);
   CHECK_EQ_INT(plat_GetPlatformInfo((cl_platform_id)junk, CL_PLATFORM_NAME, 0, NULL, &size),
                CL_INVALID_PLATFORM);
   CHECK_EQ_INT(icd_dispatch.base.clReleaseMemObject((cl_mem)junk), CL_INVALID_MEM_OBJECT);
}

/* The header's two counts: both start at one; each release says whether it dropped the
 * last reference of its count, and the counts are independent (the API references
 * together hold one internal reference, which the module's release drops). */
static void
test_refcounts(void)
{
   struct icd_object obj;
   icd_object_init(&obj, ICD_TYPE_KERNEL);
   CHECK_EQ_INT((int)icd_object_refcount(&obj), 1);
   icd_object_retain(&obj);
   icd_object_retain_internal(&obj);
   icd_object_retain_internal(&obj);
   CHECK_EQ_INT((int)icd_object_refcount(&obj), 2);
   CHECK(!icd_object_release(&obj));
   CHECK(icd_object_release(&obj));              /* the last API reference */
   CHECK_EQ_INT((int)icd_object_refcount(&obj), 0);
   CHECK(!icd_object_release_internal(&obj));    /* a command's */
   CHECK(!icd_object_release_internal(&obj));    /* a child's */
   CHECK(icd_object_release_internal(&obj));     /* the API side's: destroy now */
   icd_object_finish(&obj);
}

static void
test_get_info(void)
{
   cl_uint v = 42, out = 0;
   size_t ret = 0;
   CHECK_EQ_INT(icd_get_info(&v, sizeof(v), sizeof(out), &out, &ret), CL_SUCCESS);
   CHECK_EQ_INT(out, 42);
   CHECK_EQ_INT(ret, sizeof(v));
   CHECK_EQ_INT(icd_get_info(&v, sizeof(v), sizeof(out) - 1, &out, &ret), CL_INVALID_VALUE);
   CHECK_EQ_INT(icd_get_info(&v, sizeof(v), 0, NULL, NULL), CL_SUCCESS);
   char s[4];
   CHECK_EQ_INT(icd_get_info_string("abc", sizeof(s), s, &ret), CL_SUCCESS);
   CHECK_STR(s, "abc");
   CHECK_EQ_INT(ret, 4);
   CHECK_EQ_INT(icd_get_info_string("abcd", sizeof(s), s, &ret), CL_INVALID_VALUE);
}

static void
test_alloc_failure(void)
{
   cl_device_id dev = NULL;
   cl_uint n = 0;
   if (plat_GetDeviceIDs(NULL, CL_DEVICE_TYPE_GPU, 1, &dev, &n) != CL_SUCCESS) {
      fprintf(stderr, "no device: allocation-failure test cannot run\n");
      test_failed++;
      return;
   }
   cl_int err = CL_SUCCESS;
   icd_test_fail_alloc_after(1);
   cl_context ctx = plat_CreateContext(NULL, 1, &dev, NULL, NULL, &err);
   icd_test_fail_alloc_after(0);
   CHECK(ctx == NULL);
   CHECK_EQ_INT(err, CL_OUT_OF_HOST_MEMORY);
   /* Every allocation point of context + queue creation fails cleanly. */
   for (unsigned long k = 1; k < 8; k++) {
      icd_test_fail_alloc_after(k);
      ctx = plat_CreateContext(NULL, 1, &dev, NULL, NULL, &err);
      cl_command_queue q = ctx ? disp_CreateCommandQueue(ctx, dev, 0, &err) : NULL;
      icd_test_fail_alloc_after(0);
      CHECK(err == CL_SUCCESS || err == CL_OUT_OF_HOST_MEMORY);
      if (q)
         disp_ReleaseCommandQueue(q);
      if (ctx)
         plat_ReleaseContext(ctx);
   }
}

/* Every error code of the installed headers has its name in the log (icd_errors.def):
 * −11 CL_BUILD_PROGRAM_FAILURE used to print as CL_UNKNOWN_ERROR. Where two vendors share a
 * value, either of their names is right. */
static void
test_error_names(void)
{
   static const struct {
      const char *name;
      cl_int value;
   } codes[] = {
#include "header_codes.inc"
   };
   size_t n = sizeof(codes) / sizeof(codes[0]);
   CHECK(n > 60);
   for (size_t i = 0; i < n; i++) {
      const char *got = icd_error_name(codes[i].value);
      bool ok = false;
      for (size_t j = 0; j < n; j++)
         ok |= codes[j].value == codes[i].value && !strcmp(codes[j].name, got);
      if (!ok)
         fprintf(stderr, "%s (%d) logs as %s\n", codes[i].name, codes[i].value, got);
      CHECK(ok);
   }
   CHECK_STR(icd_error_name(CL_BUILD_PROGRAM_FAILURE), "CL_BUILD_PROGRAM_FAILURE");
}

/* Issue #17: with the first allocations failing, the first clGetDeviceIDs answered
 * CL_DEVICE_NOT_FOUND, and for good. It is CL_OUT_OF_HOST_MEMORY, and the next call, with
 * memory back, finds the device. Must run before anything else discovers the devices. */
static void
test_device_ids_out_of_memory(void)
{
   cl_device_id dev = NULL;
   cl_uint n = 0;
   for (unsigned long k = 1; k <= 3; k++) {
      icd_test_fail_alloc_after(k);
      cl_int err = plat_GetDeviceIDs(NULL, CL_DEVICE_TYPE_GPU, 1, &dev, &n);
      icd_test_fail_alloc_after(0);
      if (err == CL_SUCCESS)
         break; /* discovery needed fewer than k allocations */
      CHECK_EQ_INT(err, CL_OUT_OF_HOST_MEMORY);
   }
   CHECK_EQ_INT(plat_GetDeviceIDs(NULL, CL_DEVICE_TYPE_GPU, 1, &dev, &n), CL_SUCCESS);
   CHECK(n >= 1 && dev != NULL);
}

int
main(void)
{
   test_device_ids_out_of_memory();
   test_error_names();
   test_dispatch_table();
   test_handles();
   test_refcounts();
   test_get_info();
   CHECK_STR(icd_error_name(CL_INVALID_KERNEL_ARGS), "CL_INVALID_KERNEL_ARGS");
   CHECK_STR(icd_error_name(-12345), "CL_UNKNOWN_ERROR");
   test_alloc_failure();
   return test_main_end();
}
