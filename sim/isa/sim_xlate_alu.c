/*
 * The translator's lowering of the VALU forms past sim_xlate.c's integer and f32
 * arithmetic (docs/sim.md "Speed"): the f32-to-integer conversions (v_cvt_u32_f32,
 * v_cvt_i32_f32, v_cvt_flr_i32_f32, v_cvt_rpi_i32_f32), v_cvt_f32_ubyte0-3, v_rcp_f32 and
 * v_rcp_iflag_f32, v_frexp_mant_f32, v_frexp_exp_i32_f32, v_ldexp_f32, the 64-bit
 * multiply-adds v_mad_u64_u32 / v_mad_i64_i32 and compares v_cmp(x)_*_u64/i64,
 * v_min/max/min3/max3/med3_f32 (IEEE mode's NaN rules) and the bit operations v_bfrev_b32,
 * v_ffbh_u32, v_ffbh_i32, v_ffbl_b32: what the compiler's division, scaling, clamping and
 * 64-bit index code calls. Each computes bit for bit what its handler does (sim_vop1.c,
 * sim_vop2.c, sim_vop3.c, sim_vopc.c) for every input, NaN by the interpreter's rule
 * (sim__xl_nanfix; min/max return theirs as they are).
 *
 * MODE: the handlers flush f32 subnormal inputs when MODE's input bit is clear
 * (sim__f32_in) and subnormal results when its output bit is (sim__f32_post). The
 * truncating conversions make 0 of a subnormal either way, and v_rcp_f32 flushes its input
 * and its result whatever MODE says (the hardware's transcendental unit does:
 * trans_in32/trans_out32), so those run in any MODE. The floor-based conversions, frexp
 * and ldexp see subnormals: they set x->uses_f32, and their block runs only where MODE
 * keeps f32 denormals, and so do the f32 min/max/med3 (their handlers flush inputs by MODE).
 */
#include <llvm-c/Core.h>
#include "sim_xlate_priv.h"

typedef enum {
   XA_NONE, XA_CVT_U32, XA_CVT_I32, XA_CVT_FLR, XA_CVT_RPI, XA_UBYTE, XA_RCP, XA_FREXP_MANT,
   XA_FREXP_EXP, XA_LDEXP, XA_MAD_U64, XA_MAD_I64, XA_CMP64, XA_MIN_F32, XA_MAX_F32,
   XA_MIN3_F32, XA_MAX3_F32, XA_MED3_F32, XA_BFREV, XA_FFBH_U32, XA_FFBH_I32, XA_FFBL,
} xa_op;

/* The LLVM predicate of a 64-bit integer compare (v_cmp and v_cmpx, u64 and i64; not the
 * constant f/t forms), 0 if `op` is none; *cmpx when it writes EXEC. */
static int
cmp64_pred(unsigned op, bool *cmpx)
{
   *cmpx = false;
   switch (op) {
#define C(n, p)                                                                             \
   case SIM_OP_v_cmp_##n: return p;                                                         \
   case SIM_OP_v_cmpx_##n: *cmpx = true; return p;
   C(eq_u64, LLVMIntEQ) C(ne_u64, LLVMIntNE) C(lt_u64, LLVMIntULT) C(le_u64, LLVMIntULE)
   C(gt_u64, LLVMIntUGT) C(ge_u64, LLVMIntUGE) C(eq_i64, LLVMIntEQ) C(ne_i64, LLVMIntNE)
   C(lt_i64, LLVMIntSLT) C(le_i64, LLVMIntSLE) C(gt_i64, LLVMIntSGT) C(ge_i64, LLVMIntSGE)
#undef C
   default:
      return 0;
   }
}

/* A 64-bit source the emitter reads: a VGPR pair, an SGPR pair or an integer inline
 * constant (not a float constant's f64 bits, not a literal). */
static bool
src64_lowered(unsigned c)
{
   return c >= SIM_SRC_VGPR ? c < SIM_SRC_VGPR + 255 : sim__xl_src64_ok(c);
}

