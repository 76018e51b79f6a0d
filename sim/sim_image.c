/*
 * sim/sim_image.c — the HSA image extension (HSA Runtime PRM chapter 3 "Images and
 * samplers", hsa_ext_image.h) of the software runtime, behaving like AMD's ROCr 5.2 image
 * extension on a gfx906 agent so that a driver needs no runtime-specific code:
 *
 *  - Capabilities, element sizes and hardware formats per (channel order, channel type,
 *    geometry) are those of ROCr's gfx9 format table; the image size limits are ROCr's
 *    (1D 16384, 2D 16384^2, 3D 16384^2 x 8192, arrays 8192 layers, 1D buffer 2^32 - 1).
 *  - An image handle is the address of a 48-byte descriptor in kernarg (system, GPU
 *    visible) memory: dwords 0-7 the GFX9 image resource (T#) — or for 1D buffer images a
 *    buffer resource (V#) in dwords 0-3 — then dword 8 the HSA channel type, 9 the HSA
 *    channel order, 10 the width (what the ROCm device library's get_image_channel_*
 *    and get_image_width read), 11 zero. The words are written field by field exactly as
 *    ROCr's gfx9 image manager writes them (including its truncations: a 0 height or depth
 *    gives an all-ones field, the V# INDEX_STRIDE keeps the element size's low 2 bits).
 *  - A sampler handle is the address of a 32-byte S# (dwords 0-3, 4-7 zero): clamp mode
 *    on X, Y, Z, FORCE_UNNORMALIZED, MAX_LOD 4095, point or bilinear XY filter, no mip or
 *    Z filter, transparent black border.
 *  - Layout: every image is linear (SW_MODE 0). Sizes follow the gfx9 address library's
 *    linear rule: a row is the width rounded up to 256 bytes' worth of texels (or the row
 *    pitch given with HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, which must be such a multiple and
 *    at least that), 1D types have one row per slice, alignment 256. With
 *    HSA_EXT_IMAGE_DATA_LAYOUT_OPAQUE ROCr picks a tiled gfx9 swizzle mode; this runtime
 *    stays linear there (its sizes and descriptors for opaque images differ from ROCr's;
 *    a driver that wants identical behaviour creates linear images, see docs/images.md).
 *  - Import, export, copy and clear run on the host, texel by texel, with the results ROCr's
 *    blit kernels give: raw texel copies (formats are not converted, texels outside the
 *    image read as zero and are not written), sRGBA <-> RGBA copies through the sRGB curve,
 *    clears converted as an image store of the pattern would convert them (isa/sim_texel.c;
 *    for sRGB images the pattern goes through the linear-to-sRGB curve first).
 *
 * On a gfx10 agent the descriptors are gfx10's (write_srd_gfx10: the T# and V# fields
 * gfx10 moved, FORMAT from gfx10's combined table, PITCH-1 in word 4 on gfx10.3), with the
 * same linear layout: gfx10's address library also rounds a linear row up to 256 bytes.
 *
 * Handles are checked against a registry, so a bad handle is an INVALID_ARGUMENT instead
 * of a crash (ROCr would dereference it).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <hsa/hsa_ext_image.h>

#include "sim_priv.h"

static float
f32_of_bits(uint32_t u)
{
   float f;
   memcpy(&f, &u, 4);
   return f;
}

static uint32_t
bits_of_f32(float f)
{
   uint32_t u;
   memcpy(&u, &f, 4);
   return u;
}

#define IMG_DWORDS 12
#define SAMP_DWORDS 8

/* SQ_RSRC_IMG_* (T# TYPE). */
enum { T_1D = 8, T_2D = 9, T_3D = 10, T_1D_ARRAY = 12, T_2D_ARRAY = 13 };
/* SQ_TEX_CLAMP_* / XY filter / border colour. */
enum { CLAMP_WRAP = 0, CLAMP_MIRROR = 1, CLAMP_LAST_TEXEL = 2, CLAMP_BORDER = 6 };
enum { FILTER_POINT = 0, FILTER_BILINEAR = 1 };
/* TEX_BC_SWIZZLE_* */
enum { BC_XYZW = 0, BC_XWYZ = 1, BC_WZYX = 2, BC_WXYZ = 3, BC_ZYXW = 4, BC_YXWZ = 5 };

#define CAP_RO HSA_EXT_IMAGE_CAPABILITY_READ_ONLY
#define CAP_ROWO (CAP_RO | HSA_EXT_IMAGE_CAPABILITY_WRITE_ONLY)
#define CAP_RW (CAP_ROWO | HSA_EXT_IMAGE_CAPABILITY_READ_WRITE)

#define N_ORDERS (HSA_EXT_IMAGE_CHANNEL_ORDER_DEPTH_STENCIL + 1)
#define N_TYPES (HSA_EXT_IMAGE_CHANNEL_TYPE_FLOAT + 1)
#define N_GEOMETRIES (HSA_EXT_IMAGE_GEOMETRY_2DADEPTH + 1)

/* What the hardware makes of one format. */
typedef struct fmt_prop {
   uint8_t cap;   /* hsa_ext_image_capability_t mask; 0: not supported */
   uint8_t bytes; /* element size */
   uint8_t dfmt, nfmt;
} fmt_prop;

/* Channel types: bits per channel of the array formats (0 for packed and 24-bit types) and
 * the number format. */
static const struct {
   uint8_t bits, nfmt;
} type_info[N_TYPES] = {
   [HSA_EXT_IMAGE_CHANNEL_TYPE_SNORM_INT8] = {8, SIM_NFMT_SNORM},
   [HSA_EXT_IMAGE_CHANNEL_TYPE_SNORM_INT16] = {16, SIM_NFMT_SNORM},
   [HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT8] = {8, SIM_NFMT_UNORM},
   [HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT16] = {16, SIM_NFMT_UNORM},
   [HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT24] = {0, SIM_NFMT_UNORM},
   [HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_SHORT_555] = {0, SIM_NFMT_UNORM},
   [HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_SHORT_565] = {0, SIM_NFMT_UNORM},
   [HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_SHORT_101010] = {0, SIM_NFMT_UNORM},
   [HSA_EXT_IMAGE_CHANNEL_TYPE_SIGNED_INT8] = {8, SIM_NFMT_SINT},
   [HSA_EXT_IMAGE_CHANNEL_TYPE_SIGNED_INT16] = {16, SIM_NFMT_SINT},
   [HSA_EXT_IMAGE_CHANNEL_TYPE_SIGNED_INT32] = {32, SIM_NFMT_SINT},
   [HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT8] = {8, SIM_NFMT_UINT},
   [HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT16] = {16, SIM_NFMT_UINT},
   [HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT32] = {32, SIM_NFMT_UINT},
   [HSA_EXT_IMAGE_CHANNEL_TYPE_HALF_FLOAT] = {16, SIM_NFMT_FLOAT},
   [HSA_EXT_IMAGE_CHANNEL_TYPE_FLOAT] = {32, SIM_NFMT_FLOAT},
};

/* The array data format of `nch` channels of `bits` each. */
static uint8_t
array_dfmt(unsigned nch, unsigned bits)
{
   static const uint8_t tab[3][5] = {
      /* 1, 2, -, 4 channels */
      {SIM_DFMT_8, SIM_DFMT_8_8, 0, SIM_DFMT_8_8_8_8},
      {SIM_DFMT_16, SIM_DFMT_16_16, 0, SIM_DFMT_16_16_16_16},
      {SIM_DFMT_32, SIM_DFMT_32_32, 0, SIM_DFMT_32_32_32_32},
   };
   return tab[bits == 8 ? 0 : bits == 16 ? 1 : 2][nch - 1];
}

