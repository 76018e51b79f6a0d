/*
 * The translator: hot blocks of decoded sim_inst lowered to host code through LLVM 19's
 * ORC JIT (docs/sim.md, "Speed"). It reads only sim_inst and the wave's target description,
 * never machine words.
 *
 * A block starts where the wave loop found a hot PC and runs to the first instruction that
 * may change the PC, MODE or index mode (branches, s_endpgm, s_barrier, s_setreg, ...),
 * which it executes last through its interpreter handler (the branches and s_endpgm in its
 * own code). Between them every instruction
 * is either lowered (sim__xlate_class: XL_LOWER) or, when it is not, called through its
 * handler (XL_CALL: memory instructions and every VALU/SALU form not lowered yet), so a
 * block is exact by construction: before a call the block stores every register it holds
 * in host values, after it the block reads them again.
 *
 * Lowered instructions keep VGPR rows as <64 x i32> values (<32 x i32> for a wave32: the
 * first half of its 64-lane rows, the half it uses), SGPRs and SCC as i32 values, and
 * write VGPRs through a select on EXEC (an i64 mask, i32 in a wave32, as VCC and the lane
 * masks of v_cmp and carries). A block is compiled for the wave size of the wave that
 * found it hot and runs only on waves of that size; a block start has a second entry
 * compiled for a constant EXEC, a prefix of the lanes (struct sim_xlate_prog), which can
 * hold only the rows' first 32 lanes when that EXEC lies in them, lane 0 alone when EXEC is
 * that lane (xl_narrow). Lowered
 * instructions are restricted to forms whose
 * semantics need nothing of the wave beyond registers: no DPP, SDWA only for integer
 * operations (xl_sdwa_xop, sim_xlate_int.c), no output modifiers,
 * f32 (f16) work only when MODE keeps f32 (f16) denormals (checked when a block is
 * entered), the interpreter's NaN rule spelled out in IR.
 *
 * HSACL_SIM_XLATE=0 interprets; 1 (the default) translates hot blocks on a compile worker
 * thread while the waves interpret on (sim_xlate_worker.c, which also keeps the process's exit and fork
 * safe); check translates every block on its first run, on the wave's thread, and runs it
 * against the interpreter (xl_check_*). The compile budget: a block ends early once its IR
 * passes HSACL_SIM_XLATE_IR_MAX instructions (XL_IR_MAX), so no compile holds the worker
 * (and an exit that waits for it) long, but takes its end when only that is left. libLLVM
 * is not linked: it is opened, and the JIT made, for the first block compiled
 * (sim__xlate_jit_ready, sim_llvm.c), so a process that compiles nothing (most short ones,
 * below the work threshold) does not pay for loading it.
 * HSACL_SIM_XLATE_HOT=n: runs of a PC before its block is compiled (50; 1 when checking);
 * HSACL_SIM_XLATE_WORK=n: and its runs times its length must reach n (XL_WORK; 0 when
 * checking or when only HOT is set), so that short runs compile nothing (xl_worth), times
 * a multiplier that compiles freed programs never repaid raise (xl_weigh_payoff).
 * HSACL_SIM_XLATE_STALL_MS=n: the worker waits n ms before each compile (tests: a slow
 * compile must not hold up a dispatch, nor a program's free or the process's exit).
 * HSACL_SIM_XLATE_VERBOSE: one line a compiled block (size, compile time), and the
 * instructions it calls the interpreter for. HSACL_SIM_XLATE_DUMP=<dir>: each block's IR.
 */
#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "sim_xlate_priv.h"

int sim__xlate_mode = -1;

typedef sim_xlate_fn xl_fn;
typedef sim_xlate_ent xl_ent;

/* Each block start has two entries: ent[i] compiled for any EXEC, ent[nent + i] for waves
 * that enter with one EXEC, a prefix of the lanes (all of them, a partial wave's, one
 * work-item's): the emitter takes EXEC as that constant until the block writes it or
 * calls a handler, so LLVM drops the selects that keep inactive lanes, the partial-wave
 * paths of memory accesses and the mask bookkeeping around them, and the arithmetic of
 * lanes no result keeps. */
struct sim_xlate_prog {
   xl_ent *ent;
   size_t nent;
   LLVMOrcResourceTrackerRef rt; /* the program's compiled blocks */
};

/* The lanes of `exec` if it is a prefix of lanes (the low n, n >= 1), else 0. */
static unsigned
xl_prefix_lanes(uint64_t exec)
{
   /* 64 - clz (bsr), not popcount: without -mpopcnt that is a libgcc call (1% of copy1) */
   return exec && !(exec & (exec + 1)) ? 64u - (unsigned)__builtin_clzll(exec) : 0;
}

void
sim__xlate_take(sim_wave *w, sim_program *p, xl_ent *e)
{
   e->lanes = w->lanes;
   e->exec_lanes = e >= p->xlate->ent + p->xlate->nent ? xl_prefix_lanes(SIM_EXEC(w)) : 0;
}

/* ---- Process-wide JIT --------------------------------------------------------------- */

static pthread_once_t xl_once = PTHREAD_ONCE_INIT;
pthread_mutex_t sim__xlate_jit_lock = PTHREAD_MUTEX_INITIALIZER;
#define xl_lock sim__xlate_jit_lock
static LLVMOrcLLJITRef xl_jit;
/* The JIT's target has AVX-512F (sim_xl.avx512). */
static bool xl_avx512;
static LLVMTargetMachineRef xl_tm;
static uint32_t xl_hot = 50;
/* The work threshold: a block is compiled once its runs times its length have reached
 * this many instructions interpreted (HSACL_SIM_XLATE_WORK; docs/sim.md "Speed"). */
#define XL_WORK 200000
static uint64_t xl_work = XL_WORK;
/* The threshold's multiplier, from what compiles repaid (xl_weigh_payoff). */
#define XL_SCALE_MAX 64
static _Atomic unsigned xl_work_scale = 1;
static unsigned long xl_serial;
static uint64_t xl_compile_ns;            /* under xl_lock */
static _Atomic uint64_t xl_compiled;
static _Atomic uint64_t xl_checked; /* blocks compared in the checking mode */
/* Runs emitted in pieces (emit_pieces) in the blocks xl_compiled counts, and of those in
 * pieces of XL_PIECE / 2 lanes. */
static _Atomic uint64_t xl_piece_runs, xl_piece_runs8;
uint32_t sim__xlate_stall_ms;       /* HSACL_SIM_XLATE_STALL_MS (tests) */
#define XL_MAX_INSTS SIM_XLATE_MAX_INSTS
/* The compile budget: IR instructions in a block before it ends early. */
#define XL_IR_MAX 1000
static unsigned xl_ir_max = XL_IR_MAX; /* HSACL_SIM_XLATE_IR_MAX */
/* 64-lane VGPR rows a block holds in values between its instructions (xl_rows_retire):
 * four are 16 of AVX-512's 32 registers, the rest left for the instructions' temporaries. */
#define XL_ROWS_HELD 4
static unsigned xl_rows_held = XL_ROWS_HELD; /* HSACL_SIM_XLATE_ROWS */
/* Constant-EXEC variants hold only the low 32 lanes of a wave64 when their EXEC lies there,
 * and only lane 0 when EXEC is lane 0 alone (a one-work-item wave of either size: the rows
 * are scalars; xl_compile); HSACL_SIM_XLATE_NARROW=0 keeps the whole wave. Not 16: LLVM
 * 19's x86 instruction selection (AVX-512F without BW, where a 16-lane mask is a legal k
 * register) never finished a 16-lane block of the CTS math test's remquo: its SelectionDAG
 * combines loop on a 16-lane f64 compare whose mask is ANDed with the constant EXEC, then
 * ORed with another mask and used by selects (a 13-line reduction of it takes over 20
 * minutes; the same at 32 or 64 lanes, or at one, compiles in 0.03 s). */
static bool xl_narrow = true;
/* Runs of lane-local VALU instructions emitted in pieces of XL_PIECE lanes, or half that
 * (emit_pieces); HSACL_SIM_XLATE_PIECES=0 emits them whole. A run is at least
 * xl_piece_min instructions long (HSACL_SIM_XLATE_PIECE_MIN: fuzz_xlate's programs are
 * 1-8 instructions). */
#define XL_PIECE 16
#define XL_PIECE_MIN 8
#define XL_PIECE_MAX 64
static bool xl_pieces = true;
static unsigned xl_piece_min = XL_PIECE_MIN;

/* The checking mode says at exit how many block runs it compared (and how many runs it
 * emitted in pieces), so that a test over it can tell "nothing differed" from "nothing was
 * translated" (tests/CMakeLists.txt). */
static void
xl_report(void)
{
   fprintf(stderr,
           "hsacl-sim: xlate check: %llu block runs compared, %llu blocks compiled, %llu runs "
           "in pieces (%llu of %u lanes)\n",
           (unsigned long long)atomic_load(&xl_checked),
           (unsigned long long)atomic_load(&xl_compiled),
           (unsigned long long)atomic_load(&xl_piece_runs),
           (unsigned long long)atomic_load(&xl_piece_runs8), XL_PIECE / 2);
}

/* HSACL_SIM_XLATE=1 with HSACL_SIM_XLATE_VERBOSE counts block runs (a test tells a worker
 * that compiled and published from one that never did). */
static bool xl_verbose;
static _Atomic uint64_t xl_runs;

static void
xl_report_runs(void)
{
   fprintf(stderr, "hsacl-sim: xlate: %llu blocks compiled, %llu block runs\n",
           (unsigned long long)atomic_load(&xl_compiled),
           (unsigned long long)atomic_load(&xl_runs));
}

static void
xl_setup(void)
{
   /* On unless HSACL_SIM_XLATE=0: with the work threshold short runs compile nothing, so
    * the suite no longer pays for compiles it never uses (docs/sim.md "Speed"). */
   const char *e = getenv("HSACL_SIM_XLATE");
   int mode = 1;
   if (e && !strcmp(e, "0"))
      mode = 0;
   else if (e && !strcmp(e, "check"))
      mode = 2;
   /* HSACL_SIM_XLATE_HOT alone (tests: 1 compiles on the first run) or the checking mode
    * (every block compared from its first run) sets no work threshold. */
   const char *h = getenv("HSACL_SIM_XLATE_HOT");
   const char *wk = getenv("HSACL_SIM_XLATE_WORK");
   if (h && *h)
      xl_hot = (uint32_t)strtoul(h, NULL, 10);
   else if (mode == 2)
      xl_hot = 1;
   if (wk && *wk)
      xl_work = strtoull(wk, NULL, 10);
   else if ((h && *h) || mode == 2)
      xl_work = 0;
   const char *irm = getenv("HSACL_SIM_XLATE_IR_MAX");
   if (irm && *irm)
      xl_ir_max = (unsigned)strtoul(irm, NULL, 10);
   const char *rows = getenv("HSACL_SIM_XLATE_ROWS");
   if (rows && *rows)
      xl_rows_held = (unsigned)strtoul(rows, NULL, 10);
   const char *nw = getenv("HSACL_SIM_XLATE_NARROW");
   if (nw && !strcmp(nw, "0"))
      xl_narrow = false;
   const char *pc = getenv("HSACL_SIM_XLATE_PIECES");
   if (pc && !strcmp(pc, "0"))
      xl_pieces = false;
   const char *pm = getenv("HSACL_SIM_XLATE_PIECE_MIN");
   if (pm && *pm)
      xl_piece_min = (unsigned)strtoul(pm, NULL, 10);
   const char *st = getenv("HSACL_SIM_XLATE_STALL_MS");
   if (st && *st)
      sim__xlate_stall_ms = (uint32_t)strtoul(st, NULL, 10);
   /* No LLVM yet: the JIT waits for the first block to compile (sim__xlate_jit_ready). */
   xl_verbose = getenv("HSACL_SIM_XLATE_VERBOSE") != NULL;
   if (mode == 2)
      atexit(xl_report);
   else if (mode == 1 && xl_verbose)
      atexit(xl_report_runs);
   __atomic_store_n(&sim__xlate_mode, mode, __ATOMIC_RELEASE);
}

/* The JIT, made for the first compile (sim__xlate_jit_ready), not with the mode: libLLVM is
 * opened then (sim_llvm.c), so a process whose blocks never get hot does not load it. On
 * failure the translator interprets from then on, as with HSACL_SIM_XLATE=0. */
static pthread_once_t xl_jit_once = PTHREAD_ONCE_INIT;

/* Is feature `name` on in the LLVM feature string `feat` ("+a,-b,..."; the last word for it
 * counts, as LLVM reads it)? */
