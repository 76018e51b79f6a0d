/*
 * compiler/tests/comp_builtins_test.c — the builtins hsacl defines instead of the ROCm device
 * libraries (compiler/comp_builtins.cl), end to end through the ICD on the build tree's
 * device: kernels built by clBuildProgram, run, results checked against exact host values.
 *
 * - abs_diff for the 8 integer types, scalar and every vector width: |x - y| in the unsigned
 *   type, also where it exceeds the signed maximum (opencl.bc: abs(x - y) after a sub nsw).
 * - convert_<integer>_sat<rounding>(float/double/half), scalar for every type and rounding
 *   mode, vectors of every width: NaN -> 0 (opencl.bc: the type's minimum), bounds, ties
 *   (half sources when the device reports cl_khr_fp16).
 * - get_local_linear_id in the partial work-groups of a non-uniform 3-D launch, and
 *   async_work_group_copy there (opencl.bc strides it by __ockl_get_local_linear_id).
 * - vstorea_half3<rounding>(float3/double3) into global, local, private and generic memory:
 *   exactly 3 halves at p + offset * 4, rounded as each mode says (opencl.bc stores 4);
 *   vloada_half3 from every address space.
 * get_sub_group_id needs cl_khr_subgroups, which the device does not report; its name is
 * checked by compiler.builtins.names.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#include "hsacl_test.h"

#define NIN 48 /* divisible by every vector width */

static cl_device_id device;
static cl_context context;
static cl_command_queue queue;

static const char *const type_names[8] = { "char", "uchar", "short", "ushort",
                                           "int",  "uint",  "long",  "ulong" };
static const int type_bits[8] = { 8, 8, 16, 16, 32, 32, 64, 64 };
#define IS_SIGNED(t) (!((t) & 1))
static const char *const rnd_names[5] = { "", "_rte", "_rtz", "_rtp", "_rtn" };
static const int widths[6] = { 1, 2, 3, 4, 8, 16 };

static void
append(char **s, size_t *len, size_t *cap, const char *fmt, ...)
{
   va_list ap;
   for (;;) {
      va_start(ap, fmt);
      int n = vsnprintf(*s + *len, *cap - *len, fmt, ap);
      va_end(ap);
      if ((size_t)n < *cap - *len) {
         *len += n;
         return;
      }
      *cap = *cap * 2 + n;
      *s = realloc(*s, *cap);
   }
}

/* Builds `src` with `options`, runs kernel "k" over `global`/`local` (local NULL: let the
 * runtime choose) with buffer arguments args[0..nargs-1] (in/out, copied back). */
static int
run(const char *src, const char *options, cl_uint dim, const size_t *global, const size_t *local,
    void **args, const size_t *sizes, int nargs)
{
   cl_int err;
   cl_program p = clCreateProgramWithSource(context, 1, &src, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   err = clBuildProgram(p, 1, &device, options, NULL, NULL);
   if (err != CL_SUCCESS) {
      size_t n = 0;
      clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
      char *log = malloc(n + 1);
      clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, n, log, NULL);
      log[n] = 0;
      fprintf(stderr, "clBuildProgram: %d\n%s\n", err, log);
      free(log);
      test_failed++;
      clReleaseProgram(p);
      return -1;
   }
   cl_kernel k = clCreateKernel(p, "k", &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_mem bufs[4];
   for (int i = 0; i < nargs; i++) {
      bufs[i] = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizes[i],
                               args[i], &err);
      CHECK_EQ_INT(err, CL_SUCCESS);
      CHECK_EQ_INT(clSetKernelArg(k, i, sizeof(cl_mem), &bufs[i]), CL_SUCCESS);
   }
   err = clEnqueueNDRangeKernel(queue, k, dim, NULL, global, local, 0, NULL, NULL);
   CHECK_EQ_INT(err, CL_SUCCESS);
   for (int i = 0; i < nargs; i++) {
      CHECK_EQ_INT(clEnqueueReadBuffer(queue, bufs[i], CL_TRUE, 0, sizes[i], args[i], 0, NULL,
                                       NULL),
                   CL_SUCCESS);
      clReleaseMemObject(bufs[i]);
   }
   clReleaseKernel(k);
   clReleaseProgram(p);
   return err == CL_SUCCESS ? 0 : -1;
}

