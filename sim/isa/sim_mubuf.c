/*
 * MUBUF: untyped buffer access through a V# ([ISA] chapter 9 "Vector memory buffer
 * instructions", 9.x "Buffer addressing"). Compute code uses it for scratch: the V# built
 * at dispatch has SWIZZLE_ENABLE, ADD_TID_ENABLE, ELEMENT_SIZE 4 and INDEX_STRIDE 64.
 *   index  = (IDXEN ? VGPR[VADDR] : 0) + (ADD_TID ? lane : 0)
 *   offset = (OFFEN ? VGPR[VADDR (+1 with IDXEN)] : 0) + OFFSET12
 *   swizzled: ADDR = base + SOFFSET + (index / stride_i * STRIDE + offset / esize * esize)
 *                    * stride_i + (index % stride_i) * esize + offset % esize
 *   linear:   ADDR = base + SOFFSET + index * STRIDE + offset
 * Range checking against NUM_RECORDS is not modelled; addresses outside every allocation
 * fault.
 *
 * The _FORMAT forms (1D buffer images) read or write one element of the V#'s
 * DATA_FORMAT / NUM_FORMAT (word 3 bits 18:15 and 14:12; gfx10: the one FORMAT field, bits
 * 18:12, of gfx10's combined table, sim__texel_vsharp_format) with the texture unit's
 * conversions and DST_SEL (isa/sim_texel.c): loads return the first n components, stores
 * write the first n (the others 0); _D16 packs two 16-bit components per VGPR (f16 for
 * float formats, the low 16 bits of integers); _D16_HI_X reads or writes bits 31:16 of the
 * VGPR and keeps bits 15:0. MTBUF (tbuffer_*) is the same access with DATA_FORMAT and
 * NUM_FORMAT taken from the instruction instead of the V# ([ISA] 9.x "Typed buffer
 * instructions"); DST_SEL still comes from the V#.
 */
#include <stdio.h>
#include <string.h>
#include "sim_isa_priv.h"

/* A V#'s addressing fields and the instruction's SOFFSET, read once an instruction.
 * ELEMENT_SIZE and INDEX_STRIDE are powers of two: kept as shifts. */
typedef struct {
   uint64_t base;
   uint32_t stride, soffset;
   unsigned esh, ish; /* log2 of the element size and of the index stride */
   bool swizzle, add_tid;
} mubuf_rsrc;

static void
mubuf_rsrc_read(const sim_wave *w, const sim_inst *in, mubuf_rsrc *r)
{
   const uint32_t *v = &w->s[in->mem.srsrc & 0x7C];
   r->base = v[0] | (uint64_t)(v[1] & 0xFFFF) << 32;
   r->stride = (v[1] >> 16) & 0x3FFF;
   r->swizzle = (v[1] >> 31) & 1;
   r->add_tid = (v[3] >> 23) & 1;
   /* gfx10's V# has no ELEMENT_SIZE: swizzled elements are dwords. */
   r->esh = w->target->gfx_major >= 10 ? 2 : 1 + ((v[3] >> 19) & 3);
   r->ish = 3 + ((v[3] >> 21) & 3);
   r->soffset = sim__sread32(w, in, in->mem.soffset);
}

/* The address of byte `k` of lane `lane`'s access (the formulas above). */
static uint64_t
mubuf_addr(const mubuf_rsrc *r, const sim_wave *w, const sim_inst *in, unsigned lane,
           uint32_t k)
{
   uint32_t index = 0, offset = (uint32_t)in->imm + k;
   unsigned a = in->mem.addr;
   if (in->flags & SIM_IF_IDXEN)
      index = w->v[a++][lane];
   if (in->flags & SIM_IF_OFFEN)
      offset += w->v[a][lane];
   if (r->add_tid)
      index += lane;
   uint64_t addr = r->base + r->soffset;
   if (r->swizzle) {
      uint32_t emask = (1u << r->esh) - 1, imask = (1u << r->ish) - 1;
      addr += (((uint64_t)(index >> r->ish) * r->stride + (offset & ~emask)) << r->ish) +
              ((index & imask) << r->esh) + (offset & emask);
   } else {
      addr += (uint64_t)index * r->stride + offset;
   }
   return addr;
}

