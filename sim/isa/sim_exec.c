/*
 * The wave loop, faults, tracing and per-opcode execution counters.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "sim_isa_priv.h"

/* Counter array layout: [enc][op] executions, then [enc][op] active lanes (popcount of
 * EXEC when the instruction issues; for scalar encodings it is the lanes the wave had). */
#define SIM_COUNTS_N ((size_t)SIM_ENC_COUNT * SIM_OP_COUNT)

void (*sim__doorbell_hook)(uint64_t va);

/* After the instruction whose store reached a doorbell: the CP learns of it (sim_isa.h). */
static void
doorbell_written(sim_wave *w)
{
   uint64_t va = w->doorbell_va;
   w->doorbell_va = 0;
   atomic_thread_fence(memory_order_seq_cst);
   void (*hook)(uint64_t) = __atomic_load_n(&sim__doorbell_hook, __ATOMIC_ACQUIRE);
   if (hook)
      hook(va);
}

/* The instruction loop with the diagnostics (counters, trace). */
static void
wave_run_diag(sim_wave *w)
{
   uint64_t pc = w->pc;
   for (;;) {
      const sim_inst *in = sim__fetch_fast(w, pc);
      if (SIM_UNLIKELY(!in))
         return;
      w->inst_pc = pc;
      w->pc = pc + in->size;
      if (w->counts != NULL) {
         size_t i = (size_t)in->enc * SIM_OP_COUNT + in->op;
         w->counts[i]++;
         w->counts[SIM_COUNTS_N + i] += (uint64_t)__builtin_popcountll(SIM_EXEC(w));
      }
      in->fn(w, in);
      if (w->trace)
         sim__trace_inst(w, in);
      if (SIM_UNLIKELY(w->doorbell_va))
         doorbell_written(w);
      if (SIM_UNLIKELY(w->status != SIM_WAVE_RUNNING))
         return;
      pc = w->pc;
   }
}

void
sim__wave_run(sim_wave *w)
{
   w->status = SIM_WAVE_RUNNING;
   if (SIM_UNLIKELY(w->counts != NULL || w->trace)) {
      wave_run_diag(w);
      return;
   }
   /* Without diagnostics: one test after each instruction for the rare events (a store
    * reached a doorbell, the wave stopped). With HSACL_SIM_XLATE, a translated block may
    * run in place of the instructions from `pc` on (sim_xlate.c). */
   int mode = __atomic_load_n(&sim__xlate_mode, __ATOMIC_ACQUIRE);
   if (SIM_UNLIKELY(mode < 0)) {
      sim__xlate_init();
      mode = __atomic_load_n(&sim__xlate_mode, __ATOMIC_ACQUIRE);
   }
   const bool xlate = mode != 0;
   uint64_t pc = w->pc;
   bool leader = true;
   for (;;) {
      const sim_inst *in = sim__fetch_fast(w, pc);
      if (SIM_UNLIKELY(!in))
         return;
      /* Only a leader looks for a block: one inside a block the wave is interpreting (its
       * own not compiled yet) waits for the block's end, where the next PC is a leader. A
       * lookup at every interpreted instruction was a fifth of interpreted vadd's host
       * instructions (callgrind, the prologues and the entry loads). */
      if (xlate && leader && sim__xlate_run(w, pc, true)) {
         leader = true;
         if (SIM_UNLIKELY(w->status != SIM_WAVE_RUNNING || w->doorbell_va)) {
            if (w->doorbell_va)
               doorbell_written(w);
            if (w->status != SIM_WAVE_RUNNING)
               return;
         }
         pc = w->pc;
         continue;
      }
      w->inst_pc = pc;
      w->pc = pc + in->size;
      in->fn(w, in);
      if (xlate)
         leader = sim__xlate_ends_block(in);
      if (SIM_UNLIKELY(w->status != SIM_WAVE_RUNNING || w->doorbell_va)) {
         if (w->doorbell_va)
            doorbell_written(w);
         if (w->status != SIM_WAVE_RUNNING)
            return;
      }
      pc = w->pc;
   }
}

bool
sim__wave_run_xlate(sim_wave *w)
{
   /* Not a leader's lookup: when no block is ready here, sim__wave_run's own lookup counts
    * this PC towards hotness, once. The PC must be in the wave's program (a wave's first PC
    * is where its work-group's program was last fetched from, nearly always). */
   const sim_program *p = w->prog;
   if (!p || w->pc - p->va >= p->size || (w->pc & 3))
      return false;
   w->status = SIM_WAVE_RUNNING;
   if (!sim__xlate_run(w, w->pc, false))
      return false;
   if (SIM_UNLIKELY(w->doorbell_va))
      doorbell_written(w);
   return true;
}

void
sim__fault(sim_wave *w, sim_fault_kind kind, uint64_t address, const char *fmt, ...)
{
   w->status = SIM_WAVE_FAULT;
   sim_disp *d = w->wg ? w->wg->disp : NULL;
   sim_fault local, *f = &local;
   if (d) {
      int expected = 0;
      if (!atomic_compare_exchange_strong(&d->faulted, &expected, 1))
         return; /* another wave reported first */
      f = &d->fault;
   }
   f->kind = kind;
   f->address = address;
   f->pc = w->inst_pc;
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(f->message, sizeof(f->message), fmt, ap);
   va_end(ap);
   if (getenv("HSACL_SIM_VERBOSE"))
      fprintf(stderr, "hsacl-sim: fault: %s (pc 0x%llx)\n", f->message,
              (unsigned long long)f->pc);
}

void
sim__fault_illegal(sim_wave *w, const sim_inst *in, const char *why)
{
   char dis[128];
   sim__disasm(in, dis, sizeof(dis));
   sim__fault(w, SIM_FAULT_ILLEGAL_INSTRUCTION, 0, "%s at pc 0x%llx: %s", why,
              (unsigned long long)w->inst_pc, dis);
}

