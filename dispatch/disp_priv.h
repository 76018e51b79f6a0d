/* dispatch/disp_priv.h — shared between the files of dispatch/ only. */
#ifndef DISP_PRIV_H
#define DISP_PRIV_H

#include "dispatch/disp.h"

#include <stddef.h>

/* Creates an event with one API reference and one internal reference for the API side.
 * `q` NULL makes a user event (status CL_SUBMITTED, no signal). */
cl_int disp__event_create(struct _cl_context *ctx, struct _cl_command_queue *q,
                          cl_command_type type, struct _cl_event **out);

/*
 * Submits (or fails) commands that were held back on the host and whose dependencies are
 * now resolved; called when `ev` became terminal or a command was submitted (`ev` NULL).
 * No lock held. Without `may_block` (the completion path: a runtime thread whose progress
 * the AQL packets may wait for) it never waits for a queue's submit lock or ring space:
 * a command it cannot submit at once stays held, and the submit lock's holder or the next
 * completion on that queue submits it.
 */
void disp__pending_event_done(struct _cl_event *ev, bool may_block);

/* Around a call into the application (an event callback) from inside completion: the
 * application may wait for held commands there, so disp__pending_event_done works again
 * on this thread until disp__pending_resume(the value returned). */
bool disp__pending_suspend(void);
void disp__pending_resume(bool was);

/* disp_event_set_status(); `may_block` as for disp__pending_event_done. */
void disp__event_set_status(struct _cl_event *ev, cl_int status, bool may_block);

/* Whether q's AQL ring has room for `packets` more packets without waiting (a faulted or
 * missing ring is replaced empty). Caller holds q->submit_lock. */
bool disp__queue_has_room_locked(struct _cl_command_queue *q, uint32_t packets);

/* Commands of `q` reached a terminal state: drops them from the outstanding count (waking
 * clFinish), from q->commands if listed, and from last_event and barrier_event if they
 * are theirs. Takes q->lock only for listed commands, barrier events and a sleeping
 * clFinish. */
void disp__queue_commands_done(struct _cl_command_queue *q, struct disp_command *const *cmds,
                               unsigned n);

/* Puts `cmd` on q->commands, or takes it off (disp.h). Take q->lock. */
void disp__queue_list(struct _cl_command_queue *q, struct disp_command *cmd);
void disp__queue_unlist(struct _cl_command_queue *q, struct disp_command *cmd);

/* The command of a completion-FIFO node; NULL for the queue's stub. */
static inline struct disp_command *
disp__fifo_command(struct _cl_command_queue *q, struct disp_fifo_node *n)
{
   if (n == &q->fifo_stub)
      return NULL;
   return (struct disp_command *)((char *)n - offsetof(struct disp_command, fifo));
}

/* Before a command's `packets` packets: while the AQL ring is over half full, writes an
 * empty barrier-AND that decrements one of q's checkpoint signals every ring/8 packets
 * (disp.h), if the ring has room for it and the packets. Caller holds q->submit_lock. */
void disp__queue_checkpoint_locked(struct _cl_command_queue *q, uint32_t packets);

/*
 * Brackets the driver's callbacks run by the HSA runtime on its own threads (async signal
 * handlers, the queue error callback). Inside them a queue whose last reference goes is
 * destroyed on a thread of its own: ROCr's hsa_queue_destroy waits for its async-handler
 * thread to retire the queue's error handler, so called from that thread it never returns
 * (ROCr 5.2.3 AqlQueue::~AqlQueue).
 */
void disp__runtime_callback_enter(void);
void disp__runtime_callback_leave(void);

/* Whether this thread is inside the completion path (a runtime callback, or a queue's
 * retirement run by an enqueueing thread): an event callback called from there that
 * waits for commands (clFinish, clWaitForEvents, a blocking enqueue) would wait for the
 * thread it runs on, so those calls fail with CL_INVALID_OPERATION there instead. */
bool disp__in_completion(void);

/* Fence scopes (disp_fence.c). The acquire and release scope bits of a kernel's packet
 * header; marks the event agent-released when the release is at agent scope. */
uint16_t disp__fence_kernel_scopes(struct disp_command *cmd);
/* The dependency barrier in front of a kernel: agent scope where the kernel may use it. */
uint16_t disp__fence_barrier_scopes(const struct _cl_command_queue *q);
/* A release fence's barrier: system-scope release, no acquire (the GPU reads nothing). */
uint16_t disp__fence_release_scopes(void);
/* A kernel completed successfully (called before its event reads CL_COMPLETE). */
void disp__fence_kernel_completed(struct disp_command *cmd);
/* For a command that is not a kernel, at submission: whether a system-scope release must
 * precede it (sets release_covers). Advances the write epoch unless it is a marker. */
bool disp__fence_release_needed(struct disp_command *cmd);
/* A command that had a release fence completed successfully. */
void disp__fence_released(struct disp_command *cmd);

/* ---- kernarg segments (disp_kernarg.c) ---- */

