/*
 * kfd_test_image_kernel — OpenCL image built-ins (clang-19 + the ROCm device libraries,
 * image.cl) executed by the software GPU against descriptors written by the HSA image
 * extension: ROCr's own (LD_LIBRARY_PATH=<build>/sim/kfd: ROCr over the software KFD) or the
 * software runtime's (<build>/sim). Every result is checked against a host model of the
 * OpenCL C sampling rules; "id:" lines (digests of the results) are compared between the two
 * runtimes by kfd_test_image_same.sh.
 *   - read_imagef with every addressing mode x NEAREST / LINEAR x normalised coordinates (and
 *     CLAMP_TO_EDGE / CLAMP / NONE unnormalised) on 2D images of 11 formats (RGBA8, BGRA8,
 *     R32F, RGB565, A8, LUMINANCE8, INTENSITY16, RG SNORM8, sRGBA8, RGBA half, RGB101010);
 *     read_imageui on RGBA UINT8 (nearest);
 *   - 3D, 2D array and 1D array sampling (R32F), linear and nearest;
 *   - integer-coordinate read_imagef and write_imagef / write_imagei (exported and compared);
 *   - 1D buffer images: read_imagef, write_imagef;
 *   - depth images (2DDEPTH FLOAT, 2DADEPTH UNORM16): read_imagef nearest / linear,
 *     write_imagef;
 *   - get_image_width / height / depth / array_size / channel_order / channel_data_type;
 *   - garbage descriptors (all ones, all zeros, unmapped memory) fault the dispatch: the
 *     queue's error callback reports it and the process goes on.
 * Linear filtering is compared with the exact formula within 1/256 of the texel range (the
 * texture unit's 8-bit sub-texel weights); everything else exactly (sRGB within 1e-6).
 *
 * argv[1]: image.hsaco.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>
#include <unistd.h>
#include <hsa/hsa_ext_image.h>

#include "kfd_test_common.h"

#define T(x) HSA_EXT_IMAGE_CHANNEL_TYPE_##x
#define O(x) HSA_EXT_IMAGE_CHANNEL_ORDER_##x
#define G(x) HSA_EXT_IMAGE_GEOMETRY_##x
#define A(x) HSA_EXT_SAMPLER_ADDRESSING_MODE_##x

static hsa_ext_images_1_pfn_t X;
static kfd_test_env env;
static hsa_agent_t gpu;
static hsa_queue_t *queue;
static hsa_executable_t exe;
static int failures;

#define EXPECT(cond, ...)                                                                     \
   do {                                                                                       \
      if (!(cond)) {                                                                          \
         fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);                                      \
         fprintf(stderr, __VA_ARGS__);                                                        \
         fputc('\n', stderr);                                                                 \
         failures++;                                                                          \
      }                                                                                       \
   } while (0)

static uint64_t
fnv(const void *p, size_t n)
{
   const uint8_t *b = p;
   uint64_t h = 0xcbf29ce484222325ull;
   for (size_t i = 0; i < n; i++)
      h = (h ^ b[i]) * 0x100000001b3ull;
   return h;
}

static uint32_t rng = 777;
static uint32_t
rnd32(void)
{
   rng ^= rng << 13;
   rng ^= rng >> 17;
   rng ^= rng << 5;
   return rng;
}

static void *
halloc(size_t n)
{
   void *p = kfd_test_alloc(&env, env.system_pool, n);
   memset(p, 0, n);
   return p;
}

/* ---- formats: the host's decoding ----------------------------------------------------- */

typedef struct fmt {
   const char *name;
   unsigned order, type, bytes;
   bool has_alpha;
} fmt;

static float
half_to_float(uint16_t h)
{
   uint32_t s = (uint32_t)(h >> 15) << 31, e = (h >> 10) & 31, m = h & 1023;
   float f;
   if (e == 0)
      f = ldexpf((float)m, -24);
   else if (e == 31)
      f = m ? NAN : INFINITY;
   else
      f = ldexpf((float)(m | 1024), (int)e - 25);
   return s ? -f : f;
}

static float
srgb(unsigned v)
{
   float c = (float)v / 255.0f;
   return c <= 0.04045f ? c / 12.92f : powf((c + 0.055f) / 1.055f, 2.4f);
}

static void
decode(const fmt *f, const uint8_t *p, float out[4])
{
   uint16_t u16[4];
   uint32_t u32;
   memcpy(u16, p, f->bytes < 8 ? f->bytes : 8);
   memcpy(&u32, p, 4);
   float r = 0, g = 0, b = 0, a = 1;
   switch (f->order * 100 + f->type) {
   case O(RGBA) * 100 + T(UNORM_INT8):
      r = p[0] / 255.0f, g = p[1] / 255.0f, b = p[2] / 255.0f, a = p[3] / 255.0f;
      break;
   case O(BGRA) * 100 + T(UNORM_INT8):
      b = p[0] / 255.0f, g = p[1] / 255.0f, r = p[2] / 255.0f, a = p[3] / 255.0f;
      break;
   case O(R) * 100 + T(FLOAT):
      memcpy(&r, p, 4);
      break;
   case O(RGB) * 100 + T(UNORM_SHORT_565):
      r = ((u16[0] >> 11) & 31) / 31.0f, g = ((u16[0] >> 5) & 63) / 63.0f,
      b = (u16[0] & 31) / 31.0f;
      break;
   case O(RGB) * 100 + T(UNORM_SHORT_101010):
      r = ((u32 >> 20) & 1023) / 1023.0f, g = ((u32 >> 10) & 1023) / 1023.0f,
      b = (u32 & 1023) / 1023.0f;
      break;
   case O(A) * 100 + T(UNORM_INT8):
      a = p[0] / 255.0f;
      break;
   case O(LUMINANCE) * 100 + T(UNORM_INT8):
      r = g = b = p[0] / 255.0f;
      break;
   case O(INTENSITY) * 100 + T(UNORM_INT16):
      r = g = b = a = u16[0] / 65535.0f;
      break;
   case O(RG) * 100 + T(SNORM_INT8):
      r = fmaxf(-1.0f, (int8_t)p[0] / 127.0f), g = fmaxf(-1.0f, (int8_t)p[1] / 127.0f);
      b = 0;
      break;
   case O(SRGBA) * 100 + T(UNORM_INT8):
      r = srgb(p[0]), g = srgb(p[1]), b = srgb(p[2]), a = p[3] / 255.0f;
      break;
   case O(DEPTH) * 100 + T(FLOAT):
      memcpy(&r, p, 4);
      g = b = a = 0;
      break;
   case O(DEPTH) * 100 + T(UNORM_INT16):
      r = u16[0] / 65535.0f;
      g = b = a = 0;
      break;
   case O(RGBA) * 100 + T(HALF_FLOAT):
      r = half_to_float(u16[0]), g = half_to_float(u16[1]), b = half_to_float(u16[2]),
      a = half_to_float(u16[3]);
      break;
   default:
      CHECK(!"format without a host decoder");
   }
   out[0] = r, out[1] = g, out[2] = b, out[3] = a;
}

