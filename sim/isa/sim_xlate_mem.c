/*
 * The translator's lowering of vector memory instructions (docs/sim.md "Speed"): the dword
 * loads and stores of GLOBAL and FLAT (`*_load_dword`, `_dwordx2/x3/x4`, the same stores).
 *
 * The interpreter's fast path (sim_flat.c vm_fast) once per wave-instruction, in IR: every
 * active lane's address is R + lo[l] with a per-instruction 64-bit R (the SGPR base plus
 * the offset, or the high word of the VGPR pairs, which must agree over the active lanes,
 * plus the offset), so the lowest and highest lo over EXEC bound all accesses; one call
 * (sim__xlate_mem_base) checks that range against one allocation the fast paths may reach
 * directly (sim__vm_direct) and gives its host address. Then, inline, one vector load or
 * store when every lane is active and lane l accesses lo[0] + l * size (unit stride), else
 * a masked gather (loads) or scatter (dword stores: the scatter writes lanes in order, so a
 * later lane's store to the same address wins, as the interpreter's lane loop).
 *
 * Everything else runs the interpreter's handler from inside the block (the block stores
 * its changed registers first, and reads back the rows a load wrote): a range outside one
 * such allocation (faults are then reported by the handler, lane by lane, exactly as
 * interpreted, and the block stops), apertures and scratch, doorbells, coarse-grained
 * memory in the L2/L1 checking mode (HSACL_SIM_CACHE=check), high words that differ, and
 * multi-dword stores that are not unit-stride (lanes writing overlapping dwords must keep
 * lane order, which per-dword scatters would not). With EXEC zero the instruction does
 * nothing, as interpreted.
 */
#include <llvm-c/Core.h>
#include <stdlib.h>
#include "sim_xlate_priv.h"

/* Dwords a lane moves, 0 if `in` is not one of the lowered opcodes. */
static unsigned
mem_dwords(const sim_inst *in, bool *store)
{
   *store = false;
   switch (in->op) {
   case SIM_OP_global_load_dword: case SIM_OP_flat_load_dword: return 1;
   case SIM_OP_global_load_dwordx2: case SIM_OP_flat_load_dwordx2: return 2;
   case SIM_OP_global_load_dwordx3: case SIM_OP_flat_load_dwordx3: return 3;
   case SIM_OP_global_load_dwordx4: case SIM_OP_flat_load_dwordx4: return 4;
   default: break;
   }
   *store = true;
   switch (in->op) {
   case SIM_OP_global_store_dword: case SIM_OP_flat_store_dword: return 1;
   case SIM_OP_global_store_dwordx2: case SIM_OP_flat_store_dwordx2: return 2;
   case SIM_OP_global_store_dwordx3: case SIM_OP_flat_store_dwordx3: return 3;
   case SIM_OP_global_store_dwordx4: case SIM_OP_flat_store_dwordx4: return 4;
   default: return 0;
   }
}

/* GLOBAL with an SGPR base (SADDR not off): lane l's address is SGPR pair + VGPR[ADDR]. */
static bool
mem_saddr(const sim_inst *in)
{
   return in->enc == SIM_ENC_GLOBAL && in->mem.saddr != 0x7F;
}

bool
sim__xl_mem_lowered(const sim_inst *in)
{
   if (in->enc != SIM_ENC_GLOBAL && in->enc != SIM_ENC_FLAT)
      return false;
   bool store;
   unsigned n = mem_dwords(in, &store);
   /* AGPR data (gfx90a's ACC bit) lives past the 256 rows the emitter holds. */
   if (!n || (in->flags & SIM_IF_ACC))
      return false;
   unsigned data = store ? in->mem.data0 : in->vdst;
   if (data + n > 256 || in->mem.addr + (mem_saddr(in) ? 1u : 2u) > 256)
      return false;
   return !mem_saddr(in) || in->mem.saddr < 127;
}

/* The offset added to the 64-bit address: FLAT's is unsigned, GLOBAL's signed. */
static uint64_t
mem_imm(const sim_inst *in)
{
   return in->enc == SIM_ENC_FLAT ? (uint64_t)(uint32_t)in->imm : (uint64_t)(int64_t)in->imm;
}

