/*
 * SOP1: scalar ALU, one source; PC and EXEC manipulation ([ISA] 5.x, 12.x "SOP1
 * instructions"). Sources are read before the destination is written, so D may alias S0.
 */
#include "sim_isa_priv.h"

#define S0 sim__sread32(w, in, in->src[0])
#define S0_64 sim__sread64(w, in, in->src[0], SIM_K_B64)
#define D(v) sim__swrite32(w, in->vdst, (v))
#define D64(v) sim__swrite64(w, in->vdst, (v))

/* D.u = S0.u. */
void
sim__op_s_mov_b32(sim_wave *w, const sim_inst *in)
{
   D(S0);
}

/* D.u64 = S0.u64. */
void
sim__op_s_mov_b64(sim_wave *w, const sim_inst *in)
{
   D64(S0_64);
}

/* if (SCC) D.u = S0.u. */
void
sim__op_s_cmov_b32(sim_wave *w, const sim_inst *in)
{
   uint32_t v = S0;
   if (w->scc)
      D(v);
}

/* if (SCC) D.u64 = S0.u64. */
void
sim__op_s_cmov_b64(sim_wave *w, const sim_inst *in)
{
   uint64_t v = S0_64;
   if (w->scc)
      D64(v);
}

/* D.u = ~S0.u; SCC = (D != 0). */
void
sim__op_s_not_b32(sim_wave *w, const sim_inst *in)
{
   uint32_t d = ~S0;
   D(d);
   w->scc = d != 0;
}

/* D.u64 = ~S0.u64; SCC = (D != 0). */
void
sim__op_s_not_b64(sim_wave *w, const sim_inst *in)
{
   uint64_t d = ~S0_64;
   D64(d);
   w->scc = d != 0;
}

static uint64_t
wqm(uint64_t v)
{
   uint64_t r = 0;
   for (unsigned q = 0; q < 64; q += 4)
      if ((v >> q) & 0xF)
         r |= 0xFull << q;
   return r;
}

/* D[4i+3:4i] = (S0[4i+3:4i] != 0) ? 0xF : 0; SCC = (D != 0). */
void
sim__op_s_wqm_b32(sim_wave *w, const sim_inst *in)
{
   uint32_t d = (uint32_t)wqm(S0);
   D(d);
   w->scc = d != 0;
}
void
sim__op_s_wqm_b64(sim_wave *w, const sim_inst *in)
{
   uint64_t d = wqm(S0_64);
   D64(d);
   w->scc = d != 0;
}

static uint32_t
brev32(uint32_t v)
{
   v = ((v >> 1) & 0x55555555u) | ((v & 0x55555555u) << 1);
   v = ((v >> 2) & 0x33333333u) | ((v & 0x33333333u) << 2);
   v = ((v >> 4) & 0x0F0F0F0Fu) | ((v & 0x0F0F0F0Fu) << 4);
   return __builtin_bswap32(v);
}

/* D.u[31:0] = S0.u[0:31]. */
void
sim__op_s_brev_b32(sim_wave *w, const sim_inst *in)
{
   D(brev32(S0));
}

/* D.u64[63:0] = S0.u64[0:63]. */
void
sim__op_s_brev_b64(sim_wave *w, const sim_inst *in)
{
   uint64_t v = S0_64;
   D64((uint64_t)brev32((uint32_t)v) << 32 | brev32((uint32_t)(v >> 32)));
}

/* D.i = CountZeroBits(S0.u) / CountOneBits(S0.u); SCC = (D != 0). */
#define BCNT(name, expr)                                                                    \
   void sim__op_##name(sim_wave *w, const sim_inst *in)                                      \
   {                                                                                        \
      uint32_t d = (expr);                                                                  \
      D(d);                                                                                 \
      w->scc = d != 0;                                                                      \
   }
BCNT(s_bcnt0_i32_b32, 32 - __builtin_popcount(S0))
BCNT(s_bcnt0_i32_b64, 64 - __builtin_popcountll(S0_64))
BCNT(s_bcnt1_i32_b32, __builtin_popcount(S0))
BCNT(s_bcnt1_i32_b64, __builtin_popcountll(S0_64))

