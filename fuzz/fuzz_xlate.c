/*
 * fuzz/fuzz_xlate.c — the software GPU's translator (sim/isa/sim_xlate*.c) against its
 * interpreter, on random valid instruction sequences (issue #27).
 *
 * Input: a target byte (gfx906, gfx90a, gfx1030 in wave32 or wave64), a mode byte (MODE's
 * f32 and f16 denormals and IEEE bit, LDS size), an EXEC pattern byte, then bytes that
 * choose the wave's registers (data, f32 and f16 special values, address pairs mostly
 * inside the buffer and the LDS, private offsets and a scratch V# over the buffer, SGPRs),
 * the LDS and buffer contents (a PRNG seeded from the input fills lanes and bytes) and 1-8
 * instructions, each a form of the table below
 * with operands drawn so the encoding is one the assembler accepts (register classes and
 * alignment, the constant bus, literals where the encoding has one), then s_endpgm. The
 * words are written into a code allocation and decoded by the simulator's decoder as a
 * kernel's are; every instruction must decode to the operation and size the generator
 * meant (else the generator is wrong: abort).
 *
 * The wave runs twice from the same registers and memory: interpreted (sim__xlate_mode 0,
 * as HSACL_SIM_XLATE=0) and translated in the checking mode (HSACL_SIM_XLATE=check: every
 * block is compiled on its first run and run against the interpreter, which aborts with
 * the register, lane and instruction on a difference). Then the two runs' fault kind and
 * address, SGPRs (EXEC, VCC, M0 among them), SCC, VGPRs, LDS and buffer must agree; that
 * also catches a translated block that faults where the interpreter does not, or the
 * other way round, which the checking mode's per-block comparison can miss. A finding is
 * an abort from either check, or any sanitizer report.
 *
 * HSACL_FUZZ_XLATE_PRINT=1 prints each input's program as llvm-mc --disassemble input
 * (the words as bytes) and as the simulator disassembles it.
 */
#include "fuzz_common.h"

#include <stdatomic.h>
#include <stdio.h>
#include <sys/mman.h>
#include "sim_isa_priv.h"

/* ---- Opcode numbers: the decoder's tables (sim_opcodes_<target>.def) ----------------- */

typedef struct fx_row {
   uint8_t enc;
   uint16_t num;
   uint16_t op;
} fx_row;

#define SIM_OPCODE(e, o, m) {SIM_ENC_##e, o, SIM_OP_##m},
static const fx_row rows_gfx906[] = {
#include "sim_opcodes_gfx906.def"
};
#define SIM_OPCODE(e, o, m) {SIM_ENC_##e, o, SIM_OP_##m},
static const fx_row rows_gfx90a[] = {
#include "sim_opcodes_gfx90a.def"
};
#define SIM_OPCODE(e, o, m) {SIM_ENC_##e, o, SIM_OP_##m},
static const fx_row rows_gfx1030[] = {
#include "sim_opcodes_gfx1030.def"
};

/* The opcode number of `op` in encoding `enc` on `t`, -1 when the target has none. */
static int
opnum(const sim_target *t, sim_enc enc, sim_op op)
{
   const fx_row *r = rows_gfx906;
   size_t n = sizeof(rows_gfx906) / sizeof(rows_gfx906[0]);
   if (t->id == SIM_TARGET_GFX90A)
      r = rows_gfx90a, n = sizeof(rows_gfx90a) / sizeof(rows_gfx90a[0]);
   else if (t->id == SIM_TARGET_GFX1030)
      r = rows_gfx1030, n = sizeof(rows_gfx1030) / sizeof(rows_gfx1030[0]);
   for (size_t i = 0; i < n; i++)
      if (r[i].enc == enc && r[i].op == op)
         return r[i].num;
   return -1;
}

/* ---- The input ------------------------------------------------------------------------ */

typedef struct fx_in {
   const uint8_t *p;
   size_t n;
} fx_in;

/* The next input byte; 0 once the input is used up (a short input is a short program). */
static unsigned
take(fx_in *in)
{
   if (!in->n)
      return 0;
   in->n--;
   return *in->p++;
}

static uint32_t
take32(fx_in *in)
{
   uint32_t v = take(in);
   v |= take(in) << 8;
   v |= take(in) << 16;
   return v | (uint32_t)take(in) << 24;
}

/* splitmix64: lane values and memory contents from a seed the input gives. */
static uint64_t
rnd(uint64_t *s)
{
   uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
   z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
   z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
   return z ^ (z >> 31);
}

/* f32 values the rounding, NaN and denormal paths care about. */
static const uint32_t special_f32[] = {
   0x00000000, 0x80000000, 0x3F800000, 0xBF800000, 0x7F800000, 0xFF800000, 0x7FC00000,
   0xFFC00001, 0x7F800001, 0x00000001, 0x807FFFFF, 0x00800000, 0x7F7FFFFF, 0x4F800000,
   0xCF000000, 0x4B000000, 0x3EFFFFFF, 0x3F000000, 0x4EFFFFFF, 0x5F800000,
};
#define N_SPECIAL (sizeof(special_f32) / sizeof(special_f32[0]))
/* f16 halves of the same kinds: zeros, subnormals, the normal range's ends, infinities,
 * quiet and signalling NaNs of both signs. */
static const uint16_t special_f16[] = {
   0x0000, 0x8000, 0x0001, 0x83FF, 0x0400, 0x3C00, 0xBC00, 0x3C01, 0x7BFF, 0xFBFF, 0x7C00,
   0xFC00, 0x7E00, 0xFE01, 0x7D00, 0xFC01,
};
#define N_SPECIAL16 (sizeof(special_f16) / sizeof(special_f16[0]))

/* ---- The wave's world ----------------------------------------------------------------- */

/* Guest memory, one mapping: the buffer (page 0), a page no allocation covers (so a
 * little past the buffer faults) and the code (page 2). VA == host address. */
#define FX_PAGE 4096u
#define FX_BUF FX_PAGE
#define FX_VGPRS 32u    /* the wave's VGPRs: v0-v15 data, v16-v23 addresses, room above */
/* Instructions a program holds before s_endpgm, and of them wide (x2-x4) vector memory
 * ones: every input compiles its blocks, and a block of eight dwordx4 loads took seconds
 * of LLVM's time under ASan (a 30 s per-input limit on the loaded machine). */
#define FX_MAX_INSTS 8u
#define FX_MAX_WIDE 2u
#define FX_LDS_FILL 4096u

static uint8_t *mem;
static sim_alloc buf_alloc, code_alloc;
static uint8_t lds[65536];

const sim_alloc *sim__mem_find(uint64_t va);
const sim_alloc *
sim__mem_find(uint64_t va)
{
   if (va - buf_alloc.va < buf_alloc.reach)
      return &buf_alloc;
   if (va - code_alloc.va < code_alloc.reach)
      return &code_alloc;
   return NULL;
}

/* What one run starts from and ends with. */
typedef struct fx_state {
   uint32_t s[128];
   uint32_t scc;
   uint32_t v[FX_VGPRS][64];
   uint8_t lds[FX_LDS_FILL];
   uint8_t buf[FX_BUF];
   sim_fault_kind fault;
   uint64_t fault_addr;
} fx_state;

typedef struct fx_wave {
   const sim_target *t;
   unsigned lanes;
   uint8_t denorm32, denorm16, ieee;
   uint32_t lds_size;
} fx_wave;

/* ---- Encoders (the formats of the gfx9 and gfx10 ISA manuals) ------------------------- */

typedef struct fx_prog {
   uint32_t w[FX_MAX_INSTS * 3 + 8];
   unsigned n;                        /* words */
   unsigned start[FX_MAX_INSTS + 2];  /* first word of each instruction */
   sim_op op[FX_MAX_INSTS + 2];       /* what each decodes to */
   unsigned count;                    /* instructions, s_endpgm included */
   int branch_to[FX_MAX_INSTS + 2];   /* a branch's target instruction, else -1 */
} fx_prog;

static void
put(fx_prog *p, uint32_t w)
{
   p->w[p->n++] = w;
}

/* The generator's state for one instruction: target, input, program, and the VOP3
 * constant bus (gfx9: one SGPR or literal, gfx10: two) and literal it has used. */
typedef struct fx_gen {
   fx_in *in;
   const fx_wave *wv;
   fx_prog *p;
   bool gfx10;
   unsigned bus;        /* constant-bus reads left */
   uint16_t sread[3];   /* SGPRs read so far (the same SGPR counts once) */
   unsigned nsread;
   bool lit_ok, lit_used;
   uint32_t lit;        /* its value (all literal sources of an instruction share it) */
} fx_gen;

static void
enc_vop3(fx_gen *g, unsigned op, unsigned vdst, unsigned mid, unsigned clamp,
         const unsigned src[3], unsigned neg, unsigned omod)
{
   put(g->p, (g->gfx10 ? 0xD4000000u : 0xD0000000u) | op << 16 | clamp << 15 | mid << 8 | vdst);
   put(g->p, neg << 29 | omod << 27 | src[2] << 18 | src[1] << 9 | src[0]);
}

/* VOP3P: the packed forms' op_sel / op_sel_hi (bit i for source i) and neg_lo / neg_hi. */
static void
enc_vop3p(fx_gen *g, unsigned op, unsigned vdst, unsigned clamp, const unsigned src[3],
          unsigned op_sel, unsigned op_sel_hi, unsigned neg, unsigned neg_hi)
{
   put(g->p, (g->gfx10 ? 0xCC000000u : 0xD3800000u) | op << 16 | clamp << 15 |
                ((op_sel_hi >> 2) & 1) << 14 | (op_sel & 7) << 11 | (neg_hi & 7) << 8 | vdst);
   put(g->p, (neg & 7) << 29 | (op_sel_hi & 3) << 27 | src[2] << 18 | src[1] << 9 | src[0]);
}

