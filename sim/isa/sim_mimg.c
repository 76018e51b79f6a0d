/*
 * MIMG: image loads, stores and level-zero sampling through an image resource (T#, 8 SGPRs)
 * and a sampler (S#, 4 SGPRs). [ISA] chapter 8 "Vector Memory Operations", 8.2 "Image
 * instructions" and 8.2.x "Image resource" / "Image sampler"; the descriptor fields are
 * GFX9's SQ_IMG_RSRC_WORD0-7 and SQ_IMG_SAMP_WORD0-3:
 *
 *   T# w0  BASE_ADDRESS[39:8]
 *      w1  [7:0] BASE_ADDRESS[47:40], [19:8] MIN_LOD, [25:20] DATA_FORMAT, [29:26] NUM_FORMAT
 *      w2  [13:0] WIDTH-1, [27:14] HEIGHT-1, [30:28] PERF_MOD
 *      w3  [11:0] DST_SEL_X/Y/Z/W (3 bits each), [15:12] BASE_LEVEL, [19:16] LAST_LEVEL,
 *          [24:20] SW_MODE, [31:28] TYPE
 *      w4  [12:0] DEPTH (3D: depth-1; arrays: last slice), [28:13] PITCH-1 (texels),
 *          [31:29] BC_SWIZZLE
 *      w5  [12:0] BASE_ARRAY
 *   S# w0  [2:0] CLAMP_X, [5:3] CLAMP_Y, [8:6] CLAMP_Z, [15] FORCE_UNNORMALIZED
 *      w2  [21:20] XY_MAG_FILTER, [23:22] XY_MIN_FILTER, [25:24] Z_FILTER
 *      w3  [31:30] BORDER_COLOR_TYPE
 *
 * What is modelled: SW_MODE 0 (linear: texel (x, y, slice) of level 0 at
 * base + ((slice * rows + y) * pitch + x) * bytes_per_texel); types 1D, 2D, 3D, 1D array and
 * 2D array; data formats 8, 16, 32, 8_8, 16_16, 32_32, 8_8_8_8, 16_16_16_16, 32_32_32_32 with
 * the number formats each admits (UNORM, SNORM, USCALED, SSCALED, UINT, SINT, FLOAT for 16
 * and 32 bits, SRGB for 8 bits); DMASK, D16, A16, TFE/LWE (the status VGPR reads 0: nothing
 * is ever non-resident). GLC/SLC are cache policy (no caches here); DA is implied by TYPE.
 * Anything else the instruction would need — a tiled SW_MODE, another format, cube or MSAA
 * images, a mip level other than 0, a border colour from the table — is an
 * illegal-instruction fault naming the field, never a guess.
 *
 * Out-of-range texels read as zero memory (then converted and swizzled, so a missing alpha
 * still reads 1) and are not written. Stores write each shader component to the memory
 * channel its DST_SEL names (the inverse of the load swizzle; components DMASK leaves out
 * are 0). Memory is reached through sim__gpu_ptr, so a texel outside every allocation is a
 * memory-violation fault of the dispatch. Lanes outside EXEC do nothing.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include "sim_isa_priv.h"

/* SQ_RSRC_IMG_* (T# TYPE). */
enum {
   IMG_1D = 8,
   IMG_2D = 9,
   IMG_3D = 10,
   IMG_CUBE = 11,
   IMG_1D_ARRAY = 12,
   IMG_2D_ARRAY = 13,
   IMG_2D_MSAA = 14,
   IMG_2D_MSAA_ARRAY = 15,
};

/* IMG_NUM_FORMAT_*, then the two raw conversions of the _pck opcodes. */
enum {
   NUM_UNORM = 0,
   NUM_SNORM = 1,
   NUM_USCALED = 2,
   NUM_SSCALED = 3,
   NUM_UINT = 4,
   NUM_SINT = 5,
   NUM_FLOAT = 7,
   NUM_SRGB = 9,
   CONV_FORMAT = 0xFF, /* convert as NUM_FORMAT says */
   CONV_RAW_U = 16,    /* _pck: no conversion, zero-extended */
   CONV_RAW_S = 17,    /* _pck_sgn: no conversion, sign-extended */
};

/* SQ_SEL_* (DST_SEL). */
enum { SEL_0 = 0, SEL_1 = 1, SEL_X = 4 };