static void *
mubuf_xlate(sim_wave *w, const sim_inst *in, unsigned lane, uint32_t k, uint32_t size,
            bool write)
{
   mubuf_rsrc r;
   mubuf_rsrc_read(w, in, &r);
   return sim__gpu_ptr(w, mubuf_addr(&r, w, in, lane, k), size, write);
}

uint8_t *
sim__mubuf_span(sim_wave *w, const sim_inst *in, uint64_t va, uint64_t bytes, bool write)
{
   const sim_wg *wg = w->wg;
   uint64_t off = va - SIM_SCRATCH_VA;
   if (off < wg->scratch_size)
      return bytes <= wg->scratch_size - off ? wg->scratch + off : NULL;
   const sim_alloc *a = sim__vm_direct(w, in, va, bytes, write);
   return a ? a->view + (va - a->va) : NULL;
}

/* Every lane's address of byte `k` (va[l]; lanes outside `m` too, harmlessly), and the
 * lowest and highest over `m`. Branch-free loops over the index and offset rows. */
static void
mubuf_lane_addrs(const mubuf_rsrc *r, const uint32_t *idx, const uint32_t *off, uint32_t k,
                 uint64_t m, uint64_t va[64], uint64_t *lo, uint64_t *hi)
{
   uint64_t base = r->base + r->soffset;
   if (r->swizzle) {
      uint32_t emask = (1u << r->esh) - 1, imask = (1u << r->ish) - 1;
      for (unsigned l = 0; l < 64; l++) {
         uint32_t o = off[l] + k;
         va[l] = base +
                 (((uint64_t)(idx[l] >> r->ish) * r->stride + (o & ~emask)) << r->ish) +
                 ((idx[l] & imask) << r->esh) + (o & emask);
      }
   } else {
      for (unsigned l = 0; l < 64; l++)
         va[l] = base + (uint64_t)idx[l] * r->stride + off[l] + k;
   }
   /* Inactive lanes count as the first active one; four chains of compares, not one. */
   uint64_t first = va[__builtin_ctzll(m)], mn[4], mx[4];
   for (unsigned j = 0; j < 4; j++)
      mn[j] = mx[j] = first;
   for (unsigned l = 0; l < 64; l += 4) {
      for (unsigned j = 0; j < 4; j++) {
         uint64_t v = (m >> (l + j)) & 1 ? va[l + j] : first;
         mn[j] = v < mn[j] ? v : mn[j];
         mx[j] = v > mx[j] ? v : mx[j];
      }
   }
   for (unsigned j = 0; j < 4; j++) {
      *lo = mn[j] < *lo ? mn[j] : *lo;
      *hi = mx[j] > *hi ? mx[j] : *hi;
   }
}

bool
sim__mubuf_lanes(sim_wave *w, const sim_inst *in, uint64_t m, unsigned n, bool store,
                 uint64_t va[4][64], uint64_t *lo, uint64_t *hi)
{
   unsigned data = store ? in->mem.data0 : in->vdst;
   unsigned rows = !!(in->flags & SIM_IF_IDXEN) + !!(in->flags & SIM_IF_OFFEN);
   if (!m || (in->flags & SIM_IF_LDS) || data + n > w->nvgpr ||
       (rows && in->mem.addr + rows > w->nvgpr))
      return false;
   mubuf_rsrc r;
   mubuf_rsrc_read(w, in, &r);
   /* The lanes' index and offset (mubuf_addr's), once for all dwords. */
   uint32_t idx[64], off[64];
   unsigned a = in->mem.addr;
   const uint32_t *vi = (in->flags & SIM_IF_IDXEN) ? w->v[a++] : NULL;
   const uint32_t *vo = (in->flags & SIM_IF_OFFEN) ? w->v[a] : NULL;
   uint32_t tid = r.add_tid, imm = (uint32_t)in->imm;
   for (unsigned l = 0; l < 64; l++) {
      idx[l] = (vi ? vi[l] : 0) + l * tid;
      off[l] = (vo ? vo[l] : 0) + imm;
   }
   *lo = UINT64_MAX;
   *hi = 0;
   for (unsigned k = 0; k < n; k++)
      mubuf_lane_addrs(&r, idx, off, 4 * k, m, va[k], lo, hi);
   /* A span past 2^40 bytes is in no allocation; it also keeps hi + 4 from wrapping. */
   return *hi >= *lo && *hi - *lo <= (1ull << 40);
}

