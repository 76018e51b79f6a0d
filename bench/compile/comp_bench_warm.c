/*
 * bench/compile/comp_bench_warm.c — clBuildProgram through the ICD loader, hsacl beside PoCL
 * (the peer) in the same run, per program of a kernel directory: the first build (cold:
 * compiles and fills the kernel cache, hsacl's in a fresh HSACL_CACHE_DIR, PoCL's in a fresh
 * POCL_CACHE_DIR) and the best of the following builds of the same source (warm: a cache
 * hit). PoCL makes each kernel's work-group function for its CPU device at the kernel's
 * first launch (per local size), which these figures leave out; hsacl's build ends in a
 * loaded GPU code object. Programs either platform fails to build are listed and
 * left out of the totals. Prints figures; never fails on time.
 * Usage: hsacl-bench-compile-warm [-r N] [DIR]
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double
now(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static char *
slurp(const char *path)
{
   FILE *f = fopen(path, "rb");
   if (!f)
      return NULL;
   fseek(f, 0, SEEK_END);
   long n = ftell(f);
   fseek(f, 0, SEEK_SET);
   char *s = malloc((size_t)n + 1);
   if (fread(s, 1, (size_t)n, f) != (size_t)n) {
      fclose(f);
      free(s);
      return NULL;
   }
   s[n] = 0;
   fclose(f);
   return s;
}

static int
filter_cl(const struct dirent *d)
{
   size_t n = strlen(d->d_name);
   return n > 3 && !strcmp(d->d_name + n - 3, ".cl");
}

/* Seconds for one clBuildProgram of `src`, or -1. */
static double
build_once(cl_context ctx, cl_device_id dev, const char *src, const char *options)
{
   cl_int err;
   cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
   double t = now();
   err = clBuildProgram(p, 1, &dev, options, NULL, NULL);
   t = now() - t;
   clReleaseProgram(p);
   return err == CL_SUCCESS ? t : -1;
}

/* One platform's context: the first device of the platform whose name starts with `prefix`
 * (hsacl's GPU, PoCL's CPU). */
struct peer {
   const char *label;
   cl_device_id dev;
   cl_context ctx;
   double sum_cold, sum_warm;
};

static bool
peer_open(struct peer *p, const char *prefix)
{
   cl_platform_id plats[8];
   cl_uint n = 0;
   clGetPlatformIDs(8, plats, &n);
   for (cl_uint i = 0; i < n && i < 8; i++) {
      char name[64] = "";
      clGetPlatformInfo(plats[i], CL_PLATFORM_NAME, sizeof(name), name, NULL);
      if (strncmp(name, prefix, strlen(prefix)) ||
          clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_ALL, 1, &p->dev, NULL) != CL_SUCCESS)
         continue;
      cl_int err;
      p->ctx = clCreateContext(NULL, 1, &p->dev, NULL, NULL, &err);
      return p->ctx != NULL;
   }
   return false;
}

/* Cold and best warm build of `src` on `p`; false when a build failed. */
static bool
peer_build(const struct peer *p, const char *src, const char *opts, int repeats, double *cold,
           double *warm)
{
   *cold = build_once(p->ctx, p->dev, src, opts);
   *warm = 1e9;
   for (int r = 0; r < repeats; r++) {
      double t = build_once(p->ctx, p->dev, src, opts);
      if (t >= 0 && t < *warm)
         *warm = t;
   }
   return *cold >= 0 && *warm < 1e9;
}

