/*
 * The translator's block former (sim_xlate.c): which instructions a block lowers, hands to
 * the interpreter from inside, skips or ends with, and where it stops. The translated code
 * itself is checked against the interpreter by HSACL_SIM_XLATE=check over the instruction
 * tests and kernels (tests/CMakeLists.txt). With the argument "fork": a child of fork
 * interprets a hot block instead of hanging, even when another thread held the JIT while
 * the parent forked, and the parent's worker compiles on. With "budget": a block cut by the
 * compile budget still takes its end when nothing else is left. With "exec-const": a wave whose
 * EXEC is a prefix of its lanes compiles the block's constant-EXEC variant, others the
 * general one. With "loop": a branch back to a block's start loops in the block's code.
 * With "nollvm": without its libLLVM the translator says so once and interprets.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "sim_xlate_priv.h"

/* The interpreter's memory lookup: nothing is executed here. */
const sim_alloc *sim__mem_find(uint64_t va);
const sim_alloc *
sim__mem_find(uint64_t va)
{
   (void)va;
   return NULL;
}

static int failures;
#define CHECK_EQ(got, want)                                                                 \
   do {                                                                                     \
      long long g_ = (long long)(got), w_ = (long long)(want);                              \
      if (g_ != w_) {                                                                       \
         fprintf(stderr, "FAIL %s:%d: %s = %lld, want %lld\n", __FILE__, __LINE__, #got, g_, \
                 w_);                                                                       \
         failures++;                                                                        \
      }                                                                                     \
   } while (0)

static void
nop_handler(sim_wave *w, const sim_inst *in)
{
   (void)w, (void)in;
}

static sim_inst
mk(sim_enc enc, sim_op op, uint16_t flags, unsigned s0, unsigned s1, unsigned s2,
   unsigned vdst)
{
   sim_inst in;
   memset(&in, 0, sizeof(in));
   in.fn = nop_handler;
   in.enc = (uint8_t)enc;
   in.op = (uint16_t)op;
   in.size = 4;
   in.flags = flags;
   in.src[0] = (uint16_t)s0, in.src[1] = (uint16_t)s1, in.src[2] = (uint16_t)s2;
   in.vdst = (uint16_t)vdst;
   in.sdst = SIM_SRC_NONE;
   return in;
}

#define V(n) (SIM_SRC_VGPR + (n))
#define NONE SIM_SRC_NONE

/* ---- fork ---------------------------------------------------------------------------- */

/* v_add_u32 v1, v2, v3; s_add_u32 s8, s4, 4; s_endpgm (llvm-mc-19 -mcpu=gfx906). */
static const uint32_t fork_code[] = {0x68020702, 0x80088404, 0xbf810000};

typedef struct {
   sim_program p;
   sim_inst slots[8];
   sim_wave w;
} fork_prog;

/* A program of `n` (up to 8) one-dword instructions `code` at `va`, and a wave64 to run
 * it. */
static void
prog_init_n(fork_prog *f, uint64_t va, const uint32_t *code, unsigned n)
{
   memset(f, 0, sizeof(*f));
   const sim_target *t = sim__target(SIM_TARGET_GFX906);
   for (unsigned i = 0; i < n; i++)
      sim__decode(t, &code[i], 4, &f->slots[i]);
   f->p.target = t;
   f->p.va = va;
   f->p.size = n * 4;
   f->p.slots = f->slots;
   f->w.target = t;
   f->w.lanes = 64; /* a wave64, as a gfx906 dispatch makes it (blocks are per wave size) */
   f->w.lane_mask = ~0ull;
   f->w.prog = &f->p;
}

static void
prog_init(fork_prog *f, uint64_t va, const uint32_t code[3])
{
   prog_init_n(f, va, code, 3);
}

static void
fork_prog_init(fork_prog *f, uint64_t va)
{
   prog_init(f, va, fork_code);
}

/* Makes the block at the program's start hot (HSACL_SIM_XLATE_HOT=1: its first run queues
 * it) and waits up to `s` seconds for the worker to publish it: 0 when it did, 2 when the
 * block ran before it was compiled, 3 when it is still queued, 4 when the translator gave
 * up on it (no worker, or the compile failed). */
static int
fork_compiled(fork_prog *f, unsigned s)
{
   if (sim__xlate_run(&f->w, f->p.va, true))
      return 2;
   struct timespec t0, t;
   clock_gettime(CLOCK_MONOTONIC, &t0);
   do {
      /* The entry the wave's EXEC picks: the constant variant for a prefix of the lanes,
       * unless it was made for another one. */
      uint64_t x = SIM_EXEC(&f->w);
      const sim_xlate_ent *c = sim__xlate_entry(&f->p, f->p.va, true);
      bool pre = x && !(x & (x + 1));
      bool other = c && __atomic_load_n(&c->state, __ATOMIC_ACQUIRE) == XL_ENT_DONE &&
                   c->exec_lanes != (unsigned)__builtin_popcountll(x);
      const sim_xlate_ent *e = sim__xlate_entry(&f->p, f->p.va, pre && !other);
      uint32_t st = e ? __atomic_load_n(&e->state, __ATOMIC_ACQUIRE) : XL_ENT_COLD;
      if (st == XL_ENT_DONE)
         return 0;
      if (st == XL_ENT_NEVER)
         return 4;
      usleep(1000);
      clock_gettime(CLOCK_MONOTONIC, &t);
   } while (t.tv_sec - t0.tv_sec < (time_t)s);
   return 3;
}