/* The value of integer type t holding the low bits of v, as the kernels store it: sign- or
 * zero-extended to 64 bits. */
static uint64_t
wrap(int t, uint64_t v)
{
   int b = type_bits[t];
   if (b == 64)
      return v;
   v &= (UINT64_C(1) << b) - 1;
   if (IS_SIGNED(t) && (v >> (b - 1)))
      v |= ~((UINT64_C(1) << b) - 1);
   return v;
}

/* ---- abs_diff ---- */

static void
test_abs_diff(void)
{
   int64_t a[NIN], b[NIN];
   static const int64_t edges[][2] = {
      { INT32_MIN, INT32_MAX },   { INT32_MAX, INT32_MIN },  { -2000000000, 1500000000 },
      { 1500000000, -2000000000 }, { INT64_MIN, INT64_MAX }, { INT64_MAX, INT64_MIN },
      { INT64_MIN, 1 },           { -1, INT64_MAX },         { -128, 127 },
      { 127, -128 },              { -32768, 32767 },         { 32767, -32768 },
      { 0, 0 },                   { -1, 1 },                 { 5, -7 },
      { INT64_MIN, INT64_MIN },   { 0xff, 0 },               { 0xffff, 1 },
      { 0xffffffff, 0 },          { -1, 0 },
   };
   size_t ne = sizeof(edges) / sizeof(edges[0]);
   uint64_t seed = 0x9e3779b97f4a7c15ULL;
   for (int i = 0; i < NIN; i++) {
      if ((size_t)i < ne) {
         a[i] = edges[i][0];
         b[i] = edges[i][1];
      } else {
         seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
         a[i] = (int64_t)seed >> (seed & 31);
         seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
         b[i] = (int64_t)seed >> (seed & 31);
      }
   }

   /* One slot per (type, width): NIN results. */
   size_t cap = 4096, len = 0;
   char *src = malloc(cap);
   append(&src, &len, &cap,
          "kernel void k(global const long *a, global const long *b, global ulong *o)\n"
          "{\n   int k = get_global_id(0);\n");
   int slot = 0;
   for (int t = 0; t < 8; t++)
      for (int w = 0; w < 6; w++, slot++) {
         int n = widths[w];
         const char *tn = type_names[t];
         if (n == 1) {
            append(&src, &len, &cap, "   o[%d + k] = (ulong)abs_diff((%s)a[k], (%s)b[k]);\n",
                   slot * NIN, tn, tn);
         } else {
            append(&src, &len, &cap,
                   "   if (k < %d) {\n"
                   "      u%s%d v = abs_diff(convert_%s%d(vload%d(k, a)), "
                   "convert_%s%d(vload%d(k, b)));\n"
                   "      for (int l = 0; l < %d; l++) o[%d + k * %d + l] = (ulong)v[l];\n"
                   "   }\n",
                   NIN / n, tn[0] == 'u' ? tn + 1 : tn, n, tn, n, n, tn, n, n, n, slot * NIN, n);
         }
      }
   append(&src, &len, &cap, "}\n");

   size_t nout = (size_t)slot * NIN;
   uint64_t *o = calloc(nout, sizeof(*o));
   void *args[] = { a, b, o };
   size_t sizes[] = { sizeof(a), sizeof(b), nout * sizeof(*o) };
   size_t global = NIN;
   if (run(src, NULL, 1, &global, NULL, args, sizes, 3) == 0) {
      unsigned bad = 0;
      slot = 0;
      for (int t = 0; t < 8; t++)
         for (int w = 0; w < 6; w++, slot++)
            for (int i = 0; i < NIN; i++) {
               uint64_t x = wrap(t, (uint64_t)a[i]), y = wrap(t, (uint64_t)b[i]);
               bool gt = IS_SIGNED(t) ? (int64_t)x > (int64_t)y : x > y;
               uint64_t want = gt ? x - y : y - x;
               if (type_bits[t] < 64)
                  want &= (UINT64_C(1) << type_bits[t]) - 1;
               uint64_t got = o[slot * NIN + i];
               if (got != want && bad++ < 8)
                  fprintf(stderr,
                          "abs_diff(%s%d) #%d: (%lld, %lld) = %llu, expected %llu\n",
                          type_names[t], widths[w], i, (long long)a[i], (long long)b[i],
                          (unsigned long long)got, (unsigned long long)want);
            }
      CHECK_EQ_INT(bad, 0);
   }
   free(o);
   free(src);
}

