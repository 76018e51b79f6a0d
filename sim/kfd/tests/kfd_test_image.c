/*
 * kfd_test_image — the HSA image extension, on both runtimes: linked against Debian's ROCr,
 * run on ROCr over the software KFD (ROCr's own image extension, its blit kernels running on
 * the software GPU) and on the software HSA runtime (sim/sim_image.c). Through the table
 * hsa_system_get_major_extension_table(HSA_EXTENSION_IMAGES, 1) hands out, as a driver does:
 *   - the image agent infos (size limits, handle counts);
 *   - hsa_ext_image_get_capability(_with_layout) for every geometry x channel order x type;
 *   - hsa_ext_image_data_get_info_with_layout (linear) for a spread of descriptors and row
 *     and slice pitches, including the ones the address library refuses;
 *   - the 48 descriptor bytes of images of every geometry, a spread of formats and sizes, read
 *     only and read-write (the data address checked, then masked: it differs between runs);
 *   - the S# of every addressing mode x filter x coordinate mode;
 *   - import / export / copy / clear round trips checked against a host model, and their
 *     exported bytes printed (a digest) so both runtimes must agree on them too.
 * Lines starting with "id:" are what kfd_test_image_same.sh compares between the runtimes;
 * "info:" lines are printed for the record (what ROCr does with opaque layout).
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>
#include <hsa/hsa_ext_image.h>

#include "kfd_test_common.h"

static hsa_ext_images_1_pfn_t X;
/* On the software runtime (HSA_AMD_SYSTEM_INFO_BUILD_VERSION "hsacl-sim..."), not ROCr. */
static bool on_sim;
static kfd_test_env env;
static hsa_agent_t gpu;
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

static const char *const geo_names[] = {"1D", "2D", "3D", "1DA", "2DA", "1DB", "2DDEPTH",
                                        "2DADEPTH"};

static void *
device_alloc(size_t size)
{
   void *p = NULL;
   CHECK_HSA(hsa_amd_memory_pool_allocate(env.vram_pool, size, 0, &p));
   CHECK_HSA(hsa_amd_agents_allow_access(1, &gpu, NULL, p));
   return p;
}

static void *
host_alloc(size_t size)
{
   void *p = NULL;
   CHECK_HSA(hsa_amd_memory_pool_allocate(env.system_pool, size, 0, &p));
   CHECK_HSA(hsa_amd_agents_allow_access(1, &gpu, NULL, p));
   memset(p, 0, size);
   return p;
}

static uint64_t
fnv(const void *p, size_t n)
{
   const uint8_t *b = p;
   uint64_t h = 0xcbf29ce484222325ull;
   for (size_t i = 0; i < n; i++)
      h = (h ^ b[i]) * 0x100000001b3ull;
   return h;
}

/* ---- agent infos, capabilities, sizes ----------------------------------------------------- */

static void
agent_infos(void)
{
   for (int a = HSA_EXT_AGENT_INFO_IMAGE_1D_MAX_ELEMENTS;
        a <= HSA_EXT_AGENT_INFO_IMAGE_LINEAR_ROW_PITCH_ALIGNMENT; a++) {
      uint32_t v[3] = {0, 0, 0};
      hsa_status_t st = hsa_agent_get_info(gpu, (hsa_agent_info_t)a, v);
      printf("id: agent info 0x%x: status 0x%x %u %u %u\n", a, st, v[0], v[1], v[2]);
   }
   uint8_t ext[128];
   CHECK_HSA(hsa_agent_get_info(gpu, HSA_AGENT_INFO_EXTENSIONS, ext));
   printf("id: agent extension images %d\n", (ext[HSA_EXTENSION_IMAGES / 8] >>
                                               (HSA_EXTENSION_IMAGES % 8)) & 1);
   bool yes = false;
   uint16_t minor = 7;
   CHECK_HSA(hsa_system_major_extension_supported(HSA_EXTENSION_IMAGES, 1, &minor, &yes));
   printf("id: system images 1: %d minor %u\n", yes, minor);
   CHECK_HSA(hsa_system_extension_supported(HSA_EXTENSION_IMAGES, 1, 0, &yes));
   printf("id: system images 1.0: %d\n", yes);
}

static void
capabilities(void)
{
   for (unsigned g = 0; g < 8; g++) {
      for (unsigned o = 0; o <= HSA_EXT_IMAGE_CHANNEL_ORDER_DEPTH_STENCIL; o++) {
         printf("id: cap %s order %2u:", geo_names[g], o);
         for (unsigned t = 0; t <= HSA_EXT_IMAGE_CHANNEL_TYPE_FLOAT; t++) {
            hsa_ext_image_format_t f = {t, o};
            uint32_t cap = 0xdead, cap2 = 0xdead;
            CHECK_HSA(X.hsa_ext_image_get_capability(gpu, g, &f, &cap));
            CHECK_HSA(X.hsa_ext_image_get_capability_with_layout(
               gpu, g, &f, HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, &cap2));
            EXPECT(cap == cap2, "capability with layout differs");
            printf(" %x", cap);
         }
         printf("\n");
      }
   }
   hsa_ext_image_format_t f = {HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT8,
                               HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA};
   uint32_t cap;
   printf("id: cap opaque-layout status 0x%x\n",
          X.hsa_ext_image_get_capability_with_layout(gpu, HSA_EXT_IMAGE_GEOMETRY_2D, &f,
                                                     HSA_EXT_IMAGE_DATA_LAYOUT_OPAQUE, &cap));
}

