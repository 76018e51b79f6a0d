/*
 * The translator's lowering of memory instructions (docs/sim.md "Speed"): the dword loads
 * and stores of GLOBAL and FLAT (`*_load_dword`, `_dwordx2/x3/x4`, the same stores; and
 * the byte and short ones, `_load_ubyte/sbyte/ushort/sshort`, `_store_byte/short`), of the
 * LDS (`ds_read/write_b32/b64/b96/b128`, `ds_read2/write2(st64)_b32/b64`, "LDS" below),
 * the scalar loads (`s_load_dword*`, `s_buffer_load_dword*`, "Scalar loads" below) and
 * the scratch accesses (`buffer_load/store_dword*` of a private variable, "Scratch" below).
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
#include <string.h>
#include "sim_xlate_priv.h"

/* The byte and short forms: bytes a lane moves (1 or 2; 0 for the others), and whether a
 * load sign-extends. */
static unsigned
mem_sub(const sim_inst *in, bool *sx)
{
   *sx = false;
   switch (in->op) {
   case SIM_OP_global_load_sbyte: case SIM_OP_flat_load_sbyte: *sx = true; return 1;
   case SIM_OP_global_load_ubyte: case SIM_OP_flat_load_ubyte:
   case SIM_OP_global_store_byte: case SIM_OP_flat_store_byte:
      return 1;
   case SIM_OP_global_load_sshort: case SIM_OP_flat_load_sshort: *sx = true; return 2;
   case SIM_OP_global_load_ushort: case SIM_OP_flat_load_ushort:
   case SIM_OP_global_store_short: case SIM_OP_flat_store_short:
      return 2;
   default:
      return 0;
   }
}

/* Rows a lane's data fills (dwords; one for the byte and short forms), 0 if `in` is not one
 * of the lowered opcodes. */
