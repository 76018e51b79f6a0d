/*
 * Decoder: machine dwords -> sim_inst, once per instruction of a code allocation and target.
 * One decoder for every target: per-target opcode tables (sim_opcodes_<target>.def, LLVM's
 * decoding of every opcode slot) and the gfx9 field layouts ([ISA] chapter 12 "Microcode
 * formats", Vega 7nm guide), with gfx90a's extra bits (the ACC bit of vector-memory data, SCC,
 * the VOP3P-MAI fields: AMD's "CDNA2" ISA guide, chapter 12, and LLVM's encodings), and the
 * gfx10 layouts (AMD's "RDNA2" ISA guide, chapter 13 "Microcode formats": SMEM, VOP3, VOP3P,
 * DS, FLAT, MUBUF, MTBUF and MIMG moved fields or prefixes; DPP8; literals in VOP3). The
 * output, sim_inst, is the same for every target.
 */
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim_isa_priv.h"

const char *const sim__op_names[SIM_OP_COUNT] = {
   [SIM_OP_INVALID] = "<invalid>",
#define SIM_OP(m) [SIM_OP_##m] = #m,
#include "sim_opcodes.def"
};

const char *const sim__enc_names[SIM_ENC_COUNT] = {
#define X(e) [SIM_ENC_##e] = #e,
   SIM_ENCODINGS(X)
#undef X
};

/* Handlers are looked up by name through weak hidden declarations: an opcode whose
 * handler no family file defines reads as NULL here (see sim_isa_priv.h). */
#define SIM_OP(m)                                                                           \
   extern void sim__op_##m(sim_wave *, const sim_inst *)                                    \
      __attribute__((weak, visibility("hidden")));
#include "sim_opcodes.def"

static const sim_handler handlers[SIM_OP_COUNT] = {
#define SIM_OP(m) [SIM_OP_##m] = sim__op_##m,
#include "sim_opcodes.def"
};

sim_handler
sim__handler(sim_op op)
{
   return op < SIM_OP_COUNT ? handlers[op] : NULL;
}

/* Opcode number -> enum sim_op, per target and base encoding. */
#define SIM_DEC_MAX 1024
static uint16_t dec_table[SIM_TARGET_COUNT][SIM_ENC_COUNT][SIM_DEC_MAX];
static bool is_mfma_op[SIM_OP_COUNT];
static pthread_once_t dec_once = PTHREAD_ONCE_INIT;

typedef struct dec_row {
   uint8_t enc;
   uint16_t num;
   uint16_t op;
} dec_row;

#define SIM_OPCODE(e, o, m) {SIM_ENC_##e, o, SIM_OP_##m},
static const dec_row rows_gfx906[] = {
#include "sim_opcodes_gfx906.def"
};
#define SIM_OPCODE(e, o, m) {SIM_ENC_##e, o, SIM_OP_##m},
static const dec_row rows_gfx90a[] = {
#include "sim_opcodes_gfx90a.def"
};
#define SIM_OPCODE(e, o, m) {SIM_ENC_##e, o, SIM_OP_##m},
static const dec_row rows_gfx1030[] = {
#include "sim_opcodes_gfx1030.def"
};

static const struct {
   const dec_row *rows;
   size_t n;
} dec_rows[SIM_TARGET_COUNT] = {
   [SIM_TARGET_GFX906] = {rows_gfx906, sizeof(rows_gfx906) / sizeof(rows_gfx906[0])},
   [SIM_TARGET_GFX90A] = {rows_gfx90a, sizeof(rows_gfx90a) / sizeof(rows_gfx90a[0])},
   [SIM_TARGET_GFX1030] = {rows_gfx1030, sizeof(rows_gfx1030) / sizeof(rows_gfx1030[0])},
};

static void
dec_init(void)
{
   for (unsigned t = 0; t < SIM_TARGET_COUNT; t++) {
      for (size_t i = 0; i < dec_rows[t].n; i++)
         dec_table[t][dec_rows[t].rows[i].enc][dec_rows[t].rows[i].num] = dec_rows[t].rows[i].op;
   }
   for (unsigned op = 1; op < SIM_OP_COUNT; op++)
      is_mfma_op[op] = strncmp(sim__op_names[op], "v_mfma_", 7) == 0;
}

static void
op_unimplemented(sim_wave *w, const sim_inst *in)
{
   sim__fault_illegal(w, in, "unimplemented opcode");
}

static void
op_illegal(sim_wave *w, const sim_inst *in)
{
   sim__fault_illegal(w, in, "illegal instruction");
}

static bool
is_vop3b(unsigned op)
{
   switch (op) {
   case SIM_OP_v_add_co_u32:
   case SIM_OP_v_sub_co_u32:
   case SIM_OP_v_subrev_co_u32:
   case SIM_OP_v_addc_co_u32:
   case SIM_OP_v_subb_co_u32:
   case SIM_OP_v_subbrev_co_u32:
   case SIM_OP_v_div_scale_f32:
   case SIM_OP_v_div_scale_f64:
   case SIM_OP_v_mad_u64_u32:
   case SIM_OP_v_mad_i64_i32:
   case SIM_OP_v_add_co_ci_u32:
   case SIM_OP_v_sub_co_ci_u32:
   case SIM_OP_v_subrev_co_ci_u32:
      return true;
   default:
      return false;
   }
}

static int32_t
sext(uint32_t v, unsigned bits)
{
   return (int32_t)(v << (32 - bits)) >> (32 - bits);
}