/* ---- images, samplers, dispatch -------------------------------------------------------- */

typedef struct img {
   hsa_ext_image_t h;
   uint8_t *data;
   const fmt *f;
   unsigned geo, w, h_, d; /* d: depth or layers */
   uint8_t *texels;        /* the imported bytes, tight */
} img;

static img
make_image(const fmt *f, unsigned geo, unsigned w, unsigned h, unsigned d, bool random)
{
   img m = {.f = f, .geo = geo, .w = w, .h_ = h ? h : 1, .d = d ? d : 1};
   bool arrayed = geo == G(2DA) || geo == G(1DA) || geo == G(2DADEPTH);
   hsa_ext_image_descriptor_t desc = {geo, w, h, geo == G(3D) ? d : 0, arrayed ? d : 0,
                                      {f->type, f->order}};
   size_t row = (w * f->bytes + 255) / 256 * 256;
   hsa_ext_image_data_info_t info;
   CHECK_HSA(X.hsa_ext_image_data_get_info_with_layout(gpu, &desc, HSA_ACCESS_PERMISSION_RW,
                                                       HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, row,
                                                       0, &info));
   CHECK_HSA(hsa_amd_memory_pool_allocate(env.vram_pool, info.size, 0, (void **)&m.data));
   CHECK_HSA(hsa_amd_agents_allow_access(1, &gpu, NULL, m.data));
   CHECK_HSA(X.hsa_ext_image_create_with_layout(gpu, &desc, m.data, HSA_ACCESS_PERMISSION_RW,
                                                HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, row, 0,
                                                &m.h));
   unsigned rows = geo == G(1DA) ? m.d : m.h_, slices = geo == G(1DA) ? 1 : m.d;
   size_t n = (size_t)w * rows * slices * f->bytes;
   m.texels = halloc(n);
   for (size_t i = 0; i < n; i++)
      m.texels[i] = random ? (uint8_t)rnd32() : 0;
   if (random && f->type == T(FLOAT)) /* finite floats in [-2, 2] */
      for (size_t i = 0; i < n / 4; i++) {
         float v = (float)(int)(rnd32() % 4001 - 2000) / 1000.0f;
         memcpy(m.texels + 4 * i, &v, 4);
      }
   if (random && f->type == T(HALF_FLOAT)) /* halves in [-2, 2] */
      for (size_t i = 0; i < n / 2; i++) {
         uint16_t v = (uint16_t)((rnd32() % 0x4000) | (rnd32() & 1) << 15);
         memcpy(m.texels + 2 * i, &v, 2);
      }
   hsa_ext_image_region_t all = {{0, 0, 0}, {w, rows, slices}};
   CHECK_HSA(X.hsa_ext_image_import(gpu, m.texels, (size_t)w * f->bytes,
                                    (size_t)w * rows * f->bytes, m.h, &all));
   return m;
}

static void
free_image(img *m)
{
   CHECK_HSA(X.hsa_ext_image_destroy(gpu, m->h));
   CHECK_HSA(hsa_amd_memory_pool_free(m->data));
   CHECK_HSA(hsa_amd_memory_pool_free(m->texels));
}

static hsa_ext_sampler_t
make_sampler(unsigned addr, unsigned filter, bool norm)
{
   hsa_ext_sampler_descriptor_t d = {
      norm ? HSA_EXT_SAMPLER_COORDINATE_MODE_NORMALIZED
           : HSA_EXT_SAMPLER_COORDINATE_MODE_UNNORMALIZED,
      filter, addr};
   hsa_ext_sampler_t s;
   CHECK_HSA(X.hsa_ext_sampler_create(gpu, &d, &s));
   return s;
}

/* Runs kernel `name` over n items with the kernarg block `args` (size bytes). */
static void
run(const char *name, const void *args, size_t size, unsigned n)
{
   kfd_test_kernel k = kfd_test_find_kernel(exe, gpu, name);
   void *ka = kfd_test_alloc(&env, env.kernarg_pool, 4096);
   memset(ka, 0, 4096);
   memcpy(ka, args, size);
   hsa_signal_t done;
   CHECK_HSA(hsa_signal_create(1, 0, NULL, &done));
   kfd_test_dispatch(queue, &k, ka, (n + 63) / 64 * 64, 64, done);
   CHECK(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_LT, 1, 60000000000ull,
                                   HSA_WAIT_STATE_BLOCKED) == 0);
   CHECK(atomic_load(&errors_seen) == 0 && atomic_load(&faults_seen) == 0);
   CHECK_HSA(hsa_signal_destroy(done));
   CHECK_HSA(hsa_amd_memory_pool_free(ka));
}

/* ---- the host model of OpenCL sampling ------------------------------------------------- */

