/*
 * FLAT, GLOBAL and SCRATCH ([ISA] chapter 10 "Flat memory instructions", 12.x "FLAT,
 * Scratch and Global instructions"), and the vector-memory engine MUBUF shares.
 * FLAT:    ADDR = VGPR[ADDR+1:ADDR] + OFFSET (12-bit unsigned); the shared/private
 *          apertures (high 32 bits) select LDS or this lane's swizzled scratch.
 * GLOBAL:  SADDR = off: ADDR = VGPR pair + signext(OFFSET13); else SGPR pair + VGPR[ADDR].u
 *          + signext(OFFSET13).
 * SCRATCH: private offset = (SADDR = off ? VGPR[ADDR] : SGPR[SADDR]) + signext(OFFSET13),
 *          placed like a private-aperture access through FLAT_SCRATCH.
 * Atomics are host __atomic compare-exchange loops so concurrent work-groups are correct.
 */
#include "sim_isa_priv.h"

/* ---- Address translation ---------------------------------------------------------------- */

static inline uint64_t
vaddr64(sim_wave *w, const sim_inst *in, unsigned lane)
{
   return w->v[in->mem.addr][lane] | (uint64_t)w->v[in->mem.addr + 1][lane] << 32;
}

static void *
flat_xlate(sim_wave *w, const sim_inst *in, unsigned lane, uint32_t k, uint32_t size,
           bool write)
{
   return sim__flat_ptr(w, vaddr64(w, in, lane) + (uint32_t)in->imm + k, lane, size, write);
}

static void *
global_xlate(sim_wave *w, const sim_inst *in, unsigned lane, uint32_t k, uint32_t size,
             bool write)
{
   uint64_t a;
   if (in->mem.saddr == 0x7F)
      a = vaddr64(w, in, lane);
   else
      a = sim__sread64(w, in, in->mem.saddr, SIM_K_B64) + w->v[in->mem.addr][lane];
   return sim__gpu_ptr(w, a + (int64_t)in->imm + k, size, write);
}

static void *
scratch_xlate(sim_wave *w, const sim_inst *in, unsigned lane, uint32_t k, uint32_t size,
              bool write)
{
   uint32_t off = in->mem.saddr == 0x7F ? w->v[in->mem.addr][lane] : w->s[in->mem.saddr];
   off += (uint32_t)in->imm + k;
   return sim__gpu_ptr(w, sim__scratch_swizzle(w, off, lane), size, write);
}

/* ---- Fast path ---------------------------------------------------------------------------
 * Dword GLOBAL and FLAT accesses whose active lanes all fall inside one allocation (the
 * wave's cached one, else the one the first active lane hits) that overlaps neither the
 * scratch window nor a FLAT aperture: lane addresses are computed for all 64 lanes at once
 * and bounds-checked together, then the data moves without per-lane translation. Anything
 * else (other allocations, apertures, faults) takes the general per-lane path, which
 * reports faults exactly as before. */

static bool
alloc_plain(const sim_wave *w, const sim_alloc *a, const sim_inst *in)
{
   uint64_t lo = a->va, hi = a->va + a->reach; /* [lo, hi) */
   uint64_t s0 = SIM_SCRATCH_VA, s1 = SIM_SCRATCH_VA + w->wg->scratch_size;
   if (lo < s1 && s0 < hi)
      return false;
   if (in->enc == SIM_ENC_FLAT) {
      uint64_t l0 = SIM_APERTURE_SHARED_BASE, p0 = SIM_APERTURE_PRIVATE_BASE;
      if ((lo < l0 + SIM_APERTURE_SIZE && l0 < hi) || (lo < p0 + SIM_APERTURE_SIZE && p0 < hi))
         return false;
   }
   return true;
}

