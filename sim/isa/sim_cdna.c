/*
 * The VALU instructions gfx90a (CDNA2) adds to gfx9: AGPR moves, packed FP32, v_fmac_f64
 * (AMD "Instinct MI200" CDNA2 ISA reference guide, chapters 7 and 12). Decoded only for a
 * target whose opcode table has them (sim_opcodes_gfx90a.def).
 *
 * AGPR n is VGPR row 256 + n of the wave (sim_isa_priv.h, sim_wave.v): a source code
 * SIM_SRC_VGPR + n that names an AGPR is that row as it stands.
 */
#include "sim_isa_priv.h"

/* Writes 32-bit lanes `r` to row `row` for the lanes of EXEC. */
static void
row_write(sim_wave *w, const sim_inst *in, unsigned row, const uint32_t *r)
{
   uint32_t *d = sim__vrow(w, in, row);
   if (!d)
      return;
   uint64_t m = SIM_EXEC(w);
   for (unsigned l = 0; l < 64; l++)
      if ((m >> l) & 1)
         d[l] = r[l];
}

/* D(VGPR) = S0(AGPR). */
void
sim__op_v_accvgpr_read_b32(sim_wave *w, const sim_inst *in)
{
   const uint32_t *s = sim__vrow(w, in, in->src[0]);
   if (s)
      row_write(w, in, in->vdst, s);
}

/* D(AGPR) = S0 (VGPR or inline constant). */
void
sim__op_v_accvgpr_write_b32(sim_wave *w, const sim_inst *in)
{
   uint32_t t[64];
   const uint32_t *s = sim__vsrc32(w, in, 0, SIM_VT_B32, t);
   row_write(w, in, 256 + in->vdst, s);
}

/* D(AGPR) = S0(AGPR). */
void
sim__op_v_accvgpr_mov_b32(sim_wave *w, const sim_inst *in)
{
   const uint32_t *s = sim__vrow(w, in, in->src[0]);
   if (s) {
      uint32_t t[64];
      memcpy(t, s, sizeof(t)); /* the rows may be the same */
      row_write(w, in, 256 + in->vdst, t);
   }
}

/* Clears the SIMD's exception state: the interpreter keeps none. */
void
sim__op_v_clrexcp(sim_wave *w, const sim_inst *in)
{
   (void)w, (void)in;
}

/* D.d = S0.d * S1.d + D.d (fused): v_fma_f64 with the destination as third source. */
void
sim__op_v_fmac_f64(sim_wave *w, const sim_inst *in)
{
   void sim__op_v_fma_f64(sim_wave *, const sim_inst *);
   sim_inst t = *in;
   t.src[2] = SIM_SRC_VGPR + in->vdst;
   t.neg &= 3;
   t.abs &= 3;
   sim__op_v_fma_f64(w, &t);
}

/* D.h[i] = S0.h[i] * S1.h[i] + D.h[i] for both f16 halves (fused; VOP2, no op_sel):
 * v_pk_fma_f16 with the destination as third source, each source's halves in place. */
void
sim__op_v_pk_fmac_f16(sim_wave *w, const sim_inst *in)
{
   void sim__op_v_pk_fma_f16(sim_wave *, const sim_inst *);
   sim_inst t = *in;
   t.src[2] = SIM_SRC_VGPR + in->vdst;
   t.op_sel = 0;
   t.op_sel_hi = 7;
   t.neg = t.neg_hi = 0;
   sim__op_v_pk_fma_f16(w, &t);
}

/* ---- Packed FP32 -------------------------------------------------------------------------
 * Each source is 64 bits: a VGPR or SGPR pair, whose dword OP_SEL[i] (low result) or
 * OP_SEL_HI[i] (high result) picks; NEG / NEG_HI negate the float inputs of the low / high
 * result. An inline constant gives its 32-bit value as the low dword and 0 as the high one
 * (LLVM folds constants into these instructions only with OP_SEL_HI clear, so the high
 * dword of a constant is never read by compiled code). */

/* Source i's dword `hi` (0: bits 31:0, 1: bits 63:32) in every lane. */
static bool
pk_dword(sim_wave *w, const sim_inst *in, unsigned i, unsigned hi, uint32_t *out)
{
   unsigned c = in->src[i];
   if (c >= SIM_SRC_VGPR) {
      const uint32_t *r = sim__vrow(w, in, c - SIM_SRC_VGPR + hi);
      if (!r)
         return false;
      memcpy(out, r, 256);
      return true;
   }
   uint32_t v = c < 128 ? sim__sread32(w, in, c + hi) : hi ? 0 : sim__sread32(w, in, c);
   for (unsigned l = 0; l < 64; l++)
      out[l] = v;
   return true;
}

/* Float inputs of half `h` (0 low, 1 high) of the result: nsrc sources. */
static bool
pk_f32_srcs(sim_wave *w, const sim_inst *in, unsigned nsrc, unsigned h, float (*f)[64])
{
   for (unsigned i = 0; i < nsrc; i++) {
      unsigned sel = h ? (in->op_sel_hi >> i) & 1 : (in->op_sel >> i) & 1;
      bool neg = h ? (in->neg_hi >> i) & 1 : (in->neg >> i) & 1;
      uint32_t u[64];
      float tmp[64];
      if (!pk_dword(w, in, i, sel, u))
         return false;
      if (neg) {
         for (unsigned l = 0; l < 64; l++)
            u[l] ^= 0x80000000u;
      }
      const float *x = sim__f32_in(w, (const float *)u, tmp);
      memcpy(f[i], x, 256);
   }
   return true;
}