/* A decoded, supported T#. */
typedef struct img {
   uint64_t base;
   uint32_t width, height, depth; /* depth: slices of a 3D image, else 1 */
   uint32_t rows;                 /* rows per slice in memory: height, 1 for 1D types */
   uint32_t pitch;                /* texels per row */
   uint32_t base_array, last_array;
   uint32_t nlevels;              /* LAST_LEVEL - BASE_LEVEL + 1 */
   uint8_t type, ncoord;          /* address components before the mip level */
   uint8_t bits, nch, bpe, conv;
   uint8_t sel[4];
   bool is_int; /* results are integers (UINT/SINT/_pck), not floats */
} img;

static bool
unsupported(sim_wave *w, const sim_inst *in, const char *fmt, ...)
   __attribute__((format(printf, 3, 4)));

/* Illegal-instruction fault saying which field the interpreter does not model. */
static bool
unsupported(sim_wave *w, const sim_inst *in, const char *fmt, ...)
{
   char why[160];
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(why, sizeof(why), fmt, ap);
   va_end(ap);
   sim__fault_illegal(w, in, why);
   return false;
}

static const char *
type_name(unsigned t)
{
   static const char *const names[] = {"1D", "2D", "3D", "cube", "1D array", "2D array",
                                       "2D MSAA", "2D MSAA array"};
   return t >= 8 ? names[t - 8] : "reserved";
}

/* IMG_DATA_FORMAT -> bits per channel and channel count; false for the packed, compressed,
 * depth/stencil and other formats this model does not read. */
static bool
data_format(unsigned f, uint8_t *bits, uint8_t *nch)
{
   static const uint8_t tab[16][2] = {
      [1] = {8, 1},  [2] = {16, 1},  [3] = {8, 2},  [4] = {32, 1},  [5] = {16, 2},
      [10] = {8, 4}, [11] = {32, 2}, [12] = {16, 4}, [14] = {32, 4},
   };
   if (f >= 16 || !tab[f][0])
      return false;
   *bits = tab[f][0];
   *nch = tab[f][1];
   return true;
}

static bool
num_format_ok(unsigned nfmt, unsigned bits)
{
   switch (nfmt) {
   case NUM_UINT:
   case NUM_SINT:
      return true;
   case NUM_FLOAT:
      return bits >= 16;
   case NUM_UNORM:
   case NUM_SNORM:
   case NUM_USCALED:
   case NUM_SSCALED:
      return bits <= 16;
   case NUM_SRGB:
      return bits == 8;
   default:
      return false;
   }
}

/* Decodes the T# at SGPR in->mimg.srsrc; faults (and returns false) on what is not
 * modelled. `conv` is CONV_FORMAT or a raw _pck conversion. */
static bool
img_decode(sim_wave *w, const sim_inst *in, unsigned conv, img *d)
{
   if (in->mimg.srsrc + 8 > 128)
      return unsupported(w, in, "T# at s%u runs past the SGPR file", in->mimg.srsrc);
   const uint32_t *t = &w->s[in->mimg.srsrc];
   unsigned dfmt = (t[1] >> 20) & 0x3F, nfmt = (t[1] >> 26) & 0xF;
   unsigned sw_mode = (t[3] >> 20) & 0x1F, type = t[3] >> 28;
   unsigned base_level = (t[3] >> 12) & 0xF, last_level = (t[3] >> 16) & 0xF;
   if (sw_mode != 0)
      return unsupported(w, in, "image T# SW_MODE %u (tiled) not supported, linear (0) only",
                         sw_mode);
   if (type < IMG_1D || type == IMG_CUBE || type >= IMG_2D_MSAA)
      return unsupported(w, in, "image T# TYPE %u (%s) not supported", type, type_name(type));
   if (!data_format(dfmt, &d->bits, &d->nch))
      return unsupported(w, in, "image T# DATA_FORMAT %u not supported", dfmt);
   if (conv == CONV_FORMAT && !num_format_ok(nfmt, d->bits))
      return unsupported(w, in, "image T# NUM_FORMAT %u with DATA_FORMAT %u not supported",
                         nfmt, dfmt);
   if (base_level != 0)
      return unsupported(w, in, "image T# BASE_LEVEL %u: mip levels other than 0 not supported",
                         base_level);
   d->conv = conv == CONV_FORMAT ? nfmt : conv;
   d->is_int = d->conv == NUM_UINT || d->conv == NUM_SINT || d->conv >= CONV_RAW_U;
   d->bpe = d->bits / 8 * d->nch;
   d->base = (uint64_t)t[0] << 8 | (uint64_t)(t[1] & 0xFF) << 40;
   d->type = type;
   d->width = (t[2] & 0x3FFF) + 1;
   bool one_d = type == IMG_1D || type == IMG_1D_ARRAY;
   d->height = one_d ? 1 : ((t[2] >> 14) & 0x3FFF) + 1;
   d->rows = d->height;
   d->depth = type == IMG_3D ? (t[4] & 0x1FFF) + 1 : 1;
   d->pitch = ((t[4] >> 13) & 0xFFFF) + 1;
   d->base_array = t[5] & 0x1FFF;
   d->last_array = t[4] & 0x1FFF;
   d->nlevels = last_level >= base_level ? last_level - base_level + 1 : 1;
   for (unsigned i = 0; i < 4; i++)
      d->sel[i] = (t[3] >> (3 * i)) & 7;
   static const uint8_t ncoord[] = {1, 2, 3, 0, 2, 3};
   d->ncoord = ncoord[type - IMG_1D];
   return true;
}