static void *
hold_jit(void *arg)
{
   (void)arg;
   pthread_mutex_lock(&sim__xlate_jit_lock);
   usleep(200 * 1000);
   pthread_mutex_unlock(&sim__xlate_jit_lock);
   return NULL;
}

/* Starts the translator with every block hot at once; false (a failure counted) if it
 * did not start. */
static bool
translator_started(void)
{
   setenv("HSACL_SIM_XLATE", "1", 1);
   setenv("HSACL_SIM_XLATE_HOT", "1", 1);
   sim__xlate_init();
   if (sim__xlate_mode != 1) {
      fprintf(stderr, "FAIL: the translator did not start (mode %d)\n", sim__xlate_mode);
      failures++;
      return false;
   }
   return true;
}

/* The parent's worker has compiled a block; another thread holds the JIT (as a program's
 * free does) when the parent forks. The child must not hang on a hot block: it interprets
 * it (its translator compiles nothing: sim_xlate_worker.c), where a JIT lock it inherited
 * locked would never be released. The parent's worker goes on compiling after the fork. */
static void
test_fork(void)
{
   if (!translator_started())
      return;
   static fork_prog a, b;
   fork_prog_init(&a, 0x10000);
   fork_prog_init(&b, 0x20000);
   CHECK_EQ(fork_compiled(&a, 60), 0);
   pthread_t t;
   pthread_create(&t, NULL, hold_jit, NULL);
   usleep(20 * 1000); /* the helper holds the JIT */
   fflush(NULL);
   pid_t pid = fork();
   if (pid == 0) {
      alarm(90); /* a child stuck on a lock dies of SIGALRM */
      _exit(fork_compiled(&b, 60) == 4 ? 0 : 5);
   }
   pthread_join(t, NULL);
   int st = 0;
   CHECK_EQ(waitpid(pid, &st, 0), pid);
   CHECK_EQ(WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st), 0);
   CHECK_EQ(fork_compiled(&b, 60), 0);
   sim__xlate_program_free(&a.p);
   sim__xlate_program_free(&b.p);
}

/* ---- The compile budget ------------------------------------------------------------- */

/* v_add_u32 v1, v2, v3; s_waitcnt 0; s_endpgm (llvm-mc-19 -mcpu=gfx906). */
static const uint32_t end_code[] = {0x68020702, 0xbf8c0000, 0xbf810000};

/* With a budget of one IR instruction, every lowered instruction passes it. A block whose
 * only instruction left is its end (behind a no-op) takes it: cut, the end would be
 * interpreted, a trip through the wave loop. One with more left is still cut after its
 * first instruction (the budget still bounds a block). */
static void
test_budget(void)
{
   setenv("HSACL_SIM_XLATE_IR_MAX", "1", 1);
   if (!translator_started())
      return;
   static fork_prog a, b;
   prog_init(&a, 0x10000, end_code);
   prog_init(&b, 0x20000, fork_code);
   CHECK_EQ(fork_compiled(&a, 60), 0);
   CHECK_EQ(fork_compiled(&b, 60), 0);
   const sim_xlate_ent *ea = sim__xlate_entry(&a.p, a.p.va, false);
   const sim_xlate_ent *eb = sim__xlate_entry(&b.p, b.p.va, false);
   CHECK_EQ(ea ? ea->n : 0, 3);
   CHECK_EQ(eb ? eb->n : 0, 1);
   sim__xlate_program_free(&a.p);
   sim__xlate_program_free(&b.p);
}

/* ---- Registers at the end ----------------------------------------------------------- */

/* A block ending in s_endpgm (end_code: v1 = v2 + v3) stores the registers it changed for
 * a wave whose registers are read after it ends (a test's: regs_dead_at_end clear), and
 * leaves them for a dispatch's wave, whose registers nothing reads then. */
static void
test_end_regs(void)
{
   if (!translator_started())
      return;
   static fork_prog a;
   static uint32_t rows[8][64];
   prog_init(&a, 0x10000, end_code);
   a.w.v = rows;
   a.w.nvgpr = 8;
   SIM_EXEC(&a.w) = ~0ull;
   CHECK_EQ(fork_compiled(&a, 60), 0);
   for (int dead = 0; dead < 2; dead++) {
      for (unsigned l = 0; l < 64; l++)
         rows[1][l] = 7, rows[2][l] = l, rows[3][l] = 100;
      a.w.regs_dead_at_end = dead;
      a.w.pc = a.p.va;
      a.w.status = SIM_WAVE_RUNNING;
      CHECK_EQ(sim__xlate_run(&a.w, a.p.va, true), 1);
      CHECK_EQ(a.w.status, SIM_WAVE_ENDED);
      CHECK_EQ(a.w.pc, a.p.va + 12);
      CHECK_EQ(rows[1][5], dead ? 7 : 105);
      CHECK_EQ(rows[1][63], dead ? 7 : 163);
   }
   sim__xlate_program_free(&a.p);
}

