/*
 * Corpus OpenCL kernels run through the HSA API on the software runtime (libhsacl-sim.so)
 * and checked against host references. argv[1]: directory of <kernel>.<variant>.hsaco
 * code objects (built by CMake with clang-19 and the ROCm device libraries); argv[2]:
 * variant (default, O0, daz, crdiv); optional argv[3]: run only tests whose name contains
 * it. Integer results are compared exactly; float results exactly where the inputs make
 * every rounding exact, else within a relative bound (math functions: OpenCL ULP bounds,
 * summed over the terms of each expression). Kernarg layout: explicit arguments at their
 * natural alignment, then the code object v5 hidden arguments at the next multiple of 8
 * (block_count +0, group_size +12, remainder +18, global_offset +40, grid_dims +64,
 * printf_buffer +72), as `llvm-readelf-19 --notes` shows for these kernels.
 */
#include <errno.h>
#include <math.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

/* ---- Harness ------------------------------------------------------------------------------ */

static int g_fail;
static const char *g_test = "";
static const char *g_dir, *g_variant;
static hsa_agent_t g_gpu, g_cpu;
static hsa_amd_memory_pool_t g_sys, g_karg, g_coarse;
static hsa_queue_t *g_q;
static _Atomic int g_qerr;
static uint64_t g_goff[3];
static uint64_t g_lanes; /* work-items dispatched, for the throughput figure */

#define DIE(...)                                                                            \
   do {                                                                                     \
      fprintf(stderr, __VA_ARGS__);                                                         \
      fputc('\n', stderr);                                                                  \
      exit(1);                                                                              \
   } while (0)
#define HSA(x)                                                                              \
   do {                                                                                     \
      hsa_status_t s_ = (x);                                                                \
      if (s_ != HSA_STATUS_SUCCESS)                                                         \
         DIE("%s:%d: %s failed: 0x%x", __FILE__, __LINE__, #x, s_);                         \
   } while (0)

static void
fail(const char *fmt, ...)
   __attribute__((format(printf, 1, 2)));
#include <stdarg.h>
static void
fail(const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   fprintf(stderr, "FAIL %s [%s]: ", g_test, g_variant);
   vfprintf(stderr, fmt, ap);
   fputc('\n', stderr);
   va_end(ap);
   g_fail++;
}

static hsa_status_t
find_agent(hsa_agent_t a, void *d)
{
   hsa_device_type_t t;
   HSA(hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t));
   if (t == HSA_DEVICE_TYPE_GPU && !g_gpu.handle)
      g_gpu = a;
   if (t == HSA_DEVICE_TYPE_CPU && !g_cpu.handle)
      g_cpu = a;
   return HSA_STATUS_SUCCESS;
}

static hsa_status_t
find_pool(hsa_amd_memory_pool_t p, void *d)
{
   hsa_amd_segment_t seg;
   uint32_t flags;
   HSA(hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &seg));
   if (seg != HSA_AMD_SEGMENT_GLOBAL)
      return HSA_STATUS_SUCCESS;
   HSA(hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags));
   if ((flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT) && !g_karg.handle)
      g_karg = p;
   else if ((flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED) && !g_sys.handle)
      g_sys = p;
   else if ((flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED) && !g_coarse.handle)
      g_coarse = p;
   return HSA_STATUS_SUCCESS;
}

static void
on_queue_error(hsa_status_t st, hsa_queue_t *q, void *data)
{
   atomic_store(&g_qerr, (int)st);
}

/* Zeroed fine-grained system memory the GPU agent can use (freed at exit). */
static void *
gmem(size_t n)
{
   void *p;
   HSA(hsa_amd_memory_pool_allocate(g_sys, n ? n : 4, 0, &p));
   hsa_amd_agents_allow_access(1, &g_gpu, NULL, p);
   memset(p, 0, n);
   return p;
}

/* Zeroed coarse-grained system memory (what the L2 checking mode caches), or gmem's when
 * the CPU has no coarse-grained pool. The dispatches' system-scope fences make it coherent
 * with the host at their boundaries. */
static void *
cmem(size_t n)
{
   if (!g_coarse.handle)
      return gmem(n);
   void *p;
   HSA(hsa_amd_memory_pool_allocate(g_coarse, n ? n : 4, 0, &p));
   hsa_amd_agents_allow_access(1, &g_gpu, NULL, p);
   memset(p, 0, n);
   return p;
}

typedef struct kern {
   uint64_t obj;
   uint32_t kasize, group, priv;
   int ok;
} kern;

typedef struct kfile {
   hsa_executable_t exe;
   hsa_code_object_reader_t rd;
   void *data; /* the code object bytes the reader reads from */
   int ok;
} kfile;

static kfile
kopen(const char *base)
{
   kfile k = {0};
   char path[1024];
   snprintf(path, sizeof(path), "%s/%s.%s.hsaco", g_dir, base, g_variant);
   FILE *f = fopen(path, "rb");
   if (!f) {
      fail("cannot open %s", path);
      return k;
   }
   fseek(f, 0, SEEK_END);
   long n = ftell(f);
   fseek(f, 0, SEEK_SET);
   void *data = malloc((size_t)n);
   if (fread(data, 1, (size_t)n, f) != (size_t)n)
      DIE("read %s", path);
   fclose(f);
   k.data = data;
   HSA(hsa_code_object_reader_create_from_memory(data, (size_t)n, &k.rd));
   HSA(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
                                 NULL, &k.exe));
   HSA(hsa_executable_load_agent_code_object(k.exe, g_gpu, k.rd, NULL, NULL));
   HSA(hsa_executable_freeze(k.exe, NULL));
   k.ok = 1;
   return k;
}

static void
kclose(kfile *k)
{
   if (!k->ok)
      return;
   hsa_executable_destroy(k->exe);
   hsa_code_object_reader_destroy(k->rd);
   free(k->data);
   k->data = NULL;
}

static kern
kget(const kfile *f, const char *name)
{
   kern k = {0};
   if (!f->ok)
      return k;
   char sym[256];
   snprintf(sym, sizeof(sym), "%s.kd", name);
   hsa_executable_symbol_t s;
   if (hsa_executable_get_symbol_by_name(f->exe, sym, &g_gpu, &s) != HSA_STATUS_SUCCESS) {
      fail("no kernel %s", name);
      return k;
   }
   HSA(hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &k.obj));
   HSA(hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE,
                                      &k.kasize));
   HSA(hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE,
                                      &k.group));
   HSA(hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE,
                                      &k.priv));
   k.ok = 1;
   return k;
}

/* Kernel arguments: by value (size, alignment, bytes), or a __local pointer (kind 1) whose
 * value is the LDS offset of `bytes` of dynamic group memory. */
typedef struct karg {
   int kind;
   uint32_t size, align;
   uint64_t bits;
   const void *data;
} karg;

static uint64_t
f2b(float f)
{
   uint32_t u;
   memcpy(&u, &f, 4);
   return u;
}
static uint64_t
d2b(double d)
{
   uint64_t u;
   memcpy(&u, &d, 8);
   return u;
}
#define AP(p) ((karg){0, 8, 8, (uint64_t)(uintptr_t)(p), NULL})
#define AI(v) ((karg){0, 4, 4, (uint32_t)(v), NULL})
#define AL(v) ((karg){0, 8, 8, (uint64_t)(v), NULL})
#define AS(v) ((karg){0, 2, 2, (uint16_t)(v), NULL})
#define AB(v) ((karg){0, 1, 1, (uint8_t)(v), NULL})
#define AF(v) ((karg){0, 4, 4, f2b(v), NULL})
#define AD(v) ((karg){0, 8, 8, d2b(v), NULL})
#define ALOCAL(bytes) ((karg){1, 4, 4, (bytes), NULL})
#define ASTRUCT(p, sz, al) ((karg){2, (sz), (al), 0, (p)})

static void *g_printf_buf;

/* Dispatches `k` over grid g[] with work-group l[] (dims = number of used dimensions);
 * returns 0 on success, -1 when the dispatch failed (fault reported through the queue). */
static int
run(kern k, unsigned dims, const uint32_t g[3], const uint32_t l[3], const karg *args,
    unsigned nargs)
{
   if (!k.ok)
      return -1;
   uint8_t ka[1024];
   memset(ka, 0, sizeof(ka));
   uint32_t off = 0, dyn = 0, lds = (k.group + 15) & ~15u;
   for (unsigned i = 0; i < nargs; i++) {
      off = (off + args[i].align - 1) & ~(args[i].align - 1);
      if (args[i].kind == 2) {
         memcpy(ka + off, args[i].data, args[i].size);
      } else if (args[i].kind == 1) {
         uint32_t o = lds + dyn;
         memcpy(ka + off, &o, 4);
         dyn += ((uint32_t)args[i].bits + 15) & ~15u;
      } else {
         memcpy(ka + off, &args[i].bits, args[i].size);
      }
      off += args[i].size;
   }
   uint32_t h = (off + 7) & ~7u;
   for (unsigned d = 0; d < 3; d++) {
      uint32_t gs = d < dims ? g[d] : 1, ls = d < dims ? l[d] : 1;
      uint32_t bc = (gs + ls - 1) / ls;
      uint16_t gsz = (uint16_t)ls, rem = (uint16_t)(gs % ls);
      memcpy(ka + h + 4 * d, &bc, 4);
      memcpy(ka + h + 12 + 2 * d, &gsz, 2);
      memcpy(ka + h + 18 + 2 * d, &rem, 2);
      memcpy(ka + h + 40 + 8 * d, &g_goff[d], 8);
   }
   uint16_t gd = (uint16_t)dims;
   memcpy(ka + h + 64, &gd, 2);
   uint64_t pb = (uint64_t)(uintptr_t)g_printf_buf;
   memcpy(ka + h + 72, &pb, 8);
   uint32_t kasize = k.kasize > h + 80 ? k.kasize : h + 80;
   void *kbuf;
   HSA(hsa_amd_memory_pool_allocate(g_karg, kasize, 0, &kbuf));
   memcpy(kbuf, ka, kasize);

   hsa_signal_t done;
   HSA(hsa_signal_create(1, 0, NULL, &done));
   hsa_kernel_dispatch_packet_t p;
   memset(&p, 0, sizeof(p));
   p.setup = (uint16_t)(dims << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS);
   p.workgroup_size_x = (uint16_t)l[0];
   p.workgroup_size_y = (uint16_t)(dims > 1 ? l[1] : 1);
   p.workgroup_size_z = (uint16_t)(dims > 2 ? l[2] : 1);
   p.grid_size_x = g[0];
   p.grid_size_y = dims > 1 ? g[1] : 1;
   p.grid_size_z = dims > 2 ? g[2] : 1;
   p.private_segment_size = k.priv;
   p.group_segment_size = lds + dyn;
   p.kernel_object = k.obj;
   p.kernarg_address = kbuf;
   p.completion_signal = done;
   g_lanes += (uint64_t)p.grid_size_x * p.grid_size_y * p.grid_size_z;
   uint64_t idx = hsa_queue_add_write_index_relaxed(g_q, 1);
   hsa_kernel_dispatch_packet_t *slot =
      (hsa_kernel_dispatch_packet_t *)g_q->base_address + (idx % g_q->size);
   memcpy((uint8_t *)slot + 4, (uint8_t *)&p + 4, sizeof(p) - 4);
   uint32_t hdr = (HSA_PACKET_TYPE_KERNEL_DISPATCH << HSA_PACKET_HEADER_TYPE) |
                  (1 << HSA_PACKET_HEADER_BARRIER) |
                  (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) |
                  (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE);
   __atomic_store_n((uint32_t *)slot, hdr | (uint32_t)p.setup << 16, __ATOMIC_RELEASE);
   hsa_signal_store_screlease(g_q->doorbell_signal, (hsa_signal_value_t)idx);
   int rc = 0;
   for (int tries = 0;; tries++) {
      if (hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, 50000000ull,
                                    HSA_WAIT_STATE_BLOCKED) == 0)
         break;
      if (atomic_load(&g_qerr) != 0 || tries > 2400) {
         fail("dispatch failed (queue status 0x%x); HSACL_SIM_VERBOSE=1 shows the fault",
              atomic_load(&g_qerr));
         rc = -1;
         break;
      }
   }
   hsa_signal_destroy(done);
   hsa_amd_memory_pool_free(kbuf);
   if (rc) {
      /* The queue is unusable after an error: replace it. */
      hsa_queue_destroy(g_q);
      atomic_store(&g_qerr, 0);
      HSA(hsa_queue_create(g_gpu, 256, HSA_QUEUE_TYPE_MULTI, on_queue_error, NULL, UINT32_MAX,
                           UINT32_MAX, &g_q));
   }
   return rc;
}

#define G(...) ((const uint32_t[3]){__VA_ARGS__})
#define ARGS(...) ((const karg[]){__VA_ARGS__}), (sizeof((const karg[]){__VA_ARGS__}) / sizeof(karg))

