/*
 * sim/sim_cp.h — the command processor: the one AQL packet processor of the software GPU,
 * shared by its two front ends (HSA Runtime PRM §2.7.3 "Architected Queuing Language",
 * HSA PSA 1.0 §2.9). The software HSA runtime (sim/sim_queue.c) runs it on its own
 * hsa_queue_t rings and signals; the software KFD (sim/kfd/) runs it on ROCr's amd_queue_t
 * rings and amd_signal_t signals. Both reach the interpreter only through
 * sim__isa_dispatch (sim_isa.h).
 *
 * What the core does, for both: it reads a packet only once a ring of the queue's doorbell
 * came after the packet's slot was taken, as a hardware CP does (the HSA System
 * Architecture Specification's AQL doorbell signal, AMDGPUUsage "Kernel Dispatch": the
 * producer publishes the packet, then rings with its index — ROCr writes the last packet's,
 * write_index + n - 1 in amd_blit_kernel.cpp, hsacl each packet's). A packet the producer wrote
 * but nobody rang for since is not run — a missing doorbell hangs the queue as on hardware.
 * A ring is a change of the doorbell word since the CP last looked (a cold CP's trap sees
 * each store); on one the CP may read up to the larger of the index rung + 1 and the write
 * index, which it loads after the doorbell: gfx9's CP reads its write pointer from memory
 * (ROCr passes write_dispatch_id as Queue_write_ptr_aql for doorbell type 2: "hardware
 * write pointer supports AQL semantics"), the doorbell only wakes it. So producers of a
 * multi-producer queue may ring out of order — ROCr's blit kernels share one queue under
 * separate locks, and the word then ends below the last packet published — and every packet
 * still runs. A negative value (the front end's initial -1) allows nothing. The doorbell is a
 * 64-bit word the front end names (sim_cp.doorbell): the software runtime's doorbell
 * signal points at it (AMD_SIGNAL_KIND_DOORBELL, as ROCr's), the software KFD's is the
 * word ROCr received as Queue_DoorBell; both are SIM_ALLOC_DOORBELL memory, so a wave's
 * store to it (ockl's __ockl_hsa_signal_store on a doorbell signal) wakes the CP through
 * sim__doorbell_hook, and the front ends wake it on host writes (idle hooks).
 * Then it waits until write index > read index and the slot's
 * header type is not INVALID (the producer publishes the header last, PSA §2.9.3), and
 * until the read index has passed the slot's previous packet (index - size: a dispatch
 * still running keeps its slot, see sim_cp.c slot_unreleased), polling a
 * while and then sleeping through the front end's idle hooks; it processes each packet to
 * completion before the next, except that a kernel dispatch whose barrier bit is clear is
 * started on a thread of the queue's own (up to SIM_CP_MAX_ASYNC, started as needed and kept
 * until sim__cp_run returns) and the CP goes on to the next packet (PRM §2.7.3: such a
 * packet may run concurrently with earlier ones; a packet with the barrier bit waits for
 * every earlier one, and barrier-AND/OR packets block the launch of later packets until
 * they complete). Packets may thus complete out of order; the read index advances over the
 * completed prefix only. Kernel dispatch ->
 * sim__isa_dispatch, barrier-AND/OR (PRM §2.7.3.3), the AMD vendor packets (BARRIER_VALUE,
 * hsa_ext_amd.h; the PM4 indirect buffer ROCr's InvalidateCodeCaches emits, which means
 * "invalidate decoded code"); then it sets the header to INVALID, advances the read index
 * (release) and completes the packet's completion signal through the front end (which
 * decrements it by one, storing profiling times first).
 *
 * A failed packet (invalid packet, fault) calls ops->fail once; the core then processes
 * nothing more (the front end decides what "queue error" means: ROCr's error callback via
 * queue_inactive_signal, or hsa_queue_create's callback). The faulting packet's completion
 * signal is not decremented, as on hardware.
 */
#ifndef SIM_CP_H
#define SIM_CP_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <hsa/hsa.h>

#include "sim_isa.h"

typedef struct sim_cp sim_cp;

/*
 * The signal every packet completes, on both front ends: AMD's amd_signal_t
 * (hsa/amd_hsa_signal.h), which ROCr's signals are and the software runtime's signals begin
 * with (sim_signal.c). The handle of a signal is the address of this structure.
 */
