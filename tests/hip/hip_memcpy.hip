/* hipMemcpy and hipMemset in every direction, at many sizes and misaligned offsets (ROCr's
 * blit kernels choose their path by size and alignment), plus the async and 2D forms, each
 * compared byte for byte with the host. */
#include "hip_check.h"
#include <stdint.h>
#include <string.h>

#define BUF 70000

static unsigned char pattern(size_t i, unsigned seed)
{
   return (unsigned char)((i * 131u + seed * 17u) ^ (i >> 8));
}

static void fill(unsigned char *p, size_t n, unsigned seed)
{
   for (size_t i = 0; i < n; i++)
      p[i] = pattern(i, seed);
}

static void expect_equal(const unsigned char *got, const unsigned char *want, size_t n,
                         const char *what, size_t size, size_t off)
{
   for (size_t i = 0; i < n; i++)
      if (got[i] != want[i]) {
         EXPECT(0, "%s size %zu offset %zu: byte %zu is %#x, host %#x", what, size, off, i,
                got[i], want[i]);
         return;
      }
}

/* HIP 5.2.3's hipMemset family (ROCclr's ihipMemsetCommand) splits a fill into an unaligned
 * head up to the next 8-byte boundary, an aligned middle and a tail, without checking that
 * the fill reaches the boundary: a fill shorter than its head writes the whole head and then
 * an aligned fill of (size - head) / 8 words, underflowed to 2^61 - 1 (AMD_LOG_LEVEL=3 shows
 * fillBufferAligned with size 2305843009213693951 for hipMemset(p + 1, v, 1)); on any GPU that
 * faults. Later HIP releases guard the split. Only fills that reach their boundary are made. */
static int memset_reaches_boundary(const void *p, size_t bytes)
{
   return bytes >= (8 - (uintptr_t)p % 8) % 8;
}

