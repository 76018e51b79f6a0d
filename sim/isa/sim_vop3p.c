/*
 * VOP3P: packed 16-bit math ([ISA] 12.x "VOP3P instructions"). For each half h, source i
 * reads its low half when op_sel[i] (h = lo) / op_sel_hi[i] (h = hi) is 0, else its high
 * half; neg / neg_hi negate float halves.
 */
#include <math.h>
#include "sim_isa_priv.h"

/* Half `hi` of packed source i for every lane. */
static void
pk_src(sim_wave *w, const sim_inst *in, unsigned i, uint32_t *out_lo, uint32_t *out_hi)
{
   uint32_t t[64];
   const uint32_t *S = sim__vsrc32(w, in, i, SIM_VT_B32, t);
   bool lo_hi = (in->op_sel >> i) & 1, hi_hi = (in->op_sel_hi >> i) & 1;
   for (unsigned l = 0; l < 64; l++) {
      out_lo[l] = lo_hi ? S[l] >> 16 : S[l] & 0xFFFF;
      out_hi[l] = hi_hi ? S[l] >> 16 : S[l] & 0xFFFF;
   }
}

#define PK_U16_2(name, expr)                                                                \
   void sim__op_##name(sim_wave *w, const sim_inst *in)                                      \
   {                                                                                        \
      uint32_t al[64], ah[64], bl[64], bh[64], r[64];                                       \
      pk_src(w, in, 0, al, ah);                                                             \
      pk_src(w, in, 1, bl, bh);                                                             \
      for (unsigned l = 0; l < 64; l++) {                                                   \
         uint32_t a = al[l], b = bl[l], lo, hi;                                             \
         lo = (expr) & 0xFFFF;                                                              \
         a = ah[l];                                                                         \
         b = bh[l];                                                                         \
         hi = (expr) & 0xFFFF;                                                              \
         r[l] = lo | hi << 16;                                                              \
      }                                                                                     \
      sim__vdst32(w, in, r);                                                                \
   }

/* D.u[15:0] = S0.u[15:0] + S1.u[15:0]; D.u[31:16] = S0.u[31:16] + S1.u[31:16]
 * (clamp saturates). */
PK_U16_2(v_pk_add_u16, in->clamp ? (a + b > 0xFFFF ? 0xFFFF : a + b) : a + b)
/* Packed subtract. */
PK_U16_2(v_pk_sub_u16, in->clamp ? (b > a ? 0 : a - b) : a - b)
/* Packed low multiply. */
PK_U16_2(v_pk_mul_lo_u16, a * b)
/* Packed shifts: D.h = S1.h << S0.h[3:0] etc. */
PK_U16_2(v_pk_lshlrev_b16, b << (a & 15))
PK_U16_2(v_pk_lshrrev_b16, b >> (a & 15))
PK_U16_2(v_pk_ashrrev_i16, (uint32_t)((int16_t)b >> (a & 15)))
PK_U16_2(v_pk_max_u16, a > b ? a : b)
PK_U16_2(v_pk_min_u16, a < b ? a : b)
PK_U16_2(v_pk_max_i16, (int16_t)a > (int16_t)b ? a : b)
PK_U16_2(v_pk_min_i16, (int16_t)a < (int16_t)b ? a : b)
PK_U16_2(v_pk_add_i16, a + b)
PK_U16_2(v_pk_sub_i16, a - b)

/* D.h = S0.h * S1.h + S2.h per half (V_PK_MAD_U16 / V_PK_MAD_I16; clamp saturates). */
static void
pk_mad16(sim_wave *w, const sim_inst *in, bool sign)
{
   uint32_t al[64], ah[64], bl[64], bh[64], cl[64], ch[64], r[64];
   pk_src(w, in, 0, al, ah);
   pk_src(w, in, 1, bl, bh);
   pk_src(w, in, 2, cl, ch);
   for (unsigned l = 0; l < 64; l++) {
      uint32_t h[2];
      for (int k = 0; k < 2; k++) {
         uint32_t a = k ? ah[l] : al[l], b = k ? bh[l] : bl[l], c = k ? ch[l] : cl[l];
         int64_t v = sign ? (int64_t)(int16_t)a * (int16_t)b + (int16_t)c : (int64_t)a * b + c;
         if (in->clamp)
            v = sign ? (v < -32768 ? -32768 : v > 32767 ? 32767 : v) : (v > 65535 ? 65535 : v);
         h[k] = (uint32_t)v & 0xFFFF;
      }
      r[l] = h[0] | h[1] << 16;
   }
   sim__vdst32(w, in, r);
}

void
sim__op_v_pk_mad_u16(sim_wave *w, const sim_inst *in)
{
   pk_mad16(w, in, false);
}

void
sim__op_v_pk_mad_i16(sim_wave *w, const sim_inst *in)
{
   pk_mad16(w, in, true);
}

