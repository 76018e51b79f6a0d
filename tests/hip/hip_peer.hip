/* Two GPUs (HSACL_KFD_GPUS=2): a kernel on each device, hipMemcpyPeer both ways, and with
 * peer access enabled a kernel on device 1 reading device 0's memory directly. */
#include "hip_check.h"

__global__ void fill(int *p, int n, int base)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      p[i] = base + i;
}

__global__ void add_remote(const int *remote, int *local, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      local[i] += remote[i];
}

int main(void)
{
   const int n = 5000;
   int count = 0;
   HIP_CHECK(hipGetDeviceCount(&count));
   if (count != 2) {
      fprintf(stderr, "hip_peer: %d devices, want 2 (HSACL_KFD_GPUS=2)\n", count);
      return 1;
   }
   int can01 = 0, can10 = 0;
   HIP_CHECK(hipDeviceCanAccessPeer(&can01, 0, 1));
   HIP_CHECK(hipDeviceCanAccessPeer(&can10, 1, 0));
   EXPECT(can01 && can10, "hipDeviceCanAccessPeer 0->1 %d, 1->0 %d", can01, can10);
   int *d[2];
   for (int dev = 0; dev < 2; dev++) {
      HIP_CHECK(hipSetDevice(dev));
      HIP_CHECK(hipMalloc(&d[dev], n * sizeof(int)));
      hipLaunchKernelGGL(fill, dim3((n + 255) / 256), dim3(256), 0, 0, d[dev], n, dev * 100000);
      HIP_CHECK(hipGetLastError());
      HIP_CHECK(hipDeviceSynchronize());
   }
   static int h[5000];
   /* Device 0's values onto device 1 and back into a second buffer on device 0. */
   int *copy1, *copy0;
   HIP_CHECK(hipSetDevice(1));
   HIP_CHECK(hipMalloc(&copy1, n * sizeof(int)));
   HIP_CHECK(hipMemcpyPeer(copy1, 1, d[0], 0, n * sizeof(int)));
   HIP_CHECK(hipSetDevice(0));
   HIP_CHECK(hipMalloc(&copy0, n * sizeof(int)));
   HIP_CHECK(hipMemcpyPeer(copy0, 0, d[1], 1, n * sizeof(int)));
   HIP_CHECK(hipSetDevice(1));
   HIP_CHECK(hipMemcpy(h, copy1, sizeof(h), hipMemcpyDeviceToHost));
   for (int i = 0; i < n; i++)
      EXPECT(h[i] == i, "device 0 -> 1 [%d] = %d, host %d", i, h[i], i);
   HIP_CHECK(hipSetDevice(0));
   HIP_CHECK(hipMemcpy(h, copy0, sizeof(h), hipMemcpyDeviceToHost));
   for (int i = 0; i < n; i++)
      EXPECT(h[i] == 100000 + i, "device 1 -> 0 [%d] = %d, host %d", i, h[i], 100000 + i);

   HIP_CHECK(hipSetDevice(1));
   HIP_CHECK(hipDeviceEnablePeerAccess(0, 0));
   hipLaunchKernelGGL(add_remote, dim3((n + 255) / 256), dim3(256), 0, 0, d[0], d[1], n);
   HIP_CHECK(hipGetLastError());
   HIP_CHECK(hipDeviceSynchronize());
   HIP_CHECK(hipMemcpy(h, d[1], sizeof(h), hipMemcpyDeviceToHost));
   for (int i = 0; i < n; i++)
      EXPECT(h[i] == 100000 + 2 * i, "peer read [%d] = %d, host %d", i, h[i], 100000 + 2 * i);
   HIP_CHECK(hipFree(copy1));
   HIP_CHECK(hipFree(d[1]));
   HIP_CHECK(hipSetDevice(0));
   HIP_CHECK(hipFree(copy0));
   HIP_CHECK(hipFree(d[0]));
   return hip_check_done("hip_peer");
}
