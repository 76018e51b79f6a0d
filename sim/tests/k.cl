/* Test kernel for the sim loader test: 4 explicit arguments (24 bytes) and a 1 KiB __local
 * tile. Uses only clang builtins, so it builds with -nogpulib. */
kernel void
scale(global float *out, global const float *in, float factor, uint n)
{
   local float tile[256];
   uint l = __builtin_amdgcn_workitem_id_x();
   uint i = __builtin_amdgcn_workgroup_id_x() * 256 + l;
   tile[l] = in[i] * factor;
   __builtin_amdgcn_s_barrier();
   if (i < n)
      out[i] = tile[255 - l];
}

constant int table[4] = {1, 2, 3, 4};
constant int *constant ptrs[2] = {&table[1], &table[3]};

kernel void
bump(global int *out)
{
   out[0] = *ptrs[out[1] & 1] + table[out[2] & 3];
}
