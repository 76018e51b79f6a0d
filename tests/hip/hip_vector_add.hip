/* Element-wise a + b over a grid with a partial last block, against the host. */
#include "hip_check.h"

__global__ void vector_add(const float *a, const float *b, float *c, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      c[i] = a[i] + b[i];
}

int main(void)
{
   const int n = 100003;
   float *ha = (float *)malloc(n * sizeof(float)), *hb = (float *)malloc(n * sizeof(float));
   float *hc = (float *)malloc(n * sizeof(float));
   for (int i = 0; i < n; i++) {
      ha[i] = (float)i * 0.5f;
      hb[i] = 1.0f / (float)(i + 1);
   }
   float *a, *b, *c;
   HIP_CHECK(hipMalloc(&a, n * sizeof(float)));
   HIP_CHECK(hipMalloc(&b, n * sizeof(float)));
   HIP_CHECK(hipMalloc(&c, n * sizeof(float)));
   HIP_CHECK(hipMemcpy(a, ha, n * sizeof(float), hipMemcpyHostToDevice));
   HIP_CHECK(hipMemcpy(b, hb, n * sizeof(float), hipMemcpyHostToDevice));
   HIP_CHECK(hipMemset(c, 0xff, n * sizeof(float)));
   hipLaunchKernelGGL(vector_add, dim3((n + 255) / 256), dim3(256), 0, 0, a, b, c, n);
   HIP_CHECK(hipGetLastError());
   HIP_CHECK(hipMemcpy(hc, c, n * sizeof(float), hipMemcpyDeviceToHost));
   for (int i = 0; i < n; i++)
      EXPECT(hc[i] == ha[i] + hb[i], "c[%d] = %a, host %a", i, hc[i], ha[i] + hb[i]);
   HIP_CHECK(hipFree(a));
   HIP_CHECK(hipFree(b));
   HIP_CHECK(hipFree(c));
   free(ha);
   free(hb);
   free(hc);
   return hip_check_done("hip_vector_add");
}
