/*
 * VALU operand space: source readers (inline constants, literals, special registers,
 * VOP3 abs/neg/op_sel, SDWA selects, DPP lane permutes, VGPR index mode) and result
 * writers (EXEC, DPP write masks, SDWA dst_sel/dst_unused, 16-bit halves, masks, clamp and
 * omod). [ISA] 3.x "Operands", 6.x "Vector ALU operations", 6.x "SDWA", 6.x "DPP".
 */
#include <math.h>
#include "sim_isa_priv.h"

/* Inline float constants 240..248 ([ISA] "Inline constants"), per operand width. */
static const uint16_t fconst16[9] = {0x3800, 0xB800, 0x3C00, 0xBC00, 0x4000,
                                     0xC000, 0x4400, 0xC400, 0x3118};
static const uint32_t fconst32[9] = {0x3F000000, 0xBF000000, 0x3F800000,
                                     0xBF800000, 0x40000000, 0xC0000000,
                                     0x40800000, 0xC0800000, 0x3E22F983};
static const uint64_t fconst64[9] = {
   0x3FE0000000000000ull, 0xBFE0000000000000ull, 0x3FF0000000000000ull,
   0xBFF0000000000000ull, 0x4000000000000000ull, 0xC000000000000000ull,
   0x4010000000000000ull, 0xC010000000000000ull, 0x3FC45F306DC9C882ull};

static uint64_t
aperture64(unsigned code)
{
   switch (code) {
   case SIM_SRC_SHARED_BASE:
      return SIM_APERTURE_SHARED_BASE;
   case SIM_SRC_SHARED_LIMIT:
      return SIM_APERTURE_SHARED_BASE + SIM_APERTURE_SIZE - 1;
   case SIM_SRC_PRIVATE_BASE:
      return SIM_APERTURE_PRIVATE_BASE;
   default:
      return SIM_APERTURE_PRIVATE_BASE + SIM_APERTURE_SIZE - 1;
   }
}

/* Non-SGPR scalar operand read as `bits` (16 or 32) wide. 32-bit reads of the aperture
 * registers return their low word, as on hardware (LLVM reads them with s_mov_b64). */
uint32_t
sim__special32(const sim_wave *w, const sim_inst *in, unsigned code, unsigned bits)
{
   if (code < 128)
      return w->s[code];
   if (code <= 192)
      return code - 128;
   if (code <= 208)
      return (uint32_t)(192 - (int)code);
   if (code >= 240 && code <= 248)
      return bits == 16 ? fconst16[code - 240] : fconst32[code - 240];
   switch (code) {
   case SIM_SRC_SHARED_BASE:
   case SIM_SRC_SHARED_LIMIT:
   case SIM_SRC_PRIVATE_BASE:
   case SIM_SRC_PRIVATE_LIMIT:
      return (uint32_t)aperture64(code);
   case SIM_SRC_VCCZ:
      return SIM_VCC_LANES(w) == 0;
   case SIM_SRC_EXECZ:
      return SIM_EXEC(w) == 0;
   case SIM_SRC_SCC:
      return w->scc;
   case SIM_SRC_LITERAL:
      return in->literal;
   default:
      return 0;
   }
}

uint64_t
sim__special64(const sim_wave *w, const sim_inst *in, unsigned code, int kind)
{
   if (code < 127)
      return w->s[code] | (uint64_t)w->s[code + 1] << 32;
   if (code >= 128 && code <= 208)
      return (uint64_t)(int64_t)(int32_t)sim__special32(w, in, code, 32);
   if (code >= 240 && code <= 248)
      return fconst64[code - 240];
   switch (code) {
   case SIM_SRC_SHARED_BASE:
   case SIM_SRC_SHARED_LIMIT:
   case SIM_SRC_PRIVATE_BASE:
   case SIM_SRC_PRIVATE_LIMIT:
      return aperture64(code);
   case SIM_SRC_LITERAL:
      if (kind == SIM_K_F64)
         return (uint64_t)in->literal << 32;
      if (kind == SIM_K_I64)
         return (uint64_t)(int64_t)(int32_t)in->literal;
      return in->literal;
   default:
      return sim__special32(w, in, code, 32);
   }
}