/* ---- The constant-EXEC variant -------------------------------------------------------- */

static uint32_t
ent_state(const fork_prog *f, bool exec_const)
{
   const sim_xlate_ent *e = sim__xlate_entry(&f->p, f->p.va, exec_const);
   return e ? __atomic_load_n(&e->state, __ATOMIC_ACQUIRE) : XL_ENT_COLD;
}

static unsigned
ent_exec_lanes(const fork_prog *f)
{
   const sim_xlate_ent *e = sim__xlate_entry(&f->p, f->p.va, true);
   return e && __atomic_load_n(&e->state, __ATOMIC_ACQUIRE) == XL_ENT_DONE ? e->exec_lanes
                                                                            : 0;
}

/* Each block start has two entries (sim_xlate.c): a wave whose EXEC is a prefix of its
 * lanes (every lane, a partial wave's, one work-item's) compiles the constant-EXEC variant
 * for that EXEC and leaves the general one cold; a wave with another EXEC, or with another
 * prefix once the variant is made, compiles the general one. Which one runs, and that it
 * computes what the interpreter does, is the checking mode's part (a constant variant run
 * for other EXECs fails every kernel test there). */
static void
test_exec_const(void)
{
   if (!translator_started())
      return;
   static fork_prog a, b, c;
   prog_init(&a, 0x10000, end_code);
   SIM_EXEC(&a.w) = a.w.lane_mask;
   CHECK_EQ(fork_compiled(&a, 60), 0);
   CHECK_EQ(ent_state(&a, true), XL_ENT_DONE);
   CHECK_EQ(ent_exec_lanes(&a), 64);
   CHECK_EQ(ent_state(&a, false), XL_ENT_COLD);
   SIM_EXEC(&a.w) = 0x8000000000000001ull; /* not a prefix */
   CHECK_EQ(fork_compiled(&a, 60), 0);
   CHECK_EQ(ent_state(&a, false), XL_ENT_DONE);

   prog_init(&b, 0x20000, end_code); /* a wave32 with all its lanes */
   b.w.lanes = 32, b.w.lane_mask = 0xFFFFFFFFull;
   SIM_EXEC(&b.w) = 0xFFFFFFFFull;
   CHECK_EQ(fork_compiled(&b, 60), 0);
   CHECK_EQ(ent_state(&b, true), XL_ENT_DONE);
   CHECK_EQ(ent_exec_lanes(&b), 32);
   CHECK_EQ(ent_state(&b, false), XL_ENT_COLD);
   const sim_xlate_ent *e = sim__xlate_entry(&b.p, b.p.va, true);
   CHECK_EQ(e ? e->lanes : 0, 32);

   prog_init(&c, 0x30000, end_code); /* one work-item a wave, then a full wave */
   SIM_EXEC(&c.w) = 1;
   CHECK_EQ(fork_compiled(&c, 60), 0);
   CHECK_EQ(ent_exec_lanes(&c), 1);
   CHECK_EQ(ent_state(&c, false), XL_ENT_COLD);
   SIM_EXEC(&c.w) = c.w.lane_mask;
   CHECK_EQ(fork_compiled(&c, 60), 0);
   CHECK_EQ(ent_state(&c, false), XL_ENT_DONE);
   CHECK_EQ(ent_exec_lanes(&c), 1);
   sim__xlate_program_free(&a.p);
   sim__xlate_program_free(&b.p);
   sim__xlate_program_free(&c.p);
}

/* ---- Loops in a block's own code ------------------------------------------------------ */

/* v_add_u32 v1, v1, v2; s_add_u32 s0, s0, 1; s_cmp_lt_u32 s0, s1; s_cbranch_scc1 -4 (the
 * first instruction); s_endpgm. */
static const uint32_t loop_code[] = {0x68020501, 0x80008100, 0xbf0a0100, 0xbf85fffc,
                                     0xbf810000};
/* The same with s_lshl_b64 exec, exec, 1 after the v_add_u32 (s_cbranch_scc1 -5). */
static const uint32_t loop_exec_code[] = {0x68020501, 0x8efe817e, 0x80008100, 0xbf0a0100,
                                          0xbf85fffb, 0xbf810000};

static uint32_t loop_rows[3][64] __attribute__((aligned(64)));

/* The wave at the program's start with s0 = 0, s1 = `n`, v1 = 0, v2 = the lane, EXEC
 * `exec`. */
static void
loop_wave(fork_prog *f, uint32_t n, uint64_t exec)
{
   sim_wave *w = &f->w;
   memset(loop_rows, 0, sizeof(loop_rows));
   for (unsigned l = 0; l < 64; l++)
      loop_rows[2][l] = l;
   w->v = loop_rows;
   w->nvgpr = 3;
   w->s[0] = 0, w->s[1] = n, w->scc = 0;
   SIM_EXEC(w) = exec;
   w->pc = f->p.va;
   w->status = SIM_WAVE_RUNNING;
   w->slice = SIM_WAVE_SLICE;
}