/* The VGPRs the instruction names must exist: `naddr` address components, `ndata` data
 * dwords. */
static bool
check_vgprs(sim_wave *w, const sim_inst *in, unsigned naddr, unsigned ndata)
{
   unsigned adw = in->mimg.bits & SIM_MIMG_A16 ? (naddr + 1) / 2 : naddr;
   if (in->mimg.vaddr + adw > w->nvgpr || in->mimg.vdata + ndata > w->nvgpr)
      return unsupported(w, in, "image operands beyond the %u allocated VGPRs", w->nvgpr);
   return true;
}

/* Address component k of lane l: VGPR vaddr+k, or with A16 half k&1 of VGPR vaddr+k/2. */
static uint32_t
addr_comp(const sim_wave *w, const sim_inst *in, unsigned k, unsigned l)
{
   if (in->mimg.bits & SIM_MIMG_A16)
      return (w->v[in->mimg.vaddr + k / 2][l] >> (16 * (k & 1))) & 0xFFFF;
   return w->v[in->mimg.vaddr + k][l];
}

static float
addr_float(const sim_wave *w, const sim_inst *in, unsigned k, unsigned l)
{
   uint32_t u = addr_comp(w, in, k, l);
   return in->mimg.bits & SIM_MIMG_A16 ? sim__f16_to_f32(u) : sim__as_f32(u);
}

/* ---- Texels ------------------------------------------------------------------------- */

static int32_t
sext_bits(uint32_t v, unsigned bits)
{
   return bits >= 32 ? (int32_t)v : (int32_t)(v << (32 - bits)) >> (32 - bits);
}

static uint32_t
chan_max(const img *d)
{
   return d->bits >= 32 ? 0xFFFFFFFFu : (1u << d->bits) - 1;
}

/* Byte address of texel (x, y, slice) of level 0; slice is the 3D slice or array layer. */
static uint64_t
texel_addr(const img *d, uint32_t x, uint32_t y, uint32_t slice)
{
   return d->base + (((uint64_t)slice * d->rows + y) * d->pitch + x) * d->bpe;
}

/* Raw channel bits of a texel (channels beyond the format 0). False after a fault. */
static bool
texel_read(sim_wave *w, const img *d, uint64_t addr, uint32_t raw[4])
{
   const uint8_t *p = sim__gpu_ptr(w, addr, d->bpe, false);
   if (!p)
      return false;
   for (unsigned c = 0; c < 4; c++) {
      uint32_t v = 0;
      if (c < d->nch) {
         if (d->bits == 8) {
            v = p[c];
         } else if (d->bits == 16) {
            uint16_t h;
            memcpy(&h, p + 2 * c, 2);
            v = h;
         } else {
            memcpy(&v, p + 4 * c, 4);
         }
      }
      raw[c] = v;
   }
   return true;
}

