/*
 * Handler coverage against the ISA, not a corpus (issue 25): every gfx906 mnemonic of
 * sim_opcodes_gfx906.def (what llvm-mc-19 accepts for gfx906) must have a handler, except the
 * graphics-only instructions of sim_isa_graphics_only.def (the one list, with the reasons;
 * sim_isa_test checks that they fault as illegal instructions). A mnemonic only later targets
 * have (gfx90a) without a handler must be listed in sim_isa_unhandled.def: those decode and
 * fault as illegal instructions ("unimplemented opcode") until a handler comes.
 * Fails when a compute mnemonic has no handler and is not listed, when a listed mnemonic has
 * one (the list is stale) or when a list names no opcode of sim_opcodes.def.
 */
#include <stdio.h>
#include <string.h>
#include "sim_isa_priv.h"

/* The interpreter's memory lookup; nothing is executed here. */
const sim_alloc *sim__mem_find(uint64_t va);
const sim_alloc *
sim__mem_find(uint64_t va)
{
   (void)va;
   return NULL;
}

typedef struct entry {
   const char *mnemonic, *reason;
} entry;

static const entry graphics_only[] = {
#define SIM_GRAPHICS_ONLY(m, example, other, reason) {#m, reason},
#include "sim_isa_graphics_only.def"
};

static const entry unhandled[] = {
#define SIM_UNHANDLED(m, reason) {#m, reason},
#include "sim_isa_unhandled.def"
   {"", "the end: the file may list none"},
};

/* Which mnemonics each target's opcode table has. */
static bool in_target[SIM_TARGET_COUNT][SIM_OP_COUNT];

static void
tables_init(void)
{
#define SIM_OPCODE(e, o, m) in_target[SIM_TARGET_GFX906][SIM_OP_##m] = true;
#include "sim_opcodes_gfx906.def"
#define SIM_OPCODE(e, o, m) in_target[SIM_TARGET_GFX90A][SIM_OP_##m] = true;
#include "sim_opcodes_gfx90a.def"
#define SIM_OPCODE(e, o, m) in_target[SIM_TARGET_GFX1030][SIM_OP_##m] = true;
#include "sim_opcodes_gfx1030.def"
}

static const entry *
find(const entry *list, size_t n, const char *m)
{
   for (size_t i = 0; i < n; i++)
      if (!strcmp(list[i].mnemonic, m))
         return &list[i];
   return NULL;
}

static int
known(const char *m)
{
   for (unsigned op = 1; op < SIM_OP_COUNT; op++)
      if (!strcmp(sim__op_names[op], m))
         return 1;
   return 0;
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

int
main(void)
{
   unsigned fails = 0, handled = 0, count[SIM_TARGET_COUNT] = {0}, missing[SIM_TARGET_COUNT] = {0};
   tables_init();
   for (unsigned op = 1; op < SIM_OP_COUNT; op++) {
      const char *m = sim__op_names[op];
      bool has = sim__handler((sim_op)op) != NULL;
      const entry *g = find(graphics_only, N(graphics_only), m);
      const entry *u = find(unhandled, N(unhandled), m);
      handled += has;
      for (unsigned t = 0; t < SIM_TARGET_COUNT; t++) {
         count[t] += in_target[t][op];
         missing[t] += in_target[t][op] && !has && !g;
      }
      if (u && in_target[SIM_TARGET_GFX906][op]) {
         fprintf(stderr, "FAIL %s is a gfx906 instruction: it needs a handler, not a place in "
                 "sim_isa_unhandled.def\n", m);
         fails++;
      } else if (has && (g || u)) {
         fprintf(stderr, "FAIL %s has a handler but is listed as %s\n", m,
                 g ? "graphics-only" : "unhandled");
         fails++;
      } else if (!has && !g && !u) {
         fprintf(stderr, "FAIL %s: no handler (compute instruction of the ISA)\n", m);
         fails++;
      }
   }
   for (size_t i = 0; i < N(unhandled); i++)
      if (*unhandled[i].mnemonic && !known(unhandled[i].mnemonic)) {
         fprintf(stderr, "FAIL unhandled %s is no mnemonic of sim_opcodes.def\n",
                 unhandled[i].mnemonic);
         fails++;
      }
   for (size_t i = 0; i < N(graphics_only); i++)
      if (!known(graphics_only[i].mnemonic) && strcmp(graphics_only[i].mnemonic, "exp")) {
         fprintf(stderr, "FAIL graphics-only %s is no mnemonic of sim_opcodes.def\n",
                 graphics_only[i].mnemonic);
         fails++;
      }
   printf("sim_isa_handlers: %u mnemonics, %u with a handler, %zu graphics-only\n",
          SIM_OP_COUNT - 1, handled, N(graphics_only));
   for (unsigned t = 0; t < SIM_TARGET_COUNT; t++)
      printf("sim_isa_handlers: %s: %u mnemonics, %u without a handler (graphics-only not "
             "counted)\n", sim__target((sim_target_id)t)->name, count[t], missing[t]);
   if (fails)
      fprintf(stderr, "sim_isa_handlers: %u failure(s)\n", fails);
   return fails ? 1 : 0;
}
