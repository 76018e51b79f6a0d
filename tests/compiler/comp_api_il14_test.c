/*
 * tests/compiler/comp_api_il14_test.c — SPIR-V 1.4 programs: the instructions Khronos'
 * translator for LLVM 15 cannot read, which hsacl rewrites before translation
 * (compiler/comp_spirv_lower.c), run and checked against host arithmetic.
 *
 * usage: comp_api_il14_test DIR   (DIR: the build's il/ with spv14_*.spv from spirv-as)
 *
 * spv14_ptrops: OpPtrEqual, OpPtrNotEqual, OpPtrDiff on global (16-byte structures, both
 * signs), local and private pointers, and a 32-bit OpPtrDiff result. spv14_copy: OpCopyLogical
 * (nested structures and arrays), OpCopyMemory with no, one and two memory-operand sets,
 * OpCopyMemorySized with two, and a Function variable with an initializer that must be
 * private to each work-item. spv10_construct: OpCompositeConstruct of instructions (a vector
 * from a scalar, a vector and a scalar; a structure), which the translator reads only for
 * constants. spv14_semantic: UserSemantic strings on a built-in, a variable
 * and a member. spv14_bigcopy: an OpCopyLogical too large to take apart fails the build with
 * a log line saying why.
 */
#include "comp_api_test.h"

#include <stdbool.h>
#include <stdint.h>

static const char *dir;
static cl_command_queue queue;

/* The program of module `name`, built; NULL (counted as a failure) when it does not. */
static cl_program
build_module(const char *name, cl_int want_build)
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
   if (!p)
      return NULL;
   if (build_expect(p, "", want_build) != want_build) {
      clReleaseProgram(p);
      return NULL;
   }
   return p;
}

static cl_mem
buffer(size_t size, const void *init)
{
   cl_int err;
   cl_mem m = clCreateBuffer(context, CL_MEM_READ_WRITE | (init ? CL_MEM_COPY_HOST_PTR : 0),
                             size, (void *)init, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   return m;
}

static bool
run(cl_kernel k, size_t global)
{
   cl_int err = clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL, NULL);
   CHECK_EQ_INT(err, CL_SUCCESS);
   return err == CL_SUCCESS && clFinish(queue) == CL_SUCCESS;
}

/* ---- pointer comparisons and differences ---------------------------------------------- */

static void
test_ptrops(void)
{
   cl_program p = build_module("spv14_ptrops.spv", CL_SUCCESS);
   if (!p)
      return;
   cl_int err;
   cl_kernel k = clCreateKernel(p, "ptrops", &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_mem out = buffer(10 * sizeof(cl_ulong), NULL);
   cl_mem s = buffer(64 * 16, NULL);
   /* k = 0 (the same pointer), a few elements up, and a large offset; the structure is 16
    * bytes (uint, then ulong at offset 8). */
   static const cl_ulong ks[] = { 0, 3, 37 };
   for (size_t t = 0; t < sizeof(ks) / sizeof(ks[0]); t++) {
      cl_ulong kk = ks[t];
      CHECK_EQ_INT(clSetKernelArg(k, 0, sizeof(out), &out), CL_SUCCESS);
      CHECK_EQ_INT(clSetKernelArg(k, 1, sizeof(s), &s), CL_SUCCESS);
      CHECK_EQ_INT(clSetKernelArg(k, 2, sizeof(kk), &kk), CL_SUCCESS);
      if (!run(k, 1))
         continue;
      cl_ulong r[10];
      CHECK_EQ_INT(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof(r), r, 0, NULL, NULL),
                   CL_SUCCESS);
      CHECK_EQ_INT(r[0], 1);            /* p == p */
      CHECK_EQ_INT(r[1], kk == 0);      /* p == p + k */
      CHECK_EQ_INT(r[2], kk != 0);      /* p != p + k */
      CHECK_EQ_INT(r[3], kk);           /* (p + k) - p */
      CHECK_EQ_INT((cl_long)r[4], -(cl_long)kk); /* p - (p + k) */
      CHECK_EQ_INT(r[5], 4);            /* &wg[5] - &wg[1] */
      CHECK_EQ_INT(r[6], 1);            /* &wg[5] == &wg[5] */
      CHECK_EQ_INT(r[7], 3);            /* &fa[3] - &fa[0], 2-byte elements */
      CHECK_EQ_INT(r[8], 1);            /* &fa[1] != &fa[2] */
      CHECK_EQ_INT(r[9], kk);           /* the 32-bit result, zero-extended */
   }
   clReleaseMemObject(out);
   clReleaseMemObject(s);
   clReleaseKernel(k);
   clReleaseProgram(p);
}

/* ---- copies ---------------------------------------------------------------------------- */

#define COPY_N 256

