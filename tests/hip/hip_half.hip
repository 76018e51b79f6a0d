/* Packed half arithmetic (__hadd2, __hsub2, __hmul2, __hfma2: gfx906's VOP3P) and the dot
 * product instructions (v_dot2_f32_f16, v_dot4_i32_i8, v_dot4_u32_u8) against the host: each
 * half result is the exact value (in double) rounded once to half. */
#include "hip_check.h"
#include <hip/hip_fp16.h>
#include <math.h>
#include <string.h>

#define N 256

typedef _Float16 half2_v __attribute__((ext_vector_type(2)));

__global__ void packed(const __half2 *a, const __half2 *b, __half2 *o, float *fdot,
                       const int *ia, const int *ib, int *idot)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   __half2 x = a[i], y = b[i];
   o[i * 4 + 0] = __hadd2(x, y);
   o[i * 4 + 1] = __hsub2(x, y);
   o[i * 4 + 2] = __hmul2(x, y);
   o[i * 4 + 3] = __hfma2(x, y, x);
   fdot[i] = __builtin_amdgcn_fdot2(__builtin_bit_cast(half2_v, x), __builtin_bit_cast(half2_v, y),
                                    1.0f, false);
   idot[i * 2] = __builtin_amdgcn_sdot4(ia[i], ib[i], 7, false);
   idot[i * 2 + 1] = (int)__builtin_amdgcn_udot4((unsigned)ia[i], (unsigned)ib[i], 7u, false);
}

static double h2d(unsigned bits)
{
   unsigned short h = (unsigned short)bits;
   _Float16 v;
   memcpy(&v, &h, 2);
   return (double)v;
}

static unsigned short d2h(double d)
{
   _Float16 v = (_Float16)d;
   unsigned short h;
   memcpy(&h, &v, 2);
   return h;
}

int main(void)
{
   static unsigned a[N], b[N], o[N * 4];
   static float fdot[N];
   static int ia[N], ib[N], idot[N * 2];
   unsigned s = 5;
   for (int i = 0; i < N; i++) {
      s = s * 1664525u + 1013904223u;
      a[i] = d2h(((int)(s >> 16) % 2000 - 1000) / 64.0) |
             (unsigned)d2h(((int)(s & 0xffff) % 2000 - 1000) / 1024.0) << 16;
      s = s * 1664525u + 1013904223u;
      b[i] = d2h(((int)(s >> 16) % 2000 - 1000) / 32.0) |
             (unsigned)d2h(((int)(s & 0xffff) % 200 - 100) / 16.0) << 16;
      ia[i] = (int)(s * 3u);
      ib[i] = (int)(s ^ 0x9e3779b9u);
   }
   void *da, *db, *dout, *dfdot, *dia, *dib, *didot;
   HIP_CHECK(hipMalloc(&da, sizeof(a)));
   HIP_CHECK(hipMalloc(&db, sizeof(b)));
   HIP_CHECK(hipMalloc(&dout, sizeof(o)));
   HIP_CHECK(hipMalloc(&dfdot, sizeof(fdot)));
   HIP_CHECK(hipMalloc(&dia, sizeof(ia)));
   HIP_CHECK(hipMalloc(&dib, sizeof(ib)));
   HIP_CHECK(hipMalloc(&didot, sizeof(idot)));
   HIP_CHECK(hipMemcpy(da, a, sizeof(a), hipMemcpyHostToDevice));
   HIP_CHECK(hipMemcpy(db, b, sizeof(b), hipMemcpyHostToDevice));
   HIP_CHECK(hipMemcpy(dia, ia, sizeof(ia), hipMemcpyHostToDevice));
   HIP_CHECK(hipMemcpy(dib, ib, sizeof(ib), hipMemcpyHostToDevice));
   hipLaunchKernelGGL(packed, dim3(N / 64), dim3(64), 0, 0, (const __half2 *)da,
                      (const __half2 *)db, (__half2 *)dout, (float *)dfdot, (const int *)dia,
                      (const int *)dib, (int *)didot);
   HIP_CHECK(hipGetLastError());
   HIP_CHECK(hipMemcpy(o, dout, sizeof(o), hipMemcpyDeviceToHost));
   HIP_CHECK(hipMemcpy(fdot, dfdot, sizeof(fdot), hipMemcpyDeviceToHost));
   HIP_CHECK(hipMemcpy(idot, didot, sizeof(idot), hipMemcpyDeviceToHost));

   static const char *name[4] = {"__hadd2", "__hsub2", "__hmul2", "__hfma2"};
   for (int i = 0; i < N; i++) {
      for (int l = 0; l < 2; l++) {
         double x = h2d(a[i] >> (16 * l)), y = h2d(b[i] >> (16 * l));
         /* Sums, products and x*y + x of halves are exact in double. */
         unsigned short want[4] = {d2h(x + y), d2h(x - y), d2h(x * y), d2h(x * y + x)};
         for (int k = 0; k < 4; k++) {
            unsigned short got = (unsigned short)(o[i * 4 + k] >> (16 * l));
            EXPECT(got == want[k], "%s lane half %d of %d: %#x (%g), host %#x (%g)", name[k],
                   l, i, got, h2d(got), want[k], h2d(want[k]));
         }
      }
      double d = h2d(a[i]) * h2d(b[i]) + h2d(a[i] >> 16) * h2d(b[i] >> 16) + 1.0;
      EXPECT(fabs(fdot[i] - d) <= fabs(d) * 6e-8 + 1e-30, "v_dot2_f32_f16 %d: %a, host %a", i,
             fdot[i], d);
      int sd = 7;
      unsigned ud = 7;
      for (int k = 0; k < 4; k++) {
         sd += (signed char)(ia[i] >> (8 * k)) * (signed char)(ib[i] >> (8 * k));
         ud += (unsigned)(unsigned char)(ia[i] >> (8 * k)) * (unsigned char)(ib[i] >> (8 * k));
      }
      EXPECT(idot[i * 2] == sd, "v_dot4_i32_i8 %d: %d, host %d", i, idot[i * 2], sd);
      EXPECT((unsigned)idot[i * 2 + 1] == ud, "v_dot4_u32_u8 %d: %u, host %u", i,
             (unsigned)idot[i * 2 + 1], ud);
   }
   HIP_CHECK(hipFree(da));
   HIP_CHECK(hipFree(db));
   HIP_CHECK(hipFree(dout));
   HIP_CHECK(hipFree(dfdot));
   HIP_CHECK(hipFree(dia));
   HIP_CHECK(hipFree(dib));
   HIP_CHECK(hipFree(didot));
   return hip_check_done("hip_half");
}
