/*
 * tests/memory/api_mipmap_test.c — mipmapped images (cl_khr_mipmap_image,
 * cl_khr_mipmap_image_writes; memory/mem_image.c, mem_image_xfer.c, mem_sampler.c), end to
 * end on the runtime it runs on. For a 1D, 1D array, 2D, 2D array and 3D image of RGBA float
 * texels, every level's content is checked against a host model after writes, fills, copies
 * between levels, buffer <-> image copies, maps and kernel writes at a level
 * (write_imagef(image, coord, lod, colour)); kernels read every level with read_imagef(...,
 * lod) through a sampler with CL_SAMPLER_MIP_FILTER_MODE_KHR NEAREST, the 2D image also
 * between levels (LINEAR), with gradients, with CL_SAMPLER_LOD_MIN_KHR / _MAX_KHR, and through
 * literal and program-scope samplers (the extension's defaults: nearest level, LOD 0..MAXFLOAT);
 * get_image_num_mip_levels and CL_IMAGE_NUM_MIP_LEVELS; and the errors the extension and
 * OpenCL 3.0 §5.3 give (CL_INVALID_IMAGE_DESCRIPTOR, CL_INVALID_HOST_PTR,
 * CL_INVALID_MIP_LEVEL, CL_INVALID_VALUE).
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext.h>

#include "hsacl_cl_test.h"
#include "hsacl_test.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#define KERNEL_TYPE(name, T, C, IDX, COORD_R, COORD_W)                                       \
   "kernel void lv_" name "(read_only " T " im, global int *o) {\n"                          \
   "   o[0] = get_image_num_mip_levels(im);\n"                                               \
   "}\n"                                                                                     \
   "kernel void rd_" name "(read_only " T " im, sampler_t s, float lod, int4 e,\n"           \
   "                        global float4 *o) {\n"                                           \
   "   int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);\n"             \
   "   o[(z * get_global_size(1) + y) * get_global_size(0) + x] =\n"                         \
   "      read_imagef(im, s, " COORD_R ", lod);\n"                                           \
   "}\n"                                                                                     \
   "kernel void wr_" name "(write_only " T " im, int lod) {\n"                               \
   "   int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);\n"             \
   "   write_imagef(im, " COORD_W ", lod, pattern(x, y, z, lod));\n"                         \
   "}\n"

static const char *source =
   "#pragma OPENCL EXTENSION cl_khr_mipmap_image : enable\n"
   "#pragma OPENCL EXTENSION cl_khr_mipmap_image_writes : enable\n"
   "float4 pattern(int x, int y, int z, int lod) {\n"
   "   float v = x + 16 * y + 256 * z + 4096 * lod;\n"
   "   return (float4)(v, v + 0.5f, -v, 0.25f * lod);\n"
   "}\n"
   KERNEL_TYPE("1d", "image1d_t", 1, 0, "(x + 0.5f) / e.x", "x")
   KERNEL_TYPE("1da", "image1d_array_t", 2, 0, "(float2)((x + 0.5f) / e.x, y)", "(int2)(x, y)")
   KERNEL_TYPE("2d", "image2d_t", 2, 0, "(float2)((x + 0.5f) / e.x, (y + 0.5f) / e.y)",
               "(int2)(x, y)")
   KERNEL_TYPE("2da", "image2d_array_t", 3, 0,
               "(float4)((x + 0.5f) / e.x, (y + 0.5f) / e.y, z, 0.0f)", "(int4)(x, y, z, 0)")
   KERNEL_TYPE("3d", "image3d_t", 3, 0,
               "(float4)((x + 0.5f) / e.x, (y + 0.5f) / e.y, (z + 0.5f) / e.z, 0.0f)",
               "(int4)(x, y, z, 0)")
   "kernel void gd_2d(read_only image2d_t im, sampler_t s, float g, int4 e,\n"
   "                  global float4 *o) {\n"
   "   int x = get_global_id(0), y = get_global_id(1);\n"
   "   o[y * get_global_size(0) + x] = read_imagef(im, s,\n"
   "      (float2)((x + 0.5f) / e.x, (y + 0.5f) / e.y), (float2)(g, 0.0f), (float2)(0.0f, g));\n"
   "}\n"
   /* Samplers from the source: the extension's default mip filter (NEAREST) and LOD range. */
   "kernel void rl_2d(read_only image2d_t im, sampler_t unused, float lod, int4 e,\n"
   "                  global float4 *o) {\n"
   "   const sampler_t s = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE |\n"
   "                       CLK_FILTER_NEAREST;\n"
   "   int x = get_global_id(0), y = get_global_id(1);\n"
   "   o[y * get_global_size(0) + x] =\n"
   "      read_imagef(im, s, (float2)((x + 0.5f) / e.x, (y + 0.5f) / e.y), lod);\n"
   "}\n"
   "constant sampler_t ps = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT |\n"
   "                        CLK_FILTER_LINEAR;\n"
   "kernel void rp_2d(read_only image2d_t im, sampler_t unused, float lod, int4 e,\n"
   "                  global float4 *o) {\n"
   "   int x = get_global_id(0), y = get_global_id(1);\n"
   "   o[y * get_global_size(0) + x] =\n"
   "      read_imagef(im, ps, (float2)((x + 0.5f) / e.x, (y + 0.5f) / e.y), lod);\n"
   "}\n";

