/*
 * NaN results of the VALU float instructions. The host's SSE arithmetic answers an invalid
 * operation with its "real indefinite" 0xFFC00000 (sign set); the GPU returns the default
 * NaN with the sign clear (0x7FC00000, 0x7FF8000000000000, 0x7E00), and for NaN sources the
 * first NaN source in operand order (S0, S1, S2), quieted, sign and payload kept (AMD's
 * "Vega" ISA guide, MODE.IEEE: "will quiet and propagate signaling-NaN inputs"). Each case
 * runs in its own lane; the expected bits are worked out by hand.
 *
 * f32 patterns: 1.0 0x3F800000, -1.0 0xBF800000, +inf 0x7F800000, -inf 0xFF800000,
 * qNaN 0x7FC00000, sNaN with payload 0x7F812345 (quieted: 0x7FC12345).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "sim_isa_test.h"

#define ONE 0x3F800000u
#define MONE 0xBF800000u
#define INF 0x7F800000u
#define NINF 0xFF800000u
#define DNAN 0x7FC00000u

typedef struct {
   uint32_t a, b, c, want;
} case32;

typedef struct {
   uint64_t a, b, c, want;
} case64;

/* Runs `src` (reading v1, v2, v3, writing v4) with case l in lane l; v4 starts at 0. Then
 * again with only the case lanes in EXEC, the other lanes' sources a signalling NaN, a
 * subnormal and -inf and their v4 a marker: the active lanes get the same results (the NaN
 * rule is applied per written lane, whatever the inactive lanes hold) and the inactive
 * ones keep the marker. */
static void
lanes32_mode(const char *src, const case32 *k, unsigned n, bool dx10_clamp)
{
   for (int partial = 0; partial < 2; partial++) {
      sim_wave *w = t_wave();
      w->dx10_clamp = dx10_clamp;
      if (partial) {
         SIM_EXEC(w) = (1ull << n) - 1;
         for (unsigned l = n; l < 64; l++) {
            w->v[1][l] = 0x7F812345u;
            w->v[2][l] = 0x00000001u;
            w->v[3][l] = NINF;
            w->v[4][l] = 0xDEADBEEFu;
         }
      }
      for (unsigned l = 0; l < n; l++) {
         w->v[1][l] = k[l].a;
         w->v[2][l] = k[l].b;
         w->v[3][l] = k[l].c;
      }
      if (t_run(w, src) != SIM_FAULT_NONE) {
         fprintf(stderr, "FAIL %s: %s: fault\n", t_current, src);
         t_failures++;
         return;
      }
      for (unsigned l = 0; l < n; l++) {
         if (w->v[4][l] != k[l].want) {
            fprintf(stderr, "FAIL %s: %s%s, lane %u (0x%x, 0x%x, 0x%x) = 0x%x, want 0x%x\n",
                    t_current, src, partial ? " (partial EXEC)" : "", l, k[l].a, k[l].b,
                    k[l].c, w->v[4][l], k[l].want);
            t_failures++;
         }
      }
      for (unsigned l = n; partial && l < 64; l++) {
         if (w->v[4][l] != 0xDEADBEEFu) {
            fprintf(stderr, "FAIL %s: %s (partial EXEC): inactive lane %u written: 0x%x\n",
                    t_current, src, l, w->v[4][l]);
            t_failures++;
         }
      }
   }
}

static void
lanes32(const char *src, const case32 *k, unsigned n)
{
   lanes32_mode(src, k, n, true);
}

/* As lanes32 on VGPR pairs: sources v[2:3], v[4:5], v[6:7], result v[8:9]. */
static void
lanes64(const char *src, const case64 *k, unsigned n)
{
   sim_wave *w = t_wave();
   for (unsigned l = 0; l < n; l++) {
      const uint64_t s[3] = { k[l].a, k[l].b, k[l].c };
      for (unsigned i = 0; i < 3; i++) {
         w->v[2 + 2 * i][l] = (uint32_t)s[i];
         w->v[3 + 2 * i][l] = (uint32_t)(s[i] >> 32);
      }
   }
   if (t_run(w, src) != SIM_FAULT_NONE) {
      fprintf(stderr, "FAIL %s: %s: fault\n", t_current, src);
      t_failures++;
      return;
   }
   for (unsigned l = 0; l < n; l++) {
      uint64_t got = w->v[8][l] | (uint64_t)w->v[9][l] << 32;
      if (got != k[l].want) {
         fprintf(stderr, "FAIL %s: %s, lane %u = 0x%llx, want 0x%llx\n", t_current, src, l,
                 (unsigned long long)got, (unsigned long long)k[l].want);
         t_failures++;
      }
   }
}

