/*
 * The translator's lowering of half-precision VALU forms (docs/sim.md "Speed"): v_add_f16,
 * v_sub_f16, v_subrev_f16, v_mul_f16, v_fma_f16, v_mad_f16, v_mac_f16, gfx10's v_fmac_f16,
 * v_min_f16, v_max_f16, v_cvt_f16_f32, v_cvt_f32_f16, v_cvt_pkrtz_f16_f32, v_pack_b32_f16
 * and the compares v_cmp(x)_*_f16 (VOP1/VOP2/VOPC/VOP3 without clamp or output modifiers;
 * abs/neg allowed; op_sel only on v_pack_b32_f16), and the packed v_pk_add_f16,
 * v_pk_mul_f16, v_pk_fma_f16, v_pk_min_f16, v_pk_max_f16 (op_sel, op_sel_hi, neg_lo and
 * neg_hi allowed; no clamp) and v_pk_fmac_f16 (gfx90a, gfx10): what OpenCL half and
 * half-vector code compiles to. Each computes bit for bit what its handler does
 * (sim_vop1.c, sim_vop2.c, sim_vop3.c, sim_vop3p.c, sim_vopc.c, sim_rdna.c, sim_cdna.c) for
 * every input:
 *
 * - Sources are f16 bits (an inline float constant is its f16 value; integer constants and
 *   literals give their low 16 bits; abs/neg act on bit 15), widened exactly to f32. A
 *   packed form computes its row's 2 x lanes halves in place, as one vector of f32
 *   elements (op_sel and op_sel_hi move the halves they pick into place first).
 * - A sum, difference or product of two f16 values is computed in f32 and rounded once to
 *   f16 (nearest even): the product is exact in f32, and for the others 24 >= 2 * 11 + 2
 *   bits makes rounding to f32 first innocuous, so the result is the handlers' rounding of
 *   the exact value.
 * - The fused multiply-add, on a host with AVX-512F, is the fused f32 one rounded to odd
 *   (its rounding toward zero, the last bit set where inexact), rounded to nearest even in
 *   f16: the f16 of the exact value (fma_odd). Without AVX-512F it is the host's fused f32
 *   one, rounded to nearest even in f16, unless that is inexact (TwoSum gives the sum's
 *   error; the product is exact) and sits on an f16 midpoint: those lanes are computed as
 *   the handler does, in C (fma_f16, fma16_fix). v_fmac_f16 and v_pk_fmac_f16 are it with
 *   D as the addend, as their handlers run them.
 * - v_mad_f16 / v_mac_f16 round the product to f16 first (not fused), then the sum.
 * - In a run of these (sim__xl_f16_nan_op; sim_xlate.c emit_nan_run) the first way does
 *   not apply the NaN rule, and without AVX-512F nor the fused multiply-add's error side
 *   paths: a result that may sit on an f16 midpoint becomes a NaN instead (mid_to_nan); a
 *   NaN half left in a written row sends the run the exact way (sim__xl_f16_run_test).
 * - A NaN result is the first NaN source (after abs/neg) quieted (| 0x200), else 0x7E00:
 *   the interpreter's rule (sim__nanfix16 through f32 and back), applied in f32 before
 *   the result is narrowed.
 * - Min/max and the compares work on the bits (minmax16, emit_cmp): an integer key orders
 *   the values, NaNs are bit tests. Min/max follow sim__fminmax16 (the IEEE bit read from
 *   the wave for the signalling-NaN rule; the packed forms' halves were quieted on the way
 *   in, so it never applies to them); a NaN result is quieted, as the store through f32
 *   does.
 * - v_cvt_pkrtz_f16_f32 narrows to nearest even and steps one encoding toward zero where
 *   that went past the value (sim_vop3.c f16_rtz); v_pack_b32_f16 moves bits.
 * - VOP2 forms, v_min/max_f16 and v_cvt_f16_f32 zero bits 31:16 of D (sim__vdst16);
 *   v_fma_f16, v_mad_f16, v_mac_f16 and v_fmac_f16 keep them (sim__vdst16_preserve);
 *   packed forms write 32 bits.
 *
 * MODE: the handlers flush f16 subnormal inputs and results unless MODE keeps f16
 * denormals, so every block holding one of these sets x->uses_f16 and runs only where
 * MODE keeps them (both bits, OpenCL's default); the conversions to and from f32 also set
 * x->uses_f32. The compares and v_pack_b32_f16 read the bits as they are and run in any
 * MODE.
 */
#include <llvm-c/Core.h>
#include <stdlib.h>
#include "sim_xlate_priv.h"

typedef enum {
   XH_NONE, XH_ADD, XH_SUB, XH_SUBREV, XH_MUL, XH_FMA, XH_MAD, XH_MAC, XH_FMAC, XH_MIN,
   XH_MAX, XH_CVT_F16_F32, XH_CVT_F32_F16, XH_CVT_PKRTZ, XH_PACK, XH_CMP, XH_PK_ADD, XH_PK_MUL,
   XH_PK_FMA, XH_PK_FMAC, XH_PK_MIN, XH_PK_MAX,
} xh_op;

/* An f16 compare as the outcomes it is true for (S0 below, equal to, above S1, unordered:
 * a NaN source; the "n" forms are the negations, [ISA] VOPC opcode list, sim_vopc.c FCMP),
 * XC_F16 marking one and XC_X a v_cmpx; 0 for any other opcode. */
