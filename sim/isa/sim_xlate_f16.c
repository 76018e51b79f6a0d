/*
 * The translator's lowering of half-precision VALU forms (docs/sim.md "Speed"): v_add_f16,
 * v_sub_f16, v_subrev_f16, v_mul_f16, v_fma_f16, v_mad_f16, v_mac_f16, v_cvt_f16_f32,
 * v_cvt_f32_f16 (VOP1/VOP2/VOP3 without op_sel, clamp or output modifiers; abs/neg allowed)
 * and the packed v_pk_add_f16, v_pk_mul_f16, v_pk_fma_f16 (op_sel, op_sel_hi, neg_lo and
 * neg_hi allowed; no clamp): what OpenCL half and half-vector arithmetic compiles to on gfx9.
 * Each computes bit for bit what its handler does (sim_vop1.c, sim_vop2.c, sim_vop3.c,
 * sim_vop3p.c) for every input:
 *
 * - Sources are f16 bits (an inline float constant is its f16 value; integer constants and
 *   literals give their low 16 bits; abs/neg act on bit 15), widened exactly to f32. A
 *   packed form computes its row's 2 x lanes halves in place, as one vector of f32
 *   elements (op_sel and op_sel_hi move the halves they pick into place first).
 * - A sum, difference or product of two f16 values is computed in f32 and rounded once to
 *   f16 (nearest even): the product is exact in f32, and for the others 24 >= 2 * 11 + 2
 *   bits makes rounding to f32 first innocuous, so the result is the handlers' rounding of
 *   the exact value.
 * - The fused multiply-add is the host's fused f32 one, rounded to nearest even in f16,
 *   unless that sits on an f16 midpoint: then rounded to odd in f32 (the product is exact
 *   there, TwoSum gives the sum's error) before (fma_f16).
 * - v_mad_f16 / v_mac_f16 round the product to f16 first (not fused), then the sum.
 * - A NaN result is the first NaN source (after abs/neg) quieted (| 0x200), else 0x7E00:
 *   the interpreter's rule (sim__nanfix16 through f32 and back), applied in f32 before
 *   the result is narrowed.
 * - VOP2 forms and v_cvt_f16_f32 zero bits 31:16 of D (sim__vdst16); v_fma_f16,
 *   v_mad_f16 and v_mac_f16 keep them (sim__vdst16_preserve); packed forms write 32 bits.
 *
 * MODE: the handlers flush f16 subnormal inputs and results unless MODE keeps f16
 * denormals, so every block holding one of these sets x->uses_f16 and runs only where
 * MODE keeps them (both bits, OpenCL's default); the conversions to and from f32 also set
 * x->uses_f32.
 */
#include <llvm-c/Core.h>
#include <stdlib.h>
#include "sim_xlate_priv.h"

typedef enum {
   XH_NONE, XH_ADD, XH_SUB, XH_SUBREV, XH_MUL, XH_FMA, XH_MAD, XH_MAC, XH_CVT_F16_F32,
   XH_CVT_F32_F16, XH_PK_ADD, XH_PK_MUL, XH_PK_FMA,
} xh_op;

/* A source code the lowering reads: SGPRs, integer and float inline constants, the
 * literal, VGPRs. */
static bool
xh_src_ok(unsigned c)
{
   return c <= 208 || (c >= 240 && c <= 248) || c == SIM_SRC_LITERAL ||
          (c >= SIM_SRC_VGPR && c < SIM_SRC_VGPR + 256);
}