/* [ISA] 3.x "Scalar/Vector operands": source codes 209-234 name nothing on gfx9; an
 * instruction reading one, or an operand its encoding cannot take, is illegal (LLVM's
 * disassembler refuses it too; sim_isa_decoder checks the two agree). */
static bool
reserved_code(unsigned code)
{
   return code >= 209 && code <= 234;
}

static bool
has_invalid_operand(const sim_inst *in, bool gfx10)
{
   bool salu = in->enc == SIM_ENC_SOP1 || in->enc == SIM_ENC_SOP2 || in->enc == SIM_ENC_SOPC;
   bool vop3 = in->enc == SIM_ENC_VOP3 || in->enc == SIM_ENC_VOP3P;
   for (unsigned i = 0; i < 3; i++) {
      unsigned c = in->src[i];
      if (c == SIM_SRC_NONE)
         continue;
      if (reserved_code(c))
         return true;
      /* The SDWA/DPP markers name an operand only in a VOP1/VOP2/VOPC src0; LDS_DIRECT is a
       * vector source; gfx9's VOP3 has no literal dword (gfx10's has). */
      if (salu && (c == SIM_SRC_SDWA || c == SIM_SRC_DPP || c == 254))
         return true;
      if (vop3 && (c == SIM_SRC_SDWA || c == SIM_SRC_DPP || (c == SIM_SRC_LITERAL && !gfx10)))
         return true;
   }
   if ((in->enc == SIM_ENC_MUBUF || in->enc == SIM_ENC_MTBUF) && reserved_code(in->mem.soffset))
      return true;
   /* An 8-bit scalar destination field naming no SGPR (128 and up: constants). */
   if ((in->op == SIM_OP_v_readfirstlane_b32 || in->op == SIM_OP_v_readlane_b32) &&
       in->vdst >= 128)
      return true;
   if (in->enc == SIM_ENC_VOP3 && !is_vop3b(in->op) && in->sdst != SIM_SRC_NONE &&
       in->sdst >= 128)
      return true;
   return false;
}

/* SOP2/SOP1/SOPC/VOP1/VOP2/VOPC take a trailing literal when a source is 255. */
static void
take_literal(sim_inst *in, const uint32_t *p, size_t avail, unsigned nsrc)
{
   for (unsigned i = 0; i < nsrc; i++) {
      if (in->src[i] == SIM_SRC_LITERAL) {
         unsigned at = in->size / 4;
         in->literal = avail >= (at + 1) * 4u ? p[at] : 0;
         in->size += 4;
         return;
      }
   }
}

static void
decode_sdwa(sim_inst *in, uint32_t d1, bool vopc)
{
   in->flags |= SIM_IF_SDWA;
   in->src[0] = (d1 >> 23) & 1 ? (d1 & 0xFF) : SIM_SRC_VGPR + (d1 & 0xFF);
   if ((d1 >> 31) & 1 && in->src[1] != SIM_SRC_NONE)
      in->src[1] -= SIM_SRC_VGPR; /* S1: vsrc1 field names a scalar operand */
   in->sdwa.sel[0] = (d1 >> 16) & 7;
   in->sdwa.sel[1] = (d1 >> 24) & 7;
   in->sdwa.sext = ((d1 >> 19) & 1) | ((d1 >> 27) & 1) << 1;
   in->neg = ((d1 >> 20) & 1) | ((d1 >> 28) & 1) << 1;
   in->abs = ((d1 >> 21) & 1) | ((d1 >> 29) & 1) << 1;
   if (vopc) {
      in->sdst = (d1 >> 15) & 1 ? (d1 >> 8) & 0x7F : SIM_SRC_VCC;
      in->sdwa.dst_sel = 6;
      in->sdwa.dst_unused = 0;
   } else {
      in->sdwa.dst_sel = (d1 >> 8) & 7;
      /* DST_UNUSED 3 is reserved: sdwa_store() treats it as UNUSED_PAD, as LLVM prints it. */
      in->sdwa.dst_unused = (d1 >> 11) & 3;
      if (in->sdwa.dst_unused == 3)
         in->sdwa.dst_unused = 0;
      in->clamp = (d1 >> 13) & 1;
      in->omod = (d1 >> 14) & 3;
   }
   in->slow_src = 3;
}

static void
decode_dpp(sim_inst *in, uint32_t d1)
{
   in->flags |= SIM_IF_DPP;
   in->src[0] = SIM_SRC_VGPR + (d1 & 0xFF);
   in->dpp.ctrl = (d1 >> 8) & 0x1FF;
   in->dpp.bound_ctrl = (d1 >> 19) & 1;
   in->neg = ((d1 >> 20) & 1) | ((d1 >> 22) & 1) << 1;
   in->abs = ((d1 >> 21) & 1) | ((d1 >> 23) & 1) << 1;
   in->dpp.fi = (d1 >> 18) & 1; /* gfx10; gfx9 leaves it zero */
   in->dpp.bank_mask = (d1 >> 24) & 0xF;
   in->dpp.row_mask = (d1 >> 28) & 0xF;
   in->slow_src = 1 | (in->neg | in->abs);
}

/* gfx10 DPP8 (src0 0xE9, or 0xEA with FI): the source VGPR and eight 3-bit lane selects. */
static void
decode_dpp8(sim_inst *in, uint32_t d1, bool fi)
{
   in->flags |= SIM_IF_DPP;
   in->dpp.ctrl = SIM_DPP_CTRL_DPP8;
   in->dpp.row_mask = in->dpp.bank_mask = 0xF; /* DPP8 has no masks: every lane writes */
   in->src[0] = SIM_SRC_VGPR + (d1 & 0xFF);
   in->dpp.sel8 = d1 >> 8;
   in->dpp.fi = fi;
   in->slow_src = 1;
}