enum { XC_LT = 1, XC_EQ = 2, XC_GT = 4, XC_UN = 8, XC_F16 = 16, XC_X = 32 };
static unsigned
xh_cmp_of(unsigned op)
{
   switch (op) {
#define C(name, set)                                                                          \
   case SIM_OP_v_cmp_##name##_f16: return XC_F16 | (set);                                    \
   case SIM_OP_v_cmpx_##name##_f16: return XC_F16 | XC_X | (set);
   C(f, 0) C(lt, XC_LT) C(eq, XC_EQ) C(le, XC_LT | XC_EQ) C(gt, XC_GT) C(lg, XC_LT | XC_GT)
   C(ge, XC_EQ | XC_GT) C(o, XC_LT | XC_EQ | XC_GT) C(u, XC_UN) C(nge, XC_LT | XC_UN)
   C(nlg, XC_EQ | XC_UN) C(ngt, XC_LT | XC_EQ | XC_UN) C(nle, XC_GT | XC_UN)
   C(neq, XC_LT | XC_GT | XC_UN) C(nlt, XC_EQ | XC_GT | XC_UN) C(tru, 15)
#undef C
   default: return 0;
   }
}

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
      case SIM_OP_v_pk_min_f16: op = XH_PK_MIN; break;
      case SIM_OP_v_pk_max_f16: op = XH_PK_MAX; break;
      default: return XH_NONE;
      }
      if (in->clamp || in->omod || in->vdst >= 256)
         return XH_NONE;
      for (unsigned i = 0; i < n; i++)
         if (!xh_src_ok(in->src[i]))
            return XH_NONE;
      return op;
   }
   /* v_pack_b32_f16 takes op_sel (LLVM packs high halves with it): it picks the source
    * halves, and D is 32 bits. */
   sim_inst t = *in;
   if (in->op == SIM_OP_v_pack_b32_f16)
      t.op_sel = 0;
   /* No output modifiers, clamp or op_sel; abs/neg on the float sources. */
   if (!sim__xl_valu_plain(&t, 3, true))
      return XH_NONE;
   if (xh_cmp_of(in->op))
      return XH_CMP;
   if (in->vdst >= 256)
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
   /* gfx10: v_fma_f16 with D as S2, as sim_rdna.c runs it (modifiers of S2 act on D). */
   case SIM_OP_v_fmac_f16: return XH_FMAC;
   case SIM_OP_v_min_f16: return XH_MIN;
   case SIM_OP_v_max_f16: return XH_MAX;
   case SIM_OP_v_cvt_f16_f32: return XH_CVT_F16_F32;
   case SIM_OP_v_cvt_f32_f16: return XH_CVT_F32_F16;
   case SIM_OP_v_cvt_pkrtz_f16_f32: return XH_CVT_PKRTZ;
   case SIM_OP_v_pack_b32_f16: return XH_PACK;
   /* v_pk_fma_f16 with D as S2, each source's halves in place, no modifiers (sim_cdna.c;
    * it clears neg but not abs, which the VOP2 form has none of). */
   case SIM_OP_v_pk_fmac_f16: return in->abs | in->neg ? XH_NONE : XH_PK_FMAC;
   default: return XH_NONE;
   }
}

bool
sim__xl_f16_lowered(const sim_inst *in)
{
   return xh_op_of(in) != XH_NONE;
}