#define N(k) (sizeof(k) / sizeof((k)[0]))

/* Invalid operations without a NaN source give +NaN 0x7FC00000: inf - inf, 0 * inf,
 * fma(0, inf, 1), sqrt/rsq/log of -1, sin/cos of inf, fract of inf (inf - floor(inf)). */
TEST(f32_invalid)
{
   static const case32 add[] = {
      { INF, NINF, 0, DNAN },
      { NINF, INF, 0, DNAN },
      { ONE, 0x40000000, 0, 0x40400000 }, /* 1 + 2 = 3: unchanged */
   };
   lanes32("v_add_f32 v4, v1, v2", add, N(add));
   static const case32 sub[] = { { INF, INF, 0, DNAN }, { NINF, NINF, 0, DNAN } };
   lanes32("v_sub_f32 v4, v1, v2", sub, N(sub));
   lanes32("v_subrev_f32 v4, v1, v2", sub, N(sub));
   static const case32 mul[] = {
      { 0, INF, 0, DNAN },
      { NINF, 0x80000000, 0, DNAN },
      { MONE, 0x40000000, 0, 0xC0000000 }, /* -1 * 2 = -2 */
   };
   lanes32("v_mul_f32 v4, v1, v2", mul, N(mul));
   static const case32 fma[] = {
      { 0, INF, ONE, DNAN },
      { ONE, INF, NINF, DNAN },
      { 0x80000000, NINF, ONE, DNAN },
      { ONE, 0x40000000, ONE, 0x40400000 }, /* 1 * 2 + 1 = 3 */
   };
   lanes32("v_fma_f32 v4, v1, v2, v3", fma, N(fma));
   lanes32("v_mad_f32 v4, v1, v2, v3", fma, N(fma));
   lanes32("v_mov_b32 v4, v3\n v_fmac_f32 v4, v1, v2", fma, N(fma));
   lanes32("v_mov_b32 v4, v3\n v_mac_f32 v4, v1, v2", fma, N(fma));
   lanes32("v_fma_mix_f32 v4, v1, v2, v3", fma, N(fma));
   /* V_DIV_FMAS_F32 without VCC is the plain fma. */
   lanes32("s_mov_b64 vcc, 0\n v_div_fmas_f32 v4, v1, v2, v3", fma, N(fma));
   static const case32 madmk[] = { { 0, INF, 0, DNAN }, { INF, NINF, 0, DNAN } };
   lanes32("v_madak_f32 v4, v1, v2, 0x7f800000", madmk, N(madmk)); /* 0*inf+inf, inf*-inf+inf */
   static const case32 one_minus[] = {
      { MONE, 0, 0, DNAN },
      { NINF, 0, 0, DNAN },
      { 0x40800000, 0, 0, 0x40000000 }, /* sqrt(4) = 2 */
   };
   lanes32("v_sqrt_f32 v4, v1", one_minus, 2);
   lanes32("v_sqrt_f32 v4, v1", one_minus + 2, 1);
   lanes32("v_rsq_f32 v4, v1", one_minus, 2);
   lanes32("v_log_f32 v4, v1", one_minus, 2);
   lanes32("v_log_legacy_f32 v4, v1", one_minus, 2);
   static const case32 trig[] = { { INF, 0, 0, DNAN }, { NINF, 0, 0, DNAN } };
   lanes32("v_sin_f32 v4, v1", trig, N(trig));
   lanes32("v_cos_f32 v4, v1", trig, N(trig));
   lanes32("v_fract_f32 v4, v1", trig, N(trig));
}

/* NaN sources: the first NaN in operand order, quieted, sign and payload kept, whatever
 * the operation's arithmetic order (V_SUBREV computes S1 - S0). */