static unsigned
mem_dwords(const sim_inst *in, bool *store)
{
   *store = false;
   switch (in->op) {
   case SIM_OP_global_load_ubyte: case SIM_OP_flat_load_ubyte:
   case SIM_OP_global_load_sbyte: case SIM_OP_flat_load_sbyte:
   case SIM_OP_global_load_ushort: case SIM_OP_flat_load_ushort:
   case SIM_OP_global_load_sshort: case SIM_OP_flat_load_sshort:
      return 1;
   case SIM_OP_global_store_byte: case SIM_OP_flat_store_byte:
   case SIM_OP_global_store_short: case SIM_OP_flat_store_short:
      *store = true;
      return 1;
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

/* Bytes a lane accesses. */
static unsigned
mem_bytes(const sim_inst *in)
{
   bool store, sx;
   unsigned sub = mem_sub(in, &sx);
   return sub ? sub : 4 * mem_dwords(in, &store);
}

/* GLOBAL with an SGPR base (SADDR not off): lane l's address is SGPR pair + VGPR[ADDR]. */
static bool
mem_saddr(const sim_inst *in)
{
   return in->enc == SIM_ENC_GLOBAL && in->mem.saddr != 0x7F;
}

static bool ds_lowered(const sim_inst *in);
static bool smem_lowered(const sim_inst *in);
static bool mubuf_lowered(const sim_inst *in);

/* The vector cache invalidations (gfx9's buffer_wbinvl1{_vol}, gfx10's buffer_gl0_inv and
 * buffer_gl1_inv): their handlers touch the L1/GL1 model of the checking mode alone
 * (sim_l1.c: nothing without it), never the wave's registers, so the block calls them as
 * they are, without storing its registers first. */
static bool
cache_inv(const sim_inst *in)
{
   return in->op == SIM_OP_buffer_wbinvl1 || in->op == SIM_OP_buffer_wbinvl1_vol ||
          in->op == SIM_OP_buffer_gl0_inv || in->op == SIM_OP_buffer_gl1_inv;
}

bool
sim__xl_mem_lowered(const sim_inst *in)
{
   if (in->enc == SIM_ENC_DS)
      return ds_lowered(in);
   if (in->enc == SIM_ENC_SMEM)
      return smem_lowered(in);
   if (in->enc == SIM_ENC_MUBUF)
      return cache_inv(in) || mubuf_lowered(in);
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

/* The block's next run of `in` checks against `a` inline (last_alloc), unless a
 * work-group's scratch window could overlap it (alloc_plain's test depends on the
 * work-group; allocations lie below the window). */
static void
xlast_fill(sim_wave *w, const sim_inst *in, const sim_alloc *a)
{
   if (a->va + a->reach > SIM_SCRATCH_VA)
      return;
   struct sim_xlast *s = &w->wg->xlast[sim__xlast_slot(in)];
   s->in = in;
   s->va = a->va;
   s->end = a->va + a->reach;
   s->delta = (uintptr_t)a->view - (uintptr_t)a->va;
}

int
sim__xlate_mem_base(sim_wave *w, const sim_inst *in, uint64_t rbase, uint32_t lmin,
                    uint32_t lmax, uint8_t **host)
{
   bool store;
   mem_dwords(in, &store);
   uint64_t bytes = mem_bytes(in);
   uint64_t lo = rbase + lmin, span = (uint64_t)(lmax - lmin) + bytes;
   if (lo < rbase || lo + span < lo)
      return 0; /* wraps around the address space: the handler faults */
   const sim_alloc *a = sim__vm_direct(w, in, lo, span, store);
   if (!a)
      return 0;
   /* rbase may lie below the allocation (the lanes' offsets bring the accesses into it):
    * the host base is computed as an integer, since a pointer outside the allocation's
    * object is undefined in C (UBSan's pointer-overflow; fuzz_xlate found it). */
   *host = (uint8_t *)((uintptr_t)a->view + (uintptr_t)(rbase - a->va));
   xlast_fill(w, in, a);
   return 1;
}

static bool ds_range(sim_wave *w, const sim_inst *in, uint8_t **at, size_t *len);
static bool mubuf_range(sim_wave *w, const sim_inst *in, uint8_t **at, size_t *len,
                        uint8_t **mask);

/* The address lane `l` of GLOBAL/FLAT access `in` reaches. */
static uint64_t
lane_va(sim_wave *w, const sim_inst *in, unsigned l)
{
   uint64_t va = w->v[in->mem.addr][l];
   if (mem_saddr(in))
      va += sim__sread64(w, in, in->mem.saddr, SIM_K_B64);
   else
      va |= (uint64_t)w->v[in->mem.addr + 1][l] << 32;
   return va + mem_imm(in);
}

bool
sim__xlate_mem_range(sim_wave *w, const sim_inst *in, uint8_t **at, size_t *len,
                     uint8_t **mask)
{
   if (mask)
      *mask = NULL;
   if (in->enc == SIM_ENC_DS)
      return ds_range(w, in, at, len);
   if (in->enc == SIM_ENC_MUBUF)
      return mubuf_range(w, in, at, len, mask);
   uint64_t bytes = mem_bytes(in);
   uint64_t m = SIM_EXEC(w), lo = UINT64_MAX, hi = 0, vas[64];
   if (!m)
      return false;
   for (unsigned l = 0; l < 64; l++) {
      if (!((m >> l) & 1))
         continue;
      uint64_t va = vas[l] = lane_va(w, in, l);
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
   if (mask && *len <= SIM_XLATE_CHECK_SNAP_MAX) {
      *mask = calloc(*len, 1);
      if (!*mask)
         return false;
      for (unsigned l = 0; l < 64; l++)
         if ((m >> l) & 1)
            memset(*mask + (vas[l] - lo), 1, bytes);
   }
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

/* Is `exec` the constant of every held lane, or of one lane (`*lane`)? */
static bool
exec_const_all(sim_xl *x, LLVMValueRef exec)
{
   uint64_t all = x->lanes == 64 ? ~0ull : (1ull << x->lanes) - 1;
   return LLVMIsAConstantInt(exec) && LLVMConstIntGetZExtValue(exec) == all;
}
static bool
exec_const_one(sim_xl *x, LLVMValueRef exec, unsigned *lane)
{
   if (!LLVMIsAConstantInt(exec))
      return false;
   uint64_t e = LLVMConstIntGetZExtValue(exec);
   *lane = e ? (unsigned)__builtin_ctzll(e) : 0;
   return e && !(e & (e - 1));
}

/* The lowest and highest of `row` over the active lanes (`m`, EXEC `exec`). Under a
 * constant EXEC of one lane, that lane's; of every held lane, when the row is at unit
 * stride `step` from its first lane (`*unit`, the i1 of unit_stride), its first and last
 * lanes', else (and otherwise) two masked reductions, which had been a quarter of vadd's
 * launch. `*unit` is NULL when not tested. */
static void
row_range(sim_xl *x, LLVMValueRef exec, LLVMValueRef m, LLVMValueRef row, uint32_t step,
          LLVMValueRef *min, LLVMValueRef *max, LLVMValueRef *unit)
{
   LLVMBuilderRef B = x->B;
   unsigned lane;
   *unit = NULL;
   if (exec_const_one(x, exec, &lane)) {
      *min = *max = LLVMBuildExtractElement(B, row, k32(x, lane), "");
      return;
   }
   if (!exec_const_all(x, exec) || !step) {
      *min = reduce(x, "llvm.vector.reduce.umin", row, m, UINT32_MAX);
      *max = reduce(x, "llvm.vector.reduce.umax", row, m, 0);
      return;
   }
   *unit = unit_stride(x, exec, row, step);
   LLVMBasicBlockRef ub = bb(x), rb = bb(x), join = bb(x);
   LLVMBuildCondBr(B, *unit, ub, rb);
   LLVMPositionBuilderAtEnd(B, ub);
   LLVMValueRef l0 = LLVMBuildExtractElement(B, row, k32(x, 0), "");
   LLVMValueRef ul[2] = {l0, LLVMBuildAdd(B, l0, k32(x, (x->lanes - 1) * step), "")};
   LLVMBuildBr(B, join);
   LLVMPositionBuilderAtEnd(B, rb);
   LLVMValueRef rl[2] = {reduce(x, "llvm.vector.reduce.umin", row, m, UINT32_MAX),
                         reduce(x, "llvm.vector.reduce.umax", row, m, 0)};
   LLVMBuildBr(B, join);
   LLVMPositionBuilderAtEnd(B, join);
   LLVMBasicBlockRef from[2] = {ub, rb};
   for (unsigned k = 0; k < 2; k++) {
      LLVMValueRef phi = LLVMBuildPhi(B, x->i32, ""), vals[2] = {ul[k], rl[k]};
      LLVMAddIncoming(phi, vals, from, 2);
      *(k ? max : min) = phi;
   }
}

/* i1: the row holds one value over the active lanes, which is `*v` (the high words of a
 * lane's 64-bit address). */
static LLVMValueRef
row_uniform(sim_xl *x, LLVMValueRef exec, LLVMValueRef m, LLVMValueRef row, LLVMValueRef *v)
{
   LLVMBuilderRef B = x->B;
   unsigned lane;
   if (exec_const_one(x, exec, &lane)) {
      *v = LLVMBuildExtractElement(B, row, k32(x, lane), "");
      return LLVMConstInt(x->i1, 1, 0);
   }
   if (exec_const_all(x, exec)) {
      *v = LLVMBuildExtractElement(B, row, k32(x, 0), "");
      LLVMValueRef eq = LLVMBuildICmp(B, LLVMIntEQ, row, sim__xl_splat(x, *v, x->v32), "");
      return LLVMBuildICmp(B, LLVMIntEQ, LLVMBuildBitCast(B, eq, x->mask_t, ""),
                           LLVMConstAllOnes(x->mask_t), "");
   }
   LLVMValueRef hmin = reduce(x, "llvm.vector.reduce.umin", row, m, UINT32_MAX);
   LLVMValueRef hmax = reduce(x, "llvm.vector.reduce.umax", row, m, 0);
   *v = hmin;
   return LLVMBuildICmp(B, LLVMIntEQ, hmin, hmax, "");
}

/* The host pointers to dword `k` of the elements of `lo` (a row, or write2's two rows
 * interleaved): host + lo[l] + 4k, written as (host + 2^31 + 4k) + sext(lo[l] - 2^31) so
 * that the host's gathers and scatters take 32-bit indices (16 lanes an instruction on
 * AVX-512; 64-bit pointers take 8 and a row of them eight registers). */
static LLVMValueRef
lane_ptrs(sim_xl *x, LLVMValueRef host, LLVMValueRef lo, unsigned k)
{
   LLVMBuilderRef B = x->B;
   LLVMTypeRef i8 = LLVMInt8TypeInContext(x->C);
   unsigned n = LLVMGetVectorSize(LLVMTypeOf(lo));
   LLVMValueRef off = k64(x, 0x80000000ull + 4 * k), sign[128];
   LLVMValueRef base = LLVMBuildGEP2(B, i8, host, &off, 1, "");
   for (unsigned i = 0; i < n; i++)
      sign[i] = k32(x, 0x80000000u);
   LLVMValueRef idx = LLVMBuildXor(B, lo, LLVMConstVector(sign, n), "");
   idx = LLVMBuildSExt(B, idx, LLVMVectorType(x->i64, n), "");
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

void
sim__xl_spill(sim_xl *x)
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

LLVMValueRef
sim__xl_row_load(sim_xl *x, unsigned r)
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

/* One active lane (EXEC a power of two; the caller has tested it non-zero): a one-work-item
 * work-group's wave (copy1; CTS test_basic's imagedim_*). Its accesses are scalar loads and
 * stores at that lane's address: a gather or scatter costs the instructions of 64 lanes
 * (four 16-lane vpgatherdd, about 9% of copy1's time) for one. `*lane` is its index. */
static LLVMValueRef
one_lane(sim_xl *x, LLVMValueRef exec, LLVMValueRef *lane)
{
   LLVMBuilderRef B = x->B;
   LLVMValueRef below = LLVMBuildSub(B, exec, LLVMConstInt(x->mask_t, 1, 0), "");
   LLVMValueRef one = LLVMBuildICmp(B, LLVMIntEQ, LLVMBuildAnd(B, exec, below, ""),
                                    LLVMConstNull(x->mask_t), "");
   LLVMTypeRef t = x->mask_t;
   LLVMValueRef args[2] = {exec, LLVMConstInt(x->i1, 0, 0)};
   LLVMValueRef l = sim__xl_intrin(x, "llvm.cttz", &t, 1, args, 2);
   *lane = LLVMGetIntTypeWidth(x->mask_t) == 32 ? l : LLVMBuildTrunc(B, l, x->i32, "");
   return one;
}

/* Dword `k` of lane `lane`'s access at host + lo[lane]. */
static LLVMValueRef
lane_at(sim_xl *x, LLVMValueRef host, LLVMValueRef lo, LLVMValueRef lane, unsigned k)
{
   LLVMValueRef p = host_at(x, host, LLVMBuildExtractElement(x->B, lo, lane, ""));
   LLVMValueRef o = k64(x, 4 * k);
   return LLVMBuildGEP2(x->B, LLVMInt8TypeInContext(x->C), p, &o, 1, "");
}

/* To `yes` when the lanes' `n` dwords lie in consecutive segments (n = 1: seg_pattern) or
 * at unit stride (n > 1), else to `no`; `unit` (row_range's test, or NULL) says unit stride
 * already, which is consecutive segments too. */
static void
pattern_branch(sim_xl *x, LLVMValueRef exec, LLVMValueRef lo, unsigned n, LLVMValueRef unit,
               LLVMBasicBlockRef yes, LLVMBasicBlockRef no)
{
   if (unit && n > 1) {
      LLVMBuildCondBr(x->B, unit, yes, no);
      return;
   }
   if (unit) {
      LLVMBasicBlockRef seg = bb(x);
      LLVMBuildCondBr(x->B, unit, yes, seg);
      LLVMPositionBuilderAtEnd(x->B, seg);
   }
   LLVMBuildCondBr(x->B, n == 1 ? seg_pattern(x, exec, lo, 4) : unit_stride(x, exec, lo, 4 * n),
                   yes, no);
}

/* The fast path's loads into rows[0..n), from lanes at host + lo: dwords in consecutive
 * segments (one vector load a segment; n > 1: one load of the whole wave, unit stride),
 * one address a segment (one dword each, n = 1), else gathers. */
static void
emit_fast_load(sim_xl *x, LLVMValueRef host, LLVMValueRef lo, LLVMValueRef exec,
               LLVMValueRef m, LLVMValueRef unit, LLVMValueRef *old, unsigned n,
               LLVMValueRef *rows, LLVMBasicBlockRef *from)
{
   LLVMBuilderRef B = x->B;
   LLVMTypeRef segt = LLVMVectorType(x->i32, SEG);
   /* Fewer lanes than a segment (a one-lane block): one lane, else gathers. */
   bool segs = x->lanes >= SEG;
   LLVMBasicBlockRef gb = bb(x), join = bb(x), ub = segs ? bb(x) : NULL;
   LLVMBasicBlockRef tb = segs && n == 1 ? bb(x) : gb, sb = NULL;
   LLVMBasicBlockRef ob = bb(x), many = bb(x);
   LLVMValueRef lane, o[4], u[4] = {NULL, NULL, NULL, NULL}, sc = NULL;
   LLVMBuildCondBr(B, one_lane(x, exec, &lane), ob, many);
   LLVMPositionBuilderAtEnd(B, ob);
   for (unsigned k = 0; k < n; k++) {
      LLVMValueRef d = LLVMBuildLoad2(B, x->i32, lane_at(x, host, lo, lane, k), "");
      LLVMSetAlignment(d, 4);
      o[k] = LLVMBuildInsertElement(B, old[k], d, lane, "");
   }
   LLVMBuildBr(B, join);
   LLVMPositionBuilderAtEnd(B, many);
   if (!segs) {
      LLVMBuildBr(B, gb);
      goto gather;
   }
   pattern_branch(x, exec, lo, n, unit, ub, tb);
   LLVMPositionBuilderAtEnd(B, ub);
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
gather:
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
      LLVMValueRef vals[4] = {o[k], g[k], u[k], sc};
      LLVMBasicBlockRef bbs[4] = {ob, gb, ub, sb};
      LLVMAddIncoming(rows[k], vals, bbs, !segs ? 2 : n == 1 ? 4 : 3);
   }
   *from = join;
}

/* The fast path's store of data[0..n) to lanes at host + lo: consecutive segments (one
 * vector store a segment, in lane order; n > 1: the whole wave, unit stride), else (n = 1)
 * a scatter; `slow` takes the multi-dword forms that are neither. */
static void
emit_fast_store(sim_xl *x, const sim_inst *in, LLVMValueRef host, LLVMValueRef lo,
                LLVMValueRef exec, LLVMValueRef m, LLVMValueRef unit, LLVMValueRef *data,
                unsigned n, LLVMBasicBlockRef slow, LLVMBasicBlockRef done)
{
   LLVMBuilderRef B = x->B;
   bool segs = x->lanes >= SEG; /* as emit_fast_load's */
   LLVMBasicBlockRef ub = segs ? bb(x) : NULL, gb = n == 1 ? bb(x) : slow;
   /* One lane: its dwords in order, as the handler stores them (no other lane to overlap). */
   LLVMBasicBlockRef ob = bb(x), many = bb(x);
   LLVMValueRef lane;
   LLVMBuildCondBr(B, one_lane(x, exec, &lane), ob, many);
   LLVMPositionBuilderAtEnd(B, ob);
   for (unsigned k = 0; k < n; k++)
      LLVMSetAlignment(LLVMBuildStore(B, LLVMBuildExtractElement(B, data[k], lane, ""),
                                      lane_at(x, host, lo, lane, k)),
                       4);
   if (sim__xlate_mode == 2)
      sim__xl_hook(x, sim__xlate_check_store_post, in);
   LLVMBuildBr(B, done);
   LLVMPositionBuilderAtEnd(B, many);
   if (!segs) {
      LLVMBuildBr(B, gb);
      goto scatter;
   }
   pattern_branch(x, exec, lo, n, unit, ub, gb);
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
scatter:
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

/* The fast path of the byte and short forms (`size` bytes a lane at host + lo[l]): a masked
 * gather of i8/i16, zero- or sign-extended (`sx`), into EXEC's lanes of the row `old`
 * (rows[0]); a store, a masked scatter of the row's low bytes in lane order (a later lane's
 * store to the same address wins, as the handler's lane loop). */
static void
emit_fast_sub(sim_xl *x, const sim_inst *in, LLVMValueRef host, LLVMValueRef lo,
              LLVMValueRef m, LLVMValueRef old, unsigned size, bool sx, bool store,
              LLVMValueRef *rows)
{
   LLVMBuilderRef B = x->B;
   LLVMTypeRef et = LLVMIntTypeInContext(x->C, 8 * size), vt = LLVMVectorType(et, x->lanes);
   LLVMTypeRef t[2] = {vt, LLVMVectorType(x->ptr, x->lanes)};
   LLVMValueRef ptrs = lane_ptrs(x, host, lo, 0);
   if (store) {
      LLVMValueRef args[4] = {LLVMBuildTrunc(B, old, vt, ""), ptrs, k32(x, 1), m};
      sim__xl_intrin(x, "llvm.masked.scatter", t, 2, args, 4);
      if (sim__xlate_mode == 2)
         sim__xl_hook(x, sim__xlate_check_store_post, in);
      return;
   }
   LLVMValueRef args[4] = {ptrs, k32(x, 1), m, LLVMGetUndef(vt)};
   LLVMValueRef v = sim__xl_intrin(x, "llvm.masked.gather", t, 2, args, 4);
   v = sx ? LLVMBuildSExt(B, v, x->v32, "") : LLVMBuildZExt(B, v, x->v32, "");
   rows[0] = LLVMBuildSelect(B, m, v, old, "");
}

/* The fields of `in`'s sim_wg.xlast slot: in, va, end, delta (f[0..4)). */
static void
xlast_load(sim_xl *x, const sim_inst *in, LLVMValueRef *f)
{
   LLVMBuilderRef B = x->B;
   LLVMTypeRef i8 = LLVMInt8TypeInContext(x->C);
   LLVMValueRef i = k64(x, offsetof(sim_wave, wg));
   LLVMValueRef wg = LLVMBuildLoad2(B, x->ptr, LLVMBuildGEP2(B, i8, x->w, &i, 1, ""), "");
   size_t slot = offsetof(sim_wg, xlast) + sim__xlast_slot(in) * sizeof(struct sim_xlast);
   static const size_t at[4] = {offsetof(struct sim_xlast, in), offsetof(struct sim_xlast, va),
                                offsetof(struct sim_xlast, end),
                                offsetof(struct sim_xlast, delta)};
   for (unsigned k = 0; k < 4; k++) {
      i = k64(x, slot + at[k]);
      f[k] = LLVMBuildLoad2(B, k ? x->i64 : x->ptr, LLVMBuildGEP2(B, i8, wg, &i, 1, ""), "");
   }
}

/* i1: `in`'s accesses, rbase + lmin to rbase + lmax + bytes, lie in the allocation
 * sim__xlate_mem_base last accepted for `in` on this thread in this dispatch (sim_wg.xlast;
 * matmul's two loads alternate between two buffers, which the translation cache's first
 * entry could not hold both of); `*host` = the host address of rbase then. */
static LLVMValueRef
last_alloc(sim_xl *x, const sim_inst *in, LLVMValueRef rbase, LLVMValueRef lmin,
           LLVMValueRef lmax, unsigned bytes, LLVMValueRef *host)
{
   LLVMBuilderRef B = x->B;
   LLVMValueRef f[4];
   xlast_load(x, in, f);
   LLVMValueRef lo = LLVMBuildAdd(B, rbase, LLVMBuildZExt(B, lmin, x->i64, ""), "");
   LLVMValueRef hi = LLVMBuildAdd(B, LLVMBuildAdd(B, rbase, LLVMBuildZExt(B, lmax, x->i64, ""), ""),
                                  k64(x, bytes), "");
   LLVMValueRef me = LLVMConstIntToPtr(k64(x, (uint64_t)(uintptr_t)in), x->ptr);
   LLVMValueRef ok = LLVMBuildICmp(B, LLVMIntEQ, f[0], me, "");
   ok = LLVMBuildAnd(B, ok, LLVMBuildICmp(B, LLVMIntUGE, lo, rbase, ""), "");
   ok = LLVMBuildAnd(B, ok, LLVMBuildICmp(B, LLVMIntUGE, hi, lo, ""), "");
   ok = LLVMBuildAnd(B, ok, LLVMBuildICmp(B, LLVMIntUGE, lo, f[1], ""), "");
   ok = LLVMBuildAnd(B, ok, LLVMBuildICmp(B, LLVMIntULE, hi, f[2], ""), "");
   *host = LLVMBuildIntToPtr(B, LLVMBuildAdd(B, f[3], rbase, ""), x->ptr, "");
   return ok;
}

/* The handler's path of lowered vector access `in` (from `slow`, on to `slow_ok`, or out of
 * the block when it faulted), then, for a load, the join at `done` of its `n` destination
 * rows from VGPR `d`: what they held when `start` branched there, the fast path's values
 * (from `fast_end`) and what the handler wrote. */
static void
emit_handler_join(sim_xl *x, const sim_inst *in, uint64_t pc, bool store, unsigned d,
                  unsigned n, LLVMBasicBlockRef slow, LLVMBasicBlockRef slow_ok,
                  LLVMBasicBlockRef done, LLVMBasicBlockRef start, const LLVMValueRef *old,
                  const LLVMValueRef *fast_rows, LLVMBasicBlockRef fast_end)
{
   LLVMBuilderRef B = x->B;
   LLVMPositionBuilderAtEnd(B, slow);
   sim__xl_spill(x);
   LLVMValueRef rc = sim__xl_call(x, in, pc);
   LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntNE, rc, k32(x, 0), ""), x->exit, slow_ok);
   LLVMPositionBuilderAtEnd(B, slow_ok);
   LLVMValueRef slow_rows[4];
   for (unsigned k = 0; !store && k < n; k++)
      slow_rows[k] = sim__xl_row_load(x, d + k);
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

/* The checking mode: a lowered store's bytes are taken before it (sim__xlate_check_store_pre)
 * with the registers flushed, so the hook reads what the block computed. */
static void
check_store_pre(sim_xl *x, const sim_inst *in, bool store)
{
   if (store && sim__xlate_mode == 2) {
      sim__xl_flush(x, false);
      sim__xl_hook(x, sim__xlate_check_store_pre, in);
   }
}

/* Shared with sim_xlate_f16.c (sim_xlate_priv.h). */
LLVMValueRef
sim__xl_entry_alloca(sim_xl *x, LLVMTypeRef t)
{
   LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(x->fn);
   LLVMBuilderRef eb = LLVMCreateBuilderInContext(x->C);
   if (LLVMGetFirstInstruction(entry))
      LLVMPositionBuilderBefore(eb, LLVMGetFirstInstruction(entry));
   else
      LLVMPositionBuilderAtEnd(eb, entry);
   LLVMValueRef out = LLVMBuildAlloca(eb, t, "");
   LLVMDisposeBuilder(eb);
   return out;
}

static void
emit_vmem(sim_xl *x, const sim_inst *in, uint64_t pc)
{
   LLVMBuilderRef B = x->B;
   bool store;
   unsigned n = mem_dwords(in, &store);
   unsigned d = store ? in->mem.data0 : in->vdst;
   check_store_pre(x, in, store);
   LLVMValueRef exec = sim__xl_mget(x, SIM_SRC_EXEC);
   LLVMValueRef m = LLVMBuildBitCast(B, exec, x->vm, "");
   LLVMValueRef lo = sim__xl_vget(x, in->mem.addr);
   LLVMValueRef rbase, uniform = LLVMConstInt(x->i1, 1, 0);
   if (mem_saddr(in)) {
      rbase = LLVMBuildAdd(B, sim__xl_sget64(x, in->mem.saddr), k64(x, mem_imm(in)), "");
   } else {
      LLVMValueRef h;
      uniform = row_uniform(x, exec, m, sim__xl_vget(x, in->mem.addr + 1), &h);
      rbase = LLVMBuildAdd(B, LLVMBuildShl(B, LLVMBuildZExt(B, h, x->i64, ""), k64(x, 32), ""),
                           k64(x, mem_imm(in)), "");
   }
   LLVMValueRef old[4], data[4];
   for (unsigned k = 0; k < n; k++) {
      old[k] = sim__xl_vget(x, d + k);
      data[k] = old[k];
   }
   if (!store && d + n > x->max_vgpr)
      x->max_vgpr = d + n;
   bool sx;
   unsigned sub = mem_sub(in, &sx);
   LLVMValueRef lmin, lmax, unit;
   row_range(x, exec, m, lo, sub ? 0 : 4 * n, &lmin, &lmax, &unit);
   LLVMBasicBlockRef start = LLVMGetInsertBlock(B), test = bb(x), fast = bb(x), slow = bb(x);
   LLVMBasicBlockRef slow_ok = bb(x), done = bb(x);
   LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntNE, exec, LLVMConstNull(x->mask_t), ""), test,
                   done);

   /* One allocation for every active lane? */
   LLVMPositionBuilderAtEnd(B, test);
   LLVMValueRef out = sim__xl_entry_alloca(x, x->ptr); /* sim__xlate_mem_base fills it */
   LLVMTypeRef pt[6] = {x->ptr, x->ptr, x->i64, x->i32, x->i32, x->ptr};
   LLVMTypeRef ft = LLVMFunctionType(x->i32, pt, 6, 0);
   LLVMValueRef f = LLVMConstIntToPtr(k64(x, (uint64_t)(uintptr_t)sim__xlate_mem_base), x->ptr);
   LLVMValueRef args[6] = {x->w, LLVMConstIntToPtr(k64(x, (uint64_t)(uintptr_t)in), x->ptr),
                           rbase, lmin, lmax, out};
   LLVMBasicBlockRef look = bb(x), call = bb(x), called = bb(x);
   LLVMBuildCondBr(B, uniform, look, slow);
   LLVMPositionBuilderAtEnd(B, look);
   LLVMValueRef last_host;
   LLVMBuildCondBr(B, last_alloc(x, in, rbase, lmin, lmax, mem_bytes(in), &last_host), fast,
                   call);
   LLVMPositionBuilderAtEnd(B, call);
   LLVMValueRef ok = LLVMBuildCall2(B, ft, f, args, 6, "");
   LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntNE, ok, k32(x, 0), ""), called, slow);
   LLVMPositionBuilderAtEnd(B, called);
   LLVMValueRef got = LLVMBuildLoad2(B, x->ptr, out, "");
   LLVMBuildBr(B, fast);

   /* Inline. */
   LLVMPositionBuilderAtEnd(B, fast);
   LLVMValueRef host = LLVMBuildPhi(B, x->ptr, "");
   LLVMValueRef hv[2] = {last_host, got};
   LLVMBasicBlockRef hb[2] = {look, called};
   LLVMAddIncoming(host, hv, hb, 2);
   LLVMValueRef fast_rows[4];
   LLVMBasicBlockRef fast_end = NULL;
   if (sub) {
      emit_fast_sub(x, in, host, lo, m, old[0], sub, sx, store, fast_rows);
      fast_end = LLVMGetInsertBlock(B);
      LLVMBuildBr(B, done);
   } else if (store) {
      emit_fast_store(x, in, host, lo, exec, m, unit, data, n, slow, done);
   } else {
      emit_fast_load(x, host, lo, exec, m, unit, old, n, fast_rows, &fast_end);
      LLVMBuildBr(B, done);
   }

   emit_handler_join(x, in, pc, store, d, n, slow, slow_ok, done, start, old, fast_rows,
                     fast_end);
}

/* ---- LDS ------------------------------------------------------------------------------ */

/* A lowered DS form: each active lane moves `n` dwords at each of its `naddr` addresses,
 * ADDR + off[i] in 32 bits (sim_ds.c: ds_read/write_b32/b64/b96/b128 at {OFFSET1,
 * OFFSET0}; read2/write2 at OFFSET0 and OFFSET1 times the size, st64 times 64 more). */
typedef struct ds_form {
   unsigned n, naddr;
   bool store;
   uint32_t off[2];
} ds_form;

static const struct {
   uint16_t op;
   uint8_t bytes, scale, naddr, store;
} ds_forms[] = {
   {SIM_OP_ds_read_b32, 4, 0, 1, 0},       {SIM_OP_ds_write_b32, 4, 0, 1, 1},
   {SIM_OP_ds_read_b64, 8, 0, 1, 0},       {SIM_OP_ds_write_b64, 8, 0, 1, 1},
   {SIM_OP_ds_read_b96, 12, 0, 1, 0},      {SIM_OP_ds_write_b96, 12, 0, 1, 1},
   {SIM_OP_ds_read_b128, 16, 0, 1, 0},     {SIM_OP_ds_write_b128, 16, 0, 1, 1},
   {SIM_OP_ds_read2_b32, 4, 1, 2, 0},      {SIM_OP_ds_write2_b32, 4, 1, 2, 1},
   {SIM_OP_ds_read2_b64, 8, 1, 2, 0},      {SIM_OP_ds_write2_b64, 8, 1, 2, 1},
   {SIM_OP_ds_read2st64_b32, 4, 64, 2, 0}, {SIM_OP_ds_write2st64_b32, 4, 64, 2, 1},
   {SIM_OP_ds_read2st64_b64, 8, 64, 2, 0}, {SIM_OP_ds_write2st64_b64, 8, 64, 2, 1},
};

/* `in`'s form; false when its opcode is not lowered. */
static bool
ds_form_of(const sim_inst *in, ds_form *f)
{
   *f = (ds_form){0};
   for (unsigned i = 0; i < sizeof(ds_forms) / sizeof(ds_forms[0]); i++) {
      if (ds_forms[i].op != in->op)
         continue;
      uint32_t unit = (uint32_t)ds_forms[i].bytes * ds_forms[i].scale;
      f->n = ds_forms[i].bytes / 4;
      f->naddr = ds_forms[i].naddr;
      f->store = ds_forms[i].store;
      f->off[0] = f->naddr == 1 ? (uint32_t)in->imm | (uint32_t)in->mem.offset1 << 8
                                : (uint32_t)in->imm * unit;
      f->off[1] = (uint32_t)in->mem.offset1 * unit;
      return true;
   }
   return false;
}

/* The first VGPR of address i's dwords: DATA0 / DATA1 of a store, the destination rows in
 * order of a load. */
static unsigned
ds_reg(const sim_inst *in, const ds_form *f, unsigned i)
{
   if (f->store)
      return i ? in->mem.data1 : in->mem.data0;
   return in->vdst + i * f->n;
}

static bool
ds_lowered(const sim_inst *in)
{
   ds_form f;
   /* The GDS form faults in the handler; AGPR data lives past the emitter's 256 rows. */
   if (!ds_form_of(in, &f) || (in->flags & (SIM_IF_GDS | SIM_IF_ACC)))
      return false;
   for (unsigned i = 0; i < f.naddr; i++)
      if (ds_reg(in, &f, i) + f.n > 256)
         return false;
   return true;
}

/* The work-group's LDS (w->wg->lds) and its size, loaded where the block needs them. */
static void
lds_get(sim_xl *x, LLVMValueRef *lds, LLVMValueRef *size)
{
   LLVMBuilderRef B = x->B;
   LLVMTypeRef i8 = LLVMInt8TypeInContext(x->C);
   LLVMValueRef i = k64(x, offsetof(sim_wave, wg));
   LLVMValueRef wg = LLVMBuildLoad2(B, x->ptr, LLVMBuildGEP2(B, i8, x->w, &i, 1, ""), "");
   i = k64(x, offsetof(sim_wg, lds));
   *lds = LLVMBuildLoad2(B, x->ptr, LLVMBuildGEP2(B, i8, wg, &i, 1, ""), "");
   i = k64(x, offsetof(sim_wg, lds_size));
   *size = LLVMBuildLoad2(B, x->i32, LLVMBuildGEP2(B, i8, wg, &i, 1, ""), "");
}

/* The lowest active lane of the non-zero mask `exec`, as i32. */
static LLVMValueRef
first_lane(sim_xl *x, LLVMValueRef exec)
{
   LLVMValueRef args[2] = {exec, LLVMConstInt(x->i1, 1, 0)};
   return LLVMBuildTrunc(x->B, sim__xl_intrin(x, "llvm.cttz", &x->mask_t, 1, args, 2), x->i32,
                         "");
}

/* i1: the active lanes' addresses a[l] are amin + (l - first) * step, `first` the lowest
 * active lane. */
static LLVMValueRef
ds_consecutive(sim_xl *x, LLVMValueRef a, LLVMValueRef m, LLVMValueRef first, LLVMValueRef amin,
               uint32_t step)
{
   LLVMBuilderRef B = x->B;
   LLVMValueRef base = LLVMBuildSub(B, amin, LLVMBuildMul(B, first, k32(x, step), ""), "");
   LLVMValueRef want = LLVMBuildAdd(B, sim__xl_splat(x, base, x->v32), lane_steps(x, step), "");
   LLVMValueRef ok = LLVMBuildOr(B, LLVMBuildICmp(B, LLVMIntEQ, a, want, ""),
                                 LLVMBuildNot(B, m, ""), "");
   return LLVMBuildICmp(B, LLVMIntEQ, LLVMBuildBitCast(B, ok, x->mask_t, ""),
                        LLVMConstAllOnes(x->mask_t), "");
}

/* Where lane 0 of a vector access over such lanes starts: lds + amin - first * step (the
 * lanes before `first` are masked off and never touched; amin + 4 * 63 cannot pass 2^32,
 * amin being inside the LDS). */
static LLVMValueRef
ds_vec_at(sim_xl *x, LLVMValueRef lds, LLVMValueRef amin, LLVMValueRef first, uint32_t step)
{
   LLVMBuilderRef B = x->B;
   LLVMValueRef back = LLVMBuildMul(B, LLVMBuildZExt(B, first, x->i64, ""), k64(x, step), "");
   LLVMValueRef off = LLVMBuildSub(B, LLVMBuildZExt(B, amin, x->i64, ""), back, "");
   return LLVMBuildGEP2(B, LLVMInt8TypeInContext(x->C), lds, &off, 1, "");
}

/* The lane mask `m` with each lane's bit repeated `n` times (the mask of n interleaved
 * rows). */
static LLVMValueRef
mask_repeat(sim_xl *x, LLVMValueRef m, unsigned n)
{
   LLVMValueRef idx[256];
   for (unsigned l = 0; l < x->lanes; l++)
      for (unsigned k = 0; k < n; k++)
         idx[l * n + k] = k32(x, l);
   return LLVMBuildShuffleVector(x->B, m, LLVMGetUndef(x->vm), LLVMConstVector(idx, n * x->lanes),
                                 "");
}

/* One masked vector access of the active lanes' `n` dwords at lds + a[l], the lanes
 * consecutive from the lowest active one, `first`, at `amin`: a store of regs[0..n), or a
 * load into rows[0..n) (regs in the masked-off lanes). */
static void
ds_vec_access(sim_xl *x, LLVMValueRef lds, LLVMValueRef amin, LLVMValueRef first,
              LLVMValueRef m, LLVMValueRef *regs, unsigned n, bool store, LLVMValueRef *rows)
{
   LLVMTypeRef t[2] = {LLVMVectorType(x->i32, n * x->lanes), x->ptr};
   LLVMValueRef p = ds_vec_at(x, lds, amin, first, 4 * n);
   LLVMValueRef vm = n == 1 ? m : mask_repeat(x, m, n);
   LLVMValueRef data = n == 1 ? regs[0] : interleave(x, regs, n);
   if (store) {
      LLVMValueRef args[4] = {data, p, k32(x, 4), vm};
      sim__xl_intrin(x, "llvm.masked.store", t, 2, args, 4);
      return;
   }
   LLVMValueRef args[4] = {p, k32(x, 4), vm, data};
   LLVMValueRef v = sim__xl_intrin(x, "llvm.masked.load", t, 2, args, 4);
   for (unsigned k = 0; k < n; k++)
      rows[k] = n == 1 ? v : deinterleave(x, v, n, k);
}

/* One masked scatter of the dword rows data[0..na) to lds + a[i][l], element l * na + i:
 * lanes in order and a lane's addresses in order, so a later store to the same dword wins
 * as in sim_ds.c's lane loop. */
static void
ds_scatter(sim_xl *x, LLVMValueRef lds, LLVMValueRef *a, LLVMValueRef *data, unsigned na,
           LLVMValueRef m)
{
   LLVMValueRef lo = na == 1 ? a[0] : interleave(x, a, na);
   LLVMValueRef v = na == 1 ? data[0] : interleave(x, data, na);
   LLVMValueRef vm = na == 1 ? m : mask_repeat(x, m, na);
   LLVMTypeRef t[2] = {LLVMTypeOf(v), LLVMVectorType(x->ptr, na * x->lanes)};
   LLVMValueRef args[4] = {v, lane_ptrs(x, lds, lo, 0), k32(x, 4), vm};
   sim__xl_intrin(x, "llvm.masked.scatter", t, 2, args, 4);
}

/* The end of an inline DS store: the checking mode's comparison, then on to `done`. */
static void
ds_store_done(sim_xl *x, const sim_inst *in, LLVMBasicBlockRef done)
{
   if (sim__xlate_mode == 2)
      sim__xl_hook(x, sim__xlate_check_store_post, in);
   LLVMBuildBr(x->B, done);
}

/* Inline DS access of every active lane at lds + a[l] (all in range): one masked vector
 * load or store when the active lanes are consecutive (reduce's l[lid], l[lid + s] while
 * lid < s), else a masked gather, or for dword stores a masked scatter (lanes in order, a
 * later lane's store to the same address wins, as sim_ds.c's lane loop). Multi-dword
 * stores that are not consecutive branch to `slow` (lanes writing overlapping dwords must
 * keep lane order). Loads leave their rows in rows[0..n) and the block they end in in
 * *from. */
static void
emit_ds_fast(sim_xl *x, const sim_inst *in, LLVMValueRef lds, LLVMValueRef a, LLVMValueRef amin,
             LLVMValueRef exec, LLVMValueRef m, LLVMValueRef *regs, unsigned n, bool store,
             LLVMValueRef *rows, LLVMBasicBlockRef *from, LLVMBasicBlockRef slow,
             LLVMBasicBlockRef done)
{
   LLVMBuilderRef B = x->B;
   LLVMBasicBlockRef vb = bb(x), gb = store && n > 1 ? slow : bb(x);
   LLVMValueRef first = first_lane(x, exec);
   LLVMBuildCondBr(B, ds_consecutive(x, a, m, first, amin, 4 * n), vb, gb);

   LLVMPositionBuilderAtEnd(B, vb);
   LLVMValueRef u[4];
   ds_vec_access(x, lds, amin, first, m, regs, n, store, u);
   if (store)
      ds_store_done(x, in, done);
   else
      LLVMBuildBr(B, done);
   if (store && n > 1)
      return;

   LLVMPositionBuilderAtEnd(B, gb);
   if (store) {
      ds_scatter(x, lds, &a, regs, 1, m);
      ds_store_done(x, in, done);
      return;
   }
   LLVMTypeRef gt[2] = {x->v32, LLVMVectorType(x->ptr, x->lanes)};
   LLVMValueRef g[4];
   for (unsigned k = 0; k < n; k++) {
      LLVMValueRef args[4] = {lane_ptrs(x, lds, a, k), k32(x, 4), m, regs[k]};
      g[k] = sim__xl_intrin(x, "llvm.masked.gather", gt, 2, args, 4);
   }
   LLVMBuildBr(B, done);
   LLVMPositionBuilderAtEnd(B, done);
   for (unsigned k = 0; k < n; k++) {
      rows[k] = LLVMBuildPhi(B, x->v32, "");
      LLVMValueRef vals[2] = {u[k], g[k]};
      LLVMBasicBlockRef bbs[2] = {vb, gb};
      LLVMAddIncoming(rows[k], vals, bbs, 2);
   }
   *from = done;
}

/* write2's inline stores (addresses a[0..2), all in range; regs[0..n) DATA0's rows,
 * regs[n..2n) DATA1's): when both addresses' active lanes are consecutive and the two
 * ranges apart, one masked vector store each; else for dwords one scatter of both in the
 * handler's order (lane by lane, OFFSET0's before OFFSET1's); other b64 stores branch to
 * `slow` (lanes writing overlapping dwords must keep that order). */
static void
emit_ds_fast_write2(sim_xl *x, const sim_inst *in, LLVMValueRef lds, LLVMValueRef *a,
                    LLVMValueRef *amin, LLVMValueRef *amax, LLVMValueRef exec, LLVMValueRef m,
                    LLVMValueRef *regs, unsigned n, LLVMBasicBlockRef slow,
                    LLVMBasicBlockRef done)
{
   LLVMBuilderRef B = x->B;
   LLVMBasicBlockRef vb = bb(x), gb = n > 1 ? slow : bb(x);
   LLVMValueRef first = first_lane(x, exec), bytes = k32(x, 4 * n);
   /* amax + bytes does not wrap: both ranges are inside the LDS. */
   LLVMValueRef below = LLVMBuildICmp(B, LLVMIntULE, LLVMBuildAdd(B, amax[0], bytes, ""),
                                      amin[1], "");
   LLVMValueRef above = LLVMBuildICmp(B, LLVMIntULE, LLVMBuildAdd(B, amax[1], bytes, ""),
                                      amin[0], "");
   LLVMValueRef ok = LLVMBuildOr(B, below, above, "");
   for (unsigned i = 0; i < 2; i++)
      ok = LLVMBuildAnd(B, ok, ds_consecutive(x, a[i], m, first, amin[i], 4 * n), "");
   LLVMBuildCondBr(B, ok, vb, gb);

   LLVMPositionBuilderAtEnd(B, vb);
   for (unsigned i = 0; i < 2; i++)
      ds_vec_access(x, lds, amin[i], first, m, regs + i * n, n, true, NULL);
   ds_store_done(x, in, done);
   if (n > 1)
      return;
   LLVMPositionBuilderAtEnd(B, gb);
   ds_scatter(x, lds, a, regs, 2, m);
   ds_store_done(x, in, done);
}

/* The lowered DS forms: lane l's address i is a_i[l] = ADDR[l] + off[i] (32-bit), in
 * range when a_i[l] + bytes <= the work-group's LDS size (sim__lds_ptr); one test of the
 * active lanes' highest address per wave-instruction, inline (the LDS is the work-group's
 * own, no allocation to look up). Out of range the handler runs and faults as
 * interpreted, at the first bad lane in lane order. A read2 is two loads of one address
 * each (nothing is stored between them), a write2 emit_ds_fast_write2. */
static void
emit_ds(sim_xl *x, const sim_inst *in, uint64_t pc)
{
   LLVMBuilderRef B = x->B;
   ds_form f;
   ds_form_of(in, &f);
   unsigned n = f.n, bytes = 4 * n, d = ds_reg(in, &f, 0);
   check_store_pre(x, in, f.store);
   LLVMValueRef exec = sim__xl_mget(x, SIM_SRC_EXEC);
   LLVMValueRef m = LLVMBuildBitCast(B, exec, x->vm, "");
   LLVMValueRef addr = sim__xl_vget(x, in->mem.addr);
   LLVMValueRef a[2], amin[2], amax[2], regs[4], top = NULL;
   for (unsigned i = 0; i < f.naddr; i++) {
      a[i] = LLVMBuildAdd(B, addr, sim__xl_splat(x, k32(x, f.off[i]), x->v32), "");
      amin[i] = reduce(x, "llvm.vector.reduce.umin", a[i], m, UINT32_MAX);
      amax[i] = reduce(x, "llvm.vector.reduce.umax", a[i], m, 0);
      top = i ? LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntUGT, amax[i], top, ""), amax[i], top,
                                "")
              : amax[i];
      for (unsigned k = 0; k < n; k++)
         regs[i * n + k] = sim__xl_vget(x, ds_reg(in, &f, i) + k);
   }
   if (!f.store && d + n * f.naddr > x->max_vgpr)
      x->max_vgpr = d + n * f.naddr;
   LLVMValueRef lds, size;
   lds_get(x, &lds, &size);
   LLVMBasicBlockRef start = LLVMGetInsertBlock(B), test = bb(x), fast = bb(x), slow = bb(x);
   LLVMBasicBlockRef slow_ok = bb(x), done = bb(x);
   LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntNE, exec, LLVMConstNull(x->mask_t), ""), test,
                   done);

   /* Every active lane inside the LDS? */
   LLVMPositionBuilderAtEnd(B, test);
   LLVMValueRef fits = LLVMBuildICmp(B, LLVMIntUGE, size, k32(x, bytes), "");
   LLVMValueRef below = LLVMBuildICmp(B, LLVMIntULE, top,
                                      LLVMBuildSub(B, size, k32(x, bytes), ""), "");
   LLVMBuildCondBr(B, LLVMBuildAnd(B, fits, below, ""), fast, slow);

   LLVMPositionBuilderAtEnd(B, fast);
   LLVMValueRef fast_rows[4];
   LLVMBasicBlockRef fast_end = NULL;
   if (f.store && f.naddr == 2) {
      emit_ds_fast_write2(x, in, lds, a, amin, amax, exec, m, regs, n, slow, done);
   } else if (f.store) {
      emit_ds_fast(x, in, lds, a[0], amin[0], exec, m, regs, n, true, NULL, NULL, slow, done);
   } else {
      for (unsigned i = 0; i < f.naddr; i++)
         emit_ds_fast(x, in, lds, a[i], amin[i], exec, m, regs + i * n, n, false,
                      fast_rows + i * n, &fast_end, slow, bb(x));
      LLVMBuildBr(B, done);
   }

   emit_handler_join(x, in, pc, f.store, d, n * f.naddr, slow, slow_ok, done, start, regs,
                     fast_rows, fast_end);
}

