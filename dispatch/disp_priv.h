/* dispatch/disp_priv.h — shared between the files of dispatch/ only. */
#ifndef DISP_PRIV_H
#define DISP_PRIV_H

#include "dispatch/disp.h"

#include <stddef.h>

/* ---- the objects' internals (disp.h gives other modules accessors) -------------------- */

/*
 * A command's or user's event. Status moves CL_QUEUED -> CL_SUBMITTED -> CL_RUNNING ->
 * CL_COMPLETE, or to a negative error; terminal states never change. `signal` is what HSA
 * work that depends on this event waits for (1 until the command's work, host part
 * included, is done); user events have none.
 */
struct _cl_event {
   struct icd_object obj;
   struct _cl_context *context;      /* internal reference */
   struct _cl_command_queue *queue;  /* NULL for user events */
   bool holds_queue;                 /* an internal reference on `queue` (disp_priv.h) */
   cl_command_type command_type;
   hsa_signal_t signal;              /* 0 handle: none (user events) */
   atomic_int status;                /* written under lock; read lock-free */
   /* Set by a queue's fault callback before it releases the signal of this event's command
    * on the dead ring: work wired to that signal runs at once, possibly before the command
    * is retired and `status` turns negative, and must fail as a dependant (disp_command.c). */
   atomic_int failing;
   atomic_bool submitted;            /* signal is wired into HSA work, or status terminal */
   /* obj.internal_refs: API references together hold one; commands, queues and waiters
    * hold the others. */
   pthread_mutex_t lock;
   pthread_cond_t cond;              /* broadcast on every status change */
   struct disp_event_callback *callbacks; /* under lock */
   cl_ulong times[DISP_TIME_COUNT];
   bool profiling;                   /* queue had CL_QUEUE_PROFILING_ENABLE */
   bool queue_hidden;                /* a command buffer's replay over several queues
                                      * (disp_cmdbuf.c): CL_EVENT_COMMAND_QUEUE is NULL */
   /* The HSA queue whose packets signal completion (an in-order successor on the same
    * HSA queue is ordered by the barrier bit instead of a dependency); NULL otherwise. */
   hsa_queue_t *aql_queue;
   /* The command is done when its packets are (no host step after them): only then may an
    * in-order successor on aql_queue rely on the barrier bit (disp_command.c). */
   bool ring_orders;
   /* The work ends in an agent-scope release (a kernel, or a marker after one): what it
    * wrote may still be in the device's L2 (disp_fence.c). */
   atomic_bool agent_release;
};
ICD_HEADER_FIRST(struct _cl_event);

/*
 * Kernarg segments come from a ring of kernarg-pool memory per queue (disp_kernarg.c). Only
 * the holder of the queue's submit lock allocates, as it submits a launch (its packet goes
 * to the AQL ring under the same lock, so a launch held back on the host holds no segment);
 * the completion path returns a segment by setting bit 63 of its entry with one atomic OR,
 * and the allocator reclaims returned entries from the oldest on. A full ring is replaced by
 * one with twice the entries or twice the bytes, whichever ran out, kept as the queue's ring
 * from then on; the old one stays on `older` until all its segments are back, then the
 * allocator frees it.
 */
struct disp_kernarg_ring {
   void *base;              /* `bytes` of kernarg-pool memory */
   uint32_t bytes, entries; /* powers of two */
   uint64_t head, tail;     /* byte positions (monotonic); allocator only */
   uint32_t first, count;   /* live entries; allocator only */
   _Atomic uint64_t *ends;  /* end position of each live entry; bit 63: returned */
   struct disp_kernarg_ring *older; /* replaced, not yet drained; allocator only */
};

struct disp_kernarg_slot {
   void *ptr;
   struct disp_kernarg_ring *ring;
   uint32_t ring_index;
};

