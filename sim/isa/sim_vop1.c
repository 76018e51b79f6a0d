/*
 * VOP1 opcodes (VOP3 numbers 320 + op): one handler serves the e32, e64, SDWA and DPP
 * forms ([ISA] 12.x "VOP1 instructions"). Handlers use the lane-loop templates of
 * sim_isa_priv.h; operand kinds decide inline constants and modifiers.
 */
#include <math.h>
#include "sim_isa_priv.h"

/* Do nothing. */
void
sim__op_v_nop(sim_wave *w, const sim_inst *in)
{
}

/* D.u = S0.u. */
SIM_VOP_U32_1(v_mov_b32, a)

/* D.u = ~S0.u. */
SIM_VOP_U32_1(v_not_b32, ~a)

/* D.u[31:0] = S0.u[0:31]. */
SIM_VOP_U32_1(v_bfrev_b32, ({
                 uint32_t v = a;
                 v = ((v >> 1) & 0x55555555u) | ((v & 0x55555555u) << 1);
                 v = ((v >> 2) & 0x33333333u) | ((v & 0x33333333u) << 2);
                 v = ((v >> 4) & 0x0F0F0F0Fu) | ((v & 0x0F0F0F0Fu) << 4);
                 __builtin_bswap32(v);
              }))

/* D.f = (float)S0.u. */
SIM_VOP_U32_1(v_cvt_f32_u32, sim__as_u32((float)a))

/* D.f = (float)S0.i. */
SIM_VOP_U32_1(v_cvt_f32_i32, sim__as_u32((float)(int32_t)a))

/* D.f = (float)S0.u[7:0] (and bytes 1-3). */
SIM_VOP_U32_1(v_cvt_f32_ubyte0, sim__as_u32((float)(a & 0xFF)))
SIM_VOP_U32_1(v_cvt_f32_ubyte1, sim__as_u32((float)((a >> 8) & 0xFF)))
SIM_VOP_U32_1(v_cvt_f32_ubyte2, sim__as_u32((float)((a >> 16) & 0xFF)))
SIM_VOP_U32_1(v_cvt_f32_ubyte3, sim__as_u32((float)(a >> 24)))

/* D.u = (uint)S0.f, saturating; NaN -> 0. */
static inline uint32_t
cvt_u32_f32(float f)
{
   if (isnan(f) || f <= 0.0f)
      return 0;
   if (f >= 4294967296.0f)
      return 0xFFFFFFFFu;
   return (uint32_t)f;
}

/* D.i = (int)S0.f, saturating; NaN -> 0. */
static inline uint32_t
cvt_i32_f32(float f)
{
   if (isnan(f))
      return 0;
   if (f >= 2147483648.0f)
      return 0x7FFFFFFFu;
   if (f < -2147483648.0f)
      return 0x80000000u;
   return (uint32_t)(int32_t)f;
}

/* D.u = (uint)S0.f. */
void
sim__op_v_cvt_u32_f32(sim_wave *w, const sim_inst *in)
{
   uint32_t t0[64], r[64];
   float f0[64];
   const float *A = sim__f32_in(w, (const float *)sim__vsrc32(w, in, 0, SIM_VT_F32, t0), f0);
   for (unsigned l = 0; l < 64; l++)
      r[l] = cvt_u32_f32(A[l]);
   sim__vdst32(w, in, r);
}

/* D.i = (int)S0.f. */
void
sim__op_v_cvt_i32_f32(sim_wave *w, const sim_inst *in)
{
   uint32_t t0[64], r[64];
   float f0[64];
   const float *A = sim__f32_in(w, (const float *)sim__vsrc32(w, in, 0, SIM_VT_F32, t0), f0);
   for (unsigned l = 0; l < 64; l++)
      r[l] = cvt_i32_f32(A[l]);
   sim__vdst32(w, in, r);
}

