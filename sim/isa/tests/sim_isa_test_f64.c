/*
 * The double-precision forms the translator lowers (sim_xlate_f64.c) over 64 lanes of edge
 * values, against C references of the handlers' rules: sums, products and fused
 * multiply-adds rounded once (NaN: the first NaN source quieted, else the default NaN),
 * min/max in and out of IEEE mode, the roundings, every compare, the conversions to and
 * from i32/u32/f32 (saturating, NaN 0), abs/neg, SGPR pairs and inline constants, under a
 * partial EXEC and into a pair overlapping its source. In sim_xlate_check_unit the blocks
 * also run translated, compared with the interpreter.
 */
#include <float.h>
#include <math.h>
#include <string.h>
#include "sim_isa_test.h"

static double
d_of(uint64_t u)
{
   double d;
   memcpy(&d, &u, 8);
   return d;
}
static uint64_t
u_of(double d)
{
   uint64_t u;
   memcpy(&u, &d, 8);
   return u;
}
static bool
is_nan(uint64_t u)
{
   return (u & ~(1ull << 63)) > 0x7FF0000000000000ull;
}

/* sim__nanfix64: r, or the first NaN source with the quiet bit, or the default NaN. */
static uint64_t
nanfix(double r, uint64_t a, uint64_t b, uint64_t c, unsigned n)
{
   if (r == r)
      return u_of(r);
   uint64_t s[3] = {a, b, c};
   for (unsigned i = 0; i < n; i++)
      if (is_nan(s[i]))
         return s[i] | 1ull << 51;
   return 0x7FF8000000000000ull;
}

static uint64_t
minmax(uint64_t a, uint64_t b, bool max, bool ieee)
{
   bool na = is_nan(a), nb = is_nan(b);
   if (na || nb) {
      if (ieee && na && !(a & 1ull << 51))
         return a | 1ull << 51;
      if (ieee && nb && !(b & 1ull << 51))
         return b | 1ull << 51;
      return na ? b : a;
   }
   double x = d_of(a), y = d_of(b);
   if (x == y)
      return max ? a & b : a | b;
   return (max ? x > y : x < y) ? a : b;
}

static uint32_t
cvt_i32(uint64_t u, bool sgn)
{
   double d = d_of(u);
   if (d != d)
      return 0;
   if (sgn)
      return d >= 2147483647.0 ? 0x7FFFFFFFu : d <= -2147483648.0 ? 0x80000000u
                                                                  : (uint32_t)(int32_t)d;
   return d >= 4294967295.0 ? 0xFFFFFFFFu : d <= 0.0 ? 0 : (uint32_t)d;
}

static const uint64_t vals[] = {
   0x0000000000000000ull, 0x8000000000000000ull, 0x0000000000000001ull, 0x800FFFFFFFFFFFFFull,
   0x3FF0000000000000ull, 0xBFF8000000000000ull, 0x7FF0000000000000ull, 0xFFF0000000000000ull,
   0x7FF8000000000000ull, 0xFFF0000000000123ull, 0x7FF4000000000000ull, 0x41E0000000000000ull,
   0xC1E0000000200000ull, 0x41EFFFFFFFE00000ull, 0x3FE0000000000000ull, 0x4330000000000001ull,
   0x7FEFFFFFFFFFFFFFull, 0x3CB0000000000000ull, 0x47EFFFFFE0000000ull, 0xC00921FB54442D18ull};
#define NV (sizeof(vals) / sizeof(vals[0]))

static uint64_t
lane_val(unsigned l, unsigned k)
{
   return vals[(l * (2 * k + 1) + k * 7 + l / NV) % NV];
}
static uint64_t
pair(sim_wave *w, unsigned r, unsigned l)
{
   return w->v[r][l] | (uint64_t)w->v[r + 1][l] << 32;
}

