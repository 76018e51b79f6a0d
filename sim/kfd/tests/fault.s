// Faulting kernels for kfd_test_fault. mem_fault stores to the address its first kernel
// argument holds (the test passes one no allocation covers): a GPU memory fault.
// illegal executes a dword that decodes to no gfx906 instruction.
.amdgcn_target "amdgcn-amd-amdhsa--gfx906"
.text
.globl mem_fault
.p2align 8
.type mem_fault,@function
mem_fault:
   s_load_dwordx2 s[2:3], s[0:1], 0x0
   s_waitcnt lgkmcnt(0)
   v_mov_b32 v0, s2
   v_mov_b32 v1, s3
   v_mov_b32 v2, 42
   flat_store_dword v[0:1], v2
   s_waitcnt vmcnt(0) lgkmcnt(0)
   s_endpgm
.size mem_fault, .-mem_fault

.globl illegal
.p2align 8
.type illegal,@function
illegal:
   .long 0xffffffff
   s_endpgm
.size illegal, .-illegal

.rodata
.p2align 6
.amdhsa_kernel mem_fault
   .amdhsa_next_free_vgpr 3
   .amdhsa_next_free_sgpr 8
   .amdhsa_user_sgpr_kernarg_segment_ptr 1
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel illegal
   .amdhsa_next_free_vgpr 1
   .amdhsa_next_free_sgpr 8
   .amdhsa_user_sgpr_kernarg_segment_ptr 1
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.target: amdgcn-amd-amdhsa--gfx906
amdhsa.kernels:
  - .name: mem_fault
    .symbol: mem_fault.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 8
    .vgpr_count: 3
    .max_flat_workgroup_size: 64
    .args:
      - .size: 8
        .offset: 0
        .value_kind: by_value
  - .name: illegal
    .symbol: illegal.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 8
    .vgpr_count: 1
    .max_flat_workgroup_size: 64
    .args:
      - .size: 8
        .offset: 0
        .value_kind: by_value
...
.end_amdgpu_metadata
