/*
 * hsacl-bench-compile — per-program cold build time of the in-process pipeline (comp_build),
 * without the driver around it. The peer, PoCL, is measured through the OpenCL API beside
 * hsacl by hsacl-bench-compile-warm (cold and warm caches); bench/run compile runs both.
 * Prints figures; never fails on time.
 *
 * The corpus programs are also built from SPIR-V where the build made a module of them
 * (tests/corpus-spirv: clang-15 and llvm-spirv-15 at -O0, as tests/CMakeLists.txt does):
 * the "from SPIR-V" column is a cold clCreateProgramWithIL build of the same program
 * (validation, the translator process, retargeting, then the same back half).
 *
 * usage: hsacl-bench-compile [-mcpu=TARGET] [-r REPEATS] [--spirv DIR] [KERNEL_DIR | FILE.cl ...]
 *        hsacl-bench-compile [-mcpu=TARGET] --tiny N
 *
 * --tiny N builds N distinct one-line kernels in a row (the shape of a conformance suite that
 * builds thousands of small programs) and prints the mean cold build time per program.
 */
#define _GNU_SOURCE
#include "comp_llvm.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static double
now(void)
{
   struct timespec t;
   clock_gettime(CLOCK_MONOTONIC, &t);
   return t.tv_sec + t.tv_nsec / 1e9;
}

static char *
slurp(const char *path, size_t *size)
{
   FILE *f = fopen(path, "rb");
   if (!f)
      return NULL;
   fseek(f, 0, SEEK_END);
   long n = ftell(f);
   fseek(f, 0, SEEK_SET);
   char *buf = malloc(n + 1);
   if (buf && fread(buf, 1, n, f) != (size_t)n) {
      free(buf);
      buf = NULL;
   }
   if (buf)
      buf[n] = 0;
   fclose(f);
   *size = n;
   return buf;
}

/* N distinct tiny programs, each built once: mean milliseconds per build. */
static int
bench_tiny(const char *target, int n)
{
   double t0 = now();
   printf("compiler: %s\n", comp_identity());
   printf("process init (device libraries, LLVM targets): %.1f ms\n", (now() - t0) * 1e3);
   double first = 0, total = 0;
   int failed = 0;
   for (int i = 0; i < n; i++) {
      char src[512];
      int len = snprintf(src, sizeof(src),
                         "kernel void k%d(global float *a, global const float *b, int n)\n"
                         "{ size_t i = get_global_id(0); if (i < n) a[i] = b[i] * %d.5f + %d; }\n",
                         i, i, i);
      struct comp_build_desc d = { .source = src, .source_size = len, .source_name = "tiny.cl",
                                   .target_id = target };
      struct comp_output out;
      double t = now();
      enum comp_status st = comp_build(&d, &out);
      t = now() - t;
      if (st != COMP_OK) {
         if (!failed++)
            fprintf(stderr, "%s\n%s\n", comp_status_name(st), out.log);
      }
      comp_output_finish(&out);
      if (i == 0)
         first = t;
      total += t;
   }
   printf("target: %s, %d tiny programs: first %.1f ms, mean %.2f ms per build%s\n", target, n,
          first * 1e3, total * 1e3 / n, failed ? " (some failed)" : "");
   return failed ? 1 : 0;
}

static int
filter_cl(const struct dirent *d)
{
   size_t n = strlen(d->d_name);
   return n > 3 && !strcmp(d->d_name + n - 3, ".cl");
}