/* Frees the queue's kernarg ring (queue destruction: no launch is in flight). */
void disp__kernarg_ring_finish(struct _cl_command_queue *q);

/* Takes `size` bytes (aligned to 64) of q's kernarg ring for a launch; an enqueueing thread,
 * under q->kernarg_lock (taken inside). A full ring is replaced by one twice its size. */
cl_int disp__kernarg_alloc(struct _cl_command_queue *q, uint32_t size,
                           struct disp_kernarg_slot *slot);
/* Returns a segment: any thread, no lock (the allocator reclaims it). */
void disp__kernarg_free(struct disp_kernarg_slot *slot);

/* The range of a launch; 1 (sizes) and 0 (offsets) beyond work_dim. */
struct disp__range {
   cl_uint work_dim;
   size_t global[3];
   size_t offset[3];
   size_t local[3];
};

/* What the explicit arguments of a launch hold until the launch is released: internal
 * references on its memory objects (buffers, pipes, images) and samplers, and the device
 * queue a queue_t argument names (held by the kernel's argument, not here). */
struct _cl_kernel;
struct _cl_sampler;
struct comp_kernel_device;
struct disp_devq;
struct disp__kernarg_refs {
   struct _cl_mem **mems;         /* room for the kernel's explicit arguments */
   cl_uint num_mems;
   struct _cl_sampler **samplers; /* allocated at the first sampler, or NULL */
   cl_uint num_samplers;
   struct disp_devq *devq;
};

/* Writes the explicit arguments of `k` (signature kd->sig, values k->args, all set) into the
 * zeroed segment `ka` for a launch on `q`, taking references into `refs`; *lds receives the
 * group segment size with the __local arguments placed after the static LDS. An error
 * (a released object, no image support, too much LDS, an argument outside the segment)
 * leaves in `refs` what was taken, for the launch's release. */
cl_int disp__kernarg_write_explicit(unsigned char *ka, struct _cl_command_queue *q,
                                    const struct _cl_kernel *k,
                                    const struct comp_kernel_device *kd,
                                    struct disp__kernarg_refs *refs, uint32_t *lds);

/* Writes the hidden arguments of code object V5 (AMDGPUUsage "Code Object V5 Metadata") for
 * the range `r`, group segment `lds` and the launch's printf buffer (or NULL) on `dev`. */
cl_int disp__kernarg_write_hidden(unsigned char *ka, struct _cl_device_id *dev,
                                  const struct comp_kernel_device *kd,
                                  const struct disp__range *r, uint32_t lds,
                                  void *printf_buffer);

/* Prints a completed launch's printf buffer (header, then records) to stdout with the
 * kernel's printf formats (disp_printf.c). */
struct comp_program_info;
void disp_printf_flush(const struct comp_program_info *info, const unsigned char *buf);

/* Converts an HSA system timestamp (profiling) to the host timer's nanoseconds. */
cl_ulong disp__device_time_to_host(struct _cl_device_id *dev, uint64_t ticks);

/*
 * Locks of the launch path (queue, event, pools, signal cache, pending list) are held for a
 * few instructions by the enqueueing thread and the runtime's completion thread at once:
 * glibc's adaptive mutex spins briefly before it sleeps, so contention on them rarely
 * costs a futex call on either side.
 */
#ifdef PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP
#define DISP_MUTEX_INITIALIZER PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP
#else
#define DISP_MUTEX_INITIALIZER PTHREAD_MUTEX_INITIALIZER
#endif
void disp__mutex_init(pthread_mutex_t *m);

/*
 * A free list of fixed-size objects (disp_pool.c). Thread safe. Objects are taken by the
 * enqueueing threads and mostly given back by the completion path: a given-back object is
 * pushed onto `returned` without a lock, and an allocator that finds its own list empty takes
 * the whole `returned` list at once (an exchange: no ABA), so the two sides never wait for
 * each other. `lock` is taken by allocators only.
 */
struct disp_pool {
   pthread_mutex_t lock;
   void *head;                /* allocators' list; under lock */
   _Atomic(void *) returned;  /* given back, newest first */
   atomic_uint count;         /* objects cached in both lists (approximate bound) */
   unsigned max;
   size_t size;
};
/* Objects a pool keeps: above the commands a queue has in flight while streaming (a full
 * AQL ring, DISP_AQL_QUEUE_PACKETS, plus those the completion path has yet to retire), so
 * a long run of enqueues neither mallocs nor frees once warm. */
#define DISP_POOL_MAX 16384u
#define DISP_POOL_INIT(object_size, max_cached)                                              \
   { DISP_MUTEX_INITIALIZER, NULL, NULL, 0, (max_cached), (object_size) }

/* A zeroed object of the pool's size, or NULL on out-of-memory. */
void *disp__pool_alloc(struct disp_pool *p);
/* Returns an object to the pool (or the heap when the pool is full). Accepts NULL. */
void disp__pool_free(struct disp_pool *p, void *obj);

#endif
