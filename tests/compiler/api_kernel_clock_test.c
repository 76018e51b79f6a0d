/*
 * tests/compiler/api_kernel_clock_test.c — cl_khr_kernel_clock end to end: the device reports
 * the extension, its three scope features and CL_DEVICE_KERNEL_CLOCK_CAPABILITIES_KHR, which
 * agree with the feature macros a kernel sees; every clock_read_<scope> (compiler/
 * comp_builtins_clock.cl) is monotonic within a work-item and moves across a loop of work
 * (a non-zero delta), its _hilo form reads the same counter (low word first), and the device
 * clock, one counter for the whole device, never goes back from one kernel to the next.
 * Built as OpenCL C 3.0, 2.0 and 1.2 (no -cl-std: the built-ins need no 2.0 feature), at -O3
 * and -cl-opt-disable.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext.h>

#include <stdbool.h>
#include <stdint.h>

#include "hsacl_test.h"
#include "hsacl_cl_test.h"

#ifndef CL_DEVICE_KERNEL_CLOCK_CAPABILITIES_KHR
#define CL_DEVICE_KERNEL_CLOCK_CAPABILITIES_KHR 0x1076
#define CL_DEVICE_KERNEL_CLOCK_SCOPE_DEVICE_KHR (1 << 0)
#define CL_DEVICE_KERNEL_CLOCK_SCOPE_WORK_GROUP_KHR (1 << 1)
#define CL_DEVICE_KERNEL_CLOCK_SCOPE_SUB_GROUP_KHR (1 << 2)
#endif

static cl_device_id device;
static cl_context ctx;
static cl_command_queue queue;

enum { G = 128, L = 64, READS = 8 };

/* clocks: per work-item, per scope (device, work-group, sub-group): READS plain reads with a
 * loop of `work` iterations between them, then a hilo read, then a plain read. */
static const char *source =
   "kernel void macros(global ulong *o)\n"
   "{\n"
   "   ulong m = 0;\n"
   "#ifdef __opencl_c_kernel_clock_scope_device\n"
   "   m |= 1;\n"
   "#endif\n"
   "#ifdef __opencl_c_kernel_clock_scope_work_group\n"
   "   m |= 2;\n"
   "#endif\n"
   "#ifdef __opencl_c_kernel_clock_scope_sub_group\n"
   "   m |= 4;\n"
   "#endif\n"
   "#ifndef cl_khr_kernel_clock\n"
   "   m |= 0x100;\n"
   "#endif\n"
   "   *o = m;\n"
   "}\n"
   "#define READS 8\n"
   "#define SCOPE(S)                                                                      \\\n"
   "   {                                                                                  \\\n"
   "      global ulong *r = o + (get_global_id(0) * 3 + S##_index) * (READS + 3);         \\\n"
   "      for (int k = 0; k < READS; k++) {                                               \\\n"
   "         r[k] = clock_read_##S();                                                     \\\n"
   "         for (int j = 0; j < work; j++)                                               \\\n"
   "            acc = acc * 1664525u + 1013904223u;                                       \\\n"
   "      }                                                                               \\\n"
   "      uint2 h = clock_read_hilo_##S();                                                \\\n"
   "      r[READS] = h.x;                                                                 \\\n"
   "      r[READS + 1] = h.y;                                                             \\\n"
   "      r[READS + 2] = clock_read_##S();                                                \\\n"
   "   }\n"
   "#define device_index 0\n"
   "#define work_group_index 1\n"
   "#define sub_group_index 2\n"
   "kernel void clocks(global ulong *o, global uint *sink, int work)\n"
   "{\n"
   "   uint acc = get_global_id(0);\n"
   "   SCOPE(device)\n"
   "   SCOPE(work_group)\n"
   "   SCOPE(sub_group)\n"
   "   sink[get_global_id(0)] = acc;\n"
   "}\n";

static const char *const scopes[] = { "device", "work_group", "sub_group" };

static cl_program
build(const char *options)
{
   return test_cl_build(ctx, device, source, NULL, 0, options);
}