/* The LDS bytes lowered DS store `in` of `w` may write (the checking mode). */
static bool
ds_range(sim_wave *w, const sim_inst *in, uint8_t **at, size_t *len)
{
   ds_form f;
   ds_form_of(in, &f);
   uint32_t bytes = 4 * f.n;
   uint64_t m = SIM_EXEC(w);
   uint32_t lo = UINT32_MAX, hi = 0;
   if (!m)
      return false;
   for (unsigned l = 0; l < 64; l++) {
      if (!((m >> l) & 1))
         continue;
      for (unsigned i = 0; i < f.naddr; i++) {
         uint32_t a = w->v[in->mem.addr][l] + f.off[i];
         lo = a < lo ? a : lo;
         hi = a > hi ? a : hi;
      }
   }
   if (w->wg->lds_size < bytes || hi > w->wg->lds_size - bytes)
      return false;
   *at = w->wg->lds + lo;
   *len = (size_t)(hi - lo) + bytes;
   return true;
}

/* ---- Scalar loads --------------------------------------------------------------------- */

/* Dwords of the lowered SMEM loads (0: not lowered); `buffer`: the s_buffer_ form, whose
 * SBASE is a V# (base address = bits 47:0). */
static unsigned
smem_dwords(const sim_inst *in, bool *buffer)
{
   *buffer = false;
   switch (in->op) {
   case SIM_OP_s_load_dword: return 1;
   case SIM_OP_s_load_dwordx2: return 2;
   case SIM_OP_s_load_dwordx4: return 4;
   case SIM_OP_s_load_dwordx8: return 8;
   case SIM_OP_s_load_dwordx16: return 16;
   default: break;
   }
   *buffer = true;
   switch (in->op) {
   case SIM_OP_s_buffer_load_dword: return 1;
   case SIM_OP_s_buffer_load_dwordx2: return 2;
   case SIM_OP_s_buffer_load_dwordx4: return 4;
   case SIM_OP_s_buffer_load_dwordx8: return 8;
   case SIM_OP_s_buffer_load_dwordx16: return 16;
   default: return 0;
   }
}

