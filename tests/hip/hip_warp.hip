/* Cross-lane operations of a 64-wide wave: __shfl (indexed, up, down, xor, with widths),
 * __ballot, __any, __all and a shuffle-based wave sum, with some lanes inactive. */
#include "hip_check.h"

#define LANES 64
enum { SHFL, SHFL_UP, SHFL_DOWN, SHFL_XOR, SHFL_W16, SUM, ANY, ALL, OUTPUTS };

__global__ void warp_ops(const int *in, int *out, unsigned long long *ballot)
{
   int lane = threadIdx.x % LANES;
   int gid = blockIdx.x * blockDim.x + threadIdx.x;
   int v = in[gid];
   int *o = out + gid * OUTPUTS;
   o[SHFL] = __shfl(v, (lane * 7 + 3) % LANES);
   o[SHFL_UP] = __shfl_up(v, 5);
   o[SHFL_DOWN] = __shfl_down(v, 9);
   o[SHFL_XOR] = __shfl_xor(v, 0x15);
   o[SHFL_W16] = __shfl(v, 3, 16);
   int s = v;
   for (int d = LANES / 2; d > 0; d /= 2)
      s += __shfl_xor(s, d);
   o[SUM] = s;
   o[ANY] = __any(v % 97 == 0) != 0;
   o[ALL] = __all(v > -1000000) != 0;
   unsigned long long b = __ballot(v & 1);
   if (lane == 0)
      ballot[gid / LANES * 2] = b;
   /* Only the odd lanes vote: the inactive even lanes contribute 0. */
   if (lane & 1) {
      unsigned long long bo = __ballot(v & 2);
      if (lane == 1)
         ballot[gid / LANES * 2 + 1] = bo;
   }
}

int main(void)
{
   const int waves = 12, n = waves * LANES;
   int *h = (int *)malloc(n * sizeof(int));
   int *hout = (int *)malloc(n * OUTPUTS * sizeof(int));
   unsigned long long hb[waves * 2];
   unsigned x = 99;
   for (int i = 0; i < n; i++) {
      x = x * 1664525u + 1013904223u;
      h[i] = (int)(x >> 12) - (1 << 19);
   }
   h[3 * LANES + 10] = 97 * 5; /* wave 3 has a multiple of 97, so its __any is 1 */
   int *in, *out;
   unsigned long long *ballot;
   HIP_CHECK(hipMalloc(&in, n * sizeof(int)));
   HIP_CHECK(hipMalloc(&out, n * OUTPUTS * sizeof(int)));
   HIP_CHECK(hipMalloc(&ballot, sizeof(hb)));
   HIP_CHECK(hipMemcpy(in, h, n * sizeof(int), hipMemcpyHostToDevice));
   hipLaunchKernelGGL(warp_ops, dim3(waves / 4), dim3(4 * LANES), 0, 0, in, out, ballot);
   HIP_CHECK(hipGetLastError());
   HIP_CHECK(hipMemcpy(hout, out, n * OUTPUTS * sizeof(int), hipMemcpyDeviceToHost));
   HIP_CHECK(hipMemcpy(hb, ballot, sizeof(hb), hipMemcpyDeviceToHost));

   for (int w = 0; w < waves; w++) {
      const int *v = h + w * LANES;
      int sum = 0, any = 0, all = 1;
      unsigned long long b = 0, bo = 0;
      for (int l = 0; l < LANES; l++) {
         sum += v[l];
         any |= v[l] % 97 == 0;
         all &= v[l] > -1000000;
         b |= (unsigned long long)(v[l] & 1) << l;
         if (l & 1)
            bo |= (unsigned long long)((v[l] & 2) != 0) << l;
      }
      EXPECT(hb[2 * w] == b, "wave %d: __ballot %#llx, host %#llx", w, hb[2 * w], b);
      EXPECT(hb[2 * w + 1] == bo, "wave %d: __ballot of odd lanes %#llx, host %#llx", w,
             hb[2 * w + 1], bo);
      for (int l = 0; l < LANES; l++) {
         const int *o = hout + (w * LANES + l) * OUTPUTS;
         int e[OUTPUTS];
         e[SHFL] = v[(l * 7 + 3) % LANES];
         e[SHFL_UP] = l >= 5 ? v[l - 5] : v[l];
         e[SHFL_DOWN] = l + 9 < LANES ? v[l + 9] : v[l];
         e[SHFL_XOR] = v[l ^ 0x15];
         e[SHFL_W16] = v[(l & ~15) + 3];
         e[SUM] = sum;
         e[ANY] = any;
         e[ALL] = all;
         for (int k = 0; k < OUTPUTS; k++)
            EXPECT(o[k] == e[k], "wave %d lane %d op %d: %d, host %d", w, l, k, o[k], e[k]);
      }
   }
   HIP_CHECK(hipFree(in));
   HIP_CHECK(hipFree(out));
   HIP_CHECK(hipFree(ballot));
   free(h);
   free(hout);
   return hip_check_done("hip_warp");
}
