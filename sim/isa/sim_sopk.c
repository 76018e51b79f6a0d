/*
 * SOPK: scalar ops with a 16-bit inline constant ([ISA] 12.x "SOPK instructions"); the
 * destination field doubles as the first source. Hardware registers for s_getreg/setreg.
 */
#include "sim_isa_priv.h"

#define SIMM ((int32_t)in->imm)
#define UIMM ((uint32_t)(uint16_t)in->imm)
#define DV sim__sread32(w, in, in->vdst)
#define D(v) sim__swrite32(w, in->vdst, (v))

/* D.i = signext(SIMM16). */
void
sim__op_s_movk_i32(sim_wave *w, const sim_inst *in)
{
   D((uint32_t)SIMM);
}

/* if (SCC) D.i = signext(SIMM16). */
void
sim__op_s_cmovk_i32(sim_wave *w, const sim_inst *in)
{
   if (w->scc)
      D((uint32_t)SIMM);
}

/* SCC = (D.i <op> signext(SIMM16)) / (D.u <op> SIMM16). */
#define CMPK(name, ty, k, op)                                                               \
   void sim__op_##name(sim_wave *w, const sim_inst *in)                                      \
   {                                                                                        \
      w->scc = (ty)DV op(ty)(k);                                                            \
   }
CMPK(s_cmpk_eq_i32, int32_t, SIMM, ==)
CMPK(s_cmpk_lg_i32, int32_t, SIMM, !=)
CMPK(s_cmpk_gt_i32, int32_t, SIMM, >)
CMPK(s_cmpk_ge_i32, int32_t, SIMM, >=)
CMPK(s_cmpk_lt_i32, int32_t, SIMM, <)
CMPK(s_cmpk_le_i32, int32_t, SIMM, <=)
CMPK(s_cmpk_eq_u32, uint32_t, UIMM, ==)
CMPK(s_cmpk_lg_u32, uint32_t, UIMM, !=)
CMPK(s_cmpk_gt_u32, uint32_t, UIMM, >)
CMPK(s_cmpk_ge_u32, uint32_t, UIMM, >=)
CMPK(s_cmpk_lt_u32, uint32_t, UIMM, <)
CMPK(s_cmpk_le_u32, uint32_t, UIMM, <=)

/* D.i = D.i + signext(SIMM16); SCC = signed overflow. */
void
sim__op_s_addk_i32(sim_wave *w, const sim_inst *in)
{
   int32_t r;
   w->scc = __builtin_add_overflow((int32_t)DV, SIMM, &r);
   D((uint32_t)r);
}

/* D.i = D.i * signext(SIMM16). */
void
sim__op_s_mulk_i32(sim_wave *w, const sim_inst *in)
{
   D(DV * (uint32_t)SIMM);
}

/* D.u64 = PC + 4; PC = PC + signext(SIMM16 * 4) + 4. */
void
sim__op_s_call_b64(sim_wave *w, const sim_inst *in)
{
   sim__swrite64(w, in->vdst, w->pc);
   w->pc += (int64_t)SIMM * 4;
}

/* Hardware registers ([ISA] 5.x "s_getreg/s_setreg", HW_REG_MODE = 1): MODE is backed,
 * STATUS and SH_MEM_BASES are read-only views, gfx10's FLAT_SCR_LO/HI (20/21) the wave's
 * flat_scratch; others read as zero and ignore writes. MODE
 * layout: FP_ROUND[3:0],
 * FP_DENORM[7:4], DX10_CLAMP[8], IEEE[9], GPR_IDX_EN[27], CSP[31:29]. */
static uint32_t
mode_get(const sim_wave *w)
{
   return w->round32 | w->round16_64 << 2 | w->denorm32 << 4 | w->denorm16_64 << 6 |
          w->dx10_clamp << 8 | w->ieee << 9 | (w->gpr_idx_en ? 1u << 27 : 0) |
          (uint32_t)w->csp << 29;
}