int
sim__xlate_mem_base(sim_wave *w, const sim_inst *in, uint64_t rbase, uint32_t lmin,
                    uint32_t lmax, uint8_t **host)
{
   bool store;
   uint64_t bytes = 4ull * mem_dwords(in, &store);
   uint64_t lo = rbase + lmin, span = (uint64_t)(lmax - lmin) + bytes;
   if (lo < rbase || lo + span < lo)
      return 0; /* wraps around the address space: the handler faults */
   const sim_alloc *a = sim__vm_direct(w, in, lo, span, store);
   if (!a)
      return 0;
   *host = a->view + (rbase - a->va);
   return 1;
}

bool
sim__xlate_mem_range(sim_wave *w, const sim_inst *in, uint8_t **at, size_t *len)
{
   bool store;
   uint64_t bytes = 4ull * mem_dwords(in, &store);
   uint64_t m = SIM_EXEC(w), lo = UINT64_MAX, hi = 0;
   if (!m)
      return false;
   for (unsigned l = 0; l < 64; l++) {
      if (!((m >> l) & 1))
         continue;
      uint64_t va = w->v[in->mem.addr][l];
      if (mem_saddr(in))
         va += sim__sread64(w, in, in->mem.saddr, SIM_K_B64);
      else
         va |= (uint64_t)w->v[in->mem.addr + 1][l] << 32;
      va += mem_imm(in);
      lo = va < lo ? va : lo;
      hi = va > hi ? va : hi;
   }
   if (hi + bytes < hi)
      return false;
   const sim_alloc *a = sim__mem_find(lo);
   if (!a || hi + bytes - a->va > a->reach)
      return false;
   *at = a->view + (lo - a->va);
   *len = hi + bytes - lo;
   return true;
}

/* ---- IR ------------------------------------------------------------------------------ */

static LLVMValueRef
k32(sim_xl *x, uint32_t v)
{
   return LLVMConstInt(x->i32, v, 0);
}
static LLVMValueRef
k64(sim_xl *x, uint64_t v)
{
   return LLVMConstInt(x->i64, v, 0);
}
static LLVMBasicBlockRef
bb(sim_xl *x)
{
   return LLVMAppendBasicBlockInContext(x->C, x->fn, "");
}

/* umin/umax (`op`) of the rows' active lanes; `none` in inactive ones. */
static LLVMValueRef
reduce(sim_xl *x, const char *op, LLVMValueRef row, LLVMValueRef m, uint32_t none)
{
   LLVMValueRef r = LLVMBuildSelect(x->B, m, row, sim__xl_splat(x, k32(x, none), x->v32), "");
   LLVMTypeRef t = x->v32;
   return sim__xl_intrin(x, op, &t, 1, &r, 1);
}

/* <0, step, 2 * step, ...> */
static LLVMValueRef
lane_steps(sim_xl *x, uint32_t step)
{
   LLVMValueRef e[64];
   for (unsigned l = 0; l < x->lanes; l++)
      e[l] = k32(x, l * step);
   return LLVMConstVector(e, x->lanes);
}

/* i1: every lane active, lane l at lo[0] + l * step, and the last lane's lo not wrapped. */
static LLVMValueRef
unit_stride(sim_xl *x, LLVMValueRef exec, LLVMValueRef lo, uint32_t step)
{
   LLVMBuilderRef B = x->B;
   LLVMValueRef full = LLVMBuildICmp(B, LLVMIntEQ, exec, LLVMConstAllOnes(x->mask_t), "");
   LLVMValueRef l0 = LLVMBuildExtractElement(B, lo, k32(x, 0), "");
   LLVMValueRef want = LLVMBuildAdd(B, sim__xl_splat(x, l0, x->v32), lane_steps(x, step), "");
   LLVMValueRef eq = LLVMBuildICmp(B, LLVMIntEQ, lo, want, "");
   LLVMValueRef all = LLVMBuildICmp(B, LLVMIntEQ, LLVMBuildBitCast(B, eq, x->mask_t, ""),
                                    LLVMConstAllOnes(x->mask_t), "");
   LLVMValueRef nowrap = LLVMBuildICmp(B, LLVMIntULE, l0,
                                       k32(x, UINT32_MAX - (x->lanes - 1) * step), "");
   return LLVMBuildAnd(B, LLVMBuildAnd(B, full, all, ""), nowrap, "");
}

