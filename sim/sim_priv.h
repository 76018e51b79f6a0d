/*
 * sim/sim_priv.h — what the files of the software HSA runtime share (sim__ names).
 *
 * Lock order (outer first): executable table -> memory table (sim__mem_lock) -> signal
 * free list. Queue and copy-worker threads take no runtime lock while they wait.
 */
#ifndef SIM_PRIV_H
#define SIM_PRIV_H

#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <pthread.h>
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include "sim_isa.h"

#define SIM_EXPORT __attribute__((visibility("default")))

/* ---- logging (sim_log.c) ------------------------------------------------------------- */

enum sim_log_level {
   SIM_LOG_ERROR = 0,
   SIM_LOG_WARN,
   SIM_LOG_INFO,
   SIM_LOG_DEBUG,
};

/* True when HSACL_LOG enables `level` for `category` (NULL: no category filter). */
bool sim__log_enabled(enum sim_log_level level, const char *category);
void sim__log(enum sim_log_level level, const char *category, const char *fmt, ...)
   __attribute__((format(printf, 3, 4)));

#define SIM_LOGE(cat, ...) sim__log(SIM_LOG_ERROR, cat, __VA_ARGS__)
#define SIM_LOGW(cat, ...) sim__log(SIM_LOG_WARN, cat, __VA_ARGS__)
#define SIM_LOGI(cat, ...) sim__log(SIM_LOG_INFO, cat, __VA_ARGS__)
#define SIM_LOGD(cat, ...) sim__log(SIM_LOG_DEBUG, cat, __VA_ARGS__)

/* ---- runtime state (sim_runtime.c) ----------------------------------------------------- */

/* True between the first hsa_init and the matching last hsa_shut_down. */
bool sim__initialized(void);

/* System timestamp: CLOCK_MONOTONIC in nanoseconds (frequency SIM_TIMESTAMP_HZ). */
#define SIM_TIMESTAMP_HZ 1000000000ull
uint64_t sim__timestamp(void);

/*
 * Polling before sleeping (packet processor, workers): a thread out of work polls for up
 * to SIM_POLL_NS when more work is evidently on its way (the producer is streaming, jobs
 * are in flight), and sleeps at once otherwise. It polls through a burst of back-to-back
 * work, so those items need no futex wake, and leaves the CPU at once when work comes one
 * item at a time (a host waiting for each launch), which matters on a machine with fewer
 * cores than busy threads.
 */
#define SIM_POLL_NS 20000ull

/* ---- the GPUs both front ends show (sim_gpus.c) ------------------------------------------ */

/*
 * The GPUs the software HSA runtime and the software KFD (sim/kfd) both show, read once per
 * hsa_init / hsaKmtOpenKFD. HSACL_SIM_GPUS, a comma list of targets ("gfx906,gfx90a"; the
 * targets of sim_isa.h's sim_target), names each GPU; an unknown name is reported on stderr
 * and the front end refuses to start (returns 0 here). Without it, HSACL_KFD_GPUS gfx906s,
 * 1..SIM_MAX_GPUS, default 1 (anything else is reported on stderr and means 1). Tells the
 * interpreter each GPU's target.
 */
#define SIM_MAX_GPUS 8
uint32_t sim__gpus_from_env(void);
/* The target of GPU `gpu` (0-based), as the last sim__gpus_from_env set it. */
const sim_target *sim__gpu_target(uint32_t gpu);

/* Identity of GPU `gpu` (0-based; its KFD node is gpu + 1), the same on both front ends: the
 * KFD reports these in its node properties and ROCr returns them from hsa_agent_get_info. */
#define SIM_GPU_PRODUCT_NAME "hsacl software gfx906" /* HSA_AMD_AGENT_INFO_PRODUCT_NAME */
#define SIM_GPU_CHIP_ID 0x66afu                        /* Vega 20 (Radeon VII) */
#define SIM_GPU_MAX_CLOCK_MHZ 1801u
uint64_t sim__gpu_unique_id(uint32_t gpu);  /* UUID "GPU-%016llx" */
uint32_t sim__gpu_location_id(uint32_t gpu); /* PCI bus/device/function (BDFID) */

