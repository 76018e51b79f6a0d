/*
 * comp_test_build — comp_build and comp_parse_metadata through the public C API:
 * diagnostics, option and target errors, emitted kinds, embedded headers, extension lists,
 * kernel attributes, printf metadata, malformed code objects, concurrent builds.
 *
 * usage: comp_test_build KERNEL_DIR
 */
#include "comp_test.h"

#include <elf.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *kernel_dir;

static enum comp_status
build(const char *src, const char *opts, const char *target, enum comp_emit emit,
      struct comp_output *out)
{
   return comp_test_build(
      src, (struct comp_build_desc){ .options = opts, .target_id = target, .emit = emit }, out);
}

static char *
read_kernel(const char *name, size_t *size)
{
   char path[4096];
   snprintf(path, sizeof(path), "%s/%s", kernel_dir, name);
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

static void
test_diagnostics(void)
{
   struct comp_output out;
   const char *bad = "__kernel void f(__global int *a)\n{\n   a[0] = undeclared_b;\n}\n";
   CHECK(build(bad, NULL, "gfx906", COMP_EMIT_EXECUTABLE, &out) == COMP_BUILD_FAILURE);
   CHECK(out.log && strstr(out.log, "test.cl:3:11: error: use of undeclared identifier"));
   CHECK(out.data == NULL && out.info == NULL);
   comp_output_finish(&out);

   /* A warning is logged on success, an error under -Werror, silent under -w. */
   const char *warn = "#warning test-warning\n__kernel void f(__global int *a) { a[0] = 1; }\n";
   CHECK(build(warn, "", "gfx906", COMP_EMIT_EXECUTABLE, &out) == COMP_OK);
   CHECK(strstr(out.log, "test.cl:1:") && strstr(out.log, "warning:"));
   comp_output_finish(&out);
   CHECK(build(warn, "-Werror", "gfx906", COMP_EMIT_EXECUTABLE, &out) == COMP_BUILD_FAILURE);
   CHECK(strstr(out.log, "error:"));
   comp_output_finish(&out);
   CHECK(build(warn, "-w", "gfx906", COMP_EMIT_EXECUTABLE, &out) == COMP_OK);
   CHECK(!strstr(out.log, "warning"));
   comp_output_finish(&out);
}

static void
test_option_and_target_errors(void)
{
   struct comp_output out;
   const char *ok = "__kernel void f(__global int *a) { a[0] = 1; }\n";
   static const struct {
      enum comp_action action;
      enum comp_status want;
   } cases[] = {
      { COMP_ACTION_BUILD, COMP_INVALID_BUILD_OPTIONS },
      { COMP_ACTION_COMPILE, COMP_INVALID_COMPILER_OPTIONS },
   };
   for (size_t i = 0; i < 2; i++) {
      struct comp_build_desc d = { .source = ok,
                                   .source_size = strlen(ok),
                                   .options = "-cl-mad-enable -cl-bogus",
                                   .target_id = "gfx906",
                                   .action = cases[i].action };
      CHECK(comp_build(&d, &out) == cases[i].want);
      CHECK(out.log && strstr(out.log, "error: unknown option '-cl-bogus'"));
      comp_output_finish(&out);
   }
   static const char *const bad_targets[] = { "gfx9999",        "",
                                              "gfx906:xnack",   "gfx906:foo+",
                                              "gfx1100:xnack-", "sm_80" };
   for (size_t i = 0; i < sizeof(bad_targets) / sizeof(bad_targets[0]); i++) {
      CHECK(build(ok, NULL, bad_targets[i], COMP_EMIT_EXECUTABLE, &out) == COMP_INVALID_TARGET);
      CHECK(out.log && strstr(out.log, "error:"));
      comp_output_finish(&out);
   }
   static const char *const good_targets[] = { "gfx90a:xnack-", "gfx906:sramecc-:xnack-",
                                               "gfx942:sramecc+:xnack+", "gfx1201" };
   for (size_t i = 0; i < sizeof(good_targets) / sizeof(good_targets[0]); i++) {
      CHECK(build(ok, NULL, good_targets[i], COMP_EMIT_EXECUTABLE, &out) == COMP_OK);
      CHECK(out.info && out.info->target && strstr(out.info->target, good_targets[i]));
      comp_output_finish(&out);
   }
   CHECK(comp_target_wavefront_size("gfx906") == 64);
   CHECK(comp_target_wavefront_size("gfx90a:xnack+") == 64);
   CHECK(comp_target_wavefront_size("gfx1030") == 32);
   CHECK(comp_target_wavefront_size("gfx1201") == 32);
   CHECK(comp_target_wavefront_size("gfx0") == 0);
}

static void
test_emit_kinds(void)
{
   struct comp_output out;
   const char *src = "__kernel void f(__global float *a) { a[get_global_id(0)] = sqrt(a[0]); }\n";
   CHECK(build(src, NULL, "gfx906", COMP_EMIT_EXECUTABLE, &out) == COMP_OK);
   CHECK(out.size > sizeof(Elf64_Ehdr) && ((Elf64_Ehdr *)out.data)->e_type == ET_DYN &&
         ((Elf64_Ehdr *)out.data)->e_machine == EM_AMDGPU);
   comp_output_finish(&out);
   CHECK(build(src, NULL, "gfx906", COMP_EMIT_OBJECT, &out) == COMP_OK);
   CHECK(out.size > sizeof(Elf64_Ehdr) && ((Elf64_Ehdr *)out.data)->e_type == ET_REL);
   CHECK(out.info == NULL);
   /* The metadata reader also takes a relocatable object (SHT_NOTE, no PT_NOTE). */
   struct comp_program_info *info;
   CHECK(comp_parse_metadata(out.data, out.size, &info, NULL) == COMP_OK);
   CHECK(info && info->num_kernels == 1 && !strcmp(info->kernels[0].name, "f"));
   comp_program_info_destroy(info);
   comp_output_finish(&out);
   CHECK(build(src, NULL, "gfx1100", COMP_EMIT_ASM, &out) == COMP_OK);
   CHECK(strstr(out.data, ".amdhsa_kernel f") && strstr(out.data, ".amdhsa_wavefront_size32 1"));
   CHECK(!strstr(out.data, "s_swappc_b64"));
   comp_output_finish(&out);
   CHECK(build(src, "-cl-denorms-are-zero", "gfx906", COMP_EMIT_LLVM, &out) == COMP_OK);
   CHECK(strstr(out.data, "define protected amdgpu_kernel void @f"));
   CHECK(strstr(out.data, "\"denormal-fp-math-f32\"=\"preserve-sign,preserve-sign\""));
   /* The device libraries were inlined: only intrinsic calls are left. */
   for (const char *c = strstr(out.data, " call "); c; c = strstr(c + 1, " call ")) {
      const char *at = strchr(c, '@');
      CHECK(at && !strncmp(at, "@llvm.", 6));
   }
   comp_output_finish(&out);
}

/* The oclc control constants follow the target and the options. */
static bool
has_constant(const char *ir, const char *name, const char *type, unsigned value)
{
   char want[256];
   snprintf(want, sizeof(want),
            "@%s = linkonce_odr protected local_unnamed_addr addrspace(4) constant %s %u,", name,
            type, value);
   if (ir && strstr(ir, want))
      return true;
   fprintf(stderr, "missing '%s' in:\n%s\n", want, ir ? ir : "(null)");
   return false;
}

static void
test_control_constants(void)
{
   static const struct {
      const char *target, *options;
      unsigned isa, wave64, daz, finite, unsafe, sqrt;
   } cases[] = {
      { "gfx906", "", 9006, 1, 0, 0, 0, 0 },
      { "gfx90a:xnack-", "-cl-denorms-are-zero", 9010, 1, 1, 0, 0, 0 },
      { "gfx942", "-cl-fp32-correctly-rounded-divide-sqrt", 9402, 1, 0, 0, 0, 1 },
      { "gfx1030", "-cl-fast-relaxed-math", 10300, 0, 0, 1, 1, 0 },
      { "gfx1100", "-cl-finite-math-only", 11000, 0, 0, 1, 0, 0 },
      { "gfx1201", "-cl-unsafe-math-optimizations", 12001, 0, 0, 0, 1, 0 },
      { "gfx803", "", 8003, 1, 1, 0, 0, 0 }, /* no fast f32 denormals: DAZ by default */
   };
   for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
      char *ir = NULL;
      CHECK(comp__control_module_text(cases[i].target, cases[i].options, &ir) == COMP_OK);
      CHECK(has_constant(ir, "__oclc_ISA_version", "i32", cases[i].isa));
      CHECK(has_constant(ir, "__oclc_ABI_version", "i32", 500));
      CHECK(has_constant(ir, "__oclc_wavefrontsize64", "i8", cases[i].wave64));
      CHECK(has_constant(ir, "__oclc_daz_opt", "i8", cases[i].daz));
      CHECK(has_constant(ir, "__oclc_finite_only_opt", "i8", cases[i].finite));
      CHECK(has_constant(ir, "__oclc_unsafe_math_opt", "i8", cases[i].unsafe));
      CHECK(has_constant(ir, "__oclc_correctly_rounded_sqrt32", "i8", cases[i].sqrt));
      free(ir);
   }
   /* Targets without an oclc_isa_version_*.bc file still build. */
   struct comp_output out;
   const char *src = "__kernel void f(__global float *a) { a[0] = sqrt(a[1]) / a[2]; }\n";
   CHECK(build(src, NULL, "gfx1201", COMP_EMIT_EXECUTABLE, &out) == COMP_OK);
   CHECK(out.info && out.info->kernels[0].wavefront_size == 32);
   comp_output_finish(&out);
}

