/*
 * comp_test_devlib — device-library functions a processor cannot run (issue #25):
 *   - a kernel reaching one is a build error naming the kernel, the function, the missing
 *     feature and the processor, at every optimisation level, never an empty kernel;
 *   - the same sources build on the processors that have the feature (no false alarm);
 *   - the 8-bit dot products use V_DOT4_I32_IU8 on gfx11 and gfx12 and the real-time counter
 *     S_SENDMSG_RTN_B64 there, the gfx9 instructions elsewhere.
 * Instruction selection is checked in the assembly: hsacl's software GPU is a gfx906, so the
 * results on gfx11 and gfx12 cannot be run here (tests/api_khr31_test.c runs them on gfx906).
 */
#include "comp_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const dot_extensions[] = { "cl_khr_integer_dot_product",
                                              "__opencl_c_integer_dot_product_input_4x8bit",
                                              "__opencl_c_integer_dot_product_input_4x8bit_packed",
                                              NULL };

static enum comp_status
build(const char *src, const char *opts, const char *target, enum comp_emit emit,
      struct comp_output *out)
{
   return comp_test_build(src,
                          (struct comp_build_desc){ .source_name = "devlib.cl",
                                                    .options = opts,
                                                    .target_id = target,
                                                    .extensions = dot_extensions,
                                                    .emit = emit },
                          out);
}

/* Functions of ockl that need an instruction gfx11 and gfx12 lack, called directly. */
static const struct {
   const char *name, *feature, *source;
} missing[] = {
   { "__ockl_sdot4", "dot1-insts",
     "int __ockl_sdot4(char4 a, char4 b, int c, bool s);\n"
     "kernel void k(global int *o, char4 a, char4 b) { *o = __ockl_sdot4(a, b, 1, false); }\n" },
   { "__ockl_memtime_u64", "s-memtime-inst",
     "ulong __ockl_memtime_u64(void);\n"
     "kernel void k(global ulong *o) { *o = __ockl_memtime_u64(); }\n" },
};

static void
test_dropped_is_an_error(void)
{
   static const char *const targets[] = { "gfx1100", "gfx1201" };
   static const char *const levels[] = { "", "-cl-opt-disable" };
   for (size_t i = 0; i < sizeof(missing) / sizeof(missing[0]); i++)
      for (size_t t = 0; t < 2; t++)
         for (size_t l = 0; l < 2; l++) {
            struct comp_output out;
            enum comp_status st =
               build(missing[i].source, levels[l], targets[t], COMP_EMIT_EXECUTABLE, &out);
            const char *log = out.log ? out.log : "";
            CHECK_MSG(st == COMP_BUILD_FAILURE, "%s on %s [%s]: %s", missing[i].name, targets[t],
                      levels[l], comp_status_name(st));
            char want[256];
            snprintf(want, sizeof(want), "error: kernel 'k' calls device-library function '%s",
                     missing[i].name);
            CHECK_MSG(strstr(log, want), "%s on %s [%s]: log:\n%s", missing[i].name, targets[t],
                      levels[l], log);
            snprintf(want, sizeof(want), "needs target feature '%s' that %s does not have",
                     missing[i].feature, targets[t]);
            CHECK_MSG(strstr(log, want), "%s on %s [%s]: log:\n%s", missing[i].name, targets[t],
                      levels[l], log);
            comp_output_finish(&out);
         }
}

static void
test_no_false_alarm(void)
{
   static const char *const targets[] = { "gfx906", "gfx90a", "gfx1030" };
   for (size_t i = 0; i < sizeof(missing) / sizeof(missing[0]); i++)
      for (size_t t = 0; t < 3; t++) {
         struct comp_output out;
         enum comp_status st = build(missing[i].source, NULL, targets[t], COMP_EMIT_ASM, &out);
         CHECK_MSG(st == COMP_OK, "%s on %s: %s\n%s", missing[i].name, targets[t],
                   comp_status_name(st), out.log ? out.log : "");
         CHECK_MSG(comp_test_count(out.data, "s_endpgm") == 1 &&
                      comp_test_count(out.data, "global_store") == 1,
                   "%s on %s: no store", missing[i].name, targets[t]);
         comp_output_finish(&out);
      }
}

/* Every form of cl_khr_integer_dot_product's 4x8-bit dot products. */
static const char dot_source[] =
   "kernel void k(global int *o, global uint *u, char4 a, char4 b, uchar4 c, uchar4 d, int x)\n"
   "{\n"
   "   o[0] = dot(a, b);\n"
   "   o[1] = dot(a, c);\n"
   "   o[2] = dot(c, a);\n"
   "   o[3] = dot_acc_sat(a, b, x);\n"
   "   o[4] = dot_acc_sat(a, c, x);\n"
   "   o[5] = dot_acc_sat(c, a, x);\n"
   "   u[0] = dot(c, d);\n"
   "   u[1] = dot_acc_sat(c, d, (uint)x);\n"
   "}\n";

