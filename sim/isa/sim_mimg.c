/*
 * MIMG: image loads, stores, atomics, sampling (every IMAGE_SAMPLE* form), gather4, LOD and
 * size queries through an image resource (T#, 8 SGPRs) and a sampler (S#, 4 SGPRs). [ISA] chapter 8 "Vector Memory Operations", 8.2 "Image
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
 *   S#     see "Sampler (S#)" below
 *
 * gfx10 moves FORMAT (one field), WIDTH, DEPTH, BASE_ARRAY and PITCH (tfields_of); a gfx10
 * wave reads its T#s and buffer resources in its generation's layout (the V# FORMAT:
 * sim__texel_vsharp_format).
 *
 * Image atomics (IMAGE_ATOMIC_*) address like IMAGE_LOAD and operate on the texel bits.
 * What is modelled: SW_MODE 0 (linear, with the linear mip chain of the wave's generation,
 * level_of(): texel (x, y, slice) of level m at base + slice * slice_bytes + off(m) +
 * (y * pitch(m) + x) * bytes_per_texel); mip levels BASE_LEVEL..LAST_LEVEL; types 1D, 2D, 3D, 1D array and
 * 2D array; data formats 8, 16, 32, 8_8, 16_16, 32_32, 8_8_8_8, 16_16_16_16, 32_32_32_32 and
 * the packed 5_6_5, 1_5_5_5, 2_10_10_10 with the number formats each admits (UNORM, SNORM,
 * USCALED, SSCALED, UINT, SINT, FLOAT for 16 and 32 bits, SRGB for 8 bits; the conversions
 * are isa/sim_texel.c's); DMASK, D16, A16, gfx10's NSA address lists (addr_vgpr), TFE/LWE
 * (the status VGPR reads 0: nothing is ever non-resident). GLC/SLC are cache policy (no
 * caches here); DA is implied by TYPE.
 * A buffer resource (TYPE 0: a V# in dwords 0-3, as ROCr's 1D buffer images are) used by
 * image_load / image_store addresses element x at BASE + x * STRIDE, NUM_RECORDS / STRIDE
 * elements, in the V#'s formats. Bilinear weights are multiples of 1/256 (16.8 fixed-point
 * texel coordinates, see SUBTEXEL_BITS); point sampling floors the same fixed-point
 * coordinate.
 * Anything else the instruction would need — a tiled SW_MODE, another format, cube or MSAA
 * images, a border colour from the table, A16 with user derivatives, a gather of one
 * component of more than one — is an illegal-instruction fault naming the field, never a
 * guess.
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

/*
 * One mip level of a linear image. Level m's size is max(1, size >> m) in each dimension,
 * depth included (1D types: one row); each slice (3D slice or array layer) holds the
 * resource's whole chain, levels 0..MAX_MIP (slice_bytes), and level m of slice s starts
 * at s * slice_bytes + off. `m` is absolute (BASE_LEVEL added). The chain within a slice:
 *  - gfx9 (the gfx9 address library's linear chain): every level has the T#'s pitch; the
 *    levels follow one another downwards, level m starting at row sum(k < m) max(1,
 *    height >> k) (1D types: row m);
 *  - gfx10 with MAX_MIP > 0 (the gfx10 address library's linear chain, Gfx10Lib's
 *    HwlComputeSurfaceInfoLinear): every level has its own pitch, its width rounded up to
 *    256 bytes' worth of texels, and the smallest level comes first: level m starts at
 *    sum(k > m) pitch(k) * rows(k) * bytes per texel.
 */
typedef struct lvl {
   uint32_t w, h, dp, pitch; /* pitch: texels per row */
   uint64_t off;             /* bytes from the slice's start */
} lvl;

/* A decoded, supported T#. */
typedef struct img {
   uint64_t base;
   uint32_t width, height, depth; /* depth: slices of a 3D image, else 1 */
   uint32_t pitch;                /* texels per row */
   uint32_t base_array, last_array;
   uint32_t nlevels;              /* LAST_LEVEL - BASE_LEVEL + 1 */
   uint32_t base_level;           /* BASE_LEVEL: level 0 of the view */
   uint32_t max_mip;              /* MAX_MIP: the resource's last level (the chain's) */
   uint64_t slice_bytes;          /* bytes of one slice's mip chain (levels 0..MAX_MIP) */
   bool gfx10_chain;              /* levels laid out as gfx10's linear chain (level_of) */
   float min_lod;                 /* T# MIN_LOD (u4.8): a resource clamp of the LOD */
   uint8_t type, ncoord;          /* address components before the mip level */
   uint8_t bpe;                   /* bytes per texel */
   uint32_t stride;               /* bytes from one texel of a row to the next */
   bool buffer;                   /* a buffer resource (V#) in the T# slot */
   uint8_t sel[4];
   sim_texel_fmt f;               /* f.conv, f.is_int: results are integers */
   lvl view0;                     /* level BASE_LEVEL, which most accesses address */
   /* The allocation the base texel lies in, when texels there may be reached through its
    * view directly (sim__vm_direct; set by the instruction, for its access): texel_ptr. */
   const sim_alloc *direct;
   /* level_view(view0) under `direct`, kept with it (img_direct): the fast paths' texel
    * (0, 0) of BASE_LEVEL, or NULL. */
   uint8_t *row0;
} img;

static lvl level_of(const img *d, unsigned m);

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
   unsigned dfmt = 0, nfmt = 0;
   bool valid = sim__texel_vsharp_format(w->target->gfx_major, t[3], &dfmt, &nfmt);
   if (!valid || !sim__texel_format(dfmt, conv == CONV_FORMAT ? nfmt : SIM_NFMT_UINT, &d->f))
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
   d->height = d->depth = 1;
   d->pitch = d->width;
   d->base_array = d->last_array = 0;
   d->nlevels = 1;
   d->base_level = 0;
   d->max_mip = 0;
   d->slice_bytes = 0; /* one row, one slice */
   d->gfx10_chain = false;
   d->min_lod = 0.0f;
   for (unsigned i = 0; i < 4; i++)
      d->sel[i] = (t[3] >> (3 * i)) & 7;
   d->ncoord = 1;
   d->view0 = level_of(d, 0);
   d->direct = NULL;
   d->row0 = NULL;
   return true;
}

/* Texels of a dimension of `size` texels at mip level m: max(1, size >> m). */
static uint32_t
level_size(uint32_t size, unsigned m)
{
   uint32_t v = m < 32 ? size >> m : 0;
   return v ? v : 1;
}

/* gfx10's pitch of level m of a chain: its width rounded up to 256 bytes' worth. */
static uint32_t
gfx10_level_pitch(const img *d, unsigned m)
{
   uint32_t align = 256 / d->bpe;
   return (level_size(d->width, m) + align - 1) / align * align;
}

static lvl
level_of(const img *d, unsigned m)
{
   lvl v = {d->width, d->height, d->depth, d->pitch, 0};
   if (d->buffer)
      return v;
   bool one_d = d->type == IMG_1D || d->type == IMG_1D_ARRAY;
   v.w = level_size(d->width, m);
   v.h = one_d ? 1 : level_size(d->height, m);
   v.dp = d->type == IMG_3D ? level_size(d->depth, m) : 1;
   if (!d->gfx10_chain) {
      for (unsigned k = 0; k < m; k++)
         v.off += (uint64_t)(one_d ? 1 : level_size(d->height, k)) * d->pitch * d->bpe;
      return v;
   }
   v.pitch = gfx10_level_pitch(d, m);
   for (unsigned k = m + 1; k <= d->max_mip; k++)
      v.off += (uint64_t)gfx10_level_pitch(d, k) * (one_d ? 1 : level_size(d->height, k)) *
               d->bpe;
   return v;
}

/* Level m (absolute) of the view: BASE_LEVEL's decoded once per instruction. */
static lvl
img_level(const img *d, unsigned m)
{
   return m == d->base_level ? d->view0 : level_of(d, m);
}

/* The T# fields gfx9 and gfx10 place differently. gfx10 (RDNA2 T#, as ROCr's gfx10 image
 * manager writes it): w1 [28:20] FORMAT (sim__texel_gfx10_img_format), [31:30] WIDTH-1
 * bits 1:0; w2 [11:0] WIDTH-1 bits 13:2, [27:14] HEIGHT-1; w3 as gfx9's; w4 [12:0] DEPTH
 * (3D: depth-1; arrays: last slice), [28:16] BASE_ARRAY. No PITCH field: gfx10.3
 * (gfx_target_version 10.3 on) reads PITCH-1 from w4 [13:0] for 1D and 2D non-array
 * images; otherwise a linear row is the width rounded up to 256 bytes (the gfx10 address
 * library's linear pitch alignment). */
typedef struct tfields {
   unsigned dfmt, nfmt;
   bool fmt_ok;
   uint32_t width_m1, height_m1, depth_field, base_array;
   uint32_t pitch; /* 0: the gfx10 implied pitch */
} tfields;

static tfields
tfields_of(const sim_target *target, const uint32_t *t, unsigned type)
{
   tfields f = {0};
   if (target->gfx_major < 10) {
      f.dfmt = (t[1] >> 20) & 0x3F;
      f.nfmt = (t[1] >> 26) & 0xF;
      f.fmt_ok = true;
      f.width_m1 = t[2] & 0x3FFF;
      f.height_m1 = (t[2] >> 14) & 0x3FFF;
      f.depth_field = t[4] & 0x1FFF;
      f.pitch = ((t[4] >> 13) & 0xFFFF) + 1;
      f.base_array = t[5] & 0x1FFF;
      return f;
   }
   f.fmt_ok = sim__texel_gfx10_img_format((t[1] >> 20) & 0x1FF, &f.dfmt, &f.nfmt);
   f.width_m1 = (t[1] >> 30) | (t[2] & 0xFFF) << 2;
   f.height_m1 = (t[2] >> 14) & 0x3FFF;
   f.depth_field = t[4] & 0x1FFF;
   f.base_array = (t[4] >> 16) & 0x1FFF;
   bool custom_pitch = target->gfx_target_version >= 100300 &&
                       (type == IMG_1D || type == IMG_2D || type == IMG_2D_MSAA);
   f.pitch = custom_pitch ? (t[4] & 0x3FFF) + 1 : 0;
   return f;
}

