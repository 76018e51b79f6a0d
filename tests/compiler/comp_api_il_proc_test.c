/*
 * tests/compiler/comp_api_il_proc_test.c — the SPIR-V validator and translator as helper
 * processes (compiler/comp_spirv.c run_validator, run_translator).
 *
 * usage: comp_api_il_proc_test MODULE   (a valid module: il_basic12.spv)
 *
 * The translator too: one that hangs, crashes, floods its output, refuses or writes no
 * bitcode is a build error naming that, within the time limit; and huge or deeply nested
 * modules (many functions, deep types, deep selections) build or fail with a reason in
 * bounded time.
 *
 * Checks: a validator that hangs is stopped at HSACL_SPIRV_TIMEOUT and the module refused
 * with CL_INVALID_VALUE; one that crashes, or exits non-zero, refuses the module; one that
 * exits 0 accepts it (so the answer is the process's, not an in-process library's); and
 * clCreateProgramWithIL from four threads while two others hold and release the allocator
 * and stdio locks all the time completes every call (a forked, not exec'd, validator
 * inherits a lock another thread held at the fork and can wait for it forever; the
 * watchdog reports that).
 */
#include "comp_api_test.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const void *module;
static size_t module_size;
static char tmpdir[] = "/tmp/hsacl-il-proc-XXXXXX";

/* An executable shell script `name` in tmpdir with `body`; returns its path (static). */
static const char *
script(const char *name, const char *body)
{
   static char path[4][256];
   static int next;
   char *p = path[next++ % 4];
   snprintf(p, 256, "%s/%s", tmpdir, name);
   FILE *f = fopen(p, "w");
   if (!f)
      return "/nonexistent";
   fprintf(f, "#!/bin/sh\n%s\n", body);
   fclose(f);
   chmod(p, 0755);
   return p;
}

static cl_int
create(void)
{
   cl_int err = 12345;
   cl_program p = clCreateProgramWithIL(context, module, module_size, &err);
   if (p)
      clReleaseProgram(p);
   return err;
}

static void
test_validator_outcomes(void)
{
   CHECK_EQ_INT(create(), CL_SUCCESS);

   setenv("HSACL_SPIRV_VALIDATOR", script("hang", "exec sleep 60"), 1);
   setenv("HSACL_SPIRV_TIMEOUT", "1", 1);
   double t0 = test_now_s();
   CHECK_EQ_INT(create(), CL_INVALID_VALUE);
   double took = test_now_s() - t0;
   CHECK(took >= 0.9 && took < 20);
   unsetenv("HSACL_SPIRV_TIMEOUT");

   setenv("HSACL_SPIRV_VALIDATOR", script("crash", "kill -SEGV $$"), 1);
   CHECK_EQ_INT(create(), CL_INVALID_VALUE);

   setenv("HSACL_SPIRV_VALIDATOR", script("reject", "echo 'error: line 1: no' >&2; exit 1"), 1);
   CHECK_EQ_INT(create(), CL_INVALID_VALUE);

   /* The process's answer decides: a validator that accepts anything accepts the module,
    * and one that exits 0 on a module SPIRV-Tools would reject accepts that too. */
   setenv("HSACL_SPIRV_VALIDATOR", script("accept", "cat > /dev/null; exit 0"), 1);
   CHECK_EQ_INT(create(), CL_SUCCESS);

   setenv("HSACL_SPIRV_VALIDATOR", "/nonexistent/spirv-val", 1);
   CHECK_EQ_INT(create(), CL_INVALID_VALUE);
   unsetenv("HSACL_SPIRV_VALIDATOR");
   CHECK_EQ_INT(create(), CL_SUCCESS);
}

/* ---- the translator process and its build ---------------------------------------------- */

/* Creates and builds an IL program from `words`; returns clBuildProgram's code (or the
 * creation's error), with the build log in *log (malloc'd; "" if none). With `timeout`,
 * HSACL_SPIRV_TIMEOUT is that during the build only (the validator at creation keeps its
 * own). */