/* ---- Operands ------------------------------------------------------------------------- */

enum { V0 = 256, SRC_LIT = 255 };

static void
bus_reset(fx_gen *g, bool vop3, bool implicit_vcc)
{
   g->bus = g->gfx10 ? 2 : 1;
   g->nsread = 0;
   g->lit_used = false;
   g->lit = 0;
   g->lit_ok = !vop3 || g->gfx10;
   if (implicit_vcc) {
      g->sread[g->nsread++] = SIM_SRC_VCC;
      g->bus--;
   }
}

/* Whether scalar source `c` (an SGPR, SCC or SRC_LIT; + BUS_64 for a pair, which the
 * assembler counts apart from a 32-bit read of its first SGPR) fits the constant bus;
 * takes it. */
enum { BUS_64 = 0x200 };
static bool
bus_take(fx_gen *g, unsigned c)
{
   if (c == SRC_LIT && g->lit_used)
      return true;
   for (unsigned i = 0; i < g->nsread; i++)
      if (g->sread[i] == c)
         return true;
   if (!g->bus)
      return false;
   g->bus--;
   if (c == SRC_LIT)
      g->lit_used = true;
   else if (g->nsread < 3)
      g->sread[g->nsread++] = (uint16_t)c;
   return true;
}

/* A VGPR source: the data registers mostly, the address registers sometimes. */
static unsigned
pick_vreg(fx_gen *g)
{
   unsigned b = take(g->in);
   return b & 0x80 ? 16 + (b & 7) : b & 15;
}

/* A VGPR destination; now and then an address register (its later uses may fault). */
static unsigned
pick_vdst(fx_gen *g)
{
   unsigned b = take(g->in);
   return (b & 0xF0) == 0xF0 ? 16 + (b & 7) : b & 15;
}

/* The even first register of a VGPR pair (gfx90a requires the alignment). */
static unsigned
pick_vpair(fx_gen *g)
{
   unsigned b = take(g->in);
   return b & 0x80 ? 16 + (b & 6) : b & 14;
}

static const uint8_t sgpr_srcs[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
                                    16, 17, 18, 19, 106, 107, 124, 126, 127};

/* A 32-bit source: VGPR, inline integer or float, SGPR, literal (within the constant
 * bus); `vgpr` allows VGPRs, `scalar` SGPRs and the literal. */
static unsigned
pick_src(fx_gen *g, bool vgpr, bool scalar)
{
   unsigned b = take(g->in), k = b & 15;
   if (vgpr && k < 7)
      return V0 + pick_vreg(g);
   if (k < 10)
      return 128 + take(g->in) % 81; /* 0..64, -1..-16 */
   if (k < 12)
      return 240 + take(g->in) % 9; /* 0.5, -0.5, 1, -1, 2, -2, 4, -4, 1/(2pi) */
   if (scalar && k < 15) {
      unsigned s = (b >> 4) == 15 ? SIM_SRC_SCC : sgpr_srcs[take(g->in) % sizeof(sgpr_srcs)];
      if (bus_take(g, s))
         return s;
   } else if (scalar && g->lit_ok) {
      bool first = !g->lit_used;
      if (bus_take(g, SRC_LIT)) {
         if (first)
            g->lit = b & 0x40 ? special_f32[take(g->in) % N_SPECIAL] : take32(g->in);
         return SRC_LIT;
      }
   }
   return vgpr ? V0 + pick_vreg(g) : 128 + take(g->in) % 81;
}

/* A 64-bit source: a VGPR pair, an SGPR pair (constant bus) or an integer constant. */
static unsigned
pick_src64(fx_gen *g, bool vgpr)
{
   unsigned b = take(g->in) & 7;
   if (vgpr && b < 4)
      return V0 + pick_vpair(g);
   if (b < 6) {
      unsigned s = b == 5 ? SIM_SRC_VCC : (take(g->in) % 10) * 2;
      if (bus_take(g, s + BUS_64))
         return s;
   }
   return 128 + take(g->in) % 81;
}

/* A lane-mask source (v_cndmask, carry-in: SGPRs of the wave's mask size, never a
 * constant); picked first, so the constant bus has room for it. */
static unsigned
pick_mask_src(fx_gen *g)
{
   unsigned b = take(g->in) & 7;
   unsigned s = b < 3 ? SIM_SRC_VCC : b == 3 ? SIM_SRC_EXEC : 4 + (b & 3) * 2;
   bus_take(g, g->wv->lanes == 32 ? s : s + BUS_64);
   return s;
}

/* An SGPR destination: s4-s19 mostly; VCC, M0, EXEC and the address SGPRs sometimes. */
static unsigned
pick_sdst(fx_gen *g)
{
   unsigned b = take(g->in);
   static const uint8_t rare[] = {106, 107, 124, 126, 0, 3, 20, 23};
   return (b & 0xE0) == 0xE0 ? rare[b & 7] : 4 + (b & 15);
}

static unsigned
pick_sdst64(fx_gen *g)
{
   unsigned b = take(g->in);
   static const uint8_t rare[] = {106, 106, 126, 0, 2, 20, 22, 106};
   return (b & 0xE0) == 0xE0 ? rare[b & 7] : 4 + (b & 7) * 2;
}

/* A lane-mask destination (v_cmp's VOP3 form, carries): one SGPR in a wave32. */
static unsigned
pick_mask_dst(fx_gen *g)
{
   unsigned b = take(g->in);
   if (g->wv->lanes == 32)
      return b & 0x80 ? SIM_SRC_VCC : 4 + (b & 15);
   return b & 0x80 ? SIM_SRC_VCC : (b & 0x70) == 0x70 ? SIM_SRC_EXEC : 4 + (b & 7) * 2;
}

/* ---- The forms ------------------------------------------------------------------------ */

typedef enum {
   FK_VOP1,    /* D = op(S0): VOP1, or VOP3 with modifiers on f32 ones */
   FK_VOP2,    /* D = op(S0, S1): VOP2 (S1 a VGPR), or VOP3 */
   FK_VOP3,    /* VOP3 only, 2 or 3 sources (`w`) */
   FK_CO,      /* carry out: VOP2 (VCC) or VOP3b (SDST) */
   FK_COCI,    /* carry in and out */
   FK_CNDMASK,
   FK_MAC,     /* D = S0 * S1 + D, VOP2 */
   FK_SHL64,   /* v_lshlrev_b64: D pair = S1 pair << S0 */
   FK_MAD64,   /* VOP3b: D pair, SDST mask = S0 * S1 + S2 pair */
   FK_CMP,     /* VOPC (VCC) or VOP3 (SDST; gfx10's v_cmpx EXEC alone) */
   FK_CMP64,   /* FK_CMP of 64-bit sources: VGPR pairs, SGPR pairs, integer constants */
   FK_F64,     /* VOP3, `w` f64 sources (abs/neg), a VGPR pair written */
   FK_F64_32,  /* VOP3, one f64 source, one VGPR written */
   FK_TO_F64,  /* VOP3, one 32-bit source (abs/neg when `f32`), a VGPR pair written */
   FK_SOP2,    /* `w` 1: 32-bit, 2: 64-bit, 3: 64-bit S0 and 32-bit S1 (s_lshl_b64) */
   FK_SOP1,    /* `w` as FK_SOP2; 4: saveexec of the wave's mask size */
   FK_SOPC,
   FK_SOPK,    /* `w` 1: SDST written, 0: read (s_cmpk) */
   FK_SOPP,    /* no-ops the block skips */
   FK_BRANCH,  /* forward conditional branch */
   FK_GLOBAL_LD, FK_GLOBAL_ST, FK_FLAT_LD, FK_FLAT_ST, /* `w` dwords */
   FK_MUBUF_LD, FK_MUBUF_ST,                           /* `w` dwords, scratch's V# */
   FK_DS_RD, FK_DS_WR, FK_DS_RD2, FK_DS_WR2,             /* `w` dwords an element */
   FK_SMEM,    /* s_load_dword, `w` dwords */
   FK_VOP3P,   /* packed 16-bit, `w` sources: op_sel, op_sel_hi, neg_lo, neg_hi */
} fx_kind;

typedef struct fx_form {
   sim_op op;
   uint8_t kind; /* fx_kind */
   uint8_t w;
   /* f32 sources: abs/neg in the VOP3 form (2: S0 only); clamp and omod also when the
    * result is f32 (not 3) */
   uint8_t f32;
} fx_form;

#define F(o, k, w, f) {SIM_OP_##o, k, w, f}
/* Lowered forms first and most (sim_xlate.c, sim_xlate_alu.c, sim_xlate_mem.c), then some
 * the blocks call. Names a target lacks (gfx9's or gfx10's) are skipped on it. */
