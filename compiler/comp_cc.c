/*
 * comp_cc.c — hsacl-cc, the offline compiler: the same in-process pipeline clBuildProgram
 * uses, from the command line.
 */
#include "comp_priv.h"
#include "runtime/rt_tools.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage[] =
   "NAME\n"
   "    hsacl-cc - compile OpenCL C or SPIR-V to an AMDGPU code object with hsacl's compiler\n"
   "\n"
   "SYNOPSIS\n"
   "    hsacl-cc [-mcpu=TARGET] [--emit=KIND] [-o OUTPUT] [BUILD-OPTIONS...] INPUT.cl\n"
   "    hsacl-cc [-mcpu=TARGET] [--emit=KIND] [-o OUTPUT] [BUILD-OPTIONS...] INPUT.spv\n"
   "    hsacl-cc --batch=LIST\n"
   "\n"
   "DESCRIPTION\n"
   "    Compiles INPUT.cl exactly as clBuildProgram does (clang frontend, ROCm device\n"
   "    libraries, LLVM optimisation and code generation, lld), in process. The build log\n"
   "    goes to standard error; the exit status is non-zero if the build fails.\n"
   "    An input that starts with the SPIR-V magic number is a SPIR-V module, built as\n"
   "    clCreateProgramWithIL and clBuildProgram do (validation, Khronos' translator,\n"
   "    then the same back half).\n"
   "\n"
   "OPTIONS\n"
   "    -mcpu=TARGET    Target ID, e.g. gfx906, gfx90a:xnack-, gfx1100 (default gfx906).\n"
   "    --emit=KIND     exe: loadable code object (default); obj: relocatable object before\n"
   "                    linking; asm: amdgcn assembly; llvm: optimised LLVM IR text.\n"
   "    -o OUTPUT       Output file; '-' is standard output. Default: INPUT with .co, .o,\n"
   "                    .s or .ll instead of .cl or .spv.\n"
   "    --extensions=A,B,...\n"
   "    --features=A,B,...\n"
   "                    Enable exactly these OpenCL extensions / OpenCL C 3.0 features\n"
   "                    (default: what an hsacl device of the default profile, OpenCL\n"
   "                    3.1 with image support, reports, as clBuildProgram enables them).\n"
   "    --max-work-group-size=N\n"
   "                    Build kernels without reqd_work_group_size for work-groups of up to\n"
   "                    N work-items (default 256), as clEnqueueNDRangeKernel's wide variant\n"
   "                    of a program is built for larger groups (1024 on gfx9).\n"
   "    --metadata      Print the parsed kernel metadata to standard output (exe only).\n"
   "    --version       Print the compiler identity and exit.\n"
   "    --batch=LIST    Run many compilations in this one process (the libraries load\n"
   "                    once): every line of LIST ('-': standard input) is one command\n"
   "                    line of the forms above, its arguments separated by tabs, with\n"
   "                    -o OUTPUT. A line's standard output goes to OUTPUT.out, its\n"
   "                    standard error to OUTPUT.err; after each line hsacl-cc prints\n"
   "                    'done N STATUS' (N counting lines from 1, STATUS its exit\n"
   "                    status) to standard output. If the process dies, the lines\n"
   "                    without 'done' did not finish: the first of them killed it.\n"
   "    --help          Print this text and exit.\n"
   "\n"
   "    Every other argument starting with '-' is an OpenCL build option (OpenCL 3.0 API\n"
   "    5.8.6): -D NAME[=VALUE], -I DIR, -cl-std=CL1.0|CL1.1|CL1.2|CL2.0|CL3.0,\n"
   "    -cl-opt-disable, -cl-mad-enable, -cl-no-signed-zeros, -cl-unsafe-math-optimizations,\n"
   "    -cl-finite-math-only, -cl-fast-relaxed-math, -cl-denorms-are-zero,\n"
   "    -cl-fp32-correctly-rounded-divide-sqrt, -cl-single-precision-constant,\n"
   "    -cl-uniform-work-group-size, -cl-no-subgroup-ifp, -cl-kernel-arg-info, -g, -w,\n"
   "    -Werror. An unknown option is an error.\n"
   "\n"
   "ENVIRONMENT\n"
   "    HSACL_DEVICE_LIBS   Directory holding opencl.bc, ocml.bc and ockl.bc.\n"
   "\n"
   "EXIT STATUS\n"
   "    0 on success, 1 on a build error, 2 on a usage error.\n";