/* The lanes' host pointers to dword `k`: host + lo[l] + 4k, written as
 * (host + 2^31 + 4k) + sext(lo[l] - 2^31) so that the host's gathers and scatters take
 * 32-bit indices (16 lanes an instruction on AVX-512; 64-bit pointers take 8 and a row of
 * them eight registers). */
static LLVMValueRef
lane_ptrs(sim_xl *x, LLVMValueRef host, LLVMValueRef lo, unsigned k)
{
   LLVMBuilderRef B = x->B;
   LLVMTypeRef i8 = LLVMInt8TypeInContext(x->C);
   LLVMValueRef off = k64(x, 0x80000000ull + 4 * k);
   LLVMValueRef base = LLVMBuildGEP2(B, i8, host, &off, 1, "");
   LLVMValueRef idx = LLVMBuildXor(B, lo, sim__xl_splat(x, k32(x, 0x80000000u), x->v32), "");
   idx = LLVMBuildSExt(B, idx, x->v64, "");
   return LLVMBuildGEP2(B, i8, base, &idx, 1, "");
}

static LLVMValueRef
host_at(sim_xl *x, LLVMValueRef host, LLVMValueRef lo0)
{
   LLVMValueRef i = LLVMBuildZExt(x->B, lo0, x->i64, "");
   return LLVMBuildGEP2(x->B, LLVMInt8TypeInContext(x->C), host, &i, 1, "");
}

/* A vector of `n` rows interleaved lane by lane (row k of lane l at element l * n + k), or
 * the rows of such a vector. */
static LLVMValueRef
interleave(sim_xl *x, LLVMValueRef *rows, unsigned n)
{
   LLVMBuilderRef B = x->B;
   unsigned L = x->lanes;
   LLVMValueRef idx[256];
   LLVMValueRef pair[2];
   for (unsigned p = 0; p < 2; p++) {
      if (2 * p >= n) {
         pair[p] = LLVMGetUndef(LLVMVectorType(x->i32, 2 * L));
         continue;
      }
      LLVMValueRef a = rows[2 * p], b = 2 * p + 1 < n ? rows[2 * p + 1] : LLVMGetUndef(x->v32);
      for (unsigned i = 0; i < 2 * L; i++)
         idx[i] = k32(x, i);
      pair[p] = LLVMBuildShuffleVector(B, a, b, LLVMConstVector(idx, 2 * L), "");
   }
   for (unsigned l = 0; l < L; l++)
      for (unsigned k = 0; k < n; k++)
         idx[l * n + k] = k32(x, k * L + l);
   return LLVMBuildShuffleVector(B, pair[0], pair[1], LLVMConstVector(idx, n * L), "");
}
static LLVMValueRef
deinterleave(sim_xl *x, LLVMValueRef v, unsigned n, unsigned k)
{
   LLVMValueRef idx[64];
   for (unsigned l = 0; l < x->lanes; l++)
      idx[l] = k32(x, l * n + k);
   return LLVMBuildShuffleVector(x->B, v, LLVMGetUndef(LLVMTypeOf(v)),
                                 LLVMConstVector(idx, x->lanes), "");
}

/* Stores every register the block changed, keeping them changed (the path that calls the
 * handler; the other path goes on with the same values). */
