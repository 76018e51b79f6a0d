/*
 * comp_priv.h — what the files of compiler/ share.
 */
#ifndef COMP_PRIV_H
#define COMP_PRIV_H

#include "comp_llvm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The application's build options, parsed and validated (OpenCL 3.0 API 5.8.6). */
struct comp__options {
   unsigned cl_std; /* 100, 110, 120, 200, 300 or 310; 120 when -cl-std is absent */
   bool opt_disable;
   bool mad_enable;
   bool no_signed_zeros;
   bool unsafe_math;
   bool finite_math_only;
   bool fast_relaxed_math;
   bool denorms_are_zero;
   bool correctly_rounded_sqrt;
   bool single_precision_constant;
   bool uniform_work_group_size;
   bool no_subgroup_ifp;
   bool kernel_arg_info;
   bool strict_aliasing;
   bool debug_info;
   bool no_warnings; /* -w */
   bool werror;      /* -Werror */
   bool create_library;      /* clLinkProgram only */
   bool enable_link_options; /* clLinkProgram only */
   /* Preprocessor arguments in order: "-DNAME", "-DNAME=VALUE", "-I<dir>". */
   char **pp_args;
   size_t num_pp_args;
};

/* Parses `str` (NULL = "") for `action`. Tokens are separated by blanks; '...' and "..."
 * group, backslash escapes the next character outside '...'. On an unknown or malformed
 * option returns COMP_INVALID_{BUILD,COMPILER,LINKER}_OPTIONS and a malloc'd reason in
 * *error. *out is always initialised and must be released with comp__options_finish. */
enum comp_status
comp__options_parse(const char *str, enum comp_action action, struct comp__options *out,
                    char **error);

void
comp__options_finish(struct comp__options *opts);

/* The oclc_* control-constant module a build for `target_id` with `options` links, as LLVM
 * IR text (malloc'd, in *text). For tests. */
enum comp_status
comp__control_module_text(const char *target_id, const char *options, char **text);

/* ---- SPIR-V (comp_spirv.c) ---------------------------------------------------------- */

struct comp__spirv_info {
   unsigned major, minor; /* SPIR-V version of the header */
   bool swapped;          /* words are big-endian */
   bool kernel_capability;
   bool has_memory_model;
   uint32_t addressing, memory_model;
   uint32_t num_kernels; /* OpEntryPoint Kernel */
};

/* Checks that `il` is a SPIR-V 1.0-1.4 module hsacl can run: well-formed for SPIRV-Tools'
 * validator, Kernel capability, OpenCL memory model, Physical64 addressing. COMP_OK and
 * *info filled, or COMP_INVALID_BINARY with a malloc'd reason in *why (COMP_OUT_OF_MEMORY,
 * *why NULL). Never crashes on arbitrary bytes. */
enum comp_status
comp__spirv_check(const void *il, size_t size, struct comp__spirv_info *info, char **why);

/* Size in bytes of the specialization constant with SpecId `spec_id` (1 for a boolean),
 * or 0 when the module has none. `il` passed comp__spirv_check. */
uint32_t
comp__spirv_spec_size(const void *il, size_t size, uint32_t spec_id);

/* Translates a checked module, specialized with `sc`, to LLVM bitcode (spir64, as Khronos'
 * translator writes it) through the translator process. COMP_OK with a malloc'd *bitcode,
 * or an error with a malloc'd build-log text in *log (may be NULL on out-of-memory). */
enum comp_status
comp__spirv_translate(const void *il, size_t size, const struct comp_spec_constant *sc,
                      size_t num_sc, void **bitcode, size_t *bitcode_size, char **log);

/* The module `words` (big-endian when `swapped`), which passed comp__spirv_check, in host
 * order with the SPIR-V 1.4 instructions the translator cannot read rewritten as their
 * SPIR-V 1.0-1.3 equivalents (comp_spirv_lower.c): COMP_OK and a malloc'd *out, or
 * COMP_INVALID_BINARY with a malloc'd reason in *why, or COMP_OUT_OF_MEMORY. */
enum comp_status
comp__spirv_lower(const uint32_t *words, size_t num_words, bool swapped, uint32_t **out,
                  size_t *out_words, char **why);

/* The module `words` (host order, word counts in bounds as comp_spirv.c's scan checks; not
 * yet validated) with each OpReadClockKHR (SPV_KHR_shader_clock) rewritten as a call of the
 * cl_khr_kernel_clock built-in of its scope (comp_spirv_clock.c): COMP_OK and a malloc'd *out,
 * or *out NULL when the module does not use the extension; COMP_INVALID_BINARY with a
 * malloc'd reason in *why (another scope or result type); COMP_OUT_OF_MEMORY. */
enum comp_status
comp__spirv_lower_clock(const uint32_t *words, size_t num_words, uint32_t **out,
                        size_t *out_words, char **why);

/* Reorders, in place, the blocks of each function of the module `words` (either byte
 * order; not yet validated) so that every block comes after its dominators, the entry
 * first, as SPIR-V's validation rules require of the layout (comp_spirv_order.c). A
 * function already in order, or one it cannot read, is left as it is. */
void
comp__spirv_order_blocks(uint32_t *words, size_t num_words);

/* Identifies the translator executable for kernel cache keys (comp_spirv.c). */
void
comp__spirv_translator_identity(char *buf, size_t size);

/* Rewrites an Itanium-mangled OpenCL built-in name from the SPIR target's address-space
 * mangling to amdgcn's (see comp_mangle.c). Returns 1 and a malloc'd NUL-terminated name in
 * *out when the name changed, 0 when it is the same (or does not start with "_Z"; *out
 * untouched), -1 when the name is malformed or uses a construct the rewriter does not know
 * (*out untouched). `name` need not be NUL-terminated. */
int
comp__mangle_spir_to_amdgcn(const char *name, size_t len, char **out);

#ifdef __cplusplus
}

#include <memory>
#include <string>

#include <llvm/IR/PassManager.h>

namespace llvm {
class Module;
class raw_ostream;
} // namespace llvm

// comp_spirv_llvm.cpp: a new amdgcn module (data layout `dataLayout`) equivalent to `src`,
// a spir64 module as Khronos' translator writes it (address spaces, calling conventions,
// intrinsic and built-in names remapped), in src's context. nullptr with the reason in
// `log` when the module cannot be retargeted.
std::unique_ptr<llvm::Module>
compRetargetSpir(llvm::Module &src, const std::string &dataLayout, llvm::raw_ostream &log);

// comp_passes.cpp: hsacl's IR passes for the start of every build's optimisation pipeline
// (every level; after the device libraries are linked, before early simplification)...
void
compAddEarlyPasses(llvm::ModulePassManager &mpm);

// ...and for its end (every level), before code generation.
void
compAddLatePasses(llvm::ModulePassManager &mpm);

// comp_passes.cpp: false, with one "error:" line in `log` per cycle naming its functions
// (demangled, `hidePrefix` removed), when a function of `m` reaches itself through direct
// calls (OpenCL C 3.0 §6.11: no recursion).
bool
compCheckNoRecursion(llvm::Module &m, llvm::StringRef hidePrefix, llvm::raw_ostream &log);
#endif

#endif /* COMP_PRIV_H */
