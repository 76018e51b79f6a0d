/* Device-side features: malloc/free in a kernel (HIP's device heap), __syncthreads_count,
 * _and and _or, the whole 64 KiB of LDS as dynamic shared memory, the last-block pattern
 * (__threadfence and an atomic ticket), 3D grids and blocks, and clock64 moving forward. */
#include "hip_check.h"

__global__ void heap(int **slots, int *sums)
{
   int t = blockIdx.x * blockDim.x + threadIdx.x;
   int n = 1 + t % 13;
   int *p = (int *)malloc(n * sizeof(int));
   slots[t] = p;
   if (!p)
      return;
   for (int k = 0; k < n; k++)
      p[k] = t * 100 + k;
   int s = 0;
   for (int k = 0; k < n; k++)
      s += p[k];
   sums[t] = s;
   free(p);
}

__global__ void votes(const int *in, int *out)
{
   int v = in[blockIdx.x * blockDim.x + threadIdx.x];
   int c = __syncthreads_count(v > 0);
   int a = __syncthreads_and(v > -50);
   int o = __syncthreads_or(v == 7);
   if (threadIdx.x == 0) {
      out[blockIdx.x * 3] = c;
      out[blockIdx.x * 3 + 1] = a != 0;
      out[blockIdx.x * 3 + 2] = o != 0;
   }
}

/* Every block fills all the LDS left to it (64 KiB less the static flag), reads it back
 * reversed, and sums it; the last block to finish (its ticket) adds up all the blocks' sums. */
__global__ void big_lds(int words, unsigned *block_sums, unsigned *ticket, unsigned *total)
{
   extern __shared__ unsigned lds[];
   for (int k = threadIdx.x; k < words; k += blockDim.x)
      lds[k] = k * 2654435761u + blockIdx.x;
   __syncthreads();
   unsigned s = 0;
   for (int k = threadIdx.x; k < words; k += blockDim.x)
      s += lds[words - 1 - k] ^ k;
   atomicAdd(&block_sums[blockIdx.x], s);
   __syncthreads();
   __shared__ bool last;
   if (threadIdx.x == 0) {
      __threadfence();
      last = atomicAdd(ticket, 1) == gridDim.x - 1;
   }
   __syncthreads();
   if (last && threadIdx.x == 0) {
      __threadfence();
      unsigned t = 0;
      for (unsigned b = 0; b < gridDim.x; b++)
         t += atomicAdd(&block_sums[b], 0);
      *total = t;
   }
}

__global__ void grid3d(int *out, long long *clocks)
{
   int x = blockIdx.x * blockDim.x + threadIdx.x;
   int y = blockIdx.y * blockDim.y + threadIdx.y;
   int z = blockIdx.z * blockDim.z + threadIdx.z;
   int w = gridDim.x * blockDim.x, h = gridDim.y * blockDim.y;
   out[(z * h + y) * w + x] = x | y << 8 | z << 16;
   if (x == 0 && y == 0 && z == 0) {
      long long c0 = clock64();
      for (volatile int k = 0; k < 100; k++)
         ;
      clocks[0] = c0;
      clocks[1] = clock64();
   }
}