/* The gfx9 format table (ROCr's kPropLut_ for gfx9 agents), by rule rather than by table:
 * A, R: one channel; RG, RA: two; RGBA: four — every array type. BGRA, ARGB: the 8-bit
 * types. INTENSITY, LUMINANCE: normalised 8/16-bit and the float types. RGB: the packed
 * 555, 565 and 101010 types. sRGBA: UNORM_INT8, read only. DEPTH: UNORM_INT16 and FLOAT,
 * read or write only. Everything else (RX, RGX, RGBX, ABGR, sRGB, sRGBx, sBGRA,
 * DEPTH_STENCIL, 24-bit types) is not supported. */
static fmt_prop
table_prop(unsigned order, unsigned type)
{
   fmt_prop p = {0, 0, 0, 0};
   if (order >= N_ORDERS || type >= N_TYPES)
      return p;
   unsigned bits = type_info[type].bits, nfmt = type_info[type].nfmt, nch = 0;
   bool norm = type <= HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT16;
   bool fl = nfmt == SIM_NFMT_FLOAT;
   switch (order) {
   case HSA_EXT_IMAGE_CHANNEL_ORDER_A:
   case HSA_EXT_IMAGE_CHANNEL_ORDER_R:
      nch = bits ? 1 : 0;
      break;
   case HSA_EXT_IMAGE_CHANNEL_ORDER_RG:
   case HSA_EXT_IMAGE_CHANNEL_ORDER_RA:
      nch = bits ? 2 : 0;
      break;
   case HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA:
      nch = bits ? 4 : 0;
      break;
   case HSA_EXT_IMAGE_CHANNEL_ORDER_BGRA:
   case HSA_EXT_IMAGE_CHANNEL_ORDER_ARGB:
      nch = bits == 8 ? 4 : 0;
      break;
   case HSA_EXT_IMAGE_CHANNEL_ORDER_INTENSITY:
   case HSA_EXT_IMAGE_CHANNEL_ORDER_LUMINANCE:
      nch = norm || fl ? 1 : 0;
      break;
   case HSA_EXT_IMAGE_CHANNEL_ORDER_RGB:
      if (type == HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_SHORT_555)
         p = (fmt_prop){CAP_RW, 2, SIM_DFMT_1_5_5_5, SIM_NFMT_UNORM};
      else if (type == HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_SHORT_565)
         p = (fmt_prop){CAP_RW, 2, SIM_DFMT_5_6_5, SIM_NFMT_UNORM};
      else if (type == HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_SHORT_101010)
         p = (fmt_prop){CAP_RW, 4, SIM_DFMT_2_10_10_10, SIM_NFMT_UNORM};
      return p;
   case HSA_EXT_IMAGE_CHANNEL_ORDER_SRGBA:
      if (type == HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT8)
         p = (fmt_prop){CAP_RO, 4, SIM_DFMT_8_8_8_8, SIM_NFMT_SRGB};
      return p;
   case HSA_EXT_IMAGE_CHANNEL_ORDER_DEPTH:
      if (type == HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT16)
         p = (fmt_prop){CAP_ROWO, 2, SIM_DFMT_16, SIM_NFMT_UNORM};
      else if (type == HSA_EXT_IMAGE_CHANNEL_TYPE_FLOAT)
         p = (fmt_prop){CAP_ROWO, 4, SIM_DFMT_32, SIM_NFMT_FLOAT};
      return p;
   default:
      return p;
   }
   if (!nch)
      return p;
   p.cap = CAP_RW;
   p.bytes = (uint8_t)(nch * bits / 8);
   p.dfmt = array_dfmt(nch, bits);
   p.nfmt = (uint8_t)nfmt;
   return p;
}

/* ROCr's MapFormat: the table, with 1D buffers refusing sRGB and 555/565, and the depth
 * geometries accepting only the depth orders. */
static fmt_prop
format_prop(const hsa_ext_image_format_t *f, unsigned geometry)
{
   fmt_prop none = {0, 0, 0, 0};
   unsigned order = f->channel_order, type = f->channel_type;
   switch (geometry) {
   case HSA_EXT_IMAGE_GEOMETRY_1DB:
      if (order == HSA_EXT_IMAGE_CHANNEL_ORDER_SRGB ||
          order == HSA_EXT_IMAGE_CHANNEL_ORDER_SRGBX ||
          order == HSA_EXT_IMAGE_CHANNEL_ORDER_SRGBA ||
          order == HSA_EXT_IMAGE_CHANNEL_ORDER_SBGRA ||
          type == HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_SHORT_555 ||
          type == HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_SHORT_565)
         return none;
      return table_prop(order, type);
   case HSA_EXT_IMAGE_GEOMETRY_2DDEPTH:
   case HSA_EXT_IMAGE_GEOMETRY_2DADEPTH:
      if (order != HSA_EXT_IMAGE_CHANNEL_ORDER_DEPTH &&
          order != HSA_EXT_IMAGE_CHANNEL_ORDER_DEPTH_STENCIL)
         return none;
      return table_prop(order, type);
   default:
      return geometry < N_GEOMETRIES ? table_prop(order, type) : none;
   }
}

/* DST_SEL per channel order (X, Y, Z, W). */
static const uint8_t order_swizzle[N_ORDERS][4] = {
   [HSA_EXT_IMAGE_CHANNEL_ORDER_A] = {SIM_SEL_0, SIM_SEL_0, SIM_SEL_0, SIM_SEL_X},
   [HSA_EXT_IMAGE_CHANNEL_ORDER_R] = {SIM_SEL_X, SIM_SEL_0, SIM_SEL_0, SIM_SEL_1},
   [HSA_EXT_IMAGE_CHANNEL_ORDER_RX] = {SIM_SEL_X, SIM_SEL_0, SIM_SEL_0, SIM_SEL_1},
   [HSA_EXT_IMAGE_CHANNEL_ORDER_RG] = {SIM_SEL_X, SIM_SEL_Y, SIM_SEL_0, SIM_SEL_1},
   [HSA_EXT_IMAGE_CHANNEL_ORDER_RGX] = {SIM_SEL_X, SIM_SEL_Y, SIM_SEL_0, SIM_SEL_1},
   [HSA_EXT_IMAGE_CHANNEL_ORDER_RA] = {SIM_SEL_X, SIM_SEL_0, SIM_SEL_0, SIM_SEL_Y},
   [HSA_EXT_IMAGE_CHANNEL_ORDER_RGB] = {SIM_SEL_Z, SIM_SEL_Y, SIM_SEL_X, SIM_SEL_1},
   [HSA_EXT_IMAGE_CHANNEL_ORDER_RGBX] = {SIM_SEL_Z, SIM_SEL_Y, SIM_SEL_X, SIM_SEL_1},
   [HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA] = {SIM_SEL_X, SIM_SEL_Y, SIM_SEL_Z, SIM_SEL_W},
   [HSA_EXT_IMAGE_CHANNEL_ORDER_BGRA] = {SIM_SEL_Z, SIM_SEL_Y, SIM_SEL_X, SIM_SEL_W},
   [HSA_EXT_IMAGE_CHANNEL_ORDER_ARGB] = {SIM_SEL_Y, SIM_SEL_Z, SIM_SEL_W, SIM_SEL_X},
   [HSA_EXT_IMAGE_CHANNEL_ORDER_ABGR] = {SIM_SEL_Y, SIM_SEL_X, SIM_SEL_W, SIM_SEL_Z},
   [HSA_EXT_IMAGE_CHANNEL_ORDER_SRGB] = {SIM_SEL_X, SIM_SEL_Y, SIM_SEL_Z, SIM_SEL_1},
   [HSA_EXT_IMAGE_CHANNEL_ORDER_SRGBX] = {SIM_SEL_X, SIM_SEL_Y, SIM_SEL_Z, SIM_SEL_1},
   [HSA_EXT_IMAGE_CHANNEL_ORDER_SRGBA] = {SIM_SEL_X, SIM_SEL_Y, SIM_SEL_Z, SIM_SEL_W},
   [HSA_EXT_IMAGE_CHANNEL_ORDER_SBGRA] = {SIM_SEL_Z, SIM_SEL_Y, SIM_SEL_X, SIM_SEL_W},
   [HSA_EXT_IMAGE_CHANNEL_ORDER_INTENSITY] = {SIM_SEL_X, SIM_SEL_X, SIM_SEL_X, SIM_SEL_X},
   [HSA_EXT_IMAGE_CHANNEL_ORDER_LUMINANCE] = {SIM_SEL_X, SIM_SEL_X, SIM_SEL_X, SIM_SEL_1},
   [HSA_EXT_IMAGE_CHANNEL_ORDER_DEPTH] = {SIM_SEL_X, SIM_SEL_0, SIM_SEL_0, SIM_SEL_0},
   [HSA_EXT_IMAGE_CHANNEL_ORDER_DEPTH_STENCIL] = {SIM_SEL_Y, SIM_SEL_0, SIM_SEL_0, SIM_SEL_0},
};