static unsigned
vt_bits(sim_vt t)
{
   switch (t) {
   case SIM_VT_B16:
   case SIM_VT_I16:
   case SIM_VT_F16:
      return 16;
   case SIM_VT_B64:
   case SIM_VT_I64:
   case SIM_VT_F64:
      return 64;
   default:
      return 32;
   }
}

static bool
vt_float(sim_vt t)
{
   return t == SIM_VT_F16 || t == SIM_VT_F32 || t == SIM_VT_F64;
}

/* VGPR row of source/destination register `reg` with index mode applied for operand slot
 * `slot` (0-2 sources, 3 destination: M0[15:12] enable bits). */
static uint32_t *
vgpr_row(sim_wave *w, unsigned reg, unsigned slot)
{
   if (SIM_UNLIKELY(w->gpr_idx_en) && ((SIM_M0(w) >> (12 + slot)) & 1))
      reg += SIM_M0(w) & 0xFF;
   if (SIM_UNLIKELY(reg >= w->nvgpr)) {
      sim__fault(w, SIM_FAULT_ILLEGAL_INSTRUCTION, 0,
                 "VGPR v%u beyond the %u the kernel descriptor allocates at pc 0x%llx", reg,
                 w->nvgpr, (unsigned long long)w->inst_pc);
      return NULL;
   }
   return w->v[reg];
}

/* DPP source lane for `lane`, or -1 when out of range ([ISA] 6.x "DPP"; gfx10's row_share,
 * row_xmask and DPP8: RDNA2 ISA 6.2.4 "DPP8 and DPP16"). */
static int
dpp_lane(const sim_inst *in, unsigned lane)
{
   unsigned ctrl = in->dpp.ctrl;
   unsigned row = lane & ~15u, r = lane & 15;
   if (ctrl == SIM_DPP_CTRL_DPP8)
      return (lane & ~7u) + ((in->dpp.sel8 >> 3 * (lane & 7)) & 7);
   if (ctrl >= 0x150 && ctrl <= 0x15F) /* row_share: lane n of the row */
      return row + (ctrl & 15);
   if (ctrl >= 0x160 && ctrl <= 0x16F) /* row_xmask: lane r ^ n of the row */
      return row + (r ^ (ctrl & 15));
   if (ctrl <= 0xFF)
      return (lane & ~3u) + ((ctrl >> ((lane & 3) * 2)) & 3);
   if (ctrl >= 0x101 && ctrl <= 0x10F) { /* row_shl */
      unsigned n = ctrl & 15;
      return r + n < 16 ? (int)(lane + n) : -1;
   }
   if (ctrl >= 0x111 && ctrl <= 0x11F) { /* row_shr */
      unsigned n = ctrl & 15;
      return r >= n ? (int)(lane - n) : -1;
   }
   if (ctrl >= 0x121 && ctrl <= 0x12F) /* row_ror */
      return row + ((r - (ctrl & 15)) & 15);
   switch (ctrl) {
   case 0x130: /* wave_shl:1 */
      return lane < 63 ? (int)lane + 1 : -1;
   case 0x134: /* wave_rol:1 */
      return (lane + 1) & 63;
   case 0x138: /* wave_shr:1 */
      return lane > 0 ? (int)lane - 1 : -1;
   case 0x13C: /* wave_ror:1 */
      return (lane - 1) & 63;
   case 0x140: /* row_mirror */
      return row + 15 - r;
   case 0x141: /* row_half_mirror */
      return (lane & ~7u) + 7 - (lane & 7);
   case 0x142: /* row_bcast:15 — lane 15 of each row feeds the next row */
      return row ? (int)row - 1 : -1;
   case 0x143: /* row_bcast:31 — lane 31 feeds rows 2 and 3 */
      return lane >= 32 ? 31 : -1;
   default:
      return -1;
   }
}

