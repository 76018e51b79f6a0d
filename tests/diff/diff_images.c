/*
 * tests/diff/diff_images.c — differential tests of OpenCL images, hsacl against PoCL (and
 * against the host where the answer is a matter of moving bytes), through the system ICD
 * loader that must see both (OCL_ICD_VENDORS: a folder with both .icd files).
 *
 * usage: diff_images GROUP [CASE-PATTERN]
 *   GROUP copy    host-side commands on every image type (1D, 1D buffer, 1D array, 2D,
 *                 2D array, 3D) and every format hsacl lists: clEnqueueWriteImage with padded
 *                 pitches, ReadImage of the whole image and of a sub-region into a padded
 *                 host layout, CopyImage between sub-regions, CopyImageToBuffer,
 *                 CopyBufferToImage, FillImage, MapImage (write, then read). Every result
 *                 must equal the host's expectation byte for byte. PoCL runs the same where
 *                 it lists the format and the line says whether it agrees; it is not the
 *                 reference here, because PoCL 3.1 deviates in two places: it lays out the
 *                 layers of a 1D image array in host memory at the row pitch instead of the
 *                 slice pitch ("the size in bytes of each image in a 1D or 2D image array"),
 *                 and refuses clEnqueueCopyImage on 1D image buffers (CL_INVALID_MEM_OBJECT);
 *         rw      kernels on every image type and every format hsacl lists: a kernel
 *                 reads every texel with integer coordinates (read_image{f,i,ui}) into a
 *                 buffer; a kernel writes generated values (out of range too: saturation)
 *                 with write_image{f,i,ui}; a kernel copies image to image. Reads and writes
 *                 are compared with PoCL where it lists the format: integer results and HALF
 *                 and FLOAT reads exactly, a float read of a normalized format within 3 ULP
 *                 (each device within the 1.5 ULP the OpenCL specification allows:
 *                 "Conversion rules for normalized integer channel data types"), a
 *                 normalized write within one code (each within the 0.6 of a code the
 *                 specification and the CTS's filter_rounding_errors allow). HALF_FLOAT
 *                 writes are checked against the host instead (each half the input rounded to
 *                 nearest even or toward zero, the modes the CTS's
 *                 DetectFloatToHalfRoundingMode accepts: PoCL 3.1's half writes are not even
 *                 repeatable), and so are copies (every texel must come back);
 *         sample  read_image{f,i,ui} with a sampler argument (clCreateSampler) on 1D, 1D
 *                 array, 2D, 2D array and 3D images at generated coordinates, for normalized
 *                 and unnormalized coordinates, every addressing mode (REPEAT and
 *                 MIRRORED_REPEAT only normalized, as the specification requires) and NEAREST
 *                 and LINEAR filtering. NEAREST: coordinates at least 0.2 texel from a texel
 *                 edge, so the texel is unambiguous, and the results compared like rw's
 *                 reads. LINEAR (float formats): |hsacl - PoCL| <= max((2^-7 + 6 FLT_EPSILON)
 *                 * max(M, 1), A) per channel, M the largest channel magnitude in the image
 *                 and A one step of the format (1/255 UNORM_INT8, 1/127 SNORM_INT8, ...).
 *                 This is the Khronos CTS's bound for a linear-filtered read
 *                 (test_common/harness/imageHelpers.cpp at v2023-05-16-00:
 *                 get_max_relative_error, 2^-7 "picked" by the CTS because the specification
 *                 lets linear filtering return any result, plus 2 FLT_EPSILON for its own
 *                 arithmetic, times the largest texel blended; get_max_absolute_error: an
 *                 error below one step always passes), with the image's largest channel
 *                 instead of the four (eight) texels blended (looser, never tighter) and 4
 *                 FLT_EPSILON more for PoCL's own float arithmetic (PoCL is not an exact
 *                 reference either). The texture unit's 8-bit bilinear weights (gfx9) are
 *                 well inside it; a NEAREST result, a misplaced half texel or a wrong
 *                 addressing mode are not.
 *   CASE-PATTERN  fnmatch pattern on case names (e.g. 'sample/2d/RGBA_*_LINEAR').
 * Case names: GROUP/TYPE/ORDER_DATATYPE[/what]. Prints PASS / FAIL / KNOWN FAILURE (with the
 * reason, from known_failures below) / NOT RUN (with why: a format PoCL does not list is
 * not compared, an extension a device lacks) per case, then a summary.
 *
 * Exit status 1 on any FAIL, and when hsacl or PoCL reports no image support: this test is
 * registered only where hsacl advertises images (tests/diff/CMakeLists.txt), so an hsacl
 * that stops reporting them fails it rather than skipping it.
 */

#include <float.h>
#include <fnmatch.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff_images.h"

/* Cases hsacl gets wrong today because of a bug in hsacl (fnmatch pattern, reason): their
   failure is reported with the reason and does not fail the test. Keep it short and current. */
static const struct {
   const char *pattern, *reason;
} known_failures[] = {
   { NULL, NULL },
};

/* ---------------------------------------------------------------------------------------- */
/* Image types and formats                                                                   */

const struct imgtype imgtypes[] = {
   { "1d", CL_MEM_OBJECT_IMAGE1D, 67, 1, 1, "image1d_t", "x", "c.x", 0 },
   { "1dbuffer", CL_MEM_OBJECT_IMAGE1D_BUFFER, 67, 1, 1, "image1d_buffer_t", "x", NULL, 0 },
   { "1darray", CL_MEM_OBJECT_IMAGE1D_ARRAY, 37, 5, 1, "image1d_array_t", "(int2)(x, y)",
     "c.xy", 0 },
   { "2d", CL_MEM_OBJECT_IMAGE2D, 37, 23, 1, "image2d_t", "(int2)(x, y)", "c.xy", 0 },
   { "2darray", CL_MEM_OBJECT_IMAGE2D_ARRAY, 19, 13, 4, "image2d_array_t",
     "(int4)(x, y, z, 0)", "c", 0 },
   { "3d", CL_MEM_OBJECT_IMAGE3D, 17, 11, 5, "image3d_t", "(int4)(x, y, z, 0)", "c", 1 },
};
_Static_assert(sizeof(imgtypes) / sizeof(imgtypes[0]) == NTYPES, "NTYPES");

static const char *
order_name(cl_channel_order o)
{
   switch (o) {
#define N(x) case CL_##x: return #x;
   N(R) N(A) N(RG) N(RA) N(RGB) N(RGBA) N(BGRA) N(ARGB) N(INTENSITY) N(LUMINANCE) N(Rx)
   N(RGx) N(RGBx) N(DEPTH) N(sRGB) N(sRGBx) N(sRGBA) N(sBGRA) N(ABGR)
#undef N
   default: return NULL;
   }
}

static const char *
type_name(cl_channel_type t)
{
   switch (t) {
#define N(x) case CL_##x: return #x;
   N(SNORM_INT8) N(SNORM_INT16) N(UNORM_INT8) N(UNORM_INT16) N(UNORM_SHORT_565)
   N(UNORM_SHORT_555) N(UNORM_INT_101010) N(SIGNED_INT8) N(SIGNED_INT16) N(SIGNED_INT32)
   N(UNSIGNED_INT8) N(UNSIGNED_INT16) N(UNSIGNED_INT32) N(HALF_FLOAT) N(FLOAT)
#undef N
   default: return NULL;
   }
}

