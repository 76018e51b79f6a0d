/*
 * sim/isa/sim_isa_priv.h — what the files of the wave interpreter share. It models GCN
 * targets (sim_isa.h's sim_target: gfx906, gfx90a); a wave reads its own in w->target.
 *
 * Layout follows AMD's "Vega" / "Vega 7nm" Instruction Set Architecture reference guides
 * (cited as [ISA] with the chapter), and AMD's CDNA2 guide for gfx90a: one opcode list
 * over every target's mnemonics (sim_opcodes.def) expanded into the enum, names and the
 * handler table, each target's rows (sim_opcodes_<target>.def) into its decoder table; one
 * source file per encoding family (sim_cdna.c: what gfx90a adds).
 *
 * Handlers. Every opcode `m` is executed by `void sim__op_m(sim_wave *, const sim_inst *)`.
 * Handlers are found by name: the handler table takes the address of a weak, hidden
 * declaration of each, so a handler defined in any family file is picked up without a
 * registration list and a missing one decodes as "unimplemented" (an illegal-instruction
 * fault with the PC and raw dwords). VOP1, VOP2 and VOPC opcodes decode to the same enum
 * value as their VOP3 form, so e32, e64, SDWA and DPP encodings share one handler.
 *
 * Threading. A work-group runs on one host thread; its waves are never executed
 * concurrently. Memory shared between work-groups is accessed with __atomic builtins where
 * the ISA promises atomicity, and plain accesses otherwise.
 */
#ifndef SIM_ISA_PRIV_H
#define SIM_ISA_PRIV_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "sim_isa.h"
#include <hsa/hsa_ext_amd.h>

#define SIM_LIKELY(x) __builtin_expect(!!(x), 1)
#define SIM_UNLIKELY(x) __builtin_expect(!!(x), 0)

/* ---- Opcodes ---------------------------------------------------------------------- */

/* Encodings. The _SDWA/_DPP values are the VOP1/VOP2/VOPC forms with src0 = 0xF9/0xFA;
 * they exist for the execution counters and the disassembly suffix. */
#define SIM_ENCODINGS(X)                                                                    \
   X(SOP2) X(SOPK) X(SOP1) X(SOPC) X(SOPP) X(SMEM) X(VOP2) X(VOP1) X(VOPC) X(VOP3)          \
   X(VOP3P) X(DS) X(FLAT) X(GLOBAL) X(SCRATCH) X(MUBUF) X(MTBUF) X(MIMG) X(VOP1_SDWA)       \
   X(VOP2_SDWA) X(VOPC_SDWA) X(VOP1_DPP) X(VOP2_DPP) X(VOPC_DPP) X(VINTRP) X(EXP)           \
   X(UNKNOWN)

typedef enum sim_enc {
#define X(e) SIM_ENC_##e,
   SIM_ENCODINGS(X)
#undef X
   SIM_ENC_COUNT
} sim_enc;

typedef enum sim_op {
   SIM_OP_INVALID = 0,
#define SIM_OP(m) SIM_OP_##m,
#include "sim_opcodes.def"
   SIM_OP_COUNT
} sim_op;

extern const char *const sim__op_names[SIM_OP_COUNT];
extern const char *const sim__enc_names[SIM_ENC_COUNT];

/* ---- Predecoded instruction --------------------------------------------------------- */

/* Operand codes (src[], sdst, and scalar destinations) use the 9-bit source space of
 * [ISA] 3.x "Scalar/Vector operands": 0-101 SGPRs, 102/103 FLAT_SCRATCH, 104/105 XNACK_MASK,
 * 106/107 VCC, 108-123 TTMP, 124 M0, 126/127 EXEC, 128-208 integer inline constants,
 * 235-238 src_{shared,private}_{base,limit}, 240-248 float inline constants, 251 VCCZ,
 * 252 EXECZ, 253 SCC, 255 literal, 256-511 VGPR 0-255. */
enum {
   SIM_SRC_FLAT_SCRATCH = 102,
   SIM_SRC_XNACK_MASK = 104,
   SIM_SRC_VCC = 106,
   SIM_SRC_M0 = 124,
   SIM_SRC_EXEC = 126,
   SIM_SRC_SHARED_BASE = 235,
   SIM_SRC_SHARED_LIMIT = 236,
   SIM_SRC_PRIVATE_BASE = 237,
   SIM_SRC_PRIVATE_LIMIT = 238,
   SIM_SRC_SDWA = 249,
   SIM_SRC_DPP = 250,
   SIM_SRC_VCCZ = 251,
   SIM_SRC_EXECZ = 252,
   SIM_SRC_SCC = 253,
   SIM_SRC_LITERAL = 255,
   SIM_SRC_VGPR = 256,
   SIM_SRC_NONE = 0xFFFF,
};

/* Instruction flags. */
enum {
   SIM_IF_SDWA = 1u << 0,
   SIM_IF_DPP = 1u << 1,
   SIM_IF_VOP3 = 1u << 2,  /* VOP3/VOP3P encoding: sdst/abs/neg/omod/op_sel fields valid */
   SIM_IF_E32 = 1u << 3,   /* VOP1/VOP2/VOPC (incl. SDWA/DPP): carries use VCC */
   SIM_IF_VALU = 1u << 4,
   SIM_IF_GLC = 1u << 5,
   SIM_IF_SLC = 1u << 6,
   SIM_IF_OFFEN = 1u << 7,  /* MUBUF */
   SIM_IF_IDXEN = 1u << 8,  /* MUBUF */
   SIM_IF_SMEM_IMM = 1u << 9,
   SIM_IF_SMEM_SOE = 1u << 10,
   SIM_IF_GDS = 1u << 11,
   SIM_IF_LDS = 1u << 12,
   /* gfx90a: the data registers of a DS/FLAT/GLOBAL/SCRATCH/MUBUF/MTBUF/MIMG instruction
    * are AGPRs (the ACC bit); the decoder has added 256 to vdst and the data fields. */
   SIM_IF_ACC = 1u << 13,
   /* gfx90a: SCC, the system-coherence cache bit of vector memory instructions. */
   SIM_IF_SCC = 1u << 14,
   /* gfx10: DLC, the device-level-coherent cache bit of SMEM and vector memory. */
   SIM_IF_DLC = 1u << 15,
};

/* sim_inst.dpp.ctrl of gfx10's DPP8 (src0 0xE9/0xEA; SIM_IF_DPP is set): beyond the 9-bit
 * DPP_CTRL field, the lane selects are in dpp.sel8. */
#define SIM_DPP_CTRL_DPP8 0x200u

/* MIMG modifier bits (sim_inst.mimg.bits); GLC/SLC are SIM_IF_GLC/SIM_IF_SLC. */
enum {
   SIM_MIMG_UNORM = 1u << 0, /* unnormalised coordinates whatever the S# says */
   SIM_MIMG_DA = 1u << 1,    /* declare array */
   SIM_MIMG_A16 = 1u << 2,   /* 16-bit address components (bit 15: R128 before GFX9) */
   SIM_MIMG_TFE = 1u << 3,   /* texture fail enable: one more VGPR returns status */
   SIM_MIMG_LWE = 1u << 4,   /* LOD warning enable: likewise */
   SIM_MIMG_D16 = 1u << 5,   /* 16-bit data, two components per VGPR */
};

typedef struct sim_wave sim_wave;
typedef struct sim_inst sim_inst;
typedef void (*sim_handler)(sim_wave *w, const sim_inst *in);

struct sim_inst {
   sim_handler fn;   /* never NULL once decoded */
   uint16_t op;      /* enum sim_op */
   uint8_t enc;      /* enum sim_enc */
   uint8_t size;     /* bytes: 4, 8 or 12 (with literal) */
   uint16_t flags;   /* SIM_IF_* */
   uint8_t slow_src; /* bit i: src i needs modifiers/SDWA/DPP, not a plain VGPR row */
   uint8_t abs, neg; /* VOP3/SDWA/DPP per-source modifier bits */
   uint8_t neg_hi;   /* VOP3P */
   uint8_t op_sel;   /* VOP3 (4 bits incl. dst) / VOP3P */
   uint8_t op_sel_hi;
   uint8_t clamp, omod;
   uint16_t src[3];  /* operand codes, SIM_SRC_NONE when absent */
   uint16_t vdst;    /* VALU/DS/FLAT/MUBUF/SMEM/SALU destination (operand code or VGPR no.) */
   uint16_t sdst;    /* VOP3b / VOPC carry or mask destination (scalar code) */
   uint32_t literal;
   int32_t imm;      /* SOPK/SOPP simm16 (sign-extended), memory offsets */
   union {
      struct {
         uint8_t dst_sel, dst_unused, sel[2], sext; /* sext: bit i for src i */
      } sdwa;
      struct {
         uint16_t ctrl;
         uint8_t row_mask, bank_mask, bound_ctrl;
         uint8_t fi;    /* gfx10 FI: read the source of inactive lanes too */
         uint32_t sel8; /* DPP8: lane i of each eight reads lane sel8[3i+2:3i] of them */
      } dpp;
      struct {
         /* Data registers: VGPR rows, 256 + n for AGPR n (SIM_IF_ACC; vdst likewise). */
         uint16_t data0;
         union {
            uint16_t data1; /* DS */
            uint8_t dfmt;   /* MTBUF: DATA_FORMAT of the access */
         };
         uint8_t addr;
         union {
            uint8_t offset1; /* DS: offset0 in imm */
            uint8_t nfmt;    /* MTBUF: NUM_FORMAT */
         };
         uint8_t saddr;                      /* FLAT/GLOBAL: 0x7F = off */
         uint8_t srsrc, soffset;             /* MUBUF: srsrc is an SGPR number */
         uint8_t sbase;                      /* SMEM: SGPR number */
      } mem;
      struct {
         /* VOP3P-MAI (gfx90a v_mfma_*): broadcast controls CBSZ/ABID/BLGP, ACC_CD (C and
          * D are AGPRs) and ACC (w1[28:27]: A/B AGPRs). */
         uint8_t cbsz, abid, blgp, acc_cd, acc;
      } mfma;
      struct {
         uint16_t vdata;        /* first VGPR row of the data (256 + n: AGPR n) */
         uint8_t vaddr;         /* first VGPR of the address */
         uint8_t srsrc, ssamp;  /* SGPR numbers of the T# (8 dwords) and S# (4 dwords) */
         uint8_t dmask;         /* DMASK[3:0] */
         uint8_t bits;          /* SIM_MIMG_* */
         uint8_t dim : 3;       /* gfx10 DIM (SQ_RSRC_IMG_*); gfx9: 0 */
         uint8_t nsa : 2;       /* gfx10 NSA: dwords of address bytes after the two words */
         /* NSA: the address VGPRs after vaddr, one byte each (4 * nsa), not a contiguous
          * tuple: the instruction's own bytes in the decoded code (kept in code memory so
          * sim_inst stays 64 bytes), NULL without NSA. */
         const uint8_t *nsa_addr;
      } mimg;
   };
   uint32_t raw[2];
};

/* ---- Wave and work-group state ------------------------------------------------------ */

enum sim_wave_status {
   SIM_WAVE_RUNNING = 0,
   SIM_WAVE_BARRIER,
   SIM_WAVE_ENDED,
   SIM_WAVE_FAULT,
   SIM_WAVE_YIELD, /* runnable: gave the other waves of its work-group a turn */
   SIM_WAVE_GWS,   /* waits on a GWS resource (sim_gws.c): sim__gws_ready says when */
};

/* Taken backward branches a wave executes before it yields to the other waves of its
 * work-group. The hardware interleaves the waves of a work-group, so they make independent
 * forward progress: a wave spinning on a flag another wave of the same work-group sets
 * gets past it (cl_khr_subgroups requires that). Every loop has a backward branch, so
 * counting those bounds a turn without a count in the instruction loop. */
