/*
 * tests/compiler/api_half_test.c — cl_khr_fp16 end to end (OpenCL C 3.0 §6.3.2 and the cl_khr_fp16
 * extension): the device queries that go with the extension, the macros a build sees, and
 * half arithmetic computed by kernels on the device compared with the host's _Float16.
 *
 * Every pair of a set of half operands (zeros, ±1, ULP neighbours, the smallest and largest
 * normals, subnormals, infinities, NaN, inexact decimals) goes through +, -, *, /, fma,
 * fmin/fmax, sqrt, the roundings, fabs, copysign, ldexp, frexp, comparisons and
 * classification, conversions to and from float and integers (with rounding modes and
 * saturation), and half2 arithmetic (packed instructions). Results that OpenCL requires
 * correctly rounded (+, -, *, fma, conversions, roundings) must equal the host's bit for bit;
 * division and sqrt are checked to 1 ULP (OpenCL C 3.0 §7.4, half precision), exact where
 * the quotient or root is representable. Each kernel is built three ways: -O3 in OpenCL C
 * 1.2, -cl-opt-disable, and OpenCL C 3.0 (__opencl_c_fp16); argument "2.0" (the 2.0
 * profile): OpenCL C 2.0 instead of 3.0.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext.h> /* CL_DEVICE_HALF_FP_CONFIG */

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "hsacl_test.h"
#include "hsacl_cl_test.h"

static cl_device_id device;
static cl_context ctx;
static cl_command_queue queue;

typedef uint16_t hbits;

static double
h2d(hbits h)
{
   _Float16 x;
   memcpy(&x, &h, 2);
   return (double)x;
}

/* The f16 nearest to x (ties to even; one rounding: long double -> _Float16 directly). */
static hbits
d2h(long double x)
{
   _Float16 y = (_Float16)x;
   hbits h;
   memcpy(&h, &y, 2);
   return h;
}

static bool
h_isnan(hbits h)
{
   return (h & 0x7FFF) > 0x7C00;
}

/* Distance in ULPs between two f16 bit patterns of the same sign class. */
static int
ulps(hbits a, hbits b)
{
   int ia = a & 0x8000 ? -(int)(a & 0x7FFF) : (int)a;
   int ib = b & 0x8000 ? -(int)(b & 0x7FFF) : (int)b;
   return abs(ia - ib);
}

/* The operands: every (i, j) pair of these is one work-item (x = v[i], y = v[j]; z cycles). */
static const hbits vals[] = {
   0x0000, 0x8000, 0x3C00, 0xBC00, 0x3800, 0x3C01, 0x3BFF, 0x4200, 0x3555, 0x7BFF,
   0xFBFF, 0x0400, 0x0001, 0x03FF, 0x8001, 0x7C00, 0xFC00, 0x7E00, 0x5643, 0xC760,
   0x2E66, 0x63D0, 0x1419, 0x4100, 0xC100, 0x4300, 0x3E00, 0x4E00,
};
#define NV (sizeof(vals) / sizeof(vals[0]))
#define NP (NV * NV)

/* Result slots of the half output buffer and of the int one (the kernel sees them as
 * macros of the same names). */
