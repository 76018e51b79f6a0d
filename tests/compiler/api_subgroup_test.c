/*
 * tests/compiler/api_subgroup_test.c — cl_khr_subgroups and __opencl_c_subgroups end to end (OpenCL
 * C 3.0 §6.15.19 "Sub-group functions", API §5.9.3 clGetKernelSubGroupInfo): the device
 * queries that go with the extension, the extension function, every kernel sub-group query
 * with its errors, and the sub-group built-ins computed on the device against a host model
 * of gfx9 sub-groups (a sub-group is a wavefront of 64 work-items taken from the
 * work-group's linear local id; the last one of a work-group may be partial).
 *
 * The built-ins run for int, uint, long, ulong, float, double and half: reduce and
 * inclusive/exclusive scan with add, min and max, broadcast, and all/any, in four launches
 * (full waves; a partial last wave; 2D work-groups; a non-uniform last work-group), each
 * built three ways (OpenCL C 3.0 at -O3, -cl-opt-disable, -cl-denorms-are-zero). Inputs are
 * small integers, so every sum is exact whatever order the device adds in.
 *
 * Independent forward progress (the extension requires it): sub-group 0 of a work-group
 * waits for a flag sub-group 1 sets.
 *
 * cl_khr_subgroup_shuffle, _shuffle_relative and _extended_types (hsacl's own built-ins,
 * compiler/comp_builtins_subgroup.cl): shuffles of int and double by index, xor, up and down
 * (checked where the source lane exists), char reduce, short exclusive scan and int4
 * broadcast, with full and partial sub-groups.
 *
 * Argument "1.2" (run with HSACL_OPENCL_VERSION=1.2): the 1.2 profile offers no OpenCL C
 * 2.0, so the device reports none of it and the kernel query says CL_INVALID_OPERATION.
 * Argument "2.0" (HSACL_OPENCL_VERSION=2.0): all of it in OpenCL C 2.0, the 2.1/3.0 device
 * queries refused.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext.h>

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "hsacl_test.h"
#include "hsacl_cl_test.h"

static cl_platform_id platform;
static cl_device_id device;
static cl_context ctx;
static cl_command_queue queue;

enum { NOPS = 10 };
/* The sub-group size: the device's wave size (64 on gfx9, 32 on gfx1030), which the host
 * references follow, so every lane mask of a wave32 is checked as a wave64's is. */
static size_t WAVE = 64;

/* ---- queries ------------------------------------------------------------------------- */

static bool
listed(cl_device_info what, const char *name)
{
   return test_device_lists(device, what, name);
}

/* The 2.0 profile (argument "2.0"): cl_khr_subgroups in OpenCL C 2.0; the sub-group device
 * queries OpenCL 2.1 and 3.0 added are refused there. */
static bool profile20;
static const char *std_option = "-cl-std=CL3.0";

