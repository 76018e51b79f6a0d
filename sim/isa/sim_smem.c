/*
 * SMEM: scalar memory ([ISA] 8.x "Scalar memory operations", 12.x "SMEM instructions").
 * Address = SGPR pair SBASE + (IMM ? signext(OFFSET21) : SGPR[OFFSET]) (+ SGPR[SOFFSET]
 * with SOE), dword aligned. s_buffer_* take SBASE as a V# (base address = bits 47:0).
 */
#include <time.h>
#include "sim_isa_priv.h"

static uint64_t
smem_offset(sim_wave *w, const sim_inst *in)
{
   uint64_t off = (in->flags & SIM_IF_SMEM_IMM) ? (uint64_t)(int64_t)in->imm
                                                : w->s[in->imm & 0x7F];
   if (in->flags & SIM_IF_SMEM_SOE)
      off += w->s[in->mem.soffset & 0x7F];
   return off;
}

static void
smem_load(sim_wave *w, const sim_inst *in, unsigned n, bool buffer)
{
   uint64_t base = w->s[in->mem.sbase] | (uint64_t)w->s[in->mem.sbase + 1] << 32;
   if (buffer)
      base &= 0xFFFFFFFFFFFFull;
   uint64_t addr = (base + smem_offset(w, in)) & ~3ull;
   const uint32_t *p = sim__gpu_ptr(w, addr, n * 4, false);
   if (!p)
      return;
   for (unsigned i = 0; i < n; i++)
      sim__swrite32(w, in->vdst + i, p[i]);
}

static void
smem_store(sim_wave *w, const sim_inst *in, unsigned n, bool buffer)
{
   uint64_t base = w->s[in->mem.sbase] | (uint64_t)w->s[in->mem.sbase + 1] << 32;
   if (buffer)
      base &= 0xFFFFFFFFFFFFull;
   uint64_t addr = (base + smem_offset(w, in)) & ~3ull;
   uint32_t *p = sim__gpu_ptr(w, addr, n * 4, true);
   if (!p)
      return;
   for (unsigned i = 0; i < n; i++)
      p[i] = w->s[(in->vdst + i) & 0x7F];
}

/* SDATA[N-1:0] = MEM[ADDR +: N dwords]. */
#define LOAD(name, n, buf)                                                                  \
   void sim__op_##name(sim_wave *w, const sim_inst *in)                                      \
   {                                                                                        \
      smem_load(w, in, n, buf);                                                             \
   }
LOAD(s_load_dword, 1, false)
LOAD(s_load_dwordx2, 2, false)
LOAD(s_load_dwordx4, 4, false)
LOAD(s_load_dwordx8, 8, false)
LOAD(s_load_dwordx16, 16, false)
LOAD(s_buffer_load_dword, 1, true)
LOAD(s_buffer_load_dwordx2, 2, true)
LOAD(s_buffer_load_dwordx4, 4, true)
LOAD(s_buffer_load_dwordx8, 8, true)
LOAD(s_buffer_load_dwordx16, 16, true)

/* MEM[ADDR +: N dwords] = SDATA[N-1:0]. */
#define STORE(name, n, buf)                                                                 \
   void sim__op_##name(sim_wave *w, const sim_inst *in)                                      \
   {                                                                                        \
      smem_store(w, in, n, buf);                                                            \
   }
STORE(s_store_dword, 1, false)
STORE(s_store_dwordx2, 2, false)
STORE(s_store_dwordx4, 4, false)
STORE(s_buffer_store_dword, 1, true)
STORE(s_buffer_store_dwordx2, 2, true)
STORE(s_buffer_store_dwordx4, 4, true)

