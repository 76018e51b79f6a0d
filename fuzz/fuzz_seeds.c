/*
 * fuzz/fuzz_seeds.c — writes the seed corpora of fuzz/corpus/ (run by fuzz/make-corpus, once;
 * the output is committed). Not a fuzz target: an ordinary program over hsacl_core that
 * builds a few kernels through the driver and saves what each target reads: executables,
 * compiled objects and libraries, their metadata notes, kernel-cache entries, option strings
 * and transfer rectangles.
 *
 * Usage: fuzz_seeds OUTDIR  (writes OUTDIR/<target>/<name>)
 */
#include "fuzz_cl.h"

#include <dirent.h>
#include <elf.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>

static struct fuzz_cl cl;
static const char *outdir;

/* Writes OUTDIR/target/name: an optional prefix byte (-1: none), then the bytes. */
static void
save(const char *target, const char *name, int prefix, const void *data, size_t size)
{
   char path[4096];
   snprintf(path, sizeof(path), "%s/%s", outdir, target);
   mkdir(path, 0755);
   snprintf(path, sizeof(path), "%s/%s/%s", outdir, target, name);
   FILE *f = fopen(path, "wb");
   if (!f || (prefix >= 0 && fputc(prefix, f) == EOF) ||
       (size && fwrite(data, 1, size, f) != size) || fclose(f)) {
      fprintf(stderr, "fuzz_seeds: cannot write %s\n", path);
      exit(1);
   }
}

static const char *const sources[] = {
   /* k1: the vector add of every tutorial */
   "__kernel void add(__global const float *a, __global const float *b,\n"
   "                  __global float *c, uint n)\n"
   "{\n"
   "   size_t i = get_global_id(0);\n"
   "   if (i < n) c[i] = a[i] + b[i];\n"
   "}\n",
   /* k2: local memory, a barrier, printf, a program-scope variable, two kernels */
   "__global int counter = 1;\n"
   "__constant char greeting[] = \"hi\";\n"
   "__kernel void sum(__global const int *in, __global int *out, __local int *tmp)\n"
   "{\n"
   "   size_t l = get_local_id(0);\n"
   "   tmp[l] = in[get_global_id(0)];\n"
   "   barrier(CLK_LOCAL_MEM_FENCE);\n"
   "   if (l == 0) { int s = 0; for (size_t i = 0; i < get_local_size(0); i++) s += tmp[i];\n"
   "                 out[get_group_id(0)] = s + counter; }\n"
   "   if (get_global_id(0) == 0) printf(\"%s %d %f\\n\", greeting, counter, 1.5f);\n"
   "}\n"
   "__kernel void bump(__global int *p) { atomic_inc(p); counter++; }\n",
   /* k3: attributes and argument kinds the metadata carries */
   "typedef struct { int a; float b; char c; } pair;\n"
   "__kernel __attribute__((reqd_work_group_size(64, 1, 1)))\n"
   "__attribute__((vec_type_hint(float4)))\n"
   "void attrs(__global float4 *restrict out, __constant int *c, pair p, char ch,\n"
   "           short sh, long lo, double d, __global volatile uint *v)\n"
   "{\n"
   "   out[get_global_id(0)] = (float4)(p.a + c[0], p.b + ch, sh + lo, d) + (float)*v;\n"
   "}\n",
};

/* The binary of a program's one device (caller frees). */
static unsigned char *
binary_of(cl_program p, size_t *size)
{
   if (CL(clGetProgramInfo)(p, CL_PROGRAM_BINARY_SIZES, sizeof(*size), size, NULL))
      abort();
   unsigned char *b = malloc(*size);
   if (!b || CL(clGetProgramInfo)(p, CL_PROGRAM_BINARIES, sizeof(b), &b, NULL))
      abort();
   return b;
}

static cl_program
from_source(const char *src)
{
   cl_int err;
   cl_program p = CL(clCreateProgramWithSource)(cl.context, 1, &src, NULL, &err);
   if (err)
      abort();
   return p;
}