typedef struct desc_case {
   unsigned geo, order, type;
   size_t w, h, d, layers, row_pitch, slice_pitch;
} desc_case;

static hsa_ext_image_descriptor_t
make_desc(const desc_case *c)
{
   hsa_ext_image_descriptor_t d = {c->geo, c->w, c->h, c->d, c->layers,
                                   {c->type, c->order}};
   return d;
}

#define T(x) HSA_EXT_IMAGE_CHANNEL_TYPE_##x
#define O(x) HSA_EXT_IMAGE_CHANNEL_ORDER_##x
#define G(x) HSA_EXT_IMAGE_GEOMETRY_##x

static const desc_case size_cases[] = {
   {G(1D), O(RGBA), T(UNORM_INT8), 64, 0, 0, 0, 0, 0},
   {G(1D), O(RGBA), T(UNORM_INT8), 100, 0, 0, 0, 512, 0},
   {G(1D), O(R), T(FLOAT), 1000, 1, 0, 0, 4096, 0},
   {G(1D), O(R), T(FLOAT), 1000, 2, 0, 0, 4096, 0},
   {G(2D), O(RGBA), T(UNORM_INT8), 100, 37, 0, 0, 512, 0},
   {G(2D), O(RGBA), T(UNORM_INT8), 100, 37, 0, 0, 768, 0},
   {G(2D), O(RGBA), T(FLOAT), 17, 5, 0, 0, 512, 0},
   {G(2D), O(RGBA), T(FLOAT), 16, 5, 0, 0, 0, 0},
   {G(2D), O(R), T(UNSIGNED_INT8), 256, 256, 0, 0, 0, 0},
   {G(2D), O(RGB), T(UNORM_SHORT_565), 200, 3, 0, 0, 512, 0},
   {G(2D), O(RGB), T(UNORM_SHORT_101010), 33, 3, 0, 0, 256, 0},
   {G(2D), O(SRGBA), T(UNORM_INT8), 64, 64, 0, 0, 0, 0},
   {G(2D), O(RGBA), T(HALF_FLOAT), 16384, 16384, 0, 0, 0, 0},
   {G(2D), O(RGBA), T(HALF_FLOAT), 16385, 4, 0, 0, 0, 0},
   {G(2D), O(RX), T(UNORM_INT8), 64, 4, 0, 0, 0, 0},
   {G(3D), O(RG), T(SIGNED_INT16), 64, 9, 5, 0, 0, 0},
   {G(3D), O(RG), T(SIGNED_INT16), 64, 9, 5, 0, 256, 2304},
   {G(3D), O(RG), T(SIGNED_INT16), 64, 9, 5, 0, 256, 4096},
   {G(3D), O(RG), T(SIGNED_INT16), 10, 9, 5, 0, 256, 0},
   {G(3D), O(RGBA), T(FLOAT), 2048, 2048, 8193, 0, 0, 0},
   {G(1DA), O(A), T(UNORM_INT16), 128, 0, 0, 7, 0, 0},
   {G(1DA), O(A), T(UNORM_INT16), 128, 0, 0, 7, 256, 256},
   {G(1DA), O(A), T(UNORM_INT16), 128, 0, 0, 7, 256, 512},
   {G(1DA), O(A), T(UNORM_INT16), 128, 0, 0, 8193, 0, 0},
   {G(2DA), O(LUMINANCE), T(SNORM_INT8), 300, 20, 0, 4, 512, 0},
   {G(2DA), O(LUMINANCE), T(SNORM_INT8), 256, 20, 0, 4, 0, 0},
   {G(1DB), O(RGBA), T(UNSIGNED_INT32), 1024, 0, 0, 0, 0, 0},
   {G(1DB), O(RGBA), T(UNSIGNED_INT32), 1000, 0, 0, 0, 16384, 0},
   {G(1DB), O(RGB), T(UNORM_SHORT_565), 1024, 0, 0, 0, 0, 0},
   {G(2DDEPTH), O(DEPTH), T(FLOAT), 64, 64, 0, 0, 0, 0},
   {G(2DDEPTH), O(R), T(FLOAT), 64, 64, 0, 0, 0, 0},
   {G(2DADEPTH), O(DEPTH), T(UNORM_INT16), 128, 8, 0, 3, 0, 0},
};