/*
 * Scalar scratch ([ISA] 12.x "SMEM instructions", S_SCRATCH_LOAD/STORE_DWORD(X2/X4), and
 * the scalar-memory addressing section): one dword-aligned access at
 *   ADDR = SGPR pair SBASE (the wave's FLAT_SCRATCH, its private base) + IMM offset
 *          + SGPR offset * 64 (SGPR offsets — OFFSET with IMM = 0, SOFFSET with SOE — count
 *            dwords per lane of the wave and are scaled by the wave size, 64)
 * with no swizzle: the wave's scratch read as one linear run of bytes, what a lane-uniform
 * value spilled by a VGPR scratch access of all 64 lanes occupies. The address is resolved
 * like any other, so on this GPU it lands in the scratch window of the running work-group
 * (SIM_SCRATCH_VA) and an address outside it is a memory violation.
 */
static uint64_t
scratch_addr(sim_wave *w, const sim_inst *in)
{
   uint64_t base = w->s[in->mem.sbase] | (uint64_t)w->s[in->mem.sbase + 1] << 32;
   uint64_t off = 0;
   if (in->flags & SIM_IF_SMEM_IMM)
      off = (uint64_t)(int64_t)in->imm;
   else
      off = (uint64_t)w->s[in->imm & 0x7F] * 64;
   if (in->flags & SIM_IF_SMEM_SOE)
      off += (uint64_t)w->s[in->mem.soffset & 0x7F] * 64;
   return (base + off) & ~3ull;
}

/* SDATA[N-1:0] = MEM[ADDR +: N dwords], ADDR as above. */
static void
scratch_load(sim_wave *w, const sim_inst *in, unsigned n)
{
   const uint32_t *p = sim__gpu_ptr(w, scratch_addr(w, in), n * 4, false);
   if (!p)
      return;
   for (unsigned i = 0; i < n; i++)
      sim__swrite32(w, in->vdst + i, p[i]);
}

/* MEM[ADDR +: N dwords] = SDATA[N-1:0]. */
static void
scratch_store(sim_wave *w, const sim_inst *in, unsigned n)
{
   uint32_t *p = sim__gpu_ptr(w, scratch_addr(w, in), n * 4, true);
   if (!p)
      return;
   for (unsigned i = 0; i < n; i++)
      p[i] = w->s[(in->vdst + i) & 0x7F];
}

#define SCRATCH(n, suffix)                                                                  \
   void sim__op_s_scratch_load_##suffix(sim_wave *w, const sim_inst *in)                    \
   {                                                                                        \
      scratch_load(w, in, n);                                                               \
   }                                                                                        \
   void sim__op_s_scratch_store_##suffix(sim_wave *w, const sim_inst *in)                   \
   {                                                                                        \
      scratch_store(w, in, n);                                                              \
   }
SCRATCH(1, dword)
SCRATCH(2, dwordx2)
SCRATCH(4, dwordx4)

/*
 * Scalar atomics ([ISA] 12.x "SMEM instructions", S_ATOMIC_* / S_BUFFER_ATOMIC_*): one
 * read-modify-write at the SMEM address (S_BUFFER_: V# base + offset), performed as a host
 * atomic; with GLC the value before the operation returns to SDATA[0] (SDATA[1:0] for _X2).
 * CMPSWAP: SDATA = {src, cmp} (2 SGPRs, or 4 for _X2); MEM = (MEM == cmp) ? src : MEM.
 */
static void
smem_atomic(sim_wave *w, const sim_inst *in, unsigned op, bool wide, bool buffer)
{
   uint64_t base = w->s[in->mem.sbase] | (uint64_t)w->s[in->mem.sbase + 1] << 32;
   if (buffer)
      base &= 0xFFFFFFFFFFFFull;
   uint64_t addr = (base + smem_offset(w, in)) & ~3ull;
   unsigned nd = wide ? 2 : 1, d = in->vdst & 0x7F;
   uint64_t data = w->s[d], cmp = 0;
   if (wide)
      data |= (uint64_t)w->s[(d + 1) & 0x7F] << 32;
   if (op == SIM_AT_CMPSWAP) {
      cmp = w->s[(d + nd) & 0x7F];
      if (wide)
         cmp |= (uint64_t)w->s[(d + 3) & 0x7F] << 32;
   }
   void *p = sim__gpu_ptr(w, addr, nd * 4, true);
   if (!p)
      return;
   uint64_t old = sim__vm_atomic_rmw(p, op, data, cmp, wide);
   if (in->flags & SIM_IF_GLC) {
      sim__swrite32(w, d, (uint32_t)old);
      if (wide)
         sim__swrite32(w, d + 1, (uint32_t)(old >> 32));
   }
}