/* The scratch shape at one offset (spills, and private arrays indexed alike in every
 * lane): a swizzled V# with ADD_TID, 4-byte elements and an index stride that holds the
 * wave, no IDXEN, and one offset for every active lane (no OFFEN, or OFFEN with the same
 * VGPR value in each). Lane l's dword k is then at row[k] + 4l: the formulas at the top
 * with index = l, below the stride. */
static bool
mubuf_rows(const sim_wave *w, const sim_inst *in, const mubuf_rsrc *r, uint64_t m, unsigned n,
           uint64_t row[4])
{
   if (!r->swizzle || !r->add_tid || r->esh != 2 || (1u << r->ish) < w->lanes ||
       (in->flags & SIM_IF_IDXEN))
      return false;
   uint32_t o = (uint32_t)in->imm;
   if (in->flags & SIM_IF_OFFEN) {
      const uint32_t *vo = w->v[in->mem.addr];
      uint32_t f = vo[__builtin_ctzll(m)];
      sim_u32x4 diff = {0};
      for (unsigned g = 0; g < 64; g += 4) {
         sim_u32x4 k, v;
         memcpy(&k, sim__nibble_mask[(m >> g) & 15], 16);
         memcpy(&v, vo + g, 16);
         diff |= (v ^ f) & k;
      }
      if (diff[0] | diff[1] | diff[2] | diff[3])
         return false;
      o += f;
   }
   for (unsigned k = 0; k < n; k++) {
      uint32_t ok = o + 4 * k;
      row[k] = r->base + r->soffset + ((uint64_t)(ok & ~3u) << r->ish) + (ok & 3u);
   }
   return true;
}

/* Moves the n rows mubuf_rows found: the active lanes' span [first, last] of each. Rows are
 * disjoint (4 << ish bytes apart, at least a row), so order does not matter. */
static bool
mubuf_rows_move(sim_wave *w, const sim_inst *in, uint64_t m, unsigned n, bool store,
                const uint64_t row[4])
{
   unsigned data = store ? in->mem.data0 : in->vdst;
   unsigned first = __builtin_ctzll(m), last = 63 - __builtin_clzll(m);
   uint64_t lo = UINT64_MAX, hi = 0;
   for (unsigned k = 0; k < n; k++) {
      lo = row[k] < lo ? row[k] : lo;
      hi = row[k] > hi ? row[k] : hi;
   }
   lo += 4 * first;
   hi += 4 * last;
   /* A span past 2^40 bytes (an offset that wrapped) is in no allocation. */
   if (hi < lo || hi - lo > (1ull << 40))
      return false;
   uint8_t *host = sim__mubuf_span(w, in, lo, hi - lo + 4, store);
   if (!host)
      return false;
   size_t len = 4 * (size_t)(last - first + 1);
   bool dense = (unsigned)__builtin_popcountll(m) == last - first + 1;
   if (store) {
      for (unsigned k = 0; k < n; k++) {
         uint8_t *p = host + (row[k] + 4 * first - lo);
         if (dense)
            memcpy(p, &w->v[data + k][first], len);
         else
            for (unsigned l = first; l <= last; l++)
               if ((m >> l) & 1)
                  memcpy(p + 4 * (l - first), &w->v[data + k][l], 4);
      }
      return true;
   }
   /* All rows are read before any is written (the offset VGPR may be VDATA's). */
   uint32_t tmp[4][64];
   for (unsigned k = 0; k < n; k++)
      memcpy(&tmp[k][first], host + (row[k] + 4 * first - lo), len);
   for (unsigned k = 0; k < n; k++) {
      if (dense)
         memcpy(&w->v[data + k][first], &tmp[k][first], len);
      else
         for (unsigned l = first; l <= last; l++)
            if ((m >> l) & 1)
               w->v[data + k][l] = tmp[k][l];
   }
   return true;
}

