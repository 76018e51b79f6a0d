/*
 * tests/compiler/api_khr31_test.c — extensions OpenCL 3.1 makes core, end to end:
 * cl_khr_extended_bit_ops, cl_khr_integer_dot_product, cl_khr_subgroup_rotate and
 * cl_khr_suggested_local_work_size (OpenCL C 3.1 §6.15: "Extended bit operations",
 * "Integer dot product functions", "Sub-group rotate functions"; extensions in 3.0): the
 * device reports them and answers their queries, and the built-ins compute on the device
 * what a host model of the specification computes, for random inputs and the edge cases
 * (count 0 and the full width, offsets at the top bit, the saturation limits of
 * dot_acc_sat, negative and wrapping rotations, partial sub-groups and clusters).
 *
 * The kernels build as OpenCL C 1.2 (the bit and dot extensions need no 2.0 feature) and 3.0
 * (rotate needs sub-groups), at -O3 and -cl-opt-disable.
 *
 * clGetKernelSuggestedLocalWorkSizeKHR: the size a launch with a NULL local size uses (the
 * kernel reads get_local_size), reqd_work_group_size, and every error of the extension.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext.h>

#include <stdbool.h>
#include <stdint.h>

#include "hsacl_test.h"
#include "hsacl_cl_test.h"

static cl_device_id device;
static cl_context ctx;
static cl_command_queue queue;

enum { N = 256 };

static uint64_t rng = 0x2545F4914F6CDD1Dull;

static uint64_t
next(void)
{
   return test_xorshift64(&rng);
}

static cl_program
build(const char *src, const char *options)
{
   return test_cl_build(ctx, device, src, NULL, 0, options);
}

static cl_mem
buffer(size_t size, const void *init)
{
   return test_cl_buffer(ctx, size, init);
}

static bool
run(cl_program p, const char *name, size_t global, size_t local, cl_mem *args, int nargs)
{
   cl_int err;
   cl_kernel k = clCreateKernel(p, name, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   if (!k)
      return false;
   for (int i = 0; i < nargs; i++)
      clSetKernelArg(k, (cl_uint)i, sizeof(cl_mem), &args[i]);
   err = clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, local ? &local : NULL, 0, NULL, NULL);
   CHECK_EQ_INT(err, CL_SUCCESS);
   clFinish(queue);
   clReleaseKernel(k);
   return err == CL_SUCCESS;
}

/* ---- queries ------------------------------------------------------------------------- */