TEST(lowered_f64_forms)
{
   for (int ieee = 1; ieee >= 0; ieee--) {
      sim_wave *w = t_wave();
      w->ieee = (uint8_t)ieee;
      for (unsigned l = 0; l < 64; l++) {
         for (unsigned k = 0; k < 3; k++) {
            uint64_t v = lane_val(l, k);
            w->v[2 * k][l] = (uint32_t)v, w->v[2 * k + 1][l] = (uint32_t)(v >> 32);
         }
         w->v[6][l] = (uint32_t)(l * 0x9E3779B9u);
         w->v[7][l] =
            (uint32_t)vals[l % NV] ^ (l & 1 ? 0 : 0x80000000u) ^ (uint32_t)(vals[l % NV] >> 32);
         for (unsigned r = 8; r < 60; r++)
            w->v[r][l] = 0xDEADBEEF;
         w->v[60][l] = w->v[0][l], w->v[61][l] = w->v[1][l], w->v[62][l] = 0xDEADBEEF;
      }
      w->s[10] = 0x00000000, w->s[11] = 0x40000000; /* 2.0 */
      uint64_t exec = 0xFFFF00FF0F0FFFF7ull;
      SIM_EXEC(w) = exec;
      CHECK_EQ(t_run(w, "v_add_f64 v[8:9], v[0:1], v[2:3]\n"
                        "v_mul_f64 v[10:11], v[0:1], v[2:3]\n"
                        "v_fma_f64 v[12:13], v[0:1], v[2:3], v[4:5]\n"
                        "v_add_f64 v[14:15], -v[0:1], |v[2:3]|\n"
                        "v_mul_f64 v[16:17], s[10:11], v[2:3]\n"
                        "v_fma_f64 v[18:19], v[0:1], 0.5, -1.0\n"
                        "v_min_f64 v[20:21], v[0:1], v[2:3]\n"
                        "v_max_f64 v[22:23], v[0:1], v[2:3]\n"
                        "v_trunc_f64 v[24:25], v[0:1]\n"
                        "v_floor_f64 v[26:27], v[2:3]\n"
                        "v_ceil_f64 v[28:29], v[4:5]\n"
                        "v_rndne_f64 v[30:31], v[0:1]\n"
                        "v_cvt_i32_f64 v32, v[0:1]\n"
                        "v_cvt_u32_f64 v33, v[2:3]\n"
                        "v_cvt_f32_f64 v34, v[4:5]\n"
                        "v_cvt_f64_i32 v[36:37], v6\n"
                        "v_cvt_f64_u32 v[38:39], v6\n"
                        "v_cvt_f64_f32 v[40:41], v7\n"
                        "v_mul_f64 v[42:43], v[0:1], 1\n"
                        "v_add_f64 v[61:62], v[60:61], v[2:3]\n"
                        "v_cmp_lt_f64 vcc, v[0:1], v[2:3]\n"
                        "s_mov_b64 s[20:21], vcc\n"
                        "v_cmp_nge_f64_e64 s[22:23], v[0:1], v[2:3]\n"
                        "v_cmp_lg_f64_e64 s[24:25], v[0:1], v[2:3]\n"
                        "v_cmp_u_f64_e64 s[26:27], v[0:1], v[2:3]\n"
                        "v_cmp_eq_f64_e64 s[28:29], 0, v[0:1]\n"
                        "v_cmp_nlt_f64_e64 s[30:31], -v[0:1], s[10:11]\n"
                        "v_cmpx_ge_f64 vcc, v[0:1], v[2:3]\n"
                        "v_mov_b32 v44, 5"),
               SIM_FAULT_NONE);
      unsigned bad = 0;
      uint64_t m[6] = {0, 0, 0, 0, 0, 0}, x = 0;
      for (unsigned l = 0; l < 64; l++) {
         uint64_t a = lane_val(l, 0), b = lane_val(l, 1), c = lane_val(l, 2), bit = 1ull << l;
         double da = d_of(a), db = d_of(b), dc = d_of(c);
         if (!(exec & bit)) {
            for (unsigned r = 8; r < 45; r++)
               bad += w->v[r][l] != 0xDEADBEEF;
            bad += w->v[61][l] != (uint32_t)(a >> 32) || w->v[62][l] != 0xDEADBEEF;
            continue;
         }
         uint64_t na = a ^ 1ull << 63, ab = b & ~(1ull << 63);
         bad += pair(w, 8, l) != nanfix(da + db, a, b, 0, 2);
         bad += pair(w, 10, l) != nanfix(da * db, a, b, 0, 2);
         bad += pair(w, 12, l) != nanfix(fma(da, db, dc), a, b, c, 3);
         bad += pair(w, 14, l) != nanfix(d_of(na) + d_of(ab), na, ab, 0, 2);
         bad += pair(w, 16, l) != nanfix(2.0 * db, u_of(2.0), b, 0, 2);
         bad += pair(w, 18, l) != nanfix(fma(da, 0.5, -1.0), a, u_of(0.5), u_of(-1.0), 3);
         bad += pair(w, 20, l) != minmax(a, b, false, ieee);
         bad += pair(w, 22, l) != minmax(a, b, true, ieee);
         bad += pair(w, 24, l) != nanfix(trunc(da), a, 0, 0, 1);
         bad += pair(w, 26, l) != nanfix(floor(db), b, 0, 0, 1);
         bad += pair(w, 28, l) != nanfix(ceil(dc), c, 0, 0, 1);
         bad += pair(w, 30, l) != nanfix(nearbyint(da), a, 0, 0, 1);
         bad += w->v[32][l] != cvt_i32(a, true);
         bad += w->v[33][l] != cvt_i32(b, false);
         float f = (float)dc;
         uint32_t fu;
         memcpy(&fu, &f, 4);
         bad += w->v[34][l] != fu;
         bad += pair(w, 36, l) != u_of((double)(int32_t)w->v[6][l]);
         bad += pair(w, 38, l) != u_of((double)w->v[6][l]);
         float g;
         memcpy(&g, &w->v[7][l], 4);
         bad += pair(w, 40, l) != u_of((double)g);
         bad += pair(w, 42, l) != nanfix(da * d_of(1), a, 1, 0, 2);
         bad += w->v[60][l] != (uint32_t)a;
         bad += pair(w, 61, l) != nanfix(da + db, a, b, 0, 2);
         m[0] |= da < db ? bit : 0;
         m[1] |= !(da >= db) ? bit : 0;
         m[2] |= (da < db || da > db) ? bit : 0;
         m[3] |= (da != da || db != db) ? bit : 0;
         m[4] |= da == 0.0 ? bit : 0;
         m[5] |= !(-da < 2.0) ? bit : 0;
         x |= da >= db ? bit : 0;
      }
      CHECK_EQ(bad, 0);
      for (unsigned i = 0; i < 6; i++)
         CHECK_EQ(w->s64[10 + i], m[i]);
      CHECK_EQ(SIM_EXEC(w), x);
      for (unsigned l = 0; l < 64; l++)
         CHECK_EQ(w->v[44][l], (x >> l) & 1 ? 5u : 0xDEADBEEFu);
   }
}