static bool
texel_write(sim_wave *w, const img *d, uint64_t addr, const uint32_t raw[4])
{
   uint8_t *p = sim__gpu_ptr(w, addr, d->bpe, true);
   if (!p)
      return false;
   for (unsigned c = 0; c < 4; c++) {
      if (c >= d->nch)
         break;
      if (d->bits == 8) {
         p[c] = (uint8_t)raw[c];
      } else if (d->bits == 16) {
         uint16_t h = (uint16_t)raw[c];
         memcpy(p + 2 * c, &h, 2);
      } else {
         memcpy(p + 4 * c, &raw[c], 4);
      }
   }
   return true;
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

/* Channel c's raw bits -> the 32-bit register value NUM_FORMAT gives it. */
static uint32_t
chan_to_reg(const img *d, unsigned c, uint32_t raw)
{
   uint32_t max = chan_max(d);
   int32_t s = sext_bits(raw, d->bits);
   switch (d->conv) {
   case NUM_UNORM:
      return sim__as_u32((float)raw / (float)max);
   case NUM_SNORM: {
      float f = (float)s / (float)(max >> 1);
      return sim__as_u32(f < -1.0f ? -1.0f : f);
   }
   case NUM_USCALED:
      return sim__as_u32((float)raw);
   case NUM_SSCALED:
      return sim__as_u32((float)s);
   case NUM_SINT:
   case CONV_RAW_S:
      return (uint32_t)s;
   case NUM_FLOAT:
      return d->bits == 16 ? sim__as_u32(sim__f16_to_f32(raw)) : raw;
   case NUM_SRGB: {
      float f = (float)raw / 255.0f;
      return sim__as_u32(c < 3 ? srgb_to_linear(f) : f);
   }
   default: /* NUM_UINT, CONV_RAW_U */
      return raw;
   }
}

static uint32_t
unorm_encode(float f, uint32_t max)
{
   if (!(f > 0.0f)) /* also NaN */
      return 0;
   if (f >= 1.0f)
      return max;
   return (uint32_t)lrintf(f * (float)max);
}

static uint32_t
clamp_encode(float f, float lo, float hi, uint32_t mask)
{
   if (f != f)
      return 0;
   f = f < lo ? lo : f > hi ? hi : f;
   return (uint32_t)(int32_t)lrintf(f) & mask;
}

/* A 32-bit register value -> channel c's raw bits (stores): normalised values are clamped
 * and rounded to nearest, integers saturate, floats round to nearest even. */
static uint32_t
reg_to_chan(const img *d, unsigned c, uint32_t v)
{
   uint32_t max = chan_max(d);
   float f = sim__as_f32(v);
   switch (d->conv) {
   case NUM_UNORM:
      return unorm_encode(f, max);
   case NUM_SNORM: {
      float m = (float)(max >> 1);
      if (f != f)
         return 0;
      f = f < -1.0f ? -1.0f : f > 1.0f ? 1.0f : f;
      return (uint32_t)(int32_t)lrintf(f * m) & max;
   }
   case NUM_USCALED:
      return clamp_encode(f, 0.0f, (float)max, max);
   case NUM_SSCALED:
      return clamp_encode(f, -(float)(max >> 1) - 1.0f, (float)(max >> 1), max);
   case NUM_UINT:
      return v > max ? max : v;
   case NUM_SINT: {
      int32_t s = (int32_t)v, hi = (int32_t)(max >> 1), lo = -hi - 1;
      return (uint32_t)(s < lo ? lo : s > hi ? hi : s) & max;
   }
   case NUM_FLOAT:
      return d->bits == 16 ? sim__f32_to_f16(f) : v;
   case NUM_SRGB:
      return unorm_encode(c < 3 ? linear_to_srgb(f) : f, max);
   default: /* CONV_RAW_U, CONV_RAW_S */
      return v & max;
   }
}

static uint32_t
one_value(const img *d)
{
   return d->is_int ? 1u : 0x3F800000u;
}

/* Raw channels -> the four shader components through DST_SEL (a channel the format lacks
 * reads 0, alpha 1). */
static void
texel_components(const img *d, const uint32_t raw[4], uint32_t out[4])
{
   uint32_t ch[4];
   for (unsigned c = 0; c < 4; c++)
      ch[c] = c < d->nch ? chan_to_reg(d, c, raw[c]) : c == 3 ? one_value(d) : 0;
   for (unsigned i = 0; i < 4; i++) {
      unsigned s = d->sel[i];
      out[i] = s >= SEL_X ? ch[s - SEL_X] : s == SEL_1 ? one_value(d) : 0;
   }
}

/* ---- Data VGPRs ----------------------------------------------------------------------- */

static unsigned
eff_dmask(const sim_inst *in)
{
   return in->mimg.dmask ? in->mimg.dmask : 1; /* DMASK 0 moves one component, like 1 */
}

static unsigned
data_dwords(const sim_inst *in)
{
   unsigned n = (unsigned)__builtin_popcount(eff_dmask(in));
   return in->mimg.bits & SIM_MIMG_D16 ? (n + 1) / 2 : n;
}

/* The DMASK-selected components of `comp` into consecutive VGPRs of lane l (D16: 16 bits
 * each, two per VGPR: float results as f16, integers truncated), then the TFE/LWE status. */
static void
write_result(sim_wave *w, const sim_inst *in, unsigned l, const uint32_t comp[4], bool is_int)
{
   bool d16 = in->mimg.bits & SIM_MIMG_D16;
   uint32_t packed[4] = {0, 0, 0, 0};
   unsigned k = 0, dmask = eff_dmask(in);
   for (unsigned i = 0; i < 4; i++) {
      if (!((dmask >> i) & 1))
         continue;
      if (d16) {
         uint32_t h = is_int ? comp[i] & 0xFFFF : sim__f32_to_f16(sim__as_f32(comp[i]));
         packed[k / 2] |= h << (16 * (k & 1));
      } else {
         packed[k] = comp[i];
      }
      k++;
   }
   unsigned n = data_dwords(in);
   for (unsigned j = 0; j < n; j++)
      w->v[in->mimg.vdata + j][l] = packed[j];
   if (in->mimg.bits & (SIM_MIMG_TFE | SIM_MIMG_LWE))
      w->v[in->mimg.vdata + n][l] = 0;
}

/* Store data of lane l: the DMASK-selected components from consecutive VGPRs (D16: 16-bit
 * halves, f16 for float formats, zero/sign-extended for integers), the others 0. */
static void
read_store_data(const sim_wave *w, const sim_inst *in, const img *d, unsigned l,
                uint32_t comp[4])
{
   bool d16 = in->mimg.bits & SIM_MIMG_D16;
   unsigned k = 0, dmask = eff_dmask(in);
   for (unsigned i = 0; i < 4; i++) {
      comp[i] = 0;
      if (!((dmask >> i) & 1))
         continue;
      if (d16) {
         uint32_t h = (w->v[in->mimg.vdata + k / 2][l] >> (16 * (k & 1))) & 0xFFFF;
         if (!d->is_int)
            comp[i] = sim__as_u32(sim__f16_to_f32(h));
         else if (d->conv == NUM_SINT || d->conv == CONV_RAW_S)
            comp[i] = (uint32_t)sext_bits(h, 16);
         else
            comp[i] = h;
      } else {
         comp[i] = w->v[in->mimg.vdata + k][l];
      }
      k++;
   }
}

/* ---- Integer addressing (load / store) ------------------------------------------------- */

/* Lane l's texel address; false when the coordinates (or the mip level) are outside the
 * image. */
static bool
int_coords(const sim_wave *w, const sim_inst *in, const img *d, bool mip, unsigned l,
           uint64_t *addr)
{
   uint32_t x = addr_comp(w, in, 0, l), y = 0, slice = 0;
   switch (d->type) {
   case IMG_2D:
      y = addr_comp(w, in, 1, l);
      break;
   case IMG_3D:
      y = addr_comp(w, in, 1, l);
      slice = addr_comp(w, in, 2, l);
      if (slice >= d->depth)
         return false;
      break;
   case IMG_1D_ARRAY:
      slice = addr_comp(w, in, 1, l);
      break;
   case IMG_2D_ARRAY:
      y = addr_comp(w, in, 1, l);
      slice = addr_comp(w, in, 2, l);
      break;
   default:
      break;
   }
   if (d->type == IMG_1D_ARRAY || d->type == IMG_2D_ARRAY) {
      uint64_t layer = (uint64_t)d->base_array + slice;
      if (layer > d->last_array)
         return false;
      slice = (uint32_t)layer;
   }
   if (x >= d->width || y >= d->height)
      return false;
   if (mip && addr_comp(w, in, d->ncoord, l) >= d->nlevels)
      return false;
   *addr = texel_addr(d, x, y, slice);
   return true;
}

/* Only level 0 is laid out: a valid mip level above it faults. */
static bool
check_mip_levels(sim_wave *w, const sim_inst *in, const img *d, bool mip, uint64_t exec)
{
   if (!mip)
      return true;
   for (unsigned l = 0; l < 64; l++) {
      if (!((exec >> l) & 1))
         continue;
      uint32_t m = addr_comp(w, in, d->ncoord, l);
      if (m != 0 && m < d->nlevels)
         return unsupported(w, in, "image mip level %u (lane %u): levels other than 0 "
                            "not supported", m, l);
   }
   return true;
}

static void
mimg_load(sim_wave *w, const sim_inst *in, unsigned conv, bool mip)
{
   uint64_t exec = SIM_EXEC(w);
   img d;
   if (!exec || !img_decode(w, in, conv, &d))
      return;
   bool status = in->mimg.bits & (SIM_MIMG_TFE | SIM_MIMG_LWE);
   if (!check_vgprs(w, in, d.ncoord + mip, data_dwords(in) + status) ||
       !check_mip_levels(w, in, &d, mip, exec))
      return;
   for (unsigned l = 0; l < 64; l++) {
      if (!((exec >> l) & 1))
         continue;
      uint32_t raw[4] = {0, 0, 0, 0}, comp[4];
      uint64_t addr;
      if (int_coords(w, in, &d, mip, l, &addr) && !texel_read(w, &d, addr, raw))
         return;
      texel_components(&d, raw, comp);
      write_result(w, in, l, comp, d.is_int);
   }
}

static void
mimg_store(sim_wave *w, const sim_inst *in, unsigned conv, bool mip)
{
   uint64_t exec = SIM_EXEC(w);
   img d;
   if (!exec || !img_decode(w, in, conv, &d))
      return;
   if (!check_vgprs(w, in, d.ncoord + mip, data_dwords(in)) ||
       !check_mip_levels(w, in, &d, mip, exec))
      return;
   for (unsigned l = 0; l < 64; l++) {
      if (!((exec >> l) & 1))
         continue;
      uint64_t addr;
      if (!int_coords(w, in, &d, mip, l, &addr))
         continue;
      uint32_t comp[4], raw[4] = {0, 0, 0, 0};
      read_store_data(w, in, &d, l, comp);
      for (unsigned c = 0; c < d.nch; c++) {
         for (unsigned i = 0; i < 4; i++) {
            if (d.sel[i] == SEL_X + c) {
               raw[c] = reg_to_chan(&d, c, comp[i]);
               break;
            }
         }
      }
      if (!texel_write(w, &d, addr, raw))
         return;
   }
}

/* IMAGE_LOAD: VDATA = texel at integer (x, y, z/slice) of level 0, converted per T#. */
void
sim__op_image_load(sim_wave *w, const sim_inst *in)
{
   mimg_load(w, in, CONV_FORMAT, false);
}
/* IMAGE_LOAD_MIP: likewise, the mip level is the last address component. */
void
sim__op_image_load_mip(sim_wave *w, const sim_inst *in)
{
   mimg_load(w, in, CONV_FORMAT, true);
}
/* IMAGE_LOAD_PCK(_SGN): no format conversion; channels zero- (sign-) extended. */
void
sim__op_image_load_pck(sim_wave *w, const sim_inst *in)
{
   mimg_load(w, in, CONV_RAW_U, false);
}
void
sim__op_image_load_pck_sgn(sim_wave *w, const sim_inst *in)
{
   mimg_load(w, in, CONV_RAW_S, false);
}
void
sim__op_image_load_mip_pck(sim_wave *w, const sim_inst *in)
{
   mimg_load(w, in, CONV_RAW_U, true);
}
void
sim__op_image_load_mip_pck_sgn(sim_wave *w, const sim_inst *in)
{
   mimg_load(w, in, CONV_RAW_S, true);
}
/* IMAGE_STORE: texel at integer (x, y, z/slice) = VDATA converted per T#. */
void
sim__op_image_store(sim_wave *w, const sim_inst *in)
{
   mimg_store(w, in, CONV_FORMAT, false);
}
void
sim__op_image_store_mip(sim_wave *w, const sim_inst *in)
{
   mimg_store(w, in, CONV_FORMAT, true);
}
/* IMAGE_STORE_PCK: the low bits of each component, no format conversion. */
void
sim__op_image_store_pck(sim_wave *w, const sim_inst *in)
{
   mimg_store(w, in, CONV_RAW_U, false);
}
void
sim__op_image_store_mip_pck(sim_wave *w, const sim_inst *in)
{
   mimg_store(w, in, CONV_RAW_U, true);
}

/* ---- Sampling --------------------------------------------------------------------------- */

/* SQ_TEX_CLAMP_* */
enum {
   TEX_WRAP = 0,
   TEX_MIRROR = 1,
   TEX_CLAMP_LAST_TEXEL = 2,
   TEX_MIRROR_ONCE_LAST_TEXEL = 3,
   TEX_CLAMP_HALF_BORDER = 4,
   TEX_MIRROR_ONCE_HALF_BORDER = 5,
   TEX_CLAMP_BORDER = 6,
   TEX_MIRROR_ONCE_BORDER = 7,
};

static bool
is_border_mode(unsigned m)
{
   return m >= TEX_CLAMP_HALF_BORDER;
}

/* Texel index i of a dimension of `size` texels after the clamp mode; -1 = border. */
static int64_t
wrap_index(int64_t i, int64_t size, unsigned mode, bool point)
{
   switch (mode) {
   case TEX_WRAP:
      i %= size;
      return i < 0 ? i + size : i;
   case TEX_MIRROR: {
      int64_t p = 2 * size;
      i %= p;
      if (i < 0)
         i += p;
      return i >= size ? p - 1 - i : i;
   }
   case TEX_CLAMP_LAST_TEXEL:
   case TEX_MIRROR_ONCE_LAST_TEXEL:
      return i < 0 ? 0 : i >= size ? size - 1 : i;
   case TEX_CLAMP_HALF_BORDER:
   case TEX_MIRROR_ONCE_HALF_BORDER:
      if (point) /* the coordinate is clamped to the edge: nearest stays inside */
         return i < 0 ? 0 : i >= size ? size - 1 : i;
      return i < 0 || i >= size ? -1 : i;
   default:
      return i < 0 || i >= size ? -1 : i;
   }
}

/* One filtered dimension: texel indices (after clamping, -1 = border) and weights. */
typedef struct tap {
   int64_t i[2];
   float wt[2];
   unsigned n;
} tap;

/* Texel coordinate u (texel units) of a dimension of `size` under `mode`. */
static void
make_tap(float u, uint32_t size, unsigned mode, bool linear, tap *t)
{
   float fs = (float)size;
   if (u != u)
      u = 0.0f;
   if (mode == TEX_MIRROR_ONCE_LAST_TEXEL || mode == TEX_MIRROR_ONCE_HALF_BORDER ||
       mode == TEX_MIRROR_ONCE_BORDER)
      u = fabsf(u);
   if (mode == TEX_CLAMP_HALF_BORDER || mode == TEX_MIRROR_ONCE_HALF_BORDER)
      u = u < 0.0f ? 0.0f : u > fs ? fs : u; /* at most half a border texel */
   /* Far outside every mode's interesting range: keep the integer conversion defined
    * (wrap/mirror lose sub-texel precision there anyway). */
   const float lim = 1073741824.0f;
   u = u < -lim ? -lim : u > lim ? lim : u;
   if (!linear) {
      t->i[0] = wrap_index((int64_t)floorf(u), size, mode, true);
      t->wt[0] = 1.0f;
      t->n = 1;
      return;
   }
   u -= 0.5f;
   float f = floorf(u);
   float a = u - f;
   int64_t i0 = (int64_t)f;
   t->i[0] = wrap_index(i0, size, mode, false);
   t->i[1] = wrap_index(i0 + 1, size, mode, false);
   t->wt[0] = 1.0f - a;
   t->wt[1] = a;
   t->n = 2;
}

/* IMAGE_SAMPLE_LZ: VDATA = sample of level 0 at (s, t, r/slice) with the S#'s clamp modes
 * and XY/Z filter (LOD is zero: magnification filter). Normalised coordinates unless
 * FORCE_UNNORMALIZED or the instruction's UNORM; array slices round to nearest and clamp.
 * Float formats return floats; integer formats (point sampling only) return integers. */
void
sim__op_image_sample_lz(sim_wave *w, const sim_inst *in)
{
   uint64_t exec = SIM_EXEC(w);
   img d;
   if (!exec || !img_decode(w, in, CONV_FORMAT, &d))
      return;
   if (in->mimg.ssamp + 4 > 128) {
      unsupported(w, in, "S# at s%u runs past the SGPR file", in->mimg.ssamp);
      return;
   }
   const uint32_t *s = &w->s[in->mimg.ssamp];
   unsigned clamp[3] = {s[0] & 7, (s[0] >> 3) & 7, (s[0] >> 6) & 7};
   bool unnorm = ((s[0] >> 15) & 1) || (in->mimg.bits & SIM_MIMG_UNORM);
   unsigned xy_filter = (s[2] >> 20) & 3; /* MAG: LOD 0 magnifies; ANISO_* act as the base */
   bool linear = xy_filter & 1;
   bool z_linear = d.type == IMG_3D && ((s[2] >> 24) & 3) == 2;
   unsigned border_type = s[3] >> 30;
   static const uint8_t nfilt[] = {1, 2, 3, 0, 1, 2}; /* filtered dimensions per type */
   unsigned nd = nfilt[d.type - IMG_1D];
   bool arrayed = d.type == IMG_1D_ARRAY || d.type == IMG_2D_ARRAY;
   bool any_border = false;
   for (unsigned k = 0; k < nd; k++)
      any_border |= is_border_mode(clamp[k]);
   if (any_border && border_type == 3) {
      unsupported(w, in, "S# BORDER_COLOR_TYPE 3 (border colour table) not supported");
      return;
   }
   if ((linear || z_linear) && d.is_int) {
      unsupported(w, in, "linear filtering of an integer image format (NUM_FORMAT %u)",
                  d.conv);
      return;
   }
   bool status = in->mimg.bits & (SIM_MIMG_TFE | SIM_MIMG_LWE);
   if (!check_vgprs(w, in, d.ncoord, data_dwords(in) + status))
      return;
   /* Border colours: transparent black, opaque black, opaque white. */
   uint32_t one = one_value(&d), border[4];
   for (unsigned c = 0; c < 4; c++)
      border[c] = border_type == 2 || (border_type == 1 && c == 3) ? one : 0;
   uint32_t size[3] = {d.width, d.height, d.depth};

   for (unsigned l = 0; l < 64; l++) {
      if (!((exec >> l) & 1))
         continue;
      tap t[3];
      for (unsigned k = 0; k < 3; k++) {
         if (k < nd) {
            float c = addr_float(w, in, k, l);
            make_tap(unnorm ? c : c * (float)size[k], size[k], clamp[k],
                     k < 2 ? linear : z_linear, &t[k]);
         } else {
            t[k].i[0] = 0;
            t[k].wt[0] = 1.0f;
            t[k].n = 1;
         }
      }
      uint32_t layer = 0;
      if (arrayed) {
         float r = addr_float(w, in, nd, l);
         float top = (float)(d.last_array >= d.base_array ? d.last_array - d.base_array : 0);
         r = r != r ? 0.0f : rintf(r);
         r = r < 0.0f ? 0.0f : r > top ? top : r;
         layer = d.base_array + (uint32_t)r;
      }
      bool single = t[0].n * t[1].n * t[2].n == 1;
      float acc[4] = {0, 0, 0, 0};
      uint32_t comp[4] = {0, 0, 0, 0};
      for (unsigned a = 0; a < t[2].n; a++) {
         for (unsigned b = 0; b < t[1].n; b++) {
            for (unsigned c = 0; c < t[0].n; c++) {
               int64_t x = t[0].i[c], y = t[1].i[b], z = t[2].i[a];
               uint32_t tex[4];
               if (x < 0 || y < 0 || z < 0) {
                  memcpy(tex, border, sizeof(tex));
               } else {
                  uint32_t raw[4] = {0, 0, 0, 0};
                  uint32_t slice = arrayed ? layer : (uint32_t)z;
                  if (!texel_read(w, &d, texel_addr(&d, (uint32_t)x, (uint32_t)y, slice),
                                  raw))
                     return;
                  texel_components(&d, raw, tex);
               }
               if (single) { /* point sampling: the texel itself (integers, -0, NaN) */
                  memcpy(comp, tex, sizeof(comp));
                  continue;
               }
               float wt = t[0].wt[c] * t[1].wt[b] * t[2].wt[a];
               if (wt != 0.0f)
                  for (unsigned i = 0; i < 4; i++)
                     acc[i] += wt * sim__as_f32(tex[i]);
            }
         }
      }
      if (!single)
         for (unsigned i = 0; i < 4; i++)
            comp[i] = sim__as_u32(acc[i]);
      write_result(w, in, l, comp, d.is_int);
   }
}
