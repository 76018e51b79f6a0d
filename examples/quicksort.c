/*
 * examples/quicksort.c — a recursive quicksort of 64K integers on the first hsacl device,
 * with device-side enqueue (OpenCL C 2.0): the host launches one work-item on the whole
 * array; each kernel partitions its segment around a median-of-three pivot and enqueues one
 * child kernel per half, until segments are small enough for an insertion sort. The host
 * only waits for its one launch: the command completes when every kernel it started,
 * recursively, has. Checked against the host's qsort of the same data.
 * Exit status: 0 sorted, 1 wrong, 2 no hsacl device, no device-side enqueue, or a CL error.
 */
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS /* example.h's clCreateCommandQueue */
#include "example.h"

#include <stdint.h>

#define N (1u << 16)

static const char *source =
   "#define SMALL 64u\n"
   "/* Sorts a[lo, hi) by insertion. */\n"
   "static void insertion(global int *a, uint lo, uint hi)\n"
   "{\n"
   "   for (uint i = lo + 1; i < hi; i++) {\n"
   "      int v = a[i];\n"
   "      uint j = i;\n"
   "      for (; j > lo && a[j - 1] > v; j--)\n"
   "         a[j] = a[j - 1];\n"
   "      a[j] = v;\n"
   "   }\n"
   "}\n"
   "\n"
   "/* Sorts a[lo, hi) in place in O(n log n), without recursion: where no child kernel\n"
   "   can be enqueued (the device queue is full). */\n"
   "static void sift(global int *a, uint lo, uint root, uint n)\n"
   "{\n"
   "   for (uint c; (c = 2 * root + 1) < n; root = c) {\n"
   "      if (c + 1 < n && a[lo + c] < a[lo + c + 1]) c++;\n"
   "      if (a[lo + root] >= a[lo + c]) return;\n"
   "      int t = a[lo + root]; a[lo + root] = a[lo + c]; a[lo + c] = t;\n"
   "   }\n"
   "}\n"
   "static void heapsort(global int *a, uint lo, uint hi)\n"
   "{\n"
   "   uint n = hi - lo;\n"
   "   for (uint i = n / 2; i-- > 0;) sift(a, lo, i, n);\n"
   "   for (uint end = n; end-- > 1;) {\n"
   "      int t = a[lo]; a[lo] = a[lo + end]; a[lo + end] = t;\n"
   "      sift(a, lo, 0, end);\n"
   "   }\n"
   "}\n"
   "\n"
   "/* Sorts a[lo, hi): partitions it, then each half in a child kernel of its own.\n"
   "   stats[0] counts kernels, stats[1] halves sorted in place because the device queue\n"
   "   was full, stats[2] the deepest level. */\n"
   "void sort(global int *a, uint lo, uint hi, uint depth, global uint *stats)\n"
   "{\n"
   "   atomic_inc(&stats[0]);\n"
   "   atomic_max(&stats[2], depth);\n"
   "   if (hi - lo <= SMALL) {\n"
   "      insertion(a, lo, hi);\n"
   "      return;\n"
   "   }\n"
   "   /* median of three, then Hoare's partition: [lo, j] <= pivot <= [j + 1, hi) */\n"
   "   uint m = lo + (hi - lo) / 2;\n"
   "   int x = a[lo], y = a[m], z = a[hi - 1];\n"
   "   int pivot = max(min(x, y), min(max(x, y), z));\n"
   "   int i = (int)lo - 1, j = (int)hi;\n"
   "   for (;;) {\n"
   "      do i++; while (a[i] < pivot);\n"
   "      do j--; while (a[j] > pivot);\n"
   "      if (i >= j) break;\n"
   "      int t = a[i]; a[i] = a[j]; a[j] = t;\n"
   "   }\n"
   "   uint split = (uint)j + 1;\n"
   "   queue_t q = get_default_queue();\n"
   "   if (enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1),\n"
   "                      ^{ sort(a, lo, split, depth + 1, stats); }) != CLK_SUCCESS) {\n"
   "      atomic_inc(&stats[1]);\n"
   "      heapsort(a, lo, split);\n"
   "   }\n"
   "   if (enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1),\n"
   "                      ^{ sort(a, split, hi, depth + 1, stats); }) != CLK_SUCCESS) {\n"
   "      atomic_inc(&stats[1]);\n"
   "      heapsort(a, split, hi);\n"
   "   }\n"
   "}\n"
   "\n"
   "kernel void quicksort(global int *a, uint n, global uint *stats)\n"
   "{\n"
   "   sort(a, 0, n, 0, stats);\n"
   "}\n";