static void
spill(sim_xl *x)
{
   for (unsigned r = 0; r < 128; r++)
      if (x->sd[r]) {
         LLVMValueRef i = k64(x, offsetof(sim_wave, s) + 4 * r);
         LLVMValueRef p = LLVMBuildGEP2(x->B, LLVMInt8TypeInContext(x->C), x->w, &i, 1, "");
         LLVMSetAlignment(LLVMBuildStore(x->B, x->s[r], p), 4);
      }
   for (unsigned r = 0; r < 256; r++)
      if (x->vd[r]) {
         LLVMValueRef i = k64(x, (uint64_t)r * 256);
         LLVMValueRef p = LLVMBuildGEP2(x->B, LLVMInt8TypeInContext(x->C), x->vb, &i, 1, "");
         LLVMSetAlignment(LLVMBuildStore(x->B, x->v[r], p), 4);
      }
   if (x->sccd) {
      LLVMValueRef i = k64(x, offsetof(sim_wave, scc));
      LLVMValueRef p = LLVMBuildGEP2(x->B, LLVMInt8TypeInContext(x->C), x->w, &i, 1, "");
      LLVMSetAlignment(LLVMBuildStore(x->B, x->scc, p), 4);
   }
}

static LLVMValueRef
row_load(sim_xl *x, unsigned r)
{
   LLVMValueRef i = k64(x, (uint64_t)r * 256);
   LLVMValueRef p = LLVMBuildGEP2(x->B, LLVMInt8TypeInContext(x->C), x->vb, &i, 1, "");
   LLVMValueRef v = LLVMBuildLoad2(x->B, x->v32, p, "");
   LLVMSetAlignment(v, 4);
   return v;
}

/* Lanes of a segment: one host vector register of dwords (AVX-512). */
#define SEG 16u

/* i1: every lane active and, in each segment of SEG lanes, lane i at the segment's first
 * lane's lo + i * step (step 0: one address a segment), that lo not wrapping. A 2D
 * work-group 16 wide makes the rows of an image or matrix such segments. */
static LLVMValueRef
seg_pattern(sim_xl *x, LLVMValueRef exec, LLVMValueRef lo, uint32_t step)
{
   LLVMBuilderRef B = x->B;
   LLVMValueRef first[64], steps[64];
   for (unsigned l = 0; l < x->lanes; l++) {
      first[l] = k32(x, l & ~(SEG - 1));
      steps[l] = k32(x, (l & (SEG - 1)) * step);
   }
   LLVMValueRef base = LLVMBuildShuffleVector(B, lo, LLVMGetUndef(x->v32),
                                              LLVMConstVector(first, x->lanes), "");
   LLVMValueRef want = LLVMBuildAdd(B, base, LLVMConstVector(steps, x->lanes), "");
   LLVMValueRef eq = LLVMBuildICmp(B, LLVMIntEQ, lo, want, "");
   LLVMValueRef wrap = LLVMBuildICmp(B, LLVMIntUGT, base,
                                     sim__xl_splat(x, k32(x, UINT32_MAX - (SEG - 1) * step),
                                                   x->v32), "");
   LLVMValueRef ok = LLVMBuildAnd(B, eq, LLVMBuildNot(B, wrap, ""), "");
   LLVMValueRef ones = LLVMConstAllOnes(x->mask_t);
   LLVMValueRef all = LLVMBuildICmp(B, LLVMIntEQ, LLVMBuildBitCast(B, ok, x->mask_t, ""), ones, "");
   return LLVMBuildAnd(B, LLVMBuildICmp(B, LLVMIntEQ, exec, ones, ""), all, "");
}

/* Segment `q`'s host address (its first lane's). */
static LLVMValueRef
seg_at(sim_xl *x, LLVMValueRef host, LLVMValueRef lo, unsigned q)
{
   return host_at(x, host, LLVMBuildExtractElement(x->B, lo, k32(x, q * SEG), ""));
}