/* The f64 forms in a run in pieces (sim_xlate.c emit_pieces): eleven VGPR pairs, so pieces
 * of 8 lanes, EXEC different in every piece, worked out with the host's doubles (fma, the
 * products and sums each rounded once, as the handlers compute them). */
TEST(lowered_f64_pieces)
{
   sim_wave *w = t_wave();
   uint64_t exec = 0xFFFF00017FFE0F0Full;
   for (unsigned l = 0; l < 64; l++) {
      double s[3] = {1.0 + l / 3.0, 0.75 - l / 7.0, l * 1.5 - 20.0};
      for (unsigned i = 0; i < 3; i++)
         w->v[2 + 2 * i][l] = (uint32_t)u_of(s[i]), w->v[3 + 2 * i][l] = (uint32_t)(u_of(s[i]) >> 32);
      for (unsigned r = 8; r <= 23; r++)
         w->v[r][l] = 0xF00D0000u + r * 256 + l;
   }
   SIM_EXEC(w) = exec;
   CHECK_EQ(t_run(w, "v_fma_f64 v[8:9], v[2:3], v[4:5], v[6:7]\n"
                     "v_mul_f64 v[10:11], v[8:9], v[4:5]\n"
                     "v_add_f64 v[12:13], v[10:11], v[2:3]\n"
                     "v_fma_f64 v[14:15], v[12:13], v[6:7], v[8:9]\n"
                     "v_max_f64 v[16:17], v[14:15], v[10:11]\n"
                     "v_add_f64 v[18:19], v[16:17], -v[12:13]\n"
                     "v_mul_f64 v[20:21], v[18:19], v[2:3]\n"
                     "v_floor_f64 v[22:23], v[20:21]\n"),
            SIM_FAULT_NONE);
   for (unsigned l = 0; l < 64; l++) {
      double a = 1.0 + l / 3.0, b = 0.75 - l / 7.0, c = l * 1.5 - 20.0, want[24];
      want[8] = fma(a, b, c);
      want[10] = want[8] * b;
      want[12] = want[10] + a;
      want[14] = fma(want[12], c, want[8]);
      want[16] = fmax(want[14], want[10]);
      want[18] = want[16] - want[12];
      want[20] = want[18] * a;
      want[22] = floor(want[20]);
      bool on = (exec >> l) & 1;
      for (unsigned r = 8; r <= 22; r += 2) {
         uint64_t got = w->v[r][l] | (uint64_t)w->v[r + 1][l] << 32;
         uint64_t exp = on ? u_of(want[r])
                           : (0xF00D0000u + r * 256 + l) |
                                (uint64_t)(0xF00D0000u + (r + 1) * 256 + l) << 32;
         if (got != exp) {
            fprintf(stderr, "FAIL %s: v[%u:%u] lane %u = 0x%llx, want 0x%llx\n", t_current, r,
                    r + 1, l, (unsigned long long)got, (unsigned long long)exp);
            t_failures++;
         }
      }
   }
}