/* Destinations below M0 only: sim__swrite32 writes those as they are. */
static bool
smem_lowered(const sim_inst *in)
{
   bool buffer;
   unsigned n = smem_dwords(in, &buffer);
   return n && in->vdst + n <= 124 && in->mem.sbase < 127;
}

int
sim__xlate_smem_base(sim_wave *w, const sim_inst *in, uint64_t va, const uint8_t **host)
{
   bool buffer;
   const sim_alloc *a = sim__vm_direct(w, in, va, 4ull * smem_dwords(in, &buffer), false);
   if (!a)
      return 0;
   *host = a->view + (va - a->va);
   xlast_fill(w, in, a);
   return 1;
}

/* sim_smem.c's address: SBASE (+ IMM offset or SGPR[OFFSET]) (+ SGPR[SOFFSET] with SOE),
 * dword-aligned. */
static LLVMValueRef
smem_addr(sim_xl *x, const sim_inst *in, bool buffer)
{
   LLVMBuilderRef B = x->B;
   LLVMValueRef base = sim__xl_sget64(x, in->mem.sbase);
   if (buffer)
      base = LLVMBuildAnd(B, base, k64(x, 0xFFFFFFFFFFFFull), "");
   LLVMValueRef off = (in->flags & SIM_IF_SMEM_IMM)
                         ? k64(x, (uint64_t)(int64_t)in->imm)
                         : LLVMBuildZExt(B, sim__xl_sget(x, in->imm & 0x7F), x->i64, "");
   if (in->flags & SIM_IF_SMEM_SOE)
      off = LLVMBuildAdd(B, off,
                         LLVMBuildZExt(B, sim__xl_sget(x, in->mem.soffset & 0x7F), x->i64, ""),
                         "");
   return LLVMBuildAnd(B, LLVMBuildAdd(B, base, off, ""), k64(x, ~3ull), "");
}

