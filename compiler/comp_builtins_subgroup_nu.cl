/*
 * comp_builtins_subgroup_nu.cl — the non-uniform sub-group built-ins of
 * cl_khr_subgroup_ballot, cl_khr_subgroup_non_uniform_vote,
 * cl_khr_subgroup_non_uniform_arithmetic and cl_khr_subgroup_clustered_reduce (OpenCL C 3.0
 * §6.15.19.x and the extension specifications), which Debian's ROCm 5.2 opencl.bc does not
 * define. Included by comp_builtins_subgroup.cl after its lane primitives and per-type
 * transport (sg_to_T / sg_from_T); same rules: no processor, so everything holds for wave32
 * and wave64 alike (on wave32 the upper half of the exec mask reads 0).
 *
 * Contract of the non-uniform functions: they act on the *active* work-items of the
 * sub-group only, those whose lane is set in the exec mask where the call is made (divergent
 * control flow, or the missing lanes of a partial last sub-group). Every operation is a loop
 * over the active lanes, lowest first, reading each one's value with v_readlane: the loop's
 * trip count is the same for every active lane (it depends on the exec mask only), so it is
 * correct under any control flow, and reductions and scans combine the values in increasing
 * sub-group local id, which gives exact results wherever the sequential order does. The one
 * shortcut: when all 64 lanes are active, add/min/max reductions and scans are the uniform
 * built-ins' (ockl's DPP code, about 20 times fewer instructions; any order is allowed).
 * Nothing here indexes a vector dynamically (uint4 words are chosen with selects).
 *
 * The ballot uint4 holds one bit per sub-group local id: x and y on wave64, z and w are 0.
 * The bit count and find functions consider the bits below the *maximum* sub-group size
 * (get_max_sub_group_size(), as SPIR-V's SubgroupSize and the Khronos CTS do), the ge/gt
 * masks likewise end there.
 */

/* ---- active lanes ------------------------------------------------------------------- */

SG_INLINE ulong
sg_active(void)
{
   return __builtin_amdgcn_read_exec();
}

/* The lanes of the active ones where pred is non-zero. */
SG_INLINE ulong
sg_ballot64(int pred)
{
   return __builtin_amdgcn_ballot_w64(pred != 0);
}

SG_INLINE uint
sg_low_lane(ulong m)
{
   return (uint)__builtin_ctzl(m);
}

SG_INLINE uint
sg_rl32(uint v, uint lane)
{
   return (uint)__builtin_amdgcn_readlane((int)v, (int)lane);
}

SG_INLINE ulong
sg_rl64(ulong v, uint lane)
{
   return (ulong)sg_rl32((uint)v, lane) | (ulong)sg_rl32((uint)(v >> 32), lane) << 32;
}

SG_INLINE uint
sg_rfl32(uint v)
{
   return (uint)__builtin_amdgcn_readfirstlane((int)v);
}

SG_INLINE ulong
sg_rfl64(ulong v)
{
   return (ulong)sg_rfl32((uint)v) | (ulong)sg_rfl32((uint)(v >> 32)) << 32;
}

/* ---- vectors: component by component, without dynamic indexing -------------------------- */