/* ---- Packed f16 --------------------------------------------------------------------------
 * Float inline constants read as f16 in the low half, 0 in the high half (LLVM's
 * getInlineEncodingV216: what the hardware does); NEG negates the low-half operands,
 * NEG_HI the high-half ones. Each half is rounded once (sim__f16_result: clamp, flushing). */
static void
pk_src_f16(sim_wave *w, const sim_inst *in, unsigned i, float *lo, float *hi)
{
   uint32_t t[64];
   const uint32_t *S = sim__vsrc32(w, in, i, SIM_VT_F16, t);
   bool lo_hi = (in->op_sel >> i) & 1, hi_hi = (in->op_sel_hi >> i) & 1;
   uint32_t nlo = (in->neg >> i) & 1 ? 0x8000 : 0, nhi = (in->neg_hi >> i) & 1 ? 0x8000 : 0;
   for (unsigned l = 0; l < 64; l++) {
      lo[l] = sim__f16_in(w, ((lo_hi ? S[l] >> 16 : S[l]) & 0xFFFF) ^ nlo);
      hi[l] = sim__f16_in(w, ((hi_hi ? S[l] >> 16 : S[l]) & 0xFFFF) ^ nhi);
   }
}

#define PK_F16(name, nsrc, expr) PK_F16_NAN(name, nsrc, sim__nanfix16, expr)
#define PK_F16_NAN(name, nsrc, fix, expr)                                                   \
   void sim__op_##name(sim_wave *w, const sim_inst *in)                                      \
   {                                                                                        \
      float al[64], ah[64], bl[64], bh[64], cl[64], ch[64];                                 \
      uint32_t r[64];                                                                       \
      pk_src_f16(w, in, 0, al, ah);                                                         \
      pk_src_f16(w, in, 1, bl, bh);                                                         \
      if (nsrc > 2)                                                                         \
         pk_src_f16(w, in, 2, cl, ch);                                                      \
      for (unsigned l = 0; l < 64; l++) {                                                   \
         float a = al[l], b = bl[l], c = nsrc > 2 ? cl[l] : 0.0f;                           \
         uint32_t lo = sim__f16_result(w, in, fix((expr), a, b, c));                        \
         a = ah[l], b = bh[l], c = nsrc > 2 ? ch[l] : 0.0f;                                 \
         uint32_t hi = sim__f16_result(w, in, fix((expr), a, b, c));                        \
         (void)c;                                                                           \
         r[l] = lo | hi << 16;                                                              \
      }                                                                                     \
      sim__vdst32(w, in, r);                                                                \
   }

PK_F16(v_pk_add_f16, 2, (double)a + b)
PK_F16(v_pk_mul_f16, 2, (double)a * b)
PK_F16(v_pk_fma_f16, 3, sim__fma16(a, b, c))
PK_F16_NAN(v_pk_min_f16, 2, SIM_NAN_AS_IS,
       sim__f16_to_f32(sim__fminmax16(sim__f32_to_f16(a), sim__f32_to_f16(b), w->ieee, false)))
PK_F16_NAN(v_pk_max_f16, 2, SIM_NAN_AS_IS,
       sim__f16_to_f32(sim__fminmax16(sim__f32_to_f16(a), sim__f32_to_f16(b), w->ieee, true)))

/* ---- Mixed precision ---------------------------------------------------------------------
 * V_FMA_MIX_F32: D.f = fma(S0, S1, S2); V_FMA_MIXLO_F16 / V_FMA_MIXHI_F16: the same rounded
 * to f16 into the low / high half of D (the other half kept). Source i is f32 when
 * op_sel_hi[i] is 0, else the f16 half op_sel[i] selects; NEG negates and NEG_HI takes the
 * absolute value. The f16 forms round the f32 result (what LLVM selects them for:
 * fptrunc(fma f32)). */
static void
mix_src(sim_wave *w, const sim_inst *in, unsigned i, float *out)
{
   uint32_t t[64];
   bool f16 = (in->op_sel_hi >> i) & 1, hi = (in->op_sel >> i) & 1;
   bool neg = (in->neg >> i) & 1, abs_ = (in->neg_hi >> i) & 1;
   const uint32_t *S = sim__vsrc32(w, in, i, f16 ? SIM_VT_F16 : SIM_VT_F32, t);
   for (unsigned l = 0; l < 64; l++) {
      float f = f16 ? sim__f16_in(w, (hi ? S[l] >> 16 : S[l]) & 0xFFFF) : sim__as_f32(S[l]);
      if (abs_)
         f = fabsf(f);
      out[l] = neg ? -f : f;
   }
}

static void
fma_mix(sim_wave *w, const sim_inst *in, int half)
{
   float a[64], b[64], c[64], f[64];
   mix_src(w, in, 0, a);
   mix_src(w, in, 1, b);
   mix_src(w, in, 2, c);
   sim__fma_rows(f, a, b, c, SIM_EXEC(w));
   if (half < 0) {
      sim__f32_post(w, in, f);
      sim__vdst32(w, in, (const uint32_t *)f);
      return;
   }
   uint32_t *d = sim__vdst_row(w, in, in->vdst);
   if (!d)
      return;
   uint64_t m = sim__vmask(w, in);
   for (unsigned l = 0; l < 64; l++) {
      if (!((m >> l) & 1))
         continue;
      uint32_t h = sim__f16_result(w, in, f[l]);
      d[l] = half ? (d[l] & 0xFFFF) | h << 16 : (d[l] & 0xFFFF0000u) | h;
   }
}

