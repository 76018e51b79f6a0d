/*
 * The translator's parts (docs/sim.md "Speed"): sim_xlate.c (the block former, the IR
 * lowering, compiling, the cache look-up and the checking mode), sim_xlate_alu.c (the
 * lowering of conversions, v_rcp_f32, v_frexp_*, v_ldexp_f32 and the 64-bit
 * multiply-adds), sim_xlate_f16.c (half-precision arithmetic, min/max, compares, packing and
 * conversions), sim_xlate_mem.c (the lowering of memory instructions) and
 * sim_xlate_worker.c (the compile worker, the process's exit and fork).
 */
#ifndef SIM_XLATE_PRIV_H
#define SIM_XLATE_PRIV_H

#include <pthread.h>
#include "sim_isa_priv.h"
#include "sim_llvm.h"

/* Longest block in instructions (the compile budget may cut it shorter). */
#define SIM_XLATE_MAX_INSTS 64

/* Block entries per dword of the program. `fn` is published with a release store. */
typedef void (*sim_xlate_fn)(sim_wave *w, uint32_t (*v)[64]);
enum { XL_ENT_COLD = 0, XL_ENT_DONE = 1, XL_ENT_NEVER = 2, XL_ENT_QUEUED = 3 };
typedef struct sim_xlate_ent {
   sim_xlate_fn fn;
   uint32_t hits;  /* relaxed atomics: an estimate is enough */
   uint32_t state; /* XL_ENT_* */
   /* What entering the block asks of the wave (checked before every run). */
   uint16_t max_vgpr; /* highest VGPR a lowered instruction names, +1 */
   uint8_t needs;     /* XL_NEEDS_F32/F16: lowered f32/f16 arithmetic, MODE must keep
                       * f32/f16 denormals */
   uint8_t n;         /* instructions the block runs (the compile budget may cut it) */
   uint8_t lanes;     /* the wave size it is compiled for: set by whoever takes the cold
                       * entry (the wave that queues or compiles it), from that wave */
   uint8_t exec_lanes; /* the constant-EXEC variant: compiled for EXEC = the low exec_lanes
                        * lanes, set with `lanes`; 0 (the general entry): any EXEC */
   uint16_t len;      /* instructions the block would hold, counted once it has become hot
                       * (the work threshold weighs its runs by it); 0 before */
   uint32_t runs;     /* translated runs, counted until runs x n reaches the work threshold
                       * (relaxed; the payoff sim__xlate_program_free weighs) */
} sim_xlate_ent;
enum { XL_NEEDS_F32 = 1, XL_NEEDS_F16 = 2 };

/* The entry of the block at `pc` of `p` (`exec_const`: its constant-EXEC variant), NULL
 * before the program has one (tests). */
const sim_xlate_ent *sim__xlate_entry(const sim_program *p, uint64_t pc, bool exec_const);
/* Sets the entry conditions of cold entry `e` of `p` from the wave that takes it (queues
 * or compiles it): its wave size and, for a constant-EXEC entry, its EXEC. */
void sim__xlate_take(sim_wave *w, sim_program *p, sim_xlate_ent *e);

/* The JIT (compiles, removals of a program's code). */
extern pthread_mutex_t sim__xlate_jit_lock;
/* Opens libLLVM and makes the JIT the first time it is called (not under the JIT lock),
 * after that returns at once: true when the JIT is there. False: the translator printed
 * why once and interprets from then on (sim__xlate_mode 0). */
bool sim__xlate_jit_ready(void);
/* HSACL_SIM_XLATE_STALL_MS (tests): the worker waits that long before each compile. */
extern uint32_t sim__xlate_stall_ms;

/* Compiles the block `insts[0..n)` at `pc` of `p` (takes the JIT lock); fills the entry's
 * entry conditions, which the caller publishes with its state. NULL: interpret it. */
sim_xlate_fn sim__xlate_compile(sim_program *p, uint64_t pc, sim_xlate_ent *e,
                                const sim_inst *const *insts, unsigned n);
/* One throw-away compile of a small block holding every kind of IR the lowering emits, on
 * the calling thread, after the JIT is made (sim__xlate_jit_ready; nothing when it cannot
 * be): the static objects LLVM builds when it is opened and lazily during a compile
 * (instruction selection's tables, pass registries) exist, and are registered for
 * destruction at exit, before anything registered after this call. */
void sim__xlate_warm(void);

/* The compile worker (sim_xlate_worker.c). Hands the hot block at `pc` to the worker (the
 * first call warms LLVM up, registers the exit and fork handlers and starts the worker);
 * the wave goes on interpreting. */