/* The contents of the first PT_NOTE segment of a code object. */
static void
save_notes(const char *name, const unsigned char *b, size_t size)
{
   Elf64_Ehdr eh;
   memcpy(&eh, b, sizeof(eh));
   for (unsigned i = 0; i < eh.e_phnum; i++) {
      Elf64_Phdr ph;
      memcpy(&ph, b + eh.e_phoff + i * sizeof(ph), sizeof(ph));
      if (ph.p_type == PT_NOTE && ph.p_offset + ph.p_filesz <= size) {
         save("metadata", name, 1, b + ph.p_offset, ph.p_filesz);
         return;
      }
   }
}

static void
seed_binaries(void)
{
   char name[64];
   for (size_t i = 0; i < sizeof(sources) / sizeof(sources[0]); i++) {
      cl_program p = from_source(sources[i]);
      static const char *const options[] = { "", "-cl-std=CL3.0", "-cl-kernel-arg-info" };
      if (CL(clBuildProgram)(p, 1, &cl.device, options[i], NULL, NULL)) {
         char log[4096] = "";
         CL(clGetProgramBuildInfo)(p, cl.device, CL_PROGRAM_BUILD_LOG, sizeof(log), log, NULL);
         fprintf(stderr, "fuzz_seeds: k%zu does not build:\n%s\n", i + 1, log);
         exit(1);
      }
      size_t size;
      unsigned char *b = binary_of(p, &size);
      snprintf(name, sizeof(name), "exe_k%zu", i + 1);
      save("binary", name, -1, b, size);
      save("sim_loader", name, -1, b, size);
      save("metadata", name, 0, b, size);
      snprintf(name, sizeof(name), "note_k%zu", i + 1);
      save_notes(name, b, size);
      free(b);
      CL(clReleaseProgram)(p);
   }
   /* A compiled object (k1) and a library (k2 compiled, then linked -create-library). */
   cl_program o1 = from_source(sources[0]), o2 = from_source(sources[1]);
   if (CL(clCompileProgram)(o1, 1, &cl.device, "", 0, NULL, NULL, NULL, NULL) ||
       CL(clCompileProgram)(o2, 1, &cl.device, "-cl-std=CL3.0", 0, NULL, NULL, NULL, NULL))
      abort();
   size_t size;
   unsigned char *b = binary_of(o1, &size);
   save("binary", "obj_k1", -1, b, size);
   save("metadata", "obj_k1", 0, b, size);
   free(b);
   cl_int err;
   cl_program lib = CL(clLinkProgram)(cl.context, 1, &cl.device, "-create-library", 1, &o2,
                                      NULL, NULL, &err);
   if (err)
      abort();
   b = binary_of(lib, &size);
   save("binary", "lib_k2", -1, b, size);
   free(b);
   CL(clReleaseProgram)(lib);
   CL(clReleaseProgram)(o1);
   CL(clReleaseProgram)(o2);
}

/* Every entry the builds above left in the cache, once as written (flag 0) and once with the
 * digest to be recomputed (flag 1). */
static void
seed_cache(const char *dir)
{
   DIR *d = opendir(dir);
   struct dirent *e;
   int n = 0;
   while (d && (e = readdir(d)) && n < 3) {
      size_t len = strlen(e->d_name);
      if (len < 4 || strcmp(e->d_name + len - 4, ".hco"))
         continue;
      char path[4096], name[32];
      snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
      FILE *f = fopen(path, "rb");
      if (!f)
         abort();
      fseek(f, 0, SEEK_END);
      long size = ftell(f);
      fseek(f, 0, SEEK_SET);
      unsigned char *b = malloc((size_t)size);
      if (!b || fread(b, 1, (size_t)size, f) != (size_t)size)
         abort();
      fclose(f);
      n++;
      snprintf(name, sizeof(name), "entry%d", n);
      save("cache", name, 0, b, (size_t)size);
      snprintf(name, sizeof(name), "entry%d_rehash", n);
      save("cache", name, 1, b, (size_t)size);
      free(b);
   }
   if (d)
      closedir(d);
   if (n == 0) {
      fprintf(stderr, "fuzz_seeds: the builds left no cache entry in %s\n", dir);
      exit(1);
   }
}