/* Texel (x, y, z) of an image in the model, or the border colour when outside. */
static void
texel(const img *m, int x, int y, int z, float out[4])
{
   if (x < 0 || y < 0 || z < 0 || x >= (int)m->w || y >= (int)m->h_ || z >= (int)m->d) {
      out[0] = out[1] = out[2] = 0;
      out[3] = m->f->has_alpha ? 0 : 1;
      return;
   }
   decode(m->f, m->texels + (((size_t)z * m->h_ + y) * m->w + x) * m->f->bytes, out);
}

/* The addressing of one coordinate (texel units `u` already scaled) to a texel index for
 * NEAREST; OpenCL C 3.0 "Addressing and filter modes". */
static int
nearest_index(float s, unsigned size, unsigned addr, bool norm)
{
   float u;
   int i;
   switch (addr) {
   case A(REPEAT):
      u = (s - floorf(s)) * (float)size;
      i = (int)floorf(u);
      return i > (int)size - 1 ? i - (int)size : i;
   case A(MIRRORED_REPEAT): {
      float sp = 2.0f * rintf(0.5f * s);
      sp = fabsf(s - sp);
      u = sp * (float)size;
      i = (int)floorf(u);
      return i < (int)size - 1 ? i : (int)size - 1;
   }
   case A(CLAMP_TO_EDGE):
      u = norm ? s * (float)size : s;
      i = (int)floorf(u);
      return i < 0 ? 0 : i > (int)size - 1 ? (int)size - 1 : i;
   default: /* CLAMP_TO_BORDER, NONE (coordinates stay inside for NONE) */
      u = norm ? s * (float)size : s;
      i = (int)floorf(u);
      return i < -1 ? -1 : i > (int)size ? (int)size : i;
   }
}

/* LINEAR: the two texel indices and the weight of the second. */
static void
linear_taps(float s, unsigned size, unsigned addr, bool norm, int *i0, int *i1, float *a)
{
   float u;
   int n = (int)size;
   switch (addr) {
   case A(REPEAT):
      u = (s - floorf(s)) * (float)size;
      *i0 = (int)floorf(u - 0.5f);
      *i1 = *i0 + 1;
      *a = (u - 0.5f) - floorf(u - 0.5f);
      if (*i0 < 0)
         *i0 += n;
      if (*i1 > n - 1)
         *i1 -= n;
      return;
   case A(MIRRORED_REPEAT): {
      float sp = 2.0f * rintf(0.5f * s);
      sp = fabsf(s - sp);
      u = sp * (float)size;
      *i0 = (int)floorf(u - 0.5f);
      *i1 = *i0 + 1;
      *a = (u - 0.5f) - floorf(u - 0.5f);
      *i0 = *i0 < 0 ? 0 : *i0 > n - 1 ? n - 1 : *i0;
      *i1 = *i1 < 0 ? 0 : *i1 > n - 1 ? n - 1 : *i1;
      return;
   }
   default:
      u = norm ? s * (float)size : s;
      *i0 = (int)floorf(u - 0.5f);
      *i1 = *i0 + 1;
      *a = (u - 0.5f) - floorf(u - 0.5f);
      if (addr == A(CLAMP_TO_EDGE)) {
         *i0 = *i0 < 0 ? 0 : *i0 > n - 1 ? n - 1 : *i0;
         *i1 = *i1 < 0 ? 0 : *i1 > n - 1 ? n - 1 : *i1;
      } else {
         *i0 = *i0 < -1 ? -1 : *i0 > n ? n : *i0;
         *i1 = *i1 < -1 ? -1 : *i1 > n ? n : *i1;
      }
      return;
   }
}

/* The model's read_imagef of a 2D image; `tol` receives the allowed error. */
static void
model_2d(const img *m, unsigned addr, unsigned filter, bool norm, float s, float t, float out[4],
         float *tol)
{
   *tol = 0;
   if (filter == HSA_EXT_SAMPLER_FILTER_MODE_NEAREST) {
      texel(m, nearest_index(s, m->w, addr, norm), nearest_index(t, m->h_, addr, norm), 0,
            out);
      return;
   }
   int x0, x1, y0, y1;
   float a, b, t00[4], t10[4], t01[4], t11[4];
   linear_taps(s, m->w, addr, norm, &x0, &x1, &a);
   linear_taps(t, m->h_, addr, norm, &y0, &y1, &b);
   texel(m, x0, y0, 0, t00);
   texel(m, x1, y0, 0, t10);
   texel(m, x0, y1, 0, t01);
   texel(m, x1, y1, 0, t11);
   float range = 0;
   for (int c = 0; c < 4; c++) {
      out[c] = (1 - a) * (1 - b) * t00[c] + a * (1 - b) * t10[c] + (1 - a) * b * t01[c] +
               a * b * t11[c];
      float hi = fmaxf(fmaxf(t00[c], t10[c]), fmaxf(t01[c], t11[c]));
      float lo = fminf(fminf(t00[c], t10[c]), fminf(t01[c], t11[c]));
      range = fmaxf(range, hi - lo);
   }
   *tol = range / 256.0f + 1e-5f;
}

/* ---- the tests ---------------------------------------------------------------------------- */

static const fmt formats[] = {
   {"rgba8", O(RGBA), T(UNORM_INT8), 4, true},
   {"bgra8", O(BGRA), T(UNORM_INT8), 4, true},
   {"r32f", O(R), T(FLOAT), 4, false},
   {"rgb565", O(RGB), T(UNORM_SHORT_565), 2, false},
   {"a8", O(A), T(UNORM_INT8), 1, true},
   {"l8", O(LUMINANCE), T(UNORM_INT8), 1, false},
   {"i16", O(INTENSITY), T(UNORM_INT16), 2, true},
   {"rg8s", O(RG), T(SNORM_INT8), 2, false},
   {"srgba8", O(SRGBA), T(UNORM_INT8), 4, true},
   {"rgba16f", O(RGBA), T(HALF_FLOAT), 8, true},
   {"rgb101010", O(RGB), T(UNORM_SHORT_101010), 4, false},
};