/* D.i = (int)floor(S0.f) / D.i = (int)floor(S0.f + 0.5): saturating. The manual gives no
 * NaN result for these two (V_CVT_I32_F32 says NaN -> 0); the hardware returns the
 * saturated value of the NaN's sign, which is what is modelled. S0.f + 0.5 is the f32 sum
 * (rounded), the form LLVM matches (fp_to_sint(ffloor(fadd x, 0.5)) under no-NaNs math). */
static inline uint32_t
cvt_i32_round(float f)
{
   if (isnan(f))
      return signbit(f) ? 0x80000000u : 0x7FFFFFFFu;
   return cvt_i32_f32(f);
}

void
sim__op_v_cvt_flr_i32_f32(sim_wave *w, const sim_inst *in)
{
   uint32_t t0[64], r[64];
   float f0[64];
   const float *A = sim__f32_in(w, (const float *)sim__vsrc32(w, in, 0, SIM_VT_F32, t0), f0);
   for (unsigned l = 0; l < 64; l++)
      r[l] = cvt_i32_round(floorf(A[l]));
   sim__vdst32(w, in, r);
}

void
sim__op_v_cvt_rpi_i32_f32(sim_wave *w, const sim_inst *in)
{
   uint32_t t0[64], r[64];
   float f0[64];
   const float *A = sim__f32_in(w, (const float *)sim__vsrc32(w, in, 0, SIM_VT_F32, t0), f0);
   for (unsigned l = 0; l < 64; l++)
      r[l] = cvt_i32_round(floorf(A[l] + 0.5f));
   sim__vdst32(w, in, r);
}

/* D.f = the 4-bit signed integer S0.u[3:0] / 16: 0x0 -> 0.0, 0x7 -> 0.4375, 0x8 -> -0.5,
 * 0xF -> -0.0625 (interpolation offsets). Exact, so only omod/clamp apply. */
void
sim__op_v_cvt_off_f32_i4(sim_wave *w, const sim_inst *in)
{
   uint32_t t0[64];
   float r[64];
   const uint32_t *A = sim__vsrc32(w, in, 0, SIM_VT_B32, t0);
   for (unsigned l = 0; l < 64; l++)
      r[l] = (float)((int32_t)(A[l] << 28) >> 28) * 0.0625f;
   sim__f32_post(w, in, r);
   sim__vdst32(w, in, (const uint32_t *)r);
}

/* D.u = {16'0, sat_u8(S0.i16[31:16]), sat_u8(S0.i16[15:0])}: each signed 16-bit half
 * clamped to [0, 255]. */
static inline uint32_t
sat_u8(uint32_t h)
{
   int32_t v = (int16_t)(h & 0xFFFF);
   return v < 0 ? 0 : v > 255 ? 255 : (uint32_t)v;
}
SIM_VOP_U32_1(v_sat_pk_u8_i16, sat_u8(a) | sat_u8(a >> 16) << 8)

/* Copy one VGPR value to one SGPR: D.u = S0.u from the first active lane (lane 0 when
 * EXEC is 0). The VDST field names an SGPR. */
void
sim__op_v_readfirstlane_b32(sim_wave *w, const sim_inst *in)
{
   uint64_t e = SIM_EXEC(w);
   unsigned lane = e ? (unsigned)__builtin_ctzll(e) : 0;
   uint32_t t0[64];
   const uint32_t *A;
   if (in->src[0] >= SIM_SRC_VGPR && !w->gpr_idx_en) {
      A = w->v[in->src[0] - SIM_SRC_VGPR];
   } else {
      uint64_t save = SIM_EXEC(w);
      A = sim__vsrc32(w, in, 0, SIM_VT_B32, t0);
      SIM_EXEC(w) = save;
   }
   sim__swrite32(w, in->vdst, A[lane]);
}

/* tmp = D.u; D.u = S0.u; S0.u = tmp (both VGPRs, active lanes). */
void
sim__op_v_swap_b32(sim_wave *w, const sim_inst *in)
{
   uint32_t *d = sim__vdst_row(w, in, in->vdst);
   uint32_t *s = in->src[0] >= SIM_SRC_VGPR ? sim__vdst_row(w, in, in->src[0] - SIM_SRC_VGPR)
                                            : NULL;
   if (!d || !s)
      return;
   uint64_t m = SIM_EXEC(w);
   for (unsigned l = 0; l < 64; l++) {
      if ((m >> l) & 1) {
         uint32_t t = d[l];
         d[l] = s[l];
         s[l] = t;
      }
   }
}