static void
sizes(void)
{
   for (size_t i = 0; i < sizeof(size_cases) / sizeof(size_cases[0]); i++) {
      const desc_case *c = &size_cases[i];
      hsa_ext_image_descriptor_t d = make_desc(c);
      hsa_ext_image_data_info_t info = {7, 7};
      hsa_status_t st = X.hsa_ext_image_data_get_info_with_layout(
         gpu, &d, HSA_ACCESS_PERMISSION_RW, HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, c->row_pitch,
         c->slice_pitch, &info);
      printf("id: data info %zu %s %zux%zux%zu[%zu] o%u t%u pitch %zu/%zu: status 0x%x "
             "size %zu align %zu\n",
             i, geo_names[c->geo], c->w, c->h, c->d, c->layers, c->order, c->type,
             c->row_pitch, c->slice_pitch, st, st ? 0 : info.size, st ? 0 : info.alignment);
   }
   /* Row pitches the address library refuses (not a multiple of 256 bytes' worth of
    * texels, or too small; the default pitch of a width that is not such a multiple):
    * ROCr 5.2 as Debian builds it aborts on an assertion there, the software runtime
    * answers HSA_STATUS_ERROR. Checked on the software runtime only. */
   if (on_sim) {
      static const desc_case refused[] = {
         {G(1D), O(RGBA), T(UNORM_INT8), 100, 0, 0, 0, 0, 0},
         {G(2D), O(RGBA), T(UNORM_INT8), 100, 37, 0, 0, 0, 0},
         {G(2D), O(RGBA), T(UNORM_INT8), 100, 37, 0, 0, 256, 0},
         {G(2D), O(RGBA), T(UNORM_INT8), 100, 37, 0, 0, 500, 0},
         {G(1DB), O(RGBA), T(UNSIGNED_INT32), 1000, 0, 0, 0, 0, 0},
      };
      for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
         hsa_ext_image_descriptor_t d = make_desc(&refused[i]);
         hsa_ext_image_data_info_t info;
         hsa_status_t st = X.hsa_ext_image_data_get_info_with_layout(
            gpu, &d, HSA_ACCESS_PERMISSION_RW, HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR,
            refused[i].row_pitch, 0, &info);
         EXPECT(st == HSA_STATUS_ERROR, "refused pitch case %zu: status 0x%x", i, st);
      }
   }
   hsa_ext_image_descriptor_t d = make_desc(&size_cases[4]);
   hsa_ext_image_data_info_t info;
   printf("id: data info opaque-layout status 0x%x\n",
          X.hsa_ext_image_data_get_info_with_layout(gpu, &d, HSA_ACCESS_PERMISSION_RW,
                                                    HSA_EXT_IMAGE_DATA_LAYOUT_OPAQUE, 0, 0,
                                                    &info));
   printf("id: data info bad access status 0x%x\n",
          X.hsa_ext_image_data_get_info_with_layout(gpu, &d, (hsa_access_permission_t)0,
                                                    HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, 0, 0,
                                                    &info));
   /* Opaque layout: what ROCr's address library picks is recorded, not compared. */
   hsa_status_t st = X.hsa_ext_image_data_get_info(gpu, &d, HSA_ACCESS_PERMISSION_RW, &info);
   printf("info: opaque 100x37 RGBA8: status 0x%x size %zu align %zu\n", st, info.size,
          info.alignment);
}

/* ---- descriptors --------------------------------------------------------------------------- */

static const desc_case image_cases[] = {
   {G(1D), O(RGBA), T(UNORM_INT8), 100, 0, 0, 0, 512, 0},
   {G(1D), O(R), T(FLOAT), 1, 0, 0, 0, 256, 0},
   {G(1D), O(A), T(SNORM_INT16), 300, 1, 0, 0, 1024, 0},
   {G(2D), O(RGBA), T(UNORM_INT8), 100, 37, 0, 0, 512, 0},
   {G(2D), O(BGRA), T(UNORM_INT8), 64, 8, 0, 0, 0, 0},
   {G(2D), O(ARGB), T(SIGNED_INT8), 64, 8, 0, 0, 0, 0},
   {G(2D), O(RG), T(HALF_FLOAT), 50, 3, 0, 0, 256, 0},
   {G(2D), O(RA), T(UNSIGNED_INT16), 64, 2, 0, 0, 0, 0},
   {G(2D), O(RGB), T(UNORM_SHORT_565), 128, 4, 0, 0, 0, 0},
   {G(2D), O(RGB), T(UNORM_SHORT_555), 128, 4, 0, 0, 0, 0},
   {G(2D), O(RGB), T(UNORM_SHORT_101010), 64, 4, 0, 0, 0, 0},
   {G(2D), O(INTENSITY), T(UNORM_INT16), 128, 4, 0, 0, 0, 0},
   {G(2D), O(LUMINANCE), T(FLOAT), 64, 4, 0, 0, 0, 0},
   {G(2D), O(SRGBA), T(UNORM_INT8), 64, 4, 0, 0, 0, 0},
   {G(2D), O(RGBA), T(SIGNED_INT32), 16, 16, 0, 0, 0, 0},
   {G(2D), O(DEPTH), T(UNORM_INT16), 128, 4, 0, 0, 0, 0},
   {G(2D), O(RGBA), T(FLOAT), 16384, 1, 0, 0, 0, 0},
   {G(3D), O(RG), T(SIGNED_INT16), 64, 9, 5, 0, 256, 2304},
   {G(3D), O(RGBA), T(UNORM_INT16), 32, 2, 1, 0, 0, 0},
   {G(1DA), O(A), T(UNORM_INT16), 128, 0, 0, 7, 256, 256},
   {G(1DA), O(R), T(UNSIGNED_INT32), 64, 1, 0, 1, 0, 0},
   {G(2DA), O(LUMINANCE), T(SNORM_INT8), 300, 20, 0, 4, 512, 10240},
   {G(2DA), O(RGBA), T(FLOAT), 16, 4, 0, 0, 0, 0},
   {G(1DB), O(RGBA), T(UNSIGNED_INT32), 1024, 0, 0, 0, 0, 0},
   {G(1DB), O(R), T(UNORM_INT8), 4096, 0, 0, 0, 0, 0},
   {G(1DB), O(RG), T(HALF_FLOAT), 128, 0, 0, 0, 0, 0},
   {G(1DB), O(RGBA), T(SNORM_INT16), 512, 0, 0, 0, 0, 0},
   {G(1DB), O(RGB), T(UNORM_SHORT_101010), 64, 0, 0, 0, 0, 0},
   {G(2DDEPTH), O(DEPTH), T(FLOAT), 64, 64, 0, 0, 0, 0},
   {G(2DADEPTH), O(DEPTH), T(UNORM_INT16), 128, 8, 0, 3, 0, 0},
};

