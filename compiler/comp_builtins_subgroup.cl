/*
 * comp_builtins_subgroup.cl — the sub-group extension built-ins of cl_khr_subgroup_shuffle,
 * cl_khr_subgroup_shuffle_relative, cl_khr_subgroup_rotate and
 * cl_khr_subgroup_extended_types (OpenCL C 3.0
 * §6.15.19.x), which Debian's ROCm 5.2 opencl.bc does not define; at its end,
 * comp_builtins_subgroup_nu.cl adds those of ballot, non-uniform vote, non-uniform
 * arithmetic and clustered reduce. Included by
 * comp_builtins.cl (same compilation, same rules: no processor, so everything here holds for
 * wave32 and wave64 targets alike).
 *
 * A sub-group is a wavefront and its local id the lane (__ockl_lane_u32). Lanes move values
 * with ds_bpermute (any lane to any lane, 32 bits): types narrower than 32 bits travel
 * zero-extended, 64-bit ones as two halves; vectors component by component.
 */
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define OVL __attribute__((overloadable))
#define SG_INLINE static inline __attribute__((always_inline))

uint __ockl_lane_u32(void);

/* ---- lane primitives ---------------------------------------------------------------- */

SG_INLINE uint
sg_bperm32(uint v, uint lane)
{
   return (uint)__builtin_amdgcn_ds_bpermute((int)(lane << 2), (int)v);
}

SG_INLINE ulong
sg_bperm64(ulong v, uint lane)
{
   return (ulong)sg_bperm32((uint)v, lane) | (ulong)sg_bperm32((uint)(v >> 32), lane) << 32;
}

/* ---- per-type transport: T <-> 32/64-bit lane values --------------------------------
 * X(T, W): W is the lane width (32 or 64); sg_to_T(x) gives the bits, sg_from_T(b) the value. */
#define SG_TYPES(X)                                                                                \
   X(char, 32)                                                                                     \
   X(uchar, 32) X(short, 32) X(ushort, 32) X(int, 32) X(uint, 32) X(long, 64) X(ulong, 64)         \
      X(float, 32) X(double, 64) X(half, 32)

#define SG_CONV(T, B, expr_to, expr_from)                                                          \
   SG_INLINE B sg_to_##T(T x)                                                                      \
   {                                                                                               \
      return expr_to;                                                                              \
   }                                                                                               \
   SG_INLINE T sg_from_##T(B b)                                                                    \
   {                                                                                               \
      return expr_from;                                                                            \
   }
SG_CONV(char, uint, (uint)as_uchar(x), as_char((uchar)b))
SG_CONV(uchar, uint, (uint)x, (uchar)b)
SG_CONV(short, uint, (uint)as_ushort(x), as_short((ushort)b))
SG_CONV(ushort, uint, (uint)x, (ushort)b)
SG_CONV(int, uint, as_uint(x), as_int(b))
SG_CONV(uint, uint, x, b)
SG_CONV(long, ulong, as_ulong(x), as_long(b))
SG_CONV(ulong, ulong, x, b)
SG_CONV(float, uint, as_uint(x), as_float(b))
SG_CONV(double, ulong, as_ulong(x), as_double(b))
SG_CONV(half, uint, (uint)as_ushort(x), as_half((ushort)b))

/* ---- cl_khr_subgroup_shuffle and cl_khr_subgroup_shuffle_relative ------------------- */

#define SG_SHUFFLE(T, W)                                                                           \
   OVL T sub_group_shuffle(T x, uint id)                                                           \
   {                                                                                               \
      return sg_from_##T(sg_bperm##W(sg_to_##T(x), id));                                           \
   }                                                                                               \
   OVL T sub_group_shuffle_xor(T x, uint mask)                                                     \
   {                                                                                               \
      return sg_from_##T(sg_bperm##W(sg_to_##T(x), __ockl_lane_u32() ^ mask));                     \
   }                                                                                               \
   OVL T sub_group_shuffle_up(T x, uint delta)                                                     \
   {                                                                                               \
      return sg_from_##T(sg_bperm##W(sg_to_##T(x), __ockl_lane_u32() - delta));                    \
   }                                                                                               \
   OVL T sub_group_shuffle_down(T x, uint delta)                                                   \
   {                                                                                               \
      return sg_from_##T(sg_bperm##W(sg_to_##T(x), __ockl_lane_u32() + delta));                    \
   }
SG_TYPES(SG_SHUFFLE)

/* ---- cl_khr_subgroup_rotate ---------------------------------------------------------
 * sub_group_rotate: the x of the lane (local id + delta) modulo the sub-group's size (the
 * last sub-group of a work-group may be partial: get_sub_group_size, not the wave width);
 * sub_group_clustered_rotate: the same inside aligned clusters of `clustersize` lanes, a
 * power of two (OpenCL C 3.1 "Sub-group rotate functions"). delta may be negative. */
SG_INLINE uint
sg_rotate_lane(int delta)
{
   uint n = get_sub_group_size(), lane = __ockl_lane_u32();
   int d = delta % (int)n;
   return (uint)(((int)lane + d + (int)n) % (int)n);
}

SG_INLINE uint
sg_cluster_lane(int delta, uint clustersize)
{
   uint lane = __ockl_lane_u32(), base = lane & ~(clustersize - 1);
   return base + ((lane - base + (uint)delta) & (clustersize - 1));
}