static void
test_headers_defines_extensions(void)
{
   struct comp_output out;
   const char *src = "#include \"inc/sizes.h\"\n"
                     "#ifndef FROM_D\n#error no -D\n#endif\n"
                     "__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))\n"
                     "__attribute__((vec_type_hint(float4)))\n"
                     "void f(__global int *restrict a, __local float *l, int n)\n"
                     "{ l[0] = n; a[0] = FROM_D + (int)l[0]; }\n"
                     "__kernel __attribute__((work_group_size_hint(8, 4, 2))) void g(void) {}\n";
   const char *hdr = "#define WG 64\n";
   struct comp_header h = { "inc/sizes.h", hdr, strlen(hdr) };
   struct comp_build_desc d = {
      .source = src,
      .source_size = strlen(src),
      .options = "-D FROM_D=3 -cl-kernel-arg-info",
      .target_id = "gfx906",
      .headers = &h,
      .num_headers = 1,
   };
   CHECK(comp_build(&d, &out) == COMP_OK);
   if (out.info && out.info->num_kernels == 2) {
      const struct comp_kernel *f = &out.info->kernels[0], *g = &out.info->kernels[1];
      if (strcmp(f->name, "f"))
         f = &out.info->kernels[1], g = &out.info->kernels[0];
      CHECK(f->reqd_work_group_size[0] == 64 && f->reqd_work_group_size[1] == 1);
      CHECK(f->vec_type_hint && !strcmp(f->vec_type_hint, "float4"));
      CHECK(g->work_group_size_hint[0] == 8 && g->work_group_size_hint[2] == 2);
      CHECK(f->num_explicit_args == 3 && f->num_args >= 3);
      CHECK(f->args[0].kind == COMP_ARG_GLOBAL_BUFFER && f->args[0].is_restrict &&
            f->args[0].address_space == COMP_ADDR_GLOBAL);
      CHECK(f->args[0].name && !strcmp(f->args[0].name, "a"));
      CHECK(f->args[1].kind == COMP_ARG_DYNAMIC_SHARED_POINTER &&
            f->args[1].address_space == COMP_ADDR_LOCAL && f->args[1].pointee_align == 4);
      CHECK(f->args[2].kind == COMP_ARG_BY_VALUE && f->args[2].size == 4 && f->args[2].align == 4);
      CHECK(f->kernarg_segment_align >= 8 && f->max_flat_workgroup_size == 64);
      CHECK(f->language && !strcmp(f->language, "OpenCL C"));
      CHECK(f->language_version[0] == 1 && f->language_version[1] == 2);
   } else {
      CHECK(!"two kernels expected");
      fprintf(stderr, "%s\n", out.log);
   }
   comp_output_finish(&out);

   /* Exactly the extensions/features the platform lists are visible. */
   const char *ext_src = "#ifndef cl_khr_fp64\n#error no fp64\n#endif\n"
                         "#ifdef cl_khr_fp16\n#error fp16 should be off\n#endif\n"
                         "#ifndef __opencl_c_generic_address_space\n#error no generic\n#endif\n"
                         "#ifdef __opencl_c_pipes\n#error pipes should be off\n#endif\n"
                         "__kernel void f(__global double *a) { a[0] = 1.0; }\n";
   static const char *const exts[] = { "cl_khr_fp64", "cl_khr_int64_base_atomics", NULL };
   static const char *const feats[] = { "__opencl_c_fp64",
                                        "__opencl_c_generic_address_space",
                                        "__opencl_c_program_scope_global_variables",
                                        "__opencl_c_atomic_order_seq_cst",
                                        "__opencl_c_atomic_scope_device",
                                        NULL };
   struct comp_build_desc e = {
      .source = ext_src,
      .source_size = strlen(ext_src),
      .options = "-cl-std=CL3.0",
      .target_id = "gfx906",
      .extensions = exts,
      .features = feats,
   };
   CHECK(comp_build(&e, &out) == COMP_OK);
   if (!out.info)
      fprintf(stderr, "%s\n", out.log);
   comp_output_finish(&out);
   static const char *const none[] = { NULL };
   e.extensions = none;
   e.features = NULL;
   e.options = "-cl-std=CL1.2";
   CHECK(comp_build(&e, &out) == COMP_BUILD_FAILURE);
   CHECK(strstr(out.log, "no fp64"));
   comp_output_finish(&out);
}