/* ---- Checks ---------------------------------------------------------------------------------- */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint32_t
rnd(void)
{
   rng_state ^= rng_state << 13;
   rng_state ^= rng_state >> 7;
   rng_state ^= rng_state << 17;
   return (uint32_t)(rng_state >> 16);
}
static float
rndf(float lo, float hi)
{
   return lo + (hi - lo) * (float)(rnd() & 0xFFFFFF) / 16777216.0f;
}

static int
chk_i64(const char *what, const void *got, const void *want, size_t n, size_t esz)
{
   int bad = 0;
   for (size_t i = 0; i < n; i++) {
      uint64_t a = 0, b = 0;
      memcpy(&a, (const uint8_t *)got + i * esz, esz);
      memcpy(&b, (const uint8_t *)want + i * esz, esz);
      if (a != b) {
         if (bad < 5)
            fail("%s[%zu] = 0x%llx, want 0x%llx", what, i, (unsigned long long)a,
                 (unsigned long long)b);
         bad++;
      }
   }
   if (bad > 5)
      fail("%s: %d mismatches in all", what, bad);
   return bad;
}
#define CHK(what, got, want, n) chk_i64(what, got, want, n, sizeof((got)[0]))

/* |got - want| <= rel * scale[i] (scale NULL: |want|) + abs. */
static int
chk_f(const char *what, const float *got, const double *want, const double *scale, size_t n,
      double rel, double abs_)
{
   int bad = 0;
   for (size_t i = 0; i < n; i++) {
      double s = scale ? scale[i] : fabs(want[i]);
      double g = got[i], w = want[i];
      int ok = (isnan(g) && isnan(w)) || fabs(g - w) <= rel * s + abs_ || g == w;
      if (!ok) {
         if (bad < 5)
            fail("%s[%zu] = %.9g, want %.9g (tolerance %.3g)", what, i, g, w, rel * s + abs_);
         bad++;
      }
   }
   if (bad > 5)
      fail("%s: %d mismatches in all", what, bad);
   return bad;
}

static int
chk_d(const char *what, const double *got, const double *want, const double *scale, size_t n,
      double rel)
{
   int bad = 0;
   for (size_t i = 0; i < n; i++) {
      double s = scale ? scale[i] : fabs(want[i]);
      int ok = (isnan(got[i]) && isnan(want[i])) || fabs(got[i] - want[i]) <= rel * s ||
               got[i] == want[i];
      if (!ok) {
         if (bad < 5)
            fail("%s[%zu] = %.17g, want %.17g", what, i, got[i], want[i]);
         bad++;
      }
   }
   if (bad > 5)
      fail("%s: %d mismatches in all", what, bad);
   return bad;
}

static int g_daz;
/* The objects were built by hsacl's compiler (hsacl-cc), not clang's driver. */
static int g_hsacl_built;

/* ---- Tests ------------------------------------------------------------------------------------ */

static void
t_vadd(void)
{
   kfile f = kopen("k01_vadd");
   enum { N = 1024, n = 1000 };
   float *a = gmem(N * 4), *b = gmem(N * 4), *c = gmem(N * 4), want[N] = {0};
   int32_t *ia = gmem(N * 4), *ib = gmem(N * 4), *ic = gmem(N * 4), iw[N];
   for (int i = 0; i < N; i++) {
      a[i] = rndf(-100, 100);
      b[i] = rndf(-100, 100);
      if (i < n)
         want[i] = a[i] + b[i];
      ia[i] = (int32_t)rnd();
      ib[i] = (int32_t)rnd();
      iw[i] = (int32_t)((uint32_t)ia[i] + (uint32_t)ib[i]);
   }
   if (!run(kget(&f, "vadd"), 1, G(N), G(64), ARGS(AP(a), AP(b), AP(c), AI(n))))
      CHK("c", (uint32_t *)c, (uint32_t *)want, N);
   if (!run(kget(&f, "vadd_int"), 1, G(N), G(256), ARGS(AP(ia), AP(ib), AP(ic))))
      CHK("ic", ic, iw, N);
   kclose(&f);
}

static void
t_saxpy(void)
{
   kfile f = kopen("k02_saxpy");
   enum { N = 2048, n = 2000 };
   float *x = gmem(N * 4), *y = gmem(N * 4), alpha = 1.75f;
   double want[N], scale[N], *dx = gmem(N * 8), *dy = gmem(N * 8), dw[N];
   for (int i = 0; i < N; i++) {
      x[i] = rndf(-10, 10);
      y[i] = rndf(-10, 10);
      want[i] = i < n ? (double)alpha * x[i] + y[i] : y[i];
      scale[i] = fabs((double)alpha * x[i]) + fabs(y[i]);
      dx[i] = x[i] * 1.1;
      dy[i] = y[i] * 0.3;
      dw[i] = i < n ? fma(-2.5, dx[i], dy[i]) : dy[i];
   }
   if (!run(kget(&f, "saxpy"), 1, G(N), G(128), ARGS(AF(alpha), AP(x), AP(y), AI(n))))
      chk_f("y", y, want, scale, N, 2.0 / (1 << 23), 0);
   if (!run(kget(&f, "daxpy"), 1, G(N), G(128), ARGS(AD(-2.5), AP(dx), AP(dy), AI(n))))
      CHK("dy", (uint64_t *)dy, (uint64_t *)dw, N);
   kclose(&f);
}

static void
t_reduce(void)
{
   kfile f = kopen("k03_reduce_local");
   enum { N = 5000, G0 = 1024, L = 256 };
   float *in = gmem(N * 4), *out = gmem(4 * 4), want[4] = {0};
   for (int i = 0; i < N; i++) {
      in[i] = (float)(i % 17) - 3.0f;
      want[(i % G0) / L] += in[i];
   }
   if (!run(kget(&f, "reduce_sum"), 1, G(G0), G(L),
            ARGS(AP(in), AP(out), ALOCAL(L * 4), AI(N))))
      CHK("out", (uint32_t *)out, (uint32_t *)want, 4);
   int32_t *iin = gmem(1024 * 4), *iout = gmem(16), iw[4] = {INT32_MAX, INT32_MAX, INT32_MAX,
                                                             INT32_MAX};
   for (int i = 0; i < 1024; i++) {
      iin[i] = (int32_t)rnd();
      if (iin[i] < iw[i / 256])
         iw[i / 256] = iin[i];
   }
   if (!run(kget(&f, "reduce_min_int"), 1, G(1024), G(256), ARGS(AP(iin), AP(iout))))
      CHK("min", iout, iw, 4);
   kclose(&f);
}

static void
t_atomics_global(void)
{
   kfile f = kopen("k04_atomics_global");
   enum { N = 4096, n = 4000 };
   uint8_t *data = gmem(N);
   uint32_t *bins = gmem(256 * 4), want[256] = {0};
   for (int i = 0; i < N; i++) {
      data[i] = (uint8_t)(rnd() % 7 == 0 ? 3 : rnd());
      if (i < n)
         want[data[i]]++;
   }
   if (!run(kget(&f, "histo"), 1, G(N), G(256), ARGS(AP(data), AP(bins), AI(n))))
      CHK("bins", bins, want, 256);

   int32_t *p = gmem(16 * 4);
   uint32_t *u = gmem(128 * 4);
   int v = 5;
   p[3] = 100;
   p[4] = -100;
   p[5] = 0xFF;
   p[9] = 1000;
   u[0] = 100;
   int32_t pw[10] = {64 * v, -64 * v, v, v, v, v, v, 0, v, 1000 - 64};
   if (!run(kget(&f, "atomics_all"), 1, G(64), G(64), ARGS(AP(p), AP(u), AI(v)))) {
      CHK("p", p, pw, 10);
      uint32_t uw[2] = {5, 5};
      CHK("u", u, uw, 2);
      uint64_t seen = 0;
      for (int i = 0; i < 64; i++)
         if (u[2 + i] < 64)
            seen |= 1ull << u[2 + i];
      if (seen != ~0ull || u[100] != 64)
         fail("atomic_add returns are not a permutation of 0..63 (u[100] = %u)", u[100]);
   }
   float *fp = gmem(65 * 4);
   fp[0] = 1.5f;
   if (!run(kget(&f, "atomic_xchg_float"), 1, G(64), G(64), ARGS(AP(fp), AF(2.5f)))) {
      int ones = 0, twos = 0;
      for (int i = 1; i <= 64; i++)
         ones += fp[i] == 1.5f, twos += fp[i] == 2.5f;
      if (fp[0] != 2.5f || ones != 1 || twos != 63)
         fail("atomic_xchg float: p[0] = %g, %d old 1.5, %d old 2.5", fp[0], ones, twos);
   }
   kclose(&f);
}

static void
t_atomics_local(void)
{
   kfile f = kopen("k05_atomics_local");
   enum { N = 8192 };
   uint32_t *data = gmem(N * 4), *out = gmem(256 * 4), want[256] = {0};
   for (int i = 0; i < N; i++) {
      data[i] = rnd() & (rnd() & 1 ? 0xFFF : 0x3);
      want[data[i] & 255]++;
   }
   if (!run(kget(&f, "local_histo"), 1, G(1024), G(256), ARGS(AP(data), AP(out), AI(N))))
      CHK("out", out, want, 256);
   int32_t *o = gmem(32 * 4), v = 7, w[32] = {0};
   for (int g = 0; g < 2; g++) {
      int32_t *l = w + 16 * g;
      l[0] = 64 * v, l[1] = -64 * v, l[2] = v, l[3] = 0, l[4] = v, l[5] = 0, l[6] = v;
      l[7] = 0, l[8] = v, l[9] = -64, l[10] = 64, l[11] = 0, l[12] = v;
   }
   if (!run(kget(&f, "local_atomics_all"), 1, G(128), G(64), ARGS(AP(o), AI(v))))
      CHK("l", o, w, 32);
   kclose(&f);
}

static void
t_int64(void)
{
   kfile f = kopen("k06_int64");
   enum { N = 1024 };
   int64_t *a = gmem(3 * N * 8), *b = gmem(N * 8), aw[3 * N];
   uint64_t *c = gmem(4 * N * 8), cw[4 * N];
   for (int i = 0; i < N; i++) {
      a[i] = (int64_t)((uint64_t)rnd() << 32 | rnd()) >> (rnd() % 40);
      b[i] = (int64_t)((uint64_t)rnd() << 32 | rnd()) >> (rnd() % 60);
      if (i % 9 == 0)
         b[i] = -(int64_t)(rnd() % 100);
   }
   for (int i = 0; i < N; i++) {
      int64_t x = a[i], y = b[i];
      uint64_t ux = (uint64_t)x, uy = (uint64_t)y;
      aw[i] = (int64_t)(ux * uy + (uint64_t)(x >> 7) - (uy << 3));
      cw[i] = ux / (uy | 1) + ux % 97;
      aw[i + N] = x / (y | 1);
      aw[i + 2 * N] = x % (y | 3);
      cw[i + N] = (uint64_t)(((unsigned __int128)ux * uy) >> 64) ^ (ux << 13 | ux >> 51);
      cw[i + 2 * N] = (uint64_t)(x ? __builtin_clzll(ux) : 64) + (uint64_t)__builtin_popcountll(uy) +
                      (x < 0 ? 0 - ux : ux) + (uint64_t)(x > y ? x : y);
      cw[i + 3 * N] = (uint64_t)(int64_t)(((__int128)x * y) >> 64) + ux + (x < y ? 1 : 0) +
                      ((uint64_t)(uint32_t)(int32_t)x << 32 | (uint32_t)y);
   }
   if (!run(kget(&f, "i64math"), 1, G(N), G(64), ARGS(AP(a), AP(b), AP(c)))) {
      CHK("a", a, aw, 3 * N);
      CHK("c", c, cw, 4 * N);
   }
   kclose(&f);
}

static int32_t
sat32(int64_t v)
{
   return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int32_t)v;
}

