/*
 * Kernel dispatch: kernel descriptor, work-group scheduling on a pool of host threads,
 * initial wave state ([AMDGPUUsage] "Kernel Descriptor", "Initial Kernel Execution
 * State", "Flat Scratch", "Private Segment Buffer") and barriers.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include "sim_isa_priv.h"

#define SIM_MAX_WAVES SIM_WG_MAX_WAVES
#define VGPR_FILE_BYTES ((size_t)SIM_MAX_WAVES * SIM_WAVE_ROWS * 256)

/* kernel_code_properties bits ([AMDGPUUsage] "Kernel Descriptor"). */
enum {
   KCP_PRIVATE_SEGMENT_BUFFER = 1 << 0,
   KCP_DISPATCH_PTR = 1 << 1,
   KCP_QUEUE_PTR = 1 << 2,
   KCP_KERNARG_SEGMENT_PTR = 1 << 3,
   KCP_DISPATCH_ID = 1 << 4,
   KCP_FLAT_SCRATCH_INIT = 1 << 5,
   KCP_PRIVATE_SEGMENT_SIZE = 1 << 6,
   KCP_WAVEFRONT_SIZE32 = 1 << 10, /* gfx10+ */
   KCP_USES_DYNAMIC_STACK = 1 << 11,
};

/* Stack allowance per work-item for kernels that use a dynamically sized stack and whose
 * packet asks for less (the OpenCL driver does not know the call depth). */
#define SIM_DYNAMIC_STACK 16384u

unsigned
sim__nthreads(void)
{
   const char *e = getenv("HSACL_SIM_THREADS");
   long n = e && *e ? strtol(e, NULL, 10) : sysconf(_SC_NPROCESSORS_ONLN);
   if (n < 1)
      n = 1;
   if (n > 256)
      n = 256;
   return (unsigned)n;
}

/* ---- Per-thread work-group context ------------------------------------------------- */

/* A work-group's home on a host thread: its waves, VGPRs, LDS and (without the queue's
 * scratch) private memory. A thread has one, and more while every work-group it holds waits
 * on GWS (run_workgroups_ex): a compute unit holds several work-groups at once. */
typedef struct sim_tctx {
   sim_wg wg;
   bool live;             /* holds a work-group that has not ended */
   sim_wave waves[SIM_MAX_WAVES];
   uint32_t (*vgprs)[64]; /* SIM_MAX_WAVES * SIM_WAVE_ROWS rows */
   uint8_t *lds;
   uint8_t *scratch;
   uint64_t scratch_cap;
   struct sim_l1 *l1; /* checking mode: this thread's vector L1 (the thread's first only) */
   struct sim_tctx **extra; /* the thread's further homes, kept for later dispatches */
   unsigned nextra;
   /* sim_disp.dispatch_id + 1 of the dispatch whose invariant state the work-group record
    * and wave slots hold (home_begin); 0: none yet. */
   uint64_t disp_seq;
   /* The work-item id rows (TID_ROWS a wave slot, `tid_nrows` of them used) and EXEC each
    * wave of a full-size work-group of that dispatch starts with: the same in every such
    * work-group (home_begin computes them, wave_init copies them). NULL: out of memory. */
   uint32_t (*tid_rows)[64];
   uint64_t tid_exec[SIM_MAX_WAVES];
   unsigned tid_nrows;
} sim_tctx;

#define TID_ROWS 3u

static pthread_key_t tctx_key;
static pthread_once_t tctx_once = PTHREAD_ONCE_INIT;

static void
tctx_free(void *p)
{
   sim_tctx *t = p;
   if (!t)
      return;
   for (unsigned i = 0; i < t->nextra; i++)
      tctx_free(t->extra[i]);
   free(t->extra);
   if (t->vgprs)
      munmap(t->vgprs, VGPR_FILE_BYTES);
   free(t->lds);
   free(t->scratch);
   sim__l1_free(t->l1);
   sim__mimg_memo_free(t->wg.mimg);
   free(t->tid_rows);
   free(t);
}

static void
tctx_key_init(void)
{
   pthread_key_create(&tctx_key, tctx_free);
}

static sim_tctx *
tctx_create(void)
{
   sim_tctx *t = calloc(1, sizeof(*t));
   if (!t)
      return NULL;
   /* Zeroed: a wave32 never writes lanes 32-63 of its rows, yet the handlers compute over
    * all 64 and mask the result with EXEC, which memcheck follows only approximately (the
    * examples' valgrind tests on gfx1030 reported the results as uninitialised). Mapped
    * rather than calloc'd: zero pages until a wave touches them (calloc from an arena would
    * write all 4 MiB, for every queue thread; api_leak saw it in the resident set). */
   void *v = mmap(NULL, VGPR_FILE_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                  -1, 0);
   t->vgprs = v == MAP_FAILED ? NULL : v;
   t->lds = malloc(65536);
   if (!t->vgprs || !t->lds) {
      tctx_free(t);
      return NULL;
   }
   return t;
}

static sim_tctx *
tctx_get(void)
{
   pthread_once(&tctx_once, tctx_key_init);
   sim_tctx *t = pthread_getspecific(tctx_key);
   if (t)
      return t;
   t = tctx_create();
   if (t)
      pthread_setspecific(tctx_key, t);
   return t;
}

/* A home of the thread whose first home is `t` that holds no work-group, or NULL (out of
 * host memory). */
static sim_tctx *
tctx_spare(sim_tctx *t)
{
   for (unsigned i = 0; i < t->nextra; i++)
      if (!t->extra[i]->live)
         return t->extra[i];
   sim_tctx **a = realloc(t->extra, (t->nextra + 1) * sizeof(*a));
   if (!a)
      return NULL;
   t->extra = a;
   sim_tctx *c = tctx_create();
   if (c)
      t->extra[t->nextra++] = c;
   return c;
}

/* ---- Initial state -------------------------------------------------------------------- */

/* Work-item id (x, y, z) of flat index `first` in a work-group sx wide and sy high. Wave 0
 * (every wave of a one-wave work-group) starts at 0 without the four divisions. */
static void
tid_of(uint32_t first, uint32_t sx, uint32_t sy, uint32_t *x, uint32_t *y, uint32_t *z)
{
   if (first < sx) {
      *x = first, *y = 0, *z = 0;
      return;
   }
   *x = first % sx, *y = (first / sx) % sy, *z = first / (sx * sy);
}

/* v0 = X | Y << 10 | Z << 20 of each lane's work-item of wave `id` of a work-group of
 * `size` into row `v0`; the IDs the descriptor does not enable
 * (COMPUTE_PGM_RSRC2.TIDIG_COMP_CNT) read 0. Returns the wave's EXEC. */
static uint64_t
tid_fill_packed(const sim_disp *d, const uint32_t size[3], unsigned id, uint32_t *v0)
{
   unsigned sx = size[0], sy = size[1];
   unsigned items = sx * sy * size[2];
   unsigned tid = (d->rsrc2 >> 11) & 3;
   unsigned lanes = d->lanes;
   unsigned first = id * lanes, live = items > first ? items - first : 0;
   live = live < lanes ? live : lanes;
   uint32_t x, y, z;
   tid_of(first, sx, sy, &x, &y, &z);
   uint32_t ymask = tid >= 1 ? 0x3FF : 0, zmask = tid >= 2 ? 0x3FF : 0;
   for (unsigned l = 0; l < 64; l++) {
      v0[l] = l < live ? x | (y & ymask) << 10 | (z & zmask) << 20 : 0;
      if (++x == sx) {
         x = 0;
         if (++y == sy)
            y = 0, z++;
      }
   }
   return live == 64 ? ~0ull : (1ull << live) - 1; /* lanes past `live` read 0 */
}

/* The user SGPRs of the dispatch's waves, dense from s0 in the order of the set-up table
 * ([AMDGPUUsage] "Initial Kernel Execution State"): the same for every wave but the private
 * segment buffer's size without the queue's scratch (wave_init patches it). */