/* Runs of f32 arithmetic (the translator tests their NaN results once a run and, when one
 * is NaN, runs them again with the NaN rule at each instruction): an invalid operation
 * early in a run propagated, a NaN source picked by operand order after a NaN result
 * (where the host's own NaN propagation may pick the other), a NaN in a result the run
 * overwrites (no effect). */
TEST(f32_nan_run)
{
   static const case32 sub_add[] = {
      { INF, INF, ONE, DNAN },
      { NINF, NINF, ONE, DNAN },
      { ONE, ONE, 0x40000000, 0x40000000 },
      { 0x7F800123, ONE, ONE, 0x7FC00123 },
   };
   lanes32("v_sub_f32 v5, v1, v2\n v_add_f32 v4, v5, v3", sub_add, N(sub_add));
   static const case32 mul_fma[] = {
      { 0, INF, ONE, DNAN },
      { ONE, 0x40000000, ONE, 0x40400000 },
      { ONE, ONE, INF, INF },
   };
   lanes32("v_mul_f32 v5, v1, v2\n v_mul_f32 v6, v3, v3\n v_fma_f32 v4, v5, v6, v3",
           mul_fma, N(mul_fma));
   static const case32 dead[] = { { INF, INF, ONE, 0x40400000 } };
   lanes32("v_sub_f32 v5, v1, v2\n v_add_f32 v5, v3, v3\n v_add_f32 v4, v5, v3", dead, N(dead));
   static const case32 order[] = {
      { ONE, ONE, 0x7FC00042, 0x7FC00042 },
      { 0x7FC00001, ONE, 0x7FC00002, 0x7FC00002 },
      { 0x7F800001, ONE, 0xFFC00003, 0xFFC00003 },
   };
   lanes32("v_add_f32 v5, v1, v2\n v_add_f32 v4, v3, v5", order, N(order));
   lanes32("v_add_f32 v5, v1, v2\n v_mul_f32 v4, v5, v3", (const case32[]){
              { 0x7FC00001, ONE, 0x7FC00002, 0x7FC00001 } }, 1);
}

TEST(f32_propagate)
{
   static const case32 two[] = {
      { 0xFF800001, ONE, 0, 0xFFC00001 },        /* -sNaN quieted, sign kept */
      { ONE, 0x7F812345, 0, 0x7FC12345 },        /* sNaN in S1, payload kept */
      { 0x7FC00001, 0xFFC00002, 0, 0x7FC00001 }, /* both: S0 */
      { 0xFFC00002, 0x7F800001, 0, 0xFFC00002 }, /* qNaN S0 before sNaN S1 */
      { INF, 0xFFC0ABCD, 0, 0xFFC0ABCD },        /* inf does not matter */
   };
   lanes32("v_add_f32 v4, v1, v2", two, N(two));
   lanes32("v_sub_f32 v4, v1, v2", two, N(two));
   lanes32("v_subrev_f32 v4, v1, v2", two, N(two));
   lanes32("v_mul_f32 v4, v1, v2", two, N(two));
   lanes32("v_add_f32_e64 v4, v1, v2 mul:2", two, N(two)); /* omod keeps the NaN */
   static const case32 three[] = {
      { ONE, ONE, 0xFF812345, 0xFFC12345 },
      { ONE, 0x7FC00003, 0xFF800001, 0x7FC00003 },
      { 0, INF, 0xFFC00004, 0xFFC00004 }, /* 0 * inf is invalid, but the NaN source wins */
      { 0x7F800005, 0x7FC00006, 0x7FC00007, 0x7FC00005 },
   };
   lanes32("v_fma_f32 v4, v1, v2, v3", three, N(three));
   lanes32("v_mad_f32 v4, v1, v2, v3", three, N(three));
   lanes32("v_mov_b32 v4, v3\n v_fmac_f32 v4, v1, v2", three, N(three));
   lanes32("v_mov_b32 v4, v3\n v_mac_f32 v4, v1, v2", three, N(three));
   lanes32("s_mov_b64 vcc, 0\n v_div_fmas_f32 v4, v1, v2, v3", three, N(three));
   /* Source modifiers act on the NaN's sign before it propagates. */
   static const case32 neg[] = { { 0x7FC00000, ONE, 0, 0xFFC00000 },
                                 { 0xFFC00001, ONE, 0, 0x7FC00001 } };
   lanes32("v_add_f32_e64 v4, -v1, v2", neg, 1);
   lanes32("v_add_f32_e64 v4, |v1|, v2", neg + 1, 1);
   /* One-source operations. */
   static const case32 one[] = { { 0xFF800001, 0, 0, 0xFFC00001 },
                                 { 0x7FC12345, 0, 0, 0x7FC12345 } };
   lanes32("v_rcp_f32 v4, v1", one, N(one));
   lanes32("v_sqrt_f32 v4, v1", one, N(one));
   lanes32("v_exp_f32 v4, v1", one, N(one));
   lanes32("v_fract_f32 v4, v1", one, N(one));
   lanes32("v_frexp_mant_f32 v4, v1", one, N(one));
   lanes32("v_floor_f32 v4, v1", one, N(one));
   lanes32("v_rndne_f32 v4, v1", one, N(one));
   lanes32("v_ldexp_f32 v4, v1, 3", one, N(one));
}

