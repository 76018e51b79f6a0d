/*
 * sim/sim_isa.h — the contract between the two halves of the software HSA runtime:
 * the runtime (agents, pools, signals, queues, loader: sim/sim_*.c) and the wave
 * interpreter of the targets below (sim/isa/). Neither half includes the other's private
 * header.
 *
 * Address spaces. Every address the GPU agent sees is a 64-bit GPU virtual address.
 * Device-pool memory has a host-visible view that is PROT_NONE unless the CPU agent was
 * granted access, and a second, always read/write "agent view" that only the interpreter
 * dereferences. System memory (system pools, locked host memory, kernarg pool) has
 * agent view == GPU VA == host pointer. The interpreter reaches memory only through
 * sim__mem_find(); an address no allocation covers is a memory violation.
 */
#ifndef SIM_ISA_H
#define SIM_ISA_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <hsa/hsa.h>

/*
 * The GPU targets the interpreter models (sim/isa/sim_target.c): one const description per
 * target, chosen per GPU agent (HSACL_SIM_GPUS, sim/sim_gpus.c). The decoder has a table per
 * target; everything after decoding reads the decoded instruction plus this description, so
 * a difference between targets is a field here, never a second copy of a handler.
 */
typedef enum sim_target_id {
   SIM_TARGET_GFX906 = 0, /* Vega 20 (GCN5): Radeon VII, MI50 */
   SIM_TARGET_GFX90A,     /* Aldebaran (CDNA2): MI210, MI250 */
   SIM_TARGET_GFX1030,    /* Navi 21 (RDNA2): Radeon RX 6800/6900 */
   SIM_TARGET_COUNT
} sim_target_id;

typedef struct sim_target {
   sim_target_id id;
   const char *name;            /* processor name: "gfx906" */
   const char *isa_name;        /* HSA ISA name of the agent, with its feature settings */
   /* amdkfd's gfx_target_version node property: major * 10000 + minor * 100 + stepping,
    * which ROCr turns into the processor name (amd_topology.cpp). */
   uint32_t gfx_target_version;
   uint32_t elf_mach;           /* EF_AMDGPU_MACH_AMDGCN_* of its code objects */
   bool sramecc;                /* the board's SRAM ECC setting, as isa_name says */
   uint8_t gfx_major;           /* the generation, which picks the decoder's field layouts */
   uint8_t wave_size;           /* lanes of a wave by default: 64 on gfx9, 32 on gfx10 */
   /* CDNA: a second register file of AGPRs (ACC VGPRs) per lane, unified with the VGPRs on
    * gfx90a: a kernel's AGPRs follow its VGPRs at COMPUTE_PGM_RSRC3.ACCUM_OFFSET. */
   bool agprs;
   bool unified_agprs;          /* gfx90a: one file, VGPR/AGPR tuples even-aligned */
   bool packed_fp32;            /* v_pk_fma/mul/add/mov_f32 */
   bool fp64_atomics;           /* global/flat/buffer/ds FP64 add/min/max */
   bool tg_split;               /* COMPUTE_PGM_RSRC3.TG_SPLIT may spread a work-group */
   bool image_sample;           /* MIMG sample/gather (gfx90a has no sampler) */
   /* Work-item IDs packed into v0 (X [9:0], Y [19:10], Z [29:20]), not v0/v1/v2: gfx90a
    * (AMDGPUUsage, "Initial Kernel Execution State"). */
   bool packed_tid;
   uint8_t vgpr_granule;        /* VGPRs (+AGPRs) per COMPUTE_PGM_RSRC1.VGPRS unit */
   uint16_t vgprs_max;          /* registers of the (unified) file a lane may use */
   /* The board both front ends show (amdkfd / rocminfo figures of a real one). */
   const char *product_name;    /* HSA_AMD_AGENT_INFO_PRODUCT_NAME */
   uint32_t chip_id;            /* PCI device id */
   uint32_t max_clock_mhz;
   uint32_t cus, simds_per_cu, waves_per_simd, shader_engines;
   uint32_t l1_kib, l2_kib, memory_width, memory_mhz;
   uint64_t vram;
} sim_target;