static cl_int
build_il(const uint32_t *words, size_t size, const char *timeout, char **log)
{
   cl_int err = 12345;
   *log = strdup("");
   cl_program p = clCreateProgramWithIL(context, words, size, &err);
   if (!p)
      return err;
   if (timeout)
      setenv("HSACL_SPIRV_TIMEOUT", timeout, 1);
   err = clBuildProgram(p, 1, &device, NULL, NULL, NULL);
   if (timeout)
      unsetenv("HSACL_SPIRV_TIMEOUT");
   free(*log);
   *log = build_log(p);
   clReleaseProgram(p);
   return err;
}

/* A translator that hangs, crashes, floods its output or refuses: each is a build error
 * naming what happened, within the time limit; the application lives on. */
static void
test_translator_outcomes(void)
{
   /* Only the hang needs a short limit; the others end at once and get room for a loaded
    * machine (a limit reached first would name the timeout, not what they did), the flood
    * the most: 256 MiB through a pipe into an instrumented (ASan) reader. */
   static const struct {
      const char *name, *body, *needle, *timeout;
   } cases[] = {
      { "t-hang", "exec sleep 60", "did not finish within 1 s", "1" },
      { "t-crash", "kill -SEGV $$", "crashed", "20" },
      { "t-flood", "exec cat /dev/zero", "more than 256 MiB", "60" },
      { "t-refuse", "echo 'cannot read this' >&2; exit 3", "cannot read this", "20" },
      { "t-garbage", "echo 'not bitcode'; exit 0", "rejects the module", "20" },
      /* The address-space bound (4 GiB, set just after the start: the script waits). */
      { "t-limits", "sleep 1; echo \"address space $(ulimit -v) KiB\" >&2; exit 1",
        "address space 4194304 KiB", "20" },
   };
   for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
      setenv("HSACL_SPIRV_TRANSLATOR", script(cases[i].name, cases[i].body), 1);
      char *log;
      double t0 = test_now_s();
      CHECK_EQ_INT(build_il(module, module_size, cases[i].timeout, &log),
                   CL_BUILD_PROGRAM_FAILURE);
      double took = test_now_s() - t0;
      if (!strstr(log, cases[i].needle))
         fprintf(stderr, "%s: log lacks '%s':\n%.1000s\n", cases[i].name, cases[i].needle, log);
      CHECK(strstr(log, cases[i].needle) != NULL);
      CHECK(took < atof(cases[i].timeout) + 10);
      free(log);
   }
   unsetenv("HSACL_SPIRV_TRANSLATOR");
   char *log;
   CHECK_EQ_INT(build_il(module, module_size, NULL, &log), CL_SUCCESS);
   free(log);
}

/* ---- huge and deeply nested modules ----------------------------------------------------- */

/* A SPIR-V 1.0 kernel module written word by word (SPIR-V 1.0 §3 opcodes). */
struct spv {
   uint32_t *w;
   size_t n, cap;
   uint32_t bound;
};

static void
emit(struct spv *m, uint32_t op, int count, ...)
{
   if (m->n + (size_t)count + 1 > m->cap) {
      m->cap = (m->cap + (size_t)count + 1) * 2;
      m->w = realloc(m->w, m->cap * 4);
   }
   m->w[m->n++] = (uint32_t)(count + 1) << 16 | op;
   va_list ap;
   va_start(ap, count);
   for (int i = 0; i < count; i++)
      m->w[m->n++] = va_arg(ap, uint32_t);
   va_end(ap);
}

enum { VOID = 1, FNTY, BOOL, TRUE, INT, KERNEL, FIRST_FREE };

/* Header, capabilities (Addresses, Kernel), Physical64 OpenCL, the entry point "k" and the
 * types every module here uses. */