/* s_load_dword(xN) / s_buffer_load_dword(xN): the allocation the instruction's last run
 * on this thread reached (sim_wg.xlast, as the vector loads' last_alloc) tested inline, else
 * one call (sim__xlate_smem_base: the allocation check of the vector loads, which fills
 * that slot), and inline dword loads into the destination SGPRs' values; outside one
 * directly reachable allocation the handler runs and faults or loads as interpreted. Every
 * wave starts with its kernarg loads, so the call was paid by every wave (vadd, copy1). */
static void
emit_smem(sim_xl *x, const sim_inst *in, uint64_t pc)
{
   LLVMBuilderRef B = x->B;
   bool buffer;
   unsigned n = smem_dwords(in, &buffer);
   LLVMValueRef va = smem_addr(x, in, buffer);
   LLVMValueRef out = sim__xl_entry_alloca(x, x->ptr); /* sim__xlate_smem_base fills it */
   LLVMTypeRef pt[4] = {x->ptr, x->ptr, x->i64, x->ptr};
   LLVMTypeRef ft = LLVMFunctionType(x->i32, pt, 4, 0);
   LLVMValueRef f = LLVMConstIntToPtr(k64(x, (uint64_t)(uintptr_t)sim__xlate_smem_base), x->ptr);
   LLVMValueRef args[4] = {x->w, LLVMConstIntToPtr(k64(x, (uint64_t)(uintptr_t)in), x->ptr), va,
                           out};
   LLVMBasicBlockRef look = LLVMGetInsertBlock(B), call = bb(x), called = bb(x);
   LLVMBasicBlockRef fast = bb(x), slow = bb(x), slow_ok = bb(x), done = bb(x);
   LLVMValueRef last_host;
   LLVMBuildCondBr(B, last_alloc(x, in, va, k32(x, 0), k32(x, 0), 4 * n, &last_host), fast,
                   call);
   LLVMPositionBuilderAtEnd(B, call);
   LLVMValueRef ok = LLVMBuildCall2(B, ft, f, args, 4, "");
   LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntNE, ok, k32(x, 0), ""), called, slow);
   LLVMPositionBuilderAtEnd(B, called);
   LLVMValueRef got_host = LLVMBuildLoad2(B, x->ptr, out, "");
   LLVMBuildBr(B, fast);

   LLVMPositionBuilderAtEnd(B, fast);
   LLVMValueRef host = LLVMBuildPhi(B, x->ptr, "");
   LLVMValueRef hv[2] = {last_host, got_host};
   LLVMBasicBlockRef hb[2] = {look, called};
   LLVMAddIncoming(host, hv, hb, 2);
   LLVMValueRef got[16], slow_got[16];
   for (unsigned i = 0; i < n; i++) {
      LLVMValueRef o = k64(x, 4 * i);
      got[i] = LLVMBuildLoad2(B, x->i32,
                              LLVMBuildGEP2(B, LLVMInt8TypeInContext(x->C), host, &o, 1, ""), "");
      LLVMSetAlignment(got[i], 4);
   }
   LLVMBuildBr(B, done);

   /* Through the handler; it writes only the destinations. */
   LLVMPositionBuilderAtEnd(B, slow);
   sim__xl_spill(x);
   LLVMValueRef rc = sim__xl_call(x, in, pc);
   LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntNE, rc, k32(x, 0), ""), x->exit, slow_ok);
   LLVMPositionBuilderAtEnd(B, slow_ok);
   for (unsigned i = 0; i < n; i++) {
      LLVMValueRef o = k64(x, offsetof(sim_wave, s) + 4 * (in->vdst + i));
      slow_got[i] = LLVMBuildLoad2(B, x->i32,
                                   LLVMBuildGEP2(B, LLVMInt8TypeInContext(x->C), x->w, &o, 1, ""),
                                   "");
      LLVMSetAlignment(slow_got[i], 4);
   }
   LLVMBuildBr(B, done);

   LLVMPositionBuilderAtEnd(B, done);
   for (unsigned i = 0; i < n; i++) {
      LLVMValueRef phi = LLVMBuildPhi(B, x->i32, "");
      LLVMValueRef vals[2] = {got[i], slow_got[i]};
      LLVMBasicBlockRef bbs[2] = {fast, slow_ok};
      LLVMAddIncoming(phi, vals, bbs, 2);
      sim__xl_sput(x, in->vdst + i, phi);
   }
}