#define NC 96

static void
sampling_2d(void)
{
   static const unsigned addrs[] = {A(CLAMP_TO_EDGE), A(CLAMP_TO_BORDER), A(REPEAT),
                                    A(MIRRORED_REPEAT), A(UNDEFINED)};
   float *coords = halloc(NC * 8);
   float *out = halloc(NC * 16);
   for (size_t fi = 0; fi < sizeof(formats) / sizeof(formats[0]); fi++) {
      const fmt *f = &formats[fi];
      img m = make_image(f, G(2D), 7, 5, 0, true);
      for (unsigned ai = 0; ai < 5; ai++) {
         for (unsigned filter = 0; filter < 2; filter++) {
            for (int norm = 1; norm >= 0; norm--) {
               unsigned addr = addrs[ai];
               if (!norm && (addr == A(REPEAT) || addr == A(MIRRORED_REPEAT)))
                  continue;
               if (norm && addr == A(UNDEFINED))
                  continue;
               /* Coordinates: texel centres +- 0.3 texel over [-1.5, 2.5] (normalised) or
                * [-2, w + 2] (unnormalised); NONE stays inside the image. */
               for (unsigned i = 0; i < NC; i++) {
                  float off = (float)((int)(rnd32() % 7) - 3) * 0.1f;
                  float kx = (float)((int)(rnd32() % 30) - 11) + 0.5f + off;
                  float ky = (float)((int)(rnd32() % 22) - 8) + 0.5f + off;
                  if (addr == A(UNDEFINED)) { /* NONE: every tap inside the image */
                     kx = (float)(rnd32() % 6) + 0.9f + off;
                     ky = (float)(rnd32() % 4) + 0.9f + off;
                  }
                  coords[2 * i] = norm ? kx / 7.0f : kx;
                  coords[2 * i + 1] = norm ? ky / 5.0f : ky;
               }
               hsa_ext_sampler_t s = make_sampler(addr, filter, norm);
               struct {
                  uint64_t img, smp;
                  const float *c;
                  float *o;
                  int n;
               } args = {m.h.handle, s.handle, coords, out, NC};
               run("sample2d.kd", &args, sizeof(args), NC);
               int bad = 0;
               for (unsigned i = 0; i < NC; i++) {
                  float want[4], tol;
                  model_2d(&m, addr, filter, norm, coords[2 * i], coords[2 * i + 1], want,
                           &tol);
                  if (f->order == O(SRGBA))
                     tol += 1e-6f;
                  for (int c = 0; c < 4; c++) {
                     float g = out[4 * i + c];
                     if (!(fabsf(g - want[c]) <= tol) && !(isnan(g) && isnan(want[c]))) {
                        if (!bad++) {
                           fprintf(stderr, "%s addr %u filter %u norm %d (%g, %g) c%d: got "
                                   "%.9g want %.9g\n", f->name, addr, filter, norm,
                                   coords[2 * i], coords[2 * i + 1], c, g, want[c]);
                           if (getenv("DBG"))
                              for (int yy = 0; yy < 5; yy++)
                                 for (int xx = 0; xx < 7; xx++) {
                                    float tt[4];
                                    texel(&m, xx, yy, 0, tt);
                                    if (tt[c] == g)
                                       fprintf(stderr, "  matches texel %d %d\n", xx, yy);
                                 }
                        }
                     }
                  }
               }
               EXPECT(bad == 0, "%s addr %u filter %u norm %d: %d components wrong", f->name,
                      addr, filter, norm, bad);
               printf("id: sample2d %s addr %u filter %u norm %d: %016llx\n", f->name, addr,
                      filter, norm, (unsigned long long)fnv(out, NC * 16));
               CHECK_HSA(X.hsa_ext_sampler_destroy(gpu, s));
            }
         }
      }
      free_image(&m);
   }
   /* read_imageui, nearest, clamp to border: an integer format's border is (0, 0, 0, 0). */
   static const fmt ui8 = {"rgba8ui", O(RGBA), T(UNSIGNED_INT8), 4, true};
   img m = make_image(&ui8, G(2D), 7, 5, 0, true);
   hsa_ext_sampler_t s = make_sampler(A(CLAMP_TO_BORDER), 0, false);
   for (unsigned i = 0; i < NC; i++) {
      coords[2 * i] = (float)((int)(rnd32() % 11) - 2) + 0.5f;
      coords[2 * i + 1] = (float)((int)(rnd32() % 9) - 2) + 0.5f;
   }
   struct {
      uint64_t img, smp;
      const float *c;
      uint32_t *o;
      int n;
   } args = {m.h.handle, s.handle, coords, (uint32_t *)out, NC};
   run("sample2dui.kd", &args, sizeof(args), NC);
   int bad = 0;
   for (unsigned i = 0; i < NC; i++) {
      int x = (int)floorf(coords[2 * i]), y = (int)floorf(coords[2 * i + 1]);
      bool in = x >= 0 && y >= 0 && x < 7 && y < 5;
      for (int c = 0; c < 4; c++) {
         uint32_t want = in ? m.texels[(y * 7 + x) * 4 + c] : 0;
         bad += ((uint32_t *)out)[4 * i + c] != want;
      }
   }
   EXPECT(bad == 0, "read_imageui: %d components wrong", bad);
   printf("id: sample2dui: %016llx\n", (unsigned long long)fnv(out, NC * 16));
   CHECK_HSA(X.hsa_ext_sampler_destroy(gpu, s));
   free_image(&m);
   CHECK_HSA(hsa_amd_memory_pool_free(coords));
   CHECK_HSA(hsa_amd_memory_pool_free(out));
}