static void
t_int_builtins(void)
{
   kfile f = kopen("k07_int_builtins");
   enum { N = 1024 };
   int32_t *a = gmem(5120 * 4), aw[5120];
   uint32_t *b = gmem(5120 * 4), bw[5120];
   int16_t *s = gmem(N * 2), sw[N];
   int8_t *c = gmem(N), cw[N];
   for (int i = 0; i < N; i++) {
      a[i] = (int32_t)rnd() >> (rnd() % 31);
      b[i] = rnd() & 0xFFFFFF;
      s[i] = (int16_t)rnd();
      c[i] = (int8_t)rnd();
   }
   for (int i = 0; i < N; i++) {
      int32_t x = a[i];
      uint32_t y = b[i];
      int64_t X = x, Y = (int32_t)y;
      uint32_t t = (uint32_t)sat32(X + Y) + (uint32_t)sat32(X - 5) +
                   (uint32_t)(int32_t)((X + Y) >> 1) + (uint32_t)(int32_t)((X + 3 + 1) >> 1) +
                   (uint32_t)(x < -5 ? -5 : x > 5 ? 5 : x);
      aw[i] = (int32_t)t;
      bw[i] = y * y + y * 3u + 7u + (uint32_t)(((uint64_t)y * (y + 1)) >> 32) +
              (uint32_t)(y ? __builtin_clz(y) : 32) + (uint32_t)__builtin_popcount(y) +
              (y << 5 | y >> 27) + (uint32_t)(x > 4 ? (int64_t)x - 4 : 4 - (int64_t)x);
      int sv = s[i] + (int16_t)x;
      sv = sv > 32767 ? 32767 : sv < -32768 ? -32768 : sv;
      sw[i] = (int16_t)(sv + (int16_t)((uint16_t)(uint8_t)c[i] << 8 | 3));
      int cv = c[i] - (int8_t)x;
      cv = cv > 127 ? 127 : cv < -128 ? -128 : cv;
      cw[i] = (int8_t)(cv + (uint8_t)(c[i] < 0 ? -c[i] : c[i]));
      bw[i + 4096] = y / (uint32_t)(x | 1) + y % 13u + (uint32_t)(x / 7) +
                     (uint32_t)(x % (int32_t)(y | 1));
      int64_t m = (int64_t)x * x + 7;
      aw[i + 4096] = (int32_t)((uint32_t)sat32(m) + (uint32_t)(x ? __builtin_ctz((uint32_t)x) : 32));
   }
   if (!run(kget(&f, "ibuilt"), 1, G(N), G(64), ARGS(AP(a), AP(b), AP(s), AP(c)))) {
      CHK("a", a, aw, N);
      CHK("a+4096", a + 4096, aw + 4096, N);
      CHK("b", b, bw, N);
      CHK("b+4096", b + 4096, bw + 4096, N);
      CHK("s", s, sw, N);
      CHK("c", c, cw, N);
   }
   kclose(&f);
}

/* Sum of terms and of their magnitudes, for expression tolerances. */
typedef struct acc {
   double v, m;
} acc;
static void
add(acc *a, double t)
{
   a->v += t;
   a->m += fabs(t);
}

static void
t_float_math(void)
{
   kfile f = kopen("k08_float_math");
   enum { N = 1024 };
   float *a = gmem(10 * N * 4), *b = gmem(N * 4);
   static double want[10 * N], scale[10 * N];
   for (int i = 0; i < N; i++) {
      a[i] = rndf(0.1f, 0.9f);
      b[i] = rndf(0.1f, 0.9f);
   }
   for (int i = 0; i < N; i++) {
      double x = a[i], y = b[i];
      acc r[10] = {{0}};
      add(&r[0], sin(x)), add(&r[0], cos(y)), add(&r[0], tan(x));
      add(&r[1], exp(x)), add(&r[1], exp2(y)), add(&r[1], pow(10, x)), add(&r[1], expm1(y));
      add(&r[2], log(x)), add(&r[2], log2(y)), add(&r[2], log10(x)), add(&r[2], log1p(y));
      add(&r[3], pow(x, y)), add(&r[3], pow(x, y)), add(&r[3], x * x * x), add(&r[3], cbrt(x));
      add(&r[4], sqrt(x)), add(&r[4], 1 / sqrt(y)), add(&r[4], cbrt(x)), add(&r[4], hypot(x, y));
      add(&r[5], atan2(x, y)), add(&r[5], asin(x)), add(&r[5], acos(y)), add(&r[5], atan(x));
      add(&r[5], sinh(x)), add(&r[5], cosh(y)), add(&r[5], tanh(x));
      add(&r[6], fmod(x, y)), add(&r[6], remainder(x, y)), add(&r[6], floor(x));
      add(&r[6], ceil(y)), add(&r[6], round(x)), add(&r[6], trunc(y)), add(&r[6], rint(x));
      add(&r[7], fmin(x, y)), add(&r[7], fmax(x, y)), add(&r[7], fabs(x)), add(&r[7], copysign(x, y));
      add(&r[7], fdim(x, y)), add(&r[7], ldexp(x, 3)), add(&r[7], logb(x)), add(&r[7], ilogb(y));
      add(&r[8], erf(x)), add(&r[8], erfc(y)), add(&r[8], tgamma(x)), add(&r[8], lgamma(y));
      int e;
      double fr = frexp(x, &e), ip, mf = modf(y, &ip);
      add(&r[9], fr), add(&r[9], e), add(&r[9], mf), add(&r[9], ip);
      add(&r[9], nextafterf(a[i], b[i])), add(&r[9], x / y);
      for (int k = 0; k < 10; k++) {
         want[i + k * N] = r[k].v;
         scale[i + k * N] = r[k].m;
      }
   }
   float x0[N], y0[N];
   memcpy(x0, a, sizeof(x0));
   memcpy(y0, b, sizeof(y0));
   if (!run(kget(&f, "fmath"), 1, G(N), G(64), ARGS(AP(a), AP(b)))) {
      if (getenv("SIM_ISA_DEBUG"))
         for (int i = 0; i < N; i++)
            printf("%d x=%a y=%a: %a %a %a | %a %a %a\n", i, x0[i], y0[i], a[i], a[i + N],
                   a[i + 2 * N], sin(x0[i]), cos(y0[i]), tan(x0[i]));
      chk_f("a", a, want, scale, 10 * N, 16.0 / (1 << 23), 0);
   }
   kclose(&f);
}

static void
t_double(void)
{
   kfile f = kopen("k10_double");
   enum { N = 1024 };
   double *a = gmem(5 * N * 8), *b = gmem(N * 8);
   static double want[5 * N], scale[5 * N];
   for (int i = 0; i < N; i++) {
      a[i] = 0.1 + 3.9 * (rnd() / 4294967296.0);
      b[i] = 0.1 + 3.9 * (rnd() / 4294967296.0);
   }
   for (int i = 0; i < N; i++) {
      double x = a[i], y = b[i];
      acc r[5] = {{0}};
      add(&r[0], x / y), add(&r[0], sqrt(x)), add(&r[0], fma(x, y, 1.0));
      add(&r[1], sin(x)), add(&r[1], cos(y)), add(&r[1], exp(x)), add(&r[1], log(y));
      add(&r[1], pow(x, y));
      add(&r[2], floor(x)), add(&r[2], ceil(y)), add(&r[2], trunc(x)), add(&r[2], round(y));
      add(&r[2], rint(x)), add(&r[2], fabs(y)), add(&r[2], fmin(x, y)), add(&r[2], fmax(x, y));
      add(&r[3], (int)x), add(&r[3], (double)(long)y), add(&r[3], (unsigned)x);
      add(&r[3], (double)(unsigned long)y), add(&r[3], (float)x);
      add(&r[4], 1 / sqrt(x)), add(&r[4], fmod(x, y)), add(&r[4], ldexp(x, 5));
      add(&r[4], atan2(x, y)), add(&r[4], cbrt(y));
      for (int k = 0; k < 5; k++) {
         want[i + k * N] = r[k].v;
         scale[i + k * N] = r[k].m;
      }
   }
   if (!run(kget(&f, "dmath"), 1, G(N), G(64), ARGS(AP(a), AP(b))))
      chk_d("a", a, want, scale, 5 * N, 1e-14);
   kclose(&f);
}

static void
t_vectors(void)
{
   kfile f = kopen("k12_vectors");
   enum { N = 512 };
   float *a = gmem(N * 16), *b = gmem(N * 16), *c = gmem(N * 16);
   static double want[N * 4], scale[N * 4];
   for (int i = 0; i < N * 4; i++) {
      a[i] = rndf(-4, 4);
      b[i] = rndf(-4, 4);
   }
   for (int i = 0; i < N; i++) {
      const float *x = a + 4 * i, *y = b + 4 * i;
      double dot = 0, len = 0, ny = 0;
      for (int k = 0; k < 4; k++)
         dot += (double)x[k] * y[k], len += (double)x[k] * x[k], ny += (double)y[k] * y[k];
      len = sqrt(len);
      ny = sqrt(ny);
      double cr[4] = {(double)x[1] * y[2] - (double)x[2] * y[1],
                      (double)x[2] * y[0] - (double)x[0] * y[2],
                      (double)x[0] * y[1] - (double)x[1] * y[0], 0};
      for (int k = 0; k < 4; k++) {
         acc r = {0};
         add(&r, (double)x[k] * y[k]), add(&r, k + 1.0), add(&r, dot), add(&r, len);
         add(&r, cr[k]), add(&r, y[k] / ny);
         r.m += 16 * fabs(dot) / 4 + fabs(x[1] * y[2]) + fabs(x[2] * y[1]) + fabs(x[0] * y[2]) +
                fabs(x[0] * y[1]) + fabs(x[1] * y[0]) + fabs(x[2] * y[0]);
         want[4 * i + k] = r.v;
         scale[4 * i + k] = r.m;
      }
   }
   if (!run(kget(&f, "vec4"), 1, G(N), G(64), ARGS(AP(a), AP(b), AP(c))))
      chk_f("vec4", c, want, scale, N * 4, 8.0 / (1 << 23), 0);
   uint8_t *ua = gmem(N * 16), *ub = gmem(N * 16), *uc = gmem(N * 16), uw[N * 16];
   for (int i = 0; i < N * 16; i++) {
      ua[i] = (uint8_t)rnd();
      ub[i] = (uint8_t)rnd();
      unsigned x = ua[i], y = ub[i];
      unsigned s = x + y > 255 ? 255 : x + y;
      uw[i] = (uint8_t)(s + (x & y) + (x > y ? x : y) + ((x + y + 1) >> 1) + (x >> 2) +
                        (x > y ? x - y : y - x));
   }
   if (!run(kget(&f, "uchar16ops"), 1, G(N), G(64), ARGS(AP(ua), AP(ub), AP(uc))))
      CHK("uchar16", uc, uw, N * 16);
   kclose(&f);
}

static void
t_indexing(void)
{
   kfile f = kopen("k14_indexing");
   enum { W = 64, H = 32 };
   float *m = gmem(W * H * 4), mw[W * H];
   for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++)
         mw[y * W + x] = (float)((x % 16) + (y % 8) * 16) + (float)(y / 8) + 4.0f;
   if (!run(kget(&f, "idx2d"), 2, G(W, H), G(16, 8), ARGS(AP(m), AI(W))))
      CHK("m", (uint32_t *)m, (uint32_t *)mw, W * H);
   uint32_t *o = gmem(8 * 4 * 4 * 4), ow[128];
   for (int z = 0; z < 4; z++)
      for (int y = 0; y < 4; y++)
         for (int x = 0; x < 8; x++)
            ow[(z * 4 + y) * 8 + x] = (uint32_t)((z % 2) * 1000 + (z / 2) * 100 + 3 + 2 + 2);
   if (!run(kget(&f, "idx3d"), 3, G(8, 4, 4), G(4, 2, 2), ARGS(AP(o))))
      CHK("o", o, ow, 128);
   uint64_t *so = gmem(256 * 8), sw[256];
   for (int i = 0; i < 256; i++)
      sw[i] = 3 + 2 + 1 + 64;
   g_goff[0] = 3, g_goff[1] = 2, g_goff[2] = 1;
   if (!run(kget(&f, "offsets"), 1, G(256), G(64), ARGS(AP(so))))
      CHK("offsets", so, sw, 256);
   g_goff[0] = g_goff[1] = g_goff[2] = 0;
   kclose(&f);
}

static void
t_printf(void)
{
   kfile f = kopen("k15_printf");
   int32_t *a = gmem(4);
   a[0] = 42;
   uint32_t *pb = g_printf_buf;
   pb[0] = 8;
   pb[1] = 1 << 20;
   /* Output decoding belongs to the driver; the dispatch must complete without a fault. */
   run(kget(&f, "pf"), 1, G(128), G(64), ARGS(AP(a), AF(1.5f)));
   kclose(&f);
}

static void
t_private(void)
{
   kfile f = kopen("k16_private_spill");
   enum { N = 512 };
   int32_t *idx = gmem(N * 4), *io = gmem(N * 4), iw[N];
   float *out = gmem(N * 4), w[N];
   for (int g = 0; g < N; g++) {
      idx[g] = (int32_t)rnd();
      int k = idx[g] & 63, k16 = idx[g] & 15;
      w[g] = (float)g * 2016.0f + 1.0f;
      (void)k;
      iw[g] = 2 * k16 + (int32_t)(k16 * g);
   }
   if (!run(kget(&f, "priv"), 1, G(N), G(64), ARGS(AP(idx), AP(out))))
      CHK("priv", (uint32_t *)out, (uint32_t *)w, N);
   if (!run(kget(&f, "priv_struct"), 1, G(N), G(64), ARGS(AP(idx), AP(io))))
      CHK("priv_struct", io, iw, N);
   kclose(&f);
}