/* ---- convert_<integer>_sat<rounding>(float/double) ---- */

enum { SRC_FLOAT, SRC_DOUBLE, SRC_HALF };
static const char *const src_names[3] = { "float", "double", "half" };

/* The double nearest to x rounded to half (nearest even), as convert_half(double) gives. */
static double
to_half_value(double x)
{
   return (double)(_Float16)x;
}

static uint64_t
sat_expect(double x, int t, int r)
{
   if (isnan(x))
      return 0;
   double v = r == 1 ? nearbyint(x) : r == 3 ? ceil(x) : r == 4 ? floor(x) : trunc(x);
   int b = type_bits[t];
   if (IS_SIGNED(t)) {
      double lim = ldexp(1.0, b - 1);
      if (v <= -lim)
         return wrap(t, UINT64_C(1) << (b - 1));
      if (v >= lim)
         return (UINT64_C(1) << (b - 1)) - 1;
      return (uint64_t)(int64_t)v;
   }
   if (v <= 0)
      return 0;
   if (v >= ldexp(1.0, b))
      return b == 64 ? UINT64_MAX : (UINT64_C(1) << b) - 1;
   return (uint64_t)v;
}

struct sat_slot {
   int t, r, src, n;
};

static void
test_convert_sat(bool fp16)
{
   static const double edges[] = {
      NAN, -NAN, INFINITY, -INFINITY, 0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, -0.75,
      127.5, 128.0, -128.5, -129.0, 255.5, 256.0, 32767.5, -32768.5, 65535.5, 65536.0,
      2147483520.0, 2147483647.5, 2147483648.0, -2147483648.0, -2147483648.5, -2147483904.0,
      4294967040.0, 4294967295.5, 4294967296.0, 9223372036854774784.0, 9223372036854775808.0,
      -9223372036854775808.0, -9223372036854777856.0, 18446744073709549568.0,
      18446744073709551616.0, 1e30, -1e30, 1e300, -1e300, 3.25, -3.75, 1000.5, -1000.5, 0x1p-30,
      -0x1p-30,
   };
   _Static_assert(sizeof(edges) / sizeof(edges[0]) == NIN, "NIN inputs");

   struct sat_slot slots[512];
   int ns = 0;
   for (int src = SRC_FLOAT; src <= (fp16 ? SRC_HALF : SRC_DOUBLE); src++) {
      for (int t = 0; t < 8; t++)
         for (int r = 0; r < 5; r++)
            slots[ns++] = (struct sat_slot){ t, r, src, 1 };
      /* Every vector width of every type; rounding modes rotate. */
      for (int t = 0; t < 8; t++)
         for (int w = 1; w < 6; w++)
            slots[ns++] = (struct sat_slot){ t, (t + w + src) % 5, src, widths[w] };
   }

   size_t cap = 16384, len = 0;
   char *s = malloc(cap);
   append(&s, &len, &cap,
          "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
          "%s"
          "kernel void k(global const double *in, global ulong *o)\n"
          "{\n   int k = get_global_id(0);\n",
          fp16 ? "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n" : "");
   for (int i = 0; i < ns; i++) {
      const struct sat_slot *sl = &slots[i];
      const char *tn = type_names[sl->t], *rn = rnd_names[sl->r];
      if (sl->n == 1) {
         append(&s, &len, &cap, "   o[%d + k] = (ulong)(long)convert_%s_sat%s(%s);\n", i * NIN,
                tn, rn,
                sl->src == SRC_FLOAT  ? "(float)in[k]"
                : sl->src == SRC_HALF ? "convert_half(in[k])"
                                      : "in[k]");
      } else {
         char load[64];
         if (sl->src == SRC_FLOAT)
            snprintf(load, sizeof(load), "convert_float%d(vload%d(k, in))", sl->n, sl->n);
         else if (sl->src == SRC_HALF)
            snprintf(load, sizeof(load), "convert_half%d(vload%d(k, in))", sl->n, sl->n);
         else
            snprintf(load, sizeof(load), "vload%d(k, in)", sl->n);
         append(&s, &len, &cap,
                "   if (k < %d) {\n"
                "      %s%d v = convert_%s%d_sat%s(%s);\n"
                "      for (int l = 0; l < %d; l++) o[%d + k * %d + l] = (ulong)(long)v[l];\n"
                "   }\n",
                NIN / sl->n, tn, sl->n, tn, sl->n, rn, load, sl->n, i * NIN, sl->n);
      }
   }
   append(&s, &len, &cap, "}\n");

   double in[NIN];
   memcpy(in, edges, sizeof(in));
   size_t nout = (size_t)ns * NIN;
   uint64_t *o = calloc(nout, sizeof(*o));
   void *args[] = { in, o };
   size_t sizes[] = { sizeof(in), nout * sizeof(*o) };
   size_t global = NIN;
   if (run(s, NULL, 1, &global, NULL, args, sizes, 2) == 0) {
      unsigned bad = 0;
      for (int i = 0; i < ns; i++) {
         const struct sat_slot *sl = &slots[i];
         for (int j = 0; j < NIN; j++) {
            double x = sl->src == SRC_FLOAT  ? (double)(float)edges[j]
                       : sl->src == SRC_HALF ? to_half_value(edges[j])
                                             : edges[j];
            uint64_t want = sat_expect(x, sl->t, sl->r);
            uint64_t got = o[i * NIN + j];
            if (got != want && bad++ < 8)
               fprintf(stderr, "convert_%s%d_sat%s(%s %a) = 0x%llx, expected 0x%llx\n",
                       type_names[sl->t], sl->n, rnd_names[sl->r],
                       src_names[sl->src], x, (unsigned long long)got, (unsigned long long)want);
         }
      }
      CHECK_EQ_INT(bad, 0);
   }
   free(o);
   free(s);
}

