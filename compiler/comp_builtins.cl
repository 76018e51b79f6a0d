/*
 * comp_builtins.cl — OpenCL C builtins hsacl defines itself instead of taking them from the
 * ROCm device libraries (Debian's ROCm 5.2 opencl.bc / ockl.bc), where they do not conform.
 *
 * Compiled at build time by clang for amdgcn-amd-amdhsa without a processor (like the device
 * libraries), embedded as bitcode (comp_builtins.h) and linked into every build with
 * -mlink-builtin-bitcode semantics (only what the kernel uses, attributes propagated,
 * internalized) in two places of the link order (comp_llvm.cpp):
 *   - before opencl.bc: the mangled OpenCL names below are then defined when opencl.bc is
 *     linked, so its definitions are not used;
 *   - before ockl.bc (after opencl.bc and ocml.bc): __ockl_get_local_linear_id, which the
 *     user's code never names but opencl.bc's get_local_linear_id, get_sub_group_id,
 *     async_work_group_copy, ... call.
 * Everything here must be valid for every processor: a target builtin only inside a
 * function that names its target feature (target("...")) and is reached only under an
 * __oclc_ISA_version test, which the per-build constant folds (the device libraries' own
 * pattern; comp_builtins_bitdot.cl). A helper left reachable on a processor without its
 * feature is a build error naming it (compiler/comp_passes.cpp), never a silent drop.
 *
 * Changing this file changes comp_identity() (its bitcode is hashed in), so cached code
 * objects built with the previous definitions are not reused.
 */

#define CNST __attribute__((overloadable, const))

/* ---- abs_diff (OpenCL C 3.0 §6.15.3): |x - y| without modulo overflow, as ugentype ----
 * opencl.bc computes max(x, y) - min(x, y) with `sub nsw` for int and long, which LLVM turns
 * into abs(x - y): wrong once |x - y| exceeds the signed maximum. Here the difference is taken
 * in the unsigned type, where it is exact modulo 2^N and fits. */