static cl_device_id device;
static cl_context ctx;
static cl_command_queue q;
static cl_program prog;
static uint64_t rng = 0x9E3779B97F4A7C15ull;

/* An image under test and its host model: level m's texels, dense, in the order of the
 * commands' regions (x fastest, then rows or 1D layers, then slices or 2D layers). */
struct img {
   const char *name;
   cl_mem_object_type type;
   size_t w, h, d; /* d: depth, or layers of an array (h for a 1D array) */
   cl_uint levels;
   cl_mem mem;
   float *lv[8];
};

static size_t
lsize(size_t v, cl_uint m)
{
   return v >> m ? v >> m : 1;
}

/* Level m's region extent in the commands' coordinates. */
static void
level_ext(const struct img *im, cl_uint m, size_t e[3])
{
   e[0] = lsize(im->w, m);
   e[1] = e[2] = 1;
   switch (im->type) {
   case CL_MEM_OBJECT_IMAGE1D_ARRAY: e[1] = im->d; break;
   case CL_MEM_OBJECT_IMAGE2D: e[1] = lsize(im->h, m); break;
   case CL_MEM_OBJECT_IMAGE2D_ARRAY: e[1] = lsize(im->h, m), e[2] = im->d; break;
   case CL_MEM_OBJECT_IMAGE3D: e[1] = lsize(im->h, m), e[2] = lsize(im->d, m); break;
   default: break;
   }
}

static size_t
level_texels(const struct img *im, cl_uint m)
{
   size_t e[3];
   level_ext(im, m, e);
   return e[0] * e[1] * e[2];
}

/* The origin component naming the level (the extension's rule). */
static unsigned
mip_index(cl_mem_object_type t)
{
   return t == CL_MEM_OBJECT_IMAGE1D ? 1
          : t == CL_MEM_OBJECT_IMAGE1D_ARRAY || t == CL_MEM_OBJECT_IMAGE2D ? 2 : 3;
}

/* origin (4 components) of texel (x, y, z) of level m. */
static void
origin_at(const struct img *im, cl_uint m, size_t x, size_t y, size_t z, size_t o[4])
{
   o[0] = x, o[1] = y, o[2] = z, o[3] = 0;
   o[mip_index(im->type)] = m;
}

static cl_int
create(struct img *im, cl_uint levels, void *host, cl_mem_flags flags)
{
   cl_image_format f = { CL_RGBA, CL_FLOAT };
   cl_image_desc d = { .image_type = im->type, .image_width = im->w, .num_mip_levels = levels };
   if (im->type == CL_MEM_OBJECT_IMAGE2D || im->type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
       im->type == CL_MEM_OBJECT_IMAGE3D)
      d.image_height = im->h;
   if (im->type == CL_MEM_OBJECT_IMAGE3D)
      d.image_depth = im->d;
   if (im->type == CL_MEM_OBJECT_IMAGE1D_ARRAY || im->type == CL_MEM_OBJECT_IMAGE2D_ARRAY)
      d.image_array_size = im->d;
   cl_int err;
   cl_mem m = clCreateImage(ctx, flags, &f, &d, host, &err);
   if (err == CL_SUCCESS)
      im->mem = m;
   return err;
}