static void
test_queries(cl_program p, const char *options)
{
   CHECK(test_device_lists(device, CL_DEVICE_EXTENSIONS, "cl_khr_kernel_clock"));
   cl_bitfield caps = 0;
   size_t size = 0;
   CHECK_EQ_INT(clGetDeviceInfo(device, CL_DEVICE_KERNEL_CLOCK_CAPABILITIES_KHR, sizeof(caps),
                                &caps, &size),
                CL_SUCCESS);
   CHECK_EQ_INT(size, sizeof(caps));
   CHECK_EQ_INT(caps, CL_DEVICE_KERNEL_CLOCK_SCOPE_DEVICE_KHR |
                         CL_DEVICE_KERNEL_CLOCK_SCOPE_WORK_GROUP_KHR |
                         CL_DEVICE_KERNEL_CLOCK_SCOPE_SUB_GROUP_KHR);
   for (int s = 0; s < 3; s++) {
      char name[64];
      snprintf(name, sizeof(name), "__opencl_c_kernel_clock_scope_%s", scopes[s]);
      CHECK(test_device_lists(device, CL_DEVICE_OPENCL_C_FEATURES, name));
   }
   cl_ulong macros = 0;
   cl_int err;
   cl_mem o = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(macros), NULL, &err);
   cl_kernel k = clCreateKernel(p, "macros", &err);
   clSetKernelArg(k, 0, sizeof(cl_mem), &o);
   size_t one = 1;
   CHECK_EQ_INT(clEnqueueNDRangeKernel(queue, k, 1, NULL, &one, &one, 0, NULL, NULL), CL_SUCCESS);
   clEnqueueReadBuffer(queue, o, CL_TRUE, 0, sizeof(macros), &macros, 0, NULL, NULL);
   if (macros != caps)
      fprintf(stderr, "(%s): macros 0x%llx, query 0x%llx\n", options,
              (unsigned long long)macros, (unsigned long long)caps);
   CHECK_EQ_INT(macros, caps);
   clReleaseKernel(k);
   clReleaseMemObject(o);
}

/* Runs `clocks` and checks every work-item's reads; returns the smallest first and largest
 * last device-clock read. */
static void
run_clocks(cl_program p, const char *options, cl_ulong *first, cl_ulong *last)
{
   static cl_ulong r[G * 3 * (READS + 3)];
   cl_int err;
   cl_mem o = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(r), NULL, &err);
   cl_mem sink = clCreateBuffer(ctx, CL_MEM_READ_WRITE, G * sizeof(cl_uint), NULL, &err);
   cl_kernel k = clCreateKernel(p, "clocks", &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_int work = 200;
   clSetKernelArg(k, 0, sizeof(cl_mem), &o);
   clSetKernelArg(k, 1, sizeof(cl_mem), &sink);
   clSetKernelArg(k, 2, sizeof(work), &work);
   size_t g = G, l = L;
   CHECK_EQ_INT(clEnqueueNDRangeKernel(queue, k, 1, NULL, &g, &l, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueReadBuffer(queue, o, CL_TRUE, 0, sizeof(r), r, 0, NULL, NULL),
                CL_SUCCESS);
   unsigned bad = 0;
   *first = UINT64_MAX;
   *last = 0;
   for (int i = 0; i < G; i++)
      for (int s = 0; s < 3; s++) {
         const cl_ulong *v = r + (i * 3 + s) * (READS + 3);
         cl_ulong hilo = v[READS] | v[READS + 1] << 32;
         bool ok = v[0] != 0;
         /* Strictly increasing across the loops of work: a counter that moves. */
         for (int n = 1; n < READS; n++)
            ok &= v[n] > v[n - 1];
         /* The hilo read between the last plain read and the one after it. */
         ok &= hilo >= v[READS - 1] && hilo <= v[READS + 2] && v[READS] <= UINT32_MAX &&
               v[READS + 1] <= UINT32_MAX;
         if (!ok && bad++ < 4) {
            fprintf(stderr, "(%s) item %d clock_read_%s:", options, i, scopes[s]);
            for (int n = 0; n < READS + 3; n++)
               fprintf(stderr, " %llu", (unsigned long long)v[n]);
            fputc('\n', stderr);
         }
         if (s == 0) {
            *first = v[0] < *first ? v[0] : *first;
            *last = v[READS + 2] > *last ? v[READS + 2] : *last;
         }
      }
   CHECK_EQ_INT(bad, 0);
   clReleaseKernel(k);
   clReleaseMemObject(o);
   clReleaseMemObject(sink);
}

int
main(void)
{
   if (!test_cl_open(&device, &ctx, &queue))
      return 1;
   static const char *const options[] = { "-cl-std=CL3.0", "-cl-std=CL2.0", "",
                                          "-cl-std=CL3.0 -cl-opt-disable" };
   for (size_t o = 0; o < sizeof(options) / sizeof(options[0]); o++) {
      cl_program p = build(options[o]);
      CHECK(p != NULL);
      if (!p)
         continue;
      test_queries(p, options[o]);
      /* Two kernels in order: the device clock of the second starts after the first ended. */
      cl_ulong first1, last1, first2, last2;
      run_clocks(p, options[o], &first1, &last1);
      run_clocks(p, options[o], &first2, &last2);
      CHECK(first1 < last1 && first2 < last2);
      if (first2 < last1)
         fprintf(stderr, "(%s): device clock went back: second kernel read %llu, first ended "
                 "at %llu\n", options[o], (unsigned long long)first2, (unsigned long long)last1);
      CHECK(first2 >= last1);
      clReleaseProgram(p);
   }
   clReleaseCommandQueue(queue);
   clReleaseContext(ctx);
   return test_main_end();
}