/* The description of target `id`. */
const sim_target *sim__target(sim_target_id id);
/* The target named `name` ("gfx906", "gfx90a", "gfx1030"), or NULL. */
const sim_target *sim__target_by_name(const char *name);
/* The targets by name, comma-separated, for messages: "gfx906, gfx90a". */
const char *sim__target_names(void);
/* Which target GPU agent `agent` is (default gfx906); the front ends set it when they
 * build their GPUs, before the first dispatch on it. */
void sim__isa_agent_target_set(unsigned agent, const sim_target *t);
const sim_target *sim__isa_agent_target(unsigned agent);

/* Flags of an allocation the GPU agent may access. */
enum sim_alloc_flags {
   SIM_ALLOC_READ = 1u << 0,
   SIM_ALLOC_WRITE = 1u << 1,
   SIM_ALLOC_CODE = 1u << 2, /* loaded code object segment: stores fault */
   /* Executable memory the GPU may also write (the software KFD: ROCr's loader copies code
    * in with blit kernels, then invalidates the code caches, which drops isa_program). */
   SIM_ALLOC_EXEC = 1u << 3,
   /* Coarse-grained memory (device memory, coarse-grained system pools): the GPU's L2
    * caches it, and only fences at agent or system scope make it coherent
    * (sim_cache.c); in the checking mode each compute unit's vector L1 holds its lines
    * too (isa/sim_l1.c). Fine-grained (the KFD's coherent memory, mapped uncached),
    * kernarg, registered and code memory is not cached: the host and a running kernel
    * see each other's stores and atomics on it. */
   SIM_ALLOC_COARSE = 1u << 4,
   /* Queue doorbells (AMD_SIGNAL_KIND_DOORBELL's hardware_doorbell_ptr points here): after
    * an instruction that stored to such an allocation the interpreter calls
    * sim__doorbell_hook with the address, as a doorbell write reaches the CP on hardware. */
   SIM_ALLOC_DOORBELL = 1u << 5,
};

/*
 * A wave wrote the doorbell at `va` (a SIM_ALLOC_DOORBELL allocation): called on the
 * interpreter thread after the store is visible, with no interpreter lock held. The front
 * end stores it (__atomic, release) when it creates a queue; NULL: doorbell writes wake
 * nobody.
 */
extern void (*sim__doorbell_hook)(uint64_t va);

/*
 * A wave executed s_sendmsg (or s_sendmsghalt) with the interrupt message (MSG_INTERRUPT,
 * SIMM16[3:0] = 1): the SQ sends the host an interrupt whose payload is M0[23:0] ("Vega"
 * ISA, S_SENDMSG: "M0[23:0] carries user data"), as ockl does after writing an interrupt
 * signal's event mailbox (__ockl_hsa_signal_store: the event id & 0xff in M0). Called on the
 * interpreter thread with the wave's GPU agent number, after the wave's earlier stores are
 * visible, with no interpreter lock held: the front end's interrupt handler (the software
 * KFD's, as amdkfd's SQ interrupt handler, sets the signalled events). The front end
 * stores it (__atomic, release); NULL: no handler, the interrupt is lost.
 */
extern void (*sim__interrupt_hook)(unsigned agent, uint32_t payload);

/*
 * One GPU-accessible allocation. Owned by the runtime; lives until the application frees it
 * (HSA: memory in use by a dispatch must not be freed). `isa_program` is a slot the
 * interpreter fills lazily for SIM_ALLOC_CODE allocations (decoded instructions); the
 * runtime calls sim__isa_program_free() on it when the allocation goes away.
 */
typedef struct sim_alloc {
   uint64_t va;     /* first GPU virtual address */
   uint64_t size;   /* bytes */
   /* Bytes from `va` the GPU's page mapping covers: `size` up to the end of its last 4 KiB
    * page. An access past the end of the buffer but inside that page does not fault on
    * hardware (GPU page tables map whole pages), so it does not fault here. */
   uint64_t reach;
   uint8_t *view;   /* agent view of `va`: the interpreter's pointer */
   uint32_t flags;  /* enum sim_alloc_flags */
   _Atomic(void *) isa_program;
   _Atomic(void *) cache_lines; /* sim_cache.c: the agents' cached lines of it, or NULL */
} sim_alloc;

