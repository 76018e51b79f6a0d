/*
 * comp_builtins_pipe.cl — the pipe built-ins (OpenCL C 3.0 §6.15.16, feature
 * __opencl_c_pipes): what clang-19 lowers read_pipe, write_pipe, the reservations,
 * get_pipe_num_packets and get_pipe_max_packets to (__read_pipe_2(pipe, ptr, size, align),
 * __reserve_read_pipe(pipe, n, size, align), ...; the AMDGPU library-call simplification may
 * name the size-specialised forms __read_pipe_2_<size>, so those are defined too). Included by
 * comp_builtins.cl (same compilation and rules: no processor, wave32 and wave64 alike).
 *
 * Debian's ROCm 5.2 opencl.bc defines these names, over the same memory layout, but does not
 * conform: when a read takes the last packet it saw, it stores 0 into both indices, while
 * other work-items that loaded the old write index still reserve — from 0 again, so packets
 * are read twice (or, on reservations, read past what was written). Here the indices only
 * grow (64-bit: they do not wrap in practice), so no reset is needed.
 *
 * Layout (memory/mem_pipe.c creates it; the same as opencl.bc's `struct pipeimp`):
 *   offset  0: ulong read_idx   packets taken by readers (reserved) since creation
 *   offset  8: ulong write_idx  packets placed by writers (reserved) since creation
 *   offset 16: ulong end_idx    capacity in packets (CL_PIPE_MAX_PACKETS)
 *   offset 128: packet storage, end_idx * packet size bytes; packet i is slot i % end_idx.
 * Invariant: read_idx <= write_idx <= read_idx + end_idx.
 *
 * Concurrency. A kernel sees a pipe argument read_only or write_only, so within one kernel
 * only readers or only writers move indices: readers advance read_idx up to write_idx,
 * writers write_idx up to read_idx + end_idx, each by compare-and-swap at device scope, so
 * any number of work-items, sub-groups and work-groups get disjoint packet ranges and
 * none is lost or duplicated. The bound each side reads (the other side's index) does not
 * move while the kernel runs. Packet bytes written by one kernel are read by a later one:
 * OpenCL makes pipe contents consistent between kernels at synchronization points only
 * (API §3.3.6, OpenCL C §6.15.16), which the dispatch fences provide (the producer's
 * release, the consumer's acquire), so the indices need no ordering of their own: relaxed.
 * A reservation takes its packets when reserved; commit has nothing left to publish.
 *
 * A reservation id (reserve_id_t, a global pointer in clang's lowering) carries the slot of
 * its first packet (index % end_idx, below 2^32 - 1 since end_idx is a cl_uint); invalid
 * ids have 0xffffffff in their low 32 bits (~0 as made here). Only the low 32 bits are read:
 * SPIR-V modules pass reserve ids as SPIR private pointers, which become 32-bit amdgcn
 * private pointers, widened to global ones at the calls (compiler/comp_spirv_llvm.cpp).
 * is_valid_reserve_id is defined here for that reason (opencl.bc's compares all 64 bits).
 */
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

#define PIPE_ENTRY __attribute__((always_inline))
#define PIPE_INLINE static inline __attribute__((always_inline))
#define PIPE_HEADER_BYTES 128
#define PIPE_INVALID (~0ul)

struct hsacl_pipe {
   atomic_ulong read_idx;
   atomic_ulong write_idx;
   ulong end_idx;
};

typedef __global struct hsacl_pipe *pipe_ptr;
typedef __global void *rid_t; /* reserve_id_t as clang passes it */

#define RID_INVALID 0xffffffffu

/* ---- indices ------------------------------------------------------------------------ */

PIPE_INLINE ulong
pp_idx_load(volatile __global atomic_ulong *i)
{
   return __opencl_atomic_load(i, memory_order_relaxed, memory_scope_device);
}

/* The bound the counter of one side may reach: what was written, for readers; what was
 * read plus the capacity, for writers. */
PIPE_INLINE ulong
pp_read_limit(pipe_ptr p)
{
   return pp_idx_load(&p->write_idx);
}

PIPE_INLINE ulong
pp_write_limit(pipe_ptr p)
{
   return pp_idx_load(&p->read_idx) + p->end_idx;
}

