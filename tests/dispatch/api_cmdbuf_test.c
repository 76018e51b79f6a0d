/*
 * tests/dispatch/api_cmdbuf_test.c — command buffers (cl_khr_command_buffer 0.9.8,
 * cl_khr_command_buffer_mutable_dispatch 0.9.5, cl_khr_command_buffer_multi_device 0.9.2;
 * dispatch/disp_cmdbuf*.c): a fill, a copy, a kernel and a rectangle copy chained by sync
 * points, replayed several times on the recording queue and on a substitute out-of-order
 * queue, twice at once; the arguments captured at record time; image fills and copies, SVM
 * fills and copies; a mutated argument and global size; command buffers of kernels only
 * (replayed from pre-built packets) with arguments re-set after recording, replays at once
 * and updates between replays; the info queries; every error the
 * extensions name; commands over the queues of two GPUs (HSACL_KFD_GPUS=2) with sync points
 * between them, remapped to one queue and to the queues swapped; a substitute queue of the
 * other device is CL_INCOMPATIBLE_COMMAND_QUEUE_KHR; a kernel that enqueues kernels on the
 * device, replayed as a whole tree.
 *
 * Debian's cl_ext.h has a provisional version of the extensions (other prototypes, another
 * configuration layout and structure-type value): the 0.9.8 declarations are spelled out
 * here, with the values of Khronos' OpenCL-Headers.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext.h>

#include "hsacl_cl_test.h"
#include "hsacl_test.h"

#define N 256

typedef cl_properties cmd_props;
#define STATE_FINALIZED 2
#define CONFIG_TYPE_DISPATCH 0
#define ERR_INVALID_MUTABLE_COMMAND -1141
#define INFO_CONTEXT 0x1299
#define DEV_SUPPORTED_QUEUE_PROPS 0x129A
#define PLATFORM_CMDBUF_CAPS 0x0908
#define PLATFORM_UNIVERSAL_SYNC (1 << 0)
#define PLATFORM_REMAP (1 << 1)
#define PLATFORM_AUTOMATIC_REMAP (1 << 2)
#define DEV_NUM_SYNC_DEVICES 0x12AB
#define DEV_SYNC_DEVICES 0x12AC
#define CAP_MULTIPLE_QUEUE (1 << 4)

struct dispatch_config {
   cl_mutable_command_khr command;
   cl_uint num_args, num_svm_args, num_exec_infos, work_dim;
   const cl_mutable_dispatch_arg_khr *arg_list, *arg_svm_list;
   const cl_mutable_dispatch_exec_info_khr *exec_info_list;
   const size_t *global_work_offset, *global_work_size, *local_work_size;
};

static cl_command_buffer_khr(CL_API_CALL *create)(cl_uint, const cl_command_queue *,
                                                  const cl_command_buffer_properties_khr *,
                                                  cl_int *);
static cl_int(CL_API_CALL *finalize)(cl_command_buffer_khr);
static cl_int(CL_API_CALL *retain)(cl_command_buffer_khr);
static cl_int(CL_API_CALL *release)(cl_command_buffer_khr);
static cl_int(CL_API_CALL *enqueue)(cl_uint, cl_command_queue *, cl_command_buffer_khr, cl_uint,
                                    const cl_event *, cl_event *);
static cl_int(CL_API_CALL *info)(cl_command_buffer_khr, cl_command_buffer_info_khr, size_t, void *,
                                 size_t *);
static cl_int(CL_API_CALL *barrier)(cl_command_buffer_khr, cl_command_queue, const cmd_props *,
                                    cl_uint, const cl_sync_point_khr *, cl_sync_point_khr *,
                                    cl_mutable_command_khr *);
static cl_int(CL_API_CALL *copy)(cl_command_buffer_khr, cl_command_queue, const cmd_props *, cl_mem,
                                 cl_mem, size_t, size_t, size_t, cl_uint, const cl_sync_point_khr *,
                                 cl_sync_point_khr *, cl_mutable_command_khr *);
static cl_int(CL_API_CALL *copy_rect)(cl_command_buffer_khr, cl_command_queue, const cmd_props *,
                                      cl_mem, cl_mem, const size_t *, const size_t *,
                                      const size_t *, size_t, size_t, size_t, size_t, cl_uint,
                                      const cl_sync_point_khr *, cl_sync_point_khr *,
                                      cl_mutable_command_khr *);
static cl_int(CL_API_CALL *fill)(cl_command_buffer_khr, cl_command_queue, const cmd_props *, cl_mem,
                                 const void *, size_t, size_t, size_t, cl_uint,
                                 const cl_sync_point_khr *, cl_sync_point_khr *,
                                 cl_mutable_command_khr *);
static cl_int(CL_API_CALL *ndrange)(cl_command_buffer_khr, cl_command_queue, const cmd_props *,
                                    cl_kernel, cl_uint, const size_t *, const size_t *,
                                    const size_t *, cl_uint, const cl_sync_point_khr *,
                                    cl_sync_point_khr *, cl_mutable_command_khr *);
static cl_int(CL_API_CALL *fill_image)(cl_command_buffer_khr, cl_command_queue, const cmd_props *,
                                       cl_mem, const void *, const size_t *, const size_t *,
                                       cl_uint, const cl_sync_point_khr *, cl_sync_point_khr *,
                                       cl_mutable_command_khr *);
static cl_int(CL_API_CALL *copy_image_to_buffer)(cl_command_buffer_khr, cl_command_queue,
                                                 const cmd_props *, cl_mem, cl_mem, const size_t *,
                                                 const size_t *, size_t, cl_uint,
                                                 const cl_sync_point_khr *, cl_sync_point_khr *,
                                                 cl_mutable_command_khr *);
static cl_int(CL_API_CALL *copy_buffer_to_image)(cl_command_buffer_khr, cl_command_queue,
                                                 const cmd_props *, cl_mem, cl_mem, size_t,
                                                 const size_t *, const size_t *, cl_uint,
                                                 const cl_sync_point_khr *, cl_sync_point_khr *,
                                                 cl_mutable_command_khr *);
static cl_int(CL_API_CALL *svm_memcpy)(cl_command_buffer_khr, cl_command_queue, const cmd_props *,
                                       void *, const void *, size_t, cl_uint,
                                       const cl_sync_point_khr *, cl_sync_point_khr *,
                                       cl_mutable_command_khr *);
static cl_int(CL_API_CALL *svm_memfill)(cl_command_buffer_khr, cl_command_queue, const cmd_props *,
                                        void *, const void *, size_t, size_t, cl_uint,
                                        const cl_sync_point_khr *, cl_sync_point_khr *,
                                        cl_mutable_command_khr *);
static cl_command_buffer_khr(CL_API_CALL *remap)(cl_command_buffer_khr, cl_bool, cl_uint,
                                                 const cl_command_queue *, cl_uint,
                                                 const cl_mutable_command_khr *,
                                                 cl_mutable_command_khr *, cl_int *);
static cl_int(CL_API_CALL *update)(cl_command_buffer_khr, cl_uint, const cl_uint *, const void **);
static cl_int(CL_API_CALL *mutable_info)(cl_mutable_command_khr, cl_mutable_command_info_khr,
                                         size_t, void *, size_t *);

static cl_platform_id platform;
static cl_device_id devices[2];
static cl_uint num_devices;
static cl_context ctx;
static cl_command_queue q, ooo;
static cl_kernel k;
static cl_mem a, b, c;

static const char *source = "kernel void scale(global int *x, int v) {\n"
                            "   size_t i = get_global_id(0); x[i] = x[i] * 2 + v;\n"
                            "}\n";

static void *
fn(const char *name)
{
   void *p = clGetExtensionFunctionAddressForPlatform(platform, name);
   CHECK(p != NULL);
   return p;
}

static void
load_functions(void)
{
   create = fn("clCreateCommandBufferKHR");
   finalize = fn("clFinalizeCommandBufferKHR");
   retain = fn("clRetainCommandBufferKHR");
   release = fn("clReleaseCommandBufferKHR");
   enqueue = fn("clEnqueueCommandBufferKHR");
   info = fn("clGetCommandBufferInfoKHR");
   barrier = fn("clCommandBarrierWithWaitListKHR");
   copy = fn("clCommandCopyBufferKHR");
   copy_rect = fn("clCommandCopyBufferRectKHR");
   fill = fn("clCommandFillBufferKHR");
   ndrange = fn("clCommandNDRangeKernelKHR");
   update = fn("clUpdateMutableCommandsKHR");
   mutable_info = fn("clGetMutableCommandInfoKHR");
   remap = fn("clRemapCommandBufferKHR");
   fill_image = fn("clCommandFillImageKHR");
   copy_image_to_buffer = fn("clCommandCopyImageToBufferKHR");
   copy_buffer_to_image = fn("clCommandCopyBufferToImageKHR");
   svm_memcpy = fn("clCommandSVMMemcpyKHR");
   svm_memfill = fn("clCommandSVMMemFillKHR");
}

static cl_mem
buffer(void)
{
   cl_int err;
   cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * sizeof(int), NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   return m;
}

/* Counts the elements of `m`, read on `on`, that differ from `lo` below `split` and from `hi`
 * from there. */