static void
begin(struct spv *m)
{
   memset(m, 0, sizeof(*m));
   m->bound = FIRST_FREE;
   m->cap = 1024;
   m->w = malloc(m->cap * 4);
   uint32_t header[5] = { 0x07230203u, 0x00010000u, 0, 0, 0 }; /* bound: end() */
   for (int i = 0; i < 5; i++)
      m->w[m->n++] = header[i];
   emit(m, 17, 1, 4u);                   /* OpCapability Addresses */
   emit(m, 17, 1, 6u);                   /* OpCapability Kernel */
   emit(m, 14, 2, 2u, 2u);               /* OpMemoryModel Physical64 OpenCL */
   emit(m, 15, 3, 6u, (uint32_t)KERNEL, 0x6bu); /* OpEntryPoint Kernel %k "k" */
   emit(m, 19, 1, (uint32_t)VOID);                    /* OpTypeVoid */
   emit(m, 33, 2, (uint32_t)FNTY, (uint32_t)VOID);    /* OpTypeFunction %void */
   emit(m, 20, 1, (uint32_t)BOOL);                    /* OpTypeBool */
   emit(m, 21, 3, (uint32_t)INT, 32u, 0u);            /* OpTypeInt 32 0 */
   emit(m, 41, 2, (uint32_t)BOOL, (uint32_t)TRUE);    /* OpConstantTrue */
}

static uint32_t
fresh(struct spv *m)
{
   return m->bound++;
}

static void
end(struct spv *m)
{
   m->w[3] = m->bound;
}

/* n helper functions, the first `called` of them called from the kernel (all of them are
 * translated; the unused ones are dropped before optimisation). */
static void
huge_module(struct spv *m, uint32_t n, uint32_t called)
{
   begin(m);
   uint32_t first = m->bound;
   m->bound += n;
   for (uint32_t i = 0; i < n; i++) {
      emit(m, 54, 4, (uint32_t)VOID, first + i, 0u, (uint32_t)FNTY); /* OpFunction */
      emit(m, 248, 1, fresh(m));                                      /* OpLabel */
      emit(m, 253, 0);                                                /* OpReturn */
      emit(m, 56, 0);                                                 /* OpFunctionEnd */
   }
   emit(m, 54, 4, (uint32_t)VOID, (uint32_t)KERNEL, 0u, (uint32_t)FNTY);
   emit(m, 248, 1, fresh(m));
   for (uint32_t i = 0; i < called; i++)
      emit(m, 57, 3, (uint32_t)VOID, fresh(m), first + i); /* OpFunctionCall */
   emit(m, 253, 0);
   emit(m, 56, 0);
   end(m);
}

/* A type nested `types` deep (structs, or pointers with `pointers`; a Function variable of
 * it) and `depth` nested selections in the kernel. */
static void
deep_module(struct spv *m, uint32_t types, bool pointers, uint32_t depth)
{
   begin(m);
   uint32_t t = INT;
   for (uint32_t i = 0; i < types; i++) {
      uint32_t s = fresh(m);
      if (pointers)
         emit(m, 32, 3, s, 7u, t); /* OpTypePointer Function t */
      else
         emit(m, 30, 2, s, t); /* OpTypeStruct { t } */
      t = s;
   }
   uint32_t ptr = fresh(m);
   emit(m, 32, 3, ptr, 7u, t); /* OpTypePointer Function */
   emit(m, 54, 4, (uint32_t)VOID, (uint32_t)KERNEL, 0u, (uint32_t)FNTY);
   uint32_t label = m->bound, merge = m->bound + depth + 1;
   m->bound += 2 * depth + 1;
   emit(m, 248, 1, label);
   emit(m, 59, 3, ptr, fresh(m), 7u); /* OpVariable Function */
   for (uint32_t i = 0; i < depth; i++) {
      emit(m, 247, 2, merge + i, 0u);                      /* OpSelectionMerge */
      emit(m, 250, 3, (uint32_t)TRUE, label + i + 1, merge + i); /* OpBranchConditional */
      emit(m, 248, 1, label + i + 1);
   }
   for (uint32_t i = depth; i-- > 0;) {
      emit(m, 249, 1, merge + i); /* OpBranch */
      emit(m, 248, 1, merge + i);
   }
   emit(m, 253, 0);
   emit(m, 56, 0);
   end(m);
}

/* Each builds, or fails with a log line, in bounded time: the validator and the translator
 * under HSACL_SPIRV_TIMEOUT, the back half under HSACL_BUILD_TIMEOUT. */