static void
t_divergence(void)
{
   kfile f = kopen("k17_divergence");
   enum { N = 1024 };
   int32_t *in = gmem((N + 1) * 4), *out = gmem(N * 4), w[N];
   for (int i = 0; i <= N; i++)
      in[i] = (int32_t)(rnd() % 64);
   for (int i = 0; i < N; i++) {
      int v = in[i], r = 0;
      if (v & 1) {
         for (int j = 0; j < v; j++)
            r += j * v;
      } else if (v & 2) {
         while (v > 1) {
            v = (v & 1) ? 3 * v + 1 : v / 2;
            r++;
         }
      } else {
         switch (v & 12) {
         case 0: r = 7; break;
         case 4: r = in[i + 1]; break;
         case 8: r = -v; break;
         default: r = v * v;
         }
      }
      w[i] = r;
   }
   if (!run(kget(&f, "diverge"), 1, G(N), G(64), ARGS(AP(in), AP(out))))
      CHK("diverge", out, w, N);
   float *fin = gmem(N * 4), *fout = gmem(N * 4), fw[N];
   for (int i = 0; i < N; i++) {
      fin[i] = rndf(-50, 150);
      fout[i] = -7.0f;
      float x = fin[i];
      if (x < 0) {
         fw[i] = -7.0f;
         continue;
      }
      for (int k = 0; k < 100; k++) {
         x = x * 0.5f + 1.0f;
         if (x > 100.0f)
            break;
      }
      fw[i] = x;
   }
   if (!run(kget(&f, "early_exit"), 1, G(N), G(64), ARGS(AP(fin), AP(fout))))
      CHK("early_exit", (uint32_t *)fout, (uint32_t *)fw, N);
   kclose(&f);
}

static void
t_fences(void)
{
   kfile f = kopen("k18_fences");
   enum { N = 256, L = 64 };
   int32_t *g = gmem((N + 1) * 4);
   if (!run(kget(&f, "fences"), 1, G(N), G(L), ARGS(AP(g), ALOCAL(L * 4)))) {
      if (g[0] != 1)
         fail("g[0] = %d", g[0]);
      for (int j = 1; j <= N; j++)
         if ((j % L != 0 && g[j] != 2) || (g[j] != 1 && g[j] != 2))
            fail("g[%d] = %d", j, g[j]);
   }
   kclose(&f);
}

static uint16_t
h16(float x)
{
   _Float16 h = (_Float16)x;
   uint16_t u;
   memcpy(&u, &h, 2);
   return u;
}
static float
f16(uint16_t u)
{
   _Float16 h;
   memcpy(&h, &u, 2);
   return (float)h;
}

static void
t_half(void)
{
   kfile f = kopen("k19_half");
   enum { N = 256 };
   uint16_t *h = gmem(4 * N * 2), *o = gmem(9216 * 2);
   float *fo = gmem(N * 4), fw[N];
   for (int i = 0; i < 4 * N; i++)
      h[i] = h16(rndf(-60, 60));
   if (run(kget(&f, "halfio"), 1, G(N), G(64), ARGS(AP(h), AP(fo), AP(o)))) {
      kclose(&f);
      return;
   }
   uint16_t ow[N], orz[N];
   for (int i = 0; i < N; i++) {
      float x = f16(h[i]);
      fw[i] = x * 2.0f;
      ow[i] = h16(x + 1.0f);
      float t = x * 3.0f;
      uint16_t r = h16(t);
      if (fabsf(f16(r)) > fabsf(t))
         r = (uint16_t)(r - 1); /* round toward zero: previous magnitude */
      orz[i] = r;
   }
   CHK("f", (uint32_t *)fo, (uint32_t *)fw, N);
   CHK("o", o, ow, N);
   CHK("o_rtz", o + 1024, orz, N);
   for (int i = N / 2; i < N; i++)
      for (int k = 0; k < 4; k++)
         if (o[4 * (i + 2048) + k] != h[4 * i + k])
            fail("half4[%d] = 0x%x, want 0x%x", 4 * i + k, o[4 * (i + 2048) + k], h[4 * i + k]);
   kclose(&f);
}

static void
t_matmul(void)
{
   kfile f = kopen("k20_matmul");
   enum { M = 40, N = 48, K = 56 };
   float *A = gmem(M * K * 4), *B = gmem(K * N * 4), *C = gmem(M * N * 4), W[M * N];
   for (int i = 0; i < M * K; i++)
      A[i] = (float)((int)(rnd() % 5) - 2);
   for (int i = 0; i < K * N; i++)
      B[i] = (float)((int)(rnd() % 5) - 2);
   for (int r = 0; r < M; r++)
      for (int c = 0; c < N; c++) {
         float s = 0;
         for (int k = 0; k < K; k++)
            s += A[r * K + k] * B[k * N + c];
         W[r * N + c] = s;
      }
   if (!run(kget(&f, "matmul_tiled"), 2, G(48, 48), G(16, 16),
            ARGS(AP(A), AP(B), AP(C), AI(M), AI(N), AI(K))))
      CHK("C", (uint32_t *)C, (uint32_t *)W, M * N);
   kclose(&f);
}

static void
t_transpose(void)
{
   kfile f = kopen("k21_transpose");
   enum { W = 50, H = 37 };
   float *in = gmem(W * H * 4), *out = gmem(W * H * 4), w[W * H];
   for (int i = 0; i < W * H; i++)
      in[i] = (float)rnd();
   for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++)
         w[x * H + y] = in[y * W + x];
   if (!run(kget(&f, "transpose"), 2, G(64, 48), G(16, 16),
            ARGS(AP(out), AP(in), AI(W), AI(H), ALOCAL(16 * 17 * 4))))
      CHK("out", (uint32_t *)out, (uint32_t *)w, W * H);
   kclose(&f);
}

static void
t_scan(void)
{
   kfile f = kopen("k22_scan");
   enum { L = 128, n = 256, NG = 4 };
   int32_t *in = gmem(n * NG * 4), *out = gmem(n * NG * 4), w[n * NG];
   for (int i = 0; i < n * NG; i++)
      in[i] = (int32_t)(rnd() % 1000) - 500;
   for (int g = 0; g < NG; g++) {
      int s = 0;
      for (int i = 0; i < n; i++) {
         w[g * n + i] = s;
         s += in[g * n + i];
      }
   }
   if (!run(kget(&f, "scan_blelloch"), 1, G(L * NG), G(L),
            ARGS(AP(in), AP(out), ALOCAL(n * 4), AI(n))))
      CHK("scan", out, w, n * NG);
   kclose(&f);
}

static void
t_bitonic(void)
{
   kfile f = kopen("k23_bitonic");
   kern k = kget(&f, "bitonic_step");
   enum { N = 1024, LOG = 10 };
   uint32_t *d = gmem(N * 4), h[N];
   for (int i = 0; i < N; i++)
      d[i] = h[i] = rnd() % 5000;
   for (uint32_t stage = 0; stage < LOG; stage++)
      for (uint32_t pass = 0; pass <= stage; pass++) {
         if (run(k, 1, G(N / 2), G(64), ARGS(AP(d), AI(stage), AI(pass), AI(1)))) {
            kclose(&f);
            return;
         }
         for (uint32_t id = 0; id < N / 2; id++) {
            uint32_t pair = 1u << (stage - pass);
            uint32_t left = (id % pair) + (id / pair) * 2 * pair, right = left + pair;
            uint32_t a = h[left], b = h[right];
            uint32_t sd = ((id / (1u << stage)) % 2 == 1) ? 0 : 1;
            uint32_t g = a > b ? a : b, l = a > b ? b : a;
            h[left] = sd ? l : g;
            h[right] = sd ? g : l;
         }
      }
   CHK("sorted", d, h, N);
   for (int i = 1; i < N; i++)
      if (h[i - 1] > h[i]) {
         fail("reference not sorted at %d", i);
         break;
      }
   kclose(&f);
}

static void
t_mandel(void)
{
   kfile f = kopen("k25_mandelbrot");
   enum { W = 64, H = 48, IT = 64 };
   uint32_t *o = gmem(W * H * 4), *od = gmem(W * H * 4);
   float x0 = -2.0f, y0 = -1.2f, dx = 3.0f / W, dy = 2.4f / H;
   if (!run(kget(&f, "mandel"), 2, G(W, H), G(16, 4),
            ARGS(AP(o), AF(x0), AF(y0), AF(dx), AF(dy), AI(IT)))) {
      int bad = 0;
      for (int py = 0; py < H; py++)
         for (int px = 0; px < W; px++) {
            float cr = x0 + px * dx, ci = y0 + py * dy, zr = 0, zi = 0;
            int it = 0;
            while (it < IT && zr * zr + zi * zi < 4.0f) {
               float t = zr * zr - zi * zi + cr;
               zi = 2 * zr * zi + ci;
               zr = t;
               it++;
            }
            bad += o[py * W + px] != (uint32_t)it;
         }
      if (bad > W * H / 50)
         fail("mandel: %d of %d pixels differ", bad, W * H);
   }
   if (!run(kget(&f, "mandel_d"), 2, G(W, H), G(16, 4),
            ARGS(AP(od), AD(-2.0), AD(-1.2), AD(3.0 / W), AD(2.4 / H), AI(IT)))) {
      int bad = 0;
      for (int py = 0; py < H; py++)
         for (int px = 0; px < W; px++) {
            double cr = -2.0 + px * (3.0 / W), ci = -1.2 + py * (2.4 / H), zr = 0, zi = 0;
            int it = 0;
            while (it < IT && zr * zr + zi * zi < 4.0) {
               double t = zr * zr - zi * zi + cr;
               zi = 2 * zr * zi + ci;
               zr = t;
               it++;
            }
            bad += od[py * W + px] != (uint32_t)it;
         }
      if (bad > W * H / 100)
         fail("mandel_d: %d of %d pixels differ", bad, W * H);
   }
   kclose(&f);
}

static void
t_conv2d(void)
{
   kfile f = kopen("k26_conv2d");
   enum { W = 40, H = 30, FW = 5 };
   float *img = gmem(W * H * 4), *filt = gmem(FW * FW * 4), *out = gmem(W * H * 4), w[W * H];
   for (int i = 0; i < W * H; i++)
      img[i] = (float)(rnd() % 10);
   for (int i = 0; i < FW * FW; i++)
      filt[i] = (float)((int)(rnd() % 5) - 2);
   for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++) {
         float s = 0;
         for (int j = -2; j <= 2; j++)
            for (int i = -2; i <= 2; i++) {
               int xx = x + i < 0 ? 0 : x + i > W - 1 ? W - 1 : x + i;
               int yy = y + j < 0 ? 0 : y + j > H - 1 ? H - 1 : y + j;
               s += img[yy * W + xx] * filt[(j + 2) * FW + i + 2];
            }
         w[y * W + x] = s;
      }
   /* 40x30 with 16x8 work-groups: partial groups at the right and bottom edges. */
   if (!run(kget(&f, "conv2d"), 2, G(W, H), G(16, 8),
            ARGS(AP(img), AP(filt), AP(out), AI(W), AI(H), AI(FW))))
      CHK("out", (uint32_t *)out, (uint32_t *)w, W * H);
   kclose(&f);
}

static void
t_struct_args(void)
{
   kfile f = kopen("k28_struct_args");
   enum { N = 128 };
   struct params {
      float x, y;
      int n;
      double d;
   } p = {0.5f, 1.25f, 3, 2.5}, *ps = gmem(N * sizeof(struct params));
   float *o = gmem(N * 4), w[N];
   for (int i = 0; i < N; i++)
      w[i] = p.x * i + p.y + p.n + (float)p.d;
   if (!run(kget(&f, "structarg"), 1, G(N), G(64),
            ARGS(ASTRUCT(&p, sizeof(p), 8), AP(o), AP(ps)))) {
      CHK("o", (uint32_t *)o, (uint32_t *)w, N);
      for (int i = 0; i < N; i++)
         if (ps[i].x != p.y || ps[i].n != i || ps[i].d != 5.0)
            fail("ps[%d] = {%g, %d, %g}", i, ps[i].x, ps[i].n, ps[i].d);
   }
   double *od = gmem(64 * 8), dw[64];
   signed char a = -3;
   unsigned char b = 200;
   short c = -1000;
   unsigned short d = 60000;
   int e = -70000;
   unsigned fu = 5;
   long g = -(1l << 40);
   unsigned long h = 7;
   float fl = 0.5f;
   double db = 0.25;
   for (int i = 0; i < 64; i++)
      dw[i] = a + b + c + d + e + fu + g + h + fl + db;
   if (!run(kget(&f, "manyargs"), 1, G(64), G(64),
            ARGS(AB(a), AB(b), AS(c), AS(d), AI(e), AI(fu), AL(g), AL(h), AF(fl), AD(db),
                 AP(od))))
      CHK("manyargs", (uint64_t *)od, (uint64_t *)dw, 64);
   kclose(&f);
}

