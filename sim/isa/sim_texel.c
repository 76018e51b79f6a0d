/*
 * Texel formats: how the texture unit turns the bytes of one texel into the four 32-bit
 * components a shader sees and back ([ISA] 8.1.x "Data formats" and "Number formats";
 * IMG_DATA_FORMAT / IMG_NUM_FORMAT of a T#, BUF_DATA_FORMAT / BUF_NUM_FORMAT of a V#, which
 * number the formats used here the same way). Shared by the MIMG and MUBUF format
 * instructions and by the software runtime's image extension (sim/sim_image.c), so a
 * texel the runtime writes on the host is the texel an image_store would write.
 *
 * Layout: channel X is in the least significant bits of the texel, then Y, Z, W
 * (FMT_5_6_5: X = bits 4:0, Y = 10:5, Z = 15:11; FMT_1_5_5_5: X 4:0, Y 9:5, Z 14:10,
 * W 15; FMT_2_10_10_10: X 9:0, Y 19:10, Z 29:20, W 31:30; the array formats: X in the
 * lowest byte(s)). DST_SEL maps memory channels to shader components on reads; stores
 * write each channel from the first component whose DST_SEL names it.
 *
 * Conversions (reads): UNORM c / (2^n - 1); SNORM max(-1, c / (2^(n-1) - 1)); USCALED /
 * SSCALED the integer as a float; UINT / SINT zero / sign extended; FLOAT f16 widened or
 * f32 as is; SRGB the UNORM value through the sRGB curve for X, Y, Z (W linear).
 * Stores: normalised values are clamped to the range and rounded to nearest even, integers
 * saturate to the channel, floats round to nearest even (f16), NaN stores 0 to normalised
 * channels.
 */
#include <math.h>
#include <string.h>
#include "sim_isa_priv.h"

/* IMG_DATA_FORMAT -> channel widths (bits, X first); 0 = not modelled. */
static const uint8_t fmt_bits[32][4] = {
   [SIM_DFMT_8] = {8},
   [SIM_DFMT_16] = {16},
   [SIM_DFMT_8_8] = {8, 8},
   [SIM_DFMT_32] = {32},
   [SIM_DFMT_16_16] = {16, 16},
   [SIM_DFMT_2_10_10_10] = {10, 10, 10, 2},
   [SIM_DFMT_8_8_8_8] = {8, 8, 8, 8},
   [SIM_DFMT_32_32] = {32, 32},
   [SIM_DFMT_16_16_16_16] = {16, 16, 16, 16},
   [SIM_DFMT_32_32_32_32] = {32, 32, 32, 32},
   [SIM_DFMT_5_6_5] = {5, 6, 5},
   [SIM_DFMT_1_5_5_5] = {5, 5, 5, 1},
};

static bool
nfmt_ok(unsigned nfmt, const uint8_t *bits, unsigned nch, bool packed)
{
   unsigned widest = 0;
   for (unsigned c = 0; c < nch; c++)
      widest = bits[c] > widest ? bits[c] : widest;
   switch (nfmt) {
   case SIM_NFMT_UINT:
   case SIM_NFMT_SINT:
      return !packed || nch == 4; /* 2_10_10_10 has integer forms, 565/1555 do not */
   case SIM_NFMT_FLOAT:
      return !packed && widest >= 16;
   case SIM_NFMT_UNORM:
   case SIM_NFMT_SNORM:
   case SIM_NFMT_USCALED:
   case SIM_NFMT_SSCALED:
      return widest <= 16;
   case SIM_NFMT_SRGB:
      return !packed && widest == 8;
   default:
      return false;
   }
}

/* gfx10 FORMAT (one 7-bit field, BUF_FMT_*, of MTBUF and of a V#) as gfx9's DATA_FORMAT /
 * NUM_FORMAT pair (LLVM's gfx10 format table); 0 and 78 and up are invalid. */
