// tests/dispatch/workgroup_il.cl — api_workgroup's kernel for an IL program (compiled to SPIR-V by
// clang-15 and llvm-spirv-15 at build time): a work-group reduction through local memory.
kernel void reduce(global const uint *in, global uint *out, local uint *tmp)
{
   uint l = get_local_id(0), n = get_local_size(0);
   tmp[l] = in[get_global_id(0)];
   barrier(CLK_LOCAL_MEM_FENCE);
   for (uint s = n / 2; s > 0; s >>= 1) {
      if (l < s)
         tmp[l] += tmp[l + s];
      barrier(CLK_LOCAL_MEM_FENCE);
   }
   if (l == 0)
      out[get_group_id(0)] = tmp[0];
}

// printf from a 1024-wide group: the wide variant's printf formats.
kernel void say(global uint *out)
{
   uint l = get_local_id(0);
   out[get_global_id(0)] = l;
   if (l == get_local_size(0) - 1)
      printf("group %u of %u items: last %u\n", (uint)get_group_id(0), (uint)get_local_size(0),
             l);
}