#define SIM_WAVE_SLICE 1024u

typedef struct sim_program sim_program;
typedef struct sim_wg sim_wg;
typedef struct sim_disp sim_disp;

/*
 * One wavefront. `s` is indexed by operand code 0..127 so scalar reads are one load:
 * VCC is s[106..107], EXEC s[126..127], M0 s[124], FLAT_SCRATCH s[102..103]. VGPRs are
 * laid out [register][lane].
 */
struct sim_wave {
   union {
      uint32_t s[128];
      uint64_t s64[64];
   };
   /* VGPRs: nvgpr rows of 64 lanes; with AGPRs (gfx90a), AGPR n is row 256 + n, nagpr of
    * them (the unified file puts them after ACCUM_OFFSET; indices past the VGPRs fault
    * instead of reaching them). */
   uint32_t (*v)[64];
   uint32_t nvgpr;
   uint32_t nagpr;
   const sim_target *target;
   /* The wave's size (the kernel descriptor's choice on gfx10): a wave32 runs as a 64-lane
    * row whose lanes 32-63 are always off. lane_mask has a bit per lane; EXEC_HI reads 0 in
    * a wave32 and its writes are dropped, lane masks (VCC, v_cmp results, carries) are 32-bit
    * SGPRs there: sim__vmask_read/write, sim__exec_write, SIM_VCC_LANES. */
   uint8_t lanes;
   uint64_t lane_mask;
   /* gfx10's FLAT_SCRATCH, a hardware register (s_setreg HW_REG_FLAT_SCR_LO/HI); gfx9's is
    * the SGPR pair 102-103: sim__flat_scratch. */
   uint64_t flat_scratch;
   uint32_t scc;
   uint64_t pc;            /* next instruction while a handler runs */
   uint64_t inst_pc;       /* instruction being executed */
   uint32_t status;        /* enum sim_wave_status */
   uint64_t doorbell_va;   /* a store of this instruction hit a doorbell (sim_mem.c) */
   uint32_t slice;         /* backward branches left in this turn (SIM_WAVE_SLICE) */
   /* MODE ([ISA] 3.x "Mode register"), from compute_pgm_rsrc1 */
   /* round32 .. csp: eight bytes wave_init copies from sim_disp.mode_init. */
   uint8_t round32, round16_64, denorm32, denorm16_64, dx10_clamp, ieee;
   bool gpr_idx_en;        /* s_set_gpr_idx_on: M0[7:0] index, M0[15:12] operand mask */
   uint8_t csp;            /* MODE.CSP[31:29]: S_CBRANCH_*_FORK / JOIN stack depth */
   uint64_t dpp_mask;      /* lanes a DPP source allows to be written */
   /* SIM_WAVE_GWS: what the wave waits for (sim_gws.c) */
   uint8_t gws_wait;       /* SIM_GWS_WAIT_* */
   uint8_t gws_rid;        /* resource */
   uint32_t gws_ticket;    /* barrier flag, or release-all count, when it began to wait */
   uint32_t id;            /* wave number in the work-group */
   sim_wg *wg;
   sim_program *prog;      /* program of the last fetch (cache) */
   uint64_t *counts;       /* per-thread execution counters or NULL */
   bool trace;
   /* Nothing reads the wave's registers once it has ended (a dispatch's wave; not a test's,
    * whose registers the test reads after its s_endpgm): a translated block ending in
    * s_endpgm then leaves them unstored (sim_xlate.c emit_endpgm). */
   bool regs_dead_at_end;
   /* Set by sim__vm_load while it runs in the checking mode: its coarse-grained accesses
    * go through the work-group's vector caches (sim_l1.c) under these SIM_L1_* bits. */
   uint8_t l1_load;
};

/* VGPR rows a wave has room for: 256 VGPRs, then 256 AGPRs (gfx90a). */
#define SIM_WAVE_ROWS 512u

#define SIM_VCC(w) ((w)->s64[SIM_SRC_VCC / 2])
#define SIM_EXEC(w) ((w)->s64[SIM_SRC_EXEC / 2])
/* VCC as a lane mask: VCC_LO alone in a wave32 (for VCCZ and the branches). */
#define SIM_VCC_LANES(w) (SIM_VCC(w) & (w)->lane_mask)
/* EXEC = v, for the wave's lanes only. */
#define sim__exec_write(w, v) (SIM_EXEC(w) = (v) & (w)->lane_mask)
#define SIM_M0(w) ((w)->s[SIM_SRC_M0])

/* Where a private-segment (scratch) address lands: every thread maps the same fake GPU
 * window onto the scratch of the work-group it is running; MUBUF V# base addresses and
 * FLAT_SCRATCH point into it. Below 2^48 (V# base width), above host user space. */
#define SIM_SCRATCH_VA 0x0000F00000000000ull

/* Allocations a host thread's waves resolved lately, most recent first. Eight: with four,
 * a kernel copying one image to another (CTS test_basic imagedim_*) cycled through more
 * allocations than the cache held, so its accesses missed into sim__mem_find and its lock
 * (8% of a one-work-item work-group's time in perf; nothing with eight). */
#define SIM_XCACHE_N 8

/* Slots of sim_wg.xlast (a power of two), one per dword of code in a row: 64 hold the
 * memory instructions of a block of 64 instructions without two of them sharing a slot
 * (with 16, vadd's four scalar and three vector accesses evicted each other every wave). */
#define SIM_XLAST_N 64
static inline unsigned
sim__xlast_slot(const sim_inst *in)
{
   return (unsigned)((uintptr_t)in / sizeof(sim_inst)) % SIM_XLAST_N;
}

/* Waves a work-group may have: 1024 work-items in wave32s. */
#define SIM_WG_MAX_WAVES 32

struct sim_wg {
   sim_disp *disp;
   uint32_t id[3];          /* work-group id */
   uint32_t size[3];        /* actual (possibly partial) work-group size */
   uint8_t *lds;
   uint32_t lds_size;
   uint8_t *scratch;        /* nwaves * wave_scratch bytes at SIM_SCRATCH_VA */
   uint64_t scratch_size;
   uint32_t scratch_slot[SIM_WG_MAX_WAVES]; /* the queue's scratch (sim_disp.qscratch): each
                                             * wave's slot */
   uint32_t scratch_slots;    /* slots held */
   uint32_t nwaves;
   sim_wave *waves;
   /* Translation caches of the host thread running this work-group, kept across its waves
    * and work-groups for the whole dispatch: an allocation (code included) may not be freed
    * while a dispatch that uses it runs (HSA), so waves after the first skip
    * sim__mem_find and its lock. Written by this thread only. */
   const sim_alloc *xcache[SIM_XCACHE_N];
   /* The translator's allocation check inline (sim_xlate_mem.c): per lowered GLOBAL/FLAT
    * instruction (slot by its address), the allocation sim__xlate_mem_base last accepted
    * for it, as its VA range and host delta. Emptied with xcache: valid for the dispatch. */
   struct sim_xlast {
      const sim_inst *in;
      uint64_t va, end; /* [va, end) */
      uintptr_t delta;  /* host = delta + VA */
   } xlast[SIM_XLAST_N];
   sim_program *prog;
   /* sim_mimg.c's memo of the image descriptors this home decoded (NULL until its first
    * image instruction; freed with the home): decodes kept across dispatches, the
    * allocations they reach for the dispatch (sim__mimg_memo_begin). */
   struct sim_mimg_memo *mimg;
   /* Checking mode: the vector L1 of the "compute unit" (host thread) running the
    * work-group, invalidated when the thread joins a dispatch (sim_l1.c); NULL otherwise. */
   struct sim_l1 *l1;
};

/* One dispatch, shared read-only by the worker threads (except the fault record and the
 * work-group counter, which has a cache line of its own: every thread increments it). */
struct sim_disp {
   _Alignas(64) _Atomic uint64_t next_wg;
   _Alignas(64) _Atomic int faulted;
   const hsa_kernel_dispatch_packet_t *packet;
   uint64_t packet_va;
   uint8_t kd[64];
   uint64_t entry;
   uint32_t rsrc1, rsrc2;
   uint16_t kcode;           /* kernel_code_properties */
   uint32_t nvgpr, nsgpr;
   uint32_t nagpr;           /* gfx90a: AGPRs after COMPUTE_PGM_RSRC3.ACCUM_OFFSET */
   uint32_t rsrc3;
   const sim_target *target; /* the agent's */
   uint32_t lanes;           /* wave size: 64, or 32 on gfx10 unless the descriptor asks 64 */
   uint32_t grid[3], wgsize[3], nwg[3];
   uint64_t nwg_total;
   uint32_t lds_size;
   uint32_t priv_size;       /* per work-item, dword-rounded */
   uint32_t wave_scratch;    /* per wave, 1 KiB granules */
   uint64_t dispatch_id;
   /* Initial SGPRs every wave of the dispatch starts with (sim_dispatch.c sgprs_init): the
    * user SGPRs, nuser of them (USER_SGPR_COUNT or more); the system SGPRs follow. The
    * private segment buffer's size dword (s[scratch_size_sgpr], or -1) is the work-group's
    * when the queue has no scratch. */
   uint32_t user_sgpr[32];
   uint8_t nuser;
   int8_t scratch_size_sgpr;
   sim_fault fault;          /* first fault, written by the thread that set `faulted` */
   uint32_t trace_wg[3], trace_wave;
   bool trace;
   uint64_t deadline_ns;     /* CLOCK_MONOTONIC watchdog deadline, 0: none */
   unsigned agent;           /* GPU agent number: whose L2 (sim_cache.c) */
   sim_scratch *qscratch;    /* the queue's scratch, or NULL: the work-group's own */
   sim_gws *gws;             /* the queue's GWS allocation, or NULL */
   /* GWS dispatches (sim_dispatch.c run_workgroups_ex): work-groups held at once, and how
    * many the GPU has room for; waves of a whole work-group. */
   _Atomic uint32_t resident;
   uint32_t resident_cap;
   uint32_t wg_waves;
   /* Every work-group whole (the grid a multiple of the work-group size in each dimension):
    * its size and waves are the dispatch's, not worked out per work-group. */
   bool wg_uniform;
   /* A wave's MODE and the state bytes after it as wave_init starts them, in the order of
    * sim_wave's round32 .. csp (from COMPUTE_PGM_RSRC1; index mode and CSP 0). */
   uint8_t mode_init[8];
   /* Thread pool (sim_dispatch.c), under the pool lock: */
   unsigned active;          /* threads inside run_workgroups(this) */
   bool open;                /* in the pool's list: threads may join */
};

/* ---- Program (decoded code allocation) ------------------------------------------------ */

struct sim_program {
   const sim_alloc *alloc;
   const sim_target *target; /* whose decoding the slots hold */
   sim_program *next;        /* the same allocation decoded for another target */
   uint64_t va, size;
   sim_inst *slots;   /* one per dword; fn == NULL until decoded */
   pthread_mutex_t lock;
   struct sim_xlate_prog *xlate; /* translated blocks (sim_xlate.c), NULL until one is hot */
};

/* The decoded program of `code` for target `t` (one per target that runs it). */
sim_program *sim__program_get(const sim_alloc *code, const sim_target *t);
/* Decoded instruction at `pc`, decoding on first use. Faults the wave and returns NULL if
 * `pc` is not in code memory. */
const sim_inst *sim__fetch(sim_wave *w, uint64_t pc);
/* sim__fetch's common case, inlined into the wave loop: `pc` inside the wave's current
 * program and already decoded. */
