/*
 * comp_test_devlib — device-library functions a processor cannot run (issue #25):
 *   - a kernel reaching one is a build error naming the kernel, the function, the missing
 *     feature and the processor, at every optimisation level, never an empty kernel;
 *   - the same sources build on the processors that have the feature (no false alarm).
 */
#include "comp_priv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

#define CHECK(cond, ...)                                                                     \
   do {                                                                                      \
      if (!(cond)) {                                                                         \
         fprintf(stderr, "%s:%d: FAIL: %s: ", __FILE__, __LINE__, #cond);                    \
         fprintf(stderr, __VA_ARGS__);                                                       \
         fputc('\n', stderr);                                                                \
         failures++;                                                                         \
      }                                                                                      \
   } while (0)

static const char *const dot_extensions[] = {
   "cl_khr_integer_dot_product", "__opencl_c_integer_dot_product_input_4x8bit",
   "__opencl_c_integer_dot_product_input_4x8bit_packed", NULL
};

static enum comp_status
build(const char *src, const char *opts, const char *target, enum comp_emit emit,
      struct comp_output *out)
{
   struct comp_build_desc d = {
      .source = src,
      .source_size = strlen(src),
      .source_name = "devlib.cl",
      .options = opts,
      .target_id = target,
      .extensions = dot_extensions,
      .emit = emit,
   };
   return comp_build(&d, out);
}

static unsigned
count(const char *text, const char *what)
{
   unsigned n = 0;
   for (const char *s = text ? strstr(text, what) : NULL; s; s = strstr(s + 1, what))
      n++;
   return n;
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
            CHECK(st == COMP_BUILD_FAILURE, "%s on %s [%s]: %s", missing[i].name, targets[t],
                  levels[l], comp_status_name(st));
            char want[256];
            snprintf(want, sizeof(want),
                     "error: kernel 'k' calls device-library function '%s", missing[i].name);
            CHECK(strstr(log, want), "%s on %s [%s]: log:\n%s", missing[i].name, targets[t],
                  levels[l], log);
            snprintf(want, sizeof(want), "needs target feature '%s' that %s does not have",
                     missing[i].feature, targets[t]);
            CHECK(strstr(log, want), "%s on %s [%s]: log:\n%s", missing[i].name, targets[t],
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
         CHECK(st == COMP_OK, "%s on %s: %s\n%s", missing[i].name, targets[t],
               comp_status_name(st), out.log ? out.log : "");
         CHECK(count(out.data, "s_endpgm") == 1 && count(out.data, "global_store") == 1,
               "%s on %s: no store", missing[i].name, targets[t]);
         comp_output_finish(&out);
      }
}

int
main(void)
{
   test_dropped_is_an_error();
   test_no_false_alarm();
   if (failures)
      fprintf(stderr, "%d failure(s)\n", failures);
   else
      printf("comp_test_devlib: all passed\n");
   return failures ? 1 : 0;
}
