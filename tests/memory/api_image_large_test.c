/*
 * tests/memory/api_image_large_test.c — large image and rectangle transfers end to end (OpenCL 3.0
 * API §5.3.3, §5.2.3), the pattern of the CTS's test_basic imagereadwrite(3d): random
 * sub-rectangles of 512 x 512 images written from host memory laid out as the whole image
 * (the row pitch of the full width) or packed, each followed by a read of the whole image
 * compared with a host model; 3D regions of a 64 x 64 x 32 image likewise; sub-rectangle
 * reads into a pitched host buffer; a one-texel column; buffer rectangles whose rows have
 * gaps (a write must leave the bytes between its rows alone); image copies whose rows are
 * adjacent on one side only, on both, and whole 3D slabs.
 *
 * On ROCr every row of a transfer was a blit-kernel dispatch on 64-packet queues: hundreds
 * of packets per command came round the ring, where the software GPU's packet processor
 * re-ran a dispatch still running and lost the packet after it (sim/sim_cp.c, pinned
 * deterministically by sim_test_queue); and the driver now merges adjacent rows into one
 * copy (memory/mem_transfer.c coalesce_staged), which these checks cover on both runtimes.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include "hsacl_test.h"

#include <stdbool.h>
#include <stdint.h>

static cl_context ctx;
static cl_command_queue q;
static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint32_t
rnd(void)
{
   rng ^= rng << 13;
   rng ^= rng >> 7;
   rng ^= rng << 17;
   return (uint32_t)(rng >> 16);
}

static void
fill_random(unsigned char *p, size_t n)
{
   for (size_t i = 0; i < n; i++)
      p[i] = (unsigned char)rnd();
}

/* First differing byte, or SIZE_MAX. */
static size_t
first_diff(const unsigned char *a, const unsigned char *b, size_t n)
{
   for (size_t i = 0; i < n; i++) {
      if (a[i] != b[i])
         return i;
   }
   return SIZE_MAX;
}

