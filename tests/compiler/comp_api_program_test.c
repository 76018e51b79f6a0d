/*
 * comp_api_program_test — cl_program through the system ICD loader: creation rules
 * (OpenCL 3.0 API §5.8.1), builds and build logs, invalid options, program queries with
 * the size-query protocol, binaries round trip and corrupt binaries, compile/link, IL and
 * built-in kernels, asynchronous builds with pfn_notify, concurrent builds, release
 * callbacks.
 */
#define _GNU_SOURCE
#include "comp_api_test.h"

#include <elf.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *src_two =
   "kernel void add(global float *a, global const float *b, float s)\n"
   "{ size_t i = get_global_id(0); a[i] += b[i] * s; }\n"
   "__attribute__((reqd_work_group_size(16, 2, 1)))\n"
   "kernel void fill(global int *out, int v) { out[get_global_id(0)] = v; }\n";

static cl_int
get_program(void *o, cl_uint p, size_t s, void *v, size_t *r)
{
   return clGetProgramInfo(o, p, s, v, r);
}

static cl_program build_info_program;

static cl_int
get_build(void *o, cl_uint p, size_t s, void *v, size_t *r)
{
   return clGetProgramBuildInfo(o, device, p, s, v, r);
}

static void
test_create_with_source(void)
{
   cl_int err;
   const char *parts[] = { "kernel void k(global int *p)", " { p[0] = 1; }" };
   size_t lens[] = { 0, 5 };

   CHECK(!clCreateProgramWithSource(NULL, 1, parts, NULL, &err));
   CHECK_EQ_INT(err, CL_INVALID_CONTEXT);
   CHECK(!clCreateProgramWithSource(context, 0, parts, NULL, &err));
   CHECK_EQ_INT(err, CL_INVALID_VALUE);
   CHECK(!clCreateProgramWithSource(context, 1, NULL, NULL, &err));
   CHECK_EQ_INT(err, CL_INVALID_VALUE);
   const char *with_null[] = { "x", NULL };
   CHECK(!clCreateProgramWithSource(context, 2, with_null, NULL, &err));
   CHECK_EQ_INT(err, CL_INVALID_VALUE);

   /* lengths[0] == 0: NUL-terminated; lengths[1] == 5: " { p[" only. */
   cl_program p = clCreateProgramWithSource(context, 2, parts, lens, &err);
   CHECK(p && err == CL_SUCCESS);
   char buf[128];
   CHECK_EQ_INT(clGetProgramInfo(p, CL_PROGRAM_SOURCE, sizeof(buf), buf, NULL), CL_SUCCESS);
   CHECK_STR(buf, "kernel void k(global int *p) { p[");
   /* Before a build: kernel queries need an executable. */
   size_t n;
   CHECK_EQ_INT(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof(n), &n, NULL),
                CL_INVALID_PROGRAM_EXECUTABLE);
   CHECK_EQ_INT(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, 0, NULL, &n),
                CL_INVALID_PROGRAM_EXECUTABLE);
   cl_build_status st;
   CHECK_EQ_INT(clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_STATUS, sizeof(st), &st, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(st, CL_BUILD_NONE);
   CHECK(!clCreateKernel(p, "k", &err));
   CHECK_EQ_INT(err, CL_INVALID_PROGRAM_EXECUTABLE);
   CHECK_EQ_INT(clReleaseProgram(p), CL_SUCCESS);

   CHECK_EQ_INT(clRetainProgram(NULL), CL_INVALID_PROGRAM);
   CHECK_EQ_INT(clReleaseProgram((cl_program)context), CL_INVALID_PROGRAM);
}

