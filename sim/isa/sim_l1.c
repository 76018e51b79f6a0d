/*
 * The vector L1 of a compute unit in the checking mode (HSACL_SIM_CACHE=check;
 * sim_isa_priv.h "The vector L1 of a compute unit"). One per host thread that runs
 * work-groups — the thread is the compute unit, and the work-groups it runs one after
 * another share it, as work-groups of one CU share its L1 — emptied whenever the thread
 * joins a dispatch (the CP invalidates the L1 at a dispatch's start).
 *
 * Direct-mapped, 256 lines of 64 bytes (gfx906: 16 KiB). Lines are 64 bytes of one
 * coarse-grained allocation, aligned to the allocation's start as the L2 model's lines
 * are, filled from the agent's L2 (sim__cache_ptr). A load that spans two lines reads the
 * L2 (the model never shows a value staler than one line can hold). Stores and atomics
 * drop the lines they cover; the next load refills them from the L2, which holds the store:
 * a CU sees its own stores, as a write-through L1 gives.
 *
 * Only the owning thread touches an L1: no locks.
 */
#include "sim_isa_priv.h"

#include <stdlib.h>
#include <string.h>

#define L1_LINES 256u
#define LINE SIM_CACHE_LINE

struct sim_l1 {
   uint64_t tag[L1_LINES]; /* line VA + 1; 0: invalid */
   uint8_t data[L1_LINES][LINE];
};

struct sim_l1 *
sim__l1_begin(struct sim_l1 **slot)
{
   if (!*slot)
      *slot = malloc(sizeof(**slot));
   if (*slot)
      memset((*slot)->tag, 0, sizeof((*slot)->tag));
   return *slot;
}

void
sim__l1_free(struct sim_l1 *l1)
{
   free(l1);
}

static inline uint64_t
line_va(const sim_alloc *a, uint64_t va)
{
   return a->va + ((va - a->va) & ~(uint64_t)(LINE - 1));
}

static inline unsigned
line_index(uint64_t line)
{
   return (unsigned)((line / LINE) % L1_LINES);
}

void *
sim__l1_load_ptr(sim_wave *w, const sim_alloc *a, uint64_t va, uint32_t size)
{
   struct sim_l1 *l1 = w->wg->l1;
   uint64_t line = line_va(a, va);
   if (!l1 || va + (size ? size : 1) > line + LINE)
      return sim__cache_ptr(w, a, va, size, false);
   unsigned i = line_index(line);
   if (l1->tag[i] != line + 1 || w->l1_load == SIM_L1_GLC) {
      const uint8_t *src = sim__cache_ptr(w, a, line, LINE, false);
      if (!src)
         return NULL;
      memcpy(l1->data[i], src, LINE);
      l1->tag[i] = line + 1;
   }
   return l1->data[i] + (va - line);
}

void
sim__l1_drop(sim_wave *w, const sim_alloc *a, uint64_t va, uint32_t size)
{
   struct sim_l1 *l1 = w->wg->l1;
   if (!l1)
      return;
   uint64_t first = line_va(a, va), last = line_va(a, va + (size ? size - 1 : 0));
   for (uint64_t line = first; line <= last; line += LINE) {
      unsigned i = line_index(line);
      if (l1->tag[i] == line + 1)
         l1->tag[i] = 0;
   }
}

void
sim__l1_invalidate(sim_wave *w)
{
   struct sim_l1 *l1 = w->wg->l1;
   if (l1)
      memset(l1->tag, 0, sizeof(l1->tag));
}
