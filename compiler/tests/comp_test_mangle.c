/*
 * comp_test_mangle — comp__mangle_spir_to_amdgcn, the renaming of OpenCL built-in calls from
 * the SPIR target's address-space mangling to amdgcn's.
 *
 * The first part of the table pairs the names two compilers give one call site: clang-15
 * -triple spir64-unknown-unknown (the input) and clang-19 -triple amdgcn-amd-amdhsa (the
 * expected output), from OpenCL C 1.2 and 2.0 sources calling vload/vstore, fract, modf,
 * sincos, remquo, frexp, lgamma_r, atomics, async copies, atomic_*_explicit and overloadable
 * functions of our own with pointers in each address space. The amdgcn names of built-ins
 * are all defined in the ROCm device library (opencl.bc). Then hand-made cases: the
 * translator's forms, errors, every prefix of every input, limits, and random mutations.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int comp__mangle_spir_to_amdgcn(const char *name, size_t len, char **out);

#define SAME NULL
static const char ERR[] = "(error)";

struct mangle_case {
   const char *in;
   const char *want; /* SAME: returns 0; ERR: returns -1 */
};

static const struct mangle_case cases[] = {
   /* clang-15 spir64 -> clang-19 amdgcn, one call site each */
   { "_Z10atomic_addPU3AS1Vii", SAME },
   { "_Z10atomic_addPU3AS3Vii", SAME },
   { "_Z10atomic_incPU3AS1Vj", SAME },
   { "_Z10atomic_maxPU3AS1Vjj", SAME },
   { "_Z10ndrange_1Dm", SAME },
   { "_Z10vload_halfmPKDh", "_Z10vload_halfmPU3AS5KDh" },
   { "_Z10vload_halfmPU3AS1KDh", SAME },
   { "_Z10vload_halfmPU3AS2KDh", "_Z10vload_halfmPU3AS4KDh" },
   { "_Z10vload_halfmPU3AS3KDh", SAME },
   { "_Z10vload_halfmPU3AS4KDh", "_Z10vload_halfmPU3AS0KDh" },
   { "_Z11atomic_initPU3AS4VU7_Atomicjj", "_Z11atomic_initPU3AS0VU7_Atomicjj" },
   { "_Z11atomic_loadPU3AS4VU7_Atomicf", "_Z11atomic_loadPU3AS0VU7_Atomicf" },
   { "_Z11atomic_xchgPU3AS1Vff", SAME },
   { "_Z11atomic_xchgPU3AS3Vff", SAME },
   { "_Z11vload_half4mPU3AS1KDh", SAME },
   { "_Z11vload_half4mPU3AS2KDh", "_Z11vload_half4mPU3AS4KDh" },
   { "_Z11vload_half4mPU3AS3KDh", SAME },
   { "_Z11vstore_halfdmPDh", "_Z11vstore_halfdmPU3AS5Dh" },
   { "_Z11vstore_halfdmPU3AS1Dh", SAME },
   { "_Z11vstore_halfdmPU3AS3Dh", SAME },
   { "_Z11vstore_halffmPDh", "_Z11vstore_halffmPU3AS5Dh" },
   { "_Z11vstore_halffmPU3AS1Dh", SAME },
   { "_Z11vstore_halffmPU3AS3Dh", SAME },
   { "_Z12vloada_half4mPU3AS1KDh", SAME },
   { "_Z12vloada_half4mPU3AS2KDh", "_Z12vloada_half4mPU3AS4KDh" },
   { "_Z12vloada_half4mPU3AS3KDh", SAME },
   { "_Z12vstore_half4Dv4_fmPDh", "_Z12vstore_half4Dv4_fmPU3AS5Dh" },
   { "_Z12vstore_half4Dv4_fmPU3AS1Dh", SAME },
   { "_Z12vstore_half4Dv4_fmPU3AS3Dh", SAME },
   { "_Z13get_global_idj", SAME },
   { "_Z13vstorea_half2Dv2_fmPDh", "_Z13vstorea_half2Dv2_fmPU3AS5Dh" },
   { "_Z13vstorea_half2Dv2_fmPU3AS1Dh", SAME },
   { "_Z13vstorea_half2Dv2_fmPU3AS3Dh", SAME },
   { "_Z14atomic_cmpxchgPU3AS1Viii", SAME },
   { "_Z14read_mem_fencej", SAME },
   { "_Z15atomic_exchangePU3AS4VU7_Atomicii", "_Z15atomic_exchangePU3AS0VU7_Atomicii" },
   { "_Z15vstore_half_rtefmPDh", "_Z15vstore_half_rtefmPU3AS5Dh" },
   { "_Z15vstore_half_rtefmPU3AS1Dh", SAME },
   { "_Z15vstore_half_rtefmPU3AS3Dh", SAME },
   { "_Z16atomic_fetch_addPU3AS4VU7_Atomicii", "_Z16atomic_fetch_addPU3AS0VU7_Atomicii" },
   { "_Z16vstore_half2_rtzDv2_dmPDh", "_Z16vstore_half2_rtzDv2_dmPU3AS5Dh" },
   { "_Z16vstore_half2_rtzDv2_dmPU3AS1Dh", SAME },
   { "_Z16vstore_half2_rtzDv2_dmPU3AS3Dh", SAME },
   { "_Z17get_default_queuev", SAME },
   { "_Z17wait_group_eventsiP9ocl_event", "_Z17wait_group_eventsiPU3AS59ocl_event" },
   { "_Z21async_work_group_copyPU3AS1fPU3AS3Kfm9ocl_event", SAME },
   { "_Z21async_work_group_copyPU3AS3Dv4_fPU3AS1KS_m9ocl_event", SAME },
   { "_Z21async_work_group_copyPU3AS3fPU3AS1Kfm9ocl_event", SAME },
   { "_Z21atomic_store_explicitPU3AS4VU7_Atomicff12memory_order",
     "_Z21atomic_store_explicitPU3AS0VU7_Atomicff12memory_order" },
   { "_Z22atomic_work_item_fencej12memory_order12memory_scope", SAME },
   { "_Z25atomic_fetch_add_explicitPU3AS4VU7_Atomicii12memory_order",
     "_Z25atomic_fetch_add_explicitPU3AS0VU7_Atomicii12memory_order" },
   { "_Z25atomic_fetch_add_explicitPU3AS4VU7_Atomicii12memory_order12memory_scope",
     "_Z25atomic_fetch_add_explicitPU3AS0VU7_Atomicii12memory_order12memory_scope" },
   { "_Z28atomic_compare_exchange_weakPU3AS4VU7_AtomiciPU3AS4ii",
     "_Z28atomic_compare_exchange_weakPU3AS0VU7_AtomiciPU3AS0ii" },
   { "_Z29async_work_group_strided_copyPU3AS3fPU3AS1Kfmm9ocl_event", SAME },
   { "_Z2f1PDv4_fS1_PiS3_", "_Z2f1PU3AS5Dv4_fS1_PU3AS5iS3_" },
   { "_Z2f2Dv4_fPfPS_", "_Z2f2Dv4_fPU3AS5fPU3AS5S_" },
   { "_Z2f3PPfS0_", "_Z2f3PU3AS5PU3AS5fS0_" },
   { "_Z2f4PPU3AS1fS0_f", "_Z2f4PU3AS5PU3AS1fS0_f" },
   { "_Z2f5PiPU3AS1iPU3AS3iPU3AS2iS0_S2_S4_S6_", "_Z2f5PU3AS5iPU3AS1iPU3AS3iPU3AS4iS0_S2_S4_S6_" },
   { "_Z2f6PKfPfS0_PDv4_fPKS3_", "_Z2f6PU3AS5KfPU3AS5fS0_PU3AS5Dv4_fPU3AS5KS3_" },
   { "_Z2f7PPU3AS3PU3AS1fPU3AS3fS0_", "_Z2f7PU3AS5PU3AS3PU3AS1fPU3AS3fS0_" },
   { "_Z2f8PU3AS1ViPViPVKiDv2_iS5_S2_", "_Z2f8PU3AS1ViPU3AS5ViPU3AS5VKiDv2_iS5_S2_" },
   { "_Z2f9P2stS_2enPU3AS1S_PS2_9ocl_eventPS7_",
     "_Z2f9PU3AS52stS_2enPU3AS1S_PU3AS5S2_9ocl_eventPU3AS5S7_" },
   { "_Z2h1PA3_iS1_PS_", "_Z2h1PA3_U3AS5iS1_PS_" },
   { "_Z2h2PfS0_", "_Z2h2PU3AS5fS0_" },
   { "_Z2h3PfPS0_", "_Z2h3PU3AS5fPU3AS5S0_" },
   { "_Z2h4PU3AS1U7_AtomiciPU3AS3S_PU3AS4S_PS_i",
     "_Z2h4PU3AS1U7_AtomiciPU3AS3S_PU3AS0S_PU3AS5S_i" },
   { "_Z2h69ocl_queue12ocl_clkevent13ocl_reserveid11ocl_sampler9ndrange_tPU3AS4S0_PU3AS4KS0_",
     "_Z2h69ocl_queue12ocl_clkevent13ocl_reserveid11ocl_sampler9ndrange_tPU3AS0S0_PU3AS0KS0_" },
   { "_Z2h714ocl_image2d_ro14ocl_image2d_wo14ocl_image3d_rw21ocl_image1d_buffer_ro20ocl_image2d_"
     "array_ro20ocl_image2d_depth_roS_",
     SAME },
   { "_Z2h88ocl_pipe8ocl_pipe", SAME },
   { "_Z2h9PU3AS4PU3AS4fPU3AS4PU3AS1fPfPU3AS2fPU3AS3fS0_S0_",
     "_Z2h9PU3AS0PU3AS0fPU3AS0PU3AS1fPU3AS5fPU3AS4fPU3AS3fS0_S0_" },
   { "_Z33atomic_flag_test_and_set_explicitPU3AS4VU7_Atomici12memory_order12memory_scope",
     "_Z33atomic_flag_test_and_set_explicitPU3AS0VU7_Atomici12memory_order12memory_scope" },
   { "_Z39atomic_compare_exchange_strong_explicitPU3AS4VU7_AtomiciPU3AS4ii12memory_orderS4_",
     "_Z39atomic_compare_exchange_strong_explicitPU3AS0VU7_AtomiciPU3AS0ii12memory_orderS4_" },
   { "_Z39atomic_compare_exchange_strong_explicitPU3AS4VU7_AtomiciPU3AS4ii12memory_orderS4_"
     "12memory_scope",
     "_Z39atomic_compare_exchange_strong_explicitPU3AS0VU7_AtomiciPU3AS0ii12memory_orderS4_"
     "12memory_scope" },
   { "_Z3f10PfPA3_i", "_Z3f10PU3AS5fPA3_U3AS5i" },
   { "_Z3f11Dv4_fS_S_S_S_S_S_S_S_S_S_S_S_S_PS_", "_Z3f11Dv4_fS_S_S_S_S_S_S_S_S_S_S_S_S_PU3AS5S_" },
   { "_Z3f12PDv4_fPiPjPlPmPcPhPsPtPdPDhPDv2_fPDv4_iPU3AS1SP_SR_ST_",
     "_Z3f12PU3AS5Dv4_"
     "fPU3AS5iPU3AS5jPU3AS5lPU3AS5mPU3AS5cPU3AS5hPU3AS5sPU3AS5tPU3AS5dPU3AS5DhPU3AS5Dv2_fPU3AS5Dv4_"
     "iPU3AS1SP_SR_ST_" },
   { "_Z3f13PKiPiPKf", "_Z3f13PU3AS5KiPU3AS5iPU3AS5Kf" },
   { "_Z3h10PDhdchmblmstja", "_Z3h10PU3AS5Dhdchmblmstja" },
   { "_Z3h11PA3_A4_iPA2_U3AS1iPA2_Ki", "_Z3h11PA3_A4_U3AS5iPA2_U3AS1iPA2_U3AS5Ki" },
   { "_Z3h12PPDv4_fS3_S1_PU3AS1S_S_", "_Z3h12PU3AS5PU3AS5Dv4_fS3_S1_PU3AS1S_S_" },
   { "_Z3h13PU3AS4U7_AtomiciS1_PU3AS4U7_AtomicjPU3AS4iPU3AS4VS_U7_Atomicf",
     "_Z3h13PU3AS0U7_AtomiciS1_PU3AS0U7_AtomicjPU3AS0iPU3AS0VS_U7_Atomicf" },
   { "_Z3h14PPfPS2_S0_PKfPS6_PKPVf",
     "_Z3h14PU3AS5PU3AS5fPU3AS5S2_S0_PU3AS5KfPU3AS5S6_PU3AS5KPU3AS5Vf" },
   { "_Z3h15Dv4_fPfPS_PU3AS1S_S3_PU3AS3fS_", "_Z3h15Dv4_fPU3AS5fPU3AS5S_PU3AS1S_S3_PU3AS3fS_" },
   { "_Z3h161SPS_PU3AS1S_S_PKS_PU3AS2S_", "_Z3h161SPU3AS5S_PU3AS1S_S_PU3AS5KS_PU3AS4S_" },
   { "_Z3h17PU3AS4PfPS0_", "_Z3h17PU3AS0PU3AS5fPU3AS5S0_" },
   { "_Z3nanj", SAME },
   { "_Z3sinf", SAME },
   { "_Z4modfDv2_dPS_", "_Z4modfDv2_dPU3AS5S_" },
   { "_Z4modfDv2_dPU3AS1S_", SAME },
   { "_Z4modfDv2_dPU3AS3S_", SAME },
   { "_Z4modfDv2_fPS_", "_Z4modfDv2_fPU3AS5S_" },
   { "_Z4modfDv2_fPU3AS1S_", SAME },
   { "_Z4modfDv2_fPU3AS3S_", SAME },
   { "_Z4modffPU3AS1f", SAME },
   { "_Z4modffPU3AS3f", SAME },
   { "_Z4modffPU3AS4f", "_Z4modffPU3AS0f" },
   { "_Z4modffPf", "_Z4modffPU3AS5f" },
   { "_Z5fractDv4_fPS_", "_Z5fractDv4_fPU3AS5S_" },
   { "_Z5fractDv4_fPU3AS1S_", SAME },
   { "_Z5fractDv4_fPU3AS3S_", SAME },
   { "_Z5fractdPU3AS1d", SAME },
   { "_Z5fractdPU3AS3d", SAME },
   { "_Z5fractdPd", "_Z5fractdPU3AS5d" },
   { "_Z5fractfPU3AS1f", SAME },
   { "_Z5fractfPU3AS3f", SAME },
   { "_Z5fractfPU3AS4f", "_Z5fractfPU3AS0f" },
   { "_Z5fractfPf", "_Z5fractfPU3AS5f" },
   { "_Z5frexpDv2_dPDv2_i", "_Z5frexpDv2_dPU3AS5Dv2_i" },
   { "_Z5frexpDv2_dPU3AS1Dv2_i", SAME },
   { "_Z5frexpDv2_dPU3AS3Dv2_i", SAME },
   { "_Z5frexpDv2_fPDv2_i", "_Z5frexpDv2_fPU3AS5Dv2_i" },
   { "_Z5frexpDv2_fPU3AS1Dv2_i", SAME },
   { "_Z5frexpDv2_fPU3AS3Dv2_i", SAME },
   { "_Z5frexpfPU3AS1i", SAME },
   { "_Z5frexpfPU3AS3i", SAME },
   { "_Z5frexpfPi", "_Z5frexpfPU3AS5i" },
   { "_Z6remquoDv2_fS_PDv2_i", "_Z6remquoDv2_fS_PU3AS5Dv2_i" },
   { "_Z6remquoDv2_fS_PU3AS1Dv2_i", SAME },
   { "_Z6remquoDv2_fS_PU3AS3Dv2_i", SAME },
   { "_Z6remquoddPU3AS1i", SAME },
   { "_Z6remquoddPU3AS3i", SAME },
   { "_Z6remquoddPi", "_Z6remquoddPU3AS5i" },
   { "_Z6remquoffPU3AS1i", SAME },
   { "_Z6remquoffPU3AS3i", SAME },
   { "_Z6remquoffPU3AS4i", "_Z6remquoffPU3AS0i" },
   { "_Z6remquoffPi", "_Z6remquoffPU3AS5i" },
   { "_Z6sincosDv4_fPS_", "_Z6sincosDv4_fPU3AS5S_" },
   { "_Z6sincosDv4_fPU3AS1S_", SAME },
   { "_Z6sincosDv4_fPU3AS3S_", SAME },
   { "_Z6sincosDv4_fPU3AS4S_", "_Z6sincosDv4_fPU3AS0S_" },
   { "_Z6sincosfPU3AS1f", SAME },
   { "_Z6sincosfPU3AS3f", SAME },
   { "_Z6sincosfPf", "_Z6sincosfPU3AS5f" },
   { "_Z6vload2mPKd", "_Z6vload2mPU3AS5Kd" },
   { "_Z6vload2mPKi", "_Z6vload2mPU3AS5Ki" },
   { "_Z6vload2mPU3AS1Kc", SAME },
   { "_Z6vload2mPU3AS1Kd", SAME },
   { "_Z6vload2mPU3AS1Km", SAME },
   { "_Z6vload2mPU3AS1Ks", SAME },
   { "_Z6vload2mPU3AS2Kc", "_Z6vload2mPU3AS4Kc" },
   { "_Z6vload2mPU3AS2Kd", "_Z6vload2mPU3AS4Kd" },
   { "_Z6vload2mPU3AS2Kf", "_Z6vload2mPU3AS4Kf" },
   { "_Z6vload2mPU3AS2Km", "_Z6vload2mPU3AS4Km" },
   { "_Z6vload2mPU3AS2Ks", "_Z6vload2mPU3AS4Ks" },
   { "_Z6vload2mPU3AS3Kc", SAME },
   { "_Z6vload2mPU3AS3Kd", SAME },
   { "_Z6vload2mPU3AS3Km", SAME },
   { "_Z6vload2mPU3AS3Ks", SAME },
   { "_Z6vload3mPU3AS1Kj", SAME },
   { "_Z6vload3mPU3AS2Kj", "_Z6vload3mPU3AS4Kj" },
   { "_Z6vload3mPU3AS3Kj", SAME },
   { "_Z6vload4mPKf", "_Z6vload4mPU3AS5Kf" },
   { "_Z6vload4mPU3AS1Kf", SAME },
   { "_Z6vload4mPU3AS1Kt", SAME },
   { "_Z6vload4mPU3AS2Kf", "_Z6vload4mPU3AS4Kf" },
   { "_Z6vload4mPU3AS2Kt", "_Z6vload4mPU3AS4Kt" },
   { "_Z6vload4mPU3AS3Kf", SAME },
   { "_Z6vload4mPU3AS3Kt", SAME },
   { "_Z6vload4mPU3AS4Kf", "_Z6vload4mPU3AS0Kf" },
   { "_Z6vload8mPU3AS1Kl", SAME },
   { "_Z6vload8mPU3AS2Kl", "_Z6vload8mPU3AS4Kl" },
   { "_Z6vload8mPU3AS3Kl", SAME },
   { "_Z7shuffleDv4_jS_", SAME },
   { "_Z7vload16mPU3AS1Kh", SAME },
   { "_Z7vload16mPU3AS2Kh", "_Z7vload16mPU3AS4Kh" },
   { "_Z7vload16mPU3AS3Kh", SAME },
   { "_Z7vstore2Dv2_imPU3AS1i", SAME },
   { "_Z7vstore2Dv2_imPU3AS3i", SAME },
   { "_Z7vstore2Dv2_imPi", "_Z7vstore2Dv2_imPU3AS5i" },
   { "_Z7vstore3Dv3_dmPU3AS1d", SAME },
   { "_Z7vstore3Dv3_dmPU3AS3d", SAME },
   { "_Z7vstore3Dv3_dmPd", "_Z7vstore3Dv3_dmPU3AS5d" },
   { "_Z7vstore4Dv4_fmPU3AS1f", SAME },
   { "_Z7vstore4Dv4_fmPU3AS3f", SAME },
   { "_Z7vstore4Dv4_fmPU3AS4f", "_Z7vstore4Dv4_fmPU3AS0f" },
   { "_Z7vstore4Dv4_fmPf", "_Z7vstore4Dv4_fmPU3AS5f" },
   { "_Z8atom_addPU3AS1Vii", SAME },
   { "_Z8lgamma_rDv4_fPDv4_i", "_Z8lgamma_rDv4_fPU3AS5Dv4_i" },
   { "_Z8lgamma_rDv4_fPU3AS1Dv4_i", SAME },
   { "_Z8lgamma_rDv4_fPU3AS3Dv4_i", SAME },
   { "_Z8lgamma_rfPU3AS1i", SAME },
   { "_Z8lgamma_rfPU3AS3i", SAME },
   { "_Z8lgamma_rfPi", "_Z8lgamma_rfPU3AS5i" },
   { "_Z8prefetchPU3AS1KDv4_fm", SAME },
   { "_Z8prefetchPU3AS1Kfm", SAME },
   /* llvm-spirv-15 -r (CL1.2 and CL2.0 environments) */
   { "_Z10atomic_addPU3AS4Vii", "_Z10atomic_addPU3AS0Vii" },
   { "_Z10atomic_addPU3AS4Vff", "_Z10atomic_addPU3AS0Vff" },
   { "_Z11atomic_xchgPU3AS4Vff", "_Z11atomic_xchgPU3AS0Vff" },
   { "_Z14atomic_cmpxchgPU3AS4Viii", "_Z14atomic_cmpxchgPU3AS0Viii" },
   { "_Z10atomic_incPU3AS1Vi", SAME },
   { "_Z9mem_fencej", SAME },
   { "_Z20atomic_load_explicitPU3AS4VU7_Atomicf12memory_order12memory_scope",
     "_Z20atomic_load_explicitPU3AS0VU7_Atomicf12memory_order12memory_scope" },
   { "_Z25atomic_fetch_max_explicitPU3AS4VU7_Atomicjj12memory_order12memory_scope",
     "_Z25atomic_fetch_max_explicitPU3AS0VU7_Atomicjj12memory_order12memory_scope" },
   { "_Z29async_work_group_strided_copyPU3AS3Dv4_fPU3AS1KS_mm9ocl_event", SAME },
   { "_Z29async_work_group_strided_copyPU3AS1fPU3AS3Kfmm9ocl_event", SAME },
   { "_Z12vloada_half4mPU3AS2KDh", "_Z12vloada_half4mPU3AS4KDh" },
   { "_Z6vload3mPU3AS2Ki", "_Z6vload3mPU3AS4Ki" },
   /* the brief's examples */
   { "_Z6vload4mPU3AS1Kf", SAME },
   { "_Z6vload4mPKf", "_Z6vload4mPU3AS5Kf" },
   { "_Z6vload4mPU3AS4Kf", "_Z6vload4mPU3AS0Kf" },
   { "_Z6vload4mPU3AS2Kf", "_Z6vload4mPU3AS4Kf" },
   { "_Z10atomic_addPU3AS1Vii", SAME },
   { "_Z25atomic_fetch_add_explicitPU3AS4VU7_Atomicii12memory_order12memory_scope",
     "_Z25atomic_fetch_add_explicitPU3AS0VU7_Atomicii12memory_order12memory_scope" },
   { "_Z3sinf", SAME },
   { "_Z13get_global_idj", SAME },
   { "_Z5fractfPf", "_Z5fractfPU3AS5f" },
   { "_Z6sincosDv4_fPS_", "_Z6sincosDv4_fPU3AS5S_" },
   { "_Z6remquoffPi", "_Z6remquoffPU3AS5i" },
   { "_Z4modfDv2_fPS_", "_Z4modfDv2_fPU3AS5S_" },
   { "_Z21async_work_group_copyPU3AS3fPU3AS1Kfm9ocl_event", SAME },
   /* "async_work_group_copy" has 21 letters: name "async_work_group_", then "copy..." */
   { "_Z17async_work_group_copyPU3AS3fPU3AS1Kfm9ocl_event", ERR },
   { "_Z6vload2mPU3AS2Kc", "_Z6vload2mPU3AS4Kc" },
   /* not mangled: unchanged */
   { "printf", SAME },
   { "__spirv_ocl_fract", SAME },
   { "", SAME },
   { "_", SAME },
   { "Z3sinf", SAME },
   /* two input types becoming one: the re-emission substitutes and renumbers */
   { "_Z3fooPU3AS0fPf", "_Z3fooPU3AS5fS0_" },
   { "_Z3fooPU3AS0fPfDv4_fS3_", "_Z3fooPU3AS5fS0_Dv4_fS1_" },
   { "_Z3fooPU3AS4fPU3AS4f", "_Z3fooPU3AS0fS0_" },
   /* pointers to pointers, arrays, _Atomic, names */
   { "_Z3fooPPU3AS4PU3AS2Kf", "_Z3fooPU3AS5PU3AS0PU3AS4Kf" },
   { "_Z3fooPU3AS1PU3AS3PU3AS4PfS2_", "_Z3fooPU3AS1PU3AS3PU3AS0PU3AS5fS2_" },
   { "_Z3fooPA2_A3_U3AS2Kf", "_Z3fooPA2_A3_U3AS4Kf" },
   { "_Z3fooPU3AS3U7_AtomicjPS_", "_Z3fooPU3AS3U7_AtomicjPU3AS5S_" },
   { "_Z3fooU7_AtomiciS_", SAME },
   { "_Z3foo9ocl_eventP9ocl_eventPKS_", "_Z3foo9ocl_eventPU3AS5S_PU3AS5KS_" },
   { "_Z3foo12memory_orderS_12memory_scopeS0_", SAME },
   { "_Z2h88ocl_pipeS_", SAME },
   { "_Z3fooDF16_PDF16_", "_Z3fooDF16_PU3AS5DF16_" },
   { "_Z3foorVKPrVKf", "_Z3foorVKPU3AS5rVKf" },
   /* blocks: pointees inside the function type are rewritten too */
   { "_Z14enqueue_kernel9ocl_queuei9ndrange_tU13block_pointerFvvE", SAME },
   { "_Z2b1U13block_pointerFvPU3AS3ifES2_S0_", SAME },
   { "_Z2b1U13block_pointerFvPifES2_S0_", "_Z2b1U13block_pointerFvPU3AS5ifES2_S0_" },
   { "_Z2b1U13block_pointerFYvPU3AS4vEPS_", "_Z2b1U13block_pointerFYvPU3AS0vES0_" },
   { "_Z2b1U13block_pointerFYvPU3AS4vEPS1_", "_Z2b1U13block_pointerFYvPU3AS0vEPU3AS5S1_" },
   { "_Z2b1U13block_pointerU3AS4FvvE", "_Z2b1U13block_pointerU3AS0FvvE" },
   /* more than 37 candidates: base-36 sequence ids */
   { "_Z3foo1a1b1c1d1e1f1g1h1i1j1k1l1m1n1o1p1q1r1s1t1u1v1w1x1y1z1A1B1C1D1E1F1G1H1I1J1K1L1MPS10_",
     "_Z3foo1a1b1c1d1e1f1g1h1i1j1k1l1m1n1o1p1q1r1s1t1u1v1w1x1y1z1A1B1C1D1E1F1G1H1I1J1K1L1MPU3AS5S10"
     "_" },
   { "_Z3foo1a1b1c1d1e1f1g1h1i1j1k1l1m1n1o1p1q1r1s1t1u1v1w1x1y1z1A1B1C1D1E1F1G1H1I1J1K1L1MS10_S11_",
     SAME },
   { "_Z3foo1a1b1c1d1e1f1g1h1i1j1k1l1m1n1o1p1q1r1s1t1u1v1w1x1y1z1A1B1C1D1E1F1G1H1I1J1K1L1MS10_S12_",
     ERR },
   /* malformed or outside the subset */
   { "_Z", ERR },
   { "_Z3", ERR },
   { "_Z3sin", ERR },
   { "_Z0f", ERR },
   { "_Z03sinf", ERR },
   { "_Z99sinf", ERR },
   { "_Z3si-f", ERR },
   { "_ZN3foo3barEv", ERR },
   { "_ZL3foov", ERR },
   { "_ZTV3foo", ERR },
   { "_Z3fooIiEvv", ERR },
   { "_Z3fooS_", ERR },
   { "_Z3fooPfS1_", ERR },
   { "_Z3fooStv", ERR },
   { "_Z3fooSa_", ERR },
   { "_Z3fooS0A_", ERR },
   { "_Z3fooPU3AS5f", ERR },
   { "_Z3fooPU3AS9f", ERR },
   { "_Z3fooPU4AS10f", ERR },
   { "_Z3fooPU3AS01f", "_Z3fooPU3AS51f" }, /* AS0 (SPIR's private) and class "f" */
   { "_Z3fooPU4AS01f", ERR },
   { "_Z3fooPU2ASf", ERR },
   { "_Z3fooPU8__strongf", ERR },
   { "_Z3fooPU3AS1U3AS3f", ERR },
   { "_Z3fooKVf", ERR },
   { "_Z3fooDv0_f", ERR },
   { "_Z3fooDv4f", ERR },
   { "_Z3fooDv04_f", ERR },
   { "_Z3fooDaf", ERR },
   { "_Z3fooRi", ERR },
   { "_Z3fooFvE", ERR },
   { "_Z3fooFvi", ERR },
   { "_Z3foou3bar", ERR },
   { "_Z3sinf.1", ERR },
   { "_Z3foo\x80", ERR },
   /* the translator's table (private pointees not counted) cannot be told from clang's;
    * a private pointee named outside a pointee is refused */
   { "_Z3fooPfS_", ERR },
   { "_Z3fooPKfS_", ERR },
};

