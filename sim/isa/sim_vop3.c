/*
 * VOP3-only opcodes (VOP3 numbers 448+ and 640+): three-source integer/float ops, 64-bit
 * shifts and arithmetic, lane access ([ISA] 12.x "VOP3 instructions"). VOP3b forms
 * (v_mad_u64_u32, v_div_scale) write their carry/flag mask to SDST.
 */
#include <fenv.h>
#include <float.h>
#include <math.h>
#include "sim_isa_priv.h"

/* D.u = S0.u + S1.u + S2.u. */
SIM_VOP_U32_3(v_add3_u32, a + b + c)
/* D.u = (S0.u << S1.u[4:0]) + S2.u. */
SIM_VOP_U32_3(v_lshl_add_u32, (a << (b & 31)) + c)
/* D.u = (S0.u + S1.u) << S2.u[4:0]. */
SIM_VOP_U32_3(v_add_lshl_u32, (a + b) << (c & 31))
/* D.u = (S0.u << S1.u[4:0]) | S2.u. */
SIM_VOP_U32_3(v_lshl_or_b32, (a << (b & 31)) | c)
/* D.u = (S0.u & S1.u) | S2.u. */
SIM_VOP_U32_3(v_and_or_b32, (a & b) | c)
/* D.u = S0.u | S1.u | S2.u. */
SIM_VOP_U32_3(v_or3_b32, a | b | c)
/* D.u = (S0.u ^ S1.u) + S2.u. */
SIM_VOP_U32_3(v_xad_u32, (a ^ b) + c)
/* D.u = (S0.u >> S1.u[4:0]) & ((1 << S2.u[4:0]) - 1). */
SIM_VOP_U32_3(v_bfe_u32, (c & 31) ? (a >> (b & 31)) & ((1u << (c & 31)) - 1) : 0)
/* D.i = signext((S0.i >> S1.u[4:0]) & ((1 << S2.u[4:0]) - 1)). */
SIM_VOP_U32_3(v_bfe_i32, (c & 31) ? (uint32_t)((int32_t)((a >> (b & 31)) << (32 - (c & 31))) >>
                                               (32 - (c & 31)))
                                  : 0)
/* D.u = (S0.u & S1.u) | (~S0.u & S2.u). */
SIM_VOP_U32_3(v_bfi_b32, (a & b) | (~a & c))
/* D.u = ({S0, S1} >> S2.u[4:0])[31:0]. */
SIM_VOP_U32_3(v_alignbit_b32, (uint32_t)((((uint64_t)a << 32) | b) >> (c & 31)))
/* D.u = ({S0, S1} >> (8 * S2.u[1:0]))[31:0]. */
SIM_VOP_U32_3(v_alignbyte_b32, (uint32_t)((((uint64_t)a << 32) | b) >> (8 * (c & 3))))
/* D.u = S0.u[23:0] * S1.u[23:0] + S2.u. */
SIM_VOP_U32_3(v_mad_u32_u24, (a & 0xFFFFFF) * (b & 0xFFFFFF) + c)
/* D.i = S0.i[23:0] * S1.i[23:0] + S2.i. */
SIM_VOP_U32_3(v_mad_i32_i24, (uint32_t)((int32_t)(a << 8) >> 8) * (uint32_t)((int32_t)(b << 8) >> 8) + c)
/* Three-way integer min/max/median. */
#define MIN3(x, y, z) ((x) < (y) ? ((x) < (z) ? (x) : (z)) : ((y) < (z) ? (y) : (z)))
#define MAX3(x, y, z) ((x) > (y) ? ((x) > (z) ? (x) : (z)) : ((y) > (z) ? (y) : (z)))
SIM_VOP_U32_3(v_min3_u32, MIN3(a, b, c))
SIM_VOP_U32_3(v_max3_u32, MAX3(a, b, c))
SIM_VOP_U32_3(v_min3_i32, (uint32_t)MIN3((int32_t)a, (int32_t)b, (int32_t)c))
SIM_VOP_U32_3(v_max3_i32, (uint32_t)MAX3((int32_t)a, (int32_t)b, (int32_t)c))
/* D.i = median(S0.i, S1.i, S2.i). */
SIM_VOP_U32_3(v_med3_i32, ({
                 int32_t x = (int32_t)a, y = (int32_t)b, z = (int32_t)c;
                 int32_t mx = MAX3(x, y, z);
                 (uint32_t)(mx == x ? (y > z ? y : z) : mx == y ? (x > z ? x : z) : (x > y ? x : y));
              }))
SIM_VOP_U32_3(v_med3_u32, ({
                 uint32_t mx = MAX3(a, b, c);
                 mx == a ? (b > c ? b : c) : mx == b ? (a > c ? a : c) : (a > b ? a : b);
              }))

/* D.u = S0.u * S1.u (low 32 bits). */
SIM_VOP_U32_2(v_mul_lo_u32, a * b)
/* D.u = (S0.u * S1.u) >> 32. */
SIM_VOP_U32_2(v_mul_hi_u32, (uint32_t)(((uint64_t)a * b) >> 32))
/* D.i = (S0.i * S1.i) >> 32. */
SIM_VOP_U32_2(v_mul_hi_i32, (uint32_t)(((int64_t)(int32_t)a * (int32_t)b) >> 32))
/* D.u = CountOneBits(S0.u) + S1.u. */
SIM_VOP_U32_2(v_bcnt_u32_b32, (uint32_t)__builtin_popcount(a) + b)
/* D.u = ((1 << S0.u[4:0]) - 1) << S1.u[4:0]. */
SIM_VOP_U32_2(v_bfm_b32, ((1u << (a & 31)) - 1) << (b & 31))

/* D.u = CountOneBits(S0.u & ThreadMask[31:0]) + S1.u, ThreadMask = lanes below this one. */
void
sim__op_v_mbcnt_lo_u32_b32(sim_wave *w, const sim_inst *in)
{
   uint32_t t0[64], t1[64], r[64];
   const uint32_t *A = sim__vsrc32(w, in, 0, SIM_VT_B32, t0);
   const uint32_t *B = sim__vsrc32(w, in, 1, SIM_VT_B32, t1);
   for (unsigned l = 0; l < 64; l++) {
      uint32_t below = l >= 32 ? ~0u : (uint32_t)((1ull << l) - 1);
      r[l] = (uint32_t)__builtin_popcount(A[l] & below) + B[l];
   }
   sim__vdst32(w, in, r);
}

/* D.u = CountOneBits(S0.u & ThreadMask[63:32]) + S1.u. */
void
sim__op_v_mbcnt_hi_u32_b32(sim_wave *w, const sim_inst *in)
{
   uint32_t t0[64], t1[64], r[64];
   const uint32_t *A = sim__vsrc32(w, in, 0, SIM_VT_B32, t0);
   const uint32_t *B = sim__vsrc32(w, in, 1, SIM_VT_B32, t1);
   for (unsigned l = 0; l < 64; l++) {
      uint32_t below = l < 32 ? 0 : (uint32_t)((1ull << (l - 32)) - 1);
      r[l] = (uint32_t)__builtin_popcount(A[l] & below) + B[l];
   }
   sim__vdst32(w, in, r);
}

/* {vcc_out, D.u64} = S0.u32 * S1.u32 + S2.u64 (VOP3b: carry-out mask in SDST). */
static void
mad64(sim_wave *w, const sim_inst *in, bool sgn)
{
   uint32_t t0[64], t1[64];
   uint64_t C[64], r[64], co = 0;
   const uint32_t *A = sim__vsrc32(w, in, 0, SIM_VT_B32, t0);
   const uint32_t *B = sim__vsrc32(w, in, 1, SIM_VT_B32, t1);
   sim__vsrc64(w, in, 2, sgn ? SIM_VT_I64 : SIM_VT_B64, C);
   /* Only EXEC's lanes when it has few (one-work-item work-groups index with it); the
    * carries of other lanes are never written (sim__vmask is a subset of EXEC). */
   SIM_LANE_LOOP(w, r, l, {
      if (sgn) {
         __int128 p = (__int128)((int64_t)(int32_t)A[l] * (int32_t)B[l]) + (int64_t)C[l];
         r[l] = (uint64_t)p;
         co |= (uint64_t)(p != (int64_t)p) << l;
      } else {
         uint64_t p = (uint64_t)A[l] * B[l] + C[l];
         r[l] = p;
         co |= (uint64_t)(p < C[l]) << l; /* the product is below 2^64 - 2^33: one carry */
      }
   });
   uint64_t m = sim__vmask(w, in);
   sim__vdst64(w, in, r);
   sim__vmask_write(w, in, co & m);
}