/* 3D, 2D array and 1D array images of R32F, clamp to edge, unnormalised. */
static void
sampling_3d_arrays(void)
{
   static const fmt r32f = {"r32f", O(R), T(FLOAT), 4, false};
   float *coords = halloc(NC * 16);
   float *out = halloc(NC * 16);
   for (unsigned filter = 0; filter < 2; filter++) {
      hsa_ext_sampler_t s = make_sampler(A(CLAMP_TO_EDGE), filter, false);
      /* 3D 5x4x3 */
      img m = make_image(&r32f, G(3D), 5, 4, 3, true);
      for (unsigned i = 0; i < NC; i++) {
         coords[4 * i] = (float)(rnd32() % 700) / 100.0f - 1.0f;
         coords[4 * i + 1] = (float)(rnd32() % 600) / 100.0f - 1.0f;
         coords[4 * i + 2] = (float)(rnd32() % 500) / 100.0f - 1.0f;
         coords[4 * i + 3] = 0;
      }
      struct {
         uint64_t img, smp;
         const float *c;
         float *o;
         int n;
      } args = {m.h.handle, s.handle, coords, out, NC};
      run("sample3d.kd", &args, sizeof(args), NC);
      int bad = 0;
      for (unsigned i = 0; i < NC; i++) {
         float want = 0, tol = 0;
         if (!filter) {
            float t[4];
            texel(&m, nearest_index(coords[4 * i], 5, A(CLAMP_TO_EDGE), false),
                  nearest_index(coords[4 * i + 1], 4, A(CLAMP_TO_EDGE), false),
                  nearest_index(coords[4 * i + 2], 3, A(CLAMP_TO_EDGE), false), t);
            want = t[0];
         } else {
            int x[2], y[2], z[2];
            float a, b, c, lo = INFINITY, hi = -INFINITY;
            linear_taps(coords[4 * i], 5, A(CLAMP_TO_EDGE), false, &x[0], &x[1], &a);
            linear_taps(coords[4 * i + 1], 4, A(CLAMP_TO_EDGE), false, &y[0], &y[1], &b);
            linear_taps(coords[4 * i + 2], 3, A(CLAMP_TO_EDGE), false, &z[0], &z[1], &c);
            for (int k = 0; k < 8; k++) {
               float t[4];
               texel(&m, x[k & 1], y[(k >> 1) & 1], z[k >> 2], t);
               want += ((k & 1) ? a : 1 - a) * ((k & 2) ? b : 1 - b) * ((k & 4) ? c : 1 - c) *
                       t[0];
               lo = fminf(lo, t[0]);
               hi = fmaxf(hi, t[0]);
            }
            tol = (hi - lo) * 1.5f / 256.0f + 1e-5f;
         }
         if (!(fabsf(out[4 * i] - want) <= tol))
            bad++;
      }
      EXPECT(bad == 0, "3D filter %u: %d results wrong", filter, bad);
      printf("id: sample3d filter %u: %016llx\n", filter, (unsigned long long)fnv(out, NC * 16));
      free_image(&m);

      /* 2D array 6x3, 4 layers: the layer is rint(r) clamped to [0, 3]. */
      m = make_image(&r32f, G(2DA), 6, 3, 4, true);
      for (unsigned i = 0; i < NC; i++) {
         coords[4 * i] = (float)(rnd32() % 800) / 100.0f - 1.0f;
         coords[4 * i + 1] = (float)(rnd32() % 500) / 100.0f - 1.0f;
         coords[4 * i + 2] = (float)((int)(rnd32() % 7) - 1) + 0.25f;
      }
      args.img = m.h.handle;
      run("sample2da.kd", &args, sizeof(args), NC);
      bad = 0;
      for (unsigned i = 0; i < NC; i++) {
         int layer = (int)rintf(coords[4 * i + 2]);
         layer = layer < 0 ? 0 : layer > 3 ? 3 : layer;
         img view = m;
         view.d = 1;
         view.texels = m.texels + (size_t)layer * 6 * 3 * 4;
         float want[4], tol;
         model_2d(&view, A(CLAMP_TO_EDGE), filter, false, coords[4 * i], coords[4 * i + 1],
                  want, &tol);
         if (!(fabsf(out[4 * i] - want[0]) <= tol))
            bad++;
      }
      EXPECT(bad == 0, "2D array filter %u: %d results wrong", filter, bad);
      printf("id: sample2da filter %u: %016llx\n", filter,
             (unsigned long long)fnv(out, NC * 16));
      free_image(&m);

      /* 1D array 9 wide, 3 layers. */
      m = make_image(&r32f, G(1DA), 9, 0, 3, true);
      for (unsigned i = 0; i < NC; i++) {
         coords[2 * i] = (float)(rnd32() % 1100) / 100.0f - 1.0f;
         coords[2 * i + 1] = (float)((int)(rnd32() % 5) - 1) - 0.25f;
      }
      args.img = m.h.handle;
      run("sample1da.kd", &args, sizeof(args), NC);
      bad = 0;
      for (unsigned i = 0; i < NC; i++) {
         int layer = (int)rintf(coords[2 * i + 1]);
         layer = layer < 0 ? 0 : layer > 2 ? 2 : layer;
         img view = m;
         view.h_ = 1;
         view.d = 1;
         view.texels = m.texels + (size_t)layer * 9 * 4;
         float want[4], tol;
         model_2d(&view, A(CLAMP_TO_EDGE), filter, false, coords[2 * i], 0.5f, want, &tol);
         if (!(fabsf(out[4 * i] - want[0]) <= tol))
            bad++;
      }
      EXPECT(bad == 0, "1D array filter %u: %d results wrong", filter, bad);
      printf("id: sample1da filter %u: %016llx\n", filter,
             (unsigned long long)fnv(out, NC * 16));
      free_image(&m);
      CHECK_HSA(X.hsa_ext_sampler_destroy(gpu, s));
   }
   CHECK_HSA(hsa_amd_memory_pool_free(coords));
   CHECK_HSA(hsa_amd_memory_pool_free(out));
}

