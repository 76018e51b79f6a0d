/* MIMG tests: image_store / image_load / image_sample_lz through hand-built T# and S#
 * (GFX9 SQ_IMG_RSRC_WORD0-7, SQ_IMG_SAMP_WORD0-3) on linear images; results computed by
 * hand. */
#include <math.h>
#include <stdlib.h>
#include <sys/mman.h>
#include "sim_isa_test.h"

/* T# TYPE, DATA_FORMAT, NUM_FORMAT, DST_SEL values. */
enum { T_1D = 8, T_2D = 9, T_3D = 10, T_CUBE = 11, T_1D_ARRAY = 12, T_2D_ARRAY = 13 };
enum { DF_8 = 1, DF_16 = 2, DF_8_8 = 3, DF_32 = 4, DF_5_6_5 = 16, DF_32_32 = 11,
       DF_8_8_8_8 = 10, DF_16_16_16_16 = 12, DF_32_32_32_32 = 14 };
enum { NF_UNORM = 0, NF_SNORM = 1, NF_UINT = 4, NF_SINT = 5, NF_FLOAT = 7 };
#define SEL(x, y, z, w) ((x) | (y) << 3 | (z) << 6 | (w) << 9)
#define SEL_XYZW SEL(4, 5, 6, 7)

typedef struct tdesc {
   const void *base;
   unsigned type, dfmt, nfmt, width, height, depth, pitch, sel, sw_mode;
   unsigned base_array, last_level;
} tdesc;

/* Writes the 8-dword T# at s[n]. depth: DEPTH field (3D: depth-1, arrays: last slice). */
static void
set_tsharp(sim_wave *w, unsigned n, tdesc d)
{
   uint64_t a = (uint64_t)(uintptr_t)d.base;
   CHECK((a & 0xFF) == 0);
   uint32_t *t = &w->s[n];
   t[0] = (uint32_t)(a >> 8);
   t[1] = ((uint32_t)(a >> 40) & 0xFF) | d.dfmt << 20 | d.nfmt << 26;
   t[2] = (d.width - 1) | (d.height ? d.height - 1 : 0) << 14;
   t[3] = (d.sel ? d.sel : SEL_XYZW) | d.last_level << 16 | d.sw_mode << 20 | d.type << 28;
   t[4] = d.depth | ((d.pitch ? d.pitch : d.width) - 1) << 13;
   t[5] = d.base_array | d.last_level << 28; /* MAX_MIP: the chain is the view's */
   t[6] = t[7] = 0;
}

/* S# clamp modes, filters, border colour type. */
enum { C_WRAP = 0, C_MIRROR = 1, C_EDGE = 2, C_BORDER = 6 };
static void
set_ssharp(sim_wave *w, unsigned n, unsigned clamp_x, unsigned clamp_y, bool bilinear,
           bool unnorm, unsigned border_type)
{
   uint32_t *s = &w->s[n];
   s[0] = clamp_x | clamp_y << 3 | clamp_x << 6 | (unnorm ? 1u << 15 : 0);
   s[1] = 0xFFF << 12; /* MAX_LOD */
   s[2] = bilinear ? (1u << 20 | 1u << 22) : 0;
   s[3] = border_type << 30;
}

static void
vset_all(sim_wave *w, unsigned v, uint32_t x)
{
   for (unsigned l = 0; l < 64; l++)
      w->v[v][l] = x;
}

static bool
near(float got, float want)
{
   return fabsf(got - want) <= 1e-6f * (1.0f + fabsf(want));
}

