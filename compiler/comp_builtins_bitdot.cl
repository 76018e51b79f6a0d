/*
 * comp_builtins_bitdot.cl — the built-ins of cl_khr_extended_bit_ops and
 * cl_khr_integer_dot_product (OpenCL C 3.1 §6.15.x; extensions in 3.0), which Debian's ROCm
 * 5.2 opencl.bc does not define. Included by comp_builtins.cl (same compilation, same rules:
 * no processor).
 *
 * The 8-bit dot products of same-signedness inputs go through ockl's __ockl_udot4 and
 * __ockl_sdot4, which select V_DOT4_U32_U8 / V_DOT4_I32_I8 on the processors that have them
 * (gfx906 among them: its dot1 and dot7 instructions) from __oclc_ISA_version, folded per
 * build, and a portable sum elsewhere (except on gfx90c and gfx1013, where ROCm 5.2 wrongly
 * picks the instructions: plain sums here); their last argument asks for the saturating
 * accumulate (the instructions' clamp). Mixed signedness has no gfx9 or gfx10 instruction:
 * plain C there. gfx11 and gfx12 have no V_DOT4_I32_I8 (ROCm 5.2's __ockl_sdot4 still picks
 * its dot1 helper for them, which code generation drops: compiler/comp_passes.cpp) but have
 * V_DOT4_I32_IU8 (dot8-insts), whose NEG_LO bits say which input is signed: the signed and
 * the mixed forms use it there, chosen by the same folded __oclc_ISA_version test.
 */

#define BDC __attribute__((overloadable, const))

/* ---- cl_khr_extended_bit_ops -------------------------------------------------------- *
 * X(T, U, S, W): a type, its unsigned and signed counterparts, its width. The results for
 * offset + count > W are undefined (the extension): here they are whatever the masks give,
 * never a shift by W or more (OpenCL C reduces shift counts modulo the width, so vector
 * shifts by W would be shifts by 0). count == 0: insert returns base, extracts return 0. */
#define BD_SCALARS(X)                                                                       \
   X(char, uchar, char, 8)                                                                  \
   X(uchar, uchar, char, 8)                                                                 \
   X(short, ushort, short, 16)                                                              \
   X(ushort, ushort, short, 16)                                                             \
   X(int, uint, int, 32)                                                                    \
   X(uint, uint, int, 32)                                                                   \
   X(long, ulong, long, 64) X(ulong, ulong, long, 64)

/* The low `count` bits set, in a 64-bit word (count <= 64). */
static inline __attribute__((always_inline)) ulong
bd_mask(uint count)
{
   return count == 0 ? 0 : ~0ul >> (64 - min(count, 64u));
}

