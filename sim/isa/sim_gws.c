/*
 * Global wave sync ([ISA] 11.x "Global wave sync and atomic ordered count", 12.x DS_GWS_*):
 * the queue's GWS allocation (sim_isa.h "sim_gws"), 64 resources, each a counter that a
 * wave uses as a semaphore or a barrier. Every instruction names resource
 *    rid[5:0] = OFFSET0[5:0] + M0[21:16]
 * and the ones with a DATA0 operand take it from the first active lane (lane 0 when no lane
 * is active: the operation is the wave's, not a lane's, and happens whatever EXEC holds):
 *
 *   DS_GWS_INIT             counter = DATA0 (a barrier: the waves it waits for, minus 1)
 *   DS_GWS_SEMA_V           counter += 1
 *   DS_GWS_SEMA_BR          counter += DATA0 (bulk release)
 *   DS_GWS_SEMA_P           wait until counter > 0, then counter -= 1
 *   DS_GWS_SEMA_RELEASE_ALL every wave then waiting in DS_GWS_SEMA_P on it goes on, without
 *                           taking a count
 *   DS_GWS_BARRIER          if counter <= 0 (the last wave): flag = !flag, counter = DATA0,
 *                           go on, and so do the waves waiting on it; else counter -= 1 and
 *                           wait until flag changes
 *
 * so DS_GWS_INIT(n - 1) followed by DS_GWS_BARRIER(n - 1) in n waves releases them together
 * and leaves the barrier armed for the next round (ockl's __ockl_grid_sync: one wave of each
 * work-group, n = the work-groups of the dispatch). A barrier never initialised lets its
 * first wave through (counter 0), as the manual's state machine does.
 *
 * Waiting does not hold the host thread: the wave's status becomes SIM_WAVE_GWS and the
 * dispatcher runs other waves and work-groups (sim_dispatch.c), re-checking it with
 * sim__gws_ready. A wave nobody releases waits until the watchdog ends the dispatch, the
 * hang the hardware would have. Without an allocation, or beyond it, every instruction is an
 * illegal-instruction fault naming the resource: on hardware the VMID's GWS is absent.
 */
#include <stdio.h>
#include <time.h>
#include "sim_isa_priv.h"

void
sim__gws_init(sim_gws *g, uint32_t size)
{
   memset(g, 0, sizeof(*g));
   g->size = size < SIM_GWS_RESOURCES ? size : SIM_GWS_RESOURCES;
   pthread_mutex_init(&g->lock, NULL);
   pthread_cond_init(&g->changed, NULL);
}

void
sim__gws_finish(sim_gws *g)
{
   pthread_mutex_destroy(&g->lock);
   pthread_cond_destroy(&g->changed);
}

uint64_t
sim__gws_changes(sim_gws *g)
{
   pthread_mutex_lock(&g->lock);
   uint64_t c = g->changes;
   pthread_mutex_unlock(&g->lock);
   return c;
}

void
sim__gws_wait_change(sim_gws *g, uint64_t seen, uint64_t ns)
{
   struct timespec ts;
   clock_gettime(CLOCK_REALTIME, &ts);
   ts.tv_sec += (time_t)(ns / 1000000000u);
   ts.tv_nsec += (long)(ns % 1000000000u);
   if (ts.tv_nsec >= 1000000000) {
      ts.tv_sec++;
      ts.tv_nsec -= 1000000000;
   }
   pthread_mutex_lock(&g->lock);
   while (g->changes == seen) {
      if (pthread_cond_timedwait(&g->changed, &g->lock, &ts) != 0)
         break;
   }
   pthread_mutex_unlock(&g->lock);
}

/* Under the lock: waiters re-check. */
static void
changed_locked(sim_gws *g)
{
   g->changes++;
   pthread_cond_broadcast(&g->changed);
}

bool
sim__gws_ready(sim_wave *w)
{
   sim_gws *g = w->wg->disp->gws;
   struct sim_gws_resource *r = &g->res[w->gws_rid];
   bool go = false;
   pthread_mutex_lock(&g->lock);
   if (w->gws_wait == SIM_GWS_WAIT_BARRIER) {
      go = r->flag != w->gws_ticket;
   } else if (r->released != w->gws_ticket) {
      go = true;
   } else if (r->counter > 0) {
      r->counter--;
      changed_locked(g);
      go = true;
   }
   pthread_mutex_unlock(&g->lock);
   if (go) {
      w->gws_wait = SIM_GWS_WAIT_NONE;
      w->status = SIM_WAVE_RUNNING;
   }
   return go;
}