/* Takes `n` packets (all or none) from counter `c` without passing `lim`: the first index,
 * or PIPE_INVALID. Each work-item that calls it gets a range of its own. */
PIPE_INLINE ulong
pp_reserve_n(volatile __global atomic_ulong *c, ulong lim, ulong n)
{
   ulong cur = pp_idx_load(c);
   for (;;) {
      if (n == 0 || cur > lim || lim - cur < n)
         return PIPE_INVALID;
      if (__opencl_atomic_compare_exchange_strong(c, &cur, cur + n, memory_order_relaxed,
                                                  memory_order_relaxed, memory_scope_device))
         return cur;
   }
}

/* 64-bit value of the wave's lane `lane` (uniform). */
PIPE_INLINE ulong
pp_lane_value(ulong v, uint lane)
{
   return (ulong)(uint)__builtin_amdgcn_readlane((int)(v >> 32), (int)lane) << 32 |
          (ulong)(uint)__builtin_amdgcn_readlane((int)v, (int)lane);
}

/* One packet for each active lane of the wave that calls it: the first active lane takes
 * as many as fit (up to one per active lane) in one compare-and-swap; lane of rank r gets
 * the r-th, or PIPE_INVALID when fewer fitted. */
PIPE_INLINE ulong
pp_wave_reserve_1(volatile __global atomic_ulong *c, ulong lim)
{
   ulong exec = __builtin_amdgcn_read_exec();
   uint active = (uint)__builtin_popcountl(exec);
   uint rank =
      __builtin_amdgcn_mbcnt_hi((uint)(exec >> 32), __builtin_amdgcn_mbcnt_lo((uint)exec, 0u));
   ulong first = 0, got = 0;
   if (rank == 0) {
      ulong cur = pp_idx_load(c);
      for (;;) {
         ulong room = cur < lim ? lim - cur : 0;
         got = room < active ? room : active;
         if (got == 0)
            break;
         if (__opencl_atomic_compare_exchange_strong(c, &cur, cur + got, memory_order_relaxed,
                                                     memory_order_relaxed, memory_scope_device))
            break;
      }
      first = cur;
   }
   uint leader = (uint)__builtin_ctzl(exec);
   first = pp_lane_value(first, leader);
   got = pp_lane_value(got, leader);
   return rank < got ? first + rank : PIPE_INVALID;
}

/* `n` packets for the whole wave (all its active lanes call it with the same `n`). */
PIPE_INLINE ulong
pp_wave_reserve_n(volatile __global atomic_ulong *c, ulong lim, ulong n)
{
   ulong exec = __builtin_amdgcn_read_exec();
   uint rank =
      __builtin_amdgcn_mbcnt_hi((uint)(exec >> 32), __builtin_amdgcn_mbcnt_lo((uint)exec, 0u));
   ulong first = PIPE_INVALID;
   if (rank == 0)
      first = pp_reserve_n(c, lim, n);
   return pp_lane_value(first, (uint)__builtin_ctzl(exec));
}

/* ---- packets ------------------------------------------------------------------------ */

PIPE_INLINE __global uchar *
pp_packet(pipe_ptr p, ulong idx, uint size)
{
   ulong slot = idx % p->end_idx;
   return (__global uchar *)p + PIPE_HEADER_BYTES + slot * size;
}

/* The reservation id of a reservation starting at packet index `first` (PIPE_INVALID: the
 * invalid id). */
PIPE_INLINE rid_t
pp_make_rid(pipe_ptr p, ulong first)
{
   return (rid_t)(first == PIPE_INVALID ? PIPE_INVALID : first % p->end_idx);
}

PIPE_INLINE bool
pp_rid_valid(rid_t rid)
{
   return (uint)(ulong)rid != RID_INVALID;
}

/* is_valid_reserve_id (OpenCL C §6.15.16.3), under its mangled name. */
bool hsacl_is_valid_reserve_id(rid_t rid) __asm__("_Z19is_valid_reserve_id13ocl_reserveid");

PIPE_ENTRY bool
hsacl_is_valid_reserve_id(rid_t rid)
{
   return pp_rid_valid(rid);
}