/* ---- Scratch (MUBUF) ---------------------------------------------------------------------
 * `buffer_load_dword` and `buffer_store_dword` (and their x2-x4 forms) without IDXEN, the LDS
 * bit or AGPR data, with a dword-aligned OFFSET: a private variable's load or store.
 * Inline when the V# at run time is the scratch one (swizzled, ADD_TID, 4-byte elements,
 * index stride the wave size: sim_dispatch's and ROCr's) and every active lane's offset o
 * (OFFSET, plus the VGPR with OFFEN; 32-bit) is dword-aligned and below 2^24 - 16: [ISA]
 * 9.x "Buffer addressing" then places lane l's dword k at
 * base + SOFFSET + ((o + 4k) << log2 wave) + 4l
 * (sim_mubuf.c's formula with index = l < index stride), a row of 32-bit lane offsets at
 * stride 4 from each dword's start; no two lanes' dwords meet (o's are multiples of 4,
 * shifted past the lane bits), so a store's lane order does not matter. When every active
 * lane's o is one (a spill, a private array at a uniform index), a dword's active lanes are
 * consecutive: one masked vector load or store, whatever EXEC is; else a masked gather or
 * scatter (scratch_access); the GLOBAL path's tests of the lanes' addresses (one lane,
 * segments, unit stride) are not made. Where the accesses are is tested lane by lane
 * against the room the work-group's scratch window leaves (scratch_window), else the
 * allocation the instruction's xlast slot holds (scratch_other), else one call
 * (sim__xlate_mubuf_rows: the window or one directly reachable allocation,
 * sim__mubuf_span). Anything else runs the handler (sim__mubuf_fast, else lane by lane). */

static unsigned
mubuf_dwords(const sim_inst *in, bool *store)
{
   *store = false;
   switch (in->op) {
   case SIM_OP_buffer_load_dword: return 1;
   case SIM_OP_buffer_load_dwordx2: return 2;
   case SIM_OP_buffer_load_dwordx3: return 3;
   case SIM_OP_buffer_load_dwordx4: return 4;
   case SIM_OP_buffer_store_dword: *store = true; return 1;
   case SIM_OP_buffer_store_dwordx2: *store = true; return 2;
   case SIM_OP_buffer_store_dwordx3: *store = true; return 3;
   case SIM_OP_buffer_store_dwordx4: *store = true; return 4;
   default: return 0;
   }
}

static bool
mubuf_lowered(const sim_inst *in)
{
   bool store;
   unsigned n = mubuf_dwords(in, &store);
   if (!n || (in->flags & (SIM_IF_ACC | SIM_IF_LDS | SIM_IF_IDXEN)) || ((uint32_t)in->imm & 3))
      return false;
   /* The forms compiled code uses: the V# and SOFFSET in SGPRs below VCC, or SOFFSET an
    * inline constant 0..64. */
   unsigned so = in->mem.soffset;
   return (store ? in->mem.data0 : in->vdst) + n <= 256 && (in->mem.srsrc & 0x7C) + 3 < 106 &&
          (so < 106 || (so >= 128 && so <= 192));
}

int
sim__xlate_mubuf_base(sim_wave *w, const sim_inst *in, uint64_t rbase, uint32_t lmin,
                      uint32_t lmax, uint8_t **host)
{
   bool store;
   mubuf_dwords(in, &store);
   uint64_t lo = rbase + lmin;
   if (lo < rbase)
      return 0;
   uint64_t bytes = (uint64_t)(lmax - lmin) + 4;
   const sim_wg *wg = w->wg;
   if (lo - SIM_SCRATCH_VA < wg->scratch_size) {
      if (bytes > wg->scratch_size - (lo - SIM_SCRATCH_VA))
         return 0;
      *host = (uint8_t *)((uintptr_t)wg->scratch + (uintptr_t)(rbase - SIM_SCRATCH_VA));
      return 1;
   }
   const sim_alloc *a = sim__vm_direct(w, in, lo, bytes, store);
   if (!a)
      return 0;
   /* an integer: see sim__xlate_mem_base */
   *host = (uint8_t *)((uintptr_t)a->view + (uintptr_t)(rbase - a->va));
   xlast_fill(w, in, a);
   return 1;
}

int
sim__xlate_mubuf_rows(sim_wave *w, const sim_inst *in, uint64_t rbase, const uint32_t *o,
                      uint64_t exec, uint32_t lanes, uint8_t **host)
{
   bool store;
   unsigned n = mubuf_dwords(in, &store), sh = w->lanes == 64 ? 6 : 5;
   uint32_t low = 0, omin = UINT32_MAX, omax = 0;
   for (unsigned l = 0; l < lanes; l++) { /* without branches: vectorised */
      uint32_t on = -(uint32_t)(exec >> l & 1), v = o[l];
      low |= v & on;
      omin = (v | ~on) < omin ? v | ~on : omin;
      omax = (v & on) > omax ? v & on : omax;
   }
   if (!exec || (low & 3) || omax >= (1u << 24) - 16)
      return 0;
   return sim__xlate_mubuf_base(w, in, rbase, omin << sh,
                                (omax << sh) + 4 * (lanes - 1) + ((4 * (n - 1)) << sh), host);
}