typedef struct sim_amd_signal {
   int64_t kind;              /* AMD_SIGNAL_KIND_USER (1) for a signal the CP completes */
   _Atomic int64_t value;
   uint64_t event_mailbox_ptr; /* 0: no interrupt; else the event's 64-bit mailbox slot */
   uint32_t event_id;
   uint32_t reserved1;
   _Atomic uint64_t start_ts, end_ts; /* dispatch profiling, GPU clock domain */
   uint64_t queue_ptr;
   uint32_t reserved3[2];
} sim_amd_signal;

#define SIM_AMD_SIGNAL_KIND_USER 1
#define SIM_AMD_SIGNAL_KIND_DOORBELL (-1) /* value slot: hardware_doorbell_ptr */

/*
 * A packet's end of pipe, as the hardware CP does it: stores the timestamps when
 * `profiling`, decrements the value by one (sequentially consistent), and, when the
 * signal has an event mailbox, writes its event_id there. Returns that event id (the front
 * end raises the interrupt: wakes the event), or 0 when there is no mailbox.
 */
uint32_t sim__cp_signal_complete(sim_amd_signal *s, bool profiling, uint64_t start,
                                 uint64_t end);

/*
 * Queue-error bits, as ROCr's AqlQueue::DynamicScratchHandler decodes the value the CP
 * and the trap handler write into amd_queue_t.queue_inactive_signal
 * (amd_aql_queue.cpp, rocm-5.2.3).
 */
enum sim_cp_error_bits {
   SIM_CP_ERROR_INVALID_DIM = 2,
   SIM_CP_ERROR_INVALID_GROUP_MEMORY = 4,
   SIM_CP_ERROR_INVALID_CODE = 8,
   SIM_CP_ERROR_INVALID_FORMAT = 32,
   SIM_CP_ERROR_GROUP_TOO_LARGE = 64,
   SIM_CP_ERROR_VENDOR_FORMAT = 256,
   SIM_CP_ERROR_MEMORY_VIOLATION = 0x20000000,
   SIM_CP_ERROR_ILLEGAL_INSTRUCTION = 0x40000000,
   SIM_CP_ERROR_TRAP = (int)0x80000000u,
};

/* AMD vendor-specific packet formats (header.AmdFormat). 1 is ROCr's PM4 indirect buffer
 * (amd_aql_queue.cpp ExecutePM4, AMD_AQL_FORMAT_PM4_IB); 2 is BARRIER_VALUE. */
#define SIM_CP_AMD_FORMAT_PM4_IB 1u

/*
 * The front end's side. Every hook is called on the CP thread, or on the thread of an
 * asynchronous dispatch (signal_complete, profiling, fail), with no front-end lock held.
 * Signal handles are the 64-bit handles the packets carry; 0 never reaches a hook.
 */
typedef struct sim_cp_ops {
   /* True when `handle` names a live signal of this front end. */
   bool (*signal_valid)(sim_cp *cp, uint64_t handle);
   /* The signal's value (sequentially consistent). */
   int64_t (*signal_load)(sim_cp *cp, uint64_t handle);
   /* Completes a packet: when `profiling`, stores start/end (GPU clock domain) first, then
    * decrements the value by one (release) and wakes whoever waits for it. */
   void (*signal_complete)(sim_cp *cp, uint64_t handle, bool profiling, uint64_t start,
                           uint64_t end);
   /* Blocks until ready(cp, arg) holds or sim_cp.stop is set: the front end knows how
    * modifications of these signals are announced. Returns false when stopped. */
   bool (*wait_signals)(sim_cp *cp, const uint64_t *handles, uint32_t count,
                        bool (*ready)(sim_cp *cp, void *arg), void *arg);
   /* Idle protocol (an eventcount): prepare announces a sleep and returns a ticket; the core
    * re-tests for a packet, then either cancels or sleeps (spurious returns are fine). */
   uint32_t (*idle_prepare)(sim_cp *cp);
   void (*idle_cancel)(sim_cp *cp);
   void (*idle_sleep)(sim_cp *cp, uint32_t ticket);
   /* True when dispatch timestamps are to be stored with completion signals. */
   bool (*profiling)(sim_cp *cp);
   /* A packet failed: `status` for the HSA error callback, `error_bits` (enum
    * sim_cp_error_bits) for ROCr's queue_inactive_signal. `fault` may be NULL. */
   void (*fail)(sim_cp *cp, hsa_status_t status, uint32_t error_bits, const sim_fault *fault,
                const char *what);
   /* Vendor PM4 packet (code-cache invalidate): drop decoded instructions. May be NULL. */
   void (*invalidate_code)(sim_cp *cp);
   /* Kernel dispatch `p`, about to start on the CP thread: the queue's scratch it runs with
    * (sim_isa.h). The front end may drain the queue (sim__cp_drain) and stall on the
    * runtime first (ROCr's scratch request). False: the packet must not start (the front
    * end has set cp->stop or cp->error). *exclusive: the dispatch runs alone on the CP
    * thread and scratch_done is called once it ended without a fault, before the next
    * packet starts. NULL: the interpreter gives each work-group private memory itself. */
   bool (*scratch_acquire)(sim_cp *cp, const hsa_kernel_dispatch_packet_t *p,
                           sim_scratch **scratch, bool *exclusive);
   void (*scratch_done)(sim_cp *cp);
} sim_cp_ops;

