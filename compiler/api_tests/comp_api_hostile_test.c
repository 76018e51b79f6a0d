/*
 * comp_api_hostile_test — OpenCL C source that ended the process: clang's debugging
 * pragmas (`#pragma clang __debug crash`, parser_crash, overflow_stack, llvm_fatal_error,
 * ...) and nesting deep enough to overflow the calling thread's stack in clang's parser
 * and Sema. Each pragma fails clBuildProgram with CL_BUILD_PROGRAM_FAILURE and a log line
 * naming it, and those that print (dump, macro, ...) leave the process's standard error
 * empty; deeply nested programs build (on the build's own large stack), or, past the
 * stack's margin (HSACL_BUILD_STACK set small here), fail with a log line; the process
 * lives on and the next build works.
 *
 * The stack bound abandons the front end through LLVM's fatal-error trap, which cannot
 * reclaim what clang allocated: this test runs with LeakSanitizer off
 * (compiler/api_tests/CMakeLists.txt).
 */
#include "comp_api_test.h"

#include <unistd.h>

/* `prefix` repeated n times, then `middle`, then `suffix` n times, inside a kernel. */
static char *
nested(const char *prefix, const char *middle, const char *suffix, int n)
{
   size_t lp = strlen(prefix), ls = strlen(suffix);
   char *s = malloc((lp + ls) * (size_t)n + strlen(middle) + 256), *w = s;
   w += sprintf(w, "kernel void k(global int *o) { int a = o[1]; o[0] = ");
   for (int i = 0; i < n; i++, w += lp)
      memcpy(w, prefix, lp);
   w += sprintf(w, "%s", middle);
   for (int i = 0; i < n; i++, w += ls)
      memcpy(w, suffix, ls);
   sprintf(w, "; }\n");
   return s;
}

static const char ok_src[] = "kernel void k(global int *o) { o[0] = 1; }\n";

/* The `__debug` commands that print (declarations, macros, diagnostic mappings, modules)
 * wrote to the process's standard error before the build error; with fd 2 on a file,
 * building each must leave the file empty: diagnostics go to the build log only. */
static void
quiet_debug_pragmas(void)
{
   static const char *const printing[] = {
      "#pragma clang __debug dump k\n", "#pragma clang __debug dump 1 + 2\n",
      "#define M 1\n#pragma clang __debug macro M\n",
      "#pragma clang __debug diag_mapping \"-Wunused\"\n",
      "#pragma clang __debug module_map x\n", "#pragma clang __debug modules all\n",
      "#pragma clang __debug modules visible\n", "#pragma clang __debug sloc_usage\n",
      "_Pragma(\"clang __debug dump k\")\n", "#define D(x) _Pragma(#x)\nD(clang __debug macro D)\n",
      NULL,
   };
   fflush(stderr);
   FILE *capture = tmpfile();
   CHECK(capture != NULL);
   int saved = dup(2);
   CHECK(saved >= 0 && dup2(fileno(capture), 2) == 2);
   cl_int errs[16];
   int n = 0;
   for (const char *const *p = printing; *p; p++, n++) {
      char src[512];
      snprintf(src, sizeof(src), "%s\n%s", ok_src, *p);
      cl_program prog = program_from_source(src);
      errs[n] = clBuildProgram(prog, 1, &device, NULL, NULL, NULL);
      char *log = build_log(prog);
      if (!strstr(log, "__debug"))
         errs[n] = CL_SUCCESS; /* the log must name the pragma: counted as a failure below */
      free(log);
      clReleaseProgram(prog);
   }
   fflush(stderr);
   dup2(saved, 2);
   close(saved);
   for (int i = 0; i < n; i++)
      CHECK_EQ_INT(errs[i], CL_BUILD_PROGRAM_FAILURE);
   long size = (fseek(capture, 0, SEEK_END), ftell(capture));
   if (size) {
      char text[2048] = { 0 };
      rewind(capture);
      fread(text, 1, sizeof(text) - 1, capture);
      fprintf(stderr, "standard error received %ld bytes:\n%s\n", size, text);
   }
   CHECK_EQ_INT(size, 0);
   fclose(capture);
}

int
main(void)
{
   test_setup();

   /* Every `#pragma clang __debug` command, and one through _Pragma in a macro. */
   static const char *const commands[] = {
      "crash", "parser_crash", "overflow_stack", "llvm_fatal_error", "llvm_unreachable",
      "assert", "handle_crash", "captured", "bogus", NULL,
   };
   for (const char *const *c = commands; *c; c++) {
      char src[256];
      snprintf(src, sizeof(src), "#pragma clang __debug %s\n%s", *c, ok_src);
      CHECK_EQ_INT(build_expecting(src, "__debug"), CL_BUILD_PROGRAM_FAILURE);
   }
   CHECK_EQ_INT(build_expecting("#define P(x) _Pragma(#x)\nP(clang __debug crash)\n"
                                "kernel void k(global int *o) { o[0] = 1; }\n",
                                "__debug crash"),
                CL_BUILD_PROGRAM_FAILURE);

   quiet_debug_pragmas();

   /* Nesting that overflowed an 8 MiB stack (65,000 levels in Sema's walk of a chain of
    * additions; the parser's recursion for prefix operators): now it builds. */
   char *s = nested("!", "a", "", 100000);
   CHECK_EQ_INT(build_expecting(s, NULL), CL_SUCCESS);
   free(s);
   s = nested("1+", "a", "", 100000);
   CHECK_EQ_INT(build_expecting(s, NULL), CL_SUCCESS);
   free(s);
   s = nested("a = ", "1", "", 100000);
   CHECK_EQ_INT(build_expecting(s, NULL), CL_SUCCESS);
   free(s);

   /* Past the stack's margin: a build error, not a crash. */
   setenv("HSACL_BUILD_STACK", "16777216", 1);
   s = nested("!", "a", "", 400000);
   CHECK_EQ_INT(build_expecting(s, "nests too deeply"), CL_BUILD_PROGRAM_FAILURE);
   free(s);
   s = nested("(", "a", ")", 400000); /* clang's own bracket bound comes first */
   CHECK_EQ_INT(build_expecting(s, "bracket"), CL_BUILD_PROGRAM_FAILURE);
   free(s);
   unsetenv("HSACL_BUILD_STACK");

   /* The process is whole. */
   CHECK_EQ_INT(build_expecting(ok_src, NULL), CL_SUCCESS);
   clReleaseContext(context);
   return test_main_end();
}
