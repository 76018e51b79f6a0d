/*
 * VOP2 opcodes (VOP3 numbers 256 + op): e32, e64 (VOP3a/VOP3b), SDWA and DPP forms share
 * each handler ([ISA] 12.x "VOP2 instructions"). Carry-outs go to VCC (e32) or the VOP3b
 * SDST pair; carry-ins come from VCC or SRC2 (sim__vmask_read).
 */
#include <math.h>
#include "sim_isa_priv.h"

/* D.u = VCC[i] ? S1.u : S0.u (VCC is SRC2 in VOP3). The VOP3 abs/neg modifiers act on
 * bit 31 as for floats (LLVM folds fneg/fabs into v_cndmask_b32_e64 sources). */
void
sim__op_v_cndmask_b32(sim_wave *w, const sim_inst *in)
{
   uint32_t t0[64], t1[64], r[64];
   const uint32_t *A = sim__vsrc32(w, in, 0, SIM_VT_F32, t0);
   const uint32_t *B = sim__vsrc32(w, in, 1, SIM_VT_F32, t1);
   memcpy(r, A, sizeof(r));
   sim__lanes_select(r, B, sim__vmask_read(w, in, 2));
   sim__vdst32(w, in, r);
}

/* D.f = S0.f + S1.f. */
SIM_VOP_F32_2(v_add_f32, a + b)
/* D.f = S0.f - S1.f. */
SIM_VOP_F32_2(v_sub_f32, a - b)
/* D.f = S1.f - S0.f. */
SIM_VOP_F32_2(v_subrev_f32, b - a)
/* D.f = S0.f * S1.f. */
SIM_VOP_F32_2(v_mul_f32, a * b)
/* D.f = S0.f * S1.f with DX9 rules: 0.0 * x = +0.0 whatever x (inf, NaN). */
SIM_VOP_F32_2(v_mul_legacy_f32, sim__fmul_legacy(a, b))

/* D.u = S0.u + S1.u (no carry; VOP3 clamp saturates). */
void
sim__op_v_add_u32(sim_wave *w, const sim_inst *in)
{
   uint32_t t0[64], t1[64], r[64];
   const uint32_t *A = sim__vsrc32(w, in, 0, SIM_VT_B32, t0);
   const uint32_t *B = sim__vsrc32(w, in, 1, SIM_VT_B32, t1);
   if (SIM_UNLIKELY(in->clamp)) {
      for (unsigned l = 0; l < 64; l++) {
         uint64_t s = (uint64_t)A[l] + B[l];
         r[l] = s > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)s;
      }
   } else {
      for (unsigned l = 0; l < 64; l++)
         r[l] = A[l] + B[l];
   }
   sim__vdst32(w, in, r);
}

/* D.u = S0.u - S1.u (VOP3 clamp saturates at 0). */
void
sim__op_v_sub_u32(sim_wave *w, const sim_inst *in)
{
   uint32_t t0[64], t1[64], r[64];
   const uint32_t *A = sim__vsrc32(w, in, 0, SIM_VT_B32, t0);
   const uint32_t *B = sim__vsrc32(w, in, 1, SIM_VT_B32, t1);
   for (unsigned l = 0; l < 64; l++)
      r[l] = (in->clamp && B[l] > A[l]) ? 0 : A[l] - B[l];
   sim__vdst32(w, in, r);
}

/* D.u = S1.u - S0.u. */
void
sim__op_v_subrev_u32(sim_wave *w, const sim_inst *in)
{
   uint32_t t0[64], t1[64], r[64];
   const uint32_t *A = sim__vsrc32(w, in, 0, SIM_VT_B32, t0);
   const uint32_t *B = sim__vsrc32(w, in, 1, SIM_VT_B32, t1);
   for (unsigned l = 0; l < 64; l++)
      r[l] = (in->clamp && A[l] > B[l]) ? 0 : B[l] - A[l];
   sim__vdst32(w, in, r);
}

/* D.u = S0.u + S1.u (+ VCC[i]); VCC[i] = carry out. Subtractions: borrow out. Computed in
 * 32-bit lanes, the carry as unsigned compares (x = S0, y = S1; swapped for the *rev forms):
 * t = x + y, r = t + c, carry = t < x | r < t; t = x - y, r = t - c, borrow = x < y | t < c. */
