/*
 * comp_test_select — the instructions the built-ins of cl_ext_float_atomics and
 * cl_khr_kernel_clock become on every target of the capability table, in the assembly
 * (hsacl's software GPU is a gfx906: the other targets cannot run here):
 *   - each float atomic (float and double; add, min, max; global and local) is one
 *     instruction exactly where plat_gpu_info.fp{32,64}_atomic_native says so (every target
 *     of the table), a compare-and-swap loop elsewhere, and half min and max always a loop;
 *     sub is the add's instruction;
 *   - clock_read_device is the real-time counter (S_MEMREALTIME, S_SENDMSG_RTN_B64
 *     MSG_RTN_GET_REALTIME on gfx11 and gfx12); clock_read_work_group and _sub_group are
 *     S_MEMTIME on gfx9 and gfx10 and the real-time counter on gfx11 and gfx12
 *     (compiler/comp_builtins_clock.cl says why).
 */
#include "comp_test.h"
#include "platform/plat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What platform/plat_extensions.def gives every device, as far as these built-ins need. */
static const char *const extensions[] = {
   "cl_khr_fp16",
   "cl_khr_fp64",
   "cl_khr_int64_base_atomics",
   "cl_khr_int64_extended_atomics",
   "cl_ext_float_atomics",
   "cl_khr_kernel_clock",
   NULL,
};
static const char *const features[] = {
   "__opencl_c_fp64",
   "__opencl_c_fp16",
   "__opencl_c_int64",
   "__opencl_c_generic_address_space",
   "__opencl_c_atomic_order_seq_cst",
   "__opencl_c_atomic_scope_device",
   /* clang-19 finds the half min and max ambiguous without the load_store features. */
   "__opencl_c_ext_fp16_global_atomic_load_store",
   "__opencl_c_ext_fp16_local_atomic_load_store",
   "__opencl_c_ext_fp16_global_atomic_min_max",
   "__opencl_c_ext_fp16_local_atomic_min_max",
   "__opencl_c_ext_fp32_global_atomic_add",
   "__opencl_c_ext_fp32_local_atomic_add",
   "__opencl_c_ext_fp32_global_atomic_min_max",
   "__opencl_c_ext_fp32_local_atomic_min_max",
   "__opencl_c_ext_fp64_global_atomic_add",
   "__opencl_c_ext_fp64_local_atomic_add",
   "__opencl_c_ext_fp64_global_atomic_min_max",
   "__opencl_c_ext_fp64_local_atomic_min_max",
   "__opencl_c_kernel_clock_scope_device",
   "__opencl_c_kernel_clock_scope_work_group",
   "__opencl_c_kernel_clock_scope_sub_group",
   NULL,
};

static const char *const targets[] = { "gfx900", "gfx906",  "gfx908",  "gfx90a",
                                       "gfx942", "gfx1030", "gfx1100", "gfx1201" };

/* One kernel per (type, operation, memory): a_<type>_<op>_<g|l>. */
static const char atomics_source[] =
   "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
   "#define G(T, OP) kernel void a_##T##_##OP##_g(volatile global atomic_##T *p, T v,      \\\n"
   "                                             global T *o)                           \\\n"
   "   { *o = atomic_fetch_##OP##_explicit(p, v, memory_order_relaxed); }\n"
   "#define L(T, OP) kernel void a_##T##_##OP##_l(T v, global T *o)                     \\\n"
   "   {                                                                                  \\\n"
   "      local atomic_##T x;                                                             \\\n"
   "      *o = atomic_fetch_##OP##_explicit(&x, v, memory_order_relaxed,                  \\\n"
   "                                        memory_scope_work_group);                     \\\n"
   "   }\n"
   "#define MM(T) G(T, min) G(T, max) L(T, min) L(T, max)\n"
   "#define ALL(T) MM(T) G(T, add) G(T, sub) L(T, add) L(T, sub)\n"
   "MM(half) ALL(float) ALL(double)\n";

static enum comp_status
build(const char *src, const char *target, struct comp_output *out)
{
   return comp_test_build(src,
                          (struct comp_build_desc){ .source_name = "select.cl",
                                                    .options = "-cl-std=CL3.0",
                                                    .target_id = target,
                                                    .extensions = extensions,
                                                    .features = features,
                                                    .emit = COMP_EMIT_ASM },
                          out);
}

/* The assembly of function `name` (from its label to its end marker), or NULL. Returns a
 * copy the caller frees. */
static char *
function_text(const char *text, const char *name)
{
   char label[96];
   snprintf(label, sizeof(label), "\n%s:", name);
   const char *start = text ? strstr(text, label) : NULL;
   if (!start)
      return NULL;
   const char *end = strstr(start, "\n.Lfunc_end");
   size_t n = end ? (size_t)(end - start) : strlen(start);
   char *s = malloc(n + 1);
   if (s) {
      memcpy(s, start, n);
      s[n] = '\0';
   }
   return s;
}

/* The instruction of each native operation, as LLVM 19 prints it (gfx12 spells the LDS min
 * and max with _num_). */
