/* A local-memory reduction (comp_api_il_ext_test): clang-15 -O1 and llvm-spirv-15 write the
 * loop's exit block before the latch that dominates it, a layout SPIR-V's validation rules
 * refuse and hsacl reorders. out[group] = the sum of the group's in[]. */
__kernel void reduce(__global const float *in, __global float *out, __local float *tmp)
{
   size_t l = get_local_id(0);
   tmp[l] = in[get_global_id(0)];
   barrier(CLK_LOCAL_MEM_FENCE);
   for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
      if (l < s)
         tmp[l] += tmp[l + s];
      barrier(CLK_LOCAL_MEM_FENCE);
   }
   if (l == 0)
      out[get_group_id(0)] = tmp[0];
}