/* D.f = trunc(S0.f), and the other f32 roundings. */
SIM_VOP_F32_1(v_trunc_f32, truncf(a))
SIM_VOP_F32_1(v_ceil_f32, ceilf(a))
SIM_VOP_F32_1(v_rndne_f32, nearbyintf(a))
SIM_VOP_F32_1(v_floor_f32, floorf(a))

/* D.f = (float)S0.d. */
void
sim__op_v_cvt_f32_f64(sim_wave *w, const sim_inst *in)
{
   uint64_t A[64];
   float r[64];
   sim__vsrc64(w, in, 0, SIM_VT_F64, A);
   for (unsigned l = 0; l < 64; l++)
      r[l] = (float)sim__as_f64(A[l]);
   sim__f32_post(w, in, r);
   sim__vdst32(w, in, (const uint32_t *)r);
}

/* D.d = (double)S0.f. */
void
sim__op_v_cvt_f64_f32(sim_wave *w, const sim_inst *in)
{
   uint32_t t0[64];
   double r[64];
   const uint32_t *A = sim__vsrc32(w, in, 0, SIM_VT_F32, t0);
   for (unsigned l = 0; l < 64; l++)
      r[l] = (double)sim__as_f32(A[l]);
   sim__f64_post(w, in, r);
   sim__vdst64(w, in, (const uint64_t *)r);
}

/* ---- Integer bit scans ------------------------------------------------------------------ */

/* D.u = position of the first 1 from the MSB (0 = bit 31); 0xFFFFFFFF if S0.u == 0. */
SIM_VOP_U32_1(v_ffbh_u32, a ? (uint32_t)__builtin_clz(a) : 0xFFFFFFFFu)

/* D.u = position of the first 1 from the LSB; 0xFFFFFFFF if S0.u == 0. */
SIM_VOP_U32_1(v_ffbl_b32, a ? (uint32_t)__builtin_ctz(a) : 0xFFFFFFFFu)

/* D.u = position of the first bit from the MSB that differs from the sign bit;
 * 0xFFFFFFFF if S0.i == 0 or -1. */
SIM_VOP_U32_1(v_ffbh_i32, ({
                 uint32_t x = (int32_t)a < 0 ? ~a : a;
                 x ? (uint32_t)__builtin_clz(x) : 0xFFFFFFFFu;
              }))

/* ---- Transcendentals ----------------------------------------------------------------------
 * The hardware units are ~1 ULP approximations that flush denormal inputs and outputs
 * whatever MODE says (which is why LLVM scales around them with v_ldexp / v_frexp); here
 * the results are the correctly rounded (or libm) values of the same functions. */

static inline float
trans_in32(float x)
{
   return fpclassify(x) == FP_SUBNORMAL ? copysignf(0.0f, x) : x;
}

static inline float
trans_out32(float x)
{
   return fpclassify(x) == FP_SUBNORMAL ? copysignf(0.0f, x) : x;
}

/* sin/cos of S0 revolutions: reduce to (-0.5, 0.5] exactly, then evaluate in double. */
static inline float
sin_rev(float x)
{
   if (!isfinite(x))
      return NAN;
   float r = x - rintf(x);
   return (float)sin(r * 6.283185307179586476925);
}

static inline float
cos_rev(float x)
{
   if (!isfinite(x))
      return NAN;
   float r = x - rintf(x);
   return (float)cos(r * 6.283185307179586476925);
}