static void
big_build(const char *what, struct spv *m)
{
   char *log;
   double t0 = test_now_s();
   cl_int err = build_il(m->w, m->n * 4, NULL, &log);
   double took = test_now_s() - t0;
   const char *first = log;
   while (*first == '\n')
      first++;
   printf("%s (%zu words): %s (%d) after %.1f s%s%.*s\n", what, m->n,
          err ? "failed" : "built", err, took, err ? ": " : "",
          err ? (int)strcspn(first, "\n") : 0, first);
   /* Refused at creation (the validator: CL_INVALID_VALUE, the reason under HSACL_LOG), or
    * built, or a build error with its reason in the log. */
   CHECK(err == CL_SUCCESS || err == CL_INVALID_VALUE ||
         (err == CL_BUILD_PROGRAM_FAILURE && strstr(log, "error") != NULL));
   CHECK(took < 60);
   free(log);
   free(m->w);
}

static void
test_big_modules(void)
{
   setenv("HSACL_SPIRV_TIMEOUT", "20", 1);
   setenv("HSACL_BUILD_TIMEOUT", "20", 1);
   struct spv m;
   huge_module(&m, 20000, 2000);
   big_build("20,000 functions, 2,000 called", &m);
   deep_module(&m, 5000, false, 1); /* past SPIR-V's universal limit of 255 */
   big_build("a struct 5,000 deep", &m);
   deep_module(&m, 255, false, 1);
   big_build("a struct 255 deep", &m);
   deep_module(&m, 5000, true, 1);
   big_build("a pointer 5,000 deep", &m);
   deep_module(&m, 1, false, 5000);
   big_build("5,000 nested selections", &m);
   unsetenv("HSACL_SPIRV_TIMEOUT");
   unsetenv("HSACL_BUILD_TIMEOUT");
}

/* ---- creation under lock traffic -------------------------------------------------------- */

static atomic_bool stop;
static atomic_int failures, done_calls;

static void *
churn(void *arg)
{
   (void)arg;
   FILE *null = fopen("/dev/null", "w");
   unsigned n = 0;
   while (!atomic_load(&stop)) {
      void *p[16];
      for (int i = 0; i < 16; i++)
         p[i] = malloc(64 + (n++ % 4096));
      for (int i = 0; i < 16; i++)
         free(p[i]);
      if (null)
         fprintf(null, "%u\n", n);
   }
   if (null)
      fclose(null);
   return NULL;
}

static void *
creator(void *arg)
{
   (void)arg;
   for (int i = 0; i < 25; i++) {
      if (create() != CL_SUCCESS)
         atomic_fetch_add(&failures, 1);
      atomic_fetch_add(&done_calls, 1);
   }
   return NULL;
}

static void
test_threads(void)
{
   pthread_t c[2], w[4];
   for (int i = 0; i < 2; i++)
      pthread_create(&c[i], NULL, churn, NULL);
   for (int i = 0; i < 4; i++)
      pthread_create(&w[i], NULL, creator, NULL);
   for (int i = 0; i < 4; i++)
      pthread_join(w[i], NULL);
   atomic_store(&stop, true);
   for (int i = 0; i < 2; i++)
      pthread_join(c[i], NULL);
   CHECK_EQ_INT(atomic_load(&done_calls), 100);
   CHECK_EQ_INT(atomic_load(&failures), 0);
}

int
main(int argc, char **argv)
{
   if (argc != 2) {
      fprintf(stderr, "usage: comp_api_il_proc_test MODULE\n");
      return 2;
   }
   test_watchdog("comp_api_il_proc", 240);
   test_setup();
   module = test_read_file(argv[1], &module_size);
   if (!module || !mkdtemp(tmpdir)) {
      fprintf(stderr, "cannot read %s or make a temporary folder\n", argv[1]);
      return 1;
   }
   test_validator_outcomes();
   test_translator_outcomes();
   test_big_modules();
   test_threads();
   char cmd[300];
   snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
   CHECK_EQ_INT(system(cmd), 0);
   free((void *)module);
   clReleaseContext(context);
   return test_main_end();
}
