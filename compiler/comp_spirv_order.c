/*
 * comp_spirv_order.c — the blocks of each SPIR-V function put in an order where every block
 * comes after the blocks that dominate it, before validation.
 *
 * SPIR-V 2.16.1 (universal validation rules): "The order of blocks in a function must
 * satisfy the rule that blocks appear before all blocks they dominate." Khronos' translator
 * for LLVM 15 writes blocks in LLVM's order, which need not satisfy it: clang-15 -O1 makes
 * a loop's exit block (LoopSimplify's "loopexit") before the latch that dominates it, in a
 * ten-line local-memory reduction, and the validator refuses the module. The rule is
 * about the binary's layout only: a block's position means nothing else (the first block
 * is the entry; branches and OpPhi name blocks by label; Kernel modules have no structured
 * control-flow rules that look at positions), so moving whole blocks, the entry kept
 * first, changes no execution.
 *
 * Dominators are computed as SPIRV-Tools computes them for this rule (source/val/
 * function.cpp, "augmented CFG"): over the branch edges (OpBranch, OpBranchConditional,
 * OpSwitch; merge and continue targets are not edges), from a pseudo entry whose successors
 * are the function's first block, every other block without predecessors, then in module
 * order one block of each cycle no root reaches; with Cooper, Harvey and Kennedy's iterative
 * algorithm ("A Simple, Fast Dominance Algorithm", 2001) over a reverse postorder.
 * The new order is the old one with a block that comes before its immediate dominator moved
 * to just after it (with the blocks moved after it in turn): a function already in order is
 * left word for word as it is, and each block lands after its immediate dominator, so after
 * every dominator.
 *
 * This runs on modules nobody has validated yet. The instructions are read by SPIRV-Tools'
 * binary parser (what spirv-val and spirv-dis read arbitrary files with; it sizes OpSwitch
 * literals by the selector's type), and anything the reordering does not understand (a label
 * defined twice, a branch to a label of no block of the function, a block outside a
 * function) leaves that function as it is, for the validator to judge. Nothing else in the
 * module changes; instructions keep their words, ids and the module its bound.
 */
#define _GNU_SOURCE
#include "comp_priv.h"

#include <stdlib.h>
#include <string.h>

/* libspirv.h defines this constant, with external linkage in C, in every file that includes
 * it; comp_spirv_lower.c has the one of that name. */
#define kDefaultMaxIdBound comp__spirv_order_max_id_bound
#include <spirv-tools/libspirv.h>
#undef kDefaultMaxIdBound
#include <spirv/unified1/spirv.h>

#define NONE UINT32_MAX

struct block {
   uint32_t label;
   size_t at;              /* word index of its OpLabel */
   size_t first_edge;      /* its targets: edges[first_edge .. + num_edges], label ids */
   uint32_t num_edges;
};

struct function {
   size_t first_block, num_blocks;
   size_t end;  /* word index of its OpFunctionEnd */
   bool broken; /* something the reordering does not read: left alone */
};

struct order {
   size_t cursor; /* word index of the instruction being parsed */
   struct block *blocks;
   size_t num_blocks, cap_blocks;
   uint32_t *edges;
   size_t num_edges, cap_edges;
   struct function *fns;
   size_t num_fns, cap_fns;
   bool in_function;
};

static bool
grow(void **p, size_t *cap, size_t need, size_t elem)
{
   if (need <= *cap)
      return true;
   size_t c = *cap ? *cap * 2 : 64;
   while (c < need)
      c *= 2;
   void *q = realloc(*p, c * elem);
   if (!q)
      return false;
   *p = q;
   *cap = c;
   return true;
}

static spv_result_t
on_header(void *user, spv_endianness_t endian, uint32_t magic, uint32_t version,
          uint32_t generator, uint32_t id_bound, uint32_t reserved)
{
   (void)user, (void)endian, (void)magic, (void)version, (void)generator, (void)id_bound,
      (void)reserved;
   return SPV_SUCCESS;
}

/* The branch targets of a terminator: every id operand but a conditional branch's
 * condition and a switch's selector (operand 0 of each). */
static spv_result_t
add_edges(struct order *o, const spv_parsed_instruction_t *in)
{
   struct block *b = &o->blocks[o->num_blocks - 1];
   for (uint16_t k = in->opcode == SpvOpBranch ? 0 : 1; k < in->num_operands; k++) {
      const spv_parsed_operand_t *op = &in->operands[k];
      if (op->type != SPV_OPERAND_TYPE_ID || op->num_words != 1)
         continue;
      if (!grow((void **)&o->edges, &o->cap_edges, o->num_edges + 1, sizeof(*o->edges)))
         return SPV_ERROR_OUT_OF_MEMORY;
      o->edges[o->num_edges++] = in->words[op->offset];
      b->num_edges++;
   }
   return SPV_SUCCESS;
}