/* D.f = 1.0 / S0.f. */
SIM_VOP_F32_1(v_rcp_f32, trans_out32(1.0f / trans_in32(a)))
/* D.f = 1.0 / S0.f, for integer division sequences (no special flag handling here). */
SIM_VOP_F32_1(v_rcp_iflag_f32, trans_out32(1.0f / trans_in32(a)))
/* D.f = 1.0 / sqrt(S0.f). */
SIM_VOP_F32_1(v_rsq_f32, trans_out32((float)(1.0 / sqrt((double)trans_in32(a)))))
/* D.f = sqrt(S0.f). */
SIM_VOP_F32_1(v_sqrt_f32, trans_out32(sqrtf(trans_in32(a))))
/* D.f = log2(S0.f). */
SIM_VOP_F32_1(v_log_f32, trans_out32(log2f(trans_in32(a))))
/* D.f = pow(2.0, S0.f). */
SIM_VOP_F32_1(v_exp_f32, trans_out32(exp2f(trans_in32(a))))
/* D.f = sin(S0.f * 2 * PI) (S0 in revolutions). */
SIM_VOP_F32_1(v_sin_f32, trans_out32(sin_rev(trans_in32(a))))
/* D.f = cos(S0.f * 2 * PI). */
SIM_VOP_F32_1(v_cos_f32, trans_out32(cos_rev(trans_in32(a))))

/* D.f = pow(2.0, S0.f) / log2(S0.f) "with legacy semantics": the same functions as
 * V_EXP_F32 / V_LOG_F32 on the hardware's older approximation (results within 1 ULP of
 * these correctly rounded ones); denormals are flushed likewise. */
SIM_VOP_F32_1(v_exp_legacy_f32, trans_out32(exp2f(trans_in32(a))))
SIM_VOP_F32_1(v_log_legacy_f32, trans_out32(log2f(trans_in32(a))))

/* The f64 transcendentals, unlike the f32 ones, support denormals (AMD's ISA manuals say so of
 * V_RCP_F64/V_RSQ_F64); only FLOAT_DENORM_MODE_16_64, applied by the
 * operand and result helpers, flushes them. The device library relies on it: ocml's
 * rsqrt(double) is v_rsq_f64 plus one Newton step with no input scaling, so a flushed
 * denormal input gives inf (the CTS math test's rsqrt fp64 at 0x0000400000000000). */
/* D.d = 1.0 / S0.d (approximate in hardware; LLVM refines it with FMA steps). */
SIM_VOP_F64_1(v_rcp_f64, 1.0 / a)
/* D.d = 1.0 / sqrt(S0.d). */
SIM_VOP_F64_1(v_rsq_f64, 1.0 / sqrt(a))
/* D.d = sqrt(S0.d) (correctly rounded; negative inputs give NaN, -0 gives -0). */
SIM_VOP_F64_1(v_sqrt_f64, sqrt(a))

/* ---- Rounding, fract, frexp --------------------------------------------------------------- */

/* D.d = trunc(S0.d), and the other f64 roundings. */
SIM_VOP_F64_1(v_trunc_f64, trunc(a))
SIM_VOP_F64_1(v_ceil_f64, ceil(a))
SIM_VOP_F64_1(v_rndne_f64, nearbyint(a))
SIM_VOP_F64_1(v_floor_f64, floor(a))

/* D.f = S0.f - floor(S0.f), at most the largest float below 1.0 (NaN/inf give NaN). */
SIM_VOP_F32_1(v_fract_f32, ({
                 float f = a - floorf(a);
                 isnan(f) ? f : fminf(f, 0x1.fffffep-1f);
              }))
/* D.d = S0.d - floor(S0.d), at most the largest double below 1.0. */
SIM_VOP_F64_1(v_fract_f64, ({
                 double f = a - floor(a);
                 isnan(f) ? f : fmin(f, 0x1.fffffffffffffp-1);
              }))

/* frexp of a normal value is its exponent field: the mantissa is the value with the field
 * of 0.5, the exponent the field less 0.5's. These say whether `b`'s field is a normal
 * one; the others (zeros, denormals, infinities, NaN) go through libm. */
