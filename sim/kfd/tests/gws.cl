/* Kernels of kfd_test_gws: a grid barrier through the queue's GWS, as ockl's
 * __ockl_grid_sync does it (one wave of each work-group in DS_GWS_BARRIER, the barrier set to
 * the work-groups - 1 by DS_GWS_INIT first, as the runtime does before a cooperative launch).
 * Work-groups of 64 work-items. Only clang builtins: builds with -nogpulib. */
kernel void gws_init(uint groups_minus_1)
{
   __builtin_amdgcn_ds_gws_init(groups_minus_1, 0);
}

/* Every work-group adds 1 to ctr[0], waits at the barrier, then reads ctr[0] into
 * out[group]: each reads the number of work-groups. */
kernel void grid_count(global uint *ctr, global uint *out, uint groups_minus_1)
{
   if (__builtin_amdgcn_workitem_id_x() != 0)
      return;
   __atomic_fetch_add(ctr, 1u, __ATOMIC_RELAXED);
   __builtin_amdgcn_fence(__ATOMIC_RELEASE, "agent");
   __builtin_amdgcn_ds_gws_barrier(groups_minus_1, 0);
   __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "agent");
   out[__builtin_amdgcn_workgroup_id_x()] = __atomic_load_n(ctr, __ATOMIC_RELAXED);
}
