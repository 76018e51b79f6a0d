/*
 * compiler/comp_engine.c — the compiler engine on demand (docs/architecture.md "The
 * compiler engine").
 *
 * The engine (clang, LLVM and lld in process: comp_llvm*.cpp) is libhsacl-compiler.so,
 * opened the first time a build needs it. Loading libLLVM and libclang-cpp costs about
 * 100 ms of relocations and static constructors, which every process that loads
 * libhsacl.so paid before its first call: an application whose programs all come from the
 * kernel cache, and one that only lists platforms (the ICD loader loads every vendor's
 * library), need none of it. What the driver needs without the engine is here and in
 * comp_identity.c and comp_meta.c: the identity (the cache key), the metadata of code
 * objects, the names of statuses.
 *
 * Binaries that link the engine's objects themselves (hsacl-cc, the compiler's tests, the
 * compile benchmark) define comp_engine_build, and comp_build calls it directly.
 *
 * The module: $HSACL_COMPILER_LIBRARY, else libhsacl-compiler.so in the folder of the
 * binary holding this file (libhsacl.so's), else in ../lib beside it (the build tree's and
 * an install's bin/ programs), else in the installed library folder.
 */
#define _GNU_SOURCE
#include "comp_engine.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Defined by the engine's objects when this binary links them. */
#pragma weak comp_engine_build

typedef enum comp_status (*engine_build_fn)(const struct comp_build_desc *,
                                            struct comp_output *);

static pthread_once_t locate_once = PTHREAD_ONCE_INIT;
static char engine_path[PATH_MAX];
static char locate_error[2048];

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static engine_build_fn engine_build;
static char load_error[2560];

/* Appends "; " and the formatted text to locate_error. */
static void
note_tried(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void
note_tried(const char *fmt, ...)
{
   size_t len = strlen(locate_error);
   if (len + 3 >= sizeof(locate_error))
      return;
   if (len)
      len += (size_t)snprintf(locate_error + len, sizeof(locate_error) - len, "; ");
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(locate_error + len, sizeof(locate_error) - len, fmt, ap);
   va_end(ap);
}

/* Takes `path` as the module if it is readable. */
static bool
try_path(const char *path)
{
   if (strlen(path) >= sizeof(engine_path)) {
      note_tried("%.64s...: path too long", path);
      return false;
   }
   if (access(path, R_OK) != 0) {
      note_tried("%s: not found", path);
      return false;
   }
   snprintf(engine_path, sizeof(engine_path), "%s", path);
   return true;
}

static void
locate(void)
{
   if (comp_engine_build)
      return;
   const char *env = getenv("HSACL_COMPILER_LIBRARY");
   if (env && *env) {
      try_path(env);
      return;
   }
   char path[PATH_MAX];
   Dl_info info;
   if (dladdr((void *)locate, &info) && info.dli_fname && strchr(info.dli_fname, '/')) {
      int dir = (int)(strrchr(info.dli_fname, '/') - info.dli_fname);
      snprintf(path, sizeof(path), "%.*s/" COMP_ENGINE_MODULE, dir, info.dli_fname);
      if (try_path(path))
         return;
      snprintf(path, sizeof(path), "%.*s/../lib/" COMP_ENGINE_MODULE, dir, info.dli_fname);
      if (try_path(path))
         return;
   }
   try_path(HSACL_COMPILER_INSTALL_DIR "/" COMP_ENGINE_MODULE);
}

const char *
comp__engine_path(const char **why)
{
   pthread_once(&locate_once, locate);
   if (comp_engine_build)
      return NULL;
   *why = locate_error;
   return engine_path[0] ? engine_path : NULL;
}

bool
comp__engine_linked(void)
{
   return comp_engine_build != NULL;
}

void *
comp__engine_linked_address(void)
{
   return (void *)comp_engine_build;
}

static void
load(void)
{
   if (comp_engine_build) {
      engine_build = comp_engine_build;
      return;
   }
   const char *why = "";
   const char *path = comp__engine_path(&why);
   if (!path) {
      snprintf(load_error, sizeof(load_error), "no %s (%.2400s)", COMP_ENGINE_MODULE, why);
      return;
   }
   /* RTLD_LOCAL: the engine's symbols (and LLVM's through it) stay out of the
    * application's namespace. Never closed: LLVM's static state and the fatal-error
    * handler live as long as the process. */
   void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
   if (!h) {
      const char *e = dlerror();
      snprintf(load_error, sizeof(load_error), "%.2500s", e ? e : path);
      return;
   }
   engine_build = (engine_build_fn)dlsym(h, "comp_engine_build");
   if (!engine_build)
      snprintf(load_error, sizeof(load_error), "%.2400s: no comp_engine_build", path);
}

enum comp_status
comp_build(const struct comp_build_desc *desc, struct comp_output *out)
{
   pthread_once(&load_once, load);
   if (engine_build)
      return engine_build(desc, out);
   memset(out, 0, sizeof(*out));
   const char *fmt = "error: cannot load the compiler engine: %s\n";
   int n = snprintf(NULL, 0, fmt, load_error);
   out->log = n > 0 ? malloc((size_t)n + 1) : NULL;
   if (!out->log)
      return COMP_OUT_OF_MEMORY;
   snprintf(out->log, (size_t)n + 1, fmt, load_error);
   return COMP_INTERNAL_ERROR;
}

void
comp_output_finish(struct comp_output *out)
{
   free(out->data);
   free(out->log);
   comp_program_info_destroy(out->info);
   memset(out, 0, sizeof(*out));
}

const char *
comp_status_name(enum comp_status status)
{
   switch (status) {
   case COMP_OK:
      return "COMP_OK";
   case COMP_INVALID_BUILD_OPTIONS:
      return "COMP_INVALID_BUILD_OPTIONS";
   case COMP_INVALID_COMPILER_OPTIONS:
      return "COMP_INVALID_COMPILER_OPTIONS";
   case COMP_INVALID_LINKER_OPTIONS:
      return "COMP_INVALID_LINKER_OPTIONS";
   case COMP_BUILD_FAILURE:
      return "COMP_BUILD_FAILURE";
   case COMP_LINK_FAILURE:
      return "COMP_LINK_FAILURE";
   case COMP_INVALID_TARGET:
      return "COMP_INVALID_TARGET";
   case COMP_INVALID_BINARY:
      return "COMP_INVALID_BINARY";
   case COMP_OUT_OF_MEMORY:
      return "COMP_OUT_OF_MEMORY";
   case COMP_INTERNAL_ERROR:
      return "COMP_INTERNAL_ERROR";
   }
   return "COMP_UNKNOWN_STATUS";
}