static inline bool
normal32(uint32_t b)
{
   return ((b >> 23) & 0xFF) - 1u < 0xFEu;
}
static inline bool
normal64(uint64_t b)
{
   return ((b >> 52) & 0x7FF) - 1u < 0x7FEu;
}
/* 0.5's field is the bias less one: (emax >> 1) - 1. */
#define FREXP_MANT(name, ft, w, mbits, emax, libfn)                                        \
   static inline ft name(ft a)                                                              \
   {                                                                                        \
      uint##w##_t b = sim__as_u##w(a), field = (uint##w##_t)(emax) << (mbits);              \
      uint##w##_t half = (uint##w##_t)(((emax) >> 1) - 1) << (mbits);                       \
      int e_;                                                                               \
      return normal##w(b)   ? sim__as_f##w((b & ~field) | half)                             \
             : isfinite(a) ? libfn(a, &e_)                                                  \
                           : a;                                                             \
   }
FREXP_MANT(frexp_mant32, float, 32, 23, 0xFF, frexpf)
FREXP_MANT(frexp_mant64, double, 64, 52, 0x7FF, frexp)
#undef FREXP_MANT

/* D.f = mantissa of S0.f in [0.5, 1.0) with S0's sign; NaN/inf return S0. */
SIM_VOP_F32_1(v_frexp_mant_f32, frexp_mant32(a))
SIM_VOP_F64_1(v_frexp_mant_f64, frexp_mant64(a))

/* D.i = exponent of S0.f such that S0 = mant * 2^D (0 for zero, NaN and inf). */
void
sim__op_v_frexp_exp_i32_f32(sim_wave *w, const sim_inst *in)
{
   uint32_t t0[64], r[64];
   float f0[64];
   const float *A = sim__f32_in(w, (const float *)sim__vsrc32(w, in, 0, SIM_VT_F32, t0), f0);
   for (unsigned l = 0; l < 64; l++) {
      uint32_t b = sim__as_u32(A[l]);
      int e = 0;
      if (normal32(b))
         e = (int)((b >> 23) & 0xFF) - 0x7E;
      else if (isfinite(A[l]))
         frexpf(A[l], &e);
      r[l] = (uint32_t)e;
   }
   sim__vdst32(w, in, r);
}

void
sim__op_v_frexp_exp_i32_f64(sim_wave *w, const sim_inst *in)
{
   uint64_t u0[64];
   double f0[64];
   uint32_t r[64];
   sim__vsrc64(w, in, 0, SIM_VT_F64, u0);
   const double *A = sim__f64_in(w, (const double *)u0, f0);
   for (unsigned l = 0; l < 64; l++) {
      uint64_t b = sim__as_u64(A[l]);
      int e = 0;
      if (normal64(b))
         e = (int)((b >> 52) & 0x7FF) - 0x3FE;
      else if (isfinite(A[l]))
         frexp(A[l], &e);
      r[l] = (uint32_t)e;
   }
   sim__vdst32(w, in, r);
}

/* ---- Conversions ---------------------------------------------------------------------------- */

/* D.d = (double)S0.i / (double)S0.u. */
static void
cvt_f64_int(sim_wave *w, const sim_inst *in, bool sgn)
{
   uint32_t t0[64];
   double r[64];
   const uint32_t *A = sim__vsrc32(w, in, 0, SIM_VT_I32, t0);
   for (unsigned l = 0; l < 64; l++)
      r[l] = sgn ? (double)(int32_t)A[l] : (double)A[l];
   sim__f64_post(w, in, r);
   sim__vdst64(w, in, (const uint64_t *)r);
}

void
sim__op_v_cvt_f64_i32(sim_wave *w, const sim_inst *in)
{
   cvt_f64_int(w, in, true);
}

void
sim__op_v_cvt_f64_u32(sim_wave *w, const sim_inst *in)
{
   cvt_f64_int(w, in, false);
}

