// hsacl sim/isa test kernel (not from the corpus): the waves of a work-group make
// independent forward progress. Wave 0 spins on a flag only wave 1 sets, then loops `n`
// times more (longer than one turn) before it writes LDS; wave 1 reaches the barrier while
// wave 0 is still busy, and the barrier must hold it until wave 0 arrives. out[0] counts
// wave 0's spins; out[1 + lid] is what each work-item read after the barrier.
__kernel void progress(volatile __global int *flag, __global int *out, __local int *lds,
                       int n) {
  uint lid = get_local_id(0);
  if (lid == 0) {
    int spins = 0;
    while (atomic_add(flag, 0) == 0)
      spins++;
    out[0] = spins;
    int acc = 0;
    for (int i = 0; i < n; i++)
      acc += atomic_add(flag + 1, 1);
    lds[0] = 42 + (acc == n * (n - 1) / 2 ? 0 : 1);
  }
  if (lid == 64)
    atomic_xchg(flag, 1);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[1 + lid] = lds[0];
}