static void
t_bitops(void)
{
   kfile f = kopen("k29_bitops");
   enum { N = 1024 };
   uint32_t *a = gmem((2048 + N) * 4), aw[2048 + N];
   uint64_t *b = gmem(N * 8), bw[N];
   for (int i = 0; i < N; i++) {
      a[i] = rnd() >> (rnd() % 8);
      b[i] = ((uint64_t)rnd() << 32 | rnd()) >> (rnd() % 64);
   }
   for (int i = 0; i < N; i++) {
      uint32_t x = a[i];
      uint64_t y = b[i];
      aw[i] = (x >> 3) |
              ((x << 29) ^ ((x & 0xff00ff) + (uint32_t)((int32_t)x >> 5) + (x >> (x & 31))));
      bw[i] = (y >> 17) |
              ((y << (x & 63)) ^ (((uint64_t)((int64_t)y >> (x & 63))) +
                                  (uint64_t)(y ? __builtin_ctzll(y) : 64) +
                                  (uint64_t)(y ? __builtin_clzll(y) : 64) +
                                  (uint64_t)__builtin_popcountll(y)));
      uint32_t r = 0;
      for (int k = 0; k < 32; k++)
         r |= ((x >> k) & 1u) << (31 - k);
      aw[i + 2048] = r;
   }
   if (!run(kget(&f, "bits"), 1, G(N), G(64), ARGS(AP(a), AP(b)))) {
      CHK("a", a, aw, N);
      CHK("a+2048", a + 2048, aw + 2048, N);
      CHK("b", b, bw, N);
   }
   kclose(&f);
}

static void
t_char_short(void)
{
   kfile f = kopen("k30_char_short");
   enum { N = 1024 };
   int8_t *c = gmem(N), *oc = gmem(N), cw[N];
   uint8_t *uc = gmem(N);
   int16_t *s = gmem(N * 2), *os = gmem(N * 2), sw[N];
   uint16_t *us = gmem(N * 2);
   int32_t *o = gmem(N * 4), ow[N];
   for (int i = 0; i < N; i++) {
      c[i] = (int8_t)rnd(), uc[i] = (uint8_t)rnd(), s[i] = (int16_t)rnd(), us[i] = (uint16_t)rnd();
      ow[i] = c[i] * uc[i] + s[i] / (int16_t)(us[i] | 1) + us[i] % 7;
      sw[i] = (int16_t)((int16_t)(s[i] * 3) >> 1);
      cw[i] = (int8_t)((int8_t)(c[i] + uc[i]) / 3);
   }
   if (!run(kget(&f, "narrow"), 1, G(N), G(64),
            ARGS(AP(c), AP(uc), AP(s), AP(us), AP(o), AP(os), AP(oc)))) {
      CHK("o", o, ow, N);
      CHK("os", os, sw, N);
      CHK("oc", oc, cw, N);
   }
   kclose(&f);
}

static void
t_rng(void)
{
   kfile f = kopen("k37_rng");
   enum { N = 256, n = 200 };
   uint32_t *st = gmem(N * 4), sw[N];
   float *out = gmem(N * 4);
   double ow[N];
   for (int i = 0; i < N; i++) {
      uint32_t s = st[i] = rnd() | 1;
      int hits = 0;
      for (int k = 0; k < n; k++) {
         s ^= s << 13, s ^= s >> 17, s ^= s << 5;
         float x = (s & 0xffffff) / 16777216.0f;
         s ^= s << 13, s ^= s >> 17, s ^= s << 5;
         float y = (s & 0xffffff) / 16777216.0f;
         hits += (x * x + y * y <= 1.0f);
      }
      sw[i] = s;
      ow[i] = 4.0 * hits / n;
   }
   if (!run(kget(&f, "xorshift_mc"), 1, G(N), G(64), ARGS(AP(st), AP(out), AI(n)))) {
      CHK("state", st, sw, N);
      chk_f("pi", out, ow, NULL, N, 0, 8.0 / n + 1e-6);
   }
   kclose(&f);
}

static double
cnd(double d)
{
   const double A1 = 0.31938153, A2 = -0.356563782, A3 = 1.781477937, A4 = -1.821255978,
                A5 = 1.330274429, R = 0.39894228040143267793994605993438;
   double K = 1.0 / (1.0 + 0.2316419 * fabs(d));
   double c = R * exp(-0.5 * d * d) * (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5)))));
   return d > 0 ? 1.0 - c : c;
}

static void
t_black_scholes(void)
{
   kfile f = kopen("k39_black_scholes");
   enum { N = 1024 };
   float *call = gmem(N * 4), *put = gmem(N * 4), *S = gmem(N * 4), *X = gmem(N * 4),
         *T = gmem(N * 4), R = 0.02f, V = 0.3f;
   double cw[N], pw[N], sc[N];
   for (int i = 0; i < N; i++) {
      S[i] = rndf(5, 30), X[i] = rndf(1, 100), T[i] = rndf(0.25f, 10);
      double s = S[i], x = X[i], t = T[i], sq = sqrt(t), r = R, v = V;
      double d1 = (log(s / x) + (r + 0.5 * v * v) * t) / (v * sq), d2 = d1 - v * sq;
      double e = exp(-r * t);
      cw[i] = s * cnd(d1) - x * e * cnd(d2);
      pw[i] = x * e * (1.0 - cnd(d2)) - s * (1.0 - cnd(d1));
      sc[i] = s + x;
   }
   if (!run(kget(&f, "bs"), 1, G(N), G(64),
            ARGS(AP(call), AP(put), AP(S), AP(X), AP(T), AF(R), AF(V)))) {
      chk_f("call", call, cw, sc, N, 2e-6, 0);
      chk_f("put", put, pw, sc, N, 2e-6, 0);
   }
   kclose(&f);
}

static void
t_atomic_cl2(void)
{
   kfile f = kopen("k40_atomic_cl2");
   int32_t *a = gmem(8 * 4);
   uint32_t *u = gmem(4);
   int64_t *al = gmem(3 * 8);
   float *af = gmem(4);
   a[3] = 9;
   al[2] = 5;
   af[0] = 3.0f;
   if (!run(kget(&f, "c11atomics"), 1, G(128), G(64),
            ARGS(AP(a), AP(u), ALOCAL(4), AP(al), AP(af)))) {
      if (a[0] != 128 || u[0] != 63 || a[1] < 0 || a[1] > 63 || a[2] < 0 || a[2] > 63 ||
          a[3] != 9)
         fail("a = {%d, %d, %d, %d}, u = %u", a[0], a[1], a[2], a[3], u[0]);
      if (al[0] != 9 * 128 || al[1] != 0 || al[2] != 6)
         fail("al = {%lld, %lld, %lld}", (long long)al[0], (long long)al[1], (long long)al[2]);
      if (af[0] != 1.0f || (a[4] != 130 && a[4] != 132))
         fail("af = %g, a[4] = %d", af[0], a[4]);
   }
   kclose(&f);
}

static void
t_wg_generic(void)
{
   kfile f = kopen("k41_cl2_wg_generic");
   enum { N = 256, L = 64 };
   int32_t *a = gmem(N * 4), aw[N], a0[N];
   float *fl = gmem(N * 4), fw[N];
   uint32_t *u = gmem((4096 + N) * 4), uw[N], uw2[N];
   for (int i = 0; i < N; i++) {
      a0[i] = a[i] = (int32_t)(rnd() % 8);
      fl[i] = (float)(int)(rnd() % 16) - 4.0f;
   }
   for (int g = 0; g < N / L; g++) {
      int sum = 0, any = 0, all = 1, mx = INT32_MIN;
      float mn = INFINITY, fs = 0;
      for (int i = g * L; i < g * L + L; i++) {
         sum += a0[i], any |= a0[i] > 3, all &= a0[i] < 100;
         mn = fl[i] < mn ? fl[i] : mn;
      }
      for (int i = g * L; i < g * L + L; i++) {
         mx = a0[i] > mx ? a0[i] : mx;
         aw[i] = sum + mx + a0[g * L] + any + all;
         fw[i] = mn + fs;
         fs += fl[i];
      }
      for (int i = g * L; i < g * L + L; i++) {
         int lid = i - g * L;
         uw[i] = (uint32_t)(i + 1) + (uint32_t)(aw[i] + 1) + (uint32_t)(a0[g * L + ((lid + 1) & 63)] + 1);
         uw2[i] = (i & 1) ? (uint32_t)aw[i] + 1 : (uint32_t)a0[g * L] + 1;
      }
   }
   if (!run(kget(&f, "wgfuncs"), 1, G(N), G(L), ARGS(AP(a), AP(fl), AP(u)))) {
      CHK("a", a, aw, N);
      CHK("f", (uint32_t *)fl, (uint32_t *)fw, N);
      CHK("u", u, uw, N);
      CHK("u+4096", u + 4096, uw2, N);
   }
   kclose(&f);
}


/* Division and square root: bit-exact against the host, including denormal, huge and tiny
 * operands and quotients (the div_scale / div_fmas scaling cases) and specials. f32
 * division is exact only with -cl-fp32-correctly-rounded-divide-sqrt (else 2.5 ULP);
 * with -cl-denorms-are-zero f32 denormal operands and results flush to zero. */
static int
is_den32(float x)
{
   return x != 0 && fabsf(x) < 0x1p-126f;
}

static void
t_exact(void)
{
   kfile f = kopen("x01_exact_div_sqrt");
   enum { N = 1024 };
   float *a = gmem(N * 4), *b = gmem(N * 4), *o = gmem(2 * N * 4);
   double *da = gmem(N * 8), *db = gmem(N * 8), *od = gmem(3 * N * 8);
   static const float sa[] = {1, 3, 0x1p-149f, 0x1.8p-130f, 0x1p127f, 0x1.fffffep127f, 0,
                              -0.0f, INFINITY, -5, NAN, 0x1p-100f, 7};
   static const float sb[] = {3, 7, 3, 0x1p100f, 0x1p-30f, 0x1.000002p-126f, 0, 5, INFINITY,
                              0x1.8p-140f, 2, 0x1p120f, 0x1p-127f};
   static const double sda[] = {1, 3, 0x1p-1074, 0x1.8p-1030, 0x1p1023, 0x1.fffffffffffffp1023,
                                0, -0.0, INFINITY, -5, NAN, 0x1p-900, 7};
   static const double sdb[] = {3, 7, 3, 0x1p900, 0x1p-300, 0x1.0000000000001p-1022, 0, 5,
                                INFINITY, 0x1.8p-1060, 2, 0x1p1000, 0x1p-1023};
   for (int i = 0; i < N; i++) {
      int k = i % 16;
      if (k < 13) {
         a[i] = sa[k] * (i & 16 ? -1 : 1);
         b[i] = sb[k];
         da[i] = sda[k] * (i & 16 ? -1 : 1);
         db[i] = sdb[k];
      } else {
         uint32_t u = rnd(), v = rnd();
         memcpy(&a[i], &u, 4);
         memcpy(&b[i], &v, 4);
         uint64_t x = (uint64_t)rnd() << 32 | rnd(), y = (uint64_t)rnd() << 32 | rnd();
         memcpy(&da[i], &x, 8);
         memcpy(&db[i], &y, 8);
      }
   }
   if (run(kget(&f, "exact"), 1, G(N), G(64),
           ARGS(AP(a), AP(b), AP(o), AP(da), AP(db), AP(od), AI(N)))) {
      kclose(&f);
      return;
   }
   int bad = 0;
   for (int i = 0; i < N; i++) {
      float x = a[i], y = b[i];
      if (g_daz && (is_den32(x) || is_den32(y) || is_den32(x / y) || is_den32(sqrtf(x))))
         continue;
      float q = x / y, r = sqrtf(x);
      uint32_t gq, wq, gr, wr;
      memcpy(&gq, &o[i], 4), memcpy(&wq, &q, 4), memcpy(&gr, &o[i + N], 4), memcpy(&wr, &r, 4);
      int qok = isnan(q) ? isnan(o[i]) : gq == wq;
      if (!qok && strcmp(g_variant, "crdiv")) /* 2.5 ULP allowed */
         qok = fabs((double)o[i] - q) <= 2.5 * (nextafterf(fabsf(q), INFINITY) - fabsf(q));
      if (!qok && bad++ < 5)
         fail("%a / %a = %a, want %a", x, y, o[i], q);
      if (!(isnan(r) ? isnan(o[i + N]) : gr == wr) && bad++ < 5)
         fail("sqrt(%a) = %a, want %a", x, o[i + N], r);
      double dq = da[i] / db[i], dr = sqrt(da[i]), dc = 1.0 / db[i];
      const double *g = od;
      if (!(isnan(dq) ? isnan(g[i]) : memcmp(&g[i], &dq, 8) == 0) && bad++ < 5)
         fail("%a / %a = %a, want %a", da[i], db[i], g[i], dq);
      if (!(isnan(dr) ? isnan(g[i + N]) : memcmp(&g[i + N], &dr, 8) == 0) && bad++ < 5)
         fail("sqrt(%a) = %a, want %a", da[i], g[i + N], dr);
      if (!(isnan(dc) ? isnan(g[i + 2 * N]) : memcmp(&g[i + 2 * N], &dc, 8) == 0) && bad++ < 5)
         fail("1 / %a = %a, want %a", db[i], g[i + 2 * N], dc);
   }
   if (bad > 5)
      fail("%d inexact results in all", bad);
   kclose(&f);
}