/* ---- vstorea_half3<rounding> and vloada_half3 ---- */

/* x rounded to half with rounding rnd_names[r] ("" and "_rte": to nearest even), as bits. */
static uint16_t
to_half(double x, int r)
{
   uint16_t sign = signbit(x) ? 0x8000 : 0;
   if (isnan(x))
      return 0x7e00;
   double a = fabs(x);
   if (isinf(a))
      return sign | 0x7c00;
   bool away = (r == 3 && !sign) || (r == 4 && sign); /* magnitude rounds up */
   bool toward0 = r == 2 || (r == 3 && sign) || (r == 4 && !sign);
   int e;
   frexp(a, &e);
   int q = e - 11; /* the exponent of one unit in the last place: 10 fraction bits */
   if (q < -24)
      q = -24; /* subnormal */
   double sc = ldexp(a, -q), fl = floor(sc), frac = sc - fl;
   uint32_t m = (uint32_t)fl;
   if (frac > 0 && (r <= 1 ? frac > 0.5 || (frac == 0.5 && (m & 1)) : away))
      m++;
   if (m >= 2048) {
      m >>= 1;
      q++;
   }
   if (q + 10 > 15)
      return sign | (toward0 ? 0x7bff : 0x7c00);
   if (m < 1024)
      return sign | m;
   return sign | (uint16_t)((q + 25) << 10) | (uint16_t)(m - 1024);
}

