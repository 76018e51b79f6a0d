/*
 * sim/sim_cp.c — the command processor shared by the software HSA runtime and the software
 * KFD (sim_cp.h states the contract).
 */
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <hsa/hsa_ext_amd.h>

#include "sim_cp.h"
#include "sim_priv.h" /* logging */

/* Polling before sleeping: sim_priv.h's SIM_POLL_NS explains the budget. */
#define CP_POLL_NS SIM_POLL_NS

uint64_t
sim__cp_clock(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

_Static_assert(sizeof(sim_amd_signal) == 64, "amd_signal_t is 64 bytes");
_Static_assert(offsetof(sim_amd_signal, value) == 8, "amd_signal_t.value");
_Static_assert(offsetof(sim_amd_signal, event_mailbox_ptr) == 0x10, "amd_signal_t mailbox");
_Static_assert(offsetof(sim_amd_signal, event_id) == 0x18, "amd_signal_t.event_id");
_Static_assert(offsetof(sim_amd_signal, start_ts) == 0x20, "amd_signal_t.start_ts");
_Static_assert(offsetof(sim_amd_signal, end_ts) == 0x28, "amd_signal_t.end_ts");
_Static_assert(offsetof(sim_amd_signal, queue_ptr) == 0x30, "amd_signal_t.queue_ptr");

uint32_t
sim__cp_signal_complete(sim_amd_signal *s, bool profiling, uint64_t start, uint64_t end)
{
   if (profiling) {
      atomic_store_explicit(&s->start_ts, start, memory_order_relaxed);
      atomic_store_explicit(&s->end_ts, end, memory_order_relaxed);
   }
   /* The mailbox and event id are read before the decrement: once the value is reached, a
    * waiter may destroy the signal and its slot may be handed to a new one. */
   uint64_t mailbox = __atomic_load_n(&s->event_mailbox_ptr, __ATOMIC_RELAXED);
   uint32_t id = __atomic_load_n(&s->event_id, __ATOMIC_RELAXED);
   atomic_fetch_sub_explicit(&s->value, 1, memory_order_seq_cst);
   if (!mailbox)
      return 0;
   __atomic_store_n((uint64_t *)(uintptr_t)mailbox, (uint64_t)id, __ATOMIC_RELEASE);
   return id;
}

void
sim__cp_init(sim_cp *cp, const sim_cp_ops *ops, void *owner, uint64_t id, void *ring,
             uint32_t size, _Atomic uint64_t *read_index, _Atomic uint64_t *write_index,
             _Atomic int64_t *doorbell)
{
   memset(cp, 0, sizeof(*cp));
   cp->ops = ops;
   cp->owner = owner;
   cp->id = id;
   cp->ring = ring;
   cp->size = size;
   cp->read_index = read_index;
   cp->write_index = write_index;
   cp->doorbell = doorbell;
   pthread_mutex_init(&cp->lock, NULL);
   pthread_cond_init(&cp->retired, NULL);
   pthread_cond_init(&cp->work, NULL);
   sim__isa_prepare();
}

static uint16_t
header_load(const void *packet)
{
   return atomic_load_explicit((_Atomic uint16_t *)packet, memory_order_acquire);
}

static void
header_store(void *packet, uint16_t header)
{
   atomic_store_explicit((_Atomic uint16_t *)packet, header, memory_order_release);
}

static uint64_t
completion_of(const uint8_t *packet)
{
   /* Offset 56 in every AQL packet format, AMD vendor packets included. */
   uint64_t s;
   memcpy(&s, packet + 56, sizeof(s));
   return s;
}

static void
cp_fail(sim_cp *cp, hsa_status_t status, uint32_t bits, const sim_fault *fault, const char *what)
{
   /* Once: two dispatches running at once may both fault. */
   if (atomic_exchange(&cp->error, true))
      return;
   if (fault)
      SIM_LOGE("queue", "queue %llu: %s: status 0x%x, fault kind %d, pc 0x%llx, address 0x%llx: %s",
               (unsigned long long)cp->id, what, status, fault->kind,
               (unsigned long long)fault->pc, (unsigned long long)fault->address,
               fault->message);
   else
      SIM_LOGE("queue", "queue %llu: %s: status 0x%x", (unsigned long long)cp->id, what, status);
   cp->ops->fail(cp, status, bits, fault, what);
}

/* ---- barriers ------------------------------------------------------------------------- */

typedef struct barrier_state {
   const uint64_t *deps;
   uint32_t count;
   bool and;
} barrier_state;

static bool
barrier_ready(sim_cp *cp, void *arg)
{
   barrier_state *b = arg;
   uint32_t zero = 0;
   for (uint32_t i = 0; i < b->count; i++)
      zero += cp->ops->signal_load(cp, b->deps[i]) == 0;
   return b->and ? zero == b->count : zero > 0;
}

enum deps_result { DEPS_MET, DEPS_STOPPED, DEPS_INVALID };

/* `and`: every non-zero handle reads 0; otherwise any does (no non-zero handle: met). */
static enum deps_result
wait_barrier(sim_cp *cp, const hsa_signal_t deps_in[5], bool and)
{
   uint64_t deps[5];
   barrier_state b = {deps, 0, and};
   for (int i = 0; i < 5; i++) {
      if (deps_in[i].handle == 0)
         continue;
      if (!cp->ops->signal_valid(cp, deps_in[i].handle))
         return DEPS_INVALID;
      deps[b.count++] = deps_in[i].handle;
   }
   if (b.count == 0 || barrier_ready(cp, &b))
      return DEPS_MET;
   return cp->ops->wait_signals(cp, deps, b.count, barrier_ready, &b) ? DEPS_MET : DEPS_STOPPED;
}

static bool
cond_holds(hsa_signal_condition_t cond, int64_t value, int64_t compare)
{
   switch (cond) {
   case HSA_SIGNAL_CONDITION_EQ: return value == compare;
   case HSA_SIGNAL_CONDITION_NE: return value != compare;
   case HSA_SIGNAL_CONDITION_LT: return value < compare;
   case HSA_SIGNAL_CONDITION_GTE: return value >= compare;
   default: return false;
   }
}

static bool
barrier_value_ready(sim_cp *cp, void *arg)
{
   const hsa_amd_barrier_value_packet_t *p = arg;
   return cond_holds((hsa_signal_condition_t)p->cond,
                           cp->ops->signal_load(cp, p->signal.handle) & p->mask, p->value);
}

static enum deps_result
wait_barrier_value(sim_cp *cp, const hsa_amd_barrier_value_packet_t *p)
{
   if (!p->signal.handle || !cp->ops->signal_valid(cp, p->signal.handle) ||
       p->cond > HSA_SIGNAL_CONDITION_GTE)
      return DEPS_INVALID;
   if (barrier_value_ready(cp, (void *)p))
      return DEPS_MET;
   uint64_t h = p->signal.handle;
   return cp->ops->wait_signals(cp, &h, 1, barrier_value_ready, (void *)p) ? DEPS_MET
                                                                             : DEPS_STOPPED;
}

/* ---- packets -------------------------------------------------------------------------- */

static bool
dispatch_valid(const hsa_kernel_dispatch_packet_t *p, uint32_t *bits)
{
   uint16_t dims = p->setup & 3;
   *bits = SIM_CP_ERROR_INVALID_DIM;
   if (dims < 1 || dims > 3)
      return false;
   if (!p->workgroup_size_x || !p->workgroup_size_y || !p->workgroup_size_z)
      return false;
   if (!p->grid_size_x || !p->grid_size_y || !p->grid_size_z)
      return false;
   *bits = SIM_CP_ERROR_GROUP_TOO_LARGE;
   if ((uint32_t)p->workgroup_size_x * p->workgroup_size_y * p->workgroup_size_z > 1024)
      return false;
   *bits = SIM_CP_ERROR_INVALID_CODE;
   return p->kernel_object != 0;
}

static uint32_t
fault_bits(sim_fault_kind kind)
{
   switch (kind) {
   case SIM_FAULT_MEMORY_VIOLATION: return SIM_CP_ERROR_MEMORY_VIOLATION;
   case SIM_FAULT_ILLEGAL_INSTRUCTION: return SIM_CP_ERROR_ILLEGAL_INSTRUCTION;
   case SIM_FAULT_TRAP: return (uint32_t)SIM_CP_ERROR_TRAP;
   /* A hung queue's reset: on hardware ROCr 5.2 takes the KFD's reset event as fatal for the
    * process; here the stopped dispatch ends the queue as a trap does, which ROCr reports
    * through the queue's error callback as HSA_STATUS_ERROR_EXCEPTION (the same status the
    * software runtime gives), and the process lives on. */
   case SIM_FAULT_WATCHDOG: return (uint32_t)SIM_CP_ERROR_TRAP;
   case SIM_FAULT_INVALID_PACKET: return SIM_CP_ERROR_INVALID_CODE;
   default: return SIM_CP_ERROR_INVALID_FORMAT;
   }
}

/* Advances the read index over the completed prefix of started packets (their headers are
 * INVALID: a slot between the read index and `next` is not reused before the read index
 * passes it). Under cp->lock. */
static void
retire_locked(sim_cp *cp)
{
   uint64_t r = atomic_load_explicit(cp->read_index, memory_order_relaxed);
   uint64_t first = r;
   while (r < cp->next &&
          (header_load(cp->ring + (r & (cp->size - 1)) * 64) & 0xff) == HSA_PACKET_TYPE_INVALID)
      r++;
   if (r != first)
      atomic_store_explicit(cp->read_index, r, memory_order_release);
}

/* A packet is done: header INVALID, read index over the completed prefix, then its
 * completion signal (profiling times first). */
static void
packet_complete(sim_cp *cp, uint8_t *packet, uint64_t start)
{
   uint64_t end = sim__cp_clock();
   uint64_t completion = completion_of(packet);
   header_store(packet, HSA_PACKET_TYPE_INVALID << HSA_PACKET_HEADER_TYPE);
   pthread_mutex_lock(&cp->lock);
   retire_locked(cp);
   pthread_mutex_unlock(&cp->lock);
   if (completion) {
      if (cp->ops->signal_valid(cp, completion))
         cp->ops->signal_complete(cp, completion, cp->ops->profiling(cp), start, end);
      else
         SIM_LOGW("queue", "queue %llu: completion signal 0x%llx is not a signal",
                  (unsigned long long)cp->id, (unsigned long long)completion);
   }
}

/* ---- dispatches without the barrier bit ------------------------------------------------ */

/* Dispatches without the barrier bit run on the queue's dispatch threads: started on demand
 * (a job that finds no thread idle starts one, up to SIM_CP_MAX_ASYNC) and kept until the
 * CP ends, so that a queue fed many short dispatches (ROCr's blit kernels: one per copy)
 * does not create and tear down a thread, its stack and its mappings for each. */

static void
async_end(sim_cp *cp)
{
   pthread_mutex_lock(&cp->lock);
   cp->inflight--;
   atomic_store(&cp->busy, cp->processing || cp->inflight);
   pthread_cond_broadcast(&cp->retired);
   pthread_mutex_unlock(&cp->lock);
}

static void
async_run(sim_cp *cp, const sim_cp_job *job)
{
   const hsa_kernel_dispatch_packet_t *p = (const hsa_kernel_dispatch_packet_t *)job->packet;
   uint64_t start = sim__cp_clock();
   sim_fault fault;
   memset(&fault, 0, sizeof(fault));
   hsa_status_t st = sim__isa_dispatch_queue(cp->agent, job->scratch,
                                             atomic_load_explicit(&cp->gws, memory_order_acquire),
                                             p, (uint64_t)(uintptr_t)job->packet, &fault);
   if (st != HSA_STATUS_SUCCESS)
      cp_fail(cp, st, fault_bits(fault.kind), &fault, "kernel dispatch failed");
   else
      packet_complete(cp, job->packet, start);
   async_end(cp);
}

/* A dispatch thread: runs queued jobs until `quit` finds the queue empty. */
static void *
async_main(void *arg)
{
   sim_cp *cp = arg;
   pthread_mutex_lock(&cp->lock);
   for (;;) {
      while (!cp->job_count && !cp->quit) {
         cp->idle++;
         pthread_cond_wait(&cp->work, &cp->lock);
         cp->idle--;
      }
      if (!cp->job_count)
         break;
      sim_cp_job job = cp->jobs[cp->job_head];
      cp->job_head = (cp->job_head + 1) % SIM_CP_MAX_ASYNC;
      cp->job_count--;
      pthread_mutex_unlock(&cp->lock);
      async_run(cp, &job);
      pthread_mutex_lock(&cp->lock);
   }
   pthread_mutex_unlock(&cp->lock);
   return NULL;
}

/* Waits until no asynchronous dispatch of `cp` runs (`limit` 0), or fewer than `limit`. */
static void
async_wait(sim_cp *cp, uint32_t limit)
{
   pthread_mutex_lock(&cp->lock);
   while (cp->inflight > (limit ? limit - 1 : 0))
      pthread_cond_wait(&cp->retired, &cp->lock);
   pthread_mutex_unlock(&cp->lock);
}

void
sim__cp_drain(sim_cp *cp)
{
   async_wait(cp, 0);
}

/* Starts a dispatch thread; under cp->lock, CP thread only. */
static bool
async_spawn(sim_cp *cp)
{
   pthread_attr_t attr;
   pthread_attr_init(&attr);
   pthread_attr_setstacksize(&attr, 1 << 20);
   int rc = pthread_create(&cp->worker[cp->workers], &attr, async_main, cp);
   pthread_attr_destroy(&attr);
   if (rc != 0)
      return false;
   cp->workers++;
   return true;
}

/* Queues the (valid) dispatch packet for the dispatch threads; false when there is no
 * thread to run it (the caller runs it itself). */
static bool
async_start(sim_cp *cp, uint8_t *packet, sim_scratch *scratch)
{
   /* At most SIM_CP_MAX_ASYNC in flight: the job ring never overflows. */
   async_wait(cp, SIM_CP_MAX_ASYNC);
   pthread_mutex_lock(&cp->lock);
   /* One idle thread for each job already queued and this one, else a new thread. */
   if (cp->idle <= cp->job_count && cp->workers < SIM_CP_MAX_ASYNC && !async_spawn(cp) &&
       !cp->workers) {
      pthread_mutex_unlock(&cp->lock);
      return false;
   }
   cp->jobs[(cp->job_head + cp->job_count) % SIM_CP_MAX_ASYNC] =
      (sim_cp_job){.packet = packet, .scratch = scratch};
   cp->job_count++;
   cp->inflight++;
   atomic_store(&cp->busy, true);
   pthread_cond_signal(&cp->work);
   pthread_mutex_unlock(&cp->lock);
   return true;
}

/* Ends the dispatch threads (none runs a job: async_wait(cp, 0) came first). CP thread. */
static void
async_stop(sim_cp *cp)
{
   pthread_mutex_lock(&cp->lock);
   cp->quit = true;
   pthread_cond_broadcast(&cp->work);
   uint32_t n = cp->workers;
   pthread_mutex_unlock(&cp->lock);
   for (uint32_t i = 0; i < n; i++)
      pthread_join(cp->worker[i], NULL);
   pthread_mutex_lock(&cp->lock);
   cp->workers = 0;
   cp->quit = false;
   pthread_mutex_unlock(&cp->lock);
}

/* Processes the packet in slot `index`; returns false when the queue stopped or failed. */
static bool
process_packet(sim_cp *cp, uint64_t index)
{
   uint8_t *packet = cp->ring + (index & (cp->size - 1)) * 64;
   uint16_t header = header_load(packet);
   uint8_t type = (header >> HSA_PACKET_HEADER_TYPE) & 0xff;
   cp->last_acquire_scope = (header >> HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) & 3;
   cp->last_release_scope = (header >> HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE) & 3;
   uint64_t start = sim__cp_clock();
   enum deps_result deps;

   switch (type) {
   case HSA_PACKET_TYPE_KERNEL_DISPATCH: {
      const hsa_kernel_dispatch_packet_t *p = (const hsa_kernel_dispatch_packet_t *)packet;
      uint32_t bits;
      if (!dispatch_valid(p, &bits)) {
         cp_fail(cp, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT, bits, NULL,
                 "invalid dispatch packet");
         return false;
      }
      sim_scratch *scratch = NULL;
      bool exclusive = false;
      if (cp->ops->scratch_acquire && !cp->ops->scratch_acquire(cp, p, &scratch, &exclusive))
         return false;
      if (!exclusive && !(header & (1u << HSA_PACKET_HEADER_BARRIER)) &&
          async_start(cp, packet, scratch))
         return true; /* it completes on its own thread */
      sim_fault fault;
      memset(&fault, 0, sizeof(fault));
      hsa_status_t st = sim__isa_dispatch_queue(
         cp->agent, scratch, atomic_load_explicit(&cp->gws, memory_order_acquire), p,
         (uint64_t)(uintptr_t)packet, &fault);
      if (st != HSA_STATUS_SUCCESS) {
         cp_fail(cp, st, fault_bits(fault.kind), &fault, "kernel dispatch failed");
         return false;
      }
      if (exclusive)
         cp->ops->scratch_done(cp);
      break;
   }
   case HSA_PACKET_TYPE_BARRIER_AND:
   case HSA_PACKET_TYPE_BARRIER_OR: {
      const hsa_barrier_and_packet_t *p = (const hsa_barrier_and_packet_t *)packet;
      deps = wait_barrier(cp, p->dep_signal, type == HSA_PACKET_TYPE_BARRIER_AND);
      goto check_deps;
   }
   case HSA_PACKET_TYPE_VENDOR_SPECIFIC: {
      const hsa_amd_barrier_value_packet_t *p = (const hsa_amd_barrier_value_packet_t *)packet;
      if (p->header.AmdFormat == SIM_CP_AMD_FORMAT_PM4_IB && cp->ops->invalidate_code) {
         /* ROCr emits exactly one PM4 stream: ACQUIRE_MEM invalidating the instruction
          * and scalar caches after a code object was written (InvalidateCodeCaches). */
         cp->ops->invalidate_code(cp);
         break;
      }
      if (p->header.AmdFormat != HSA_AMD_PACKET_TYPE_BARRIER_VALUE) {
         cp_fail(cp, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT, SIM_CP_ERROR_VENDOR_FORMAT, NULL,
                 "unknown vendor packet");
         return false;
      }
      deps = wait_barrier_value(cp, p);
      goto check_deps;
   }
   default:
      /* AGENT_DISPATCH is not a feature of this queue; anything else is malformed. */
      cp_fail(cp, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT, SIM_CP_ERROR_INVALID_FORMAT, NULL,
              "invalid packet type");
      return false;
   }
   goto complete;

check_deps:
   if (deps == DEPS_STOPPED)
      return false;
   if (deps == DEPS_INVALID) {
      cp_fail(cp, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT, SIM_CP_ERROR_INVALID_FORMAT, NULL,
              "invalid dependency signal");
      return false;
   }
   /* A barrier's fences take effect once its dependencies are met (PRM §2.7.3.3). */
   sim__cache_fence(cp->agent, cp->last_acquire_scope, cp->last_release_scope);

complete:
   packet_complete(cp, packet, start);
   return true;
}

/*
 * Whether slot `index` still belongs to packet index - size: the read index has not passed
 * it. A producer writes packet i only once the read index exceeds i - size (PSA §2.9.3), but
 * it may advance the write index first and then wait for room (ROCr's blit kernels do, on
 * 64-packet queues). The read index here waits for completion, and cp->next runs ahead of
 * it past asynchronous dispatches still running, so a dispatch that runs long enough lets
 * the CP come round the ring to its slot, whose header is still that dispatch's own: read
 * as packet i it would run the old packet twice, and the real packet i, written once the old
 * one retires, never (its signal one decrement short, or the old one's one too many).
 */
static bool
slot_unreleased(sim_cp *cp, uint64_t index)
{
   return index - atomic_load_explicit(cp->read_index, memory_order_acquire) >= cp->size;
}

/* The packet at the read index is published (header no longer INVALID) and may run. */
static bool
packet_ready(sim_cp *cp, uint64_t *index)
{
   if (atomic_load(&cp->error) || atomic_load(&cp->suspended))
      return false;
   uint64_t r = cp->next; /* written only by this (the CP) thread */
   if (r >= cp->rung) {
      /* Acquire: the packets were published before the ring (PSA §2.9.3). */
      int64_t bell = atomic_load_explicit(cp->doorbell, memory_order_acquire);
      if (bell < 0 || bell == cp->bell_seen)
         return false; /* no ring since the last look */
      cp->bell_seen = bell;
      /* A ring: read up to the write pointer (sim_cp.h). The word may be below r when
       * producers rang out of order; the ring still counts. */
      uint64_t w = atomic_load(cp->write_index);
      cp->rung = w > (uint64_t)bell + 1 ? w : (uint64_t)bell + 1;
   }
   uint64_t w = atomic_load(cp->write_index);
   if (r >= w || slot_unreleased(cp, r))
      return false;
   const uint8_t *slot = cp->ring + (r & (cp->size - 1)) * 64;
   if ((header_load(slot) & 0xff) == HSA_PACKET_TYPE_INVALID)
      return false;
   *index = r;
   return true;
}

/*
 * Like a GPU's command processor it polls the doorbell for a while after the last packet,
 * so a producer that keeps it fed rings with a plain store; only then does it announce a
 * sleep through the front end's idle hooks. The producer publishes the header before
 * ringing (PSA §2.9.3), so the re-test after announcing sees every ring that did not wake
 * the CP.
 */
void
sim__cp_run(sim_cp *cp)
{
   /* Poll budget: full when a wake-up found a backlog (the producer outran a sleeping CP:
    * it streams), halved when it found one packet (work comes one at a time, as when the
    * host waits for each launch: then the host needs the CPU more). */
   uint64_t budget = 0;
   bool slept = false, polled = false;
   cp->next = atomic_load(cp->read_index);
   cp->rung = cp->next;
   cp->bell_seen = -1; /* any ring before this thread started counts */
   while (!atomic_load(&cp->stop)) {
      uint64_t index;
      if (slot_unreleased(cp, cp->next)) {
         /* Come round the ring to a dispatch still running: its end retires the slot. */
         pthread_mutex_lock(&cp->lock);
         while (cp->inflight && slot_unreleased(cp, cp->next))
            pthread_cond_wait(&cp->retired, &cp->lock);
         pthread_mutex_unlock(&cp->lock);
      }
      if (packet_ready(cp, &index)) {
         if (slept) {
            uint64_t backlog = atomic_load(cp->write_index) - index;
            budget = backlog >= 2 ? CP_POLL_NS : budget / 2 < 1000 ? 0 : budget / 2;
         }
         slept = polled = false;
         /* A packet with the barrier bit waits for every earlier packet to complete. */
         const uint8_t *slot = cp->ring + (index & (cp->size - 1)) * 64;
         if (header_load(slot) & (1u << HSA_PACKET_HEADER_BARRIER))
            async_wait(cp, 0);
         bool run = !atomic_load(&cp->suspended) && !atomic_load(&cp->error);
         pthread_mutex_lock(&cp->lock);
         cp->processing = true;
         atomic_store(&cp->busy, true);
         if (run)
            cp->next = index + 1; /* retire_locked reads it */
         pthread_mutex_unlock(&cp->lock);
         bool started = run && process_packet(cp, index);
         pthread_mutex_lock(&cp->lock);
         if (run && !started)
            cp->next = index; /* failed or stopped: not started */
         cp->processing = false;
         atomic_store(&cp->busy, cp->inflight != 0);
         pthread_mutex_unlock(&cp->lock);
         continue;
      }
      if (!polled && budget) {
         polled = true;
         uint64_t start = sim__cp_clock();
         bool ready = false;
         for (uint32_t i = 1; !ready && !atomic_load(&cp->stop); i++) {
            __builtin_ia32_pause();
            ready = packet_ready(cp, &index);
            if (i % 16 == 0 && sim__cp_clock() - start >= budget)
               break;
         }
         if (ready)
            continue;
      }
      uint32_t ticket = cp->ops->idle_prepare(cp);
      if (packet_ready(cp, &index) || atomic_load(&cp->stop)) {
         cp->ops->idle_cancel(cp);
         continue;
      }
      cp->ops->idle_sleep(cp, ticket);
      slept = true;
   }
   /* The front end destroys the queue once this returns: no dispatch may still run, no
    * dispatch thread may be left. */
   async_wait(cp, 0);
   async_stop(cp);
}
