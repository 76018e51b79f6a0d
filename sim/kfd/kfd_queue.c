/*
 * sim/kfd/kfd_queue.c — KFD queues: ROCr's AQL queues served by the command processor
 * shared with the software HSA runtime (sim/sim_cp.h), completion of ROCr's amd_signal_t,
 * queue errors through queue_inactive_signal, suspend, synchronous destroy, trap handler.
 *
 * ROCr (amd_aql_queue.cpp, rocm-5.2.3) passes the ring, Queue_read_ptr_aql =
 * &amd_queue_t.read_dispatch_id (offset 0x80) and Queue_write_ptr_aql =
 * &write_dispatch_id (0x38, doorbell type 2); so amd_queue_t = read pointer - 0x80. It keeps
 * Queue_DoorBell (its doorbell signal's hardware_doorbell_ptr) and rings it with a 64-bit
 * release store of a packet index; the CP reads packets only after a ring, then up to the
 * write index (sim_cp.h). The doorbell is a page of its own mapped for the GPUs as SIM_ALLOC_DOORBELL
 * memory, so a kernel's ring (ockl's __ockl_hsa_signal_store through ROCr's doorbell
 * signal) kicks the CPs at once (doorbell_hook). ROCr's host store: a CP that ran packets in
 * the last HOT_NS polls the doorbell after its poll budget, napping KICK_MIN_NS on a
 * process-wide "kick" word that a host thread calling into the KFD's events pulls
 * (kfd_queue_host_waits: ROCr arms an async handler after it rings, and waits in the KFD);
 * a cold CP write-protects its doorbell page and sleeps without a timeout, and the store's
 * fault wakes it (kfd_doorbell.c). Where the process cannot trap, a cold CP's nap grows up
 * to KICK_MAX_NS.
 *
 * Completion (amd_hsa_signal.h): start_ts/end_ts (+0x20/+0x28) when profiling
 * (queue_properties.ENABLE_PROFILING), value (+8) decremented (release); if
 * event_mailbox_ptr (+0x10) is set, event_id (+0x18) is stored there and that event set.
 *
 * Errors: the CP stores ROCr's error code (enum sim_cp_error_bits) into the queue's
 * queue_inactive_signal and signals its event, as the CP and the trap handler do; ROCr's
 * DynamicScratchHandler then suspends the queue and calls the application's error callback.
 * A memory violation inside the 48-bit GPU VA space is a VM fault: the memory events are
 * set too (ROCr's VMFaultHandler aborts the process unless a system event handler is
 * registered, as on hardware).
 *
 * Scratch, as the CP firmware does it for ROCr's dynamic scratch (amd_aql_queue.cpp
 * DynamicScratchHandler and InitScratchSRD, amd_gpu_agent.cpp AcquireQueueScratch,
 * rocm-5.2.3): queues start without scratch. A dispatch whose private_segment_size needs
 * more per wave than the queue's COMPUTE_TMPRING_SIZE gives (or any, when it has no wave
 * slots) stalls at the read index: the CP drains the queue, stores 1 ("insufficient
 * scratch, wave64") into queue_inactive_signal and signals its event; ROCr's handler reads
 * the packet at read_dispatch_id, allocates and maps scratch from its pool, fills
 * amd_queue_t's scratch fields and stores 0; the CP re-reads them and dispatches with that
 * scratch (sim_scratch: the waves' V#, flat scratch base and wave offsets come from it).
 * ROCr's retry (it waits for large scratch to be freed) leaves the value at 1 with bit 63
 * set and cleared meanwhile. Any other value ends the queue: ROCr has suspended it and
 * called the error callback (HSA_STATUS_ERROR_OUT_OF_RESOURCES when no scratch fits). With
 * USE_SCRATCH_ONCE set (ROCr's "large" scratch) the dispatch runs alone and then the CP
 * stores 512 and waits for 0 (ROCr reclaims the scratch) before the next packet.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <linux/futex.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <hsa/amd_hsa_queue.h>
#include <hsa/amd_hsa_signal.h>

#include "kfd_priv.h"

#define KICK_MIN_NS 50000ull    /* idle sleep while the queue is hot */
#define KICK_MAX_NS 4000000ull  /* longest idle sleep: bounded latency without a kick */
#define HOT_NS 50000000ull      /* a queue is hot for 50 ms after its last packet */