#define F(d, n) ((d) << 3 | (n))
static const uint8_t gfx10_buf_format[78] = {
   0, F(1, 0), F(1, 1), F(1, 2), F(1, 3), F(1, 4), F(1, 5), F(2, 0), F(2, 1), F(2, 2), F(2, 3),
   F(2, 4), F(2, 5), F(2, 7), F(3, 0), F(3, 1), F(3, 2), F(3, 3), F(3, 4), F(3, 5), F(4, 4),
   F(4, 5), F(4, 7), F(5, 0), F(5, 1), F(5, 2), F(5, 3), F(5, 4), F(5, 5), F(5, 7), F(6, 0),
   F(6, 1), F(6, 2), F(6, 3), F(6, 4), F(6, 5), F(6, 7), F(7, 0), F(7, 1), F(7, 2), F(7, 3),
   F(7, 4), F(7, 5), F(7, 7), F(8, 0), F(8, 1), F(8, 2), F(8, 3), F(8, 4), F(8, 5), F(9, 0),
   F(9, 1), F(9, 2), F(9, 3), F(9, 4), F(9, 5), F(10, 0), F(10, 1), F(10, 2), F(10, 3),
   F(10, 4), F(10, 5), F(11, 4), F(11, 5), F(11, 7), F(12, 0), F(12, 1), F(12, 2), F(12, 3),
   F(12, 4), F(12, 5), F(12, 7), F(13, 4), F(13, 5), F(13, 7), F(14, 4), F(14, 5), F(14, 7),
};
#undef F

bool
sim__texel_gfx10_format(unsigned fmt, unsigned *dfmt, unsigned *nfmt)
{
   if (fmt == 0 || fmt >= sizeof(gfx10_buf_format))
      return false;
   *dfmt = gfx10_buf_format[fmt] >> 3;
   *nfmt = gfx10_buf_format[fmt] & 7;
   return true;
}

/* gfx10 image formats past FORMAT's values: IMG_FORMAT_8_SRGB 128, 8_8_SRGB 129,
 * 8_8_8_8_SRGB 130, 5_6_5_UNORM 133, 1_5_5_5_UNORM 134 (ROCr's gfx10 image format table). */
static const uint8_t gfx10_img_format[][3] = {
   {128, SIM_DFMT_8, SIM_NFMT_SRGB},       {129, SIM_DFMT_8_8, SIM_NFMT_SRGB},
   {130, SIM_DFMT_8_8_8_8, SIM_NFMT_SRGB}, {133, SIM_DFMT_5_6_5, SIM_NFMT_UNORM},
   {134, SIM_DFMT_1_5_5_5, SIM_NFMT_UNORM},
};

bool
sim__texel_gfx10_img_format(unsigned fmt, unsigned *dfmt, unsigned *nfmt)
{
   if (fmt < 128)
      return sim__texel_gfx10_format(fmt, dfmt, nfmt);
   for (unsigned i = 0; i < sizeof(gfx10_img_format) / sizeof(gfx10_img_format[0]); i++) {
      if (gfx10_img_format[i][0] == fmt) {
         *dfmt = gfx10_img_format[i][1];
         *nfmt = gfx10_img_format[i][2];
         return true;
      }
   }
   return false;
}

unsigned
sim__texel_gfx10_img_format_of(unsigned dfmt, unsigned nfmt)
{
   for (unsigned f = 1; f < sizeof(gfx10_buf_format); f++)
      if (gfx10_buf_format[f] == (dfmt << 3 | nfmt))
         return f;
   for (unsigned i = 0; i < sizeof(gfx10_img_format) / sizeof(gfx10_img_format[0]); i++)
      if (gfx10_img_format[i][1] == dfmt && gfx10_img_format[i][2] == nfmt)
         return gfx10_img_format[i][0];
   return 0;
}

bool
sim__texel_vsharp_format(unsigned gfx_major, uint32_t w3, unsigned *dfmt, unsigned *nfmt)
{
   if (gfx_major >= 10)
      return sim__texel_gfx10_format((w3 >> 12) & 0x7F, dfmt, nfmt);
   *dfmt = (w3 >> 15) & 0xF;
   *nfmt = (w3 >> 12) & 7;
   return true;
}

