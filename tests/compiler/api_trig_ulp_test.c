/*
 * tests/compiler/api_trig_ulp_test.c — the accuracy of float atan, asin and acos computed by
 * kernels, in ulp of the correctly rounded result (the host's double result, whose error is
 * far below a float ulp), over about 1.3 million inputs each.
 *
 * OpenCL C allows 5 ulp for atan and 4 for asin and acos (§7.4); the bounds here are what
 * ROCm's ocml gives when its multiply-adds fuse as the GPU fuses them (measured on these
 * inputs: atan 1.38, asin 1.83, acos 1.08 ulp). ocml writes pi/2 as the product of two
 * floats added with its multiply-add; when LLVM's optimiser folded that product to one
 * rounded float, -O3 builds gave atan 1.98, asin 2.35 and acos 1.26 ulp (pyopencl's
 * test_clmath::test_atan failed) while -cl-opt-disable builds, where the backend fuses it,
 * gave the figures above: the device-library linking now keeps it fused
 * (compiler/comp_llvm_libs.cpp, fuseConstantProducts). Built both ways.
 *
 * Inputs: every 64th float in [1, 4] (where atan takes pi/2 - atan(1/x)) and [0.5, 1] (where
 * asin and acos take the same product), a sweep of bit patterns over the whole positive
 * range, and the negatives of all of them. The software GPU's arithmetic is IEEE and
 * deterministic, so the maxima are the same on every run.
 */
#include "comp_api_test.h"

#include <math.h>
#include <stdint.h>

#define STEP 64u

static const char src[] =
   "kernel void trig(global const float *x, global const float *u, global float *at,\n"
   "                 global float *as, global float *ac)\n"
   "{\n"
   "   size_t i = get_global_id(0);\n"
   "   at[i] = atan(x[i]);\n"
   "   as[i] = asin(u[i]);\n"
   "   ac[i] = acos(u[i]);\n"
   "}\n";

static float
bits_float(uint32_t b)
{
   float f;
   memcpy(&f, &b, sizeof(f));
   return f;
}

static uint32_t
float_bits(float f)
{
   uint32_t b;
   memcpy(&b, &f, sizeof(b));
   return b;
}

/* The inputs, positives then their negatives; *n their number. */
static float *
inputs(size_t *n)
{
   size_t cap = 1 << 22, k = 0;
   float *x = malloc(cap * sizeof(*x));
   if (!x)
      return NULL;
   const float ranges[][2] = { { 1.0f, 4.0f }, { 0.5f, 1.0f } };
   for (size_t r = 0; r < 2; r++)
      for (uint32_t b = float_bits(ranges[r][0]); b <= float_bits(ranges[r][1]); b += STEP)
         x[k++] = bits_float(b);
   for (uint32_t b = 0; b < 0x7f800000u; b += 0x7f800000u / 65536u)
      x[k++] = bits_float(b);
   for (size_t i = 0, half = k; i < half; i++)
      x[k++] = -x[i];
   *n = k;
   return x;
}

/* |got - want| in units of the last place of a float of want's magnitude. */
static double
ulp_error(float got, double want)
{
   if (isnan(want))
      return isnan(got) ? 0 : INFINITY;
   double a = fabs(want);
   int e = a < 0x1p-126 ? -126 : ilogb(a);
   return fabs((double)got - want) / ldexp(1.0, e - 23);
}

struct fn {
   const char *name;
   double (*ref)(double);
   double bound;
};

/* x[] goes to atan, u[] (x, or 1 / x where |x| > 1, divided on the host) to asin and acos. */
static void
check(const char *options, const float *x, const float *u, size_t n)
{
   cl_program p = program_from_source(src);
   cl_int err;
   cl_kernel k = NULL;
   cl_mem in[2] = { NULL }, out[3] = { NULL };
   float *res = malloc(3 * n * sizeof(*res));
   if (!p || !res || build_expect(p, options, CL_SUCCESS) != CL_SUCCESS)
      goto out;
   k = clCreateKernel(p, "trig", &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   for (int a = 0; a < 2; a++) {
      in[a] = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(*x),
                             (void *)(a ? u : x), &err);
      CHECK_EQ_INT(err, CL_SUCCESS);
   }
   for (int f = 0; f < 3; f++) {
      out[f] = clCreateBuffer(context, CL_MEM_WRITE_ONLY, n * sizeof(*x), NULL, &err);
      CHECK_EQ_INT(err, CL_SUCCESS);
   }
   if (!k || !in[0] || !in[1] || !out[0] || !out[1] || !out[2])
      goto out;
   cl_command_queue q = clCreateCommandQueueWithProperties(context, device, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   if (!q)
      goto out;
   for (int a = 0; a < 2; a++)
      CHECK_EQ_INT(clSetKernelArg(k, a, sizeof(in[a]), &in[a]), CL_SUCCESS);
   for (int f = 0; f < 3; f++)
      CHECK_EQ_INT(clSetKernelArg(k, 2 + f, sizeof(out[f]), &out[f]), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, NULL), CL_SUCCESS);
   for (int f = 0; f < 3; f++)
      CHECK_EQ_INT(clEnqueueReadBuffer(q, out[f], CL_TRUE, 0, n * sizeof(*x), res + f * n, 0,
                                       NULL, NULL),
                   CL_SUCCESS);
   clReleaseCommandQueue(q);

   const struct fn fns[3] = { { "atan", atan, 1.5 }, { "asin", asin, 2.0 },
                              { "acos", acos, 1.2 } };
   for (int f = 0; f < 3; f++) {
      double worst = 0;
      float worst_x = 0, worst_got = 0;
      const float *arg = f == 0 ? x : u;
      for (size_t i = 0; i < n; i++) {
         double e = ulp_error(res[f * n + i], fns[f].ref(arg[i]));
         if (e > worst) {
            worst = e;
            worst_x = arg[i];
            worst_got = res[f * n + i];
         }
      }
      printf("%s (%s): max %.3f ulp at %a (got %a, correctly rounded %a)\n", fns[f].name,
             options[0] ? options : "-O3", worst, worst_x, worst_got,
             (float)fns[f].ref(worst_x));
      CHECK(worst <= fns[f].bound);
   }
out:
   for (int f = 0; f < 3; f++)
      if (out[f])
         clReleaseMemObject(out[f]);
   for (int a = 0; a < 2; a++)
      if (in[a])
         clReleaseMemObject(in[a]);
   if (k)
      clReleaseKernel(k);
   if (p)
      clReleaseProgram(p);
   free(res);
}

int
main(void)
{
   test_setup();
   size_t n = 0;
   float *x = inputs(&n);
   float *u = x ? malloc(n * sizeof(*u)) : NULL;
   CHECK(u != NULL);
   if (u) {
      for (size_t i = 0; i < n; i++)
         u[i] = fabsf(x[i]) <= 1.0f ? x[i] : 1.0f / x[i];
      check("", x, u, n);
      check("-cl-opt-disable", x, u, n);
   }
   free(u);
   free(x);
   clReleaseContext(context);
   return test_main_end();
}