static bool
xl_feature_on(const char *feat, const char *name)
{
   bool on = false;
   size_t n = strlen(name);
   for (const char *p = feat; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
      if ((*p == '+' || *p == '-') && !strncmp(p + 1, name, n) && (p[n + 1] == ',' || !p[n + 1]))
         on = *p == '+';
   return on;
}

static void
xl_jit_setup(void)
{
   char why[600];
   if (!sim__llvm_load(why, sizeof(why))) {
      fprintf(stderr, "hsacl-sim: translator disabled: %s\n", why);
      __atomic_store_n(&sim__xlate_mode, 0, __ATOMIC_RELEASE);
      return;
   }
   /* LLVMInitializeNativeTarget and LLVMInitializeNativeAsmPrinter, whose inline bodies
    * in llvm-c/Target.h would call libLLVM by name. */
   LLVMInitializeX86TargetInfo();
   LLVMInitializeX86Target();
   LLVMInitializeX86TargetMC();
   LLVMInitializeX86AsmPrinter();
   /* One target machine for the passes, one (the same settings) for ORC's code
    * generator, which takes ownership of its own. */
   /* Code generation at -O1: the blocks are already in SSA form with their registers
    * in values. Compile time a block measured within noise of -O0 and -O2 (instruction
    * selection dominates); the speed of the code at each level is not measured yet. */
   LLVMCodeGenOptLevel lvl = LLVMCodeGenLevelLess;
   char *triple = LLVMGetDefaultTargetTriple();
   char *cpu = LLVMGetHostCPUName(), *host_feat = LLVMGetHostCPUFeatures();
   /* The host's features less AVX512BW, or HSACL_SIM_XLATE_MATTR (LLVM's -mattr
    * syntax, e.g. "-avx512f"; "" for the host's own) to try others. AVX-512 holds a
    * 64-lane row in 4 registers (AVX2 in 8): without it the bench kernels' code was
    * 1.3-2.3x slower and their blocks compiled slower too. With AVX512BW's 64-bit
    * masks, instruction selection of one of float_math's blocks (64-lane selects
    * around fma) ran for minutes; without them it takes a second and the bench
    * kernels' code runs as fast (docs/sim.md "Speed"). */
   const char *mattr = getenv("HSACL_SIM_XLATE_MATTR");
   if (!mattr)
      mattr = "-avx512bw";
   size_t flen = strlen(host_feat) + strlen(mattr) + 2;
   char *feat = malloc(flen);
   if (feat)
      snprintf(feat, flen, "%s%s%s", host_feat, *host_feat && *mattr ? "," : "", mattr);
   xl_avx512 = feat && xl_feature_on(feat, "avx512f");
   LLVMDisposeMessage(host_feat);
   LLVMTargetRef target = NULL;
   char *msg = NULL;
   LLVMTargetMachineRef tm = NULL, jit_tm = NULL;
   if (feat && !LLVMGetTargetFromTriple(triple, &target, &msg)) {
      tm = LLVMCreateTargetMachine(target, triple, cpu, feat, lvl, LLVMRelocDefault,
                                   LLVMCodeModelJITDefault);
      jit_tm = LLVMCreateTargetMachine(target, triple, cpu, feat, lvl, LLVMRelocDefault,
                                       LLVMCodeModelJITDefault);
   }
   LLVMErrorRef err = NULL;
   LLVMOrcLLJITRef jit = NULL;
   if (tm && jit_tm) {
      LLVMOrcLLJITBuilderRef b = LLVMOrcCreateLLJITBuilder();
      LLVMOrcLLJITBuilderSetJITTargetMachineBuilder(
         b, LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine(jit_tm));
      err = LLVMOrcCreateLLJIT(&jit, b);
   }
   LLVMDisposeMessage(triple);
   LLVMDisposeMessage(cpu);
   free(feat);
   if (msg)
      fprintf(stderr, "hsacl-sim: translator disabled: %s\n", msg);
   LLVMDisposeMessage(msg);
   if (err || !tm || !jit) {
      if (err) {
         char *m = LLVMGetErrorMessage(err);
         fprintf(stderr, "hsacl-sim: translator disabled: %s\n", m);
         LLVMDisposeErrorMessage(m);
      }
      __atomic_store_n(&sim__xlate_mode, 0, __ATOMIC_RELEASE);
      return;
   }
   xl_tm = tm;
   xl_jit = jit;
}

bool
sim__xlate_jit_ready(void)
{
   pthread_once(&xl_jit_once, xl_jit_setup);
   return xl_jit != NULL;
}

void
sim__xlate_init(void)
{
   pthread_once(&xl_once, xl_setup);
}

unsigned
sim__xlate_work_scale(void)
{
   return atomic_load_explicit(&xl_work_scale, memory_order_relaxed);
}

/* A program's compiles, weighed when it is freed: a compiled block repaid its compile if it
 * ran translated at least the work threshold's instructions (sim__xlate_run counts its runs
 * up to that mark). The threshold bets that a block interpreted that long goes on running;
 * where it does not (a process of many short programs: the CTS's C11 atomics build
 * thousands, each compare-exchange loop hot just before its dispatch ends, and compiled
 * blocks there ran 62 times on average), every compile is lost. More of the program's
 * blocks unrepaid (a compile still running when the program goes is lost whole) than
 * repaid doubles the process's multiplier of the threshold (up to XL_SCALE_MAX); a repaid
 * majority halves it (two frees at once may lose a step: it is an estimate). Not with an
 * explicit run count alone (tests, the checking mode: no work threshold). */
static void
xl_weigh_payoff(const struct sim_xlate_prog *x, unsigned lost)
{
   if (!xl_work)
      return;
   unsigned repaid = 0;
   for (size_t i = 0; i < 2 * x->nent; i++) {
      const xl_ent *e = &x->ent[i];
      if (__atomic_load_n(&e->state, __ATOMIC_RELAXED) != XL_ENT_DONE)
         continue;
      uint64_t work = (uint64_t)__atomic_load_n(&e->runs, __ATOMIC_RELAXED) * e->n;
      if (work >= xl_work)
         repaid++;
      else
         lost++;
   }
   if (!repaid && !lost)
      return;
   unsigned s = atomic_load_explicit(&xl_work_scale, memory_order_relaxed), n = s;
   if (lost > repaid && s < XL_SCALE_MAX)
      n = s * 2;
   else if (repaid >= lost && s > 1)
      n = s / 2;
   if (n != s) {
      atomic_store_explicit(&xl_work_scale, n, memory_order_relaxed);
      if (xl_verbose)
         fprintf(stderr, "hsacl-sim: xlate: %u compiled blocks repaid, %u not: work threshold "
                 "x%u\n", repaid, lost, n);
   }
}

void
sim__xlate_program_free(sim_program *p)
{
   struct sim_xlate_prog *x = p->xlate;
   if (!x)
      return;
   xl_weigh_payoff(x, sim__xlate_q_drop(p));
   /* A child of fork leaves the inherited JIT alone: the code stays mapped until it exits. */
   if (x->rt && !sim__xlate_forked) {
      pthread_mutex_lock(&xl_lock);
      LLVMErrorRef err = LLVMOrcResourceTrackerRemove(x->rt);
      if (err)
         LLVMConsumeError(err);
      LLVMOrcReleaseResourceTracker(x->rt);
      pthread_mutex_unlock(&xl_lock);
   }
   free(x->ent);
   free(x);
   p->xlate = NULL;
}

/* ---- The block former ---------------------------------------------------------------- */

/* Scalar source codes a lowered instruction reads: SGPRs, integer and float inline
 * constants, the literal (32-bit reads). */
static bool
xl_src32_ok(unsigned c)
{
   return c < 128 || (c >= 128 && c <= 208) || (c >= 240 && c <= 248) || c == SIM_SRC_LITERAL ||
          (c >= SIM_SRC_VGPR && c < SIM_SRC_VGPR + 256);
}
static bool
xl_src64_ok(unsigned c)
{
   return c < 127 || (c >= 128 && c <= 208);
}

/* A plain VALU form: no SDWA/DPP/modifiers; `fneg` allows abs/neg on f32 sources. */
static bool
xl_valu_plain(const sim_inst *in, unsigned nsrc, bool fneg)
{
   if (in->flags & (SIM_IF_SDWA | SIM_IF_DPP))
      return false;
   if (in->enc != SIM_ENC_VOP1 && in->enc != SIM_ENC_VOP2 && in->enc != SIM_ENC_VOPC &&
       in->enc != SIM_ENC_VOP3)
      return false;
   if (in->omod || in->clamp || in->op_sel || (!fneg && (in->abs | in->neg)))
      return false;
   for (unsigned i = 0; i < nsrc; i++)
      if (in->src[i] != SIM_SRC_NONE && !xl_src32_ok(in->src[i]))
         return false;
   return true;
}

typedef enum {
   XO_NONE, XO_MOV, XO_ADD, XO_SUB, XO_SUBREV, XO_AND, XO_OR, XO_XOR, XO_SHL, XO_LSHR,
   XO_ASHR, XO_MULLO, XO_MULU24, XO_MULI24, XO_MADU24, XO_MADI24, XO_LSHLADD, XO_ADDLSHL,
   XO_ADD3, XO_LSHLOR, XO_ANDOR, XO_MINMAX, XO_CO_ADD, XO_CO_SUB, XO_CO_SUBREV, XO_CO_ADDC,
   XO_CO_SUBB, XO_CO_SUBBREV, XO_SHL64,
   XO_CNDMASK, XO_FADD, XO_FSUB, XO_FSUBREV, XO_FMUL, XO_FMA, XO_FMAD, XO_FMAC, XO_FMACNF,
   XO_FFLOOR, XO_FTRUNC, XO_FCEIL, XO_FRNDNE, XO_CVT_F32_U32, XO_CVT_F32_I32, XO_ICMP, XO_FCMP,
   /* scalar */
   XO_S_MOV32, XO_S_MOV64, XO_S_ADDU, XO_S_SUBU, XO_S_ADDI, XO_S_ADDC, XO_S_MUL, XO_S_LOG32,
   XO_S_LOG64, XO_S_SHL32, XO_S_LSHR32, XO_S_ASHR32, XO_S_SHL64, XO_S_CMP, XO_S_BITCMP, XO_S_SAVEEXEC,
   XO_S_SAVEEXEC32, XO_S_CSEL32, XO_S_CSEL64, XO_S_MULHU, XO_S_MULHI, XO_S_BFEU, XO_S_BFEI,
   XO_S_MOVK, XO_S_BCNT1, XO_S_BCNT1_64, XO_S_BREV, XO_S_NOT32, XO_S_NOT64, XO_S_CMP64,
   XO_READFIRST, XO_READLANE, XO_WRITELANE, XO_CLASS32, XO_CLASS64, XO_S_GETPC,
} xl_xop;

/* LLVM predicates of the v_cmp / s_cmp opcodes lowered, 0 if none. */
static int
xl_icmp_pred(unsigned op)
{
   switch (op) {
#define I(m, p) case SIM_OP_##m: return p;
   I(v_cmp_eq_u32, LLVMIntEQ) I(v_cmp_ne_u32, LLVMIntNE) I(v_cmp_lt_u32, LLVMIntULT)
   I(v_cmp_le_u32, LLVMIntULE) I(v_cmp_gt_u32, LLVMIntUGT) I(v_cmp_ge_u32, LLVMIntUGE)
   I(v_cmp_eq_i32, LLVMIntEQ) I(v_cmp_ne_i32, LLVMIntNE) I(v_cmp_lt_i32, LLVMIntSLT)
   I(v_cmp_le_i32, LLVMIntSLE) I(v_cmp_gt_i32, LLVMIntSGT) I(v_cmp_ge_i32, LLVMIntSGE)
   I(v_cmpx_eq_u32, LLVMIntEQ) I(v_cmpx_ne_u32, LLVMIntNE) I(v_cmpx_lt_u32, LLVMIntULT)
   I(v_cmpx_le_u32, LLVMIntULE) I(v_cmpx_gt_u32, LLVMIntUGT) I(v_cmpx_ge_u32, LLVMIntUGE)
   I(v_cmpx_eq_i32, LLVMIntEQ) I(v_cmpx_ne_i32, LLVMIntNE) I(v_cmpx_lt_i32, LLVMIntSLT)
   I(v_cmpx_le_i32, LLVMIntSLE) I(v_cmpx_gt_i32, LLVMIntSGT) I(v_cmpx_ge_i32, LLVMIntSGE)
   I(s_cmp_eq_u32, LLVMIntEQ) I(s_cmp_lg_u32, LLVMIntNE) I(s_cmp_lt_u32, LLVMIntULT)
   I(s_cmp_le_u32, LLVMIntULE) I(s_cmp_gt_u32, LLVMIntUGT) I(s_cmp_ge_u32, LLVMIntUGE)
   I(s_cmp_eq_i32, LLVMIntEQ) I(s_cmp_lg_i32, LLVMIntNE) I(s_cmp_lt_i32, LLVMIntSLT)
   I(s_cmp_le_i32, LLVMIntSLE) I(s_cmp_gt_i32, LLVMIntSGT) I(s_cmp_ge_i32, LLVMIntSGE)
#undef I
   default:
      return 0;
   }
}
static int
xl_fcmp_pred(unsigned op)
{
   switch (op) {
#define F(m, p) case SIM_OP_##m: return p;
   F(v_cmp_lt_f32, LLVMRealOLT) F(v_cmp_eq_f32, LLVMRealOEQ) F(v_cmp_le_f32, LLVMRealOLE)
   F(v_cmp_gt_f32, LLVMRealOGT) F(v_cmp_lg_f32, LLVMRealONE) F(v_cmp_ge_f32, LLVMRealOGE)
   F(v_cmp_o_f32, LLVMRealORD) F(v_cmp_u_f32, LLVMRealUNO) F(v_cmp_nge_f32, LLVMRealULT)
   F(v_cmp_nlg_f32, LLVMRealUEQ) F(v_cmp_ngt_f32, LLVMRealULE) F(v_cmp_nle_f32, LLVMRealUGT)
   F(v_cmp_neq_f32, LLVMRealUNE) F(v_cmp_nlt_f32, LLVMRealUGE)
   F(v_cmpx_lt_f32, LLVMRealOLT) F(v_cmpx_eq_f32, LLVMRealOEQ) F(v_cmpx_le_f32, LLVMRealOLE)
   F(v_cmpx_gt_f32, LLVMRealOGT) F(v_cmpx_lg_f32, LLVMRealONE) F(v_cmpx_ge_f32, LLVMRealOGE)
   F(v_cmpx_o_f32, LLVMRealORD) F(v_cmpx_u_f32, LLVMRealUNO) F(v_cmpx_nge_f32, LLVMRealULT)
   F(v_cmpx_nlg_f32, LLVMRealUEQ) F(v_cmpx_ngt_f32, LLVMRealULE) F(v_cmpx_nle_f32, LLVMRealUGT)
   F(v_cmpx_neq_f32, LLVMRealUNE) F(v_cmpx_nlt_f32, LLVMRealUGE)
#undef F
   default:
      return 0;
   }
}

/* Whether the lowered compare `op` is a v_cmpx (it writes EXEC too). */
static bool
xl_cmpx(unsigned op)
{
   switch (op) {
   case SIM_OP_v_cmpx_eq_u32: case SIM_OP_v_cmpx_ne_u32: case SIM_OP_v_cmpx_lt_u32:
   case SIM_OP_v_cmpx_le_u32: case SIM_OP_v_cmpx_gt_u32: case SIM_OP_v_cmpx_ge_u32:
   case SIM_OP_v_cmpx_eq_i32: case SIM_OP_v_cmpx_ne_i32: case SIM_OP_v_cmpx_lt_i32:
   case SIM_OP_v_cmpx_le_i32: case SIM_OP_v_cmpx_gt_i32: case SIM_OP_v_cmpx_ge_i32:
   case SIM_OP_v_cmpx_lt_f32: case SIM_OP_v_cmpx_eq_f32: case SIM_OP_v_cmpx_le_f32:
   case SIM_OP_v_cmpx_gt_f32: case SIM_OP_v_cmpx_lg_f32: case SIM_OP_v_cmpx_ge_f32:
   case SIM_OP_v_cmpx_o_f32: case SIM_OP_v_cmpx_u_f32: case SIM_OP_v_cmpx_nge_f32:
   case SIM_OP_v_cmpx_nlg_f32: case SIM_OP_v_cmpx_ngt_f32: case SIM_OP_v_cmpx_nle_f32:
   case SIM_OP_v_cmpx_neq_f32: case SIM_OP_v_cmpx_nlt_f32:
      return true;
   default:
      return false;
   }
}

/* An SDWA form (VOP1, VOP2, VOPC) the emitter lowers: its source selects in src_v, its
 * destination select in vput_dst; no clamp or output modifier, scalar sources as
 * xl_src32_ok (gfx9's S0/S1 bits). Which operations: xl_sdwa_xop. */
static bool
xl_valu_sdwa(const sim_inst *in)
{
   if (in->enc != SIM_ENC_VOP1_SDWA && in->enc != SIM_ENC_VOP2_SDWA &&
       in->enc != SIM_ENC_VOPC_SDWA)
      return false;
   if (in->omod || in->clamp)
      return false;
   for (unsigned i = 0; i < 2; i++)
      if (in->src[i] != SIM_SRC_NONE && !xl_src32_ok(in->src[i]))
         return false;
   return true;
}

/* The operations lowered in an SDWA form: the 32-bit integer ones (and the conversions of
 * an integer to f32), whose handlers read their sources through the selects and store
 * through sdwa_store. Not the f32 arithmetic: a run of it defers the NaN rule to the rows
 * it stores (emit_nan_run), which a partial destination would not take; not v_mac/fmac
 * (the accumulator is the destination row). */
static xl_xop
xl_sdwa_xop(xl_xop x)
{
   switch (x) {
   case XO_MOV: case XO_ADD: case XO_SUB: case XO_SUBREV: case XO_AND: case XO_OR:
   case XO_XOR: case XO_SHL: case XO_LSHR: case XO_ASHR: case XO_MULU24: case XO_MULI24:
   case XO_MINMAX: case XO_CVT_F32_U32: case XO_CVT_F32_I32: case XO_CO_ADD: case XO_CO_SUB:
   case XO_CO_SUBREV: case XO_CO_ADDC: case XO_CO_SUBB: case XO_CO_SUBBREV: case XO_CNDMASK:
   case XO_ICMP:
      return x;
   default:
      return XO_NONE;
   }
}

static xl_xop xl_xop_valu(const sim_inst *in);
static xl_xop xl_xop_salu(const sim_inst *in);

/* How a lowered instruction is computed, XO_NONE when it is not lowered. */
static xl_xop
xl_xop_of(const sim_inst *in)
{
   bool v = in->flags & SIM_IF_VALU;
   if (v && in->enc != SIM_ENC_VOP3P) {
      if (in->flags & SIM_IF_SDWA)
         return xl_valu_sdwa(in) ? xl_sdwa_xop(xl_xop_valu(in)) : XO_NONE;
      return xl_valu_plain(in, 3, true) ? xl_xop_valu(in) : XO_NONE;
   }
   return xl_xop_salu(in);
}

/* xl_xop_of for a VALU form it accepts. */
static xl_xop
xl_xop_valu(const sim_inst *in)
{
   bool plain = !(in->abs | in->neg);
   xl_xop x = XO_NONE;
   switch (in->op) {
   /* gfx10's names of gfx9 operations (sim_rdna.c runs the gfx9 handlers) share their
    * lowering: v_add/sub/subrev_nc_u32, v_add/sub/subrev_co_ci_u32. */
   case SIM_OP_v_mov_b32: x = XO_MOV; break;
   /* An SGPR destination: the plain ones (sim__swrite32 gives VCC, M0, EXEC and the
    * others their own rules). */
   case SIM_OP_v_readfirstlane_b32: x = in->vdst < 106 ? XO_READFIRST : XO_NONE; break;
   /* The lane moves (sim_vop3.c), EXEC ignored: a VGPR source, a scalar lane select; the
    * read's destination a plain SGPR. */
   case SIM_OP_v_readlane_b32:
      x = in->vdst < 106 && in->src[0] >= SIM_SRC_VGPR && in->src[1] < SIM_SRC_VGPR &&
                xl_src32_ok(in->src[1])
             ? XO_READLANE
             : XO_NONE;
      break;
   case SIM_OP_v_writelane_b32:
      x = in->src[0] < SIM_SRC_VGPR && xl_src32_ok(in->src[0]) && in->src[1] < SIM_SRC_VGPR &&
                xl_src32_ok(in->src[1])
             ? XO_WRITELANE
             : XO_NONE;
      break;
   /* The class tests (sim_vopc.c cmp_class): abs/neg of the value only (the mask operand is
    * an integer). */
   case SIM_OP_v_cmp_class_f32: case SIM_OP_v_cmpx_class_f32:
      return ((in->abs | in->neg) & ~1u) == 0 ? XO_CLASS32 : XO_NONE;
   case SIM_OP_v_cmp_class_f64: case SIM_OP_v_cmpx_class_f64:
      /* The value from VGPRs or an SGPR pair (not an inline constant: an f64 operand's
       * are doubles). */
      return ((in->abs | in->neg) & ~1u) == 0 &&
                   (in->src[0] >= SIM_SRC_VGPR || in->src[0] < 106)
                ? XO_CLASS64
                : XO_NONE;
   case SIM_OP_v_add_u32: case SIM_OP_v_add_nc_u32: x = XO_ADD; break;
   case SIM_OP_v_sub_u32: case SIM_OP_v_sub_nc_u32: x = XO_SUB; break;
   case SIM_OP_v_subrev_u32: case SIM_OP_v_subrev_nc_u32: x = XO_SUBREV; break;
   case SIM_OP_v_and_b32: x = XO_AND; break;
   case SIM_OP_v_or_b32: x = XO_OR; break;
   case SIM_OP_v_xor_b32: x = XO_XOR; break;
   case SIM_OP_v_lshlrev_b32: x = XO_SHL; break;
   case SIM_OP_v_lshrrev_b32: x = XO_LSHR; break;
   case SIM_OP_v_ashrrev_i32: x = XO_ASHR; break;
   case SIM_OP_v_mul_lo_u32: x = XO_MULLO; break;
   case SIM_OP_v_mul_u32_u24: x = XO_MULU24; break;
   case SIM_OP_v_mul_i32_i24: x = XO_MULI24; break;
   case SIM_OP_v_mad_u32_u24: x = XO_MADU24; break;
   case SIM_OP_v_mad_i32_i24: x = XO_MADI24; break;
   case SIM_OP_v_lshl_add_u32: x = XO_LSHLADD; break;
   case SIM_OP_v_add_lshl_u32: x = XO_ADDLSHL; break;
   case SIM_OP_v_add3_u32: x = XO_ADD3; break;
   case SIM_OP_v_lshl_or_b32: x = XO_LSHLOR; break;
   case SIM_OP_v_and_or_b32: x = XO_ANDOR; break;
   case SIM_OP_v_min_i32: case SIM_OP_v_max_i32: case SIM_OP_v_min_u32:
   case SIM_OP_v_max_u32:
      x = XO_MINMAX;
      break;
   case SIM_OP_v_cvt_f32_u32: x = XO_CVT_F32_U32; break;
   case SIM_OP_v_cvt_f32_i32: x = XO_CVT_F32_I32; break;
   case SIM_OP_v_add_co_u32: x = XO_CO_ADD; break;
   case SIM_OP_v_sub_co_u32: x = XO_CO_SUB; break;
   case SIM_OP_v_subrev_co_u32: x = XO_CO_SUBREV; break;
   case SIM_OP_v_addc_co_u32: case SIM_OP_v_add_co_ci_u32: x = XO_CO_ADDC; break;
   case SIM_OP_v_subb_co_u32: case SIM_OP_v_sub_co_ci_u32: x = XO_CO_SUBB; break;
   case SIM_OP_v_subbrev_co_u32: case SIM_OP_v_subrev_co_ci_u32: x = XO_CO_SUBBREV; break;
   case SIM_OP_v_lshlrev_b64: x = XO_SHL64; break;
   case SIM_OP_v_cndmask_b32: /* abs/neg: bit 31; the mask a 64-bit scalar operand */
      return xl_src64_ok(in->src[2]) ? XO_CNDMASK : XO_NONE;
   case SIM_OP_v_add_f32: return XO_FADD;
   case SIM_OP_v_sub_f32: return XO_FSUB;
   case SIM_OP_v_subrev_f32: return XO_FSUBREV;
   case SIM_OP_v_mul_f32: return XO_FMUL;
   case SIM_OP_v_fma_f32: return XO_FMA;
   case SIM_OP_v_mad_f32: return XO_FMAD;
   case SIM_OP_v_fmac_f32: return XO_FMAC;
   case SIM_OP_v_mac_f32: return XO_FMACNF;
   case SIM_OP_v_floor_f32: return XO_FFLOOR;
   case SIM_OP_v_ceil_f32: return XO_FCEIL;
   case SIM_OP_v_rndne_f32: return XO_FRNDNE; /* nearbyintf: to nearest even */
   case SIM_OP_v_trunc_f32: return XO_FTRUNC;
   default:
      if (xl_icmp_pred(in->op))
         x = XO_ICMP;
      else if (xl_fcmp_pred(in->op))
         return XO_FCMP; /* abs/neg: sign-bit operations on the sources, as the handlers */
      break;
   }
   if (!plain)
      return XO_NONE;
   if ((x == XO_CO_ADDC || x == XO_CO_SUBB || x == XO_CO_SUBBREV) &&
       !xl_src64_ok(in->src[2]))
      return XO_NONE;
   if (x == XO_ICMP && in->enc != SIM_ENC_VOPC && in->enc != SIM_ENC_VOPC_SDWA &&
       in->enc != SIM_ENC_VOP3)
      return XO_NONE;
   if (x == XO_SHL64 && !(in->src[1] >= SIM_SRC_VGPR || xl_src64_ok(in->src[1])))
      return XO_NONE;
   if (x == XO_SHL64 && in->src[1] >= SIM_SRC_VGPR + 255)
      return XO_NONE;
   return x;
}

/* xl_xop_of for the scalar forms. */
static xl_xop
xl_xop_salu(const sim_inst *in)
{
   if (in->enc == SIM_ENC_SOPK)
      return in->op == SIM_OP_s_movk_i32 ? XO_S_MOVK : XO_NONE;
   /* D = the next instruction's address: a constant of the block (sim_sop1.c). */
   if (in->enc == SIM_ENC_SOP1 && in->op == SIM_OP_s_getpc_b64)
      return in->vdst < 104 && !(in->vdst & 1) ? XO_S_GETPC : XO_NONE;
   if (in->enc == SIM_ENC_SOP1 || in->enc == SIM_ENC_SOP2 || in->enc == SIM_ENC_SOPC) {
      bool ok32 = xl_src32_ok(in->src[0]) && in->src[0] < SIM_SRC_VGPR &&
                  (in->src[1] == SIM_SRC_NONE ||
                   (xl_src32_ok(in->src[1]) && in->src[1] < SIM_SRC_VGPR));
      bool ok64 = xl_src64_ok(in->src[0]) &&
                  (in->src[1] == SIM_SRC_NONE || xl_src64_ok(in->src[1]));
      switch (in->op) {
      case SIM_OP_s_mov_b32: return ok32 ? XO_S_MOV32 : XO_NONE;
      case SIM_OP_s_mov_b64: return ok64 ? XO_S_MOV64 : XO_NONE;
      case SIM_OP_s_add_u32: return ok32 ? XO_S_ADDU : XO_NONE;
      case SIM_OP_s_sub_u32: return ok32 ? XO_S_SUBU : XO_NONE;
      case SIM_OP_s_add_i32: return ok32 ? XO_S_ADDI : XO_NONE;
      case SIM_OP_s_addc_u32: return ok32 ? XO_S_ADDC : XO_NONE;
      case SIM_OP_s_mul_i32: return ok32 ? XO_S_MUL : XO_NONE;
      case SIM_OP_s_mul_hi_u32: return ok32 ? XO_S_MULHU : XO_NONE;
      case SIM_OP_s_mul_hi_i32: return ok32 ? XO_S_MULHI : XO_NONE;
      case SIM_OP_s_bfe_u32: return ok32 ? XO_S_BFEU : XO_NONE;
      case SIM_OP_s_bfe_i32: return ok32 ? XO_S_BFEI : XO_NONE;
      case SIM_OP_s_and_b32: case SIM_OP_s_or_b32: case SIM_OP_s_xor_b32:
      case SIM_OP_s_andn2_b32:
         return ok32 ? XO_S_LOG32 : XO_NONE;
      case SIM_OP_s_and_b64: case SIM_OP_s_or_b64: case SIM_OP_s_xor_b64:
      case SIM_OP_s_andn2_b64:
         return ok64 ? XO_S_LOG64 : XO_NONE;
      case SIM_OP_s_lshl_b32: return ok32 ? XO_S_SHL32 : XO_NONE;
      case SIM_OP_s_lshr_b32: return ok32 ? XO_S_LSHR32 : XO_NONE;
      case SIM_OP_s_ashr_i32: return ok32 ? XO_S_ASHR32 : XO_NONE;
      case SIM_OP_s_lshl_b64:
         return xl_src64_ok(in->src[0]) && xl_src32_ok(in->src[1]) &&
                in->src[1] < SIM_SRC_VGPR ? XO_S_SHL64 : XO_NONE;
      case SIM_OP_s_and_saveexec_b64: case SIM_OP_s_or_saveexec_b64:
      case SIM_OP_s_xor_saveexec_b64: case SIM_OP_s_andn2_saveexec_b64:
         return ok64 ? XO_S_SAVEEXEC : XO_NONE;
      case SIM_OP_s_and_saveexec_b32: case SIM_OP_s_or_saveexec_b32:
      case SIM_OP_s_xor_saveexec_b32: case SIM_OP_s_andn2_saveexec_b32:
         return ok32 ? XO_S_SAVEEXEC32 : XO_NONE;
      case SIM_OP_s_bcnt1_i32_b32: return ok32 ? XO_S_BCNT1 : XO_NONE;
      case SIM_OP_s_bcnt1_i32_b64: return ok64 ? XO_S_BCNT1_64 : XO_NONE;
      case SIM_OP_s_brev_b32: return ok32 ? XO_S_BREV : XO_NONE;
      case SIM_OP_s_not_b32: return ok32 ? XO_S_NOT32 : XO_NONE;
      case SIM_OP_s_not_b64: return ok64 ? XO_S_NOT64 : XO_NONE;
      case SIM_OP_s_cmp_eq_u64: case SIM_OP_s_cmp_lg_u64:
         return in->enc == SIM_ENC_SOPC && ok64 ? XO_S_CMP64 : XO_NONE;
      case SIM_OP_s_cselect_b32: return ok32 ? XO_S_CSEL32 : XO_NONE;
      case SIM_OP_s_cselect_b64: return ok64 ? XO_S_CSEL64 : XO_NONE;
      case SIM_OP_s_bitcmp0_b32: case SIM_OP_s_bitcmp1_b32:
         return in->enc == SIM_ENC_SOPC && ok32 ? XO_S_BITCMP : XO_NONE;
      default:
         return in->enc == SIM_ENC_SOPC && xl_icmp_pred(in->op) && ok32 ? XO_S_CMP : XO_NONE;
      }
   }
   return XO_NONE;
}

/* A conditional branch a block goes on past (sim__xlate_form): taken, the block leaves at
 * its target through a side exit (emit_side_branch); not taken, it goes on with its values.
 * A loop's blocks, which end in branches every few instructions, become one block that runs
 * once an iteration (mandel's loop: three). */
static bool
xl_side_branch(const sim_inst *in)
{
   if (in->enc != SIM_ENC_SOPP)
      return false;
   switch (in->op) {
   case SIM_OP_s_cbranch_scc0:
   case SIM_OP_s_cbranch_scc1:
   case SIM_OP_s_cbranch_vccz:
   case SIM_OP_s_cbranch_vccnz:
   case SIM_OP_s_cbranch_execz:
   case SIM_OP_s_cbranch_execnz:
      return true;
   default:
      return false;
   }
}

sim_xlate_class
sim__xlate_class(const sim_inst *in)
{
   if (in->enc == SIM_ENC_SOPP && (in->op == SIM_OP_s_nop || in->op == SIM_OP_s_waitcnt))
      return SIM_XL_SKIP; /* no-ops in this model (synchronous memory) */
   if (sim__xlate_ends_block(in))
      return SIM_XL_END;
   return xl_xop_of(in) != XO_NONE || sim__xl_alu_lowered(in) || sim__xl_int_lowered(in) ||
                sim__xl_f16_lowered(in) || sim__xl_f64_lowered(in) || sim__xl_mem_lowered(in)
             ? SIM_XL_LOWER
             : SIM_XL_CALL;
}

/* The block a wave at `pc` would run: instructions up to a branch it cannot go past, at
 * most `max`, and ending before a loop's head. A backward branch later in the block whose
 * target lies inside it, past its start, makes that target a loop's head: a block loops
 * only back to its own start (emit_loop_back), so one running on through the head would run
 * one iteration and leave, and its copy of the loop's body would be compiled for nothing
 * (parray's loop body was compiled two or three times, from its head and from blocks that
 * start before it). Cut there, the wave goes on into the head's own block, which loops. */
unsigned
sim__xlate_form(sim_wave *w, sim_program *p, uint64_t pc, const sim_inst **out,
                unsigned max)
{
   unsigned n = 0;
   uint64_t start = pc, at[SIM_XLATE_MAX_INSTS];
   while (n < max && n < SIM_XLATE_MAX_INSTS && pc - p->va < p->size) {
      const sim_inst *in = &p->slots[(pc - p->va) >> 2];
      if (!__atomic_load_n(&in->fn, __ATOMIC_ACQUIRE)) {
         if (!w)
            break;
         in = sim__fetch(w, pc); /* in range: decodes, never faults */
         if (!in)
            break;
      }
      at[n] = pc;
      out[n++] = in;
      if (sim__xlate_class(in) == SIM_XL_END && !xl_side_branch(in))
         break;
      pc += in->size;
   }
   unsigned cut = n;
   for (unsigned i = 0; i < n; i++) {
      const sim_inst *in = out[i];
      if (in->enc != SIM_ENC_SOPP || in->imm >= 0 ||
          (in->op != SIM_OP_s_branch && !xl_side_branch(in)))
         continue;
      uint64_t t = at[i] + in->size + (uint64_t)((int64_t)in->imm * 4);
      if (t <= start || t > at[i])
         continue;
      for (unsigned j = 1; j < cut; j++)
         if (at[j] == t)
            cut = j;
   }
   return cut;
}

/* ---- IR emission ---------------------------------------------------------------------- */

typedef sim_xl xl;

static LLVMValueRef
k32(xl *x, uint32_t v)
{
   return LLVMConstInt(x->i32, v, 0);
}
static LLVMValueRef
k64(xl *x, uint64_t v)
{
   return LLVMConstInt(x->i64, v, 0);
}
static LLVMValueRef
wptr(xl *x, size_t off)
{
   LLVMValueRef i = k64(x, off);
   return LLVMBuildGEP2(x->B, LLVMInt8TypeInContext(x->C), x->w, &i, 1, "");
}
static LLVMValueRef
vptr(xl *x, unsigned r)
{
   LLVMValueRef i = k64(x, (uint64_t)r * 256);
   if (x->lane0) /* a piece's lanes of the row */
      i = LLVMBuildAdd(x->B, i, LLVMBuildShl(x->B, x->lane0, k64(x, 2), ""), "");
   return LLVMBuildGEP2(x->B, LLVMInt8TypeInContext(x->C), x->vb, &i, 1, "");
}
static LLVMValueRef
ld(xl *x, LLVMTypeRef t, LLVMValueRef p)
{
   LLVMValueRef l = LLVMBuildLoad2(x->B, t, p, "");
   LLVMSetAlignment(l, 4);
   return l;
}
static void
st(xl *x, LLVMValueRef v, LLVMValueRef p)
{
   LLVMSetAlignment(LLVMBuildStore(x->B, v, p), 4);
}

/* `v` through an empty inline asm: the same integer, which instcombine cannot see into
 * (memory(none): a plain value, no barrier). A lane mask's upper half, trunc(lshr(bitcast
 * <64 x i1>, 32)), is otherwise canonicalised to extractelement(bitcast <64 x i1> to <2 x
 * i32>, 1), which the x86 back end without AVX512BW builds through the stack: two 16-bit
 * kmovw stores read by one 32-bit load, a failed store forward at every carry (the hottest
 * samples of vadd's block); and see exec_half. */
static LLVMValueRef
opaque(xl *x, LLVMValueRef v)
{
   LLVMTypeRef t = LLVMTypeOf(v);
   LLVMTypeRef ft = LLVMFunctionType(t, &t, 1, 0);
   LLVMValueRef a = LLVMGetInlineAsm(ft, "", 0, "=r,0", 4, 0, 0, LLVMInlineAsmDialectATT, 0);
   LLVMValueRef c = LLVMBuildCall2(x->B, ft, a, &v, 1, "");
   unsigned mem = LLVMGetEnumAttributeKindForName("memory", 6);
   LLVMAddCallSiteAttribute(c, LLVMAttributeFunctionIndex,
                            LLVMCreateEnumAttribute(x->C, mem, 0));
   unsigned nounwind = LLVMGetEnumAttributeKindForName("nounwind", 8);
   LLVMAddCallSiteAttribute(c, LLVMAttributeFunctionIndex,
                            LLVMCreateEnumAttribute(x->C, nounwind, 0));
   return c;
}
/* A half of the constant EXEC of a constant-EXEC variant: the constant when it is every
 * held lane (LLVM then drops the selects that keep inactive lanes), else the same value
 * through an empty inline asm. A constant partial mask (the 2-lane EXEC of a block of the
 * CTS math test's sincos, narrowed to 32 lanes) sent LLVM 19's x86 instruction selection
 * without AVX512BW into an endless loop of known-bits combines on the masks ANDed with it,
 * holding the compile worker (and the process's exit, which waits for it); a partial
 * constant lets LLVM drop nothing anyway. */
static LLVMValueRef
exec_half(xl *x, uint32_t v)
{
   unsigned lanes = x->lane0 ? x->wave : x->lanes; /* a piece's EXEC is the wave's, shifted */
   uint64_t all = lanes == 64 ? ~0ull : (1ull << lanes) - 1;
   uint64_t held = lanes == 64 ? x->exec_k : x->exec_k & all;
   return held == all ? k32(x, v) : opaque(x, k32(x, v));
}
static LLVMValueRef
sget(xl *x, unsigned r)
{
   if (!x->s[r] && x->exec_known && r == SIM_SRC_EXEC)
      x->s[r] = exec_half(x, (uint32_t)x->exec_k);
   if (!x->s[r] && x->exec_known && r == SIM_SRC_EXEC + 1 && x->wave == 64)
      x->s[r] = exec_half(x, (uint32_t)(x->exec_k >> 32));
   if (!x->s[r])
      x->s[r] = ld(x, x->i32, wptr(x, offsetof(sim_wave, s) + 4 * r));
   return x->s[r];
}
/* SGPR writes as sim__swrite32/64 make them: to 125 (gfx10's null) dropped, to EXEC_HI
 * only the wave's lanes (nothing in a wave32), a 64-bit write to M0 only M0. */
static void
sput(xl *x, unsigned r, LLVMValueRef v)
{
   if (r == SIM_SRC_EXEC + 1 && x->wave != 64)
      v = k32(x, 0);
   if (r == SIM_SRC_EXEC || r == SIM_SRC_EXEC + 1)
      x->exec_wrote = true;
   if (r < 128 && r != 125) {
      x->s[r] = v;
      x->sd[r] = true;
   }
}
static LLVMValueRef
sget64(xl *x, unsigned r)
{
   LLVMValueRef lo = LLVMBuildZExt(x->B, sget(x, r), x->i64, "");
   LLVMValueRef hi = LLVMBuildZExt(x->B, sget(x, r + 1), x->i64, "");
   return LLVMBuildOr(x->B, lo, LLVMBuildShl(x->B, hi, k64(x, 32), ""), "");
}
static void
sput64(xl *x, unsigned r, LLVMValueRef v)
{
   if (r == 124)
      sput(x, r, LLVMBuildTrunc(x->B, v, x->i32, ""));
   if (r < 124 || r == SIM_SRC_EXEC) {
      sput(x, r, LLVMBuildTrunc(x->B, v, x->i32, ""));
      sput(x, r + 1, LLVMBuildTrunc(x->B, LLVMBuildLShr(x->B, v, k64(x, 32), ""), x->i32, ""));
   }
}
/* The lane mask in the SGPR(s) at `r` (EXEC, VCC, a v_cmp or carry destination): the pair
 * r, r+1 in a wave64, r alone in a wave32 (mget_wave); as x->mask_t, its held lanes
 * (mget). */
static LLVMValueRef
mget_wave(xl *x, unsigned r)
{
   return x->wave == 64 ? sget64(x, r) : sget(x, r);
}
static LLVMValueRef held_lanes(xl *x, LLVMValueRef m);
static LLVMValueRef
mget(xl *x, unsigned r)
{
   return held_lanes(x, mget_wave(x, r));
}
/* The held lanes of the wave's lane mask `m` (i64 or i32) as x->mask_t: the low x->lanes
 * bits, or a piece's from its first lane. */
static LLVMValueRef
held_lanes(xl *x, LLVMValueRef m)
{
   if (x->lane0) {
      LLVMValueRef sh = x->wave == 64 ? x->lane0 : LLVMBuildTrunc(x->B, x->lane0, x->i32, "");
      m = LLVMBuildLShr(x->B, m, sh, "");
   }
   return x->lanes < x->wave ? LLVMBuildTrunc(x->B, m, x->mask_t, "") : m;
}
/* A lane mask of the held lanes into the SGPR(s) at `r`; the wave's other lanes read 0, as
 * the hardware writes them for lanes outside EXEC (so EXEC stays in the held lanes). */
static void
mput(xl *x, unsigned r, LLVMValueRef v)
{
   bool wrote = x->exec_wrote;
   if (x->lane0) {
      /* A piece: its lanes' bits into the wave's mask, the others' kept (a plain SGPR or
       * VCC: xl_piece_sdst_ok). */
      LLVMBuilderRef B = x->B;
      LLVMTypeRef wt = x->wave == 64 ? x->i64 : x->i32;
      LLVMValueRef sh = x->wave == 64 ? x->lane0 : LLVMBuildTrunc(B, x->lane0, x->i32, "");
      LLVMValueRef ones = LLVMConstInt(wt, (1ull << x->lanes) - 1, 0);
      LLVMValueRef keep = LLVMBuildNot(B, LLVMBuildShl(B, ones, sh, ""), "");
      LLVMValueRef bits = LLVMBuildShl(B, LLVMBuildZExt(B, v, wt, ""), sh, "");
      v = LLVMBuildOr(B, LLVMBuildAnd(B, mget_wave(x, r), keep, ""), bits, "");
      if (x->wave == 64)
         sput64(x, r, v);
      else
         sput(x, r, v);
      x->exec_wrote = wrote;
      return;
   }
   if (x->lanes < x->wave)
      v = LLVMBuildZExt(x->B, v, x->wave == 64 ? x->i64 : x->i32, "");
   if (x->lanes == 64)
      sput64(x, r, opaque(x, v));
   else if (x->wave == 64)
      sput64(x, r, v);
   else
      sput(x, r, v);
   x->exec_wrote = wrote;
}
/* The wave's lane-mask type (i64 or i32), mget_wave's. */
static LLVMTypeRef
wave_t(xl *x)
{
   return x->wave == 64 ? x->i64 : x->i32;
}
static LLVMValueRef
sccget(xl *x)
{
   if (!x->scc)
      x->scc = ld(x, x->i32, wptr(x, offsetof(sim_wave, scc)));
   return x->scc;
}
static void
sccput(xl *x, LLVMValueRef b1)
{
   x->scc = LLVMBuildZExt(x->B, b1, x->i32, "");
   x->sccd = true;
}
/* A row is read from the register file with a volatile load: a row the block stored and
 * forgot (xl_rows_retire) must be read again from memory, not forwarded from its store by
 * early-cse into a value live across the block, which is what the retiring avoids. */
static LLVMValueRef
vget(xl *x, unsigned r)
{
   if (!x->v[r]) {
      x->v[r] = ld(x, x->v32, vptr(x, r));
      LLVMSetVolatile(x->v[r], 1);
   }
   if (r + 1 > x->max_vgpr)
      x->max_vgpr = r + 1;
   return x->v[r];
}
static LLVMValueRef
execmask(xl *x)
{
   return LLVMBuildBitCast(x->B, mget(x, SIM_SRC_EXEC), x->vm, "");
}
/* Is EXEC the constant of every held lane here (a full wave's constant-EXEC variant, or a
 * narrowed one whose EXEC is all its lanes)? */
static bool
exec_all(xl *x)
{
   if (x->lane0) { /* a piece: is the wave's EXEC all its lanes? */
      LLVMValueRef h = sget(x, SIM_SRC_EXEC);
      bool all = LLVMIsAConstantInt(h) && LLVMConstIntGetZExtValue(h) == 0xFFFFFFFFull;
      if (all && x->wave == 64)
         h = sget(x, SIM_SRC_EXEC + 1);
      return all && LLVMIsAConstantInt(h) && LLVMConstIntGetZExtValue(h) == 0xFFFFFFFFull;
   }
   if (x->lanes < x->wave) {
      if (!x->exec_known && !x->s[SIM_SRC_EXEC])
         return false;
      LLVMValueRef m = mget(x, SIM_SRC_EXEC);
      return LLVMIsAConstantInt(m) && LLVMConstIntGetZExtValue(m) == (1ull << x->lanes) - 1;
   }
   /* The halves as values (mget would build a 64-bit value the general case drops). */
   LLVMValueRef lo = sget(x, SIM_SRC_EXEC), hi;
   if (!LLVMIsAConstantInt(lo) || LLVMConstIntGetZExtValue(lo) != 0xFFFFFFFFull)
      return false;
   if (x->lanes != 64)
      return true;
   hi = sget(x, SIM_SRC_EXEC + 1);
   return LLVMIsAConstantInt(hi) && LLVMConstIntGetZExtValue(hi) == 0xFFFFFFFFull;
}
/* VGPR r = result in the lanes of EXEC. Under a constant full EXEC the row's old value is
 * not read (its load is volatile: LLVM would keep it though the select drops it). */
static void
vput(xl *x, unsigned r, LLVMValueRef val)
{
   if (exec_all(x)) {
      if (r + 1 > x->max_vgpr)
         x->max_vgpr = r + 1;
      x->v[r] = val;
   } else {
      x->v[r] = LLVMBuildSelect(x->B, execmask(x), val, vget(x, r), "");
   }
   x->vd[r] = true;
}

/* Stores what the block changed; forgets every value when `forget` (a handler runs). */
static void
flush(xl *x, bool forget)
{
   /* A changed pair as one 64-bit store, and EXEC's pair whenever either half changed: the
    * code that runs the next block reads EXEC as 64 bits (SIM_EXEC), and a load that two
    * 32-bit stores must forward stalls (two-thirds of xl_ready's samples on mandel, whose
    * loop is three short blocks: 15.0 -> 12.4 ms a launch on one thread). */
   _Static_assert(offsetof(sim_wave, s) % 8 == 0, "SGPR pairs are 8-byte aligned");
   for (unsigned r = 0; r < 128; r += 2) {
      bool pair = (x->sd[r] && x->sd[r + 1]) ||
                  (r == SIM_SRC_EXEC && (x->sd[r] || x->sd[r + 1]));
      if (pair) {
         st(x, sget64(x, r), wptr(x, offsetof(sim_wave, s) + 4 * r));
      } else {
         for (unsigned h = r; h < r + 2; h++)
            if (x->sd[h])
               st(x, x->s[h], wptr(x, offsetof(sim_wave, s) + 4 * h));
      }
      for (unsigned h = r; h < r + 2; h++) {
         x->sd[h] = false;
         if (forget)
            x->s[h] = NULL;
      }
   }
   for (unsigned r = 0; r < 256; r++) {
      if (x->vd[r])
         st(x, x->v[r], vptr(x, r));
      x->vd[r] = false;
      if (forget)
         x->v[r] = NULL;
   }
   if (x->sccd)
      st(x, x->scc, wptr(x, offsetof(sim_wave, scc)));
   x->sccd = false;
   if (forget) {
      x->scc = NULL;
      x->exec_known = false; /* a handler may have changed EXEC: read it from now on */
   }
}

/* Does lowered instruction `in` read or write VGPR row `r`? Over-approximated (every VGPR
 * operand taken as 64 bits, every memory data operand as four dwords): the answer only
 * decides which rows a block holds in values, never a result. */
static bool
xl_rows_in(unsigned first, unsigned n, unsigned r)
{
   return first != SIM_SRC_NONE && r >= first && r < first + n;
}
static bool
xl_names_row(const sim_inst *in, unsigned r)
{
   if (in->flags & SIM_IF_VALU) {
      for (unsigned i = 0; i < 3; i++)
         if (in->src[i] != SIM_SRC_NONE && in->src[i] >= SIM_SRC_VGPR &&
             xl_rows_in(in->src[i] - SIM_SRC_VGPR, 2, r))
            return true;
      return xl_rows_in(in->vdst, 2, r);
   }
   if (in->enc != SIM_ENC_DS && in->enc != SIM_ENC_GLOBAL && in->enc != SIM_ENC_FLAT &&
       in->enc != SIM_ENC_MUBUF)
      return false;
   return xl_rows_in(in->mem.addr, 2, r) || xl_rows_in(in->mem.data0, 4, r) ||
          (in->enc == SIM_ENC_DS && xl_rows_in(in->mem.data1, 4, r)) || xl_rows_in(in->vdst, 4, r);
}
/* The index of the next instruction after `i` of insts[0..n) that names row `r`, or n
 * when a called or ending instruction comes first (the block forgets every value there,
 * or ends). */
static unsigned
xl_next_use(const sim_inst **insts, unsigned n, unsigned i, unsigned r)
{
   for (unsigned j = i + 1; j < n; j++) {
      sim_xlate_class k = sim__xlate_class(insts[j]);
      if (k == SIM_XL_CALL || (k == SIM_XL_END && !xl_side_branch(insts[j])))
         return n;
      if (k == SIM_XL_LOWER && xl_names_row(insts[j], r))
         return j;
   }
   return n;
}

/* Row r goes back to the register file: stored when changed, read again where next used. */
static void
xl_row_forget(xl *x, unsigned r)
{
   if (x->vd[r])
      st(x, x->v[r], vptr(x, r));
   x->vd[r] = false;
   x->v[r] = NULL;
}

/* The stores of changed rows `r[0..k)`, which nothing reads before the wave ends, made only
 * when the wave's registers are read after it ends (x->dead false: a test's wave). */
static void
xl_rows_forget_dead(xl *x, const unsigned *r, unsigned k)
{
   LLVMBasicBlockRef store = LLVMAppendBasicBlockInContext(x->C, x->fn, "");
   LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(x->C, x->fn, "");
   LLVMBuildCondBr(x->B, x->dead, next, store);
   LLVMPositionBuilderAtEnd(x->B, store);
   for (unsigned j = 0; j < k; j++)
      xl_row_forget(x, r[j]);
   LLVMBuildBr(x->B, next);
   LLVMPositionBuilderAtEnd(x->B, next);
}

/* The first index from which insts[0..n) runs lowered instructions (and no-ops), none a
 * branch, to an s_endpgm at n - 1; n when the block does not end so. Whatever runs those
 * instructions (the block, or the interpreter after an exit: an EXEC guard, a doorbell,
 * the compile budget's cut) runs them in order to the s_endpgm, so a row none of them
 * names is read by nothing before the wave ends. */
static unsigned
xl_clean_from(const sim_inst **insts, unsigned n)
{
   if (!n || insts[n - 1]->enc != SIM_ENC_SOPP || insts[n - 1]->op != SIM_OP_s_endpgm)
      return n;
   unsigned i = n - 1;
   while (i > 0 && (sim__xlate_class(insts[i - 1]) == SIM_XL_LOWER ||
                    sim__xlate_class(insts[i - 1]) == SIM_XL_SKIP))
      i--;
   return i;
}

/* After lowered instruction i of insts[0..n): the rows the block will not use again are
 * stored when changed and forgotten, and of the others it holds the xl_rows_held used
 * soonest (the rest stored and forgotten likewise: their next use reads them again from
 * the register file). A 64-lane row is four AVX-512 registers: rows held in values across
 * a block outgrow the 32 registers, and the code generator then spills them to the stack,
 * reloads them, and stores them to the register file at the block's end; read from the
 * register file instead, a row costs the same reload and no spill store. */
static void
xl_rows_retire(xl *x, const sim_inst **insts, unsigned n, unsigned i)
{
   unsigned next[256], held = 0;
   for (unsigned r = 0; r < 256; r++) {
      next[r] = n;
      if (x->v[r] && (next[r] = xl_next_use(insts, n, i, r)) < n)
         held++;
   }
   unsigned dead[256], ndead = 0;
   bool skip = x->dead && i + 1 >= x->clean_from;
   for (unsigned r = 0; r < 256; r++) {
      if (!x->v[r] || next[r] != n)
         continue;
      if (skip && x->vd[r])
         dead[ndead++] = r;
      else
         xl_row_forget(x, r);
   }
   if (ndead)
      xl_rows_forget_dead(x, dead, ndead);
   /* xl_rows_held counts 64-lane rows: a wave32's take half the registers. */
   while (held > xl_rows_held * 64 / x->lanes) {
      unsigned far = 0;
      for (unsigned r = 0; r < 256; r++)
         if (x->v[r] && (!x->v[far] || next[r] > next[far]))
            far = r;
      xl_row_forget(x, far);
      held--;
   }
}

static const uint32_t xl_fconst32[9] = {0x3F000000, 0xBF000000, 0x3F800000,
                                        0xBF800000, 0x40000000, 0xC0000000,
                                        0x40800000, 0xC0800000, 0x3E22F983};

/* A 32-bit scalar operand (sim__special32's codes the former accepted). */
static LLVMValueRef
src_s32(xl *x, const sim_inst *in, unsigned c)
{
   if (c < 128)
      return sget(x, c);
   if (c <= 192)
      return k32(x, c - 128);
   if (c <= 208)
      return k32(x, (uint32_t)(192 - (int)c));
   if (c >= 240 && c <= 248)
      return k32(x, xl_fconst32[c - 240]);
   return k32(x, in->literal);
}
static LLVMValueRef
src_s64(xl *x, unsigned c)
{
   if (c < 127)
      return sget64(x, c);
   return k64(x, (uint64_t)(int64_t)(int32_t)(c <= 192 ? (int)c - 128 : 192 - (int)c));
}
static LLVMValueRef
splat(xl *x, LLVMValueRef s, LLVMTypeRef vt)
{
   LLVMValueRef u = LLVMGetUndef(vt);
   u = LLVMBuildInsertElement(x->B, u, s, k32(x, 0), "");
   return LLVMBuildShuffleVector(x->B, u, u, LLVMConstNull(LLVMVectorType(x->i32, x->lanes)),
                                 "");
}
/* An SDWA select's field: its width in bits and its lowest bit (BYTE_0-3, WORD_0-1); 0
 * bits for DWORD (6) and the reserved 7, which select the whole dword (sim_valu.c). */
static unsigned
sdwa_field(unsigned sel, unsigned *lo)
{
   *lo = sel <= 3 ? 8 * sel : sel <= 5 ? 16 * (sel - 4) : 0;
   return sel <= 3 ? 8 : sel <= 5 ? 16 : 0;
}
static LLVMValueRef
src_v(xl *x, const sim_inst *in, unsigned i)
{
   unsigned c = in->src[i];
   LLVMValueRef r = c >= SIM_SRC_VGPR ? vget(x, c - SIM_SRC_VGPR)
                                      : splat(x, src_s32(x, in, c), x->v32);
   unsigned lo, bits;
   if ((in->flags & SIM_IF_SDWA) && i < 2 && (bits = sdwa_field(in->sdwa.sel[i], &lo))) {
      /* The field to the top, then down again: zero- or (sext) sign-extended. */
      r = LLVMBuildShl(x->B, r, splat(x, k32(x, 32 - lo - bits), x->v32), "");
      LLVMValueRef n = splat(x, k32(x, 32 - bits), x->v32);
      r = (in->sdwa.sext >> i) & 1 ? LLVMBuildAShr(x->B, r, n, "") : LLVMBuildLShr(x->B, r, n, "");
   }
   if (((in->abs | in->neg) >> i) & 1) {
      if ((in->abs >> i) & 1)
         r = LLVMBuildAnd(x->B, r, splat(x, k32(x, 0x7FFFFFFF), x->v32), "");
      if ((in->neg >> i) & 1)
         r = LLVMBuildXor(x->B, r, splat(x, k32(x, 0x80000000), x->v32), "");
   }
   return r;
}
/* The destination of a lowered VALU instruction = result `r`: through an SDWA form's
 * destination select (sim_valu.c sdwa_store): the low bits of `r` in the field, the bits
 * outside it zero (UNUSED_PAD), the field's sign above it and zero below (UNUSED_SEXT), or
 * the row's old bits (UNUSED_PRESERVE). */
static void
vput_dst(xl *x, const sim_inst *in, LLVMValueRef r)
{
   unsigned lo, bits;
   if (!(in->flags & SIM_IF_SDWA) || !(bits = sdwa_field(in->sdwa.dst_sel, &lo))) {
      vput(x, in->vdst, r);
      return;
   }
   LLVMBuilderRef B = x->B;
   LLVMValueRef top = LLVMBuildShl(B, r, splat(x, k32(x, 32 - bits), x->v32), "");
   LLVMValueRef down = splat(x, k32(x, 32 - bits - lo), x->v32);
   if (in->sdwa.dst_unused == 1) {
      vput(x, in->vdst, LLVMBuildAShr(B, top, down, ""));
      return;
   }
   r = LLVMBuildLShr(B, top, down, "");
   if (in->sdwa.dst_unused == 2) {
      uint32_t keep = ~(((1u << bits) - 1) << lo);
      r = LLVMBuildOr(B, r, LLVMBuildAnd(B, vget(x, in->vdst), splat(x, k32(x, keep), x->v32),
                                         ""), "");
   }
   vput(x, in->vdst, r);
}

/* A lane-mask operand (carry-in, v_cndmask's select) of code `c` (the former accepts
 * xl_src64_ok codes): an SGPR pair or a sign-extended inline constant in a wave64, the
 * low 32 bits of those in a wave32. */
static LLVMValueRef
src_mask(xl *x, unsigned c)
{
   LLVMValueRef m;
   if (x->wave == 64)
      m = src_s64(x, c);
   else if (c < 128)
      m = sget(x, c);
   else
      m = k32(x, (uint32_t)(c <= 192 ? (int)c - 128 : 192 - (int)c));
   return held_lanes(x, m);
}
static LLVMValueRef
src_vf(xl *x, const sim_inst *in, unsigned i)
{
   return LLVMBuildBitCast(x->B, src_v(x, in, i), x->vf, "");
}
/* A 64-bit lane's words in a VGPR pair, as shuffles of the <2 x lanes x i32> view: the
 * join interleaves the two rows, the split takes the even and odd words (on x86 a
 * vpermt2d a 16-lane vector; the split as a truncate and a shifted truncate was four
 * instructions there: dpoly's loop, two 64-bit results an iteration, 209 -> 178 host
 * instructions). */
static LLVMValueRef
words_mask(xl *x, bool join, unsigned odd)
{
   unsigned n = join ? 2 * x->lanes : x->lanes;
   LLVMValueRef k[128];
   for (unsigned i = 0; i < n; i++)
      k[i] = k32(x, join ? (i & 1) * x->lanes + i / 2 : 2 * i + odd);
   return LLVMConstVector(k, n);
}
LLVMValueRef
sim__xl_join64(xl *x, LLVMValueRef lo, LLVMValueRef hi)
{
   return LLVMBuildBitCast(x->B, LLVMBuildShuffleVector(x->B, lo, hi, words_mask(x, true, 0), ""),
                           x->v64, "");
}
void
sim__xl_split64(xl *x, LLVMValueRef v, LLVMValueRef *lo, LLVMValueRef *hi)
{
   LLVMValueRef w = LLVMBuildBitCast(x->B, v, LLVMVectorType(x->i32, 2 * x->lanes), "");
   LLVMValueRef u = LLVMGetUndef(LLVMTypeOf(w));
   *lo = LLVMBuildShuffleVector(x->B, w, u, words_mask(x, false, 0), "");
   *hi = LLVMBuildShuffleVector(x->B, w, u, words_mask(x, false, 1), "");
}
void
sim__xl_put64(xl *x, unsigned r, LLVMValueRef v)
{
   LLVMValueRef lo, hi;
   sim__xl_split64(x, v, &lo, &hi);
   vput(x, r, lo);
   vput(x, r + 1, hi);
}
static LLVMValueRef
src_v64(xl *x, const sim_inst *in, unsigned i)
{
   unsigned c = in->src[i];
   if (c >= SIM_SRC_VGPR)
      return sim__xl_join64(x, vget(x, c - SIM_SRC_VGPR), vget(x, c - SIM_SRC_VGPR + 1));
   return splat(x, src_s64(x, c), x->v64);
}

static LLVMValueRef
intrin(xl *x, const char *name, LLVMTypeRef t, LLVMValueRef *args, unsigned n)
{
   unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
   LLVMValueRef f = LLVMGetIntrinsicDeclaration(x->M, id, &t, 1);
   LLVMTypeRef ft = LLVMIntrinsicGetType(x->C, id, &t, 1);
   return LLVMBuildCall2(x->B, ft, f, args, n, "");
}

LLVMValueRef
sim__xl_intrin(xl *x, const char *name, LLVMTypeRef *t, unsigned nt, LLVMValueRef *args,
               unsigned n)
{
   unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
   LLVMValueRef f = LLVMGetIntrinsicDeclaration(x->M, id, t, nt);
   LLVMTypeRef ft = LLVMIntrinsicGetType(x->C, id, t, nt);
   return LLVMBuildCall2(x->B, ft, f, args, n, "");
}

/* The register values for sim_xlate_mem.c. */
LLVMValueRef
sim__xl_sget(xl *x, unsigned r)
{
   return sget(x, r);
}
void
sim__xl_sput(xl *x, unsigned r, LLVMValueRef v)
{
   sput(x, r, v);
}
LLVMValueRef
sim__xl_sget64(xl *x, unsigned r)
{
   return sget64(x, r);
}
LLVMValueRef
sim__xl_mget(xl *x, unsigned r)
{
   return mget(x, r);
}
LLVMValueRef
sim__xl_vget(xl *x, unsigned r)
{
   return vget(x, r);
}
LLVMValueRef
sim__xl_splat(xl *x, LLVMValueRef s, LLVMTypeRef vt)
{
   return splat(x, s, vt);
}
void
sim__xl_flush(xl *x, bool forget)
{
   flush(x, forget);
}

/* Is some element of the float vector `r` a NaN, as an i1: the row's parts summed down to one
 * 512-bit vector (a NaN in a lane makes its sum a NaN), one compare of that. A sum of
 * infinities of opposite signs is a NaN too: the caller's side path then finds no NaN lane
 * and keeps the result. Each compare of a whole row's parts and their 16-bit masks
 * gathered into one 64-bit one (without AVX512BW) was about half of an f32 FMA's host
 * instructions (clpeak's single-precision loop). */
LLVMValueRef
sim__xl_any_nan(xl *x, LLVMValueRef r)
{
   LLVMTypeRef vt = LLVMTypeOf(r), et = LLVMGetElementType(vt);
   unsigned n = LLVMGetVectorSize(vt);
   unsigned ebits = LLVMGetTypeKind(et) == LLVMDoubleTypeKind ? 64 : 32;
   while (n * ebits > 512 && n <= 128) {
      unsigned h = n / 2;
      LLVMValueRef lo[64], hi[64]; /* n <= 128: a packed f16 row of a wave64 */
      for (unsigned i = 0; i < h; i++)
         lo[i] = k32(x, i), hi[i] = k32(x, h + i);
      LLVMValueRef poison = LLVMGetPoison(LLVMTypeOf(r));
      LLVMValueRef a = LLVMBuildShuffleVector(x->B, r, poison, LLVMConstVector(lo, h), "");
      LLVMValueRef b = LLVMBuildShuffleVector(x->B, r, poison, LLVMConstVector(hi, h), "");
      r = LLVMBuildFAdd(x->B, a, b, "");
      n = h;
   }
   LLVMValueRef un = LLVMBuildFCmp(x->B, LLVMRealUNO, r, r, "");
   LLVMTypeRef mt = LLVMIntTypeInContext(x->C, n);
   return LLVMBuildICmp(x->B, LLVMIntNE, LLVMBuildBitCast(x->B, un, mt, ""), LLVMConstNull(mt),
                        "");
}

/* The interpreter's NaN rule over the result `r` (a float vector) of the sources
 * srcf[0..n), as the integer rows of type `it`: a NaN lane becomes the first NaN source with
 * the quiet bit `qbit` set, or `qnan` (sim__nanfix32, sim__nanfix64). Worked out on a side
 * path taken when some lane is NaN (as the interpreter does), so the common case costs one
 * compare. */
LLVMValueRef
sim__xl_nanfix_bits(xl *x, LLVMValueRef r, LLVMValueRef *srcf, unsigned n, LLVMTypeRef it,
                    LLVMValueRef qnan, LLVMValueRef qbit)
{
   LLVMValueRef rbits = LLVMBuildBitCast(x->B, r, it, "");
   LLVMValueRef rn = LLVMBuildFCmp(x->B, LLVMRealUNO, r, r, "");
   LLVMValueRef any = sim__xl_any_nan(x, r);
   LLVMBasicBlockRef from = LLVMGetInsertBlock(x->B);
   LLVMBasicBlockRef fix = LLVMAppendBasicBlockInContext(x->C, x->fn, "nan");
   LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(x->C, x->fn, "");
   LLVMBuildCondBr(x->B, any, fix, join);
   LLVMPositionBuilderAtEnd(x->B, fix);
   LLVMValueRef q = qnan;
   for (int i = (int)n - 1; i >= 0; i--) {
      LLVMValueRef isn = LLVMBuildFCmp(x->B, LLVMRealUNO, srcf[i], srcf[i], "");
      LLVMValueRef bits = LLVMBuildOr(x->B, LLVMBuildBitCast(x->B, srcf[i], it, ""), qbit, "");
      q = LLVMBuildSelect(x->B, isn, bits, q, "");
   }
   LLVMValueRef fixed = LLVMBuildSelect(x->B, rn, q, rbits, "");
   LLVMBuildBr(x->B, join);
   LLVMPositionBuilderAtEnd(x->B, join);
   LLVMValueRef phi = LLVMBuildPhi(x->B, it, "");
   LLVMValueRef vals[2] = {rbits, fixed};
   LLVMBasicBlockRef bbs[2] = {from, fix};
   LLVMAddIncoming(phi, vals, bbs, 2);
   return phi;
}
static LLVMValueRef
nanfix(xl *x, LLVMValueRef r, LLVMValueRef *srcf, unsigned n)
{
   return sim__xl_nanfix_bits(x, r, srcf, n, x->v32, splat(x, k32(x, 0x7FC00000), x->v32),
                              splat(x, k32(x, 0x400000), x->v32));
}

/* Lane mask of `c` (<lanes x i1>) as x->mask_t, inactive lanes 0. */
static LLVMValueRef
lanes_mask(xl *x, LLVMValueRef c)
{
   return LLVMBuildAnd(x->B, LLVMBuildBitCast(x->B, c, x->mask_t, ""), mget(x, SIM_SRC_EXEC),
                       "");
}

/* The VALU emitter's pieces for sim_xlate_alu.c. */
bool
sim__xl_valu_plain(const sim_inst *in, unsigned nsrc, bool fneg)
{
   return xl_valu_plain(in, nsrc, fneg);
}
bool
sim__xl_valu_sdwa(const sim_inst *in)
{
   return xl_valu_sdwa(in);
}

void
sim__xl_vput_dst(xl *x, const sim_inst *in, LLVMValueRef r)
{
   vput_dst(x, in, r);
}

bool
sim__xl_src64_ok(unsigned c)
{
   return xl_src64_ok(c);
}
LLVMValueRef
sim__xl_src_v(xl *x, const sim_inst *in, unsigned i)
{
   return src_v(x, in, i);
}
LLVMValueRef
sim__xl_src_v64(xl *x, const sim_inst *in, unsigned i)
{
   return src_v64(x, in, i);
}
void
sim__xl_vput(xl *x, unsigned r, LLVMValueRef val)
{
   vput(x, r, val);
}
void
sim__xl_mput(xl *x, unsigned r, LLVMValueRef v)
{
   mput(x, r, v);
}
LLVMValueRef
sim__xl_lanes_mask(xl *x, LLVMValueRef c)
{
   return lanes_mask(x, c);
}
void
sim__xl_cmp_write(xl *x, const sim_inst *in, LLVMValueRef c, bool cmpx)
{
   /* As sim__vcmp_write: gfx10's v_cmpx writes EXEC alone, gfx9's the destination (VCC
    * or SDST) too. */
   LLVMValueRef m = lanes_mask(x, c);
   if (in->sdst != SIM_SRC_NONE && !(cmpx && x->gfx10))
      mput(x, in->sdst, m);
   if (cmpx)
      mput(x, SIM_SRC_EXEC, m);
}

/* sim__fmax32/fmin32 and the f64 ones on bits: `a`, `b` integer rows, `af`, `bf` the same
 * as floats, `q` the quiet bit splatted. */
LLVMValueRef
sim__xl_minmax_ieee(xl *x, LLVMValueRef a, LLVMValueRef b, LLVMValueRef af, LLVMValueRef bf,
                    LLVMValueRef q, bool max)
{
   LLVMBuilderRef B = x->B;
   LLVMValueRef pick_a = LLVMBuildFCmp(B, max ? LLVMRealOGT : LLVMRealOLT, af, bf, "");
   LLVMValueRef r = LLVMBuildSelect(B, pick_a, a, b, "");
   LLVMValueRef zeros = max ? LLVMBuildAnd(B, a, b, "") : LLVMBuildOr(B, a, b, "");
   r = LLVMBuildSelect(B, LLVMBuildFCmp(B, LLVMRealOEQ, af, bf, ""), zeros, r, "");
   LLVMValueRef na = LLVMBuildFCmp(B, LLVMRealUNO, af, af, "");
   LLVMValueRef nb = LLVMBuildFCmp(B, LLVMRealUNO, bf, bf, "");
   r = LLVMBuildSelect(B, nb, a, r, "");
   r = LLVMBuildSelect(B, na, b, r, "");
   LLVMValueRef z = LLVMConstNull(LLVMTypeOf(a));
   LLVMValueRef qa = LLVMBuildICmp(B, LLVMIntEQ, LLVMBuildAnd(B, a, q, ""), z, "");
   LLVMValueRef qb = LLVMBuildICmp(B, LLVMIntEQ, LLVMBuildAnd(B, b, q, ""), z, "");
   LLVMValueRef sa = LLVMBuildAnd(B, na, qa, ""), sb = LLVMBuildAnd(B, nb, qb, "");
   LLVMValueRef ri = LLVMBuildSelect(B, sa, LLVMBuildOr(B, a, q, ""),
                                     LLVMBuildSelect(B, sb, LLVMBuildOr(B, b, q, ""), r, ""), "");
   return LLVMBuildSelect(B, sim__xl_wave_ieee(x), ri, r, "");
}
LLVMValueRef
sim__xl_nanfix(xl *x, LLVMValueRef r, LLVMValueRef *srcf, unsigned n)
{
   return nanfix(x, r, srcf, n);
}

static bool
xl_cmpx_class(unsigned op)
{
   return op == SIM_OP_v_cmpx_class_f32 || op == SIM_OP_v_cmpx_class_f64;
}

/* v_readlane_b32 (SGPR D = VGPR S0's lane S1) or v_writelane_b32 (`write`: VGPR D's lane
 * S1 = SGPR S0), EXEC ignored, the lane S1 modulo the wave's size (sim_vop3.c). A narrowed
 * block holds its rows' first `lanes` lanes; the others are the register file's, unchanged
 * by the block: a lane past them is read from there, and written there (through a slot of
 * the block's own when the lane is a held one, so that the store needs no branch). */
static void
emit_lane_move(xl *x, const sim_inst *in, bool write)
{
   LLVMBuilderRef B = x->B;
   unsigned r = write ? in->vdst : in->src[0] - SIM_SRC_VGPR;
   LLVMValueRef lane = LLVMBuildAnd(B, src_s32(x, in, in->src[1]), k32(x, x->wave - 1), "");
   LLVMValueRef row = vget(x, r), held = NULL, mem = NULL;
   LLVMValueRef at = lane;
   if (x->lanes < x->wave) {
      held = LLVMBuildICmp(B, LLVMIntULT, lane, k32(x, x->lanes), "");
      at = LLVMBuildAnd(B, lane, k32(x, x->lanes - 1), "");
      LLVMValueRef idx[1] = {lane};
      mem = LLVMBuildGEP2(B, x->i32, vptr(x, r), idx, 1, "");
   }
   if (!write) {
      LLVMValueRef v = LLVMBuildExtractElement(B, row, at, "");
      if (held)
         v = LLVMBuildSelect(B, held, v, ld(x, x->i32, mem), "");
      sput(x, in->vdst, v);
      return;
   }
   LLVMValueRef v = src_s32(x, in, in->src[0]);
   LLVMValueRef nrow = LLVMBuildInsertElement(B, row, v, at, "");
   if (held) {
      nrow = LLVMBuildSelect(B, held, nrow, row, "");
      LLVMValueRef slot = sim__xl_entry_alloca(x, x->i32);
      st(x, v, LLVMBuildSelect(B, held, slot, mem, ""));
   }
   x->v[r] = nrow;
   x->vd[r] = true;
   if (r + 1 > x->max_vgpr)
      x->max_vgpr = r + 1;
}

/* The class test of v_cmp_class_f32/f64 (sim_vopc.c): bit `k` of S1 for each lane, k the
 * class of S0 (abs/neg applied): 0 signalling NaN, 1 quiet NaN, 2 -inf, 3 -normal,
 * 4 -subnormal, 5 -0, 6 +0, 7 +subnormal, 8 +normal, 9 +inf. */
static LLVMValueRef
emit_class(xl *x, const sim_inst *in, bool f64)
{
   LLVMBuilderRef B = x->B;
   LLVMTypeRef vt = f64 ? x->v64 : x->v32;
   LLVMValueRef s = f64 ? src_v64(x, in, 0) : src_v(x, in, 0);
   unsigned mbits = f64 ? 52 : 23, ebits = f64 ? 11 : 8, top = f64 ? 63 : 31;
#define KV(v) splat(x, f64 ? k64(x, (v)) : k32(x, (uint32_t)(v)), vt)
   if (f64 && (in->abs & 1))
      s = LLVMBuildAnd(B, s, KV(~(1ull << 63)), "");
   if (f64 && (in->neg & 1))
      s = LLVMBuildXor(B, s, KV(1ull << 63), "");
   uint64_t emax = (1ull << ebits) - 1;
   LLVMValueRef e = LLVMBuildAnd(B, LLVMBuildLShr(B, s, KV(mbits), ""), KV(emax), "");
   LLVMValueRef m = LLVMBuildAnd(B, s, KV((1ull << mbits) - 1), "");
   LLVMValueRef neg = LLVMBuildICmp(B, LLVMIntNE, LLVMBuildLShr(B, s, KV(top), ""), KV(0), "");
   LLVMValueRef mz = LLVMBuildICmp(B, LLVMIntEQ, m, KV(0), "");
   LLVMValueRef emaxed = LLVMBuildICmp(B, LLVMIntEQ, e, KV(emax), "");
   LLVMValueRef ezero = LLVMBuildICmp(B, LLVMIntEQ, e, KV(0), "");
   LLVMValueRef quiet = LLVMBuildICmp(B, LLVMIntNE,
                                      LLVMBuildAnd(B, s, KV(1ull << (mbits - 1)), ""), KV(0), "");
   /* The class index as i32 lanes, innermost case first. */
   LLVMValueRef k = LLVMBuildSelect(B, neg, splat(x, k32(x, 5), x->v32),
                                    splat(x, k32(x, 6), x->v32), "");
   k = LLVMBuildSelect(B, LLVMBuildAnd(B, ezero, LLVMBuildNot(B, mz, ""), ""),
                       LLVMBuildSelect(B, neg, splat(x, k32(x, 4), x->v32),
                                       splat(x, k32(x, 7), x->v32), ""),
                       k, "");
   k = LLVMBuildSelect(B, LLVMBuildNot(B, LLVMBuildOr(B, ezero, emaxed, ""), ""),
                       LLVMBuildSelect(B, neg, splat(x, k32(x, 3), x->v32),
                                       splat(x, k32(x, 8), x->v32), ""),
                       k, "");
   LLVMValueRef inf = LLVMBuildSelect(B, neg, splat(x, k32(x, 2), x->v32),
                                      splat(x, k32(x, 9), x->v32), "");
   LLVMValueRef nan = LLVMBuildSelect(B, quiet, splat(x, k32(x, 1), x->v32),
                                      splat(x, k32(x, 0), x->v32), "");
   k = LLVMBuildSelect(B, emaxed, LLVMBuildSelect(B, mz, inf, nan, ""), k, "");
#undef KV
   LLVMValueRef bit = LLVMBuildAnd(B, LLVMBuildLShr(B, src_v(x, in, 1), k, ""),
                                   splat(x, k32(x, 1), x->v32), "");
   return LLVMBuildICmp(B, LLVMIntNE, bit, splat(x, k32(x, 0), x->v32), "");
}

static void
emit_valu(xl *x, const sim_inst *in, xl_xop op)
{
   LLVMBuilderRef B = x->B;
   LLVMValueRef a, b, c, r = NULL;
   switch (op) {
   case XO_MOV:
      r = src_v(x, in, 0);
      break;
   case XO_READFIRST: {
      /* S0 of the first lane of EXEC, lane 0 when EXEC is 0 (sim_vop1.c). */
      LLVMValueRef e = mget(x, SIM_SRC_EXEC);
      LLVMValueRef args[2] = {e, LLVMConstInt(x->i1, 0, 0)};
      LLVMValueRef n = intrin(x, "llvm.cttz", x->mask_t, args, 2);
      LLVMValueRef none = LLVMBuildICmp(B, LLVMIntEQ, e, LLVMConstNull(x->mask_t), "");
      LLVMValueRef lane = LLVMBuildSelect(B, none, LLVMConstNull(x->mask_t), n, "");
      lane = LLVMBuildIntCast2(B, lane, x->i32, 0, "");
      sput(x, in->vdst, LLVMBuildExtractElement(B, src_v(x, in, 0), lane, ""));
      return;
   }
   case XO_READLANE: case XO_WRITELANE:
      emit_lane_move(x, in, op == XO_WRITELANE);
      return;
   case XO_CLASS32: case XO_CLASS64:
      sim__xl_cmp_write(x, in, emit_class(x, in, op == XO_CLASS64), xl_cmpx_class(in->op));
      return;
#define BIN(o, e)                                                                           \
   case o:                                                                                  \
      a = src_v(x, in, 0);                                                                  \
      b = src_v(x, in, 1);                                                                  \
      r = (e);                                                                              \
      break;
#define K(v) splat(x, k32(x, v), x->v32)
      BIN(XO_ADD, LLVMBuildAdd(B, a, b, ""))
      BIN(XO_SUB, LLVMBuildSub(B, a, b, ""))
      BIN(XO_SUBREV, LLVMBuildSub(B, b, a, ""))
      BIN(XO_AND, LLVMBuildAnd(B, a, b, ""))
      BIN(XO_OR, LLVMBuildOr(B, a, b, ""))
      BIN(XO_XOR, LLVMBuildXor(B, a, b, ""))
      BIN(XO_SHL, LLVMBuildShl(B, b, LLVMBuildAnd(B, a, K(31), ""), ""))
      BIN(XO_LSHR, LLVMBuildLShr(B, b, LLVMBuildAnd(B, a, K(31), ""), ""))
      BIN(XO_ASHR, LLVMBuildAShr(B, b, LLVMBuildAnd(B, a, K(31), ""), ""))
      BIN(XO_MULLO, LLVMBuildMul(B, a, b, ""))
      BIN(XO_MULU24, LLVMBuildMul(B, LLVMBuildAnd(B, a, K(0xFFFFFF), ""),
                                  LLVMBuildAnd(B, b, K(0xFFFFFF), ""), ""))
      BIN(XO_MULI24, LLVMBuildMul(B, LLVMBuildAShr(B, LLVMBuildShl(B, a, K(8), ""), K(8), ""),
                                  LLVMBuildAShr(B, LLVMBuildShl(B, b, K(8), ""), K(8), ""), ""))
   case XO_MADU24: case XO_MADI24:
      /* The 24-bit product (sim_vop3.c), then S2 added: wrapping, as the handler's. */
      a = src_v(x, in, 0), b = src_v(x, in, 1), c = src_v(x, in, 2);
      if (op == XO_MADU24)
         r = LLVMBuildMul(B, LLVMBuildAnd(B, a, K(0xFFFFFF), ""),
                          LLVMBuildAnd(B, b, K(0xFFFFFF), ""), "");
      else
         r = LLVMBuildMul(B, LLVMBuildAShr(B, LLVMBuildShl(B, a, K(8), ""), K(8), ""),
                          LLVMBuildAShr(B, LLVMBuildShl(B, b, K(8), ""), K(8), ""), "");
      r = LLVMBuildAdd(B, r, c, "");
      break;
   case XO_LSHLADD:
      a = src_v(x, in, 0), b = src_v(x, in, 1), c = src_v(x, in, 2);
      r = LLVMBuildAdd(B, LLVMBuildShl(B, a, LLVMBuildAnd(B, b, K(31), ""), ""), c, "");
      break;
   case XO_ADDLSHL:
      a = src_v(x, in, 0), b = src_v(x, in, 1), c = src_v(x, in, 2);
      r = LLVMBuildShl(B, LLVMBuildAdd(B, a, b, ""), LLVMBuildAnd(B, c, K(31), ""), "");
      break;
   case XO_ADD3:
      a = src_v(x, in, 0), b = src_v(x, in, 1), c = src_v(x, in, 2);
      r = LLVMBuildAdd(B, LLVMBuildAdd(B, a, b, ""), c, "");
      break;
   case XO_LSHLOR:
      a = src_v(x, in, 0), b = src_v(x, in, 1), c = src_v(x, in, 2);
      r = LLVMBuildOr(B, LLVMBuildShl(B, a, LLVMBuildAnd(B, b, K(31), ""), ""), c, "");
      break;
   case XO_ANDOR:
      a = src_v(x, in, 0), b = src_v(x, in, 1), c = src_v(x, in, 2);
      r = LLVMBuildOr(B, LLVMBuildAnd(B, a, b, ""), c, "");
      break;
   case XO_MINMAX: {
      /* S0 when it compares below (above) S1, else S1, as sim_vop2.c picks. */
      LLVMIntPredicate p = in->op == SIM_OP_v_min_i32   ? LLVMIntSLT
                           : in->op == SIM_OP_v_max_i32 ? LLVMIntSGT
                           : in->op == SIM_OP_v_min_u32 ? LLVMIntULT
                                                        : LLVMIntUGT;
      a = src_v(x, in, 0), b = src_v(x, in, 1);
      r = LLVMBuildSelect(B, LLVMBuildICmp(B, p, a, b, ""), a, b, "");
      break;
   }
   /* (float)u and (float)i as the interpreter computes them: the host's rounding, to
    * nearest even; no result is subnormal or NaN. */
   case XO_CVT_F32_U32:
      r = LLVMBuildBitCast(B, LLVMBuildUIToFP(B, src_v(x, in, 0), x->vf, ""), x->v32, "");
      break;
   case XO_CVT_F32_I32:
      r = LLVMBuildBitCast(B, LLVMBuildSIToFP(B, src_v(x, in, 0), x->vf, ""), x->v32, "");
      break;
   case XO_CO_ADD: case XO_CO_SUB: case XO_CO_SUBREV: case XO_CO_ADDC: case XO_CO_SUBB:
   case XO_CO_SUBBREV: {
      a = src_v(x, in, 0), b = src_v(x, in, 1);
      bool sub = op != XO_CO_ADD && op != XO_CO_ADDC;
      bool rev = op == XO_CO_SUBREV || op == XO_CO_SUBBREV;
      LLVMValueRef X = rev ? b : a, Y = rev ? a : b;
      LLVMValueRef ci = K(0);
      if (op == XO_CO_ADDC || op == XO_CO_SUBB || op == XO_CO_SUBBREV) {
         LLVMValueRef m = LLVMBuildBitCast(B, src_mask(x, in->src[2]), x->vm, "");
         ci = LLVMBuildZExt(B, m, x->v32, "");
      }
      LLVMValueRef t = sub ? LLVMBuildSub(B, X, Y, "") : LLVMBuildAdd(B, X, Y, "");
      r = sub ? LLVMBuildSub(B, t, ci, "") : LLVMBuildAdd(B, t, ci, "");
      LLVMValueRef cy = sub ? LLVMBuildOr(B, LLVMBuildICmp(B, LLVMIntULT, X, Y, ""),
                                          LLVMBuildICmp(B, LLVMIntULT, t, ci, ""), "")
                            : LLVMBuildOr(B, LLVMBuildICmp(B, LLVMIntULT, t, X, ""),
                                          LLVMBuildICmp(B, LLVMIntULT, r, t, ""), "");
      LLVMValueRef bits = lanes_mask(x, cy);
      vput_dst(x, in, r);
      if (in->sdst != SIM_SRC_NONE)
         mput(x, in->sdst, bits);
      return;
   }
   case XO_SHL64: {
      if (in->src[0] >= 128 && in->src[0] < SIM_SRC_VGPR && in->src[1] >= SIM_SRC_VGPR) {
         /* A constant amount (the address scaling of an index) on the two dword rows: the
          * 64-bit lanes were eight zero-extensions, shifts, ORs and truncations of host
          * vectors a row, this one to three 32-bit operations. */
         unsigned c = (unsigned)LLVMConstIntGetZExtValue(src_s32(x, in, in->src[0])) & 63;
         unsigned r = in->src[1] - SIM_SRC_VGPR;
         LLVMValueRef lo = vget(x, r), hi = vget(x, r + 1), nlo, nhi;
         if (c == 0) {
            nlo = lo, nhi = hi;
         } else if (c < 32) {
            nlo = LLVMBuildShl(B, lo, splat(x, k32(x, c), x->v32), "");
            nhi = LLVMBuildOr(B, LLVMBuildShl(B, hi, splat(x, k32(x, c), x->v32), ""),
                              LLVMBuildLShr(B, lo, splat(x, k32(x, 32 - c), x->v32), ""), "");
         } else {
            nlo = LLVMConstNull(x->v32);
            nhi = LLVMBuildShl(B, lo, splat(x, k32(x, c - 32), x->v32), "");
         }
         vput(x, in->vdst, nlo);
         vput(x, in->vdst + 1, nhi);
         return;
      }
      LLVMValueRef v = src_v64(x, in, 1);
      LLVMValueRef s;
      if (in->src[0] < SIM_SRC_VGPR)
         s = splat(x, LLVMBuildZExt(B, src_s32(x, in, in->src[0]), x->i64, ""), x->v64);
      else
         s = LLVMBuildZExt(B, src_v(x, in, 0), x->v64, "");
      s = LLVMBuildAnd(B, s, splat(x, k64(x, 63), x->v64), "");
      sim__xl_put64(x, in->vdst, LLVMBuildShl(B, v, s, ""));
      return;
   }
   case XO_CNDMASK: {
      a = src_v(x, in, 0), b = src_v(x, in, 1);
      LLVMValueRef m = LLVMBuildBitCast(B, src_mask(x, in->src[2]), x->vm, "");
      r = LLVMBuildSelect(B, m, b, a, "");
      break;
   }
   case XO_ICMP: case XO_FCMP: {
      LLVMValueRef cmp;
      if (op == XO_ICMP)
         cmp = LLVMBuildICmp(B, xl_icmp_pred(in->op), src_v(x, in, 0), src_v(x, in, 1), "");
      else
         cmp = LLVMBuildFCmp(B, xl_fcmp_pred(in->op), src_vf(x, in, 0), src_vf(x, in, 1), "");
      sim__xl_cmp_write(x, in, cmp, xl_cmpx(in->op));
      return;
   }
   default: {
      /* f32 arithmetic */
      LLVMValueRef f[3];
      unsigned n = op == XO_FMA || op == XO_FMAD || op == XO_FMAC || op == XO_FMACNF ? 3
                   : op == XO_FFLOOR || op == XO_FTRUNC || op == XO_FCEIL ||
                         op == XO_FRNDNE
                      ? 1
                                                                                    : 2;
      f[0] = src_vf(x, in, 0);
      if (n > 1)
         f[1] = src_vf(x, in, 1);
      if (op == XO_FMAC || op == XO_FMACNF)
         f[2] = LLVMBuildBitCast(B, vget(x, in->vdst), x->vf, "");
      else if (n == 3)
         f[2] = src_vf(x, in, 2);
      if (n == 3) {
         /* Inactive lanes compute 0 * 0 + 0, as sim__fma_rows does: a divergent loop
          * leaves subnormals there, and each is a microcode assist of the host's FMA. */
         LLVMValueRef m = execmask(x), z = LLVMConstNull(x->vf);
         for (unsigned i = 0; i < 3; i++)
            f[i] = LLVMBuildSelect(B, m, f[i], z, "");
      }
      LLVMValueRef rf;
      switch (op) {
      case XO_FADD: rf = LLVMBuildFAdd(B, f[0], f[1], ""); break;
      case XO_FSUB: rf = LLVMBuildFSub(B, f[0], f[1], ""); break;
      case XO_FSUBREV: rf = LLVMBuildFSub(B, f[1], f[0], ""); break;
      case XO_FMUL: rf = LLVMBuildFMul(B, f[0], f[1], ""); break;
      case XO_FMA: case XO_FMAC:
         rf = intrin(x, "llvm.fma", x->vf, f, 3);
         break;
      case XO_FFLOOR: rf = intrin(x, "llvm.floor", x->vf, f, 1); break;
      case XO_FCEIL: rf = intrin(x, "llvm.ceil", x->vf, f, 1); break;
      case XO_FRNDNE: rf = intrin(x, "llvm.roundeven", x->vf, f, 1); break;
      case XO_FTRUNC: rf = intrin(x, "llvm.trunc", x->vf, f, 1); break;
      default: /* mad, mac: the product rounded, then the sum */
         rf = LLVMBuildFAdd(B, LLVMBuildFMul(B, f[0], f[1], ""), f[2], "");
         break;
      }
      x->uses_f32 = true;
      r = x->nan_defer ? LLVMBuildBitCast(B, rf, x->v32, "") : nanfix(x, rf, f, n);
      break;
   }
#undef BIN
#undef K
   }
   vput_dst(x, in, r);
}

static void
emit_salu(xl *x, const sim_inst *in, xl_xop op)
{
   LLVMBuilderRef B = x->B;
   unsigned d = in->vdst;
   LLVMValueRef a, b, r;
   switch (op) {
   case XO_S_MOV32:
      sput(x, d, src_s32(x, in, in->src[0]));
      return;
   case XO_S_GETPC:
      sput64(x, d, k64(x, x->pc + in->size));
      return;
   case XO_S_MOVK: /* D = signext(SIMM16) */
      sput(x, d, k32(x, (uint32_t)in->imm));
      return;
   case XO_S_BREV:
      a = src_s32(x, in, in->src[0]);
      sput(x, d, intrin(x, "llvm.bitreverse", x->i32, &a, 1));
      return;
   case XO_S_BCNT1: case XO_S_NOT32: /* SCC = D != 0 */
      a = src_s32(x, in, in->src[0]);
      r = op == XO_S_NOT32 ? LLVMBuildNot(B, a, "") : intrin(x, "llvm.ctpop", x->i32, &a, 1);
      sput(x, d, r);
      sccput(x, LLVMBuildICmp(B, LLVMIntNE, r, k32(x, 0), ""));
      return;
   case XO_S_BCNT1_64:
      a = src_s64(x, in->src[0]);
      r = LLVMBuildTrunc(B, intrin(x, "llvm.ctpop", x->i64, &a, 1), x->i32, "");
      sput(x, d, r);
      sccput(x, LLVMBuildICmp(B, LLVMIntNE, r, k32(x, 0), ""));
      return;
   case XO_S_NOT64:
      r = LLVMBuildNot(B, src_s64(x, in->src[0]), "");
      sput64(x, d, r);
      sccput(x, LLVMBuildICmp(B, LLVMIntNE, r, k64(x, 0), ""));
      return;
   case XO_S_CMP64:
      a = src_s64(x, in->src[0]), b = src_s64(x, in->src[1]);
      sccput(x, LLVMBuildICmp(B, in->op == SIM_OP_s_cmp_eq_u64 ? LLVMIntEQ : LLVMIntNE, a, b, ""));
      return;
   case XO_S_MOV64:
      sput64(x, d, src_s64(x, in->src[0]));
      return;
   case XO_S_CSEL32:
      a = src_s32(x, in, in->src[0]), b = src_s32(x, in, in->src[1]);
      sput(x, d, LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntNE, sccget(x), k32(x, 0), ""), a,
                                 b, ""));
      return;
   case XO_S_CSEL64:
      a = src_s64(x, in->src[0]), b = src_s64(x, in->src[1]);
      sput64(x, d, LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntNE, sccget(x), k32(x, 0), ""),
                                   a, b, ""));
      return;
   case XO_S_CMP:
      a = src_s32(x, in, in->src[0]), b = src_s32(x, in, in->src[1]);
      sccput(x, LLVMBuildICmp(B, xl_icmp_pred(in->op), a, b, ""));
      return;
   case XO_S_BITCMP: /* SCC = S0[S1[4:0]] == 0 (bitcmp0) or == 1 (bitcmp1) */
      a = src_s32(x, in, in->src[0]);
      b = LLVMBuildAnd(B, src_s32(x, in, in->src[1]), k32(x, 31), "");
      r = LLVMBuildAnd(B, LLVMBuildLShr(B, a, b, ""), k32(x, 1), "");
      sccput(x, LLVMBuildICmp(B, in->op == SIM_OP_s_bitcmp1_b32 ? LLVMIntNE : LLVMIntEQ, r,
                              k32(x, 0), ""));
      return;
   case XO_S_LOG64: case XO_S_SAVEEXEC: case XO_S_SHL64: {
      a = src_s64(x, in->src[0]);
      if (op == XO_S_SHL64) {
         b = LLVMBuildAnd(B, LLVMBuildZExt(B, src_s32(x, in, in->src[1]), x->i64, ""),
                          k64(x, 63), "");
         r = LLVMBuildShl(B, a, b, "");
         sput64(x, d, r);
         sccput(x, LLVMBuildICmp(B, LLVMIntNE, r, k64(x, 0), ""));
         return;
      }
      b = op == XO_S_SAVEEXEC ? sget64(x, SIM_SRC_EXEC) : src_s64(x, in->src[1]);
      switch (in->op) {
      case SIM_OP_s_and_b64: case SIM_OP_s_and_saveexec_b64: r = LLVMBuildAnd(B, a, b, ""); break;
      case SIM_OP_s_or_b64: case SIM_OP_s_or_saveexec_b64: r = LLVMBuildOr(B, a, b, ""); break;
      case SIM_OP_s_xor_b64: case SIM_OP_s_xor_saveexec_b64: r = LLVMBuildXor(B, a, b, ""); break;
      default: r = LLVMBuildAnd(B, a, LLVMBuildNot(B, b, ""), ""); break;
      }
      if (op == XO_S_SAVEEXEC) {
         /* EXEC keeps the wave's lanes (sim__exec_write); SCC says whether any is left. */
         if (x->wave != 64)
            r = LLVMBuildAnd(B, r, k64(x, 0xFFFFFFFFu), "");
         sput64(x, d, b);
         sput64(x, SIM_SRC_EXEC, r);
      } else {
         sput64(x, d, r);
      }
      sccput(x, LLVMBuildICmp(B, LLVMIntNE, r, k64(x, 0), ""));
      return;
   }
   case XO_S_SAVEEXEC32:
      /* gfx10's 32-bit forms act on EXEC_LO, in a wave64 too (sim_sop1.c SAVEEXEC32). */
      a = src_s32(x, in, in->src[0]), b = sget(x, SIM_SRC_EXEC);
      switch (in->op) {
      case SIM_OP_s_and_saveexec_b32: r = LLVMBuildAnd(B, a, b, ""); break;
      case SIM_OP_s_or_saveexec_b32: r = LLVMBuildOr(B, a, b, ""); break;
      case SIM_OP_s_xor_saveexec_b32: r = LLVMBuildXor(B, a, b, ""); break;
      default: r = LLVMBuildAnd(B, a, LLVMBuildNot(B, b, ""), ""); break;
      }
      sput(x, d, b);
      sput(x, SIM_SRC_EXEC, r);
      sccput(x, LLVMBuildICmp(B, LLVMIntNE, r, k32(x, 0), ""));
      return;
   default:
      break;
   }
   a = src_s32(x, in, in->src[0]), b = src_s32(x, in, in->src[1]);
   LLVMValueRef sc = NULL;
   switch (op) {
   case XO_S_ADDU: case XO_S_ADDC: {
      LLVMValueRef s = LLVMBuildAdd(B, LLVMBuildZExt(B, a, x->i64, ""),
                                    LLVMBuildZExt(B, b, x->i64, ""), "");
      if (op == XO_S_ADDC)
         s = LLVMBuildAdd(B, s, LLVMBuildZExt(B, sccget(x), x->i64, ""), "");
      r = LLVMBuildTrunc(B, s, x->i32, "");
      sc = LLVMBuildICmp(B, LLVMIntUGT, s, k64(x, 0xFFFFFFFFu), "");
      break;
   }
   case XO_S_SUBU:
      r = LLVMBuildSub(B, a, b, "");
      sc = LLVMBuildICmp(B, LLVMIntUGT, b, a, "");
      break;
   case XO_S_ADDI: {
      r = LLVMBuildAdd(B, a, b, "");
      /* signed overflow: a and b agree in sign, r does not */
      LLVMValueRef o = LLVMBuildAnd(B, LLVMBuildNot(B, LLVMBuildXor(B, a, b, ""), ""),
                                    LLVMBuildXor(B, a, r, ""), "");
      sc = LLVMBuildICmp(B, LLVMIntSLT, o, k32(x, 0), "");
      break;
   }
   case XO_S_MUL:
      r = LLVMBuildMul(B, a, b, "");
      break;
   case XO_S_MULHU: case XO_S_MULHI: {
      LLVMValueRef p =
         op == XO_S_MULHU
            ? LLVMBuildMul(B, LLVMBuildZExt(B, a, x->i64, ""), LLVMBuildZExt(B, b, x->i64, ""), "")
            : LLVMBuildMul(B, LLVMBuildSExt(B, a, x->i64, ""), LLVMBuildSExt(B, b, x->i64, ""), "");
      r = LLVMBuildTrunc(B, LLVMBuildLShr(B, p, k64(x, 32), ""), x->i32, "");
      break;
   }
   case XO_S_BFEU: case XO_S_BFEI: {
      /* sim_sop2.c: offset S1[4:0], width S1[22:16] (0 gives 0, 32 and more the rest of
       * the word); the signed form sign-extends from the field's top bit. SCC = D != 0.
       * On 64-bit values: the shifts by 64 - width are defined for every width. */
      LLVMValueRef off = LLVMBuildZExt(B, LLVMBuildAnd(B, b, k32(x, 31), ""), x->i64, "");
      LLVMValueRef wd = LLVMBuildAnd(B, LLVMBuildLShr(B, b, k32(x, 16), ""), k32(x, 0x7F), "");
      LLVMValueRef big = LLVMBuildICmp(B, LLVMIntUGE, wd, k32(x, 32), "");
      LLVMValueRef rest = LLVMBuildSub(B, k32(x, 32), LLVMBuildTrunc(B, off, x->i32, ""), "");
      wd = LLVMBuildZExt(B, LLVMBuildSelect(B, big, rest, wd, ""), x->i64, "");
      /* The field at bits 63..64-width of a 64-bit value, then shifted down. */
      LLVMValueRef v = LLVMBuildShl(B, LLVMBuildLShr(B, LLVMBuildZExt(B, a, x->i64, ""), off, ""),
                                    k64(x, 32), "");
      LLVMValueRef sh = LLVMBuildSub(B, k64(x, 32), wd, "");
      v = LLVMBuildShl(B, v, sh, "");
      LLVMValueRef down = LLVMBuildAdd(B, sh, k64(x, 32), "");
      /* A width of 0 shifts by 64: poison in LLVM, so the field is 0 there by a select. */
      LLVMValueRef ok = LLVMBuildICmp(B, LLVMIntNE, wd, k64(x, 0), "");
      LLVMValueRef dn = LLVMBuildSelect(B, ok, down, k64(x, 0), "");
      v = op == XO_S_BFEU ? LLVMBuildLShr(B, v, dn, "") : LLVMBuildAShr(B, v, dn, "");
      r = LLVMBuildSelect(B, ok, LLVMBuildTrunc(B, v, x->i32, ""), k32(x, 0), "");
      sc = LLVMBuildICmp(B, LLVMIntNE, r, k32(x, 0), "");
      break;
   }
   case XO_S_LOG32:
      switch (in->op) {
      case SIM_OP_s_and_b32: r = LLVMBuildAnd(B, a, b, ""); break;
      case SIM_OP_s_or_b32: r = LLVMBuildOr(B, a, b, ""); break;
      case SIM_OP_s_xor_b32: r = LLVMBuildXor(B, a, b, ""); break;
      default: r = LLVMBuildAnd(B, a, LLVMBuildNot(B, b, ""), ""); break;
      }
      sc = LLVMBuildICmp(B, LLVMIntNE, r, k32(x, 0), "");
      break;
   case XO_S_SHL32: case XO_S_LSHR32: case XO_S_ASHR32: {
      LLVMValueRef s = LLVMBuildAnd(B, b, k32(x, 31), "");
      r = op == XO_S_SHL32    ? LLVMBuildShl(B, a, s, "")
          : op == XO_S_LSHR32 ? LLVMBuildLShr(B, a, s, "")
                              : LLVMBuildAShr(B, a, s, "");
      sc = LLVMBuildICmp(B, LLVMIntNE, r, k32(x, 0), "");
      break;
   }
   default:
      return;
   }
   sput(x, d, r);
   if (sc)
      sccput(x, sc);
}