/* v_ldexp_f64, lowered (sim_xlate_f64.c emit_ldexp): C's ldexp over the edge values with
 * exponents that keep the result normal, round it once to a subnormal (ties to even),
 * overflow it, and (in the second and third runs) lie just past [-1022, 1023] in one lane,
 * which takes the handler on the block's other path; NaNs quieted; abs/neg; a partial
 * EXEC; an SGPR and an inline-constant exponent. In sim_xlate_check_unit the blocks also
 * run translated. */
static void
ldexp_case(int wild)
{
   static const int32_t ex[] = {0, 1, -1, 52, -52, 1023, -1022, 1000, -1000, -30, 7, -1021};
   /* One lane past the range's top (wild 1: lane 9's 0.5 scaled to 2^1023) or bottom
    * (wild 2: lane 37's -pi to a subnormal): the handler's path. */
   sim_wave *w = t_wave();
   for (unsigned l = 0; l < 64; l++) {
      uint64_t v = lane_val(l, 1);
      w->v[0][l] = (uint32_t)v, w->v[1][l] = (uint32_t)(v >> 32);
      w->v[2][l] = (uint32_t)(wild == 1 && l == 9    ? 1024
                              : wild == 2 && l == 37 ? -1023
                                                     : ex[(l * 5) % 12]);
      for (unsigned r = 4; r < 12; r++)
         w->v[r][l] = 0xDEADBEEF;
   }
   w->s[4] = (uint32_t)-1074;
   uint64_t exec = 0xFFFFFFF3FF7FFFFEull;
   SIM_EXEC(w) = exec;
   CHECK_EQ(t_run(w, "v_ldexp_f64 v[4:5], v[0:1], v2\n"
                     "v_ldexp_f64 v[6:7], -|v[0:1]|, v2\n"
                     "v_ldexp_f64 v[8:9], v[0:1], s4\n"
                     "v_ldexp_f64 v[10:11], v[0:1], 3"),
            SIM_FAULT_NONE);
   unsigned bad = 0;
   for (unsigned l = 0; l < 64; l++) {
      uint64_t a = lane_val(l, 1), na = a | 1ull << 63;
      int32_t n = (int32_t)w->v[2][l];
      uint64_t want[4] = {nanfix(ldexp(d_of(a), n), a, 0, 0, 1),
                          nanfix(ldexp(d_of(na), n), na, 0, 0, 1),
                          nanfix(ldexp(d_of(a), -1074), a, 0, 0, 1),
                          nanfix(ldexp(d_of(a), 3), a, 0, 0, 1)};
      for (unsigned k = 0; k < 4; k++) {
         uint64_t got = pair(w, 4 + 2 * k, l);
         bad += (exec >> l) & 1 ? got != want[k] : got != 0xDEADBEEFDEADBEEFull;
      }
   }
   CHECK_EQ(bad, 0);
}

TEST(lowered_ldexp_f64)
{
   ldexp_case(0);
   ldexp_case(1);
   ldexp_case(2);
}

/* v_frexp_mant_f64 and v_frexp_exp_i32_f64 against C's frexp over the edge values (zeros,
 * subnormals, infinities, NaNs, normals from the smallest to the largest), plain and
 * -|S0|, under a partial EXEC: the handlers read a normal value's exponent field and leave
 * the others to libm. */