/* D.i = (int)S0.d / D.u = (uint)S0.d: truncating, saturating, NaN -> 0. */
static void
cvt_int_f64(sim_wave *w, const sim_inst *in, bool sgn)
{
   uint64_t u0[64];
   double f0[64];
   uint32_t r[64];
   sim__vsrc64(w, in, 0, SIM_VT_F64, u0);
   const double *A = sim__f64_in(w, (const double *)u0, f0);
   for (unsigned l = 0; l < 64; l++) {
      double d = A[l];
      if (isnan(d))
         r[l] = 0;
      else if (sgn)
         r[l] = d >= 2147483647.0    ? 0x7FFFFFFFu
                : d <= -2147483648.0 ? 0x80000000u
                                     : (uint32_t)(int32_t)d;
      else
         r[l] = d >= 4294967295.0 ? 0xFFFFFFFFu : d <= 0.0 ? 0 : (uint32_t)d;
   }
   sim__vdst32(w, in, r);
}

void
sim__op_v_cvt_i32_f64(sim_wave *w, const sim_inst *in)
{
   cvt_int_f64(w, in, true);
}

void
sim__op_v_cvt_u32_f64(sim_wave *w, const sim_inst *in)
{
   cvt_int_f64(w, in, false);
}

/* D.f16 = flt32_to_flt16(S0.f) (round to nearest even; bits 31:16 zeroed). */
void
sim__op_v_cvt_f16_f32(sim_wave *w, const sim_inst *in)
{
   uint32_t t0[64], r[64];
   float f0[64], c[64];
   const float *A = sim__f32_in(w, (const float *)sim__vsrc32(w, in, 0, SIM_VT_F32, t0), f0);
   const float *S = A;
   if (SIM_UNLIKELY(in->clamp)) {
      for (unsigned l = 0; l < 64; l++)
         c[l] = isnan(A[l]) ? (w->dx10_clamp ? 0.0f : A[l]) : fminf(fmaxf(A[l], 0.0f), 1.0f);
      S = c;
   }
   for (unsigned l = 0; l < 64; l++)
      r[l] = sim__f16_out(w, S[l]);
   sim__vdst16(w, in, r);
}

/* D.f = flt16_to_flt32(S0.f16). */
void
sim__op_v_cvt_f32_f16(sim_wave *w, const sim_inst *in)
{
   uint32_t t0[64];
   float r[64];
   const uint32_t *A = sim__vsrc32(w, in, 0, SIM_VT_F16, t0);
   for (unsigned l = 0; l < 64; l++)
      r[l] = sim__f16_in(w, A[l] & 0xFFFF);
   sim__f32_post(w, in, r);
   sim__vdst32(w, in, (const uint32_t *)r);
}

/* ---- Half precision (bits 31:16 of D zeroed) -----------------------------------------------
 * Every f16 operation below is computed exactly (or as the f32 operation of the same name)
 * in f32/f64 and rounded once to f16 by sim__f16_result. */

/* D.f16 = uint16_to_flt16(S0.u16); V_CVT_F16_I16: from S0.i16 (65535 rounds to +inf). */
SIM_VOP_F16_1(v_cvt_f16_u16, (double)(A[l] & 0xFFFF))
SIM_VOP_F16_1(v_cvt_f16_i16, (double)(int16_t)(A[l] & 0xFFFF))

/* D.u16 = flt16_to_uint16(S0.f16), D.i16 = flt16_to_int16(S0.f16): truncated, saturated,
 * NaN -> 0. */
static void
cvt_int16_f16(sim_wave *w, const sim_inst *in, bool sign)
{
   uint32_t t0[64], r[64];
   const uint32_t *A = sim__vsrc32(w, in, 0, SIM_VT_F16, t0);
   for (unsigned l = 0; l < 64; l++) {
      float a = truncf(sim__f16_in(w, A[l] & 0xFFFF));
      int32_t v;
      if (a != a)
         v = 0;
      else if (sign)
         v = a < -32768.0f ? -32768 : a > 32767.0f ? 32767 : (int32_t)a;
      else
         v = a < 0.0f ? 0 : a > 65535.0f ? 65535 : (int32_t)a;
      r[l] = (uint32_t)v & 0xFFFF;
   }
   sim__vdst16(w, in, r);
}

void
sim__op_v_cvt_u16_f16(sim_wave *w, const sim_inst *in)
{
   cvt_int16_f16(w, in, false);
}

void
sim__op_v_cvt_i16_f16(sim_wave *w, const sim_inst *in)
{
   cvt_int16_f16(w, in, true);
}

