/*
 * tests/diff/diff_images_sample.c — the host's reference for image reads (texel decoding,
 * OpenCL's missing-component and border rules) and for sampling (NEAREST and LINEAR with
 * every addressing mode, the OpenCL C specification's formulas), and the `sample` group.
 * diff_images.c's top comment says what is tested and how.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diff_images.h"


struct samp {
   cl_bool norm;
   cl_addressing_mode addr;
   cl_filter_mode filter;
   const char *name;
};

static const struct samp samplers[] = {
   { CL_FALSE, CL_ADDRESS_NONE, CL_FILTER_NEAREST, "unnorm_NONE_NEAREST" },
   { CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST, "unnorm_CLAMP_TO_EDGE_NEAREST" },
   { CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, "unnorm_CLAMP_NEAREST" },
   { CL_TRUE, CL_ADDRESS_NONE, CL_FILTER_NEAREST, "norm_NONE_NEAREST" },
   { CL_TRUE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST, "norm_CLAMP_TO_EDGE_NEAREST" },
   { CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, "norm_CLAMP_NEAREST" },
   { CL_TRUE, CL_ADDRESS_REPEAT, CL_FILTER_NEAREST, "norm_REPEAT_NEAREST" },
   { CL_TRUE, CL_ADDRESS_MIRRORED_REPEAT, CL_FILTER_NEAREST, "norm_MIRRORED_REPEAT_NEAREST" },
   { CL_FALSE, CL_ADDRESS_NONE, CL_FILTER_LINEAR, "unnorm_NONE_LINEAR" },
   { CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR, "unnorm_CLAMP_TO_EDGE_LINEAR" },
   { CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_LINEAR, "unnorm_CLAMP_LINEAR" },
   { CL_TRUE, CL_ADDRESS_NONE, CL_FILTER_LINEAR, "norm_NONE_LINEAR" },
   { CL_TRUE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR, "norm_CLAMP_TO_EDGE_LINEAR" },
   { CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_LINEAR, "norm_CLAMP_LINEAR" },
   { CL_TRUE, CL_ADDRESS_REPEAT, CL_FILTER_LINEAR, "norm_REPEAT_LINEAR" },
   { CL_TRUE, CL_ADDRESS_MIRRORED_REPEAT, CL_FILTER_LINEAR, "norm_MIRRORED_REPEAT_LINEAR" },
};
#define NSAMPLERS (sizeof(samplers) / sizeof(samplers[0]))


/* The float a normalized code reads as (exact), per channel data type. */
static double
unit(cl_channel_type dt, int64_t c)
{
   switch (dt) {
   case CL_UNORM_INT8: return c / 255.0;
   case CL_UNORM_INT16: return c / 65535.0;
   case CL_SNORM_INT8: return fmax(c / 127.0, -1.0);
   case CL_SNORM_INT16: return fmax(c / 32767.0, -1.0);
   default: return (double)c;
   }
}

/*
 * What read_image{f,i,ui} returns for the texel at p (OpenCL: missing components 0, alpha
 * 1; INTENSITY replicated to all four, LUMINANCE to r, g, b), exactly. 0 for formats the
 * host does not decode (sRGB, depth).
 */