void
sim__op_v_mad_u64_u32(sim_wave *w, const sim_inst *in)
{
   mad64(w, in, false);
}
void
sim__op_v_mad_i64_i32(sim_wave *w, const sim_inst *in)
{
   mad64(w, in, true);
}

/* D.u64 = S1.u64 << S0.u[5:0] / >> / arithmetic >>. */
#define SHIFT64(name, expr)                                                                 \
   void sim__op_##name(sim_wave *w, const sim_inst *in)                                      \
   {                                                                                        \
      uint32_t t0[64];                                                                      \
      uint64_t B[64], r[64];                                                                \
      sim__vsrc64(w, in, 1, SIM_VT_B64, B);                                                 \
      if (sim__src_uniform(in, 0)) {                                                        \
         /* One shift count: a vector shift (SSE2 has none by lane). */                     \
         const uint32_t a = sim__special32(w, in, in->src[0], 32) & 63;                     \
         for (unsigned l = 0; l < 64; l++) {                                                \
            uint64_t b = B[l];                                                              \
            r[l] = (expr);                                                                  \
         }                                                                                  \
         sim__vdst64(w, in, r);                                                             \
         return;                                                                            \
      }                                                                                     \
      const uint32_t *A = sim__vsrc32(w, in, 0, SIM_VT_B32, t0);                            \
      for (unsigned l = 0; l < 64; l++) {                                                   \
         uint32_t a = A[l] & 63;                                                            \
         uint64_t b = B[l];                                                                 \
         r[l] = (expr);                                                                     \
      }                                                                                     \
      sim__vdst64(w, in, r);                                                                \
   }
SHIFT64(v_lshlrev_b64, b << a)
SHIFT64(v_lshrrev_b64, b >> a)
SHIFT64(v_ashrrev_i64, (uint64_t)((int64_t)b >> a))

/* SGPR[D] = VGPR[S0].lane[S1.u[5:0]] (S1.u[4:0] in a wave32; ignores EXEC). */
void
sim__op_v_readlane_b32(sim_wave *w, const sim_inst *in)
{
   uint32_t lane = sim__sread32(w, in, in->src[1]) & (w->lanes - 1u);
   if (in->src[0] < SIM_SRC_VGPR) {
      sim__fault_illegal(w, in, "v_readlane source is not a VGPR");
      return;
   }
   const uint32_t *row = sim__vdst_row(w, in, in->src[0] - SIM_SRC_VGPR);
   if (row)
      sim__swrite32(w, in->vdst, row[lane]);
}

/* VGPR[D].lane[S1.u[5:0]] = SGPR[S0] (S1.u[4:0] in a wave32; ignores EXEC). */
void
sim__op_v_writelane_b32(sim_wave *w, const sim_inst *in)
{
   uint32_t v = sim__sread32(w, in, in->src[0]);
   uint32_t lane = sim__sread32(w, in, in->src[1]) & (w->lanes - 1u);
   uint32_t *row = sim__vdst_row(w, in, in->vdst);
   if (row)
      row[lane] = v;
}

/* D.f = S0.f * S1.f + S2.f (fused). */
void
sim__op_v_fma_f32(sim_wave *w, const sim_inst *in)
{
   uint32_t t0[64], t1[64], t2[64];
   float f0[64], f1[64], f2[64], r_[64];
   const float *A = sim__f32_in(w, (const float *)sim__vsrc32(w, in, 0, SIM_VT_F32, t0), f0);
   const float *B = sim__f32_in(w, (const float *)sim__vsrc32(w, in, 1, SIM_VT_F32, t1), f1);
   const float *C = sim__f32_in(w, (const float *)sim__vsrc32(w, in, 2, SIM_VT_F32, t2), f2);
   float *r = (float *)sim__vdst32_rows(w, in, (uint32_t *)r_);
   sim__fma_rows(r, A, B, C, SIM_EXEC(w));
   sim__f32_post(w, in, r);
   sim__vdst32(w, in, (const uint32_t *)r);
}
/* D.f = S0.f * S1.f + S2.f (multiply rounded, then add). */
SIM_VOP_F32_3(v_mad_f32, a * b + c)

/* D.d = S0.d + S1.d. */
SIM_VOP_F64_2(v_add_f64, a + b)
/* D.d = S0.d * S1.d. */
SIM_VOP_F64_2(v_mul_f64, a * b)

/* ---- 32/16-bit integer ops with signed clamp --------------------------------------------- */

static inline uint32_t
sat_i32(int64_t v, bool clamp)
{
   if (clamp)
      v = v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v;
   return (uint32_t)v;
}

static inline uint32_t
sat_i16(int32_t v, bool clamp)
{
   if (clamp)
      v = v > INT16_MAX ? INT16_MAX : v < INT16_MIN ? INT16_MIN : v;
   return (uint32_t)v & 0xFFFF;
}

/* D.i = S0.i + S1.i (clamp saturates to the signed range). */
SIM_VOP_U32_2(v_add_i32, sat_i32((int64_t)(int32_t)a + (int32_t)b, in->clamp))
/* D.i = S0.i - S1.i. */
SIM_VOP_U32_2(v_sub_i32, sat_i32((int64_t)(int32_t)a - (int32_t)b, in->clamp))
/* D.i16 = S0.i16 + S1.i16 (clamp saturates). */
SIM_VOP_U16_2(v_add_i16, sat_i16((int16_t)a + (int16_t)b, in->clamp))
/* D.i16 = S0.i16 - S1.i16. */
SIM_VOP_U16_2(v_sub_i16, sat_i16((int16_t)a - (int16_t)b, in->clamp))

/* D.u16 = S0.u16 * S1.u16 + S2.u16 (and the signed / op_sel forms). */
#define MAD16(name, expr)                                                                   \
   void sim__op_##name(sim_wave *w, const sim_inst *in)                                      \
   {                                                                                        \
      uint32_t t0[64], t1[64], t2[64], r[64];                                               \
      const uint32_t *A = sim__vsrc32(w, in, 0, SIM_VT_B16, t0);                            \
      const uint32_t *B = sim__vsrc32(w, in, 1, SIM_VT_B16, t1);                            \
      const uint32_t *C = sim__vsrc32(w, in, 2, SIM_VT_B16, t2);                            \
      for (unsigned l = 0; l < 64; l++) {                                                   \
         uint32_t a = A[l] & 0xFFFF, b = B[l] & 0xFFFF, c = C[l] & 0xFFFF;                  \
         r[l] = (expr);                                                                     \
      }                                                                                     \
      sim__vdst16(w, in, r);                                                                \
   }