/* Legacy DX9 ops: +-0 times anything (inf, NaN) is +0, so no NaN comes from the product;
 * V_MAD_LEGACY_F32 then propagates S2 alone. */
TEST(f32_legacy)
{
   static const case32 mul[] = {
      { 0, INF, 0, 0 },
      { 0xFF800001, 0x80000000, 0, 0 },
      { ONE, 0xFF800001, 0, 0xFFC00001 },
      { INF, 0x7FC00002, 0, 0x7FC00002 },
   };
   lanes32("v_mul_legacy_f32 v4, v1, v2", mul, N(mul));
   static const case32 mad[] = {
      { 0, 0x7FC00001, 0xFFC00002, 0xFFC00002 },
      { 0x7FC00001, ONE, 0xFFC00002, 0x7FC00001 },
      { INF, ONE, NINF, DNAN },
      { 0, INF, ONE, ONE },
   };
   lanes32("v_mad_legacy_f32 v4, v1, v2, v3", mad, N(mad));
}

/* Clamp of a NaN result: 0 with MODE.DX10_CLAMP, else the NaN itself. */
TEST(f32_clamp)
{
   static const case32 k[] = {
      { INF, NINF, 0, 0 },
      { 0xFFC00001, ONE, 0, 0 },
      { 0x3F000000, 0x3F000000, 0, ONE }, /* 0.5 + 0.5 = 1 */
      { 0x40000000, ONE, 0, ONE },        /* 3 clamped */
   };
   lanes32("v_add_f32_e64 v4, v1, v2 clamp", k, N(k));
   static const case32 nodx10[] = { { INF, NINF, 0, DNAN }, { 0xFFC00001, ONE, 0, 0xFFC00001 } };
   lanes32_mode("v_add_f32_e64 v4, v1, v2 clamp", nodx10, N(nodx10), false);
   static const case32 f16[] = { { 0x7C00, 0xFC00, 0, 0 }, { 0x7C00, 0xFC00, 0, 0x7E00 } };
   lanes32("v_add_f16_e64 v4, v1, v2 clamp", f16, 1);
   lanes32_mode("v_add_f16_e64 v4, v1, v2 clamp", f16 + 1, 1, false);
}

/* min/max/med3 select a source by their own rule (IEEE mode: sNaN returned quieted, else a
 * NaN operand yields the other), unchanged by the NaN-result rule. */
TEST(f32_select)
{
   static const case32 max[] = {
      { 0x7FC00001, ONE, 0, ONE },
      { ONE, 0xFFC00001, 0, ONE },
      { 0x7FC00001, 0x7F800002, 0, 0x7FC00002 }, /* sNaN S1 wins in IEEE mode */
   };
   lanes32("v_max_f32 v4, v1, v2", max, N(max));
   lanes32("v_min_f32 v4, v1, v2", max, N(max));
   static const case32 med3[] = { { 0x7FC00001, ONE, 0x40000000, ONE } };
   lanes32("v_med3_f32 v4, v1, v2, v3", med3, N(med3));
}

/* Conversions: NaN to an integer is 0; between float widths the NaN stays NaN, quieted,
 * sign kept, payload's high bits kept. */
