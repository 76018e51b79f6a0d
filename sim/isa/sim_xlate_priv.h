/*
 * The translator's parts (docs/sim.md "Speed"): sim_xlate.c (the block former, the IR
 * lowering, compiling, the cache look-up and the checking mode) and sim_xlate_worker.c
 * (the compile worker, the process's exit and fork).
 */
#ifndef SIM_XLATE_PRIV_H
#define SIM_XLATE_PRIV_H

#include <pthread.h>
#include "sim_isa_priv.h"

/* Longest block in instructions (the compile budget may cut it shorter). */
#define SIM_XLATE_MAX_INSTS 64

/* Block entries per dword of the program. `fn` is published with a release store. */
typedef void (*sim_xlate_fn)(sim_wave *w, uint32_t (*v)[64]);
enum { XL_ENT_COLD = 0, XL_ENT_DONE = 1, XL_ENT_NEVER = 2, XL_ENT_QUEUED = 3 };
typedef struct sim_xlate_ent {
   sim_xlate_fn fn;
   uint32_t hits;  /* relaxed atomics: an estimate is enough */
   uint32_t state; /* XL_ENT_* */
   /* What entering the block asks of the wave (checked before every run). */
   uint16_t max_vgpr; /* highest VGPR a lowered instruction names, +1 */
   uint8_t needs_f32; /* lowered f32 arithmetic: MODE must keep f32 denormals */
   uint8_t n;         /* instructions the block runs (the compile budget may cut it) */
   uint8_t lanes;     /* the wave size it is compiled for: set by whoever takes the cold
                       * entry (the wave that queues or compiles it), from that wave */
   uint16_t len;      /* instructions the block would hold, counted once it has become hot
                       * (the work threshold weighs its runs by it); 0 before */
} sim_xlate_ent;

/* The entry of the block at `pc` of `p`, NULL before the program has one (tests). */
const sim_xlate_ent *sim__xlate_entry(const sim_program *p, uint64_t pc);

/* The JIT (compiles, removals of a program's code). */
extern pthread_mutex_t sim__xlate_jit_lock;
/* HSACL_SIM_XLATE_STALL_MS (tests): the worker waits that long before each compile. */
extern uint32_t sim__xlate_stall_ms;

/* Compiles the block `insts[0..n)` at `pc` of `p` (takes the JIT lock); fills the entry's
 * entry conditions, which the caller publishes with its state. NULL: interpret it. */
sim_xlate_fn sim__xlate_compile(sim_program *p, uint64_t pc, sim_xlate_ent *e,
                                const sim_inst *const *insts, unsigned n);
/* One throw-away compile of a small block holding every kind of IR the lowering emits, on
 * the calling thread: the static objects LLVM builds lazily during a compile (instruction
 * selection's tables, pass registries) exist, and are registered for destruction at exit,
 * before anything registered after this call. */
void sim__xlate_warm(void);

/* The compile worker (sim_xlate_worker.c). Hands the hot block at `pc` to the worker (the
 * first call warms LLVM up, registers the exit and fork handlers and starts the worker);
 * the wave goes on interpreting. */
void sim__xlate_enqueue(sim_wave *w, sim_program *p, uint64_t pc, sim_xlate_ent *e);
/* Before the checking mode's first compile on a wave's thread: the same warm-up and exit
 * handler as the worker's. */
void sim__xlate_start(void);
/* A child of fork: it compiles nothing and leaves the inherited JIT alone (the worker's
 * fork handler says why). */
extern bool sim__xlate_forked;
/* Takes the program's blocks out of the queue and waits for the one the worker holds. */
void sim__xlate_q_drop(sim_program *p);

#endif
