/*
 * SOP2: scalar ALU, two sources ([ISA] chapter 5 "Scalar ALU operations", 12.x "SOP2
 * instructions"). S0/S1 read through sim__sread32/64; D is in->vdst (an operand code).
 */
#include "sim_isa_priv.h"

#define S0 sim__sread32(w, in, in->src[0])
#define S1 sim__sread32(w, in, in->src[1])
#define S0_64 sim__sread64(w, in, in->src[0], SIM_K_B64)
#define S1_64 sim__sread64(w, in, in->src[1], SIM_K_B64)
#define D(v) sim__swrite32(w, in->vdst, (v))
#define D64(v) sim__swrite64(w, in->vdst, (v))

/* 32-bit result with SCC = (result != 0). */
#define SOP2_B32(name, expr)                                                                \
   void sim__op_##name(sim_wave *w, const sim_inst *in)                                      \
   {                                                                                        \
      uint32_t a = S0, b = S1, d = (expr);                                                  \
      D(d);                                                                                 \
      w->scc = d != 0;                                                                      \
   }
#define SOP2_B64(name, expr)                                                                \
   void sim__op_##name(sim_wave *w, const sim_inst *in)                                      \
   {                                                                                        \
      uint64_t a = S0_64, b = S1_64, d = (expr);                                            \
      D64(d);                                                                               \
      w->scc = d != 0;                                                                      \
   }

/* D.u = S0.u + S1.u; SCC = carry out. */
void
sim__op_s_add_u32(sim_wave *w, const sim_inst *in)
{
   uint64_t r = (uint64_t)S0 + S1;
   D((uint32_t)r);
   w->scc = (uint32_t)(r >> 32);
}

/* D.u = S0.u - S1.u; SCC = borrow out. */
void
sim__op_s_sub_u32(sim_wave *w, const sim_inst *in)
{
   uint32_t a = S0, b = S1;
   D(a - b);
   w->scc = b > a;
}

/* D.i = S0.i + S1.i; SCC = signed overflow. */
void
sim__op_s_add_i32(sim_wave *w, const sim_inst *in)
{
   int32_t a = (int32_t)S0, b = (int32_t)S1, r;
   w->scc = __builtin_add_overflow(a, b, &r);
   D((uint32_t)r);
}

/* D.i = S0.i - S1.i; SCC = signed overflow. */
void
sim__op_s_sub_i32(sim_wave *w, const sim_inst *in)
{
   int32_t a = (int32_t)S0, b = (int32_t)S1, r;
   w->scc = __builtin_sub_overflow(a, b, &r);
   D((uint32_t)r);
}

/* D.u = S0.u + S1.u + SCC; SCC = carry out. */
void
sim__op_s_addc_u32(sim_wave *w, const sim_inst *in)
{
   uint64_t r = (uint64_t)S0 + S1 + w->scc;
   D((uint32_t)r);
   w->scc = (uint32_t)(r >> 32);
}

/* D.u = S0.u - S1.u - SCC; SCC = borrow out. */
void
sim__op_s_subb_u32(sim_wave *w, const sim_inst *in)
{
   uint32_t a = S0, b = S1;
   uint64_t r = (uint64_t)a - b - w->scc;
   D((uint32_t)r);
   w->scc = (uint64_t)b + w->scc > a;
}

/* D.i = (S0.i < S1.i ? S0.i : S1.i); SCC = 1 if S0 is chosen. */
void
sim__op_s_min_i32(sim_wave *w, const sim_inst *in)
{
   int32_t a = (int32_t)S0, b = (int32_t)S1;
   w->scc = a < b;
   D((uint32_t)(a < b ? a : b));
}

/* D.u = (S0.u < S1.u ? S0.u : S1.u); SCC = 1 if S0 is chosen. */
void
sim__op_s_min_u32(sim_wave *w, const sim_inst *in)
{
   uint32_t a = S0, b = S1;
   w->scc = a < b;
   D(a < b ? a : b);
}

/* D.i = (S0.i > S1.i ? S0.i : S1.i); SCC = 1 if S0 is chosen. */
void
sim__op_s_max_i32(sim_wave *w, const sim_inst *in)
{
   int32_t a = (int32_t)S0, b = (int32_t)S1;
   w->scc = a > b;
   D((uint32_t)(a > b ? a : b));
}

/* D.u = (S0.u > S1.u ? S0.u : S1.u); SCC = 1 if S0 is chosen. */
void
sim__op_s_max_u32(sim_wave *w, const sim_inst *in)
{
   uint32_t a = S0, b = S1;
   w->scc = a > b;
   D(a > b ? a : b);
}

/* D.u = SCC ? S0.u : S1.u. */
void
sim__op_s_cselect_b32(sim_wave *w, const sim_inst *in)
{
   D(w->scc ? S0 : S1);
}

/* D.u64 = SCC ? S0.u64 : S1.u64. */
void
sim__op_s_cselect_b64(sim_wave *w, const sim_inst *in)
{
   D64(w->scc ? S0_64 : S1_64);
}