/* The resource the instruction names, or NULL (the wave faulted). */
static struct sim_gws_resource *
resource(sim_wave *w, const sim_inst *in, const char *what, unsigned *rid)
{
   *rid = (((SIM_M0(w) >> 16) & 0x3F) + ((uint32_t)in->imm & 0x3F)) & 0x3F;
   sim_gws *g = w->wg->disp->gws;
   char why[128];
   if (!g) {
      snprintf(why, sizeof(why), "%s on GWS resource %u: the queue has no GWS allocation",
               what, *rid);
      sim__fault_illegal(w, in, why);
      return NULL;
   }
   if (*rid >= g->size) {
      snprintf(why, sizeof(why), "%s on GWS resource %u: outside the queue's %u GWS "
               "resources", what, *rid, g->size);
      sim__fault_illegal(w, in, why);
      return NULL;
   }
   return &g->res[*rid];
}

/* DATA0 of the first active lane (lane 0 when none is), or false (the wave faulted). The
 * GWS instructions have no address: their DATA0 VGPR sits in the ADDR field (LLVM encodes
 * it there, has_gws_data0, and the hardware reads it there). */
static bool
data0(sim_wave *w, const sim_inst *in, uint32_t *value)
{
   uint32_t *row = sim__vrow(w, in, in->mem.addr);
   if (!row)
      return false;
   uint64_t m = SIM_EXEC(w);
   *value = row[m ? __builtin_ctzll(m) : 0];
   return true;
}

static void
wait_begin(sim_wave *w, unsigned rid, unsigned kind, uint32_t ticket)
{
   w->gws_wait = (uint8_t)kind;
   w->gws_rid = (uint8_t)rid;
   w->gws_ticket = ticket;
   w->status = SIM_WAVE_GWS;
}

void
sim__op_ds_gws_init(sim_wave *w, const sim_inst *in)
{
   unsigned rid;
   uint32_t v;
   struct sim_gws_resource *r = resource(w, in, "ds_gws_init", &rid);
   if (!r || !data0(w, in, &v))
      return;
   sim_gws *g = w->wg->disp->gws;
   pthread_mutex_lock(&g->lock);
   r->counter = v;
   changed_locked(g);
   pthread_mutex_unlock(&g->lock);
}

static void
sema_add(sim_wave *w, const sim_inst *in, const char *what, bool bulk)
{
   unsigned rid;
   uint32_t v = 1;
   struct sim_gws_resource *r = resource(w, in, what, &rid);
   if (!r || (bulk && !data0(w, in, &v)))
      return;
   sim_gws *g = w->wg->disp->gws;
   pthread_mutex_lock(&g->lock);
   r->counter += v;
   changed_locked(g);
   pthread_mutex_unlock(&g->lock);
}

void
sim__op_ds_gws_sema_v(sim_wave *w, const sim_inst *in)
{
   sema_add(w, in, "ds_gws_sema_v", false);
}

void
sim__op_ds_gws_sema_br(sim_wave *w, const sim_inst *in)
{
   sema_add(w, in, "ds_gws_sema_br", true);
}

void
sim__op_ds_gws_sema_p(sim_wave *w, const sim_inst *in)
{
   unsigned rid;
   struct sim_gws_resource *r = resource(w, in, "ds_gws_sema_p", &rid);
   if (!r)
      return;
   sim_gws *g = w->wg->disp->gws;
   pthread_mutex_lock(&g->lock);
   bool go = r->counter > 0;
   if (go) {
      r->counter--;
      changed_locked(g);
   }
   uint32_t ticket = r->released;
   pthread_mutex_unlock(&g->lock);
   if (!go)
      wait_begin(w, rid, SIM_GWS_WAIT_SEMA_P, ticket);
}

void
sim__op_ds_gws_sema_release_all(sim_wave *w, const sim_inst *in)
{
   unsigned rid;
   struct sim_gws_resource *r = resource(w, in, "ds_gws_sema_release_all", &rid);
   if (!r)
      return;
   sim_gws *g = w->wg->disp->gws;
   pthread_mutex_lock(&g->lock);
   r->released++;
   changed_locked(g);
   pthread_mutex_unlock(&g->lock);
}

void
sim__op_ds_gws_barrier(sim_wave *w, const sim_inst *in)
{
   unsigned rid;
   uint32_t v;
   struct sim_gws_resource *r = resource(w, in, "ds_gws_barrier", &rid);
   if (!r || !data0(w, in, &v))
      return;
   sim_gws *g = w->wg->disp->gws;
   pthread_mutex_lock(&g->lock);
   bool last = r->counter <= 0;
   uint32_t ticket = r->flag;
   if (last) {
      r->flag ^= 1;
      r->counter = v;
         changed_locked(g);
   } else {
      r->counter--;
   }
   pthread_mutex_unlock(&g->lock);
   if (!last)
      wait_begin(w, rid, SIM_GWS_WAIT_BARRIER, ticket);
}