static inline const sim_inst *
sim__fetch_fast(sim_wave *w, uint64_t pc)
{
   sim_program *p = w->prog;
   if (SIM_LIKELY(p != NULL)) {
      uint64_t off = pc - p->va;
      if (SIM_LIKELY(off < p->size && !(off & 3))) {
         const sim_inst *in = &p->slots[off >> 2];
         if (SIM_LIKELY(__atomic_load_n(&in->fn, __ATOMIC_ACQUIRE) != NULL))
            return in;
      }
   }
   return sim__fetch(w, pc);
}
/* Decodes the instruction whose dwords start at `p` (`avail` bytes readable) into `in`.
 * Unknown encodings and unimplemented opcodes get a handler that faults. */
void sim__decode(const sim_target *t, const uint32_t *p, size_t avail, sim_inst *in);
/* "v_add_f32_e32 (VOP2) [7e040301 3f800000]" */
void sim__disasm(const sim_inst *in, char *buf, size_t n);
sim_handler sim__handler(sim_op op);

/* ---- Execution ----------------------------------------------------------------------- */

/* Conditional branch stack of S_CBRANCH_G_FORK / S_CBRANCH_I_FORK (sim_sop2.c): the fork on
 * lane mask `mask` towards `target`, `next` being the following instruction. */
void sim__cbranch_fork(sim_wave *w, uint64_t mask, uint64_t target, uint64_t next);

/* Runs `w` until it ends, reaches a barrier or faults. */
void sim__wave_run(sim_wave *w);
/* The first step of sim__wave_run when no diagnostics are on (no counters, no trace) and
 * translation is on: the translated blocks from w->pc on, block after block, as far as they
 * go. True when a block ran (w->pc and w->status as after interpreting it; the wave may
 * have ended, yielded or stopped at a barrier); false when none is ready at w->pc (nothing
 * ran). sim__wave_run goes on from either. */
bool sim__wave_run_xlate(sim_wave *w);
void sim__fault(sim_wave *w, sim_fault_kind kind, uint64_t address, const char *fmt, ...)
   __attribute__((format(printf, 4, 5)));
void sim__fault_illegal(sim_wave *w, const sim_inst *in, const char *why);
void sim__trace_inst(sim_wave *w, const sim_inst *in);
void sim__counts_init(void);
uint64_t *sim__counts_thread(void);
void sim__counts_flush(uint64_t *counts);

/* Single-wave entry for unit tests: runs the code at `code_va` (inside a SIM_ALLOC_CODE
 * allocation that sim__mem_find knows) on `w`, which the caller has set up (registers,
 * exec, mode). `gws` is the queue's GWS allocation (or NULL); `lds`/`lds_size` and
 * `scratch` describe the work-group memory. Returns the
 * fault kind (SIM_FAULT_NONE when the wave reached s_endpgm). */
sim_fault_kind sim__isa_run_wave_for_test(sim_wave *w, uint64_t code_va, sim_gws *gws,
                                          uint8_t *lds, uint32_t lds_size, uint8_t *scratch,
                                          uint64_t scratch_size, sim_fault *fault);

/* ---- The translator (sim_xlate.c, docs/sim.md "Speed") ------------------------------- */

/* HSACL_SIM_XLATE: 0 interpret, 1 translate hot blocks, 2 (check) translate every block and
 * compare it with the interpreter. Valid after sim__xlate_init. */
extern int sim__xlate_mode;
void sim__xlate_init(void);
/* Runs the translated block at `pc` (w->prog's) if there is one, counting `pc` towards
 * hotness otherwise when it is a `leader` (the wave starts or resumes there, or the
 * instruction before it ended a block: SIM_XL_END): true when it ran (w->pc, w->status as
 * after interpreting it). Only leaders count, so that a wave interpreting on while its
 * block compiles does not make the PCs inside the block hot as blocks of their own; the
 * wave loop asks only at leaders. */
bool sim__xlate_run(sim_wave *w, uint64_t pc, bool leader);
/* Drops the program's translations (with the program). */
void sim__xlate_program_free(sim_program *p);
/* How the block former treats an instruction: lowered to host code, run through its
 * handler from inside the block, skipped (no-op), or run through its handler as the
 * block's last instruction (it may change the PC, MODE or index mode). */
typedef enum sim_xlate_class {
   SIM_XL_LOWER, SIM_XL_CALL, SIM_XL_SKIP, SIM_XL_END,
} sim_xlate_class;
sim_xlate_class sim__xlate_class(const sim_inst *in);
/* sim__xlate_class(in) == SIM_XL_END without classifying the rest (the wave loop asks it of
 * every instruction it interprets: the whole classification, which looks a VALU opcode up
 * in the lowering's tables, cost about 50 host instructions an instruction). SALU and SOPP
 * opcodes that may change the PC, MODE or index mode, or stop the wave. */
static inline bool
sim__xlate_ends_block(const sim_inst *in)
{
   switch (in->enc) {
   case SIM_ENC_SOPP:
      return in->op != SIM_OP_s_nop && in->op != SIM_OP_s_waitcnt;
   case SIM_ENC_SOP1:
   case SIM_ENC_SOP2:
   case SIM_ENC_SOPK:
   case SIM_ENC_SOPC:
      switch (in->op) {
      case SIM_OP_s_setpc_b64:
      case SIM_OP_s_swappc_b64:
      case SIM_OP_s_rfe_b64:
      case SIM_OP_s_cbranch_join:
      case SIM_OP_s_cbranch_g_fork:
      case SIM_OP_s_cbranch_i_fork:
      case SIM_OP_s_call_b64:
      case SIM_OP_s_setreg_b32:
      case SIM_OP_s_setreg_imm32_b32:
      case SIM_OP_s_set_gpr_idx_on:
      case SIM_OP_s_set_gpr_idx_idx:
      case SIM_OP_s_setvskip:
         return true;
      default:
         return false;
      }
   case SIM_ENC_UNKNOWN:
   case SIM_ENC_EXP:
      return true;
   default:
      /* Vector ALU, memory and VINTRP instructions never change the PC or MODE. */
      return false;
   }
}
/* The block at `pc` of `p`: up to `max` instructions into `out`, the last one SIM_XL_END
 * (but not a conditional branch, which the block goes on past) or the last before the
 * program's end; returns how many. Undecoded slots are decoded
 * through `w` (w->prog == p), or end the block when `w` is NULL. */
unsigned sim__xlate_form(sim_wave *w, sim_program *p, uint64_t pc, const sim_inst **out,
                         unsigned max);

/* ---- The texture unit (sim_mimg.c) ------------------------------------------------------ */

/* The texture unit's wave-wide fast paths (sim_mimg.c, docs/sim.md "Images"), on unless a
 * test clears it to run the per-lane path the fast paths must agree with. Written only by
 * tests, between runs. */
extern bool sim__mimg_fast;
/* Instructions the calling thread has run through those fast paths while
 * sim__mimg_counting is set (tests check that the cases they compare took them; counted
 * only then, since a thread-local variable of a library opened with dlopen is a call of
 * __tls_get_addr at each access, 3-4% of a one-lane image wave's samples). */
extern bool sim__mimg_counting;
extern __thread uint64_t sim__mimg_fast_runs;
/* A home's image memo (sim_wg.mimg): free it; forget what it holds for the dispatch that
 * ended (its allocations), at a dispatch's start. Both take NULL. */
void sim__mimg_memo_free(struct sim_mimg_memo *m);
void sim__mimg_memo_begin(struct sim_mimg_memo *m);

/* ---- Global wave sync (sim_gws.c) ------------------------------------------------------ */

enum { SIM_GWS_WAIT_NONE = 0, SIM_GWS_WAIT_SEMA_P, SIM_GWS_WAIT_BARRIER };
/* A SIM_WAVE_GWS wave may go on (its semaphore decrement done): true, and the wave has
 * stopped waiting. */
bool sim__gws_ready(sim_wave *w);
/* Waits until `g` changes after `seen` (its `changes` then) or `ns` pass. */
void sim__gws_wait_change(sim_gws *g, uint64_t seen, uint64_t ns);
uint64_t sim__gws_changes(sim_gws *g);

/* ---- The queue's scratch wave slots (sim_scratch.c) ------------------------------------ */

/* Takes `n` free slots of `s` into `slots`, waiting while fewer are free; false (nothing
 * taken) when `s` has fewer than `n` slots in all. */
bool sim__scratch_claim(sim_scratch *s, uint32_t n, uint32_t *slots);
/* sim__scratch_claim without waiting: false (nothing taken) when fewer than `n` are free. */
bool sim__scratch_try_claim(sim_scratch *s, uint32_t n, uint32_t *slots);
void sim__scratch_release(sim_scratch *s, uint32_t n, const uint32_t *slots);

/* ---- L2 checking mode (sim_cache.c) ---------------------------------------------------- */

/* HSACL_SIM_CACHE=check: coarse-grained accesses go through the agent's cache. Set once,
 * before the first dispatch. */
extern bool sim__cache_checking;
/* The agent's cached copy of [va, va + size) in `a` (coarse-grained, bounds checked), its
 * lines filled; `write` marks the bytes dirty. NULL (wave faulted) when out of memory. */
void *sim__cache_ptr(sim_wave *w, const sim_alloc *a, uint64_t va, uint32_t size, bool write);
/* A dispatch's acquire fence, then the agent's lock shared until dispatch_end, which
 * applies the release fence. */
void sim__cache_dispatch_begin(unsigned agent, unsigned acquire);
void sim__cache_dispatch_end(unsigned agent, unsigned release);
/* gfx90a's buffer_wbl2 (the wave's agent's dirty bytes reach memory, and stay dirty until
 * the next packet fence) and buffer_invl2 (its clean lines are filled again on their next
 * access), during a dispatch. */
void sim__cache_wave_release(sim_wave *w);
void sim__cache_wave_acquire(sim_wave *w);

/*
 * The vector caches of a host thread, in the checking mode (sim_l1.c): the vector L1 of a
 * compute unit on gfx9, the two CUs' L0s and the shader array's GL1 of a work-group
 * processor on gfx10. gfx906 gives each CU a 16 KiB write-through vector L1 ([AMDGPUUsage]
 * "Memory Model GFX6-GFX9"): a load without GLC may hit a line filled earlier, which goes
 * stale when another CU (or agent) writes the word in the L2; a GLC load misses and fetches
 * the line again; atomics go to the L2; stores write through; BUFFER_WBINVL1(_VOL)
 * invalidates, and so does the CP at a dispatch's start. gfx10 ("Memory Model GFX10-GFX11")
 * adds the per-CU L0 (two a WGP: in WGP mode a work-group's waves see different L0s;
 * buffer_gl0_inv) and the GL1 (buffer_gl1_inv), GLC/DLC/SLC choosing which a load may hit.
 * Modelled for coarse-grained memory only, the memory the L2 model caches: fine-grained
 * memory is mapped uncached (MTYPE UC), and the backend's system-scope sequences rely on an
 * acquire's invalidate for it too, so no line of it outlives an acquire; the model keeps
 * none.
 */
struct sim_l1;
/* sim_wave.l1_load: NONE, or LOAD with the load's cache-policy bits. */
enum { SIM_L1_NONE = 0, SIM_L1_LOAD = 1, SIM_L1_GLC = 2, SIM_L1_DLC = 4, SIM_L1_SLC = 8 };
static inline uint8_t
sim__l1_policy(const sim_inst *in)
{
   return (uint8_t)(SIM_L1_LOAD | (in->flags & SIM_IF_GLC ? SIM_L1_GLC : 0) |
                    (in->flags & SIM_IF_DLC ? SIM_L1_DLC : 0) |
                    (in->flags & SIM_IF_SLC ? SIM_L1_SLC : 0));
}
/* The caches for this thread's work-groups (allocated on first use, emptied). NULL when out
 * of memory: loads then go to the L2. */