static void
descriptors(void)
{
   for (size_t i = 0; i < sizeof(image_cases) / sizeof(image_cases[0]); i++) {
      const desc_case *c = &image_cases[i];
      hsa_ext_image_descriptor_t d = make_desc(c);
      for (int rw = 0; rw < 2; rw++) {
         hsa_access_permission_t acc = rw ? HSA_ACCESS_PERMISSION_RW : HSA_ACCESS_PERMISSION_RO;
         hsa_ext_image_data_info_t info;
         hsa_status_t ist = X.hsa_ext_image_data_get_info_with_layout(
            gpu, &d, acc, HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, c->row_pitch, c->slice_pitch,
            &info);
         uint8_t *data = device_alloc(ist == HSA_STATUS_SUCCESS ? info.size : 1 << 16);
         hsa_ext_image_t img = {0};
         hsa_status_t st = X.hsa_ext_image_create_with_layout(
            gpu, &d, data, acc, HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, c->row_pitch, c->slice_pitch,
            &img);
         printf("id: image %zu %s %zux%zux%zu[%zu] o%u t%u %s: status 0x%x", i,
                geo_names[c->geo], c->w, c->h, c->d, c->layers, c->order, c->type,
                rw ? "rw" : "ro", st);
         if (st == HSA_STATUS_SUCCESS) {
            uint32_t w[12];
            memcpy(w, (const void *)(uintptr_t)img.handle, sizeof(w));
            uint64_t va = (uint64_t)(uintptr_t)data;
            if (c->geo == G(1DB)) {
               uint64_t got = w[0] | (uint64_t)(w[1] & 0xFFFF) << 32;
               EXPECT(got == va, "image %zu: V# base %llx, data at %llx", i,
                      (unsigned long long)got, (unsigned long long)va);
               w[0] = 0xAAAAAAAA;
               w[1] = (w[1] & ~0xFFFFu) | 0xAAAA;
            } else {
               uint64_t got = (uint64_t)w[0] << 8 | (uint64_t)(w[1] & 0xFF) << 40;
               EXPECT(got == va, "image %zu: T# base %llx, data at %llx", i,
                      (unsigned long long)got, (unsigned long long)va);
               w[0] = 0xAAAAAAAA;
               w[1] = (w[1] & ~0xFFu) | 0xAA;
            }
            EXPECT(img.handle % 16 == 0, "image handle not 16-byte aligned");
            for (int k = 0; k < 12; k++)
               printf(" %08x", w[k]);
            CHECK_HSA(X.hsa_ext_image_destroy(gpu, img));
         }
         printf("\n");
         CHECK_HSA(hsa_amd_memory_pool_free(data));
      }
   }
   /* Misaligned data. */
   hsa_ext_image_descriptor_t d = make_desc(&image_cases[3]);
   uint8_t *data = device_alloc(1 << 16);
   hsa_ext_image_t img;
   printf("id: image misaligned status 0x%x\n",
          X.hsa_ext_image_create_with_layout(gpu, &d, data + 64, HSA_ACCESS_PERMISSION_RW,
                                             HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, 512, 0, &img));
   /* Opaque layout: recorded, not compared. */
   if (X.hsa_ext_image_create(gpu, &d, data, HSA_ACCESS_PERMISSION_RW, &img) ==
       HSA_STATUS_SUCCESS) {
      const uint32_t *w = (const uint32_t *)(uintptr_t)img.handle;
      printf("info: opaque 100x37 RGBA8: SW_MODE %u, pitch %u\n", (w[3] >> 20) & 0x1F,
             ((w[4] >> 13) & 0xFFFF) + 1);
      CHECK_HSA(X.hsa_ext_image_destroy(gpu, img));
   }
   CHECK_HSA(hsa_amd_memory_pool_free(data));
}

static void
samplers(void)
{
   static const hsa_ext_sampler_addressing_mode_t modes[] = {
      HSA_EXT_SAMPLER_ADDRESSING_MODE_UNDEFINED, HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_EDGE,
      HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_BORDER, HSA_EXT_SAMPLER_ADDRESSING_MODE_REPEAT,
      HSA_EXT_SAMPLER_ADDRESSING_MODE_MIRRORED_REPEAT};
   for (unsigned m = 0; m < 5; m++) {
      for (unsigned f = 0; f < 2; f++) {
         for (unsigned n = 0; n < 2; n++) {
            hsa_ext_sampler_descriptor_t d = {n, f, modes[m]};
            hsa_ext_sampler_t s;
            CHECK_HSA(X.hsa_ext_sampler_create(gpu, &d, &s));
            EXPECT(s.handle % 16 == 0, "sampler handle not 16-byte aligned");
            const uint32_t *w = (const uint32_t *)(uintptr_t)s.handle;
            printf("id: sampler addr %u filter %u coord %u:", modes[m], f, n);
            for (int k = 0; k < 4; k++)
               printf(" %08x", w[k]);
            printf("\n");
            CHECK_HSA(X.hsa_ext_sampler_destroy(gpu, s));
         }
      }
   }
   hsa_ext_sampler_descriptor_t bad = {0, 7, 0};
   hsa_ext_sampler_t s;
   /* ROCr 5.2 returns success with an all-zero S# here; the software runtime refuses it. */
   printf("info: sampler bad filter status 0x%x\n", X.hsa_ext_sampler_create(gpu, &bad, &s));
}