/* VOP1/VOP2/VOPC: src0 may announce an SDWA, DPP or (gfx10) DPP8 dword. */
static void
decode_vop_e32(sim_inst *in, const uint32_t *p, size_t avail, sim_enc base, sim_enc sdwa,
               sim_enc dpp, bool gfx10)
{
   in->flags |= SIM_IF_E32 | SIM_IF_VALU;
   if (gfx10 && (in->src[0] == 0xE9 || in->src[0] == 0xEA)) {
      uint32_t d1 = avail >= 8 ? p[1] : 0;
      in->size = 8;
      in->raw[1] = d1;
      in->enc = dpp;
      decode_dpp8(in, d1, in->src[0] == 0xEA);
      return;
   }
   if (in->src[0] == SIM_SRC_SDWA || in->src[0] == SIM_SRC_DPP) {
      uint32_t d1 = avail >= 8 ? p[1] : 0;
      in->size = 8;
      in->raw[1] = d1;
      if (in->src[0] == SIM_SRC_SDWA) {
         in->enc = sdwa;
         decode_sdwa(in, d1, base == SIM_ENC_VOPC);
      } else {
         in->enc = dpp;
         decode_dpp(in, d1);
      }
      return;
   }
   take_literal(in, p, avail, 2);
}

/* gfx90a: the ACC bit makes the data registers (and the destination) AGPRs. */
static void
set_acc(sim_inst *in, bool acc, bool data1)
{
   if (!acc)
      return;
   in->flags |= SIM_IF_ACC;
   in->mem.data0 += 256;
   if (data1)
      in->mem.data1 += 256;
   in->vdst += 256;
}

/* VOP3/VOP3P on gfx10: a source code 255 reads a literal dword after the two words. */
static void
take_literal_vop3(sim_inst *in, const uint32_t *p, size_t avail)
{
   for (unsigned i = 0; i < 3; i++) {
      if (in->src[i] == SIM_SRC_LITERAL) {
         in->literal = avail >= 12 ? p[2] : 0;
         in->size = 12;
         return;
      }
   }
}

static void
flag_if(sim_inst *in, uint32_t w, unsigned bit, uint32_t flag)
{
   if ((w >> bit) & 1)
      in->flags |= flag;
}

/* The 64-bit encodings of gfx10 (RDNA2 ISA guide, chapter 13): returns the base encoding and
 * stores the opcode number. The scalar and VOP1/VOP2/VOPC words are gfx9's. */