static void
sgprs_init(sim_disp *d)
{
   const hsa_kernel_dispatch_packet_t *pk = d->packet;
   uint32_t *s = d->user_sgpr;
   unsigned n = 0;
   uint16_t k = d->kcode;
   memset(s, 0, sizeof(d->user_sgpr));
   d->scratch_size_sgpr = -1;
   if ((k & KCP_PRIVATE_SEGMENT_BUFFER) && d->qscratch) {
      /* The queue's V# (amd_queue_t.scratch_resource_descriptor), as the CP loads it. On
       * gfx10 the CP fills in INDEX_STRIDE from the dispatch's wave size (ROCr's
       * InitScratchSRD leaves it 0, "filled in by CP"): 2 (32) for wave32, 3 (64) for
       * wave64, so ADD_TID_ENABLE gives every lane its own dword column. */
      for (int i = 0; i < 4; i++)
         s[n++] = d->qscratch->srd[i];
      if (d->target->gfx_major >= 10)
         s[n - 1] = (s[n - 1] & ~(3u << 21)) | (d->lanes == 32 ? 2u : 3u) << 21;
   } else if (k & KCP_PRIVATE_SEGMENT_BUFFER) {
      /* Scratch V#, as ROCr's InitScratchSRD builds it for GFX9: base = scratch window,
       * SWIZZLE_ENABLE, ADD_TID_ENABLE, ELEMENT_SIZE = 4 bytes, INDEX_STRIDE = 64; for
       * GFX10 FORMAT = BUF_FMT_32_FLOAT, INDEX_STRIDE = the wave size, RESOURCE_LEVEL,
       * OOB_SELECT = 3 (raw). The size is the work-group's scratch (wave_init). */
      s[n++] = (uint32_t)SIM_SCRATCH_VA;
      s[n++] = (uint32_t)(SIM_SCRATCH_VA >> 32) | 1u << 31;
      d->scratch_size_sgpr = (int8_t)n++;
      if (d->target->gfx_major >= 10)
         s[n++] = 4u | 5u << 3 | 6u << 6 | 7u << 9 | 22u << 12 |
                  (d->lanes == 32 ? 2u : 3u) << 21 | 1u << 23 | 1u << 24 | 3u << 28;
      else
         s[n++] = 4u | 5u << 3 | 6u << 6 | 7u << 9 | 4u << 15 | 1u << 19 | 3u << 21 |
                  1u << 23;
   }
   if (k & KCP_DISPATCH_PTR) {
      s[n++] = (uint32_t)d->packet_va;
      s[n++] = (uint32_t)(d->packet_va >> 32);
   }
   if (k & KCP_QUEUE_PTR) {
      s[n++] = 0; /* amd_queue_t is not modelled; code object v5 does not read it */
      s[n++] = 0;
   }
   if (k & KCP_KERNARG_SEGMENT_PTR) {
      uint64_t ka = (uint64_t)(uintptr_t)pk->kernarg_address;
      s[n++] = (uint32_t)ka;
      s[n++] = (uint32_t)(ka >> 32);
   }
   if (k & KCP_DISPATCH_ID) {
      s[n++] = (uint32_t)d->dispatch_id;
      s[n++] = (uint32_t)(d->dispatch_id >> 32);
   }
   if (k & KCP_FLAT_SCRATCH_INIT) {
      /* GFX9 absolute flat scratch: the queue's scratch base; the kernel adds its wave
       * offset. */
      uint64_t base = d->qscratch ? d->qscratch->base : SIM_SCRATCH_VA;
      s[n++] = (uint32_t)base;
      s[n++] = (uint32_t)(base >> 32);
   }
   if (k & KCP_PRIVATE_SEGMENT_SIZE)
      s[n++] = d->priv_size;
   /* System SGPRs follow the USER_SGPR_COUNT user SGPRs (at most 31; the gap reads 0). */
   unsigned user = (d->rsrc2 >> 1) & 0x1F;
   d->nuser = (uint8_t)(user > n ? user : n);
}

/* MODE as COMPUTE_PGM_RSRC1 starts every wave of `d` (FLOAT_ROUND_MODE_32/16_64,
 * FLOAT_DENORM_MODE_32/16_64, DX10_CLAMP, IEEE_MODE), index mode off and an empty CSP. */
static void
mode_init(sim_disp *d)
{
   _Static_assert(offsetof(sim_wave, csp) == offsetof(sim_wave, round32) + 7,
                  "sim_wave's round32 .. csp are the eight bytes of mode_init");
   uint8_t m[8] = {(d->rsrc1 >> 12) & 3, (d->rsrc1 >> 14) & 3, (d->rsrc1 >> 16) & 3,
                   (d->rsrc1 >> 18) & 3, (d->rsrc1 >> 21) & 1, (d->rsrc1 >> 23) & 1,
                   false, 0};
   memcpy(d->mode_init, m, sizeof(m));
}

/* Lanes 0-63 of a VGPR row = 0, as sixteen 16-byte stores (rows are 256-byte aligned). Not
 * memset: GCC makes a clear of 256 bytes `rep stosq`, whose start-up cost a one-lane
 * work-group's set-up several times over (23% of copy1 in perf); a memset of 64 - live
 * lanes is a library call. Straight-line stores are not turned into either. */
static inline void
row_clear(uint32_t *row)
{
   typedef uint32_t v4 __attribute__((vector_size(16)));
   v4 *p = (v4 *)row, z = {0, 0, 0, 0};
   p[0] = z, p[1] = z, p[2] = z, p[3] = z, p[4] = z, p[5] = z, p[6] = z, p[7] = z;
   p[8] = z, p[9] = z, p[10] = z, p[11] = z, p[12] = z, p[13] = z, p[14] = z, p[15] = z;
}

/* Whether waves of `d` get a work-item id row for Y (for Z): the descriptor enables it
 * (COMPUTE_PGM_RSRC2.TIDIG_COMP_CNT) and the wave has the VGPR. */
static inline bool
tid_rows_y(const sim_disp *d, unsigned nvgpr)
{
   return ((d->rsrc2 >> 11) & 3) >= 1 && nvgpr > 1;
}

static inline bool
tid_rows_z(const sim_disp *d, unsigned nvgpr)
{
   return ((d->rsrc2 >> 11) & 3) >= 2 && nvgpr > 2;
}

/* The unpacked work-item ids of wave `id` of a work-group of `size`: X into row `vx`, Y and
 * Z into `vy` and `vz` when not NULL. Every lane of each row is written (lanes past the
 * last work-item read 0). Returns the wave's EXEC. */
static uint64_t
tid_fill(const sim_disp *d, const uint32_t size[3], unsigned id, uint32_t *vx, uint32_t *vy,
         uint32_t *vz)
{
   unsigned sx = size[0], sy = size[1];
   unsigned items = sx * sy * size[2];
   unsigned lanes = d->lanes;
   unsigned first = id * lanes, live = items > first ? items - first : 0;
   live = live < lanes ? live : lanes;
   /* Work-item id of lane 0, then counted up: no divisions per lane. Lanes past the last
    * work-item read 0. */
   uint32_t x, y, z;
   tid_of(first, sx, sy, &x, &y, &z);
   if (live == 64 && (sx == lanes || (sx >= items && vy == NULL))) {
      /* A full wave64 in one row of work-items (vadd's): a count, no select a lane (the
       * select was a third of wg_take's instructions in callgrind). */
      for (unsigned l = 0; l < 64; l++)
         vx[l] = x + l;
   } else if (sx == lanes || (sx >= items && vy == NULL)) {
      for (unsigned l = 0; l < 64; l++)
         vx[l] = l < live ? x + l : 0;
   } else {
      /* The live lanes only (a one-work-item work-group has one) over zeros. */
      if (live < 64)
         row_clear(vx);
      for (unsigned l = 0; l < live; l++) {
         vx[l] = x;
         if (++x == sx) {
            x = 0;
            if (++y == sy)
               y = 0, z++;
         }
      }
   }
   if (vy) {
      tid_of(first, sx, sy, &x, &y, &z);
      if (live < 64) {
         row_clear(vy);
         if (vz)
            row_clear(vz);
      }
      for (unsigned l = 0; l < live; l++) {
         vy[l] = y;
         if (vz)
            vz[l] = z;
         if (++x == sx) {
            x = 0;
            if (++y == sy)
               y = 0, z++;
         }
      }
   }
   return live == 64 ? ~0ull : (1ull << live) - 1; /* lanes past `live` read 0 */
}

