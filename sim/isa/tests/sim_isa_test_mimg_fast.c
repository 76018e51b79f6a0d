/* The texture unit's wave-wide fast paths (sim_mimg.c "Wave-wide fast paths") against its
 * per-lane path: the same image_load / image_store / image_sample* run twice on the same
 * registers and memory, with sim__mimg_fast off and on, must leave the same VGPRs (every
 * lane, EXEC or not), the same image bytes and the same fault. Cases are drawn from a fixed
 * seed over the formats with their own lane batch (8-bit UNORM, 32-bit raw) and others,
 * DST_SEL and DMASK, 1D and 2D sizes and pitches, every clamp mode, normalised or not, partial
 * EXEC (and EXECs of a few lanes, which the paths loop over) and coordinates at and past the edges (sub-texel steps below an edge, -0, NaN,
 * infinities, huge values); the fast paths must have run for the cases they cover. */
#include <math.h>
#include <stdlib.h>
#include <sys/mman.h>
#include "sim_isa_test.h"

enum { T_1D = 8, T_2D = 9 };

/* The formats drawn: DATA_FORMAT, NUM_FORMAT, bytes per texel. */
static const struct {
   unsigned dfmt, nfmt, bytes;
} formats[] = {
   {SIM_DFMT_8_8_8_8, SIM_NFMT_UNORM, 4}, {SIM_DFMT_8, SIM_NFMT_UNORM, 1},
   {SIM_DFMT_8_8, SIM_NFMT_UNORM, 2},     {SIM_DFMT_32, SIM_NFMT_FLOAT, 4},
   {SIM_DFMT_32_32_32_32, SIM_NFMT_UINT, 16}, {SIM_DFMT_32_32, SIM_NFMT_SINT, 8},
   {SIM_DFMT_16_16_16_16, SIM_NFMT_FLOAT, 8}, {SIM_DFMT_8_8_8_8, SIM_NFMT_SNORM, 4},
   {SIM_DFMT_5_6_5, SIM_NFMT_UNORM, 2},   {SIM_DFMT_8_8_8_8, SIM_NFMT_SRGB, 4},
};

static uint64_t rng = 0x9E3779B97F4A7C15ull;

static uint32_t
rnd(void)
{
   rng ^= rng << 13;
   rng ^= rng >> 7;
   rng ^= rng << 17;
   return (uint32_t)(rng >> 16);
}

static unsigned
below(unsigned n)
{
   return rnd() % n;
}

typedef struct fcase {
   unsigned type, fmt, width, height, pitch, sel, dmask;
   unsigned clamp[2], unnorm;
   uint64_t exec;
} fcase;

static uint32_t
rnd_sel(void)
{
   static const uint32_t common[] = {
      4 | 5 << 3 | 6 << 6 | 7 << 9, /* XYZW */
      6 | 5 << 3 | 4 << 6 | 7 << 9, /* ZYXW (BGRA) */
      4 | 0 << 3 | 0 << 6 | 1 << 9, /* X001 */
      7 | 7 << 3 | 7 << 6 | 4 << 9, /* WWWX */
   };
   if (below(2))
      return common[below(4)];
   uint32_t s = 0;
   for (unsigned i = 0; i < 4; i++)
      s |= (uint32_t)below(8) << (3 * i); /* 2 and 3 (reserved) read 0 */
   return s;
}

static fcase
rnd_case(void)
{
   fcase c;
   c.type = below(4) ? T_2D : T_1D;
   c.fmt = below(3) ? below(3) : below(sizeof(formats) / sizeof(formats[0]));
   c.width = 1 + below(below(4) ? 40 : 3);
   c.height = c.type == T_2D ? 1 + below(9) : 1;
   c.pitch = c.width + (below(2) ? below(5) : 0);
   c.sel = below(3) ? 4 | 5 << 3 | 6 << 6 | 7 << 9 : rnd_sel();
   c.dmask = below(2) ? 0xF : 1 + below(15);
   c.clamp[0] = below(8);
   c.clamp[1] = below(3) ? c.clamp[0] : below(8);
   c.unnorm = below(2);
   unsigned e = below(5);
   c.exec = e == 0 ? ~0ull : e == 1 ? ((uint64_t)rnd() << 32 | rnd()) : ~0ull >> below(64);
   if (e == 4) { /* up to SIM_SPARSE_LANES lanes: the paths' lane loops */
      c.exec = 0;
      for (unsigned k = 1 + below(SIM_SPARSE_LANES); k; k--)
         c.exec |= 1ull << below(64);
   }
   return c;
}