/* ---- round trips --------------------------------------------------------------------------- */

typedef struct rt_image {
   desc_case c;
   hsa_ext_image_descriptor_t d;
   hsa_ext_image_t img;
   uint8_t *data;
   unsigned bytes;   /* element size */
   size_t w, h, n;   /* texels per row, rows, slices (layers or depth) in the region model */
} rt_image;

static unsigned
elem_bytes(const desc_case *c)
{
   static const uint8_t type_bytes[] = {1, 2, 1, 2, 0, 2, 2, 4, 1, 2, 4, 1, 2, 4, 2, 4};
   unsigned nch = 1;
   switch (c->order) {
   case O(RG): case O(RA): nch = 2; break;
   case O(RGBA): case O(BGRA): case O(ARGB): case O(SRGBA): nch = 4; break;
   case O(RGB): nch = 1; break; /* packed */
   default: break;
   }
   return type_bytes[c->type] * nch;
}

static void
rt_create(rt_image *r, const desc_case *c)
{
   r->c = *c;
   r->d = make_desc(c);
   r->bytes = elem_bytes(c);
   /* Linear images need a row pitch of a multiple of 256 bytes (ROCr aborts otherwise). */
   if (!r->c.row_pitch)
      r->c.row_pitch = (c->w * r->bytes + 255) / 256 * 256;
   c = &r->c;
   hsa_ext_image_data_info_t info;
   CHECK_HSA(X.hsa_ext_image_data_get_info_with_layout(gpu, &r->d, HSA_ACCESS_PERMISSION_RW,
                                                       HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR,
                                                       c->row_pitch, c->slice_pitch, &info));
   r->data = device_alloc(info.size);
   CHECK_HSA(X.hsa_ext_image_create_with_layout(gpu, &r->d, r->data, HSA_ACCESS_PERMISSION_RW,
                                                HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR,
                                                c->row_pitch, c->slice_pitch, &r->img));
   r->w = c->w;
   r->h = c->geo == G(1DA) ? (c->layers ? c->layers : 1) : (c->h ? c->h : 1);
   r->n = c->geo == G(3D) ? c->d : (c->geo == G(2DA) || c->geo == G(2DADEPTH)) ? c->layers : 1;
   if (c->geo == G(1D) || c->geo == G(1DB))
      r->h = 1;
}

static void
rt_destroy(rt_image *r)
{
   CHECK_HSA(X.hsa_ext_image_destroy(gpu, r->img));
   CHECK_HSA(hsa_amd_memory_pool_free(r->data));
}

/* Exports the whole image into a tight host buffer. */
static uint8_t *
rt_export(rt_image *r)
{
   size_t n = r->w * r->h * r->n * r->bytes;
   uint8_t *b = host_alloc(n);
   hsa_ext_image_region_t reg = {{0, 0, 0}, {(uint32_t)r->w, (uint32_t)r->h, (uint32_t)r->n}};
   CHECK_HSA(X.hsa_ext_image_export(gpu, r->img, b, r->w * r->bytes, r->w * r->h * r->bytes,
                                    &reg));
   return b;
}

static uint32_t rng = 12345;
static uint8_t
rnd(void)
{
   rng = rng * 1103515245u + 12345u;
   return (uint8_t)(rng >> 16);
}

/* Import of random bytes with padded pitches, export back: the bytes come back, and an
 * export of a sub-region reads what the model says. Then a copy of a region into a second
 * image and a clear of a region, each checked on the exported bytes. */
