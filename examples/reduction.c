/*
 * examples/reduction.c — the sum of 4M unsigned integers, reduced in two passes on the
 * first hsacl device: each work-group of 256 sums its slice in local memory (a tree of
 * barriers), the second pass reduces the per-group partial sums the same way in one
 * group. 32-bit unsigned arithmetic wraps identically on host and device, so the check
 * against the host's sum is exact.
 * Exit status: 0 right sum, 1 wrong, 2 no hsacl device or a CL error.
 */
#include "example.h"

#include <stdint.h>

#define N (1u << 22)
#define LOCAL 256u
#define PER_ITEM 16u /* elements each work-item adds before the tree */

static const char *source =
   "/* Sums in[0, n) into out[group]: each item first adds a strided run of\n"
   "   elements, then the group reduces its items' sums in local memory. */\n"
   "kernel void reduce_sum(global const uint *in, uint n, global uint *out,\n"
   "                       local uint *scratch)\n"
   "{\n"
   "   size_t lid = get_local_id(0), lsize = get_local_size(0);\n"
   "   size_t stride = get_global_size(0);\n"
   "   uint acc = 0;\n"
   "   for (size_t i = get_global_id(0); i < n; i += stride)\n"
   "      acc += in[i];\n"
   "   scratch[lid] = acc;\n"
   "   barrier(CLK_LOCAL_MEM_FENCE);\n"
   "   for (size_t s = lsize / 2; s > 0; s >>= 1) {\n"
   "      if (lid < s)\n"
   "         scratch[lid] += scratch[lid + s];\n"
   "      barrier(CLK_LOCAL_MEM_FENCE);\n"
   "   }\n"
   "   if (lid == 0)\n"
   "      out[get_group_id(0)] = scratch[0];\n"
   "}\n";

int
main(void)
{
   cl_int err;
   cl_context ctx;
   cl_command_queue q;
   example_name = "reduction";
   cl_device_id dev = example_open(&ctx, &q);
   cl_program prog = example_build(ctx, dev, source, NULL);
   cl_kernel k = clCreateKernel(prog, "reduce_sum", &err);
   CL_TRY(err);

   const size_t groups = N / (LOCAL * PER_ITEM);
   uint32_t *in = malloc(N * sizeof(uint32_t));
   uint32_t want = 0, seed = 12345;
   for (uint32_t i = 0; i < N; i++) {
      seed = seed * 1664525u + 1013904223u; /* deterministic LCG data */
      in[i] = seed >> 8;
      want += in[i];
   }
   cl_mem bin = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                               N * sizeof(uint32_t), in, &err);
   CL_TRY(err);
   cl_mem bpartial = clCreateBuffer(ctx, CL_MEM_READ_WRITE, groups * sizeof(uint32_t), NULL,
                                    &err);
   CL_TRY(err);
   cl_mem bsum = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(uint32_t), NULL, &err);
   CL_TRY(err);

   /* Pass 1: N elements -> one partial sum per group. */
   cl_uint n = N;
   size_t global = groups * LOCAL, local = LOCAL;
   CL_TRY(clSetKernelArg(k, 0, sizeof(cl_mem), &bin));
   CL_TRY(clSetKernelArg(k, 1, sizeof(cl_uint), &n));
   CL_TRY(clSetKernelArg(k, 2, sizeof(cl_mem), &bpartial));
   CL_TRY(clSetKernelArg(k, 3, LOCAL * sizeof(cl_uint), NULL));
   CL_TRY(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL));
   /* Pass 2: the partial sums -> one, in a single group (the queue is in order). */
   n = (cl_uint)groups;
   global = LOCAL;
   CL_TRY(clSetKernelArg(k, 0, sizeof(cl_mem), &bpartial));
   CL_TRY(clSetKernelArg(k, 1, sizeof(cl_uint), &n));
   CL_TRY(clSetKernelArg(k, 2, sizeof(cl_mem), &bsum));
   CL_TRY(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL));

   uint32_t *partial = malloc(groups * sizeof(uint32_t)), got = 0;
   CL_TRY(clEnqueueReadBuffer(q, bpartial, CL_TRUE, 0, groups * sizeof(uint32_t), partial, 0,
                              NULL, NULL));
   CL_TRY(clEnqueueReadBuffer(q, bsum, CL_TRUE, 0, sizeof(uint32_t), &got, 0, NULL, NULL));

   /* Each partial sum must be its group's strided slice: check them too. */
   long bad_partials = 0;
   for (size_t g = 0; g < groups; g++) {
      uint32_t s = 0;
      for (size_t l = 0; l < LOCAL; l++)
         for (size_t i = g * LOCAL + l; i < N; i += groups * LOCAL)
            s += in[i];
      bad_partials += partial[g] != s;
   }
   int ok = got == want && bad_partials == 0;
   printf("reduction: sum of %u uints (mod 2^32) in %zu groups of %u = %u, host says %u\n", N,
          groups, LOCAL, got, want);
   printf("reduction: %s (%ld of %zu partial sums wrong)\n", ok ? "OK" : "FAILED",
          bad_partials, groups);

   clReleaseMemObject(bin);
   clReleaseMemObject(bpartial);
   clReleaseMemObject(bsum);
   clReleaseKernel(k);
   clReleaseProgram(prog);
   clReleaseCommandQueue(q);
   clReleaseContext(ctx);
   free(in);
   free(partial);
   return ok ? EXAMPLE_OK : EXAMPLE_WRONG;
}