/* sim__xlate_mem_range for a MUBUF store: every active lane's dwords (sim__mubuf_lanes). */
static bool
mubuf_range(sim_wave *w, const sim_inst *in, uint8_t **at, size_t *len, uint8_t **mask)
{
   bool store;
   unsigned n = mubuf_dwords(in, &store);
   uint64_t m = SIM_EXEC(w), va[4][64], lo, hi;
   if (!n || !sim__mubuf_lanes(w, in, m, n, store, va, &lo, &hi))
      return false;
   uint8_t *p = sim__mubuf_span(w, in, lo, hi - lo + 4, store);
   if (!p)
      return false;
   *at = p;
   *len = hi - lo + 4;
   if (mask && *len <= SIM_XLATE_CHECK_SNAP_MAX) {
      *mask = calloc(*len, 1);
      if (!*mask)
         return false;
      for (unsigned l = 0; l < 64; l++)
         for (unsigned k = 0; ((m >> l) & 1) && k < n; k++)
            memset(*mask + (va[k][l] - lo), 1, 4);
   }
   return true;
}

/* i1: the V# in `v1`, `v3` is the scratch one (the comment above). */
static LLVMValueRef
mubuf_scratch_rsrc(sim_xl *x, LLVMValueRef v1, LLVMValueRef v3, unsigned sh)
{
   LLVMBuilderRef B = x->B;
   uint32_t mask3 = 1u << 23 | 3u << 21, want3 = 1u << 23 | (sh - 3) << 21;
   if (!x->gfx10) {
      /* gfx10's V# has no ELEMENT_SIZE (dwords); gfx9's field 1 is 4 bytes. */
      mask3 |= 3u << 19;
      want3 |= 1u << 19;
   }
   LLVMValueRef sw = LLVMBuildICmp(B, LLVMIntSLT, v1, k32(x, 0), ""); /* SWIZZLE_ENABLE */
   LLVMValueRef f3 = LLVMBuildICmp(B, LLVMIntEQ, LLVMBuildAnd(B, v3, k32(x, mask3), ""),
                                   k32(x, want3), "");
   return LLVMBuildAnd(B, sw, f3, "");
}

/* Dword `k`'s row of a scratch access at `host` (lane l's dword at host + (4k << sh) + lo[l],
 * lo[l] = (o[l] << sh) + 4l): when every active lane's o is one (`uniform`, that o `o0`) the
 * active lanes are consecutive dwords from host + (o0 << sh) + (4k << sh), one masked vector
 * load or store whatever EXEC is; else a masked gather or scatter. A load's row goes to
 * `*row` (old[k] in the masked-off lanes). */
static void
scratch_access(sim_xl *x, LLVMValueRef host, LLVMValueRef lo, LLVMValueRef m,
               LLVMValueRef uniform, LLVMValueRef o0, unsigned k, unsigned sh, bool store,
               LLVMValueRef data, LLVMValueRef *row)
{
   LLVMBuilderRef B = x->B;
   LLVMTypeRef i8 = LLVMInt8TypeInContext(x->C);
   LLVMValueRef at = k64(x, (uint64_t)(4 * k) << sh);
   LLVMValueRef hk = LLVMBuildGEP2(B, i8, host, &at, 1, "");
   /* A constant offset (no OFFEN) is one in every lane: no gather or scatter. */
   bool one = LLVMIsAConstantInt(uniform) && LLVMConstIntGetZExtValue(uniform);
   LLVMBasicBlockRef vb = LLVMGetInsertBlock(B), gb = NULL, next = NULL;
   if (!one) {
      vb = bb(x), gb = bb(x), next = bb(x);
      LLVMBuildCondBr(B, uniform, vb, gb);
      LLVMPositionBuilderAtEnd(B, vb);
   }
   LLVMValueRef p = host_at(x, hk, LLVMBuildShl(B, o0, k32(x, sh), ""));
   LLVMTypeRef t[2] = {x->v32, x->ptr};
   LLVMValueRef vrow = NULL, grow = NULL;
   if (store) {
      LLVMValueRef args[4] = {data, p, k32(x, 4), m};
      sim__xl_intrin(x, "llvm.masked.store", t, 2, args, 4);
   } else {
      LLVMValueRef args[4] = {p, k32(x, 4), m, data};
      vrow = sim__xl_intrin(x, "llvm.masked.load", t, 2, args, 4);
   }
   if (one) {
      *row = vrow;
      return;
   }
   LLVMBuildBr(B, next);
   LLVMPositionBuilderAtEnd(B, gb);
   LLVMTypeRef gt[2] = {x->v32, LLVMVectorType(x->ptr, x->lanes)};
   if (store) {
      LLVMValueRef args[4] = {data, lane_ptrs(x, hk, lo, 0), k32(x, 4), m};
      sim__xl_intrin(x, "llvm.masked.scatter", gt, 2, args, 4);
   } else {
      LLVMValueRef args[4] = {lane_ptrs(x, hk, lo, 0), k32(x, 4), m, data};
      grow = sim__xl_intrin(x, "llvm.masked.gather", gt, 2, args, 4);
   }
   LLVMBuildBr(B, next);
   LLVMPositionBuilderAtEnd(B, next);
   if (store)
      return;
   *row = LLVMBuildPhi(B, x->v32, "");
   LLVMValueRef vals[2] = {vrow, grow};
   LLVMBasicBlockRef from[2] = {vb, gb};
   LLVMAddIncoming(*row, vals, from, 2);
}

/* A field of the wave or its work-group that no block changes (sim_wave.wg, the window's
 * sim_wg.scratch and scratch_size), loaded with !invariant.load so that the loads of later
 * instructions of the block fold into the first, stores and calls between them or not. */
static LLVMValueRef
invariant_field(sim_xl *x, LLVMValueRef base, size_t at, LLVMTypeRef t)
{
   LLVMValueRef i = k64(x, at);
   LLVMValueRef p = LLVMBuildGEP2(x->B, LLVMInt8TypeInContext(x->C), base, &i, 1, "");
   LLVMValueRef v = LLVMBuildLoad2(x->B, t, p, "");
   unsigned kind = LLVMGetMDKindIDInContext(x->C, "invariant.load", 14);
   LLVMSetMetadata(v, kind, LLVMMetadataAsValue(x->C, LLVMMDNodeInContext2(x->C, NULL, 0)));
   return v;
}

/* i1: every access of a MUBUF load or store (n dwords a lane at offsets o, EXEC `exec`) at
 * rbase lies in the VA range [lo, end): rbase in it and every active o dword-aligned and at
 * most the largest o for which every lane of the wave would still end in it (and below
 * 2^24 - 16): one compare of the row, where the lowest and largest o over EXEC (three
 * reductions) had cost a private-array kernel's loop a quarter of its time. */
static LLVMValueRef
scratch_room(sim_xl *x, LLVMValueRef rbase, LLVMValueRef o, bool offen, LLVMValueRef exec,
             unsigned n, unsigned sh, LLVMValueRef lo, LLVMValueRef end)
{
   LLVMBuilderRef B = x->B;
   /* Bytes past lane 0's first dword at the largest o: the lanes and the other dwords. */
   uint64_t extra = 4ull * x->lanes + ((4ull * (n - 1)) << sh);
   LLVMValueRef avail = LLVMBuildSub(B, end, rbase, "");
   LLVMValueRef ok = LLVMBuildICmp(B, LLVMIntULT, LLVMBuildSub(B, rbase, lo, ""),
                                   LLVMBuildSub(B, end, lo, ""), "");
   ok = LLVMBuildAnd(B, ok, LLVMBuildICmp(B, LLVMIntUGE, avail, k64(x, extra), ""), "");
   LLVMValueRef room = LLVMBuildLShr(B, LLVMBuildSub(B, avail, k64(x, extra), ""), k64(x, sh), "");
   LLVMValueRef cap = k64(x, (1u << 24) - 17);
   room = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntULT, room, cap, ""), room, cap, "");
   if (!offen) {
      /* Every lane's o is OFFSET (dword-aligned: mubuf_lowered): a spill, a private
       * variable at a constant index. */
      LLVMValueRef oc = LLVMBuildZExt(B, LLVMBuildExtractElement(B, o, k32(x, 0), ""), x->i64, "");
      return LLVMBuildAnd(B, ok, LLVMBuildICmp(B, LLVMIntULE, oc, room, ""), "");
   }
   LLVMValueRef lim = sim__xl_splat(x, LLVMBuildTrunc(B, room, x->i32, ""), x->v32);
   LLVMValueRef bad = LLVMBuildOr(
      B, LLVMBuildICmp(B, LLVMIntUGT, o, lim, ""),
      LLVMBuildICmp(B, LLVMIntNE, LLVMBuildAnd(B, o, sim__xl_splat(x, k32(x, 3), x->v32), ""),
                    LLVMConstNull(x->v32), ""),
      "");
   LLVMValueRef badm = LLVMBuildAnd(B, LLVMBuildBitCast(B, bad, x->mask_t, ""), exec, "");
   return LLVMBuildAnd(B, ok, LLVMBuildICmp(B, LLVMIntEQ, badm, LLVMConstNull(x->mask_t), ""),
                       "");
}

/* scratch_room for the work-group's scratch window (sim_wg.scratch, scratch_size, read at
 * each run: a work-group's window is its own); `*host` = the host address of rbase. */
static LLVMValueRef
scratch_window(sim_xl *x, LLVMValueRef rbase, LLVMValueRef o, bool offen, LLVMValueRef exec,
               unsigned n, unsigned sh, LLVMValueRef *host)
{
   LLVMBuilderRef B = x->B;
   LLVMValueRef wg = invariant_field(x, x->w, offsetof(sim_wave, wg), x->ptr);
   LLVMValueRef sbase = invariant_field(x, wg, offsetof(sim_wg, scratch), x->i64);
   LLVMValueRef ssize = invariant_field(x, wg, offsetof(sim_wg, scratch_size), x->i64);
   LLVMValueRef va = k64(x, SIM_SCRATCH_VA);
   *host = LLVMBuildIntToPtr(B, LLVMBuildAdd(B, sbase, LLVMBuildSub(B, rbase, va, ""), ""),
                             x->ptr, "");
   return scratch_room(x, rbase, o, offen, exec, n, sh, va, LLVMBuildAdd(B, va, ssize, ""));
}