/* How `in` is lowered here, XA_NONE if it is not. */
static xa_op
xa_op_of(const sim_inst *in)
{
   if (!(in->flags & SIM_IF_VALU) || in->enc == SIM_ENC_VOP3P ||
       !sim__xl_valu_plain(in, 3, true))
      return XA_NONE;
   /* abs/neg act on the f32 source S0 only: the handlers read the others as integers,
    * which take no modifiers (sim__vsrc32). */
   unsigned fmods = 1;
   xa_op op;
   switch (in->op) {
   case SIM_OP_v_cvt_u32_f32: op = XA_CVT_U32; break;
   case SIM_OP_v_cvt_i32_f32: op = XA_CVT_I32; break;
   case SIM_OP_v_cvt_flr_i32_f32: op = XA_CVT_FLR; break;
   case SIM_OP_v_cvt_rpi_i32_f32: op = XA_CVT_RPI; break;
   case SIM_OP_v_rcp_f32: case SIM_OP_v_rcp_iflag_f32: op = XA_RCP; break;
   case SIM_OP_v_frexp_mant_f32: op = XA_FREXP_MANT; break;
   case SIM_OP_v_frexp_exp_i32_f32: op = XA_FREXP_EXP; break;
   case SIM_OP_v_ldexp_f32: op = XA_LDEXP; break;
   case SIM_OP_v_min_f32: op = XA_MIN_F32, fmods = 3; break;
   case SIM_OP_v_max_f32: op = XA_MAX_F32, fmods = 3; break;
   case SIM_OP_v_min3_f32: op = XA_MIN3_F32, fmods = 7; break;
   case SIM_OP_v_max3_f32: op = XA_MAX3_F32, fmods = 7; break;
   case SIM_OP_v_med3_f32: op = XA_MED3_F32, fmods = 7; break;
   case SIM_OP_v_bfrev_b32: op = XA_BFREV, fmods = 0; break;
   case SIM_OP_v_ffbh_u32: op = XA_FFBH_U32, fmods = 0; break;
   case SIM_OP_v_ffbh_i32: op = XA_FFBH_I32, fmods = 0; break;
   case SIM_OP_v_ffbl_b32: op = XA_FFBL, fmods = 0; break;
   case SIM_OP_v_cvt_f32_ubyte0: case SIM_OP_v_cvt_f32_ubyte1: case SIM_OP_v_cvt_f32_ubyte2:
   case SIM_OP_v_cvt_f32_ubyte3:
      op = XA_UBYTE, fmods = 0;
      break;
   case SIM_OP_v_mad_u64_u32: case SIM_OP_v_mad_i64_i32: {
      /* S2 a VGPR pair, an SGPR pair or an integer inline constant; D a VGPR pair. */
      unsigned c = in->src[2];
      if (c >= SIM_SRC_VGPR ? c >= SIM_SRC_VGPR + 255 : !sim__xl_src64_ok(c))
         return XA_NONE;
      if (in->vdst >= 255)
         return XA_NONE;
      op = in->op == SIM_OP_v_mad_u64_u32 ? XA_MAD_U64 : XA_MAD_I64, fmods = 0;
      break;
   }
   default: {
      bool cmpx;
      if (!cmp64_pred(in->op, &cmpx) || (in->enc != SIM_ENC_VOPC && in->enc != SIM_ENC_VOP3) ||
          !src64_lowered(in->src[0]) || !src64_lowered(in->src[1]))
         return XA_NONE;
      op = XA_CMP64, fmods = 0;
      break;
   }
   }
   return (in->abs | in->neg) & ~fmods ? XA_NONE : op;
}

bool
sim__xl_alu_lowered(const sim_inst *in)
{
   return xa_op_of(in) != XA_NONE;
}

