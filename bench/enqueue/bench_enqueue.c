/*
 * bench/enqueue/bench_enqueue.c — host cost of launching kernels, hsacl beside PoCL in the
 * same run, through the system ICD loader. Each platform gets two runs of back-to-back
 * clEnqueueNDRangeKernel calls of a kernel with four arguments (two buffers, an int and a
 * float, set once) and an empty body, then one clFinish (not counted):
 *   burst    2000 enqueues: fewer than hsacl's AQL ring holds (4096 packets), so no
 *            enqueue waits for the device: the cost of the enqueue path itself
 *   stream   50000 enqueues: more than the ring holds; once the device falls behind, the
 *            enqueueing thread waits for ring space, and those waits are in the figures,
 *            as an application sees them (wall time per enqueue = launch rate)
 * Each run is repeated REPEATS times (--repeats=R) and every figure is the median of its
 * repetitions (on a machine shared with other work one repetition varies by 2x); the
 * platforms take turns repetition by repetition, so a burst of load elsewhere falls on both.
 * For each run:
 *   enqueue  host wall time per enqueue
 *   cpu      the enqueueing thread's CPU time per enqueue: what the enqueue path costs when
 *            the machine is busy with other work too (a wait for ring space that sleeps
 *            costs wall time, not CPU time)
 *   drain    time from the end of those enqueues until clFinish returns, per launch
 * and, once per repetition, after its runs:
 *   round    enqueue-to-completion round trip (enqueue + clFinish of one launch), the mean
 *            of a batch of round trips; printed as the median over the repetitions, beside
 *            the fastest and slowest repetition (on a loaded machine every thread hop of
 *            the round trip waits for a time slice: one batch varies by 10x and more)
 * and, for hsacl on its software GPU (either runtime), from the GPU's own counters
 * (HSACL_SIM_CACHE_STATS, sim/sim_isa.h):
 *   L2 wb    packets with a system-scope release (an L2 write-back on gfx9) per launch,
 *            over each run and its clFinish: the kernels of a run depend on each other
 *            (one in-order queue), so hsacl's goal is 0; HSACL_FENCE_SCOPE=system shows
 *            what every packet at system scope costs (1 per launch)
 * Prints figures; never passes or fails on time.
 * Before the timed runs, one untimed run of the longest length (then clFinish) lets the
 * driver's object pools and kernarg ring grow to what the runs need: the figures are the
 * steady state an application that keeps launching sees. That growth is a one-off per
 * queue; --cold skips the untimed run to include it (bench/enqueue/syscalls shows both).
 * Usage: hsacl-bench-enqueue [N ...] [--only=<platform name prefix>] [--mark] [--no-round]
 *                            [--cold] [--repeats=R]
 * N ...: the runs' lengths (default: 2000 50000). With --mark, the first run's enqueues are
 * bracketed by getppid() system calls, so a tracer can count the system calls they made
 * (bench/enqueue/syscalls does, one N at a time); --no-round skips the round trips.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static double
clock_us(clockid_t clock)
{
   struct timespec ts;
   clock_gettime(clock, &ts);
   return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static double
now_us(void)
{
   return clock_us(CLOCK_MONOTONIC);
}

#define MAX_RUNS 4
#define MAX_REPEATS 31
#define REPEATS 7

struct run_figures {
   int launches;
   double enqueue_us, cpu_us, drain_us;
   double writebacks; /* system-scope releases per launch; < 0: not counted */
};

/* sim/sim_isa.h struct sim_cache_stats: the software GPU's fence counters. */
struct gpu_counters {
   uint64_t magic, checking, dispatches, system_releases, agent_releases, system_acquires,
      lines_written, lines_filled;
};
static char counters_path[64];
static volatile struct gpu_counters *counters;

/* The counters once the software GPU has made them (after its first dispatch); NULL on
 * a platform that is not hsacl's software GPU. */
static volatile struct gpu_counters *
gpu_counters(void)
{
   if (counters || !counters_path[0])
      return counters;
   int fd = open(counters_path, O_RDONLY);
   if (fd < 0)
      return NULL;
   void *m = mmap(NULL, sizeof(struct gpu_counters), PROT_READ, MAP_SHARED, fd, 0);
   close(fd);
   if (m == MAP_FAILED)
      return NULL;
   if (((volatile struct gpu_counters *)m)->magic != 0x3153544154534c32ull) {
      munmap(m, sizeof(struct gpu_counters));
      return NULL;
   }
   counters = m;
   return counters;
}