void
sim__op_v_fma_mix_f32(sim_wave *w, const sim_inst *in)
{
   fma_mix(w, in, -1);
}

void
sim__op_v_fma_mixlo_f16(sim_wave *w, const sim_inst *in)
{
   fma_mix(w, in, 0);
}

void
sim__op_v_fma_mixhi_f16(sim_wave *w, const sim_inst *in)
{
   fma_mix(w, in, 1);
}

/* D.f = S0.f16[0] * S1.f16[0] + S0.f16[1] * S1.f16[1] + S2.f (products exact, the sum
 * rounded to f32). */
void
sim__op_v_dot2_f32_f16(sim_wave *w, const sim_inst *in)
{
   float al[64], ah[64], bl[64], bh[64], r[64];
   uint32_t t[64];
   pk_src_f16(w, in, 0, al, ah);
   pk_src_f16(w, in, 1, bl, bh);
   const uint32_t *C = sim__vsrc32(w, in, 2, SIM_VT_F32, t);
   for (unsigned l = 0; l < 64; l++) {
      float c = sim__as_f32(C[l]);
      if ((in->neg >> 2) & 1)
         c = -c;
      float d = (float)((double)al[l] * bl[l] + (double)ah[l] * bh[l] + c);
      /* NaN sources in the order the sum reads them: S0.lo, S1.lo, S0.hi, S1.hi, S2. */
      if (SIM_UNLIKELY(d != d))
         d = al[l] != al[l] || bl[l] != bl[l] ? sim__nan32(al[l], bl[l], 0.0f)
                                              : sim__nan32(ah[l], bh[l], c);
      r[l] = d;
   }
   sim__f32_post(w, in, r);
   sim__vdst32(w, in, (const uint32_t *)r);
}

/* Integer dot products (gfx906 "dot1"/"dot7" instructions; Vega ISA VOP3P opcodes 38-43):
 * D = sum over the N packed elements of S0[k] * S1[k], plus S2, the elements signed (I) or
 * unsigned (U) of `bits` bits each. The sum is exact (64-bit); with clamp it saturates to the
 * 32-bit range of the result type, else it wraps. op_sel does not apply: each source is the
 * whole dword. */
static void
int_dot(sim_wave *w, const sim_inst *in, unsigned bits, bool sign)
{
   uint32_t t0[64], t1[64], t2[64], r[64];
   const uint32_t *A = sim__vsrc32(w, in, 0, SIM_VT_B32, t0);
   const uint32_t *B = sim__vsrc32(w, in, 1, SIM_VT_B32, t1);
   const uint32_t *C = sim__vsrc32(w, in, 2, SIM_VT_B32, t2);
   unsigned n = 32 / bits;
   uint32_t mask = bits == 32 ? ~0u : (1u << bits) - 1;
   for (unsigned l = 0; l < 64; l++) {
      int64_t sum = sign ? (int64_t)(int32_t)C[l] : (int64_t)C[l];
      for (unsigned k = 0; k < n; k++) {
         uint32_t a = (A[l] >> (k * bits)) & mask, b = (B[l] >> (k * bits)) & mask;
         if (sign) {
            int64_t sa = (int64_t)(a ^ (1u << (bits - 1))) - (1 << (bits - 1));
            int64_t sb = (int64_t)(b ^ (1u << (bits - 1))) - (1 << (bits - 1));
            sum += sa * sb;
         } else {
            sum += (int64_t)a * b;
         }
      }
      if (in->clamp) {
         int64_t lo = sign ? INT32_MIN : 0, hi = sign ? INT32_MAX : (int64_t)UINT32_MAX;
         sum = sum < lo ? lo : sum > hi ? hi : sum;
      }
      r[l] = (uint32_t)sum;
   }
   sim__vdst32(w, in, r);
}

void
sim__op_v_dot2_i32_i16(sim_wave *w, const sim_inst *in)
{
   int_dot(w, in, 16, true);
}

void
sim__op_v_dot2_u32_u16(sim_wave *w, const sim_inst *in)
{
   int_dot(w, in, 16, false);
}

void
sim__op_v_dot4_i32_i8(sim_wave *w, const sim_inst *in)
{
   int_dot(w, in, 8, true);
}

void
sim__op_v_dot4_u32_u8(sim_wave *w, const sim_inst *in)
{
   int_dot(w, in, 8, false);
}

void
sim__op_v_dot8_i32_i4(sim_wave *w, const sim_inst *in)
{
   int_dot(w, in, 4, true);
}

void
sim__op_v_dot8_u32_u4(sim_wave *w, const sim_inst *in)
{
   int_dot(w, in, 4, false);
}