/* Integer coordinates: read_imagef exact, write_imagef / write_imagei then export. */
static void
load_store(void)
{
   const fmt *rgba8 = &formats[0], *bgra8 = &formats[1];
   img m = make_image(bgra8, G(2D), 13, 6, 0, true);
   int32_t *c = halloc(64 * 8);
   float *v = halloc(64 * 16);
   for (int i = 0; i < 64; i++) {
      c[2 * i] = i % 13;
      c[2 * i + 1] = i / 13;
   }
   struct {
      uint64_t img;
      const int32_t *c;
      float *o;
      int n;
   } la = {m.h.handle, c, v, 64};
   run("load2d.kd", &la, sizeof(la), 64);
   int bad = 0;
   for (int i = 0; i < 64; i++) {
      float want[4];
      decode(bgra8, m.texels + (size_t)((i / 13) * 13 + i % 13) * 4, want);
      for (int k = 0; k < 4; k++)
         bad += v[4 * i + k] != want[k];
   }
   EXPECT(bad == 0, "read_imagef(int2) BGRA8: %d components wrong", bad);
   printf("id: load2d: %016llx\n", (unsigned long long)fnv(v, 64 * 16));
   free_image(&m);

   /* write_imagef to RGBA8: (i/63, 1 - i/63, 2.0, -1.0) -> round(x * 255) clamped. */
   m = make_image(rgba8, G(2D), 13, 6, 0, false);
   for (int i = 0; i < 64; i++) {
      v[4 * i] = (float)i / 63.0f;
      v[4 * i + 1] = 1.0f - (float)i / 63.0f;
      v[4 * i + 2] = 2.0f;
      v[4 * i + 3] = -1.0f;
   }
   struct {
      uint64_t img;
      const int32_t *c;
      const void *v;
      int n;
   } sa = {m.h.handle, c, v, 64};
   run("store2d.kd", &sa, sizeof(sa), 64);
   uint8_t *e = halloc(13 * 6 * 8);
   hsa_ext_image_region_t all = {{0, 0, 0}, {13, 6, 1}};
   CHECK_HSA(X.hsa_ext_image_export(gpu, m.h, e, 13 * 4, 0, &all));
   bad = 0;
   for (int i = 0; i < 64; i++) {
      const uint8_t *p = e + (size_t)((i / 13) * 13 + i % 13) * 4;
      bad += p[0] != (uint8_t)lrintf((float)i / 63.0f * 255.0f);
      bad += p[1] != (uint8_t)lrintf((1.0f - (float)i / 63.0f) * 255.0f);
      bad += p[2] != 255 || p[3] != 0;
   }
   EXPECT(bad == 0, "write_imagef RGBA8: %d bytes wrong", bad);
   printf("id: store2d: %016llx\n", (unsigned long long)fnv(e, 13 * 6 * 4));
   free_image(&m);

   /* write_imagei to RGBA SINT16: saturation to [-32768, 32767]. */
   static const fmt s16 = {"rgba16i", O(RGBA), T(SIGNED_INT16), 8, true};
   m = make_image(&s16, G(2D), 13, 6, 0, false);
   int32_t *iv = (int32_t *)v;
   for (int i = 0; i < 64; i++) {
      iv[4 * i] = i * 1000 - 20000;
      iv[4 * i + 1] = -i;
      iv[4 * i + 2] = 70000;
      iv[4 * i + 3] = -70000;
   }
   sa.img = m.h.handle;
   run("store2di.kd", &sa, sizeof(sa), 64);
   CHECK_HSA(X.hsa_ext_image_export(gpu, m.h, e, 13 * 8, 0, &all));
   bad = 0;
   for (int i = 0; i < 64; i++) {
      int16_t p[4];
      memcpy(p, e + (size_t)((i / 13) * 13 + i % 13) * 8, 8);
      int want0 = i * 1000 - 20000;
      want0 = want0 > 32767 ? 32767 : want0;
      bad += p[0] != want0 || p[1] != -i || p[2] != 32767 || p[3] != -32768;
   }
   EXPECT(bad == 0, "write_imagei RGBA16I: %d texels wrong", bad);
   printf("id: store2di: %016llx\n", (unsigned long long)fnv(e, 13 * 6 * 8));
   free_image(&m);
   CHECK_HSA(hsa_amd_memory_pool_free(c));
   CHECK_HSA(hsa_amd_memory_pool_free(v));
   CHECK_HSA(hsa_amd_memory_pool_free(e));
}

/* 1D buffer images: read_imagef / write_imagef through buffer_*_format. */
static void
buffer_images(void)
{
   const fmt *bgra8 = &formats[1];
   img m = make_image(bgra8, G(1DB), 100, 0, 0, true);
   float *v = halloc(128 * 16);
   struct {
      uint64_t img;
      float *o;
      int n;
   } la = {m.h.handle, v, 100};
   run("load1db.kd", &la, sizeof(la), 100);
   int bad = 0;
   for (int i = 0; i < 100; i++) {
      float want[4];
      decode(bgra8, m.texels + 4 * i, want);
      for (int k = 0; k < 4; k++)
         bad += v[4 * i + k] != want[k];
   }
   EXPECT(bad == 0, "read_imagef 1D buffer: %d components wrong", bad);
   printf("id: load1db: %016llx\n", (unsigned long long)fnv(v, 100 * 16));
   for (int i = 0; i < 100; i++) {
      v[4 * i] = (float)i / 99.0f;
      v[4 * i + 1] = 0.5f;
      v[4 * i + 2] = 0.25f;
      v[4 * i + 3] = 1.0f;
   }
   run("store1db.kd", &la, sizeof(la), 100);
   uint8_t *e = halloc(400);
   hsa_ext_image_region_t all = {{0, 0, 0}, {100, 1, 1}};
   CHECK_HSA(X.hsa_ext_image_export(gpu, m.h, e, 400, 0, &all));
   bad = 0;
   for (int i = 0; i < 100; i++) /* BGRA: b, g, r, a */
      bad += e[4 * i] != 64 || e[4 * i + 1] != 128 ||
             e[4 * i + 2] != (uint8_t)lrintf((float)i / 99.0f * 255.0f) || e[4 * i + 3] != 255;
   EXPECT(bad == 0, "write_imagef 1D buffer: %d texels wrong", bad);
   printf("id: store1db: %016llx\n", (unsigned long long)fnv(e, 400));
   free_image(&m);
   CHECK_HSA(hsa_amd_memory_pool_free(v));
   CHECK_HSA(hsa_amd_memory_pool_free(e));
}