static void
random_fill(float *p, size_t n)
{
   for (size_t i = 0; i < n; i++)
      p[i] = (float)(test_xorshift64(&rng) % 1000) / 1000.0f;
}

/* Reads every level and counts the texels that differ from the model. */
static void
check_levels(const struct img *im, const char *when)
{
   for (cl_uint m = 0; m < im->levels; m++) {
      size_t n = level_texels(im, m), e[3], o[4];
      level_ext(im, m, e);
      origin_at(im, m, 0, 0, 0, o);
      float *got = calloc(n * 4, sizeof(float));
      CHECK_EQ_INT(clEnqueueReadImage(q, im->mem, CL_TRUE, o, e, 0, 0, got, 0, NULL, NULL),
                   CL_SUCCESS);
      size_t bad = 0;
      for (size_t i = 0; i < n * 4; i++) {
         if (got[i] != im->lv[m][i] && bad++ < 3)
            fprintf(stderr, "%s %s level %u: float %zu is %g, expected %g\n", im->name, when,
                    m, i, got[i], im->lv[m][i]);
      }
      CHECK_EQ_INT(bad, 0);
      free(got);
   }
}

/* Writes, fills, copies, buffer copies and maps at levels, against the model. */
static void
transfers(struct img *im)
{
   size_t e[3], o[4], o2[4];
   for (cl_uint m = 0; m < im->levels; m++) {
      size_t n = level_texels(im, m);
      im->lv[m] = malloc(n * 4 * sizeof(float));
      random_fill(im->lv[m], n * 4);
      level_ext(im, m, e);
      origin_at(im, m, 0, 0, 0, o);
      CHECK_EQ_INT(clEnqueueWriteImage(q, im->mem, CL_FALSE, o, e, 0, 0, im->lv[m], 0, NULL,
                                       NULL),
                   CL_SUCCESS);
   }
   check_levels(im, "after writes");

   /* Fill level 1 from x = 1 on. */
   const float colour[4] = { 0.5f, -1.0f, 2.0f, 8.0f };
   level_ext(im, 1, e);
   origin_at(im, 1, 1, 0, 0, o);
   size_t r[3] = { e[0] - 1, e[1], e[2] };
   CHECK_EQ_INT(clEnqueueFillImage(q, im->mem, colour, o, r, 0, NULL, NULL), CL_SUCCESS);
   for (size_t i = 0; i < level_texels(im, 1); i++) {
      if (i % e[0] != 0)
         memcpy(&im->lv[1][i * 4], colour, sizeof colour);
   }
   check_levels(im, "after a fill");

   /* Copy level 2 into level 1 at the origin (image to itself, other levels). */
   size_t e2[3];
   level_ext(im, 2, e2);
   origin_at(im, 2, 0, 0, 0, o);
   origin_at(im, 1, 0, 0, 0, o2);
   CHECK_EQ_INT(clEnqueueCopyImage(q, im->mem, im->mem, o, o2, e2, 0, NULL, NULL), CL_SUCCESS);
   for (size_t z = 0; z < e2[2]; z++)
      for (size_t y = 0; y < e2[1]; y++)
         memcpy(&im->lv[1][((z * e[1] + y) * e[0]) * 4], &im->lv[2][((z * e2[1] + y) * e2[0]) * 4],
                e2[0] * 4 * sizeof(float));
   check_levels(im, "after a copy between levels");

   /* Buffer -> last level; level 1 -> buffer. */
   cl_uint last = im->levels - 1;
   size_t el[3], nl = level_texels(im, last), n1 = level_texels(im, 1);
   level_ext(im, last, el);
   random_fill(im->lv[last], nl * 4);
   cl_mem buf = test_cl_buffer(ctx, n1 * 16 + 64, NULL);
   CHECK_EQ_INT(clEnqueueWriteBuffer(q, buf, CL_TRUE, 64, nl * 16, im->lv[last], 0, NULL, NULL),
                CL_SUCCESS);
   origin_at(im, last, 0, 0, 0, o);
   CHECK_EQ_INT(clEnqueueCopyBufferToImage(q, buf, im->mem, 64, o, el, 0, NULL, NULL),
                CL_SUCCESS);
   origin_at(im, 1, 0, 0, 0, o);
   CHECK_EQ_INT(clEnqueueCopyImageToBuffer(q, im->mem, buf, o, e, 0, 0, NULL, NULL), CL_SUCCESS);
   float *got = malloc(n1 * 16);
   CHECK_EQ_INT(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, n1 * 16, got, 0, NULL, NULL),
                CL_SUCCESS);
   CHECK(!memcmp(got, im->lv[1], n1 * 16));
   free(got);
   clReleaseMemObject(buf);
   check_levels(im, "after buffer copies");

   /* Map level 1 for writing, rewrite every texel through the returned pitches. */
   origin_at(im, 1, 0, 0, 0, o);
   size_t rp = 0, sp = 0;
   cl_int err;
   char *p = clEnqueueMapImage(q, im->mem, CL_TRUE, CL_MAP_WRITE, o, e, &rp, &sp, 0, NULL, NULL,
                               &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   random_fill(im->lv[1], n1 * 4);
   bool one_d_array = im->type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
   for (size_t z = 0; p && z < e[2]; z++)
      for (size_t y = 0; y < e[1]; y++)
         memcpy(p + (one_d_array ? y * sp : y * rp + z * sp),
                &im->lv[1][((z * e[1] + y) * e[0]) * 4], e[0] * 16);
   if (p)
      CHECK_EQ_INT(clEnqueueUnmapMemObject(q, im->mem, p, 0, NULL, NULL), CL_SUCCESS);
   /* And map the last level for reading. */
   origin_at(im, last, 0, 0, 0, o);
   p = clEnqueueMapImage(q, im->mem, CL_TRUE, CL_MAP_READ, o, el, &rp, &sp, 0, NULL, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   size_t bad = 0;
   for (size_t z = 0; p && z < el[2]; z++)
      for (size_t y = 0; y < el[1]; y++)
         bad += memcmp(p + (one_d_array ? y * sp : y * rp + z * sp),
                       &im->lv[last][((z * el[1] + y) * el[0]) * 4], el[0] * 16) != 0;
   CHECK_EQ_INT(bad, 0);
   if (p)
      CHECK_EQ_INT(clEnqueueUnmapMemObject(q, im->mem, p, 0, NULL, NULL), CL_SUCCESS);
   check_levels(im, "after maps");
}

static cl_sampler
sampler(cl_filter_mode mip, float lod_min, float lod_max)
{
   union { cl_sampler_properties p; float f; } mn = { 0 }, mx = { 0 };
   mn.f = lod_min;
   mx.f = lod_max;
   cl_sampler_properties props[] = {
      CL_SAMPLER_NORMALIZED_COORDS, CL_TRUE, CL_SAMPLER_ADDRESSING_MODE,
      CL_ADDRESS_CLAMP_TO_EDGE, CL_SAMPLER_FILTER_MODE, CL_FILTER_NEAREST,
      CL_SAMPLER_MIP_FILTER_MODE_KHR, mip, CL_SAMPLER_LOD_MIN_KHR, mn.p,
      CL_SAMPLER_LOD_MAX_KHR, mx.p, 0,
   };
   cl_int err;
   cl_sampler s = clCreateSamplerWithProperties(ctx, props, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   return s;
}

/* Runs rd_<name> (or gd_2d when `grad`) at `lod` over level m's extent: out[4 * texels]. */
static void
kernel_read(const struct img *im, const char *kname, cl_sampler s, float lod, cl_uint m,
            float *out)
{
   char name[32];
   snprintf(name, sizeof name, "%s_%s", kname, im->name);
   cl_int err;
   cl_kernel k = clCreateKernel(prog, name, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   size_t e[3], n = level_texels(im, m);
   level_ext(im, m, e);
   cl_int4 ext = { { (cl_int)e[0], (cl_int)lsize(im->h, m), (cl_int)lsize(im->d, m), 0 } };
   cl_mem buf = test_cl_buffer(ctx, n * 16, NULL);
   clSetKernelArg(k, 0, sizeof im->mem, &im->mem);
   clSetKernelArg(k, 1, sizeof s, &s);
   clSetKernelArg(k, 2, sizeof lod, &lod);
   clSetKernelArg(k, 3, sizeof ext, &ext);
   clSetKernelArg(k, 4, sizeof buf, &buf);
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 3, NULL, e, NULL, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, n * 16, out, 0, NULL, NULL), CL_SUCCESS);
   clReleaseMemObject(buf);
   clReleaseKernel(k);
}

/* Texel (x, y, z) of level m's region coordinates at the normalized position of texel
 * (x, y, z) of level `from` (nearest filtering): the model's value. */
static const float *
model_at(const struct img *im, cl_uint m, cl_uint from, size_t x, size_t y, size_t z)
{
   size_t e[3], f[3];
   level_ext(im, m, e);
   level_ext(im, from, f);
   bool layers_y = im->type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
   bool layers_z = im->type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
   size_t mx = (size_t)floor((x + 0.5) / f[0] * e[0]);
   size_t my = layers_y ? y : (size_t)floor((y + 0.5) / f[1] * e[1]);
   size_t mz = layers_z ? z : (size_t)floor((z + 0.5) / f[2] * e[2]);
   return &im->lv[m][((mz * e[1] + my) * e[0] + mx) * 4];
}

/* Kernel reads of level `want` over level `from`'s grid at `lod`, against the model (or the
 * average of levels want and want + 1 when `blend`). */
static void
check_read(const struct img *im, const char *kname, cl_sampler s, float lod, cl_uint from,
           cl_uint want, bool blend, const char *what)
{
   size_t e[3], n = level_texels(im, from);
   level_ext(im, from, e);
   float *got = malloc(n * 16);
   kernel_read(im, kname, s, lod, from, got);
   size_t bad = 0;
   for (size_t z = 0, i = 0; z < e[2]; z++)
      for (size_t y = 0; y < e[1]; y++)
         for (size_t x = 0; x < e[0]; x++, i++) {
            const float *a = model_at(im, want, from, x, y, z);
            const float *b = blend ? model_at(im, want + 1, from, x, y, z) : a;
            for (int c = 0; c < 4; c++) {
               float exp = blend ? 0.5f * (a[c] + b[c]) : a[c];
               if (fabsf(got[i * 4 + c] - exp) > 1e-5f && bad++ < 3)
                  fprintf(stderr, "%s %s (lod %g over level %u): texel %zu,%zu,%zu.%d is %g, "
                          "expected %g (level %u)\n", im->name, what, lod, from, x, y, z, c,
                          got[i * 4 + c], exp, want);
            }
         }
   CHECK_EQ_INT(bad, 0);
   free(got);
}

static void
kernels(struct img *im)
{
   char name[32];
   cl_int err, levels = -1;
   snprintf(name, sizeof name, "lv_%s", im->name);
   cl_kernel k = clCreateKernel(prog, name, &err);
   cl_mem buf = test_cl_buffer(ctx, sizeof levels, NULL);
   clSetKernelArg(k, 0, sizeof im->mem, &im->mem);
   clSetKernelArg(k, 1, sizeof buf, &buf);
   size_t one = 1;
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, NULL, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof levels, &levels, 0, NULL, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(levels, im->levels);
   clReleaseMemObject(buf);
   clReleaseKernel(k);

   /* Every level at its LOD, over its own texel grid. */
   cl_sampler s = sampler(CL_FILTER_NEAREST, 0.0f, CL_MAXFLOAT);
   for (cl_uint m = 0; m < im->levels; m++)
      check_read(im, "rd", s, (float)m, m, m, false, "nearest");

   /* Kernel writes at level 1, read back by a transfer. */
   snprintf(name, sizeof name, "wr_%s", im->name);
   k = clCreateKernel(prog, name, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_int lod = 1;
   clSetKernelArg(k, 0, sizeof im->mem, &im->mem);
   clSetKernelArg(k, 1, sizeof lod, &lod);
   size_t e[3];
   level_ext(im, 1, e);
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 3, NULL, e, NULL, 0, NULL, NULL), CL_SUCCESS);
   clReleaseKernel(k);
   for (size_t z = 0, i = 0; z < e[2]; z++)
      for (size_t y = 0; y < e[1]; y++)
         for (size_t x = 0; x < e[0]; x++, i++) {
            float v = (float)(x + 16 * y + 256 * z + 4096 * 1);
            float t[4] = { v, v + 0.5f, -v, 0.25f };
            memcpy(&im->lv[1][i * 4], t, sizeof t);
         }
   check_levels(im, "after kernel writes at level 1");
   check_read(im, "rd", s, 1.0f, 1, 1, false, "nearest after writes");
   clReleaseSampler(s);
}

