// A kernel that executes s_trap 2 (llvm.trap): on hardware without a debugger the queue
// reports an error. Used to check the queue error callback path of the software runtime.
// And one that only ends but allocates 128 VGPRs: 2 of its waves fit a SIMD's 256, so a
// work-group of up to 512 work-items (8 waves on 4 SIMDs) can start and 1024 cannot.
// And one that spins until the dword its argument points to is not 0: a dispatch that runs
// as long as the test wants.
.amdgcn_target "amdgcn-amd-amdhsa--gfx906"
.text
.globl trap_kernel
.p2align 8
.type trap_kernel,@function
trap_kernel:
   s_trap 2
   s_endpgm
.size trap_kernel, .-trap_kernel

.globl vgpr128_kernel
.p2align 8
.type vgpr128_kernel,@function
vgpr128_kernel:
   s_endpgm
.size vgpr128_kernel, .-vgpr128_kernel

.globl spin_kernel
.p2align 8
.type spin_kernel,@function
spin_kernel:
   s_load_dwordx2 s[2:3], s[0:1], 0x0
   s_waitcnt lgkmcnt(0)
.Lspin:
   s_load_dword s4, s[2:3], 0x0 glc
   s_waitcnt lgkmcnt(0)
   s_cmp_eq_u32 s4, 0
   s_cbranch_scc1 .Lspin
   s_endpgm
.size spin_kernel, .-spin_kernel

.rodata
.p2align 6
.amdhsa_kernel trap_kernel
   .amdhsa_next_free_vgpr 1
   .amdhsa_next_free_sgpr 8
   .amdhsa_user_sgpr_kernarg_segment_ptr 1
.end_amdhsa_kernel

.amdhsa_kernel vgpr128_kernel
   .amdhsa_next_free_vgpr 128
   .amdhsa_next_free_sgpr 8
   .amdhsa_user_sgpr_kernarg_segment_ptr 1
.end_amdhsa_kernel

.amdhsa_kernel spin_kernel
   .amdhsa_next_free_vgpr 1
   .amdhsa_next_free_sgpr 8
   .amdhsa_user_sgpr_kernarg_segment_ptr 1
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.target: amdgcn-amd-amdhsa--gfx906
amdhsa.kernels:
  - .name: trap_kernel
    .symbol: trap_kernel.kd
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
        .value_kind: global_buffer
        .address_space: global
  - .name: vgpr128_kernel
    .symbol: vgpr128_kernel.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 8
    .vgpr_count: 128
    .max_flat_workgroup_size: 512
    .args:
      - .size: 8
        .offset: 0
        .value_kind: global_buffer
        .address_space: global
  - .name: spin_kernel
    .symbol: spin_kernel.kd
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
        .value_kind: global_buffer
        .address_space: global
...
.end_amdgpu_metadata
