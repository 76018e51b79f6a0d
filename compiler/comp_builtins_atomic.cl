/*
 * comp_builtins_atomic.cl — cl_ext_float_atomics 1.0.0: atomic_fetch_{add,sub}[_explicit] of
 * atomic_float and atomic_double, atomic_fetch_{min,max}[_explicit] of atomic_half,
 * atomic_float and atomic_double, in global, local and generic memory, and
 * atomic_{load,store,exchange}[_explicit] of atomic_half. No half add (platform/
 * plat_extensions.def says why). Included by
 * comp_builtins.cl.
 *
 * clang-19 declares them from the feature macros (OpenCLBuiltins.td, compiler/
 * comp_llvm_front.cpp defines the macros of what the device reports); ROCm 5.2's opencl.bc
 * defines none of them. Each is clang's __opencl_atomic_* on the floating type, which is an
 * atomicrmw fadd/fmin/fmax (xchg, load, store): LLVM's AMDGPU back end selects the target's
 * instruction where it has one (DS_ADD_RTN_F32, DS_MIN/MAX_RTN_F32/F64 on every target, more
 * on gfx90a and gfx942) and a compare-and-swap loop elsewhere, half inside a 32-bit word
 * (platform/plat_gpu_info.c records which).
 *
 * min and max are atomicrmw fmin/fmax, llvm.minnum/maxnum's rules: a quiet NaN operand yields
 * the other one, two NaNs a NaN, -0 and +0 either, which are the extension's ("For the
 * floating-point atomic min operation: min(x, qNaN) = min(qNaN, x) = x, ..."); DS_MIN_F32 and
 * friends follow them too. sub is an add of the negated operand: x - y and x + (-y) are the
 * same IEEE result in every rounding mode and for every operand (signed zeros included), and
 * only the add has instructions.
 *
 * The default forms are memory_order_seq_cst and memory_scope_device, the form with an order
 * memory_scope_device (OpenCL C 3.0 §6.15.12.7).
 */

#define FA_ATTR __attribute__((overloadable))

/* The three forms of function NAME on T in address space AS; EXPR computes the explicit one
 * from p, v, o and s. */
#define FA_FORMS(NAME, T, AS, EXPR)                                                          \
   FA_ATTR T NAME##_explicit(volatile AS atomic_##T *p, T v, memory_order o, memory_scope s)  \
   {                                                                                         \
      return EXPR;                                                                           \
   }                                                                                         \
   FA_ATTR T NAME##_explicit(volatile AS atomic_##T *p, T v, memory_order o)                 \
   {                                                                                         \
      return NAME##_explicit(p, v, o, memory_scope_device);                                  \
   }                                                                                         \
   FA_ATTR T NAME(volatile AS atomic_##T *p, T v)                                            \
   {                                                                                         \
      return NAME##_explicit(p, v, memory_order_seq_cst, memory_scope_device);               \
   }

#define FA_ADD(T, AS)                                                                        \
   FA_FORMS(atomic_fetch_add, T, AS, __opencl_atomic_fetch_add(p, v, o, s))                  \
   FA_FORMS(atomic_fetch_sub, T, AS, __opencl_atomic_fetch_add(p, -v, o, s))

#define FA_MINMAX(T, AS)                                                                     \
   FA_FORMS(atomic_fetch_min, T, AS, __opencl_atomic_fetch_min(p, v, o, s))                  \
   FA_FORMS(atomic_fetch_max, T, AS, __opencl_atomic_fetch_max(p, v, o, s))

/* The generic forms pick the named one from the pointer's aperture at run time (an
 * atomicrmw through a flat pointer is always a compare-and-swap loop, and a volatile one is
 * never narrowed to the named space by LLVM's address-space inference); where the pointer is
 * known, the test folds away. clang-19 resolves every atomic_fetch_min/max call on float to
 * the generic overload, global and local pointers included, so this is also what keeps LDS
 * min and max on DS_MIN/MAX_RTN_F32. Atomics on private memory are undefined (OpenCL C 3.0
 * §6.15.12.1: only global and local atomic objects), so not local means global. */
#define FA_GENERIC(NAME, T)                                                                  \
   FA_FORMS(NAME, T, ,                                                                       \
            __builtin_amdgcn_is_shared((const void *)p)                                      \
               ? NAME##_explicit((volatile __local atomic_##T *)p, v, o, s)                  \
               : NAME##_explicit((volatile __global atomic_##T *)p, v, o, s))

#define FA_ALL_MINMAX(T)                                                                     \
   FA_MINMAX(T, __global)                                                                    \
   FA_MINMAX(T, __local)                                                                     \
   FA_GENERIC(atomic_fetch_min, T)                                                           \
   FA_GENERIC(atomic_fetch_max, T)

#define FA_ALL_ADD(T)                                                                        \
   FA_ADD(T, __global)                                                                       \
   FA_ADD(T, __local)                                                                        \
   FA_GENERIC(atomic_fetch_add, T)                                                           \
   FA_GENERIC(atomic_fetch_sub, T)

FA_ALL_MINMAX(half)
FA_ALL_MINMAX(float)
FA_ALL_MINMAX(double)
FA_ALL_ADD(float)
FA_ALL_ADD(double)

/* atomic_half's load, store and exchange (float and double have OpenCL C 2.0's). The store
 * twice: clang-19 declares the value it takes as atomic_half, not half (OpenCLBuiltins.td),
 * and the SPIR-V translator names OpAtomicStore on half with a half value. */
#define FA_HALF_STORE(AS, V)                                                                 \
   FA_ATTR void atomic_store_explicit(volatile AS atomic_half *p, V v, memory_order o,       \
                                      memory_scope s)                                        \
   {                                                                                         \
      __opencl_atomic_store(p, (half)v, o, s);                                               \
   }                                                                                         \
   FA_ATTR void atomic_store_explicit(volatile AS atomic_half *p, V v, memory_order o)       \
   {                                                                                         \
      __opencl_atomic_store(p, (half)v, o, memory_scope_device);                             \
   }                                                                                         \
   FA_ATTR void atomic_store(volatile AS atomic_half *p, V v)                                \
   {                                                                                         \
      __opencl_atomic_store(p, (half)v, memory_order_seq_cst, memory_scope_device);          \
   }

#define FA_HALF_LSX(AS)                                                                      \
   FA_FORMS(atomic_exchange, half, AS, __opencl_atomic_exchange(p, v, o, s))                 \
   FA_ATTR half atomic_load_explicit(volatile AS atomic_half *p, memory_order o,             \
                                     memory_scope s)                                         \
   {                                                                                         \
      return __opencl_atomic_load(p, o, s);                                                  \
   }                                                                                         \
   FA_ATTR half atomic_load_explicit(volatile AS atomic_half *p, memory_order o)             \
   {                                                                                         \
      return __opencl_atomic_load(p, o, memory_scope_device);                                \
   }                                                                                         \
   FA_ATTR half atomic_load(volatile AS atomic_half *p)                                      \
   {                                                                                         \
      return __opencl_atomic_load(p, memory_order_seq_cst, memory_scope_device);             \
   }                                                                                         \
   FA_HALF_STORE(AS, atomic_half)                                                            \
   FA_HALF_STORE(AS, half)

FA_HALF_LSX(__global)
FA_HALF_LSX(__local)
FA_HALF_LSX()