static const fx_form forms[] = {
   F(v_mov_b32, FK_VOP1, 1, 0), F(v_cvt_f32_u32, FK_VOP1, 1, 0),
   F(v_cvt_f32_i32, FK_VOP1, 1, 0), F(v_cvt_u32_f32, FK_VOP1, 1, 3),
   F(v_cvt_i32_f32, FK_VOP1, 1, 3), F(v_cvt_flr_i32_f32, FK_VOP1, 1, 3),
   F(v_cvt_rpi_i32_f32, FK_VOP1, 1, 3), F(v_cvt_f32_ubyte0, FK_VOP1, 1, 0),
   F(v_cvt_f32_ubyte3, FK_VOP1, 1, 0), F(v_rcp_f32, FK_VOP1, 1, 1),
   F(v_rcp_iflag_f32, FK_VOP1, 1, 1), F(v_frexp_mant_f32, FK_VOP1, 1, 1),
   F(v_frexp_exp_i32_f32, FK_VOP1, 1, 3), F(v_floor_f32, FK_VOP1, 1, 1),
   F(v_trunc_f32, FK_VOP1, 1, 1), F(v_ceil_f32, FK_VOP1, 1, 1), F(v_rndne_f32, FK_VOP1, 1, 1),
   F(v_bfi_b32, FK_VOP3, 3, 0), F(v_bfe_i32, FK_VOP3, 3, 0), F(v_bfm_b32, FK_VOP3, 2, 0),
   F(v_alignbyte_b32, FK_VOP3, 3, 0), F(v_bcnt_u32_b32, FK_VOP3, 2, 0),
   F(v_or3_b32, FK_VOP3, 3, 0), F(v_xor3_b32, FK_VOP3, 3, 0), F(v_xad_u32, FK_VOP3, 3, 0),
   F(v_mul_hi_i32, FK_VOP3, 2, 0), F(v_mul_hi_u32_u24, FK_VOP2, 2, 0),
   F(v_mul_hi_i32_i24, FK_VOP2, 2, 0), F(v_min3_u32, FK_VOP3, 3, 0),
   F(v_max3_i32, FK_VOP3, 3, 0), F(v_med3_u32, FK_VOP3, 3, 0), F(v_med3_i32, FK_VOP3, 3, 0),
   F(v_mbcnt_lo_u32_b32, FK_VOP3, 2, 0), F(v_mbcnt_hi_u32_b32, FK_VOP3, 2, 0),
   F(v_add_u16, FK_VOP2, 2, 0), F(v_add_nc_u16, FK_VOP3, 2, 0), F(v_sub_u16, FK_VOP2, 2, 0),
   F(v_subrev_u16, FK_VOP2, 2, 0), F(v_mul_lo_u16, FK_VOP2, 2, 0),
   F(v_lshlrev_b16, FK_VOP2, 2, 0), F(v_lshrrev_b16, FK_VOP2, 2, 0),
   F(v_ashrrev_i16, FK_VOP2, 2, 0), F(v_max_u16, FK_VOP2, 2, 0), F(v_min_i16, FK_VOP2, 2, 0),
   F(s_brev_b32, FK_SOP1, 1, 0), F(s_not_b64, FK_SOP1, 2, 0), F(s_bcnt1_i32_b64, FK_SOP1, 2, 0),
   F(s_cmp_lg_u64, FK_SOPC, 2, 0), F(s_cmp_eq_u64, FK_SOPC, 2, 0),
   F(v_add_u32, FK_VOP2, 2, 0), F(v_add_nc_u32, FK_VOP2, 2, 0), F(v_sub_u32, FK_VOP2, 2, 0),
   F(v_sub_nc_u32, FK_VOP2, 2, 0), F(v_subrev_u32, FK_VOP2, 2, 0),
   F(v_subrev_nc_u32, FK_VOP2, 2, 0), F(v_and_b32, FK_VOP2, 2, 0), F(v_or_b32, FK_VOP2, 2, 0),
   F(v_xor_b32, FK_VOP2, 2, 0), F(v_lshlrev_b32, FK_VOP2, 2, 0),
   F(v_lshrrev_b32, FK_VOP2, 2, 0), F(v_ashrrev_i32, FK_VOP2, 2, 0),
   F(v_mul_u32_u24, FK_VOP2, 2, 0), F(v_mul_i32_i24, FK_VOP2, 2, 0),
   F(v_min_i32, FK_VOP2, 2, 0), F(v_max_u32, FK_VOP2, 2, 0), F(v_add_f32, FK_VOP2, 2, 1),
   F(v_sub_f32, FK_VOP2, 2, 1), F(v_subrev_f32, FK_VOP2, 2, 1), F(v_mul_f32, FK_VOP2, 2, 1),
   F(v_mul_lo_u32, FK_VOP3, 2, 0), F(v_ldexp_f32, FK_VOP3, 2, 2),
   F(v_lshl_add_u32, FK_VOP3, 3, 0), F(v_add_lshl_u32, FK_VOP3, 3, 0),
   F(v_add3_u32, FK_VOP3, 3, 0), F(v_lshl_or_b32, FK_VOP3, 3, 0),
   F(v_and_or_b32, FK_VOP3, 3, 0), F(v_fma_f32, FK_VOP3, 3, 1), F(v_mad_f32, FK_VOP3, 3, 1),
   F(v_add_co_u32, FK_CO, 2, 0), F(v_sub_co_u32, FK_CO, 2, 0),
   F(v_subrev_co_u32, FK_CO, 2, 0), F(v_addc_co_u32, FK_COCI, 2, 0),
   F(v_subb_co_u32, FK_COCI, 2, 0), F(v_subbrev_co_u32, FK_COCI, 2, 0),
   F(v_add_co_ci_u32, FK_COCI, 2, 0), F(v_sub_co_ci_u32, FK_COCI, 2, 0),
   F(v_subrev_co_ci_u32, FK_COCI, 2, 0), F(v_cndmask_b32, FK_CNDMASK, 2, 0),
   F(v_mac_f32, FK_MAC, 2, 1), F(v_fmac_f32, FK_MAC, 2, 1),
   F(v_add_f16, FK_VOP2, 2, 1), F(v_sub_f16, FK_VOP2, 2, 1), F(v_subrev_f16, FK_VOP2, 2, 1),
   F(v_mul_f16, FK_VOP2, 2, 1), F(v_fma_f16, FK_VOP3, 3, 1), F(v_mad_f16, FK_VOP3, 3, 1),
   F(v_mac_f16, FK_MAC, 2, 1), F(v_cvt_f16_f32, FK_VOP1, 1, 1),
   F(v_cvt_f32_f16, FK_VOP1, 1, 1), F(v_pk_add_f16, FK_VOP3P, 2, 0),
   F(v_pk_mul_f16, FK_VOP3P, 2, 0), F(v_pk_fma_f16, FK_VOP3P, 3, 0),
   F(v_min_f16, FK_VOP2, 2, 1), F(v_max_f16, FK_VOP2, 2, 1), F(v_pk_min_f16, FK_VOP3P, 2, 0),
   F(v_pk_max_f16, FK_VOP3P, 2, 0), F(v_pack_b32_f16, FK_VOP3, 2, 1),
   F(v_cvt_pkrtz_f16_f32, FK_VOP2, 2, 1), F(v_fmac_f16, FK_MAC, 2, 1),
   F(v_pk_fmac_f16, FK_MAC, 2, 0), F(v_cmp_lt_f16, FK_CMP, 2, 1), F(v_cmp_eq_f16, FK_CMP, 2, 1),
   F(v_cmp_ge_f16, FK_CMP, 2, 1), F(v_cmp_o_f16, FK_CMP, 2, 1), F(v_cmp_u_f16, FK_CMP, 2, 1),
   F(v_cmp_nlg_f16, FK_CMP, 2, 1), F(v_cmp_neq_f16, FK_CMP, 2, 1),
   F(v_cmp_tru_f16, FK_CMP, 2, 1), F(v_cmpx_gt_f16, FK_CMP, 2, 1),
   F(v_cmpx_nle_f16, FK_CMP, 2, 1),
   F(v_lshlrev_b64, FK_SHL64, 2, 0), F(v_mad_u64_u32, FK_MAD64, 3, 0),
   F(v_mad_i64_i32, FK_MAD64, 3, 0),
   F(v_cmp_eq_u32, FK_CMP, 2, 0), F(v_cmp_lt_i32, FK_CMP, 2, 0), F(v_cmp_ge_u32, FK_CMP, 2, 0),
   F(v_cmp_ne_i32, FK_CMP, 2, 0), F(v_cmp_lt_f32, FK_CMP, 2, 1), F(v_cmp_neq_f32, FK_CMP, 2, 1),
   F(v_cmp_u_f32, FK_CMP, 2, 1), F(v_cmp_nge_f32, FK_CMP, 2, 1),
   F(v_cmpx_gt_u32, FK_CMP, 2, 0), F(v_cmpx_le_i32, FK_CMP, 2, 0),
   F(v_cmpx_lg_f32, FK_CMP, 2, 1), F(v_cmpx_nlt_f32, FK_CMP, 2, 1),
   F(v_cmp_class_f32, FK_CMP, 2, 2), F(v_cmpx_class_f32, FK_CMP, 2, 2),
   F(v_cmp_lt_u64, FK_CMP64, 2, 0), F(v_cmp_ge_i64, FK_CMP64, 2, 0),
   F(v_cmp_eq_u64, FK_CMP64, 2, 0), F(v_cmp_ne_i64, FK_CMP64, 2, 0),
   F(v_cmpx_gt_u64, FK_CMP64, 2, 0), F(v_cmpx_le_i64, FK_CMP64, 2, 0),
   F(v_add_f64, FK_F64, 2, 0), F(v_mul_f64, FK_F64, 2, 0), F(v_fma_f64, FK_F64, 3, 0),
   F(v_min_f64, FK_F64, 2, 0), F(v_max_f64, FK_F64, 2, 0), F(v_trunc_f64, FK_F64, 1, 0),
   F(v_floor_f64, FK_F64, 1, 0), F(v_rndne_f64, FK_F64, 1, 0),
   F(v_cvt_i32_f64, FK_F64_32, 1, 0), F(v_cvt_u32_f64, FK_F64_32, 1, 0),
   F(v_cvt_f32_f64, FK_F64_32, 1, 0), F(v_cvt_f64_i32, FK_TO_F64, 1, 0),
   F(v_cvt_f64_u32, FK_TO_F64, 1, 0), F(v_cvt_f64_f32, FK_TO_F64, 1, 1),
   F(v_cmp_lt_f64, FK_CMP64, 2, 0), F(v_cmp_nge_f64, FK_CMP64, 2, 0),
   F(v_cmp_u_f64, FK_CMP64, 2, 0), F(v_cmpx_eq_f64, FK_CMP64, 2, 0),
   F(v_min_f32, FK_VOP2, 2, 1), F(v_max_f32, FK_VOP2, 2, 1), F(v_med3_f32, FK_VOP3, 3, 1),
   F(v_min3_f32, FK_VOP3, 3, 1), F(v_max3_f32, FK_VOP3, 3, 1), F(v_bfrev_b32, FK_VOP1, 1, 0),
   F(v_mad_u32_u24, FK_VOP3, 3, 0), F(v_mad_i32_i24, FK_VOP3, 3, 0),
   F(v_readfirstlane_b32, FK_VOP1, 1, 0), F(s_mul_hi_u32, FK_SOP2, 1, 0),
   F(s_mul_hi_i32, FK_SOP2, 1, 0), F(s_bfe_u32, FK_SOP2, 1, 0), F(s_bfe_i32, FK_SOP2, 1, 0),
   F(v_ffbh_u32, FK_VOP1, 1, 0), F(v_ffbh_i32, FK_VOP1, 1, 0), F(v_ffbl_b32, FK_VOP1, 1, 0),
   F(s_mov_b32, FK_SOP1, 1, 0), F(s_mov_b64, FK_SOP1, 2, 0),
   F(s_and_saveexec_b64, FK_SOP1, 4, 0), F(s_or_saveexec_b64, FK_SOP1, 4, 0),
   F(s_xor_saveexec_b64, FK_SOP1, 4, 0), F(s_andn2_saveexec_b64, FK_SOP1, 4, 0),
   F(s_and_saveexec_b32, FK_SOP1, 4, 0), F(s_andn2_saveexec_b32, FK_SOP1, 4, 0),
   F(s_add_u32, FK_SOP2, 1, 0), F(s_sub_u32, FK_SOP2, 1, 0), F(s_add_i32, FK_SOP2, 1, 0),
   F(s_addc_u32, FK_SOP2, 1, 0), F(s_mul_i32, FK_SOP2, 1, 0), F(s_and_b32, FK_SOP2, 1, 0),
   F(s_or_b32, FK_SOP2, 1, 0), F(s_xor_b32, FK_SOP2, 1, 0), F(s_andn2_b32, FK_SOP2, 1, 0),
   F(s_and_b64, FK_SOP2, 2, 0), F(s_or_b64, FK_SOP2, 2, 0), F(s_xor_b64, FK_SOP2, 2, 0),
   F(s_andn2_b64, FK_SOP2, 2, 0), F(s_lshl_b32, FK_SOP2, 1, 0), F(s_lshr_b32, FK_SOP2, 1, 0),
   F(s_ashr_i32, FK_SOP2, 1, 0), F(s_lshl_b64, FK_SOP2, 3, 0),
   F(s_cselect_b32, FK_SOP2, 1, 0), F(s_cselect_b64, FK_SOP2, 2, 0),
   F(s_cmp_eq_u32, FK_SOPC, 1, 0), F(s_cmp_lt_i32, FK_SOPC, 1, 0),
   F(s_cmp_ge_u32, FK_SOPC, 1, 0), F(s_cmp_lg_i32, FK_SOPC, 1, 0),
   F(global_load_dword, FK_GLOBAL_LD, 1, 0), F(global_load_dwordx2, FK_GLOBAL_LD, 2, 0),
   F(global_load_dwordx4, FK_GLOBAL_LD, 4, 0), F(global_store_dword, FK_GLOBAL_ST, 1, 0),
   F(global_store_dwordx2, FK_GLOBAL_ST, 2, 0), F(global_store_dwordx3, FK_GLOBAL_ST, 3, 0),
   F(global_load_dword, FK_GLOBAL_LD, 1, 0), F(global_store_dword, FK_GLOBAL_ST, 1, 0),
   F(flat_load_dword, FK_FLAT_LD, 1, 0), F(flat_store_dword, FK_FLAT_ST, 1, 0),
   F(flat_load_dwordx2, FK_FLAT_LD, 2, 0),
   F(global_load_ubyte, FK_GLOBAL_LD, 1, 0), F(global_load_sshort, FK_GLOBAL_LD, 1, 0),
   F(global_store_byte, FK_GLOBAL_ST, 1, 0), F(global_store_short, FK_GLOBAL_ST, 1, 0),
   F(flat_load_sbyte, FK_FLAT_LD, 1, 0), F(flat_store_short, FK_FLAT_ST, 1, 0),
   F(buffer_load_dword, FK_MUBUF_LD, 1, 0), F(buffer_load_dwordx2, FK_MUBUF_LD, 2, 0),
   F(buffer_load_dwordx4, FK_MUBUF_LD, 4, 0), F(buffer_store_dword, FK_MUBUF_ST, 1, 0),
   F(buffer_store_dwordx3, FK_MUBUF_ST, 3, 0), F(buffer_load_dword, FK_MUBUF_LD, 1, 0),
   F(ds_read_b32, FK_DS_RD, 1, 0), F(ds_read_b64, FK_DS_RD, 2, 0),
   F(ds_write_b32, FK_DS_WR, 1, 0), F(ds_write_b64, FK_DS_WR, 2, 0),
   F(ds_read_b128, FK_DS_RD, 4, 0), F(ds_write_b128, FK_DS_WR, 4, 0),
   F(ds_read_b96, FK_DS_RD, 3, 0), F(ds_write_b96, FK_DS_WR, 3, 0),
   F(ds_read2_b32, FK_DS_RD2, 1, 0), F(ds_read2st64_b64, FK_DS_RD2, 2, 0),
   F(ds_write2_b32, FK_DS_WR2, 1, 0), F(ds_write2_b64, FK_DS_WR2, 2, 0),
   F(ds_write2st64_b32, FK_DS_WR2, 1, 0),
   F(s_load_dword, FK_SMEM, 1, 0), F(s_load_dwordx2, FK_SMEM, 2, 0),
   F(s_load_dwordx4, FK_SMEM, 4, 0),
   F(s_nop, FK_SOPP, 0, 0), F(s_waitcnt, FK_SOPP, 0, 0),
   F(s_cbranch_scc0, FK_BRANCH, 0, 0), F(s_cbranch_vccnz, FK_BRANCH, 0, 0),
   F(s_cbranch_execz, FK_BRANCH, 0, 0),
   /* Called from inside the block. */
   F(v_not_b32, FK_VOP1, 1, 0), F(v_sqrt_f32, FK_VOP1, 1, 1), F(v_max_f32, FK_VOP2, 2, 1),
   F(v_bfe_u32, FK_VOP3, 3, 0), F(v_med3_f32, FK_VOP3, 3, 1), F(v_mul_hi_u32, FK_VOP3, 2, 0),
   F(v_alignbit_b32, FK_VOP3, 3, 0), F(v_lshrrev_b64, FK_SHL64, 2, 0),
   F(s_not_b32, FK_SOP1, 1, 0), F(s_bcnt1_i32_b32, FK_SOP1, 1, 0), F(s_min_u32, FK_SOP2, 1, 0),
   F(s_bfe_u32, FK_SOP2, 1, 0), F(s_lshr_b64, FK_SOP2, 3, 0), F(s_movk_i32, FK_SOPK, 1, 0),
   F(s_addk_i32, FK_SOPK, 1, 0), F(s_mulk_i32, FK_SOPK, 1, 0), F(s_cmpk_lg_u32, FK_SOPK, 0, 0),
   F(global_load_ushort, FK_GLOBAL_LD, 1, 0), F(global_atomic_add, FK_GLOBAL_ST, 1, 0),
   F(ds_add_u32, FK_DS_WR, 1, 0), F(global_load_dwordx3, FK_GLOBAL_LD, 3, 0),
};
#undef F
#define N_FORMS (sizeof(forms) / sizeof(forms[0]))