static xh_op
xh_op_of(const sim_inst *in)
{
   if (!(in->flags & SIM_IF_VALU) || (in->flags & (SIM_IF_SDWA | SIM_IF_DPP)))
      return XH_NONE;
   if (in->enc == SIM_ENC_VOP3P) {
      xh_op op;
      unsigned n = 2;
      switch (in->op) {
      case SIM_OP_v_pk_add_f16: op = XH_PK_ADD; break;
      case SIM_OP_v_pk_mul_f16: op = XH_PK_MUL; break;
      case SIM_OP_v_pk_fma_f16: op = XH_PK_FMA, n = 3; break;
      default: return XH_NONE;
      }
      if (in->clamp || in->omod || in->vdst >= 256)
         return XH_NONE;
      for (unsigned i = 0; i < n; i++)
         if (!xh_src_ok(in->src[i]))
            return XH_NONE;
      return op;
   }
   /* No output modifiers, clamp or op_sel; abs/neg on the float sources. */
   if (!sim__xl_valu_plain(in, 3, true) || in->vdst >= 256)
      return XH_NONE;
   switch (in->op) {
   case SIM_OP_v_add_f16: return XH_ADD;
   case SIM_OP_v_sub_f16: return XH_SUB;
   case SIM_OP_v_subrev_f16: return XH_SUBREV;
   case SIM_OP_v_mul_f16: return XH_MUL;
   case SIM_OP_v_fma_f16: return XH_FMA;
   case SIM_OP_v_mad_f16: return XH_MAD;
   /* The VOP3 form's modifiers would apply to S0/S1 only; D is read as it is. */
   case SIM_OP_v_mac_f16: return (in->abs | in->neg) & 4 ? XH_NONE : XH_MAC;
   case SIM_OP_v_cvt_f16_f32: return XH_CVT_F16_F32;
   case SIM_OP_v_cvt_f32_f16: return XH_CVT_F32_F16;
   default: return XH_NONE;
   }
}

bool
sim__xl_f16_lowered(const sim_inst *in)
{
   return xh_op_of(in) != XH_NONE;
}

/* ---- Values ----------------------------------------------------------------------------- */

static const uint16_t xh_fconst16[9] = {0x3800, 0xB800, 0x3C00, 0xBC00, 0x4000,
                                        0xC000, 0x4400, 0xC400, 0x3118};

/* Vectors of `n` elements: a row of lanes (n = the wave's lanes), or a packed row's
 * halves in place (n = twice the lanes: element 2l is lane l's low half, 2l + 1 its
 * high half, as the row's bytes lie). */
typedef struct xh {
   sim_xl *x;
   LLVMBuilderRef B;
   unsigned n;
   LLVMTypeRef vi16, vh, vf, vi32;
} xh;

static void
xh_types(xh *h, sim_xl *x, unsigned n)
{
   LLVMContextRef C = x->C;
   h->x = x, h->B = x->B, h->n = n;
   h->vi16 = LLVMVectorType(LLVMInt16TypeInContext(C), n);
   h->vh = LLVMVectorType(LLVMHalfTypeInContext(C), n);
   h->vf = LLVMVectorType(LLVMFloatTypeInContext(C), n);
   h->vi32 = LLVMVectorType(x->i32, n);
}

/* A constant vector of `n` i32 elements: `even` in the even elements, `odd` in the odd. */
static LLVMValueRef
k32x2(sim_xl *x, unsigned n, uint32_t even, uint32_t odd)
{
   LLVMValueRef *e = malloc(n * sizeof(*e));
   if (!e)
      return NULL;
   for (unsigned i = 0; i < n; i++)
      e[i] = LLVMConstInt(x->i32, i & 1 ? odd : even, 0);
   LLVMValueRef r = LLVMConstVector(e, n);
   free(e);
   return r;
}
static LLVMValueRef
k32(xh *h, uint32_t v)
{
   return k32x2(h->x, h->n, v, v);
}
static LLVMValueRef
krow(sim_xl *x, uint32_t v)
{
   return k32x2(x, x->lanes, v, v);
}

/* The 32-bit value source i reads (sim__vsrc32 with SIM_VT_F16, no modifiers): a VGPR
 * row, or a scalar (an SGPR, an integer inline constant, a float inline constant as its
 * f16 value with bits 31:16 zero, the literal) in every lane. */