/* The call of scratch_other (i32, non-zero when it filled `out`): with OFFEN,
 * sim__xlate_mubuf_rows with the lanes' offsets through memory; without, o is OFFSET in
 * every lane and sim__xlate_mubuf_base takes the span of lanes 0 to lanes - 1 at it as
 * constants. Under ROCr the work-group's xlast slots start empty, so an access each wave
 * makes once (a spill, a private array's set-up) calls every time. */
static LLVMValueRef
scratch_call(sim_xl *x, const sim_inst *in, LLVMValueRef rbase, LLVMValueRef o, bool offen,
             LLVMValueRef exec, unsigned n, unsigned sh, LLVMValueRef out)
{
   LLVMBuilderRef B = x->B;
   LLVMValueRef me = LLVMConstIntToPtr(k64(x, (uint64_t)(uintptr_t)in), x->ptr);
   if (!offen) {
      uint32_t lmin = (uint32_t)in->imm << sh;
      uint32_t lmax = lmin + 4 * (x->lanes - 1) + ((4 * (n - 1)) << sh);
      LLVMTypeRef pt[6] = {x->ptr, x->ptr, x->i64, x->i32, x->i32, x->ptr};
      LLVMTypeRef ft = LLVMFunctionType(x->i32, pt, 6, 0);
      LLVMValueRef fn = LLVMConstIntToPtr(k64(x, (uint64_t)(uintptr_t)sim__xlate_mubuf_base),
                                          x->ptr);
      LLVMValueRef args[6] = {x->w, me, rbase, k32(x, lmin), k32(x, lmax), out};
      return LLVMBuildCall2(B, ft, fn, args, 6, "");
   }
   LLVMValueRef orow = sim__xl_entry_alloca(x, x->v32);
   LLVMSetAlignment(LLVMBuildStore(B, o, orow), 4);
   LLVMTypeRef pt[7] = {x->ptr, x->ptr, x->i64, x->ptr, x->i64, x->i32, x->ptr};
   LLVMTypeRef ft = LLVMFunctionType(x->i32, pt, 7, 0);
   LLVMValueRef fn = LLVMConstIntToPtr(k64(x, (uint64_t)(uintptr_t)sim__xlate_mubuf_rows),
                                       x->ptr);
   LLVMValueRef args[7] = {x->w, me, rbase, orow, LLVMBuildZExt(B, exec, x->i64, ""),
                           k32(x, x->lanes), out};
   return LLVMBuildCall2(B, ft, fn, args, 7, "");
}

/* The way of a scratch access the window test did not take (the queue's scratch under ROCr,
 * a lane outside the window), from the builder's block on to `fast` or `slow`: the
 * allocation sim__xlate_mubuf_base last accepted for `in` (its sim_wg.xlast slot), tested
 * as the window is, else the call (sim__xlate_mubuf_rows, which fills the slot, so the
 * queue's scratch is inline from the second run). `host[0..2)` are the host addresses of
 * rbase it reaches `fast` with, from the blocks `from[0..2)`. The lanes' offsets reach the
 * call through memory: three reductions over them here had made the blocks of a
 * private-array kernel half as long again to compile, for a call taken once an allocation. */
static void
scratch_other(sim_xl *x, const sim_inst *in, LLVMValueRef rbase, LLVMValueRef o,
              bool offen, LLVMValueRef exec, unsigned n, unsigned sh, LLVMBasicBlockRef fast,
              LLVMBasicBlockRef slow, LLVMValueRef *host, LLVMBasicBlockRef *from)
{
   LLVMBuilderRef B = x->B;
   LLVMValueRef f[4];
   xlast_load(x, in, f);
   LLVMValueRef me = LLVMConstIntToPtr(k64(x, (uint64_t)(uintptr_t)in), x->ptr);
   LLVMValueRef ok = LLVMBuildAnd(B, LLVMBuildICmp(B, LLVMIntEQ, f[0], me, ""),
                                  scratch_room(x, rbase, o, offen, exec, n, sh, f[1], f[2]), "");
   host[0] = LLVMBuildIntToPtr(B, LLVMBuildAdd(B, f[3], rbase, ""), x->ptr, "");
   from[0] = LLVMGetInsertBlock(B);
   LLVMBasicBlockRef look = bb(x), called = bb(x);
   LLVMBuildCondBr(B, ok, fast, look);
   LLVMPositionBuilderAtEnd(B, look);
   LLVMValueRef out = sim__xl_entry_alloca(x, x->ptr); /* the call fills it */
   LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntNE, scratch_call(x, in, rbase, o, offen, exec, n,
                                                                 sh, out),
                                    k32(x, 0), ""),
                   called, slow);
   LLVMPositionBuilderAtEnd(B, called);
   host[1] = LLVMBuildLoad2(B, x->ptr, out, "");
   from[1] = called;
   LLVMBuildBr(B, fast);
}

static void
emit_mubuf(sim_xl *x, const sim_inst *in, uint64_t pc)
{
   LLVMBuilderRef B = x->B;
   if (cache_inv(in)) {
      LLVMTypeRef pt[2] = {x->ptr, x->ptr};
      LLVMTypeRef ft = LLVMFunctionType(LLVMVoidTypeInContext(x->C), pt, 2, 0);
      LLVMValueRef args[2] = {x->w, LLVMConstIntToPtr(k64(x, (uint64_t)(uintptr_t)in), x->ptr)};
      LLVMBuildCall2(B, ft, LLVMConstIntToPtr(k64(x, (uint64_t)(uintptr_t)in->fn), x->ptr),
                     args, 2, "");
      return;
   }
   bool store;
   unsigned n = mubuf_dwords(in, &store), sr = in->mem.srsrc & 0x7C;
   unsigned d = store ? in->mem.data0 : in->vdst;
   unsigned sh = x->wave == 64 ? 6 : 5; /* log2 of the index stride, the wave size */
   check_store_pre(x, in, store);
   LLVMValueRef exec = sim__xl_mget(x, SIM_SRC_EXEC);
   LLVMValueRef m = LLVMBuildBitCast(B, exec, x->vm, "");
   LLVMValueRef v0 = sim__xl_sget(x, sr), v1 = sim__xl_sget(x, sr + 1);
   LLVMValueRef v3 = sim__xl_sget(x, sr + 3);
   LLVMValueRef soff = in->mem.soffset < 106 ? sim__xl_sget(x, in->mem.soffset)
                                             : k32(x, in->mem.soffset - 128);
   LLVMValueRef o = sim__xl_splat(x, k32(x, (uint32_t)in->imm), x->v32);
   bool offen = in->flags & SIM_IF_OFFEN;
   if (offen)
      o = LLVMBuildAdd(B, sim__xl_vget(x, in->mem.addr), o, "");
   LLVMValueRef old[4];
   for (unsigned k = 0; k < n; k++)
      old[k] = sim__xl_vget(x, d + k);
   if (!store && d + n > x->max_vgpr)
      x->max_vgpr = d + n;
   LLVMValueRef lo = LLVMBuildAdd(B, LLVMBuildShl(B, o, sim__xl_splat(x, k32(x, sh), x->v32), ""),
                                  lane_steps(x, 4), "");
   LLVMValueRef rbase = LLVMBuildOr(
      B, LLVMBuildZExt(B, v0, x->i64, ""),
      LLVMBuildShl(B, LLVMBuildZExt(B, LLVMBuildAnd(B, v1, k32(x, 0xFFFF), ""), x->i64, ""),
                   k64(x, 32), ""),
      "");
   rbase = LLVMBuildAdd(B, rbase, LLVMBuildZExt(B, soff, x->i64, ""), "");
   LLVMValueRef rsrc_ok = mubuf_scratch_rsrc(x, v1, v3, sh);

   /* The tests ahead of the branch on EXEC: this block dominates the later instructions', so
    * a later access to the same offsets (a private variable's load, then its store) shares
    * them. */
   LLVMValueRef win_host, win = scratch_window(x, rbase, o, offen, exec, n, sh, &win_host);
   LLVMValueRef o0 = k32(x, (uint32_t)in->imm), uniform = LLVMConstInt(x->i1, 1, 0);
   if (offen)
      uniform = row_uniform(x, exec, m, o, &o0);
   LLVMBasicBlockRef start = LLVMGetInsertBlock(B), test = bb(x), other = bb(x), fast = bb(x);
   LLVMBasicBlockRef slow = bb(x), slow_ok = bb(x), done = bb(x);
   LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntNE, exec, LLVMConstNull(x->mask_t), ""), test,
                   done);
   LLVMPositionBuilderAtEnd(B, test);
   LLVMBuildCondBr(B, LLVMBuildAnd(B, rsrc_ok, win, ""), fast, other);

   LLVMPositionBuilderAtEnd(B, other);
   LLVMValueRef hv[3] = {win_host, NULL, NULL};
   LLVMBasicBlockRef hb[3] = {test, NULL, NULL}, slot = bb(x);
   LLVMBuildCondBr(B, rsrc_ok, slot, slow);
   LLVMPositionBuilderAtEnd(B, slot);
   scratch_other(x, in, rbase, o, offen, exec, n, sh, fast, slow, hv + 1, hb + 1);

   LLVMPositionBuilderAtEnd(B, fast);
   LLVMValueRef host = LLVMBuildPhi(B, x->ptr, "");
   LLVMAddIncoming(host, hv, hb, 3);
   LLVMValueRef fast_rows[4] = {NULL, NULL, NULL, NULL};
   for (unsigned k = 0; k < n; k++)
      scratch_access(x, host, lo, m, uniform, o0, k, sh, store, old[k], &fast_rows[k]);
   LLVMBasicBlockRef fast_end = store ? NULL : LLVMGetInsertBlock(B);
   if (store && sim__xlate_mode == 2)
      sim__xl_hook(x, sim__xlate_check_store_post, in);
   LLVMBuildBr(B, done);

   emit_handler_join(x, in, pc, store, d, n, slow, slow_ok, done, start, old, fast_rows,
                     fast_end);
}

void
sim__xl_emit_mem(sim_xl *x, const sim_inst *in, uint64_t pc)
{
   if (in->enc == SIM_ENC_MUBUF)
      emit_mubuf(x, in, pc);
   else if (in->enc == SIM_ENC_DS)
      emit_ds(x, in, pc);
   else if (in->enc == SIM_ENC_SMEM)
      emit_smem(x, in, pc);
   else
      emit_vmem(x, in, pc);
}