static void
put_t(sim_wave *w, const fcase *c, const void *base)
{
   uint64_t a = (uint64_t)(uintptr_t)base;
   uint32_t *t = &w->s[0];
   t[0] = (uint32_t)(a >> 8);
   t[1] = ((uint32_t)(a >> 40) & 0xFF) | formats[c->fmt].dfmt << 20 |
          formats[c->fmt].nfmt << 26;
   t[2] = (c->width - 1) | (c->height - 1) << 14;
   t[3] = c->sel | (uint32_t)c->type << 28;
   t[4] = (c->pitch - 1) << 13;
   t[5] = t[6] = t[7] = 0;
}

static void
put_s(sim_wave *w, const fcase *c)
{
   uint32_t *s = &w->s[8];
   s[0] = c->clamp[0] | c->clamp[1] << 3 | c->unnorm << 15;
   s[1] = 0xFFFu << 12;
   s[2] = 0; /* point, MIP_NONE */
   s[3] = 2u << 30; /* opaque white border */
}

/* A sampling coordinate along a dimension of `size` texels (texel units when unnormalised). */
static float
rnd_coord(unsigned size, bool unnorm)
{
   float fs = unnorm ? (float)size : 1.0f, t = unnorm ? 1.0f : 1.0f / (float)size;
   switch (below(12)) {
   case 0: return -0.0f;
   case 1: return NAN;
   case 2: return below(2) ? INFINITY : -INFINITY;
   case 3: return below(2) ? 3e9f : -3e9f;
   case 4: return fs - t / 512.0f;  /* within 1/512 texel of the edge: rounds onto it */
   case 5: return fs - t / 256.0f;
   case 6: return fs;
   case 7: return -t / 1024.0f;
   case 8: return (float)below(size) * t + t / 512.0f * (float)below(3);
   default: return ((float)(rnd() % 4000) / 1000.0f - 1.0f) * fs; /* [-1, 3) of the size */
   }
}

/* An integer load/store coordinate: inside, just past, or far past the size. */
static uint32_t
rnd_icoord(unsigned size)
{
   switch (below(8)) {
   case 0: return size;
   case 1: return 0xFFFFFFFFu;
   case 2: return size + below(4);
   default: return below(size);
   }
}

static const char *
vdata(unsigned dmask)
{
   static const char *const r[] = {"v0", "v[0:1]", "v[0:2]", "v[0:3]"};
   return r[__builtin_popcount(dmask) - 1];
}

/* Runs `src` on a fresh wave with VGPR rows 0..15 from v0 and the image bytes img0 at img,
 * with the fast paths on or off: VGPR rows and image bytes after it into v_out and img_out,
 * the fast paths' instructions into *runs, the fault's address (0: none) into *fault_addr. */
static sim_fault_kind
run_once(const char *src, const fcase *c, const uint32_t (*v0)[64], const uint8_t *img0,
         uint8_t *img, size_t bytes, bool fast, uint32_t (*v_out)[64], uint8_t *img_out,
         uint64_t *runs, uint64_t *fault_addr)
{
   memcpy(img, img0, bytes);
   sim_wave *w = t_wave();
   for (unsigned r = 0; r < 16; r++)
      memcpy(w->v[r], v0[r], sizeof(v0[r]));
   put_t(w, c, img);
   put_s(w, c);
   SIM_EXEC(w) = c->exec;
   sim__mimg_fast = fast;
   sim__mimg_counting = true;
   uint64_t before = sim__mimg_fast_runs;
   sim_fault_kind k = t_run(w, src);
   sim__mimg_counting = false;
   sim__mimg_fast = true;
   *runs = sim__mimg_fast_runs - before;
   *fault_addr = k == SIM_FAULT_NONE ? 0 : t_fault.address;
   for (unsigned r = 0; r < 16; r++)
      memcpy(v_out[r], w->v[r], sizeof(v_out[r]));
   memcpy(img_out, img, bytes);
   return k;
}