static void
dpp_read(sim_wave *w, const sim_inst *in, const uint32_t *src, uint32_t *tmp)
{
   uint64_t exec = SIM_EXEC(w), allow = 0;
   for (unsigned l = 0; l < 64; l++) {
      unsigned row = l >> 4, bank = (l >> 2) & 3;
      if (!((in->dpp.row_mask >> row) & 1) || !((in->dpp.bank_mask >> bank) & 1)) {
         tmp[l] = 0;
         continue;
      }
      int s = dpp_lane(in, l);
      /* gfx10 FI reads an inactive source lane too. */
      if (s >= 0 && (((exec >> s) & 1) || in->dpp.fi)) {
         tmp[l] = src[s];
         allow |= 1ull << l;
      } else if (in->dpp.bound_ctrl) {
         tmp[l] = 0;
         allow |= 1ull << l;
      } else {
         tmp[l] = 0;
      }
   }
   w->dpp_mask = allow;
}

static uint32_t
sdwa_select(uint32_t v, unsigned sel, bool sx)
{
   switch (sel) {
   case 0:
   case 1:
   case 2:
   case 3: {
      uint32_t b = (v >> (8 * sel)) & 0xFF;
      return sx ? (uint32_t)(int32_t)(int8_t)b : b;
   }
   case 4:
   case 5: {
      uint32_t h = (v >> (16 * (sel - 4))) & 0xFFFF;
      return sx ? (uint32_t)(int32_t)(int16_t)h : h;
   }
   default:
      return v;
   }
}

const uint32_t *
sim__vsrc32_slow(sim_wave *w, const sim_inst *in, unsigned i, sim_vt t, uint32_t *tmp)
{
   unsigned c = in->src[i];
   unsigned bits = vt_bits(t);
   const uint32_t *src;
   if (c >= SIM_SRC_VGPR) {
      src = vgpr_row(w, c - SIM_SRC_VGPR, i);
      if (!src) {
         memset(tmp, 0, 256);
         return tmp;
      }
      if (in->flags & SIM_IF_DPP && i == 0) {
         dpp_read(w, in, src, tmp);
         src = tmp;
      }
   } else {
      uint32_t v = sim__special32(w, in, c, bits == 16 ? 16 : 32);
      for (unsigned l = 0; l < 64; l++)
         tmp[l] = v;
      src = tmp;
   }
   if (in->flags & SIM_IF_SDWA) {
      unsigned sel = in->sdwa.sel[i & 1];
      bool sx = (in->sdwa.sext >> i) & 1;
      if (sel != 6) {
         for (unsigned l = 0; l < 64; l++)
            tmp[l] = sdwa_select(src[l], sel, sx);
         src = tmp;
      }
   } else if ((in->flags & SIM_IF_VOP3) && in->enc == SIM_ENC_VOP3 && bits == 16 &&
              ((in->op_sel >> i) & 1)) {
      for (unsigned l = 0; l < 64; l++)
         tmp[l] = src[l] >> 16;
      src = tmp;
   }
   if (vt_float(t) && (((in->abs | in->neg) >> i) & 1) && in->enc != SIM_ENC_VOP3P) {
      uint32_t sign = bits == 16 ? 0x8000u : 0x80000000u;
      bool a = (in->abs >> i) & 1, n = (in->neg >> i) & 1;
      for (unsigned l = 0; l < 64; l++) {
         uint32_t v = src[l];
         if (a)
            v &= ~sign;
         if (n)
            v ^= sign;
         tmp[l] = v;
      }
      src = tmp;
   }
   return src;
}

void
sim__vsrc64(sim_wave *w, const sim_inst *in, unsigned i, sim_vt t, uint64_t *out)
{
   unsigned c = in->src[i];
   if (c >= SIM_SRC_VGPR) {
      const uint32_t *lo = vgpr_row(w, c - SIM_SRC_VGPR, i);
      const uint32_t *hi = lo ? vgpr_row(w, c - SIM_SRC_VGPR + 1, i) : NULL;
      if (!hi) {
         memset(out, 0, 512);
         return;
      }
      for (unsigned l = 0; l < 64; l++)
         out[l] = lo[l] | (uint64_t)hi[l] << 32;
   } else {
      int kind = t == SIM_VT_F64 ? SIM_K_F64 : t == SIM_VT_I64 ? SIM_K_I64 : SIM_K_B64;
      uint64_t v = sim__special64(w, in, c, kind);
      for (unsigned l = 0; l < 64; l++)
         out[l] = v;
   }
   if (t == SIM_VT_F64 && ((in->abs | in->neg) >> i) & 1) {
      uint64_t sign = 1ull << 63;
      bool a = (in->abs >> i) & 1, n = (in->neg >> i) & 1;
      for (unsigned l = 0; l < 64; l++) {
         if (a)
            out[l] &= ~sign;
         if (n)
            out[l] ^= sign;
      }
   }
}