static void
test_printf(void)
{
   size_t size;
   char *src = read_kernel("k15_printf.cl", &size);
   CHECK(src != NULL);
   if (!src)
      return;
   for (int o0 = 0; o0 < 2; o0++) {
      struct comp_output out;
      struct comp_build_desc d = { .source = src,
                                   .source_size = size,
                                   .options = o0 ? "-cl-opt-disable" : NULL,
                                   .target_id = "gfx906" };
      CHECK(comp_build(&d, &out) == COMP_OK);
      if (!out.info) {
         fprintf(stderr, "%s\n", out.log);
         continue;
      }
      CHECK(out.info->num_printfs == 2);
      if (out.info->num_printfs == 2) {
         const struct comp_printf_info *p = &out.info->printfs[0];
         if (p->id != 1)
            p = &out.info->printfs[1];
         CHECK(p->id == 1 && p->num_args == 3 && !strcmp(p->format, "hello %d %f %s\n"));
         CHECK(!strcmp(out.info->printfs[p->id == 1].format, "gid=%lu v=%v4f\n"));
         CHECK(p->arg_sizes[0] == 4 && p->arg_sizes[1] == 4);
      }
      bool has_buffer = false;
      const struct comp_kernel *k = &out.info->kernels[0];
      for (uint32_t i = 0; i < k->num_args; i++)
         has_buffer |= k->args[i].kind == COMP_ARG_HIDDEN_PRINTF_BUFFER && k->args[i].size == 8;
      CHECK(has_buffer);
      comp_output_finish(&out);
   }
   free(src);
}