static sim_enc
decode_gfx10(sim_inst *in, const uint32_t *p, size_t avail, const uint16_t (*dec)[SIM_DEC_MAX],
             unsigned *num)
{
   uint32_t w0 = p[0], w1 = avail >= 8 ? p[1] : 0;
   switch (w0 >> 26) {
   case 0x3D: /* SMEM: OFFSET (signed 21 bits) and SOFFSET (125, null: none) both present */
      *num = (w0 >> 18) & 0xFF;
      in->mem.sbase = (w0 & 0x3F) * 2;
      in->vdst = (w0 >> 6) & 0x7F;
      in->flags |= SIM_IF_SMEM_IMM;
      in->imm = sext(w1 & 0x1FFFFF, 21);
      if ((w1 >> 25) != 125) {
         in->flags |= SIM_IF_SMEM_SOE;
         in->mem.soffset = (w1 >> 25) & 0x7F;
      }
      flag_if(in, w0, 16, SIM_IF_GLC);
      flag_if(in, w0, 14, SIM_IF_DLC);
      return SIM_ENC_SMEM;
   case 0x35: /* VOP3: 10-bit opcode (VOPC 0.., VOP2 256.., VOP1 384..) */
   case 0x33: /* VOP3P */
      in->flags |= SIM_IF_VOP3 | SIM_IF_VALU;
      in->src[0] = w1 & 0x1FF;
      in->src[1] = (w1 >> 9) & 0x1FF;
      in->src[2] = (w1 >> 18) & 0x1FF;
      in->neg = (w1 >> 29) & 7;
      in->vdst = w0 & 0xFF;
      in->clamp = (w0 >> 15) & 1;
      take_literal_vop3(in, p, avail);
      if ((w0 >> 26) == 0x33) {
         *num = (w0 >> 16) & 0x7F;
         in->neg_hi = (w0 >> 8) & 7;
         in->op_sel = (w0 >> 11) & 7;
         in->op_sel_hi = ((w1 >> 27) & 3) | ((w0 >> 14) & 1) << 2;
         in->slow_src = 7;
         return SIM_ENC_VOP3P;
      }
      *num = (w0 >> 16) & 0x3FF;
      in->omod = (w1 >> 27) & 3;
      if (is_vop3b(dec[SIM_ENC_VOP3][*num])) {
         in->sdst = (w0 >> 8) & 0x7F;
      } else {
         in->abs = (w0 >> 8) & 7;
         in->op_sel = (w0 >> 11) & 0xF;
         if (*num < 256)
            in->sdst = w0 & 0xFF; /* VOPC promoted: the mask result */
      }
      in->slow_src = in->abs | in->neg | (in->op_sel & 7);
      return SIM_ENC_VOP3;
   case 0x36: /* DS: GDS in bit 17, the opcode in 25:18 */
      *num = (w0 >> 18) & 0xFF;
      in->imm = w0 & 0xFF;
      in->mem.offset1 = (w0 >> 8) & 0xFF;
      flag_if(in, w0, 17, SIM_IF_GDS);
      in->mem.addr = w1 & 0xFF;
      in->mem.data0 = (w1 >> 8) & 0xFF;
      in->mem.data1 = (w1 >> 16) & 0xFF;
      in->vdst = (w1 >> 24) & 0xFF;
      return SIM_ENC_DS;
   case 0x37: { /* FLAT / SCRATCH / GLOBAL: 12-bit offset (FLAT: unsigned, as LLVM decodes
                 * it), DLC in bit 12, SADDR null = off */
      unsigned seg = (w0 >> 14) & 3;
      *num = (w0 >> 18) & 0x7F;
      in->imm = seg == 0 ? (int32_t)(w0 & 0xFFF) : sext(w0 & 0xFFF, 12);
      flag_if(in, w0, 12, SIM_IF_DLC);
      flag_if(in, w0, 13, SIM_IF_LDS);
      flag_if(in, w0, 16, SIM_IF_GLC);
      flag_if(in, w0, 17, SIM_IF_SLC);
      in->mem.addr = w1 & 0xFF;
      in->mem.data0 = (w1 >> 8) & 0xFF;
      in->mem.saddr = (w1 >> 16) & 0x7F;
      if (in->mem.saddr == 125)
         in->mem.saddr = 0x7F; /* sim_inst's "off", as gfx9 encodes it */
      in->vdst = (w1 >> 24) & 0xFF;
      return seg == 0 ? SIM_ENC_FLAT : seg == 1 ? SIM_ENC_SCRATCH
                                                : seg == 2 ? SIM_ENC_GLOBAL : SIM_ENC_UNKNOWN;
   }
   case 0x38: /* MUBUF: DLC in bit 15, SLC in word 1, opcode bit 7 in bit 25 */
   case 0x3A: /* MTBUF: the opcode in 18:16 plus word-1 bit 21, FORMAT in 25:19 */
      in->imm = w0 & 0xFFF;
      flag_if(in, w0, 12, SIM_IF_OFFEN);
      flag_if(in, w0, 13, SIM_IF_IDXEN);
      flag_if(in, w0, 14, SIM_IF_GLC);
      flag_if(in, w0, 15, SIM_IF_DLC);
      flag_if(in, w1, 22, SIM_IF_SLC);
      in->mem.addr = w1 & 0xFF;
      in->mem.data0 = (w1 >> 8) & 0xFF;
      in->vdst = in->mem.data0;
      in->mem.srsrc = ((w1 >> 16) & 0x1F) * 4;
      in->mem.soffset = (w1 >> 24) & 0xFF;
      if (in->mem.soffset == SIM_SRC_LITERAL) { /* gfx10 reads a literal SOFFSET */
         in->literal = avail >= 12 ? p[2] : 0;
         in->size = 12;
      }
      if ((w0 >> 26) == 0x38) {
         *num = ((w0 >> 18) & 0x7F) | ((w0 >> 25) & 1) << 7;
         flag_if(in, w0, 16, SIM_IF_LDS);
         return SIM_ENC_MUBUF;
      } else {
         unsigned dfmt = 0, nfmt = 0; /* an invalid FORMAT: DATA_FORMAT 0, as gfx9's */
         sim__texel_gfx10_format((w0 >> 19) & 0x7F, &dfmt, &nfmt);
         *num = ((w0 >> 16) & 7) | ((w1 >> 21) & 1) << 3;
         in->mem.dfmt = (uint8_t)dfmt;
         in->mem.nfmt = (uint8_t)nfmt;
         return SIM_ENC_MTBUF;
      }
   case 0x3C: { /* MIMG: opcode bit 7 in bit 0, NSA dwords, DIM; A16 and D16 in word 1 */
      *num = ((w0 >> 18) & 0x7F) | (w0 & 1) << 7;
      unsigned nsa = (w0 >> 1) & 3, dim = (w0 >> 3) & 7;
      in->mimg.dmask = (w0 >> 8) & 0xF;
      in->mimg.dim = dim;
      /* 1D_ARRAY, 2D_ARRAY and 2D_MSAA_ARRAY address a slice: gfx9's DA. */
      in->mimg.bits = ((w0 >> 12) & 1 ? SIM_MIMG_UNORM : 0) |
                      (dim == 4 || dim == 5 || dim == 7 ? SIM_MIMG_DA : 0) |
                      ((w1 >> 30) & 1 ? SIM_MIMG_A16 : 0) |
                      ((w0 >> 16) & 1 ? SIM_MIMG_TFE : 0) |
                      ((w0 >> 17) & 1 ? SIM_MIMG_LWE : 0) |
                      ((w1 >> 31) & 1 ? SIM_MIMG_D16 : 0);
      flag_if(in, w0, 7, SIM_IF_DLC);
      flag_if(in, w0, 13, SIM_IF_GLC);
      flag_if(in, w0, 25, SIM_IF_SLC);
      in->mimg.vaddr = w1 & 0xFF;
      in->mimg.vdata = (w1 >> 8) & 0xFF;
      in->mimg.srsrc = ((w1 >> 16) & 0x1F) * 4;
      in->mimg.ssamp = ((w1 >> 21) & 0x1F) * 4;
      in->vdst = in->mimg.vdata;
      if (nsa) {
         /* NSA: 4 * nsa more address bytes, one VGPR each; an instruction running past the
          * end of the code is no instruction. */
         in->size = 8 + 4 * nsa;
         if (avail < in->size)
            return SIM_ENC_UNKNOWN;
         in->mimg.nsa = nsa;
         in->mimg.nsa_addr = (const uint8_t *)(p + 2);
      }
      return SIM_ENC_MIMG;
   }
   case 0x32:
      in->size = 4;
      return SIM_ENC_VINTRP;
   case 0x3E:
      return SIM_ENC_EXP;
   default:
      return SIM_ENC_UNKNOWN;
   }
}