uint32_t *
sim__vdst_row(sim_wave *w, const sim_inst *in, unsigned vgpr)
{
   return vgpr_row(w, vgpr, 3);
}

uint32_t *
sim__vrow(sim_wave *w, const sim_inst *in, unsigned vgpr)
{
   /* AGPR n is row 256 + n (SIM_IF_ACC, v_accvgpr_*): inside the AGPRs allocated. */
   if (SIM_UNLIKELY(vgpr >= w->nvgpr) && !(vgpr >= 256 && vgpr - 256 < w->nagpr)) {
      sim__fault(w, SIM_FAULT_ILLEGAL_INSTRUCTION, 0,
                 "VGPR v%u beyond the %u the kernel descriptor allocates at pc 0x%llx", vgpr,
                 w->nvgpr, (unsigned long long)w->inst_pc);
      return NULL;
   }
   return w->v[vgpr];
}

#define N4(n) {(n) & 1 ? ~0u : 0, (n) & 2 ? ~0u : 0, (n) & 4 ? ~0u : 0, (n) & 8 ? ~0u : 0}
const uint32_t sim__nibble_mask[16][4] = {N4(0), N4(1), N4(2),  N4(3),  N4(4),  N4(5),
                                          N4(6), N4(7), N4(8),  N4(9),  N4(10), N4(11),
                                          N4(12), N4(13), N4(14), N4(15)};
#undef N4

static void
masked_store(uint32_t *d, const uint32_t *r, uint64_t m)
{
   if (m == ~0ull) {
      if (d != r)
         memcpy(d, r, 256);
      return;
   }
   if (sim__lanes_sparse(m)) {
      for (; m; m &= m - 1) {
         unsigned l = (unsigned)__builtin_ctzll(m);
         d[l] = r[l];
      }
      return;
   }
   sim__lanes_select(d, r, m);
}

static void
sdwa_store(uint32_t *d, const sim_inst *in, const uint32_t *r, uint64_t m)
{
   unsigned sel = in->sdwa.dst_sel, unused = in->sdwa.dst_unused;
   for (unsigned l = 0; l < 64; l++) {
      if (!((m >> l) & 1))
         continue;
      uint32_t v = r[l], old = d[l], out;
      if (sel <= 3) {
         uint32_t b = v & 0xFF, sh = 8 * sel, field = 0xFFu << sh;
         out = b << sh;
         if (unused == 2)
            out |= old & ~field;
         else if (unused == 1 && (b & 0x80) && sh < 24) /* BYTE_3 has no bits above */
            out |= ~0u << (sh + 8);
      } else if (sel <= 5) {
         uint32_t h = v & 0xFFFF, sh = 16 * (sel - 4), field = 0xFFFFu << sh;
         out = h << sh;
         if (unused == 2)
            out |= old & ~field;
         else if (unused == 1 && (h & 0x8000) && sh == 0)
            out |= 0xFFFF0000u;
      } else {
         out = v;
      }
      d[l] = out;
   }
}

void
sim__vdst32_store(sim_wave *w, const sim_inst *in, const uint32_t *r)
{
   uint32_t *d = vgpr_row(w, in->vdst, 3);
   if (!d)
      return;
   uint64_t m = sim__vmask(w, in);
   if (SIM_UNLIKELY(in->flags & SIM_IF_SDWA))
      sdwa_store(d, in, r, m);
   else
      masked_store(d, r, m);
}