static spv_result_t
on_instruction(void *user, const spv_parsed_instruction_t *in)
{
   struct order *o = user;
   size_t at = o->cursor;
   o->cursor += in->num_words;
   struct function *f = o->num_fns ? &o->fns[o->num_fns - 1] : NULL;
   switch (in->opcode) {
   case SpvOpFunction:
      if (f && o->in_function)
         f->broken = true; /* no OpFunctionEnd */
      if (!grow((void **)&o->fns, &o->cap_fns, o->num_fns + 1, sizeof(*o->fns)))
         return SPV_ERROR_OUT_OF_MEMORY;
      o->fns[o->num_fns++] = (struct function){ .first_block = o->num_blocks };
      o->in_function = true;
      break;
   case SpvOpFunctionEnd:
      if (f && o->in_function)
         f->end = at;
      o->in_function = false;
      break;
   case SpvOpLabel:
      if (!f || !o->in_function)
         break; /* outside a function: the validator's to refuse */
      if (!grow((void **)&o->blocks, &o->cap_blocks, o->num_blocks + 1, sizeof(*o->blocks)))
         return SPV_ERROR_OUT_OF_MEMORY;
      o->blocks[o->num_blocks++] = (struct block){ .label = in->result_id, .at = at,
                                                   .first_edge = o->num_edges };
      f->num_blocks++;
      break;
   case SpvOpBranch:
   case SpvOpBranchConditional:
   case SpvOpSwitch:
      if (f && o->in_function && f->num_blocks)
         return add_edges(o, in);
      break;
   default:
      break;
   }
   return SPV_SUCCESS;
}

/* A function's blocks as a graph: successor and predecessor lists by block index. */
struct graph {
   uint32_t n;                         /* blocks; node n is the pseudo entry */
   uint32_t *succ, *succ_first;        /* succ[succ_first[b] .. succ_first[b + 1]] */
   uint32_t *pred, *pred_first;
   uint32_t *roots;                    /* successors of the pseudo entry, in order */
   uint32_t num_roots;
   uint32_t *rpo, *rpo_num, *idom;     /* reverse postorder from the pseudo entry */
};

static void
graph_free(struct graph *g)
{
   free(g->succ);
   free(g->succ_first);
   free(g->pred);
   free(g->pred_first);
   free(g->roots);
   free(g->rpo);
   free(g->rpo_num);
   free(g->idom);
}

struct label_slot {
   uint32_t label, block;
};

static int
cmp_label(const void *a, const void *b)
{
   uint32_t x = ((const struct label_slot *)a)->label, y = ((const struct label_slot *)b)->label;
   return x < y ? -1 : x > y;
}

/* Successors and predecessors of f's blocks; false when a label is defined twice or a
 * branch names no block of the function (or out of memory). */
static bool
graph_edges(const struct order *o, const struct function *f, struct graph *g)
{
   const struct block *bl = &o->blocks[f->first_block];
   uint32_t n = g->n;
   bool ok = false;
   struct label_slot *labels = malloc(n * sizeof(*labels));
   size_t num_edges = 0;
   for (uint32_t b = 0; b < n; b++)
      num_edges += bl[b].num_edges;
   g->succ = malloc((num_edges + 1) * sizeof(*g->succ));
   g->pred = malloc((num_edges + 1) * sizeof(*g->pred));
   g->succ_first = calloc(n + 2, sizeof(*g->succ_first));
   g->pred_first = calloc(n + 2, sizeof(*g->pred_first));
   if (!labels || !g->succ || !g->pred || !g->succ_first || !g->pred_first)
      goto out;
   for (uint32_t b = 0; b < n; b++)
      labels[b] = (struct label_slot){ bl[b].label, b };
   qsort(labels, n, sizeof(*labels), cmp_label);
   for (uint32_t b = 1; b < n; b++)
      if (labels[b].label == labels[b - 1].label)
         goto out;
   size_t e = 0;
   for (uint32_t b = 0; b < n; b++) {
      g->succ_first[b] = (uint32_t)e;
      for (uint32_t k = 0; k < bl[b].num_edges; k++) {
         struct label_slot key = { o->edges[bl[b].first_edge + k], 0 };
         struct label_slot *hit = bsearch(&key, labels, n, sizeof(*labels), cmp_label);
         if (!hit)
            goto out;
         g->succ[e++] = hit->block;
         g->pred_first[hit->block + 1]++;
      }
   }
   g->succ_first[n] = (uint32_t)e;
   for (uint32_t b = 0; b < n; b++)
      g->pred_first[b + 1] += g->pred_first[b];
   uint32_t *fill = calloc(n + 1, sizeof(*fill));
   if (!fill)
      goto out;
   for (uint32_t b = 0; b < n; b++)
      for (uint32_t k = g->succ_first[b]; k < g->succ_first[b + 1]; k++) {
         uint32_t s = g->succ[k];
         g->pred[g->pred_first[s] + fill[s]++] = b;
      }
   free(fill);
   ok = true;
out:
   free(labels);
   return ok;
}