bool
sim__texel_format(unsigned dfmt, unsigned nfmt, sim_texel_fmt *f)
{
   if (dfmt >= 32 || !fmt_bits[dfmt][0])
      return false;
   memset(f, 0, sizeof(*f));
   unsigned off = 0;
   for (unsigned c = 0; c < 4 && fmt_bits[dfmt][c]; c++) {
      f->bits[c] = fmt_bits[dfmt][c];
      f->shift[c] = (uint8_t)off;
      off += f->bits[c];
      f->nch = (uint8_t)(c + 1);
   }
   f->bytes = (uint8_t)(off / 8);
   f->packed = dfmt == SIM_DFMT_2_10_10_10 || dfmt == SIM_DFMT_5_6_5 ||
               dfmt == SIM_DFMT_1_5_5_5;
   if (!nfmt_ok(nfmt, f->bits, f->nch, f->packed))
      return false;
   sim__texel_set_conv(f, nfmt);
   return true;
}

void
sim__texel_set_conv(sim_texel_fmt *f, unsigned conv)
{
   f->conv = (uint8_t)conv;
   f->is_int = conv == SIM_NFMT_UINT || conv == SIM_NFMT_SINT || conv >= SIM_CONV_RAW_U;
}

static uint32_t
chan_max(unsigned bits)
{
   return bits >= 32 ? 0xFFFFFFFFu : (1u << bits) - 1;
}

static int32_t
sext_bits(uint32_t v, unsigned bits)
{
   return bits >= 32 ? (int32_t)v : (int32_t)(v << (32 - bits)) >> (32 - bits);
}

void
sim__texel_unpack(const sim_texel_fmt *f, const uint8_t *p, uint32_t raw[4])
{
   uint32_t w[4] = {0, 0, 0, 0};
   memcpy(w, p, f->bytes);
   for (unsigned c = 0; c < 4; c++) {
      if (c >= f->nch) {
         raw[c] = 0;
         continue;
      }
      unsigned s = f->shift[c];
      raw[c] = (w[s / 32] >> (s % 32)) & chan_max(f->bits[c]);
   }
}

void
sim__texel_pack(const sim_texel_fmt *f, const uint32_t raw[4], uint8_t *p)
{
   uint32_t w[4] = {0, 0, 0, 0};
   for (unsigned c = 0; c < f->nch; c++) {
      unsigned s = f->shift[c];
      w[s / 32] |= (raw[c] & chan_max(f->bits[c])) << (s % 32);
   }
   memcpy(p, w, f->bytes);
}

static float
srgb_to_linear(float c)
{
   return c <= 0.04045f ? c / 12.92f : powf((c + 0.055f) / 1.055f, 2.4f);
}

static float
linear_to_srgb(float c)
{
   return c <= 0.0031308f ? c * 12.92f : 1.055f * powf(c, 1.0f / 2.4f) - 0.055f;
}

/* raw / 255.0f of every 8-bit channel value, the UNORM and SRGB conversion of most images'
 * channels: folded by the compiler (the same IEEE division, rounded to nearest), so a
 * texel costs no division. */
#define U8(i) ((float)(i) / 255.0f)
#define U8x4(i) U8(i), U8((i) + 1), U8((i) + 2), U8((i) + 3)
#define U8x16(i) U8x4(i), U8x4((i) + 4), U8x4((i) + 8), U8x4((i) + 12)
#define U8x64(i) U8x16(i), U8x16((i) + 16), U8x16((i) + 32), U8x16((i) + 48)
static const float unorm8[256] = {U8x64(0), U8x64(64), U8x64(128), U8x64(192)};
#undef U8x64
#undef U8x16
#undef U8x4
#undef U8