int
decode_texel(const struct fmt *f, const unsigned char *p, double out[4])
{
   cl_channel_type dt = f->f.image_channel_data_type;
   cl_channel_order o = f->f.image_channel_order;
   double t[4] = { 0, 0, 0, 0 };
   int map[4], n = order_map(o, map);
   if (!n || is_srgb(f) || o == CL_DEPTH)
      return 0;
   if (dt == CL_UNORM_SHORT_565 || dt == CL_UNORM_SHORT_555 || dt == CL_UNORM_INT_101010) {
      uint32_t v = 0;
      memcpy(&v, p, f->esz);
      if (dt == CL_UNORM_SHORT_565) {
         t[0] = (v >> 11 & 31) / 31.0, t[1] = (v >> 5 & 63) / 63.0, t[2] = (v & 31) / 31.0;
      } else if (dt == CL_UNORM_SHORT_555) {
         t[0] = (v >> 10 & 31) / 31.0, t[1] = (v >> 5 & 31) / 31.0, t[2] = (v & 31) / 31.0;
      } else {
         t[0] = (v >> 20 & 1023) / 1023.0, t[1] = (v >> 10 & 1023) / 1023.0;
         t[2] = (v & 1023) / 1023.0;
      }
   } else {
      for (int i = 0; i < n; i++) {
         const unsigned char *c = p + i * f->csz;
         switch (dt) {
         case CL_SNORM_INT8: case CL_SIGNED_INT8: t[i] = unit(dt, *(const int8_t *)c); break;
         case CL_UNORM_INT8: case CL_UNSIGNED_INT8: t[i] = unit(dt, *c); break;
         case CL_SNORM_INT16: case CL_SIGNED_INT16: {
            int16_t v;
            memcpy(&v, c, 2);
            t[i] = unit(dt, v);
            break;
         }
         case CL_UNORM_INT16: case CL_UNSIGNED_INT16: {
            uint16_t v;
            memcpy(&v, c, 2);
            t[i] = unit(dt, v);
            break;
         }
         case CL_SIGNED_INT32: {
            int32_t v;
            memcpy(&v, c, 4);
            t[i] = v;
            break;
         }
         case CL_UNSIGNED_INT32: {
            uint32_t v;
            memcpy(&v, c, 4);
            t[i] = v;
            break;
         }
         case CL_HALF_FLOAT: {
            uint16_t v;
            memcpy(&v, c, 2);
            t[i] = half_to_float(v);
            break;
         }
         case CL_FLOAT: {
            float v;
            memcpy(&v, c, 4);
            t[i] = v;
            break;
         }
         default: return 0;
         }
      }
   }
   out[0] = out[1] = out[2] = 0;
   out[3] = 1;
   if (o == CL_INTENSITY) {
      out[0] = out[1] = out[2] = out[3] = t[0];
   } else if (o == CL_LUMINANCE) {
      out[0] = out[1] = out[2] = t[0];
   } else {
      for (int i = 0; i < n; i++)
         out[map[i]] = t[i];
   }
   return 1;
}

/* CL_ADDRESS_CLAMP's border: (0, 0, 0, 0) for orders with alpha, (0, 0, 0, 1) without. */
void
border_color(const struct fmt *f, double out[4])
{
   cl_channel_order o = f->f.image_channel_order;
   int alpha = o == CL_A || o == CL_RA || o == CL_RGBA || o == CL_BGRA || o == CL_ARGB ||
               o == CL_ABGR || o == CL_INTENSITY || o == CL_sRGBA || o == CL_sBGRA;
   out[0] = out[1] = out[2] = 0;
   out[3] = alpha ? 0 : 1;
}

/* ULPs of float between got and the exact value want. */
static double
ulps_from(float got, double want)
{
   if (isnan(got) || isnan(want))
      return isnan(got) && isnan(want) ? 0 : INFINITY;
   double m = fmax(fabs(want), FLT_MIN);
   return fabs((double)got - want) / ldexp(1.0, ilogb(m) - 23);
}

/*
 * vec4 results of reads (n texels) against the host's exact values: integers and HALF and
 * FLOAT exactly, normalized formats within the 1.5 ULP the specification allows.
 */
size_t
check_reads(const struct fmt *f, const void *got, const double *want, size_t n, char *msg,
            size_t msglen)
{
   size_t bad = 0;
   for (size_t i = 0; i < n * 4; i++) {
      int ok;
      double g;
      if (f->kind == K_INT)
         g = ((const int32_t *)got)[i], ok = g == want[i];
      else if (f->kind == K_UINT)
         g = ((const uint32_t *)got)[i], ok = g == want[i];
      else {
         g = ((const float *)got)[i];
         ok = ulps_from((float)g, want[i]) <= (is_normalized(f) ? 1.5 : 0);
      }
      if (!ok && bad++ == 0)
         snprintf(msg, msglen, "value %zu channel %zu: %.9g, expected %.9g", i / 4, i % 4, g,
                  want[i]);
   }
   return bad;
}

