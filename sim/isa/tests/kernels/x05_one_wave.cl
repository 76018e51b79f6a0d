// hsacl sim/isa test kernel (not from the corpus): work-groups of one wave whose wave does
// not end in one turn. Each work-item loops `n` times (past a turn's 1024 backward
// branches: the wave yields), stops at a barrier, then writes. The software GPU runs
// one-wave work-groups back to back from their translated entry (sim_dispatch.c
// run_lean); a work-group whose wave did not end there must go on where it stopped. The
// grid is not a multiple of the work-group: the last work-group is partial.
__kernel void turns(__global uint *out, uint n) {
  uint gid = get_global_id(0);
  uint acc = gid;
  for (uint i = 0; i < n; i++)
    acc = acc * 1664525u + 1013904223u + i;
  barrier(CLK_GLOBAL_MEM_FENCE);
  out[gid] = acc ^ (uint)get_local_id(0) << 24;
}