/* The program `code` (n instructions) at `va`, its first block compiled from a full wave. */
static void
loop_compiled(fork_prog *f, uint64_t va, const uint32_t *code, unsigned n)
{
   prog_init_n(f, va, code, n);
   loop_wave(f, 10, ~0ull);
   CHECK_EQ(fork_compiled(f, 60), 0);
}

/* One call of the block's code at the program's start (the constant-EXEC variant when
 * `exec_const`). */
static void
loop_call(fork_prog *f, bool exec_const)
{
   const sim_xlate_ent *e = sim__xlate_entry(&f->p, f->p.va, exec_const);
   if (!e || !e->fn) {
      fprintf(stderr, "FAIL: no code for the loop's block\n");
      failures++;
      return;
   }
   e->fn(&f->w, f->w.v);
}

/* A branch back to the block's first instruction goes on there in the block's code: one
 * call runs the whole loop (the wave loop, the lookup and the call are not paid per
 * iteration), counting the wave's slice as the interpreter's backward branches do and
 * yielding where they would; a constant-EXEC variant returns to the wave loop at the
 * branch once EXEC is no longer its constant. */
static void
test_loop(void)
{
   if (!translator_started())
      return;
   static fork_prog a, b;
   loop_compiled(&a, 0x10000, loop_code, 5);
   loop_wave(&a, 10, ~0ull);
   loop_call(&a, true);
   CHECK_EQ(a.w.s[0], 10);
   CHECK_EQ(loop_rows[1][63], 10 * 63);
   CHECK_EQ(a.w.status, SIM_WAVE_ENDED);
   CHECK_EQ(a.w.pc, a.p.va + 5 * 4);
   CHECK_EQ(a.w.slice, SIM_WAVE_SLICE - 9);

   /* More iterations than a slice: the 1024th taken branch yields, at the start. */
   loop_wave(&a, 3000, ~0ull);
   loop_call(&a, true);
   CHECK_EQ(a.w.s[0], SIM_WAVE_SLICE);
   CHECK_EQ(loop_rows[1][5], SIM_WAVE_SLICE * 5);
   CHECK_EQ(a.w.status, SIM_WAVE_YIELD);
   CHECK_EQ(a.w.slice, SIM_WAVE_SLICE);
   CHECK_EQ(a.w.pc, a.p.va);

   /* EXEC loses a lane each iteration: the full-EXEC variant's code runs one. */
   loop_compiled(&b, 0x20000, loop_exec_code, 6);
   loop_wave(&b, 10, ~0ull);
   loop_call(&b, true);
   CHECK_EQ(b.w.s[0], 1);
   CHECK_EQ(SIM_EXEC(&b.w), ~0ull << 1);
   CHECK_EQ(loop_rows[1][63], 63);
   CHECK_EQ(b.w.status, SIM_WAVE_RUNNING);
   CHECK_EQ(b.w.pc, b.p.va);
   CHECK_EQ(b.w.slice, SIM_WAVE_SLICE - 1);
   sim__xlate_program_free(&a.p);
   sim__xlate_program_free(&b.p);
}

/* ---- The payoff of compiles ------------------------------------------------------------- */

/* A program freed with its compiled block never run translated doubles the work
 * threshold's multiplier (sim_xlate.c xl_weigh_payoff); past the doubled threshold a block
 * compiles no longer at the old one; a freed program whose block ran translated halves it.
 * HSACL_SIM_XLATE_WORK=1: the threshold is a block's runs times its length >= 1 x the
 * multiplier, and one translated run repays a compile. */
/* Runs the program's first block (interpreted) until it is compiled, up to `max` runs, a
 * second's wait after each: the runs it took, 0 if it never was. */
static unsigned
runs_to_compile(fork_prog *f, unsigned max)
{
   for (unsigned i = 1; i <= max; i++)
      if (fork_compiled(f, 1) == 0)
         return i;
   return 0;
}

static void
test_payoff(void)
{
   setenv("HSACL_SIM_XLATE_WORK", "1", 1);
   if (!translator_started())
      return;
   static fork_prog a;
   CHECK_EQ(sim__xlate_work_scale(), 1);
   for (unsigned i = 0; i < 3; i++) {
      prog_init(&a, 0x10000 + 0x1000 * i, fork_code);
      CHECK_EQ(runs_to_compile(&a, 4) != 0, true);
      sim__xlate_program_free(&a.p);
      CHECK_EQ(sim__xlate_work_scale(), 2u << i);
   }
   /* x8: the loop's block (5 instructions) compiles on its second run, not its first. */
   prog_init_n(&a, 0x20000, loop_code, 5);
   loop_wave(&a, 10, ~0ull);
   CHECK_EQ(runs_to_compile(&a, 4), 2);
   /* One translated run of the whole loop repays it. */
   loop_wave(&a, 10, ~0ull);
   CHECK_EQ(sim__xlate_run(&a.w, a.p.va, true), true);
   CHECK_EQ(a.w.s[0], 10);
   sim__xlate_program_free(&a.p);
   CHECK_EQ(sim__xlate_work_scale(), 4);
}