struct sim_l1 *sim__l1_begin(struct sim_l1 **slot);
void sim__l1_free(struct sim_l1 *l1);
/* A load of [va, va + size) in coarse-grained `a` through the wave's caches, under the
 * policy in w->l1_load (gfx9: GLC fetches the line again from the L2, "force miss and
 * re-fetch"; gfx10: GLC misses the L0, DLC or GLC+SLC the GL1). */
void *sim__l1_load_ptr(sim_wave *w, const sim_alloc *a, uint64_t va, uint32_t size);
/* A store or atomic to [va, va + size): the lines it covers leave the wave's CU's L1/L0
 * and the GL1. */
void sim__l1_drop(sim_wave *w, const sim_alloc *a, uint64_t va, uint32_t size);
/* BUFFER_WBINVL1(_VOL), BUFFER_GL0_INV: every line leaves the wave's CU's L1/L0. */
void sim__l1_invalidate(sim_wave *w);
/* BUFFER_GL1_INV: every line leaves the wave's GL1. */
void sim__gl1_invalidate(sim_wave *w);

/* The allocation holding GPU VA `va` (its mapped pages: `reach`), or NULL: the
 * work-group's translation cache, then sim__mem_find. */
const sim_alloc *sim__alloc_find_slow(sim_wg *wg, uint64_t va);
static inline const sim_alloc *
sim__alloc_find(sim_wave *w, uint64_t va)
{
   const sim_alloc *a = w->wg->xcache[0];
   if (SIM_LIKELY(a != NULL && va - a->va < a->reach))
      return a;
   return sim__alloc_find_slow(w->wg, va);
}

/* ---- Scalar operands ----------------------------------------------------------------- */

/* Reads a 32-bit scalar source (SALU/SMEM/VALU scalar operand) by operand code. */
static inline uint32_t sim__sconst32(const sim_wave *w, const sim_inst *in, unsigned code);
static inline uint32_t
sim__sread32(const sim_wave *w, const sim_inst *in, unsigned code)
{
   if (SIM_LIKELY(code < 128))
      return w->s[code];
   return sim__sconst32(w, in, code);
}

uint32_t sim__special32(const sim_wave *w, const sim_inst *in, unsigned code, unsigned bits);
uint64_t sim__special64(const sim_wave *w, const sim_inst *in, unsigned code, int kind);

static inline uint32_t
sim__sconst32(const sim_wave *w, const sim_inst *in, unsigned code)
{
   if (code >= 128 && code <= 192)
      return code - 128;
   if (code >= 193 && code <= 208)
      return (uint32_t)(192 - (int)code);
   if (code == SIM_SRC_LITERAL)
      return in->literal;
   return sim__special32(w, in, code, 32);
}

/* 64-bit operand kinds: how a 32-bit literal is widened ([ISA] 4.x "Literal constants";
 * LLVM: signed operands sign-extend, unsigned zero-extend, f64 literals are the high
 * word) and how float inline constants read (f64 values). */
enum { SIM_K_B64 = 0, SIM_K_I64 = 1, SIM_K_F64 = 2 };

static inline uint64_t
sim__sread64(const sim_wave *w, const sim_inst *in, unsigned code, int kind)
{
   if (SIM_LIKELY(code < 128))
      return w->s[code] | (uint64_t)w->s[code + 1] << 32;
   return sim__special64(w, in, code, kind);
}

/* Scalar destination writes by operand code. Writes to constants are ignored. */
/* Writes to 125 (gfx10's null; reserved on gfx9) are dropped, so null reads 0; EXEC_HI (127)
 * keeps only the wave's lanes: nothing in a wave32. */
static inline void
sim__swrite32(sim_wave *w, unsigned code, uint32_t v)
{
   if (SIM_LIKELY(code < 125 || code == 126))
      w->s[code] = v;
   else if (code == 127)
      w->s[127] = v & (uint32_t)(w->lane_mask >> 32);
}
static inline void
sim__swrite64(sim_wave *w, unsigned code, uint64_t v)
{
   if (SIM_LIKELY(code < 124)) {
      w->s[code] = (uint32_t)v;
      w->s[code + 1] = (uint32_t)(v >> 32);
   } else if (code == 124) {
      w->s[124] = (uint32_t)v;
   } else if (code == 126) {
      sim__exec_write(w, v);
   }
}

/* ---- Vector operands (sim_valu.c) ------------------------------------------------------ */

/* Value kinds of VALU sources: decide inline-constant width, literal widening, which bit
 * abs/neg act on, and SDWA sign extension. */
typedef enum sim_vt {
   SIM_VT_B32, SIM_VT_I32, SIM_VT_F32, SIM_VT_B16, SIM_VT_I16, SIM_VT_F16,
   SIM_VT_B64, SIM_VT_I64, SIM_VT_F64,
} sim_vt;

const uint32_t *sim__vsrc32_slow(sim_wave *w, const sim_inst *in, unsigned i, sim_vt t,
                                 uint32_t *tmp);

/* Source i as 64 lanes of 32 bits: the VGPR row itself when no modifier applies, else
 * `tmp` filled with the (broadcast, selected, permuted, modified) value. */
static inline const uint32_t *
sim__vsrc32(sim_wave *w, const sim_inst *in, unsigned i, sim_vt t, uint32_t *tmp)
{
   unsigned c = in->src[i];
   if (SIM_LIKELY(c >= SIM_SRC_VGPR && !((in->slow_src >> i) & 1) && !w->gpr_idx_en))
      return w->v[c - SIM_SRC_VGPR];
   return sim__vsrc32_slow(w, in, i, t, tmp);
}

/* Source i of a 32-bit integer operation is one value for all lanes (an SGPR, constant or
 * literal without SDWA selection): sim__special32(w, in, src, 32) reads it. */
static inline bool
sim__src_uniform(const sim_inst *in, unsigned i)
{
   return in->src[i] < SIM_SRC_VGPR && !(in->flags & (SIM_IF_SDWA | SIM_IF_DPP));
}

/* Source i as 64 lanes of 64 bits (VGPR pair, SGPR pair, constant), modifiers applied. */
void sim__vsrc64(sim_wave *w, const sim_inst *in, unsigned i, sim_vt t, uint64_t *out);

/* Lanes a VALU result is written to: EXEC, narrowed by DPP row/bank masks and bound_ctrl. */
static inline uint64_t
sim__vmask(const sim_wave *w, const sim_inst *in)
{
   uint64_t m = SIM_EXEC(w);
   if (SIM_UNLIKELY(in->flags & SIM_IF_DPP))
      m &= w->dpp_mask;
   return m;
}

/* VGPR row number of the destination (index mode applied); faults and returns NULL when
 * out of range. */
uint32_t *sim__vdst_row(sim_wave *w, const sim_inst *in, unsigned vgpr);
/* VGPR row `vgpr` for memory instructions (no index mode); faults when out of range. */
uint32_t *sim__vrow(sim_wave *w, const sim_inst *in, unsigned vgpr);
/* Writes a 32-bit result to in->vdst for active lanes, applying SDWA dst_sel/dst_unused. */
void sim__vdst32_store(sim_wave *w, const sim_inst *in, const uint32_t *r);
static inline void
sim__vdst32(sim_wave *w, const sim_inst *in, const uint32_t *r)
{
   /* Computed in the destination row (sim__vdst32_rows): nothing moves. */
   if (SIM_LIKELY(r == w->v[in->vdst]) && in->vdst < w->nvgpr && !w->gpr_idx_en &&
       !(in->flags & SIM_IF_SDWA))
      return;
   sim__vdst32_store(w, in, r);
}
/* Where a lane-wise handler computes a 32-bit result that sim__vdst32 will write: the
 * destination VGPR row itself when all 64 lanes take it unmodified (EXEC all ones, no
 * SDWA/DPP, no index mode, register in range), so the writer has nothing to copy; else
 * `tmp`. Lane l of the result may only depend on lane l of the sources. */
static inline uint32_t *
sim__vdst32_rows(sim_wave *w, const sim_inst *in, uint32_t *tmp)
{
   if (SIM_LIKELY(SIM_EXEC(w) == ~0ull && !(in->flags & (SIM_IF_SDWA | SIM_IF_DPP)) &&
                  !w->gpr_idx_en && in->vdst < w->nvgpr))
      return w->v[in->vdst];
   return tmp;
}
/* Writes a 16-bit result (bits 31:16 zeroed, or the high half with VOP3 op_sel[3]). */
void sim__vdst16(sim_wave *w, const sim_inst *in, const uint32_t *r);
/* 16-bit result that preserves bits 31:16 (v_mac_f16 family, [ISA] / LLVM
 * zeroesHigh16BitsOfDest). */
void sim__vdst16_preserve(sim_wave *w, const sim_inst *in, const uint32_t *r);
void sim__vdst64(sim_wave *w, const sim_inst *in, const uint64_t *r);
/* Writes a lane mask to the scalar destination: VCC for e32 forms and SDWA without sdst,
 * else in->sdst. Bits of inactive lanes are 0. */
void sim__vmask_write(sim_wave *w, const sim_inst *in, uint64_t bits);
/* A comparison's result: to its mask destination (VCC or SDST) and, for v_cmpx, EXEC; gfx10's
 * v_cmpx writes EXEC only. */
void sim__vcmp_write(sim_wave *w, const sim_inst *in, uint64_t bits, bool cmpx);
/* Reads the carry-in / mask source: VCC for e32, else src[2] as a 64-bit SGPR pair. */
uint64_t sim__vmask_read(sim_wave *w, const sim_inst *in, unsigned i);

/* Float result post-processing: output modifier and clamp ([ISA] 6.x "VOP3 output
 * modifiers"), denormal flushing per MODE. The inline checks keep the common case (none
 * of them) free of a call. */
void sim__f32_post_apply(sim_wave *w, const sim_inst *in, float *r);
void sim__f64_post_apply(sim_wave *w, const sim_inst *in, double *r);
static inline void
sim__f32_post(sim_wave *w, const sim_inst *in, float *r)
{
   if (SIM_UNLIKELY(in->omod | in->clamp) || SIM_UNLIKELY(!(w->denorm32 & 2)))
      sim__f32_post_apply(w, in, r);
}
static inline void
sim__f64_post(sim_wave *w, const sim_inst *in, double *r)
{
   if (SIM_UNLIKELY(in->omod | in->clamp) || SIM_UNLIKELY(!(w->denorm16_64 & 2)))
      sim__f64_post_apply(w, in, r);
}
/* flt_to_snorm16 (sgn) / flt_to_unorm16 of `f`: f * 32767 (65535) rounded to nearest even,
 * clamped to [-32767, 32767] ([0, 65535]), NaN -> 0; the 16 result bits (sim_vop1.c). */
uint32_t sim__norm16(float f, bool sgn);
/* Flushes f32 denormal inputs to signed zero when MODE says so; returns `a` or `tmp`. */
const float *sim__f32_in_flush(const float *a, float *tmp);
const double *sim__f64_in_flush(const double *a, double *tmp);
static inline const float *
sim__f32_in(sim_wave *w, const float *a, float *tmp)
{
   return SIM_LIKELY(w->denorm32 & 1) ? a : sim__f32_in_flush(a, tmp);
}
static inline const double *
sim__f64_in(sim_wave *w, const double *a, double *tmp)
{
   return SIM_LIKELY(w->denorm16_64 & 1) ? a : sim__f64_in_flush(a, tmp);
}
/* Sources 0..n-1 of `in` as f64 rows, input-flushed (sim__f64_in): src[i] points into
 * `t`. */
typedef struct sim_f64_srcs {
   uint64_t u[3][64];
   double f[3][64];
} sim_f64_srcs;
static inline void
sim__f64_srcs(sim_wave *w, const sim_inst *in, unsigned n, sim_f64_srcs *t,
              const double *src[])
{
   for (unsigned i = 0; i < n; i++) {
      sim__vsrc64(w, in, i, SIM_VT_F64, t->u[i]);
      src[i] = sim__f64_in(w, (const double *)t->u[i], t->f[i]);
   }
}

