/*
 * tests/dispatch/api_wgfree_test.c — launches in groups of fewer than 64 work-items (one,
 * a few, or a NULL local size over prime sizes) of kernels that cannot tell how their
 * work-items are grouped, which the dispatch runs in groups of a wave
 * (dispatch/disp_kernel.c coarsen_free_groups, compiler/comp_wgfree.cpp): every work-item
 * runs once with its own global id, in 1, 2 and 3 dimensions, with global offsets and with
 * rows that are not a multiple of a wave; and kernels that ask for their local or group ids
 * or sizes still see the groups of one work-item they were enqueued with.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "hsacl_test.h"
#include "hsacl_cl_test.h"

static cl_device_id device;
static cl_context ctx;
static cl_command_queue queue;

static const char *const source_ids =
   "kernel void ids(global uint *o) {\n"
   "   size_t x = get_global_id(0) - get_global_offset(0);\n"
   "   size_t y = get_global_id(1) - get_global_offset(1);\n"
   "   size_t z = get_global_id(2) - get_global_offset(2);\n"
   "   size_t i = (z * get_global_size(1) + y) * get_global_size(0) + x;\n"
   "   o[i] += (uint)(get_global_id(0) | get_global_id(1) << 11 | get_global_id(2) << 22);\n"
   "}\n";
static const char *const source_groups =
   "kernel void groups(global uint *o) {\n"
   "   size_t i = get_global_id(0) - get_global_offset(0);\n"
   "   o[4 * i] = get_local_size(0);\n"
   "   o[4 * i + 1] = get_group_id(0);\n"
   "   o[4 * i + 2] = get_num_groups(0);\n"
   "   o[4 * i + 3] = get_local_id(0) + get_enqueued_local_size(0);\n"
   "}\n";

/* `ids` over global `g` at offset `off` in groups of `l` (NULL: the driver's choice; `dims`
 * dimensions): each element once, holding its work-item's global id. */