void sim__xlate_enqueue(sim_wave *w, sim_program *p, uint64_t pc, sim_xlate_ent *e);
/* Before the checking mode's first compile on a wave's thread: the same warm-up and exit
 * handler as the worker's. */
void sim__xlate_start(void);
/* A child of fork: it compiles nothing and leaves the inherited JIT alone (the worker's
 * fork handler says why). */
extern bool sim__xlate_forked;
/* Takes the program's blocks out of the queue and waits for the one the worker holds;
 * returns how many compiles that lost (1 when the worker was compiling one of them). */
unsigned sim__xlate_q_drop(sim_program *p);
/* The process's multiplier of the work threshold (1-XL_SCALE_MAX; tests): doubled when a
 * freed program's compiled blocks were mostly not repaid, halved when they were. */
unsigned sim__xlate_work_scale(void);

/* ---- IR emission (sim_xlate.c; memory instructions in sim_xlate_mem.c) ---------------- */

/* One block's function while it is built. Registers live in values: s/v hold the value of
 * an SGPR / VGPR row once read or written (NULL: not loaded yet), sd/vd say it differs
 * from the wave's copy, which the block stores before a handler runs and at its end. */
typedef struct sim_xl {
   LLVMContextRef C;
   LLVMModuleRef M;
   LLVMBuilderRef B;
   LLVMValueRef fn, w, vb;
   /* The wave's size (64, or 32: the first half of each 64-lane VGPR row; its lane masks,
    * EXEC, VCC, v_cmp results and carries, are an SGPR pair or one SGPR) and the lanes the
    * block holds: the wave's, or for a constant-EXEC variant whose EXEC lies in the low 32
    * lanes, those, or lane 0 when EXEC is that lane alone (xl_compile; the rest of each row stays in the register file, which
    * nothing the block lowers touches while EXEC stays there, and a side exit leaves the
    * block where an EXEC write leaves it). mask_t is an integer of `lanes` bits; v32, vf,
    * vm and v64 are vectors of `lanes` elements. */
   unsigned wave, lanes;
   /* Inside a run emitted in pieces (sim_xlate.c emit_pieces): the piece's first lane (an
    * i64 value), `lanes` then the piece's width; NULL elsewhere (the held lanes start at
    * lane 0). */
   LLVMValueRef lane0;
   unsigned pieces, pieces8; /* runs emitted in pieces, and of those in 8-lane ones */
   bool gfx10; /* the program's generation is gfx10 or later (v_cmpx writes EXEC alone) */
   bool avx512; /* the host code has AVX-512F (its rounding-mode forms: sim_xlate_f16.c) */
   LLVMTypeRef mask_t;
   LLVMTypeRef i1, i32, i64, ptr, v32, vf, vm, v64;
   LLVMValueRef s[128];
   bool sd[128];
   LLVMValueRef v[256];
   bool vd[256];
   LLVMValueRef scc;
   bool sccd;
   /* EXEC is exec_k until the block writes it or a handler runs: its first read is the
    * constant (the constant-EXEC variant, sim_xlate.c's struct sim_xlate_prog). */
   bool exec_known;
   uint64_t exec_k;
   /* The instruction being emitted wrote EXEC other than as a lane mask of the held lanes
    * (a narrowed block then checks that EXEC still lies in them: sim_xlate.c exec_guard). */
   bool exec_wrote;
   /* Inside a run of NaN-propagating f32, f64 or f16 instructions (sim_xlate.c
    * emit_nan_run): their NaN rule is left to one test of the run's results. */
   bool nan_defer;
   LLVMBasicBlockRef exit; /* returns to the wave loop (the wave's state is stored) */
   /* The block's first instruction (`start`, its PC): a taken branch back to it goes on
    * there in the block's own code while no handler has been called on the way (`called`)
    * and the entry conditions still hold (sim_xlate.c emit_loop_back). EXEC at the start:
    * exec_k when start_exec_known (the constant-EXEC variant). */
   LLVMBasicBlockRef head;
   uint64_t start;
   bool called;
   bool start_exec_known;
   unsigned max_vgpr;
   bool uses_f32;
   bool uses_f16;
   unsigned n;  /* instructions emitted: the block's length after the compile budget */
   /* A block whose last instruction is s_endpgm, in the normal mode: `dead` (i1, read at
    * entry from sim_wave.regs_dead_at_end) says whether nothing reads the wave's registers
    * once it ends, and from instruction clean_from on every instruction up to the s_endpgm
    * is lowered and not a branch, so a row retired there is read by nothing before the wave
    * ends, whichever way the rest runs (sim_xlate.c xl_clean_from): its store is skipped
    * when `dead`. NULL: not such a block. */
   LLVMValueRef dead;
   unsigned clean_from;
   uint64_t pc; /* the address of the instruction being emitted */
   /* Stack slots the f16 lowering passes its rare lanes to C through (sim_xlate_f16.c),
    * made on first use: one set a block. */
   LLVMValueRef f16_slots;
   unsigned ir; /* IR instructions of the function before optimisation */
   unsigned ir_again; /* of those, the NaN runs' second ways (not counted by the budget) */
} sim_xl;