static inline float
sim__as_f32(uint32_t u)
{
   float f;
   memcpy(&f, &u, 4);
   return f;
}
static inline uint32_t
sim__as_u32(float f)
{
   uint32_t u;
   memcpy(&u, &f, 4);
   return u;
}
static inline double
sim__as_f64(uint64_t u)
{
   double f;
   memcpy(&f, &u, 8);
   return f;
}
static inline uint64_t
sim__as_u64(double f)
{
   uint64_t u;
   memcpy(&u, &f, 8);
   return u;
}

/* ---- NaN results ---------------------------------------------------------------------------
 * A VALU float operation whose result is NaN returns:
 * - with a NaN source: that source quieted, its sign and payload kept (gfx9 runs compute in
 *   IEEE mode, where opcodes "quiet and propagate signaling-NaN inputs per IEEE 754-2008",
 *   AMDGPUUsage compute_pgm_rsrc1 ENABLE_IEEE_MODE). When several sources are NaN the guide
 *   names none; we take the first in operand order (S0, S1, S2), whatever order the
 *   operation computes in (V_SUBREV: S1 - S0);
 * - without one (0 / 0, inf - inf, 0 * inf, sqrt(-1), log(-1), sin(inf), ...): the default
 *   NaN, sign clear, 0x7FC00000 / 0x7FF8000000000000 / 0x7E00 (the guide's pseudo-code "NAN",
 *   as in V_DIV_SCALE's 0 / 0 case). The host's SSE arithmetic gives its "real indefinite"
 *   0xFFC00000 instead and picks among NaN sources by the operand order its compiler emitted,
 *   so every float result passes through these: one compare a lane, work on NaN lanes only.
 * Operations whose NaN the guide spells out (min, max, med3 pick a source; V_DIV_FIXUP's
 * 0xFFC00000; V_DIV_SCALE) keep their own. f16 sources are passed widened to f32: the
 * conversions keep sign and payload, and the f32 quiet bit becomes the f16 one when the
 * result is rounded to f16. */
static inline float
sim__nan32(float a, float b, float c)
{
   uint32_t u = a != a   ? sim__as_u32(a)
                : b != b ? sim__as_u32(b)
                : c != c ? sim__as_u32(c)
                         : 0x7FC00000u;
   return sim__as_f32(u | 0x400000u);
}
static inline double
sim__nan64(double a, double b, double c)
{
   uint64_t u = a != a   ? sim__as_u64(a)
                : b != b ? sim__as_u64(b)
                : c != c ? sim__as_u64(c)
                         : 0x7FF8000000000000ull;
   return sim__as_f64(u | (1ull << 51));
}
/* `r`, or the hardware's NaN when `r` is NaN. */
static inline float
sim__nanfix32(float r, float a, float b, float c)
{
   return SIM_UNLIKELY(r != r) ? sim__nan32(a, b, c) : r;
}
static inline double
sim__nanfix64(double r, double a, double b, double c)
{
   return SIM_UNLIKELY(r != r) ? sim__nan64(a, b, c) : r;
}
/* f16 operations computed in double from f16 sources widened to float. */
static inline double
sim__nanfix16(double r, float a, float b, float c)
{
   return SIM_UNLIKELY(r != r) ? (double)sim__nan32(a, b, c) : r;
}
/* The legacy (DX9) multiply-adds (0.0 * x = +0.0): a NaN result comes from S2 alone when
 * the legacy product is +0, so the NaN sources are S0 and S1 only when neither is zero. */
static inline float
sim__nanfix32_legacy(float r, float a, float b, float c)
{
   return a == 0.0f || b == 0.0f ? sim__nanfix32(r, c, 0.0f, 0.0f) : sim__nanfix32(r, a, b, c);
}
/* For templates whose operation picks its NaN itself. */
#define SIM_NAN_AS_IS(r, a, b, c) (r)

/*
 * VALU handler templates: the lane loop lives here, not in handlers. Each computes all 64
 * lanes into a temporary (vectorisable; inactive lanes compute garbage that is never
 * written) and hands the result to the shared writer. `a`, `b`, `c` name lane values.
 * SIM_LANE_LOOP is that loop.
 */

/* A wave with at most this many lanes of EXEC computes only those lanes (the VALU's lane
 * loop; the image paths, whose 64-lane loops cost a one-work-item wave more than a loop
 * over its lanes). */
#define SIM_SPARSE_LANES 8
/* True when `m` has at most SIM_SPARSE_LANES bits (no popcount call: the build has no
 * -mpopcnt); a one-lane wave's EXEC is answered by the first test. */
static inline bool
sim__lanes_sparse(uint64_t m)
{
   if (!(m & (m - 1)))
      return true;
   for (int i = 0; i < SIM_SPARSE_LANES; i++)
      m &= m - 1;
   return m == 0;
}
/* Runs the statement (the variadic arguments) for lane `l` into result row `r`: every lane
 * when EXEC has many (one straight loop the compiler vectorises), only EXEC's when it has
 * few. The 64-lane loop costs the same for one lane as for 64, and one-work-item work-groups
 * run one-lane waves (CTS test_basic imagedim_non_pow2: 1e9 of them, a third of their time
 * in the VALU loops, mostly floorf and 1/x of 63 inactive lanes). On the sparse path `r` is the temporary
 * (sim__vdst32_rows gives the destination row only when EXEC is full) and its other lanes
 * are set to 0, which the writer never stores (it stores a subset of EXEC: sim__vmask). */
#define SIM_LANE_LOOP(w, r, l, ...)                                                         \
   do {                                                                                     \
      uint64_t ex_ = SIM_EXEC(w);                                                           \
      if (SIM_UNLIKELY(sim__lanes_sparse(ex_))) {                                           \
         memset((r), 0, 64 * sizeof(*(r)));                                                 \
         for (; ex_; ex_ &= ex_ - 1) {                                                      \
            unsigned l = (unsigned)__builtin_ctzll(ex_);                                    \
            __VA_ARGS__                                                                     \
         }                                                                                  \
      } else {                                                                              \
         for (unsigned l = 0; l < 64; l++) {                                                \
            __VA_ARGS__                                                                     \
         }                                                                                  \
      }                                                                                     \
   } while (0)

#define SIM_VOP_U32_1(name, expr)                                                           \
   void sim__op_##name(sim_wave *w, const sim_inst *in)                                      \
   {                                                                                        \
      uint32_t t0[64], r_[64];                                                              \
      const uint32_t *A = sim__vsrc32(w, in, 0, SIM_VT_B32, t0);                            \
      uint32_t *r = sim__vdst32_rows(w, in, r_);                                            \
      SIM_LANE_LOOP(w, r, l, uint32_t a = A[l]; r[l] = (expr););                            \
      sim__vdst32(w, in, r);                                                                \
   }

/* S0 a scalar or constant (shift amounts, masks): one value for every lane, not a row. */
#define SIM_VOP_U32_2(name, expr)                                                           \
   void sim__op_##name(sim_wave *w, const sim_inst *in)                                      \
   {                                                                                        \
      uint32_t t0[64], t1[64], r_[64];                                                      \
      const uint32_t *B = sim__vsrc32(w, in, 1, SIM_VT_B32, t1);                            \
      uint32_t *r = sim__vdst32_rows(w, in, r_);                                            \
      if (sim__src_uniform(in, 0)) {                                                        \
         const uint32_t a = sim__special32(w, in, in->src[0], 32);                          \
         SIM_LANE_LOOP(w, r, l, uint32_t b = B[l]; r[l] = (expr););                         \
         sim__vdst32(w, in, r);                                                             \
         return;                                                                            \
      }                                                                                     \
      const uint32_t *A = sim__vsrc32(w, in, 0, SIM_VT_B32, t0);                            \
      SIM_LANE_LOOP(w, r, l, uint32_t a = A[l]; uint32_t b = B[l]; r[l] = (expr););         \
      sim__vdst32(w, in, r);                                                                \
   }

#define SIM_VOP_U32_3(name, expr)                                                           \
   void sim__op_##name(sim_wave *w, const sim_inst *in)                                      \
   {                                                                                        \
      uint32_t t0[64], t1[64], t2[64], r_[64];                                              \
      const uint32_t *A = sim__vsrc32(w, in, 0, SIM_VT_B32, t0);                            \
      const uint32_t *B = sim__vsrc32(w, in, 1, SIM_VT_B32, t1);                            \
      const uint32_t *C = sim__vsrc32(w, in, 2, SIM_VT_B32, t2);                            \
      uint32_t *r = sim__vdst32_rows(w, in, r_);                                            \
      SIM_LANE_LOOP(w, r, l, uint32_t a = A[l]; uint32_t b = B[l]; uint32_t c = C[l];       \
                    r[l] = (expr););                                                        \
      sim__vdst32(w, in, r);                                                                \
   }

#define SIM_VOP_F32_1(name, expr) SIM_VOP_F32_1_NAN(name, sim__nanfix32, expr)
#define SIM_VOP_F32_1_NAN(name, fix, expr)                                                  \
   void sim__op_##name(sim_wave *w, const sim_inst *in)                                      \
   {                                                                                        \
      uint32_t t0[64];                                                                      \
      float f0[64], r_[64];                                                                 \
      const float *A = sim__f32_in(w, (const float *)sim__vsrc32(w, in, 0, SIM_VT_F32, t0), \
                                   f0);                                                     \
      float *r = (float *)sim__vdst32_rows(w, in, (uint32_t *)r_);                          \
      if (r == A)                                                                           \
         r = r_; /* the NaN pass reads the sources */                                       \
      int nan_ = 0;                                                                         \
      SIM_LANE_LOOP(w, r, l, float a = A[l];                                                \
                    r[l] = (expr); nan_ |= r[l] != r[l];);                                  \
      /* NaN in some lane, active or not: the NaN rule for the lanes written. */           \
      if (SIM_UNLIKELY(nan_))                                                               \
         for (uint64_t k_ = sim__nan_lanes32(r, SIM_EXEC(w)); k_; k_ &= k_ - 1) {           \
            unsigned l = (unsigned)__builtin_ctzll(k_);                                     \
            r[l] = fix(r[l], A[l], 0.0f, 0.0f);                                             \
         }                                                                                  \
      sim__f32_post(w, in, r);                                                              \
      sim__vdst32(w, in, (const uint32_t *)r);                                              \
   }

#define SIM_VOP_F32_2(name, expr) SIM_VOP_F32_2_NAN(name, sim__nanfix32, expr)
#define SIM_VOP_F32_2_NAN(name, fix, expr)                                                  \
   void sim__op_##name(sim_wave *w, const sim_inst *in)                                      \
   {                                                                                        \
      uint32_t t0[64], t1[64];                                                              \
      float f0[64], f1[64], r_[64];                                                         \
      const float *A = sim__f32_in(w, (const float *)sim__vsrc32(w, in, 0, SIM_VT_F32, t0), \
                                   f0);                                                     \
      const float *B = sim__f32_in(w, (const float *)sim__vsrc32(w, in, 1, SIM_VT_F32, t1), \
                                   f1);                                                     \
      float *r = (float *)sim__vdst32_rows(w, in, (uint32_t *)r_);                          \
      if (r == A || r == B)                                                                 \
         r = r_; /* the NaN pass reads the sources */                                       \
      int nan_ = 0;                                                                         \
      SIM_LANE_LOOP(w, r, l, float a = A[l]; float b = B[l];                                \
                    r[l] = (expr); nan_ |= r[l] != r[l];);                                  \
      /* NaN in some lane, active or not: the NaN rule for the lanes written. */           \
      if (SIM_UNLIKELY(nan_))                                                               \
         for (uint64_t k_ = sim__nan_lanes32(r, SIM_EXEC(w)); k_; k_ &= k_ - 1) {           \
            unsigned l = (unsigned)__builtin_ctzll(k_);                                     \
            r[l] = fix(r[l], A[l], B[l], 0.0f);                                             \
         }                                                                                  \
      sim__f32_post(w, in, r);                                                              \
      sim__vdst32(w, in, (const uint32_t *)r);                                              \
   }