const sim_alloc *
sim__vm_direct(sim_wave *w, const sim_inst *in, uint64_t va, uint64_t bytes, bool write)
{
   const sim_alloc *a = sim__alloc_find(w, va);
   if (!a)
      return NULL;
   if (bytes > a->reach || va - a->va > a->reach - bytes || !alloc_plain(w, a, in))
      return NULL;
   /* Doorbell stores take the general path, which tells the CP (sim__gpu_ptr). */
   if (write && ((a->flags & (SIM_ALLOC_CODE | SIM_ALLOC_DOORBELL)) ||
                 !(a->flags & SIM_ALLOC_WRITE)))
      return NULL;
   /* Cached lines are not one block: lane by lane through sim__gpu_ptr. */
   if (SIM_UNLIKELY(sim__cache_checking) && (a->flags & SIM_ALLOC_COARSE))
      return NULL;
   return a;
}

/* Host base pointer for the wave's accesses, or NULL: lane l accesses
 * base + (uint64_t)(*rel + lo[l]), lo being the address VGPR (low words). `*unit` is set
 * when every lane is active and lane l accesses lo[0] + l * bytes (one block).
 *
 * Bounds in 32-bit lanes: every lane address is R' + lo[l] with a per-instruction 64-bit
 * R' (the SGPR base, or the common high word of the VGPR pairs, plus the offset), so with
 * R = R' - alloc VA the lane is inside [0, lim] exactly when lo[l] is inside the 32-bit
 * range [max(0, -R), min(2^32 - 1, lim - R)] (lim < 2^63: no wrap-around). Lanes whose
 * high words differ take the general path. With every lane active the checks are OR
 * reductions (no lane mask to build). */
static uint8_t *
vm_fast(sim_wave *w, const sim_inst *in, uint64_t m, uint32_t bytes, bool write,
        int64_t *rel, bool *unit)
{
   const uint32_t *restrict lo = w->v[in->mem.addr];
   bool full = m == ~0ull;
   unsigned first = (unsigned)__builtin_ctzll(m);
   uint64_t rbase;
   if (in->enc == SIM_ENC_GLOBAL && in->mem.saddr != 0x7F) {
      rbase = sim__sread64(w, in, in->mem.saddr, SIM_K_B64) + (uint64_t)(int64_t)in->imm;
   } else {
      const uint32_t *restrict hi = w->v[in->mem.addr + 1];
      uint32_t h = hi[first];
      if (full) {
         uint32_t d = 0;
         for (unsigned l = 0; l < 64; l++)
            d |= hi[l] ^ h;
         if (d)
            return NULL;
      } else {
         uint32_t diff[64];
         for (unsigned l = 0; l < 64; l++)
            diff[l] = hi[l] != h;
         if (sim__lanes_pack32(diff) & m)
            return NULL;
      }
      uint64_t imm = in->enc == SIM_ENC_FLAT ? (uint64_t)(uint32_t)in->imm
                                             : (uint64_t)(int64_t)in->imm;
      rbase = ((uint64_t)h << 32) + imm;
   }
   const sim_alloc *a = sim__vm_direct(w, in, rbase + lo[first], bytes, write);
   if (!a)
      return NULL;
   int64_t r = (int64_t)(rbase - a->va);
   int64_t lim = (int64_t)(a->reach - bytes);
   int64_t lmin = r < 0 ? -r : 0, lmax = lim - r;
   if (lmax > 0xFFFFFFFFll)
      lmax = 0xFFFFFFFFll;
   if (lmin > lmax)
      return NULL;
   uint32_t lb = (uint32_t)lmin, span = (uint32_t)(lmax - lmin);
   uint32_t l0 = lo[0], apart = 0;
   if (full) {
      /* `e` counts up rather than l0 + l * bytes: SSE2 has no 32-bit lane multiply. */
      uint32_t bad = 0, e = l0;
      for (unsigned l = 0; l < 64; l++, e += bytes) {
         bad |= lo[l] - lb > span;
         apart |= lo[l] ^ e;
      }
      if (bad)
         return NULL;
   } else {
      uint32_t bad[64];
      for (unsigned l = 0; l < 64; l++)
         bad[l] = lo[l] - lb > span;
      if (sim__lanes_pack32(bad) & m)
         return NULL;
   }
   *rel = r;
   /* l0 + 63 * bytes must not wrap: lanes 32-bit apart are not one block. */
   *unit = full && !apart && l0 <= UINT32_MAX - 63 * bytes;
   return a->view;
}