/* The scratch shape at per-lane offsets (a private array indexed by data): mubuf_rows's V#
 * with OFFEN and every active lane's offset o (VGPR + OFFSET) dword-aligned, o + 4(n - 1)
 * not wrapping. Lane l's dword k is at base + SOFFSET + ((o + 4k) << ish) + 4l: one span
 * lookup for the rows from the lowest active offset's to the highest's (every lane's dwords
 * lie inside, so a span found valid holds them all), then a dword a lane. No two lanes' or
 * dwords' addresses meet (offsets are multiples of 4, shifted past the lane bits), so a
 * store's lane order does not matter. False when the shape or the span does not hold: the
 * general path then decides, lane by lane where it must, and faults exactly. */
static bool
mubuf_scratch_lanes(sim_wave *w, const sim_inst *in, const mubuf_rsrc *r, uint64_t m,
                    unsigned n, bool store)
{
   if (!r->swizzle || !r->add_tid || r->esh != 2 || (1u << r->ish) < w->lanes ||
       (in->flags & SIM_IF_IDXEN) || !(in->flags & SIM_IF_OFFEN))
      return false;
   const uint32_t *vo = w->v[in->mem.addr];
   uint32_t imm = (uint32_t)in->imm, o[64];
   /* The active offsets' OR, lowest and highest, four lanes a step (a mask table row, as
    * sim__lanes_select: no per-lane shifts of m, which kept the loop scalar). */
   sim_u32x4 vlo = {UINT32_MAX, UINT32_MAX, UINT32_MAX, UINT32_MAX}, vhi = {0}, vbits = {0};
   for (unsigned g = 0; g < 64; g += 4) {
      sim_u32x4 k, v;
      memcpy(&k, sim__nibble_mask[(m >> g) & 15], 16);
      memcpy(&v, vo + g, 16);
      v += imm;
      memcpy(o + g, &v, 16);
      sim_u32x4 on = v & k, off = v | ~k;
      vbits |= on;
      sim_u32x4 below = (sim_u32x4)(off < vlo), above = (sim_u32x4)(on > vhi);
      vlo = (off & below) | (vlo & ~below);
      vhi = (on & above) | (vhi & ~above);
   }
   uint32_t lo = UINT32_MAX, hi = 0, bits = 0;
   for (unsigned j = 0; j < 4; j++) {
      bits |= vbits[j];
      lo = vlo[j] < lo ? vlo[j] : lo;
      hi = vhi[j] > hi ? vhi[j] : hi;
   }
   if ((bits & 3) || hi > UINT32_MAX - 4 * (n - 1))
      return false;
   unsigned first = __builtin_ctzll(m), last = 63 - __builtin_clzll(m);
   uint64_t base = r->base + r->soffset;
   uint64_t span_lo = base + ((uint64_t)lo << r->ish) + 4 * first;
   uint64_t span_hi = base + ((uint64_t)(hi + 4 * (n - 1)) << r->ish) + 4 * last + 4;
   uint8_t *host = sim__mubuf_span(w, in, span_lo, span_hi - span_lo, store);
   if (!host)
      return false;
   /* The host address of `base` (an integer: it may lie before the span's allocation). */
   uintptr_t hb = (uintptr_t)host - (uintptr_t)(span_lo - base);
   unsigned data = store ? in->mem.data0 : in->vdst;
   if (store) {
      for (unsigned l = first; l <= last; l++)
         for (unsigned k = 0; ((m >> l) & 1) && k < n; k++)
            memcpy((void *)(hb + ((uint64_t)(o[l] + 4 * k) << r->ish) + 4 * l),
                   &w->v[data + k][l], 4);
      return true;
   }
   /* All lanes are read before any row is written (the offset VGPR may be VDATA's). */
   uint32_t tmp[4][64];
   for (unsigned l = first; l <= last; l++)
      for (unsigned k = 0; ((m >> l) & 1) && k < n; k++)
         memcpy(&tmp[k][l], (const void *)(hb + ((uint64_t)(o[l] + 4 * k) << r->ish) + 4 * l),
                4);
   for (unsigned k = 0; k < n; k++)
      sim__lanes_select(w->v[data + k], tmp[k], m);
   return true;
}