/*
 * Returns the allocation containing GPU virtual address `va`, or NULL. Thread safe; may be
 * called from any interpreter thread concurrently with allocation and free.
 */
const sim_alloc *sim__mem_find(uint64_t va);

/* Flat-address apertures the GPU agent reports (gfx9: high 32 bits select the aperture). */
#define SIM_APERTURE_SHARED_BASE 0x0001000000000000ull /* LDS:     1 << 48, as KFD */
#define SIM_APERTURE_PRIVATE_BASE 0x0002000000000000ull /* scratch: 2 << 48, as KFD */
#define SIM_APERTURE_SIZE 0x0000000100000000ull

/* Why a dispatch failed; reported through the queue's error callback. */
typedef enum sim_fault_kind {
   SIM_FAULT_NONE = 0,
   SIM_FAULT_MEMORY_VIOLATION,    /* -> HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION */
   SIM_FAULT_ILLEGAL_INSTRUCTION, /* -> HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION */
   SIM_FAULT_TRAP,                /* s_trap without debugger -> HSA_STATUS_ERROR_EXCEPTION */
   SIM_FAULT_INVALID_PACKET,      /* bad kernel object / sizes -> HSA_STATUS_ERROR_INVALID_PACKET_FORMAT */
   /* host allocation failed, or no gfx906 can place the dispatch (a work-group's waves do not
    * fit one CU, scratch past COMPUTE_TMPRING_SIZE) -> HSA_STATUS_ERROR_OUT_OF_RESOURCES */
   SIM_FAULT_OUT_OF_RESOURCES,
   SIM_FAULT_WATCHDOG,            /* ran past HSACL_SIM_WATCHDOG seconds -> HSA_STATUS_ERROR_EXCEPTION */
} sim_fault_kind;

typedef struct sim_fault {
   sim_fault_kind kind;
   uint64_t address; /* faulting address for memory violations */
   uint64_t pc;      /* GPU VA of the faulting instruction, when known */
   char message[256];
} sim_fault;

/*
 * Executes one kernel-dispatch packet to completion (all work-groups), on the calling
 * packet-processor thread plus the interpreter's worker threads. `packet_va` is the
 * packet's GPU address (the dispatch pointer SGPRs point there). Returns
 * HSA_STATUS_SUCCESS, or the status the runtime reports through the queue's error
 * callback, with `fault` filled in. Never aborts the process.
 */
hsa_status_t sim__isa_dispatch(const hsa_kernel_dispatch_packet_t *packet, uint64_t packet_va,
                               sim_fault *fault);

/* sim__isa_dispatch on GPU agent number `agent` (0 .. SIM_CACHE_AGENTS - 1): the agent
 * whose L2 the dispatch's coarse-grained accesses go through (sim_cache.c). The packet's
 * acquire fence is applied before the first wave, its release fence after the last. */
hsa_status_t sim__isa_dispatch_on(unsigned agent, const hsa_kernel_dispatch_packet_t *packet,
                                  uint64_t packet_va, sim_fault *fault);

/* Frees a decoded program stored in sim_alloc.isa_program. Accepts NULL. */
void sim__isa_program_free(void *program);

/*
 * Scratch a queue provides: the software KFD's queues use ROCr's, as amd_queue_t describes
 * it once ROCr's dynamic scratch handler has run (amd_aql_queue.cpp InitScratchSRD,
 * rocm-5.2.3). The hardware hands every wave of a dispatch one of `slots` wave slots of
 * `wave_bytes` (COMPUTE_TMPRING_SIZE.WAVES and .WAVESIZE x 1 KiB) in [base, base + size):
 * the wave's private segment wave offset is slot x wave_bytes, its private segment buffer
 * V# is `srd` (scratch_resource_descriptor: base, swizzled, ADD_TID) and its flat scratch
 * init is `base` (gfx9: scratch_backing_memory_location is absolute). So private accesses
 * land in that memory, which must be mapped (sim__mem_find), and a wave waits for a free
 * slot as it waits for one on hardware. A work-group needing more slots than there are
 * faults (out of resources). The front end fills the geometry with sim__scratch_set while
 * no dispatch uses it; the slot allocator is the interpreter's.
 */
