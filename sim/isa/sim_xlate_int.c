/*
 * The translator's lowering of the integer operations past sim_xlate.c's (docs/sim.md
 * "Speed"): the bit-field and byte operations hashing, packing and index code is made of
 * (v_bfi_b32, v_bfe_u32/i32, v_bfm_b32, v_alignbit_b32, v_alignbyte_b32, v_bcnt_u32_b32,
 * v_not_b32, v_or3_b32, v_xor3_b32, v_xad_u32), the high halves of products (v_mul_hi_u32,
 * v_mul_hi_i32, v_mul_hi_u32_u24, v_mul_hi_i32_i24), the three-way min/max/median of
 * u32/i32, the lane counts v_mbcnt_lo/hi_u32_b32, and the 16-bit integer arithmetic of VOP2
 * and VOP3 (v_add/sub/subrev_u16, v_mul_lo_u16, the 16-bit shifts and min/max), whose SDWA
 * forms are lowered too (sim_xlate.c's selects). Each computes bit for bit what its handler
 * does (sim_vop1.c, sim_vop2.c, sim_vop3.c, sim_rdna.c).
 *
 * Forms: no modifiers (the handlers read integer sources, which take none), no clamp (the
 * 16-bit adds saturate with it), no op_sel; a 16-bit operation's result is its low 16 bits,
 * the high ones zero (sim__vdst16), and its constant sources the integer ones (a float
 * inline constant of a 16-bit operation is an f16).
 */
#include <llvm-c/Core.h>
#include "sim_xlate_priv.h"

typedef enum {
   XI_NONE, XI_BFI, XI_BFE_U, XI_BFE_I, XI_BFM, XI_ALIGNBIT, XI_ALIGNBYTE, XI_BCNT, XI_NOT,
   XI_OR3, XI_XOR3, XI_XAD, XI_MULHI_U, XI_MULHI_I, XI_MULHI_U24, XI_MULHI_I24, XI_MIN3_U,
   XI_MAX3_U, XI_MED3_U, XI_MIN3_I, XI_MAX3_I, XI_MED3_I, XI_MBCNT_LO, XI_MBCNT_HI,
   /* 16-bit */
   XI_ADD16, XI_SUB16, XI_SUBREV16, XI_MUL16, XI_SHL16, XI_LSHR16, XI_ASHR16, XI_MAXU16,
   XI_MINU16, XI_MAXI16, XI_MINI16,
} xi_op;

static xi_op
xi_op32(unsigned op)
{
   switch (op) {
   case SIM_OP_v_bfi_b32: return XI_BFI;
   case SIM_OP_v_bfe_u32: return XI_BFE_U;
   case SIM_OP_v_bfe_i32: return XI_BFE_I;
   case SIM_OP_v_bfm_b32: return XI_BFM;
   case SIM_OP_v_alignbit_b32: return XI_ALIGNBIT;
   case SIM_OP_v_alignbyte_b32: return XI_ALIGNBYTE;
   case SIM_OP_v_bcnt_u32_b32: return XI_BCNT;
   case SIM_OP_v_not_b32: return XI_NOT;
   case SIM_OP_v_or3_b32: return XI_OR3;
   case SIM_OP_v_xor3_b32: return XI_XOR3;
   case SIM_OP_v_xad_u32: return XI_XAD;
   case SIM_OP_v_mul_hi_u32: return XI_MULHI_U;
   case SIM_OP_v_mul_hi_i32: return XI_MULHI_I;
   case SIM_OP_v_mul_hi_u32_u24: return XI_MULHI_U24;
   case SIM_OP_v_mul_hi_i32_i24: return XI_MULHI_I24;
   case SIM_OP_v_min3_u32: return XI_MIN3_U;
   case SIM_OP_v_max3_u32: return XI_MAX3_U;
   case SIM_OP_v_med3_u32: return XI_MED3_U;
   case SIM_OP_v_min3_i32: return XI_MIN3_I;
   case SIM_OP_v_max3_i32: return XI_MAX3_I;
   case SIM_OP_v_med3_i32: return XI_MED3_I;
   case SIM_OP_v_mbcnt_lo_u32_b32: return XI_MBCNT_LO;
   case SIM_OP_v_mbcnt_hi_u32_b32: return XI_MBCNT_HI;
   default: return XI_NONE;
   }
}

