/*
 * tests/compiler/api_float_atomics_test.c — cl_ext_float_atomics end to end: the device
 * reports the extension and its features, CL_DEVICE_{HALF,SINGLE,DOUBLE}_FP_ATOMIC_
 * CAPABILITIES_EXT say the same as the feature macros a kernel sees, and the built-ins are
 * atomic and compute what the extension says in global, local and generic memory
 * (compiler/comp_builtins_atomic.cl):
 *   - add and sub (float, double; no half add, platform/plat_extensions.def): every
 *     work-item of two work-groups of two waves adds (subtracts) 1; the values returned are
 *     then exactly a permutation of 0..n-1 (n..1): each one was seen by one work-item only,
 *     none lost, which any non-atomic update breaks. The sums are integers, exact;
 *   - min and max over random values, with NaN in memory (min(NaN, x) = x), NaN operands
 *     (ignored), only NaNs (NaN), and -0/+0 (a zero either way), against a host model.
 * Built as OpenCL C 3.0 and 2.0 (the macros come from different paths, compiler/
 * comp_llvm_front.cpp), at -O3 and -cl-opt-disable.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext.h>

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#include "hsacl_test.h"
#include "hsacl_cl_test.h"

#ifndef CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT
#define CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT 0x4231
#define CL_DEVICE_DOUBLE_FP_ATOMIC_CAPABILITIES_EXT 0x4232
#define CL_DEVICE_HALF_FP_ATOMIC_CAPABILITIES_EXT 0x4233
#define CL_DEVICE_GLOBAL_FP_ATOMIC_LOAD_STORE_EXT (1 << 0)
#define CL_DEVICE_GLOBAL_FP_ATOMIC_ADD_EXT (1 << 1)
#define CL_DEVICE_GLOBAL_FP_ATOMIC_MIN_MAX_EXT (1 << 2)
#define CL_DEVICE_LOCAL_FP_ATOMIC_LOAD_STORE_EXT (1 << 16)
#define CL_DEVICE_LOCAL_FP_ATOMIC_ADD_EXT (1 << 17)
#define CL_DEVICE_LOCAL_FP_ATOMIC_MIN_MAX_EXT (1 << 18)
#endif

#ifndef CL_DEVICE_SPIRV_EXTENSIONS_KHR
#define CL_DEVICE_SPIRV_EXTENSIONS_KHR 0x12BA
#define CL_DEVICE_SPIRV_CAPABILITIES_KHR 0x12BB
#endif

static cl_device_id device;
static cl_context ctx;
static cl_command_queue queue;

enum { G = 256, L = 128, GROUPS = G / L };

static const char *const types[] = { "half", "float", "double" };

/* Fails the test, saying why, unless `ok`. */
static void __attribute__((format(printf, 2, 3)))
expect(bool ok, const char *fmt, ...)
{
   if (!ok) {
      va_list ap;
      va_start(ap, fmt);
      vfprintf(stderr, fmt, ap);
      va_end(ap);
      fputc('\n', stderr);
   }
   CHECK(ok);
}

/* From source (`il` NULL) or from SPIR-V. */
static cl_program
build(const char *source, const void *il, size_t il_size, const char *options)
{
   return test_cl_build(ctx, device, source, il, il_size, options);
}

static cl_mem
buffer(size_t size, const void *init)
{
   return test_cl_buffer(ctx, size, init);
}