#define H_SLOTS(X)                                                                                 \
   X(H_ADD, "x + y")                                                                               \
   X(H_SUB, "x - y")                                                                               \
   X(H_MUL, "x * y")                                                                               \
   X(H_DIV, "x / y")                                                                               \
   X(H_FMA, "fma(x, y, z)")                                                                        \
   X(H_FMIN, "fmin")                                                                               \
   X(H_FMAX, "fmax")                                                                               \
   X(H_SQRT, "sqrt")                                                                               \
   X(H_FLOOR, "floor")                                                                             \
   X(H_CEIL, "ceil")                                                                               \
   X(H_TRUNC, "trunc")                                                                             \
   X(H_RINT, "rint")                                                                               \
   X(H_ROUND, "round")                                                                             \
   X(H_FABS, "fabs")                                                                               \
   X(H_NEG, "-x")                                                                                  \
   X(H_COPYSIGN, "copysign")                                                                       \
   X(H_LDEXP, "ldexp(x, e)")                                                                       \
   X(H_FREXP, "frexp")                                                                             \
   X(H_CVT_RTE, "convert_half_rte(float)")                                                         \
   X(H_CVT_RTZ, "convert_half_rtz(float)")                                                         \
   X(H_CVT_RTP, "convert_half_rtp(float)")                                                         \
   X(H_CVT_RTN, "convert_half_rtn(float)")                                                         \
   X(H_FROM_INT, "convert_half(int)")                                                              \
   X(H_V_ADD0, "half2 + .s0")                                                                      \
   X(H_V_ADD1, "half2 + .s1")                                                                      \
   X(H_V_MUL0, "half2 * .s0")                                                                      \
   X(H_V_MUL1, "half2 * .s1")                                                                      \
   X(H_V_FMA0, "half2 fma .s0")                                                                    \
   X(H_V_FMA1, "half2 fma .s1")                                                                    \
   X(H_V_MIN0, "half2 fmin .s0")                                                                   \
   X(H_V_MAX1, "half2 fmax .s1")                                                                   \
   X(H_SELECT, "x < y ? z : x")

#define I_SLOTS(X)                                                                                 \
   X(I_LT, "x < y")                                                                                \
   X(I_EQ, "x == y")                                                                               \
   X(I_LE, "isless | islessequal << 1")                                                            \
   X(I_GT, "x > y")                                                                                \
   X(I_NE, "isnotequal")                                                                           \
   X(I_ISNAN, "isnan")                                                                             \
   X(I_ISINF, "isinf")                                                                             \
   X(I_ISFINITE, "isfinite")                                                                       \
   X(I_SIGNBIT, "signbit")                                                                         \
   X(I_FREXP_EXP, "frexp exponent")                                                                \
   X(I_TO_INT, "convert_int")                                                                      \
   X(I_SHORT_SAT, "convert_short_sat")                                                             \
   X(I_INT_SAT_RTE, "convert_int_sat_rte")                                                         \
   X(I_V_LT0, "half2 < .s0")                                                                       \
   X(I_V_LT1, "half2 < .s1")