/* The row made of the segments' vectors `seg[0..lanes / SEG)`. */
static LLVMValueRef
seg_join(sim_xl *x, LLVMValueRef *seg)
{
   LLVMValueRef idx[64];
   LLVMValueRef v[4];
   unsigned nseg = x->lanes / SEG, w = SEG;
   for (unsigned q = 0; q < nseg; q++)
      v[q] = seg[q];
   while (nseg > 1) {
      for (unsigned i = 0; i < 2 * w; i++)
         idx[i] = k32(x, i);
      for (unsigned q = 0; q < nseg / 2; q++)
         v[q] = LLVMBuildShuffleVector(x->B, v[2 * q], v[2 * q + 1], LLVMConstVector(idx, 2 * w),
                                       "");
      nseg /= 2, w *= 2;
   }
   return v[0];
}
static LLVMValueRef
seg_part(sim_xl *x, LLVMValueRef row, unsigned q)
{
   LLVMValueRef idx[SEG];
   for (unsigned i = 0; i < SEG; i++)
      idx[i] = k32(x, q * SEG + i);
   return LLVMBuildShuffleVector(x->B, row, LLVMGetUndef(x->v32), LLVMConstVector(idx, SEG), "");
}

/* The fast path's loads into rows[0..n), from lanes at host + lo: dwords in consecutive
 * segments (one vector load a segment; n > 1: one load of the whole wave, unit stride),
 * one address a segment (one dword each, n = 1), else gathers. */
static void
emit_fast_load(sim_xl *x, LLVMValueRef host, LLVMValueRef lo, LLVMValueRef exec,
               LLVMValueRef m, LLVMValueRef *old, unsigned n, LLVMValueRef *rows,
               LLVMBasicBlockRef *from)
{
   LLVMBuilderRef B = x->B;
   LLVMTypeRef segt = LLVMVectorType(x->i32, SEG);
   LLVMBasicBlockRef ub = bb(x), gb = bb(x), join = bb(x), tb = n == 1 ? bb(x) : gb, sb = NULL;
   LLVMBuildCondBr(B, n == 1 ? seg_pattern(x, exec, lo, 4) : unit_stride(x, exec, lo, 4 * n), ub,
                   tb);
   LLVMPositionBuilderAtEnd(B, ub);
   LLVMValueRef u[4], sc = NULL;
   if (n == 1) {
      LLVMValueRef seg[4];
      for (unsigned q = 0; q < x->lanes / SEG; q++) {
         seg[q] = LLVMBuildLoad2(B, segt, seg_at(x, host, lo, q), "");
         LLVMSetAlignment(seg[q], 4);
      }
      u[0] = seg_join(x, seg);
   } else {
      LLVMValueRef p = host_at(x, host, LLVMBuildExtractElement(B, lo, k32(x, 0), ""));
      LLVMValueRef all = LLVMBuildLoad2(B, LLVMVectorType(x->i32, n * x->lanes), p, "");
      LLVMSetAlignment(all, 4);
      for (unsigned k = 0; k < n; k++)
         u[k] = deinterleave(x, all, n, k);
   }
   LLVMBuildBr(B, join);
   if (n == 1) {
      sb = bb(x);
      LLVMPositionBuilderAtEnd(B, tb);
      LLVMBuildCondBr(B, seg_pattern(x, exec, lo, 0), sb, gb);
      LLVMPositionBuilderAtEnd(B, sb);
      LLVMValueRef seg[4];
      for (unsigned q = 0; q < x->lanes / SEG; q++) {
         LLVMValueRef d = LLVMBuildLoad2(B, x->i32, seg_at(x, host, lo, q), "");
         LLVMSetAlignment(d, 4);
         LLVMValueRef e = LLVMBuildInsertElement(B, LLVMGetUndef(segt), d, k32(x, 0), "");
         seg[q] = LLVMBuildShuffleVector(B, e, e, LLVMConstNull(segt), "");
      }
      sc = seg_join(x, seg);
      LLVMBuildBr(B, join);
   }
   LLVMPositionBuilderAtEnd(B, gb);
   LLVMValueRef g[4];
   for (unsigned k = 0; k < n; k++) {
      LLVMValueRef args[4] = {lane_ptrs(x, host, lo, k), k32(x, 4), m, old[k]};
      LLVMTypeRef t[2] = {x->v32, LLVMVectorType(x->ptr, x->lanes)};
      g[k] = sim__xl_intrin(x, "llvm.masked.gather", t, 2, args, 4);
   }
   LLVMBuildBr(B, join);
   LLVMPositionBuilderAtEnd(B, join);
   for (unsigned k = 0; k < n; k++) {
      rows[k] = LLVMBuildPhi(B, x->v32, "");
      LLVMValueRef vals[3] = {u[k], g[k], sc};
      LLVMBasicBlockRef bbs[3] = {ub, gb, sb};
      LLVMAddIncoming(rows[k], vals, bbs, n == 1 ? 3 : 2);
   }
   *from = join;
}