/* The extensions and OpenCL C features an hsacl device of the default profile (OpenCL 3.1)
 * with image support reports (CL_DEVICE_EXTENSIONS, CL_DEVICE_OPENCL_C_FEATURES), which
 * clBuildProgram enables for it (platform/plat_device_ext.c), read from the platform's own
 * table so that the two cannot drift apart. The table is data (an X-macro list) and this is
 * a command-line tool on top of the compiler, not the driver: the flags of its `when` column
 * get local meanings here, where every profile and image condition holds and only the IL
 * entries depend on something (the SPIR-V helpers, rt_spirv_tools_present, which the
 * platform asks too). With clang's defaults instead, the built-ins of the extensions declared
 * from their macros (cl_khr_integer_dot_product's dot, cl_khr_extended_bit_ops, the
 * sub-group extensions, ...) were undeclared, whatever -cl-std. */
#define PLAT_ALWAYS 0u
#define PLAT_CL20 0u
#define PLAT_CL30 0u
#define PLAT_IMAGES 0u
#define PLAT_MIPMAPS 0u /* gfx9 but gfx90a and gfx94x, whose kernels cannot use the gradients */
#define PLAT_IL 1u
static const struct {
   const char *name;
   unsigned when;
} device_entries[] = {
#define PLAT_EXTENSION(name, major, minor, patch, when) { #name, (when) },
#define PLAT_FEATURE(name, major, minor, patch, when) { #name, (when) },
#include "platform/plat_extensions.def"
#undef PLAT_FEATURE
#undef PLAT_EXTENSION
};
#undef PLAT_IL
#undef PLAT_MIPMAPS
#undef PLAT_IMAGES
#undef PLAT_CL30
#undef PLAT_CL20
#undef PLAT_ALWAYS

/* The default list for -cl-ext (see device_entries), NULL-terminated; NULL on allocation
 * failure. */
static const char **
device_extensions(void)
{
   size_t n = sizeof(device_entries) / sizeof(device_entries[0]);
   const char **v = calloc(n + 1, sizeof(*v));
   if (!v)
      return NULL;
   bool il = rt_spirv_tools_present();
   size_t k = 0;
   for (size_t i = 0; i < n; i++)
      if (!device_entries[i].when || il)
         v[k++] = device_entries[i].name;
   return v;
}

/* Appends `arg` to the option string, single-quoted so that the option parser sees it as
 * one token. Returns false on allocation failure. */
static bool
append_option(char **opts, size_t *len, const char *arg)
{
   size_t need = *len + 4 * strlen(arg) + 4;
   char *n = realloc(*opts, need);
   if (!n)
      return false;
   *opts = n;
   char *p = n + *len;
   if (*len)
      *p++ = ' ';
   *p++ = '\'';
   for (const char *s = arg; *s; s++) {
      if (*s == '\'') {
         memcpy(p, "'\\''", 4);
         p += 4;
      } else {
         *p++ = *s;
      }
   }
   *p++ = '\'';
   *p = 0;
   *len = p - n;
   return true;
}

/* Splits "a,b,c" into a NULL-terminated array pointing into `s` (modified). */
static const char **
split_list(char *s)
{
   size_t n = 1;
   for (char *p = s; *p; p++)
      n += *p == ',';
   const char **v = calloc(n + 1, sizeof(*v));
   if (!v)
      return NULL;
   size_t i = 0;
   for (char *tok = strtok(s, ","); tok; tok = strtok(NULL, ","))
      v[i++] = tok;
   return v;
}

