/*
 * tests/dispatch/api_abuse_test.c — bad arguments to the command-queue API, each answered with the
 * error code the OpenCL 3.0 API specification names for it, and nothing enqueued: every
 * clEnqueue* with a NULL or foreign queue, malformed and foreign wait lists, objects of
 * another context and of the wrong kind, out-of-range and overflowing offsets, sizes,
 * origins, regions and pitches, and the object-creation and kernel-argument calls next to
 * them. Afterwards the queue must still work and hold nothing stray (clFinish, then a
 * write/read round trip). Prints the number of calls tried.
 */
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>

#include <stdint.h>

#include "hsacl_test.h"

static cl_context ctx, ctx2;
static cl_device_id device;
static cl_command_queue q, q2;
static cl_mem buf, buf2, img, img_other_fmt, img1d, img1d_buf;
static cl_event foreign_ev;
static unsigned calls;

#define EXPECT(call, code)                                                                   \
   do {                                                                                     \
      calls++;                                                                              \
      CHECK_EQ_INT((call), (code));                                                         \
   } while (0)

/* One enqueue with valid arguments but for the queue and the wait list. */
typedef cl_int (*enqueue_fn)(cl_command_queue q, cl_uint n, const cl_event *list,
                             cl_event *ev);

static char host[4096];

static cl_int
e_read(cl_command_queue cq, cl_uint n, const cl_event *l, cl_event *ev)
{
   return clEnqueueReadBuffer(cq, buf, CL_FALSE, 0, 64, host, n, l, ev);
}
static cl_int
e_write(cl_command_queue cq, cl_uint n, const cl_event *l, cl_event *ev)
{
   return clEnqueueWriteBuffer(cq, buf, CL_FALSE, 0, 64, host, n, l, ev);
}
static cl_int
e_copy(cl_command_queue cq, cl_uint n, const cl_event *l, cl_event *ev)
{
   return clEnqueueCopyBuffer(cq, buf, buf, 0, 1024, 64, n, l, ev);
}
static cl_int
e_fill(cl_command_queue cq, cl_uint n, const cl_event *l, cl_event *ev)
{
   int pat = 7;
   return clEnqueueFillBuffer(cq, buf, &pat, sizeof(pat), 0, 64, n, l, ev);
}
static const size_t zero3[3] = { 0, 0, 0 }, rect[3] = { 8, 2, 1 };
static cl_int
e_read_rect(cl_command_queue cq, cl_uint n, const cl_event *l, cl_event *ev)
{
   return clEnqueueReadBufferRect(cq, buf, CL_FALSE, zero3, zero3, rect, 16, 0, 16, 0, host, n,
                                  l, ev);
}
static cl_int
e_write_rect(cl_command_queue cq, cl_uint n, const cl_event *l, cl_event *ev)
{
   return clEnqueueWriteBufferRect(cq, buf, CL_FALSE, zero3, zero3, rect, 16, 0, 16, 0, host,
                                   n, l, ev);
}
static cl_int
e_copy_rect(cl_command_queue cq, cl_uint n, const cl_event *l, cl_event *ev)
{
   const size_t dst[3] = { 2048, 0, 0 };
   return clEnqueueCopyBufferRect(cq, buf, buf, zero3, dst, rect, 16, 0, 16, 0, n, l, ev);
}
static const size_t img_region[3] = { 4, 4, 1 };
static cl_int
e_read_image(cl_command_queue cq, cl_uint n, const cl_event *l, cl_event *ev)
{
   return clEnqueueReadImage(cq, img, CL_FALSE, zero3, img_region, 0, 0, host, n, l, ev);
}
static cl_int
e_write_image(cl_command_queue cq, cl_uint n, const cl_event *l, cl_event *ev)
{
   return clEnqueueWriteImage(cq, img, CL_FALSE, zero3, img_region, 0, 0, host, n, l, ev);
}
static cl_int
e_fill_image(cl_command_queue cq, cl_uint n, const cl_event *l, cl_event *ev)
{
   const cl_uint color[4] = { 1, 2, 3, 4 };
   return clEnqueueFillImage(cq, img, color, zero3, img_region, n, l, ev);
}
static cl_int
e_copy_image_to_buffer(cl_command_queue cq, cl_uint n, const cl_event *l, cl_event *ev)
{
   return clEnqueueCopyImageToBuffer(cq, img, buf, zero3, img_region, 0, n, l, ev);
}
static cl_int
e_copy_buffer_to_image(cl_command_queue cq, cl_uint n, const cl_event *l, cl_event *ev)
{
   return clEnqueueCopyBufferToImage(cq, buf, img, 0, zero3, img_region, n, l, ev);
}
static cl_int
e_marker(cl_command_queue cq, cl_uint n, const cl_event *l, cl_event *ev)
{
   return clEnqueueMarkerWithWaitList(cq, n, l, ev);
}
static cl_int
e_barrier(cl_command_queue cq, cl_uint n, const cl_event *l, cl_event *ev)
{
   return clEnqueueBarrierWithWaitList(cq, n, l, ev);
}
static cl_int
e_migrate(cl_command_queue cq, cl_uint n, const cl_event *l, cl_event *ev)
{
   return clEnqueueMigrateMemObjects(cq, 1, &buf, 0, n, l, ev);
}
static cl_int
e_map(cl_command_queue cq, cl_uint n, const cl_event *l, cl_event *ev)
{
   cl_int err = CL_SUCCESS;
   void *p = clEnqueueMapBuffer(cq, buf, CL_FALSE, CL_MAP_READ, 0, 64, n, l, ev, &err);
   CHECK(p == NULL);
   return err;
}
static cl_int
e_map_image(cl_command_queue cq, cl_uint n, const cl_event *l, cl_event *ev)
{
   cl_int err = CL_SUCCESS;
   size_t pitch;
   void *p = clEnqueueMapImage(cq, img, CL_FALSE, CL_MAP_READ, zero3, img_region, &pitch,
                               NULL, n, l, ev, &err);
   CHECK(p == NULL);
   return err;
}