unsigned
sim__xl_f16_nan_op(const sim_inst *in)
{
   switch (xh_op_of(in)) {
   case XH_ADD: case XH_SUB: case XH_SUBREV: case XH_MUL: case XH_FMA: case XH_MAD:
   case XH_MAC: case XH_FMAC:
      return 1;
   case XH_PK_ADD: case XH_PK_MUL: case XH_PK_FMA: case XH_PK_FMAC:
      return 2;
   default:
      return 0;
   }
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

/* A constant vector of `n` elements of integer type `et`: `even` in the even elements,
 * `odd` in the odd. */
static LLVMValueRef
kvec(LLVMTypeRef et, unsigned n, uint32_t even, uint32_t odd)
{
   LLVMValueRef *e = malloc(n * sizeof(*e));
   if (!e)
      return NULL;
   for (unsigned i = 0; i < n; i++)
      e[i] = LLVMConstInt(et, i & 1 ? odd : even, 0);
   LLVMValueRef r = LLVMConstVector(e, n);
   free(e);
   return r;
}
static LLVMValueRef
k32x2(sim_xl *x, unsigned n, uint32_t even, uint32_t odd)
{
   return kvec(x->i32, n, even, odd);
}
static LLVMValueRef
k32(xh *h, uint32_t v)
{
   return k32x2(h->x, h->n, v, v);
}
static LLVMValueRef
k16(xh *h, uint16_t v)
{
   return kvec(LLVMInt16TypeInContext(h->x->C), h->n, v, v);
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

/* Stack slot k (0-3) of the block's f16 slots, each room for 128 floats (xl.f16_slots,
 * one alloca in the entry block). */
static LLVMValueRef
slot(xh *h, unsigned k)
{
   sim_xl *x = h->x;
   LLVMTypeRef i8 = LLVMInt8TypeInContext(x->C);
   if (!x->f16_slots) {
      x->f16_slots = sim__xl_entry_alloca(x, LLVMArrayType(i8, 4 * 128 * 4));
      LLVMSetAlignment(x->f16_slots, 64);
   }
   LLVMValueRef off = LLVMConstInt(x->i64, (uint64_t)k * 128 * 4, 0);
   return LLVMBuildGEP2(h->B, i8, x->f16_slots, &off, 1, "");
}

/* A call of the C function `f` with pointer arguments p[0..np) and i32 arguments
 * k[0..nk). */
static void
call_c(xh *h, void *f, LLVMValueRef *p, unsigned np, const uint32_t *k, unsigned nk)
{
   sim_xl *x = h->x;
   LLVMTypeRef pt[8];
   LLVMValueRef args[8];
   for (unsigned i = 0; i < np; i++)
      pt[i] = x->ptr, args[i] = p[i];
   for (unsigned i = 0; i < nk; i++)
      pt[np + i] = x->i32, args[np + i] = LLVMConstInt(x->i32, k[i], 0);
   LLVMTypeRef ft = LLVMFunctionType(LLVMVoidTypeInContext(x->C), pt, np + nk, 0);
   LLVMValueRef fp = LLVMConstIntToPtr(LLVMConstInt(x->i64, (uint64_t)(uintptr_t)f, 0), x->ptr);
   LLVMBuildCall2(h->B, ft, fp, args, np + nk, "");
}

static void
store_to(xh *h, LLVMValueRef v, LLVMValueRef p)
{
   LLVMSetAlignment(LLVMBuildStore(h->B, v, p), 4);
}
static LLVMValueRef
load_from(xh *h, LLVMValueRef p)
{
   LLVMValueRef v = LLVMBuildLoad2(h->B, h->vf, p, "");
   LLVMSetAlignment(v, 4);
   return v;
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
   /* A fold of sums, not a mask of 2 x 64 elements bitcast to an i128 (taken apart element
    * by element by instruction selection without AVX512BW) nor a reduction of the
    * magnitudes' bits (twice the instructions, hpoly). */
   LLVMValueRef any = sim__xl_any_nan(x, r);
   LLVMBasicBlockRef join, from = side_open(h, any, "nan16", &join);
   LLVMValueRef q = LLVMBuildBitCast(B, k32(h, 0x7FC00000), h->vf, "");
   for (int i = (int)ns - 1; i >= 0; i--)
      q = LLVMBuildSelect(B, is_nan(h, src[i]), src[i], q, "");
   return side_close(h, from, join, r, LLVMBuildSelect(B, is_nan(h, r), q, r, ""));
}

/* The rare lanes of fma_f16, in C: of the fused f32 results r[0..n) of a[i] * b[i] + c[i]
 * (f16 values widened to f32), those that may sit on an f16 midpoint (fma_f16's forms)
 * become the correctly rounded f16 of the exact value (as f32, which rounds to itself), as
 * sim__fma16 and sim__f64_to_f16 compute it for the handlers; the others are left, and a
 * NaN stays a NaN for the NaN rule after it. Called through the block's own stack slots. */
static void
fma16_fix(const float *a, const float *b, const float *c, float *r, uint32_t n)
{
   for (uint32_t i = 0; i < n; i++) {
      uint32_t bits;
      memcpy(&bits, &r[i], 4);
      uint32_t mag = bits & 0x7FFFFFFF;
      bool mid = (bits & 0x1FFF) == 0x1000 || ((bits & 0xFFF) == 0 && mag && mag <= 113u << 23);
      if (!mid)
         continue;
      double s = sim__fma16(a[i], b[i], c[i]);
      r[i] = s != s ? (float)s : sim__f16_to_f32(sim__f64_to_f16(s));
   }
}

/* A run's first way (x->nan_defer, sim__xl_f16_nan_op): the fused f32 results `r` of
 * a * b + c with every element that may sit on an f16 rounding midpoint made a NaN, which
 * sends the run the exact way (sim__xl_f16_run_test): one whose low 13 bits are 0x1000 from
 * 2^-14 up, or whose value is not 0 below 2^-14 (2 x magnitude - 2 below 2 x (2^-14's bits
 * - 1), the sign shifted out), and inexact (TwoSum's error, as fma_f16's side path takes
 * it; the product is exact). The error is worked out on a side path taken when some element
 * has such a form (or is a NaN): a multiply-add whose product is exact in f16 often sums to
 * a midpoint exactly (hpoly with this lowering: 24 -> 41 ms a launch with every such result
 * sent the exact way, 10 ms with none), and the error's operations beside every packed
 * multiply-add (each value eight AVX-512 registers) spilled (28 ms). Hosts without AVX-512F
 * only (fma_odd). */
static LLVMValueRef
mid_to_nan(xh *h, LLVMValueRef a, LLVMValueRef b, LLVMValueRef c, LLVMValueRef r)
{
   sim_xl *x = h->x;
   LLVMBuilderRef B = h->B;
   LLVMValueRef bits = LLVMBuildBitCast(B, r, h->vi32, "");
   LLVMValueRef mid = LLVMBuildICmp(B, LLVMIntEQ, LLVMBuildAnd(B, bits, k32(h, 0x1FFF), ""),
                                    k32(h, 0x1000), "");
   LLVMValueRef m2 = LLVMBuildAdd(B, LLVMBuildShl(B, bits, k32(h, 1), ""), k32(h, 0xFFFFFFFEu), "");
   LLVMValueRef tiny = LLVMBuildICmp(B, LLVMIntULT, m2, k32(h, 2u * (0x38800000u - 1)), "");
   LLVMValueRef form = LLVMBuildOr(B, mid, tiny, "");
   LLVMValueRef nan = LLVMBuildBitCast(B, k32(h, 0x7FC00000), h->vf, "");
   LLVMValueRef any = sim__xl_any_nan(x, LLVMBuildSelect(B, form, nan, r, ""));
   LLVMBasicBlockRef join, from = side_open(h, any, "midrun16", &join);
   LLVMValueRef p = LLVMBuildFMul(B, a, b, ""), bp = LLVMBuildFSub(B, r, c, "");
   LLVMValueRef err = LLVMBuildFAdd(B, LLVMBuildFSub(B, p, bp, ""),
                                    LLVMBuildFSub(B, c, LLVMBuildFSub(B, r, bp, ""), ""), "");
   LLVMValueRef inexact = LLVMBuildFCmp(B, LLVMRealUNE, err, LLVMConstNull(h->vf), "");
   LLVMValueRef odd = LLVMBuildSelect(B, LLVMBuildAnd(B, form, inexact, ""), nan, r, "");
   return side_close(h, from, join, r, odd);
}

/* fma(a, b, c) of f16 values (as f32) with VFMADD's embedded rounding mode `mode` ({rd-sae}
 * 9, {ru-sae} 10), 16 elements at a time. */
static LLVMValueRef
fma_mode(xh *h, LLVMValueRef *args, unsigned mode)
{
   sim_xl *x = h->x;
   LLVMBuilderRef B = h->B;
   LLVMTypeRef v16 = LLVMVectorType(LLVMFloatTypeInContext(x->C), 16);
   unsigned n = h->n, chunks = (n + 15) / 16;
   LLVMValueRef r[8] = {NULL}, idx[128];
   for (unsigned k = 0; k < chunks; k++) {
      /* Elements 16k.. of each source (past n: element 0, unused). */
      for (unsigned i = 0; i < 16; i++)
         idx[i] = LLVMConstInt(x->i32, 16 * k + i < n ? 16 * k + i : 0, 0);
      LLVMValueRef part[4];
      for (unsigned s = 0; s < 3; s++)
         part[s] = LLVMBuildShuffleVector(B, args[s], LLVMGetPoison(h->vf),
                                          LLVMConstVector(idx, 16), "");
      part[3] = LLVMConstInt(x->i32, mode, 0);
      r[k] = sim__xl_intrin(x, "llvm.x86.avx512.vfmadd.ps.512", NULL, 0, part, 4);
   }
   /* The chunks joined back into n elements (pairs of 16, 32, 64 ...). */
   for (unsigned w = 16; chunks > 1; w *= 2, chunks /= 2) {
      for (unsigned i = 0; i < 2 * w; i++)
         idx[i] = LLVMConstInt(x->i32, i, 0);
      for (unsigned k = 0; k < chunks / 2; k++)
         r[k] = LLVMBuildShuffleVector(B, r[2 * k], r[2 * k + 1], LLVMConstVector(idx, 2 * w), "");
   }
   if (n >= 16)
      return r[0];
   for (unsigned i = 0; i < n; i++)
      idx[i] = LLVMConstInt(x->i32, i, 0);
   return LLVMBuildShuffleVector(B, r[0], LLVMGetPoison(v16), LLVMConstVector(idx, n), "");
}

/* fma(a, b, c) rounded to odd in f32 (AVX-512F): the value where exact, else the one of its
 * roundings down and up whose last bit is set; rounded to nearest even in f16 that is the
 * f16 of the exact value, since f32 keeps 13 bits more than f16 (2 are enough), subnormal
 * f16 results included. Where inexact the two roundings are neighbours of one sign (f16
 * operands keep the sum far from 0 and from overflow), whose encodings differ by one: one
 * of them is odd. Where exact they are one value, but for a sum to zero: -0 rounding down
 * (even), +0 rounding up, the nearest's zero. NaN operands give one NaN both ways. So the
 * rounding down where its last bit is set, else the rounding up: a bit test and a select
 * after the two fmas, on the dependency chain of a run of multiply-adds (clpeak's half
 * test), where comparing the roundings and picking the one nearer zero took three steps. */
static LLVMValueRef
fma_odd(xh *h, LLVMValueRef a, LLVMValueRef b, LLVMValueRef c)
{
   LLVMBuilderRef B = h->B;
   LLVMValueRef args[3] = {a, b, c};
   LLVMValueRef rd = fma_mode(h, args, 9), ru = fma_mode(h, args, 10);
   LLVMValueRef low = LLVMBuildAnd(B, LLVMBuildBitCast(B, rd, h->vi32, ""), k32(h, 1), "");
   LLVMValueRef odd = LLVMBuildICmp(B, LLVMIntNE, low, k32(h, 0), "");
   return LLVMBuildSelect(B, odd, rd, ru, "");
}

/* fma(a, b, c) of f16 values widened to f32, as f32 that rounds to the correct f16: the
 * fused f32 result (rounded to nearest once) unless it is both inexact and on an f16
 * rounding midpoint, which it may then have been rounded onto (the exact value on the other
 * side of it). A midpoint has the bit below f16's last at position k of the 24-bit
 * significand and nothing under it: k = 12 from 2^-14 up (the low 13 bits are 0x1000),
 * k > 12 below (the low 12 bits are 0, the value not 0). Where some element has that form
 * (often: a sum of f16 values one bit wider than f16 is exactly such a midpoint), a side
 * path takes the sum's rounding error (TwoSum: the product is exact in f32, 22 significant
 * bits); where some element also has a non-zero error (rare), fma16_fix computes the
 * elements of that form again, a call (it had been a round-to-odd fma of the whole row,
 * on every row with a midpoint's low bits: hpoly 19.1 -> 15.2 ms a launch). The keys are
 * integer arithmetic and reductions, which instcombine leaves alone (a compare of 2 x 64
 * elements becomes a mask bitcast to an i128, which instruction selection takes apart
 * element by element without AVX512BW). With AVX-512F it is fma_odd, and in a run's first
 * way without it mid_to_nan. */
static LLVMValueRef
fma_f16(xh *h, LLVMValueRef a, LLVMValueRef b, LLVMValueRef c)
{
   sim_xl *x = h->x;
   LLVMBuilderRef B = h->B;
   if (x->avx512)
      return fma_odd(h, a, b, c);
   LLVMValueRef args[3] = {a, b, c};
   LLVMValueRef r = sim__xl_intrin(x, "llvm.fma", &h->vf, 1, args, 3);
   if (x->nan_defer)
      return mid_to_nan(h, a, b, c, r);
   LLVMValueRef bits = LLVMBuildBitCast(B, r, h->vi32, "");
   /* t = 0 on either form (2^-14 itself passes the second: no midpoint, harmless). */
   LLVMValueRef t1 = LLVMBuildXor(B, LLVMBuildAnd(B, bits, k32(h, 0x1FFF), ""), k32(h, 0x1000), "");
   LLVMValueRef mag = LLVMBuildAnd(B, bits, k32(h, 0x7FFFFFFF), "");
   LLVMValueRef e = LLVMBuildLShr(B, LLVMBuildSub(B, mag, k32(h, 1), ""), k32(h, 23), "");
   LLVMValueRef two[2] = {e, k32(h, 112)};
   LLVMValueRef t2 = LLVMBuildOr(B, LLVMBuildAnd(B, bits, k32(h, 0xFFF), ""),
                                 sim__xl_intrin(x, "llvm.usub.sat", &h->vi32, 1, two, 2), "");
   two[0] = t1, two[1] = t2;
   LLVMValueRef t = sim__xl_intrin(x, "llvm.umin", &h->vi32, 1, two, 2);
   LLVMValueRef least = sim__xl_intrin(x, "llvm.vector.reduce.umin", &h->vi32, 1, &t, 1);
   LLVMValueRef zero = LLVMConstInt(x->i32, 0, 0);
   LLVMValueRef maybe = LLVMBuildICmp(B, LLVMIntEQ, least, zero, "");
   LLVMBasicBlockRef join, from = side_open(h, maybe, "mid16", &join);
   LLVMValueRef p = LLVMBuildFMul(B, a, b, ""), bb = LLVMBuildFSub(B, r, p, "");
   LLVMValueRef err = LLVMBuildFAdd(B, LLVMBuildFSub(B, p, LLVMBuildFSub(B, r, bb, ""), ""),
                                    LLVMBuildFSub(B, c, bb, ""), "");
   LLVMValueRef eb = LLVMBuildAnd(B, LLVMBuildBitCast(B, err, h->vi32, ""), k32(h, 0x7FFFFFFF), "");
   /* key = 0 where t = 0 and the error is not 0. */
   two[0] = k32(h, 1), two[1] = eb;
   LLVMValueRef key = LLVMBuildOr(B, t, sim__xl_intrin(x, "llvm.usub.sat", &h->vi32, 1, two, 2), "");
   least = sim__xl_intrin(x, "llvm.vector.reduce.umin", &h->vi32, 1, &key, 1);
   LLVMBasicBlockRef join2, from2 = side_open(h, LLVMBuildICmp(B, LLVMIntEQ, least, zero, ""),
                                               "inexact16", &join2);
   LLVMValueRef sp[4];
   for (unsigned i = 0; i < 4; i++) {
      sp[i] = slot(h, i);
      store_to(h, i < 3 ? args[i] : r, sp[i]);
   }
   call_c(h, (void *)fma16_fix, sp, 4, &h->n, 1);
   LLVMValueRef fixed = side_close(h, from2, join2, r, load_from(h, sp[3]));
   return side_close(h, from, join, r, fixed);
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
   /* A run's first way leaves NaN results to the run's test (sim__xl_f16_run_test). */
   return h->x->nan_defer ? r : nanfix(h, r, s, ns);
}

/* f32 rounded to nearest even in f16, as bits; a NaN quieted. Every NaN the handlers
 * store is quiet (the NaN rule's source quieted, or 0x7E00), and so is the host's
 * narrowing of one, but not what the IR says: LLVM leaves NaNs' quiet bit unspecified,
 * and instcombine folds fptrunc(fpext(x)) to x, so a signalling NaN source that the NaN
 * rule picked came through unquieted (fuzz_xlate: v_pk_fma_f16 with a signalling NaN in
 * a lane). The bit is set on the bits, which no fold sees through. */
static LLVMValueRef
narrow(xh *h, LLVMValueRef f)
{
   LLVMBuilderRef B = h->B;
   LLVMValueRef bits = LLVMBuildBitCast(B, LLVMBuildFPTrunc(B, f, h->vh, ""), h->vi16, "");
   /* A run's first way: a NaN result sends the run the exact way. */
   if (h->x->nan_defer)
      return bits;
   LLVMValueRef nan = LLVMBuildICmp(B, LLVMIntUGT, LLVMBuildAnd(B, bits, k16(h, 0x7FFF), ""),
                                    k16(h, 0x7C00), "");
   return LLVMBuildOr(B, bits, LLVMBuildSelect(B, nan, k16(h, 0x200), k16(h, 0), ""), "");
}

/* Source i of a VOP1/VOP2/VOP3 form as f16 bits in i32 lanes: the low half of its row
 * (the high half with op_sel[i], which only v_pack_b32_f16 is lowered with), abs/neg
 * applied to bit 15 (sim__vsrc32 with SIM_VT_F16). */
static LLVMValueRef
src_bits16(xh *h, const sim_inst *in, unsigned i)
{
   sim_xl *x = h->x;
   LLVMValueRef v = raw32(x, in, i);
   if ((in->op_sel >> i) & 1)
      v = LLVMBuildLShr(h->B, v, krow(x, 16), "");
   else
      v = LLVMBuildAnd(h->B, v, krow(x, 0xFFFF), "");
   if ((in->abs >> i) & 1)
      v = LLVMBuildAnd(h->B, v, krow(x, 0x7FFF), "");
   if ((in->neg >> i) & 1)
      v = LLVMBuildXor(h->B, v, krow(x, 0x8000), "");
   return v;
}
/* The same as f32. */
static LLVMValueRef
src16(xh *h, const sim_inst *in, unsigned i)
{
   return widen(h, LLVMBuildTrunc(h->B, src_bits16(h, in, i), h->vi16, ""));
}

/* Source i of a packed form as 2 x lanes f16 elements in place: its row with the halves
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
   return LLVMBuildBitCast(B, v, h->vi16, "");
}

/* ---- Bit-level forms: min/max, compares, packing ------------------------------------------
 * On f16 bits held in i32 elements (values below 0x10000): no conversion, no float compare
 * (instcombine narrows an fcmp of widened halves to one of halves, which instruction
 * selection without AVX512-FP16 takes apart element by element). */

static LLVMValueRef
is_nan16(xh *h, LLVMValueRef bits)
{
   LLVMValueRef m = LLVMBuildAnd(h->B, bits, k32(h, 0x7FFF), "");
   return LLVMBuildICmp(h->B, LLVMIntUGT, m, k32(h, 0x7C00), "");
}

/* The quiet bit is clear: a NaN's is a signalling one. */
static LLVMValueRef
quiet_clear(xh *h, LLVMValueRef bits)
{
   LLVMValueRef q = LLVMBuildAnd(h->B, bits, k32(h, 0x200), "");
   return LLVMBuildICmp(h->B, LLVMIntEQ, q, LLVMConstNull(h->vi32), "");
}

/* A signed integer in the order of the f16 values (not NaN), -0 and +0 both 0: the
 * magnitude, negated for a negative value. */
static LLVMValueRef
order_key(xh *h, LLVMValueRef bits)
{
   LLVMBuilderRef B = h->B;
   LLVMValueRef m = LLVMBuildAnd(B, bits, k32(h, 0x7FFF), "");
   LLVMValueRef neg = LLVMBuildICmp(B, LLVMIntNE, LLVMBuildAnd(B, bits, k32(h, 0x8000), ""),
                                    LLVMConstNull(h->vi32), "");
   return LLVMBuildSelect(B, neg, LLVMBuildNeg(B, m, ""), m, "");
}

LLVMValueRef
sim__xl_wave_ieee(sim_xl *x)
{
   LLVMTypeRef i8 = LLVMInt8TypeInContext(x->C);
   LLVMValueRef off = LLVMConstInt(x->i64, offsetof(sim_wave, ieee), 0);
   LLVMValueRef p = LLVMBuildGEP2(x->B, i8, x->w, &off, 1, "");
   LLVMValueRef v = LLVMBuildLoad2(x->B, i8, p, "");
   return LLVMBuildICmp(x->B, LLVMIntNE, v, LLVMConstInt(i8, 0, 0), "");
}

/* sim__fminmax16's result as the f16 handlers store it: the smaller (larger) value, -0
 * below +0; a NaN operand yields the other (S1 when both are); under `ieee` (an i1, NULL:
 * never) a signalling NaN operand is the result, S0 first. Storing went through f32 and
 * back, which quiets a NaN result (| 0x200). */
static LLVMValueRef
minmax16(xh *h, LLVMValueRef a, LLVMValueRef b, bool max, LLVMValueRef ieee)
{
   LLVMBuilderRef B = h->B;
   LLVMValueRef ka = order_key(h, a), kb = order_key(h, b);
   LLVMValueRef pick_a = LLVMBuildICmp(B, max ? LLVMIntSGT : LLVMIntSLT, ka, kb, "");
   LLVMValueRef r = LLVMBuildSelect(B, pick_a, a, b, "");
   LLVMValueRef zeros = max ? LLVMBuildAnd(B, a, b, "") : LLVMBuildOr(B, a, b, "");
   r = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntEQ, ka, kb, ""), zeros, r, "");
   LLVMValueRef na = is_nan16(h, a), nb = is_nan16(h, b);
   r = LLVMBuildSelect(B, nb, a, r, "");
   r = LLVMBuildSelect(B, na, b, r, "");
   if (ieee) {
      LLVMValueRef sa = LLVMBuildAnd(B, na, quiet_clear(h, a), "");
      LLVMValueRef sb = LLVMBuildAnd(B, nb, quiet_clear(h, b), "");
      LLVMValueRef ri = LLVMBuildSelect(B, sa, a, LLVMBuildSelect(B, sb, b, r, ""), "");
      r = LLVMBuildSelect(B, ieee, ri, r, "");
   }
   LLVMValueRef q = LLVMBuildSelect(B, is_nan16(h, r), k32(h, 0x200), LLVMConstNull(h->vi32), "");
   return LLVMBuildOr(B, r, q, "");
}

