/*
 * comp_test_build — comp_build and comp_parse_metadata through the public C API:
 * diagnostics, option and target errors, emitted kinds, embedded headers, extension lists,
 * kernel attributes, printf metadata, malformed code objects and metadata notes, concurrent
 * builds.
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

/* Which kernels cannot tell how their work-items are grouped (comp_kernel.work_group_free,
 * comp_wgfree.cpp): those whose only work-item queries are global ones, through helpers
 * too; not those that ask for a local or group id or size, synchronise or share memory in a
 * group, use group or sub-group functions or amdgcn builtins, or have a required size. */
static void
test_work_group_free(void)
{
   static const char src[] =
      "#pragma OPENCL EXTENSION cl_khr_subgroups : enable\n"
      "int gid(void) { return get_global_id(0) + get_global_offset(0); }\n"
      "int lid(void) { return get_local_id(0); }\n"
      "kernel void free_plain(global int *o) { o[get_global_id(0)] = get_global_size(0); }\n"
      "kernel void free_helper(global int *o, read_only image2d_t im, sampler_t s) {\n"
      "   o[gid()] = read_imagei(im, s, (int2)(get_global_id(0), get_work_dim())).x; }\n"
      "kernel void no_local_id(global int *o) { o[get_global_id(0)] = get_local_id(0); }\n"
      "kernel void no_local_size(global int *o) { o[get_global_id(0)] = get_local_size(0); }\n"
      "kernel void no_group_id(global int *o) { o[get_global_id(0)] = get_group_id(1); }\n"
      "kernel void no_num_groups(global int *o) { o[0] = get_num_groups(0); }\n"
      "kernel void no_enqueued(global int *o) { o[0] = get_enqueued_local_size(0); }\n"
      "kernel void no_linear(global int *o) { o[0] = get_local_linear_id(); }\n"
      "kernel void no_via_helper(global int *o) { o[gid()] = lid(); }\n"
      "kernel void no_barrier(global int *o) { o[get_global_id(0)] = 1;\n"
      "   barrier(CLK_GLOBAL_MEM_FENCE); }\n"
      "kernel void no_local_arg(global int *o, local int *l) { l[0] = 1; o[0] = l[0]; }\n"
      "kernel void no_collective(global int *o) {\n"
      "   o[get_global_id(0)] = work_group_reduce_add(1); }\n"
      "kernel void no_subgroup(global int *o) { o[get_global_id(0)] = get_sub_group_size(); }\n"
      "kernel void no_builtin(global int *o) {\n"
      "   o[get_global_id(0)] = __builtin_amdgcn_workitem_id_x(); }\n"
      "kernel __attribute__((reqd_work_group_size(1, 1, 1)))\n"
      "void no_reqd(global int *o) { o[get_global_id(0)] = 1; }\n";
   static const char *const free_names[] = { "free_plain", "free_helper" };
   struct comp_output out;
   CHECK(build(src, "-cl-std=CL2.0", "gfx906", COMP_EMIT_EXECUTABLE, &out) == COMP_OK);
   CHECK(out.info && out.info->num_kernels == 15);
   for (uint32_t i = 0; out.info && i < out.info->num_kernels; i++) {
      const struct comp_kernel *k = &out.info->kernels[i];
      bool want = !strcmp(k->name, free_names[0]) || !strcmp(k->name, free_names[1]);
      CHECK_MSG(k->work_group_free == want, "%s: work_group_free %d", k->name,
                k->work_group_free);
   }
   comp_output_finish(&out);
   /* Local memory anywhere in the program: none is free. */
   CHECK(build("kernel void a(global int *o) { o[get_global_id(0)] = 1; }\n"
               "kernel void b(global int *o) { local int t; t = o[0]; o[1] = t; }\n",
               NULL, "gfx906", COMP_EMIT_EXECUTABLE, &out) == COMP_OK);
   for (uint32_t i = 0; out.info && i < out.info->num_kernels; i++)
      CHECK_MSG(!out.info->kernels[i].work_group_free, "%s", out.info->kernels[i].name);
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

/* ---- hand-written metadata notes ---- */

/* MessagePack written by hand, into a fixed buffer (the cases are small). */
struct mp {
   unsigned char b[4096];
   size_t n;
};

static void
mp_raw(struct mp *m, const void *p, size_t n)
{
   if (m->n + n <= sizeof(m->b))
      memcpy(m->b + m->n, p, n);
   m->n += n;
}

static void
mp_byte(struct mp *m, unsigned v)
{
   unsigned char c = (unsigned char)v;
   mp_raw(m, &c, 1);
}

static void
mp_str(struct mp *m, const char *s)
{
   size_t n = strlen(s);
   if (n < 32) {
      mp_byte(m, 0xa0 | (unsigned)n);
   } else {
      mp_byte(m, 0xd9);
      mp_byte(m, (unsigned)n);
   }
   mp_raw(m, s, n);
}

static void
mp_uint(struct mp *m, uint64_t v)
{
   if (v < 128) {
      mp_byte(m, (unsigned)v);
      return;
   }
   mp_byte(m, 0xcf);
   for (int i = 7; i >= 0; i--)
      mp_byte(m, (unsigned)(v >> (8 * i)));
}

/* The start of a kernel map "k": every required key, and room for `extra` pairs more,
 * which the caller writes (mp_args is one). */
static void
mp_kernel(struct mp *m, unsigned extra)
{
   mp_byte(m, 0x80 | (10 + extra));
   mp_str(m, ".name");
   mp_str(m, "k");
   mp_str(m, ".symbol");
   mp_str(m, "k.kd");
   mp_str(m, ".kernarg_segment_size");
   mp_uint(m, 16);
   mp_str(m, ".kernarg_segment_align");
   mp_uint(m, 8);
   mp_str(m, ".group_segment_fixed_size");
   mp_uint(m, 0);
   mp_str(m, ".private_segment_fixed_size");
   mp_uint(m, 0);
   mp_str(m, ".wavefront_size");
   mp_uint(m, 64);
   mp_str(m, ".sgpr_count");
   mp_uint(m, 8);
   mp_str(m, ".vgpr_count");
   mp_uint(m, 4);
   mp_str(m, ".max_flat_workgroup_size");
   mp_uint(m, 256);
}

/* The ".args" pair of a kernel; its `count` arguments follow (mp_arg). */
static void
mp_args(struct mp *m, unsigned count)
{
   mp_str(m, ".args");
   mp_byte(m, 0x90 | count);
}

static void
mp_arg(struct mp *m, const char *kind, unsigned offset, unsigned size)
{
   mp_byte(m, 0x83);
   mp_str(m, ".offset");
   mp_uint(m, offset);
   mp_str(m, ".size");
   mp_uint(m, size);
   mp_str(m, ".value_kind");
   mp_str(m, kind);
}

/* The root map's start: {"amdhsa.kernels": [<kernels>] ...} with `extra` more pairs,
 * the kernels and the pairs written by the caller. */
static void
mp_root(struct mp *m, unsigned kernels, unsigned extra)
{
   mp_byte(m, 0x81 + extra);
   mp_str(m, "amdhsa.kernels");
   mp_byte(m, 0x90 | kernels);
}

/* A gfx906 code object whose one PT_NOTE segment holds the AMDGPU note `desc`
 * (`align`: the segment's p_align). *size its size; free() it. */
static unsigned char *
note_object(const void *desc, size_t desc_size, uint64_t align, size_t *size)
{
   const size_t off = sizeof(Elf64_Ehdr) + sizeof(Elf64_Phdr);
   size_t note = sizeof(Elf64_Nhdr) + 8 + ((desc_size + 3) & ~(size_t)3);
   unsigned char *b = calloc(1, off + note);
   Elf64_Ehdr eh = { .e_type = ET_DYN,
                     .e_machine = EM_AMDGPU,
                     .e_version = EV_CURRENT,
                     .e_phoff = sizeof(Elf64_Ehdr),
                     .e_ehsize = sizeof(Elf64_Ehdr),
                     .e_phentsize = sizeof(Elf64_Phdr),
                     .e_phnum = 1 };
   Elf64_Phdr ph = { .p_type = PT_NOTE, .p_offset = off, .p_filesz = note, .p_align = align };
   Elf64_Nhdr nh = { .n_namesz = 7, .n_descsz = (Elf64_Word)desc_size, .n_type = 32 };
   memcpy(eh.e_ident, ELFMAG, SELFMAG);
   eh.e_ident[EI_CLASS] = ELFCLASS64;
   eh.e_ident[EI_DATA] = ELFDATA2LSB;
   memcpy(b, &eh, sizeof(eh));
   memcpy(b + sizeof(eh), &ph, sizeof(ph));
   memcpy(b + off, &nh, sizeof(nh));
   memcpy(b + off + sizeof(nh), "AMDGPU", 7);
   memcpy(b + off + sizeof(nh) + 8, desc, desc_size);
   *size = off + note;
   return b;
}

/* Parses `obj` and checks the outcome: COMP_OK for want == NULL, else COMP_INVALID_BINARY
 * with exactly the reason `want`. The record on success, else NULL. */
static struct comp_program_info *
expect_parse(const void *obj, size_t size, const char *want, const char *what)
{
   struct comp_program_info *info = NULL;
   char *err = NULL;
   enum comp_status st = comp_parse_metadata(obj, size, &info, &err);
   if (!want)
      CHECK_MSG(st == COMP_OK && info && !err, "%s: %s", what, err ? err : "?");
   else
      CHECK_MSG(st == COMP_INVALID_BINARY && !info && err && !strcmp(err, want),
                "%s: got \"%s\", want \"%s\"", what, err ? err : "(none)", want);
   free(err);
   return info;
}

static void
expect_note(const struct mp *m, const char *want, const char *what)
{
   size_t size;
   unsigned char *obj = note_object(m->b, m->n, 4, &size);
   comp_program_info_destroy(expect_parse(obj, size, want, what));
   free(obj);
}

/* The note reader's checks, each with its reason, on notes written by hand: the MessagePack
 * grammar before msgpack-c allocates, what the document may not hold, the mapping's type
 * and range checks, the note walk. */
static void
test_metadata_errors(void)
{
   struct mp m = { .n = 0 };

   /* A valid note, every kind of field. */
   mp_root(&m, 1, 2);
   mp_kernel(&m, 4);
   mp_str(&m, ".kind");
   mp_str(&m, "init");
   mp_str(&m, ".uniform_work_group_size");
   mp_uint(&m, 1);
   mp_str(&m, ".reqd_workgroup_size");
   mp_byte(&m, 0x93);
   mp_uint(&m, 4);
   mp_uint(&m, 2);
   mp_byte(&m, 0xd0); /* int8 1: a signed encoding of a non-negative value */
   mp_byte(&m, 1);
   mp_args(&m, 3);
   mp_arg(&m, "global_buffer", 0, 8);
   mp_arg(&m, "by_value", 8, 2);
   mp_arg(&m, "hidden_global_offset_x", 12, 4);
   mp_str(&m, "amdhsa.version");
   mp_byte(&m, 0x92);
   mp_uint(&m, 1);
   mp_uint(&m, 2);
   mp_str(&m, "amdhsa.printf");
   mp_byte(&m, 0x91);
   mp_str(&m, "7:2:4:8:a\\72b %d\\n\\q");
   size_t size;
   unsigned char *obj = note_object(m.b, m.n, 4, &size);
   struct comp_program_info *info = expect_parse(obj, size, NULL, "valid note");
   if (info) {
      CHECK(info->version[0] == 1 && info->version[1] == 2 && !info->target);
      CHECK(info->num_kernels == 1 && info->num_printfs == 1);
      const struct comp_kernel *k = &info->kernels[0];
      CHECK(!strcmp(k->name, "k") && !strcmp(k->symbol, "k.kd") && !k->language);
      CHECK(k->kind == COMP_KERNEL_INIT && k->uniform_work_group_size);
      CHECK(k->reqd_work_group_size[0] == 4 && k->reqd_work_group_size[2] == 1);
      CHECK(k->kernarg_segment_size == 16 && k->kernarg_segment_align == 8);
      CHECK(k->num_args == 3 && k->num_explicit_args == 2);
      CHECK(k->args[0].kind == COMP_ARG_GLOBAL_BUFFER && k->args[0].align == 8);
      CHECK(k->args[1].kind == COMP_ARG_BY_VALUE && k->args[1].align == 2);
      CHECK(k->args[2].kind == COMP_ARG_HIDDEN_GLOBAL_OFFSET_X && !k->args[2].name);
      const struct comp_printf_info *pf = &info->printfs[0];
      CHECK(pf->id == 7 && pf->num_args == 2 && pf->arg_sizes[1] == 8);
      CHECK(!strcmp(pf->format, "a:b %d\n\\q"));
   }
   comp_program_info_destroy(info);
   free(obj);

   /* The grammar (mp_validate), with the reasons of LLVM's reader. */
   m.n = 0;
   expect_note(&m, "NT_AMDGPU_METADATA: empty metadata", "empty");
   m.n = 0;
   mp_byte(&m, 0xc1);
   expect_note(&m, "NT_AMDGPU_METADATA: Invalid first byte", "0xc1");
   m.n = 0;
   mp_byte(&m, 0xd9);
   mp_byte(&m, 16);
   mp_raw(&m, "abc", 3);
   expect_note(&m, "NT_AMDGPU_METADATA: Invalid Raw with insufficient payload", "short str8");
   m.n = 0;
   mp_root(&m, 0, 0);
   mp_uint(&m, 1);
   expect_note(&m, "NT_AMDGPU_METADATA: trailing data after the metadata map", "trailing");
   m.n = 0;
   mp_root(&m, 2, 0);
   mp_uint(&m, 1);
   expect_note(&m, "NT_AMDGPU_METADATA: truncated MessagePack container", "truncated");
   m.n = 0;
   mp_byte(&m, 0x81);
   mp_byte(&m, 0xc4); /* bin8: no string */
   mp_byte(&m, 1);
   mp_byte(&m, 'x');
   mp_uint(&m, 1);
   expect_note(&m, "NT_AMDGPU_METADATA: map key is not a string", "binary key");
   /* A count larger than the note: refused before msgpack-c sizes an allocation by it. */
   m.n = 0;
   mp_byte(&m, 0x81);
   mp_str(&m, "amdhsa.kernels");
   mp_byte(&m, 0xdd);
   mp_raw(&m, "\xff\xff\xff\xff", 4);
   expect_note(&m, "NT_AMDGPU_METADATA: container longer than the note", "huge count");
   /* 32 nested containers, the innermost empty, is msgpack-c's limit. */
   for (unsigned depth = 31; depth <= 32; depth++) {
      m.n = 0;
      mp_byte(&m, 0x82);
      mp_str(&m, "amdhsa.kernels");
      mp_byte(&m, 0x90);
      mp_str(&m, "x");
      for (unsigned i = 0; i < depth - 1; i++)
         mp_byte(&m, 0x91);
      mp_byte(&m, 0x90);
      expect_note(&m, depth == 31 ? NULL : "NT_AMDGPU_METADATA: nesting too deep", "nesting");
   }

   /* What the document may not hold: a key twice in a map, an extension object. */
   m.n = 0;
   mp_root(&m, 1, 0);
   mp_kernel(&m, 2);
   mp_str(&m, ".language");
   mp_str(&m, "OpenCL C");
   mp_str(&m, ".language");
   mp_str(&m, "OpenCL C");
   expect_note(&m, "NT_AMDGPU_METADATA is not valid MessagePack", "duplicate key");
   m.n = 0;
   mp_root(&m, 0, 1);
   mp_str(&m, "x");
   mp_raw(&m, "\xd4\x01\x02", 3); /* fixext1 */
   expect_note(&m, "NT_AMDGPU_METADATA is not valid MessagePack", "extension");

   /* The mapping. */
   m.n = 0;
   mp_root(&m, 1, 0);
   mp_kernel(&m, 1);
   mp_str(&m, ".agpr_count");
   mp_uint(&m, UINT64_C(1) << 32);
   expect_note(&m, "kernel 0 (k): .agpr_count is out of range", "out of range");
   m.n = 0;
   mp_root(&m, 1, 0);
   mp_kernel(&m, 1);
   mp_str(&m, ".uses_dynamic_stack");
   mp_byte(&m, 0xff); /* -1 */
   expect_note(&m, "kernel 0 (k): .uses_dynamic_stack is not a non-negative integer", "negative");
   m.n = 0;
   mp_root(&m, 1, 0);
   mp_byte(&m, 0x81);
   mp_str(&m, ".name");
   mp_str(&m, "k");
   expect_note(&m, "kernel 0 (k): required key .symbol is missing", "missing key");
   m.n = 0;
   mp_root(&m, 1, 0);
   mp_kernel(&m, 1);
   mp_args(&m, 2);
   mp_arg(&m, "hidden_none", 0, 8);
   mp_arg(&m, "by_value", 8, 4);
   expect_note(&m, "kernel 0 (k): explicit argument after a hidden one", "order");
   m.n = 0;
   mp_root(&m, 1, 0);
   mp_kernel(&m, 1);
   mp_args(&m, 1);
   mp_arg(&m, "by_value", 12, 8);
   expect_note(&m, "kernel 0 (k) argument 0 lies outside the kernarg segment", "outside");
   m.n = 0;
   mp_root(&m, 1, 0);
   mp_kernel(&m, 1);
   mp_args(&m, 1);
   mp_arg(&m, "image2d", 0, 8);
   expect_note(&m, "kernel 0 (k) argument 0: unknown .value_kind \"image2d\"", "kind");
   m.n = 0;
   mp_root(&m, 0, 1);
   mp_str(&m, "amdhsa.printf");
   mp_byte(&m, 0x91);
   mp_str(&m, "1:4294967296:");
   expect_note(&m, "amdhsa.printf: malformed argument count", "printf count");

   /* The note walk. */
   m.n = 0;
   mp_root(&m, 0, 0);
   obj = note_object(m.b, m.n, 2, &size);
   comp_program_info_destroy(expect_parse(obj, size, "alignment (2) is not 4 or 8", "align"));
   ((Elf64_Nhdr *)(obj + sizeof(Elf64_Ehdr) + sizeof(Elf64_Phdr)))->n_descsz = 64;
   ((Elf64_Phdr *)(obj + sizeof(Elf64_Ehdr)))->p_align = 4;
   comp_program_info_destroy(expect_parse(obj, size, "ELF note overflows container", "size"));
   ((Elf64_Ehdr *)obj)->e_machine = EM_X86_64;
   comp_program_info_destroy(expect_parse(obj, size, "not an AMDGPU object", "machine"));
   free(obj);

   /* Section 0 is outside comp_elf_layout_check's loop: a note section there whose offset
    * wraps around is refused, not read. */
   unsigned char rel[sizeof(Elf64_Ehdr) + sizeof(Elf64_Shdr)] = { 0 };
   Elf64_Ehdr eh = { .e_type = ET_REL,
                     .e_machine = EM_AMDGPU,
                     .e_shoff = sizeof(eh),
                     .e_shentsize = sizeof(Elf64_Shdr),
                     .e_shnum = 1 };
   Elf64_Shdr sh0 = { .sh_type = SHT_NOTE, .sh_offset = UINT64_MAX - 15, .sh_size = 32 };
   memcpy(rel, &eh, sizeof(eh));
   memcpy(rel + sizeof(eh), &sh0, sizeof(sh0));
   comp_program_info_destroy(expect_parse(
      rel, sizeof(rel), "invalid offset (0xfffffffffffffff0) or size (0x20)", "section 0"));
   sh0.sh_type = SHT_PROGBITS;
   memcpy(rel + sizeof(eh), &sh0, sizeof(sh0));
   comp_program_info_destroy(
      expect_parse(rel, sizeof(rel), "no NT_AMDGPU_METADATA note", "no note"));
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
   /* The engine's build ID (this binary links it): a rebuilt engine changes every key. */
   CHECK(strstr(id, " build ") && !strstr(id, " build none "));

   test_diagnostics();
   test_option_and_target_errors();
   test_emit_kinds();
   test_work_group_free();
   test_control_constants();
   test_headers_defines_extensions();
   test_printf();
   test_malformed_metadata();
   test_metadata_errors();
   test_concurrent();

   return comp_test_end("comp_test_build");
}