static bool img_decode_t(sim_wave *w, const sim_inst *in, unsigned conv, img *d);

/* The home's last decoded descriptors (sim_wg.mimg, one per host thread's work-group home,
 * so no thread-local look-up): a kernel's image instructions decode the same T#s wave after
 * wave (a one-work-item work-group's wave decodes two, its source's and its destination's:
 * a fifth of its time in img_decode, level_of and sim__texel_format). What the decode gives
 * depends on the descriptor's dwords, the conversion and the target alone, so it is kept
 * across dispatches; `direct` (the allocation, which depends on the memory map) is kept
 * for one instruction (`din`, `dwrite`) and the dispatch that set it (sim__mimg_memo_begin
 * forgets it: no allocation a running dispatch uses may be freed). */
#define IMG_MEMOS 4
typedef struct img_memo {
   uint32_t t[8];
   unsigned conv;
   const sim_target *target;
   img d;
   const sim_inst *din; /* d.direct is din's, for this dispatch (NULL: none yet) */
   bool dwrite;
} img_memo;

static struct sim_mimg_memo *memo_of(sim_wave *w);
static img_memo *img_memo_find(sim_wave *w, const sim_inst *in, unsigned conv, bool *ok);
static void img_direct(sim_wave *w, const sim_inst *in, img *d, bool write);

/* Decodes the T# at SGPR in->mimg.srsrc (the layout of the wave's generation); faults (and
 * returns false) on what is not modelled. `conv` is CONV_FORMAT or a raw _pck conversion. */
static bool
img_decode(sim_wave *w, const sim_inst *in, unsigned conv, img *d)
{
   if (in->mimg.srsrc + 8 > 128)
      return unsupported(w, in, "T# at s%u runs past the SGPR file", in->mimg.srsrc);
   bool ok;
   const img_memo *m = img_memo_find(w, in, conv, &ok);
   if (m) {
      *d = m->d;
      d->direct = NULL;
      d->row0 = NULL;
      return true;
   }
   return ok && img_decode_t(w, in, conv, d);
}

/* img_decode and img_direct for instruction `in`: the home's memo entry, whose `direct` is
 * reused while the same instruction accesses the same T# the same way in this dispatch,
 * or `local` when there is no memo; NULL after a fault. */
static const img *
img_setup(sim_wave *w, const sim_inst *in, unsigned conv, bool write, img *local)
{
   if (in->mimg.srsrc + 8 > 128) {
      unsupported(w, in, "T# at s%u runs past the SGPR file", in->mimg.srsrc);
      return NULL;
   }
   bool ok;
   img_memo *m = img_memo_find(w, in, conv, &ok);
   if (!m) {
      if (!ok || !img_decode_t(w, in, conv, local))
         return NULL;
      img_direct(w, in, local, write);
      return local;
   }
   if (m->din != in || m->dwrite != write) {
      img_direct(w, in, &m->d, write);
      m->din = in;
      m->dwrite = write;
   }
   return &m->d;
}

static bool
img_decode_t(sim_wave *w, const sim_inst *in, unsigned conv, img *d)
{
   const uint32_t *t = &w->s[in->mimg.srsrc];
   unsigned sw_mode = (t[3] >> 20) & 0x1F, type = t[3] >> 28;
   unsigned base_level = (t[3] >> 12) & 0xF, last_level = (t[3] >> 16) & 0xF;
   if (type == 0)
      return buf_decode(w, in, conv, t, d);
   if (sw_mode != 0)
      return unsupported(w, in, "image T# SW_MODE %u (tiled) not supported, linear (0) only",
                         sw_mode);
   if (type < IMG_1D || type == IMG_CUBE || type >= IMG_2D_MSAA)
      return unsupported(w, in, "image T# TYPE %u (%s) not supported", type, type_name(type));
   tfields tf = tfields_of(w->target, t, type);
   if (!tf.fmt_ok)
      return unsupported(w, in, "image T# FORMAT %u not supported", (t[1] >> 20) & 0x1FF);
   if (!sim__texel_format(tf.dfmt, conv == CONV_FORMAT ? tf.nfmt : SIM_NFMT_UINT, &d->f))
      return unsupported(w, in, "image T# DATA_FORMAT %u with NUM_FORMAT %u not supported",
                         tf.dfmt, tf.nfmt);
   if (conv != CONV_FORMAT)
      sim__texel_set_conv(&d->f, conv);
   d->bpe = d->f.bytes;
   d->stride = d->bpe;
   d->buffer = false;
   d->base = (uint64_t)t[0] << 8 | (uint64_t)(t[1] & 0xFF) << 40;
   d->type = type;
   d->width = tf.width_m1 + 1;
   bool one_d = type == IMG_1D || type == IMG_1D_ARRAY;
   d->height = one_d ? 1 : tf.height_m1 + 1;
   d->depth = type == IMG_3D ? tf.depth_field + 1 : 1;
   if (tf.pitch) {
      d->pitch = tf.pitch;
   } else {
      uint32_t align = 256 / d->bpe;
      d->pitch = (d->width + align - 1) / align * align;
   }
   d->base_array = tf.base_array;
   d->last_array = tf.depth_field;
   d->nlevels = last_level >= base_level ? last_level - base_level + 1 : 1;
   d->base_level = base_level;
   d->min_lod = (float)((t[1] >> 8) & 0xFFF) / 256.0f;
   /* The chain in memory holds the resource's levels 0..MAX_MIP (gfx9: dword 5, bits
    * 31:28; gfx10: dword 5, bits 7:4, ROCr's resource_nv.h; BASE_LEVEL and LAST_LEVEL only
    * narrow the view to a part of it), so a view past the resource's chain is refused
    * rather than read from the next slice. */
   bool gfx10 = w->target->gfx_major >= 10;
   d->max_mip = gfx10 ? (t[5] >> 4) & 0xF : t[5] >> 28;
   if (last_level > d->max_mip || base_level > d->max_mip)
      return unsupported(w, in, "image T# levels %u..%u past the resource's MAX_MIP %u",
                         base_level, last_level, d->max_mip);
   d->gfx10_chain = gfx10 && d->max_mip > 0;
   if (d->gfx10_chain && tf.pitch && tf.pitch != gfx10_level_pitch(d, 0))
      return unsupported(w, in, "image T# PITCH %u with mip levels (MAX_MIP %u) not "
                         "supported, the chain's level-0 pitch is %u", tf.pitch, d->max_mip,
                         gfx10_level_pitch(d, 0));
   d->slice_bytes = 0;
   for (unsigned m = 0; m <= d->max_mip; m++) {
      lvl v = level_of(d, m);
      d->slice_bytes += (uint64_t)v.pitch * v.h * d->bpe;
   }
   for (unsigned i = 0; i < 4; i++)
      d->sel[i] = (t[3] >> (3 * i)) & 7;
   static const uint8_t ncoord[] = {1, 2, 3, 0, 2, 3};
   d->ncoord = ncoord[type - IMG_1D];
   d->view0 = level_of(d, base_level);
   d->direct = NULL;
   d->row0 = NULL;
   return true;
}

/* The VGPR of address dword `dw`: VADDR + dw, or with gfx10's NSA encoding VADDR for dword 0
 * and NSA byte dw - 1 for the others (any VGPRs, in any order: LLVM's form for three or more
 * address dwords not in consecutive registers). */
static unsigned
addr_vgpr(const sim_inst *in, unsigned dw)
{
   return in->mimg.nsa && dw ? in->mimg.nsa_addr[dw - 1] : in->mimg.vaddr + dw;
}

/* The VGPRs the instruction names must exist: `adw` address dwords, `ndata` data dwords. */
static bool
check_vgpr_dwords(sim_wave *w, const sim_inst *in, unsigned adw, unsigned ndata)
{
   if (in->mimg.nsa && adw > 1 + 4u * in->mimg.nsa)
      return unsupported(w, in, "%u image address dwords, NSA names %u", adw,
                         1 + 4u * in->mimg.nsa);
   for (unsigned dw = 0; dw < adw; dw++)
      if (addr_vgpr(in, dw) >= w->nvgpr)
         return unsupported(w, in, "image operands beyond the %u allocated VGPRs", w->nvgpr);
   if (in->mimg.vdata + ndata > w->nvgpr)
      return unsupported(w, in, "image operands beyond the %u allocated VGPRs", w->nvgpr);
   return true;
}

static bool
check_vgprs(sim_wave *w, const sim_inst *in, unsigned naddr, unsigned ndata)
{
   unsigned adw = in->mimg.bits & SIM_MIMG_A16 ? (naddr + 1) / 2 : naddr;
   return check_vgpr_dwords(w, in, adw, ndata);
}

/* Address component k of lane l: address dword k, or with A16 half k&1 of dword k/2. */
static uint32_t
addr_comp(const sim_wave *w, const sim_inst *in, unsigned k, unsigned l)
{
   if (in->mimg.bits & SIM_MIMG_A16)
      return (w->v[addr_vgpr(in, k / 2)][l] >> (16 * (k & 1))) & 0xFFFF;
   return w->v[addr_vgpr(in, k)][l];
}