/* ---- Without libLLVM ------------------------------------------------------------------ */

/* Whether a libLLVM is mapped in this process (which does not link it). */
static bool
libllvm_mapped(void)
{
   FILE *f = fopen("/proc/self/maps", "r");
   char line[4096];
   bool mapped = false;
   while (f && fgets(line, sizeof(line), f))
      mapped |= strstr(line, "libLLVM") != NULL;
   if (f)
      fclose(f);
   return mapped;
}

/* libLLVM is opened for the first compile (sim_llvm.c). A library that is not there, or
 * lacks a function of sim_llvm.def, fails the load with the reason; the translator then
 * says "translator disabled" once, gives up on the block, interprets from then on
 * (sim__xlate_mode 0) and frees the program with no JIT to remove code from. */
static void
test_nollvm(void)
{
   char why[600];
   CHECK_EQ(sim__llvm_load_path("/nonexistent/libLLVM.so.19.1", why, sizeof(why)), false);
   CHECK_EQ(strstr(why, "/nonexistent/libLLVM.so.19.1") != NULL, true);
   CHECK_EQ(sim__llvm_load_path("libm.so.6", why, sizeof(why)), false);
   CHECK_EQ(strstr(why, "undefined symbol: LLVM") != NULL, true);
   CHECK_EQ(sim__llvm_LLVMBuildAdd == NULL, true); /* a failed load sets no pointer */

   /* The translator's own load, of a library that is not there; its messages to a file. */
   sim__llvm_libs[0] = "/nonexistent/libLLVM.so.19.1";
   sim__llvm_libs[1] = NULL;
   FILE *err = tmpfile();
   int saved = dup(2);
   if (!err || saved < 0) {
      fprintf(stderr, "FAIL: no temporary file\n");
      failures++;
      return;
   }
   fflush(stderr);
   dup2(fileno(err), 2);
   bool started = translator_started();
   static fork_prog a, b;
   fork_prog_init(&a, 0x10000);
   fork_prog_init(&b, 0x20000);
   int ra = started ? fork_compiled(&a, 10) : -1;
   int rb = started ? fork_compiled(&b, 10) : -1;
   int mode = __atomic_load_n(&sim__xlate_mode, __ATOMIC_ACQUIRE);
   fflush(stderr);
   dup2(saved, 2);
   close(saved);
   CHECK_EQ(started, true);
   CHECK_EQ(ra, 4);
   CHECK_EQ(rb, 4);
   CHECK_EQ(mode, 0);
   CHECK_EQ(libllvm_mapped(), false);
   char text[4096];
   rewind(err);
   size_t len = fread(text, 1, sizeof(text) - 1, err);
   text[len] = 0;
   fclose(err);
   unsigned said = 0;
   for (const char *t = text; (t = strstr(t, "hsacl-sim: translator disabled: ")); t++)
      said++;
   CHECK_EQ(said, 1);
   CHECK_EQ(strstr(text, "/nonexistent/libLLVM.so.19.1") != NULL, true);
   fputs(text, stderr);
   sim__xlate_program_free(&a.p);
   sim__xlate_program_free(&b.p);
   CHECK_EQ(a.p.xlate == NULL && b.p.xlate == NULL, true);
}