typedef struct sim_scratch {
   uint64_t base;       /* GPU VA of the backing memory */
   uint64_t size;       /* bytes */
   uint32_t wave_bytes; /* bytes per wave slot */
   uint32_t slots;      /* wave slots; 0: the queue has no scratch */
   uint32_t srd[4];     /* the private segment buffer V# */
   /* The interpreter's slot allocator (sim/isa/sim_scratch.c). */
   pthread_mutex_t lock;
   pthread_cond_t freed;
   uint8_t *used; /* one byte per slot */
   uint32_t free_slots;
} sim_scratch;

/* _init/_finish bracket a sim_scratch embedded in a front end's queue; _set changes the
 * geometry (no dispatch may be using it). Returns false when out of host memory (the
 * scratch then has no slots). */
void sim__scratch_init(sim_scratch *s);
bool sim__scratch_set(sim_scratch *s, uint64_t base, uint64_t size, uint32_t wave_bytes,
                      uint32_t slots, const uint32_t srd[4]);
void sim__scratch_finish(sim_scratch *s);

/* The largest scratch a wave may have: COMPUTE_TMPRING_SIZE.WAVESIZE is 13 bits of KiB
 * (ROCr's MAX_WAVE_SCRATCH). A dispatch needing more per wave cannot run on gfx906. */
#define SIM_MAX_WAVE_SCRATCH (8191u * 1024u)

/* sim__isa_dispatch_on with the queue's scratch (NULL: the interpreter gives each
 * work-group private memory of its own, as the software HSA runtime wants). */
hsa_status_t sim__isa_dispatch_scratch(unsigned agent, sim_scratch *scratch,
                                       const hsa_kernel_dispatch_packet_t *packet,
                                       uint64_t packet_va, sim_fault *fault);

/*
 * Global wave sync (GWS): the 64 resources of a GPU's GWS block ("Vega" ISA, "Global wave
 * sync and atomic ordered count", DS_GWS_*), each a counter that is a semaphore or a
 * sense-reversing barrier. A queue holding a GWS allocation (the software KFD's
 * hsaKmtAllocQueueGWS, amdkfd's AMDKFD_IOC_ALLOC_QUEUE_GWS) hands it to the waves of its
 * dispatches: resource id = M0[21:16] + OFFSET0[5:0] (6 bits), below `size`. A wave that must
 * wait (DS_GWS_SEMA_P on a zero count, DS_GWS_BARRIER before the last wave arrived) waits in
 * the interpreter without holding its host thread (sim/isa/sim_gws.c). The state outlives
 * dispatches, as the hardware's does: a barrier's count is set by DS_GWS_INIT and re-armed by
 * each barrier's last wave. The front end embeds it in its queue.
 */
#define SIM_GWS_RESOURCES 64u
typedef struct sim_gws {
   uint32_t size;          /* resources the queue may address (amdkfd gives all 64) */
   pthread_mutex_t lock;
   pthread_cond_t changed; /* a resource changed: threads whose work-groups all wait look */
   uint64_t changes;       /* under `lock`: bumped at every change */
   struct sim_gws_resource {
      int64_t counter;     /* semaphore count, or barrier arrivals still expected */
      uint32_t flag;       /* barrier: flips when the last wave arrives */
      uint32_t released;   /* semaphore: DS_GWS_SEMA_RELEASE_ALL count */
   } res[SIM_GWS_RESOURCES];
} sim_gws;

/* _init/_finish bracket a sim_gws embedded in a front end's queue: every resource zero. */
void sim__gws_init(sim_gws *g, uint32_t size);
void sim__gws_finish(sim_gws *g);

/* Sets up on the calling thread what the process's first wave needs: the translator's
 * LLVM target (sim/isa/sim_xlate.c, HSACL_SIM_XLATE). Each queue's creator calls it
 * (sim__cp_init). Left to a CP thread's first wave, it could run while the application's
 * main thread was already in exit(), with LLVM's static pass registry being destroyed
 * under it: piglit's clCreateProgramWithBinary test, whose last kernel is still queued
 * when it exits, aborted so ("double free or corruption") in a few runs of a hundred. */
void sim__isa_prepare(void);

/* sim__isa_dispatch_scratch on a queue with GWS allocation `gws` (NULL: none; then every
 * DS_GWS_* instruction faults as an illegal instruction). */