#define SG_ROTATE(T, W)                                                                            \
   OVL T sub_group_rotate(T x, int delta)                                                          \
   {                                                                                               \
      return sg_from_##T(sg_bperm##W(sg_to_##T(x), sg_rotate_lane(delta)));                        \
   }                                                                                               \
   OVL T sub_group_clustered_rotate(T x, int delta, uint clustersize)                              \
   {                                                                                               \
      return sg_from_##T(sg_bperm##W(sg_to_##T(x), sg_cluster_lane(delta, clustersize)));          \
   }
SG_TYPES(SG_ROTATE)

/* Vectors: component by component. */
#define SG_VEC_N(F, T, n)                                                                          \
   OVL T##n F(T##n x, uint id)                                                                     \
   {                                                                                               \
      union {                                                                                      \
         T##n v;                                                                                   \
         T a[n];                                                                                   \
      } u;                                                                                         \
      u.v = x;                                                                                     \
      for (int k = 0; k < n; k++)                                                                  \
         u.a[k] = F(u.a[k], id);                                                                   \
      return u.v;                                                                                  \
   }
#define SG_VEC(F, T)                                                                               \
   SG_VEC_N(F, T, 2) SG_VEC_N(F, T, 3) SG_VEC_N(F, T, 4) SG_VEC_N(F, T, 8) SG_VEC_N(F, T, 16)
/* ---- cl_khr_subgroup_extended_types -------------------------------------------------
 * broadcast of 8- and 16-bit scalars and of every vector type; reduce and scans of 8- and
 * 16-bit integers through the 32-bit ones (add wraps the same; min/max keep the order of the
 * sign- or zero-extended values). The 32-bit exclusive min/max give lane 0 the 32-bit
 * identity, which the narrow type gets explicitly. */
OVL int sub_group_broadcast(int x, uint id);
OVL uint sub_group_broadcast(uint x, uint id);
OVL long sub_group_broadcast(long x, uint id);
OVL ulong sub_group_broadcast(ulong x, uint id);
OVL float sub_group_broadcast(float x, uint id);
OVL double sub_group_broadcast(double x, uint id);
OVL half sub_group_broadcast(half x, uint id);

#define SG_BCAST_NARROW(T, W)                                                                      \
   OVL T sub_group_broadcast(T x, uint id)                                                         \
   {                                                                                               \
      return (T)sub_group_broadcast((W)x, id);                                                     \
   }
SG_BCAST_NARROW(char, int)
SG_BCAST_NARROW(uchar, uint)
SG_BCAST_NARROW(short, int)
SG_BCAST_NARROW(ushort, uint)

#define SG_BCAST_VEC(T, W) SG_VEC(sub_group_broadcast, T)
SG_TYPES(SG_BCAST_VEC)

#define SG_DECL_OPS(W)                                                                             \
   OVL W sub_group_reduce_add(W x);                                                                \
   OVL W sub_group_reduce_min(W x);                                                                \
   OVL W sub_group_reduce_max(W x);                                                                \
   OVL W sub_group_scan_inclusive_add(W x);                                                        \
   OVL W sub_group_scan_inclusive_min(W x);                                                        \
   OVL W sub_group_scan_inclusive_max(W x);                                                        \
   OVL W sub_group_scan_exclusive_add(W x);                                                        \
   OVL W sub_group_scan_exclusive_min(W x);                                                        \
   OVL W sub_group_scan_exclusive_max(W x);
SG_DECL_OPS(int)
SG_DECL_OPS(uint)

/* F of a narrow T through F of the 32-bit W. */
#define SG_NARROW(F, T, W)                                                                         \
   OVL T F(T x) { return (T)F((W)x); }
#define SG_NARROW_OPS(T, W, TMIN, TMAX)                                                            \
   SG_NARROW(sub_group_reduce_add, T, W)                                                           \
   SG_NARROW(sub_group_reduce_min, T, W)                                                           \
   SG_NARROW(sub_group_reduce_max, T, W)                                                           \
   SG_NARROW(sub_group_scan_inclusive_add, T, W)                                                   \
   SG_NARROW(sub_group_scan_inclusive_min, T, W)                                                   \
   SG_NARROW(sub_group_scan_inclusive_max, T, W)                                                   \
   SG_NARROW(sub_group_scan_exclusive_add, T, W)                                                   \
   OVL T sub_group_scan_exclusive_min(T x)                                                         \
   {                                                                                               \
      W r = sub_group_scan_exclusive_min((W)x);                                                    \
      return __ockl_lane_u32() == 0 ? (T)TMAX : (T)r;                                              \
   }                                                                                               \
   OVL T sub_group_scan_exclusive_max(T x)                                                         \
   {                                                                                               \
      W r = sub_group_scan_exclusive_max((W)x);                                                    \
      return __ockl_lane_u32() == 0 ? (T)TMIN : (T)r;                                              \
   }
SG_NARROW_OPS(char, int, CHAR_MIN, CHAR_MAX)
SG_NARROW_OPS(uchar, uint, 0, UCHAR_MAX)
SG_NARROW_OPS(short, int, SHRT_MIN, SHRT_MAX)
SG_NARROW_OPS(ushort, uint, 0, USHRT_MAX)

/* ---- ballot, non-uniform vote and arithmetic, clustered reduce ------------------------- */
#include "comp_builtins_subgroup_nu.cl"