MAD16(v_mad_legacy_u16, in->clamp ? (a * b + c > 0xFFFF ? 0xFFFF : a * b + c) : (a * b + c) & 0xFFFF)
MAD16(v_mad_u16, in->clamp ? (a * b + c > 0xFFFF ? 0xFFFF : a * b + c) : (a * b + c) & 0xFFFF)
MAD16(v_mad_legacy_i16, sat_i16((int16_t)a * (int16_t)b + (int16_t)c, in->clamp))
MAD16(v_mad_i16, sat_i16((int16_t)a * (int16_t)b + (int16_t)c, in->clamp))
/* Three-way 16-bit integer min/max/median (VOP3 500-508; the f16 forms are separate). */
static inline int32_t
med3_i(int32_t x, int32_t y, int32_t z)
{
   int32_t mx = MAX3(x, y, z);
   return mx == x ? (y > z ? y : z) : mx == y ? (x > z ? x : z) : (x > y ? x : y);
}
#define I16(v) ((int32_t)(int16_t)(v))
MAD16(v_min3_u16, MIN3(a, b, c))
MAD16(v_max3_u16, MAX3(a, b, c))
MAD16(v_med3_u16, (uint32_t)med3_i((int32_t)a, (int32_t)b, (int32_t)c))
MAD16(v_min3_i16, (uint32_t)MIN3(I16(a), I16(b), I16(c)) & 0xFFFF)
MAD16(v_max3_i16, (uint32_t)MAX3(I16(a), I16(b), I16(c)) & 0xFFFF)
MAD16(v_med3_i16, (uint32_t)med3_i(I16(a), I16(b), I16(c)) & 0xFFFF)
#undef I16

/* D.u[31:24] = byte_permute({S0.u, S1.u}, S2.u[31:24]), ... D.u[7:0] with S2.u[7:0];
 * selector 0-7 picks byte n of {S0, S1} (S1 is bytes 0-3), 8-11 replicate the sign of
 * byte 1, 3, 5, 7, 12 gives 0x00 and 13-255 give 0xFF. */
static inline uint32_t
byte_permute(uint64_t v, uint32_t sel)
{
   if (sel >= 13)
      return 0xFF;
   if (sel == 12)
      return 0;
   if (sel >= 8)
      return ((v >> (16 * (sel - 8) + 15)) & 1) ? 0xFF : 0;
   return (uint32_t)(v >> (8 * sel)) & 0xFF;
}

SIM_VOP_U32_3(v_perm_b32, ({
                 uint64_t v_ = (uint64_t)a << 32 | b;
                 byte_permute(v_, c & 0xFF) | byte_permute(v_, (c >> 8) & 0xFF) << 8 |
                    byte_permute(v_, (c >> 16) & 0xFF) << 16 | byte_permute(v_, c >> 24) << 24;
              }))

/* D.u = {S1.f16, S0.f16} (op_sel picks the source halves). */
void
sim__op_v_pack_b32_f16(sim_wave *w, const sim_inst *in)
{
   uint32_t t0[64], t1[64], r[64];
   const uint32_t *A = sim__vsrc32(w, in, 0, SIM_VT_F16, t0);
   const uint32_t *B = sim__vsrc32(w, in, 1, SIM_VT_F16, t1);
   for (unsigned l = 0; l < 64; l++)
      r[l] = (A[l] & 0xFFFF) | B[l] << 16;
   sim__vdst32(w, in, r);
}

/* ---- Float three-operand, min/max, ldexp --------------------------------------------------- */

/* D.d = S0.d * S1.d + S2.d (fused): sim__fma64_rows. */
void
sim__op_v_fma_f64(sim_wave *w, const sim_inst *in)
{
   sim_f64_srcs t;
   const double *s[3];
   double r[64];
   sim__f64_srcs(w, in, 3, &t, s);
   const double *A = s[0], *B = s[1], *C = s[2];
   sim__fma64_rows(r, A, B, C, SIM_EXEC(w));
   sim__f64_post(w, in, r);
   sim__vdst64(w, in, (const uint64_t *)r);
}
/* IEEE-mode min/max of doubles (V_MIN_F64 / V_MAX_F64, rules as V_MIN_F32). */
SIM_VOP_F64_2_NAN(v_min_f64, SIM_NAN_AS_IS, sim__fmin64(a, b, w->ieee))
SIM_VOP_F64_2_NAN(v_max_f64, SIM_NAN_AS_IS, sim__fmax64(a, b, w->ieee))
/* D.f = min3 / max3 of S0.f, S1.f, S2.f. */
SIM_VOP_F32_3_NAN(v_min3_f32, SIM_NAN_AS_IS, sim__fmin32(sim__fmin32(a, b, w->ieee), c, w->ieee))
SIM_VOP_F32_3_NAN(v_max3_f32, SIM_NAN_AS_IS, sim__fmax32(sim__fmax32(a, b, w->ieee), c, w->ieee))

/* if (isNan(S0.f) || isNan(S1.f) || isNan(S2.f)) D.f = MIN3(S0.f, S1.f, S2.f);
 * else if (MAX3(S0.f, S1.f, S2.f) == S0.f) D.f = MAX(S1.f, S2.f);
 * else if (MAX3(S0.f, S1.f, S2.f) == S1.f) D.f = MAX(S0.f, S2.f); else D.f = MAX(S0.f, S1.f). */
static inline float
med3_f32(float a, float b, float c, bool ieee)
{
   if (isnan(a) || isnan(b) || isnan(c))
      return sim__fmin32(sim__fmin32(a, b, ieee), c, ieee);
   float mx = sim__fmax32(sim__fmax32(a, b, ieee), c, ieee);
   if (mx == a)
      return sim__fmax32(b, c, ieee);
   if (mx == b)
      return sim__fmax32(a, c, ieee);
   return sim__fmax32(a, b, ieee);
}
SIM_VOP_F32_3_NAN(v_med3_f32, SIM_NAN_AS_IS, med3_f32(a, b, c, w->ieee))

/* ldexp of 64 lanes where it moves the exponent field: a normal value with a normal result
 * (the field plus the shift, which cannot carry into the sign), and zeros; the lanes it
 * returns set (denormal, infinite or NaN sources, results past the normal range) are left
 * to libm. A loop without calls or branches: libm's scalbn a lane was a tenth of an
 * interpreted f64 library function's time (rootn). */
#define LDEXP_ROWS(name, ft, ut, mbits, emax)                                               \
   static uint64_t name(const ft *a, const uint32_t *k, ft *r)                              \
   {                                                                                        \
      uint32_t slow[64];                                                                    \
      for (unsigned l = 0; l < 64; l++) {                                                   \
         ut b;                                                                              \
         memcpy(&b, &a[l], sizeof(b));                                                      \
         int64_t e = (int64_t)((b >> (mbits)) & (emax)), n = e + (int32_t)k[l];             \
         bool zero = (ut)(b << 1) == 0;                                                     \
         bool fast = zero || (e >= 1 && e < (emax) && n >= 1 && n < (emax));                \
         ut o = zero ? b : b + ((ut)(uint64_t)(int64_t)(int32_t)k[l] << (mbits));           \
         memcpy(&r[l], &o, sizeof(o));                                                      \
         slow[l] = !fast;                                                                   \
      }                                                                                     \
      return sim__lanes_pack32(slow);                                                       \
   }
LDEXP_ROWS(ldexp32_rows, float, uint32_t, 23, 0xFF)
LDEXP_ROWS(ldexp64_rows, double, uint64_t, 52, 0x7FF)
#undef LDEXP_ROWS

/* D.f = S0.f * 2^S1.i. */
void
sim__op_v_ldexp_f32(sim_wave *w, const sim_inst *in)
{
   uint32_t t0[64], t1[64];
   float f0[64], r[64];
   const float *A = sim__f32_in(w, (const float *)sim__vsrc32(w, in, 0, SIM_VT_F32, t0), f0);
   const uint32_t *B = sim__vsrc32(w, in, 1, SIM_VT_I32, t1);
   for (uint64_t m = ldexp32_rows(A, B, r); m; m &= m - 1) {
      unsigned l = (unsigned)__builtin_ctzll(m);
      r[l] = sim__nanfix32(ldexpf(A[l], (int32_t)B[l]), A[l], 0.0f, 0.0f);
   }
   sim__f32_post(w, in, r);
   sim__vdst32(w, in, (const uint32_t *)r);
}