static char *
read_file(const char *path, size_t *size)
{
   FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
   if (!f)
      return NULL;
   size_t cap = 1 << 16, n = 0;
   char *buf = malloc(cap);
   while (buf) {
      size_t r = fread(buf + n, 1, cap - n, f);
      n += r;
      if (n < cap)
         break;
      char *nb = realloc(buf, cap *= 2);
      if (!nb) {
         free(buf);
         buf = NULL;
      }
      buf = nb;
   }
   if (f != stdin)
      fclose(f);
   *size = n;
   return buf;
}

static void
print_metadata(const struct comp_program_info *info)
{
   static const char *const addr[] = { "-", "private", "global", "constant", "local", "generic",
                                       "region" };
   for (uint32_t i = 0; i < info->num_kernels; i++) {
      const struct comp_kernel *k = &info->kernels[i];
      printf("kernel %s symbol %s kernarg %u/%u group %u private %u wave%u sgpr %u vgpr %u "
             "dynstack %d maxwg %u\n",
             k->name, k->symbol, k->kernarg_segment_size, k->kernarg_segment_align,
             k->group_segment_fixed_size, k->private_segment_fixed_size, k->wavefront_size,
             k->sgpr_count, k->vgpr_count, k->uses_dynamic_stack, k->max_flat_workgroup_size);
      for (uint32_t j = 0; j < k->num_args; j++) {
         const struct comp_kernel_arg *a = &k->args[j];
         printf("  arg %u %s off %u size %u align %u %s %s%s\n", j,
                comp_arg_kind_name(a->kind), a->offset, a->size, a->align,
                addr[a->address_space], a->name ? a->name : "",
                a->type_name ? a->type_name : "");
      }
   }
   for (uint32_t i = 0; i < info->num_printfs; i++)
      printf("printf %u nargs %u \"%s\"\n", info->printfs[i].id, info->printfs[i].num_args,
             info->printfs[i].format);
}