#define ENUM(id, text) id,
enum { H_SLOTS(ENUM) H_COUNT };
enum { I_SLOTS(ENUM) I_COUNT };
#undef ENUM
#define TEXT(id, text) text,
static const char *const h_names[H_COUNT] = { H_SLOTS(TEXT) };
static const char *const i_names[I_COUNT] = { I_SLOTS(TEXT) };
#undef TEXT
static const char kernel_src[] =
   "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
   "#ifndef cl_khr_fp16\n#error cl_khr_fp16 not defined\n#endif\n"
   "#if __OPENCL_C_VERSION__ >= 300 && !defined(__opencl_c_fp16)\n"
   "#error __opencl_c_fp16 not defined\n#endif\n"
   "kernel void k(global const half *a, global const half *b, global const half *c,\n"
   "              global const float *f, global const int *e, global half *o,\n"
   "              global int *oi, global float *of)\n"
   "{\n"
   "   size_t i = get_global_id(0), n = get_global_size(0);\n"
   "   half x = a[i], y = b[i], z = c[i];\n"
   "   o[H_ADD * n + i] = x + y;\n"
   "   o[H_SUB * n + i] = x - y;\n"
   "   o[H_MUL * n + i] = x * y;\n"
   "   o[H_DIV * n + i] = x / y;\n"
   "   o[H_FMA * n + i] = fma(x, y, z);\n"
   "   o[H_FMIN * n + i] = fmin(x, y);\n"
   "   o[H_FMAX * n + i] = fmax(x, y);\n"
   "   o[H_SQRT * n + i] = sqrt(x);\n"
   "   o[H_FLOOR * n + i] = floor(x);\n"
   "   o[H_CEIL * n + i] = ceil(x);\n"
   "   o[H_TRUNC * n + i] = trunc(x);\n"
   "   o[H_RINT * n + i] = rint(x);\n"
   "   o[H_ROUND * n + i] = round(x);\n"
   "   o[H_FABS * n + i] = fabs(x);\n"
   "   o[H_NEG * n + i] = -x;\n"
   "   o[H_COPYSIGN * n + i] = copysign(x, y);\n"
   "   o[H_LDEXP * n + i] = ldexp(x, e[i]);\n"
   "   int ex;\n"
   "   o[H_FREXP * n + i] = frexp(x, &ex);\n"
   "   oi[I_FREXP_EXP * n + i] = ex;\n"
   "   o[H_CVT_RTE * n + i] = convert_half_rte(f[i]);\n"
   "   o[H_CVT_RTZ * n + i] = convert_half_rtz(f[i]);\n"
   "   o[H_CVT_RTP * n + i] = convert_half_rtp(f[i]);\n"
   "   o[H_CVT_RTN * n + i] = convert_half_rtn(f[i]);\n"
   "   o[H_FROM_INT * n + i] = convert_half(e[i] * 1000 + 1);\n"
   "   half2 u = (half2)(x, y), v = (half2)(y, z);\n"
   "   half2 s = u + v, p = u * v, m = fma(u, v, (half2)(z, x));\n"
   "   o[H_V_ADD0 * n + i] = s.s0;\n"
   "   o[H_V_ADD1 * n + i] = s.s1;\n"
   "   o[H_V_MUL0 * n + i] = p.s0;\n"
   "   o[H_V_MUL1 * n + i] = p.s1;\n"
   "   o[H_V_FMA0 * n + i] = m.s0;\n"
   "   o[H_V_FMA1 * n + i] = m.s1;\n"
   "   o[H_V_MIN0 * n + i] = fmin(u, v).s0;\n"
   "   o[H_V_MAX1 * n + i] = fmax(u, v).s1;\n"
   "   o[H_SELECT * n + i] = x < y ? z : x;\n"
   "   oi[I_LT * n + i] = x < y;\n"
   "   oi[I_EQ * n + i] = x == y;\n"
   "   oi[I_LE * n + i] = isless(x, y) | islessequal(x, y) << 1;\n"
   "   oi[I_GT * n + i] = x > y;\n"
   "   oi[I_NE * n + i] = isnotequal(x, y);\n"
   "   oi[I_ISNAN * n + i] = isnan(x);\n"
   "   oi[I_ISINF * n + i] = isinf(x);\n"
   "   oi[I_ISFINITE * n + i] = isfinite(x);\n"
   "   oi[I_SIGNBIT * n + i] = signbit(x);\n"
   "   oi[I_TO_INT * n + i] = isfinite(x) ? convert_int(x) : 0;\n"
   "   oi[I_SHORT_SAT * n + i] = convert_short_sat(x);\n"
   "   oi[I_INT_SAT_RTE * n + i] = convert_int_sat_rte(x);\n"
   "   short2 lt = u < v;\n"
   "   oi[I_V_LT0 * n + i] = lt.s0;\n"
   "   oi[I_V_LT1 * n + i] = lt.s1;\n"
   "   of[i] = (float)x + (float)y;\n"
   "}\n";

/* Host model of the float -> half conversions with a rounding mode (0 rte, 1 rtz, 2 rtp,
 * 3 rtn): the nearest-even result, moved one ULP the mode's way when it lies on the wrong
 * side of x (+-inf steps to +-65504, and 65504 to inf, as IEEE directed roundings do). */
static hbits
cvt_mode(float x, int mode)
{
   hbits h = d2h(x);
   if (isnan(x) || mode == 0)
      return h;
   double r = h2d(h);
   bool neg = h & 0x8000;
   bool toward_zero = (mode == 1 && fabs(r) > fabs(x)) || (mode == 2 && r < x && neg) ||
                      (mode == 3 && r > x && !neg);
   bool away = (mode == 2 && r < x && !neg) || (mode == 3 && r > x && neg);
   if (toward_zero)
      h -= 1; /* magnitude one ULP smaller, sign kept */
   else if (away)
      h += 1;
   return h;
}

static double
host_round(double x)
{
   return round(x); /* half-way cases away from zero, like OpenCL round */
}