static bool
half_same(uint16_t got, uint16_t want)
{
   if ((want & 0x7c00) == 0x7c00 && (want & 0x3ff))
      return (got & 0x7c00) == 0x7c00 && (got & 0x3ff);
   return got == want;
}

#define NV 8 /* input vectors, one per work-item */
#define SENTINEL 0xdead

static const char *const as_names[4] = { "global", "local", "private", "generic" };

/* The areas are written as half and read back as uchar, which may alias them (a ushort read
 * could be moved before the half store by type-based alias analysis). */

/* OpenCL C 3.0 §6.15.9: vstorea_half3 writes 3 halves at p + offset * 4. Each (address space,
 * source type, rounding) stores one vector at offset 1 of an 8-half area holding a sentinel:
 * halves 0-3 and 7 must survive (opencl.bc stores 4 halves, clobbering half 7); the private
 * area is a 7-half array, like piglit's vstorea_half-*-private, where opencl.bc's
 * out-of-bounds store was deleted and nothing was stored. Inputs separate the rounding modes
 * (ties, above and below ties, both signs, overflow, subnormals, NaN, infinities) and double
 * from float (1 + 2^-11 + 2^-40 is a tie once rounded to float). */
static void
test_vstorea_half3(void)
{
   static const double in[NV * 3] = {
      1 + 0x1p-12,       -(1 + 0x1p-12),  1 + 0x1p-11 + 0x1p-13,
      1 + 0x1p-11,       1 + 0x3p-11,     -(1 + 0x1p-11 + 0x1p-40),
      65519.99,          65520.0,         -70000.0,
      0x1p-25,           0x3p-26,         0x3p-25,
      1e-10,             -1e-10,          INFINITY,
      -INFINITY,         NAN,             -0.0,
      3.14159265358979,  100.3,           6.1e-5,
      -1e5,              0x1.ffcp15,      -0x1.0p-14,
   };
   const int nc = 4 * 2 * 5;
   size_t cap = 16384, len = 0;
   char *s = malloc(cap);
   append(&s, &len, &cap,
          "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
          "kernel void k(global const double *in, global ushort *o)\n"
          "{\n   int i = get_global_id(0);\n"
          "   double3 d = vload3(i, in);\n"
          "   float3 f = convert_float3(d);\n"
          "   local ushort lb[8 * %d];\n"
          "   volatile private ushort pv[7];\n",
          NV);
   for (int c = 0; c < nc; c++) {
      int as = c / 10, src = c / 5 % 2, r = c % 5;
      const char *v = src ? "d" : "f", *rn = rnd_names[r];
      append(&s, &len, &cap, "   {\n      global ushort *q = o + (%d * %d + i) * 8;\n", c, NV);
      switch (as) {
      case 0:
         append(&s, &len, &cap, "      vstorea_half3%s(%s, 1, (global half *)q);\n", rn, v);
         break;
      case 1:
         append(&s, &len, &cap,
                "      for (int j = 0; j < 8; j++) lb[i * 8 + j] = %d;\n"
                "      vstorea_half3%s(%s, 1, (local half *)(lb + i * 8));\n"
                "      for (int j = 0; j < 16; j++)\n"
                "         ((global uchar *)q)[j] = ((local uchar *)(lb + i * 8))[j];\n",
                SENTINEL, rn, v);
         break;
      case 2:
         append(&s, &len, &cap,
                "      for (int j = 0; j < 7; j++) pv[j] = %d;\n"
                "      vstorea_half3%s(%s, 1, (private half *)pv);\n"
                "      for (int j = 0; j < 14; j++)\n"
                "         ((global uchar *)q)[j] = ((volatile private uchar *)pv)[j];\n",
                SENTINEL, rn, v);
         break;
      default:
         append(&s, &len, &cap, "      half *g = (half *)q;\n      vstorea_half3%s(%s, 1, g);\n",
                rn, v);
         break;
      }
      append(&s, &len, &cap, "   }\n");
   }
   append(&s, &len, &cap, "}\n");

   size_t nout = (size_t)nc * NV * 8;
   uint16_t *o = malloc(nout * sizeof(*o));
   for (size_t j = 0; j < nout; j++)
      o[j] = SENTINEL;
   double inb[NV * 3];
   memcpy(inb, in, sizeof(inb));
   void *args[] = { inb, o };
   size_t sizes[] = { sizeof(inb), nout * sizeof(*o) };
   size_t global = NV, local = NV;
   if (run(s, "-cl-std=CL3.0", 1, &global, &local, args, sizes, 2) == 0) {
      unsigned bad = 0;
      for (int c = 0; c < nc; c++) {
         int as = c / 10, src = c / 5 % 2, r = c % 5;
         for (int i = 0; i < NV; i++) {
            const uint16_t *q = o + ((size_t)c * NV + i) * 8;
            for (int j = 0; j < 8; j++) {
               uint16_t want = SENTINEL;
               if (j >= 4 && j < 7) {
                  double x = in[i * 3 + j - 4];
                  want = to_half(src ? x : (double)(float)x, r);
               }
               if (!half_same(q[j], want) && bad++ < 8)
                  fprintf(stderr,
                          "vstorea_half3%s(%s3, %s): vector %d half %d = 0x%04x, expected "
                          "0x%04x\n",
                          rnd_names[r], src ? "double" : "float", as_names[as], i, j, q[j],
                          want);
            }
         }
      }
      CHECK_EQ_INT(bad, 0);
   }
   free(o);
   free(s);
}