static void
seed_options(void)
{
   static const struct {
      int action; /* 0 build, 1 compile, 2 link */
      const char *s;
   } opts[] = {
      { 0, "" },
      { 0, "-cl-std=CL3.0 -cl-fast-relaxed-math -DN=4 -D M=\"a b\" -I /tmp/inc" },
      { 0, "-cl-opt-disable -g -w -Werror -cl-kernel-arg-info -cl-denorms-are-zero" },
      { 1, "-cl-std=CL1.2 -cl-mad-enable -cl-single-precision-constant -DF(x)=x*2 -I'a b'" },
      { 1, "-cl-fp32-correctly-rounded-divide-sqrt -cl-uniform-work-group-size \\\"q\\\"" },
      { 2, "-create-library -enable-link-options -cl-no-signed-zeros" },
      { 2, "-cl-unsafe-math-optimizations -cl-finite-math-only -cl-no-subgroup-ifp" },
   };
   for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
      char name[32];
      snprintf(name, sizeof(name), "opts%zu", i + 1);
      save("options", name, opts[i].action, opts[i].s, strlen(opts[i].s));
   }
}

/* fuzz_rect's encoding: op, buffers, kind, three u16 sizes, then 15 u16 values < 0xc000. */
static void
seed_rect(void)
{
   static const uint16_t cases[][21] = {
      /* read, A, device: origin {1,2,0}, host {0,0,0}, region {4,3,1}, pitches 8/0 0/0 */
      { 0, 0x00, 0, 64, 64, 32, 1, 2, 0, 0, 0, 0, 4, 3, 1, 8, 0, 0, 0 },
      /* write, B, host-visible, 3-D with both pitches given */
      { 1, 0x01, 1, 100, 200, 16, 0, 1, 1, 2, 0, 0, 5, 2, 2, 8, 32, 16, 64 },
      /* copy S -> A (one root: rows must not overlap), use-host-ptr */
      { 2, 0x02, 2, 300, 50, 200, 0, 0, 0, 0, 0, 1, 16, 4, 1, 32, 0, 32, 0 },
      /* copy A -> B, region past B's end: CL_INVALID_VALUE */
      { 2, 0x10, 0, 500, 20, 10, 0, 0, 0, 10, 0, 0, 16, 2, 1, 0, 0, 0, 0 },
   };
   for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
      unsigned char b[64];
      size_t n = 0;
      for (int k = 0; k < 3; k++)
         b[n++] = (unsigned char)cases[i][k];
      for (int k = 3; k < 21; k++) {
         b[n++] = (unsigned char)cases[i][k];
         b[n++] = (unsigned char)(cases[i][k] >> 8);
      }
      char name[32];
      snprintf(name, sizeof(name), "rect%zu", i + 1);
      save("rect", name, -1, b, n);
   }
}

int
main(int argc, char **argv)
{
   if (argc != 2) {
      fprintf(stderr, "usage: fuzz_seeds OUTDIR\n");
      return 2;
   }
   outdir = argv[1];
   mkdir(outdir, 0755);
   char cache[] = "/tmp/hsacl-fuzz-seeds-XXXXXX";
   if (!mkdtemp(cache))
      return 1;
   setenv("HSACL_CACHE_DIR", cache, 1);
   setenv("HSACL_CACHE", "1", 1);
   fuzz_default_env();
   fuzz_cl_init(&cl);
   seed_binaries();
   seed_cache(cache);
   seed_options();
   seed_rect();
   printf("fuzz_seeds: corpora written to %s (cache entries from %s)\n", outdir, cache);
   return 0;
}