/* D = S0 & S1; SCC = (D != 0). (and the other bitwise ops likewise) */
SOP2_B32(s_and_b32, a & b)
SOP2_B64(s_and_b64, a & b)
SOP2_B32(s_or_b32, a | b)
SOP2_B64(s_or_b64, a | b)
SOP2_B32(s_xor_b32, a ^ b)
SOP2_B64(s_xor_b64, a ^ b)
SOP2_B32(s_andn2_b32, a & ~b)
SOP2_B64(s_andn2_b64, a & ~b)
SOP2_B32(s_orn2_b32, a | ~b)
SOP2_B64(s_orn2_b64, a | ~b)
SOP2_B32(s_nand_b32, ~(a & b))
SOP2_B64(s_nand_b64, ~(a & b))
SOP2_B32(s_nor_b32, ~(a | b))
SOP2_B64(s_nor_b64, ~(a | b))
SOP2_B32(s_xnor_b32, ~(a ^ b))
SOP2_B64(s_xnor_b64, ~(a ^ b))

/* D.u = S0.u << S1.u[4:0]; SCC = (D != 0). */
SOP2_B32(s_lshl_b32, a << (b & 31))
/* D.u = S0.u >> S1.u[4:0]; SCC = (D != 0). */
SOP2_B32(s_lshr_b32, a >> (b & 31))
/* D.i = signext(S0.i) >> S1.u[4:0]; SCC = (D != 0). */
SOP2_B32(s_ashr_i32, (uint32_t)((int32_t)a >> (b & 31)))

/* D.u64 = S0.u64 << S1.u[5:0]; SCC = (D != 0). */
void
sim__op_s_lshl_b64(sim_wave *w, const sim_inst *in)
{
   uint64_t d = S0_64 << (S1 & 63);
   D64(d);
   w->scc = d != 0;
}

/* D.u64 = S0.u64 >> S1.u[5:0]; SCC = (D != 0). */
void
sim__op_s_lshr_b64(sim_wave *w, const sim_inst *in)
{
   uint64_t d = S0_64 >> (S1 & 63);
   D64(d);
   w->scc = d != 0;
}

/* D.i64 = signext(S0.i64) >> S1.u[5:0]; SCC = (D != 0). */
void
sim__op_s_ashr_i64(sim_wave *w, const sim_inst *in)
{
   uint64_t d = (uint64_t)((int64_t)sim__sread64(w, in, in->src[0], SIM_K_I64) >> (S1 & 63));
   D64(d);
   w->scc = d != 0;
}

/* D.u = ((1 << S0.u[4:0]) - 1) << S1.u[4:0]. */
void
sim__op_s_bfm_b32(sim_wave *w, const sim_inst *in)
{
   D(((1u << (S0 & 31)) - 1) << (S1 & 31));
}

/* D.u64 = ((1ULL << S0.u[5:0]) - 1) << S1.u[5:0]. */
void
sim__op_s_bfm_b64(sim_wave *w, const sim_inst *in)
{
   D64(((1ull << (S0 & 63)) - 1) << (S1 & 63));
}

/* D.i = S0.i * S1.i. */
void
sim__op_s_mul_i32(sim_wave *w, const sim_inst *in)
{
   D(S0 * S1);
}

/* D.u = (S0.u >> S1.u[4:0]) & ((1 << S1.u[22:16]) - 1); SCC = (D != 0). */
void
sim__op_s_bfe_u32(sim_wave *w, const sim_inst *in)
{
   uint32_t a = S0, b = S1, off = b & 31, width = (b >> 16) & 0x7F;
   uint32_t d = width >= 32 ? a >> off : (a >> off) & ((1u << width) - 1);
   D(d);
   w->scc = d != 0;
}

/* D.i = signext((S0.i >> S1.u[4:0]) & ((1 << S1.u[22:16]) - 1)); SCC = (D != 0). */
void
sim__op_s_bfe_i32(sim_wave *w, const sim_inst *in)
{
   uint32_t a = S0, b = S1, off = b & 31, width = (b >> 16) & 0x7F;
   int32_t d;
   if (width == 0)
      d = 0;
   else if (width >= 32)
      d = (int32_t)a >> off;
   else
      d = (int32_t)((a >> off) << (32 - width)) >> (32 - width);
   D((uint32_t)d);
   w->scc = d != 0;
}

/* D.u64 = (S0.u64 >> S1.u[5:0]) & ((1 << S1.u[22:16]) - 1); SCC = (D != 0). */
void
sim__op_s_bfe_u64(sim_wave *w, const sim_inst *in)
{
   uint64_t a = S0_64;
   uint32_t b = S1, off = b & 63, width = (b >> 16) & 0x7F;
   uint64_t d = width >= 64 ? a >> off : (a >> off) & ((1ull << width) - 1);
   D64(d);
   w->scc = d != 0;
}