/* vloada_half3 reads 3 halves at p + offset * 4 (opencl.bc loads 4: out of bounds of a
 * 7-half private array), from every address space. */
static void
test_vloada_half3(void)
{
   static const char src[] =
      "constant ushort cb[7] = { 0, 0, 0, 0, 0x3c00, 0xc500, 0x7bff };\n"
      "kernel void k(global const ushort *in, global float *o)\n"
      "{\n"
      "   local ushort lb[7];\n"
      "   volatile private ushort pv[7];\n"
      "   for (int j = 0; j < 7; j++) { lb[j] = in[j]; pv[j] = in[j]; }\n"
      "   vstore3(vloada_half3(1, (global const half *)in), 0, o);\n"
      "   vstore3(vloada_half3(1, (local const half *)lb), 1, o);\n"
      "   vstore3(vloada_half3(1, (private const half *)pv), 2, o);\n"
      "   vstore3(vloada_half3(1, (constant half *)cb), 3, o);\n"
      "   const half *g = (const half *)in;\n"
      "   vstore3(vloada_half3(1, g), 4, o);\n"
      "}\n";
   uint16_t in[8] = { 0, 0, 0, 0, 0x3c00, 0xc500, 0x7bff, 0x7e00 };
   float o[15];
   memset(o, 0, sizeof(o));
   void *args[] = { in, o };
   size_t sizes[] = { sizeof(in), sizeof(o) };
   size_t global = 1;
   if (run(src, "-cl-std=CL3.0", 1, &global, &global, args, sizes, 2) == 0) {
      static const float want[3] = { 1.0f, -5.0f, 65504.0f };
      static const char *const names[5] = { "global", "local", "private", "constant", "generic" };
      for (int a = 0; a < 5; a++)
         for (int j = 0; j < 3; j++)
            if (o[a * 3 + j] != want[j]) {
               fprintf(stderr, "vloada_half3(%s): element %d = %a, expected %a\n", names[a], j,
                       o[a * 3 + j], want[j]);
               test_failed++;
            } else {
               test_passed++;
            }
   }
}

/* ---- get_local_linear_id and async_work_group_copy in partial work-groups ---- */

