/*
 * The vector caches between the waves and the agent's L2 in the checking mode
 * (HSACL_SIM_CACHE=check; sim_isa_priv.h "The vector caches of a host thread"). One set
 * per host thread that runs work-groups, emptied whenever the thread joins a dispatch (the
 * CP invalidates the vector L1/L0 and GL1 at a dispatch's start), and the work-groups the
 * thread runs one after another share it:
 *   - gfx9 (gfx906, gfx90a): the thread is a compute unit, with one vector L1 (cu[0]). With
 *     gfx90a's COMPUTE_PGM_RSRC3.TG_SPLIT a work-group's waves spread over two CUs, each with
 *     its own L1 (cu[0], cu[1]).
 *   - gfx10 (gfx1030): the thread is a work-group processor, alone in its shader array: two
 *     CUs, each with a vector L0 (cu[0], cu[1]), and the shader array's GL1 (gl1). A
 *     work-group runs on CU 0, or with COMPUTE_PGM_RSRC1.WGP_MODE on both (wave_cu).
 *     One WGP a shader array makes every other thread another shader array: a missing
 *     buffer_gl1_inv between work-groups shows whichever threads run them.
 *
 * Lines are 64 bytes of one coarse-grained allocation, aligned to the allocation's start as
 * the L2 model's lines are (RDNA2's L0 lines are 128 bytes: the L2 model's 64 are kept);
 * direct-mapped: 256 lines a CU (16 KiB, the gfx906 vector L1 and the RDNA2 L0), 2048 a GL1
 * (128 KiB). A load that spans two lines reads the L2 (the model never shows a value staler
 * than one line can hold). Every level is write-through: stores and atomics drop the lines
 * they cover from the storing wave's CU and from the GL1 they pass; the next load refills
 * them from the L2, which holds the store. So a CU sees its own stores and the other CU of
 * its WGP does not until its L0 is invalidated, as on hardware.
 *
 * Only the owning thread touches these caches: no locks.
 */
#include "sim_isa_priv.h"

#include <stdlib.h>
#include <string.h>

#define CU_LINES 256u
#define GL1_LINES 2048u
#define LINE SIM_CACHE_LINE

/* COMPUTE_PGM_RSRC1.WGP_MODE (gfx10) and COMPUTE_PGM_RSRC3.TG_SPLIT (gfx90a) ([AMDGPUUsage]
 * "compute_pgm_rsrc1", "compute_pgm_rsrc3 for GFX90A"). */
#define RSRC1_WGP_MODE (1u << 29)
#define RSRC3_TG_SPLIT (1u << 16)

typedef struct level {
   uint64_t *tag; /* line VA + 1; 0: invalid */
   uint8_t (*data)[LINE];
   unsigned lines;
} level;

struct sim_l1 {
   struct {
      uint64_t tag[CU_LINES];
      uint8_t data[CU_LINES][LINE];
   } cu[2];
   struct {
      uint64_t tag[GL1_LINES];
      uint8_t data[GL1_LINES][LINE];
   } gl1;
};

struct sim_l1 *
sim__l1_begin(struct sim_l1 **slot)
{
   if (!*slot)
      *slot = malloc(sizeof(**slot));
   if (*slot) {
      memset((*slot)->cu[0].tag, 0, sizeof((*slot)->cu[0].tag));
      memset((*slot)->cu[1].tag, 0, sizeof((*slot)->cu[1].tag));
      memset((*slot)->gl1.tag, 0, sizeof((*slot)->gl1.tag));
   }
   return *slot;
}

void
sim__l1_free(struct sim_l1 *l1)
{
   free(l1);
}

/* The CU of its WGP (gfx10) or pair (gfx90a TG_SPLIT) that wave `w` runs on. Hardware
 * places a WGP_MODE work-group's waves on either CU of the WGP as SIMDs free up
 * ([AMDGPUUsage] "Memory Model GFX10-GFX11"); the model alternates them by wave number, so
 * waves 0 and 1 of a work-group always see different L0s. */
static unsigned
wave_cu(const sim_wave *w)
{
   const sim_disp *d = w->wg->disp;
   if (w->target->gfx_major >= 10)
      return d->rsrc1 & RSRC1_WGP_MODE ? w->id & 1 : 0;
   return w->target->tg_split && (d->rsrc3 & RSRC3_TG_SPLIT) ? w->id & 1 : 0;
}

static level
cu_level(struct sim_l1 *l1, unsigned cu)
{
   return (level){ l1->cu[cu].tag, l1->cu[cu].data, CU_LINES };
}

static level
gl1_level(struct sim_l1 *l1)
{
   return (level){ l1->gl1.tag, l1->gl1.data, GL1_LINES };
}

