/*
 * The translator's lowering of double precision (docs/sim.md "Speed"): v_add_f64,
 * v_mul_f64, v_fma_f64 and gfx90a's v_fmac_f64, v_min/max_f64, v_trunc/floor/ceil/rndne_f64,
 * the compares v_cmp(x)_*_f64, v_ldexp_f64 and the conversions v_cvt_f64_i32/u32,
 * v_cvt_i32/u32_f64, v_cvt_f32_f64 and v_cvt_f64_f32: what OpenCL's double arithmetic, its
 * conversions, its math library's scaling and clpeak's double-precision test run. Each
 * computes bit for bit what its handler does (sim_vop1.c, sim_vop2.c, sim_vop3.c,
 * sim_vopc.c, sim_cdna.c) for every input.
 *
 * A 64-bit operand is a VGPR pair (two rows joined into <lanes x double>), an SGPR pair, an
 * integer inline constant (its sign-extended bits, as sim__special64 reads it) or a float
 * one (the f64 value); abs/neg act on bit 63. Results go to a VGPR pair in EXEC's lanes.
 *
 * NaN: the arithmetic's NaN result is the first NaN source quieted, or 0x7FF8000000000000
 * (sim__nanfix64), worked out on a side path taken when some lane is NaN; min/max pick
 * theirs by IEEE mode's rules (sim__fmin64/sim__fmax64); the conversions are the host's, as
 * the handlers' C casts are.
 *
 * MODE: the handlers flush f64 subnormal inputs and results when MODE's 16/64-bit denormal
 * bits are clear (sim__f64_in/sim__f64_post), f32 results by the f32 bits: a block with
 * these runs only where MODE keeps the denormals they see (x->uses_f16, which shares the
 * 16/64-bit bits; x->uses_f32 for v_cvt_f32_f64's result). The compares read the bits as
 * they are, and the conversions to f64 of integers and f32 never make a subnormal: those
 * run in any MODE.
 */
#include <llvm-c/Core.h>
#include "sim_xlate_priv.h"

typedef enum {
   XD_NONE, XD_ADD, XD_MUL, XD_FMA, XD_FMAC, XD_MIN, XD_MAX, XD_TRUNC, XD_FLOOR, XD_CEIL,
   XD_RNDNE, XD_CMP, XD_CVT_F64_I32, XD_CVT_F64_U32, XD_CVT_I32_F64, XD_CVT_U32_F64,
   XD_CVT_F32_F64, XD_CVT_F64_F32, XD_LDEXP,
} xd_op;

/* The compare flags of a v_cmp(x)_*_f64: which orders are true, and whether an unordered
 * pair is (the "n" forms, u, tru). */
enum { XC_LT = 1, XC_EQ = 2, XC_GT = 4, XC_UN = 8, XC_X = 16 };

static unsigned
cmp_of(unsigned op)
{
   switch (op) {
#define C(n, k)                                                                             \
   case SIM_OP_v_cmp_##n##_f64: return (k) | 32;                                            \
   case SIM_OP_v_cmpx_##n##_f64: return (k) | 32 | XC_X;
      C(f, 0) C(lt, XC_LT) C(eq, XC_EQ) C(le, XC_LT | XC_EQ) C(gt, XC_GT)
      C(lg, XC_LT | XC_GT) C(ge, XC_GT | XC_EQ) C(o, XC_LT | XC_EQ | XC_GT) C(u, XC_UN)
      C(nge, XC_LT | XC_UN) C(nlg, XC_EQ | XC_UN) C(ngt, XC_LT | XC_EQ | XC_UN)
      C(nle, XC_GT | XC_UN) C(neq, XC_LT | XC_GT | XC_UN) C(nlt, XC_GT | XC_EQ | XC_UN)
      C(tru, XC_LT | XC_EQ | XC_GT | XC_UN)
#undef C
   default:
      return 0;
   }
}