TEST(cvt_nan)
{
   static const case32 toint[] = { { 0x7FC00000, 0, 0, 0 }, { 0xFF800001, 0, 0, 0 } };
   lanes32("v_cvt_i32_f32 v4, v1", toint, N(toint));
   lanes32("v_cvt_u32_f32 v4, v1", toint, N(toint));
   /* f32 payload bits 22:13 become the f16 payload bits 9:0; sNaN 0xFF800001 keeps none
    * of them, quieted: 0xFE00. 0xFFC02000: payload 0x402000 >> 13 = 0x201. */
   static const case32 tof16[] = {
      { 0xFF800001, 0, 0, 0xFE00 },
      { 0xFFC02000, 0, 0, 0xFE01 },
      { 0x7FC00000, 0, 0, 0x7E00 },
   };
   lanes32("v_cvt_f16_f32 v4, v1", tof16, N(tof16));
   /* f16 sNaN 0xFD01 (payload 0x101): f32 payload 0x101 << 13 = 0x202000, quieted
    * 0x602000. */
   static const case32 fromf16[] = { { 0xFD01, 0, 0, 0xFFE02000 }, { 0x7E00, 0, 0, DNAN } };
   lanes32("v_cvt_f32_f16 v4, v1", fromf16, N(fromf16));
}

/* f64: default NaN 0x7FF8000000000000; NaN sources propagate quieted. */
TEST(f64_nan)
{
   const uint64_t one = 0x3FF0000000000000ull, inf = 0x7FF0000000000000ull,
                  ninf = 0xFFF0000000000000ull, dnan = 0x7FF8000000000000ull;
   static const uint64_t snan = 0xFFF0000000000001ull, qsnan = 0xFFF8000000000001ull;
   const case64 add[] = {
      { inf, ninf, 0, dnan },
      { one, snan, 0, qsnan },
      { 0x7FF8000000000002ull, snan, 0, 0x7FF8000000000002ull },
      { one, one, 0, 0x4000000000000000ull },
   };
   lanes64("v_add_f64 v[8:9], v[2:3], v[4:5]", add, N(add));
   const case64 mul[] = { { 0, inf, 0, dnan }, { snan, one, 0, qsnan } };
   lanes64("v_mul_f64 v[8:9], v[2:3], v[4:5]", mul, N(mul));
   const case64 fma[] = {
      { 0, inf, one, dnan },
      { one, inf, ninf, dnan },
      { one, one, snan, qsnan },
   };
   lanes64("v_fma_f64 v[8:9], v[2:3], v[4:5], v[6:7]", fma, N(fma));
   lanes64("s_mov_b64 vcc, 0\n v_div_fmas_f64 v[8:9], v[2:3], v[4:5], v[6:7]", fma, N(fma));
   const case64 one_src[] = {
      { 0xBFF0000000000000ull, 0, 0, dnan }, /* sqrt(-1) */
      { snan, 0, 0, qsnan },
   };
   lanes64("v_sqrt_f64 v[8:9], v[2:3]", one_src, N(one_src));
   lanes64("v_rsq_f64 v[8:9], v[2:3]", one_src, N(one_src));
   const case64 fract[] = { { inf, 0, 0, dnan }, { snan, 0, 0, qsnan } };
   lanes64("v_fract_f64 v[8:9], v[2:3]", fract, N(fract));
   lanes64("v_ldexp_f64 v[8:9], v[2:3], 1", fract + 1, 1);
   /* f32 <-> f64: sNaN 0x7F800001's payload bit 0 becomes bit 29; quieted. */
   const case64 cvt[] = { { 0x7F800001, 0, 0, 0x7FF8000020000000ull },
                          { 0xFFC00000, 0, 0, 0xFFF8000000000000ull } };
   lanes64("v_cvt_f64_f32 v[8:9], v2", cvt, N(cvt));
   const case64 cvt32[] = { { snan, 0, 0, 0xFFC00000 }, { inf, ninf, 0, 0 } };
   lanes64("v_cvt_f32_f64 v8, v[2:3]\n v_mov_b32 v9, 0", cvt32, 1);
}

/* Runs of f64 arithmetic (as f32_nan_run: the translator tests a run's results once and
 * redoes it with the NaN rule when one is NaN): b into v[8:9], then a run of three on
 * v[2:3] and v[8:9] (the rows a wave64 block holds): an invalid operation first and its
 * default NaN carried on (the host's own is negative), an invalid operation last, NaN
 * sources picked by operand order. */
