/*
 * tests/compiler/comp_api_il_ext_test.c — the SPIR-V extensions of the OpenCL SPIR-V
 * environment that are about linking and debug information, run and checked against host
 * arithmetic.
 *
 * usage: comp_api_il_ext_test DIR   (DIR: the build's il/, with the modules below)
 *
 * cl_khr_spirv_linkonce_odr: linkonce_a and linkonce_b both define `square` with LinkOnceODR
 * linkage, each beside a kernel that calls it; compiled separately (clCompileProgram) and
 * linked (clLinkProgram), both kernels run and the link log is empty. export_b defines it
 * with Export linkage: linked with linkonce_a it is the one definition; export_b with
 * export_c (two strong definitions) must fail to link — the control that shows linkage is
 * what decides.
 * cl_khr_spirv_extended_debug_info: il_debug.spv, clang-15 -g through Khronos' translator,
 * carries OpenCL.DebugInfo.100 instructions (some of which SPIRV-Tools would reject); it
 * builds with an empty log and computes what the source says.
 * cl_khr_expect_assume: expect_assume.spv (OpAssumeTrueKHR, OpExpectKHR) and the same
 * computation in OpenCL C with __builtin_assume/__builtin_expect, whose source requires the
 * extension's macro, in OpenCL C 1.2 and 3.0.
 * null_scalars.spv: OpConstantNull of bool, 8/16/32/64-bit integers, float and double, which
 * the translator cannot read (hsacl rewrites them: comp_spirv_lower.c).
 * shuffle_mixed.spv: OpVectorShuffle of a 2- and a 4-component vector (and of a 4 and a 2),
 * which the translator cannot read either.
 * Block order: block_order.spv has blocks before the blocks that dominate them, which the
 * validator refuses and hsacl reorders (comp_spirv_order.c); it builds and computes what its
 * comment says, while block_order_bad.spv, the same layout and a value used where its
 * definition does not dominate, is still refused (CL_INVALID_VALUE). il_reduce.spv is what
 * clang-15 -O1 and llvm-spirv-15 make of a local-memory reduction (il_reduce.cl): the
 * translator writes a loop's exit block before the latch that dominates it; every group's
 * sum is checked.
 * cl_khr_kernel_clock: kernel_clock.spv reads each OpReadClockKHR scope (Device, Workgroup,
 * Subgroup) as a ulong and as a uint2 before and after a loop; every second read must exceed
 * the first (the module names SPV_KHR_shader_clock, which the translator does not know: hsacl
 * rewrites the reads as the built-ins' calls, comp_spirv_clock.c); kernel_clock_bad.spv reads
 * the QueueFamily clock and is refused (CL_INVALID_VALUE).
 * The device queries name the extensions, SPV_KHR_linkonce_odr, SPV_KHR_expect_assume,
 * SPV_KHR_shader_clock and its capability ShaderClockKHR, and OpenCL.DebugInfo.100.
 */
#include "comp_api_test.h"

#include <stdbool.h>
#include <stdint.h>

#ifndef CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR
#define CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR 0x12B9
#define CL_DEVICE_SPIRV_EXTENSIONS_KHR 0x12BA
#define CL_DEVICE_SPIRV_CAPABILITIES_KHR 0x12BB
#endif
#define SPIRV_CAPABILITY_SHADER_CLOCK_KHR 5055u

#define N 256

static const char *dir;
static cl_command_queue queue;

/* A program from module `name` (not built); NULL, counted as a failure, when it cannot be. */
static cl_program
module(const char *name)
{
   char path[4096];
   snprintf(path, sizeof(path), "%s/%s", dir, name);
   size_t size = 0;
   void *il = test_read_file(path, &size);
   CHECK(il != NULL);
   if (!il)
      return NULL;
   cl_int err = 1;
   cl_program p = clCreateProgramWithIL(context, il, size, &err);
   free(il);
   CHECK_EQ_INT(err, CL_SUCCESS);
   return p;
}

/* Kernel `name` of `p` run over N work-items with out[] as argument 0 (and `a` as argument 1
 * when has_a); true with out[] filled. */
