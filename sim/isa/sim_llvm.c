/*
 * libLLVM opened when the translator first compiles a block (sim_xlate.c, xl_jit_setup), not
 * when the process loads libhsacl-sim.so: its relocations and static constructors cost about
 * 70 ms, which every process paid although the work threshold keeps short ones from
 * compiling anything (docs/sim.md "Speed"). The functions of sim_llvm.def are looked up
 * once and called through the pointers here (sim_llvm.h).
 *
 * RTLD_LOCAL: LLVM's symbols stay out of the global scope, as they did when the library was
 * linked (hsacl-sim.map exports none of them). The library is never closed once it served:
 * its static objects' destructors are ordered against the compile worker's exit handler
 * (sim_xlate_worker.c).
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "sim_llvm.h"

#define SIM_LLVM_FN(name) __typeof__(name) *sim__llvm_##name;
#include "sim_llvm.def"
#undef SIM_LLVM_FN

static const struct {
   const char *name;
   void **slot;
} llvm_fns[] = {
#define SIM_LLVM_FN(name) {#name, (void **)&sim__llvm_##name},
#include "sim_llvm.def"
#undef SIM_LLVM_FN
};
#define LLVM_NFNS (sizeof(llvm_fns) / sizeof(llvm_fns[0]))

/* SIM_LLVM_PATH: the real path of the libLLVM the build found; SIM_LLVM_SONAME: its name,
 * for a tree whose LLVM has moved since (CMakeLists.txt). */
const char *sim__llvm_libs[2] = {SIM_LLVM_PATH, SIM_LLVM_SONAME};

bool
sim__llvm_load_path(const char *path, char *why, size_t n)
{
   void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
   if (!h) {
      const char *e = dlerror();
      snprintf(why, n, "%s", e ? e : path);
      return false;
   }
   /* Every function found before any pointer is set: a library of another LLVM version
    * leaves the table as it was. */
   void *got[LLVM_NFNS];
   for (size_t i = 0; i < LLVM_NFNS; i++) {
      got[i] = dlsym(h, llvm_fns[i].name);
      if (!got[i]) {
         snprintf(why, n, "%s: undefined symbol: %s", path, llvm_fns[i].name);
         dlclose(h);
         return false;
      }
   }
   for (size_t i = 0; i < LLVM_NFNS; i++)
      *llvm_fns[i].slot = got[i];
   return true;
}

static pthread_once_t llvm_once = PTHREAD_ONCE_INIT;
static bool llvm_ok;
static char llvm_why[512];

static void
llvm_load_once(void)
{
   for (size_t i = 0; i < sizeof(sim__llvm_libs) / sizeof(sim__llvm_libs[0]); i++) {
      const char *lib = sim__llvm_libs[i];
      if (!lib)
         break;
      char one[256];
      if ((llvm_ok = sim__llvm_load_path(lib, one, sizeof(one))))
         return;
      /* Each library's reason, "; " between them. */
      size_t at = strlen(llvm_why);
      snprintf(llvm_why + at, sizeof(llvm_why) - at, "%s%s", at ? "; " : "", one);
   }
   if (!llvm_why[0])
      snprintf(llvm_why, sizeof(llvm_why), "no libLLVM to open");
}

bool
sim__llvm_load(char *why, size_t n)
{
   pthread_once(&llvm_once, llvm_load_once);
   if (!llvm_ok)
      snprintf(why, n, "%s", llvm_why);
   return llvm_ok;
}
