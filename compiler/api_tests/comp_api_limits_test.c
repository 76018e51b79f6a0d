/*
 * comp_api_limits_test — a build's bounds (issue #17): a macro that doubles its expansion,
 * a program of more kernels than a build accepts, an oversized source and a build past its
 * time limit (HSACL_BUILD_TIMEOUT) each fail with
 * CL_BUILD_PROGRAM_FAILURE and a log line naming the bound's variable, instead of eating
 * the machine; the next build of the process works. The bounds are set small through their
 * environment variables (read at every build) so the test is quick.
 *
 * The token bound abandons the front end through LLVM's fatal-error trap, which cannot
 * reclaim what clang allocated up to the bound: this test runs with LeakSanitizer off
 * (compiler/api_tests/CMakeLists.txt).
 */
#include "comp_api_test.h"

static char *
doubling_source(int depth)
{
   size_t cap = 64 * (size_t)depth + 256;
   char *s = malloc(cap), *w = s;
   w += sprintf(w, "#define A0 1+\n");
   for (int i = 1; i <= depth; i++)
      w += sprintf(w, "#define A%d A%d A%d\n", i, i - 1, i - 1);
   sprintf(w, "kernel void k(global int *o) { o[0] = A%d 1; }\n", depth);
   return s;
}

static char *
many_kernels(int n)
{
   char *s = malloc((size_t)n * 64 + 1), *w = s;
   *w = 0;
   for (int i = 0; i < n; i++)
      w += sprintf(w, "kernel void k%d(global int *o) { o[0] = %d; }\n", i, i);
   return s;
}

/* A chain of n conditional operators comparing with constants: LLVM's optimiser and code
 * generator take time superlinear in n (SimplifyCFG on the one function); n = 3000 takes
 * seconds of CPU, n = 10,000 minutes on a loaded machine. */
static char *
conditional_chain(int n)
{
   char *s = malloc((size_t)n * 40 + 256), *w = s;
   w += sprintf(w, "kernel void k(global int *o) { int a = o[1]; o[0] = ");
   for (int i = 0; i < n; i++)
      w += sprintf(w, "a == %d ? %d : ", i, 3 * i);
   sprintf(w, "2; }\n");
   return s;
}

int
main(void)
{
   test_setup();

   /* Tokens: 2^40 of them without the bound. */
   setenv("HSACL_BUILD_MAX_TOKENS", "100000", 1);
   char *dbl = doubling_source(40);
   CHECK_EQ_INT(build_expecting(dbl, "HSACL_BUILD_MAX_TOKENS"), CL_BUILD_PROGRAM_FAILURE);
   /* A function-like macro doubling its argument: the preprocessor pre-expands arguments
    * before the parser sees a token (23 GB, then the OOM killer, before every token was
    * counted). */
   const char *dbl_fn =
      "#define D(x) x x\n"
      "#define D4(x) D(D(D(D(x))))\n"
      "#define D40(x) D4(D4(D4(D4(D4(D4(D4(D4(D4(D4(x))))))))))\n"
      "kernel void k(global int *o) { o[0] = D40(1+) 1; }\n";
   CHECK_EQ_INT(build_expecting(dbl_fn, "HSACL_BUILD_MAX_TOKENS"), CL_BUILD_PROGRAM_FAILURE);
   /* A program under the bound builds. */
   char *small = doubling_source(8);
   CHECK_EQ_INT(build_expecting(small, NULL), CL_SUCCESS);
   unsetenv("HSACL_BUILD_MAX_TOKENS");

   /* Kernels. */
   setenv("HSACL_BUILD_MAX_KERNELS", "10", 1);
   char *many = many_kernels(11), *ok = many_kernels(10);
   CHECK_EQ_INT(build_expecting(many, "HSACL_BUILD_MAX_KERNELS"), CL_BUILD_PROGRAM_FAILURE);
   CHECK_EQ_INT(build_expecting(ok, NULL), CL_SUCCESS);
   unsetenv("HSACL_BUILD_MAX_KERNELS");

   /* Source bytes. */
   setenv("HSACL_BUILD_MAX_SOURCE", "200", 1);
   CHECK_EQ_INT(build_expecting(many, "HSACL_BUILD_MAX_SOURCE"), CL_BUILD_PROGRAM_FAILURE);
   unsetenv("HSACL_BUILD_MAX_SOURCE");

   /* Time: a build past HSACL_BUILD_TIMEOUT skips the optimiser's remaining passes and
    * code generation's work and fails, within about the time of the pass under way. */
   setenv("HSACL_BUILD_TIMEOUT", "1", 1);
   char *chain = conditional_chain(3000);
   double t0 = test_now_s();
   CHECK_EQ_INT(build_expecting(chain, "HSACL_BUILD_TIMEOUT"), CL_BUILD_PROGRAM_FAILURE);
   double took = test_now_s() - t0;
   printf("a build over its 1 s limit failed after %.1f s\n", took);
   CHECK(took < 30);
   unsetenv("HSACL_BUILD_TIMEOUT");
   free(chain);

   /* The process is whole: the oversized programs build once the bounds are lifted. */
   setenv("HSACL_BUILD_MAX_KERNELS", "0", 1);
   CHECK_EQ_INT(build_expecting(many, NULL), CL_SUCCESS);
   unsetenv("HSACL_BUILD_MAX_KERNELS");

   free(dbl);
   free(small);
   free(many);
   free(ok);
   clReleaseContext(context);
   return test_main_end();
}