/* Row `dst` = row `src`, as sixteen 16-byte moves (see row_clear). */
static inline void
row_copy(uint32_t *dst, const uint32_t *src)
{
   typedef uint32_t v4 __attribute__((vector_size(16)));
   v4 *p = (v4 *)dst;
   const v4 *q = (const v4 *)src;
   p[0] = q[0], p[1] = q[1], p[2] = q[2], p[3] = q[3], p[4] = q[4], p[5] = q[5];
   p[6] = q[6], p[7] = q[7], p[8] = q[8], p[9] = q[9], p[10] = q[10], p[11] = q[11];
   p[12] = q[12], p[13] = q[13], p[14] = q[14], p[15] = q[15];
}

/*
 * A wave's initial state. What the hardware sets is set: the user and system SGPRs the
 * descriptor enables, EXEC, the work-item id VGPRs (their inactive lanes read 0, so a wave32
 * leaves lanes 32-63 of its rows zero) and MODE from COMPUTE_PGM_RSRC1. The other SGPRs and
 * VGPRs are undefined on hardware and keep what the home's last wave left (VCC, M0 and the
 * like too); s[125], gfx10's null, stays 0 since writes to it are dropped. `tmpl`: the home
 * whose copies of a full-size work-group's id rows the wave starts with (the work-group is
 * of the dispatch's size), or NULL.
 */
static void
wave_init(sim_disp *d, sim_wg *wg, sim_wave *w, unsigned id, const sim_tctx *tmpl)
{
   /* What is the same for every wave of the dispatch in this slot is set by home_begin. */
   w->flat_scratch = 0;
   w->scc = 0;
   w->pc = d->entry;
   w->status = SIM_WAVE_RUNNING;
   w->doorbell_va = 0;
   w->slice = SIM_WAVE_SLICE;
   w->prog = wg->prog;
   memcpy(&w->round32, d->mode_init, sizeof(d->mode_init));
   w->trace = SIM_UNLIKELY(d->trace) && d->trace_wave == id && wg->id[0] == d->trace_wg[0] &&
              wg->id[1] == d->trace_wg[1] && wg->id[2] == d->trace_wg[2];

   /* All 32 dwords (those past nuser are 0 and the system SGPRs follow): a copy of a fixed
    * size is a few vector moves, one of nuser dwords was a `rep movsq` (12% of wg_take on
    * copy1, whose work-groups are one wave each). The SGPRs it covers past the system ones
    * are undefined on hardware. */
   unsigned n = d->nuser;
   _Static_assert(sizeof(d->user_sgpr) <= sizeof(w->s), "user SGPRs fit the file");
   memcpy(w->s, d->user_sgpr, sizeof(d->user_sgpr));
   if (d->scratch_size_sgpr >= 0)
      w->s[d->scratch_size_sgpr] = (uint32_t)wg->scratch_size;
   if ((d->rsrc2 >> 7) & 1)
      w->s[n++] = wg->id[0];
   if ((d->rsrc2 >> 8) & 1)
      w->s[n++] = wg->id[1];
   if ((d->rsrc2 >> 9) & 1)
      w->s[n++] = wg->id[2];
   if ((d->rsrc2 >> 10) & 1)
      w->s[n++] = (id == 0 ? 1u << 31 : 0) | wg->nwaves;
   if (d->rsrc2 & 1) /* private segment wave offset: the wave's slot (0 without one) */
      w->s[n++] = !d->qscratch          ? id * d->wave_scratch
                  : wg->scratch_slots ? wg->scratch_slot[id] * d->qscratch->wave_bytes
                                      : 0;

   /* VGPRs: work-item ids, unpacked (gfx906) or packed into v0 (gfx90a); a full-size
    * work-group's from the home's copies (home_begin). */
   if (tmpl) {
      const uint32_t(*r)[64] = tmpl->tid_rows + (size_t)id * TID_ROWS;
      for (unsigned k = 0; k < tmpl->tid_nrows; k++)
         row_copy(w->v[k], r[k]);
      SIM_EXEC(w) = tmpl->tid_exec[id];
      return;
   }
   uint32_t *vy = tid_rows_y(d, w->nvgpr) ? w->v[1] : NULL;
   uint32_t *vz = tid_rows_z(d, w->nvgpr) ? w->v[2] : NULL;
   SIM_EXEC(w) = d->target->packed_tid ? tid_fill_packed(d, wg->size, id, w->v[0])
                                       : tid_fill(d, wg->size, id, w->v[0], vy, vz);
}

/* ---- Watchdog ----------------------------------------------------------------------------
 * A dispatch that runs past HSACL_SIM_WATCHDOG seconds (default 60; 0 disables) is stopped as
 * the kernel driver's hang detection stops a queue that makes no progress: every wave of it
 * ends where it is, and the dispatch fails with SIM_FAULT_WATCHDOG, which the command
 * processor turns into a queue error (the driver fails the command and its dependants and
 * tells the context). Checked between wave turns and between work-groups. */

static uint64_t watchdog_ns;
static pthread_once_t watchdog_once = PTHREAD_ONCE_INIT;

static void
watchdog_init(void)
{
   const char *e = getenv("HSACL_SIM_WATCHDOG");
   double s = 60;
   if (e && *e) {
      char *end;
      double v = strtod(e, &end);
      if (end != e && !*end && v >= 0)
         s = v;
      else
         fprintf(stderr, "hsacl-sim: HSACL_SIM_WATCHDOG=%s is not a number of seconds; "
                 "using %g\n", e, s);
   }
   watchdog_ns = (uint64_t)(s * 1e9);
}

uint64_t
sim__watchdog_swap(uint64_t ns)
{
   pthread_once(&watchdog_once, watchdog_init);
   uint64_t old = watchdog_ns;
   watchdog_ns = ns;
   return old;
}

