/*
 * tests/memory/api_svm_fine_test.c — fine-grained buffer SVM with atomics (OpenCL 3.0 API §5.6.1,
 * OpenCL C §6.15.12 memory_scope_all_svm_devices) through the loader:
 *   - clSVMAlloc's flags and errors, alignment, CL_MEM_USES_SVM_POINTER of a buffer on
 *     fine-grained memory, CL_DEVICE_GLOBAL_FREE_MEMORY_AMD (coarse-grained SVM is device
 *     memory, fine-grained is system memory);
 *   - host writes a kernel sees without a map and the reverse; the SVM commands (memcpy,
 *     fill, map/unmap) and kernel arguments (clSetKernelArgSVMPointer with an offset,
 *     CL_KERNEL_EXEC_INFO_SVM_PTRS) on fine-grained allocations;
 *   - while a kernel runs: the host and the kernel incrementing one counter (C11 atomics on
 *     the host; atomic_fetch_add_explicit at all_svm_devices scope and OpenCL 1.2's
 *     atomic_inc in the kernel; the exact final count), and a producer/consumer handshake
 *     (release/acquire at all_svm_devices scope both ways, data passed with plain stores);
 *   - a negative control on coarse-grained SVM: under the software GPU's L2 model
 *     (HSACL_SIM_CACHE=check) a kernel does not see what the host stored after its L2 read
 *     the line, and the host does not see the kernel's system-scope store before the
 *     kernel ends, as on gfx906 (coarse-grained memory is coherent at dispatch boundaries
 *     only); fine-grained memory in the same kernel is seen both ways;
 *   - the checking mode's vector L1 (sim/isa/sim_l1.c) on coarse-grained memory: a CU's
 *     plain load after another work-group's release, seen only through a relaxed load, may
 *     return the line it read before; after an agent-scope acquire it may not;
 *   - with two GPUs (HSACL_KFD_GPUS=2): one allocation written by kernels of both without
 *     maps, and both GPUs and the host incrementing one counter at once.
 * Every wait has a bound (the kernels count spins, the host counts seconds), so a failure
 * fails rather than hangs.
 *
 * argv[1]: "plain" (the mode the environment says), "check" (sets HSACL_SIM_CACHE=check
 * before the runtime starts), or "1.2" (run with HSACL_OPENCL_VERSION=1.2: no SVM at all, clSVMAlloc returns NULL),
 * or "2.0" (HSACL_OPENCL_VERSION=2.0: all of it, kernels in OpenCL C 2.0).
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext.h>

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "hsacl_test.h"

static cl_context ctx;
static cl_device_id device;
static cl_command_queue q;
static bool checking;

/* Spins a kernel makes before it gives up on a flag (a few seconds of the interpreter). */
#define KERNEL_SPIN_LIMIT "20000000"
/* Seconds the host waits for a kernel's flag. */
#define HOST_TIMEOUT 60.0