/* Depth images (cl_khr_depth_images): read_imagef on 2DDEPTH FLOAT and 2DADEPTH UNORM16
 * (nearest and linear, clamp to edge, unnormalised), write_imagef on 2DDEPTH FLOAT. */
static void
depth_images(void)
{
   static const fmt df = {"depth32f", O(DEPTH), T(FLOAT), 4, true};
   static const fmt d16 = {"depth16", O(DEPTH), T(UNORM_INT16), 2, true};
   float *coords = halloc(NC * 16);
   float *out = halloc(NC * 4);
   for (unsigned filter = 0; filter < 2; filter++) {
      hsa_ext_sampler_t s = make_sampler(A(CLAMP_TO_EDGE), filter, false);
      img m = make_image(&df, G(2DDEPTH), 9, 4, 0, true);
      for (unsigned i = 0; i < NC; i++) {
         coords[2 * i] = (float)(rnd32() % 1100) / 100.0f - 1.0f;
         coords[2 * i + 1] = (float)(rnd32() % 600) / 100.0f - 1.0f;
      }
      struct {
         uint64_t img, smp;
         const float *c;
         float *o;
         int n;
      } args = {m.h.handle, s.handle, coords, out, NC};
      run("sampledepth.kd", &args, sizeof(args), NC);
      int bad = 0;
      for (unsigned i = 0; i < NC; i++) {
         float want[4], tol;
         model_2d(&m, A(CLAMP_TO_EDGE), filter, false, coords[2 * i], coords[2 * i + 1], want,
                  &tol);
         bad += !(fabsf(out[i] - want[0]) <= tol);
      }
      EXPECT(bad == 0, "depth 2D filter %u: %d results wrong", filter, bad);
      printf("id: sampledepth filter %u: %016llx\n", filter,
             (unsigned long long)fnv(out, NC * 4));
      free_image(&m);

      m = make_image(&d16, G(2DADEPTH), 6, 3, 2, true);
      for (unsigned i = 0; i < NC; i++) {
         coords[4 * i] = (float)(rnd32() % 800) / 100.0f - 1.0f;
         coords[4 * i + 1] = (float)(rnd32() % 500) / 100.0f - 1.0f;
         coords[4 * i + 2] = (float)((int)(rnd32() % 4) - 1) + 0.25f;
         coords[4 * i + 3] = 0;
      }
      args.img = m.h.handle;
      run("sampledeptha.kd", &args, sizeof(args), NC);
      bad = 0;
      for (unsigned i = 0; i < NC; i++) {
         int layer = (int)rintf(coords[4 * i + 2]);
         layer = layer < 0 ? 0 : layer > 1 ? 1 : layer;
         img view = m;
         view.d = 1;
         view.texels = m.texels + (size_t)layer * 6 * 3 * 2;
         float want[4], tol;
         model_2d(&view, A(CLAMP_TO_EDGE), filter, false, coords[4 * i], coords[4 * i + 1],
                  want, &tol);
         bad += !(fabsf(out[i] - want[0]) <= tol);
      }
      EXPECT(bad == 0, "depth 2D array filter %u: %d results wrong", filter, bad);
      printf("id: sampledeptha filter %u: %016llx\n", filter,
             (unsigned long long)fnv(out, NC * 4));
      free_image(&m);
      CHECK_HSA(X.hsa_ext_sampler_destroy(gpu, s));
   }
   img m = make_image(&df, G(2DDEPTH), 9, 4, 0, false);
   int32_t *c = (int32_t *)coords;
   for (int i = 0; i < 36; i++) {
      c[2 * i] = i % 9;
      c[2 * i + 1] = i / 9;
      out[i] = (float)i * 0.125f - 1.0f;
   }
   struct {
      uint64_t img;
      const int32_t *c;
      const float *v;
      int n;
   } sa = {m.h.handle, c, out, 36};
   run("storedepth.kd", &sa, sizeof(sa), 36);
   float *e = halloc(36 * 4);
   hsa_ext_image_region_t all = {{0, 0, 0}, {9, 4, 1}};
   CHECK_HSA(X.hsa_ext_image_export(gpu, m.h, e, 9 * 4, 0, &all));
   int bad = 0;
   for (int i = 0; i < 36; i++)
      bad += e[i] != (float)i * 0.125f - 1.0f;
   EXPECT(bad == 0, "write_imagef depth: %d texels wrong", bad);
   printf("id: storedepth: %016llx\n", (unsigned long long)fnv(e, 36 * 4));
   free_image(&m);
   CHECK_HSA(hsa_amd_memory_pool_free(coords));
   CHECK_HSA(hsa_amd_memory_pool_free(out));
   CHECK_HSA(hsa_amd_memory_pool_free(e));
}

