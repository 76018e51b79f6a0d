/*
 * tests/memory/api_pipe_test.c — pipes end to end (OpenCL 3.0 API §5.4, OpenCL C 3.0 §6.15.16,
 * feature __opencl_c_pipes): the device queries, clCreatePipe with every error it names,
 * clGetPipeInfo, clGetMemObjectInfo on a pipe, host commands refused, clSetKernelArg and
 * clGetKernelArgInfo on pipe parameters, and kernels moving packets through pipes
 * (memory/mem_pipe.c, compiler/comp_builtins_pipe.cl, dispatch/disp_kernel.c).
 *
 * Every packet a producer writes carries a distinct value; a consumer's results are checked
 * exactly: the number of successful writes is the capacity when more work-items write than
 * fit (a full pipe makes write_pipe return -1), every successful read returns a value
 * written and no value twice, and reading as many work-items as packets empties the pipe
 * (an empty pipe makes read_pipe return -1). Packets of 4 (int), 16 (int4), 64 (long8) and
 * 12 bytes (a struct), 1024 bytes (the maximum), through read_pipe/write_pipe, per
 * work-item, work-group and sub-group reservations, over several rounds so indices wrap
 * around the storage, from several work-groups, with -O3 and -cl-opt-disable; the pipe
 * passed from a kernel on one queue to a kernel on another; the pipe released while the
 * kernels using it are in flight. The kernels are tests/memory/api_pipe_kernels.cl, built from
 * source or, with "spirv KERNELS.spv", from SPIR-V (the same kernels but q_wo, made by
 * clang-15 and llvm-spirv-15). With "2gpus" (run with HSACL_KFD_GPUS=2 and
 * HSACL_SIM_CACHE=check): packets between kernels of two devices, both ways.
 *
 * Argument "1.2" (run with HSACL_OPENCL_VERSION=1.2): the 1.2 profile reports no pipes and
 * clCreatePipe is CL_INVALID_OPERATION. Argument "2.0" (HSACL_OPENCL_VERSION=2.0): everything
 * in OpenCL C 2.0, the 3.0 pipe queries refused.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "hsacl_test.h"
#include "hsacl_cl_test.h"

static cl_platform_id platform;
static cl_device_id device;
static cl_context ctx;
static cl_command_queue queue, queue2;

enum { MAX_PACKET = 1024 };

/* ---- kernels ------------------------------------------------------------------------ */

/* The kernels (tests/memory/api_pipe_kernels.cl), read from the path main() is given. */
static char *kernels_src;
static const unsigned char *kernels_il;
static size_t kernels_il_size;

/* The whole of file `path` (NUL-terminated), or NULL. */
static char *
read_file(const char *path, size_t *size)
{
   FILE *f = fopen(path, "rb");
   if (!f)
      return NULL;
   char *buf = NULL;
   if (fseek(f, 0, SEEK_END) == 0) {
      long n = ftell(f);
      if (n >= 0 && fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)n + 1)) &&
          fread(buf, 1, (size_t)n, f) == (size_t)n) {
         buf[n] = 0;
         if (size)
            *size = (size_t)n;
      } else {
         free(buf);
         buf = NULL;
      }
   }
   fclose(f);
   return buf;
}

/* The kernels from source, or from SPIR-V when main() was given a module. */
static cl_program
build(const char *options)
{
   cl_int err;
   const char *src = kernels_src;
   cl_program p = kernels_il ? clCreateProgramWithIL(ctx, kernels_il, kernels_il_size, &err)
                             : clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   err = clBuildProgram(p, 1, &device, options, NULL, NULL);
   CHECK_EQ_INT(err, CL_SUCCESS);
   if (err != CL_SUCCESS) {
      char log[8192] = "";
      clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, sizeof(log) - 1, log, NULL);
      fprintf(stderr, "build log (%s):\n%s\n", options, log);
      clReleaseProgram(p);
      return NULL;
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
buffer(size_t size, const void *init)
{
   cl_int err;
   cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE | (init ? CL_MEM_COPY_HOST_PTR : 0), size,
                             (void *)init, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   return b;
}

static cl_mem
make_pipe(cl_uint packet_size, cl_uint max_packets)
{
   cl_int err;
   cl_mem p = clCreatePipe(ctx, 0, packet_size, max_packets, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   return p;
}

static void
set_mem(cl_kernel k, cl_uint i, cl_mem m)
{
   CHECK_EQ_INT(clSetKernelArg(k, i, sizeof(m), &m), CL_SUCCESS);
}

/* Runs `k` over `n` work-items in work-groups of `local` (0: the driver's choice) on `q`. */
static void
run(cl_command_queue q, cl_kernel k, size_t n, size_t local, cl_uint nwait, const cl_event *wait,
    cl_event *ev)
{
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, local ? &local : NULL, nwait, wait, ev),
                CL_SUCCESS);
}

static void
read_back(cl_mem b, size_t size, void *host)
{
   CHECK_EQ_INT(clEnqueueReadBuffer(queue, b, CL_TRUE, 0, size, host, 0, NULL, NULL), CL_SUCCESS);
}

