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
 * Image atomics (IMAGE_ATOMIC_*) address like IMAGE_LOAD and operate on the texel bits.
 * What is modelled: SW_MODE 0 (linear: texel (x, y, slice) of level 0 at
 * base + ((slice * rows + y) * pitch + x) * bytes_per_texel); types 1D, 2D, 3D, 1D array and
 * 2D array; data formats 8, 16, 32, 8_8, 16_16, 32_32, 8_8_8_8, 16_16_16_16, 32_32_32_32 and
 * the packed 5_6_5, 1_5_5_5, 2_10_10_10 with the number formats each admits (UNORM, SNORM,
 * USCALED, SSCALED, UINT, SINT, FLOAT for 16 and 32 bits, SRGB for 8 bits; the conversions
 * are isa/sim_texel.c's); DMASK, D16, A16, TFE/LWE (the status VGPR reads 0: nothing is
 * ever non-resident). GLC/SLC are cache policy (no caches here); DA is implied by TYPE.
 * A buffer resource (TYPE 0: a V# in dwords 0-3, as ROCr's 1D buffer images are) used by
 * image_load / image_store addresses element x at BASE + x * STRIDE, NUM_RECORDS / STRIDE
 * elements, in the V#'s formats. Bilinear weights are multiples of 1/256 (16.8 fixed-point
 * texel coordinates, see SUBTEXEL_BITS); point sampling floors the same fixed-point
 * coordinate.
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

enum {
   NUM_SINT = SIM_NFMT_SINT,
   CONV_FORMAT = 0xFF, /* convert as NUM_FORMAT says */
   CONV_RAW_U = SIM_CONV_RAW_U,
   CONV_RAW_S = SIM_CONV_RAW_S,
};