/* 0 for a format this test does not know (reported, not run). */
int
fmt_describe(cl_image_format f, struct fmt *out)
{
   memset(out, 0, sizeof(*out));
   out->f = f;
   const char *on = order_name(f.image_channel_order), *tn = type_name(f.image_channel_data_type);
   snprintf(out->name, sizeof(out->name), "%s_%s", on ? on : "?", tn ? tn : "?");
   if (!on || !tn)
      return 0;
   switch (f.image_channel_order) {
   case CL_R: case CL_A: case CL_INTENSITY: case CL_LUMINANCE: case CL_Rx: case CL_DEPTH:
      out->nch = 1; break;
   case CL_RG: case CL_RA: case CL_RGx: out->nch = 2; break;
   case CL_RGB: case CL_RGBx: case CL_sRGB: case CL_sRGBx: out->nch = 3; break;
   default: out->nch = 4; break;
   }
   switch (f.image_channel_data_type) {
   case CL_SNORM_INT8: case CL_UNORM_INT8: case CL_SIGNED_INT8: case CL_UNSIGNED_INT8:
      out->csz = 1; break;
   case CL_SNORM_INT16: case CL_UNORM_INT16: case CL_SIGNED_INT16: case CL_UNSIGNED_INT16:
   case CL_HALF_FLOAT:
      out->csz = 2; break;
   case CL_SIGNED_INT32: case CL_UNSIGNED_INT32: case CL_FLOAT: out->csz = 4; break;
   default: out->csz = 0; break;
   }
   if (out->csz)
      out->esz = out->csz * (f.image_channel_order == CL_RGBx || f.image_channel_order == CL_sRGBx
                                ? 4 : f.image_channel_order == CL_RGx ? 2 : out->nch);
   else
      out->esz = f.image_channel_data_type == CL_UNORM_INT_101010 ? 4 : 2;
   switch (f.image_channel_data_type) {
   case CL_SIGNED_INT8: case CL_SIGNED_INT16: case CL_SIGNED_INT32: out->kind = K_INT; break;
   case CL_UNSIGNED_INT8: case CL_UNSIGNED_INT16: case CL_UNSIGNED_INT32:
      out->kind = K_UINT; break;
   default: out->kind = K_FLOAT; break;
   }
   return 1;
}

int
is_normalized(const struct fmt *f)
{
   return f->kind == K_FLOAT && f->f.image_channel_data_type != CL_HALF_FLOAT &&
          f->f.image_channel_data_type != CL_FLOAT;
}

int
is_srgb(const struct fmt *f)
{
   cl_channel_order o = f->f.image_channel_order;
   return o == CL_sRGB || o == CL_sRGBx || o == CL_sRGBA || o == CL_sBGRA;
}

/* ---------------------------------------------------------------------------------------- */
/* Devices                                                                                   */