static const char *source =
   "#define SCOPE memory_scope_all_svm_devices\n"
   "#define LIMIT " KERNEL_SPIN_LIMIT "\n"
   "kernel void bump(global int *p) { size_t i = get_global_id(0); p[i] = p[i] * 2 + (int)i; }\n"
   "typedef struct ref { global int *p; } ref;\n"
   "kernel void gather(global const ref *refs, global int *out) {\n"
   "   size_t i = get_global_id(0);\n"
   "   out[i] = *refs[i].p;\n"
   "}\n"
   /* flags[0]: kernel -> host "started"; flags[1]: host -> kernel "host done";
    * flags[2]: 1 when work-item 0 saw flags[1], -1 when it gave up; flags[3]: the count
    * work-item 0 read after it saw flags[1]; flags[4]: host -> kernel "go" (the host
    * increments from then on too). */
   "kernel void count(global atomic_int *ctr, global atomic_int *flags, int per_item) {\n"
   "   size_t i = get_global_id(0);\n"
   "   if (i == 0) atomic_store_explicit(&flags[0], 1, memory_order_release, SCOPE);\n"
   "   int wait = 0;\n"
   "   while (atomic_load_explicit(&flags[4], memory_order_acquire, SCOPE) == 0 &&\n"
   "          ++wait < LIMIT)\n"
   "      ;\n"
   "   for (int k = 0; k < per_item; k++) {\n"
   "      if (i & 1) atomic_fetch_add_explicit(ctr, 1, memory_order_relaxed, SCOPE);\n"
   "      else atomic_inc((volatile global int *)ctr);\n"
   "   }\n"
   "   if (i == 0) {\n"
   "      int spins = 0;\n"
   "      while (atomic_load_explicit(&flags[1], memory_order_acquire, SCOPE) == 0 &&\n"
   "             ++spins < LIMIT)\n"
   "         ;\n"
   "      atomic_store_explicit(&flags[3], atomic_load_explicit(ctr, memory_order_relaxed,\n"
   "                            SCOPE), memory_order_relaxed, SCOPE);\n"
   "      atomic_store_explicit(&flags[2], spins < LIMIT ? 1 : -1, memory_order_release,\n"
   "                            SCOPE);\n"
   "   }\n"
   "}\n"
   /* Round r: the host writes data[0..15] with plain stores and releases flag = 2r + 1; the
    * kernel acquires it, writes the sum to out[r] with a plain store and releases
    * flag = 2r + 2. out[rounds]: 1 when every round was seen, -1 - r when round r was not. */
   "kernel void pingpong(global atomic_int *flag, global int *data, global int *out,\n"
   "                     int rounds) {\n"
   "   for (int r = 0; r < rounds; r++) {\n"
   "      int spins = 0;\n"
   "      while (atomic_load_explicit(flag, memory_order_acquire, SCOPE) != 2 * r + 1) {\n"
   "         if (++spins == LIMIT) { out[rounds] = -1 - r; return; }\n"
   "      }\n"
   "      int s = 0;\n"
   "      for (int j = 0; j < 16; j++) s += data[j] * (j + 1);\n"
   "      out[r] = s;\n"
   "      atomic_store_explicit(flag, 2 * r + 2, memory_order_release, SCOPE);\n"
   "   }\n"
   "   out[rounds] = 1;\n"
   "}\n"
   /* mem[0] is the word the host stores to after the kernel read it; mem[16] (another
    * 64-byte line) the word the kernel stores to. fine[0]: kernel -> host "read and
    * stored"; fine[1]: host -> kernel "stored and looked". out: the first read of mem[0],
    * the second, 1 when fine[1] was seen. */
   "kernel void visibility(global atomic_int *mem, global atomic_int *fine, global int *out) {\n"
   "   int first = atomic_load_explicit(&mem[0], memory_order_acquire, SCOPE);\n"
   "   atomic_store_explicit(&mem[16], 42, memory_order_release, SCOPE);\n"
   "   atomic_store_explicit(&fine[0], 1, memory_order_release, SCOPE);\n"
   "   int spins = 0;\n"
   "   while (atomic_load_explicit(&fine[1], memory_order_acquire, SCOPE) == 0 &&\n"
   "          ++spins < LIMIT)\n"
   "      ;\n"
   "   out[0] = first;\n"
   "   out[1] = atomic_load_explicit(&mem[0], memory_order_acquire, SCOPE);\n"
   "   out[2] = spins < LIMIT;\n"
   "}\n"
   /* Two work-groups of one agent: group 0 reads mem[0..31] (every lane: a vector load, so
    * its CU's L1 gets two lines; a uniform first load would be a scalar one), group 1
    * then stores mem[0..2] = 7, 8, 9 and mem[17] = 11 and releases; group 0 sees the
    * release through a relaxed load, reads mem[1] with a plain load and mem[17] with a
    * relaxed atomic load (GLC: it misses in the L1), then fences with acquire and reads
    * mem[2]. out: the first read, the plain, the fenced read, 1 per group that saw its
    * partner, the atomic read. */
   "kernel void l1(global int *mem, global atomic_int *flags, global int *out) {\n"
   "   int a = get_group_id(0) == 0 ? mem[get_local_id(0) & 31] : 0;\n"
   "   if (get_local_id(0) != 0) return;\n"
   "   int spins = 0;\n"
   "   if (get_group_id(0) == 0) {\n"
   "      atomic_store_explicit(&flags[0], 1, memory_order_release, memory_scope_device);\n"
   "      while (atomic_load_explicit(&flags[1], memory_order_relaxed, memory_scope_device)\n"
   "             == 0 && ++spins < LIMIT)\n"
   "         ;\n"
   "      int b = mem[1];\n"
   "      out[5] = atomic_load_explicit((global atomic_int *)&mem[17], memory_order_relaxed,\n"
   "                                    memory_scope_device);\n"
   "      atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acquire,\n"
   "                             memory_scope_device);\n"
   "      int c = mem[2];\n"
   "      out[0] = a; out[1] = b; out[2] = c; out[3] = spins < LIMIT;\n"
   "   } else {\n"
   "      while (atomic_load_explicit(&flags[0], memory_order_acquire, memory_scope_device)\n"
   "             == 0 && ++spins < LIMIT)\n"
   "         ;\n"
   "      mem[0] = 7; mem[1] = 8; mem[2] = 9; mem[17] = 11;\n"
   "      atomic_store_explicit(&flags[1], 1, memory_order_release, memory_scope_device);\n"
   "      out[4] = spins < LIMIT;\n"
   "   }\n"
   "}\n";