/* The fast path's store of data[0..n) to lanes at host + lo: consecutive segments (one
 * vector store a segment, in lane order; n > 1: the whole wave, unit stride), else (n = 1)
 * a scatter; `slow` takes the multi-dword forms that are neither. */
static void
emit_fast_store(sim_xl *x, const sim_inst *in, LLVMValueRef host, LLVMValueRef lo,
                LLVMValueRef exec, LLVMValueRef m, LLVMValueRef *data, unsigned n,
                LLVMBasicBlockRef slow, LLVMBasicBlockRef done)
{
   LLVMBuilderRef B = x->B;
   LLVMBasicBlockRef ub = bb(x), gb = n == 1 ? bb(x) : slow;
   LLVMBuildCondBr(B, n == 1 ? seg_pattern(x, exec, lo, 4) : unit_stride(x, exec, lo, 4 * n), ub,
                   gb);
   LLVMPositionBuilderAtEnd(B, ub);
   if (n == 1) {
      for (unsigned q = 0; q < x->lanes / SEG; q++)
         LLVMSetAlignment(LLVMBuildStore(B, seg_part(x, data[0], q), seg_at(x, host, lo, q)), 4);
   } else {
      LLVMValueRef p = host_at(x, host, LLVMBuildExtractElement(B, lo, k32(x, 0), ""));
      LLVMSetAlignment(LLVMBuildStore(B, interleave(x, data, n), p), 4);
   }
   if (sim__xlate_mode == 2)
      sim__xl_hook(x, sim__xlate_check_store_post, in);
   LLVMBuildBr(B, done);
   if (n != 1)
      return;
   LLVMPositionBuilderAtEnd(B, gb);
   LLVMValueRef args[4] = {data[0], lane_ptrs(x, host, lo, 0), k32(x, 4), m};
   LLVMTypeRef t[2] = {x->v32, LLVMVectorType(x->ptr, x->lanes)};
   sim__xl_intrin(x, "llvm.masked.scatter", t, 2, args, 4);
   if (sim__xlate_mode == 2)
      sim__xl_hook(x, sim__xlate_check_store_post, in);
   LLVMBuildBr(B, done);
}