static xi_op
xi_op16(unsigned op)
{
   switch (op) {
   case SIM_OP_v_add_u16: case SIM_OP_v_add_nc_u16: return XI_ADD16;
   case SIM_OP_v_sub_u16: case SIM_OP_v_sub_nc_u16: return XI_SUB16;
   case SIM_OP_v_subrev_u16: return XI_SUBREV16;
   case SIM_OP_v_mul_lo_u16: return XI_MUL16;
   case SIM_OP_v_lshlrev_b16: return XI_SHL16;
   case SIM_OP_v_lshrrev_b16: return XI_LSHR16;
   case SIM_OP_v_ashrrev_i16: return XI_ASHR16;
   case SIM_OP_v_max_u16: return XI_MAXU16;
   case SIM_OP_v_min_u16: return XI_MINU16;
   case SIM_OP_v_max_i16: return XI_MAXI16;
   case SIM_OP_v_min_i16: return XI_MINI16;
   default: return XI_NONE;
   }
}

/* How `in` is lowered here, XI_NONE if it is not. */
static xi_op
xi_op_of(const sim_inst *in)
{
   if (!(in->flags & SIM_IF_VALU) || in->enc == SIM_ENC_VOP3P)
      return XI_NONE;
   xi_op op = xi_op32(in->op);
   if (op != XI_NONE)
      return sim__xl_valu_plain(in, 3, false) ? op : XI_NONE;
   op = xi_op16(in->op);
   if (op == XI_NONE)
      return XI_NONE;
   bool sdwa = in->flags & SIM_IF_SDWA;
   if (sdwa ? !sim__xl_valu_sdwa(in) : !sim__xl_valu_plain(in, 2, false))
      return XI_NONE;
   if (in->abs | in->neg)
      return XI_NONE;
   for (unsigned i = 0; i < 2; i++)
      if (in->src[i] >= 240 && in->src[i] <= 248)
         return XI_NONE;
   return op;
}

bool
sim__xl_int_lowered(const sim_inst *in)
{
   return xi_op_of(in) != XI_NONE;
}

bool
sim__xl_int_lane_local(const sim_inst *in)
{
   xi_op op = xi_op_of(in);
   return op != XI_NONE && op != XI_MBCNT_LO && op != XI_MBCNT_HI;
}

static LLVMValueRef
row(sim_xl *x, uint32_t v)
{
   return sim__xl_splat(x, LLVMConstInt(x->i32, v, 0), x->v32);
}

/* The lane masks of v_mbcnt: lane l's bits of lanes below it, in the low (hi = false) or
 * high dword of the 64-bit mask; the held lanes are lanes 0 .. x->lanes - 1. */
static LLVMValueRef
lanes_below(sim_xl *x, bool hi)
{
   LLVMValueRef k[64];
   for (unsigned l = 0; l < x->lanes; l++) {
      uint32_t below = hi ? (l < 32 ? 0 : (uint32_t)((1ull << (l - 32)) - 1))
                          : (l >= 32 ? ~0u : (uint32_t)((1ull << l) - 1));
      k[l] = LLVMConstInt(x->i32, below, 0);
   }
   return LLVMConstVector(k, x->lanes);
}

/* The product's high dword of `a` and `b` extended to 64 bits (sext: signed). */
static LLVMValueRef
mul_hi(sim_xl *x, LLVMValueRef a, LLVMValueRef b, bool sext)
{
   LLVMBuilderRef B = x->B;
   LLVMValueRef p = sext ? LLVMBuildMul(B, LLVMBuildSExt(B, a, x->v64, ""),
                                        LLVMBuildSExt(B, b, x->v64, ""), "")
                         : LLVMBuildMul(B, LLVMBuildZExt(B, a, x->v64, ""),
                                        LLVMBuildZExt(B, b, x->v64, ""), "");
   p = LLVMBuildLShr(B, p, sim__xl_splat(x, LLVMConstInt(x->i64, 32, 0), x->v64), "");
   return LLVMBuildTrunc(B, p, x->v32, "");
}

