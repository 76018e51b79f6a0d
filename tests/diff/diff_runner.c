/*
 * tests/diff/diff_runner.c — runs the kernels of one group of the differential corpus
 * (diff_corpus.c) on hsacl and on PoCL, through the system ICD loader that must see both
 * (OCL_ICD_VENDORS pointing at a folder with both .icd files), and compares the outputs.
 *
 * usage: diff_runner GROUP [KERNEL]
 * Prints one line per kernel (PASS, FAIL with the first differing elements, KNOWN FAILURE
 * with the reason, or NOT RUN with why) and "N passed, N failed"; exit status 1 on any
 * FAIL. A device that lacks an extension a kernel requires does not run it (NOT RUN), which
 * is not a failure: the device is honest about what it supports.
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "diff.h"

struct dev {
   const char *label;
   cl_device_id id;
   cl_context ctx;
   cl_command_queue q;
   char extensions[4096];
};

/* One run of a kernel on one device: every buffer argument's contents after the launch. */
struct run {
   int ran;            /* 1 ran, 0 not run (why[] says why), -1 error (why[] says what) */
   char why[512];
   void *bufs[DIFF_MAX_ARGS];
};

static size_t
type_size(enum diff_type t)
{
   static const size_t sizes[] = { 1, 1, 2, 2, 4, 4, 8, 8, 4, 8 };
   return sizes[t];
}

static int
type_is_float(enum diff_type t)
{
   return t == T_F32 || t == T_F64;
}

static size_t
arg_count(const struct diff_kernel *k, const struct diff_arg *a)
{
   if (a->count)
      return a->count;
   size_t n = 1;
   for (unsigned d = 0; d < k->dim; d++)
      n *= k->global[d] + k->offset[d];
   return n;
}

/* xorshift64*, seeded per kernel and argument: the same data on every device and run. */
static uint64_t
rng_next(uint64_t *s)
{
   *s ^= *s >> 12;
   *s ^= *s << 25;
   *s ^= *s >> 27;
   return *s * 2685821657736338717ull;
}

static uint64_t
seed_of(const char *name, unsigned arg)
{
   uint64_t h = 1469598103934665603ull;
   for (const char *p = name; *p; p++)
      h = (h ^ (unsigned char)*p) * 1099511628211ull;
   h ^= (uint64_t)(arg + 1) * 0x9e3779b97f4a7c15ull;
   return h ? h : 1;
}

static void
store(void *buf, enum diff_type t, size_t i, int64_t iv, double fv, uint64_t bits, int raw)
{
   char *p = (char *)buf + i * type_size(t);
   if (raw) {
      memcpy(p, &bits, type_size(t));
      return;
   }
   switch (t) {
   case T_I8: case T_U8: { int8_t v = (int8_t)iv; memcpy(p, &v, 1); break; }
   case T_I16: case T_U16: { int16_t v = (int16_t)iv; memcpy(p, &v, 2); break; }
   case T_I32: case T_U32: { int32_t v = (int32_t)iv; memcpy(p, &v, 4); break; }
   case T_I64: case T_U64: memcpy(p, &iv, 8); break;
   case T_F32: { float v = (float)fv; memcpy(p, &v, 4); break; }
   case T_F64: memcpy(p, &fv, 8); break;
   }
}

static double
special_float(uint64_t r, const struct diff_arg *a)
{
   static const double specials[] = { 0.0, -0.0, INFINITY, -INFINITY, NAN, 1e-40, -1e-42,
                                      3.0e38, -3.0e38, 1e-30, 1.0, -1.0, 0.5, 2.0 };
   return specials[r % (sizeof(specials) / sizeof(specials[0]))];
}

/* Fills an input buffer of count elements as the argument's generator says. */
static void
generate(const struct diff_kernel *k, unsigned index, void *buf, size_t count)
{
   const struct diff_arg *a = &k->args[index];
   uint64_t s = seed_of(k->name, index);
   for (size_t i = 0; i < count; i++) {
      uint64_t r = rng_next(&s);
      double u = (double)(r >> 11) / 9007199254740992.0; /* [0, 1) */
      switch (a->gen) {
      case G_BITS:
         store(buf, a->type, i, 0, 0, r, 1);
         break;
      case G_INDEX:
         store(buf, a->type, i, (int64_t)i, (double)i, 0, 0);
         break;
      case G_SPECIAL:
         if (r % 4 == 0) {
            store(buf, a->type, i, 0, special_float(r >> 8, a), 0, 0);
            break;
         }
         /* fall through */
      case G_RANGE:
      case G_NONZERO:
         if (type_is_float(a->type)) {
            double v = a->lo + u * (a->hi - a->lo);
            if (a->gen == G_NONZERO && v == 0)
               v = a->hi;
            store(buf, a->type, i, 0, v, 0, 0);
         } else {
            uint64_t span = (uint64_t)((int64_t)a->hi - (int64_t)a->lo) + 1;
            int64_t v = (int64_t)a->lo + (int64_t)(span ? r % span : r);
            if (a->gen == G_NONZERO && v == 0)
               v = 1;
            store(buf, a->type, i, v, 0, 0, 0);
         }
         break;
      }
   }
}