/* VOP3 modifiers of an f32 form: mostly none; abs/neg (lowered on f32 sources), and now
 * and then clamp or an output modifier (the block calls the handler). */
static void
pick_mods(fx_gen *g, const fx_form *f, unsigned *abs, unsigned *neg, unsigned *clamp,
          unsigned *omod)
{
   *abs = *neg = *clamp = *omod = 0;
   if (!f->f32)
      return;
   unsigned b = take(g->in);
   unsigned mask = f->f32 == 2 ? 1 : 7; /* v_ldexp_f32: S1 is an integer */
   if (b & 1)
      *neg = (b >> 1) & mask;
   if (b & 0x10)
      *abs = (b >> 5) & mask;
   if ((b & 0xC0) == 0xC0 && f->kind != FK_CMP && f->f32 != 3) {
      *clamp = b & 2 ? 1 : 0;
      *omod = (b >> 2) & 3;
   }
}

/* Appends the literal when the instruction took one. */
static void
put_literal(fx_gen *g)
{
   if (g->lit_used)
      put(g->p, g->lit);
}

/* The encoding of `op`: its 32-bit one (`enc32`) or VOP3 as *vop3 asks, the other when the
 * target lacks it (false when it has neither); the opcode numbers in *n32 / *n3, the
 * constant bus reset for the encoding chosen. */
static bool
pick_enc(fx_gen *g, sim_enc enc32, sim_op op, bool *vop3, int *n32, int *n3)
{
   *n32 = opnum(g->wv->t, enc32, op);
   *n3 = opnum(g->wv->t, SIM_ENC_VOP3, op);
   if (*n32 < 0 || (*vop3 && *n3 < 0))
      *vop3 = *n32 < 0;
   if (*vop3 && *n3 < 0)
      return false;
   bus_reset(g, *vop3, false);
   return true;
}