void
sim__decode(const sim_target *t, const uint32_t *p, size_t avail, sim_inst *in)
{
   pthread_once(&dec_once, dec_init);
   const uint16_t(*dec)[SIM_DEC_MAX] = dec_table[t->id];
   /* gfx90a's field layout: the gfx9 one plus ACC and SCC bits (bits gfx906 leaves zero,
    * except MIMG bit 16, TFE there). */
   const bool cdna2 = t->agprs;
   const bool gfx10 = t->gfx_major >= 10;
   memset(in, 0, sizeof(*in));
   uint32_t w0 = avail >= 4 ? p[0] : 0;
   uint32_t w1 = avail >= 8 ? p[1] : 0;
   in->raw[0] = w0;
   in->size = 4;
   in->src[0] = in->src[1] = in->src[2] = SIM_SRC_NONE;
   in->vdst = in->sdst = SIM_SRC_NONE;
   unsigned num = 0;
   sim_enc base;

   if ((w0 >> 31) == 0) {
      /* VOP2 / VOP1 / VOPC */
      in->src[0] = w0 & 0x1FF;
      if ((w0 >> 25) == 0x3F) {
         base = SIM_ENC_VOP1;
         num = (w0 >> 9) & 0xFF;
         in->vdst = (w0 >> 17) & 0xFF;
         in->enc = base;
         decode_vop_e32(in, p, avail, base, SIM_ENC_VOP1_SDWA, SIM_ENC_VOP1_DPP, gfx10);
      } else if ((w0 >> 25) == 0x3E) {
         base = SIM_ENC_VOPC;
         num = (w0 >> 17) & 0xFF;
         in->src[1] = SIM_SRC_VGPR + ((w0 >> 9) & 0xFF);
         in->sdst = SIM_SRC_VCC;
         in->enc = base;
         decode_vop_e32(in, p, avail, base, SIM_ENC_VOPC_SDWA, SIM_ENC_VOPC_DPP, gfx10);
      } else {
         base = SIM_ENC_VOP2;
         num = (w0 >> 25) & 0x3F;
         in->vdst = (w0 >> 17) & 0xFF;
         in->src[1] = SIM_SRC_VGPR + ((w0 >> 9) & 0xFF);
         in->sdst = SIM_SRC_VCC;
         in->enc = base;
         decode_vop_e32(in, p, avail, base, SIM_ENC_VOP2_SDWA, SIM_ENC_VOP2_DPP, gfx10);
         /* v_madmk/v_madak: the constant K is a literal that always follows. */
         uint16_t op = dec[base][num];
         if ((op == SIM_OP_v_madmk_f32 || op == SIM_OP_v_madak_f32 ||
              op == SIM_OP_v_madmk_f16 || op == SIM_OP_v_madak_f16 ||
              op == SIM_OP_v_fmamk_f32 || op == SIM_OP_v_fmaak_f32 ||
              op == SIM_OP_v_fmamk_f16 || op == SIM_OP_v_fmaak_f16) &&
             in->src[0] != SIM_SRC_LITERAL) {
            in->literal = avail >= 8 ? p[1] : 0;
            in->size = 8;
         }
         if (op == SIM_OP_v_cndmask_b32 || op == SIM_OP_v_addc_co_u32 ||
             op == SIM_OP_v_subb_co_u32 || op == SIM_OP_v_subbrev_co_u32 ||
             op == SIM_OP_v_add_co_ci_u32 || op == SIM_OP_v_sub_co_ci_u32 ||
             op == SIM_OP_v_subrev_co_ci_u32)
            in->src[2] = SIM_SRC_VCC;
      }
   } else if ((w0 >> 30) == 2) {
      if ((w0 >> 28) == 0xB && (w0 >> 23) >= 0x17D) {
         if ((w0 >> 23) == 0x17D) {
            base = SIM_ENC_SOP1;
            num = (w0 >> 8) & 0xFF;
            in->src[0] = w0 & 0xFF;
            in->vdst = (w0 >> 16) & 0x7F;
            take_literal(in, p, avail, 1);
         } else if ((w0 >> 23) == 0x17E) {
            base = SIM_ENC_SOPC;
            num = (w0 >> 16) & 0x7F;
            in->src[0] = w0 & 0xFF;
            in->src[1] = (w0 >> 8) & 0xFF;
            take_literal(in, p, avail, 2);
         } else {
            base = SIM_ENC_SOPP;
            num = (w0 >> 16) & 0x7F;
            in->imm = (int16_t)(w0 & 0xFFFF);
         }
      } else if ((w0 >> 28) == 0xB) {
         base = SIM_ENC_SOPK;
         num = (w0 >> 23) & 0x1F;
         in->vdst = (w0 >> 16) & 0x7F;
         in->imm = (int16_t)(w0 & 0xFFFF);
         if (dec[base][num] == SIM_OP_s_setreg_imm32_b32) {
            in->literal = w1;
            in->size = 8;
         }
      } else {
         base = SIM_ENC_SOP2;
         num = (w0 >> 23) & 0x7F;
         in->src[0] = w0 & 0xFF;
         in->src[1] = (w0 >> 8) & 0xFF;
         in->vdst = (w0 >> 16) & 0x7F;
         take_literal(in, p, avail, 2);
      }
      in->enc = base;
   } else if (gfx10) {
      in->size = 8;
      in->raw[1] = w1;
      base = decode_gfx10(in, p, avail, dec, &num);
      if (in->enc == 0)
         in->enc = base;
   } else {
      in->size = 8;
      in->raw[1] = w1;
      switch (w0 >> 26) {
      case 0x30: /* SMEM */
         base = SIM_ENC_SMEM;
         num = (w0 >> 18) & 0xFF;
         in->mem.sbase = (w0 & 0x3F) * 2;
         in->vdst = (w0 >> 6) & 0x7F;
         /* [ISA] 12.x "SMEM": IMM=1 adds the signed 21-bit OFFSET, IMM=0 the SGPR OFFSET
          * names; SOE=1 adds SGPR[SOFFSET] to an immediate, but with IMM=0 it replaces
          * OFFSET (the offset is SGPR[SOFFSET] alone), as LLVM decodes it. */
         if ((w0 >> 17) & 1) {
            in->flags |= SIM_IF_SMEM_IMM;
            in->imm = sext(w1 & 0x1FFFFF, 21);
            if ((w0 >> 14) & 1) {
               in->flags |= SIM_IF_SMEM_SOE;
               in->mem.soffset = (w1 >> 25) & 0x7F;
            }
         } else {
            in->imm = (w0 >> 14) & 1 ? (w1 >> 25) & 0x7F : w1 & 0x7F; /* SGPR holding it */
         }
         if ((w0 >> 16) & 1)
            in->flags |= SIM_IF_GLC;
         break;
      case 0x34: /* VOP3 / VOP3P */
         in->flags |= SIM_IF_VOP3 | SIM_IF_VALU;
         in->src[0] = w1 & 0x1FF;
         in->src[1] = (w1 >> 9) & 0x1FF;
         in->src[2] = (w1 >> 18) & 0x1FF;
         in->neg = (w1 >> 29) & 7;
         in->vdst = w0 & 0xFF;
         in->clamp = (w0 >> 15) & 1;
         if ((w0 >> 23) == 0x1A7) {
            base = SIM_ENC_VOP3P;
            num = (w0 >> 16) & 0x7F;
            in->neg_hi = (w0 >> 8) & 7;
            in->op_sel = (w0 >> 11) & 7;
            in->op_sel_hi = ((w1 >> 27) & 3) | ((w0 >> 14) & 1) << 2;
            in->slow_src = 7;
            if (is_mfma_op[dec[base][num]]) {
               /* VOP3P-MAI: CBSZ, ABID and ACC_CD where op_sel/neg_hi/clamp sit, BLGP where
                * neg does, ACC where op_sel_hi[1:0] does. */
               in->mfma.cbsz = (w0 >> 8) & 7;
               in->mfma.abid = (w0 >> 11) & 0xF;
               in->mfma.acc_cd = (w0 >> 15) & 1;
               in->mfma.blgp = (w1 >> 29) & 7;
               in->mfma.acc = (w1 >> 27) & 3;
               in->neg_hi = in->op_sel = in->op_sel_hi = in->neg = in->clamp = 0;
            }
         } else {
            base = SIM_ENC_VOP3;
            num = (w0 >> 16) & 0x3FF;
            in->omod = (w1 >> 27) & 3;
            if (is_vop3b(dec[base][num])) {
               in->sdst = (w0 >> 8) & 0x7F;
            } else {
               in->abs = (w0 >> 8) & 7;
               in->op_sel = (w0 >> 11) & 0xF;
               if (num < 256)
                  in->sdst = w0 & 0xFF; /* VOPC promoted: SGPR-pair result */
            }
            in->slow_src = in->abs | in->neg | (in->op_sel & 7);
         }
         break;
      case 0x36: /* DS */
         base = SIM_ENC_DS;
         num = (w0 >> 17) & 0xFF;
         in->imm = w0 & 0xFF;
         in->mem.offset1 = (w0 >> 8) & 0xFF;
         if ((w0 >> 16) & 1)
            in->flags |= SIM_IF_GDS;
         in->mem.addr = w1 & 0xFF;
         in->mem.data0 = (w1 >> 8) & 0xFF;
         in->mem.data1 = (w1 >> 16) & 0xFF;
         in->vdst = (w1 >> 24) & 0xFF;
         set_acc(in, cdna2 && ((w0 >> 25) & 1), true);
         break;
      case 0x37: { /* FLAT / SCRATCH / GLOBAL */
         unsigned seg = (w0 >> 14) & 3;
         base = seg == 0 ? SIM_ENC_FLAT : seg == 1 ? SIM_ENC_SCRATCH : SIM_ENC_GLOBAL;
         num = (w0 >> 18) & 0x7F;
         /* FLAT: unsigned, GLOBAL/SCRATCH: signed; 13 bits either way, as LLVM decodes
          * them (its assembler takes FLAT offsets up to 4095 only). */
         in->imm = seg == 0 ? (int32_t)(w0 & 0x1FFF) : sext(w0 & 0x1FFF, 13);
         if ((w0 >> 16) & 1)
            in->flags |= SIM_IF_GLC;
         if ((w0 >> 17) & 1)
            in->flags |= SIM_IF_SLC;
         if ((w0 >> 13) & 1)
            in->flags |= SIM_IF_LDS;
         in->mem.addr = w1 & 0xFF;
         in->mem.data0 = (w1 >> 8) & 0xFF;
         in->mem.saddr = (w1 >> 16) & 0x7F;
         in->vdst = (w1 >> 24) & 0xFF;
         if (cdna2 && ((w0 >> 25) & 1))
            in->flags |= SIM_IF_SCC;
         set_acc(in, cdna2 && ((w1 >> 23) & 1), false);
         if (seg == 3)
            base = SIM_ENC_UNKNOWN;
         break;
      }
      case 0x38: /* MUBUF */
         base = SIM_ENC_MUBUF;
         num = (w0 >> 18) & 0x7F;
         in->imm = w0 & 0xFFF;
         if ((w0 >> 12) & 1)
            in->flags |= SIM_IF_OFFEN;
         if ((w0 >> 13) & 1)
            in->flags |= SIM_IF_IDXEN;
         if ((w0 >> 14) & 1)
            in->flags |= SIM_IF_GLC;
         if ((w0 >> 16) & 1)
            in->flags |= SIM_IF_LDS;
         if ((w0 >> 17) & 1)
            in->flags |= SIM_IF_SLC;
         in->mem.addr = w1 & 0xFF;
         in->mem.data0 = (w1 >> 8) & 0xFF;
         in->vdst = in->mem.data0;
         in->mem.srsrc = ((w1 >> 16) & 0x1F) * 4;
         in->mem.soffset = (w1 >> 24) & 0xFF;
         if (cdna2 && ((w0 >> 15) & 1))
            in->flags |= SIM_IF_SCC;
         set_acc(in, cdna2 && ((w1 >> 23) & 1), false);
         break;
      case 0x3A: /* MTBUF: MUBUF's fields, the opcode in 18:15, DFMT 22:19, NFMT 25:23 */
         base = SIM_ENC_MTBUF;
         num = (w0 >> 15) & 0xF;
         in->imm = w0 & 0xFFF;
         if ((w0 >> 12) & 1)
            in->flags |= SIM_IF_OFFEN;
         if ((w0 >> 13) & 1)
            in->flags |= SIM_IF_IDXEN;
         if ((w0 >> 14) & 1)
            in->flags |= SIM_IF_GLC;
         if ((w1 >> 22) & 1)
            in->flags |= SIM_IF_SLC;
         in->mem.dfmt = (w0 >> 19) & 0xF;
         in->mem.nfmt = (w0 >> 23) & 7;
         in->mem.addr = w1 & 0xFF;
         in->mem.data0 = (w1 >> 8) & 0xFF;
         in->vdst = in->mem.data0;
         in->mem.srsrc = ((w1 >> 16) & 0x1F) * 4;
         in->mem.soffset = (w1 >> 24) & 0xFF;
         if (cdna2 && ((w1 >> 21) & 1))
            in->flags |= SIM_IF_SCC;
         set_acc(in, cdna2 && ((w1 >> 23) & 1), false);
         break;
      case 0x3C: /* MIMG: [ISA] 12.x "MIMG" (gfx9: bit 15 is A16, bit 63 D16) */
         base = SIM_ENC_MIMG;
         num = (w0 >> 18) & 0x7F;
         in->mimg.dmask = (w0 >> 8) & 0xF;
         in->mimg.bits = ((w0 >> 12) & 1 ? SIM_MIMG_UNORM : 0) |
                         ((w0 >> 14) & 1 ? SIM_MIMG_DA : 0) |
                         ((w0 >> 15) & 1 ? SIM_MIMG_A16 : 0) |
                         (!cdna2 && ((w0 >> 16) & 1) ? SIM_MIMG_TFE : 0) |
                         ((w0 >> 17) & 1 ? SIM_MIMG_LWE : 0) |
                         ((w1 >> 31) & 1 ? SIM_MIMG_D16 : 0);
         if ((w0 >> 13) & 1)
            in->flags |= SIM_IF_GLC;
         if ((w0 >> 25) & 1)
            in->flags |= SIM_IF_SLC;
         in->mimg.vaddr = w1 & 0xFF;
         in->mimg.vdata = (w1 >> 8) & 0xFF;
         in->mimg.srsrc = ((w1 >> 16) & 0x1F) * 4;
         in->mimg.ssamp = ((w1 >> 21) & 0x1F) * 4;
         in->vdst = in->mimg.vdata;
         if (cdna2 && ((w0 >> 7) & 1))
            in->flags |= SIM_IF_SCC;
         if (cdna2 && ((w0 >> 16) & 1)) {
            in->flags |= SIM_IF_ACC;
            in->mimg.vdata += 256;
            in->vdst += 256;
         }
         break;
      case 0x35:
         base = SIM_ENC_VINTRP;
         in->size = 4;
         break;
      case 0x31:
         base = SIM_ENC_EXP;
         break;
      default:
         base = SIM_ENC_UNKNOWN;
         break;
      }
      if (in->enc == 0)
         in->enc = base;
   }

   if (base == SIM_ENC_UNKNOWN || base == SIM_ENC_VINTRP || base == SIM_ENC_EXP ||
       num >= SIM_DEC_MAX || !(in->op = dec[base][num])) {
      in->op = SIM_OP_INVALID;
      in->enc = base;
      in->fn = op_illegal;
      return;
   }
   if (base == SIM_ENC_VOP3 && num < 256)
      in->vdst = SIM_SRC_NONE;
   if (has_invalid_operand(in, gfx10)) {
      in->op = SIM_OP_INVALID;
      in->fn = op_illegal;
      return;
   }
   in->fn = handlers[in->op] ? handlers[in->op] : op_unimplemented;
}