/* get_pipe_num_packets and get_pipe_max_packets from both sides. */
static void
check_counts(cl_program prog, cl_mem pipe, cl_uint num, cl_uint max)
{
   static const char *const names[] = { "q_ro", "q_wo" };
   for (int i = 0; i < (kernels_il ? 1 : 2); i++) { /* api_pipe_kernels.cl: no q_wo in IL */
      cl_kernel k = kernel(prog, names[i]);
      cl_mem out = buffer(2 * sizeof(cl_uint), NULL);
      set_mem(k, 0, pipe);
      set_mem(k, 1, out);
      run(queue, k, 1, 1, 0, NULL, NULL);
      cl_uint got[2] = { 0, 0 };
      read_back(out, sizeof(got), got);
      CHECK_EQ_INT(got[0], num);
      CHECK_EQ_INT(got[1], max);
      clReleaseMemObject(out);
      clReleaseKernel(k);
   }
}

/* ---- packets by value ------------------------------------------------------------------
 * A packet of `size` bytes carries its value in its first 4 bytes (the struct: in the int
 * member); the other bytes repeat a pattern derived from it, checked too. */

struct packet_kind {
   const char *name;
   size_t size;
   size_t value_offset;
};

static const struct packet_kind kinds[] = {
   { "int", 4, 0 }, { "int4", 16, 0 }, { "long8", 64, 0 }, { "s", 12, 4 }, { "big", 1024, 0 },
};

static void
fill_packet(unsigned char *p, const struct packet_kind *kind, uint32_t value)
{
   for (size_t b = 0; b < kind->size; b++)
      p[b] = (unsigned char)(value * 7u + b);
   memcpy(p + kind->value_offset, &value, 4);
}

static bool
packet_ok(const unsigned char *p, const struct packet_kind *kind, uint32_t *value)
{
   memcpy(value, p + kind->value_offset, 4);
   for (size_t b = 0; b < kind->size; b++) {
      if (b >= kind->value_offset && b < kind->value_offset + 4)
         continue;
      if (kind->value_offset == 4 && (b == 1 || b == 2 || b == 3 || b >= 10))
         continue; /* the struct's padding bytes carry nothing */
      if (p[b] != (unsigned char)(*value * 7u + b))
         return false;
   }
   return true;
}

/*
 * Writes `writers` packets with values base..base+writers-1 into `pipe`, which holds
 * `already` packets; exactly min(writers, capacity - already) writes must succeed. Returns
 * how many did and marks their values in `written`.
 */
static size_t
produce(cl_command_queue q, cl_kernel w, cl_mem pipe, const struct packet_kind *kind,
        size_t writers, size_t local, uint32_t base, size_t room, unsigned char *written,
        cl_event *ev)
{
   unsigned char *src = malloc(writers * kind->size);
   int *ok = malloc(writers * sizeof(int));
   for (size_t i = 0; i < writers; i++)
      fill_packet(src + i * kind->size, kind, base + (uint32_t)i);
   cl_mem bsrc = buffer(writers * kind->size, src);
   cl_mem bok = buffer(writers * sizeof(int), NULL);
   set_mem(w, 0, bsrc);
   set_mem(w, 1, pipe);
   set_mem(w, 2, bok);
   run(q, w, writers, local, 0, NULL, ev);
   CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
   read_back(bok, writers * sizeof(int), ok);
   size_t good = 0, bad = 0;
   for (size_t i = 0; i < writers; i++) {
      if (ok[i] == 0) {
         good++;
         written[base + i] = 1;
      } else if (ok[i] == -1) {
         bad++;
      }
   }
   size_t want = writers < room ? writers : room;
   CHECK_EQ_INT(good, want);
   CHECK_EQ_INT(good + bad, writers);
   clReleaseMemObject(bsrc);
   clReleaseMemObject(bok);
   free(src);
   free(ok);
   return good;
}

/*
 * Reads with `readers` work-items from `pipe`, which holds `avail` packets: exactly
 * min(readers, avail) succeed, each returns a value in `written` (cleared as it is seen, so
 * a duplicate fails) with its bytes intact. Returns how many succeeded.
 */
static size_t
consume(cl_command_queue q, cl_kernel r, cl_mem pipe, const struct packet_kind *kind,
        size_t readers, size_t local, size_t avail, unsigned char *written, size_t nvalues,
        cl_uint nwait, const cl_event *wait)
{
   unsigned char *dst = calloc(readers, kind->size);
   int *ok = malloc(readers * sizeof(int));
   cl_mem bdst = buffer(readers * kind->size, dst);
   cl_mem bok = buffer(readers * sizeof(int), NULL);
   set_mem(r, 0, pipe);
   set_mem(r, 1, bdst);
   set_mem(r, 2, bok);
   run(q, r, readers, local, nwait, wait, NULL);
   CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
   read_back(bok, readers * sizeof(int), ok);
   read_back(bdst, readers * kind->size, dst);
   /* good: 0 returned; bad: -1 returned; other: anything else; wrong: a good read whose
    * packet was never written, already read, or damaged. */
   size_t good = 0, bad = 0, other = 0, wrong = 0;
   for (size_t i = 0; i < readers; i++) {
      if (ok[i] != 0) {
         bad += ok[i] == -1;
         other += ok[i] != -1;
         continue;
      }
      good++;
      uint32_t v;
      if (!packet_ok(dst + i * kind->size, kind, &v) || v >= nvalues || !written[v])
         wrong++;
      else
         written[v] = 0; /* read once */
   }
   CHECK_EQ_INT(wrong, 0);
   CHECK_EQ_INT(other, 0);
   CHECK_EQ_INT(good, readers < avail ? readers : avail);
   CHECK_EQ_INT(good + bad, readers);
   clReleaseMemObject(bdst);
   clReleaseMemObject(bok);
   free(dst);
   free(ok);
   return good;
}

static size_t
count_set(const unsigned char *v, size_t n)
{
   size_t c = 0;
   for (size_t i = 0; i < n; i++)
      c += v[i];
   return c;
}

