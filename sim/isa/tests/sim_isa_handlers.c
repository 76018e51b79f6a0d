/*
 * Handler coverage against the ISA, not a corpus (issue 25): every gfx906 mnemonic of
 * sim_opcodes.def (what llvm-mc-19 accepts for gfx906) must have a handler, except the
 * graphics-only instructions of sim_isa_graphics_only.def (the one list, with the reasons;
 * sim_isa_test checks that they fault as illegal instructions).
 * Fails when a compute mnemonic has no handler, when a graphics-only mnemonic has one (the
 * list is stale) or when the list names no opcode of sim_opcodes.def.
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
   unsigned fails = 0, handled = 0;
   for (unsigned op = 1; op < SIM_OP_COUNT; op++) {
      const char *m = sim__op_names[op];
      bool has = sim__handler((sim_op)op) != NULL;
      const entry *g = find(graphics_only, N(graphics_only), m);
      handled += has;
      if (has && g) {
         fprintf(stderr, "FAIL %s has a handler but is listed as graphics-only\n", m);
         fails++;
      } else if (!has && !g) {
         fprintf(stderr, "FAIL %s: no handler (compute instruction of the ISA)\n", m);
         fails++;
      }
   }
   for (size_t i = 0; i < N(graphics_only); i++)
      if (!known(graphics_only[i].mnemonic) && strcmp(graphics_only[i].mnemonic, "exp")) {
         fprintf(stderr, "FAIL graphics-only %s is no mnemonic of sim_opcodes.def\n",
                 graphics_only[i].mnemonic);
         fails++;
      }
   printf("sim_isa_handlers: %u gfx906 mnemonics, %u with a handler, %zu graphics-only\n",
          SIM_OP_COUNT - 1, handled, N(graphics_only));
   if (fails)
      fprintf(stderr, "sim_isa_handlers: %u failure(s)\n", fails);
   return fails ? 1 : 0;
}