/* sim__texel_to_reg, inlined into sim__texel_read. */
static inline uint32_t
to_reg(const sim_texel_fmt *f, unsigned c, uint32_t raw)
{
   unsigned bits = f->bits[c];
   uint32_t max = chan_max(bits);
   int32_t s = sext_bits(raw, bits);
   switch (f->conv) {
   case SIM_NFMT_UNORM:
      if (bits == 8)
         return sim__as_u32(unorm8[raw & 0xFF]);
      return sim__as_u32((float)raw / (float)max);
   case SIM_NFMT_SNORM: {
      float v = (float)s / (float)(max >> 1);
      return sim__as_u32(v < -1.0f ? -1.0f : v);
   }
   case SIM_NFMT_USCALED:
      return sim__as_u32((float)raw);
   case SIM_NFMT_SSCALED:
      return sim__as_u32((float)s);
   case SIM_NFMT_SINT:
   case SIM_CONV_RAW_S:
      return (uint32_t)s;
   case SIM_NFMT_FLOAT:
      return bits == 16 ? sim__as_u32(sim__f16_to_f32(raw)) : raw;
   case SIM_NFMT_SRGB: {
      float v = unorm8[raw & 0xFF];
      return sim__as_u32(c < 3 ? srgb_to_linear(v) : v);
   }
   default: /* SIM_NFMT_UINT, SIM_CONV_RAW_U */
      return raw;
   }
}

uint32_t
sim__texel_to_reg(const sim_texel_fmt *f, unsigned c, uint32_t raw)
{
   return to_reg(f, c, raw);
}

/* lrintf(x) for 0 <= x < 2^23, without a call: adding 2^23 rounds x to an integer in the
 * current rounding mode (as lrintf rounds), subtracting it again is exact. */
static inline uint32_t
rint_small(float x)
{
   return (uint32_t)((x + 8388608.0f) - 8388608.0f);
}

static inline uint32_t
unorm_encode(float v, uint32_t max)
{
   if (!(v > 0.0f)) /* also NaN */
      return 0;
   if (v >= 1.0f)
      return max;
   return rint_small(v * (float)max); /* max <= 65535: UNORM channels have <= 16 bits */
}

static uint32_t
clamp_encode(float v, float lo, float hi, uint32_t mask)
{
   if (v != v)
      return 0;
   v = v < lo ? lo : v > hi ? hi : v;
   return (uint32_t)(int32_t)lrintf(v) & mask;
}

/* sim__texel_from_reg, inlined into sim__texel_write. */
static inline uint32_t
from_reg(const sim_texel_fmt *f, unsigned c, uint32_t v)
{
   uint32_t max = chan_max(f->bits[c]);
   float x = sim__as_f32(v);
   switch (f->conv) {
   case SIM_NFMT_UNORM:
      return unorm_encode(x, max);
   case SIM_NFMT_SNORM: {
      float m = (float)(max >> 1);
      if (x != x)
         return 0;
      x = x < -1.0f ? -1.0f : x > 1.0f ? 1.0f : x;
      return (uint32_t)(int32_t)lrintf(x * m) & max;
   }
   case SIM_NFMT_USCALED:
      return clamp_encode(x, 0.0f, (float)max, max);
   case SIM_NFMT_SSCALED:
      return clamp_encode(x, -(float)(max >> 1) - 1.0f, (float)(max >> 1), max);
   case SIM_NFMT_UINT:
      return v > max ? max : v;
   case SIM_NFMT_SINT: {
      int32_t s = (int32_t)v, hi = (int32_t)(max >> 1), lo = -hi - 1;
      return (uint32_t)(s < lo ? lo : s > hi ? hi : s) & max;
   }
   case SIM_NFMT_FLOAT:
      return f->bits[c] == 16 ? sim__f32_to_f16(x) : v;
   case SIM_NFMT_SRGB:
      return unorm_encode(c < 3 ? linear_to_srgb(x) : x, max);
   default: /* SIM_CONV_RAW_U, SIM_CONV_RAW_S */
      return v & max;
   }
}

uint32_t
sim__texel_from_reg(const sim_texel_fmt *f, unsigned c, uint32_t v)
{
   return from_reg(f, c, v);
}