/* T# TYPE per geometry (1D buffers have none). */
static const uint8_t geometry_type[N_GEOMETRIES] = {
   [HSA_EXT_IMAGE_GEOMETRY_1D] = T_1D,
   [HSA_EXT_IMAGE_GEOMETRY_2D] = T_2D,
   [HSA_EXT_IMAGE_GEOMETRY_3D] = T_3D,
   [HSA_EXT_IMAGE_GEOMETRY_1DA] = T_1D_ARRAY,
   [HSA_EXT_IMAGE_GEOMETRY_2DA] = T_2D_ARRAY,
   [HSA_EXT_IMAGE_GEOMETRY_1DB] = 0,
   [HSA_EXT_IMAGE_GEOMETRY_2DDEPTH] = T_2D,
   [HSA_EXT_IMAGE_GEOMETRY_2DADEPTH] = T_2D_ARRAY,
};

/* Width, height, depth, layers. */
static const uint32_t max_dims[N_GEOMETRIES][4] = {
   [HSA_EXT_IMAGE_GEOMETRY_1D] = {16384, 1, 1, 1},
   [HSA_EXT_IMAGE_GEOMETRY_2D] = {16384, 16384, 1, 1},
   [HSA_EXT_IMAGE_GEOMETRY_3D] = {16384, 16384, 8192, 1},
   [HSA_EXT_IMAGE_GEOMETRY_1DA] = {16384, 1, 1, 8192},
   [HSA_EXT_IMAGE_GEOMETRY_2DA] = {16384, 16384, 1, 8192},
   [HSA_EXT_IMAGE_GEOMETRY_1DB] = {4294967295u, 1, 1, 1},
   [HSA_EXT_IMAGE_GEOMETRY_2DDEPTH] = {16384, 16384, 1, 1},
   [HSA_EXT_IMAGE_GEOMETRY_2DADEPTH] = {16384, 16384, 1, 8192},
};

/* The border-colour swizzle ROCr derives from the channel swizzle. */
static unsigned
bc_swizzle(const uint8_t s[4])
{
   unsigned r = s[0], g = s[1], b = s[2], a = s[3];
   if (a == SIM_SEL_X) {
      if (b == SIM_SEL_Y)
         return BC_WZYX;
      if (r == SIM_SEL_X && g == SIM_SEL_X && b == SIM_SEL_X)
         return BC_XYZW;
      return BC_WXYZ;
   }
   if (r == SIM_SEL_X) {
      if (g == SIM_SEL_Y || (g == SIM_SEL_X && b == SIM_SEL_X && a == SIM_SEL_W))
         return BC_XYZW;
      return BC_XWYZ;
   }
   if (g == SIM_SEL_X)
      return BC_YXWZ;
   if (b == SIM_SEL_X)
      return BC_ZYXW;
   return BC_XYZW;
}

/* ---- Linear layout (the gfx9 address library's SW_LINEAR rule) ------------------------ */

typedef struct layout {
   uint64_t pitch;      /* texels per row */
   uint64_t rows;       /* rows per slice: 1 for 1D types */
   uint64_t slice_size; /* bytes */
   uint64_t size;       /* bytes */
} layout;

static bool
is_1d_type(unsigned geometry)
{
   return geometry == HSA_EXT_IMAGE_GEOMETRY_1D || geometry == HSA_EXT_IMAGE_GEOMETRY_1DA ||
          geometry == HSA_EXT_IMAGE_GEOMETRY_1DB;
}

/* False where the address library refuses the surface (a 1D type more than one row high,
 * a row pitch that is not a multiple of 256 bytes' worth of texels or is too small). */
static bool
linear_layout(const hsa_ext_image_descriptor_t *d, unsigned bytes, size_t row_pitch,
              layout *out)
{
   uint64_t width = d->width ? (uint32_t)d->width : 1;
   uint64_t height = d->height ? (uint32_t)d->height : 1;
   size_t n = d->array_size > d->depth ? d->array_size : d->depth;
   uint64_t slices = n ? (uint32_t)n : 1;
   uint64_t align = 256 / bytes;
   if (is_1d_type(d->geometry) && height > 1)
      return false;
   uint64_t pitch = (width + align - 1) / align * align;
   uint32_t want = (uint32_t)(row_pitch / bytes);
   if (want) {
      if (want % align || want < pitch)
         return false;
      pitch = want;
   }
   out->pitch = pitch;
   out->rows = is_1d_type(d->geometry) ? 1 : height;
   out->slice_size = pitch * out->rows * bytes;
   out->size = out->slice_size * slices;
   return true;
}

/* ---- Objects ----------------------------------------------------------------------------- */

typedef struct sim_image {
   uint32_t srd[IMG_DWORDS]; /* first: the handle is its address */
   hsa_ext_image_descriptor_t desc;
   fmt_prop prop;
   uint8_t *data;
   size_t row_pitch, slice_pitch; /* bytes */
   struct sim_image *next;
} sim_image;

typedef struct sim_sampler {
   uint32_t srd[SAMP_DWORDS];
   struct sim_sampler *next;
} sim_sampler;

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static sim_image *images;
static sim_sampler *samplers;

static void *
object_alloc(size_t size)
{
   void *p = NULL;
   if (sim__mem_alloc(sim__pool_system(SIM_POOL_KERNARG), size,
                      SIM_ALLOC_READ | SIM_ALLOC_WRITE, SIM_MEM_INTERNAL, &p,
                      NULL) != HSA_STATUS_SUCCESS)
      return NULL;
   memset(p, 0, size);
   return p;
}

static bool
gpu_agent(hsa_agent_t agent)
{
   enum sim_agent_kind kind;
   return sim__agent_from_handle(agent, &kind) && kind == SIM_AGENT_GPU;
}

/* The registered image whose handle is `h`, or NULL; caller holds reg_lock. */
static sim_image *
image_find(uint64_t h)
{
   for (sim_image *i = images; i; i = i->next)
      if ((uint64_t)(uintptr_t)i->srd == h)
         return i;
   return NULL;
}

/* ---- Descriptors -------------------------------------------------------------------------- */

/* gfx10's words as ROCr's gfx10 image manager writes them: the V# of a 1D buffer image has
 * gfx10's word 3 (FORMAT, INDEX_STRIDE the element size's low 2 bits, RESOURCE_LEVEL); a
 * T# has FORMAT in word 1 with WIDTH-1's low 2 bits, the rest of WIDTH-1 and HEIGHT-1 in
 * word 2 (RESOURCE_LEVEL), DEPTH in word 4 and, on gfx10.3 for 1D and 2D non-array images,
 * PITCH-1 in word 4 bits 13:0 (isa/sim_mimg.c tfields_of reads them). */