/* Mutated code objects are rejected or parsed, never crash; truncations are rejected. */
static void
test_malformed_metadata(void)
{
   struct comp_output out;
   const char *src = "__kernel void f(__global int *a, int b) { a[0] = b; }\n";
   CHECK(build(src, NULL, "gfx906", COMP_EMIT_EXECUTABLE, &out) == COMP_OK);
   if (!out.data)
      return;
   struct comp_program_info *info;
   char *err;
   CHECK(comp_parse_metadata("garbage", 7, &info, &err) == COMP_INVALID_BINARY && err);
   free(err);
   CHECK(comp_parse_metadata(NULL, 0, &info, NULL) == COMP_INVALID_BINARY && !info);

   /* Find the note's descriptor. */
   const char *base = out.data;
   const char *note = NULL;
   size_t note_size = 0;
   const Elf64_Ehdr *eh = out.data;
   const Elf64_Phdr *ph = (const Elf64_Phdr *)(base + eh->e_phoff);
   for (unsigned i = 0; i < eh->e_phnum; i++)
      if (ph[i].p_type == PT_NOTE) {
         note = base + ph[i].p_offset;
         note_size = ph[i].p_filesz;
      }
   CHECK(note != NULL);
   char *copy = malloc(out.size);
   unsigned rejected = 0, parsed = 0;
   uint32_t seed = 12345;
   const char *rounds_env = getenv("COMP_FUZZ_ROUNDS");
   int rounds = rounds_env ? atoi(rounds_env) : 3000;
   for (int round = 0; round < rounds && note; round++) {
      memcpy(copy, out.data, out.size);
      size_t size = out.size;
      int flips = 1 + round % 4;
      for (int f = 0; f < flips; f++) {
         seed = seed * 1103515245 + 12345;
         size_t off = (size_t)(note - base) + 12 + (seed >> 8) % (note_size - 12);
         seed = seed * 1103515245 + 12345;
         copy[off] = (char)(seed >> 16);
      }
      if (round % 10 == 9) {
         seed = seed * 1103515245 + 12345;
         size = (seed >> 4) % out.size;
      }
      enum comp_status st = comp_parse_metadata(copy, size, &info, &err);
      CHECK(st == COMP_OK || st == COMP_INVALID_BINARY);
      CHECK((st == COMP_OK) == (info != NULL));
      if (st == COMP_OK)
         parsed++;
      else
         rejected++;
      free(err);
      comp_program_info_destroy(info);
   }
   CHECK(rejected > 0);
   printf("malformed metadata: %u rejected, %u parsed\n", rejected, parsed);
   free(copy);
   comp_output_finish(&out);
}