void
sim__vdst16(sim_wave *w, const sim_inst *in, const uint32_t *r)
{
   uint32_t *d = vgpr_row(w, in->vdst, 3);
   if (!d)
      return;
   uint64_t m = sim__vmask(w, in);
   if (SIM_UNLIKELY(in->flags & SIM_IF_SDWA)) {
      sdwa_store(d, in, r, m);
      return;
   }
   bool hi = in->enc == SIM_ENC_VOP3 && ((in->op_sel >> 3) & 1);
   for (unsigned l = 0; l < 64; l++) {
      if ((m >> l) & 1)
         d[l] = hi ? (d[l] & 0xFFFF) | (r[l] << 16) : (r[l] & 0xFFFF);
   }
}

void
sim__vdst16_preserve(sim_wave *w, const sim_inst *in, const uint32_t *r)
{
   uint32_t *d = vgpr_row(w, in->vdst, 3);
   if (!d)
      return;
   uint64_t m = sim__vmask(w, in);
   if (SIM_UNLIKELY(in->flags & SIM_IF_SDWA)) {
      sdwa_store(d, in, r, m);
      return;
   }
   bool hi = in->enc == SIM_ENC_VOP3 && ((in->op_sel >> 3) & 1);
   for (unsigned l = 0; l < 64; l++) {
      if ((m >> l) & 1)
         d[l] = hi ? (d[l] & 0xFFFF) | (r[l] << 16) : (d[l] & 0xFFFF0000u) | (r[l] & 0xFFFF);
   }
}

void
sim__vdst64(sim_wave *w, const sim_inst *in, const uint64_t *r)
{
   uint32_t *lo = vgpr_row(w, in->vdst, 3);
   uint32_t *hi = lo ? vgpr_row(w, in->vdst + 1, 3) : NULL;
   if (!hi)
      return;
   uint64_t m = sim__vmask(w, in);
   if (m == ~0ull) {
      for (unsigned l = 0; l < 64; l++) {
         lo[l] = (uint32_t)r[l];
         hi[l] = (uint32_t)(r[l] >> 32);
      }
      return;
   }
   if (sim__lanes_sparse(m)) {
      /* A few lanes (one-work-item work-groups): those alone. */
      for (; m; m &= m - 1) {
         unsigned l = (unsigned)__builtin_ctzll(m);
         lo[l] = (uint32_t)r[l];
         hi[l] = (uint32_t)(r[l] >> 32);
      }
      return;
   }
   /* Halves split first (vectorises), then two masked row stores. */
   uint32_t rl[64], rh[64];
   for (unsigned l = 0; l < 64; l++) {
      rl[l] = (uint32_t)r[l];
      rh[l] = (uint32_t)(r[l] >> 32);
   }
   sim__lanes_select(lo, rl, m);
   sim__lanes_select(hi, rh, m);
}

/* A lane mask is an SGPR pair in a wave64, one SGPR in a wave32. */
void
sim__vmask_write(sim_wave *w, const sim_inst *in, uint64_t bits)
{
   if (in->sdst == SIM_SRC_NONE)
      return;
   if (w->lanes == 32)
      sim__swrite32(w, in->sdst, (uint32_t)bits);
   else
      sim__swrite64(w, in->sdst, bits);
}

uint64_t
sim__vmask_read(sim_wave *w, const sim_inst *in, unsigned i)
{
   if (w->lanes == 32)
      return sim__sread32(w, in, in->src[i]);
   return sim__sread64(w, in, in->src[i], SIM_K_B64);
}

void
sim__vcmp_write(sim_wave *w, const sim_inst *in, uint64_t bits, bool cmpx)
{
   if (!cmpx || w->target->gfx_major < 10)
      sim__vmask_write(w, in, bits);
   if (cmpx)
      sim__exec_write(w, bits);
}

/* ---- Float modes -------------------------------------------------------------------- */

static inline float
flush32(float x)
{
   return fpclassify(x) == FP_SUBNORMAL ? copysignf(0.0f, x) : x;
}

static inline double
flush64(double x)
{
   return fpclassify(x) == FP_SUBNORMAL ? copysign(0.0, x) : x;
}