static LLVMValueRef
sext24(sim_xl *x, LLVMValueRef a)
{
   return LLVMBuildAShr(x->B, LLVMBuildShl(x->B, a, row(x, 8), ""), row(x, 8), "");
}

static LLVMValueRef
imin(sim_xl *x, LLVMValueRef a, LLVMValueRef b, bool sgn)
{
   return LLVMBuildSelect(x->B, LLVMBuildICmp(x->B, sgn ? LLVMIntSLT : LLVMIntULT, a, b, ""), a, b,
                          "");
}
static LLVMValueRef
imax(sim_xl *x, LLVMValueRef a, LLVMValueRef b, bool sgn)
{
   return LLVMBuildSelect(x->B, LLVMBuildICmp(x->B, sgn ? LLVMIntSGT : LLVMIntUGT, a, b, ""), a, b,
                          "");
}

static LLVMValueRef
fshr(sim_xl *x, LLVMValueRef a, LLVMValueRef b, LLVMValueRef s)
{
   LLVMValueRef args[3] = {a, b, s};
   return sim__xl_intrin(x, "llvm.fshr", &x->v32, 1, args, 3);
}

/* A 32-bit operation's result. */
static LLVMValueRef
emit32(sim_xl *x, const sim_inst *in, xi_op op)
{
   LLVMBuilderRef B = x->B;
   LLVMValueRef a = sim__xl_src_v(x, in, 0), b = NULL, c = NULL;
   if (in->src[1] != SIM_SRC_NONE)
      b = sim__xl_src_v(x, in, 1);
   if (in->src[2] != SIM_SRC_NONE && op != XI_MBCNT_LO && op != XI_MBCNT_HI)
      c = sim__xl_src_v(x, in, 2);
   LLVMValueRef k31 = row(x, 31);
   switch (op) {
   case XI_BFI:
      return LLVMBuildOr(B, LLVMBuildAnd(B, a, b, ""), LLVMBuildAnd(B, LLVMBuildNot(B, a, ""), c, ""),
                         "");
   case XI_BFE_U: {
      /* A width of 0 makes the mask 0. */
      LLVMValueRef m = LLVMBuildSub(B, LLVMBuildShl(B, row(x, 1), LLVMBuildAnd(B, c, k31, ""), ""),
                                    row(x, 1), "");
      return LLVMBuildAnd(B, LLVMBuildLShr(B, a, LLVMBuildAnd(B, b, k31, ""), ""), m, "");
   }
   case XI_BFE_I: {
      LLVMValueRef wdt = LLVMBuildAnd(B, c, k31, "");
      LLVMValueRef sh = LLVMBuildAnd(B, LLVMBuildSub(B, row(x, 32), wdt, ""), k31, "");
      LLVMValueRef f = LLVMBuildLShr(B, a, LLVMBuildAnd(B, b, k31, ""), "");
      f = LLVMBuildAShr(B, LLVMBuildShl(B, f, sh, ""), sh, "");
      return LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntEQ, wdt, row(x, 0), ""), row(x, 0), f,
                             "");
   }
   case XI_BFM:
      return LLVMBuildShl(B, LLVMBuildSub(B, LLVMBuildShl(B, row(x, 1), LLVMBuildAnd(B, a, k31, ""),
                                                          ""),
                                          row(x, 1), ""),
                          LLVMBuildAnd(B, b, k31, ""), "");
   case XI_ALIGNBIT:
      return fshr(x, a, b, c); /* the shift is taken modulo 32 */
   case XI_ALIGNBYTE:
      return fshr(x, a, b, LLVMBuildShl(B, LLVMBuildAnd(B, c, row(x, 3), ""), row(x, 3), ""));
   case XI_BCNT:
      return LLVMBuildAdd(B, sim__xl_intrin(x, "llvm.ctpop", &x->v32, 1, &a, 1), b, "");
   case XI_NOT: return LLVMBuildNot(B, a, "");
   case XI_OR3: return LLVMBuildOr(B, LLVMBuildOr(B, a, b, ""), c, "");
   case XI_XOR3: return LLVMBuildXor(B, LLVMBuildXor(B, a, b, ""), c, "");
   case XI_XAD: return LLVMBuildAdd(B, LLVMBuildXor(B, a, b, ""), c, "");
   case XI_MULHI_U: return mul_hi(x, a, b, false);
   case XI_MULHI_I: return mul_hi(x, a, b, true);
   case XI_MULHI_U24:
      return mul_hi(x, LLVMBuildAnd(B, a, row(x, 0xFFFFFF), ""),
                    LLVMBuildAnd(B, b, row(x, 0xFFFFFF), ""), false);
   case XI_MULHI_I24: return mul_hi(x, sext24(x, a), sext24(x, b), true);
   case XI_MIN3_U: case XI_MIN3_I:
      return imin(x, imin(x, a, b, op == XI_MIN3_I), c, op == XI_MIN3_I);
   case XI_MAX3_U: case XI_MAX3_I:
      return imax(x, imax(x, a, b, op == XI_MAX3_I), c, op == XI_MAX3_I);
   case XI_MED3_U: case XI_MED3_I: {
      /* The median of integers: max(min(a, b), min(max(a, b), c)). */
      bool s = op == XI_MED3_I;
      return imax(x, imin(x, a, b, s), imin(x, imax(x, a, b, s), c, s), s);
   }
   case XI_MBCNT_LO: case XI_MBCNT_HI: {
      LLVMValueRef m = LLVMBuildAnd(B, a, lanes_below(x, op == XI_MBCNT_HI), "");
      return LLVMBuildAdd(B, sim__xl_intrin(x, "llvm.ctpop", &x->v32, 1, &m, 1), b, "");
   }
   default:
      return NULL;
   }
}