void
sim__disasm(const sim_inst *in, char *buf, size_t n)
{
   const char *suffix = "";
   switch (in->enc) {
   case SIM_ENC_VOP1:
   case SIM_ENC_VOP2:
   case SIM_ENC_VOPC:
      suffix = "_e32";
      break;
   case SIM_ENC_VOP3:
      suffix = in->op < SIM_OP_COUNT && in->raw[0] && ((in->raw[0] >> 16) & 0x3FF) < 448 ? "_e64" : "";
      break;
   case SIM_ENC_VOP1_SDWA:
   case SIM_ENC_VOP2_SDWA:
   case SIM_ENC_VOPC_SDWA:
      suffix = "_sdwa";
      break;
   case SIM_ENC_VOP1_DPP:
   case SIM_ENC_VOP2_DPP:
   case SIM_ENC_VOPC_DPP:
      suffix = "_dpp";
      break;
   default:
      break;
   }
   if (in->size > 8)
      snprintf(buf, n, "%s%s (%s) [%08x %08x %08x]", sim__op_names[in->op], suffix,
               sim__enc_names[in->enc], in->raw[0], in->raw[1], in->literal);
   else if (in->size > 4)
      snprintf(buf, n, "%s%s (%s) [%08x %08x]", sim__op_names[in->op], suffix,
               sim__enc_names[in->enc], in->raw[0],
               in->raw[1] ? in->raw[1] : in->literal);
   else
      snprintf(buf, n, "%s%s (%s) [%08x]", sim__op_names[in->op], suffix,
               sim__enc_names[in->enc], in->raw[0]);
}

