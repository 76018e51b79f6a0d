/*
 * tests/dispatch/api_fence_test.c — the fence scopes hsacl puts on its AQL packets, run on the
 * software GPU's L2 model (HSACL_SIM_CACHE=check, set here): a kernel's writes to device
 * memory reach memory only at a system-scope release, and lines a kernel read stay in the
 * L2 until a system-scope acquire. Every way the host or the copy engine can look at what
 * kernels wrote (a read after the kernel in order, after clFinish, from another queue
 * through an event or a marker, a map, a buffer copy) must see it; a kernel must see what
 * the host wrote since it last ran. Between dependent kernels of one device there must be
 * no system-scope release at all: counted by the software GPU (HSACL_SIM_CACHE_STATS).
 *
 * argv[1]: "auto" (hsacl's choice) or "system" (HSACL_FENCE_SCOPE=system: every packet
 * at system scope, as before; the counters must see those releases).
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/mman.h>

#include "hsacl_test.h"

#define N 4096

/* sim/sim_isa.h struct sim_cache_stats: the software GPU's counters. */
struct cache_stats {
   uint64_t magic, checking, dispatches, system_releases, agent_releases, system_acquires,
      lines_written, lines_filled;
};

static const char *source =
   "kernel void add(global int *b, int v) { b[get_global_id(0)] += v; }\n";

static cl_context ctx;
static cl_command_queue q1, q2;
static cl_kernel add;
static volatile struct cache_stats *stats;
static bool on_rocr; /* ROCr copies with its own blit kernels: more fences of its own */
static char stats_path[64];

static void
run_add(cl_command_queue q, cl_mem b, int v, cl_uint nw, const cl_event *w, cl_event *ev)
{
   size_t g = N;
   CHECK_EQ_INT(clSetKernelArg(add, 0, sizeof(b), &b), CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArg(add, 1, sizeof(v), &v), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, add, 1, NULL, &g, NULL, nw, w, ev), CL_SUCCESS);
}

static void
fill_host(int *h, int base)
{
   for (int i = 0; i < N; i++)
      h[i] = base + i;
}

/* Counts the elements of `h` that are not base + i. */
static int
wrong(const int *h, int base)
{
   int bad = 0;
   for (int i = 0; i < N; i++)
      bad += h[i] != base + i;
   return bad;
}

static cl_mem
new_buffer(int base)
{
   int h[N];
   cl_int err;
   cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(h), NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   fill_host(h, base);
   CHECK_EQ_INT(clEnqueueWriteBuffer(q1, b, CL_TRUE, 0, sizeof(h), h, 0, NULL, NULL),
                CL_SUCCESS);
   return b;
}

static void
map_stats(void)
{
   int fd = open(stats_path, O_RDONLY);
   CHECK(fd >= 0);
   if (fd < 0)
      return;
   void *m = mmap(NULL, sizeof(struct cache_stats), PROT_READ, MAP_SHARED, fd, 0);
   close(fd);
   CHECK(m != MAP_FAILED);
   if (m == MAP_FAILED)
      return;
   stats = m;
   CHECK(stats->magic == 0x3153544154534c32ull);
   CHECK_EQ_INT(stats->checking, 1);
}

/* Dependent kernels on one queue: no L2 write-back between them (auto), one per kernel
 * (system); then an in-order read sees the last one's writes. */