/* ---- Conversions, shuffles, vector and misc kernels with host references ------------------- */

/* Float -> integer with an OpenCL rounding mode: 'z' toward zero, 'e' nearest even, 'p'
 * toward +inf, 'n' toward -inf; NaN -> 0 and saturation to [lo, hi] (the _sat forms; the
 * tests keep non-saturating conversions in range). */
static double
rnd_mode(double x, char m)
{
   return m == 'z' ? trunc(x) : m == 'e' ? nearbyint(x) : m == 'p' ? ceil(x) : floor(x);
}
static int64_t
cvt_sat(double x, char m, double lo, double hi)
{
   if (isnan(x))
      return 0;
   double r = rnd_mode(x, m);
   return r < lo ? (int64_t)lo : r > hi ? (int64_t)hi : (int64_t)r;
}
static uint64_t
cvt_sat_u64(double x, char m)
{
   if (isnan(x) || x <= 0)
      return 0;
   double r = rnd_mode(x, m);
   return r >= 0x1p64 ? UINT64_MAX : (uint64_t)r;
}
/* Integer or double -> float rounded toward +inf ('p'), -inf ('n') or zero ('z'), from the
 * round-to-nearest result (long double holds every int64 exactly). */
static float
to_f32(long double v, char m)
{
   float f = (float)v;
   if (m == 'p' && (long double)f < v)
      f = nextafterf(f, INFINITY);
   if (m == 'n' && (long double)f > v)
      f = nextafterf(f, -INFINITY);
   if (m == 'z' && fabsl((long double)f) > fabsl(v))
      f = nextafterf(f, 0);
   return f;
}

static void
t_convert(void)
{
   kfile f = kopen("k11_convert");
   enum { N = 256 };
   float *fx = gmem(N * 4), *of = gmem(N * 4), fw[N];
   double *dy = gmem(N * 8);
   int32_t *iz = gmem(N * 4), *oi = gmem(N * 4), oiw[N];
   int64_t *lw = gmem(N * 8), *ol = gmem(N * 8), olw[N];
   uint8_t *u8 = gmem(N), u8w[N];
   int8_t *s8 = gmem(N), s8w[N];
   uint16_t *u16 = gmem(N * 2), u16w[N];
   int16_t *s16 = gmem(N * 2), s16w[N];
   uint32_t *ou = gmem(N * 4), ouw[N];
   uint64_t *oul = gmem(N * 8), oulw[N];
   static const float fs[] = {2.5f, 3.5f, -0.5f, -0.75f, 255.5f, 127.5f, 256.7f, 65535.5f,
                              70000.7f, 32767.5f, -0.0f, 2.1e9f, 0.25f, 1e6f + 0.5f};
   static const double ds[] = {-3e9, 5e9, 1e18, -1e18, 4294967295.5, 65535.6, 2.5, -2.5,
                               2147483647.5, -2147483648.7, 0x1.fffffffp60, NAN};
   static const int64_t ls[] = {INT64_MIN, INT64_MAX, 127, 128, -129, 0x7FFFFFFFll << 8,
                                (1ll << 53) + 1, -(1ll << 40) - 3};
   for (int i = 0; i < N; i++) {
      fx[i] = i % 3 ? rndf(0, 300) : fs[(i / 3) % 14];
      dy[i] = i % 4 ? rndf(-70000, 70000) : ds[(i / 4) % 12];
      iz[i] = (int32_t)rnd() >> (rnd() % 24);
      lw[i] = i % 2 ? (int64_t)((uint64_t)rnd() << 32 | rnd()) >> (rnd() % 60)
                    : ls[(i / 2) % 8];
      double x = fx[i], y = dy[i];
      int32_t z = iz[i];
      int64_t w = lw[i];
      /* convert_int_sat_rte(double NaN): the device library clamps with v_max_f64 /
       * v_min_f64 before v_cvt_i32_f64, and IEEE max(NaN, -2^31) is -2^31, so the machine
       * code gives INT_MIN where OpenCL 6.2.3.3 asks for 0 (a library deviation, the same
       * on hardware). hsacl's compiler overrides the saturating conversions
       * (compiler/comp_builtins.cl): objects it built (the "spirv" variant, from
       * tests/CMakeLists.txt) give the 0 OpenCL asks for. convert_long_rte(NaN) is undefined:
       * ol is not checked there. */
      int32_t isat_y = isnan(y) ? (g_hsacl_built ? 0 : INT32_MIN)
                                : (int32_t)cvt_sat(y, 'e', INT32_MIN, INT32_MAX);
      u8w[i] = (uint8_t)(cvt_sat(x, 'z', 0, 255) + cvt_sat(x, 'e', 0, 255) +
                         (z < 0 ? 0 : z > 255 ? 255 : z));
      s8w[i] = (int8_t)(cvt_sat(x, 'z', -128, 127) + (w < -128 ? -128 : w > 127 ? 127 : w) +
                        (int8_t)z);
      u16w[i] = (uint16_t)(cvt_sat(x, 'p', 0, 65535) + cvt_sat(y, 'z', 0, 65535));
      s16w[i] = (int16_t)(cvt_sat(x, 'n', -32768, 32767) +
                          (z < -32768 ? -32768 : z > 32767 ? 32767 : z));
      oiw[i] = (int32_t)((uint32_t)cvt_sat(x, 'z', INT32_MIN, INT32_MAX) +
                         (uint32_t)rnd_mode(x, 'p') + (uint32_t)(int64_t)rnd_mode(x, 'n') +
                         (uint32_t)rnd_mode(x, 'e') + (uint32_t)isat_y +
                         (uint32_t)(w < INT32_MIN ? INT32_MIN : w > INT32_MAX ? INT32_MAX : w));
      ouw[i] = (uint32_t)cvt_sat(x, 'z', 0, UINT32_MAX) + (uint32_t)cvt_sat(y, 'z', 0, UINT32_MAX) +
               (uint32_t)trunc(x);
      olw[i] = isnan(y) ? 0 : (int64_t)((uint64_t)cvt_sat(x, 'z', -0x1p63, 0x1p63) +
                                        (uint64_t)(int64_t)nearbyint(y) +
                                        (uint64_t)(int64_t)trunc(x));
      oulw[i] = cvt_sat_u64(y, 'z') + (uint64_t)trunc(x);
      fw[i] = to_f32(y, 'z') + to_f32(w, 'p') + to_f32(z, 'n') + (float)w + (float)(uint32_t)z +
              (float)(uint64_t)w;
   }
   if (!run(kget(&f, "conv"), 1, G(N), G(64),
            ARGS(AP(fx), AP(dy), AP(iz), AP(lw), AP(u8), AP(s8), AP(u16), AP(s16), AP(oi),
                 AP(ou), AP(ol), AP(oul), AP(of)))) {
      for (int i = 0; i < N; i++)
         if (isnan(dy[i]))
            olw[i] = ol[i];
      CHK("u8", u8, u8w, N);
      CHK("s8", s8, s8w, N);
      CHK("u16", u16, u16w, N);
      CHK("s16", s16, s16w, N);
      CHK("oi", oi, oiw, N);
      CHK("ou", ou, ouw, N);
      CHK("ol", ol, olw, N);
      CHK("oul", oul, oulw, N);
      CHK("of", (uint32_t *)of, (uint32_t *)fw, N);
   }
   kclose(&f);
}

static void
t_shuffle_select(void)
{
   kfile f = kopen("k13_shuffle_select");
   enum { N = 256 };
   float *a = gmem(N * 16), *o = gmem(N * 16), *o8 = gmem(N * 32), ow[N * 4], o8w[N * 8];
   uint32_t *m = gmem(N * 16);
   for (int i = 0; i < N * 4; i++) {
      a[i] = rndf(-100, 100);
      m[i] = rnd(); /* shuffle uses the low 2 bits of each mask element */
   }
   static const int sel2[8] = {0, 7, 1, 6, 2, 5, 3, 4};
   for (int i = 0; i < N - 1; i++) {
      for (int c = 0; c < 4; c++)
         ow[i * 4 + c] = a[i * 4 + (m[i * 4 + c] & 3)];
      for (int c = 0; c < 8; c++)
         o8w[i * 8 + c] = a[i * 4 + sel2[c]]; /* a[i], a[i + 1] are contiguous */
   }
   if (!run(kget(&f, "shuf"), 1, G(N - 1), G(64), ARGS(AP(a), AP(m), AP(o), AP(o8)))) {
      CHK("o", (uint32_t *)o, (uint32_t *)ow, (N - 1) * 4);
      CHK("o8", (uint32_t *)o8, (uint32_t *)o8w, (N - 1) * 8);
   }

   int32_t *ia = gmem(N * 16), *ib = gmem(N * 16), *io = gmem((N + 1024) * 16),
           iow[(N + 1024) * 4];
   float *fl = gmem(N * 4);
   double fw[N], fsc[N];
   static const float fs[] = {0.0f, -0.0f, 0.5f, 1.0f, -1.0f, 0.25f, 2.0f, -2.5f};
   memset(iow, 0, sizeof(iow));
   for (int i = 0; i < N; i++) {
      int any = 0, all = 1;
      for (int c = 0; c < 4; c++) {
         int32_t x = ia[i * 4 + c] = (int32_t)rnd() >> (rnd() % 31);
         int32_t y = ib[i * 4 + c] = i % 5 == 0 ? -(int32_t)(rnd() % 100) - 1
                                                : (int32_t)rnd() >> (rnd() % 31);
         iow[i * 4 + c] = (int32_t)((uint32_t)(x > y ? y : x) +
                                    (uint32_t)((x & ~0x0f0f0f0f) | (y & 0x0f0f0f0f)));
         any |= x > 0;
         all &= y < 0;
      }
      for (int c = 0; c < 4; c++)
         iow[(i + 1024) * 4 + c] = any + all;
      float x = fl[i] = i < 8 ? fs[i] : rndf(-3, 3);
      double t = x < 0 ? 0 : x > 1 ? 1 : x;
      double terms[9] = {fabsf(x), 0, 0, signbit(x) ? 1 : 0, x < 0.5f ? 0 : 1,
                         t * t * (3 - 2 * t), x > 0 ? 1 : x < 0 ? -1 : 0,
                         x + (1.0 - x) * 0.25, x * (180.0 / M_PI)};
      fw[i] = fsc[i] = 0;
      for (int k = 0; k < 9; k++)
         fw[i] += terms[k], fsc[i] += fabs(terms[k]);
   }
   if (!run(kget(&f, "sel"), 1, G(N), G(64), ARGS(AP(ia), AP(ib), AP(io), AP(fl)))) {
      CHK("o", (uint32_t *)io, (uint32_t *)iow, N * 4);
      CHK("o+1024", (uint32_t *)io + 1024 * 4, (uint32_t *)iow + 1024 * 4, N * 4);
      chk_f("f", fl, fw, fsc, N, 4e-7, 0);
   }
   kclose(&f);
}

static void
t_constant(void)
{
   kfile f = kopen("k27_constant");
   enum { N = 256 };
   float *o = gmem(N * 4), *c = gmem(16 * 4), w[N];
   static const int tbl[4] = {3, 1, 4, 1};
   for (int i = 0; i < 16; i++)
      c[i] = (float)(int)(rnd() % 21) - 10.0f; /* small integers: every sum is exact */
   for (int i = 0; i < N; i++)
      w[i] = (float)(i & 15) * c[3] + (float)tbl[i & 3] + c[0];
   if (!run(kget(&f, "cst"), 1, G(N), G(64), ARGS(AP(o), AP(c), AI(3))))
      CHK("o", (uint32_t *)o, (uint32_t *)w, N);
   kclose(&f);
}