/* Clock `c` in ns. */
static uint64_t
clock_ns(clockid_t c)
{
   struct timespec ts;
   clock_gettime(c, &ts);
   return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The coarse clock (the last tick, a few ms old) is enough for a deadline in seconds and
 * costs no timer read: it is taken between work-groups and wave turns (vadd: 4% in perf
 * with CLOCK_MONOTONIC). */
static uint64_t
now_ns(void)
{
   return clock_ns(CLOCK_MONOTONIC_COARSE);
}

/* True (and the dispatch faulted) once its deadline has passed. */
static bool
watchdog_expired(sim_disp *d)
{
   if (!d->deadline_ns || now_ns() < d->deadline_ns)
      return false;
   int expected = 0;
   if (atomic_compare_exchange_strong(&d->faulted, &expected, 1)) {
      d->fault.kind = SIM_FAULT_WATCHDOG;
      snprintf(d->fault.message, sizeof(d->fault.message),
               "the dispatch ran past the watchdog's %.3g s (HSACL_SIM_WATCHDOG) and was "
               "stopped", (double)watchdog_ns / 1e9);
   }
   return true;
}

/* Runs the waves of one work-group round-robin, each for a turn: until s_barrier,
 * s_endpgm, s_sleep, a GWS wait or SIM_WAVE_SLICE taken backward branches. A barrier
 * releases when every wave that has not ended has reached it; a wave waiting on GWS goes on
 * when sim__gws_ready says so. True when the work-group is done (ended, faulted or stopped
 * by the watchdog); false when every wave left waits and some wait on GWS, which only
 * another work-group (or dispatch) can change. */
static bool
wg_run(sim_wg *wg)
{
   for (;;) {
      unsigned at_barrier = 0, gws = 0, live = 0;
      bool ran = false;
      for (unsigned i = 0; i < wg->nwaves; i++) {
         sim_wave *w = &wg->waves[i];
         if (w->status == SIM_WAVE_GWS && !sim__gws_ready(w))
            continue;
         if (w->status == SIM_WAVE_RUNNING || w->status == SIM_WAVE_YIELD) {
            sim__wave_run(w);
            ran = true;
         }
         if (w->status == SIM_WAVE_FAULT || atomic_load_explicit(&wg->disp->faulted,
                                                                  memory_order_relaxed))
            return true;
      }
      for (unsigned i = 0; i < wg->nwaves; i++) {
         if (wg->waves[i].status == SIM_WAVE_BARRIER)
            at_barrier++;
         if (wg->waves[i].status == SIM_WAVE_GWS)
            gws++;
         if (wg->waves[i].status != SIM_WAVE_ENDED)
            live++;
      }
      if (!live)
         return true;
      if (watchdog_expired(wg->disp))
         return true;
      if (at_barrier + gws < live)
         continue; /* some wave is still on its way to the barrier */
      if (gws) {
         if (!ran)
            return false;
         continue; /* look again whether a GWS wait is over */
      }
      for (unsigned i = 0; i < wg->nwaves; i++)
         if (wg->waves[i].status == SIM_WAVE_BARRIER)
            wg->waves[i].status = SIM_WAVE_RUNNING;
   }
}

/* The work-group's waves take slots of the queue's scratch (waiting for them), when the
 * kernel has private memory and the queue has scratch; without scratch their offsets are 0
 * and a private access faults where the queue's (absent) scratch would be. False (the
 * dispatch faulted) when the queue's scratch has fewer slots than the work-group has waves. */
static bool
queue_scratch_claim(sim_disp *d, sim_wg *wg)
{
   wg->scratch = NULL;
   wg->scratch_size = 0;
   wg->scratch_slots = 0;
   if (!d->wave_scratch || !d->qscratch->slots)
      return true;
   if (sim__scratch_claim(d->qscratch, wg->nwaves, wg->scratch_slot)) {
      wg->scratch_slots = wg->nwaves;
      return true;
   }
   int expected = 0;
   if (atomic_compare_exchange_strong(&d->faulted, &expected, 1)) {
      d->fault.kind = SIM_FAULT_OUT_OF_RESOURCES;
      snprintf(d->fault.message, sizeof(d->fault.message),
               "a work-group of %u waves does not fit the queue's %u scratch wave slots",
               wg->nwaves, d->qscratch->slots);
   }
   return false;
}

/* Open dispatches (the pool's list), read without the lock to decide whether to rotate. */
static _Atomic unsigned pool_open;

static void
fault_oom(sim_disp *d, const char *what)
{
   int expected = 0;
   if (atomic_compare_exchange_strong(&d->faulted, &expected, 1)) {
      d->fault.kind = SIM_FAULT_OUT_OF_RESOURCES;
      snprintf(d->fault.message, sizeof(d->fault.message), "%s", what);
   }
}

enum { TAKE_STARTED = 1, TAKE_BUSY = 0, TAKE_NONE = -1, TAKE_FAULT = -2 };

/* Host threads of the pool (the workers and a dispatching thread). */
static unsigned pool_threads = 1;

/* Work-groups a thread claims with one atomic add on the dispatch's counter: a share of
 * those left (1/8 of a thread's part, guided self-scheduling, so the last claims are single
 * work-groups and the threads end together), at most the thread's cap. The cap starts at
 * SIM_WG_BATCH and follows how long the thread's last batch ran: doubled (up to
 * SIM_WG_BATCH_MAX) when it ran under SIM_BATCH_SHORT_NS, halved when it ran past
 * SIM_BATCH_LONG_NS, so a batch lasts about a millisecond whatever a work-group costs. Short
 * work-groups then go to each thread in runs of hundreds: with 32 at a time two threads
 * took turns every 8 KB of a vector add's arrays, and each thread's share ran a third
 * slower than alone (vadd in 64-work-item groups, both threads: 0.80 ms a launch against
 * 0.53 with runs of 512). The watchdog, looked at between claims, still sees a long
 * dispatch within a few batches. One at a time for a GWS dispatch (each is counted
 * resident as it is taken) and while other dispatches are open (a thread moves on after
 * one work-group). */
#define SIM_WG_BATCH 32u
#define SIM_WG_BATCH_MAX 4096u
#define SIM_BATCH_SHORT_NS 250000u
#define SIM_BATCH_LONG_NS 2000000u

/* Work-groups claimed and not yet started: [next, end); `id` is the id of `next`. `cap`:
 * the thread's largest claim now (0 before the first), `claimed_ns` when it last claimed. */
typedef struct wg_batch {
   uint64_t next, end;
   uint32_t id[3];
   uint32_t cap;
   uint64_t claimed_ns;
} wg_batch;

/* The cap of the thread's next claim, from how long its last batch ran. */
static uint32_t
batch_cap(wg_batch *b)
{
   /* Not the coarse clock: its ticks (a few ms) are longer than a batch. */
   uint64_t now = clock_ns(CLOCK_MONOTONIC);
   if (!b->cap)
      b->cap = SIM_WG_BATCH;
   else if (now - b->claimed_ns < SIM_BATCH_SHORT_NS && b->cap < SIM_WG_BATCH_MAX)
      b->cap *= 2;
   else if (now - b->claimed_ns > SIM_BATCH_LONG_NS && b->cap > 1)
      b->cap /= 2;
   b->claimed_ns = now;
   return b->cap;
}

/* Claims work-groups of `d` into the empty batch `b`; false when none is left. */
static bool
batch_claim(sim_disp *d, wg_batch *b)
{
   uint64_t n = 1;
   if (!d->gws && atomic_load_explicit(&pool_open, memory_order_relaxed) <= 1) {
      uint64_t seen = atomic_load_explicit(&d->next_wg, memory_order_relaxed);
      uint64_t left = seen < d->nwg_total ? d->nwg_total - seen : 0;
      uint32_t cap = batch_cap(b);
      n = left / (8u * pool_threads);
      n = n < 1 ? 1 : n > cap ? cap : n;
   }
   uint64_t i = atomic_fetch_add_explicit(&d->next_wg, n, memory_order_relaxed);
   if (i >= d->nwg_total)
      return false;
   b->next = i;
   b->end = d->nwg_total - i < n ? d->nwg_total : i + n;
   b->id[0] = (uint32_t)(i % d->nwg[0]);
   b->id[1] = (uint32_t)((i / d->nwg[0]) % d->nwg[1]);
   b->id[2] = (uint32_t)(i / ((uint64_t)d->nwg[0] * d->nwg[1]));
   return true;
}

/* The next work-group of batch `b` into `id` (the batch is not empty). */
static void
batch_next(const sim_disp *d, wg_batch *b, uint32_t id[3])
{
   memcpy(id, b->id, sizeof(b->id));
   b->next++;
   if (++b->id[0] == d->nwg[0]) {
      b->id[0] = 0;
      if (++b->id[1] == d->nwg[1])
         b->id[1] = 0, b->id[2]++;
   }
}

/* What stays the same in home `t` for every work-group of `d` the calling thread runs there:
 * the work-group record's dispatch and LDS, and of each wave slot its VGPR rows, id,
 * sizes and counters, and the id rows of a full-size work-group's waves. Set on the first
 * work-group of `d` in `t`; nothing the waves run writes these. */
static void
home_begin(sim_disp *d, sim_tctx *t, uint64_t *counts)
{
   sim_wg *wg = &t->wg;
   wg->disp = d;
   wg->lds = t->lds;
   wg->lds_size = d->lds_size;
   wg->waves = t->waves;
   for (unsigned id = 0; id < d->wg_waves; id++) {
      sim_wave *w = &t->waves[id];
      w->v = t->vgprs + (size_t)id * SIM_WAVE_ROWS;
      w->nvgpr = d->nvgpr;
      w->nagpr = d->nagpr;
      w->target = d->target;
      w->lanes = (uint8_t)d->lanes;
      w->lane_mask = d->lanes == 64 ? ~0ull : 0xFFFFFFFFull;
      w->id = id;
      w->wg = wg;
      w->counts = counts;
      w->regs_dead_at_end = true;
   }
   t->disp_seq = d->dispatch_id + 1;
   /* The id rows of a full-size work-group's waves. */
   if (!t->tid_rows)
      t->tid_rows = aligned_alloc(64, (size_t)SIM_MAX_WAVES * TID_ROWS * 256);
   if (!t->tid_rows || d->wg_waves > SIM_MAX_WAVES)
      return;
   bool packed = d->target->packed_tid;
   bool y = !packed && tid_rows_y(d, d->nvgpr), z = !packed && tid_rows_z(d, d->nvgpr);
   t->tid_nrows = 1 + y + z;
   for (unsigned id = 0; id < d->wg_waves; id++) {
      uint32_t(*r)[64] = t->tid_rows + (size_t)id * TID_ROWS;
      t->tid_exec[id] = packed ? tid_fill_packed(d, d->wgsize, id, r[0])
                               : tid_fill(d, d->wgsize, id, r[0], y ? r[1] : NULL,
                                          z ? r[2] : NULL);
   }
}

/* Starts the next work-group of `d` (from batch `b`, claiming more when it is empty) in home
 * `t`: TAKE_STARTED, TAKE_NONE when none is left, TAKE_FAULT when the dispatch faulted, or
 * (GWS dispatches only) TAKE_BUSY when the GPU has no room for another of its work-groups
 * now. A GWS dispatch's work-groups may wait for each other, so one never waits for scratch
 * slots other work-groups hold: it takes the slots of a whole work-group without waiting,
 * before it takes the work-group. */
static int
wg_take(sim_disp *d, sim_tctx *t, wg_batch *b, uint64_t *counts, struct sim_l1 *l1)
{
   sim_wg *wg = &t->wg;
   /* The translation caches (xcache, prog) stay for the whole dispatch (run_workgroups_ex
    * empties them), and so does what home_begin sets; the rest is set here. */
   if (t->disp_seq != d->dispatch_id + 1)
      home_begin(d, t, counts);
   wg->l1 = l1; /* the same each time; run_workgroups_ex takes it again on each entry */
   wg->scratch = NULL;
   wg->scratch_size = 0;
   wg->scratch_slots = 0;
   bool slots = d->qscratch && d->wave_scratch && d->qscratch->slots;
   if (d->gws) {
      if (atomic_fetch_add(&d->resident, 1) >= d->resident_cap) {
         atomic_fetch_sub(&d->resident, 1);
         return TAKE_BUSY;
      }
      if (slots) {
         if (d->wg_waves > d->qscratch->slots) {
            atomic_fetch_sub(&d->resident, 1);
            wg->nwaves = d->wg_waves;
            queue_scratch_claim(d, wg); /* faults: the work-group can never fit */
            return TAKE_FAULT;
         }
         if (!sim__scratch_try_claim(d->qscratch, d->wg_waves, wg->scratch_slot)) {
            atomic_fetch_sub(&d->resident, 1);
            return TAKE_BUSY;
         }
         wg->scratch_slots = d->wg_waves;
      }
   }
   if (b->next == b->end && !batch_claim(d, b)) {
      if (wg->scratch_slots)
         sim__scratch_release(d->qscratch, wg->scratch_slots, wg->scratch_slot);
      wg->scratch_slots = 0;
      if (d->gws)
         atomic_fetch_sub(&d->resident, 1);
      return TAKE_NONE;
   }
   batch_next(d, b, wg->id);
   bool full = true;
   if (SIM_LIKELY(d->wg_uniform)) {
      memcpy(wg->size, d->wgsize, sizeof(wg->size));
      wg->nwaves = d->wg_waves;
   } else {
      unsigned items = 1;
      for (int k = 0; k < 3; k++) {
         uint32_t left = d->grid[k] - wg->id[k] * d->wgsize[k];
         wg->size[k] = left < d->wgsize[k] ? left : d->wgsize[k];
         items *= wg->size[k];
         full &= wg->size[k] == d->wgsize[k];
      }
      wg->nwaves = (items + d->lanes - 1) >> (d->lanes == 64 ? 6 : 5);
   }
   t->live = true; /* from here wg_end undoes what was taken */
   if (d->qscratch) {
      if (!d->gws && !queue_scratch_claim(d, wg))
         return TAKE_FAULT;
   } else {
      wg->scratch_size = (uint64_t)wg->nwaves * d->wave_scratch;
   }
   if (wg->scratch_size > t->scratch_cap) {
      uint8_t *sp = realloc(t->scratch, wg->scratch_size);
      if (!sp) {
         char msg[96];
         snprintf(msg, sizeof(msg), "out of host memory for %llu bytes of scratch",
                  (unsigned long long)wg->scratch_size);
         fault_oom(d, msg);
         return TAKE_FAULT;
      }
      t->scratch = sp;
      t->scratch_cap = wg->scratch_size;
   }
   if (!d->qscratch)
      wg->scratch = t->scratch;
   if (wg->lds_size)
      memset(wg->lds, 0, wg->lds_size);
   const sim_tctx *tmpl = full && t->tid_rows ? t : NULL;
   for (unsigned w = 0; w < wg->nwaves; w++)
      wave_init(d, wg, &t->waves[w], w, tmpl);
   return TAKE_STARTED;
}

/* wg_take for the next of run_lean's work-groups when the one before it, in the same home
 * and dispatch, was taken by wg_take and the dispatch's work-groups are whole, without GWS or
 * the queue's scratch: the work-group record (size, waves, scratch window, L1) is the same
 * for each, so only the id and the wave are set. */
static int
lean_take(sim_disp *d, sim_tctx *t, wg_batch *b)
{
   if (b->next == b->end && !batch_claim(d, b))
      return TAKE_NONE;
   sim_wg *wg = &t->wg;
   batch_next(d, b, wg->id);
   t->live = true;
   if (wg->lds_size)
      memset(wg->lds, 0, wg->lds_size);
   wave_init(d, wg, t->waves, 0, t);
   return TAKE_STARTED;
}

/* The work-group of home `t` is over (ended, faulted or abandoned): what it held goes back. */
static void
wg_end(sim_disp *d, sim_tctx *t)
{
   if (t->wg.scratch_slots)
      sim__scratch_release(d->qscratch, t->wg.scratch_slots, t->wg.scratch_slot);
   t->wg.scratch_slots = 0;
   if (d->gws)
      atomic_fetch_sub(&d->resident, 1);
   t->live = false;
}

/* Whether the calling thread's work-groups of `d` may take run_lean: one wave each, no GWS,
 * no diagnostics (per-opcode counters, trace) and blocks translated (the checking mode's
 * too: it compares them as sim__wave_run's would be). */
static bool
lean_ok(const sim_disp *d, const uint64_t *counts)
{
   return d->wg_waves == 1 && !d->gws && !counts && !d->trace &&
          __atomic_load_n(&sim__xlate_mode, __ATOMIC_ACQUIRE) > 0;
}

/* Work-groups of one wave, taken and run back to back: each wave starts in the translated
 * code of its entry (sim__wave_run_xlate), and a work-group whose wave ends there is over
 * without wg_run's turns and the wave loop (what a work-group costs outside its blocks was
 * two thirds of copy1, a work-group of one work-item each, in perf). Returns with the work-group
 * held (t->live) when its wave did not end in its translated code (it yielded, waits at a
 * barrier or needs the interpreter: the caller's loop runs it on), and with nothing held when
 * no work-group is left, the dispatch faulted, its watchdog expired or (`rotate` set)
 * another dispatch is open; the caller's loop sees which. */
static void
run_lean(sim_disp *d, sim_tctx *t, wg_batch *b, uint64_t *counts, struct sim_l1 *l1,
         bool *rotate)
{
   bool lean = false; /* lean_take's conditions, known once wg_take has taken one */
   for (;;) {
      bool claimed = b->next != b->end;
      if (atomic_load_explicit(&d->faulted, memory_order_relaxed) ||
          (!claimed && watchdog_expired(d)))
         return;
      if (!claimed && rotate && *rotate &&
          atomic_load_explicit(&pool_open, memory_order_relaxed) > 1)
         return;
      if ((lean ? lean_take(d, t, b) : wg_take(d, t, b, counts, l1)) != TAKE_STARTED)
         return;
      lean = d->wg_uniform && !d->gws && !d->qscratch && t->tid_rows;
      sim_wave *w = t->waves;
      if (!sim__wave_run_xlate(w) || w->status != SIM_WAVE_ENDED)
         return;
      wg_end(d, t);
      if (rotate)
         *rotate = true;
   }
}

/* Runs work-groups of `d` until none is left, a fault, or (when `rotate` is non-NULL and set)
 * another dispatch is open, after one work-group; *rotate is set after the first.
 *
 * A thread holds one work-group at a time, run to its end, except while every work-group it
 * holds waits on GWS: then it starts another in a further home, as a compute unit holds
 * several, up to the GPU's room for the dispatch (resident_cap); with no room and none left
 * to start it sleeps until the GWS changes (or 1 ms passes: the watchdog is checked). So a
 * barrier across every work-group of a dispatch completes when the GPU could hold them all,
 * as on hardware, and hangs until the watchdog when it could not. */
static void
run_workgroups_ex(sim_disp *d, bool *rotate)
{
   sim_tctx *t = tctx_get();
   if (!t) {
      fault_oom(d, "out of host memory");
      return;
   }
   uint64_t *counts = sim__counts_thread();
   struct sim_l1 *l1 = NULL;
   /* The CP invalidates the L1 at the dispatch's start: this thread's lines go. */
   if (SIM_UNLIKELY(sim__cache_checking))
      l1 = sim__l1_begin(&t->l1);
   for (unsigned k = 0; k <= t->nextra; k++) {
      sim_tctx *c = k ? t->extra[k - 1] : t;
      memset(c->wg.xcache, 0, sizeof(c->wg.xcache));
      memset(c->wg.xlast, 0, sizeof(c->wg.xlast));
      sim__mimg_memo_begin(c->wg.mimg);
      c->wg.prog = NULL;
   }
   unsigned held = 0; /* homes of this thread holding a work-group */
   wg_batch batch = {0, 0, {0, 0, 0}, 0, 0};
   const bool lean = lean_ok(d, counts);
   for (;;) {
      if (lean && !held) {
         run_lean(d, t, &batch, counts, l1, rotate);
         if (t->live)
            held = 1;
      }
      /* The watchdog between claims: a batch is of short work-groups (a long one ends its
       * turns in wg_run, which looks at the clock). */
      bool claimed = batch.next != batch.end;
      if (atomic_load_explicit(&d->faulted, memory_order_relaxed) ||
          (!claimed && watchdog_expired(d)))
         break;
      if (!held && !claimed && rotate && *rotate &&
          atomic_load_explicit(&pool_open, memory_order_relaxed) > 1)
         break; /* another dispatch is open: let the caller share this thread */
      uint64_t seen = d->gws ? sim__gws_changes(d->gws) : 0;
      if (!held) {
         int st = wg_take(d, t, &batch, counts, l1);
         if (st == TAKE_BUSY) {
            sim__gws_wait_change(d->gws, seen, 1000000);
            continue;
         }
         if (st != TAKE_STARTED)
            break;
         held++;
      }
      bool all_wait = true;
      for (unsigned k = 0; k <= t->nextra; k++) {
         sim_tctx *c = k ? t->extra[k - 1] : t;
         if (!c->live || !wg_run(&c->wg))
            continue;
         wg_end(d, c);
         held--;
         all_wait = false;
         if (rotate)
            *rotate = true;
      }
      if (!held || !all_wait)
         continue;
      /* Every work-group here waits on GWS: room for one more? */
      sim_tctx *c = tctx_spare(t);
      int st = c ? wg_take(d, c, &batch, counts, l1) : TAKE_BUSY;
      if (st == TAKE_STARTED)
         held++;
      else if (st == TAKE_FAULT)
         break;
      else
         sim__gws_wait_change(d->gws, seen, 1000000);
   }
   /* A fault or the watchdog left work-groups unfinished: their resources go back. */
   for (unsigned k = 0; k <= t->nextra; k++) {
      sim_tctx *c = k ? t->extra[k - 1] : t;
      if (c->live)
         wg_end(d, c);
   }
   sim__counts_flush(counts);
}

static void
run_workgroups(sim_disp *d)
{
   run_workgroups_ex(d, NULL);
}

/* ---- Thread pool ------------------------------------------------------------------------
 * Persistent workers serve every open dispatch; the dispatching (packet-processor) thread of
 * each works on its own. Dispatches of several queues run at once and share the workers:
 * while more than one is open, a worker takes one work-group of a dispatch, then moves on to
 * the next open dispatch in turn, so a long kernel cannot keep another queue's kernels off
 * the GPU (a work-group still runs to its end on the thread that started it, as on a
 * compute unit). A dispatch is open while its dispatching thread still finds work-groups; a
 * worker joins it (`active`) under the lock only while it is open, so the dispatch ends as
 * soon as its work-groups are done and the workers that joined have returned; a worker the
 * host scheduler wakes late finds nothing open and costs nothing. */

#define POOL_MAX_OPEN 128

static struct {
   pthread_mutex_t lock;
   pthread_cond_t start, done;
   sim_disp *open[POOL_MAX_OPEN]; /* open dispatches, in opening order */
   unsigned nopen, next;          /* count; index of the next one a worker takes */
   uint64_t gen;
   unsigned nworkers;
} pool = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, PTHREAD_COND_INITIALIZER,
          {NULL}, 0, 0, 0, 0};