/* D.d = S0.d * 2^S1.i. */
void
sim__op_v_ldexp_f64(sim_wave *w, const sim_inst *in)
{
   uint64_t u0[64];
   uint32_t t1[64];
   double f0[64], r[64];
   sim__vsrc64(w, in, 0, SIM_VT_F64, u0);
   const double *A = sim__f64_in(w, (const double *)u0, f0);
   const uint32_t *B = sim__vsrc32(w, in, 1, SIM_VT_I32, t1);
   for (uint64_t m = ldexp64_rows(A, B, r); m; m &= m - 1) {
      unsigned l = (unsigned)__builtin_ctzll(m);
      r[l] = sim__nanfix64(ldexp(A[l], (int32_t)B[l]), A[l], 0.0, 0.0);
   }
   sim__f64_post(w, in, r);
   sim__vdst64(w, in, (const uint64_t *)r);
}

/* ---- Division helpers ------------------------------------------------------------------------
 * LLVM's IEEE division: den' = div_scale(den, den, num), num' = div_scale(num, den, num)
 * (VCC), Newton-Raphson on rcp(den') with FMAs, q = div_fmas(r, y, q0) (applies the VCC
 * post-scale), div_fixup(q, den, num) (special cases, sign). */

static inline int
exp32(float f)
{
   return (sim__as_u32(f) >> 23) & 0xFF;
}

static inline int
exp64(double d)
{
   return (int)((sim__as_u64(d) >> 52) & 0x7FF);
}

/*
 * VCC = 0;
 * if (S2.f == 0 || S1.f == 0) D.f = NAN
 * else if (exponent(S2.f) - exponent(S1.f) >= 96)   // N/D near MAX_FLOAT
 *    VCC = 1; if (S0.f == S1.f) D.f = ldexp(S0.f, 64);   // only the denominator
 * else if (S1.f == DENORM) D.f = ldexp(S0.f, 64);
 * else if (1 / S1.f == DENORM && S2.f / S1.f == DENORM)
 *    VCC = 1; if (S0.f == S1.f) D.f = ldexp(S0.f, 64);
 * else if (1 / S1.f == DENORM) D.f = ldexp(S0.f, -64);
 * else if (S2.f / S1.f == DENORM) VCC = 1; if (S0.f == S2.f) D.f = ldexp(S0.f, 64);
 * else if (exponent(S2.f) <= 23) D.f = ldexp(S0.f, 64);   // numerator is tiny
 *
 * With a NaN source and S1, S2 non-zero the value passes through: a NaN S0 comes out
 * quieted (sign and payload kept), as every VALU result does; S1 or S2 NaN or infinite
 * leaves S0 as it is (V_DIV_FIXUP handles those), VCC 0. The 0 / 0 case is the guide's
 * NAN, the default NaN, whatever the sources.
 *
 * In the fourth case the denominator is above 2^126; scaling it up would overflow, so it is
 * scaled down (2^-64) as in the fifth case, which keeps the quotient's post-scale
 * (V_DIV_FMAS) consistent. `bits`/`scale` generalise f32 (96, 64, 23) and f64 (768, 128, 53).
 */
#define DIV_SCALE(ty, EXP, LDEXP, QUIET, lim, k, tiny)                                      \
   static ty div_scale_##ty(ty s0, ty s1, ty s2, unsigned *vcc)                              \
   {                                                                                        \
      *vcc = 0;                                                                             \
      if (s2 == 0 || s1 == 0)                                                               \
         return NAN;                                                                        \
      if (isnan(s0))                                                                        \
         return QUIET(s0);                                                                  \
      if (isnan(s1) || isnan(s2) || isinf(s1) || isinf(s2))                                 \
         return s0;                                                                         \
      if (EXP(s2) - EXP(s1) >= (lim)) {                                                     \
         *vcc = 1;                                                                          \
         return s0 == s1 ? LDEXP(s0, k) : s0;                                               \
      }                                                                                     \
      if (fpclassify(s1) == FP_SUBNORMAL)                                                   \
         return LDEXP(s0, k);                                                               \
      bool rcp_tiny = fpclassify((ty)1 / s1) == FP_SUBNORMAL || (ty)1 / s1 == 0;            \
      ty q = s2 / s1;                                                                       \
      bool q_tiny = fpclassify(q) == FP_SUBNORMAL || q == 0;                                \
      if (rcp_tiny && q_tiny) {                                                             \
         *vcc = 1;                                                                          \
         return s0 == s1 ? LDEXP(s0, -(k)) : s0;                                            \
      }                                                                                     \
      if (rcp_tiny)                                                                         \
         return LDEXP(s0, -(k));                                                            \
      if (q_tiny) {                                                                         \
         *vcc = 1;                                                                          \
         return s0 == s2 ? LDEXP(s0, k) : s0;                                               \
      }                                                                                     \
      if (EXP(s2) <= (tiny))                                                                \
         return LDEXP(s0, k);                                                               \
      return s0;                                                                            \
   }
#define QUIET32(x) sim__nan32((x), 0.0f, 0.0f)
#define QUIET64(x) sim__nan64((x), 0.0, 0.0)
DIV_SCALE(float, exp32, ldexpf, QUIET32, 96, 64, 23)
DIV_SCALE(double, exp64, ldexp, QUIET64, 768, 128, 53)
#undef QUIET32
#undef QUIET64

/* {vcc, D.f} = Divide preop and flags (S0 = value to scale, S1 = denominator,
 * S2 = numerator; S0 must equal S1 or S2). */
void
sim__op_v_div_scale_f32(sim_wave *w, const sim_inst *in)
{
   uint32_t t0[64], t1[64], t2[64];
   float f0[64], f1[64], f2[64], r[64];
   const float *A = sim__f32_in(w, (const float *)sim__vsrc32(w, in, 0, SIM_VT_F32, t0), f0);
   const float *B = sim__f32_in(w, (const float *)sim__vsrc32(w, in, 1, SIM_VT_F32, t1), f1);
   const float *C = sim__f32_in(w, (const float *)sim__vsrc32(w, in, 2, SIM_VT_F32, t2), f2);
   uint64_t bits = 0;
   for (unsigned l = 0; l < 64; l++) {
      unsigned v;
      r[l] = div_scale_float(A[l], B[l], C[l], &v);
      bits |= (uint64_t)v << l;
   }
   uint64_t m = sim__vmask(w, in);
   sim__f32_post(w, in, r);
   sim__vdst32(w, in, (const uint32_t *)r);
   sim__vmask_write(w, in, bits & m);
}

/* {vcc, D.d} = Divide preop and flags, double precision. */
void
sim__op_v_div_scale_f64(sim_wave *w, const sim_inst *in)
{
   sim_f64_srcs t;
   const double *s[3];
   double r[64];
   sim__f64_srcs(w, in, 3, &t, s);
   const double *A = s[0], *B = s[1], *C = s[2];
   uint64_t bits = 0;
   for (unsigned l = 0; l < 64; l++) {
      unsigned v;
      r[l] = div_scale_double(A[l], B[l], C[l], &v);
      bits |= (uint64_t)v << l;
   }
   uint64_t m = sim__vmask(w, in);
   sim__f64_post(w, in, r);
   sim__vdst64(w, in, (const uint64_t *)r);
   sim__vmask_write(w, in, bits & m);
}

/* (a * b + c) * 2^k rounded once: the f32 product is exact in double, the sum is rounded
 * to odd (TwoSum error term) so the final rounding to float is correct, denormals
 * included. */
static float
fma_scaled32(float a, float b, float c, int k)
{
   double p = (double)a * b;
   double s = p + c;
   if (isfinite(s)) {
      double bb = s - p;
      double err = (p - (s - bb)) + (c - bb);
      if (err != 0 && !(sim__as_u64(s) & 1))
         s = nextafter(s, err > 0 ? INFINITY : -INFINITY);
   }
   return (float)ldexp(s, k);
}

/* 2^k * (a * b + c) for a result that the scale makes subnormal (k < 0), rounded once: the
 * FMA toward zero (its inexact flag is the sticky bit), then the bits the subnormal format
 * drops rounded to nearest even by hand. Volatile operands keep the FMA between the
 * rounding-mode switches. */