/* r[l] = fma(a[l], b[l], c[l]) for 64 lanes, the NaN rule applied to the lanes of `live`
 * (the others are never written). libm's fmaf is a call per lane (~40% of a Mandelbrot run
 * in perf); on hosts with FMA3 a variant does it inline. */
void sim__fma_rows(float *r, const float *a, const float *b, const float *c, uint64_t live);
/* The same for doubles (V_FMA_F64): libm's fma is a call per lane too, and the lanes
 * outside `live` compute 0 * 0 + 0 (their registers may hold subnormals, which take the
 * FPU's slow path). */
void sim__fma64_rows(double *r, const double *a, const double *b, const double *c,
                     uint64_t live);

#define SIM_VOP_F32_3(name, expr) SIM_VOP_F32_3_NAN(name, sim__nanfix32, expr)
#define SIM_VOP_F32_3_NAN(name, fix, expr)                                                  \
   void sim__op_##name(sim_wave *w, const sim_inst *in)                                      \
   {                                                                                        \
      uint32_t t0[64], t1[64], t2[64];                                                      \
      float f0[64], f1[64], f2[64], r_[64];                                                 \
      const float *A = sim__f32_in(w, (const float *)sim__vsrc32(w, in, 0, SIM_VT_F32, t0), \
                                   f0);                                                     \
      const float *B = sim__f32_in(w, (const float *)sim__vsrc32(w, in, 1, SIM_VT_F32, t1), \
                                   f1);                                                     \
      const float *C = sim__f32_in(w, (const float *)sim__vsrc32(w, in, 2, SIM_VT_F32, t2), \
                                   f2);                                                     \
      float *r = (float *)sim__vdst32_rows(w, in, (uint32_t *)r_);                          \
      if (r == A || r == B || r == C)                                                       \
         r = r_; /* the NaN pass reads the sources */                                       \
      int nan_ = 0;                                                                         \
      SIM_LANE_LOOP(w, r, l, float a = A[l]; float b = B[l]; float c = C[l];                \
                    r[l] = (expr); nan_ |= r[l] != r[l];);                                  \
      /* NaN in some lane, active or not: the NaN rule for the lanes written. */           \
      if (SIM_UNLIKELY(nan_))                                                               \
         for (uint64_t k_ = sim__nan_lanes32(r, SIM_EXEC(w)); k_; k_ &= k_ - 1) {           \
            unsigned l = (unsigned)__builtin_ctzll(k_);                                     \
            r[l] = fix(r[l], A[l], B[l], C[l]);                                             \
         }                                                                                  \
      sim__f32_post(w, in, r);                                                              \
      sim__vdst32(w, in, (const uint32_t *)r);                                              \
   }

/* The f64 templates apply the NaN rule (`fix`, which returns a result that is not NaN as
 * it is) in a second pass, only when some lane is NaN: blended into the operation's loop it
 * put compares and blends of every source in every lane (v_add_f64 was 17% of an
 * interpreted rootn fp64 in perf, its loop flat over those instructions). */
#define SIM_VOP_F64_2(name, expr) SIM_VOP_F64_2_NAN(name, sim__nanfix64, expr)
#define SIM_VOP_F64_2_NAN(name, fix, expr)                                                  \
   void sim__op_##name(sim_wave *w, const sim_inst *in)                                      \
   {                                                                                        \
      uint64_t u0[64], u1[64];                                                              \
      double f0[64], f1[64], r[64];                                                         \
      sim__vsrc64(w, in, 0, SIM_VT_F64, u0);                                                \
      sim__vsrc64(w, in, 1, SIM_VT_F64, u1);                                                \
      const double *A = sim__f64_in(w, (const double *)u0, f0);                             \
      const double *B = sim__f64_in(w, (const double *)u1, f1);                             \
      int nan_ = 0;                                                                         \
      for (unsigned l = 0; l < 64; l++) {                                                   \
         double a = A[l], b = B[l];                                                         \
         r[l] = (expr);                                                                     \
         nan_ |= r[l] != r[l];                                                              \
      }                                                                                     \
      if (SIM_UNLIKELY(nan_))                                                               \
         for (unsigned l = 0; l < 64; l++)                                                  \
            r[l] = fix(r[l], A[l], B[l], 0.0);                                              \
      sim__f64_post(w, in, r);                                                              \
      sim__vdst64(w, in, (const uint64_t *)r);                                              \
   }

#define SIM_VOP_F64_1(name, expr) SIM_VOP_F64_1_NAN(name, sim__nanfix64, expr)
#define SIM_VOP_F64_1_NAN(name, fix, expr)                                                  \
   void sim__op_##name(sim_wave *w, const sim_inst *in)                                      \
   {                                                                                        \
      uint64_t u0[64];                                                                      \
      double f0[64], r[64];                                                                 \
      sim__vsrc64(w, in, 0, SIM_VT_F64, u0);                                                \
      const double *A = sim__f64_in(w, (const double *)u0, f0);                             \
      int nan_ = 0;                                                                         \
      for (unsigned l = 0; l < 64; l++) {                                                   \
         double a = A[l];                                                                   \
         r[l] = (expr);                                                                     \
         nan_ |= r[l] != r[l];                                                              \
      }                                                                                     \
      if (SIM_UNLIKELY(nan_))                                                               \
         for (unsigned l = 0; l < 64; l++)                                                  \
            r[l] = fix(r[l], A[l], 0.0, 0.0);                                               \
      sim__f64_post(w, in, r);                                                              \
      sim__vdst64(w, in, (const uint64_t *)r);                                              \
   }

#define SIM_VOP_F64_3(name, expr) SIM_VOP_F64_3_NAN(name, sim__nanfix64, expr)
#define SIM_VOP_F64_3_NAN(name, fix, expr)                                                  \
   void sim__op_##name(sim_wave *w, const sim_inst *in)                                      \
   {                                                                                        \
      sim_f64_srcs t_;                                                                      \
      const double *s_[3];                                                                  \
      double r[64];                                                                         \
      sim__f64_srcs(w, in, 3, &t_, s_);                                                     \
      const double *A = s_[0], *B = s_[1], *C = s_[2];                                      \
      int nan_ = 0;                                                                         \
      for (unsigned l = 0; l < 64; l++) {                                                   \
         double a = A[l], b = B[l], c = C[l];                                               \
         r[l] = (expr);                                                                     \
         nan_ |= r[l] != r[l];                                                              \
      }                                                                                     \
      if (SIM_UNLIKELY(nan_))                                                               \
         for (unsigned l = 0; l < 64; l++)                                                  \
            r[l] = fix(r[l], A[l], B[l], C[l]);                                             \
      sim__f64_post(w, in, r);                                                              \
      sim__vdst64(w, in, (const uint64_t *)r);                                              \
   }

/* 16-bit integer ops: sources are masked to their low half (SDWA/op_sel already selected
 * it), the result goes through sim__vdst16 (bits 31:16 zeroed, op_sel[3] writes the high
 * half). */
#define SIM_VOP_U16_2(name, expr)                                                           \
   void sim__op_##name(sim_wave *w, const sim_inst *in)                                      \
   {                                                                                        \
      uint32_t t0[64], t1[64], r[64];                                                       \
      const uint32_t *A = sim__vsrc32(w, in, 0, SIM_VT_B16, t0);                            \
      const uint32_t *B = sim__vsrc32(w, in, 1, SIM_VT_B16, t1);                            \
      for (unsigned l = 0; l < 64; l++) {                                                   \
         uint32_t a = A[l] & 0xFFFF, b = B[l] & 0xFFFF;                                     \
         r[l] = (expr) & 0xFFFF;                                                            \
      }                                                                                     \
      sim__vdst16(w, in, r);                                                                \
   }

/* Legacy (DX9) multiply of V_MUL_LEGACY_F32 / V_MAD_LEGACY_F32: +/-0 times anything,
 * infinity and NaN included, is +0; otherwise the IEEE product. */
static inline float
sim__fmul_legacy(float a, float b)
{
   return a == 0.0f || b == 0.0f ? 0.0f : a * b;
}

/* ---- IEEE-mode min/max ([ISA] 12.x V_MIN_F32 / V_MAX_F32) -------------------------------
 * IEEE mode: a signalling NaN operand is returned quieted (S0 first); otherwise a NaN
 * operand yields the other operand; -0 < +0. Without IEEE mode sNaN is treated as qNaN. */
static inline float
sim__fmax32(float a, float b, bool ieee)
{
   uint32_t ua = sim__as_u32(a), ub = sim__as_u32(b);
   if (SIM_UNLIKELY(a != a || b != b)) {
      if (ieee && a != a && !(ua & 0x400000))
         return sim__as_f32(ua | 0x400000);
      if (ieee && b != b && !(ub & 0x400000))
         return sim__as_f32(ub | 0x400000);
      return a != a ? b : a;
   }
   if (a == b)
      return sim__as_f32(ua & ub); /* +0 wins over -0 */
   return a > b ? a : b;
}

static inline float
sim__fmin32(float a, float b, bool ieee)
{
   uint32_t ua = sim__as_u32(a), ub = sim__as_u32(b);
   if (SIM_UNLIKELY(a != a || b != b)) {
      if (ieee && a != a && !(ua & 0x400000))
         return sim__as_f32(ua | 0x400000);
      if (ieee && b != b && !(ub & 0x400000))
         return sim__as_f32(ub | 0x400000);
      return a != a ? b : a;
   }
   if (a == b)
      return sim__as_f32(ua | ub); /* -0 wins over +0 */
   return a < b ? a : b;
}

static inline double
sim__fmax64(double a, double b, bool ieee)
{
   uint64_t ua = sim__as_u64(a), ub = sim__as_u64(b), q = 1ull << 51;
   if (SIM_UNLIKELY(a != a || b != b)) {
      if (ieee && a != a && !(ua & q))
         return sim__as_f64(ua | q);
      if (ieee && b != b && !(ub & q))
         return sim__as_f64(ub | q);
      return a != a ? b : a;
   }
   if (a == b)
      return sim__as_f64(ua & ub);
   return a > b ? a : b;
}

static inline double
sim__fmin64(double a, double b, bool ieee)
{
   uint64_t ua = sim__as_u64(a), ub = sim__as_u64(b), q = 1ull << 51;
   if (SIM_UNLIKELY(a != a || b != b)) {
      if (ieee && a != a && !(ua & q))
         return sim__as_f64(ua | q);
      if (ieee && b != b && !(ub & q))
         return sim__as_f64(ub | q);
      return a != a ? b : a;
   }
   if (a == b)
      return sim__as_f64(ua | ub);
   return a < b ? a : b;
}

/* ---- Half precision -----------------------------------------------------------------------
 * Conversions as the compiler's _Float16 does them (IEEE binary16, round to nearest even;
 * a NaN keeps its sign and payload's high bits and is quieted). The compiler's are calls
 * into libgcc's soft-float (__extendhfsf2, __truncdfhf2) without AVX512-FP16: most of an
 * interpreted f16 instruction's time. sim__f16_to_f32 and sim__f64_to_f16 compute the
 * same bits inline; sim_isa_test_f16.c's f16_conversions compares them with the
 * compiler's on every half and on every rounding boundary of every half. */