int main(void)
{
   static const size_t sizes[] = {1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 31, 63, 64, 65, 127, 255,
                                  256, 257, 1000, 1023, 4096, 4099, 16384, 65536 + 13};
   static const size_t offs[] = {0, 1, 2, 3, 4, 7, 8, 13, 64, 100};
   unsigned char *host = (unsigned char *)malloc(BUF), *back = (unsigned char *)malloc(BUF);
   unsigned char *want = (unsigned char *)malloc(BUF);
   unsigned char *pinned;
   unsigned char *d0, *d1;
   HIP_CHECK(hipMalloc(&d0, BUF));
   HIP_CHECK(hipMalloc(&d1, BUF));
   HIP_CHECK(hipHostMalloc(&pinned, BUF, hipHostMallocDefault));
   unsigned seed = 1;
   for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
      for (size_t oi = 0; oi < sizeof(offs) / sizeof(offs[0]); oi++) {
         size_t size = sizes[si], off = offs[oi], off2 = offs[(oi + 3) % 10];
         if (size + 100 > BUF)
            continue;
         seed++;
         /* Host to device at off, device to device to off2, device to host. */
         fill(host, BUF, seed);
         HIP_CHECK(hipMemset(d0, 0, BUF));
         HIP_CHECK(hipMemset(d1, 0xa5, BUF));
         HIP_CHECK(hipMemcpy(d0 + off, host, size, hipMemcpyHostToDevice));
         HIP_CHECK(hipMemcpy(d1 + off2, d0 + off, size, hipMemcpyDeviceToDevice));
         HIP_CHECK(hipMemcpy(back, d1, BUF, hipMemcpyDeviceToHost));
         memset(want, 0xa5, BUF);
         memcpy(want + off2, host, size);
         expect_equal(back, want, BUF, "H2D+D2D+D2H", size, off);
         /* The untouched bytes around the H2D copy stay 0. */
         HIP_CHECK(hipMemcpy(back, d0, BUF, hipMemcpyDeviceToHost));
         memset(want, 0, BUF);
         memcpy(want + off, host, size);
         expect_equal(back, want, BUF, "H2D", size, off);
         /* Device to host into a misaligned host address. */
         memset(back, 0x5a, BUF);
         HIP_CHECK(hipMemcpy(back + off2, d0 + off, size, hipMemcpyDeviceToHost));
         memset(want, 0x5a, BUF);
         memcpy(want + off2, host, size);
         expect_equal(back, want, BUF, "D2H", size, off);
         /* hipMemset, hipMemsetD16 and hipMemsetD32 at the offset. */
         if (memset_reaches_boundary(d0 + off, size)) {
            HIP_CHECK(hipMemset(d0 + off, (int)(seed & 0xff), size));
            HIP_CHECK(hipMemcpy(back, d0, BUF, hipMemcpyDeviceToHost));
            memset(want, 0, BUF);
            memcpy(want + off, host, size);
            memset(want + off, (int)(seed & 0xff), size);
            expect_equal(back, want, BUF, "hipMemset", size, off);
         }
         size_t words = size / 4 + 1;
         unsigned value = 0x01020304u * seed;
         if (memset_reaches_boundary(d1 + off * 4, words * 4)) {
            HIP_CHECK(hipMemset(d1, 0xa5, BUF));
            HIP_CHECK(hipMemsetD32((hipDeviceptr_t)(d1 + off * 4), (int)value, words));
            HIP_CHECK(hipMemcpy(back, d1, BUF, hipMemcpyDeviceToHost));
            for (size_t w = 0; w < words; w++) {
               unsigned got;
               memcpy(&got, back + off * 4 + w * 4, 4);
               if (got != value) {
                  EXPECT(0, "hipMemsetD32 size %zu offset %zu: word %zu is %#x, host %#x",
                         size, off * 4, w, got, value);
                  break;
               }
            }
            unsigned before, after;
            memcpy(&before, back + off * 4 - 4 * (off > 0), 4);
            memcpy(&after, back + off * 4 + words * 4, 4);
            EXPECT(off == 0 || before == 0xa5a5a5a5u, "hipMemsetD32 wrote before its start");
            EXPECT(after == 0xa5a5a5a5u, "hipMemsetD32 size %zu offset %zu wrote past its end",
                   size, off * 4);
         }
         size_t halves = size / 2 + 1;
         if (memset_reaches_boundary(d0 + off * 2, halves * 2)) {
            HIP_CHECK(hipMemsetD16((hipDeviceptr_t)(d0 + off * 2), (unsigned short)seed,
                                   halves));
            HIP_CHECK(hipMemcpy(back, d0, BUF, hipMemcpyDeviceToHost));
            for (size_t w = 0; w < halves; w++) {
               unsigned short got;
               memcpy(&got, back + off * 2 + w * 2, 2);
               if (got != (unsigned short)seed) {
                  EXPECT(0, "hipMemsetD16 size %zu offset %zu: half %zu is %#x, host %#x",
                         size, off * 2, w, got, (unsigned short)seed);
                  break;
               }
            }
         }
         /* Pinned host memory, async both ways on the null stream. */
         fill(pinned, BUF, seed * 3);
         memcpy(want, pinned, BUF);
         HIP_CHECK(hipMemcpyAsync(d0 + off, pinned + off2, size, hipMemcpyHostToDevice, 0));
         HIP_CHECK(hipStreamSynchronize(0));
         memset(pinned, 0, BUF);
         HIP_CHECK(hipMemcpyAsync(pinned + off, d0 + off, size, hipMemcpyDeviceToHost, 0));
         HIP_CHECK(hipStreamSynchronize(0));
         expect_equal(pinned + off, want + off2, size, "async pinned", size, off);
      }
   }
   /* A 2D copy: a 37 x 19 box between pitched allocations. */
   size_t pitch;
   unsigned char *d2;
   HIP_CHECK(hipMallocPitch((void **)&d2, &pitch, 100, 40));
   fill(host, BUF, 77);
   HIP_CHECK(hipMemset2D(d2, pitch, 0x11, 100, 40));
   HIP_CHECK(hipMemcpy2D(d2 + 3 * pitch + 5, pitch, host, 50, 37, 19, hipMemcpyHostToDevice));
   HIP_CHECK(hipMemcpy2D(back, 100, d2, pitch, 100, 40, hipMemcpyDeviceToHost));
   for (int y = 0; y < 40; y++)
      for (int xx = 0; xx < 100; xx++) {
         unsigned char e = (y >= 3 && y < 22 && xx >= 5 && xx < 42)
                              ? host[(y - 3) * 50 + (xx - 5)] : 0x11;
         EXPECT(back[y * 100 + xx] == e, "2D copy (%d,%d) is %#x, host %#x", xx, y,
                back[y * 100 + xx], e);
      }
   HIP_CHECK(hipFree(d2));
   HIP_CHECK(hipFree(d0));
   HIP_CHECK(hipFree(d1));
   HIP_CHECK(hipHostFree(pinned));
   free(host);
   free(back);
   free(want);
   return hip_check_done("hip_memcpy");
}