/* `size` bytes in units of the packet's alignment (both are constants once inlined). */
PIPE_INLINE void
pp_copy_packet(__generic uchar *dst, const __generic uchar *src, uint size, uint align)
{
   if (align >= 16 && size % 16 == 0) {
      for (uint i = 0; i < size; i += 16)
         *(__generic uint4 *)(dst + i) = *(const __generic uint4 *)(src + i);
   } else if (align >= 8 && size % 8 == 0) {
      for (uint i = 0; i < size; i += 8)
         *(__generic ulong *)(dst + i) = *(const __generic ulong *)(src + i);
   } else if (align >= 4 && size % 4 == 0) {
      for (uint i = 0; i < size; i += 4)
         *(__generic uint *)(dst + i) = *(const __generic uint *)(src + i);
   } else if (align >= 2 && size % 2 == 0) {
      for (uint i = 0; i < size; i += 2)
         *(__generic ushort *)(dst + i) = *(const __generic ushort *)(src + i);
   } else {
      for (uint i = 0; i < size; i++)
         dst[i] = src[i];
   }
}

/* ---- read_pipe / write_pipe --------------------------------------------------------- */

PIPE_ENTRY int
__read_pipe_2(pipe_ptr p, __generic void *ptr, uint size, uint align)
{
   ulong idx = pp_wave_reserve_1(&p->read_idx, pp_read_limit(p));
   if (idx == PIPE_INVALID)
      return -1;
   pp_copy_packet((__generic uchar *)ptr, (__generic uchar *)pp_packet(p, idx, size), size, align);
   return 0;
}

PIPE_ENTRY int
__write_pipe_2(pipe_ptr p, const __generic void *ptr, uint size, uint align)
{
   ulong idx = pp_wave_reserve_1(&p->write_idx, pp_write_limit(p));
   if (idx == PIPE_INVALID)
      return -1;
   pp_copy_packet((__generic uchar *)pp_packet(p, idx, size), (const __generic uchar *)ptr, size,
                  align);
   return 0;
}

PIPE_ENTRY int
__read_pipe_4(pipe_ptr p, rid_t rid, uint index, __generic void *ptr, uint size, uint align)
{
   if (!pp_rid_valid(rid))
      return -1;
   ulong slot = (uint)(ulong)rid;
   pp_copy_packet((__generic uchar *)ptr, (__generic uchar *)pp_packet(p, slot + index, size), size,
                  align);
   return 0;
}

PIPE_ENTRY int
__write_pipe_4(pipe_ptr p, rid_t rid, uint index, const __generic void *ptr, uint size, uint align)
{
   if (!pp_rid_valid(rid))
      return -1;
   ulong slot = (uint)(ulong)rid;
   pp_copy_packet((__generic uchar *)pp_packet(p, slot + index, size), (const __generic uchar *)ptr,
                  size, align);
   return 0;
}

/* The size-specialised names (packet size = alignment = N bytes). */
#define PIPE_SIZED(N)                                                                              \
   PIPE_ENTRY int __read_pipe_2_##N(pipe_ptr p, __generic void *ptr)                               \
   {                                                                                               \
      return __read_pipe_2(p, ptr, N, N);                                                          \
   }                                                                                               \
   PIPE_ENTRY int __write_pipe_2_##N(pipe_ptr p, const __generic void *ptr)                        \
   {                                                                                               \
      return __write_pipe_2(p, ptr, N, N);                                                         \
   }                                                                                               \
   PIPE_ENTRY int __read_pipe_4_##N(pipe_ptr p, rid_t rid, uint index, __generic void *ptr)        \
   {                                                                                               \
      return __read_pipe_4(p, rid, index, ptr, N, N);                                              \
   }                                                                                               \
   PIPE_ENTRY int __write_pipe_4_##N(pipe_ptr p, rid_t rid, uint index, const __generic void *ptr) \
   {                                                                                               \
      return __write_pipe_4(p, rid, index, ptr, N, N);                                             \
   }
PIPE_SIZED(1)
PIPE_SIZED(2)
PIPE_SIZED(4)
PIPE_SIZED(8)
PIPE_SIZED(16)
PIPE_SIZED(32)
PIPE_SIZED(64)
PIPE_SIZED(128)

