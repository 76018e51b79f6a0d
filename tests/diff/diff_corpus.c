/*
 * tests/diff/diff_corpus.c — the kernels of the differential tests (see diff.h), grouped
 * into ctest entries: int, vector, float, math, trig, conv, mem, launch, fp64.
 *
 * Inputs avoid undefined behaviour (signed overflow, out-of-range float-to-int without
 * _sat, INT_MIN / -1), so any difference is a real one. Float bounds are the OpenCL C 1.2
 * §7.4 table's for single precision (double: §7.4 double table).
 */
#include <math.h>
#include <string.h>

#include "diff.h"

#define N 4096

#define IN(t, g, lo, hi) { A_IN, t, 0, g, lo, hi, 0, 0 }
#define INN(t, n, g, lo, hi) { A_IN, t, n, g, lo, hi, 0, 0 }
#define OUT(t) { A_OUT, t, 0, G_BITS, 0, 0, 0, 0 }
#define OUTN(t, n) { A_OUT, t, n, G_BITS, 0, 0, 0, 0 }
#define INOUTN(t, n, g, lo, hi) { A_INOUT, t, n, g, lo, hi, 0, 0 }
#define SCAL_I(t, v) { A_SCALAR, t, 0, G_BITS, 0, 0, v, 0 }
#define SCAL_F(t, v) { A_SCALAR, t, 0, G_BITS, 0, 0, 0, v }
#define LOCALN(t, n) { A_LOCAL, t, n, G_BITS, 0, 0, 0, 0 }
#define BITS(t) IN(t, G_BITS, 0, 0)
#define L1(n, l) .dim = 1, .global = { n }, .local = { l }

/* Elementwise kernels: i is the global id. */
#define EW "   size_t i = get_global_id(0);\n"

/* A one-argument float builtin f of group grp: out = f(a), a in [lo, hi], within u ULP of
   the host. */
#define MATH1(grp, fn, lo, hi, u, ref)                                                             \
   {                                                                                        \
      .name = "m_" #fn, .group = grp,                                                    \
      .source = "kernel void m_" #fn "(global const float *a, global float *o)\n"           \
                "{ size_t i = get_global_id(0); o[i] = " #fn "(a[i]); }\n",                 \
      .args = { IN(T_F32, G_RANGE, lo, hi), OUT(T_F32) }, L1(N, 64), .ulp = u,              \
      .math1 = ref,                                                                         \
   }
#define MATH2(grp, fn, lo0, hi0, lo1, hi1, u, ref)                                                 \
   {                                                                                        \
      .name = "m_" #fn, .group = grp,                                                    \
      .source = "kernel void m_" #fn "(global const float *a, global const float *b,\n"     \
                "                     global float *o)\n"                                   \
                "{ size_t i = get_global_id(0); o[i] = " #fn "(a[i], b[i]); }\n",           \
      .args = { IN(T_F32, G_RANGE, lo0, hi0), IN(T_F32, G_RANGE, lo1, hi1), OUT(T_F32) },   \
      L1(N, 64), .ulp = u, .math2 = ref,                                                    \
   }

static double ref_rsqrt(double x) { return 1.0 / sqrt(x); }
static double ref_div(double x, double y) { return x / y; }
static double ref_exp10(double x) { return pow(10.0, x); }
static double ref_recip(double x) { return 1.0 / x; }

/*
 * Host reference of the non-uniform launches (PoCL 3.1 reports no non-uniform
 * work-group support): o[4*lin + ...] = global id, local size, group id,
 * enqueued local size for dimension 0, the same for dimension 1 (2-D case), local ids.
 */
static void
ref_nonuniform(const struct diff_kernel *k, void **bufs)
{
   int *o = bufs[0];
   size_t gx = k->global[0], gy = k->dim > 1 ? k->global[1] : 1;
   size_t lx = k->local[0], ly = k->dim > 1 ? k->local[1] : 1;
   for (size_t y = 0; y < gy; y++)
      for (size_t x = 0; x < gx; x++) {
         int *e = o + 8 * (y * gx + x);
         size_t lsx = x / lx == gx / lx ? gx % lx : lx;
         size_t lsy = y / ly == gy / ly ? gy % ly : ly;
         e[0] = (int)x;
         e[1] = (int)lsx;
         e[2] = (int)(x / lx);
         e[3] = (int)lx;
         e[4] = (int)y;
         e[5] = (int)lsy;
         e[6] = (int)(y / ly);
         e[7] = (int)(x % lx + 100 * (y % ly));
      }
}

/*
 * Host reference of b_local_reverse: PoCL 3.1 (Debian 3.1-3+deb12u1) gets this kernel wrong
 * (about 150 of 4096 elements); hsacl agrees with this straightforward host model.
 */
static void
ref_local_reverse(const struct diff_kernel *k, void **bufs)
{
   const int *a = bufs[0];
   int *o = bufs[1];
   int t[256];
   for (int g0 = 0; g0 < 4096; g0 += 256) {
      for (int l = 0; l < 256; l++) t[l] = a[g0 + l];
      for (int l = 0; l < 256; l++) o[g0 + l] = t[255 - l] + t[(l + 1) % 256];
      for (int l = 0; l < 256; l++) t[l] = o[g0 + l] * 3;
      for (int l = 0; l < 256; l++) o[g0 + l] += t[(l * 7) % 256];
   }
}
/*
 * Host reference of g_nonuniform_linear_id: OpenCL C 2.0 §6.13.1, get_local_linear_id() =
 * get_local_id(1) * get_local_size(0) + get_local_id(0), with the group's actual size.
 */
static void
ref_linear_id(const struct diff_kernel *k, void **bufs)
{
   int *o = bufs[0];
   size_t gx = k->global[0], gy = k->global[1], lx = k->local[0], ly = k->local[1];
   for (size_t y = 0; y < gy; y++)
      for (size_t x = 0; x < gx; x++) {
         size_t lsx = x / lx == gx / lx ? gx % lx : lx;
         o[y * gx + x] = (int)(x % lx + lsx * (y % ly));
      }
}