/* A 16-bit operation's result: its low 16 bits (the sources' low halves, after an SDWA
 * form's selects), the high half zero. */
static LLVMValueRef
emit16(sim_xl *x, const sim_inst *in, xi_op op)
{
   LLVMBuilderRef B = x->B;
   LLVMValueRef lo = row(x, 0xFFFF), k15 = row(x, 15);
   LLVMValueRef a = LLVMBuildAnd(B, sim__xl_src_v(x, in, 0), lo, "");
   LLVMValueRef b = LLVMBuildAnd(B, sim__xl_src_v(x, in, 1), lo, "");
   LLVMValueRef r;
   switch (op) {
   case XI_ADD16: r = LLVMBuildAdd(B, a, b, ""); break;
   case XI_SUB16: r = LLVMBuildSub(B, a, b, ""); break;
   case XI_SUBREV16: r = LLVMBuildSub(B, b, a, ""); break;
   case XI_MUL16: r = LLVMBuildMul(B, a, b, ""); break;
   case XI_SHL16: r = LLVMBuildShl(B, b, LLVMBuildAnd(B, a, k15, ""), ""); break;
   case XI_LSHR16: r = LLVMBuildLShr(B, b, LLVMBuildAnd(B, a, k15, ""), ""); break;
   case XI_ASHR16: {
      LLVMValueRef s = LLVMBuildAShr(B, LLVMBuildShl(B, b, row(x, 16), ""), row(x, 16), "");
      r = LLVMBuildAShr(B, s, LLVMBuildAnd(B, a, k15, ""), "");
      break;
   }
   case XI_MAXU16: r = imax(x, a, b, false); break;
   case XI_MINU16: r = imin(x, a, b, false); break;
   case XI_MAXI16: case XI_MINI16: {
      LLVMValueRef sa = LLVMBuildAShr(B, LLVMBuildShl(B, a, row(x, 16), ""), row(x, 16), "");
      LLVMValueRef sb = LLVMBuildAShr(B, LLVMBuildShl(B, b, row(x, 16), ""), row(x, 16), "");
      LLVMValueRef pick = LLVMBuildICmp(B, op == XI_MAXI16 ? LLVMIntSGT : LLVMIntSLT, sa, sb, "");
      r = LLVMBuildSelect(B, pick, a, b, "");
      break;
   }
   default:
      return NULL;
   }
   return LLVMBuildAnd(B, r, lo, "");
}

void
sim__xl_emit_int(sim_xl *x, const sim_inst *in)
{
   xi_op op = xi_op_of(in);
   LLVMValueRef r = op >= XI_ADD16 ? emit16(x, in, op) : emit32(x, in, op);
   sim__xl_vput_dst(x, in, r);
}
