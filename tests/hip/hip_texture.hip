/* Texture objects over linear memory (ROCr's image extension and the GPU's sampler): a 2D
 * float texture over pitched memory read with point sampling at texel centres, with bilinear
 * filtering between texels, and with wrap addressing; a 1D texture over a buffer of ints read
 * with tex1Dfetch. Against the host's texels and filter. (Textures and surfaces over a
 * hipArray are not here: ROCclr makes arrays tiled, SW_4KB_D_X, and the software GPU reads
 * linear images only; conformance/apps.md.) */
#include "hip_check.h"
#include <math.h>

#define W 37
#define H 23

__global__ void sample(hipTextureObject_t point, hipTextureObject_t linear,
                       hipTextureObject_t wrap, float *out)
{
   int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
   if (x >= W)
      return;
   float *o = out + (y * W + x) * 3;
   o[0] = tex2D<float>(point, x + 0.5f, y + 0.5f);
   o[1] = tex2D<float>(linear, x + 0.75f, y + 0.25f);
   o[2] = tex2D<float>(wrap, (x + 0.5f) / W + 1.0f, (y + 0.5f) / H - 2.0f);
}

__global__ void fetch1d(hipTextureObject_t t, int n, int *out)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      out[i] = tex1Dfetch<int>(t, i);
}

static float texel(const float *img, int x, int y)
{
   x = x < 0 ? 0 : x >= W ? W - 1 : x;
   y = y < 0 ? 0 : y >= H ? H - 1 : y;
   return img[y * W + x];
}

static hipTextureObject_t make_tex(float *mem, size_t pitch, hipTextureFilterMode filter,
                                   hipTextureAddressMode mode, int normalized)
{
   hipResourceDesc res = {};
   res.resType = hipResourceTypePitch2D;
   res.res.pitch2D.devPtr = mem;
   res.res.pitch2D.desc = hipCreateChannelDesc<float>();
   res.res.pitch2D.width = W;
   res.res.pitch2D.height = H;
   res.res.pitch2D.pitchInBytes = pitch;
   hipTextureDesc td = {};
   td.addressMode[0] = td.addressMode[1] = mode;
   td.filterMode = filter;
   td.readMode = hipReadModeElementType;
   td.normalizedCoords = normalized;
   hipTextureObject_t t;
   HIP_CHECK(hipCreateTextureObject(&t, &res, &td, NULL));
   return t;
}

int main(void)
{
   static float img[W * H], out[W * H * 3];
   for (int i = 0; i < W * H; i++)
      img[i] = (float)((i * 7919) % 1000) / 8.0f;
   float *mem;
   size_t pitch;
   HIP_CHECK(hipMallocPitch((void **)&mem, &pitch, W * sizeof(float), H));
   HIP_CHECK(hipMemcpy2D(mem, pitch, img, W * sizeof(float), W * sizeof(float), H,
                         hipMemcpyHostToDevice));
   hipTextureObject_t point = make_tex(mem, pitch, hipFilterModePoint, hipAddressModeClamp, 0);
   hipTextureObject_t linear = make_tex(mem, pitch, hipFilterModeLinear, hipAddressModeClamp, 0);
   /* Wrap addressing needs normalized coordinates. */
   hipTextureObject_t wrap = make_tex(mem, pitch, hipFilterModePoint, hipAddressModeWrap, 1);
   float *dout;
   HIP_CHECK(hipMalloc(&dout, sizeof(out)));
   hipLaunchKernelGGL(sample, dim3((W + 63) / 64, H), dim3(64), 0, 0, point, linear, wrap, dout);
   HIP_CHECK(hipGetLastError());
   HIP_CHECK(hipMemcpy(out, dout, sizeof(out), hipMemcpyDeviceToHost));
   for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++) {
         const float *o = out + (y * W + x) * 3;
         float p = img[y * W + x];
         EXPECT(o[0] == p, "point (%d,%d) = %g, host %g", x, y, o[0], p);
         EXPECT(o[2] == p, "wrap (%d,%d) = %g, host %g", x, y, o[2], p);
         /* Unnormalized x + 0.75, y + 0.25: between texels x and x+1 at a = 0.25, and y-1
          * and y at b = 0.75. */
         float a = 0.25f, b = 0.75f;
         float l = (1 - a) * (1 - b) * texel(img, x, y - 1) + a * (1 - b) * texel(img, x + 1, y - 1) +
                   (1 - a) * b * texel(img, x, y) + a * b * texel(img, x + 1, y);
         float tol = 1e-5f * fabsf(l) + 1e-4f;
         EXPECT(fabsf(o[1] - l) <= tol, "linear (%d,%d) = %g, host %g", x, y, o[1], l);
      }

   /* tex1Dfetch over a linear buffer of ints. */
   const int n = 1000;
   static int ints[1000], back[1000];
   for (int i = 0; i < n; i++)
      ints[i] = i * i - 12345;
   int *dints, *dback;
   HIP_CHECK(hipMalloc(&dints, sizeof(ints)));
   HIP_CHECK(hipMalloc(&dback, sizeof(back)));
   HIP_CHECK(hipMemcpy(dints, ints, sizeof(ints), hipMemcpyHostToDevice));
   hipResourceDesc res = {};
   res.resType = hipResourceTypeLinear;
   res.res.linear.devPtr = dints;
   res.res.linear.desc = hipCreateChannelDesc<int>();
   res.res.linear.sizeInBytes = sizeof(ints);
   hipTextureDesc td = {};
   td.readMode = hipReadModeElementType;
   hipTextureObject_t lin;
   HIP_CHECK(hipCreateTextureObject(&lin, &res, &td, NULL));
   hipLaunchKernelGGL(fetch1d, dim3((n + 255) / 256), dim3(256), 0, 0, lin, n, dback);
   HIP_CHECK(hipGetLastError());
   HIP_CHECK(hipMemcpy(back, dback, sizeof(back), hipMemcpyDeviceToHost));
   for (int i = 0; i < n; i++)
      EXPECT(back[i] == ints[i], "tex1Dfetch[%d] = %d, host %d", i, back[i], ints[i]);

   HIP_CHECK(hipDestroyTextureObject(point));
   HIP_CHECK(hipDestroyTextureObject(linear));
   HIP_CHECK(hipDestroyTextureObject(wrap));
   HIP_CHECK(hipDestroyTextureObject(lin));
   HIP_CHECK(hipFree(mem));
   HIP_CHECK(hipFree(dout));
   HIP_CHECK(hipFree(dints));
   HIP_CHECK(hipFree(dback));
   return hip_check_done("hip_texture");
}