/* ---- Engine ---------------------------------------------------------------------------- */

/* VGPRs the address operand occupies: a 64-bit address for FLAT and GLOBAL without saddr,
 * a 32-bit offset for GLOBAL with saddr and SCRATCH without, none for SCRATCH with saddr
 * or MUBUF (checked by the buffer code). */
static unsigned
addr_rows(const sim_inst *in)
{
   switch (in->enc) {
   case SIM_ENC_FLAT:
      return 2;
   case SIM_ENC_GLOBAL:
      return in->mem.saddr == 0x7F ? 2 : 1;
   case SIM_ENC_SCRATCH:
      return in->mem.saddr == 0x7F ? 1 : 0;
   default:
      return 0;
   }
}

static bool
check_rows(sim_wave *w, const sim_inst *in, unsigned first, unsigned n)
{
   return first + n <= w->nvgpr || sim__vrow(w, in, first + n - 1) != NULL;
}

static void vm_load(sim_wave *w, const sim_inst *in, sim_vm_xlate xl, unsigned kind);

/* Vector-memory loads (FLAT, GLOBAL, SCRATCH, MUBUF): in the checking mode through the
 * work-group's L1 (sim_l1.c), GLC forcing a miss. Not a tail call: this frame stays on the
 * stack of every guest load (sim/tests/tsan-suppressions.txt names it). */
void
sim__vm_load(sim_wave *w, const sim_inst *in, sim_vm_xlate xl, unsigned kind)
{
   if (SIM_UNLIKELY(sim__cache_checking))
      w->l1_load = sim__l1_policy(in);
   vm_load(w, in, xl, kind);
   w->l1_load = SIM_L1_NONE;
}