static void
round_trip(const desc_case *c, const uint32_t pattern[4], const uint8_t *cleared, int idx)
{
   rt_image a, b;
   rt_create(&a, c);
   rt_create(&b, c);
   size_t eb = a.bytes, rowp = a.w * eb + 3 * eb, slicep = rowp * a.h + 5 * eb;
   size_t total = slicep * a.n;
   uint8_t *src = host_alloc(total);
   for (size_t i = 0; i < total; i++)
      src[i] = rnd();
   hsa_ext_image_region_t all = {{0, 0, 0}, {(uint32_t)a.w, (uint32_t)a.h, (uint32_t)a.n}};
   if (c->geo == G(1DB)) {
      rowp = a.w * eb; /* 1D buffers import one tight row */
      slicep = rowp;
   }
   CHECK_HSA(X.hsa_ext_image_import(gpu, src, rowp, slicep, a.img, &all));
   uint8_t *out = rt_export(&a);
   size_t bad = 0;
   for (size_t z = 0; z < a.n; z++)
      for (size_t y = 0; y < a.h; y++)
         if (memcmp(out + (z * a.h + y) * a.w * eb, src + z * slicep + y * rowp, a.w * eb))
            bad++;
   EXPECT(bad == 0, "round trip %d: %zu rows differ after import/export", idx, bad);
   printf("id: rt %d import/export %016llx\n", idx,
          (unsigned long long)fnv(out, a.w * a.h * a.n * eb));

   /* Copy a region of a into b at an offset; b was imported as zeros first. ROCr 5.2's
    * kernels for copies involving 1D buffer images (copy_image_1db*, _reg_to_1db) take
    * their origins from other offsets than ROCr writes them to (its argument block is
    * laid out for copy_image_default): checked on the software runtime only. */
   uint8_t *zero = host_alloc(a.w * a.h * a.n * eb);
   CHECK_HSA(X.hsa_ext_image_import(gpu, zero, a.w * eb, a.w * a.h * eb, b.img, &all));
   bool same_copy = c->geo != G(1DB), check_copy = on_sim || same_copy;
   hsa_dim3_t so = {1, a.h > 1 ? 1 : 0, a.n > 1 ? 1 : 0};
   hsa_dim3_t dof = {2, 0, 0};
   hsa_dim3_t range = {(uint32_t)(a.w - 3), (uint32_t)(a.h > 1 ? a.h - 1 : 1),
                       (uint32_t)(a.n > 1 ? a.n - 1 : 1)};
   CHECK_HSA(X.hsa_ext_image_copy(gpu, a.img, &so, b.img, &dof, &range));
   uint8_t *cb = rt_export(&b);
   bad = 0;
   for (size_t z = 0; z < a.n && check_copy; z++)
      for (size_t y = 0; y < a.h; y++)
         for (size_t x = 0; x < a.w; x++) {
            const uint8_t *want = zero;
            bool in = x >= dof.x && x < dof.x + range.x && y >= dof.y && y < dof.y + range.y &&
                      z >= dof.z && z < dof.z + range.z;
            if (in)
               want = out + (((z - dof.z + so.z) * a.h + (y - dof.y + so.y)) * a.w +
                             (x - dof.x + so.x)) * eb;
            if (memcmp(cb + ((z * a.h + y) * a.w + x) * eb, want, eb)) {
               if (!bad++)
                  fprintf(stderr, "rt %d: copy texel (%zu,%zu,%zu): got %02x.. want %02x..\n",
                          idx, x, y, z, cb[((z * a.h + y) * a.w + x) * eb], want[0]);
            }
         }
   EXPECT(bad == 0, "round trip %d: %zu texels wrong after copy", idx, bad);
   printf("%s: rt %d copy %016llx\n", same_copy ? "id" : "info", idx,
          (unsigned long long)fnv(cb, a.w * a.h * a.n * eb));

   /* Clear a region of a: inside it every texel is `cleared`, outside unchanged. ROCr 5.2's
    * clear kernel writes nothing to depth images (it selects the image argument by
    * geometry and has no case for 2DDEPTH / 2DADEPTH): checked on the software runtime
    * only. */
   bool same_clear = c->geo != G(2DDEPTH) && c->geo != G(2DADEPTH);
   bool check_clear = on_sim || same_clear;
   hsa_ext_image_region_t reg = {{1, 0, 0}, {(uint32_t)(a.w - 2), (uint32_t)a.h,
                                             (uint32_t)a.n}};
   CHECK_HSA(X.hsa_ext_image_clear(gpu, a.img, pattern, &reg));
   uint8_t *clr = rt_export(&a);
   bad = 0;
   for (size_t z = 0; z < a.n && check_clear; z++)
      for (size_t y = 0; y < a.h; y++)
         for (size_t x = 0; x < a.w; x++) {
            size_t o = ((z * a.h + y) * a.w + x) * eb;
            const uint8_t *want = x >= 1 && x < a.w - 1 ? cleared : out + o;
            if (memcmp(clr + o, want, eb))
               bad++;
         }
   EXPECT(bad == 0, "round trip %d (%s o%u t%u): %zu texels wrong after clear "
          "(got %02x %02x %02x %02x)", idx, geo_names[c->geo], c->order, c->type, bad,
          clr[eb], clr[eb + 1 < eb * a.w ? eb + 1 : 0], clr[eb > 2 ? eb + 2 : 0],
          clr[eb > 3 ? eb + 3 : 0]);
   printf("%s: rt %d clear %016llx\n", same_clear ? "id" : "info", idx,
          (unsigned long long)fnv(clr, a.w * a.h * a.n * eb));

   /* Export of a sub-region with padded pitches, origin inside. */
   if (c->geo != G(1DB)) {
      hsa_ext_image_region_t sub = {{1, a.h > 2 ? 1 : 0, 0}, {(uint32_t)(a.w - 1), 1, 1}};
      uint8_t *sb = host_alloc((a.w + 8) * eb);
      memset(sb, 0x5A, (a.w + 8) * eb);
      CHECK_HSA(X.hsa_ext_image_export(gpu, a.img, sb, (a.w + 8) * eb, 0, &sub));
      size_t o = ((size_t)sub.offset.y * a.w + 1) * eb;
      EXPECT(!check_clear || !memcmp(sb, clr + o, (a.w - 1) * eb),
             "round trip %d: sub-region export", idx);
      EXPECT(sb[(a.w - 1) * eb] == 0x5A, "round trip %d: export wrote past the region", idx);
      CHECK_HSA(hsa_amd_memory_pool_free(sb));
   }
   CHECK_HSA(hsa_amd_memory_pool_free(src));
   CHECK_HSA(hsa_amd_memory_pool_free(zero));
   CHECK_HSA(hsa_amd_memory_pool_free(out));
   CHECK_HSA(hsa_amd_memory_pool_free(cb));
   CHECK_HSA(hsa_amd_memory_pool_free(clr));
   rt_destroy(&a);
   rt_destroy(&b);
}