/* The register values of sim_xlate.c's emitter: an SGPR as i32 (and its write, as
 * sim__swrite32 makes it), an SGPR pair as i64, the lane mask at SGPR `r` as x->mask_t, a
 * VGPR row; a scalar splatted to a vector of type `vt`. */
LLVMValueRef sim__xl_sget(sim_xl *x, unsigned r);
void sim__xl_sput(sim_xl *x, unsigned r, LLVMValueRef v);
LLVMValueRef sim__xl_sget64(sim_xl *x, unsigned r);
LLVMValueRef sim__xl_mget(sim_xl *x, unsigned r);
LLVMValueRef sim__xl_vget(sim_xl *x, unsigned r);
LLVMValueRef sim__xl_splat(sim_xl *x, LLVMValueRef s, LLVMTypeRef vt);
/* A call of the overloaded intrinsic `name` over the types `t[0..nt)`. */
LLVMValueRef sim__xl_intrin(sim_xl *x, const char *name, LLVMTypeRef *t, unsigned nt,
                            LLVMValueRef *args, unsigned n);
/* Stores what the block changed; forgets every value when `forget` (a handler runs). */
void sim__xl_flush(sim_xl *x, bool forget);
/* Is some element of the float or double vector `r` a NaN (i1)? A sum of infinities of
 * opposite signs in elements 2^k apart answers yes too: a side path it guards must look at
 * each element again. */
LLVMValueRef sim__xl_any_nan(sim_xl *x, LLVMValueRef r);
/* Emits the call of `in`'s handler at `pc` as the wave loop runs it (no flush): the i32 is
 * non-zero when the block must stop (the wave stopped, or a store reached a doorbell). */
LLVMValueRef sim__xl_call(sim_xl *x, const sim_inst *in, uint64_t pc);
/* A path that calls a handler and joins the block's own path again (sim_xlate_mem.c): it
 * stores every register the block changed, keeping them changed (the other path goes on
 * with the same values), and reads back VGPR row `r` the handler wrote. */
void sim__xl_spill(sim_xl *x);
LLVMValueRef sim__xl_row_load(sim_xl *x, unsigned r);
/* A stack slot of type `t` in the block function's entry block (allocas there are fixed
 * frame slots, made once whatever the path). */
LLVMValueRef sim__xl_entry_alloca(sim_xl *x, LLVMTypeRef t);
/* Emits a call of the C function `f(w, in)` (the checking mode's hooks). */
void sim__xl_hook(sim_xl *x, void (*f)(sim_wave *, const sim_inst *), const sim_inst *in);

/* The VALU emitter's pieces for sim_xlate_alu.c: is `in` a plain VALU form (no SDWA/DPP,
 * output modifiers, clamp or op_sel; sources the emitter reads; abs/neg only when `fneg`),
 * is `c` a 64-bit scalar source it reads; source i as a row (abs/neg applied as sign-bit
 * operations) or as 64-bit lanes; VGPR `r` = `val` in EXEC's lanes; the lane mask of `c`
 * (<lanes x i1>) as x->mask_t, inactive lanes 0, and its write to the SGPR(s) at `r`; the
 * interpreter's NaN rule over the f32 result `r` of the f32 sources srcf[0..n) (an i32
 * row). */
bool sim__xl_valu_plain(const sim_inst *in, unsigned nsrc, bool fneg);
bool sim__xl_src64_ok(unsigned c);
LLVMValueRef sim__xl_src_v(sim_xl *x, const sim_inst *in, unsigned i);
LLVMValueRef sim__xl_src_v64(sim_xl *x, const sim_inst *in, unsigned i);
/* An SDWA form sim_xlate.c lowers (VOP1/VOP2/VOPC, no clamp or output modifier); its
 * selects apply in sim__xl_src_v (sources 0 and 1) and sim__xl_vput_dst. */