static void
vm_load(sim_wave *w, const sim_inst *in, sim_vm_xlate xl, unsigned kind)
{
   unsigned n = kind >= SIM_VM_DW1 && kind <= SIM_VM_DW4 ? kind - SIM_VM_DW1 + 1 : 1;
   if (!check_rows(w, in, in->vdst, n) ||
       (addr_rows(in) && !check_rows(w, in, in->mem.addr, addr_rows(in))))
      return;
   uint64_t m = SIM_EXEC(w);
   if (!m)
      return;
   if (in->enc == SIM_ENC_MUBUF && kind >= SIM_VM_DW1 && kind <= SIM_VM_DW4 &&
       sim__mubuf_fast(w, in, m, n, false))
      return;
   if ((in->enc == SIM_ENC_GLOBAL || in->enc == SIM_ENC_FLAT) &&
       kind >= SIM_VM_DW1 && kind <= SIM_VM_DW4) {
      int64_t rel;
      bool unit;
      uint8_t *base = vm_fast(w, in, m, 4 * n, false, &rel, &unit);
      const uint32_t *lo = w->v[in->mem.addr];
      if (base && unit && n == 1) {
         memcpy(w->v[in->vdst], base + (uint64_t)(rel + lo[0]), 256);
         return;
      }
      if (base) {
         /* All lanes are read before any row is written (address/data overlap); inactive
          * lanes read nothing. */
         uint32_t tmp[4][64];
         if (m == ~0ull && n == 1) {
            for (unsigned l = 0; l < 64; l++)
               memcpy(&tmp[0][l], base + (uint64_t)(rel + lo[l]), 4);
         } else {
            for (unsigned l = 0; l < 64; l++) {
               if (!((m >> l) & 1))
                  continue;
               const uint8_t *p = base + (uint64_t)(rel + lo[l]);
               for (unsigned k = 0; k < n; k++)
                  memcpy(&tmp[k][l], p + 4 * k, 4);
            }
         }
         for (unsigned k = 0; k < n; k++) {
            uint32_t *d = w->v[in->vdst + k];
            if (m == ~0ull)
               memcpy(d, tmp[k], 256);
            else
               sim__lanes_select(d, tmp[k], m);
         }
         return;
      }
   }
   for (unsigned l = 0; l < 64; l++) {
      if (!((m >> l) & 1))
         continue;
      uint32_t *d = &w->v[in->vdst][l];
      if (n > 1 || kind == SIM_VM_DW1) {
         /* All dwords are read before any is written: the destination may overlap the
          * address VGPRs (global_load_dwordx2 v[2:3], v[2:3], off). */
         uint32_t tmp[4];
         for (unsigned k = 0; k < n; k++) {
            const void *p = xl(w, in, l, 4 * k, 4, false);
            if (!p)
               return;
            memcpy(&tmp[k], p, 4);
         }
         for (unsigned k = 0; k < n; k++)
            w->v[in->vdst + k][l] = tmp[k];
         continue;
      }
      unsigned bytes = (kind == SIM_VM_U16 || kind == SIM_VM_I16 || kind == SIM_VM_16_D16 ||
                        kind == SIM_VM_16_D16_HI) ? 2 : 1;
      const uint8_t *p = xl(w, in, l, 0, bytes, false);
      if (!p)
         return;
      uint16_t h = p[0];
      if (bytes == 2)
         memcpy(&h, p, 2);
      switch (kind) {
      case SIM_VM_U8:
      case SIM_VM_U16:
         *d = h;
         break;
      case SIM_VM_I8:
         *d = (uint32_t)(int32_t)(int8_t)h;
         break;
      case SIM_VM_I16:
         *d = (uint32_t)(int32_t)(int16_t)h;
         break;
      case SIM_VM_U8_D16:
      case SIM_VM_16_D16:
         *d = (*d & 0xFFFF0000u) | h;
         break;
      case SIM_VM_I8_D16:
         *d = (*d & 0xFFFF0000u) | (uint16_t)(int16_t)(int8_t)h;
         break;
      case SIM_VM_U8_D16_HI:
      case SIM_VM_16_D16_HI:
         *d = (*d & 0xFFFF) | (uint32_t)h << 16;
         break;
      case SIM_VM_I8_D16_HI:
         *d = (*d & 0xFFFF) | (uint32_t)(uint16_t)(int16_t)(int8_t)h << 16;
         break;
      }
   }
}

void
sim__vm_store(sim_wave *w, const sim_inst *in, sim_vm_xlate xl, unsigned bytes, bool hi)
{
   unsigned n = bytes < 4 ? 1 : bytes / 4;
   if (!check_rows(w, in, in->mem.data0, n) ||
       (addr_rows(in) && !check_rows(w, in, in->mem.addr, addr_rows(in))))
      return;
   uint64_t m = SIM_EXEC(w);
   if (!m)
      return;
   if (in->enc == SIM_ENC_MUBUF && bytes >= 4 && sim__mubuf_fast(w, in, m, n, true))
      return;
   if ((in->enc == SIM_ENC_GLOBAL || in->enc == SIM_ENC_FLAT) && bytes >= 4) {
      int64_t rel;
      bool unit;
      uint8_t *base = vm_fast(w, in, m, bytes, true, &rel, &unit);
      const uint32_t *lo = w->v[in->mem.addr];
      if (base && unit && n == 1) {
         memcpy(base + (uint64_t)(rel + lo[0]), w->v[in->mem.data0], 256);
         return;
      }
      if (base) {
         /* Lane order as the general path: a later lane's store to the same address wins. */
         for (unsigned l = 0; l < 64; l++)
            if ((m >> l) & 1) {
               uint8_t *p = base + (uint64_t)(rel + lo[l]);
               for (unsigned k = 0; k < n; k++)
                  memcpy(p + 4 * k, &w->v[in->mem.data0 + k][l], 4);
            }
         return;
      }
   }
   for (unsigned l = 0; l < 64; l++) {
      if (!((m >> l) & 1))
         continue;
      if (bytes < 4) {
         uint8_t *p = xl(w, in, l, 0, bytes, true);
         if (!p)
            return;
         uint32_t v = w->v[in->mem.data0][l];
         if (hi)
            v >>= 16;
         memcpy(p, &v, bytes);
         continue;
      }
      for (unsigned k = 0; k < n; k++) {
         void *p = xl(w, in, l, 4 * k, 4, true);
         if (!p)
            return;
         memcpy(p, &w->v[in->mem.data0 + k][l], 4);
      }
   }
}