TEST(f64_nan_run)
{
   const uint64_t one = 0x3FF0000000000000ull, inf = 0x7FF0000000000000ull,
                  ninf = 0xFFF0000000000000ull, dnan = 0x7FF8000000000000ull;
   const case64 run[] = {
      { one, 0x4000000000000000ull, 0, 0x4018000000000000ull }, /* (1 + 2) * 1 = 3, 6 */
      { inf, ninf, 0, dnan },
      { one, 0xFFF0000000000001ull, 0, 0xFFF8000000000001ull },
      { 0x7FF8000000000002ull, 0xFFF0000000000003ull, 0, 0x7FF8000000000002ull },
      { 0, inf, 0, dnan },                                      /* inf * 0 */
      { 0x4000000000000000ull, 0, 0, 0x4028000000000000ull },   /* 2 * 2 = 4, 12 */
   };
   lanes64("v_mov_b32 v8, v4\n v_mov_b32 v9, v5\n"
           " v_add_f64 v[8:9], v[2:3], v[8:9]\n v_mul_f64 v[8:9], v[8:9], v[2:3]\n"
           " v_fma_f64 v[8:9], v[2:3], v[8:9], v[8:9]",
           run, N(run));
   /* Ten in a row (a run past f32's eight): the NaN from the first or the fifth. */
   const case64 ten[] = {
      { one, 0, 0, 0x4018000000000000ull },                    /* 4, 4, 6 */
      { inf, ninf, 0, dnan },
      { 0, inf, 0, dnan },                                      /* inf * 0 at the fifth */
      { 0xBFF0000000000000ull, 0xFFF0000000000001ull, 0, 0xFFF8000000000001ull },
      { 0x4000000000000000ull, one, 0, 0x4082300000000000ull }, /* 9, 144, 582 */
   };
   lanes64("v_mov_b32 v8, v4\n v_mov_b32 v9, v5\n"
           " v_add_f64 v[8:9], v[8:9], v[2:3]\n v_add_f64 v[8:9], v[8:9], v[2:3]\n"
           " v_add_f64 v[8:9], v[8:9], v[2:3]\n v_add_f64 v[8:9], v[8:9], v[2:3]\n"
           " v_mul_f64 v[8:9], v[8:9], v[2:3]\n v_mul_f64 v[8:9], v[8:9], v[2:3]\n"
           " v_mul_f64 v[8:9], v[8:9], v[2:3]\n v_mul_f64 v[8:9], v[8:9], v[2:3]\n"
           " v_fma_f64 v[8:9], v[8:9], v[2:3], v[2:3]\n"
           " v_fma_f64 v[8:9], v[8:9], v[2:3], v[2:3]",
           ten, N(ten));
   /* Ten on four pairs (two chains, as clpeak's double2 loop: a run past the rows a block
    * holds, taken for its length): the NaN from the first, the second or a source. */
   const case64 four[] = {
      { one, 0x4000000000000000ull, 0x4008000000000000ull, 0x4031000000000000ull }, /* 17 */
      { inf, ninf, one, dnan },
      { 0, one, inf, dnan }, /* inf * 0 at the second */
      { 0x4000000000000000ull, 0x3FE0000000000000ull, 0xFFF0000000000001ull,
        0xFFF8000000000001ull },
      { 0x4000000000000000ull, 0x3FE0000000000000ull, one, 0x4058A00000000000ull }, /* 98.5 */
   };
   lanes64("v_mov_b32 v8, v4\n v_mov_b32 v9, v5\n"
           " v_add_f64 v[8:9], v[8:9], v[2:3]\n v_mul_f64 v[6:7], v[6:7], v[2:3]\n"
           " v_add_f64 v[8:9], v[8:9], v[6:7]\n v_mul_f64 v[6:7], v[6:7], v[2:3]\n"
           " v_add_f64 v[8:9], v[8:9], v[6:7]\n v_mul_f64 v[6:7], v[6:7], v[2:3]\n"
           " v_add_f64 v[8:9], v[8:9], v[6:7]\n v_mul_f64 v[6:7], v[6:7], v[2:3]\n"
           " v_fma_f64 v[8:9], v[8:9], v[2:3], v[6:7]\n"
           " v_fma_f64 v[8:9], v[8:9], v[2:3], v[4:5]",
           four, N(four));
}

