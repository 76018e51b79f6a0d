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