/* A 64-bit float source the emitter reads (not a literal, whose f64 is its high half). */
static bool
src_ok(unsigned c)
{
   return c >= SIM_SRC_VGPR ? c < SIM_SRC_VGPR + 255
                            : sim__xl_src64_ok(c) || (c >= 240 && c <= 248);
}

/* How `in` is lowered here, XD_NONE if it is not. */
static xd_op
xd_op_of(const sim_inst *in)
{
   if (!(in->flags & SIM_IF_VALU) || in->enc == SIM_ENC_VOP3P ||
       !sim__xl_valu_plain(in, 3, true))
      return XD_NONE;
   /* Sources: f64 (abs/neg allowed), or one 32-bit integer / f32 one. */
   unsigned n64 = 0, fmods = 0;
   bool d64 = true;
   xd_op op;
   switch (in->op) {
   case SIM_OP_v_add_f64: op = XD_ADD, n64 = 2; break;
   case SIM_OP_v_mul_f64: op = XD_MUL, n64 = 2; break;
   case SIM_OP_v_fma_f64: op = XD_FMA, n64 = 3; break;
   case SIM_OP_v_fmac_f64: op = XD_FMAC, n64 = 2; break;
   case SIM_OP_v_min_f64: op = XD_MIN, n64 = 2; break;
   case SIM_OP_v_max_f64: op = XD_MAX, n64 = 2; break;
   case SIM_OP_v_trunc_f64: op = XD_TRUNC, n64 = 1; break;
   case SIM_OP_v_floor_f64: op = XD_FLOOR, n64 = 1; break;
   case SIM_OP_v_ceil_f64: op = XD_CEIL, n64 = 1; break;
   case SIM_OP_v_rndne_f64: op = XD_RNDNE, n64 = 1; break;
   case SIM_OP_v_cvt_i32_f64: op = XD_CVT_I32_F64, n64 = 1, d64 = false; break;
   case SIM_OP_v_cvt_u32_f64: op = XD_CVT_U32_F64, n64 = 1, d64 = false; break;
   case SIM_OP_v_cvt_f32_f64: op = XD_CVT_F32_F64, n64 = 1, d64 = false; break;
   case SIM_OP_v_cvt_f64_i32: op = XD_CVT_F64_I32, fmods = 0; break;
   case SIM_OP_v_cvt_f64_u32: op = XD_CVT_F64_U32, fmods = 0; break;
   case SIM_OP_v_cvt_f64_f32: op = XD_CVT_F64_F32, fmods = 1; break;
   case SIM_OP_v_ldexp_f64:
      /* S1 an integer: a VGPR, an SGPR, an integer constant or the literal. */
      if (!(in->src[1] >= SIM_SRC_VGPR || in->src[1] < 106 ||
            (in->src[1] >= 128 && in->src[1] <= 208) || in->src[1] == SIM_SRC_LITERAL))
         return XD_NONE;
      op = XD_LDEXP, n64 = 1;
      break;
   default:
      if (!cmp_of(in->op) || (in->enc != SIM_ENC_VOPC && in->enc != SIM_ENC_VOP3))
         return XD_NONE;
      op = XD_CMP, n64 = 2, d64 = false;
      break;
   }
   if (n64)
      fmods = (1u << n64) - 1;
   for (unsigned i = 0; i < n64; i++)
      if (!src_ok(in->src[i]))
         return XD_NONE;
   if (d64 && in->vdst >= 255)
      return XD_NONE;
   return (in->abs | in->neg) & ~fmods ? XD_NONE : op;
}

bool
sim__xl_f64_lowered(const sim_inst *in)
{
   return xd_op_of(in) != XD_NONE;
}

bool
sim__xl_f64_lane_local(const sim_inst *in)
{
   xd_op op = xd_op_of(in);
   return op != XD_NONE && op != XD_LDEXP;
}