static inline float
sim__f16_to_f32(uint32_t h)
{
   uint32_t sign = (h & 0x8000u) << 16, em = h & 0x7FFFu;
   if (em >= 0x7C00u) /* infinity, or a NaN: payload moved up, quieted */
      return sim__as_f32(sign | 0x7F800000u | ((em & 0x3FFu) << 13) |
                         ((em & 0x3FFu) ? 0x00400000u : 0));
   if (em >= 0x0400u) /* normal: the exponent rebiased */
      return sim__as_f32(sign | ((em << 13) + ((127u - 15u) << 23)));
   return sim__as_f32(sign | sim__as_u32((float)em * 0x1p-24f)); /* exact: em x 2^-24 */
}

/* `d` rounded once to f16 bits (nearest even). */
static inline uint32_t
sim__f64_to_f16(double d)
{
   uint64_t u = sim__as_u64(d);
   uint32_t sign = (uint32_t)(u >> 48) & 0x8000u;
   uint64_t a = u & 0x7FFFFFFFFFFFFFFFull;
   if (a >= 0x7FF0000000000000ull) /* infinity; a NaN quieted, its payload's top 10 bits */
      return sign | 0x7C00u |
             (a > 0x7FF0000000000000ull ? 0x200u | ((uint32_t)(a >> 42) & 0x3FFu) : 0);
   int e = (int)(a >> 52) - 1023;
   if (e < -25) /* below half the smallest subnormal (2^-25): rounds to zero */
      return sign;
   /* The significand with its leading bit, shifted to f16's 10 fraction bits: 42 for a
    * normal result, more below 2^-14 (subnormal results). */
   uint64_t m = (a & 0x000FFFFFFFFFFFFFull) | 0x0010000000000000ull;
   unsigned s = e >= -14 ? 42u : 42u + (unsigned)(-14 - e);
   uint64_t r = m >> s, rem = m & ((1ull << s) - 1), half = 1ull << (s - 1);
   if (rem > half || (rem == half && (r & 1)))
      r++;
   if (e < -14) /* subnormal, or the smallest normal if it rounded up to 0x400 */
      return sign | (uint32_t)r;
   /* r holds the leading bit (0x400..0x800): it adds one to the exponent field. */
   uint64_t bits = ((uint64_t)(e + 14) << 10) + r;
   return sign | (bits >= 0x7C00u ? 0x7C00u : (uint32_t)bits);
}

static inline uint32_t
sim__f32_to_f16(float f)
{
   _Float16 x = (_Float16)f;
   uint16_t u;
   memcpy(&u, &x, 2);
   return u;
}

/* f16 source value with MODE's f16 input flushing; result bits with output flushing. */
static inline float
sim__f16_in(const sim_wave *w, uint32_t h)
{
   if (!(w->denorm16_64 & 1) && (h & 0x7C00) == 0)
      h &= 0x8000;
   return sim__f16_to_f32(h);
}

static inline uint32_t
sim__f16_out(const sim_wave *w, float f)
{
   uint32_t h = sim__f32_to_f16(f);
   if (!(w->denorm16_64 & 2) && (h & 0x7C00) == 0)
      h &= 0x8000;
   return h;
}

/* f16 source bits with MODE's f16 input flushing (for handlers that work on the bits). */
static inline uint32_t
sim__f16_bits_in(const sim_wave *w, uint32_t h)
{
   h &= 0xFFFF;
   if (!(w->denorm16_64 & 1) && (h & 0x7C00) == 0)
      h &= 0x8000;
   return h;
}

/* f16 result of a value computed in f32 or f64: VOP3 output modifier (not in IEEE mode),
 * clamp to [0, 1] (NaN -> 0 under DX10_CLAMP), one rounding to nearest even (double to
 * f16 directly, sim__f64_to_f16), then output flushing. Values computed exactly in f32/f64
 * (sums, products, roundings of f16 operands) therefore give the correctly rounded f16. */
static inline uint32_t
sim__f16_result(const sim_wave *w, const sim_inst *in, double s)
{
   if (SIM_UNLIKELY(in->omod) && !w->ieee)
      s *= in->omod == 3 ? 0.5 : (double)(1u << in->omod);
   if (SIM_UNLIKELY(in->clamp))
      s = s != s ? (w->dx10_clamp ? 0.0 : s) : s < 0.0 ? 0.0 : s > 1.0 ? 1.0 : s;
   uint32_t u = sim__f64_to_f16(s);
   if (!(w->denorm16_64 & 2) && (u & 0x7C00) == 0)
      u &= 0x8000;
   return u;
}

/* fma(a, b, c) of f16 values, fused: the product is exact in double (22 significant bits),
 * the sum is rounded to odd (TwoSum gives the exact error), so the one later rounding to f16
 * (53 >= 11 + 2 bits) is the correctly rounded fused result. */
static inline double
sim__fma16(double a, double b, double c)
{
   double p = a * b, s = p + c;
   if (SIM_UNLIKELY(s != s || s - s != 0))
      return s;
   double bb = s - p, err = (p - (s - bb)) + (c - bb);
   if (err != 0) {
      uint64_t u;
      memcpy(&u, &s, 8);
      if (!(u & 1)) {
         u = (s > 0) == (err > 0) ? u + 1 : u - 1; /* one ulp toward the exact sum */
         if (s == 0)
            u = err > 0 ? 1 : 0x8000000000000001ull;
         memcpy(&s, &u, 8);
      }
   }
   return s;
}

/* IEEE-mode min/max of f16 bits (rules of sim__fmax32): a signalling NaN returns quieted,
 * else a NaN operand yields the other; -0 < +0. */
static inline uint32_t
sim__fminmax16(uint32_t a, uint32_t b, bool ieee, bool max)
{
   bool na = (a & 0x7FFF) > 0x7C00, nb = (b & 0x7FFF) > 0x7C00;
   if (SIM_UNLIKELY(na || nb)) {
      if (ieee && na && !(a & 0x200))
         return a | 0x200;
      if (ieee && nb && !(b & 0x200))
         return b | 0x200;
      return na ? b : a;
   }
   float fa = sim__f16_to_f32(a), fb = sim__f16_to_f32(b);
   if (fa == fb)
      return max ? (a & b) : (a | b);
   return (max ? fa > fb : fa < fb) ? a : b;
}

/* f16 handler templates: `a`, `b`, `c` are the (input-flushed) source values as float,
 * `ha`, `hb`, `hc` their f16 bits. `expr` is a double (or float) value rounded by
 * sim__f16_result; `store` is sim__vdst16 (bits 31:16 zeroed) or sim__vdst16_preserve. */
#define SIM_VOP_F16_1(name, expr) SIM_VOP_F16_1_NAN(name, sim__nanfix16, expr)
#define SIM_VOP_F16_1_NAN(name, fix, expr)                                                  \
   void sim__op_##name(sim_wave *w, const sim_inst *in)                                      \
   {                                                                                        \
      uint32_t t0[64], r[64];                                                               \
      const uint32_t *A = sim__vsrc32(w, in, 0, SIM_VT_F16, t0);                            \
      for (unsigned l = 0; l < 64; l++) {                                                   \
         uint32_t ha = sim__f16_bits_in(w, A[l]);                                           \
         float a = sim__f16_to_f32(ha);                                                     \
         (void)a;                                                                           \
         r[l] = sim__f16_result(w, in, fix((expr), a, 0.0f, 0.0f));                         \
      }                                                                                     \
      sim__vdst16(w, in, r);                                                                \
   }

#define SIM_VOP_F16_2(name, expr) SIM_VOP_F16_2_NAN(name, sim__nanfix16, expr)
#define SIM_VOP_F16_2_NAN(name, fix, expr)                                                  \
   void sim__op_##name(sim_wave *w, const sim_inst *in)                                      \
   {                                                                                        \
      uint32_t t0[64], t1[64], r[64];                                                       \
      const uint32_t *A = sim__vsrc32(w, in, 0, SIM_VT_F16, t0);                            \
      const uint32_t *B = sim__vsrc32(w, in, 1, SIM_VT_F16, t1);                            \
      for (unsigned l = 0; l < 64; l++) {                                                   \
         uint32_t ha = sim__f16_bits_in(w, A[l]), hb = sim__f16_bits_in(w, B[l]);           \
         float a = sim__f16_to_f32(ha), b = sim__f16_to_f32(hb);                            \
         (void)ha, (void)hb, (void)a, (void)b;                                              \
         r[l] = sim__f16_result(w, in, fix((expr), a, b, 0.0f));                            \
      }                                                                                     \
      sim__vdst16(w, in, r);                                                                \
   }

/* Result given as f16 bits (min/max/med3 keep NaN payloads and signed zeros). */
#define SIM_VOP_F16_3_BITS(name, store, expr)                                               \
   void sim__op_##name(sim_wave *w, const sim_inst *in)                                      \
   {                                                                                        \
      uint32_t t0[64], t1[64], t2[64], r[64];                                               \
      const uint32_t *A = sim__vsrc32(w, in, 0, SIM_VT_F16, t0);                            \
      const uint32_t *B = sim__vsrc32(w, in, 1, SIM_VT_F16, t1);                            \
      const uint32_t *C = sim__vsrc32(w, in, 2, SIM_VT_F16, t2);                            \
      for (unsigned l = 0; l < 64; l++) {                                                   \
         uint32_t ha = sim__f16_bits_in(w, A[l]), hb = sim__f16_bits_in(w, B[l]);           \
         uint32_t hc = sim__f16_bits_in(w, C[l]);                                           \
         float a = sim__f16_to_f32(ha), b = sim__f16_to_f32(hb), c = sim__f16_to_f32(hc);   \
         (void)ha, (void)hb, (void)hc, (void)a, (void)b, (void)c;                           \
         r[l] = (expr);                                                                     \
      }                                                                                     \
      store(w, in, r);                                                                      \
   }

/* Result given as a value, rounded once to f16. */
#define SIM_VOP_F16_3(name, store, expr)                                                    \
   SIM_VOP_F16_3_BITS(name, store, sim__f16_result(w, in, sim__nanfix16((expr), a, b, c)))

/* ---- Lane masks -------------------------------------------------------------------------
 * 64 lane booleans (bytes 0/1) <-> a 64-bit lane mask, 8 lanes per multiply, so compare and
 * carry loops write bytes (which vectorise) instead of OR-ing `bit << lane` (which does
 * not). Little-endian hosts only (x86-64, AArch64). */
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "sim/isa lane-mask packing assumes a little-endian host"
#endif
static inline uint64_t
sim__lanes_pack(const uint8_t *c)
{
   uint64_t m = 0;
   for (unsigned g = 0; g < 8; g++) {
      uint64_t x;
      memcpy(&x, c + 8 * g, 8);
      m |= ((x * 0x0102040810204080ull) >> 56) << (8 * g);
   }
   return m;
}

/* The same from 64 lanes of 32-bit booleans (0/1): compare loops that stay in 32-bit lanes
 * need no narrowing. */
#if defined(__SSE2__)
#include <emmintrin.h>
static inline uint64_t
sim__lanes_pack32(const uint32_t *c)
{
   uint64_t m = 0;
   for (unsigned g = 0; g < 64; g += 4) {
      __m128i v = _mm_slli_epi32(_mm_loadu_si128((const __m128i *)(c + g)), 31);
      m |= (uint64_t)(unsigned)_mm_movemask_ps(_mm_castsi128_ps(v)) << g;
   }
   return m;
}
#else
static inline uint64_t
sim__lanes_pack32(const uint32_t *c)
{
   uint64_t m = 0;
   for (unsigned l = 0; l < 64; l++)
      m |= (uint64_t)(c[l] & 1) << l;
   return m;
}
#endif

/* Lanes of `live` whose value in `r` is NaN. */
static inline uint64_t
sim__nan_lanes32(const float *r, uint64_t live)
{
   uint32_t n[64];
   for (unsigned l = 0; l < 64; l++)
      n[l] = r[l] != r[l];
   return sim__lanes_pack32(n) & live;
}