static void
queries(void)
{
   static const fmt r32f = {"r32f", O(R), T(FLOAT), 4, false};
   img a = make_image(&formats[0], G(2D), 37, 11, 0, false);
   img b = make_image(&r32f, G(3D), 9, 7, 5, false);
   img c = make_image(&r32f, G(2DA), 8, 3, 6, false);
   img d = make_image(&formats[1], G(1DB), 300, 0, 0, false);
   int32_t *o = halloc(64);
   struct {
      uint64_t a, b, c, d;
      int32_t *o;
   } args = {a.h.handle, b.h.handle, c.h.handle, d.h.handle, o};
   run("query.kd", &args, sizeof(args), 1);
   /* CLK_RGBA 0x10B5, CLK_UNORM_INT8 0x10D2, CLK_BGRA 0x10B6 */
   static const int32_t want[11] = {37, 11, 0x10B5, 0x10D2, 9, 7, 5, 6, 300, 0x10B6, 0x10D2};
   int bad = 0;
   for (int i = 0; i < 11; i++)
      bad += o[i] != want[i];
   EXPECT(bad == 0, "image queries: %d wrong (%d %d %x %x %d %d %d %d %d %x %x)", bad, o[0],
          o[1], o[2], o[3], o[4], o[5], o[6], o[7], o[8], o[9], o[10]);
   printf("id: queries: %d %d %x %x %d %d %d %d %d %x %x\n", o[0], o[1], o[2], o[3], o[4], o[5],
          o[6], o[7], o[8], o[9], o[10]);
   free_image(&a);
   free_image(&b);
   free_image(&c);
   free_image(&d);
   CHECK_HSA(hsa_amd_memory_pool_free(o));
}

/* A garbage descriptor faults the dispatch and the process lives on: `desc` (12 dwords) as
 * the image of load2d on a fresh queue; the queue's error callback must report `want`. */
static void
garbage(const char *what, const uint32_t desc[12], hsa_status_t want)
{
   uint32_t *t = kfd_test_alloc(&env, env.kernarg_pool, 64);
   memcpy(t, desc, 48);
   int32_t *c = halloc(64 * 8);
   float *o = halloc(64 * 16);
   for (int i = 0; i < 64; i++)
      c[2 * i] = i, c[2 * i + 1] = 0;
   hsa_queue_t *q;
   CHECK_HSA(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, queue_error, NULL, UINT32_MAX,
                              UINT32_MAX, &q));
   struct {
      uint64_t img;
      const int32_t *c;
      float *o;
      int n;
   } args = {(uint64_t)(uintptr_t)t, c, o, 64};
   void *ka = kfd_test_alloc(&env, env.kernarg_pool, 4096);
   memset(ka, 0, 4096);
   memcpy(ka, &args, sizeof(args));
   kfd_test_kernel k = kfd_test_find_kernel(exe, gpu, "load2d.kd");
   hsa_signal_t done;
   CHECK_HSA(hsa_signal_create(1, 0, NULL, &done));
   atomic_store(&errors_seen, 0);
   kfd_test_dispatch(q, &k, ka, 64, 64, done);
   for (int i = 0; i < 5000 && atomic_load(&errors_seen) == 0; i++)
      usleep(1000);
   hsa_status_t got = atomic_load(&errors_seen) ? atomic_load(&last_error) : HSA_STATUS_SUCCESS;
   EXPECT(got == want, "garbage %s: queue error 0x%x, want 0x%x", what, got, want);
   printf("id: garbage %s: queue error 0x%x\n", what, got);
   CHECK_HSA(hsa_queue_destroy(q));
   CHECK_HSA(hsa_signal_destroy(done));
   CHECK_HSA(hsa_amd_memory_pool_free(ka));
   CHECK_HSA(hsa_amd_memory_pool_free(t));
   CHECK_HSA(hsa_amd_memory_pool_free(c));
   CHECK_HSA(hsa_amd_memory_pool_free(o));
}

static void
garbage_descriptors(void)
{
   uint32_t d[12];
   memset(d, 0xFF, sizeof(d)); /* TYPE 15 (2D MSAA array), SW_MODE 31 */
   garbage("all-ones T#", d, (hsa_status_t)HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION);
   memset(d, 0, sizeof(d)); /* a buffer resource with DATA_FORMAT 0 (invalid) */
   garbage("all-zero T#", d, (hsa_status_t)HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION);
   /* A well-formed 64x1 RGBA8 linear 2D T# whose memory is not mapped (base 1 TiB). */
   memset(d, 0, sizeof(d));
   d[0] = (uint32_t)((1ull << 40) >> 8);
   d[1] = (uint32_t)((1ull << 40) >> 40) | 10u << 20;
   d[2] = 63;
   d[3] = 4 | 5 << 3 | 6 << 6 | 7 << 9 | 9u << 28;
   d[4] = 63u << 13;
   garbage("unmapped T#", d, (hsa_status_t)HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION);
   atomic_store(&faults_seen, 0);
}

int
main(int argc, char **argv)
{
   CHECK(argc == 2);
   setvbuf(stdout, NULL, _IOLBF, 0);
   CHECK_HSA(hsa_init());
   kfd_test_env_init(&env);
   gpu = env.gpus[0];
   CHECK_HSA(hsa_amd_register_system_event_handler(system_event, NULL));
   CHECK_HSA(hsa_system_get_major_extension_table(HSA_EXTENSION_IMAGES, 1, sizeof(X), &X));
   exe = kfd_test_load(gpu, argv[1]);
   CHECK_HSA(hsa_queue_create(gpu, 128, HSA_QUEUE_TYPE_MULTI, queue_error, NULL, UINT32_MAX,
                              UINT32_MAX, &queue));
   sampling_2d();
   sampling_3d_arrays();
   load_store();
   buffer_images();
   depth_images();
   queries();
   garbage_descriptors();
   CHECK_HSA(hsa_queue_destroy(queue));
   CHECK_HSA(hsa_executable_destroy(exe));
   CHECK_HSA(hsa_shut_down());
   if (failures) {
      fprintf(stderr, "kfd_test_image_kernel: %d failures\n", failures);
      return 1;
   }
   printf("kfd_test_image_kernel: passed\n");
   return 0;
}