static void
write_srd_gfx10(sim_image *im, const layout *lay, const sim_target *target)
{
   const hsa_ext_image_descriptor_t *d = &im->desc;
   const uint8_t *sw = order_swizzle[d->format.channel_order];
   uint64_t va = (uint64_t)(uintptr_t)im->data;
   uint32_t *w = im->srd;
   unsigned fmt = sim__texel_gfx10_img_format_of(im->prop.dfmt, im->prop.nfmt);
   if (d->geometry == HSA_EXT_IMAGE_GEOMETRY_1DB) {
      w[0] = (uint32_t)va;
      w[1] = (uint32_t)(va >> 32) & 0xFFFF;
      w[1] |= (uint32_t)(im->prop.bytes & 0x3FFF) << 16; /* STRIDE */
      w[2] = (uint32_t)((uint32_t)d->width * im->prop.bytes);
      w[3] = sw[0] | sw[1] << 3 | sw[2] << 6 | sw[3] << 9 | (fmt & 0x7F) << 12;
      w[3] |= (uint32_t)(im->prop.bytes & 3) << 21 | 1u << 24;
      return;
   }
   bool array = d->geometry == HSA_EXT_IMAGE_GEOMETRY_1DA ||
                d->geometry == HSA_EXT_IMAGE_GEOMETRY_2DA ||
                d->geometry == HSA_EXT_IMAGE_GEOMETRY_2DADEPTH;
   bool three_d = d->geometry == HSA_EXT_IMAGE_GEOMETRY_3D;
   uint32_t width_m1 = (uint32_t)(d->width - 1), height_m1 = d->height ? d->height - 1 : 0;
   w[0] = (uint32_t)((va & 0xFFFFFFFFFFull) >> 8);
   w[1] = (uint32_t)(va >> 40) & 0xFF;
   w[1] |= (fmt & 0x1FF) << 20 | (width_m1 & 3) << 30;
   w[2] = (width_m1 >> 2 & 0xFFF) | (height_m1 & 0x3FFF) << 14 | 1u << 31;
   w[3] = sw[0] | sw[1] << 3 | sw[2] << 6 | sw[3] << 9;
   w[3] |= bc_swizzle(sw) << 25 | (uint32_t)geometry_type[d->geometry] << 28; /* linear */
   if (array)
      w[4] = (uint32_t)((d->array_size > 1 ? d->array_size : 1) - 1) & 0x1FFF;
   else if (three_d)
      w[4] = (uint32_t)(d->depth - 1) & 0x1FFF;
   else if (target->gfx_target_version >= 100300)
      w[4] = (uint32_t)(lay->pitch - 1) & 0x3FFF;
}

static void
write_srd(sim_image *im, const layout *lay, const sim_target *target)
{
   const hsa_ext_image_descriptor_t *d = &im->desc;
   const uint8_t *sw = order_swizzle[d->format.channel_order];
   uint64_t va = (uint64_t)(uintptr_t)im->data;
   uint32_t *w = im->srd;
   memset(w, 0, sizeof(im->srd));
   if (target->gfx_major >= 10) {
      write_srd_gfx10(im, lay, target);
   } else if (d->geometry == HSA_EXT_IMAGE_GEOMETRY_1DB) {
      w[0] = (uint32_t)va;
      w[1] = (uint32_t)(va >> 32) & 0xFFFF;
      w[1] |= (uint32_t)(im->prop.bytes & 0x3FFF) << 16; /* STRIDE */
      w[2] = (uint32_t)((uint32_t)d->width * im->prop.bytes);
      w[3] = sw[0] | sw[1] << 3 | sw[2] << 6 | sw[3] << 9;
      w[3] |= (uint32_t)(im->prop.nfmt & 7) << 12 | (uint32_t)(im->prop.dfmt & 0xF) << 15;
      w[3] |= (uint32_t)(im->prop.bytes & 3) << 21; /* INDEX_STRIDE, as ROCr truncates it */
   } else {
      bool array = d->geometry == HSA_EXT_IMAGE_GEOMETRY_1DA ||
                   d->geometry == HSA_EXT_IMAGE_GEOMETRY_2DA ||
                   d->geometry == HSA_EXT_IMAGE_GEOMETRY_2DADEPTH;
      uint32_t depth = 0;
      if (array)
         depth = (uint32_t)((d->array_size > 1 ? d->array_size : 1) - 1);
      else if (d->geometry == HSA_EXT_IMAGE_GEOMETRY_3D)
         depth = (uint32_t)(d->depth - 1);
      w[0] = (uint32_t)((va & 0xFFFFFFFFFFull) >> 8);
      w[1] = (uint32_t)(va >> 40) & 0xFF;
      w[1] |= (uint32_t)(im->prop.dfmt & 0x3F) << 20 | (uint32_t)(im->prop.nfmt & 0xF) << 26;
      w[2] = ((uint32_t)(d->width - 1) & 0x3FFF) | ((uint32_t)(d->height - 1) & 0x3FFF) << 14;
      w[3] = sw[0] | sw[1] << 3 | sw[2] << 6 | sw[3] << 9;
      w[3] |= (uint32_t)geometry_type[d->geometry] << 28; /* SW_MODE 0: linear */
      w[4] = (depth & 0x1FFF) | ((uint32_t)(lay->pitch - 1) & 0xFFFF) << 13;
      w[4] |= bc_swizzle(sw) << 29;
   }
   w[8] = d->format.channel_type;
   w[9] = d->format.channel_order;
   w[10] = (uint32_t)d->width;
}

/* ROCr's GetImageSizeAndAlignment + the linear layout: status and layout of `d`. */
static hsa_status_t
image_layout(const hsa_ext_image_descriptor_t *d, hsa_ext_image_data_layout_t kind,
             size_t row_pitch, size_t slice_pitch, fmt_prop *prop, layout *lay)
{
   *prop = format_prop(&d->format, d->geometry);
   if (!prop->cap)
      return (hsa_status_t)HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED;
   const uint32_t *m = max_dims[d->geometry];
   if (d->width > m[0] || d->height > m[1] || d->depth > m[2] || d->array_size > m[3])
      return (hsa_status_t)HSA_EXT_STATUS_ERROR_IMAGE_SIZE_UNSUPPORTED;
   if (!linear_layout(d, prop->bytes, row_pitch, lay))
      return HSA_STATUS_ERROR;
   if (d->geometry != HSA_EXT_IMAGE_GEOMETRY_1DB && kind == HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR) {
      uint64_t rp = lay->pitch * prop->bytes;
      uint64_t sp = rp * (is_1d_type(d->geometry) ? 1 : (d->height ? d->height : 1));
      if ((row_pitch && rp != row_pitch) || (slice_pitch && sp != slice_pitch))
         return (hsa_status_t)HSA_EXT_STATUS_ERROR_IMAGE_PITCH_UNSUPPORTED;
   }
   return HSA_STATUS_SUCCESS;
}

/* ROCr's enforceDefaultPitch for the _with_layout calls. */
static void
default_pitches(const hsa_ext_image_descriptor_t *d, size_t *row_pitch, size_t *slice_pitch)
{
   if (*row_pitch == 0)
      *row_pitch = d->width * format_prop(&d->format, d->geometry).bytes;
   if (*slice_pitch == 0 && (d->depth != 0 || d->array_size != 0)) {
      switch (d->geometry) {
      case HSA_EXT_IMAGE_GEOMETRY_3D:
      case HSA_EXT_IMAGE_GEOMETRY_2DA:
      case HSA_EXT_IMAGE_GEOMETRY_2DADEPTH:
         *slice_pitch = *row_pitch * d->height;
         break;
      case HSA_EXT_IMAGE_GEOMETRY_1DA:
         *slice_pitch = *row_pitch;
         break;
      default:
         break;
      }
   }
}

static bool
descriptor_ok(const hsa_ext_image_descriptor_t *d)
{
   return (unsigned)d->geometry < N_GEOMETRIES &&
          (unsigned)d->format.channel_order < N_ORDERS &&
          (unsigned)d->format.channel_type < N_TYPES;
}