static LLVMValueRef
k32(sim_xl *x, uint32_t v)
{
   return LLVMConstInt(x->i32, v, 0);
}
/* A row of `v` / of the float `f`. */
static LLVMValueRef
splat32(sim_xl *x, uint32_t v)
{
   return sim__xl_splat(x, k32(x, v), x->v32);
}
static LLVMValueRef
splatf(sim_xl *x, float f)
{
   return sim__xl_splat(x, LLVMConstReal(LLVMFloatTypeInContext(x->C), f), x->vf);
}
static LLVMValueRef
as_f(sim_xl *x, LLVMValueRef bits)
{
   return LLVMBuildBitCast(x->B, bits, x->vf, "");
}
static LLVMValueRef
as_u(sim_xl *x, LLVMValueRef f)
{
   return LLVMBuildBitCast(x->B, f, x->v32, "");
}
/* The f32 exponent field of each lane of `bits`. */
static LLVMValueRef
expo(sim_xl *x, LLVMValueRef bits)
{
   return LLVMBuildAnd(x->B, LLVMBuildLShr(x->B, bits, splat32(x, 23), ""), splat32(x, 0xFF), "");
}

/* A subnormal lane of `bits` as the zero of its sign (sim_vop1.c trans_in32/trans_out32:
 * zeros keep their bits). */
static LLVMValueRef
flush_sub(sim_xl *x, LLVMValueRef bits)
{
   LLVMBuilderRef B = x->B;
   LLVMValueRef e = LLVMBuildAnd(B, bits, splat32(x, 0x7F800000), "");
   LLVMValueRef tiny = LLVMBuildICmp(B, LLVMIntEQ, e, splat32(x, 0), "");
   return LLVMBuildSelect(B, tiny, LLVMBuildAnd(B, bits, splat32(x, 0x80000000), ""), bits, "");
}

/* D.f = 1.0 / S0.f with S0 and the quotient flushed: the host's IEEE division, correctly
 * rounded to nearest even as the handler's C division is (no reciprocal approximation:
 * the IR carries no fast-math flags). */
static LLVMValueRef
emit_rcp(sim_xl *x, LLVMValueRef a)
{
   LLVMValueRef af = as_f(x, a);
   LLVMValueRef q = LLVMBuildFDiv(x->B, splatf(x, 1.0f), as_f(x, flush_sub(x, a)), "");
   return sim__xl_nanfix(x, as_f(x, flush_sub(x, as_u(x, q))), &af, 1);
}

/* frexpf's parts of S0 (finite and non-zero in `*fin`): a subnormal is scaled by 2^32
 * first (exactly), so the fraction is the normal's with the exponent field of 0.5 and
 * the exponent its field less 126, and 32 less for a scaled one. */
static void
frexp_parts(sim_xl *x, LLVMValueRef a, LLVMValueRef *mant, LLVMValueRef *exp, LLVMValueRef *fin)
{
   LLVMBuilderRef B = x->B;
   LLVMValueRef sub = LLVMBuildICmp(B, LLVMIntEQ, expo(x, a), splat32(x, 0), "");
   LLVMValueRef scaled = LLVMBuildFMul(B, as_f(x, a), splatf(x, 0x1p32f), "");
   LLVMValueRef s = as_u(x, LLVMBuildSelect(B, sub, scaled, as_f(x, a), ""));
   LLVMValueRef e = expo(x, s);
   *fin = LLVMBuildAnd(B, LLVMBuildICmp(B, LLVMIntNE, e, splat32(x, 0), ""),
                       LLVMBuildICmp(B, LLVMIntNE, e, splat32(x, 0xFF), ""), "");
   *mant = LLVMBuildOr(B, LLVMBuildAnd(B, s, splat32(x, 0x807FFFFF), ""),
                       splat32(x, 0x3F000000), "");
   *exp = LLVMBuildSub(B, LLVMBuildSub(B, e, splat32(x, 126), ""),
                       LLVMBuildSelect(B, sub, splat32(x, 32), splat32(x, 0), ""), "");
}

/* D.f = S0.f * 2^S1.i as ldexpf rounds it (once, to nearest even, subnormal results
 * included): S1 clamped to +-300, which changes no result (a non-zero f32 times 2^300
 * overflows, times 2^-300 rounds to zero), the product taken exactly in double and
 * rounded to f32. */