static pthread_once_t pool_once = PTHREAD_ONCE_INIT;

static void
pool_close_locked(sim_disp *d)
{
   for (unsigned i = 0; i < pool.nopen; i++) {
      if (pool.open[i] == d) {
         memmove(&pool.open[i], &pool.open[i + 1], (pool.nopen - i - 1) * sizeof(d));
         pool.nopen--;
         if (pool.next > i)
            pool.next--;
         break;
      }
   }
   d->open = false;
   atomic_store_explicit(&pool_open, pool.nopen, memory_order_relaxed);
}

static void *
pool_worker(void *arg)
{
   uint64_t seen = 0;
   pthread_mutex_lock(&pool.lock);
   for (;;) {
      while (pool.nopen == 0 && pool.gen == seen)
         pthread_cond_wait(&pool.start, &pool.lock);
      seen = pool.gen;
      if (pool.nopen == 0)
         continue;
      if (pool.next >= pool.nopen)
         pool.next = 0;
      sim_disp *d = pool.open[pool.next++];
      d->active++;
      pthread_mutex_unlock(&pool.lock);
      bool rotate = false;
      run_workgroups_ex(d, &rotate);
      pthread_mutex_lock(&pool.lock);
      /* Out of work-groups (or faulted): nobody joins it any more. */
      if (d->open && !rotate)
         pool_close_locked(d);
      else if (d->open && (atomic_load_explicit(&d->faulted, memory_order_relaxed) ||
                           atomic_load_explicit(&d->next_wg, memory_order_relaxed) >=
                              d->nwg_total))
         pool_close_locked(d);
      if (--d->active == 0)
         pthread_cond_broadcast(&pool.done);
   }
   return arg;
}

