// STD: CL2.0
/* Work-items of one work-group exchange values through global memory: each reads its
 * mirror's slot (so its wave's caches hold the old value), writes its own, and after a
 * work-group-scope release/acquire reads its mirror's slot again. On gfx1030 in WGP mode
 * (LLVM's default) the mirror of a work-item is in the other wave of a 64-item group, on the
 * other CU of the work-group processor: in the checking mode the old value shows unless the
 * acquire invalidates the reader's L0, as on hardware. First with
 * work_group_barrier(CLK_GLOBAL_MEM_FENCE), then with atomic_work_item_fence around a
 * barrier that orders local memory only. */
kernel void
wg_exchange(global int *a, global int *c, global int *out)
{
   size_t n = get_local_size(0), l = get_local_id(0), g = get_group_id(0) * n;
   size_t m = g + n - 1 - l, total = get_global_size(0);

   int old = a[m];
   work_group_barrier(CLK_GLOBAL_MEM_FENCE);
   a[g + l] = old + 1000;
   work_group_barrier(CLK_GLOBAL_MEM_FENCE);
   out[g + l] = a[m];

   old = c[m];
   atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, memory_scope_work_group);
   work_group_barrier(CLK_LOCAL_MEM_FENCE);
   atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acquire, memory_scope_work_group);
   c[g + l] = old + 2000;
   atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, memory_scope_work_group);
   work_group_barrier(CLK_LOCAL_MEM_FENCE);
   atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acquire, memory_scope_work_group);
   out[total + g + l] = c[m];
}
