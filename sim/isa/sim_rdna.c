/*
 * The instructions gfx10 (RDNA2, gfx1030) adds to gfx9 or renames (AMD "RDNA 2" ISA reference
 * guide, chapters 4-13). Decoded only for a target whose opcode table has them
 * (sim_opcodes_gfx1030.def). A gfx10 name of a gfx9 operation runs the gfx9 handler: the
 * semantics stay in one place. What depends on the wave size reads the wave's (sim_wave.lanes,
 * lane_mask).
 */
#include <math.h>

#include "sim_isa_priv.h"

/* The gfx9 handlers the renamed instructions run (sim_vop2.c, sim_vop3.c). */
void sim__op_v_add_u32(sim_wave *w, const sim_inst *in);
void sim__op_v_sub_u32(sim_wave *w, const sim_inst *in);
void sim__op_v_subrev_u32(sim_wave *w, const sim_inst *in);
void sim__op_v_add_i32(sim_wave *w, const sim_inst *in);
void sim__op_v_sub_i32(sim_wave *w, const sim_inst *in);
void sim__op_v_add_u16(sim_wave *w, const sim_inst *in);
void sim__op_v_sub_u16(sim_wave *w, const sim_inst *in);
void sim__op_v_add_i16(sim_wave *w, const sim_inst *in);
void sim__op_v_sub_i16(sim_wave *w, const sim_inst *in);
void sim__op_v_addc_co_u32(sim_wave *w, const sim_inst *in);
void sim__op_v_subb_co_u32(sim_wave *w, const sim_inst *in);
void sim__op_v_subbrev_co_u32(sim_wave *w, const sim_inst *in);
void sim__op_v_fma_f32(sim_wave *w, const sim_inst *in);
void sim__op_v_fma_f16(sim_wave *w, const sim_inst *in);

#define RENAMED(gfx10, gfx9)                                                                \
   void sim__op_##gfx10(sim_wave *w, const sim_inst *in)                                     \
   {                                                                                        \
      sim__op_##gfx9(w, in);                                                                \
   }

/* D.u = S0.u + S1.u, no carry ("NC"; gfx9's v_add_u32), and the other renamed integer
 * additions: the signed and 16-bit ones saturate with clamp as on gfx9. */
RENAMED(v_add_nc_u32, v_add_u32)
RENAMED(v_sub_nc_u32, v_sub_u32)
RENAMED(v_subrev_nc_u32, v_subrev_u32)
RENAMED(v_add_nc_i32, v_add_i32)
RENAMED(v_sub_nc_i32, v_sub_i32)
RENAMED(v_add_nc_u16, v_add_u16)
RENAMED(v_sub_nc_u16, v_sub_u16)
RENAMED(v_add_nc_i16, v_add_i16)
RENAMED(v_sub_nc_i16, v_sub_i16)
/* D.u = S0.u + S1.u + VCC[i] ("CO_CI": carry out and in; gfx9's v_addc_co_u32): the carry
 * masks are 32-bit SGPRs in a wave32 (sim__vmask_read/write). */
RENAMED(v_add_co_ci_u32, v_addc_co_u32)
RENAMED(v_sub_co_ci_u32, v_subb_co_u32)
RENAMED(v_subrev_co_ci_u32, v_subbrev_co_u32)

/* The FMA forms with an implied operand run v_fma_* on the instruction with that operand
 * made explicit: D.f16 = S0.f16 * S1.f16 + D.f16 (v_fmac_f16), D.f = S0.f * K + S1.f
 * (v_fmamk), D.f = S0.f * S1.f + K (v_fmaak), K the literal. */
void
sim__op_v_fmac_f16(sim_wave *w, const sim_inst *in)
{
   sim_inst t = *in;
   t.src[2] = SIM_SRC_VGPR + in->vdst;
   sim__op_v_fma_f16(w, &t);
}

