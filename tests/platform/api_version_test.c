/*
 * tests/platform/api_version_test.c — the OpenCL version profiles (platform/plat.h
 * plat_opencl_version): `api_version_test 1.2` (run under HSACL_OPENCL_VERSION=1.2) checks
 * the 1.2 profile answers as OpenCL 1.2 specifies; `api_version_test 2.0` (under
 * HSACL_OPENCL_VERSION=2.0) that the 2.0 profile answers as an OpenCL 2.0 device (the later
 * queries refused, the 2.0 ones with their minimums, OpenCL C 2.0 the highest version, pipes,
 * device-side enqueue, SVM and sub-groups run, the newer entry points); `api_version_test 3.0` (the default
 * profile) checks the OpenCL 3.0 queries of API §4.1/§4.2 agree with each
 * other — every OpenCL C feature listed has its query counterpart and no counterpart claims
 * an unlisted feature — and that a -cl-std=CL3.0 program sees exactly the listed feature
 * macros, __OPENCL_VERSION__ 300, and runs the listed features.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext.h>

#include "hsacl_test.h"
#include "hsacl_cl_test.h"

#include <stdbool.h>

static cl_platform_id platform;
static cl_device_id device;
static cl_context context;
static cl_command_queue queue;

/* Every optional OpenCL C 3.0 feature (OpenCL C 3.0 §6.2.1). */
static const char *const all_features[] = {
   "__opencl_c_3d_image_writes",
   "__opencl_c_atomic_order_acq_rel",
   "__opencl_c_atomic_order_seq_cst",
   "__opencl_c_atomic_scope_device",
   "__opencl_c_atomic_scope_all_devices",
   "__opencl_c_device_enqueue",
   "__opencl_c_generic_address_space",
   "__opencl_c_fp16",
   "__opencl_c_fp64",
   "__opencl_c_images",
   "__opencl_c_int64",
   "__opencl_c_integer_dot_product_input_4x8bit",        /* cl_khr_integer_dot_product */
   "__opencl_c_integer_dot_product_input_4x8bit_packed", /* (OpenCL C 3.1 core) */
   "__opencl_c_pipes",
   "__opencl_c_program_scope_global_variables",
   "__opencl_c_read_write_images",
   "__opencl_c_subgroups",
   "__opencl_c_work_group_collective_functions",
};
#define NUM_ALL_FEATURES (sizeof(all_features) / sizeof(all_features[0]))

/* Features of extensions, listed with the extension's version (1.0.0) and only beside it:
 * cl_ext_float_atomics (no half add) and cl_khr_kernel_clock. */
static const struct {
   const char *name, *extension;
} ext_features[] = {
   { "__opencl_c_ext_fp16_global_atomic_load_store", "cl_ext_float_atomics" },
   { "__opencl_c_ext_fp16_local_atomic_load_store", "cl_ext_float_atomics" },
   { "__opencl_c_ext_fp32_global_atomic_add", "cl_ext_float_atomics" },
   { "__opencl_c_ext_fp64_global_atomic_add", "cl_ext_float_atomics" },
   { "__opencl_c_ext_fp32_local_atomic_add", "cl_ext_float_atomics" },
   { "__opencl_c_ext_fp64_local_atomic_add", "cl_ext_float_atomics" },
   { "__opencl_c_ext_fp16_global_atomic_min_max", "cl_ext_float_atomics" },
   { "__opencl_c_ext_fp32_global_atomic_min_max", "cl_ext_float_atomics" },
   { "__opencl_c_ext_fp64_global_atomic_min_max", "cl_ext_float_atomics" },
   { "__opencl_c_ext_fp16_local_atomic_min_max", "cl_ext_float_atomics" },
   { "__opencl_c_ext_fp32_local_atomic_min_max", "cl_ext_float_atomics" },
   { "__opencl_c_ext_fp64_local_atomic_min_max", "cl_ext_float_atomics" },
   { "__opencl_c_kernel_clock_scope_device", "cl_khr_kernel_clock" },
   { "__opencl_c_kernel_clock_scope_work_group", "cl_khr_kernel_clock" },
   { "__opencl_c_kernel_clock_scope_sub_group", "cl_khr_kernel_clock" },
};
#define NUM_EXT_FEATURES (sizeof(ext_features) / sizeof(ext_features[0]))

/* The 3.x profile under test: 0 for 3.0, 1 for 3.1. */
static unsigned profile_minor;

/* Features the device lists (CL_DEVICE_OPENCL_C_FEATURES). */
static cl_name_version features[64];
static size_t num_features;

static bool
listed(const char *name)
{
   for (size_t i = 0; i < num_features; i++) {
      if (!strcmp(features[i].name, name))
         return true;
   }
   return false;
}

static char *
device_string(cl_device_info param)
{
   size_t size = 0;
   if (clGetDeviceInfo(device, param, 0, NULL, &size) != CL_SUCCESS)
      return strdup("?");
   char *s = calloc(1, size + 1);
   clGetDeviceInfo(device, param, size, s, NULL);
   return s;
}

static char *
platform_string(cl_platform_info param)
{
   size_t size = 0;
   if (clGetPlatformInfo(platform, param, 0, NULL, &size) != CL_SUCCESS)
      return strdup("?");
   char *s = calloc(1, size + 1);
   clGetPlatformInfo(platform, param, size, s, NULL);
   return s;
}

static cl_ulong
device_scalar(cl_device_info param, size_t size)
{
   cl_ulong v = 0;
   size_t got = 0;
   CHECK_EQ_INT(clGetDeviceInfo(device, param, size, &v, &got), CL_SUCCESS);
   CHECK_EQ_INT(got, size);
   return v; /* little-endian: the low `size` bytes */
}