static LLVMValueRef
emit_ldexp(sim_xl *x, LLVMValueRef a, LLVMValueRef n)
{
   LLVMBuilderRef B = x->B;
   LLVMValueRef lo = splat32(x, (uint32_t)-300), hi = splat32(x, 300);
   n = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSGT, n, hi, ""), hi, n, "");
   n = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSLT, n, lo, ""), lo, n, "");
   LLVMTypeRef vd = LLVMVectorType(LLVMDoubleTypeInContext(x->C), x->lanes);
   LLVMValueRef bias = sim__xl_splat(x, LLVMConstInt(x->i64, 1023, 0), x->v64);
   LLVMValueRef sh = sim__xl_splat(x, LLVMConstInt(x->i64, 52, 0), x->v64);
   LLVMValueRef p2 = LLVMBuildShl(B, LLVMBuildAdd(B, LLVMBuildSExt(B, n, x->v64, ""), bias, ""),
                                  sh, "");
   LLVMValueRef af = as_f(x, a);
   LLVMValueRef d = LLVMBuildFMul(B, LLVMBuildFPExt(B, af, vd, ""), LLVMBuildBitCast(B, p2, vd, ""),
                                  "");
   return sim__xl_nanfix(x, LLVMBuildFPTrunc(B, d, x->vf, ""), &af, 1);
}

/* v_cvt_flr/rpi_i32_f32 of the rounded `f` (floor of S0, or of S0 + 0.5 as an f32 sum):
 * saturating, NaN the saturated value of S0's sign (sim_vop1.c cvt_i32_round; the host's
 * floor and sum keep a NaN's sign). */
static LLVMValueRef
cvt_round(sim_xl *x, LLVMValueRef a, LLVMValueRef f)
{
   LLVMBuilderRef B = x->B;
   LLVMTypeRef t[2] = {x->v32, x->vf};
   LLVMValueRef r = sim__xl_intrin(x, "llvm.fptosi.sat", t, 2, &f, 1);
   LLVMValueRef neg = LLVMBuildICmp(B, LLVMIntSLT, a, splat32(x, 0), "");
   LLVMValueRef nan = LLVMBuildSelect(B, neg, splat32(x, 0x80000000u), splat32(x, 0x7FFFFFFFu), "");
   return LLVMBuildSelect(B, LLVMBuildFCmp(B, LLVMRealUNO, as_f(x, a), as_f(x, a), ""), nan, r, "");
}

/* D.u64 = S0 * S1 + S2 (unsigned, or signed 32 x 32 + 64), the carry (the unsigned sum's,
 * or the signed sum's overflow) in SDST's lanes of EXEC (sim_vop3.c mad64). */
static void
emit_mad64(sim_xl *x, const sim_inst *in, bool sgn)
{
   LLVMBuilderRef B = x->B;
   LLVMValueRef a = sim__xl_src_v(x, in, 0), b = sim__xl_src_v(x, in, 1);
   LLVMValueRef c = sim__xl_src_v64(x, in, 2);
   LLVMValueRef p = sgn ? LLVMBuildMul(B, LLVMBuildSExt(B, a, x->v64, ""),
                                       LLVMBuildSExt(B, b, x->v64, ""), "")
                        : LLVMBuildMul(B, LLVMBuildZExt(B, a, x->v64, ""),
                                       LLVMBuildZExt(B, b, x->v64, ""), "");
   LLVMValueRef r = LLVMBuildAdd(B, p, c, ""), cy;
   if (sgn) {
      /* The product fits in 63 bits: the sum overflows when p and S2 agree in sign and
       * the sum does not. */
      LLVMValueRef o = LLVMBuildAnd(B, LLVMBuildXor(B, p, r, ""), LLVMBuildXor(B, c, r, ""), "");
      cy = LLVMBuildICmp(B, LLVMIntSLT, o, LLVMConstNull(x->v64), "");
   } else {
      cy = LLVMBuildICmp(B, LLVMIntULT, r, c, "");
   }
   sim__xl_put64(x, in->vdst, r);
   if (in->sdst != SIM_SRC_NONE)
      sim__xl_mput(x, in->sdst, sim__xl_lanes_mask(x, cy));
}