/* v_cmp(x)_*_f16: the compare of S0's and S1's low halves (abs/neg on bit 15; no MODE
 * flushing, as the handler reads the bits) in EXEC's lanes, written as sim__vcmp_write
 * does: gfx10's v_cmpx to EXEC alone, gfx9's to the destination (VCC or SDST) too. */
static void
emit_cmp(sim_xl *x, const sim_inst *in)
{
   xh h;
   xh_types(&h, x, x->lanes);
   LLVMBuilderRef B = x->B;
   unsigned k = xh_cmp_of(in->op);
   LLVMValueRef a = src_bits16(&h, in, 0), b = src_bits16(&h, in, 1);
   LLVMValueRef un = LLVMBuildOr(B, is_nan16(&h, a), is_nan16(&h, b), "");
   LLVMValueRef ka = order_key(&h, a), kb = order_key(&h, b), ord;
   switch (k & (XC_LT | XC_EQ | XC_GT)) {
   case 0: ord = LLVMConstNull(x->vm); break;
   case XC_LT: ord = LLVMBuildICmp(B, LLVMIntSLT, ka, kb, ""); break;
   case XC_EQ: ord = LLVMBuildICmp(B, LLVMIntEQ, ka, kb, ""); break;
   case XC_GT: ord = LLVMBuildICmp(B, LLVMIntSGT, ka, kb, ""); break;
   case XC_LT | XC_EQ: ord = LLVMBuildICmp(B, LLVMIntSLE, ka, kb, ""); break;
   case XC_EQ | XC_GT: ord = LLVMBuildICmp(B, LLVMIntSGE, ka, kb, ""); break;
   case XC_LT | XC_GT: ord = LLVMBuildICmp(B, LLVMIntNE, ka, kb, ""); break;
   default: ord = LLVMConstAllOnes(x->vm); break;
   }
   /* The keys of a NaN mean nothing: an unordered lane is the compare's XC_UN. */
   LLVMValueRef c = k & XC_UN ? LLVMBuildOr(B, un, ord, "")
                              : LLVMBuildAnd(B, LLVMBuildNot(B, un, ""), ord, "");
   sim__xl_cmp_write(x, in, c, k & XC_X);
}