/* ---------------------------------------------------------------------------------------- */
/* The host's sampler                                                                        */

/* One axis of NEAREST addressing (OpenCL C, "Addressing and filter modes"): the texel
   index, or -1 for the border. */
static long
nearest_index(const struct samp *s, double c, long n)
{
   double u;
   long i;
   switch (s->addr) {
   case CL_ADDRESS_REPEAT:
      u = (c - floor(c)) * n;
      i = (long)floor(u);
      return i > n - 1 ? i - n : i;
   case CL_ADDRESS_MIRRORED_REPEAT:
      u = fabs(c - 2.0 * rint(0.5 * c)) * n;
      i = (long)floor(u);
      return i < n - 1 ? i : n - 1;
   default:
      u = s->norm ? c * n : c;
      i = (long)floor(u);
      if (s->addr == CL_ADDRESS_CLAMP_TO_EDGE)
         return i < 0 ? 0 : i > n - 1 ? n - 1 : i;
      return i < 0 || i > n - 1 ? -1 : i; /* CLAMP; NONE stays inside by construction */
   }
}

/* One axis of LINEAR addressing: the two texel indices (-1: border) and the weight a of
   the second. */
static void
linear_index(const struct samp *s, double c, long n, long *i0, long *i1, double *a)
{
   double u;
   switch (s->addr) {
   case CL_ADDRESS_REPEAT:
      u = (c - floor(c)) * n;
      *i0 = (long)floor(u - 0.5);
      *i1 = *i0 + 1;
      if (*i0 < 0)
         *i0 += n;
      if (*i1 > n - 1)
         *i1 -= n;
      break;
   case CL_ADDRESS_MIRRORED_REPEAT:
      u = fabs(c - 2.0 * rint(0.5 * c)) * n;
      *i0 = (long)floor(u - 0.5);
      *i1 = *i0 + 1;
      *i0 = *i0 < 0 ? 0 : *i0;
      *i1 = *i1 > n - 1 ? n - 1 : *i1;
      break;
   default:
      u = s->norm ? c * n : c;
      *i0 = (long)floor(u - 0.5);
      *i1 = *i0 + 1;
      if (s->addr == CL_ADDRESS_CLAMP_TO_EDGE) {
         *i0 = *i0 < 0 ? 0 : *i0 > n - 1 ? n - 1 : *i0;
         *i1 = *i1 < 0 ? 0 : *i1 > n - 1 ? n - 1 : *i1;
      } else {
         *i0 = *i0 < 0 || *i0 > n - 1 ? -1 : *i0;
         *i1 = *i1 < 0 || *i1 > n - 1 ? -1 : *i1;
      }
      break;
   }
   *a = (u - 0.5) - floor(u - 0.5);
}

/*
 * The host's read_image{f,i,ui}(img, sampler, coord) on image type t: the exact result in
 * out and, per channel, the largest magnitude among the texels it blends (the CTS's
 * "maxPixel") in maxpix.
 */