static inline uint64_t
line_va(const sim_alloc *a, uint64_t va)
{
   return a->va + ((va - a->va) & ~(uint64_t)(LINE - 1));
}

static inline unsigned
line_index(level c, uint64_t line)
{
   return (unsigned)((line / LINE) % c.lines);
}

/* The line's bytes if `c` holds it, else NULL. */
static uint8_t *
lookup(level c, uint64_t line)
{
   unsigned i = line_index(c, line);
   return c.tag[i] == line + 1 ? c.data[i] : NULL;
}

static uint8_t *
fill(level c, uint64_t line, const uint8_t *src)
{
   unsigned i = line_index(c, line);
   memcpy(c.data[i], src, LINE);
   c.tag[i] = line + 1;
   return c.data[i];
}

static void
drop(level c, uint64_t line)
{
   unsigned i = line_index(c, line);
   if (c.tag[i] == line + 1)
      c.tag[i] = 0;
}

/* gfx9: a load without GLC may hit; with GLC the line is fetched again from the L2 and
 * kept ("force miss and re-fetch"). */
static void *
load_gfx9(sim_wave *w, level l1, const sim_alloc *a, uint64_t va, uint64_t line)
{
   uint8_t *p = w->l1_load & SIM_L1_GLC ? NULL : lookup(l1, line);
   if (!p) {
      const uint8_t *src = sim__cache_ptr(w, a, line, LINE, false);
      if (!src)
         return NULL;
      p = fill(l1, line, src);
   }
   return p + (va - line);
}

/* gfx10, as AMDGPUUsage's GFX10 sequences and LLVM's SIGfx10CacheControl use the bits (GLC
 * for work-group scope in WGP mode, GLC DLC for agent scope) and llvm-project #89739 quotes
 * [RDNA2 ISA] 8.1.10 (GLC with SLC evicts the L0 and GL1 entries): GLC makes the L0
 * MISS_EVICT (the load reads the GL1 and the L0 drops the line), DLC makes the GL1
 * MISS_EVICT, and GLC with SLC does too. Otherwise the load may hit in either and fills both
 * (HIT_LRU). */
static void *
load_gfx10(sim_wave *w, struct sim_l1 *l1, const sim_alloc *a, uint64_t va, uint64_t line)
{
   level l0 = cu_level(l1, wave_cu(w)), gl1 = gl1_level(l1);
   bool glc = w->l1_load & SIM_L1_GLC, slc = w->l1_load & SIM_L1_SLC;
   bool miss_gl1 = (w->l1_load & SIM_L1_DLC) || (glc && slc);
   uint8_t *p = glc ? NULL : lookup(l0, line);
   if (p)
      return p + (va - line);
   const uint8_t *src = NULL;
   if (miss_gl1)
      drop(gl1, line);
   else
      src = lookup(gl1, line);
   if (!src) {
      src = sim__cache_ptr(w, a, line, LINE, false);
      if (!src)
         return NULL;
      if (!miss_gl1)
         src = fill(gl1, line, src);
   }
   if (glc) {
      drop(l0, line);
      return (uint8_t *)src + (va - line);
   }
   return fill(l0, line, src) + (va - line);
}

void *
sim__l1_load_ptr(sim_wave *w, const sim_alloc *a, uint64_t va, uint32_t size)
{
   struct sim_l1 *l1 = w->wg->l1;
   uint64_t line = line_va(a, va);
   if (!l1 || va + (size ? size : 1) > line + LINE)
      return sim__cache_ptr(w, a, va, size, false);
   if (w->target->gfx_major >= 10)
      return load_gfx10(w, l1, a, va, line);
   return load_gfx9(w, cu_level(l1, wave_cu(w)), a, va, line);
}

void
sim__l1_drop(sim_wave *w, const sim_alloc *a, uint64_t va, uint32_t size)
{
   struct sim_l1 *l1 = w->wg->l1;
   if (!l1)
      return;
   level cu = cu_level(l1, wave_cu(w)), gl1 = gl1_level(l1);
   bool has_gl1 = w->target->gfx_major >= 10;
   uint64_t first = line_va(a, va), last = line_va(a, va + (size ? size - 1 : 0));
   for (uint64_t line = first; line <= last; line += LINE) {
      drop(cu, line);
      if (has_gl1)
         drop(gl1, line);
   }
}

void
sim__l1_invalidate(sim_wave *w)
{
   struct sim_l1 *l1 = w->wg->l1;
   if (l1)
      memset(l1->cu[wave_cu(w)].tag, 0, sizeof(l1->cu[0].tag));
}

void
sim__gl1_invalidate(sim_wave *w)
{
   struct sim_l1 *l1 = w->wg->l1;
   if (l1)
      memset(l1->gl1.tag, 0, sizeof(l1->gl1.tag));
}