/* The helper a block calls for an instruction it runs through the interpreter: as the wave
 * loop does. Non-zero: the block stops (the wave stopped, or a store reached a doorbell). */
static __thread struct xl_check *xl_check_cur;
static int xl_check_call(struct xl_check *k, sim_wave *w, const sim_inst *in);

static int
xl_call(sim_wave *w, const sim_inst *in, uint64_t pc)
{
   w->inst_pc = pc;
   w->pc = pc + in->size;
   if (SIM_UNLIKELY(sim__xlate_mode == 2) && xl_check_cur != NULL)
      return xl_check_call(xl_check_cur, w, in);
   in->fn(w, in);
   return w->status != SIM_WAVE_RUNNING || w->doorbell_va != 0;
}

LLVMValueRef
sim__xl_call(xl *x, const sim_inst *in, uint64_t pc)
{
   LLVMTypeRef pt[3] = {x->ptr, x->ptr, x->i64};
   LLVMTypeRef ft = LLVMFunctionType(x->i32, pt, 3, 0);
   LLVMValueRef f = LLVMConstIntToPtr(k64(x, (uint64_t)(uintptr_t)xl_call), x->ptr);
   LLVMValueRef args[3] = {x->w, LLVMConstIntToPtr(k64(x, (uint64_t)(uintptr_t)in), x->ptr),
                           k64(x, pc)};
   return LLVMBuildCall2(x->B, ft, f, args, 3, "");
}