#define CARRY_OP(name, is_sub, rev, cin)                                                    \
   void sim__op_##name(sim_wave *w, const sim_inst *in)                                      \
   {                                                                                        \
      uint32_t t0[64], t1[64], r_[64], cy[64];                                              \
      const uint32_t *A = sim__vsrc32(w, in, 0, SIM_VT_B32, t0);                            \
      const uint32_t *B = sim__vsrc32(w, in, 1, SIM_VT_B32, t1);                            \
      uint32_t *r = sim__vdst32_rows(w, in, r_);                                            \
      uint32_t ci[64];                                                                      \
      if (cin)                                                                              \
         sim__lanes_unpack32(sim__vmask_read(w, in, 2), ci);                                \
      for (unsigned l = 0; l < 64; l++) {                                                   \
         uint32_t x = (rev) ? B[l] : A[l], y = (rev) ? A[l] : B[l];                         \
         uint32_t c = (cin) ? ci[l] : 0;                                                    \
         uint32_t t = (is_sub) ? x - y : x + y;                                             \
         uint32_t v = (is_sub) ? t - c : t + c;                                             \
         r[l] = v;                                                                          \
         cy[l] = (is_sub) ? ((x < y) | (t < c)) : ((t < x) | (v < t));                      \
      }                                                                                     \
      uint64_t co = sim__lanes_pack32(cy);                                                  \
      uint64_t m = sim__vmask(w, in);                                                       \
      sim__vdst32(w, in, r);                                                                \
      sim__vmask_write(w, in, co & m);                                                      \
   }
CARRY_OP(v_add_co_u32, 0, 0, 0)
CARRY_OP(v_sub_co_u32, 1, 0, 0)
CARRY_OP(v_subrev_co_u32, 1, 1, 0)
CARRY_OP(v_addc_co_u32, 0, 0, 1)
CARRY_OP(v_subb_co_u32, 1, 0, 1)
CARRY_OP(v_subbrev_co_u32, 1, 1, 1)

/* Bitwise and shifts: shift amount is S0 for the *rev forms. */
SIM_VOP_U32_2(v_and_b32, a & b)
SIM_VOP_U32_2(v_or_b32, a | b)
SIM_VOP_U32_2(v_xor_b32, a ^ b)
SIM_VOP_U32_2(v_xnor_b32, ~(a ^ b))
/* D.u = S1.u << S0.u[4:0]. */
SIM_VOP_U32_2(v_lshlrev_b32, b << (a & 31))
/* D.u = S1.u >> S0.u[4:0]. */
SIM_VOP_U32_2(v_lshrrev_b32, b >> (a & 31))
/* D.i = signext(S1.i) >> S0.u[4:0]. */
SIM_VOP_U32_2(v_ashrrev_i32, (uint32_t)((int32_t)b >> (a & 31)))

/* Integer min/max. */
SIM_VOP_U32_2(v_min_i32, (int32_t)a < (int32_t)b ? a : b)
SIM_VOP_U32_2(v_max_i32, (int32_t)a > (int32_t)b ? a : b)
SIM_VOP_U32_2(v_min_u32, a < b ? a : b)
SIM_VOP_U32_2(v_max_u32, a > b ? a : b)

/* D.i = S0.i[23:0] * S1.i[23:0]. */
SIM_VOP_U32_2(v_mul_i32_i24, (uint32_t)((int32_t)(a << 8) >> 8) * (uint32_t)((int32_t)(b << 8) >> 8))
/* D.u = S0.u[23:0] * S1.u[23:0]. */
SIM_VOP_U32_2(v_mul_u32_u24, (a & 0xFFFFFF) * (b & 0xFFFFFF))
/* D.i = (S0.i[23:0] * S1.i[23:0]) >> 32: the high bits of the 48-bit product (sign-extended
 * operands). */
SIM_VOP_U32_2(v_mul_hi_i32_i24,
              (uint32_t)(((int64_t)((int32_t)(a << 8) >> 8) * ((int32_t)(b << 8) >> 8)) >> 32))
/* D.u = (S0.u[23:0] * S1.u[23:0]) >> 32. */
SIM_VOP_U32_2(v_mul_hi_u32_u24, (uint32_t)(((uint64_t)(a & 0xFFFFFF) * (b & 0xFFFFFF)) >> 32))