/* One platform: its objects, and the figures of every repetition of every run. */
struct platform {
   char name[64];
   bool hsacl, ok;
   cl_context ctx;
   cl_command_queue q;
   cl_program prog;
   cl_kernel k;
   cl_mem bufs[2];
   struct run_figures reps[MAX_RUNS][MAX_REPEATS];
   struct run_figures runs[MAX_RUNS]; /* medians */
   double round_reps[MAX_REPEATS];
   double round_us, round_min_us, round_max_us; /* median, fastest, slowest repetition */
};

static bool mark, no_round, cold;
static int repeats = REPEATS;

/* A system call nothing else in the process makes: brackets the timed run for tracers. */
static void
trace_mark(void)
{
   if (mark)
      syscall(SYS_getppid);
}

static const char *source =
   "kernel void args4(global int *dst, global const int *src, int n, float scale) { }\n";

static const size_t gsize = 64, lsize = 64;

/* `launches` back-to-back enqueues, then one clFinish. */
static void
timed_run(struct platform *p, int launches, bool marked, struct run_figures *f)
{
   volatile struct gpu_counters *gc = p->hsacl ? gpu_counters() : NULL;
   uint64_t wb0 = gc ? gc->system_releases : 0;
   if (marked)
      trace_mark();
   double c0 = clock_us(CLOCK_THREAD_CPUTIME_ID);
   double t0 = now_us();
   for (int i = 0; i < launches; i++)
      clEnqueueNDRangeKernel(p->q, p->k, 1, NULL, &gsize, &lsize, 0, NULL, NULL);
   double t1 = now_us();
   double c1 = clock_us(CLOCK_THREAD_CPUTIME_ID);
   if (marked)
      trace_mark();
   clFinish(p->q);
   double t2 = now_us();
   f->launches = launches;
   f->enqueue_us = (t1 - t0) / launches;
   f->cpu_us = (c1 - c0) / launches;
   f->drain_us = (t2 - t1) / launches;
   f->writebacks = gc ? (double)(gc->system_releases - wb0) / launches : -1;
}

/* Context, queue, kernel with its arguments set, and the warm-up: first launches allocate
 * rings and caches; unless --cold, one untimed run of the longest length grows them to what
 * the timed runs need. */
static bool
platform_setup(cl_platform_id id, struct platform *p, const int *launches, int nruns)
{
   cl_device_id dev;
   cl_int err;
   clGetPlatformInfo(id, CL_PLATFORM_NAME, sizeof(p->name), p->name, NULL);
   p->hsacl = strstr(p->name, "hsacl") != NULL;
   if (clGetDeviceIDs(id, CL_DEVICE_TYPE_ALL, 1, &dev, NULL) != CL_SUCCESS)
      return false;
   char dname[64] = "";
   clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof(dname), dname, NULL);
   size_t len = strlen(p->name);
   snprintf(p->name + len, sizeof(p->name) - len, " (%.30s)", dname);
   p->ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
   p->q = clCreateCommandQueueWithProperties(p->ctx, dev, NULL, &err);
   p->prog = clCreateProgramWithSource(p->ctx, 1, &source, NULL, &err);
   if (clBuildProgram(p->prog, 1, &dev, NULL, NULL, NULL) != CL_SUCCESS)
      return false;
   p->k = clCreateKernel(p->prog, "args4", &err);
   for (int i = 0; i < 2; i++)
      p->bufs[i] = clCreateBuffer(p->ctx, CL_MEM_READ_WRITE, 64 * sizeof(int), NULL, &err);
   cl_int n = 64;
   cl_float scale = 0.5f;
   if (!p->k || clSetKernelArg(p->k, 0, sizeof(cl_mem), &p->bufs[0]) != CL_SUCCESS ||
       clSetKernelArg(p->k, 1, sizeof(cl_mem), &p->bufs[1]) != CL_SUCCESS ||
       clSetKernelArg(p->k, 2, sizeof(n), &n) != CL_SUCCESS ||
       clSetKernelArg(p->k, 3, sizeof(scale), &scale) != CL_SUCCESS)
      return false;
   int warm = 100;
   for (int i = 0; !cold && i < nruns; i++)
      warm = launches[i] > warm ? launches[i] : warm;
   for (int i = 0; i < warm; i++)
      clEnqueueNDRangeKernel(p->q, p->k, 1, NULL, &gsize, &lsize, 0, NULL, NULL);
   clFinish(p->q);
   return true;
}