/* D.i = FindFirstZero/One(S0) from the LSB, -1 if none. */
void
sim__op_s_ff0_i32_b32(sim_wave *w, const sim_inst *in)
{
   uint32_t v = ~S0;
   D(v ? (uint32_t)__builtin_ctz(v) : ~0u);
}
void
sim__op_s_ff0_i32_b64(sim_wave *w, const sim_inst *in)
{
   uint64_t v = ~S0_64;
   D(v ? (uint32_t)__builtin_ctzll(v) : ~0u);
}
void
sim__op_s_ff1_i32_b32(sim_wave *w, const sim_inst *in)
{
   uint32_t v = S0;
   D(v ? (uint32_t)__builtin_ctz(v) : ~0u);
}
void
sim__op_s_ff1_i32_b64(sim_wave *w, const sim_inst *in)
{
   uint64_t v = S0_64;
   D(v ? (uint32_t)__builtin_ctzll(v) : ~0u);
}

/* D.i = position of the first 1 counting from the MSB, -1 if S0 == 0. */
void
sim__op_s_flbit_i32_b32(sim_wave *w, const sim_inst *in)
{
   uint32_t v = S0;
   D(v ? (uint32_t)__builtin_clz(v) : ~0u);
}
void
sim__op_s_flbit_i32_b64(sim_wave *w, const sim_inst *in)
{
   uint64_t v = S0_64;
   D(v ? (uint32_t)__builtin_clzll(v) : ~0u);
}

/* D.i = position of the first bit from the MSB that differs from the sign bit; -1 if all
 * bits equal the sign. */
void
sim__op_s_flbit_i32(sim_wave *w, const sim_inst *in)
{
   uint32_t v = S0;
   if ((int32_t)v < 0)
      v = ~v;
   D(v ? (uint32_t)__builtin_clz(v) : ~0u);
}
void
sim__op_s_flbit_i32_i64(sim_wave *w, const sim_inst *in)
{
   uint64_t v = S0_64;
   if ((int64_t)v < 0)
      v = ~v;
   D(v ? (uint32_t)__builtin_clzll(v) : ~0u);
}

/* D.i = signext(S0.i[7:0]) / signext(S0.i[15:0]). */
void
sim__op_s_sext_i32_i8(sim_wave *w, const sim_inst *in)
{
   D((uint32_t)(int32_t)(int8_t)S0);
}
void
sim__op_s_sext_i32_i16(sim_wave *w, const sim_inst *in)
{
   D((uint32_t)(int32_t)(int16_t)S0);
}

/* D.u[S0.u[4:0]] = 0 / 1 (64-bit: S0.u[5:0]). */
void
sim__op_s_bitset0_b32(sim_wave *w, const sim_inst *in)
{
   uint32_t b = S0 & 31;
   D(sim__sread32(w, in, in->vdst) & ~(1u << b));
}
void
sim__op_s_bitset1_b32(sim_wave *w, const sim_inst *in)
{
   uint32_t b = S0 & 31;
   D(sim__sread32(w, in, in->vdst) | 1u << b);
}
void
sim__op_s_bitset0_b64(sim_wave *w, const sim_inst *in)
{
   uint32_t b = S0 & 63;
   D64(sim__sread64(w, in, in->vdst, SIM_K_B64) & ~(1ull << b));
}
void
sim__op_s_bitset1_b64(sim_wave *w, const sim_inst *in)
{
   uint32_t b = S0 & 63;
   D64(sim__sread64(w, in, in->vdst, SIM_K_B64) | 1ull << b);
}

/* D.u64 = PC + 4 (the address of the next instruction). */
void
sim__op_s_getpc_b64(sim_wave *w, const sim_inst *in)
{
   D64(w->pc);
}

/* PC = S0.u64. */
void
sim__op_s_setpc_b64(sim_wave *w, const sim_inst *in)
{
   w->pc = S0_64;
}