hsa_status_t sim__isa_dispatch_queue(unsigned agent, sim_scratch *scratch, sim_gws *gws,
                                     const hsa_kernel_dispatch_packet_t *packet,
                                     uint64_t packet_va, sim_fault *fault);

/*
 * The GPU agents' L2 caches (sim/isa/sim_cache.c). On gfx906, coarse-grained memory is
 * cached in the agent's L2 and made coherent only at packet boundaries, by the CP's
 * acquire (L2 invalidate) and release (L2 write-back) fences at system scope; agent scope
 * needs no cache action, since one L2 serves the whole agent (AMDGPUUsage, "Memory Model
 * GFX6-GFX9"). The checking mode (HSACL_SIM_CACHE=check) models that: each agent's
 * accesses to coarse-grained memory go through a write-back cache of its own, so a write
 * reaches memory (the host, the copy engine, other agents) only at a system-scope release,
 * and a line read before another agent or the host wrote memory stays stale until a
 * system-scope acquire; and each compute unit has a write-through vector L1 of those
 * lines that only GLC loads, BUFFER_WBINVL1(_VOL) and a dispatch's start refresh
 * (isa/sim_l1.c). Without it every access goes to memory, as before. The fence
 * counters (HSACL_SIM_CACHE_STATS=<file>: struct sim_cache_stats, updated in place) count
 * in both modes.
 */
#define SIM_CACHE_AGENTS 16u
#define SIM_CACHE_LINE 64u

/* The file HSACL_SIM_CACHE_STATS names: this structure, its counters updated atomically
 * while the process runs (a reader maps the file). */
#define SIM_CACHE_STATS_MAGIC 0x3153544154534c32ull /* "2LSTATS1" */
struct sim_cache_stats {
   uint64_t magic;
   uint64_t checking;        /* 1 when HSACL_SIM_CACHE=check */
   uint64_t dispatches;      /* kernel dispatch packets executed */
   uint64_t system_releases; /* packets with a system-scope release: L2 write-backs */
   uint64_t agent_releases;  /* packets with an agent-scope release: no cache action */
   uint64_t system_acquires; /* packets with a system-scope acquire: L2 invalidations */
   uint64_t lines_written;   /* dirty lines written back (checking mode) */
   uint64_t lines_filled;    /* lines read into an agent's cache (checking mode) */
};

/* Applies a packet's fences on `agent`: `acquire`/`release` are HSA_FENCE_SCOPE_* values.
 * For barrier and vendor packets (the CP, after the packet's wait). */
void sim__cache_fence(unsigned agent, unsigned acquire, unsigned release);

/* The allocation is being freed: its cached lines go (written-back data is lost, as when
 * memory is freed under a GPU's cache). Accepts allocations never cached. */
void sim__cache_forget(sim_alloc *a);

/*
 * Texel formats (isa/sim_texel.c): the texture unit's conversion between one texel's bytes
 * and the four 32-bit shader components, shared by the MIMG / MUBUF format instructions and
 * the image extension's host-side import, export, copy and clear (sim_image.c).
 */
enum {
   SIM_DFMT_8 = 1, SIM_DFMT_16 = 2, SIM_DFMT_8_8 = 3, SIM_DFMT_32 = 4, SIM_DFMT_16_16 = 5,
   SIM_DFMT_2_10_10_10 = 9, SIM_DFMT_8_8_8_8 = 10, SIM_DFMT_32_32 = 11,
   SIM_DFMT_16_16_16_16 = 12, SIM_DFMT_32_32_32_32 = 14, SIM_DFMT_5_6_5 = 16,
   SIM_DFMT_1_5_5_5 = 17,
};
enum {
   SIM_NFMT_UNORM = 0, SIM_NFMT_SNORM = 1, SIM_NFMT_USCALED = 2, SIM_NFMT_SSCALED = 3,
   SIM_NFMT_UINT = 4, SIM_NFMT_SINT = 5, SIM_NFMT_FLOAT = 7, SIM_NFMT_SRGB = 9,
   SIM_CONV_RAW_U = 16, /* _pck: no conversion, zero-extended */
   SIM_CONV_RAW_S = 17, /* _pck_sgn: no conversion, sign-extended */
};
enum { SIM_SEL_0 = 0, SIM_SEL_1 = 1, SIM_SEL_X = 4, SIM_SEL_Y, SIM_SEL_Z, SIM_SEL_W };