static int
wrong_in(cl_command_queue on, cl_mem m, int lo, int hi, size_t split)
{
   int h[N], bad = 0;
   CHECK_EQ_INT(clEnqueueReadBuffer(on, m, CL_TRUE, 0, sizeof(h), h, 0, NULL, NULL), CL_SUCCESS);
   for (size_t i = 0; i < N; i++)
      bad += h[i] != (i < split ? lo : hi);
   return bad;
}

static void
poison_c(void)
{
   const int minus = -1;
   CHECK_EQ_INT(clEnqueueFillBuffer(q, c, &minus, sizeof(minus), 0, N * sizeof(int), 0, NULL, NULL),
                CL_SUCCESS);
}

/* fill a with 1 → copy a to b → b = b * 2 + v (v = 3 at record time) → rectangle copy of b
 * (N ints as a 16 x 16 x 4-byte rectangle) to c: every replay leaves 5 in c. */
static cl_command_buffer_khr
record(cl_command_buffer_flags_khr flags, cl_mutable_command_khr *launch)
{
   cl_int err;
   cl_command_buffer_properties_khr props[] = { CL_COMMAND_BUFFER_FLAGS_KHR, flags, 0 };
   cl_command_buffer_khr cb = create(1, &q, flags ? props : NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   const int one = 1, v = 3;
   cl_sync_point_khr s[4];
   CHECK_EQ_INT(
      fill(cb, NULL, NULL, a, &one, sizeof(one), 0, N * sizeof(int), 0, NULL, &s[0], NULL),
      CL_SUCCESS);
   CHECK_EQ_INT(copy(cb, NULL, NULL, a, b, 0, 0, N * sizeof(int), 1, &s[0], &s[1], NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArg(k, 0, sizeof(b), &b), CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArg(k, 1, sizeof(v), &v), CL_SUCCESS);
   size_t g = N;
   CHECK_EQ_INT(ndrange(cb, NULL, NULL, k, 1, NULL, &g, NULL, 1, &s[1], &s[2], launch), CL_SUCCESS);
   const size_t zero[3] = { 0, 0, 0 }, region[3] = { 16 * sizeof(int), 16, 1 };
   CHECK_EQ_INT(
      copy_rect(cb, NULL, NULL, b, c, zero, zero, region, 0, 0, 0, 0, 1, &s[2], &s[3], NULL),
      CL_SUCCESS);
   CHECK_EQ_INT(s[0] != s[1] && s[1] != s[2] && s[2] != s[3], 1);
   CHECK_EQ_INT(finalize(cb), CL_SUCCESS);
   return cb;
}

static void
test_replay(void)
{
   cl_command_buffer_khr cb = record(0, NULL);
   /* What the kernel's arguments are now does not change the recorded launch. */
   const int other = 100;
   CHECK_EQ_INT(clSetKernelArg(k, 1, sizeof(other), &other), CL_SUCCESS);
   for (int i = 0; i < 3; i++) {
      poison_c();
      cl_event ev;
      CHECK_EQ_INT(enqueue(0, NULL, cb, 0, NULL, &ev), CL_SUCCESS);
      cl_command_type type = 0;
      CHECK_EQ_INT(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, NULL),
                   CL_SUCCESS);
      CHECK_EQ_INT(type, CL_COMMAND_COMMAND_BUFFER_KHR);
      cl_command_queue evq = NULL;
      CHECK_EQ_INT(clGetEventInfo(ev, CL_EVENT_COMMAND_QUEUE, sizeof(evq), &evq, NULL), CL_SUCCESS);
      CHECK(evq == q);
      CHECK_EQ_INT(clWaitForEvents(1, &ev), CL_SUCCESS);
      CHECK_EQ_INT(wrong_in(q, c, 5, 5, N), 0);
      clReleaseEvent(ev);
   }
   /* On an out-of-order substitute queue, behind a user event, twice at once: the sync
    * points order each replay's commands. */
   cl_int err;
   cl_event gate = clCreateUserEvent(ctx, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   poison_c();
   CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
   cl_event done[2];
   CHECK_EQ_INT(enqueue(1, &ooo, cb, 1, &gate, &done[0]), CL_SUCCESS);
   CHECK_EQ_INT(enqueue(1, &ooo, cb, 1, &done[0], &done[1]), CL_SUCCESS);
   cl_int status = 0;
   CHECK_EQ_INT(
      clGetEventInfo(done[1], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status, NULL),
      CL_SUCCESS);
   CHECK(status > CL_COMPLETE); /* held back by the gate */
   CHECK_EQ_INT(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
   CHECK_EQ_INT(clWaitForEvents(2, done), CL_SUCCESS);
   CHECK_EQ_INT(wrong_in(ooo, c, 5, 5, N), 0);
   clReleaseEvent(done[0]);
   clReleaseEvent(done[1]);
   clReleaseEvent(gate);

   /* A wait list longer than the command buffer (one sync point, repeated): the replay's
    * wait lists are sized for it. */
   cl_command_buffer_khr rep = create(1, &q, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   const int seven = 7;
   cl_sync_point_khr first, many[100];
   CHECK_EQ_INT(
      fill(rep, NULL, NULL, c, &seven, sizeof(seven), 0, N * sizeof(int), 0, NULL, &first, NULL),
      CL_SUCCESS);
   for (int i = 0; i < 100; i++)
      many[i] = first;
   CHECK_EQ_INT(barrier(rep, NULL, NULL, 100, many, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(finalize(rep), CL_SUCCESS);
   CHECK_EQ_INT(enqueue(1, &ooo, rep, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clFinish(ooo), CL_SUCCESS);
   CHECK_EQ_INT(wrong_in(ooo, c, 7, 7, N), 0);
   CHECK_EQ_INT(release(rep), CL_SUCCESS);

   /* Info queries. */
   cl_uint n = 0;
   CHECK_EQ_INT(info(cb, CL_COMMAND_BUFFER_NUM_QUEUES_KHR, sizeof(n), &n, NULL), CL_SUCCESS);
   CHECK_EQ_INT(n, 1);
   cl_command_queue qq = NULL;
   CHECK_EQ_INT(info(cb, CL_COMMAND_BUFFER_QUEUES_KHR, sizeof(qq), &qq, NULL), CL_SUCCESS);
   CHECK(qq == q);
   cl_context cc = NULL;
   CHECK_EQ_INT(info(cb, INFO_CONTEXT, sizeof(cc), &cc, NULL), CL_SUCCESS);
   CHECK(cc == ctx);
   CHECK_EQ_INT(retain(cb), CL_SUCCESS);
   CHECK_EQ_INT(info(cb, CL_COMMAND_BUFFER_REFERENCE_COUNT_KHR, sizeof(n), &n, NULL), CL_SUCCESS);
   CHECK_EQ_INT(n, 2);
   CHECK_EQ_INT(release(cb), CL_SUCCESS);
   cl_command_buffer_state_khr state = 9;
   CHECK_EQ_INT(info(cb, CL_COMMAND_BUFFER_STATE_KHR, sizeof(state), &state, NULL), CL_SUCCESS);
   CHECK_EQ_INT(state, CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR);
   size_t size = 1;
   CHECK_EQ_INT(info(cb, CL_COMMAND_BUFFER_PROPERTIES_ARRAY_KHR, 0, NULL, &size), CL_SUCCESS);
   CHECK_EQ_INT((int)size, 0);
   CHECK_EQ_INT(release(cb), CL_SUCCESS);
}

/* Images and SVM: fill a 16 x 16 RGBA8 image, copy it to a buffer and that buffer into a
 * second image, then that image to c; fill an SVM allocation and copy it to another. */
static void
test_images_svm(void)
{
   cl_int err;
   const cl_image_format fmt = { CL_RGBA, CL_UNSIGNED_INT8 };
   const cl_image_desc desc = { .image_type = CL_MEM_OBJECT_IMAGE2D,
                                .image_width = 16,
                                .image_height = 16 };
   cl_mem img = clCreateImage(ctx, CL_MEM_READ_WRITE, &fmt, &desc, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_mem img2 = clCreateImage(ctx, CL_MEM_READ_WRITE, &fmt, &desc, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_command_buffer_khr cb = create(1, &q, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   const cl_uint color[4] = { 1, 2, 3, 4 };
   const size_t origin[3] = { 0, 0, 0 }, region[3] = { 16, 16, 1 };
   cl_sync_point_khr s[3];
   CHECK_EQ_INT(fill_image(cb, NULL, NULL, img, color, origin, region, 0, NULL, &s[0], NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(
      copy_image_to_buffer(cb, NULL, NULL, img, b, origin, region, 0, 1, &s[0], &s[1], NULL),
      CL_SUCCESS);
   CHECK_EQ_INT(
      copy_buffer_to_image(cb, NULL, NULL, b, img2, 0, origin, region, 1, &s[1], &s[2], NULL),
      CL_SUCCESS);
   CHECK_EQ_INT(
      copy_image_to_buffer(cb, NULL, NULL, img2, c, origin, region, 0, 1, &s[2], NULL, NULL),
      CL_SUCCESS);
   /* Outside the image: the enqueue's check, at record time. */
   const size_t too_far[3] = { 8, 0, 0 };
   CHECK_EQ_INT(fill_image(cb, NULL, NULL, img, color, too_far, region, 0, NULL, NULL, NULL),
                CL_INVALID_VALUE);
   CHECK_EQ_INT(finalize(cb), CL_SUCCESS);
   poison_c();
   CHECK_EQ_INT(enqueue(0, NULL, cb, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(wrong_in(q, c, 0x04030201, 0, N), 0);
   CHECK_EQ_INT(release(cb), CL_SUCCESS);
   clReleaseMemObject(img);
   clReleaseMemObject(img2);

   cl_device_svm_capabilities svm = 0;
   CHECK_EQ_INT(clGetDeviceInfo(devices[0], CL_DEVICE_SVM_CAPABILITIES, sizeof(svm), &svm, NULL),
                CL_SUCCESS);
   if (!(svm & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER))
      return;
   int *x = clSVMAlloc(ctx, CL_MEM_READ_WRITE, N * sizeof(int), 0);
   int *y = clSVMAlloc(ctx, CL_MEM_READ_WRITE, N * sizeof(int), 0);
   CHECK(x && y);
   cb = create(1, &q, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   const int pattern = 0x5a5a;
   cl_sync_point_khr filled;
   CHECK_EQ_INT(svm_memfill(cb, NULL, NULL, x, &pattern, sizeof(pattern), N * sizeof(int), 0, NULL,
                            &filled, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(svm_memcpy(cb, NULL, NULL, y, x, N * sizeof(int), 1, &filled, NULL, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(svm_memcpy(cb, NULL, NULL, y, y + 1, 8, 0, NULL, NULL, NULL), CL_MEM_COPY_OVERLAP);
   CHECK_EQ_INT(finalize(cb), CL_SUCCESS);
   CHECK_EQ_INT(enqueue(0, NULL, cb, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueSVMMap(q, CL_TRUE, CL_MAP_READ, y, N * sizeof(int), 0, NULL, NULL),
                CL_SUCCESS);
   int bad = 0;
   for (int i = 0; i < N; i++)
      bad += y[i] != pattern;
   CHECK_EQ_INT(bad, 0);
   CHECK_EQ_INT(clEnqueueSVMUnmap(q, y, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
   CHECK_EQ_INT(release(cb), CL_SUCCESS);
   clSVMFree(ctx, x);
   clSVMFree(ctx, y);
}

static void
test_mutable(void)
{
   cl_mutable_command_khr launch = NULL;
   cl_command_buffer_khr cb = record(CL_COMMAND_BUFFER_MUTABLE_KHR, &launch);
   CHECK(launch != NULL);
   cl_kernel kk = NULL;
   CHECK_EQ_INT(mutable_info(launch, CL_MUTABLE_DISPATCH_KERNEL_KHR, sizeof(kk), &kk, NULL),
                CL_SUCCESS);
   CHECK(kk == k);
   /* v = 10 and half the work-items: c = 1 * 2 + 10 below N/2, the copied 1 above. */
   const int v = 10;
   const size_t half = N / 2;
   cl_mutable_dispatch_arg_khr arg = { 1, sizeof(v), &v };
   struct dispatch_config cfg = {
      .command = launch, .num_args = 1, .arg_list = &arg, .global_work_size = &half
   };
   const cl_uint type = CONFIG_TYPE_DISPATCH;
   const void *cfgs[] = { &cfg };
   CHECK_EQ_INT(update(cb, 1, &type, cfgs), CL_SUCCESS);
   size_t g = 0;
   CHECK_EQ_INT(mutable_info(launch, CL_MUTABLE_DISPATCH_GLOBAL_WORK_SIZE_KHR, sizeof(g), &g, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT((int)g, (int)half);
   for (int i = 0; i < 2; i++) {
      poison_c();
      CHECK_EQ_INT(enqueue(0, NULL, cb, 0, NULL, NULL), CL_SUCCESS);
      CHECK_EQ_INT(wrong_in(q, c, 12, 1, half), 0);
   }
   /* A failing update changes nothing: argument 5 does not exist. */
   cl_mutable_dispatch_arg_khr bad_arg = { 5, sizeof(v), &v };
   struct dispatch_config bad = { .command = launch, .num_args = 1, .arg_list = &bad_arg };
   const void *bad_cfgs[] = { &cfg, &bad };
   const cl_uint types[] = { CONFIG_TYPE_DISPATCH, CONFIG_TYPE_DISPATCH };
   const size_t full = N;
   cfg.global_work_size = &full;
   CHECK_EQ_INT(update(cb, 2, types, bad_cfgs), CL_INVALID_ARG_INDEX);
   poison_c();
   CHECK_EQ_INT(enqueue(0, NULL, cb, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(wrong_in(q, c, 12, 1, half), 0);
   CHECK_EQ_INT(update(cb, 1, &type, NULL), CL_INVALID_VALUE);
   struct dispatch_config stale = { .command = (cl_mutable_command_khr)&cfg };
   const void *stale_cfgs[] = { &stale };
   CHECK_EQ_INT(update(cb, 1, &type, stale_cfgs), ERR_INVALID_MUTABLE_COMMAND);
   CHECK_EQ_INT(mutable_info(NULL, CL_MUTABLE_DISPATCH_KERNEL_KHR, sizeof(kk), &kk, NULL),
                ERR_INVALID_MUTABLE_COMMAND);
   CHECK_EQ_INT(release(cb), CL_SUCCESS);

   /* Arguments left for an update: finalized but not executable until it comes. */
   cl_int err;
   cl_program prog = NULL;
   CHECK_EQ_INT(clGetKernelInfo(k, CL_KERNEL_PROGRAM, sizeof(prog), &prog, NULL), CL_SUCCESS);
   cl_kernel unset = clCreateKernel(prog, "scale", &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_command_buffer_properties_khr props[] = { CL_COMMAND_BUFFER_FLAGS_KHR,
                                                CL_COMMAND_BUFFER_MUTABLE_KHR, 0 };
   cb = create(1, &q, props, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   CHECK_EQ_INT(ndrange(cb, NULL, NULL, unset, 1, NULL, &half, NULL, 0, NULL, NULL, &launch),
                CL_SUCCESS);
   CHECK_EQ_INT(finalize(cb), CL_SUCCESS);
   cl_command_buffer_state_khr state = 9;
   CHECK_EQ_INT(info(cb, CL_COMMAND_BUFFER_STATE_KHR, sizeof(state), &state, NULL), CL_SUCCESS);
   CHECK_EQ_INT(state, STATE_FINALIZED);
   CHECK_EQ_INT(enqueue(0, NULL, cb, 0, NULL, NULL), CL_INVALID_OPERATION);
   cl_mutable_dispatch_arg_khr args[2] = { { 0, sizeof(c), &c }, { 1, sizeof(v), &v } };
   struct dispatch_config set = { .command = launch, .num_args = 2, .arg_list = args };
   const void *set_cfgs[] = { &set };
   CHECK_EQ_INT(update(cb, 1, &type, set_cfgs), CL_SUCCESS);
   CHECK_EQ_INT(info(cb, CL_COMMAND_BUFFER_STATE_KHR, sizeof(state), &state, NULL), CL_SUCCESS);
   CHECK_EQ_INT(state, CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR);
   const int zero = 0;
   CHECK_EQ_INT(clEnqueueFillBuffer(q, c, &zero, sizeof(zero), 0, N * sizeof(int), 0, NULL, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(enqueue(0, NULL, cb, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(wrong_in(q, c, 10, 0, half), 0);
   CHECK_EQ_INT(release(cb), CL_SUCCESS);
   clReleaseKernel(unset);
}

static void
fill_b(int v)
{
   CHECK_EQ_INT(clEnqueueFillBuffer(q, b, &v, sizeof(v), 0, N * sizeof(int), 0, NULL, NULL),
                CL_SUCCESS);
}

/* Command buffers of kernels only: replays of packets built at finalize
 * (disp_cmdbuf_image.c). b = (b * 2 + 3) * 2 + 1 per replay, the two launches ordered by a
 * sync point and a barrier; the kernel's arguments re-set after recording change nothing;
 * three replays at once behind a kernel's event run one after the other; a replay behind a
 * command of its queue held on a user event waits for it; an update while a
 * replay may still run reaches the replays after it only, and an update with none in flight
 * rewrites the packet in place. */
static void
test_prebuilt(void)
{
   cl_int err;
   cl_command_buffer_properties_khr props[] = { CL_COMMAND_BUFFER_FLAGS_KHR,
                                                CL_COMMAND_BUFFER_MUTABLE_KHR, 0 };
   cl_command_buffer_khr cb = create(1, &q, props, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   const int three = 3, one = 1;
   size_t g = N;
   cl_sync_point_khr s[3];
   cl_mutable_command_khr second = NULL;
   CHECK_EQ_INT(clSetKernelArg(k, 0, sizeof(b), &b), CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArg(k, 1, sizeof(three), &three), CL_SUCCESS);
   CHECK_EQ_INT(ndrange(cb, NULL, NULL, k, 1, NULL, &g, NULL, 0, NULL, &s[0], NULL), CL_SUCCESS);
   CHECK_EQ_INT(barrier(cb, NULL, NULL, 1, &s[0], &s[1], NULL), CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArg(k, 1, sizeof(one), &one), CL_SUCCESS);
   CHECK_EQ_INT(ndrange(cb, NULL, NULL, k, 1, NULL, &g, NULL, 1, &s[1], &s[2], &second),
                CL_SUCCESS);
   CHECK_EQ_INT(finalize(cb), CL_SUCCESS);
   const int hundred = 100;
   CHECK_EQ_INT(clSetKernelArg(k, 0, sizeof(c), &c), CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArg(k, 1, sizeof(hundred), &hundred), CL_SUCCESS);
   fill_b(1);
   CHECK_EQ_INT(enqueue(0, NULL, cb, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(wrong_in(q, b, 11, 11, N), 0);

   /* Behind a submitted kernel's event, three at once: 1 -> 11 (the kernel: 1 * 2 + 9) ->
    * 51 -> 211 -> 851. */
   fill_b(1);
   cl_event before, ev[3];
   const int nine = 9;
   CHECK_EQ_INT(clSetKernelArg(k, 0, sizeof(b), &b), CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArg(k, 1, sizeof(nine), &nine), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, &before), CL_SUCCESS);
   for (int i = 0; i < 3; i++)
      CHECK_EQ_INT(enqueue(0, NULL, cb, 1, &before, &ev[i]), CL_SUCCESS);
   CHECK_EQ_INT(clWaitForEvents(3, ev), CL_SUCCESS);
   CHECK_EQ_INT(wrong_in(q, b, 851, 851, N), 0);
   cl_command_type type = 0;
   CHECK_EQ_INT(clGetEventInfo(ev[2], CL_EVENT_COMMAND_TYPE, sizeof(type), &type, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(type, CL_COMMAND_COMMAND_BUFFER_KHR);
   for (int i = 0; i < 3; i++)
      clReleaseEvent(ev[i]);
   clReleaseEvent(before);

   /* Behind a command of its queue held on a user event: runs once the gate opens. */
   fill_b(1);
   cl_event gate = clCreateUserEvent(ctx, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueMarkerWithWaitList(q, 1, &gate, NULL), CL_SUCCESS);
   CHECK_EQ_INT(enqueue(0, NULL, cb, 0, NULL, &ev[0]), CL_SUCCESS);
   cl_int status = 0;
   CHECK_EQ_INT(
      clGetEventInfo(ev[0], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status, NULL),
      CL_SUCCESS);
   CHECK(status > CL_COMPLETE);
   CHECK_EQ_INT(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
   CHECK_EQ_INT(clWaitForEvents(1, ev), CL_SUCCESS);
   CHECK_EQ_INT(wrong_in(q, b, 11, 11, N), 0);
   clReleaseEvent(ev[0]);
   clReleaseEvent(gate);

   /* An update between two replays, the first possibly still running: the second launch
    * writes c (c = c * 2 + 5) over half the range in the second replay only. */
   fill_b(1);
   const int minus = -1;
   CHECK_EQ_INT(clEnqueueFillBuffer(q, c, &minus, sizeof(minus), 0, N * sizeof(int), 0, NULL, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(enqueue(0, NULL, cb, 0, NULL, NULL), CL_SUCCESS);
   const int five = 5;
   const size_t half = N / 2;
   cl_mutable_dispatch_arg_khr args[2] = { { 0, sizeof(c), &c }, { 1, sizeof(five), &five } };
   struct dispatch_config cfg = {
      .command = second, .num_args = 2, .arg_list = args, .global_work_size = &half
   };
   const cl_uint ctype = CONFIG_TYPE_DISPATCH;
   const void *cfgs[] = { &cfg };
   CHECK_EQ_INT(update(cb, 1, &ctype, cfgs), CL_SUCCESS);
   CHECK_EQ_INT(enqueue(0, NULL, cb, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(wrong_in(q, b, 25, 25, N), 0); /* 1 -> 11 by the first replay, 11 * 2 + 3 by the second */
   CHECK_EQ_INT(wrong_in(q, c, 3, -1, half), 0);

   /* Nothing in flight: rewritten in place; the full range again, v = 7. */
   const int seven = 7;
   args[1].arg_value = &seven;
   cfg.global_work_size = &g;
   CHECK_EQ_INT(update(cb, 1, &ctype, cfgs), CL_SUCCESS);
   CHECK_EQ_INT(enqueue(0, NULL, cb, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(wrong_in(q, b, 53, 53, N), 0);
   CHECK_EQ_INT(wrong_in(q, c, 13, 5, half), 0);
   CHECK_EQ_INT(release(cb), CL_SUCCESS);

   /* Recorded on the out-of-order queue: sync points order the launches. */
   cb = create(1, &ooo, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArg(k, 1, sizeof(three), &three), CL_SUCCESS);
   CHECK_EQ_INT(ndrange(cb, NULL, NULL, k, 1, NULL, &g, NULL, 0, NULL, &s[0], NULL), CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArg(k, 1, sizeof(one), &one), CL_SUCCESS);
   CHECK_EQ_INT(ndrange(cb, NULL, NULL, k, 1, NULL, &g, NULL, 1, &s[0], NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(finalize(cb), CL_SUCCESS);
   fill_b(1);
   CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
   CHECK_EQ_INT(enqueue(1, &ooo, cb, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clFinish(ooo), CL_SUCCESS);
   CHECK_EQ_INT(wrong_in(q, b, 11, 11, N), 0);
   CHECK_EQ_INT(release(cb), CL_SUCCESS);
}

static void
test_errors(void)
{
   cl_int err;
   const int one = 1;
   size_t g = N;
   cl_sync_point_khr sp;
   cl_mutable_command_khr mh;
   CHECK(create(0, NULL, NULL, &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_VALUE);
   cl_command_queue bogus = (cl_command_queue)ctx;
   CHECK(create(1, &bogus, NULL, &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_COMMAND_QUEUE);
   cl_command_buffer_properties_khr twice[] = { CL_COMMAND_BUFFER_FLAGS_KHR, 0,
                                                CL_COMMAND_BUFFER_FLAGS_KHR, 0, 0 };
   CHECK(create(1, &q, twice, &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_VALUE);
   cl_command_buffer_properties_khr unknown[] = { 0x4242, 0, 0 };
   CHECK(create(1, &q, unknown, &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_VALUE);

   /* CL_INVALID_COMMAND_BUFFER_KHR from every function. */
   CHECK_EQ_INT(finalize(NULL), CL_INVALID_COMMAND_BUFFER_KHR);
   CHECK_EQ_INT(retain(NULL), CL_INVALID_COMMAND_BUFFER_KHR);
   CHECK_EQ_INT(release(NULL), CL_INVALID_COMMAND_BUFFER_KHR);
   CHECK_EQ_INT(enqueue(0, NULL, NULL, 0, NULL, NULL), CL_INVALID_COMMAND_BUFFER_KHR);
   CHECK_EQ_INT(info(NULL, CL_COMMAND_BUFFER_NUM_QUEUES_KHR, 0, NULL, &g),
                CL_INVALID_COMMAND_BUFFER_KHR);
   CHECK_EQ_INT(barrier(NULL, NULL, NULL, 0, NULL, NULL, NULL), CL_INVALID_COMMAND_BUFFER_KHR);
   CHECK_EQ_INT(fill(NULL, NULL, NULL, a, &one, 4, 0, 4, 0, NULL, NULL, NULL),
                CL_INVALID_COMMAND_BUFFER_KHR);
   CHECK_EQ_INT(ndrange(NULL, NULL, NULL, k, 1, NULL, &g, NULL, 0, NULL, NULL, NULL),
                CL_INVALID_COMMAND_BUFFER_KHR);
   CHECK_EQ_INT(update(NULL, 0, NULL, NULL), CL_INVALID_COMMAND_BUFFER_KHR);

   cl_command_buffer_khr cb = create(1, &q, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   CHECK_EQ_INT(enqueue(0, NULL, cb, 0, NULL, NULL), CL_INVALID_OPERATION); /* recording */
   /* A queue the command buffer was not created with (its own is allowed with
    * multi_device). */
   CHECK_EQ_INT(fill(cb, ooo, NULL, a, &one, 4, 0, 4, 0, NULL, NULL, NULL),
                CL_INVALID_COMMAND_QUEUE);
   CHECK_EQ_INT(fill(cb, NULL, NULL, a, &one, 4, 0, 4, 1, NULL, NULL, NULL),
                CL_INVALID_SYNC_POINT_WAIT_LIST_KHR);
   CHECK_EQ_INT(fill(cb, NULL, NULL, a, &one, 4, 0, 4, 0, &sp, NULL, NULL),
                CL_INVALID_SYNC_POINT_WAIT_LIST_KHR);
   sp = 7; /* never returned */
   CHECK_EQ_INT(fill(cb, NULL, NULL, a, &one, 4, 0, 4, 1, &sp, NULL, NULL),
                CL_INVALID_SYNC_POINT_WAIT_LIST_KHR);
   CHECK_EQ_INT(fill(cb, NULL, NULL, a, &one, 4, 0, 4, 0, NULL, NULL, &mh), CL_INVALID_VALUE);
   const cmd_props bad_props[] = { 0x4242, 1, 0 };
   CHECK_EQ_INT(fill(cb, NULL, bad_props, a, &one, 4, 0, 4, 0, NULL, NULL, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(ndrange(cb, NULL, bad_props, k, 1, NULL, &g, NULL, 0, NULL, NULL, NULL),
                CL_INVALID_VALUE);
   /* The enqueue's own checks, run at record time. */
   CHECK_EQ_INT(copy(cb, NULL, NULL, a, b, 0, 4, N * sizeof(int), 0, NULL, NULL, NULL),
                CL_INVALID_VALUE);
   CHECK_EQ_INT(fill(cb, NULL, NULL, a, &one, 3, 0, 4, 0, NULL, NULL, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(ndrange(cb, NULL, NULL, k, 4, NULL, &g, NULL, 0, NULL, NULL, NULL),
                CL_INVALID_WORK_DIMENSION);
   cl_context other = clCreateContext(NULL, 1, devices, NULL, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_mem foreign = clCreateBuffer(other, CL_MEM_READ_WRITE, 64, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   CHECK_EQ_INT(copy(cb, NULL, NULL, a, foreign, 0, 0, 64, 0, NULL, NULL, NULL),
                CL_INVALID_CONTEXT);
   cl_event foreign_ev = clCreateUserEvent(other, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   /* Nothing failed was recorded: the first sync point is still 0. */
   CHECK_EQ_INT(barrier(cb, NULL, NULL, 0, NULL, &sp, NULL), CL_SUCCESS);
   CHECK_EQ_INT(sp, 0);
   CHECK_EQ_INT(finalize(cb), CL_SUCCESS);
   CHECK_EQ_INT(finalize(cb), CL_INVALID_OPERATION);
   CHECK_EQ_INT(barrier(cb, NULL, NULL, 0, NULL, NULL, NULL), CL_INVALID_OPERATION);
   CHECK_EQ_INT(enqueue(1, NULL, cb, 0, NULL, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(enqueue(0, &q, cb, 0, NULL, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(enqueue(1, &bogus, cb, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
   CHECK_EQ_INT(enqueue(0, NULL, cb, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
   CHECK_EQ_INT(enqueue(0, NULL, cb, 1, &foreign_ev, NULL), CL_INVALID_CONTEXT);
   cl_command_queue other_q = clCreateCommandQueueWithProperties(other, devices[0], NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   CHECK_EQ_INT(enqueue(1, &other_q, cb, 0, NULL, NULL), CL_INVALID_CONTEXT);
   /* Not mutable: no update. */
   const cl_uint type = CONFIG_TYPE_DISPATCH;
   struct dispatch_config cfg = { 0 };
   const void *cfgs[] = { &cfg };
   CHECK_EQ_INT(update(cb, 1, &type, cfgs), CL_INVALID_OPERATION);
   if (num_devices > 1) {
      cl_command_queue q2 = clCreateCommandQueueWithProperties(ctx, devices[1], NULL, &err);
      CHECK_EQ_INT(err, CL_SUCCESS);
      CHECK_EQ_INT(enqueue(1, &q2, cb, 0, NULL, NULL), CL_INCOMPATIBLE_COMMAND_QUEUE_KHR);
      clReleaseCommandQueue(q2);
   }
   CHECK_EQ_INT(enqueue(0, NULL, cb, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
   CHECK_EQ_INT(release(cb), CL_SUCCESS);

   /* Kernels with unset arguments are refused outside a mutable command buffer. */
   cl_program prog = NULL;
   CHECK_EQ_INT(clGetKernelInfo(k, CL_KERNEL_PROGRAM, sizeof(prog), &prog, NULL), CL_SUCCESS);
   cl_kernel unset = clCreateKernel(prog, "scale", &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cb = create(1, &q, NULL, &err);
   CHECK_EQ_INT(ndrange(cb, NULL, NULL, unset, 1, NULL, &g, NULL, 0, NULL, NULL, NULL),
                CL_INVALID_KERNEL_ARGS);
   CHECK_EQ_INT(release(cb), CL_SUCCESS);
   clReleaseKernel(unset);
   clSetUserEventStatus(foreign_ev, CL_COMPLETE);
   clReleaseEvent(foreign_ev);
   clReleaseCommandQueue(other_q);
   clReleaseMemObject(foreign);
   clReleaseContext(other);
}

/* cl_khr_command_buffer_multi_device: a fill on the first device's queue, a copy and the
 * kernel on the second's (the other GPU, or a second queue of the one GPU) after it, a copy
 * back on the first; then the same commands remapped to one queue (automatically), and to
 * the two queues swapped (explicitly), each giving the same result. */
static void
test_multi_device(void)
{
   cl_int err;
   cl_command_queue qs[2] = { q, NULL };
   qs[1] = clCreateCommandQueueWithProperties(ctx, devices[num_devices - 1], NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_command_buffer_khr cb = create(2, qs, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   const int one = 1, v = 7;
   size_t g = N;
   cl_sync_point_khr s[3];
   cl_mutable_command_khr mh;
   CHECK_EQ_INT(fill(cb, NULL, NULL, a, &one, 4, 0, N * sizeof(int), 0, NULL, NULL, NULL),
                CL_INVALID_COMMAND_QUEUE); /* which of the two? */
   CHECK_EQ_INT(fill(cb, ooo, NULL, a, &one, 4, 0, N * sizeof(int), 0, NULL, NULL, NULL),
                CL_INVALID_COMMAND_QUEUE); /* not one of them */
   CHECK_EQ_INT(fill(cb, qs[0], NULL, a, &one, 4, 0, N * sizeof(int), 0, NULL, &s[0], NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(copy(cb, qs[1], NULL, a, b, 0, 0, N * sizeof(int), 1, &s[0], &s[1], NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArg(k, 0, sizeof(b), &b), CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArg(k, 1, sizeof(v), &v), CL_SUCCESS);
   CHECK_EQ_INT(ndrange(cb, qs[1], NULL, k, 1, NULL, &g, NULL, 1, &s[1], &s[2], &mh), CL_SUCCESS);
   CHECK_EQ_INT(copy(cb, qs[0], NULL, b, c, 0, 0, N * sizeof(int), 1, &s[2], NULL, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(finalize(cb), CL_SUCCESS);
   poison_c();
   CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
   cl_event ev;
   CHECK_EQ_INT(enqueue(0, NULL, cb, 0, NULL, &ev), CL_SUCCESS);
   cl_command_queue evq = q;
   CHECK_EQ_INT(clGetEventInfo(ev, CL_EVENT_COMMAND_QUEUE, sizeof(evq), &evq, NULL), CL_SUCCESS);
   CHECK(evq == NULL); /* a replay over several queues belongs to none */
   CHECK_EQ_INT(clWaitForEvents(1, &ev), CL_SUCCESS);
   clReleaseEvent(ev);
   CHECK_EQ_INT(wrong_in(q, c, 9, 9, N), 0);

   cl_mutable_command_khr mh2 = NULL;
   cl_command_buffer_khr one_q = remap(cb, CL_TRUE, 1, &q, 1, &mh, &mh2, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   CHECK(mh2 != NULL && mh2 != mh);
   cl_command_queue on = NULL;
   CHECK_EQ_INT(mutable_info(mh2, CL_MUTABLE_COMMAND_COMMAND_QUEUE_KHR, sizeof(on), &on, NULL),
                CL_SUCCESS);
   CHECK(on == q);
   cl_command_buffer_state_khr state = 9;
   CHECK_EQ_INT(info(one_q, CL_COMMAND_BUFFER_STATE_KHR, sizeof(state), &state, NULL), CL_SUCCESS);
   CHECK_EQ_INT(state, CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR);
   poison_c();
   CHECK_EQ_INT(enqueue(0, NULL, one_q, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(wrong_in(q, c, 9, 9, N), 0);
   cl_command_queue swapped[2] = { qs[1], qs[0] };
   cl_command_buffer_khr sw = remap(cb, CL_FALSE, 2, swapped, 0, NULL, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   poison_c();
   CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
   CHECK_EQ_INT(enqueue(0, NULL, sw, 0, NULL, &ev), CL_SUCCESS);
   CHECK_EQ_INT(clWaitForEvents(1, &ev), CL_SUCCESS);
   clReleaseEvent(ev);
   CHECK_EQ_INT(wrong_in(q, c, 9, 9, N), 0);
   CHECK(remap(cb, CL_FALSE, 1, &q, 0, NULL, NULL, &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_VALUE);
   CHECK(remap(cb, CL_TRUE, 0, NULL, 0, NULL, NULL, &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_VALUE);
   CHECK(remap(cb, CL_TRUE, 1, &q, 1, &mh2, &mh, &err) == NULL); /* mh2 is one_q's */
   CHECK_EQ_INT(err, CL_INVALID_VALUE);
   CHECK(remap(NULL, CL_TRUE, 1, &q, 0, NULL, NULL, &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_COMMAND_BUFFER_KHR);
   CHECK_EQ_INT(release(sw), CL_SUCCESS);
   CHECK_EQ_INT(release(one_q), CL_SUCCESS);
   CHECK_EQ_INT(release(cb), CL_SUCCESS);
   clReleaseCommandQueue(qs[1]);
}

/* CL_COMMAND_BUFFER_CAPABILITY_DEVICE_SIDE_ENQUEUE_KHR: a kernel whose N / 2 work-items each
 * enqueue a two-item child on the default device queue, recorded and replayed twice; each
 * replay's event completes when every child did (c is read through the other queue, which
 * does not wait for q). */
static void
test_device_enqueue(void)
{
   static const char *src =
      "kernel void spawn(global int *out, int v) {\n"
      "  int i = (int)get_global_id(0);\n"
      "  int r = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(2),\n"
      "    ^{ out[2 * i + (int)get_global_id(0)] = v + 2 * i + (int)get_global_id(0); });\n"
      "  if (r) out[2 * i] = r;\n"
      "}\n";
   cl_device_command_buffer_capabilities_khr caps = 0;
   CHECK_EQ_INT(clGetDeviceInfo(devices[0], CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR,
                                sizeof(caps), &caps, NULL),
                CL_SUCCESS);
   CHECK(caps & CL_COMMAND_BUFFER_CAPABILITY_DEVICE_SIDE_ENQUEUE_KHR);
   cl_int err;
   const cl_queue_properties dq_props[] = { CL_QUEUE_PROPERTIES,
                                            CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE |
                                               CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT,
                                            0 };
   cl_command_queue dq = clCreateCommandQueueWithProperties(ctx, devices[0], dq_props, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
   CHECK_EQ_INT(clBuildProgram(p, 1, &devices[0], "-cl-std=CL3.0", NULL, NULL), CL_SUCCESS);
   cl_kernel spawn = clCreateKernel(p, "spawn", &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   const int v = 1000, later = 5;
   CHECK_EQ_INT(clSetKernelArg(spawn, 0, sizeof(c), &c), CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArg(spawn, 1, sizeof(v), &v), CL_SUCCESS);
   cl_command_buffer_khr cb = create(1, &q, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   size_t g = N / 2;
   CHECK_EQ_INT(ndrange(cb, NULL, NULL, spawn, 1, NULL, &g, NULL, 0, NULL, NULL, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(finalize(cb), CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArg(spawn, 1, sizeof(later), &later), CL_SUCCESS);
   for (int round = 0; round < 2; round++) {
      poison_c();
      CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
      cl_event ev;
      CHECK_EQ_INT(enqueue(0, NULL, cb, 0, NULL, &ev), CL_SUCCESS);
      CHECK_EQ_INT(clWaitForEvents(1, &ev), CL_SUCCESS);
      clReleaseEvent(ev);
      int h[N], bad = 0;
      CHECK_EQ_INT(clEnqueueReadBuffer(ooo, c, CL_TRUE, 0, sizeof(h), h, 0, NULL, NULL),
                   CL_SUCCESS);
      for (int i = 0; i < N; i++)
         bad += h[i] != v + i;
      CHECK_EQ_INT(bad, 0);
   }
   CHECK_EQ_INT(release(cb), CL_SUCCESS);
   clReleaseKernel(spawn);
   clReleaseProgram(p);
   clReleaseCommandQueue(dq);
}

int
main(void)
{
   test_watchdog("api_cmdbuf", 120);
   cl_int err;
   CHECK_EQ_INT(clGetPlatformIDs(1, &platform, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 2, devices, &num_devices), CL_SUCCESS);
   if (test_failed)
      return test_main_end();
   if (num_devices > 2)
      num_devices = 2;
   CHECK(test_device_lists(devices[0], CL_DEVICE_EXTENSIONS, "cl_khr_command_buffer"));
   CHECK(test_device_lists(devices[0], CL_DEVICE_EXTENSIONS,
                           "cl_khr_command_buffer_mutable_dispatch"));
   cl_name_version ext[64];
   size_t size = 0;
   CHECK_EQ_INT(
      clGetDeviceInfo(devices[0], CL_DEVICE_EXTENSIONS_WITH_VERSION, sizeof(ext), ext, &size),
      CL_SUCCESS);
   for (size_t i = 0; i < size / sizeof(ext[0]); i++) {
      if (!strcmp(ext[i].name, "cl_khr_command_buffer"))
         CHECK_EQ_INT(ext[i].version, CL_MAKE_VERSION(0, 9, 8));
      if (!strcmp(ext[i].name, "cl_khr_command_buffer_mutable_dispatch"))
         CHECK_EQ_INT(ext[i].version, CL_MAKE_VERSION(0, 9, 5));
   }
   cl_device_command_buffer_capabilities_khr caps = 0;
   CHECK_EQ_INT(clGetDeviceInfo(devices[0], CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR, sizeof(caps),
                                &caps, NULL),
                CL_SUCCESS);
   CHECK(caps & CL_COMMAND_BUFFER_CAPABILITY_OUT_OF_ORDER_KHR);
   cl_command_queue_properties qp = 0;
   CHECK_EQ_INT(clGetDeviceInfo(devices[0], DEV_SUPPORTED_QUEUE_PROPS, sizeof(qp), &qp, NULL),
                CL_SUCCESS);
   CHECK(qp & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
   cl_mutable_dispatch_fields_khr mcaps = 0;
   CHECK_EQ_INT(clGetDeviceInfo(devices[0], CL_DEVICE_MUTABLE_DISPATCH_CAPABILITIES_KHR,
                                sizeof(mcaps), &mcaps, NULL),
                CL_SUCCESS);
   CHECK(mcaps & CL_MUTABLE_DISPATCH_ARGUMENTS_KHR);
   CHECK(test_device_lists(devices[0], CL_DEVICE_EXTENSIONS, "cl_khr_command_buffer_multi_device"));
   CHECK(caps & CAP_MULTIPLE_QUEUE);
   cl_bitfield pcaps = 0;
   CHECK_EQ_INT(clGetPlatformInfo(platform, PLATFORM_CMDBUF_CAPS, sizeof(pcaps), &pcaps, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT((int)pcaps, PLATFORM_UNIVERSAL_SYNC | PLATFORM_REMAP | PLATFORM_AUTOMATIC_REMAP);
   cl_uint nsync = 0;
   cl_device_id sync[2] = { NULL, NULL };
   CHECK_EQ_INT(clGetDeviceInfo(devices[0], DEV_NUM_SYNC_DEVICES, sizeof(nsync), &nsync, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(nsync, num_devices);
   CHECK_EQ_INT(clGetDeviceInfo(devices[0], DEV_SYNC_DEVICES, sizeof(sync), sync, NULL),
                CL_SUCCESS);
   CHECK(sync[0] == devices[0] && sync[num_devices - 1] == devices[num_devices - 1]);
   load_functions();
   if (test_failed)
      return test_main_end();

   ctx = clCreateContext(NULL, num_devices, devices, NULL, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   q = clCreateCommandQueueWithProperties(ctx, devices[0], NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   const cl_queue_properties ooo_props[] = { CL_QUEUE_PROPERTIES,
                                             CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0 };
   ooo = clCreateCommandQueueWithProperties(ctx, devices[0], ooo_props, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_program prog = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   CHECK_EQ_INT(clBuildProgram(prog, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
   k = clCreateKernel(prog, "scale", &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   a = buffer();
   b = buffer();
   c = buffer();

   test_replay();
   test_images_svm();
   test_mutable();
   test_prebuilt();
   test_errors();
   test_multi_device();
   test_device_enqueue();

   clReleaseMemObject(a);
   clReleaseMemObject(b);
   clReleaseMemObject(c);
   clReleaseKernel(k);
   clReleaseProgram(prog);
   clReleaseCommandQueue(ooo);
   clReleaseCommandQueue(q);
   clReleaseContext(ctx);
   return test_main_end();
}
