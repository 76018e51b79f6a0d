/*
 * VOP3P: packed 16-bit math ([ISA] 12.x "VOP3P instructions"). For each half h, source i
 * reads its low half when op_sel[i] (h = lo) / op_sel_hi[i] (h = hi) is 0, else its high
 * half; neg / neg_hi negate float halves.
 */
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