/* The SDWA form of VOP1/VOP2/VOPC `f` (opcode n32), as the assembler encodes it: VGPR
 * sources with any of the seven selects, sign extension on integer sources, abs/neg on f32
 * ones now and then, a VOP1's absent S1 fields zero; a destination with any of the seven
 * selects and three unused-bits rules, and now and then a clamp or an output modifier on
 * an f32 result; a VOPC's SDST (VCC or, with SD, an SGPR mask). The translator lowers the
 * integer operations' forms and calls the rest. */
static bool
gen_sdwa(fx_gen *g, const fx_form *f, unsigned n32)
{
   unsigned a = pick_vreg(g), b = pick_vreg(g), d = pick_vdst(g);
   unsigned m = take(g->in), sel = take(g->in), x = take(g->in);
   bool vop1 = f->kind == FK_VOP1, fsrc = f->f32 != 0;
   uint32_t w1 = a | (sel % 7) << 16;
   if (!vop1)
      w1 |= (sel / 7 % 7) << 24;
   if (!fsrc)
      w1 |= (x & 1) << 19 | (vop1 ? 0 : ((x >> 1) & 1) << 27); /* sext */
   else if ((m & 0x1C) == 0x1C)
      w1 |= (x >> 2 & 3) << 20 | (vop1 ? 0 : (x >> 4 & 3) << 28); /* neg, abs */
   if (f->kind == FK_CMP) {
      bool cmpx = sim__op_names[f->op][5] == 'x';
      if (!cmpx && (m & 1)) /* SD: an SGPR destination instead of VCC */
         w1 |= 1u << 15 | (pick_mask_dst(g) & 0x7F) << 8;
      put(g->p, 0x7C000000u | n32 << 17 | b << 9 | SIM_SRC_SDWA);
   } else {
      w1 |= (m >> 5) % 7 << 8 | (m >> 1 & 3) % 3 << 11; /* dst_sel, dst_unused */
      if (f->f32 == 1 && (m & 0x18) == 0x18)
         w1 |= (m & 1) << 13 | ((x >> 6) & 3) << 14; /* clamp, omod */
      if (vop1)
         put(g->p, 0x7E000000u | d << 17 | n32 << 9 | SIM_SRC_SDWA);
      else
         put(g->p, n32 << 25 | d << 17 | b << 9 | SIM_SRC_SDWA);
   }
   put(g->p, w1);
   return true;
}

static bool
gen_valu(fx_gen *g, const fx_form *f)
{
   const sim_target *t = g->wv->t;
   int n32, n3;
   unsigned abs, neg, clamp, omod, src[3] = {0, 0, 0};
   unsigned e = take(g->in);
   bool vop3 = e & 1;
   switch ((fx_kind)f->kind) {
   case FK_VOP1:
   case FK_VOP2:
   case FK_CMP: {
      sim_enc enc32 = f->kind == FK_VOP1 ? SIM_ENC_VOP1 : f->kind == FK_VOP2 ? SIM_ENC_VOP2
                                                                               : SIM_ENC_VOPC;
      if (!pick_enc(g, enc32, f->op, &vop3, &n32, &n3))
         return false;
      unsigned nsrc = f->kind == FK_VOP1 ? 1 : 2;
      if (!vop3 && (take(g->in) & 3) == 3 && f->op != SIM_OP_v_readfirstlane_b32)
         return gen_sdwa(g, f, (unsigned)n32); /* (v_readfirstlane has no SDWA form) */
      src[0] = pick_src(g, true, true);
      if (nsrc == 2)
         src[1] = vop3 ? pick_src(g, true, true) : V0 + pick_vreg(g);
      if (!vop3) {
         unsigned d = pick_vdst(g);
         if (f->kind == FK_VOP1)
            put(g->p, 0x7E000000u | d << 17 | (unsigned)n32 << 9 | src[0]);
         else if (f->kind == FK_VOP2)
            put(g->p, (unsigned)n32 << 25 | d << 17 | (src[1] - V0) << 9 | src[0]);
         else
            put(g->p, 0x7C000000u | (unsigned)n32 << 17 | (src[1] - V0) << 9 | src[0]);
         put_literal(g);
         return true;
      }
      pick_mods(g, f, &abs, &neg, &clamp, &omod);
      unsigned d = pick_vdst(g);
      if (f->kind == FK_CMP) {
         bool cmpx = sim__op_names[f->op][5] == 'x';
         d = cmpx && g->gfx10 ? SIM_SRC_EXEC : pick_mask_dst(g);
         clamp = omod = 0;
      }
      if (nsrc == 1)
         abs &= 1, neg &= 1;
      else
         abs &= 3, neg &= 3;
      enc_vop3(g, (unsigned)n3, d, abs, clamp, src, neg, omod);
      put_literal(g);
      return true;
   }
   case FK_VOP3:
      if ((n3 = opnum(t, SIM_ENC_VOP3, f->op)) < 0)
         return false;
      bus_reset(g, true, false);
      for (unsigned i = 0; i < f->w; i++)
         src[i] = pick_src(g, true, true);
      pick_mods(g, f, &abs, &neg, &clamp, &omod);
      if (f->w == 2)
         abs &= 3, neg &= 3;
      enc_vop3(g, (unsigned)n3, pick_vdst(g), abs, clamp, src, neg, omod);
      /* v_pack_b32_f16 picks its source halves with op_sel (bits 11-12). */
      if (f->op == SIM_OP_v_pack_b32_f16)
         g->p->w[g->p->n - 2] |= (take(g->in) & 3) << 11;
      put_literal(g);
      return true;
   case FK_CO:
   case FK_COCI:
   case FK_CNDMASK: {
      bool cin = f->kind != FK_CO;
      n32 = opnum(t, SIM_ENC_VOP2, f->op);
      n3 = opnum(t, SIM_ENC_VOP3, f->op);
      if (n32 < 0 || (vop3 && n3 < 0))
         vop3 = n32 < 0;
      if (vop3 && n3 < 0)
         return false;
      bus_reset(g, vop3, cin && !vop3);
      if (vop3 && cin)
         src[2] = pick_mask_src(g);
      src[0] = pick_src(g, true, true);
      src[1] = vop3 ? pick_src(g, true, true) : V0 + pick_vreg(g);
      unsigned d = pick_vdst(g);
      if (!vop3) {
         put(g->p, (unsigned)n32 << 25 | d << 17 | (src[1] - V0) << 9 | src[0]);
      } else {
         unsigned sd = f->kind == FK_CNDMASK ? 0 : pick_mask_dst(g);
         enc_vop3(g, (unsigned)n3, d, sd, 0, src, 0, 0);
      }
      put_literal(g);
      return true;
   }
   case FK_VOP3P: {
      if ((n3 = opnum(t, SIM_ENC_VOP3P, f->op)) < 0)
         return false;
      bus_reset(g, true, false);
      for (unsigned i = 0; i < f->w; i++)
         src[i] = pick_src(g, true, true);
      /* Mostly the plain form (op_sel 0, op_sel_hi all ones); now and then a clamp (the
       * block calls the handler). */
      unsigned m = take(g->in), sel = 0, selhi = 7, ng = 0, nghi = 0;
      if (m & 1)
         sel = take(g->in) & 7, selhi = take(g->in) & 7;
      if (m & 2)
         ng = take(g->in) & 7, nghi = take(g->in) & 7;
      enc_vop3p(g, (unsigned)n3, pick_vdst(g), (m & 0x1C) == 0x1C, src, sel, selhi, ng, nghi);
      put_literal(g);
      return true;
   }
   case FK_MAC:
      if ((n32 = opnum(t, SIM_ENC_VOP2, f->op)) < 0)
         return false;
      bus_reset(g, false, false);
      src[0] = pick_src(g, true, true);
      put(g->p, (unsigned)n32 << 25 | pick_vdst(g) << 17 | pick_vreg(g) << 9 | src[0]);
      put_literal(g);
      return true;
   case FK_CMP64: {
      if (!pick_enc(g, SIM_ENC_VOPC, f->op, &vop3, &n32, &n3))
         return false;
      src[0] = pick_src64(g, true);
      if (!vop3) {
         put(g->p, 0x7C000000u | (unsigned)n32 << 17 | pick_vpair(g) << 9 | src[0]);
         return true;
      }
      src[1] = pick_src64(g, true);
      bool cmpx = sim__op_names[f->op][5] == 'x';
      enc_vop3(g, (unsigned)n3, cmpx && g->gfx10 ? SIM_SRC_EXEC : pick_mask_dst(g), 0, 0, src,
               0, 0);
      return true;
   }
   case FK_F64: case FK_F64_32: case FK_TO_F64: {
      if ((n3 = opnum(t, SIM_ENC_VOP3, f->op)) < 0)
         return false;
      bus_reset(g, true, false);
      for (unsigned i = 0; i < f->w; i++)
         src[i] = f->kind == FK_TO_F64 ? pick_src(g, true, true) : pick_src64(g, true);
      unsigned mods = take(g->in), m = f->kind == FK_TO_F64 && !f->f32 ? 0 : (1u << f->w) - 1;
      unsigned d = f->kind == FK_F64_32 ? pick_vdst(g) : pick_vpair(g) & 15;
      enc_vop3(g, (unsigned)n3, d, mods & m, 0, src, (mods >> 4) & m, 0);
      put_literal(g);
      return true;
   }
   case FK_SHL64:
      if ((n3 = opnum(t, SIM_ENC_VOP3, f->op)) < 0)
         return false;
      bus_reset(g, true, false);
      g->bus = 1; /* gfx10 too: its 64-bit shifts read one scalar value */
      src[0] = pick_src(g, true, true);
      src[1] = pick_src64(g, true);
      enc_vop3(g, (unsigned)n3, pick_vpair(g) & 15, 0, 0, src, 0, 0);
      put_literal(g);
      return true;
   case FK_MAD64:
      if ((n3 = opnum(t, SIM_ENC_VOP3, f->op)) < 0)
         return false;
      bus_reset(g, true, false);
      src[0] = pick_src(g, true, true);
      src[1] = pick_src(g, true, true);
      src[2] = pick_src64(g, true);
      enc_vop3(g, (unsigned)n3, pick_vpair(g) & 15, pick_mask_dst(g), 0, src, 0, 0);
      put_literal(g);
      return true;
   default:
      return false;
   }
}