static double
fma_scaled64_tiny(double a, double b, double c, int k)
{
   volatile double va = a, vb = b, vc = c, vs;
   int mode = fegetround();
   fesetround(FE_TOWARDZERO);
   feclearexcept(FE_INEXACT);
   vs = fma(va, vb, vc);
   int sticky = fetestexcept(FE_INEXACT) != 0;
   fesetround(mode);
   double s = vs;
   if (s == 0 || !isfinite(s))
      return ldexp(fma(a, b, c), k);
   int e;
   uint64_t m = (uint64_t)ldexp(frexp(fabs(s), &e), 53); /* |s| = m * 2^(e-53) */
   int shift = (-1074 - k) - (e - 53);                   /* bits below the result's quantum */
   if (shift <= 0)
      return ldexp(fma(a, b, c), k);
   if (shift > 62)
      return copysign(0.0, s);
   uint64_t q = m >> shift, rem = m & ((1ull << shift) - 1), half = 1ull << (shift - 1);
   if (rem > half || (rem == half && (sticky || (q & 1))))
      q++;
   return copysign(ldexp((double)q, -1074), s);
}

/* (a * b + c) * 2^k for doubles, rounded once. Scaling up: the addends are scaled first
 * when that is exact (a tiny unscaled FMA result would otherwise be rounded at the subnormal
 * quantum before the scale). Scaling down: the FMA result is exact to scale unless the
 * scaled result is subnormal, which fma_scaled64_tiny rounds (the quotients of
 * V_DIV_FMAS_F64 in the subnormal range: the CTS math test's fp64 divide). */
static double
fma_scaled64(double a, double b, double c, int k)
{
   if (k == 0)
      return fma(a, b, c);
   if (k > 0) {
      double a2 = ldexp(a, k), c2 = ldexp(c, k);
      if (ldexp(a2, -k) == a && ldexp(c2, -k) == c)
         return fma(a2, b, c2);
      return ldexp(fma(a, b, c), k);
   }
   double r = fma(a, b, c);
   if (isfinite(r) && r != 0 && fabs(r) < ldexp(DBL_MIN, -k))
      return fma_scaled64_tiny(a, b, c, k);
   return ldexp(r, k);
}

/* if (VCC[i]) D.f = 2**(exponent(S2.f) >= 127 ? 64 : -64) * (S0.f * S1.f + S2.f)
 * else D.f = S0.f * S1.f + S2.f. The post-scale undoes V_DIV_SCALE's: a quotient made
 * small by a scaled-up denominator (huge N/D) goes up, one made large (tiny N/D) goes
 * down. */
void
sim__op_v_div_fmas_f32(sim_wave *w, const sim_inst *in)
{
   uint32_t t0[64], t1[64], t2[64];
   float f0[64], f1[64], f2[64], r[64];
   const float *A = sim__f32_in(w, (const float *)sim__vsrc32(w, in, 0, SIM_VT_F32, t0), f0);
   const float *B = sim__f32_in(w, (const float *)sim__vsrc32(w, in, 1, SIM_VT_F32, t1), f1);
   const float *C = sim__f32_in(w, (const float *)sim__vsrc32(w, in, 2, SIM_VT_F32, t2), f2);
   uint64_t vcc = SIM_VCC(w);
   for (unsigned l = 0; l < 64; l++) {
      int k = 0;
      if ((vcc >> l) & 1)
         k = exp32(C[l]) >= 127 ? 64 : -64;
      r[l] = sim__nanfix32(fma_scaled32(A[l], B[l], C[l], k), A[l], B[l], C[l]);
   }
   sim__f32_post(w, in, r);
   sim__vdst32(w, in, (const uint32_t *)r);
}

/* As V_DIV_FMAS_F32 with 2**(exponent(S2.d) >= 1023 ? 128 : -128). */
void
sim__op_v_div_fmas_f64(sim_wave *w, const sim_inst *in)
{
   sim_f64_srcs t;
   const double *s[3];
   double r[64];
   sim__f64_srcs(w, in, 3, &t, s);
   const double *A = s[0], *B = s[1], *C = s[2];
   uint64_t vcc = SIM_VCC(w);
   for (unsigned l = 0; l < 64; l++) {
      int k = 0;
      if ((vcc >> l) & 1)
         k = exp64(C[l]) >= 1023 ? 128 : -128;
      r[l] = sim__nanfix64(fma_scaled64(A[l], B[l], C[l], k), A[l], B[l], C[l]);
   }
   sim__f64_post(w, in, r);
   sim__vdst64(w, in, (const uint64_t *)r);
}

/*
 * sign_out = sign(S1.f) ^ sign(S2.f);
 * if (S2.f == NAN) D.f = Quiet(S2.f); else if (S1.f == NAN) D.f = Quiet(S1.f);
 * else if (S1.f == S2.f == 0) D.f = 0xffc0_0000;            // 0/0
 * else if (abs(S1.f) == abs(S2.f) == +-INF) D.f = 0xffc0_0000;  // inf/inf
 * else if (S1.f == 0 || abs(S2.f) == +-INF) D.f = sign_out ? -INF : +INF;
 * else if (abs(S1.f) == +-INF || S2.f == 0) D.f = sign_out ? -0 : 0;
 * else if (exponent(S2.f) - exponent(S1.f) < -150) D.f = sign_out ? -underflow : underflow;
 * else if (exponent(S1.f) == 255) D.f = sign_out ? -overflow : overflow;
 * else D.f = sign_out ? -abs(S0.f) : abs(S0.f).
 * A NaN quotient from finite, nonzero operands can only come from an overflowing
 * intermediate (inf - inf in the Newton-Raphson steps when N/D is far beyond the range),
 * so it is returned as the signed overflow, as later ISA guides spell out.
 */
#define DIV_FIXUP(ty, UT, AS_U, AS_F, EXP, qnan_bit, dnan, ulim, emax)                      \
   static ty div_fixup_##ty(ty s0, ty s1, ty s2)                                            \
   {                                                                                        \
      UT sign = (UT)((AS_U(s1) ^ AS_U(s2)) >> (sizeof(UT) * 8 - 1)) << (sizeof(UT) * 8 - 1); \
      if (isnan(s2))                                                                        \
         return AS_F(AS_U(s2) | (qnan_bit));                                                \
      if (isnan(s1))                                                                        \
         return AS_F(AS_U(s1) | (qnan_bit));                                                \
      if (s1 == 0 && s2 == 0)                                                               \
         return AS_F(dnan);                                                                 \
      if (isinf(s1) && isinf(s2))                                                           \
         return AS_F(dnan);                                                                 \
      if (s1 == 0 || isinf(s2))                                                             \
         return AS_F(sign | AS_U((ty)INFINITY));                                            \
      if (isinf(s1) || s2 == 0)                                                             \
         return AS_F(sign);                                                                 \
      if (EXP(s2) - EXP(s1) < (ulim))                                                       \
         return AS_F(sign);                                                                 \
      if (EXP(s1) == (emax) || isnan(s0))                                                   \
         return AS_F(sign | AS_U((ty)INFINITY));                                            \
      return AS_F(sign | (AS_U(s0) & ~((UT)1 << (sizeof(UT) * 8 - 1))));                    \
   }
DIV_FIXUP(float, uint32_t, sim__as_u32, sim__as_f32, exp32, 0x400000u, 0xFFC00000u, -150, 255)
DIV_FIXUP(double, uint64_t, sim__as_u64, sim__as_f64, exp64, 1ull << 51,
          0xFFF8000000000000ull, -1075, 2047)

/* D.f = Divide fixup and flags -- S0.f = Quotient, S1.f = Denominator, S2.f = Numerator. */
SIM_VOP_F32_3_NAN(v_div_fixup_f32, SIM_NAN_AS_IS, div_fixup_float(a, b, c))
/* D.d = Divide fixup and flags, double precision. */
SIM_VOP_F64_3_NAN(v_div_fixup_f64, SIM_NAN_AS_IS, div_fixup_double(a, b, c))