static bool
native_in(const char *body)
{
   static const char *const insns[] = { "ds_add_rtn_f32",        "ds_add_rtn_f64",
                                        "ds_min_rtn_f",          "ds_max_rtn_f",
                                        "ds_min_num_rtn_f",      "ds_max_num_rtn_f",
                                        "global_atomic_add_f32", "global_atomic_add_f64" };
   for (size_t i = 0; i < sizeof(insns) / sizeof(insns[0]); i++)
      if (strstr(body, insns[i]))
         return true;
   return false;
}

static bool
loop_in(const char *body)
{
   return strstr(body, "cmpswap") || strstr(body, "ds_cmpst");
}

static void
test_float_atomics(void)
{
   static const char *const types[] = { "half", "float", "double" };
   static const struct {
      const char *op;
      cl_bitfield global, local;
   } ops[] = {
      { "add", CL_DEVICE_GLOBAL_FP_ATOMIC_ADD_EXT, CL_DEVICE_LOCAL_FP_ATOMIC_ADD_EXT },
      { "sub", CL_DEVICE_GLOBAL_FP_ATOMIC_ADD_EXT, CL_DEVICE_LOCAL_FP_ATOMIC_ADD_EXT },
      { "min", CL_DEVICE_GLOBAL_FP_ATOMIC_MIN_MAX_EXT, CL_DEVICE_LOCAL_FP_ATOMIC_MIN_MAX_EXT },
      { "max", CL_DEVICE_GLOBAL_FP_ATOMIC_MIN_MAX_EXT, CL_DEVICE_LOCAL_FP_ATOMIC_MIN_MAX_EXT },
   };
   /* Every target of the capability table. */
   for (size_t t = 0; plat_gpu_info_target_at(t); t++) {
      const char *target = plat_gpu_info_target_at(t);
      plat_gpu_info info;
      CHECK_MSG(plat_gpu_info_from_target(target, &info) == CL_SUCCESS, "%s", target);
      struct comp_output out;
      enum comp_status st = build(atomics_source, target, &out);
      CHECK_MSG(st == COMP_OK, "%s: %s\n%s", target, comp_status_name(st), out.log ? out.log : "");
      for (int ty = 0; ty < 3 && st == COMP_OK; ty++)
         for (size_t o = 0; o < sizeof(ops) / sizeof(ops[0]); o++)
            for (int m = 0; m < 2; m++) {
               if (ty == 0 && o < 2)
                  continue; /* no half add (platform/plat_extensions.def) */
               char name[64];
               snprintf(name, sizeof(name), "a_%s_%s_%c", types[ty], ops[o].op, m ? 'l' : 'g');
               char *body = function_text(out.data, name);
               CHECK_MSG(body != NULL, "%s: no function %s", target, name);
               if (!body)
                  continue;
               cl_bitfield native = ty == 0   ? 0
                                    : ty == 1 ? info.fp32_atomic_native
                                              : info.fp64_atomic_native;
               bool want = native & (m ? ops[o].local : ops[o].global);
               bool is_native = native_in(body) && !loop_in(body);
               CHECK_MSG(is_native == want, "%s %s: %s, the table says %s", target, name,
                         is_native ? "one instruction" : "a loop",
                         want ? "one instruction" : "a loop");
               CHECK_MSG(is_native || loop_in(body), "%s %s: neither instruction nor loop", target,
                         name);
               free(body);
            }
      comp_output_finish(&out);
   }
}

static void
test_clocks(void)
{
   static const char src[] =
      "kernel void c_device(global ulong *o) { *o = clock_read_device(); }\n"
      "kernel void c_work_group(global ulong *o) { *o = clock_read_work_group(); }\n"
      "kernel void c_sub_group(global ulong *o) { *o = clock_read_sub_group(); }\n"
      "kernel void c_hilo(global uint2 *o) { *o = clock_read_hilo_sub_group(); }\n";
   for (size_t t = 0; t < sizeof(targets) / sizeof(targets[0]); t++) {
      plat_gpu_info info;
      CHECK_MSG(plat_gpu_info_from_target(targets[t], &info) == CL_SUCCESS, "%s", targets[t]);
      const char *realtime =
         info.gfx_major >= 11 ? "sendmsg(MSG_RTN_GET_REALTIME)" : "s_memrealtime";
      const char *shader_engine = info.gfx_major >= 11 ? realtime : "s_memtime";
      struct comp_output out;
      enum comp_status st = build(src, targets[t], &out);
      CHECK_MSG(st == COMP_OK, "%s: %s\n%s", targets[t], comp_status_name(st),
                out.log ? out.log : "");
      static const char *const kernels[] = { "c_device", "c_work_group", "c_sub_group", "c_hilo" };
      for (int k = 0; k < 4 && st == COMP_OK; k++) {
         char *body = function_text(out.data, kernels[k]);
         const char *want = k == 0 ? realtime : shader_engine;
         CHECK_MSG(body && strstr(body, want), "%s %s: no %s", targets[t], kernels[k], want);
         /* The device clock is never a shader engine's. */
         if (body && k == 0)
            CHECK_MSG(!strstr(body, "s_memtime"), "%s: device clock reads s_memtime", targets[t]);
         free(body);
      }
      comp_output_finish(&out);
   }
}

int
main(void)
{
   test_float_atomics();
   test_clocks();
   return comp_test_end("comp_test_select");
}