#define ABS_DIFF_VEC(T, U)                                                                  \
   CNST U##2 abs_diff(T##2 x, T##2 y)                                                       \
   {                                                                                        \
      return (U##2)(abs_diff(x.s0, y.s0), abs_diff(x.s1, y.s1));                            \
   }                                                                                        \
   CNST U##3 abs_diff(T##3 x, T##3 y)                                                       \
   {                                                                                        \
      return (U##3)(abs_diff(x.s0, y.s0), abs_diff(x.s1, y.s1), abs_diff(x.s2, y.s2));      \
   }                                                                                        \
   CNST U##4 abs_diff(T##4 x, T##4 y)                                                       \
   {                                                                                        \
      return (U##4)(abs_diff(x.lo, y.lo), abs_diff(x.hi, y.hi));                            \
   }                                                                                        \
   CNST U##8 abs_diff(T##8 x, T##8 y)                                                       \
   {                                                                                        \
      return (U##8)(abs_diff(x.lo, y.lo), abs_diff(x.hi, y.hi));                            \
   }                                                                                        \
   CNST U##16 abs_diff(T##16 x, T##16 y)                                                    \
   {                                                                                        \
      return (U##16)(abs_diff(x.lo, y.lo), abs_diff(x.hi, y.hi));                           \
   }

#define ABS_DIFF(T, U)                                                                      \
   CNST U abs_diff(T x, T y) { return x > y ? (U)((U)x - (U)y) : (U)((U)y - (U)x); }         \
   ABS_DIFF_VEC(T, U)

/* 8 and 16 bits: the difference is exact in int. Not the select form above: after inlining,
 * LLVM 19's SelectionDAG drops the compare of the second element of a char2 abs_diff on gfx9
 * (select(a > b, a - b, b - a) on i8 halves becomes a - b); GlobalISel is right. */
#define ABS_DIFF_SMALL(T, U)                                                                \
   CNST U abs_diff(T x, T y)                                                                \
   {                                                                                        \
      int d = (int)x - (int)y;                                                              \
      return (U)(d < 0 ? -d : d);                                                           \
   }                                                                                        \
   ABS_DIFF_VEC(T, U)

ABS_DIFF_SMALL(char, uchar)
ABS_DIFF_SMALL(uchar, uchar)
ABS_DIFF_SMALL(short, ushort)
ABS_DIFF_SMALL(ushort, ushort)
ABS_DIFF(int, uint)
ABS_DIFF(uint, uint)
ABS_DIFF(long, ulong)
ABS_DIFF(ulong, ulong)

/* ---- convert_<integer>_sat<rounding>(float/double/half) ----
 * OpenCL C 3.0 §6.4.3.3 (Out-of-Range Behavior and Saturated Conversions): NaN converts to 0,
 * out-of-range values to the nearest representable value. opencl.bc clamps with max/min
 * first, which turn NaN into the lower bound, so NaN gave the type's minimum.
 *
 * The rounding mode is applied first (the result is then integral), then the bounds are
 * compared in the source type against powers of two, which are exact in every source type
 * (or infinite for half, whose finite values all fit the wider destinations): below
 * -2^(N-1) (0 for the unsigned types) saturates low, at or above 2^(N-1) (2^N unsigned)
 * saturates high, everything between converts exactly. half is widened to float (exact). */

#define RND_(x) __builtin_elementwise_trunc(x) /* no suffix: float -> integer is rtz */
#define RND__rte(x) __builtin_elementwise_rint(x)
#define RND__rtz(x) __builtin_elementwise_trunc(x)
#define RND__rtp(x) __builtin_elementwise_ceil(x)
#define RND__rtn(x) __builtin_elementwise_floor(x)

#define SAT_SCALAR(D, R, S, LO, HI, DMIN, DMAX)                                               \
   CNST D convert_##D##_sat##R(S x)                                                         \
   {                                                                                        \
      if (__builtin_isnan(x))                                                               \
         return (D)0;                                                                       \
      S r = RND_##R(x);                                                                     \
      if (r <= (S)(LO))                                                                     \
         return DMIN;                                                                       \
      if (r >= (S)(HI))                                                                     \
         return DMAX;                                                                       \
      return (D)r;                                                                          \
   }

#define SAT_HALF(D, R) \
   CNST D convert_##D##_sat##R(half x) { return convert_##D##_sat##R((float)x); }

#define SAT_VEC(D, R, S)                                                                     \
   CNST D##2 convert_##D##2_sat##R(S##2 x)                                                  \
   {                                                                                        \
      return (D##2)(convert_##D##_sat##R(x.s0), convert_##D##_sat##R(x.s1));                \
   }                                                                                        \
   CNST D##3 convert_##D##3_sat##R(S##3 x)                                                  \
   {                                                                                        \
      return (D##3)(convert_##D##_sat##R(x.s0), convert_##D##_sat##R(x.s1),                 \
                    convert_##D##_sat##R(x.s2));                                            \
   }                                                                                        \
   CNST D##4 convert_##D##4_sat##R(S##4 x)                                                  \
   {                                                                                        \
      return (D##4)(convert_##D##2_sat##R(x.lo), convert_##D##2_sat##R(x.hi));              \
   }                                                                                        \
   CNST D##8 convert_##D##8_sat##R(S##8 x)                                                  \
   {                                                                                        \
      return (D##8)(convert_##D##4_sat##R(x.lo), convert_##D##4_sat##R(x.hi));              \
   }                                                                                        \
   CNST D##16 convert_##D##16_sat##R(S##16 x)                                               \
   {                                                                                        \
      return (D##16)(convert_##D##8_sat##R(x.lo), convert_##D##8_sat##R(x.hi));             \
   }

#define SAT_ALL_SRC(D, R, LO, HI, DMIN, DMAX)                                                 \
   SAT_SCALAR(D, R, float, LO, HI, DMIN, DMAX)                                              \
   SAT_SCALAR(D, R, double, LO, HI, DMIN, DMAX)                                             \
   SAT_HALF(D, R)                                                                           \
   SAT_VEC(D, R, float)                                                                     \
   SAT_VEC(D, R, double)                                                                    \
   SAT_VEC(D, R, half)

#define SAT_ALL_RND(D, LO, HI, DMIN, DMAX)                                                    \
   SAT_ALL_SRC(D, , LO, HI, DMIN, DMAX)                                                     \
   SAT_ALL_SRC(D, _rte, LO, HI, DMIN, DMAX)                                                 \
   SAT_ALL_SRC(D, _rtz, LO, HI, DMIN, DMAX)                                                 \
   SAT_ALL_SRC(D, _rtp, LO, HI, DMIN, DMAX)                                                 \
   SAT_ALL_SRC(D, _rtn, LO, HI, DMIN, DMAX)

#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

SAT_ALL_RND(char, -0x1p7, 0x1p7, CHAR_MIN, CHAR_MAX)
SAT_ALL_RND(uchar, 0.0, 0x1p8, 0, UCHAR_MAX)
SAT_ALL_RND(short, -0x1p15, 0x1p15, SHRT_MIN, SHRT_MAX)
SAT_ALL_RND(ushort, 0.0, 0x1p16, 0, USHRT_MAX)
SAT_ALL_RND(int, -0x1p31, 0x1p31, INT_MIN, INT_MAX)
SAT_ALL_RND(uint, 0.0, 0x1p32, 0, UINT_MAX)
SAT_ALL_RND(long, -0x1p63, 0x1p63, LONG_MIN, LONG_MAX)
SAT_ALL_RND(ulong, 0.0, 0x1p64, 0, ULONG_MAX)

/* ---- vstorea_half3<rounding> and vloada_half3 (OpenCL C 3.0 §6.15.9) ----
 * For n = 3 the aligned forms access 3 halves at p + offset * 4. opencl.bc stores and loads
 * a <4 x half> there: the store clobbers the half after the third, and into a private array
 * that ends after the third half LLVM deletes the out-of-bounds store altogether (piglit
 * vstorea_half-float-private read back zeros). Both are the unaligned forms at offset 0 of
 * p + offset * 4, which access exactly 3 halves (opencl.bc's vstore3/vload3 on half). All 40
 * vstorea_half3 variants (float/double, 5 roundings, 4 address spaces) and the 5 vloada_half3
 * variants are replaced. */

#define VSTOREA_HALF3(R, S, AS)                                                             \
   __attribute__((overloadable)) void vstorea_half3##R(S##3 v, size_t o, AS half *p)        \
   {                                                                                        \
      vstore_half3##R(v, 0, p + o * 4);                                                     \
   }

#define VSTOREA_HALF3_AS(R, S)                                                              \
   VSTOREA_HALF3(R, S, __global)                                                            \
   VSTOREA_HALF3(R, S, __local)                                                             \
   VSTOREA_HALF3(R, S, __private)                                                           \
   VSTOREA_HALF3(R, S, )

#define VSTOREA_HALF3_SRC(R)                                                                \
   VSTOREA_HALF3_AS(R, float)                                                               \
   VSTOREA_HALF3_AS(R, double)

VSTOREA_HALF3_SRC()
VSTOREA_HALF3_SRC(_rte)
VSTOREA_HALF3_SRC(_rtz)
VSTOREA_HALF3_SRC(_rtp)
VSTOREA_HALF3_SRC(_rtn)

#define VLOADA_HALF3(AS)                                                                    \
   __attribute__((overloadable, pure)) float3 vloada_half3(size_t o, const AS half *p)      \
   {                                                                                        \
      return vload_half3(0, p + o * 4);                                                     \
   }

VLOADA_HALF3(__global)
VLOADA_HALF3(__local)
VLOADA_HALF3(__private)
VLOADA_HALF3(__constant)
VLOADA_HALF3()

/* ---- get_local_linear_id (OpenCL C 3.0 §6.15.1) ----
 * ockl's version multiplies by the enqueued local size (hidden_group_size), wrong in the
 * partial work-groups of a non-uniform launch. __ockl_get_local_size already returns the
 * actual size there (hidden_remainder for the last group). opencl.bc's get_local_linear_id
 * and get_sub_group_id, async_work_group_(strided_)copy, ... call this. */
ulong __ockl_get_local_id(uint dim);
ulong __ockl_get_local_size(uint dim);

ulong
__ockl_get_local_linear_id(void)
{
   return (__ockl_get_local_id(2) * __ockl_get_local_size(1) + __ockl_get_local_id(1)) *
             __ockl_get_local_size(0) +
          __ockl_get_local_id(0);
}

/* The real-time counter (device-side enqueue's profiling, comp_builtins_enqueue.cl, and the
 * kernels that call ockl directly). ROCm 5.2's is llvm.amdgcn.s.memrealtime in a function
 * carrying "+s-memrealtime", which gfx11 and gfx12 lack (code generation dropped it and the
 * kernel with it). llvm.readsteadycounter (LLVM 19) is the same constant-rate counter on every
 * processor: S_MEMREALTIME up to gfx10, S_SENDMSG_RTN_B64 MSG_RTN_GET_REALTIME on gfx11 and
 * gfx12. */
ulong
__ockl_memrealtime_u64(void)
{
   return __builtin_readsteadycounter();
}

/* ---- the sub-group extensions (cl_khr_subgroup_*) ---- */
#include "comp_builtins_subgroup.cl"

/* ---- cl_khr_extended_bit_ops, cl_khr_integer_dot_product ---- */
#include "comp_builtins_bitdot.cl"

/* ---- cl_ext_float_atomics ---- */
#include "comp_builtins_atomic.cl"

/* ---- cl_khr_kernel_clock (after comp_builtins_bitdot.cl: __oclc_ISA_version) ---- */
#include "comp_builtins_clock.cl"

/* ---- pipes (__opencl_c_pipes) ---- */
#include "comp_builtins_pipe.cl"

/* ---- device-side enqueue (__opencl_c_device_enqueue) ---- */
#include "comp_builtins_enqueue.cl"

/* ---- mip levels (cl_khr_mipmap_image) ---- */
#include "comp_builtins_mipmap.cl"