static bool
run(cl_program p, const char *name, bool has_a, cl_int a, cl_uint *out)
{
   cl_int err;
   cl_kernel k = clCreateKernel(p, name, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   if (!k)
      return false;
   cl_mem m = clCreateBuffer(context, CL_MEM_READ_WRITE, N * sizeof(cl_uint), NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   bool ok = false;
   size_t global = N;
   if (m && clSetKernelArg(k, 0, sizeof(m), &m) == CL_SUCCESS &&
       (!has_a || clSetKernelArg(k, 1, sizeof(a), &a) == CL_SUCCESS)) {
      CHECK_EQ_INT(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL, NULL),
                   CL_SUCCESS);
      CHECK_EQ_INT(
         clEnqueueReadBuffer(queue, m, CL_TRUE, 0, N * sizeof(cl_uint), out, 0, NULL, NULL),
         CL_SUCCESS);
      ok = true;
   } else {
      CHECK(!"kernel arguments");
   }
   if (m)
      clReleaseMemObject(m);
   clReleaseKernel(k);
   return ok;
}

/* Kernel `name` of `p` computes square(g) * mult. */
static void
check_square(cl_program p, const char *name, cl_uint mult)
{
   cl_uint out[N];
   if (!run(p, name, false, 0, out))
      return;
   unsigned bad = 0;
   for (cl_uint g = 0; g < N; g++)
      bad += out[g] != g * g * mult;
   if (bad)
      fprintf(stderr, "%s: %u of %d values wrong (out[7] = %u)\n", name, bad, N, out[7]);
   CHECK_EQ_INT(bad, 0);
}

/* clCompileProgram of each module, then clLinkProgram of both: the linked program (NULL when
 * the link fails) and the link's error in *err. */
static cl_program
compile_link(const char *a, const char *b, cl_int *err)
{
   cl_program objs[2] = { module(a), module(b) };
   cl_program linked = NULL;
   *err = CL_INVALID_PROGRAM;
   if (objs[0] && objs[1]) {
      for (int i = 0; i < 2; i++)
         CHECK_EQ_INT(clCompileProgram(objs[i], 1, &device, "", 0, NULL, NULL, NULL, NULL),
                      CL_SUCCESS);
      linked = clLinkProgram(context, 1, &device, "", 2, objs, NULL, NULL, err);
   }
   for (int i = 0; i < 2; i++)
      if (objs[i])
         clReleaseProgram(objs[i]);
   return linked;
}

static void
test_linkonce(void)
{
   cl_int err;
   cl_program p = compile_link("linkonce_a.spv", "linkonce_b.spv", &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   if (p) {
      check_square(p, "linkonce_a", 1);
      check_square(p, "linkonce_b", 2);
      char *log = build_log(p);
      CHECK_STR(log, "");
      free(log);
      clReleaseProgram(p);
   }
   /* A LinkOnceODR definition beside a strong one: one definition, both kernels run. */
   p = compile_link("linkonce_a.spv", "export_b.spv", &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   if (p) {
      check_square(p, "linkonce_a", 1);
      check_square(p, "export_b", 3);
      clReleaseProgram(p);
   }
   /* The control: two strong definitions of one function do not link. */
   p = compile_link("export_b.spv", "export_c.spv", &err);
   CHECK_EQ_INT(err, CL_LINK_PROGRAM_FAILURE);
   if (p) {
      char *log = build_log(p);
      CHECK(strstr(log, "square") != NULL);
      free(log);
      clReleaseProgram(p);
   }
   /* A module built on its own (clBuildProgram) keeps its LinkOnceODR function. */
   p = module("linkonce_b.spv");
   if (p && build_expect(p, "", CL_SUCCESS) == CL_SUCCESS)
      check_square(p, "linkonce_b", 2);
   if (p)
      clReleaseProgram(p);
}

static void
test_debug_info(void)
{
   cl_program p = module("il_debug.spv");
   if (!p)
      return;
   if (build_expect(p, "", CL_SUCCESS) == CL_SUCCESS) {
      char *log = build_log(p);
      CHECK_STR(log, "");
      free(log);
      cl_uint out[N];
      const cl_int a = -7;
      if (run(p, "debug_kernel", true, a, out)) {
         unsigned bad = 0;
         for (cl_int g = 0; g < N; g++)
            bad += (cl_int)out[g] != a * g + 3 + (g ^ 5) * 2;
         CHECK_EQ_INT(bad, 0);
      }
   }
   clReleaseProgram(p);
}

/* Kernel expect_assume of `p` (built) computes min(a * g, 1000) for a = 9. */
static void
check_expect_assume(cl_program p)
{
   cl_uint out[N];
   const cl_int a = 9;
   if (!run(p, "expect_assume", true, a, out))
      return;
   unsigned bad = 0;
   for (cl_int g = 0; g < N; g++)
      bad += (cl_int)out[g] != (a * g > 1000 ? 1000 : a * g);
   CHECK_EQ_INT(bad, 0);
}

static void
test_expect_assume(void)
{
   cl_program p = module("expect_assume.spv");
   if (p && build_expect(p, "", CL_SUCCESS) == CL_SUCCESS)
      check_expect_assume(p);
   if (p)
      clReleaseProgram(p);
   static const char src[] =
      "#ifndef cl_khr_expect_assume\n"
      "#error cl_khr_expect_assume is not defined\n"
      "#endif\n"
      "kernel void expect_assume(global int *out, int a)\n"
      "{\n"
      "   int g = (int)get_global_id(0);\n"
      "   __builtin_assume(a > 0);\n"
      "   int t = __builtin_expect(a * g, 5);\n"
      "   out[g] = __builtin_expect(t > 1000, 0) ? 1000 : t;\n"
      "}\n";
   static const char *const options[] = { "-cl-std=CL1.2", "-cl-std=CL3.0" };
   for (size_t i = 0; i < sizeof(options) / sizeof(options[0]); i++) {
      p = program_from_source(src);
      if (p && build_expect(p, options[i], CL_SUCCESS) == CL_SUCCESS) {
         char *log = build_log(p);
         CHECK_STR(log, "");
         free(log);
         check_expect_assume(p);
      }
      if (p)
         clReleaseProgram(p);
   }
}

static void
test_null_scalars(void)
{
   cl_program p = module("null_scalars.spv");
   if (!p)
      return;
   cl_uint out[N];
   if (build_expect(p, "", CL_SUCCESS) == CL_SUCCESS && run(p, "null_scalars", false, 0, out)) {
      unsigned bad = 0;
      for (cl_uint g = 0; g < N; g++)
         bad += out[g] != g + 2;
      CHECK_EQ_INT(bad, 0);
   }
   clReleaseProgram(p);
}

static void
test_shuffle_mixed(void)
{
   cl_program p = module("shuffle_mixed.spv");
   if (!p)
      return;
   cl_int err;
   cl_kernel k = NULL;
   cl_mem m = NULL;
   if (build_expect(p, "", CL_SUCCESS) != CL_SUCCESS)
      goto out;
   k = clCreateKernel(p, "shuffle_mixed", &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   m = clCreateBuffer(context, CL_MEM_READ_WRITE, N * 4 * sizeof(cl_uint), NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   if (!k || !m)
      goto out;
   CHECK_EQ_INT(clSetKernelArg(k, 0, sizeof(m), &m), CL_SUCCESS);
   size_t global = N;
   CHECK_EQ_INT(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL, NULL),
                CL_SUCCESS);
   static cl_uint out[N * 4];
   CHECK_EQ_INT(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL),
                CL_SUCCESS);
   unsigned bad = 0;
   for (cl_uint g = 0; g < N; g++)
      bad += out[4 * g] != g + 1 || out[4 * g + 1] != 10 || out[4 * g + 2] != g * 3 ||
             out[4 * g + 3] != 4 * g + 10;
   CHECK_EQ_INT(bad, 0);
out:
   if (m)
      clReleaseMemObject(m);
   if (k)
      clReleaseKernel(k);
   clReleaseProgram(p);
}

static void
test_block_order(void)
{
   cl_program p = module("block_order.spv");
   cl_uint out[N];
   if (p && build_expect(p, "", CL_SUCCESS) == CL_SUCCESS && run(p, "block_order", false, 0, out)) {
      unsigned bad = 0;
      for (cl_uint g = 0; g < N; g++) {
         cl_uint v = g % 2 == 0 ? 3 * g : (g & 3) == 1 ? g + 100 : g + 200;
         for (cl_uint i = 0; i < (g & 7); i++)
            v += i;
         bad += out[g] != v;
      }
      if (bad)
         fprintf(stderr, "block_order: %u of %d values wrong (out[5] = %u)\n", bad, N, out[5]);
      CHECK_EQ_INT(bad, 0);
   }
   if (p)
      clReleaseProgram(p);

   char path[4096];
   snprintf(path, sizeof(path), "%s/block_order_bad.spv", dir);
   size_t size = 0;
   void *il = test_read_file(path, &size);
   CHECK(il != NULL);
   cl_int err = CL_SUCCESS;
   p = il ? clCreateProgramWithIL(context, il, size, &err) : NULL;
   CHECK_EQ_INT(err, CL_INVALID_VALUE);
   CHECK(p == NULL);
   if (p)
      clReleaseProgram(p);
   free(il);
}

/* reduce(in, out, local tmp) of il_reduce.cl: out[group] = sum of in[] over the group. */
static void
test_reduce(void)
{
   enum { GROUP = 64, GROUPS = N / GROUP };
   cl_program p = module("il_reduce.spv");
   cl_int err;
   cl_kernel k = NULL;
   cl_mem in = NULL, out = NULL;
   if (!p || build_expect(p, "", CL_SUCCESS) != CL_SUCCESS)
      goto out;
   k = clCreateKernel(p, "reduce", &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_float host[N], sums[GROUPS];
   for (int i = 0; i < N; i++)
      host[i] = (cl_float)(i % 17) - 3.0f; /* small integers: every order sums exactly */
   in = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(host), host,
                       &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   out = clCreateBuffer(context, CL_MEM_WRITE_ONLY, sizeof(sums), NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   if (!k || !in || !out)
      goto out;
   CHECK_EQ_INT(clSetKernelArg(k, 0, sizeof(in), &in), CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArg(k, 1, sizeof(out), &out), CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArg(k, 2, GROUP * sizeof(cl_float), NULL), CL_SUCCESS);
   size_t global = N, local = GROUP;
   CHECK_EQ_INT(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof(sums), sums, 0, NULL, NULL),
                CL_SUCCESS);
   for (int grp = 0; grp < GROUPS; grp++) {
      cl_float want = 0;
      for (int i = 0; i < GROUP; i++)
         want += host[grp * GROUP + i];
      if (sums[grp] != want)
         fprintf(stderr, "reduce: group %d sums to %g, not %g\n", grp, sums[grp], want);
      CHECK(sums[grp] == want);
   }
out:
   if (in)
      clReleaseMemObject(in);
   if (out)
      clReleaseMemObject(out);
   if (k)
      clReleaseKernel(k);
   if (p)
      clReleaseProgram(p);
}

/* kernel_clock(out, n) of kernel_clock.spvasm: six clocks, read twice each. */
static void
test_kernel_clock(void)
{
   static const char *const clocks[6] = { "device", "work_group", "sub_group", "hilo_device",
                                          "hilo_work_group", "hilo_sub_group" };
   cl_program p = module("kernel_clock.spv");
   cl_int err;
   cl_kernel k = NULL;
   cl_mem m = NULL;
   if (!p || build_expect(p, "", CL_SUCCESS) != CL_SUCCESS)
      goto out;
   k = clCreateKernel(p, "kernel_clock", &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_ulong reads[13] = { 0 };
   m = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(reads), reads,
                      &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   if (!k || !m)
      goto out;
   const cl_uint n = 1000;
   CHECK_EQ_INT(clSetKernelArg(k, 0, sizeof(m), &m), CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArg(k, 1, sizeof(n), &n), CL_SUCCESS);
   size_t global = 1;
   CHECK_EQ_INT(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof(reads), reads, 0, NULL, NULL),
                CL_SUCCESS);
   for (int c = 0; c < 6; c++) {
      if (reads[2 * c + 1] <= reads[2 * c])
         fprintf(stderr, "clock_read_%s: %llu, then %llu\n", clocks[c],
                 (unsigned long long)reads[2 * c], (unsigned long long)reads[2 * c + 1]);
      CHECK(reads[2 * c + 1] > reads[2 * c]);
   }
   cl_ulong acc = 1; /* the loop's value: the kernel ran it */
   for (cl_uint i = 0; i < n; i++)
      acc = acc * 3 + i;
   CHECK(reads[12] == acc);
out:
   if (m)
      clReleaseMemObject(m);
   if (k)
      clReleaseKernel(k);
   if (p)
      clReleaseProgram(p);

   char path[4096];
   snprintf(path, sizeof(path), "%s/kernel_clock_bad.spv", dir);
   size_t size = 0;
   void *il = test_read_file(path, &size);
   CHECK(il != NULL);
   err = CL_SUCCESS;
   p = il ? clCreateProgramWithIL(context, il, size, &err) : NULL;
   CHECK_EQ_INT(err, CL_INVALID_VALUE);
   CHECK(p == NULL);
   if (p)
      clReleaseProgram(p);
   free(il);
}

/* `capability` is one of CL_DEVICE_SPIRV_CAPABILITIES_KHR's. */
static bool
listed_capability(cl_uint capability)
{
   size_t size = 0;
   CHECK_EQ_INT(clGetDeviceInfo(device, CL_DEVICE_SPIRV_CAPABILITIES_KHR, 0, NULL, &size),
                CL_SUCCESS);
   cl_uint *list = malloc(size ? size : 1);
   bool found = false;
   if (list &&
       clGetDeviceInfo(device, CL_DEVICE_SPIRV_CAPABILITIES_KHR, size, list, NULL) == CL_SUCCESS)
      for (size_t i = 0; i < size / sizeof(*list); i++)
         found |= list[i] == capability;
   free(list);
   return found;
}

/* `name` is one of the strings of the array query `param`. */
static bool
listed(cl_device_info param, const char *name)
{
   size_t size = 0;
   CHECK_EQ_INT(clGetDeviceInfo(device, param, 0, NULL, &size), CL_SUCCESS);
   const char **list = malloc(size ? size : 1);
   bool found = false;
   if (list && clGetDeviceInfo(device, param, size, list, NULL) == CL_SUCCESS)
      for (size_t i = 0; i < size / sizeof(*list); i++)
         found |= !strcmp(list[i], name);
   free(list);
   return found;
}

static void
test_queries(void)
{
   char ext[8192] = "";
   CHECK_EQ_INT(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, sizeof(ext), ext, NULL),
                CL_SUCCESS);
   CHECK(strstr(ext, "cl_khr_spirv_linkonce_odr ") != NULL);
   CHECK(strstr(ext, "cl_khr_spirv_extended_debug_info ") != NULL);
   CHECK(strstr(ext, "cl_khr_expect_assume ") != NULL);
   CHECK(listed(CL_DEVICE_SPIRV_EXTENSIONS_KHR, "SPV_KHR_expect_assume"));
   CHECK(listed(CL_DEVICE_SPIRV_EXTENSIONS_KHR, "SPV_KHR_linkonce_odr"));
   CHECK(strstr(ext, "cl_khr_kernel_clock ") != NULL);
   CHECK(listed(CL_DEVICE_SPIRV_EXTENSIONS_KHR, "SPV_KHR_shader_clock"));
   CHECK(listed_capability(SPIRV_CAPABILITY_SHADER_CLOCK_KHR));
   CHECK(listed(CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR, "OpenCL.std"));
   CHECK(listed(CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR, "OpenCL.DebugInfo.100"));
}

int
main(int argc, char **argv)
{
   if (argc != 2) {
      fprintf(stderr, "usage: comp_api_il_ext_test MODULE_DIR\n");
      return 2;
   }
   dir = argv[1];
   test_setup();
   cl_int err;
   queue = clCreateCommandQueueWithProperties(context, device, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   if (!queue)
      return test_main_end();
   test_queries();
   test_linkonce();
   test_debug_info();
   test_expect_assume();
   test_null_scalars();
   test_shuffle_mixed();
   test_block_order();
   test_reduce();
   test_kernel_clock();
   clReleaseCommandQueue(queue);
   clReleaseContext(context);
   return test_main_end();
}