/* ---- Programs ------------------------------------------------------------------------- */

/* A decoded code allocation: one slot per dword, decoded on first execution so data in
 * the segment and any entry point work. Slots are published by a release store of `fn`. */

/* The allocation's programs form a list, one per target that ran it (a code object is
 * loaded for one agent, so the list is one long but for tests and shared code memory);
 * entries are only ever pushed at the head, with a CAS. */
sim_program *
sim__program_get(const sim_alloc *code, const sim_target *t)
{
   sim_alloc *a = (sim_alloc *)code; /* the isa_program slot is ours to fill */
   sim_program *head = atomic_load_explicit(&a->isa_program, memory_order_acquire);
   for (sim_program *q = head; q; q = q->next) {
      if (q->target == t)
         return q;
   }
   sim_program *p = calloc(1, sizeof(*p));
   if (!p)
      return NULL;
   p->alloc = code;
   p->target = t;
   p->next = head;
   p->va = code->va;
   p->size = code->size;
   p->slots = calloc(code->size / 4 + 1, sizeof(sim_inst));
   if (!p->slots) {
      free(p);
      return NULL;
   }
   pthread_mutex_init(&p->lock, NULL);
   void *expected = head;
   if (!atomic_compare_exchange_strong_explicit(&a->isa_program, &expected, p,
                                                memory_order_acq_rel, memory_order_acquire)) {
      /* Another thread pushed first: it may have decoded for this target. */
      p->next = NULL;
      sim__isa_program_free(p);
      return sim__program_get(code, t);
   }
   return p;
}

