/*
 * tests/platform/api_platform_test.c — platform, device, context and command-queue entry points
 * through the system ICD loader (OCL_ICD_VENDORS points at the build tree): every
 * clGet*Info size-query case, device-type filtering, context and queue property
 * validation with the exact error codes of the OpenCL 3.0 API specification, wrong-type
 * handles, destructor callbacks.
 */
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <CL/cl_ext.h>

#include "hsacl_test.h"

static cl_platform_id platform;
static cl_device_id device;
static cl_bool image_support; /* CL_DEVICE_IMAGE_SUPPORT of device */

/* The size-query protocol for one query: size alone, exact size, too small, both NULL. */
static void
check_info_protocol(const char *what, cl_int (*get)(void *obj, cl_uint param, size_t size,
                                                    void *value, size_t *ret),
                    void *obj, cl_uint param)
{
   size_t size = 0;
   cl_int err = get(obj, param, 0, NULL, &size);
   if (err != CL_SUCCESS) {
      fprintf(stderr, "%s 0x%x: size query returned %d\n", what, param, err);
      test_failed++;
      return;
   }
   test_passed++;
   unsigned char *buf = malloc(size + 16);
   size_t got = 12345;
   memset(buf, 0xa5, size + 16);
   CHECK_EQ_INT(get(obj, param, size, buf, &got), CL_SUCCESS);
   CHECK_EQ_INT(got, size);
   CHECK(buf[size] == 0xa5); /* nothing written past the value */
   CHECK_EQ_INT(get(obj, param, size + 16, buf, NULL), CL_SUCCESS);
   CHECK_EQ_INT(get(obj, param, 0, NULL, NULL), CL_SUCCESS);
   if (size > 0)
      CHECK_EQ_INT(get(obj, param, size - 1, buf, &got), CL_INVALID_VALUE);
   free(buf);
}

static cl_int
get_platform(void *o, cl_uint p, size_t s, void *v, size_t *r)
{
   return clGetPlatformInfo(o, p, s, v, r);
}
static cl_int
get_device(void *o, cl_uint p, size_t s, void *v, size_t *r)
{
   return clGetDeviceInfo(o, p, s, v, r);
}
static cl_int
get_context(void *o, cl_uint p, size_t s, void *v, size_t *r)
{
   return clGetContextInfo(o, p, s, v, r);
}
static cl_int
get_queue(void *o, cl_uint p, size_t s, void *v, size_t *r)
{
   return clGetCommandQueueInfo(o, p, s, v, r);
}

static void
test_platform(void)
{
   cl_uint n = 0;
   CHECK_EQ_INT(clGetPlatformIDs(0, NULL, &n), CL_SUCCESS);
   CHECK_EQ_INT(n, 1);
   CHECK_EQ_INT(clGetPlatformIDs(1, &platform, NULL), CL_SUCCESS);
   char name[64] = "";
   CHECK_EQ_INT(clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof(name), name, NULL),
                CL_SUCCESS);
   CHECK_STR(name, "hsacl");
   CHECK_EQ_INT(clGetPlatformInfo(platform, CL_PLATFORM_ICD_SUFFIX_KHR, sizeof(name), name,
                                  NULL), CL_SUCCESS);
   CHECK_STR(name, "HSACL");
   char version[128] = "";
   clGetPlatformInfo(platform, CL_PLATFORM_VERSION, sizeof(version), version, NULL);
   CHECK(!strncmp(version, "OpenCL 3.1 ", 11)); /* the default profile */
   cl_version numeric = 0;
   clGetPlatformInfo(platform, CL_PLATFORM_NUMERIC_VERSION, sizeof(numeric), &numeric, NULL);
   CHECK_EQ_INT(numeric, CL_MAKE_VERSION(3, 1, 0));

   const cl_uint queries[] = { CL_PLATFORM_PROFILE, CL_PLATFORM_VERSION,
                               CL_PLATFORM_NUMERIC_VERSION, CL_PLATFORM_NAME,
                               CL_PLATFORM_VENDOR, CL_PLATFORM_EXTENSIONS,
                               CL_PLATFORM_EXTENSIONS_WITH_VERSION,
                               CL_PLATFORM_HOST_TIMER_RESOLUTION, CL_PLATFORM_ICD_SUFFIX_KHR };
   for (size_t i = 0; i < sizeof(queries) / sizeof(queries[0]); i++)
      check_info_protocol("platform", get_platform, platform, queries[i]);
   CHECK_EQ_INT(clGetPlatformInfo(platform, 0x7fff, 0, NULL, &(size_t){ 0 }), CL_INVALID_VALUE);
   CHECK_EQ_INT(clGetPlatformIDs(0, &platform, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(clGetPlatformIDs(1, NULL, NULL), CL_INVALID_VALUE);
}

static void
test_device_ids(void)
{
   cl_uint n = 0;
   CHECK_EQ_INT(clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 0, NULL, &n), CL_SUCCESS);
   CHECK_EQ_INT(n, 1);
   CHECK_EQ_INT(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL), CL_SUCCESS);
   cl_device_id d2 = NULL;
   CHECK_EQ_INT(clGetDeviceIDs(platform, CL_DEVICE_TYPE_DEFAULT, 1, &d2, &n), CL_SUCCESS);
   CHECK(d2 == device);
   CHECK_EQ_INT(clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_CPU, 1, &d2, &n),
                CL_SUCCESS);
   CHECK_EQ_INT(clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, &d2, &n), CL_DEVICE_NOT_FOUND);
   CHECK_EQ_INT(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ACCELERATOR, 0, NULL, &n),
                CL_DEVICE_NOT_FOUND);
   CHECK_EQ_INT(clGetDeviceIDs(platform, CL_DEVICE_TYPE_CUSTOM, 0, NULL, &n),
                CL_DEVICE_NOT_FOUND);
   CHECK_EQ_INT(clGetDeviceIDs(platform, 0, 0, NULL, &n), CL_INVALID_DEVICE_TYPE);
   CHECK_EQ_INT(clGetDeviceIDs(platform, (cl_device_type)1 << 40, 0, NULL, &n),
                CL_INVALID_DEVICE_TYPE);
   CHECK_EQ_INT(clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 0, &d2, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, NULL, NULL), CL_INVALID_VALUE);
}

