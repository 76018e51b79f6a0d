/*
 * gfx90a (CDNA2) matrix fused multiply-add, v_mfma_* (VOP3P-MAI): D = A * B + C for `blocks`
 * independent M x N x K products spread over the 64 lanes (AMD "Instinct MI200" CDNA2 ISA
 * reference guide, chapter 7 "Matrix Arithmetic Instructions"). The element-to-lane layouts
 * are the ISA guide's, as AMD's matrix instruction calculator (ROCm
 * amd_matrix_instruction_calculator, --architecture cdna2 --detail-instruction) prints them:
 *
 *   A[i][k] of block b: lane M*b + M*blocks*(k / kpl) + i, element k % kpl of that lane
 *   B[k][j] of block b: lane N*b + N*blocks*(k / kpl) + j, element k % kpl
 *   C/D[i][j] of block b (32-bit results): the 4 x N tile s = b*(M/4) + i/4 sits in lane
 *     group s % (64/N) (lane N*(s % (64/N)) + j) and registers 4*(s / (64/N)) + i % 4
 *   C/D[i][j] of block b (f64): lane 16*(i % 4) + N*b + j, register pair i / 4
 *
 * where kpl, the K elements one lane holds, is 1 for f32 and f64 (a register or pair), 2 for
 * the bf16 forms (two halves of one register), 4 for f16, bf16_1k (two registers) and i8 (the
 * four bytes of one).
 *
 * Broadcast controls: CBSZ/ABID make every block of a group of 2^CBSZ read the A values of
 * block ABID of its group; BLGP swizzles the lanes B is read from (0 as is, 1/2 the first /
 * second 32 lanes broadcast, 3 rotated down by 16, 4-7 the first to fourth 16 lanes
 * broadcast). The f64 forms take neither (CDNA2 guide; LLVM refuses them).
 *
 * Arithmetic: each result element is accumulated in ascending k from C, one fused
 * multiply-add a step (an f32 accumulator for the f32, f16 and bf16 forms, f64 for f64, a
 * wrapping 32-bit integer for i8). The guide does not give the order in which the hardware
 * adds the K products of one element, nor its intermediate precision; this order is exact
 * whenever the exact result is representable (the f16 and bf16 products are exact in f32),
 * deterministic, and what a host reference written as the textbook loop with fmaf computes.
 * NaN results are the hardware's NaN (sim__nanfix32/64). Denormals are kept, inputs and
 * results: MFMA does not read MODE's denormal controls.
 *
 * Every lane's A and B take part (the product is across lanes); D is written to the lanes
 * of EXEC, as other VALU results are (compiled code runs MFMA with EXEC full: the builtins
 * are convergent). A and B must be registers (VGPRs, or AGPRs with the ACC bits), as LLVM
 * requires; C may also be an inline constant. ACC_CD makes C and D AGPRs.
 */
#include "sim_isa_priv.h"

typedef enum mf_type { MF_F32, MF_F16, MF_BF16, MF_I8, MF_F64 } mf_type;

typedef struct mf_shape {
   uint8_t m, k, blocks, kpl;
   mf_type type;
} mf_shape;

#define MF_MAX_REGS 32

/* Row of register `n` of A or B (source i, 0 or 1): its ACC bit makes it an AGPR. */
static const uint32_t *
ab_row(sim_wave *w, const sim_inst *in, unsigned i, unsigned n)
{
   unsigned c = in->src[i];
   if (c < SIM_SRC_VGPR) {
      sim__fault_illegal(w, in, "MFMA A/B operand is not a register");
      return NULL;
   }
   return sim__vrow(w, in, c - SIM_SRC_VGPR + ((in->mfma.acc >> i) & 1 ? 256 : 0) + n);
}

/* The value of element e (0 .. kpl-1) of source i's registers `r` in lane l, as a double
 * (exact for every input type) or, for i8, an integer. */
static double
elem_f(const mf_shape *s, const uint32_t *const *r, unsigned l, unsigned e)
{
   switch (s->type) {
   case MF_F32:
      return sim__as_f32(r[0][l]);
   case MF_F64:
      return sim__as_f64(r[0][l] | (uint64_t)r[1][l] << 32);
   case MF_F16:
   case MF_BF16: {
      uint32_t h = (r[e / 2][l] >> (16 * (e & 1))) & 0xFFFF;
      return s->type == MF_F16 ? sim__f16_to_f32(h) : sim__as_f32(h << 16);
   }
   case MF_I8:
      break;
   }
   return 0;
}

