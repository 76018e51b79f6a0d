/*
 * tests/compiler/float_atomics_kernels.cl — the kernels of api_float_atomics_test.c, built from
 * source and, as SPIR-V made by clang-15 and llvm-spirv-15, through clCreateProgramWithIL.
 * Results go out as double (exact for half, float and double), so the host needs no half
 * arithmetic.
 */
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

/* The CL_DEVICE_*_FP_ATOMIC_CAPABILITIES_EXT bits the macros say: o[0] half, o[1] float,
 * o[2] double. Load, store and exchange of float and double are OpenCL C 2.0's. */
#define BIT(b) ((ulong)1 << (b))
kernel void
macros(global ulong *o)
{
   ulong h = 0, f = 0, d = 0;
#ifdef cl_ext_float_atomics
   f |= BIT(0) | BIT(16);
   d |= BIT(0) | BIT(16);
#endif
#ifdef __opencl_c_ext_fp16_global_atomic_load_store
   h |= BIT(0);
#endif
#ifdef __opencl_c_ext_fp16_local_atomic_load_store
   h |= BIT(16);
#endif
#ifdef __opencl_c_ext_fp16_global_atomic_add
   h |= BIT(1);
#endif
#ifdef __opencl_c_ext_fp16_local_atomic_add
   h |= BIT(17);
#endif
#ifdef __opencl_c_ext_fp16_global_atomic_min_max
   h |= BIT(2);
#endif
#ifdef __opencl_c_ext_fp16_local_atomic_min_max
   h |= BIT(18);
#endif
#ifdef __opencl_c_ext_fp32_global_atomic_add
   f |= BIT(1);
#endif
#ifdef __opencl_c_ext_fp32_local_atomic_add
   f |= BIT(17);
#endif
#ifdef __opencl_c_ext_fp32_global_atomic_min_max
   f |= BIT(2);
#endif
#ifdef __opencl_c_ext_fp32_local_atomic_min_max
   f |= BIT(18);
#endif
#ifdef __opencl_c_ext_fp64_global_atomic_add
   d |= BIT(1);
#endif
#ifdef __opencl_c_ext_fp64_local_atomic_add
   d |= BIT(17);
#endif
#ifdef __opencl_c_ext_fp64_global_atomic_min_max
   d |= BIT(2);
#endif
#ifdef __opencl_c_ext_fp64_local_atomic_min_max
   d |= BIT(18);
#endif
   o[0] = h;
   o[1] = f;
   o[2] = d;
}

/* add/sub: out[5 * i + k], k = global add to g[0], local add, global sub from g[1], generic
 * add to g[2], generic sub from a local starting at 128 (the work-group size); sums[2 * group
 * + k] the two locals at the end. */
#define ADDSUB(T)                                                                            \
   kernel void addsub_##T(volatile global atomic_##T *g, global double *out,                 \
                          global double *sums)                                               \
   {                                                                                         \
      local atomic_##T la, ls;                                                               \
      size_t i = get_global_id(0);                                                           \
      if (get_local_id(0) == 0) {                                                            \
         atomic_store_explicit(&la, (T)0, memory_order_relaxed, memory_scope_work_group);    \
         atomic_store_explicit(&ls, (T)128, memory_order_relaxed, memory_scope_work_group);  \
      }                                                                                      \
      barrier(CLK_LOCAL_MEM_FENCE);                                                          \
      volatile atomic_##T *gen_g = &g[2], *gen_l = &ls;                                      \
      out[5 * i + 0] = atomic_fetch_add(&g[0], (T)1);                                        \
      out[5 * i + 1] = atomic_fetch_add_explicit(&la, (T)1, memory_order_relaxed);           \
      out[5 * i + 2] = atomic_fetch_sub_explicit(&g[1], (T)1, memory_order_acq_rel,          \
                                                 memory_scope_device);                       \
      out[5 * i + 3] = atomic_fetch_add_explicit(gen_g, (T)1, memory_order_seq_cst,          \
                                                 memory_scope_device);                       \
      out[5 * i + 4] = atomic_fetch_sub(gen_l, (T)1);                                        \
      barrier(CLK_LOCAL_MEM_FENCE);                                                          \
      if (get_local_id(0) == 0) {                                                            \
         sums[2 * get_group_id(0) + 0] = atomic_load(&la);                                   \
         sums[2 * get_group_id(0) + 1] = atomic_load(&ls);                                   \
      }                                                                                      \
   }

/* min/max: v[i] the operands; init[0..3] the start values of g[0] (min), g[1] (max) — set by
 * the host — and of the local min and max; out[2 * group + k] the local results. Every
 * work-item updates both maxima, once through a generic pointer. */
#define MINMAX(T)                                                                            \
   kernel void minmax_##T(global const double *v, global const double *init,                 \
                          volatile global atomic_##T *g, global double *out)                 \
   {                                                                                         \
      local atomic_##T lmin, lmax;                                                           \
      if (get_local_id(0) == 0) {                                                            \
         atomic_store(&lmin, (T)init[2]);                                                    \
         atomic_store(&lmax, (T)init[3]);                                                    \
      }                                                                                      \
      barrier(CLK_LOCAL_MEM_FENCE);                                                          \
      T x = (T)v[get_global_id(0)];                                                          \
      volatile atomic_##T *gen = &lmax;                                                      \
      if (get_global_id(0) & 1)                                                              \
         gen = &g[1];                                                                        \
      atomic_fetch_min(&g[0], x);                                                            \
      atomic_fetch_max_explicit(&g[1], x, memory_order_relaxed);                             \
      atomic_fetch_min_explicit(&lmin, x, memory_order_relaxed, memory_scope_work_group);    \
      atomic_fetch_max_explicit(gen, x, memory_order_seq_cst, memory_scope_device);          \
      if (!(get_global_id(0) & 1))                                                           \
         atomic_fetch_max(&g[1], x);                                                         \
      else                                                                                   \
         atomic_fetch_max(&lmax, x);                                                         \
      barrier(CLK_LOCAL_MEM_FENCE);                                                          \
      if (get_local_id(0) == 0) {                                                            \
         out[2 * get_group_id(0) + 0] = atomic_load(&lmin);                                  \
         out[2 * get_group_id(0) + 1] = atomic_load(&lmax);                                  \
      }                                                                                      \
   }

ADDSUB(float)
ADDSUB(double)
MINMAX(half)
MINMAX(float)
MINMAX(double)