/* ---- agents, pools, caches, ISA (sim_agent.c) ------------------------------------------ */

enum sim_agent_kind { SIM_AGENT_CPU = 0, SIM_AGENT_GPU = 1 };

/* One agent: the CPU, or GPU `gpu` (0-based, node gpu + 1). Handles are their addresses. */
typedef struct sim_agent {
   enum sim_agent_kind kind;
   uint32_t gpu;
} sim_agent;

enum sim_pool_kind {
   SIM_POOL_SYSTEM = 0,  /* CPU agent: fine-grained system memory */
   SIM_POOL_KERNARG,     /* CPU agent: fine-grained, KERNARG_INIT */
   SIM_POOL_SYSTEM_COARSE, /* CPU agent: coarse-grained system memory */
   SIM_POOL_DEVICE,      /* GPU agent: coarse-grained device memory (one per GPU) */
   SIM_POOL_GROUP,       /* GPU agent: LDS (group segment), not allocatable (one per GPU) */
   SIM_POOL_COUNT
};

typedef struct sim_pool {
   enum sim_pool_kind kind;
   enum sim_agent_kind owner;
   uint32_t gpu; /* owner GPU of a GPU pool; 0 for the system pools */
   hsa_amd_segment_t segment;
   uint32_t global_flags; /* hsa_amd_memory_pool_global_flag_t bits */
   bool alloc_allowed;
   bool device_heap; /* allocations come from the two-view device heap */
   uint64_t size;
} sim_pool;

/* Reads HSACL_KFD_GPUS: the agents of this hsa_init. */
/* false: HSACL_SIM_GPUS named no usable list (hsa_init fails; sim_gpus.c said why). */
bool sim__agents_init(void);
/* GPU agents of the system (1..SIM_MAX_GPUS). */
uint32_t sim__gpu_count(void);
hsa_agent_t sim__agent_cpu(void);
hsa_agent_t sim__agent_gpu(uint32_t gpu);
/* NULL for a handle that names no agent of this system. */
const sim_agent *sim__agent_get(hsa_agent_t agent);
/* Returns false for a handle that names no agent. */
bool sim__agent_from_handle(hsa_agent_t agent, enum sim_agent_kind *kind);
/* The system pools (SYSTEM, KERNARG, SYSTEM_COARSE) and GPU `gpu`'s device pool. */
const sim_pool *sim__pool_system(enum sim_pool_kind kind);
const sim_pool *sim__pool_device(uint32_t gpu);
/* The agent that owns `pool`. */
hsa_agent_t sim__pool_owner(const sim_pool *pool);
hsa_amd_memory_pool_t sim__pool_handle(const sim_pool *pool);
/* NULL for a handle that names no pool (regions and pools share the objects). */
const sim_pool *sim__pool_from_handle(uint64_t handle);

#define SIM_DEVICE_MEMORY_SIZE (16ull << 30) /* at most; sim__device_memory_size() */
#define SIM_PAGE_SIZE 4096ull

/* ---- memory (sim_memory.c) ------------------------------------------------------------- */

/* Device memory of each GPU agent: SIM_DEVICE_MEMORY_SIZE, or what the address space left
 * for the device heap (RLIMIT_AS, valgrind). Valid after hsa_init. */
uint64_t sim__device_memory_size(void);
/* Physical memory of the machine: the system pools' size and their allocation budget. */
uint64_t sim__system_memory_size(void);

enum sim_mem_kind {
   SIM_MEM_POOL = 0, /* hsa_amd_memory_pool_allocate / hsa_memory_allocate */
   SIM_MEM_LOCKED,   /* hsa_amd_memory_lock / hsa_memory_register: host memory */
   SIM_MEM_INTERNAL, /* runtime-owned (queue rings, loaded code objects) */
};

/*
 * One entry of the allocation table. `a` comes first so that sim__mem_find() can hand out
 * &entry->a. Fields other than `a` and `kind` are protected by the table lock.
 */