/* ---- Trace --------------------------------------------------------------------------- */

static bool
is_vector_dst(const sim_inst *in)
{
   switch (in->enc) {
   case SIM_ENC_VOP1:
   case SIM_ENC_VOP2:
   case SIM_ENC_VOP3:
   case SIM_ENC_VOP3P:
   case SIM_ENC_VOP1_SDWA:
   case SIM_ENC_VOP2_SDWA:
   case SIM_ENC_VOP1_DPP:
   case SIM_ENC_VOP2_DPP:
      return in->op != SIM_OP_v_readlane_b32 && in->op != SIM_OP_v_readfirstlane_b32;
   case SIM_ENC_DS:
   case SIM_ENC_FLAT:
   case SIM_ENC_GLOBAL:
   case SIM_ENC_SCRATCH:
      return strstr(sim__op_names[in->op], "load") || strstr(sim__op_names[in->op], "read") ||
             (in->flags & SIM_IF_GLC) || strstr(sim__op_names[in->op], "rtn");
   case SIM_ENC_MUBUF:
      return strstr(sim__op_names[in->op], "load") != NULL;
   default:
      return false;
   }
}

void
sim__trace_inst(sim_wave *w, const sim_inst *in)
{
   char dis[160];
   sim__disasm(in, dis, sizeof(dis));
   FILE *f = stderr;
   fprintf(f, "[wg %u,%u,%u w%u] %012llx: %s", w->wg ? w->wg->id[0] : 0,
           w->wg ? w->wg->id[1] : 0, w->wg ? w->wg->id[2] : 0, w->id,
           (unsigned long long)w->inst_pc, dis);
   if (in->enc <= SIM_ENC_SMEM && in->vdst != SIM_SRC_NONE && in->enc != SIM_ENC_SOPP &&
       in->enc != SIM_ENC_SOPC && in->vdst < 128)
      fprintf(f, "  s%u=%08x s%u=%08x", in->vdst, w->s[in->vdst], in->vdst + 1,
              in->vdst < 127 ? w->s[in->vdst + 1] : 0);
   if (in->enc <= SIM_ENC_SOPP)
      fprintf(f, " scc=%u", w->scc);
   if (in->sdst != SIM_SRC_NONE && in->sdst < 127 && (in->flags & SIM_IF_VALU))
      fprintf(f, "  s%u=%08x%08x", in->sdst, w->s[in->sdst + 1], w->s[in->sdst]);
   if (in->op == SIM_OP_v_readlane_b32 || in->op == SIM_OP_v_readfirstlane_b32)
      fprintf(f, "  s%u=%08x", in->vdst, in->vdst < 128 ? w->s[in->vdst] : 0);
   fprintf(f, "  exec=%016llx\n", (unsigned long long)SIM_EXEC(w));
   if (is_vector_dst(in) && in->vdst < w->nvgpr) {
      fprintf(f, "    v%u:", in->vdst);
      for (unsigned l = 0; l < 64; l++)
         if ((SIM_EXEC(w) >> l) & 1)
            fprintf(f, " %u:%08x", l, w->v[in->vdst][l]);
      fputc('\n', f);
   }
}

/* ---- Execution counters ------------------------------------------------------------- */

static pthread_mutex_t counts_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t *counts_total;
static const char *counts_path;
static pthread_once_t counts_once = PTHREAD_ONCE_INIT;
static pthread_key_t counts_key;

static void
counts_write(void)
{
   pthread_mutex_lock(&counts_lock);
   FILE *f = counts_total ? fopen(counts_path, "w") : NULL;
   if (f) {
      for (size_t e = 0; e < SIM_ENC_COUNT; e++)
         for (size_t o = 1; o < SIM_OP_COUNT; o++)
            if (counts_total[e * SIM_OP_COUNT + o])
               fprintf(f, "%s:%s %llu %llu\n", sim__enc_names[e], sim__op_names[o],
                       (unsigned long long)counts_total[e * SIM_OP_COUNT + o],
                       (unsigned long long)counts_total[SIM_COUNTS_N + e * SIM_OP_COUNT + o]);
      fclose(f);
   }
   pthread_mutex_unlock(&counts_lock);
}

static void
counts_setup(void)
{
   counts_path = getenv("HSACL_SIM_COUNTS");
   if (counts_path && *counts_path) {
      counts_total = calloc(2 * SIM_COUNTS_N, sizeof(uint64_t));
      pthread_key_create(&counts_key, free);
      atexit(counts_write);
   }
}

void
sim__counts_init(void)
{
   pthread_once(&counts_once, counts_setup);
}

/* The calling thread's counter array (NULL when counting is off). */
uint64_t *
sim__counts_thread(void)
{
   sim__counts_init();
   if (!counts_total)
      return NULL;
   uint64_t *c = pthread_getspecific(counts_key);
   if (!c) {
      c = calloc(2 * SIM_COUNTS_N, sizeof(uint64_t));
      pthread_setspecific(counts_key, c);
   }
   return c;
}

/* Adds a thread's counters to the totals, clears them and rewrites the counts file. */
void
sim__counts_flush(uint64_t *counts)
{
   if (!counts || !counts_total)
      return;
   pthread_mutex_lock(&counts_lock);
   for (size_t i = 0; i < 2 * SIM_COUNTS_N; i++) {
      counts_total[i] += counts[i];
      counts[i] = 0;
   }
   pthread_mutex_unlock(&counts_lock);
}

void sim__counts_write(void);
void
sim__counts_write(void)
{
   if (counts_total)
      counts_write();
}