/* V_DIV_SCALE: a NaN S0 passes through quieted, sign and payload kept (0x7F800001 ->
 * 0x7FC00001, 0xFFF0000000000001 -> 0xFFF8000000000001); a NaN numerator leaves a finite
 * S0 as it is (1.0); a zero denominator is the guide's NAN, the default NaN even with a NaN
 * S0. */
TEST(div_scale_nan)
{
   static const case32 f32[] = {
      { 0x7F800001, 0x7F800001, ONE, 0x7FC00001 },
      { ONE, ONE, 0xFFC00005, ONE },
      { 0, 0, ONE, DNAN },
      { 0x7F800001, 0, ONE, DNAN },
      { 0xFF800003, ONE, 0xFF800003, 0xFFC00003 },
   };
   lanes32("v_div_scale_f32 v4, vcc, v1, v2, v3", f32, N(f32));
   const uint64_t one = 0x3FF0000000000000ull;
   const case64 f64[] = {
      { 0xFFF0000000000001ull, 0xFFF0000000000001ull, one, 0xFFF8000000000001ull },
      { one, one, 0x7FF8000000000005ull, one },
      { 0, 0, one, 0x7FF8000000000000ull },
   };
   lanes64("v_div_scale_f64 v[8:9], vcc, v[2:3], v[4:5], v[6:7]", f64, N(f64));
}

/* V_TRIG_PREOP_F64's edges, as LLVM's constant folding gives the hardware's answer: a NaN
 * source comes back quieted; a window at fraction bit 1119 (S0 = 2^961, exponent 1984 >=
 * 1968: scale +128; segment 4: shift = 212 + 1984 - 1077 = 1119) reads bit 1119 (1, the
 * last of dword 34, 0x6BFB5FB1), dword 35 (0x1F8D5D08) and the top 20 bits of dword 36
 * (0x56033): 0x11F8D5D0856033 x 2^(-53 - 1119 + 128) = 0x1.1F8D5D0856033p-992, bits
 * 0x01F1F8D5D0856033; one bit further (2^962, shift 1120) the window passes the table's 37
 * dwords and the result is 0. Infinity is the exponent-2047 window: 0 for segment 4. */
TEST(trig_preop_edges)
{
   const case64 k[] = {
      { 0x7FF0000000000001ull, 0, 0, 0x7FF8000000000001ull },
      { 0xFFF8000000000123ull, 1, 0, 0xFFF8000000000123ull },
      { 0x7C00000000000000ull, 4, 0, 0x01F1F8D5D0856033ull },
      { 0x7C10000000000000ull, 4, 0, 0 },
      { 0x7FF0000000000000ull, 4, 0, 0 },
   };
   lanes64("v_trig_preop_f64 v[8:9], v[2:3], v4", k, N(k));
}

/* DS_ADD_F32 (and its RTN and SRC2 forms): the NaN of MEM + DATA is the VALU's: +inf + -inf
 * is the default NaN 0x7FC00000 (the host's SSE add gives 0xFFC00000), an sNaN in memory
 * comes back quieted before DATA's NaN, a NaN DATA is kept. The returned value is the old
 * one. */
TEST(ds_add_f32_nan)
{
   static const uint32_t mem[] = { INF, 0x7F800002, ONE, NINF };
   static const uint32_t data[] = { NINF, 0x7FC00003, 0xFFC12345, INF };
   static const uint32_t want[] = { DNAN, 0x7FC00002, 0xFFC12345, DNAN };
   sim_wave *w = t_wave();
   SIM_EXEC(w) = (1u << N(mem)) - 1;
   for (unsigned l = 0; l < N(mem); l++) {
      memcpy(t_lds + 4 * l, &mem[l], 4);
      w->v[0][l] = 4 * l;
      w->v[1][l] = data[l];
   }
   CHECK_EQ(t_run(w, "ds_add_rtn_f32 v2, v0, v1\ns_waitcnt lgkmcnt(0)"), SIM_FAULT_NONE);
   for (unsigned l = 0; l < N(mem); l++) {
      uint32_t got;
      memcpy(&got, t_lds + 4 * l, 4);
      CHECK_EQ(got, want[l]);
      CHECK_EQ(w->v[2][l], mem[l]);
   }
}