#define BD_ONE(T, U, S, W, n, CU, CS)                                                        \
   BDC T##n bitfield_insert(T##n base, T##n insert, uint offset, uint count)               \
   {                                                                                        \
      if (count == 0)                                                                       \
         return base;                                                                       \
      U mask = (U)(bd_mask(count) << offset);                                               \
      return bd_t_##T((U##n)((CU(base) & (U##n)(U)~mask) |                                  \
                             ((CU(insert) << (U)offset) & (U##n)mask)));                    \
   }                                                                                        \
   BDC S##n bitfield_extract_signed(T##n base, uint offset, uint count)                    \
   {                                                                                        \
      if (count == 0)                                                                       \
         return (S##n)0;                                                                    \
      S##n v = CS(base) << (S)(W - offset - count);                                         \
      return v >> (S)(W - count);                                                           \
   }                                                                                        \
   BDC U##n bitfield_extract_unsigned(T##n base, uint offset, uint count)                  \
   {                                                                                        \
      if (count == 0)                                                                       \
         return (U##n)0;                                                                    \
      return (CU(base) >> (U)offset) & (U##n)(U)bd_mask(count);                             \
   }

#define BD_AS_SCALAR(T, U, S, W)                                                            \
   static inline __attribute__((always_inline, overloadable)) U bd_u(T x) { return (U)x; } \
   static inline __attribute__((always_inline, overloadable)) S bd_s(T x) { return (S)x; } \
   static inline __attribute__((always_inline, overloadable)) T bd_t_##T(U x) { return (T)x; }
#define BD_AS_VEC(T, U, S, n)                                                               \
   static inline __attribute__((always_inline, overloadable)) U##n bd_u(T##n x)            \
   {                                                                                        \
      return as_##U##n(x);                                                                  \
   }                                                                                        \
   static inline __attribute__((always_inline, overloadable)) S##n bd_s(T##n x)            \
   {                                                                                        \
      return as_##S##n(x);                                                                  \
   }                                                                                        \
   static inline __attribute__((always_inline, overloadable)) T##n bd_t_##T(U##n x)        \
   {                                                                                        \
      return as_##T##n(x);                                                                  \
   }

/* bit_reverse: the elementwise builtin on vectors; scalars through the width's own builtin
 * (the elementwise one promotes a char or short scalar to int first, and reversing the
 * promoted value puts the sign bits where the result is read). */
#define BD_REV(T, W, n)                                                                     \
   BDC T##n bit_reverse(T##n base) { return __builtin_elementwise_bitreverse(base); }
#define BD_REV_SCALAR(T, W)                                                                 \
   BDC T bit_reverse(T base) { return (T)__builtin_bitreverse##W(base); }

#define BD_TYPE(T, U, S, W)                                                                 \
   BD_REV_SCALAR(T, W)                                                                      \
   BD_REV(T, W, 2)                                                                          \
   BD_REV(T, W, 3)                                                                          \
   BD_REV(T, W, 4)                                                                          \
   BD_REV(T, W, 8)                                                                          \
   BD_REV(T, W, 16)                                                                         \
   BD_AS_SCALAR(T, U, S, W)                                                                 \
   BD_AS_VEC(T, U, S, 2)                                                                    \
   BD_AS_VEC(T, U, S, 3)                                                                    \
   BD_AS_VEC(T, U, S, 4)                                                                    \
   BD_AS_VEC(T, U, S, 8)                                                                    \
   BD_AS_VEC(T, U, S, 16)                                                                   \
   BD_ONE(T, U, S, W, , bd_u, bd_s)                                                         \
   BD_ONE(T, U, S, W, 2, bd_u, bd_s)                                                        \
   BD_ONE(T, U, S, W, 3, bd_u, bd_s)                                                        \
   BD_ONE(T, U, S, W, 4, bd_u, bd_s)                                                        \
   BD_ONE(T, U, S, W, 8, bd_u, bd_s)                                                        \
   BD_ONE(T, U, S, W, 16, bd_u, bd_s)

BD_SCALARS(BD_TYPE)

/* ---- cl_khr_integer_dot_product ----------------------------------------------------- */

uint __ockl_udot4(uchar4 a, uchar4 b, uint c, bool saturate);
int __ockl_sdot4(char4 a, char4 b, int c, bool saturate);

/* The processor, as the device libraries read it (rocm-device-libs oclc/): major * 1000 +
 * minor * 100 + stepping, a constant compiler/comp_llvm_libs.cpp defines per build. */
extern __constant int __oclc_ISA_version;

/* gfx11 and later: V_DOT4_I32_IU8. The helpers carry the feature, as ockl's do, so that they
 * are only inlined into (and only reached on) processors that have it; the test is inlined
 * even at -cl-opt-disable, where only the folding of device-library code runs. */
static inline __attribute__((always_inline)) bool
bd_has_iu8(void)
{
   return __oclc_ISA_version >= 11000;
}
#define BD_IU8(name, sa, sb, sat)                                                           \
   static __attribute__((target("dot8-insts"))) int name(uint a, uint b, int acc)          \
   {                                                                                        \
      return __builtin_amdgcn_sudot4(sa, (int)a, sb, (int)b, acc, sat);                     \
   }
BD_IU8(bd_iu8_ss, true, true, false)
BD_IU8(bd_iu8_ss_sat, true, true, true)
BD_IU8(bd_iu8_su, true, false, false)
BD_IU8(bd_iu8_su_sat, true, false, true)

/* ROCm 5.2's __ockl_udot4 and __ockl_sdot4 pick their V_DOT4_U32_U8 (dot7-insts) and
 * V_DOT4_I32_I8 (dot1-insts) helpers for gfx90c (9.0.12) and gfx1013 (10.1.3) too, which have
 * neither instruction (LLVM 19's processor definitions); the plain sums below serve there. */
static inline __attribute__((always_inline)) bool
bd_ockl_dot_wrong(void)
{
   return __oclc_ISA_version == 9012 || __oclc_ISA_version == 10103;
}

/* Same signedness, exactly: the sums fit (4 * 255 * 255, 4 * 128 * 128); the saturating forms
 * add the accumulator with add_sat, as the extension defines them. */
static inline __attribute__((always_inline)) uint
bd_dot_u(uchar4 a, uchar4 b)
{
   return (uint)a.x * b.x + (uint)a.y * b.y + (uint)a.z * b.z + (uint)a.w * b.w;
}
static inline __attribute__((always_inline)) int
bd_dot_s(char4 a, char4 b)
{
   return (int)a.x * b.x + (int)a.y * b.y + (int)a.z * b.z + (int)a.w * b.w;
}

/* Mixed signedness, exactly: |sum| <= 4 * 128 * 255. */
static inline __attribute__((always_inline)) int
bd_dot_mixed(char4 s, uchar4 u)
{
   if (bd_has_iu8())
      return bd_iu8_su(as_uint(s), as_uint(u), 0);
   return (int)s.x * (int)u.x + (int)s.y * (int)u.y + (int)s.z * (int)u.z +
          (int)s.w * (int)u.w;
}

/* The clamp of V_DOT4_I32_IU8 saturates the sum with the accumulator; the products' sum itself
 * never overflows (above), so this is add_sat(dot, acc) as the extension defines it. */
static inline __attribute__((always_inline)) int
bd_dot_mixed_acc_sat(char4 s, uchar4 u, int acc)
{
   if (bd_has_iu8())
      return bd_iu8_su_sat(as_uint(s), as_uint(u), acc);
   return add_sat(bd_dot_mixed(s, u), acc);
}

BDC uint dot(uchar4 a, uchar4 b)
{
   if (bd_ockl_dot_wrong())
      return bd_dot_u(a, b);
   return __ockl_udot4(a, b, 0u, false);
}
BDC int dot(char4 a, char4 b)
{
   if (bd_has_iu8())
      return bd_iu8_ss(as_uint(a), as_uint(b), 0);
   if (bd_ockl_dot_wrong())
      return bd_dot_s(a, b);
   return __ockl_sdot4(a, b, 0, false);
}
BDC int dot(uchar4 a, char4 b) { return bd_dot_mixed(b, a); }
BDC int dot(char4 a, uchar4 b) { return bd_dot_mixed(a, b); }

BDC uint dot_acc_sat(uchar4 a, uchar4 b, uint acc)
{
   if (bd_ockl_dot_wrong())
      return add_sat(bd_dot_u(a, b), acc);
   return __ockl_udot4(a, b, acc, true);
}
BDC int dot_acc_sat(char4 a, char4 b, int acc)
{
   if (bd_has_iu8())
      return bd_iu8_ss_sat(as_uint(a), as_uint(b), acc);
   if (bd_ockl_dot_wrong())
      return add_sat(bd_dot_s(a, b), acc);
   return __ockl_sdot4(a, b, acc, true);
}
BDC int dot_acc_sat(uchar4 a, char4 b, int acc) { return bd_dot_mixed_acc_sat(b, a, acc); }
BDC int dot_acc_sat(char4 a, uchar4 b, int acc) { return bd_dot_mixed_acc_sat(a, b, acc); }

/* Packed: element k is bits 8k+7:8k (OpenCL C 3.1 "Integer dot product functions"), what
 * as_uchar4 gives on this little-endian device. */
BDC uint dot_4x8packed_uu_uint(uint a, uint b) { return dot(as_uchar4(a), as_uchar4(b)); }
BDC int dot_4x8packed_ss_int(uint a, uint b) { return dot(as_char4(a), as_char4(b)); }
BDC int dot_4x8packed_us_int(uint a, uint b) { return dot(as_uchar4(a), as_char4(b)); }
BDC int dot_4x8packed_su_int(uint a, uint b) { return dot(as_char4(a), as_uchar4(b)); }

BDC uint dot_acc_sat_4x8packed_uu_uint(uint a, uint b, uint acc)
{
   return dot_acc_sat(as_uchar4(a), as_uchar4(b), acc);
}
BDC int dot_acc_sat_4x8packed_ss_int(uint a, uint b, int acc)
{
   return dot_acc_sat(as_char4(a), as_char4(b), acc);
}
BDC int dot_acc_sat_4x8packed_us_int(uint a, uint b, int acc)
{
   return dot_acc_sat(as_uchar4(a), as_char4(b), acc);
}
BDC int dot_acc_sat_4x8packed_su_int(uint a, uint b, int acc)
{
   return dot_acc_sat(as_char4(a), as_uchar4(b), acc);
}

/* The forms Khronos' translator (llvm-spirv-15 -r) gives OpUDot, OpSDot, OpSUDot and their
 * AccSat variants (SPV_KHR_integer_dot_product): "SPIR-V friendly" names with the result
 * type in the name, the inputs as char4 whatever their signedness (SPIR-V integers have
 * none), the accumulator as int. The result suffix follows the LLVM type the translator
 * chose; both spellings are defined. */
#define BD_SPV_DOT(R)                                                                       \
   BDC R __spirv_UDotKHR_R##R(char4 a, char4 b) { return (R)dot(as_uchar4(a), as_uchar4(b)); } \
   BDC R __spirv_SDotKHR_R##R(char4 a, char4 b) { return (R)dot(a, b); }                    \
   BDC R __spirv_SUDotKHR_R##R(char4 a, char4 b) { return (R)dot(a, as_uchar4(b)); }        \
   BDC R __spirv_UDotAccSatKHR_R##R(char4 a, char4 b, int acc)                              \
   {                                                                                        \
      return (R)dot_acc_sat(as_uchar4(a), as_uchar4(b), (uint)acc);                         \
   }                                                                                        \
   BDC R __spirv_SDotAccSatKHR_R##R(char4 a, char4 b, int acc)                              \
   {                                                                                        \
      return (R)dot_acc_sat(a, b, acc);                                                     \
   }                                                                                        \
   BDC R __spirv_SUDotAccSatKHR_R##R(char4 a, char4 b, int acc)                             \
   {                                                                                        \
      return (R)dot_acc_sat(a, as_uchar4(b), acc);                                          \
   }
BD_SPV_DOT(int)
BD_SPV_DOT(uint)