void
sim__xl_hook(xl *x, void (*fn)(sim_wave *, const sim_inst *), const sim_inst *in)
{
   LLVMTypeRef pt[2] = {x->ptr, x->ptr};
   LLVMTypeRef ft = LLVMFunctionType(LLVMVoidTypeInContext(x->C), pt, 2, 0);
   LLVMValueRef f = LLVMConstIntToPtr(k64(x, (uint64_t)(uintptr_t)fn), x->ptr);
   LLVMValueRef args[2] = {x->w, LLVMConstIntToPtr(k64(x, (uint64_t)(uintptr_t)in), x->ptr)};
   LLVMBuildCall2(x->B, ft, f, args, 2, "");
}

static void xl_check_exit(sim_wave *w, const sim_inst *in);

/* A side exit of the block, taken when `cond`: side_open leaves the builder on the exit's
 * path with what the block changed stored (`*held` keeps the emitter's state); the caller
 * stores the PC it leaves at, then side_close returns there (the checking mode compares
 * at `in`, xl_check_exit) and goes on in `next`, the block's own path, with the state the
 * emitter had before the exit. */
static LLVMBasicBlockRef
side_open(xl *x, LLVMValueRef cond, xl *held)
{
   LLVMBasicBlockRef side = LLVMAppendBasicBlockInContext(x->C, x->fn, "side");
   LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(x->C, x->fn, "");
   LLVMBuildCondBr(x->B, cond, side, next);
   LLVMPositionBuilderAtEnd(x->B, side);
   *held = *x;
   flush(x, false);
   return next;
}