static const struct {
   const char *name;
   enqueue_fn fn;
} enqueues[] = {
   { "ReadBuffer", e_read },
   { "WriteBuffer", e_write },
   { "CopyBuffer", e_copy },
   { "FillBuffer", e_fill },
   { "ReadBufferRect", e_read_rect },
   { "WriteBufferRect", e_write_rect },
   { "CopyBufferRect", e_copy_rect },
   { "ReadImage", e_read_image },
   { "WriteImage", e_write_image },
   { "FillImage", e_fill_image },
   { "CopyImageToBuffer", e_copy_image_to_buffer },
   { "CopyBufferToImage", e_copy_buffer_to_image },
   { "MarkerWithWaitList", e_marker },
   { "BarrierWithWaitList", e_barrier },
   { "MigrateMemObjects", e_migrate },
   { "MapBuffer", e_map },
   { "MapImage", e_map_image },
};

/* §5.x of every enqueue: the queue, then the wait list (OpenCL 3.0 API, "Errors"). */
static void
abuse_queue_and_wait_lists(void)
{
   cl_event bogus = (cl_event)buf; /* a memory object where an event belongs */
   cl_event null_ev = NULL;
   for (size_t i = 0; i < sizeof(enqueues) / sizeof(enqueues[0]); i++) {
      enqueue_fn f = enqueues[i].fn;
      unsigned failed = test_failed;
      EXPECT(f(NULL, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
      EXPECT(f((cl_command_queue)buf, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
      EXPECT(f(q, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
      EXPECT(f(q, 0, &foreign_ev, NULL), CL_INVALID_EVENT_WAIT_LIST);
      EXPECT(f(q, 1, &null_ev, NULL), CL_INVALID_EVENT_WAIT_LIST);
      EXPECT(f(q, 1, &bogus, NULL), CL_INVALID_EVENT_WAIT_LIST);
      EXPECT(f(q, 1, &foreign_ev, NULL), CL_INVALID_CONTEXT);
      /* The queue of another context with this context's objects. */
      if (f != e_marker && f != e_barrier)
         EXPECT(f(q2, 0, NULL, NULL), CL_INVALID_CONTEXT);
      if (test_failed != failed)
         fprintf(stderr, "  (clEnqueue%s)\n", enqueues[i].name);
   }
}

static void
abuse_buffer_transfers(void)
{
   char *h = host;
   const size_t big = 4096;
   /* Objects: NULL, the wrong kind, another context. */
   EXPECT(clEnqueueReadBuffer(q, NULL, CL_FALSE, 0, 4, h, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
   EXPECT(clEnqueueReadBuffer(q, img, CL_FALSE, 0, 4, h, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
   EXPECT(clEnqueueReadBuffer(q, (cl_mem)q, CL_FALSE, 0, 4, h, 0, NULL, NULL),
          CL_INVALID_MEM_OBJECT);
   EXPECT(clEnqueueReadBuffer(q, buf2, CL_FALSE, 0, 4, h, 0, NULL, NULL), CL_INVALID_CONTEXT);
   EXPECT(clEnqueueWriteBuffer(q, buf2, CL_FALSE, 0, 4, h, 0, NULL, NULL), CL_INVALID_CONTEXT);
   EXPECT(clEnqueueCopyBuffer(q, buf, buf2, 0, 0, 4, 0, NULL, NULL), CL_INVALID_CONTEXT);
   EXPECT(clEnqueueCopyBuffer(q, img, buf, 0, 0, 4, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
   /* Ranges: past the end, overflowing, NULL pointers. */
   EXPECT(clEnqueueReadBuffer(q, buf, CL_FALSE, big - 3, 4, h, 0, NULL, NULL), CL_INVALID_VALUE);
   EXPECT(clEnqueueReadBuffer(q, buf, CL_FALSE, SIZE_MAX, 4, h, 0, NULL, NULL),
          CL_INVALID_VALUE);
   EXPECT(clEnqueueReadBuffer(q, buf, CL_FALSE, 4, SIZE_MAX - 2, h, 0, NULL, NULL),
          CL_INVALID_VALUE);
   EXPECT(clEnqueueReadBuffer(q, buf, CL_FALSE, 0, 4, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
   EXPECT(clEnqueueWriteBuffer(q, buf, CL_FALSE, big, 1, h, 0, NULL, NULL), CL_INVALID_VALUE);
   EXPECT(clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, 4, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
   EXPECT(clEnqueueCopyBuffer(q, buf, buf, big, 0, 4, 0, NULL, NULL), CL_INVALID_VALUE);
   EXPECT(clEnqueueCopyBuffer(q, buf, buf, 0, SIZE_MAX - 1, 4, 0, NULL, NULL), CL_INVALID_VALUE);
   EXPECT(clEnqueueCopyBuffer(q, buf, buf, 0, 0, 0, 0, NULL, NULL), CL_INVALID_VALUE);
   EXPECT(clEnqueueCopyBuffer(q, buf, buf, 0, 8, 16, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
   EXPECT(clEnqueueCopyBuffer(q, buf, buf, 8, 0, 16, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
   /* Fill: pattern and alignment rules. */
   int pat[64] = { 0 };
   EXPECT(clEnqueueFillBuffer(q, buf, NULL, 4, 0, 64, 0, NULL, NULL), CL_INVALID_VALUE);
   EXPECT(clEnqueueFillBuffer(q, buf, pat, 0, 0, 64, 0, NULL, NULL), CL_INVALID_VALUE);
   EXPECT(clEnqueueFillBuffer(q, buf, pat, 3, 0, 63, 0, NULL, NULL), CL_INVALID_VALUE);
   EXPECT(clEnqueueFillBuffer(q, buf, pat, 256, 0, 256, 0, NULL, NULL), CL_INVALID_VALUE);
   EXPECT(clEnqueueFillBuffer(q, buf, pat, 4, 2, 64, 0, NULL, NULL), CL_INVALID_VALUE);
   EXPECT(clEnqueueFillBuffer(q, buf, pat, 4, 0, 62, 0, NULL, NULL), CL_INVALID_VALUE);
   EXPECT(clEnqueueFillBuffer(q, buf, pat, 4, big, 4, 0, NULL, NULL), CL_INVALID_VALUE);
   EXPECT(clEnqueueFillBuffer(q, buf, pat, 4, 4, SIZE_MAX - 3, 0, NULL, NULL), CL_INVALID_VALUE);
   EXPECT(clEnqueueFillBuffer(q, buf2, pat, 4, 0, 64, 0, NULL, NULL), CL_INVALID_CONTEXT);
   /* Maps: flags, ranges, the unmap of a pointer that is no mapping. */
   cl_int err = CL_SUCCESS;
   CHECK(clEnqueueMapBuffer(q, buf, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, 0, 64,
                            0, NULL, NULL, &err) == NULL);
   EXPECT(err, CL_INVALID_VALUE);
   CHECK(clEnqueueMapBuffer(q, buf, CL_TRUE, (cl_map_flags)1 << 40, 0, 64, 0, NULL, NULL,
                            &err) == NULL);
   EXPECT(err, CL_INVALID_VALUE);
   CHECK(clEnqueueMapBuffer(q, buf, CL_TRUE, CL_MAP_READ, big, 1, 0, NULL, NULL, &err) == NULL);
   EXPECT(err, CL_INVALID_VALUE);
   CHECK(clEnqueueMapBuffer(q, buf, CL_TRUE, CL_MAP_READ, 0, 0, 0, NULL, NULL, &err) == NULL);
   EXPECT(err, CL_INVALID_VALUE);
   CHECK(clEnqueueMapBuffer(q, buf, CL_TRUE, CL_MAP_READ, 8, SIZE_MAX - 4, 0, NULL, NULL,
                            &err) == NULL);
   EXPECT(err, CL_INVALID_VALUE);
   CHECK(clEnqueueMapBuffer(q, buf2, CL_TRUE, CL_MAP_READ, 0, 4, 0, NULL, NULL, &err) == NULL);
   EXPECT(err, CL_INVALID_CONTEXT);
   EXPECT(clEnqueueUnmapMemObject(q, buf, host, 0, NULL, NULL), CL_INVALID_VALUE);
   EXPECT(clEnqueueUnmapMemObject(q, NULL, host, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
   EXPECT(clEnqueueUnmapMemObject(q, buf2, host, 0, NULL, NULL), CL_INVALID_CONTEXT);
   EXPECT(clEnqueueUnmapMemObject(NULL, buf, host, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
   /* Migrate. */
   EXPECT(clEnqueueMigrateMemObjects(q, 0, &buf, 0, 0, NULL, NULL), CL_INVALID_VALUE);
   EXPECT(clEnqueueMigrateMemObjects(q, 1, NULL, 0, 0, NULL, NULL), CL_INVALID_VALUE);
   cl_mem nullmem = NULL;
   EXPECT(clEnqueueMigrateMemObjects(q, 1, &nullmem, 0, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
   EXPECT(clEnqueueMigrateMemObjects(q, 1, &buf2, 0, 0, NULL, NULL), CL_INVALID_CONTEXT);
   EXPECT(clEnqueueMigrateMemObjects(q, 1, &buf, (cl_mem_migration_flags)1 << 20, 0, NULL, NULL),
          CL_INVALID_VALUE);
}

static void
abuse_rects(void)
{
   char *h = host;
   const size_t o[3] = { 0, 0, 0 }, r[3] = { 16, 4, 1 };
   const size_t zero_r[3] = { 0, 4, 1 }, zero_r2[3] = { 16, 0, 1 }, zero_r3[3] = { 16, 4, 0 };
   const size_t huge_o[3] = { SIZE_MAX - 8, 0, 0 }, huge_r[3] = { 16, SIZE_MAX / 2, 1 };
   const size_t out_o[3] = { 0, 255, 0 };
   EXPECT(clEnqueueReadBufferRect(q, buf, CL_FALSE, o, o, zero_r, 16, 0, 16, 0, h, 0, NULL,
                                  NULL), CL_INVALID_VALUE);
   EXPECT(clEnqueueReadBufferRect(q, buf, CL_FALSE, o, o, zero_r2, 16, 0, 16, 0, h, 0, NULL,
                                  NULL), CL_INVALID_VALUE);
   EXPECT(clEnqueueReadBufferRect(q, buf, CL_FALSE, o, o, zero_r3, 16, 0, 16, 0, h, 0, NULL,
                                  NULL), CL_INVALID_VALUE);
   /* Row pitches below region[0]. */
   EXPECT(clEnqueueReadBufferRect(q, buf, CL_FALSE, o, o, r, 8, 0, 16, 0, h, 0, NULL, NULL),
          CL_INVALID_VALUE);
   EXPECT(clEnqueueReadBufferRect(q, buf, CL_FALSE, o, o, r, 16, 0, 8, 0, h, 0, NULL, NULL),
          CL_INVALID_VALUE);
   /* Slice pitch below region[1] * row pitch. */
   EXPECT(clEnqueueReadBufferRect(q, buf, CL_FALSE, o, o, r, 16, 32, 16, 0, h, 0, NULL, NULL),
          CL_INVALID_VALUE);
   /* Past the buffer; overflowing origins and regions. */
   EXPECT(clEnqueueReadBufferRect(q, buf, CL_FALSE, out_o, o, r, 16, 0, 16, 0, h, 0, NULL,
                                  NULL), CL_INVALID_VALUE);
   EXPECT(clEnqueueReadBufferRect(q, buf, CL_FALSE, huge_o, o, r, 16, 0, 16, 0, h, 0, NULL,
                                  NULL), CL_INVALID_VALUE);
   EXPECT(clEnqueueReadBufferRect(q, buf, CL_FALSE, o, o, huge_r, 16, 0, 16, 0, h, 0, NULL,
                                  NULL), CL_INVALID_VALUE);
   EXPECT(clEnqueueReadBufferRect(q, buf, CL_FALSE, o, o, r, SIZE_MAX / 2, 0, 16, 0, h, 0, NULL,
                                  NULL), CL_INVALID_VALUE);
   EXPECT(clEnqueueReadBufferRect(q, buf, CL_FALSE, o, o, r, 16, 0, 16, 0, NULL, 0, NULL, NULL),
          CL_INVALID_VALUE);
   EXPECT(clEnqueueWriteBufferRect(q, buf, CL_FALSE, out_o, o, r, 16, 0, 16, 0, h, 0, NULL,
                                   NULL), CL_INVALID_VALUE);
   EXPECT(clEnqueueWriteBufferRect(q, buf2, CL_FALSE, o, o, r, 16, 0, 16, 0, h, 0, NULL, NULL),
          CL_INVALID_CONTEXT);
   EXPECT(clEnqueueCopyBufferRect(q, buf, buf, out_o, o, r, 16, 0, 16, 0, 0, NULL, NULL),
          CL_INVALID_VALUE);
   EXPECT(clEnqueueCopyBufferRect(q, buf, buf, o, huge_o, r, 16, 0, 16, 0, 0, NULL, NULL),
          CL_INVALID_VALUE);
   EXPECT(clEnqueueCopyBufferRect(q, buf, buf, o, o, r, 16, 0, 16, 0, 0, NULL, NULL),
          CL_MEM_COPY_OVERLAP);
   EXPECT(clEnqueueCopyBufferRect(q, buf, buf2, o, o, r, 16, 0, 16, 0, 0, NULL, NULL),
          CL_INVALID_CONTEXT);
}

static void
abuse_images(void)
{
   char *h = host;
   const size_t o[3] = { 0, 0, 0 }, r[3] = { 4, 4, 1 };
   const size_t r_deep[3] = { 4, 4, 2 }, r_zero[3] = { 0, 4, 1 }, r_wide[3] = { 17, 1, 1 };
   const size_t o_out[3] = { 16, 0, 0 }, o_z[3] = { 0, 0, 1 }, o_huge[3] = { SIZE_MAX, 0, 0 };
   EXPECT(clEnqueueReadImage(q, buf, CL_FALSE, o, r, 0, 0, h, 0, NULL, NULL),
          CL_INVALID_MEM_OBJECT);
   EXPECT(clEnqueueReadImage(q, NULL, CL_FALSE, o, r, 0, 0, h, 0, NULL, NULL),
          CL_INVALID_MEM_OBJECT);
   EXPECT(clEnqueueReadImage(q, img, CL_FALSE, o, r_deep, 0, 0, h, 0, NULL, NULL),
          CL_INVALID_VALUE);
   EXPECT(clEnqueueReadImage(q, img, CL_FALSE, o_z, r, 0, 0, h, 0, NULL, NULL),
          CL_INVALID_VALUE);
   EXPECT(clEnqueueReadImage(q, img, CL_FALSE, o, r_zero, 0, 0, h, 0, NULL, NULL),
          CL_INVALID_VALUE);
   EXPECT(clEnqueueReadImage(q, img, CL_FALSE, o, r_wide, 0, 0, h, 0, NULL, NULL),
          CL_INVALID_VALUE);
   EXPECT(clEnqueueReadImage(q, img, CL_FALSE, o_out, r, 0, 0, h, 0, NULL, NULL),
          CL_INVALID_VALUE);
   EXPECT(clEnqueueReadImage(q, img, CL_FALSE, o_huge, r, 0, 0, h, 0, NULL, NULL),
          CL_INVALID_VALUE);
   EXPECT(clEnqueueReadImage(q, img, CL_FALSE, o, r, 0, 0, NULL, 0, NULL, NULL),
          CL_INVALID_VALUE);
   /* A row pitch below the region's row. */
   EXPECT(clEnqueueReadImage(q, img, CL_FALSE, o, r, 8, 0, h, 0, NULL, NULL), CL_INVALID_VALUE);
   EXPECT(clEnqueueWriteImage(q, img, CL_FALSE, o_out, r, 0, 0, h, 0, NULL, NULL),
          CL_INVALID_VALUE);
   /* A slice pitch for a 2D or 1D image (§5.3.3: it must be 0), even one that would cover
    * the region; a 1D image buffer is a 1D image. */
   EXPECT(clEnqueueReadImage(q, img, CL_FALSE, o, r, 0, 256, h, 0, NULL, NULL),
          CL_INVALID_VALUE);
   EXPECT(clEnqueueWriteImage(q, img, CL_FALSE, o, r, 16, 64, h, 0, NULL, NULL),
          CL_INVALID_VALUE);
   const size_t r1[3] = { 4, 1, 1 };
   EXPECT(clEnqueueReadImage(q, img1d, CL_FALSE, o, r1, 0, 16, h, 0, NULL, NULL),
          CL_INVALID_VALUE);
   EXPECT(clEnqueueWriteImage(q, img1d, CL_FALSE, o, r1, 0, 16, h, 0, NULL, NULL),
          CL_INVALID_VALUE);
   EXPECT(clEnqueueReadImage(q, img1d_buf, CL_FALSE, o, r1, 0, 16, h, 0, NULL, NULL),
          CL_INVALID_VALUE);
   EXPECT(clEnqueueWriteImage(q, img1d_buf, CL_FALSE, o, r1, 0, 16, h, 0, NULL, NULL),
          CL_INVALID_VALUE);
   EXPECT(clEnqueueWriteImage(q, img, CL_FALSE, o, r, 0, 0, NULL, 0, NULL, NULL),
          CL_INVALID_VALUE);
   const cl_uint color[4] = { 0 };
   EXPECT(clEnqueueFillImage(q, img, NULL, o, r, 0, NULL, NULL), CL_INVALID_VALUE);
   EXPECT(clEnqueueFillImage(q, img, color, o_out, r, 0, NULL, NULL), CL_INVALID_VALUE);
   EXPECT(clEnqueueFillImage(q, buf, color, o, r, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
   EXPECT(clEnqueueCopyImage(q, img, img_other_fmt, o, o, r, 0, NULL, NULL),
          CL_IMAGE_FORMAT_MISMATCH);
   EXPECT(clEnqueueCopyImage(q, img, img, o, o, r, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
   EXPECT(clEnqueueCopyImage(q, img, img, o, o_out, r, 0, NULL, NULL), CL_INVALID_VALUE);
   EXPECT(clEnqueueCopyImage(q, img, buf, o, o, r, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
   EXPECT(clEnqueueCopyImageToBuffer(q, img, buf, o, r, 4096, 0, NULL, NULL), CL_INVALID_VALUE);
   EXPECT(clEnqueueCopyImageToBuffer(q, img, buf, o, r, SIZE_MAX - 8, 0, NULL, NULL),
          CL_INVALID_VALUE);
   EXPECT(clEnqueueCopyImageToBuffer(q, img, buf2, o, r, 0, 0, NULL, NULL), CL_INVALID_CONTEXT);
   EXPECT(clEnqueueCopyImageToBuffer(q, buf, buf, o, r, 0, 0, NULL, NULL),
          CL_INVALID_MEM_OBJECT);
   EXPECT(clEnqueueCopyBufferToImage(q, buf, img, 4090, o, r, 0, NULL, NULL), CL_INVALID_VALUE);
   EXPECT(clEnqueueCopyBufferToImage(q, buf, img, 0, o_out, r, 0, NULL, NULL), CL_INVALID_VALUE);
   EXPECT(clEnqueueCopyBufferToImage(q, img, img, 0, o, r, 0, NULL, NULL),
          CL_INVALID_MEM_OBJECT);
   cl_int err = CL_SUCCESS;
   size_t pitch = 0;
   CHECK(clEnqueueMapImage(q, img, CL_TRUE, CL_MAP_READ, o, r, NULL, NULL, 0, NULL, NULL,
                           &err) == NULL);
   EXPECT(err, CL_INVALID_VALUE);
   CHECK(clEnqueueMapImage(q, img, CL_TRUE, CL_MAP_READ, o_out, r, &pitch, NULL, 0, NULL, NULL,
                           &err) == NULL);
   EXPECT(err, CL_INVALID_VALUE);
   CHECK(clEnqueueMapImage(q, buf, CL_TRUE, CL_MAP_READ, o, r, &pitch, NULL, 0, NULL, NULL,
                           &err) == NULL);
   EXPECT(err, CL_INVALID_MEM_OBJECT);
}

static void
abuse_kernels(void)
{
   cl_int err;
   const char *src = "kernel void k(global int *o, local int *l, int v) { o[0] = v; l[0] = v; }\n";
   cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
   CHECK_EQ_INT(clBuildProgram(p, 1, &device, NULL, NULL, NULL), CL_SUCCESS);
   cl_kernel k = clCreateKernel(p, "k", &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   size_t g = 64, l = 64, big_l = 4096, zero = 0;
   /* Arguments not set yet. */
   EXPECT(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL), CL_INVALID_KERNEL_ARGS);
   int v = 1;
   EXPECT(clSetKernelArg(k, 3, sizeof(v), &v), CL_INVALID_ARG_INDEX);
   EXPECT(clSetKernelArg(k, 0, 4, &buf), CL_INVALID_ARG_SIZE);
   cl_mem not_mem = (cl_mem)q;
   EXPECT(clSetKernelArg(k, 0, sizeof(cl_mem), &not_mem), CL_INVALID_MEM_OBJECT);
   EXPECT(clSetKernelArg(k, 0, sizeof(cl_mem), &buf2), CL_INVALID_MEM_OBJECT);
   EXPECT(clSetKernelArg(k, 1, 16, &v), CL_INVALID_ARG_VALUE);
   EXPECT(clSetKernelArg(k, 2, 8, &v), CL_INVALID_ARG_SIZE);
   EXPECT(clSetKernelArg(k, 2, sizeof(v), NULL), CL_INVALID_ARG_VALUE);
   EXPECT(clSetKernelArg(NULL, 2, sizeof(v), &v), CL_INVALID_KERNEL);
   EXPECT(clSetKernelArg(k, 0, sizeof(cl_mem), &buf), CL_SUCCESS);
   EXPECT(clSetKernelArg(k, 1, 64, NULL), CL_SUCCESS);
   EXPECT(clSetKernelArg(k, 2, sizeof(v), &v), CL_SUCCESS);
   /* Launch arguments. */
   EXPECT(clEnqueueNDRangeKernel(NULL, k, 1, NULL, &g, &l, 0, NULL, NULL),
          CL_INVALID_COMMAND_QUEUE);
   EXPECT(clEnqueueNDRangeKernel(q, NULL, 1, NULL, &g, &l, 0, NULL, NULL), CL_INVALID_KERNEL);
   EXPECT(clEnqueueNDRangeKernel(q, (cl_kernel)buf, 1, NULL, &g, &l, 0, NULL, NULL),
          CL_INVALID_KERNEL);
   EXPECT(clEnqueueNDRangeKernel(q2, k, 1, NULL, &g, &l, 0, NULL, NULL), CL_INVALID_CONTEXT);
   EXPECT(clEnqueueNDRangeKernel(q, k, 0, NULL, &g, &l, 0, NULL, NULL),
          CL_INVALID_WORK_DIMENSION);
   EXPECT(clEnqueueNDRangeKernel(q, k, 4, NULL, &g, &l, 0, NULL, NULL),
          CL_INVALID_WORK_DIMENSION);
   EXPECT(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &big_l, 0, NULL, NULL),
          CL_INVALID_WORK_ITEM_SIZE); /* past CL_DEVICE_MAX_WORK_ITEM_SIZES[0] */
   EXPECT(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &zero, 0, NULL, NULL),
          CL_INVALID_WORK_GROUP_SIZE);
   size_t off = SIZE_MAX - 10;
   EXPECT(clEnqueueNDRangeKernel(q, k, 1, &off, &g, NULL, 0, NULL, NULL),
          CL_INVALID_GLOBAL_OFFSET);
   EXPECT(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 1, NULL, NULL),
          CL_INVALID_EVENT_WAIT_LIST);
   EXPECT(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 1, &foreign_ev, NULL), CL_INVALID_CONTEXT);
   EXPECT(clEnqueueTask(q, NULL, 0, NULL, NULL), CL_INVALID_KERNEL);
   /* Kernel and program objects. */
   clCreateKernel(p, "nope", &err);
   EXPECT(err, CL_INVALID_KERNEL_NAME);
   clCreateKernel(p, NULL, &err);
   EXPECT(err, CL_INVALID_VALUE);
   clCreateKernel(NULL, "k", &err);
   EXPECT(err, CL_INVALID_PROGRAM);
   clCreateProgramWithSource(ctx, 0, &src, NULL, &err);
   EXPECT(err, CL_INVALID_VALUE);
   clCreateProgramWithSource(ctx, 1, NULL, NULL, &err);
   EXPECT(err, CL_INVALID_VALUE);
   const char *null_src = NULL;
   clCreateProgramWithSource(ctx, 1, &null_src, NULL, &err);
   EXPECT(err, CL_INVALID_VALUE);
   clCreateProgramWithSource(NULL, 1, &src, NULL, &err);
   EXPECT(err, CL_INVALID_CONTEXT);
   EXPECT(clFinish(q), CL_SUCCESS);
   clReleaseKernel(k);
   clReleaseProgram(p);
}

static void
abuse_objects(void)
{
   cl_int err;
   clCreateBuffer(ctx, CL_MEM_READ_WRITE, 0, NULL, &err);
   EXPECT(err, CL_INVALID_BUFFER_SIZE);
   clCreateBuffer(ctx, CL_MEM_READ_WRITE, SIZE_MAX, NULL, &err);
   EXPECT(err, CL_INVALID_BUFFER_SIZE);
   clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 64, NULL, &err);
   EXPECT(err, CL_INVALID_VALUE);
   clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR, 64, host, &err);
   EXPECT(err, CL_INVALID_VALUE);
   clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, 64, NULL, &err);
   EXPECT(err, CL_INVALID_HOST_PTR);
   clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, host, &err);
   EXPECT(err, CL_INVALID_HOST_PTR);
   clCreateBuffer(ctx, (cl_mem_flags)1 << 40, 64, NULL, &err);
   EXPECT(err, CL_INVALID_VALUE);
   clCreateBuffer(NULL, CL_MEM_READ_WRITE, 64, NULL, &err);
   EXPECT(err, CL_INVALID_CONTEXT);
   cl_buffer_region reg = { 4096, 64 };
   clCreateSubBuffer(buf, 0, CL_BUFFER_CREATE_TYPE_REGION, &reg, &err);
   EXPECT(err, CL_INVALID_VALUE);
   reg = (cl_buffer_region){ 64, SIZE_MAX - 32 };
   clCreateSubBuffer(buf, 0, CL_BUFFER_CREATE_TYPE_REGION, &reg, &err);
   EXPECT(err, CL_INVALID_VALUE);
   reg = (cl_buffer_region){ 0, 0 };
   clCreateSubBuffer(buf, 0, CL_BUFFER_CREATE_TYPE_REGION, &reg, &err);
   EXPECT(err, CL_INVALID_BUFFER_SIZE);
   reg = (cl_buffer_region){ 1, 64 };
   clCreateSubBuffer(buf, 0, CL_BUFFER_CREATE_TYPE_REGION, &reg, &err);
   EXPECT(err, CL_MISALIGNED_SUB_BUFFER_OFFSET);
   clCreateSubBuffer(buf, 0, CL_BUFFER_CREATE_TYPE_REGION, NULL, &err);
   EXPECT(err, CL_INVALID_VALUE);
   clCreateSubBuffer(img, 0, CL_BUFFER_CREATE_TYPE_REGION, &reg, &err);
   EXPECT(err, CL_INVALID_MEM_OBJECT);
   cl_image_format fmt = { CL_RGBA, CL_UNORM_INT8 };
   cl_image_desc d = { .image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 0,
                       .image_height = 16 };
   clCreateImage(ctx, CL_MEM_READ_WRITE, &fmt, &d, NULL, &err);
   EXPECT(err, CL_INVALID_IMAGE_DESCRIPTOR);
   d.image_width = 1u << 20; /* past CL_DEVICE_IMAGE2D_MAX_WIDTH */
   clCreateImage(ctx, CL_MEM_READ_WRITE, &fmt, &d, NULL, &err);
   EXPECT(err, CL_INVALID_IMAGE_SIZE);
   d.image_width = 16;
   clCreateImage(ctx, CL_MEM_READ_WRITE, NULL, &d, NULL, &err);
   EXPECT(err, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
   clCreateImage(ctx, CL_MEM_READ_WRITE, &fmt, NULL, NULL, &err);
   EXPECT(err, CL_INVALID_IMAGE_DESCRIPTOR);
   d.image_row_pitch = 16;
   clCreateImage(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &fmt, &d, host, &err);
   EXPECT(err, CL_INVALID_IMAGE_DESCRIPTOR);
   d.image_row_pitch = 0;
   cl_image_format bad = { 0x1234, CL_UNORM_INT8 };
   clCreateImage(ctx, CL_MEM_READ_WRITE, &bad, &d, NULL, &err);
   EXPECT(err, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
   cl_event user = clCreateUserEvent(ctx, &err);
   EXPECT(clSetUserEventStatus(user, 5), CL_INVALID_VALUE);
   EXPECT(clSetUserEventStatus(user, CL_COMPLETE), CL_SUCCESS);
   EXPECT(clSetUserEventStatus(user, CL_COMPLETE), CL_INVALID_OPERATION);
   EXPECT(clSetUserEventStatus(NULL, CL_COMPLETE), CL_INVALID_EVENT);
   EXPECT(clWaitForEvents(0, NULL), CL_INVALID_VALUE);
   EXPECT(clWaitForEvents(1, NULL), CL_INVALID_VALUE);
   cl_event two[2] = { user, foreign_ev };
   EXPECT(clWaitForEvents(2, two), CL_INVALID_CONTEXT);
   cl_int st;
   EXPECT(clGetEventInfo(NULL, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(st), &st, NULL),
          CL_INVALID_EVENT);
   EXPECT(clGetEventInfo(user, 0x7fff, sizeof(st), &st, NULL), CL_INVALID_VALUE);
   EXPECT(clGetEventInfo(user, CL_EVENT_COMMAND_EXECUTION_STATUS, 1, &st, NULL),
          CL_INVALID_VALUE);
   EXPECT(clSetEventCallback(user, CL_COMPLETE, NULL, NULL), CL_INVALID_VALUE);
   clReleaseEvent(user);
   EXPECT(clFinish(NULL), CL_INVALID_COMMAND_QUEUE);
   EXPECT(clFlush((cl_command_queue)buf), CL_INVALID_COMMAND_QUEUE);
   const cl_queue_properties bad_props[] = { 0x7777, 1, 0 };
   clCreateCommandQueueWithProperties(ctx, device, bad_props, &err);
   EXPECT(err, CL_INVALID_VALUE);
   clCreateCommandQueueWithProperties(ctx, (cl_device_id)buf, NULL, &err);
   EXPECT(err, CL_INVALID_DEVICE);
   clCreateCommandQueueWithProperties(NULL, device, NULL, &err);
   EXPECT(err, CL_INVALID_CONTEXT);
}

int
main(void)
{
   cl_platform_id platform;
   cl_int err;
   test_watchdog("api_abuse", 240);
   clGetPlatformIDs(1, &platform, NULL);
   if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &device, NULL) != CL_SUCCESS) {
      fprintf(stderr, "no hsacl device\n");
      return 1;
   }
   ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
   ctx2 = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
   q = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
   q2 = clCreateCommandQueueWithProperties(ctx2, device, NULL, &err);
   buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4096, NULL, &err);
   buf2 = clCreateBuffer(ctx2, CL_MEM_READ_WRITE, 4096, NULL, &err);
   cl_image_format fmt = { CL_RGBA, CL_UNORM_INT8 }, fmt2 = { CL_R, CL_FLOAT };
   cl_image_desc d = { .image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 16,
                       .image_height = 16 };
   img = clCreateImage(ctx, CL_MEM_READ_WRITE, &fmt, &d, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   img_other_fmt = clCreateImage(ctx, CL_MEM_READ_WRITE, &fmt2, &d, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_image_desc d1 = { .image_type = CL_MEM_OBJECT_IMAGE1D, .image_width = 16 };
   img1d = clCreateImage(ctx, CL_MEM_READ_WRITE, &fmt, &d1, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   d1.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER;
   d1.buffer = buf;
   img1d_buf = clCreateImage(ctx, CL_MEM_READ_WRITE, &fmt, &d1, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   foreign_ev = clCreateUserEvent(ctx2, &err);

   abuse_queue_and_wait_lists();
   abuse_buffer_transfers();
   abuse_rects();
   abuse_images();
   abuse_kernels();
   abuse_objects();

   /* Nothing stray was enqueued, and the queue works on. */
   CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
   int v = 0x4242, back = 0;
   CHECK_EQ_INT(clEnqueueWriteBuffer(q, buf, CL_TRUE, 0, 4, &v, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, 4, &back, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(back, 0x4242);
   printf("%u bad calls tried\n", calls);

   clSetUserEventStatus(foreign_ev, CL_COMPLETE);
   clReleaseEvent(foreign_ev);
   clReleaseMemObject(img_other_fmt);
   clReleaseMemObject(img1d);
   clReleaseMemObject(img1d_buf);
   clReleaseMemObject(img);
   clReleaseMemObject(buf2);
   clReleaseMemObject(buf);
   clReleaseCommandQueue(q2);
   clReleaseCommandQueue(q);
   clReleaseContext(ctx2);
   clReleaseContext(ctx);
   return test_main_end();
}