int
main(int argc, char **argv)
{
   int repeats = 5;
   const char *dir = HSACL_BENCH_KERNEL_DIR;
   for (int i = 1; i < argc; i++) {
      if (!strcmp(argv[i], "-r") && i + 1 < argc)
         repeats = atoi(argv[++i]);
      else
         dir = argv[i];
   }
   /* Fresh caches, so the first build of each program is a miss on both. */
   char cache[] = "/tmp/hsacl-bench-cache-XXXXXX", pocl_cache[] = "/tmp/pocl-bench-cache-XXXXXX";
   if (!mkdtemp(cache) || !mkdtemp(pocl_cache)) {
      perror("mkdtemp");
      return 1;
   }
   setenv("HSACL_CACHE_DIR", cache, 1);
   setenv("HSACL_CACHE", "1", 1);
   setenv("POCL_CACHE_DIR", pocl_cache, 1);
   setenv("POCL_KERNEL_CACHE", "1", 1);

   struct peer peers[2] = { { .label = "hsacl" }, { .label = "PoCL" } };
   if (!peer_open(&peers[0], "hsacl")) {
      fprintf(stderr, "no hsacl device (point OCL_ICD_VENDORS at the build tree)\n");
      return 1;
   }
   int npeers = peer_open(&peers[1], "Portable Computing Language") ? 2 : 1;

   struct dirent **ents;
   int nf = scandir(dir, &ents, filter_cl, alphasort);
   printf("clBuildProgram through the ICD loader, cold (empty kernel cache) and warm (best of "
          "%d cache hits)%s\n", repeats, npeers == 2 ? "; PoCL's work-group functions come at "
          "the first launch, not here" : "; PoCL not found");
   printf("%-26s %12s %12s", "program", "hsacl cold", "hsacl warm");
   if (npeers == 2)
      printf(" %12s %12s %11s", "PoCL cold", "PoCL warm", "cold ratio");
   printf("\n");
   int counted = 0;
   for (int f = 0; f < nf; f++) {
      char path[1024];
      snprintf(path, sizeof(path), "%s/%s", dir, ents[f]->d_name);
      char *src = slurp(path);
      if (!src)
         continue;
      const char *opts = strstr(src, "// STD: CL2.0") ? "-cl-std=CL3.0" : ""; /* no OpenCL C 2.0 */
      double cold[2], warm[2];
      bool ok[2] = { false, false };
      for (int i = 0; i < npeers; i++)
         ok[i] = peer_build(&peers[i], src, opts, repeats, &cold[i], &warm[i]);
      free(src);
      if (!ok[0] || (npeers == 2 && !ok[1])) {
         printf("%-26s build failed on %s\n", ents[f]->d_name,
                !ok[0] ? (npeers == 2 && !ok[1] ? "both" : "hsacl") : "PoCL");
         continue;
      }
      printf("%-26s %9.1f ms %9.2f ms", ents[f]->d_name, cold[0] * 1e3, warm[0] * 1e3);
      if (npeers == 2)
         printf(" %9.1f ms %9.2f ms %10.2fx", cold[1] * 1e3, warm[1] * 1e3, cold[0] / cold[1]);
      printf("\n");
      for (int i = 0; i < npeers; i++) {
         peers[i].sum_cold += cold[i];
         peers[i].sum_warm += warm[i];
      }
      counted++;
   }
   for (int i = 0; counted && i < npeers; i++)
      printf("%s total: cold %.1f ms, warm %.2f ms (per program: cold %.1f ms, warm %.2f ms)\n",
             peers[i].label, peers[i].sum_cold * 1e3, peers[i].sum_warm * 1e3,
             peers[i].sum_cold * 1e3 / counted, peers[i].sum_warm * 1e3 / counted);
   if (counted && npeers == 2)
      printf("ratio hsacl/PoCL: cold %.3fx, warm %.3fx\n",
             peers[0].sum_cold / peers[1].sum_cold, peers[0].sum_warm / peers[1].sum_warm);
   for (int i = 0; i < npeers; i++)
      clReleaseContext(peers[i].ctx);
   char cmd[160];
   snprintf(cmd, sizeof(cmd), "rm -rf %s %s", cache, pocl_cache);
   if (system(cmd) != 0)
      fprintf(stderr, "could not remove %s or %s\n", cache, pocl_cache);
   return 0;
}