/* Return from exception: PRIV = 0; PC = S0.u64 (no privilege is modelled). */
void
sim__op_s_rfe_b64(sim_wave *w, const sim_inst *in)
{
   w->pc = S0_64;
}

/* End of a fork (S_CBRANCH_G_FORK / I_FORK): S0.u is the CSP saved before the fork.
 *   if (CSP == S0.u) PC += 4 (both paths done); else { CSP--; {PC, EXEC} = SGPR[CSP * 4]; }
 */
void
sim__op_s_cbranch_join(sim_wave *w, const sim_inst *in)
{
   if (w->csp == (S0 & 7))
      return;
   w->csp = (w->csp - 1) & 7;
   unsigned slot = w->csp * 4;
   w->pc = w->s64[slot / 2];
   sim__exec_write(w, w->s64[slot / 2 + 1]);
}

/* D.u64 = PC + 4; PC = S0.u64. */
void
sim__op_s_swappc_b64(sim_wave *w, const sim_inst *in)
{
   uint64_t target = S0_64;
   D64(w->pc);
   w->pc = target;
}

/* Saveexec family: D.u64 = EXEC; EXEC = f(S0.u64, EXEC); SCC = (EXEC != 0).
 * Wrexec family: EXEC = f(S0.u64, EXEC); D.u64 = EXEC; SCC = (EXEC != 0). */
#define SAVEEXEC(name, expr)                                                                \
   void sim__op_##name(sim_wave *w, const sim_inst *in)                                      \
   {                                                                                        \
      uint64_t s = S0_64, e = SIM_EXEC(w);                                                  \
      D64(e);                                                                               \
      sim__exec_write(w, (expr));                                                           \
      w->scc = SIM_EXEC(w) != 0;                                                            \
   }
SAVEEXEC(s_and_saveexec_b64, s & e)
SAVEEXEC(s_or_saveexec_b64, s | e)
SAVEEXEC(s_xor_saveexec_b64, s ^ e)
SAVEEXEC(s_andn2_saveexec_b64, s & ~e)
SAVEEXEC(s_orn2_saveexec_b64, s | ~e)
SAVEEXEC(s_nand_saveexec_b64, ~(s & e))
SAVEEXEC(s_nor_saveexec_b64, ~(s | e))
SAVEEXEC(s_xnor_saveexec_b64, ~(s ^ e))
SAVEEXEC(s_andn1_saveexec_b64, ~s & e)
SAVEEXEC(s_orn1_saveexec_b64, ~s | e)

#define WREXEC(name, expr)                                                                  \
   void sim__op_##name(sim_wave *w, const sim_inst *in)                                      \
   {                                                                                        \
      uint64_t s = S0_64, e = SIM_EXEC(w);                                                  \
      sim__exec_write(w, (expr));                                                           \
      D64(SIM_EXEC(w));                                                                     \
      w->scc = SIM_EXEC(w) != 0;                                                            \
   }
WREXEC(s_andn1_wrexec_b64, ~s & e)
WREXEC(s_andn2_wrexec_b64, s & ~e)

/* gfx10's 32-bit forms, on EXEC_LO (a wave32's whole mask):
 * D.u32 = EXEC_LO; EXEC_LO = f(S0.u32, EXEC_LO); SCC = (EXEC_LO != 0). */
#define SAVEEXEC32(name, expr)                                                              \
   void sim__op_##name(sim_wave *w, const sim_inst *in)                                      \
   {                                                                                        \
      uint32_t s = S0, e = w->s[SIM_SRC_EXEC];                                              \
      D(e);                                                                                 \
      w->s[SIM_SRC_EXEC] = (expr);                                                          \
      w->scc = w->s[SIM_SRC_EXEC] != 0;                                                     \
   }