static void
test_build_and_query(void)
{
   cl_program p = program_from_source(src_two);
   CHECK_EQ_INT(clBuildProgram(NULL, 0, NULL, NULL, NULL, NULL), CL_INVALID_PROGRAM);
   CHECK_EQ_INT(clBuildProgram(p, 1, NULL, NULL, NULL, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(clBuildProgram(p, 0, &device, NULL, NULL, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(clBuildProgram(p, 0, NULL, NULL, NULL, (void *)1), CL_INVALID_VALUE);
   cl_device_id bogus = (cl_device_id)context;
   CHECK_EQ_INT(clBuildProgram(p, 1, &bogus, NULL, NULL, NULL), CL_INVALID_DEVICE);

   build_expect(p, "-cl-std=CL1.2 -DUNUSED=1", CL_SUCCESS);

   /* Every program query with the size-query protocol. */
   static const cl_uint queries[] = {
      CL_PROGRAM_REFERENCE_COUNT, CL_PROGRAM_CONTEXT,      CL_PROGRAM_NUM_DEVICES,
      CL_PROGRAM_DEVICES,         CL_PROGRAM_SOURCE,       CL_PROGRAM_BINARY_SIZES,
      CL_PROGRAM_NUM_KERNELS,     CL_PROGRAM_KERNEL_NAMES, CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT,
      CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT,
   };
   for (size_t i = 0; i < sizeof(queries) / sizeof(queries[0]); i++)
      check_info_protocol("clGetProgramInfo", get_program, p, queries[i]);
   static const cl_uint build_queries[] = {
      CL_PROGRAM_BUILD_STATUS, CL_PROGRAM_BUILD_OPTIONS, CL_PROGRAM_BUILD_LOG,
      CL_PROGRAM_BINARY_TYPE,  CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE,
   };
   build_info_program = p;
   for (size_t i = 0; i < sizeof(build_queries) / sizeof(build_queries[0]); i++)
      check_info_protocol("clGetProgramBuildInfo", get_build, p, build_queries[i]);

   cl_uint refs, ndev;
   cl_context ctx;
   cl_device_id dev;
   size_t nk;
   char names[64], opts[64];
   CHECK_EQ_INT(clGetProgramInfo(p, CL_PROGRAM_REFERENCE_COUNT, sizeof(refs), &refs, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(refs, 1);
   CHECK_EQ_INT(clGetProgramInfo(p, CL_PROGRAM_CONTEXT, sizeof(ctx), &ctx, NULL), CL_SUCCESS);
   CHECK(ctx == context);
   CHECK_EQ_INT(clGetProgramInfo(p, CL_PROGRAM_NUM_DEVICES, sizeof(ndev), &ndev, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(ndev, 1);
   CHECK_EQ_INT(clGetProgramInfo(p, CL_PROGRAM_DEVICES, sizeof(dev), &dev, NULL), CL_SUCCESS);
   CHECK(dev == device);
   CHECK_EQ_INT(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof(nk), &nk, NULL), CL_SUCCESS);
   CHECK_EQ_INT(nk, 2);
   CHECK_EQ_INT(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof(names), names, NULL),
                CL_SUCCESS);
   CHECK(!strcmp(names, "add;fill") || !strcmp(names, "fill;add"));
   size_t il_size = 99;
   CHECK_EQ_INT(clGetProgramInfo(p, CL_PROGRAM_IL, 0, NULL, &il_size), CL_SUCCESS);
   CHECK_EQ_INT(il_size, 0);
   cl_bool ctors = CL_TRUE;
   CHECK_EQ_INT(clGetProgramInfo(p, CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT, sizeof(ctors), &ctors,
                                 NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(ctors, CL_FALSE);
   CHECK_EQ_INT(clGetProgramInfo(p, 0x7fff, sizeof(nk), &nk, NULL), CL_INVALID_VALUE);

   cl_build_status st;
   cl_program_binary_type bt;
   size_t gsize = 99;
   CHECK_EQ_INT(clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_STATUS, sizeof(st), &st, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(st, CL_BUILD_SUCCESS);
   CHECK_EQ_INT(clGetProgramBuildInfo(p, device, CL_PROGRAM_BINARY_TYPE, sizeof(bt), &bt, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(bt, CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
   CHECK_EQ_INT(clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_OPTIONS, sizeof(opts), opts,
                                      NULL),
                CL_SUCCESS);
   CHECK_STR(opts, "-cl-std=CL1.2 -DUNUSED=1");
   CHECK_EQ_INT(clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE,
                                      sizeof(gsize), &gsize, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(gsize, 0);
   CHECK_EQ_INT(clGetProgramBuildInfo(p, NULL, CL_PROGRAM_BUILD_STATUS, sizeof(st), &st, NULL),
                CL_INVALID_DEVICE);
   CHECK_EQ_INT(clGetProgramBuildInfo(p, device, 0x7fff, sizeof(st), &st, NULL),
                CL_INVALID_VALUE);

   /* Rebuild while a kernel is attached: refused. */
   cl_int err;
   cl_kernel k = clCreateKernel(p, "add", &err);
   CHECK(k && err == CL_SUCCESS);
   CHECK_EQ_INT(clBuildProgram(p, 0, NULL, NULL, NULL, NULL), CL_INVALID_OPERATION);
   CHECK_EQ_INT(clGetProgramInfo(p, CL_PROGRAM_REFERENCE_COUNT, sizeof(refs), &refs, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(refs, 1); /* kernels hold internal references only */
   clReleaseKernel(k);
   build_expect(p, NULL, CL_SUCCESS); /* detached again: rebuild works */
   clReleaseProgram(p);
}

static void
test_global_variables(void)
{
   cl_program p = program_from_source(
      "global int counter[100];\n"
      "kernel void k(global int *o) { o[0] = counter[get_global_id(0)]++; }\n");
   build_expect(p, "-cl-std=CL3.0", CL_SUCCESS);
   size_t gsize = 0;
   CHECK_EQ_INT(clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE,
                                      sizeof(gsize), &gsize, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(gsize, 400);
   clReleaseProgram(p);
}

static void
test_build_errors(void)
{
   /* A syntax error: CL_BUILD_PROGRAM_FAILURE, status error, log with file:line:col. */
   cl_program p = program_from_source("kernel void k(global int *p)\n{\n  p[0] = 1\n}\n");
   build_expect(p, NULL, CL_BUILD_PROGRAM_FAILURE);
   char *log = build_log(p);
   CHECK(strstr(log, ":4:1: error") || strstr(log, ":3:11: error"));
   CHECK(strstr(log, "expected ';'") != NULL);
   if (!strstr(log, "error"))
      fprintf(stderr, "log:\n%s\n", log);
   free(log);
   cl_build_status st;
   clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_STATUS, sizeof(st), &st, NULL);
   CHECK_EQ_INT(st, CL_BUILD_ERROR);
   cl_program_binary_type bt;
   clGetProgramBuildInfo(p, device, CL_PROGRAM_BINARY_TYPE, sizeof(bt), &bt, NULL);
   CHECK_EQ_INT(bt, CL_PROGRAM_BINARY_TYPE_NONE);
   size_t n;
   CHECK_EQ_INT(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof(n), &n, NULL),
                CL_INVALID_PROGRAM_EXECUTABLE);
   size_t bin_size = 1;
   CHECK_EQ_INT(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof(bin_size), &bin_size, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(bin_size, 0);
   clReleaseProgram(p);

   /* Unknown option: CL_INVALID_BUILD_OPTIONS, the log names it. */
   p = program_from_source("kernel void k(global int *p) { p[0] = 1; }\n");
   build_expect(p, "-cl-no-such-option", CL_INVALID_BUILD_OPTIONS);
   log = build_log(p);
   CHECK(strstr(log, "-cl-no-such-option") != NULL);
   free(log);
   clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_STATUS, sizeof(st), &st, NULL);
   CHECK_EQ_INT(st, CL_BUILD_ERROR);
   /* The same program builds with good options afterwards. */
   build_expect(p, "-cl-mad-enable", CL_SUCCESS);
   clReleaseProgram(p);
}

static void
get_binary(cl_program p, unsigned char **bin, size_t *size)
{
   CHECK_EQ_INT(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof(*size), size, NULL),
                CL_SUCCESS);
   *bin = malloc(*size ? *size : 1);
   /* The value is an array of application pointers: the protocol's filler bytes would be
    * dereferenced, so only the size query and the too-small case are checked. */
   size_t ptrs_size = 0;
   CHECK_EQ_INT(clGetProgramInfo(p, CL_PROGRAM_BINARIES, 0, NULL, &ptrs_size), CL_SUCCESS);
   CHECK_EQ_INT(ptrs_size, sizeof(unsigned char *));
   unsigned char *ptrs[1] = { *bin };
   CHECK_EQ_INT(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof(ptrs), ptrs, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof(ptrs) - 1, ptrs, NULL),
                CL_INVALID_VALUE);
   unsigned char *null_ptrs[1] = { NULL }; /* NULL entries are skipped */
   CHECK_EQ_INT(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof(null_ptrs), null_ptrs, NULL),
                CL_SUCCESS);
}

/* The binary at the start of a page with an inaccessible page before it and after it, so that
 * a read a byte outside it faults even without AddressSanitizer. */
static unsigned char *
guarded_copy(const unsigned char *bin, size_t size, void **map, size_t *map_size)
{
   size_t page = (size_t)sysconf(_SC_PAGESIZE), body = (size + page - 1) / page * page;
   *map_size = body + 2 * page;
   unsigned char *m = mmap(NULL, *map_size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
   CHECK(m != MAP_FAILED);
   CHECK(mprotect(m + page, body, PROT_READ | PROT_WRITE) == 0);
   *map = m;
   /* End-aligned would catch reads past the end; start-aligned catches reads before it,
    * which is where an offset of 2^64 - 1 lands. */
   memcpy(m + page, bin, size);
   return m + page;
}

/*
 * A symbol of a loaded section whose value lies outside it (one byte of a gfx1030 binary's
 * .symtab flipped by the corruption sweep below): ROCr 5.2.3's loader asserted and aborted
 * the process (Segment::Offset). Every such binary is CL_INVALID_BINARY, on either runtime.
 */
static void
test_symbol_outside_section(const unsigned char *bin, size_t size)
{
   Elf64_Ehdr eh;
   memcpy(&eh, bin, sizeof(eh));
   unsigned char *bad = malloc(size);
   int tried = 0;
   for (unsigned i = 0; i < eh.e_shnum; i++) {
      Elf64_Shdr sh;
      memcpy(&sh, bin + eh.e_shoff + i * sizeof(sh), sizeof(sh));
      if (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM)
         continue;
      for (uint64_t off = 0; off < sh.sh_size; off += sizeof(Elf64_Sym)) {
         Elf64_Sym sym;
         memcpy(&sym, bin + sh.sh_offset + off, sizeof(sym));
         if (sym.st_shndx == SHN_UNDEF || sym.st_shndx >= eh.e_shnum)
            continue;
         Elf64_Shdr sec;
         memcpy(&sec, bin + eh.e_shoff + sym.st_shndx * sizeof(sec), sizeof(sec));
         if (!(sec.sh_flags & SHF_ALLOC))
            continue;
         memcpy(bad, bin, size);
         sym.st_value ^= 0xffull << 32;
         memcpy(bad + sh.sh_offset + off, &sym, sizeof(sym));
         const unsigned char *bins[1] = { bad };
         cl_int status = 0, err = 0;
         cl_program r = clCreateProgramWithBinary(context, 1, &device, &size, bins, &status,
                                                  &err);
         CHECK(r == NULL);
         CHECK_EQ_INT(err, CL_INVALID_BINARY);
         if (r)
            clReleaseProgram(r);
         tried++;
      }
   }
   CHECK(tried > 0);
   free(bad);
}

/*
 * Issue #17, bug 2: a PT_NOTE p_offset (or, with no PT_NOTE, an SHT_NOTE sh_offset) near
 * 2^64 passed LLVM's `offset + size > buffer size` test and findNote read outside the
 * application's buffer (heap-buffer-overflow under ASan; here a fault on the guard page).
 * Every such binary is CL_INVALID_BINARY.
 */
static void
test_absurd_offsets(const unsigned char *bin, size_t size)
{
   static const uint64_t offsets[] = { UINT64_MAX, UINT64_MAX - 3, UINT64_MAX - 63,
                                       1ull << 63, 0x7fffffffffffffffull };
   Elf64_Ehdr eh;
   memcpy(&eh, bin, sizeof(eh));
   CHECK(eh.e_phnum > 0 && eh.e_shnum > 0);
   for (int where = 0; where < 4; where++) {
      for (size_t k = 0; k < sizeof(offsets) / sizeof(offsets[0]); k++) {
         void *map;
         size_t map_size;
         unsigned char *b = guarded_copy(bin, size, &map, &map_size);
         int hits = 0;
         for (unsigned i = 0; i < eh.e_phnum; i++) {
            Elf64_Phdr ph;
            memcpy(&ph, b + eh.e_phoff + i * sizeof(ph), sizeof(ph));
            if (ph.p_type != PT_NOTE)
               continue;
            if (where == 0)
               ph.p_offset = offsets[k];
            else if (where == 1)
               ph.p_filesz = offsets[k];
            else
               ph.p_type = PT_NULL; /* the section headers are read instead */
            memcpy(b + eh.e_phoff + i * sizeof(ph), &ph, sizeof(ph));
            hits++;
         }
         for (unsigned i = 0; where >= 2 && i < eh.e_shnum; i++) {
            Elf64_Shdr sh;
            memcpy(&sh, b + eh.e_shoff + i * sizeof(sh), sizeof(sh));
            if (sh.sh_type != SHT_NOTE)
               continue;
            if (where == 2)
               sh.sh_offset = offsets[k];
            else
               sh.sh_size = offsets[k];
            memcpy(b + eh.e_shoff + i * sizeof(sh), &sh, sizeof(sh));
            hits++;
         }
         CHECK(hits > 0);
         cl_int err, status = 0;
         const unsigned char *bins[1] = { b };
         cl_program r = clCreateProgramWithBinary(context, 1, &device, &size, bins, &status,
                                                  &err);
         if (r)
            fprintf(stderr, "absurd offset case %d/%zu accepted\n", where, k);
         CHECK(!r);
         CHECK_EQ_INT(err, CL_INVALID_BINARY);
         CHECK_EQ_INT(status, CL_INVALID_BINARY);
         munmap(map, map_size);
      }
   }
}

/* Builds `src` with `options` and returns its log (malloc'd); *err gets clBuildProgram's. */
static char *
build_with_log(const char *src, const char *options, cl_int *err)
{
   cl_program p = program_from_source(src);
   *err = clBuildProgram(p, 1, &device, options, NULL, NULL);
   char *log = build_log(p);
   clReleaseProgram(p);
   return log;
}

/*
 * HSACL_BUILD_INCLUDES=restricted (issue #17: `#include "/etc/passwd"` quoted the file's
 * first line in the build log): only the build's own -I folders can be included. An
 * absolute path, a `..` escape and a symlink out of the folder are "file not found", and
 * not one byte of the file reaches the log; a cached build of the same source made without
 * the restriction is not reused. The -I folders must lie under HSACL_BUILD_INCLUDE_DIRS
 * (issue 24: `-I /etc` and `-I /proc/self/root/etc` put /etc/passwd in the log): one
 * outside it, also through a symlink or /proc/self/root, fails the build with a log line.
 */
static void
test_restricted_includes(void)
{
   char dir[] = "/tmp/hsacl-inc-XXXXXX";
   CHECK(mkdtemp(dir) != NULL);
   char inc[256], secret[256], link[256], opt[300];
   snprintf(inc, sizeof(inc), "%s/inc", dir);
   snprintf(secret, sizeof(secret), "%s/secret.h", dir);
   snprintf(link, sizeof(link), "%s/inc/link.h", dir);
   CHECK(mkdir(inc, 0700) == 0);
   FILE *f = fopen(secret, "w");
   fputs("#define SECRET_VALUE 42 /* SECRET-LINE-MARKER */\n", f);
   fclose(f);
   char good[300];
   snprintf(good, sizeof(good), "%s/good.h", inc);
   f = fopen(good, "w");
   fputs("#define GOOD_VALUE 7\n", f);
   fclose(f);
   CHECK(symlink(secret, link) == 0);
   snprintf(opt, sizeof(opt), "-I%s", inc);

   char abs_src[512];
   snprintf(abs_src, sizeof(abs_src),
            "#include \"%s\"\nkernel void k(global int *o) { o[0] = SECRET_VALUE; }\n", secret);
   const char *dotdot_src =
      "#include \"../secret.h\"\nkernel void k(global int *o) { o[0] = SECRET_VALUE; }\n";
   const char *link_src =
      "#include \"link.h\"\nkernel void k(global int *o) { o[0] = SECRET_VALUE; }\n";
   const char *good_src =
      "#include \"good.h\"\nkernel void k(global int *o) { o[0] = GOOD_VALUE; }\n";
   cl_int err;
   char *log;

   /* Unrestricted (default): the absolute include builds (not cached: it reads a file from
    * disk; the cache key also names the include mode). */
   unsetenv("HSACL_BUILD_INCLUDES");
   log = build_with_log(abs_src, opt, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   free(log);

   setenv("HSACL_BUILD_INCLUDES", "restricted", 1);
   setenv("HSACL_BUILD_INCLUDE_DIRS", dir, 1);
   const char *refused[] = { abs_src, dotdot_src, link_src };
   for (int i = 0; i < 3; i++) {
      log = build_with_log(refused[i], opt, &err);
      CHECK_EQ_INT(err, CL_BUILD_PROGRAM_FAILURE);
      CHECK(strstr(log, "not found") != NULL);
      if (strstr(log, "SECRET-LINE-MARKER") || strstr(log, "42"))
         fprintf(stderr, "restricted build %d quoted the file:\n%s\n", i, log);
      CHECK(!strstr(log, "SECRET-LINE-MARKER") && !strstr(log, "42"));
      free(log);
   }
   log = build_with_log(good_src, opt, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   free(log);
   /* Without -I, not even the good header. */
   log = build_with_log(good_src, NULL, &err);
   CHECK_EQ_INT(err, CL_BUILD_PROGRAM_FAILURE);
   free(log);

   /* -I folders outside the allow-list, directly, through /proc/self/root, through a
    * symlink inside it, and / itself: refused with a log line, nothing of /etc/passwd in
    * the log. */
   char etc_link[300], opt_link[320];
   snprintf(etc_link, sizeof(etc_link), "%s/etc", dir);
   CHECK(symlink("/etc", etc_link) == 0);
   snprintf(opt_link, sizeof(opt_link), "-I %s", etc_link);
   const char *passwd_src =
      "#include \"passwd\"\nkernel void k(global int *o) { o[0] = 1; }\n";
   const char *outside[] = { "-I /etc", "-I/proc/self/root/etc", opt_link, "-I /",
                             "-I /tmp/../etc" };
   for (int i = 0; i < 5; i++) {
      log = build_with_log(passwd_src, outside[i], &err);
      CHECK_EQ_INT(err, CL_BUILD_PROGRAM_FAILURE);
      CHECK(strstr(log, "HSACL_BUILD_INCLUDE_DIRS") != NULL);
      CHECK(!strstr(log, "root:"));
      if (err != CL_BUILD_PROGRAM_FAILURE || !strstr(log, "HSACL_BUILD_INCLUDE_DIRS"))
         fprintf(stderr, "restricted build with '%s':\n%s\n", outside[i], log);
      free(log);
   }
   /* No allow-list: no -I folder at all. */
   unsetenv("HSACL_BUILD_INCLUDE_DIRS");
   log = build_with_log(good_src, opt, &err);
   CHECK_EQ_INT(err, CL_BUILD_PROGRAM_FAILURE);
   CHECK(strstr(log, "HSACL_BUILD_INCLUDE_DIRS") != NULL);
   free(log);
   /* An allow-list entry given through a symlink or with a trailing '/' still allows the
    * folder. */
   char allow[600];
   snprintf(allow, sizeof(allow), "relative/ignored::%s/", inc);
   setenv("HSACL_BUILD_INCLUDE_DIRS", allow, 1);
   log = build_with_log(good_src, opt, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   free(log);
   unsetenv("HSACL_BUILD_INCLUDE_DIRS");
   unsetenv("HSACL_BUILD_INCLUDES");

   unlink(etc_link);
   unlink(link);
   unlink(good);
   rmdir(inc);
   unlink(secret);
   rmdir(dir);
}

/*
 * Includes that are no regular file, or too large (issue 24: a FIFO include blocked the build
 * forever in every mode): a FIFO, a device and a directory fail the build at once, the first
 * two with a log line; a file larger than HSACL_BUILD_MAX_SOURCE fails with a log line naming
 * the bound. In both include modes.
 */
static void
test_include_files(void)
{
   test_watchdog("comp_api_program_test (includes that are no regular file)", 300);
   char dir[] = "/tmp/hsacl-incf-XXXXXX";
   CHECK(mkdtemp(dir) != NULL);
   char fifo[300], big[300], sub[300], opt[300];
   snprintf(fifo, sizeof(fifo), "%s/fifo.h", dir);
   snprintf(big, sizeof(big), "%s/big.h", dir);
   snprintf(sub, sizeof(sub), "%s/sub.h", dir);
   snprintf(opt, sizeof(opt), "-I%s", dir);
   CHECK(mkfifo(fifo, 0600) == 0);
   CHECK(mkdir(sub, 0700) == 0);
   FILE *f = fopen(big, "w");
   for (int i = 0; i < 4096; i++)
      fprintf(f, "#define BIG_%d %d\n", i, i);
   fclose(f);
   const char *k = "kernel void k(global int *o) { o[0] = 1; }\n";
   char fifo_src[256], dev_src[256], sub_src[256], big_src[256];
   snprintf(fifo_src, sizeof(fifo_src), "#include \"fifo.h\"\n%s", k);
   snprintf(dev_src, sizeof(dev_src), "#include \"/dev/zero\"\n%s", k);
   snprintf(sub_src, sizeof(sub_src), "#include \"sub.h\"\n%s", k);
   snprintf(big_src, sizeof(big_src), "#include \"big.h\"\n%s", k);
   setenv("HSACL_BUILD_INCLUDE_DIRS", dir, 1);
   for (int restricted = 0; restricted < 2; restricted++) {
      if (restricted)
         setenv("HSACL_BUILD_INCLUDES", "restricted", 1);
      cl_int err;
      char *log = build_with_log(fifo_src, opt, &err);
      CHECK_EQ_INT(err, CL_BUILD_PROGRAM_FAILURE);
      CHECK(strstr(log, "not a regular file") != NULL);
      free(log);
      if (!restricted) { /* restricted: /dev is outside the jail, "file not found" */
         log = build_with_log(dev_src, opt, &err);
         CHECK_EQ_INT(err, CL_BUILD_PROGRAM_FAILURE);
         CHECK(strstr(log, "not a regular file") != NULL);
         free(log);
      }
      log = build_with_log(sub_src, opt, &err);
      CHECK_EQ_INT(err, CL_BUILD_PROGRAM_FAILURE);
      free(log);
      /* big.h is about 70 KB: within the default 64 MiB, past a 40000-byte bound; clang's
       * own headers are exempt (the 20000-byte bound below is less than opencl-c-base.h). */
      log = build_with_log(big_src, opt, &err);
      CHECK_EQ_INT(err, CL_SUCCESS);
      free(log);
      setenv("HSACL_BUILD_MAX_SOURCE", "40000", 1);
      log = build_with_log(big_src, opt, &err);
      CHECK_EQ_INT(err, CL_BUILD_PROGRAM_FAILURE);
      CHECK(strstr(log, "HSACL_BUILD_MAX_SOURCE") != NULL && strstr(log, "big.h") != NULL);
      free(log);
      setenv("HSACL_BUILD_MAX_SOURCE", "20000", 1);
      log = build_with_log(k, opt, &err); /* no include: builds */
      CHECK_EQ_INT(err, CL_SUCCESS);
      free(log);
      unsetenv("HSACL_BUILD_MAX_SOURCE");
   }
   unsetenv("HSACL_BUILD_INCLUDES");
   unsetenv("HSACL_BUILD_INCLUDE_DIRS");
   unlink(fifo);
   unlink(big);
   rmdir(sub);
   rmdir(dir);
   alarm(0);
}

/*
 * Recursion (issue 24): OpenCL C forbids it (OpenCL C 3.0 §6.11); clang-19 accepted it and
 * the kernel faulted at depth 1. A cycle of direct calls fails clBuildProgram with
 * CL_BUILD_PROGRAM_FAILURE and a log line naming its functions, also when the cycle starts
 * in a function two kernels call, when a kernel calls itself, and (clCompileProgram) in one
 * object or (clLinkProgram) across two. One function called many times builds and runs.
 */
static void
test_recursion(void)
{
   const struct {
      const char *src, *names[3];
   } bad[] = {
      { "int f(int n) { return n ? n + f(n - 1) : 0; }\n"
        "kernel void k(global int *o) { o[0] = f(o[1]); }\n",
        { "'f' calls itself" } },
      { "int odd(int n);\n"
        "int even(int n) { return n == 0 ? 1 : odd(n - 1); }\n"
        "int odd(int n) { return n == 0 ? 0 : even(n - 1); }\n"
        "kernel void k(global int *o) { o[0] = even(o[1]); }\n",
        { "'even'", "'odd'" } },
      /* The cycle h -> g -> h below a function both kernels call. */
      { "int g(int n);\n"
        "int h(int n) { return n ? g(n - 1) : 1; }\n"
        "int g(int n) { return 2 * h(n); }\n"
        "int shared(int n) { return h(n) + 1; }\n"
        "kernel void k1(global int *o) { o[0] = shared(o[1]); }\n"
        "kernel void k2(global int *o) { o[0] = shared(o[2]); }\n",
        { "'h'", "'g'" } },
      { "kernel void k(global int *o) { if (o[0]-- > 0) k(o); }\n", { "'k' calls itself" } },
      /* Overloadable functions are named as written. */
      { "__attribute__((overloadable)) int r(float x);\n"
        "__attribute__((overloadable)) int r(int n) { return n ? r((float)n) : 0; }\n"
        "__attribute__((overloadable)) int r(float x) { return r((int)x - 1); }\n"
        "kernel void k(global int *o) { o[0] = r(o[1]); }\n",
        { "r(int)", "r(float)" } },
   };
   cl_int err;
   for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
      char *log = build_with_log(bad[i].src, NULL, &err);
      CHECK_EQ_INT(err, CL_BUILD_PROGRAM_FAILURE);
      CHECK(strstr(log, "recursion is not supported") != NULL);
      for (int n = 0; n < 3 && bad[i].names[n]; n++)
         CHECK(strstr(log, bad[i].names[n]) != NULL);
      if (err != CL_BUILD_PROGRAM_FAILURE || !strstr(log, bad[i].names[0]))
         fprintf(stderr, "recursive program %zu:\n%s\n", i, log);
      free(log);
   }

   /* Not recursion: one function called twice in a kernel, from two kernels, and along two
    * paths of a diamond (a -> b, a -> c, b -> d, c -> d). */
   const char *fine =
      "int d(int x) { return x * 3; }\n"
      "int b(int x) { return d(x) + 1; }\n"
      "int c(int x) { return d(x) + 2; }\n"
      "int a(int x) { return b(x) + c(x) + d(x) + d(x + 1); }\n"
      "kernel void k1(global int *o) { o[0] = a(o[1]); }\n"
      "kernel void k2(global int *o) { o[2] = a(o[3]) + d(1); }\n";
   cl_program p = program_from_source(fine);
   CHECK_EQ_INT(clBuildProgram(p, 1, &device, NULL, NULL, NULL), CL_SUCCESS);
   cl_kernel k = clCreateKernel(p, "k1", &err);
   cl_command_queue q = clCreateCommandQueueWithProperties(context, device, NULL, &err);
   int host[4] = { 0, 5, 0, 0 };
   cl_mem buf = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(host),
                               host, &err);
   CHECK_EQ_INT(clSetKernelArg(k, 0, sizeof(buf), &buf), CL_SUCCESS);
   size_t one = 1;
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, NULL, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof(host), host, 0, NULL, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(host[0], 16 + 17 + 15 + 18); /* b(5) + c(5) + d(5) + d(6) */
   clReleaseMemObject(buf);
   clReleaseCommandQueue(q);
   clReleaseKernel(k);
   clReleaseProgram(p);

   /* clCompileProgram refuses a cycle inside the object; one across objects compiles and
    * fails clLinkProgram. */
   p = program_from_source(bad[0].src);
   CHECK_EQ_INT(clCompileProgram(p, 1, &device, NULL, 0, NULL, NULL, NULL, NULL),
                CL_COMPILE_PROGRAM_FAILURE);
   char *log = build_log(p);
   CHECK(strstr(log, "'f' calls itself") != NULL);
   free(log);
   clReleaseProgram(p);
   cl_program objs[2] = {
      program_from_source("int ping(int n);\nint pong(int n) { return n ? ping(n - 1) : 0; }\n"
                          "kernel void k(global int *o) { o[0] = pong(o[1]); }\n"),
      program_from_source("int pong(int n);\nint ping(int n) { return pong(n) + 1; }\n"),
   };
   for (int i = 0; i < 2; i++)
      CHECK_EQ_INT(clCompileProgram(objs[i], 1, &device, NULL, 0, NULL, NULL, NULL, NULL),
                   CL_SUCCESS);
   cl_program linked = clLinkProgram(context, 1, &device, NULL, 2, objs, NULL, NULL, &err);
   CHECK_EQ_INT(err, CL_LINK_PROGRAM_FAILURE);
   if (linked) {
      log = build_log(linked);
      CHECK(strstr(log, "'ping'") != NULL && strstr(log, "'pong'") != NULL);
      free(log);
      clReleaseProgram(linked);
   }
   clReleaseProgram(objs[0]);
   clReleaseProgram(objs[1]);
}

static void
test_binaries(void)
{
   cl_program p = program_from_source(src_two);
   build_expect(p, "-cl-kernel-arg-info", CL_SUCCESS);
   unsigned char *bin;
   size_t size;
   get_binary(p, &bin, &size);
   CHECK(size > 64 && !memcmp(bin, "\177ELF", 4));

   cl_int err, status = 12345;
   const unsigned char *bins[1] = { bin };
   /* Validation. */
   CHECK(!clCreateProgramWithBinary(context, 0, &device, &size, bins, &status, &err));
   CHECK_EQ_INT(err, CL_INVALID_VALUE);
   CHECK(!clCreateProgramWithBinary(context, 1, &device, NULL, bins, &status, &err));
   CHECK_EQ_INT(err, CL_INVALID_VALUE);
   size_t zero = 0;
   CHECK(!clCreateProgramWithBinary(context, 1, &device, &zero, bins, &status, &err));
   CHECK_EQ_INT(err, CL_INVALID_VALUE);
   CHECK_EQ_INT(status, CL_INVALID_VALUE);
   cl_device_id bogus = (cl_device_id)context;
   CHECK(!clCreateProgramWithBinary(context, 1, &bogus, &size, bins, &status, &err));
   CHECK_EQ_INT(err, CL_INVALID_DEVICE);

   /* Round trip: same kernels, same argument info. */
   cl_program q = clCreateProgramWithBinary(context, 1, &device, &size, bins, &status, &err);
   CHECK(q && err == CL_SUCCESS && status == CL_SUCCESS);
   cl_program_binary_type bt;
   clGetProgramBuildInfo(q, device, CL_PROGRAM_BINARY_TYPE, sizeof(bt), &bt, NULL);
   CHECK_EQ_INT(bt, CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
   char src[8] = "x";
   size_t src_size = 0;
   CHECK_EQ_INT(clGetProgramInfo(q, CL_PROGRAM_SOURCE, sizeof(src), src, &src_size), CL_SUCCESS);
   CHECK_EQ_INT(src_size, 1);
   CHECK_STR(src, "");
   build_expect(q, NULL, CL_SUCCESS);
   char n1[64], n2[64];
   clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof(n1), n1, NULL);
   clGetProgramInfo(q, CL_PROGRAM_KERNEL_NAMES, sizeof(n2), n2, NULL);
   CHECK_STR(n2, n1);
   cl_kernel k1 = clCreateKernel(p, "add", &err), k2 = clCreateKernel(q, "add", &err);
   CHECK(k1 && k2);
   for (cl_uint a = 0; a < 3; a++) {
      char t1[32], t2[32], a1[32], a2[32];
      cl_kernel_arg_address_qualifier q1, q2;
      cl_kernel_arg_type_qualifier tq1, tq2;
      CHECK_EQ_INT(clGetKernelArgInfo(k1, a, CL_KERNEL_ARG_TYPE_NAME, sizeof(t1), t1, NULL),
                   CL_SUCCESS);
      CHECK_EQ_INT(clGetKernelArgInfo(k2, a, CL_KERNEL_ARG_TYPE_NAME, sizeof(t2), t2, NULL),
                   CL_SUCCESS);
      CHECK_STR(t2, t1);
      clGetKernelArgInfo(k1, a, CL_KERNEL_ARG_NAME, sizeof(a1), a1, NULL);
      clGetKernelArgInfo(k2, a, CL_KERNEL_ARG_NAME, sizeof(a2), a2, NULL);
      CHECK_STR(a2, a1);
      clGetKernelArgInfo(k1, a, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof(q1), &q1, NULL);
      clGetKernelArgInfo(k2, a, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof(q2), &q2, NULL);
      CHECK_EQ_INT(q2, q1);
      clGetKernelArgInfo(k1, a, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof(tq1), &tq1, NULL);
      clGetKernelArgInfo(k2, a, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof(tq2), &tq2, NULL);
      CHECK_EQ_INT(tq2, tq1);
   }
   size_t wg1[3], wg2[3];
   cl_kernel f1 = clCreateKernel(p, "fill", &err), f2 = clCreateKernel(q, "fill", &err);
   clGetKernelWorkGroupInfo(f1, device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof(wg1), wg1,
                            NULL);
   clGetKernelWorkGroupInfo(f2, device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof(wg2), wg2,
                            NULL);
   CHECK(!memcmp(wg1, wg2, sizeof(wg1)) && wg2[0] == 16 && wg2[1] == 2 && wg2[2] == 1);
   clReleaseKernel(f1);
   clReleaseKernel(f2);
   clReleaseKernel(k1);
   clReleaseKernel(k2);
   /* The binary of the binary program is the one given. */
   unsigned char *bin2;
   size_t size2;
   get_binary(q, &bin2, &size2);
   CHECK(size2 == size && !memcmp(bin, bin2, size));
   free(bin2);
   clReleaseProgram(q);

   /* Corrupt binaries: CL_INVALID_BINARY in binary_status, never a crash. */
   unsigned char *bad = malloc(size);
   const unsigned char *bad_bins[1] = { bad };
   memcpy(bad, bin, size);
   bad[0] = 'X';
   status = 0;
   CHECK(!clCreateProgramWithBinary(context, 1, &device, &size, bad_bins, &status, &err));
   CHECK_EQ_INT(err, CL_INVALID_BINARY);
   CHECK_EQ_INT(status, CL_INVALID_BINARY);
   size_t half = size / 2; /* truncated: the metadata note is cut off or out of bounds */
   status = 0;
   CHECK(!clCreateProgramWithBinary(context, 1, &device, &half, bins, &status, &err));
   CHECK_EQ_INT(err, CL_INVALID_BINARY);
   CHECK_EQ_INT(status, CL_INVALID_BINARY);
   size_t tiny = 10;
   CHECK(!clCreateProgramWithBinary(context, 1, &device, &tiny, bins, &status, &err));
   CHECK_EQ_INT(err, CL_INVALID_BINARY);
   /* A foreign target: e_flags EF_AMDGPU_MACH of gfx90a (0x3f), or of gfx906 (0x2f) when the
    * device is a gfx90a. */
   memcpy(bad, bin, size);
   bad[48] = bin[48] == 0x3f ? 0x2f : 0x3f;
   status = 0;
   CHECK(!clCreateProgramWithBinary(context, 1, &device, &size, bad_bins, &status, &err));
   CHECK_EQ_INT(err, CL_INVALID_BINARY);
   CHECK_EQ_INT(status, CL_INVALID_BINARY);
   /* Random bytes after a valid ELF header, and garbage everywhere past the magic. */
   memcpy(bad, bin, size);
   srand(1);
   for (size_t i = 64; i < size; i++)
      bad[i] = (unsigned char)rand();
   CHECK(!clCreateProgramWithBinary(context, 1, &device, &size, bad_bins, &status, &err));
   CHECK_EQ_INT(err, CL_INVALID_BINARY);
   /* Single-byte corruptions over the whole file: whatever happens, no crash, and a
    * program that is accepted builds or fails cleanly. */
   for (size_t i = 0; i < size; i += size / 97 + 1) {
      memcpy(bad, bin, size);
      bad[i] ^= 0xff;
      cl_program r = clCreateProgramWithBinary(context, 1, &device, &size, bad_bins, &status,
                                               &err);
      CHECK(r ? err == CL_SUCCESS : err == CL_INVALID_BINARY);
      if (r) {
         clBuildProgram(r, 0, NULL, NULL, NULL, NULL);
         clReleaseProgram(r);
      }
   }
   free(bad);
   test_symbol_outside_section(bin, size);
   test_absurd_offsets(bin, size);
   free(bin);
   clReleaseProgram(p);
}

/*
 * fuzz/ (fuzz_binary): a compiled object with one byte of its bitcode changed was accepted
 * and clLinkProgram handed it to LLVM's bitcode reader, which is not hardened and died with
 * SIGSEGV in MetadataLoader. The wrapper carries the bitcode's SHA-256 (.hsacl.sha256): a
 * changed byte, or a wrapper without the digest, is CL_INVALID_BINARY.
 */
static void
test_corrupt_bitcode(const unsigned char *obj, size_t size)
{
   const unsigned char *bc = memmem(obj, size, "BC\xc0\xde", 4);
   const unsigned char *digest = memmem(obj, size, ".hsacl.sha256", 13);
   CHECK(bc && digest);
   if (!bc || !digest)
      return;
   unsigned char *bad = malloc(size);
   for (int k = 0; k < 2; k++) {
      memcpy(bad, obj, size);
      if (k == 0)
         bad[(bc - obj) + 64] ^= 0x10; /* inside the bitcode, past its header */
      else
         bad[digest - obj + 1] = 'X';  /* the digest section renamed: none */
      cl_int err, status = 0;
      const unsigned char *bins[1] = { bad };
      cl_program r = clCreateProgramWithBinary(context, 1, &device, &size, bins, &status, &err);
      CHECK(!r);
      CHECK_EQ_INT(err, CL_INVALID_BINARY);
      CHECK_EQ_INT(status, CL_INVALID_BINARY);
      if (r)
         clReleaseProgram(r);
   }
   free(bad);
}

/*
 * fuzz/ (fuzz_binary): a binary whose section header table starts at an offset that is not
 * a multiple of 8 is well formed, but comp__binary_global_variable_size read it through an
 * Elf64_Shdr pointer (UBSan: misaligned load, comp_binary.c). Accepted, and no UB (the
 * sanitizer pass of scripts/test halts on it).
 */
static void
test_misaligned_section_headers(const unsigned char *obj, size_t size)
{
   Elf64_Ehdr eh;
   memcpy(&eh, obj, sizeof(eh));
   size_t table = (size_t)eh.e_shnum * sizeof(Elf64_Shdr), moved = size + 4;
   CHECK(eh.e_shoff + table <= size && moved % 8 != 0);
   size_t n = moved + table;
   unsigned char *b = calloc(1, n);
   memcpy(b, obj, size);
   memcpy(b + moved, obj + eh.e_shoff, table);
   eh.e_shoff = moved;
   memcpy(b, &eh, sizeof(eh));
   cl_int err, status = 0;
   const unsigned char *bins[1] = { b };
   cl_program r = clCreateProgramWithBinary(context, 1, &device, &n, bins, &status, &err);
   CHECK(r && err == CL_SUCCESS && status == CL_SUCCESS);
   if (r)
      clReleaseProgram(r);
   free(b);
}

static void
test_compile_link_il_builtin(void)
{
   cl_int err;
   cl_program hdr = program_from_source("#define VALUE 42\n");
   cl_program p = program_from_source("#include \"my/value.h\"\n"
                                      "kernel void k(global int *p) { p[0] = VALUE; }\n");
   const char *names[] = { "my/value.h" };
   CHECK_EQ_INT(clCompileProgram(p, 0, NULL, NULL, 1, &hdr, NULL, NULL, NULL),
                CL_INVALID_VALUE);
   CHECK_EQ_INT(clCompileProgram(p, 0, NULL, NULL, 0, &hdr, names, NULL, NULL),
                CL_INVALID_VALUE);
   CHECK_EQ_INT(clCompileProgram(p, 0, NULL, "-cl-bogus", 1, &hdr, names, NULL, NULL),
                CL_INVALID_COMPILER_OPTIONS);
   CHECK_EQ_INT(clCompileProgram(p, 0, NULL, NULL, 1, &hdr, names, NULL, NULL), CL_SUCCESS);
   cl_program_binary_type bt;
   cl_build_status st;
   clGetProgramBuildInfo(p, device, CL_PROGRAM_BINARY_TYPE, sizeof(bt), &bt, NULL);
   CHECK_EQ_INT(bt, CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
   clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_STATUS, sizeof(st), &st, NULL);
   CHECK_EQ_INT(st, CL_BUILD_SUCCESS);
   size_t size = 0;
   clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof(size), &size, NULL);
   CHECK(size > 0);
   /* Without the header the include fails: CL_COMPILE_PROGRAM_FAILURE. */
   cl_program p2 = program_from_source("#include \"my/value.h\"\nkernel void k() {}\n");
   CHECK_EQ_INT(clCompileProgram(p2, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL),
                CL_COMPILE_PROGRAM_FAILURE);
   char *log = build_log(p2);
   CHECK(strstr(log, "my/value.h") != NULL);
   free(log);
   clReleaseProgram(p2);

   /* A compiled object round-trips as a binary, but clBuildProgram needs an executable. */
   unsigned char *obj = malloc(size);
   unsigned char *ptrs[1] = { obj };
   clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof(ptrs), ptrs, NULL);
   cl_int status;
   cl_program q = clCreateProgramWithBinary(context, 1, &device, &size,
                                            (const unsigned char **)ptrs, &status, &err);
   CHECK(q && err == CL_SUCCESS);
   clGetProgramBuildInfo(q, device, CL_PROGRAM_BINARY_TYPE, sizeof(bt), &bt, NULL);
   CHECK_EQ_INT(bt, CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
   CHECK_EQ_INT(clBuildProgram(q, 0, NULL, NULL, NULL, NULL), CL_INVALID_BINARY);
   /* No source: clCompileProgram refuses. */
   CHECK_EQ_INT(clCompileProgram(q, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL),
                CL_INVALID_OPERATION);
   test_corrupt_bitcode(obj, size);
   test_misaligned_section_headers(obj, size);
   free(obj);

   /* clLinkProgram (comp_api_link_test has the rest): the compiled object links. */
   CHECK(!clLinkProgram(context, 0, NULL, NULL, 0, NULL, NULL, NULL, &err));
   CHECK_EQ_INT(err, CL_INVALID_VALUE);
   cl_program bogus = (cl_program)context;
   CHECK(!clLinkProgram(context, 0, NULL, NULL, 1, &bogus, NULL, NULL, &err));
   CHECK_EQ_INT(err, CL_INVALID_PROGRAM);
   CHECK(!clLinkProgram(context, 0, NULL, "-cl-kernel-arg-info", 1, &p, NULL, NULL, &err));
   CHECK_EQ_INT(err, CL_INVALID_LINKER_OPTIONS);
   cl_program linked = clLinkProgram(context, 0, NULL, NULL, 1, &q, NULL, NULL, &err);
   CHECK(linked && err == CL_SUCCESS);
   if (linked)
      clReleaseProgram(linked);
   cl_bool compiler = CL_FALSE, linker = CL_FALSE;
   clGetDeviceInfo(device, CL_DEVICE_COMPILER_AVAILABLE, sizeof(compiler), &compiler, NULL);
   clGetDeviceInfo(device, CL_DEVICE_LINKER_AVAILABLE, sizeof(linker), &linker, NULL);
   CHECK_EQ_INT(compiler, CL_TRUE);
   CHECK_EQ_INT(linker, CL_TRUE);
   clReleaseProgram(q);
   clReleaseProgram(p);
   clReleaseProgram(hdr);

   /* IL (comp_api_il_test.c has the rest): 4 bytes are no SPIR-V module. Built-in
    * kernels: no device has any. */
   CHECK(!clCreateProgramWithIL(context, "\x03\x02\x23\x07", 4, &err));
   CHECK_EQ_INT(err, CL_INVALID_VALUE);
   CHECK(!clCreateProgramWithIL(context, NULL, 4, &err));
   CHECK_EQ_INT(err, CL_INVALID_VALUE);
   CHECK(!clCreateProgramWithBuiltInKernels(context, 1, &device, "foo", &err));
   CHECK_EQ_INT(err, CL_INVALID_VALUE);
   CHECK(!clCreateProgramWithBuiltInKernels(context, 0, NULL, "foo", &err));
   CHECK_EQ_INT(err, CL_INVALID_VALUE);
   cl_program src = program_from_source("kernel void k() {}\n");
   /* §5.8.3: CL_INVALID_PROGRAM for a program not created from IL. */
   CHECK_EQ_INT(clSetProgramSpecializationConstant(src, 1, 4, &err), CL_INVALID_PROGRAM);
   CHECK_EQ_INT(clSetProgramSpecializationConstant(NULL, 1, 4, &err), CL_INVALID_PROGRAM);
   clReleaseProgram(src);

   CHECK_EQ_INT(clUnloadPlatformCompiler(platform), CL_SUCCESS);
   CHECK_EQ_INT(clUnloadCompiler(), CL_SUCCESS);
}

/* ---- asynchronous builds -------------------------------------------------------------- */

struct notify_state {
   pthread_mutex_t lock;
   pthread_cond_t cond;
   int calls;
   cl_program program;
   cl_build_status status_seen;
};

static void CL_CALLBACK
build_notify(cl_program program, void *user_data)
{
   struct notify_state *s = user_data;
   cl_build_status st = CL_BUILD_NONE;
   clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_STATUS, sizeof(st), &st, NULL);
   pthread_mutex_lock(&s->lock);
   s->calls++;
   s->program = program;
   s->status_seen = st;
   pthread_cond_broadcast(&s->cond);
   pthread_mutex_unlock(&s->lock);
}

static void
wait_notify(struct notify_state *s, int calls)
{
   pthread_mutex_lock(&s->lock);
   while (s->calls < calls)
      pthread_cond_wait(&s->cond, &s->lock);
   pthread_mutex_unlock(&s->lock);
}

static void
test_async_build(void)
{
   struct notify_state s = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, NULL, 0 };
   /* A unique source so the cache cannot answer at once. */
   char src[256];
   snprintf(src, sizeof(src), "kernel void k(global int *p) { p[0] = %d; }\n", (int)getpid());
   cl_program p = program_from_source(src);
   CHECK_EQ_INT(clBuildProgram(p, 0, NULL, NULL, build_notify, &s), CL_SUCCESS);
   /* While it runs (or after): a second build is refused or the first has finished. */
   cl_int again = clBuildProgram(p, 0, NULL, NULL, NULL, NULL);
   CHECK(again == CL_INVALID_OPERATION || again == CL_SUCCESS);
   /* Releasing the program during the build is safe: the build holds a reference. */
   clRetainProgram(p);
   clReleaseProgram(p);
   wait_notify(&s, 1);
   CHECK(s.program == p);
   CHECK_EQ_INT(s.status_seen, CL_BUILD_SUCCESS);
   cl_int err;
   cl_kernel k = clCreateKernel(p, "k", &err);
   CHECK(k && err == CL_SUCCESS);
   clReleaseKernel(k);

   /* A failing asynchronous build: CL_SUCCESS now, CL_BUILD_ERROR in the callback. */
   cl_program bad = program_from_source("kernel void k( { }\n");
   CHECK_EQ_INT(clBuildProgram(bad, 0, NULL, NULL, build_notify, &s), CL_SUCCESS);
   wait_notify(&s, 2);
   CHECK_EQ_INT(s.status_seen, CL_BUILD_ERROR);
   clReleaseProgram(bad);
   /* Invalid options are reported synchronously even with pfn_notify. */
   CHECK_EQ_INT(clBuildProgram(p, 0, NULL, "-bogus", build_notify, &s), CL_INVALID_BUILD_OPTIONS);
   clReleaseProgram(p);
   /* The callback does not run for the refused build. */
   usleep(10000);
   CHECK_EQ_INT(s.calls, 2);
}

/* Four threads each build their own program at the same time, then all build one shared
 * program: exactly the builds that were not refused succeed. */
struct thread_arg {
   int id;
   cl_program shared;
   cl_int shared_result;
   int ok;
};

static void *
build_thread(void *v)
{
   struct thread_arg *a = v;
   char src[256];
   snprintf(src, sizeof(src),
            "kernel void k%d(global int *p) { p[get_global_id(0)] = %d + (int)get_local_id(0); }\n",
            a->id, a->id * 1000 + (int)getpid());
   const char *s = src;
   cl_int err;
   cl_program p = clCreateProgramWithSource(context, 1, &s, NULL, &err);
   if (!p)
      return NULL;
   err = clBuildProgram(p, 1, &device, NULL, NULL, NULL);
   char name[16];
   snprintf(name, sizeof(name), "k%d", a->id);
   cl_kernel k = err == CL_SUCCESS ? clCreateKernel(p, name, &err) : NULL;
   a->ok = k != NULL;
   if (k)
      clReleaseKernel(k);
   clReleaseProgram(p);
   a->shared_result = clBuildProgram(a->shared, 1, &device, NULL, NULL, NULL);
   return NULL;
}

static void
test_concurrent_builds(void)
{
   pthread_t t[4];
   struct thread_arg args[4];
   cl_program shared = program_from_source(src_two);
   for (int i = 0; i < 4; i++) {
      args[i] = (struct thread_arg){ .id = i, .shared = shared };
      pthread_create(&t[i], NULL, build_thread, &args[i]);
   }
   int succeeded = 0;
   for (int i = 0; i < 4; i++) {
      pthread_join(t[i], NULL);
      CHECK(args[i].ok);
      CHECK(args[i].shared_result == CL_SUCCESS ||
            args[i].shared_result == CL_INVALID_OPERATION);
      succeeded += args[i].shared_result == CL_SUCCESS;
   }
   CHECK(succeeded >= 1);
   cl_build_status st;
   clGetProgramBuildInfo(shared, device, CL_PROGRAM_BUILD_STATUS, sizeof(st), &st, NULL);
   CHECK_EQ_INT(st, CL_BUILD_SUCCESS);
   clReleaseProgram(shared);
}

/* ---- release callbacks ---------------------------------------------------------------- */

static int release_order[4], release_calls;

static void CL_CALLBACK
release_cb(cl_program program, void *user_data)
{
   (void)program;
   release_order[release_calls++] = (int)(intptr_t)user_data;
}

static void
test_release_callback(void)
{
   cl_program p = program_from_source(src_two);
   build_expect(p, NULL, CL_SUCCESS);
   CHECK_EQ_INT(clSetProgramReleaseCallback(p, NULL, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(clSetProgramReleaseCallback(NULL, release_cb, NULL), CL_INVALID_PROGRAM);
   char version[64] = "";
   clGetDeviceInfo(device, CL_DEVICE_VERSION, sizeof(version), version, NULL);
   if (strncmp(version, "OpenCL 1.", 9)) {
      /* API §5.8.9 from 3.0: no device of the context supports program-scope global
       * destructors (CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT is false). */
      CHECK_EQ_INT(clSetProgramReleaseCallback(p, release_cb, (void *)1), CL_INVALID_OPERATION);
      clReleaseProgram(p);
      CHECK_EQ_INT(release_calls, 0);
      return;
   }
   CHECK_EQ_INT(clSetProgramReleaseCallback(p, release_cb, (void *)1), CL_SUCCESS);
   CHECK_EQ_INT(clSetProgramReleaseCallback(p, release_cb, (void *)2), CL_SUCCESS);
   cl_int err;
   cl_kernel k = clCreateKernel(p, "add", &err);
   clReleaseProgram(p);
   CHECK_EQ_INT(release_calls, 0); /* the kernel keeps the program alive */
   clReleaseKernel(k);
   CHECK_EQ_INT(release_calls, 2);
   CHECK(release_order[0] == 2 && release_order[1] == 1); /* reverse order */
}

int
main(void)
{
   test_setup();
   test_create_with_source();
   test_build_and_query();
   test_global_variables();
   test_build_errors();
   test_restricted_includes();
   test_include_files();
   test_recursion();
   test_binaries();
   test_compile_link_il_builtin();
   test_async_build();
   test_concurrent_builds();
   test_release_callback();
   clReleaseContext(context);
   return test_main_end();
}