/* v_cmp(x)_*_u64/i64: the compare of the 64-bit lanes in EXEC's lanes, written as
 * sim__vcmp_write does: gfx10's v_cmpx to EXEC alone, gfx9's to the destination (VCC or
 * SDST) too. */
static void
emit_cmp64(sim_xl *x, const sim_inst *in)
{
   bool cmpx;
   int pred = cmp64_pred(in->op, &cmpx);
   LLVMValueRef c = LLVMBuildICmp(x->B, pred, sim__xl_src_v64(x, in, 0),
                                  sim__xl_src_v64(x, in, 1), "");
   sim__xl_cmp_write(x, in, c, cmpx);
}

/* sim__fmax32 / sim__fmin32 of the rows `a` and `b` (f32 bits); no canonicalisation of the
 * result (SIM_NAN_AS_IS). */
static LLVMValueRef
emit_minmax_f32(sim_xl *x, LLVMValueRef a, LLVMValueRef b, bool max)
{
   return sim__xl_minmax_ieee(x, a, b, as_f(x, a), as_f(x, b), splat32(x, 0x400000), max);
}

/* v_min3/max3/med3_f32 of the rows a, b, c (sim_vop3.c med3_f32): with a NaN operand the
 * median is min3; else the larger of the two operands other than the first (S0, S1, S2)
 * equal to max3. */
static LLVMValueRef
emit_3_f32(sim_xl *x, xa_op op, LLVMValueRef a, LLVMValueRef b, LLVMValueRef c)
{
   LLVMBuilderRef B = x->B;
   LLVMValueRef min3 = emit_minmax_f32(x, emit_minmax_f32(x, a, b, false), c, false);
   if (op == XA_MIN3_F32)
      return min3;
   LLVMValueRef max3 = emit_minmax_f32(x, emit_minmax_f32(x, a, b, true), c, true);
   if (op == XA_MAX3_F32)
      return max3;
   LLVMValueRef af = as_f(x, a), bf = as_f(x, b), cf = as_f(x, c), mf = as_f(x, max3);
   LLVMValueRef nan = LLVMBuildOr(B, LLVMBuildFCmp(B, LLVMRealUNO, af, bf, ""),
                                  LLVMBuildFCmp(B, LLVMRealUNO, cf, cf, ""), "");
   LLVMValueRef r = LLVMBuildSelect(B, LLVMBuildFCmp(B, LLVMRealOEQ, mf, bf, ""),
                                    emit_minmax_f32(x, a, c, true),
                                    emit_minmax_f32(x, a, b, true), "");
   r = LLVMBuildSelect(B, LLVMBuildFCmp(B, LLVMRealOEQ, mf, af, ""),
                       emit_minmax_f32(x, b, c, true), r, "");
   return LLVMBuildSelect(B, nan, min3, r, "");
}

/* v_ffbh_u32 / v_ffbl_b32 of `a`: the leading (trailing) zeros, 0xFFFFFFFF for 0. */
static LLVMValueRef
emit_scan(sim_xl *x, LLVMValueRef a, const char *intrin)
{
   LLVMBuilderRef B = x->B;
   LLVMValueRef args[2] = {a, LLVMConstInt(LLVMInt1TypeInContext(x->C), 0, 0)};
   LLVMValueRef n = sim__xl_intrin(x, intrin, &x->v32, 1, args, 2);
   LLVMValueRef zero = LLVMBuildICmp(B, LLVMIntEQ, a, splat32(x, 0), "");
   return LLVMBuildSelect(B, zero, splat32(x, 0xFFFFFFFFu), n, "");
}