static uint32_t
fbits(float f)
{
   uint32_t u;
   memcpy(&u, &f, 4);
   return u;
}

typedef struct rt_case {
   desc_case c;
   uint32_t pattern[4];
   uint8_t cleared[16]; /* the texel the clear must write, by hand from the format rules */
} rt_case;

static void
round_trips(void)
{
   /* Clear colours: RGBA (0.25, 0.5, 0.75, 1.0) for float formats. */
   uint32_t fcol[4] = {fbits(0.25f), fbits(0.5f), fbits(0.75f), fbits(1.0f)};
   rt_case cases[] = {
      /* UNORM8: round(0.25*255)=64, 128 (127.5 -> even 128), 191 (191.25), 255 */
      {{G(2D), O(RGBA), T(UNORM_INT8), 40, 7, 0, 0, 256, 0}, {0}, {64, 128, 191, 255}},
      /* BGRA: memory order b, g, r, a */
      {{G(2D), O(BGRA), T(UNORM_INT8), 70, 3, 0, 0, 0, 0}, {0}, {191, 128, 64, 255}},
      /* ARGB: a, r, g, b */
      {{G(1D), O(ARGB), T(UNORM_INT8), 70, 0, 0, 0, 0, 0}, {0}, {255, 64, 128, 191}},
      /* R FLOAT: 0.25 */
      {{G(3D), O(R), T(FLOAT), 9, 4, 3, 0, 0, 0}, {0}, {0x00, 0x00, 0x80, 0x3e}},
      /* A UNORM16: alpha 1.0 -> 0xffff */
      {{G(1DA), O(A), T(UNORM_INT16), 33, 0, 0, 3, 0, 0}, {0}, {0xff, 0xff}},
      /* RG HALF: 0.25 = 0x3400, 0.5 = 0x3800 */
      {{G(2DA), O(RG), T(HALF_FLOAT), 12, 3, 0, 2, 0, 0}, {0}, {0x00, 0x34, 0x00, 0x38}},
      /* 565 RGB: r = round(0.25*31) = 8, g = round(0.5*63) = 32 (31.5 -> even),
       * b = round(0.75*31) = 23: b | g << 5 | r << 11 = 0x4417 */
      {{G(2D), O(RGB), T(UNORM_SHORT_565), 20, 2, 0, 0, 0, 0}, {0}, {0x17, 0x44}},
      /* 101010 RGB: r = 256 (255.75), g = 512 (511.5 -> even), b = 767 (767.25), alpha
       * bits 0: b | g << 10 | r << 20 = 0x100802ff */
      {{G(2D), O(RGB), T(UNORM_SHORT_101010), 20, 2, 0, 0, 0, 0}, {0}, {0xff, 0x02, 0x08, 0x10}},
      /* sRGBA: s(0.25) = 0.5371 -> 137, s(0.5) = 0.7354 -> 188, s(0.75) = 0.8808 -> 225 */
      {{G(2D), O(SRGBA), T(UNORM_INT8), 20, 2, 0, 0, 0, 0}, {0}, {137, 188, 225, 255}},
      /* 1D buffer, RGBA UNORM8 */
      {{G(1DB), O(RGBA), T(UNORM_INT8), 300, 0, 0, 0, 0, 0}, {0}, {64, 128, 191, 255}},
      /* SNORM8 R: round(0.25*127) = 32 (31.75) */
      {{G(2D), O(R), T(SNORM_INT8), 70, 2, 0, 0, 0, 0}, {0}, {32}},
      /* LUMINANCE UNORM8: the first component */
      {{G(2D), O(LUMINANCE), T(UNORM_INT8), 70, 2, 0, 0, 0, 0}, {0}, {64}},
      /* DEPTH FLOAT on 2DDEPTH */
      {{G(2DDEPTH), O(DEPTH), T(FLOAT), 16, 4, 0, 0, 0, 0}, {0}, {0x00, 0x00, 0x80, 0x3e}},
   };
   for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
      memcpy(cases[i].pattern, fcol, sizeof(fcol));
      round_trip(&cases[i].c, cases[i].pattern, cases[i].cleared, (int)i);
   }
   /* Integer clears: saturation to the channel. */
   int32_t icol[4] = {-200, 100, 40000, -5};
   rt_case ic[] = {
      /* SINT8 RGBA: -128, 100, 127, -5 */
      {{G(2D), O(RGBA), T(SIGNED_INT8), 20, 2, 0, 0, 0, 0}, {0}, {0x80, 100, 0x7f, 0xfb}},
      /* SINT16 RG: -200, 100 */
      {{G(3D), O(RG), T(SIGNED_INT16), 8, 2, 2, 0, 0, 0}, {0}, {0x38, 0xff, 100, 0}},
      /* UINT16 R: -200 as unsigned saturates to 65535 */
      {{G(1D), O(R), T(UNSIGNED_INT16), 40, 0, 0, 0, 0, 0}, {0}, {0xff, 0xff}},
      /* UINT32 RGBA 1D buffer: bits as given */
      {{G(1DB), O(RGBA), T(UNSIGNED_INT32), 40, 0, 0, 0, 0, 0}, {0},
       {0x38, 0xff, 0xff, 0xff, 100, 0, 0, 0, 0x40, 0x9c, 0, 0, 0xfb, 0xff, 0xff, 0xff}},
   };
   for (size_t i = 0; i < sizeof(ic) / sizeof(ic[0]); i++) {
      memcpy(ic[i].pattern, icol, sizeof(icol));
      round_trip(&ic[i].c, ic[i].pattern, ic[i].cleared, (int)(100 + i));
   }
}