/* One compilation: argv[1..argc-1] as on the command line. Returns the exit status. */
static int
cc_run(int argc, char **argv)
{
   const char *target = "gfx906", *output = NULL, *input = NULL;
   enum comp_emit emit = COMP_EMIT_EXECUTABLE;
   char *opts = NULL, *source = NULL, *out_path = NULL;
   const char **extensions = NULL, **features = NULL;
   size_t opts_len = 0, source_size = 0;
   bool metadata = false;
   unsigned max_wg = 0;
   int rc = 2;
   struct comp_output out = { 0 };

   for (int i = 1; i < argc; i++) {
      const char *a = argv[i];
      if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
         fputs(usage, stdout);
         rc = 0;
         goto out;
      } else if (!strcmp(a, "--version")) {
         printf("%s\n", comp_identity());
         rc = 0;
         goto out;
      } else if (!strncmp(a, "-mcpu=", 6)) {
         target = a + 6;
      } else if (!strncmp(a, "--emit=", 7)) {
         const char *k = a + 7;
         if (!strcmp(k, "exe"))
            emit = COMP_EMIT_EXECUTABLE;
         else if (!strcmp(k, "obj"))
            emit = COMP_EMIT_OBJECT;
         else if (!strcmp(k, "asm"))
            emit = COMP_EMIT_ASM;
         else if (!strcmp(k, "llvm"))
            emit = COMP_EMIT_LLVM;
         else {
            fprintf(stderr, "hsacl-cc: unknown --emit kind '%s'\n", k);
            goto out;
         }
      } else if (!strcmp(a, "-o")) {
         if (++i >= argc) {
            fprintf(stderr, "hsacl-cc: -o needs an argument\n");
            goto out;
         }
         output = argv[i];
      } else if (!strncmp(a, "--extensions=", 13)) {
         free(extensions);
         extensions = split_list(argv[i] + 13);
      } else if (!strncmp(a, "--features=", 11)) {
         free(features);
         features = split_list(argv[i] + 11);
      } else if (!strncmp(a, "--max-work-group-size=", 22)) {
         char *end = NULL;
         unsigned long n = strtoul(a + 22, &end, 10);
         if (!a[22] || *end || n < 1 || n > 1024) {
            fprintf(stderr, "hsacl-cc: --max-work-group-size wants 1 to 1024, not '%s'\n",
                    a + 22);
            goto out;
         }
         max_wg = (unsigned)n;
      } else if (!strcmp(a, "--metadata")) {
         metadata = true;
      } else if (a[0] == '-' && a[1]) {
         bool takes_arg = !strcmp(a, "-D") || !strcmp(a, "-I");
         if (!append_option(&opts, &opts_len, a) ||
             (takes_arg && i + 1 < argc && !append_option(&opts, &opts_len, argv[++i]))) {
            fprintf(stderr, "hsacl-cc: out of memory\n");
            goto out;
         }
      } else if (!input) {
         input = a;
      } else {
         fprintf(stderr, "hsacl-cc: more than one input file ('%s', '%s')\n", input, a);
         goto out;
      }
   }
   if (!input) {
      fprintf(stderr, "hsacl-cc: no input file (see --help)\n");
      goto out;
   }
   source = read_file(input, &source_size);
   if (!source) {
      fprintf(stderr, "hsacl-cc: cannot read '%s': %s\n", input, strerror(errno));
      goto out;
   }

   /* SPIR-V: the magic number in either byte order (SPIR-V 2.3). */
   bool il = source_size >= 4 && (!memcmp(source, "\x03\x02\x23\x07", 4) ||
                                  !memcmp(source, "\x07\x23\x02\x03", 4));
   if (il) {
      struct comp__spirv_info info;
      char *why = NULL;
      if (comp__spirv_check(source, source_size, &info, &why) != COMP_OK) {
         fprintf(stderr, "hsacl-cc: %s: %s\n", input, why ? why : "out of memory");
         free(why);
         rc = 1;
         goto out;
      }
   }
   if (!extensions && !(extensions = device_extensions())) {
      fprintf(stderr, "hsacl-cc: out of memory\n");
      goto out;
   }
   struct comp_build_desc desc = {
      .source = il ? NULL : source,
      .source_size = il ? 0 : source_size,
      .il = il ? source : NULL,
      .il_size = il ? source_size : 0,
      .source_name = strcmp(input, "-") ? input : "stdin.cl",
      .options = opts,
      .target_id = target,
      .extensions = extensions,
      .features = features,
      .action = COMP_ACTION_BUILD,
      .emit = emit,
      .max_work_group_size = max_wg,
   };
   enum comp_status st = comp_build(&desc, &out);
   if (out.log && *out.log)
      fputs(out.log, stderr);
   if (st != COMP_OK) {
      fprintf(stderr, "hsacl-cc: build failed (%s)\n", comp_status_name(st));
      rc = 1;
      goto out;
   }

   if (!output) {
      static const char *const ext[] = { ".co", ".o", ".s", ".ll" };
      const char *base = strrchr(input, '/') ? strrchr(input, '/') + 1 : input;
      size_t stem = strlen(base);
      if (stem > 3 && !strcmp(base + stem - 3, ".cl"))
         stem -= 3;
      else if (stem > 4 && !strcmp(base + stem - 4, ".spv"))
         stem -= 4;
      out_path = malloc(stem + 4);
      if (!out_path)
         goto out;
      memcpy(out_path, base, stem);
      strcpy(out_path + stem, ext[emit]);
      output = out_path;
   }
   FILE *f = strcmp(output, "-") ? fopen(output, "wb") : stdout;
   if (!f || fwrite(out.data, 1, out.size, f) != out.size || (f != stdout && fclose(f))) {
      fprintf(stderr, "hsacl-cc: cannot write '%s': %s\n", output, strerror(errno));
      rc = 1;
      goto out;
   }
   if (metadata && out.info)
      print_metadata(out.info);
   rc = 0;