static bool
gen_salu(fx_gen *g, const fx_form *f)
{
   const sim_target *t = g->wv->t;
   int n;
   unsigned s0, s1, d;
   bus_reset(g, false, false);
   g->bus = 2; /* SALU: one literal, any SGPRs */
   switch ((fx_kind)f->kind) {
   case FK_SOP2:
      if ((n = opnum(t, SIM_ENC_SOP2, f->op)) < 0)
         return false;
      s0 = f->w == 1 ? pick_src(g, false, true) : pick_src64(g, false);
      s1 = f->w == 2 ? pick_src64(g, false) : pick_src(g, false, true);
      if (s0 == SIM_SRC_SCC || s1 == SIM_SRC_SCC)
         return false;
      d = f->w == 1 ? pick_sdst(g) : pick_sdst64(g);
      put(g->p, 0x80000000u | (unsigned)n << 23 | d << 16 | s1 << 8 | s0);
      break;
   case FK_SOP1:
      if ((n = opnum(t, SIM_ENC_SOP1, f->op)) < 0)
         return false;
      if (f->w == 4) {
         bool b32 = strstr(sim__op_names[f->op], "_b32") != NULL;
         if (b32 != (g->wv->lanes == 32))
            return false; /* the saveexec of the wave's mask size */
         s0 = b32 ? pick_src(g, false, true) : pick_src64(g, false);
         d = b32 ? pick_sdst(g) : pick_sdst64(g);
         if (d == SIM_SRC_EXEC || d == SIM_SRC_EXEC + 1)
            d = SIM_SRC_VCC; /* SDST is the saved EXEC */
      } else {
         s0 = f->w == 1 ? pick_src(g, false, true) : pick_src64(g, false);
         d = f->w == 1 ? pick_sdst(g) : pick_sdst64(g);
      }
      if (s0 == SIM_SRC_SCC)
         return false;
      put(g->p, 0xBE800000u | d << 16 | (unsigned)n << 8 | s0);
      break;
   case FK_SOPC:
      if ((n = opnum(t, SIM_ENC_SOPC, f->op)) < 0)
         return false;
      s0 = f->w == 2 ? pick_src64(g, false) : pick_src(g, false, true);
      s1 = f->w == 2 ? pick_src64(g, false) : pick_src(g, false, true);
      if (s0 == SIM_SRC_SCC || s1 == SIM_SRC_SCC)
         return false;
      put(g->p, 0xBF000000u | (unsigned)n << 16 | s1 << 8 | s0);
      break;
   case FK_SOPK:
      if ((n = opnum(t, SIM_ENC_SOPK, f->op)) < 0)
         return false;
      d = f->w ? pick_sdst(g) : 4 + (take(g->in) & 15);
      put(g->p, 0xB0000000u | (unsigned)n << 23 | d << 16 | (take32(g->in) & 0xFFFF));
      return true;
   default:
      return false;
   }
   put_literal(g);
   return true;
}

/* A byte offset of a memory instruction: small and dword-aligned mostly, an eighth of
 * them up to 8 KiB, a sixteenth negative (most of those fault, as do most large ones). */
static int
pick_offset(fx_gen *g, int lo, int hi)
{
   unsigned b = take(g->in);
   int off = (b & 0xE0) == 0xE0 ? (int)(take(g->in) | (b & 0x1F) << 8) : (int)(b & 0x1F) * 4;
   if ((take(g->in) & 15) == 0)
      off = -off;
   if (off < lo)
      off = lo;
   if (off > hi)
      off = hi;
   return off;
}

static bool
gen_mem(fx_gen *g, const fx_form *f)
{
   const sim_target *t = g->wv->t;
   bool gfx10 = g->gfx10;
   sim_enc enc = SIM_ENC_GLOBAL;
   unsigned k = f->kind;
   if (k == FK_FLAT_LD || k == FK_FLAT_ST)
      enc = SIM_ENC_FLAT;
   else if (k == FK_MUBUF_LD || k == FK_MUBUF_ST)
      enc = SIM_ENC_MUBUF;
   else if (k >= FK_DS_RD && k <= FK_DS_WR2)
      enc = SIM_ENC_DS;
   else if (k == FK_SMEM)
      enc = SIM_ENC_SMEM;
   int n = opnum(t, enc, f->op);
   if (n < 0)
      return false;
   /* Data registers: an even first one for a tuple (gfx90a requires it). */
   unsigned data = f->w > 1 || k == FK_DS_RD2 ? take(g->in) & 14 : take(g->in) & 15;
   switch (k) {
   case FK_GLOBAL_LD:
   case FK_GLOBAL_ST:
   case FK_FLAT_LD:
   case FK_FLAT_ST: {
      bool global = enc == SIM_ENC_GLOBAL;
      unsigned b = take(g->in);
      /* SADDR: none (a 64-bit address pair, v16 or v18) or s[0:1]/s[2:3] with a 32-bit
       * offset (v20 or v21). */
      unsigned saddr = gfx10 ? 0x7D : global ? 0x7F : 0;
      unsigned addr = 16 + (b & 2);
      if (global && (b & 4)) {
         saddr = b & 8 ? 2 : 0;
         addr = 20 + ((b >> 4) & 1);
      }
      if ((b & 0xE0) == 0xE0)
         addr = pick_vpair(g); /* an address computed by the block, or garbage */
      int off = global ? pick_offset(g, gfx10 ? -2048 : -4096, gfx10 ? 2047 : 4095)
                       : gfx10 ? 0 : pick_offset(g, 0, 4095);
      bool load = k == FK_GLOBAL_LD || k == FK_FLAT_LD;
      bool ret = f->op == SIM_OP_global_atomic_add && (b & 0x40);
      unsigned glc = ret ? 1 : 0;
      put(g->p, 0xDC000000u | (unsigned)n << 18 | glc << 16 | (global ? 2u : 0u) << 14 |
                   ((unsigned)off & (gfx10 ? 0xFFFu : 0x1FFFu)));
      put(g->p, (load || ret ? data : 0) << 24 | saddr << 16 | (load ? 0 : data) << 8 | addr);
      return true;
   }
   case FK_MUBUF_LD:
   case FK_MUBUF_ST: {
      /* Scratch as compiled code reaches it: the V# s[12:15] (gen_state: mostly the
       * dispatch's scratch shape over the buffer), OFFEN with the small private offsets of
       * v22 (or v20's buffer offsets, or any VGPR), or none; OFFSET mostly small dword
       * multiples; SOFFSET an inline constant, or now and then s4. */
      unsigned b = take(g->in);
      unsigned offen = !(b & 1), addr = (b & 6) == 6 ? 20 : 22;
      if ((b & 0xE0) == 0xE0)
         addr = pick_vreg(g);
      unsigned soff = (b & 0x18) == 0x18 ? 4 : 128 + ((b >> 3) & 3) * 4;
      unsigned off = (unsigned)pick_offset(g, 0, 4095) & ((b & 0xE0) == 0x80 ? 0xFFF : 0x3C);
      put(g->p, 0xE0000000u | (unsigned)n << 18 | offen << 12 | off);
      put(g->p, soff << 24 | 3u << 16 | data << 8 | addr);
      return true;
   }
   case FK_DS_RD:
   case FK_DS_WR:
   case FK_DS_RD2:
   case FK_DS_WR2: {
      unsigned b = take(g->in);
      unsigned addr = (b & 0xE0) == 0xE0 ? pick_vreg(g) : 20 + (b & 1);
      unsigned off0, off1;
      if (k == FK_DS_RD2 || k == FK_DS_WR2) {
         /* In elements, or 64 of them for st64: mostly inside a 4 KiB LDS. */
         unsigned m = strstr(sim__op_names[f->op], "st64") ? 7 : 0x1F;
         off0 = take(g->in) & ((b & 0x0E) == 0x0E ? 0xFF : m);
         off1 = take(g->in) & ((b & 0x70) == 0x70 ? 0xFF : m);
      } else {
         unsigned o = (unsigned)pick_offset(g, 0, 0xFFFF);
         off0 = o & 0xFF, off1 = o >> 8;
      }
      bool rd = k == FK_DS_RD || k == FK_DS_RD2;
      unsigned data1 = k == FK_DS_WR2 ? (f->w > 1 ? take(g->in) & 14 : take(g->in) & 15) : 0;
      put(g->p, 0xD8000000u | (unsigned)n << (gfx10 ? 18 : 17) | off1 << 8 | off0);
      put(g->p, (rd ? data : 0) << 24 | data1 << 16 | (rd ? 0 : data) << 8 | addr);
      return true;
   }
   case FK_SMEM: {
      unsigned b = take(g->in);
      unsigned sdata = 4 + (b & 12);
      unsigned sbase = b & 0x10 ? 2 : 0;
      unsigned off = (unsigned)pick_offset(g, 0, 0x1FFF) & ~3u;
      if (gfx10) {
         put(g->p, 0xF4000000u | (unsigned)n << 18 | sdata << 6 | sbase >> 1);
         put(g->p, 0x7Du << 25 | off);
      } else {
         put(g->p, 0xC0000000u | (unsigned)n << 18 | 1u << 17 | sdata << 6 | sbase >> 1);
         put(g->p, off);
      }
      return true;
   }
   default:
      return false;
   }
}