/* D.i64 = signext((S0.u64 >> S1.u[5:0]) & ((1 << S1.u[22:16]) - 1)); SCC = (D != 0). */
void
sim__op_s_bfe_i64(sim_wave *w, const sim_inst *in)
{
   uint64_t a = S0_64;
   uint32_t b = S1, off = b & 63, width = (b >> 16) & 0x7F;
   int64_t d;
   if (width == 0)
      d = 0;
   else if (width >= 64)
      d = (int64_t)a >> off;
   else
      d = (int64_t)((a >> off) << (64 - width)) >> (64 - width);
   D64((uint64_t)d);
   w->scc = d != 0;
}

/* D.i = abs(S0.i - S1.i); SCC = (D != 0). */
void
sim__op_s_absdiff_i32(sim_wave *w, const sim_inst *in)
{
   int64_t r = (int64_t)(int32_t)S0 - (int32_t)S1;
   uint32_t d = (uint32_t)(r < 0 ? -r : r);
   D(d);
   w->scc = d != 0;
}

/* D.u = (S0.u * S1.u) >> 32. */
void
sim__op_s_mul_hi_u32(sim_wave *w, const sim_inst *in)
{
   D((uint32_t)(((uint64_t)S0 * S1) >> 32));
}

/* D.i = (S0.i * S1.i) >> 32. */
void
sim__op_s_mul_hi_i32(sim_wave *w, const sim_inst *in)
{
   D((uint32_t)(((int64_t)(int32_t)S0 * (int32_t)S1) >> 32));
}

/* D.u = (S0.u << N) + S1.u; SCC = carry out of the 33+N-bit sum. */
#define LSHL_ADD(n)                                                                         \
   void sim__op_s_lshl##n##_add_u32(sim_wave *w, const sim_inst *in)                         \
   {                                                                                        \
      uint64_t r = ((uint64_t)S0 << n) + S1;                                                \
      D((uint32_t)r);                                                                       \
      w->scc = (r >> 32) != 0;                                                              \
   }
LSHL_ADD(1)
LSHL_ADD(2)
LSHL_ADD(3)
LSHL_ADD(4)

/* D = { S1[15:0], S0[15:0] } (ll), { S1[31:16], S0[15:0] } (lh), { S1[31:16], S0[31:16] }
 * (hh). */
void
sim__op_s_pack_ll_b32_b16(sim_wave *w, const sim_inst *in)
{
   D((S0 & 0xFFFF) | S1 << 16);
}
void
sim__op_s_pack_lh_b32_b16(sim_wave *w, const sim_inst *in)
{
   D((S0 & 0xFFFF) | (S1 & 0xFFFF0000u));
}
void
sim__op_s_pack_hh_b32_b16(sim_wave *w, const sim_inst *in)
{
   D(S0 >> 16 | (S1 & 0xFFFF0000u));
}

/*
 * Conditional branch using the branch stack ([ISA] 12.x S_CBRANCH_G_FORK; MODE.CSP is the
 * stack pointer, entries are four SGPRs at SGPR[CSP * 4]: {PC, EXEC}):
 *   mask_pass = S0.u64 & EXEC; mask_fail = ~S0.u64 & EXEC;
 *   if (mask_pass == EXEC) PC = S1.u64;
 *   else if (mask_fail == EXEC) PC += 4;
 *   else if (bitcount(mask_fail) < bitcount(mask_pass))
 *      { EXEC = mask_fail; SGPR[CSP * 4] = {S1.u64, mask_pass}; CSP++; PC += 4; }
 *   else { EXEC = mask_pass; SGPR[CSP * 4] = {PC + 4, mask_fail}; CSP++; PC = S1.u64; }
 * The side with fewer lanes runs first; S_CBRANCH_JOIN resumes the other.
 */
void
sim__cbranch_fork(sim_wave *w, uint64_t mask, uint64_t target, uint64_t next)
{
   uint64_t exec = SIM_EXEC(w), pass = mask & exec, fail = ~mask & exec;
   if (pass == exec) {
      w->pc = target;
      return;
   }
   if (fail == exec) {
      w->pc = next;
      return;
   }
   unsigned slot = (w->csp & 7) * 4;
   bool fail_first = __builtin_popcountll(fail) < __builtin_popcountll(pass);
   uint64_t later_pc = fail_first ? target : next, later_mask = fail_first ? pass : fail;
   w->s64[slot / 2] = later_pc;
   w->s64[slot / 2 + 1] = later_mask;
   w->csp = (w->csp + 1) & 7;
   sim__exec_write(w, fail_first ? fail : pass);
   w->pc = fail_first ? next : target;
}

void
sim__op_s_cbranch_g_fork(sim_wave *w, const sim_inst *in)
{
   sim__cbranch_fork(w, S0_64, S1_64, w->pc);
}

/* Return from exception: PRIV = 0; PC = S0.u64; S_RFE_RESTORE_B64 also sets INST_ATC =
 * S1.u[0]. Neither privilege nor ATC is modelled, so both are the jump. */
void
sim__op_s_rfe_restore_b64(sim_wave *w, const sim_inst *in)
{
   w->pc = S0_64;
}