bool
sim__xl_f64_nan_op(const sim_inst *in)
{
   switch (xd_op_of(in)) {
   case XD_ADD: case XD_MUL: case XD_FMA: case XD_FMAC: case XD_TRUNC: case XD_FLOOR:
   case XD_CEIL: case XD_RNDNE:
      return true;
   default:
      return false;
   }
}

static LLVMTypeRef
vd_type(sim_xl *x)
{
   return LLVMVectorType(LLVMDoubleTypeInContext(x->C), x->lanes);
}
static LLVMValueRef
splat64(sim_xl *x, uint64_t v)
{
   return sim__xl_splat(x, LLVMConstInt(x->i64, v, 0), x->v64);
}

/* Source i as <lanes x double>. */
static LLVMValueRef
src_d(sim_xl *x, const sim_inst *in, unsigned i)
{
   static const uint64_t fconst[9] = {
      0x3FE0000000000000ull, 0xBFE0000000000000ull, 0x3FF0000000000000ull,
      0xBFF0000000000000ull, 0x4000000000000000ull, 0xC000000000000000ull,
      0x4010000000000000ull, 0xC010000000000000ull, 0x3FC45F306DC9C882ull};
   unsigned c = in->src[i];
   LLVMValueRef v = c >= 240 && c <= 248 ? splat64(x, fconst[c - 240]) : sim__xl_src_v64(x, in, i);
   if ((in->abs >> i) & 1)
      v = LLVMBuildAnd(x->B, v, splat64(x, ~(1ull << 63)), "");
   if ((in->neg >> i) & 1)
      v = LLVMBuildXor(x->B, v, splat64(x, 1ull << 63), "");
   return LLVMBuildBitCast(x->B, v, vd_type(x), "");
}

/* sim__nanfix64 over the result `r` of the sources srcs[0..n), as bits; in a run
 * (x->nan_defer) the bits alone. */
static LLVMValueRef
nanfix64(sim_xl *x, LLVMValueRef r, LLVMValueRef *srcs, unsigned n)
{
   if (x->nan_defer)
      return LLVMBuildBitCast(x->B, r, x->v64, "");
   return sim__xl_nanfix_bits(x, r, srcs, n, x->v64, splat64(x, 0x7FF8000000000000ull),
                              splat64(x, 1ull << 51));
}

/* sim__fmax64 / sim__fmin64 (bits). */
static LLVMValueRef
minmax64(sim_xl *x, LLVMValueRef af, LLVMValueRef bf, bool max)
{
   LLVMValueRef a = LLVMBuildBitCast(x->B, af, x->v64, "");
   LLVMValueRef b = LLVMBuildBitCast(x->B, bf, x->v64, "");
   return sim__xl_minmax_ieee(x, a, b, af, bf, splat64(x, 1ull << 51), max);
}

/* v_cmp(x)_*_f64: the orders the opcode names, an unordered lane by its XC_UN; written as
 * sim__vcmp_write does: gfx10's v_cmpx to EXEC alone, gfx9's to the destination too. */
static void
emit_cmp(sim_xl *x, const sim_inst *in, LLVMValueRef a, LLVMValueRef b)
{
   static const LLVMRealPredicate preds[16] = {
      LLVMRealPredicateFalse, LLVMRealOLT, LLVMRealOEQ, LLVMRealOLE,
      LLVMRealOGT,            LLVMRealONE, LLVMRealOGE, LLVMRealORD,
      LLVMRealUNO,            LLVMRealULT, LLVMRealUEQ, LLVMRealULE,
      LLVMRealUGT,            LLVMRealUNE, LLVMRealUGE, LLVMRealPredicateTrue};
   unsigned k = cmp_of(in->op);
   LLVMValueRef c = LLVMBuildFCmp(x->B, preds[k & 15], a, b, "");
   sim__xl_cmp_write(x, in, c, k & XC_X);
}

static LLVMValueRef
row32(sim_xl *x, uint32_t v)
{
   return sim__xl_splat(x, LLVMConstInt(x->i32, v, 0), x->v32);
}

