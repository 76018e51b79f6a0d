/*
 * tests/compiler/comp_api_il_proc_test.c — the SPIR-V validator as a helper process
 * (compiler/comp_spirv.c run_validator).
 *
 * usage: comp_api_il_proc_test MODULE   (a valid module: il_basic12.spv)
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
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
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
   test_threads();
   char cmd[300];
   snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
   CHECK_EQ_INT(system(cmd), 0);
   free((void *)module);
   clReleaseContext(context);
   return test_main_end();
}