static int failures;
static long num_prefixes;
static long fuzz_results[3]; /* -1, 0, 1 */

/* `len` bytes of `s` in a buffer of exactly that size, so that a read past it is caught. */
static int
call(const char *s, size_t len, char **out)
{
   char *buf = malloc(len ? len : 1);
   if (!buf) {
      fprintf(stderr, "out of memory\n");
      exit(2);
   }
   memcpy(buf, s, len);
   int r = comp__mangle_spir_to_amdgcn(buf, len, out);
   free(buf);
   return r;
}

/* A result must be -1, 0 or 1 with a plausible name; reports and counts any other. */
static void
check_result(const char *what, const char *in, size_t len, int r, char *out)
{
   bool ok =
      r == -1 || r == 0 || (r == 1 && out && out[0] == '_' && out[1] == 'Z' && strlen(out) <= 4096);
   if (!ok) {
      fprintf(stderr, "FAIL (%s): '%.*s' returned %d\n", what, (int)len, in, r);
      failures++;
   }
}

static void
check(const char *in, size_t len, const char *want)
{
   char *out = NULL;
   int r = call(in, len, &out);
   int want_r = want == SAME ? 0 : want == ERR ? -1 : 1;
   if (r != want_r || (r == 1 && strcmp(out, want)) || (r != 1 && out)) {
      fprintf(stderr, "FAIL: '%.*s': got %d '%s', want %d '%s'\n", (int)len, in, r,
              r == 1 && out ? out : "", want_r, want_r == 1 ? want : "");
      failures++;
   }
   free(out);
}