TEST(frexp_f64)
{
   sim_wave *w = t_wave();
   for (unsigned l = 0; l < 64; l++) {
      uint64_t v = lane_val(l, 2);
      w->v[0][l] = (uint32_t)v, w->v[1][l] = (uint32_t)(v >> 32);
      for (unsigned r = 4; r < 10; r++)
         w->v[r][l] = 0xDEADBEEF;
   }
   uint64_t exec = 0xFFFF7FFFFFFFFFFDull;
   SIM_EXEC(w) = exec;
   CHECK_EQ(t_run(w, "v_frexp_mant_f64 v[4:5], v[0:1]\n"
                     "v_frexp_mant_f64_e64 v[6:7], -|v[0:1]|\n"
                     "v_frexp_exp_i32_f64 v8, v[0:1]\n"
                     "v_frexp_exp_i32_f64_e64 v9, -|v[0:1]|"),
            SIM_FAULT_NONE);
   unsigned bad = 0;
   for (unsigned l = 0; l < 64; l++) {
      uint64_t a = lane_val(l, 2), na = a | 1ull << 63;
      int e = 0, ne = 0;
      double m = isfinite(d_of(a)) ? frexp(d_of(a), &e) : d_of(a);
      double nm = isfinite(d_of(na)) ? frexp(d_of(na), &ne) : d_of(na);
      bool on = (exec >> l) & 1;
      bad += pair(w, 4, l) != (on ? nanfix(m, a, 0, 0, 1) : 0xDEADBEEFDEADBEEFull);
      bad += pair(w, 6, l) != (on ? nanfix(nm, na, 0, 0, 1) : 0xDEADBEEFDEADBEEFull);
      bad += w->v[8][l] != (on ? (uint32_t)e : 0xDEADBEEFu);
      bad += w->v[9][l] != (on ? (uint32_t)ne : 0xDEADBEEFu);
   }
   CHECK_EQ(bad, 0);
}

/* v_ldexp_f64 and v_ldexp_f32 where the result's exponent field leaves the normal range by
 * one step either way (the handlers move a normal value's field themselves and leave the
 * rest to libm): a result at the field's 0 (a subnormal) and at its top (an infinity), the
 * largest and smallest normal results, subnormal sources scaled to normal ones, signed
 * zeros, infinities, NaNs and exponents at +-2^31. */
TEST(ldexp_edges)
{
   static const struct {
      double a;
      int32_t k;
   } c[] = {{1.0, -1023}, {1.0, -1022}, {1.0, 1023},     {1.0, 1024},      {1.5, -1074},
            {DBL_MAX, 1}, {DBL_MIN, -1}, {0x1p-1074, 1074}, {-0.0, 5},       {0.0, -5},
            {INFINITY, -3000}, {NAN, 3}, {-3.0, INT32_MIN}, {2.0, INT32_MAX}, {0.75, -1021},
            {-1.75, 1022}};
   static const struct {
      float a;
      int32_t k;
   } f[] = {{1.0f, -127}, {1.0f, -126}, {1.0f, 127},     {1.0f, 128},      {1.5f, -149},
            {FLT_MAX, 1}, {FLT_MIN, -1}, {0x1p-149f, 149}, {-0.0f, 5},       {0.0f, -5},
            {INFINITY, -300}, {NAN, 3},  {-3.0f, INT32_MIN}, {2.0f, INT32_MAX}, {0.75f, -125},
            {-1.75f, 126}};
   enum { N = sizeof(c) / sizeof(c[0]) };
   _Static_assert(sizeof(f) / sizeof(f[0]) == N, "as many f32 cases");
   sim_wave *w = t_wave();
   for (unsigned l = 0; l < 64; l++) {
      uint64_t a = u_of(c[l % N].a);
      w->v[0][l] = (uint32_t)a, w->v[1][l] = (uint32_t)(a >> 32);
      w->v[2][l] = (uint32_t)c[l % N].k;
      memcpy(&w->v[3][l], &f[l % N].a, 4);
      w->v[4][l] = (uint32_t)f[l % N].k;
   }
   SIM_EXEC(w) = ~0ull;
   CHECK_EQ(t_run(w, "v_ldexp_f64 v[6:7], v[0:1], v2\n"
                     "v_ldexp_f32 v8, v3, v4"),
            SIM_FAULT_NONE);
   unsigned bad = 0;
   for (unsigned l = 0; l < 64; l++) {
      uint64_t a = u_of(c[l % N].a);
      bad += pair(w, 6, l) != nanfix(ldexp(c[l % N].a, c[l % N].k), a, 0, 0, 1);
      float r = ldexpf(f[l % N].a, f[l % N].k);
      uint32_t want, fa;
      memcpy(&want, &r, 4), memcpy(&fa, &f[l % N].a, 4);
      bad += w->v[8][l] != (r != r ? fa | 0x400000u : want);
   }
   CHECK_EQ(bad, 0);
}

void
t_f64_tests(void)
{
   RUN(ldexp_edges);
   RUN(lowered_f64_forms);
   RUN(lowered_ldexp_f64);
   RUN(lowered_f64_pieces);
   RUN(frexp_f64);
}