/* Two IEEE f16 adds, one a 16-bit half (round to nearest even, denormals kept): the sum of
 * two f16 values is exact in double, so one rounding to f16 follows. A NaN result is the
 * VALU's (the NaN operand quieted, else the default NaN). */
static uint32_t
pk_add_f16(uint32_t t, uint32_t d)
{
   uint32_t r = 0;
   for (unsigned h = 0; h < 32; h += 16) {
      float a = sim__f16_to_f32(t >> h), b = sim__f16_to_f32(d >> h);
      double s = sim__nanfix16((double)a + (double)b, a, b, 0.0f);
      _Float16 x = (_Float16)s;
      uint16_t u;
      memcpy(&u, &x, 2);
      r |= (uint32_t)u << h;
   }
   return r;
}

uint64_t
sim__vm_atomic_apply(unsigned op, uint64_t t, uint64_t d, uint64_t cmp, bool wide)
{
   uint64_t mask = wide ? ~0ull : 0xFFFFFFFFull;
   int64_t st = wide ? (int64_t)t : (int32_t)t, sd = wide ? (int64_t)d : (int32_t)d;
   switch (op) {
   case SIM_AT_ADD: return (t + d) & mask;
   case SIM_AT_SUB: return (t - d) & mask;
   case SIM_AT_RSUB: return (d - t) & mask;
   case SIM_AT_INC: return t >= d ? 0 : (t + 1) & mask;
   case SIM_AT_DEC: return (t == 0 || t > d) ? d : t - 1;
   case SIM_AT_SMIN: return st < sd ? t : d;
   case SIM_AT_SMAX: return st > sd ? t : d;
   case SIM_AT_UMIN: return t < d ? t : d;
   case SIM_AT_UMAX: return t > d ? t : d;
   case SIM_AT_AND: return t & d;
   case SIM_AT_OR: return t | d;
   case SIM_AT_XOR: return t ^ d;
   case SIM_AT_SWAP: return d;
   /* gfx90a: an IEEE add (round to nearest even, denormals kept), min/max as V_MIN_F64 /
    * V_MAX_F64 in IEEE mode. */
   case SIM_AT_FADD_F32:
      return sim__as_u32(sim__as_f32((uint32_t)t) + sim__as_f32((uint32_t)d));
   case SIM_AT_FADD_F64: return sim__as_u64(sim__as_f64(t) + sim__as_f64(d));
   case SIM_AT_FMIN_F64: return sim__as_u64(sim__fmin64(sim__as_f64(t), sim__as_f64(d), true));
   case SIM_AT_FMAX_F64: return sim__as_u64(sim__fmax64(sim__as_f64(t), sim__as_f64(d), true));
   case SIM_AT_PK_ADD_F16: return pk_add_f16((uint32_t)t, (uint32_t)d);
   /* gfx10: f32 min/max as V_MIN_F32 / V_MAX_F32 in IEEE mode (the f64 forms above); the
    * float compare-and-swap stores when MEM == cmp as floats (-0 equals +0, a NaN equals
    * nothing); csub: MEM = DATA > MEM ? 0 : MEM - DATA, unsigned. */
   case SIM_AT_FMIN_F32:
      return sim__as_u32(sim__fmin32(sim__as_f32((uint32_t)t), sim__as_f32((uint32_t)d), true));
   case SIM_AT_FMAX_F32:
      return sim__as_u32(sim__fmax32(sim__as_f32((uint32_t)t), sim__as_f32((uint32_t)d), true));
   case SIM_AT_FCMPSWAP:
      if (wide)
         return sim__as_f64(t) == sim__as_f64(cmp) ? d : t;
      return sim__as_f32((uint32_t)t) == sim__as_f32((uint32_t)cmp) ? d : t;
   case SIM_AT_CSUB: return d > t ? 0 : t - d;
   default: return t == cmp ? d : t; /* cmpswap: DATA[0] = src, DATA[1] = cmp */
   }
}