void
sim__xl_emit_mem(sim_xl *x, const sim_inst *in, uint64_t pc)
{
   LLVMBuilderRef B = x->B;
   bool store;
   unsigned n = mem_dwords(in, &store);
   unsigned d = store ? in->mem.data0 : in->vdst;
   if (store && sim__xlate_mode == 2) {
      sim__xl_flush(x, false);
      sim__xl_hook(x, sim__xlate_check_store_pre, in);
   }
   LLVMValueRef exec = sim__xl_mget(x, SIM_SRC_EXEC);
   LLVMValueRef m = LLVMBuildBitCast(B, exec, x->vm, "");
   LLVMValueRef lo = sim__xl_vget(x, in->mem.addr);
   LLVMValueRef rbase, uniform = LLVMConstInt(x->i1, 1, 0);
   if (mem_saddr(in)) {
      rbase = LLVMBuildAdd(B, sim__xl_sget64(x, in->mem.saddr), k64(x, mem_imm(in)), "");
   } else {
      LLVMValueRef hi = sim__xl_vget(x, in->mem.addr + 1);
      LLVMValueRef hmin = reduce(x, "llvm.vector.reduce.umin", hi, m, UINT32_MAX);
      LLVMValueRef hmax = reduce(x, "llvm.vector.reduce.umax", hi, m, 0);
      uniform = LLVMBuildICmp(B, LLVMIntEQ, hmin, hmax, "");
      rbase = LLVMBuildAdd(B, LLVMBuildShl(B, LLVMBuildZExt(B, hmin, x->i64, ""), k64(x, 32), ""),
                           k64(x, mem_imm(in)), "");
   }
   LLVMValueRef old[4], data[4];
   for (unsigned k = 0; k < n; k++) {
      old[k] = sim__xl_vget(x, d + k);
      data[k] = old[k];
   }
   if (!store && d + n > x->max_vgpr)
      x->max_vgpr = d + n;
   LLVMValueRef lmin = reduce(x, "llvm.vector.reduce.umin", lo, m, UINT32_MAX);
   LLVMValueRef lmax = reduce(x, "llvm.vector.reduce.umax", lo, m, 0);
   LLVMBasicBlockRef start = LLVMGetInsertBlock(B), test = bb(x), fast = bb(x), slow = bb(x);
   LLVMBasicBlockRef slow_ok = bb(x), done = bb(x);
   LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntNE, exec, LLVMConstNull(x->mask_t), ""), test,
                   done);

   /* One allocation for every active lane? */
   LLVMPositionBuilderAtEnd(B, test);
   LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(x->fn);
   LLVMBuilderRef eb = LLVMCreateBuilderInContext(x->C);
   if (LLVMGetFirstInstruction(entry))
      LLVMPositionBuilderBefore(eb, LLVMGetFirstInstruction(entry));
   else
      LLVMPositionBuilderAtEnd(eb, entry);
   LLVMValueRef out = LLVMBuildAlloca(eb, x->ptr, "");
   LLVMDisposeBuilder(eb);
   LLVMTypeRef pt[6] = {x->ptr, x->ptr, x->i64, x->i32, x->i32, x->ptr};
   LLVMTypeRef ft = LLVMFunctionType(x->i32, pt, 6, 0);
   LLVMValueRef f = LLVMConstIntToPtr(k64(x, (uint64_t)(uintptr_t)sim__xlate_mem_base), x->ptr);
   LLVMValueRef args[6] = {x->w, LLVMConstIntToPtr(k64(x, (uint64_t)(uintptr_t)in), x->ptr),
                           rbase, lmin, lmax, out};
   LLVMBasicBlockRef call = bb(x);
   LLVMBuildCondBr(B, uniform, call, slow);
   LLVMPositionBuilderAtEnd(B, call);
   LLVMValueRef ok = LLVMBuildCall2(B, ft, f, args, 6, "");
   LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntNE, ok, k32(x, 0), ""), fast, slow);

   /* Inline. */
   LLVMPositionBuilderAtEnd(B, fast);
   LLVMValueRef host = LLVMBuildLoad2(B, x->ptr, out, "");
   LLVMValueRef fast_rows[4];
   LLVMBasicBlockRef fast_end = NULL;
   if (store)
      emit_fast_store(x, in, host, lo, exec, m, data, n, slow, done);
   else {
      emit_fast_load(x, host, lo, exec, m, old, n, fast_rows, &fast_end);
      LLVMBuildBr(B, done);
   }

   /* Through the handler. */
   LLVMPositionBuilderAtEnd(B, slow);
   spill(x);
   LLVMValueRef rc = sim__xl_call(x, in, pc);
   LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntNE, rc, k32(x, 0), ""), x->exit, slow_ok);
   LLVMPositionBuilderAtEnd(B, slow_ok);
   LLVMValueRef slow_rows[4];
   for (unsigned k = 0; !store && k < n; k++)
      slow_rows[k] = row_load(x, d + k);
   LLVMBuildBr(B, done);

   LLVMPositionBuilderAtEnd(B, done);
   if (store)
      return;
   for (unsigned k = 0; k < n; k++) {
      LLVMValueRef phi = LLVMBuildPhi(B, x->v32, "");
      LLVMValueRef vals[3] = {old[k], fast_rows[k], slow_rows[k]};
      LLVMBasicBlockRef bbs[3] = {start, fast_end, slow_ok};
      LLVMAddIncoming(phi, vals, bbs, 3);
      x->v[d + k] = phi;
      x->vd[d + k] = true;
   }
}