/* Round trips per repetition: a tenth of the longest run, at least 100, at most 500. */
static int
round_trips(const int *launches, int nruns)
{
   if (no_round)
      return 0;
   int rounds = launches[nruns - 1] / 10 > 100 ? launches[nruns - 1] / 10 : 100;
   return rounds > 500 ? 500 : rounds;
}

/* One batch of `rounds` round trips (enqueue one launch, clFinish); the mean per launch. */
static double
round_trip_batch(struct platform *p, int rounds)
{
   double t0 = now_us();
   for (int i = 0; i < rounds; i++) {
      clEnqueueNDRangeKernel(p->q, p->k, 1, NULL, &gsize, &lsize, 0, NULL, NULL);
      clFinish(p->q);
   }
   return rounds ? (now_us() - t0) / rounds : 0;
}

static void
platform_teardown(struct platform *p)
{
   for (int i = 0; i < 2; i++)
      if (p->bufs[i])
         clReleaseMemObject(p->bufs[i]);
   if (p->k)
      clReleaseKernel(p->k);
   if (p->prog)
      clReleaseProgram(p->prog);
   if (p->q)
      clReleaseCommandQueue(p->q);
   if (p->ctx)
      clReleaseContext(p->ctx);
}

static int
cmp_double(const void *a, const void *b)
{
   double x = *(const double *)a, y = *(const double *)b;
   return x < y ? -1 : x > y;
}

static double median_of(const double *v, int n);

/* The median of one field over the repetitions of a run. */
static double
median(const struct run_figures *reps, int n, size_t field)
{
   double v[MAX_REPEATS];
   for (int i = 0; i < n; i++)
      v[i] = *(const double *)((const char *)&reps[i] + field);
   return median_of(v, n);
}