/* ---- Texels ------------------------------------------------------------------------- */

static int32_t
sext_bits(uint32_t v, unsigned bits)
{
   return bits >= 32 ? (int32_t)v : (int32_t)(v << (32 - bits)) >> (32 - bits);
}

/* Byte address of texel (x, y, slice) of level `v`; slice is the 3D slice or array layer. */
static uint64_t
texel_addr(const img *d, const lvl *v, uint32_t x, uint32_t y, uint32_t slice)
{
   return d->base + slice * d->slice_bytes + v->off + ((uint64_t)y * v->pitch + x) * d->stride;
}

/* Host pointer of the texel at `addr`: through d->direct's view when the texel lies there
 * (no look-up per lane), else sim__gpu_ptr, which faults as the access must. */
static uint8_t *
texel_ptr(sim_wave *w, const img *d, uint64_t addr, bool write)
{
   const sim_alloc *a = d->direct;
   if (a && addr - a->va <= a->reach - d->bpe)
      return a->view + (addr - a->va);
   return sim__gpu_ptr(w, addr, d->bpe, write);
}

/* For the accesses of instruction `in` to image `d`: texel_ptr's direct allocation. */
static uint8_t *level_view(const img *d, const lvl *v);
static void
img_direct(sim_wave *w, const sim_inst *in, img *d, bool write)
{
   d->direct = d->bpe ? sim__vm_direct(w, in, d->base, d->bpe, write) : NULL;
   d->row0 = level_view(d, &d->view0);
}