bool
sim__mubuf_fast(sim_wave *w, const sim_inst *in, uint64_t m, unsigned n, bool store)
{
   unsigned data = store ? in->mem.data0 : in->vdst;
   if (m && !(in->flags & (SIM_IF_LDS | SIM_IF_IDXEN)) && data + n <= w->nvgpr &&
       (!(in->flags & SIM_IF_OFFEN) || in->mem.addr < w->nvgpr)) {
      mubuf_rsrc r;
      uint64_t row[4];
      mubuf_rsrc_read(w, in, &r);
      if (mubuf_rows(w, in, &r, m, n, row))
         return mubuf_rows_move(w, in, m, n, store, row);
      if (mubuf_scratch_lanes(w, in, &r, m, n, store))
         return true;
   }
   uint64_t va[4][64], lo, hi;
   if (!sim__mubuf_lanes(w, in, m, n, store, va, &lo, &hi))
      return false;
   uint8_t *host = sim__mubuf_span(w, in, lo, hi - lo + 4, store);
   if (!host)
      return false;
   /* Every lane's dword k at va[k][0] + 4l (swizzled scratch at one private offset): whole
    * rows. */
   bool unit = m == ~0ull;
   for (unsigned k = 0; unit && k < n; k++) {
      uint64_t bad = 0;
      for (unsigned l = 0; l < 64; l++)
         bad |= va[k][l] ^ (va[k][0] + 4 * l);
      unit = !bad;
   }
   if (store) {
      if (unit) {
         /* No two lanes share a byte: lane order does not matter. */
         for (unsigned k = 0; k < n; k++)
            memcpy(host + (va[k][0] - lo), w->v[data + k], 256);
         return true;
      }
      /* Lane order as the general path: a later lane's store to the same address wins. */
      for (unsigned l = 0; l < 64; l++)
         if ((m >> l) & 1)
            for (unsigned k = 0; k < n; k++)
               memcpy(host + (va[k][l] - lo), &w->v[data + k][l], 4);
      return true;
   }
   /* All lanes are read before any row is written (the address VGPRs may be VDATA's). */
   uint32_t tmp[4][64];
   for (unsigned k = 0; k < n; k++) {
      if (unit)
         memcpy(tmp[k], host + (va[k][0] - lo), 256);
      else
         for (unsigned l = 0; l < 64; l++)
            if ((m >> l) & 1)
               memcpy(&tmp[k][l], host + (va[k][l] - lo), 4);
   }
   for (unsigned k = 0; k < n; k++) {
      if (m == ~0ull)
         memcpy(w->v[data + k], tmp[k], 256);
      else
         sim__lanes_select(w->v[data + k], tmp[k], m);
   }
   return true;
}

#define LD(name, kind)                                                                      \
   void sim__op_##name(sim_wave *w, const sim_inst *in)                                      \
   {                                                                                        \
      sim__vm_load(w, in, mubuf_xlate, kind);                                               \
   }
#define ST(name, bytes, hi)                                                                 \
   void sim__op_##name(sim_wave *w, const sim_inst *in)                                      \
   {                                                                                        \
      sim__vm_store(w, in, mubuf_xlate, bytes, hi);                                         \
   }
#define AT(name, op)                                                                        \
   void sim__op_##name(sim_wave *w, const sim_inst *in)                                      \
   {                                                                                        \
      sim__vm_atomic(w, in, mubuf_xlate, op, false);                                        \
   }                                                                                        \
   void sim__op_##name##_x2(sim_wave *w, const sim_inst *in)                                 \
   {                                                                                        \
      sim__vm_atomic(w, in, mubuf_xlate, op, true);                                         \
   }