/* Emits one instruction of form `f` at the end of the program; false when the target has
 * no such form (nothing emitted). */
static bool
gen_one(fx_gen *g, const fx_form *f, unsigned idx)
{
   fx_prog *p = g->p;
   p->branch_to[idx] = -1;
   switch ((fx_kind)f->kind) {
   case FK_SOPP:
   case FK_BRANCH: {
      int n = opnum(g->wv->t, SIM_ENC_SOPP, f->op);
      if (n < 0)
         return false;
      if (f->kind == FK_BRANCH)
         p->branch_to[idx] = (int)(idx + 1 + take(g->in) % 3);
      put(p, 0xBF800000u | (unsigned)n << 16 | (f->op == SIM_OP_s_nop ? take(g->in) & 3 : 0));
      return true;
   }
   case FK_SOP2:
   case FK_SOP1:
   case FK_SOPC:
   case FK_SOPK:
      return gen_salu(g, f);
   case FK_GLOBAL_LD:
   case FK_GLOBAL_ST:
   case FK_FLAT_LD:
   case FK_FLAT_ST:
   case FK_MUBUF_LD:
   case FK_MUBUF_ST:
   case FK_DS_RD:
   case FK_DS_WR:
   case FK_DS_RD2:
   case FK_DS_WR2:
   case FK_SMEM:
      return gen_mem(g, f);
   default:
      return gen_valu(g, f);
   }
}

/* The program: up to FX_MAX_INSTS instructions, then s_endpgm; branch targets resolved. */
static void
gen_program(fx_in *in, const fx_wave *wv, fx_prog *p)
{
   fx_gen g = {.in = in, .wv = wv, .p = p, .gfx10 = wv->t->gfx_major >= 10};
   memset(p, 0, sizeof(*p));
   unsigned want = 1 + take(in) % FX_MAX_INSTS, wides = 0;
   for (unsigned tries = 0; p->count < want && tries < 4 * FX_MAX_INSTS && in->n; tries++) {
      const fx_form *f = &forms[take(in) % N_FORMS];
      bool wide = f->w > 1 && f->kind >= FK_GLOBAL_LD && f->kind <= FK_DS_WR2;
      if (wide && wides == FX_MAX_WIDE)
         continue;
      unsigned at = p->n;
      p->start[p->count] = at;
      if (!gen_one(&g, f, p->count)) {
         p->n = at;
         continue;
      }
      p->op[p->count++] = f->op;
      wides += wide;
   }
   p->start[p->count] = p->n;
   p->op[p->count] = SIM_OP_s_endpgm;
   p->branch_to[p->count] = -1;
   put(p, 0xBF810000u); /* s_endpgm */
   p->count++;
   for (unsigned i = 0; i + 1 < p->count; i++) {
      if (p->branch_to[i] < 0)
         continue;
      unsigned to = (unsigned)p->branch_to[i] < p->count ? (unsigned)p->branch_to[i]
                                                         : p->count - 1;
      p->w[p->start[i]] |= (p->start[to] - p->start[i + 1]) & 0xFFFF;
   }
}

/* ---- The wave's registers and memory -------------------------------------------------- */

/* Per-lane byte offsets of an address register (`pat`'s low 4 bits): unit stride, one
 * address, random, strided, reversed, misaligned, a lane past the end, below the start;
 * half the patterns are unit stride or random (the last two fault, and a fault ends the
 * program). */
static uint32_t
lane_offset(unsigned pat, unsigned l, unsigned k, unsigned bad, uint64_t *seed, uint32_t size)
{
   switch (pat & 8 ? (pat & 1) * 2 : pat & 7) {
   case 0: return (l + k) * 4;
   case 1: return k * 4;
   case 2: return (uint32_t)(rnd(seed) % (size / 4)) * 4;
   case 3: return (l * 2 + k) * 4;
   case 4: return l == bad ? size + (uint32_t)(rnd(seed) % 4096) : l * 4;
   case 5: return (63 - l) * 4;
   case 6: return l * 4 + (k & 3);
   default: return 0xFFFFF000u + l * 4;
   }
}

static void
lane_values(fx_in *in, uint64_t *seed, uint32_t row[64])
{
   unsigned pat = take(in);
   uint32_t c = 0;
   if ((pat & 7) == 0)
      c = take32(in);
   else if ((pat & 7) == 7)
      c = special_f32[take(in) % N_SPECIAL];
   for (unsigned l = 0; l < 64; l++) {
      uint64_t r = rnd(seed);
      switch (pat & 7) {
      case 0: case 7: row[l] = c; break;
      case 1: row[l] = l; break;
      case 2: row[l] = (uint32_t)r; break;
      case 3: /* f32 values, or pairs of f16 halves */
         row[l] = pat & 8 ? (uint32_t)special_f16[(r >> 8) % N_SPECIAL16] << 16 |
                               special_f16[r % N_SPECIAL16]
                          : special_f32[r % N_SPECIAL];
         break;
      case 4: row[l] = (uint32_t)(int32_t)(r % 64) - 32; break;
      case 5: /* a normal f32 of moderate exponent, either sign */
         row[l] = (uint32_t)(r & 0x807FFFFF) | (uint32_t)(100 + (r >> 32) % 56) << 23;
         break;
      default: row[l] = (uint32_t)(r % 256) * 4; break;
      }
   }
}

static void
gen_state(fx_in *in, const fx_wave *wv, fx_state *s)
{
   memset(s, 0, sizeof(*s));
   unsigned exec_pat = take(in);
   uint64_t seed = take32(in);
   for (unsigned v = 0; v < 16; v++)
      lane_values(in, &seed, s->v[v]);
   uint64_t buf = buf_alloc.va;
   for (unsigned a = 0; a < 2; a++) {
      unsigned pat = take(in), k = take(in) % 64, bad = take(in) % wv->lanes;
      for (unsigned l = 0; l < 64; l++) {
         uint32_t off = lane_offset(pat, l, k, bad, &seed, FX_BUF);
         uint32_t loff = lane_offset(pat >> 4, l, k, bad, &seed, wv->lds_size);
         uint64_t va = buf + (uint64_t)(int64_t)(int32_t)off;
         s->v[16 + 2 * a][l] = (uint32_t)va;
         s->v[17 + 2 * a][l] = (uint32_t)(va >> 32);
         s->v[20 + a][l] = k & 1 ? off : loff; /* GLOBAL's SADDR offsets, or the LDS's */
      }
   }
   for (unsigned v = 22; v < FX_VGPRS; v++)
      for (unsigned l = 0; l < 64; l++)
         s->v[v][l] = (uint32_t)rnd(&seed);
   /* v22: private offsets (MUBUF's OFFEN), dword multiples below 48 (inside the buffer
    * with the scratch V#), one offset for every lane or one a lane, now and then one not
    * dword-aligned. */
   unsigned ppat = (unsigned)rnd(&seed);
   for (unsigned l = 0; l < 64; l++) {
      uint64_t r = rnd(&seed);
      s->v[22][l] = 4 * (uint32_t)((ppat & 1 ? r : ppat >> 1) % 12) +
                    ((ppat & 6) == 6 && r % 13 == 0);
   }
   s->s[0] = (uint32_t)buf, s->s[1] = (uint32_t)(buf >> 32);
   uint64_t b2 = buf + 4 * (take(in) % 64);
   s->s[2] = (uint32_t)b2, s->s[3] = (uint32_t)(b2 >> 32);
   for (unsigned r = 4; r < 24; r++) {
      unsigned b = take(in);
      s->s[r] = b & 1 ? special_f32[(b >> 1) % N_SPECIAL] : b & 2 ? (uint32_t)rnd(&seed) : b >> 2;
   }
   /* s[12:15]: a buffer V# over the buffer: mostly the dispatch's scratch one (swizzled,
    * ADD_TID, 4-byte elements, index stride the wave size), else one field changed. */
   unsigned vpat = (unsigned)rnd(&seed);
   uint32_t w3 = 4u << 15 | 1u << 23 | (wv->lanes == 64 ? 3u : 2u) << 21 | 1u << 19;
   uint32_t w1 = (uint32_t)(buf >> 32) | 1u << 31;
   switch (vpat & 7) {
   case 5: w1 &= ~(1u << 31); w1 |= 16u << 16; break; /* linear, STRIDE 16 */
   case 6: w3 &= ~(3u << 19); break;                   /* 2-byte elements (gfx9) */
   case 7: w3 &= ~(1u << 23); break;                   /* no ADD_TID */
   default: break;
   }
   s->s[12] = (uint32_t)buf, s->s[13] = w1, s->s[14] = FX_BUF, s->s[15] = w3;
   uint64_t vcc = rnd(&seed), exec;
   switch (exec_pat & 7) {
   case 0: case 1: case 2: exec = ~0ull; break;
   case 3: exec = rnd(&seed); break;
   case 4: exec = 0xFFFFFFFFull << (exec_pat >> 3 & 31); break;
   case 5: exec = 1ull << (exec_pat >> 3 & 31); break;
   case 6: exec = 0; break;
   default: exec = 0x5555555555555555ull; break;
   }
   uint64_t lane_mask = wv->lanes == 64 ? ~0ull : 0xFFFFFFFFull;
   s->s[SIM_SRC_VCC] = (uint32_t)vcc, s->s[SIM_SRC_VCC + 1] = (uint32_t)(vcc >> 32);
   s->s[SIM_SRC_EXEC] = (uint32_t)(exec & lane_mask);
   s->s[SIM_SRC_EXEC + 1] = (uint32_t)((exec & lane_mask) >> 32);
   s->s[SIM_SRC_M0] = take(in) & 1 ? 0xFFFFFFFFu : (uint32_t)rnd(&seed);
   s->scc = take(in) & 1;
   for (unsigned i = 0; i < FX_LDS_FILL; i += 8) {
      uint64_t r = rnd(&seed);
      memcpy(s->lds + i, &r, 8);
   }
   for (unsigned i = 0; i < FX_BUF; i += 8) {
      uint64_t r = rnd(&seed);
      memcpy(s->buf + i, &r, 8);
   }
}

