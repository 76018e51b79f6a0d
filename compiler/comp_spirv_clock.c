/*
 * comp_spirv_clock.c — SPV_KHR_shader_clock, which the OpenCL SPIR-V environment requires of
 * a device with cl_khr_kernel_clock, as the calls of OpenCL C it equals.
 *
 * Neither llvm-spirv-15 ("unknown extension") nor Debian's SPIRV-Tools (its validator takes
 * only the Subgroup and Device scopes, Vulkan's rule, where OpenCL also allows Workgroup)
 * reads it, so the rewrite runs before both: each
 *   %r = OpReadClockKHR %type %scope
 * becomes
 *   %r = OpFunctionCall %type %f
 * of a body-less OpFunction %f decorated LinkageAttributes "<name>" Import, which the
 * translator makes an external declaration: <name> is the built-in of
 * comp_builtins_clock.cl (clang's Itanium mangling of a function of no arguments) for the
 * constant scope (Device 1, Workgroup 2, Subgroup 3) and the result type (a 64-bit integer,
 * or a vector of two 32-bit integers, the low word first: the _hilo form). The extension and
 * its capability are dropped; Linkage is added when the module lacks it. Another scope, a
 * scope that is not an OpConstant, or another result type is refused.
 *
 * Runs on host-order words whose instruction word counts are known to stay in bounds
 * (comp_spirv.c's scan); the module need not be valid yet, so every id is looked up with a
 * bounds check. New ids go past the bound.
 */
#define _GNU_SOURCE
#include "comp_priv.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#define NUM_SCOPES 3 /* Device, Workgroup, Subgroup: scope value - 1 */

/* [hilo][scope - 1] */
static const char *const builtin_names[2][NUM_SCOPES] = {
   { "_Z17clock_read_devicev", "_Z21clock_read_work_groupv", "_Z20clock_read_sub_groupv" },
   { "_Z22clock_read_hilo_devicev", "_Z26clock_read_hilo_work_groupv",
     "_Z25clock_read_hilo_sub_groupv" },
};

static const char extension_name[] = "SPV_KHR_shader_clock";

struct clock {
   const uint32_t *w;
   size_t n;
   uint32_t bound;          /* grows as ids are allocated */
   uint32_t ids;            /* the module's own bound: the size of def */
   size_t *def;             /* id -> word index of its definition, 0 for none */
   size_t end_capabilities; /* where OpCapability Linkage goes */
   size_t annotations;      /* where the LinkageAttributes decorations go */
   size_t first_function;   /* where the function types and declarations go */
   bool linkage;
   uint32_t rtype[2];            /* [hilo]: the result type, 0 when unused */
   uint32_t fn_type[2];          /* [hilo]: new OpTypeFunction %rtype */
   uint32_t fn[2][NUM_SCOPES];   /* new OpFunction declarations, 0 when unused */
   uint32_t *out;
   size_t out_n, out_cap;
   char *why;
};