/* v_ldexp_f64 (sim_vop3.c: C's ldexp, NaN by sim__nanfix64): when every lane's exponent
 * S1 lies in [-1022, 1023], S0 times 2^S1 (a normal double: the product is exact, or rounded
 * once to a subnormal, as ldexp rounds it); a lane past that (two scalings would round a
 * subnormal twice) takes the handler, on a path of its own that joins again. */
static void
emit_ldexp(sim_xl *x, const sim_inst *in, LLVMValueRef s0, uint64_t pc)
{
   LLVMBuilderRef B = x->B;
   LLVMTypeRef vd = vd_type(x);
   unsigned d = in->vdst;
   /* What the paths read is read here, where both start: EXEC, the destination rows. */
   LLVMValueRef exec = sim__xl_mget(x, SIM_SRC_EXEC);
   LLVMValueRef old[2] = {sim__xl_vget(x, d), sim__xl_vget(x, d + 1)};
   LLVMValueRef n = sim__xl_src_v(x, in, 1);
   LLVMValueRef biased = LLVMBuildAdd(B, n, row32(x, 1022), "");
   LLVMValueRef out = LLVMBuildICmp(B, LLVMIntUGT, biased, row32(x, 2045), "");
   LLVMValueRef bad = LLVMBuildAnd(B, LLVMBuildBitCast(B, out, x->mask_t, ""), exec, "");
   LLVMBasicBlockRef fast = LLVMAppendBasicBlockInContext(x->C, x->fn, "");
   LLVMBasicBlockRef slow = LLVMAppendBasicBlockInContext(x->C, x->fn, "");
   LLVMBasicBlockRef slow_ok = LLVMAppendBasicBlockInContext(x->C, x->fn, "");
   LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(x->C, x->fn, "");
   LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntNE, bad, LLVMConstNull(x->mask_t), ""), slow,
                   fast);

   LLVMPositionBuilderAtEnd(B, fast);
   LLVMValueRef e = LLVMBuildZExt(B, LLVMBuildAdd(B, biased, row32(x, 1), ""), x->v64, "");
   LLVMValueRef scale = LLVMBuildBitCast(B, LLVMBuildShl(B, e, splat64(x, 52), ""), vd, "");
   LLVMValueRef r = nanfix64(x, LLVMBuildFMul(B, s0, scale, ""), &s0, 1);
   sim__xl_put64(x, d, r);
   LLVMValueRef fast_rows[2] = {x->v[d], x->v[d + 1]};
   LLVMBasicBlockRef fast_end = LLVMGetInsertBlock(B);
   LLVMBuildBr(B, done);

   LLVMPositionBuilderAtEnd(B, slow);
   x->v[d] = old[0], x->v[d + 1] = old[1];
   sim__xl_spill(x);
   LLVMValueRef rc = sim__xl_call(x, in, pc);
   LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntNE, rc, LLVMConstInt(x->i32, 0, 0), ""), x->exit,
                   slow_ok);
   LLVMPositionBuilderAtEnd(B, slow_ok);
   LLVMValueRef slow_rows[2] = {sim__xl_row_load(x, d), sim__xl_row_load(x, d + 1)};
   LLVMBuildBr(B, done);

   LLVMPositionBuilderAtEnd(B, done);
   for (unsigned k = 0; k < 2; k++) {
      LLVMValueRef phi = LLVMBuildPhi(B, x->v32, "");
      LLVMValueRef vals[2] = {fast_rows[k], slow_rows[k]};
      LLVMBasicBlockRef bbs[2] = {fast_end, slow_ok};
      LLVMAddIncoming(phi, vals, bbs, 2);
      x->v[d + k] = phi;
      x->vd[d + k] = true;
   }
   x->uses_f16 = true;
}

