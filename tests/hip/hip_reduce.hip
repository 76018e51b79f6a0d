/* A shared-memory tree reduction per block (__syncthreads between levels), dynamic and
 * static LDS, then a second pass over the partial sums; 64-bit integer sums are exact. */
#include "hip_check.h"

#define BLOCK 256

__global__ void block_sum(const unsigned *in, unsigned long long *out, int n)
{
   extern __shared__ unsigned long long part[];
   int i = blockIdx.x * blockDim.x * 2 + threadIdx.x;
   unsigned long long v = 0;
   if (i < n)
      v += in[i];
   if (i + (int)blockDim.x < n)
      v += in[i + blockDim.x];
   part[threadIdx.x] = v;
   __syncthreads();
   for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
      if (threadIdx.x < s)
         part[threadIdx.x] += part[threadIdx.x + s];
      __syncthreads();
   }
   if (threadIdx.x == 0)
      out[blockIdx.x] = part[0];
}

/* One block folds the partial sums with a static LDS array and a max alongside. */
__global__ void final_sum(const unsigned long long *in, int n, unsigned long long *sum,
                          unsigned long long *max)
{
   __shared__ unsigned long long s_sum[BLOCK], s_max[BLOCK];
   unsigned long long a = 0, m = 0;
   for (int i = threadIdx.x; i < n; i += blockDim.x) {
      a += in[i];
      m = in[i] > m ? in[i] : m;
   }
   s_sum[threadIdx.x] = a;
   s_max[threadIdx.x] = m;
   __syncthreads();
   for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
      if (threadIdx.x < s) {
         s_sum[threadIdx.x] += s_sum[threadIdx.x + s];
         if (s_max[threadIdx.x + s] > s_max[threadIdx.x])
            s_max[threadIdx.x] = s_max[threadIdx.x + s];
      }
      __syncthreads();
   }
   if (threadIdx.x == 0) {
      *sum = s_sum[0];
      *max = s_max[0];
   }
}

int main(void)
{
   const int n = 200000;
   const int blocks = (n + 2 * BLOCK - 1) / (2 * BLOCK);
   unsigned *h = (unsigned *)malloc(n * sizeof(unsigned));
   unsigned long long *hpart = (unsigned long long *)malloc(blocks * sizeof(*hpart));
   unsigned x = 12345;
   for (int i = 0; i < n; i++) {
      x = x * 1664525u + 1013904223u;
      h[i] = x;
   }
   unsigned *in;
   unsigned long long *part, *sum, *max;
   HIP_CHECK(hipMalloc(&in, n * sizeof(unsigned)));
   HIP_CHECK(hipMalloc(&part, blocks * sizeof(*part)));
   HIP_CHECK(hipMalloc(&sum, sizeof(*sum)));
   HIP_CHECK(hipMalloc(&max, sizeof(*max)));
   HIP_CHECK(hipMemcpy(in, h, n * sizeof(unsigned), hipMemcpyHostToDevice));
   hipLaunchKernelGGL(block_sum, dim3(blocks), dim3(BLOCK), BLOCK * sizeof(unsigned long long),
                      0, in, part, n);
   HIP_CHECK(hipGetLastError());
   hipLaunchKernelGGL(final_sum, dim3(1), dim3(BLOCK), 0, 0, part, blocks, sum, max);
   HIP_CHECK(hipGetLastError());
   unsigned long long dsum, dmax;
   HIP_CHECK(hipMemcpy(hpart, part, blocks * sizeof(*hpart), hipMemcpyDeviceToHost));
   HIP_CHECK(hipMemcpy(&dsum, sum, sizeof(dsum), hipMemcpyDeviceToHost));
   HIP_CHECK(hipMemcpy(&dmax, max, sizeof(dmax), hipMemcpyDeviceToHost));

   unsigned long long total = 0, hmax = 0;
   for (int b = 0; b < blocks; b++) {
      unsigned long long p = 0;
      for (int i = b * 2 * BLOCK; i < (b + 1) * 2 * BLOCK && i < n; i++)
         p += h[i];
      EXPECT(hpart[b] == p, "block %d: %llu, host %llu", b, hpart[b], p);
      total += p;
      hmax = p > hmax ? p : hmax;
   }
   EXPECT(dsum == total, "sum %llu, host %llu", dsum, total);
   EXPECT(dmax == hmax, "max %llu, host %llu", dmax, hmax);
   HIP_CHECK(hipFree(in));
   HIP_CHECK(hipFree(part));
   HIP_CHECK(hipFree(sum));
   HIP_CHECK(hipFree(max));
   free(h);
   free(hpart);
   return hip_check_done("hip_reduce");
}