_Static_assert(offsetof(amd_queue_t, write_dispatch_id) == 0x38, "amd_queue_t layout");
_Static_assert(offsetof(amd_queue_t, read_dispatch_id) == 0x80, "amd_queue_t layout");
_Static_assert(offsetof(amd_queue_t, queue_inactive_signal) == 0xc0, "amd_queue_t layout");
_Static_assert(offsetof(amd_signal_t, value) == 8, "amd_signal_t layout");
_Static_assert(offsetof(amd_signal_t, event_mailbox_ptr) == 0x10, "amd_signal_t layout");
_Static_assert(offsetof(amd_signal_t, event_id) == 0x18, "amd_signal_t layout");
_Static_assert(offsetof(amd_signal_t, start_ts) == 0x20, "amd_signal_t layout");
_Static_assert(offsetof(amd_signal_t, end_ts) == 0x28, "amd_signal_t layout");

typedef struct kfd_queue {
   sim_cp cp;
   sim_scratch scratch;        /* amd_queue_t's scratch as the waves use it (CP thread) */
   sim_gws gws;                /* the GWS, its dispatches' while cp.gws points to it */
   uint32_t scratch_tmpring;   /* compute_tmpring_size that `scratch` was built from */
   uint64_t scratch_location;  /* scratch_backing_memory_location likewise */
   HSA_QUEUEID id;
   uint32_t node;
   amd_queue_t *amdq;
   _Atomic int64_t *doorbell;  /* Queue_DoorBell: its page is kfd_memory_doorbell_create's */
   uint64_t idle_ns;           /* current idle sleep */
   uint64_t last_read;         /* read index at the last idle sleep */
   uint64_t hot_until;         /* sleep KICK_MIN_NS until then (CP thread only) */
   kfd_doorbell_trap *trap;    /* host stores to the doorbell fault; NULL: polled */
   bool armed;                 /* this idle sleep: the page is write-protected (CP thread) */
   uint32_t armed_rings;       /* the trap's rings when the CP last protected the page */
   pthread_t thread;
   struct kfd_queue *next;
} kfd_queue;

static pthread_mutex_t queues_lock = PTHREAD_MUTEX_INITIALIZER;
static kfd_queue *queues;
static uint32_t queues_closing; /* unlinked, CP not yet joined (queues_lock) */
static HSA_QUEUEID next_queue_id = 1;
/* Per GPU, the process's queue holding that GPU's GWS (queues_lock); GPU nodes are 1..N. */
static kfd_queue *gws_holder[KFD_MAX_GPUS];

static _Atomic uint32_t kick_seq;
static _Atomic uint32_t kick_sleepers;

static void
futex_wait(_Atomic uint32_t *word, uint32_t old, uint64_t timeout_ns)
{
   struct timespec ts = {(time_t)(timeout_ns / 1000000000ull),
                         (long)(timeout_ns % 1000000000ull)};
   syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, old, &ts, NULL, 0);
}

/* A CP asleep on its trapped doorbell waits on the kick word with a bit of its own: its ring
 * wakes it alone, a kick (FUTEX_WAKE, every bit) every CP, and a host's call into the KFD
 * (HOST_KICK) only the polling ones (their FUTEX_WAIT has every bit). Queue ids share bits
 * 0-30: a collision wakes one more. */
#define HOST_KICK (1u << 31)

static uint32_t
queue_bit(const kfd_queue *q)
{
   return 1u << (q->id % 31);
}