uint32_t
sim__texel_one(const sim_texel_fmt *f)
{
   return f->is_int ? 1u : 0x3F800000u;
}

void
sim__texel_read(const sim_texel_fmt *f, const uint8_t sel[4], const uint8_t *p,
                uint32_t out[4])
{
   uint32_t raw[4] = {0, 0, 0, 0}, ch[4];
   if (p)
      sim__texel_unpack(f, p, raw);
   for (unsigned c = 0; c < 4; c++)
      ch[c] = c < f->nch ? to_reg(f, c, raw[c]) : c == 3 ? sim__texel_one(f) : 0;
   for (unsigned i = 0; i < 4; i++) {
      unsigned s = sel[i];
      out[i] = s >= SIM_SEL_X ? ch[s - SIM_SEL_X] : s == SIM_SEL_1 ? sim__texel_one(f) : 0;
   }
}

void
sim__texel_write(const sim_texel_fmt *f, const uint8_t sel[4], const uint32_t comp[4],
                 uint8_t *p)
{
   uint32_t raw[4] = {0, 0, 0, 0};
   for (unsigned c = 0; c < f->nch; c++) {
      for (unsigned i = 0; i < 4; i++) {
         if (sel[i] == SIM_SEL_X + c) {
            raw[c] = from_reg(f, c, comp[i]);
            break;
         }
      }
   }
   sim__texel_pack(f, raw, p);
}

/* ---- Lane batches --------------------------------------------------------------------
 * The texture unit's fast paths (isa/sim_mimg.c) convert the texels of a whole wave at
 * once: the DST_SEL / DMASK plan is made once per instruction, and the formats most images
 * have — 8-bit UNORM channels, 32-bit channels read unconverted — take a conversion without
 * the generic switch. Every other format goes through sim__texel_read / sim__texel_write
 * lane by lane, so the results are theirs bit for bit. */

/* UNORM with 8-bit channels (8, 8_8, 8_8_8_8): unorm8 and rint_small. */
static bool
is_unorm8(const sim_texel_fmt *f)
{
   return f->conv == SIM_NFMT_UNORM && !f->packed && f->bits[0] == 8;
}

/* 32-bit channels whose conversion returns the bits (to_reg / from_reg of 32 bits). */
static bool
is_raw32(const sim_texel_fmt *f)
{
   return f->bits[0] == 32 && f->conv != SIM_NFMT_USCALED && f->conv != SIM_NFMT_SSCALED;
}

/* Where read component i comes from: channel src[i] of the texel, or (src[i] < 0) the
 * constant k[i] (SIM_SEL_0 / SIM_SEL_1, or a channel the format lacks: W reads one). */
static void
read_plan(const sim_texel_fmt *f, const uint8_t sel[4], int8_t src[4], uint32_t k[4])
{
   for (unsigned i = 0; i < 4; i++) {
      unsigned s = sel[i];
      src[i] = -1;
      k[i] = s == SIM_SEL_1 ? sim__texel_one(f) : 0;
      if (s < SIM_SEL_X)
         continue;
      if (s - SIM_SEL_X < f->nch)
         src[i] = (int8_t)(s - SIM_SEL_X);
      else if (s == SIM_SEL_W)
         k[i] = sim__texel_one(f);
   }
}