static void
fma_k(sim_wave *w, const sim_inst *in, bool mk, bool f16)
{
   sim_inst t = *in;
   if (mk) {
      t.src[2] = in->src[1];
      t.src[1] = SIM_SRC_LITERAL;
   } else {
      t.src[2] = SIM_SRC_LITERAL;
   }
   t.slow_src |= 6;
   if (f16)
      sim__op_v_fma_f16(w, &t);
   else
      sim__op_v_fma_f32(w, &t);
}
/* D.f = S0.f * S1.f + S2.f fused, with DX9 rules: a zero factor makes the product +0.0
 * whatever the other (inf, NaN), so D = +0.0 + S2; NaNs as v_mad_legacy_f32. gfx10.3's
 * v_fmac_legacy_f32 is the same with S2 = D. */
SIM_VOP_F32_3_NAN(v_fma_legacy_f32, sim__nanfix32_legacy,
                  a == 0.0f || b == 0.0f ? 0.0f + c : fmaf(a, b, c))
void
sim__op_v_fmac_legacy_f32(sim_wave *w, const sim_inst *in)
{
   sim_inst t = *in;
   t.src[2] = SIM_SRC_VGPR + in->vdst;
   sim__op_v_fma_legacy_f32(w, &t);
}

void
sim__op_v_fmamk_f32(sim_wave *w, const sim_inst *in)
{
   fma_k(w, in, true, false);
}
void
sim__op_v_fmaak_f32(sim_wave *w, const sim_inst *in)
{
   fma_k(w, in, false, false);
}
void
sim__op_v_fmamk_f16(sim_wave *w, const sim_inst *in)
{
   fma_k(w, in, true, true);
}
void
sim__op_v_fmaak_f16(sim_wave *w, const sim_inst *in)
{
   fma_k(w, in, false, true);
}

/* D.u = S0.u ^ S1.u ^ S2.u. */
SIM_VOP_U32_3(v_xor3_b32, a ^ b ^ c)

/* Lane permutes within a row of 16 (v_permlane16) or from the other row of the same 32 lanes
 * (v_permlanex16): lane i of row r reads lane sel(i) of row r (r ^ 1), sel(i) the 4-bit
 * field i % 16 of {S2.u, S1.u}. OP_SEL[0] is FI (read an inactive source lane too),
 * OP_SEL[1] BOUND_CTRL (an inactive source lane gives 0; without it the lane keeps D). */
static void
permlane(sim_wave *w, const sim_inst *in, bool cross)
{
   if (in->src[0] < SIM_SRC_VGPR) {
      sim__fault_illegal(w, in, "v_permlane source is not a VGPR");
      return;
   }
   const uint32_t *S = sim__vrow(w, in, in->src[0] - SIM_SRC_VGPR);
   uint32_t *D = S ? sim__vrow(w, in, in->vdst) : NULL;
   if (!D)
      return;
   uint64_t sel = sim__sread32(w, in, in->src[1]) |
                  (uint64_t)sim__sread32(w, in, in->src[2]) << 32;
   bool fi = in->op_sel & 1, bc = (in->op_sel >> 1) & 1;
   uint64_t exec = SIM_EXEC(w);
   uint32_t r[64];
   for (unsigned l = 0; l < 64; l++) {
      unsigned row = l >> 4, s = ((cross ? row ^ 1 : row) << 4) + ((sel >> 4 * (l & 15)) & 15);
      r[l] = ((exec >> s) & 1) || fi ? S[s] : bc ? 0 : D[l];
   }
   for (unsigned l = 0; l < 64; l++)
      if ((exec >> l) & 1)
         D[l] = r[l];
}
void
sim__op_v_permlane16_b32(sim_wave *w, const sim_inst *in)
{
   permlane(w, in, false);
}
void
sim__op_v_permlanex16_b32(sim_wave *w, const sim_inst *in)
{
   permlane(w, in, true);
}

/* Waits the interpreter has nothing to wait for: every memory access completes before the
 * next instruction (s_waitcnt_* with an SGPR and a count), instruction-fetch and
 * dependency hints, the shader version word. */
#define NOP(name)                                                                           \
   void sim__op_##name(sim_wave *w, const sim_inst *in)                                      \
   {                                                                                        \
      (void)w;                                                                              \
      (void)in;                                                                             \
   }
