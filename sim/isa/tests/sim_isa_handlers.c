/*
 * Handler coverage against the ISA, not a corpus (issue 25): every gfx906 mnemonic of
 * sim_opcodes.def (what llvm-mc-19 accepts for gfx906) must have a handler, except
 *   - the graphics-only instructions of sim_isa_graphics_only.def (the one list, with the
 *     reasons; sim_isa_test checks that they fault as illegal instructions), and
 *   - the compute instructions not implemented yet, listed below with the reason, printed
 *     on every run. Each one is work left to do, not an exemption.
 * Fails when a mnemonic has no handler and is on neither list, when a listed mnemonic has a
 * handler (the list is stale) or when a list names no opcode of sim_opcodes.def.
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

#define R_IMG_SAMPLE                                                                        \
   "sampling other than level-zero image_sample_lz: sim_mimg.c models mip level 0 only; "   \
   "LOD/bias/derivatives/min-LOD clamp, texel offsets (_o) and depth compare (_c) are "     \
   "not written yet"
#define R_IMG_GATHER                                                                        \
   "gather4 (the four texels of a bilinear footprint, one channel): not written yet"
#define R_IMG_LOD "image_get_lod: the LOD the sampler would compute (derivatives): not written yet"
#define R_IMG_RESINFO "image_get_resinfo: T# size of a mip level: not written yet"
static const entry not_yet[] = {
   {"image_sample", R_IMG_SAMPLE},
   {"image_sample_b", R_IMG_SAMPLE},
   {"image_sample_b_cl", R_IMG_SAMPLE},
   {"image_sample_b_cl_o", R_IMG_SAMPLE},
   {"image_sample_b_o", R_IMG_SAMPLE},
   {"image_sample_c", R_IMG_SAMPLE},
   {"image_sample_c_b", R_IMG_SAMPLE},
   {"image_sample_c_b_cl", R_IMG_SAMPLE},
   {"image_sample_c_b_cl_o", R_IMG_SAMPLE},
   {"image_sample_c_b_o", R_IMG_SAMPLE},
   {"image_sample_c_cd", R_IMG_SAMPLE},
   {"image_sample_c_cd_cl", R_IMG_SAMPLE},
   {"image_sample_c_cd_cl_o", R_IMG_SAMPLE},
   {"image_sample_c_cd_o", R_IMG_SAMPLE},
   {"image_sample_c_cl", R_IMG_SAMPLE},
   {"image_sample_c_cl_o", R_IMG_SAMPLE},
   {"image_sample_c_d", R_IMG_SAMPLE},
   {"image_sample_c_d_cl", R_IMG_SAMPLE},
   {"image_sample_c_d_cl_o", R_IMG_SAMPLE},
   {"image_sample_c_d_o", R_IMG_SAMPLE},
   {"image_sample_c_l", R_IMG_SAMPLE},
   {"image_sample_c_l_o", R_IMG_SAMPLE},
   {"image_sample_c_lz", R_IMG_SAMPLE},
   {"image_sample_c_lz_o", R_IMG_SAMPLE},
   {"image_sample_c_o", R_IMG_SAMPLE},
   {"image_sample_cd", R_IMG_SAMPLE},
   {"image_sample_cd_cl", R_IMG_SAMPLE},
   {"image_sample_cd_cl_o", R_IMG_SAMPLE},
   {"image_sample_cd_o", R_IMG_SAMPLE},
   {"image_sample_cl", R_IMG_SAMPLE},
   {"image_sample_cl_o", R_IMG_SAMPLE},
   {"image_sample_d", R_IMG_SAMPLE},
   {"image_sample_d_cl", R_IMG_SAMPLE},
   {"image_sample_d_cl_o", R_IMG_SAMPLE},
   {"image_sample_d_o", R_IMG_SAMPLE},
   {"image_sample_l", R_IMG_SAMPLE},
   {"image_sample_l_o", R_IMG_SAMPLE},
   {"image_sample_lz_o", R_IMG_SAMPLE},
   {"image_sample_o", R_IMG_SAMPLE},
   {"image_gather4", R_IMG_GATHER},
   {"image_gather4_b", R_IMG_GATHER},
   {"image_gather4_b_cl", R_IMG_GATHER},
   {"image_gather4_b_cl_o", R_IMG_GATHER},
   {"image_gather4_b_o", R_IMG_GATHER},
   {"image_gather4_c", R_IMG_GATHER},
   {"image_gather4_c_b", R_IMG_GATHER},
   {"image_gather4_c_b_cl", R_IMG_GATHER},
   {"image_gather4_c_b_cl_o", R_IMG_GATHER},
   {"image_gather4_c_b_o", R_IMG_GATHER},
   {"image_gather4_c_cl", R_IMG_GATHER},
   {"image_gather4_c_cl_o", R_IMG_GATHER},
   {"image_gather4_c_l", R_IMG_GATHER},
   {"image_gather4_c_l_o", R_IMG_GATHER},
   {"image_gather4_c_lz", R_IMG_GATHER},
   {"image_gather4_c_lz_o", R_IMG_GATHER},
   {"image_gather4_c_o", R_IMG_GATHER},
   {"image_gather4_cl", R_IMG_GATHER},
   {"image_gather4_cl_o", R_IMG_GATHER},
   {"image_gather4_l", R_IMG_GATHER},
   {"image_gather4_l_o", R_IMG_GATHER},
   {"image_gather4_lz", R_IMG_GATHER},
   {"image_gather4_lz_o", R_IMG_GATHER},
   {"image_gather4_o", R_IMG_GATHER},
   {"image_gather4h", R_IMG_GATHER},
   {"image_get_lod", R_IMG_LOD},
   {"image_get_resinfo", R_IMG_RESINFO},
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
      const entry *y = find(not_yet, N(not_yet), m);
      handled += has;
      if (has && (g || y)) {
         fprintf(stderr, "FAIL %s has a handler but is listed as %s\n", m,
                 g ? "graphics-only" : "not yet implemented");
         fails++;
      } else if (!has && !g && !y) {
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
   for (size_t i = 0; i < N(not_yet); i++)
      if (!known(not_yet[i].mnemonic) || find(not_yet, i, not_yet[i].mnemonic)) {
         fprintf(stderr, "FAIL not-yet entry %s unknown or repeated\n", not_yet[i].mnemonic);
         fails++;
      }
   printf("sim_isa_handlers: %u gfx906 mnemonics, %u with a handler, %zu graphics-only, "
          "%zu NOT YET IMPLEMENTED:\n",
          SIM_OP_COUNT - 1, handled, N(graphics_only), N(not_yet));
   const char *last = NULL;
   for (size_t i = 0; i < N(not_yet); i++) {
      if (!last || strcmp(last, not_yet[i].reason)) {
         last = not_yet[i].reason;
         printf("  [%s]\n", last);
      }
      printf("    %s\n", not_yet[i].mnemonic);
   }
   if (fails)
      fprintf(stderr, "sim_isa_handlers: %u failure(s)\n", fails);
   return fails ? 1 : 0;
}
