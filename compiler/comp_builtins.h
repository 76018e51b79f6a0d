/*
 * comp_builtins.h — the bitcode of comp_builtins.cl (builtins hsacl defines instead of the
 * ROCm device libraries: abs_diff, convert_<integer>_sat(floating), vstorea_half3, vloada_half3,
 * __ockl_get_local_linear_id), compiled for amdgcn-amd-amdhsa at build time and embedded. comp_llvm.cpp links it with
 * -mlink-builtin-bitcode semantics ahead of opencl.bc and ahead of ockl.bc, and hashes it
 * into comp_identity().
 */
#ifndef COMP_BUILTINS_H
#define COMP_BUILTINS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

extern const unsigned char comp_builtins_bc[];
extern const size_t comp_builtins_bc_size;

#ifdef __cplusplus
}
#endif

#endif /* COMP_BUILTINS_H */