static void
t_nbody(void)
{
   kfile f = kopen("k24_nbody");
   enum { N = 256 };
   const float dt = 0.01f, eps = 0.1f;
   float *pos = gmem(N * 16), *vel = gmem(N * 16), *npos = gmem(N * 16);
   double vw[N * 4], pw[N * 4], vs[N * 4], ps[N * 4];
   for (int i = 0; i < N; i++) {
      for (int c = 0; c < 3; c++)
         pos[i * 4 + c] = rndf(-1, 1), vel[i * 4 + c] = rndf(-0.1f, 0.1f);
      pos[i * 4 + 3] = rndf(0.5f, 1.0f), vel[i * 4 + 3] = 0;
   }
   for (int i = 0; i < N; i++) {
      double a[4] = {0}, as[4] = {0};
      for (int j = 0; j < N; j++) {
         double r[4], d2 = eps;
         for (int c = 0; c < 3; c++)
            r[c] = (double)pos[j * 4 + c] - pos[i * 4 + c], d2 += r[c] * r[c];
         r[3] = 0;
         double s = pos[j * 4 + 3] / (d2 * sqrt(d2));
         for (int c = 0; c < 4; c++)
            a[c] += r[c] * s, as[c] += fabs(r[c] * s);
      }
      for (int c = 0; c < 4; c++) {
         vw[i * 4 + c] = vel[i * 4 + c] + a[c] * dt;
         vs[i * 4 + c] = fabs(vel[i * 4 + c]) + as[c] * dt;
         pw[i * 4 + c] = pos[i * 4 + c] + vw[i * 4 + c] * dt;
         ps[i * 4 + c] = fabs(pos[i * 4 + c]) + vs[i * 4 + c] * dt;
      }
   }
   /* rsqrt: 2 ULP; the sums: a few ULP of the summed magnitudes. */
   if (!run(kget(&f, "nbody"), 1, G(N), G(64),
            ARGS(AP(pos), AP(vel), AP(npos), AI(N), AF(dt), AF(eps)))) {
      chk_f("vel", vel, vw, vs, N * 4, 1e-5, 0);
      chk_f("npos", npos, pw, ps, N * 4, 1e-6, 0);
   }
   kclose(&f);
}

static void
t_localvec(void)
{
   kfile f = kopen("k35_local_vec");
   enum { N = 256, L = 64 };
   float *in = gmem(N * 16), *out = gmem((N + 4096) * 16), w[N * 4], w2[N * 4];
   for (int i = 0; i < N * 4; i++)
      in[i] = (float)(int)(rnd() % 2001) * 0.5f - 500.0f;
   for (int i = 0; i < N; i++) {
      int g = i / L * L, n = g + (i - g + 1) % L, lid = i - g;
      for (int c = 0; c < 4; c++) {
         w[i * 4 + c] = in[n * 4 + c] + (float)((n - g) * 0.5) + (float)(n - g);
         w2[i * 4 + c] = c == 0 ? (float)((lid + 3) & 63) : 0.0f;
      }
   }
   if (!run(kget(&f, "localvec"), 1, G(N), G(L),
            ARGS(AP(in), AP(out), ALOCAL(L * 16), ALOCAL(L * 8), ALOCAL(L)))) {
      CHK("out", (uint32_t *)out, (uint32_t *)w, N * 4);
      CHK("out+4096", (uint32_t *)out + 4096 * 4, (uint32_t *)w2, N * 4);
   }
   kclose(&f);
}

static void
t_dconv(void)
{
   kfile f = kopen("k36_double_conv");
   enum { N = 256 };
   double *d = gmem((N + 2) * 8), *o = gmem(N * 8), ow[N], os[N];
   float *fo = gmem((N + 2) * 4), fw[N + 2];
   int64_t *l = gmem((N + 2) * 8), lw[N + 2];
   int32_t *i32 = gmem(N * 4), iw[N];
   static const double ds[] = {2.5, -2.5, 0.1, -7.75, 1e6 + 0.5, 3.0, -0.001, 0x1.000001p0};
   for (int i = 0; i < N + 2; i++) {
      double x = d[i] = i % 4 ? rndf(-1000, 1000) * 1.0000001 : ds[(i / 4) % 8];
      fw[i] = (float)x;
      lw[i] = (int64_t)x + (int64_t)trunc(x);
      if (i < N)
         iw[i] = (int32_t)x + (int32_t)floor(x);
      /* Work-item i reads f[i + 1], l[i + 1], l[i + 2], which other work-items write: start
       * them at the values those writes store so the order does not matter. */
      fo[i] = fw[i];
      l[i] = lw[i];
   }
   for (int i = 0; i < N; i++) {
      double x = d[i];
      double t[9] = {fw[i + 1], (double)lw[i + 1], (double)(uint64_t)lw[i + 2], x * 3.0,
                     -1.0 / x, x < 1.0 ? x : 2.0, fabs(x), x > 0.5 ? x : 0.5, floor(x)};
      ow[i] = os[i] = 0;
      for (int k = 0; k < 9; k++)
         ow[i] += t[k], os[i] += fabs(t[k]);
   }
   if (!run(kget(&f, "dconv"), 1, G(N), G(64), ARGS(AP(d), AP(fo), AP(l), AP(i32), AP(o)))) {
      CHK("f", (uint32_t *)fo, (uint32_t *)fw, N);
      CHK("l", l, lw, N);
      CHK("i32", i32, iw, N);
      chk_d("o", o, ow, os, N, 1e-15);
   }
   kclose(&f);
}

static void
t_sobel(void)
{
   kfile f = kopen("k38_sobel_uchar4");
   enum { W = 32, H = 16 };
   uint8_t *in = gmem(W * H * 4), *out = gmem(W * H * 4);
   for (int i = 0; i < W * H * 4; i++)
      in[i] = (uint8_t)rnd();
   if (run(kget(&f, "sobel"), 2, G(W, H), G(16, 4), ARGS(AP(in), AP(out), AI(W), AI(H)))) {
      kclose(&f);
      return;
   }
   int bad = 0;
   for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++)
         for (int c = 0; c < 4; c++) {
            uint8_t got = out[(y * W + x) * 4 + c];
            if (x < 1 || y < 1 || x >= W - 1 || y >= H - 1) {
               if (got != 0 && bad++ < 5)
                  fail("border (%d,%d) written", x, y);
               continue;
            }
#define P(dx, dy) ((int)in[((y + (dy)) * W + x + (dx)) * 4 + c])
            int gx = P(1, -1) - P(-1, -1) + 2 * (P(1, 0) - P(-1, 0)) + P(1, 1) - P(-1, 1);
            int gy = P(-1, 1) - P(-1, -1) + 2 * (P(0, 1) - P(0, -1)) + P(1, 1) - P(1, -1);
#undef P
            /* hypot: 4 ULP; the truncating conversion may go one lower or higher only when
             * the exact value is within that of an integer. */
            double h = hypot(gx, gy) / 2, fl = floor(h);
            int want = h >= 255 ? 255 : (int)fl;
            int near = h - fl < 1e-5 * h || fl + 1 - h < 1e-5 * h;
            if (got != want && !(near && abs(got - want) == 1) && bad++ < 5)
               fail("sobel (%d,%d).%d = %d, want %d (%.6f)", x, y, c, got, want, h);
         }
   if (bad > 5)
      fail("sobel: %d mismatches in all", bad);
   kclose(&f);
}

static void
t_vec_misc(void)
{
   kfile f = kopen("k12_vectors");
   enum { N = 256 };
   int32_t *a = gmem(N * 32);
   int16_t *s = gmem(N * 4), sw[N * 2];
   float *f3 = gmem((N + 1) * 12), f0[(N + 1) * 3];
   for (int i = 0; i < N * 8; i++)
      a[i] = (int32_t)rnd() >> (rnd() % 28);
   for (int i = 0; i < N * 2; i++)
      s[i] = (int16_t)rnd();
   for (int i = 0; i < (N + 1) * 3; i++)
      f0[i] = f3[i] = rndf(-100, 100);
   for (int i = 0; i < N; i++)
      for (int c = 0; c < 2; c++) {
         int32_t p = (int32_t)((uint32_t)a[i * 8 + c] * (uint32_t)a[i * 8 + 2 + c]);
         int32_t sat = p < -32768 ? -32768 : p > 32767 ? 32767 : p;
         sw[i * 2 + c] = (int16_t)(sat + s[i * 2 + 1 - c]);
      }
   if (run(kget(&f, "vec_misc"), 1, G(N), G(64), ARGS(AP(a), AP(s), AP(f3)))) {
      kclose(&f);
      return;
   }
   CHK("s", s, sw, N * 2);
   /* Element j + 1 = 2 * element j as work-item j read it. Work-item j reads what
    * work-item j - 1 writes; within a wave all loads precede the stores, across waves
    * (j a multiple of 64) either value may have been read. */
   int bad = 0;
   for (int j = 0; j < N; j++)
      for (int c = 0; c < 3; c++) {
         float got = f3[(j + 1) * 3 + c], w1 = 2.0f * f0[j * 3 + c];
         float w2 = j ? 4.0f * f0[(j - 1) * 3 + c] : w1;
         if (got != w1 && !(j % 64 == 0 && j > 0 && got == w2) && bad++ < 5)
            fail("f3[%d].%d = %g, want %g", j + 1, c, got, w1);
      }
   kclose(&f);
}

static void
t_loops(void)
{
   kfile f = kopen("k32_image_free_loops");
   enum { N = 256 };
   float *in = gmem(N * 4), *out = gmem(N * 4), w[N];
   for (int i = 0; i < N; i++)
      in[i] = (float)(int)(rnd() % 4001) * 0.25f - 500.0f; /* quarters: every sum exact */
   for (int i = 0; i < N; i++)
      w[i] = i > 0 && i < N - 1 ? 0.25f * in[i - 1] + 0.5f * in[i] + 0.25f * in[i + 1] : in[i];
   if (!run(kget(&f, "stencil"), 1, G(N), G(64), ARGS(AP(in), AP(out), AI(N))))
      CHK("stencil", (uint32_t *)out, (uint32_t *)w, N);
   float *v = gmem(N * 16);
   double vw[N * 4];
   for (int i = 0; i < N * 4; i++) {
      v[i] = rndf(-10, 10);
      double x = v[i];
      for (int k = 0; k < 37; k++)
         x = x * (double)1.0001f + 0.5;
      vw[i] = x;
   }
   /* 37 multiply-adds, fused or not: a few ULP each of values up to ~30. */
   if (!run(kget(&f, "unrolled"), 1, G(N), G(64), ARGS(AP(v), AI(37))))
      chk_f("unrolled", v, vw, NULL, N * 4, 0, 37 * 4 * 32 * 0x1p-24);
   kclose(&f);
}

static void
t_wg_ops(void)
{
   kfile f = kopen("k33_subgroup_ish");
   enum { N = 256 };
   int32_t *a = gmem(N * 4), aw[N];
   float *fo = gmem(N * 4), fw[N];
   for (int i = 0; i < N; i++)
      a[i] = (int32_t)rnd() >> 2;
   for (int i = 0; i < N; i++) {
      int g = i & ~63, lid = i & 63;
      aw[i] = (int32_t)((uint32_t)a[g + ((lid + 1) & 63)] + (uint32_t)a[g + ((lid + 32) & 63)]);
      fw[i] = (float)lid + (float)i;
   }
   if (!run(kget(&f, "wg_ops"), 1, G(N), G(64), ARGS(AP(a), AP(fo)))) {
      CHK("a", a, aw, N);
      CHK("f", (uint32_t *)fo, (uint32_t *)fw, N);
   }
   kclose(&f);
}

/* Waves of one work-group make independent forward progress (x02): wave 0 waits for a
 * flag wave 1 sets, then works for several turns; the barrier after it holds wave 1 until
 * wave 0 arrives. Without turns between waves the kernel never ends (the test's timeout
 * fails it); a barrier released while wave 0 was between turns makes wave 1 read 0. */
static void
t_wave_progress(void)
{
   kfile f = kopen("x02_wave_progress");
   enum { L = 128 };
   int32_t *flag = gmem(8), *out = gmem((1 + L) * 4), w[L];
   for (int i = 0; i < L; i++)
      w[i] = 42;
   flag[0] = flag[1] = 0;
   if (!run(kget(&f, "progress"), 1, G(L), G(L),
            ARGS(AP(flag), AP(out), ALOCAL(4), AI(4000)))) {
      if (out[0] <= 0) {
         fprintf(stderr, "FAIL %s: wave 0 did not wait for wave 1 (%d spins)\n", g_test,
                 out[0]);
         g_fail++;
      }
      CHK("after barrier", (uint32_t *)out + 1, (uint32_t *)w, L);
   }
   kclose(&f);
}

/* (int)floor(x) and (int)floor(x + 0.5f) under -cl-fast-relaxed-math (x03): LLVM emits
 * v_cvt_flr_i32_f32 / v_cvt_rpi_i32_f32; finite inputs in the int range, halves and the f32
 * tie of 0.5 - 2^-25 + 0.5 included. */
static void
t_fast_math(void)
{
   kfile f = kopen("x03_fast_math");
   enum { N = 256 };
   float *in = gmem(N * 4);
   int32_t *flr = gmem(N * 4), *rpi = gmem(N * 4), wf[N], wr[N];
   for (int i = 0; i < N; i++) {
      in[i] = i < 8 ? (float)(i - 4) * 0.5f : rndf(-1e6f, 1e6f);
      if (i == 8)
         in[i] = 0x1.fffffep-2f; /* 0.5 - 2^-25: + 0.5 rounds to 1.0 in f32 */
      wf[i] = (int32_t)floorf(in[i]);
      wr[i] = (int32_t)floorf(in[i] + 0.5f);
   }
   if (!run(kget(&f, "flr_rpi"), 1, G(N), G(64), ARGS(AP(in), AP(flr), AP(rpi)))) {
      CHK("flr", (uint32_t *)flr, (uint32_t *)wf, N);
      CHK("rpi", (uint32_t *)rpi, (uint32_t *)wr, N);
   }
   kclose(&f);
}

