/* hipMallocManaged: the host writes, a kernel updates in place, the host reads the same
 * pointer after synchronizing; twice, so the host's second writes reach the GPU too. Also
 * a __managed__ variable. */
#include "hip_check.h"

__managed__ int launches;

__global__ void scale(int *p, int n, int mul)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      p[i] = p[i] * mul + i;
   if (i == 0)
      atomicAdd(&launches, 1);
}

int main(void)
{
   const int n = 10000;
   int *p;
   HIP_CHECK(hipMallocManaged(&p, n * sizeof(int), hipMemAttachGlobal));
   launches = 0;
   for (int i = 0; i < n; i++)
      p[i] = i - 5000;
   hipLaunchKernelGGL(scale, dim3((n + 255) / 256), dim3(256), 0, 0, p, n, 3);
   HIP_CHECK(hipGetLastError());
   HIP_CHECK(hipDeviceSynchronize());
   for (int i = 0; i < n; i++)
      EXPECT(p[i] == (i - 5000) * 3 + i, "first pass [%d] = %d, host %d", i, p[i],
             (i - 5000) * 3 + i);
   for (int i = 0; i < n; i++)
      p[i] = i;
   hipLaunchKernelGGL(scale, dim3((n + 255) / 256), dim3(256), 0, 0, p, n, -2);
   HIP_CHECK(hipGetLastError());
   HIP_CHECK(hipDeviceSynchronize());
   for (int i = 0; i < n; i++)
      EXPECT(p[i] == -i, "second pass [%d] = %d, host %d", i, p[i], -i);
   EXPECT(launches == 2, "__managed__ counter %d, host 2", launches);
   HIP_CHECK(hipFree(p));
   return hip_check_done("hip_managed");
}