void
kfd_queue_kick(void)
{
   atomic_thread_fence(memory_order_seq_cst);
   if (atomic_load_explicit(&kick_sleepers, memory_order_relaxed)) {
      atomic_fetch_add(&kick_seq, 1);
      syscall(SYS_futex, &kick_seq, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
   }
}

/* A host thread calls into the KFD's events (ROCr arms an async handler after it rang, or is
 * about to sleep waiting for the GPU): polling CPs look at their doorbells now. A CP asleep
 * on its trapped doorbell stays asleep: a ring of it would have woken it. */
void
kfd_queue_host_waits(void)
{
   atomic_thread_fence(memory_order_seq_cst);
   if (atomic_load_explicit(&kick_sleepers, memory_order_relaxed))
      kfd_queue_wake(HOST_KICK);
}

void
kfd_queue_wake(uint32_t bits)
{
   atomic_fetch_add(&kick_seq, 1);
   syscall(SYS_futex, &kick_seq, FUTEX_WAKE_BITSET_PRIVATE, INT_MAX, NULL, NULL, bits);
}

/* A wave rang a doorbell (sim__doorbell_hook): every idle CP looks at its own. */
static void
doorbell_hook(uint64_t va)
{
   (void)va;
   kfd_queue_kick();
}

/* ---- amd_signal_t --------------------------------------------------------------------- */

static amd_signal_t *
amd_signal(uint64_t handle)
{
   return (amd_signal_t *)(uintptr_t)handle;
}

static bool
cp_signal_valid(sim_cp *cp, uint64_t handle)
{
   (void)cp;
   /* ROCr's handles are the addresses of 64-byte aligned amd_signal_t (signal.h). */
   return handle && !(handle & 7) &&
          __atomic_load_n(&amd_signal(handle)->kind, __ATOMIC_RELAXED) == AMD_SIGNAL_KIND_USER;
}

static int64_t
cp_signal_load(sim_cp *cp, uint64_t handle)
{
   (void)cp;
   return __atomic_load_n(&amd_signal(handle)->value, __ATOMIC_SEQ_CST);
}

static void
cp_signal_complete(sim_cp *cp, uint64_t handle, bool profiling, uint64_t start, uint64_t end)
{
   (void)cp;
   /* The end of pipe shared with the software runtime; then the interrupt. */
   uint32_t id = sim__cp_signal_complete((sim_amd_signal *)amd_signal(handle), profiling,
                                         start, end);
   if (id)
      kfd_event_interrupt(id, 32); /* the end-of-pipe interrupt carries the whole id */
}

/* A waiting barrier polls: ROCr sets no event on a host store nobody waits for. */
static bool
cp_wait_signals(sim_cp *cp, const uint64_t *handles, uint32_t count,
                bool (*ready)(sim_cp *cp, void *arg), void *arg)
{
   (void)handles, (void)count;
   uint64_t sleep_ns = 1000;
   for (;;) {
      if (atomic_load(&cp->stop))
         return false;
      if (ready(cp, arg))
         return true;
      uint32_t ticket = atomic_load(&kick_seq);
      atomic_fetch_add(&kick_sleepers, 1);
      if (!ready(cp, arg) && !atomic_load(&cp->stop))
         futex_wait(&kick_seq, ticket, sleep_ns);
      atomic_fetch_sub(&kick_sleepers, 1);
      sleep_ns = sleep_ns * 2 > KICK_MAX_NS ? KICK_MAX_NS : sleep_ns * 2;
   }
}

/* ---- idle: poll while hot, trap the doorbell when cold ----------------------------------- */

/*
 * A queue that processed packets in the last HOT_NS is hot: its CP naps KICK_MIN_NS and
 * looks at the doorbell, since a ring through the trap costs more than the naps on a
 * loaded machine (kfd_doorbell.c); a host thread that calls into the KFD's events (ROCr
 * arming an async handler, waiting on a signal) kicks it at once (kfd_queue_host_waits).
 * A cold CP with a trapped doorbell protects the page and sleeps without a timeout. It
 * protects it unless no ring lifted the protection since it last did: the fault thread
 * lifts it before it counts the ring and wakes the CP, so an unchanged count means the page
 * is protected, or a lift is under way whose wake-up comes after this ticket was taken and
 * ends the sleep. The CP's look at the doorbell after this (sim__cp_run) sees every ring
 * stored before the protection. A cold CP without a trap sleeps longer and longer, up to
 * KICK_MAX_NS.
 */
static uint32_t
cp_idle_prepare(sim_cp *cp)
{
   kfd_queue *q = cp->owner;
   uint32_t ticket = atomic_load(&kick_seq);
   atomic_fetch_add(&kick_sleepers, 1);
   atomic_thread_fence(memory_order_seq_cst);
   uint64_t now = sim__cp_clock();
   uint64_t r = atomic_load_explicit(cp->read_index, memory_order_relaxed);
   if (r != q->last_read) {
      q->last_read = r;
      q->hot_until = now + HOT_NS;
      q->idle_ns = KICK_MIN_NS;
   }
   q->armed = false;
   if (q->trap && now >= q->hot_until) {
      uint32_t rings = kfd_doorbell_rings(q->trap);
      if (rings == q->armed_rings) {
         q->armed = true;
      } else if (kfd_doorbell_arm(q->trap)) {
         q->armed_rings = rings;
         q->armed = true;
      }
   }
   return ticket;
}

static void
cp_idle_cancel(sim_cp *cp)
{
   ((kfd_queue *)cp->owner)->idle_ns = KICK_MIN_NS;
   atomic_fetch_sub(&kick_sleepers, 1);
}

static void reclaim_code(void);

static void
cp_idle_sleep(sim_cp *cp, uint32_t ticket)
{
   kfd_queue *q = cp->owner;
   reclaim_code(); /* this CP is quiet now; a kick meanwhile ends the sleep at once */
   if (q->armed) {
      /* No timeout: its ring, a kick or the queue's end wakes it; a lost wake-up hangs.
       * Its own bit: another queue's ring and a host's call (HOST_KICK) leave it asleep. */
      syscall(SYS_futex, &kick_seq, FUTEX_WAIT_BITSET_PRIVATE, ticket, NULL, NULL,
              queue_bit(q));
      atomic_fetch_sub(&kick_sleepers, 1);
      return;
   }
   bool hot = sim__cp_clock() < q->hot_until;
   futex_wait(&kick_seq, ticket, q->idle_ns);
   atomic_fetch_sub(&kick_sleepers, 1);
   if (!hot)
      q->idle_ns = q->idle_ns * 2 > KICK_MAX_NS ? KICK_MAX_NS : q->idle_ns * 2;
}

static bool
cp_profiling(sim_cp *cp)
{
   kfd_queue *q = cp->owner;
   return (__atomic_load_n(&q->amdq->queue_properties, __ATOMIC_RELAXED) >>
           AMD_QUEUE_PROPERTIES_ENABLE_PROFILING_SHIFT) & 1;
}

/* Stores `value` into the queue's queue_inactive_signal and raises its interrupt, as the CP
 * and the trap handler do; false when ROCr gave the queue no such signal. */
static bool
inactive_signal_raise(kfd_queue *q, int64_t value)
{
   uint64_t h = q->amdq->queue_inactive_signal.handle;
   if (!h) {
      SIM_LOGE("kfd", "queue %llu: no queue_inactive_signal to report 0x%llx",
               (unsigned long long)q->id, (unsigned long long)value);
      return false;
   }
   amd_signal_t *s = amd_signal(h);
   __atomic_store_n(&s->value, value, __ATOMIC_SEQ_CST);
   uint64_t mailbox = __atomic_load_n(&s->event_mailbox_ptr, __ATOMIC_RELAXED);
   if (mailbox) {
      uint32_t id = __atomic_load_n(&s->event_id, __ATOMIC_RELAXED);
      __atomic_store_n((uint64_t *)(uintptr_t)mailbox, (uint64_t)id, __ATOMIC_RELEASE);
      kfd_event_interrupt(id, 32);
   }
   return true;
}

static void
cp_fail(sim_cp *cp, hsa_status_t status, uint32_t error_bits, const sim_fault *fault,
        const char *what)
{
   (void)status, (void)what;
   kfd_queue *q = cp->owner;
   if (fault && fault->kind == SIM_FAULT_MEMORY_VIOLATION && fault->address < (1ull << 48))
      kfd_event_memory_fault(q->node, fault->address);
   inactive_signal_raise(q, (int64_t)error_bits);
}

/* ---- ROCr's dynamic scratch (see the top of the file) ------------------------------------ */

#define SCRATCH_REQUEST_WAVE64 1      /* queue_inactive_signal: insufficient scratch */
#define SCRATCH_RECLAIM 512           /* queue_inactive_signal: large scratch used once */
#define SCRATCH_RETRY_BIT (1ull << 63) /* ROCr's notifier, while it waits to retry */

/* COMPUTE_TMPRING_SIZE (gfx9): WAVES bits 0-11, WAVESIZE bits 12-24 in KiB. */
static uint32_t
tmpring_waves(uint32_t t)
{
   return t & 0xfff;
}

static uint32_t
tmpring_wave_kib(uint32_t t)
{
   return (t >> 12) & 0x1fff;
}

/* The waves' scratch follows amd_queue_t: rebuilt (the queue drained first) whenever ROCr
 * changed it. CP thread. */
static void
scratch_sync(kfd_queue *q)
{
   amd_queue_t *a = q->amdq;
   uint32_t tmpring = __atomic_load_n(&a->compute_tmpring_size, __ATOMIC_ACQUIRE);
   uint64_t location = __atomic_load_n(&a->scratch_backing_memory_location, __ATOMIC_RELAXED);
   if (tmpring == q->scratch_tmpring && location == q->scratch_location)
      return;
   sim__cp_drain(&q->cp);
   uint32_t srd[4];
   for (int i = 0; i < 4; i++)
      srd[i] = __atomic_load_n(&a->scratch_resource_descriptor[i], __ATOMIC_RELAXED);
   uint64_t size = __atomic_load_n(&a->scratch_backing_memory_byte_size, __ATOMIC_RELAXED);
   uint32_t wave_bytes = tmpring_wave_kib(tmpring) * 1024;
   uint32_t slots = tmpring_waves(tmpring);
   if (wave_bytes && (uint64_t)slots * wave_bytes > size)
      slots = (uint32_t)(size / wave_bytes); /* never past what ROCr mapped */
   if (!sim__scratch_set(&q->scratch, location, size, wave_bytes, wave_bytes ? slots : 0, srd))
      SIM_LOGE("kfd", "queue %llu: out of host memory for %u scratch slots",
               (unsigned long long)q->id, slots);
   q->scratch_tmpring = tmpring;
   q->scratch_location = location;
   SIM_LOGD("kfd", "queue %llu: scratch at 0x%llx, %llu bytes, %u waves of %u bytes",
            (unsigned long long)q->id, (unsigned long long)location,
            (unsigned long long)size, slots, wave_bytes);
}

/* Waits while queue_inactive_signal reads `pending` (ROCr's handler at work, its retry bit
 * included); returns the value it settled on, or 1 << 63 when the queue is being stopped or
 * suspended: a handler that fails the queue suspends it (hsaKmtUpdateQueue waits for the CP
 * to be idle) before it calls the error callback and stores -1. */
static int64_t
scratch_wait(kfd_queue *q, int64_t pending)
{
   amd_signal_t *s = amd_signal(q->amdq->queue_inactive_signal.handle);
   uint64_t sleep_ns = 1000;
   for (;;) {
      int64_t v = __atomic_load_n(&s->value, __ATOMIC_ACQUIRE);
      if (v != pending && (uint64_t)v != (SCRATCH_RETRY_BIT | (uint64_t)pending))
         return v;
      if (atomic_load(&q->cp.stop) || atomic_load(&q->cp.suspended))
         return (int64_t)SCRATCH_RETRY_BIT;
      uint32_t ticket = atomic_load(&kick_seq);
      atomic_fetch_add(&kick_sleepers, 1);
      futex_wait(&kick_seq, ticket, sleep_ns);
      atomic_fetch_sub(&kick_sleepers, 1);
      sleep_ns = sleep_ns * 2 > KICK_MAX_NS ? KICK_MAX_NS : sleep_ns * 2;
   }
}

static bool
scratch_fits(const amd_queue_t *a, uint32_t private_segment_size)
{
   uint32_t t = __atomic_load_n(&a->compute_tmpring_size, __ATOMIC_ACQUIRE);
   uint64_t need_kib = ((uint64_t)private_segment_size * 64 + 1023) / 1024;
   return tmpring_waves(t) != 0 && need_kib <= tmpring_wave_kib(t);
}

static bool
use_scratch_once(const amd_queue_t *a)
{
   return (__atomic_load_n(&a->queue_properties, __ATOMIC_ACQUIRE) >>
           AMD_QUEUE_PROPERTIES_USE_SCRATCH_ONCE_SHIFT) & 1;
}

static bool
cp_scratch_acquire(sim_cp *cp, const hsa_kernel_dispatch_packet_t *p, sim_scratch **scratch,
                   bool *exclusive)
{
   kfd_queue *q = cp->owner;
   amd_queue_t *a = q->amdq;
   *scratch = &q->scratch;
   *exclusive = false;
   if (p->private_segment_size && !scratch_fits(a, p->private_segment_size)) {
      /* ROCr's handler reads the packet at read_dispatch_id: every earlier one must be
       * done, and none may still use the scratch it is about to release. */
      sim__cp_drain(cp);
      SIM_LOGD("kfd", "queue %llu: scratch request for %u bytes per work-item",
               (unsigned long long)q->id, p->private_segment_size);
      if (!inactive_signal_raise(q, SCRATCH_REQUEST_WAVE64))
         goto out_fail;
      int64_t v = scratch_wait(q, SCRATCH_REQUEST_WAVE64);
      if (v != 0) {
         SIM_LOGI("kfd", "queue %llu: scratch request ended with 0x%llx: the queue stops",
                  (unsigned long long)q->id, (unsigned long long)v);
         goto out_fail;
      }
      if (!scratch_fits(a, p->private_segment_size)) {
         SIM_LOGE("kfd", "queue %llu: the runtime restarted the queue with too little "
                  "scratch", (unsigned long long)q->id);
         goto out_fail;
      }
   }
   scratch_sync(q);
   *exclusive = use_scratch_once(a);
   return true;

out_fail:
   atomic_store(&cp->error, true);
   return false;
}

/* After a dispatch that ran with single-use ("large") scratch: ROCr takes it back. */
static void
cp_scratch_done(sim_cp *cp)
{
   kfd_queue *q = cp->owner;
   if (!use_scratch_once(q->amdq))
      return;
   if (!inactive_signal_raise(q, SCRATCH_RECLAIM))
      return;
   int64_t v = scratch_wait(q, SCRATCH_RECLAIM);
   if (v != 0) {
      atomic_store(&cp->error, true);
      return;
   }
   scratch_sync(q);
}

static void
cp_invalidate_code(sim_cp *cp)
{
   pthread_mutex_lock(&queues_lock);
   kfd_memory_invalidate_code(cp);
   pthread_mutex_unlock(&queues_lock);
}

/* Frees dropped decodings once nothing runs: called when a CP goes to sleep and when a
 * queue has been destroyed, since the invalidation itself often comes while ROCr's copy of
 * the code object is still running on the same queue. */
static void
reclaim_code(void)
{
   if (!kfd_memory_code_pending())
      return;
   pthread_mutex_lock(&queues_lock);
   kfd_memory_reclaim_code();
   pthread_mutex_unlock(&queues_lock);
}

/*
 * A CP's `busy` is set before it starts a packet or an asynchronous dispatch and cleared
 * once none runs. The caller swapped the decodings out under the memory table's write lock:
 * a wave that read one before took the table's read lock (sim__mem_find) after its CP
 * became busy, so that CP is still seen busy here unless the dispatch has ended.
 */
bool
kfd_queue_quiet_locked(const sim_cp *self)
{
   if (queues_closing)
      return false;
   for (kfd_queue *q = queues; q; q = q->next) {
      sim_cp *cp = &q->cp;
      if (cp == self) {
         pthread_mutex_lock(&cp->lock);
         uint32_t inflight = cp->inflight;
         pthread_mutex_unlock(&cp->lock);
         if (inflight)
            return false;
      } else if (atomic_load(&cp->busy)) {
         return false;
      }
   }
   return true;
}

static const sim_cp_ops kfd_cp_ops = {
   .signal_valid = cp_signal_valid,
   .signal_load = cp_signal_load,
   .signal_complete = cp_signal_complete,
   .wait_signals = cp_wait_signals,
   .idle_prepare = cp_idle_prepare,
   .idle_cancel = cp_idle_cancel,
   .idle_sleep = cp_idle_sleep,
   .profiling = cp_profiling,
   .fail = cp_fail,
   .invalidate_code = cp_invalidate_code,
   .scratch_acquire = cp_scratch_acquire,
   .scratch_done = cp_scratch_done,
};

static void *
queue_main(void *arg)
{
   kfd_queue *q = arg;
   sim__cp_run(&q->cp);
   return NULL;
}

/* ---- the thunk's queue calls ------------------------------------------------------------- */

static kfd_queue *
lookup_locked(HSA_QUEUEID id)
{
   for (kfd_queue *q = queues; q; q = q->next) {
      if (q->id == id)
         return q;
   }
   return NULL;
}

static void
doorbell_destroy(kfd_queue *q)
{
   kfd_doorbell_trap_destroy(q->trap);
   kfd_memory_doorbell_destroy((void *)q->doorbell);
}

KFD_EXPORT HSAKMT_STATUS HSAKMTAPI
hsaKmtCreateQueue(HSAuint32 NodeId, HSA_QUEUE_TYPE Type, HSAuint32 QueuePercentage,
                  HSA_QUEUE_PRIORITY Priority, void *QueueAddress, HSAuint64 QueueSizeInBytes,
                  HsaEvent *Event, HsaQueueResource *QueueResource)
{
   (void)Priority, (void)Event;
   if (!kfd_is_open())
      return HSAKMT_STATUS_KERNEL_IO_CHANNEL_NOT_OPENED;
   if (!kfd_node_is_gpu(NodeId))
      return HSAKMT_STATUS_INVALID_NODE_UNIT;
   /* No SDMA engines (and no PM4 compute rings): ROCr falls back to blit kernels. */
   if (Type != HSA_QUEUE_COMPUTE_AQL)
      return HSAKMT_STATUS_NOT_SUPPORTED;
   if (!QueueResource || !QueueAddress || !QueueResource->Queue_read_ptr_aql ||
       !QueueResource->Queue_write_ptr_aql || QueuePercentage > 100)
      return HSAKMT_STATUS_INVALID_PARAMETER;
   uint64_t packets = QueueSizeInBytes / 64;
   if (packets < 2 || (packets & (packets - 1)) || packets > UINT32_MAX)
      return HSAKMT_STATUS_INVALID_PARAMETER;
   kfd_queue *q = calloc(1, sizeof(*q));
   if (!q)
      return HSAKMT_STATUS_NO_MEMORY;
   sim__scratch_init(&q->scratch);
   sim__gws_init(&q->gws, SIM_GWS_RESOURCES);
   q->doorbell = kfd_memory_doorbell_create();
   if (!q->doorbell)
      goto out_free;
   atomic_store(q->doorbell, -1); /* nothing rung; the page is populated before the trap */
   __atomic_store_n(&sim__doorbell_hook, doorbell_hook, __ATOMIC_RELEASE);
   q->node = NodeId;
   q->amdq = (amd_queue_t *)((uint8_t *)QueueResource->Queue_read_ptr_aql -
                             offsetof(amd_queue_t, read_dispatch_id));
   q->idle_ns = KICK_MIN_NS;
   pthread_mutex_lock(&queues_lock);
   q->id = next_queue_id++;
   pthread_mutex_unlock(&queues_lock);
   q->trap = kfd_doorbell_trap_create((void *)q->doorbell, queue_bit(q));
   q->armed_rings = UINT32_MAX; /* protect at the first sleep */
   sim__cp_init(&q->cp, &kfd_cp_ops, q, q->id, QueueAddress, (uint32_t)packets,
                (_Atomic uint64_t *)QueueResource->Queue_read_ptr_aql,
                (_Atomic uint64_t *)QueueResource->Queue_write_ptr_aql, q->doorbell);
   q->cp.agent = NodeId - 1; /* GPU nodes are 1..N */
   atomic_store(&q->cp.suspended, QueuePercentage == 0);
   if (pthread_create(&q->thread, NULL, queue_main, q) != 0)
      goto out_free;
   pthread_mutex_lock(&queues_lock);
   q->next = queues;
   queues = q;
   pthread_mutex_unlock(&queues_lock);
   QueueResource->QueueId = q->id;
   QueueResource->Queue_DoorBell_aql = (HSAuint64 *)q->doorbell;
   SIM_LOGD("kfd", "queue %llu on node %u: %llu packets at %p", (unsigned long long)q->id,
            NodeId, (unsigned long long)packets, QueueAddress);
   return HSAKMT_STATUS_SUCCESS;

out_free:
   sim__gws_finish(&q->gws);
   sim__scratch_finish(&q->scratch);
   doorbell_destroy(q);
   free(q);
   return HSAKMT_STATUS_NO_MEMORY;
}

/* Percentage 0 suspends (ROCr's AqlQueue::Suspend); waits for the packet in flight. */
KFD_EXPORT HSAKMT_STATUS HSAKMTAPI
hsaKmtUpdateQueue(HSA_QUEUEID QueueId, HSAuint32 QueuePercentage, HSA_QUEUE_PRIORITY Priority,
                  void *QueueAddress, HSAuint64 QueueSize, HsaEvent *Event)
{
   (void)Priority, (void)QueueAddress, (void)QueueSize, (void)Event;
   if (QueuePercentage > 100)
      return HSAKMT_STATUS_INVALID_PARAMETER;
   pthread_mutex_lock(&queues_lock);
   kfd_queue *q = lookup_locked(QueueId);
   if (q)
      atomic_store(&q->cp.suspended, QueuePercentage == 0);
   pthread_mutex_unlock(&queues_lock);
   if (!q)
      return HSAKMT_STATUS_INVALID_PARAMETER;
   if (QueuePercentage == 0 && !pthread_equal(pthread_self(), q->thread)) {
      while (atomic_load(&q->cp.busy))
         usleep(100);
   }
   kfd_queue_kick();
   return HSAKMT_STATUS_SUCCESS;
}

static void
queue_destroy(kfd_queue *q)
{
   atomic_store(&q->cp.stop, true);
   atomic_fetch_add(&kick_seq, 1);
   syscall(SYS_futex, &kick_seq, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
   pthread_join(q->thread, NULL);
   sim__gws_finish(&q->gws);
   sim__scratch_finish(&q->scratch);
   doorbell_destroy(q);
   free(q);
}

/* Synchronous: when it returns, the CP has stopped and will not touch the ring again. */
KFD_EXPORT HSAKMT_STATUS HSAKMTAPI
hsaKmtDestroyQueue(HSA_QUEUEID QueueId)
{
   pthread_mutex_lock(&queues_lock);
   kfd_queue *q = NULL;
   for (kfd_queue **p = &queues; *p; p = &(*p)->next) {
      if ((*p)->id == QueueId) {
         q = *p;
         *p = q->next;
         queues_closing++;
         break;
      }
   }
   if (q && q == gws_holder[q->node - 1])
      gws_holder[q->node - 1] = NULL; /* the GWS goes back with the queue */
   pthread_mutex_unlock(&queues_lock);
   if (!q)
      return HSAKMT_STATUS_INVALID_PARAMETER;
   queue_destroy(q);
   pthread_mutex_lock(&queues_lock);
   queues_closing--;
   pthread_mutex_unlock(&queues_lock);
   reclaim_code();
   return HSAKMT_STATUS_SUCCESS;
}

void
kfd_queue_close(void)
{
   pthread_mutex_lock(&queues_lock);
   kfd_queue *list = queues;
   queues = NULL;
   queues_closing++;
   pthread_mutex_unlock(&queues_lock);
   while (list) {
      kfd_queue *next = list->next;
      queue_destroy(list);
      list = next;
   }
   pthread_mutex_lock(&queues_lock);
   queues_closing--;
   pthread_mutex_unlock(&queues_lock);
}

/* Every CU runs every queue here: a CU mask changes nothing. */
KFD_EXPORT HSAKMT_STATUS HSAKMTAPI
hsaKmtSetQueueCUMask(HSA_QUEUEID QueueId, HSAuint32 CUMaskCount, HSAuint32 *QueueCUMask)
{
   if (!QueueCUMask || CUMaskCount == 0 || CUMaskCount % 32)
      return HSAKMT_STATUS_INVALID_PARAMETER;
   pthread_mutex_lock(&queues_lock);
   kfd_queue *q = lookup_locked(QueueId);
   pthread_mutex_unlock(&queues_lock);
   return q ? HSAKMT_STATUS_SUCCESS : HSAKMT_STATUS_INVALID_PARAMETER;
}

/*
 * AMDKFD_IOC_ALLOC_QUEUE_GWS (amdkfd kfd_ioctl_alloc_queue_gws, pqm_set_gws): nGWS > 0 gives
 * the queue its GPU's whole GWS block, nGWS 0 takes it back; the first resource is always 0.
 * One queue of a process holds a GPU's GWS at a time (EBUSY: the thunk's OUT_OF_RESOURCES);
 * the limit is per GPU, as pqm_set_gws keeps it in the process's per-device data, so each GPU
 * has its own cooperative queue (HIP's multi-device cooperative launch uses both). An
 * unknown queue is EINVAL. ROCr 5.2.3 asks for 1 when it creates the agent's cooperative
 * queue (AqlQueue::EnableGWS). The waves of the queue's dispatches then address its 64
 * resources (sim/isa/sim_gws.c); a dispatch already running keeps what it started with.
 */
KFD_EXPORT HSAKMT_STATUS HSAKMTAPI
hsaKmtAllocQueueGWS(HSA_QUEUEID QueueId, HSAuint32 nGWS, HSAuint32 *firstGWS)
{
   if (!kfd_is_open())
      return HSAKMT_STATUS_KERNEL_IO_CHANNEL_NOT_OPENED;
   HSAKMT_STATUS st = HSAKMT_STATUS_SUCCESS;
   pthread_mutex_lock(&queues_lock);
   kfd_queue *q = lookup_locked(QueueId);
   kfd_queue **holder = q ? &gws_holder[q->node - 1] : NULL;
   if (!q) {
      st = HSAKMT_STATUS_INVALID_PARAMETER;
   } else if (nGWS && *holder) {
      st = HSAKMT_STATUS_OUT_OF_RESOURCES;
   } else if (nGWS) {
      *holder = q;
      atomic_store_explicit(&q->cp.gws, &q->gws, memory_order_release);
   } else if (q == *holder) {
      *holder = NULL;
      atomic_store_explicit(&q->cp.gws, NULL, memory_order_release);
   }
   pthread_mutex_unlock(&queues_lock);
   if (st == HSAKMT_STATUS_SUCCESS && firstGWS)
      *firstGWS = 0;
   return st;
}

/*
 * ROCr's trap handler (amd_gpu_shaders.h) is not run: the interpreter reports traps,
 * illegal instructions and memory violations itself, and the CP applies the handler's
 * effect (the error code in queue_inactive_signal, cp_fail).
 */
KFD_EXPORT HSAKMT_STATUS HSAKMTAPI
hsaKmtSetTrapHandler(HSAuint32 NodeId, void *TrapHandlerBaseAddress,
                     HSAuint64 TrapHandlerSizeInBytes, void *TrapBufferBaseAddress,
                     HSAuint64 TrapBufferSizeInBytes)
{
   (void)TrapHandlerBaseAddress, (void)TrapHandlerSizeInBytes, (void)TrapBufferBaseAddress,
      (void)TrapBufferSizeInBytes;
   if (!kfd_is_open())
      return HSAKMT_STATUS_KERNEL_IO_CHANNEL_NOT_OPENED;
   return kfd_node_is_gpu(NodeId) ? HSAKMT_STATUS_SUCCESS : HSAKMT_STATUS_INVALID_NODE_UNIT;
}