/* D.f = S0.f * S1.f + D.f (fused). */
void
sim__op_v_fmac_f32(sim_wave *w, const sim_inst *in)
{
   uint32_t t0[64], t1[64];
   float f0[64], f1[64], f2[64], r_[64];
   const float *A = sim__f32_in(w, (const float *)sim__vsrc32(w, in, 0, SIM_VT_F32, t0), f0);
   const float *B = sim__f32_in(w, (const float *)sim__vsrc32(w, in, 1, SIM_VT_F32, t1), f1);
   const uint32_t *drow = sim__vdst_row(w, in, in->vdst);
   if (!drow)
      return;
   const float *C = sim__f32_in(w, (const float *)drow, f2);
   float *r = (float *)sim__vdst32_rows(w, in, (uint32_t *)r_);
   sim__fma_rows(r, A, B, C, SIM_EXEC(w));
   sim__f32_post(w, in, r);
   sim__vdst32(w, in, (const uint32_t *)r);
}

/* ---- Float min/max, mac, madmk ------------------------------------------------------------ */

/* if (IEEE_MODE && S0.f == sNaN) D.f = Quiet(S0.f); else if (IEEE_MODE && S1.f == sNaN)
 * D.f = Quiet(S1.f); else if (S0.f == NaN) D.f = S1.f; else if (S1.f == NaN) D.f = S0.f;
 * else D.f = (S0.f < S1.f ? S0.f : S1.f), -0 < +0. */
SIM_VOP_F32_2_NAN(v_min_f32, SIM_NAN_AS_IS, sim__fmin32(a, b, w->ieee))
/* V_MAX_F32: as V_MIN_F32 with >, +0 > -0. */
SIM_VOP_F32_2_NAN(v_max_f32, SIM_NAN_AS_IS, sim__fmax32(a, b, w->ieee))

/* D.f = S0.f * S1.f + D.f (not fused: the product is rounded first). */
void
sim__op_v_mac_f32(sim_wave *w, const sim_inst *in)
{
   uint32_t t0[64], t1[64];
   float f0[64], f1[64], f2[64], r[64];
   const float *A = sim__f32_in(w, (const float *)sim__vsrc32(w, in, 0, SIM_VT_F32, t0), f0);
   const float *B = sim__f32_in(w, (const float *)sim__vsrc32(w, in, 1, SIM_VT_F32, t1), f1);
   const uint32_t *drow = sim__vdst_row(w, in, in->vdst);
   if (!drow)
      return;
   const float *C = sim__f32_in(w, (const float *)drow, f2);
   for (unsigned l = 0; l < 64; l++) {
      float p = A[l] * B[l];
      r[l] = sim__nanfix32(p + C[l], A[l], B[l], C[l]);
   }
   sim__f32_post(w, in, r);
   sim__vdst32(w, in, (const uint32_t *)r);
}

/* D.f = S0.f * K + S1.f; K is the 32-bit literal that follows the instruction. */
void
sim__op_v_madmk_f32(sim_wave *w, const sim_inst *in)
{
   uint32_t t0[64], t1[64];
   float f0[64], f1[64], r[64];
   const float *A = sim__f32_in(w, (const float *)sim__vsrc32(w, in, 0, SIM_VT_F32, t0), f0);
   const float *B = sim__f32_in(w, (const float *)sim__vsrc32(w, in, 1, SIM_VT_F32, t1), f1);
   float k = sim__as_f32(in->literal);
   if (!(w->denorm32 & 1) && fpclassify(k) == FP_SUBNORMAL)
      k = copysignf(0.0f, k);
   for (unsigned l = 0; l < 64; l++) {
      float p = A[l] * k;
      r[l] = sim__nanfix32(p + B[l], A[l], k, B[l]);
   }
   sim__f32_post(w, in, r);
   sim__vdst32(w, in, (const uint32_t *)r);
}

/* D.f = S0.f * S1.f + K. */
void
sim__op_v_madak_f32(sim_wave *w, const sim_inst *in)
{
   uint32_t t0[64], t1[64];
   float f0[64], f1[64], r[64];
   const float *A = sim__f32_in(w, (const float *)sim__vsrc32(w, in, 0, SIM_VT_F32, t0), f0);
   const float *B = sim__f32_in(w, (const float *)sim__vsrc32(w, in, 1, SIM_VT_F32, t1), f1);
   float k = sim__as_f32(in->literal);
   if (!(w->denorm32 & 1) && fpclassify(k) == FP_SUBNORMAL)
      k = copysignf(0.0f, k);
   for (unsigned l = 0; l < 64; l++) {
      float p = A[l] * B[l];
      r[l] = sim__nanfix32(p + k, A[l], B[l], k);
   }
   sim__f32_post(w, in, r);
   sim__vdst32(w, in, (const uint32_t *)r);
}