/* VDATA = MEM[ADDR]. */
LD(buffer_load_ubyte, SIM_VM_U8)
LD(buffer_load_sbyte, SIM_VM_I8)
LD(buffer_load_ushort, SIM_VM_U16)
LD(buffer_load_sshort, SIM_VM_I16)
LD(buffer_load_dword, SIM_VM_DW1)
LD(buffer_load_dwordx2, SIM_VM_DW2)
LD(buffer_load_dwordx3, SIM_VM_DW3)
LD(buffer_load_dwordx4, SIM_VM_DW4)
LD(buffer_load_ubyte_d16, SIM_VM_U8_D16)
LD(buffer_load_ubyte_d16_hi, SIM_VM_U8_D16_HI)
LD(buffer_load_sbyte_d16, SIM_VM_I8_D16)
LD(buffer_load_sbyte_d16_hi, SIM_VM_I8_D16_HI)
LD(buffer_load_short_d16, SIM_VM_16_D16)
LD(buffer_load_short_d16_hi, SIM_VM_16_D16_HI)
/* MEM[ADDR] = VDATA. */
ST(buffer_store_byte, 1, false)
ST(buffer_store_byte_d16_hi, 1, true)
ST(buffer_store_short, 2, false)
ST(buffer_store_short_d16_hi, 2, true)
ST(buffer_store_dword, 4, false)
ST(buffer_store_dwordx2, 8, false)
ST(buffer_store_dwordx3, 12, false)
ST(buffer_store_dwordx4, 16, false)
/* tmp = MEM[ADDR]; MEM[ADDR] = op(tmp, DATA); VDATA = tmp when GLC. */
AT(buffer_atomic_swap, SIM_AT_SWAP)
AT(buffer_atomic_cmpswap, SIM_AT_CMPSWAP)
AT(buffer_atomic_add, SIM_AT_ADD)
AT(buffer_atomic_sub, SIM_AT_SUB)
AT(buffer_atomic_smin, SIM_AT_SMIN)
AT(buffer_atomic_umin, SIM_AT_UMIN)
AT(buffer_atomic_smax, SIM_AT_SMAX)
AT(buffer_atomic_umax, SIM_AT_UMAX)
AT(buffer_atomic_and, SIM_AT_AND)
AT(buffer_atomic_or, SIM_AT_OR)
AT(buffer_atomic_xor, SIM_AT_XOR)
AT(buffer_atomic_inc, SIM_AT_INC)
AT(buffer_atomic_dec, SIM_AT_DEC)
/* gfx90a's float atomics, one width each (as their global forms, sim_flat.c). */
#define AT_FP(name, op, wide)                                                               \
   void sim__op_##name(sim_wave *w, const sim_inst *in)                                      \
   {                                                                                        \
      sim__vm_atomic(w, in, mubuf_xlate, op, wide);                                         \
   }
AT_FP(buffer_atomic_add_f32, SIM_AT_FADD_F32, false)
AT_FP(buffer_atomic_pk_add_f16, SIM_AT_PK_ADD_F16, false)
AT_FP(buffer_atomic_add_f64, SIM_AT_FADD_F64, true)
AT_FP(buffer_atomic_min_f64, SIM_AT_FMIN_F64, true)
AT_FP(buffer_atomic_max_f64, SIM_AT_FMAX_F64, true)
/* gfx10's (sim_flat.c): the _x2 min/max are gfx90a's f64 ones. */
AT_FP(buffer_atomic_fmin, SIM_AT_FMIN_F32, false)
AT_FP(buffer_atomic_fmax, SIM_AT_FMAX_F32, false)
AT_FP(buffer_atomic_fmin_x2, SIM_AT_FMIN_F64, true)
AT_FP(buffer_atomic_fmax_x2, SIM_AT_FMAX_F64, true)
AT_FP(buffer_atomic_fcmpswap, SIM_AT_FCMPSWAP, false)
AT_FP(buffer_atomic_fcmpswap_x2, SIM_AT_FCMPSWAP, true)
AT_FP(buffer_atomic_csub, SIM_AT_CSUB, false)