void
sim__texel_read_lanes(const sim_texel_fmt *f, const uint8_t sel[4], unsigned dmask,
                      const uint8_t *const p[64], uint64_t m, uint32_t *const out[4])
{
   int8_t src[4], isrc[4];
   uint32_t k[4], ik[4];
   unsigned n = 0, comp[4];
   read_plan(f, sel, src, k);
   for (unsigned i = 0; i < 4; i++) {
      if ((dmask >> i) & 1) {
         comp[n] = i;
         isrc[n] = src[i];
         ik[n++] = k[i];
      }
   }
   if (is_unorm8(f) && sim__lanes_sparse(m)) {
      for (; m; m &= m - 1) {
         unsigned l = (unsigned)__builtin_ctzll(m);
         uint32_t t = 0;
         if (f->bytes == 4) /* RGBA8: a copy of constant size, not a call */
            memcpy(&t, p[l], 4);
         else
            memcpy(&t, p[l], f->bytes);
         for (unsigned j = 0; j < n; j++)
            out[j][l] = isrc[j] < 0 ? ik[j]
                                    : sim__as_u32(unorm8[(t >> (8u * (unsigned)isrc[j])) & 0xFF]);
      }
      return;
   }
   if (is_unorm8(f)) {
      /* The texels' bytes first, then one component of every lane at a time. */
      uint32_t t[64], r[64];
      memset(t, 0, sizeof(t));
      if (f->bytes == 4) { /* RGBA8, most images: a copy of constant size */
         for (uint64_t k = m; k; k &= k - 1) {
            unsigned l = (unsigned)__builtin_ctzll(k);
            memcpy(&t[l], p[l], 4);
         }
      } else {
         for (uint64_t k = m; k; k &= k - 1) {
            unsigned l = (unsigned)__builtin_ctzll(k);
            memcpy(&t[l], p[l], f->bytes);
         }
      }
      for (unsigned j = 0; j < n; j++) {
         unsigned sh = isrc[j] < 0 ? 0 : 8u * (unsigned)isrc[j];
         for (unsigned l = 0; l < 64; l++)
            r[l] = isrc[j] < 0 ? ik[j] : sim__as_u32(unorm8[(t[l] >> sh) & 0xFF]);
         if (m == ~0ull)
            memcpy(out[j], r, sizeof(r));
         else
            sim__lanes_select(out[j], r, m);
      }
      return;
   }
   if (is_raw32(f)) {
      for (; m; m &= m - 1) {
         unsigned l = (unsigned)__builtin_ctzll(m);
         for (unsigned j = 0; j < n; j++) {
            uint32_t v = ik[j];
            if (isrc[j] >= 0)
               memcpy(&v, p[l] + 4 * isrc[j], 4);
            out[j][l] = v;
         }
      }
      return;
   }
   for (; m; m &= m - 1) {
      unsigned l = (unsigned)__builtin_ctzll(m);
      uint32_t c[4];
      sim__texel_read(f, sel, p[l], c);
      for (unsigned j = 0; j < n; j++)
         out[j][l] = c[comp[j]];
   }
}

/* The 8-bit UNORM channel value of value v: unorm_encode(x, 255) without branches, for the
 * vectoriser (NaN and x <= 0 give 0, x >= 1 gives 255); of 64 lanes' values. */
static inline uint8_t
unorm8_encode1(uint32_t v)
{
   float x = sim__as_f32(v);
   x = x > 0.0f ? x : 0.0f;
   x = x < 1.0f ? x : 1.0f;
   return (uint8_t)(int32_t)((x * 255.0f + 8388608.0f) - 8388608.0f);
}
static void
unorm8_encode_row(const uint32_t *restrict v, uint8_t *restrict b)
{
   for (unsigned l = 0; l < 64; l++)
      b[l] = unorm8_encode1(v[l]);
}