static double
now(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Waits until *flag == want (acquire); false after HOST_TIMEOUT seconds. */
static bool
wait_flag(_Atomic int *flag, int want)
{
   double end = now() + HOST_TIMEOUT;
   while (atomic_load_explicit(flag, memory_order_acquire) != want) {
      if (now() > end)
         return false;
   }
   return true;
}

/* "-cl-std=CL3.0", or CL2.0 in the 2.0 profile (argument "2.0"). */
static const char *std_option = "-cl-std=CL3.0";
static bool profile20;

static cl_program
build(const char *src)
{
   cl_int err;
   cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   err = clBuildProgram(p, 1, &device, std_option, NULL, NULL);
   if (err != CL_SUCCESS) {
      char log[8192] = "";
      clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, sizeof(log), log, NULL);
      fprintf(stderr, "build failed: %d\n%s\n", err, log);
   }
   CHECK_EQ_INT(err, CL_SUCCESS);
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

static void
test_capabilities(void)
{
   cl_device_svm_capabilities caps = 0;
   CHECK_EQ_INT(clGetDeviceInfo(device, CL_DEVICE_SVM_CAPABILITIES, sizeof(caps), &caps, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(caps, CL_DEVICE_SVM_COARSE_GRAIN_BUFFER | CL_DEVICE_SVM_FINE_GRAIN_BUFFER |
                         CL_DEVICE_SVM_ATOMICS);
   cl_device_atomic_capabilities atomics = 0;
   if (profile20) {
      /* A 3.0 query; OpenCL C 2.0 has every order and scope. */
      CHECK_EQ_INT(clGetDeviceInfo(device, CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES, sizeof(atomics),
                                   &atomics, NULL),
                   CL_INVALID_VALUE);
      return;
   }
   CHECK_EQ_INT(clGetDeviceInfo(device, CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES, sizeof(atomics),
                                &atomics, NULL),
                CL_SUCCESS);
   CHECK(atomics & CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES);
   CHECK(atomics & CL_DEVICE_ATOMIC_ORDER_ACQ_REL);
}

static void
test_alloc_flags(void)
{
   static const cl_svm_mem_flags good[] = {
      CL_MEM_SVM_FINE_GRAIN_BUFFER,
      CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS,
      CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER,
      CL_MEM_READ_ONLY | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS,
      CL_MEM_WRITE_ONLY | CL_MEM_SVM_FINE_GRAIN_BUFFER,
   };
   for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
      int *p = clSVMAlloc(ctx, good[i], 4096, 0);
      CHECK(p != NULL);
      if (!p)
         continue;
      CHECK(((uintptr_t)p & 127) == 0);
      p[0] = 1;
      p[1023] = 2; /* the host reaches it without a map */
      CHECK_EQ_INT(p[0] + p[1023], 3);
      clSVMFree(ctx, p);
   }
   for (cl_uint align = 1; align <= (1u << 21); align <<= 3) {
      void *p = clSVMAlloc(ctx, CL_MEM_SVM_FINE_GRAIN_BUFFER, 1000, align);
      CHECK(p != NULL);
      CHECK(((uintptr_t)p & (align - 1)) == 0);
      clSVMFree(ctx, p);
   }
   /* ATOMICS without FINE_GRAIN_BUFFER, two access flags, unknown bits, alignment, size. */
   CHECK(clSVMAlloc(ctx, CL_MEM_SVM_ATOMICS, 4096, 0) == NULL);
   CHECK(clSVMAlloc(ctx, CL_MEM_READ_WRITE | CL_MEM_SVM_ATOMICS, 4096, 0) == NULL);
   CHECK(clSVMAlloc(ctx, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY | CL_MEM_SVM_FINE_GRAIN_BUFFER,
                    4096, 0) == NULL);
   CHECK(clSVMAlloc(ctx, CL_MEM_USE_HOST_PTR | CL_MEM_SVM_FINE_GRAIN_BUFFER, 4096, 0) == NULL);
   CHECK(clSVMAlloc(ctx, (cl_svm_mem_flags)1 << 40 | CL_MEM_SVM_FINE_GRAIN_BUFFER, 4096, 0) ==
         NULL);
   CHECK(clSVMAlloc(ctx, CL_MEM_SVM_FINE_GRAIN_BUFFER, 4096, 3) == NULL);
   CHECK(clSVMAlloc(ctx, CL_MEM_SVM_FINE_GRAIN_BUFFER, 4096, 1u << 22) == NULL);
   CHECK(clSVMAlloc(ctx, CL_MEM_SVM_FINE_GRAIN_BUFFER, 0, 0) == NULL);
   cl_ulong max_alloc = 0;
   CHECK_EQ_INT(clGetDeviceInfo(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof(max_alloc),
                                &max_alloc, NULL),
                CL_SUCCESS);
   CHECK(clSVMAlloc(ctx, CL_MEM_SVM_FINE_GRAIN_BUFFER, (size_t)max_alloc + 1, 0) == NULL);
   CHECK(clSVMAlloc(NULL, CL_MEM_SVM_FINE_GRAIN_BUFFER, 4096, 0) == NULL);
   /* Freeing an interior pointer is an error (logged), not a free. */
   int *p = clSVMAlloc(ctx, CL_MEM_SVM_FINE_GRAIN_BUFFER, 8192, 0);
   CHECK(p != NULL);
   if (p) {
      clSVMFree(ctx, p + 4);
      p[2047] = 5;
      CHECK_EQ_INT(p[2047], 5);
      clSVMFree(ctx, p);
   }
}

/* A buffer created with CL_MEM_USE_HOST_PTR on fine-grained memory uses the SVM pointer. */
static void
test_uses_svm_pointer(void)
{
   int *p = clSVMAlloc(ctx, CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS, 65536, 0);
   CHECK(p != NULL);
   if (!p)
      return;
   cl_int err;
   cl_mem m = clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, 4096, p + 1024, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_bool svm = CL_FALSE;
   CHECK_EQ_INT(clGetMemObjectInfo(m, CL_MEM_USES_SVM_POINTER, sizeof(svm), &svm, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(svm, CL_TRUE);
   void *host = NULL;
   CHECK_EQ_INT(clGetMemObjectInfo(m, CL_MEM_HOST_PTR, sizeof(host), &host, NULL), CL_SUCCESS);
   CHECK(host == (void *)(p + 1024));
   /* The buffer's contents are the allocation's words. */
   p[1024] = 77;
   int got = 0;
   CHECK_EQ_INT(clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof(got), &got, 0, NULL, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(got, 77);
   int v = 91;
   CHECK_EQ_INT(clEnqueueWriteBuffer(q, m, CL_TRUE, 4, sizeof(v), &v, 0, NULL, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(p[1025], 91);
   /* Past the end of the allocation: CL_INVALID_BUFFER_SIZE. */
   cl_mem bad = clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, 4096, p + 16384 - 512, &err);
   CHECK(bad == NULL);
   CHECK_EQ_INT(err, CL_INVALID_BUFFER_SIZE);
   clReleaseMemObject(m);
   clSVMFree(ctx, p);
}

static size_t
free_kib(void)
{
   size_t kib[2] = { 0, 0 };
   CHECK_EQ_INT(clGetDeviceInfo(device, CL_DEVICE_GLOBAL_FREE_MEMORY_AMD, sizeof(kib), kib,
                                NULL),
                CL_SUCCESS);
   return kib[0];
}

/* Device memory (coarse-grained SVM, buffers) counts in CL_DEVICE_GLOBAL_FREE_MEMORY_AMD;
 * fine-grained SVM is system memory and does not. */
static void
test_free_memory(void)
{
   cl_ulong global = 0;
   CHECK_EQ_INT(clGetDeviceInfo(device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof(global), &global,
                                NULL),
                CL_SUCCESS);
   size_t before = free_kib();
   CHECK(before <= global / 1024);
   void *coarse = clSVMAlloc(ctx, CL_MEM_READ_WRITE, 64u << 20, 0);
   CHECK(coarse != NULL);
   size_t with_coarse = free_kib();
   void *fine = clSVMAlloc(ctx, CL_MEM_SVM_FINE_GRAIN_BUFFER, 64u << 20, 0);
   CHECK(fine != NULL);
   size_t with_fine = free_kib();
   cl_int err;
   cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 32u << 20, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   size_t with_buffer = free_kib();
   CHECK_EQ_INT(before - with_coarse, 64 * 1024);
   CHECK_EQ_INT(with_coarse - with_fine, 0);
   CHECK_EQ_INT(with_fine - with_buffer, 32 * 1024);
   clReleaseMemObject(b);
   clSVMFree(ctx, coarse);
   clSVMFree(ctx, fine);
   CHECK_EQ_INT(free_kib(), before);
}

/* Host stores a kernel sees without a map, and kernel stores the host sees after the
 * kernel completes; the SVM commands on fine-grained memory. */
static void
test_no_map(cl_program prog)
{
   enum { N = 4096 };
   int *a = clSVMAlloc(ctx, CL_MEM_SVM_FINE_GRAIN_BUFFER, N * sizeof(int), 0);
   int *b = clSVMAlloc(ctx, CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS,
                       N * sizeof(int), 0);
   int *c = clSVMAlloc(ctx, CL_MEM_READ_WRITE, N * sizeof(int), 0); /* coarse */
   CHECK(a && b && c);
   if (!a || !b || !c)
      goto out;
   for (int i = 0; i < N; i++)
      a[i] = i;
   cl_kernel k = kernel(prog, "bump");
   /* The second half, through an offset pointer. */
   CHECK_EQ_INT(clSetKernelArgSVMPointer(k, 0, a + N / 2), CL_SUCCESS);
   size_t g = N / 2;
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
   int bad = 0;
   for (int i = 0; i < N; i++)
      bad += a[i] != (i < N / 2 ? i : i * 2 + (i - N / 2));
   CHECK_EQ_INT(bad, 0);

   /* Fill, copy fine -> coarse -> fine, map/unmap (order only). */
   int pattern = 0x5a5a1234;
   CHECK_EQ_INT(clEnqueueSVMMemFill(q, b, &pattern, sizeof(pattern), N * sizeof(int), 0, NULL,
                                    NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
   bad = 0;
   for (int i = 0; i < N; i++)
      bad += b[i] != pattern;
   CHECK_EQ_INT(bad, 0);
   CHECK_EQ_INT(clEnqueueSVMMemcpy(q, CL_FALSE, c, a, N * sizeof(int), 0, NULL, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueSVMMemcpy(q, CL_TRUE, b + 1, c, (N - 1) * sizeof(int), 0, NULL, NULL),
                CL_SUCCESS);
   bad = 0;
   for (int i = 1; i < N; i++)
      bad += b[i] != a[i - 1];
   CHECK_EQ_INT(bad, 0);
   CHECK_EQ_INT(b[0], pattern);
   CHECK_EQ_INT(clEnqueueSVMMap(q, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, b, N * sizeof(int), 0,
                                NULL, NULL),
                CL_SUCCESS);
   b[5] = -5;
   CHECK_EQ_INT(clEnqueueSVMUnmap(q, b, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
   CHECK_EQ_INT(b[5], -5);
   /* Unmap of a pointer outside every allocation is still an error. */
   int local = 0;
   CHECK_EQ_INT(clEnqueueSVMUnmap(q, &local, 0, NULL, NULL), CL_INVALID_VALUE);

   /* Pointers the kernel reaches only through memory: CL_KERNEL_EXEC_INFO_SVM_PTRS. */
   cl_kernel gk = kernel(prog, "gather");
   int **refs = clSVMAlloc(ctx, CL_MEM_SVM_FINE_GRAIN_BUFFER, 64 * sizeof(int *), 0);
   int *out = clSVMAlloc(ctx, CL_MEM_SVM_FINE_GRAIN_BUFFER, 64 * sizeof(int), 0);
   CHECK(refs && out);
   if (refs && out) {
      for (int i = 0; i < 64; i++) {
         refs[i] = &a[(i * 37) % N];
         out[i] = -1;
      }
      void *ptrs[] = { a };
      CHECK_EQ_INT(clSetKernelExecInfo(gk, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof(ptrs), ptrs),
                   CL_SUCCESS);
      CHECK_EQ_INT(clSetKernelArgSVMPointer(gk, 0, refs), CL_SUCCESS);
      CHECK_EQ_INT(clSetKernelArgSVMPointer(gk, 1, out), CL_SUCCESS);
      g = 64;
      CHECK_EQ_INT(clEnqueueNDRangeKernel(q, gk, 1, NULL, &g, NULL, 0, NULL, NULL),
                   CL_SUCCESS);
      CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
      bad = 0;
      for (int i = 0; i < 64; i++)
         bad += out[i] != a[(i * 37) % N];
      CHECK_EQ_INT(bad, 0);
   }
   clSVMFree(ctx, refs);
   clSVMFree(ctx, out);
   clReleaseKernel(gk);
   clReleaseKernel(k);
out:
   clSVMFree(ctx, a);
   clSVMFree(ctx, b);
   clSVMFree(ctx, c);
}

/* The host and a running kernel increment one counter; the count is exact. */
static void
test_concurrent_count(cl_program prog)
{
   enum { ITEMS = 256, PER_ITEM = 64, HOST_ADDS = 20000 };
   _Atomic int *ctr = clSVMAlloc(ctx, CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS,
                                 sizeof(int), 0);
   _Atomic int *flags = clSVMAlloc(ctx, CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS,
                                   5 * sizeof(int), 0);
   CHECK(ctr && flags);
   if (!ctr || !flags)
      goto out;
   atomic_store(ctr, 0);
   for (int i = 0; i < 5; i++)
      atomic_store(&flags[i], 0);
   cl_kernel k = kernel(prog, "count");
   int per_item = PER_ITEM;
   CHECK_EQ_INT(clSetKernelArgSVMPointer(k, 0, ctr), CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArgSVMPointer(k, 1, flags), CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArg(k, 2, sizeof(per_item), &per_item), CL_SUCCESS);
   size_t g = ITEMS, l = 64;
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clFlush(q), CL_SUCCESS);
   bool started = wait_flag(&flags[0], 1);
   CHECK(started);
   atomic_store_explicit(&flags[4], 1, memory_order_release);
   int interleaved = 0; /* host increments that found kernel increments since its last */
   int seen_kernel = 0; /* kernel increments seen so far */
   for (int i = 0; i < HOST_ADDS; i++) {
      int before = atomic_fetch_add(ctr, 1);
      if (before != seen_kernel + i) {
         interleaved++;
         seen_kernel = before - i;
      }
   }
   atomic_store_explicit(&flags[1], 1, memory_order_release);
   bool done = wait_flag(&flags[2], 1);
   CHECK(done);
   if (!done || !started) {
      atomic_store(&flags[1], 1);
      atomic_store(&flags[4], 1);
   }
   CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
   CHECK_EQ_INT(atomic_load(ctr), ITEMS * PER_ITEM + HOST_ADDS);
   /* Work-item 0 read the counter after it acquired the host's flag: every host increment
    * and its own are in it. */
   CHECK(atomic_load(&flags[3]) >= HOST_ADDS + PER_ITEM);
   printf("count: %d of the host's %d increments came after kernel increments (%d seen)\n",
          interleaved, HOST_ADDS, seen_kernel);
   clReleaseKernel(k);
out:
   clSVMFree(ctx, ctr);
   clSVMFree(ctx, flags);
}

/* Producer/consumer both ways while the kernel runs. */
static void
test_handshake(cl_program prog)
{
   enum { ROUNDS = 50 };
   _Atomic int *flag = clSVMAlloc(ctx, CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS,
                                  sizeof(int), 0);
   int *data = clSVMAlloc(ctx, CL_MEM_SVM_FINE_GRAIN_BUFFER, 16 * sizeof(int), 0);
   int *out = clSVMAlloc(ctx, CL_MEM_SVM_FINE_GRAIN_BUFFER, (ROUNDS + 1) * sizeof(int), 0);
   CHECK(flag && data && out);
   if (!flag || !data || !out)
      goto out;
   atomic_store(flag, 0);
   for (int i = 0; i <= ROUNDS; i++)
      out[i] = 0;
   cl_kernel k = kernel(prog, "pingpong");
   int rounds = ROUNDS;
   CHECK_EQ_INT(clSetKernelArgSVMPointer(k, 0, flag), CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArgSVMPointer(k, 1, data), CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArgSVMPointer(k, 2, out), CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArg(k, 3, sizeof(rounds), &rounds), CL_SUCCESS);
   size_t g = 1;
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clFlush(q), CL_SUCCESS);
   int good = 0;
   for (int r = 0; r < ROUNDS; r++) {
      int want = 0;
      for (int j = 0; j < 16; j++) {
         data[j] = r * 1000 + j * 7;
         want += data[j] * (j + 1);
      }
      atomic_store_explicit(flag, 2 * r + 1, memory_order_release);
      if (!wait_flag(flag, 2 * r + 2)) {
         fprintf(stderr, "handshake: round %d not answered in %.0f s\n", r, HOST_TIMEOUT);
         break;
      }
      good += out[r] == want;
   }
   CHECK_EQ_INT(good, ROUNDS);
   CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
   CHECK_EQ_INT(out[ROUNDS], 1);
   clReleaseKernel(k);
out:
   clSVMFree(ctx, flag);
   clSVMFree(ctx, data);
   clSVMFree(ctx, out);
}

/* What a running kernel and the host see of each other's stores in `mem` (fine- or
 * coarse-grained SVM): the second read of mem[0] after the host stored 1 there, and the
 * host's read of mem[16] after the kernel stored 42 there. */
static void
visibility(cl_program prog, cl_svm_mem_flags mem_flags, int *kernel_saw, int *host_saw)
{
   *kernel_saw = *host_saw = -100;
   _Atomic int *mem = clSVMAlloc(ctx, mem_flags, 4096, 0);
   _Atomic int *fine = clSVMAlloc(ctx, CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS,
                                  2 * sizeof(int), 0);
   int *out = clSVMAlloc(ctx, CL_MEM_SVM_FINE_GRAIN_BUFFER, 3 * sizeof(int), 0);
   CHECK(mem && fine && out);
   if (!mem || !fine || !out)
      goto out;
   /* Coarse-grained memory: written through the commands, then left alone by the host
    * until the kernel runs. */
   int zero = 0;
   CHECK_EQ_INT(clEnqueueSVMMemFill(q, mem, &zero, sizeof(zero), 4096, 0, NULL, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
   atomic_store(&fine[0], 0);
   atomic_store(&fine[1], 0);
   out[0] = out[1] = out[2] = -1;
   cl_kernel k = kernel(prog, "visibility");
   CHECK_EQ_INT(clSetKernelArgSVMPointer(k, 0, mem), CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArgSVMPointer(k, 1, fine), CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArgSVMPointer(k, 2, out), CL_SUCCESS);
   size_t g = 1;
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clFlush(q), CL_SUCCESS);
   CHECK(wait_flag(&fine[0], 1));
   *host_saw = atomic_load(&mem[16]);
   atomic_store(&mem[0], 1);
   atomic_store_explicit(&fine[1], 1, memory_order_release);
   CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
   CHECK_EQ_INT(out[0], 0);
   CHECK_EQ_INT(out[2], 1);
   *kernel_saw = out[1];
   /* After a map (coarse-grained memory's way to the host) the store is there. */
   CHECK_EQ_INT(clEnqueueSVMMap(q, CL_TRUE, CL_MAP_READ, mem, 4096, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(atomic_load(&mem[16]), 42);
   CHECK_EQ_INT(clEnqueueSVMUnmap(q, mem, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
   clReleaseKernel(k);
out:
   clSVMFree(ctx, mem);
   clSVMFree(ctx, fine);
   clSVMFree(ctx, out);
}

static void
test_visibility(cl_program prog)
{
   int kernel_saw, host_saw;
   /* Fine-grained: seen both ways, in either mode. */
   visibility(prog, CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS, &kernel_saw, &host_saw);
   CHECK_EQ_INT(kernel_saw, 1);
   CHECK_EQ_INT(host_saw, 42);
   /* Coarse-grained (the negative control): the checking mode shows the stale values gfx906
    * would (the kernel's L2 keeps the line it read and the store it made, whatever the
    * scope); without it, every access goes to memory. gfx90a's system-scope release and
    * acquire write the L2 back and invalidate it (buffer_wbl2, buffer_invl2), so there both
    * are seen in either mode (docs/sim.md "Coherence"). */
   char name[64] = "";
   clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof(name), name, NULL);
   bool stale = checking && strcmp(name, "gfx90a") != 0;
   visibility(prog, CL_MEM_READ_WRITE, &kernel_saw, &host_saw);
   CHECK_EQ_INT(kernel_saw, stale ? 0 : 1);
   CHECK_EQ_INT(host_saw, stale ? 0 : 42);
}

/* The vector L1 of the checking mode (sim/isa/sim_l1.c), on coarse-grained memory: a load
 * without an acquire may hit the line the CU read before another CU's store (gfx906's L1
 * is per CU and write-through; BUFFER_WBINVL1_VOL, which an agent-scope acquire emits,
 * drops it). Needs two work-groups running at once: the software GPU's default threads. */
static void
test_l1(cl_program prog)
{
   int *mem = clSVMAlloc(ctx, CL_MEM_READ_WRITE, 4096, 0);
   _Atomic int *flags = clSVMAlloc(ctx, CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS,
                                   2 * sizeof(int), 0);
   int *out = clSVMAlloc(ctx, CL_MEM_SVM_FINE_GRAIN_BUFFER, 6 * sizeof(int), 0);
   CHECK(mem && flags && out);
   if (!mem || !flags || !out)
      goto out;
   int zero = 0;
   CHECK_EQ_INT(clEnqueueSVMMemFill(q, mem, &zero, sizeof(zero), 4096, 0, NULL, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
   atomic_store(&flags[0], 0);
   atomic_store(&flags[1], 0);
   for (int i = 0; i < 6; i++)
      out[i] = -1;
   cl_kernel k = kernel(prog, "l1");
   CHECK_EQ_INT(clSetKernelArgSVMPointer(k, 0, mem), CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArgSVMPointer(k, 1, flags), CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArgSVMPointer(k, 2, out), CL_SUCCESS);
   size_t g = 128, l = 64;
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
   CHECK_EQ_INT(out[3], 1);
   CHECK_EQ_INT(out[4], 1);
   CHECK_EQ_INT(out[0], 0);
   CHECK_EQ_INT(out[1], checking ? 0 : 8); /* stale in the L1 without an acquire */
   CHECK_EQ_INT(out[2], 9);
   CHECK_EQ_INT(out[5], 11); /* a GLC load re-fetches the line */
   clReleaseKernel(k);
out:
   clSVMFree(ctx, mem);
   clSVMFree(ctx, (void *)flags);
   clSVMFree(ctx, out);
}

/* A context of two GPUs (HSACL_KFD_GPUS=2): one fine-grained allocation, written by a
 * kernel on each device in turn and by the host, without maps. */
static void
test_two_devices(cl_platform_id platform)
{
   cl_device_id devs[2];
   cl_uint n = 0;
   if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 2, devs, &n) != CL_SUCCESS || n < 2)
      return;
   cl_int err;
   cl_context c2 = clCreateContext(NULL, 2, devs, NULL, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_command_queue q0 = clCreateCommandQueueWithProperties(c2, devs[0], NULL, &err);
   cl_command_queue q1 = clCreateCommandQueueWithProperties(c2, devs[1], NULL, &err);
   const char *src =
      "kernel void add(global int *p, int v) { p[get_global_id(0)] += v; }\n"
      "kernel void inc(global atomic_int *c, int n) {\n"
      "   for (int k = 0; k < n; k++)\n"
      "      atomic_fetch_add_explicit(c, 1, memory_order_relaxed,\n"
      "                                memory_scope_all_svm_devices);\n"
      "}\n";
   cl_program p = clCreateProgramWithSource(c2, 1, &src, NULL, &err);
   CHECK_EQ_INT(clBuildProgram(p, 2, devs, std_option, NULL, NULL), CL_SUCCESS);
   cl_kernel k = clCreateKernel(p, "add", &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_kernel inc = clCreateKernel(p, "inc", &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   enum { N = 1024 };
   int *a = clSVMAlloc(c2, CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS, N * sizeof(int), 0);
   CHECK(a != NULL);
   if (a) {
      for (int i = 0; i < N; i++)
         a[i] = i;
      size_t g = N;
      int v = 10;
      CHECK_EQ_INT(clSetKernelArgSVMPointer(k, 0, a), CL_SUCCESS);
      CHECK_EQ_INT(clSetKernelArg(k, 1, sizeof(v), &v), CL_SUCCESS);
      CHECK_EQ_INT(clEnqueueNDRangeKernel(q0, k, 1, NULL, &g, NULL, 0, NULL, NULL), CL_SUCCESS);
      CHECK_EQ_INT(clFinish(q0), CL_SUCCESS);
      v = 100;
      CHECK_EQ_INT(clSetKernelArg(k, 1, sizeof(v), &v), CL_SUCCESS);
      CHECK_EQ_INT(clEnqueueNDRangeKernel(q1, k, 1, NULL, &g, NULL, 0, NULL, NULL), CL_SUCCESS);
      CHECK_EQ_INT(clFinish(q1), CL_SUCCESS);
      int bad = 0;
      for (int i = 0; i < N; i++)
         bad += a[i] != i + 110;
      CHECK_EQ_INT(bad, 0);
      clSVMFree(c2, a);
   }
   /* Both GPUs and the host increment one counter at once (all-devices scope). */
   _Atomic int *ctr = clSVMAlloc(c2, CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS,
                                 sizeof(int), 0);
   CHECK(ctr != NULL);
   if (ctr) {
      enum { ITEMS = 256, PER_ITEM = 100, HOST_ADDS = 10000 };
      atomic_store(ctr, 0);
      int n = PER_ITEM;
      size_t g = ITEMS;
      CHECK_EQ_INT(clSetKernelArgSVMPointer(inc, 0, ctr), CL_SUCCESS);
      CHECK_EQ_INT(clSetKernelArg(inc, 1, sizeof(n), &n), CL_SUCCESS);
      CHECK_EQ_INT(clEnqueueNDRangeKernel(q0, inc, 1, NULL, &g, NULL, 0, NULL, NULL),
                   CL_SUCCESS);
      CHECK_EQ_INT(clEnqueueNDRangeKernel(q1, inc, 1, NULL, &g, NULL, 0, NULL, NULL),
                   CL_SUCCESS);
      CHECK_EQ_INT(clFlush(q0), CL_SUCCESS);
      CHECK_EQ_INT(clFlush(q1), CL_SUCCESS);
      for (int i = 0; i < HOST_ADDS; i++)
         atomic_fetch_add(ctr, 1);
      CHECK_EQ_INT(clFinish(q0), CL_SUCCESS);
      CHECK_EQ_INT(clFinish(q1), CL_SUCCESS);
      CHECK_EQ_INT(atomic_load(ctr), 2 * ITEMS * PER_ITEM + HOST_ADDS);
      clSVMFree(c2, (void *)ctr);
   }
   printf("two devices: checked\n");
   clReleaseKernel(inc);
   clReleaseKernel(k);
   clReleaseProgram(p);
   clReleaseCommandQueue(q0);
   clReleaseCommandQueue(q1);
   clReleaseContext(c2);
}

/* The 1.2 profile: SVM is OpenCL 2.0, nothing is reported and nothing allocated. */
static void
test_profile_12(void)
{
   cl_device_svm_capabilities caps = 1;
   CHECK_EQ_INT(clGetDeviceInfo(device, CL_DEVICE_SVM_CAPABILITIES, sizeof(caps), &caps, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(caps, 0);
   CHECK(clSVMAlloc(ctx, CL_MEM_READ_WRITE, 4096, 0) == NULL);
   CHECK(clSVMAlloc(ctx, CL_MEM_SVM_FINE_GRAIN_BUFFER, 4096, 0) == NULL);
   CHECK(clSVMAlloc(ctx, CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS, 4096, 0) == NULL);
}

int
main(int argc, char **argv)
{
   /* "check", or the whole suite run in the checking mode (scripts/test). */
   const char *mode = getenv("HSACL_SIM_CACHE");
   checking = (argc > 1 && !strcmp(argv[1], "check")) || (mode && !strcmp(mode, "check"));
   profile20 = argc > 1 && !strcmp(argv[1], "2.0");
   if (profile20)
      std_option = "-cl-std=CL2.0";
   if (checking)
      setenv("HSACL_SIM_CACHE", "check", 1);
   test_watchdog("api_svm_fine", 240);
   cl_platform_id platform;
   cl_int err;
   clGetPlatformIDs(1, &platform, NULL);
   if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &device, NULL) != CL_SUCCESS) {
      fprintf(stderr, "no hsacl device\n");
      return 1;
   }
   ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   q = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   if (argc > 1 && !strcmp(argv[1], "1.2")) {
      test_profile_12();
      clReleaseCommandQueue(q);
      clReleaseContext(ctx);
      return test_main_end();
   }
   test_capabilities();
   test_alloc_flags();
   test_uses_svm_pointer();
   test_free_memory();
   cl_program p = build(source);
   test_no_map(p);
   test_concurrent_count(p);
   test_handshake(p);
   test_visibility(p);
   test_l1(p);
   clReleaseProgram(p);
   clReleaseCommandQueue(q);
   clReleaseContext(ctx);
   test_two_devices(platform);
   return test_main_end();
}