static void
test_device_queries(bool v30)
{
   if (profile20) {
      CHECK(listed(CL_DEVICE_EXTENSIONS, "cl_khr_subgroups"));
      CHECK(listed(CL_DEVICE_EXTENSIONS, "cl_khr_subgroup_shuffle"));
      static const cl_device_info later[] = { CL_DEVICE_EXTENSIONS_WITH_VERSION,
                                              CL_DEVICE_OPENCL_C_FEATURES,
                                              CL_DEVICE_MAX_NUM_SUB_GROUPS,
                                              CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS };
      for (size_t i = 0; i < sizeof(later) / sizeof(later[0]); i++) {
         size_t size = 0;
         CHECK_EQ_INT(clGetDeviceInfo(device, later[i], 0, NULL, &size), CL_INVALID_VALUE);
      }
      CHECK(clGetExtensionFunctionAddressForPlatform(platform, "clGetKernelSubGroupInfoKHR") !=
            NULL);
      return;
   }
   CHECK_EQ_INT(listed(CL_DEVICE_EXTENSIONS, "cl_khr_subgroups"), v30);
   CHECK_EQ_INT(listed(CL_DEVICE_EXTENSIONS_WITH_VERSION, "cl_khr_subgroups"), v30);
   CHECK_EQ_INT(listed(CL_DEVICE_OPENCL_C_FEATURES, "__opencl_c_subgroups"), v30);
   static const char *const exts[] = { "cl_khr_subgroup_shuffle",
                                       "cl_khr_subgroup_shuffle_relative",
                                       "cl_khr_subgroup_extended_types" };
   for (int i = 0; i < 3; i++) {
      CHECK_EQ_INT(listed(CL_DEVICE_EXTENSIONS, exts[i]), v30);
      CHECK_EQ_INT(listed(CL_DEVICE_EXTENSIONS_WITH_VERSION, exts[i]), v30);
   }
   cl_uint max_sg = 99;
   CHECK_EQ_INT(clGetDeviceInfo(device, CL_DEVICE_MAX_NUM_SUB_GROUPS, sizeof(max_sg), &max_sg,
                                NULL),
                CL_SUCCESS);
   size_t sizes[3] = { 0 };
   clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof(sizes), sizes, NULL);
   /* 1024 work-items: 16 waves of 64 (gfx906), 32 of 32 (gfx1030). */
   CHECK_EQ_INT(max_sg, v30 ? sizes[0] / WAVE : 0);
   cl_bool ifp = 99;
   CHECK_EQ_INT(clGetDeviceInfo(device, CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS,
                                sizeof(ifp), &ifp, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(ifp, v30 ? CL_TRUE : CL_FALSE);
   /* In the 1.2 profile the loader (ocl-icd) may answer with its own dispatcher for a
    * function of its table; hsacl's own answer is pinned by icd_unit. */
   void *fn = clGetExtensionFunctionAddressForPlatform(platform, "clGetKernelSubGroupInfoKHR");
   if (v30)
      CHECK(fn != NULL);
}

/* ---- kernel queries ---------------------------------------------------------------- */

static const char query_src[] =
   "kernel void plain(global int *o) { o[get_global_id(0)] = 1; }\n"
   "__attribute__((reqd_work_group_size(1024, 1, 1)))\n"
   "kernel void big(global int *o) { o[get_global_id(0)] = 1; }\n";

typedef cl_int(CL_API_CALL *sg_info_fn)(cl_kernel, cl_device_id, cl_kernel_sub_group_info,
                                        size_t, const void *, size_t, void *, size_t *);

static size_t
sg_query(sg_info_fn fn, cl_kernel k, cl_kernel_sub_group_info what, const size_t *in,
         size_t n_in)
{
   size_t v = 12345, ret = 0;
   cl_int err = fn(k, device, what, n_in * sizeof(size_t), in, sizeof(v), &v, &ret);
   CHECK_EQ_INT(err, CL_SUCCESS);
   CHECK_EQ_INT(ret, sizeof(size_t));
   return v;
}

static void
test_kernel_queries(bool v30)
{
   cl_int err;
   const char *src = query_src;
   cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
   CHECK_EQ_INT(clBuildProgram(p, 1, &device, "", NULL, NULL), CL_SUCCESS);
   cl_kernel plain = clCreateKernel(p, "plain", &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_kernel big = clCreateKernel(p, "big", &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   size_t l1[1] = { 100 }, l2[2] = { 8, 4 }, l3[3] = { 8, 8, 3 }, v = 0;

   sg_info_fn khr = (sg_info_fn)clGetExtensionFunctionAddressForPlatform(
      platform, "clGetKernelSubGroupInfoKHR");
   if (!v30) {
      err = clGetKernelSubGroupInfo(plain, device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                    sizeof(l1), l1, sizeof(v), &v, NULL);
      CHECK_EQ_INT(err, CL_INVALID_OPERATION);
      if (khr)
         CHECK_EQ_INT(khr(plain, device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof(l1),
                          l1, sizeof(v), &v, NULL),
                      CL_INVALID_OPERATION);
      goto out;
   }

   sg_info_fn fns[2] = { clGetKernelSubGroupInfo, khr };
   for (int f = 0; f < 2 && fns[f]; f++) {
      sg_info_fn fn = fns[f];
      CHECK_EQ_INT(sg_query(fn, plain, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, l1, 1), WAVE);
      CHECK_EQ_INT(sg_query(fn, plain, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, l2, 2), 32);
      CHECK_EQ_INT(sg_query(fn, plain, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, l1, 1),
                   (100 + WAVE - 1) / WAVE);
      CHECK_EQ_INT(sg_query(fn, plain, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, l2, 2), 1);
      CHECK_EQ_INT(sg_query(fn, plain, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, l3, 3),
                   192 / WAVE);
      /* Without reqd_work_group_size a kernel takes the device's 1024 work-items (its wide
       * variant, compiler/comp_wide.c): 16 sub-groups (32 in wave32). */
      CHECK_EQ_INT(sg_query(fn, plain, CL_KERNEL_MAX_NUM_SUB_GROUPS, NULL, 0), 1024 / WAVE);
      CHECK_EQ_INT(sg_query(fn, big, CL_KERNEL_MAX_NUM_SUB_GROUPS, NULL, 0), 1024 / WAVE);
      CHECK_EQ_INT(sg_query(fn, plain, CL_KERNEL_COMPILE_NUM_SUB_GROUPS, NULL, 0), 0);

      size_t count = 3, local[3] = { 9, 9, 9 }, ret = 0;
      CHECK_EQ_INT(fn(plain, device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, sizeof(count),
                      &count, sizeof(local), local, &ret),
                   CL_SUCCESS);
      CHECK_EQ_INT(ret, sizeof(local));
      CHECK(local[0] == 3 * WAVE && local[1] == 1 && local[2] == 1);
      count = 1024 / WAVE + 1; /* more work-items than the kernel takes */
      CHECK_EQ_INT(fn(plain, device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, sizeof(count),
                      &count, sizeof(local), local, &ret),
                   CL_SUCCESS);
      CHECK(local[0] == 0 && local[1] == 0 && local[2] == 0);
      count = 5;
      CHECK_EQ_INT(fn(big, device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, sizeof(count),
                      &count, sizeof(size_t), local, &ret),
                   CL_SUCCESS);
      CHECK_EQ_INT(ret, sizeof(size_t));
      CHECK_EQ_INT(local[0], 5 * WAVE);

      /* Errors (§5.9.3). */
      CHECK_EQ_INT(fn(NULL, device, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, NULL, sizeof(v), &v, NULL),
                   CL_INVALID_KERNEL);
      CHECK_EQ_INT(fn(plain, (cl_device_id)plain, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, NULL,
                      sizeof(v), &v, NULL),
                   CL_INVALID_DEVICE);
      CHECK_EQ_INT(fn(plain, device, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, 0, NULL, sizeof(v),
                      &v, NULL),
                   CL_INVALID_VALUE);
      CHECK_EQ_INT(fn(plain, device, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, 4 * sizeof(size_t),
                      l3, sizeof(v), &v, NULL),
                   CL_INVALID_VALUE);
      CHECK_EQ_INT(fn(plain, device, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, NULL, 1, &v, NULL),
                   CL_INVALID_VALUE);
      CHECK_EQ_INT(fn(plain, device, 0x7777, 0, NULL, sizeof(v), &v, NULL), CL_INVALID_VALUE);
   }
   CHECK(khr != NULL);
out:
   clReleaseKernel(plain);
   clReleaseKernel(big);
   clReleaseProgram(p);
}

/* ---- built-ins ---------------------------------------------------------------------- */

/* Per work-item int slots. */
enum {
   S_SIZE, S_MAX_SIZE, S_NUM, S_ENQ_NUM, S_ID, S_LOCAL_ID, S_ALL, S_ANY, S_ALL_FALSE,
   S_ANY_TRUE, S_COUNT
};

/* Per type: reduce add/min/max, inclusive scan add/min/max, exclusive scan add/min/max,
 * broadcast (NOPS slots per work-item). */
static const char builtin_src[] =
   "#ifndef cl_khr_subgroups\n#error cl_khr_subgroups is not defined\n#endif\n"
   "#if __OPENCL_C_VERSION__ >= 300 && !defined(__opencl_c_subgroups)\n"
   "#error __opencl_c_subgroups is not defined\n#endif\n"
   "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
   "#define OPS(T, xv, out) do { T x = (xv); size_t o = g * 10;                   \\\n"
   "   out[o + 0] = sub_group_reduce_add(x);                                       \\\n"
   "   out[o + 1] = sub_group_reduce_min(x);                                       \\\n"
   "   out[o + 2] = sub_group_reduce_max(x);                                       \\\n"
   "   out[o + 3] = sub_group_scan_inclusive_add(x);                               \\\n"
   "   out[o + 4] = sub_group_scan_inclusive_min(x);                               \\\n"
   "   out[o + 5] = sub_group_scan_inclusive_max(x);                               \\\n"
   "   out[o + 6] = sub_group_scan_exclusive_add(x);                               \\\n"
   "   out[o + 7] = sub_group_scan_exclusive_min(x);                               \\\n"
   "   out[o + 8] = sub_group_scan_exclusive_max(x);                               \\\n"
   "   out[o + 9] = sub_group_broadcast(x, b); } while (0)\n"
   "kernel void sg(global int *ids, global const int *pi, global int *ri,\n"
   "               global uint *ru, global long *rl, global ulong *rul, global float *rf,\n"
   "               global double *rd, global half *rh, uint k) {\n"
   "  size_t g = get_global_linear_id();\n"
   "  uint sid = get_sub_group_id(), lid = get_sub_group_local_id();\n"
   "  uint size = get_sub_group_size();\n"
   "  global int *s = ids + g * 10;\n"
   "  s[0] = size; s[1] = get_max_sub_group_size(); s[2] = get_num_sub_groups();\n"
   "  s[3] = get_enqueued_num_sub_groups(); s[4] = sid; s[5] = lid;\n"
   "  s[6] = sub_group_all(lid != (sid * 13 + k) % 80);\n"
   "  s[7] = sub_group_any(lid == (sid * 13 + k) % 80);\n"
   "  s[8] = sub_group_all(lid != 0);\n"
   "  s[9] = sub_group_any(lid == size - 1);\n"
   "  uint b = (sid * 7 + 3) % size;\n"
   "  int xi = pi[g];\n"
   "  OPS(int, xi, ri);\n"
   "  OPS(uint, (uint)xi * 2654435761u, ru);\n"
   "  OPS(long, (long)xi * 1000000007L, rl);\n"
   "  OPS(ulong, (ulong)(uint)xi << 32 | (uint)g, rul);\n"
   "  OPS(float, (float)xi, rf);\n"
   "  OPS(double, (double)xi * 0.5, rd);\n"
   "  OPS(half, (half)(xi % 9), rh);\n"
   "}\n";

struct launch {
   const char *what;
   cl_uint dims;
   size_t global[2], local[2];
};

/* The host's model of one work-item: its work-group's size, its linear local id. */
struct item {
   size_t wg_items, enq_items, llid;
};

static struct item
item_of(const struct launch *L, size_t gx, size_t gy)
{
   struct item it;
   size_t wx = gx / L->local[0], wy = L->dims > 1 ? gy / L->local[1] : 0;
   size_t lx = gx % L->local[0], ly = L->dims > 1 ? gy % L->local[1] : 0;
   size_t sx = L->global[0] - wx * L->local[0], sy = L->dims > 1 ? L->global[1] - wy * L->local[1] : 1;
   if (sx > L->local[0])
      sx = L->local[0];
   if (L->dims > 1 && sy > L->local[1])
      sy = L->local[1];
   it.wg_items = sx * sy;
   it.enq_items = L->local[0] * (L->dims > 1 ? L->local[1] : 1);
   it.llid = ly * sx + lx;
   return it;
}

/* Reference reduce/scan over the sub-group's members (global linear ids in lane order). */
#define REF(T, ZERO, TMIN, TMAX, in, want, members, n, b)                                   \
   do {                                                                                     \
      T sum = ZERO, mn = TMAX, mx = TMIN;                                                   \
      for (size_t m = 0; m < n; m++) {                                                      \
         T x = in[members[m]];                                                              \
         sum = (T)(sum + x);                                                                \
         mn = x < mn ? x : mn;                                                              \
         mx = x > mx ? x : mx;                                                              \
      }                                                                                     \
      T isum = ZERO, imn = TMAX, imx = TMIN;                                                \
      for (size_t m = 0; m < n; m++) {                                                      \
         T x = in[members[m]];                                                              \
         T *w = want + members[m] * NOPS;                                                   \
         w[0] = sum, w[1] = mn, w[2] = mx;                                                  \
         w[6] = isum, w[7] = imn, w[8] = imx;                                               \
         isum = (T)(isum + x);                                                              \
         imn = x < imn ? x : imn;                                                           \
         imx = x > imx ? x : imx;                                                           \
         w[3] = isum, w[4] = imn, w[5] = imx;                                               \
         w[9] = in[members[b]];                                                             \
      }                                                                                     \
   } while (0)

static int
compare_bytes(const char *what, const struct launch *L, const char *options, const void *got,
              const void *want, size_t n, size_t elem)
{
   int bad = 0;
   for (size_t i = 0; i < n; i++) {
      if (memcmp((const char *)got + i * elem, (const char *)want + i * elem, elem)) {
         if (bad < 4) {
            uint64_t g = 0, w = 0;
            memcpy(&g, (const char *)got + i * elem, elem);
            memcpy(&w, (const char *)want + i * elem, elem);
            fprintf(stderr, "%s [%s] %s: item %zu slot %zu = 0x%llx, expected 0x%llx\n",
                    L->what, options, what, i / NOPS, i % NOPS, (unsigned long long)g,
                    (unsigned long long)w);
         }
         bad++;
      }
   }
   if (bad)
      fprintf(stderr, "%s [%s] %s: %d mismatches\n", L->what, options, what, bad);
   return bad;
}

static void
run_builtins(cl_program p, const char *options, const struct launch *L)
{
   size_t n = L->global[0] * (L->dims > 1 ? L->global[1] : 1);
   cl_int err;
   cl_kernel k = clCreateKernel(p, "sg", &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   int *in = malloc(n * sizeof(int));
   uint32_t seed = 12345;
   for (size_t i = 0; i < n; i++) {
      seed = seed * 1103515245u + 12345u;
      in[i] = (int)((seed >> 16) % 2001) - 1000;
   }
   size_t sizes[8] = { sizeof(int), sizeof(int), sizeof(uint32_t), sizeof(int64_t),
                       sizeof(uint64_t), sizeof(float), sizeof(double), sizeof(uint16_t) };
   cl_mem bufs[9];
   for (int b = 0; b < 9; b++) {
      size_t bytes = b == 1 ? n * sizeof(int) : n * NOPS * sizes[b == 0 ? 0 : b - 1];
      bufs[b] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | (b == 1 ? CL_MEM_COPY_HOST_PTR : 0),
                               bytes, b == 1 ? in : NULL, &err);
      CHECK_EQ_INT(err, CL_SUCCESS);
      CHECK_EQ_INT(clSetKernelArg(k, b, sizeof(cl_mem), &bufs[b]), CL_SUCCESS);
   }
   cl_uint kk = 5;
   CHECK_EQ_INT(clSetKernelArg(k, 9, sizeof(kk), &kk), CL_SUCCESS);
   err = clEnqueueNDRangeKernel(queue, k, L->dims, NULL, L->global, L->local, 0, NULL, NULL);
   CHECK_EQ_INT(err, CL_SUCCESS);

   /* The host model: ids and votes, then each sub-group's members in lane order. */
   int *ids = calloc(n * NOPS, sizeof(int)), *want_ids = calloc(n * NOPS, sizeof(int));
   int *wi = calloc(n * NOPS, 4);
   uint32_t *wu = calloc(n * NOPS, 4), *xu = malloc(n * 4);
   int64_t *wl = calloc(n * NOPS, 8), *xl = malloc(n * 8);
   uint64_t *wul = calloc(n * NOPS, 8), *xul = malloc(n * 8);
   float *wf = calloc(n * NOPS, 4), *xf = malloc(n * 4);
   double *wd = calloc(n * NOPS, 8), *xd = malloc(n * 8);
   _Float16 *wh = calloc(n * NOPS, 2), *xh = malloc(n * 2);
   size_t *members = malloc(n * sizeof(size_t));
   size_t gy_n = L->dims > 1 ? L->global[1] : 1;
   for (size_t i = 0; i < n; i++) {
      xu[i] = (uint32_t)in[i] * 2654435761u;
      xl[i] = (int64_t)in[i] * 1000000007LL;
      xul[i] = (uint64_t)(uint32_t)in[i] << 32 | (uint32_t)i;
      xf[i] = (float)in[i];
      xd[i] = (double)in[i] * 0.5;
      xh[i] = (_Float16)(in[i] % 9);
   }
   /* Group the work-items by (work-group, sub-group). */
   size_t nwg_x = (L->global[0] + L->local[0] - 1) / L->local[0];
   size_t nwg_y = L->dims > 1 ? (gy_n + L->local[1] - 1) / L->local[1] : 1;
   for (size_t wy = 0; wy < nwg_y; wy++) {
      for (size_t wx = 0; wx < nwg_x; wx++) {
         size_t ly_n = L->dims > 1 ? L->local[1] : 1;
         struct item first = item_of(L, wx * L->local[0], wy * ly_n);
         size_t nsg = (first.wg_items + WAVE - 1) / WAVE;
         size_t enq_sg = (first.enq_items + WAVE - 1) / WAVE;
         for (size_t sg = 0; sg < nsg; sg++) {
            size_t cnt = 0;
            for (size_t y = wy * ly_n; y < (wy + 1) * ly_n && y < gy_n; y++) {
               for (size_t x = wx * L->local[0];
                    x < (wx + 1) * L->local[0] && x < L->global[0]; x++) {
                  struct item it = item_of(L, x, y);
                  if (it.llid / WAVE == sg)
                     members[it.llid % WAVE] = y * L->global[0] + x, cnt++;
               }
            }
            unsigned k5 = (unsigned)((sg * 13 + kk) % 80);
            size_t b = (sg * 7 + 3) % cnt;
            for (size_t m = 0; m < cnt; m++) {
               int *s = want_ids + members[m] * NOPS;
               s[S_SIZE] = (int)cnt;
               s[S_MAX_SIZE] = (int)(first.enq_items < WAVE ? first.enq_items : WAVE);
               s[S_NUM] = (int)nsg;
               s[S_ENQ_NUM] = (int)enq_sg;
               s[S_ID] = (int)sg;
               s[S_LOCAL_ID] = (int)m;
               s[S_ALL] = k5 >= cnt;
               s[S_ANY] = k5 < cnt;
               s[S_ALL_FALSE] = 0;
               s[S_ANY_TRUE] = 1;
            }
            REF(int, 0, INT32_MIN, INT32_MAX, in, wi, members, cnt, b);
            REF(uint32_t, 0u, 0u, UINT32_MAX, xu, wu, members, cnt, b);
            REF(int64_t, 0, INT64_MIN, INT64_MAX, xl, wl, members, cnt, b);
            REF(uint64_t, 0u, 0u, UINT64_MAX, xul, wul, members, cnt, b);
            REF(float, 0.0f, -INFINITY, INFINITY, xf, wf, members, cnt, b);
            REF(double, 0.0, -INFINITY, INFINITY, xd, wd, members, cnt, b);
            REF(_Float16, (_Float16)0, (_Float16)-INFINITY, (_Float16)INFINITY, xh, wh, members,
                cnt, b);
         }
      }
   }
   /* all/any results are 0 or non-zero: normalise the device's. */
   CHECK_EQ_INT(clEnqueueReadBuffer(queue, bufs[0], CL_TRUE, 0, n * NOPS * 4, ids, 0, NULL,
                                    NULL),
                CL_SUCCESS);
   for (size_t i = 0; i < n; i++)
      for (int s = S_ALL; s <= S_ANY_TRUE; s++)
         ids[i * NOPS + s] = ids[i * NOPS + s] != 0;
   int bad = compare_bytes("ids", L, options, ids, want_ids, n * NOPS, 4);
   void *got = malloc(n * NOPS * 8);
   const void *wants[7] = { wi, wu, wl, wul, wf, wd, wh };
   const char *names[7] = { "int", "uint", "long", "ulong", "float", "double", "half" };
   for (int t = 0; t < 7; t++) {
      CHECK_EQ_INT(clEnqueueReadBuffer(queue, bufs[2 + t], CL_TRUE, 0, n * NOPS * sizes[t + 1],
                                       got, 0, NULL, NULL),
                   CL_SUCCESS);
      bad += compare_bytes(names[t], L, options, got, wants[t], n * NOPS, sizes[t + 1]);
   }
   CHECK_EQ_INT(bad, 0);
   free(got);
   free(ids), free(want_ids), free(wi), free(wu), free(xu), free(wl), free(xl), free(wul);
   free(xul), free(wf), free(xf), free(wd), free(xd), free(wh), free(xh), free(members);
   free(in);
   for (int b = 0; b < 9; b++)
      clReleaseMemObject(bufs[b]);
   clReleaseKernel(k);
}

static const struct launch launches[] = {
   { "full waves (256 / 256)", 1, { 512, 0 }, { 256, 0 } },
   { "partial last wave (100 / 100)", 1, { 300, 0 }, { 100, 0 } },
   { "2D (12x10 / 24x20)", 2, { 24, 20 }, { 12, 10 } },
   { "non-uniform (200 / 64)", 1, { 200, 0 }, { 64, 0 } },
};

/* Builds src with options; NULL (and the log on stderr) when that fails. */
static cl_program
build(const char *src, const char *options)
{
   cl_int err;
   cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
   err = clBuildProgram(p, 1, &device, options, NULL, NULL);
   CHECK_EQ_INT(err, CL_SUCCESS);
   if (err == CL_SUCCESS)
      return p;
   char log[8192] = "";
   clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, sizeof(log), log, NULL);
   fprintf(stderr, "build [%s]:\n%s\n", options, log);
   clReleaseProgram(p);
   return NULL;
}

static void
test_builtins(const char *options)
{
   cl_program p = build(builtin_src, options);
   if (!p)
      return;
   for (size_t i = 0; i < sizeof(launches) / sizeof(launches[0]); i++)
      run_builtins(p, options, &launches[i]);
   clReleaseProgram(p);
}

/* ---- cl_khr_subgroup_shuffle, _shuffle_relative, _extended_types ------------------- */

static const char ext_src[] =
   "#if !defined(cl_khr_subgroup_shuffle) || !defined(cl_khr_subgroup_shuffle_relative) || \\\n"
   "    !defined(cl_khr_subgroup_extended_types)\n#error extension macros\n#endif\n"
   "kernel void sx(global const int *pi, global int *o, global double *od, global char *oc,\n"
   "               global short *os, global int4 *ov) {\n"
   "  size_t g = get_global_id(0);\n"
   "  uint lid = get_sub_group_local_id(), n = get_sub_group_size();\n"
   "  int x = pi[g];\n"
   "  o[g * 4 + 0] = sub_group_shuffle(x, (lid * 5 + 3) % n);\n"
   "  o[g * 4 + 1] = sub_group_shuffle_xor(x, 5u);\n"
   "  o[g * 4 + 2] = sub_group_shuffle_up(x, 3u);\n"
   "  o[g * 4 + 3] = sub_group_shuffle_down(x, 7u);\n"
   "  od[g] = sub_group_shuffle((double)x * 0.25, n - 1 - lid);\n"
   "  oc[g] = sub_group_reduce_add((char)x);\n"
   "  os[g] = sub_group_scan_exclusive_min((short)(x * 37));\n"
   "  ov[g] = sub_group_broadcast((int4)(x, x + 1, x + 2, x + 3), 2u % n);\n"
   "}\n";

static void
test_extensions(const char *options)
{
   static const struct {
      size_t global, local;
   } shapes[] = { { 256, 256 }, { 300, 100 } };
   cl_int err;
   cl_program p = build(ext_src, options);
   if (!p)
      return;
   cl_kernel k = clCreateKernel(p, "sx", &err);
   for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++) {
      size_t n = shapes[s].global, L = shapes[s].local;
      int *in = malloc(n * 4), *o = malloc(n * 16), (*ov)[4] = malloc(n * 16);
      double *od = malloc(n * 8);
      char *oc = malloc(n);
      short *os = malloc(n * 2);
      for (size_t i = 0; i < n; i++)
         in[i] = (int)((i * 2654435761u) >> 20) - 2000;
      size_t bytes[6] = { n * 4, n * 16, n * 8, n, n * 2, n * 16 };
      cl_mem b[6];
      for (int i = 0; i < 6; i++) {
         b[i] = clCreateBuffer(ctx, i == 0 ? CL_MEM_COPY_HOST_PTR : 0, bytes[i],
                               i == 0 ? in : NULL, &err);
         clSetKernelArg(k, i, sizeof(cl_mem), &b[i]);
      }
      CHECK_EQ_INT(clEnqueueNDRangeKernel(queue, k, 1, NULL, &n, &L, 0, NULL, NULL),
                   CL_SUCCESS);
      void *outs[6] = { NULL, o, od, oc, os, ov };
      for (int i = 1; i < 6; i++)
         clEnqueueReadBuffer(queue, b[i], CL_TRUE, 0, bytes[i], outs[i], 0, NULL, NULL);
      int bad = 0;
      for (size_t g = 0; g < n; g++) {
         size_t wg = g / L, wgsize = n - wg * L < L ? n - wg * L : L, l = g % L;
         size_t base = wg * L + l / WAVE * WAVE, lane = l % WAVE;
         size_t cnt = wgsize - l / WAVE * WAVE < WAVE ? wgsize - l / WAVE * WAVE : WAVE;
         size_t src[4] = { (lane * 5 + 3) % cnt, lane ^ 5, lane - 3, lane + 7 };
         bool valid[4] = { true, (lane ^ 5) < cnt, lane >= 3, lane + 7 < cnt };
         for (int j = 0; j < 4; j++)
            bad += valid[j] && o[g * 4 + j] != in[base + src[j]];
         bad += od[g] != (double)in[base + cnt - 1 - lane] * 0.25;
         signed char sum = 0;
         short mn = 0x7FFF;
         for (size_t m = 0; m < cnt; m++)
            sum = (signed char)(sum + (signed char)in[base + m]);
         for (size_t m = 0; m < lane; m++) {
            short v = (short)(in[base + m] * 37);
            mn = v < mn ? v : mn;
         }
         bad += oc[g] != sum;
         bad += os[g] != mn;
         for (int j = 0; j < 4; j++)
            bad += ov[g][j] != in[base + 2 % cnt] + j;
         if (bad && bad < 3)
            fprintf(stderr, "[%s] %zu/%zu: mismatch at item %zu\n", options, n, L, g);
      }
      CHECK_EQ_INT(bad, 0);
      for (int i = 0; i < 6; i++)
         clReleaseMemObject(b[i]);
      free(in), free(o), free(ov), free(od), free(oc), free(os);
   }
   clReleaseKernel(k);
   clReleaseProgram(p);
}

/* The 1.2 profile: OpenCL C 1.2 has no sub-group built-ins. */
static void
test_builtins_12(void)
{
   cl_int err;
   const char *src = "kernel void k(global int *o) { o[0] = sub_group_reduce_add(1); }\n";
   cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
   CHECK_EQ_INT(clBuildProgram(p, 1, &device, "", NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
   /* API §5.8.6.5: a -cl-std the device does not list fails the build. */
   CHECK_EQ_INT(clBuildProgram(p, 1, &device, "-cl-std=CL2.0", NULL, NULL),
                CL_BUILD_PROGRAM_FAILURE);
   clReleaseProgram(p);
}

/* ---- independent forward progress ---------------------------------------------------- */

static const char progress_src[] =
   "kernel void wait(volatile global atomic_int *flags, global int *out) {\n"
   "  volatile global atomic_int *flag = flags + get_group_id(0);\n"
   "  if (get_sub_group_id() == 0) {\n"
   "    int spins = 0;\n"
   "    while (!atomic_load_explicit(flag, memory_order_acquire, memory_scope_work_group))\n"
   "      spins++;\n"
   "    if (get_sub_group_local_id() == 0) out[get_group_id(0)] = spins + 1;\n"
   "  } else if (get_sub_group_id() == 1 && get_sub_group_local_id() == 0) {\n"
   "    atomic_store_explicit(flag, 1, memory_order_release, memory_scope_work_group);\n"
   "  }\n"
   "}\n";

static void
test_forward_progress(void)
{
   cl_int err;
   const char *src = progress_src;
   cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
   CHECK_EQ_INT(clBuildProgram(p, 1, &device, std_option, NULL, NULL), CL_SUCCESS);
   cl_kernel k = clCreateKernel(p, "wait", &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   int zero[4] = { 0 }, out[4] = { 0 };
   cl_mem flag = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof(zero), zero, &err);
   cl_mem o = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof(out), zero, &err);
   clSetKernelArg(k, 0, sizeof(cl_mem), &flag);
   clSetKernelArg(k, 1, sizeof(cl_mem), &o);
   size_t global = 4 * 128, local = 128;
   CHECK_EQ_INT(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueReadBuffer(queue, o, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL),
                CL_SUCCESS);
   for (int i = 0; i < 4; i++)
      CHECK(out[i] >= 1);
   clReleaseMemObject(flag);
   clReleaseMemObject(o);
   clReleaseKernel(k);
   clReleaseProgram(p);
}

int
main(int argc, char **argv)
{
   bool v30 = argc < 2 || strcmp(argv[1], "1.2"); /* sub-groups: every profile but 1.2 */
   profile20 = argc >= 2 && !strcmp(argv[1], "2.0");
   if (profile20)
      std_option = "-cl-std=CL2.0";
   cl_uint n = 0;
   if (clGetPlatformIDs(1, &platform, &n) != CL_SUCCESS || n == 0 ||
       clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &device, NULL) != CL_SUCCESS) {
      fprintf(stderr, "no hsacl platform or GPU device\n");
      return 1;
   }
   test_watchdog("api_subgroup", 240);
   cl_uint wave = 0;
   if (clGetDeviceInfo(device, CL_DEVICE_WAVEFRONT_WIDTH_AMD, sizeof(wave), &wave, NULL) ==
          CL_SUCCESS &&
       (wave == 32 || wave == 64))
      WAVE = wave;
   cl_int err;
   ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   queue = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);

   test_device_queries(v30);
   test_kernel_queries(v30);
   if (v30) {
      char opts[128];
      test_builtins(std_option);
      snprintf(opts, sizeof(opts), "%s -cl-opt-disable", std_option);
      test_builtins(opts);
      snprintf(opts, sizeof(opts), "%s -cl-denorms-are-zero", std_option);
      test_builtins(opts);
      test_forward_progress();
      test_extensions(std_option);
      snprintf(opts, sizeof(opts), "%s -cl-opt-disable", std_option);
      test_extensions(opts);
   } else {
      test_builtins_12();
   }

   clReleaseCommandQueue(queue);
   clReleaseContext(ctx);
   return test_main_end();
}