bool sim__xl_valu_sdwa(const sim_inst *in);
/* The destination VGPR of `in` = `r` in EXEC's lanes, through an SDWA destination select. */
void sim__xl_vput_dst(sim_xl *x, const sim_inst *in, LLVMValueRef r);
void sim__xl_vput(sim_xl *x, unsigned r, LLVMValueRef val);
/* 64-bit lanes from the rows `lo` and `hi`, and back; the 64-bit lanes `v` to the VGPR pair
 * r, r+1 in EXEC's lanes. */
LLVMValueRef sim__xl_join64(sim_xl *x, LLVMValueRef lo, LLVMValueRef hi);
void sim__xl_split64(sim_xl *x, LLVMValueRef v, LLVMValueRef *lo, LLVMValueRef *hi);
void sim__xl_put64(sim_xl *x, unsigned r, LLVMValueRef v);
LLVMValueRef sim__xl_lanes_mask(sim_xl *x, LLVMValueRef c);
void sim__xl_mput(sim_xl *x, unsigned r, LLVMValueRef v);
LLVMValueRef sim__xl_nanfix(sim_xl *x, LLVMValueRef r, LLVMValueRef *srcf, unsigned n);
/* The lane mask of compare `c` (<lanes x i1>) written as sim__vcmp_write does: to the
 * destination (VCC or SDST) and, for a v_cmpx (`cmpx`), to EXEC; gfx10's v_cmpx to EXEC
 * alone. */
void sim__xl_cmp_write(sim_xl *x, const sim_inst *in, LLVMValueRef c, bool cmpx);
/* IEEE mode's min/max (sim__fmax32/sim__fmin32, sim__fmax64/sim__fmin64) of the integer
 * rows a, b (af, bf: the same as floats; q: the quiet bit splatted): the larger (smaller)
 * value, +0 above -0; a NaN operand yields the other (S1 when both are); with the wave's
 * IEEE bit a signalling NaN operand is the result, quieted, S0 first. */
LLVMValueRef sim__xl_minmax_ieee(sim_xl *x, LLVMValueRef a, LLVMValueRef b, LLVMValueRef af,
                                 LLVMValueRef bf, LLVMValueRef q, bool max);
/* The NaN rule of sim__xl_nanfix for any element width: the result `r` of srcf[0..n) as
 * rows of the integer vector type `it`, a NaN lane the first NaN source with the quiet bit
 * `qbit` set, or `qnan` (both splatted constants of type `it`). */
LLVMValueRef sim__xl_nanfix_bits(sim_xl *x, LLVMValueRef r, LLVMValueRef *srcf, unsigned n,
                                 LLVMTypeRef it, LLVMValueRef qnan, LLVMValueRef qbit);
/* MODE's IEEE bit of the wave as an i1, read where the instruction runs (an s_setreg before
 * it is a handler call, after which the block reads the wave again). */
LLVMValueRef sim__xl_wave_ieee(sim_xl *x);

/* The VALU forms of sim_xlate_alu.c (conversions, v_rcp_f32, v_frexp_*, v_ldexp_f32,
 * v_mad_u64_u32/v_mad_i64_i32, the 64-bit integer compares, v_min/max_f32, the bit
 * reversal and scans). Is `in` one of them? */
bool sim__xl_alu_lowered(const sim_inst *in);
/* Emits lowered `in`. */
void sim__xl_emit_alu(sim_xl *x, const sim_inst *in);

/* The integer forms of sim_xlate_int.c (bit fields, byte alignment, products' high halves,
 * three-way min/max/median, v_mbcnt, 16-bit arithmetic and its SDWA forms). Is `in` one? */
bool sim__xl_int_lowered(const sim_inst *in);
/* Is `in` one of them that reads and writes only its own lane's bits of the registers (not
 * v_mbcnt, which reads the lane's index)? */
bool sim__xl_int_lane_local(const sim_inst *in);
/* Emits lowered `in`. */
void sim__xl_emit_int(sim_xl *x, const sim_inst *in);

/* The half-precision forms of sim_xlate_f16.c. Is `in` one of them? */
bool sim__xl_f16_lowered(const sim_inst *in);
/* Emits lowered `in`. */
void sim__xl_emit_f16(sim_xl *x, const sim_inst *in);
/* Is `in` one of them whose result is its operation's f32 result rounded once to f16 (add,
 * sub, mul, the multiply-adds), so that a NaN operand or an invalid operation gives a NaN
 * there? 1: a row form (the low halves), 2: a packed one; 0: neither. While x->nan_defer
 * (a run's first way, sim_xlate.c emit_nan_run) such an instruction leaves the NaN rule to
 * the run's test, and a fused multiply-add makes a NaN of each result whose f16 rounding
 * would need its exact value (an f16 midpoint's form), so that the test sends the run the
 * exact way. */