/* The 2D image: between levels, LOD rounding and clamping, the sampler's LOD range,
 * gradients. */
static void
lod_selection(const struct img *im)
{
   cl_sampler near = sampler(CL_FILTER_NEAREST, 0.0f, CL_MAXFLOAT);
   cl_sampler lin = sampler(CL_FILTER_LINEAR, 0.0f, CL_MAXFLOAT);
   cl_sampler range = sampler(CL_FILTER_NEAREST, 1.0f, 2.0f);
   cl_uint last = im->levels - 1;
   check_read(im, "rd", near, 1.4f, 1, 1, false, "nearest at 1.4");
   check_read(im, "rd", near, 1.6f, 1, 2, false, "nearest at 1.6");
   check_read(im, "rd", near, 40.0f, last, last, false, "nearest past the last level");
   for (cl_uint m = 0; m < last; m++)
      check_read(im, "rd", lin, m + 0.5f, m, m, true, "linear between levels");
   check_read(im, "rd", range, 0.0f, 0, 1, false, "LOD_MIN 1");
   check_read(im, "rd", range, 4.0f, 2, 2, false, "LOD_MAX 2");
   for (cl_uint m = 0; m < im->levels; m++)
      check_read(im, "gd", near, ldexpf(1.0f, (int)m) / (float)im->w, m, m, false, "gradients");
   /* A literal sampler (nearest texels) and a program-scope one (bilinear texels, read at
    * the level's texel centres): the nearest level, up to the last (LOD_MAX MAXFLOAT). */
   check_read(im, "rl", near, 1.4f, 1, 1, false, "literal sampler at 1.4");
   check_read(im, "rl", near, 1.6f, 1, 2, false, "literal sampler at 1.6");
   check_read(im, "rl", near, 40.0f, last, last, false, "literal sampler past the last level");
   check_read(im, "rp", near, 1.6f, 2, 2, false, "program-scope sampler at 1.6");
   check_read(im, "rp", near, 2.4f, 2, 2, false, "program-scope sampler at 2.4");
   cl_filter_mode got = 0;
   CHECK_EQ_INT(clGetSamplerInfo(lin, CL_SAMPLER_MIP_FILTER_MODE_KHR, sizeof got, &got, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(got, CL_FILTER_LINEAR);
   float lmax = 0;
   CHECK_EQ_INT(clGetSamplerInfo(range, CL_SAMPLER_LOD_MAX_KHR, sizeof lmax, &lmax, NULL),
                CL_SUCCESS);
   CHECK(lmax == 2.0f);
   clReleaseSampler(near);
   clReleaseSampler(lin);
   clReleaseSampler(range);
}

static void
errors(struct img *im)
{
   struct img t = *im;
   t.mem = NULL;
   CHECK_EQ_INT(create(&t, 6, NULL, 0), CL_INVALID_IMAGE_DESCRIPTOR); /* 16 wide: 5 at most */
   float host[16 * 8 * 4] = { 0 };
   CHECK_EQ_INT(create(&t, 2, host, CL_MEM_COPY_HOST_PTR), CL_INVALID_HOST_PTR);
   CHECK_EQ_INT(create(&t, 2, host, CL_MEM_USE_HOST_PTR), CL_INVALID_HOST_PTR);
   CHECK_EQ_INT(create(&t, 1, NULL, 0), CL_SUCCESS); /* 0 and 1: no mip levels */
   cl_uint n = 9;
   clGetImageInfo(t.mem, CL_IMAGE_NUM_MIP_LEVELS, sizeof n, &n, NULL);
   CHECK_EQ_INT(n, 1);
   clReleaseMemObject(t.mem);

   cl_image_format depth = { CL_DEPTH, CL_FLOAT };
   cl_image_desc dd = { .image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 16,
                        .image_height = 8, .num_mip_levels = 2 };
   cl_int err;
   CHECK(!clCreateImage(ctx, 0, &depth, &dd, NULL, &err));
   CHECK_EQ_INT(err, CL_INVALID_IMAGE_DESCRIPTOR);
   cl_mem b = test_cl_buffer(ctx, 4096, NULL);
   cl_image_format rgba = { CL_RGBA, CL_FLOAT };
   cl_image_desc bd = { .image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER, .image_width = 16,
                        .num_mip_levels = 2, .buffer = b };
   CHECK(!clCreateImage(ctx, 0, &rgba, &bd, NULL, &err));
   CHECK_EQ_INT(err, CL_INVALID_IMAGE_DESCRIPTOR);
   clReleaseMemObject(b);

   n = 0;
   CHECK_EQ_INT(clGetImageInfo(im->mem, CL_IMAGE_NUM_MIP_LEVELS, sizeof n, &n, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(n, im->levels);
   size_t o[4], e[3];
   float texels[16 * 8 * 4];
   origin_at(im, im->levels, 0, 0, 0, o);
   level_ext(im, 0, e);
   e[0] = e[1] = e[2] = 1;
   CHECK_EQ_INT(clEnqueueReadImage(q, im->mem, CL_TRUE, o, e, 0, 0, texels, 0, NULL, NULL),
                CL_INVALID_MIP_LEVEL);
   origin_at(im, 3, 0, 0, 0, o);
   level_ext(im, 2, e); /* level 2's extent does not fit level 3 */
   CHECK_EQ_INT(clEnqueueReadImage(q, im->mem, CL_TRUE, o, e, 0, 0, texels, 0, NULL, NULL),
                CL_INVALID_VALUE);
   /* No view (a 2D image made from a 2D image) of a mipmapped image, in an order the
    * specification pairs with the parent's. */
   cl_image_format rgba8 = { CL_RGBA, CL_UNORM_INT8 }, srgba8 = { CL_sRGBA, CL_UNORM_INT8 };
   cl_image_desc pd = { .image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = im->w,
                        .image_height = im->h, .num_mip_levels = 3 };
   cl_mem parent = clCreateImage(ctx, CL_MEM_READ_ONLY, &rgba8, &pd, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_image_desc vd = { .image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = im->w,
                        .image_height = im->h, .mem_object = parent };
   CHECK(!clCreateImage(ctx, 0, &srgba8, &vd, NULL, &err));
   CHECK_EQ_INT(err, CL_INVALID_IMAGE_DESCRIPTOR);
   clReleaseMemObject(parent);
}

/* `c` refuses a mipmapped 2D image (CL_INVALID_IMAGE_DESCRIPTOR) and makes one of a single
 * level. */
static void
mip_levels_refused(cl_context c)
{
   cl_int err;
   cl_image_format f = { CL_RGBA, CL_FLOAT };
   cl_image_desc d = { .image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 16,
                       .image_height = 8, .num_mip_levels = 2 };
   CHECK(!clCreateImage(c, 0, &f, &d, NULL, &err));
   CHECK_EQ_INT(err, CL_INVALID_IMAGE_DESCRIPTOR);
   d.num_mip_levels = 1;
   cl_mem one = clCreateImage(c, 0, &f, &d, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   clReleaseMemObject(one);
}

/* `mixed` (HSACL_SIM_GPUS=gfx906,gfx1030): a context of a gfx9 and a gfx10 device refuses
 * mipmapped images, whose one chain in memory cannot be both generations' layout, and still
 * makes images of one level. */
static int
mixed_context(void)
{
   cl_platform_id plat;
   cl_device_id devs[2];
   cl_uint n = 0;
   CHECK_EQ_INT(clGetPlatformIDs(1, &plat, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clGetDeviceIDs(plat, CL_DEVICE_TYPE_GPU, 2, devs, &n), CL_SUCCESS);
   CHECK_EQ_INT(n, 2);
   if (n != 2)
      return test_main_end();
   char a[64] = "", b[64] = "";
   clGetDeviceInfo(devs[0], CL_DEVICE_NAME, sizeof a, a, NULL);
   clGetDeviceInfo(devs[1], CL_DEVICE_NAME, sizeof b, b, NULL);
   CHECK(strncmp(a, "gfx9", 4) == 0 && strncmp(b, "gfx10", 5) == 0);
   CHECK(test_device_lists(devs[1], CL_DEVICE_EXTENSIONS, "cl_khr_mipmap_image"));
   cl_int err;
   cl_context mc = clCreateContext(NULL, 2, devs, NULL, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   mip_levels_refused(mc);
   clReleaseContext(mc);
   return test_main_end();
}

/* gfx90a (CDNA2) has images but not IMAGE_SAMPLE_D, which the extension's gradient reads
 * need (platform/plat_device_image.c): no cl_khr_mipmap_image, mipmapped images refused,
 * images of one level made. */
static int
no_mipmaps(void)
{
   CHECK(!test_device_lists(device, CL_DEVICE_EXTENSIONS, "cl_khr_mipmap_image"));
   CHECK(!test_device_lists(device, CL_DEVICE_EXTENSIONS, "cl_khr_mipmap_image_writes"));
   mip_levels_refused(ctx);
   clReleaseCommandQueue(q);
   clReleaseContext(ctx);
   return test_main_end();
}

int
main(int argc, char **argv)
{
   test_watchdog("api_mipmap_test", 240);
   if (argc > 1 && strcmp(argv[1], "mixed") == 0)
      return mixed_context();
   if (!test_cl_open(&device, &ctx, &q))
      return 1;
   char target[32];
   test_sim_target(target, sizeof(target));
   if (strcmp(target, "gfx90a") == 0)
      return no_mipmaps();
   CHECK(test_device_lists(device, CL_DEVICE_EXTENSIONS, "cl_khr_mipmap_image"));
   CHECK(test_device_lists(device, CL_DEVICE_EXTENSIONS, "cl_khr_mipmap_image_writes"));
   prog = test_cl_build(ctx, device, source, NULL, 0, "-cl-std=CL3.0");
   if (!prog)
      return test_main_end();
   struct img ims[] = {
      { "1d", CL_MEM_OBJECT_IMAGE1D, 16, 1, 1, 5 },
      { "1da", CL_MEM_OBJECT_IMAGE1D_ARRAY, 16, 1, 3, 4 },
      { "2d", CL_MEM_OBJECT_IMAGE2D, 16, 8, 1, 5 },
      { "2da", CL_MEM_OBJECT_IMAGE2D_ARRAY, 32, 4, 2, 4 }, /* gfx10: pitches 512, 256 */
      { "3d", CL_MEM_OBJECT_IMAGE3D, 8, 4, 4, 4 },
   };
   for (size_t i = 0; i < sizeof ims / sizeof *ims; i++) {
      struct img *im = &ims[i];
      CHECK_EQ_INT(create(im, im->levels, NULL, 0), CL_SUCCESS);
      if (!im->mem)
         continue;
      transfers(im);
      kernels(im);
      if (im->type == CL_MEM_OBJECT_IMAGE2D) {
         lod_selection(im);
         errors(im);
      }
      clReleaseMemObject(im->mem);
      for (cl_uint m = 0; m < im->levels; m++)
         free(im->lv[m]);
   }
   clReleaseProgram(prog);
   clReleaseCommandQueue(q);
   clReleaseContext(ctx);
   return test_main_end();
}