/* Case `c` of `op` (0 load, 1 store, 2 sample_lz, 3 sample, 4 sample_l): the two runs must
 * agree. Returns whether the fast run took a fast path. */
static bool
compare_case(unsigned op, const fcase *c, unsigned n)
{
   size_t bytes = (size_t)c->pitch * c->height * formats[c->fmt].bytes;
   static uint8_t *img; /* one allocation serves every case: the largest is 6336 bytes */
   if (!img)
      img = t_alloc(8192, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   uint8_t *img0 = malloc(bytes), *after[2] = {malloc(bytes), malloc(bytes)};
   static uint32_t v0[16][64], v[2][16][64];
   for (size_t i = 0; i < bytes; i++)
      img0[i] = (uint8_t)rnd();
   for (unsigned r = 0; r < 16; r++)
      for (unsigned l = 0; l < 64; l++)
         v0[r][l] = rnd(); /* data to store; results overwrite only what they should */
   bool two_d = c->type == T_2D;
   for (unsigned l = 0; l < 64; l++) {
      if (op <= 1) {
         v0[4][l] = rnd_icoord(c->width);
         v0[5][l] = rnd_icoord(c->height);
      } else {
         v0[4][l] = t_u(rnd_coord(c->width, c->unnorm));
         v0[5][l] = t_u(rnd_coord(c->height, c->unnorm));
         v0[6][l] = t_u((float)below(4) - 1.0f); /* sample_l: the LOD (one level) */
      }
   }
   /* Stores' data: floats around [0, 1] and odd values for the float formats. */
   if (op == 1)
      for (unsigned r = 0; r < 4; r++)
         for (unsigned l = 0; l < 64; l++)
            if (below(2))
               v0[r][l] = t_u((float)(int)(rnd() % 3000) / 1000.0f - 1.0f);
   char src[160];
   const char *addr = op == 4 ? (two_d ? "v[4:6]" : "v[4:5]") : two_d ? "v[4:5]" : "v4";
   static const char *const names[] = {"image_load", "image_store", "image_sample_lz",
                                       "image_sample", "image_sample_l"};
   if (op <= 1)
      snprintf(src, sizeof(src), "%s %s, %s, s[0:7] dmask:0x%x unorm\ns_waitcnt vmcnt(0)",
               names[op], vdata(c->dmask), addr, c->dmask);
   else
      snprintf(src, sizeof(src), "%s %s, %s, s[0:7], s[8:11] dmask:0x%x\ns_waitcnt vmcnt(0)",
               names[op], vdata(c->dmask), addr, c->dmask);
   uint64_t runs[2], fa[2];
   sim_fault_kind k[2];
   for (unsigned f = 0; f < 2; f++)
      k[f] = run_once(src, c, (const uint32_t(*)[64])v0, img0, img, bytes, f == 1, v[f],
                      after[f], &runs[f], &fa[f]);
   bool same = k[0] == k[1] && fa[0] == fa[1] && !memcmp(after[0], after[1], bytes) &&
               !memcmp(v[0], v[1], sizeof(v[0]));
   if (!same) {
      fprintf(stderr, "FAIL %s: case %u: %s: type %u fmt %u %ux%u pitch %u sel 0x%x "
              "clamp %u/%u unnorm %u exec 0x%llx: fast and per-lane paths differ\n",
              t_current, n, src, c->type, c->fmt, c->width, c->height, c->pitch, c->sel,
              c->clamp[0], c->clamp[1], c->unnorm, (unsigned long long)c->exec);
      t_failures++;
   }
   CHECK_EQ(runs[0], 0); /* off means off */
   free(img0);
   free(after[0]);
   free(after[1]);
   return runs[1] > 0;
}

/* Whether the fast paths' conditions hold for op and c (sim_mimg.c): a clamp or border
 * mode in every sampled dimension. */
static bool
fast_expected(unsigned op, const fcase *c)
{
   if (op <= 1)
      return true;
   return c->clamp[0] >= 2 && (c->type == T_1D || c->clamp[1] >= 2);
}

TEST(mimg_fast_matches_per_lane)
{
   unsigned taken[5] = {0}, few[5] = {0};
   for (unsigned n = 0; n < 1500; n++) {
      unsigned op = n % 5;
      fcase c = rnd_case();
      bool ran = compare_case(op, &c, n);
      if (ran != fast_expected(op, &c)) {
         fprintf(stderr, "FAIL %s: case %u (op %u): fast path %s\n", t_current, n, op,
                 ran ? "taken where it should not apply" : "not taken");
         t_failures++;
      }
      taken[op] += ran;
      few[op] += ran && sim__lanes_sparse(c.exec);
   }
   for (unsigned op = 0; op < 5; op++)
      CHECK(taken[op] >= 100 && few[op] >= 20);
}

/* A level that runs past its allocation: the fast paths leave it to the per-lane path,
 * which faults at the first texel outside memory, in both runs alike. */
TEST(mimg_fast_level_past_allocation)
{
   for (unsigned op = 0; op < 3; op++) {
      fcase c = {T_2D, 0, 64, 64, 64, 4 | 5 << 3 | 6 << 6 | 7 << 9, 0xF, {2, 2}, 1, ~0ull};
      /* 64 rows of 256 bytes, of which the first 4 KiB (rows 0-15) are memory and the
       * next page is in no allocation. */
      uint8_t *img = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                          -1, 0);
      CHECK(img != MAP_FAILED);
      if (img == MAP_FAILED)
         return;
      t_register(img, 4096, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
      static uint32_t v0[16][64], v[2][16][64];
      for (unsigned l = 0; l < 64; l++) {
         v0[4][l] = op <= 1 ? l : t_u((float)l + 0.5f);
         v0[5][l] = op <= 1 ? (l < 40 ? 3 : 20) : t_u(l < 40 ? 3.5f : 20.5f);
      }
      static const char *const src[] = {
         "image_load v[0:3], v[4:5], s[0:7] dmask:0xf unorm\ns_waitcnt vmcnt(0)",
         "image_store v[0:3], v[4:5], s[0:7] dmask:0xf unorm\ns_waitcnt vmcnt(0)",
         "image_sample_lz v[0:3], v[4:5], s[0:7], s[8:11] dmask:0xf\ns_waitcnt vmcnt(0)",
      };
      uint8_t *img0 = calloc(1, 4096), *after = malloc(4096);
      uint64_t runs[2], fa[2];
      sim_fault_kind k[2];
      for (unsigned f = 0; f < 2; f++)
         k[f] = run_once(src[op], &c, (const uint32_t(*)[64])v0, img0, img, 4096, f == 1,
                         v[f], after, &runs[f], &fa[f]);
      CHECK_EQ(k[0], SIM_FAULT_MEMORY_VIOLATION);
      CHECK_EQ(k[1], SIM_FAULT_MEMORY_VIOLATION);
      CHECK_EQ(fa[0], fa[1]);
      CHECK_EQ(fa[1], (uint64_t)(uintptr_t)img + (20 * 64 + 40) * 4);
      CHECK_EQ(runs[1], 0);
      free(img0);
      free(after);
   }
}

void
t_mimg_fast_tests(void)
{
   RUN(mimg_fast_matches_per_lane);
   RUN(mimg_fast_level_past_allocation);
}