/* ---- 16-bit integer ops (bits 31:16 of D zeroed) -------------------------------------------- */

/* D.u16 = S0.u16 + S1.u16 (clamp saturates). */
SIM_VOP_U16_2(v_add_u16, in->clamp ? (a + b > 0xFFFF ? 0xFFFF : a + b) : a + b)
/* D.u16 = S0.u16 - S1.u16 (clamp saturates at 0). */
SIM_VOP_U16_2(v_sub_u16, in->clamp ? (b > a ? 0 : a - b) : a - b)
/* D.u16 = S1.u16 - S0.u16. */
SIM_VOP_U16_2(v_subrev_u16, in->clamp ? (a > b ? 0 : b - a) : b - a)
/* D.u16 = S0.u16 * S1.u16 (low 16 bits). */
SIM_VOP_U16_2(v_mul_lo_u16, a * b)
/* D.u16 = S1.u16 << S0.u[3:0]. */
SIM_VOP_U16_2(v_lshlrev_b16, b << (a & 15))
/* D.u16 = S1.u16 >> S0.u[3:0]. */
SIM_VOP_U16_2(v_lshrrev_b16, b >> (a & 15))
/* D.i16 = signext(S1.i16) >> S0.u[3:0]. */
SIM_VOP_U16_2(v_ashrrev_i16, (uint32_t)((int16_t)b >> (a & 15)))
/* 16-bit integer min/max. */
SIM_VOP_U16_2(v_max_u16, a > b ? a : b)
SIM_VOP_U16_2(v_min_u16, a < b ? a : b)
SIM_VOP_U16_2(v_max_i16, (int16_t)a > (int16_t)b ? a : b)
SIM_VOP_U16_2(v_min_i16, (int16_t)a < (int16_t)b ? a : b)

/* ---- Half precision -------------------------------------------------------------------- */

/* D.f16 = S0.f16 + S1.f16 (the f32 sum of two halves rounds to the same f16 as the exact
 * sum: 24 >= 2 * 11 + 2 bits). */
void
sim__op_v_add_f16(sim_wave *w, const sim_inst *in)
{
   uint32_t t0[64], t1[64], r[64];
   const uint32_t *A = sim__vsrc32(w, in, 0, SIM_VT_F16, t0);
   const uint32_t *B = sim__vsrc32(w, in, 1, SIM_VT_F16, t1);
   for (unsigned l = 0; l < 64; l++) {
      float a = sim__f16_in(w, A[l] & 0xFFFF), b = sim__f16_in(w, B[l] & 0xFFFF);
      float s = sim__nanfix32(a + b, a, b, 0.0f);
      if (SIM_UNLIKELY(in->clamp))
         s = isnan(s) ? (w->dx10_clamp ? 0.0f : s) : fminf(fmaxf(s, 0.0f), 1.0f);
      r[l] = sim__f16_out(w, s);
   }
   sim__vdst16(w, in, r);
}

/* D.f16 = S0.f16 * S1.f16. */
void
sim__op_v_mul_f16(sim_wave *w, const sim_inst *in)
{
   uint32_t t0[64], t1[64], r[64];
   const uint32_t *A = sim__vsrc32(w, in, 0, SIM_VT_F16, t0);
   const uint32_t *B = sim__vsrc32(w, in, 1, SIM_VT_F16, t1);
   for (unsigned l = 0; l < 64; l++) {
      float a = sim__f16_in(w, A[l] & 0xFFFF), b = sim__f16_in(w, B[l] & 0xFFFF);
      float s = sim__nanfix32(a * b, a, b, 0.0f);
      if (SIM_UNLIKELY(in->clamp))
         s = isnan(s) ? (w->dx10_clamp ? 0.0f : s) : fminf(fmaxf(s, 0.0f), 1.0f);
      r[l] = sim__f16_out(w, s);
   }
   sim__vdst16(w, in, r);
}