void
sim__isa_program_free(void *program)
{
   for (sim_program *p = program, *next; p; p = next) {
      next = p->next;
      sim__xlate_program_free(p);
      pthread_mutex_destroy(&p->lock);
      free(p->slots);
      free(p);
   }
}

static const sim_inst *
fetch_slow(sim_wave *w, uint64_t pc)
{
   const sim_alloc *a = sim__mem_find(pc);
   if (!a || !(a->flags & (SIM_ALLOC_CODE | SIM_ALLOC_EXEC)) || (pc & 3)) {
      sim__fault(w, SIM_FAULT_MEMORY_VIOLATION, pc,
                 "instruction fetch at 0x%llx outside code memory", (unsigned long long)pc);
      return NULL;
   }
   sim_program *p = sim__program_get(a, w->target);
   if (!p) {
      sim__fault(w, SIM_FAULT_OUT_OF_RESOURCES, pc, "out of memory decoding code");
      return NULL;
   }
   w->prog = p;
   if (w->wg)
      w->wg->prog = p;
   return sim__fetch(w, pc);
}

const sim_inst *
sim__fetch(sim_wave *w, uint64_t pc)
{
   sim_program *p = w->prog;
   uint64_t off = pc - (p ? p->va : 0);
   if (SIM_UNLIKELY(!p || off >= p->size || (off & 3)))
      return fetch_slow(w, pc);
   sim_inst *in = &p->slots[off >> 2];
   if (SIM_LIKELY(__atomic_load_n(&in->fn, __ATOMIC_ACQUIRE) != NULL))
      return in;
   pthread_mutex_lock(&p->lock);
   if (!in->fn) {
      sim_inst tmp;
      sim__decode(p->target, (const uint32_t *)(p->alloc->view + off), p->size - off, &tmp);
      /* Every field but `fn` with plain stores (no reader looks at them before it has
       * acquired a non-NULL `fn`), then `fn` with the release store that publishes them:
       * `fn` itself is read lock-free, so it is never written by the plain copy. */
      const size_t fo = offsetof(sim_inst, fn), fe = fo + sizeof(tmp.fn);
      memcpy(in, &tmp, fo);
      memcpy((char *)in + fe, (const char *)&tmp + fe, sizeof(tmp) - fe);
      __atomic_store_n(&in->fn, tmp.fn, __ATOMIC_RELEASE);
   }
   pthread_mutex_unlock(&p->lock);
   return in;
}