static LLVMValueRef
raw32(sim_xl *x, const sim_inst *in, unsigned i)
{
   unsigned c = in->src[i];
   if (c >= SIM_SRC_VGPR)
      return sim__xl_vget(x, c - SIM_SRC_VGPR);
   LLVMValueRef s;
   if (c < 128)
      s = sim__xl_sget(x, c);
   else if (c <= 192)
      s = LLVMConstInt(x->i32, c - 128, 0);
   else if (c <= 208)
      s = LLVMConstInt(x->i32, (uint32_t)(192 - (int)c), 0);
   else if (c >= 240 && c <= 248)
      s = LLVMConstInt(x->i32, xh_fconst16[c - 240], 0);
   else
      s = LLVMConstInt(x->i32, in->literal, 0);
   return sim__xl_splat(x, s, x->v32);
}

/* f16 bits (vi16) as f32: exact; a NaN keeps its sign and payload, quieted (the host's
 * conversion, as the handlers' is). */
static LLVMValueRef
widen(xh *h, LLVMValueRef bits16)
{
   return LLVMBuildFPExt(h->B, LLVMBuildBitCast(h->B, bits16, h->vh, ""), h->vf, "");
}

/* A side path: side_open branches to a new block when `cond` (i1) holds and returns the
 * block it came from; side_close joins it, the value `common` from `from`, `taken` from the
 * side path. */
static LLVMBasicBlockRef
side_open(xh *h, LLVMValueRef cond, const char *name, LLVMBasicBlockRef *join)
{
   sim_xl *x = h->x;
   LLVMBasicBlockRef from = LLVMGetInsertBlock(h->B);
   LLVMBasicBlockRef side = LLVMAppendBasicBlockInContext(x->C, x->fn, name);
   *join = LLVMAppendBasicBlockInContext(x->C, x->fn, "");
   LLVMBuildCondBr(h->B, cond, side, *join);
   LLVMPositionBuilderAtEnd(h->B, side);
   return from;
}
static LLVMValueRef
side_close(xh *h, LLVMBasicBlockRef from, LLVMBasicBlockRef join, LLVMValueRef common,
           LLVMValueRef taken)
{
   LLVMBasicBlockRef side = LLVMGetInsertBlock(h->B);
   LLVMBuildBr(h->B, join);
   LLVMPositionBuilderAtEnd(h->B, join);
   LLVMValueRef phi = LLVMBuildPhi(h->B, LLVMTypeOf(common), "");
   LLVMValueRef vals[2] = {common, taken};
   LLVMBasicBlockRef bbs[2] = {from, side};
   LLVMAddIncoming(phi, vals, bbs, 2);
   return phi;
}

/* f32 elements' NaN test on their bits: (bits & 0x7FFFFFFF) > 0x7F800000. Not an fcmp:
 * instcombine turns an fcmp of a widened half into an fcmp of halves, and without
 * AVX512-FP16 instruction selection compares those one element at a time. */
static LLVMValueRef
is_nan(xh *h, LLVMValueRef f)
{
   LLVMValueRef m = LLVMBuildAnd(h->B, LLVMBuildBitCast(h->B, f, h->vi32, ""), k32(h, 0x7FFFFFFF), "");
   return LLVMBuildICmp(h->B, LLVMIntUGT, m, k32(h, 0x7F800000), "");
}

/* The NaN rule on an f32 result `r` of the widened sources src[0..ns): where r is NaN, the
 * first NaN source (quieted by widening; narrowing keeps its sign and top payload bits:
 * the f16 source | 0x200), else the default NaN. On a side path taken only when some
 * element is NaN. */
static LLVMValueRef
nanfix(xh *h, LLVMValueRef r, LLVMValueRef *src, unsigned ns)
{
   sim_xl *x = h->x;
   LLVMBuilderRef B = h->B;
   /* Some element is NaN when the largest magnitude's bits are a NaN's: a reduction,
    * where a mask of 2 x 64 elements bitcast to an i128 would be taken apart element by
    * element by instruction selection without AVX512BW. */
   LLVMValueRef m = LLVMBuildAnd(B, LLVMBuildBitCast(B, r, h->vi32, ""), k32(h, 0x7FFFFFFF), "");
   LLVMValueRef top = sim__xl_intrin(x, "llvm.vector.reduce.umax", &h->vi32, 1, &m, 1);
   LLVMValueRef any = LLVMBuildICmp(B, LLVMIntUGT, top, LLVMConstInt(x->i32, 0x7F800000, 0), "");
   LLVMBasicBlockRef join, from = side_open(h, any, "nan16", &join);
   LLVMValueRef q = LLVMBuildBitCast(B, k32(h, 0x7FC00000), h->vf, "");
   for (int i = (int)ns - 1; i >= 0; i--)
      q = LLVMBuildSelect(B, is_nan(h, src[i]), src[i], q, "");
   return side_close(h, from, join, r, LLVMBuildSelect(B, is_nan(h, r), q, r, ""));
}