/*
 * BUFFER_STORE_LDS_DWORD (MUBUF 61, [ISA] 9.x "Buffer instructions": "store one DWORD from
 * LDS memory to system memory without utilizing VGPRs"). Each active lane stores the dword
 * at its LDS address, formed as for a buffer load to LDS ([ISA] 9.x "Buffer load to LDS"):
 *    LDS_ADDR = M0[15:0] (LDS_offset, bytes) + OFFSET12 (inst_offset) + lane * 4
 *    MEM[ADDR] = LDS[LDS_ADDR]
 * ADDR as every MUBUF access. The opcode exists only with the LDS bit set (the decoder
 * knows no MUBUF 61 otherwise, as LLVM's); VDATA is not read. An LDS address past the
 * work-group's allocation faults as any LDS access does.
 */
void
sim__op_buffer_store_lds_dword(sim_wave *w, const sim_inst *in)
{
   if (!(in->flags & SIM_IF_LDS)) {
      sim__fault_illegal(w, in, "buffer_store_lds_dword without the LDS bit");
      return;
   }
   if ((in->flags & SIM_IF_IDXEN) || (in->flags & SIM_IF_OFFEN)) {
      unsigned rows = !!(in->flags & SIM_IF_IDXEN) + !!(in->flags & SIM_IF_OFFEN);
      if (!sim__vrow(w, in, in->mem.addr + rows - 1))
         return;
   }
   uint64_t m = SIM_EXEC(w);
   uint32_t base = (SIM_M0(w) & 0xFFFF) + (uint32_t)in->imm;
   for (unsigned l = 0; l < 64; l++) {
      if (!((m >> l) & 1))
         continue;
      const uint8_t *src = sim__lds_ptr(w, base + 4 * l, 4);
      if (!src)
         return;
      uint32_t v;
      memcpy(&v, src, 4);
      void *dst = mubuf_xlate(w, in, l, 0, 4, true);
      if (!dst)
         return;
      memcpy(dst, &v, 4);
   }
}

static void
mubuf_format(sim_wave *w, const sim_inst *in, unsigned n, bool store, bool d16, bool hi)
{
   const uint32_t *v = &w->s[in->mem.srsrc & 0x7C];
   unsigned dfmt = 0, nfmt = 0;
   bool valid = sim__texel_vsharp_format(w->target->gfx_major, v[3], &dfmt, &nfmt);
   if (in->enc == SIM_ENC_MTBUF) {
      dfmt = in->mem.dfmt;
      nfmt = in->mem.nfmt;
      valid = true;
   }
   sim_texel_fmt f;
   if (!valid || !sim__texel_format(dfmt, nfmt, &f)) {
      char why[96];
      snprintf(why, sizeof(why), "buffer V# DATA_FORMAT %u with NUM_FORMAT %u not supported",
               dfmt, nfmt);
      sim__fault_illegal(w, in, why);
      return;
   }
   uint8_t sel[4] = {v[3] & 7, (v[3] >> 3) & 7, (v[3] >> 6) & 7, (v[3] >> 9) & 7};
   unsigned nd = d16 ? (n + 1) / 2 : n, data = store ? in->mem.data0 : in->vdst;
   if (data + nd > w->nvgpr) {
      sim__fault_illegal(w, in, "buffer format operands beyond the allocated VGPRs");
      return;
   }
   uint64_t exec = SIM_EXEC(w);
   uint32_t out[4][64];
   for (unsigned l = 0; l < 64; l++) {
      if (!((exec >> l) & 1))
         continue;
      uint8_t *p = mubuf_xlate(w, in, l, 0, f.bytes, store);
      if (!p)
         return;
      uint32_t comp[4] = {0, 0, 0, 0};
      if (store) {
         for (unsigned i = 0; i < n; i++) {
            uint32_t x = w->v[data + (d16 ? i / 2 : i)][l];
            if (d16) {
               x = (x >> (16 * ((i & 1) | hi))) & 0xFFFF;
               x = !f.is_int ? sim__as_u32(sim__f16_to_f32(x))
                   : f.conv == SIM_NFMT_SINT ? (uint32_t)(int32_t)(int16_t)x : x;
            }
            comp[i] = x;
         }
         sim__texel_write(&f, sel, comp, p);
         continue;
      }
      sim__texel_read(&f, sel, p, comp);
      for (unsigned j = 0; j < nd; j++)
         out[j][l] = hi ? w->v[data][l] & 0xFFFF : 0;
      for (unsigned i = 0; i < n; i++) {
         if (d16) {
            uint32_t h = f.is_int ? comp[i] & 0xFFFF : sim__f32_to_f16(sim__as_f32(comp[i]));
            out[i / 2][l] |= h << (16 * ((i & 1) | hi));
         } else {
            out[i][l] = comp[i];
         }
      }
   }
   if (store)
      return;
   for (unsigned j = 0; j < nd; j++)
      for (unsigned l = 0; l < 64; l++)
         if ((exec >> l) & 1)
            w->v[data + j][l] = out[j][l];
}

