/*
 * tests/compiler/comp_api_il_test.c — SPIR-V programs (clCreateProgramWithIL) end to end.
 *
 * usage: comp_api_il_test DIR              the modules the build made in DIR
 *        comp_api_il_test --no-translator  (HSACL_SPIRV_TRANSLATOR names nothing)
 *
 * DIR holds il_basic.cl compiled by clang-15 + llvm-spirv-15 for CL1.2 and CL2.0
 * (il_basic12.spv, il_basic20.spv), il_extern.spv, spec_constants.spv (spirv-as) and a
 * 32-bit module (il_spir32.spv). Checks: the device queries; creation errors (NULL,
 * garbage, truncated, 32-bit, SPIR-V 1.5); CL_PROGRAM_IL; every kernel of il_basic built
 * from SPIR-V gives the outputs of the same source built as OpenCL C (same inputs, same
 * launch); the IL extensions (cl_khr_il_program, cl_khr_spirv_*) and SPIR-V queries
 * reported with the translator and not without it, clCreateProgramWithILKHR; argument names
 * from the module; specialization constants and their errors;
 * clCompileProgram of IL linked with an OpenCL C object; a thousand mutated modules
 * rejected or built without a crash (each one the structural checks pass costs a validator
 * process; fuzz/fuzz_spirv mutates far more); an empty build log for a clean module; OpFDiv with
 * the accuracy of OpenCL C's `/` (fdiv.spv, spirv-as); a module with recursion refused
 * (il_recursion.spv).
 */
#include "comp_api_test.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

static const char *dir;

static void *
read_module(const char *name, size_t *size)
{
   char path[4096];
   snprintf(path, sizeof(path), "%s/%s", dir, name);
   return test_read_file(path, size);
}

static cl_program
program_from_il(const void *il, size_t size, cl_int want)
{
   cl_int err = 12345;
   cl_program p = clCreateProgramWithIL(context, il, size, &err);
   CHECK_EQ_INT(err, want);
   CHECK((p != NULL) == (want == CL_SUCCESS));
   return p;
}

/* The rows that follow the translator's presence (platform/plat_extensions.def PLAT_IL). */
static const char *const il_extensions[] = {
   "cl_khr_il_program", "cl_khr_spirv_queries", "cl_khr_spirv_no_integer_wrap_decoration",
   "cl_khr_spirv_linkonce_odr", "cl_khr_spirv_extended_debug_info",
};
#define NUM_IL_EXTENSIONS (sizeof(il_extensions) / sizeof(il_extensions[0]))

#ifndef CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR
#define CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR 0x12B9
#define CL_DEVICE_SPIRV_EXTENSIONS_KHR 0x12BA
#define CL_DEVICE_SPIRV_CAPABILITIES_KHR 0x12BB
#endif

/* How many of CL_DEVICE_EXTENSIONS, CL_DEVICE_EXTENSIONS_WITH_VERSION and (when `platform_too`)
 * CL_PLATFORM_EXTENSIONS and _WITH_VERSION name `ext` (each list counts once). */
static int
lists_naming(const char *ext, bool platform_too)
{
   int found = 0;
   char str[8192];
   cl_name_version nv[128];
   size_t size = 0;
   for (int which = 0; which < (platform_too ? 2 : 1); which++) {
      str[0] = '\0';
      if (which == 0)
         CHECK_EQ_INT(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, sizeof(str), str, NULL),
                      CL_SUCCESS);
      else
         CHECK_EQ_INT(clGetPlatformInfo(platform, CL_PLATFORM_EXTENSIONS, sizeof(str), str,
                                        NULL),
                      CL_SUCCESS);
      size_t n = strlen(ext);
      for (const char *p = strstr(str, ext); p; p = strstr(p + 1, ext)) {
         if ((p == str || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) {
            found++;
            break;
         }
      }
      if (which == 0)
         CHECK_EQ_INT(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS_WITH_VERSION, sizeof(nv), nv,
                                      &size),
                      CL_SUCCESS);
      else
         CHECK_EQ_INT(clGetPlatformInfo(platform, CL_PLATFORM_EXTENSIONS_WITH_VERSION, sizeof(nv),
                                        nv, &size),
                      CL_SUCCESS);
      for (size_t i = 0; i < size / sizeof(nv[0]); i++) {
         if (!strcmp(nv[i].name, ext)) {
            found++;
            break;
         }
      }
   }
   return found;
}

/* The device's SPIR-V rows: the IL extensions in every device and platform list, the
 * cl_khr_spirv_queries lists, clCreateProgramWithILKHR — all present with the translator
 * (`present`), all absent without it. */