/* Depth-first from `root` over successors, marking `seen`; appends each block to `post` as
 * it finishes (when post is not NULL). Iterative: a function may have thousands of blocks
 * in a chain. `stack` and `next` hold n entries. */
static void
dfs(const struct graph *g, uint32_t root, bool *seen, uint32_t *stack, uint32_t *next,
    uint32_t *post, uint32_t *num_post)
{
   uint32_t depth = 0;
   seen[root] = true;
   stack[depth] = root;
   next[depth++] = g->succ_first[root];
   while (depth) {
      uint32_t b = stack[depth - 1];
      if (next[depth - 1] < g->succ_first[b + 1]) {
         uint32_t s = g->succ[next[depth - 1]++];
         if (!seen[s]) {
            seen[s] = true;
            stack[depth] = s;
            next[depth++] = g->succ_first[s];
         }
         continue;
      }
      if (post)
         post[(*num_post)++] = b;
      depth--;
   }
}

/* The pseudo entry's successors (SPIRV-Tools' TraversalRoots) and the reverse postorder of
 * the augmented graph, the pseudo entry first. */
static bool
graph_order(struct graph *g)
{
   uint32_t n = g->n;
   bool ok = false;
   bool *seen = calloc(n, sizeof(*seen));
   uint32_t *stack = malloc(n * sizeof(*stack)), *next = malloc(n * sizeof(*next));
   uint32_t *post = malloc(n * sizeof(*post));
   g->roots = malloc(n * sizeof(*g->roots));
   g->rpo = malloc((n + 1) * sizeof(*g->rpo));
   g->rpo_num = malloc((n + 1) * sizeof(*g->rpo_num));
   if (!seen || !stack || !next || !post || !g->roots || !g->rpo || !g->rpo_num)
      goto out;
   for (uint32_t b = 0; b < n; b++)
      if (g->pred_first[b] == g->pred_first[b + 1]) {
         g->roots[g->num_roots++] = b;
         dfs(g, b, seen, stack, next, NULL, NULL);
      }
   for (uint32_t b = 0; b < n; b++)
      if (!seen[b]) {
         g->roots[g->num_roots++] = b;
         dfs(g, b, seen, stack, next, NULL, NULL);
      }
   /* The postorder of the pseudo entry's depth-first search: its successors in order. */
   memset(seen, 0, n * sizeof(*seen));
   uint32_t num_post = 0;
   for (uint32_t r = 0; r < g->num_roots; r++)
      if (!seen[g->roots[r]])
         dfs(g, g->roots[r], seen, stack, next, post, &num_post);
   g->rpo[0] = n;
   for (uint32_t k = 0; k < num_post; k++)
      g->rpo[k + 1] = post[num_post - 1 - k];
   for (uint32_t k = 0; k <= n; k++)
      g->rpo_num[g->rpo[k]] = k;
   ok = num_post == n;
out:
   free(seen);
   free(stack);
   free(next);
   free(post);
   return ok;
}

static uint32_t
intersect(const struct graph *g, uint32_t a, uint32_t b)
{
   while (a != b) {
      while (g->rpo_num[a] > g->rpo_num[b])
         a = g->idom[a];
      while (g->rpo_num[b] > g->rpo_num[a])
         b = g->idom[b];
   }
   return a;
}

/* Immediate dominators (Cooper, Harvey and Kennedy): idom[b] for every block, the pseudo
 * entry (n) for the roots. */
static bool
graph_dominators(struct graph *g)
{
   uint32_t n = g->n;
   g->idom = malloc((n + 1) * sizeof(*g->idom));
   if (!g->idom)
      return false;
   for (uint32_t b = 0; b <= n; b++)
      g->idom[b] = NONE;
   g->idom[n] = n;
   for (uint32_t r = 0; r < g->num_roots; r++)
      g->idom[g->roots[r]] = n;
   for (bool changed = true; changed;) {
      changed = false;
      for (uint32_t k = 1; k <= n; k++) {
         uint32_t b = g->rpo[k];
         if (g->idom[b] == n)
            continue; /* a root: the pseudo entry is its only predecessor that counts */
         uint32_t d = NONE;
         for (uint32_t p = g->pred_first[b]; p < g->pred_first[b + 1]; p++) {
            uint32_t q = g->pred[p];
            if (g->idom[q] != NONE)
               d = d == NONE ? q : intersect(g, q, d);
         }
         if (d != NONE && d != g->idom[b]) {
            g->idom[b] = d;
            changed = true;
         }
      }
   }
   return true;
}