int
main(int argc, char **argv)
{
   const char *target = "gfx906";
   const char *dir = HSACL_BENCH_KERNEL_DIR;
   char **files = NULL;
   int nfiles = 0, repeats = 1, tiny = 0;
   const char *spirv_dir = HSACL_BENCH_SPIRV_DIR;

   for (int i = 1; i < argc; i++) {
      if (!strncmp(argv[i], "-mcpu=", 6))
         target = argv[i] + 6;
      else if (!strcmp(argv[i], "-r") && i + 1 < argc)
         repeats = atoi(argv[++i]);
      else if (!strcmp(argv[i], "--tiny") && i + 1 < argc)
         tiny = atoi(argv[++i]);
      else if (!strcmp(argv[i], "--spirv") && i + 1 < argc)
         spirv_dir = argv[++i];
      else if (!strcmp(argv[i], "--help")) {
         printf("usage: %s [-mcpu=TARGET] [-r REPEATS] [--spirv DIR] [KERNEL_DIR | FILE.cl ...]\n"
                "       %s [-mcpu=TARGET] --tiny N\n",
                argv[0], argv[0]);
         return 0;
      } else {
         struct stat st;
         if (!stat(argv[i], &st) && S_ISDIR(st.st_mode))
            dir = argv[i];
         else {
            files = realloc(files, (nfiles + 1) * sizeof(*files));
            files[nfiles++] = argv[i];
         }
      }
   }
   if (tiny > 0)
      return bench_tiny(target, tiny);
   if (!nfiles) {
      struct dirent **ents;
      int n = scandir(dir, &ents, filter_cl, alphasort);
      for (int i = 0; i < n; i++) {
         files = realloc(files, (nfiles + 1) * sizeof(*files));
         if (asprintf(&files[nfiles++], "%s/%s", dir, ents[i]->d_name) < 0)
            return 1;
         free(ents[i]);
      }
      free(n > 0 ? ents : NULL);
   }
   double t0 = now();
   const char *id = comp_identity(); /* device libraries loaded here, once per process */
   double init = now() - t0;
   printf("compiler: %s\ntarget: %s, default options, best of %d\n", id, target, repeats);
   printf("process init (device libraries, LLVM targets): %.1f ms\n\n", init * 1e3);
   printf("%-26s %12s %14s\n", "program", "in-process", "from SPIR-V");

   double sum_in = 0, sum_spv = 0, sum_in_spv = 0;
   int ok_spv = 0;
   for (int f = 0; f < nfiles; f++) {
      size_t size;
      char *src = slurp(files[f], &size);
      if (!src)
         continue;
      bool cl2 = strstr(src, "// STD: CL2.0") != NULL;
      const char *name = strrchr(files[f], '/') ? strrchr(files[f], '/') + 1 : files[f];
      double best_in = 1e9;
      enum comp_status st = COMP_OK;
      for (int r = 0; r < repeats; r++) {
         struct comp_build_desc d = { .source = src, .source_size = size, .source_name = name,
                                      .options = cl2 ? "-cl-std=CL2.0" : NULL,
                                      .target_id = target };
         struct comp_output out;
         double t = now();
         st = comp_build(&d, &out);
         t = now() - t;
         comp_output_finish(&out);
         if (t < best_in)
            best_in = t;
      }
      free(src);
      /* The same program from SPIR-V, when the build made its module. */
      double best_spv = -1;
      char spv_path[1024];
      size_t stem = strlen(name) > 3 ? strlen(name) - 3 : strlen(name);
      snprintf(spv_path, sizeof(spv_path), "%s/%.*s.spv", spirv_dir, (int)stem, name);
      size_t il_size;
      char *il = spirv_dir ? slurp(spv_path, &il_size) : NULL;
      for (int r = 0; il && r < repeats; r++) {
         struct comp_build_desc d = { .il = il, .il_size = il_size, .source_name = name,
                                      .target_id = target };
         struct comp_output out;
         double t = now();
         enum comp_status sst = comp_build(&d, &out);
         t = now() - t;
         comp_output_finish(&out);
         if (sst == COMP_OK && (best_spv < 0 || t < best_spv))
            best_spv = t;
      }
      free(il);
      char spv_col[32] = "-";
      if (best_spv >= 0) {
         snprintf(spv_col, sizeof(spv_col), "%.1f ms", best_spv * 1e3);
         sum_spv += best_spv;
         sum_in_spv += best_in;
         ok_spv++;
      }
      if (st != COMP_OK) {
         printf("%-26s %12s\n", name, comp_status_name(st));
         continue;
      }
      sum_in += best_in;
      printf("%-26s %9.1f ms %14s\n", name, best_in * 1e3, spv_col);
   }
   printf("\n%-26s %9.1f ms\n", "total", sum_in * 1e3);
   if (ok_spv)
      printf("from SPIR-V: %d programs, %.1f ms (the same programs from OpenCL C: %.1f ms, "
             "%.2fx)\n",
             ok_spv, sum_spv * 1e3, sum_in_spv * 1e3, sum_in_spv > 0 ? sum_spv / sum_in_spv : 0);
   printf("hsacl beside PoCL, cold and warm: hsacl-bench-compile-warm (bench/run compile runs "
          "both)\n");
   return 0;
}