struct _cl_command_queue {
   struct icd_object obj;
   struct _cl_context *context;  /* holds a reference */
   struct _cl_command_queue *next_live; /* the process's queues (disp_queue.c, live_lock) */
   struct _cl_device_id *device;
   cl_command_queue_properties properties;
   cl_queue_properties *props;   /* as given to ...WithProperties, 0-terminated; or NULL */
   size_t num_props;             /* entries in props including the terminator */
   cl_uint size;                 /* CL_QUEUE_SIZE (device queues only) */
   struct disp_devq *devq;       /* device queues only (disp_devq.c) */
   hsa_queue_t *hsa_queue;       /* the AQL queue backing it; replaced after a fault
                                  * (under submit_lock) */
   /* Orders the AQL packet writes: a command's packets go to the ring contiguously, and
    * whoever holds it may wait for ring space. The completion path never waits for it
    * (see disp_command.c), so the packets it waits behind can always complete.
    * Lock order: pending list, submit_lock, lock, fifo_lock, event locks. */
   pthread_mutex_t submit_lock;
   /* The list of commands below, barrier_event's writes, clFinish's sleep; held for a few
    * instructions. A launch's enqueue and retirement take it not at all. */
   pthread_mutex_t lock;
   pthread_cond_t idle;          /* broadcast (under lock) when `outstanding` drops to 0
                                  * while finish_waiters is not 0 */
   atomic_uint outstanding;      /* commands enqueued and not terminal */
   atomic_uint finish_waiters;   /* clFinish callers about to sleep or sleeping */
   /* In-order: the latest command's event (internal reference). Swapped by each enqueue;
    * cleared with a compare-exchange when that command is retired. */
   _Atomic(struct _cl_event *) last_event;
   /* Non-terminal commands that are not in the completion FIFO (held back on the host, or
    * running outside the AQL ring); under lock. Those in the FIFO are reached through it
    * (under fifo_lock): the two together are every command held back or submitted. */
   struct disp_command *commands;
   _Atomic(struct _cl_event *) barrier_event; /* out-of-order: latest barrier; internal
                                               * reference; written under lock */
   bool faulted;                 /* the HSA queue reported an error: replace it (written
                                  * under submit_lock and lock) */
   atomic_bool fault_pending;    /* set by the error callback before it takes submit_lock:
                                  * a writer waiting for ring space gives up */
   struct disp_kernarg_ring *kernarg; /* under submit_lock; NULL until the first launch */
   /* Completion FIFO (disp_command.c): `fifo_tail` is pushed by the submit lock's holder;
    * `fifo_head` moves under fifo_lock, taken by whoever holds `armed` (the handler, or the
    * thread arming it) and by the rare walkers of the FIFO (markers, the fault callback). */
   pthread_mutex_t fifo_lock;
   _Atomic(struct disp_fifo_node *) fifo_tail;
   _Atomic(struct disp_fifo_node *) fifo_head;
   struct disp_fifo_node fifo_stub;
   atomic_bool armed;            /* a completion handler is registered or running */
   /* Ring-space checkpoints (disp_queue.c): while the AQL ring is over half full, every
    * ring/8 packets an empty barrier-AND decrements one of these; a writer waiting for
    * space blocks on the oldest one past the slot it needs. Under submit_lock. */
#define DISP_CHECKPOINTS 16
   hsa_signal_t checkpoint[DISP_CHECKPOINTS];
   uint64_t checkpoint_index[DISP_CHECKPOINTS]; /* packet index of each; UINT64_MAX: none */
   uint32_t checkpoint_next;
   uint64_t checkpoint_last;     /* packet index of the newest checkpoint */
   /* obj.internal_refs: API references together hold one; its commands in flight together
    * hold one (taken as `outstanding` leaves 0, dropped as it returns there); every event of
    * the queue the application has a handle on holds one (holds_queue), events of quiet
    * commands none (nothing reads their queue once their command is over). Destroyed when
    * the count drops to zero. */
};
ICD_HEADER_FIRST(struct _cl_command_queue);

/* Writes `packet` (64 bytes, header last) into the queue's AQL ring with a release store
 * of header+setup and rings the doorbell; waits for ring space when the ring is full.
 * Caller holds q->submit_lock (not q->lock): its holder is the only producer of the ring
 * (the write index moves with a plain store). */
cl_int disp_queue_write_packet(struct _cl_command_queue *q, const void *packet);

/* Writes BARRIER_AND packets waiting for `deps` (5 per packet); the last one decrements
 * `completion` when non-zero. With no deps and a completion signal, one empty barrier.
 * System-scope fences; _scoped takes the header's fence-scope bits. Caller holds
 * q->submit_lock. */
cl_int disp_queue_barrier_and(struct _cl_command_queue *q, const hsa_signal_t *deps,
                              uint32_t num_deps, hsa_signal_t completion);
cl_int disp_queue_barrier_and_scoped(struct _cl_command_queue *q, const hsa_signal_t *deps,
                                     uint32_t num_deps, hsa_signal_t completion,
                                     uint16_t scopes);



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

/*
 * Registers `cb` (its fn and user_data set by the caller, which allocated it with
 * icd_malloc) to run once `ev` is terminal, like a CL_COMPLETE callback of the application:
 * on the thread that completes `ev`, which frees it after. Returns false, registering
 * nothing, when `ev` is terminal already.
 */
bool disp__event_when_terminal(struct _cl_event *ev, struct disp_event_callback *cb);

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