/* v_pack_b32_f16: D = {S1.f16, S0.f16}, the halves op_sel picks, abs/neg on bit 15. */
static void
emit_pack(sim_xl *x, const sim_inst *in)
{
   xh h;
   xh_types(&h, x, x->lanes);
   LLVMValueRef a = src_bits16(&h, in, 0), b = src_bits16(&h, in, 1);
   sim__xl_vput(x, in->vdst, LLVMBuildOr(x->B, a, LLVMBuildShl(x->B, b, krow(x, 16), ""), ""));
}

/* f32 elements `f` rounded toward zero to f16, as bits in i32 elements (sim_vop3.c
 * f16_rtz): rounded to nearest even, then one step toward zero where that went past the
 * value's magnitude (an overflow to infinity becomes 65504; a NaN stays as narrowing makes
 * it). */
static LLVMValueRef
rtz16(xh *h, LLVMValueRef f)
{
   LLVMBuilderRef B = h->B;
   LLVMValueRef hv = LLVMBuildFPTrunc(B, f, h->vh, "");
   LLVMValueRef bits = LLVMBuildZExt(B, LLVMBuildBitCast(B, hv, h->vi16, ""), h->vi32, "");
   LLVMValueRef mag = LLVMBuildAnd(B, LLVMBuildBitCast(B, f, h->vi32, ""), k32(h, 0x7FFFFFFF), "");
   LLVMValueRef back = LLVMBuildBitCast(B, LLVMBuildFPExt(B, hv, h->vf, ""), h->vi32, "");
   back = LLVMBuildAnd(B, back, k32(h, 0x7FFFFFFF), "");
   /* Magnitudes compare as their bits when not NaN. */
   LLVMValueRef past = LLVMBuildAnd(B, LLVMBuildICmp(B, LLVMIntULE, mag, k32(h, 0x7F800000), ""),
                                    LLVMBuildICmp(B, LLVMIntUGT, back, mag, ""), "");
   return LLVMBuildSub(B, bits, LLVMBuildZExt(B, past, h->vi32, ""), "");
}