/* ---- V_TRIG_PREOP_F64 ----------------------------------------------------------------------
 * shift = S1.u[4:0] * 53; if (exponent(S0.d) > 1077) shift += exponent(S0.d) - 1077;
 * result = bits [1200 - shift : 1200 - shift - 52] of 2/PI = 0.{b1200 ... b0} as an integer;
 * scale = -53 - shift; if (exponent(S0.d) >= 1968) scale += 128;
 * D.d = ldexp(result, scale), rounding toward zero.
 * The 1201 fraction bits of 2/PI, most significant first, padded with zeros to 38 words. */
static const uint32_t two_over_pi[38] = {
   0xA2F9836E, 0x4E441529, 0xFC2757D1, 0xF534DDC0, 0xDB629599, 0x3C439041, 0xFE5163AB,
   0xDEBBC561, 0xB7246E3A, 0x424DD2E0, 0x06492EEA, 0x09D1921C, 0xFE1DEB1C, 0xB129A73E,
   0xE88235F5, 0x2EBB4484, 0xE99C7026, 0xB45F7E41, 0x3991D639, 0x835339F4, 0x9C845F8B,
   0xBDF9283B, 0x1FF897FF, 0xDE05980F, 0xEF2F118B, 0x5A0A6D1F, 0x6D367ECF, 0x27CB09B7,
   0x4F463F66, 0x9E5FEA2D, 0x7527BAC7, 0xEBE5F17B, 0x3D0739F7, 0x8A5292EA, 0x6BFB5FB1,
   0x1F8D5D08, 0x56033046, 0xFC7B0000,
};

/* Bit k of the fraction counted from its most significant bit (k = 0 is b1200). */
static inline uint64_t
two_over_pi_bit(unsigned k)
{
   if (k > 1200)
      return 0;
   return (two_over_pi[k >> 5] >> (31 - (k & 31))) & 1;
}

/* Two edges the pseudo-code leaves open, as LLVM's constant folding (AMDGPU InstCombine,
 * amdgcn_trig_preop) gives the hardware's answer: a NaN S0 returns S0 quieted, and a window
 * whose 96-bit read would pass the hardware's table of 37 dwords (shift / 32 + 2 >= 37,
 * shift >= 1120) returns 0 though bits 1120-1200 exist. Rounding a subnormal result toward
 * zero or to nearest gives the same value: the first bit a subnormal drops is fraction bit
 * 1074 of 2/PI (0) whatever the window, and with the +128 scale only windows past 1149,
 * already 0, reach the subnormals. */
static double
trig_preop(double x, uint32_t seg)
{
   if (x != x)
      return sim__as_f64(sim__as_u64(x) | 1ull << 51);
   int e = exp64(x);
   unsigned shift = (seg & 31) * 53;
   if (e > 1077)
      shift += (unsigned)(e - 1077);
   if (shift / 32 + 2 >= 37)
      return 0.0;
   uint64_t m = 0;
   for (unsigned k = shift; k < shift + 53; k++)
      m = m << 1 | two_over_pi_bit(k);
   int scale = -53 - (int)shift;
   if (e >= 1968)
      scale += 128;
   if (m == 0)
      return 0.0;
   /* Round toward zero: drop the bits a subnormal result cannot hold. */
   int top = 63 - __builtin_clzll(m) + scale; /* exponent of the leading bit */
   if (top < -1022) {
      int drop = -1022 - top;
      m = drop >= 64 ? 0 : (m >> drop) << drop;
   }
   return ldexp((double)m, scale);
}

void
sim__op_v_trig_preop_f64(sim_wave *w, const sim_inst *in)
{
   uint64_t u0[64];
   uint32_t t1[64];
   double r[64];
   sim__vsrc64(w, in, 0, SIM_VT_F64, u0);
   const uint32_t *B = sim__vsrc32(w, in, 1, SIM_VT_B32, t1);
   for (unsigned l = 0; l < 64; l++)
      r[l] = trig_preop(sim__as_f64(u0[l]), B[l]);
   sim__f64_post(w, in, r);
   sim__vdst64(w, in, (const uint64_t *)r);
}

/* ---- Half precision --------------------------------------------------------------------------
 * gfx9 forms (op_sel capable): V_MAD_F16, V_FMA_F16 and V_DIV_FIXUP_F16 preserve bits 31:16
 * of D (LLVM's fp16SrcZerosHighBits: only GFX8 zeroes them); their _legacy (GFX8) forms and
 * the min3/max3/med3 forms zero them. */

/* D.f16 = S0.f16 * S1.f16 + S2.f16, the product rounded first (fmad). */
#define MAD_F16(a, b, c)                                                                    \
   ((double)sim__f16_in(w, sim__f16_result(w, &(sim_inst){ 0 }, (double)(a) * (b))) + (c))
SIM_VOP_F16_3(v_mad_f16, sim__vdst16_preserve, MAD_F16(a, b, c))
SIM_VOP_F16_3(v_mad_legacy_f16, sim__vdst16, MAD_F16(a, b, c))
/* D.f16 = S0.f16 * S1.f16 + S2.f16, fused (one rounding). */
SIM_VOP_F16_3(v_fma_f16, sim__vdst16_preserve, sim__fma16(a, b, c))
SIM_VOP_F16_3(v_fma_legacy_f16, sim__vdst16, sim__fma16(a, b, c))
#undef MAD_F16

/* Three-way IEEE-mode min/max/median of f16 (rules of V_MIN3_F32 / V_MED3_F32). */
static inline uint32_t
med3_f16(uint32_t a, uint32_t b, uint32_t c, bool ieee)
{
   if ((a & 0x7FFF) > 0x7C00 || (b & 0x7FFF) > 0x7C00 || (c & 0x7FFF) > 0x7C00)
      return sim__fminmax16(sim__fminmax16(a, b, ieee, false), c, ieee, false);
   uint32_t mx = sim__fminmax16(sim__fminmax16(a, b, ieee, true), c, ieee, true);
   if (mx == a)
      return sim__fminmax16(b, c, ieee, true);
   if (mx == b)
      return sim__fminmax16(a, c, ieee, true);
   return sim__fminmax16(a, b, ieee, true);
}
#define F16_CLAMPED(h) sim__f16_result(w, in, sim__f16_to_f32(h))
SIM_VOP_F16_3_BITS(v_min3_f16, sim__vdst16,
                   F16_CLAMPED(sim__fminmax16(sim__fminmax16(ha, hb, w->ieee, false), hc,
                                              w->ieee, false)))
SIM_VOP_F16_3_BITS(v_max3_f16, sim__vdst16,
                   F16_CLAMPED(sim__fminmax16(sim__fminmax16(ha, hb, w->ieee, true), hc,
                                              w->ieee, true)))
SIM_VOP_F16_3_BITS(v_med3_f16, sim__vdst16, F16_CLAMPED(med3_f16(ha, hb, hc, w->ieee)))
#undef F16_CLAMPED

/* V_DIV_FIXUP_F16: V_DIV_FIXUP_F32's rules on f16 bits (S0 quotient, S1 denominator, S2
 * numerator); a NaN quotient from finite operands is the signed overflow. */
static inline uint32_t
div_fixup_f16(uint32_t q, uint32_t d, uint32_t n)
{
   uint32_t sign = (d ^ n) & 0x8000, da = d & 0x7FFF, na = n & 0x7FFF;
   if (na > 0x7C00)
      return n | 0x200;
   if (da > 0x7C00)
      return d | 0x200;
   if ((da == 0 && na == 0) || (da == 0x7C00 && na == 0x7C00))
      return 0xFE00;
   if (da == 0 || na == 0x7C00)
      return sign | 0x7C00;
   if (da == 0x7C00 || na == 0)
      return sign;
   if ((q & 0x7FFF) > 0x7C00)
      return sign | 0x7C00;
   return sign | (q & 0x7FFF);
}
SIM_VOP_F16_3_BITS(v_div_fixup_f16, sim__vdst16_preserve, div_fixup_f16(ha, hb, hc))
SIM_VOP_F16_3_BITS(v_div_fixup_legacy_f16, sim__vdst16, div_fixup_f16(ha, hb, hc))