/* fma(a, b, c) of f16 values widened to f32, rounded to odd in f32. The product is exact
 * in f32 (22 significant bits, at least 2^-48), the sum's rounding error exact by TwoSum;
 * an inexact sum with an even last bit steps one ulp toward the exact value (a sum of
 * these is never 0 unless exact, and an infinite or NaN one has a NaN error). 24 >= 11 + 2
 * bits make rounding that to nearest even in f16 the correct rounding of the exact value,
 * as sim__fma16 computes it. */
static LLVMValueRef
fma_odd(xh *h, LLVMValueRef a, LLVMValueRef b, LLVMValueRef c)
{
   LLVMBuilderRef B = h->B;
   LLVMValueRef p = LLVMBuildFMul(B, a, b, ""), s = LLVMBuildFAdd(B, p, c, "");
   LLVMValueRef bb = LLVMBuildFSub(B, s, p, "");
   LLVMValueRef err = LLVMBuildFAdd(B, LLVMBuildFSub(B, p, LLVMBuildFSub(B, s, bb, ""), ""),
                                    LLVMBuildFSub(B, c, bb, ""), "");
   LLVMValueRef z = LLVMConstNull(h->vf);
   LLVMValueRef sb = LLVMBuildBitCast(B, s, h->vi32, "");
   LLVMValueRef even = LLVMBuildICmp(B, LLVMIntEQ, LLVMBuildAnd(B, sb, k32(h, 1), ""),
                                     LLVMConstNull(h->vi32), "");
   LLVMValueRef adj = LLVMBuildAnd(B, even, LLVMBuildFCmp(B, LLVMRealONE, err, z, ""), "");
   /* Away from zero (the encoding + 1) when the error has the sum's sign, else - 1. */
   LLVMValueRef away = LLVMBuildICmp(B, LLVMIntEQ, LLVMBuildFCmp(B, LLVMRealOGT, s, z, ""),
                                     LLVMBuildFCmp(B, LLVMRealOGT, err, z, ""), "");
   LLVMValueRef d = LLVMBuildSelect(B, away, k32(h, 1), k32(h, 0xFFFFFFFFu), "");
   d = LLVMBuildSelect(B, adj, d, LLVMConstNull(h->vi32), "");
   return LLVMBuildBitCast(B, LLVMBuildAdd(B, sb, d, ""), h->vf, "");
}

/* fma(a, b, c) of f16 values widened to f32, as f32 that rounds to the correct f16: the
 * fused f32 result (rounded to nearest once) where it is not on an f16 rounding midpoint,
 * which it may have been rounded onto: above the exact value's side of every midpoint
 * otherwise, as rounding to nearest is monotonic and the midpoints are f32 values. When
 * some lane's result is on one (rare), fma_odd's for every lane, on a side path.
 * A midpoint has the bit below f16's last at position k of the 24-bit significand and
 * nothing under it: k = 12 from 2^-14 up, 125 - E below (the biased exponent E; f16's
 * subnormal spacing is 2^-24); none below 2^-25 (k > 23). */