static void
test_queries(void)
{
   CHECK(test_device_lists(device, CL_DEVICE_EXTENSIONS, "cl_khr_extended_bit_ops"));
   CHECK(test_device_lists(device, CL_DEVICE_EXTENSIONS, "cl_khr_integer_dot_product"));
   CHECK(test_device_lists(device, CL_DEVICE_EXTENSIONS, "cl_khr_subgroup_rotate"));
   CHECK(test_device_lists(device, CL_DEVICE_OPENCL_C_FEATURES,
                           "__opencl_c_integer_dot_product_input_4x8bit"));
   CHECK(test_device_lists(device, CL_DEVICE_OPENCL_C_FEATURES,
                           "__opencl_c_integer_dot_product_input_4x8bit_packed"));
   cl_device_integer_dot_product_capabilities_khr caps = 0;
   CHECK_EQ_INT(clGetDeviceInfo(device, CL_DEVICE_INTEGER_DOT_PRODUCT_CAPABILITIES_KHR,
                                sizeof(caps), &caps, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(caps, CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_PACKED_KHR |
                         CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_KHR);
   /* gfx906 has V_DOT4_I32_I8 and V_DOT4_U32_U8 (with clamp), no mixed-signedness form. */
   static const cl_device_info props[] = {
      CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_8BIT_KHR,
      CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_4x8BIT_PACKED_KHR,
   };
   for (int i = 0; i < 2; i++) {
      cl_device_integer_dot_product_acceleration_properties_khr a;
      size_t size = 0;
      memset(&a, 0x55, sizeof(a));
      CHECK_EQ_INT(clGetDeviceInfo(device, props[i], sizeof(a), &a, &size), CL_SUCCESS);
      CHECK_EQ_INT(size, sizeof(a));
      CHECK_EQ_INT(a.signed_accelerated, CL_TRUE);
      CHECK_EQ_INT(a.unsigned_accelerated, CL_TRUE);
      CHECK_EQ_INT(a.mixed_signedness_accelerated, CL_FALSE);
      CHECK_EQ_INT(a.accumulating_saturating_signed_accelerated, CL_TRUE);
      CHECK_EQ_INT(a.accumulating_saturating_unsigned_accelerated, CL_TRUE);
      CHECK_EQ_INT(a.accumulating_saturating_mixed_signedness_accelerated, CL_FALSE);
   }
}

/* ---- cl_khr_spirv_queries ---------------------------------------------------------------
 * What the SPIR-V environment specification requires of this device, given what it reports
 * (the CTS's spirv_queries rules): every required capability present, each string a known
 * name, no duplicates. */
#ifndef CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR
#define CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR 0x12B9
#define CL_DEVICE_SPIRV_EXTENSIONS_KHR 0x12BA
#define CL_DEVICE_SPIRV_CAPABILITIES_KHR 0x12BB
#endif

static void
test_spirv_queries(void)
{
   CHECK(test_device_lists(device, CL_DEVICE_EXTENSIONS, "cl_khr_spirv_queries"));
   const char *sets[8] = { NULL };
   size_t size = 0;
   CHECK_EQ_INT(clGetDeviceInfo(device, CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR, sizeof(sets),
                                sets, &size),
                CL_SUCCESS);
   /* OpenCL.DebugInfo.100 with cl_khr_spirv_extended_debug_info (compiler/comp_spirv.c). */
   CHECK_EQ_INT(size, 2 * sizeof(const char *));
   CHECK_STR(sets[0], "OpenCL.std");
   CHECK_STR(sets[1], "OpenCL.DebugInfo.100");
   const char *exts[16] = { NULL };
   CHECK_EQ_INT(clGetDeviceInfo(device, CL_DEVICE_SPIRV_EXTENSIONS_KHR, sizeof(exts), exts, &size),
                CL_SUCCESS);
   static const char *const want_exts[] = { "SPV_KHR_bit_instructions",
                                            "SPV_KHR_integer_dot_product",
                                            "SPV_KHR_subgroup_rotate",
                                            "SPV_KHR_no_integer_wrap_decoration",
                                            "SPV_KHR_linkonce_odr",
                                            "SPV_KHR_expect_assume",
                                            "SPV_EXT_shader_atomic_float_add",
                                            "SPV_EXT_shader_atomic_float_min_max",
                                            "SPV_KHR_shader_clock" };
   CHECK_EQ_INT(size, sizeof(want_exts));
   for (size_t w = 0; w < sizeof(want_exts) / sizeof(want_exts[0]); w++) {
      bool found = false;
      for (size_t i = 0; i < size / sizeof(const char *); i++)
         found |= exts[i] && !strcmp(exts[i], want_exts[w]);
      if (!found)
         fprintf(stderr, "SPIR-V extension %s not reported\n", want_exts[w]);
      CHECK(found);
   }
   cl_uint caps[64];
   CHECK_EQ_INT(
      clGetDeviceInfo(device, CL_DEVICE_SPIRV_CAPABILITIES_KHR, sizeof(caps), caps, &size),
      CL_SUCCESS);
   /* Addresses, Linkage, Kernel, Vector16, Float16Buffer, Int64, Int16, Int8 (required);
    * Float16, Float64 (fp16, fp64), Int64Atomics, GenericPointer, Pipes, Groups, SubgroupDispatch,
    * GroupNonUniformShuffle(Relative), GroupNonUniform and its Vote, Arithmetic, Ballot and
    * Clustered forms, GroupNonUniformRotateKHR, DotProduct and its two input formats,
    * BitInstructions, ExpectAssumeKHR; AtomicFloat32AddEXT, AtomicFloat64AddEXT and the
    * 32-, 64- and 16-bit AtomicFloatMinMaxEXT (cl_ext_float_atomics), ShaderClockKHR
    * (cl_khr_kernel_clock). */
   /* An image device adds ImageBasic, LiteralSampler, Sampled1D, Image1D, SampledBuffer,
    * ImageBuffer and (read_write images) ImageReadWrite: tests/memory/api_image_ext_test.c. */
   static const cl_uint want[] = { 4,    5,    6,    7,    8,    11,   22,   39,   9,    10,
                                   12,   38,   17,   18,   58,   65,   66,   61,   62,   63,
                                   64,   67,   6026, 6019, 6017, 6018, 6025, 5629, 6033, 6034,
                                   5612, 5613, 5616, 5055,
                                   /* the image device's, last */
                                   13,   20,   43,   44,   46,   47,   14 };
   cl_bool images = CL_FALSE;
   clGetDeviceInfo(device, CL_DEVICE_IMAGE_SUPPORT, sizeof(images), &images, NULL);
   const size_t nwant = sizeof(want) / sizeof(want[0]) - (images ? 0 : 7);
   size_t n = size / sizeof(cl_uint);
   CHECK_EQ_INT(n, nwant);
   for (size_t w = 0; w < nwant; w++) {
      unsigned count = 0;
      for (size_t i = 0; i < n; i++)
         count += caps[i] == want[w];
      if (count != 1)
         fprintf(stderr, "SPIR-V capability %u reported %u times\n", want[w], count);
      CHECK_EQ_INT(count, 1);
   }
}

/* ---- extended bit operations ----------------------------------------------------------
 * Per work-item i: (offset, count) from a table of edge cases and random pairs with
 * offset + count <= width; each kernel writes insert / extract_signed / extract_unsigned /
 * bit_reverse of its type's inputs (as 64-bit words, the signed results sign-extended). */

static uint64_t
mask_of(unsigned count)
{
   return count == 0 ? 0 : ~0ull >> (64 - count);
}

/* The host model, on W-bit values held in 64-bit words. */
static void
bits_model(unsigned w, uint64_t x, uint64_t y, unsigned off, unsigned cnt, uint64_t out[4])
{
   uint64_t wm = mask_of(w);
   x &= wm;
   y &= wm;
   uint64_t m = (mask_of(cnt) << off) & wm;
   out[0] = cnt ? ((x & ~m) | ((y << off) & m)) & wm : x;
   uint64_t field = cnt ? (x >> off) & mask_of(cnt) : 0;
   out[2] = field;
   out[1] = cnt && (field >> (cnt - 1)) & 1 ? field | ~mask_of(cnt) : field;
   uint64_t r = 0;
   for (unsigned k = 0; k < w; k++)
      r |= ((x >> k) & 1) << (w - 1 - k);
   out[3] = r;
}

static void
pick_field(unsigned w, unsigned i, unsigned *off, unsigned *cnt)
{
   static const unsigned edge[][2] = { { 0, 0 },  { 0, 1 },  { 0, 64 }, { 1, 0 },
                                       { 63, 1 }, { 7, 1 },  { 0, 8 },  { 4, 4 },
                                       { 15, 1 }, { 31, 1 }, { 0, 32 }, { 8, 24 } };
   if (i < sizeof(edge) / sizeof(edge[0]) && edge[i][0] + edge[i][1] <= w) {
      *off = edge[i][0];
      *cnt = edge[i][1];
      return;
   }
   *cnt = (unsigned)(next() % (w + 1));
   *off = *cnt == w ? 0 : (unsigned)(next() % (w - *cnt + 1));
}

static void
test_bits(cl_program p, const char *options)
{
   static const struct {
      const char *name;
      unsigned w;
      bool sign;
   } types[] = { { "bits_char", 8, true },
                 { "bits_ushort", 16, false },
                 { "bits_int", 32, true },
                 { "bits_ulong", 64, false } };
   static uint64_t a[N], b[N], o[4 * N];
   static uint32_t off[N], cnt[N];
   for (size_t t = 0; t < 4; t++) {
      unsigned w = types[t].w;
      for (unsigned i = 0; i < N; i++) {
         a[i] = next();
         b[i] = next();
         pick_field(w, i, &off[i], &cnt[i]);
      }
      cl_mem args[5] = { buffer(sizeof(a), a), buffer(sizeof(b), b), buffer(sizeof(off), off),
                         buffer(sizeof(cnt), cnt), buffer(sizeof(o), NULL) };
      unsigned bad = 0;
      if (run(p, types[t].name, N, 64, args, 5)) {
         clEnqueueReadBuffer(queue, args[4], CL_TRUE, 0, sizeof(o), o, 0, NULL, NULL);
         for (unsigned i = 0; i < N; i++) {
            uint64_t want[4];
            bits_model(w, a[i], b[i], off[i], cnt[i], want);
            /* The kernel widens through U (zero) or long (signed result): model the same. */
            uint64_t got_ext = o[4 * i + 1];
            uint64_t want_ext = want[1];
            if (w < 64 && cnt[i] && (want[1] >> (cnt[i] - 1)) & 1)
               want_ext = want[1] | ~mask_of(w); /* sign-extended past W by (long) */
            uint64_t g[4] = { o[4 * i], got_ext, o[4 * i + 2], o[4 * i + 3] };
            uint64_t e[4] = { want[0], want_ext, want[2], want[3] };
            for (int k = 0; k < 4; k++)
               if (g[k] != e[k] && bad++ < 6)
                  fprintf(stderr,
                          "%s (%s) item %u op %d (x %llx y %llx off %u cnt %u): "
                          "%llx, want %llx\n",
                          types[t].name, options, i, k, (unsigned long long)a[i],
                          (unsigned long long)b[i], off[i], cnt[i], (unsigned long long)g[k],
                          (unsigned long long)e[k]);
         }
      }
      CHECK_EQ_INT(bad, 0);
      for (int i = 0; i < 5; i++)
         clReleaseMemObject(args[i]);
   }

   /* uint4 vectors. */
   static uint32_t va[4 * N], vb[4 * N], vo[16 * N];
   for (unsigned i = 0; i < N; i++) {
      pick_field(32, i, &off[i], &cnt[i]);
      for (int c = 0; c < 4; c++) {
         va[4 * i + c] = (uint32_t)next();
         vb[4 * i + c] = (uint32_t)next();
      }
   }
   cl_mem args[5] = { buffer(sizeof(va), va), buffer(sizeof(vb), vb), buffer(sizeof(off), off),
                      buffer(sizeof(cnt), cnt), buffer(sizeof(vo), NULL) };
   unsigned bad = 0;
   if (run(p, "bits_vec", N, 64, args, 5)) {
      clEnqueueReadBuffer(queue, args[4], CL_TRUE, 0, sizeof(vo), vo, 0, NULL, NULL);
      for (unsigned i = 0; i < N; i++)
         for (int c = 0; c < 4; c++) {
            uint64_t want[4];
            bits_model(32, va[4 * i + c], vb[4 * i + c], off[i], cnt[i], want);
            for (int k = 0; k < 4; k++)
               if (vo[16 * i + 4 * k + c] != (uint32_t)want[k] && bad++ < 6)
                  fprintf(stderr, "bits_vec item %u.%d op %d: %x, want %x\n", i, c, k,
                          vo[16 * i + 4 * k + c], (uint32_t)want[k]);
         }
   }
   CHECK_EQ_INT(bad, 0);
   for (int i = 0; i < 5; i++)
      clReleaseMemObject(args[i]);
}

/* ---- integer dot products ------------------------------------------------------------- */

static int64_t
sat(int64_t v, int64_t lo, int64_t hi)
{
   return v < lo ? lo : v > hi ? hi : v;
}

static void
dot_model(uint32_t x, uint32_t y, int32_t acc, int32_t out[16])
{
   int64_t uu = 0, ss = 0, us = 0, su = 0;
   for (int k = 0; k < 4; k++) {
      uint8_t xu = (uint8_t)(x >> (8 * k)), yu = (uint8_t)(y >> (8 * k));
      int8_t xs = (int8_t)xu, ys = (int8_t)yu;
      uu += (int64_t)xu * yu;
      ss += (int64_t)xs * ys;
      us += (int64_t)xu * ys;
      su += (int64_t)xs * yu;
   }
   int64_t r[8] = {
      uu,
      ss,
      us,
      su,
      sat(uu + (uint32_t)acc, 0, UINT32_MAX),
      sat(ss + acc, INT32_MIN, INT32_MAX),
      sat(us + acc, INT32_MIN, INT32_MAX),
      sat(su + acc, INT32_MIN, INT32_MAX),
   };
   for (int k = 0; k < 8; k++)
      out[k] = out[k + 8] = (int32_t)(uint32_t)r[k];
}

static void
test_dots(cl_program p, const char *options)
{
   static uint32_t a[N], b[N];
   static int32_t c[N], o[16 * N];
   static const uint32_t edge_x[] = { 0xFFFFFFFF, 0x80808080, 0x7F7F7F7F, 0, 0xFF80FF80 };
   static const int32_t edge_acc[] = { INT32_MAX, INT32_MIN, -1, 0x7FFF0000, (int32_t)0xFFFF0000 };
   for (unsigned i = 0; i < N; i++) {
      a[i] = (uint32_t)next();
      b[i] = (uint32_t)next();
      c[i] = (int32_t)next() >> (next() % 32);
      if (i < 25) {
         a[i] = edge_x[i % 5];
         b[i] = edge_x[i / 5];
         c[i] = edge_acc[(i * 3) % 5];
      }
   }
   cl_mem args[4] = { buffer(sizeof(a), a), buffer(sizeof(b), b), buffer(sizeof(c), c),
                      buffer(sizeof(o), NULL) };
   unsigned bad = 0;
   if (run(p, "dots", N, 64, args, 4)) {
      clEnqueueReadBuffer(queue, args[3], CL_TRUE, 0, sizeof(o), o, 0, NULL, NULL);
      for (unsigned i = 0; i < N; i++) {
         int32_t want[16];
         dot_model(a[i], b[i], c[i], want);
         for (int k = 0; k < 16; k++)
            if (o[16 * i + k] != want[k] && bad++ < 8)
               fprintf(stderr, "dots (%s) item %u fn %d (x %08x y %08x acc %d): %d, want %d\n",
                       options, i, k, a[i], b[i], c[i], o[16 * i + k], want[k]);
      }
   }
   CHECK_EQ_INT(bad, 0);
   for (int i = 0; i < 4; i++)
      clReleaseMemObject(args[i]);
}

/* ---- sub-group rotate -----------------------------------------------------------------
 * Work-groups of 100 work-items: full sub-groups of the wave size (64: one; 32 on gfx10 and
 * later: three) and a partial one (36, or 4). Each
 * work-item writes rotate by delta[k] and clustered rotate (cluster 4, 8, 16, 32) of its
 * global id, for int and double; the model rotates within the actual sub-group. */

static void
test_rotate(cl_program p, const char *options)
{
   enum { WG = 100, G = 300 };
   static const int deltas[] = { 1, 5, -3, 63, 64, 70, -200 };
   for (size_t di = 0; di < sizeof(deltas) / sizeof(deltas[0]); di++) {
      int delta = deltas[di];
      static int32_t o[6 * G];
      static double d[G];
      cl_int err;
      cl_mem ob = buffer(sizeof(o), NULL), db = buffer(sizeof(d), NULL);
      cl_kernel k = clCreateKernel(p, "rot", &err);
      clSetKernelArg(k, 0, sizeof(cl_mem), &ob);
      clSetKernelArg(k, 1, sizeof(cl_mem), &db);
      clSetKernelArg(k, 2, sizeof(delta), &delta);
      size_t g = G, l = WG;
      CHECK_EQ_INT(clEnqueueNDRangeKernel(queue, k, 1, NULL, &g, &l, 0, NULL, NULL), CL_SUCCESS);
      clEnqueueReadBuffer(queue, ob, CL_TRUE, 0, sizeof(o), o, 0, NULL, NULL);
      clEnqueueReadBuffer(queue, db, CL_TRUE, 0, sizeof(d), d, 0, NULL, NULL);
      unsigned bad = 0;
      for (int i = 0; i < G; i++) {
         int w = (int)test_sim_wave_size();
         int wg = i / WG, lid = i % WG, sg = lid / w, sgl = lid % w;
         int size = WG - sg * w < w ? WG - sg * w : w, base = wg * WG + sg * w;
         int want[6];
         static const int cs[4] = { 4, 8, 16, 32 };
         want[0] = base + (((sgl + delta) % size) + size) % size;
         for (int c = 0; c < 4; c++) {
            int dd = c == 3 ? -delta : delta, cb = sgl & ~(cs[c] - 1);
            want[1 + c] = base + cb + (((sgl - cb + dd) % cs[c]) + cs[c]) % cs[c];
         }
         want[5] = want[0] & 0xff;
         int dw = base + (((sgl - delta) % size) + size) % size;
         for (int c = 0; c < 6; c++) {
            /* A cluster cut short by the partial sub-group's end (lanes 32-35 of 36 in
             * clusters of 8, 16 and 32; lanes 0-3 of 4 in those of 8 and up): the lanes it
             * reads do not exist, undefined. */
            int cl = c >= 1 && c <= 4 ? cs[c - 1] : 0;
            if (cl && (sgl & ~(cl - 1)) + cl > size)
               continue;
            if (o[6 * i + c] != want[c] && bad++ < 8)
               fprintf(stderr, "rot (%s) delta %d item %d op %d: %d, want %d\n", options, delta, i,
                       c, o[6 * i + c], want[c]);
         }
         if (d[i] != dw + 0.5 && bad++ < 8)
            fprintf(stderr, "rot double delta %d item %d: %g, want %d.5\n", delta, i, d[i], dw);
      }
      CHECK_EQ_INT(bad, 0);
      clReleaseKernel(k);
      clReleaseMemObject(ob);
      clReleaseMemObject(db);
   }
}

/* ---- suggested local work size ---------------------------------------------------------- */

static const char lws_src[] =
   "kernel void lws(global uint *o)                                                  \n"
   "{                                                                                \n"
   "   if (get_global_id(0) + get_global_id(1) + get_global_id(2) == 0) {            \n"
   "      o[0] = get_local_size(0); o[1] = get_local_size(1); o[2] = get_local_size(2);\n"
   "   }                                                                             \n"
   "}                                                                                \n"
   "kernel __attribute__((reqd_work_group_size(8, 4, 2))) void fixed(global uint *o) \n"
   "{ o[0] = 1; }                                                                    \n";

static void
test_suggested(void)
{
   cl_platform_id platform = NULL;
   clGetDeviceInfo(device, CL_DEVICE_PLATFORM, sizeof(platform), &platform, NULL);
   clGetKernelSuggestedLocalWorkSizeKHR_fn fn =
      (clGetKernelSuggestedLocalWorkSizeKHR_fn)clGetExtensionFunctionAddressForPlatform(
         platform, "clGetKernelSuggestedLocalWorkSizeKHR");
   CHECK(test_device_lists(device, CL_DEVICE_EXTENSIONS, "cl_khr_suggested_local_work_size"));
   CHECK(fn != NULL);
   if (!fn)
      return;
   cl_program p = build(lws_src, "");
   if (!p)
      return;
   cl_int err;
   cl_kernel k = clCreateKernel(p, "lws", &err), f = clCreateKernel(p, "fixed", &err);
   size_t g[3] = { 1000, 1, 1 }, l[3] = { 0, 0, 0 }, off[3] = { 0, 0, 0 };
   /* Arguments not set yet. */
   CHECK_EQ_INT(fn(queue, k, 1, NULL, g, l), CL_INVALID_KERNEL_ARGS);
   cl_mem o = buffer(3 * sizeof(cl_uint), NULL);
   clSetKernelArg(k, 0, sizeof(o), &o);
   clSetKernelArg(f, 0, sizeof(o), &o);
   static const size_t shapes[][4] = {
      { 1, 1000, 1, 1 },    { 1, 4096, 1, 1 }, { 1, 7, 1, 1 },    { 2, 64, 48, 1 },
      { 2, 1920, 1080, 1 }, { 3, 16, 16, 16 }, { 3, 30, 20, 10 }, { 1, 97 * 89, 1, 1 },
   };
   for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++) {
      cl_uint dims = (cl_uint)shapes[s][0];
      size_t gs[3] = { shapes[s][1], shapes[s][2], shapes[s][3] }, sug[3] = { 0, 0, 0 };
      CHECK_EQ_INT(fn(queue, k, dims, s & 1 ? off : NULL, gs, sug), CL_SUCCESS);
      size_t product = 1;
      for (cl_uint d = 0; d < dims; d++) {
         CHECK(sug[d] >= 1 && gs[d] % sug[d] == 0);
         product *= sug[d];
      }
      CHECK(product <= 256);
      cl_uint got[3] = { 0, 0, 0 };
      CHECK_EQ_INT(clEnqueueNDRangeKernel(queue, k, dims, NULL, gs, NULL, 0, NULL, NULL),
                   CL_SUCCESS);
      clEnqueueReadBuffer(queue, o, CL_TRUE, 0, sizeof(got), got, 0, NULL, NULL);
      for (cl_uint d = 0; d < dims; d++)
         if (got[d] != sug[d])
            fprintf(stderr, "shape %zu dim %u: launch used %u, suggested %zu\n", s, d, got[d],
                    sug[d]);
      for (cl_uint d = 0; d < dims; d++)
         CHECK_EQ_INT(got[d], sug[d]);
   }
   /* reqd_work_group_size wins. */
   size_t gf[3] = { 64, 64, 64 }, sf[3] = { 0, 0, 0 };
   CHECK_EQ_INT(fn(queue, f, 3, NULL, gf, sf), CL_SUCCESS);
   CHECK_EQ_INT(sf[0], 8);
   CHECK_EQ_INT(sf[1], 4);
   CHECK_EQ_INT(sf[2], 2);
   /* Errors, in the extension's order. */
   CHECK_EQ_INT(fn(NULL, k, 1, NULL, g, l), CL_INVALID_COMMAND_QUEUE);
   CHECK_EQ_INT(fn(queue, NULL, 1, NULL, g, l), CL_INVALID_KERNEL);
   cl_context other = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
   cl_command_queue oq = clCreateCommandQueueWithProperties(other, device, NULL, &err);
   CHECK_EQ_INT(fn(oq, k, 1, NULL, g, l), CL_INVALID_CONTEXT);
   clReleaseCommandQueue(oq);
   clReleaseContext(other);
   CHECK_EQ_INT(fn(queue, k, 0, NULL, g, l), CL_INVALID_WORK_DIMENSION);
   CHECK_EQ_INT(fn(queue, k, 4, NULL, g, l), CL_INVALID_WORK_DIMENSION);
   CHECK_EQ_INT(fn(queue, k, 1, NULL, NULL, l), CL_INVALID_GLOBAL_WORK_SIZE);
   size_t zero[3] = { 0, 1, 1 };
   CHECK_EQ_INT(fn(queue, k, 1, NULL, zero, l), CL_INVALID_GLOBAL_WORK_SIZE);
   size_t huge_off[3] = { SIZE_MAX - 10, 0, 0 };
   CHECK_EQ_INT(fn(queue, k, 1, huge_off, g, l), CL_INVALID_GLOBAL_OFFSET);
   CHECK_EQ_INT(fn(queue, k, 1, NULL, g, NULL), CL_INVALID_VALUE);
   clReleaseMemObject(o);
   clReleaseKernel(k);
   clReleaseKernel(f);
   clReleaseProgram(p);
}

/* usage: api_khr31_test KERNELS.cl [KERNELS.spv] */
int
main(int argc, char **argv)
{
   cl_int err;
   if (argc < 2) {
      fprintf(stderr, "usage: api_khr31_test KERNELS.cl [KERNELS.spv]\n");
      return 2;
   }
   if (!test_cl_open(&device, &ctx, &queue))
      return 1;
   test_queries();
   test_spirv_queries();
   size_t size;
   char *src = test_read_file(argv[1], &size);
   static const char *const opts[] = { "-cl-std=CL1.2", "-cl-std=CL3.0",
                                       "-cl-std=CL3.0 -cl-opt-disable" };
   for (int i = 0; src && i < 3; i++) {
      cl_program p = build(src, opts[i]);
      if (!p)
         continue;
      test_bits(p, opts[i]);
      test_dots(p, opts[i]);
      if (i > 0) /* sub-groups: OpenCL C 2.0 and later */
         test_rotate(p, opts[i]);
      clReleaseProgram(p);
   }
   free(src);
   /* The same kernels from SPIR-V (bit instructions, OpSDot/OpUDot/OpSUDot and their
    * AccSat forms, OpGroupNonUniformRotateKHR). */
   char *il = argc > 2 ? test_read_file(argv[2], &size) : NULL;
   if (il) {
      cl_program p = clCreateProgramWithIL(ctx, il, size, &err);
      CHECK_EQ_INT(err, CL_SUCCESS);
      if (p && clBuildProgram(p, 1, &device, "", NULL, NULL) == CL_SUCCESS) {
         test_bits(p, "SPIR-V");
         test_dots(p, "SPIR-V");
         test_rotate(p, "SPIR-V");
      } else {
         char log[8192] = "";
         if (p)
            clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, sizeof(log), log, NULL);
         fprintf(stderr, "SPIR-V build failed: %s\n", log);
         test_failed++;
      }
      if (p)
         clReleaseProgram(p);
      free(il);
   }
   test_suggested();
   clReleaseCommandQueue(queue);
   clReleaseContext(ctx);
   return test_main_end();
}