static void
test_device_info(void)
{
   char name[64] = "";
   CHECK_EQ_INT(clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof(name), name, NULL), CL_SUCCESS);
   /* The software GPU's target and its board's compute units (sim/isa/sim_target.c). */
   char target[32];
   test_sim_target(target, sizeof(target));
   CHECK_STR(name, target);
   /* The driver version names the runtime, and on the software one the agent's target. */
   char drv[128] = "", want[64];
   clGetDeviceInfo(device, CL_DRIVER_VERSION, sizeof(drv), drv, NULL);
   snprintf(want, sizeof(want), "(HSA runtime: software %s agent)", target);
   CHECK(strstr(drv, want) != NULL || strstr(drv, "(HSA runtime: ROCr)") != NULL);
   cl_uint u = 0, cus = !strcmp(name, "gfx90a") ? 104 : !strcmp(name, "gfx1030") ? 72 : 60;
   clGetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(u), &u, NULL);
   CHECK_EQ_INT(u, cus);
   size_t s = 0;
   clGetDeviceInfo(device, CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof(s), &s, NULL);
   CHECK_EQ_INT(s, test_sim_wave_size()); /* the wave size kernels are compiled for */
   clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof(s), &s, NULL);
   CHECK_EQ_INT(s, 1024); /* the hardware's (larger launches run the wide variant) */
   size_t items[3] = { 0, 0, 0 };
   clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof(items), items, NULL);
   CHECK_EQ_INT(items[0], 1024);
   cl_ulong lds = 0, mem = 0, alloc = 0;
   clGetDeviceInfo(device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof(lds), &lds, NULL);
   CHECK_EQ_INT(lds, 65536);
   clGetDeviceInfo(device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof(mem), &mem, NULL);
   clGetDeviceInfo(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof(alloc), &alloc, NULL);
   CHECK(mem > 0 && alloc > 0 && alloc <= mem);
   CHECK(alloc > (2ull << 30)); /* no 2 GiB cap */
   cl_bool b = CL_TRUE;
   clGetDeviceInfo(device, CL_DEVICE_IMAGE_SUPPORT, sizeof(b), &b, NULL);
   /* Images are the runtime's image extension's: ROCr has one (the software runtime once
    * sim/ provides it); the limits follow the answer. */
   const char *rt = getenv("HSACL_RUNTIME");
   if (rt && !strcmp(rt, "rocr"))
      CHECK_EQ_INT(b, CL_TRUE);
   size_t w2 = 7;
   clGetDeviceInfo(device, CL_DEVICE_IMAGE2D_MAX_WIDTH, sizeof(w2), &w2, NULL);
   CHECK_EQ_INT(w2, b ? 16384 : 0);
   image_support = b;
   cl_platform_id p = NULL;
   clGetDeviceInfo(device, CL_DEVICE_PLATFORM, sizeof(p), &p, NULL);
   CHECK(p == platform);

   /* Every OpenCL 3.0 query (cl.h) answers and follows the size protocol. */
   const cl_uint queries[] = {
      CL_DEVICE_TYPE, CL_DEVICE_VENDOR_ID, CL_DEVICE_MAX_COMPUTE_UNITS,
      CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, CL_DEVICE_MAX_WORK_GROUP_SIZE,
      CL_DEVICE_MAX_WORK_ITEM_SIZES, CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR,
      CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT, CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT,
      CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG, CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT,
      CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE, CL_DEVICE_MAX_CLOCK_FREQUENCY,
      CL_DEVICE_ADDRESS_BITS, CL_DEVICE_MAX_READ_IMAGE_ARGS, CL_DEVICE_MAX_WRITE_IMAGE_ARGS,
      CL_DEVICE_MAX_MEM_ALLOC_SIZE, CL_DEVICE_IMAGE2D_MAX_WIDTH, CL_DEVICE_IMAGE2D_MAX_HEIGHT,
      CL_DEVICE_IMAGE3D_MAX_WIDTH, CL_DEVICE_IMAGE3D_MAX_HEIGHT, CL_DEVICE_IMAGE3D_MAX_DEPTH,
      CL_DEVICE_IMAGE_SUPPORT, CL_DEVICE_MAX_PARAMETER_SIZE, CL_DEVICE_MAX_SAMPLERS,
      CL_DEVICE_MEM_BASE_ADDR_ALIGN, CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE,
      CL_DEVICE_SINGLE_FP_CONFIG, CL_DEVICE_GLOBAL_MEM_CACHE_TYPE,
      CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE,
      CL_DEVICE_GLOBAL_MEM_SIZE, CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, CL_DEVICE_MAX_CONSTANT_ARGS,
      CL_DEVICE_LOCAL_MEM_TYPE, CL_DEVICE_LOCAL_MEM_SIZE, CL_DEVICE_ERROR_CORRECTION_SUPPORT,
      CL_DEVICE_PROFILING_TIMER_RESOLUTION, CL_DEVICE_ENDIAN_LITTLE, CL_DEVICE_AVAILABLE,
      CL_DEVICE_COMPILER_AVAILABLE, CL_DEVICE_EXECUTION_CAPABILITIES,
      CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, CL_DEVICE_NAME, CL_DEVICE_VENDOR, CL_DRIVER_VERSION,
      CL_DEVICE_PROFILE, CL_DEVICE_VERSION, CL_DEVICE_EXTENSIONS, CL_DEVICE_PLATFORM,
      CL_DEVICE_DOUBLE_FP_CONFIG, CL_DEVICE_HALF_FP_CONFIG,
      CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF, CL_DEVICE_HOST_UNIFIED_MEMORY,
      CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR, CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT,
      CL_DEVICE_NATIVE_VECTOR_WIDTH_INT, CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG,
      CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE,
      CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF, CL_DEVICE_OPENCL_C_VERSION,
      CL_DEVICE_LINKER_AVAILABLE, CL_DEVICE_BUILT_IN_KERNELS, CL_DEVICE_IMAGE_MAX_BUFFER_SIZE,
      CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, CL_DEVICE_PARENT_DEVICE,
      CL_DEVICE_PARTITION_MAX_SUB_DEVICES, CL_DEVICE_PARTITION_PROPERTIES,
      CL_DEVICE_PARTITION_AFFINITY_DOMAIN, CL_DEVICE_PARTITION_TYPE, CL_DEVICE_REFERENCE_COUNT,
      CL_DEVICE_PREFERRED_INTEROP_USER_SYNC, CL_DEVICE_PRINTF_BUFFER_SIZE,
      CL_DEVICE_IMAGE_PITCH_ALIGNMENT, CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT,
      CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS, CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE,
      CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES, CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE,
      CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE, CL_DEVICE_MAX_ON_DEVICE_QUEUES,
      CL_DEVICE_MAX_ON_DEVICE_EVENTS, CL_DEVICE_SVM_CAPABILITIES,
      CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE, CL_DEVICE_MAX_PIPE_ARGS,
      CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS, CL_DEVICE_PIPE_MAX_PACKET_SIZE,
      CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT, CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT,
      CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT, CL_DEVICE_IL_VERSION,
      CL_DEVICE_MAX_NUM_SUB_GROUPS, CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS,
      CL_DEVICE_NUMERIC_VERSION, CL_DEVICE_EXTENSIONS_WITH_VERSION, CL_DEVICE_ILS_WITH_VERSION,
      CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION, CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES,
      CL_DEVICE_ATOMIC_FENCE_CAPABILITIES, CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT,
      CL_DEVICE_OPENCL_C_ALL_VERSIONS, CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
      CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT, CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT,
      CL_DEVICE_OPENCL_C_FEATURES, CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES,
      CL_DEVICE_PIPE_SUPPORT, CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED,
   };
   for (size_t i = 0; i < sizeof(queries) / sizeof(queries[0]); i++)
      check_info_protocol("device", get_device, device, queries[i]);
   CHECK_EQ_INT(clGetDeviceInfo(device, 0x7fff, 0, NULL, &s), CL_INVALID_VALUE);
   CHECK_EQ_INT(clRetainDevice(device), CL_SUCCESS);
   CHECK_EQ_INT(clReleaseDevice(device), CL_SUCCESS);
   const cl_device_partition_property equally[] = { CL_DEVICE_PARTITION_EQUALLY, 2, 0 };
   cl_uint n = 0;
   CHECK_EQ_INT(clCreateSubDevices(device, equally, 0, NULL, &n), CL_INVALID_VALUE);
   cl_ulong dt = 0, ht = 0, ht2 = 0;
   CHECK_EQ_INT(clGetDeviceAndHostTimer(device, &dt, &ht), CL_SUCCESS);
   CHECK_EQ_INT(clGetHostTimer(device, &ht2), CL_SUCCESS);
   CHECK(ht2 >= ht && dt > 0);
   CHECK_EQ_INT(clGetHostTimer(device, NULL), CL_INVALID_VALUE);
}