typedef struct sim_texel_fmt {
   uint8_t nch, bytes;          /* channels in memory, bytes per texel */
   uint8_t bits[4], shift[4];   /* channel widths and bit offsets, X first */
   uint8_t conv;                /* SIM_NFMT_* or SIM_CONV_RAW_* */
   bool packed, is_int;         /* packed 16/32-bit format; results are integers */
} sim_texel_fmt;

/* DATA_FORMAT / NUM_FORMAT -> *f; false for a combination the texture unit model lacks. */
bool sim__texel_format(unsigned dfmt, unsigned nfmt, sim_texel_fmt *f);
/* gfx10's one FORMAT field (BUF_FMT_*: MTBUF's, a V#'s word 3 bits 18:12) -> the
 * DATA_FORMAT / NUM_FORMAT pair of gfx9 the texel code takes; false for an invalid value. */
bool sim__texel_gfx10_format(unsigned fmt, unsigned *dfmt, unsigned *nfmt);
/* gfx10's T# FORMAT (9 bits, word 1 bits 28:20: FORMAT's values, then the sRGB and packed
 * 16-bit image formats from 128) -> DATA_FORMAT / NUM_FORMAT in gfx9's image numbering;
 * false for one the texture model lacks. */
bool sim__texel_gfx10_img_format(unsigned fmt, unsigned *dfmt, unsigned *nfmt);
/* The inverse: the gfx10 T# FORMAT of gfx9's image DATA_FORMAT / NUM_FORMAT (a V#'s FORMAT
 * when below 128); 0 (invalid) for a pair gfx10 has no format for. */
unsigned sim__texel_gfx10_img_format_of(unsigned dfmt, unsigned nfmt);
/* The DATA_FORMAT / NUM_FORMAT pair of a V# with word 3 `w3` on a GPU of generation
 * `gfx_major` (gfx9: bits 18:15 and 14:12; gfx10: FORMAT); false for an invalid FORMAT. */
bool sim__texel_vsharp_format(unsigned gfx_major, uint32_t w3, unsigned *dfmt, unsigned *nfmt);
/* Overrides the conversion (the _pck opcodes' raw forms). */
void sim__texel_set_conv(sim_texel_fmt *f, unsigned conv);
void sim__texel_unpack(const sim_texel_fmt *f, const uint8_t *p, uint32_t raw[4]);
void sim__texel_pack(const sim_texel_fmt *f, const uint32_t raw[4], uint8_t *p);
uint32_t sim__texel_to_reg(const sim_texel_fmt *f, unsigned c, uint32_t raw);
uint32_t sim__texel_from_reg(const sim_texel_fmt *f, unsigned c, uint32_t v);
uint32_t sim__texel_one(const sim_texel_fmt *f); /* 1 or 1.0f */
/* The shader components of the texel at p (NULL: an all-zero texel) through DST_SEL. */
void sim__texel_read(const sim_texel_fmt *f, const uint8_t sel[4], const uint8_t *p,
                     uint32_t out[4]);
/* Stores components: each memory channel from the first component whose DST_SEL names it
 * (channels no component names are 0). */
void sim__texel_write(const sim_texel_fmt *f, const uint8_t sel[4], const uint32_t comp[4],
                      uint8_t *p);
/* Lanes of `m`: out[j][l] = the j-th component DMASK selects of the texel at p[l], as
 * sim__texel_read reads it (32 bits each: no D16). */
void sim__texel_read_lanes(const sim_texel_fmt *f, const uint8_t sel[4], unsigned dmask,
                           const uint8_t *const p[64], uint64_t m, uint32_t *const out[4]);
/* Lanes of `m`: the texel at p[l] = the components DMASK selects, the j-th from in[j][l]
 * (the others 0), as sim__texel_write stores them. */
void sim__texel_write_lanes(const sim_texel_fmt *f, const uint8_t sel[4], unsigned dmask,
                            const uint32_t *const in[4], uint64_t m, uint8_t *const p[64]);

#endif