static void
pool_init(void)
{
   unsigned n = sim__nthreads();
   pool_threads = n;
   for (unsigned i = 1; i < n; i++) {
      pthread_t th;
      pthread_attr_t attr;
      pthread_attr_init(&attr);
      pthread_attr_setstacksize(&attr, 1 << 20);
      if (pthread_create(&th, &attr, pool_worker, NULL) == 0) {
         pthread_detach(th);
         pool.nworkers++;
      }
      pthread_attr_destroy(&attr);
   }
}

static void
pool_run(sim_disp *d)
{
   pthread_once(&pool_once, pool_init);
   bool shared = false;
   if (pool.nworkers && d->nwg_total > 1) {
      pthread_mutex_lock(&pool.lock);
      if (pool.nopen < POOL_MAX_OPEN) {
         pool.open[pool.nopen++] = d;
         d->open = true;
         atomic_store_explicit(&pool_open, pool.nopen, memory_order_relaxed);
         pool.gen++;
         pthread_cond_broadcast(&pool.start);
         shared = true;
      }
      pthread_mutex_unlock(&pool.lock);
   }
   run_workgroups(d);
   if (!shared)
      return;
   pthread_mutex_lock(&pool.lock);
   if (d->open)
      pool_close_locked(d);
   while (d->active)
      pthread_cond_wait(&pool.done, &pool.lock);
   pthread_mutex_unlock(&pool.lock);
}

/* ---- Entry points ------------------------------------------------------------------------ */

static hsa_status_t
fail(sim_fault *fault, sim_fault_kind kind, uint64_t addr, const char *msg)
{
   fault->kind = kind;
   fault->address = addr;
   fault->pc = 0;
   snprintf(fault->message, sizeof(fault->message), "%s", msg);
   return kind == SIM_FAULT_MEMORY_VIOLATION ? (hsa_status_t)HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION
          : kind == SIM_FAULT_OUT_OF_RESOURCES ? HSA_STATUS_ERROR_OUT_OF_RESOURCES
                                               : HSA_STATUS_ERROR_INVALID_PACKET_FORMAT;
}

