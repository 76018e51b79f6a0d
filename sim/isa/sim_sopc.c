/*
 * SOPC: scalar compares writing SCC ([ISA] 12.x "SOPC instructions"), and
 * s_set_gpr_idx_on (VGPR index mode).
 */
#include "sim_isa_priv.h"

#define S0 sim__sread32(w, in, in->src[0])
#define S1 sim__sread32(w, in, in->src[1])

/* SCC = (S0 <op> S1), signed or unsigned 32-bit. */
#define CMP(name, ty, op)                                                                   \
   void sim__op_##name(sim_wave *w, const sim_inst *in)                                      \
   {                                                                                        \
      w->scc = (ty)S0 op(ty) S1;                                                            \
   }
CMP(s_cmp_eq_i32, int32_t, ==)
CMP(s_cmp_lg_i32, int32_t, !=)
CMP(s_cmp_gt_i32, int32_t, >)
CMP(s_cmp_ge_i32, int32_t, >=)
CMP(s_cmp_lt_i32, int32_t, <)
CMP(s_cmp_le_i32, int32_t, <=)
CMP(s_cmp_eq_u32, uint32_t, ==)
CMP(s_cmp_lg_u32, uint32_t, !=)
CMP(s_cmp_gt_u32, uint32_t, >)
CMP(s_cmp_ge_u32, uint32_t, >=)
CMP(s_cmp_lt_u32, uint32_t, <)
CMP(s_cmp_le_u32, uint32_t, <=)

/* SCC = (S0.u64 == S1.u64) / (S0.u64 != S1.u64). */
void
sim__op_s_cmp_eq_u64(sim_wave *w, const sim_inst *in)
{
   w->scc = sim__sread64(w, in, in->src[0], SIM_K_B64) ==
            sim__sread64(w, in, in->src[1], SIM_K_B64);
}
void
sim__op_s_cmp_lg_u64(sim_wave *w, const sim_inst *in)
{
   w->scc = sim__sread64(w, in, in->src[0], SIM_K_B64) !=
            sim__sread64(w, in, in->src[1], SIM_K_B64);
}

/* SCC = (S0.u[S1.u[4:0]] == 0) / (== 1); 64-bit forms use S1.u[5:0]. */
void
sim__op_s_bitcmp0_b32(sim_wave *w, const sim_inst *in)
{
   w->scc = ((S0 >> (S1 & 31)) & 1) == 0;
}
void
sim__op_s_bitcmp1_b32(sim_wave *w, const sim_inst *in)
{
   w->scc = ((S0 >> (S1 & 31)) & 1) == 1;
}
void
sim__op_s_bitcmp0_b64(sim_wave *w, const sim_inst *in)
{
   w->scc = ((sim__sread64(w, in, in->src[0], SIM_K_B64) >> (S1 & 63)) & 1) == 0;
}
void
sim__op_s_bitcmp1_b64(sim_wave *w, const sim_inst *in)
{
   w->scc = ((sim__sread64(w, in, in->src[0], SIM_K_B64) >> (S1 & 63)) & 1) == 1;
}

/* VSKIP = S0.u[S1.u[4:0]]: vector instructions are skipped while set. Not modelled:
 * compute code never uses it, so it is accepted as a no-op only when the bit is clear. */
void
sim__op_s_setvskip(sim_wave *w, const sim_inst *in)
{
   if ((S0 >> (S1 & 31)) & 1)
      sim__fault_illegal(w, in, "s_setvskip enabling VSKIP is not supported");
}

/* MODE.gpr_idx_en = 1; M0[7:0] = S0.u[7:0]; M0[15:12] = SIMM4 (the ssrc1 field):
 * SRC0, SRC1, SRC2, DST. */
void
sim__op_s_set_gpr_idx_on(sim_wave *w, const sim_inst *in)
{
   uint32_t idx = S0 & 0xFF, mode = in->src[1] & 0xF;
   SIM_M0(w) = (SIM_M0(w) & ~0xF0FFu) | idx | mode << 12;
   w->gpr_idx_en = true;
}