static LLVMValueRef
fma_f16(xh *h, LLVMValueRef a, LLVMValueRef b, LLVMValueRef c)
{
   sim_xl *x = h->x;
   LLVMBuilderRef B = h->B;
   LLVMValueRef args[3] = {a, b, c};
   LLVMValueRef r = sim__xl_intrin(x, "llvm.fma", &h->vf, 1, args, 3);
   LLVMValueRef bits = LLVMBuildBitCast(B, r, h->vi32, "");
   LLVMValueRef e = LLVMBuildAnd(B, LLVMBuildLShr(B, bits, k32(h, 23), ""), k32(h, 0xFF), "");
   LLVMValueRef kv[2] = {k32(h, 12), LLVMBuildSub(B, k32(h, 125), e, "")};
   LLVMValueRef k = sim__xl_intrin(x, "llvm.smax", &h->vi32, 1, kv, 2);
   kv[0] = k, kv[1] = k32(h, 24);
   k = sim__xl_intrin(x, "llvm.umin", &h->vi32, 1, kv, 2);
   LLVMValueRef sig = LLVMBuildOr(B, LLVMBuildAnd(B, bits, k32(h, 0x7FFFFF), ""), k32(h, 0x800000), "");
   LLVMValueRef below = LLVMBuildSub(B, LLVMBuildShl(B, k32(h, 2), k, ""), k32(h, 1), "");
   LLVMValueRef m = LLVMBuildXor(B, LLVMBuildAnd(B, sig, below, ""),
                                 LLVMBuildShl(B, k32(h, 1), k, ""), "");
   /* m is 0 on a midpoint: a reduction, not a mask bitcast (see nanfix). */
   LLVMValueRef least = sim__xl_intrin(x, "llvm.vector.reduce.umin", &h->vi32, 1, &m, 1);
   LLVMValueRef any = LLVMBuildICmp(B, LLVMIntEQ, least, LLVMConstInt(x->i32, 0, 0), "");
   LLVMBasicBlockRef join, from = side_open(h, any, "mid16", &join);
   return side_close(h, from, join, r, fma_odd(h, a, b, c));
}

/* The f32 result of `op` over widened sources s[0..2], the NaN rule applied: rounded once
 * to f16 it is the handler's result. */
static LLVMValueRef
compute(xh *h, xh_op op, LLVMValueRef *s, unsigned ns)
{
   LLVMBuilderRef B = h->B;
   LLVMValueRef r;
   switch (op) {
   case XH_ADD: case XH_PK_ADD: r = LLVMBuildFAdd(B, s[0], s[1], ""); break;
   case XH_SUB: r = LLVMBuildFSub(B, s[0], s[1], ""); break;
   case XH_SUBREV: r = LLVMBuildFSub(B, s[1], s[0], ""); break;
   case XH_MUL: case XH_PK_MUL: r = LLVMBuildFMul(B, s[0], s[1], ""); break;
   case XH_FMA: case XH_PK_FMA: r = fma_f16(h, s[0], s[1], s[2]); break;
   default: { /* mad, mac: the product rounded to f16, then the sum */
      LLVMValueRef p = LLVMBuildFPExt(B, LLVMBuildFPTrunc(B, LLVMBuildFMul(B, s[0], s[1], ""),
                                                          h->vh, ""), h->vf, "");
      r = LLVMBuildFAdd(B, p, s[2], "");
      break;
   }
   }
   return nanfix(h, r, s, ns);
}

/* f32 rounded to nearest even in f16, as bits. */
static LLVMValueRef
narrow(xh *h, LLVMValueRef f)
{
   return LLVMBuildBitCast(h->B, LLVMBuildFPTrunc(h->B, f, h->vh, ""), h->vi16, "");
}

/* Source i of a VOP1/VOP2/VOP3 form as f32: the low half of its row, abs/neg applied to
 * bit 15. */
static LLVMValueRef
src16(xh *h, const sim_inst *in, unsigned i)
{
   sim_xl *x = h->x;
   LLVMValueRef v = raw32(x, in, i);
   if ((in->abs >> i) & 1)
      v = LLVMBuildAnd(h->B, v, krow(x, 0x7FFF), "");
   if ((in->neg >> i) & 1)
      v = LLVMBuildXor(h->B, v, krow(x, 0x8000), "");
   return widen(h, LLVMBuildTrunc(h->B, v, h->vi16, ""));
}

/* Source i of a packed form as 2 x lanes f32 elements in place: its row with the halves
 * op_sel (low) and op_sel_hi (high) pick moved into place, neg_lo / neg_hi applied. */