#define ATOMIC(name, op)                                                                    \
   void sim__op_s_##name(sim_wave *w, const sim_inst *in)                                   \
   {                                                                                        \
      smem_atomic(w, in, op, false, false);                                                 \
   }                                                                                        \
   void sim__op_s_##name##_x2(sim_wave *w, const sim_inst *in)                              \
   {                                                                                        \
      smem_atomic(w, in, op, true, false);                                                  \
   }                                                                                        \
   void sim__op_s_buffer_##name(sim_wave *w, const sim_inst *in)                            \
   {                                                                                        \
      smem_atomic(w, in, op, false, true);                                                  \
   }                                                                                        \
   void sim__op_s_buffer_##name##_x2(sim_wave *w, const sim_inst *in)                       \
   {                                                                                        \
      smem_atomic(w, in, op, true, true);                                                   \
   }
ATOMIC(atomic_swap, SIM_AT_SWAP)
ATOMIC(atomic_cmpswap, SIM_AT_CMPSWAP)
ATOMIC(atomic_add, SIM_AT_ADD)
ATOMIC(atomic_sub, SIM_AT_SUB)
ATOMIC(atomic_smin, SIM_AT_SMIN)
ATOMIC(atomic_umin, SIM_AT_UMIN)
ATOMIC(atomic_smax, SIM_AT_SMAX)
ATOMIC(atomic_umax, SIM_AT_UMAX)
ATOMIC(atomic_and, SIM_AT_AND)
ATOMIC(atomic_or, SIM_AT_OR)
ATOMIC(atomic_xor, SIM_AT_XOR)
ATOMIC(atomic_inc, SIM_AT_INC)
ATOMIC(atomic_dec, SIM_AT_DEC)

/* Scalar cache maintenance: the model has no caches. S_DCACHE_DISCARD(_X2) drops dirty
 * scalar cache lines without writing them back; scalar stores here write memory at once,
 * so there is nothing to drop. S_ATC_PROBE(_BUFFER) probe or prefetch an address
 * translation: no architectural result. */
void
sim__op_s_dcache_discard(sim_wave *w, const sim_inst *in)
{
}
void
sim__op_s_dcache_discard_x2(sim_wave *w, const sim_inst *in)
{
}
void
sim__op_s_atc_probe(sim_wave *w, const sim_inst *in)
{
}
void
sim__op_s_atc_probe_buffer(sim_wave *w, const sim_inst *in)
{
}

/* Scalar cache maintenance: the model has no caches. */
void
sim__op_s_dcache_inv(sim_wave *w, const sim_inst *in)
{
}
void
sim__op_s_dcache_wb(sim_wave *w, const sim_inst *in)
{
}
void
sim__op_s_dcache_inv_vol(sim_wave *w, const sim_inst *in)
{
}
void
sim__op_s_dcache_wb_vol(sim_wave *w, const sim_inst *in)
{
}

static uint64_t
ns_now(clockid_t c)
{
   struct timespec ts;
   clock_gettime(c, &ts);
   return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* SDATA[1:0] = shader clock (a nanosecond counter) / real-time clock (100 MHz, like
 * gfx906's constant-rate counter). */
void
sim__op_s_memtime(sim_wave *w, const sim_inst *in)
{
   sim__swrite64(w, in->vdst, ns_now(CLOCK_MONOTONIC));
}
void
sim__op_s_memrealtime(sim_wave *w, const sim_inst *in)
{
   sim__swrite64(w, in->vdst, ns_now(CLOCK_MONOTONIC) / 10);
}