const struct diff_kernel diff_corpus[] = {
   /* ---- int: scalar integer arithmetic and builtins ---- */
   {
      .name = "i_add_sub_mul", .group = "int",
      .source = "kernel void i_add_sub_mul(global const uint *a, global const uint *b,\n"
                "                          global uint *o)\n"
                "{\n" EW
                "   o[3 * i] = a[i] + b[i]; o[3 * i + 1] = a[i] - b[i];\n"
                "   o[3 * i + 2] = a[i] * b[i];\n"
                "}\n",
      .args = { BITS(T_U32), BITS(T_U32), OUTN(T_U32, 3 * N) }, L1(N, 64),
   },
   {
      .name = "i_div_rem", .group = "int",
      .source = "kernel void i_div_rem(global const int *a, global const int *b, global int *o)\n"
                "{\n" EW "   o[2 * i] = a[i] / b[i]; o[2 * i + 1] = a[i] % b[i];\n}\n",
      .args = { IN(T_I32, G_RANGE, -2000000000, 2000000000),
                IN(T_I32, G_NONZERO, -70000, 70000), OUTN(T_I32, 2 * N) }, L1(N, 64),
   },
   {
      .name = "u_div_rem", .group = "int",
      .source = "kernel void u_div_rem(global const uint *a, global const uint *b, global uint *o)\n"
                "{\n" EW "   uint d = b[i] >> (a[i] & 31); d = d ? d : 7;\n"
                "   o[2 * i] = a[i] / d; o[2 * i + 1] = a[i] % d;\n}\n",
      .args = { BITS(T_U32), BITS(T_U32), OUTN(T_U32, 2 * N) }, L1(N, 64),
   },
   {
      .name = "i_shift_bitops", .group = "int",
      .source = "kernel void i_shift_bitops(global const int *a, global const int *b,\n"
                "                           global int *o)\n"
                "{\n" EW
                "   int s = b[i];\n"
                "   o[6 * i] = a[i] << s; o[6 * i + 1] = a[i] >> s;\n"
                "   o[6 * i + 2] = (int)((uint)a[i] >> s); o[6 * i + 3] = a[i] & s;\n"
                "   o[6 * i + 4] = a[i] | ~s; o[6 * i + 5] = a[i] ^ b[i];\n"
                "}\n",
      .args = { BITS(T_I32), BITS(T_I32), OUTN(T_I32, 6 * N) }, L1(N, 64),
   },
   {
      .name = "i_compare_select", .group = "int",
      .source = "kernel void i_compare_select(global const int *a, global const int *b,\n"
                "                             global int *o)\n"
                "{\n" EW
                "   int x = a[i], y = b[i];\n"
                "   o[6 * i] = x < y; o[6 * i + 1] = (uint)x >= (uint)y;\n"
                "   o[6 * i + 2] = select(x, y, x > y); o[6 * i + 3] = x == y ? 5 : -5;\n"
                "   o[6 * i + 4] = min(x, y); o[6 * i + 5] = (int)max((uint)x, (uint)y);\n"
                "}\n",
      .args = { IN(T_I32, G_RANGE, -40, 40), BITS(T_I32), OUTN(T_I32, 6 * N) }, L1(N, 64),
   },
   {
      .name = "i_sat_abs", .group = "int",
      .source = "kernel void i_sat_abs(global const int *a, global const int *b, global uint *o)\n"
                "{\n" EW
                "   o[6 * i] = abs(a[i]); o[6 * i + 1] = abs_diff((uint)a[i], (uint)b[i]);\n"
                "   o[6 * i + 2] = add_sat(a[i], b[i]); o[6 * i + 3] = sub_sat(a[i], b[i]);\n"
                "   o[6 * i + 4] = add_sat((uint)a[i], (uint)b[i]);\n"
                "   o[6 * i + 5] = sub_sat((uint)a[i], (uint)b[i]);\n"
                "}\n",
      .args = { BITS(T_I32), BITS(T_I32), OUTN(T_U32, 6 * N) }, L1(N, 64),
   },
   {
      .name = "i_abs_diff_signed", .group = "int",
      .source = "kernel void i_abs_diff_signed(global const int *a, global const int *b,\n"
                "                                global const long *c, global const long *d,\n"
                "                                global ulong *o)\n"
                "{\n" EW
                "   o[4 * i] = abs_diff(a[i], b[i]); o[4 * i + 1] = abs_diff(c[i], d[i]);\n"
                "   o[4 * i + 2] = abs_diff((short)a[i], (short)b[i]);\n"
                "   o[4 * i + 3] = abs_diff((char)a[i], (char)b[i]);\n"
                "}\n",
      .args = { BITS(T_I32), BITS(T_I32), BITS(T_I64), BITS(T_I64), OUTN(T_U64, 4 * N) },
      L1(N, 64),
   },
   {
      .name = "i_hi_hadd", .group = "int",
      .source = "kernel void i_hi_hadd(global const int *a, global const int *b,\n"
                "                      global const int *c, global int *o)\n"
                "{\n" EW
                "   o[7 * i] = mul_hi(a[i], b[i]); o[7 * i + 1] = (int)mul_hi((uint)a[i], (uint)b[i]);\n"
                "   o[7 * i + 2] = mad_hi(a[i], b[i], c[i]); o[7 * i + 3] = mad_sat(a[i], b[i], c[i]);\n"
                "   o[7 * i + 4] = hadd(a[i], b[i]); o[7 * i + 5] = rhadd(a[i], b[i]);\n"
                "   o[7 * i + 6] = (int)mad_sat((uint)a[i], (uint)b[i], (uint)c[i]);\n"
                "}\n",
      .args = { BITS(T_I32), BITS(T_I32), BITS(T_I32), OUTN(T_I32, 7 * N) }, L1(N, 64),
   },
   {
      .name = "i_clz_popcount_rotate", .group = "int",
      .source = "kernel void i_clz_popcount_rotate(global const uint *a, global const uint *b,\n"
                "                                  global uint *o)\n"
                "{\n" EW
                "   uint x = a[i] >> (b[i] & 31);\n"
                "   o[4 * i] = clz(x); o[4 * i + 1] = popcount(x);\n"
                "   o[4 * i + 2] = rotate(a[i], b[i]); o[4 * i + 3] = (uint)clz((int)x);\n"
                "}\n",
      .args = { BITS(T_U32), BITS(T_U32), OUTN(T_U32, 4 * N) }, L1(N, 64),
   },
   {
      .name = "i_mul24_mad24", .group = "int",
      .source = "kernel void i_mul24_mad24(global const int *a, global const int *b,\n"
                "                          global const int *c, global int *o)\n"
                "{\n" EW
                "   o[3 * i] = mul24(a[i], b[i]); o[3 * i + 1] = mad24(a[i], b[i], c[i]);\n"
                "   o[3 * i + 2] = (int)mul24((uint)(a[i] & 0x7fffff), (uint)(b[i] & 0xfff));\n"
                "}\n",
      .args = { IN(T_I32, G_RANGE, -8388608, 8388607), IN(T_I32, G_RANGE, -300, 300),
                BITS(T_I32), OUTN(T_I32, 3 * N) }, L1(N, 64),
   },
   {
      .name = "i_char_short", .group = "int",
      .source = "kernel void i_char_short(global const char *a, global const char *b,\n"
                "                         global const short *s, global short *o)\n"
                "{\n" EW
                "   o[8 * i] = add_sat(a[i], b[i]); o[8 * i + 1] = sub_sat(a[i], b[i]);\n"
                "   o[8 * i + 2] = add_sat((uchar)a[i], (uchar)b[i]);\n"
                "   o[8 * i + 3] = (short)(a[i] * b[i]); o[8 * i + 4] = (short)(s[i] * a[i]);\n"
                "   o[8 * i + 5] = mad_sat(s[i], (short)b[i], s[i]);\n"
                "   o[8 * i + 6] = upsample(a[i], (uchar)b[i]);\n"
                "   o[8 * i + 7] = (short)((ushort)s[i] >> (b[i] & 15)) + clz(a[i]);\n"
                "}\n",
      .args = { BITS(T_I8), BITS(T_I8), BITS(T_I16), OUTN(T_I16, 8 * N) }, L1(N, 64),
   },
   {
      .name = "l_arith", .group = "int",
      .source = "kernel void l_arith(global const ulong *a, global const ulong *b, global ulong *o)\n"
                "{\n" EW
                "   ulong d = b[i] >> (a[i] & 63); d = d ? d : 3;\n"
                "   o[6 * i] = a[i] + b[i]; o[6 * i + 1] = a[i] - b[i]; o[6 * i + 2] = a[i] * b[i];\n"
                "   o[6 * i + 3] = a[i] / d; o[6 * i + 4] = a[i] % d;\n"
                "   o[6 * i + 5] = (ulong)((long)a[i] / (long)(d | 1));\n"
                "}\n",
      .args = { BITS(T_U64), BITS(T_U64), OUTN(T_U64, 6 * N) }, L1(N, 64),
   },
   {
      .name = "l_shift_bits", .group = "int",
      .source = "kernel void l_shift_bits(global const long *a, global const long *b, global long *o)\n"
                "{\n" EW
                "   long x = a[i]; int s = (int)b[i];\n"
                "   o[7 * i] = x << s; o[7 * i + 1] = x >> s; o[7 * i + 2] = (long)((ulong)x >> s);\n"
                "   o[7 * i + 3] = clz(x >> (s & 63)); o[7 * i + 4] = popcount(x);\n"
                "   o[7 * i + 5] = rotate(x, b[i]); o[7 * i + 6] = (x < b[i]) + (x == b[i]) * 2;\n"
                "}\n",
      .args = { BITS(T_I64), BITS(T_I64), OUTN(T_I64, 7 * N) }, L1(N, 64),
   },
   {
      .name = "l_mul_hi_sat", .group = "int",
      .source = "kernel void l_mul_hi_sat(global const long *a, global const long *b, global long *o)\n"
                "{\n" EW
                "   o[6 * i] = mul_hi(a[i], b[i]); o[6 * i + 1] = (long)mul_hi((ulong)a[i], (ulong)b[i]);\n"
                "   o[6 * i + 2] = add_sat(a[i], b[i]); o[6 * i + 3] = sub_sat(a[i], b[i]);\n"
                "   o[6 * i + 4] = (long)abs_diff((ulong)a[i], (ulong)b[i]); o[6 * i + 5] = hadd(a[i], b[i]);\n"
                "}\n",
      .args = { BITS(T_I64), BITS(T_I64), OUTN(T_I64, 6 * N) }, L1(N, 64),
   },

   /* ---- vector: vector types, swizzles, vload/vstore, shuffles ---- */
   {
      .name = "v_int4_ops", .group = "vector",
      .source = "kernel void v_int4_ops(global const int4 *a, global const int4 *b, global int4 *o)\n"
                "{\n" EW
                "   int4 x = a[i], y = b[i];\n"
                "   o[4 * i] = x + y * (int4)(1, 2, 3, 4); o[4 * i + 1] = x.wzyx ^ y.xxyy;\n"
                "   o[4 * i + 2] = (x > y) + (x == y); o[4 * i + 3] = max(x, y) >> 3;\n"
                "}\n",
      .args = { INN(T_I32, 4 * N, G_RANGE, -1000000, 1000000),
                INN(T_I32, 4 * N, G_RANGE, -1000000, 1000000), OUTN(T_I32, 16 * N) }, L1(N, 64),
   },
   {
      .name = "v_uchar16_sat", .group = "vector",
      .source = "kernel void v_uchar16_sat(global const uchar *a, global const uchar *b,\n"
                "                          global uchar *o)\n"
                "{\n" EW
                "   uchar16 x = vload16(i, a), y = vload16(i, b);\n"
                "   vstore16(add_sat(x, y), 3 * i, o); vstore16(sub_sat(x, y), 3 * i + 1, o);\n"
                "   vstore16(rhadd(x, y) ^ x.sfedcba9876543210, 3 * i + 2, o);\n"
                "}\n",
      .args = { INN(T_U8, 16 * N, G_BITS, 0, 0), INN(T_U8, 16 * N, G_BITS, 0, 0),
                OUTN(T_U8, 48 * N) }, L1(N, 64),
   },
   {
      .name = "v_short8_mixed", .group = "vector",
      .source = "kernel void v_short8_mixed(global const short8 *a, global const short8 *b,\n"
                "                           global short8 *o)\n"
                "{\n" EW
                "   short8 x = a[i], y = b[i];\n"
                "   o[3 * i] = hadd(x, y); o[3 * i + 1] = mul_hi(x, y);\n"
                "   o[3 * i + 2] = (short8)(x.lo * y.hi, x.odd - y.even);\n"
                "}\n",
      .args = { INN(T_I16, 8 * N, G_BITS, 0, 0), INN(T_I16, 8 * N, G_BITS, 0, 0),
                OUTN(T_I16, 24 * N) }, L1(N, 64),
   },
   {
      .name = "v_vload3_vstore3", .group = "vector",
      .source = "kernel void v_vload3_vstore3(global const float *a, global const int *b,\n"
                "                             global float *o, global int *p)\n"
                "{\n" EW
                "   float3 x = vload3(i, a); int3 y = vload3(i, b);\n"
                "   vstore3(x.zxy * 2.0f, i, o); vstore3(y.yzx - y, i, p);\n"
                "   vstore2(convert_int2(x.xy) + y.xy, 0, p + 3 * N + 2 * i);\n"
                "}\n",
      .options = "-DN=4096",
      .args = { INN(T_F32, 3 * N, G_RANGE, -1000, 1000), INN(T_I32, 3 * N, G_RANGE, -9999, 9999),
                OUTN(T_F32, 3 * N), OUTN(T_I32, 5 * N) }, L1(N, 64),
   },
   {
      .name = "v_shuffle_select", .group = "vector",
      .source = "kernel void v_shuffle_select(global const uint4 *a, global const uint4 *b,\n"
                "                             global uint4 *o, global int *p)\n"
                "{\n" EW
                "   uint4 x = a[i], y = b[i];\n"
                "   o[4 * i] = shuffle(x, y & 3); o[4 * i + 1] = shuffle2(x, y, (y >> 4) & 7);\n"
                "   o[4 * i + 2] = bitselect(x, y, x ^ y); o[4 * i + 3] = select(x, y, (int4)(x > y));\n"
                "   p[i] = any(x < y) + 2 * all(as_int4(x << 31));\n"
                "}\n",
      .args = { INN(T_U32, 4 * N, G_BITS, 0, 0), INN(T_U32, 4 * N, G_BITS, 0, 0),
                OUTN(T_U32, 16 * N), OUT(T_I32) }, L1(N, 64),
   },
   {
      .name = "v_float4_arith", .group = "vector",
      .source = "kernel void v_float4_arith(global const float4 *a, global const float4 *b,\n"
                "                           global float4 *o)\n"
                "{\n" EW
                "   float4 x = a[i], y = b[i];\n"
                "   o[4 * i] = x + y; o[4 * i + 1] = x * y.wzyx;\n"
                "   o[4 * i + 2] = fmax(x, y) - fmin(x, y); o[4 * i + 3] = fma(x, y, x.yzwx);\n"
                "}\n",
      .args = { INN(T_F32, 4 * N, G_RANGE, -1e6, 1e6), INN(T_F32, 4 * N, G_RANGE, -1e3, 1e3),
                OUTN(T_F32, 16 * N) }, L1(N, 64),
   },
   {
      .name = "v_long2_double_free", .group = "vector",
      .source = "kernel void v_long2_double_free(global const long2 *a, global const long2 *b,\n"
                "                                global long2 *o)\n"
                "{\n" EW
                "   long2 x = a[i], y = b[i];\n"
                "   o[3 * i] = x * y + x.yx; o[3 * i + 1] = (x >> 7) | (y << 3);\n"
                "   o[3 * i + 2] = select(x, y, x < y);\n"
                "}\n",
      .args = { INN(T_I64, 2 * N, G_BITS, 0, 0), INN(T_I64, 2 * N, G_BITS, 0, 0),
                OUTN(T_I64, 6 * N) }, L1(N, 64),
   },

   /* ---- float: correctly rounded and exact single-precision operations ---- */
   {
      .name = "f_add_sub_mul", .group = "float",
      .source = "kernel void f_add_sub_mul(global const float *a, global const float *b,\n"
                "                          global float *o)\n"
                "{\n" EW
                "   o[3 * i] = a[i] + b[i]; o[3 * i + 1] = a[i] - b[i]; o[3 * i + 2] = a[i] * b[i];\n"
                "}\n",
      .args = { IN(T_F32, G_SPECIAL, -1e5, 1e5), IN(T_F32, G_SPECIAL, -1e3, 1e3),
                OUTN(T_F32, 3 * N) }, L1(N, 64),
   },
   {
      .name = "f_divide", .group = "float",
      .source = "kernel void f_divide(global const float *a, global const float *b, global float *o)\n"
                "{ size_t i = get_global_id(0); o[i] = a[i] / b[i]; }\n",
      .args = { IN(T_F32, G_RANGE, -1e6, 1e6), IN(T_F32, G_NONZERO, -1e3, 1e3), OUT(T_F32) },
      L1(N, 64), .ulp = 2.5, .math2 = ref_div,
   },
   {
      .name = "f_reciprocal", .group = "float",
      .source = "kernel void f_reciprocal(global const float *a, global float *o)\n"
                "{ size_t i = get_global_id(0); o[i] = 1.0f / a[i]; }\n",
      .args = { IN(T_F32, G_NONZERO, -1e4, 1e4), OUT(T_F32) }, L1(N, 64), .ulp = 2.5,
      .math1 = ref_recip,
   },
   {
      .name = "f_sqrt", .group = "float",
      .source = "kernel void f_sqrt(global const float *a, global float *o)\n"
                "{ size_t i = get_global_id(0); o[i] = sqrt(a[i]); }\n",
      .args = { IN(T_F32, G_RANGE, 0, 1e6), OUT(T_F32) }, L1(N, 64), .ulp = 3, .math1 = sqrt,
   },
   {
      .name = "f_rounding", .group = "float",
      .source = "kernel void f_rounding(global const float *a, global float *o)\n"
                "{\n" EW
                "   float x = a[i] + (float)(i & 7) * 0.25f;\n"
                "   o[5 * i] = floor(x); o[5 * i + 1] = ceil(x); o[5 * i + 2] = rint(x);\n"
                "   o[5 * i + 3] = round(x); o[5 * i + 4] = trunc(x);\n"
                "}\n",
      .args = { IN(T_F32, G_RANGE, -1000, 1000), OUTN(T_F32, 5 * N) }, L1(N, 64),
   },
   {
      .name = "f_minmax_sign", .group = "float",
      .source = "kernel void f_minmax_sign(global const float *a, global const float *b,\n"
                "                          global float *o)\n"
                "{\n" EW
                "   o[5 * i] = fmin(a[i], b[i]); o[5 * i + 1] = fmax(a[i], b[i]);\n"
                "   o[5 * i + 2] = fabs(a[i]); o[5 * i + 3] = copysign(a[i], b[i]);\n"
                "   o[5 * i + 4] = fdim(a[i], b[i]);\n"
                "}\n",
      .args = { IN(T_F32, G_SPECIAL, -100, 100), IN(T_F32, G_RANGE, -100, 100),
                OUTN(T_F32, 5 * N) }, L1(N, 64),
   },
   {
      .name = "f_fma", .group = "float",
      .source = "kernel void f_fma(global const float *a, global const float *b,\n"
                "                  global const float *c, global float *o)\n"
                "{ size_t i = get_global_id(0); o[i] = fma(a[i], b[i], c[i]); }\n",
      .args = { IN(T_F32, G_RANGE, -1e3, 1e3), IN(T_F32, G_RANGE, -1e3, 1e3),
                IN(T_F32, G_RANGE, -1e6, 1e6), OUT(T_F32) }, L1(N, 64),
   },
   {
      .name = "f_fmod_remainder", .group = "float",
      .source = "kernel void f_fmod_remainder(global const float *a, global const float *b,\n"
                "                             global float *o, global int *q)\n"
                "{\n" EW
                "   int n;\n"
                "   o[3 * i] = fmod(a[i], b[i]); o[3 * i + 1] = remainder(a[i], b[i]);\n"
                "   o[3 * i + 2] = remquo(a[i], b[i], &n); q[i] = n & 7;\n"
                "}\n",
      .args = { IN(T_F32, G_RANGE, -1e4, 1e4), IN(T_F32, G_NONZERO, -50, 50),
                OUTN(T_F32, 3 * N), OUT(T_I32) }, L1(N, 64),
   },
   {
      .name = "f_frexp_ldexp", .group = "float",
      .source = "kernel void f_frexp_ldexp(global const float *a, global float *o, global int *e)\n"
                "{\n" EW
                "   int x;\n"
                "   o[3 * i] = frexp(a[i], &x); e[2 * i] = x; e[2 * i + 1] = ilogb(a[i]);\n"
                "   o[3 * i + 1] = ldexp(a[i], (int)(i % 40) - 20); o[3 * i + 2] = logb(a[i]);\n"
                "}\n",
      .args = { IN(T_F32, G_RANGE, -1e20, 1e20), OUTN(T_F32, 3 * N), OUTN(T_I32, 2 * N) },
      L1(N, 64),
   },
   {
      .name = "f_fract_modf", .group = "float",
      .source = "kernel void f_fract_modf(global const float *a, global float *o)\n"
                "{\n" EW
                "   float ip, fp;\n"
                "   o[4 * i] = fract(a[i], &fp); o[4 * i + 1] = fp;\n"
                "   o[4 * i + 2] = modf(a[i], &ip); o[4 * i + 3] = ip;\n"
                "}\n",
      .args = { IN(T_F32, G_RANGE, -1e4, 1e4), OUTN(T_F32, 4 * N) }, L1(N, 64),
   },
   {
      .name = "f_classify", .group = "float",
      .source = "kernel void f_classify(global const float *a, global const float *b, global int *o)\n"
                "{\n" EW
                "   float x = a[i], y = b[i];\n"
                "   o[8 * i] = isnan(x); o[8 * i + 1] = isinf(x); o[8 * i + 2] = isfinite(x);\n"
                "   o[8 * i + 3] = signbit(x); o[8 * i + 4] = isless(x, y);\n"
                "   o[8 * i + 5] = isequal(x, y) + 2 * isunordered(x, y);\n"
                "   o[8 * i + 6] = (x < y) + 2 * (x != y) + 4 * (x >= y);\n"
                "   o[8 * i + 7] = islessgreater(x, y) + 2 * isordered(x, y);\n"
                "}\n",
      .args = { IN(T_F32, G_SPECIAL, -10, 10), IN(T_F32, G_SPECIAL, -10, 10),
                OUTN(T_I32, 8 * N) }, L1(N, 64),
   },
   {
      .name = "f_isnormal", .group = "float",
      .source = "kernel void f_isnormal(global const float *a, global int *o)\n"
                "{ size_t i = get_global_id(0); o[i] = isnormal(a[i]); }\n",
      .args = { IN(T_F32, G_SPECIAL, -10, 10), OUT(T_I32) }, L1(N, 64),
   },
   {
      .name = "f_nextafter_misc", .group = "float",
      .source = "kernel void f_nextafter_misc(global const float *a, global const float *b,\n"
                "                             global float *o)\n"
                "{\n" EW
                "   o[3 * i] = nextafter(a[i], b[i]); o[3 * i + 1] = maxmag(a[i], b[i]);\n"
                "   o[3 * i + 2] = minmag(a[i], b[i]);\n"
                "}\n",
      .args = { IN(T_F32, G_RANGE, -10, 10), IN(T_F32, G_RANGE, -10, 10), OUTN(T_F32, 3 * N) },
      L1(N, 64),
   },
   {
      .name = "f_loop_accumulate", .group = "float",
      .source = "#pragma OPENCL FP_CONTRACT OFF\n"
                "kernel void f_loop_accumulate(global const float *a, global float *o)\n"
                "{\n" EW
                "   float s = 0.0f, p = 1.0f;\n"
                "   for (int k = 0; k < 16; k++) {\n"
                "      float v = a[(i + 97 * k) % 4096];\n"
                "      s = s + v * 0.5f; p = p * (1.0f + v * 1e-3f);\n"
                "   }\n"
                "   o[2 * i] = s; o[2 * i + 1] = p;\n"
                "}\n",
      .args = { IN(T_F32, G_RANGE, -10, 10), OUTN(T_F32, 2 * N) }, L1(N, 64),
   },

   /* ---- math: single-precision builtins, §7.4 bounds, also checked against the host ---- */
   MATH1("trig", sin, -100, 100, 4, sin),
   MATH1("trig", cos, -100, 100, 4, cos),
   MATH1("trig", tan, -10, 10, 5, tan),
   MATH1("math", exp, -80, 80, 3, exp),
   MATH1("math", exp2, -120, 120, 3, exp2),
   MATH1("math", exp10, -30, 30, 3, ref_exp10),
   MATH1("math", expm1, -20, 20, 3, expm1),
   MATH1("math", log, 1e-3, 1e6, 3, log),
   MATH1("math", log2, 1e-3, 1e6, 3, log2),
   MATH1("math", log10, 1e-3, 1e6, 3, log10),
   MATH1("math", log1p, -0.9, 1e4, 2, log1p),
   MATH2("math", pow, 0.01, 50, -15, 15, 16, pow),
   MATH2("trig", atan2, -100, 100, -100, 100, 6, atan2),
   MATH2("trig", hypot, -1e3, 1e3, -1e3, 1e3, 4, hypot),
   MATH1("trig", asin, -1, 1, 4, asin),
   MATH1("trig", acos, -1, 1, 4, acos),
   MATH1("trig", atan, -1e3, 1e3, 5, atan),
   MATH1("trig", sinh, -20, 20, 4, sinh),
   MATH1("trig", cosh, -20, 20, 4, cosh),
   MATH1("trig", tanh, -10, 10, 5, tanh),
   MATH1("trig", asinh, -1e3, 1e3, 4, asinh),
   MATH1("trig", acosh, 1, 1e3, 4, acosh),
   MATH1("trig", atanh, -0.99, 0.99, 5, atanh),
   MATH1("math", cbrt, -1e6, 1e6, 2, cbrt),
   MATH1("math", rsqrt, 1e-3, 1e6, 2, ref_rsqrt),
   MATH1("math", erf, -4, 4, 16, erf),
   MATH1("math", erfc, -4, 9, 16, erfc),
   MATH1("math", tgamma, 0.1, 30, 16, tgamma),
   {
      .name = "m_pown_rootn", .group = "math",
      .source = "kernel void m_pown_rootn(global const float *a, global float *o)\n"
                "{\n" EW
                "   int n = (int)(i % 9) - 4;\n"
                "   o[2 * i] = pown(a[i], n); o[2 * i + 1] = rootn(a[i], n ? n : 3);\n"
                "}\n",
      .args = { IN(T_F32, G_RANGE, 0.01, 100), OUTN(T_F32, 2 * N) }, L1(N, 64), .ulp = 16,
   },
   {
      .name = "m_sincos", .group = "trig",
      .source = "kernel void m_sincos(global const float *a, global float *o)\n"
                "{\n" EW
                "   float c; o[2 * i] = sincos(a[i], &c); o[2 * i + 1] = c;\n"
                "}\n",
      .args = { IN(T_F32, G_RANGE, -1000, 1000), OUTN(T_F32, 2 * N) }, L1(N, 64), .ulp = 4,
   },

   /* ---- conv: conversions, saturation and rounding modes, reinterpretation ---- */
   {
      .name = "c_float_to_int_modes", .group = "conv",
      .source = "kernel void c_float_to_int_modes(global const float *a, global int *o)\n"
                "{\n" EW
                "   /* every fourth value is an exact half, to exercise ties */\n"
                "   float x = (i & 3) ? a[i] : (float)((int)i - 2048) * 0.5f;\n"
                "   o[5 * i] = convert_int(x); o[5 * i + 1] = convert_int_rte(x);\n"
                "   o[5 * i + 2] = convert_int_rtp(x); o[5 * i + 3] = convert_int_rtn(x);\n"
                "   o[5 * i + 4] = convert_int_rtz(x);\n"
                "}\n",
      .args = { IN(T_F32, G_RANGE, -2e9, 2e9), OUTN(T_I32, 5 * N) }, L1(N, 64),
   },
   {
      .name = "c_float_to_int_sat", .group = "conv",
      .source = "kernel void c_float_to_int_sat(global const float *a, global int *o)\n"
                "{\n" EW
                "   float x = isnan(a[i]) ? -0.5f : a[i]; /* NaN: see c_sat_nan */\n"
                "   o[6 * i] = convert_int_sat(x); o[6 * i + 1] = (int)convert_uint_sat(x);\n"
                "   o[6 * i + 2] = convert_int_sat_rte(x); o[6 * i + 3] = convert_short_sat_rtp(x);\n"
                "   o[6 * i + 4] = convert_uchar_sat_rtn(x); o[6 * i + 5] = convert_char_sat(x);\n"
                "}\n",
      .args = { IN(T_F32, G_SPECIAL, -1e10, 1e10), OUTN(T_I32, 6 * N) }, L1(N, 64),
   },
   {
      .name = "c_float_to_long_sat", .group = "conv",
      .source = "kernel void c_float_to_long_sat(global const float *a, global long *o)\n"
                "{\n" EW
                "   float x = isnan(a[i]) ? 0.75f : a[i]; /* NaN: see c_sat_nan */\n"
                "   o[4 * i] = convert_long_sat(x); o[4 * i + 1] = (long)convert_ulong_sat(x);\n"
                "   o[4 * i + 2] = convert_long_sat_rtp(x * 1e-10f);\n"
                "   o[4 * i + 3] = convert_long_sat_rte(x * 1e-20f);\n"
                "}\n",
      .args = { IN(T_F32, G_SPECIAL, -1e20, 1e20), OUTN(T_I64, 4 * N) }, L1(N, 64),
   },
   {
      .name = "c_sat_nan", .group = "conv",
      .source = "kernel void c_sat_nan(global const float *a, global long *o)\n"
                "{\n" EW
                "   /* §6.2.3.3: saturated conversions convert NaN to 0 */\n"
                "   float x = (i & 1) ? a[i] : NAN;\n"
                "   o[5 * i] = convert_int_sat(x); o[5 * i + 1] = convert_long_sat(x);\n"
                "   o[5 * i + 2] = convert_uchar_sat(x); o[5 * i + 3] = convert_short_sat_rte(x);\n"
                "   o[5 * i + 4] = convert_uint_sat_rtn(x);\n"
                "}\n",
      .args = { IN(T_F32, G_RANGE, -1e3, 1e3), OUTN(T_I64, 5 * N) }, L1(N, 64),
   },
   {
      .name = "c_int_to_float_modes", .group = "conv",
      .source = "kernel void c_int_to_float_modes(global const int *a, global const uint *b,\n"
                "                                 global float *o)\n"
                "{\n" EW
                "   o[6 * i] = convert_float(a[i]); o[6 * i + 1] = convert_float_rtz(a[i]);\n"
                "   o[6 * i + 2] = convert_float_rtp(a[i]); o[6 * i + 3] = convert_float_rtn(a[i]);\n"
                "   o[6 * i + 4] = convert_float(b[i]); o[6 * i + 5] = convert_float_rtz(b[i]);\n"
                "}\n",
      .args = { BITS(T_I32), BITS(T_U32), OUTN(T_F32, 6 * N) }, L1(N, 64),
   },
   {
      .name = "c_long_to_float", .group = "conv",
      .source = "kernel void c_long_to_float(global const long *a, global float *o)\n"
                "{\n" EW
                "   long x = a[i] >> (i & 31);\n"
                "   o[5 * i] = convert_float(x); o[5 * i + 1] = convert_float((ulong)a[i]);\n"
                "   o[5 * i + 2] = convert_float_rtz(x); o[5 * i + 3] = convert_float_rtp((ulong)x);\n"
                "   o[5 * i + 4] = convert_float_rtn(x);\n"
                "}\n",
      .args = { BITS(T_I64), OUTN(T_F32, 5 * N) }, L1(N, 64),
   },
   {
      .name = "c_int_narrow_sat", .group = "conv",
      .source = "kernel void c_int_narrow_sat(global const int *a, global const long *b,\n"
                "                             global int *o)\n"
                "{\n" EW
                "   int x = a[i] >> (i & 15);\n"
                "   o[8 * i] = convert_char_sat(x); o[8 * i + 1] = convert_uchar_sat(x);\n"
                "   o[8 * i + 2] = convert_short_sat(x); o[8 * i + 3] = convert_ushort_sat(x);\n"
                "   o[8 * i + 4] = (int)convert_uint_sat(x); o[8 * i + 5] = convert_int_sat(b[i]);\n"
                "   o[8 * i + 6] = (int)convert_uint_sat(b[i] >> (i & 63));\n"
                "   o[8 * i + 7] = (char)x + (uchar)(x >> 8) * 3;\n"
                "}\n",
      .args = { BITS(T_I32), BITS(T_I64), OUTN(T_I32, 8 * N) }, L1(N, 64),
   },
   {
      .name = "c_vector_sat_rounding", .group = "conv",
      .source = "kernel void c_vector_sat_rounding(global const float4 *a, global int4 *o,\n"
                "                                  global uchar4 *p)\n"
                "{\n" EW
                "   o[2 * i] = convert_int4_sat_rte(a[i]); o[2 * i + 1] = convert_int4_rtn(a[i] * 1e-3f);\n"
                "   p[i] = convert_uchar4_sat(a[i] * 1e-7f);\n"
                "}\n",
      .args = { INN(T_F32, 4 * N, G_RANGE, -1e10, 1e10), OUTN(T_I32, 8 * N), OUTN(T_U8, 4 * N) },
      L1(N, 64),
   },
   {
      .name = "c_as_type", .group = "conv",
      .source = "kernel void c_as_type(global const float *a, global const int4 *b, global int *o,\n"
                "                      global float4 *p)\n"
                "{\n" EW
                "   o[2 * i] = as_int(a[i]); o[2 * i + 1] = as_int(as_float(as_int(a[i]) ^ 0x80000000));\n"
                "   p[i] = as_float4(b[i] & 0x3fffffff);\n"
                "}\n",
      .args = { IN(T_F32, G_SPECIAL, -10, 10), INN(T_I32, 4 * N, G_BITS, 0, 0), OUTN(T_I32, 2 * N),
                OUTN(T_F32, 4 * N) }, L1(N, 64),
   },

   /* ---- mem: atomics on global and local memory, barriers, address spaces ---- */
   {
      .name = "a_global_add_minmax", .group = "mem",
      .source = "kernel void a_global_add_minmax(global const int *a, global int *c)\n"
                "{\n" EW
                "   int k = i % 16;\n"
                "   atomic_add(&c[k], a[i]); atomic_sub(&c[16 + k], a[i]);\n"
                "   atomic_min(&c[32 + k], a[i]); atomic_max(&c[48 + k], a[i]);\n"
                "   atomic_min((global uint *)&c[64 + k], (uint)a[i]);\n"
                "   atomic_max((global uint *)&c[80 + k], (uint)a[i]);\n"
                "}\n",
      .args = { IN(T_I32, G_RANGE, -100000, 100000), INOUTN(T_I32, 96, G_RANGE, -5, 5) },
      L1(N, 64),
   },
   {
      .name = "a_global_bitwise", .group = "mem",
      .source = "kernel void a_global_bitwise(global const uint *a, global uint *c)\n"
                "{\n" EW
                "   int k = i % 8;\n"
                "   atomic_and(&c[k], a[i] | (1u << (i % 32))); atomic_or(&c[8 + k], a[i] & 0x01010101u);\n"
                "   atomic_xor(&c[16 + k], a[i]);\n"
                "}\n",
      .args = { BITS(T_U32), INOUTN(T_U32, 24, G_BITS, 0, 0) }, L1(N, 64),
   },
   {
      .name = "a_global_inc_dec_xchg", .group = "mem",
      .source = "kernel void a_global_inc_dec_xchg(global const int *a, global int *c,\n"
                "                                    global int *seen, global int *old)\n"
                "{\n" EW
                "   int t = atomic_inc(&c[0]); atomic_dec(&c[1]);\n"
                "   seen[t] = 1; /* every ticket 0..n-1 is handed out once */\n"
                "   old[i] = atomic_xchg(&old[i], a[i]) + 1; /* own slot: deterministic */\n"
                "}\n",
      .args = { BITS(T_I32), INOUTN(T_I32, 2, G_RANGE, 0, 0), OUTN(T_I32, N),
                INOUTN(T_I32, N, G_INDEX, 0, 0) }, L1(N, 64),
   },
   {
      .name = "a_global_cmpxchg_loop", .group = "mem",
      .source = "kernel void a_global_cmpxchg_loop(global const int *a, global int *c)\n"
                "{\n" EW
                "   global int *p = &c[i % 4];\n"
                "   int old = *p, assumed;\n"
                "   do { assumed = old; old = atomic_cmpxchg(p, assumed, assumed + a[i]); }\n"
                "   while (old != assumed);\n"
                "}\n",
      .args = { IN(T_I32, G_RANGE, -1000, 1000), INOUTN(T_I32, 4, G_RANGE, 0, 0) }, L1(N, 64),
   },
   {
      .name = "a_local_histogram", .group = "mem",
      .source = "kernel void a_local_histogram(global const uint *a, global uint *h,\n"
                "                                local uint *bins)\n"
                "{\n"
                "   size_t l = get_local_id(0), g = get_group_id(0);\n"
                "   if (l < 32) bins[l] = 0;\n"
                "   barrier(CLK_LOCAL_MEM_FENCE);\n"
                "   atomic_inc(&bins[a[get_global_id(0)] % 32]);\n"
                "   atomic_add(&bins[(a[get_global_id(0)] >> 8) % 32], 2u);\n"
                "   barrier(CLK_LOCAL_MEM_FENCE);\n"
                "   if (l < 32) h[g * 32 + l] = bins[l];\n"
                "}\n",
      .args = { BITS(T_U32), OUTN(T_U32, 32 * (N / 128)), LOCALN(T_U32, 32) }, L1(N, 128),
   },
   {
      .name = "a_local_minmax_cmpxchg", .group = "mem",
      .source = "kernel void a_local_minmax_cmpxchg(global const int *a, global int *o)\n"
                "{\n"
                "   local int v[4];\n"
                "   size_t l = get_local_id(0), g = get_group_id(0);\n"
                "   int x = a[get_global_id(0)];\n"
                "   if (l == 0) { v[0] = INT_MAX; v[1] = INT_MIN; v[2] = 0; v[3] = 0; }\n"
                "   barrier(CLK_LOCAL_MEM_FENCE);\n"
                "   atomic_min(&v[0], x); atomic_max(&v[1], x); atomic_xor(&v[3], x);\n"
                "   int old = v[2], assumed;\n"
                "   do { assumed = old; old = atomic_cmpxchg(&v[2], assumed, assumed + (x & 0xff)); }\n"
                "   while (old != assumed);\n"
                "   barrier(CLK_LOCAL_MEM_FENCE);\n"
                "   if (l < 4) o[4 * g + l] = v[l];\n"
                "}\n",
      .args = { BITS(T_I32), OUTN(T_I32, 4 * (N / 256)) }, L1(N, 256),
   },
   {
      .name = "b_local_reverse", .group = "mem",
      .source = "kernel void b_local_reverse(global const int *a, global int *o, local int *t)\n"
                "{\n"
                "   size_t l = get_local_id(0), n = get_local_size(0), g = get_global_id(0);\n"
                "   t[l] = a[g];\n"
                "   barrier(CLK_LOCAL_MEM_FENCE);\n"
                "   o[g] = t[n - 1 - l] + t[(l + 1) % n];\n"
                "   barrier(CLK_LOCAL_MEM_FENCE);\n"
                "   t[l] = o[g] * 3;\n"
                "   barrier(CLK_LOCAL_MEM_FENCE);\n"
                "   o[g] += t[(l * 7) % n];\n"
                "}\n",
      .args = { IN(T_I32, G_RANGE, -100000, 100000), OUT(T_I32), LOCALN(T_I32, 256) },
      L1(N, 256), .ref = REF_HOST,
      .host_ref = ref_local_reverse,
      .why_host = "PoCL 3.1 miscomputes this kernel (a global value re-read across barriers)",
   },
   {
      .name = "b_local_scan", .group = "mem",
      .source = "kernel void b_local_scan(global const uint *a, global uint *o)\n"
                "{\n"
                "   local uint t[128];\n"
                "   size_t l = get_local_id(0);\n"
                "   t[l] = a[get_global_id(0)];\n"
                "   for (uint s = 1; s < 128; s <<= 1) {\n"
                "      barrier(CLK_LOCAL_MEM_FENCE);\n"
                "      uint v = l >= s ? t[l - s] : 0;\n"
                "      barrier(CLK_LOCAL_MEM_FENCE);\n"
                "      t[l] += v;\n"
                "   }\n"
                "   o[get_global_id(0)] = t[l];\n"
                "}\n",
      .args = { BITS(T_U32), OUT(T_U32) }, L1(N, 128),
   },
   {
      .name = "b_global_fence", .group = "mem",
      .source = "kernel void b_global_fence(global const int *a, global int *tmp, global int *o)\n"
                "{\n"
                "   size_t g = get_global_id(0), l = get_local_id(0), n = get_local_size(0);\n"
                "   size_t base = g - l;\n"
                "   tmp[g] = a[g] * 2;\n"
                "   barrier(CLK_GLOBAL_MEM_FENCE);\n"
                "   o[g] = tmp[base + (l + 5) % n] - tmp[base + (n - 1 - l)];\n"
                "}\n",
      .args = { IN(T_I32, G_RANGE, -1000000, 1000000), OUT(T_I32), OUT(T_I32) }, L1(N, 64),
   },
   {
      .name = "p_private_array", .group = "mem",
      .source = "kernel void p_private_array(global const int *a, global int *o)\n"
                "{\n" EW
                "   int t[24];\n"
                "   for (int k = 0; k < 24; k++) t[k] = a[(i + k) % 4096] ^ k;\n"
                "   int s = 0;\n"
                "   for (int k = 0; k < 24; k++) s += t[(a[i] + 5 * k) & 15] * (k + 1);\n"
                "   o[i] = s;\n"
                "}\n",
      .args = { IN(T_I32, G_RANGE, 0, 100000), OUT(T_I32) }, L1(N, 64),
   },
   {
      .name = "p_constant_table", .group = "mem",
      .source = "constant int table[16] = { 3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3 };\n"
                "kernel void p_constant_table(global const uint *a, constant float *c,\n"
                "                             global float *o)\n"
                "{\n" EW
                "   o[i] = c[a[i] % 64] * (float)table[a[i] % 16];\n"
                "}\n",
      .args = { BITS(T_U32), INN(T_F32, 64, G_RANGE, -10, 10), OUT(T_F32) }, L1(N, 64),
   },
   {
      .name = "p_scalar_args", .group = "mem",
      .source = "kernel void p_scalar_args(global long *o, char c, uchar uc, short s, long l,\n"
                "                          float f, ulong u, int k)\n"
                "{\n" EW
                "   o[i] = c * (long)i + uc + s * 3 + l + (long)(f * (float)i) + (long)(u >> 3) + k;\n"
                "}\n",
      .args = { OUTN(T_I64, 256), SCAL_I(T_I8, -7), SCAL_I(T_U8, 200), SCAL_I(T_I16, -31000),
                SCAL_I(T_I64, 0x123456789abLL), SCAL_F(T_F32, 1.25), SCAL_I(T_U64, -1),
                SCAL_I(T_I32, -5) }, L1(256, 64),
   },
   {
      .name = "p_byte_stores", .group = "mem",
      .source = "kernel void p_byte_stores(global const uchar *a, global uchar *o, global short *s)\n"
                "{\n" EW
                "   o[i] = a[i] + 1; o[N + (i ^ 1)] = a[i] >> 1;\n"
                "   s[i] = (short)(a[i] * 300);\n"
                "}\n",
      .options = "-DN=4096",
      .args = { BITS(T_U8), OUTN(T_U8, 2 * N), OUT(T_I16) }, L1(N, 64),
   },

   /* ---- launch: dimensions, offsets, group shapes, non-uniform groups ---- */
   {
      .name = "g_2d_ids", .group = "launch",
      .source = "kernel void g_2d_ids(global int *o)\n"
                "{\n"
                "   size_t x = get_global_id(0), y = get_global_id(1);\n"
                "   size_t lin = y * get_global_size(0) + x;\n"
                "   o[4 * lin] = (int)(get_local_id(0) + 100 * get_local_id(1));\n"
                "   o[4 * lin + 1] = (int)(get_group_id(0) + 100 * get_group_id(1));\n"
                "   o[4 * lin + 2] = (int)(get_num_groups(0) * 100 + get_num_groups(1));\n"
                "   o[4 * lin + 3] = (int)(get_work_dim() * 1000 + get_local_size(0) * 10 + get_local_size(1));\n"
                "}\n",
      .args = { OUTN(T_I32, 4 * 64 * 48) }, .dim = 2, .global = { 64, 48 }, .local = { 16, 4 },
   },
   {
      .name = "g_3d_offset_ids", .group = "launch",
      .source = "kernel void g_3d_offset_ids(global int *o)\n"
                "{\n"
                "   size_t x = get_global_id(0) - get_global_offset(0);\n"
                "   size_t y = get_global_id(1) - get_global_offset(1);\n"
                "   size_t z = get_global_id(2) - get_global_offset(2);\n"
                "   size_t lin = (z * get_global_size(1) + y) * get_global_size(0) + x;\n"
                "   o[5 * lin] = (int)(get_global_id(0) + 1000 * get_global_id(1) + 1000000 * get_global_id(2));\n"
                "   o[5 * lin + 1] = (int)(get_local_id(0) + 10 * get_local_id(1) + 100 * get_local_id(2));\n"
                "   o[5 * lin + 2] = (int)(get_group_id(0) + 10 * get_group_id(1) + 100 * get_group_id(2));\n"
                "   o[5 * lin + 3] = (int)(get_global_offset(0) + 10 * get_global_offset(1) + 100 * get_global_offset(2));\n"
                "   o[5 * lin + 4] = (int)(get_num_groups(2) * 100 + get_local_size(2) * 10 + get_work_dim());\n"
                "}\n",
      .args = { OUTN(T_I32, 5 * 16 * 12 * 8) }, .dim = 3, .global = { 16, 12, 8 },
      .local = { 4, 3, 2 }, .offset = { 3, 5, 7 },
   },
   {
      .name = "g_1d_offset", .group = "launch",
      .source = "kernel void g_1d_offset(global const int *a, global int *o)\n"
                "{\n"
                "   size_t i = get_global_id(0);\n"
                "   o[i] = a[i] * 3 + (int)get_group_id(0);\n"
                "}\n",
      .args = { IN(T_I32, G_RANGE, -1000, 1000), OUT(T_I32) }, .dim = 1, .global = { 3072 },
      .local = { 128 }, .offset = { 1024 },
   },
   {
      .name = "g_2d_no_local_size", .group = "launch",
      .source = "kernel void g_2d_no_local_size(global const float *a, global float *o)\n"
                "{\n"
                "   size_t x = get_global_id(0), y = get_global_id(1), w = get_global_size(0);\n"
                "   o[y * w + x] = a[y * w + x] * 2.0f + a[((y + 1) % get_global_size(1)) * w + x];\n"
                "}\n",
      .args = { IN(T_F32, G_RANGE, -100, 100), OUT(T_F32) }, .dim = 2, .global = { 100, 30 },
   },
   {
      .name = "g_3d_transpose", .group = "launch",
      .source = "kernel void g_3d_transpose(global const int *a, global int *o)\n"
                "{\n"
                "   size_t x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);\n"
                "   size_t X = get_global_size(0), Y = get_global_size(1), Z = get_global_size(2);\n"
                "   o[(x * Y + y) * Z + z] = a[(z * Y + y) * X + x] + (int)get_local_id(2);\n"
                "}\n",
      .args = { IN(T_I32, G_BITS, 0, 0), OUT(T_I32) }, .dim = 3, .global = { 32, 8, 16 },
      .local = { 8, 2, 4 },
   },
   {
      .name = "g_nonuniform_1d", .group = "launch",
      .source = "kernel void g_nonuniform_1d(global int *o)\n"
                "{\n"
                "   size_t x = get_global_id(0);\n"
                "   o[8 * x] = (int)x; o[8 * x + 1] = (int)get_local_size(0);\n"
                "   o[8 * x + 2] = (int)get_group_id(0); o[8 * x + 3] = (int)get_enqueued_local_size(0);\n"
                "   o[8 * x + 4] = 0; o[8 * x + 5] = 1; o[8 * x + 6] = 0;\n"
                "   o[8 * x + 7] = (int)get_local_id(0);\n"
                "}\n",
      .hsacl_options = "-cl-std=CL3.0",
      .args = { OUTN(T_I32, 8 * 1000) }, .dim = 1, .global = { 1000 }, .local = { 64 },
      .ref = REF_HOST, .host_ref = ref_nonuniform,
      .why_host = "PoCL 3.1 reports no non-uniform work-group support (OpenCL C 1.2 only)",
   },
   {
      .name = "g_nonuniform_2d", .group = "launch",
      .source = "kernel void g_nonuniform_2d(global int *o)\n"
                "{\n"
                "   size_t x = get_global_id(0), y = get_global_id(1);\n"
                "   size_t lin = y * get_global_size(0) + x;\n"
                "   o[8 * lin] = (int)x; o[8 * lin + 1] = (int)get_local_size(0);\n"
                "   o[8 * lin + 2] = (int)get_group_id(0); o[8 * lin + 3] = (int)get_enqueued_local_size(0);\n"
                "   o[8 * lin + 4] = (int)y; o[8 * lin + 5] = (int)get_local_size(1);\n"
                "   o[8 * lin + 6] = (int)get_group_id(1);\n"
                "   o[8 * lin + 7] = (int)(get_local_id(0) + 100 * get_local_id(1));\n"
                "}\n",
      .hsacl_options = "-cl-std=CL3.0",
      .args = { OUTN(T_I32, 8 * 70 * 45) }, .dim = 2, .global = { 70, 45 }, .local = { 16, 8 },
      .ref = REF_HOST, .host_ref = ref_nonuniform,
      .why_host = "PoCL 3.1 reports no non-uniform work-group support (OpenCL C 1.2 only)",
   },
   {
      .name = "g_nonuniform_linear_id", .group = "launch",
      .source = "kernel void g_nonuniform_linear_id(global int *o)\n"
                "{\n"
                "   size_t lin = get_global_id(1) * get_global_size(0) + get_global_id(0);\n"
                "   o[lin] = (int)get_local_linear_id();\n"
                "}\n",
      .hsacl_options = "-cl-std=CL3.0",
      .args = { OUTN(T_I32, 70 * 45) }, .dim = 2, .global = { 70, 45 }, .local = { 16, 8 },
      .ref = REF_HOST, .host_ref = ref_linear_id,
      .why_host = "PoCL 3.1 reports no non-uniform work-group support (OpenCL C 1.2 only)",
   },

   /* ---- fp64 and 64-bit atomics: optional extensions (run only where listed) ---- */
   {
      .name = "d_arith", .group = "fp64", .requires = "cl_khr_fp64",
      .source = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
                "kernel void d_arith(global const double *a, global const double *b, global double *o)\n"
                "{\n" EW
                "   o[6 * i] = a[i] + b[i]; o[6 * i + 1] = a[i] * b[i]; o[6 * i + 2] = a[i] / b[i];\n"
                "   o[6 * i + 3] = sqrt(fabs(a[i])); o[6 * i + 4] = fma(a[i], b[i], 1.0);\n"
                "   o[6 * i + 5] = floor(a[i]) + rint(b[i]);\n"
                "}\n",
      .args = { IN(T_F64, G_RANGE, -1e6, 1e6), IN(T_F64, G_NONZERO, -1e3, 1e3),
                OUTN(T_F64, 6 * N) }, L1(N, 64),
   },
   {
      .name = "d_sin", .group = "fp64", .requires = "cl_khr_fp64",
      .source = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
                "kernel void d_sin(global const double *a, global double *o)\n"
                "{ size_t i = get_global_id(0); o[i] = sin(a[i]); }\n",
      .args = { IN(T_F64, G_RANGE, -100, 100), OUT(T_F64) }, L1(N, 64), .ulp = 4, .math1 = sin,
   },
   {
      .name = "d_exp_log", .group = "fp64", .requires = "cl_khr_fp64",
      .source = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
                "kernel void d_exp_log(global const double *a, global double *o)\n"
                "{\n" EW "   o[2 * i] = exp(a[i]); o[2 * i + 1] = log(fabs(a[i]) + 1e-3);\n}\n",
      .args = { IN(T_F64, G_RANGE, -500, 500), OUTN(T_F64, 2 * N) }, L1(N, 64), .ulp = 3,
   },
   {
      .name = "d_convert", .group = "fp64", .requires = "cl_khr_fp64",
      .source = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
                "kernel void d_convert(global const double *a, global const long *b, global long *o,\n"
                "                      global float *f, global double *d)\n"
                "{\n" EW
                "   o[2 * i] = convert_long_sat(a[i] * 1e15); o[2 * i + 1] = convert_int_rte(a[i]);\n"
                "   f[i] = convert_float(a[i]); d[i] = convert_double(b[i]);\n"
                "}\n",
      .args = { IN(T_F64, G_RANGE, -1e6, 1e6), BITS(T_I64), OUTN(T_I64, 2 * N), OUT(T_F32),
                OUT(T_F64) }, L1(N, 64),
   },
   {
      .name = "a_int64_atomics", .group = "fp64", .requires = "cl_khr_int64_base_atomics",
      .source = "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n"
                "kernel void a_int64_atomics(global const long *a, global long *c)\n"
                "{\n" EW "   atom_add(&c[i % 8], a[i]); atom_inc(&c[8]);\n}\n",
      .args = { IN(T_I64, G_RANGE, -1e12, 1e12), INOUTN(T_I64, 9, G_RANGE, 0, 0) }, L1(N, 64),
   },
};

const size_t diff_corpus_count = sizeof(diff_corpus) / sizeof(diff_corpus[0]);

const struct diff_known_failure diff_known_failures[] = {
   { NULL, NULL },
};