static int32_t
elem_i8(const uint32_t *const *r, unsigned l, unsigned e)
{
   return (int8_t)(r[0][l] >> (8 * e));
}

static unsigned
blgp_lane(unsigned l, unsigned blgp)
{
   switch (blgp) {
   case 1:
      return l % 32;
   case 2:
      return l % 32 + 32;
   case 3:
      return (l + 16) % 64;
   case 4:
   case 5:
   case 6:
   case 7:
      return l % 16 + 16 * (blgp - 4);
   default:
      return l;
   }
}

/* Lane and register of result element (b, i, j); *reg counts 32-bit registers. */
static void
d_place(const mf_shape *s, unsigned b, unsigned i, unsigned j, unsigned *lane, unsigned *reg)
{
   unsigned n = s->m;
   if (s->type == MF_F64) {
      *lane = 16 * (i % 4) + n * b + j;
      *reg = 2 * (i / 4);
      return;
   }
   unsigned groups = 64 / n, tile = b * (s->m / 4) + i / 4;
   *lane = n * (tile % groups) + j;
   *reg = 4 * (tile / groups) + i % 4;
}

/* Reads C (nreg registers) into c: rows, or an inline constant in every lane. */
static bool
read_c(sim_wave *w, const sim_inst *in, const mf_shape *s, unsigned nreg,
       uint32_t (*c)[64])
{
   unsigned code = in->src[2];
   if (code >= SIM_SRC_VGPR) {
      unsigned base = code - SIM_SRC_VGPR + (in->mfma.acc_cd ? 256 : 0);
      for (unsigned r = 0; r < nreg; r++) {
         const uint32_t *row = sim__vrow(w, in, base + r);
         if (!row)
            return false;
         memcpy(c[r], row, 256);
      }
      return true;
   }
   uint64_t v = s->type == MF_F64 ? sim__special64(w, in, code, SIM_K_F64)
                                  : sim__special32(w, in, code, 32);
   for (unsigned r = 0; r < nreg; r++) {
      uint32_t x = s->type == MF_F64 ? (uint32_t)(v >> (32 * (r & 1))) : (uint32_t)v;
      for (unsigned l = 0; l < 64; l++)
         c[r][l] = x;
   }
   return true;
}

static void
mfma(sim_wave *w, const sim_inst *in, const mf_shape *s)
{
   unsigned n = s->m, words = s->type == MF_F64 ? 2 : 1;
   unsigned nreg = words * s->m * n * s->blocks / 64;
   unsigned abregs = s->type == MF_F64 || (s->kpl == 4 && s->type != MF_I8) ? 2 : 1;
   const uint32_t *a[2], *b[2];
   for (unsigned r = 0; r < abregs; r++) {
      a[r] = ab_row(w, in, 0, r);
      b[r] = a[r] ? ab_row(w, in, 1, r) : NULL;
      if (!b[r])
         return;
   }
   uint32_t d[MF_MAX_REGS][64];
   if (!read_c(w, in, s, nreg, d))
      return;
   bool f64 = s->type == MF_F64;
   unsigned cbsz = f64 ? 0 : in->mfma.cbsz, blgp = f64 ? 0 : in->mfma.blgp;
   unsigned abid = f64 ? 0 : in->mfma.abid & ((1u << cbsz) - 1);
   for (unsigned blk = 0; blk < s->blocks; blk++) {
      unsigned ablk = ((blk >> cbsz) << cbsz) + abid;
      for (unsigned i = 0; i < s->m; i++) {
         for (unsigned j = 0; j < n; j++) {
            unsigned lane, reg;
            d_place(s, blk, i, j, &lane, &reg);
            uint32_t *cl = &d[reg][lane];
            uint32_t *ch = f64 ? &d[reg + 1][lane] : NULL;
            double accd = f64 ? sim__as_f64(*cl | (uint64_t)*ch << 32) : 0;
            float accf = sim__as_f32(*cl);
            uint32_t acci = *cl;
            for (unsigned k = 0; k < s->k; k++) {
               unsigned la = s->m * ablk + s->m * s->blocks * (k / s->kpl) + i;
               unsigned lb = blgp_lane(n * blk + n * s->blocks * (k / s->kpl) + j, blgp);
               unsigned e = k % s->kpl;
               if (s->type == MF_I8) {
                  acci += (uint32_t)(elem_i8(a, la, e) * elem_i8(b, lb, e));
               } else if (f64) {
                  double x = elem_f(s, a, la, e), y = elem_f(s, b, lb, e);
                  accd = sim__nanfix64(__builtin_fma(x, y, accd), x, y, accd);
               } else {
                  float x = (float)elem_f(s, a, la, e), y = (float)elem_f(s, b, lb, e);
                  accf = sim__nanfix32(__builtin_fmaf(x, y, accf), x, y, accf);
               }
            }
            if (s->type == MF_I8) {
               *cl = acci;
            } else if (f64) {
               uint64_t u = sim__as_u64(accd);
               *cl = (uint32_t)u;
               *ch = (uint32_t)(u >> 32);
            } else {
               *cl = sim__as_u32(accf);
            }
         }
      }
   }
   unsigned base = in->vdst + (in->mfma.acc_cd ? 256 : 0);
   uint64_t m = SIM_EXEC(w);
   for (unsigned r = 0; r < nreg; r++) {
      uint32_t *row = sim__vrow(w, in, base + r);
      if (!row)
         return;
      for (unsigned l = 0; l < 64; l++)
         if ((m >> l) & 1)
            row[l] = d[r][l];
   }
}