void
sim__texel_write_lanes(const sim_texel_fmt *f, const uint8_t sel[4], unsigned dmask,
                       const uint32_t *const in[4], uint64_t m, uint8_t *const p[64])
{
   /* Channel c from input row src[c] (the first component whose DST_SEL names it), or the
    * constant k[c]: a component outside DMASK stores as 0 would, a channel no component
    * names is 0. */
   int8_t src[4] = {-1, -1, -1, -1}, row[4];
   uint32_t k[4] = {0, 0, 0, 0};
   unsigned n = 0;
   for (unsigned i = 0; i < 4; i++)
      row[i] = (dmask >> i) & 1 ? (int8_t)n++ : -1;
   for (unsigned c = 0; c < f->nch; c++) {
      for (unsigned i = 0; i < 4; i++) {
         if (sel[i] == SIM_SEL_X + c) {
            src[c] = row[i];
            k[c] = row[i] < 0 ? from_reg(f, c, 0) : 0;
            break;
         }
      }
   }
   if (is_unorm8(f) && f->nch == 4 && src[0] == 0 && src[1] == 1 && src[2] == 2 &&
       src[3] == 3 && sim__lanes_sparse(m)) {
      /* RGBA8 from four components in order (write_imagef's): a lane's four channels at
       * once, as unorm8_encode1 computes each. */
      typedef float f4 __attribute__((vector_size(16)));
      typedef int32_t i4 __attribute__((vector_size(16)));
      const f4 zero = {0, 0, 0, 0}, one = {1, 1, 1, 1}, k255 = {255, 255, 255, 255};
      const f4 rnd = {8388608.0f, 8388608.0f, 8388608.0f, 8388608.0f};
      for (; m; m &= m - 1) {
         unsigned l = (unsigned)__builtin_ctzll(m);
         f4 x = {sim__as_f32(in[0][l]), sim__as_f32(in[1][l]), sim__as_f32(in[2][l]),
                 sim__as_f32(in[3][l])};
         i4 pos = x > zero; /* NaN and x <= 0: 0 */
         x = (f4)((i4)x & pos);
         i4 lt1 = x < one;
         x = (f4)(((i4)x & lt1) | ((i4)one & ~lt1));
         i4 b = __builtin_convertvector((x * k255 + rnd) - rnd, i4);
         uint32_t t = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
                      (uint32_t)b[3] << 24;
         memcpy(p[l], &t, 4);
      }
      return;
   }
   if (is_unorm8(f) && sim__lanes_sparse(m)) {
      for (; m; m &= m - 1) {
         unsigned l = (unsigned)__builtin_ctzll(m);
         uint32_t t = 0;
         for (unsigned c = 0; c < 4; c++)
            t |= (uint32_t)(src[c] < 0 ? (uint8_t)k[c] : unorm8_encode1(in[src[c]][l])) << 8 * c;
         if (f->nch == 4) /* RGBA8: a copy of constant size, not a call */
            memcpy(p[l], &t, 4);
         else
            memcpy(p[l], &t, f->nch);
      }
      return;
   }
   if (is_unorm8(f)) {
      /* Every lane's bytes first (a loop the compiler vectorises), then one copy a lane. */
      uint8_t b[4][64];
      for (unsigned c = 0; c < 4; c++) { /* src[c] < 0, k[c] 0 past the format's channels */
         if (src[c] < 0)
            memset(b[c], (uint8_t)k[c], 64);
         else
            unorm8_encode_row(in[src[c]], b[c]);
      }
      uint32_t t[64]; /* little-endian texels: channel X in the lowest byte */
      for (unsigned l = 0; l < 64; l++)
         t[l] = b[0][l] | (uint32_t)b[1][l] << 8 | (uint32_t)b[2][l] << 16 |
                (uint32_t)b[3][l] << 24;
      unsigned bytes = f->nch;
      for (; m; m &= m - 1) {
         unsigned l = (unsigned)__builtin_ctzll(m);
         if (bytes == 4) /* RGBA8, most images: a copy of constant size */
            memcpy(p[l], &t[l], 4);
         else
            memcpy(p[l], &t[l], bytes);
      }
      return;
   }
   if (is_raw32(f)) {
      for (; m; m &= m - 1) {
         unsigned l = (unsigned)__builtin_ctzll(m);
         uint32_t raw[4];
         for (unsigned c = 0; c < f->nch; c++)
            raw[c] = src[c] < 0 ? k[c] : in[src[c]][l];
         memcpy(p[l], raw, 4u * f->nch);
      }
      return;
   }
   for (; m; m &= m - 1) {
      unsigned l = (unsigned)__builtin_ctzll(m);
      uint32_t comp[4];
      for (unsigned i = 0; i < 4; i++)
         comp[i] = row[i] < 0 ? 0 : in[row[i]][l];
      sim__texel_write(f, sel, comp, p[l]);
   }
}