static void
side_resume(xl *x, const xl *held, LLVMBasicBlockRef next)
{
   *x = *held;
   LLVMPositionBuilderAtEnd(x->B, next);
}

static void
side_close(xl *x, const sim_inst *in, const xl *held, LLVMBasicBlockRef next)
{
   if (sim__xlate_mode == 2)
      sim__xl_hook(x, xl_check_exit, in);
   LLVMBuildRetVoid(x->B);
   side_resume(x, held, next);
}

/* A narrowed block (x->lanes below the wave's) after an instruction at `pc` that wrote EXEC
 * other than as a mask of the held lanes, or called a handler (which reads and writes the
 * wave's state itself): when EXEC now names a lane past the held ones, a side exit stores
 * what the block changed and leaves it at the next instruction (the wave goes on with the
 * variant for its EXEC, or interprets); the rest of the block runs with EXEC in the held
 * lanes. */
static void
exec_guard(xl *x, const sim_inst *in, uint64_t pc)
{
   x->exec_wrote = false;
   if (x->lanes == x->wave)
      return;
   LLVMBuilderRef B = x->B;
   LLVMValueRef e = mget_wave(x, SIM_SRC_EXEC);
   LLVMValueRef past = LLVMBuildLShr(B, e, LLVMConstInt(wave_t(x), x->lanes, 0), "");
   LLVMValueRef wide = LLVMBuildICmp(B, LLVMIntNE, past, LLVMConstNull(wave_t(x)), "");
   xl held;
   LLVMBasicBlockRef next = side_open(x, wide, &held);
   st(x, k64(x, pc + in->size), wptr(x, offsetof(sim_wave, pc)));
   side_close(x, in, &held, next);
}

static void
emit_call(xl *x, const sim_inst *in, uint64_t pc, bool last)
{
   x->called = true;
   flush(x, true);
   LLVMValueRef rc = sim__xl_call(x, in, pc);
   if (last)
      return;
   LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(x->C, x->fn, "");
   LLVMBuildCondBr(x->B, LLVMBuildICmp(x->B, LLVMIntNE, rc, k32(x, 0), ""), x->exit, next);
   LLVMPositionBuilderAtEnd(x->B, next);
   exec_guard(x, in, pc);
}

/* The branch opcodes a block ends with in its own code, not through the handler. */
static bool
xl_branch_lowered(const sim_inst *in)
{
   return (in->enc == SIM_ENC_SOPP && in->op == SIM_OP_s_branch) || xl_side_branch(in);
}

/* Whether the lowered branch `in` is taken, as an i1. */
static LLVMValueRef
branch_cond(xl *x, const sim_inst *in)
{
   LLVMBuilderRef B = x->B;
   LLVMValueRef cond;
   switch (in->op) {
   case SIM_OP_s_cbranch_scc0:
      cond = LLVMBuildICmp(B, LLVMIntEQ, sccget(x), k32(x, 0), "");
      break;
   case SIM_OP_s_cbranch_scc1:
      cond = LLVMBuildICmp(B, LLVMIntNE, sccget(x), k32(x, 0), "");
      break;
   case SIM_OP_s_cbranch_vccz:
   case SIM_OP_s_cbranch_vccnz:
      cond = LLVMBuildICmp(B, in->op == SIM_OP_s_cbranch_vccz ? LLVMIntEQ : LLVMIntNE,
                           mget_wave(x, SIM_SRC_VCC), LLVMConstNull(wave_t(x)), "");
      break;
   case SIM_OP_s_cbranch_execz:
   case SIM_OP_s_cbranch_execnz:
      cond = LLVMBuildICmp(B, in->op == SIM_OP_s_cbranch_execz ? LLVMIntEQ : LLVMIntNE,
                           mget_wave(x, SIM_SRC_EXEC), LLVMConstNull(wave_t(x)), "");
      break;
   default:
      cond = LLVMConstInt(x->i1, 1, 0);
      break;
   }
   return cond;
}

