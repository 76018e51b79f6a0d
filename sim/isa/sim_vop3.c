/*
 * VOP3-only opcodes (VOP3 numbers 448+ and 640+): three-source integer/float ops, 64-bit
 * shifts and arithmetic, lane access ([ISA] 12.x "VOP3 instructions"). VOP3b forms
 * (v_mad_u64_u32, v_div_scale) write their carry/flag mask to SDST.
 */
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
   for (unsigned l = 0; l < 64; l++) {
      if (sgn) {
         __int128 p = (__int128)((int64_t)(int32_t)A[l] * (int32_t)B[l]) + (int64_t)C[l];
         r[l] = (uint64_t)p;
         co |= (uint64_t)(p != (int64_t)p) << l;
      } else {
         unsigned __int128 p = (unsigned __int128)((uint64_t)A[l] * B[l]) + C[l];
         r[l] = (uint64_t)p;
         co |= (uint64_t)(p >> 64 != 0) << l;
      }
   }
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
      const uint32_t *A = sim__vsrc32(w, in, 0, SIM_VT_B32, t0);                            \
      sim__vsrc64(w, in, 1, SIM_VT_B64, B);                                                 \
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

/* SGPR[D] = VGPR[S0].lane[S1.u[5:0]] (ignores EXEC). */
void
sim__op_v_readlane_b32(sim_wave *w, const sim_inst *in)
{
   uint32_t lane = sim__sread32(w, in, in->src[1]) & 63;
   if (in->src[0] < SIM_SRC_VGPR) {
      sim__fault_illegal(w, in, "v_readlane source is not a VGPR");
      return;
   }
   const uint32_t *row = sim__vdst_row(w, in, in->src[0] - SIM_SRC_VGPR);
   if (row)
      sim__swrite32(w, in->vdst, row[lane]);
}

/* VGPR[D].lane[S1.u[5:0]] = SGPR[S0] (ignores EXEC). */
void
sim__op_v_writelane_b32(sim_wave *w, const sim_inst *in)
{
   uint32_t v = sim__sread32(w, in, in->src[0]);
   uint32_t lane = sim__sread32(w, in, in->src[1]) & 63;
   uint32_t *row = sim__vdst_row(w, in, in->vdst);
   if (row)
      row[lane] = v;
}

/* D.f = S0.f * S1.f + S2.f (fused). */
SIM_VOP_F32_3(v_fma_f32, fmaf(a, b, c))
/* D.f = S0.f * S1.f + S2.f (multiply rounded, then add). */
SIM_VOP_F32_3(v_mad_f32, a * b + c)

/* D.d = S0.d + S1.d. */
SIM_VOP_F64_2(v_add_f64, a + b)
/* D.d = S0.d * S1.d. */
SIM_VOP_F64_2(v_mul_f64, a * b)