static hsa_status_t
status_of(sim_fault_kind k)
{
   switch (k) {
   case SIM_FAULT_NONE:
      return HSA_STATUS_SUCCESS;
   case SIM_FAULT_MEMORY_VIOLATION:
      return (hsa_status_t)HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION;
   case SIM_FAULT_ILLEGAL_INSTRUCTION:
      return (hsa_status_t)HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION;
   case SIM_FAULT_TRAP:
      return HSA_STATUS_ERROR_EXCEPTION;
   case SIM_FAULT_INVALID_PACKET:
      return HSA_STATUS_ERROR_INVALID_PACKET_FORMAT;
   case SIM_FAULT_WATCHDOG:
      return HSA_STATUS_ERROR_EXCEPTION;
   default:
      return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
   }
}

static _Atomic uint64_t dispatch_counter;

hsa_status_t
sim__isa_dispatch(const hsa_kernel_dispatch_packet_t *packet, uint64_t packet_va,
                  sim_fault *fault)
{
   return sim__isa_dispatch_on(0, packet, packet_va, fault);
}

hsa_status_t
sim__isa_dispatch_on(unsigned agent, const hsa_kernel_dispatch_packet_t *packet,
                     uint64_t packet_va, sim_fault *fault)
{
   return sim__isa_dispatch_scratch(agent, NULL, packet, packet_va, fault);
}

hsa_status_t
sim__isa_dispatch_scratch(unsigned agent, sim_scratch *scratch,
                          const hsa_kernel_dispatch_packet_t *packet, uint64_t packet_va,
                          sim_fault *fault)
{
   return sim__isa_dispatch_queue(agent, scratch, NULL, packet, packet_va, fault);
}

/*
 * The registers the descriptor allocates (AMDGPUUsage, "Kernel Descriptor"):
 * COMPUTE_PGM_RSRC1.GRANULATED_WORKITEM_VGPR_COUNT in the target's granules (gfx906: 4
 * VGPRs; gfx90a: 8 of the unified VGPR/AGPR file). On gfx90a the AGPRs follow the VGPRs at
 * COMPUTE_PGM_RSRC3.ACCUM_OFFSET ((value + 1) * 4 VGPRs); the rest of the allocation is AGPRs.
 */
static void
kd_registers(sim_disp *d)
{
   /* gfx10's granule is 8 VGPRs in wave32, 4 in wave64. */
   uint32_t granule = d->target->gfx_major >= 10 && d->lanes == 64 ? 4 : d->target->vgpr_granule;
   uint32_t total = ((d->rsrc1 & 0x3F) + 1) * granule;
   d->nvgpr = total;
   d->nagpr = 0;
   if (d->target->unified_agprs) {
      uint32_t vgprs = ((d->rsrc3 & 0x3F) + 1) * 4;
      if (vgprs < total) {
         d->nvgpr = vgprs;
         d->nagpr = total - vgprs;
      }
   }
   if (d->nvgpr > 256)
      d->nvgpr = 256;
   if (d->nagpr > 256)
      d->nagpr = 256;
}

/* Work-groups of the dispatch the GPU holds at once: 60 compute units (the topology's
 * count), each with 4 SIMDs of 10 wave slots and 256 VGPRs a lane (a work-group's waves
 * spread over the 4), 64 KiB of LDS, and 16 work-groups at most. */
#define SIM_GPU_CUS 60u
static uint32_t
resident_cap(const sim_disp *d)
{
   uint32_t per_simd = 256 / d->nvgpr;
   per_simd = per_simd < 10 ? per_simd : 10;
   uint32_t per_cu = per_simd / ((d->wg_waves + 3) / 4);
   if (d->lds_size && 65536 / d->lds_size < per_cu)
      per_cu = 65536 / d->lds_size;
   per_cu = per_cu < 16 ? per_cu : 16;
   return SIM_GPU_CUS * (per_cu ? per_cu : 1);
}

void
sim__isa_prepare(void)
{
   sim__xlate_init();
}