/* A taken backward branch counts down the wave's slice and yields when it runs out (at the
 * builder's position; it goes on there). */
static void
emit_slice(xl *x)
{
   LLVMBuilderRef B = x->B;
   LLVMBasicBlockRef out = LLVMAppendBasicBlockInContext(x->C, x->fn, "");
   LLVMBasicBlockRef on = LLVMAppendBasicBlockInContext(x->C, x->fn, "");
   LLVMValueRef sl = LLVMBuildSub(B, ld(x, x->i32, wptr(x, offsetof(sim_wave, slice))),
                                  k32(x, 1), "");
   st(x, sl, wptr(x, offsetof(sim_wave, slice)));
   LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntEQ, sl, k32(x, 0), ""), out, on);
   LLVMPositionBuilderAtEnd(B, out);
   st(x, k32(x, SIM_WAVE_SLICE), wptr(x, offsetof(sim_wave, slice)));
   st(x, k32(x, SIM_WAVE_YIELD), wptr(x, offsetof(sim_wave, status)));
   LLVMBuildBr(B, on);
   LLVMPositionBuilderAtEnd(B, on);
}

static void xl_check_loop(sim_wave *w, const sim_inst *in);

/* Does the taken branch `in` at `pc` go back to the block's start, in the block's own
 * code? Only while no handler has run on the way (one may change MODE, EXEC or the index
 * mode, which the block's entry conditions and code assume). */
static bool
xl_loops(const xl *x, const sim_inst *in, uint64_t pc)
{
   return in->imm < 0 && !x->called &&
          pc + in->size + (uint64_t)((int64_t)in->imm * 4) == x->start;
}

/* A taken branch back to the block's start (xl_loops; the block's state and the PC, the
 * start, are stored): the slice is counted down as emit_slice does, and the block goes on
 * at its start unless the slice ran out (the wave yields) or, in a constant-EXEC variant,
 * EXEC is no longer its constant (the wave loop picks the block for the EXEC it has):
 * then it returns. A loop's iterations cost a branch, not a return to the wave loop, a
 * lookup and a call (mandel's loop is one block). Its registers are read again from the
 * register file at the start, where the block reads them. `side`: a side exit, compared
 * by the checking mode where it leaves. */
static void
emit_loop_back(xl *x, const sim_inst *in, bool side)
{
   LLVMBuilderRef B = x->B;
   LLVMBasicBlockRef again = LLVMAppendBasicBlockInContext(x->C, x->fn, "again");
   LLVMBasicBlockRef out = LLVMAppendBasicBlockInContext(x->C, x->fn, "");
   LLVMBasicBlockRef yield = LLVMAppendBasicBlockInContext(x->C, x->fn, "");
   LLVMBasicBlockRef ret = LLVMAppendBasicBlockInContext(x->C, x->fn, "");
   LLVMValueRef sl = LLVMBuildSub(B, ld(x, x->i32, wptr(x, offsetof(sim_wave, slice))),
                                  k32(x, 1), "");
   st(x, sl, wptr(x, offsetof(sim_wave, slice)));
   LLVMValueRef zero = LLVMBuildICmp(B, LLVMIntEQ, sl, k32(x, 0), "");
   LLVMValueRef go = LLVMBuildNot(B, zero, "");
   if (x->start_exec_known) {
      uint64_t k = x->wave == 64 ? x->exec_k : x->exec_k & 0xFFFFFFFFull;
      LLVMValueRef same = LLVMBuildICmp(B, LLVMIntEQ, mget_wave(x, SIM_SRC_EXEC),
                                        LLVMConstInt(wave_t(x), k, 0), "");
      go = LLVMBuildAnd(B, go, same, "");
   }
   LLVMBuildCondBr(B, go, again, out);
   LLVMPositionBuilderAtEnd(B, out);
   LLVMBuildCondBr(B, zero, yield, ret);
   LLVMPositionBuilderAtEnd(B, yield);
   st(x, k32(x, SIM_WAVE_SLICE), wptr(x, offsetof(sim_wave, slice)));
   st(x, k32(x, SIM_WAVE_YIELD), wptr(x, offsetof(sim_wave, status)));
   LLVMBuildBr(B, ret);
   LLVMPositionBuilderAtEnd(B, ret);
   if (side && sim__xlate_mode == 2)
      sim__xl_hook(x, xl_check_exit, in);
   LLVMBuildRetVoid(B);
   LLVMPositionBuilderAtEnd(B, again);
   if (sim__xlate_mode == 2)
      sim__xl_hook(x, xl_check_loop, in);
   LLVMBuildBr(B, x->head);
}

/* A block's last branch, as sim_sopp.c's BRANCH: PC = next + imm * 4 when taken; a taken
 * backward branch counts down the wave's slice and yields when it runs out. */
static void
emit_branch(xl *x, const sim_inst *in, uint64_t pc)
{
   LLVMBuilderRef B = x->B;
   LLVMValueRef cond = branch_cond(x, in);
   bool loops = xl_loops(x, in, pc);
   flush(x, false);
   uint64_t next = pc + in->size, target = next + (uint64_t)((int64_t)in->imm * 4);
   st(x, k64(x, pc), wptr(x, offsetof(sim_wave, inst_pc)));
   LLVMValueRef npc = LLVMBuildSelect(B, cond, k64(x, target), k64(x, next), "");
   st(x, npc, wptr(x, offsetof(sim_wave, pc)));
   if (in->imm < 0) {
      LLVMBasicBlockRef taken = LLVMAppendBasicBlockInContext(x->C, x->fn, "");
      LLVMBuildCondBr(B, cond, taken, x->exit);
      LLVMPositionBuilderAtEnd(B, taken);
      if (loops) {
         emit_loop_back(x, in, false);
         return;
      }
      emit_slice(x);
   }
   LLVMBuildRetVoid(B);
}

/* A conditional branch inside the block (xl_side_branch): taken, a side exit stores what
 * the block changed and leaves at the target, as emit_branch does at a block's end (or,
 * back to the block's start, goes on there: emit_loop_back); not taken, the block goes on
 * with the values it holds. */
static void
emit_side_branch(xl *x, const sim_inst *in, uint64_t pc)
{
   xl held;
   bool loops = xl_loops(x, in, pc);
   LLVMBasicBlockRef next = side_open(x, branch_cond(x, in), &held);
   uint64_t target = pc + in->size + (uint64_t)((int64_t)in->imm * 4);
   st(x, k64(x, pc), wptr(x, offsetof(sim_wave, inst_pc)));
   st(x, k64(x, target), wptr(x, offsetof(sim_wave, pc)));
   if (loops) {
      emit_loop_back(x, in, true);
      side_resume(x, &held, next);
      return;
   }
   if (in->imm < 0)
      emit_slice(x);
   side_close(x, in, &held, next);
}

/* s_endpgm as its handler: the wave ends, PC after it (a call of the handler cost a
 * one-wave work-group's block two indirect calls). A dispatch's wave's registers are dead
 * then (x->dead): the block stores what it holds only for a test's wave, and in the
 * checking mode, which compares them with the interpreter's; rows it retired on the way
 * there likewise (xl_rows_retire). */
static void
emit_endpgm(xl *x, const sim_inst *in, uint64_t pc)
{
   if (x->dead) {
      LLVMBasicBlockRef store = LLVMAppendBasicBlockInContext(x->C, x->fn, "");
      LLVMBasicBlockRef end = LLVMAppendBasicBlockInContext(x->C, x->fn, "");
      LLVMBuildCondBr(x->B, x->dead, end, store);
      LLVMPositionBuilderAtEnd(x->B, store);
      flush(x, false);
      LLVMBuildBr(x->B, end);
      LLVMPositionBuilderAtEnd(x->B, end);
   } else {
      flush(x, false);
   }
   st(x, k64(x, pc), wptr(x, offsetof(sim_wave, inst_pc)));
   st(x, k64(x, pc + in->size), wptr(x, offsetof(sim_wave, pc)));
   st(x, k32(x, SIM_WAVE_ENDED), wptr(x, offsetof(sim_wave, status)));
   LLVMBuildRetVoid(x->B);
}

/* ---- Runs of f32, f64 or f16 arithmetic ------------------------------------------------
 * Every f32 and f64 result is tested for a NaN lane (the NaN rule's side path, nanfix): a
 * fold of the row and a compare, most of an add's own host instructions (of a 64-lane f64
 * result, eight vector operations beside the operation's eight). A NaN operand or an
 * invalid operation makes every later result that uses it a NaN, so for a run of these
 * instructions one test of the rows it leaves written says whether any result was NaN:
 * the run is emitted without the rule, and when the test says yes it runs again, from the
 * same values, with the rule at each instruction (a side path; an invalid operation in a
 * dead result, or opposite infinities in the fold, take it too and change nothing). No
 * row is retired inside a run (nothing is stored), so both ways are pure and the second
 * reads what the first did. A run is all f32 or all f64: an f32 operation reading a word
 * of an f64 NaN does not propagate it (the payload the rule picks would reach a result
 * the test never sees), nor does an f64 one reading a pair that straddles a written one.
 * An f16 run is all row forms or all packed ones (a row form keeps the high half of its
 * destination, which a packed one could have left a NaN in); its test looks at the halves
 * the run wrote (sim__xl_f16_run_test), and without AVX-512F its first way also turns each
 * fused multiply-add result that may need the exact rounding into a NaN (sim_xlate_f16.c),
 * which sends those runs the exact way too. Scalar instructions may stand between a run's
 * operations (xl_run_filler). */

/* At most this many instructions a run: the rows it holds at once. An f64 run holds two
 * pairs at most (xl_nan_run_len) and its second way's sources, spilled once a run, cost
 * less the longer it is: dmad (bench/sim) 8.1-8.4 -> 7.3-7.8 ms a launch on one thread
 * with 16 against 8 (32 no further). */
#define XL_NAN_RUN_MAX 8
#define XL_NAN_RUN_MAX64 16

/* Is `in` an f32 operation whose NaN result comes from a NaN operand or an invalid
 * operation and propagates into every result that uses it (emit_valu's f32 arithmetic):
 * 1; such an f64 operation (sim__xl_f64_nan_op): 2; such an f16 one (sim__xl_f16_nan_op):
 * 3 for a row form, 4 for a packed one; 0 otherwise. */
static unsigned
xl_nan_op(const sim_inst *in)
{
   if (sim__xlate_class(in) != SIM_XL_LOWER || !(in->flags & SIM_IF_VALU))
      return 0;
   switch (xl_xop_of(in)) {
   case XO_FADD: case XO_FSUB: case XO_FSUBREV: case XO_FMUL: case XO_FMA: case XO_FMAD:
   case XO_FMAC: case XO_FMACNF: case XO_FFLOOR: case XO_FTRUNC: case XO_FCEIL:
   case XO_FRNDNE:
      return 1;
   case XO_NONE: {
      if (sim__xl_f64_nan_op(in))
         return 2;
      unsigned h = sim__xl_f16_nan_op(in);
      return h ? 2 + h : 0;
   }
   default:
      return 0;
   }
}

/* May `in` lie inside a run (between two of its operations)? A no-op, or a lowered scalar
 * ALU instruction that writes neither EXEC nor memory and reads no PC: both ways compute
 * it from the same values (the compilers put the loop counter's s_add and s_cmp between
 * the operations: hpoly's half2 loop had no run of two without them). */
static bool
xl_run_filler(const sim_inst *in)
{
   sim_xlate_class k = sim__xlate_class(in);
   if (k == SIM_XL_SKIP)
      return true;
   if (k != SIM_XL_LOWER || (in->flags & SIM_IF_VALU))
      return false;
   xl_xop op = xl_xop_of(in);
   return op != XO_NONE && op != XO_S_GETPC &&
          (in->vdst == SIM_SRC_NONE || in->vdst + 1 < SIM_SRC_EXEC || in->vdst > SIM_SRC_EXEC + 1);
}

/* The run from insts[i]: its length in instructions (0: none), ending at an operation, of at
 * least 2 operations (3 for f64) and at most XL_NAN_RUN_MAX (XL_NAN_RUN_MAX64), with
 * fillers between them (xl_run_filler), naming at most `max_rows` rows (`used`: how many it
 * names; counted as xl_rows_retire counts them, an f64 operand naming two); `*ops`: its
 * operations. A run retires none, and clpeak's float4 and float8 loops (8 and 16 rows) ran
 * at 49 and 36 GFLOPS against 77 and 63 with runs of every row they named (LLVM's spills).
 * An f64 run's VGPR pairs are each the same pair or apart. The sources a run's second way
 * reads stay live across it: dpoly's loop, whose run would be two f64 instructions of its
 * three, spilled and ran 10% slower with it; clpeak's double-precision loop (runs of eight)
 * twice as fast. */
static unsigned
xl_nan_run_rows(xl *x, const sim_inst **insts, unsigned n, unsigned i, unsigned max_rows,
                unsigned *used, unsigned *ops)
{
   bool named[256] = {false};
   signed char pair[256]; /* f64: 1 where a named pair starts, -1 at its second row */
   memset(pair, 0, sizeof(pair));
   unsigned kind = i < n ? xl_nan_op(insts[i]) : 0;
   unsigned k = 0, end = i, rows = 0, w = kind == 2 ? 2 : 1; /* rows an operand names */
   unsigned max = kind == 2 ? XL_NAN_RUN_MAX64 : XL_NAN_RUN_MAX;
   for (unsigned j = i; j < n && k < max && kind; j++) {
      const sim_inst *in = insts[j];
      if (xl_nan_op(in) != kind) {
         if (xl_run_filler(in))
            continue;
         break;
      }
      unsigned add = 0, r[8], nr = 0;
      for (unsigned s = 0; s < 3; s++)
         if (in->src[s] >= SIM_SRC_VGPR && in->src[s] < SIM_SRC_VGPR + 256)
            for (unsigned h = 0; h < w; h++)
               r[nr++] = in->src[s] - SIM_SRC_VGPR + h;
      for (unsigned h = 0; h < w; h++)
         r[nr++] = in->vdst + h;
      /* Each pair the same as a named one (1, -1) or apart from all (0, 0). */
      bool apart = true;
      for (unsigned j = 0; j < nr && w == 2; j += 2) {
         const signed char *p = &pair[r[j]];
         apart = apart && r[j] < 255 && ((p[0] == 0 && p[1] == 0) || (p[0] == 1 && p[1] == -1));
      }
      if (!apart)
         break;
      for (unsigned j = 0; j < nr; j++) {
         bool dup = named[r[j]];
         for (unsigned q = 0; q < j && !dup; q++)
            dup = r[q] == r[j];
         add += !dup;
      }
      if (rows + add > max_rows)
         break;
      rows += add;
      for (unsigned j = 0; j < nr; j++)
         named[r[j]] = true;
      for (unsigned j = 0; j < nr && w == 2; j += 2)
         pair[r[j]] = 1, pair[r[j] + 1] = -1;
      k++, end = j + 1;
   }
   *used = rows;
   *ops = k;
   return k >= (kind == 2 ? 3u : 2u) ? end - i : 0;
}

/* The run from insts[i] (xl_nan_run_rows): as many rows as a block holds, or for f64 twice
 * that when the run is at least XL_NAN_RUN_MAX long (its spills amortised): clpeak's
 * double2 loop (two chains of dependent fmas, four pairs) 8.2 -> 2.7 s a dispatch of its
 * grid on both cores, where every length made dpoly's run of three spill (5.9 -> 6.5 ms). */
static unsigned
xl_nan_run_len(xl *x, const sim_inst **insts, unsigned n, unsigned i)
{
   unsigned held = xl_rows_held * 64 / x->lanes, used, ops;
   unsigned k = xl_nan_run_rows(x, insts, n, i, 2 * held, &used, &ops);
   if (used > held && (ops < XL_NAN_RUN_MAX || xl_nan_op(insts[i]) != 2))
      k = xl_nan_run_rows(x, insts, n, i, held, &used, &ops);
   return k;
}

/* Emits insts[0..len) in order, one host basic block each, as xl_emit does. */
static void
xl_nan_run_body(xl *x, const sim_inst **insts, unsigned len)
{
   for (unsigned k = 0; k < len; k++) {
      xl_xop op = xl_xop_of(insts[k]);
      unsigned kind = xl_nan_op(insts[k]);
      if (!kind) { /* a filler */
         if (sim__xlate_class(insts[k]) != SIM_XL_SKIP)
            emit_salu(x, insts[k], op);
         continue;
      }
      if (kind == 2)
         sim__xl_emit_f64(x, insts[k]);
      else if (kind >= 3)
         sim__xl_emit_f16(x, insts[k]);
      else
         emit_valu(x, insts[k], op);
      LLVMBasicBlockRef nb = LLVMAppendBasicBlockInContext(x->C, x->fn, "");
      LLVMBuildBr(x->B, nb);
      LLVMPositionBuilderAtEnd(x->B, nb);
      unsigned top = insts[k]->vdst + (kind == 2 ? 2u : 1u);
      if (top > x->max_vgpr)
         x->max_vgpr = top;
   }
}

static unsigned xl_ir_size(xl *x);

/* The run insts[0..len) (xl_nan_run_len), its NaN rule deferred. Its second way's IR is
 * not counted by the compile budget (`ir_again`): counted, it cut clpeak's single-precision
 * blocks from 31-36 instructions to 24, each cut a block end more. */
static void
emit_nan_run(xl *x, const sim_inst **insts, unsigned len)
{
   LLVMBuilderRef B = x->B;
   /* A register either way reads for the first time is read from the register file as
    * it was before the run (nothing in it stores); where both did, the two values join. */
   static __thread sim_xl before, fast;
   before = *x;
   x->nan_defer = true;
   xl_nan_run_body(x, insts, len);
   x->nan_defer = false;
   /* The rows the run wrote, summed (an f64 run's pairs as doubles: the join folds into
    * the values the run computed): a NaN in any is a NaN in the sum. */
   LLVMValueRef sum = NULL;
   bool seen[256] = {false}, f64 = xl_nan_op(insts[0]) == 2;
   bool f16 = xl_nan_op(insts[0]) >= 3; /* its own test: sim__xl_f16_run_test */
   for (unsigned k = 0; k < len && !f16; k++) {
      unsigned r = insts[k]->vdst;
      if (!xl_nan_op(insts[k]) || seen[r])
         continue;
      seen[r] = true;
      LLVMValueRef f =
         f64 ? LLVMBuildBitCast(B, sim__xl_join64(x, x->v[r], x->v[r + 1]),
                                LLVMVectorType(LLVMDoubleTypeInContext(x->C), x->lanes), "")
             : LLVMBuildBitCast(B, x->v[r], x->vf, "");
      sum = sum ? LLVMBuildFAdd(B, sum, f, "") : f;
   }
   LLVMValueRef any = f16 ? sim__xl_f16_run_test(x, insts, len) : sim__xl_any_nan(x, sum);
   LLVMBasicBlockRef fast_end = LLVMGetInsertBlock(B);
   LLVMBasicBlockRef again = LLVMAppendBasicBlockInContext(x->C, x->fn, "nanrun");
   LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(x->C, x->fn, "");
   LLVMBuildCondBr(B, any, again, join);
   fast = *x;
   *x = before;
   LLVMPositionBuilderAtEnd(B, again);
   unsigned ir0 = xl_ir_size(x);
   xl_nan_run_body(x, insts, len);
   x->ir_again = fast.ir_again + xl_ir_size(x) - ir0;
   LLVMBasicBlockRef slow_end = LLVMGetInsertBlock(B);
   /* An f64 run's written pairs join as 64-bit values, split again after the join: a phi
    * of each row would keep a split before it and a join after it (dpoly's loop 6.5 ->
    * 7.2 ms a launch, one thread), where these fold into the values the ways computed. */
   LLVMValueRef w64[2][256];
   bool pair[256] = {false};
   for (unsigned k = 0; k < len && f64; k++)
      if (xl_nan_op(insts[k]))
         pair[insts[k]->vdst] = true;
   for (unsigned r = 0; r < 256; r++)
      if (pair[r])
         w64[1][r] = sim__xl_join64(x, x->v[r], x->v[r + 1]);
   LLVMBuildBr(B, join);
   LLVMPositionBuilderBefore(B, LLVMGetBasicBlockTerminator(fast_end));
   for (unsigned r = 0; r < 256; r++)
      if (pair[r])
         w64[0][r] = sim__xl_join64(x, fast.v[r], fast.v[r + 1]);
   LLVMPositionBuilderAtEnd(B, join);
   /* Each value the two ways left differently, joined. */
   LLVMBasicBlockRef from[2] = {fast_end, slow_end};
   for (unsigned r = 0; r < 256; r++) {
      if (pair[r]) {
         LLVMValueRef phi = LLVMBuildPhi(B, x->v64, "");
         LLVMValueRef vals[2] = {w64[0][r], w64[1][r]};
         LLVMAddIncoming(phi, vals, from, 2);
         w64[0][r] = phi; /* split below, after the block's phis */
         r++;
         continue;
      }
      if (fast.v[r] == x->v[r])
         continue;
      LLVMValueRef phi = LLVMBuildPhi(B, LLVMTypeOf(fast.v[r]), "");
      LLVMValueRef vals[2] = {fast.v[r], x->v[r]};
      LLVMAddIncoming(phi, vals, from, 2);
      x->v[r] = phi;
   }
   for (unsigned r = 0; r < 128; r++) {
      if (fast.s[r] == x->s[r])
         continue;
      if (fast.s[r] && x->s[r]) {
         LLVMValueRef phi = LLVMBuildPhi(B, LLVMTypeOf(fast.s[r]), "");
         LLVMValueRef vals[2] = {fast.s[r], x->s[r]};
         LLVMAddIncoming(phi, vals, from, 2);
         x->s[r] = phi;
      } else {
         x->s[r] = NULL; /* read again where next used (only a filler writes one) */
      }
   }
   if (fast.scc != x->scc) { /* a filler's, or read by one */
      if (fast.scc && x->scc) {
         LLVMValueRef phi = LLVMBuildPhi(B, x->i32, "");
         LLVMValueRef vals[2] = {fast.scc, x->scc};
         LLVMAddIncoming(phi, vals, from, 2);
         x->scc = phi;
      } else {
         x->scc = NULL;
      }
   }
   for (unsigned r = 0; r < 256; r++)
      if (pair[r])
         sim__xl_split64(x, w64[0][r], &x->v[r], &x->v[r + 1]);
}

/* Instructions in the block's function so far. */
static unsigned
xl_ir_size(xl *x)
{
   unsigned k = 0;
   for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(x->fn); b; b = LLVMGetNextBasicBlock(b))
      for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i))
         k++;
   return k;
}


/* The lane vector types of x->lanes = `lanes`. */
static void
xl_lane_types(xl *x, unsigned lanes)
{
   x->lanes = lanes;
   x->mask_t = LLVMIntTypeInContext(x->C, lanes);
   x->v32 = LLVMVectorType(x->i32, lanes);
   x->vf = LLVMVectorType(LLVMFloatTypeInContext(x->C), lanes);
   x->vm = LLVMVectorType(x->i1, lanes);
   x->v64 = LLVMVectorType(x->i64, lanes);
}

/* Emits lowered instruction `in` at `pc` (no EXEC guard, no row retiring). */
static void
emit_lowered(xl *x, const sim_inst *in, uint64_t pc)
{
   xl_xop op = xl_xop_of(in);
   if (op == XO_NONE && sim__xl_alu_lowered(in))
      sim__xl_emit_alu(x, in);
   else if (op == XO_NONE && sim__xl_int_lowered(in))
      sim__xl_emit_int(x, in);
   else if (op == XO_NONE && sim__xl_f16_lowered(in))
      sim__xl_emit_f16(x, in);
   else if (op == XO_NONE && sim__xl_f64_lowered(in))
      sim__xl_emit_f64(x, in);
   else if (op == XO_NONE)
      sim__xl_emit_mem(x, in, pc);
   else if (in->flags & SIM_IF_VALU)
      emit_valu(x, in, op);
   else
      emit_salu(x, in, op);
}

/* One basic block per instruction: instruction selection works on a block at a time, and
 * its combines grow faster than linearly with a block's size (a 64-instruction block of
 * 64-lane selects took 100-300 ms as one). */