static void
launch(cl_kernel k, size_t global, size_t local)
{
   CHECK_EQ_INT(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(clFinish(queue), CL_SUCCESS);
}

/* A binary16 value (zeros, subnormals, normals, infinities, NaN) as a double. */
static double
half_value(uint16_t h)
{
   int e = (h >> 10) & 31, m = h & 1023;
   double mag = e == 31 ? (m ? NAN : INFINITY) : e == 0 ? ldexp(m, -24) : ldexp(1024 + m, e - 25);
   return h & 0x8000 ? -mag : mag;
}

/* Element i of a buffer of T (type index t) as a double. */
static double
element(const void *buf, int t, int i)
{
   if (t == 0)
      return half_value(((const uint16_t *)buf)[i]);
   return t == 1 ? ((const float *)buf)[i] : ((const double *)buf)[i];
}

/* ---- queries against the macros ------------------------------------------------------ */

static void
test_queries(cl_program p, const char *options)
{
   static const cl_device_info q[3] = { CL_DEVICE_HALF_FP_ATOMIC_CAPABILITIES_EXT,
                                        CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT,
                                        CL_DEVICE_DOUBLE_FP_ATOMIC_CAPABILITIES_EXT };
   cl_ulong macros[3] = { 0 };
   cl_mem o = buffer(sizeof(macros), macros);
   cl_int err;
   cl_kernel k = clCreateKernel(p, "macros", &err);
   clSetKernelArg(k, 0, sizeof(cl_mem), &o);
   launch(k, 1, 1);
   clEnqueueReadBuffer(queue, o, CL_TRUE, 0, sizeof(macros), macros, 0, NULL, NULL);
   for (int t = 0; t < 3; t++) {
      cl_bitfield caps = 0;
      size_t size = 0;
      CHECK_EQ_INT(clGetDeviceInfo(device, q[t], sizeof(caps), &caps, &size), CL_SUCCESS);
      CHECK_EQ_INT(size, sizeof(caps));
      expect(caps == macros[t], "%s (%s): query 0x%llx, macros 0x%llx", types[t], options,
             (unsigned long long)caps, (unsigned long long)macros[t]);
      /* Every operation in both memories (compare-and-swap loops where no instruction is),
       * but half add (platform/plat_extensions.def). */
      cl_bitfield all = CL_DEVICE_GLOBAL_FP_ATOMIC_LOAD_STORE_EXT |
                        CL_DEVICE_GLOBAL_FP_ATOMIC_MIN_MAX_EXT |
                        CL_DEVICE_LOCAL_FP_ATOMIC_LOAD_STORE_EXT |
                        CL_DEVICE_LOCAL_FP_ATOMIC_MIN_MAX_EXT;
      if (t)
         all |= CL_DEVICE_GLOBAL_FP_ATOMIC_ADD_EXT | CL_DEVICE_LOCAL_FP_ATOMIC_ADD_EXT;
      CHECK_EQ_INT(caps, all);
   }
   clReleaseKernel(k);
   clReleaseMemObject(o);
}

static void
test_lists(void)
{
   CHECK(test_device_lists(device, CL_DEVICE_EXTENSIONS, "cl_ext_float_atomics"));
   CHECK(test_device_lists(device, CL_DEVICE_EXTENSIONS_WITH_VERSION, "cl_ext_float_atomics"));
   static const char *const ops[] = { "atomic_add", "atomic_min_max" };
   for (int t = 0; t < 3; t++)
      for (int o = 0; o < 2; o++)
         for (int m = 0; m < 2; m++) {
            char name[64];
            snprintf(name, sizeof(name), "__opencl_c_ext_fp%d_%s_%s", 16 << t,
                     m ? "local" : "global", ops[o]);
            CHECK(test_device_lists(device, CL_DEVICE_OPENCL_C_FEATURES, name) ==
                  (t > 0 || o > 0));
         }
}

/* ---- add and sub --------------------------------------------------------------------- */

/* True when v[0], v[stride], ... (n of them) are exactly first, first + step, ... in some
 * order. */
static bool
permutation(const double *v, size_t stride, size_t n, double first, double step)
{
   static bool seen[G];
   memset(seen, 0, sizeof(seen));
   for (size_t i = 0; i < n; i++) {
      double k = (v[i * stride] - first) / step;
      if (k != floor(k) || k < 0 || k >= (double)n || seen[(size_t)k])
         return false;
      seen[(size_t)k] = true;
   }
   return true;
}

static void
test_addsub(cl_program p, const char *options, int t)
{
   static double out[5 * G], sums[2 * GROUPS];
   double g[3] = { 0 };
   /* Initial global values, in the kernel's type: 0, G, 0 (half, float, double). */
   union {
      uint16_t h[4];
      float f[4];
      double d[4];
   } init = { { 0 } };
   size_t tsize = t == 0 ? 2 : t == 1 ? 4 : 8;
   if (t == 0)
      init.h[1] = 0x5c00; /* 256.0 in binary16 */
   else if (t == 1)
      init.f[1] = G;
   else
      init.d[1] = G;
   cl_mem gb = buffer(3 * tsize, &init), ob = buffer(sizeof(out), NULL),
          sb = buffer(sizeof(sums), NULL);
   char name[32];
   snprintf(name, sizeof(name), "addsub_%s", types[t]);
   cl_int err;
   cl_kernel k = clCreateKernel(p, name, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   clSetKernelArg(k, 0, sizeof(cl_mem), &gb);
   clSetKernelArg(k, 1, sizeof(cl_mem), &ob);
   clSetKernelArg(k, 2, sizeof(cl_mem), &sb);
   launch(k, G, L);
   clEnqueueReadBuffer(queue, ob, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL);
   clEnqueueReadBuffer(queue, sb, CL_TRUE, 0, sizeof(sums), sums, 0, NULL, NULL);
   clEnqueueReadBuffer(queue, gb, CL_TRUE, 0, 3 * tsize, &init, 0, NULL, NULL);
   for (int i = 0; i < 3; i++)
      g[i] = element(&init, t, i);
   const char *ty = types[t];
   expect(permutation(out + 0, 5, G, 0, 1), "%s (%s): global add: no permutation", ty, options);
   expect(permutation(out + 2, 5, G, 1, 1), "%s (%s): global sub: no permutation", ty, options);
   expect(permutation(out + 3, 5, G, 0, 1), "%s (%s): generic global add: no permutation", ty,
          options);
   for (int w = 0; w < GROUPS; w++) {
      expect(permutation(out + 5 * L * w + 1, 5, L, 0, 1),
             "%s (%s): local add of group %d: no permutation", ty, options, w);
      expect(permutation(out + 5 * L * w + 4, 5, L, 1, 1),
             "%s (%s): generic local sub of group %d: no permutation", ty, options, w);
      CHECK(sums[2 * w] == L);
      CHECK(sums[2 * w + 1] == 0);
   }
   /* G in memory after G adds of 1, 0 after G subs from G. */
   CHECK(g[0] == G);
   CHECK(g[1] == 0);
   CHECK(g[2] == G);
   clReleaseKernel(k);
   clReleaseMemObject(gb);
   clReleaseMemObject(ob);
   clReleaseMemObject(sb);
}

/* ---- min and max ----------------------------------------------------------------------- */

static uint64_t rng = 0x9E3779B97F4A7C15ull;

static uint64_t
next(void)
{
   return test_xorshift64(&rng);
}

/* The extension's min and max (fmin/fmax rules: a NaN operand yields the other). */
static double
model_min(double a, double b)
{
   return isnan(a) ? b : isnan(b) ? a : b < a ? b : a;
}

static double
model_max(double a, double b)
{
   return isnan(a) ? b : isnan(b) ? a : b > a ? b : a;
}

/* Compares one result with the model: NaN with NaN, a zero with either zero (min(-0, +0)
 * may be either), else exactly. */
static bool
same(double got, double want)
{
   if (isnan(want))
      return isnan(got);
   return got == want;
}

enum mm_case { MM_RANDOM, MM_NAN_MEMORY, MM_NAN_OPERANDS, MM_ALL_NAN, MM_ZEROS, MM_CASES };
static const char *const mm_names[] = { "random", "NaN in memory", "NaN operands",
                                        "only NaN", "signed zeros" };

static void
test_minmax_case(cl_program p, const char *options, int t, enum mm_case c)
{
   static double v[G];
   double init[4] = { 1e30, -1e30, 1e30, -1e30 };
   if (t == 0)
      init[0] = init[2] = 60000, init[1] = init[3] = -60000; /* within half's range */
   for (int i = 0; i < G; i++) {
      /* Multiples of 1/8 within +-100: exact in half (11 significant bits), float, double. */
      v[i] = (double)((int)(next() % 1601) - 800) / 8;
      if (c == MM_NAN_OPERANDS && i % 3 == 0)
         v[i] = NAN;
      if (c == MM_ALL_NAN)
         v[i] = NAN;
      if (c == MM_ZEROS)
         v[i] = i & 1 ? -0.0 : 0.0;
   }
   if (c == MM_NAN_MEMORY || c == MM_ALL_NAN)
      for (int k = 0; k < 4; k++)
         init[k] = NAN;
   if (c == MM_ZEROS)
      init[0] = init[1] = init[2] = init[3] = 0.0;
   union {
      uint16_t h[2];
      float f[2];
      double d[2];
   } g;
   size_t tsize = t == 0 ? 2 : t == 1 ? 4 : 8;
   if (t == 0) {
      /* binary16 of the four start values used here: 60000, -60000, NaN, 0. */
      for (int k = 0; k < 2; k++)
         g.h[k] = isnan(init[k]) ? 0x7e00 : init[k] == 0 ? 0 : init[k] > 0 ? 0x7b53 : 0xfb53;
      /* 0x7b53 is 60000 exactly: 2^15 * (1 + 851/1024) */
   } else if (t == 1) {
      g.f[0] = (float)init[0], g.f[1] = (float)init[1];
   } else {
      g.d[0] = init[0], g.d[1] = init[1];
   }
   static double out[2 * GROUPS];
   cl_mem vb = buffer(sizeof(v), v), ib = buffer(sizeof(init), init), gb = buffer(2 * tsize, &g),
          ob = buffer(sizeof(out), NULL);
   char name[32];
   snprintf(name, sizeof(name), "minmax_%s", types[t]);
   cl_int err;
   cl_kernel k = clCreateKernel(p, name, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   clSetKernelArg(k, 0, sizeof(cl_mem), &vb);
   clSetKernelArg(k, 1, sizeof(cl_mem), &ib);
   clSetKernelArg(k, 2, sizeof(cl_mem), &gb);
   clSetKernelArg(k, 3, sizeof(cl_mem), &ob);
   launch(k, G, L);
   clEnqueueReadBuffer(queue, ob, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL);
   clEnqueueReadBuffer(queue, gb, CL_TRUE, 0, 2 * tsize, &g, 0, NULL, NULL);
   double got[2] = { element(&g, t, 0), element(&g, t, 1) };
   double wmin = init[0], wmax = init[1];
   for (int i = 0; i < G; i++)
      wmin = model_min(wmin, v[i]), wmax = model_max(wmax, v[i]);
   expect(same(got[0], wmin) && same(got[1], wmax), "%s %s (%s): global min %g max %g, want %g %g",
          types[t], mm_names[c], options, got[0], got[1], wmin, wmax);
   for (int w = 0; w < GROUPS; w++) {
      double lmin = init[2], lmax = init[3];
      for (int i = w * L; i < (w + 1) * L; i++) {
         lmin = model_min(lmin, v[i]);
         lmax = model_max(lmax, v[i]);
      }
      expect(same(out[2 * w], lmin) && same(out[2 * w + 1], lmax),
             "%s %s (%s): group %d local min %g max %g, want %g %g", types[t], mm_names[c],
             options, w, out[2 * w], out[2 * w + 1], lmin, lmax);
   }
   clReleaseKernel(k);
   clReleaseMemObject(vb);
   clReleaseMemObject(ib);
   clReleaseMemObject(gb);
   clReleaseMemObject(ob);
}

/* True when CL_DEVICE_SPIRV_EXTENSIONS_KHR (an array of strings) names `name`. */
static bool
spirv_extension_listed(const char *name)
{
   const char *list[64];
   size_t size = 0;
   if (clGetDeviceInfo(device, CL_DEVICE_SPIRV_EXTENSIONS_KHR, sizeof(list), list, &size) !=
       CL_SUCCESS)
      return false;
   for (size_t i = 0; i < size / sizeof(list[0]); i++)
      if (!strcmp(list[i], name))
         return true;
   return false;
}

/* True when CL_DEVICE_SPIRV_CAPABILITIES_KHR lists capability `c`. */
static bool
spirv_capability_listed(cl_uint c)
{
   cl_uint list[256];
   size_t size = 0;
   if (clGetDeviceInfo(device, CL_DEVICE_SPIRV_CAPABILITIES_KHR, sizeof(list), list, &size) !=
       CL_SUCCESS)
      return false;
   for (size_t i = 0; i < size / sizeof(list[0]); i++)
      if (list[i] == c)
         return true;
   return false;
}

/* Every check on one program; the queries against the macros from source only (a SPIR-V
 * module's macros were those of the compiler that made it). */
static void
test_program(cl_program p, const char *what, bool from_source)
{
   if (from_source)
      test_queries(p, what);
   for (int t = 0; t < 3; t++) {
      if (t > 0)
         test_addsub(p, what, t);
      for (int c = 0; c < MM_CASES; c++)
         test_minmax_case(p, what, t, (enum mm_case)c);
   }
}

/* usage: api_float_atomics_test KERNELS.cl [KERNELS.spv] */
int
main(int argc, char **argv)
{
   if (argc < 2) {
      fprintf(stderr, "usage: api_float_atomics_test KERNELS.cl [KERNELS.spv]\n");
      return 2;
   }
   if (!test_cl_open(&device, &ctx, &queue))
      return 1;
   test_lists();
   size_t size = 0;
   char *src = test_read_file(argv[1], &size);
   CHECK(src != NULL);
   static const char *const options[] = { "-cl-std=CL3.0", "-cl-std=CL2.0",
                                          "-cl-std=CL3.0 -cl-opt-disable" };
   for (size_t o = 0; src && o < sizeof(options) / sizeof(options[0]); o++) {
      cl_program p = build(src, NULL, 0, options[o]);
      CHECK(p != NULL);
      if (p)
         test_program(p, options[o], true);
      if (p)
         clReleaseProgram(p);
   }
   free(src);
   /* SPIR-V: the device says it takes the two SPIR-V extensions; the module's
    * OpAtomicFAddEXT / OpAtomicFMinEXT / OpAtomicFMaxEXT compute the same. */
   char *il = argc > 2 ? test_read_file(argv[2], &size) : NULL;
   if (argc > 2) {
      CHECK(il != NULL);
      CHECK(spirv_extension_listed("SPV_EXT_shader_atomic_float_add"));
      CHECK(spirv_extension_listed("SPV_EXT_shader_atomic_float_min_max"));
      CHECK(!spirv_extension_listed("SPV_EXT_shader_atomic_float16_add"));
      /* AtomicFloat32AddEXT, AtomicFloat64AddEXT, AtomicFloat{32,64,16}MinMaxEXT; no
       * AtomicFloat16AddEXT (6095). */
      static const cl_uint caps[] = { 6033, 6034, 5612, 5613, 5616 };
      for (size_t i = 0; i < sizeof(caps) / sizeof(caps[0]); i++)
         CHECK(spirv_capability_listed(caps[i]));
      CHECK(!spirv_capability_listed(6095));
      cl_program p = il ? build(NULL, il, size, "") : NULL;
      CHECK(p != NULL);
      if (p) {
         test_program(p, "SPIR-V", false);
         clReleaseProgram(p);
      }
      free(il);
   }
   clReleaseCommandQueue(queue);
   clReleaseContext(ctx);
   return test_main_end();
}