/* The shader components of the texel at `addr` (isa/sim_texel.c). False after a fault. */
static bool
texel_load(sim_wave *w, const img *d, uint64_t addr, uint32_t comp[4])
{
   const uint8_t *p = texel_ptr(w, d, addr, false);
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

/* Bits set in a 4-bit DMASK (a table: without -mpopcnt __builtin_popcount is a libgcc call,
 * 2% of a one-work-item image copy). */
static unsigned
dmask_bits(unsigned m)
{
   static const uint8_t bits[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
   return bits[m & 15];
}

static unsigned
eff_dmask(const sim_inst *in)
{
   return in->mimg.dmask ? in->mimg.dmask : 1; /* DMASK 0 moves one component, like 1 */
}

static unsigned
data_dwords(const sim_inst *in)
{
   unsigned n = dmask_bits(eff_dmask(in));
   return in->mimg.bits & SIM_MIMG_D16 ? (n + 1) / 2 : n;
}

/* The DMASK-selected components of `comp` into consecutive VGPRs of lane l (D16: 16 bits
 * each, two per VGPR: float results as f16, integers truncated), then the TFE/LWE status. */
static void
write_masked(sim_wave *w, const sim_inst *in, unsigned l, const uint32_t comp[4], bool is_int,
             unsigned dmask)
{
   bool d16 = in->mimg.bits & SIM_MIMG_D16;
   uint32_t packed[4] = {0, 0, 0, 0};
   unsigned k = 0;
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
   unsigned n = dmask_bits(dmask);
   n = d16 ? (n + 1) / 2 : n;
   for (unsigned j = 0; j < n; j++)
      w->v[in->mimg.vdata + j][l] = packed[j];
   if (in->mimg.bits & (SIM_MIMG_TFE | SIM_MIMG_LWE))
      w->v[in->mimg.vdata + n][l] = 0;
}

static void
write_result(sim_wave *w, const sim_inst *in, unsigned l, const uint32_t comp[4], bool is_int)
{
   write_masked(w, in, l, comp, is_int, eff_dmask(in));
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

/* ---- Wave-wide fast paths ---------------------------------------------------------------
 * The accesses OpenCL kernels make most — IMAGE_LOAD and IMAGE_STORE without a mip operand,
 * IMAGE_SAMPLE* point-sampled at one level through a clamp or border mode — of a 1D or 2D
 * image, with 32-bit address and data VGPRs and no TFE/LWE, when the whole level lies in
 * the allocation texel_ptr reaches directly (checked once: level_view): the coordinates of
 * every lane first, then the texels of all lanes through the format's lane batch
 * (sim__texel_read_lanes / sim__texel_write_lanes). No texel of that level can fault, so
 * the results and faults are the per-lane path's, which serves everything else (and the
 * checking mode, whose coarse allocations are never direct). */
bool sim__mimg_fast = true;
bool sim__mimg_counting;
__thread uint64_t sim__mimg_fast_runs;

/* Host address of texel (0, 0) of level v when every texel of the level (slice 0) lies in
 * d->direct, else NULL. */
static uint8_t *
level_view(const img *d, const lvl *v)
{
   const sim_alloc *a = d->direct;
   uint64_t first = d->base + v->off;
   if (!a || !v->w || !v->h || first < a->va || first - a->va > a->reach)
      return NULL;
   uint64_t span = ((uint64_t)(v->h - 1) * v->pitch + (v->w - 1)) * d->stride + d->bpe;
   return span <= a->reach - (first - a->va) ? a->view + (first - a->va) : NULL;
}

/* The fast paths' common conditions on the instruction. */
static bool
fast_inst(const sim_inst *in, const img *d)
{
   return sim__mimg_fast && (d->type == IMG_1D || d->type == IMG_2D) && !d->buffer &&
          !(in->mimg.bits & (SIM_MIMG_A16 | SIM_MIMG_D16 | SIM_MIMG_TFE | SIM_MIMG_LWE));
}

/* The data VGPR rows of the components DMASK selects. */
static void
data_rows(sim_wave *w, const sim_inst *in, uint32_t *rows[4])
{
   unsigned n = dmask_bits(eff_dmask(in));
   for (unsigned j = 0; j < n; j++)
      rows[j] = w->v[in->mimg.vdata + j];
}

/* The address of one texel (x, y) inside level v. */
static inline uint8_t *
lane_ptr1(uint8_t *row0, const img *d, const lvl *v, uint32_t x, uint32_t y)
{
   return row0 + ((uint64_t)y * v->pitch + x) * d->stride;
}

/* p[l] = row0 + (y[l] * pitch + x[l]) * stride of level v for all 64 lanes; only the lanes
 * whose (x, y) lies in the level are used. When the level's bytes fit in 32 bits, in 32-bit
 * lanes the compiler vectorises (for the lanes used, no offset wraps). */
static void
lane_ptrs(uint8_t *row0, const img *d, const lvl *v, const uint32_t *restrict x,
          const uint32_t *restrict y, uint8_t **restrict p)
{
   uintptr_t b = (uintptr_t)row0;
   uint64_t span = ((uint64_t)(v->h - 1) * v->pitch + v->w) * d->stride;
   if (span <= UINT32_MAX) {
      uint32_t pitch = v->pitch, stride = d->stride, off[64];
      for (unsigned l = 0; l < 64; l++)
         off[l] = (y[l] * pitch + x[l]) * stride;
      for (unsigned l = 0; l < 64; l++)
         p[l] = (uint8_t *)(b + off[l]);
      return;
   }
   for (unsigned l = 0; l < 64; l++)
      p[l] = lane_ptr1(row0, d, v, x[l], y[l]);
}

static const uint32_t zero_row[64]; /* the y of 1D images */

/* Integer coordinates of IMAGE_LOAD / IMAGE_STORE at BASE_LEVEL (int_coords): p[l] for the
 * lanes of `exec` inside the level; returns those lanes. */
static uint64_t
int_texels_fast(const sim_wave *w, const sim_inst *in, const img *d, uint8_t *row0,
                uint64_t exec, uint8_t *p[64])
{
   const lvl *v = &d->view0;
   const uint32_t *xs = w->v[addr_vgpr(in, 0)];
   const uint32_t *ys = d->type == IMG_2D ? w->v[addr_vgpr(in, 1)] : zero_row;
   if (sim__lanes_sparse(exec)) {
      uint64_t in_level = 0;
      for (uint64_t m = exec; m; m &= m - 1) {
         unsigned l = (unsigned)__builtin_ctzll(m);
         if (xs[l] < v->w && ys[l] < v->h) {
            in_level |= 1ull << l;
            p[l] = lane_ptr1(row0, d, v, xs[l], ys[l]);
         }
      }
      return in_level;
   }
   uint32_t inside[64];
   for (unsigned l = 0; l < 64; l++)
      inside[l] = (xs[l] < v->w) & (ys[l] < v->h);
   lane_ptrs(row0, d, v, xs, ys, p);
   return sim__lanes_pack32(inside) & exec;
}

/* ---- Integer addressing (load / store) ------------------------------------------------- */

/* Lane l's texel address; false when the coordinates (or the mip level) are outside the
 * image. Without a mip operand the level is BASE_LEVEL; with one, BASE_LEVEL + mip. */
static bool
int_coords(const sim_wave *w, const sim_inst *in, const img *d, bool mip, unsigned l,
           uint64_t *addr)
{
   uint32_t m = mip ? addr_comp(w, in, d->ncoord, l) : 0;
   if (m >= d->nlevels)
      return false;
   lvl v = img_level(d, d->base_level + m);
   uint32_t x = addr_comp(w, in, 0, l), y = 0, slice = 0;
   switch (d->type) {
   case IMG_2D:
      y = addr_comp(w, in, 1, l);
      break;
   case IMG_3D:
      y = addr_comp(w, in, 1, l);
      slice = addr_comp(w, in, 2, l);
      if (slice >= v.dp)
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
   if (x >= v.w || y >= v.h)
      return false;
   *addr = texel_addr(d, &v, x, y, slice);
   return true;
}

/* The start of load_fast and store_fast: the texel of each lane of `exec` inside the level
 * (p; *inside, their mask) and the data rows; false when the fast path does not apply. */
static bool
fast_lanes(sim_wave *w, const sim_inst *in, const img *d, bool mip, uint64_t exec,
           uint8_t **p, uint64_t *inside, uint32_t **rows)
{
   uint8_t *row0 = !mip && fast_inst(in, d) ? d->row0 : NULL;
   if (!row0)
      return false;
   if (SIM_UNLIKELY(sim__mimg_counting))
      sim__mimg_fast_runs++;
   *inside = int_texels_fast(w, in, d, row0, exec, p);
   data_rows(w, in, rows);
   return true;
}

/* mimg_load's fast path (above "Wave-wide fast paths"): false when it does not apply. */
static bool
load_fast(sim_wave *w, const sim_inst *in, const img *d, bool mip, uint64_t exec)
{
   uint8_t *p[64];
   uint32_t *rows[4];
   uint64_t inside;
   if (!fast_lanes(w, in, d, mip, exec, p, &inside, rows))
      return false;
   sim__texel_read_lanes(&d->f, d->sel, eff_dmask(in), (const uint8_t *const *)p, inside,
                         rows);
   if (inside == exec)
      return true;
   uint32_t zero[4]; /* out of range: a zero texel */
   sim__texel_read(&d->f, d->sel, NULL, zero);
   for (uint64_t m = exec & ~inside; m; m &= m - 1)
      write_result(w, in, (unsigned)__builtin_ctzll(m), zero, d->f.is_int);
   return true;
}

static void
mimg_load(sim_wave *w, const sim_inst *in, unsigned conv, bool mip)
{
   uint64_t exec = SIM_EXEC(w);
   img local;
   const img *d = exec ? img_setup(w, in, conv, false, &local) : NULL;
   if (!d)
      return;
   bool status = in->mimg.bits & (SIM_MIMG_TFE | SIM_MIMG_LWE);
   if (!check_vgprs(w, in, d->ncoord + mip, data_dwords(in) + status))
      return;
   if (load_fast(w, in, d, mip, exec))
      return;
   for (unsigned l = 0; l < 64; l++) {
      if (!((exec >> l) & 1))
         continue;
      uint32_t comp[4];
      uint64_t addr;
      if (int_coords(w, in, d, mip, l, &addr)) {
         if (!texel_load(w, d, addr, comp))
            return;
      } else {
         sim__texel_read(&d->f, d->sel, NULL, comp); /* out of range: a zero texel */
      }
      write_result(w, in, l, comp, d->f.is_int);
   }
}

/* mimg_store's fast path (above "Wave-wide fast paths"): false when it does not apply. */
static bool
store_fast(sim_wave *w, const sim_inst *in, const img *d, bool mip, uint64_t exec)
{
   uint8_t *p[64];
   uint32_t *rows[4];
   uint64_t inside;
   if (!fast_lanes(w, in, d, mip, exec, p, &inside, rows))
      return false;
   sim__texel_write_lanes(&d->f, d->sel, eff_dmask(in), (const uint32_t *const *)rows, inside,
                          p);
   return true;
}

static void
mimg_store(sim_wave *w, const sim_inst *in, unsigned conv, bool mip)
{
   uint64_t exec = SIM_EXEC(w);
   img local;
   const img *d = exec ? img_setup(w, in, conv, true, &local) : NULL;
   if (!d)
      return;
   if (!check_vgprs(w, in, d->ncoord + mip, data_dwords(in)))
      return;
   if (store_fast(w, in, d, mip, exec))
      return;
   for (unsigned l = 0; l < 64; l++) {
      if (!((exec >> l) & 1))
         continue;
      uint64_t addr;
      if (!int_coords(w, in, d, mip, l, &addr))
         continue;
      uint32_t comp[4];
      read_store_data(w, in, d, l, comp);
      uint8_t *p = texel_ptr(w, d, addr, true);
      if (!p)
         return;
      sim__texel_write(&d->f, d->sel, comp, p);
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
   unsigned nd = dmask_bits(in->mimg.dmask);
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

/* ---- Sampler (S#) --------------------------------------------------------------------
 *   w0  [2:0] CLAMP_X, [5:3] CLAMP_Y, [8:6] CLAMP_Z, [14:12] DEPTH_COMPARE_FUNC,
 *       [15] FORCE_UNNORMALIZED
 *   w1  [11:0] MIN_LOD, [23:12] MAX_LOD (u4.8)
 *   w2  [13:0] LOD_BIAS (s5.8), [21:20] XY_MAG_FILTER, [23:22] XY_MIN_FILTER,
 *       [25:24] Z_FILTER, [27:26] MIP_FILTER
 *   w3  [31:30] BORDER_COLOR_TYPE
 */
typedef struct smp {
   unsigned clamp[3];
   bool unnorm;
   unsigned mag, min, z_filter, mip_filter, cmp_func, border_type;
   float min_lod, max_lod, lod_bias;
} smp;

/* SQ_TEX_MIP_FILTER_* */
enum { MIP_NONE = 0, MIP_POINT = 1, MIP_LINEAR = 2, MIP_POINT_ANISO_ADJ = 3 };

static bool
smp_decode(sim_wave *w, const sim_inst *in, smp *s)
{
   if (in->mimg.ssamp + 4 > 128)
      return unsupported(w, in, "S# at s%u runs past the SGPR file", in->mimg.ssamp);
   const uint32_t *r = &w->s[in->mimg.ssamp];
   for (unsigned k = 0; k < 3; k++)
      s->clamp[k] = (r[0] >> (3 * k)) & 7;
   s->cmp_func = (r[0] >> 12) & 7;
   s->unnorm = ((r[0] >> 15) & 1) || (in->mimg.bits & SIM_MIMG_UNORM);
   s->min_lod = (float)(r[1] & 0xFFF) / 256.0f;
   s->max_lod = (float)((r[1] >> 12) & 0xFFF) / 256.0f;
   s->lod_bias = (float)sext_bits(r[2] & 0x3FFF, 14) / 256.0f;
   s->mag = (r[2] >> 20) & 3; /* ANISO_POINT / ANISO_LINEAR act as their base filter */
   s->min = (r[2] >> 22) & 3;
   s->z_filter = (r[2] >> 24) & 3;
   s->mip_filter = (r[2] >> 26) & 3;
   s->border_type = r[3] >> 30;
   return true;
}

/* Border colours: transparent black, opaque black, opaque white, as (r, g, b, a); the T#'s
 * BC_SWIZZLE places them in the memory channels, then DST_SEL applies as for a texel (so a
 * format without alpha reads a border alpha of 1, as OpenCL's CLAMP wants). */
static void
border_colour(const sim_wave *w, const sim_inst *in, const img *d, unsigned border_type,
              uint32_t border[4])
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
   uint32_t one = one_value(d), rgba[4], ch[4];
   unsigned bc = w->s[in->mimg.srsrc + 4] >> 29;
   for (unsigned c = 0; c < 4; c++)
      rgba[c] = border_type == 2 || (border_type == 1 && c == 3) ? one : 0;
   for (unsigned c = 0; c < 4; c++)
      ch[c] = rgba[bc_perm[bc][c]];
   for (unsigned i = 0; i < 4; i++) {
      unsigned sl = d->sel[i];
      border[i] = sl >= SIM_SEL_X ? ch[sl - SIM_SEL_X] : sl == SIM_SEL_1 ? one : 0;
   }
}

/* ---- Sampling instructions ---------------------------------------------------------------
 * [ISA] 8.2 "Image instructions", "Image opcodes with a sampler": the address VGPRs hold, in
 * this order, the components each variant adds and then the body:
 *   _O   offset: one dword, texel offsets x [5:0], y [13:8], z [21:16] (6-bit signed), added
 *        to the unnormalised texel coordinate of the level sampled
 *   _B   bias (f32), added to the LOD
 *   _C   z-compare reference (f32)
 *   _D/_CD  user derivatives: d/dh of each filtered coordinate, then d/dv of each
 *   body  s (, t (, r)) then the array slice
 *   _L   LOD (f32) / _CL the minimum-LOD clamp (f32)
 * Without _L/_LZ/_D/_CD the derivatives are implicit: the differences between the lanes of
 * the lane's quad (lanes 4q..4q+3 as a 2x2 block: +1 is the right neighbour, +2 the one
 * below), per quad as the hardware's texture unit computes them for any shader stage
 * (inactive lanes' VGPRs take part). _CD derivatives are per quad too: the quad's first
 * lane's values serve its four lanes.
 *
 * LOD: lambda = log2(max(|d/dh|, |d/dv|)) of the texel-space derivative vectors at
 * BASE_LEVEL (isotropic: ANISO filters act as their base filter); + _B bias + S# LOD_BIAS
 * (_L: the given LOD + S# LOD_BIAS; _LZ: exactly 0); clamped to
 * [max(S# MIN_LOD, T# MIN_LOD, _CL clamp), S# MAX_LOD] (a NaN LOD becomes the lower bound).
 * LOD <= 0 selects XY_MAG_FILTER, otherwise XY_MIN_FILTER. MIP_FILTER: NONE samples
 * BASE_LEVEL; POINT (and POINT_ANISO_ADJ) the nearest level (floor(LOD + 0.5)); LINEAR the
 * two levels around the LOD, blended by its fraction; levels are clamped to
 * BASE_LEVEL..LAST_LEVEL.
 *
 * Depth compare (_C): each texel's first component (after DST_SEL) D is replaced by
 * (ref OP D) ? 1.0 : 0.0, OP the S#'s DEPTH_COMPARE_FUNC (NEVER, LESS, EQUAL, LESSEQUAL,
 * GREATER, NOTEQUAL, GREATEREQUAL, ALWAYS), before filtering; UNORM formats clamp the
 * reference to [0, 1] first. The result is returned in the first component, the others 0.
 *
 * GATHER4: the four texels of the bilinear footprint of the selected level (whatever the
 * XY filter), one component each — the one DMASK's single bit names — returned as
 * (i0, j1), (i1, j1), (i1, j0), (i0, j0) in four dwords (D16: two); with _C each is the
 * compare result. 2D images and 2D arrays only; a level is chosen as MIP_FILTER POINT
 * would (NONE: BASE_LEVEL). GATHER4H: the manual's "4x1" gather: four horizontally adjacent
 * texels of the point-sampled row, from the footprint's left column on, each through the
 * clamp mode.
 */
enum {
   SMP_C = 1u << 0,
   SMP_B = 1u << 1,
   SMP_L = 1u << 2,
   SMP_LZ = 1u << 3,
   SMP_D = 1u << 4,
   SMP_CD = 1u << 5,
   SMP_CL = 1u << 6,
   SMP_O = 1u << 7,
   SMP_GATHER = 1u << 8,
   SMP_GATHER_H = 1u << 9,
   SMP_GET_LOD = 1u << 10,
};

/* Where each address component of one lane is. */
typedef struct alayout {
   unsigned nextra;  /* 32-bit components before the derivatives: offset, bias, z-compare */
   unsigned nd;      /* filtered dimensions */
   unsigned nderiv;  /* 2 * nd with user derivatives */
   unsigned ncoord;  /* body: nd + array slice */
   unsigned nlod;    /* 1 with _L or _CL */
} alayout;

/* Component k of lane l: the extras are whole dwords; with A16 the rest are packed 16-bit
 * halves from the next dword on. */
static float
arg_float(const sim_wave *w, const sim_inst *in, const alayout *a, unsigned k, unsigned l)
{
   if (k < a->nextra || !(in->mimg.bits & SIM_MIMG_A16))
      return sim__as_f32(w->v[addr_vgpr(in, k)][l]);
   unsigned j = k - a->nextra;
   uint32_t h = (w->v[addr_vgpr(in, a->nextra + j / 2)][l] >> (16 * (j & 1))) & 0xFFFF;
   return sim__f16_to_f32(h);
}

static unsigned
arg_dwords(const sim_inst *in, const alayout *a)
{
   unsigned rest = a->nderiv + a->ncoord + a->nlod;
   return a->nextra + (in->mimg.bits & SIM_MIMG_A16 ? (rest + 1) / 2 : rest);
}

/* The filter state one lane samples with. */
typedef struct lane_lod {
   unsigned level[2]; /* absolute levels */
   float frac;        /* weight of level[1] */
   unsigned nlev;
   bool linear;       /* XY filter */
   bool z_linear;
} lane_lod;

static float
clampf(float x, float lo, float hi)
{
   x = fmaxf(x, lo); /* NaN -> lo */
   return fminf(x, hi);
}

/* Texel-space derivative lengths (squared) from the lane's derivative source. */
static float
lod_from_derivs(const float dh[3], const float dv[3], unsigned nd, const float scale[3])
{
   float rh = 0.0f, rv = 0.0f;
   for (unsigned i = 0; i < nd; i++) {
      float a = dh[i] * scale[i], b = dv[i] * scale[i];
      rh += a * a;
      rv += b * b;
   }
   return 0.5f * log2f(fmaxf(rh, rv));
}

/* Chooses levels and filters from the clamped LOD. */
static void
select_levels(const img *d, const smp *s, unsigned flags, float lod, lane_lod *o)
{
   unsigned xy = lod > 0.0f ? s->min : s->mag;
   o->linear = xy & 1;
   o->z_linear = d->type == IMG_3D && (s->z_filter == 2 || (s->z_filter == 0 && o->linear));
   unsigned top = d->nlevels - 1;
   o->nlev = 1;
   o->frac = 0.0f;
   unsigned mipf = s->mip_filter;
   if ((flags & (SMP_GATHER | SMP_GATHER_H)) && mipf == MIP_LINEAR)
      mipf = MIP_POINT;
   o->level[0] = o->level[1] = 0; /* MIP_NONE: BASE_LEVEL */
   if (mipf == MIP_LINEAR && lod > 0.0f) {
      float f = floorf(lod);
      unsigned l0 = f >= (float)top ? top : (unsigned)f;
      o->level[0] = l0;
      o->level[1] = l0 < top ? l0 + 1 : top;
      o->frac = lod - f;
      if (o->level[1] != l0 && o->frac > 0.0f)
         o->nlev = 2;
   } else if (mipf != MIP_NONE) {
      float r = floorf(lod + 0.5f);
      o->level[0] = r <= 0.0f ? 0 : r >= (float)top ? top : (unsigned)r;
   }
   o->level[0] += d->base_level;
   o->level[1] += d->base_level;
}

/* (ref OP texel) for S# DEPTH_COMPARE_FUNC. */
static float
depth_compare(unsigned func, float ref, float t)
{
   bool r;
   switch (func) {
   case 0: r = false; break;
   case 1: r = ref < t; break;
   case 2: r = ref == t; break;
   case 3: r = ref <= t; break;
   case 4: r = ref > t; break;
   case 5: r = ref != t; break;
   case 6: r = ref >= t; break;
   default: r = true; break;
   }
   return r ? 1.0f : 0.0f;
}

/* Everything one sampling instruction shares across its lanes. */
typedef struct sctx {
   img d;
   smp s;
   alayout a;
   unsigned flags;
   bool arrayed;
   uint32_t border[4];
   bool lod_free;  /* the LOD cannot change what is sampled: ll0 is every lane's */
   lane_lod ll0;
} sctx;

/* A sampling instruction's whole set-up (sample_setup, with its `direct`): kept for the
 * instruction, its T# and S# dwords and the dispatch, as `direct` is. */
#define SMP_MEMOS 2
typedef struct smp_memo {
   const sim_inst *in; /* NULL: empty */
   uint32_t t[8], s[4];
   unsigned flags;
   const sim_target *target;
   sctx c;
} smp_memo;

struct sim_mimg_memo {
   img_memo e[IMG_MEMOS];
   unsigned next; /* the entry a miss replaces */
   smp_memo smp[SMP_MEMOS];
   unsigned snext;
};

void
sim__mimg_memo_free(struct sim_mimg_memo *m)
{
   free(m);
}

void
sim__mimg_memo_begin(struct sim_mimg_memo *m)
{
   if (!m)
      return;
   for (unsigned i = 0; i < IMG_MEMOS; i++)
      m->e[i].din = NULL;
   for (unsigned i = 0; i < SMP_MEMOS; i++)
      m->smp[i].in = NULL;
}

/* The home's memo, made on its first image instruction; NULL without host memory (then
 * nothing is kept). */
static struct sim_mimg_memo *
memo_of(sim_wave *w)
{
   sim_wg *wg = w->wg;
   if (!wg)
      return NULL;
   if (SIM_UNLIKELY(!wg->mimg))
      wg->mimg = calloc(1, sizeof(*wg->mimg));
   return wg->mimg;
}

/* The memo entry of the T# `in` names (decoded now if no entry has it); NULL with *ok set
 * when there is no memo (no host memory), with *ok clear after a fault. The T# lies in the
 * SGPR file (img_decode checks). */
static img_memo *
img_memo_find(sim_wave *w, const sim_inst *in, unsigned conv, bool *ok)
{
   struct sim_mimg_memo *mm = memo_of(w);
   *ok = true;
   if (!mm)
      return NULL;
   const uint32_t *t = &w->s[in->mimg.srsrc];
   for (unsigned i = 0; i < IMG_MEMOS; i++) {
      img_memo *m = &mm->e[i];
      if (m->target == w->target && m->conv == conv && !memcmp(m->t, t, sizeof(m->t)))
         return m;
   }
   img d;
   if (!img_decode_t(w, in, conv, &d)) {
      *ok = false;
      return NULL;
   }
   img_memo *m = &mm->e[mm->next];
   mm->next = (mm->next + 1) % IMG_MEMOS;
   memcpy(m->t, t, sizeof(m->t));
   m->conv = conv;
   m->target = w->target;
   m->d = d;
   m->din = NULL;
   return m;
}

/* The texel (x, y, z) of level v (-1 in any index: the border colour). */
static bool
fetch(sim_wave *w, const sctx *c, const lvl *v, int64_t x, int64_t y, int64_t z,
      uint32_t layer, uint32_t tex[4])
{
   if (x < 0 || y < 0 || z < 0) {
      memcpy(tex, c->border, 4 * sizeof(uint32_t));
      return true;
   }
   uint32_t slice = c->arrayed ? layer : (uint32_t)z;
   return texel_load(w, &c->d, texel_addr(&c->d, v, (uint32_t)x, (uint32_t)y, slice), tex);
}

/* The taps of every filtered dimension at level v: u[k] the normalised (or unnormalised)
 * coordinate, off[k] the texel offset. */
static void
level_taps(const sctx *c, const lvl *v, const float u[3], const int off[3], bool linear,
           bool z_linear, tap t[3])
{
   uint32_t size[3] = {v->w, v->h, v->dp};
   for (unsigned k = 0; k < 3; k++) {
      if (k < c->a.nd) {
         float x = c->s.unnorm ? u[k] : u[k] * (float)size[k];
         make_tap(x + (float)off[k], size[k], c->s.clamp[k], k < 2 ? linear : z_linear,
                  &t[k]);
      } else {
         t[k].i[0] = 0;
         t[k].wt[0] = 1.0f;
         t[k].n = 1;
      }
   }
}

/* Filtered sample of one level. `raw` receives the texel's bits when a single texel is
 * taken without compare (point sampling keeps integers, -0 and NaN); otherwise acc. */
static bool
sample_level(sim_wave *w, const sctx *c, unsigned level, const float u[3], const int off[3],
             uint32_t layer, const lane_lod *ll, float zref, float acc[4], uint32_t raw[4],
             bool *single)
{
   lvl v = img_level(&c->d, level);
   tap t[3];
   level_taps(c, &v, u, off, ll->linear, ll->z_linear, t);
   bool cmp = c->flags & SMP_C;
   *single = t[0].n * t[1].n * t[2].n == 1 && !cmp;
   for (unsigned i = 0; i < 4; i++)
      acc[i] = 0.0f;
   if (*single) /* straight into raw: no copy of the texel just stored */
      return fetch(w, c, &v, t[0].i[0], t[1].i[0], t[2].i[0], layer, raw);
   for (unsigned a = 0; a < t[2].n; a++)
      for (unsigned b = 0; b < t[1].n; b++)
         for (unsigned e = 0; e < t[0].n; e++) {
            uint32_t tex[4];
            if (!fetch(w, c, &v, t[0].i[e], t[1].i[b], t[2].i[a], layer, tex))
               return false;
            float wt = t[0].wt[e] * t[1].wt[b] * t[2].wt[a];
            if (cmp) {
               acc[0] += wt * depth_compare(c->s.cmp_func, zref, sim__as_f32(tex[0]));
               continue;
            }
            if (wt != 0.0f)
               for (unsigned i = 0; i < 4; i++)
                  acc[i] += wt * sim__as_f32(tex[i]);
         }
   return true;
}

/* The four texels of a gather at level `level` (GATHER4: the bilinear footprint;
 * GATHER4H: four along the row). */
static bool
gather_level(sim_wave *w, const sctx *c, unsigned level, const float u[3], const int off[3],
             uint32_t layer, float zref, unsigned comp_i, uint32_t out[4])
{
   lvl v = img_level(&c->d, level);
   tap t[3];
   level_taps(c, &v, u, off, true, false, t);
   int64_t xs[4], ys[4];
   if (c->flags & SMP_GATHER_H) {
      tap pt[3];
      level_taps(c, &v, u, off, false, false, pt);
      float x = c->s.unnorm ? u[0] : u[0] * (float)v.w;
      x += (float)off[0];
      /* Left column of the bilinear footprint, then the next three through the clamp mode
       * (make_tap gives wrapped indices of i0 and i0 + 1 only). */
      double q = nearbyint(((double)x - 0.5) * (1 << SUBTEXEL_BITS));
      int64_t i0 = (int64_t)floor(q / (1 << SUBTEXEL_BITS));
      for (unsigned k = 0; k < 4; k++) {
         xs[k] = wrap_index(i0 + k, v.w, c->s.clamp[0], false);
         ys[k] = pt[1].i[0];
      }
   } else {
      /* (i0, j1), (i1, j1), (i1, j0), (i0, j0) */
      static const uint8_t xi[4] = {0, 1, 1, 0}, yi[4] = {1, 1, 0, 0};
      for (unsigned k = 0; k < 4; k++) {
         xs[k] = t[0].i[xi[k]];
         ys[k] = t[1].i[yi[k]];
      }
   }
   for (unsigned k = 0; k < 4; k++) {
      uint32_t tex[4];
      if (!fetch(w, c, &v, xs[k], ys[k], 0, layer, tex))
         return false;
      out[k] = c->flags & SMP_C
                  ? sim__as_u32(depth_compare(c->s.cmp_func, zref, sim__as_f32(tex[0])))
                  : tex[comp_i];
   }
   return true;
}

/* Coordinates (body) of lane l, as floats. */
static void
lane_coords(const sim_wave *w, const sim_inst *in, const alayout *a, unsigned l, float u[4])
{
   unsigned k0 = a->nextra + a->nderiv;
   for (unsigned k = 0; k < a->ncoord; k++)
      u[k] = arg_float(w, in, a, k0 + k, l);
}

/* LOD of lane l before clamping (the "unclamped" LOD). */
static float
lane_raw_lod(const sim_wave *w, const sim_inst *in, const sctx *c, unsigned l)
{
   const alayout *a = &c->a;
   unsigned f = c->flags;
   if (f & SMP_LZ)
      return 0.0f;
   if (f & SMP_L)
      return arg_float(w, in, a, a->nextra + a->nderiv + a->ncoord, l) + c->s.lod_bias;
   float dh[3] = {0, 0, 0}, dv[3] = {0, 0, 0};
   if (f & (SMP_D | SMP_CD)) {
      unsigned src = f & SMP_CD ? l & ~3u : l;
      for (unsigned i = 0; i < a->nd; i++) {
         dh[i] = arg_float(w, in, a, a->nextra + i, src);
         dv[i] = arg_float(w, in, a, a->nextra + a->nd + i, src);
      }
   } else {
      unsigned q = l & ~3u;
      float u0[4], u1[4], u2[4];
      lane_coords(w, in, a, q, u0);
      lane_coords(w, in, a, q + 1, u1);
      lane_coords(w, in, a, q + 2, u2);
      for (unsigned i = 0; i < a->nd; i++) {
         dh[i] = u1[i] - u0[i];
         dv[i] = u2[i] - u0[i];
      }
   }
   const lvl *b = &c->d.view0;
   float scale[3] = {(float)b->w, (float)b->h, (float)b->dp};
   if (c->s.unnorm)
      scale[0] = scale[1] = scale[2] = 1.0f;
   float lod = lod_from_derivs(dh, dv, a->nd, scale);
   if (f & SMP_B)
      lod += arg_float(w, in, a, (f & SMP_O) ? 1 : 0, l);
   return lod + c->s.lod_bias;
}

static float
lane_clamped_lod(const sim_wave *w, const sim_inst *in, const sctx *c, unsigned l, float raw)
{
   float lo = fmaxf(c->s.min_lod, c->d.min_lod);
   if (c->flags & SMP_CL)
      lo = fmaxf(lo, arg_float(w, in, &c->a, c->a.nextra + c->a.nderiv + c->a.ncoord, l));
   return clampf(raw, lo, c->s.max_lod);
}

/* Decodes T#, S# and the address layout; faults on what is not modelled. */
static bool
sample_setup(sim_wave *w, const sim_inst *in, unsigned flags, sctx *c)
{
   if (!img_decode(w, in, CONV_FORMAT, &c->d) || !smp_decode(w, in, &c->s))
      return false;
   img *d = &c->d;
   c->flags = flags;
   if (d->buffer)
      return unsupported(w, in, "sampling a buffer resource");
   static const uint8_t nfilt[] = {1, 2, 3, 0, 1, 2}; /* filtered dimensions per type */
   c->arrayed = d->type == IMG_1D_ARRAY || d->type == IMG_2D_ARRAY;
   alayout *a = &c->a;
   a->nd = nfilt[d->type - IMG_1D];
   a->nextra = !!(flags & SMP_O) + !!(flags & SMP_B) + !!(flags & SMP_C);
   a->nderiv = flags & (SMP_D | SMP_CD) ? 2 * a->nd : 0;
   a->ncoord = a->nd + c->arrayed;
   a->nlod = !!(flags & (SMP_L | SMP_CL));
   if ((flags & (SMP_D | SMP_CD)) && (in->mimg.bits & SIM_MIMG_A16))
      return unsupported(w, in, "A16 with user derivatives not supported");
   if ((flags & (SMP_GATHER | SMP_GATHER_H)) && d->type != IMG_2D && d->type != IMG_2D_ARRAY)
      return unsupported(w, in, "gather4 of a %s image (2D and 2D arrays only)",
                         type_name(d->type));
   if ((flags & (SMP_GATHER | SMP_GATHER_H | SMP_GET_LOD)) == 0 && d->f.is_int &&
       ((c->s.mag | c->s.min) & 1 || c->s.mip_filter == MIP_LINEAR ||
        (d->type == IMG_3D && c->s.z_filter == 2)))
      return unsupported(w, in, "linear filtering of an integer image format (NUM_FORMAT %u)",
                         d->f.conv);
   if ((flags & SMP_C) && d->f.is_int)
      return unsupported(w, in, "depth compare on an integer image format");
   bool any_border = false;
   for (unsigned k = 0; k < a->nd; k++)
      any_border |= is_border_mode(c->s.clamp[k]);
   if (any_border && c->s.border_type == 3)
      return unsupported(w, in, "S# BORDER_COLOR_TYPE 3 (border colour table) not supported");
   border_colour(w, in, d, c->s.border_type, c->border);
   img_direct(w, in, d, false);
   /* One XY filter whatever the LOD, and one level: the LOD selects nothing, and sampling
    * skips computing it (its derivatives read three other lanes' coordinates). */
   c->lod_free = !(flags & (SMP_GATHER | SMP_GATHER_H | SMP_GET_LOD)) &&
                 c->s.min == c->s.mag && (c->s.mip_filter == MIP_NONE || d->nlevels == 1);
   if (c->lod_free)
      select_levels(d, &c->s, flags, 0.0f, &c->ll0);
   return true;
}

/* sample_setup through the home's memo: the set-up kept for this instruction, its T# and S#
 * dwords and the dispatch, else made now (into the memo, or `local` without one); NULL
 * after a fault. */
static const sctx *
sample_setup_memo(sim_wave *w, const sim_inst *in, unsigned flags, sctx *local)
{
   struct sim_mimg_memo *mm = memo_of(w);
   if (!mm || in->mimg.srsrc + 8 > 128 || in->mimg.ssamp + 4 > 128)
      return sample_setup(w, in, flags, local) ? local : NULL;
   const uint32_t *t = &w->s[in->mimg.srsrc], *r = &w->s[in->mimg.ssamp];
   for (unsigned i = 0; i < SMP_MEMOS; i++) {
      const smp_memo *m = &mm->smp[i];
      if (m->in == in && m->flags == flags && m->target == w->target &&
          !memcmp(m->t, t, sizeof(m->t)) && !memcmp(m->s, r, sizeof(m->s)))
         return &m->c;
   }
   smp_memo *m = &mm->smp[mm->snext];
   m->in = NULL;
   if (!sample_setup(w, in, flags, &m->c))
      return NULL;
   mm->snext = (mm->snext + 1) % SMP_MEMOS;
   m->in = in;
   m->flags = flags;
   m->target = w->target;
   memcpy(m->t, t, sizeof(m->t));
   memcpy(m->s, r, sizeof(m->s));
   return &m->c;
}

/* Lane l's texel offsets and array layer. */
static void
lane_offsets(const sim_wave *w, const sim_inst *in, const sctx *c, unsigned l, int off[3])
{
   off[0] = off[1] = off[2] = 0;
   if (!(c->flags & SMP_O))
      return;
   uint32_t o = w->v[addr_vgpr(in, 0)][l];
   for (unsigned k = 0; k < c->a.nd; k++)
      off[k] = sext_bits((o >> (8 * k)) & 0x3F, 6);
}

static uint32_t
lane_layer(const sctx *c, const float u[4])
{
   if (!c->arrayed)
      return 0;
   const img *d = &c->d;
   float r = u[c->a.nd];
   float top = (float)(d->last_array >= d->base_array ? d->last_array - d->base_array : 0);
   r = r != r ? 0.0f : rintf(r);
   r = r < 0.0f ? 0.0f : r > top ? top : r;
   return d->base_array + (uint32_t)r;
}

static float
lane_zref(const sim_wave *w, const sim_inst *in, const sctx *c, unsigned l)
{
   if (!(c->flags & SMP_C))
      return 0.0f;
   float z = arg_float(w, in, &c->a, !!(c->flags & SMP_O) + !!(c->flags & SMP_B), l);
   if (c->d.f.conv == SIM_NFMT_UNORM)
      z = clampf(z, 0.0f, 1.0f);
   return z;
}

/* Point-sampled texel index of every lane along one dimension of `size` texels under a
 * clamp or border mode (CLAMP_LAST_TEXEL up): make_tap's without a texel offset, -1 for the
 * border. Half-border modes clamp a point sample to the edge as CLAMP_LAST_TEXEL does.
 * Clamping the texel coordinate to [-1, size] keeps every index on its side of the edges
 * (below -1 floors below 0, past size to size or more) and makes the 16.8 fixed-point
 * value at most 2^22 in magnitude, where adding and subtracting 1.5 * 2^23 is
 * nearbyint's round-to-nearest-even without a call; the floor is a shift. */
typedef struct point_axis {
   float fs, scale;
   uint32_t sign;
   int32_t top, lo, hi;
} point_axis;

static inline point_axis
point_axis_of(uint32_t size, unsigned mode, bool unnorm)
{
   bool mirror = mode == TEX_MIRROR_ONCE_LAST_TEXEL || mode == TEX_MIRROR_ONCE_HALF_BORDER ||
                 mode == TEX_MIRROR_ONCE_BORDER;
   bool outside = mode == TEX_CLAMP_BORDER || mode == TEX_MIRROR_ONCE_BORDER;
   point_axis a;
   a.fs = (float)size;
   a.scale = unnorm ? 1.0f : a.fs;
   a.sign = mirror ? 0x7FFFFFFFu : 0xFFFFFFFFu; /* fabsf: the sign bit cleared */
   a.top = (int32_t)size - 1;
   /* Border: -1 outside; clamp: the nearest edge texel. */
   a.lo = outside ? -1 : 0;
   a.hi = outside ? -1 : a.top;
   return a;
}

/* One lane's index (the sparse paths'); point_index_lanes computes the same four lanes at a
 * time. */
static inline int32_t
point_index1(point_axis a, uint32_t u)
{
   float x = sim__as_f32(sim__as_u32(sim__as_f32(u) * a.scale) & a.sign);
   x = x != x ? 0.0f : x;
   x = x < -1.0f ? -1.0f : x;
   x = x > a.fs ? a.fs : x;
   float q = (x * (1 << SUBTEXEL_BITS) + 12582912.0f) - 12582912.0f;
   int32_t i = (int32_t)q >> SUBTEXEL_BITS;
   return i < 0 ? a.lo : i > a.top ? a.hi : i;
}

static void
point_index_lanes(const uint32_t *restrict u, uint32_t size, unsigned mode, bool unnorm,
                  int32_t *restrict idx)
{
   /* point_index1 four lanes at a time in GCC's vector types: written as a loop over
    * point_index1, GCC versioned it on the clamps' bounds and ran a scalar copy with
    * branches (12% of CTS imagedim_non_pow2's time). */
   typedef float f4 __attribute__((vector_size(16)));
   typedef int32_t i4 __attribute__((vector_size(16)));
   point_axis a = point_axis_of(size, mode, unnorm);
   const f4 scale = {a.scale, a.scale, a.scale, a.scale}, fs = {a.fs, a.fs, a.fs, a.fs};
   const f4 m1 = {-1.0f, -1.0f, -1.0f, -1.0f}, sub = {256.0f, 256.0f, 256.0f, 256.0f};
   const f4 rnd = {12582912.0f, 12582912.0f, 12582912.0f, 12582912.0f};
   const i4 sign = {(int32_t)a.sign, (int32_t)a.sign, (int32_t)a.sign, (int32_t)a.sign};
   const i4 top = {a.top, a.top, a.top, a.top}, lo = {a.lo, a.lo, a.lo, a.lo};
   const i4 hi = {a.hi, a.hi, a.hi, a.hi};
   _Static_assert(1 << SUBTEXEL_BITS == 256, "sub is 2^SUBTEXEL_BITS");
   for (unsigned l = 0; l < 64; l += 4) {
      f4 x;
      memcpy(&x, u + l, sizeof(x));
      x = (f4)((i4)(x * scale) & sign);
      x = (f4)((i4)x & (x == x)); /* NaN: 0 */
      i4 below = x < m1, above = x > fs;
      x = (f4)(((i4)x & ~below) | ((i4)m1 & below));
      x = (f4)(((i4)x & ~above) | ((i4)fs & above));
      f4 q = (x * sub + rnd) - rnd;
      i4 i = __builtin_convertvector(q, i4) >> SUBTEXEL_BITS;
      i4 neg = i < 0, over = i > top;
      i = (i & ~(neg | over)) | (lo & neg) | (hi & over);
      memcpy(idx + l, &i, sizeof(i));
   }
}

/* mimg_sample's fast path (above "Wave-wide fast paths"): false when it does not apply. */
static bool
sample_fast(sim_wave *w, const sim_inst *in, const sctx *c, uint64_t exec)
{
   if (!fast_inst(in, &c->d) || !c->lod_free || c->ll0.linear ||
       (c->flags & (SMP_C | SMP_O | SMP_GATHER | SMP_GATHER_H | SMP_GET_LOD)))
      return false;
   for (unsigned k = 0; k < c->a.nd; k++)
      if (c->s.clamp[k] < TEX_CLAMP_LAST_TEXEL)
         return false;
   const img *d = &c->d;
   lvl v = img_level(d, c->ll0.level[0]);
   uint8_t *row0 = c->ll0.level[0] == d->base_level ? d->row0 : level_view(d, &v);
   if (!row0)
      return false;
   if (SIM_UNLIKELY(sim__mimg_counting))
      sim__mimg_fast_runs++;
   unsigned k0 = c->a.nextra + c->a.nderiv;
   uint8_t *p[64];
   uint64_t border = 0;
   if (sim__lanes_sparse(exec)) {
      point_axis ax = point_axis_of(v.w, c->s.clamp[0], c->s.unnorm);
      point_axis ay = point_axis_of(v.h, c->a.nd > 1 ? c->s.clamp[1] : 0, c->s.unnorm);
      const uint32_t *us = w->v[addr_vgpr(in, k0)];
      const uint32_t *vs = c->a.nd > 1 ? w->v[addr_vgpr(in, k0 + 1)] : NULL;
      for (uint64_t m = exec; m; m &= m - 1) {
         unsigned l = (unsigned)__builtin_ctzll(m);
         int32_t x = point_index1(ax, us[l]), y = vs ? point_index1(ay, vs[l]) : 0;
         if ((x | y) < 0)
            border |= 1ull << l;
         else
            p[l] = lane_ptr1(row0, d, &v, (uint32_t)x, (uint32_t)y);
      }
   } else {
      int32_t xs[64], ys[64];
      point_index_lanes(w->v[addr_vgpr(in, k0)], v.w, c->s.clamp[0], c->s.unnorm, xs);
      if (c->a.nd > 1)
         point_index_lanes(w->v[addr_vgpr(in, k0 + 1)], v.h, c->s.clamp[1], c->s.unnorm, ys);
      else
         memset(ys, 0, sizeof(ys));
      uint32_t out[64];
      for (unsigned l = 0; l < 64; l++)
         out[l] = (xs[l] | ys[l]) < 0;
      border = sim__lanes_pack32(out) & exec;
      lane_ptrs(row0, d, &v, (const uint32_t *)xs, (const uint32_t *)ys, p);
   }
   uint32_t *rows[4];
   data_rows(w, in, rows);
   sim__texel_read_lanes(&d->f, d->sel, eff_dmask(in), (const uint8_t *const *)p,
                         exec & ~border, rows);
   for (; border; border &= border - 1)
      write_result(w, in, (unsigned)__builtin_ctzll(border), c->border, false);
   return true;
}

/* One lane of IMAGE_SAMPLE*: filtered result into comp, false after a fault. */
static bool
sample_lane(sim_wave *w, const sim_inst *in, const sctx *c, unsigned l, uint32_t comp[4])
{
   float u[4];
   int off[3];
   lane_coords(w, in, &c->a, l, u);
   lane_offsets(w, in, c, l, off);
   uint32_t layer = lane_layer(c, u);
   float zref = lane_zref(w, in, c, l);
   lane_lod ll = c->ll0;
   if (!c->lod_free) {
      float lod = lane_clamped_lod(w, in, c, l, lane_raw_lod(w, in, c, l));
      select_levels(&c->d, &c->s, c->flags, lod, &ll);
   }
   float acc[2][4] = {{0}};
   uint32_t raw[2][4];
   bool single[2];
   for (unsigned k = 0; k < ll.nlev; k++)
      if (!sample_level(w, c, ll.level[k], u, off, layer, &ll, zref, acc[k], raw[k],
                        &single[k]))
         return false;
   if (ll.nlev == 1 && single[0]) {
      memcpy(comp, raw[0], sizeof(raw[0]));
      return true;
   }
   /* A point-sampled level's value is its texel. */
   for (unsigned k = 0; k < ll.nlev; k++)
      if (single[k])
         for (unsigned i = 0; i < 4; i++)
            acc[k][i] = sim__as_f32(raw[k][i]);
   for (unsigned i = 0; i < 4; i++) {
      float v = acc[0][i];
      if (ll.nlev == 2)
         v = acc[0][i] * (1.0f - ll.frac) + acc[1][i] * ll.frac;
      comp[i] = sim__as_u32(v);
   }
   if (c->flags & SMP_C)
      comp[1] = comp[2] = comp[3] = 0;
   return true;
}

static void
mimg_sample(sim_wave *w, const sim_inst *in, unsigned flags)
{
   uint64_t exec = SIM_EXEC(w);
   sctx local;
   const sctx *c = exec ? sample_setup_memo(w, in, flags, &local) : NULL;
   if (!c)
      return;
   bool status = in->mimg.bits & (SIM_MIMG_TFE | SIM_MIMG_LWE);
   bool gather = flags & (SMP_GATHER | SMP_GATHER_H);
   unsigned ndata = gather ? (in->mimg.bits & SIM_MIMG_D16 ? 2 : 4) : data_dwords(in);
   if (flags & SMP_GET_LOD)
      ndata = data_dwords(in);
   if (!check_vgpr_dwords(w, in, arg_dwords(in, &c->a), ndata + status))
      return;
   if (gather && dmask_bits(in->mimg.dmask) > 1) {
      unsupported(w, in, "gather4 DMASK 0x%x: one component", in->mimg.dmask);
      return;
   }
   if (sample_fast(w, in, c, exec))
      return;
   unsigned comp_i = (unsigned)__builtin_ctz(eff_dmask(in));
   for (unsigned l = 0; l < 64; l++) {
      if (!((exec >> l) & 1))
         continue;
      uint32_t comp[4];
      if (flags & SMP_GET_LOD) {
         /* IMAGE_GET_LOD: x = the LOD clamped as sampling clamps it, and to the view's
          * levels; y = the unclamped LOD. */
         float raw = lane_raw_lod(w, in, c, l);
         float lod = clampf(lane_clamped_lod(w, in, c, l, raw), 0.0f,
                            c->s.mip_filter == MIP_NONE ? 0.0f : (float)(c->d.nlevels - 1));
         comp[0] = sim__as_u32(lod);
         comp[1] = sim__as_u32(raw);
         comp[2] = comp[3] = 0;
         write_result(w, in, l, comp, false);
         continue;
      }
      if (gather) {
         float u[4];
         int off[3];
         lane_coords(w, in, &c->a, l, u);
         lane_offsets(w, in, c, l, off);
         float lod = lane_clamped_lod(w, in, c, l, lane_raw_lod(w, in, c, l));
         lane_lod ll;
         select_levels(&c->d, &c->s, flags, lod, &ll);
         if (!gather_level(w, c, ll.level[0], u, off, lane_layer(c, u),
                           lane_zref(w, in, c, l), comp_i, comp))
            return;
         write_masked(w, in, l, comp, c->d.f.is_int && !(flags & SMP_C), 0xF);
         continue;
      }
      if (!sample_lane(w, in, c, l, comp))
         return;
      write_result(w, in, l, comp, c->d.f.is_int && !(flags & SMP_C));
   }
}

/* IMAGE_SAMPLE{_C}{_D,_CD}{_B,_L,_LZ}{_CL}{_O}: VDATA = the filtered sample (above). */
#define SAMPLE(name, flags)                                                                 \
   void sim__op_image_##name(sim_wave *w, const sim_inst *in)                               \
   {                                                                                        \
      mimg_sample(w, in, flags);                                                            \
   }
#define SAMPLE_O(name, flags) SAMPLE(name, flags) SAMPLE(name##_o, (flags) | SMP_O)
SAMPLE_O(sample, 0)
SAMPLE_O(sample_cl, SMP_CL)
SAMPLE_O(sample_d, SMP_D)
SAMPLE_O(sample_d_cl, SMP_D | SMP_CL)
SAMPLE_O(sample_cd, SMP_CD)
SAMPLE_O(sample_cd_cl, SMP_CD | SMP_CL)
SAMPLE_O(sample_l, SMP_L)
SAMPLE_O(sample_b, SMP_B)
SAMPLE_O(sample_b_cl, SMP_B | SMP_CL)
SAMPLE_O(sample_lz, SMP_LZ)
SAMPLE_O(sample_c, SMP_C)
SAMPLE_O(sample_c_cl, SMP_C | SMP_CL)
SAMPLE_O(sample_c_d, SMP_C | SMP_D)
SAMPLE_O(sample_c_d_cl, SMP_C | SMP_D | SMP_CL)
SAMPLE_O(sample_c_cd, SMP_C | SMP_CD)
SAMPLE_O(sample_c_cd_cl, SMP_C | SMP_CD | SMP_CL)
SAMPLE_O(sample_c_l, SMP_C | SMP_L)
SAMPLE_O(sample_c_b, SMP_C | SMP_B)
SAMPLE_O(sample_c_b_cl, SMP_C | SMP_B | SMP_CL)
SAMPLE_O(sample_c_lz, SMP_C | SMP_LZ)
/* IMAGE_GATHER4{_C}{_B,_L,_LZ}{_CL}{_O}, IMAGE_GATHER4H: VDATA = four texels (above). */
SAMPLE_O(gather4, SMP_GATHER)
SAMPLE_O(gather4_cl, SMP_GATHER | SMP_CL)
SAMPLE_O(gather4_l, SMP_GATHER | SMP_L)
SAMPLE_O(gather4_b, SMP_GATHER | SMP_B)
SAMPLE_O(gather4_b_cl, SMP_GATHER | SMP_B | SMP_CL)
SAMPLE_O(gather4_lz, SMP_GATHER | SMP_LZ)
SAMPLE_O(gather4_c, SMP_GATHER | SMP_C)
SAMPLE_O(gather4_c_cl, SMP_GATHER | SMP_C | SMP_CL)
SAMPLE_O(gather4_c_l, SMP_GATHER | SMP_C | SMP_L)
SAMPLE_O(gather4_c_b, SMP_GATHER | SMP_C | SMP_B)
SAMPLE_O(gather4_c_b_cl, SMP_GATHER | SMP_C | SMP_B | SMP_CL)
SAMPLE_O(gather4_c_lz, SMP_GATHER | SMP_C | SMP_LZ)
SAMPLE(gather4h, SMP_GATHER_H)
/* IMAGE_GET_LOD: VDATA = (clamped LOD, unclamped LOD) of the coordinates (above). */
SAMPLE(get_lod, SMP_GET_LOD)

/* IMAGE_GET_RESINFO: VDATA = (width, height, depth or layers, levels) of mip level
 * VADDR[0] (relative to BASE_LEVEL): 1D arrays put the layer count in y, 2D arrays in z;
 * components a type lacks read 0; the level count is LAST_LEVEL - BASE_LEVEL + 1; a level
 * past the last reads 0 sizes. Integers (D16: low 16 bits). No sampler. */
void
sim__op_image_get_resinfo(sim_wave *w, const sim_inst *in)
{
   uint64_t exec = SIM_EXEC(w);
   img d;
   if (!exec || !img_decode(w, in, CONV_FORMAT, &d))
      return;
   if (d.buffer) {
      unsupported(w, in, "image_get_resinfo of a buffer resource");
      return;
   }
   bool status = in->mimg.bits & (SIM_MIMG_TFE | SIM_MIMG_LWE);
   if (!check_vgprs(w, in, 1, data_dwords(in) + status))
      return;
   uint32_t layers = d.last_array >= d.base_array ? d.last_array - d.base_array + 1 : 1;
   for (unsigned l = 0; l < 64; l++) {
      if (!((exec >> l) & 1))
         continue;
      uint32_t m = addr_comp(w, in, 0, l), comp[4] = {0, 0, 0, d.nlevels};
      if (m < d.nlevels) {
         lvl v = img_level(&d, d.base_level + m);
         comp[0] = v.w;
         switch (d.type) {
         case IMG_2D: comp[1] = v.h; break;
         case IMG_3D: comp[1] = v.h; comp[2] = v.dp; break;
         case IMG_1D_ARRAY: comp[1] = layers; break;
         case IMG_2D_ARRAY: comp[1] = v.h; comp[2] = layers; break;
         default: break;
         }
      }
      write_result(w, in, l, comp, true);
   }
}
