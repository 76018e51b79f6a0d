/*
 * tests/memory/api_pipe_kernels.cl — the kernels of tests/memory/api_pipe_test.c, built from source and,
 * as SPIR-V made by clang-15 and llvm-spirv-15 at build time, through the IL path.
 *
 * Producers write src[g] and store write_pipe's result in ok[g]; consumers read into
 * dst[g] and store read_pipe's result. HSACL_PIPE_SPIRV (the SPIR-V build): no q_wo, since
 * llvm-spirv-15 cannot read back a module that asks get_pipe_num_packets of a read_only and
 * of a write_only pipe (it declares __get_pipe_num_packets_wo twice with two pipe types:
 * "Attempt to redefine function").
 */
typedef struct { char c; int i; short s; } S;
typedef struct { long v[128]; } Big;

/* Packets by value. */
#define PAIR(T, N)                                                                          \
   kernel void w_##N(global const T *src, write_only pipe T p, global int *ok)              \
   {                                                                                        \
      size_t g = get_global_id(0);                                                          \
      ok[g] = write_pipe(p, &src[g]);                                                       \
   }                                                                                        \
   kernel void r_##N(read_only pipe T p, global T *dst, global int *ok)                     \
   {                                                                                        \
      size_t g = get_global_id(0);                                                          \
      ok[g] = read_pipe(p, &dst[g]);                                                        \
   }
PAIR(int, int)
PAIR(int4, int4)
PAIR(long8, long8)
PAIR(S, s)
PAIR(Big, big)

/* Per work-item reservations of n packets each. */
kernel void w_rsv(global const int *src, write_only pipe int p, global int *ok, uint n)
{
   size_t g = get_global_id(0);
   reserve_id_t r = reserve_write_pipe(p, n);
   if (!is_valid_reserve_id(r)) { ok[g] = -1; return; }
   int e = 0;
   for (uint k = 0; k < n; k++) e |= write_pipe(p, r, k, &src[g * n + k]);
   commit_write_pipe(p, r);
   ok[g] = e;
}
kernel void r_rsv(read_only pipe int p, global int *dst, global int *ok, uint n)
{
   size_t g = get_global_id(0);
   reserve_id_t r = reserve_read_pipe(p, n);
   if (!is_valid_reserve_id(r)) { ok[g] = -1; return; }
   int e = 0;
   for (uint k = 0; k < n; k++) e |= read_pipe(p, r, k, &dst[g * n + k]);
   commit_read_pipe(p, r);
   ok[g] = e;
}

/* Work-group reservations: one packet per work-item, indexed by the local id. */
kernel void w_wg(global const int *src, write_only pipe int p, global int *ok)
{
   size_t g = get_global_id(0);
   reserve_id_t r = work_group_reserve_write_pipe(p, (uint)get_local_size(0));
   if (is_valid_reserve_id(r)) {
      ok[g] = write_pipe(p, r, (uint)get_local_id(0), &src[g]);
      work_group_commit_write_pipe(p, r);
   } else {
      ok[g] = -1;
   }
}
kernel void r_wg(read_only pipe int p, global int *dst, global int *ok)
{
   size_t g = get_global_id(0);
   reserve_id_t r = work_group_reserve_read_pipe(p, (uint)get_local_size(0));
   if (is_valid_reserve_id(r)) {
      ok[g] = read_pipe(p, r, (uint)get_local_id(0), &dst[g]);
      work_group_commit_read_pipe(p, r);
   } else {
      ok[g] = -1;
   }
}

/* Sub-group reservations: one packet per work-item of the sub-group. */
kernel void w_sg(global const int *src, write_only pipe int p, global int *ok)
{
   size_t g = get_global_id(0);
   reserve_id_t r = sub_group_reserve_write_pipe(p, get_sub_group_size());
   if (is_valid_reserve_id(r)) {
      ok[g] = write_pipe(p, r, get_sub_group_local_id(), &src[g]);
      sub_group_commit_write_pipe(p, r);
   } else {
      ok[g] = -1;
   }
}
kernel void r_sg(read_only pipe int p, global int *dst, global int *ok)
{
   size_t g = get_global_id(0);
   reserve_id_t r = sub_group_reserve_read_pipe(p, get_sub_group_size());
   if (is_valid_reserve_id(r)) {
      ok[g] = read_pipe(p, r, get_sub_group_local_id(), &dst[g]);
      sub_group_commit_read_pipe(p, r);
   } else {
      ok[g] = -1;
   }
}

/* The queries, from a reader and from a writer. */
kernel void q_ro(read_only pipe int p, global uint *out)
{
   out[0] = get_pipe_num_packets(p);
   out[1] = get_pipe_max_packets(p);
}
#ifndef HSACL_PIPE_SPIRV
kernel void q_wo(write_only pipe int p, global uint *out)
{
   out[0] = get_pipe_num_packets(p);
   out[1] = get_pipe_max_packets(p);
}
#endif