static int64_t
sat(double x, double lo, double hi)
{
   if (isnan(x))
      return 0;
   return x < lo ? (int64_t)lo : x > hi ? (int64_t)hi : (int64_t)x;
}

static void
expected(size_t i, const hbits *a, const hbits *b, const hbits *c, const float *f, const int *e,
         hbits *h, int *iv)
{
   double x = h2d(a[i]), y = h2d(b[i]), z = h2d(c[i]);
   h[H_ADD] = d2h(x + y);
   h[H_SUB] = d2h(x - y);
   h[H_MUL] = d2h(x * y);
   h[H_DIV] = d2h(x / y);
   h[H_FMA] = d2h((long double)x * y + z); /* exact in long double for these operands */
   h[H_FMIN] = isnan(x) ? b[i] : isnan(y) ? a[i] : x < y ? a[i] : y < x ? b[i] : a[i];
   h[H_FMAX] = isnan(x) ? b[i] : isnan(y) ? a[i] : x > y ? a[i] : y > x ? b[i] : a[i];
   h[H_SQRT] = d2h(sqrt(x));
   h[H_FLOOR] = d2h(floor(x));
   h[H_CEIL] = d2h(ceil(x));
   h[H_TRUNC] = d2h(trunc(x));
   h[H_RINT] = d2h(nearbyint(x));
   h[H_ROUND] = d2h(host_round(x));
   h[H_FABS] = a[i] & 0x7FFF;
   h[H_NEG] = a[i] ^ 0x8000;
   h[H_COPYSIGN] = (a[i] & 0x7FFF) | (b[i] & 0x8000);
   h[H_LDEXP] = d2h(ldexp(x, e[i]));
   int ex = 0;
   h[H_FREXP] = isfinite(x) ? d2h(frexp(x, &ex)) : a[i];
   iv[I_FREXP_EXP] = ex;
   for (int m = 0; m < 4; m++)
      h[H_CVT_RTE + m] = cvt_mode(f[i], m);
   h[H_FROM_INT] = d2h((double)(e[i] * 1000 + 1));
   h[H_V_ADD0] = d2h(x + y);
   h[H_V_ADD1] = d2h(y + z);
   h[H_V_MUL0] = d2h(x * y);
   h[H_V_MUL1] = d2h(y * z);
   h[H_V_FMA0] = d2h((long double)x * y + z);
   h[H_V_FMA1] = d2h((long double)y * z + x);
   h[H_V_MIN0] = h[H_FMIN];
   h[H_V_MAX1] = isnan(y) ? c[i] : isnan(z) ? b[i] : y > z ? b[i] : z > y ? c[i] : b[i];
   h[H_SELECT] = x < y ? c[i] : a[i];
   iv[I_LT] = x < y;
   iv[I_EQ] = x == y;
   iv[I_LE] = (x < y) | (x <= y) << 1;
   iv[I_GT] = x > y;
   iv[I_NE] = x != y;
   iv[I_ISNAN] = isnan(x) != 0;
   iv[I_ISINF] = isinf(x) != 0; /* glibc: -1 for -inf */
   iv[I_ISFINITE] = isfinite(x) != 0;
   iv[I_SIGNBIT] = signbit(x) != 0;
   iv[I_TO_INT] = isfinite(x) ? (int)trunc(x) : 0;
   iv[I_SHORT_SAT] = (int)sat(trunc(x), -32768, 32767);
   iv[I_INT_SAT_RTE] = (int)sat(nearbyint(x), INT32_MIN, INT32_MAX);
   iv[I_V_LT0] = x < y ? -1 : 0;
   iv[I_V_LT1] = y < z ? -1 : 0;
}