/* D = {flt32_to_flt16(S1.f), flt32_to_flt16(S0.f)}, rounding toward zero. */
static inline uint32_t
f16_rtz(const sim_wave *w, float x)
{
   uint32_t h = sim__f32_to_f16(x);
   if (x == x && fabsf(sim__f16_to_f32(h)) > fabsf(x))
      h -= 1; /* one step toward zero (+-inf becomes +-65504) */
   if (!(w->denorm16_64 & 2) && (h & 0x7C00) == 0)
      h &= 0x8000;
   return h;
}

void
sim__op_v_cvt_pkrtz_f16_f32(sim_wave *w, const sim_inst *in)
{
   uint32_t t0[64], t1[64], r[64];
   float f0[64], f1[64];
   const float *A = sim__f32_in(w, (const float *)sim__vsrc32(w, in, 0, SIM_VT_F32, t0), f0);
   const float *B = sim__f32_in(w, (const float *)sim__vsrc32(w, in, 1, SIM_VT_F32, t1), f1);
   for (unsigned l = 0; l < 64; l++)
      r[l] = f16_rtz(w, A[l]) | f16_rtz(w, B[l]) << 16;
   sim__vdst32(w, in, r);
}

/* ---- Legacy multiply-add, cube map ------------------------------------------------------ */

/* D.f = S0.f * S1.f + S2.f with DX9 rules (0.0 * x = +0.0), two roundings; the NaN rule
 * of sim__nanfix32_legacy. */
SIM_VOP_F32_3_NAN(v_mad_legacy_f32, sim__nanfix32_legacy, sim__fmul_legacy(a, b) + c)

/* Cube map major axis: z when |S2| >= |S0| and |S2| >= |S1|, else y when |S1| >= |S0|,
 * else x (NaN comparisons are false). */
static inline unsigned
cube_axis(float x, float y, float z)
{
   if (fabsf(z) >= fabsf(x) && fabsf(z) >= fabsf(y))
      return 2;
   return fabsf(y) >= fabsf(x) ? 1 : 0;
}

/* D.f = face id: z major: S2 < 0 ? 5.0 : 4.0; y major: S1 < 0 ? 3.0 : 2.0; x major:
 * S0 < 0 ? 1.0 : 0.0. */
SIM_VOP_F32_3(v_cubeid_f32, ({
                 unsigned ax_ = cube_axis(a, b, c);
                 float v_ = ax_ == 2 ? c : ax_ == 1 ? b : a;
                 (float)(2 * ax_ + (v_ < 0.0f));
              }))
/* D.f = S coordinate: z major: S2 < 0 ? -S0 : S0; y major: S0; x major: S0 < 0 ? S2 : -S2. */
SIM_VOP_F32_3(v_cubesc_f32, ({
                 unsigned ax_ = cube_axis(a, b, c);
                 ax_ == 2 ? (c < 0.0f ? -a : a) : ax_ == 1 ? a : (a < 0.0f ? c : -c);
              }))
/* D.f = T coordinate: z major: -S1; y major: S1 < 0 ? -S2 : S2; x major: -S1. */
SIM_VOP_F32_3(v_cubetc_f32, ({
                 unsigned ax_ = cube_axis(a, b, c);
                 ax_ == 1 ? (b < 0.0f ? -c : c) : -b;
              }))
/* D.f = 2.0 * the major axis component (signed). */
SIM_VOP_F32_3(v_cubema_f32, ({
                 unsigned ax_ = cube_axis(a, b, c);
                 2.0f * (ax_ == 2 ? c : ax_ == 1 ? b : a);
              }))

/* ---- Sums of absolute differences, byte lerp, 16-bit multiply-add ------------------------
 * The VOP3 clamp bit saturates the integer result (to 32 bits, or 16 per packed field)
 * instead of letting it wrap. */

static inline uint32_t
absdiff(uint32_t x, uint32_t y)
{
   return x > y ? x - y : y - x;
}

/* Sum over the four bytes of |S0.u8[i] - S1.u8[i]|; masked: bytes whose S1 (reference) byte
 * is 0 are left out (V_MSAD_U8). */
static inline uint32_t
sad_u8(uint32_t x, uint32_t y, bool masked)
{
   uint32_t s = 0;
   for (unsigned i = 0; i < 32; i += 8) {
      uint32_t yb = (y >> i) & 0xFF;
      if (!masked || yb)
         s += absdiff((x >> i) & 0xFF, yb);
   }
   return s;
}

static inline uint32_t
sat_add_u32(uint64_t s, bool clamp)
{
   return clamp && s > 0xFFFFFFFFull ? 0xFFFFFFFFu : (uint32_t)s;
}

/* D.u = SAD_U8(S0, S1) + S2.u. */
SIM_VOP_U32_3(v_sad_u8, sat_add_u32((uint64_t)sad_u8(a, b, false) + c, in->clamp))
/* D.u = (SAD_U8(S0, S1) << 16) + S2.u. */
SIM_VOP_U32_3(v_sad_hi_u8, sat_add_u32(((uint64_t)sad_u8(a, b, false) << 16) + c, in->clamp))
/* D.u = |S0.u[31:16] - S1.u[31:16]| + |S0.u[15:0] - S1.u[15:0]| + S2.u. */
SIM_VOP_U32_3(v_sad_u16, sat_add_u32((uint64_t)absdiff(a >> 16, b >> 16) +
                                        absdiff(a & 0xFFFF, b & 0xFFFF) + c,
                                     in->clamp))
/* D.u = |S0.u - S1.u| + S2.u (the unsigned difference, as LLVM selects it from
 * umax - umin). */
SIM_VOP_U32_3(v_sad_u32, sat_add_u32((uint64_t)absdiff(a, b) + c, in->clamp))
/* D.u = masked SAD_U8(S0, S1) + S2.u: bytes whose S1 byte is 0 count nothing. */
SIM_VOP_U32_3(v_msad_u8, sat_add_u32((uint64_t)sad_u8(a, b, true) + c, in->clamp))

/* D.u8[i] = (S0.u8[i] + S1.u8[i] + S2.u8[i][0]) >> 1 for each byte: an average rounded up
 * where bit 0 of the S2 byte is set, truncated otherwise. */
SIM_VOP_U32_3(v_lerp_u8, ({
                 uint32_t r_ = 0;
                 for (unsigned i = 0; i < 32; i += 8)
                    r_ |= ((((a >> i) & 0xFF) + ((b >> i) & 0xFF) + ((c >> i) & 1)) >> 1) << i;
                 r_;
              }))

/* D.u = S0.u16 * S1.u16 + S2.u (op_sel picks the 16-bit halves of S0/S1). */
void
sim__op_v_mad_u32_u16(sim_wave *w, const sim_inst *in)
{
   uint32_t t0[64], t1[64], t2[64], r[64];
   const uint32_t *A = sim__vsrc32(w, in, 0, SIM_VT_B16, t0);
   const uint32_t *B = sim__vsrc32(w, in, 1, SIM_VT_B16, t1);
   const uint32_t *C = sim__vsrc32(w, in, 2, SIM_VT_B32, t2);
   for (unsigned l = 0; l < 64; l++)
      r[l] = sat_add_u32((uint64_t)((A[l] & 0xFFFF) * (B[l] & 0xFFFF)) + C[l], in->clamp);
   sim__vdst32(w, in, r);
}