out:
   comp_output_finish(&out);
   free(out_path);
   free(source);
   free(opts);
   free(extensions);
   free(features);
   return rc;
}

/* Points fd `to` at a new file `path` + `suffix`; returns false (and says why) if it cannot. */
static bool
redirect(int to, const char *path, const char *suffix)
{
   char name[4096];
   if (snprintf(name, sizeof(name), "%s%s", path, suffix) >= (int)sizeof(name)) {
      fprintf(stderr, "hsacl-cc: output name too long: '%s'\n", path);
      return false;
   }
   int fd = open(name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
   if (fd < 0) {
      fprintf(stderr, "hsacl-cc: cannot create '%s': %s\n", name, strerror(errno));
      return false;
   }
   int ok = dup2(fd, to) >= 0;
   close(fd);
   return ok;
}

/* One line of a batch: splits it at tabs into an argument vector, runs it with its
 * standard output and error in OUTPUT.out and OUTPUT.err, and restores both. A line
 * without -o OUTPUT is a usage error (status 2): its outputs would have no name. */
static int
batch_line(char *line, int out_fd, int err_fd)
{
   size_t n = 2;
   for (char *p = line; *p; p++)
      n += *p == '\t';
   char **argv = calloc(n + 1, sizeof(*argv));
   if (!argv)
      return 2;
   int argc = 0;
   argv[argc++] = "hsacl-cc";
   for (char *tok = strtok(line, "\t"); tok; tok = strtok(NULL, "\t"))
      argv[argc++] = tok;
   const char *output = NULL;
   for (int i = 1; i + 1 < argc; i++)
      if (!strcmp(argv[i], "-o"))
         output = argv[i + 1];
   int rc = 2;
   if (!output || !strcmp(output, "-")) {
      fprintf(stderr, "hsacl-cc: --batch: a line without -o OUTPUT\n");
      goto out;
   }
   fflush(stdout);
   fflush(stderr);
   if (!redirect(STDOUT_FILENO, output, ".out") || !redirect(STDERR_FILENO, output, ".err"))
      goto restore;
   rc = cc_run(argc, argv);
restore:
   fflush(stdout);
   fflush(stderr);
   dup2(out_fd, STDOUT_FILENO);
   dup2(err_fd, STDERR_FILENO);
out:
   free(argv);
   return rc;
}

/* --batch=LIST: every line one compilation, in this process; 'done N STATUS' after each. */
static int
cc_batch(const char *list)
{
   FILE *f = strcmp(list, "-") ? fopen(list, "r") : stdin;
   if (!f) {
      fprintf(stderr, "hsacl-cc: cannot read '%s': %s\n", list, strerror(errno));
      return 2;
   }
   int out_fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
   int err_fd = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
   int rc = out_fd < 0 || err_fd < 0 ? 2 : 0;
   char *line = NULL;
   size_t cap = 0;
   ssize_t len;
   for (unsigned long n = 1; !rc && (len = getline(&line, &cap, f)) >= 0; n++) {
      if (len && line[len - 1] == '\n')
         line[len - 1] = 0;
      printf("done %lu %d\n", n, batch_line(line, out_fd, err_fd));
      fflush(stdout);
   }
   free(line);
   if (out_fd >= 0)
      close(out_fd);
   if (err_fd >= 0)
      close(err_fd);
   if (f != stdin)
      fclose(f);
   return rc;
}

int
main(int argc, char **argv)
{
   if (argc == 2 && !strncmp(argv[1], "--batch=", 8))
      return cc_batch(argv[1] + 8);
   return cc_run(argc, argv);
}