uint64_t
sim__vm_atomic_rmw(void *p, unsigned op, uint64_t d, uint64_t cmp, bool wide)
{
   if (wide) {
      uint64_t *q = p, t = __atomic_load_n(q, __ATOMIC_RELAXED);
      while (!__atomic_compare_exchange_n(q, &t, sim__vm_atomic_apply(op, t, d, cmp, true),
                                          false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
         ;
      return t;
   }
   uint32_t *q = p, t = __atomic_load_n(q, __ATOMIC_RELAXED);
   uint32_t v;
   do
      v = (uint32_t)sim__vm_atomic_apply(op, t, d, cmp, false);
   while (!__atomic_compare_exchange_n(q, &t, v, false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
   return t;
}

/*
 * Lanes are performed in lane order, as the general path always was, but lanes that name
 * the same address are combined into one host atomic: one compare-and-swap applies their
 * operations back to back and each lane gets the value before its own operation. That is
 * one of the executions the hardware allows (the lanes of one instruction reach the L2
 * atomic unit in some order, nothing of another agent in between is required), and it
 * turns 64 contended host atomics on one counter into one.
 */
void
sim__vm_atomic(sim_wave *w, const sim_inst *in, sim_vm_xlate xl, unsigned op, bool wide)
{
   unsigned nd = wide ? 2 : 1, ndata = sim__atomic_has_cmp(op) ? 2 * nd : nd;
   bool rtn = (in->flags & SIM_IF_GLC) != 0;
   if (!check_rows(w, in, in->mem.data0, ndata) || (rtn && !check_rows(w, in, in->vdst, nd)) ||
       (addr_rows(in) && !check_rows(w, in, in->mem.addr, addr_rows(in))))
      return;
   uint64_t m = SIM_EXEC(w);
   void *ptr[64];
   uint64_t data[64], cmp[64], old[64];
   unsigned r = in->mem.data0;
   /* Active lanes all inside one plain allocation (vm_fast): their pointers without a
    * translation each (the C11 atomics CTS entries: a third of the atomics' time). */
   int64_t rel = 0;
   bool unit;
   uint8_t *base = m && (in->enc == SIM_ENC_GLOBAL || in->enc == SIM_ENC_FLAT)
                      ? vm_fast(w, in, m, nd * 4, true, &rel, &unit)
                      : NULL;
   const uint32_t *lo = base ? w->v[in->mem.addr] : NULL;
   for (unsigned l = 0; l < 64; l++) {
      if (!((m >> l) & 1))
         continue;
      ptr[l] = base ? base + (uint64_t)(rel + lo[l]) : xl(w, in, l, 0, nd * 4, true);
      if (!ptr[l]) {
         m &= (1ull << l) - 1; /* the fault stops the instruction at this lane */
         break;
      }
      data[l] = w->v[r][l];
      cmp[l] = 0;
      if (wide)
         data[l] |= (uint64_t)w->v[r + 1][l] << 32;
      if (sim__atomic_has_cmp(op)) {
         cmp[l] = w->v[r + nd][l];
         if (wide)
            cmp[l] |= (uint64_t)w->v[r + nd + 1][l] << 32;
      }
   }
   uint64_t todo = m;
   while (todo) {
      unsigned first = (unsigned)__builtin_ctzll(todo);
      void *p = ptr[first];
      uint64_t group = 0;
      for (uint64_t rest = todo; rest; rest &= rest - 1) {
         unsigned l = (unsigned)__builtin_ctzll(rest);
         if (ptr[l] == p)
            group |= 1ull << l;
      }
      todo &= ~group;
      if (wide) {
         uint64_t *q = p, t = __atomic_load_n(q, __ATOMIC_RELAXED), v;
         do {
            v = t;
            for (uint64_t g = group; g; g &= g - 1) {
               unsigned l = (unsigned)__builtin_ctzll(g);
               old[l] = v;
               v = sim__vm_atomic_apply(op, v, data[l], cmp[l], true);
            }
         } while (!__atomic_compare_exchange_n(q, &t, v, false, __ATOMIC_SEQ_CST,
                                               __ATOMIC_RELAXED));
      } else {
         uint32_t *q = p, t = __atomic_load_n(q, __ATOMIC_RELAXED), v;
         do {
            v = t;
            for (uint64_t g = group; g; g &= g - 1) {
               unsigned l = (unsigned)__builtin_ctzll(g);
               old[l] = v;
               v = (uint32_t)sim__vm_atomic_apply(op, v, data[l], cmp[l], false);
            }
         } while (!__atomic_compare_exchange_n(q, &t, v, false, __ATOMIC_SEQ_CST,
                                               __ATOMIC_RELAXED));
      }
   }
   if (!rtn)
      return;
   for (uint64_t g = m; g; g &= g - 1) {
      unsigned l = (unsigned)__builtin_ctzll(g);
      w->v[in->vdst][l] = (uint32_t)old[l];
      if (wide)
         w->v[in->vdst + 1][l] = (uint32_t)(old[l] >> 32);
   }
}

/* ---- Opcodes ------------------------------------------------------------------------------ */

/* VDST = MEM[ADDR] (zero/sign-extended; _d16 forms write one half and keep the other). */
#define LOADS(seg)                                                                          \
   LD(seg##_load_ubyte, seg, SIM_VM_U8)                                                     \
   LD(seg##_load_sbyte, seg, SIM_VM_I8)                                                     \
   LD(seg##_load_ushort, seg, SIM_VM_U16)                                                   \
   LD(seg##_load_sshort, seg, SIM_VM_I16)                                                   \
   LD(seg##_load_dword, seg, SIM_VM_DW1)                                                    \
   LD(seg##_load_dwordx2, seg, SIM_VM_DW2)                                                  \
   LD(seg##_load_dwordx3, seg, SIM_VM_DW3)                                                  \
   LD(seg##_load_dwordx4, seg, SIM_VM_DW4)                                                  \
   LD(seg##_load_ubyte_d16, seg, SIM_VM_U8_D16)                                             \
   LD(seg##_load_ubyte_d16_hi, seg, SIM_VM_U8_D16_HI)                                       \
   LD(seg##_load_sbyte_d16, seg, SIM_VM_I8_D16)                                             \
   LD(seg##_load_sbyte_d16_hi, seg, SIM_VM_I8_D16_HI)                                       \
   LD(seg##_load_short_d16, seg, SIM_VM_16_D16)                                             \
   LD(seg##_load_short_d16_hi, seg, SIM_VM_16_D16_HI)
/* MEM[ADDR] = DATA. */
#define STORES(seg)                                                                         \
   ST(seg##_store_byte, seg, 1, false)                                                      \
   ST(seg##_store_byte_d16_hi, seg, 1, true)                                                \
   ST(seg##_store_short, seg, 2, false)                                                     \
   ST(seg##_store_short_d16_hi, seg, 2, true)                                               \
   ST(seg##_store_dword, seg, 4, false)                                                     \
   ST(seg##_store_dwordx2, seg, 8, false)                                                   \
   ST(seg##_store_dwordx3, seg, 12, false)                                                  \
   ST(seg##_store_dwordx4, seg, 16, false)
/* tmp = MEM[ADDR]; MEM[ADDR] = op(tmp, DATA); VDST = tmp when GLC. */
#define ATOMICS(seg)                                                                        \
   AT(seg##_atomic_swap, seg, SIM_AT_SWAP)                                                  \
   AT(seg##_atomic_cmpswap, seg, SIM_AT_CMPSWAP)                                            \
   AT(seg##_atomic_add, seg, SIM_AT_ADD)                                                    \
   AT(seg##_atomic_sub, seg, SIM_AT_SUB)                                                    \
   AT(seg##_atomic_smin, seg, SIM_AT_SMIN)                                                  \
   AT(seg##_atomic_umin, seg, SIM_AT_UMIN)                                                  \
   AT(seg##_atomic_smax, seg, SIM_AT_SMAX)                                                  \
   AT(seg##_atomic_umax, seg, SIM_AT_UMAX)                                                  \
   AT(seg##_atomic_and, seg, SIM_AT_AND)                                                    \
   AT(seg##_atomic_or, seg, SIM_AT_OR)                                                      \
   AT(seg##_atomic_xor, seg, SIM_AT_XOR)                                                    \
   AT(seg##_atomic_inc, seg, SIM_AT_INC)                                                    \
   AT(seg##_atomic_dec, seg, SIM_AT_DEC)

#define LD(name, seg, kind)                                                                 \
   void sim__op_##name(sim_wave *w, const sim_inst *in)                                      \
   {                                                                                        \
      sim__vm_load(w, in, seg##_xlate, kind);                                               \
   }
#define ST(name, seg, bytes, hi)                                                            \
   void sim__op_##name(sim_wave *w, const sim_inst *in)                                      \
   {                                                                                        \
      sim__vm_store(w, in, seg##_xlate, bytes, hi);                                         \
   }
#define AT(name, seg, op)                                                                   \
   void sim__op_##name(sim_wave *w, const sim_inst *in)                                      \
   {                                                                                        \
      sim__vm_atomic(w, in, seg##_xlate, op, false);                                        \
   }                                                                                        \
   void sim__op_##name##_x2(sim_wave *w, const sim_inst *in)                                 \
   {                                                                                        \
      sim__vm_atomic(w, in, seg##_xlate, op, true);                                         \
   }

/* gfx90a's float atomics, one width each. */
#define AT_FP(name, seg, op, wide)                                                          \
   void sim__op_##name(sim_wave *w, const sim_inst *in)                                      \
   {                                                                                        \
      sim__vm_atomic(w, in, seg##_xlate, op, wide);                                         \
   }
AT_FP(flat_atomic_add_f64, flat, SIM_AT_FADD_F64, true)
AT_FP(flat_atomic_min_f64, flat, SIM_AT_FMIN_F64, true)
AT_FP(flat_atomic_max_f64, flat, SIM_AT_FMAX_F64, true)
AT_FP(global_atomic_add_f64, global, SIM_AT_FADD_F64, true)
AT_FP(global_atomic_min_f64, global, SIM_AT_FMIN_F64, true)
AT_FP(global_atomic_max_f64, global, SIM_AT_FMAX_F64, true)
AT_FP(global_atomic_add_f32, global, SIM_AT_FADD_F32, false)
AT_FP(global_atomic_pk_add_f16, global, SIM_AT_PK_ADD_F16, false)
/* gfx10's float atomics (fmin_x2 / fmax_x2 are gfx90a's min_f64 / max_f64) and csub. */
#define AT_GFX10(seg)                                                                       \
   AT_FP(seg##_atomic_fmin, seg, SIM_AT_FMIN_F32, false)                                    \
   AT_FP(seg##_atomic_fmax, seg, SIM_AT_FMAX_F32, false)                                    \
   AT_FP(seg##_atomic_fmin_x2, seg, SIM_AT_FMIN_F64, true)                                  \
   AT_FP(seg##_atomic_fmax_x2, seg, SIM_AT_FMAX_F64, true)                                  \
   AT_FP(seg##_atomic_fcmpswap, seg, SIM_AT_FCMPSWAP, false)                                \
   AT_FP(seg##_atomic_fcmpswap_x2, seg, SIM_AT_FCMPSWAP, true)
AT_GFX10(flat)
AT_GFX10(global)
AT_FP(global_atomic_csub, global, SIM_AT_CSUB, false)

LOADS(flat)
STORES(flat)
ATOMICS(flat)
LOADS(global)
STORES(global)
ATOMICS(global)
LOADS(scratch)
STORES(scratch)