/* D.f16 = 1 / S0.f16, sqrt, 1 / sqrt, log2, 2^x, sin/cos of S0 revolutions: correctly
 * rounded (the hardware units are within 1 ULP). */
SIM_VOP_F16_1(v_rcp_f16, 1.0 / a)
SIM_VOP_F16_1(v_sqrt_f16, sqrt((double)a))
SIM_VOP_F16_1(v_rsq_f16, 1.0 / sqrt((double)a))
SIM_VOP_F16_1(v_log_f16, log2((double)a))
SIM_VOP_F16_1(v_exp_f16, exp2((double)a))
SIM_VOP_F16_1(v_sin_f16, sin_rev(a))
SIM_VOP_F16_1(v_cos_f16, cos_rev(a))

/* D.f16 = mantissa of S0.f16 in [0.5, 1.0) with S0's sign; NaN/inf return S0. */
SIM_VOP_F16_1(v_frexp_mant_f16, ({
                 int e_;
                 isfinite(a) ? frexpf(a, &e_) : a;
              }))

/* D.i16 = exponent of S0.f16 such that S0 = mant * 2^D (0 for zero, NaN and inf). */
void
sim__op_v_frexp_exp_i16_f16(sim_wave *w, const sim_inst *in)
{
   uint32_t t0[64], r[64];
   const uint32_t *A = sim__vsrc32(w, in, 0, SIM_VT_F16, t0);
   for (unsigned l = 0; l < 64; l++) {
      float a = sim__f16_in(w, A[l] & 0xFFFF);
      int e = 0;
      if (isfinite(a))
         frexpf(a, &e);
      r[l] = (uint32_t)e & 0xFFFF;
   }
   sim__vdst16(w, in, r);
}

/* Roundings of S0.f16 (exact). */
SIM_VOP_F16_1(v_floor_f16, floorf(a))
SIM_VOP_F16_1(v_ceil_f16, ceilf(a))
SIM_VOP_F16_1(v_trunc_f16, truncf(a))
SIM_VOP_F16_1(v_rndne_f16, nearbyintf(a))
/* D.f16 = S0.f16 - floor(S0.f16), at most the largest f16 below 1.0 (0x3BFF). */
SIM_VOP_F16_1(v_fract_f16, ({
                 float f = a - floorf(a);
                 isnan(f) ? f : fminf(f, 0x1.ffcp-1f);
              }))

/* D.i16 = flt16_to_snorm16(S0.f16) / D.u16 = flt16_to_unorm16(S0.f16): S0 * 32767 (65535)
 * rounded to nearest even, clamped to [-32767, 32767] ([0, 65535]); NaN -> 0. Bits 31:16
 * of D are zeroed (op_sel[3]: written to the high half). The product is exact in double
 * (24 + 16 bits), so the one rounding is the final one. */
uint32_t
sim__norm16(float f, bool sgn)
{
   if (isnan(f))
      return 0;
   double v = nearbyint((double)f * (sgn ? 32767.0 : 65535.0));
   if (sgn)
      return (uint32_t)(int32_t)fmin(fmax(v, -32767.0), 32767.0) & 0xFFFF;
   return (uint32_t)fmin(fmax(v, 0.0), 65535.0);
}

static void
cvt_norm16_f16(sim_wave *w, const sim_inst *in, bool sgn)
{
   uint32_t t0[64], r[64];
   const uint32_t *A = sim__vsrc32(w, in, 0, SIM_VT_F16, t0);
   for (unsigned l = 0; l < 64; l++)
      r[l] = sim__norm16(sim__f16_in(w, A[l] & 0xFFFF), sgn);
   sim__vdst16(w, in, r);
}

void
sim__op_v_cvt_norm_i16_f16(sim_wave *w, const sim_inst *in)
{
   cvt_norm16_f16(w, in, true);
}

void
sim__op_v_cvt_norm_u16_f16(sim_wave *w, const sim_inst *in)
{
   cvt_norm16_f16(w, in, false);
}