static void
emit_packed(sim_xl *x, const sim_inst *in, xh_op op)
{
   unsigned ns = op == XH_PK_FMA ? 3 : 2;
   xh h;
   xh_types(&h, x, 2 * x->lanes);
   LLVMValueRef s[3], r;
   if (op == XH_PK_MIN || op == XH_PK_MAX) {
      /* The handler's halves went through f32 (sim__f16_in), which quiets a signalling
       * NaN: IEEE mode's sNaN rule never applies. */
      for (unsigned i = 0; i < 2; i++)
         s[i] = LLVMBuildZExt(x->B, src_packed(&h, in, i), h.vi32, "");
      r = LLVMBuildTrunc(x->B, minmax16(&h, s[0], s[1], op == XH_PK_MAX, NULL), h.vi16, "");
   } else {
      for (unsigned i = 0; i < ns; i++)
         s[i] = widen(&h, src_packed(&h, in, i));
      r = narrow(&h, compute(&h, op, s, ns));
   }
   sim__xl_vput(x, in->vdst, LLVMBuildBitCast(x->B, r, x->v32, ""));
}

/* The row forms: arithmetic, min/max and the conversions. */
static void
emit_row(sim_xl *x, const sim_inst *in, xh_op op)
{
   xh h;
   xh_types(&h, x, x->lanes);
   LLVMBuilderRef B = x->B;
   LLVMValueRef f, r;
   if (op == XH_CVT_F32_F16) {
      x->uses_f32 = true;
      sim__xl_vput(x, in->vdst, LLVMBuildBitCast(B, src16(&h, in, 0), x->v32, ""));
      return;
   }
   if (op == XH_MIN || op == XH_MAX) {
      LLVMValueRef a = src_bits16(&h, in, 0), b = src_bits16(&h, in, 1);
      sim__xl_vput(x, in->vdst, minmax16(&h, a, b, op == XH_MAX, sim__xl_wave_ieee(x)));
      return;
   }
   if (op == XH_CVT_PKRTZ) {
      /* f32 sources (abs/neg at bit 31, f32 inline constants), MODE's f32 input flushing. */
      x->uses_f32 = true;
      LLVMValueRef lo = rtz16(&h, LLVMBuildBitCast(B, sim__xl_src_v(x, in, 0), h.vf, ""));
      LLVMValueRef hi = rtz16(&h, LLVMBuildBitCast(B, sim__xl_src_v(x, in, 1), h.vf, ""));
      sim__xl_vput(x, in->vdst, LLVMBuildOr(B, lo, LLVMBuildShl(B, hi, krow(x, 16), ""), ""));
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
   r = LLVMBuildZExt(B, narrow(&h, f), x->v32, "");
   if (op == XH_FMA || op == XH_MAD || op == XH_MAC) {
      LLVMValueRef old = sim__xl_vget(x, in->vdst);
      r = LLVMBuildOr(B, r, LLVMBuildAnd(B, old, krow(x, 0xFFFF0000u), ""), "");
   }
   sim__xl_vput(x, in->vdst, r);
}

void
sim__xl_emit_f16(sim_xl *x, const sim_inst *in)
{
   xh_op op = xh_op_of(in);
   sim_inst t = *in;
   switch (op) {
   case XH_NONE:
      return;
   /* Bit operations and compares: the handlers read the bits as they are, in any MODE. */
   case XH_CMP:
      emit_cmp(x, in);
      return;
   case XH_PACK:
      emit_pack(x, in);
      return;
   /* The implied operand made explicit, as the handlers do (sim_rdna.c, sim_cdna.c). */
   case XH_FMAC:
      t.src[2] = SIM_SRC_VGPR + in->vdst;
      op = XH_FMA;
      break;
   case XH_PK_FMAC:
      t.src[2] = SIM_SRC_VGPR + in->vdst;
      t.op_sel = 0, t.op_sel_hi = 7, t.neg = t.neg_hi = 0;
      op = XH_PK_FMA;
      break;
   default:
      break;
   }
   x->uses_f16 = true;
   if (op >= XH_PK_ADD)
      emit_packed(x, &t, op);
   else
      emit_row(x, &t, op);
}

LLVMValueRef
sim__xl_f16_run_test(sim_xl *x, const sim_inst *const *insts, unsigned len)
{
   /* A NaN half: its magnitude's bits above 0x7C00 (the high half's compared as they lie). */
   bool packed = xh_op_of(insts[0]) >= XH_PK_ADD, seen[256] = {false};
   LLVMValueRef any = NULL;
   for (unsigned k = 0; k < len; k++) {
      unsigned r = insts[k]->vdst;
      if (!sim__xl_f16_nan_op(insts[k]) || seen[r]) /* not a filler's SGPR */
         continue;
      seen[r] = true;
      LLVMValueRef v = x->v[r], lo = LLVMBuildAnd(x->B, v, krow(x, 0x7FFF), "");
      LLVMValueRef nan = LLVMBuildICmp(x->B, LLVMIntUGT, lo, krow(x, 0x7C00), "");
      if (packed) {
         LLVMValueRef hi = LLVMBuildAnd(x->B, v, krow(x, 0x7FFF0000u), "");
         LLVMValueRef hn = LLVMBuildICmp(x->B, LLVMIntUGT, hi, krow(x, 0x7C000000u), "");
         nan = LLVMBuildOr(x->B, nan, hn, "");
      }
      any = any ? LLVMBuildOr(x->B, any, nan, "") : nan;
   }
   LLVMValueRef bits = LLVMBuildBitCast(x->B, any, x->mask_t, "");
   return LLVMBuildICmp(x->B, LLVMIntNE, bits, LLVMConstNull(x->mask_t), "");
}
