/*
 * VOPC opcodes (VOP3 numbers 0-255): comparisons writing a lane mask to VCC (e32/SDWA) or
 * to the SGPR pair in SDST (VOP3, SDWA with SD). v_cmpx also writes EXEC. Bits of
 * inactive lanes are written as 0 ([ISA] 6.x "Vector compare operations").
 */
#include <math.h>
#include "sim_isa_priv.h"

/* D[i] = (S0 <op> S1) for each integer type; v_cmpx_*: EXEC = D as well. */
#define ICMP32(suffix, ty, vt)                                                              \
   SIM_VOPC_32(v_cmp_f_##suffix, ty, vt, 0, 0)                                              \
   SIM_VOPC_32(v_cmp_lt_##suffix, ty, vt, a < b, 0)                                         \
   SIM_VOPC_32(v_cmp_eq_##suffix, ty, vt, a == b, 0)                                        \
   SIM_VOPC_32(v_cmp_le_##suffix, ty, vt, a <= b, 0)                                        \
   SIM_VOPC_32(v_cmp_gt_##suffix, ty, vt, a > b, 0)                                         \
   SIM_VOPC_32(v_cmp_ne_##suffix, ty, vt, a != b, 0)                                        \
   SIM_VOPC_32(v_cmp_ge_##suffix, ty, vt, a >= b, 0)                                        \
   SIM_VOPC_32(v_cmp_t_##suffix, ty, vt, 1, 0)                                              \
   SIM_VOPC_32(v_cmpx_f_##suffix, ty, vt, 0, 1)                                             \
   SIM_VOPC_32(v_cmpx_lt_##suffix, ty, vt, a < b, 1)                                        \
   SIM_VOPC_32(v_cmpx_eq_##suffix, ty, vt, a == b, 1)                                       \
   SIM_VOPC_32(v_cmpx_le_##suffix, ty, vt, a <= b, 1)                                       \
   SIM_VOPC_32(v_cmpx_gt_##suffix, ty, vt, a > b, 1)                                        \
   SIM_VOPC_32(v_cmpx_ne_##suffix, ty, vt, a != b, 1)                                       \
   SIM_VOPC_32(v_cmpx_ge_##suffix, ty, vt, a >= b, 1)                                       \
   SIM_VOPC_32(v_cmpx_t_##suffix, ty, vt, 1, 1)

#define ICMP64(suffix, ty, vt)                                                              \
   SIM_VOPC_64(v_cmp_f_##suffix, ty, vt, 0, 0)                                              \
   SIM_VOPC_64(v_cmp_lt_##suffix, ty, vt, a < b, 0)                                         \
   SIM_VOPC_64(v_cmp_eq_##suffix, ty, vt, a == b, 0)                                        \
   SIM_VOPC_64(v_cmp_le_##suffix, ty, vt, a <= b, 0)                                        \
   SIM_VOPC_64(v_cmp_gt_##suffix, ty, vt, a > b, 0)                                         \
   SIM_VOPC_64(v_cmp_ne_##suffix, ty, vt, a != b, 0)                                        \
   SIM_VOPC_64(v_cmp_ge_##suffix, ty, vt, a >= b, 0)                                        \
   SIM_VOPC_64(v_cmp_t_##suffix, ty, vt, 1, 0)                                              \
   SIM_VOPC_64(v_cmpx_f_##suffix, ty, vt, 0, 1)                                             \
   SIM_VOPC_64(v_cmpx_lt_##suffix, ty, vt, a < b, 1)                                        \
   SIM_VOPC_64(v_cmpx_eq_##suffix, ty, vt, a == b, 1)                                       \
   SIM_VOPC_64(v_cmpx_le_##suffix, ty, vt, a <= b, 1)                                       \
   SIM_VOPC_64(v_cmpx_gt_##suffix, ty, vt, a > b, 1)                                        \
   SIM_VOPC_64(v_cmpx_ne_##suffix, ty, vt, a != b, 1)                                       \
   SIM_VOPC_64(v_cmpx_ge_##suffix, ty, vt, a >= b, 1)                                       \
   SIM_VOPC_64(v_cmpx_t_##suffix, ty, vt, 1, 1)

ICMP32(i32, int32_t, SIM_VT_I32)
ICMP32(u32, uint32_t, SIM_VT_B32)
ICMP32(i16, int16_t, SIM_VT_I16)
ICMP32(u16, uint16_t, SIM_VT_B16)
ICMP64(i64, int64_t, SIM_VT_I64)
ICMP64(u64, uint64_t, SIM_VT_B64)

/* Float compares: the "n" forms are the negations (true when unordered), o/u test for
 * NaN, lg is ordered not-equal ([ISA] 12.x VOPC opcode list). */
#define FCMP(M, suffix, ty, vt)                                                              \
   M(v_cmp_f_##suffix, ty, vt, 0, 0)                                                        \
   M(v_cmp_lt_##suffix, ty, vt, a < b, 0)                                                   \
   M(v_cmp_eq_##suffix, ty, vt, a == b, 0)                                                  \
   M(v_cmp_le_##suffix, ty, vt, a <= b, 0)                                                  \
   M(v_cmp_gt_##suffix, ty, vt, a > b, 0)                                                   \
   M(v_cmp_lg_##suffix, ty, vt, a < b || a > b, 0)                                          \
   M(v_cmp_ge_##suffix, ty, vt, a >= b, 0)                                                  \
   M(v_cmp_o_##suffix, ty, vt, !isnan(a) && !isnan(b), 0)                                   \
   M(v_cmp_u_##suffix, ty, vt, isnan(a) || isnan(b), 0)                                     \
   M(v_cmp_nge_##suffix, ty, vt, !(a >= b), 0)                                              \
   M(v_cmp_nlg_##suffix, ty, vt, !(a < b || a > b), 0)                                      \
   M(v_cmp_ngt_##suffix, ty, vt, !(a > b), 0)                                               \
   M(v_cmp_nle_##suffix, ty, vt, !(a <= b), 0)                                              \
   M(v_cmp_neq_##suffix, ty, vt, !(a == b), 0)                                              \
   M(v_cmp_nlt_##suffix, ty, vt, !(a < b), 0)                                               \
   M(v_cmp_tru_##suffix, ty, vt, 1, 0)                                                      \
   M(v_cmpx_f_##suffix, ty, vt, 0, 1)                                                       \
   M(v_cmpx_lt_##suffix, ty, vt, a < b, 1)                                                  \
   M(v_cmpx_eq_##suffix, ty, vt, a == b, 1)                                                 \
   M(v_cmpx_le_##suffix, ty, vt, a <= b, 1)                                                 \
   M(v_cmpx_gt_##suffix, ty, vt, a > b, 1)                                                  \
   M(v_cmpx_lg_##suffix, ty, vt, a < b || a > b, 1)                                         \
   M(v_cmpx_ge_##suffix, ty, vt, a >= b, 1)                                                 \
   M(v_cmpx_o_##suffix, ty, vt, !isnan(a) && !isnan(b), 1)                                  \
   M(v_cmpx_u_##suffix, ty, vt, isnan(a) || isnan(b), 1)                                    \
   M(v_cmpx_nge_##suffix, ty, vt, !(a >= b), 1)                                             \
   M(v_cmpx_nlg_##suffix, ty, vt, !(a < b || a > b), 1)                                     \
   M(v_cmpx_ngt_##suffix, ty, vt, !(a > b), 1)                                              \
   M(v_cmpx_nle_##suffix, ty, vt, !(a <= b), 1)                                             \
   M(v_cmpx_neq_##suffix, ty, vt, !(a == b), 1)                                             \
   M(v_cmpx_nlt_##suffix, ty, vt, !(a < b), 1)                                              \
   M(v_cmpx_tru_##suffix, ty, vt, 1, 1)

FCMP(SIM_VOPC_32, f32, float, SIM_VT_F32)
FCMP(SIM_VOPC_32, f16, _Float16, SIM_VT_F16) /* the low half of each source */
FCMP(SIM_VOPC_64, f64, double, SIM_VT_F64)

/* D[i] = S0 is of one of the classes in S1.u mask: bit 0 sNaN, 1 qNaN, 2 -inf, 3 -normal,
 * 4 -denormal, 5 -0, 6 +0, 7 +denormal, 8 +normal, 9 +inf. */
static unsigned
fclass_bit(int fpclass, bool neg, bool snan)
{
   /* fpclass: fpclassify() of the value in its own precision (a float subnormal is a
    * normal double, so an f32 must not be classified after promotion). */
   switch (fpclass) {
   case FP_NAN:
      return snan ? 0 : 1;
   case FP_INFINITE:
      return neg ? 2 : 9;
   case FP_NORMAL:
      return neg ? 3 : 8;
   case FP_SUBNORMAL:
      return neg ? 4 : 7;
   default:
      return neg ? 5 : 6;
   }
}

static void
cmp_class(sim_wave *w, const sim_inst *in, bool f64, bool f16, bool x)
{
   uint32_t t1[64];
   uint64_t A[64];
   uint32_t t0[64];
   const uint32_t *B = sim__vsrc32(w, in, 1, SIM_VT_B32, t1);
   uint64_t bits = 0;
   if (f64) {
      sim__vsrc64(w, in, 0, SIM_VT_F64, A);
      for (unsigned l = 0; l < 64; l++) {
         double d = sim__as_f64(A[l]);
         bool snan = isnan(d) && !((A[l] >> 51) & 1);
         bits |= (uint64_t)((B[l] >> fclass_bit(fpclassify(d), signbit(d), snan)) & 1) << l;
      }
   } else if (f16) {
      const uint32_t *S = sim__vsrc32(w, in, 0, SIM_VT_F16, t0);
      for (unsigned l = 0; l < 64; l++) {
         uint32_t h = S[l] & 0xFFFF, e = h & 0x7C00, m = h & 0x3FF;
         int c = e == 0x7C00 ? (m ? FP_NAN : FP_INFINITE)
                 : e        ? FP_NORMAL
                 : m        ? FP_SUBNORMAL
                            : FP_ZERO;
         bool snan = c == FP_NAN && !(h & 0x200);
         bits |= (uint64_t)((B[l] >> fclass_bit(c, h >> 15, snan)) & 1) << l;
      }
   } else {
      const uint32_t *S = sim__vsrc32(w, in, 0, SIM_VT_F32, t0);
      for (unsigned l = 0; l < 64; l++) {
         float f = sim__as_f32(S[l]);
         bool snan = isnan(f) && !((S[l] >> 22) & 1);
         bits |= (uint64_t)((B[l] >> fclass_bit(fpclassify(f), signbit(f), snan)) & 1) << l;
      }
   }
   bits &= SIM_EXEC(w);
   sim__vcmp_write(w, in, bits, x);
}

void
sim__op_v_cmp_class_f32(sim_wave *w, const sim_inst *in)
{
   cmp_class(w, in, false, false, false);
}
void
sim__op_v_cmpx_class_f32(sim_wave *w, const sim_inst *in)
{
   cmp_class(w, in, false, false, true);
}
void
sim__op_v_cmp_class_f64(sim_wave *w, const sim_inst *in)
{
   cmp_class(w, in, true, false, false);
}
void
sim__op_v_cmpx_class_f64(sim_wave *w, const sim_inst *in)
{
   cmp_class(w, in, true, false, true);
}
void
sim__op_v_cmp_class_f16(sim_wave *w, const sim_inst *in)
{
   cmp_class(w, in, false, true, false);
}
void
sim__op_v_cmpx_class_f16(sim_wave *w, const sim_inst *in)
{
   cmp_class(w, in, false, true, true);
}