static void
host_sample(const struct imgtype *t, const struct fmt *f, const struct samp *s,
            const unsigned char *data, const float *coord, double out[4], double maxpix[4])
{
   int is1da = t->type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
   int is2da = t->type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
   long n[3] = { (long)t->w, (long)t->h, (long)t->d };
   int dims = t->type == CL_MEM_OBJECT_IMAGE1D || is1da ? 1 : t->type == CL_MEM_OBJECT_IMAGE3D ? 3 : 2;
   long idx[3][2] = { { 0, 0 }, { 0, 0 }, { 0, 0 } };
   double w[3] = { 0, 0, 0 };
   for (int a = 0; a < dims; a++) {
      if (s->filter == CL_FILTER_NEAREST)
         idx[a][0] = idx[a][1] = nearest_index(s, coord[a], n[a]);
      else
         linear_index(s, coord[a], n[a], &idx[a][0], &idx[a][1], &w[a]);
   }
   /* Arrays: the layer is clamp(rint(c), 0, layers - 1), whatever the sampler. */
   if (is1da || is2da) {
      int la = is1da ? 1 : 2;
      double l = rint(coord[la]);
      long layers = n[la];
      idx[la][0] = idx[la][1] = l < 0 ? 0 : l > layers - 1 ? layers - 1 : (long)l;
   }
   double bc[4];
   border_color(f, bc);
   for (int c = 0; c < 4; c++)
      out[c] = maxpix[c] = 0;
   for (int k = 0; k < 8; k++) {
      int bx = k & 1, by = k >> 1 & 1, bz = k >> 2 & 1;
      double wk = (bx ? w[0] : 1 - w[0]) * (by ? w[1] : 1 - w[1]) * (bz ? w[2] : 1 - w[2]);
      if (wk == 0)
         continue;
      long x = idx[0][bx], y = idx[1][by], z = idx[2][bz];
      double v[4];
      if (x < 0 || y < 0 || z < 0)
         memcpy(v, bc, sizeof(v));
      else
         decode_texel(f, data + (((size_t)z * t->h + y) * t->w + x) * f->esz, v);
      for (int c = 0; c < 4; c++) {
         out[c] += wk * v[c];
         maxpix[c] = fmax(maxpix[c], fabs(v[c]));
      }
   }
}

/*
 * One coordinate along an axis of `size` texels: NEAREST at least 0.2 texel from a texel
 * edge; inside the image for ADDRESS_NONE (for LINEAR, between the first and the last
 * texel centres: outside, the result is undefined); up to half the size outside otherwise.
 * Arrays' layer coordinates (`layer`) are unnormalized and rounded to the nearest layer.
 */
static float
coordinate(const struct samp *s, size_t size, int layer, uint64_t *rs)
{
   double u = uniform(rs), p;
   if (layer) {
      /* the layer index is rint(c) clamped: keep off the .5 ties */
      return (float)((double)(long)(u * (size + 2)) - 1 + (uniform(rs) - 0.5) * 0.6);
   }
   if (s->filter == CL_FILTER_NEAREST) {
      double lo = s->addr == CL_ADDRESS_NONE ? 0 : -(double)(size / 2);
      double hi = s->addr == CL_ADDRESS_NONE ? size : size + size / 2.0;
      p = floor(lo + u * (hi - lo)) + 0.2 + 0.6 * uniform(rs);
   } else if (s->addr == CL_ADDRESS_NONE) {
      p = 0.5 + u * (size - 1.0);
   } else {
      p = -(double)size / 2 + u * 2.0 * size;
   }
   return (float)(s->norm ? p / size : p);
}

