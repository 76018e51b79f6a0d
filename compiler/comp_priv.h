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
   unsigned cl_std; /* 100, 110, 120, 200 or 300; 120 when -cl-std is absent */
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

#ifdef __cplusplus
}
#endif

#endif /* COMP_PRIV_H */
