/* AMD's device math (ocml) and integer intrinsics as hipcc compiles them for gfx906: float and
 * double functions against the host's double and long double results within ulp bounds (the
 * bounds HIP documents, at least 1 ulp), integer and bit operations exactly. */
#include "hip_check.h"
#include <math.h>
#include <stdint.h>
#include <string.h>

#define N 4096

enum { F_SIN, F_COS, F_EXP, F_LOG, F_SQRT, F_RSQRT, F_POW, F_TANH, F_ATAN2, F_CBRT, F_DIV,
       F_FMA, F_COUNT };
enum { D_SIN, D_EXP, D_LOG, D_SQRT, D_POW, D_DIV, D_FMA, D_COUNT };
enum { I_CLZ, I_POPC, I_BREV, I_FFS, I_MUL24, I_MULHI, I_DIV, I_REM, I_U64DIV, I_COUNT };

__global__ void math(const float *x, const float *y, const double *dx, const unsigned *u,
                     float *fo, double *dout, unsigned long long *io)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   float a = x[i], b = y[i];
   float *f = fo + i * F_COUNT;
   f[F_SIN] = sinf(a);
   f[F_COS] = cosf(a);
   f[F_EXP] = expf(a / 8);
   f[F_LOG] = logf(fabsf(a) + 1e-3f);
   f[F_SQRT] = sqrtf(fabsf(a));
   f[F_RSQRT] = rsqrtf(fabsf(a) + 1.0f);
   f[F_POW] = powf(fabsf(a) / 10 + 0.5f, b / 4);
   f[F_TANH] = tanhf(a / 10);
   f[F_ATAN2] = atan2f(a, b);
   f[F_CBRT] = cbrtf(a);
   f[F_DIV] = a / b;
   f[F_FMA] = fmaf(a, b, -a * 0.5f);
   double d = dx[i];
   double *o = dout + i * D_COUNT;
   o[D_SIN] = sin(d);
   o[D_EXP] = exp(d / 8);
   o[D_LOG] = log(fabs(d) + 1e-3);
   o[D_SQRT] = sqrt(fabs(d));
   o[D_POW] = pow(fabs(d) / 10 + 0.5, (double)b / 4);
   o[D_DIV] = d / (double)b;
   o[D_FMA] = fma(d, (double)b, 1.0 / 3.0);
   unsigned v = u[i], w = u[(i + 1) % N];
   unsigned long long *r = io + i * I_COUNT;
   r[I_CLZ] = __clz((int)v);
   r[I_POPC] = __popc(v);
   r[I_BREV] = __brev(v);
   r[I_FFS] = __ffs((int)v);
   r[I_MUL24] = (unsigned)__mul24((int)(v & 0xffffff), (int)(w & 0x7fffff));
   r[I_MULHI] = __umulhi(v, w);
   r[I_DIV] = w ? v / w : 0;
   r[I_REM] = (unsigned)((int)v % (int)(w | 1));
   unsigned long long big = ((unsigned long long)v << 32) | w;
   r[I_U64DIV] = big / ((w >> 3) | 1);
}

/* Distance in units in the last place of the expected value, for float and double. */
static double ulps_f(float got, double want)
{
   if (isnan(want))
      return isnan(got) ? 0 : INFINITY;
   if (isinf(want))
      return got == (float)want ? 0 : INFINITY;
   float w = (float)want;
   double ulp = nextafterf(fabsf(w), INFINITY) - fabsf(w);
   if (w == 0 || fabs(want) < 1.1754944e-38)
      ulp = 1.4e-45;
   return fabs((double)got - want) / ulp;
}

static double ulps_d(double got, long double want)
{
   if (isnan((double)want))
      return isnan(got) ? 0 : INFINITY;
   double w = (double)want;
   double ulp = nextafter(fabs(w), INFINITY) - fabs(w);
   if (w == 0 || fabs(w) < 2.2250738585072014e-308)
      ulp = 4.9e-324;
   return (double)fabsl((long double)got - want) / ulp;
}