void
sim__xl_emit_alu(sim_xl *x, const sim_inst *in)
{
   LLVMBuilderRef B = x->B;
   xa_op op = xa_op_of(in);
   if (op == XA_MAD_U64 || op == XA_MAD_I64) {
      emit_mad64(x, in, op == XA_MAD_I64);
      return;
   }
   if (op == XA_CMP64) {
      emit_cmp64(x, in);
      return;
   }
   LLVMValueRef a = sim__xl_src_v(x, in, 0), r = NULL, mant, exp, fin;
   LLVMTypeRef t[2] = {x->v32, x->vf};
   LLVMValueRef af = as_f(x, a);
   switch (op) {
   /* (uint)S0 / (int)S0 truncated, saturating, NaN -> 0: LLVM's saturating conversions. */
   case XA_CVT_U32:
      r = sim__xl_intrin(x, "llvm.fptoui.sat", t, 2, &af, 1);
      break;
   case XA_CVT_I32:
      r = sim__xl_intrin(x, "llvm.fptosi.sat", t, 2, &af, 1);
      break;
   case XA_CVT_FLR:
      r = cvt_round(x, a, sim__xl_intrin(x, "llvm.floor", &x->vf, 1, &af, 1));
      break;
   case XA_CVT_RPI: {
      LLVMValueRef h = LLVMBuildFAdd(B, af, splatf(x, 0.5f), "");
      r = cvt_round(x, a, sim__xl_intrin(x, "llvm.floor", &x->vf, 1, &h, 1));
      break;
   }
   case XA_UBYTE: {
      unsigned k = in->op == SIM_OP_v_cvt_f32_ubyte0   ? 0
                   : in->op == SIM_OP_v_cvt_f32_ubyte1 ? 1
                   : in->op == SIM_OP_v_cvt_f32_ubyte2 ? 2
                                                       : 3;
      LLVMValueRef byte = LLVMBuildAnd(B, LLVMBuildLShr(B, a, splat32(x, 8 * k), ""),
                                       splat32(x, 0xFF), "");
      r = as_u(x, LLVMBuildUIToFP(B, byte, x->vf, ""));
      break;
   }
   case XA_RCP:
      r = emit_rcp(x, a);
      break;
   /* frexpf's fraction and exponent; zero, infinities and NaN keep S0 (then the NaN rule)
    * and have the exponent 0. */
   case XA_FREXP_MANT:
      frexp_parts(x, a, &mant, &exp, &fin);
      r = sim__xl_nanfix(x, as_f(x, LLVMBuildSelect(B, fin, mant, a, "")), &af, 1);
      break;
   case XA_FREXP_EXP:
      frexp_parts(x, a, &mant, &exp, &fin);
      r = LLVMBuildSelect(B, fin, exp, splat32(x, 0), "");
      break;
   case XA_LDEXP:
      r = emit_ldexp(x, a, sim__xl_src_v(x, in, 1));
      break;
   case XA_MIN_F32: case XA_MAX_F32:
      r = emit_minmax_f32(x, a, sim__xl_src_v(x, in, 1), op == XA_MAX_F32);
      break;
   case XA_MIN3_F32: case XA_MAX3_F32: case XA_MED3_F32:
      r = emit_3_f32(x, op, a, sim__xl_src_v(x, in, 1), sim__xl_src_v(x, in, 2));
      break;
   case XA_BFREV:
      r = sim__xl_intrin(x, "llvm.bitreverse", &x->v32, 1, &a, 1);
      break;
   case XA_FFBH_U32:
      r = emit_scan(x, a, "llvm.ctlz");
      break;
   case XA_FFBL:
      r = emit_scan(x, a, "llvm.cttz");
      break;
   case XA_FFBH_I32: {
      /* The leading bits equal to the sign: those of S0, complemented when negative. */
      LLVMValueRef neg = LLVMBuildICmp(B, LLVMIntSLT, a, splat32(x, 0), "");
      r = emit_scan(x, LLVMBuildSelect(B, neg, LLVMBuildNot(B, a, ""), a, ""), "llvm.ctlz");
      break;
   }
   default:
      return;
   }
   if (op == XA_CVT_FLR || op == XA_CVT_RPI || op == XA_FREXP_MANT || op == XA_FREXP_EXP ||
       op == XA_LDEXP || op == XA_MIN_F32 || op == XA_MAX_F32 || op == XA_MIN3_F32 ||
       op == XA_MAX3_F32 || op == XA_MED3_F32)
      x->uses_f32 = true;
   sim__xl_vput(x, in->vdst, r);
}