static void
test_linear_id(void)
{
   const size_t global[3] = { 7, 5, 3 }, local[3] = { 4, 2, 2 };
   const size_t total = global[0] * global[1] * global[2];
   static const char src[] =
      "kernel void k(global int *o, global const int *in, global int *copied)\n"
      "{\n"
      "   size_t g = (get_global_id(2) * get_global_size(1) + get_global_id(1)) *\n"
      "              get_global_size(0) + get_global_id(0);\n"
      "   o[g] = (int)get_local_linear_id();\n"
      "   /* Each group copies 64 ints to local memory and back, one block per group. */\n"
      "   local int tmp[64];\n"
      "   size_t grp = (get_group_id(2) * get_num_groups(1) + get_group_id(1)) *\n"
      "                get_num_groups(0) + get_group_id(0);\n"
      "   event_t e = async_work_group_copy(tmp, in, 64, 0);\n"
      "   wait_group_events(1, &e);\n"
      "   e = async_work_group_copy(copied + 64 * grp, tmp, 64, 0);\n"
      "   wait_group_events(1, &e);\n"
      "}\n";
   size_t groups = 1;
   for (int d = 0; d < 3; d++)
      groups *= (global[d] + local[d] - 1) / local[d];
   int *o = calloc(total, sizeof(int));
   int in[64];
   for (int i = 0; i < 64; i++)
      in[i] = 1000 + i;
   int *copied = calloc(64 * groups, sizeof(int));
   void *args[] = { o, in, copied };
   size_t sizes[] = { total * sizeof(int), sizeof(in), 64 * groups * sizeof(int) };
   if (run(src, "-cl-std=CL3.0", 3, global, local, args, sizes, 3) == 0) {
      unsigned bad = 0;
      for (size_t z = 0; z < global[2]; z++)
         for (size_t y = 0; y < global[1]; y++)
            for (size_t x = 0; x < global[0]; x++) {
               size_t id[3] = { x, y, z }, ls[3], lid[3];
               for (int d = 0; d < 3; d++) {
                  size_t full = global[d] / local[d];
                  ls[d] = id[d] / local[d] < full ? local[d] : global[d] % local[d];
                  lid[d] = id[d] % local[d];
               }
               int want = (int)((lid[2] * ls[1] + lid[1]) * ls[0] + lid[0]);
               int got = o[(z * global[1] + y) * global[0] + x];
               if (got != want && bad++ < 8)
                  fprintf(stderr, "get_local_linear_id at (%zu,%zu,%zu) = %d, expected %d\n",
                          x, y, z, got, want);
            }
      CHECK_EQ_INT(bad, 0);
      bad = 0;
      for (size_t i = 0; i < 64 * groups; i++)
         if (copied[i] != in[i % 64] && bad++ < 8)
            fprintf(stderr, "async_work_group_copy: group %zu element %zu = %d, expected %d\n",
                    i / 64, i % 64, copied[i], in[i % 64]);
      CHECK_EQ_INT(bad, 0);
   }
   free(o);
   free(copied);
}

int
main(void)
{
   cl_platform_id platform;
   cl_uint n = 0;
   if (clGetPlatformIDs(1, &platform, &n) != CL_SUCCESS || n == 0 ||
       clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &device, NULL) != CL_SUCCESS) {
      fprintf(stderr, "no hsacl platform or GPU device\n");
      return 1;
   }
   cl_int err;
   context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   queue = clCreateCommandQueueWithProperties(context, device, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);

   test_abs_diff();
   char ext[4096] = "";
   clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, sizeof(ext), ext, NULL);
   if (strstr(ext, "cl_khr_fp64"))
      test_convert_sat(strstr(ext, "cl_khr_fp16") != NULL);
   else
      printf("convert_*_sat: device has no cl_khr_fp64, skipped\n");
   test_linear_id();
   if (strstr(ext, "cl_khr_fp64"))
      test_vstorea_half3();
   else
      printf("vstorea_half3: device has no cl_khr_fp64, skipped\n");
   test_vloada_half3();

   clReleaseCommandQueue(queue);
   clReleaseContext(context);
   return test_main_end();
}