/* ---- reservations ------------------------------------------------------------------- */

/* Per work-item: each its own `n` (OpenCL C §6.15.16.3). */
PIPE_ENTRY rid_t
__reserve_read_pipe(pipe_ptr p, uint n, uint size, uint align)
{
   (void)size, (void)align;
   return pp_make_rid(p, pp_reserve_n(&p->read_idx, pp_read_limit(p), n));
}

PIPE_ENTRY rid_t
__reserve_write_pipe(pipe_ptr p, uint n, uint size, uint align)
{
   (void)size, (void)align;
   return pp_make_rid(p, pp_reserve_n(&p->write_idx, pp_write_limit(p), n));
}

/* Work-group: every work-item calls it with the same arguments (§6.15.16.4); work-item 0
 * reserves, the minimum over the group hands its result to all (the others offer ~0). */
PIPE_ENTRY rid_t
__work_group_reserve_read_pipe(pipe_ptr p, uint n, uint size, uint align)
{
   (void)size, (void)align;
   ulong first = PIPE_INVALID;
   if (get_local_linear_id() == 0)
      first = pp_reserve_n(&p->read_idx, pp_read_limit(p), n);
   return pp_make_rid(p, work_group_reduce_min(first));
}

PIPE_ENTRY rid_t
__work_group_reserve_write_pipe(pipe_ptr p, uint n, uint size, uint align)
{
   (void)size, (void)align;
   ulong first = PIPE_INVALID;
   if (get_local_linear_id() == 0)
      first = pp_reserve_n(&p->write_idx, pp_write_limit(p), n);
   return pp_make_rid(p, work_group_reduce_min(first));
}

/* Sub-group (a wavefront, compiler/comp_builtins_subgroup.cl). */
PIPE_ENTRY rid_t
__sub_group_reserve_read_pipe(pipe_ptr p, uint n, uint size, uint align)
{
   (void)size, (void)align;
   return pp_make_rid(p, pp_wave_reserve_n(&p->read_idx, pp_read_limit(p), n));
}

PIPE_ENTRY rid_t
__sub_group_reserve_write_pipe(pipe_ptr p, uint n, uint size, uint align)
{
   (void)size, (void)align;
   return pp_make_rid(p, pp_wave_reserve_n(&p->write_idx, pp_write_limit(p), n));
}

/* The packets were taken at reservation; the kernel's end publishes what was written. */
#define PIPE_COMMIT(name)                                                                          \
   PIPE_ENTRY void name(pipe_ptr p, rid_t rid, uint size, uint align)                              \
   {                                                                                               \
      (void)p, (void)rid, (void)size, (void)align;                                                 \
   }
PIPE_COMMIT(__commit_read_pipe)
PIPE_COMMIT(__commit_write_pipe)
PIPE_COMMIT(__work_group_commit_read_pipe)
PIPE_COMMIT(__work_group_commit_write_pipe)
PIPE_COMMIT(__sub_group_commit_read_pipe)
PIPE_COMMIT(__sub_group_commit_write_pipe)

/* ---- queries (§6.15.16.5) ----------------------------------------------------------- */

PIPE_INLINE uint
pp_num_packets(pipe_ptr p)
{
   /* Read first: a concurrent writer only makes the difference larger, never negative. */
   ulong r = pp_idx_load(&p->read_idx);
   ulong w = pp_idx_load(&p->write_idx);
   return w > r ? (uint)(w - r) : 0u;
}

PIPE_ENTRY uint
__get_pipe_num_packets_ro(pipe_ptr p, uint size, uint align)
{
   (void)size, (void)align;
   return pp_num_packets(p);
}

PIPE_ENTRY uint
__get_pipe_num_packets_wo(pipe_ptr p, uint size, uint align)
{
   (void)size, (void)align;
   return pp_num_packets(p);
}

PIPE_ENTRY uint
__get_pipe_max_packets_ro(pipe_ptr p, uint size, uint align)
{
   (void)size, (void)align;
   return (uint)p->end_idx;
}

PIPE_ENTRY uint
__get_pipe_max_packets_wo(pipe_ptr p, uint size, uint align)
{
   (void)size, (void)align;
   return (uint)p->end_idx;
}
