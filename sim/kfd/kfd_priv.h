/*
 * sim/kfd/kfd_priv.h — what the files of the software KFD share (kfd_ names).
 *
 * The software KFD is libhsakmt.so.1: the thunk ABI (Debian's libhsakmt-dev hsakmt.h,
 * ROCT-Thunk-Interface 5.2.3) that AMD's ROCr 5.2.3 imports, 42 functions at HSAKMT_1,
 * whose GPU nodes are the gfx906 interpreter (sim/isa) behind the command processor shared
 * with the software HSA runtime (sim/sim_cp.h). ROCr runs unmodified on it with
 * LD_LIBRARY_PATH=<build>/sim/kfd.
 *
 * Model: node 0 is the CPU, nodes 1..HSACL_KFD_GPUS are GPUs. Every allocation is host
 * memory and GPU VA == CPU VA. GPU access goes through the allocation table
 * (kfd_memory.c, which is the interpreter's sim__mem_find): only memory mapped to a GPU is
 * visible to it, anything else is a memory violation.
 *
 * Lock order (outer first): queue list -> memory table -> event lock.
 */
#ifndef KFD_PRIV_H
#define KFD_PRIV_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <pthread.h>
#include <hsakmt.h>

#include "sim_cp.h"
#include "sim_isa.h"
#include "sim_priv.h" /* logging, the GPUs shared with the software runtime */

#define KFD_EXPORT __attribute__((visibility("default")))

#define KFD_MAX_GPUS SIM_MAX_GPUS
#define KFD_PAGE 4096ull

/* ---- topology (kfd_topology.c) ------------------------------------------------------- */

/* True between hsaKmtOpenKFD and the matching hsaKmtCloseKFD. */
bool kfd_is_open(void);
uint32_t kfd_gpu_count(void);
/* Node 0 is the CPU; GPUs are 1..kfd_gpu_count(). */
static inline bool
kfd_node_is_gpu(uint32_t node)
{
   return node >= 1 && node <= kfd_gpu_count();
}
static inline bool
kfd_node_valid(uint32_t node)
{
   return node <= kfd_gpu_count();
}

/* GPU clock: nanoseconds of CLOCK_MONOTONIC (sim__cp_clock), 1 GHz in every domain. */
#define KFD_CLOCK_HZ 1000000000ull

/* ---- memory (kfd_memory.c) ----------------------------------------------------------- */

hsa_status_t kfd_memory_open(void);
void kfd_memory_close(void);
/* Drops the decoded instructions of every executable allocation (PM4 cache invalidate).
 * Queue list locked on entry; `self` is the CP processing the packet. A decoding a running
 * dispatch may still use is kept until a later invalidation or kfd_memory_reclaim_code
 * finds every queue quiet (kfd_queue_quiet_locked), then freed. */
void kfd_memory_invalidate_code(const sim_cp *self);
/* Whether dropped decodings wait to be freed (a hint: no lock). */
bool kfd_memory_code_pending(void);
/* Frees the dropped decodings if every queue is quiet. Queue list locked on entry. */
void kfd_memory_reclaim_code(void);

/* A queue's doorbell page, mapped for every GPU as SIM_ALLOC_DOORBELL memory; NULL when out
 * of memory. Destroy accepts NULL. */
void *kfd_memory_doorbell_create(void);
void kfd_memory_doorbell_destroy(void *page);
/* The event page (`size` bytes of mailbox slots), mapped for every GPU as fine-grained
 * memory: kernels write interrupt signals' mailboxes there. NULL when out of memory. */
void *kfd_memory_events_create(uint64_t size);
void kfd_memory_events_destroy(void *page, uint64_t size);

/* ---- events (kfd_event.c) ------------------------------------------------------------ */

/* Maps the event page for the GPUs and installs the interrupt handler (sim__interrupt_hook);
 * false when out of memory. Memory opened first. */
bool kfd_event_open(void);
void kfd_event_close(void);
/* The interrupt handler (amdkfd's kfd_signal_event_interrupt): an interrupt whose payload
 * holds `valid_bits` bits of an event id sets that event if its mailbox slot was written,
 * else every signal event whose slot was written; each slot it takes is reset. The CP's
 * end-of-pipe interrupt carries the whole id (32 bits), s_sendmsg's M0[23:0] (24). */
void kfd_event_interrupt(uint32_t payload, unsigned valid_bits);
/* Reports a GPU memory fault to every HSA_EVENTTYPE_MEMORY event. */
void kfd_event_memory_fault(uint32_t node, uint64_t address);

/* ---- queues (kfd_queue.c) ------------------------------------------------------------ */

void kfd_queue_close(void);
/* No dispatch runs on any queue, `self` (a CP processing a packet itself, or NULL) aside,
 * and no queue is being destroyed: no wave holds a decoded program. Queue list locked on
 * entry; called under the memory table's write lock. */
bool kfd_queue_quiet_locked(const sim_cp *self);
/* Makes idle command processors look at their doorbells now (a host thread is about to
 * sleep waiting for the GPU). */
void kfd_queue_kick(void);
/* A host thread calls into the KFD's events (sets one, or is about to sleep waiting for the
 * GPU): the CPs that poll their doorbells look now. */
void kfd_queue_host_waits(void);
/* Wakes the CPs sleeping with any of `bits` (a trapped doorbell was rung). Async-signal
 * safe: kfd_doorbell.c's fault handler calls it. */
void kfd_queue_wake(uint32_t bits);

/* ---- doorbell traps (kfd_doorbell.c) --------------------------------------------------- */

typedef struct kfd_doorbell_trap kfd_doorbell_trap;
/* Traps host stores to the doorbell page `page`: each store to it while armed wakes the
 * CPs of `wake_bits` (kfd_queue_wake). NULL when the process does not trap
 * (HSACL_KFD_DOORBELL=poll, HSACL_CRASH_RECOVERY, no slot): that queue's CP polls. */
kfd_doorbell_trap *kfd_doorbell_trap_create(void *page, uint32_t wake_bits);
/* Accepts NULL; the page is writable again. Before the page is unmapped. */
void kfd_doorbell_trap_destroy(kfd_doorbell_trap *trap);
/* Stores trapped so far; each made the page writable again before it was counted. */
uint32_t kfd_doorbell_rings(kfd_doorbell_trap *trap);
/* Makes the page read-only: the next store to it is trapped. CP thread, before its last look
 * at the doorbell. */
bool kfd_doorbell_arm(kfd_doorbell_trap *trap);

#endif