static bool
has_extension(const char *name)
{
   char *ext = device_string(CL_DEVICE_EXTENSIONS);
   size_t n = strlen(name);
   bool found = false;
   for (const char *p = ext; (p = strstr(p, name)); p += n) {
      if ((p == ext || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) {
         found = true;
         break;
      }
   }
   free(ext);
   return found;
}

/* Platform and device versions: "OpenCL <major>.<minor> ..." and the numeric forms. */
static void
check_versions(unsigned major, unsigned minor)
{
   char prefix[32];
   snprintf(prefix, sizeof(prefix), "OpenCL %u.%u ", major, minor);
   char *pv = platform_string(CL_PLATFORM_VERSION);
   char *dv = device_string(CL_DEVICE_VERSION);
   char *cv = device_string(CL_DEVICE_OPENCL_C_VERSION);
   if (strncmp(pv, prefix, strlen(prefix)) || strncmp(dv, prefix, strlen(prefix))) {
      fprintf(stderr, "platform \"%s\", device \"%s\": expected \"%s...\"\n", pv, dv, prefix);
      test_failed++;
   } else {
      test_passed++;
   }
   /* The highest fully backwards compatible version: OpenCL C 2.0 in the 3.0 profiles
    * (every 2.0 feature, device-side enqueue included), 1.2 in the 1.2 profile. */
   CHECK_STR(cv, major == 3 ? "OpenCL C 2.0 " : "OpenCL C 1.2 ");
   free(pv);
   free(dv);
   free(cv);
   cl_version num = 0;
   CHECK_EQ_INT(clGetPlatformInfo(platform, CL_PLATFORM_NUMERIC_VERSION, sizeof(num), &num, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(num, CL_MAKE_VERSION(major, minor, 0));
   CHECK_EQ_INT(device_scalar(CL_DEVICE_NUMERIC_VERSION, sizeof(cl_version)),
                CL_MAKE_VERSION(major, minor, 0));

   cl_name_version cver[16];
   size_t size = 0;
   CHECK_EQ_INT(clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_ALL_VERSIONS, sizeof(cver), cver, &size),
                CL_SUCCESS);
   size_t n = size / sizeof(cl_name_version);
   bool v12 = false, v30 = false, v20 = false;
   for (size_t i = 0; i < n; i++) {
      CHECK_STR(cver[i].name, "OpenCL C");
      v12 |= cver[i].version == CL_MAKE_VERSION(1, 2, 0);
      v20 |= CL_VERSION_MAJOR(cver[i].version) == 2;
      v30 |= cver[i].version == CL_MAKE_VERSION(3, 0, 0);
   }
   bool v31 = false;
   for (size_t i = 0; i < n; i++)
      v31 |= cver[i].version == CL_MAKE_VERSION(3, 1, 0);
   CHECK(v12);
   CHECK_EQ_INT(v20, major == 3);
   CHECK_EQ_INT(v30, major == 3);
   CHECK_EQ_INT(v31, major == 3 && minor == 1);
   CHECK_EQ_INT(n, major == 3 ? 5 + minor : 3);

   size = 1;
   CHECK_EQ_INT(
      clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES, sizeof(features), features, &size),
      CL_SUCCESS);
   num_features = size / sizeof(cl_name_version);
   CHECK_EQ_INT(size % sizeof(cl_name_version), 0);
}

/* The 1.2 profile answers exactly what it answered before the 3.0 profile existed. */
static void
check_profile_12(void)
{
   check_versions(1, 2);
   CHECK_EQ_INT(num_features, 0);
   CHECK_EQ_INT(
      device_scalar(CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES, sizeof(cl_device_atomic_capabilities)),
      CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP);
   CHECK_EQ_INT(
      device_scalar(CL_DEVICE_ATOMIC_FENCE_CAPABILITIES, sizeof(cl_device_atomic_capabilities)),
      CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
         CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP);
   CHECK_EQ_INT(device_scalar(CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT, sizeof(cl_bool)), 0);
   CHECK_EQ_INT(device_scalar(CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, sizeof(cl_bool)), 0);
   CHECK_EQ_INT(device_scalar(CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT, sizeof(cl_bool)),
                0);
   CHECK_EQ_INT(device_scalar(CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE, sizeof(size_t)), 0);
   CHECK_EQ_INT(device_scalar(CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE, sizeof(size_t)), 0);
   CHECK_EQ_INT(device_scalar(CL_DEVICE_PIPE_SUPPORT, sizeof(cl_bool)), 0);
   CHECK_EQ_INT(device_scalar(CL_DEVICE_MAX_NUM_SUB_GROUPS, sizeof(cl_uint)), 0);
   char *conf = device_string(CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED);
   CHECK_STR(conf, "v0000-00-00-00");
   free(conf);
}

/* Each feature agrees with the query §4.2 ties it to: listed <=> the query says so. */
static void
check_feature_queries(void)
{
   for (size_t i = 0; i < num_features; i++) {
      bool core = false;
      for (size_t j = 0; j < NUM_ALL_FEATURES; j++)
         core |= !strcmp(features[i].name, all_features[j]);
      const char *extension = NULL;
      for (size_t j = 0; j < NUM_EXT_FEATURES; j++)
         if (!strcmp(features[i].name, ext_features[j].name))
            extension = ext_features[j].extension;
      if (!core && !extension)
         fprintf(stderr, "unknown feature %s\n", features[i].name);
      CHECK(core || extension);
      if (extension) {
         CHECK_EQ_INT(features[i].version, CL_MAKE_VERSION(1, 0, 0));
         CHECK(test_device_lists(device, CL_DEVICE_EXTENSIONS, extension));
      } else {
         CHECK_EQ_INT(features[i].version, CL_MAKE_VERSION(3, 0, 0));
      }
   }
   const cl_device_atomic_capabilities mem =
      device_scalar(CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES, sizeof(cl_device_atomic_capabilities));
   const cl_device_atomic_capabilities fence =
      device_scalar(CL_DEVICE_ATOMIC_FENCE_CAPABILITIES, sizeof(cl_device_atomic_capabilities));
   const cl_device_atomic_capabilities mem_min =
      CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP;
   const cl_device_atomic_capabilities fence_min = CL_DEVICE_ATOMIC_ORDER_RELAXED |
                                                   CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
                                                   CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP;
   CHECK_EQ_INT(mem & mem_min, mem_min);
   CHECK_EQ_INT(fence & fence_min, fence_min);
   /* A fence can do what an atomic can. */
   CHECK_EQ_INT(fence & mem, mem);

   CHECK(listed("__opencl_c_int64")); /* FULL_PROFILE */
   CHECK_EQ_INT(listed("__opencl_c_fp64"), has_extension("cl_khr_fp64"));
   CHECK_EQ_INT(listed("__opencl_c_fp64"),
                device_scalar(CL_DEVICE_DOUBLE_FP_CONFIG, sizeof(cl_device_fp_config)) != 0);
   CHECK_EQ_INT(listed("__opencl_c_fp16"), has_extension("cl_khr_fp16"));
   CHECK_EQ_INT(listed("__opencl_c_atomic_order_acq_rel"),
                !!(mem & CL_DEVICE_ATOMIC_ORDER_ACQ_REL));
   CHECK_EQ_INT(listed("__opencl_c_atomic_order_seq_cst"),
                !!(mem & CL_DEVICE_ATOMIC_ORDER_SEQ_CST));
   CHECK_EQ_INT(listed("__opencl_c_atomic_scope_device"), !!(mem & CL_DEVICE_ATOMIC_SCOPE_DEVICE));
   CHECK_EQ_INT(listed("__opencl_c_atomic_scope_all_devices"),
                !!(mem & CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES));
   CHECK_EQ_INT(listed("__opencl_c_generic_address_space"),
                device_scalar(CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT, sizeof(cl_bool)));
   CHECK_EQ_INT(listed("__opencl_c_work_group_collective_functions"),
                device_scalar(CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT, sizeof(cl_bool)));
   CHECK_EQ_INT(listed("__opencl_c_pipes"), device_scalar(CL_DEVICE_PIPE_SUPPORT, sizeof(cl_bool)));
   CHECK_EQ_INT(listed("__opencl_c_device_enqueue"),
                device_scalar(CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES,
                              sizeof(cl_device_device_enqueue_capabilities)) != 0);
   CHECK_EQ_INT(listed("__opencl_c_subgroups"),
                device_scalar(CL_DEVICE_MAX_NUM_SUB_GROUPS, sizeof(cl_uint)) != 0);
   CHECK_EQ_INT(listed("__opencl_c_images"),
                device_scalar(CL_DEVICE_IMAGE_SUPPORT, sizeof(cl_bool)));
   CHECK_EQ_INT(listed("__opencl_c_read_write_images"),
                device_scalar(CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS, sizeof(cl_uint)) != 0);
   CHECK_EQ_INT(listed("__opencl_c_3d_image_writes"), has_extension("cl_khr_3d_image_writes"));
   size_t gvar = device_scalar(CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE, sizeof(size_t));
   size_t gvar_total =
      device_scalar(CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE, sizeof(size_t));
   if (listed("__opencl_c_program_scope_global_variables")) {
      CHECK(gvar >= 64 * 1024); /* §4.2 minimum */
      CHECK(gvar_total > 0);
   } else {
      CHECK_EQ_INT(gvar, 0);
      CHECK_EQ_INT(gvar_total, 0);
   }
}

/* The rest of the 3.0 profile: SPIR-V 1.0-1.4, device queues (out-of-order, profiling),
 * conformance not passed yet. */
static void
check_profile_30(void)
{
   check_versions(3, profile_minor);
   CHECK(num_features > 0);
   check_feature_queries();
   char *il = device_string(CL_DEVICE_IL_VERSION);
   CHECK_STR(il, "SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2 SPIR-V_1.3 SPIR-V_1.4");
   free(il);
   size_t size = 1;
   CHECK_EQ_INT(clGetDeviceInfo(device, CL_DEVICE_ILS_WITH_VERSION, 0, NULL, &size), CL_SUCCESS);
   CHECK_EQ_INT(size, 5 * sizeof(cl_name_version));
   char *conf = device_string(CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED);
   CHECK_STR(conf, "v0000-01-01-00");
   free(conf);
   CHECK_EQ_INT(
      device_scalar(CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES, sizeof(cl_command_queue_properties)),
      CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE);
   CHECK(device_scalar(CL_DEVICE_SVM_CAPABILITIES, sizeof(cl_device_svm_capabilities)) &
         CL_DEVICE_SVM_COARSE_GRAIN_BUFFER);
   CHECK_EQ_INT(device_scalar(CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, sizeof(cl_bool)), 1);
}

/* ---- programs ------------------------------------------------------------------------ */

/* Builds `src` with `options`; returns NULL (and prints the log) on failure. */
static cl_program
build(const char *src, const char *options)
{
   cl_int err = CL_SUCCESS;
   cl_program p = clCreateProgramWithSource(context, 1, &src, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   if (!p)
      return NULL;
   err = clBuildProgram(p, 1, &device, options, NULL, NULL);
   if (err != CL_SUCCESS) {
      char log[8192] = "";
      clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, sizeof(log) - 1, log, NULL);
      fprintf(stderr, "build with \"%s\" failed (%d):\n%s\n", options, err, log);
      test_failed++;
      clReleaseProgram(p);
      return NULL;
   }
   test_passed++;
   return p;
}

/* A program that fails to build unless __OPENCL_VERSION__ and __OPENCL_C_VERSION__ are as
 * given and exactly the listed features are defined. */
static void
check_macros(const char *options, int opencl_version, int c_version)
{
   char src[8192];
   size_t n = (size_t)snprintf(src, sizeof(src),
                               "#if __OPENCL_VERSION__ != %d\n#error __OPENCL_VERSION__\n#endif\n"
                               "#if __OPENCL_C_VERSION__ != %d\n#error __OPENCL_C_VERSION__\n"
                               "#endif\n",
                               opencl_version, c_version);
   /* OpenCL C 2.0: clang-19 predefines the feature macros of what it takes as 2.0 core
    * itself, whatever -cl-ext says (images among them); the specification defines feature
    * macros from 3.0 on only, so 2.0 is not checked. */
   for (size_t i = 0; i < NUM_ALL_FEATURES && c_version != 200; i++) {
      bool want = c_version >= 300 && listed(all_features[i]);
      /* clang predefines it for every OpenCL C version (FULL_PROFILE). */
      if (!want && !strcmp(all_features[i], "__opencl_c_int64"))
         continue;
      /* The extension defines its input-format macros in every OpenCL C version where it
       * is supported (cl_khr_integer_dot_product 2.0.0; clang's opencl-c-base.h does so
       * for SPIR targets): defined exactly when the device reports the extension. */
      if (!strncmp(all_features[i], "__opencl_c_integer_dot_product_", 31))
         want = test_device_lists(device, CL_DEVICE_EXTENSIONS, "cl_khr_integer_dot_product");
      n += (size_t)snprintf(src + n, sizeof(src) - n, "#if%s %s\n#error %s %s\n#endif\n",
                            want ? "ndef" : "def", all_features[i], all_features[i],
                            want ? "missing" : "defined");
   }
   snprintf(src + n, sizeof(src) - n, "kernel void k(global int *p) { *p = 1; }\n");
   cl_program p = build(src, options);
   if (p)
      clReleaseProgram(p);
}

/*
 * One kernel per feature family, compiled in only when its macro is defined; results in
 * out[] (one work-group of 64). Slots: 0-2 generic pointers to global/local/private,
 * 3 work-group atomics (acq_rel add, seq_cst load), 4 device-scope atomics, 5 program-scope
 * variable before the launch's increment, 6 fp64, 7-8 work-group reduce/broadcast,
 * 64+lid inclusive scan.
 */
static const char feature_src[] =
   "#ifdef __opencl_c_program_scope_global_variables\n"
   "global long g_counter = 5;\n"
   "#endif\n"
   "#ifdef __opencl_c_generic_address_space\n"
   "static long twice(long *p) { return 2 * *p; }\n"
   "#endif\n"
   "kernel void features(global long *out, global const long *in) {\n"
   "   int lid = get_local_id(0);\n"
   "   local long lv;\n"
   "   if (lid == 0) lv = 21;\n"
   "#if defined(__opencl_c_atomic_order_acq_rel) && defined(__opencl_c_atomic_order_seq_cst)\n"
   "   local atomic_int la;\n"
   "   if (lid == 0) atomic_init(&la, 0);\n"
   "#endif\n"
   "   barrier(CLK_LOCAL_MEM_FENCE);\n"
   "#ifdef __opencl_c_generic_address_space\n"
   "   long priv = in[1] + lid;\n"
   "   if (lid == 0) { out[0] = twice((long *)&in[0]); out[1] = twice(&lv); }\n"
   "   if (lid == 1) out[2] = twice(&priv);\n"
   "#endif\n"
   "#if defined(__opencl_c_atomic_order_acq_rel) && defined(__opencl_c_atomic_order_seq_cst)\n"
   "   atomic_fetch_add_explicit(&la, 1, memory_order_acq_rel, memory_scope_work_group);\n"
   "   work_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
   "   if (lid == 0)\n"
   "      out[3] = atomic_load_explicit(&la, memory_order_seq_cst, memory_scope_work_group);\n"
   "#endif\n"
   "#if defined(__opencl_c_atomic_scope_device) && defined(__opencl_c_atomic_scope_all_devices)\n"
   "   atomic_fetch_add_explicit((volatile global atomic_long *)&out[4], 1,\n"
   "                             memory_order_seq_cst, memory_scope_device);\n"
   "   atomic_fetch_add_explicit((volatile global atomic_long *)&out[4], 2,\n"
   "                             memory_order_relaxed, memory_scope_all_devices);\n"
   "#endif\n"
   "#ifdef __opencl_c_program_scope_global_variables\n"
   "   if (lid == 0) out[5] = g_counter++;\n"
   "#endif\n"
   "#ifdef __opencl_c_fp64\n"
   "   if (lid == 0) out[6] = (long)((double)in[2] / 3.0 * 1e6);\n"
   "#endif\n"
   "#ifdef __opencl_c_work_group_collective_functions\n"
   "   long sum = work_group_reduce_add((long)lid);\n"
   "   int b = work_group_broadcast(lid * 3, 5);\n"
   "   out[64 + lid] = work_group_scan_inclusive_add(1);\n"
   "   if (lid == 0) { out[7] = sum; out[8] = b; }\n"
   "#endif\n"
   "}\n";

/* Runs feature_src built with `options` twice and checks every slot whose macros `has`
 * reports defined. */
static void
run_features_src(const char *src, const char *options, bool (*has)(const char *))
{
   cl_program p = build(src, options);
   if (!p)
      return;
   cl_int err = CL_SUCCESS;
   cl_kernel k = clCreateKernel(p, "features", &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_long in[3] = { 50, 7, 1000 };
   cl_mem out = clCreateBuffer(context, CL_MEM_READ_WRITE, 128 * sizeof(cl_long), NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_mem inb =
      clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(in), in, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   clSetKernelArg(k, 0, sizeof(out), &out);
   clSetKernelArg(k, 1, sizeof(inb), &inb);
   for (int launch = 0; launch < 2; launch++) {
      cl_long res[128];
      memset(res, 0, sizeof(res));
      CHECK_EQ_INT(clEnqueueWriteBuffer(queue, out, CL_TRUE, 0, sizeof(res), res, 0, NULL, NULL),
                   CL_SUCCESS);
      size_t global = 64, local = 64;
      CHECK_EQ_INT(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL),
                   CL_SUCCESS);
      CHECK_EQ_INT(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof(res), res, 0, NULL, NULL),
                   CL_SUCCESS);
      if (has("__opencl_c_generic_address_space")) {
         CHECK_EQ_INT(res[0], 100);
         CHECK_EQ_INT(res[1], 42);
         CHECK_EQ_INT(res[2], 16);
      }
      if (has("__opencl_c_atomic_order_acq_rel") && has("__opencl_c_atomic_order_seq_cst"))
         CHECK_EQ_INT(res[3], 64);
      if (has("__opencl_c_atomic_scope_device") && has("__opencl_c_atomic_scope_all_devices"))
         CHECK_EQ_INT(res[4], 3 * 64);
      if (has("__opencl_c_program_scope_global_variables"))
         CHECK_EQ_INT(res[5], 5 + launch); /* the variable lives as long as the program */
      if (has("__opencl_c_fp64"))
         CHECK_EQ_INT(res[6], 333333333);
      if (has("__opencl_c_work_group_collective_functions")) {
         CHECK_EQ_INT(res[7], 63 * 64 / 2);
         CHECK_EQ_INT(res[8], 15);
         int scan_ok = 1;
         for (int i = 0; i < 64; i++)
            scan_ok &= res[64 + i] == i + 1;
         CHECK(scan_ok);
      }
   }
   clReleaseMemObject(inb);
   clReleaseMemObject(out);
   clReleaseKernel(k);
   clReleaseProgram(p);
}

static void
run_features(const char *options, bool (*has)(const char *))
{
   run_features_src(feature_src, options, has);
}

/* feature_src's slots in OpenCL C 2.0, where all of it is core (no feature macros):
 * generic pointers, C11 atomics with memory_scope_all_svm_devices (OpenCL C 2.0's name),
 * a program-scope variable, doubles, work-group functions. */
static const char feature_src_20[] =
   "global long g_counter = 5;\n"
   "static long twice(long *p) { return 2 * *p; }\n"
   "kernel void features(global long *out, global const long *in) {\n"
   "   int lid = get_local_id(0);\n"
   "   local long lv;\n"
   "   local atomic_int la;\n"
   "   if (lid == 0) { lv = 21; atomic_init(&la, 0); }\n"
   "   barrier(CLK_LOCAL_MEM_FENCE);\n"
   "   long priv = in[1] + lid;\n"
   "   if (lid == 0) { out[0] = twice((long *)&in[0]); out[1] = twice(&lv); }\n"
   "   if (lid == 1) out[2] = twice(&priv);\n"
   "   atomic_fetch_add_explicit(&la, 1, memory_order_acq_rel, memory_scope_work_group);\n"
   "   work_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
   "   if (lid == 0)\n"
   "      out[3] = atomic_load_explicit(&la, memory_order_seq_cst, memory_scope_work_group);\n"
   "   atomic_fetch_add_explicit((volatile global atomic_long *)&out[4], 1,\n"
   "                             memory_order_seq_cst, memory_scope_device);\n"
   "   atomic_fetch_add_explicit((volatile global atomic_long *)&out[4], 2,\n"
   "                             memory_order_relaxed, memory_scope_all_svm_devices);\n"
   "   if (lid == 0) out[5] = g_counter++;\n"
   "   if (lid == 0) out[6] = (long)((double)in[2] / 3.0 * 1e6);\n"
   "   long sum = work_group_reduce_add((long)lid);\n"
   "   int b = work_group_broadcast(lid * 3, 5);\n"
   "   out[64 + lid] = work_group_scan_inclusive_add(1);\n"
   "   if (lid == 0) { out[7] = sum; out[8] = b; }\n"
   "}\n";

static bool
every_feature(const char *name)
{
   (void)name;
   return true;
}

/* API §5.8.6.5: -cl-std naming an OpenCL C version the device does not list in
 * CL_DEVICE_OPENCL_C_ALL_VERSIONS fails to compile, and the log says why; clCompileProgram
 * the same. */
static void
check_unsupported_std(const char *options)
{
   const char *src = "kernel void k(global int *p) { *p = 1; }";
   cl_int err = CL_SUCCESS;
   cl_program p = clCreateProgramWithSource(context, 1, &src, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   if (!p)
      return;
   CHECK_EQ_INT(clBuildProgram(p, 1, &device, options, NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
   char log[4096] = "";
   clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, sizeof(log) - 1, log, NULL);
   CHECK(strstr(log, "does not support OpenCL C") != NULL);
   cl_build_status bs = CL_BUILD_SUCCESS;
   clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_STATUS, sizeof(bs), &bs, NULL);
   CHECK_EQ_INT(bs, CL_BUILD_ERROR);
   CHECK_EQ_INT(clCompileProgram(p, 1, &device, options, 0, NULL, NULL, NULL, NULL),
                CL_COMPILE_PROGRAM_FAILURE);
   clReleaseProgram(p);
}

static void
check_programs_30(void)
{
   /* Without -cl-std the language is OpenCL C 1.2 (API §5.8.6.5), the device still 3.0. */
   int ov = 300 + 10 * (int)profile_minor;
   check_macros("", ov, 120);
   check_macros("-cl-std=CL1.2", ov, 120);
   check_macros("-cl-std=CL3.0", ov, 300);
   run_features("-cl-std=CL3.0", listed);
   check_macros("-cl-std=CL2.0", ov, 200); /* pipes and device-side enqueue: OpenCL C 2.0 */
   /* A local-memory argument of size 0: CL_INVALID_ARG_SIZE up to 3.0, allowed from 3.1
    * (clSetKernelArg), and the kernel then runs. */
   cl_program lp = build("kernel void k(global int *o, local int *l) { o[0] = 5; }", "");
   if (lp) {
      cl_int err;
      cl_kernel k = clCreateKernel(lp, "k", &err);
      CHECK_EQ_INT(clSetKernelArg(k, 1, 0, NULL), profile_minor ? CL_SUCCESS : CL_INVALID_ARG_SIZE);
      if (profile_minor) {
         cl_mem o = clCreateBuffer(context, CL_MEM_READ_WRITE, 4, NULL, &err);
         clSetKernelArg(k, 0, sizeof(o), &o);
         size_t one = 1;
         CHECK_EQ_INT(clEnqueueNDRangeKernel(queue, k, 1, NULL, &one, &one, 0, NULL, NULL),
                      CL_SUCCESS);
         cl_int v = 0;
         clEnqueueReadBuffer(queue, o, CL_TRUE, 0, 4, &v, 0, NULL, NULL);
         CHECK_EQ_INT(v, 5);
         clReleaseMemObject(o);
      }
      clReleaseKernel(k);
      clReleaseProgram(lp);
   }
   if (profile_minor == 1) {
      /* OpenCL C 3.1 (clang-19 parses it as 3.0 with the 3.1 macros): the features as in
       * 3.0, CL_VERSION_3_1, and a 3.1 addition (printf's z) building. */
      check_macros("-cl-std=CL3.1", 310, 310);
      run_features("-cl-std=CL3.1", listed);
      cl_program p = build("#if CL_VERSION_3_1 != 310 || CL_VERSION_3_0 != 300\n"
                           "#error version macros\n#endif\n"
                           "kernel void k(global int *o) { printf(\"%zu\", (size_t)1); }\n",
                           "-cl-std=CL3.1");
      CHECK(p != NULL);
      if (p)
         clReleaseProgram(p);
   } else {
      check_unsupported_std("-cl-std=CL3.1");
   }
}

/* Program-scope global constructors/destructors are not supported: the 3.0 answers (API
 * §5.8.3, §5.8.9) of the queries and functions that depend on them; IL programs are. */
static void CL_CALLBACK
release_cb(cl_program p, void *user_data)
{
   (void)p;
   (void)user_data;
}

static void
check_program_support_30(void)
{
   cl_program p = build("kernel void k(global int *o) { o[0] = 1; }", "");
   if (!p)
      return;
   cl_bool b = CL_TRUE;
   CHECK_EQ_INT(clGetProgramInfo(p, CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT, sizeof(b), &b, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(b, CL_FALSE);
   b = CL_TRUE;
   CHECK_EQ_INT(clGetProgramInfo(p, CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT, sizeof(b), &b, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(b, CL_FALSE);
   /* Deprecated in OpenCL 3.0 and still part of the API the test pins. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
   CHECK_EQ_INT(clSetProgramReleaseCallback(p, release_cb, NULL), CL_INVALID_OPERATION);
   CHECK_EQ_INT(clSetProgramReleaseCallback(p, NULL, NULL), CL_INVALID_VALUE);
#pragma GCC diagnostic pop
   cl_uint v = 42;
   /* Not a program created from IL (§5.8.3). */
   CHECK_EQ_INT(clSetProgramSpecializationConstant(p, 0, sizeof(v), &v), CL_INVALID_PROGRAM);
   /* The 3.0 profile takes SPIR-V: 4 bytes are not a module. */
   cl_int err = CL_SUCCESS;
   CHECK(clCreateProgramWithIL(context, &v, sizeof(v), &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_VALUE);
   clReleaseProgram(p);
}

/* A global size of 0: an error up to OpenCL 2.0, an empty command from 2.1 (API §5.10). */
static void
check_zero_size(bool v30)
{
   cl_program p = build("kernel void k(global int *o) { o[get_global_id(0)] = 7; }", "");
   if (!p)
      return;
   cl_int err = CL_SUCCESS;
   cl_kernel k = clCreateKernel(p, "k", &err);
   cl_mem m = clCreateBuffer(context, CL_MEM_READ_WRITE, 64, NULL, &err);
   clSetKernelArg(k, 0, sizeof(m), &m);
   int zero[16] = { 0 }, back[16] = { -1 };
   clEnqueueWriteBuffer(queue, m, CL_TRUE, 0, sizeof(zero), zero, 0, NULL, NULL);
   size_t g[2] = { 0, 4 }, l[2] = { 1, 1 };
   cl_event ev = NULL;
   err = clEnqueueNDRangeKernel(queue, k, 2, NULL, g, l, 0, NULL, &ev);
   if (v30) {
      CHECK_EQ_INT(err, CL_SUCCESS);
      CHECK_EQ_INT(clWaitForEvents(1, &ev), CL_SUCCESS);
      cl_int st = -1;
      clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(st), &st, NULL);
      CHECK_EQ_INT(st, CL_COMPLETE);
      cl_command_type t = 0;
      clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof(t), &t, NULL);
      CHECK_EQ_INT(t, CL_COMMAND_NDRANGE_KERNEL);
      clReleaseEvent(ev);
      CHECK_EQ_INT(clEnqueueNDRangeKernel(queue, k, 1, NULL, g, NULL, 0, NULL, NULL), CL_SUCCESS);
   } else {
      CHECK_EQ_INT(err, CL_INVALID_GLOBAL_WORK_SIZE);
      CHECK(ev == NULL);
   }
   CHECK_EQ_INT(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof(back), back, 0, NULL, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(back[0], 0); /* nothing ran */
   clReleaseMemObject(m);
   clReleaseKernel(k);
   clReleaseProgram(p);
}

/* ---- the 2.0 profile ------------------------------------------------------------------ */

/* The device queries OpenCL 2.1 and 3.0 added: not part of an OpenCL 2.0 device. */
static const cl_device_info device_queries_after_20[] = {
   CL_DEVICE_MAX_NUM_SUB_GROUPS, CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS,
   CL_DEVICE_NUMERIC_VERSION, CL_DEVICE_EXTENSIONS_WITH_VERSION, CL_DEVICE_ILS_WITH_VERSION,
   CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION, CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES,
   CL_DEVICE_ATOMIC_FENCE_CAPABILITIES, CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT,
   CL_DEVICE_OPENCL_C_ALL_VERSIONS, CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
   CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT, CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT,
   CL_DEVICE_OPENCL_C_FEATURES, CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, CL_DEVICE_PIPE_SUPPORT,
   CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED,
};

/* The 2.0 profile reports what AMD's OpenCL 2.0 reports, and every 2.0 query as the 2.0
 * specification (API 2.0 §4.1, §4.2) defines it. */
static void
check_profile_20(void)
{
   char *pv = platform_string(CL_PLATFORM_VERSION);
   char *dv = device_string(CL_DEVICE_VERSION);
   char *cv = device_string(CL_DEVICE_OPENCL_C_VERSION);
   CHECK(!strncmp(pv, "OpenCL 2.0 ", 11));
   CHECK(!strncmp(dv, "OpenCL 2.0 ", 11));
   CHECK_STR(cv, "OpenCL C 2.0 ");
   free(pv);
   free(dv);
   free(cv);
   size_t size = 0;
   for (size_t i = 0; i < sizeof(device_queries_after_20) / sizeof(device_queries_after_20[0]);
        i++) {
      cl_int err = clGetDeviceInfo(device, device_queries_after_20[i], 0, NULL, &size);
      if (err != CL_INVALID_VALUE)
         fprintf(stderr, "device query 0x%x answered %d in the 2.0 profile\n",
                 (unsigned)device_queries_after_20[i], err);
      CHECK_EQ_INT(err, CL_INVALID_VALUE);
   }
   static const cl_platform_info platform_after_20[] = {
      CL_PLATFORM_HOST_TIMER_RESOLUTION, CL_PLATFORM_NUMERIC_VERSION,
      CL_PLATFORM_EXTENSIONS_WITH_VERSION
   };
   for (size_t i = 0; i < sizeof(platform_after_20) / sizeof(platform_after_20[0]); i++)
      CHECK_EQ_INT(clGetPlatformInfo(platform, platform_after_20[i], 0, NULL, &size),
                   CL_INVALID_VALUE);

   /* Extensions: what AMD's 2.0 device lists where hsacl has it. */
   static const char *const want[] = {
      "cl_khr_fp64", "cl_khr_fp16", "cl_khr_subgroups", "cl_khr_il_program",
      "cl_khr_global_int32_base_atomics", "cl_khr_global_int32_extended_atomics",
      "cl_khr_local_int32_base_atomics", "cl_khr_local_int32_extended_atomics",
      "cl_khr_int64_base_atomics", "cl_khr_int64_extended_atomics",
      "cl_khr_byte_addressable_store", "cl_amd_device_attribute_query",
   };
   for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
      if (!has_extension(want[i]))
         fprintf(stderr, "2.0 profile: %s missing\n", want[i]);
      CHECK(has_extension(want[i]));
   }
   cl_bool images = (cl_bool)device_scalar(CL_DEVICE_IMAGE_SUPPORT, sizeof(cl_bool));
   CHECK_EQ_INT(has_extension("cl_khr_image2d_from_buffer"), images);
   CHECK_EQ_INT(has_extension("cl_khr_3d_image_writes"), images);
   CHECK_EQ_INT(has_extension("cl_khr_depth_images"), images);
   CHECK_EQ_INT(device_scalar(CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS, sizeof(cl_uint)) >= 64,
                images);
   /* The platform's: cl_khr_icd and every device's (one device here: all of them). */
   char *pext = platform_string(CL_PLATFORM_EXTENSIONS);
   CHECK(!strncmp(pext, "cl_khr_icd ", 11));
   CHECK(strstr(pext, " cl_khr_il_program ") != NULL);
   CHECK(strstr(pext, " cl_khr_subgroups ") != NULL);
   free(pext);
   /* CL_DEVICE_IL_VERSION_KHR (cl_khr_il_program) is CL_DEVICE_IL_VERSION. */
   char *il = device_string(CL_DEVICE_IL_VERSION_KHR);
   CHECK_STR(il, "SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2 SPIR-V_1.3 SPIR-V_1.4");
   free(il);

   /* The 2.0 queries, with the minimums API 2.0 §4.2 gives for a FULL_PROFILE device. */
   cl_device_svm_capabilities svm =
      device_scalar(CL_DEVICE_SVM_CAPABILITIES, sizeof(cl_device_svm_capabilities));
   CHECK(svm & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER);
   CHECK_EQ_INT(svm & ~(cl_device_svm_capabilities)(CL_DEVICE_SVM_COARSE_GRAIN_BUFFER |
                                                    CL_DEVICE_SVM_FINE_GRAIN_BUFFER |
                                                    CL_DEVICE_SVM_ATOMICS),
                0);
   CHECK(device_scalar(CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE, sizeof(size_t)) >= 64 * 1024);
   CHECK(device_scalar(CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE, sizeof(size_t)) > 0);
   CHECK_EQ_INT(
      device_scalar(CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES, sizeof(cl_command_queue_properties)),
      CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE);
   cl_ulong pref = device_scalar(CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE, sizeof(cl_uint));
   cl_ulong max = device_scalar(CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE, sizeof(cl_uint));
   CHECK(pref >= 16 * 1024 && pref <= max && max >= 256 * 1024);
   CHECK(device_scalar(CL_DEVICE_MAX_ON_DEVICE_QUEUES, sizeof(cl_uint)) >= 1);
   CHECK(device_scalar(CL_DEVICE_MAX_ON_DEVICE_EVENTS, sizeof(cl_uint)) >= 1024);
   CHECK(device_scalar(CL_DEVICE_MAX_PIPE_ARGS, sizeof(cl_uint)) >= 16);
   CHECK(device_scalar(CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS, sizeof(cl_uint)) >= 1);
   CHECK(device_scalar(CL_DEVICE_PIPE_MAX_PACKET_SIZE, sizeof(cl_uint)) >= 1024);
   /* 0: "aligned to the natural size of the type" (API 2.0 §4.2). */
   CHECK_EQ_INT(device_scalar(CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT, sizeof(cl_uint)), 0);
   CHECK_EQ_INT(device_scalar(CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT, sizeof(cl_uint)), 0);
   CHECK_EQ_INT(device_scalar(CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT, sizeof(cl_uint)), 0);
   CHECK(device_scalar(CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, sizeof(cl_command_queue_properties)) &
         CL_QUEUE_PROFILING_ENABLE);
}

/* A write_pipe/read_pipe pair, a kernel enqueuing a child, SVM kernel arguments and
 * sub-group queries through cl_khr_subgroups' function: each part of OpenCL 2.0, run. */
static const char programs_20_src[] =
   "kernel void producer(write_only pipe int p) {\n"
   "   int v = (int)get_global_id(0) * 3;\n"
   "   write_pipe(p, &v);\n"
   "}\n"
   "kernel void consumer(read_only pipe int p, global int *sum) {\n"
   "   int v;\n"
   "   if (read_pipe(p, &v) == 0) atomic_add(sum, v);\n"
   "}\n"
   "kernel void parent(global int *out) {\n"
   "   enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(16),\n"
   "                  ^{ out[get_global_id(0)] = 100 + (int)get_global_id(0); });\n"
   "}\n"
   "kernel void svm_inc(global int *p) { p[get_global_id(0)] += get_sub_group_size(); }\n";

static void
check_programs_20(void)
{
   check_macros("", 200, 120); /* without -cl-std: OpenCL C 1.2 (API 2.0 §5.8.4.5) */
   check_macros("-cl-std=CL1.2", 200, 120);
   check_macros("-cl-std=CL2.0", 200, 200);
   run_features_src(feature_src_20, "-cl-std=CL2.0", every_feature);
   check_unsupported_std("-cl-std=CL3.0");
   check_unsupported_std("-cl-std=CL3.1");

   cl_program p = build(programs_20_src, "-cl-std=CL2.0");
   if (!p)
      return;
   cl_int err = CL_SUCCESS;
   /* Pipes. */
   cl_mem pipe = clCreatePipe(context, 0, sizeof(cl_int), 64, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_int zero = 0;
   cl_mem sum = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(zero),
                               &zero, &err);
   cl_kernel prod = clCreateKernel(p, "producer", &err);
   cl_kernel cons = clCreateKernel(p, "consumer", &err);
   clSetKernelArg(prod, 0, sizeof(pipe), &pipe);
   clSetKernelArg(cons, 0, sizeof(pipe), &pipe);
   clSetKernelArg(cons, 1, sizeof(sum), &sum);
   size_t n = 64;
   CHECK_EQ_INT(clEnqueueNDRangeKernel(queue, prod, 1, NULL, &n, NULL, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueNDRangeKernel(queue, cons, 1, NULL, &n, NULL, 0, NULL, NULL), CL_SUCCESS);
   cl_int total = -1;
   clEnqueueReadBuffer(queue, sum, CL_TRUE, 0, sizeof(total), &total, 0, NULL, NULL);
   CHECK_EQ_INT(total, 3 * 63 * 64 / 2);
   clReleaseKernel(prod);
   clReleaseKernel(cons);
   clReleaseMemObject(sum);
   clReleaseMemObject(pipe);

   /* Device-side enqueue on the default device queue. */
   cl_queue_properties dq_props[] = { CL_QUEUE_PROPERTIES,
                                      CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_ON_DEVICE |
                                         CL_QUEUE_ON_DEVICE_DEFAULT,
                                      0 };
   cl_command_queue dq = clCreateCommandQueueWithProperties(context, device, dq_props, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_mem out = clCreateBuffer(context, CL_MEM_READ_WRITE, 16 * sizeof(cl_int), NULL, &err);
   cl_kernel parent = clCreateKernel(p, "parent", &err);
   clSetKernelArg(parent, 0, sizeof(out), &out);
   size_t one = 1;
   CHECK_EQ_INT(clEnqueueNDRangeKernel(queue, parent, 1, NULL, &one, NULL, 0, NULL, NULL),
                CL_SUCCESS);
   cl_int res[16] = { 0 };
   clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof(res), res, 0, NULL, NULL);
   int ok = 1;
   for (int i = 0; i < 16; i++)
      ok &= res[i] == 100 + i;
   CHECK(ok);
   clReleaseKernel(parent);
   clReleaseMemObject(out);
   if (dq)
      clReleaseCommandQueue(dq);

   /* SVM (coarse-grained, mapped) and the sub-group size through clGetKernelSubGroupInfoKHR. */
   cl_int *svm = clSVMAlloc(context, CL_MEM_READ_WRITE, 256 * sizeof(cl_int), 0);
   CHECK(svm != NULL);
   cl_kernel inc = clCreateKernel(p, "svm_inc", &err);
   typedef cl_int(CL_API_CALL * sg_info_fn)(cl_kernel, cl_device_id, cl_kernel_sub_group_info,
                                            size_t, const void *, size_t, void *, size_t *);
   sg_info_fn sg_info = (sg_info_fn)clGetExtensionFunctionAddressForPlatform(
      platform, "clGetKernelSubGroupInfoKHR");
   CHECK(sg_info != NULL);
   size_t local = 128, sg_size = 0;
   if (sg_info)
      CHECK_EQ_INT(sg_info(inc, device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE_KHR,
                           sizeof(local), &local, sizeof(sg_size), &sg_size, NULL),
                   CL_SUCCESS);
   CHECK_EQ_INT(sg_size, test_sim_wave_size());
   if (svm && inc) {
      CHECK_EQ_INT(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_WRITE, svm, 256 * sizeof(cl_int), 0,
                                   NULL, NULL),
                   CL_SUCCESS);
      for (int i = 0; i < 256; i++)
         svm[i] = i;
      clEnqueueSVMUnmap(queue, svm, 0, NULL, NULL);
      CHECK_EQ_INT(clSetKernelArgSVMPointer(inc, 0, svm), CL_SUCCESS);
      size_t g = 256;
      CHECK_EQ_INT(clEnqueueNDRangeKernel(queue, inc, 1, NULL, &g, &local, 0, NULL, NULL),
                   CL_SUCCESS);
      clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_READ, svm, 256 * sizeof(cl_int), 0, NULL, NULL);
      ok = 1;
      for (int i = 0; i < 256; i++)
         ok &= svm[i] == i + (int)test_sim_wave_size();
      CHECK(ok);
      clEnqueueSVMUnmap(queue, svm, 0, NULL, NULL);
      clFinish(queue);
   }
   if (inc)
      clReleaseKernel(inc);
   clSVMFree(context, svm);
   clReleaseProgram(p);

   /* The newer entry points in the 2.0 profile: each works where the device has what it
    * needs (IL through cl_khr_il_program, sub-groups through cl_khr_subgroups), as in the
    * 1.2 profile, where they answer what that device lacks. */
   static const char clone_src[] = "kernel void k(global int *o, int v) { o[0] = v; }";
   cl_program cp = build(clone_src, "");
   if (cp) {
      cl_kernel k = clCreateKernel(cp, "k", &err);
      cl_mem o = clCreateBufferWithProperties(context, NULL, CL_MEM_READ_WRITE, sizeof(cl_int),
                                              NULL, &err);
      CHECK_EQ_INT(err, CL_SUCCESS);
      cl_int v = 77;
      clSetKernelArg(k, 0, sizeof(o), &o);
      clSetKernelArg(k, 1, sizeof(v), &v);
      cl_kernel k2 = clCloneKernel(k, &err);
      CHECK_EQ_INT(err, CL_SUCCESS);
      CHECK_EQ_INT(clEnqueueNDRangeKernel(queue, k2, 1, NULL, &one, NULL, 0, NULL, NULL),
                   CL_SUCCESS);
      cl_int got = 0;
      clEnqueueReadBuffer(queue, o, CL_TRUE, 0, sizeof(got), &got, 0, NULL, NULL);
      CHECK_EQ_INT(got, 77);
      /* The program and queue queries of OpenCL 2.1, 2.2 and 3.0: not part of 2.0. */
      size_t sz = 0;
      CHECK_EQ_INT(clGetProgramInfo(cp, CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT, 0, NULL, &sz),
                   CL_INVALID_VALUE);
      CHECK_EQ_INT(clGetProgramInfo(cp, CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT, 0, NULL, &sz),
                   CL_INVALID_VALUE);
      CHECK_EQ_INT(clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES_ARRAY, 0, NULL, &sz),
                   CL_INVALID_VALUE);
      CHECK_EQ_INT(clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE_DEFAULT, 0, NULL, &sz),
                   CL_INVALID_VALUE);
      CHECK_EQ_INT(clGetProgramInfo(cp, CL_PROGRAM_NUM_KERNELS, 0, NULL, &sz), CL_SUCCESS);
      /* Not a program created from IL (§5.8.3, as in every profile). */
      CHECK_EQ_INT(clSetProgramSpecializationConstant(cp, 0, sizeof(v), &v), CL_INVALID_PROGRAM);
      clReleaseKernel(k2);
      clReleaseKernel(k);
      clReleaseMemObject(o);
      clReleaseProgram(cp);
   }
   /* clCreateProgramWithIL is clCreateProgramWithILKHR here: 4 bytes are not a module. */
   cl_uint junk = 42;
   CHECK(clCreateProgramWithIL(context, &junk, sizeof(junk), &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_VALUE);
}

static void
check_programs_12(void)
{
   check_macros("", 120, 120);
   check_macros("-cl-std=CL1.2", 120, 120);
   check_unsupported_std("-cl-std=CL2.0");
   check_unsupported_std("-cl-std=CL3.0");
   check_unsupported_std("-cl-std=CL3.1");
   /* The 1.2 profile reports no IL (cl_khr_il_program is not offered there): IL programs
    * are refused (§5.8.1), even a valid module. */
   char *il = device_string(CL_DEVICE_IL_VERSION);
   CHECK_STR(il, "");
   free(il);
   static const uint32_t module[] = { 0x07230203, 0x00010000, 0, 1, 0 };
   cl_int err = CL_SUCCESS;
   CHECK(clCreateProgramWithIL(context, module, sizeof(module), &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_OPERATION);
}

int
main(int argc, char **argv)
{
   if (argc != 2 || (strcmp(argv[1], "1.2") && strcmp(argv[1], "2.0") &&
                     strcmp(argv[1], "3.0") && strcmp(argv[1], "3.1"))) {
      fprintf(stderr, "usage: %s 1.2|2.0|3.0|3.1 (the profile HSACL_OPENCL_VERSION selects)\n",
              argv[0]);
      return 2;
   }
   bool v30 = argv[1][0] == '3';
   profile_minor = !strcmp(argv[1], "3.1") ? 1 : 0;
   CHECK_EQ_INT(clGetPlatformIDs(1, &platform, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &device, NULL), CL_SUCCESS);
   if (!device)
      return test_main_end();
   cl_int err = CL_SUCCESS;
   context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   queue = clCreateCommandQueueWithProperties(context, device, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);

   check_zero_size(v30);
   if (!strcmp(argv[1], "2.0")) {
      check_profile_20();
      check_programs_20();
   } else if (v30) {
      check_profile_30();
      check_programs_30();
      check_program_support_30();
   } else {
      check_profile_12();
      check_programs_12();
   }

   clReleaseCommandQueue(queue);
   clReleaseContext(context);
   return test_main_end();
}