/* One packet kind through a pipe of `cap` packets in rounds that overfill it, read part,
 * refill, read everything, then read an empty pipe. */
static void
test_by_value(cl_program prog, const struct packet_kind *kind, cl_uint cap, size_t local)
{
   char wname[32], rname[32];
   snprintf(wname, sizeof(wname), "w_%s", kind->name);
   snprintf(rname, sizeof(rname), "r_%s", kind->name);
   cl_kernel w = kernel(prog, wname), r = kernel(prog, rname);
   cl_mem pipe = make_pipe((cl_uint)kind->size, cap);
   size_t nvalues = 8 * (size_t)cap + 1024;
   unsigned char *written = calloc(nvalues, 1);
   uint32_t base = 0;
   size_t held = 0;

   /* Overfill: cap + 37 writers, exactly cap succeed. */
   size_t n = cap + 37;
   held += produce(queue, w, pipe, kind, n, local, base, cap - held, written, NULL);
   base += (uint32_t)n;
   check_counts(prog, pipe, (cl_uint)held, cap);
   /* Read part of it (fewer readers than packets). */
   held -= consume(queue, r, pipe, kind, cap / 3, local, held, written, nvalues, 0, NULL);
   /* Refill past the end of the storage (the indices wrap). */
   n = cap;
   held += produce(queue, w, pipe, kind, n, local, base, cap - held, written, NULL);
   base += (uint32_t)n;
   CHECK_EQ_INT(held, cap);
   CHECK_EQ_INT(count_set(written, nvalues), held);
   /* More readers than packets: every packet read once, the rest get -1. */
   held -= consume(queue, r, pipe, kind, cap + 50, local, held, written, nvalues, 0, NULL);
   CHECK_EQ_INT(held, 0);
   CHECK_EQ_INT(count_set(written, nvalues), 0);
   check_counts(prog, pipe, 0, cap);
   /* Empty: every read fails. */
   consume(queue, r, pipe, kind, 64, local, 0, written, nvalues, 0, NULL);

   free(written);
   clReleaseMemObject(pipe);
   clReleaseKernel(w);
   clReleaseKernel(r);
}

/* ---- reservations ------------------------------------------------------------------ */

/* Runs `k` (src/dst, pipe, ok[, n]) over `items` work-items; returns the ok array. */
static int *
run_rsv(cl_kernel k, bool writer, cl_mem pipe, int *data, size_t data_count, size_t items,
        size_t local, cl_uint n)
{
   int *ok = malloc(items * sizeof(int));
   cl_mem bdata = buffer(data_count * sizeof(int), data);
   cl_mem bok = buffer(items * sizeof(int), NULL);
   set_mem(k, writer ? 0 : 1, bdata);
   set_mem(k, writer ? 1 : 0, pipe);
   set_mem(k, 2, bok);
   if (n)
      CHECK_EQ_INT(clSetKernelArg(k, 3, sizeof(n), &n), CL_SUCCESS);
   run(queue, k, items, local, 0, NULL, NULL);
   CHECK_EQ_INT(clFinish(queue), CL_SUCCESS);
   read_back(bok, items * sizeof(int), ok);
   if (!writer)
      read_back(bdata, data_count * sizeof(int), data);
   clReleaseMemObject(bdata);
   clReleaseMemObject(bok);
   return ok;
}

/*
 * Reservations of `per` packets per work-item (kernels w_rsv/r_rsv, n = per) or one per
 * work-item of a work-group or sub-group (w_wg/r_wg, w_sg/r_sg; per = 1, all-or-nothing per
 * group of `group` work-items). `items` writers fill a pipe of `cap` packets: the groups
 * that fit succeed whole, the others fail whole; readers get every value once.
 */
static void
test_reservations(cl_program prog, const char *suffix, size_t items, size_t local, size_t group,
                  cl_uint per, cl_uint cap)
{
   char wname[16], rname[16];
   snprintf(wname, sizeof(wname), "w_%s", suffix);
   snprintf(rname, sizeof(rname), "r_%s", suffix);
   cl_kernel w = kernel(prog, wname), r = kernel(prog, rname);
   cl_mem pipe = make_pipe(sizeof(int), cap);
   bool by_item = !strcmp(suffix, "rsv");
   cl_uint n = by_item ? per : 0;
   size_t count = items * per;
   int *src = malloc(count * sizeof(int));
   for (size_t i = 0; i < count; i++)
      src[i] = (int)i;

   int *ok = run_rsv(w, true, pipe, src, count, items, local, n);
   unsigned char *written = calloc(count, 1);
   size_t good_groups = 0, items_ok = 0;
   bool groups_whole = true;
   for (size_t g0 = 0; g0 < items; g0 += group) {
      size_t nok = 0;
      for (size_t i = g0; i < g0 + group && i < items; i++)
         nok += ok[i] == 0;
      groups_whole &= nok == 0 || nok == group;
      if (nok == group)
         good_groups++;
      for (size_t i = g0; i < g0 + group && i < items; i++) {
         if (ok[i] != 0)
            continue;
         items_ok++;
         for (size_t k = 0; k < per; k++)
            written[i * per + k] = 1;
      }
   }
   CHECK(groups_whole);
   size_t per_group = group * per;
   size_t fit = cap / per_group; /* groups of packets that fit */
   size_t ngroups = (items + group - 1) / group;
   CHECK_EQ_INT(good_groups, fit < ngroups ? fit : ngroups);
   size_t held = items_ok * per;
   check_counts(prog, pipe, (cl_uint)held, cap);
   free(ok);

   /* Read back with the same shape; as many readers as writers. */
   int *dst = calloc(count, sizeof(int));
   ok = run_rsv(r, false, pipe, dst, count, items, local, n);
   size_t read_items = 0, wrong = 0;
   for (size_t i = 0; i < items; i++) {
      if (ok[i] != 0)
         continue;
      read_items++;
      for (size_t k = 0; k < per; k++) {
         int v = dst[i * per + k];
         if (v < 0 || (size_t)v >= count || !written[v])
            wrong++;
         else
            written[v] = 0;
      }
   }
   CHECK_EQ_INT(wrong, 0);
   CHECK_EQ_INT(read_items * per, held);
   CHECK_EQ_INT(count_set(written, count), 0);
   check_counts(prog, pipe, 0, cap);
   free(ok);
   free(dst);
   free(written);
   free(src);
   clReleaseMemObject(pipe);
   clReleaseKernel(w);
   clReleaseKernel(r);
}