/* The new order of the blocks into `order` (n entries): module order, except that a block
 * whose immediate dominator is not yet placed waits, and is placed (with the blocks waiting
 * on it in turn) right after that dominator. True when it differs from module order. */
static bool
place_blocks(const struct graph *g, uint32_t *order, uint32_t *waiting_first,
             uint32_t *waiting_next, uint32_t *waiting_last, bool *placed, uint32_t *stack)
{
   uint32_t n = g->n, num = 0;
   for (uint32_t b = 0; b < n; b++) {
      waiting_first[b] = waiting_last[b] = waiting_next[b] = NONE;
      placed[b] = false;
   }
   for (uint32_t b = 0; b < n; b++) {
      uint32_t d = g->idom[b];
      if (d != n && !placed[d]) {
         if (waiting_last[d] == NONE)
            waiting_first[d] = b;
         else
            waiting_next[waiting_last[d]] = b;
         waiting_last[d] = b;
         continue;
      }
      uint32_t depth = 0;
      stack[depth++] = b;
      while (depth) {
         uint32_t x = stack[--depth];
         order[num++] = x;
         placed[x] = true;
         /* Pushed last to first so that they come out in module order. */
         uint32_t count = 0;
         for (uint32_t w = waiting_first[x]; w != NONE; w = waiting_next[w])
            count++;
         uint32_t k = depth + count;
         for (uint32_t w = waiting_first[x]; w != NONE; w = waiting_next[w])
            stack[--k] = w;
         depth += count;
      }
   }
   for (uint32_t b = 0; b < n; b++)
      if (order[b] != b)
         return true;
   return false;
}

/* Moves f's blocks into `order` in w[]; the words from its first OpLabel to its
 * OpFunctionEnd are the blocks, each from its OpLabel to the next. */
static bool
move_blocks(uint32_t *w, const struct order *o, const struct function *f,
            const uint32_t *order)
{
   const struct block *bl = &o->blocks[f->first_block];
   size_t start = bl[0].at, words = f->end - start, out = 0;
   uint32_t *copy = malloc(words * sizeof(*copy));
   if (!copy)
      return false;
   for (size_t k = 0; k < f->num_blocks; k++) {
      uint32_t b = order[k];
      size_t end = b + 1 < f->num_blocks ? bl[b + 1].at : f->end;
      memcpy(&copy[out], &w[bl[b].at], (end - bl[b].at) * sizeof(*copy));
      out += end - bl[b].at;
   }
   memcpy(&w[start], copy, words * sizeof(*copy));
   free(copy);
   return true;
}

/* Reorders f's blocks when they are out of dominance order. */
static void
order_function(uint32_t *w, const struct order *o, const struct function *f)
{
   if (f->broken || f->num_blocks < 2 || !f->end || f->num_blocks >= NONE)
      return;
   struct graph g = { .n = (uint32_t)f->num_blocks };
   uint32_t n = g.n;
   uint32_t *order = malloc(n * sizeof(*order)), *stack = malloc(n * sizeof(*stack));
   uint32_t *wf = malloc(n * sizeof(*wf)), *wn = malloc(n * sizeof(*wn));
   uint32_t *wl = malloc(n * sizeof(*wl));
   bool *placed = malloc(n * sizeof(*placed));
   /* A branch to the first block is invalid (SPIR-V 2.16.1); reordering could hide it by
    * making another block the entry. */
   if (order && stack && wf && wn && wl && placed && graph_edges(o, f, &g) &&
       g.pred_first[0] == g.pred_first[1] && graph_order(&g) && graph_dominators(&g) &&
       place_blocks(&g, order, wf, wn, wl, placed, stack))
      move_blocks(w, o, f, order);
   graph_free(&g);
   free(order);
   free(stack);
   free(wf);
   free(wn);
   free(wl);
   free(placed);
}

void
comp__spirv_order_blocks(uint32_t *words, size_t num_words)
{
   struct order o = { .cursor = 5 };
   spv_context ctx = spvContextCreate(SPV_ENV_UNIVERSAL_1_4);
   if (!ctx)
      return;
   spv_diagnostic diag = NULL;
   spv_result_t r = spvBinaryParse(ctx, &o, words, num_words, on_header, on_instruction, &diag);
   spvDiagnosticDestroy(diag);
   spvContextDestroy(ctx);
   if (r == SPV_SUCCESS)
      for (size_t k = 0; k < o.num_fns; k++)
         order_function(words, &o, &o.fns[k]);
   free(o.blocks);
   free(o.edges);
   free(o.fns);
}