int main(void)
{
   /* Device heap. */
   const int threads = 256;
   int **slots, *sums;
   HIP_CHECK(hipMalloc(&slots, threads * sizeof(int *)));
   HIP_CHECK(hipMalloc(&sums, threads * sizeof(int)));
   HIP_CHECK(hipMemset(sums, 0xff, threads * sizeof(int)));
   hipLaunchKernelGGL(heap, dim3(threads / 64), dim3(64), 0, 0, slots, sums);
   HIP_CHECK(hipGetLastError());
   static int hs[256];
   static int *hp[256];
   HIP_CHECK(hipMemcpy(hs, sums, sizeof(hs), hipMemcpyDeviceToHost));
   HIP_CHECK(hipMemcpy(hp, slots, sizeof(hp), hipMemcpyDeviceToHost));
   for (int t = 0; t < threads; t++) {
      int n = 1 + t % 13, want = t * 100 * n + n * (n - 1) / 2;
      EXPECT(hp[t] != NULL, "device malloc returned NULL for thread %d", t);
      EXPECT(hs[t] == want, "device heap sum of thread %d: %d, host %d", t, hs[t], want);
      for (int u = 0; u < t && hp[t]; u++)
         if (hp[u] == hp[t]) {
            EXPECT(0, "threads %d and %d got the same block %p", u, t, (void *)hp[t]);
            break;
         }
   }

   /* __syncthreads_count/_and/_or over 6 blocks of 192. */
   const int blocks = 6, bs = 192;
   static int vin[6 * 192], vout[18];
   for (int i = 0; i < blocks * bs; i++)
      vin[i] = (i * 37) % 101 - 50 + (i / bs == 2 ? 60 : 0);
   vin[4 * bs + 100] = 7;
   int *dvin, *dvout;
   HIP_CHECK(hipMalloc(&dvin, sizeof(vin)));
   HIP_CHECK(hipMalloc(&dvout, sizeof(vout)));
   HIP_CHECK(hipMemcpy(dvin, vin, sizeof(vin), hipMemcpyHostToDevice));
   hipLaunchKernelGGL(votes, dim3(blocks), dim3(bs), 0, 0, dvin, dvout);
   HIP_CHECK(hipGetLastError());
   HIP_CHECK(hipMemcpy(vout, dvout, sizeof(vout), hipMemcpyDeviceToHost));
   for (int b = 0; b < blocks; b++) {
      int c = 0, a = 1, o = 0;
      for (int i = b * bs; i < (b + 1) * bs; i++) {
         c += vin[i] > 0;
         a &= vin[i] > -50;
         o |= vin[i] == 7;
      }
      EXPECT(vout[b * 3] == c, "block %d __syncthreads_count %d, host %d", b, vout[b * 3], c);
      EXPECT(vout[b * 3 + 1] == a, "block %d __syncthreads_and %d, host %d", b, vout[b * 3 + 1],
             a);
      EXPECT(vout[b * 3 + 2] == o, "block %d __syncthreads_or %d, host %d", b, vout[b * 3 + 2],
             o);
   }

   /* 64 KiB of dynamic LDS per block. */
   const int lblocks = 5;
   unsigned *bsums, *ticket, *total;
   HIP_CHECK(hipMalloc(&bsums, lblocks * sizeof(unsigned)));
   HIP_CHECK(hipMalloc(&ticket, sizeof(unsigned)));
   HIP_CHECK(hipMalloc(&total, sizeof(unsigned)));
   HIP_CHECK(hipMemset(bsums, 0, lblocks * sizeof(unsigned)));
   HIP_CHECK(hipMemset(ticket, 0, sizeof(unsigned)));
   HIP_CHECK(hipMemset(total, 0, sizeof(unsigned)));
   hipFuncAttributes attr;
   HIP_CHECK(hipFuncGetAttributes(&attr, (const void *)big_lds));
   size_t dyn = 65536 - attr.sharedSizeBytes;
   int words = (int)(dyn / 4);
   hipLaunchKernelGGL(big_lds, dim3(lblocks), dim3(256), dyn, 0, words, bsums, ticket, total);
   HIP_CHECK(hipGetLastError());
   unsigned hbs[5], htotal;
   HIP_CHECK(hipMemcpy(hbs, bsums, sizeof(hbs), hipMemcpyDeviceToHost));
   HIP_CHECK(hipMemcpy(&htotal, total, sizeof(htotal), hipMemcpyDeviceToHost));
   EXPECT(attr.sharedSizeBytes > 0 && attr.sharedSizeBytes <= 64, "static LDS %zu bytes",
          attr.sharedSizeBytes);
   unsigned want_total = 0;
   for (int b = 0; b < lblocks; b++) {
      unsigned want = 0;
      for (int k = 0; k < words; k++)
         want += ((unsigned)(words - 1 - k) * 2654435761u + b) ^ (unsigned)k;
      EXPECT(hbs[b] == want, "block %d LDS sum %#x, host %#x", b, hbs[b], want);
      want_total += want;
   }
   EXPECT(htotal == want_total, "last block's total %#x, host %#x", htotal, want_total);

   /* A 3D grid of 3D blocks, and the clock. */
   const dim3 grid(3, 2, 4), block(8, 4, 2);
   const int w = 24, h = 8, d = 8;
   int *g;
   long long *clocks;
   HIP_CHECK(hipMalloc(&g, w * h * d * sizeof(int)));
   HIP_CHECK(hipMalloc(&clocks, 2 * sizeof(long long)));
   hipLaunchKernelGGL(grid3d, grid, block, 0, 0, g, clocks);
   HIP_CHECK(hipGetLastError());
   static int hg[24 * 8 * 8];
   long long hc[2];
   HIP_CHECK(hipMemcpy(hg, g, sizeof(hg), hipMemcpyDeviceToHost));
   HIP_CHECK(hipMemcpy(hc, clocks, sizeof(hc), hipMemcpyDeviceToHost));
   for (int z = 0; z < d; z++)
      for (int y = 0; y < h; y++)
         for (int x = 0; x < w; x++) {
            int got = hg[(z * h + y) * w + x], want = x | y << 8 | z << 16;
            EXPECT(got == want, "3D grid (%d,%d,%d) = %#x, host %#x", x, y, z, got, want);
         }
   EXPECT(hc[1] > hc[0], "clock64 went from %lld to %lld", hc[0], hc[1]);

   HIP_CHECK(hipFree(bsums));
   HIP_CHECK(hipFree(ticket));
   HIP_CHECK(hipFree(total));
   HIP_CHECK(hipFree(g));
   HIP_CHECK(hipFree(clocks));
   HIP_CHECK(hipFree(slots));
   HIP_CHECK(hipFree(sums));
   HIP_CHECK(hipFree(dvin));
   HIP_CHECK(hipFree(dvout));
   return hip_check_done("hip_device");
}