/* D.i = S0.i16 * S1.i16 + S2.i (clamp: saturated to the i32 range). */
void
sim__op_v_mad_i32_i16(sim_wave *w, const sim_inst *in)
{
   uint32_t t0[64], t1[64], t2[64], r[64];
   const uint32_t *A = sim__vsrc32(w, in, 0, SIM_VT_I16, t0);
   const uint32_t *B = sim__vsrc32(w, in, 1, SIM_VT_I16, t1);
   const uint32_t *C = sim__vsrc32(w, in, 2, SIM_VT_I32, t2);
   for (unsigned l = 0; l < 64; l++) {
      int64_t s = (int64_t)((int32_t)(int16_t)A[l] * (int16_t)B[l]) + (int32_t)C[l];
      if (in->clamp)
         s = s < INT32_MIN ? INT32_MIN : s > INT32_MAX ? INT32_MAX : s;
      r[l] = (uint32_t)s;
   }
   sim__vdst32(w, in, r);
}

/* Quad SADs over the sliding byte window of the 64-bit S0: for i = 0..3,
 * field i = SAD_U8(S0.u64[8i+31:8i], S1.u32) + S2 field i (masked for the MQSAD forms).
 * V_QSAD_PK_U16_U8 / V_MQSAD_PK_U16_U8: 16-bit fields of S2.u64 and D.u64;
 * V_MQSAD_U32_U8: 32-bit fields of S2.u128 and D.u128 (VGPR quads). */
static void
qsad(sim_wave *w, const sim_inst *in, bool masked, bool wide)
{
   uint64_t S0[64], S2[64], r[64];
   uint32_t t1[64];
   sim__vsrc64(w, in, 0, SIM_VT_B64, S0);
   const uint32_t *B = sim__vsrc32(w, in, 1, SIM_VT_B32, t1);
   if (!wide) {
      sim__vsrc64(w, in, 2, SIM_VT_B64, S2);
      for (unsigned l = 0; l < 64; l++) {
         uint64_t d = 0;
         for (unsigned i = 0; i < 4; i++) {
            uint32_t s = sad_u8((uint32_t)(S0[l] >> (8 * i)), B[l], masked) +
                         (uint32_t)((S2[l] >> (16 * i)) & 0xFFFF);
            if (s > 0xFFFF)
               s = in->clamp ? 0xFFFF : s & 0xFFFF;
            d |= (uint64_t)s << (16 * i);
         }
         r[l] = d;
      }
      sim__vdst64(w, in, r);
      return;
   }
   if (in->src[2] < SIM_SRC_VGPR) {
      sim__fault_illegal(w, in, "V_MQSAD_U32_U8 S2 must be a VGPR quad");
      return;
   }
   uint32_t *c[4], *d[4], out[4][64];
   for (unsigned k = 0; k < 4; k++)
      if (!(c[k] = sim__vdst_row(w, in, in->src[2] - SIM_SRC_VGPR + k)) ||
          !(d[k] = sim__vdst_row(w, in, in->vdst + k)))
         return;
   for (unsigned l = 0; l < 64; l++)
      for (unsigned i = 0; i < 4; i++)
         out[i][l] = sat_add_u32((uint64_t)sad_u8((uint32_t)(S0[l] >> (8 * i)), B[l], true) +
                                    c[i][l],
                                 in->clamp);
   uint64_t m = SIM_EXEC(w);
   for (unsigned i = 0; i < 4; i++)
      sim__lanes_select(d[i], out[i], m);
}

void
sim__op_v_qsad_pk_u16_u8(sim_wave *w, const sim_inst *in)
{
   qsad(w, in, false, false);
}

void
sim__op_v_mqsad_pk_u16_u8(sim_wave *w, const sim_inst *in)
{
   qsad(w, in, true, false);
}

void
sim__op_v_mqsad_u32_u8(sim_wave *w, const sim_inst *in)
{
   qsad(w, in, true, true);
}

/* ---- Packing conversions ------------------------------------------------------------------ */

/* D = {i32_to_i16_sat(S1.i), i32_to_i16_sat(S0.i)}. */
static inline uint32_t
i32_to_i16_sat(uint32_t x)
{
   int32_t v = (int32_t)x;
   return (uint32_t)(v < -32768 ? -32768 : v > 32767 ? 32767 : v) & 0xFFFF;
}
SIM_VOP_U32_2(v_cvt_pk_i16_i32, i32_to_i16_sat(a) | i32_to_i16_sat(b) << 16)
/* D = {min(S1.u, 0xFFFF), min(S0.u, 0xFFFF)}. */
SIM_VOP_U32_2(v_cvt_pk_u16_u32, (a > 0xFFFF ? 0xFFFF : a) | (b > 0xFFFF ? 0xFFFF : b) << 16)

/* D = {flt_to_[su]norm16(S1), flt_to_[su]norm16(S0)} from f32 or f16 sources. */
static void
cvt_pknorm(sim_wave *w, const sim_inst *in, bool sgn, bool f16)
{
   uint32_t t0[64], t1[64], r[64];
   float f0[64], f1[64];
   const float *A, *B;
   if (f16) {
      const uint32_t *H0 = sim__vsrc32(w, in, 0, SIM_VT_F16, t0);
      const uint32_t *H1 = sim__vsrc32(w, in, 1, SIM_VT_F16, t1);
      for (unsigned l = 0; l < 64; l++) {
         f0[l] = sim__f16_in(w, H0[l] & 0xFFFF);
         f1[l] = sim__f16_in(w, H1[l] & 0xFFFF);
      }
      A = f0;
      B = f1;
   } else {
      A = sim__f32_in(w, (const float *)sim__vsrc32(w, in, 0, SIM_VT_F32, t0), f0);
      B = sim__f32_in(w, (const float *)sim__vsrc32(w, in, 1, SIM_VT_F32, t1), f1);
   }
   for (unsigned l = 0; l < 64; l++)
      r[l] = sim__norm16(A[l], sgn) | sim__norm16(B[l], sgn) << 16;
   sim__vdst32(w, in, r);
}

void
sim__op_v_cvt_pknorm_i16_f32(sim_wave *w, const sim_inst *in)
{
   cvt_pknorm(w, in, true, false);
}
void
sim__op_v_cvt_pknorm_u16_f32(sim_wave *w, const sim_inst *in)
{
   cvt_pknorm(w, in, false, false);
}
void
sim__op_v_cvt_pknorm_i16_f16(sim_wave *w, const sim_inst *in)
{
   cvt_pknorm(w, in, true, true);
}
void
sim__op_v_cvt_pknorm_u16_f16(sim_wave *w, const sim_inst *in)
{
   cvt_pknorm(w, in, false, true);
}

/* flt32_to_uint8: rounded to nearest even, clamped to [0, 255], NaN -> 0. */
static inline uint32_t
f32_to_u8(float f)
{
   if (isnan(f))
      return 0;
   return (uint32_t)fminf(fmaxf(nearbyintf(f), 0.0f), 255.0f);
}

/* D.u = (S2.u & ~(0xFF << 8 * S1.u[1:0])) | flt32_to_uint8(S0.f) << 8 * S1.u[1:0];
 * V_CVT_PKACCUM_U8_F32 merges into D itself instead of S2. */
static void
cvt_pk_u8(sim_wave *w, const sim_inst *in, bool accum)
{
   uint32_t t0[64], t1[64], t2[64], r[64];
   float f0[64];
   const float *A = sim__f32_in(w, (const float *)sim__vsrc32(w, in, 0, SIM_VT_F32, t0), f0);
   const uint32_t *B = sim__vsrc32(w, in, 1, SIM_VT_B32, t1);
   const uint32_t *C = accum ? sim__vdst_row(w, in, in->vdst)
                             : sim__vsrc32(w, in, 2, SIM_VT_B32, t2);
   if (!C)
      return;
   for (unsigned l = 0; l < 64; l++) {
      unsigned sh = 8 * (B[l] & 3);
      r[l] = (C[l] & ~(0xFFu << sh)) | f32_to_u8(A[l]) << sh;
   }
   sim__vdst32(w, in, r);
}

void
sim__op_v_cvt_pk_u8_f32(sim_wave *w, const sim_inst *in)
{
   cvt_pk_u8(w, in, false);
}
void
sim__op_v_cvt_pkaccum_u8_f32(sim_wave *w, const sim_inst *in)
{
   cvt_pk_u8(w, in, true);
}