/* One handler a form: v_mfma_<result>_<M>x<N>x<K><input>, its block count and type. */
#define MFMA(name, m_, k_, blocks_, kpl_, type_)                                            \
   void sim__op_##name(sim_wave *w, const sim_inst *in)                                     \
   {                                                                                        \
      static const mf_shape s = {m_, k_, blocks_, kpl_, type_};                             \
      mfma(w, in, &s);                                                                      \
   }

MFMA(v_mfma_f32_32x32x1f32, 32, 1, 2, 1, MF_F32)
MFMA(v_mfma_f32_16x16x1f32, 16, 1, 4, 1, MF_F32)
MFMA(v_mfma_f32_4x4x1f32, 4, 1, 16, 1, MF_F32)
MFMA(v_mfma_f32_32x32x2f32, 32, 2, 1, 1, MF_F32)
MFMA(v_mfma_f32_16x16x4f32, 16, 4, 1, 1, MF_F32)
MFMA(v_mfma_f32_32x32x4f16, 32, 4, 2, 4, MF_F16)
MFMA(v_mfma_f32_16x16x4f16, 16, 4, 4, 4, MF_F16)
MFMA(v_mfma_f32_4x4x4f16, 4, 4, 16, 4, MF_F16)
MFMA(v_mfma_f32_32x32x8f16, 32, 8, 1, 4, MF_F16)
MFMA(v_mfma_f32_16x16x16f16, 16, 16, 1, 4, MF_F16)
MFMA(v_mfma_i32_32x32x4i8, 32, 4, 2, 4, MF_I8)
MFMA(v_mfma_i32_16x16x4i8, 16, 4, 4, 4, MF_I8)
MFMA(v_mfma_i32_4x4x4i8, 4, 4, 16, 4, MF_I8)
MFMA(v_mfma_i32_32x32x8i8, 32, 8, 1, 4, MF_I8)
MFMA(v_mfma_i32_16x16x16i8, 16, 16, 1, 4, MF_I8)
MFMA(v_mfma_f32_32x32x2bf16, 32, 2, 2, 2, MF_BF16)
MFMA(v_mfma_f32_16x16x2bf16, 16, 2, 4, 2, MF_BF16)
MFMA(v_mfma_f32_4x4x2bf16, 4, 2, 16, 2, MF_BF16)
MFMA(v_mfma_f32_32x32x4bf16, 32, 4, 1, 2, MF_BF16)
MFMA(v_mfma_f32_16x16x8bf16, 16, 8, 1, 2, MF_BF16)
MFMA(v_mfma_f32_32x32x4bf16_1k, 32, 4, 2, 4, MF_BF16)
MFMA(v_mfma_f32_16x16x4bf16_1k, 16, 4, 4, 4, MF_BF16)
MFMA(v_mfma_f32_4x4x4bf16_1k, 4, 4, 16, 4, MF_BF16)
MFMA(v_mfma_f32_32x32x8bf16_1k, 32, 8, 1, 4, MF_BF16)
MFMA(v_mfma_f32_16x16x16bf16_1k, 16, 16, 1, 4, MF_BF16)
MFMA(v_mfma_f64_16x16x4f64, 16, 4, 1, 1, MF_F64)
MFMA(v_mfma_f64_4x4x4f64, 4, 4, 4, 1, MF_F64)