static void
emit_next_bb(xl *x)
{
   LLVMBasicBlockRef nb = LLVMAppendBasicBlockInContext(x->C, x->fn, "");
   LLVMBuildBr(x->B, nb);
   LLVMPositionBuilderAtEnd(x->B, nb);
}

/* x->max_vgpr past the VGPR destination of emitted VALU `in` (emit_valu's forms; the
 * others' through vget/vput). */
static void
xl_note_vdst(xl *x, const sim_inst *in)
{
   xl_xop op = xl_xop_of(in);
   if (!(in->flags & SIM_IF_VALU) || op == XO_NONE)
      return;
   unsigned hi = in->vdst + (op == XO_SHL64 ? 2 : 1);
   /* Not the SGPR destinations (the lane reads) nor the compares' (none). */
   if (in->vdst != SIM_SRC_NONE && op != XO_ICMP && op != XO_FCMP && op != XO_READFIRST &&
       op != XO_READLANE && op != XO_CLASS32 && op != XO_CLASS64 && hi > x->max_vgpr)
      x->max_vgpr = hi;
}

/* ---- Lane pieces ----------------------------------------------------------------------- */

/* The SGPR a lowered VALU instruction's lane mask may go to (sim_inst.sdst: a compare's or
 * a carry's destination, any VOP2's VCC) in a run in pieces: a plain SGPR (pair) or VCC,
 * not EXEC, M0, gfx10's null or a trap register; SIM_SRC_NONE: none. The run carries it
 * as a value from piece to piece (emit_pieces), each piece writing its lanes' bits. */
static bool
xl_piece_sdst_ok(unsigned r)
{
   return r == SIM_SRC_NONE || r + 1 < SIM_SRC_VCC || r == SIM_SRC_VCC;
}

/* May `in` run in a piece: a lowered VALU instruction that reads and writes only its own
 * lane's bits of the registers (its VGPRs' lanes, its lane masks' bits) and calls no
 * handler: the scalar operands are the same for every piece, and no piece sees another's
 * lanes. Not v_ldexp_f64 (its rare lanes go to the handler, which runs on the wave), the
 * v_cmpx forms (EXEC), the lane moves, v_mbcnt (the lane's index), DPP. */
static bool
xl_piece_ok(const sim_inst *in)
{
   if (sim__xlate_class(in) != SIM_XL_LOWER || !(in->flags & SIM_IF_VALU) ||
       (in->flags & SIM_IF_DPP) || (in->vdst >= 256 && in->vdst != SIM_SRC_NONE) ||
       !xl_piece_sdst_ok(in->sdst) ||
       !strncmp(sim__op_names[in->op], "v_cmpx", 6))
      return false;
   switch (xl_xop_of(in)) {
   case XO_MOV: case XO_ADD: case XO_SUB: case XO_SUBREV: case XO_AND: case XO_OR:
   case XO_XOR: case XO_SHL: case XO_LSHR: case XO_ASHR: case XO_MULLO: case XO_MULU24:
   case XO_MULI24: case XO_MADU24: case XO_MADI24: case XO_LSHLADD: case XO_ADDLSHL:
   case XO_ADD3: case XO_LSHLOR: case XO_ANDOR: case XO_MINMAX: case XO_CVT_F32_U32:
   case XO_CVT_F32_I32: case XO_SHL64: case XO_CNDMASK: case XO_FADD: case XO_FSUB:
   case XO_FSUBREV: case XO_FMUL: case XO_FMA: case XO_FMAD: case XO_FMAC: case XO_FMACNF:
   case XO_FFLOOR: case XO_FCEIL: case XO_FRNDNE: case XO_FTRUNC: case XO_ICMP: case XO_FCMP:
   case XO_CLASS32: case XO_CLASS64: case XO_CO_ADD: case XO_CO_SUB: case XO_CO_SUBREV:
   case XO_CO_ADDC: case XO_CO_SUBB: case XO_CO_SUBBREV:
      return true;
   case XO_NONE:
      return sim__xl_alu_lowered(in) || sim__xl_int_lane_local(in) ||
             sim__xl_f16_lowered(in) || sim__xl_f64_lane_local(in);
   default:
      return false;
   }
}

/* The run from insts[i] that emit_pieces takes, in a block that holds the whole wave:
 * xl_piece_min to XL_PIECE_MAX instructions of xl_piece_ok, naming more rows than the
 * block holds whole (xl_rows_held 64-lane rows); 0 for none. `*width`: XL_PIECE lanes,
 * or half that when the run's rows fit in a piece of half but not of XL_PIECE (16 of
 * them are a piece's registers). A run whose rows fit stays whole: a piece of a row holds
 * fewer independent operations between which the host overlaps their latencies (a chain
 * of dependent v_fma_f32 on two rows ran at half the speed in pieces). Measured on
 * clpeak's loops (a piece's width against their rows): float4 and float8 (8 and 16 rows)
 * 1.3-1.5 times as fast in 16-lane pieces as in 8-lane ones, float16 and double8 (32) 1.2
 * and 1.5 times as fast in 8-lane ones, double16 (64) faster in 16-lane ones; pieces of 32
 * lanes ran float4 no faster than whole, 16-lane ones 1.6 times as fast (the NaN runs'
 * second ways keep their sources live: twice the rows). */
static unsigned
xl_piece_len(const xl *x, const sim_inst **insts, unsigned n, unsigned i, unsigned *width)
{
   if (!xl_pieces || x->lanes != x->wave || x->lanes % XL_PIECE)
      return 0;
   bool named[258] = {false};
   /* The SGPRs read as values (the same in every lane) and those written as lane masks so
    * far: the run ends before an instruction that would make one SGPR both, since a piece
    * reading it as a value would see the earlier pieces' bits of the mask. */
   bool read[129] = {false}, written[129] = {false};
   unsigned k = i, rows = 0;
   bool any_f64 = false;
   for (; k < n && k - i < XL_PIECE_MAX && xl_piece_ok(insts[k]); k++) {
      const sim_inst *in = insts[k];
      xl_xop op = xl_xop_of(in);
      bool mask2 = op == XO_CNDMASK || op == XO_CO_ADDC || op == XO_CO_SUBB ||
                   op == XO_CO_SUBBREV; /* S2 is a lane mask */
      bool clash = false;
      for (unsigned s = 0; s < 3; s++) {
         unsigned c = in->src[s];
         if (c < 128 && !(s == 2 && mask2)) {
            clash = clash || written[c] || written[c + 1];
            read[c] = read[c + 1] = true; /* as a pair, whatever its width */
         }
      }
      /* Its own sources count: v_cmp_gt_i32 s[6:7], v1, s6 reads s6 in every piece. */
      if (clash || (in->sdst < 128 && (read[in->sdst] || read[in->sdst + 1])))
         break;
      if (in->sdst < 128)
         written[in->sdst] = written[in->sdst + 1] = true;
      /* Its 64-bit operands name pairs: v_lshlrev_b64's D and S1, every operand of an f64
       * form (its 32-bit ones counted as pairs too). */
      bool f64 = sim__xl_f64_lowered(in), shl64 = xl_xop_of(in) == XO_SHL64;
      any_f64 = any_f64 || f64;
      unsigned r[4] = {in->vdst, 256, 256, 256};
      for (unsigned s = 0; s < 3; s++)
         if (in->src[s] != SIM_SRC_NONE && in->src[s] >= SIM_SRC_VGPR)
            r[s + 1] = in->src[s] - SIM_SRC_VGPR;
      for (unsigned j = 0; j < 4; j++)
         for (unsigned h = 0; h < (f64 || (shl64 && (j == 0 || j == 2)) ? 2u : 1u) &&
                              r[j] + h < 256;
              h++) {
            rows += !named[r[j] + h];
            named[r[j] + h] = true;
         }
   }
   /* f64 runs of up to twice the rows a block holds stay whole too: its NaN runs hold
    * them (xl_nan_run_len), and clpeak's double2 loop (eight rows) ran 6% slower in
    * pieces. */
   if (k - i < xl_piece_min || rows <= xl_rows_held * 64 / x->lanes * (any_f64 ? 2 : 1))
      return 0;
   unsigned held = xl_rows_held * 64 / XL_PIECE;
   *width = rows > held && rows <= 2 * held ? XL_PIECE / 2 : XL_PIECE;
   return k - i;
}

/*
 * Emits insts[0..len) (xl_piece_len) as a loop over pieces of `width` lanes: each piece
 * runs the whole run on its lanes of the rows, then the next piece. A 64-lane row is four
 * AVX-512 registers, so a run naming more than a few rows held them in memory (retired
 * and read again, xl_rows_retire) or spilled them; a 16-lane piece's row is one register,
 * and sixteen are held (an 8-lane piece's, half of one: 32). No instruction of the run
 * sees another lane, writes an SGPR other than its lanes' bits of a lane mask, touches
 * memory or can fault, so running its lanes in another order computes what the wave
 * would. The rows are in the register file at the start and the end of each piece; the
 * lane masks the run may write are values carried from piece to piece (phis), so a later
 * instruction of the piece, and whatever follows the run, reads them as the wave would.
 */
static void
emit_pieces(xl *x, const sim_inst **insts, unsigned len, unsigned width)
{
   LLVMBuilderRef B = x->B;
   x->pieces++;
   x->pieces8 += width < XL_PIECE;
   for (unsigned r = 0; r < 256; r++)
      xl_row_forget(x, r);
   LLVMValueRef dead = x->dead;
   x->dead = NULL; /* retire with stores (the piece's indices are not the block's) */
   unsigned lanes = x->lanes;
   /* The SGPRs the run may write lane masks to, as they are before it (read here, ahead of
    * the loop), carried from piece to piece. */
   bool carried[128] = {false};
   LLVMValueRef before[128];
   for (unsigned i = 0; i < len; i++) {
      unsigned r = insts[i]->sdst;
      for (unsigned h = 0; r != SIM_SRC_NONE && h < (x->wave == 64 ? 2u : 1u); h++)
         carried[r + h] = true;
   }
   for (unsigned r = 0; r < 128; r++)
      if (carried[r])
         before[r] = sget(x, r);
   LLVMBasicBlockRef pre = LLVMGetInsertBlock(B);
   LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(x->C, x->fn, "piece");
   LLVMBuildBr(B, body);
   LLVMPositionBuilderAtEnd(B, body);
   LLVMValueRef p = LLVMBuildPhi(B, x->i64, "");
   LLVMValueRef phi[128];
   for (unsigned r = 0; r < 128; r++)
      if (carried[r])
         x->s[r] = phi[r] = LLVMBuildPhi(B, x->i32, "");
   x->lane0 = p;
   xl_lane_types(x, width);
   uint64_t pc = x->pc;
   for (unsigned i = 0; i < len; i++) {
      x->pc = pc;
      unsigned run = xl_nan_run_len(x, insts, len, i);
      if (run) {
         emit_nan_run(x, insts + i, run);
         for (unsigned j = 0; j + 1 < run; j++)
            pc += insts[i + j]->size;
         i += run - 1;
      } else {
         emit_lowered(x, insts[i], pc);
         xl_note_vdst(x, insts[i]);
      }
      pc += insts[i]->size;
      xl_rows_retire(x, insts, len, i);
      emit_next_bb(x);
   }
   for (unsigned r = 0; r < 256; r++)
      xl_row_forget(x, r);
   LLVMValueRef next = LLVMBuildAdd(B, p, k64(x, width), "");
   LLVMBasicBlockRef latch = LLVMGetInsertBlock(B);
   LLVMBasicBlockRef after = LLVMAppendBasicBlockInContext(x->C, x->fn, "");
   LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntULT, next, k64(x, lanes), ""), body, after);
   LLVMValueRef vals[2] = {k64(x, 0), next};
   LLVMBasicBlockRef from[2] = {pre, latch};
   LLVMAddIncoming(p, vals, from, 2);
   for (unsigned r = 0; r < 128; r++) {
      if (!carried[r])
         continue;
      LLVMValueRef v[2] = {before[r], x->s[r]};
      LLVMAddIncoming(phi[r], v, from, 2);
   }
   LLVMPositionBuilderAtEnd(B, after);
   x->lane0 = NULL;
   xl_lane_types(x, lanes);
   x->dead = dead;
}

/* Is all that is left of the block from insts[i] its ending instruction, behind no-ops?
 * Then the compile budget does not cut it: the cut would leave a block that lowers nothing
 * and is interpreted, an extra trip through the wave loop (every wave of vadd, whose block
 * passed the budget just before its s_endpgm), and the end adds a call or a branch to the
 * IR, so a block still stays within the budget and one instruction. */
static bool
xl_only_end_left(const sim_inst **insts, unsigned n, unsigned i)
{
   while (i < n && sim__xlate_class(insts[i]) == SIM_XL_SKIP)
      i++;
   return i + 1 == n && sim__xlate_class(insts[i]) == SIM_XL_END;
}

/* Builds the block's function `name` for x->lanes lanes from up to `n` instructions (x->n
 * says how many the compile budget let in); false if nothing in it is lowered. */
static bool
xl_emit(xl *x, const char *name, const sim_inst **insts, unsigned n, uint64_t pc)
{
   x->i1 = LLVMInt1TypeInContext(x->C);
   x->i32 = LLVMInt32TypeInContext(x->C);
   x->i64 = LLVMInt64TypeInContext(x->C);
   x->ptr = LLVMPointerTypeInContext(x->C, 0);
   x->uses_f32 = false;
   x->uses_f16 = false;
   x->lane0 = NULL;
   xl_lane_types(x, x->lanes);
   LLVMTypeRef pt[2] = {x->ptr, x->ptr};
   x->fn = LLVMAddFunction(x->M, name, LLVMFunctionType(LLVMVoidTypeInContext(x->C), pt, 2, 0));
   x->w = LLVMGetParam(x->fn, 0);
   x->vb = LLVMGetParam(x->fn, 1);
   LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(x->C, x->fn, "entry");
   x->exit = LLVMAppendBasicBlockInContext(x->C, x->fn, "exit");
   LLVMPositionBuilderAtEnd(x->B, x->exit);
   LLVMBuildRetVoid(x->B);
   /* The entry block holds the allocas (sim__xl_entry_alloca); the first
    * instruction's code starts in `head`, where a loop's branch comes back. */
   x->head = LLVMAppendBasicBlockInContext(x->C, x->fn, "head");
   LLVMPositionBuilderAtEnd(x->B, entry);
   x->clean_from = xl_clean_from(insts, n);
   x->dead = NULL;
   if (x->clean_from < n && sim__xlate_mode != 2) {
      /* The checking mode compares the registers at the block's end: always stored there. */
      LLVMTypeRef i8 = LLVMInt8TypeInContext(x->C);
      LLVMValueRef d =
         LLVMBuildLoad2(x->B, i8, wptr(x, offsetof(sim_wave, regs_dead_at_end)), "");
      x->dead = LLVMBuildICmp(x->B, LLVMIntNE, d, LLVMConstInt(i8, 0, 0), "");
   }
   LLVMBuildBr(x->B, x->head);
   LLVMPositionBuilderAtEnd(x->B, x->head);
   x->start = pc;
   x->called = false;
   x->start_exec_known = x->exec_known;
   unsigned lowered = 0;
   bool ended = false;
   x->n = n;
   for (unsigned i = 0; i < n; i++) {
      const sim_inst *in = insts[i];
      sim_xlate_class k = sim__xlate_class(in);
      x->pc = pc;
      unsigned width, pieces = xl_piece_len(x, insts, n, i, &width);
      unsigned run = pieces ? 0 : xl_nan_run_len(x, insts, n, i);
      if (pieces) {
         emit_pieces(x, insts + i, pieces, width);
         lowered += pieces;
         for (unsigned j = 0; j + 1 < pieces; j++)
            pc += insts[i + j]->size;
         i += pieces - 1;
         in = insts[i];
      } else if (run) {
         emit_nan_run(x, insts + i, run);
         lowered += run;
         for (unsigned j = 0; j + 1 < run; j++)
            pc += insts[i + j]->size;
         i += run - 1;
         in = insts[i];
         xl_rows_retire(x, insts, n, i);
      } else if (k == SIM_XL_LOWER) {
         emit_lowered(x, in, pc);
         lowered++;
         if (x->exec_wrote)
            exec_guard(x, in, pc);
         xl_rows_retire(x, insts, n, i);
         emit_next_bb(x);
         xl_note_vdst(x, in);
      } else if (k == SIM_XL_END && xl_side_branch(in) && i + 1 < n) {
         emit_side_branch(x, in, pc);
      } else if (k == SIM_XL_END && xl_branch_lowered(in)) {
         emit_branch(x, in, pc);
         ended = true;
         break;
      } else if (k == SIM_XL_END && in->enc == SIM_ENC_SOPP && in->op == SIM_OP_s_endpgm) {
         emit_endpgm(x, in, pc);
         ended = true;
         break;
      } else if (k == SIM_XL_CALL || k == SIM_XL_END) {
         emit_call(x, in, pc, k == SIM_XL_END);
         if (k == SIM_XL_END) {
            ended = true;
            LLVMBuildRetVoid(x->B);
            break;
         }
      }
      pc += in->size;
      /* The compile budget: a block ends early once its IR passes xl_ir_max
       * instructions; the wave goes on at the next PC, a leader of a block of its own. */
      if (i + 1 < n && !xl_only_end_left(insts, n, i + 1) &&
          xl_ir_size(x) - x->ir_again > xl_ir_max) {
         x->n = i + 1;
         break;
      }
   }
   if (!ended) {
      flush(x, false);
      st(x, k64(x, pc), wptr(x, offsetof(sim_wave, pc)));
      LLVMBuildRetVoid(x->B);
   }
   return lowered > 0;
}

/* ---- Compiling -------------------------------------------------------------------------- */

/* Compiles the block `insts[0..n)` at `pc` under xl_lock into the resource tracker `*rt`
 * (created on first use); fills the entry's entry conditions (published with its state by
 * the caller). `warm`: the warm-up's block, not counted. */
static xl_fn
xl_compile(LLVMOrcResourceTrackerRef *rt, const sim_target *t, uint64_t pc, xl_ent *e,
           const sim_inst *const *insts, unsigned n, bool warm)
{
   struct timespec t0, t1;
   clock_gettime(CLOCK_MONOTONIC, &t0);
   char name[32];
   snprintf(name, sizeof(name), "xb%lu", ++xl_serial);
   LLVMOrcThreadSafeContextRef tsc = LLVMOrcCreateNewThreadSafeContext();
   xl x;
   memset(&x, 0, sizeof(x));
   x.C = LLVMOrcThreadSafeContextGetContext(tsc);
   x.M = LLVMModuleCreateWithNameInContext(name, x.C);
   LLVMSetTarget(x.M, LLVMOrcLLJITGetTripleString(xl_jit));
   LLVMSetDataLayout(x.M, LLVMOrcLLJITGetDataLayoutStr(xl_jit));
   x.B = LLVMCreateBuilderInContext(x.C);
   /* A constant-EXEC variant holds the rows' first 32 lanes when its EXEC lies there (a
    * small work-group's wave: half the vector work and fewer spills), lane 0 alone for
    * one work-item's wave (scalar code: 3.32 -> 2.56 ms a copy1 launch on one thread). */
   x.wave = x.lanes = e->lanes;
   if (e->exec_lanes == 1 && xl_narrow)
      x.lanes = 1;
   else if (e->exec_lanes && e->exec_lanes <= 32 && e->lanes > 32 && xl_narrow)
      x.lanes = 32;
   x.exec_known = e->exec_lanes != 0;
   x.exec_k = e->exec_lanes >= 64 ? ~0ull : (1ull << e->exec_lanes) - 1;
   x.gfx10 = t->gfx_major >= 10;
   x.avx512 = xl_avx512;
   bool any = xl_emit(&x, name, (const sim_inst **)insts, n, pc);
   x.ir = xl_ir_size(&x);
   LLVMDisposeBuilder(x.B);
   xl_fn fn = NULL;
   if (any) {
      LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
      /* The emitter keeps registers in values itself: what is left is common
       * subexpressions (EXEC masks, splats) and folding. default<O2> took about twice the
       * time a block (vadd's: 56 against 30 ms on the loaded 2-core machine). */
      /* no-verify-fixpoint: a pass string's "instcombine" checks that one iteration
       * reached a fixpoint and calls report_fatal_error (the process exits) when not, as
       * a wave32 block of v_mul_f32 and v_cvt_f32_ubyte0 made it (fuzz_xlate); LLVM's own
       * -O pipelines turn the check off. */
      LLVMErrorRef err =
         LLVMRunPasses(x.M, "early-cse,instcombine<no-verify-fixpoint>", xl_tm, po);
      LLVMDisposePassBuilderOptions(po);
      if (err)
         LLVMConsumeError(err);
      const char *dump = getenv("HSACL_SIM_XLATE_DUMP");
      if (dump) {
         char path[512];
         snprintf(path, sizeof(path), "%s/%s.ll", dump, name);
         LLVMPrintModuleToFile(x.M, path, NULL);
      }
      if (!*rt)
         *rt = LLVMOrcJITDylibCreateResourceTracker(LLVMOrcLLJITGetMainJITDylib(xl_jit));
      LLVMOrcThreadSafeModuleRef tsm = LLVMOrcCreateNewThreadSafeModule(x.M, tsc);
      err = LLVMOrcLLJITAddLLVMIRModuleWithRT(xl_jit, *rt, tsm);
      LLVMOrcJITTargetAddress addr = 0;
      if (!err)
         err = LLVMOrcLLJITLookup(xl_jit, &addr, name);
      if (err) {
         char *m = LLVMGetErrorMessage(err);
         fprintf(stderr, "hsacl-sim: translating the block at 0x%llx failed: %s\n",
                 (unsigned long long)pc, m);
         LLVMDisposeErrorMessage(m);
      } else {
         fn = (xl_fn)(uintptr_t)addr;
      }
   } else {
      LLVMDisposeModule(x.M);
   }
   LLVMOrcDisposeThreadSafeContext(tsc);
   e->max_vgpr = (uint16_t)x.max_vgpr;
   e->needs = (x.uses_f32 ? XL_NEEDS_F32 : 0) | (x.uses_f16 ? XL_NEEDS_F16 : 0);
   e->n = (uint8_t)x.n;
   clock_gettime(CLOCK_MONOTONIC, &t1);
   if (fn && !warm) {
      xl_compile_ns += (uint64_t)(t1.tv_sec - t0.tv_sec) * 1000000000ull + t1.tv_nsec - t0.tv_nsec;
      atomic_fetch_add(&xl_compiled, 1);
      atomic_fetch_add(&xl_piece_runs, x.pieces);
      atomic_fetch_add(&xl_piece_runs8, x.pieces8);
      if (getenv("HSACL_SIM_XLATE_VERBOSE"))
         fprintf(stderr, "hsacl-sim: xlate block 0x%llx: %u instructions, %u IR, %.2f ms (mean %.2f ms over %llu), code at %p\n",
                 (unsigned long long)pc, x.n, x.ir,
                 ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / 1e6,
                 xl_compile_ns / 1e6 / atomic_load(&xl_compiled),
                 (unsigned long long)atomic_load(&xl_compiled), (void *)(uintptr_t)fn);
      if (getenv("HSACL_SIM_XLATE_VERBOSE"))
         for (unsigned i = 0; i < x.n; i++)
            if (sim__xlate_class(insts[i]) == SIM_XL_CALL || sim__xlate_class(insts[i]) == SIM_XL_END) {
               char dis[160];
               sim__disasm(insts[i], dis, sizeof(dis));
               fprintf(stderr, "   %s: %s\n",
                       sim__xlate_class(insts[i]) == SIM_XL_CALL ? "call" : "end", dis);
            }
   }
   return fn;
}

xl_fn
sim__xlate_compile(sim_program *p, uint64_t pc, xl_ent *e, const sim_inst *const *insts,
                   unsigned n)
{
   if (!sim__xlate_jit_ready())
      return NULL;
   pthread_mutex_lock(&xl_lock);
   xl_fn fn = xl_compile(&p->xlate->rt, p->target, pc, e, insts, n, false);
   pthread_mutex_unlock(&xl_lock);
   return fn;
}

/* gfx9 machine code of the warm-up block: every kind of lowered instruction (integer,
 * carry, 64-bit shift, multiply, compare, select, f32 with the NaN side path and source
 * modifiers, scalar arithmetic, logic, compare, select and saveexec), a called memory
 * instruction and a backward branch (the slice count). Assembled with llvm-mc-19
 * -mcpu=gfx906 -show-encoding. */