int main(void)
{
   static float x[N], y[N], fo[N * F_COUNT];
   static double dx[N], dout[N * D_COUNT];
   static unsigned u[N];
   static unsigned long long io[N * I_COUNT];
   unsigned s = 31337;
   for (int i = 0; i < N; i++) {
      s = s * 1664525u + 1013904223u;
      x[i] = ((float)(s >> 8) / 16777216.0f - 0.5f) * 200.0f;
      s = s * 1664525u + 1013904223u;
      y[i] = ((float)(s >> 8) / 16777216.0f - 0.5f) * 20.0f + 0.01f;
      dx[i] = (double)x[i] * 1.0000001 + 1e-9 * i;
      s = s * 1664525u + 1013904223u;
      u[i] = s ^ (s >> (i % 29)) << (i % 7);
   }
   u[0] = 0;
   u[1] = 0x80000000u;
   u[2] = 1;
   float *dxf, *dyf, *dfo;
   double *ddx, *ddo;
   unsigned *du;
   unsigned long long *dio;
   HIP_CHECK(hipMalloc(&dxf, sizeof(x)));
   HIP_CHECK(hipMalloc(&dyf, sizeof(y)));
   HIP_CHECK(hipMalloc(&dfo, sizeof(fo)));
   HIP_CHECK(hipMalloc(&ddx, sizeof(dx)));
   HIP_CHECK(hipMalloc(&ddo, sizeof(dout)));
   HIP_CHECK(hipMalloc(&du, sizeof(u)));
   HIP_CHECK(hipMalloc(&dio, sizeof(io)));
   HIP_CHECK(hipMemcpy(dxf, x, sizeof(x), hipMemcpyHostToDevice));
   HIP_CHECK(hipMemcpy(dyf, y, sizeof(y), hipMemcpyHostToDevice));
   HIP_CHECK(hipMemcpy(ddx, dx, sizeof(dx), hipMemcpyHostToDevice));
   HIP_CHECK(hipMemcpy(du, u, sizeof(u), hipMemcpyHostToDevice));
   hipLaunchKernelGGL(math, dim3(N / 128), dim3(128), 0, 0, dxf, dyf, ddx, du, dfo, ddo, dio);
   HIP_CHECK(hipGetLastError());
   HIP_CHECK(hipMemcpy(fo, dfo, sizeof(fo), hipMemcpyDeviceToHost));
   HIP_CHECK(hipMemcpy(dout, ddo, sizeof(dout), hipMemcpyDeviceToHost));
   HIP_CHECK(hipMemcpy(io, dio, sizeof(io), hipMemcpyDeviceToHost));

   static const char *fname[F_COUNT] = {"sinf", "cosf", "expf", "logf", "sqrtf", "rsqrtf",
                                        "powf", "tanhf", "atan2f", "cbrtf", "div", "fmaf"};
   static const double fbound[F_COUNT] = {2, 2, 2, 1, 1, 1, 4, 2, 3, 2, 1, 0};
   static const char *dname[D_COUNT] = {"sin", "exp", "log", "sqrt", "pow", "div", "fma"};
   static const double dbound[D_COUNT] = {2, 1, 1, 0, 2, 0, 0};
   static const char *iname[I_COUNT] = {"__clz", "__popc", "__brev", "__ffs", "__mul24",
                                        "__umulhi", "udiv", "srem", "u64 div"};
   for (int i = 0; i < N; i++) {
      double a = x[i], b = y[i];
      /* Each argument as the device computes it, in float, then the function in double. */
      double fw[F_COUNT] = {sin(a), cos(a), exp((double)(x[i] / 8)),
                            log((double)(fabsf(x[i]) + 1e-3f)), sqrt(fabs(a)), 1 / sqrt((double)(fabsf(x[i]) + 1.0f)),
                            pow((double)(fabsf(x[i]) / 10 + 0.5f), (double)(y[i] / 4)),
                            tanh((double)(x[i] / 10)), atan2(a, b), cbrt(a), a / b,
                            fma(a, b, (double)(-x[i] * 0.5f))};
      for (int k = 0; k < F_COUNT; k++) {
         double e = ulps_f(fo[i * F_COUNT + k], fw[k]);
         /* A correctly rounded result is 0.5 ulp away: bound + 0.5. */
         EXPECT(e <= fbound[k] + 0.5, "%s(%a, %a) = %a, host %a (%.1f ulp)", fname[k], x[i],
                y[i], fo[i * F_COUNT + k], fw[k], e);
      }
      long double d = dx[i], lb = y[i];
      long double dw[D_COUNT] = {sinl(d), expl(d / 8), logl(fabsl(d) + 1e-3L), sqrtl(fabsl(d)),
                                 powl(fabsl(d) / 10 + 0.5L, lb / 4), d / lb,
                                 fmal(d, lb, (long double)(1.0 / 3.0))};
      /* The exact operations: recompute in double and compare bit for bit. */
      dw[D_SQRT] = sqrt(fabs(dx[i]));
      dw[D_DIV] = dx[i] / (double)y[i];
      dw[D_FMA] = fma(dx[i], (double)y[i], 1.0 / 3.0);
      dw[D_EXP] = expl((long double)(dx[i] / 8));
      dw[D_LOG] = logl((long double)(fabs(dx[i]) + 1e-3));
      dw[D_POW] = powl((long double)(fabs(dx[i]) / 10 + 0.5), (long double)((double)y[i] / 4));
      for (int k = 0; k < D_COUNT; k++) {
         double e = ulps_d(dout[i * D_COUNT + k], dw[k]);
         EXPECT(e <= dbound[k] + 0.5, "%s(%a, %a) = %a, host %La (%.1f ulp)", dname[k], dx[i],
                y[i], dout[i * D_COUNT + k], dw[k], e);
      }
      unsigned v = u[i], w = u[(i + 1) % N];
      unsigned long long big = ((unsigned long long)v << 32) | w;
      unsigned brev = 0;
      for (int bit = 0; bit < 32; bit++)
         brev |= ((v >> bit) & 1u) << (31 - bit);
      unsigned long long iw[I_COUNT] = {
         v ? (unsigned)__builtin_clz(v) : 32u,
         (unsigned)__builtin_popcount(v),
         brev,
         (unsigned)__builtin_ffs((int)v),
         (unsigned)((int)(v & 0xffffff) << 8 >> 8) * (unsigned)(w & 0x7fffff),
         (unsigned)(((unsigned long long)v * w) >> 32),
         w ? v / w : 0,
         (unsigned)((int)v % (int)(w | 1)),
         big / ((w >> 3) | 1)};
      for (int k = 0; k < I_COUNT; k++)
         EXPECT(io[i * I_COUNT + k] == iw[k], "%s(%#x, %#x) = %#llx, host %#llx", iname[k], v,
                w, io[i * I_COUNT + k], iw[k]);
   }
   HIP_CHECK(hipFree(dxf));
   HIP_CHECK(hipFree(dyf));
   HIP_CHECK(hipFree(dfo));
   HIP_CHECK(hipFree(ddx));
   HIP_CHECK(hipFree(ddo));
   HIP_CHECK(hipFree(du));
   HIP_CHECK(hipFree(dio));
   return hip_check_done("hip_math");
}