#define SG_VEC1_N(F, T)                                                                            \
   OVL T##2 F(T##2 x, uint a)                                                                      \
   {                                                                                               \
      return (T##2)(F(x.s0, a), F(x.s1, a));                                                       \
   }                                                                                               \
   OVL T##3 F(T##3 x, uint a)                                                                      \
   {                                                                                               \
      return (T##3)(F(x.s0, a), F(x.s1, a), F(x.s2, a));                                           \
   }                                                                                               \
   OVL T##4 F(T##4 x, uint a)                                                                      \
   {                                                                                               \
      return (T##4)(F(x.lo, a), F(x.hi, a));                                                       \
   }                                                                                               \
   OVL T##8 F(T##8 x, uint a)                                                                      \
   {                                                                                               \
      return (T##8)(F(x.lo, a), F(x.hi, a));                                                       \
   }                                                                                               \
   OVL T##16 F(T##16 x, uint a)                                                                    \
   {                                                                                               \
      return (T##16)(F(x.lo, a), F(x.hi, a));                                                      \
   }

/* ---- cl_khr_subgroup_ballot: broadcasts ------------------------------------------------
 * sub_group_non_uniform_broadcast: index is dynamically uniform and names an active lane;
 * sub_group_broadcast_first: the value of the lowest active lane. */
#define SG_NU_BCAST(T, W)                                                                          \
   OVL T sub_group_non_uniform_broadcast(T x, uint index)                                          \
   {                                                                                               \
      return sg_from_##T(sg_rl##W(sg_to_##T(x), index));                                           \
   }                                                                                               \
   SG_VEC1_N(sub_group_non_uniform_broadcast, T)                                                   \
   OVL T sub_group_broadcast_first(T x)                                                            \
   {                                                                                               \
      return sg_from_##T(sg_rfl##W(sg_to_##T(x)));                                                 \
   }
SG_TYPES(SG_NU_BCAST)

/* ---- cl_khr_subgroup_ballot: bit fields ------------------------------------------------ */

/* Word i (0-3) of v, through selects. */
SG_INLINE uint
sg_word(uint4 v, uint i)
{
   uint lo = (i & 1) ? v.y : v.x, hi = (i & 1) ? v.w : v.z;
   return (i & 2) ? hi : lo;
}

/* The bits of word base/32 that stand for ids below n. */
SG_INLINE uint
sg_below_word(uint n, uint base)
{
   return n <= base ? 0u : n - base >= 32 ? ~0u : (1u << (n - base)) - 1u;
}

/* Bits [0, n) of a 128-bit mask. */
SG_INLINE uint4
sg_below(uint n)
{
   return (uint4)(sg_below_word(n, 0), sg_below_word(n, 32), sg_below_word(n, 64),
                  sg_below_word(n, 96));
}

SG_INLINE uint
sg_popcount4(uint4 v)
{
   return (uint)(__builtin_popcount(v.x) + __builtin_popcount(v.y) + __builtin_popcount(v.z) +
                 __builtin_popcount(v.w));
}

OVL uint4
sub_group_ballot(int predicate)
{
   ulong b = sg_ballot64(predicate);
   return (uint4)((uint)b, (uint)(b >> 32), 0u, 0u);
}

OVL int
sub_group_inverse_ballot(uint4 value)
{
   uint lane = __ockl_lane_u32();
   return (int)((sg_word(value, lane >> 5) >> (lane & 31)) & 1u);
}

OVL int
sub_group_ballot_bit_extract(uint4 value, uint index)
{
   return (int)((sg_word(value, (index >> 5) & 3) >> (index & 31)) & 1u);
}

OVL uint
sub_group_ballot_bit_count(uint4 value)
{
   return sg_popcount4(value & sg_below(get_max_sub_group_size()));
}

OVL uint
sub_group_ballot_inclusive_scan(uint4 value)
{
   return sg_popcount4(value & sg_below(__ockl_lane_u32() + 1));
}

OVL uint
sub_group_ballot_exclusive_scan(uint4 value)
{
   return sg_popcount4(value & sg_below(__ockl_lane_u32()));
}

/* No bit set: undefined; these return ~0u (find_lsb) and ~0u (find_msb). */
OVL uint
sub_group_ballot_find_lsb(uint4 value)
{
   uint4 v = value & sg_below(get_max_sub_group_size());
   return v.x   ? (uint)__builtin_ctz(v.x)
          : v.y ? 32 + (uint)__builtin_ctz(v.y)
          : v.z ? 64 + (uint)__builtin_ctz(v.z)
          : v.w ? 96 + (uint)__builtin_ctz(v.w)
                : ~0u;
}

OVL uint
sub_group_ballot_find_msb(uint4 value)
{
   uint4 v = value & sg_below(get_max_sub_group_size());
   return v.w   ? 127 - (uint)__builtin_clz(v.w)
          : v.z ? 95 - (uint)__builtin_clz(v.z)
          : v.y ? 63 - (uint)__builtin_clz(v.y)
          : v.x ? 31 - (uint)__builtin_clz(v.x)
                : ~0u;
}

OVL uint4
get_sub_group_eq_mask(void)
{
   uint lane = __ockl_lane_u32();
   return sg_below(lane + 1) & ~sg_below(lane);
}

OVL uint4
get_sub_group_ge_mask(void)
{
   return sg_below(get_max_sub_group_size()) & ~sg_below(__ockl_lane_u32());
}

OVL uint4
get_sub_group_gt_mask(void)
{
   return sg_below(get_max_sub_group_size()) & ~sg_below(__ockl_lane_u32() + 1);
}

OVL uint4
get_sub_group_le_mask(void)
{
   return sg_below(__ockl_lane_u32() + 1);
}

OVL uint4
get_sub_group_lt_mask(void)
{
   return sg_below(__ockl_lane_u32());
}

/* ---- cl_khr_subgroup_non_uniform_vote -------------------------------------------------- */

OVL int
sub_group_elect(void)
{
   return __ockl_lane_u32() == sg_low_lane(sg_active());
}

OVL int
sub_group_non_uniform_all(int predicate)
{
   return sg_ballot64(predicate) == sg_active();
}

OVL int
sub_group_non_uniform_any(int predicate)
{
   return sg_ballot64(predicate) != 0;
}

/* Equality is the type's ==: NaN equals nothing, -0.0 equals +0.0. */
#define SG_ALL_EQUAL(T, W)                                                                         \
   OVL int sub_group_non_uniform_all_equal(T x)                                                    \
   {                                                                                               \
      return sub_group_non_uniform_all(x == sub_group_broadcast_first(x));                         \
   }
SG_TYPES(SG_ALL_EQUAL)

/* ---- cl_khr_subgroup_non_uniform_arithmetic and cl_khr_subgroup_clustered_reduce -------
 * One loop per (operation, type): mode says which active lanes l a work-item combines
 * (reduce: all; inclusive scan: l <= its id; exclusive: l < its id, so the first active
 * work-item gets the identity; clustered: l in its aligned cluster of `clustersize`, a power
 * of two). Integer add and mul wrap (done in the unsigned type U); min/max of floating-point
 * types are fmin/fmax (a NaN is ignored); the logical operations take any non-zero int as
 * true and return 0 or 1. */
#define SG_REDUCE 0
#define SG_INCLUSIVE 1
#define SG_EXCLUSIVE 2
#define SG_CLUSTERED 3

#define SG_OP_add(T, U, a, b) ((T)((U)(a) + (U)(b)))
#define SG_OP_mul(T, U, a, b) ((T)((U)(a) * (U)(b)))
#define SG_OP_min(T, U, a, b) ((b) < (a) ? (b) : (a))
#define SG_OP_max(T, U, a, b) ((b) > (a) ? (b) : (a))
#define SG_OP_fmin(T, U, a, b) fmin(a, b)
#define SG_OP_fmax(T, U, a, b) fmax(a, b)
#define SG_OP_and(T, U, a, b) ((T)((a) & (b)))
#define SG_OP_or(T, U, a, b) ((T)((a) | (b)))
#define SG_OP_xor(T, U, a, b) ((T)((a) ^ (b)))

/* Every lane of a wave64 active: the uniform built-ins of the device library (ockl's DPP
 * reductions and scans) give the same results, for add, min and max, in far fewer
 * instructions; the declarations stand for opencl.bc's definitions (char and short: the
 * extended-types ones above). */
SG_INLINE bool
sg_full_wave(void)
{
   return sg_active() == ~0ul;
}
SG_DECL_OPS(long)
SG_DECL_OPS(ulong)
SG_DECL_OPS(float)
SG_DECL_OPS(double)
SG_DECL_OPS(half)

/* NAME: the built-in's operation; OP: SG_OP_*; ID: its identity; PRE: applied to the input;
 * UNI: 1 when sub_group_{reduce,scan_*}_NAME(T) exist for the full-wave shortcut. */
#define SG_UNI_0(F, x) (x) /* not reached */
#define SG_UNI_1(F, x) F(x)
#define SG_NU_OP(T, W, U, NAME, OP, ID, PRE, UNI)                                                  \
   SG_INLINE T sg_nu_##NAME##_##T(T x, int mode, uint clustersize)                                 \
   {                                                                                               \
      uint me = __ockl_lane_u32();                                                                 \
      T acc = (T)(ID);                                                                             \
      for (ulong m = sg_active(); m != 0; m &= m - 1) {                                            \
         uint l = sg_low_lane(m);                                                                  \
         T v = sg_from_##T(sg_rl##W(sg_to_##T(x), l));                                             \
         bool in = mode == SG_REDUCE || (mode == SG_INCLUSIVE && l <= me) ||                       \
                   (mode == SG_EXCLUSIVE && l < me) ||                                             \
                   (mode == SG_CLUSTERED && (l ^ me) < clustersize);                               \
         T r = SG_OP_##OP(T, U, acc, v);                                                           \
         acc = in ? r : acc;                                                                       \
      }                                                                                            \
      return acc;                                                                                  \
   }                                                                                               \
   OVL T sub_group_non_uniform_reduce_##NAME(T x)                                                  \
   {                                                                                               \
      if (UNI && sg_full_wave())                                                                   \
         return SG_UNI_##UNI(sub_group_reduce_##NAME, x);                                          \
      return sg_nu_##NAME##_##T(PRE(x), SG_REDUCE, 0);                                             \
   }                                                                                               \
   OVL T sub_group_non_uniform_scan_inclusive_##NAME(T x)                                          \
   {                                                                                               \
      if (UNI && sg_full_wave())                                                                   \
         return SG_UNI_##UNI(sub_group_scan_inclusive_##NAME, x);                                  \
      return sg_nu_##NAME##_##T(PRE(x), SG_INCLUSIVE, 0);                                          \
   }                                                                                               \
   OVL T sub_group_non_uniform_scan_exclusive_##NAME(T x)                                          \
   {                                                                                               \
      if (UNI && sg_full_wave())                                                                   \
         return SG_UNI_##UNI(sub_group_scan_exclusive_##NAME, x);                                  \
      return sg_nu_##NAME##_##T(PRE(x), SG_EXCLUSIVE, 0);                                          \
   }                                                                                               \
   OVL T sub_group_clustered_reduce_##NAME(T x, uint clustersize)                                  \
   {                                                                                               \
      return sg_nu_##NAME##_##T(PRE(x), SG_CLUSTERED, clustersize);                                \
   }

#define SG_SAME(x) (x)
#define SG_BOOL(x) ((x) != 0)

/* X(T, W, U, TMIN, TMAX) */
#define SG_INT_TYPES(X)                                                                            \
   X(char, 32, uint, CHAR_MIN, CHAR_MAX)                                                           \
   X(uchar, 32, uint, 0, UCHAR_MAX)                                                                \
   X(short, 32, uint, SHRT_MIN, SHRT_MAX)                                                          \
   X(ushort, 32, uint, 0, USHRT_MAX)                                                               \
   X(int, 32, uint, INT_MIN, INT_MAX)                                                              \
   X(uint, 32, uint, 0, UINT_MAX)                                                                  \
   X(long, 64, ulong, LONG_MIN, LONG_MAX)                                                          \
   X(ulong, 64, ulong, 0, ULONG_MAX)
#define SG_FP_TYPES(X)                                                                             \
   X(float, 32, float, -INFINITY, INFINITY)                                                        \
   X(double, 64, double, -INFINITY, INFINITY)                                                      \
   X(half, 32, half, -INFINITY, INFINITY)

#define SG_NU_INT(T, W, U, TMIN, TMAX)                                                             \
   SG_NU_OP(T, W, U, add, add, 0, SG_SAME, 1)                                                      \
   SG_NU_OP(T, W, U, mul, mul, 1, SG_SAME, 0)                                                      \
   SG_NU_OP(T, W, U, min, min, TMAX, SG_SAME, 1)                                                   \
   SG_NU_OP(T, W, U, max, max, TMIN, SG_SAME, 1)                                                   \
   SG_NU_OP(T, W, U, and, and, ~(T)0, SG_SAME, 0)                                                  \
   SG_NU_OP(T, W, U, or, or, 0, SG_SAME, 0)                                                        \
   SG_NU_OP(T, W, U, xor, xor, 0, SG_SAME, 0)
#define SG_NU_FP(T, W, U, TMIN, TMAX)                                                              \
   SG_NU_OP(T, W, U, add, add, 0, SG_SAME, 1)                                                      \
   SG_NU_OP(T, W, U, mul, mul, 1, SG_SAME, 0)                                                      \
   SG_NU_OP(T, W, U, min, fmin, TMAX, SG_SAME, 1)                                                  \
   SG_NU_OP(T, W, U, max, fmax, TMIN, SG_SAME, 1)
SG_INT_TYPES(SG_NU_INT)
SG_FP_TYPES(SG_NU_FP)
SG_NU_OP(int, 32, uint, logical_and, and, 1, SG_BOOL, 0)
SG_NU_OP(int, 32, uint, logical_or, or, 0, SG_BOOL, 0)
SG_NU_OP(int, 32, uint, logical_xor, xor, 0, SG_BOOL, 0)