unsigned sim__xl_f16_nan_op(const sim_inst *in);
/* The test at the end of the first way of such a run insts[0..len), all row forms or all
 * packed (i1): a half the run left in a row it wrote is a NaN. */
LLVMValueRef sim__xl_f16_run_test(sim_xl *x, const sim_inst *const *insts, unsigned len);

/* The double-precision forms of sim_xlate_f64.c. Is `in` one of them? */
bool sim__xl_f64_lowered(const sim_inst *in);
/* Is `in` one of them that reads and writes only its own lane's bits of the registers (not
 * v_ldexp_f64, whose rare lanes go to the handler, which runs on the wave)? */
bool sim__xl_f64_lane_local(const sim_inst *in);
/* Emits lowered `in`. */
void sim__xl_emit_f64(sim_xl *x, const sim_inst *in);
/* Is `in` one of them whose NaN result comes from a NaN operand or an invalid operation and
 * propagates into every f64 result that uses it (add, mul, fma, fmac, the roundings)? Its
 * NaN rule is left to a run's test while x->nan_defer (sim_xlate.c emit_nan_run). */
bool sim__xl_f64_nan_op(const sim_inst *in);

/* The memory lowering (sim_xlate_mem.c: GLOBAL/FLAT, DS, MUBUF scratch and SMEM loads). Is `in`
 * lowered? */
bool sim__xl_mem_lowered(const sim_inst *in);
/* Emits lowered `in` at `pc`. */
void sim__xl_emit_mem(sim_xl *x, const sim_inst *in, uint64_t pc);
/* For translated blocks: `*host` = the host address of GPU VA `rbase` (lane l's access is
 * at *host + lo[l]) when the accesses of `in`, from rbase + lmin to rbase + lmax plus its
 * size, all fall in one allocation the fast paths may reach directly (sim__vm_direct);
 * else 0, and the block calls the handler, which faults as interpreted. */
int sim__xlate_mem_base(sim_wave *w, const sim_inst *in, uint64_t rbase, uint32_t lmin,
                        uint32_t lmax, uint8_t **host);
/* For translated blocks: as sim__xlate_mem_base for a MUBUF access's lanes at
 * rbase + lo[l] (rbase + lmin to rbase + lmax + 4), in the scratch window or one
 * allocation (sim__mubuf_span). */
int sim__xlate_mubuf_base(sim_wave *w, const sim_inst *in, uint64_t rbase, uint32_t lmin,
                          uint32_t lmax, uint8_t **host);
/* For translated blocks: sim__xlate_mubuf_base for the lanes 0 to lanes - 1 of a MUBUF
 * scratch access at offsets o[] (their lowest to their largest over EXEC `exec`); 0 as well
 * when an active offset is not dword-aligned or not below 2^24 - 16. */
int sim__xlate_mubuf_rows(sim_wave *w, const sim_inst *in, uint64_t rbase, const uint32_t *o,
                          uint64_t exec, uint32_t lanes, uint8_t **host);
/* For translated blocks: `*host` = the host address of the scalar load `in` at GPU VA `va`
 * when its dwords lie in one allocation the fast paths may reach directly; else 0, and the
 * block calls the handler. */
int sim__xlate_smem_base(sim_wave *w, const sim_inst *in, uint64_t va, const uint8_t **host);
/* The checking mode: the host bytes lowered store `in` of `w` may write, by its registers;
 * false when they are not in one directly reachable allocation (the block calls the
 * handler then). With `mask`, *mask (malloc'd, *len bytes; the caller frees it) is 1 at the
 * bytes an active lane writes and 0 between them, where other waves may write at the same
 * time; NULL for LDS (DS), which only the work-group's waves, on this thread, reach, and
 * for a span over SIM_XLATE_CHECK_SNAP_MAX bytes (the checking mode does not compare those). */
#define SIM_XLATE_CHECK_SNAP_MAX (16u << 20)
bool sim__xlate_mem_range(sim_wave *w, const sim_inst *in, uint8_t **at, size_t *len,
                          uint8_t **mask);
/* The checking mode around a lowered store (sim_xlate.c): before it the reference is
 * brought up to it and compared, and the bytes it may write are kept; after it, what the
 * block wrote must be what the interpreter's handler writes over the kept bytes. */
void sim__xlate_check_store_pre(sim_wave *w, const sim_inst *in);
void sim__xlate_check_store_post(sim_wave *w, const sim_inst *in);

#endif