static void
check_prefixes(const char *in)
{
   size_t len = strlen(in);
   for (size_t n = 0; n < len; n++) {
      char *out = NULL;
      int r = call(in, n, &out);
      check_result("prefix", in, n, r, out);
      num_prefixes++;
      free(out);
   }
}

/* A type nested `depth` pointers deep, and names too long once rewritten. */
static void
check_limits(void)
{
   char in[8192], want[8192];
   size_t n = 0, m = 0;
   n += (size_t)snprintf(in, sizeof(in), "_Z3foo");
   m += (size_t)snprintf(want, sizeof(want), "_Z3foo");
   for (int i = 0; i < 60; i++) {
      n += (size_t)snprintf(in + n, sizeof(in) - n, "P");
      m += (size_t)snprintf(want + m, sizeof(want) - m, "PU3AS5");
   }
   snprintf(in + n, sizeof(in) - n, "f");
   snprintf(want + m, sizeof(want) - m, "f");
   check(in, strlen(in), want);

   n = (size_t)snprintf(in, sizeof(in), "_Z3foo");
   for (int i = 0; i < 70; i++)
      in[n++] = 'P';
   in[n++] = 'f';
   check(in, n, ERR);

   /* Parameters of 60 pointers to a distinct 675-letter name: 738 bytes in, 1038 out. Three
    * fit in 4096 bytes, four are 2958 bytes in but 4158 out (refused). */
   for (int params = 3; params <= 4; params++) {
      n = (size_t)snprintf(in, sizeof(in), "_Z3foo");
      for (int p = 0; p < params; p++) {
         for (int i = 0; i < 60; i++)
            in[n++] = 'P';
         n += (size_t)snprintf(in + n, sizeof(in) - n, "675");
         for (int i = 0; i < 675; i++)
            in[n++] = (char)('a' + p);
      }
      char *out = NULL;
      int r = call(in, n, &out);
      if (params == 3 ? (r != 1 || strlen(out) != n + 3 * 60 * 5) : r != -1) {
         fprintf(stderr, "FAIL: %d long parameters: got %d\n", params, r);
         failures++;
      }
      free(out);
   }

   /* inputs longer than 4096 are refused, even with a valid name */
   n = (size_t)snprintf(in, sizeof(in), "_Z4100");
   for (int i = 0; i < 4100; i++)
      in[n++] = 'x';
   in[n++] = 'f';
   check(in, n, ERR);
}