static void
test_kernel_chain(bool system_scope)
{
   cl_mem b = new_buffer(0);
   CHECK_EQ_INT(clFinish(q1), CL_SUCCESS);
   uint64_t rel = stats->system_releases, disp = stats->dispatches;
   for (int k = 0; k < 8; k++)
      run_add(q1, b, 1, 0, NULL, NULL);
   CHECK_EQ_INT(clFinish(q1), CL_SUCCESS);
   CHECK_EQ_INT(stats->dispatches - disp, 8);
   CHECK_EQ_INT(stats->system_releases - rel, system_scope ? 8 : 0);
   int h[N];
   CHECK_EQ_INT(clEnqueueReadBuffer(q1, b, CL_TRUE, 0, sizeof(h), h, 0, NULL, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(wrong(h, 8), 0);
   /* Kernel, read, kernel, read: each read needs one write-back; a read writes no device
    * memory, so the next kernel acquires at agent scope. */
   rel = stats->system_releases;
   uint64_t acq = stats->system_acquires;
   for (int k = 0; k < 4; k++) {
      run_add(q1, b, 1, 0, NULL, NULL);
      CHECK_EQ_INT(clEnqueueReadBuffer(q1, b, CL_TRUE, 0, sizeof(h), h, 0, NULL, NULL),
                   CL_SUCCESS);
      CHECK_EQ_INT(wrong(h, 9 + k), 0);
   }
   if (!on_rocr) {
      CHECK_EQ_INT(stats->system_releases - rel, 4);
      CHECK_EQ_INT(stats->system_acquires - acq, system_scope ? 4 : 0);
   } else {
      CHECK(stats->system_releases - rel >= 4);
   }
   clReleaseMemObject(b);
}

/* A read enqueued after the host saw the kernel complete (no dependency left to carry the
 * release), non-blocking and blocking. */
static void
test_read_after_finish(void)
{
   cl_mem b = new_buffer(0);
   run_add(q1, b, 5, 0, NULL, NULL);
   CHECK_EQ_INT(clFinish(q1), CL_SUCCESS);
   int h[N];
   memset(h, 0, sizeof(h));
   CHECK_EQ_INT(clEnqueueReadBuffer(q1, b, CL_FALSE, 0, sizeof(h), h, 0, NULL, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(clFinish(q1), CL_SUCCESS);
   CHECK_EQ_INT(wrong(h, 5), 0);
   /* The same from the other queue. */
   run_add(q1, b, 5, 0, NULL, NULL);
   CHECK_EQ_INT(clFinish(q1), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueReadBuffer(q2, b, CL_TRUE, 0, sizeof(h), h, 0, NULL, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(wrong(h, 10), 0);
   clReleaseMemObject(b);
}

/* Another queue's read waits for the kernel through its event, or through a marker. */
static void
test_cross_queue(void)
{
   cl_mem b = new_buffer(0);
   int h[N];
   cl_event k, m;
   run_add(q1, b, 3, 0, NULL, &k);
   CHECK_EQ_INT(clEnqueueReadBuffer(q2, b, CL_TRUE, 0, sizeof(h), h, 1, &k, NULL), CL_SUCCESS);
   CHECK_EQ_INT(wrong(h, 3), 0);
   clReleaseEvent(k);
   run_add(q1, b, 4, 0, NULL, NULL);
   CHECK_EQ_INT(clEnqueueMarkerWithWaitList(q1, 0, NULL, &m), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueReadBuffer(q2, b, CL_TRUE, 0, sizeof(h), h, 1, &m, NULL), CL_SUCCESS);
   CHECK_EQ_INT(wrong(h, 7), 0);
   clReleaseEvent(m);
   /* A kernel on the other queue after this one's: same device, same L2. */
   run_add(q1, b, 1, 0, NULL, &k);
   run_add(q2, b, 1, 1, &k, NULL);
   CHECK_EQ_INT(clEnqueueReadBuffer(q2, b, CL_TRUE, 0, sizeof(h), h, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(wrong(h, 9), 0);
   clReleaseEvent(k);
   clReleaseMemObject(b);
}

/* A map for reading, and a buffer copy (the copy engine reads the source). */
static void
test_map_and_copy(void)
{
   cl_mem b = new_buffer(0), c = new_buffer(100);
   cl_int err;
   run_add(q1, b, 2, 0, NULL, NULL);
   int *p = clEnqueueMapBuffer(q1, b, CL_TRUE, CL_MAP_READ, 0, N * sizeof(int), 0, NULL, NULL,
                               &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   if (p) {
      CHECK_EQ_INT(wrong(p, 2), 0);
      CHECK_EQ_INT(clEnqueueUnmapMemObject(q1, b, p, 0, NULL, NULL), CL_SUCCESS);
   }
   run_add(q1, b, 2, 0, NULL, NULL);
   CHECK_EQ_INT(clEnqueueCopyBuffer(q1, b, c, 0, 0, N * sizeof(int), 0, NULL, NULL),
                CL_SUCCESS);
   int h[N];
   CHECK_EQ_INT(clEnqueueReadBuffer(q1, c, CL_TRUE, 0, sizeof(h), h, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(wrong(h, 4), 0);
   clReleaseMemObject(b);
   clReleaseMemObject(c);
}

/* What the host writes after a kernel read the buffer: the next kernel must see it, not
 * the lines left in the L2 (write, map for writing, fill). */
static void
test_host_writes(void)
{
   cl_mem b = new_buffer(0);
   int h[N];
   cl_int err;
   run_add(q1, b, 1, 0, NULL, NULL); /* reads and writes every line */
   fill_host(h, 50);
   CHECK_EQ_INT(clEnqueueWriteBuffer(q1, b, CL_FALSE, 0, sizeof(h), h, 0, NULL, NULL),
                CL_SUCCESS);
   run_add(q1, b, 1, 0, NULL, NULL);
   CHECK_EQ_INT(clEnqueueReadBuffer(q1, b, CL_TRUE, 0, sizeof(h), h, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(wrong(h, 51), 0);
   int *p = clEnqueueMapBuffer(q1, b, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0,
                               N * sizeof(int), 0, NULL, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   if (p) {
      fill_host(p, 70);
      CHECK_EQ_INT(clEnqueueUnmapMemObject(q1, b, p, 0, NULL, NULL), CL_SUCCESS);
   }
   run_add(q1, b, 1, 0, NULL, NULL);
   CHECK_EQ_INT(clEnqueueReadBuffer(q1, b, CL_TRUE, 0, sizeof(h), h, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(wrong(h, 71), 0);
   /* A fill from another queue, waited for through an event. */
   cl_event f;
   int zero = 0;
   CHECK_EQ_INT(clEnqueueFillBuffer(q2, b, &zero, sizeof(zero), 0, N * sizeof(int), 0, NULL, &f),
                CL_SUCCESS);
   run_add(q1, b, 6, 1, &f, NULL);
   CHECK_EQ_INT(clEnqueueReadBuffer(q1, b, CL_TRUE, 0, sizeof(h), h, 0, NULL, NULL), CL_SUCCESS);
   int bad = 0;
   for (int i = 0; i < N; i++)
      bad += h[i] != 6;
   CHECK_EQ_INT(bad, 0);
   clReleaseEvent(f);
   clReleaseMemObject(b);
}

int
main(int argc, char **argv)
{
   bool system_scope = argc > 1 && strcmp(argv[1], "system") == 0;
   test_watchdog("api_fence", 240);
   setenv("HSACL_SIM_CACHE", "check", 1);
   if (system_scope)
      setenv("HSACL_FENCE_SCOPE", "system", 1);
   snprintf(stats_path, sizeof(stats_path), "/tmp/api_fence_%d", (int)getpid());
   setenv("HSACL_SIM_CACHE_STATS", stats_path, 1);

   cl_platform_id platform;
   cl_device_id device;
   cl_int err;
   CHECK_EQ_INT(clGetPlatformIDs(1, &platform, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &device, NULL), CL_SUCCESS);
   char driver[128] = "";
   clGetDeviceInfo(device, CL_DRIVER_VERSION, sizeof(driver), driver, NULL);
   on_rocr = strstr(driver, "ROCr") != NULL;
   ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   q1 = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   q2 = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_program prog = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
   CHECK_EQ_INT(clBuildProgram(prog, 1, &device, NULL, NULL, NULL), CL_SUCCESS);
   add = clCreateKernel(prog, "add", &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   if (test_failed)
      return test_main_end();

   cl_mem warm = new_buffer(0); /* a first dispatch makes the counters */
   run_add(q1, warm, 1, 0, NULL, NULL);
   CHECK_EQ_INT(clFinish(q1), CL_SUCCESS);
   clReleaseMemObject(warm);
   map_stats();
   unlink(stats_path);
   if (!stats)
      return test_main_end();

   test_kernel_chain(system_scope);
   test_read_after_finish();
   test_cross_queue();
   test_map_and_copy();
   test_host_writes();

   clReleaseKernel(add);
   clReleaseProgram(prog);
   clReleaseCommandQueue(q1);
   clReleaseCommandQueue(q2);
   clReleaseContext(ctx);
   return test_main_end();
}