#define FMT(name, n, store, d16)                                                            \
   void sim__op_##name(sim_wave *w, const sim_inst *in)                                      \
   {                                                                                        \
      mubuf_format(w, in, n, store, d16, false);                                            \
   }
FMT(buffer_load_format_x, 1, false, false)
FMT(buffer_load_format_xy, 2, false, false)
FMT(buffer_load_format_xyz, 3, false, false)
FMT(buffer_load_format_xyzw, 4, false, false)
FMT(buffer_store_format_x, 1, true, false)
FMT(buffer_store_format_xy, 2, true, false)
FMT(buffer_store_format_xyz, 3, true, false)
FMT(buffer_store_format_xyzw, 4, true, false)
FMT(buffer_load_format_d16_x, 1, false, true)
FMT(buffer_load_format_d16_xy, 2, false, true)
FMT(buffer_load_format_d16_xyz, 3, false, true)
FMT(buffer_load_format_d16_xyzw, 4, false, true)
FMT(buffer_store_format_d16_x, 1, true, true)
FMT(buffer_store_format_d16_xy, 2, true, true)
FMT(buffer_store_format_d16_xyz, 3, true, true)
FMT(buffer_store_format_d16_xyzw, 4, true, true)
/* VDATA[31:16] = the x component (VDATA[15:0] kept); MEM = VDATA[31:16] as x. */
void
sim__op_buffer_load_format_d16_hi_x(sim_wave *w, const sim_inst *in)
{
   mubuf_format(w, in, 1, false, true, true);
}
void
sim__op_buffer_store_format_d16_hi_x(sim_wave *w, const sim_inst *in)
{
   mubuf_format(w, in, 1, true, true, true);
}
/* Typed buffer access: the format fields of the instruction. */
FMT(tbuffer_load_format_x, 1, false, false)
FMT(tbuffer_load_format_xy, 2, false, false)
FMT(tbuffer_load_format_xyz, 3, false, false)
FMT(tbuffer_load_format_xyzw, 4, false, false)
FMT(tbuffer_store_format_x, 1, true, false)
FMT(tbuffer_store_format_xy, 2, true, false)
FMT(tbuffer_store_format_xyz, 3, true, false)
FMT(tbuffer_store_format_xyzw, 4, true, false)
FMT(tbuffer_load_format_d16_x, 1, false, true)
FMT(tbuffer_load_format_d16_xy, 2, false, true)
FMT(tbuffer_load_format_d16_xyz, 3, false, true)
FMT(tbuffer_load_format_d16_xyzw, 4, false, true)
FMT(tbuffer_store_format_d16_x, 1, true, true)
FMT(tbuffer_store_format_d16_xy, 2, true, true)
FMT(tbuffer_store_format_d16_xyz, 3, true, true)
FMT(tbuffer_store_format_d16_xyzw, 4, true, true)

/* Write back and invalidate the vector L1 cache ([AMDGPUUsage] "Memory Model GFX6-GFX9"):
 * the L1 is write-through, so only the invalidation shows; it exists in the checking mode
 * (sim_l1.c), whose lines are all volatile (coarse-grained memory), so _VOL drops them
 * all too. */
void
sim__op_buffer_wbinvl1(sim_wave *w, const sim_inst *in)
{
   (void)in;
   sim__l1_invalidate(w);
}
void
sim__op_buffer_wbinvl1_vol(sim_wave *w, const sim_inst *in)
{
   (void)in;
   sim__l1_invalidate(w);
}