static int destructor_calls[2];
static int destructor_order;

static void CL_CALLBACK
destructor_cb(cl_context ctx, void *user)
{
   int *slot = user;
   *slot = ++destructor_order;
}

static void
test_context(void)
{
   cl_int err = 0;
   /* Error codes in the order §4.4 lists them. */
   cl_context_properties bad_platform[] = { CL_CONTEXT_PLATFORM, (cl_context_properties)&err,
                                            0 };
   CHECK(clCreateContext(bad_platform, 1, &device, NULL, NULL, &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_PLATFORM);
   cl_context_properties twice[] = { CL_CONTEXT_PLATFORM, (cl_context_properties)platform,
                                     CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0 };
   clCreateContext(twice, 1, &device, NULL, NULL, &err);
   CHECK_EQ_INT(err, CL_INVALID_PROPERTY);
   cl_context_properties unknown[] = { 0x7777, 1, 0 };
   clCreateContext(unknown, 1, &device, NULL, NULL, &err);
   CHECK_EQ_INT(err, CL_INVALID_PROPERTY);
   cl_context_properties bad_sync[] = { CL_CONTEXT_INTEROP_USER_SYNC, 7, 0 };
   clCreateContext(bad_sync, 1, &device, NULL, NULL, &err);
   CHECK_EQ_INT(err, CL_INVALID_PROPERTY);
   clCreateContext(NULL, 0, &device, NULL, NULL, &err);
   CHECK_EQ_INT(err, CL_INVALID_VALUE);
   clCreateContext(NULL, 1, NULL, NULL, NULL, &err);
   CHECK_EQ_INT(err, CL_INVALID_VALUE);
   clCreateContext(NULL, 1, &device, NULL, &err, &err);
   CHECK_EQ_INT(err, CL_INVALID_VALUE);
   cl_device_id bad_dev[2] = { device, (cl_device_id)platform };
   clCreateContext(NULL, 2, bad_dev, NULL, NULL, &err);
   CHECK_EQ_INT(err, CL_INVALID_DEVICE);
   CHECK(clCreateContextFromType(NULL, CL_DEVICE_TYPE_CPU, NULL, NULL, &err) == NULL);
   CHECK_EQ_INT(err, CL_DEVICE_NOT_FOUND);
   clCreateContextFromType(NULL, 0, NULL, NULL, &err);
   CHECK_EQ_INT(err, CL_INVALID_DEVICE_TYPE);

   cl_context_properties props[] = { CL_CONTEXT_PLATFORM, (cl_context_properties)platform,
                                     CL_CONTEXT_INTEROP_USER_SYNC, CL_TRUE, 0 };
   cl_device_id dup[2] = { device, device };
   cl_context ctx = clCreateContext(props, 2, dup, NULL, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_uint n = 0;
   clGetContextInfo(ctx, CL_CONTEXT_NUM_DEVICES, sizeof(n), &n, NULL);
   CHECK_EQ_INT(n, 1); /* duplicates ignored */
   cl_context_properties got[5] = { 0 };
   size_t size = 0;
   clGetContextInfo(ctx, CL_CONTEXT_PROPERTIES, sizeof(got), got, &size);
   CHECK_EQ_INT(size, sizeof(props));
   CHECK(!memcmp(got, props, sizeof(props)));
   const cl_uint queries[] = { CL_CONTEXT_REFERENCE_COUNT, CL_CONTEXT_DEVICES,
                               CL_CONTEXT_PROPERTIES, CL_CONTEXT_NUM_DEVICES };
   for (size_t i = 0; i < 4; i++)
      check_info_protocol("context", get_context, ctx, queries[i]);
   CHECK_EQ_INT(clGetContextInfo(ctx, 0x7fff, 0, NULL, &size), CL_INVALID_VALUE);

   CHECK_EQ_INT(clRetainContext(ctx), CL_SUCCESS);
   clGetContextInfo(ctx, CL_CONTEXT_REFERENCE_COUNT, sizeof(n), &n, NULL);
   CHECK_EQ_INT(n, 2);
   CHECK_EQ_INT(clSetContextDestructorCallback(ctx, destructor_cb, &destructor_calls[0]),
                CL_SUCCESS);
   CHECK_EQ_INT(clSetContextDestructorCallback(ctx, destructor_cb, &destructor_calls[1]),
                CL_SUCCESS);
   CHECK_EQ_INT(clSetContextDestructorCallback(ctx, NULL, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(clReleaseContext(ctx), CL_SUCCESS);
   CHECK_EQ_INT(destructor_order, 0);

   /* A queue keeps its context alive after the context's last API release. */
   cl_command_queue q = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   CHECK_EQ_INT(clReleaseContext(ctx), CL_SUCCESS);
   CHECK_EQ_INT(destructor_order, 0);
   CHECK_EQ_INT(clReleaseCommandQueue(q), CL_SUCCESS);
   /* Reverse order of registration. */
   CHECK_EQ_INT(destructor_calls[1], 1);
   CHECK_EQ_INT(destructor_calls[0], 2);

   ctx = clCreateContextFromType(NULL, CL_DEVICE_TYPE_GPU, NULL, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   clGetContextInfo(ctx, CL_CONTEXT_PROPERTIES, 0, NULL, &size);
   CHECK_EQ_INT(size, 0);
   clReleaseContext(ctx);
}

static void
test_queue(void)
{
   cl_int err;
   cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);

   /* Errors in the order §5.1 lists them. */
   clCreateCommandQueueWithProperties((cl_context)device, device, NULL, &err);
   CHECK_EQ_INT(err, CL_INVALID_CONTEXT);
   clCreateCommandQueueWithProperties(ctx, (cl_device_id)ctx, NULL, &err);
   CHECK_EQ_INT(err, CL_INVALID_DEVICE);
   cl_queue_properties unknown[] = { 0x7777, 0, 0 };
   clCreateCommandQueueWithProperties(ctx, device, unknown, &err);
   CHECK_EQ_INT(err, CL_INVALID_VALUE);
   cl_queue_properties bad_bits[] = { CL_QUEUE_PROPERTIES, 1 << 20, 0 };
   clCreateCommandQueueWithProperties(ctx, device, bad_bits, &err);
   CHECK_EQ_INT(err, CL_INVALID_VALUE);
   cl_queue_properties on_dev_in_order[] = { CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE, 0 };
   clCreateCommandQueueWithProperties(ctx, device, on_dev_in_order, &err);
   CHECK_EQ_INT(err, CL_INVALID_VALUE);
   cl_queue_properties size_host[] = { CL_QUEUE_SIZE, 1024, 0 };
   clCreateCommandQueueWithProperties(ctx, device, size_host, &err);
   CHECK_EQ_INT(err, CL_INVALID_VALUE);
   cl_queue_properties on_dev[] = { CL_QUEUE_PROPERTIES,
                                    CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
                                    0 };
   /* A device queue (device-side enqueue: tests/dispatch/api_devenq_test.c tests it). */
   cl_command_queue dq = clCreateCommandQueueWithProperties(ctx, device, on_dev, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_uint qsize = 0;
   clGetCommandQueueInfo(dq, CL_QUEUE_SIZE, sizeof(qsize), &qsize, NULL);
   CHECK_EQ_INT(qsize, 16 * 1024 * 1024); /* CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE */
   if (dq)
      clReleaseCommandQueue(dq);
   clCreateCommandQueue(ctx, device, CL_QUEUE_ON_DEVICE, &err);
   CHECK_EQ_INT(err, CL_INVALID_VALUE);

   cl_queue_properties props[] = { CL_QUEUE_PROPERTIES,
                                   CL_QUEUE_PROFILING_ENABLE |
                                      CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
                                   0 };
   cl_command_queue q = clCreateCommandQueueWithProperties(ctx, device, props, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_command_queue_properties p = 0;
   clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof(p), &p, NULL);
   CHECK_EQ_INT(p, CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
   cl_queue_properties arr[3] = { 0 };
   size_t size = 0;
   clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, sizeof(arr), arr, &size);
   CHECK_EQ_INT(size, sizeof(props));
   CHECK(!memcmp(arr, props, sizeof(props)));
   cl_context c2 = NULL;
   clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof(c2), &c2, NULL);
   CHECK(c2 == ctx);
   const cl_uint queries[] = { CL_QUEUE_CONTEXT, CL_QUEUE_DEVICE, CL_QUEUE_REFERENCE_COUNT,
                               CL_QUEUE_PROPERTIES, CL_QUEUE_PROPERTIES_ARRAY,
                               CL_QUEUE_DEVICE_DEFAULT };
   for (size_t i = 0; i < sizeof(queries) / sizeof(queries[0]); i++)
      check_info_protocol("queue", get_queue, q, queries[i]);
   CHECK_EQ_INT(clGetCommandQueueInfo(q, CL_QUEUE_SIZE, 0, NULL, &size),
                CL_INVALID_COMMAND_QUEUE);
   CHECK_EQ_INT(clFlush(q), CL_SUCCESS);
   CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
   CHECK_EQ_INT(clRetainCommandQueue(q), CL_SUCCESS);
   cl_uint rc = 0;
   clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof(rc), &rc, NULL);
   CHECK_EQ_INT(rc, 2);
   CHECK_EQ_INT(clReleaseCommandQueue(q), CL_SUCCESS);

   cl_command_queue q1 = clCreateCommandQueue(ctx, device, 0, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   clGetCommandQueueInfo(q1, CL_QUEUE_PROPERTIES_ARRAY, 0, NULL, &size);
   CHECK_EQ_INT(size, 0);

   /* Wrong-type handles give the specific code, never a crash. */
   CHECK_EQ_INT(clRetainCommandQueue((cl_command_queue)ctx), CL_INVALID_COMMAND_QUEUE);
   CHECK_EQ_INT(clReleaseContext((cl_context)q1), CL_INVALID_CONTEXT);
   CHECK_EQ_INT(clGetDeviceInfo((cl_device_id)ctx, CL_DEVICE_NAME, 0, NULL, &size),
                CL_INVALID_DEVICE);
   CHECK_EQ_INT(clGetContextInfo((cl_context)device, CL_CONTEXT_NUM_DEVICES, 0, NULL, &size),
                CL_INVALID_CONTEXT);
   CHECK_EQ_INT(clFinish((cl_command_queue)device), CL_INVALID_COMMAND_QUEUE);
   /* Samplers exist exactly with image support; CL_INVALID_OPERATION otherwise. */
   cl_sampler smp = clCreateSampler(ctx, CL_FALSE, CL_ADDRESS_NONE, CL_FILTER_NEAREST, &err);
   CHECK_EQ_INT(err, image_support ? CL_SUCCESS : CL_INVALID_OPERATION);
   if (smp)
      clReleaseSampler(smp);

   CHECK_EQ_INT(clReleaseCommandQueue(q), CL_SUCCESS);
   CHECK_EQ_INT(clReleaseCommandQueue(q1), CL_SUCCESS);
   CHECK_EQ_INT(clReleaseContext(ctx), CL_SUCCESS);
}

int
main(void)
{
   test_platform();
   test_device_ids();
   if (device) {
      test_device_info();
      test_context();
      test_queue();
   } else {
      fprintf(stderr, "no hsacl device: device, context and queue tests cannot run\n");
      test_failed++;
   }
   return test_main_end();
}