static hsa_status_t
image_create(hsa_agent_t agent, const hsa_ext_image_descriptor_t *d, const void *data,
             hsa_ext_image_data_layout_t kind, size_t row_pitch, size_t slice_pitch,
             hsa_ext_image_t *out)
{
   out->handle = 0;
   fmt_prop prop;
   layout lay;
   hsa_status_t st = image_layout(d, kind, row_pitch, slice_pitch, &prop, &lay);
   if (st != HSA_STATUS_SUCCESS)
      return st;
   if ((uintptr_t)data % 256)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   sim_image *im = object_alloc(sizeof(sim_image));
   if (!im)
      return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
   im->desc = *d;
   im->prop = prop;
   im->data = (uint8_t *)(uintptr_t)data;
   im->row_pitch = lay.pitch * prop.bytes;
   im->slice_pitch = lay.slice_size;
   write_srd(im, &lay, sim__gpu_target(sim__agent_get(agent)->gpu));
   pthread_mutex_lock(&reg_lock);
   im->next = images;
   images = im;
   pthread_mutex_unlock(&reg_lock);
   out->handle = (uint64_t)(uintptr_t)im->srd;
   return HSA_STATUS_SUCCESS;
}

/* ---- API: capabilities, sizes, creation --------------------------------------------------- */

SIM_EXPORT hsa_status_t
hsa_ext_image_get_capability(hsa_agent_t agent, hsa_ext_image_geometry_t geometry,
                             const hsa_ext_image_format_t *image_format,
                             uint32_t *capability_mask)
{
   SIM_CHECK_INIT();
   if (!sim__agent_get(agent))
      return HSA_STATUS_ERROR_INVALID_AGENT;
   if (!image_format || !capability_mask || (unsigned)geometry >= N_GEOMETRIES)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   *capability_mask = gpu_agent(agent) ? format_prop(image_format, geometry).cap : 0;
   return HSA_STATUS_SUCCESS;
}