static cl_mem
make_image(cl_mem_object_type type, cl_channel_type ct, size_t w, size_t h, size_t d)
{
   cl_image_format fmt = { CL_RGBA, ct };
   cl_image_desc desc;
   memset(&desc, 0, sizeof(desc));
   desc.image_type = type;
   desc.image_width = w;
   desc.image_height = h;
   desc.image_depth = d;
   cl_int err;
   cl_mem m = clCreateImage(ctx, CL_MEM_READ_WRITE, &fmt, &desc, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   return m;
}

/* Whole-image read compared with the model; reports the first wrong texel's row. */
static void
check_whole(cl_mem img, const unsigned char *model, unsigned char *out, const size_t *ext,
            size_t es, const char *what, int t)
{
   size_t total = ext[0] * ext[1] * ext[2] * es;
   memset(out, 7, total);
   const size_t zero[3] = { 0, 0, 0 };
   CHECK_EQ_INT(clEnqueueReadImage(q, img, CL_TRUE, zero, ext, 0, 0, out, 0, NULL, NULL),
                CL_SUCCESS);
   size_t bad = first_diff(model, out, total);
   if (bad != SIZE_MAX)
      printf("%s try %d: first wrong byte %zu (row %zu, slice %zu)\n", what, t, bad,
             bad / (ext[0] * es) % ext[1], bad / (ext[0] * ext[1] * es));
   CHECK(bad == SIZE_MAX);
}

/* 2D: random regions, half of them large, written packed or from the full-width layout. */
static void
test_2d(cl_channel_type ct, size_t es, int tries)
{
   const size_t W = 512, H = 512, ext[3] = { W, H, 1 }, total = W * H * es;
   cl_mem img = make_image(CL_MEM_OBJECT_IMAGE2D, ct, W, H, 1);
   unsigned char *model = malloc(total), *out = malloc(total), *packed = malloc(total);
   CHECK(model && out && packed);
   fill_random(model, total);
   const size_t zero[3] = { 0, 0, 0 };
   CHECK_EQ_INT(clEnqueueWriteImage(q, img, CL_TRUE, zero, ext, 0, 0, model, 0, NULL, NULL),
                CL_SUCCESS);
   check_whole(img, model, out, ext, es, "2d initial", -1);
   for (int t = 0; t < tries; t++) {
      size_t x, y, w, h;
      if (t & 1) {
         x = rnd() % 32, y = rnd() % 64;
         w = W - x - rnd() % 16, h = H - y - rnd() % 64;
      } else {
         x = rnd() % W, y = rnd() % H;
         w = 1 + rnd() % (W - x), h = 1 + rnd() % (H - y);
      }
      const size_t origin[3] = { x, y, 0 }, region[3] = { w, h, 1 };
      bool unpacked = t % 3 != 0;
      const void *src;
      size_t pitch;
      if (unpacked) {
         for (size_t r = 0; r < h; r++)
            fill_random(model + ((y + r) * W + x) * es, w * es);
         src = model + (y * W + x) * es;
         pitch = W * es;
      } else {
         fill_random(packed, w * h * es);
         for (size_t r = 0; r < h; r++)
            memcpy(model + ((y + r) * W + x) * es, packed + r * w * es, w * es);
         src = packed;
         pitch = (t & 2) ? w * es : 0;
      }
      CHECK_EQ_INT(clEnqueueWriteImage(q, img, CL_TRUE, origin, region, pitch, 0, src, 0,
                                       NULL, NULL), CL_SUCCESS);
      check_whole(img, model, out, ext, es, "2d", t);
      /* The same region read back into a full-width host layout (gaps between rows). */
      memset(out, 5, total);
      CHECK_EQ_INT(clEnqueueReadImage(q, img, CL_TRUE, origin, region, W * es, 0,
                                      out + (y * W + x) * es, 0, NULL, NULL), CL_SUCCESS);
      bool same = true, gaps_kept = true;
      for (size_t r = 0; r < h; r++) {
         size_t row = (y + r) * W * es;
         same &= !memcmp(out + row + x * es, model + row + x * es, w * es);
         if (x)
            gaps_kept &= out[row + x * es - 1] == 5;
      }
      CHECK(same);
      CHECK(gaps_kept);
   }
   /* One texel column, all rows (rows too far apart to merge). */
   const size_t col_o[3] = { 300, 0, 0 }, col_r[3] = { 1, H, 1 };
   CHECK_EQ_INT(clEnqueueReadImage(q, img, CL_TRUE, col_o, col_r, 0, 0, out, 0, NULL, NULL),
                CL_SUCCESS);
   bool col = true;
   for (size_t r = 0; r < H; r++)
      col &= !memcmp(out + r * es, model + (r * W + 300) * es, es);
   CHECK(col);
   free(model);
   free(out);
   free(packed);
   clReleaseMemObject(img);
}

/* 3D: random boxes (some full width: whole slices in one run), whole-image reads. */
static void
test_3d(int tries)
{
   const size_t W = 64, H = 64, D = 32, es = 4, ext[3] = { W, H, D };
   const size_t total = W * H * D * es;
   cl_mem img = make_image(CL_MEM_OBJECT_IMAGE3D, CL_UNORM_INT8, W, H, D);
   unsigned char *model = malloc(total), *out = malloc(total);
   CHECK(model && out);
   fill_random(model, total);
   const size_t zero[3] = { 0, 0, 0 };
   CHECK_EQ_INT(clEnqueueWriteImage(q, img, CL_TRUE, zero, ext, 0, 0, model, 0, NULL, NULL),
                CL_SUCCESS);
   check_whole(img, model, out, ext, es, "3d initial", -1);
   for (int t = 0; t < tries; t++) {
      size_t x = (t & 1) ? 0 : rnd() % W, y = rnd() % H, z = rnd() % D;
      size_t w = (t & 1) ? W : 1 + rnd() % (W - x);
      size_t h = 1 + rnd() % (H - y), d = 1 + rnd() % (D - z);
      for (size_t s = 0; s < d; s++) {
         for (size_t r = 0; r < h; r++)
            fill_random(model + (((z + s) * H + y + r) * W + x) * es, w * es);
      }
      const size_t origin[3] = { x, y, z }, region[3] = { w, h, d };
      CHECK_EQ_INT(clEnqueueWriteImage(q, img, CL_TRUE, origin, region, W * es, W * H * es,
                                       model + ((z * H + y) * W + x) * es, 0, NULL, NULL),
                   CL_SUCCESS);
      check_whole(img, model, out, ext, es, "3d", t);
   }
   free(model);
   free(out);
   clReleaseMemObject(img);
}

/* Copies: whole-width boxes (rows adjacent on both sides: merged into runs), half-width
 * boxes (adjacent on neither side), half-width rows into a packed buffer (adjacent only in
 * the destination: not merged), whole images into a buffer and back. */
static void
test_copies(void)
{
   const size_t W = 64, H = 64, D = 32, es = 4, total = W * H * D * es;
   cl_mem a = make_image(CL_MEM_OBJECT_IMAGE3D, CL_UNORM_INT8, W, H, D);
   cl_mem b = make_image(CL_MEM_OBJECT_IMAGE3D, CL_UNORM_INT8, W, H, D);
   cl_mem c = make_image(CL_MEM_OBJECT_IMAGE3D, CL_UNORM_INT8, W / 2, H, D);
   unsigned char *ma = malloc(total), *mb = malloc(total), *mc = malloc(total / 2);
   unsigned char *out = malloc(total);
   CHECK(ma && mb && mc && out);
   fill_random(ma, total);
   fill_random(mb, total);
   fill_random(mc, total / 2);
   const size_t zero[3] = { 0, 0, 0 }, ext[3] = { W, H, D }, half[3] = { W / 2, H, D };
   CHECK_EQ_INT(clEnqueueWriteImage(q, a, CL_FALSE, zero, ext, 0, 0, ma, 0, NULL, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueWriteImage(q, b, CL_FALSE, zero, ext, 0, 0, mb, 0, NULL, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueWriteImage(q, c, CL_TRUE, zero, half, 0, 0, mc, 0, NULL, NULL),
                CL_SUCCESS);
   /* a -> b: slices 3..20, rows 5..60, full width, to slices 10..27 rows 0..55. */
   const size_t so[3] = { 0, 5, 3 }, dst_o[3] = { 0, 0, 10 }, reg[3] = { W, 56, 18 };
   CHECK_EQ_INT(clEnqueueCopyImage(q, a, b, so, dst_o, reg, 0, NULL, NULL), CL_SUCCESS);
   for (size_t s = 0; s < reg[2]; s++) {
      for (size_t r = 0; r < reg[1]; r++)
         memcpy(mb + ((10 + s) * H + r) * W * es, ma + ((3 + s) * H + 5 + r) * W * es, W * es);
   }
   check_whole(b, mb, out, ext, es, "copy 3d whole width", 0);
   /* a -> c: the left half of every row (c's 128-byte rows have a 256-byte pitch). */
   CHECK_EQ_INT(clEnqueueCopyImage(q, a, c, zero, zero, half, 0, NULL, NULL), CL_SUCCESS);
   for (size_t i = 0; i < H * D; i++)
      memcpy(mc + i * (W / 2) * es, ma + i * W * es, (W / 2) * es);
   check_whole(c, mc, out, half, es, "copy 3d half width", 0);
   /* b -> buffer -> a, whole images (one run each way). */
   cl_int err;
   cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, total, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueCopyImageToBuffer(q, b, buf, zero, ext, 0, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueCopyBufferToImage(q, buf, a, 0, zero, ext, 0, NULL, NULL), CL_SUCCESS);
   check_whole(a, mb, out, ext, es, "copy via buffer", 0);
   /* The left half of every row of a into the packed buffer. */
   CHECK_EQ_INT(clEnqueueCopyImageToBuffer(q, a, buf, zero, half, 0, 0, NULL, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, total / 2, out, 0, NULL, NULL),
                CL_SUCCESS);
   bool packed_ok = true;
   for (size_t i = 0; i < H * D; i++)
      packed_ok &= !memcmp(out + i * (W / 2) * es, mb + i * W * es, (W / 2) * es);
   CHECK(packed_ok);
   clReleaseMemObject(buf);
   clReleaseMemObject(a);
   clReleaseMemObject(b);
   clReleaseMemObject(c);
   free(ma);
   free(mb);
   free(mc);
   free(out);
}

/* Buffer rectangles with gaps: a read may fetch the gaps, a write must not touch them. */
static void
test_buffer_rect(void)
{
   const size_t size = 1 << 20, row = 1100, width = 1000, rows = 300;
   unsigned char *model = malloc(size), *out = malloc(size), *host = malloc(rows * width);
   CHECK(model && out && host);
   fill_random(model, size);
   cl_int err;
   cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, size, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueWriteBuffer(q, buf, CL_TRUE, 0, size, model, 0, NULL, NULL),
                CL_SUCCESS);
   const size_t bo[3] = { 40, 7, 0 }, ho[3] = { 0, 0, 0 }, region[3] = { width, rows, 1 };
   CHECK_EQ_INT(clEnqueueReadBufferRect(q, buf, CL_TRUE, bo, ho, region, row, 0, width, 0,
                                        host, 0, NULL, NULL), CL_SUCCESS);
   bool same = true;
   for (size_t r = 0; r < rows; r++)
      same &= !memcmp(host + r * width, model + 40 + (7 + r) * row, width);
   CHECK(same);
   fill_random(host, rows * width);
   CHECK_EQ_INT(clEnqueueWriteBufferRect(q, buf, CL_TRUE, bo, ho, region, row, 0, width, 0,
                                         host, 0, NULL, NULL), CL_SUCCESS);
   for (size_t r = 0; r < rows; r++)
      memcpy(model + 40 + (7 + r) * row, host + r * width, width);
   CHECK_EQ_INT(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, size, out, 0, NULL, NULL),
                CL_SUCCESS);
   CHECK(first_diff(model, out, size) == SIZE_MAX);
   clReleaseMemObject(buf);
   free(model);
   free(out);
   free(host);
}

int
main(void)
{
   test_watchdog("api_image_large_test", 280);
   cl_platform_id platform;
   cl_device_id device;
   cl_int err;
   if (clGetPlatformIDs(1, &platform, NULL) != CL_SUCCESS ||
       clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &device, NULL) != CL_SUCCESS) {
      fprintf(stderr, "no hsacl device\n");
      return 1;
   }
   ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   q = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   test_buffer_rect();
   cl_bool images = CL_FALSE;
   CHECK_EQ_INT(clGetDeviceInfo(device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL),
                CL_SUCCESS);
   CHECK(images); /* both runtimes have the image extension */
   if (images) {
      test_2d(CL_FLOAT, 16, 8);
      test_2d(CL_UNORM_INT8, 4, 8);
      test_2d(CL_UNORM_INT16, 8, 8);
      test_3d(10);
      test_copies();
   }
   clReleaseCommandQueue(q);
   clReleaseContext(ctx);
   return test_main_end();
}