typedef struct sim_mem_entry {
   sim_alloc a;
   enum sim_mem_kind kind;
   const sim_pool *pool;   /* NULL for locked memory */
   uint64_t heap_offset;   /* device heap: offset of the first byte */
   uint64_t heap_size;     /* device heap: bytes reserved (page multiple) */
   void *host_ptr;         /* host address the application passed (locked memory) */
   void *user_data;        /* hsa_amd_pointer_info_set_userdata */
   bool host_access;       /* host view is readable/writable */
   uint32_t gpu_mask;      /* bit g: GPU g may access (owner, allow_access, lock) */
   uint32_t lock_count;    /* locked memory: number of lock calls */
   bool free_backing;      /* system memory we allocated (munmap on free) */
   uint64_t span_base;     /* first VA of the group this entry belongs to */
} sim_mem_entry;

hsa_status_t sim__mem_init(void);
void sim__mem_finish(void);

/*
 * Allocates `size` bytes from `pool`. `flags` are enum sim_alloc_flags. On success stores
 * the VA the application sees in *va and, if `entry_out` is not NULL, the table entry.
 */
hsa_status_t sim__mem_alloc(const sim_pool *pool, uint64_t size, uint32_t flags,
                            enum sim_mem_kind kind, void **va, sim_mem_entry **entry_out);
/* Frees the allocation starting exactly at `va`. INVALID_ALLOCATION if there is none. */
hsa_status_t sim__mem_free(void *va, enum sim_mem_kind kind);

/*
 * Splits an existing internal device allocation into consecutive table entries with their
 * own flags (a loaded code object: code pages CODE|READ, data pages READ|WRITE).
 * `cuts` are offsets from the allocation start (page multiples, ascending, excluding 0);
 * flags[i] applies to the range starting at cut i-1 (0 for i = 0).
 */
hsa_status_t sim__mem_split(void *va, const uint64_t *cuts, const uint32_t *flags,
                            uint32_t count);

/*
 * Resolves [ptr, ptr+size) for a runtime copy or fill: the agent view of device memory, or
 * `ptr` itself for system or unregistered host memory. Fails with INVALID_ARGUMENT when the
 * range starts inside an allocation and leaves it, or wraps the address space.
 */
hsa_status_t sim__mem_translate(const void *ptr, uint64_t size, uint8_t **view);

/* Makes the runtime's own host memory [ptr, +size) reachable by every GPU (as locked memory;
 * registering the same range again only counts). */
hsa_status_t sim__mem_register_internal(void *ptr, size_t size);

/* Whether every page of [ptr, ptr+size) is mapped in the process (mincore): the copy engine's
 * page-table walk, so that a copy through memory unmapped since it was submitted faults
 * instead of crashing the process. */
bool sim__host_range_mapped(const void *ptr, uint64_t size);

/* ---- signals (sim_signal.c) ------------------------------------------------------------ */

typedef struct sim_signal sim_signal;

/* Validated signal pointer for a handle, or NULL. */
sim_signal *sim__signal_get(hsa_signal_t signal);
int64_t sim__signal_load(sim_signal *s);
void sim__signal_sub(sim_signal *s, int64_t v);
void sim__signal_store(sim_signal *s, int64_t v);
/* The signal's amd_signal_t (sim_cp.h), which the command processor completes; after
 * modifying it directly, sim__signal_notify wakes whoever waits (the eventcount). */
struct sim_amd_signal *sim__signal_amd(sim_signal *s);
void sim__signal_notify(sim_signal *s);
/* A queue's doorbell signal, AMD_SIGNAL_KIND_DOORBELL as ROCr's: its value operations act
 * on `word` (set to -1 here: nothing rung), which it points to as hardware_doorbell_ptr. */
hsa_status_t sim__signal_create_doorbell(_Atomic int64_t *word, hsa_signal_t *signal);
/* Enters the signal arena in the memory table, so that kernels read and write signals as
 * they do on ROCr (ockl's signal functions): called when a queue is created. */