/* ---- two queues, released in flight ---------------------------------------------- */

static void
test_two_queues(cl_program prog)
{
   const struct packet_kind *kind = &kinds[0];
   cl_kernel w = kernel(prog, "w_int"), r = kernel(prog, "r_int");
   enum { N = 512 };
   cl_mem pipe = make_pipe(sizeof(int), N);
   int src[N], dst[N], okw[N], okr[N];
   for (int i = 0; i < N; i++)
      src[i] = i;
   cl_mem bsrc = buffer(sizeof(src), src), bdst = buffer(sizeof(dst), NULL);
   cl_mem bokw = buffer(sizeof(okw), NULL), bokr = buffer(sizeof(okr), NULL);
   set_mem(w, 0, bsrc);
   set_mem(w, 1, pipe);
   set_mem(w, 2, bokw);
   set_mem(r, 0, pipe);
   set_mem(r, 1, bdst);
   set_mem(r, 2, bokr);
   /* Producer on queue2, consumer on queue after it; the pipe's last API reference goes
    * before either has run (the commands hold it). */
   cl_event user = clCreateUserEvent(ctx, NULL), produced;
   run(queue2, w, N, 64, 1, &user, &produced);
   run(queue, r, N, 64, 1, &produced, NULL);
   CHECK_EQ_INT(clReleaseMemObject(pipe), CL_SUCCESS);
   CHECK_EQ_INT(clSetUserEventStatus(user, CL_COMPLETE), CL_SUCCESS);
   CHECK_EQ_INT(clFinish(queue), CL_SUCCESS);
   CHECK_EQ_INT(clFinish(queue2), CL_SUCCESS);
   read_back(bokw, sizeof(okw), okw);
   read_back(bokr, sizeof(okr), okr);
   read_back(bdst, sizeof(dst), dst);
   unsigned char seen[N] = { 0 };
   size_t wfail = 0, rfail = 0, dup = 0;
   for (int i = 0; i < N; i++) {
      wfail += okw[i] != 0;
      rfail += okr[i] != 0;
      if (okr[i] == 0) {
         if (dst[i] < 0 || dst[i] >= N || seen[dst[i]])
            dup++;
         else
            seen[dst[i]] = 1;
      }
   }
   CHECK_EQ_INT(wfail, 0);
   CHECK_EQ_INT(rfail, 0);
   CHECK_EQ_INT(dup, 0);
   CHECK_EQ_INT(count_set(seen, N), N);
   (void)kind;
   clReleaseEvent(user);
   clReleaseEvent(produced);
   clReleaseMemObject(bsrc);
   clReleaseMemObject(bdst);
   clReleaseMemObject(bokw);
   clReleaseMemObject(bokr);
   clReleaseKernel(w);
   clReleaseKernel(r);
}

/* ---- two devices ----------------------------------------------------------------------
 * A context over two GPUs (HSACL_KFD_GPUS=2): packets written by a kernel on one device are
 * read by a kernel on the other, both ways. Each GPU has its own L2: under
 * HSACL_SIM_CACHE=check the producer's system-scope release and the consumer's acquire are
 * what make the packets and the indices reach the other device. */