#define SIM_CP_MAX_ASYNC 8u /* dispatches of one queue running at once */

/* A dispatch handed to the queue's dispatch threads. */
typedef struct sim_cp_job {
   uint8_t *packet;
   sim_scratch *scratch;
} sim_cp_job;

/* Embedded in the front end's queue object (sim_cp_init / no finish needed: sim__cp_run
 * ends the dispatch threads before it returns). */
struct sim_cp {
   const sim_cp_ops *ops;
   uint8_t *ring;                 /* packet slots, `size` x 64 bytes */
   uint32_t size;                 /* packets, a power of two */
   _Atomic uint64_t *read_index;  /* advanced by the CP (release) */
   _Atomic uint64_t *write_index; /* advanced by producers */
   _Atomic int64_t *doorbell;     /* the last packet index rung (-1: none); see the top */
   uint64_t rung;                 /* CP thread: packets below this index were rung for */
   int64_t bell_seen;             /* CP thread: the doorbell word at the last ring seen */
   _Atomic bool stop;             /* set by the front end to end sim__cp_run */
   _Atomic bool error;            /* set by the core when a packet failed */
   _Atomic bool suspended;        /* no packet is started while set (hsaKmtUpdateQueue 0%) */
   _Atomic bool busy;             /* a packet is being processed, or a dispatch runs */
   uint64_t id;                   /* for log messages */
   /* Dispatches without the barrier bit run on threads of their own (sim_cp.c): */
   uint64_t next;                 /* CP thread: next packet to start (>= *read_index) */
   /* CP thread only; not beside `inflight`/`processing`, which async_end reads under `lock`
    * (GCC reads both with one 8-byte load, which then overlapped these: ThreadSanitizer). */
   uint16_t last_acquire_scope, last_release_scope; /* recorded fence scopes */
   pthread_mutex_t lock;          /* read-index retirement, `inflight`, `processing` */
   pthread_cond_t retired;        /* an asynchronous dispatch ended */
   uint32_t inflight;             /* asynchronous dispatches queued or running */
   bool processing;               /* the CP thread is processing a packet itself */
   /* The dispatch threads (under `lock`): started by the CP thread when a job finds none
    * idle, joined by it when sim__cp_run ends. */
   pthread_cond_t work;           /* a job was queued, or `quit` was set */
   sim_cp_job jobs[SIM_CP_MAX_ASYNC]; /* queued, from `job_head`, `job_count` of them */
   uint32_t job_head, job_count;
   uint32_t workers, idle;        /* threads started; of them, waiting for a job */
   bool quit;                     /* the threads end once the queue is empty */
   pthread_t worker[SIM_CP_MAX_ASYNC]; /* CP thread only */
   unsigned agent;                /* GPU agent number (sim_isa.h): whose L2 the packets use */
   void *owner;                   /* the front end's queue */
   /* The queue's GWS allocation (sim_isa.h), handed to its dispatches; NULL: none. Set by
    * the front end (release) before the packets that may use it are rung for. */
   _Atomic(sim_gws *) gws;
};

/* On the thread creating the queue; also sim__isa_prepare (sim_isa.h says why). */
void sim__cp_init(sim_cp *cp, const sim_cp_ops *ops, void *owner, uint64_t id, void *ring,
                  uint32_t size, _Atomic uint64_t *read_index, _Atomic uint64_t *write_index,
                  _Atomic int64_t *doorbell);

/* Waits until no dispatch the CP started asynchronously runs any more: then the read index
 * has reached the packet the CP thread is processing. CP thread only. */
void sim__cp_drain(sim_cp *cp);

/* The CP thread's body: processes packets until cp->stop. Returns after the stop. */
void sim__cp_run(sim_cp *cp);

/* Nanoseconds of CLOCK_MONOTONIC: the GPU clock of both front ends (1 GHz). */
uint64_t sim__cp_clock(void);

#endif
