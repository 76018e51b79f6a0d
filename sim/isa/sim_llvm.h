/*
 * LLVM's C API for the translator, through pointers resolved when it first compiles a block
 * (sim_llvm.c): neither libhsacl-sim.so nor libhsakmt.so links libLLVM, whose load (about
 * 70 ms of relocations and static constructors) a process that compiles nothing would pay
 * for nothing.
 *
 * Included after, or instead of, the llvm-c headers: each function of sim_llvm.def becomes a
 * pointer of the function's own type (__typeof__ of its declaration there), and its name a
 * macro for the pointer (sim_llvm_redirect.h, generated from sim_llvm.def by
 * CMakeLists.txt), so the translator's calls read as LLVM's. Nothing may call them before
 * sim__llvm_load has returned true.
 */
#ifndef SIM_LLVM_H
#define SIM_LLVM_H

/* Every header declaring a function of sim_llvm.def: one included after the redirection
 * would declare pointers in place of its functions. */
#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <stdbool.h>
#include <stddef.h>

#define SIM_LLVM_FN(name) extern __typeof__(name) *sim__llvm_##name;
#include "sim_llvm.def"
#undef SIM_LLVM_FN

/* Opens libLLVM (the build's, by its real path, else its soname on the loader's search
 * path) and resolves every function of sim_llvm.def, once a process; later calls return
 * the first one's result. False: the library or one of the functions is missing, and `why`
 * (n bytes) says which. */
bool sim__llvm_load(char *why, size_t n);
/* The libraries sim__llvm_load tries, in order (NULL ends the list early). A test may point
 * them elsewhere before the first load. */
extern const char *sim__llvm_libs[2];
/* The same for the library at `path`, every time it is called; on failure the pointers
 * keep what they held. */
bool sim__llvm_load_path(const char *path, char *why, size_t n);

#include "sim_llvm_redirect.h"

#endif