hsa_status_t
sim__isa_dispatch_queue(unsigned agent, sim_scratch *scratch, sim_gws *gws,
                        const hsa_kernel_dispatch_packet_t *packet, uint64_t packet_va,
                        sim_fault *fault)
{
   memset(fault, 0, sizeof(*fault));
   const sim_alloc *ka = sim__mem_find(packet->kernel_object);
   if (!ka || packet->kernel_object - ka->va + 64 > ka->size)
      return fail(fault, SIM_FAULT_INVALID_PACKET, packet->kernel_object,
                  "kernel object is not a 64-byte kernel descriptor in GPU memory");
   /* Aligned as its type: the work-group counter has a cache line of its own. */
   sim_disp *d = aligned_alloc(_Alignof(sim_disp), sizeof(*d));
   if (!d)
      return fail(fault, SIM_FAULT_OUT_OF_RESOURCES, 0, "out of host memory");
   memset(d, 0, sizeof(*d));
   memcpy(d->kd, ka->view + (packet->kernel_object - ka->va), 64);
   d->packet = packet;
   d->packet_va = packet_va;
   int64_t entry_off;
   memcpy(&entry_off, d->kd + 16, 8);
   memcpy(&d->rsrc1, d->kd + 48, 4);
   memcpy(&d->rsrc2, d->kd + 52, 4);
   memcpy(&d->kcode, d->kd + 56, 2);
   memcpy(&d->rsrc3, d->kd + 44, 4);
   d->entry = packet->kernel_object + (uint64_t)entry_off;
   d->target = sim__isa_agent_target(agent);
   d->nsgpr = 102;
   uint32_t priv_fixed, lds_fixed;
   memcpy(&lds_fixed, d->kd + 0, 4);
   memcpy(&priv_fixed, d->kd + 4, 4);
   /* The v1 header, amd_kernel_code_t (amd_hsa_kernel_code.h): entry offset (+16),
    * rsrc1/rsrc2 (+48/+52) and the first seven kernel_code_properties bits (+56) sit where
    * the v3 descriptor has them; the segment sizes are at +60 (private) and +64 (group),
    * and +0/+4 hold the version. A versioned header (1.x, machine kind 1 = AMDGCN) is read
    * as such. ROCr's blit kernels come in a zeroed header with only entry, rsrc and
    * properties set (amd_gpu_agent.cpp AssembleShader): version and sizes 0 read the same
    * either way. */
   uint32_t v1_major, v1_minor;
   uint16_t v1_kind;
   memcpy(&v1_major, d->kd + 0, 4);
   memcpy(&v1_minor, d->kd + 4, 4);
   memcpy(&v1_kind, d->kd + 8, 2);
   if (v1_major == 1 && v1_minor <= 2 && v1_kind == 1 &&
       packet->kernel_object - ka->va + 256 <= ka->size) {
      const uint8_t *code = ka->view + (packet->kernel_object - ka->va);
      memcpy(&priv_fixed, code + 60, 4);
      memcpy(&lds_fixed, code + 64, 4);
      d->kcode &= 0x7f; /* bits 7-9 are v1's grid work-group counts (not set by ROCr) */
   }
   /* gfx10 runs wave32 when kernel_code_properties.ENABLE_WAVEFRONT_SIZE32 says so (the
    * compiler's default there), else wave64 (AMDGPUUsage "Kernel Descriptor"). */
   d->lanes = d->target->gfx_major >= 10 && (d->kcode & KCP_WAVEFRONT_SIZE32) ? 32 : 64;
   kd_registers(d);
   d->grid[0] = packet->grid_size_x;
   d->grid[1] = packet->grid_size_y;
   d->grid[2] = packet->grid_size_z;
   d->wgsize[0] = packet->workgroup_size_x;
   d->wgsize[1] = packet->workgroup_size_y;
   d->wgsize[2] = packet->workgroup_size_z;
   d->nwg_total = 1;
   hsa_status_t st;
   for (int k = 0; k < 3; k++) {
      if (!d->wgsize[k] || !d->grid[k]) {
         st = fail(fault, SIM_FAULT_INVALID_PACKET, 0, "zero grid or work-group size");
         goto out;
      }
      d->nwg[k] = (d->grid[k] + d->wgsize[k] - 1) / d->wgsize[k];
      d->nwg_total *= d->nwg[k];
   }
   if ((uint64_t)d->wgsize[0] * d->wgsize[1] * d->wgsize[2] > 1024) {
      st = fail(fault, SIM_FAULT_INVALID_PACKET, 0, "work-group larger than 1024 work-items");
      goto out;
   }
   {
      /* A work-group runs on one compute unit, its waves spread over the CU's 4 SIMDs; a
       * gfx906 SIMD has 256 VGPRs a lane (64 KiB) for the waves it holds (AMDGPUUsage
       * "Register allocation"; what amdgpu-flat-work-group-size bounds at compile time). A
       * group whose waves cannot all be resident never starts on hardware: refused. SGPRs
       * (800 a SIMD, at most 112 a wave) and wave slots (10 a SIMD) fit 4 waves a SIMD. */
      uint32_t items = (uint32_t)d->wgsize[0] * d->wgsize[1] * d->wgsize[2];
      uint32_t simds = 4, file = d->target->vgprs_max;
      if (d->target->gfx_major >= 10) {
         /* RDNA: a SIMD32 has 1024 VGPRs a lane for wave32s, 512 for wave64s (a 128 KiB
          * file); a work-group spreads over the 4 SIMDs of a work-group processor with
          * COMPUTE_PGM_RSRC1.WGP_MODE (bit 29), over the 2 of a CU without it. */
         simds = (d->rsrc1 >> 29) & 1 ? 4 : 2;
         file = d->lanes == 32 ? 1024 : 512;
      }
      uint32_t waves = (items + d->lanes - 1) / d->lanes, per_simd = (waves + simds - 1) / simds;
      uint32_t regs = d->nvgpr + d->nagpr;
      if (per_simd * regs > file) {
         char msg[160];
         snprintf(msg, sizeof(msg), "a work-group of %u waves needs %u VGPRs on a SIMD (%u "
                  "waves of %u), a SIMD has %u", waves, per_simd * regs, per_simd, regs, file);
         st = fail(fault, SIM_FAULT_OUT_OF_RESOURCES, 0, msg);
         goto out;
      }
   }
   d->lds_size = packet->group_segment_size > lds_fixed ? packet->group_segment_size : lds_fixed;
   /* The CP allocates LDS in granules of 128 dwords on GFX7-GFX11 (AMDGPUUsage,
    * COMPUTE_PGM_RSRC2.LDS_SIZE): accesses inside the last granule do not fault. */
   d->lds_size = (d->lds_size + 511u) & ~511u;
   if (d->lds_size > 65536) {
      st = fail(fault, SIM_FAULT_INVALID_PACKET, 0, "group segment larger than 64 KiB");
      goto out;
   }
   d->priv_size = packet->private_segment_size > priv_fixed ? packet->private_segment_size
                                                            : priv_fixed;
   if ((d->kcode & KCP_USES_DYNAMIC_STACK) && d->priv_size < SIM_DYNAMIC_STACK)
      d->priv_size = SIM_DYNAMIC_STACK;
   d->priv_size = (d->priv_size + 3) & ~3u;
   d->wave_scratch = (d->priv_size * d->lanes + 1023) & ~1023u;
   if (d->wave_scratch > SIM_MAX_WAVE_SCRATCH || d->priv_size > SIM_MAX_WAVE_SCRATCH / d->lanes) {
      /* More than COMPUTE_TMPRING_SIZE can describe: no gfx906 runs it (on ROCr the
       * scratch request fails the same way, with this status). */
      char msg[128];
      snprintf(msg, sizeof(msg), "%u bytes of private memory per work-item: more than the "
               "%u bytes of scratch a wave can have", d->priv_size, SIM_MAX_WAVE_SCRATCH);
      st = fail(fault, SIM_FAULT_OUT_OF_RESOURCES, 0, msg);
      goto out;
   }
   d->qscratch = scratch;
   d->gws = gws;
   d->wg_waves = ((uint32_t)d->wgsize[0] * d->wgsize[1] * d->wgsize[2] + d->lanes - 1) / d->lanes;
   d->wg_uniform = d->grid[0] % d->wgsize[0] == 0 && d->grid[1] % d->wgsize[1] == 0 &&
                   d->grid[2] % d->wgsize[2] == 0;
   mode_init(d);
   d->resident_cap = resident_cap(d);
   d->dispatch_id = atomic_fetch_add(&dispatch_counter, 1);
   sgprs_init(d);

   const char *tr = getenv("HSACL_SIM_TRACE");
   if (tr && *tr) {
      unsigned x = 0, y = 0, z = 0, wv = 0;
      const char *p = strstr(tr, "wg=");
      if (p)
         sscanf(p, "wg=%u,%u,%u", &x, &y, &z);
      p = strstr(tr, "wave=");
      if (p)
         sscanf(p, "wave=%u", &wv);
      d->trace = true;
      d->trace_wg[0] = x;
      d->trace_wg[1] = y;
      d->trace_wg[2] = z;
      d->trace_wave = wv;
   }

   pthread_once(&watchdog_once, watchdog_init);
   if (watchdog_ns)
      d->deadline_ns = now_ns() + watchdog_ns;
   d->agent = agent;
   uint16_t header = __atomic_load_n(&packet->header, __ATOMIC_ACQUIRE);
   sim__cache_dispatch_begin(agent, (header >> HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) & 3);
   pool_run(d);
   /* The release follows the last wave, faulted or not: what was written stays written. */
   sim__cache_dispatch_end(agent, (header >> HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE) & 3);
   if (atomic_load(&d->faulted)) {
      *fault = d->fault;
      st = status_of(fault->kind);
   } else {
      st = HSA_STATUS_SUCCESS;
   }
   void sim__counts_write(void);
   sim__counts_write();
out:
   free(d);
   return st;
}

sim_fault_kind
sim__isa_run_wave_for_test(sim_wave *w, uint64_t code_va, sim_gws *gws, uint8_t *lds,
                           uint32_t lds_size, uint8_t *scratch, uint64_t scratch_size,
                           sim_fault *fault)
{
   sim_disp d;
   sim_wg wg;
   memset(&d, 0, sizeof(d));
   memset(&wg, 0, sizeof(wg));
   d.gws = gws;
   wg.disp = &d;
   wg.lds = lds;
   wg.lds_size = lds_size;
   wg.scratch = scratch;
   wg.scratch_size = scratch_size;
   wg.nwaves = 1;
   wg.waves = w;
   w->wg = &wg;
   w->pc = code_va;
   w->status = SIM_WAVE_RUNNING;
   w->prog = NULL;
   if (!w->target)
      w->target = sim__target(SIM_TARGET_GFX906);
   d.target = w->target;
   if (w->lanes != 32)
      w->lanes = 64; /* a test's wave is a wave64 unless it asks for 32 lanes */
   w->lane_mask = w->lanes == 64 ? ~0ull : 0xFFFFFFFFull;
   d.lanes = w->lanes;
   w->counts = sim__counts_thread();
   w->slice = SIM_WAVE_SLICE;
   w->regs_dead_at_end = false; /* the test reads them */
   for (int barriers = 0; barriers < 1000;) {
      sim__wave_run(w);
      if (w->status == SIM_WAVE_BARRIER)
         barriers++; /* a single wave passes its own barrier */
      else if (w->status == SIM_WAVE_GWS && !sim__gws_ready(w)) {
         /* Nothing else runs that could release it: the hang the watchdog reports. */
         sim__fault(w, SIM_FAULT_WATCHDOG, 0, "the wave waits on GWS resource %u forever",
                    w->gws_rid);
         break;
      } else if (w->status != SIM_WAVE_YIELD && w->status != SIM_WAVE_RUNNING)
         break;
      w->status = SIM_WAVE_RUNNING;
   }
   sim__counts_flush(w->counts);
   sim__mimg_memo_free(wg.mimg);
   w->wg = NULL;
   if (atomic_load(&d.faulted)) {
      *fault = d.fault;
      return fault->kind;
   }
   memset(fault, 0, sizeof(*fault));
   return SIM_FAULT_NONE;
}