/* f16 (VOP2, VOP3, VOP1) and packed f16: default NaN 0x7E00. */
TEST(f16_nan)
{
   static const case32 add[] = {
      { 0x7C00, 0xFC00, 0, 0x7E00 }, { 0xFD01, 0x3C00, 0, 0xFF01 }, /* -sNaN with payload: quieted,
                                                                       sign kept */
      { 0x3C00, 0x7E05, 0, 0x7E05 }, { 0x7E01, 0xFE02, 0, 0x7E01 }, { 0x3C00, 0x3C00, 0, 0x4000 },
   };
   lanes32("v_add_f16 v4, v1, v2", add, N(add));
   static const case32 sub[] = { { 0x7C00, 0x7C00, 0, 0x7E00 } };
   lanes32("v_sub_f16 v4, v1, v2", sub, N(sub));
   lanes32("v_sub_f16 v4, v1, v2", add + 1, 3);
   lanes32("v_subrev_f16 v4, v1, v2", add + 1, 3);
   static const case32 mul[] = { { 0, 0x7C00, 0, 0x7E00 }, { 0xFD01, 0x3C00, 0, 0xFF01 } };
   lanes32("v_mul_f16 v4, v1, v2", mul, N(mul));
   lanes32("v_ldexp_f16 v4, v1, 0", mul + 1, 1);
   static const case32 fma[] = {
      { 0, 0x7C00, 0x3C00, 0x7E00 },
      { 0x3C00, 0x3C00, 0xFD01, 0xFF01 },
      { 0x3C00, 0x4000, 0x3C00, 0x4200 },
   };
   lanes32("v_fma_f16 v4, v1, v2, v3", fma, N(fma));
   lanes32("v_mad_f16 v4, v1, v2, v3", fma, N(fma));
   lanes32("v_mov_b32 v4, v3\n v_mac_f16 v4, v1, v2", fma, N(fma));
   static const case32 one[] = { { 0xBC00, 0, 0, 0x7E00 }, { 0xFD01, 0, 0, 0xFF01 } };
   lanes32("v_sqrt_f16 v4, v1", one, N(one));
   lanes32("v_log_f16 v4, v1", one, N(one));
   lanes32("v_rsq_f16 v4, v1", one, N(one));
   static const case32 inf[] = { { 0x7C00, 0, 0, 0x7E00 } };
   lanes32("v_sin_f16 v4, v1", inf, 1);
   lanes32("v_fract_f16 v4, v1", inf, 1);
   /* Packed: both halves follow the rule independently. */
   static const case32 pk[] = {
      { 0x3C007C00, 0xFD01FC00, 0, 0xFF017E00 }, /* lo: inf + -inf; hi: 1 + -sNaN */
      { 0x3C003C00, 0x3C00BC00, 0, 0x40000000 }, /* 1 + 1, 1 + -1 */
   };
   lanes32("v_pk_add_f16 v4, v1, v2", pk, N(pk));
   static const case32 pkmul[] = {
      { 0x00007C00, 0x7C000000, 0, 0x7E007E00 }, /* 0 * inf in both halves */
      { 0x3C00FD01, 0x7E053C00, 0, 0x7E05FF01 },
   };
   lanes32("v_pk_mul_f16 v4, v1, v2", pkmul, N(pkmul));
   static const case32 pkfma[] = { { 0x00007C00, 0x7C000000, 0x3C003C00, 0x7E007E00 } };
   lanes32("v_pk_fma_f16 v4, v1, v2, v3", pkfma, N(pkfma));
}

void
t_nan_tests(void)
{
   RUN(f32_invalid);
   RUN(f32_nan_run);
   RUN(f32_propagate);
   RUN(f32_legacy);
   RUN(f32_clamp);
   RUN(f32_select);
   RUN(cvt_nan);
   RUN(f64_nan);
   RUN(f64_nan_run);
   RUN(f16_nan);
   RUN(div_scale_nan);
   RUN(trig_preop_edges);
   RUN(ds_add_f32_nan);
}