void
sim__xl_emit_f64(sim_xl *x, const sim_inst *in)
{
   LLVMBuilderRef B = x->B;
   xd_op op = xd_op_of(in);
   LLVMTypeRef vd = vd_type(x);
   LLVMValueRef s[3] = {NULL, NULL, NULL}, r = NULL;
   unsigned n = 0;
   switch (op) {
   case XD_ADD: case XD_MUL: case XD_MIN: case XD_MAX: case XD_CMP: case XD_FMAC:
      n = 2;
      break;
   case XD_FMA:
      n = 3;
      break;
   case XD_TRUNC: case XD_FLOOR: case XD_CEIL: case XD_RNDNE: case XD_CVT_I32_F64:
   case XD_CVT_U32_F64: case XD_CVT_F32_F64: case XD_LDEXP:
      n = 1;
      break;
   default:
      break;
   }
   for (unsigned i = 0; i < n; i++)
      s[i] = src_d(x, in, i);
   if (op == XD_FMAC) {
      s[2] = LLVMBuildBitCast(
         B, sim__xl_join64(x, sim__xl_vget(x, in->vdst), sim__xl_vget(x, in->vdst + 1)), vd,
         "");
      n = 3;
   }
   const char *round = NULL;
   switch (op) {
   case XD_CMP:
      emit_cmp(x, in, s[0], s[1]);
      return;
   case XD_LDEXP:
      emit_ldexp(x, in, s[0], x->pc);
      return;
   case XD_ADD: r = nanfix64(x, LLVMBuildFAdd(B, s[0], s[1], ""), s, 2); break;
   case XD_MUL: r = nanfix64(x, LLVMBuildFMul(B, s[0], s[1], ""), s, 2); break;
   case XD_FMA: case XD_FMAC:
      r = nanfix64(x, sim__xl_intrin(x, "llvm.fma", &vd, 1, s, 3), s, 3);
      break;
   case XD_MIN: case XD_MAX: r = minmax64(x, s[0], s[1], op == XD_MAX); break;
   case XD_TRUNC: round = "llvm.trunc"; break;
   case XD_FLOOR: round = "llvm.floor"; break;
   case XD_CEIL: round = "llvm.ceil"; break;
   case XD_RNDNE: round = "llvm.roundeven"; break;
   case XD_CVT_F64_I32: case XD_CVT_F64_U32: {
      LLVMValueRef a = sim__xl_src_v(x, in, 0);
      r = op == XD_CVT_F64_I32 ? LLVMBuildSIToFP(B, a, vd, "") : LLVMBuildUIToFP(B, a, vd, "");
      sim__xl_put64(x, in->vdst, LLVMBuildBitCast(B, r, x->v64, ""));
      return;
   }
   case XD_CVT_F64_F32: {
      LLVMValueRef f = LLVMBuildBitCast(B, sim__xl_src_v(x, in, 0), x->vf, "");
      r = LLVMBuildBitCast(B, LLVMBuildFPExt(B, f, vd, ""), x->v64, "");
      sim__xl_put64(x, in->vdst, r);
      return;
   }
   case XD_CVT_I32_F64: case XD_CVT_U32_F64: {
      /* Truncated, saturated, NaN 0: LLVM's saturating conversions. */
      LLVMTypeRef t[2] = {x->v32, vd};
      x->uses_f16 = true;
      sim__xl_vput(x, in->vdst, sim__xl_intrin(x, op == XD_CVT_I32_F64 ? "llvm.fptosi.sat"
                                                                          : "llvm.fptoui.sat",
                                               t, 2, s, 1));
      return;
   }
   case XD_CVT_F32_F64:
      x->uses_f32 = true;
      sim__xl_vput(x, in->vdst, LLVMBuildBitCast(B, LLVMBuildFPTrunc(B, s[0], x->vf, ""),
                                                 x->v32, ""));
      return;
   default:
      return;
   }
   if (round)
      r = nanfix64(x, sim__xl_intrin(x, round, &vd, 1, s, 1), s, 1);
   x->uses_f16 = true;
   sim__xl_put64(x, in->vdst, r);
}
