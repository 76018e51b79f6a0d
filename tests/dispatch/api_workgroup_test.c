/*
 * tests/dispatch/api_workgroup_test.c — the hardware's 1024 work-item work-groups end to end:
 * CL_DEVICE_MAX_WORK_GROUP_SIZE / _ITEM_SIZES, the kernel queries (CL_KERNEL_WORK_GROUP_SIZE
 * and its sub-group counterparts), and launches of 512 and 1024 work-items with barriers and
 * local memory, every result checked against the host.
 *
 * Kernels are built for 256 work-items; a larger launch runs the program's wide variant,
 * built once on first need (compiler/comp_wide.c). The test observes that through the log
 * line "building the 1024 work-item variant" (HSACL_LOG=info:compiler, stderr captured) and
 * the entries of its own kernel cache directory (HSACL_CACHE_DIR, emptied first): launches
 * of <= 256 never build it, the first larger launch builds it once, two threads launching
 * at once build it once. `heavy` needs 84 VGPRs as built for 256 work-items, more than a
 * 1024-wide group's 16 waves leave a wave (64): run with the default code the software GPU
 * refuses the dispatch, so its 1024-wide launch passes only through the variant.
 *
 * Also: reqd_work_group_size(1024,1,1) and (32,32,1) (built for exactly that, no variant);
 * 1D/2D/3D shapes of 1024; the errors (> 1024 work-items, a dimension above
 * CL_DEVICE_MAX_WORK_ITEM_SIZES, reqd mismatch); a program from a binary (its kernels keep
 * their code object's bound: CL_KERNEL_WORK_GROUP_SIZE 256 and a 512 launch is
 * CL_INVALID_WORK_GROUP_SIZE); a linked program (rebuilt from its link inputs); an IL
 * program (tests/dispatch/workgroup_il.cl through clang-15 and llvm-spirv-15: argv[2]); printf from
 * a 1024-wide group (the variant's own printf formats; workgroup_il.cl as source: argv[1]);
 * a variant whose build fails (the launch that needed it: CL_OUT_OF_RESOURCES; then the
 * kernel reports 256).
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext.h>

#include <dirent.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "hsacl_test.h"
#include "hsacl_cl_test.h"

static cl_device_id device;
static cl_context ctx;
static cl_command_queue queue;
static const char *cache_dir;

static const char *const source =
   "kernel void reduce(global const uint *in, global uint *out, local uint *tmp)\n"
   "{\n"
   "   uint l = get_local_id(0), n = get_local_size(0);\n"
   "   tmp[l] = in[get_global_id(0)];\n"
   "   barrier(CLK_LOCAL_MEM_FENCE);\n"
   "   for (uint s = n / 2; s > 0; s >>= 1) {\n"
   "      if (l < s)\n"
   "         tmp[l] += tmp[l + s];\n"
   "      barrier(CLK_LOCAL_MEM_FENCE);\n"
   "   }\n"
   "   if (l == 0)\n"
   "      out[get_group_id(0)] = tmp[0];\n"
   "}\n"
   /* Each work-item writes the value its mirror in the group read: every wave depends on
    * the others' stores through the barrier. */
   "kernel void reverse(global const uint *in, global uint *out)\n"
   "{\n"
   "   local uint buf[1024];\n"
   "   uint l = get_local_id(0), n = get_local_size(0);\n"
   "   buf[l] = in[get_global_id(0)];\n"
   "   barrier(CLK_LOCAL_MEM_FENCE);\n"
   "   out[get_global_id(0)] = buf[n - 1 - l];\n"
   "}\n"
   /* A tile of sx x sy (each at most 32) read row by row, written transposed: work-item t
    * of the group writes the element work-item (t / sy, t % sy) read. */
   "kernel void transpose(global const float *in, global float *out, uint w, uint h)\n"
   "{\n"
   "   local float tile[32][33];\n"
   "   uint lx = get_local_id(0), ly = get_local_id(1);\n"
   "   uint sx = get_local_size(0), sy = get_local_size(1);\n"
   "   uint gx = get_group_id(0) * sx, gy = get_group_id(1) * sy;\n"
   "   tile[ly][lx] = in[(gy + ly) * w + gx + lx];\n"
   "   barrier(CLK_LOCAL_MEM_FENCE);\n"
   "   uint t = ly * sx + lx, ox = t % sy, oy = t / sy;\n"
   "   out[(gx + oy) * h + gy + ox] = tile[ox][oy];\n"
   "}\n"
   /* Ids, group ids and sizes as the work-item sees them, and how many work-items of its
    * group reached a barrier (a local counter). */
   "kernel void shape(global uint *out)\n"
   "{\n"
   "   local uint count;\n"
   "   uint lin = get_local_id(0) + get_local_size(0) * (get_local_id(1) +\n"
   "              get_local_size(1) * get_local_id(2));\n"
   "   if (lin == 0)\n"
   "      count = 0;\n"
   "   barrier(CLK_LOCAL_MEM_FENCE);\n"
   "   atomic_inc(&count);\n"
   "   barrier(CLK_LOCAL_MEM_FENCE);\n"
   "   size_t i = get_global_id(0) + get_global_size(0) * (get_global_id(1) +\n"
   "              get_global_size(1) * get_global_id(2));\n"
   "   out[4 * i + 0] = get_local_id(0) | get_local_id(1) << 10 | get_local_id(2) << 20;\n"
   "   out[4 * i + 1] = get_group_id(0) | get_group_id(1) << 10 | get_group_id(2) << 20;\n"
   "   out[4 * i + 2] = get_local_size(0) | get_local_size(1) << 11 |\n"
   "                    get_local_size(2) << 22;\n"
   "   out[4 * i + 3] = count;\n"
   "}\n"
   "kernel void heavy(global const float *in, global float *out)\n"
   "{\n"
   "   size_t g = get_global_id(0);\n"
   "   float v[80];\n"
   "#pragma unroll\n"
   "   for (int i = 0; i < 80; i++)\n"
   "      v[i] = in[(g * 3 + i * 7) & 4095];\n"
   "#pragma unroll\n"
   "   for (int j = 1; j < 6; j++) {\n"
   "#pragma unroll\n"
   "      for (int i = 0; i < 80; i++)\n"
   "         v[i] = v[i] * v[(i + j) % 80] + (float)j;\n"
   "   }\n"
   "   float s = 0.0f;\n"
   "#pragma unroll\n"
   "   for (int i = 0; i < 80; i++)\n"
   "      s += v[i] * (float)(i + 1);\n"
   "   out[g] = s;\n"
   "}\n"
   "kernel __attribute__((reqd_work_group_size(1024, 1, 1)))\n"
   "void reqd1024(global const uint *in, global uint *out)\n"
   "{\n"
   "   local uint buf[1024];\n"
   "   uint l = get_local_id(0);\n"
   "   buf[l] = in[get_global_id(0)];\n"
   "   barrier(CLK_LOCAL_MEM_FENCE);\n"
   "   out[get_global_id(0)] = buf[1023 - l] + get_local_size(0);\n"
   "}\n"
   "kernel __attribute__((reqd_work_group_size(32, 32, 1)))\n"
   "void reqd32x32(global const float *in, global float *out, uint w, uint h)\n"
   "{\n"
   "   local float tile[32][33];\n"
   "   uint lx = get_local_id(0), ly = get_local_id(1);\n"
   "   uint gx = get_group_id(0) * 32, gy = get_group_id(1) * 32;\n"
   "   tile[ly][lx] = in[(gy + ly) * w + gx + lx];\n"
   "   barrier(CLK_LOCAL_MEM_FENCE);\n"
   "   out[(gx + ly) * h + gy + lx] = tile[lx][ly];\n"
   "}\n";