/* RGBA <-> sRGBA copies: every 8-bit value through the sRGB curve, both ways. ROCr 5.2's
 * kernels for these (copy_image_linear_to_standard, _standard_to_linear) read their origins
 * from other argument offsets than ROCr writes them to, so its results land shifted: the
 * curve is checked on the software runtime only; copies between other formats are refused
 * on both. */
static void
srgb_copies(void)
{
   desc_case lin = {G(2D), O(RGBA), T(UNORM_INT8), 64, 4, 0, 0, 0, 0};
   desc_case srgb = {G(2D), O(SRGBA), T(UNORM_INT8), 64, 4, 0, 0, 0, 0};
   rt_image a, s, b;
   rt_create(&a, &lin);
   rt_create(&s, &srgb);
   rt_create(&b, &lin);
   uint8_t *src = host_alloc(64 * 4 * 4);
   for (int i = 0; i < 256; i++) { /* every value in R, G and B */
      src[i * 4] = src[i * 4 + 1] = src[i * 4 + 2] = (uint8_t)i;
      src[i * 4 + 3] = (uint8_t)(255 - i);
   }
   hsa_ext_image_region_t all = {{0, 0, 0}, {64, 4, 1}};
   CHECK_HSA(X.hsa_ext_image_import(gpu, src, 256, 1024, a.img, &all));
   hsa_dim3_t o = {0, 0, 0}, r = {64, 4, 1};
   CHECK_HSA(X.hsa_ext_image_copy(gpu, a.img, &o, s.img, &o, &r));
   uint8_t *enc = rt_export(&s);
   CHECK_HSA(X.hsa_ext_image_copy(gpu, s.img, &o, b.img, &o, &r));
   uint8_t *dec = rt_export(&b);
   int bad = 0;
   for (int i = 0; i < 256; i++) {
      double l = i / 255.0;
      double sv = l < 0.0031308 ? 12.92 * l : 1.055 * pow(l, 1 / 2.4) - 0.055;
      int want = (int)lrint(sv * 255.0);
      if (abs(enc[i * 4] - want) > 1)
         bad++;
   }
   EXPECT(!on_sim || bad == 0, "linear -> sRGB copy: %d values off by more than 1", bad);
   bad = 0;
   for (int i = 0; i < 256 && on_sim; i++) {
      double sv = enc[i * 4] / 255.0;
      double l = sv <= 0.04045 ? sv / 12.92 : pow((sv + 0.055) / 1.055, 2.4);
      if (abs(dec[i * 4] - (int)lrint(l * 255.0)) > 1 || dec[i * 4 + 3] != 255 - i)
         bad++;
   }
   EXPECT(bad == 0, "sRGB -> linear copy: %d values off by more than 1", bad);
   printf("info: srgb encode %016llx decode %016llx\n",
          (unsigned long long)fnv(enc, 64 * 4 * 4), (unsigned long long)fnv(dec, 64 * 4 * 4));
   EXPECT(X.hsa_ext_image_copy(gpu, a.img, &o, b.img, &o, &r) == HSA_STATUS_SUCCESS,
          "same-format copy refused");
   desc_case other = {G(2D), O(RGBA), T(UNORM_INT16), 64, 4, 0, 0, 0, 0};
   rt_image c16;
   rt_create(&c16, &other);
   printf("id: copy between formats status 0x%x\n",
          X.hsa_ext_image_copy(gpu, a.img, &o, c16.img, &o, &r));
   rt_destroy(&c16);
   CHECK_HSA(hsa_amd_memory_pool_free(src));
   CHECK_HSA(hsa_amd_memory_pool_free(enc));
   CHECK_HSA(hsa_amd_memory_pool_free(dec));
   rt_destroy(&a);
   rt_destroy(&s);
   rt_destroy(&b);
}

int
main(void)
{
   setvbuf(stdout, NULL, _IOLBF, 0);
   CHECK_HSA(hsa_init());
   kfd_test_env_init(&env);
   gpu = env.gpus[0];
   CHECK_HSA(hsa_amd_register_system_event_handler(system_event, NULL));
   CHECK_HSA(hsa_system_get_major_extension_table(HSA_EXTENSION_IMAGES, 1, sizeof(X), &X));
   CHECK(X.hsa_ext_image_create_with_layout && X.hsa_ext_sampler_create);
   const char *build = "";
   hsa_system_get_info(HSA_AMD_SYSTEM_INFO_BUILD_VERSION, &build);
   on_sim = build && !strncmp(build, "hsacl-sim", 9);
   hsa_ext_images_1_pfn_t none;
   printf("id: table version 2 status 0x%x\n",
          hsa_system_get_major_extension_table(HSA_EXTENSION_IMAGES, 2, sizeof(none), &none));
   agent_infos();
   capabilities();
   sizes();
   descriptors();
   samplers();
   round_trips();
   srgb_copies();
   CHECK(atomic_load(&faults_seen) == 0);
   CHECK_HSA(hsa_shut_down());
   if (failures) {
      fprintf(stderr, "kfd_test_image: %d failures\n", failures);
      return 1;
   }
   printf("kfd_test_image: passed\n");
   return 0;
}