/* ---- Running and comparing ------------------------------------------------------------ */

static sim_wave wave;
static uint32_t rows[SIM_WAVE_ROWS][64];

/* Runs the program on a wave in `init`'s state with translation `mode` (0 interpret, 2
 * the checking mode); `out` is the state it ends in. */
static void
run(const fx_wave *wv, const fx_state *init, int mode, fx_state *out)
{
   sim__xlate_mode = mode;
   memset(&wave, 0, sizeof(wave));
   memcpy(rows, init->v, sizeof(init->v));
   memcpy(wave.s, init->s, sizeof(init->s));
   wave.scc = init->scc;
   wave.v = rows;
   wave.nvgpr = FX_VGPRS;
   wave.target = wv->t;
   wave.lanes = (uint8_t)wv->lanes;
   wave.denorm32 = wv->denorm32;
   wave.denorm16_64 = wv->denorm16;
   wave.ieee = wv->ieee;
   wave.dx10_clamp = 1;
   memset(lds, 0, sizeof(lds));
   memcpy(lds, init->lds, sizeof(init->lds));
   memcpy(buf_alloc.view, init->buf, FX_BUF);
   sim_fault f;
   out->fault = sim__isa_run_wave_for_test(&wave, code_alloc.va, NULL, lds, wv->lds_size, NULL,
                                           0, &f);
   out->fault_addr = f.address;
   memcpy(out->s, wave.s, sizeof(out->s));
   out->scc = wave.scc;
   memcpy(out->v, rows, sizeof(out->v));
   memcpy(out->lds, lds, sizeof(out->lds));
   memcpy(out->buf, buf_alloc.view, FX_BUF);
}

static void
print_program(const fx_wave *wv, const fx_prog *p, FILE *o)
{
   fprintf(o, "fuzz_xlate: %s wave%u, f32 denormals %u, f16 denormals %u, IEEE %u, LDS %u "
           "bytes; llvm-mc-19 --disassemble -triple=amdgcn-amd-amdhsa -mcpu=%s%s:\n",
           wv->t->name, wv->lanes, wv->denorm32, wv->denorm16, wv->ieee, wv->lds_size,
           wv->t->name, wv->lanes == 64 && wv->t->gfx_major >= 10
                                        ? " -mattr=+wavefrontsize64" : "");
   for (unsigned i = 0; i < p->count; i++) {
      unsigned end = i + 1 < p->count ? p->start[i + 1] : p->n;
      for (unsigned w = p->start[i]; w < end; w++)
         for (unsigned b = 0; b < 4; b++)
            fprintf(o, "0x%02x%s", p->w[w] >> (8 * b) & 0xFF, w + 1 == end && b == 3 ? "" : ",");
      sim_inst in;
      char dis[160];
      sim__decode(wv->t, &p->w[p->start[i]], (p->n - p->start[i]) * 4, &in);
      sim__disasm(&in, dis, sizeof(dis));
      fprintf(o, "   # %s\n", dis);
   }
}

/* Every instruction decodes to what the generator emitted, at the size it emitted. */
static void
check_decode(const fx_wave *wv, const fx_prog *p)
{
   for (unsigned i = 0; i < p->count; i++) {
      sim_inst in;
      sim__decode(wv->t, &p->w[p->start[i]], (p->n - p->start[i]) * 4, &in);
      unsigned end = i + 1 < p->count ? p->start[i + 1] : p->n;
      if (in.op != p->op[i] || in.size != (end - p->start[i]) * 4) {
         print_program(wv, p, stderr);
         fprintf(stderr, "fuzz_xlate: instruction %u decodes as %s (%u bytes), not %s: the "
                 "generator's encoding is wrong\n", i, sim__op_names[in.op], in.size,
                 sim__op_names[p->op[i]]);
         abort();
      }
   }
}

static void __attribute__((noreturn))
differ(const fx_wave *wv, const fx_prog *p, const char *what, unsigned reg, unsigned lane,
       uint64_t interp, uint64_t xlate)
{
   print_program(wv, p, stderr);
   fprintf(stderr, "fuzz_xlate: %s%u lane %u: interpreted 0x%llx, translated 0x%llx\n", what,
           reg, lane, (unsigned long long)interp, (unsigned long long)xlate);
   abort();
}

static void
compare(const fx_wave *wv, const fx_prog *p, const fx_state *a, const fx_state *b)
{
   if (a->fault != b->fault)
      differ(wv, p, "fault kind", 0, 0, a->fault, b->fault);
   if (a->fault == SIM_FAULT_MEMORY_VIOLATION && a->fault_addr != b->fault_addr)
      differ(wv, p, "fault address", 0, 0, a->fault_addr, b->fault_addr);
   for (unsigned i = 0; i < 128; i++)
      if (a->s[i] != b->s[i])
         differ(wv, p, "s", i, 0, a->s[i], b->s[i]);
   if (a->scc != b->scc)
      differ(wv, p, "scc", 0, 0, a->scc, b->scc);
   for (unsigned v = 0; v < FX_VGPRS; v++)
      for (unsigned l = 0; l < 64; l++)
         if (a->v[v][l] != b->v[v][l])
            differ(wv, p, "v", v, l, a->v[v][l], b->v[v][l]);
   for (unsigned i = 0; i < FX_LDS_FILL; i++)
      if (a->lds[i] != b->lds[i])
         differ(wv, p, "LDS byte ", i, 0, a->lds[i], b->lds[i]);
   for (unsigned i = 0; i < FX_BUF; i++)
      if (a->buf[i] != b->buf[i])
         differ(wv, p, "buffer byte ", i, 0, a->buf[i], b->buf[i]);
}

static bool print_programs;

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
   (void)argc, (void)argv;
   fuzz_default_env();
   /* Every block is compiled on its first run and compared (the comparison's own mode). */
   setenv("HSACL_SIM_XLATE", "check", 1);
   /* Runs of two lane-local instructions or more in pieces (sim_xlate.c emit_pieces), so
    * that these programs of 1-8 instructions reach them; a run naming few rows stays
    * whole either way. */
   setenv("HSACL_SIM_XLATE_PIECE_MIN", "2", 1);
   sim__xlate_init();
   if (sim__xlate_mode != 2) {
      fprintf(stderr, "fuzz_xlate: the translator did not start in the checking mode\n");
      abort();
   }
   print_programs = getenv("HSACL_FUZZ_XLATE_PRINT") != NULL;
   mem = mmap(NULL, 3 * FX_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
   if (mem == MAP_FAILED)
      abort();
   buf_alloc = (sim_alloc){.va = (uint64_t)(uintptr_t)mem, .size = FX_BUF, .reach = FX_BUF,
                           .view = mem, .flags = SIM_ALLOC_READ | SIM_ALLOC_WRITE};
   uint8_t *code = mem + 2 * FX_PAGE;
   code_alloc = (sim_alloc){.va = (uint64_t)(uintptr_t)code, .reach = FX_PAGE, .view = code,
                            .flags = SIM_ALLOC_READ | SIM_ALLOC_CODE};
   return 0;
}

int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
   static fx_state init, interp, xlate;
   static fx_prog prog;
   fx_in in = {data, size};
   fx_wave wv;
   unsigned tb = take(&in), mode = take(&in);
   static const sim_target_id ids[] = {SIM_TARGET_GFX906, SIM_TARGET_GFX906, SIM_TARGET_GFX90A,
                                       SIM_TARGET_GFX1030};
   wv.t = sim__target(ids[tb & 3]);
   wv.lanes = wv.t->gfx_major >= 10 && !(tb & 4) ? 32 : 64;
   wv.denorm32 = (mode & 0x30) == 0x30 ? 0 : 3; /* kernels: all denormals, or f32 flushed */
   wv.denorm16 = (mode & 0x0C) == 0x0C ? 0 : 3; /* f16 flushed now and then */
   wv.ieee = (mode & 3) != 3;                   /* IEEE mode mostly on, as in kernels */
   static const uint32_t lds_sizes[] = {4096, 4096, 1024, 65536};
   wv.lds_size = lds_sizes[(mode >> 6) & 3];
   gen_state(&in, &wv, &init);
   gen_program(&in, &wv, &prog);
   check_decode(&wv, &prog);
   if (print_programs) {
      print_program(&wv, &prog, stdout);
      fflush(stdout);
   }
   memcpy(code_alloc.view, prog.w, prog.n * 4);
   code_alloc.size = prog.n * 4;
   run(&wv, &init, 0, &interp);
   run(&wv, &init, 2, &xlate);
   /* The decoded program and its blocks go with the code (as when a code object is
    * unloaded): the next input's program is decoded and compiled afresh. */
   sim__isa_program_free(atomic_exchange(&code_alloc.isa_program, NULL));
   compare(&wv, &prog, &interp, &xlate);
   return 0;
}