SAVEEXEC32(s_and_saveexec_b32, s & e)
SAVEEXEC32(s_or_saveexec_b32, s | e)
SAVEEXEC32(s_xor_saveexec_b32, s ^ e)
SAVEEXEC32(s_andn2_saveexec_b32, s & ~e)
SAVEEXEC32(s_orn2_saveexec_b32, s | ~e)
SAVEEXEC32(s_nand_saveexec_b32, ~(s & e))
SAVEEXEC32(s_nor_saveexec_b32, ~(s | e))
SAVEEXEC32(s_xnor_saveexec_b32, ~(s ^ e))
SAVEEXEC32(s_andn1_saveexec_b32, ~s & e)
SAVEEXEC32(s_orn1_saveexec_b32, ~s | e)

/* EXEC_LO = f(S0.u32, EXEC_LO); D.u32 = EXEC_LO; SCC = (EXEC_LO != 0). */
#define WREXEC32(name, expr)                                                                \
   void sim__op_##name(sim_wave *w, const sim_inst *in)                                      \
   {                                                                                        \
      uint32_t s = S0, e = w->s[SIM_SRC_EXEC];                                              \
      w->s[SIM_SRC_EXEC] = (expr);                                                          \
      D(w->s[SIM_SRC_EXEC]);                                                                \
      w->scc = w->s[SIM_SRC_EXEC] != 0;                                                     \
   }
WREXEC32(s_andn1_wrexec_b32, ~s & e)
WREXEC32(s_andn2_wrexec_b32, s & ~e)

static uint64_t
quadmask(uint64_t v)
{
   uint64_t r = 0;
   for (unsigned q = 0; q < 16; q++)
      if ((v >> (4 * q)) & 0xF)
         r |= 1ull << q;
   return r;
}

/* D[i] = (S0[4i+3:4i] != 0); SCC = (D != 0). */
void
sim__op_s_quadmask_b32(sim_wave *w, const sim_inst *in)
{
   uint32_t d = (uint32_t)quadmask(S0);
   D(d);
   w->scc = d != 0;
}
void
sim__op_s_quadmask_b64(sim_wave *w, const sim_inst *in)
{
   uint64_t d = quadmask(S0_64);
   D64(d);
   w->scc = d != 0;
}

/* D.u = SGPR[S0.addr + M0.u] (movrels); SGPR[D.addr + M0.u] = S0.u (movreld). */
void
sim__op_s_movrels_b32(sim_wave *w, const sim_inst *in)
{
   D(sim__sread32(w, in, (in->src[0] + SIM_M0(w)) & 0x7F));
}
void
sim__op_s_movrels_b64(sim_wave *w, const sim_inst *in)
{
   D64(sim__sread64(w, in, (in->src[0] + SIM_M0(w)) & 0x7E, SIM_K_B64));
}
void
sim__op_s_movreld_b32(sim_wave *w, const sim_inst *in)
{
   sim__swrite32(w, (in->vdst + SIM_M0(w)) & 0x7F, S0);
}
void
sim__op_s_movreld_b64(sim_wave *w, const sim_inst *in)
{
   sim__swrite64(w, (in->vdst + SIM_M0(w)) & 0x7E, S0_64);
}

/* D.i = abs(S0.i); SCC = (D != 0). */
void
sim__op_s_abs_i32(sim_wave *w, const sim_inst *in)
{
   int32_t v = (int32_t)S0;
   uint32_t d = v < 0 ? 0u - (uint32_t)v : (uint32_t)v;
   D(d);
   w->scc = d != 0;
}

/* M0[7:0] = S0.u[7:0]. */
void
sim__op_s_set_gpr_idx_idx(sim_wave *w, const sim_inst *in)
{
   SIM_M0(w) = (SIM_M0(w) & ~0xFFu) | (S0 & 0xFF);
}

/* D.u64[2i+1:2i] = S0.u[i] replicated. */
void
sim__op_s_bitreplicate_b64_b32(sim_wave *w, const sim_inst *in)
{
   uint32_t s = S0;
   uint64_t d = 0;
   for (unsigned i = 0; i < 32; i++)
      if ((s >> i) & 1)
         d |= 3ull << (2 * i);
   D64(d);
}