int
main(int argc, char **argv)
{
   if (argc > 1 && (!strcmp(argv[1], "fork") || !strcmp(argv[1], "budget") ||
                    !strcmp(argv[1], "exec-const") || !strcmp(argv[1], "loop") ||
                    !strcmp(argv[1], "payoff") || !strcmp(argv[1], "nollvm") ||
                    !strcmp(argv[1], "end-regs"))) {
      if (!strcmp(argv[1], "fork"))
         test_fork();
      else if (!strcmp(argv[1], "exec-const"))
         test_exec_const();
      else if (!strcmp(argv[1], "loop"))
         test_loop();
      else if (!strcmp(argv[1], "payoff"))
         test_payoff();
      else if (!strcmp(argv[1], "nollvm"))
         test_nollvm();
      else if (!strcmp(argv[1], "end-regs"))
         test_end_regs();
      else
         test_budget();
      if (failures) {
         fprintf(stderr, "%d failures\n", failures);
         return 1;
      }
      printf("sim_xlate_test %s: ok\n", argv[1]);
      return 0;
   }
   sim_inst code[8];
   /* v_add_f32 v0, v1, v2            lowered
    * global_load_dword v3, v[4:5]    lowered (sim_xlate_mem.c)
    * s_waitcnt                       a no-op here
    * v_mul_f32 (SDWA) v6, v7, v8     through the interpreter: SDWA is not lowered
    * s_add_u32 s0, s1, 4             lowered
    * s_branch                        last: it changes the PC
    * v_mov_b32 v0, v1                not in the block */
   code[0] = mk(SIM_ENC_VOP2, SIM_OP_v_add_f32, SIM_IF_VALU | SIM_IF_E32, V(1), V(2), NONE, 0);
   code[1] = mk(SIM_ENC_GLOBAL, SIM_OP_global_load_dword, 0, NONE, NONE, NONE, 3);
   code[2] = mk(SIM_ENC_SOPP, SIM_OP_s_waitcnt, 0, NONE, NONE, NONE, NONE);
   code[3] = mk(SIM_ENC_VOP2_SDWA, SIM_OP_v_mul_f32, SIM_IF_VALU | SIM_IF_SDWA, V(7), V(8),
                NONE, 6);
   code[4] = mk(SIM_ENC_SOP2, SIM_OP_s_add_u32, 0, 1, 132, NONE, 0);
   code[5] = mk(SIM_ENC_SOPP, SIM_OP_s_branch, 0, NONE, NONE, NONE, NONE);
   code[6] = mk(SIM_ENC_VOP1, SIM_OP_v_mov_b32, SIM_IF_VALU | SIM_IF_E32, V(1), NONE, NONE, 0);
   code[7] = mk(SIM_ENC_VOP3, SIM_OP_v_fma_f32, SIM_IF_VALU | SIM_IF_VOP3, V(1), V(2), V(3), 0);

   CHECK_EQ(sim__xlate_class(&code[0]), SIM_XL_LOWER);
   CHECK_EQ(sim__xlate_class(&code[1]), SIM_XL_LOWER);
   CHECK_EQ(sim__xlate_class(&code[2]), SIM_XL_SKIP);
   CHECK_EQ(sim__xlate_class(&code[3]), SIM_XL_CALL);
   CHECK_EQ(sim__xlate_class(&code[4]), SIM_XL_LOWER);
   CHECK_EQ(sim__xlate_class(&code[5]), SIM_XL_END);
   CHECK_EQ(sim__xlate_class(&code[6]), SIM_XL_LOWER);

   /* Vector memory: the dword, byte and short loads and stores of GLOBAL and FLAT (an SGPR
    * base or none); the d16 forms, atomics, scratch, MUBUF and AGPR data go through the
    * interpreter. */
   sim_inst mm = mk(SIM_ENC_FLAT, SIM_OP_flat_store_dwordx4, 0, NONE, NONE, NONE, NONE);
   mm.mem.saddr = 0x7F;
   CHECK_EQ(sim__xlate_class(&mm), SIM_XL_LOWER);
   mm = code[1];
   mm.mem.saddr = 4; /* s[4:5] + v4 */
   CHECK_EQ(sim__xlate_class(&mm), SIM_XL_LOWER);
   mm.flags = SIM_IF_ACC;
   CHECK_EQ(sim__xlate_class(&mm), SIM_XL_CALL);
   mm = code[1];
   mm.vdst = 254; /* v[254:257] past the rows the emitter holds */
   mm.op = SIM_OP_global_load_dwordx4;
   CHECK_EQ(sim__xlate_class(&mm), SIM_XL_CALL);
   mm = code[1];
   mm.op = SIM_OP_global_load_ushort;
   CHECK_EQ(sim__xlate_class(&mm), SIM_XL_LOWER);
   mm.op = SIM_OP_global_load_short_d16_hi;
   CHECK_EQ(sim__xlate_class(&mm), SIM_XL_CALL);
   mm.op = SIM_OP_global_atomic_add;
   CHECK_EQ(sim__xlate_class(&mm), SIM_XL_CALL);
   mm = mk(SIM_ENC_SCRATCH, SIM_OP_scratch_load_dword, 0, NONE, NONE, NONE, 3);
   CHECK_EQ(sim__xlate_class(&mm), SIM_XL_CALL);
   /* The cache invalidations run their handlers from the block without storing its
    * registers (they touch the checking mode's caches alone). */
   mm = mk(SIM_ENC_MUBUF, SIM_OP_buffer_wbinvl1_vol, 0, NONE, NONE, NONE, NONE);
   CHECK_EQ(sim__xlate_class(&mm), SIM_XL_LOWER);
   mm.op = SIM_OP_buffer_gl0_inv;
   CHECK_EQ(sim__xlate_class(&mm), SIM_XL_LOWER);
   /* The lane moves (EXEC ignored) with a VGPR lane select are not a form of them. */
   mm = mk(SIM_ENC_VOP3, SIM_OP_v_readlane_b32, SIM_IF_VALU | SIM_IF_VOP3, V(1), 4, NONE, 10);
   CHECK_EQ(sim__xlate_class(&mm), SIM_XL_LOWER);
   mm.src[1] = V(2);
   CHECK_EQ(sim__xlate_class(&mm), SIM_XL_CALL);
   mm = mk(SIM_ENC_VOP3, SIM_OP_v_readlane_b32, SIM_IF_VALU | SIM_IF_VOP3, V(1), 4, NONE, 106);
   CHECK_EQ(sim__xlate_class(&mm), SIM_XL_CALL); /* VCC: sim__swrite32's own rules */

   /* Forms with what the lowering does not model go through the interpreter. */
   sim_inst t = code[7];
   CHECK_EQ(sim__xlate_class(&t), SIM_XL_LOWER);
   t.omod = 1; /* output modifier */
   CHECK_EQ(sim__xlate_class(&t), SIM_XL_CALL);
   t = code[7];
   t.clamp = 1;
   CHECK_EQ(sim__xlate_class(&t), SIM_XL_CALL);
   t = code[7];
   t.neg = 2; /* f32 neg is a sign flip: lowered */
   CHECK_EQ(sim__xlate_class(&t), SIM_XL_LOWER);
   t = code[6];
   t.src[0] = SIM_SRC_SCC; /* scalar sources beyond SGPRs and constants */
   CHECK_EQ(sim__xlate_class(&t), SIM_XL_CALL);
   t = mk(SIM_ENC_VOP2, SIM_OP_v_add_u32, SIM_IF_VALU | SIM_IF_VOP3, V(1), V(2), NONE, 0);
   t.neg = 1; /* integer operation with a float modifier */
   CHECK_EQ(sim__xlate_class(&t), SIM_XL_CALL);
   /* The mask of v_cndmask / carry-in of v_addc is a 64-bit scalar operand: an SGPR pair
    * or an integer constant, not the literal or a float constant. */
   t = mk(SIM_ENC_VOP3, SIM_OP_v_cndmask_b32, SIM_IF_VALU | SIM_IF_VOP3, V(1), V(2), 106, 0);
   CHECK_EQ(sim__xlate_class(&t), SIM_XL_LOWER);
   t.src[2] = SIM_SRC_LITERAL;
   CHECK_EQ(sim__xlate_class(&t), SIM_XL_CALL);
   t.src[2] = 242;
   CHECK_EQ(sim__xlate_class(&t), SIM_XL_CALL);
   t = mk(SIM_ENC_VOP3, SIM_OP_v_addc_co_u32, SIM_IF_VALU | SIM_IF_VOP3, V(1), V(2), 127, 0);
   CHECK_EQ(sim__xlate_class(&t), SIM_XL_CALL);
   /* sim_xlate_alu.c: abs/neg on the f32 source only (the handlers read the others as
    * integers, without modifiers); v_mad_u64_u32's S2 a 64-bit source the emitter reads
    * and D a pair it holds. */
   t = mk(SIM_ENC_VOP3, SIM_OP_v_ldexp_f32, SIM_IF_VALU | SIM_IF_VOP3, V(1), V(2), NONE, 0);
   t.neg = 1;
   CHECK_EQ(sim__xlate_class(&t), SIM_XL_LOWER);
   t.neg = 2;
   CHECK_EQ(sim__xlate_class(&t), SIM_XL_CALL);
   t = mk(SIM_ENC_VOP3, SIM_OP_v_cvt_f32_ubyte1, SIM_IF_VALU | SIM_IF_VOP3, V(1), NONE, NONE, 0);
   CHECK_EQ(sim__xlate_class(&t), SIM_XL_LOWER);
   t.abs = 1;
   CHECK_EQ(sim__xlate_class(&t), SIM_XL_CALL);
   t = mk(SIM_ENC_VOP3, SIM_OP_v_mad_u64_u32, SIM_IF_VALU | SIM_IF_VOP3, V(1), V(2), V(4), 6);
   t.sdst = 106;
   CHECK_EQ(sim__xlate_class(&t), SIM_XL_LOWER);
   t.src[2] = SIM_SRC_LITERAL;
   CHECK_EQ(sim__xlate_class(&t), SIM_XL_CALL);
   t.src[2] = V(4), t.vdst = 255;
   CHECK_EQ(sim__xlate_class(&t), SIM_XL_CALL);
   /* DS read2/write2: not the GDS form, data within the rows the emitter holds. */
   t = mk(SIM_ENC_DS, SIM_OP_ds_write2st64_b64, 0, NONE, NONE, NONE, NONE);
   t.mem.data0 = 2, t.mem.data1 = 254;
   CHECK_EQ(sim__xlate_class(&t), SIM_XL_LOWER);
   t.mem.data1 = 255;
   CHECK_EQ(sim__xlate_class(&t), SIM_XL_CALL);
   t = mk(SIM_ENC_DS, SIM_OP_ds_read2_b32, SIM_IF_GDS, NONE, NONE, NONE, 2);
   CHECK_EQ(sim__xlate_class(&t), SIM_XL_CALL);
   /* What may change the PC, MODE or index mode ends a block. */
   t = mk(SIM_ENC_SOPK, SIM_OP_s_setreg_b32, 0, NONE, NONE, NONE, 0);
   CHECK_EQ(sim__xlate_class(&t), SIM_XL_END);
   t = mk(SIM_ENC_SOP1, SIM_OP_s_setpc_b64, 0, 4, NONE, NONE, NONE);
   CHECK_EQ(sim__xlate_class(&t), SIM_XL_END);
   t = mk(SIM_ENC_SOPC, SIM_OP_s_set_gpr_idx_on, 0, 4, 1, NONE, NONE);
   CHECK_EQ(sim__xlate_class(&t), SIM_XL_END);
   t = mk(SIM_ENC_SOPP, SIM_OP_s_barrier, 0, NONE, NONE, NONE, NONE);
   CHECK_EQ(sim__xlate_class(&t), SIM_XL_END);
   t = mk(SIM_ENC_SOP1, SIM_OP_s_and_saveexec_b64, 0, 106, NONE, NONE, 0);
   CHECK_EQ(sim__xlate_class(&t), SIM_XL_LOWER);
   /* gfx10's names of gfx9 operations share their lowering; the 32-bit saveexec forms (a
    * wave32's EXEC) are lowered, s_orn2 and the other forms not lowered are called. */
   t = mk(SIM_ENC_VOP2, SIM_OP_v_add_nc_u32, SIM_IF_VALU | SIM_IF_E32, V(1), V(2), NONE, 0);
   CHECK_EQ(sim__xlate_class(&t), SIM_XL_LOWER);
   t = mk(SIM_ENC_VOP3, SIM_OP_v_sub_co_ci_u32, SIM_IF_VALU | SIM_IF_VOP3, V(1), V(2), 106, 0);
   CHECK_EQ(sim__xlate_class(&t), SIM_XL_LOWER);
   t = mk(SIM_ENC_VOP2, SIM_OP_v_subrev_co_ci_u32, SIM_IF_VALU | SIM_IF_E32, V(1), V(2), 106, 0);
   CHECK_EQ(sim__xlate_class(&t), SIM_XL_LOWER);
   t = mk(SIM_ENC_SOP1, SIM_OP_s_and_saveexec_b32, 0, 106, NONE, NONE, 0);
   CHECK_EQ(sim__xlate_class(&t), SIM_XL_LOWER);
   t = mk(SIM_ENC_SOP1, SIM_OP_s_orn2_saveexec_b32, 0, 106, NONE, NONE, 0);
   CHECK_EQ(sim__xlate_class(&t), SIM_XL_CALL);

   sim_program p;
   memset(&p, 0, sizeof(p));
   p.va = 0x1000;
   p.size = 4 * (sizeof(code) / sizeof(code[0])); /* bytes of machine code: a slot a word */
   p.slots = code;
   const sim_inst *out[16];
   /* From the start: through the branch, not past it. */
   CHECK_EQ(sim__xlate_form(NULL, &p, 0x1000, out, 16), 6);
   CHECK_EQ(out[0] == &code[0], 1);
   CHECK_EQ(out[5] == &code[5], 1);
   /* A conditional branch: past it (taken, the block leaves through a side exit), to the
    * program's end; the unconditional one ends the block again. */
   code[5] = mk(SIM_ENC_SOPP, SIM_OP_s_cbranch_scc1, 0, NONE, NONE, NONE, NONE);
   CHECK_EQ(sim__xlate_form(NULL, &p, 0x1000, out, 16), 8);
   CHECK_EQ(sim__xlate_class(&code[5]), SIM_XL_END);
   /* A backward branch to inside the block, past its start, makes the target a loop's head:
    * the block ends before it (the head's own block loops); from the head on, the branch
    * goes back to the block's start, which loops in the block. One to the start, or to
    * before it, cuts nothing. */
   code[5].imm = -3; /* to code[3] */
   CHECK_EQ(sim__xlate_form(NULL, &p, 0x1000, out, 16), 3);
   CHECK_EQ(sim__xlate_form(NULL, &p, 0x1000 + 3 * 4, out, 16), 5);
   CHECK_EQ(sim__xlate_form(NULL, &p, 0x1000 + 4 * 4, out, 16), 4);
   code[5].imm = -6; /* to code[0] */
   CHECK_EQ(sim__xlate_form(NULL, &p, 0x1000, out, 16), 8);
   CHECK_EQ(sim__xlate_form(NULL, &p, 0x1000 + 4, out, 16), 7);
   /* The same with the block's last branch, an unconditional one. */
   code[5] = mk(SIM_ENC_SOPP, SIM_OP_s_branch, 0, NONE, NONE, NONE, NONE);
   code[5].imm = -4; /* to code[2] */
   CHECK_EQ(sim__xlate_form(NULL, &p, 0x1000, out, 16), 2);
   code[5].imm = 0;
   /* From after the branch: to the program's end. */
   CHECK_EQ(sim__xlate_form(NULL, &p, 0x1000 + 6 * 4, out, 16), 2);
   /* A block's length is bounded by `max`. */
   CHECK_EQ(sim__xlate_form(NULL, &p, 0x1000, out, 3), 3);
   /* An undecoded slot ends the block when there is no wave to decode it with. */
   code[4].fn = NULL;
   CHECK_EQ(sim__xlate_form(NULL, &p, 0x1000, out, 16), 4);
   /* Outside the program: nothing. */
   CHECK_EQ(sim__xlate_form(NULL, &p, 0x1000 + sizeof(code), out, 16), 0);

   if (failures) {
      fprintf(stderr, "%d failures\n", failures);
      return 1;
   }
   printf("sim_xlate_test: ok\n");
   return 0;
}