static void fail(struct clock *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
fail(struct clock *c, const char *fmt, ...)
{
   if (c->why)
      return;
   va_list ap;
   va_start(ap, fmt);
   if (vasprintf(&c->why, fmt, ap) < 0)
      c->why = NULL;
   va_end(ap);
}

static uint32_t
op_at(const struct clock *c, size_t at)
{
   return c->w[at] & 0xffff;
}

static uint32_t
count_at(const struct clock *c, size_t at)
{
   return c->w[at] >> 16;
}

/* The definition of `id` (word index), 0 when it has none. */
static size_t
def_of(const struct clock *c, uint32_t id)
{
   return id < c->ids ? c->def[id] : 0;
}

/* Instructions of the layout's sections before the annotations (SPIR-V 2.4). */
static bool
before_annotations(uint32_t op)
{
   switch (op) {
   case SpvOpCapability:
   case SpvOpExtension:
   case SpvOpExtInstImport:
   case SpvOpMemoryModel:
   case SpvOpEntryPoint:
   case SpvOpExecutionMode:
   case SpvOpExecutionModeId:
   case SpvOpString:
   case SpvOpSourceContinued:
   case SpvOpSource:
   case SpvOpSourceExtension:
   case SpvOpName:
   case SpvOpMemberName:
   case SpvOpModuleProcessed:
      return true;
   default:
      return false;
   }
}

static bool
is_extension(const struct clock *c, size_t at)
{
   size_t len = (count_at(c, at) - 1) * 4;
   return op_at(c, at) == SpvOpExtension && len >= sizeof(extension_name) &&
          !memcmp(&c->w[at + 1], extension_name, sizeof(extension_name));
}

/* 1 for a vector of two 32-bit integers, 0 for a 64-bit integer, -1 for another type. */
static int
hilo_of(const struct clock *c, uint32_t type)
{
   size_t t = def_of(c, type);
   if (t && op_at(c, t) == SpvOpTypeInt && count_at(c, t) >= 4 && c->w[t + 2] == 64)
      return 0;
   if (!t || op_at(c, t) != SpvOpTypeVector || count_at(c, t) < 4 || c->w[t + 3] != 2)
      return -1;
   size_t e = def_of(c, c->w[t + 2]);
   return e && op_at(c, e) == SpvOpTypeInt && count_at(c, e) >= 4 && c->w[e + 2] == 32 ? 1 : -1;
}

/* The declaration an OpReadClockKHR at `at` calls, allocated on first use; 0 on refusal. */
static uint32_t
callee(struct clock *c, size_t at)
{
   uint32_t type = c->w[at + 1], res = c->w[at + 2], scope = c->w[at + 3];
   int hilo = hilo_of(c, type);
   if (hilo < 0) {
      fail(c, "OpReadClockKHR %%%u: the result type is neither a 64-bit integer nor a vector "
              "of two 32-bit integers", res);
      return 0;
   }
   size_t s = def_of(c, scope);
   if (!s || op_at(c, s) != SpvOpConstant || count_at(c, s) != 4) {
      fail(c, "OpReadClockKHR %%%u: the scope %%%u is not a 32-bit OpConstant", res, scope);
      return 0;
   }
   uint32_t value = c->w[s + 3];
   if (value < SpvScopeDevice || value > SpvScopeSubgroup) {
      fail(c, "OpReadClockKHR %%%u: scope %u is not Device (1), Workgroup (2) or Subgroup (3), "
              "the clocks of cl_khr_kernel_clock", res, value);
      return 0;
   }
   if (c->rtype[hilo] && c->rtype[hilo] != type) {
      fail(c, "OpReadClockKHR %%%u: result types %%%u and %%%u are the same type declared "
              "twice", res, c->rtype[hilo], type);
      return 0;
   }
   c->rtype[hilo] = type;
   if (!c->fn_type[hilo])
      c->fn_type[hilo] = c->bound++;
   uint32_t *f = &c->fn[hilo][value - SpvScopeDevice];
   if (!*f)
      *f = c->bound++;
   return *f;
}

/* Whether the module has an OpReadClockKHR, the capability or the extension. */
static bool
mentions_clock(const struct clock *c)
{
   for (size_t at = 5; at < c->n; at += count_at(c, at)) {
      uint32_t op = op_at(c, at);
      if (op == SpvOpReadClockKHR || is_extension(c, at) ||
          (op == SpvOpCapability && count_at(c, at) >= 2 &&
           c->w[at + 1] == SpvCapabilityShaderClockKHR))
         return true;
   }
   return false;
}

/* Pass 1: the layout's positions, the definitions, the declarations the reads need. */
static void
survey(struct clock *c)
{
   for (size_t at = 5; at < c->n; at += count_at(c, at)) {
      uint32_t op = op_at(c, at), count = count_at(c, at);
      if (op == SpvOpCapability && count >= 2) {
         c->end_capabilities = at + count;
         c->linkage |= c->w[at + 1] == SpvCapabilityLinkage;
      }
      if (!c->annotations && !before_annotations(op))
         c->annotations = at;
      if (op == SpvOpFunction && !c->first_function)
         c->first_function = at;
      if (!c->first_function && count >= 3 && c->w[at + 2] < c->ids && op == SpvOpConstant)
         c->def[c->w[at + 2]] = at;
      if (!c->first_function && count >= 2 && c->w[at + 1] < c->ids &&
          (op == SpvOpTypeInt || op == SpvOpTypeVector))
         c->def[c->w[at + 1]] = at;
   }
   if (!c->annotations)
      c->annotations = c->n;
   if (!c->first_function)
      c->first_function = c->n;
   for (size_t at = 5; at < c->n && !c->why; at += count_at(c, at))
      if (op_at(c, at) == SpvOpReadClockKHR) {
         if (count_at(c, at) != 4)
            fail(c, "OpReadClockKHR with %u words, not 4", count_at(c, at));
         else
            callee(c, at);
      }
}

static bool
put(struct clock *c, uint32_t v)
{
   if (c->out_n == c->out_cap) {
      size_t cap = c->out_cap ? c->out_cap * 2 : 1024;
      uint32_t *w = realloc(c->out, cap * sizeof(*w));
      if (!w)
         return false;
      c->out = w;
      c->out_cap = cap;
   }
   c->out[c->out_n++] = v;
   return true;
}

static bool
emit(struct clock *c, uint32_t op, size_t count, const uint32_t *ops)
{
   if (!put(c, (uint32_t)(count + 1) << 16 | op))
      return false;
   for (size_t i = 0; i < count; i++)
      if (!put(c, ops[i]))
         return false;
   return true;
}

#define EMIT(c, op, ...)                                                                    \
   emit(c, op, sizeof((uint32_t[]){ __VA_ARGS__ }) / sizeof(uint32_t),                     \
        (uint32_t[]){ __VA_ARGS__ })

/* OpDecorate %f LinkageAttributes "name" Import. */
static bool
emit_linkage(struct clock *c, uint32_t f, const char *name)
{
   size_t len = strlen(name) + 1, words = (len + 3) / 4;
   uint32_t ops[3 + 16] = { f, SpvDecorationLinkageAttributes };
   memset(&ops[2], 0, words * 4);
   memcpy(&ops[2], name, len);
   ops[2 + words] = SpvLinkageTypeImport;
   return emit(c, SpvOpDecorate, 3 + words, ops);
}

static bool
emit_declarations(struct clock *c)
{
   for (int h = 0; h < 2; h++) /* the types first: they end the types section */
      if (c->fn_type[h] && !EMIT(c, SpvOpTypeFunction, c->fn_type[h], c->rtype[h]))
         return false;
   for (int h = 0; h < 2; h++)
      for (int s = 0; s < NUM_SCOPES; s++)
         if (c->fn[h][s] && (!EMIT(c, SpvOpFunction, c->rtype[h], c->fn[h][s],
                                   SpvFunctionControlMaskNone, c->fn_type[h]) ||
                             !EMIT(c, SpvOpFunctionEnd)))
            return false;
   return true;
}

/* Pass 2. */
static bool
rewrite(struct clock *c)
{
   for (size_t i = 0; i < 5; i++)
      if (!put(c, c->w[i]))
         return false;
   for (size_t at = 5; at <= c->n; at += count_at(c, at)) {
      if (at == c->end_capabilities && !c->linkage &&
          !EMIT(c, SpvOpCapability, SpvCapabilityLinkage))
         return false;
      if (at == c->annotations)
         for (int h = 0; h < 2; h++)
            for (int s = 0; s < NUM_SCOPES; s++)
               if (c->fn[h][s] && !emit_linkage(c, c->fn[h][s], builtin_names[h][s]))
                  return false;
      if (at == c->first_function && !emit_declarations(c))
         return false;
      if (at == c->n)
         break;
      uint32_t op = op_at(c, at), count = count_at(c, at);
      if ((op == SpvOpCapability && count >= 2 && c->w[at + 1] == SpvCapabilityShaderClockKHR) ||
          is_extension(c, at))
         continue;
      if (op == SpvOpReadClockKHR) {
         int hilo = hilo_of(c, c->w[at + 1]);
         uint32_t scope = c->w[def_of(c, c->w[at + 3]) + 3];
         if (!EMIT(c, SpvOpFunctionCall, c->w[at + 1], c->w[at + 2],
                   c->fn[hilo][scope - SpvScopeDevice]))
            return false;
         continue;
      }
      if (!emit(c, op, count - 1, &c->w[at + 1]))
         return false;
   }
   c->out[3] = c->bound;
   return true;
}

enum comp_status
comp__spirv_lower_clock(const uint32_t *words, size_t num_words, uint32_t **out,
                        size_t *out_words, char **why)
{
   *out = NULL;
   *out_words = 0;
   *why = NULL;
   if (num_words < 5)
      return COMP_OK;
   struct clock c = { .w = words, .n = num_words, .bound = words[3], .ids = words[3] };
   if (!mentions_clock(&c))
      return COMP_OK;
   /* The validator's default limit on ids (SPIR-V 2.17), checked here since it runs later. */
   if (c.bound > 0x3fffff) {
      *why = strdup("the module's id bound exceeds 4194303");
      return *why ? COMP_INVALID_BINARY : COMP_OUT_OF_MEMORY;
   }
   c.def = calloc(c.ids ? c.ids : 1, sizeof(*c.def));
   if (!c.def)
      return COMP_OUT_OF_MEMORY;
   enum comp_status st = COMP_OK;
   survey(&c);
   if (c.why) {
      st = COMP_INVALID_BINARY;
      goto out;
   }
   if (!c.end_capabilities)
      c.end_capabilities = 5;
   if (!rewrite(&c)) {
      st = COMP_OUT_OF_MEMORY;
      goto out;
   }
   *out = c.out;
   *out_words = c.out_n;
   c.out = NULL;
out:
   *why = c.why;
   free(c.out);
   free(c.def);
   return st;
}