const float *
sim__f32_in_flush(const float *a, float *tmp)
{
   for (unsigned l = 0; l < 64; l++)
      tmp[l] = flush32(a[l]);
   return tmp;
}

const double *
sim__f64_in_flush(const double *a, double *tmp)
{
   for (unsigned l = 0; l < 64; l++)
      tmp[l] = flush64(a[l]);
   return tmp;
}

static const float omod32[4] = {1.0f, 2.0f, 4.0f, 0.5f};

void
sim__f32_post_apply(sim_wave *w, const sim_inst *in, float *r)
{
   if (SIM_UNLIKELY(in->omod) && !w->ieee) {
      float k = omod32[in->omod];
      for (unsigned l = 0; l < 64; l++)
         r[l] *= k;
   }
   if (SIM_UNLIKELY(in->clamp)) {
      for (unsigned l = 0; l < 64; l++) {
         float x = r[l];
         r[l] = isnan(x) ? (w->dx10_clamp ? 0.0f : x) : x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x;
      }
   }
   if (SIM_UNLIKELY(!(w->denorm32 & 2))) {
      for (unsigned l = 0; l < 64; l++)
         r[l] = flush32(r[l]);
   }
}

void
sim__f64_post_apply(sim_wave *w, const sim_inst *in, double *r)
{
   if (SIM_UNLIKELY(in->omod) && !w->ieee) {
      double k = omod32[in->omod];
      for (unsigned l = 0; l < 64; l++)
         r[l] *= k;
   }
   if (SIM_UNLIKELY(in->clamp)) {
      for (unsigned l = 0; l < 64; l++) {
         double x = r[l];
         r[l] = isnan(x) ? (w->dx10_clamp ? 0.0 : x) : x < 0.0 ? 0.0 : x > 1.0 ? 1.0 : x;
      }
   }
   if (SIM_UNLIKELY(!(w->denorm16_64 & 2))) {
      for (unsigned l = 0; l < 64; l++)
         r[l] = flush64(r[l]);
   }
}

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target_clones("fma", "default")))
#endif
void
sim__fma_rows(float *r, const float *a, const float *b, const float *c, uint64_t live)
{
   /* Lanes nobody reads compute 0 * 0 + 0 (sim__lanes_keep; mandel: 3.7 subnormal operands
    * a call, all in inactive lanes, made fma 28% of the run). */
   float za[64], zb[64], zc[64];
   if (live != ~0ull) {
      sim__lanes_keep(za, a, live);
      sim__lanes_keep(zb, b, live);
      sim__lanes_keep(zc, c, live);
      a = za, b = zb, c = zc;
   }
   /* The NaN rule in a second pass over the live lanes that are NaN, only when some lane is
    * (inactive lanes of a divergent loop often are): the first loop is the bare operation.
    * Into `t`: `r` may be one of the sources. */
   float t[64];
   int nan = 0;
   for (unsigned l = 0; l < 64; l++) {
      t[l] = fmaf(a[l], b[l], c[l]);
      nan |= t[l] != t[l];
   }
   if (SIM_UNLIKELY(nan))
      for (uint64_t k = sim__nan_lanes32(t, live); k; k &= k - 1) {
         unsigned l = (unsigned)__builtin_ctzll(k);
         t[l] = sim__nan32(a[l], b[l], c[l]);
      }
   memcpy(r, t, sizeof(t));
}

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target_clones("fma", "default")))
#endif
void
sim__fma64_rows(double *r, const double *a, const double *b, const double *c, uint64_t live)
{
   double t[64];
   int nan = 0;
   for (unsigned l = 0; l < 64; l++) {
      bool on = (live >> l) & 1;
      t[l] = fma(on ? a[l] : 0.0, on ? b[l] : 0.0, on ? c[l] : 0.0);
      nan |= t[l] != t[l];
   }
   if (SIM_UNLIKELY(nan))
      for (unsigned l = 0; l < 64; l++)
         if (t[l] != t[l])
            t[l] = sim__nan64(a[l], b[l], c[l]);
   memcpy(r, t, sizeof(t));
}