static void
test_il_rows(bool present, const uint32_t *good, size_t size)
{
   for (size_t i = 0; i < NUM_IL_EXTENSIONS; i++) {
      int n = lists_naming(il_extensions[i], true);
      if (n != (present ? 4 : 0))
         fprintf(stderr, "%s named by %d of 4 lists\n", il_extensions[i], n);
      CHECK_EQ_INT(n, present ? 4 : 0);
   }
   static const cl_device_info spirv_queries[] = { CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR,
                                                   CL_DEVICE_SPIRV_EXTENSIONS_KHR,
                                                   CL_DEVICE_SPIRV_CAPABILITIES_KHR,
                                                   CL_DEVICE_ILS_WITH_VERSION };
   for (size_t i = 0; i < sizeof(spirv_queries) / sizeof(spirv_queries[0]); i++) {
      size_t got = 12345;
      CHECK_EQ_INT(clGetDeviceInfo(device, spirv_queries[i], 0, NULL, &got), CL_SUCCESS);
      CHECK_EQ_INT(got != 0, present);
   }
   /* CL_DEVICE_IL_VERSION_KHR is CL_DEVICE_IL_VERSION (0x105B). */
   char il[256] = "x";
   CHECK_EQ_INT(clGetDeviceInfo(device, CL_DEVICE_IL_VERSION_KHR, sizeof(il), il, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(il[0] != '\0', present);
   typedef cl_program(CL_API_CALL * create_il_fn)(cl_context, const void *, size_t, cl_int *);
   create_il_fn create =
      (create_il_fn)clGetExtensionFunctionAddressForPlatform(platform, "clCreateProgramWithILKHR");
   CHECK_EQ_INT(create != NULL, present);
   if (create && good) {
      cl_int err = 12345;
      cl_program p = create(context, good, size, &err);
      CHECK_EQ_INT(err, CL_SUCCESS);
      CHECK_EQ_INT(clBuildProgram(p, 1, &device, NULL, NULL, NULL), CL_SUCCESS);
      size_t n = 0;
      CHECK_EQ_INT(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof(n), &n, NULL), CL_SUCCESS);
      CHECK(n > 0);
      clReleaseProgram(p);
   }
}

static void
test_queries(void)
{
   char il[256] = "";
   CHECK_EQ_INT(clGetDeviceInfo(device, CL_DEVICE_IL_VERSION, sizeof(il), il, NULL), CL_SUCCESS);
   CHECK_STR(il, "SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2 SPIR-V_1.3 SPIR-V_1.4");
   cl_name_version v[8];
   size_t size = 0;
   CHECK_EQ_INT(clGetDeviceInfo(device, CL_DEVICE_ILS_WITH_VERSION, sizeof(v), v, &size),
                CL_SUCCESS);
   CHECK_EQ_INT(size, 5 * sizeof(cl_name_version));
   CHECK_STR(v[0].name, "SPIR-V");
   CHECK_EQ_INT(v[0].version, CL_MAKE_VERSION(1, 0, 0));
   CHECK_EQ_INT(v[3].version, CL_MAKE_VERSION(1, 3, 0));
   CHECK_EQ_INT(v[4].version, CL_MAKE_VERSION(1, 4, 0));
}

static void
test_create_errors(const uint32_t *good, size_t size)
{
   cl_int err;
   CHECK(clCreateProgramWithIL(NULL, good, size, &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_CONTEXT);
   program_from_il(NULL, size, CL_INVALID_VALUE);
   program_from_il(good, 0, CL_INVALID_VALUE);
   static const char garbage[] = "__kernel void k(void) {}  not SPIR-V at all....";
   program_from_il(garbage, sizeof(garbage) - 1, CL_INVALID_VALUE);
   program_from_il(good, 17, CL_INVALID_VALUE);       /* not whole words */
   program_from_il(good, size / 2, CL_INVALID_VALUE); /* truncated mid-instruction */
   /* SPIR-V 1.5: newer than the translator reads. */
   uint32_t *newer = malloc(size);
   memcpy(newer, good, size);
   newer[1] = 0x00010500;
   program_from_il(newer, size, CL_INVALID_VALUE);
   free(newer);
   /* A 32-bit module (Physical32) on a 64-bit device. */
   size_t n32;
   void *m32 = read_module("il_spir32.spv", &n32);
   if (m32)
      program_from_il(m32, n32, CL_INVALID_VALUE);
   free(m32);
}

static void
test_program_info(const uint32_t *good, size_t size)
{
   cl_program p = program_from_il(good, size, CL_SUCCESS);
   if (!p)
      return;
   size_t got = 0;
   CHECK_EQ_INT(clGetProgramInfo(p, CL_PROGRAM_IL, 0, NULL, &got), CL_SUCCESS);
   CHECK_EQ_INT(got, size);
   void *back = malloc(size);
   CHECK_EQ_INT(clGetProgramInfo(p, CL_PROGRAM_IL, size, back, NULL), CL_SUCCESS);
   CHECK(memcmp(back, good, size) == 0);
   free(back);
   char src[8] = "x";
   CHECK_EQ_INT(clGetProgramInfo(p, CL_PROGRAM_SOURCE, sizeof(src), src, &got), CL_SUCCESS);
   CHECK_EQ_INT(got, 1);
   CHECK_STR(src, "");
   /* An OpenCL C program has no IL. */
   cl_program s = program_from_source("kernel void k(global int *p) { *p = 1; }");
   CHECK_EQ_INT(clGetProgramInfo(s, CL_PROGRAM_IL, 0, NULL, &got), CL_SUCCESS);
   CHECK_EQ_INT(got, 0);
   /* Not an IL program: no specialization constants. */
   cl_uint one = 1;
   CHECK_EQ_INT(clSetProgramSpecializationConstant(s, 1, sizeof(one), &one), CL_INVALID_PROGRAM);
   clReleaseProgram(s);
   /* A clean module builds with an empty log (no warning for pyopencl to raise). */
   if (build_expect(p, NULL, CL_SUCCESS) == CL_SUCCESS) {
      char *log = build_log(p);
      CHECK_STR(log, "");
      free(log);
   }
   clReleaseProgram(p);
}

/* ---- il_basic: the SPIR-V build against the OpenCL C build ----------------------------- */

#define N 256

struct run_out {
   float f[4 * N]; /* ptr_builtins (2N), math, calls */
   int32_t i[N + 4];
   int64_t l[N];
};

static uint32_t rng = 12345;

static uint32_t
next(void)
{
   rng ^= rng << 13;
   rng ^= rng >> 17;
   rng ^= rng << 5;
   return rng;
}

static float fin[N];
static uint32_t uin[N];

static cl_mem
buffer(size_t size, const void *init)
{
   cl_int err;
   cl_mem m = clCreateBuffer(context, CL_MEM_READ_WRITE | (init ? CL_MEM_COPY_HOST_PTR : 0), size,
                             (void *)init, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   if (!init) {
      /* Zeroed, whatever the size (a fixed zero array was overrun by test_fdiv's buffers:
       * ASan, global-buffer-overflow). */
      void *zero = calloc(1, size ? size : 1);
      cl_command_queue q = clCreateCommandQueueWithProperties(context, device, NULL, &err);
      clEnqueueWriteBuffer(q, m, CL_TRUE, 0, size, zero, 0, NULL, NULL);
      clReleaseCommandQueue(q);
      free(zero);
   }
   return m;
}

/* Runs every kernel of il_basic built in `p`; fills *o. */
static bool
run_basic(cl_program p, struct run_out *o, const char *what)
{
   cl_int err;
   cl_command_queue q = clCreateCommandQueueWithProperties(context, device, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   memset(o, 0, sizeof(*o));
   bool ok = true;
   size_t g1 = N, l1 = 64, g2[2] = { 32, N / 32 }, l2[2] = { 32, 2 };

   cl_kernel k = clCreateKernel(p, "ptr_builtins", &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_mem in = buffer(sizeof(fin), fin), out = buffer(sizeof(float) * 5 * N, NULL);
   clSetKernelArg(k, 0, sizeof(cl_mem), &in);
   clSetKernelArg(k, 1, sizeof(cl_mem), &out);
   clSetKernelArg(k, 2, sizeof(float) * l1, NULL);
   err = clEnqueueNDRangeKernel(q, k, 1, NULL, &g1, &l1, 0, NULL, NULL);
   CHECK_EQ_INT(err, CL_SUCCESS);
   ok &= err == CL_SUCCESS;
   clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof(float) * 2 * N, o->f, 0, NULL, NULL);
   clReleaseMemObject(out);
   clReleaseKernel(k);

   k = clCreateKernel(p, "atomics", &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_mem counters = buffer(4 * sizeof(int32_t), NULL), iout = buffer(N * sizeof(int32_t), NULL);
   clSetKernelArg(k, 0, sizeof(cl_mem), &counters);
   clSetKernelArg(k, 1, sizeof(cl_mem), &iout);
   clSetKernelArg(k, 2, sizeof(int32_t), NULL);
   err = clEnqueueNDRangeKernel(q, k, 1, NULL, &g1, &l1, 0, NULL, NULL);
   CHECK_EQ_INT(err, CL_SUCCESS);
   ok &= err == CL_SUCCESS;
   clEnqueueReadBuffer(q, iout, CL_TRUE, 0, N * sizeof(int32_t), o->i, 0, NULL, NULL);
   clEnqueueReadBuffer(q, counters, CL_TRUE, 0, 4 * sizeof(int32_t), o->i + N, 0, NULL, NULL);
   clReleaseMemObject(counters);
   clReleaseMemObject(iout);
   clReleaseKernel(k);

   k = clCreateKernel(p, "mixed", &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   struct {
      int32_t a;
      float b;
      int64_t c;
   } pod = { -17, 0.37f, 1234567890123ll };
   cl_mem uinb = buffer(sizeof(uin), uin), lout = buffer(N * sizeof(int64_t), NULL);
   clSetKernelArg(k, 0, sizeof(pod), &pod);
   clSetKernelArg(k, 1, sizeof(cl_mem), &uinb);
   clSetKernelArg(k, 2, sizeof(cl_mem), &lout);
   err = clEnqueueNDRangeKernel(q, k, 2, NULL, g2, l2, 0, NULL, NULL);
   CHECK_EQ_INT(err, CL_SUCCESS);
   ok &= err == CL_SUCCESS;
   clEnqueueReadBuffer(q, lout, CL_TRUE, 0, N * sizeof(int64_t), o->l, 0, NULL, NULL);
   clReleaseMemObject(uinb);
   clReleaseMemObject(lout);
   clReleaseKernel(k);

   k = clCreateKernel(p, "math", &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   out = buffer(N * sizeof(float), NULL);
   clSetKernelArg(k, 0, sizeof(cl_mem), &in);
   clSetKernelArg(k, 1, sizeof(cl_mem), &out);
   err = clEnqueueNDRangeKernel(q, k, 1, NULL, &g1, &l1, 0, NULL, NULL);
   CHECK_EQ_INT(err, CL_SUCCESS);
   ok &= err == CL_SUCCESS;
   clEnqueueReadBuffer(q, out, CL_TRUE, 0, N * sizeof(float), o->f + 2 * N, 0, NULL, NULL);
   clReleaseMemObject(out);
   clReleaseKernel(k);

   k = clCreateKernel(p, "calls", &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   out = buffer(N * sizeof(float), NULL);
   cl_int n = 5;
   clSetKernelArg(k, 0, sizeof(cl_mem), &in);
   clSetKernelArg(k, 1, sizeof(cl_mem), &out);
   clSetKernelArg(k, 2, sizeof(n), &n);
   err = clEnqueueNDRangeKernel(q, k, 1, NULL, &g1, &l1, 0, NULL, NULL);
   CHECK_EQ_INT(err, CL_SUCCESS);
   ok &= err == CL_SUCCESS;
   clEnqueueReadBuffer(q, out, CL_TRUE, 0, N * sizeof(float), o->f + 3 * N, 0, NULL, NULL);
   clReleaseMemObject(out);
   clReleaseKernel(k);
   clReleaseMemObject(in);
   clReleaseCommandQueue(q);
   if (!ok)
      fprintf(stderr, "%s: a launch failed\n", what);
   return ok;
}

/* Floats agree within 4 ulp (contraction and fast-math flags may differ between clang-15's
 * SPIR-V and clang-19's IR of the same source); integers exactly. */
static void
compare(const struct run_out *a, const struct run_out *b, const char *what)
{
   unsigned bad = 0;
   for (int i = 0; i < 4 * N; i++) {
      float x = a->f[i], y = b->f[i];
      if (isnan(x) && isnan(y))
         continue;
      int32_t ix, iy;
      memcpy(&ix, &x, 4);
      memcpy(&iy, &y, 4);
      long long d = (long long)ix - iy;
      if (d > 4 || d < -4) {
         if (bad++ < 5)
            fprintf(stderr, "%s: float %d: OpenCL C %.9g, SPIR-V %.9g\n", what, i, x, y);
      }
   }
   for (int i = 0; i < N + 4; i++)
      if (a->i[i] != b->i[i] && bad++ < 10)
         fprintf(stderr, "%s: int %d: OpenCL C %d, SPIR-V %d\n", what, i, a->i[i], b->i[i]);
   for (int i = 0; i < N; i++)
      if (a->l[i] != b->l[i] && bad++ < 15)
         fprintf(stderr, "%s: long %d: OpenCL C %lld, SPIR-V %lld\n", what, i, (long long)a->l[i],
                 (long long)b->l[i]);
   CHECK_EQ_INT(bad, 0);
}

static void
test_basic(const char *source_path)
{
   for (int i = 0; i < N; i++) {
      fin[i] = (float)((int32_t)next() % 20000) / 997.0f;
      uin[i] = next();
   }
   char *src = test_read_file(source_path, NULL);
   CHECK(src != NULL);
   if (!src)
      return;
   static struct run_out ref, got;
   cl_program p = program_from_source(src);
   free(src);
   if (build_expect(p, NULL, CL_SUCCESS) != CL_SUCCESS || !run_basic(p, &ref, "OpenCL C")) {
      clReleaseProgram(p);
      return;
   }
   clReleaseProgram(p);
   /* The source build is checked against values computed here for a few elements, so a
    * broken compiler cannot make both builds agree on garbage. */
   CHECK_EQ_INT(ref.i[N], N);         /* atomic_inc of every work-item */
   CHECK_EQ_INT(ref.i[N + 1], N - 1); /* atomic_max of the global ids */
   CHECK_EQ_INT(ref.i[0], 1 + 63 * 64 / 2);

   static const char *const modules[] = { "il_basic12.spv", "il_basic20.spv" };
   for (size_t m = 0; m < 2; m++) {
      size_t size;
      void *il = read_module(modules[m], &size);
      if (!il)
         continue;
      cl_program ip = program_from_il(il, size, CL_SUCCESS);
      free(il);
      if (ip && build_expect(ip, NULL, CL_SUCCESS) == CL_SUCCESS && run_basic(ip, &got, modules[m]))
         compare(&ref, &got, modules[m]);
      /* The translator keeps the argument names (OpName): clGetKernelArgInfo answers. */
      cl_kernel k = ip ? clCreateKernel(ip, "ptr_builtins", NULL) : NULL;
      if (k) {
         char name[64] = "", type[64] = "";
         cl_kernel_arg_address_qualifier aq = 0;
         CHECK_EQ_INT(clGetKernelArgInfo(k, 2, CL_KERNEL_ARG_NAME, sizeof(name), name, NULL),
                      CL_SUCCESS);
         CHECK_STR(name, "tmp");
         CHECK_EQ_INT(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_TYPE_NAME, sizeof(type), type, NULL),
                      CL_SUCCESS);
         CHECK_STR(type, "float*");
         CHECK_EQ_INT(
            clGetKernelArgInfo(k, 2, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof(aq), &aq, NULL),
            CL_SUCCESS);
         CHECK_EQ_INT(aq, CL_KERNEL_ARG_ADDRESS_LOCAL);
         clReleaseKernel(k);
      }
      if (ip)
         clReleaseProgram(ip);
   }
}

/* ---- specialization constants ----------------------------------------------------------- */

struct spec_out {
   uint32_t o[3];
   int64_t l;
   float f;
   uint8_t b;
   uint16_t s;
};

static bool
run_spec(cl_program p, struct spec_out *r)
{
   if (build_expect(p, NULL, CL_SUCCESS) != CL_SUCCESS)
      return false;
   cl_int err;
   cl_kernel k = clCreateKernel(p, "spec", &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_command_queue q = clCreateCommandQueueWithProperties(context, device, NULL, &err);
   cl_mem b[5];
   size_t sizes[5] = { 12, 8, 4, 1, 2 };
   for (int i = 0; i < 5; i++) {
      b[i] = buffer(sizes[i], NULL);
      clSetKernelArg(k, (cl_uint)i, sizeof(cl_mem), &b[i]);
   }
   size_t one = 1;
   err = clEnqueueNDRangeKernel(q, k, 1, NULL, &one, NULL, 0, NULL, NULL);
   CHECK_EQ_INT(err, CL_SUCCESS);
   void *dst[5] = { r->o, &r->l, &r->f, &r->b, &r->s };
   for (int i = 0; i < 5; i++) {
      clEnqueueReadBuffer(q, b[i], CL_TRUE, 0, sizes[i], dst[i], 0, NULL, NULL);
      clReleaseMemObject(b[i]);
   }
   clReleaseCommandQueue(q);
   clReleaseKernel(k);
   return err == CL_SUCCESS;
}

static void
test_spec_constants(void)
{
   size_t size;
   void *il = read_module("spec_constants.spv", &size);
   if (!il)
      return;
   cl_program p = program_from_il(il, size, CL_SUCCESS);
   free(il);
   if (!p)
      return;
   struct spec_out r;
   /* Defaults first. */
   if (run_spec(p, &r)) {
      CHECK_EQ_INT(r.o[0], 7);
      CHECK_EQ_INT(r.o[1], 300);
      CHECK_EQ_INT(r.o[2], 307);
      CHECK_EQ_INT(r.l, 5000000000ll);
      CHECK(r.f == 1.5f);
      CHECK_EQ_INT(r.b, 1);
      CHECK_EQ_INT(r.s, 9);
   }
   /* Errors (§5.8.3). */
   cl_uint u = 41;
   CHECK_EQ_INT(clSetProgramSpecializationConstant(p, 99, sizeof(u), &u), CL_INVALID_SPEC_ID);
   CHECK_EQ_INT(clSetProgramSpecializationConstant(p, 1, 8, &u), CL_INVALID_VALUE);
   CHECK_EQ_INT(clSetProgramSpecializationConstant(p, 1, sizeof(u), NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(clSetProgramSpecializationConstant(NULL, 1, sizeof(u), &u), CL_INVALID_PROGRAM);
   /* Set (one twice: the last value counts), build again, check. */
   cl_uint first = 1000;
   cl_long l = -77;
   cl_float f = -2.25f;
   cl_uchar bfalse = 0;
   cl_ushort s = 65535;
   CHECK_EQ_INT(clSetProgramSpecializationConstant(p, 1, sizeof(first), &first), CL_SUCCESS);
   CHECK_EQ_INT(clSetProgramSpecializationConstant(p, 1, sizeof(u), &u), CL_SUCCESS);
   CHECK_EQ_INT(clSetProgramSpecializationConstant(p, 3, sizeof(l), &l), CL_SUCCESS);
   CHECK_EQ_INT(clSetProgramSpecializationConstant(p, 4, sizeof(f), &f), CL_SUCCESS);
   CHECK_EQ_INT(clSetProgramSpecializationConstant(p, 5, 1, &bfalse), CL_SUCCESS);
   CHECK_EQ_INT(clSetProgramSpecializationConstant(p, 6, sizeof(s), &s), CL_SUCCESS);
   if (run_spec(p, &r)) {
      CHECK_EQ_INT(r.o[0], 41);
      CHECK_EQ_INT(r.o[1], 300);
      CHECK_EQ_INT(r.o[2], 341);
      CHECK_EQ_INT(r.l, -77);
      CHECK(r.f == -2.25f);
      CHECK_EQ_INT(r.b, 0);
      CHECK_EQ_INT(r.s, 65535);
   }
   clReleaseProgram(p);
}

/* ---- OpFDiv: the accuracy of OpenCL C's `/` -------------------------------------------- */

#define FDIV_N 4096

static const char fdiv_source[] =
   "kernel void fdiv_float(global float *out, global const float *a, global const float *b)\n"
   "{ size_t i = get_global_id(0); out[i] = a[i] / b[i]; }\n"
   "kernel void fdiv_float4(global float4 *out, global const float4 *a,\n"
   "                        global const float4 *b)\n"
   "{ size_t i = get_global_id(0); out[i] = a[i] / b[i]; }\n";

/* Runs kernel `name` of the built program `p` on a and b, `width` floats a work-item; the
 * quotients in out. */
static bool
run_fdiv(cl_program p, const char *name, size_t width, const float *a, const float *b, float *out)
{
   cl_int err;
   cl_kernel k = clCreateKernel(p, name, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   if (!k)
      return false;
   cl_command_queue q = clCreateCommandQueueWithProperties(context, device, NULL, &err);
   size_t bytes = FDIV_N * sizeof(float), g = FDIV_N / width;
   cl_mem mo = buffer(bytes, NULL), ma = buffer(bytes, a), mb = buffer(bytes, b);
   clSetKernelArg(k, 0, sizeof(cl_mem), &mo);
   clSetKernelArg(k, 1, sizeof(cl_mem), &ma);
   clSetKernelArg(k, 2, sizeof(cl_mem), &mb);
   err = clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL);
   CHECK_EQ_INT(err, CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueReadBuffer(q, mo, CL_TRUE, 0, bytes, out, 0, NULL, NULL), CL_SUCCESS);
   clReleaseMemObject(mo);
   clReleaseMemObject(ma);
   clReleaseMemObject(mb);
   clReleaseCommandQueue(q);
   clReleaseKernel(k);
   return err == CL_SUCCESS;
}

/* Bits that differ between two runs (at most a few are printed). */
static unsigned
fdiv_differences(const float *want, const float *got, const char *what)
{
   unsigned bad = 0;
   for (int i = 0; i < FDIV_N; i++)
      if (memcmp(&want[i], &got[i], sizeof(float)) && bad++ < 3)
         fprintf(stderr, "%s: element %d: %.9g expected, %.9g from SPIR-V\n", what, i, want[i],
                 got[i]);
   return bad;
}

/* OpFDiv of float and float4 gives the bits of OpenCL C's `/` built with the same options
 * (2.5 ulp by default; correctly rounded, so the host's quotient, under
 * -cl-fp32-correctly-rounded-divide-sqrt). Without the accuracy on the translated fdiv the
 * default build divided correctly rounded where OpenCL C does not: the CTS spirv_new
 * op_fdiv_float* sub-tests compare the two bit for bit. */
static void
test_fdiv(void)
{
   size_t size;
   void *il = read_module("fdiv.spv", &size);
   if (!il)
      return;
   static float a[FDIV_N], b[FDIV_N], want[FDIV_N], got[FDIV_N], host[FDIV_N];
   for (int i = 0; i < FDIV_N; i++) {
      /* Normal numbers of both signs over 2^-20..2^20: no denormal quotient. */
      a[i] = ldexpf((float)(next() % 0x800000 + 0x800000) / 0x800000, (int)(next() % 41) - 20);
      b[i] = ldexpf((float)(next() % 0x800000 + 0x800000) / 0x800000, (int)(next() % 41) - 20);
      if (next() & 1)
         a[i] = -a[i];
      host[i] = a[i] / b[i];
   }
   static const char *const options[] = { NULL, "-cl-fp32-correctly-rounded-divide-sqrt" };
   static const char *const kernels[] = { "fdiv_float", "fdiv_float4" };
   for (int o = 0; o < 2; o++) {
      cl_program src = program_from_source(fdiv_source);
      cl_program ip = program_from_il(il, size, CL_SUCCESS);
      bool built = build_expect(src, options[o], CL_SUCCESS) == CL_SUCCESS && ip &&
                   build_expect(ip, options[o], CL_SUCCESS) == CL_SUCCESS;
      for (int k = 0; built && k < 2; k++) {
         char what[128];
         snprintf(what, sizeof(what), "%s %s", kernels[k], options[o] ? options[o] : "");
         if (!run_fdiv(src, kernels[k], k ? 4 : 1, a, b, want) ||
             !run_fdiv(ip, kernels[k], k ? 4 : 1, a, b, got))
            continue;
         CHECK_EQ_INT(fdiv_differences(want, got, what), 0);
         if (o == 1)
            CHECK_EQ_INT(fdiv_differences(host, got, what), 0);
      }
      clReleaseProgram(src);
      if (ip)
         clReleaseProgram(ip);
   }
   free(il);
}

/* ---- clCompileProgram of IL, linked with OpenCL C ---------------------------------------- */

static void
test_link(void)
{
   size_t size;
   void *il = read_module("il_extern.spv", &size);
   if (!il)
      return;
   cl_program ip = program_from_il(il, size, CL_SUCCESS);
   free(il);
   cl_program sp = program_from_source("int il_helper(int x) { return x * 3 + 1; }\n");
   cl_int err = clCompileProgram(ip, 1, &device, NULL, 0, NULL, NULL, NULL, NULL);
   CHECK_EQ_INT(err, CL_SUCCESS);
   CHECK_EQ_INT(clCompileProgram(sp, 1, &device, NULL, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
   cl_program both[2] = { ip, sp };
   cl_program linked = clLinkProgram(context, 1, &device, NULL, 2, both, NULL, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   if (linked) {
      cl_kernel k = clCreateKernel(linked, "use_helper", &err);
      CHECK_EQ_INT(err, CL_SUCCESS);
      cl_command_queue q = clCreateCommandQueueWithProperties(context, device, NULL, &err);
      cl_mem out = buffer(64 * sizeof(int32_t), NULL);
      clSetKernelArg(k, 0, sizeof(cl_mem), &out);
      size_t g = 64;
      CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL), CL_SUCCESS);
      int32_t r[64] = { 0 };
      clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof(r), r, 0, NULL, NULL);
      unsigned bad = 0;
      for (int i = 0; i < 64; i++)
         bad += r[i] != i * 3 + 1;
      CHECK_EQ_INT(bad, 0);
      clReleaseMemObject(out);
      clReleaseCommandQueue(q);
      clReleaseKernel(k);
      clReleaseProgram(linked);
   }
   clReleaseProgram(ip);
   clReleaseProgram(sp);
}

/* ---- recursion ------------------------------------------------------------------------------ */

/* A SPIR-V module with recursion (il_recursion.cl: even/odd, and fact calling itself) fails
 * clBuildProgram like OpenCL C source does, naming the functions of each cycle (issue 24). */
static void
test_recursion(void)
{
   size_t size;
   void *il = read_module("il_recursion.spv", &size);
   if (!il)
      return;
   cl_program p = program_from_il(il, size, CL_SUCCESS);
   free(il);
   CHECK_EQ_INT(clBuildProgram(p, 1, &device, NULL, NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
   char *log = build_log(p);
   CHECK(strstr(log, "recursion is not supported") != NULL);
   CHECK(strstr(log, "'fact' calls itself") != NULL);
   CHECK(strstr(log, "'even'") != NULL && strstr(log, "'odd'") != NULL);
   free(log);
   clReleaseProgram(p);
}

/* ---- mutated modules ----------------------------------------------------------------------- */

static void
test_mutations(const uint32_t *good, size_t size)
{
   unsigned created = 0, built = 0, rejected = 0;
   uint32_t *m = malloc(size + 64);
   for (int iter = 0; iter < 1000; iter++) {
      size_t n = size;
      memcpy(m, good, size);
      unsigned kind = next() % 4, count = 1 + next() % 4;
      for (unsigned c = 0; c < count && n / 4 > 6; c++) {
         size_t w = 5 + next() % (n / 4 - 5);
         switch (kind) {
         case 0: /* flip bits of a word */
            m[w] ^= 1u << (next() % 32);
            break;
         case 1: /* a random word */
            m[w] = next();
            break;
         case 2: /* a word count or opcode */
            m[w] = (m[w] & 0xffffu) | (next() % 64) << 16;
            break;
         default: /* truncate at a word boundary */
            n = 4 * (5 + next() % (n / 4 - 5));
            break;
         }
      }
      cl_int err;
      cl_program p = clCreateProgramWithIL(context, m, n, &err);
      CHECK(err == CL_SUCCESS || err == CL_INVALID_VALUE);
      if (!p) {
         rejected++;
         continue;
      }
      created++;
      /* Validated mutants build or fail cleanly; a few dozen are enough (a build costs). */
      if (built < 40) {
         built++;
         err = clBuildProgram(p, 1, &device, NULL, NULL, NULL);
         CHECK(err == CL_SUCCESS || err == CL_BUILD_PROGRAM_FAILURE);
      }
      clReleaseProgram(p);
   }
   free(m);
   printf("mutations: %u rejected, %u accepted (%u built)\n", rejected, created, built);
   CHECK(rejected > 300);
}

int
main(int argc, char **argv)
{
   test_setup();
   if (argc == 2 && !strcmp(argv[1], "--no-translator")) {
      /* Without the translator the device reports no IL, and IL programs are refused with
       * CL_INVALID_OPERATION (§5.8.1). */
      char il[64] = "x";
      CHECK_EQ_INT(clGetDeviceInfo(device, CL_DEVICE_IL_VERSION, sizeof(il), il, NULL), CL_SUCCESS);
      CHECK_STR(il, "");
      static const uint32_t hdr[5] = { 0x07230203, 0x00010000, 0, 1, 0 };
      program_from_il(hdr, sizeof(hdr), CL_INVALID_OPERATION);
      test_il_rows(false, NULL, 0);
      clReleaseContext(context);
      return test_main_end();
   }
   if (argc != 3) {
      fprintf(stderr, "usage: comp_api_il_test MODULE_DIR SOURCE_DIR | --no-translator\n");
      return 2;
   }
   dir = argv[1];
   char source[4096];
   snprintf(source, sizeof(source), "%s/il_basic.cl", argv[2]);
   size_t size;
   uint32_t *good = read_module("il_basic12.spv", &size);
   if (!good)
      return test_main_end();
   test_queries();
   test_il_rows(true, good, size);
   test_create_errors(good, size);
   test_program_info(good, size);
   test_basic(source);
   test_spec_constants();
   test_fdiv();
   test_link();
   test_recursion();
   test_mutations(good, size);
   free(good);
   clReleaseContext(context);
   return test_main_end();
}