static void
t_async_copy(void)
{
   kfile f = kopen("k34_async_copy");
   enum { N = 256 };
   float *g = gmem(N * 4), *o = gmem(N * 4), w[N];
   for (int i = 0; i < N; i++)
      g[i] = rndf(-100, 100), w[i] = g[i] * 2.0f;
   if (!run(kget(&f, "acopy"), 1, G(N), G(128), ARGS(AP(g), AP(o))))
      CHK("o", (uint32_t *)o, (uint32_t *)w, N);
   kclose(&f);
}

static void
t_fpmisc(void)
{
   kfile f = kopen("k31_fp_misc");
   enum { N = 256 };
   float *a = gmem((4096 + N) * 4), x0[N];
   int32_t *ci = gmem(N * 4), cw[N];
   double w0[N], s0[N], w2[N], s2[N];
   float ipw[N];
   static const float fs[] = {0.5f, 1.0f, 0.0f, 2.0f, 3.75f, 1e-3f, 100.25f, 7.0f};
   for (int i = 0; i < N; i++) {
      float x = x0[i] = a[i] = i < 8 ? fs[i] : rndf(0, 50);
      float fl = floorf(x), fr = fminf(x - fl, 0x1.fffffep-1f);
      ipw[i] = fl;
      double t[8] = {fma(x, 2.0, 1.0), (double)x * x + 3.0, fr, 1, x != 0, x != 1.0f, 1, 0};
      w0[i] = s0[i] = 0;
      for (int k = 0; k < 8; k++)
         w0[i] += t[k], s0[i] += fabs(t[k]);
      cw[i] = (int32_t)((uint32_t)(int32_t)x + (uint32_t)(int32_t)(x * 1.5f) + (uint32_t)x +
                        (x > 0.5f));
      double u[3] = {1.0 / x, x / 3.0, sqrt(x) / x};
      w2[i] = s2[i] = 0;
      for (int k = 0; k < 3; k++)
         w2[i] += u[k], s2[i] += fabs(u[k]);
   }
   if (run(kget(&f, "fpmisc"), 1, G(N), G(64), ARGS(AP(a), AP(ci)))) {
      kclose(&f);
      return;
   }
   /* mad may be unfused; division 2.5 ULP, sqrt 3 ULP. x = 0 makes a[2048] infinite. */
   chk_f("a", a, w0, s0, N, 4e-7, 0);
   CHK("fract iptr", (uint32_t *)a + 4096, (uint32_t *)ipw, N);
   CHK("ci", ci, cw, N);
   chk_f("a+2048", a + 2048, w2, s2, N, 1e-6, 0);
   int bad = 0;
   for (int i = 0; i < N; i++)
      if (!isnan(a[1024 + i]) && bad++ < 5) /* ... + nan(i) */
         fail("a[%d] = %g, want NaN", 1024 + i, a[1024 + i]);
   kclose(&f);
}

static void
t_native(void)
{
   kfile f = kopen("k09_native");
   enum { N = 256 };
   float *a = gmem((1024 + N) * 4);
   double w[N], s[N], hw[N], hs[N];
   for (int i = 0; i < N; i++) {
      /* Keep clear of pi/2, where native_tan's error is unbounded relative to the sum. */
      float x = a[i] = i & 1 ? rndf(0.5f, 1.4f) : rndf(1.75f, 2.5f);
      double t[14] = {sin(x), cos(x), exp(x), log(x), sqrt(x), 1 / sqrt(x), 1.0 / x,
                      x / (x + 1.0), exp2(x), log2(x), pow(x, 2.5), tan(x / (2 * M_PI)),
                      pow(10, x), log10(x)};
      double h[6] = {sin(x), exp(x), log(x), sqrt(x), 1.0 / x, x / 3.0};
      w[i] = s[i] = hw[i] = hs[i] = 0;
      for (int k = 0; k < 14; k++)
         w[i] += t[k], s[i] += fabs(t[k]);
      for (int k = 0; k < 6; k++)
         hw[i] += h[k], hs[i] += fabs(h[k]);
   }
   /* native_* accuracy is implementation-defined; the hardware approximations are good to
    * ~1e-6 relative, half_* to 2^-11. Loose bounds catch wrong functions, not ULPs.
    * native_tan: clang-19 + the ROCm device libraries compile it to v_sin/v_cos of
    * x * 0.15915494 * 0.15915494 (two v_mul_f32 by 1/2pi in k09_native's code, the scaling
    * applied twice), so the machine code, on hardware as here, returns tan(x / 2pi). */
   if (!run(kget(&f, "nat"), 1, G(N), G(64), ARGS(AP(a)))) {
      chk_f("native", a, w, s, N, 1e-4, 0);
      chk_f("half", a + 1024, hw, hs, N, 2e-3, 0);
   }
   kclose(&f);
}

/* Work-items exchange values through coarse-grained global memory across the two waves of
 * 64-item groups (x04_wg_exchange.cl): each reads its mirror's slot after a work-group
 * release/acquire. Built for gfx1030 too and run there in the L2 checking mode, where the
 * waves are on different L0s (CMakeLists.txt: sim_isa_kernels_gfx1030_check). */
static void
t_wg_exchange(void)
{
   kfile f = kopen("x04_wg_exchange");
   enum { N = 256 };
   int32_t *a = cmem(N * 4), *c = cmem(N * 4), *out = cmem(2 * N * 4), want[2 * N];
   for (int i = 0; i < N; i++) {
      a[i] = 3 * i + 1;
      c[i] = 5 * i + 2;
      want[i] = a[i] + 1000;
      want[N + i] = c[i] + 2000;
   }
   if (!run(kget(&f, "wg_exchange"), 1, G(N), G(64), ARGS(AP(a), AP(c), AP(out))))
      CHK("out", out, want, 2 * N);
   kclose(&f);
}

/* One-wave work-groups whose waves yield and stop at a barrier (x05), in a grid whose last
 * work-group is partial. */
static void
t_one_wave(void)
{
   kfile f = kopen("x05_one_wave");
   enum { N = 1000, ITERS = 1500 };
   uint32_t *out = gmem(1024 * 4), w[1024];
   for (int i = 0; i < 1024; i++) {
      uint32_t acc = (uint32_t)i;
      for (uint32_t k = 0; k < ITERS; k++)
         acc = acc * 1664525u + 1013904223u + k;
      w[i] = i < N ? acc ^ (uint32_t)(i % 64) << 24 : 0xdeadbeefu;
      out[i] = 0xdeadbeefu;
   }
   if (!run(kget(&f, "turns"), 1, G(N), G(64), ARGS(AP(out), AI(ITERS))))
      CHK("turns", out, w, 1024);
   kclose(&f);
}

static const struct test {
   const char *name;
   void (*fn)(void);
} tests[] = {
   {"vadd", t_vadd},           {"saxpy", t_saxpy},          {"reduce", t_reduce},
   {"atomics_global", t_atomics_global}, {"atomics_local", t_atomics_local},
   {"int64", t_int64},         {"int_builtins", t_int_builtins}, {"float_math", t_float_math},
   {"double", t_double},       {"vectors", t_vectors},      {"indexing", t_indexing},
   {"printf", t_printf},       {"private", t_private},      {"divergence", t_divergence},
   {"fences", t_fences},       {"half", t_half},            {"matmul", t_matmul},
   {"transpose", t_transpose}, {"scan", t_scan},            {"bitonic", t_bitonic},
   {"mandel", t_mandel},       {"conv2d", t_conv2d},        {"struct_args", t_struct_args},
   {"bitops", t_bitops},       {"char_short", t_char_short}, {"rng", t_rng},
   {"black_scholes", t_black_scholes}, {"atomic_cl2", t_atomic_cl2},
   {"wg_generic", t_wg_generic}, {"exact", t_exact},     {"convert", t_convert},
   {"shuffle_select", t_shuffle_select}, {"constant", t_constant}, {"nbody", t_nbody},
   {"localvec", t_localvec},   {"dconv", t_dconv},          {"sobel", t_sobel},
   {"vec_misc", t_vec_misc},   {"loops", t_loops},          {"wg_ops", t_wg_ops},
   {"async_copy", t_async_copy}, {"wave_progress", t_wave_progress}, {"fpmisc", t_fpmisc}, {"fast_math", t_fast_math},     {"native", t_native},
   {"wg_exchange", t_wg_exchange}, {"one_wave", t_one_wave},
};

/* HSACL_TEST_EXIT_FORKS=n: the process forks n children one after another before it uses
 * the runtime; each runs the tests and exits at once, without hsa_shut_down, as an
 * application may: with HSACL_SIM_XLATE=1 and HSACL_SIM_XLATE_HOT=1 its exit meets the
 * translator's compile worker inside LLVM (sim_xlate_worker.c), which must neither crash
 * nor abort. Returns -1 in a child, else the parent's exit status. */
static int
exit_forks(unsigned n)
{
   unsigned bad = 0;
   for (unsigned i = 0; i < n; i++) {
      fflush(NULL);
      pid_t pid = fork();
      if (pid < 0)
         DIE("fork: %s", strerror(errno));
      if (pid == 0)
         return -1;
      int st;
      if (waitpid(pid, &st, 0) < 0)
         DIE("waitpid: %s", strerror(errno));
      if (!WIFEXITED(st) || WEXITSTATUS(st)) {
         fprintf(stderr, "child %u: %s %d\n", i, WIFSIGNALED(st) ? "signal" : "exit status",
                 WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
         bad++;
      }
   }
   printf("%u children exited, %u failed\n", n, bad);
   return bad != 0;
}

/* HSACL_TEST_LIBLLVM=mapped or absent: after the tests, libLLVM must be mapped in the
 * process, or must not be. The translator opens it for its first compile (sim/isa/sim_llvm.c);
 * nothing else here loads it. */
static void
check_libllvm(const char *want)
{
   FILE *f = fopen("/proc/self/maps", "r");
   if (!f)
      DIE("/proc/self/maps: %s", strerror(errno));
   char line[4096];
   bool mapped = false;
   while (fgets(line, sizeof(line), f))
      mapped |= strstr(line, "libLLVM") != NULL;
   fclose(f);
   g_test = "libLLVM";
   printf("libLLVM %s\n", mapped ? "mapped" : "not mapped");
   if (mapped != !strcmp(want, "mapped"))
      fail("libLLVM %s, want %s", mapped ? "mapped" : "not mapped", want);
}

int
main(int argc, char **argv)
{
   if (argc < 3)
      DIE("usage: %s <hsaco dir> <variant> [test filter]", argv[0]);
   g_dir = argv[1];
   g_variant = argv[2];
   g_daz = !strcmp(g_variant, "daz");
   g_hsacl_built = !strcmp(g_variant, "spirv");
   const char *filter = argc > 3 ? argv[3] : NULL;
   const char *forks = getenv("HSACL_TEST_EXIT_FORKS");
   bool child = false;
   if (forks && *forks) {
      int rc = exit_forks((unsigned)strtoul(forks, NULL, 10));
      if (rc >= 0)
         return rc;
      child = true;
   }
   HSA(hsa_init());
   HSA(hsa_iterate_agents(find_agent, NULL));
   if (!g_gpu.handle || !g_cpu.handle)
      DIE("no GPU/CPU agent");
   HSA(hsa_amd_agent_iterate_memory_pools(g_cpu, find_pool, NULL));
   if (!g_sys.handle || !g_karg.handle)
      DIE("no system/kernarg pool");
   HSA(hsa_queue_create(g_gpu, 256, HSA_QUEUE_TYPE_MULTI, on_queue_error, NULL, UINT32_MAX,
                        UINT32_MAX, &g_q));
   g_printf_buf = gmem(1 << 20);
   struct timespec t0, t1;
   clock_gettime(CLOCK_MONOTONIC, &t0);
   int ran = 0;
   for (unsigned i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
      if (filter && !strstr(tests[i].name, filter))
         continue;
      g_test = tests[i].name;
      int before = g_fail;
      struct timespec a, b;
      clock_gettime(CLOCK_MONOTONIC, &a);
      tests[i].fn();
      clock_gettime(CLOCK_MONOTONIC, &b);
      printf("%-16s %s  %.2fs\n", tests[i].name, g_fail == before ? "ok" : "FAILED",
             (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) * 1e-9);
      ran++;
   }
   clock_gettime(CLOCK_MONOTONIC, &t1);
   const char *llvm = getenv("HSACL_TEST_LIBLLVM");
   if (llvm && *llvm)
      check_libllvm(llvm);
   printf("%d tests, %d failures [%s], %.2fs, %llu work-items\n", ran, g_fail, g_variant,
          (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9,
          (unsigned long long)g_lanes);
   if (child)
      exit(g_fail != 0);
   hsa_queue_destroy(g_q);
   hsa_shut_down();
   return g_fail != 0;
}