static LLVMValueRef
src_packed(xh *h, const sim_inst *in, unsigned i)
{
   sim_xl *x = h->x;
   LLVMBuilderRef B = h->B;
   LLVMValueRef v = raw32(x, in, i);
   bool lo_hi = (in->op_sel >> i) & 1, hi_hi = (in->op_sel_hi >> i) & 1;
   LLVMValueRef k16 = krow(x, 16);
   if (lo_hi && hi_hi) /* both from the high half */
      v = LLVMBuildOr(B, LLVMBuildLShr(B, v, k16, ""), LLVMBuildAnd(B, v, krow(x, 0xFFFF0000u), ""), "");
   else if (!lo_hi && !hi_hi) /* both from the low half */
      v = LLVMBuildOr(B, LLVMBuildAnd(B, v, krow(x, 0xFFFF), ""), LLVMBuildShl(B, v, k16, ""), "");
   else if (lo_hi) /* swapped */
      v = LLVMBuildOr(B, LLVMBuildLShr(B, v, k16, ""), LLVMBuildShl(B, v, k16, ""), "");
   uint32_t neg = ((in->neg >> i) & 1 ? 0x8000u : 0) | ((in->neg_hi >> i) & 1 ? 0x80000000u : 0);
   if (neg)
      v = LLVMBuildXor(B, v, krow(x, neg), "");
   return widen(h, LLVMBuildBitCast(B, v, h->vi16, ""));
}

static void
emit_packed(sim_xl *x, const sim_inst *in, xh_op op)
{
   unsigned ns = op == XH_PK_FMA ? 3 : 2;
   xh h;
   xh_types(&h, x, 2 * x->lanes);
   LLVMValueRef s[3];
   for (unsigned i = 0; i < ns; i++)
      s[i] = src_packed(&h, in, i);
   LLVMValueRef r = narrow(&h, compute(&h, op, s, ns));
   sim__xl_vput(x, in->vdst, LLVMBuildBitCast(x->B, r, x->v32, ""));
}

void
sim__xl_emit_f16(sim_xl *x, const sim_inst *in)
{
   xh_op op = xh_op_of(in);
   if (op == XH_NONE)
      return;
   x->uses_f16 = true;
   if (op == XH_PK_ADD || op == XH_PK_MUL || op == XH_PK_FMA) {
      emit_packed(x, in, op);
      return;
   }
   xh h;
   xh_types(&h, x, x->lanes);
   LLVMBuilderRef B = x->B;
   LLVMValueRef f;
   if (op == XH_CVT_F32_F16) {
      x->uses_f32 = true;
      sim__xl_vput(x, in->vdst, LLVMBuildBitCast(B, src16(&h, in, 0), x->v32, ""));
      return;
   }
   if (op == XH_CVT_F16_F32) {
      /* f32 source (abs/neg at bit 31, f32 inline constants): sim_xlate.c's reader. */
      x->uses_f32 = true;
      f = LLVMBuildBitCast(B, sim__xl_src_v(x, in, 0), h.vf, "");
   } else {
      LLVMValueRef s[3];
      unsigned ns = op == XH_FMA || op == XH_MAD || op == XH_MAC ? 3 : 2;
      s[0] = src16(&h, in, 0);
      s[1] = src16(&h, in, 1);
      if (op == XH_MAC)
         s[2] = widen(&h, LLVMBuildTrunc(B, sim__xl_vget(x, in->vdst), h.vi16, ""));
      else if (ns == 3)
         s[2] = src16(&h, in, 2);
      f = compute(&h, op, s, ns);
   }
   LLVMValueRef r = LLVMBuildZExt(B, narrow(&h, f), x->v32, "");
   if (op == XH_FMA || op == XH_MAD || op == XH_MAC) {
      LLVMValueRef old = sim__xl_vget(x, in->vdst);
      r = LLVMBuildOr(B, r, LLVMBuildAnd(B, old, krow(x, 0xFFFF0000u), ""), "");
   }
   sim__xl_vput(x, in->vdst, r);
}
