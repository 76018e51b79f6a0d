/*
 * bench/enqueue/bench_enqueue.c — host cost of launching kernels, hsacl beside PoCL in the
 * same run, through the system ICD loader. Each platform gets two runs of back-to-back
 * clEnqueueNDRangeKernel calls of an empty kernel, then one clFinish (not counted):
 *   burst    2000 enqueues: fewer than hsacl's AQL ring holds (4096 packets), so no
 *            enqueue waits for the device: the cost of the enqueue path itself
 *   stream   20000 enqueues: more than the ring holds; once the device falls behind, the
 *            enqueueing thread waits for ring space, and those waits are in the figures,
 *            as an application sees them (wall time per enqueue = launch rate)
 * For each run:
 *   enqueue  host wall time per enqueue
 *   cpu      the enqueueing thread's CPU time per enqueue: what the enqueue path costs when
 *            the machine is busy with other work too (a wait for ring space that sleeps
 *            costs wall time, not CPU time)
 *   drain    time from the end of those enqueues until clFinish returns, per launch
 * and once per platform:
 *   round    enqueue-to-completion round trip (enqueue + clFinish), per launch
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
 *                            [--cold]
 * N ...: the runs' lengths (default: 2000 20000). With --mark, the first run's enqueues are
 * bracketed by getppid() system calls, so a tracer can count the system calls they made
 * (bench/enqueue/syscalls does, one N at a time); --no-round skips the round trips.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <fcntl.h>
#include <stdbool.h>
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

struct result {
   char name[64];
   struct run_figures runs[MAX_RUNS];
   double round_us;
   bool ok;
};

static bool mark, no_round, cold;

/* A system call nothing else in the process makes: brackets the timed run for tracers. */
static void
trace_mark(void)
{
   if (mark)
      syscall(SYS_getppid);
}

static const char *source = "kernel void empty(global int *p) { }\n";

/* `launches` back-to-back enqueues, then one clFinish. */
static void
timed_run(cl_command_queue q, cl_kernel k, int launches, bool marked, struct run_figures *f)
{
   const size_t g = 64, l = 64;
   volatile struct gpu_counters *gc = gpu_counters();
   uint64_t wb0 = gc ? gc->system_releases : 0;
   if (marked)
      trace_mark();
   double c0 = clock_us(CLOCK_THREAD_CPUTIME_ID);
   double t0 = now_us();
   for (int i = 0; i < launches; i++)
      clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL);
   double t1 = now_us();
   double c1 = clock_us(CLOCK_THREAD_CPUTIME_ID);
   if (marked)
      trace_mark();
   clFinish(q);
   double t2 = now_us();
   f->launches = launches;
   f->enqueue_us = (t1 - t0) / launches;
   f->cpu_us = (c1 - c0) / launches;
   f->drain_us = (t2 - t1) / launches;
   f->writebacks = gc ? (double)(gc->system_releases - wb0) / launches : -1;
}

static void
run(cl_platform_id platform, const int *launches, int nruns, struct result *r)
{
   cl_device_id dev;
   cl_int err;
   r->ok = false;
   clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof(r->name), r->name, NULL);
   if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &dev, NULL) != CL_SUCCESS)
      return;
   char dname[64] = "";
   clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof(dname), dname, NULL);
   size_t len = strlen(r->name);
   snprintf(r->name + len, sizeof(r->name) - len, " (%.30s)", dname);
   cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
   cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
   cl_program p = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
   if (clBuildProgram(p, 1, &dev, NULL, NULL, NULL) != CL_SUCCESS)
      goto out;
   cl_kernel k = clCreateKernel(p, "empty", &err);
   cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, &err);
   clSetKernelArg(k, 0, sizeof(m), &m);
   const size_t g = 64, l = 64;
   /* Warm up: first launches allocate rings and caches; unless --cold, one untimed run of
    * the longest length grows them to what the timed runs need. */
   int warm = 100;
   for (int i = 0; !cold && i < nruns; i++)
      warm = launches[i] > warm ? launches[i] : warm;
   for (int i = 0; i < warm; i++)
      clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL);
   clFinish(q);

   /* Only hsacl's software GPU writes the counters (a PoCL run reads none). */
   if (!strstr(r->name, "hsacl"))
      counters = NULL;
   for (int i = 0; i < nruns; i++)
      timed_run(q, k, launches[i], mark && i == 0, &r->runs[i]);
   if (!strstr(r->name, "hsacl"))
      for (int i = 0; i < nruns; i++)
         r->runs[i].writebacks = -1;
   int rounds = 0;
   if (!no_round) {
      rounds = launches[nruns - 1] / 10 > 100 ? launches[nruns - 1] / 10 : 100;
      if (rounds > 2000)
         rounds = 2000;
   }
   double t3 = now_us();
   for (int i = 0; i < rounds; i++) {
      clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL);
      clFinish(q);
   }
   double t4 = now_us();
   r->round_us = rounds ? (t4 - t3) / rounds : 0;
   r->ok = true;
   clReleaseMemObject(m);
   clReleaseKernel(k);