static inline void
sim__lanes_unpack(uint64_t m, uint8_t *c)
{
   for (unsigned g = 0; g < 8; g++) {
      uint64_t t = (((m >> (8 * g)) & 0xFF) * 0x0101010101010101ull) & 0x8040201008040201ull;
      t = ((t + 0x7F7F7F7F7F7F7F7Full) >> 7) & 0x0101010101010101ull;
      memcpy(c + 8 * g, &t, 8);
   }
}

/* sim__nibble_mask[n][k]: all ones when bit k of n is set (4 lanes of a lane mask). */
extern const uint32_t sim__nibble_mask[16][4];

/* d[l] = bit l of m ? r[l] : d[l], 4 lanes per table row (no per-lane shifts; vectorises
 * on any x86-64). */
typedef uint32_t sim_u32x4 __attribute__((vector_size(16)));
static inline void
sim__lanes_select(uint32_t *d, const uint32_t *r, uint64_t m)
{
   for (unsigned g = 0; g < 64; g += 4, m >>= 4) {
      sim_u32x4 k, a, b;
      memcpy(&k, sim__nibble_mask[m & 15], 16);
      memcpy(&a, r + g, 16);
      memcpy(&b, d + g, 16);
      b = (a & k) | (b & ~k);
      memcpy(d + g, &b, 16);
   }
}

/* c[l] = bit l of m, in 32-bit lanes (4 lanes per table row). */
static inline void
sim__lanes_unpack32(uint64_t m, uint32_t *c)
{
   for (unsigned g = 0; g < 64; g += 4, m >>= 4) {
      sim_u32x4 k;
      memcpy(&k, sim__nibble_mask[m & 15], 16);
      k &= 1;
      memcpy(c + g, &k, 16);
   }
}

/* d[l] = bit l of m ? s[l] : 0 (d may be s). sim__fma_rows gives its inactive lanes zeros:
 * they hold what a divergent loop left them, often subnormals, on which an x86 fused
 * multiply-add takes a microcode assist; their results are never written. (Zeroing the
 * sources of v_add_f32 / v_mul_f32 measured no gain.) */
static inline void
sim__lanes_keep(void *d, const void *s, uint64_t m)
{
   for (unsigned g = 0; g < 64; g += 4, m >>= 4) {
      sim_u32x4 k, x;
      memcpy(&k, sim__nibble_mask[m & 15], 16);
      memcpy(&x, (const uint32_t *)s + g, 16);
      x &= k;
      memcpy((uint32_t *)d + g, &x, 16);
   }
}

/* Comparisons: `cmp` over lane values a, b of C type `ty` read as value kind `vt` (or via
 * 64-bit reads when `wide`); writes VCC/sdst, and EXEC too for v_cmpx. */
#define SIM_VOPC_32(name, ty, vt, cmp, x)                                                   \
   void sim__op_##name(sim_wave *w, const sim_inst *in)                                      \
   {                                                                                        \
      uint32_t t0[64], t1[64];                                                              \
      const uint32_t *A = sim__vsrc32(w, in, 0, vt, t0);                                    \
      const uint32_t *B = sim__vsrc32(w, in, 1, vt, t1);                                    \
      uint8_t c_[64];                                                                       \
      for (unsigned l = 0; l < 64; l++) {                                                   \
         ty a, b;                                                                           \
         memcpy(&a, &A[l], sizeof(ty));                                                     \
         memcpy(&b, &B[l], sizeof(ty));                                                     \
         c_[l] = (cmp) ? 1 : 0;                                                             \
      }                                                                                     \
      uint64_t bits = sim__lanes_pack(c_) & SIM_EXEC(w);                                    \
      sim__vcmp_write(w, in, bits, x);                                                      \
   }

#define SIM_VOPC_64(name, ty, vt, cmp, x)                                                   \
   void sim__op_##name(sim_wave *w, const sim_inst *in)                                      \
   {                                                                                        \
      uint64_t A[64], B[64];                                                                \
      sim__vsrc64(w, in, 0, vt, A);                                                         \
      sim__vsrc64(w, in, 1, vt, B);                                                         \
      uint8_t c_[64];                                                                       \
      for (unsigned l = 0; l < 64; l++) {                                                   \
         ty a, b;                                                                           \
         memcpy(&a, &A[l], sizeof(ty));                                                     \
         memcpy(&b, &B[l], sizeof(ty));                                                     \
         c_[l] = (cmp) ? 1 : 0;                                                             \
      }                                                                                     \
      uint64_t bits = sim__lanes_pack(c_) & SIM_EXEC(w);                                    \
      sim__vcmp_write(w, in, bits, x);                                                      \
   }

/* ---- Memory (sim_mem.c) ---------------------------------------------------------------- */

/* Host pointer for `size` bytes at GPU VA `va` for a load (write=false) or store; faults
 * the wave (memory violation) and returns NULL when no allocation covers the range or a
 * store hits code. Scratch-window addresses resolve to the work-group's scratch. */
void *sim__gpu_ptr(sim_wave *w, uint64_t va, uint32_t size, bool write);
/* Host pointer for a FLAT address of `lane`: LDS / private apertures or global. */
void *sim__flat_ptr(sim_wave *w, uint64_t addr, unsigned lane, uint32_t size, bool write);
/* LDS byte address -> pointer; faults on an access beyond the allocation. */
void *sim__lds_ptr(sim_wave *w, uint32_t addr, uint32_t size);
/* Byte address within the wave's scratch window of private address `off` for `lane`
 * (swizzled: element size 4, index stride 64, [ISA] 9.x "Buffer addressing"). */
/* The scratch base FLAT/SCRATCH instructions swizzle private addresses from. */
static inline uint64_t
sim__flat_scratch(const sim_wave *w)
{
   return w->target->gfx_major >= 10 ? w->flat_scratch : w->s64[SIM_SRC_FLAT_SCRATCH / 2];
}

static inline uint64_t
sim__scratch_swizzle(const sim_wave *w, uint32_t off, unsigned lane)
{
   return sim__flat_scratch(w) + (uint64_t)(off >> 2) * 4 * w->lanes + lane * 4 + (off & 3);
}

/* Vector memory engine shared by FLAT/GLOBAL/SCRATCH (sim_flat.c) and MUBUF
 * (sim_mubuf.c): `xlate` returns the host pointer of byte `k` (a multiple of 4, or 0) of
 * lane `lane`'s access, so swizzled scratch can place each dword separately. */
typedef void *(*sim_vm_xlate)(sim_wave *w, const sim_inst *in, unsigned lane, uint32_t k,
                              uint32_t size, bool write);
enum sim_vm_kind {
   SIM_VM_U8, SIM_VM_I8, SIM_VM_U16, SIM_VM_I16, SIM_VM_DW1, SIM_VM_DW2, SIM_VM_DW3,
   SIM_VM_DW4, SIM_VM_U8_D16, SIM_VM_U8_D16_HI, SIM_VM_I8_D16, SIM_VM_I8_D16_HI,
   SIM_VM_16_D16, SIM_VM_16_D16_HI,
};
void sim__vm_load(sim_wave *w, const sim_inst *in, sim_vm_xlate xl, unsigned kind);
/* The allocation holding all of [va, va + bytes) if the GLOBAL/FLAT fast paths (the
 * interpreter's and the translator's, sim_xlate_mem.c) may reach it directly through its
 * view: it overlaps neither the scratch window nor (FLAT) an aperture, a store may write
 * it and is no doorbell, and the checking mode does not cache it. NULL: lane by lane
 * through sim__gpu_ptr, which reports faults. */
const sim_alloc *sim__vm_direct(sim_wave *w, const sim_inst *in, uint64_t va, uint64_t bytes,
                                bool write);
/* MUBUF's dword loads and stores (n dwords a lane; sim_mubuf.c), called by the engine
 * above with EXEC `m` not zero: every active lane's addresses computed at once and the
 * data moved without per-lane translation when one place holds them all (the scratch
 * window or one allocation sim__vm_direct accepts). False: nothing done, the engine goes
 * lane by lane (faults, other allocations, the LDS bit, registers past the wave's). */
bool sim__mubuf_fast(sim_wave *w, const sim_inst *in, uint64_t m, unsigned n, bool store);
/* The addresses of MUBUF access `in`'s n dwords in every lane (va[k][l]; lanes outside
 * EXEC `m` too) and their lowest and highest over `m`; false when EXEC is empty, the
 * access is one sim__mubuf_fast leaves to the engine or the span passes 2^40 bytes. */
bool sim__mubuf_lanes(sim_wave *w, const sim_inst *in, uint64_t m, unsigned n, bool store,
                      uint64_t va[4][64], uint64_t *lo, uint64_t *hi);
/* The host address of [va, va + bytes) when one place holds all of it that MUBUF lanes may
 * reach directly: the work-group's scratch window, or one allocation sim__vm_direct
 * accepts. NULL: lane by lane through sim__gpu_ptr, which reports faults. */
uint8_t *sim__mubuf_span(sim_wave *w, const sim_inst *in, uint64_t va, uint64_t bytes,
                         bool write);
/* Stores 1, 2 or 4*n bytes; `hi` stores bits 31:16 (the _d16_hi forms). */
void sim__vm_store(sim_wave *w, const sim_inst *in, sim_vm_xlate xl, unsigned bytes, bool hi);
enum sim_atomic_op {
   SIM_AT_ADD, SIM_AT_SUB, SIM_AT_RSUB, SIM_AT_INC, SIM_AT_DEC, SIM_AT_SMIN, SIM_AT_SMAX,
   SIM_AT_UMIN, SIM_AT_UMAX, SIM_AT_AND, SIM_AT_OR, SIM_AT_XOR, SIM_AT_SWAP, SIM_AT_CMPSWAP,
   /* gfx90a's float atomics */
   SIM_AT_FADD_F32, SIM_AT_FADD_F64, SIM_AT_FMIN_F64, SIM_AT_FMAX_F64, SIM_AT_PK_ADD_F16,
   /* gfx10's: f32 min/max (the f64 ones are gfx90a's), a compare-and-swap comparing floats
    * (32 or 64 bits), the clamped subtract */
   SIM_AT_FMIN_F32, SIM_AT_FMAX_F32, SIM_AT_FCMPSWAP, SIM_AT_CSUB,
};
/* The operations whose DATA is a (source, compare) pair. */
static inline bool
sim__atomic_has_cmp(unsigned op)
{
   return op == SIM_AT_CMPSWAP || op == SIM_AT_FCMPSWAP;
}
/* op(tmp = MEM, DATA) of one lane (cmpswap: MEM = tmp == cmp ? DATA : tmp), 32 or 64 bits;
 * also used by the scalar atomics (sim_smem.c). */
uint64_t sim__vm_atomic_apply(unsigned op, uint64_t t, uint64_t d, uint64_t cmp, bool wide);
/* One lane's host-atomic read-modify-write of the 4 or 8 bytes at p; returns the old value
 * (image and scalar atomics). */
uint64_t sim__vm_atomic_rmw(void *p, unsigned op, uint64_t d, uint64_t cmp, bool wide);
/* Host-atomic read-modify-write per active lane; returns the old value to VDST when GLC. */
void sim__vm_atomic(sim_wave *w, const sim_inst *in, sim_vm_xlate xl, unsigned op, bool wide);

/* ---- Environment ------------------------------------------------------------------------ */

unsigned sim__nthreads(void);
/* Sets the dispatch watchdog (0: none) for dispatches started after the call, and returns the
 * one in force (HSACL_SIM_WATCHDOG, read once). For tests that need a short watchdog for
 * one case and none for another in one process; not called while a dispatch starts. */
uint64_t sim__watchdog_swap(uint64_t ns);

#endif