/* A decoded, supported T#. */
typedef struct img {
   uint64_t base;
   uint32_t width, height, depth; /* depth: slices of a 3D image, else 1 */
   uint32_t rows;                 /* rows per slice in memory: height, 1 for 1D types */
   uint32_t pitch;                /* texels per row */
   uint32_t base_array, last_array;
   uint32_t nlevels;              /* LAST_LEVEL - BASE_LEVEL + 1 */
   uint8_t type, ncoord;          /* address components before the mip level */
   uint8_t bpe;                   /* bytes per texel */
   uint32_t stride;               /* bytes from one texel of a row to the next */
   bool buffer;                   /* a buffer resource (V#) in the T# slot */
   uint8_t sel[4];
   sim_texel_fmt f;               /* f.conv, f.is_int: results are integers */
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

/* A buffer resource (TYPE 0: a V# in dwords 0-3, as ROCr's 1D buffer images are) used by
 * an image load or store: a 1D image of NUM_RECORDS / STRIDE elements at BASE + x * STRIDE,
 * in the V#'s DATA_FORMAT / NUM_FORMAT and DST_SEL. */
static bool
buf_decode(sim_wave *w, const sim_inst *in, unsigned conv, const uint32_t *t, img *d)
{
   unsigned dfmt = (t[3] >> 15) & 0xF, nfmt = (t[3] >> 12) & 7;
   if (!sim__texel_format(dfmt, conv == CONV_FORMAT ? nfmt : SIM_NFMT_UINT, &d->f))
      return unsupported(w, in, "buffer resource DATA_FORMAT %u with NUM_FORMAT %u not "
                         "supported", dfmt, nfmt);
   if (conv != CONV_FORMAT)
      sim__texel_set_conv(&d->f, conv);
   d->buffer = true;
   d->bpe = d->f.bytes;
   d->stride = (t[1] >> 16) & 0x3FFF;
   d->base = t[0] | (uint64_t)(t[1] & 0xFFFF) << 32;
   d->type = IMG_1D;
   d->width = d->stride ? t[2] / d->stride : 0;
   d->height = d->rows = d->depth = 1;
   d->pitch = d->width;
   d->base_array = d->last_array = 0;
   d->nlevels = 1;
   for (unsigned i = 0; i < 4; i++)
      d->sel[i] = (t[3] >> (3 * i)) & 7;
   d->ncoord = 1;
   return true;
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
   if (type == 0)
      return buf_decode(w, in, conv, t, d);
   if (sw_mode != 0)
      return unsupported(w, in, "image T# SW_MODE %u (tiled) not supported, linear (0) only",
                         sw_mode);
   if (type < IMG_1D || type == IMG_CUBE || type >= IMG_2D_MSAA)
      return unsupported(w, in, "image T# TYPE %u (%s) not supported", type, type_name(type));
   if (!sim__texel_format(dfmt, conv == CONV_FORMAT ? nfmt : SIM_NFMT_UINT, &d->f))
      return unsupported(w, in, "image T# DATA_FORMAT %u with NUM_FORMAT %u not supported",
                         dfmt, nfmt);
   if (conv != CONV_FORMAT)
      sim__texel_set_conv(&d->f, conv);
   if (base_level != 0)
      return unsupported(w, in, "image T# BASE_LEVEL %u: mip levels other than 0 not supported",
                         base_level);
   d->bpe = d->f.bytes;
   d->stride = d->bpe;
   d->buffer = false;
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

/* Byte address of texel (x, y, slice) of level 0; slice is the 3D slice or array layer. */
static uint64_t
texel_addr(const img *d, uint32_t x, uint32_t y, uint32_t slice)
{
   return d->base + (((uint64_t)slice * d->rows + y) * d->pitch + x) * d->stride;
}

/* The shader components of the texel at `addr` (isa/sim_texel.c). False after a fault. */
static bool
texel_load(sim_wave *w, const img *d, uint64_t addr, uint32_t comp[4])
{
   const uint8_t *p = sim__gpu_ptr(w, addr, d->bpe, false);
   if (!p)
      return false;
   sim__texel_read(&d->f, d->sel, p, comp);
   return true;
}

static uint32_t
one_value(const img *d)
{
   return sim__texel_one(&d->f);
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
         if (!d->f.is_int)
            comp[i] = sim__as_u32(sim__f16_to_f32(h));
         else if (d->f.conv == NUM_SINT || d->f.conv == CONV_RAW_S)
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
      uint32_t comp[4];
      uint64_t addr;
      if (int_coords(w, in, &d, mip, l, &addr)) {
         if (!texel_load(w, &d, addr, comp))
            return;
      } else {
         sim__texel_read(&d.f, d.sel, NULL, comp); /* out of range: a zero texel */
      }
      write_result(w, in, l, comp, d.f.is_int);
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
      uint32_t comp[4];
      read_store_data(w, in, &d, l, comp);
      uint8_t *p = sim__gpu_ptr(w, addr, d.bpe, true);
      if (!p)
         return;
      sim__texel_write(&d.f, d.sel, comp, p);
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

/* ---- Atomics ------------------------------------------------------------------------------
 * IMAGE_ATOMIC_<op>: tmp = texel at integer (x, y, z/slice), as IMAGE_LOAD addresses it;
 * texel = op(tmp, VDATA); VDATA = tmp with GLC ([ISA] 8.2 "Image instructions", the
 * MUBUF atomics' operations). DMASK gives the data size: 0x1 one dword, 0x3 two (64-bit);
 * for CMPSWAP twice that, {src, cmp}. The operation is on the texel's bits, so the format
 * must be as wide as the data (R32 / R32G32 UINT or SINT in practice); a coordinate outside
 * the image changes nothing and returns 0. */
static void
mimg_atomic(sim_wave *w, const sim_inst *in, unsigned op)
{
   uint64_t exec = SIM_EXEC(w);
   img d;
   if (!exec || !img_decode(w, in, CONV_RAW_U, &d))
      return;
   unsigned nd = (unsigned)__builtin_popcount(in->mimg.dmask);
   unsigned size = op == SIM_AT_CMPSWAP ? nd / 2 : nd;
   if ((size != 1 && size != 2) || (op == SIM_AT_CMPSWAP && nd != 2 * size)) {
      unsupported(w, in, "image atomic DMASK 0x%x: 0x1 or 0x3 (CMPSWAP 0x3 or 0xF)",
                  in->mimg.dmask);
      return;
   }
   if (d.bpe != 4 * size) {
      unsupported(w, in, "image atomic of %u bytes on a %u-byte texel format", 4 * size,
                  d.bpe);
      return;
   }
   if (!check_vgprs(w, in, d.ncoord, nd))
      return;
   bool wide = size == 2, rtn = in->flags & SIM_IF_GLC;
   unsigned v = in->mimg.vdata;
   for (unsigned l = 0; l < 64; l++) {
      if (!((exec >> l) & 1))
         continue;
      uint64_t data = w->v[v][l], cmp = 0, old = 0, addr;
      if (wide)
         data |= (uint64_t)w->v[v + 1][l] << 32;
      if (op == SIM_AT_CMPSWAP) {
         cmp = w->v[v + size][l];
         if (wide)
            cmp |= (uint64_t)w->v[v + size + 1][l] << 32;
      }
      if (int_coords(w, in, &d, false, l, &addr)) {
         void *p = sim__gpu_ptr(w, addr, 4 * size, true);
         if (!p)
            return;
         old = sim__vm_atomic_rmw(p, op, data, cmp, wide);
      }
      if (rtn) {
         w->v[v][l] = (uint32_t)old;
         if (wide)
            w->v[v + 1][l] = (uint32_t)(old >> 32);
      }
   }
}

#define IMG_ATOMIC(name, op)                                                                \
   void sim__op_image_atomic_##name(sim_wave *w, const sim_inst *in)                        \
   {                                                                                        \
      mimg_atomic(w, in, op);                                                               \
   }
IMG_ATOMIC(swap, SIM_AT_SWAP)
IMG_ATOMIC(cmpswap, SIM_AT_CMPSWAP)
IMG_ATOMIC(add, SIM_AT_ADD)
IMG_ATOMIC(sub, SIM_AT_SUB)
IMG_ATOMIC(smin, SIM_AT_SMIN)
IMG_ATOMIC(umin, SIM_AT_UMIN)
IMG_ATOMIC(smax, SIM_AT_SMAX)
IMG_ATOMIC(umax, SIM_AT_UMAX)
IMG_ATOMIC(and, SIM_AT_AND)
IMG_ATOMIC(or, SIM_AT_OR)
IMG_ATOMIC(xor, SIM_AT_XOR)
IMG_ATOMIC(inc, SIM_AT_INC)
IMG_ATOMIC(dec, SIM_AT_DEC)

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

/* Bits of sub-texel precision of bilinear weights: D3D's minimum (16.8 fixed-point texel
 * coordinates), what AMD's drivers report for GCN (Vulkan subTexelPrecisionBits 8). */
#define SUBTEXEL_BITS 8

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
      /* Point sampling also goes through 16.8 fixed point: a coordinate within 1/512 below
       * a texel edge lands on it (the ROCm device library relies on this: for NEAREST it
       * passes floor(s * width) * rcp(width), which can fall a hair short of the edge). */
      double q = nearbyint((double)u * (1 << SUBTEXEL_BITS)) / (1 << SUBTEXEL_BITS);
      t->i[0] = wrap_index((int64_t)floor(q), size, mode, true);
      t->wt[0] = 1.0f;
      t->n = 1;
      return;
   }
   /* The texture unit's fixed point: the texel coordinate less one half, as 16.8 fixed
    * point (rounded to nearest), so the weights are multiples of 1/256 (SUBTEXEL_BITS). */
   double q = nearbyint(((double)u - 0.5) * (1 << SUBTEXEL_BITS));
   double f = floor(q / (1 << SUBTEXEL_BITS));
   float a = (float)(q / (1 << SUBTEXEL_BITS) - f);
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
   /* Z_FILTER (3D only): NONE follows the XY filter (ROCr's samplers leave it NONE, and
    * OpenCL's LINEAR is trilinear on 3D images), POINT, LINEAR. */
   unsigned z_filter = (s[2] >> 24) & 3;
   bool z_linear = d.type == IMG_3D && (z_filter == 2 || (z_filter == 0 && linear));
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
   if (d.buffer) {
      unsupported(w, in, "sampling a buffer resource");
      return;
   }
   if ((linear || z_linear) && d.f.is_int) {
      unsupported(w, in, "linear filtering of an integer image format (NUM_FORMAT %u)",
                  d.f.conv);
      return;
   }
   bool status = in->mimg.bits & (SIM_MIMG_TFE | SIM_MIMG_LWE);
   if (!check_vgprs(w, in, d.ncoord, data_dwords(in) + status))
      return;
   /* Border colours: transparent black, opaque black, opaque white, as (r, g, b, a); the
    * T#'s BC_SWIZZLE places them in the memory channels, then DST_SEL applies as for a
    * texel (so a format without alpha reads a border alpha of 1, as OpenCL's CLAMP
    * wants). */
   uint32_t one = one_value(&d), border[4];
   {
      static const uint8_t bc_perm[8][4] = {
         {0, 1, 2, 3}, /* XYZW: channel X <- r, Y <- g, Z <- b, W <- a */
         {0, 3, 1, 2}, /* XWYZ */
         {3, 2, 1, 0}, /* WZYX */
         {3, 0, 1, 2}, /* WXYZ */
         {2, 1, 0, 3}, /* ZYXW */
         {1, 0, 3, 2}, /* YXWZ */
         {0, 1, 2, 3}, {0, 1, 2, 3}, /* reserved: as XYZW */
      };
      unsigned bc = d.buffer ? 0 : w->s[in->mimg.srsrc + 4] >> 29;
      uint32_t rgba[4], ch[4];
      for (unsigned c = 0; c < 4; c++)
         rgba[c] = border_type == 2 || (border_type == 1 && c == 3) ? one : 0;
      for (unsigned c = 0; c < 4; c++)
         ch[c] = rgba[bc_perm[bc][c]];
      for (unsigned i = 0; i < 4; i++) {
         unsigned sl = d.sel[i];
         border[i] = sl >= SIM_SEL_X ? ch[sl - SIM_SEL_X] : sl == SIM_SEL_1 ? one : 0;
      }
   }
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
                  uint32_t slice = arrayed ? layer : (uint32_t)z;
                  if (!texel_load(w, &d, texel_addr(&d, (uint32_t)x, (uint32_t)y, slice),
                                  tex))
                     return;
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
      write_result(w, in, l, comp, d.f.is_int);
   }
}
