/*
 * comp_api_kernel_call_test — a kernel called like a function from another kernel (OpenCL C
 * 3.0 §6.9), in one source and across clCompileProgram/clLinkProgram with an `extern kernel`
 * declared in an embedded header, run on the device at every optimisation level; the
 * called kernel keeps its own signature and stays launchable. And the build failures that
 * must not end the process:
 *   comp_api_kernel_call_test            kernels calling kernels
 *   comp_api_kernel_call_test --fatal    an LLVM fatal error in codegen ("Cannot select")
 *                                        is CL_BUILD_PROGRAM_FAILURE with the message in
 *                                        the log, and the process builds and runs on
 *   comp_api_kernel_call_test --crash    with HSACL_CRASH_RECOVERY=1: a crash inside LLVM's
 *                                        codegen is CL_BUILD_PROGRAM_FAILURE as well
 * A build abandoned by a fatal error or a crash leaks what LLVM had allocated in it (see
 * comp_llvm.cpp), so the last two run without leak detection.
 */
#include "comp_api_test.h"

#include <stdbool.h>

#define N 64

static cl_command_queue queue;

/* scale: p[i] = p[i] * f + 1; twice: scale(p, 2) twice, then scale(p, 1) through a kernel
 * that is itself called. */
static const char *src_single =
   "kernel void scale(global int *p, int f)\n"
   "{ size_t i = get_global_id(0); p[i] = p[i] * f + 1; }\n"
   "kernel void scale_one(global int *p) { scale(p, 1); }\n"
   "kernel __attribute__((reqd_work_group_size(16, 1, 1)))\n"
   "void twice(global int *p) { scale(p, 2); scale(p, 2); scale_one(p); }\n";

/* The CTS's simple_embedded_header shape: the called kernel is only declared here. */
static const char *src_header = "extern kernel void copy_k(global int *src, global int *dst);\n";
static const char *src_outer = "#include \"kernels.h\"\n"
                               "kernel void outer(global int *src, global int *dst)\n"
                               "{ copy_k(src, dst); dst[get_global_id(0)] += 5; }\n";
static const char *src_copy = "kernel void copy_k(global int *src, global int *dst)\n"
                              "{ size_t i = get_global_id(0); dst[i] = src[i] * 3; }\n";

/* An intrinsic gfx906 cannot select (GFX11+ only), declared through an asm label: LLVM 19
 * ends with report_fatal_error("Cannot select: intrinsic ...") in instruction selection. */
static const char *src_fatal =
   "int wait_export(void) __asm(\"llvm.amdgcn.s.wait.event.export.ready\");\n"
   "kernel void k(global int *p) { p[0] = wait_export(); }\n";
/* A variable-sleep intrinsic (GFX12 only): LLVM 19's gfx906 codegen dereferences NULL. */
static const char *src_crash = "void sleep_var(int) __asm(\"llvm.amdgcn.s.sleep.var\");\n"
                               "kernel void k(global int *p, int n) { sleep_var(n); p[0] = 1; }\n";