#define CHECK_F(got, want)                                                                  \
   do {                                                                                     \
      float g_ = (got), w_ = (want);                                                        \
      if (!near(g_, w_)) {                                                                  \
         fprintf(stderr, "FAIL %s: %s:%d: %s = %.9g, want %.9g\n", t_current, __FILE__,      \
                 __LINE__, #got, g_, w_);                                                   \
         t_failures++;                                                                      \
      }                                                                                     \
   } while (0)

/* RGBA8 UNORM 2-D image 4x3 with a pitch of 8 texels: lane l stores (l/255, 1 - l/255,
 * 0.5, 2.0) at (l % 4, l / 4). Lane 12 is out of range (x = 4 lands in the pitch padding
 * if the bound were not checked) and lanes 13+ are outside EXEC: neither writes. Reading
 * back with image_load returns byte/255. */
TEST(mimg_store_load_rgba8_pitch)
{
   uint8_t *img = t_alloc(8 * 3 * 4, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   memset(img, 0xEE, 8 * 3 * 4);
   sim_wave *w = t_wave();
   set_tsharp(w, 0, (tdesc){img, T_2D, DF_8_8_8_8, NF_UNORM, 4, 3, 0, 8});
   for (unsigned l = 0; l < 64; l++) {
      w->v[4][l] = l < 12 ? l % 4 : 4 + l;
      w->v[5][l] = l < 12 ? l / 4 : 0;
      w->v[0][l] = t_u((float)l / 255.0f);
      w->v[1][l] = t_u(1.0f - (float)l / 255.0f);
      w->v[2][l] = t_u(0.5f);
      w->v[3][l] = t_u(l & 1 ? 2.0f : -1.0f);
   }
   SIM_EXEC(w) = 0x1FFF;
   CHECK_EQ(t_run(w, "image_store v[0:3], v[4:5], s[0:7] dmask:0xf unorm\n"
                     "s_waitcnt vmcnt(0)\n"
                     "image_load v[8:11], v[4:5], s[0:7] dmask:0xf unorm\n"
                     "s_waitcnt vmcnt(0)"),
            SIM_FAULT_NONE);
   for (unsigned l = 0; l < 12; l++) {
      const uint8_t *p = img + ((l / 4) * 8 + l % 4) * 4;
      CHECK_EQ(p[0], l);
      CHECK_EQ(p[1], 255 - l);
      CHECK_EQ(p[2], 128); /* 127.5 rounds to even */
      CHECK_EQ(p[3], l & 1 ? 255 : 0);
      CHECK_EQ(w->v[8][l], t_u((float)l / 255.0f));
      CHECK_EQ(w->v[9][l], t_u((float)(255 - l) / 255.0f));
      CHECK_EQ(w->v[10][l], t_u(128.0f / 255.0f));
      CHECK_EQ(w->v[11][l], t_u(l & 1 ? 1.0f : 0.0f));
   }
   /* Padding texels x = 4..7 of every row untouched. */
   for (unsigned y = 0; y < 3; y++)
      for (unsigned b = 16; b < 32; b++)
         CHECK_EQ(img[y * 32 + b], 0xEE);
   /* Lane 12's out-of-range load reads zeros; lanes beyond EXEC keep their VGPRs. */
   CHECK_EQ(w->v[8][12], 0);
   CHECK_EQ(w->v[11][12], 0);
   CHECK_EQ(w->v[8][13], 0);
}

/* DMASK subsets: a store of (r, b) from two VGPRs writes g = a = 0; a load of (g, a)
 * packs them into two consecutive VGPRs; dmask 0x4 loads b alone. */
TEST(mimg_dmask)
{
   uint8_t *img = t_alloc(4 * 4, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   memset(img, 0x77, 16);
   sim_wave *w = t_wave();
   set_tsharp(w, 4, (tdesc){img, T_1D, DF_8_8_8_8, NF_UINT, 4, 1, 0, 4});
   for (unsigned l = 0; l < 64; l++) {
      w->v[1][l] = l & 3;
      w->v[2][l] = 10 + l;     /* r */
      w->v[3][l] = 300;        /* b: saturates to 255 */
   }
   SIM_EXEC(w) = 0xF;
   CHECK_EQ(t_run(w, "image_store v[2:3], v1, s[4:11] dmask:0x5 unorm\n"
                     "s_waitcnt vmcnt(0)\n"
                     "image_load v[6:7], v1, s[4:11] dmask:0xa unorm\n"
                     "image_load v8, v1, s[4:11] dmask:0x4 unorm\n"
                     "image_load v9, v1, s[4:11] dmask:0x1 unorm\n"
                     "s_waitcnt vmcnt(0)"),
            SIM_FAULT_NONE);
   for (unsigned l = 0; l < 4; l++) {
      CHECK_EQ(img[4 * l + 0], 10 + l);
      CHECK_EQ(img[4 * l + 1], 0);
      CHECK_EQ(img[4 * l + 2], 255);
      CHECK_EQ(img[4 * l + 3], 0);
      CHECK_EQ(w->v[6][l], 0);
      CHECK_EQ(w->v[7][l], 0);
      CHECK_EQ(w->v[8][l], 255);
      CHECK_EQ(w->v[9][l], 10 + l);
   }
}

/* Number formats: SNORM16 rounding, UINT16 saturation, SINT8 clamping and sign extension,
 * FLOAT16 conversion, FLOAT32 pass-through; DST_SEL BGRA swaps channels both ways; a
 * one-channel format reads (r, 0, 0, 1). */
TEST(mimg_formats)
{
   uint8_t *mem = t_alloc(4096, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   uint16_t *snorm = (uint16_t *)mem, *u16 = (uint16_t *)(mem + 256);
   int8_t *s8 = (int8_t *)(mem + 512);
   uint16_t *h = (uint16_t *)(mem + 768);
   uint8_t *bgra = mem + 1024, *r8 = mem + 1280;
   float *f32 = (float *)(mem + 1536);
   r8[0] = 51;
   f32[2] = -0.0f;
   f32[3] = 3.25f;
   sim_wave *w = t_wave();
   set_tsharp(w, 8, (tdesc){snorm, T_1D, DF_16, NF_SNORM, 4, 1});
   set_tsharp(w, 16, (tdesc){u16, T_1D, DF_16, NF_UINT, 4, 1});
   set_tsharp(w, 24, (tdesc){s8, T_1D, DF_8, NF_SINT, 4, 1});
   set_tsharp(w, 32, (tdesc){h, T_1D, DF_16_16_16_16, NF_FLOAT, 4, 1});
   set_tsharp(w, 40, (tdesc){bgra, T_1D, DF_8_8_8_8, NF_UNORM, 4, 1, 0, 0, SEL(6, 5, 4, 7)});
   set_tsharp(w, 48, (tdesc){r8, T_1D, DF_8, NF_UNORM, 4, 1, 0, 0, SEL(4, 0, 0, 1)});
   set_tsharp(w, 56, (tdesc){f32, T_1D, DF_32_32, NF_FLOAT, 2, 1});
   vset_all(w, 0, 0);
   vset_all(w, 1, t_u(-0.5f));
   vset_all(w, 2, 70000);
   vset_all(w, 3, (uint32_t)-200);
   vset_all(w, 4, t_u(1.5f));
   vset_all(w, 5, t_u(-2.0f));
   vset_all(w, 6, t_u(65504.0f * 4)); /* overflows f16: inf */
   vset_all(w, 7, t_u(0.25f));
   vset_all(w, 10, t_u(1.0f));       /* BGRA store: r = 1, g = 0, b = 0.2, a = 1 */
   vset_all(w, 11, t_u(0.0f));
   vset_all(w, 12, t_u(0.2f));
   vset_all(w, 13, t_u(1.0f));
   vset_all(w, 14, 1);               /* texel 1 of the RG32F image */
   SIM_EXEC(w) = 1;
   CHECK_EQ(t_run(w, "image_store v1, v0, s[8:15] dmask:0x1 unorm\n"
                     "image_store v2, v0, s[16:23] dmask:0x1 unorm\n"
                     "image_store v3, v0, s[24:31] dmask:0x1 unorm\n"
                     "image_store v[4:7], v0, s[32:39] dmask:0xf unorm\n"
                     "image_store v[10:13], v0, s[40:47] dmask:0xf unorm\n"
                     "s_waitcnt vmcnt(0)\n"
                     "image_load v20, v0, s[8:15] dmask:0x1 unorm\n"
                     "image_load v21, v0, s[24:31] dmask:0x1 unorm\n"
                     "image_load v[22:25], v0, s[32:39] dmask:0xf unorm\n"
                     "image_load v[26:29], v0, s[40:47] dmask:0xf unorm\n"
                     "image_load v[30:33], v0, s[48:55] dmask:0xf unorm\n"
                     "image_load v[34:37], v14, s[56:63] dmask:0xf unorm\n"
                     "s_waitcnt vmcnt(0)"),
            SIM_FAULT_NONE);
   CHECK_EQ(snorm[0], 0xC000); /* -16383.5 rounds to even: -16384 */
   CHECK_EQ(u16[0], 0xFFFF);
   CHECK_EQ(s8[0], -128);
   CHECK_EQ(h[0], 0x3E00);
   CHECK_EQ(h[1], 0xC000);
   CHECK_EQ(h[2], 0x7C00);
   CHECK_EQ(h[3], 0x3400);
   CHECK_EQ(bgra[0], 51);  /* B */
   CHECK_EQ(bgra[1], 0);   /* G */
   CHECK_EQ(bgra[2], 255); /* R */
   CHECK_EQ(bgra[3], 255); /* A */
   CHECK_EQ(w->v[20][0], t_u(-16384.0f / 32767.0f));
   CHECK_EQ(w->v[21][0], 0xFFFFFF80u);
   CHECK_EQ(w->v[22][0], t_u(1.5f));
   CHECK_EQ(w->v[23][0], t_u(-2.0f));
   CHECK_EQ(w->v[24][0], t_u(INFINITY));
   CHECK_EQ(w->v[25][0], t_u(0.25f));
   CHECK_EQ(w->v[26][0], t_u(1.0f));
   CHECK_EQ(w->v[27][0], t_u(0.0f));
   CHECK_EQ(w->v[28][0], t_u(51.0f / 255.0f));
   CHECK_EQ(w->v[29][0], t_u(1.0f));
   CHECK_EQ(w->v[30][0], t_u(51.0f / 255.0f));
   CHECK_EQ(w->v[31][0], 0);
   CHECK_EQ(w->v[32][0], 0);
   CHECK_EQ(w->v[33][0], t_u(1.0f));
   CHECK_EQ(w->v[34][0], 0x80000000u); /* -0.0 kept */
   CHECK_EQ(w->v[35][0], t_u(3.25f));
   CHECK_EQ(w->v[36][0], 0);           /* RG format: b = 0, a = 1 */
   CHECK_EQ(w->v[37][0], t_u(1.0f));
}

/* D16 (two components per VGPR), A16 (two address components per VGPR), TFE (status
 * VGPR after the data, 0), _pck (raw bits, _sgn sign-extends). */
TEST(mimg_d16_a16_tfe_pck)
{
   uint16_t *img = t_alloc(4 * 4 * 8, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   sim_wave *w = t_wave();
   /* 4x4 RGBA16 FLOAT, texel (x, y) = (x + y/4, -1, 0.5, 8) */
   for (unsigned y = 0; y < 4; y++)
      for (unsigned x = 0; x < 4; x++) {
         uint16_t *p = img + (y * 4 + x) * 4;
         p[0] = (uint16_t)sim__f32_to_f16((float)x + (float)y / 4.0f);
         p[1] = 0xBC00;
         p[2] = 0x3800;
         p[3] = 0x4800;
      }
   set_tsharp(w, 0, (tdesc){img, T_2D, DF_16_16_16_16, NF_FLOAT, 4, 4});
   set_tsharp(w, 8, (tdesc){img, T_2D, DF_16_16_16_16, NF_SINT, 4, 4});
   for (unsigned l = 0; l < 64; l++) {
      w->v[0][l] = (l & 3) | ((l >> 2) & 3) << 16; /* A16: x low, y high */
      w->v[1][l] = l & 3;
      w->v[2][l] = (l >> 2) & 3;
      w->v[10][l] = w->v[11][l] = w->v[12][l] = w->v[13][l] = w->v[14][l] = 0xDEAD;
   }
   SIM_EXEC(w) = 0xFFFF;
   CHECK_EQ(t_run(w, "image_load v[4:5], v0, s[0:7] dmask:0xf unorm a16 d16\n"
                     "image_load v[10:14], v[1:2], s[0:7] dmask:0xf unorm tfe\n"
                     "image_load_pck v[6:7], v[1:2], s[0:7] dmask:0x3 unorm\n"
                     "image_load_pck_sgn v[8:9], v[1:2], s[8:15] dmask:0x3 unorm\n"
                     "s_waitcnt vmcnt(0)"),
            SIM_FAULT_NONE);
   for (unsigned l = 0; l < 16; l++) {
      uint32_t r = sim__f32_to_f16((float)(l & 3) + (float)(l >> 2) / 4.0f);
      CHECK_EQ(w->v[4][l], r | 0xBC00u << 16);
      CHECK_EQ(w->v[5][l], 0x3800u | 0x4800u << 16);
      CHECK_EQ(w->v[10][l], t_u((float)(l & 3) + (float)(l >> 2) / 4.0f));
      CHECK_EQ(w->v[11][l], t_u(-1.0f));
      CHECK_EQ(w->v[13][l], t_u(8.0f));
      CHECK_EQ(w->v[14][l], 0); /* TFE status */
      CHECK_EQ(w->v[6][l], r);
      CHECK_EQ(w->v[7][l], 0xBC00u);
      CHECK_EQ(w->v[9][l], 0xFFFFBC00u);
   }
   /* D16 store: halves of one VGPR into r and g; _pck store writes raw low bits. */
   w = t_wave();
   uint16_t *rg = t_alloc(64, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   uint16_t *rg8 = t_alloc(64, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   set_tsharp(w, 0, (tdesc){rg, T_1D, DF_16_16_16_16, NF_FLOAT, 4, 1});
   set_tsharp(w, 8, (tdesc){rg8, T_1D, DF_8_8, NF_UNORM, 4, 1});
   vset_all(w, 0, 0x3C00u | 0xC400u << 16); /* 1.0, -4.0 in f16 */
   vset_all(w, 1, 2);
   vset_all(w, 2, 0x1234);
   vset_all(w, 3, 0x5678);
   SIM_EXEC(w) = 1;
   CHECK_EQ(t_run(w, "image_store v0, v1, s[0:7] dmask:0x3 unorm d16\n"
                     "image_store_pck v[2:3], v1, s[8:15] dmask:0x3 unorm"),
            SIM_FAULT_NONE);
   CHECK_EQ(rg[8], 0x3C00); /* texel 2 of RGBA16F at byte 16 */
   CHECK_EQ(rg[9], 0xC400);
   CHECK_EQ(rg[10], 0);
   CHECK_EQ(rg[11], 0);
   CHECK_EQ(rg[4], 0);
   CHECK_EQ(rg8[2], 0x7834); /* texel 2 of the RG8 image at byte 4: raw low bytes */
   CHECK_EQ(rg8[1], 0);
}

/* 3-D and 2-D array addressing: slice offsets are slice * height * pitch texels; arrays
 * add BASE_ARRAY and bound the layer by the DEPTH field (last slice). */
TEST(mimg_3d_array)
{
   uint32_t *img = t_alloc(4 * 3 * 5 * 4, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   for (unsigned i = 0; i < 60; i++)
      img[i] = 1000 + i;
   sim_wave *w = t_wave();
   /* 3D 3x3x4 with pitch 4; 2D array 3x3, pitch 4, layers 1..3 (base 1, last 3) */
   set_tsharp(w, 0, (tdesc){img, T_3D, DF_32, NF_UINT, 3, 3, 3, 4});
   set_tsharp(w, 8, (tdesc){img, T_2D_ARRAY, DF_32, NF_UINT, 3, 3, 3, 4, 0, 0, 1});
   vset_all(w, 0, 2);
   vset_all(w, 1, 1);
   for (unsigned l = 0; l < 64; l++)
      w->v[2][l] = l; /* z / layer */
   SIM_EXEC(w) = 0x1F;
   CHECK_EQ(t_run(w, "image_load v3, v[0:2], s[0:7] dmask:0x1 unorm\n"
                     "image_load v4, v[0:2], s[8:15] dmask:0x1 unorm da\n"
                     "s_waitcnt vmcnt(0)"),
            SIM_FAULT_NONE);
   for (unsigned l = 0; l < 5; l++) {
      CHECK_EQ(w->v[3][l], l < 4 ? 1000 + (l * 3 + 1) * 4 + 2 : 0);
      CHECK_EQ(w->v[4][l], l < 3 ? 1000 + ((l + 1) * 3 + 1) * 4 + 2 : 0);
   }
}

/* _mip: level 0 works, a level past LAST_LEVEL reads 0 / is not written; level 1 of a
 * 1D chain is the next row of the pitch (4 texels): texel 1 of level 1 is dword 5, and
 * level 1 is 2 texels wide, so x = 2 there reads 0. */
TEST(mimg_mip)
{
   uint32_t *img = t_alloc(64, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   img[1] = 77;
   sim_wave *w = t_wave();
   set_tsharp(w, 0, (tdesc){img, T_1D, DF_32, NF_UINT, 4, 1});
   vset_all(w, 0, 1);
   vset_all(w, 1, 0);
   vset_all(w, 5, 99);
   w->v[1][1] = 1;
   SIM_EXEC(w) = 3;
   CHECK_EQ(t_run(w, "image_load_mip v2, v[0:1], s[0:7] dmask:0x1 unorm\n"
                     "image_store_mip v5, v[0:1], s[0:7] dmask:0x1 unorm\n"
                     "s_waitcnt vmcnt(0)"),
            SIM_FAULT_NONE);
   CHECK_EQ(w->v[2][0], 77);
   CHECK_EQ(w->v[2][1], 0);
   CHECK_EQ(img[1], 99);
   img[5] = 55;
   w = t_wave();
   set_tsharp(w, 0, (tdesc){img, T_1D, DF_32, NF_UINT, 4, 1, 0, 0, 0, 0, 0, 1});
   vset_all(w, 0, 1);
   vset_all(w, 1, 1);
   w->v[0][1] = 2;
   SIM_EXEC(w) = 3;
   CHECK_EQ(t_run(w, "image_load_mip v2, v[0:1], s[0:7] dmask:0x1 unorm"), SIM_FAULT_NONE);
   CHECK_EQ(w->v[2][0], 55);
   CHECK_EQ(w->v[2][1], 0);
}

/* A 4x4 RGBA8 UNORM texture whose red channel is 10 * (x + 4 * y) + 5 and green 255 - red;
 * blue = x * 64, alpha = 255. */
static uint8_t *
sample_texture(void)
{
   uint8_t *tex = t_alloc(4 * 4 * 4, SIM_ALLOC_READ);
   for (unsigned y = 0; y < 4; y++)
      for (unsigned x = 0; x < 4; x++) {
         uint8_t *p = tex + (y * 4 + x) * 4;
         p[0] = (uint8_t)(10 * (x + 4 * y) + 5);
         p[1] = (uint8_t)(255 - p[0]);
         p[2] = (uint8_t)(x * 64);
         p[3] = 255;
      }
   return tex;
}

static float
red(unsigned x, unsigned y)
{
   return (float)(10 * (x + 4 * y) + 5) / 255.0f;
}

/* Bilinear at the midpoint of texels (1,1),(2,1),(1,2),(2,2): their average; at a
 * quarter offset: weights 3/4, 1/4. Point sampling picks the texel under the coordinate. */
TEST(mimg_sample_bilinear_point)
{
   uint8_t *tex = sample_texture();
   sim_wave *w = t_wave();
   set_tsharp(w, 0, (tdesc){tex, T_2D, DF_8_8_8_8, NF_UNORM, 4, 4});
   set_ssharp(w, 8, C_EDGE, C_EDGE, true, false, 0);
   set_ssharp(w, 12, C_EDGE, C_EDGE, false, false, 0);
   /* lane 0: (0.5, 0.5) = texel-space (2, 2); lane 1: texel-space (1.75, 2.5):
    * x between 1 and 2 with weights 0.75/0.25, y exactly on row 2. */
   w->v[4][0] = t_u(0.5f);
   w->v[5][0] = t_u(0.5f);
   w->v[4][1] = t_u(1.75f / 4.0f);
   w->v[5][1] = t_u(2.5f / 4.0f);
   SIM_EXEC(w) = 3;
   CHECK_EQ(t_run(w, "image_sample_lz v[0:3], v[4:5], s[0:7], s[8:11] dmask:0xf\n"
                     "image_sample_lz v[6:7], v[4:5], s[0:7], s[12:15] dmask:0x5\n"
                     "s_waitcnt vmcnt(0)"),
            SIM_FAULT_NONE);
   float avg = (red(1, 1) + red(2, 1) + red(1, 2) + red(2, 2)) / 4.0f;
   CHECK_F(t_f(w->v[0][0]), avg);
   CHECK_F(t_f(w->v[1][0]), 1.0f - avg);
   CHECK_F(t_f(w->v[2][0]), (64.0f + 128.0f) / 2.0f / 255.0f);
   CHECK_F(t_f(w->v[3][0]), 1.0f);
   CHECK_F(t_f(w->v[0][1]), 0.75f * red(1, 2) + 0.25f * red(2, 2));
   /* point: (2, 2) and (1, 2); dmask 0x5 = red, blue */
   CHECK_EQ(w->v[6][0], t_u(red(2, 2)));
   CHECK_EQ(w->v[7][0], t_u(128.0f / 255.0f));
   CHECK_EQ(w->v[6][1], t_u(red(1, 2)));
   CHECK_EQ(w->v[7][1], t_u(64.0f / 255.0f));
}

/* Clamp modes: clamp-to-edge, wrap and mirror on point and bilinear sampling; clamp to
 * border with opaque black and opaque white; FORCE_UNNORMALIZED coordinates. */
TEST(mimg_sample_clamp_modes)
{
   uint8_t *tex = sample_texture();
   sim_wave *w = t_wave();
   set_tsharp(w, 0, (tdesc){tex, T_2D, DF_8_8_8_8, NF_UNORM, 4, 4});
   set_ssharp(w, 8, C_EDGE, C_EDGE, false, false, 0);
   set_ssharp(w, 12, C_WRAP, C_WRAP, false, false, 0);
   set_ssharp(w, 16, C_MIRROR, C_MIRROR, false, false, 0);
   set_ssharp(w, 20, C_EDGE, C_EDGE, true, false, 0);
   set_ssharp(w, 24, C_WRAP, C_WRAP, true, false, 0);
   set_ssharp(w, 28, C_BORDER, C_BORDER, false, false, 1);
   set_ssharp(w, 32, C_BORDER, C_BORDER, true, false, 2);
   set_ssharp(w, 36, C_EDGE, C_EDGE, false, true, 0);
   /* lane 0: s = -0.5, t = 1.25 (texel-space -2, 5); lane 1: s = 1.125, t = -0.125
    * (texel-space 4.5, -0.5); lane 2: s = 0, t = 0 (texel-space corner). */
   float s[3] = {-0.5f, 1.125f, 0.0f}, t[3] = {1.25f, -0.125f, 0.0f};
   for (unsigned l = 0; l < 3; l++) {
      w->v[4][l] = t_u(s[l]);
      w->v[5][l] = t_u(t[l]);
   }
   vset_all(w, 6, t_u(2.5f)); /* unnormalised texel-space (2.5, 1.5) */
   vset_all(w, 7, t_u(1.5f));
   SIM_EXEC(w) = 7;
   CHECK_EQ(t_run(w, "image_sample_lz v10, v[4:5], s[0:7], s[8:11] dmask:0x1\n"
                     "image_sample_lz v11, v[4:5], s[0:7], s[12:15] dmask:0x1\n"
                     "image_sample_lz v12, v[4:5], s[0:7], s[16:19] dmask:0x1\n"
                     "image_sample_lz v13, v[4:5], s[0:7], s[20:23] dmask:0x1\n"
                     "image_sample_lz v14, v[4:5], s[0:7], s[24:27] dmask:0x1\n"
                     "image_sample_lz v[16:19], v[4:5], s[0:7], s[28:31] dmask:0xf\n"
                     "image_sample_lz v[20:23], v[4:5], s[0:7], s[32:35] dmask:0xf\n"
                     "image_sample_lz v15, v[6:7], s[0:7], s[36:39] dmask:0x1\n"
                     "s_waitcnt vmcnt(0)"),
            SIM_FAULT_NONE);
   /* clamp to edge, point: (0, 3), (3, 0), (0, 0) */
   CHECK_EQ(w->v[10][0], t_u(red(0, 3)));
   CHECK_EQ(w->v[10][1], t_u(red(3, 0)));
   CHECK_EQ(w->v[10][2], t_u(red(0, 0)));
   /* wrap, point: x -2 -> 2, y 5 -> 1; x 4 -> 0, y -1 -> 3 */
   CHECK_EQ(w->v[11][0], t_u(red(2, 1)));
   CHECK_EQ(w->v[11][1], t_u(red(0, 3)));
   /* mirror, point: x -2 -> 1, y 5 -> 2; x 4 -> 3, y -1 -> 0 */
   CHECK_EQ(w->v[12][0], t_u(red(1, 2)));
   CHECK_EQ(w->v[12][1], t_u(red(3, 0)));
   /* clamp to edge, bilinear at the corner: all four taps clamp to (0, 0) */
   CHECK_F(t_f(w->v[13][2]), red(0, 0));
   /* wrap, bilinear at the corner: texels (3,3), (0,3), (3,0), (0,0) equally */
   CHECK_F(t_f(w->v[14][2]), (red(3, 3) + red(0, 3) + red(3, 0) + red(0, 0)) / 4.0f);
   /* border, point, opaque black: lanes 0 and 1 fall outside */
   for (unsigned l = 0; l < 2; l++) {
      CHECK_EQ(w->v[16][l], 0);
      CHECK_EQ(w->v[17][l], 0);
      CHECK_EQ(w->v[18][l], 0);
      CHECK_EQ(w->v[19][l], t_u(1.0f));
   }
   CHECK_EQ(w->v[16][2], t_u(red(0, 0)));
   /* border, bilinear, opaque white at the corner: 3 of 4 taps are border */
   CHECK_F(t_f(w->v[20][2]), 0.75f + 0.25f * red(0, 0));
   CHECK_F(t_f(w->v[22][2]), 0.75f);
   CHECK_EQ(w->v[20][0], t_u(1.0f));
   /* unnormalised (2.5, 1.5) -> texel (2, 1) */
   CHECK_EQ(w->v[15][0], t_u(red(2, 1)));
}

/* Float and integer formats: R32F point sampling returns the stored value exactly; a
 * 2-D array picks its slice by rounding; an integer format samples with point filtering
 * only (bilinear faults). */
TEST(mimg_sample_float_int_array)
{
   float *f = t_alloc(2 * 2 * 3 * 4, SIM_ALLOC_READ);
   for (unsigned i = 0; i < 12; i++)
      f[i] = 0.1f * (float)i - 0.3f;
   sim_wave *w = t_wave();
   set_tsharp(w, 0, (tdesc){f, T_2D_ARRAY, DF_32, NF_FLOAT, 2, 2, 2, 2});
   set_tsharp(w, 16, (tdesc){f, T_2D, DF_32, NF_SINT, 2, 2});
   set_ssharp(w, 8, C_EDGE, C_EDGE, false, false, 0);
   set_ssharp(w, 12, C_EDGE, C_EDGE, true, false, 0);
   vset_all(w, 4, t_u(0.75f));
   vset_all(w, 5, t_u(0.25f));
   for (unsigned l = 0; l < 64; l++)
      w->v[6][l] = t_u((float)l * 0.5f); /* slice: 0, 0.5 -> 0 (even), 1, 1.5 -> 2, 2, 9 -> 2 */
   SIM_EXEC(w) = 0x3F;
   CHECK_EQ(t_run(w, "image_sample_lz v10, v[4:6], s[0:7], s[8:11] dmask:0x1 da\n"
                     "image_sample_lz v11, v[4:5], s[16:23], s[8:11] dmask:0x1\n"
                     "s_waitcnt vmcnt(0)"),
            SIM_FAULT_NONE);
   unsigned slice[6] = {0, 0, 1, 2, 2, 2};
   for (unsigned l = 0; l < 6; l++)
      CHECK_EQ(w->v[10][l], t_u(f[slice[l] * 4 + 1]));
   CHECK_EQ(w->v[11][0], t_u(f[1]));
   CHECK_EQ(t_run(w, "image_sample_lz v11, v[4:5], s[16:23], s[12:15] dmask:0x1"),
            SIM_FAULT_ILLEGAL_INSTRUCTION);
   CHECK(strstr(t_fault.message, "integer") != NULL);
}

/* SRGB: colour channels are sRGB-encoded, alpha is linear UNORM; MIRROR_ONCE_LAST_TEXEL
 * mirrors a negative coordinate once; a 1-D array samples (s, slice). */
TEST(mimg_srgb_mirror_once_1d_array)
{
   uint8_t *img = t_alloc(4 * 4, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   sim_wave *w = t_wave();
   set_tsharp(w, 0, (tdesc){img, T_1D, DF_8_8_8_8, 9 /* SRGB */, 4, 1});
   vset_all(w, 0, 0);
   vset_all(w, 1, t_u(1.0f));
   vset_all(w, 2, t_u(0.0f));
   vset_all(w, 3, t_u(0.2158605f)); /* sRGB 128/255 in linear */
   vset_all(w, 4, t_u(0.5f));
   SIM_EXEC(w) = 1;
   CHECK_EQ(t_run(w, "image_store v[1:4], v0, s[0:7] dmask:0xf unorm\n"
                     "s_waitcnt vmcnt(0)\n"
                     "image_load v[5:8], v0, s[0:7] dmask:0xf unorm\n"
                     "s_waitcnt vmcnt(0)"),
            SIM_FAULT_NONE);
   CHECK_EQ(img[0], 255);
   CHECK_EQ(img[1], 0);
   CHECK_EQ(img[2], 128);
   CHECK_EQ(img[3], 128); /* alpha: 127.5 rounds to even, no sRGB curve */
   CHECK_EQ(w->v[5][0], t_u(1.0f));
   CHECK(fabsf(t_f(w->v[7][0]) - 0.2158605f) < 1e-5f);
   CHECK_EQ(w->v[8][0], t_u(128.0f / 255.0f));

   /* 1-D array of 4 texels x 2 layers, R32F: layer l texel x = 10 * l + x. */
   float *f = t_alloc(8 * 4, SIM_ALLOC_READ);
   for (unsigned i = 0; i < 8; i++)
      f[i] = (float)(10 * (i / 4) + i % 4);
   w = t_wave();
   set_tsharp(w, 0, (tdesc){f, T_1D_ARRAY, DF_32, NF_FLOAT, 4, 1, 1});
   set_ssharp(w, 8, 3 /* MIRROR_ONCE_LAST_TEXEL */, 0, false, false, 0);
   w->v[0][0] = t_u(-0.3f);  /* texel-space -1.2 -> 1.2: texel 1 */
   w->v[0][1] = t_u(-2.0f);  /* -8 -> 8: clamps to the last texel */
   w->v[0][2] = t_u(0.6f);   /* 2.4: texel 2 */
   w->v[1][0] = t_u(1.0f);
   w->v[1][1] = t_u(0.0f);
   w->v[1][2] = t_u(7.0f);   /* clamps to the last layer */
   SIM_EXEC(w) = 7;
   CHECK_EQ(t_run(w, "image_sample_lz v2, v[0:1], s[0:7], s[8:11] dmask:0x1 da\n"
                     "s_waitcnt vmcnt(0)"),
            SIM_FAULT_NONE);
   CHECK_EQ(w->v[2][0], t_u(11.0f));
   CHECK_EQ(w->v[2][1], t_u(3.0f));
   CHECK_EQ(w->v[2][2], t_u(12.0f));
}

/* What the model does not implement faults as an illegal instruction naming the field:
 * a tiled SW_MODE, an unsupported data format, a cube image, a border colour from the
 * table; other MIMG opcodes have no handler. A texel outside every
 * allocation is a memory violation. With EXEC = 0 nothing is read, nothing faults. */
TEST(mimg_faults)
{
   uint8_t *img = t_alloc(4096, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   sim_wave *w = t_wave();
   set_tsharp(w, 0, (tdesc){img, T_2D, DF_8_8_8_8, NF_UNORM, 4, 4, 0, 0, 0, 9});
   CHECK_EQ(t_run(w, "image_store v[0:3], v[4:5], s[0:7] dmask:0xf unorm"),
            SIM_FAULT_ILLEGAL_INSTRUCTION);
   CHECK(strstr(t_fault.message, "SW_MODE 9") != NULL);
   CHECK(strstr(t_fault.message, "image_store") != NULL);
   CHECK_EQ(img[0], 0);

   w = t_wave();
   set_tsharp(w, 0, (tdesc){img, T_2D, DF_8_8_8_8, NF_UNORM, 4, 4, 0, 0, 0, 9});
   set_ssharp(w, 8, C_EDGE, C_EDGE, false, false, 0);
   CHECK_EQ(t_run(w, "image_sample_lz v[0:3], v[4:5], s[0:7], s[8:11] dmask:0xf"),
            SIM_FAULT_ILLEGAL_INSTRUCTION);
   CHECK(strstr(t_fault.message, "image_sample_lz") != NULL);

   w = t_wave();
   SIM_EXEC(w) = 0;
   CHECK_EQ(t_run(w, "image_store v[0:3], v[4:5], s[0:7] dmask:0xf unorm"), SIM_FAULT_NONE);

   w = t_wave();
   set_tsharp(w, 0, (tdesc){img, T_2D, 13 /* 32_32_32 */, NF_UNORM, 4, 4});
   CHECK_EQ(t_run(w, "image_load v0, v[4:5], s[0:7] dmask:0x1 unorm"),
            SIM_FAULT_ILLEGAL_INSTRUCTION);
   CHECK(strstr(t_fault.message, "DATA_FORMAT 13") != NULL);

   /* A buffer resource (TYPE 0) whose DATA_FORMAT is 0 (invalid), e.g. an all-zero
    * descriptor: illegal instruction, nothing read. */
   w = t_wave();
   CHECK_EQ(t_run(w, "image_load v0, v4, s[0:7] dmask:0x1 unorm"),
            SIM_FAULT_ILLEGAL_INSTRUCTION);
   CHECK(strstr(t_fault.message, "buffer resource DATA_FORMAT 0") != NULL);

   w = t_wave();
   set_tsharp(w, 0, (tdesc){img, T_CUBE, DF_32, NF_FLOAT, 4, 4, 5});
   CHECK_EQ(t_run(w, "image_load v0, v[4:6], s[0:7] dmask:0x1 unorm da"),
            SIM_FAULT_ILLEGAL_INSTRUCTION);
   CHECK(strstr(t_fault.message, "cube") != NULL);

   w = t_wave();
   set_tsharp(w, 0, (tdesc){img, T_2D, DF_32, NF_FLOAT, 4, 4});
   set_ssharp(w, 8, C_BORDER, C_BORDER, false, false, 3);
   CHECK_EQ(t_run(w, "image_sample_lz v0, v[4:5], s[0:7], s[8:11] dmask:0x1"),
            SIM_FAULT_ILLEGAL_INSTRUCTION);
   CHECK(strstr(t_fault.message, "BORDER_COLOR_TYPE 3") != NULL);

   /* A 1024x1024 RGBA8 image at a 4 KiB allocation: texel (0, 100) is outside it. The
    * allocation starts a private 1 MiB mapping, so that no other allocation of the tests
    * can lie 400 KiB past it (heap layouts differ, e.g. under ThreadSanitizer). */
   uint8_t *lone = mmap(NULL, 1u << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                        -1, 0);
   CHECK(lone != MAP_FAILED);
   if (lone == MAP_FAILED)
      return;
   t_register(lone, 4096, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   img = lone;
   w = t_wave();
   set_tsharp(w, 0, (tdesc){img, T_2D, DF_8_8_8_8, NF_UNORM, 1024, 1024});
   vset_all(w, 5, 100);
   CHECK_EQ(t_run(w, "image_store v[0:3], v[4:5], s[0:7] dmask:0xf unorm"),
            SIM_FAULT_MEMORY_VIOLATION);
   CHECK_EQ(t_fault.address, (uint64_t)(uintptr_t)img + 100 * 1024 * 4);
   w = t_wave();
   set_tsharp(w, 0, (tdesc){img, T_2D, DF_8_8_8_8, NF_UNORM, 1024, 1024});
   set_ssharp(w, 8, C_EDGE, C_EDGE, false, true, 0);
   vset_all(w, 5, t_u(100.0f));
   CHECK_EQ(t_run(w, "image_sample_lz v[0:3], v[4:5], s[0:7], s[8:11] dmask:0xf"),
            SIM_FAULT_MEMORY_VIOLATION);

   /* image_sample v[0:3], v[4:5], s[0:7], s[8:11] dmask:0xf decodes with its fields. */
   const uint32_t sample[2] = {0xF0800F00u, 0x00400004u};
   sim_inst in;
   sim__decode(sim__target(SIM_TARGET_GFX906), sample, sizeof(sample), &in);
   CHECK_EQ(in.op, SIM_OP_image_sample);
   CHECK_EQ(in.enc, SIM_ENC_MIMG);
   CHECK_EQ(in.mimg.dmask, 0xF);
   CHECK_EQ(in.mimg.vaddr, 4);
   CHECK_EQ(in.mimg.ssamp, 8);
   CHECK(sim__handler(SIM_OP_image_sample) != NULL);
}

/* Texels are reached through the allocation of the image's base texel when they lie in it
 * (sim_mimg.c texel_ptr); one past it goes through the allocation look-up. A 1024-wide RGBA8
 * image whose row 0 is one 4 KiB allocation and row 1 the next: a store and a load with
 * lanes in both rows move every texel; a sample of row 1 reads the second allocation. An
 * image in a read-only allocation: a store faults at the first lane's texel, writing
 * nothing (the direct path never writes what the look-up would refuse). */
TEST(mimg_texels_across_allocations)
{
   uint8_t *m = mmap(NULL, 1u << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
                     0);
   CHECK(m != MAP_FAILED);
   if (m == MAP_FAILED)
      return;
   t_register(m, 4096, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   t_register(m + 4096, 4096, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   sim_wave *w = t_wave();
   set_tsharp(w, 0, (tdesc){m, T_2D, DF_8_8_8_8, NF_UINT, 1024, 2});
   for (unsigned l = 0; l < 64; l++) {
      w->v[4][l] = 1000 + l % 24;
      w->v[5][l] = l / 24 & 1;
      for (unsigned c = 0; c < 4; c++)
         w->v[c][l] = (l * 4 + c) & 0xFF;
   }
   SIM_EXEC(w) = (1ull << 48) - 1; /* lanes 0-23 row 0, 24-47 row 1 */
   CHECK_EQ(t_run(w, "image_store v[0:3], v[4:5], s[0:7] dmask:0xf unorm\n"
                     "s_waitcnt vmcnt(0)\n"
                     "image_load v[8:11], v[4:5], s[0:7] dmask:0xf unorm\n"
                     "s_waitcnt vmcnt(0)"),
            SIM_FAULT_NONE);
   for (unsigned l = 0; l < 48; l++) {
      const uint8_t *p = m + ((l / 24) * 1024 + 1000 + l % 24) * 4;
      for (unsigned c = 0; c < 4; c++) {
         CHECK_EQ(p[c], (l * 4 + c) & 0xFF);
         CHECK_EQ(w->v[8 + c][l], (l * 4 + c) & 0xFF);
      }
   }
   w = t_wave();
   set_tsharp(w, 0, (tdesc){m, T_2D, DF_8_8_8_8, NF_UNORM, 1024, 2});
   set_ssharp(w, 8, C_EDGE, C_EDGE, false, true, 0);
   vset_all(w, 4, t_u(1030.5f - 24.0f));
   vset_all(w, 5, t_u(1.5f));
   CHECK_EQ(t_run(w, "image_sample_lz v[0:3], v[4:5], s[0:7], s[8:11] dmask:0xf"),
            SIM_FAULT_NONE);
   /* Texel (1006, 1) is lane 30's store: bytes 120..123. */
   for (unsigned c = 0; c < 4; c++)
      CHECK_EQ(w->v[c][5], t_u((float)(120 + c) / 255.0f));

   uint8_t *ro = m + 65536;
   t_register(ro, 4096, SIM_ALLOC_READ);
   memset(ro, 0x5A, 4096);
   w = t_wave();
   set_tsharp(w, 0, (tdesc){ro, T_2D, DF_8_8_8_8, NF_UNORM, 16, 16});
   for (unsigned l = 0; l < 64; l++) {
      w->v[4][l] = l % 16;
      w->v[5][l] = l / 16;
   }
   CHECK_EQ(t_run(w, "image_store v[0:3], v[4:5], s[0:7] dmask:0xf unorm"),
            SIM_FAULT_MEMORY_VIOLATION);
   CHECK_EQ(t_fault.address, (uint64_t)(uintptr_t)ro);
   for (unsigned b = 0; b < 4096; b++)
      CHECK_EQ(ro[b], 0x5A);
}

/* An 8-bit UNORM (and SRGB alpha) channel converts to raw / 255.0f exactly, as the
 * division at run time gives it (sim_texel.c folds it into a table). */
TEST(texel_unorm8_exact)
{
   sim_texel_fmt f;
   CHECK(sim__texel_format(SIM_DFMT_8_8_8_8, SIM_NFMT_UNORM, &f));
   sim_texel_fmt srgb;
   CHECK(sim__texel_format(SIM_DFMT_8_8_8_8, SIM_NFMT_SRGB, &srgb));
   volatile float max = 255.0f;
   for (uint32_t raw = 0; raw < 256; raw++) {
      uint32_t want = t_u((float)raw / max);
      CHECK_EQ(sim__texel_to_reg(&f, 0, raw), want);
      CHECK_EQ(sim__texel_to_reg(&f, 3, raw), want);
      CHECK_EQ(sim__texel_to_reg(&srgb, 3, raw), want);
   }
}

/* Packed formats, with ROCr's RGB swizzle (X, Y, Z, W) = (Z, Y, X, 1) for 565 and 1555:
 *  565  store (r, g, b) = (1.0, 0.5, 0.25): X = b = round(7.75) = 8, Y = g = round(31.5)
 *       = 32 (to even), Z = r = 31: 8 | 32 << 5 | 31 << 11 = 0xFC08;
 *  1555 X = 8, Y = round(0.5 * 31 = 15.5) = 16, Z = 31, W (bit 15) not written:
 *       8 | 16 << 5 | 31 << 10 = 0x7E08;
 *  2_10_10_10 RGBA (0.5, 0.25, 1.0, 0.7): X = round(511.5) = 512, Y = round(255.75) = 256,
 *       Z = 1023, W = round(2.1) = 2: 0xBFF40200.
 * Loads return channel / (2^bits - 1) through the swizzle; a missing alpha reads 1. */
TEST(mimg_packed_formats)
{
   uint8_t *img = t_alloc(4096, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   static const struct {
      unsigned dfmt, sel, bytes;
      uint32_t want;
   } f[] = {
      {DF_5_6_5, SEL(6, 5, 4, 1), 2, 0xFC08},
      {17 /* 1_5_5_5 */, SEL(6, 5, 4, 1), 2, 0x7E08},
      {9 /* 2_10_10_10 */, SEL_XYZW, 4, 0xBFF40200u},
   };
   for (unsigned k = 0; k < 3; k++) {
      memset(img, 0, 4096);
      sim_wave *w = t_wave();
      set_tsharp(w, 0, (tdesc){img, T_1D, f[k].dfmt, NF_UNORM, 64, 1, 0, 64, f[k].sel});
      for (unsigned l = 0; l < 64; l++)
         w->v[4][l] = l;
      bool rgba = f[k].sel == SEL_XYZW;
      vset_all(w, 0, t_u(rgba ? 0.5f : 1.0f));
      vset_all(w, 1, t_u(rgba ? 0.25f : 0.5f));
      vset_all(w, 2, t_u(rgba ? 1.0f : 0.25f));
      vset_all(w, 3, t_u(0.7f));
      CHECK_EQ(t_run(w, "image_store v[0:3], v4, s[0:7] dmask:0xf unorm\n"
                        "s_waitcnt vmcnt(0)\n"
                        "image_load v[8:11], v4, s[0:7] dmask:0xf unorm\n"
                        "s_waitcnt vmcnt(0)"),
               SIM_FAULT_NONE);
      uint32_t got = 0;
      memcpy(&got, img + 5 * f[k].bytes, f[k].bytes);
      CHECK_EQ(got, f[k].want);
      if (k == 0) {
         CHECK_EQ(w->v[8][5], t_u(1.0f));
         CHECK_EQ(w->v[9][5], t_u(32.0f / 63.0f));
         CHECK_EQ(w->v[10][5], t_u(8.0f / 31.0f));
         CHECK_EQ(w->v[11][5], t_u(1.0f));
      } else if (k == 1) {
         CHECK_EQ(w->v[8][5], t_u(1.0f));
         CHECK_EQ(w->v[9][5], t_u(16.0f / 31.0f));
         CHECK_EQ(w->v[10][5], t_u(8.0f / 31.0f));
         CHECK_EQ(w->v[11][5], t_u(1.0f));
      } else {
         CHECK_EQ(w->v[8][5], t_u(512.0f / 1023.0f));
         CHECK_EQ(w->v[9][5], t_u(256.0f / 1023.0f));
         CHECK_EQ(w->v[10][5], t_u(1.0f));
         CHECK_EQ(w->v[11][5], t_u(2.0f / 3.0f));
      }
   }
}

/* A buffer resource (V#, TYPE 0) in an image instruction, as ROCr's 1D buffer images are
 * used by its blit kernels: element x at BASE + x * STRIDE, NUM_RECORDS bytes (16 elements
 * of 4 here), the V#'s DATA_FORMAT 8_8_8_8 / NUM_FORMAT UINT and DST_SEL (Z, Y, X, W):
 * lane l stores (l, l + 1, l + 2, 300) at x = l: bytes (l + 2, l + 1, l, 255 saturated);
 * lanes 16+ are out of range: not written, and read back as 0 (alpha 0: the format has it). */
TEST(mimg_buffer_resource)
{
   uint8_t *buf = t_alloc(4096, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   memset(buf, 0xEE, 4096);
   sim_wave *w = t_wave();
   uint64_t a = (uint64_t)(uintptr_t)buf + 4;
   uint32_t *v = &w->s[0];
   v[0] = (uint32_t)a;
   v[1] = (uint32_t)(a >> 32) | 4u << 16; /* STRIDE 4 */
   v[2] = 64;                             /* NUM_RECORDS */
   v[3] = SEL(6, 5, 4, 7) | 4u << 12 | 10u << 15;
   v[4] = v[5] = v[6] = v[7] = 0;
   for (unsigned l = 0; l < 64; l++) {
      w->v[4][l] = l;
      w->v[0][l] = l;
      w->v[1][l] = l + 1;
      w->v[2][l] = l + 2;
      w->v[3][l] = 300;
   }
   CHECK_EQ(t_run(w, "image_store v[0:3], v4, s[0:7] dmask:0xf unorm\n"
                     "s_waitcnt vmcnt(0)\n"
                     "image_load v[8:11], v4, s[0:7] dmask:0xf unorm\n"
                     "s_waitcnt vmcnt(0)"),
            SIM_FAULT_NONE);
   for (unsigned l = 0; l < 16; l++) {
      CHECK_EQ(buf[4 + 4 * l], l + 2);
      CHECK_EQ(buf[5 + 4 * l], l + 1);
      CHECK_EQ(buf[6 + 4 * l], l);
      CHECK_EQ(buf[7 + 4 * l], 255);
      CHECK_EQ(w->v[8][l], l);
      CHECK_EQ(w->v[9][l], l + 1);
      CHECK_EQ(w->v[10][l], l + 2);
      CHECK_EQ(w->v[11][l], 255);
   }
   CHECK_EQ(buf[4 + 64], 0xEE);
   CHECK_EQ(w->v[8][16], 0);
   CHECK_EQ(w->v[11][16], 0);
}

/* BUFFER_STORE_FORMAT_XYZW / BUFFER_LOAD_FORMAT_XYZW (and _D16) through a V# with
 * DATA_FORMAT 16_16_16_16, NUM_FORMAT UNORM, STRIDE 8, DST_SEL (Z, Y, X, W), IDXEN:
 * (r, g, b, a) = (0.5, 0.25, 1.0, 0.0) stores X = b = 65535, Y = g = round(16383.75) =
 * 16384, Z = r = round(32767.5) = 32768 (to even), W = 0 at element l; the load returns
 * (32768, 16384, 65535, 0) / 65535 in (r, g, b, a) order, the D16 load the f16 of each. */
TEST(mubuf_format)
{
   uint8_t *buf = t_alloc(4096, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   sim_wave *w = t_wave();
   uint64_t a = (uint64_t)(uintptr_t)buf;
   w->s[0] = (uint32_t)a;
   w->s[1] = (uint32_t)(a >> 32) | 8u << 16;
   w->s[2] = 512;
   w->s[3] = SEL(6, 5, 4, 7) | 0u << 12 | 12u << 15;
   for (unsigned l = 0; l < 64; l++)
      w->v[4][l] = l;
   vset_all(w, 0, t_u(0.5f));
   vset_all(w, 1, t_u(0.25f));
   vset_all(w, 2, t_u(1.0f));
   vset_all(w, 3, t_u(0.0f));
   CHECK_EQ(t_run(w, "buffer_store_format_xyzw v[0:3], v4, s[0:3], 0 idxen\n"
                     "s_waitcnt vmcnt(0)\n"
                     "buffer_load_format_xyzw v[8:11], v4, s[0:3], 0 idxen\n"
                     "buffer_load_format_d16_xyzw v[12:13], v4, s[0:3], 0 idxen\n"
                     "buffer_load_format_x v14, v4, s[0:3], 0 idxen\n"
                     "s_waitcnt vmcnt(0)"),
            SIM_FAULT_NONE);
   uint16_t e[4];
   memcpy(e, buf + 8 * 7, 8);
   CHECK_EQ(e[0], 65535);
   CHECK_EQ(e[1], 16384);
   CHECK_EQ(e[2], 32768);
   CHECK_EQ(e[3], 0);
   CHECK_EQ(w->v[8][7], t_u(32768.0f / 65535.0f));
   CHECK_EQ(w->v[9][7], t_u(16384.0f / 65535.0f));
   CHECK_EQ(w->v[10][7], t_u(1.0f));
   CHECK_EQ(w->v[11][7], 0);
   /* f16: 32768/65535 = 0.50000763 -> 0x3800 (0.5), 16384/65535 -> 0x3400 (0.25),
    * 1.0 -> 0x3C00, 0 -> 0. */
   CHECK_EQ(w->v[12][7], 0x34003800u);
   CHECK_EQ(w->v[13][7], 0x00003C00u);
   CHECK_EQ(w->v[14][7], t_u(32768.0f / 65535.0f));

   /* D16 and partial stores to RG SINT16 (DST_SEL X, Y, 0, 1), OFFEN addressing:
    * buffer_store_format_d16_xy of (-5, 40000 as 16 bits = -25536) sign-extends the halves
    * and stores -5, -25536; buffer_store_format_x of 70000 saturates X to 32767 and stores
    * Y = 0; loads return the sign-extended integers. */
   w = t_wave();
   w->s[0] = (uint32_t)a;
   w->s[1] = (uint32_t)(a >> 32) | 4u << 16;
   w->s[2] = 512;
   w->s[3] = SEL(4, 5, 0, 1) | 5u << 12 | 5u << 15; /* SINT, 16_16 */
   for (unsigned l = 0; l < 64; l++)
      w->v[4][l] = 4 * l; /* byte offsets */
   vset_all(w, 0, 0x9C40FFFBu); /* halves: -5, 40000 */
   vset_all(w, 1, 70000);
   CHECK_EQ(t_run(w, "buffer_store_format_d16_xy v0, v4, s[0:3], 0 offen\n"
                     "buffer_store_format_x v1, v4, s[0:3], 0 offen offset:256\n"
                     "s_waitcnt vmcnt(0)\n"
                     "buffer_load_format_xy v[8:9], v4, s[0:3], 0 offen\n"
                     "buffer_load_format_xy v[10:11], v4, s[0:3], 0 offen offset:256\n"
                     "buffer_load_format_d16_xy v12, v4, s[0:3], 0 offen\n"
                     "s_waitcnt vmcnt(0)"),
            SIM_FAULT_NONE);
   int16_t h[2];
   memcpy(h, buf + 4 * 3, 4);
   CHECK_EQ(h[0], -5);
   CHECK_EQ(h[1], -25536);
   memcpy(h, buf + 256 + 4 * 3, 4);
   CHECK_EQ(h[0], 32767);
   CHECK_EQ(h[1], 0);
   CHECK_EQ(w->v[8][3], (uint32_t)-5);
   CHECK_EQ(w->v[9][3], (uint32_t)-25536);
   CHECK_EQ(w->v[10][3], 32767);
   CHECK_EQ(w->v[11][3], 0);
   CHECK_EQ(w->v[12][3], 0x9C40FFFBu);
}

/* Bilinear weights have 8 bits below the texel (16.8 fixed-point texel coordinates): on a
 * 1-D R32F image (0, 1, 0, 0) with unnormalised coordinates, u = 0.8 gives u - 0.5 = 0.3 ->
 * round(0.3 * 256) = 77 -> 77/256 = 0.30078125 of texel 1 (not 0.3); u = 1.0 + 1/1024
 * -> 0.5 + 1/1024 -> round(128.25) = 128 -> exactly halfway: 0.5 of each of texels 0, 1
 * gives 0.5; u = 0.5 + 0.999/256 -> round(0.999) = 1 -> 1/256. */
TEST(mimg_sample_subtexel)
{
   float *tex = t_alloc(256, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   tex[0] = 0.0f;
   tex[1] = 1.0f;
   tex[2] = tex[3] = 0.0f;
   sim_wave *w = t_wave();
   set_tsharp(w, 0, (tdesc){tex, T_1D, DF_32, NF_FLOAT, 4, 1});
   set_ssharp(w, 8, C_EDGE, C_EDGE, true, true, 0);
   w->v[4][0] = t_u(0.8f);
   w->v[4][1] = t_u(1.0f + 1.0f / 1024.0f);
   w->v[4][2] = t_u(0.5f + 0.999f / 256.0f);
   SIM_EXEC(w) = 7;
   CHECK_EQ(t_run(w, "image_sample_lz v0, v4, s[0:7], s[8:11] dmask:0x1\n"
                     "s_waitcnt vmcnt(0)"),
            SIM_FAULT_NONE);
   CHECK_EQ(w->v[0][0], t_u(77.0f / 256.0f));
   CHECK_EQ(w->v[0][1], t_u(0.5f));
   CHECK_EQ(w->v[0][2], t_u(1.0f / 256.0f));

   /* Point sampling floors the same fixed-point coordinate: u = 1.999 -> round(511.744) =
    * 512 -> 2.0 -> texel 2 (0.0), not texel 1 (1.0); u = 1.998 -> 511.488 -> 511 -> texel 1. */
   w = t_wave();
   set_tsharp(w, 0, (tdesc){tex, T_1D, DF_32, NF_FLOAT, 4, 1});
   set_ssharp(w, 8, C_EDGE, C_EDGE, false, true, 0);
   w->v[4][0] = t_u(1.999f);
   w->v[4][1] = t_u(1.998f);
   SIM_EXEC(w) = 3;
   CHECK_EQ(t_run(w, "image_sample_lz v0, v4, s[0:7], s[8:11] dmask:0x1\n"
                     "s_waitcnt vmcnt(0)"),
            SIM_FAULT_NONE);
   CHECK_EQ(w->v[0][0], t_u(0.0f));
   CHECK_EQ(w->v[0][1], t_u(1.0f));
}

/* Z_FILTER of a 3D image: NONE (what ROCr writes) follows the XY filter — a 1x1x2 R32F
 * volume (0, 1) sampled at unnormalised (0.5, 0.5, 1.0) bilinear gives 0.5 (z between
 * slices 0 and 1 at weight 0.5); Z_FILTER POINT gives slice floor(1.0) = 1: 1.0. */
TEST(mimg_sample_3d_z_filter)
{
   float *tex = t_alloc(512, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   tex[0] = 0.0f;
   tex[64] = 1.0f; /* slice 1: pitch 64 texels, one row */
   for (unsigned zf = 0; zf < 2; zf++) {
      sim_wave *w = t_wave();
      set_tsharp(w, 0, (tdesc){tex, T_3D, DF_32, NF_FLOAT, 1, 1, 1, 64});
      set_ssharp(w, 8, C_EDGE, C_EDGE, true, true, 0);
      w->s[10] |= zf << 24; /* Z_FILTER: 0 NONE, 1 POINT */
      vset_all(w, 4, t_u(0.5f));
      vset_all(w, 5, t_u(0.5f));
      vset_all(w, 6, t_u(1.0f));
      CHECK_EQ(t_run(w, "image_sample_lz v0, v[4:6], s[0:7], s[8:11] dmask:0x1\n"
                        "s_waitcnt vmcnt(0)"),
               SIM_FAULT_NONE);
      CHECK_EQ(w->v[0][0], t_u(zf ? 1.0f : 0.5f));
   }
}

/* Border colours go through BC_SWIZZLE into the memory channels, then DST_SEL: an R32F
 * image (DST_SEL X, 0, 0, 1; BC_SWIZZLE XWYZ as ROCr sets it) sampled outside with a
 * transparent-black border reads (0, 0, 0, 1) — OpenCL's border for a format without alpha;
 * an A8 image (0, 0, 0, X; BC WXYZ) with an opaque-black border reads (0, 0, 0, 1) (alpha
 * from channel X); an INTENSITY-like image (X, X, X, X; BC XYZW) with opaque white reads
 * (1, 1, 1, 1) and with opaque black (0, 0, 0, 0) — channel X holds r. */
TEST(mimg_border_swizzle)
{
   uint8_t *tex = t_alloc(256, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   static const struct {
      unsigned dfmt, nfmt, sel, bc, border;
      float want[4];
   } c[] = {
      {DF_32, NF_FLOAT, SEL(4, 0, 0, 1), 1, 0, {0, 0, 0, 1}},
      {DF_8, NF_UNORM, SEL(0, 0, 0, 4), 3, 1, {0, 0, 0, 1}},
      {DF_8, NF_UNORM, SEL(4, 4, 4, 4), 0, 2, {1, 1, 1, 1}},
      {DF_8, NF_UNORM, SEL(4, 4, 4, 4), 0, 1, {0, 0, 0, 0}},
   };
   for (unsigned k = 0; k < 4; k++) {
      sim_wave *w = t_wave();
      set_tsharp(w, 0, (tdesc){tex, T_1D, c[k].dfmt, c[k].nfmt, 4, 1, 0, 64, c[k].sel});
      w->s[4] |= c[k].bc << 29;
      set_ssharp(w, 8, C_BORDER, C_BORDER, false, true, c[k].border);
      vset_all(w, 4, t_u(-1.0f));
      CHECK_EQ(t_run(w, "image_sample_lz v[0:3], v4, s[0:7], s[8:11] dmask:0xf\n"
                        "s_waitcnt vmcnt(0)"),
               SIM_FAULT_NONE);
      for (unsigned i = 0; i < 4; i++)
         CHECK_EQ(w->v[i][3], t_u(c[k].want[i]));
   }
}

/* IMAGE_ATOMIC_*: tmp = texel at integer (x, y); texel = op(tmp, VDATA); VDATA = tmp with
 * GLC; lanes in order; out-of-range coordinates change nothing and return 0. DMASK 0x1:
 * 32 bits (CMPSWAP 0x3: {src, cmp}), 0x3: 64 bits on a 32_32 texel. */
TEST(mimg_atomics)
{
   uint32_t *buf = t_alloc(4096, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   uint32_t *buf64 = t_alloc(4096, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   buf[2 * 4 + 1] = 100;
   buf[3 * 4 + 3] = 0xFFFFFFF0;
   buf64[2 * (3 * 4 + 3) + 1] = 1; /* 0x100000000 at (3, 3) */
   sim_wave *w = t_wave();
   set_tsharp(w, 0, (tdesc){buf, T_2D, DF_32, NF_UINT, 4, 4, 0});
   set_tsharp(w, 8, (tdesc){buf64, T_2D, DF_32_32, NF_UINT, 4, 4, 0});
   SIM_EXEC(w) = 7;
   uint32_t x[] = {1, 1, 5}, y[] = {2, 2, 0};
   uint32_t smax[] = {(uint32_t)-20, 5, 3};
   for (unsigned l = 0; l < 3; l++) {
      w->v[0][l] = x[l], w->v[1][l] = y[l];
      w->v[2][l] = 3, w->v[3][l] = 3;
      w->v[4][l] = 5;
      w->v[6][l] = 7, w->v[7][l] = 110;
      w->v[8][l] = smax[l];
   }
   w->v[10][0] = 0xFFFFFFFF, w->v[11][0] = 0;
   CHECK_EQ(t_run(w, "image_atomic_add v4, v[0:1], s[0:7] dmask:0x1 unorm glc\n"
                     "image_atomic_cmpswap v[6:7], v[0:1], s[0:7] dmask:0x3 unorm glc\n"
                     "image_atomic_smax v8, v[2:3], s[0:7] dmask:0x1 unorm\n"
                     "s_mov_b64 exec, 1\n"
                     "image_atomic_umin v[10:11], v[2:3], s[8:15] dmask:0x3 unorm glc\n"
                     "s_waitcnt vmcnt(0)"),
            SIM_FAULT_NONE);
   CHECK_EQ(w->v[4][0], 100);
   CHECK_EQ(w->v[4][1], 105);
   CHECK_EQ(w->v[4][2], 0); /* out of range */
   CHECK_EQ(w->v[6][0], 110);
   CHECK_EQ(w->v[6][1], 7); /* compare 110 against 7 failed */
   CHECK_EQ(buf[2 * 4 + 1], 7);
   CHECK_EQ(buf[0 * 4 + 5], 0); /* nothing written for (5, 0) */
   CHECK_EQ(buf[3 * 4 + 3], 5); /* smax(-16, -20, 5, 3) */
   CHECK_EQ(w->v[8][0], (uint32_t)-20); /* no GLC: data kept */
   CHECK_EQ(w->v[10][0], 0);
   CHECK_EQ(w->v[11][0], 1);
   CHECK_EQ(buf64[2 * 15], 0xFFFFFFFF);
   CHECK_EQ(buf64[2 * 15 + 1], 0);

   /* 32-bit data on a 64-bit texel format: a fault naming the sizes. */
   w = t_wave();
   set_tsharp(w, 8, (tdesc){buf64, T_2D, DF_32_32, NF_UINT, 4, 4, 0});
   CHECK_EQ(t_run(w, "image_atomic_add v4, v[0:1], s[8:15] dmask:0x1 unorm"),
            SIM_FAULT_ILLEGAL_INSTRUCTION);
}

void
t_mimg_tests(void)
{
   RUN(mimg_border_swizzle);
   RUN(mimg_sample_subtexel);
   RUN(mimg_sample_3d_z_filter);
   RUN(mimg_packed_formats);
   RUN(mimg_buffer_resource);
   RUN(mubuf_format);
   RUN(mimg_store_load_rgba8_pitch);
   RUN(mimg_dmask);
   RUN(mimg_formats);
   RUN(mimg_d16_a16_tfe_pck);
   RUN(mimg_3d_array);
   RUN(mimg_mip);
   RUN(mimg_sample_bilinear_point);
   RUN(mimg_sample_clamp_modes);
   RUN(mimg_sample_float_int_array);
   RUN(mimg_srgb_mirror_once_1d_array);
   RUN(mimg_faults);
   RUN(mimg_texels_across_allocations);
   RUN(texel_unorm8_exact);
   RUN(mimg_atomics);
}