static int
has_extension(const struct dev *d, const char *ext)
{
   size_t n = strlen(ext);
   for (const char *p = d->extensions; (p = strstr(p, ext)) != NULL; p += n)
      if ((p == d->extensions || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
         return 1;
   return 0;
}

/* The first device of the platform named `platform_name`; 0 if there is none. */
static int
open_device(struct dev *d, const char *platform_name, const char *label)
{
   cl_platform_id platforms[16];
   cl_uint count = 0;
   cl_int err;
   d->label = label;
   if (clGetPlatformIDs(16, platforms, &count) != CL_SUCCESS)
      return 0;
   for (cl_uint i = 0; i < count && i < 16; i++) {
      char name[128] = "";
      clGetPlatformInfo(platforms[i], CL_PLATFORM_NAME, sizeof(name), name, NULL);
      if (strcmp(name, platform_name) != 0 ||
          clGetDeviceIDs(platforms[i], CL_DEVICE_TYPE_ALL, 1, &d->id, NULL) != CL_SUCCESS)
         continue;
      d->ctx = clCreateContext(NULL, 1, &d->id, NULL, NULL, &err);
      if (err != CL_SUCCESS)
         return 0;
      d->q = clCreateCommandQueue(d->ctx, d->id, 0, &err);
      if (err != CL_SUCCESS)
         return 0;
      clGetDeviceInfo(d->id, CL_DEVICE_EXTENSIONS, sizeof(d->extensions), d->extensions,
                      NULL);
      char dn[256] = "", dv[256] = "";
      clGetDeviceInfo(d->id, CL_DEVICE_NAME, sizeof(dn), dn, NULL);
      clGetDeviceInfo(d->id, CL_DRIVER_VERSION, sizeof(dv), dv, NULL);
      printf("%s: %s / %s, driver %s\n", label, name, dn, dv);
      return 1;
   }
   return 0;
}

static void
run_free(struct run *r)
{
   for (unsigned i = 0; i < DIFF_MAX_ARGS; i++)
      free(r->bufs[i]);
   memset(r, 0, sizeof(*r));
}

/* Runs k on d with the generated inputs; fills r (ran, why, bufs). */
static void
run_kernel(const struct diff_kernel *k, struct dev *d, int is_hsacl, struct run *r)
{
   cl_int err;
   cl_mem mems[DIFF_MAX_ARGS] = { 0 };
   cl_program prog = NULL;
   cl_kernel kern = NULL;
   memset(r, 0, sizeof(*r));
   if (k->requires && !has_extension(d, k->requires)) {
      snprintf(r->why, sizeof(r->why), "device does not list %s", k->requires);
      return;
   }
   const char *options = is_hsacl && k->hsacl_options ? k->hsacl_options : k->options;
   const char *src = k->source;
   prog = clCreateProgramWithSource(d->ctx, 1, &src, NULL, &err);
   if (err == CL_SUCCESS)
      err = clBuildProgram(prog, 1, &d->id, options, NULL, NULL);
   if (err != CL_SUCCESS) {
      char log[2048] = "";
      if (prog)
         clGetProgramBuildInfo(prog, d->id, CL_PROGRAM_BUILD_LOG, sizeof(log), log, NULL);
      snprintf(r->why, sizeof(r->why), "build failed (%d): %.400s", err, log);
      r->ran = -1;
      goto out;
   }
   kern = clCreateKernel(prog, k->name, &err);
   if (err != CL_SUCCESS) {
      snprintf(r->why, sizeof(r->why), "clCreateKernel: %d", err);
      r->ran = -1;
      goto out;
   }
   for (unsigned i = 0; i < DIFF_MAX_ARGS && k->args[i].role != A_END; i++) {
      const struct diff_arg *a = &k->args[i];
      size_t n = arg_count(k, a), bytes = n * type_size(a->type);
      switch (a->role) {
      case A_IN:
      case A_INOUT:
      case A_OUT:
         r->bufs[i] = malloc(bytes);
         if (a->role == A_OUT)
            memset(r->bufs[i], 0xCD, bytes);
         else
            generate(k, i, r->bufs[i], n);
         mems[i] = clCreateBuffer(d->ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes,
                                  r->bufs[i], &err);
         if (err == CL_SUCCESS)
            err = clSetKernelArg(kern, i, sizeof(cl_mem), &mems[i]);
         break;
      case A_SCALAR: {
         uint64_t raw = 0;
         store(&raw, a->type, 0, a->i, a->f, 0, 0);
         err = clSetKernelArg(kern, i, type_size(a->type), &raw);
         break;
      }
      case A_LOCAL:
         err = clSetKernelArg(kern, i, bytes, NULL);
         break;
      case A_END:
         break;
      }
      if (err != CL_SUCCESS) {
         snprintf(r->why, sizeof(r->why), "argument %u: %d", i, err);
         r->ran = -1;
         goto out;
      }
   }
   int have_local = k->local[0] != 0;
   int have_offset = k->offset[0] || k->offset[1] || k->offset[2];
   err = clEnqueueNDRangeKernel(d->q, kern, k->dim, have_offset ? k->offset : NULL, k->global,
                                have_local ? k->local : NULL, 0, NULL, NULL);
   for (unsigned i = 0; err == CL_SUCCESS && i < DIFF_MAX_ARGS; i++)
      if (mems[i] && k->args[i].role != A_IN)
         err = clEnqueueReadBuffer(d->q, mems[i], CL_FALSE, 0,
                                   arg_count(k, &k->args[i]) * type_size(k->args[i].type),
                                   r->bufs[i], 0, NULL, NULL);
   if (err == CL_SUCCESS)
      err = clFinish(d->q);
   if (err != CL_SUCCESS) {
      snprintf(r->why, sizeof(r->why), "launch or read: %d", err);
      r->ran = -1;
      goto out;
   }
   r->ran = 1;
out:
   for (unsigned i = 0; i < DIFF_MAX_ARGS; i++)
      if (mems[i])
         clReleaseMemObject(mems[i]);
   if (kern)
      clReleaseKernel(kern);
   if (prog)
      clReleaseProgram(prog);
}

static int64_t
load_int(const void *buf, enum diff_type t, size_t i)
{
   const char *p = (const char *)buf + i * type_size(t);
   switch (t) {
   case T_I8: return *(const int8_t *)p;
   case T_U8: return *(const uint8_t *)p;
   case T_I16: return *(const int16_t *)p;
   case T_U16: return *(const uint16_t *)p;
   case T_I32: return *(const int32_t *)p;
   case T_U32: return *(const uint32_t *)p;
   default: { int64_t v; memcpy(&v, p, 8); return v; }
   }
}

static double
load_float(const void *buf, enum diff_type t, size_t i)
{
   if (t == T_F32) {
      float f;
      memcpy(&f, (const char *)buf + 4 * i, 4);
      return f;
   }
   double d;
   memcpy(&d, (const char *)buf + 8 * i, 8);
   return d;
}

/*
 * Error of `got` in ULPs of the type at the reference value `want` (which may carry more
 * precision than the type, as the CTS measures it). Both NaN: 0. Infinities must match.
 * Both zero or subnormal: 0 (§7.5.3: a device may flush subnormals).
 */
static double
ulp_error(double got, double want, enum diff_type t)
{
   if (isnan(got) || isnan(want))
      return isnan(got) && isnan(want) ? 0 : INFINITY;
   if (isinf(want) || isinf(got)) {
      /* A finite reference beyond the type's range rounds to infinity. */
      double max = t == T_F32 ? FLT_MAX : DBL_MAX;
      if (isinf(got) && !isinf(want) && fabs(want) > max && signbit(got) == signbit(want))
         return 0;
      return got == want ? 0 : INFINITY;
   }
   double min_normal = t == T_F32 ? FLT_MIN : DBL_MIN;
   if (fabs(got) < min_normal && fabs(want) < min_normal)
      return 0;
   int mant = t == T_F32 ? 23 : 52, min_exp = t == T_F32 ? -126 : -1022;
   int e = want == 0 ? min_exp : ilogb(want);
   if (e < min_exp)
      e = min_exp;
   return fabs(got - want) / ldexp(1.0, e - mant);
}

static void
format_value(char *s, size_t n, const void *buf, enum diff_type t, size_t i)
{
   if (type_is_float(t)) {
      double v = load_float(buf, t, i);
      snprintf(s, n, t == T_F32 ? "%.9g (%a)" : "%.17g (%a)", v, v);
   } else if (t == T_U64) {
      snprintf(s, n, "%" PRIu64, (uint64_t)load_int(buf, t, i));
   } else {
      snprintf(s, n, "%" PRId64, load_int(buf, t, i));
   }
}

/*
 * Compares every compared buffer of `got` against `want`, printing up to 4 differences
 * prefixed with `what`. Float elements within k->ulp pass. Returns the number of differing
 * elements.
 */
static size_t
compare(const struct diff_kernel *k, const struct run *got, const struct run *want,
        const char *what, double ulp, int verbose)
{
   size_t bad = 0;
   for (unsigned a = 0; a < DIFF_MAX_ARGS && k->args[a].role != A_END; a++) {
      const struct diff_arg *arg = &k->args[a];
      if (arg->role != A_OUT && arg->role != A_INOUT)
         continue;
      size_t n = arg_count(k, arg);
      for (size_t i = 0; i < n; i++) {
         int ok;
         if (type_is_float(arg->type)) {
            double g = load_float(got->bufs[a], arg->type, i);
            double w = load_float(want->bufs[a], arg->type, i);
            if (ulp == 0)
               ok = (isnan(g) && isnan(w)) ||
                    !memcmp((char *)got->bufs[a] + i * type_size(arg->type),
                            (char *)want->bufs[a] + i * type_size(arg->type),
                            type_size(arg->type));
            else
               ok = ulp_error(g, w, arg->type) <= ulp;
         } else {
            ok = load_int(got->bufs[a], arg->type, i) == load_int(want->bufs[a], arg->type, i);
         }
         if (!ok && bad++ < 4 && verbose) {
            char gs[96], ws[96];
            format_value(gs, sizeof(gs), got->bufs[a], arg->type, i);
            format_value(ws, sizeof(ws), want->bufs[a], arg->type, i);
            printf("    %s: arg %u [%zu]: got %s, expected %s", what, a, i, gs, ws);
            if (type_is_float(arg->type) && ulp != 0)
               printf(" (%.3g ulp > %.3g)",
                      ulp_error(load_float(got->bufs[a], arg->type, i),
                                load_float(want->bufs[a], arg->type, i), arg->type),
                      ulp);
            printf("\n");
         }
      }
   }
   return bad;
}

/*
 * The math reference check: outputs of a kernel out[i] = f(in0[i] [, in1[i]]) against the
 * host's double-precision f, within k->ulp. Returns differing elements.
 */
static size_t
check_math(const struct diff_kernel *k, const struct run *r, const char *what)
{
   unsigned in0 = 0, in1 = 1, out = k->math2 ? 2 : 1;
   const struct diff_arg *oa = &k->args[out];
   size_t n = arg_count(k, oa), bad = 0;
   for (size_t i = 0; i < n; i++) {
      double x = load_float(r->bufs[in0], k->args[in0].type, i);
      double want = k->math2 ? k->math2(x, load_float(r->bufs[in1], k->args[in1].type, i))
                             : k->math1(x);
      double got = load_float(r->bufs[out], oa->type, i);
      double e = ulp_error(got, want, oa->type);
      if (e > k->ulp && bad++ < 4)
         printf("    %s vs host: f(%a%s) = %.9g (%a), host %.17g: %.3g ulp > %.3g\n", what, x,
                k->math2 ? ", ..." : "", got, got, want, e, k->ulp);
   }
   return bad;
}

static const char *
known_failure(const char *name)
{
   for (const struct diff_known_failure *f = diff_known_failures; f->name; f++)
      if (!strcmp(f->name, name))
         return f->reason;
   return NULL;
}

int
main(int argc, char **argv)
{
   if (argc < 2) {
      fprintf(stderr, "usage: %s GROUP|all [KERNEL]\n", argv[0]);
      return 2;
   }
   const char *group = argv[1], *only = argc > 2 ? argv[2] : NULL;
   struct dev hs = { 0 }, pocl = { 0 };
   if (!open_device(&hs, "hsacl", "hsacl")) {
      fprintf(stderr, "no hsacl device: OCL_ICD_VENDORS must list hsacl.icd\n");
      return 1;
   }
   if (!open_device(&pocl, "Portable Computing Language", "pocl")) {
      fprintf(stderr, "no PoCL device: install pocl-opencl-icd and list pocl.icd in "
                      "OCL_ICD_VENDORS\n");
      return 1;
   }

   unsigned passed = 0, failed = 0, known = 0, not_run = 0;
   for (size_t ki = 0; ki < diff_corpus_count; ki++) {
      const struct diff_kernel *k = &diff_corpus[ki];
      if (strcmp(group, "all") && strcmp(group, k->group))
         continue;
      if (only && strcmp(only, k->name))
         continue;
      struct timespec t0, t1;
      clock_gettime(CLOCK_MONOTONIC, &t0);
      struct run rh, rp = { 0 };
      run_kernel(k, &hs, 1, &rh);
      const char *ref_what = k->ref == REF_HOST ? "host reference" : "PoCL";
      size_t bad = 0;
      int fail = 0;
      char note[600] = "";
      if (rh.ran == 0) {
         snprintf(note, sizeof(note), "hsacl: %s", rh.why);
      } else if (rh.ran < 0) {
         printf("  %s: hsacl: %s\n", k->name, rh.why);
         fail = 1;
      }
      if (k->ref == REF_POCL) {
         run_kernel(k, &pocl, 0, &rp);
         if (rp.ran < 0) {
            printf("  %s: PoCL: %s\n", k->name, rp.why);
            fail = 1;
         } else if (rp.ran == 0 && rh.ran > 0) {
            printf("  %s: PoCL cannot run it (%s): no reference\n", k->name, rp.why);
            fail = 1;
         }
      } else if (rh.ran > 0) {
         /* The reference starts from the same inputs and 0xCD-filled outputs. */
         rp.ran = 1;
         for (unsigned a = 0; a < DIFF_MAX_ARGS && k->args[a].role != A_END; a++) {
            if (!rh.bufs[a])
               continue;
            size_t bytes = arg_count(k, &k->args[a]) * type_size(k->args[a].type);
            rp.bufs[a] = malloc(bytes);
            if (k->args[a].role == A_OUT)
               memset(rp.bufs[a], 0xCD, bytes);
            else
               generate(k, a, rp.bufs[a], arg_count(k, &k->args[a]));
         }
         k->host_ref(k, rp.bufs);
      }
      /* Where the host's math reference bounds both devices' error, they may differ from
         each other by the sum of their errors. */
      double ulp = k->math1 || k->math2 ? 2 * k->ulp : k->ulp;
      if (!fail && rh.ran > 0 && rp.ran > 0)
         bad += compare(k, &rh, &rp, "hsacl", ulp, 1);
      /* The host math reference checks every device that ran (both must meet §7.4). */
      if (!fail && (k->math1 || k->math2)) {
         if (rh.ran > 0)
            bad += check_math(k, &rh, "hsacl");
         if (rp.ran > 0 && k->ref == REF_POCL && check_math(k, &rp, "PoCL"))
            fail = 1;
      }
      clock_gettime(CLOCK_MONOTONIC, &t1);
      double ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
      const char *kf = known_failure(k->name);
      if (!fail && rh.ran == 0) {
         printf("NOT RUN %-28s %s%s\n", k->name, note,
                rp.ran > 0 ? " (PoCL ran it)" : "");
         not_run++;
      } else if ((fail || bad) && kf) {
         printf("KNOWN FAILURE %-22s %s (%zu elements differ from %s)\n", k->name, kf, bad,
                ref_what);
         known++;
      } else if (fail || bad) {
         printf("FAIL    %-28s %zu elements differ from %s\n", k->name, bad, ref_what);
         failed++;
      } else {
         printf("PASS    %-28s vs %s%s (%.0f ms)\n", k->name, ref_what,
                k->ref == REF_HOST ? "" : "", ms);
         if (kf)
            printf("    note: %s is listed as a known failure but passes: drop it from "
                   "diff_known_failures\n", k->name);
         passed++;
      }
      if (k->ref == REF_HOST && rh.ran > 0 && !(fail || bad))
         printf("    (host reference: %s)\n", k->why_host);
      run_free(&rh);
      run_free(&rp);
   }
   printf("%u passed, %u failed, %u known failures, %u not run\n", passed, failed, known,
          not_run);
   return failed ? 1 : 0;
}
