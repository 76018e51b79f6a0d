/* The test harness's in-process assembler (sim_isa_test_asm.cpp). */
#ifndef SIM_ISA_TEST_ASM_H
#define SIM_ISA_TEST_ASM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Assembles `src` for amdgcn-amd-amdhsa and processor `mcpu` into an ELF relocatable object
 * (what `llvm-mc -filetype=obj` writes): malloc'd, its length in *size. NULL when the source
 * does not assemble; LLVM's diagnostics are on stderr. */
uint8_t *t_assemble_object(const char *mcpu, const char *src, size_t *size);

#ifdef __cplusplus
}
#endif

#endif