/* Takes `size` bytes (aligned to 64) of q's kernarg ring for a launch being submitted.
 * Caller holds q->submit_lock. A full ring is replaced by a larger one. */
cl_int disp__kernarg_alloc_locked(struct _cl_command_queue *q, uint32_t size,
                                  struct disp_kernarg_slot *slot);
/* Returns a segment: any thread, no lock (the allocator reclaims it). */
void disp__kernarg_free(struct disp_kernarg_slot *slot);
/* Kernarg memory outside the rings, for a command buffer's pre-built segments; freed by
 * disp__kernarg_block_free (accepts NULL) once no packet can read it. */
cl_int disp__kernarg_block_alloc(struct _cl_device_id *dev, size_t bytes, void **out);
void disp__kernarg_block_free(void *block);

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

/* Writes the explicit arguments of `k` (signature kd->sig, values k->args, all set; under
 * the kernel's argument lock) into the zeroed segment `ka` for a launch on `q`, taking
 * references into `refs`; *lds receives the group segment size with the __local arguments
 * placed after the static LDS. An error (a released object, no image support, too much LDS,
 * an argument outside the segment) leaves in `refs` what was taken, for its holder's
 * release. */
cl_int disp__kernarg_write_explicit(unsigned char *ka, struct _cl_command_queue *q,
                                    const struct _cl_kernel *k,
                                    const struct comp_kernel_device *kd,
                                    struct disp__kernarg_refs *refs, uint32_t *lds);

/*
 * A kernel's launch capture (disp_args.c): the explicit arguments written into a kernarg
 * template for one launch record, and internal references on the kernel and on the objects
 * the arguments name, shared by the launches enqueued until an argument changes. Immutable
 * but for `holders`.
 */
struct disp__args {
   atomic_uint holders;                 /* launches holding it */
   struct _cl_kernel *kernel;           /* internal reference */
   const struct comp_kernel_device *kd; /* the code the template was written for */
   uint32_t lds;                        /* group segment with the __local arguments placed */
   struct disp__kernarg_refs refs;      /* refs.devq: a queue_t argument's device queue */
   unsigned char ka[];                  /* kd->kernarg_segment_size bytes: the explicit
                                         * arguments, zeros elsewhere */
};

/* Returns a new hold on the capture of `k`'s current arguments (all set: the caller checked
 * disp__args_check_set) for `kd` on `q`'s device: the kernel's current one, else a new one
 * the kernel then points at. The errors of disp__kernarg_write_explicit, or
 * CL_OUT_OF_HOST_MEMORY. The caller holds a reference on `k`. Thread safe. */
cl_int disp__args_get(struct _cl_command_queue *q, struct _cl_kernel *k,
                      const struct comp_kernel_device *kd, struct disp__args **out);

/* Drops a hold; the last frees the capture and drops what it holds. Any thread. */
void disp__args_release(struct disp__args *a);

/* §5.10 CL_INVALID_KERNEL_ARGS (logged) unless every argument of `k` is set. */
cl_int disp__args_check_set(struct _cl_kernel *k);

/* CL_INVALID_KERNEL_DEFINITION (logged) unless every hidden argument of `kd` lies inside its
 * kernarg segment: a launch checks it as it captures its arguments, so that writing them at
 * submission (disp__kernarg_write_hidden) cannot fail. */
cl_int disp__kernarg_hidden_fit(const struct comp_kernel_device *kd);

/* Writes the hidden arguments of code object V5 (AMDGPUUsage "Code Object V5 Metadata") for
 * the range `r`, group segment `lds`, the launch's printf buffer (or NULL) and the device's
 * default device queue as the launch was enqueued (or NULL). */