out:
   clReleaseProgram(p);
   clReleaseCommandQueue(q);
   clReleaseContext(ctx);
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
      else if (nruns < MAX_RUNS && atoi(argv[i]) > 0)
         launches[nruns++] = atoi(argv[i]);
   }
   if (nruns == 0) {
      launches[nruns++] = 2000;
      launches[nruns++] = 20000;
   }
   /* hsacl's software GPU counts its fences into this file (before the platforms load). */
   if (!getenv("HSACL_SIM_CACHE_STATS")) {
      snprintf(counters_path, sizeof(counters_path), "/tmp/hsacl-bench-enqueue-%d",
               (int)getpid());
      setenv("HSACL_SIM_CACHE_STATS", counters_path, 1);
   } else {
      snprintf(counters_path, sizeof(counters_path), "%s", getenv("HSACL_SIM_CACHE_STATS"));
   }
   cl_platform_id plats[8];
   cl_uint n = 0;
   if (clGetPlatformIDs(8, plats, &n) != CL_SUCCESS || n == 0) {
      fprintf(stderr, "no OpenCL platform\n");
      return 1;
   }
   printf("empty-kernel launches: N enqueues back to back, then one clFinish (not counted); "
          "%s\n", cold ? "cold (warm-up: 100 launches)" : "warm (after one untimed run of "
          "the longest N)");
   printf("burst: N below hsacl's AQL ring (4096 packets), the enqueue path alone; stream: N "
          "above it,\nwaits for ring space included (wall per enqueue = launch rate); round "
          "trip: enqueue+clFinish\n");
   printf("%-36s %-6s %6s %11s %10s %16s %12s %14s\n", "platform (device)", "run", "N",
          "enqueue us", "(cpu us)", "drain us/launch", "L2 wb/launch", "round trip us");
   struct result res[8];
   for (cl_uint i = 0; i < n; i++) {
      res[i].ok = false;
      clGetPlatformInfo(plats[i], CL_PLATFORM_NAME, sizeof(res[i].name), res[i].name, NULL);
      if (only && strncmp(res[i].name, only, strlen(only)))
         continue;
      run(plats[i], launches, nruns, &res[i]);
      if (!res[i].ok) {
         printf("%-36.36s %s\n", res[i].name, "(no device or build failed)");
         continue;
      }
      for (int r = 0; r < nruns; r++) {
         const struct run_figures *f = &res[i].runs[r];
         printf("%-36.36s %-6s %6d %11.3f %10.3f %16.3f", r == 0 ? res[i].name : "",
                run_label(f->launches), f->launches, f->enqueue_us, f->cpu_us, f->drain_us);
         if (f->writebacks >= 0)
            printf(" %12.3f", f->writebacks);
         else
            printf(" %12s", "-");
         if (r == nruns - 1 && res[i].round_us > 0)
            printf(" %14.1f", res[i].round_us);
         printf("\n");
      }
   }
   for (cl_uint i = 0; i < n; i++) {
      for (cl_uint j = 0; j < n; j++) {
         if (i == j || !res[i].ok || !res[j].ok || !strstr(res[i].name, "hsacl") ||
             strstr(res[j].name, "hsacl"))
            continue;
         printf("ratio hsacl/%.*s:", (int)strcspn(res[j].name, " "), res[j].name);
         for (int r = 0; r < nruns; r++)
            printf(" %s enqueue %.2fx (cpu %.2fx);", run_label(launches[r]),
                   res[i].runs[r].enqueue_us / res[j].runs[r].enqueue_us,
                   res[i].runs[r].cpu_us / res[j].runs[r].cpu_us);
         if (res[i].round_us > 0 && res[j].round_us > 0)
            printf(" round trip %.2fx", res[i].round_us / res[j].round_us);
         printf("\n");
      }
   }
   if (counters_path[0] && !strncmp(counters_path, "/tmp/hsacl-bench-enqueue-", 25))
      unlink(counters_path);
   return 0;
}
