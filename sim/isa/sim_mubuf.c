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
 */
#include "sim_isa_priv.h"

static void *
mubuf_xlate(sim_wave *w, const sim_inst *in, unsigned lane, uint32_t k, uint32_t size,
            bool write)
{
   const uint32_t *v = &w->s[in->mem.srsrc & 0x7C];
   uint64_t base = v[0] | (uint64_t)(v[1] & 0xFFFF) << 32;
   uint32_t stride = (v[1] >> 16) & 0x3FFF;
   bool swizzle = (v[1] >> 31) & 1;
   bool add_tid = (v[3] >> 23) & 1;
   uint32_t esize = 2u << ((v[3] >> 19) & 3);
   uint32_t istride = 8u << ((v[3] >> 21) & 3);
   uint32_t soffset = sim__sread32(w, in, in->mem.soffset);
   uint32_t index = 0, offset = (uint32_t)in->imm + k;
   unsigned r = in->mem.addr;
   if (in->flags & SIM_IF_IDXEN)
      index = w->v[r++][lane];
   if (in->flags & SIM_IF_OFFEN)
      offset += w->v[r][lane];
   if (add_tid)
      index += lane;
   uint64_t addr = base + soffset;
   if (swizzle)
      addr += ((uint64_t)(index / istride) * stride + offset / esize * esize) * istride +
              (index % istride) * esize + offset % esize;
   else
      addr += (uint64_t)index * stride + offset;
   return sim__gpu_ptr(w, addr, size, write);
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