static int
sample_on(struct dev *d, const struct imgtype *t, const struct fmt *f, const struct samp *s,
          const void *data, const float *coords, float *out, char *msg, size_t msglen)
{
   int ret = -1;
   cl_int err;
   char src[1024];
   cl_kernel k = NULL;
   cl_sampler smp = NULL;
   cl_mem img = NULL, ibuf = NULL, cbuf = NULL, obuf = NULL;
   size_t origin0[3] = { 0, 0, 0 }, whole[3] = { t->w, t->h, t->d };
   snprintf(src, sizeof(src),
            "kernel void k(read_only %s img, sampler_t smp, global const float4 *coord,\n"
            "              global %s *out)\n{\n"
            "   size_t i = get_global_id(0);\n"
            "   float4 c = coord[i];\n"
            "   out[i] = read_image%s(img, smp, %s);\n}\n",
            t->cl_type, vec4(f), suffix(f), t->fcoord);
   k = build(d, src, msg, msglen);
   if (!k)
      goto out;
   img = make_image(d, t, f, CL_MEM_READ_ONLY, &ibuf, &err);
   CHECK(err, "clCreateImage");
   CHECK(clEnqueueWriteImage(d->q, img, CL_TRUE, origin0, whole, 0, 0, data, 0, NULL, NULL),
         "clEnqueueWriteImage");
   smp = clCreateSampler(d->ctx, s->norm, s->addr, s->filter, &err);
   CHECK(err, "clCreateSampler");
   cbuf = clCreateBuffer(d->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, NSAMPLES * 16,
                         (void *)coords, &err);
   CHECK(err, "clCreateBuffer");
   obuf = clCreateBuffer(d->ctx, CL_MEM_WRITE_ONLY, NSAMPLES * 16, NULL, &err);
   CHECK(err, "clCreateBuffer");
   CHECK(clSetKernelArg(k, 0, sizeof(cl_mem), &img), "clSetKernelArg");
   CHECK(clSetKernelArg(k, 1, sizeof(cl_sampler), &smp), "clSetKernelArg (sampler)");
   CHECK(clSetKernelArg(k, 2, sizeof(cl_mem), &cbuf), "clSetKernelArg");
   CHECK(clSetKernelArg(k, 3, sizeof(cl_mem), &obuf), "clSetKernelArg");
   size_t global = NSAMPLES;
   CHECK(clEnqueueNDRangeKernel(d->q, k, 1, NULL, &global, NULL, 0, NULL, NULL),
         "clEnqueueNDRangeKernel");
   memset(out, 0xCD, NSAMPLES * 16);
   CHECK(clEnqueueReadBuffer(d->q, obuf, CL_TRUE, 0, NSAMPLES * 16, out, 0, NULL, NULL),
         "clEnqueueReadBuffer");
   ret = 0;
out:
   release_image(img, ibuf);
   if (smp)
      clReleaseSampler(smp);
   if (cbuf)
      clReleaseMemObject(cbuf);
   if (obuf)
      clReleaseMemObject(obuf);
   return ret;
}

/* The largest channel magnitude the image holds, as a read returns it (at least 1: border
   and missing alpha). */
/* One step of the format (the CTS's get_max_absolute_error for LINEAR). */
static double
format_step(const struct fmt *f)
{
   switch (f->f.image_channel_data_type) {
   case CL_SNORM_INT8: return 1.0 / 127;
   case CL_UNORM_INT8: return 1.0 / 255;
   case CL_UNORM_INT16: return 1.0 / 65535;
   case CL_SNORM_INT16: return 1.0 / 32767;
   case CL_FLOAT: return FLT_MIN;
   default: return 0;
   }
}


/*
 * Sampled results against the host: NEAREST like reads (check_reads); LINEAR within the
 * CTS's bound, max((2^-7 + 2 FLT_EPSILON) * maxPixel, FLT_MIN), an error below one step of
 * the format always passing (imageHelpers.cpp get_max_relative_error,
 * get_max_absolute_error; kernel_read_write/test_iterations.cpp).
 */
static size_t
check_samples(const struct fmt *f, const struct samp *s, const float *got, const double *want,
              const double *maxpix, const float *coords, double *worst, char *msg,
              size_t msglen)
{
   if (s->filter == CL_FILTER_NEAREST)
      return check_reads(f, got, want, NSAMPLES, msg, msglen);
   size_t bad = 0;
   double step = format_step(f), rel = 0x1.0p-7 + 2 * (double)FLT_EPSILON;
   for (size_t j = 0; j < NSAMPLES * 4; j++) {
      double e = fabs((double)got[j] - want[j]);
      double tol = fmax(rel * maxpix[j], FLT_MIN);
      if (isnan(got[j]))
         e = INFINITY;
      *worst = fmax(*worst, e);
      if (!(e <= tol) && !(e < step) && bad++ == 0)
         snprintf(msg, msglen, "sample %zu (%g, %g, %g) channel %zu: %.7g, host %.7g "
                  "(error %.3g > %.3g)", j / 4, coords[j / 4 * 4], coords[j / 4 * 4 + 1],
                  coords[j / 4 * 4 + 2], j % 4, got[j], want[j], e, fmax(tol, step));
   }
   return bad;
}