static int
cmp_int(const void *a, const void *b)
{
   int x = *(const int *)a, y = *(const int *)b;
   return (x > y) - (x < y);
}

int
main(void)
{
   example_name = "quicksort";
   cl_context ctx;
   cl_command_queue queue;
   cl_device_id dev = example_open(&ctx, &queue);
   cl_device_device_enqueue_capabilities caps = 0;
   clGetDeviceInfo(dev, CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, sizeof(caps), &caps, NULL);
   if (!(caps & CL_DEVICE_QUEUE_SUPPORTED)) {
      fprintf(stderr, "quicksort: the device has no device-side enqueue\n");
      return EXAMPLE_ERROR;
   }
   cl_int err;
   /* The default device queue the kernels enqueue to: 8 MiB, 8192 commands in flight (a
    * command's record lives until its children are done). */
   cl_queue_properties props[] = { CL_QUEUE_PROPERTIES,
                                   CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_ON_DEVICE |
                                      CL_QUEUE_ON_DEVICE_DEFAULT,
                                   CL_QUEUE_SIZE, 8u << 20, 0 };
   cl_command_queue device_queue = clCreateCommandQueueWithProperties(ctx, dev, props, &err);
   CL_TRY(err);
   cl_program prog = example_build(ctx, dev, source, "-cl-std=CL2.0");
   cl_kernel k = clCreateKernel(prog, "quicksort", &err);
   CL_TRY(err);

   int *data = malloc(N * sizeof(int)), *want = malloc(N * sizeof(int));
   if (!data || !want)
      return EXAMPLE_ERROR;
   uint32_t seed = 12345;
   for (unsigned i = 0; i < N; i++) {
      seed = seed * 1664525u + 1013904223u;
      data[i] = (int)(seed >> 8) % 100000 - 50000; /* with repeats */
      want[i] = data[i];
   }
   qsort(want, N, sizeof(int), cmp_int);

   cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, N * sizeof(int),
                             data, &err);
   CL_TRY(err);
   cl_uint stats[3] = { 0, 0, 0 };
   cl_mem s = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(stats),
                             stats, &err);
   CL_TRY(err);
   cl_uint n = N;
   CL_TRY(clSetKernelArg(k, 0, sizeof(a), &a));
   CL_TRY(clSetKernelArg(k, 1, sizeof(n), &n));
   CL_TRY(clSetKernelArg(k, 2, sizeof(s), &s));
   size_t one = 1;
   cl_event done;
   CL_TRY(clEnqueueNDRangeKernel(queue, k, 1, NULL, &one, &one, 0, NULL, &done));
   CL_TRY(clWaitForEvents(1, &done));
   CL_TRY(clEnqueueReadBuffer(queue, a, CL_TRUE, 0, N * sizeof(int), data, 0, NULL, NULL));
   CL_TRY(clEnqueueReadBuffer(queue, s, CL_TRUE, 0, sizeof(stats), stats, 0, NULL, NULL));

   unsigned wrong = 0;
   for (unsigned i = 0; i < N; i++)
      wrong += data[i] != want[i];
   printf("quicksort: %u integers sorted by %u kernels (%u levels deep, %u halves sorted in "
          "place for want of queue room): %s\n",
          N, stats[0], stats[2] + 1, stats[1], wrong ? "WRONG" : "ok");
   if (wrong)
      fprintf(stderr, "quicksort: %u elements out of place\n", wrong);

   clReleaseEvent(done);
   clReleaseMemObject(a);
   clReleaseMemObject(s);
   clReleaseKernel(k);
   clReleaseProgram(prog);
   clReleaseCommandQueue(device_queue);
   clReleaseCommandQueue(queue);
   clReleaseContext(ctx);
   free(data);
   free(want);
   return wrong || stats[0] < 2 ? EXAMPLE_WRONG : EXAMPLE_OK;
}
