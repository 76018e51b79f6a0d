/* MIMG sampling beyond level zero: image_sample_{l,b,cl,d,cd,c,o} and their combinations,
 * mip-level selection and filtering, S# / T# LOD fields, gather4 (and _c, _l, 4h),
 * image_get_lod, image_get_resinfo and the mip chain of image_load_mip / image_store_mip.
 * Hand-built GFX9 T# and S# over linear images; every expected value worked by hand in the
 * comments.
 *
 * The mip-chain texture (chain_texture) is a 2D R32 FLOAT image of 4x4 texels with levels
 * 0..2 (4x4, 2x2, 1x1) in the gfx9 linear layout: pitch 64 texels for every level, level m
 * starting at row 0, 4, 6; texel (x, y) of level m holds 100 m + 10 y + x. */
#include <math.h>
#include <stdlib.h>
#include "sim_isa_test.h"

enum { T_1D = 8, T_2D = 9, T_3D = 10, T_1D_ARRAY = 12, T_2D_ARRAY = 13 };
enum { DF_32 = 4, DF_32_32_32_32 = 14, NF_UINT = 4, NF_FLOAT = 7 };
enum { C_EDGE = 2, C_BORDER = 6 };
enum { F_POINT = 0, F_LINEAR = 1 };
enum { MIP_NONE = 0, MIP_POINT = 1, MIP_LINEAR = 2 };
enum { CMP_LESS = 1, CMP_LEQUAL = 3 };

typedef struct img_desc {
   const void *base;
   unsigned type, dfmt, nfmt, width, height, depth, pitch;
   unsigned base_level, last_level, base_array, min_lod256;
} img_desc;

/* The 8-dword T# at s[n] (GFX9 SQ_IMG_RSRC_WORD0-7). depth: the DEPTH field. */
static void
put_t(sim_wave *w, unsigned n, img_desc d)
{
   uint64_t a = (uint64_t)(uintptr_t)d.base;
   uint32_t *t = &w->s[n];
   t[0] = (uint32_t)(a >> 8);
   t[1] = ((uint32_t)(a >> 40) & 0xFF) | d.min_lod256 << 8 | d.dfmt << 20 | d.nfmt << 26;
   t[2] = (d.width - 1) | (d.height ? d.height - 1 : 0) << 14;
   t[3] = (4 | 5 << 3 | 6 << 6 | 7 << 9) | d.base_level << 12 | d.last_level << 16 |
          d.type << 28;
   t[4] = d.depth | ((d.pitch ? d.pitch : d.width) - 1) << 13;
   t[5] = d.base_array | d.last_level << 28; /* MAX_MIP: the chain is the view's */
   t[6] = t[7] = 0;
}

typedef struct smp_desc {
   unsigned clamp, filter, mip, cmp;
   unsigned min_lod256, max_lod256; /* max 0: 0xFFF */
   int bias256;
} smp_desc;

/* The 4-dword S# at s[n] (GFX9 SQ_IMG_SAMP_WORD0-3). */
static void
put_s(sim_wave *w, unsigned n, smp_desc d)
{
   uint32_t *s = &w->s[n];
   s[0] = d.clamp | d.clamp << 3 | d.clamp << 6 | d.cmp << 12;
   s[1] = d.min_lod256 | (d.max_lod256 ? d.max_lod256 : 0xFFF) << 12;
   s[2] = ((uint32_t)d.bias256 & 0x3FFF) | d.filter << 20 | d.filter << 22 | d.mip << 26;
   s[3] = 0;
}

static void
vall(sim_wave *w, unsigned v, uint32_t x)
{
   for (unsigned l = 0; l < 64; l++)
      w->v[v][l] = x;
}