hsa_status_t sim__signal_arena_register(void);
/* Profiling timestamps stored with the signal that completes a dispatch or copy. */
void sim__signal_set_times(sim_signal *s, uint64_t start, uint64_t end);
void sim__signal_get_times(sim_signal *s, uint64_t *start, uint64_t *end);
/*
 * Sleeping without losing a wake-up (an eventcount). A modification of a signal is a write
 * followed by a sequentially consistent fence and a look at who may be asleep: it
 * futex-wakes only threads that announced they are about to sleep, so a modification that
 * nobody waits for makes no system call (a doorbell ring while the packet processor is busy,
 * a completion nobody blocks on). A thread that waits therefore announces itself first,
 * then re-tests its condition, and sleeps only if the condition still fails:
 *
 *    for (;;) {
 *       if (condition) break;                         (optionally: spin a while first)
 *       uint32_t t = sim__signal_prepare(s);          (or sim__epoch_prepare())
 *       if (condition) { sim__signal_cancel(s); break; }
 *       sim__signal_sleep(s, t, timeout_ns);          (or sim__epoch_sleep(t, ...))
 *    }
 *
 * Either the modifier sees the announcement (and wakes the sleeper, whose futex word then
 * differs from `t`), or the announcement comes later in the fences' total order and the
 * re-test sees the modification. Spurious returns from *_sleep are allowed.
 */
/*
 * Test hook: with HSACL_SIM_WAKE_DELAY set when the runtime initialises, both sides pause
 * a pseudo-random while (often not at all) between every two steps of the protocol
 * (sim_signal.c lists them): before the announcement, between reading the ticket and
 * clearing `woken`, before the futex wait; after a write, between claiming the wake-up
 * and bumping. Each such window is a few instructions wide, and a lost wake-up needs
 * another thread to run right inside one (sim_test_wake sets the knob). A pause only
 * before the announcement, as until 9747a66, left the window of that commit's bug (between
 * the clear and the ticket) as narrow as ever. Otherwise one predictable branch.
 */
extern bool sim__wake_delay_enabled;
void sim__wake_delay(void);

uint32_t sim__signal_prepare(sim_signal *s);
void sim__signal_cancel(sim_signal *s);
void sim__signal_sleep(sim_signal *s, uint32_t ticket, uint64_t timeout_ns);

/*
 * The same for waits on several signals (wait_any, signal groups, barrier packets, worker
 * jobs): one global epoch word. A signal wakes epoch sleepers only while it is watched:
 * a multi-signal waiter calls sim__signal_watch on each signal before its first test and
 * sim__signal_unwatch after its last. sim__epoch_bump() wakes every epoch sleeper (stop
 * flags, newly queued jobs that are ready; write them before the call).
 */
void sim__signal_watch(sim_signal *s);
void sim__signal_unwatch(sim_signal *s);
uint32_t sim__epoch_prepare(void);
void sim__epoch_cancel(void);
void sim__epoch_sleep(uint32_t ticket, uint64_t timeout_ns);
void sim__epoch_bump(void);

void sim__signal_finish(void);

/* True when `value` satisfies `cond` against `compare` (HSA signal conditions). */
bool sim__signal_cond(hsa_signal_condition_t cond, int64_t value, int64_t compare);

/* ---- worker threads (sim_async.c) -------------------------------------------------------- */

/*
 * A job runs on a worker thread once its dependencies are met: every dep satisfies `cond`
 * against `value` (or, with `any`, one of them does; no deps: at once). `run` is called
 * with no runtime lock held and returns true to keep the job (re-armed signal handler).
 * `destroy` frees the job (also for jobs still pending at shutdown).
 */
typedef struct sim_job sim_job;
struct sim_job {
   sim_job *next;
   bool (*run)(sim_job *job);
   void (*destroy)(sim_job *job);
   hsa_signal_condition_t cond;
   int64_t value;
   bool any;
   uint32_t dep_count;
   hsa_signal_t deps[];
};

/*
 * Submission is lock-free (a push on `incoming`) and wakes the thread only when it sleeps
 * and the new job is ready; the thread watches its jobs' signals (sim__signal_watch), so
 * the modification that makes one ready wakes it. After running jobs it polls a while
 * before sleeping.
 */
