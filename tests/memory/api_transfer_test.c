/*
 * tests/memory/api_transfer_test.c — buffer commands through the loader on the software GPU:
 * read/write/copy/fill and their rectangular forms, map/unmap (blocking and not,
 * CL_MAP_WRITE_INVALIDATE_REGION), migrate, ordering behind user events, and the error
 * codes of OpenCL 3.0 API §5.2.2–§5.2.4, on device-only and host-visible buffers; reads
 * and writes of device-only buffers straight from and into the application's memory
 * (memory/mem_transfer.c, "direct"): unaligned, overlapping in time, from a
 * CL_MEM_USE_HOST_PTR buffer's memory, and past the staging cache without new pages, for
 * whole ranges and rectangles.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/resource.h>

#include "hsacl_test.h"

static cl_context ctx;
static cl_device_id device;
static cl_command_queue q;
static bool on_rocr; /* ROCr makes rectangular copies only on SDMA engines: staged here */

static void
fill_pattern(unsigned char *p, size_t n, unsigned seed)
{
   for (size_t i = 0; i < n; i++)
      p[i] = (unsigned char)(i * 7 + seed);
}

/* Write, read back, copy, fill, rect and map on one kind of buffer. */
static void
exercise(cl_mem_flags flags, const char *label)
{
   enum { N = 1 << 16 };
   cl_int err;
   unsigned char *host = malloc(N), *back = malloc(N), *use = NULL;
   fill_pattern(host, N, 3);
   if (flags & CL_MEM_USE_HOST_PTR) {
      use = malloc(N);
      memset(use, 0, N);
   }
   cl_mem a = clCreateBuffer(ctx, flags, N, use, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N, NULL, &err);
   CHECK_EQ_INT(clEnqueueWriteBuffer(q, a, CL_TRUE, 0, N, host, 0, NULL, NULL), CL_SUCCESS);
   memset(back, 0, N);
   CHECK_EQ_INT(clEnqueueReadBuffer(q, a, CL_TRUE, 0, N, back, 0, NULL, NULL), CL_SUCCESS);
   if (memcmp(back, host, N))
      fprintf(stderr, "%s: read-back differs\n", label);
   CHECK(!memcmp(back, host, N));
   if (use)
      CHECK(!memcmp(use, host, N)); /* USE_HOST_PTR: the host memory is the buffer */

   /* Partial, non-blocking, then copy to b and read b. */
   unsigned char part[100];
   fill_pattern(part, sizeof(part), 99);
   cl_event w;
   CHECK_EQ_INT(clEnqueueWriteBuffer(q, a, CL_FALSE, 1000, sizeof(part), part, 0, NULL, &w),
                CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueCopyBuffer(q, a, b, 0, 0, N, 1, &w, NULL), CL_SUCCESS);
   memset(back, 0, N);
   cl_event r;
   CHECK_EQ_INT(clEnqueueReadBuffer(q, b, CL_FALSE, 0, N, back, 0, NULL, &r), CL_SUCCESS);
   CHECK_EQ_INT(clWaitForEvents(1, &r), CL_SUCCESS);
   memcpy(host + 1000, part, sizeof(part));
   CHECK(!memcmp(back, host, N));
   clReleaseEvent(w);
   clReleaseEvent(r);

   /* Fill with a 4-byte and a 16-byte pattern. */
   uint32_t pat4 = 0xdeadbeef;
   CHECK_EQ_INT(clEnqueueFillBuffer(q, a, &pat4, 4, 64, 256, 0, NULL, NULL), CL_SUCCESS);
   unsigned char pat16[16];
   fill_pattern(pat16, 16, 5);
   CHECK_EQ_INT(clEnqueueFillBuffer(q, a, pat16, 16, 4096, 4096, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueReadBuffer(q, a, CL_TRUE, 0, N, back, 0, NULL, NULL), CL_SUCCESS);
   for (int i = 0; i < 64; i++)
      memcpy(host + 64 + 4 * i, &pat4, 4);
   for (int i = 0; i < 256; i++)
      memcpy(host + 4096 + 16 * i, pat16, 16);
   CHECK(!memcmp(back, host, N));

   /* Rectangles: a 16x8x2 box at (3,2,1) in a 64-byte-row, 1024-byte-slice view. */
   size_t buf_origin[3] = { 3, 2, 1 }, host_origin[3] = { 1, 1, 0 }, region[3] = { 16, 8, 2 };
   unsigned char box[32 * 10 * 2];
   fill_pattern(box, sizeof(box), 77);
   CHECK_EQ_INT(clEnqueueWriteBufferRect(q, a, CL_TRUE, buf_origin, host_origin, region, 64,
                                         1024, 32, 320, box, 0, NULL, NULL), CL_SUCCESS);
   for (size_t s = 0; s < 2; s++)
      for (size_t y = 0; y < 8; y++)
         memcpy(host + 3 + (2 + y) * 64 + (1 + s) * 1024, box + 1 + (1 + y) * 32 + s * 320, 16);
   CHECK_EQ_INT(clEnqueueReadBuffer(q, a, CL_TRUE, 0, N, back, 0, NULL, NULL), CL_SUCCESS);
   CHECK(!memcmp(back, host, N));
   unsigned char box2[sizeof(box)];
   memset(box2, 0, sizeof(box2));
   CHECK_EQ_INT(clEnqueueReadBufferRect(q, a, CL_TRUE, buf_origin, host_origin, region, 64,
                                        1024, 32, 320, box2, 0, NULL, NULL), CL_SUCCESS);
   for (size_t s = 0; s < 2; s++)
      for (size_t y = 0; y < 8; y++)
         CHECK(!memcmp(box2 + 1 + (1 + y) * 32 + s * 320, box + 1 + (1 + y) * 32 + s * 320, 16));
   size_t src_origin[3] = { 0, 0, 0 }, dst_origin[3] = { 8, 4, 0 }, r2[3] = { 32, 4, 1 };
   CHECK_EQ_INT(clEnqueueCopyBufferRect(q, a, b, src_origin, dst_origin, r2, 64, 0, 128, 0, 0,
                                        NULL, NULL), CL_SUCCESS);
   unsigned char *bb = malloc(N);
   CHECK_EQ_INT(clEnqueueReadBuffer(q, b, CL_TRUE, 0, N, bb, 0, NULL, NULL), CL_SUCCESS);
   for (size_t y = 0; y < 4; y++)
      CHECK(!memcmp(bb + 8 + (4 + y) * 128, host + y * 64, 32));
   free(bb);

   /* Map for reading, then for writing, unmap, read back. */
   void *m = clEnqueueMapBuffer(q, a, CL_TRUE, CL_MAP_READ, 128, 512, 0, NULL, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   CHECK(m && !memcmp(m, host + 128, 512));
   if (use)
      CHECK(m == use + 128);
   cl_uint count = 0;
   clGetMemObjectInfo(a, CL_MEM_MAP_COUNT, sizeof(count), &count, NULL);
   CHECK_EQ_INT(count, 1);
   CHECK_EQ_INT(clEnqueueUnmapMemObject(q, a, m, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueUnmapMemObject(q, a, m, 0, NULL, NULL), CL_INVALID_VALUE);
   cl_event me;
   unsigned char *wm = clEnqueueMapBuffer(q, a, CL_FALSE, CL_MAP_WRITE_INVALIDATE_REGION, 0, 256,
                                          0, NULL, &me, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   CHECK_EQ_INT(clWaitForEvents(1, &me), CL_SUCCESS);
   clReleaseEvent(me);
   memset(wm, 0x5a, 256);
   CHECK_EQ_INT(clEnqueueUnmapMemObject(q, a, wm, 0, NULL, NULL), CL_SUCCESS);
   memset(host, 0x5a, 256);
   CHECK_EQ_INT(clEnqueueReadBuffer(q, a, CL_TRUE, 0, N, back, 0, NULL, NULL), CL_SUCCESS);
   CHECK(!memcmp(back, host, N));
   CHECK_EQ_INT(clEnqueueMigrateMemObjects(q, 1, &a, CL_MIGRATE_MEM_OBJECT_HOST, 0, NULL, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
   clReleaseMemObject(a);
   clReleaseMemObject(b);
   free(host);
   free(back);
   free(use);
}

static long
minor_faults(void)
{
   struct rusage ru;
   getrusage(RUSAGE_SELF, &ru);
   return ru.ru_minflt;
}

/* Sums a (the buffer's whole length) into b[0]: a kernel the GPU runs on a USE_HOST_PTR
 * buffer, so its memory must still be locked for the GPU. */
static const char *sum_source =
   "kernel void sum(global const uint *a, global uint *b, uint n) {\n"
   "   uint s = 0;\n"
   "   for (uint i = 0; i < n; i++) s += a[i];\n"
   "   b[0] = s;\n"
   "}\n";

/* Direct reads and writes of a device-only buffer (at least PIN_MIN bytes, or from HSA
 * memory): unaligned both sides, several in flight from one host range (locks nested in
 * others), from the memory of a USE_HOST_PTR buffer, which keeps its own lock. */
static void
test_direct(void)
{
   enum { N = 1 << 20 };
   cl_int err;
   unsigned char *host = malloc(N + 64), *back = malloc(N + 64), *use = malloc(N);
   fill_pattern(host, N + 64, 11);
   fill_pattern(use, N, 12);
   cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N, NULL, &err);
   cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N, NULL, &err);
   cl_mem u = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, N, use, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   /* Unaligned: 600 KiB from host + 7 to offset 1001, back into back + 3. */
   const size_t part = 600 << 10;
   CHECK_EQ_INT(clEnqueueWriteBuffer(q, a, CL_TRUE, 0, N, host + 64, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueWriteBuffer(q, a, CL_TRUE, 1001, part, host + 7, 0, NULL, NULL),
                CL_SUCCESS);
   memset(back, 0, N + 64);
   CHECK_EQ_INT(clEnqueueReadBuffer(q, a, CL_TRUE, 1000, part + 2, back + 3, 0, NULL, NULL),
                CL_SUCCESS);
   CHECK(back[3] == host[64 + 1000] && !memcmp(back + 4, host + 7, part) &&
         back[4 + part] == host[64 + 1001 + part] && back[0] == 0 && back[5 + part] == 0);
   /* Three writes in flight from one range: the whole, a prefix, a middle part. */
   cl_event ev[3];
   CHECK_EQ_INT(clEnqueueWriteBuffer(q, a, CL_FALSE, 0, N, host, 0, NULL, &ev[0]), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueWriteBuffer(q, b, CL_FALSE, 0, N / 2, host, 0, NULL, &ev[1]),
                CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueWriteBuffer(q, b, CL_FALSE, N / 2, N / 2, host + N / 4, 0, NULL,
                                     &ev[2]), CL_SUCCESS);
   CHECK_EQ_INT(clWaitForEvents(3, ev), CL_SUCCESS);
   for (int i = 0; i < 3; i++)
      clReleaseEvent(ev[i]);
   CHECK_EQ_INT(clEnqueueReadBuffer(q, a, CL_TRUE, 0, N, back, 0, NULL, NULL), CL_SUCCESS);
   CHECK(!memcmp(back, host, N));
   CHECK_EQ_INT(clEnqueueReadBuffer(q, b, CL_TRUE, 0, N, back, 0, NULL, NULL), CL_SUCCESS);
   CHECK(!memcmp(back, host, N / 2) && !memcmp(back + N / 2, host + N / 4, N / 2));
   /* From and into the USE_HOST_PTR buffer's memory (a part of its lock, and the whole). */
   CHECK_EQ_INT(clEnqueueWriteBuffer(q, a, CL_TRUE, 0, N / 2, use, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueReadBuffer(q, a, CL_TRUE, 0, N, back, 0, NULL, NULL), CL_SUCCESS);
   CHECK(!memcmp(back, use, N / 2) && !memcmp(back + N / 2, host + N / 2, N / 2));
   CHECK_EQ_INT(clEnqueueReadBuffer(q, b, CL_TRUE, 0, N, use, 0, NULL, NULL), CL_SUCCESS);
   CHECK(!memcmp(use, host, N / 2) && !memcmp(use + N / 2, host + N / 4, N / 2));
   /* The buffer's memory is still the GPU's: a kernel sums it. */
   cl_program prog = clCreateProgramWithSource(ctx, 1, &sum_source, NULL, &err);
   CHECK_EQ_INT(clBuildProgram(prog, 1, &device, NULL, NULL, NULL), CL_SUCCESS);
   cl_kernel k = clCreateKernel(prog, "sum", &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_uint n = N / 4, want = 0, got = 0;
   for (cl_uint i = 0; i < n; i++) {
      cl_uint w;
      memcpy(&w, use + 4 * i, 4);
      want += w;
   }
   clSetKernelArg(k, 0, sizeof(u), &u);
   clSetKernelArg(k, 1, sizeof(a), &a);
   clSetKernelArg(k, 2, sizeof(n), &n);
   size_t one = 1;
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueReadBuffer(q, a, CL_TRUE, 0, 4, &got, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(got, want);
   clReleaseKernel(k);
   clReleaseProgram(prog);
   clReleaseMemObject(u);
   clReleaseMemObject(b);
   clReleaseMemObject(a);
   free(use);
   free(back);
   free(host);
}

/* A read and a write larger than the staging cache's largest block (64 MiB) take no new
 * pages once the buffer and the host memory have been touched: they copy directly (staged,
 * each took a fresh 96 MiB: 24,576 page faults, in every round). The count is the
 * process's, so it also holds what the software GPU's translator allocates while it
 * compiles the blit kernels' blocks in the background (under AddressSanitizer, whose
 * quarantine gives every allocation fresh pages, 2,300-3,100 faults in one round): up to
 * four rounds, and one of them must take almost none. */
static void
test_large_no_faults(void)
{
   const size_t n = 96u << 20;
   cl_int err;
   unsigned char *host = malloc(n), *back = malloc(n);
   fill_pattern(host, n, 21);
   memset(back, 0, n);
   cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueWriteBuffer(q, a, CL_TRUE, 0, n, host, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueReadBuffer(q, a, CL_TRUE, 0, n, back, 0, NULL, NULL), CL_SUCCESS);
   CHECK(!memcmp(back, host, n));
   long faults[4];
   int round = 0;
   do {
      host[12345 + round] ^= 0xff;
      long before = minor_faults();
      CHECK_EQ_INT(clEnqueueWriteBuffer(q, a, CL_TRUE, 0, n, host, 0, NULL, NULL),
                   CL_SUCCESS);
      CHECK_EQ_INT(clEnqueueReadBuffer(q, a, CL_TRUE, 0, n, back, 0, NULL, NULL),
                   CL_SUCCESS);
      faults[round] = minor_faults() - before;
      CHECK(back[12345 + round] == host[12345 + round]);
   } while (faults[round] >= 2048 && ++round < 4);
   if (round == 4)
      fprintf(stderr, "a %zu MiB write and read took %ld, %ld, %ld and %ld page faults\n",
              n >> 20, faults[0], faults[1], faults[2], faults[3]);
   CHECK(round < 4);
   clReleaseMemObject(a);
   free(back);
   free(host);
}

/* A rectangle past the staging cache's largest block (1200 rows of 60,000 bytes, buffer
 * pitch 65,536, host pitch 61,440: no two rows adjacent on either side) is read and
 * written whole, the bytes between the host rows left alone. On the software runtime it is
 * one rectangular copy from or into the application's memory, which takes no new pages
 * once touched (staged, a fresh 70 MiB each time: 18,000 page faults); ROCr refuses the
 * rectangular copy without SDMA engines: the first command copies row by row from the
 * locked memory, the later ones are staged, and each must be exact. Up to four rounds, as
 * test_large_no_faults says why. */
static void
test_rect_direct(void)
{
   enum { W = 60000, H = 1200, BUF_ROW = 65536, HOST_ROW = 61440 };
   const size_t hn = (size_t)HOST_ROW * H, bn = (size_t)BUF_ROW * H;
   const size_t zero[3] = {0, 0, 0}, region[3] = {W, H, 1};
   cl_int err;
   unsigned char *host = malloc(hn), *back = malloc(hn), *want = malloc(hn);
   fill_pattern(host, hn, 31);
   cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bn, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   long faults[4];
   int round = 0;
   for (;;) {
      host[(size_t)HOST_ROW * (H - 1) + round] ^= 0x5a;
      memset(back, 0xee, hn);
      long before = minor_faults();
      CHECK_EQ_INT(clEnqueueWriteBufferRect(q, a, CL_TRUE, zero, zero, region, BUF_ROW, 0,
                                            HOST_ROW, 0, host, 0, NULL, NULL),
                   CL_SUCCESS);
      CHECK_EQ_INT(clEnqueueReadBufferRect(q, a, CL_TRUE, zero, zero, region, BUF_ROW, 0,
                                           HOST_ROW, 0, back, 0, NULL, NULL),
                   CL_SUCCESS);
      faults[round] = minor_faults() - before;
      memset(want, 0xee, hn);
      for (size_t r = 0; r < H; r++)
         memcpy(want + r * HOST_ROW, host + r * HOST_ROW, W);
      CHECK(!memcmp(back, want, hn));
      if (on_rocr ? round == 1 : (faults[round] < 2048 || round == 3))
         break;
      round++;
   }
   if (!on_rocr && faults[round] >= 2048)
      fprintf(stderr, "a %d x %d rectangle's write and read took %ld, %ld, %ld and %ld "
              "page faults\n", W, H, faults[0], faults[1], faults[2], faults[3]);
   CHECK(on_rocr || faults[round] < 2048);
   clReleaseMemObject(a);
   free(want);
   free(back);
   free(host);
}

static void
test_user_event_orders_write(void)
{
   cl_int err;
   cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4096, NULL, &err);
   cl_event gate = clCreateUserEvent(ctx, &err);
   int data[1024], back[1024];
   for (int i = 0; i < 1024; i++)
      data[i] = i;
   CHECK_EQ_INT(clEnqueueWriteBuffer(q, m, CL_FALSE, 0, 4096, data, 1, &gate, NULL), CL_SUCCESS);
   cl_event r;
   memset(back, 0, sizeof(back));
   CHECK_EQ_INT(clEnqueueReadBuffer(q, m, CL_FALSE, 0, 4096, back, 0, NULL, &r), CL_SUCCESS);
   cl_int st = 0;
   clGetEventInfo(r, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(st), &st, NULL);
   CHECK(st > CL_COMPLETE);
   clSetUserEventStatus(gate, CL_COMPLETE);
   CHECK_EQ_INT(clWaitForEvents(1, &r), CL_SUCCESS);
   CHECK(!memcmp(back, data, sizeof(data)));
   clReleaseEvent(r);
   clReleaseEvent(gate);
   clReleaseMemObject(m);
}

static void
test_errors(void)
{
   cl_int err;
   char buf[64];
   cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, &err);
   cl_mem wo = clCreateBuffer(ctx, CL_MEM_HOST_WRITE_ONLY, 64, NULL, &err);
   cl_mem ro = clCreateBuffer(ctx, CL_MEM_HOST_READ_ONLY, 64, NULL, &err);
   CHECK_EQ_INT(clEnqueueReadBuffer((cl_command_queue)m, m, CL_TRUE, 0, 8, buf, 0, NULL, NULL),
                CL_INVALID_COMMAND_QUEUE);
   CHECK_EQ_INT(clEnqueueReadBuffer(q, (cl_mem)q, CL_TRUE, 0, 8, buf, 0, NULL, NULL),
                CL_INVALID_MEM_OBJECT);
   CHECK_EQ_INT(clEnqueueReadBuffer(q, m, CL_TRUE, 60, 8, buf, 0, NULL, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(clEnqueueReadBuffer(q, m, CL_TRUE, 0, 8, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(clEnqueueReadBuffer(q, m, CL_TRUE, 0, 8, buf, 1, NULL, NULL),
                CL_INVALID_EVENT_WAIT_LIST);
   CHECK_EQ_INT(clEnqueueReadBuffer(q, wo, CL_TRUE, 0, 8, buf, 0, NULL, NULL),
                CL_INVALID_OPERATION);
   CHECK_EQ_INT(clEnqueueWriteBuffer(q, ro, CL_TRUE, 0, 8, buf, 0, NULL, NULL),
                CL_INVALID_OPERATION);
   CHECK_EQ_INT(clEnqueueCopyBuffer(q, m, m, 0, 4, 8, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
   CHECK_EQ_INT(clEnqueueCopyBuffer(q, m, m, 0, 60, 8, 0, NULL, NULL), CL_INVALID_VALUE);
   int pat = 0;
   CHECK_EQ_INT(clEnqueueFillBuffer(q, m, &pat, 3, 0, 12, 0, NULL, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(clEnqueueFillBuffer(q, m, &pat, 4, 2, 12, 0, NULL, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(clEnqueueFillBuffer(q, m, NULL, 4, 0, 12, 0, NULL, NULL), CL_INVALID_VALUE);
   clEnqueueMapBuffer(q, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, 0, 8, 0, NULL,
                      NULL, &err);
   CHECK_EQ_INT(err, CL_INVALID_VALUE);
   clEnqueueMapBuffer(q, wo, CL_TRUE, CL_MAP_READ, 0, 8, 0, NULL, NULL, &err);
   CHECK_EQ_INT(err, CL_INVALID_OPERATION);
   size_t o[3] = { 0, 0, 0 }, reg[3] = { 8, 8, 2 };
   CHECK_EQ_INT(clEnqueueReadBufferRect(q, m, CL_TRUE, o, o, reg, 8, 64, 0, 0, buf, 0, NULL,
                                        NULL), CL_INVALID_VALUE);
   cl_context other = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
   cl_mem foreign = clCreateBuffer(other, CL_MEM_READ_WRITE, 64, NULL, &err);
   CHECK_EQ_INT(clEnqueueReadBuffer(q, foreign, CL_TRUE, 0, 8, buf, 0, NULL, NULL),
                CL_INVALID_CONTEXT);
   /* A failed dependency fails a blocking read. */
   cl_event gate = clCreateUserEvent(ctx, &err);
   clSetUserEventStatus(gate, -5);
   CHECK_EQ_INT(clEnqueueReadBuffer(q, m, CL_TRUE, 0, 8, buf, 1, &gate, NULL),
                CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
   clReleaseEvent(gate);
   clReleaseMemObject(foreign);
   clReleaseContext(other);
   clReleaseMemObject(m);
   clReleaseMemObject(wo);
   clReleaseMemObject(ro);
}

/*
 * Rectangles whose end offset wraps size_t (issue #17, bug 1): before the overflow checks,
 * {0, SIZE_MAX, 0} with region {16, 2, 1} and a row pitch of A - B passed as 16 bytes and
 * wrote into buffer A through B; SIZE_MAX in origin[1] or origin[2] crashed the copy worker;
 * origin[0] = SIZE_MAX failed late (Read/Write) or read out of bounds (Copy).
 */
static void
test_rect_overflow(void)
{
   enum { N = 4096 };
   cl_int err;
   unsigned char *ha = aligned_alloc(4096, N), *hb = aligned_alloc(4096, N);
   unsigned char *host = malloc(N), *snap = malloc(N);
   memset(ha, 0xaa, N);
   memset(hb, 0xbb, N);
   fill_pattern(host, N, 11);
   cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, N, ha, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, N, hb, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_mem d = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   memcpy(snap, ha, N);

   /* The published reproducer: through B into A. */
   size_t zero[3] = { 0, 0, 0 }, o1[3] = { 0, SIZE_MAX, 0 }, reg[3] = { 16, 2, 1 };
   size_t pitch = (size_t)((uintptr_t)ha - (uintptr_t)hb);
   CHECK_EQ_INT(clEnqueueWriteBufferRect(q, b, CL_TRUE, o1, zero, reg, pitch, 0, 0, 0, host, 0,
                                         NULL, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
   CHECK(!memcmp(ha, snap, N));

   /* SIZE_MAX in each origin coordinate, on each side, for every rect command and both
    * kinds of buffer: every one is CL_INVALID_VALUE and the process survives. */
   cl_mem bufs[2] = { b, d };
   for (int k = 0; k < 2; k++) {
      for (int axis = 0; axis < 3; axis++) {
         size_t bad[3] = { 0, 0, 0 }, r[3] = { 16, 2, 2 };
         bad[axis] = SIZE_MAX;
         for (size_t rp = 0; rp <= 64; rp += 64) {
            CHECK_EQ_INT(clEnqueueReadBufferRect(q, bufs[k], CL_TRUE, bad, zero, r, rp, 0, 0, 0,
                                                 snap, 0, NULL, NULL), CL_INVALID_VALUE);
            CHECK_EQ_INT(clEnqueueWriteBufferRect(q, bufs[k], CL_TRUE, bad, zero, r, rp, 0, 0, 0,
                                                  host, 0, NULL, NULL), CL_INVALID_VALUE);
            CHECK_EQ_INT(clEnqueueReadBufferRect(q, bufs[k], CL_TRUE, zero, bad, r, rp, 0, rp, 0,
                                                 snap, 0, NULL, NULL), CL_INVALID_VALUE);
            CHECK_EQ_INT(clEnqueueCopyBufferRect(q, bufs[k], a, bad, zero, r, rp, 0, rp, 0, 0,
                                                 NULL, NULL), CL_INVALID_VALUE);
            CHECK_EQ_INT(clEnqueueCopyBufferRect(q, a, bufs[k], zero, bad, r, rp, 0, rp, 0, 0,
                                                 NULL, NULL), CL_INVALID_VALUE);
         }
      }
      /* Pitches whose products wrap: region[1] * row pitch, and (origin + region) * slice. */
      size_t r2[3] = { 1, 3, 1 }, o2[3] = { 0, 0, 2 };
      CHECK_EQ_INT(clEnqueueWriteBufferRect(q, bufs[k], CL_TRUE, zero, zero, r2,
                                            SIZE_MAX / 2 + 1, 0, 0, 0, host, 0, NULL, NULL),
                   CL_INVALID_VALUE);
      CHECK_EQ_INT(clEnqueueWriteBufferRect(q, bufs[k], CL_TRUE, o2, zero, r2, 1,
                                            SIZE_MAX / 2 + 1, 0, 0, host, 0, NULL, NULL),
                   CL_INVALID_VALUE);
      /* A host rectangle that would wrap the host address space. */
      size_t ho[3] = { SIZE_MAX - 8, 0, 0 };
      CHECK_EQ_INT(clEnqueueReadBufferRect(q, bufs[k], CL_TRUE, zero, ho, r2, 0, 0, 0, 0, snap,
                                           0, NULL, NULL), CL_INVALID_VALUE);
      /* A host rectangle that wraps nothing but spans more than PTRDIFF_MAX bytes: three rows
       * 2^62 bytes apart (issue 24; it read far past the application's memory). */
      CHECK_EQ_INT(clEnqueueReadBufferRect(q, bufs[k], CL_TRUE, zero, zero, r2, 0, 0,
                                           (size_t)1 << 62, 0, snap, 0, NULL, NULL),
                   CL_INVALID_VALUE);
   }
   /* The plain forms with offsets near SIZE_MAX. */
   CHECK_EQ_INT(clEnqueueReadBuffer(q, d, CL_TRUE, SIZE_MAX, 16, snap, 0, NULL, NULL),
                CL_INVALID_VALUE);
   CHECK_EQ_INT(clEnqueueCopyBuffer(q, d, b, SIZE_MAX - 7, 0, 16, 0, NULL, NULL),
                CL_INVALID_VALUE);
   int pat = 0;
   CHECK_EQ_INT(clEnqueueFillBuffer(q, d, &pat, 4, SIZE_MAX - 3, 8, 0, NULL, NULL),
                CL_INVALID_VALUE);
   clEnqueueMapBuffer(q, d, CL_TRUE, CL_MAP_READ, SIZE_MAX - 15, 32, 0, NULL, NULL, &err);
   CHECK_EQ_INT(err, CL_INVALID_VALUE);
   CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
   memcpy(snap, ha, N);
   CHECK(ha[0] == 0xaa && !memcmp(ha, snap, N));

   /* The queue still works: a good rectangle after all of that. */
   size_t good[3] = { 8, 4, 1 };
   CHECK_EQ_INT(clEnqueueWriteBufferRect(q, d, CL_TRUE, zero, zero, good, 64, 0, 8, 0, host, 0,
                                         NULL, NULL), CL_SUCCESS);
   unsigned char back[32];
   CHECK_EQ_INT(clEnqueueReadBufferRect(q, d, CL_TRUE, zero, zero, good, 64, 0, 8, 0, back, 0,
                                        NULL, NULL), CL_SUCCESS);
   CHECK(!memcmp(back, host, 32));

   /* Overlap in one buffer and across sub-buffers of one buffer; a tall disjoint copy (4096
    * one-byte rows each way) is decided in linear time. */
   size_t s0[3] = { 0, 0, 0 }, s1[3] = { 4, 0, 0 }, rg[3] = { 8, 4, 1 };
   CHECK_EQ_INT(clEnqueueCopyBufferRect(q, d, d, s0, s1, rg, 16, 0, 16, 0, 0, NULL, NULL),
                CL_MEM_COPY_OVERLAP);
   size_t s2[3] = { 8, 0, 0 };
   CHECK_EQ_INT(clEnqueueCopyBufferRect(q, d, d, s0, s2, rg, 16, 0, 16, 0, 0, NULL, NULL),
                CL_SUCCESS);
   cl_buffer_region lo = { 0, 2048 }, hi = { 1024, 2048 };
   cl_mem sl = clCreateSubBuffer(d, 0, CL_BUFFER_CREATE_TYPE_REGION, &lo, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_mem sh = clCreateSubBuffer(d, 0, CL_BUFFER_CREATE_TYPE_REGION, &hi, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   size_t ro[3] = { 0, 0, 0 }, rr[3] = { 16, 32, 1 };
   CHECK_EQ_INT(clEnqueueCopyBufferRect(q, sl, sh, ro, ro, rr, 64, 0, 64, 0, 0, NULL, NULL),
                CL_MEM_COPY_OVERLAP); /* sl's rows 16.. are sh's rows 0.. */
   size_t tall[3] = { 1, 2048, 1 }, t1[3] = { 1, 0, 0 };
   CHECK_EQ_INT(clEnqueueCopyBufferRect(q, d, d, s0, t1, tall, 2, 0, 2, 0, 0, NULL, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
   clReleaseMemObject(sl);
   clReleaseMemObject(sh);
   clReleaseMemObject(a);
   clReleaseMemObject(b);
   clReleaseMemObject(d);
   free(ha);
   free(hb);
   free(host);
   free(snap);
}

int
main(void)
{
   cl_platform_id platform;
   cl_int err;
   clGetPlatformIDs(1, &platform, NULL);
   if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &device, NULL) != CL_SUCCESS) {
      fprintf(stderr, "no hsacl device\n");
      return 1;
   }
   char driver[256] = "";
   clGetDeviceInfo(device, CL_DRIVER_VERSION, sizeof(driver), driver, NULL);
   on_rocr = strstr(driver, "ROCr") != NULL;
   ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
   q = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
   exercise(CL_MEM_READ_WRITE, "device buffer");
   exercise(CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, "ALLOC_HOST_PTR buffer");
   exercise(CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, "USE_HOST_PTR buffer");
   test_direct();
   test_large_no_faults();
   test_rect_direct();
   test_user_event_orders_write();
   test_errors();
   test_rect_overflow();
   clReleaseCommandQueue(q);
   clReleaseContext(ctx);
   return test_main_end();
}