static float *
chain_texture(void)
{
   float *tex = t_alloc(64 * 7 * 4, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   static const unsigned row0[3] = {0, 4, 6};
   for (unsigned m = 0; m < 3; m++)
      for (unsigned y = 0; y < (4u >> m); y++)
         for (unsigned x = 0; x < (4u >> m); x++)
            tex[(row0[m] + y) * 64 + x] = (float)(100 * m + 10 * y + x);
   return tex;
}

static void
chain_t(sim_wave *w, unsigned n, const float *tex)
{
   put_t(w, n, (img_desc){tex, T_2D, DF_32, NF_FLOAT, 4, 4, 0, 64, 0, 2});
}

#define CHECK_LANE_F(reg, lane, want) CHECK_EQ(w->v[reg][lane], t_u(want))

/* image_sample_l, MIP_FILTER POINT, point XY filter, (s, t) = (0.5, 0.5): level 0 is texel
 * (2, 2) = 22, level 1 (1, 1) = 111, level 2 (0, 0) = 200. The nearest level is
 * floor(LOD + 0.5): 0 and 0.4 -> 0, 0.6 and 1 -> 1, 2 -> 2; 7 clamps to the last level; a
 * NaN LOD becomes the lower clamp (0); -3 clamps to 0. */
TEST(sample_l_mip_point)
{
   float *tex = chain_texture();
   sim_wave *w = t_wave();
   chain_t(w, 0, tex);
   put_s(w, 8, (smp_desc){C_EDGE, F_POINT, MIP_POINT});
   vall(w, 4, t_u(0.5f));
   vall(w, 5, t_u(0.5f));
   static const float lod[8] = {0.0f, 0.4f, 0.6f, 1.0f, 2.0f, 7.0f, NAN, -3.0f};
   static const float want[8] = {22, 22, 111, 111, 200, 200, 22, 22};
   for (unsigned l = 0; l < 8; l++)
      w->v[6][l] = t_u(lod[l]);
   SIM_EXEC(w) = 0xFF;
   CHECK_EQ(t_run(w, "image_sample_l v0, v[4:6], s[0:7], s[8:11] dmask:0x1\n"
                     "s_waitcnt vmcnt(0)"),
            SIM_FAULT_NONE);
   for (unsigned l = 0; l < 8; l++)
      CHECK_LANE_F(0, l, want[l]);
}

/* MIP_FILTER LINEAR blends the two levels around the LOD: 1.25 -> 0.75 * 111 + 0.25 * 200
 * = 133.25; 0.5 -> (22 + 111) / 2 = 66.5; 2.5 is past the last level -> 200; 0 -> level 0
 * alone (22). MIP_FILTER NONE samples BASE_LEVEL whatever the LOD: 22. */
TEST(sample_l_mip_linear_none)
{
   float *tex = chain_texture();
   sim_wave *w = t_wave();
   chain_t(w, 0, tex);
   put_s(w, 8, (smp_desc){C_EDGE, F_POINT, MIP_LINEAR});
   put_s(w, 12, (smp_desc){C_EDGE, F_POINT, MIP_NONE});
   vall(w, 4, t_u(0.5f));
   vall(w, 5, t_u(0.5f));
   static const float lod[4] = {1.25f, 0.5f, 2.5f, 0.0f};
   static const float want[4] = {133.25f, 66.5f, 200.0f, 22.0f};
   for (unsigned l = 0; l < 4; l++)
      w->v[6][l] = t_u(lod[l]);
   SIM_EXEC(w) = 0xF;
   CHECK_EQ(t_run(w, "image_sample_l v0, v[4:6], s[0:7], s[8:11] dmask:0x1\n"
                     "image_sample_l v1, v[4:6], s[0:7], s[12:15] dmask:0x1\n"
                     "s_waitcnt vmcnt(0)"),
            SIM_FAULT_NONE);
   for (unsigned l = 0; l < 4; l++) {
      CHECK_LANE_F(0, l, want[l]);
      CHECK_LANE_F(1, l, 22.0f);
   }
}

/* The LOD fields: S# LOD_BIAS +1.0 turns LOD 0 into level 1 (111); S# MAX_LOD 1.0 keeps
 * LOD 2 at level 1 (111); S# MIN_LOD 2.0 raises LOD 0 to level 2 (200); T# MIN_LOD 1.0
 * raises LOD 0 to level 1 (111); BASE_LEVEL 1 makes level 1 the view's first: LOD 0 reads
 * level 1 (111), LOD 1 level 2 (200). */
TEST(sample_lod_fields)
{
   float *tex = chain_texture();
   sim_wave *w = t_wave();
   chain_t(w, 0, tex);
   put_t(w, 32, (img_desc){tex, T_2D, DF_32, NF_FLOAT, 4, 4, 0, 64, 0, 2, 0, 256});
   put_t(w, 40, (img_desc){tex, T_2D, DF_32, NF_FLOAT, 4, 4, 0, 64, 1, 2});
   put_s(w, 8, (smp_desc){C_EDGE, F_POINT, MIP_POINT, 0, 0, 0, 256});
   put_s(w, 12, (smp_desc){C_EDGE, F_POINT, MIP_POINT, 0, 0, 256});
   put_s(w, 16, (smp_desc){C_EDGE, F_POINT, MIP_POINT, 0, 512});
   put_s(w, 20, (smp_desc){C_EDGE, F_POINT, MIP_POINT});
   /* (s, t, lod): v[20:22] LOD 0, v[23:25] LOD 2, v[26:28] LOD 1 */
   static const float lod[3] = {0.0f, 2.0f, 1.0f};
   for (unsigned k = 0; k < 3; k++) {
      vall(w, 20 + 3 * k, t_u(0.5f));
      vall(w, 21 + 3 * k, t_u(0.5f));
      vall(w, 22 + 3 * k, t_u(lod[k]));
   }
   SIM_EXEC(w) = 1;
   CHECK_EQ(t_run(w, "image_sample_l v0, v[20:22], s[0:7], s[8:11] dmask:0x1\n"
                     "image_sample_l v1, v[23:25], s[0:7], s[12:15] dmask:0x1\n"
                     "image_sample_l v2, v[20:22], s[0:7], s[16:19] dmask:0x1\n"
                     "image_sample_l v3, v[20:22], s[32:39], s[20:23] dmask:0x1\n"
                     "image_sample_l v4, v[20:22], s[40:47], s[20:23] dmask:0x1\n"
                     "image_sample_l v5, v[26:28], s[40:47], s[20:23] dmask:0x1\n"
                     "s_waitcnt vmcnt(0)"),
            SIM_FAULT_NONE);
   CHECK_LANE_F(0, 0, 111.0f);
   CHECK_LANE_F(1, 0, 111.0f);
   CHECK_LANE_F(2, 0, 200.0f);
   CHECK_LANE_F(3, 0, 111.0f);
   CHECK_LANE_F(4, 0, 111.0f);
   CHECK_LANE_F(5, 0, 200.0f);
}

/* Quads of lanes with s = 0.5 + (l & 1) ds and t = 0.5 + (l >> 1 & 1) dt give the implicit
 * derivatives: quad 0 ds = 0.5, dt = 0.25 (2 and 1 texels: LOD 1); quad 1 ds = 0.25,
 * dt = 1 (1 and 4 texels: LOD 2); quad 2 ds = dt = 0 (LOD -inf, clamped to 0). */
static void
quad_coords(sim_wave *w, unsigned vs, unsigned vt)
{
   static const float ds[4] = {0.5f, 0.25f, 0.0f, 2.0f}, dt[4] = {0.25f, 1.0f, 0.0f, 0.0f};
   for (unsigned l = 0; l < 16; l++) {
      unsigned q = l / 4;
      w->v[vs][l] = t_u(0.5f + (float)(l & 1) * ds[q]);
      w->v[vt][l] = t_u(0.5f + (float)((l >> 1) & 1) * dt[q]);
   }
}

/* image_sample (implicit LOD): quad 0 at level 1 (lanes at s = 1 clamp to x = 1: all 111),
 * quad 1 at level 2 (200), quad 2 at level 0 ((2, 2) = 22).
 * image_sample_b with bias -1: quad 0 at level 0: lane 0 (2, 2) = 22, lane 1 s = 1 -> x = 4
 * clamps to 3: 23, lane 2 t = 0.75 -> y = 3: 32, lane 3 33; quad 1 at level 1 (111).
 * image_sample_cl with clamp 2: every quad at level 2 (200); with clamp 0 quad 0 stays at
 * level 1 (111). */
TEST(sample_implicit_b_cl)
{
   float *tex = chain_texture();
   sim_wave *w = t_wave();
   chain_t(w, 0, tex);
   put_s(w, 8, (smp_desc){C_EDGE, F_POINT, MIP_POINT});
   quad_coords(w, 4, 5);
   quad_coords(w, 11, 12);
   vall(w, 10, t_u(-1.0f));
   vall(w, 6, t_u(2.0f));
   vall(w, 13, t_u(0.0f));
   SIM_EXEC(w) = 0xFFF;
   CHECK_EQ(t_run(w, "image_sample v0, v[4:5], s[0:7], s[8:11] dmask:0x1\n"
                     "image_sample_b v1, v[10:12], s[0:7], s[8:11] dmask:0x1\n"
                     "image_sample_cl v2, v[4:6], s[0:7], s[8:11] dmask:0x1\n"
                     "image_sample_cl v3, v[11:13], s[0:7], s[8:11] dmask:0x1\n"
                     "s_waitcnt vmcnt(0)"),
            SIM_FAULT_NONE);
   static const float b[8] = {22, 23, 32, 33, 111, 111, 111, 111};
   for (unsigned l = 0; l < 12; l++) {
      CHECK_LANE_F(0, l, l < 4 ? 111.0f : l < 8 ? 200.0f : 22.0f);
      if (l < 8)
         CHECK_LANE_F(1, l, b[l]);
      CHECK_LANE_F(2, l, 200.0f);
      if (l < 4)
         CHECK_LANE_F(3, l, 111.0f);
   }
}

/* User derivatives (dsdh, dtdh, dsdv, dtdv, s, t): lane 0 dsdh = 0.5 (2 texels: LOD 1,
 * 111); lane 1 dtdv = 1 (4 texels: LOD 2, 200); lane 2 none (LOD 0: 22); lane 3 dtdh = 0.5
 * and dsdv = 0.25 (max(2, 1) texels: LOD 1, 111). _cd takes the quad's first lane's
 * derivatives for all four: 111. */
TEST(sample_d_cd)
{
   float *tex = chain_texture();
   sim_wave *w = t_wave();
   chain_t(w, 0, tex);
   put_s(w, 8, (smp_desc){C_EDGE, F_POINT, MIP_POINT});
   vall(w, 8, t_u(0.5f));
   vall(w, 9, t_u(0.5f));
   w->v[4][0] = t_u(0.5f);
   w->v[7][1] = t_u(1.0f);
   w->v[5][3] = t_u(0.5f);
   w->v[6][3] = t_u(0.25f);
   SIM_EXEC(w) = 0xF;
   CHECK_EQ(t_run(w, "image_sample_d v0, v[4:9], s[0:7], s[8:11] dmask:0x1\n"
                     "image_sample_cd v1, v[4:9], s[0:7], s[8:11] dmask:0x1\n"
                     "s_waitcnt vmcnt(0)"),
            SIM_FAULT_NONE);
   static const float d[4] = {111, 200, 22, 111};
   for (unsigned l = 0; l < 4; l++) {
      CHECK_LANE_F(0, l, d[l]);
      CHECK_LANE_F(1, l, 111.0f);
   }
}

/* _o: texel offsets x [5:0], y [13:8], 6-bit signed, at level 0 from (2, 2): (+1, -1) ->
 * (3, 1) = 13; (-2, 0) -> (0, 2) = 20; (+5, 0) clamps to x = 3: 23; (+31, -32) -> (3, 0) = 3.
 * On level 1 (image_sample_l_o, LOD 1) (+1, 0) from (1, 1) clamps: 111; (-1, -1) -> 100. */
TEST(sample_offsets)
{
   float *tex = chain_texture();
   sim_wave *w = t_wave();
   chain_t(w, 0, tex);
   put_s(w, 8, (smp_desc){C_EDGE, F_POINT, MIP_POINT});
   static const uint32_t off[4] = {1 | 0x3F << 8, 0x3E, 5, 0x1F | 0x20 << 8};
   for (unsigned l = 0; l < 4; l++)
      w->v[4][l] = off[l];
   vall(w, 5, t_u(0.5f));
   vall(w, 6, t_u(0.5f));
   vall(w, 7, t_u(1.0f));
   SIM_EXEC(w) = 0xF;
   CHECK_EQ(t_run(w, "image_sample_lz_o v0, v[4:6], s[0:7], s[8:11] dmask:0x1\n"
                     "s_waitcnt vmcnt(0)"),
            SIM_FAULT_NONE);
   static const float want[4] = {13, 20, 23, 3};
   for (unsigned l = 0; l < 4; l++)
      CHECK_LANE_F(0, l, want[l]);
   w->v[4][0] = 1;
   w->v[4][1] = 0x3F | 0x3F << 8;
   SIM_EXEC(w) = 3;
   CHECK_EQ(t_run(w, "image_sample_l_o v1, v[4:7], s[0:7], s[8:11] dmask:0x1\n"
                     "s_waitcnt vmcnt(0)"),
            SIM_FAULT_NONE);
   CHECK_LANE_F(1, 0, 111.0f);
   CHECK_LANE_F(1, 1, 100.0f);
}

/* Depth compare, (ref OP texel) per texel before filtering, the result in the first
 * component and 0 in the others: at (2, 2) = 22 point, LESS with ref 15 -> 1, ref 22 -> 0;
 * LEQUAL with ref 22 -> 1. Bilinear at (0.5, 0.5): texels 11, 12, 21, 22, weights 1/4,
 * LESS with ref 15 -> 0.5. _c_d_cl_o lays out offset, ref, derivatives, s, t, clamp:
 * offset (-1, -1) from (2, 2) -> 11, ref 15 LESS: 0 (derivatives 0, clamp 0: level 0);
 * _c_d_o the same without the clamp: 0; _c_d (ref, derivatives, s, t) reads (2, 2) = 22:
 * 1. */
TEST(sample_compare)
{
   float *tex = chain_texture();
   sim_wave *w = t_wave();
   chain_t(w, 0, tex);
   put_s(w, 8, (smp_desc){C_EDGE, F_POINT, MIP_POINT, CMP_LESS});
   put_s(w, 12, (smp_desc){C_EDGE, F_POINT, MIP_POINT, CMP_LEQUAL});
   put_s(w, 16, (smp_desc){C_EDGE, F_LINEAR, MIP_POINT, CMP_LESS});
   w->v[4][0] = t_u(15.0f);
   w->v[4][1] = t_u(22.0f);
   vall(w, 5, t_u(0.5f));
   vall(w, 6, t_u(0.5f));
   vall(w, 0, 0xDEAD);
   SIM_EXEC(w) = 3;
   CHECK_EQ(t_run(w, "image_sample_c_lz v[0:3], v[4:6], s[0:7], s[8:11] dmask:0xf\n"
                     "image_sample_c_lz v7, v[4:6], s[0:7], s[12:15] dmask:0x1\n"
                     "image_sample_c_lz v8, v[4:6], s[0:7], s[16:19] dmask:0x1\n"
                     "s_waitcnt vmcnt(0)"),
            SIM_FAULT_NONE);
   CHECK_LANE_F(0, 0, 1.0f);
   CHECK_LANE_F(0, 1, 0.0f);
   CHECK_EQ(w->v[1][0], 0);
   CHECK_EQ(w->v[3][0], 0);
   CHECK_LANE_F(7, 1, 1.0f);
   CHECK_LANE_F(8, 0, 0.5f);

   w = t_wave();
   chain_t(w, 0, tex);
   put_s(w, 8, (smp_desc){C_EDGE, F_POINT, MIP_POINT, CMP_LESS});
   vall(w, 20, 0x3F | 0x3F << 8);
   vall(w, 21, t_u(15.0f));
   vall(w, 26, t_u(0.5f));
   vall(w, 27, t_u(0.5f));
   SIM_EXEC(w) = 1;
   CHECK_EQ(t_run(w, "image_sample_c_d_cl_o v0, v[20:28], s[0:7], s[8:11] dmask:0x1\n"
                     "image_sample_c_d_o v1, v[20:27], s[0:7], s[8:11] dmask:0x1\n"
                     "image_sample_c_d v2, v[21:27], s[0:7], s[8:11] dmask:0x1\n"
                     "s_waitcnt vmcnt(0)"),
            SIM_FAULT_NONE);
   CHECK_LANE_F(0, 0, 0.0f);
   CHECK_LANE_F(1, 0, 0.0f);
   CHECK_LANE_F(2, 0, 1.0f);
}

/* gather4 at (0.5, 0.5) of level 0: the bilinear footprint x 1..2, y 1..2 returned as
 * (i0, j1), (i1, j1), (i1, j0), (i0, j0) = 21, 22, 12, 11; with a point sampler too.
 * gather4_c_lz (LESS, ref 15): 1, 1, 0, 0. gather4_l at LOD 1: level 1's 2x2, u = 1:
 * 110, 111, 101, 100. gather4h: four texels of row 2 from x = 1, the last clamped: 21, 22,
 * 23, 23. */
TEST(gather4_forms)
{
   float *tex = chain_texture();
   sim_wave *w = t_wave();
   chain_t(w, 0, tex);
   put_s(w, 8, (smp_desc){C_EDGE, F_POINT, MIP_POINT, CMP_LESS});
   vall(w, 20, t_u(0.5f));
   vall(w, 21, t_u(0.5f));
   vall(w, 22, t_u(1.0f));
   vall(w, 24, t_u(15.0f));
   vall(w, 25, t_u(0.5f));
   vall(w, 26, t_u(0.5f));
   SIM_EXEC(w) = 1;
   CHECK_EQ(t_run(w, "image_gather4_lz v[0:3], v[20:21], s[0:7], s[8:11] dmask:0x1\n"
                     "image_gather4_c_lz v[4:7], v[24:26], s[0:7], s[8:11] dmask:0x1\n"
                     "image_gather4_l v[8:11], v[20:22], s[0:7], s[8:11] dmask:0x1\n"
                     "image_gather4h v[12:15], v[20:21], s[0:7], s[8:11] dmask:0x1\n"
                     "s_waitcnt vmcnt(0)"),
            SIM_FAULT_NONE);
   static const float g[4] = {21, 22, 12, 11}, gc[4] = {1, 1, 0, 0},
                      gl[4] = {110, 111, 101, 100}, gh[4] = {21, 22, 23, 23};
   for (unsigned k = 0; k < 4; k++) {
      CHECK_LANE_F(k, 0, g[k]);
      CHECK_LANE_F(4 + k, 0, gc[k]);
      CHECK_LANE_F(8 + k, 0, gl[k]);
      CHECK_LANE_F(12 + k, 0, gh[k]);
   }
}

/* DMASK picks the gathered component: an RGBA32F texture with texel (x, y) =
 * (x, y, x + y, 7); the footprint (1, 2), (2, 2), (2, 1), (1, 1) gives y = 2, 2, 1, 1 and
 * z = 3, 4, 3, 2. More than one DMASK bit, or a 1D image, is an illegal instruction. */
TEST(gather4_component)
{
   float *tex = t_alloc(16 * 16 * 4, SIM_ALLOC_READ);
   for (unsigned y = 0; y < 4; y++)
      for (unsigned x = 0; x < 4; x++) {
         float *p = tex + (y * 16 + x) * 4;
         p[0] = (float)x, p[1] = (float)y, p[2] = (float)(x + y), p[3] = 7.0f;
      }
   sim_wave *w = t_wave();
   put_t(w, 0, (img_desc){tex, T_2D, DF_32_32_32_32, NF_FLOAT, 4, 4, 0, 16});
   put_s(w, 8, (smp_desc){C_EDGE, F_LINEAR, MIP_NONE});
   vall(w, 20, t_u(0.5f));
   vall(w, 21, t_u(0.5f));
   SIM_EXEC(w) = 1;
   CHECK_EQ(t_run(w, "image_gather4 v[0:3], v[20:21], s[0:7], s[8:11] dmask:0x2\n"
                     "image_gather4_o v[4:7], v[19:21], s[0:7], s[8:11] dmask:0x4\n"
                     "s_waitcnt vmcnt(0)"),
            SIM_FAULT_NONE);
   static const float gy[4] = {2, 2, 1, 1}, gz[4] = {3, 4, 3, 2};
   for (unsigned k = 0; k < 4; k++) {
      CHECK_LANE_F(k, 0, gy[k]);
      CHECK_LANE_F(4 + k, 0, gz[k]);
   }
   /* llvm-mc refuses dmask:0x3 on a gather: image_gather4 v[0:3], v[20:21], s[0:7],
    * s[8:11] with DMASK (bits 11:8) patched to 0x3. */
   CHECK_EQ(t_run(w, ".long 0xF1000300, 0x00400014"), SIM_FAULT_ILLEGAL_INSTRUCTION);
   CHECK(strstr(t_fault.message, "DMASK") != NULL);
   put_t(w, 0, (img_desc){tex, T_1D, DF_32_32_32_32, NF_FLOAT, 4, 1});
   CHECK_EQ(t_run(w, "image_gather4 v[0:3], v20, s[0:7], s[8:11] dmask:0x1"),
            SIM_FAULT_ILLEGAL_INSTRUCTION);
   CHECK(strstr(t_fault.message, "1D") != NULL);
}

/* image_get_lod (x = clamped, y = unclamped) of the quads of quad_coords: quad 0 (1, 1),
 * quad 1 (2, 2), quad 2 (0, -inf), quad 3 (ds = 2: 8 texels, LOD 3): (2, 3), the last
 * level being 2. */
TEST(get_lod)
{
   float *tex = chain_texture();
   sim_wave *w = t_wave();
   chain_t(w, 0, tex);
   put_s(w, 8, (smp_desc){C_EDGE, F_POINT, MIP_POINT});
   quad_coords(w, 4, 5);
   SIM_EXEC(w) = 0x1111;
   CHECK_EQ(t_run(w, "image_get_lod v[0:1], v[4:5], s[0:7], s[8:11] dmask:0x3\n"
                     "s_waitcnt vmcnt(0)"),
            SIM_FAULT_NONE);
   CHECK_LANE_F(0, 0, 1.0f);
   CHECK_LANE_F(1, 0, 1.0f);
   CHECK_LANE_F(0, 4, 2.0f);
   CHECK_LANE_F(1, 4, 2.0f);
   CHECK_LANE_F(0, 8, 0.0f);
   CHECK_LANE_F(1, 8, -INFINITY);
   CHECK_LANE_F(0, 12, 2.0f);
   CHECK_LANE_F(1, 12, 3.0f);
}

/* image_get_resinfo: (width, height, depth or layers, levels) of a level relative to
 * BASE_LEVEL. 2D 4x4 with levels 0..2: level 0 (4, 4, 0, 3), 1 (2, 2, 0, 3), 2 (1, 1, 0,
 * 3), 3 is past the last: (0, 0, 0, 3). BASE_LEVEL 1: level 0 is (2, 2, 0, 2). 3D 8x4x2
 * with two levels, level 1: (4, 2, 1, 2). 2D array 5x3, layers 1..3: (5, 3, 3, 1). 1D array
 * 6 wide, layers 0..4: (6, 5, 0, 1). DMASK 0x8 returns the level count alone. */
TEST(get_resinfo)
{
   float *tex = chain_texture();
   sim_wave *w = t_wave();
   chain_t(w, 0, tex);
   put_t(w, 8, (img_desc){tex, T_2D, DF_32, NF_FLOAT, 4, 4, 0, 64, 1, 2});
   put_t(w, 16, (img_desc){tex, T_3D, DF_32, NF_FLOAT, 8, 4, 1, 64, 0, 1});
   put_t(w, 24, (img_desc){tex, T_2D_ARRAY, DF_32, NF_FLOAT, 5, 3, 3, 64, 0, 0, 1});
   put_t(w, 32, (img_desc){tex, T_1D_ARRAY, DF_32, NF_FLOAT, 6, 0, 4, 64});
   for (unsigned l = 0; l < 4; l++)
      w->v[10][l] = l;
   vall(w, 11, 1);
   vall(w, 12, 0);
   SIM_EXEC(w) = 0xF;
   CHECK_EQ(t_run(w, "image_get_resinfo v[0:3], v10, s[0:7] dmask:0xf unorm\n"
                     "image_get_resinfo v[4:7], v12, s[8:15] dmask:0xf unorm\n"
                     "image_get_resinfo v[13:16], v11, s[16:23] dmask:0xf unorm\n"
                     "image_get_resinfo v[17:20], v12, s[24:31] dmask:0xf unorm\n"
                     "image_get_resinfo v[21:24], v12, s[32:39] dmask:0xf unorm\n"
                     "image_get_resinfo v25, v12, s[0:7] dmask:0x8 unorm\n"
                     "s_waitcnt vmcnt(0)"),
            SIM_FAULT_NONE);
   static const uint32_t r2d[4][4] = {{4, 4, 0, 3}, {2, 2, 0, 3}, {1, 1, 0, 3}, {0, 0, 0, 3}};
   static const uint32_t other[4][4] = {
      {2, 2, 0, 2}, {4, 2, 1, 2}, {5, 3, 3, 1}, {6, 5, 0, 1}};
   static const unsigned vbase[4] = {4, 13, 17, 21};
   for (unsigned l = 0; l < 4; l++)
      for (unsigned c = 0; c < 4; c++) {
         CHECK_EQ(w->v[c][l], r2d[l][c]);
         CHECK_EQ(w->v[vbase[l] + c][0], other[l][c]);
      }
   CHECK_EQ(w->v[25][0], 3);
}

/* The mip chain of image_load_mip / image_store_mip on the 2D chain: level 1 (1, 0) is 101,
 * level 2 (0, 0) 200; a store to level 2 (0, 0) writes row 6 of the pitch; level 1 (2, 0)
 * is outside the 2x2 level and reads 0. */
TEST(load_store_mip_chain)
{
   float *tex = chain_texture();
   sim_wave *w = t_wave();
   put_t(w, 0, (img_desc){tex, T_2D, DF_32, NF_UINT, 4, 4, 0, 64, 0, 2});
   w->v[4][0] = 1, w->v[5][0] = 0, w->v[6][0] = 1;
   w->v[4][1] = 0, w->v[5][1] = 0, w->v[6][1] = 2;
   w->v[4][2] = 2, w->v[5][2] = 0, w->v[6][2] = 1;
   vall(w, 7, 0x12345678);
   SIM_EXEC(w) = 7;
   CHECK_EQ(t_run(w, "image_load_mip v0, v[4:6], s[0:7] dmask:0x1 unorm\n"
                     "s_waitcnt vmcnt(0)"),
            SIM_FAULT_NONE);
   CHECK_EQ(w->v[0][0], t_u(101.0f));
   CHECK_EQ(w->v[0][1], t_u(200.0f));
   CHECK_EQ(w->v[0][2], 0);
   SIM_EXEC(w) = 2;
   CHECK_EQ(t_run(w, "image_store_mip v7, v[4:6], s[0:7] dmask:0x1 unorm"), SIM_FAULT_NONE);
   uint32_t got;
   memcpy(&got, &tex[6 * 64], 4);
   CHECK_EQ(got, 0x12345678);
}

/* With MIP_FILTER NONE (ROCr's samplers) image_sample_lz reads BASE_LEVEL even when S#
 * MIN_LOD 2 raises the LOD: bilinear at (0.5, 0.5) averages 11, 12, 21, 22 = 16.5. */
TEST(sample_lz_level_zero)
{
   float *tex = chain_texture();
   sim_wave *w = t_wave();
   chain_t(w, 0, tex);
   put_s(w, 8, (smp_desc){C_EDGE, F_LINEAR, MIP_NONE, 0, 512});
   vall(w, 4, t_u(0.5f));
   vall(w, 5, t_u(0.5f));
   SIM_EXEC(w) = 1;
   CHECK_EQ(t_run(w, "image_sample_lz v0, v[4:5], s[0:7], s[8:11] dmask:0x1\n"
                     "s_waitcnt vmcnt(0)"),
            SIM_FAULT_NONE);
   CHECK_LANE_F(0, 0, 16.5f);
}

/* XY_MAG_FILTER applies at LOD <= 0, XY_MIN_FILTER above: with MAG point and MIN bilinear
 * (MIP_FILTER NONE, so always BASE_LEVEL) at (0.5, 0.5), LOD 0 reads texel (2, 2) = 22 and
 * LOD 1 the average of 11, 12, 21, 22 = 16.5. A16 packs the address: (s, t) = f16 0.5 in one
 * VGPR reads 22 with _lz; _l's LOD 1.0 in the next VGPR's low half reads level 1 (111
 * through a MIP_FILTER POINT sampler). D16 gathers pack two texels per VGPR: f16 21, 22 |
 * 12, 11. TFE adds a status VGPR after the data, 0. */
TEST(sample_filters_a16_d16_tfe)
{
   float *tex = chain_texture();
   sim_wave *w = t_wave();
   chain_t(w, 0, tex);
   put_s(w, 8, (smp_desc){C_EDGE, F_POINT, MIP_NONE});
   w->s[10] |= 1u << 22; /* XY_MIN_FILTER bilinear */
   put_s(w, 12, (smp_desc){C_EDGE, F_POINT, MIP_POINT});
   vall(w, 20, t_u(0.5f));
   vall(w, 21, t_u(0.5f));
   vall(w, 22, t_u(0.0f));
   vall(w, 23, t_u(0.5f));
   vall(w, 24, t_u(0.5f));
   vall(w, 25, t_u(1.0f));
   vall(w, 26, 0x3800u | 0x3800u << 16);
   vall(w, 27, 0x3C00u);
   vall(w, 7, 0xDEAD);
   SIM_EXEC(w) = 1;
   CHECK_EQ(t_run(w, "image_sample_l v0, v[20:22], s[0:7], s[8:11] dmask:0x1\n"
                     "image_sample_l v1, v[23:25], s[0:7], s[8:11] dmask:0x1\n"
                     "image_sample_lz v2, v26, s[0:7], s[12:15] dmask:0x1 a16\n"
                     "image_sample_l v3, v[26:27], s[0:7], s[12:15] dmask:0x1 a16\n"
                     "image_gather4_lz v[4:5], v[20:21], s[0:7], s[12:15] dmask:0x1 d16\n"
                     "image_sample_l v[6:7], v[20:22], s[0:7], s[12:15] dmask:0x1 tfe\n"
                     "s_waitcnt vmcnt(0)"),
            SIM_FAULT_NONE);
   CHECK_LANE_F(0, 0, 22.0f);
   CHECK_LANE_F(1, 0, 16.5f);
   CHECK_LANE_F(2, 0, 22.0f);
   CHECK_LANE_F(3, 0, 111.0f);
   CHECK_EQ(w->v[4][0], sim__f32_to_f16(21.0f) | sim__f32_to_f16(22.0f) << 16);
   CHECK_EQ(w->v[5][0], sim__f32_to_f16(12.0f) | sim__f32_to_f16(11.0f) << 16);
   CHECK_LANE_F(6, 0, 22.0f);
   CHECK_EQ(w->v[7][0], 0);
}

/* A 3D chain: 4x4x4 and 2x2x2 R32F, pitch 64; each slice holds both levels (rows 0-3 and
 * 4-5), so texel (x, y, z) of level m is at ((z * 6 + row0(m) + y) * 64 + x) and holds
 * 1000 m + 100 z + 10 y + x. image_sample_l at (0.5, 0.5, 0.5): LOD 0 reads (2, 2, 2) =
 * 222, LOD 1 level 1's (1, 1, 1) = 1111; image_load_mip level 1 (0, 1, 1) = 1110; resinfo
 * of level 1 is (2, 2, 2, 2). With FORCE_UNNORMALIZED, (s, t, r) = (3.5, 1.0, 2.0) reads
 * (3, 1, 2) = 213. */
TEST(sample_3d_chain_unnormalized)
{
   float *tex = t_alloc(64 * 6 * 4 * 4, SIM_ALLOC_READ);
   for (unsigned z = 0; z < 4; z++)
      for (unsigned y = 0; y < 4; y++)
         for (unsigned x = 0; x < 4; x++) {
            tex[(z * 6 + y) * 64 + x] = (float)(100 * z + 10 * y + x);
            if (x < 2 && y < 2 && z < 2)
               tex[(z * 6 + 4 + y) * 64 + x] = (float)(1000 + 100 * z + 10 * y + x);
         }
   sim_wave *w = t_wave();
   put_t(w, 0, (img_desc){tex, T_3D, DF_32, NF_FLOAT, 4, 4, 3, 64, 0, 1});
   put_s(w, 8, (smp_desc){C_EDGE, F_POINT, MIP_POINT});
   put_s(w, 12, (smp_desc){C_EDGE, F_POINT, MIP_POINT});
   w->s[12] |= 1u << 15; /* FORCE_UNNORMALIZED */
   for (unsigned k = 0; k < 3; k++) {
      vall(w, 20 + k, t_u(0.5f));
      vall(w, 24 + k, t_u(0.5f));
   }
   vall(w, 23, t_u(0.0f));
   vall(w, 27, t_u(1.0f));
   vall(w, 28, 0);
   vall(w, 29, 1);
   vall(w, 30, 1);
   vall(w, 31, 1);
   vall(w, 32, t_u(3.5f));
   vall(w, 33, t_u(1.0f));
   vall(w, 34, t_u(2.0f));
   vall(w, 35, t_u(0.0f));
   SIM_EXEC(w) = 1;
   CHECK_EQ(t_run(w, "image_sample_l v0, v[20:23], s[0:7], s[8:11] dmask:0x1\n"
                     "image_sample_l v1, v[24:27], s[0:7], s[8:11] dmask:0x1\n"
                     "image_load_mip v2, v[28:31], s[0:7] dmask:0x1 unorm\n"
                     "image_get_resinfo v[4:7], v29, s[0:7] dmask:0xf unorm\n"
                     "image_sample_l v3, v[32:35], s[0:7], s[12:15] dmask:0x1\n"
                     "s_waitcnt vmcnt(0)"),
            SIM_FAULT_NONE);
   CHECK_LANE_F(0, 0, 222.0f);
   CHECK_LANE_F(1, 0, 1111.0f);
   CHECK_LANE_F(2, 0, 1110.0f);
   CHECK_EQ(w->v[4][0], 2);
   CHECK_EQ(w->v[5][0], 2);
   CHECK_EQ(w->v[6][0], 2);
   CHECK_EQ(w->v[7][0], 2);
   CHECK_LANE_F(3, 0, 213.0f);
}

void
t_sample_tests(void)
{
   RUN(sample_l_mip_point);
   RUN(sample_l_mip_linear_none);
   RUN(sample_lod_fields);
   RUN(sample_implicit_b_cl);
   RUN(sample_d_cd);
   RUN(sample_offsets);
   RUN(sample_compare);
   RUN(gather4_forms);
   RUN(gather4_component);
   RUN(get_lod);
   RUN(get_resinfo);
   RUN(load_store_mip_chain);
   RUN(sample_lz_level_zero);
   RUN(sample_filters_a16_d16_tfe);
   RUN(sample_3d_chain_unnormalized);
}