static void
test_two_devices(void)
{
   cl_device_id devs[2];
   cl_uint n = 0;
   CHECK_EQ_INT(clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 2, devs, &n), CL_SUCCESS);
   CHECK_EQ_INT(n, 2);
   if (n < 2)
      return;
   cl_int err;
   cl_context c2 = clCreateContext(NULL, 2, devs, NULL, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_command_queue q[2];
   for (int d = 0; d < 2; d++) {
      q[d] = clCreateCommandQueueWithProperties(c2, devs[d], NULL, &err);
      CHECK_EQ_INT(err, CL_SUCCESS);
   }
   const char *src = kernels_src;
   cl_program prog = clCreateProgramWithSource(c2, 1, &src, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   CHECK_EQ_INT(clBuildProgram(prog, 2, devs, "-cl-std=CL3.0", NULL, NULL), CL_SUCCESS);
   cl_kernel w = clCreateKernel(prog, "w_int4", &err), r = clCreateKernel(prog, "r_int4", &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   enum { N = 256, CAP = 200 };
   cl_mem pipe = clCreatePipe(c2, 0, 16, CAP, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_int src_v[N][4], dst_v[N][4], ok[N];
   cl_mem bsrc = clCreateBuffer(c2, CL_MEM_READ_WRITE, sizeof(src_v), NULL, &err);
   cl_mem bdst = clCreateBuffer(c2, CL_MEM_READ_WRITE, sizeof(dst_v), NULL, &err);
   cl_mem bokw = clCreateBuffer(c2, CL_MEM_READ_WRITE, sizeof(ok), NULL, &err);
   cl_mem bokr = clCreateBuffer(c2, CL_MEM_READ_WRITE, sizeof(ok), NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArg(w, 0, sizeof(bsrc), &bsrc), CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArg(w, 1, sizeof(pipe), &pipe), CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArg(w, 2, sizeof(bokw), &bokw), CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArg(r, 0, sizeof(pipe), &pipe), CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArg(r, 1, sizeof(bdst), &bdst), CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArg(r, 2, sizeof(bokr), &bokr), CL_SUCCESS);
   for (int round = 0; round < 4; round++) {
      int from = round % 2, to = 1 - from;
      for (int i = 0; i < N; i++)
         for (int c = 0; c < 4; c++)
            src_v[i][c] = round * 100000 + i * 4 + c;
      CHECK_EQ_INT(
         clEnqueueWriteBuffer(q[from], bsrc, CL_TRUE, 0, sizeof(src_v), src_v, 0, NULL, NULL),
         CL_SUCCESS);
      size_t gsz = N, lsz = 64;
      cl_event produced;
      CHECK_EQ_INT(clEnqueueNDRangeKernel(q[from], w, 1, NULL, &gsz, &lsz, 0, NULL, &produced),
                   CL_SUCCESS);
      CHECK_EQ_INT(clEnqueueNDRangeKernel(q[to], r, 1, NULL, &gsz, &lsz, 1, &produced, NULL),
                   CL_SUCCESS);
      CHECK_EQ_INT(clFinish(q[to]), CL_SUCCESS);
      clReleaseEvent(produced);
      int okw[N];
      CHECK_EQ_INT(clEnqueueReadBuffer(q[to], bokw, CL_TRUE, 0, sizeof(okw), okw, 0, NULL, NULL),
                   CL_SUCCESS);
      CHECK_EQ_INT(clEnqueueReadBuffer(q[to], bokr, CL_TRUE, 0, sizeof(ok), ok, 0, NULL, NULL),
                   CL_SUCCESS);
      CHECK_EQ_INT(
         clEnqueueReadBuffer(q[to], bdst, CL_TRUE, 0, sizeof(dst_v), dst_v, 0, NULL, NULL),
         CL_SUCCESS);
      unsigned char written[N] = { 0 };
      size_t nw = 0, nr = 0, wrong = 0;
      for (int i = 0; i < N; i++)
         if (okw[i] == 0) {
            written[i] = 1;
            nw++;
         }
      for (int i = 0; i < N; i++) {
         if (ok[i] != 0)
            continue;
         nr++;
         int v = dst_v[i][0] - round * 100000;
         bool good = v >= 0 && v % 4 == 0 && v / 4 < N && written[v / 4];
         for (int c = 1; c < 4 && good; c++)
            good = dst_v[i][c] == dst_v[i][0] + c;
         if (!good)
            wrong++;
         else
            written[v / 4] = 0;
      }
      CHECK_EQ_INT(nw, CAP);
      CHECK_EQ_INT(nr, CAP);
      CHECK_EQ_INT(wrong, 0);
   }
   clReleaseMemObject(pipe);
   clReleaseMemObject(bsrc);
   clReleaseMemObject(bdst);
   clReleaseMemObject(bokw);
   clReleaseMemObject(bokr);
   clReleaseKernel(w);
   clReleaseKernel(r);
   clReleaseProgram(prog);
   for (int d = 0; d < 2; d++)
      clReleaseCommandQueue(q[d]);
   clReleaseContext(c2);
}

/* ---- API --------------------------------------------------------------------------- */

/* The 2.0 profile (argument "2.0"): pipes are core OpenCL C 2.0; CL_DEVICE_PIPE_SUPPORT and
 * CL_DEVICE_OPENCL_C_FEATURES are 3.0 queries, refused there. */
static bool profile20;

static void
test_device_queries(bool v30)
{
   if (profile20) {
      size_t size = 0;
      CHECK_EQ_INT(clGetDeviceInfo(device, CL_DEVICE_PIPE_SUPPORT, 0, NULL, &size),
                   CL_INVALID_VALUE);
      CHECK_EQ_INT(clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES, 0, NULL, &size),
                   CL_INVALID_VALUE);
   } else {
      cl_bool support = !v30;
      CHECK_EQ_INT(
         clGetDeviceInfo(device, CL_DEVICE_PIPE_SUPPORT, sizeof(support), &support, NULL),
         CL_SUCCESS);
      CHECK_EQ_INT(support, v30 ? CL_TRUE : CL_FALSE);
      CHECK_EQ_INT(test_device_lists(device, CL_DEVICE_OPENCL_C_FEATURES, "__opencl_c_pipes"),
                   v30);
   }
   if (!v30)
      return;
   cl_uint v = 0;
   CHECK_EQ_INT(clGetDeviceInfo(device, CL_DEVICE_MAX_PIPE_ARGS, sizeof(v), &v, NULL), CL_SUCCESS);
   CHECK_EQ_INT(v, 16);
   CHECK_EQ_INT(
      clGetDeviceInfo(device, CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS, sizeof(v), &v, NULL),
      CL_SUCCESS);
   CHECK_EQ_INT(v, 16);
   CHECK_EQ_INT(clGetDeviceInfo(device, CL_DEVICE_PIPE_MAX_PACKET_SIZE, sizeof(v), &v, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(v, MAX_PACKET);
}

static void
test_create_errors(bool v30)
{
   cl_int err = CL_SUCCESS;
   /* The context first. */
   CHECK(clCreatePipe(NULL, 0, 4, 16, NULL, &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_CONTEXT);
   CHECK(clCreatePipe((cl_context)device, 0, 4, 16, NULL, &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_CONTEXT);
   /* Flags: only CL_MEM_READ_WRITE and CL_MEM_HOST_NO_ACCESS. */
   static const cl_mem_flags bad_flags[] = {
      CL_MEM_READ_ONLY,
      CL_MEM_WRITE_ONLY,
      CL_MEM_USE_HOST_PTR,
      CL_MEM_ALLOC_HOST_PTR,
      CL_MEM_COPY_HOST_PTR,
      CL_MEM_HOST_READ_ONLY,
      CL_MEM_HOST_WRITE_ONLY,
      CL_MEM_KERNEL_READ_AND_WRITE,
      CL_MEM_READ_WRITE | CL_MEM_HOST_READ_ONLY,
      (cl_mem_flags)1 << 40,
   };
   for (size_t i = 0; i < sizeof(bad_flags) / sizeof(bad_flags[0]); i++) {
      err = CL_SUCCESS;
      CHECK(clCreatePipe(ctx, bad_flags[i], 4, 16, NULL, &err) == NULL);
      CHECK_EQ_INT(err, CL_INVALID_VALUE);
   }
   /* Properties must be NULL: an empty list is not NULL. */
   cl_pipe_properties props[] = { 0 };
   CHECK(clCreatePipe(ctx, 0, 4, 16, props, &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_VALUE);
   /* Flags come before properties, properties before sizes. */
   CHECK(clCreatePipe(ctx, CL_MEM_READ_ONLY, 0, 0, props, &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_VALUE);
   CHECK(clCreatePipe(ctx, 0, 0, 0, props, &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_VALUE);
   if (!v30) {
      /* No device supports pipes. */
      CHECK(clCreatePipe(ctx, 0, 4, 16, NULL, &err) == NULL);
      CHECK_EQ_INT(err, CL_INVALID_OPERATION);
      CHECK(clCreatePipe(ctx, CL_MEM_READ_WRITE, 4, 16, NULL, NULL) == NULL);
      return;
   }
   /* Sizes. */
   CHECK(clCreatePipe(ctx, 0, 0, 16, NULL, &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_PIPE_SIZE);
   CHECK(clCreatePipe(ctx, 0, MAX_PACKET + 1, 16, NULL, &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_PIPE_SIZE);
   CHECK(clCreatePipe(ctx, 0, UINT_MAX, 16, NULL, &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_PIPE_SIZE);
   CHECK(clCreatePipe(ctx, 0, 4, 0, NULL, &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_PIPE_SIZE);
   /* 1024 * (2^32 - 1) bytes: more than the device can allocate. */
   CHECK(clCreatePipe(ctx, 0, MAX_PACKET, UINT_MAX, NULL, &err) == NULL);
   CHECK_EQ_INT(err, CL_MEM_OBJECT_ALLOCATION_FAILURE);
   /* The limits themselves work; errcode_ret may be NULL. */
   cl_mem p =
      clCreatePipe(ctx, CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS, MAX_PACKET, 1, NULL, NULL);
   CHECK(p != NULL);
   clReleaseMemObject(p);
}

static void
test_info(void)
{
   cl_int err;
   struct {
      cl_mem_flags given, reported;
   } flags[] = {
      { 0, CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS },
      { CL_MEM_READ_WRITE, CL_MEM_READ_WRITE },
      { CL_MEM_HOST_NO_ACCESS, CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS },
      { CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS, CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS },
   };
   for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
      cl_mem p = clCreatePipe(ctx, flags[i].given, 12, 100, NULL, &err);
      CHECK_EQ_INT(err, CL_SUCCESS);
      cl_mem_flags f = 0;
      CHECK_EQ_INT(clGetMemObjectInfo(p, CL_MEM_FLAGS, sizeof(f), &f, NULL), CL_SUCCESS);
      CHECK_EQ_INT(f, flags[i].reported);
      clReleaseMemObject(p);
   }

   cl_mem p = make_pipe(12, 100);
   cl_uint v = 0;
   size_t size = 0;
   CHECK_EQ_INT(clGetPipeInfo(p, CL_PIPE_PACKET_SIZE, sizeof(v), &v, &size), CL_SUCCESS);
   CHECK_EQ_INT(v, 12);
   CHECK_EQ_INT(size, sizeof(cl_uint));
   CHECK_EQ_INT(clGetPipeInfo(p, CL_PIPE_MAX_PACKETS, sizeof(v), &v, NULL), CL_SUCCESS);
   CHECK_EQ_INT(v, 100);
   size = 99;
   CHECK_EQ_INT(clGetPipeInfo(p, CL_PIPE_PROPERTIES, 0, NULL, &size), CL_SUCCESS);
   CHECK_EQ_INT(size, 0);
   CHECK_EQ_INT(clGetPipeInfo(p, CL_PIPE_PACKET_SIZE, 0, NULL, &size), CL_SUCCESS);
   CHECK_EQ_INT(size, sizeof(cl_uint));
   CHECK_EQ_INT(clGetPipeInfo(p, CL_PIPE_PACKET_SIZE, 2, &v, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(clGetPipeInfo(p, CL_MEM_SIZE, sizeof(v), &v, NULL), CL_INVALID_VALUE);
   cl_mem buf = buffer(64, NULL);
   CHECK_EQ_INT(clGetPipeInfo(buf, CL_PIPE_PACKET_SIZE, sizeof(v), &v, NULL),
                CL_INVALID_MEM_OBJECT);
   CHECK_EQ_INT(clGetPipeInfo(NULL, CL_PIPE_PACKET_SIZE, sizeof(v), &v, NULL),
                CL_INVALID_MEM_OBJECT);

   /* clGetMemObjectInfo: a pipe, its size at least its packets, reference counted. */
   cl_mem_object_type type = 0;
   CHECK_EQ_INT(clGetMemObjectInfo(p, CL_MEM_TYPE, sizeof(type), &type, NULL), CL_SUCCESS);
   CHECK_EQ_INT(type, CL_MEM_OBJECT_PIPE);
   CHECK_EQ_INT(clGetMemObjectInfo(p, CL_MEM_SIZE, sizeof(size), &size, NULL), CL_SUCCESS);
   CHECK(size >= 12 * 100);
   cl_context c = NULL;
   CHECK_EQ_INT(clGetMemObjectInfo(p, CL_MEM_CONTEXT, sizeof(c), &c, NULL), CL_SUCCESS);
   CHECK(c == ctx);
   void *hp = (void *)1;
   CHECK_EQ_INT(clGetMemObjectInfo(p, CL_MEM_HOST_PTR, sizeof(hp), &hp, NULL), CL_SUCCESS);
   CHECK(hp == NULL);
   CHECK_EQ_INT(clRetainMemObject(p), CL_SUCCESS);
   cl_uint refs = 0;
   CHECK_EQ_INT(clGetMemObjectInfo(p, CL_MEM_REFERENCE_COUNT, sizeof(refs), &refs, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(refs, 2);
   CHECK_EQ_INT(clReleaseMemObject(p), CL_SUCCESS);

   /* The host cannot read, write, fill, copy, map, unmap or sub-divide a pipe (§5.2: these
    * take buffer objects; clEnqueueUnmapMemObject names pipes). */
   char host[64] = { 0 };
   CHECK_EQ_INT(clEnqueueReadBuffer(queue, p, CL_TRUE, 0, 4, host, 0, NULL, NULL),
                CL_INVALID_MEM_OBJECT);
   CHECK_EQ_INT(clEnqueueWriteBuffer(queue, p, CL_TRUE, 0, 4, host, 0, NULL, NULL),
                CL_INVALID_MEM_OBJECT);
   CHECK_EQ_INT(clEnqueueFillBuffer(queue, p, host, 4, 0, 4, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
   CHECK_EQ_INT(clEnqueueCopyBuffer(queue, p, buf, 0, 0, 4, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
   CHECK_EQ_INT(clEnqueueCopyBuffer(queue, buf, p, 0, 0, 4, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
   err = CL_SUCCESS;
   CHECK(clEnqueueMapBuffer(queue, p, CL_TRUE, CL_MAP_READ, 0, 4, 0, NULL, NULL, &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_MEM_OBJECT);
   CHECK_EQ_INT(clEnqueueUnmapMemObject(queue, p, host, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
   cl_buffer_region region = { 0, 4 };
   CHECK(clCreateSubBuffer(p, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_MEM_OBJECT);
   CHECK_EQ_INT(clReleaseMemObject(p), CL_SUCCESS);
   clReleaseMemObject(buf);
}

static void
test_kernel_args(cl_program prog)
{
   cl_kernel w = kernel(prog, "w_int");
   cl_mem buf = buffer(64, NULL);
   cl_mem pipe = make_pipe(4, 16);
   /* A buffer, a NULL handle, or a non-object for the pipe parameter; a pipe for a buffer
    * parameter; the wrong size; NULL arg_value. */
   CHECK_EQ_INT(clSetKernelArg(w, 1, sizeof(buf), &buf), CL_INVALID_MEM_OBJECT);
   cl_mem null_mem = NULL;
   CHECK_EQ_INT(clSetKernelArg(w, 1, sizeof(null_mem), &null_mem), CL_INVALID_MEM_OBJECT);
   cl_mem junk = (cl_mem)device;
   CHECK_EQ_INT(clSetKernelArg(w, 1, sizeof(junk), &junk), CL_INVALID_MEM_OBJECT);
   CHECK_EQ_INT(clSetKernelArg(w, 0, sizeof(pipe), &pipe), CL_INVALID_MEM_OBJECT);
   CHECK_EQ_INT(clSetKernelArg(w, 1, 4, &pipe), CL_INVALID_ARG_SIZE);
   CHECK_EQ_INT(clSetKernelArg(w, 1, sizeof(pipe), NULL), CL_INVALID_ARG_VALUE);
   CHECK_EQ_INT(clSetKernelArg(w, 1, sizeof(pipe), &pipe), CL_SUCCESS);
   /* A pipe of another context. */
   cl_int err;
   cl_context ctx2 = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_mem pipe2 = clCreatePipe(ctx2, 0, 4, 16, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArg(w, 1, sizeof(pipe2), &pipe2), CL_INVALID_MEM_OBJECT);
   clReleaseMemObject(pipe2);
   clReleaseContext(ctx2);
   /* An unset pipe argument fails the launch. */
   cl_kernel r = kernel(prog, "r_int");
   set_mem(r, 1, buf);
   set_mem(r, 2, buf);
   size_t n = 1;
   CHECK_EQ_INT(clEnqueueNDRangeKernel(queue, r, 1, NULL, &n, NULL, 0, NULL, NULL),
                CL_INVALID_KERNEL_ARGS);
   clReleaseKernel(r);

   /* clGetKernelArgInfo (built with -cl-kernel-arg-info). */
   cl_kernel_arg_type_qualifier tq = 0;
   CHECK_EQ_INT(clGetKernelArgInfo(w, 1, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof(tq), &tq, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(tq, CL_KERNEL_ARG_TYPE_PIPE);
   CHECK_EQ_INT(clGetKernelArgInfo(w, 0, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof(tq), &tq, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(tq & CL_KERNEL_ARG_TYPE_PIPE, 0);
   cl_kernel_arg_access_qualifier aq = 0;
   CHECK_EQ_INT(clGetKernelArgInfo(w, 1, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof(aq), &aq, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(aq, CL_KERNEL_ARG_ACCESS_WRITE_ONLY);
   cl_kernel_arg_address_qualifier adq = 0;
   CHECK_EQ_INT(clGetKernelArgInfo(w, 1, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof(adq), &adq, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(adq, CL_KERNEL_ARG_ADDRESS_GLOBAL);
   char name[64] = "";
   CHECK_EQ_INT(clGetKernelArgInfo(w, 1, CL_KERNEL_ARG_TYPE_NAME, sizeof(name), name, NULL),
                CL_SUCCESS);
   CHECK_STR(name, "int");
   CHECK_EQ_INT(clGetKernelArgInfo(w, 1, CL_KERNEL_ARG_NAME, sizeof(name), name, NULL), CL_SUCCESS);
   CHECK_STR(name, "p");
   cl_kernel rs = kernel(prog, "r_s");
   CHECK_EQ_INT(clGetKernelArgInfo(rs, 0, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof(aq), &aq, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(aq, CL_KERNEL_ARG_ACCESS_READ_ONLY);
   CHECK_EQ_INT(clGetKernelArgInfo(rs, 0, CL_KERNEL_ARG_TYPE_NAME, sizeof(name), name, NULL),
                CL_SUCCESS);
   CHECK_STR(name, "S");
   clReleaseKernel(rs);

   clReleaseMemObject(pipe);
   clReleaseMemObject(buf);
   clReleaseKernel(w);
}

/* OpenCL C 3.0 without the feature in the 1.2 profile: the pipe keyword is not a type. */
static void
test_profile_12(void)
{
   cl_int err;
   const char *src = "kernel void k(read_only pipe int p) {}\n";
   cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   CHECK(clBuildProgram(p, 1, &device, "", NULL, NULL) != CL_SUCCESS);
   clReleaseProgram(p);
}

/* api_pipe_test 3.0|1.2 KERNELS.cl [2gpus | spirv KERNELS.spv] */
int
main(int argc, char **argv)
{
   if (argc < 3 || !(kernels_src = read_file(argv[2], NULL))) {
      fprintf(stderr, "usage: api_pipe_test 3.0|1.2 KERNELS.cl [2gpus | spirv KERNELS.spv]\n");
      return 1;
   }
   bool v30 = strcmp(argv[1], "1.2") != 0; /* pipes: every profile but 1.2 */
   profile20 = !strcmp(argv[1], "2.0");
   bool two_gpus = argc > 3 && !strcmp(argv[3], "2gpus");
   char *il = NULL;
   if (argc > 4 && !strcmp(argv[3], "spirv")) {
      if (!(il = read_file(argv[4], &kernels_il_size))) {
         fprintf(stderr, "cannot read %s\n", argv[4]);
         return 1;
      }
      kernels_il = (const unsigned char *)il;
   }
   cl_uint n = 0;
   if (clGetPlatformIDs(1, &platform, &n) != CL_SUCCESS || n == 0 ||
       clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &device, NULL) != CL_SUCCESS) {
      fprintf(stderr, "no hsacl platform or GPU device\n");
      return 1;
   }
   test_watchdog("api_pipe", 280);
   cl_int err;
   ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   queue = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   queue2 = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);

   test_device_queries(v30);
   test_create_errors(v30);
   if (v30 && two_gpus) {
      test_two_devices();
   } else if (v30) {
      if (!kernels_il)
         test_info();
      const char *const options[] = {
         profile20 ? "-cl-std=CL2.0 -cl-kernel-arg-info" : "-cl-std=CL3.0 -cl-kernel-arg-info",
         profile20 ? "-cl-std=CL2.0 -cl-opt-disable" : "-cl-std=CL3.0 -cl-opt-disable"
      };
      for (size_t o = 0; o < 2; o++) {
         cl_program prog = build(options[o]);
         if (!prog)
            continue;
         if (o == 0 && !kernels_il)
            test_kernel_args(prog);
         for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
            test_by_value(prog, &kinds[k], kinds[k].size == MAX_PACKET ? 40 : 300, k % 2 ? 64 : 0);
         /* Reservations: per work-item of 3 packets, work-groups of 64 and of 100 (two
          * sub-groups of 64, the second partial), sub-groups (of the wave size). */
         test_reservations(prog, "rsv", 256, 64, 1, 3, 500);
         test_reservations(prog, "wg", 512, 64, 64, 1, 300);
         test_reservations(prog, "wg", 400, 100, 100, 1, 250);
         test_reservations(prog, "sg", 512, 128, test_sim_wave_size(), 1, 200);
         test_two_queues(prog);
         clReleaseProgram(prog);
      }
   } else {
      test_profile_12();
   }

   clReleaseCommandQueue(queue2);
   clReleaseCommandQueue(queue);
   clReleaseContext(ctx);
   free(kernels_src);
   free(il);
   return test_main_end();
}