NOP(s_waitcnt_vscnt)
NOP(s_waitcnt_vmcnt)
NOP(s_waitcnt_expcnt)
NOP(s_waitcnt_lgkmcnt)
NOP(s_waitcnt_depctr)
NOP(s_wait_idle)
NOP(s_clause)
NOP(s_inst_prefetch)
NOP(s_version)
NOP(v_pipeflush)

/* S_CODE_END marks the end of a code buffer: executing it is an illegal instruction. */
void
sim__op_s_code_end(sim_wave *w, const sim_inst *in)
{
   sim__fault_illegal(w, in, "s_code_end executed");
}

/* MODE.FP_ROUND = SIMM16[3:0] (f32 in [1:0], f16/f64 in [3:2]). */
void
sim__op_s_round_mode(sim_wave *w, const sim_inst *in)
{
   w->round32 = in->imm & 3;
   w->round16_64 = (in->imm >> 2) & 3;
}

/* MODE.FP_DENORM = SIMM16[3:0], likewise. */
void
sim__op_s_denorm_mode(sim_wave *w, const sim_inst *in)
{
   w->denorm32 = in->imm & 3;
   w->denorm16_64 = (in->imm >> 2) & 3;
}

/* Invalidate the vector L0 of the wave's CU ([AMDGPUUsage] "Memory Model GFX10-GFX11":
 * gfx9's buffer_wbinvl1_vol), and the shader array's GL1; both exist in the checking mode
 * (sim_l1.c). */
void
sim__op_buffer_gl0_inv(sim_wave *w, const sim_inst *in)
{
   (void)in;
   sim__l1_invalidate(w);
}
void
sim__op_buffer_gl1_inv(sim_wave *w, const sim_inst *in)
{
   (void)in;
   sim__gl1_invalidate(w);
}

/* M0-relative VGPR moves (gfx10 has them instead of gfx9's s_set_gpr_idx), for the lanes of
 * EXEC: v_movreld VGPR[D + M0] = S0; v_movrels VGPR[D] = VGPR[S0 + M0]; v_movrelsd
 * VGPR[D + M0] = VGPR[S0 + M0]; v_movrelsd_2 VGPR[D + M0[25:16]] = VGPR[S0 + M0[9:0]].
 * An index past the kernel's VGPRs faults as any VGPR past the allocation does. */
static void
movrel(sim_wave *w, const sim_inst *in, uint32_t src_add, uint32_t dst_add, bool src_vgpr)
{
   uint32_t t0[64];
   const uint32_t *S;
   if (src_vgpr) {
      if (in->src[0] < SIM_SRC_VGPR) {
         sim__fault_illegal(w, in, "v_movrels source is not a VGPR");
         return;
      }
      S = sim__vrow(w, in, in->src[0] - SIM_SRC_VGPR + src_add);
   } else {
      S = sim__vsrc32(w, in, 0, SIM_VT_B32, t0);
   }
   uint32_t *D = S ? sim__vrow(w, in, in->vdst + dst_add) : NULL;
   if (!D)
      return;
   uint64_t m = SIM_EXEC(w);
   for (unsigned l = 0; l < 64; l++)
      if ((m >> l) & 1)
         D[l] = S[l];
}
void
sim__op_v_movreld_b32(sim_wave *w, const sim_inst *in)
{
   movrel(w, in, 0, SIM_M0(w), false);
}
void
sim__op_v_movrels_b32(sim_wave *w, const sim_inst *in)
{
   movrel(w, in, SIM_M0(w), 0, true);
}
void
sim__op_v_movrelsd_b32(sim_wave *w, const sim_inst *in)
{
   movrel(w, in, SIM_M0(w), SIM_M0(w), true);
}
void
sim__op_v_movrelsd_2_b32(sim_wave *w, const sim_inst *in)
{
   movrel(w, in, SIM_M0(w) & 0x3FF, (SIM_M0(w) >> 16) & 0x3FF, true);
}