/* D.f16 = S0.f16 - S1.f16; V_SUBREV_F16: S1.f16 - S0.f16 (exact in f32, one rounding). */
SIM_VOP_F16_2(v_sub_f16, (double)a - b)
SIM_VOP_F16_2(v_subrev_f16, (double)b - a)

/* V_MIN_F16 / V_MAX_F16: the IEEE-mode rules of V_MIN_F32 on f16 (clamp/omod do not apply
 * to a NaN or a selected operand beyond the usual clamp). */
SIM_VOP_F16_2_NAN(v_min_f16, SIM_NAN_AS_IS, sim__f16_to_f32(sim__fminmax16(ha, hb, w->ieee, false)))
SIM_VOP_F16_2_NAN(v_max_f16, SIM_NAN_AS_IS, sim__f16_to_f32(sim__fminmax16(ha, hb, w->ieee, true)))

/* D.f16 = S0.f16 * 2^S1.i16 (the exponent is the low half of S1, signed). */
void
sim__op_v_ldexp_f16(sim_wave *w, const sim_inst *in)
{
   uint32_t t0[64], t1[64], r[64];
   const uint32_t *A = sim__vsrc32(w, in, 0, SIM_VT_F16, t0);
   const uint32_t *B = sim__vsrc32(w, in, 1, SIM_VT_I32, t1);
   for (unsigned l = 0; l < 64; l++) {
      int e = (int16_t)(B[l] & 0xFFFF);
      float a = sim__f16_in(w, A[l] & 0xFFFF);
      r[l] = sim__f16_result(w, in, sim__nanfix16(ldexp((double)a, e), a, 0.0f, 0.0f));
   }
   sim__vdst16(w, in, r);
}

/* V_MAC_F16: D.f16 = S0.f16 * S1.f16 + D.f16; V_MADMK_F16: S0.f16 * K + S1.f16;
 * V_MADAK_F16: S0.f16 * S1.f16 + K (K: the low half of the literal). Not fused: LLVM emits
 * them for fmad (the product rounded first), only when f16 denormals are flushed. Bits 31:16
 * of D are preserved. */
static void
mad16(sim_wave *w, const sim_inst *in, const uint32_t *A, const uint32_t *B, const uint32_t *C,
      uint32_t *r)
{
   for (unsigned l = 0; l < 64; l++) {
      float a = sim__f16_in(w, A[l] & 0xFFFF), b = sim__f16_in(w, B[l] & 0xFFFF);
      float c = sim__f16_in(w, C[l] & 0xFFFF);
      float p = sim__f16_in(w, sim__f16_result(w, &(sim_inst){ 0 }, (double)a * b));
      r[l] = sim__f16_result(w, in, sim__nanfix16((double)p + c, a, b, c));
   }
}

void
sim__op_v_mac_f16(sim_wave *w, const sim_inst *in)
{
   uint32_t t0[64], t1[64], r[64];
   const uint32_t *A = sim__vsrc32(w, in, 0, SIM_VT_F16, t0);
   const uint32_t *B = sim__vsrc32(w, in, 1, SIM_VT_F16, t1);
   const uint32_t *D = sim__vdst_row(w, in, in->vdst);
   if (!D)
      return;
   mad16(w, in, A, B, D, r);
   sim__vdst16_preserve(w, in, r);
}

/* The literal K as the multiplier (madmk) or as the addend (madak). */
static void
mad16_literal(sim_wave *w, const sim_inst *in, bool k_multiplies)
{
   uint32_t t0[64], t1[64], k[64], r[64];
   const uint32_t *A = sim__vsrc32(w, in, 0, SIM_VT_F16, t0);
   const uint32_t *B = sim__vsrc32(w, in, 1, SIM_VT_F16, t1);
   for (unsigned l = 0; l < 64; l++)
      k[l] = in->literal & 0xFFFF;
   if (k_multiplies)
      mad16(w, in, A, k, B, r);
   else
      mad16(w, in, A, B, k, r);
   sim__vdst16_preserve(w, in, r);
}

void
sim__op_v_madmk_f16(sim_wave *w, const sim_inst *in)
{
   mad16_literal(w, in, true);
}

void
sim__op_v_madak_f16(sim_wave *w, const sim_inst *in)
{
   mad16_literal(w, in, false);
}