/* Runs `name` over N items (local size 16) with `args` buffers and the optional int. */
static void
run(cl_program p, const char *name, cl_mem a, cl_mem b, const int *scalar)
{
   cl_int err;
   cl_kernel k = clCreateKernel(p, name, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   if (!k)
      return;
   cl_uint argi = 0;
   CHECK_EQ_INT(clSetKernelArg(k, argi++, sizeof(a), &a), CL_SUCCESS);
   if (b)
      CHECK_EQ_INT(clSetKernelArg(k, argi++, sizeof(b), &b), CL_SUCCESS);
   if (scalar)
      CHECK_EQ_INT(clSetKernelArg(k, argi++, sizeof(*scalar), scalar), CL_SUCCESS);
   size_t global = N, local = 16;
   CHECK_EQ_INT(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(clFinish(queue), CL_SUCCESS);
   clReleaseKernel(k);
}

static cl_mem
buffer_with(const int *init)
{
   cl_int err;
   cl_mem m = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                             N * sizeof(cl_int), (void *)init, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   return m;
}

static int
mismatches(cl_mem m, int (*want)(int))
{
   cl_int out[N];
   CHECK_EQ_INT(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL),
                CL_SUCCESS);
   int bad = 0;
   for (int i = 0; i < N; i++)
      if (out[i] != want(i)) {
         if (!bad)
            fprintf(stderr, "  [%d] = %d, expected %d\n", i, out[i], want(i));
         bad++;
      }
   return bad;
}

static int
want_twice(int i)
{
   return ((i * 2 + 1) * 2 + 1) * 1 + 1;
}

static int
want_scale3(int i)
{
   return i * 3 + 1;
}

static int
want_outer(int i)
{
   return i * 3 + 5;
}

/* The kernels of `p` are exactly `want` (';'-separated, in any order): no body function
 * shows up as a kernel. */
static void
check_kernel_names(cl_program p, const char *const *want, size_t n)
{
   char names[256] = "";
   CHECK_EQ_INT(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof(names), names, NULL),
                CL_SUCCESS);
   size_t num = 0;
   CHECK_EQ_INT(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof(num), &num, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(num, n);
   for (size_t i = 0; i < n; i++)
      CHECK(strstr(names, want[i]) != NULL);
   CHECK(strstr(names, "__clang_ocl_kern_imp_") == NULL);
}

static void
test_single_source(const char *options)
{
   printf("one source, options \"%s\"\n", options);
   cl_program p = program_from_source(src_single);
   if (build_expect(p, options, CL_SUCCESS) != CL_SUCCESS) {
      clReleaseProgram(p);
      return;
   }
   static const char *const names[] = { "scale", "scale_one", "twice" };
   check_kernel_names(p, names, 3);

   int init[N];
   for (int i = 0; i < N; i++)
      init[i] = i;
   cl_mem m = buffer_with(init);
   run(p, "twice", m, NULL, NULL);
   CHECK_EQ_INT(mismatches(m, want_twice), 0);
   clReleaseMemObject(m);

   /* The called kernel is still a kernel with its own signature. */
   m = buffer_with(init);
   int f = 3;
   run(p, "scale", m, NULL, &f);
   CHECK_EQ_INT(mismatches(m, want_scale3), 0);
   clReleaseMemObject(m);

   cl_int err;
   cl_kernel k = clCreateKernel(p, "scale", &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_uint nargs = 0;
   CHECK_EQ_INT(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof(nargs), &nargs, NULL), CL_SUCCESS);
   CHECK_EQ_INT(nargs, 2);
   if (strstr(options, "-cl-kernel-arg-info")) {
      char name[32] = "";
      CHECK_EQ_INT(clGetKernelArgInfo(k, 1, CL_KERNEL_ARG_NAME, sizeof(name), name, NULL),
                   CL_SUCCESS);
      CHECK_STR(name, "f");
   }
   clReleaseKernel(k);
   /* The caller's reqd_work_group_size is its own, not the callee's. */
   k = clCreateKernel(p, "twice", &err);
   size_t reqd[3] = { 0 };
   CHECK_EQ_INT(clGetKernelWorkGroupInfo(k, device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                                         sizeof(reqd), reqd, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(reqd[0], 16);
   clReleaseKernel(k);
   clReleaseProgram(p);
}

static cl_program
compile(const char *src, const char *options, bool with_header)
{
   cl_program p = program_from_source(src);
   cl_program hdr = with_header ? program_from_source(src_header) : NULL;
   const char *names[] = { "kernels.h" };
   cl_int err = clCompileProgram(p, 1, &device, options, with_header ? 1 : 0,
                                 with_header ? &hdr : NULL, with_header ? names : NULL, NULL,
                                 NULL);
   if (err != CL_SUCCESS) {
      char *log = build_log(p);
      fprintf(stderr, "clCompileProgram: %d; log:\n%s\n", err, log);
      free(log);
   }
   CHECK_EQ_INT(err, CL_SUCCESS);
   if (hdr)
      clReleaseProgram(hdr);
   return p;
}

static void
test_compile_link(const char *options)
{
   printf("compile + link, options \"%s\"\n", options);
   cl_program outer = compile(src_outer, options, true);
   cl_program copy = compile(src_copy, options, false);
   cl_program in[2] = { outer, copy };
   cl_int err;
   cl_program p = clLinkProgram(context, 1, &device, NULL, 2, in, NULL, NULL, &err);
   if (err != CL_SUCCESS && p) {
      char *log = build_log(p);
      fprintf(stderr, "clLinkProgram: %d; log:\n%s\n", err, log);
      free(log);
   }
   CHECK_EQ_INT(err, CL_SUCCESS);
   if (err == CL_SUCCESS) {
      static const char *const names[] = { "outer", "copy_k" };
      check_kernel_names(p, names, 2);
      int init[N];
      for (int i = 0; i < N; i++)
         init[i] = i;
      cl_mem src = buffer_with(init), dst = buffer_with(init);
      run(p, "outer", src, dst, NULL);
      CHECK_EQ_INT(mismatches(dst, want_outer), 0);
      clReleaseMemObject(src);
      clReleaseMemObject(dst);
   }
   if (p)
      clReleaseProgram(p);

   /* Without the object that defines it, the called kernel is a link error naming it. */
   p = clLinkProgram(context, 1, &device, NULL, 1, in, NULL, NULL, &err);
   CHECK_EQ_INT(err, CL_LINK_PROGRAM_FAILURE);
   if (p) {
      char *log = build_log(p);
      CHECK(strstr(log, "copy_k") != NULL);
      free(log);
      clReleaseProgram(p);
   }
   clReleaseProgram(outer);
   clReleaseProgram(copy);
}

/* `src` fails to build with `needle` in the log; then a good program builds and runs. */
static void
test_abandoned_build(const char *src, const char *needle)
{
   for (int round = 0; round < 2; round++) {
      cl_program p = program_from_source(src);
      build_expect(p, NULL, CL_BUILD_PROGRAM_FAILURE);
      char *log = build_log(p);
      if (!strstr(log, needle))
         fprintf(stderr, "log lacks \"%s\":\n%s\n", needle, log);
      CHECK(strstr(log, needle) != NULL);
      free(log);
      cl_build_status st = 0;
      CHECK_EQ_INT(clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_STATUS, sizeof(st), &st,
                                         NULL),
                   CL_SUCCESS);
      CHECK_EQ_INT(st, CL_BUILD_ERROR);
      clReleaseProgram(p);
   }
   test_single_source("");
}

int
main(int argc, char **argv)
{
   test_setup();
   cl_int err;
   queue = clCreateCommandQueue(context, device, 0, &err);
   if (!queue) {
      fprintf(stderr, "clCreateCommandQueue: %d\n", err);
      return 1;
   }
   if (argc > 1 && !strcmp(argv[1], "--fatal")) {
      test_abandoned_build(src_fatal, "Cannot select");
   } else if (argc > 1 && !strcmp(argv[1], "--crash")) {
      test_abandoned_build(src_crash, "crashed");
   } else {
      test_single_source("");
      test_single_source("-cl-opt-disable");
      test_single_source("-g -cl-kernel-arg-info");
      test_compile_link("");
      test_compile_link("-cl-opt-disable");
   }
   clReleaseCommandQueue(queue);
   clReleaseContext(context);
   return test_main_end();
}