/* xorshift64*: deterministic, seedable from the command line */
static uint64_t
rnd(uint64_t *state)
{
   *state ^= *state >> 12;
   *state ^= *state << 25;
   *state ^= *state >> 27;
   return *state * 2685821657736338717ull;
}

static void
fuzz(uint64_t seed, long iterations)
{
   static const char alphabet[] = "PKVrUDvSA_0123456789fijmcdhEFYZ3AS7_Atomic";
   const size_t num_cases = sizeof(cases) / sizeof(cases[0]);
   uint64_t st = seed ? seed : 1;
   char buf[512];
   for (long it = 0; it < iterations; it++) {
      const char *src = cases[rnd(&st) % num_cases].in;
      size_t len = strlen(src);
      if (len > 200)
         len = 200;
      memcpy(buf, src, len);
      int mutations = 1 + (int)(rnd(&st) % 4);
      for (int k = 0; k < mutations; k++) {
         uint64_t x = rnd(&st);
         size_t pos = len ? (size_t)(x >> 8) % (len + 1) : 0;
         char ch = (x & 16) ? alphabet[(x >> 40) % (sizeof(alphabet) - 1)] : (char)(x >> 48);
         switch (x % 5) {
         case 0: /* replace a byte */
            if (pos < len)
               buf[pos] = ch;
            break;
         case 1: /* insert a byte */
            if (len < sizeof(buf) - 1) {
               memmove(buf + pos + 1, buf + pos, len - pos);
               buf[pos] = ch;
               len++;
            }
            break;
         case 2: /* delete a byte */
            if (pos < len) {
               memmove(buf + pos, buf + pos + 1, len - pos - 1);
               len--;
            }
            break;
         case 3: /* truncate */
            len = pos;
            break;
         default: /* flip a bit */
            if (pos < len)
               buf[pos] ^= (char)(1u << ((x >> 32) % 8));
            break;
         }
      }
      char *out = NULL;
      int r = call(buf, len, &out);
      check_result("fuzz", buf, len, r, out);
      if (r >= -1 && r <= 1)
         fuzz_results[r + 1]++;
      if (r == 1) {
         /* the same answer twice */
         char *again = NULL;
         if (call(buf, len, &again) != 1 || strcmp(again, out)) {
            fprintf(stderr, "FAIL (fuzz): '%.*s' not deterministic\n", (int)len, buf);
            failures++;
         }
         free(again);
      }
      free(out);
   }
}

int
main(int argc, char **argv)
{
   const size_t num_cases = sizeof(cases) / sizeof(cases[0]);
   uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 0) : 0x5eed;
   long iterations = argc > 2 ? strtol(argv[2], NULL, 0) : 200000;

   for (size_t i = 0; i < num_cases; i++)
      check(cases[i].in, strlen(cases[i].in), cases[i].want);
   check("_Z3f\0of", 7, ERR);    /* a NUL inside the name */
   check("_Z3sinfXYZ", 7, SAME); /* only `len` bytes are the name */
   check("_Z5fractfPfJUNK", 11, "_Z5fractfPU3AS5f");
   for (size_t i = 0; i < num_cases; i++)
      check_prefixes(cases[i].in);
   check_limits();
   fuzz(seed, iterations);

   printf("%zu table cases + 3 length cases + 5 limit cases, %ld prefixes, %ld fuzz iterations "
          "(seed %#llx: %ld refused, %ld same, %ld changed): %d failures\n",
          num_cases, num_prefixes, iterations, (unsigned long long)seed, fuzz_results[0],
          fuzz_results[1], fuzz_results[2], failures);
   return failures != 0;
}