cl_int disp__kernarg_write_hidden(unsigned char *ka, struct disp_devq *default_queue,
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
 * pushed onto `returned` without a lock, and an allocating thread that finds its own list
 * empty takes the whole `returned` list at once (an exchange: no ABA), so the two sides
 * never wait for each other. Each allocating thread has a list of its own (thread-local; freed
 * at its exit); `lock` only assigns the pool its slot, and guards `head` for pools past the
 * slots.
 */
struct disp_pool {
   pthread_mutex_t lock;
   void *head;                /* allocators' list when the pool has no slot; under lock */
   _Atomic(void *) returned;  /* given back, newest first */
   atomic_uint count;         /* objects cached in all lists (approximate bound) */
   unsigned max;
   size_t size;
   atomic_uint slot;          /* 1 + its per-thread list's index (disp_pool.c); 0: none yet */
};
/* Objects a pool keeps: above the commands a queue has in flight while streaming (a full
 * AQL ring, DISP_AQL_QUEUE_PACKETS, plus those the completion path has yet to retire), so
 * a long run of enqueues neither mallocs nor frees once warm. */
#define DISP_POOL_MAX 16384u
#define DISP_POOL_INIT(object_size, max_cached)                                              \
   { DISP_MUTEX_INITIALIZER, NULL, NULL, 0, (max_cached), (object_size), 0 }

/* A zeroed object of the pool's size, or NULL on out-of-memory. */
void *disp__pool_alloc(struct disp_pool *p);
/* Returns an object to the pool (or the heap when the pool is full). Accepts NULL. */
void disp__pool_free(struct disp_pool *p, void *obj);

/* A launch checked once (disp_kernel.c, for command buffers): the kernel, the code that
 * runs groups of the range's size, the range. Valid while the kernel lives, on queues of the
 * device it was prepared for. */
struct comp_program_info;
struct disp__launch_plan {
   struct _cl_kernel *kernel;
   const struct comp_kernel_device *kd;
   const struct comp_program_info *info;
   struct disp__range range;
   bool empty;
};
cl_int disp__launch_prepare(cl_command_queue command_queue, cl_kernel kernel, cl_uint work_dim,
                            const size_t *global_work_offset, const size_t *global_work_size,
                            const size_t *local_work_size, struct disp__launch_plan *p);
cl_int disp__launch_enqueue_plan(struct _cl_command_queue *q, const struct disp__launch_plan *p,
                                 cl_uint num_events, const cl_event *wait_list, cl_event *event);
/* Writes a launch of `p` (on a queue of its device) without a command: its kernarg segment
 * into `ka` and its packet but header and completion signal; CL_INVALID_OPERATION for a
 * launch that needs per-launch host state (printf, device-side enqueue, an empty range). */
cl_int disp__launch_build_packet(struct _cl_command_queue *q, const struct disp__launch_plan *p,
                                 unsigned char *ka, struct disp__kernarg_refs *refs,
                                 hsa_kernel_dispatch_packet_t *packet);

/* ---- command buffers (disp_cmdbuf.c, disp_cmdbuf_record.c; docs/cmdbuf.md) ------------ */

#include "dispatch/disp_cmdbuf.h"

/*
 * While set on the calling thread, disp_command_enqueue drops the command it is given
 * (disp_command_abort) and returns CL_SUCCESS: a command buffer records a command by
 * running the enqueue entry point that checks its parameters, so that recording returns
 * exactly the errors the enqueue would, and nothing runs (disp_cmdbuf_record.c).
 */
void disp__set_dry_run(bool on);

enum disp_cmdbuf_kind {
   DISP_CB_BARRIER,
   DISP_CB_COPY,
   DISP_CB_COPY_RECT,
   DISP_CB_COPY_BUFFER_TO_IMAGE,
   DISP_CB_COPY_IMAGE,
   DISP_CB_COPY_IMAGE_TO_BUFFER,
   DISP_CB_FILL,
   DISP_CB_FILL_IMAGE,
   DISP_CB_SVM_COPY,
   DISP_CB_SVM_FILL,
   DISP_CB_KERNEL,
};

/* A recorded kernel launch; its handle is the mutable-command handle. */
struct _cl_mutable_command_khr {
   struct icd_object obj;
   struct _cl_command_buffer_khr *cmdbuf; /* no reference: the command buffer owns it */
   cl_uint queue_index;                   /* the command buffer's queue it was recorded for */
   cl_kernel kernel;                      /* the application's (internal reference) */
   cl_kernel clone;   /* clCloneKernel at record time: the arguments the launch uses */
   cl_uint work_dim;
   bool has_offset, has_local;
   size_t offset[3], global[3], local[3];
   cl_mutable_dispatch_fields_khr updatable; /* CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR */
   bool args_pending; /* recorded with arguments unset, for an update to set (mutable
                       * command buffers only): the command buffer cannot run yet */
   struct disp__launch_plan plan; /* of `clone` on the recording queue's device; valid
                                   * unless args_pending */
   icd_command_properties_khr props[8];      /* as given, 0-terminated; num_props 0: NULL */
   cl_uint num_props;
};
ICD_DEFINE_HANDLE_CASTS(disp_mutable, struct _cl_mutable_command_khr, cl_mutable_command_khr,
                        ICD_TYPE_MUTABLE_COMMAND)

/* One recorded command: its parameters, checked when recorded, and the sync points it
 * waits for (indices of earlier commands). */
struct disp_cmdbuf_command {
   enum disp_cmdbuf_kind kind;
   cl_uint queue_index;
   cl_uint num_waits;
   cl_sync_point_khr *waits;    /* NULL when num_waits is 0 */
   cl_mem src, dst;             /* internal references (mem_retain_internal) */
   void *src_ptr, *dst_ptr;     /* SVM */
   size_t src_offset, dst_offset, size;
   size_t src_origin[3], dst_origin[3], region[3];
   size_t src_row_pitch, src_slice_pitch, dst_row_pitch, dst_slice_pitch;
   unsigned char pattern[128];  /* fill pattern or fill colour */
   size_t pattern_size;
   struct _cl_mutable_command_khr *launch; /* DISP_CB_KERNEL */
   bool referenced;             /* a later command waits for this one's sync point */
};

#define DISP_CMDBUF_MAX_QUEUES 16

struct _cl_command_buffer_khr {
   struct icd_object obj;
   struct _cl_context *context;                                 /* holds a reference */
   cl_uint num_queues;
   struct _cl_command_queue *queues[DISP_CMDBUF_MAX_QUEUES];    /* internal references */
   cl_command_buffer_flags_khr flags;
   cl_command_buffer_properties_khr props[8]; /* as given, 0-terminated */
   cl_uint num_props;                          /* entries including the 0; 0: none given */
   pthread_mutex_t lock;                       /* recording, finalizing, updates */
   bool finalized;
   struct disp_cmdbuf_command *commands;
   cl_uint num_commands, cap_commands;
   /* The pre-built replay (disp_cmdbuf_image.c), under lock; NULL: replays go command by
    * command. Replays in flight hold references of their own. */
   struct disp__cmdbuf_image *image;
};
ICD_DEFINE_HANDLE_CASTS(disp_cmdbuf, struct _cl_command_buffer_khr, cl_command_buffer_khr,
                        ICD_TYPE_COMMAND_BUFFER)

/* Appends a recorded command to `cb` (under cb->lock), taking over its references; stores
 * its sync point in *sync_point when non-NULL. */
cl_int disp__cmdbuf_append(struct _cl_command_buffer_khr *cb, struct disp_cmdbuf_command *c,
                           cl_sync_point_khr *sync_point);
/* Whether a kernel command of `cb` still waits for arguments (under cb->lock). */
bool disp__cmdbuf_args_pending_locked(const struct _cl_command_buffer_khr *cb);
/* The fields an update may change (disp_cmdbuf_mutable.c). */
cl_mutable_dispatch_fields_khr disp__mutable_updatable(const struct _cl_mutable_command_khr *l);
/* A deep copy of `src` for command buffer `owner` (its own references, sync-point list and
 * kernel clone); on failure `dst` holds nothing. */
cl_int disp__cmdbuf_command_copy(struct disp_cmdbuf_command *dst,
                                 const struct disp_cmdbuf_command *src,
                                 struct _cl_command_buffer_khr *owner);
/* Drops what a recorded command holds. */
void disp__cmdbuf_command_finish(struct disp_cmdbuf_command *c);

/* ---- pre-built replays (disp_cmdbuf_image.c) ---- */

struct disp__cmdbuf_image;
/* Makes cb->image match cb's commands (finalize, remap, after an update of the commands
 * `changed`, or all when `changed` is NULL): rewritten in place when no replay holds it,
 * else built anew (the old one goes with its last replay). A command buffer the pre-built
 * path cannot run, or a failure to build, leaves cb->image NULL. Under cb->lock. */
void disp__cmdbuf_image_refresh_locked(struct _cl_command_buffer_khr *cb,
                                       const cl_uint *changed, cl_uint num_changed);
/* Drops cb's reference on its image (destruction). */
void disp__cmdbuf_image_drop_locked(struct _cl_command_buffer_khr *cb);
/* Whether a replay of cb's image on `q` after `wait_list` can go as one command: an image,
 * `q` of its device without profiling, and no event of the wait list nor command of `q`
 * held on the host (a user event), so the replay is submitted now, by this thread. Under
 * cb->lock; takes q->lock. */
bool disp__cmdbuf_image_usable_locked(const struct _cl_command_buffer_khr *cb,
                                      struct _cl_command_queue *q, cl_uint num_events,
                                      const cl_event *wait_list);
/* Enqueues cb->image on `q` as one command of type CL_COMMAND_COMMAND_BUFFER_KHR (its event
 * in *event when asked), the image held until it completes. Under cb->lock. */
cl_int disp__cmdbuf_image_enqueue_locked(struct _cl_command_buffer_khr *cb,
                                         struct _cl_command_queue *q, cl_uint num_events,
                                         const cl_event *wait_list, cl_event *event);

#endif