static double
median_of(const double *v_in, int n)
{
   double v[MAX_REPEATS];
   memcpy(v, v_in, (size_t)n * sizeof(*v));
   qsort(v, (size_t)n, sizeof(*v), cmp_double);
   return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void
platform_medians(struct platform *p, int nruns)
{
   p->round_us = median_of(p->round_reps, repeats);
   p->round_min_us = p->round_max_us = p->round_reps[0];
   for (int i = 1; i < repeats; i++) {
      p->round_min_us = p->round_reps[i] < p->round_min_us ? p->round_reps[i] : p->round_min_us;
      p->round_max_us = p->round_reps[i] > p->round_max_us ? p->round_reps[i] : p->round_max_us;
   }
   for (int r = 0; r < nruns; r++) {
      struct run_figures *m = &p->runs[r];
      m->launches = p->reps[r][0].launches;
      m->enqueue_us = median(p->reps[r], repeats, offsetof(struct run_figures, enqueue_us));
      m->cpu_us = median(p->reps[r], repeats, offsetof(struct run_figures, cpu_us));
      m->drain_us = median(p->reps[r], repeats, offsetof(struct run_figures, drain_us));
      m->writebacks = median(p->reps[r], repeats, offsetof(struct run_figures, writebacks));
   }
}

static const char *
run_label(int launches)
{
   /* hsacl's AQL ring: DISP_AQL_QUEUE_PACKETS (dispatch/disp_queue.c) */
   return launches < 4096 ? "burst" : "stream";
}

int
main(int argc, char **argv)
{
   int launches[MAX_RUNS], nruns = 0;
   const char *only = NULL;
   for (int i = 1; i < argc; i++) {
      if (!strncmp(argv[i], "--only=", 7))
         only = argv[i] + 7;
      else if (!strcmp(argv[i], "--mark"))
         mark = true;
      else if (!strcmp(argv[i], "--no-round"))
         no_round = true;
      else if (!strcmp(argv[i], "--cold"))
         cold = true;
      else if (!strncmp(argv[i], "--repeats=", 10) && atoi(argv[i] + 10) > 0)
         repeats = atoi(argv[i] + 10) < MAX_REPEATS ? atoi(argv[i] + 10) : MAX_REPEATS;
      else if (nruns < MAX_RUNS && atoi(argv[i]) > 0)
         launches[nruns++] = atoi(argv[i]);
   }
   if (nruns == 0) {
      launches[nruns++] = 2000;
      launches[nruns++] = 50000;
   }
   /* --mark brackets one run for a tracer. */
   if (mark)
      repeats = 1;
   /* hsacl's software GPU counts its fences into this file (before the platforms load). */
   if (!getenv("HSACL_SIM_CACHE_STATS")) {
      snprintf(counters_path, sizeof(counters_path), "/tmp/hsacl-bench-enqueue-%d",
               (int)getpid());
      setenv("HSACL_SIM_CACHE_STATS", counters_path, 1);
   } else {
      snprintf(counters_path, sizeof(counters_path), "%s", getenv("HSACL_SIM_CACHE_STATS"));
   }
   cl_platform_id ids[8];
   cl_uint n = 0;
   if (clGetPlatformIDs(8, ids, &n) != CL_SUCCESS || n == 0) {
      fprintf(stderr, "no OpenCL platform\n");
      return 1;
   }
   if (n > 8)
      n = 8;
   printf("launches of a kernel with 4 arguments (2 buffers, int, float) and an empty body: N "
          "enqueues back to back,\nthen one clFinish (not counted); %s; median of %d "
          "repetitions\n", cold ? "cold (warm-up: 100 launches)" : "warm (after one untimed "
          "run of the longest N)", repeats);
   printf("burst: N below hsacl's AQL ring (4096 packets), the enqueue path alone; stream: N "
          "above it,\nwaits for ring space included (wall per enqueue = launch rate); round "
          "trip: enqueue+clFinish\nof one launch, median of the repetitions' means "
          "(fastest-slowest repetition)\n");
   printf("%-36s %-6s %6s %11s %10s %16s %12s %14s\n", "platform (device)", "run", "N",
          "enqueue us", "(cpu us)", "drain us/launch", "L2 wb/launch", "round trip us");
   static struct platform plats[8];
   for (cl_uint i = 0; i < n; i++) {
      char name[64] = "";
      clGetPlatformInfo(ids[i], CL_PLATFORM_NAME, sizeof(name), name, NULL);
      if (only && strncmp(name, only, strlen(only)))
         continue;
      plats[i].ok = platform_setup(ids[i], &plats[i], launches, nruns);
      if (!plats[i].ok)
         printf("%-36.36s %s\n", plats[i].name, "(no device or build failed)");
   }
   /* Repetition by repetition, every platform in turn. */
   int rounds = round_trips(launches, nruns);
   for (int rep = 0; rep < repeats; rep++) {
      for (cl_uint i = 0; i < n; i++) {
         for (int r = 0; plats[i].ok && r < nruns; r++)
            timed_run(&plats[i], launches[r], mark && r == 0, &plats[i].reps[r][rep]);
         if (plats[i].ok)
            plats[i].round_reps[rep] = round_trip_batch(&plats[i], rounds);
      }
   }
   for (cl_uint i = 0; i < n; i++) {
      if (!plats[i].ok)
         continue;
      platform_medians(&plats[i], nruns);
      for (int r = 0; r < nruns; r++) {
         const struct run_figures *f = &plats[i].runs[r];
         printf("%-36.36s %-6s %6d %11.3f %10.3f %16.3f", r == 0 ? plats[i].name : "",
                run_label(f->launches), f->launches, f->enqueue_us, f->cpu_us, f->drain_us);
         if (f->writebacks >= 0)
            printf(" %12.3f", f->writebacks);
         else
            printf(" %12s", "-");
         if (r == nruns - 1 && plats[i].round_us > 0)
            printf(" %14.1f (%.1f-%.1f)", plats[i].round_us, plats[i].round_min_us,
                   plats[i].round_max_us);
         printf("\n");
      }
   }
   for (cl_uint i = 0; i < n; i++) {
      for (cl_uint j = 0; j < n; j++) {
         const struct platform *a = &plats[i], *b = &plats[j];
         if (i == j || !a->ok || !b->ok || !a->hsacl || b->hsacl)
            continue;
         printf("ratio hsacl/%.*s:", (int)strcspn(b->name, " "), b->name);
         for (int r = 0; r < nruns; r++)
            printf(" %s enqueue %.2fx (cpu %.2fx);", run_label(launches[r]),
                   a->runs[r].enqueue_us / b->runs[r].enqueue_us,
                   a->runs[r].cpu_us / b->runs[r].cpu_us);
         if (a->round_us > 0 && b->round_us > 0)
            printf(" round trip %.2fx", a->round_us / b->round_us);
         printf("\n");
      }
   }
   for (cl_uint i = 0; i < n; i++)
      platform_teardown(&plats[i]);
   if (counters_path[0] && !strncmp(counters_path, "/tmp/hsacl-bench-enqueue-", 25))
      unlink(counters_path);
   return 0;
}