void
group_sample(struct dev *hs, struct dev *pocl)
{
   for (unsigned ti = 0; ti < NTYPES; ti++) {
      const struct imgtype *t = &imgtypes[ti];
      if (!t->fcoord)
         continue; /* 1D buffer images take no sampler */
      for (cl_uint i = 0; i < hs->nformats[ti][0]; i++) {
         struct fmt f;
         int known = fmt_describe(hs->formats[ti][0][i], &f);
         cl_channel_order o = f.f.image_channel_order;
         /* Every format on 2D images; R and RGBA on the others. */
         if (strcmp(t->name, "2d") && o != CL_R && o != CL_RGBA)
            continue;
         size_t n = texels(t);
         for (unsigned si = 0; si < NSAMPLERS; si++) {
            const struct samp *s = &samplers[si];
            char name[200], msg[512] = "", pmsg[512] = "";
            double v[4];
            snprintf(name, sizeof(name), "sample/%s/%s/%s", t->name, f.name, s->name);
            if (!selected(name))
               continue;
            if (f.kind != K_FLOAT && s->filter == CL_FILTER_LINEAR)
               continue; /* integer formats: NEAREST only (OpenCL C read_imagei/ui) */
            unsigned char *data = malloc(n * f.esz);
            fill_texels(&f, data, n, seed_of(name, 0));
            if (!known || !decode_texel(&f, data, v)) {
               not_run(name, !known ? "a format this test does not know"
                                    : "depth and sRGB images: not in this test");
               free(data);
               continue;
            }
            float *coords = malloc(NSAMPLES * 16), *oh = malloc(NSAMPLES * 16),
                  *op = malloc(NSAMPLES * 16);
            double *want = malloc(NSAMPLES * 4 * sizeof(double)),
                   *maxpix = malloc(NSAMPLES * 4 * sizeof(double));
            uint64_t rs = seed_of(name, 1);
            for (size_t j = 0; j < NSAMPLES; j++) {
               float *c = coords + 4 * j;
               c[0] = coordinate(s, t->w, 0, &rs);
               c[1] = t->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? coordinate(s, t->h, 1, &rs)
                      : t->h > 1                            ? coordinate(s, t->h, 0, &rs)
                                                            : 0;
               c[2] = t->type == CL_MEM_OBJECT_IMAGE2D_ARRAY ? coordinate(s, t->d, 1, &rs)
                      : t->d > 1                             ? coordinate(s, t->d, 0, &rs)
                                                             : 0;
               c[3] = 0;
               host_sample(t, &f, s, data, c, want + 4 * j, maxpix + 4 * j);
            }
            if (sample_on(hs, t, &f, s, data, coords, oh, msg, sizeof(msg))) {
               report(name, msg, NULL);
            } else {
               double worst = 0, pworst = 0;
               size_t bad = check_samples(&f, s, oh, want, maxpix, coords, &worst, msg,
                                          sizeof(msg));
               /* PoCL on the same inputs: whether another implementation agrees. */
               const char *pnote = "PoCL does not list the format";
               if (lists(pocl, ti, 0, f.f)) {
                  if (sample_on(pocl, t, &f, s, data, coords, op, pmsg, sizeof(pmsg)))
                     pnote = "PoCL fails to run it";
                  else if (check_samples(&f, s, op, want, maxpix, coords, &pworst, pmsg,
                                         sizeof(pmsg)))
                     pnote = pmsg;
                  else
                     pnote = "PoCL agrees";
               }
               char m2[800], detail[700];
               snprintf(m2, sizeof(m2), "%zu values differ from the host's; first: %s", bad,
                        msg);
               if (s->filter == CL_FILTER_LINEAR)
                  snprintf(detail, sizeof(detail), "(against the host, largest error %.3g; "
                           "%s%s)", worst, strcmp(pnote, pmsg) ? "" : "PoCL differs: ", pnote);
               else
                  snprintf(detail, sizeof(detail), "(against the host; %s%s)",
                           strcmp(pnote, pmsg) ? "" : "PoCL differs: ", pnote);
               report(name, bad ? m2 : NULL, detail);
            }
            free(data);
            free(coords);
            free(oh);
            free(op);
            free(want);
            free(maxpix);
         }
      }
   }
}