SIM_EXPORT hsa_status_t
hsa_ext_image_get_capability_with_layout(hsa_agent_t agent, hsa_ext_image_geometry_t geometry,
                                         const hsa_ext_image_format_t *image_format,
                                         hsa_ext_image_data_layout_t image_data_layout,
                                         uint32_t *capability_mask)
{
   SIM_CHECK_INIT();
   if (!sim__agent_get(agent))
      return HSA_STATUS_ERROR_INVALID_AGENT;
   if (image_data_layout != HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   return hsa_ext_image_get_capability(agent, geometry, image_format, capability_mask);
}

static hsa_status_t
data_get_info(hsa_agent_t agent, const hsa_ext_image_descriptor_t *d,
              hsa_access_permission_t access, hsa_ext_image_data_layout_t kind,
              size_t row_pitch, size_t slice_pitch, hsa_ext_image_data_info_t *info)
{
   if (!sim__agent_get(agent))
      return HSA_STATUS_ERROR_INVALID_AGENT;
   if (!d || !info || access < HSA_ACCESS_PERMISSION_RO || access > HSA_ACCESS_PERMISSION_RW)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   info->size = 0;
   info->alignment = 0;
   if (!descriptor_ok(d))
      return (hsa_status_t)HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED;
   if (!gpu_agent(agent))
      return (hsa_status_t)HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED;
   if (kind == HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR)
      default_pitches(d, &row_pitch, &slice_pitch);
   fmt_prop prop;
   layout lay;
   hsa_status_t st = image_layout(d, kind, row_pitch, slice_pitch, &prop, &lay);
   if (st != HSA_STATUS_SUCCESS)
      return st;
   info->size = lay.size;
   info->alignment = 256;
   return HSA_STATUS_SUCCESS;
}

SIM_EXPORT hsa_status_t
hsa_ext_image_data_get_info(hsa_agent_t agent, const hsa_ext_image_descriptor_t *image_descriptor,
                            hsa_access_permission_t access_permission,
                            hsa_ext_image_data_info_t *image_data_info)
{
   SIM_CHECK_INIT();
   return data_get_info(agent, image_descriptor, access_permission,
                        HSA_EXT_IMAGE_DATA_LAYOUT_OPAQUE, 0, 0, image_data_info);
}

SIM_EXPORT hsa_status_t
hsa_ext_image_data_get_info_with_layout(hsa_agent_t agent,
                                        const hsa_ext_image_descriptor_t *image_descriptor,
                                        hsa_access_permission_t access_permission,
                                        hsa_ext_image_data_layout_t image_data_layout,
                                        size_t image_data_row_pitch,
                                        size_t image_data_slice_pitch,
                                        hsa_ext_image_data_info_t *image_data_info)
{
   SIM_CHECK_INIT();
   if (image_data_layout != HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR)
      return sim__agent_get(agent) ? HSA_STATUS_ERROR_INVALID_ARGUMENT
                                   : HSA_STATUS_ERROR_INVALID_AGENT;
   return data_get_info(agent, image_descriptor, access_permission, image_data_layout,
                        image_data_row_pitch, image_data_slice_pitch, image_data_info);
}

SIM_EXPORT hsa_status_t
hsa_ext_image_create(hsa_agent_t agent, const hsa_ext_image_descriptor_t *image_descriptor,
                     const void *image_data, hsa_access_permission_t access_permission,
                     hsa_ext_image_t *image)
{
   SIM_CHECK_INIT();
   (void)access_permission;
   if (!sim__agent_get(agent))
      return HSA_STATUS_ERROR_INVALID_AGENT;
   if (!image_descriptor || !image_data || !image)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   if (!descriptor_ok(image_descriptor) || !gpu_agent(agent))
      return (hsa_status_t)HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED;
   return image_create(agent, image_descriptor, image_data, HSA_EXT_IMAGE_DATA_LAYOUT_OPAQUE,
                       0, 0, image);
}

SIM_EXPORT hsa_status_t
hsa_ext_image_create_with_layout(hsa_agent_t agent,
                                 const hsa_ext_image_descriptor_t *image_descriptor,
                                 const void *image_data,
                                 hsa_access_permission_t access_permission,
                                 hsa_ext_image_data_layout_t image_data_layout,
                                 size_t image_data_row_pitch, size_t image_data_slice_pitch,
                                 hsa_ext_image_t *image)
{
   SIM_CHECK_INIT();
   (void)access_permission;
   if (!sim__agent_get(agent))
      return HSA_STATUS_ERROR_INVALID_AGENT;
   if (!image_descriptor || !image_data || !image ||
       image_data_layout != HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   if (!descriptor_ok(image_descriptor) || !gpu_agent(agent))
      return (hsa_status_t)HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED;
   default_pitches(image_descriptor, &image_data_row_pitch, &image_data_slice_pitch);
   return image_create(agent, image_descriptor, image_data, image_data_layout,
                       image_data_row_pitch, image_data_slice_pitch, image);
}

SIM_EXPORT hsa_status_t
hsa_ext_image_destroy(hsa_agent_t agent, hsa_ext_image_t image)
{
   SIM_CHECK_INIT();
   if (!sim__agent_get(agent))
      return HSA_STATUS_ERROR_INVALID_AGENT;
   pthread_mutex_lock(&reg_lock);
   sim_image **pp = &images;
   while (*pp && (uint64_t)(uintptr_t)(*pp)->srd != image.handle)
      pp = &(*pp)->next;
   sim_image *im = *pp;
   if (im)
      *pp = im->next;
   pthread_mutex_unlock(&reg_lock);
   if (!im)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   sim__mem_free(im, SIM_MEM_INTERNAL);
   return HSA_STATUS_SUCCESS;
}

/* ---- Samplers ----------------------------------------------------------------------------- */

SIM_EXPORT hsa_status_t
hsa_ext_sampler_create(hsa_agent_t agent, const hsa_ext_sampler_descriptor_t *sampler_descriptor,
                       hsa_ext_sampler_t *sampler)
{
   SIM_CHECK_INIT();
   if (!sim__agent_get(agent))
      return HSA_STATUS_ERROR_INVALID_AGENT;
   if (!sampler_descriptor || !sampler)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   sampler->handle = 0;
   if (!gpu_agent(agent))
      return HSA_STATUS_ERROR_INVALID_AGENT;
   const hsa_ext_sampler_descriptor_t *d = sampler_descriptor;
   unsigned clamp, filter;
   switch (d->address_mode) {
   case HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_EDGE: clamp = CLAMP_LAST_TEXEL; break;
   case HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_BORDER: clamp = CLAMP_BORDER; break;
   case HSA_EXT_SAMPLER_ADDRESSING_MODE_MIRRORED_REPEAT: clamp = CLAMP_MIRROR; break;
   case HSA_EXT_SAMPLER_ADDRESSING_MODE_UNDEFINED:
   case HSA_EXT_SAMPLER_ADDRESSING_MODE_REPEAT: clamp = CLAMP_WRAP; break;
   default: return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   }
   switch (d->filter_mode) {
   case HSA_EXT_SAMPLER_FILTER_MODE_NEAREST: filter = FILTER_POINT; break;
   case HSA_EXT_SAMPLER_FILTER_MODE_LINEAR: filter = FILTER_BILINEAR; break;
   default: return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   }
   sim_sampler *s = object_alloc(sizeof(sim_sampler));
   if (!s)
      return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
   s->srd[0] = clamp | clamp << 3 | clamp << 6;
   if (d->coordinate_mode == HSA_EXT_SAMPLER_COORDINATE_MODE_UNNORMALIZED)
      s->srd[0] |= 1u << 15; /* FORCE_UNNORMALIZED */
   s->srd[1] = 4095u << 12; /* MAX_LOD */
   s->srd[2] = filter << 20 | filter << 22; /* XY_MAG_FILTER, XY_MIN_FILTER */
   s->srd[3] = 0;                           /* BORDER_COLOR_TYPE: transparent black */
   pthread_mutex_lock(&reg_lock);
   s->next = samplers;
   samplers = s;
   pthread_mutex_unlock(&reg_lock);
   sampler->handle = (uint64_t)(uintptr_t)s->srd;
   return HSA_STATUS_SUCCESS;
}

SIM_EXPORT hsa_status_t
hsa_ext_sampler_destroy(hsa_agent_t agent, hsa_ext_sampler_t sampler)
{
   SIM_CHECK_INIT();
   if (!sim__agent_get(agent))
      return HSA_STATUS_ERROR_INVALID_AGENT;
   pthread_mutex_lock(&reg_lock);
   sim_sampler **pp = &samplers;
   while (*pp && (uint64_t)(uintptr_t)(*pp)->srd != sampler.handle)
      pp = &(*pp)->next;
   sim_sampler *s = *pp;
   if (s)
      *pp = s->next;
   pthread_mutex_unlock(&reg_lock);
   if (!s)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   sim__mem_free(s, SIM_MEM_INTERNAL);
   return HSA_STATUS_SUCCESS;
}

/* ---- Texel transfers ---------------------------------------------------------------------- */

/* A snapshot of an image taken under reg_lock: what a transfer needs. */
typedef struct view {
   hsa_ext_image_descriptor_t desc;
   fmt_prop prop;
   uint8_t *data;
   size_t row_pitch, slice_pitch;
   uint32_t srd[8];
} view;

static bool
view_of(uint64_t handle, view *v)
{
   pthread_mutex_lock(&reg_lock);
   sim_image *im = image_find(handle);
   if (im) {
      v->desc = im->desc;
      v->prop = im->prop;
      v->data = im->data;
      v->row_pitch = im->row_pitch;
      v->slice_pitch = im->slice_pitch;
      memcpy(v->srd, im->srd, sizeof(v->srd));
   }
   pthread_mutex_unlock(&reg_lock);
   return im != NULL;
}

/* Up to `n` texels of the image row from texel (x, y, z) on — z the slice or layer; for
 * 1D arrays y is the layer — as host memory: returns the first texel and stores in *got how
 * many of the n lie inside the image (0, NULL when none does). The blit kernels address 1D
 * types with x (and the layer), 2D types with x, y (and the layer), 3D with x, y, z; the
 * coordinates they ignore do not matter. *fault when the image memory is not accessible. */
static uint8_t *
row_at(const view *v, uint64_t x, uint64_t y, uint64_t z, uint64_t n, uint64_t *got,
       bool *fault)
{
   const hsa_ext_image_descriptor_t *d = &v->desc;
   uint64_t w = (uint32_t)d->width ? (uint32_t)d->width : 1;
   uint64_t h = d->height ? d->height : 1;
   uint64_t layers = d->array_size ? d->array_size : 1;
   uint64_t depth = d->depth ? d->depth : 1;
   uint64_t row = 0, slice = 0;
   *got = 0;
   switch (d->geometry) {
   case HSA_EXT_IMAGE_GEOMETRY_1D:
   case HSA_EXT_IMAGE_GEOMETRY_1DB:
      break;
   case HSA_EXT_IMAGE_GEOMETRY_1DA:
      if (y >= layers)
         return NULL;
      slice = y;
      break;
   case HSA_EXT_IMAGE_GEOMETRY_2D:
   case HSA_EXT_IMAGE_GEOMETRY_2DDEPTH:
      if (y >= h)
         return NULL;
      row = y;
      break;
   case HSA_EXT_IMAGE_GEOMETRY_3D:
      if (y >= h || z >= depth)
         return NULL;
      row = y;
      slice = z;
      break;
   default: /* 2D arrays */
      if (y >= h || z >= layers)
         return NULL;
      row = y;
      slice = z;
      break;
   }
   if (x >= w || n == 0)
      return NULL;
   uint64_t k = n < w - x ? n : w - x;
   uint64_t off = d->geometry == HSA_EXT_IMAGE_GEOMETRY_1DB
                     ? x * v->prop.bytes
                     : slice * v->slice_pitch + row * v->row_pitch + x * v->prop.bytes;
   uint8_t *p;
   if (sim__mem_translate(v->data + off, k * v->prop.bytes, &p) != HSA_STATUS_SUCCESS) {
      *fault = true;
      return NULL;
   }
   *got = k;
   return p;
}

/* The blit kernels' grid: 1D types launch range.x x range.y x 1, the others the range. */
static hsa_dim3_t
grid_of(unsigned geometry, hsa_dim3_t range)
{
   if (is_1d_type(geometry))
      range.z = 1;
   return range;
}

/* Host memory of a buffer pixel; NULL when the buffer is not accessible. */
static uint8_t *
buffer_at(const void *base, uint64_t off, unsigned bytes)
{
   uint8_t *p;
   if (sim__mem_translate((const uint8_t *)base + off, bytes, &p) != HSA_STATUS_SUCCESS)
      return NULL;
   return p;
}

/* Import (to_image) or export: the blit kernels' buffer indexing — pixel (x, y, z) of the
 * region is buffer pixel z * slice + y * row, rows and slices in pixels, at least the
 * region's. */
static hsa_status_t
transfer(const view *v, void *buf, size_t row_pitch, size_t slice_pitch,
         const hsa_ext_image_region_t *r, bool to_image)
{
   unsigned bytes = v->prop.bytes;
   if (v->desc.geometry == HSA_EXT_IMAGE_GEOMETRY_1DB) {
      uint64_t off = (uint64_t)r->offset.x * bytes, n = (uint64_t)r->range.x * bytes;
      uint8_t *img, *b;
      if (!n)
         return HSA_STATUS_SUCCESS;
      if (sim__mem_translate(v->data + off, n, &img) != HSA_STATUS_SUCCESS ||
          sim__mem_translate(buf, n, &b) != HSA_STATUS_SUCCESS)
         return HSA_STATUS_ERROR_INVALID_ARGUMENT;
      memmove(to_image ? img : b, to_image ? b : img, n);
      return HSA_STATUS_SUCCESS;
   }
   uint64_t rowp = row_pitch / bytes > r->range.x ? row_pitch / bytes : r->range.x;
   uint64_t slicep = rowp;
   if (v->desc.geometry != HSA_EXT_IMAGE_GEOMETRY_1DA) {
      slicep = rowp * r->range.y;
      if (slice_pitch / bytes > slicep)
         slicep = slice_pitch / bytes;
   }
   hsa_dim3_t g = grid_of(v->desc.geometry, r->range);
   bool fault = false;
   for (uint64_t z = 0; z < g.z; z++) {
      for (uint64_t y = 0; y < g.y; y++) {
         uint8_t *b = buffer_at(buf, (z * slicep + y * rowp) * bytes, g.x * bytes);
         if (!b && g.x)
            return HSA_STATUS_ERROR_INVALID_ARGUMENT;
         uint64_t k;
         uint8_t *t = row_at(v, r->offset.x, r->offset.y + y, r->offset.z + z, g.x, &k,
                             &fault);
         if (fault)
            return HSA_STATUS_ERROR_INVALID_ARGUMENT;
         if (to_image) {
            if (k)
               memmove(t, b, k * bytes);
         } else {
            if (k)
               memmove(b, t, k * bytes);
            memset(b + k * bytes, 0, (g.x - k) * bytes); /* outside the image: zero */
         }
      }
   }
   return HSA_STATUS_SUCCESS;
}

SIM_EXPORT hsa_status_t
hsa_ext_image_import(hsa_agent_t agent, const void *src_memory, size_t src_row_pitch,
                     size_t src_slice_pitch, hsa_ext_image_t dst_image,
                     const hsa_ext_image_region_t *image_region)
{
   SIM_CHECK_INIT();
   if (!sim__agent_get(agent))
      return HSA_STATUS_ERROR_INVALID_AGENT;
   view v;
   if (!src_memory || !dst_image.handle || !image_region || !view_of(dst_image.handle, &v))
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   return transfer(&v, (void *)(uintptr_t)src_memory, src_row_pitch, src_slice_pitch,
                   image_region, true);
}

SIM_EXPORT hsa_status_t
hsa_ext_image_export(hsa_agent_t agent, hsa_ext_image_t src_image, void *dst_memory,
                     size_t dst_row_pitch, size_t dst_slice_pitch,
                     const hsa_ext_image_region_t *image_region)
{
   SIM_CHECK_INIT();
   if (!sim__agent_get(agent))
      return HSA_STATUS_ERROR_INVALID_AGENT;
   view v;
   if (!dst_memory || !src_image.handle || !image_region || !view_of(src_image.handle, &v))
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   return transfer(&v, dst_memory, dst_row_pitch, dst_slice_pitch, image_region, false);
}

/* The number of coordinates the blit kernels use for a geometry (their GetDimSize). */
static unsigned
dims_of(unsigned geometry)
{
   static const uint8_t dims[N_GEOMETRIES] = {1, 2, 3, 2, 3, 1, 2, 3};
   return dims[geometry];
}

/* The texel format an image is read or written with, with its number format replaced. */
static bool
texel_fmt(const view *v, unsigned nfmt, sim_texel_fmt *f)
{
   return sim__texel_format(v->prop.dfmt, nfmt, f);
}

static float
linear_to_srgb_f32(float l)
{
   if (l != l)
      l = 0.0f;
   if (l > 1.0f)
      return 1.0f;
   if (l < 0.0f)
      return 0.0f;
   if (l < 0.0031308f)
      return 12.92f * l;
   return 1.055f * powf(l, 5.0f / 12.0f) - 0.055f;
}

SIM_EXPORT hsa_status_t
hsa_ext_image_copy(hsa_agent_t agent, hsa_ext_image_t src_image, const hsa_dim3_t *src_offset,
                   hsa_ext_image_t dst_image, const hsa_dim3_t *dst_offset,
                   const hsa_dim3_t *range)
{
   SIM_CHECK_INIT();
   if (!sim__agent_get(agent))
      return HSA_STATUS_ERROR_INVALID_AGENT;
   view s, d;
   if (!src_image.handle || !dst_image.handle || !src_offset || !dst_offset || !range ||
       !view_of(src_image.handle, &s) || !view_of(dst_image.handle, &d))
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   unsigned so = s.desc.format.channel_order, st = s.desc.format.channel_type;
   unsigned dor = d.desc.format.channel_order, dt = d.desc.format.channel_type;
   int srgb = 0; /* 1: linear -> sRGB, 2: sRGB -> linear */
   if (so != dor || st != dt) {
      if (st != HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT8 ||
          dt != HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT8)
         return HSA_STATUS_ERROR_INVALID_ARGUMENT;
      if (so == HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA && dor == HSA_EXT_IMAGE_CHANNEL_ORDER_SRGBA)
         srgb = 1;
      else if (so == HSA_EXT_IMAGE_CHANNEL_ORDER_SRGBA &&
               dor == HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA)
         srgb = 2;
      else
         return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   }
   /* The grid follows the image with fewer coordinates. */
   unsigned gg = dims_of(s.desc.geometry) < dims_of(d.desc.geometry) ? s.desc.geometry
                                                                     : d.desc.geometry;
   hsa_dim3_t g = grid_of(gg, *range);
   sim_texel_fmt rf, wf;
   static const uint8_t rgba[4] = {SIM_SEL_X, SIM_SEL_Y, SIM_SEL_Z, SIM_SEL_W};
   if (srgb && (!texel_fmt(&s, s.prop.nfmt, &rf) || !texel_fmt(&d, SIM_NFMT_UNORM, &wf)))
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   bool fault = false;
   unsigned eb = d.prop.bytes;
   for (uint64_t z = 0; z < g.z; z++) {
      for (uint64_t y = 0; y < g.y; y++) {
         uint64_t dk, sk;
         uint8_t *dp = row_at(&d, dst_offset->x, dst_offset->y + y, dst_offset->z + z, g.x,
                              &dk, &fault);
         const uint8_t *sp = row_at(&s, src_offset->x, src_offset->y + y, src_offset->z + z,
                                    g.x, &sk, &fault);
         if (fault)
            return HSA_STATUS_ERROR_INVALID_ARGUMENT;
         if (!srgb) {
            uint64_t both = sk < dk ? sk : dk;
            if (both)
               memmove(dp, sp, both * eb);
            if (dk > both) /* texels outside the source read as zero */
               memset(dp + both * eb, 0, (dk - both) * eb);
            continue;
         }
         for (uint64_t x = 0; x < dk; x++) {
            uint32_t comp[4];
            sim__texel_read(&rf, rgba, x < sk ? sp + x * eb : NULL, comp);
            if (srgb == 1)
               for (unsigned c = 0; c < 3; c++)
                  comp[c] = bits_of_f32(linear_to_srgb_f32(f32_of_bits(comp[c])));
            sim__texel_write(&wf, rgba, comp, dp + x * eb);
         }
      }
   }
   return HSA_STATUS_SUCCESS;
}

/* ROCr converts the clear colour of an sRGB image on the host, in double precision. */
static float
linear_to_srgb_f64(float l)
{
   double s = l;
   if (s != s)
      s = 0.0;
   if (s > 1.0)
      s = 1.0;
   else if (s < 0.0)
      s = 0.0;
   else if (s < 0.0031308)
      s = 12.92 * s;
   else
      s = 1.055 * pow(s, 5.0 / 12.0) - 0.055;
   return (float)s;
}

SIM_EXPORT hsa_status_t
hsa_ext_image_clear(hsa_agent_t agent, hsa_ext_image_t image, const void *data,
                    const hsa_ext_image_region_t *image_region)
{
   SIM_CHECK_INIT();
   if (!sim__agent_get(agent))
      return HSA_STATUS_ERROR_INVALID_AGENT;
   view v;
   if (!image.handle || !image_region || !data || !view_of(image.handle, &v))
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   uint32_t comp[4];
   memcpy(comp, data, sizeof(comp));
   unsigned order = v.desc.format.channel_order, nfmt = v.prop.nfmt;
   if (order == HSA_EXT_IMAGE_CHANNEL_ORDER_SRGBA) {
      for (unsigned c = 0; c < 3; c++)
         comp[c] = bits_of_f32(linear_to_srgb_f64(f32_of_bits(comp[c])));
      nfmt = SIM_NFMT_UNORM;
   }
   uint8_t sel[4];
   memcpy(sel, order_swizzle[order], 4);
   if (v.desc.format.channel_type == HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_SHORT_101010)
      sel[3] = SIM_SEL_0; /* ROCr keeps the 2 alpha bits out of the clear */
   sim_texel_fmt f;
   if (!texel_fmt(&v, nfmt, &f))
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   uint8_t texel[16];
   sim__texel_write(&f, sel, comp, texel);
   hsa_dim3_t g = grid_of(v.desc.geometry, image_region->range);
   const hsa_dim3_t *o = &image_region->offset;
   bool fault = false;
   for (uint64_t z = 0; z < g.z; z++) {
      for (uint64_t y = 0; y < g.y; y++) {
         uint64_t k;
         uint8_t *p = row_at(&v, o->x, o->y + y, o->z + z, g.x, &k, &fault);
         if (fault)
            return HSA_STATUS_ERROR_INVALID_ARGUMENT;
         for (uint64_t x = 0; x < k; x++)
            memcpy(p + x * v.prop.bytes, texel, v.prop.bytes);
      }
   }
   return HSA_STATUS_SUCCESS;
}

/* ---- Agent information and the extension table ---------------------------------------------- */

hsa_status_t
sim__image_agent_info(int attribute, void *value)
{
   uint32_t *u = value;
   unsigned g;
   switch (attribute) {
   case HSA_EXT_AGENT_INFO_IMAGE_1D_MAX_ELEMENTS: g = HSA_EXT_IMAGE_GEOMETRY_1D; break;
   case HSA_EXT_AGENT_INFO_IMAGE_1DA_MAX_ELEMENTS: g = HSA_EXT_IMAGE_GEOMETRY_1DA; break;
   case HSA_EXT_AGENT_INFO_IMAGE_1DB_MAX_ELEMENTS: g = HSA_EXT_IMAGE_GEOMETRY_1DB; break;
   case HSA_EXT_AGENT_INFO_IMAGE_2D_MAX_ELEMENTS: g = HSA_EXT_IMAGE_GEOMETRY_2D; break;
   case HSA_EXT_AGENT_INFO_IMAGE_2DA_MAX_ELEMENTS: g = HSA_EXT_IMAGE_GEOMETRY_2DA; break;
   case HSA_EXT_AGENT_INFO_IMAGE_2DDEPTH_MAX_ELEMENTS: g = HSA_EXT_IMAGE_GEOMETRY_2DDEPTH; break;
   case HSA_EXT_AGENT_INFO_IMAGE_2DADEPTH_MAX_ELEMENTS:
      g = HSA_EXT_IMAGE_GEOMETRY_2DADEPTH;
      break;
   case HSA_EXT_AGENT_INFO_IMAGE_3D_MAX_ELEMENTS: g = HSA_EXT_IMAGE_GEOMETRY_3D; break;
   case HSA_EXT_AGENT_INFO_IMAGE_ARRAY_MAX_LAYERS:
      *u = max_dims[HSA_EXT_IMAGE_GEOMETRY_2DA][3];
      return HSA_STATUS_SUCCESS;
   case HSA_EXT_AGENT_INFO_MAX_IMAGE_RD_HANDLES:
      *u = 128;
      return HSA_STATUS_SUCCESS;
   case HSA_EXT_AGENT_INFO_MAX_IMAGE_RORW_HANDLES:
      *u = 64;
      return HSA_STATUS_SUCCESS;
   case HSA_EXT_AGENT_INFO_MAX_SAMPLER_HANDLERS:
      /* ROCr 5.2's answer: its case falls through into HSA_AMD_AGENT_INFO_CHIP_ID. */
      *u = SIM_GPU_CHIP_ID;
      return HSA_STATUS_SUCCESS;
   default:
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   }
   const uint32_t *m = max_dims[g];
   switch (g) {
   case HSA_EXT_IMAGE_GEOMETRY_3D:
      u[0] = m[0], u[1] = m[1], u[2] = m[2];
      break;
   case HSA_EXT_IMAGE_GEOMETRY_2D:
   case HSA_EXT_IMAGE_GEOMETRY_2DA:
   case HSA_EXT_IMAGE_GEOMETRY_2DDEPTH:
   case HSA_EXT_IMAGE_GEOMETRY_2DADEPTH:
      u[0] = m[0], u[1] = m[1];
      break;
   default:
      u[0] = m[0];
      break;
   }
   return HSA_STATUS_SUCCESS;
}

SIM_EXPORT hsa_status_t
hsa_amd_image_get_info_max_dim(hsa_agent_t agent, hsa_agent_info_t attribute, void *value)
{
   SIM_CHECK_INIT();
   if (!agent.handle || !sim__agent_get(agent))
      return HSA_STATUS_ERROR_INVALID_AGENT;
   if (!value)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   if ((int)attribute < HSA_EXT_AGENT_INFO_IMAGE_1D_MAX_ELEMENTS ||
       (int)attribute > HSA_EXT_AGENT_INFO_IMAGE_ARRAY_MAX_LAYERS)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   if (!gpu_agent(agent)) {
      memset(value, 0, (int)attribute == HSA_EXT_AGENT_INFO_IMAGE_3D_MAX_ELEMENTS ? 12 : 4);
      return HSA_STATUS_SUCCESS;
   }
   return sim__image_agent_info((int)attribute, value);
}

void
sim__image_table(void *table, size_t length)
{
   hsa_ext_images_1_pfn_t t = {
      .hsa_ext_image_get_capability = hsa_ext_image_get_capability,
      .hsa_ext_image_data_get_info = hsa_ext_image_data_get_info,
      .hsa_ext_image_create = hsa_ext_image_create,
      .hsa_ext_image_import = hsa_ext_image_import,
      .hsa_ext_image_export = hsa_ext_image_export,
      .hsa_ext_image_copy = hsa_ext_image_copy,
      .hsa_ext_image_clear = hsa_ext_image_clear,
      .hsa_ext_image_destroy = hsa_ext_image_destroy,
      .hsa_ext_sampler_create = hsa_ext_sampler_create,
      .hsa_ext_sampler_destroy = hsa_ext_sampler_destroy,
      .hsa_ext_image_get_capability_with_layout = hsa_ext_image_get_capability_with_layout,
      .hsa_ext_image_data_get_info_with_layout = hsa_ext_image_data_get_info_with_layout,
      .hsa_ext_image_create_with_layout = hsa_ext_image_create_with_layout,
   };
   memcpy(table, &t, length < sizeof(t) ? length : sizeof(t));
}

/* hsa_shut_down: descriptors of images and samplers the application left behind. */
void
sim__image_finish(void)
{
   pthread_mutex_lock(&reg_lock);
   while (images) {
      sim_image *im = images;
      images = im->next;
      sim__mem_free(im, SIM_MEM_INTERNAL);
   }
   while (samplers) {
      sim_sampler *s = samplers;
      samplers = s->next;
      sim__mem_free(s, SIM_MEM_INTERNAL);
   }
   pthread_mutex_unlock(&reg_lock);
}