static void
check_ids(cl_kernel k, cl_uint dims, const size_t g[3], const size_t off[3], const size_t *l)
{
   size_t n = g[0] * (dims > 1 ? g[1] : 1) * (dims > 2 ? g[2] : 1);
   uint32_t *host = calloc(n, sizeof(*host));
   cl_mem o = test_cl_buffer(ctx, n * sizeof(*host), host);
   CHECK_EQ_INT(clSetKernelArg(k, 0, sizeof(o), &o), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueNDRangeKernel(queue, k, dims, off, g, l, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueReadBuffer(queue, o, CL_TRUE, 0, n * sizeof(*host), host, 0, NULL, NULL),
                CL_SUCCESS);
   size_t bad = 0, first = n;
   for (size_t i = 0; i < n; i++) {
      size_t x = i % g[0], y = dims > 1 ? i / g[0] % g[1] : 0;
      size_t z = dims > 2 ? i / (g[0] * g[1]) : 0;
      uint32_t want = (uint32_t)((x + off[0]) | (y + off[1]) << 11 | (z + off[2]) << 22);
      if (host[i] != want && bad++ == 0)
         first = i;
   }
   if (bad)
      fprintf(stderr, "ids %u-D %zux%zux%zu: %zu wrong, first at %zu (0x%x)\n", dims, g[0],
              dims > 1 ? g[1] : 1, dims > 2 ? g[2] : 1, bad, first, host[first]);
   CHECK(bad == 0);
   clReleaseMemObject(o);
   free(host);
}

/* `groups` over `n` work-items at offset 7 in groups of one: each sees a group of one
 * work-item of its own. */
static void
check_groups(cl_kernel k, size_t n)
{
   const size_t one = 1, off = 7;
   uint32_t *host = calloc(4 * n, sizeof(*host));
   cl_mem o = test_cl_buffer(ctx, 4 * n * sizeof(*host), NULL);
   CHECK_EQ_INT(clSetKernelArg(k, 0, sizeof(o), &o), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueNDRangeKernel(queue, k, 1, &off, &n, &one, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueReadBuffer(queue, o, CL_TRUE, 0, 4 * n * sizeof(*host), host, 0, NULL,
                                    NULL),
                CL_SUCCESS);
   size_t bad = 0;
   for (size_t i = 0; i < n; i++)
      bad += host[4 * i] != 1 || host[4 * i + 1] != i || host[4 * i + 2] != n ||
             host[4 * i + 3] != 1;
   if (bad)
      fprintf(stderr, "groups: %zu work-items saw other groups (first: size %u id %u of %u)\n",
              bad, host[0], host[1], host[2]);
   CHECK(bad == 0);
   clReleaseMemObject(o);
   free(host);
}

int
main(void)
{
   if (!test_cl_open(&device, &ctx, &queue))
      return 1;
   /* The ids kernel as OpenCL C 2.0 (non-uniform groups allowed: rows end in partial
    * groups) and as 1.2 (uniform groups required: the groups divide the global sizes). */
   static char source20[2048];
   snprintf(source20, sizeof(source20), "%s%s", source_ids, source_groups);
   cl_program p = test_cl_build(ctx, device, source20, NULL, 0, "-cl-std=CL2.0");
   cl_program p12 = test_cl_build(ctx, device, source_ids, NULL, 0, "");
   if (!p || !p12)
      return test_main_end();
   cl_int err;
   cl_kernel ids = clCreateKernel(p, "ids", &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_kernel ids12 = clCreateKernel(p12, "ids", &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_kernel groups = clCreateKernel(p, "groups", &err);
   CHECK_EQ_INT(err, CL_SUCCESS);

   /* Groups of one work-item, of a few (3, 4 x 4), and a NULL local size over prime sizes
    * (whose only divisor below 256 is 1). */
   static const size_t one[3] = { 1, 1, 1 }, three[3] = { 3, 1, 1 }, four[3] = { 4, 4, 1 };
   static const struct {
      cl_uint dims;
      size_t g[3], off[3];
      const size_t *l;
   } cases[] = {
      { 1, { 1000, 1, 1 }, { 0, 0, 0 }, one },  { 1, { 64, 1, 1 }, { 3, 0, 0 }, one },
      { 1, { 5, 1, 1 }, { 0, 0, 0 }, one },     { 2, { 100, 7, 1 }, { 1, 2, 0 }, one },
      { 2, { 3, 100, 1 }, { 0, 0, 0 }, one },   { 2, { 256, 256, 1 }, { 0, 0, 0 }, one },
      { 3, { 10, 7, 3 }, { 4, 5, 6 }, one },    { 3, { 1, 1, 70 }, { 0, 0, 0 }, one },
      { 1, { 999, 1, 1 }, { 0, 0, 0 }, three }, { 2, { 100, 36, 1 }, { 2, 0, 0 }, four },
      { 1, { 1021, 1, 1 }, { 0, 0, 0 }, NULL }, { 2, { 509, 3, 1 }, { 1, 1, 0 }, NULL },
      { 3, { 19, 13, 4 }, { 0, 0, 0 }, NULL },  { 2, { 96, 10, 1 }, { 0, 0, 0 }, one },
   };
   for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
      check_ids(ids, cases[i].dims, cases[i].g, cases[i].off, cases[i].l);
      /* 1.2 takes only sizes its groups divide: the enqueued ones, or NULL. */
      bool divides = !cases[i].l;
      if (cases[i].l) {
         divides = true;
         for (cl_uint d = 0; d < cases[i].dims; d++)
            divides &= cases[i].g[d] % cases[i].l[d] == 0;
      }
      if (divides)
         check_ids(ids12, cases[i].dims, cases[i].g, cases[i].off, cases[i].l);
   }
   check_groups(groups, 1000);

   clReleaseKernel(ids);
   clReleaseKernel(ids12);
   clReleaseKernel(groups);
   clReleaseProgram(p);
   clReleaseProgram(p12);
   clReleaseCommandQueue(queue);
   clReleaseContext(ctx);
   return test_main_end();
}