static int
build_and_run(const char *options, const hbits *a, const hbits *b, const hbits *c, const float *f,
              const int *e, hbits *o, int *oi, float *of)
{
   char src[sizeof(kernel_src) + 4096];
   size_t len = 0;
#define DEF(id, text) len += snprintf(src + len, sizeof(src) - len, "#define %s %d\n", #id, id);
   H_SLOTS(DEF)
   I_SLOTS(DEF)
#undef DEF
   snprintf(src + len, sizeof(src) - len, "%s", kernel_src);

   const char *sp = src;
   cl_int err;
   cl_program p = clCreateProgramWithSource(ctx, 1, &sp, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   err = clBuildProgram(p, 1, &device, options, NULL, NULL);
   if (err != CL_SUCCESS) {
      char log[16384] = "";
      clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, sizeof(log), log, NULL);
      fprintf(stderr, "clBuildProgram(%s): %d\n%s\n", options, err, log);
      test_failed++;
      clReleaseProgram(p);
      return -1;
   }
   cl_kernel k = clCreateKernel(p, "k", &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   struct {
      const void *host;
      size_t size;
      bool out;
   } args[] = {
      { a, NP * 2, false },
      { b, NP * 2, false },
      { c, NP * 2, false },
      { f, NP * 4, false },
      { e, NP * 4, false },
      { o, (size_t)H_COUNT * NP * 2, true },
      { oi, (size_t)I_COUNT * NP * 4, true },
      { of, NP * 4, true },
   };
   cl_mem m[8];
   for (int i = 0; i < 8; i++) {
      m[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | (args[i].out ? 0 : CL_MEM_COPY_HOST_PTR),
                            args[i].size, args[i].out ? NULL : (void *)args[i].host, &err);
      CHECK_EQ_INT(err, CL_SUCCESS);
      CHECK_EQ_INT(clSetKernelArg(k, i, sizeof(cl_mem), &m[i]), CL_SUCCESS);
   }
   size_t global = NP;
   CHECK_EQ_INT(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL, NULL),
                CL_SUCCESS);
   err = clFinish(queue);
   CHECK_EQ_INT(err, CL_SUCCESS);
   for (int i = 5; i < 8; i++)
      CHECK_EQ_INT(clEnqueueReadBuffer(queue, m[i], CL_TRUE, 0, args[i].size, (void *)args[i].host,
                                       0, NULL, NULL),
                   CL_SUCCESS);
   for (int i = 0; i < 8; i++)
      clReleaseMemObject(m[i]);
   clReleaseKernel(k);
   clReleaseProgram(p);
   return err == CL_SUCCESS ? 0 : -1;
}