static int
has_extension(const struct dev *d, const char *ext)
{
   size_t n = strlen(ext);
   for (const char *p = d->extensions; (p = strstr(p, ext)) != NULL; p += n)
      if ((p == d->extensions || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
         return 1;
   return 0;
}

/* The first device of the platform named `platform_name` with image support; 0 and a
   message if there is none. */
static int
open_device(struct dev *d, const char *platform_name, const char *label)
{
   cl_platform_id platforms[16];
   cl_uint count = 0;
   cl_int err;
   d->label = label;
   if (clGetPlatformIDs(16, platforms, &count) != CL_SUCCESS)
      count = 0;
   for (cl_uint i = 0; i < count && i < 16; i++) {
      char name[128] = "";
      clGetPlatformInfo(platforms[i], CL_PLATFORM_NAME, sizeof(name), name, NULL);
      if (strcmp(name, platform_name) != 0 ||
          clGetDeviceIDs(platforms[i], CL_DEVICE_TYPE_ALL, 1, &d->id, NULL) != CL_SUCCESS)
         continue;
      cl_bool images = CL_FALSE;
      clGetDeviceInfo(d->id, CL_DEVICE_IMAGE_SUPPORT, sizeof(images), &images, NULL);
      if (!images) {
         fprintf(stderr, "%s reports no image support (CL_DEVICE_IMAGE_SUPPORT is CL_FALSE): "
                 "nothing to compare\n", label);
         return 0;
      }
      d->ctx = clCreateContext(NULL, 1, &d->id, NULL, NULL, &err);
      if (err != CL_SUCCESS)
         return 0;
      d->q = clCreateCommandQueue(d->ctx, d->id, 0, &err);
      if (err != CL_SUCCESS)
         return 0;
      clGetDeviceInfo(d->id, CL_DEVICE_EXTENSIONS, sizeof(d->extensions), d->extensions, NULL);
      for (unsigned t = 0; t < NTYPES; t++)
         for (int a = 0; a < 2; a++) {
            cl_uint n = 0;
            clGetSupportedImageFormats(d->ctx, a ? CL_MEM_WRITE_ONLY : CL_MEM_READ_ONLY,
                                       imgtypes[t].type, MAX_FORMATS, d->formats[t][a], &n);
            d->nformats[t][a] = n < MAX_FORMATS ? n : MAX_FORMATS;
         }
      char dn[256] = "", dv[256] = "";
      clGetDeviceInfo(d->id, CL_DEVICE_NAME, sizeof(dn), dn, NULL);
      clGetDeviceInfo(d->id, CL_DRIVER_VERSION, sizeof(dv), dv, NULL);
      printf("%s: %s / %s, driver %s; 2D formats: %u read, %u write\n", label, name, dn, dv,
             d->nformats[3][0], d->nformats[3][1]);
      return 1;
   }
   fprintf(stderr, "no %s platform with a device in OCL_ICD_VENDORS\n", platform_name);
   return 0;
}

int
lists(const struct dev *d, unsigned t, int write, cl_image_format f)
{
   for (cl_uint i = 0; i < d->nformats[t][write]; i++)
      if (d->formats[t][write][i].image_channel_order == f.image_channel_order &&
          d->formats[t][write][i].image_channel_data_type == f.image_channel_data_type)
         return 1;
   return 0;
}

/* An image of type t (its buffer in *buf for 1D buffer images), contents undefined. */
cl_mem
make_image(struct dev *d, const struct imgtype *t, const struct fmt *f, cl_mem_flags flags,
           cl_mem *buf, cl_int *err)
{
   cl_image_desc desc;
   memset(&desc, 0, sizeof(desc));
   desc.image_type = t->type;
   desc.image_width = t->w;
   *buf = NULL;
   switch (t->type) {
   case CL_MEM_OBJECT_IMAGE1D_ARRAY: desc.image_array_size = t->h; break;
   case CL_MEM_OBJECT_IMAGE2D: desc.image_height = t->h; break;
   case CL_MEM_OBJECT_IMAGE2D_ARRAY:
      desc.image_height = t->h;
      desc.image_array_size = t->d;
      break;
   case CL_MEM_OBJECT_IMAGE3D:
      desc.image_height = t->h;
      desc.image_depth = t->d;
      break;
   case CL_MEM_OBJECT_IMAGE1D_BUFFER:
      *buf = clCreateBuffer(d->ctx, CL_MEM_READ_WRITE, t->w * f->esz, NULL, err);
      if (*err != CL_SUCCESS)
         return NULL;
      desc.buffer = *buf;
      break;
   }
   cl_mem m = clCreateImage(d->ctx, flags, &f->f, &desc, NULL, err);
   if (*err != CL_SUCCESS && *buf) {
      clReleaseMemObject(*buf);
      *buf = NULL;
   }
   return m;
}

void
release_image(cl_mem img, cl_mem buf)
{
   if (img)
      clReleaseMemObject(img);
   if (buf)
      clReleaseMemObject(buf);
}

/* ---------------------------------------------------------------------------------------- */
/* Data                                                                                      */

static uint64_t
rng_next(uint64_t *s)
{
   *s ^= *s >> 12;
   *s ^= *s << 25;
   *s ^= *s >> 27;
   return *s * 2685821657736338717ull;
}

uint64_t
seed_of(const char *name, unsigned salt)
{
   uint64_t h = 1469598103934665603ull;
   for (const char *p = name; *p; p++)
      h = (h ^ (unsigned char)*p) * 1099511628211ull;
   h ^= (uint64_t)(salt + 1) * 0x9e3779b97f4a7c15ull;
   return h ? h : 1;
}

double
uniform(uint64_t *s)
{
   return (double)(rng_next(s) >> 11) / 9007199254740992.0;
}

/*
 * n texels of format f: random bits, except that HALF_FLOAT and FLOAT channels are finite
 * normal numbers (|v| in [2^-3, 8) for halves, [2^-10, 2^10) for floats) so that every
 * device reads them the same and a linear filter's tolerance means something.
 */
void
fill_texels(const struct fmt *f, void *buf, size_t n, uint64_t seed)
{
   uint64_t s = seed;
   unsigned char *p = buf;
   for (size_t i = 0; i < n * f->esz; i++)
      p[i] = (unsigned char)rng_next(&s);
   if (f->f.image_channel_data_type == CL_HALF_FLOAT) {
      uint16_t *h = buf;
      for (size_t i = 0; i < n * f->esz / 2; i++) {
         uint64_t r = rng_next(&s);
         h[i] = (uint16_t)((r & 0x8000) | ((12 + (r >> 16) % 5) << 10) | ((r >> 24) & 0x3ff));
      }
   } else if (f->f.image_channel_data_type == CL_FLOAT) {
      float *v = buf;
      for (size_t i = 0; i < n * f->esz / 4; i++) {
         uint64_t r = rng_next(&s);
         v[i] = (float)ldexp(1.0 + uniform(&s), (int)(r % 20) - 10) * (r & 64 ? -1 : 1);
      }
   }
}

float
half_to_float(uint16_t h)
{
   int e = (h >> 10) & 31, m = h & 0x3ff;
   float v = e == 0 ? ldexpf((float)m, -24)
             : e == 31 ? (m ? NAN : INFINITY)
                       : ldexpf((float)(m | 0x400), e - 25);
   return h & 0x8000 ? -v : v;
}

/* Host layout offset of texel (x, y, z) with the given pitches (1D array: y is the layer,
   at slice pitch, as clEnqueueReadImage and clEnqueueMapImage lay it out). */
static size_t
host_off(const struct imgtype *t, const struct fmt *f, size_t row, size_t slice, size_t x,
         size_t y, size_t z)
{
   if (t->type == CL_MEM_OBJECT_IMAGE1D_ARRAY)
      return y * slice + x * f->esz;
   return z * slice + y * row + x * f->esz;
}

/* Copies a box of texels between host layouts. */
static void
box_copy(const struct imgtype *t, const struct fmt *f, unsigned char *dst, size_t drow,
         size_t dslice, const size_t dorg[3], const unsigned char *src, size_t srow,
         size_t sslice, const size_t sorg[3], const size_t region[3])
{
   for (size_t z = 0; z < region[2]; z++)
      for (size_t y = 0; y < region[1]; y++)
         memcpy(dst + host_off(t, f, drow, dslice, dorg[0], dorg[1] + y, dorg[2] + z),
                src + host_off(t, f, srow, sslice, sorg[0], sorg[1] + y, sorg[2] + z),
                region[0] * f->esz);
}

/* Tight host pitches of the whole image of type t. */
static void
tight(const struct imgtype *t, const struct fmt *f, size_t *row, size_t *slice)
{
   *row = t->w * f->esz;
   *slice = t->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? *row : *row * t->h;
}

size_t
texels(const struct imgtype *t)
{
   return t->w * t->h * t->d;
}

/* ---------------------------------------------------------------------------------------- */
/* Reporting                                                                                 */

static unsigned n_pass, n_fail, n_known, n_not_run;
static const char *only_pattern;

static const char *
known_failure(const char *name)
{
   for (size_t i = 0; known_failures[i].pattern; i++)
      if (!fnmatch(known_failures[i].pattern, name, 0))
         return known_failures[i].reason;
   return NULL;
}

int
selected(const char *name)
{
   return !only_pattern || !fnmatch(only_pattern, name, 0);
}

/* Records a case's outcome: msg == NULL passes, otherwise it failed with msg. */
void
report(const char *name, const char *msg, const char *detail)
{
   const char *kf = known_failure(name);
   if (!msg) {
      printf("PASS    %s%s%s\n", name, detail ? " " : "", detail ? detail : "");
      if (kf)
         printf("    note: %s is listed as a known failure but passes: drop it\n", name);
      n_pass++;
   } else if (kf) {
      printf("KNOWN FAILURE %s: %s (%s)\n", name, kf, msg);
      n_known++;
   } else {
      printf("FAIL    %s: %s\n", name, msg);
      n_fail++;
   }
}

void
not_run(const char *name, const char *why)
{
   printf("NOT RUN %s: %s\n", name, why);
   n_not_run++;
}

/* ---------------------------------------------------------------------------------------- */
/* Group copy: host-side commands, checked against the host                                 */

/* Which component (0 r, 1 g, 2 b, 3 a) each stored channel holds, in memory order (what a
   write stores; INTENSITY, LUMINANCE and DEPTH store the first); 0 for orders not known. */
int
order_map(cl_channel_order o, int map[4])
{
   static const struct {
      cl_channel_order o;
      int n, map[4];
   } maps[] = {
      { CL_R, 1, { 0 } }, { CL_Rx, 1, { 0 } }, { CL_INTENSITY, 1, { 0 } },
      { CL_LUMINANCE, 1, { 0 } }, { CL_DEPTH, 1, { 0 } }, { CL_A, 1, { 3 } },
      { CL_RG, 2, { 0, 1 } }, { CL_RGx, 2, { 0, 1 } }, { CL_RA, 2, { 0, 3 } },
      { CL_RGB, 3, { 0, 1, 2 } }, { CL_RGBx, 3, { 0, 1, 2 } },
      { CL_RGBA, 4, { 0, 1, 2, 3 } }, { CL_BGRA, 4, { 2, 1, 0, 3 } },
      { CL_ARGB, 4, { 3, 0, 1, 2 } }, { CL_ABGR, 4, { 3, 2, 1, 0 } },
   };
   for (size_t i = 0; i < sizeof(maps) / sizeof(maps[0]); i++)
      if (maps[i].o == o) {
         memcpy(map, maps[i].map, sizeof(maps[i].map));
         return maps[i].n;
      }
   return 0;
}

/* f rounded to half, to nearest even or (rtz) toward zero. */
static uint16_t
float_to_half(float f, int rtz)
{
   uint16_t sign = signbit(f) ? 0x8000 : 0;
   double a = fabs((double)f);
   if (isnan(f))
      return sign | 0x7e00;
   if (isinf(f) || a >= (rtz ? 65536.0 : 65520.0))
      return sign | (rtz && !isinf(f) ? 0x7bff : 0x7c00);
   double ulp = a < 0x1.0p-14 ? 0x1.0p-24 : ldexp(1.0, ilogb(a) - 10);
   double q = rtz ? floor(a / ulp) : nearbyint(a / ulp); /* default rounding: to even */
   double v = q * ulp;
   if (v >= 65536.0) /* rtz only: cannot happen below 65536 */
      return sign | 0x7bff;
   if (v < 0x1.0p-14)
      return sign | (uint16_t)(v / 0x1.0p-24);
   int e = ilogb(v);
   return sign | (uint16_t)((e + 15) << 10) | (uint16_t)((v / ldexp(1.0, e) - 1) * 1024);
}

/* The fill colour of format f and the bytes it must produce (`texel`): colours chosen so
   every conversion is exact (normalized: a code divided by the format's maximum). Returns
   0 when the host cannot say what the bytes are (sRGB, packed 101010 with its order). */
static int
fill_color(const struct fmt *f, void *color, unsigned char *texel)
{
   static const double unit[4] = { 0.2, 0.8, 0.0, 1.0 };
   static const int32_t ints[4] = { -5, 100, 77, 3 };
   static const uint32_t uints[4] = { 5, 100, 200, 3 };
   static const float floats[4] = { 0.25f, -1.5f, 3.0f, 1.0f };
   static const uint16_t halves[4] = { 0x3400, 0xbe00, 0x4200, 0x3c00 };
   uint32_t code[4] = { 0 }; /* per component r, g, b, a: the stored bits */
   if (is_srgb(f))
      return 0;
   cl_channel_type dt = f->f.image_channel_data_type;
   double max = 0;
   switch (dt) {
   case CL_UNORM_INT8: max = 255; break;
   case CL_UNORM_INT16: max = 65535; break;
   case CL_SNORM_INT8: max = 127; break;
   case CL_SNORM_INT16: max = 32767; break;
   case CL_UNORM_SHORT_565: max = 31; break; /* green: 63, below */
   case CL_UNORM_SHORT_555: max = 31; break;
   case CL_UNORM_INT_101010: max = 1023; break;
   default: break;
   }
   for (int c = 0; c < 4; c++) {
      if (f->kind == K_INT) {
         ((cl_int *)color)[c] = ints[c];
         code[c] = (uint32_t)ints[c];
      } else if (f->kind == K_UINT) {
         ((cl_uint *)color)[c] = uints[c];
         code[c] = uints[c];
      } else if (dt == CL_FLOAT) {
         ((cl_float *)color)[c] = floats[c];
         memcpy(&code[c], &floats[c], 4);
      } else if (dt == CL_HALF_FLOAT) {
         ((cl_float *)color)[c] = half_to_float(halves[c]);
         code[c] = halves[c];
      } else {
         double m = dt == CL_UNORM_SHORT_565 && c == 1 ? 63 : max;
         double u = dt == CL_SNORM_INT8 || dt == CL_SNORM_INT16 ? unit[c] * 2 - 1 : unit[c];
         long k = lround(u * m);
         ((cl_float *)color)[c] = (float)(k / m);
         code[c] = (uint32_t)k;
      }
   }
   int map[4], n = order_map(f->f.image_channel_order, map);
   if (!n)
      return 0;
   memset(texel, 0, f->esz);
   if (dt == CL_UNORM_SHORT_565 || dt == CL_UNORM_SHORT_555) {
      uint16_t v = dt == CL_UNORM_SHORT_565
                      ? (uint16_t)(code[0] << 11 | code[1] << 5 | code[2])
                      : (uint16_t)(code[0] << 10 | code[1] << 5 | code[2]);
      memcpy(texel, &v, 2);
      return 1;
   }
   if (dt == CL_UNORM_INT_101010) {
      uint32_t v = code[0] << 20 | code[1] << 10 | code[2];
      memcpy(texel, &v, 4);
      return 1;
   }
   for (int i = 0; i < n; i++)
      memcpy(texel + i * f->csz, &code[map[i]], f->csz); /* little-endian low bytes */
   return 1;
}

/*
 * Runs the host-side commands on d with image type t and format f; the final contents of
 * each step are compared with the host's expectation. Returns 0, or -1 with msg.
 */
static int
copy_on(struct dev *d, const struct imgtype *t, const struct fmt *f, const char *name,
        char *msg, size_t msglen)
{
   int ret = -1;
   cl_int err;
   cl_mem a = NULL, abuf = NULL, b = NULL, bbuf = NULL, buf = NULL;
   size_t n = texels(t), row, slice;
   tight(t, f, &row, &slice);
   size_t bytes = n * f->esz;
   /* A padded host layout: 3 texels more per row, 2 rows more per slice. */
   size_t prow = row + 3 * f->esz;
   size_t pslice = t->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? prow + 5 : prow * (t->h + 2);
   int has_slices = t->type == CL_MEM_OBJECT_IMAGE3D || t->type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                    t->type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
   size_t pbytes = pslice * (t->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? t->h : t->d);
   unsigned char *da = malloc(bytes), *db = malloc(bytes), *dc = malloc(bytes);
   unsigned char *padded = malloc(pbytes), *got = malloc(pbytes), *want = malloc(pbytes);
   size_t origin0[3] = { 0, 0, 0 }, whole[3] = { t->w, t->h, t->d };
   /* A sub-box and where it goes. */
   size_t sorg[3] = { 2, t->h > 1 ? 1 : 0, t->d > 1 ? 1 : 0 };
   size_t dorg[3] = { 3, t->h > 1 ? 2 : 0, t->d > 1 ? 1 : 0 };
   size_t region[3] = { t->w - 5, t->h > 1 ? t->h - 3 : 1, t->d > 1 ? t->d - 2 : 1 };
   fill_texels(f, da, n, seed_of(name, 1));
   fill_texels(f, db, n, seed_of(name, 2));
   fill_texels(f, dc, n, seed_of(name, 3));

   a = make_image(d, t, f, CL_MEM_READ_ONLY, &abuf, &err);
   CHECK(err, "clCreateImage");
   b = make_image(d, t, f, CL_MEM_READ_ONLY, &bbuf, &err);
   CHECK(err, "clCreateImage");

   /* 1. write through a padded host layout, read back tight. */
   memset(padded, 0x5A, pbytes);
   box_copy(t, f, padded, prow, pslice, origin0, da, row, slice, origin0, whole);
   CHECK(clEnqueueWriteImage(d->q, a, CL_TRUE, origin0, whole, prow, has_slices ? pslice : 0,
                             padded, 0, NULL, NULL), "clEnqueueWriteImage (padded pitches)");
   memset(got, 0xCD, bytes);
   CHECK(clEnqueueReadImage(d->q, a, CL_TRUE, origin0, whole, 0, 0, got, 0, NULL, NULL),
         "clEnqueueReadImage");
   if (memcmp(got, da, bytes)) {
      snprintf(msg, msglen, "%s: write with padded pitches then read differs from the data",
               d->label);
      goto out;
   }
   CHECK(clEnqueueWriteImage(d->q, b, CL_TRUE, origin0, whole, 0, 0, db, 0, NULL, NULL),
         "clEnqueueWriteImage");

   /* 2. read a sub-box into a padded host layout (the padding must stay). */
   memset(got, 0x77, pbytes);
   memset(want, 0x77, pbytes);
   CHECK(clEnqueueReadImage(d->q, a, CL_TRUE, sorg, region, prow, has_slices ? pslice : 0, got,
                            0, NULL, NULL), "clEnqueueReadImage (sub-region, padded)");
   box_copy(t, f, want, prow, pslice, origin0, da, row, slice, sorg, region);
   if (memcmp(got, want, pbytes)) {
      snprintf(msg, msglen, "%s: sub-region read into padded pitches differs", d->label);
      goto out;
   }

   /* 3. copy a sub-box of a into b at another place. */
   CHECK(clEnqueueCopyImage(d->q, a, b, sorg, dorg, region, 0, NULL, NULL),
         "clEnqueueCopyImage");
   memcpy(want, db, bytes);
   box_copy(t, f, want, row, slice, dorg, da, row, slice, sorg, region);
   memcpy(db, want, bytes);
   memset(got, 0xCD, bytes);
   CHECK(clEnqueueReadImage(d->q, b, CL_TRUE, origin0, whole, 0, 0, got, 0, NULL, NULL),
         "clEnqueueReadImage");
   if (memcmp(got, want, bytes)) {
      snprintf(msg, msglen, "%s: clEnqueueCopyImage result differs", d->label);
      goto out;
   }

   /* 4. a sub-box of a to a buffer at an offset (tightly packed there). */
   size_t boff = 3 * f->esz, packed = region[0] * region[1] * region[2] * f->esz;
   buf = clCreateBuffer(d->ctx, CL_MEM_READ_WRITE, boff + bytes, NULL, &err);
   CHECK(err, "clCreateBuffer");
   CHECK(clEnqueueCopyImageToBuffer(d->q, a, buf, sorg, region, boff, 0, NULL, NULL),
         "clEnqueueCopyImageToBuffer");
   CHECK(clEnqueueReadBuffer(d->q, buf, CL_TRUE, boff, packed, got, 0, NULL, NULL),
         "clEnqueueReadBuffer");
   {
      size_t prow2 = region[0] * f->esz;
      size_t pslice2 = t->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? prow2 : prow2 * region[1];
      box_copy(t, f, want, prow2, pslice2, origin0, da, row, slice, sorg, region);
      if (memcmp(got, want, packed)) {
         snprintf(msg, msglen, "%s: clEnqueueCopyImageToBuffer result differs", d->label);
         goto out;
      }
      /* 5. and from a buffer (other data) into b. */
      CHECK(clEnqueueWriteBuffer(d->q, buf, CL_TRUE, boff, packed, dc, 0, NULL, NULL),
            "clEnqueueWriteBuffer");
      CHECK(clEnqueueCopyBufferToImage(d->q, buf, b, boff, dorg, region, 0, NULL, NULL),
            "clEnqueueCopyBufferToImage");
      box_copy(t, f, db, row, slice, dorg, dc, prow2, pslice2, origin0, region);
   }
   memset(got, 0xCD, bytes);
   CHECK(clEnqueueReadImage(d->q, b, CL_TRUE, origin0, whole, 0, 0, got, 0, NULL, NULL),
         "clEnqueueReadImage");
   if (memcmp(got, db, bytes)) {
      snprintf(msg, msglen, "%s: clEnqueueCopyBufferToImage result differs", d->label);
      goto out;
   }

   /* 6. fill a sub-box of b. */
   {
      unsigned char color[16], texel[16];
      if (fill_color(f, color, texel)) {
         CHECK(clEnqueueFillImage(d->q, b, color, sorg, region, 0, NULL, NULL),
               "clEnqueueFillImage");
         for (size_t z = 0; z < region[2]; z++)
            for (size_t y = 0; y < region[1]; y++)
               for (size_t x = 0; x < region[0]; x++)
                  memcpy(db + host_off(t, f, row, slice, sorg[0] + x, sorg[1] + y, sorg[2] + z),
                         texel, f->esz);
         memset(got, 0xCD, bytes);
         CHECK(clEnqueueReadImage(d->q, b, CL_TRUE, origin0, whole, 0, 0, got, 0, NULL, NULL),
               "clEnqueueReadImage");
         for (size_t i = 0; i < n; i++)
            if (memcmp(got + i * f->esz, db + i * f->esz, f->esz)) {
               char g[40] = "", w[40] = "";
               for (size_t k = 0; k < f->esz && k < 16; k++) {
                  sprintf(g + 2 * k, "%02x", got[i * f->esz + k]);
                  sprintf(w + 2 * k, "%02x", db[i * f->esz + k]);
               }
               snprintf(msg, msglen, "%s: clEnqueueFillImage: texel %zu is %s, expected %s",
                        d->label, i, g, w);
               goto out;
            }
      }
   }

   /* 7. map a sub-box of b for writing, write through its pitches, unmap, map whole for
      reading. */
   {
      size_t mrow = 0, mslice = 0;
      unsigned char *p = clEnqueueMapImage(d->q, b, CL_TRUE, CL_MAP_WRITE, sorg, region, &mrow,
                                           &mslice, 0, NULL, NULL, &err);
      CHECK(err, "clEnqueueMapImage (write)");
      box_copy(t, f, p, mrow, mslice, origin0, da, row, slice, origin0, region);
      box_copy(t, f, db, row, slice, sorg, da, row, slice, origin0, region);
      CHECK(clEnqueueUnmapMemObject(d->q, b, p, 0, NULL, NULL), "clEnqueueUnmapMemObject");
      p = clEnqueueMapImage(d->q, b, CL_TRUE, CL_MAP_READ, origin0, whole, &mrow, &mslice, 0,
                            NULL, NULL, &err);
      CHECK(err, "clEnqueueMapImage (read)");
      box_copy(t, f, got, row, slice, origin0, p, mrow, mslice, origin0, whole);
      CHECK(clEnqueueUnmapMemObject(d->q, b, p, 0, NULL, NULL), "clEnqueueUnmapMemObject");
      CHECK(clFinish(d->q), "clFinish");
      if (memcmp(got, db, bytes)) {
         snprintf(msg, msglen, "%s: mapped write then mapped read differs", d->label);
         goto out;
      }
   }
   ret = 0;
out:
   release_image(a, abuf);
   release_image(b, bbuf);
   if (buf)
      clReleaseMemObject(buf);
   free(da);
   free(db);
   free(dc);
   free(padded);
   free(got);
   free(want);
   return ret;
}

static void
group_copy(struct dev *hs, struct dev *pocl)
{
   for (unsigned ti = 0; ti < NTYPES; ti++) {
      const struct imgtype *t = &imgtypes[ti];
      for (cl_uint i = 0; i < hs->nformats[ti][0]; i++) {
         struct fmt f;
         char name[160], msg[512] = "";
         int known = fmt_describe(hs->formats[ti][0][i], &f);
         snprintf(name, sizeof(name), "copy/%s/%s", t->name, f.name);
         if (!selected(name))
            continue;
         if (!known) {
            not_run(name, "a format this test does not know");
            continue;
         }
         if (copy_on(hs, t, &f, name, msg, sizeof(msg))) {
            report(name, msg, NULL);
            continue;
         }
         if (!lists(pocl, ti, 0, f.f)) {
            report(name, NULL, "(against the host; PoCL does not list the format)");
            continue;
         }
         /* The host is the reference; PoCL's run only says whether another
            implementation agrees (it does not everywhere: see the top comment). */
         if (copy_on(pocl, t, &f, name, msg, sizeof(msg))) {
            char m2[600];
            snprintf(m2, sizeof(m2), "(against the host; PoCL does not agree: %s)", msg);
            report(name, NULL, m2);
            continue;
         }
         report(name, NULL, "(against the host; PoCL agrees)");
      }
   }
}

/* ---------------------------------------------------------------------------------------- */
/* Kernels                                                                                   */

const char *
suffix(const struct fmt *f)
{
   return f->kind == K_INT ? "i" : f->kind == K_UINT ? "ui" : "f";
}

const char *
vec4(const struct fmt *f)
{
   return f->kind == K_INT ? "int4" : f->kind == K_UINT ? "uint4" : "float4";
}

/* The kernel "k" of `src` on d, built once and kept (release_built); NULL with msg. */
cl_kernel
build(struct dev *d, const char *src, char *msg, size_t msglen)
{
   cl_int err;
   for (unsigned i = 0; i < d->nbuilt; i++)
      if (!strcmp(d->built[i].src, src))
         return d->built[i].k;
   cl_program prog = clCreateProgramWithSource(d->ctx, 1, &src, NULL, &err);
   if (err == CL_SUCCESS)
      err = clBuildProgram(prog, 1, &d->id, NULL, NULL, NULL);
   if (err != CL_SUCCESS) {
      char log[1024] = "";
      if (prog)
         clGetProgramBuildInfo(prog, d->id, CL_PROGRAM_BUILD_LOG, sizeof(log), log, NULL);
      snprintf(msg, msglen, "%s: build failed (%d): %.300s", d->label, err, log);
      if (prog)
         clReleaseProgram(prog);
      return NULL;
   }
   cl_kernel k = clCreateKernel(prog, "k", &err);
   if (err != CL_SUCCESS || d->nbuilt == sizeof(d->built) / sizeof(d->built[0])) {
      snprintf(msg, msglen, "%s: clCreateKernel: %d", d->label, err);
      if (k)
         clReleaseKernel(k);
      clReleaseProgram(prog);
      return NULL;
   }
   d->built[d->nbuilt++] = (struct built){ strdup(src), prog, k };
   return k;
}

static void
release_built(struct dev *d)
{
   for (unsigned i = 0; i < d->nbuilt; i++) {
      clReleaseKernel(d->built[i].k);
      clReleaseProgram(d->built[i].prog);
      free(d->built[i].src);
   }
   d->nbuilt = 0;
}

/* The run of a kernel on one device: the output buffer or image bytes. */
struct krun {
   unsigned char *out;
   size_t bytes;
};

/*
 * One kernel launch over the whole image on d: mode 'r' reads the image (filled with
 * `data`) into a buffer of vec4s; 'w' writes `in` (vec4s) into the image and reads its
 * bytes back; 'c' copies image `data` into a second image and reads its bytes back.
 */
static int
kernel_on(struct dev *d, const struct imgtype *t, const struct fmt *f, int mode,
          const void *data, const void *in, struct krun *r, char *msg, size_t msglen)
{
   int ret = -1;
   cl_int err;
   char src[1024];
   cl_kernel k = NULL;
   cl_mem img = NULL, ibuf = NULL, img2 = NULL, ibuf2 = NULL, buf = NULL;
   size_t n = texels(t), origin0[3] = { 0, 0, 0 }, whole[3] = { t->w, t->h, t->d };
   const char *pragma = t->write_ext3d && mode != 'r'
                           ? "#pragma OPENCL EXTENSION cl_khr_3d_image_writes : enable\n" : "";
   const char *body =
      "   int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);\n"
      "   size_t i = ((size_t)z * get_global_size(1) + y) * get_global_size(0) + x;\n";
   if (mode == 'r')
      snprintf(src, sizeof(src), "kernel void k(read_only %s img, global %s *out)\n{\n%s"
               "   out[i] = read_image%s(img, %s);\n}\n", t->cl_type, vec4(f), body, suffix(f),
               t->icoord);
   else if (mode == 'w')
      snprintf(src, sizeof(src), "%skernel void k(write_only %s img, global const %s *in)\n{\n"
               "%s   write_image%s(img, %s, in[i]);\n}\n", pragma, t->cl_type, vec4(f), body,
               suffix(f), t->icoord);
   else
      snprintf(src, sizeof(src), "%skernel void k(read_only %s a, write_only %s b)\n{\n%s"
               "   write_image%s(b, %s, read_image%s(a, %s));\n}\n", pragma, t->cl_type,
               t->cl_type, body, suffix(f), t->icoord, suffix(f), t->icoord);
   k = build(d, src, msg, msglen);
   if (!k)
      goto out;
   img = make_image(d, t, f, mode == 'w' ? CL_MEM_WRITE_ONLY : CL_MEM_READ_ONLY, &ibuf, &err);
   CHECK(err, "clCreateImage");
   if (mode != 'w')
      CHECK(clEnqueueWriteImage(d->q, img, CL_TRUE, origin0, whole, 0, 0, data, 0, NULL, NULL),
            "clEnqueueWriteImage");
   if (mode == 'c') {
      img2 = make_image(d, t, f, CL_MEM_WRITE_ONLY, &ibuf2, &err);
      CHECK(err, "clCreateImage");
   }
   if (mode != 'c') {
      buf = clCreateBuffer(d->ctx, CL_MEM_READ_WRITE, n * 16, NULL, &err);
      CHECK(err, "clCreateBuffer");
      if (mode == 'w')
         CHECK(clEnqueueWriteBuffer(d->q, buf, CL_TRUE, 0, n * 16, in, 0, NULL, NULL),
               "clEnqueueWriteBuffer");
   }
   CHECK(clSetKernelArg(k, 0, sizeof(cl_mem), &img), "clSetKernelArg");
   CHECK(clSetKernelArg(k, 1, sizeof(cl_mem), mode == 'c' ? &img2 : &buf), "clSetKernelArg");
   CHECK(clEnqueueNDRangeKernel(d->q, k, 3, NULL, whole, NULL, 0, NULL, NULL),
         "clEnqueueNDRangeKernel");
   r->bytes = mode == 'r' ? n * 16 : n * f->esz;
   r->out = malloc(r->bytes);
   memset(r->out, 0xCD, r->bytes);
   if (mode == 'r')
      CHECK(clEnqueueReadBuffer(d->q, buf, CL_TRUE, 0, r->bytes, r->out, 0, NULL, NULL),
            "clEnqueueReadBuffer");
   else
      CHECK(clEnqueueReadImage(d->q, mode == 'c' ? img2 : img, CL_TRUE, origin0, whole, 0, 0,
                               r->out, 0, NULL, NULL), "clEnqueueReadImage");
   ret = 0;
out:
   release_image(img, ibuf);
   release_image(img2, ibuf2);
   if (buf)
      clReleaseMemObject(buf);
   return ret;
}

/* Compares image bytes channel by channel: normalized codes within `codes`, halves within
   `codes` ULPs, the rest exact. Packed formats: exact. */
static size_t
compare_texels(const struct fmt *f, const unsigned char *got, const unsigned char *want,
               size_t n, int codes, char *msg, size_t msglen)
{
   size_t bad = 0;
   size_t nch = f->csz ? f->esz / f->csz : 1, csz = f->csz ? f->csz : f->esz;
   cl_channel_type dt = f->f.image_channel_data_type;
   for (size_t i = 0; i < n * nch; i++) {
      int64_t g = 0, w = 0;
      memcpy(&g, got + i * csz, csz);
      memcpy(&w, want + i * csz, csz);
      int64_t diff;
      if (dt == CL_SNORM_INT8)
         diff = (int8_t)g - (int8_t)w;
      else if (dt == CL_SNORM_INT16)
         diff = (int16_t)g - (int16_t)w;
      else if (dt == CL_HALF_FLOAT) /* sign-magnitude to ordered */
         diff = ((g & 0x8000) ? -(g & 0x7fff) : g) - ((w & 0x8000) ? -(w & 0x7fff) : w);
      else
         diff = g - w;
      int tol = is_normalized(f) && f->csz ? codes : dt == CL_HALF_FLOAT ? codes : 0;
      if (llabs(diff) > tol && bad++ == 0)
         snprintf(msg, msglen, "texel %zu channel %zu: hsacl 0x%llx, PoCL 0x%llx", i / nch,
                  i % nch, (unsigned long long)g, (unsigned long long)w);
   }
   return bad;
}

/*
 * The image-to-image copy kernel's result against its input: every texel must come back
 * unchanged, except the most negative SNORM code, which reads as -1.0 and is written back as
 * -max (OpenCL: SNORM conversion clamps to [-1, 1]); the unused bits of 555 and 101010
 * texels are not compared, and sRGB codes may move by one (decode, then encode).
 */
static size_t
check_copy(const struct fmt *f, const unsigned char *got, const unsigned char *in, size_t n,
           char *msg, size_t msglen)
{
   size_t bad = 0;
   cl_channel_type dt = f->f.image_channel_data_type;
   size_t nch = f->csz ? f->esz / f->csz : 1, csz = f->csz ? f->csz : f->esz;
   for (size_t i = 0; i < n * nch; i++) {
      int64_t g = 0, w = 0;
      memcpy(&g, got + i * csz, csz);
      memcpy(&w, in + i * csz, csz);
      if (dt == CL_SNORM_INT8 && w == 0x80)
         w = 0x81;
      else if (dt == CL_SNORM_INT16 && w == 0x8000)
         w = 0x8001;
      else if (dt == CL_UNORM_SHORT_555)
         g &= 0x7fff, w &= 0x7fff;
      else if (dt == CL_UNORM_INT_101010)
         g &= 0x3fffffff, w &= 0x3fffffff;
      if (llabs(g - w) > (is_srgb(f) ? 1 : 0) && bad++ == 0)
         snprintf(msg, msglen, "texel %zu channel %zu: 0x%llx, written 0x%llx", i / nch,
                  i % nch, (unsigned long long)g, (unsigned long long)w);
   }
   return bad;
}

/* HALF_FLOAT writes against the host: each stored half must be the input rounded to
   nearest even or toward zero (the two modes the CTS accepts, DetectFloatToHalfRoundingMode;
   one mode per device, but mixed here: a device rounding inconsistently is not caught). */
static size_t
check_half_write(const struct fmt *f, const unsigned char *got, const float *in, size_t n,
                 char *msg, size_t msglen)
{
   int map[4], nch = order_map(f->f.image_channel_order, map);
   size_t bad = 0;
   for (size_t i = 0; i < n; i++)
      for (int c = 0; c < nch; c++) {
         uint16_t g;
         memcpy(&g, got + i * f->esz + 2 * c, 2);
         float v = in[4 * i + map[c]];
         if (g != float_to_half(v, 0) && g != float_to_half(v, 1) && bad++ == 0)
            snprintf(msg, msglen, "texel %zu channel %d: 0x%04x for %.9g (expected 0x%04x or "
                     "0x%04x)", i, c, g, v, float_to_half(v, 0), float_to_half(v, 1));
      }
   return bad;
}

/* Values for write_image*: per channel, beyond the format's range a quarter of the time. */
static void
write_inputs(const struct fmt *f, void *in, size_t n, uint64_t seed)
{
   uint64_t s = seed;
   cl_channel_type dt = f->f.image_channel_data_type;
   for (size_t i = 0; i < n * 4; i++) {
      uint64_t r = rng_next(&s);
      double u = uniform(&s);
      if (f->kind == K_INT) {
         int64_t range = f->csz == 1 ? 128 : f->csz == 2 ? 32768 : 2147483648ll;
         ((int32_t *)in)[i] = r % 4 ? (int32_t)((int64_t)(u * 2 * range) - range) : (int32_t)r;
      } else if (f->kind == K_UINT) {
         uint64_t range = f->csz == 1 ? 256 : f->csz == 2 ? 65536 : 4294967296ull;
         ((uint32_t *)in)[i] = r % 4 ? (uint32_t)(u * range) : (uint32_t)r;
      } else if (dt == CL_FLOAT) {
         ((float *)in)[i] = (float)((u - 0.5) * 2e6);
      } else if (dt == CL_HALF_FLOAT) {
         ((float *)in)[i] = (float)((u - 0.5) * 2000);
      } else if (dt == CL_SNORM_INT8 || dt == CL_SNORM_INT16) {
         ((float *)in)[i] = (float)(u * 2.5 - 1.25);
      } else {
         ((float *)in)[i] = (float)(u * 1.5 - 0.25);
      }
   }
}

static void
group_rw(struct dev *hs, struct dev *pocl)
{
   for (unsigned ti = 0; ti < NTYPES; ti++) {
      const struct imgtype *t = &imgtypes[ti];
      /* every format hsacl lists for reading or writing */
      cl_image_format all[2 * MAX_FORMATS];
      unsigned nall = 0;
      for (int a = 0; a < 2; a++)
         for (cl_uint i = 0; i < hs->nformats[ti][a]; i++)
            if (!a || !lists(hs, ti, 0, hs->formats[ti][a][i]))
               all[nall++] = hs->formats[ti][a][i];
      for (unsigned i = 0; i < nall; i++) {
         struct fmt f;
         int known = fmt_describe(all[i], &f);
         size_t n = texels(t);
         for (int mode = 0; mode < 3; mode++) {
            const char *what = mode == 0 ? "read" : mode == 1 ? "write" : "copy";
            char name[160], msg[512] = "", why[200];
            snprintf(name, sizeof(name), "rw/%s/%s/%s", t->name, f.name, what);
            if (!selected(name))
               continue;
            int need_r = mode != 1, need_w = mode != 0;
            if ((need_r && !lists(hs, ti, 0, f.f)) || (need_w && !lists(hs, ti, 1, f.f)))
               continue; /* hsacl does not offer it: nothing to test */
            if (!known) {
               not_run(name, "a format this test does not know");
               continue;
            }
            if (f.f.image_channel_order == CL_DEPTH) {
               not_run(name, "depth images (image2d_depth_t): not in this test");
               continue;
            }
            /* The reference: PoCL for reads and writes; the host for copies (the texels
               must come back) and for HALF_FLOAT writes (PoCL 3.1's are not even
               repeatable: two runs of the same kernel store different halves). */
            int host_ref = mode != 1 || f.f.image_channel_data_type == CL_HALF_FLOAT;
            if (!host_ref &&
                ((need_r && !lists(pocl, ti, 0, f.f)) || (need_w && !lists(pocl, ti, 1, f.f)))) {
               not_run(name, "PoCL does not list the format: no reference (the copy group "
                             "checks its bytes against the host)");
               continue;
            }
            double probe[4];
            if (host_ref && (mode == 0 ? !decode_texel(&f, (unsigned char[16]){ 0 }, probe)
                                       : !order_map(f.f.image_channel_order, (int[4]){ 0 }) &&
                                            !is_srgb(&f))) {
               not_run(name, "a format this test cannot check on the host (sRGB reads)");
               continue;
            }
            if (need_w && t->write_ext3d &&
                (!has_extension(hs, "cl_khr_3d_image_writes") ||
                 (!host_ref && !has_extension(pocl, "cl_khr_3d_image_writes")))) {
               snprintf(why, sizeof(why), "%s does not list cl_khr_3d_image_writes",
                        has_extension(hs, "cl_khr_3d_image_writes") ? "PoCL" : "hsacl");
               not_run(name, why);
               continue;
            }
            unsigned char *data = malloc(n * f.esz);
            unsigned char *in = malloc(n * 16);
            fill_texels(&f, data, n, seed_of(name, 0));
            write_inputs(&f, in, n, seed_of(name, 1));
            struct krun rh = { 0 }, rp = { 0 };
            int m = "rwc"[mode];
            if (kernel_on(hs, t, &f, m, data, in, &rh, msg, sizeof(msg))) {
               report(name, msg, NULL);
            } else if (mode == 0) {
               /* Reads: the host decodes every texel; PoCL says whether it agrees. */
               double *want = malloc(n * 4 * sizeof(double));
               for (size_t j = 0; j < n; j++)
                  decode_texel(&f, data + j * f.esz, want + 4 * j);
               size_t bad = check_reads(&f, rh.out, want, n, msg, sizeof(msg));
               char m2[600], pmsg[512] = "", detail[700];
               const char *pnote = "PoCL does not list the format";
               if (lists(pocl, ti, 0, f.f)) {
                  if (kernel_on(pocl, t, &f, m, data, in, &rp, pmsg, sizeof(pmsg)))
                     pnote = "PoCL fails to run it";
                  else if (check_reads(&f, rp.out, want, n, pmsg, sizeof(pmsg)))
                     pnote = pmsg;
                  else
                     pnote = "PoCL agrees";
               }
               snprintf(m2, sizeof(m2), "%zu values differ from the host's; first: %s", bad,
                        msg);
               snprintf(detail, sizeof(detail), "(against the host; %s%s)",
                        pnote == pmsg ? "PoCL differs: " : "", pnote);
               report(name, bad ? m2 : NULL, detail);
               free(want);
            } else if (host_ref) {
               size_t bad = mode == 2 ? check_copy(&f, rh.out, data, n, msg, sizeof(msg))
                                      : check_half_write(&f, rh.out, (const float *)in, n, msg,
                                                         sizeof(msg));
               char m2[600];
               snprintf(m2, sizeof(m2), "%zu values differ from the host's; first: %s", bad,
                        msg);
               report(name, bad ? m2 : NULL, "(against the host)");
            } else if (kernel_on(pocl, t, &f, m, data, in, &rp, msg, sizeof(msg))) {
               char m2[600];
               snprintf(m2, sizeof(m2), "the reference fails: %s", msg);
               report(name, m2, NULL);
            } else {
               size_t bad = compare_texels(&f, rh.out, rp.out, n, 1, msg, sizeof(msg));
               char m2[600];
               snprintf(m2, sizeof(m2), "%zu values differ from PoCL; first: %s", bad, msg);
               report(name, bad ? m2 : NULL, "(against PoCL)");
            }
            free(rh.out);
            free(rp.out);
            free(data);
            free(in);
         }
      }
   }
}

/* ---------------------------------------------------------------------------------------- */

int
main(int argc, char **argv)
{
   if (argc < 2 || (strcmp(argv[1], "copy") && strcmp(argv[1], "rw") &&
                    strcmp(argv[1], "sample") && strcmp(argv[1], "all"))) {
      fprintf(stderr, "usage: %s copy|rw|sample|all [CASE-PATTERN]\n", argv[0]);
      return 2;
   }
   const char *group = argv[1];
   only_pattern = argc > 2 ? argv[2] : NULL;
   static struct dev hs, pocl;
   /* DIFF_IMAGES_PLATFORM=NAME tests another platform instead of hsacl (PoCL against
      itself checks the test; not for ctest). */
   const char *under_test = getenv("DIFF_IMAGES_PLATFORM");
   if (!open_device(&hs, under_test && *under_test ? under_test : "hsacl", "hsacl") ||
       !open_device(&pocl, "Portable Computing Language", "pocl"))
      return 1;
   if (!strcmp(group, "copy") || !strcmp(group, "all"))
      group_copy(&hs, &pocl);
   if (!strcmp(group, "rw") || !strcmp(group, "all"))
      group_rw(&hs, &pocl);
   if (!strcmp(group, "sample") || !strcmp(group, "all"))
      group_sample(&hs, &pocl);
   release_built(&hs);
   release_built(&pocl);
   clReleaseCommandQueue(hs.q);
   clReleaseContext(hs.ctx);
   clReleaseCommandQueue(pocl.q);
   clReleaseContext(pocl.ctx);
   printf("%u passed, %u failed, %u known failures, %u not run\n", n_pass, n_fail, n_known,
          n_not_run);
   if (!n_pass && !n_fail && !n_known) {
      printf("no case ran\n");
      return 1;
   }
   return n_fail ? 1 : 0;
}