struct thread_job {
   const char *src;
   size_t size;
   const char *target;
   struct comp_output out;
   enum comp_status st;
};

static void *
thread_build(void *arg)
{
   struct thread_job *j = arg;
   for (int rep = 0; rep < 2; rep++) {
      if (rep)
         comp_output_finish(&j->out);
      struct comp_build_desc d = { .source = j->src,
                                   .source_size = j->size,
                                   .options = "-cl-std=CL2.0",
                                   .target_id = j->target };
      j->st = comp_build(&d, &j->out);
   }
   return NULL;
}

static void
test_concurrent(void)
{
   static const char *const names[] = { "k24_nbody.cl", "k08_float_math.cl", "k15_printf.cl",
                                        "k41_cl2_wg_generic.cl" };
   for (size_t n = 0; n < 4; n++) {
      size_t size;
      char *src = read_kernel(names[n], &size);
      CHECK(src != NULL);
      if (!src)
         continue;
      struct comp_output ref;
      struct comp_build_desc d = {
         .source = src, .source_size = size, .options = "-cl-std=CL2.0", .target_id = "gfx90a"
      };
      CHECK(comp_build(&d, &ref) == COMP_OK);
      struct thread_job jobs[4];
      pthread_t th[4];
      for (int i = 0; i < 4; i++) {
         jobs[i] = (struct thread_job){ .src = src, .size = size, .target = "gfx90a" };
         pthread_create(&th[i], NULL, thread_build, &jobs[i]);
      }
      for (int i = 0; i < 4; i++) {
         pthread_join(th[i], NULL);
         CHECK(jobs[i].st == COMP_OK);
         CHECK(jobs[i].out.size == ref.size && !memcmp(jobs[i].out.data, ref.data, ref.size));
         comp_output_finish(&jobs[i].out);
      }
      comp_output_finish(&ref);
      free(src);
   }
}

int
main(int argc, char **argv)
{
   if (argc != 2) {
      fprintf(stderr, "usage: %s KERNEL_DIR\n", argv[0]);
      return 2;
   }
   kernel_dir = argv[1];
   const char *id = comp_identity();
   printf("identity: %s\n", id);
   CHECK(strstr(id, "LLVM ") && strstr(id, "device-libs ") && !strstr(id, "missing"));

   test_diagnostics();
   test_option_and_target_errors();
   test_emit_kinds();
   test_control_constants();
   test_headers_defines_extensions();
   test_printf();
   test_malformed_metadata();
   test_concurrent();

   return comp_test_end("comp_test_build");
}