static const uint32_t xl_warm_code[] = {
   0x68020702,              /* v_add_u32 v1, v2, v3 */
   0x32080b01,              /* v_add_co_u32 v4, vcc, v1, v5 */
   0xd11c6a06, 0x01a90107,  /* v_addc_co_u32 v6, vcc, v7, 0, vcc */
   0xd28f0008, 0x00020882,  /* v_lshlrev_b64 v[8:9], 2, v[4:5] */
   0xd285000a, 0x00000901,  /* v_mul_lo_u32 v10, v1, s4 */
   0xd108000b, 0x0001070a,  /* v_mul_u32_u24 v11, v10, 3 */
   0x2218169f,              /* v_ashrrev_i32 v12, 31, v11 */
   0xd1fd000d, 0x0405050c,  /* v_lshl_add_u32 v13, v12, 2, v1 */
   0x7d920501,              /* v_cmp_lt_u32 vcc, v1, v2 */
   0x001c0501,              /* v_cndmask_b32 v14, v1, v2, vcc */
   0xd0440006, 0x0001e503,  /* v_cmp_gt_f32 s[6:7], v3, 1.0 */
   0x021e1d03,              /* v_add_f32 v15, v3, v14 */
   0xd1050010, 0x00000b0f,  /* v_mul_f32 v16, v15, s5 */
   0xd1cb0411, 0x240e1f10,  /* v_fma_f32 v17, -v16, v15, |v3| */
   0x2c242310,              /* v_mac_f32 v18, v16, v17 */
   0xd1020013, 0x0001e112,  /* v_sub_f32 v19, v18, 0.5 */
   0xdc508000, 0x147f0008,  /* global_load_dword v20, v[8:9], off */
   0x80088404,              /* s_add_u32 s8, s4, 4 */
   0x82098005,              /* s_addc_u32 s9, s5, 0 */
   0x920a0908,              /* s_mul_i32 s10, s8, s9 */
   0x8e8c8208,              /* s_lshl_b64 s[12:13], s[8:9], 2 */
   0x868e7e0c,              /* s_and_b64 s[14:15], s[12:13], exec */
   0xbf04870a,              /* s_cmp_lt_i32 s10, 7 */
   0x8590800e,              /* s_cselect_b64 s[16:17], s[14:15], 0 */
   0xbe92206a,              /* s_and_saveexec_b64 s[18:19], vcc */
   0xbf85ffec,              /* s_cbranch_scc1 -20 */
};

void
sim__xlate_warm(void)
{
   enum { N = sizeof(xl_warm_code) / sizeof(xl_warm_code[0]) };
   if (!sim__xlate_jit_ready())
      return;
   sim_inst *slots = calloc(N, sizeof(*slots));
   const sim_inst *insts[N];
   unsigned n = 0;
   if (!slots)
      return;
   const sim_target *t = sim__target(SIM_TARGET_GFX906);
   for (size_t at = 0; at < N; at += slots[at].size / 4) {
      sim__decode(t, &xl_warm_code[at], (N - at) * 4, &slots[at]);
      if (!slots[at].size)
         break;
      insts[n++] = &slots[at];
   }
   LLVMOrcResourceTrackerRef rt = NULL;
   xl_ent e;
   memset(&e, 0, sizeof(e));
   e.lanes = 64;
   pthread_mutex_lock(&xl_lock);
   xl_fn fn = xl_compile(&rt, t, 0x1000, &e, insts, n, true);
   if (rt) {
      LLVMErrorRef err = LLVMOrcResourceTrackerRemove(rt);
      if (err)
         LLVMConsumeError(err);
      LLVMOrcReleaseResourceTracker(rt);
   }
   pthread_mutex_unlock(&xl_lock);
   if (!fn || e.n != n)
      fprintf(stderr, "hsacl-sim: the translator's warm-up block did not compile whole "
              "(%u of %u instructions)\n", e.n, n);
   free(slots);
}

const xl_ent *
sim__xlate_entry(const sim_program *p, uint64_t pc, bool exec_const)
{
   struct sim_xlate_prog *xp = __atomic_load_n(&p->xlate, __ATOMIC_ACQUIRE);
   return xp ? &xp->ent[(exec_const ? xp->nent : 0) + ((pc - p->va) >> 2)] : NULL;
}

/* The work threshold, past the run count: has the block at `pc`, run `h` times, been
 * interpreted for about as long as compiling it takes? A compile costs about as much as
 * interpreting a million instructions (30-50 ms against 15-50 ns a vector instruction);
 * compiling once the interpretation so far has cost a fixed share of that (ski rental:
 * interpret until what was spent equals the price, then buy) keeps a process from paying
 * more than about twice the better of "never compile" and "compile at once", whatever
 * the block does next. Short runs (most tests) then compile nothing. */
static bool
xl_worth(sim_wave *w, sim_program *p, uint64_t pc, xl_ent *e, uint32_t h, unsigned scale)
{
   unsigned len = __atomic_load_n(&e->len, __ATOMIC_RELAXED);
   if (!len) {
      const sim_inst *insts[XL_MAX_INSTS];
      len = sim__xlate_form(w, p, pc, insts, XL_MAX_INSTS);
      if (!len) {
         __atomic_store_n(&e->state, XL_ENT_NEVER, __ATOMIC_RELAXED);
         return false;
      }
      __atomic_store_n(&e->len, (uint16_t)len, __ATOMIC_RELAXED);
   }
   return (uint64_t)h * len >=
          xl_work * scale * atomic_load_explicit(&xl_work_scale, memory_order_relaxed);
}

/* The block's function at `pc` for `w`'s EXEC, compiling it when it has become hot; NULL:
 * interpret. A wave whose EXEC is a prefix of its lanes runs the constant-EXEC variant when
 * it was compiled for that EXEC, and makes it when it is cold; otherwise (or meanwhile) the
 * general one. A constant variant of a block whose general one is compiled waits for
 * XL_CONST_AGAIN times the work threshold: what it saves is a share of a translated run
 * (a tenth for full waves, half for one-lane ones), not an interpreted one. */
#define XL_CONST_AGAIN 128
static xl_ent *__attribute__((noinline))
xl_lookup_slow(sim_wave *w, sim_program *p, uint64_t pc, bool leader)
{
   struct sim_xlate_prog *xp = __atomic_load_n(&p->xlate, __ATOMIC_ACQUIRE);
   if (SIM_UNLIKELY(!xp)) {
      pthread_mutex_lock(&xl_lock);
      xp = p->xlate;
      if (!xp) {
         xp = calloc(1, sizeof(*xp));
         if (xp) {
            xp->nent = p->size / 4 + 1;
            xp->ent = calloc(2 * xp->nent, sizeof(xl_ent));
         }
         if (xp && !xp->ent) {
            free(xp);
            xp = NULL;
         }
         if (xp)
            __atomic_store_n(&p->xlate, xp, __ATOMIC_RELEASE);
      }
      pthread_mutex_unlock(&xl_lock);
      if (!xp)
         return NULL;
   }
   size_t i = (pc - p->va) >> 2;
   xl_ent *g = &xp->ent[i], *e = g;
   unsigned cl = xl_prefix_lanes(SIM_EXEC(w));
   if (cl) {
      xl_ent *c = &xp->ent[xp->nent + i];
      uint32_t cs = __atomic_load_n(&c->state, __ATOMIC_ACQUIRE);
      if (SIM_LIKELY(cs == XL_ENT_DONE && c->exec_lanes == cl))
         return c;
      if (cs == XL_ENT_COLD || cs == XL_ENT_QUEUED)
         e = c; /* the wave's own variant is still to come */
   }
   bool gdone = __atomic_load_n(&g->state, __ATOMIC_ACQUIRE) == XL_ENT_DONE;
   if (SIM_LIKELY(e == g && gdone))
      return g;
   xl_ent *run = gdone ? g : NULL;
   if (!leader || __atomic_load_n(&e->state, __ATOMIC_RELAXED) == XL_ENT_NEVER)
      return run;
   uint32_t h = __atomic_load_n(&e->hits, __ATOMIC_RELAXED) + 1;
   __atomic_store_n(&e->hits, h, __ATOMIC_RELAXED);
   if (h < xl_hot || __atomic_load_n(&e->state, __ATOMIC_RELAXED) != XL_ENT_COLD)
      return run;
   if (w->lanes != 32 && w->lanes != 64)
      return NULL; /* the lowering knows these two wave sizes */
   if (xl_work && !xl_worth(w, p, pc, e, h, run ? XL_CONST_AGAIN : 1))
      return run;
   /* Relaxed: the mode drops to 0 when the JIT cannot be made (xl_jit_setup). */
   if (__atomic_load_n(&sim__xlate_mode, __ATOMIC_RELAXED) != 2) {
      sim__xlate_enqueue(w, p, pc, e);
      return run;
   }
   /* The checking mode compiles on the wave's thread: every block is compared from its
    * first run on. Another thread compiling: interpret meanwhile. */
   sim__xlate_start();
   if (!sim__xlate_jit_ready()) {
      __atomic_store_n(&e->state, XL_ENT_NEVER, __ATOMIC_RELAXED);
      return run;
   }
   if (sim__xlate_forked || pthread_mutex_trylock(&xl_lock) != 0)
      return run;
   if (__atomic_load_n(&e->state, __ATOMIC_RELAXED) == XL_ENT_COLD) {
      sim__xlate_take(w, p, e);
      const sim_inst *insts[XL_MAX_INSTS];
      unsigned n = sim__xlate_form(w, p, pc, insts, XL_MAX_INSTS);
      xl_fn fn = n ? xl_compile(&p->xlate->rt, p->target, pc, e, insts, n, false) : NULL;
      e->fn = fn;
      __atomic_store_n(&e->state, fn ? XL_ENT_DONE : XL_ENT_NEVER, __ATOMIC_RELEASE);
   }
   pthread_mutex_unlock(&xl_lock);
   return __atomic_load_n(&e->state, __ATOMIC_ACQUIRE) == XL_ENT_DONE ? e : run;
}

/* xl_lookup_slow's common case inline (a compiled block for the wave's EXEC): the call's
 * prologue and the entry loads were a tenth of a one-lane wave's host instructions. */
static inline xl_ent *
xl_lookup(sim_wave *w, sim_program *p, uint64_t pc, bool leader)
{
   struct sim_xlate_prog *xp = __atomic_load_n(&p->xlate, __ATOMIC_ACQUIRE);
   if (SIM_LIKELY(xp != NULL)) {
      size_t i = (pc - p->va) >> 2;
      unsigned cl = xl_prefix_lanes(SIM_EXEC(w));
      xl_ent *e = cl ? &xp->ent[xp->nent + i] : &xp->ent[i];
      if (SIM_LIKELY(__atomic_load_n(&e->state, __ATOMIC_ACQUIRE) == XL_ENT_DONE &&
                     e->exec_lanes == cl))
         return e;
   }
   return xl_lookup_slow(w, p, pc, leader);
}

/* ---- The checking mode ---------------------------------------------------------------- */

/* The block runs on the wave; a copy of the wave state at its entry (`ref`) runs the same
 * instructions in the interpreter. At each instruction the block hands to the interpreter
 * (memory, calls) and at its end, the reference is brought up to the same point and the
 * two register files must agree; then the call runs once, on the wave, and the reference
 * takes the wave's registers (memory is touched once, by the same handler). */
typedef struct xl_check {
   sim_wave ref;
   uint32_t (*rows)[64];
   const sim_inst **insts;
   unsigned n, next; /* instructions in the block; the reference's next */
   uint64_t start;
   bool stopped;     /* a call stopped the block (the reference does not go on) */
   /* A lowered store in progress: the bytes it may write as they were before it, and
    * which of them its lanes write (snap_mask; NULL: all). */
   uint8_t *snap_at, *snap, *snap_mask;
   size_t snap_len;
} xl_check;

static unsigned
xl_nrows(const sim_wave *w)
{
   return w->nagpr ? 256 + w->nagpr : w->nvgpr;
}

static void
xl_check_take(xl_check *k, const sim_wave *w)
{
   uint32_t (*rows)[64] = k->ref.v;
   k->ref = *w;
   k->ref.v = rows;
   memcpy(rows, w->v, (size_t)xl_nrows(w) * 256);
}

/* Lowered VALU forms that write a VGPR pair (the failure message names their writer). */
static bool
xl_writes_pair(const sim_inst *in)
{
   return in->op == SIM_OP_v_lshlrev_b64 || in->op == SIM_OP_v_mad_u64_u32 ||
          in->op == SIM_OP_v_mad_i64_i32;
}

static void __attribute__((noreturn))
xl_check_fail(xl_check *k, const char *what, unsigned reg, unsigned lane, uint32_t got,
              uint32_t want)
{
   /* Name the last instruction before this point that writes the register. */
   char dis[160] = "?";
   unsigned from = 0;
   for (unsigned i = 0; i < k->next && i < k->n; i++)
      if (sim__xlate_class(k->insts[i]) != SIM_XL_LOWER)
         from = i + 1;
   for (unsigned i = from; i < k->next && i < k->n; i++)
      if (k->insts[i]->vdst == reg || k->insts[i]->sdst == reg ||
          ((unsigned)k->insts[i]->vdst + 1 == reg && xl_writes_pair(k->insts[i])))
         sim__disasm(k->insts[i], dis, sizeof(dis));
   fprintf(stderr,
           "hsacl-sim: HSACL_SIM_XLATE=check: block at pc 0x%llx differs from the interpreter "
           "before instruction %u of %u: %s%u lane %u: translated 0x%08x, interpreted 0x%08x "
           "(last written by %s)\n",
           (unsigned long long)k->start, k->next, k->n, what, reg, lane, got, want, dis);
   abort();
}

/* The reference has just run instruction `i` (`in`), which the block went past (an access
 * the block faults on calls the handler, which stops the block there): the interpreter must
 * not have faulted on it. It reports the fault to the dispatch either way, so only this
 * tells a range check that misses a lane. */
static void
xl_check_ran(const xl_check *k, const sim_inst *in, unsigned i)
{
   if (SIM_LIKELY(k->ref.status != SIM_WAVE_FAULT))
      return;
   char dis[160];
   sim__disasm(in, dis, sizeof(dis));
   fprintf(stderr, "hsacl-sim: HSACL_SIM_XLATE=check: block at pc 0x%llx ran instruction %u "
           "(%s), on which the interpreter faults\n", (unsigned long long)k->start, i, dis);
   abort();
}

/* Runs the reference up to instruction `upto` and compares. */
static void
xl_check_sync(xl_check *k, sim_wave *w, unsigned upto)
{
   sim_wave *r = &k->ref;
   while (k->next < upto) {
      const sim_inst *in = k->insts[k->next];
      r->inst_pc = r->pc;
      r->pc += in->size;
      in->fn(r, in);
      xl_check_ran(k, in, k->next);
      if (k->next + 1 < upto && r->pc != r->inst_pc + in->size) {
         fprintf(stderr, "hsacl-sim: HSACL_SIM_XLATE=check: block at pc 0x%llx went on past "
                 "instruction %u, a branch the interpreter takes to 0x%llx\n",
                 (unsigned long long)k->start, k->next, (unsigned long long)r->pc);
         abort();
      }
      k->next++;
   }
   for (unsigned i = 0; i < 128; i++)
      if (w->s[i] != r->s[i])
         xl_check_fail(k, "s", i, 0, w->s[i], r->s[i]);
   if (w->scc != r->scc)
      xl_check_fail(k, "scc", 0, 0, w->scc, r->scc);
   for (unsigned v = 0; v < xl_nrows(w); v++)
      for (unsigned l = 0; l < 64; l++)
         if (w->v[v][l] != r->v[v][l])
            xl_check_fail(k, "v", v, l, w->v[v][l], r->v[v][l]);
}

/* The index of `in` in the block from the reference's next instruction on. */
static unsigned
xl_check_index(xl_check *k, const sim_inst *in)
{
   unsigned i = k->next;
   while (i < k->n && k->insts[i] != in)
      i++;
   if (i == k->n) {
      fprintf(stderr, "hsacl-sim: HSACL_SIM_XLATE=check: block at 0x%llx called an "
              "instruction it does not hold\n", (unsigned long long)k->start);
      abort();
   }
   return i;
}

static int
xl_check_call(xl_check *k, sim_wave *w, const sim_inst *in)
{
   unsigned i = xl_check_index(k, in);
   xl_check_sync(k, w, i);
   in->fn(w, in);
   xl_check_take(k, w);
   k->next = i + 1;
   k->stopped = w->status != SIM_WAVE_RUNNING || w->doorbell_va != 0;
   return k->stopped;
}

/* Where the block leaves the wave after instruction `i` (`how`: it left, looped, ended)
 * must be where the reference is: the PC, whether it yields or stopped, the slice. */
static void
xl_check_where(const xl_check *k, const sim_wave *w, const char *how, unsigned i)
{
   if (w->pc == k->ref.pc && w->status == k->ref.status && w->slice == k->ref.slice)
      return;
   fprintf(stderr, "hsacl-sim: HSACL_SIM_XLATE=check: block at 0x%llx %s after instruction "
           "%u at pc 0x%llx status %u slice %u, the interpreter is at 0x%llx status %u slice "
           "%u\n",
           (unsigned long long)k->start, how, i, (unsigned long long)w->pc, w->status,
           w->slice, (unsigned long long)k->ref.pc, k->ref.status, k->ref.slice);
   abort();
}

/* A side exit after `in` (exec_guard's in a narrowed block, emit_side_branch's at a taken
 * branch; the block has stored its registers and PC): the reference runs up to there and
 * must agree on them and on where the wave goes on and whether it yields, and the block's
 * end is not compared. */
static void
xl_check_exit(sim_wave *w, const sim_inst *in)
{
   xl_check *k = xl_check_cur;
   if (!k)
      return;
   unsigned i = 0;
   while (i < k->n && k->insts[i] != in)
      i++;
   xl_check_sync(k, w, i + 1 > k->next ? i + 1 : k->next);
   xl_check_where(k, w, "left", i);
   k->stopped = true;
}

/* A branch back to the block's start that the block takes in its own code (emit_loop_back):
 * the reference runs up to it and must agree on the registers, the PC (the start) and the
 * slice; the block's instructions are then compared again from the first. */
static void
xl_check_loop(sim_wave *w, const sim_inst *in)
{
   xl_check *k = xl_check_cur;
   if (!k)
      return;
   unsigned i = xl_check_index(k, in);
   xl_check_sync(k, w, i + 1);
   xl_check_where(k, w, "loops", i);
   k->next = 0;
}

/* A lowered store writes memory in the block's own code, which the reference must not do
 * a second time unseen: the block has stored its registers before the hook. Stores of more
 * than SIM_XLATE_CHECK_SNAP_MAX bytes' span are not compared (the reference's handler writes
 * them again). Only the bytes the store's lanes write are put back and compared: between
 * them, in the span, waves of other work-groups on other threads store at the same time
 * (mandel's rows), and putting their bytes back would undo those stores. */
void
sim__xlate_check_store_pre(sim_wave *w, const sim_inst *in)
{
   xl_check *k = xl_check_cur;
   if (!k)
      return;
   xl_check_sync(k, w, xl_check_index(k, in));
   free(k->snap);
   free(k->snap_mask);
   k->snap = k->snap_mask = NULL;
   uint8_t *at;
   size_t len;
   if (!sim__xlate_mem_range(&k->ref, in, &at, &len, &k->snap_mask))
      return;
   k->snap = len <= SIM_XLATE_CHECK_SNAP_MAX ? malloc(len) : NULL;
   if (!k->snap) {
      free(k->snap_mask);
      k->snap_mask = NULL;
      return;
   }
   memcpy(k->snap, at, len);
   k->snap_at = at;
   k->snap_len = len;
}

void
sim__xlate_check_store_post(sim_wave *w, const sim_inst *in)
{
   xl_check *k = xl_check_cur;
   (void)w;
   if (!k)
      return;
   unsigned i = xl_check_index(k, in);
   uint8_t *got = k->snap ? malloc(k->snap_len) : NULL;
   const uint8_t *mask = k->snap_mask;
   if (got) {
      memcpy(got, k->snap_at, k->snap_len);
      if (!mask)
         memcpy(k->snap_at, k->snap, k->snap_len);
      else
         for (size_t b = 0; b < k->snap_len; b++)
            if (mask[b])
               k->snap_at[b] = k->snap[b];
   }
   sim_wave *r = &k->ref;
   r->inst_pc = r->pc;
   r->pc += in->size;
   in->fn(r, in);
   xl_check_ran(k, in, i);
   k->next = i + 1;
   for (size_t b = 0; got && b < k->snap_len; b++)
      if ((!mask || mask[b]) && got[b] != k->snap_at[b]) {
         char dis[160];
         sim__disasm(in, dis, sizeof(dis));
         fprintf(stderr, "hsacl-sim: HSACL_SIM_XLATE=check: block at pc 0x%llx, instruction "
                 "%u (%s) stored 0x%02x at host %p, the interpreter 0x%02x\n",
                 (unsigned long long)k->start, i, dis, got[b], (void *)(k->snap_at + b),
                 k->snap_at[b]);
         abort();
      }
   free(got);
   free(k->snap);
   free(k->snap_mask);
   k->snap = k->snap_mask = NULL;
}

static void
xl_run_checked(sim_wave *w, xl_ent *e, uint64_t pc)
{
   static __thread const sim_inst *insts[XL_MAX_INSTS];
   uint32_t (*rows)[64] = malloc((size_t)xl_nrows(w) * 256);
   xl_check *k = malloc(sizeof(*k));
   if (!rows || !k) {
      free(rows);
      free(k);
      e->fn(w, w->v);
      return;
   }
   k->ref.v = rows;
   k->insts = insts;
   k->n = sim__xlate_form(w, w->prog, pc, insts, e->n);
   k->next = 0;
   k->stopped = false;
   k->start = pc;
   k->snap = k->snap_mask = NULL;
   xl_check_take(k, w);
   k->ref.pc = pc;
   xl_check_cur = k;
   e->fn(w, w->v);
   xl_check_cur = NULL;
   /* Ran to its end in its own code (no call last): the reference runs the rest, and the
    * two must agree on where the wave goes on and whether it yields. */
   if (!k->stopped && k->next < k->n) {
      xl_check_sync(k, w, k->n);
      xl_check_where(k, w, "ends", k->n - 1);
   }
   free(k->snap);
   free(k->snap_mask);
   free(k);
   free(rows);
   atomic_fetch_add(&xl_checked, 1);
}

/* The block at `pc` if it may run on `w` now. */
static inline __attribute__((always_inline)) xl_ent *
xl_ready(sim_wave *w, uint64_t pc, bool leader)
{
   sim_program *p = w->prog;
   xl_ent *e = xl_lookup(w, p, pc, leader);
   if (!e || e->max_vgpr > w->nvgpr || ((e->needs & XL_NEEDS_F32) && w->denorm32 != 3) ||
       ((e->needs & XL_NEEDS_F16) && (w->denorm16_64 & 3) != 3) ||
       e->lanes != w->lanes)
      return NULL;
   return e;
}

bool
sim__xlate_run(sim_wave *w, uint64_t pc, bool leader)
{
   sim_program *p = w->prog;
   if (SIM_UNLIKELY(!p || w->gpr_idx_en))
      return false;
   xl_ent *e = xl_ready(w, pc, leader);
   if (!e)
      return false;
   /* Block after block while the wave runs on into translated code (a loop's blocks, each
    * ending in a branch, run without the wave loop; backward branches still yield). */
   do {
      if (SIM_UNLIKELY(sim__xlate_mode == 2))
         xl_run_checked(w, e, w->pc);
      else
         e->fn(w, w->v);
      /* The payoff's count (xl_weigh_payoff): stores only until the mark, so the hot
       * blocks of long runs do not share a written line between threads. */
      uint32_t r = __atomic_load_n(&e->runs, __ATOMIC_RELAXED);
      if (SIM_UNLIKELY((uint64_t)r * e->n < xl_work))
         __atomic_store_n(&e->runs, r + 1, __ATOMIC_RELAXED);
      if (SIM_UNLIKELY(xl_verbose))
         atomic_fetch_add_explicit(&xl_runs, 1, memory_order_relaxed);
      if (w->status != SIM_WAVE_RUNNING || w->doorbell_va || w->gpr_idx_en)
         break;
      /* Elsewhere (another code allocation, a misaligned PC): the wave loop fetches, and
       * faults as it would. */
      p = w->prog;
      if (w->pc - p->va >= p->size || (w->pc & 3))
         break;
      e = xl_ready(w, w->pc, true);
   } while (e);
   return true;
}
