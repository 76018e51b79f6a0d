// A kernel that executes s_trap 2 (llvm.trap): on hardware without a debugger the queue
// reports an error. Used to check the queue error callback path of the software runtime.
.amdgcn_target "amdgcn-amd-amdhsa--gfx906"
.text
.globl trap_kernel
.p2align 8
.type trap_kernel,@function
trap_kernel:
   s_trap 2
   s_endpgm
.size trap_kernel, .-trap_kernel

.rodata
.p2align 6
.amdhsa_kernel trap_kernel
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
...
.end_amdgpu_metadata