/* ---- helpers -------------------------------------------------------------------------- */

static cl_program
build(const char *src, const char *options)
{
   cl_int err;
   cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   err = clBuildProgram(p, 1, &device, options, NULL, NULL);
   CHECK_EQ_INT(err, CL_SUCCESS);
   if (err != CL_SUCCESS) {
      char log[8192] = "";
      clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, sizeof(log), log, NULL);
      fprintf(stderr, "build failed: %s\n", log);
   }
   return p;
}

static cl_kernel
kernel(cl_program p, const char *name)
{
   cl_int err;
   cl_kernel k = clCreateKernel(p, name, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   return k;
}

static cl_mem
buffer(size_t bytes, const void *init)
{
   cl_int err;
   cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE | (init ? CL_MEM_COPY_HOST_PTR : 0), bytes,
                             (void *)init, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   return m;
}

static size_t
wg_info_size(cl_kernel k, cl_kernel_work_group_info what)
{
   size_t v = 0;
   CHECK_EQ_INT(clGetKernelWorkGroupInfo(k, device, what, sizeof(v), &v, NULL), CL_SUCCESS);
   return v;
}

/* Kernel cache entries ("<key>.hco") in the test's cache directory. */
static int
cache_entries(void)
{
   DIR *d = opendir(cache_dir);
   if (!d)
      return 0;
   int n = 0;
   for (struct dirent *e; (e = readdir(d));) {
      size_t len = strlen(e->d_name);
      n += len > 4 && !strcmp(e->d_name + len - 4, ".hco");
   }
   closedir(d);
   return n;
}

static void
cache_clear(void)
{
   DIR *d = opendir(cache_dir);
   if (!d)
      return;
   for (struct dirent *e; (e = readdir(d));) {
      if (e->d_name[0] == '.')
         continue;
      char path[4096];
      snprintf(path, sizeof(path), "%s/%s", cache_dir, e->d_name);
      unlink(path);
   }
   closedir(d);
}

/* What the process writes to stdout (printf output) while `fn` runs, into buf. */
static void
capture_stdout(void (*fn)(void *), void *arg, char *buf, size_t size)
{
   fflush(stdout);
   FILE *f = tmpfile();
   int saved = dup(STDOUT_FILENO);
   if (f)
      dup2(fileno(f), STDOUT_FILENO);
   fn(arg);
   fflush(stdout);
   dup2(saved, STDOUT_FILENO);
   close(saved);
   buf[0] = 0;
   if (!f)
      return;
   rewind(f);
   size_t n = fread(buf, 1, size - 1, f);
   buf[n] = 0;
   fclose(f);
}

static const char variant_line[] = "building the 1024 work-item variant";

static int
count_lines(const char *log, const char *what)
{
   int n = 0;
   for (const char *p = log; (p = strstr(p, what)); p += strlen(what))
      n++;
   return n;
}

/* Ends a stderr capture begun when `failed` checks had failed and checks that the window
 * built `variants` wide variants; shows the log when a check failed (inside the window its
 * message went to the capture too). */
static void
capture_end(char *log, size_t size, unsigned failed, int variants)
{
   test_stderr_end(log, size);
   CHECK_EQ_INT(count_lines(log, variant_line), variants);
   if (test_failed != failed)
      fputs(log, stderr);
}


/* ---- launches ------------------------------------------------------------------------- */

/* Sums of each group of `n` work-items, on 4 groups. */
static void
run_reduce(cl_kernel k, size_t n)
{
   const size_t groups = 4, total = groups * n;
   uint32_t *in = malloc(total * 4), out[4] = { 0 };
   for (size_t i = 0; i < total; i++)
      in[i] = (uint32_t)(i * 2654435761u >> 20);
   cl_mem bin = buffer(total * 4, in), bout = buffer(sizeof(out), NULL);
   clSetKernelArg(k, 0, sizeof(cl_mem), &bin);
   clSetKernelArg(k, 1, sizeof(cl_mem), &bout);
   clSetKernelArg(k, 2, n * 4, NULL);
   CHECK_EQ_INT(clEnqueueNDRangeKernel(queue, k, 1, NULL, &total, &n, 0, NULL, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueReadBuffer(queue, bout, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL),
                CL_SUCCESS);
   for (size_t g = 0; g < groups; g++) {
      uint32_t want = 0;
      for (size_t i = 0; i < n; i++)
         want += in[g * n + i];
      CHECK_EQ_INT(out[g], want);
   }
   clReleaseMemObject(bin);
   clReleaseMemObject(bout);
   free(in);
}

/* `reverse` (or reqd1024, which adds the group size) over 3 groups of `n`. */
static void
run_reverse(cl_kernel k, size_t n, const size_t *local, uint32_t add)
{
   const size_t total = 3 * n;
   uint32_t *in = malloc(total * 4), *out = calloc(total, 4);
   for (size_t i = 0; i < total; i++)
      in[i] = (uint32_t)(i * 7919u + 13u);
   cl_mem bin = buffer(total * 4, in), bout = buffer(total * 4, NULL);
   clSetKernelArg(k, 0, sizeof(cl_mem), &bin);
   clSetKernelArg(k, 1, sizeof(cl_mem), &bout);
   CHECK_EQ_INT(clEnqueueNDRangeKernel(queue, k, 1, NULL, &total, local, 0, NULL, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueReadBuffer(queue, bout, CL_TRUE, 0, total * 4, out, 0, NULL, NULL),
                CL_SUCCESS);
   unsigned bad = 0;
   for (size_t i = 0; i < total; i++) {
      size_t g = i / n, l = i % n;
      uint32_t want = in[g * n + (n - 1 - l)] + add;
      if (out[i] != want && bad++ < 5)
         fprintf(stderr, "reverse n=%zu: out[%zu] = %u, want %u\n", n, i, out[i], want);
   }
   CHECK_EQ_INT(bad, 0);
   clReleaseMemObject(bin);
   clReleaseMemObject(bout);
   free(in);
   free(out);
}

/* A w x h matrix transposed through tiles of local memory of the local size (at most 32 x
 * 32; NULL for a reqd_work_group_size kernel). */
static void
run_transpose(cl_kernel k, const size_t *local)
{
   const cl_uint w = 96, h = 64;
   float *in = malloc(w * h * 4), *out = calloc(w * h, 4);
   for (cl_uint i = 0; i < w * h; i++)
      in[i] = (float)i * 0.5f;
   cl_mem bin = buffer(w * h * 4, in), bout = buffer(w * h * 4, NULL);
   clSetKernelArg(k, 0, sizeof(cl_mem), &bin);
   clSetKernelArg(k, 1, sizeof(cl_mem), &bout);
   clSetKernelArg(k, 2, sizeof(cl_uint), &w);
   clSetKernelArg(k, 3, sizeof(cl_uint), &h);
   size_t global[2] = { w, h };
   CHECK_EQ_INT(clEnqueueNDRangeKernel(queue, k, 2, NULL, global, local, 0, NULL, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueReadBuffer(queue, bout, CL_TRUE, 0, w * h * 4, out, 0, NULL, NULL),
                CL_SUCCESS);
   unsigned bad = 0;
   for (cl_uint y = 0; y < h; y++)
      for (cl_uint x = 0; x < w; x++)
         if (out[x * h + y] != in[y * w + x] && bad++ < 5)
            fprintf(stderr, "transpose: out[%u][%u] = %g, want %g\n", x, y, out[x * h + y],
                    in[y * w + x]);
   CHECK_EQ_INT(bad, 0);
   clReleaseMemObject(bin);
   clReleaseMemObject(bout);
   free(in);
   free(out);
}

/* `shape` with local size l[3] over a grid of 2 x 1 x 1 groups' worth in each dimension
 * doubled once: every work-item's ids, sizes and its group's barrier count checked. */
static void
run_shape(cl_kernel k, cl_uint dims, const size_t l[3])
{
   size_t g[3] = { l[0] * 2, l[1] * (dims > 1 ? 2 : 1), l[2] };
   size_t n = g[0] * g[1] * g[2], items = l[0] * l[1] * l[2];
   uint32_t *out = calloc(4 * n, 4);
   cl_mem bout = buffer(16 * n, NULL);
   clSetKernelArg(k, 0, sizeof(cl_mem), &bout);
   CHECK_EQ_INT(clEnqueueNDRangeKernel(queue, k, dims, NULL, g, l, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueReadBuffer(queue, bout, CL_TRUE, 0, 16 * n, out, 0, NULL, NULL),
                CL_SUCCESS);
   unsigned bad = 0;
   for (size_t z = 0; z < g[2]; z++)
      for (size_t y = 0; y < g[1]; y++)
         for (size_t x = 0; x < g[0]; x++) {
            size_t i = x + g[0] * (y + g[1] * z);
            uint32_t want[4] = {
               (uint32_t)(x % l[0] | (y % l[1]) << 10 | (z % l[2]) << 20),
               (uint32_t)(x / l[0] | (y / l[1]) << 10 | (z / l[2]) << 20),
               (uint32_t)(l[0] | l[1] << 11 | l[2] << 22),
               (uint32_t)items,
            };
            for (int c = 0; c < 4; c++)
               if (out[4 * i + c] != want[c] && bad++ < 5)
                  fprintf(stderr, "shape %zux%zux%zu: item (%zu,%zu,%zu) field %d = 0x%x, "
                          "want 0x%x\n", l[0], l[1], l[2], x, y, z, c, out[4 * i + c],
                          want[c]);
         }
   CHECK_EQ_INT(bad, 0);
   clReleaseMemObject(bout);
   free(out);
}

static void
heavy_host(const float *in, size_t g, float *res)
{
   float v[80];
   for (int i = 0; i < 80; i++)
      v[i] = in[(g * 3 + i * 7) & 4095];
   for (int j = 1; j < 6; j++)
      for (int i = 0; i < 80; i++)
         v[i] = v[i] * v[(i + j) % 80] + (float)j;
   float s = 0.0f;
   for (int i = 0; i < 80; i++)
      s += v[i] * (float)(i + 1);
   *res = s;
}

/* `heavy` with local size n over 2048 work-items; results within a relative 1e-5 of the
 * host's (the device may contract into fma). */
static cl_int
run_heavy(cl_kernel k, size_t n)
{
   const size_t total = 2048;
   float *in = malloc(4096 * 4), *out = calloc(total, 4);
   for (int i = 0; i < 4096; i++)
      in[i] = 0.5f + (float)(i % 97) / 128.0f;
   cl_mem bin = buffer(4096 * 4, in), bout = buffer(total * 4, NULL);
   clSetKernelArg(k, 0, sizeof(cl_mem), &bin);
   clSetKernelArg(k, 1, sizeof(cl_mem), &bout);
   cl_int err = clEnqueueNDRangeKernel(queue, k, 1, NULL, &total, &n, 0, NULL, NULL);
   if (err == CL_SUCCESS) {
      CHECK_EQ_INT(clEnqueueReadBuffer(queue, bout, CL_TRUE, 0, total * 4, out, 0, NULL, NULL),
                   CL_SUCCESS);
      unsigned bad = 0;
      for (size_t i = 0; i < total; i++) {
         float want;
         heavy_host(in, i, &want);
         float d = out[i] - want;
         if ((d < 0 ? -d : d) > 1e-5f * (want < 0 ? -want : want) && bad++ < 5)
            fprintf(stderr, "heavy n=%zu: out[%zu] = %g, want %g\n", n, i, out[i], want);
      }
      CHECK_EQ_INT(bad, 0);
   }
   clReleaseMemObject(bin);
   clReleaseMemObject(bout);
   free(in);
   free(out);
   return err;
}

/* ---- tests ---------------------------------------------------------------------------- */

static void
test_device_queries(void)
{
   size_t max = 0, items[3] = { 0 };
   cl_uint dims = 0;
   CHECK_EQ_INT(clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof(max), &max, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(max, 1024);
   CHECK_EQ_INT(clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, sizeof(dims), &dims,
                                NULL), CL_SUCCESS);
   CHECK_EQ_INT(dims, 3);
   CHECK_EQ_INT(clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof(items), items,
                                NULL), CL_SUCCESS);
   for (int i = 0; i < 3; i++)
      CHECK_EQ_INT(items[i], 1024);
   if (test_device_lists(device, CL_DEVICE_EXTENSIONS, "cl_amd_device_attribute_query")) {
      size_t amd = 0;
      CHECK_EQ_INT(clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_GROUP_SIZE_AMD, sizeof(amd), &amd,
                                   NULL), CL_SUCCESS);
      CHECK_EQ_INT(amd, 1024);
   }
}

static void
test_kernel_queries(cl_program p)
{
   cl_kernel red = kernel(p, "reduce"), r1024 = kernel(p, "reqd1024"),
             r32 = kernel(p, "reqd32x32");
   CHECK_EQ_INT(wg_info_size(red, CL_KERNEL_WORK_GROUP_SIZE), 1024);
   CHECK_EQ_INT(wg_info_size(r1024, CL_KERNEL_WORK_GROUP_SIZE), 1024);
   CHECK_EQ_INT(wg_info_size(r32, CL_KERNEL_WORK_GROUP_SIZE), 1024);
   CHECK_EQ_INT(wg_info_size(red, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE),
                test_sim_wave_size());
   size_t cwg[3];
   CHECK_EQ_INT(clGetKernelWorkGroupInfo(red, device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                                         sizeof(cwg), cwg, NULL), CL_SUCCESS);
   CHECK(cwg[0] == 0 && cwg[1] == 0 && cwg[2] == 0);
   CHECK_EQ_INT(clGetKernelWorkGroupInfo(r32, device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                                         sizeof(cwg), cwg, NULL), CL_SUCCESS);
   CHECK(cwg[0] == 32 && cwg[1] == 32 && cwg[2] == 1);

   /* Sub-groups (wavefronts) agree: 16 of 64 in a group of 1024, 32 of 32 on gfx10+. */
   if (test_device_lists(device, CL_DEVICE_EXTENSIONS, "cl_khr_subgroups")) {
      size_t waves = 1024 / test_sim_wave_size();
      size_t v = 0, count = waves, local[3] = { 0 }, l1024 = 1024;
      CHECK_EQ_INT(clGetKernelSubGroupInfo(red, device, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, NULL,
                                           sizeof(v), &v, NULL), CL_SUCCESS);
      CHECK_EQ_INT(v, waves);
      CHECK_EQ_INT(clGetKernelSubGroupInfo(red, device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                                           sizeof(count), &count, sizeof(local), local, NULL),
                   CL_SUCCESS);
      CHECK(local[0] == 1024 && local[1] == 1 && local[2] == 1);
      count = waves + 1;
      CHECK_EQ_INT(clGetKernelSubGroupInfo(red, device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                                           sizeof(count), &count, sizeof(local), local, NULL),
                   CL_SUCCESS);
      CHECK(local[0] == 0 && local[1] == 0 && local[2] == 0);
      CHECK_EQ_INT(clGetKernelSubGroupInfo(red, device, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE,
                                           sizeof(l1024), &l1024, sizeof(v), &v, NULL),
                   CL_SUCCESS);
      CHECK_EQ_INT(v, waves);
      CHECK_EQ_INT(clGetKernelSubGroupInfo(r32, device, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, NULL,
                                           sizeof(v), &v, NULL), CL_SUCCESS);
      CHECK_EQ_INT(v, waves);
   }

   /* The suggested local size stays at the common case (<= 256). */
   cl_platform_id plat;
   clGetDeviceInfo(device, CL_DEVICE_PLATFORM, sizeof(plat), &plat, NULL);
   clGetKernelSuggestedLocalWorkSizeKHR_fn suggest =
      (clGetKernelSuggestedLocalWorkSizeKHR_fn)clGetExtensionFunctionAddressForPlatform(
      plat, "clGetKernelSuggestedLocalWorkSizeKHR");
   if (suggest) {
      cl_mem b = buffer(4096 * 4, NULL);
      clSetKernelArg(red, 0, sizeof(cl_mem), &b);
      clSetKernelArg(red, 1, sizeof(cl_mem), &b);
      clSetKernelArg(red, 2, 1024 * 4, NULL);
      size_t g = 4096, s = 0;
      CHECK_EQ_INT(suggest(queue, red, 1, NULL, &g, &s), CL_SUCCESS);
      CHECK(s >= 64 && s <= 256 && 4096 % s == 0);
      clReleaseMemObject(b);
   }
   clReleaseKernel(red);
   clReleaseKernel(r1024);
   clReleaseKernel(r32);
}

/* Launches <= 256 and with a NULL local size never build the variant; the first launch
 * past 256 builds it once (log line, one more cache entry); later ones reuse it. */
static void
test_variant_once(void)
{
   char log[65536];
   cache_clear();
   unsigned failed = test_failed;
   test_stderr_begin();
   cl_program p = build(source, NULL);
   cl_kernel red = kernel(p, "reduce"), rev = kernel(p, "reverse");
   run_reduce(red, 256);
   run_reduce(red, 64);
   run_reverse(rev, 256, (size_t[]){ 256 }, 0);
   {
      /* NULL local size: the implementation's choice stays <= 256. */
      const size_t total = 4096;
      cl_mem b = buffer(total * 4, NULL);
      clSetKernelArg(rev, 0, sizeof(cl_mem), &b);
      clSetKernelArg(rev, 1, sizeof(cl_mem), &b);
      CHECK_EQ_INT(clEnqueueNDRangeKernel(queue, rev, 1, NULL, &total, NULL, 0, NULL, NULL),
                   CL_SUCCESS);
      CHECK_EQ_INT(clFinish(queue), CL_SUCCESS);
      clReleaseMemObject(b);
   }
   capture_end(log, sizeof(log), failed, 0);
   CHECK_EQ_INT(cache_entries(), 1);

   failed = test_failed;
   test_stderr_begin();
   run_reduce(red, 1024);
   capture_end(log, sizeof(log), failed, 1);
   CHECK_EQ_INT(cache_entries(), 2);

   failed = test_failed;
   test_stderr_begin();
   run_reduce(red, 512);
   run_reduce(red, 1024);
   run_reverse(rev, 1024, (size_t[]){ 1024 }, 0);
   run_reverse(rev, 512, (size_t[]){ 512 }, 0);
   run_reduce(red, 256); /* the default build again */
   capture_end(log, sizeof(log), failed, 0);
   CHECK_EQ_INT(cache_entries(), 2);
   clReleaseKernel(red);
   clReleaseKernel(rev);
   clReleaseProgram(p);

   /* The same program again: both builds come from the cache; the variant is built (from
    * its cache entry) once for this program object. */
   failed = test_failed;
   test_stderr_begin();
   p = build(source, NULL);
   red = kernel(p, "reduce");
   run_reduce(red, 1024);
   run_reduce(red, 1024);
   capture_end(log, sizeof(log), failed, 1);
   CHECK_EQ_INT(cache_entries(), 2);
   clReleaseKernel(red);
   clReleaseProgram(p);
}

static void
test_launches(cl_program p)
{
   cl_kernel red = kernel(p, "reduce"), rev = kernel(p, "reverse"), tr = kernel(p, "transpose"),
             sh = kernel(p, "shape"), hv = kernel(p, "heavy"), r1024 = kernel(p, "reqd1024"),
             r32 = kernel(p, "reqd32x32");
   run_reduce(red, 1024);
   run_reduce(red, 512);
   run_reverse(rev, 1024, (size_t[]){ 1024 }, 0);
   run_reverse(rev, 512, (size_t[]){ 512 }, 0);
   run_transpose(tr, (size_t[]){ 32, 32 });
   run_transpose(tr, (size_t[]){ 32, 16 });
   run_transpose(tr, (size_t[]){ 16, 32 });
   run_transpose(tr, (size_t[]){ 32, 8 });
   static const size_t shapes[][4] = {
      { 1, 1024, 1, 1 }, { 2, 32, 32, 1 }, { 2, 64, 16, 1 }, { 2, 4, 256, 1 },
      { 3, 16, 8, 8 },   { 3, 8, 8, 16 },  { 3, 1, 1, 1024 }, { 2, 16, 32, 1 },
      { 1, 256, 1, 1 },  { 3, 4, 4, 4 },
   };
   for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++)
      run_shape(sh, (cl_uint)shapes[i][0], &shapes[i][1]);
   CHECK_EQ_INT(run_heavy(hv, 256), CL_SUCCESS);
   CHECK_EQ_INT(run_heavy(hv, 1024), CL_SUCCESS);
   CHECK_EQ_INT(run_heavy(hv, 512), CL_SUCCESS);

   /* reqd_work_group_size: explicit and NULL local sizes. */
   run_reverse(r1024, 1024, (size_t[]){ 1024 }, 1024);
   run_reverse(r1024, 1024, NULL, 1024);
   run_transpose(r32, (size_t[]){ 32, 32 });
   run_transpose(r32, NULL);

   /* Ask the kernel, launch with what it says. */
   size_t n = wg_info_size(red, CL_KERNEL_WORK_GROUP_SIZE);
   run_reduce(red, n);
   n = wg_info_size(hv, CL_KERNEL_WORK_GROUP_SIZE);
   CHECK_EQ_INT(run_heavy(hv, n), CL_SUCCESS);

   /* Errors. */
   cl_mem b = buffer(1 << 16, NULL);
   clSetKernelArg(sh, 0, sizeof(cl_mem), &b);
   size_t g2[2] = { 128, 64 }, l2[2] = { 64, 32 };
   CHECK_EQ_INT(clEnqueueNDRangeKernel(queue, sh, 2, NULL, g2, l2, 0, NULL, NULL),
                CL_INVALID_WORK_GROUP_SIZE);
   size_t g3[3] = { 16, 16, 16 }, l3[3] = { 16, 16, 8 };
   CHECK_EQ_INT(clEnqueueNDRangeKernel(queue, sh, 3, NULL, g3, l3, 0, NULL, NULL),
                CL_INVALID_WORK_GROUP_SIZE);
   size_t g1 = 4096, l1 = 2048;
   CHECK_EQ_INT(clEnqueueNDRangeKernel(queue, sh, 1, NULL, &g1, &l1, 0, NULL, NULL),
                CL_INVALID_WORK_ITEM_SIZE);
   size_t g3b[3] = { 1, 1, 2048 }, l3b[3] = { 1, 1, 2048 };
   CHECK_EQ_INT(clEnqueueNDRangeKernel(queue, sh, 3, NULL, g3b, l3b, 0, NULL, NULL),
                CL_INVALID_WORK_ITEM_SIZE);
   clSetKernelArg(r1024, 0, sizeof(cl_mem), &b);
   clSetKernelArg(r1024, 1, sizeof(cl_mem), &b);
   l1 = 512;
   CHECK_EQ_INT(clEnqueueNDRangeKernel(queue, r1024, 1, NULL, &g1, &l1, 0, NULL, NULL),
                CL_INVALID_WORK_GROUP_SIZE);
   CHECK_EQ_INT(clFinish(queue), CL_SUCCESS);
   clReleaseMemObject(b);

   clReleaseKernel(red);
   clReleaseKernel(rev);
   clReleaseKernel(tr);
   clReleaseKernel(sh);
   clReleaseKernel(hv);
   clReleaseKernel(r1024);
   clReleaseKernel(r32);
}

/* A program from the binary of a built one: only its code object, so kernels keep the bound
 * they were built for. */
static void
test_binary(cl_program built)
{
   size_t size = 0;
   CHECK_EQ_INT(clGetProgramInfo(built, CL_PROGRAM_BINARY_SIZES, sizeof(size), &size, NULL),
                CL_SUCCESS);
   unsigned char *bin = malloc(size);
   CHECK_EQ_INT(clGetProgramInfo(built, CL_PROGRAM_BINARIES, sizeof(bin), &bin, NULL),
                CL_SUCCESS);
   cl_int err, status;
   const unsigned char *cbin = bin;
   cl_program p = clCreateProgramWithBinary(ctx, 1, &device, &size, &cbin, &status, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   CHECK_EQ_INT(clBuildProgram(p, 1, &device, NULL, NULL, NULL), CL_SUCCESS);
   cl_kernel red = kernel(p, "reduce"), r1024 = kernel(p, "reqd1024");
   CHECK_EQ_INT(wg_info_size(red, CL_KERNEL_WORK_GROUP_SIZE), 256);
   CHECK_EQ_INT(wg_info_size(r1024, CL_KERNEL_WORK_GROUP_SIZE), 1024);
   run_reduce(red, wg_info_size(red, CL_KERNEL_WORK_GROUP_SIZE));
   run_reverse(r1024, 1024, NULL, 1024);
   cl_mem b = buffer(4096 * 4, NULL);
   clSetKernelArg(red, 0, sizeof(cl_mem), &b);
   clSetKernelArg(red, 1, sizeof(cl_mem), &b);
   clSetKernelArg(red, 2, 512 * 4, NULL);
   size_t g = 4096, l = 512;
   CHECK_EQ_INT(clEnqueueNDRangeKernel(queue, red, 1, NULL, &g, &l, 0, NULL, NULL),
                CL_INVALID_WORK_GROUP_SIZE);
   clReleaseMemObject(b);
   clReleaseKernel(red);
   clReleaseKernel(r1024);
   clReleaseProgram(p);
   free(bin);
}

/* clCompileProgram + clLinkProgram: the variant is rebuilt from the link's inputs. */
static void
test_link(void)
{
   const char *a =
      "uint plus1(uint x);\n"
      "kernel void reduce(global const uint *in, global uint *out, local uint *tmp)\n"
      "{\n"
      "   uint l = get_local_id(0), n = get_local_size(0);\n"
      "   tmp[l] = plus1(in[get_global_id(0)]);\n"
      "   barrier(CLK_LOCAL_MEM_FENCE);\n"
      "   for (uint s = n / 2; s > 0; s >>= 1) {\n"
      "      if (l < s)\n"
      "         tmp[l] += tmp[l + s];\n"
      "      barrier(CLK_LOCAL_MEM_FENCE);\n"
      "   }\n"
      "   if (l == 0)\n"
      "      out[get_group_id(0)] = tmp[0] - n;\n"
      "}\n";
   const char *b = "uint plus1(uint x) { return x + 1; }\n";
   cl_int err;
   cl_program pa = clCreateProgramWithSource(ctx, 1, &a, NULL, &err);
   cl_program pb = clCreateProgramWithSource(ctx, 1, &b, NULL, &err);
   CHECK_EQ_INT(clCompileProgram(pa, 1, &device, NULL, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clCompileProgram(pb, 1, &device, NULL, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
   cl_program in[2] = { pa, pb };
   cl_program p = clLinkProgram(ctx, 1, &device, NULL, 2, in, NULL, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_kernel red = kernel(p, "reduce");
   CHECK_EQ_INT(wg_info_size(red, CL_KERNEL_WORK_GROUP_SIZE), 1024);
   char log[65536];
   unsigned failed = test_failed;
   test_stderr_begin();
   run_reduce(red, 1024);
   run_reduce(red, 512);
   capture_end(log, sizeof(log), failed, 1);
   clReleaseKernel(red);
   clReleaseProgram(p);
   clReleaseProgram(pa);
   clReleaseProgram(pb);
}

/* A variant that fails to build (a build limit lowered in between, so that the rebuild is
 * refused): the launch that needed it gets CL_OUT_OF_RESOURCES, the kernel then reports the
 * default build's bound and refuses larger launches, and the default build still runs. */
static void
test_variant_failure(void)
{
   char *src = malloc(strlen(source) + 64);
   sprintf(src, "/* failure */\n%s", source);
   cl_program p = build(src, NULL);
   free(src);
   cl_kernel red = kernel(p, "reduce");
   CHECK_EQ_INT(wg_info_size(red, CL_KERNEL_WORK_GROUP_SIZE), 1024);
   run_reduce(red, 256);
   cl_mem b = buffer(4096 * 4, NULL);
   clSetKernelArg(red, 0, sizeof(cl_mem), &b);
   clSetKernelArg(red, 1, sizeof(cl_mem), &b);
   clSetKernelArg(red, 2, 1024 * 4, NULL);
   size_t g = 4096, l = 1024;
   char log[65536];
   unsigned failed = test_failed;
   CHECK_EQ_INT(clFinish(queue), CL_SUCCESS);
   setenv("HSACL_BUILD_MAX_SOURCE", "16", 1); /* bytes: every build is refused */
   test_stderr_begin();
   CHECK_EQ_INT(clEnqueueNDRangeKernel(queue, red, 1, NULL, &g, &l, 0, NULL, NULL),
                CL_OUT_OF_RESOURCES);
   l = 512;
   CHECK_EQ_INT(clEnqueueNDRangeKernel(queue, red, 1, NULL, &g, &l, 0, NULL, NULL),
                CL_INVALID_WORK_GROUP_SIZE);
   capture_end(log, sizeof(log), failed, 1);
   unsetenv("HSACL_BUILD_MAX_SOURCE");
   CHECK(strstr(log, "more than the 16 a build accepts") != NULL);
   CHECK_EQ_INT(wg_info_size(red, CL_KERNEL_WORK_GROUP_SIZE), 256);
   if (test_device_lists(device, CL_DEVICE_EXTENSIONS, "cl_khr_subgroups")) {
      size_t v = 0;
      CHECK_EQ_INT(clGetKernelSubGroupInfo(red, device, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, NULL,
                                           sizeof(v), &v, NULL), CL_SUCCESS);
      CHECK_EQ_INT(v, 256 / test_sim_wave_size());
   }
   clReleaseMemObject(b);
   run_reduce(red, 256);
   clReleaseKernel(red);
   clReleaseProgram(p);
}

/* An IL program: the variant is rebuilt from the module. */
static void
test_il(const char *spv_path)
{
   size_t size = 0;
   char *il = test_read_file(spv_path, &size);
   if (!il)
      return;
   cl_int err;
   cl_program p = clCreateProgramWithIL(ctx, il, size, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   CHECK_EQ_INT(clBuildProgram(p, 1, &device, NULL, NULL, NULL), CL_SUCCESS);
   cl_kernel red = kernel(p, "reduce");
   CHECK_EQ_INT(wg_info_size(red, CL_KERNEL_WORK_GROUP_SIZE), 1024);
   char log[65536];
   unsigned failed = test_failed;
   test_stderr_begin();
   run_reduce(red, 256);
   run_reduce(red, 1024);
   run_reduce(red, 512);
   capture_end(log, sizeof(log), failed, 1);
   clReleaseKernel(red);
   clReleaseProgram(p);
   free(il);
}

struct say_arg {
   cl_kernel k;
   size_t local;
};

static void
say_run(void *p)
{
   struct say_arg *a = p;
   const size_t total = 2 * a->local;
   uint32_t *out = calloc(total, 4);
   cl_mem b = buffer(total * 4, NULL);
   clSetKernelArg(a->k, 0, sizeof(cl_mem), &b);
   CHECK_EQ_INT(clEnqueueNDRangeKernel(queue, a->k, 1, NULL, &total, &a->local, 0, NULL, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueReadBuffer(queue, b, CL_TRUE, 0, total * 4, out, 0, NULL, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(clFinish(queue), CL_SUCCESS);
   unsigned bad = 0;
   for (size_t i = 0; i < total; i++)
      bad += out[i] != i % a->local;
   CHECK_EQ_INT(bad, 0);
   clReleaseMemObject(b);
   free(out);
}

/* printf from groups of 256 (default build) and 1024 (the variant): one line per group. */
static void
test_printf(const char *cl_path)
{
   size_t size = 0;
   char *src = test_read_file(cl_path, &size);
   if (!src)
      return;
   cl_program p = build(src, NULL);
   struct say_arg a = { .k = kernel(p, "say") };
   char out[4096];
   static const size_t locals[] = { 256, 1024 };
   for (int i = 0; i < 2; i++) {
      a.local = locals[i];
      capture_stdout(say_run, &a, out, sizeof(out));
      /* One line per group, in the order the groups ran. */
      char want[2][128];
      for (int g = 0; g < 2; g++) {
         snprintf(want[g], sizeof(want[g]), "group %d of %zu items: last %zu\n", g, a.local,
                  a.local - 1);
         CHECK(strstr(out, want[g]) != NULL);
      }
      CHECK_EQ_INT(strlen(out), strlen(want[0]) + strlen(want[1]));
      if (test_failed)
         fprintf(stderr, "printf output: \"%s\"\n", out);
   }
   clReleaseKernel(a.k);
   clReleaseProgram(p);
   free(src);
}

/* Two threads launch the same program's kernel at 1024 at once, each with its own kernel
 * object and queue: one variant build, both results right. */
struct thread_arg {
   cl_program program;
   cl_command_queue queue;
   pthread_barrier_t *start;
   cl_int err;
   unsigned bad;
};

static void *
launch_thread(void *p)
{
   struct thread_arg *t = p;
   cl_int err;
   cl_kernel k = clCreateKernel(t->program, "reverse", &err);
   const size_t total = 4096, local = 1024;
   uint32_t *in = malloc(total * 4), *out = calloc(total, 4);
   for (size_t i = 0; i < total; i++)
      in[i] = (uint32_t)(i * 31u + 5u);
   cl_mem bin = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, total * 4, in, &err);
   cl_mem bout = clCreateBuffer(ctx, CL_MEM_READ_WRITE, total * 4, NULL, &err);
   clSetKernelArg(k, 0, sizeof(cl_mem), &bin);
   clSetKernelArg(k, 1, sizeof(cl_mem), &bout);
   pthread_barrier_wait(t->start);
   t->err = clEnqueueNDRangeKernel(t->queue, k, 1, NULL, &total, &local, 0, NULL, NULL);
   if (t->err == CL_SUCCESS)
      t->err = clEnqueueReadBuffer(t->queue, bout, CL_TRUE, 0, total * 4, out, 0, NULL, NULL);
   for (size_t i = 0; t->err == CL_SUCCESS && i < total; i++)
      t->bad += out[i] != in[i / local * local + (local - 1 - i % local)];
   clReleaseMemObject(bin);
   clReleaseMemObject(bout);
   clReleaseKernel(k);
   free(in);
   free(out);
   return NULL;
}

static void
test_threads(void)
{
   /* A program of its own (another source), so that nothing is built yet. */
   char *src = malloc(strlen(source) + 64);
   sprintf(src, "/* threads */\n%s", source);
   cl_program p = build(src, NULL);
   free(src);
   pthread_barrier_t start;
   pthread_barrier_init(&start, NULL, 2);
   struct thread_arg args[2];
   pthread_t th[2];
   char log[65536];
   cl_int err;
   unsigned failed = test_failed;
   test_stderr_begin();
   for (int i = 0; i < 2; i++) {
      args[i] = (struct thread_arg){ .program = p, .start = &start };
      args[i].queue = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
      pthread_create(&th[i], NULL, launch_thread, &args[i]);
   }
   for (int i = 0; i < 2; i++)
      pthread_join(th[i], NULL);
   capture_end(log, sizeof(log), failed, 1);
   for (int i = 0; i < 2; i++) {
      CHECK_EQ_INT(args[i].err, CL_SUCCESS);
      CHECK_EQ_INT(args[i].bad, 0);
      clReleaseCommandQueue(args[i].queue);
   }
   pthread_barrier_destroy(&start);
   clReleaseProgram(p);
}

int
main(int argc, char **argv)
{
   if (argc != 3) {
      fprintf(stderr, "usage: api_workgroup_test workgroup_il.cl workgroup_il.spv\n");
      return 2;
   }
   /* The variant's log line (read once, before the first CL call). */
   setenv("HSACL_LOG", "info:compiler", 1);
   cache_dir = getenv("HSACL_CACHE_DIR");
   test_watchdog("api_workgroup", 600);
   cl_platform_id platform;
   cl_int err;
   if (clGetPlatformIDs(1, &platform, NULL) != CL_SUCCESS ||
       clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &device, NULL) != CL_SUCCESS) {
      fprintf(stderr, "no hsacl device\n");
      return 1;
   }
   ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   queue = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);

   test_device_queries();
   if (cache_dir)
      test_variant_once();
   else
      CHECK(!"HSACL_CACHE_DIR names the test's own cache directory");
   cl_program p = build(source, NULL);
   test_kernel_queries(p);
   test_launches(p);
   test_binary(p);
   clReleaseProgram(p);
   test_link();
   test_il(argv[2]);
   test_variant_failure();
   test_printf(argv[1]);
   test_threads();

   clReleaseCommandQueue(queue);
   clReleaseContext(ctx);
   return test_main_end();
}
