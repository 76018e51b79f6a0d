/*
 * bench/compile/comp_bench_warm.c — clBuildProgram through the ICD loader on hsacl, per
 * program of a kernel directory: the first build (cold: compiles and fills the on-disk
 * kernel cache of a fresh HSACL_CACHE_DIR) and the best of the following builds of the same
 * source (warm: a cache hit — key hash, entry read and check, metadata, executable load).
 * Prints figures; never fails on time. Usage: hsacl-bench-compile-warm [-r N] [DIR]
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <dirent.h>
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
   /* A fresh cache, so the first build of each program is a miss. */
   char cache[] = "/tmp/hsacl-bench-cache-XXXXXX";
   if (!mkdtemp(cache)) {
      perror("mkdtemp");
      return 1;
   }
   setenv("HSACL_CACHE_DIR", cache, 1);
   setenv("HSACL_CACHE", "1", 1);

   cl_platform_id plats[8];
   cl_uint n = 0;
   cl_platform_id plat = NULL;
   clGetPlatformIDs(8, plats, &n);
   for (cl_uint i = 0; i < n; i++) {
      char name[64] = "";
      clGetPlatformInfo(plats[i], CL_PLATFORM_NAME, sizeof(name), name, NULL);
      if (!strcmp(name, "hsacl"))
         plat = plats[i];
   }
   cl_device_id dev;
   if (!plat || clGetDeviceIDs(plat, CL_DEVICE_TYPE_GPU, 1, &dev, NULL) != CL_SUCCESS) {
      fprintf(stderr, "no hsacl device (point OCL_ICD_VENDORS at the build tree)\n");
      return 1;
   }
   cl_int err;
   cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);

   struct dirent **ents;
   int nf = scandir(dir, &ents, filter_cl, alphasort);
   printf("clBuildProgram on hsacl through the ICD loader; warm = best of %d cache hits\n",
          repeats);
   printf("%-26s %12s %12s\n", "program", "cold", "warm");
   double sum_cold = 0, sum_warm = 0;
   int counted = 0;
   for (int f = 0; f < nf; f++) {
      char path[1024];
      snprintf(path, sizeof(path), "%s/%s", dir, ents[f]->d_name);
      char *src = slurp(path);
      if (!src)
         continue;
      const char *opts = strstr(src, "// STD: CL2.0") ? "-cl-std=CL3.0" : ""; /* no OpenCL C 2.0 */
      double cold = build_once(ctx, dev, src, opts), warm = 1e9;
      for (int r = 0; r < repeats; r++) {
         double t = build_once(ctx, dev, src, opts);
         if (t >= 0 && t < warm)
            warm = t;
      }
      free(src);
      if (cold < 0 || warm >= 1e9) {
         printf("%-26s %12s\n", ents[f]->d_name, "build failed");
         continue;
      }
      printf("%-26s %9.1f ms %9.2f ms\n", ents[f]->d_name, cold * 1e3, warm * 1e3);
      sum_cold += cold;
      sum_warm += warm;
      counted++;
   }
   if (counted)
      printf("\n%-26s %9.1f ms %9.2f ms   (per program: cold %.1f ms, warm %.2f ms)\n", "total",
             sum_cold * 1e3, sum_warm * 1e3, sum_cold * 1e3 / counted,
             sum_warm * 1e3 / counted);
   clReleaseContext(ctx);
   char cmd[128];
   snprintf(cmd, sizeof(cmd), "rm -rf %s", cache);
   if (system(cmd) != 0)
      fprintf(stderr, "could not remove %s\n", cache);
   return 0;
}