static void
test_dot_products(void)
{
   static const char *const levels[] = { "-cl-std=CL3.0", "-cl-std=CL3.0 -cl-opt-disable" };
   for (size_t l = 0; l < 2; l++) {
      static const char *const new_targets[] = { "gfx1100", "gfx1201" };
      for (size_t t = 0; t < 2; t++) {
         struct comp_output out;
         enum comp_status st = build(dot_source, levels[l], new_targets[t], COMP_EMIT_ASM, &out);
         CHECK_MSG(st == COMP_OK, "%s [%s]: %s\n%s", new_targets[t], levels[l],
                   comp_status_name(st), out.log ? out.log : "");
         /* Signed x signed: both NEG_LO bits; mixed: the signed input's only (dot(a, c) and
          * dot(c, a) are one computation, and one helper at -cl-opt-disable); the clamp for
          * the saturating forms. */
         CHECK_MSG(comp_test_count(out.data, "v_dot4_i32_iu8") == 4, "%s [%s]: %u v_dot4_i32_iu8",
                   new_targets[t], levels[l], comp_test_count(out.data, "v_dot4_i32_iu8"));
         CHECK_MSG(comp_test_count(out.data, "neg_lo:[1,1,0]") == 2 &&
                      comp_test_count(out.data, "neg_lo:[1,0,0]") == 2 &&
                      comp_test_count(out.data, "neg_lo:[1,1,0] clamp") == 1 &&
                      comp_test_count(out.data, "neg_lo:[1,0,0] clamp") == 1,
                   "%s [%s]: signedness modifiers", new_targets[t], levels[l]);
         CHECK_MSG(comp_test_count(out.data, "v_dot4_u32_u8") == 2, "%s [%s]", new_targets[t],
                   levels[l]);
         CHECK_MSG(comp_test_count(out.data, "global_store") > 0, "%s [%s]: no store",
                   new_targets[t], levels[l]);
         comp_output_finish(&out);
      }
   }
   /* gfx906: V_DOT4_I32_I8 through ockl, the mixed forms in plain code. */
   struct comp_output out;
   enum comp_status st = build(dot_source, levels[0], "gfx906", COMP_EMIT_ASM, &out);
   CHECK_MSG(st == COMP_OK, "gfx906: %s\n%s", comp_status_name(st), out.log ? out.log : "");
   CHECK_MSG(comp_test_count(out.data, "v_dot4_i32_i8") == 2 &&
                comp_test_count(out.data, "v_dot4_u32_u8") == 2 &&
                !comp_test_count(out.data, "iu8"),
             "gfx906 dot instructions");
   comp_output_finish(&out);
   /* gfx90c and gfx1013 have no dot instructions, though ROCm 5.2's __ockl_sdot4 picks its
    * V_DOT4_I32_I8 helper for them: every form builds, in plain code. */
   static const char *const plain_targets[] = { "gfx90c", "gfx1013" };
   for (size_t l = 0; l < 2; l++)
      for (size_t t = 0; t < 2; t++) {
         st = build(dot_source, levels[l], plain_targets[t], COMP_EMIT_ASM, &out);
         CHECK_MSG(st == COMP_OK, "%s [%s]: %s\n%s", plain_targets[t], levels[l],
                   comp_status_name(st), out.log ? out.log : "");
         CHECK_MSG(!comp_test_count(out.data, "v_dot") &&
                      comp_test_count(out.data, "global_store") > 0,
                   "%s [%s]: dot instructions or no store", plain_targets[t], levels[l]);
         comp_output_finish(&out);
      }
}

static void
test_realtime(void)
{
   static const char src[] = "ulong __ockl_memrealtime_u64(void);\n"
                             "kernel void k(global ulong *o) { *o = __ockl_memrealtime_u64(); }\n";
   static const struct {
      const char *target, *insn;
   } cases[] = {
      { "gfx906", "s_memrealtime" },
      { "gfx1030", "s_memrealtime" },
      { "gfx1100", "sendmsg(MSG_RTN_GET_REALTIME)" },
      { "gfx1201", "sendmsg(MSG_RTN_GET_REALTIME)" },
   };
   for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
      struct comp_output out;
      enum comp_status st = build(src, NULL, cases[i].target, COMP_EMIT_ASM, &out);
      CHECK_MSG(st == COMP_OK, "%s: %s\n%s", cases[i].target, comp_status_name(st),
                out.log ? out.log : "");
      CHECK_MSG(comp_test_count(out.data, cases[i].insn) == 1 &&
                   comp_test_count(out.data, "global_store") == 1,
                "%s: no %s", cases[i].target, cases[i].insn);
      comp_output_finish(&out);
   }
}

/* Device-side enqueue stamps each child's queued time with the real-time counter
 * (comp_builtins_enqueue.cl): on gfx11 and gfx12 the parent used to lose the call. */
static void
test_enqueue_profiling(void)
{
   static const char src[] =
      "kernel void child(global int *o) { o[get_global_id(0)] = 1; }\n"
      "kernel void parent(global int *o)\n"
      "{\n"
      "   enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(16),\n"
      "                  ^{ child(o); });\n"
      "}\n";
   static const char *const targets[] = { "gfx1100", "gfx1201" };
   for (size_t t = 0; t < 2; t++) {
      struct comp_output out;
      enum comp_status st = build(src, "-cl-std=CL2.0", targets[t], COMP_EMIT_ASM, &out);
      CHECK_MSG(st == COMP_OK, "%s: %s\n%s", targets[t], comp_status_name(st),
                out.log ? out.log : "");
      CHECK_MSG(comp_test_count(out.data, "sendmsg(MSG_RTN_GET_REALTIME)") >= 1,
                "%s: no real-time counter", targets[t]);
      comp_output_finish(&out);
   }
}

int
main(void)
{
   test_dropped_is_an_error();
   test_no_false_alarm();
   test_dot_products();
   test_realtime();
   test_enqueue_profiling();
   return comp_test_end("comp_test_devlib");
}