static void
mode_set(sim_wave *w, uint32_t m)
{
   w->round32 = m & 3;
   w->round16_64 = (m >> 2) & 3;
   w->denorm32 = (m >> 4) & 3;
   w->denorm16_64 = (m >> 6) & 3;
   w->dx10_clamp = (m >> 8) & 1;
   w->ieee = (m >> 9) & 1;
   w->gpr_idx_en = (m >> 27) & 1;
   w->csp = (m >> 29) & 7;
}

static uint32_t
hwreg_get(const sim_wave *w, unsigned id)
{
   switch (id) {
   case 1:
      return mode_get(w);
   case 2: /* STATUS: SCC[0], EXECZ[9], VCCZ[10] */
      return w->scc | (SIM_EXEC(w) == 0) << 9 | (SIM_VCC_LANES(w) == 0) << 10;
   case 15: /* SH_MEM_BASES: PRIVATE_BASE[15:0], SHARED_BASE[31:16], the apertures' bits
             * 63:48 as amdkfd sets them; LLVM 15 builds gfx9 flat pointers from it. */
      return (uint32_t)(SIM_APERTURE_PRIVATE_BASE >> 48) |
             (uint32_t)(SIM_APERTURE_SHARED_BASE >> 48) << 16;
   case 20: /* gfx10 FLAT_SCR_LO / FLAT_SCR_HI */
   case 21:
      return w->target->gfx_major >= 10 ? (uint32_t)(w->flat_scratch >> (id == 21 ? 32 : 0))
                                        : 0;
   default:
      return 0;
   }
}

/* D.u = hwreg(ID)[OFFSET +: SIZE]. */
void
sim__op_s_getreg_b32(sim_wave *w, const sim_inst *in)
{
   unsigned id = in->imm & 0x3F, off = (in->imm >> 6) & 31, size = ((in->imm >> 11) & 31) + 1;
   uint32_t mask = size >= 32 ? ~0u : (1u << size) - 1;
   D((hwreg_get(w, id) >> off) & mask);
}

static void
setreg(sim_wave *w, const sim_inst *in, uint32_t v)
{
   unsigned id = in->imm & 0x3F, off = (in->imm >> 6) & 31, size = ((in->imm >> 11) & 31) + 1;
   uint32_t mask = (size >= 32 ? ~0u : (1u << size) - 1) << off;
   if (id == 1)
      mode_set(w, (mode_get(w) & ~mask) | ((v << off) & mask));
   if ((id == 20 || id == 21) && w->target->gfx_major >= 10) {
      unsigned sh = id == 21 ? 32 : 0;
      uint32_t r = (uint32_t)(w->flat_scratch >> sh);
      r = (r & ~mask) | ((v << off) & mask);
      w->flat_scratch = (w->flat_scratch & ~(0xFFFFFFFFull << sh)) | (uint64_t)r << sh;
   }
}

/* hwreg(ID)[OFFSET +: SIZE] = S0.u (the SDST field). */
void
sim__op_s_setreg_b32(sim_wave *w, const sim_inst *in)
{
   setreg(w, in, DV);
}

/* hwreg(ID)[OFFSET +: SIZE] = literal. */
void
sim__op_s_setreg_imm32_b32(sim_wave *w, const sim_inst *in)
{
   setreg(w, in, in->literal);
}

/* Conditional branch using the branch stack, target PC + signext(SIMM16 * 4) + 4, lane mask
 * in the SDST SGPR pair: S_CBRANCH_G_FORK's semantics (sim_sop2.c). */
void
sim__op_s_cbranch_i_fork(sim_wave *w, const sim_inst *in)
{
   uint64_t mask = sim__sread64(w, in, in->vdst, SIM_K_B64);
   sim__cbranch_fork(w, mask, w->pc + (int64_t)SIMM * 4, w->pc);
}