typedef struct sim_worker {
   const char *name;
   pthread_mutex_t lock;          /* thread start and stop */
   _Atomic(sim_job *) incoming;   /* submitted, not yet seen by the thread; newest first */
   sim_job *head, *tail;          /* the thread's own list, oldest first */
   pthread_t thread;
   _Atomic bool started;
   _Atomic bool stop;
} sim_worker;

#define SIM_WORKER_INIT(n) {.name = (n), .lock = PTHREAD_MUTEX_INITIALIZER}

/* Queues `job` (ownership passes to the worker); starts the thread on first use. */
hsa_status_t sim__worker_submit(sim_worker *w, sim_job *job);
/* Stops and joins the thread, destroying pending jobs. The worker can be reused. */
void sim__worker_finish(sim_worker *w);

/* ---- queues and copies -------------------------------------------------------------------- */

void sim__queue_finish(void);
void sim__copy_finish(void);
void sim__async_finish(void);

/* ---- code objects (sim_elf.c) and executables (sim_loader.c) ----------------------------- */

/* A symbol a loaded code object defines (HSA kernel or variable). */
typedef struct sim_elf_symbol {
   char *name;        /* ELF name: kernels end in ".kd" (code object v3+) */
   bool kernel;
   bool is_const;     /* variable in a non-writable segment */
   uint64_t address;  /* GPU VA: kernel descriptor or variable */
   uint64_t size;
   uint32_t align;
   uint32_t kernarg_size, kernarg_align, group_size, private_size;
   bool dynamic_callstack;
} sim_elf_symbol;

/* One code object loaded into device memory; owns the allocation and the symbols. */
typedef struct sim_code_image {
   void *base;        /* GPU VA of the lowest PT_LOAD byte (page aligned) */
   uint64_t size;
   int64_t delta;     /* load bias: GPU VA - ELF vaddr */
   sim_elf_symbol *symbols;
   uint32_t symbol_count;
} sim_code_image;

/* Resolves an undefined dynamic symbol to an address; false if unknown. */
typedef bool (*sim_elf_resolve_fn)(void *ctx, const char *name, uint64_t *address);

/*
 * Validates an AMDGPU code object (ELF64, EM_AMDGPU, HSA OS ABI, code object v3..v6,
 * gfx906 with xnack/sramecc off or any), maps its PT_LOAD segments into GPU `gpu`'s device
 * memory, applies its dynamic relocations and collects kernels (descriptor + metadata) and
 * variables. Never reads outside [data, data+size). Returns INVALID_CODE_OBJECT for a
 * malformed object and INVALID_ISA_NAME for another target.
 */
hsa_status_t sim__elf_load(const uint8_t *data, size_t size, uint32_t gpu,
                           sim_elf_resolve_fn resolve, void *ctx, sim_code_image *image);
/* Frees the image's memory and symbols. Accepts a zeroed image. */
void sim__elf_unload(sim_code_image *image);

void sim__loader_finish(void);

/* ---- small helpers ---------------------------------------------------------------------- */

static inline uint64_t
sim_align_up(uint64_t v, uint64_t a)
{
   return (v + a - 1) & ~(a - 1);
}

/* Every API entry point but hsa_init/hsa_status_string starts with this. */
#define SIM_CHECK_INIT()                                                                      \
   do {                                                                                       \
      if (!sim__initialized())                                                               \
         return HSA_STATUS_ERROR_NOT_INITIALIZED;                                            \
   } while (0)

/* ---- the image extension (sim_image.c) ---------------------------------------------- */

/* HSA_EXT_AGENT_INFO_* of a GPU agent. */
hsa_status_t sim__image_agent_info(int attribute, void *value);
/* Fills an hsa_ext_images_1_pfn_t (at most `length` bytes of it). */
void sim__image_table(void *table, size_t length);
/* hsa_shut_down: frees the descriptors the application did not destroy. */
void sim__image_finish(void);

#endif
