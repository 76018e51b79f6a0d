/* Kernels of kfd_test_scratch: a private array indexed with values read from memory, so it
 * lives in scratch (260 and 16388 bytes per work-item). Work-groups of 64 work-items.
 * priv_small's array holds MARK + global id * 64 + i, which the test looks for in the
 * queue's scratch memory afterwards. Only clang builtins: builds with -nogpulib. */
#define MARK 0x5C000000u
static inline uint gid(void) {
   return __builtin_amdgcn_workgroup_id_x() * 64u + __builtin_amdgcn_workitem_id_x();
}
kernel void priv_small(global uint *out, global const uint *idx, uint n)
{
   uint tmp[64];
   uint g = gid();
   for (uint i = 0; i < 64; i++)
      tmp[i] = MARK + g * 64u + i;
   uint s = 0;
   for (uint k = 0; k < 8; k++)
      s += tmp[idx[(g + k) % n] & 63u];
   out[g] = s;
}
kernel void priv_large(global uint *out, global const uint *idx, uint n)
{
   uint tmp[4096];
   uint g = gid();
   for (uint i = 0; i < 4096; i++)
      tmp[i] = g * 4096u + i;
   uint s = 0;
   for (uint k = 0; k < 8; k++)
      s += tmp[idx[(g + k) % n] & 4095u];
   out[g] = s;
}