enum { PK_FMA, PK_MUL, PK_ADD };

static void
pk_f32(sim_wave *w, const sim_inst *in, int kind)
{
   unsigned nsrc = kind == PK_FMA ? 3 : 2;
   float r[2][64];
   for (unsigned h = 0; h < 2; h++) {
      float f[3][64];
      if (!pk_f32_srcs(w, in, nsrc, h, f))
         return;
      for (unsigned l = 0; l < 64; l++) {
         float a = f[0][l], b = f[1][l], c = kind == PK_FMA ? f[2][l] : 0.0f;
         float x = kind == PK_FMA ? __builtin_fmaf(a, b, c) : kind == PK_MUL ? a * b : a + b;
         r[h][l] = sim__nanfix32(x, a, b, c);
      }
      sim__f32_post(w, in, r[h]);
   }
   row_write(w, in, in->vdst, (const uint32_t *)r[0]);
   row_write(w, in, in->vdst + 1, (const uint32_t *)r[1]);
}

/* D.f[31:0] = S0.f * S1.f + S2.f and D.f[63:32] likewise (fused), dwords as selected. */
void
sim__op_v_pk_fma_f32(sim_wave *w, const sim_inst *in)
{
   pk_f32(w, in, PK_FMA);
}

void
sim__op_v_pk_mul_f32(sim_wave *w, const sim_inst *in)
{
   pk_f32(w, in, PK_MUL);
}

void
sim__op_v_pk_add_f32(sim_wave *w, const sim_inst *in)
{
   pk_f32(w, in, PK_ADD);
}

/* D[31:0] = OP_SEL[0] ? S0[63:32] : S0[31:0]; D[63:32] = OP_SEL[1] ? S1[63:32] : S1[31:0]. */
void
sim__op_v_pk_mov_b32(sim_wave *w, const sim_inst *in)
{
   uint32_t lo[64], hi[64];
   if (!pk_dword(w, in, 0, in->op_sel & 1, lo) || !pk_dword(w, in, 1, (in->op_sel >> 1) & 1, hi))
      return;
   row_write(w, in, in->vdst, lo);
   row_write(w, in, in->vdst + 1, hi);
}

/* ---- Dot products accumulating into the destination (VOP2 / their VOP3 forms) -----------
 * D = dot(S0, S1) + D: the gfx906 VOP3P dot product with the destination as S2, each source
 * the whole dword (both halves for the f16 one), no op_sel. */
void sim__op_v_dot2_f32_f16(sim_wave *, const sim_inst *);
void sim__op_v_dot2_i32_i16(sim_wave *, const sim_inst *);
void sim__op_v_dot4_i32_i8(sim_wave *, const sim_inst *);
void sim__op_v_dot8_i32_i4(sim_wave *, const sim_inst *);

static sim_inst
dotc(const sim_inst *in)
{
   sim_inst t = *in;
   t.src[2] = SIM_SRC_VGPR + in->vdst;
   t.op_sel = 0;
   t.op_sel_hi = 7;
   t.neg &= 3;
   t.neg_hi = 0;
   return t;
}

void
sim__op_v_dot2c_f32_f16(sim_wave *w, const sim_inst *in)
{
   sim_inst t = dotc(in);
   sim__op_v_dot2_f32_f16(w, &t);
}

void
sim__op_v_dot2c_i32_i16(sim_wave *w, const sim_inst *in)
{
   sim_inst t = dotc(in);
   sim__op_v_dot2_i32_i16(w, &t);
}

void
sim__op_v_dot4c_i32_i8(sim_wave *w, const sim_inst *in)
{
   sim_inst t = dotc(in);
   sim__op_v_dot4_i32_i8(w, &t);
}

void
sim__op_v_dot8c_i32_i4(sim_wave *w, const sim_inst *in)
{
   sim_inst t = dotc(in);
   sim__op_v_dot8_i32_i4(w, &t);
}

/* ---- L2 write-back and invalidate (MUBUF, no operands) -----------------------------------
 * gfx90a's system-scope release writes the L2 back with buffer_wbl2 and its acquire
 * invalidates it with buffer_invl2 (AMDGPUUsage, "Memory Model GFX90A"), so that
 * coarse-grained data another agent or the host reads after a fine-grained flag is current.
 * The checking mode's L2 (sim_cache.c) holds coarse-grained memory: wbl2 writes its dirty
 * bytes to memory, invl2 makes its clean lines miss. */
void
sim__op_buffer_wbl2(sim_wave *w, const sim_inst *in)
{
   (void)in;
   sim__cache_wave_release(w);
}

void
sim__op_buffer_invl2(sim_wave *w, const sim_inst *in)
{
   (void)in;
   sim__cache_wave_acquire(w);
}
