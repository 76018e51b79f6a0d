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

static void *
mubuf_xlate(sim_wave *w, const sim_inst *in, unsigned lane, uint32_t k, uint32_t size,
            bool write)
{
   const uint32_t *v = &w->s[in->mem.srsrc & 0x7C];
   uint64_t base = v[0] | (uint64_t)(v[1] & 0xFFFF) << 32;
   uint32_t stride = (v[1] >> 16) & 0x3FFF;
   bool swizzle = (v[1] >> 31) & 1;
   bool add_tid = (v[3] >> 23) & 1;
   /* gfx10's V# has no ELEMENT_SIZE: swizzled elements are dwords. */
   uint32_t esize = w->target->gfx_major >= 10 ? 4 : 2u << ((v[3] >> 19) & 3);
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