static void
test_copies(void)
{
   cl_program p = build_module("spv14_copy.spv", CL_SUCCESS);
   if (!p)
      return;
   cl_int err;
   cl_kernel k = clCreateKernel(p, "copies", &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   static cl_uint in[COPY_N], out[8 * COPY_N];
   for (cl_uint i = 0; i < COPY_N; i++)
      in[i] = 0x9e3779b9u * (i + 1);
   cl_mem bin = buffer(sizeof(in), in), bout = buffer(sizeof(out), NULL);
   cl_uint x = 1000;
   cl_float y = 1.25f;
   CHECK_EQ_INT(clSetKernelArg(k, 0, sizeof(bout), &bout), CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArg(k, 1, sizeof(bin), &bin), CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArg(k, 2, sizeof(x), &x), CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArg(k, 3, sizeof(y), &y), CL_SUCCESS);
   if (run(k, COPY_N)) {
      CHECK_EQ_INT(clEnqueueReadBuffer(queue, bout, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL),
                   CL_SUCCESS);
      float y3 = y * 3;
      cl_uint y3bits;
      memcpy(&y3bits, &y3, 4);
      unsigned bad = 0;
      for (cl_uint g = 0; g < COPY_N; g++) {
         const cl_uint *o = &out[8 * g];
         cl_uint want[8] = { 7 + g, in[g], in[g], in[g], x + g, x + g + 2, y3bits, 11 + g };
         for (int j = 0; j < 8; j++)
            if (o[j] != want[j] && bad++ < 8)
               fprintf(stderr, "copies: work-item %u word %d = %u, want %u\n", g, j, o[j],
                       want[j]);
      }
      CHECK_EQ_INT(bad, 0);
   }
   clReleaseMemObject(bin);
   clReleaseMemObject(bout);
   clReleaseKernel(k);
   clReleaseProgram(p);
}

/* ---- OpCompositeConstruct of instructions -------------------------------------------- */

static void
test_construct(void)
{
   cl_program p = build_module("spv10_construct.spv", CL_SUCCESS);
   if (!p)
      return;
   cl_int err;
   cl_kernel k = clCreateKernel(p, "construct", &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   static cl_uint out[4 * COPY_N];
   cl_mem bout = buffer(sizeof(out), NULL);
   cl_uint a = 77;
   cl_uint b[2] = { 5, 1000 };
   CHECK_EQ_INT(clSetKernelArg(k, 0, sizeof(bout), &bout), CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArg(k, 1, sizeof(a), &a), CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArg(k, 2, sizeof(b), b), CL_SUCCESS);
   if (run(k, COPY_N)) {
      CHECK_EQ_INT(clEnqueueReadBuffer(queue, bout, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL),
                   CL_SUCCESS);
      unsigned bad = 0;
      for (cl_uint g = 0; g < COPY_N; g++) {
         cl_uint want[4] = { a + g, b[0] + b[1], a * g, a * g + a + g };
         bad += memcmp(&out[4 * g], want, sizeof(want)) != 0;
      }
      CHECK_EQ_INT(bad, 0);
   }
   clReleaseMemObject(bout);
   clReleaseKernel(k);
   clReleaseProgram(p);
}

/* ---- UserSemantic ---------------------------------------------------------------------- */

static void
test_semantic(void)
{
   cl_program p = build_module("spv14_semantic.spv", CL_SUCCESS);
   if (!p)
      return;
   cl_int err;
   cl_kernel k = clCreateKernel(p, "semantic", &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   static cl_uint in[COPY_N], out[COPY_N];
   for (cl_uint i = 0; i < COPY_N; i++)
      in[i] = i * i + 5;
   cl_mem bin = buffer(sizeof(in), in), bout = buffer(sizeof(out), NULL);
   CHECK_EQ_INT(clSetKernelArg(k, 0, sizeof(bout), &bout), CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArg(k, 1, sizeof(bin), &bin), CL_SUCCESS);
   if (run(k, COPY_N)) {
      CHECK_EQ_INT(clEnqueueReadBuffer(queue, bout, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL),
                   CL_SUCCESS);
      unsigned bad = 0;
      for (cl_uint g = 0; g < COPY_N; g++)
         bad += out[g] != in[g] * 3 + g;
      CHECK_EQ_INT(bad, 0);
   }
   /* A clean module builds with an empty log. */
   char *log = build_log(p);
   CHECK_STR(log, "");
   free(log);
   clReleaseMemObject(bin);
   clReleaseMemObject(bout);
   clReleaseKernel(k);
   clReleaseProgram(p);
}

/* ---- what the rewriting refuses -------------------------------------------------------- */

static void
test_refused(void)
{
   cl_program p = build_module("spv14_bigcopy.spv", CL_BUILD_PROGRAM_FAILURE);
   if (!p)
      return;
   char *log = build_log(p);
   CHECK(strstr(log, "OpCopyLogical: an array of 5000 elements") != NULL);
   free(log);
   cl_build_status st = CL_BUILD_NONE;
   CHECK_EQ_INT(clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_STATUS, sizeof(st), &st, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(st, CL_BUILD_ERROR);
   clReleaseProgram(p);
}

int
main(int argc, char **argv)
{
   if (argc != 2) {
      fprintf(stderr, "usage: comp_api_il14_test MODULE_DIR\n");
      return 2;
   }
   dir = argv[1];
   test_setup();
   cl_int err;
   queue = clCreateCommandQueueWithProperties(context, device, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   if (!queue)
      return test_main_end();
   test_ptrops();
   test_copies();
   test_construct();
   test_semantic();
   test_refused();
   clReleaseCommandQueue(queue);
   clReleaseContext(context);
   return test_main_end();
}