static void
test_arithmetic(const char *options)
{
   hbits *a = malloc(NP * 2), *b = malloc(NP * 2), *c = malloc(NP * 2);
   float *f = malloc(NP * 4), *of = malloc(NP * 4);
   int *e = malloc(NP * 4), *oi = malloc((size_t)I_COUNT * NP * 4);
   hbits *o = malloc((size_t)H_COUNT * NP * 2);
   for (size_t i = 0; i < NP; i++) {
      a[i] = vals[i / NV];
      b[i] = vals[i % NV];
      c[i] = vals[(i * 7 + 3) % NV];
      /* floats between halves: ties, near-ties, overflow, subnormals, NaN */
      static const float fs[] = { 1.00048828125f,
                                  1.000732421875f,
                                  -1.000244140625f,
                                  65519.0f,
                                  65520.0f,
                                  -70000.0f,
                                  0x1p-25f,
                                  0x3p-26f,
                                  -0x1p-26f,
                                  0.1f,
                                  -3.14159265f,
                                  NAN,
                                  INFINITY,
                                  0.0f,
                                  -0.0f,
                                  1e-10f,
                                  2049.0f,
                                  2051.0f };
      f[i] = fs[i % (sizeof(fs) / sizeof(fs[0]))] * (i % 5 == 4 ? -1.0f : 1.0f);
      e[i] = (int)(i % 41) - 20;
   }
   if (build_and_run(options, a, b, c, f, e, o, oi, of) == 0) {
      unsigned bad = 0;
      for (size_t i = 0; i < NP; i++) {
         hbits h[H_COUNT];
         int iv[I_COUNT];
         expected(i, a, b, c, f, e, h, iv);
         for (int s = 0; s < H_COUNT; s++) {
            hbits got = o[(size_t)s * NP + i], want = h[s];
            bool ok = got == want || (h_isnan(got) && h_isnan(want));
            if (!ok && (s == H_DIV || s == H_SQRT) && !h_isnan(want))
               ok = ulps(got, want) <= 1 && ((got ^ want) & 0x8000) == 0 &&
                    h2d(want) * h2d(want) != 0 && !isinf(h2d(want));
            /* fmin/fmax may return either zero for (+0, -0) */
            if (!ok && (s == H_FMIN || s == H_FMAX || s == H_V_MIN0 || s == H_V_MAX1) &&
                (got & 0x7FFF) == 0 && (want & 0x7FFF) == 0)
               ok = true;
            if (!ok && bad++ < 12)
               fprintf(stderr,
                       "[%s] %s: x=0x%04x y=0x%04x z=0x%04x f=%a e=%d: 0x%04x, "
                       "expected 0x%04x\n",
                       options, h_names[s], a[i], b[i], c[i], f[i], e[i], got, want);
         }
         for (int s = 0; s < I_COUNT; s++) {
            int got = oi[(size_t)s * NP + i];
            if (got != iv[s] && bad++ < 12)
               fprintf(stderr, "[%s] %s: x=0x%04x y=0x%04x z=0x%04x: %d, expected %d\n", options,
                       i_names[s], a[i], b[i], c[i], got, iv[s]);
         }
         float fw = (float)(h2d(a[i]) + h2d(b[i]));
         if (!(of[i] == fw || (isnan(of[i]) && isnan(fw))) && bad++ < 12)
            fprintf(stderr, "[%s] (float)x + (float)y: x=0x%04x y=0x%04x: %a, expected %a\n",
                    options, a[i], b[i], of[i], fw);
      }
      if (bad)
         fprintf(stderr, "[%s] %u mismatches\n", options, bad);
      CHECK_EQ_INT(bad, 0);
   }
   free(a), free(b), free(c), free(f), free(of), free(e), free(oi), free(o);
}

static bool
has(cl_device_info what, const char *name)
{
   return test_device_lists(device, what, name);
}

/* The queries cl_khr_fp16 and __opencl_c_fp16 imply (OpenCL 3.0 §4.2). */
static void
test_queries(bool v30)
{
   CHECK(has(CL_DEVICE_EXTENSIONS, "cl_khr_fp16"));
   if (v30)
      CHECK(has(CL_DEVICE_OPENCL_C_FEATURES, "__opencl_c_fp16"));
   cl_device_fp_config cfg = 0;
   CHECK_EQ_INT(clGetDeviceInfo(device, CL_DEVICE_HALF_FP_CONFIG, sizeof(cfg), &cfg, NULL),
                CL_SUCCESS);
   CHECK(cfg & CL_FP_INF_NAN);
   CHECK(cfg & (CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO));
   cl_uint w = 0;
   CHECK_EQ_INT(clGetDeviceInfo(device, CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF, sizeof(w), &w, NULL),
                CL_SUCCESS);
   CHECK(w >= 1);
   w = 0;
   CHECK_EQ_INT(clGetDeviceInfo(device, CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF, sizeof(w), &w, NULL),
                CL_SUCCESS);
   CHECK(w >= 1);
}

int
main(int argc, char **argv)
{
   bool v30 = argc < 2 || (strcmp(argv[1], "1.2") && strcmp(argv[1], "2.0"));
   bool v20 = argc >= 2 && !strcmp(argv[1], "2.0");
   if (!test_cl_open(&device, &ctx, &queue))
      return 1;

   test_queries(v30);
   test_arithmetic("");
   test_arithmetic("-cl-opt-disable");
   if (v30)
      test_arithmetic("-cl-std=CL3.0");
   if (v20) {
      /* The 2.0 profile: half in OpenCL C 2.0, CL_DEVICE_OPENCL_C_FEATURES not a query. */
      test_arithmetic("-cl-std=CL2.0");
      size_t size = 0;
      CHECK_EQ_INT(clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES, 0, NULL, &size),
                   CL_INVALID_VALUE);
   }

   clReleaseCommandQueue(queue);
   clReleaseContext(ctx);
   return test_main_end();
}
