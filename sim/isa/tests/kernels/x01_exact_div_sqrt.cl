// hsacl sim/isa test kernel (not from the corpus): division and square root, whose LLVM
// expansions (v_div_scale/v_rcp/v_fma/v_div_fmas/v_div_fixup, v_rsq_f64 + Newton steps,
// v_sqrt_f32 + correction) must give correctly rounded results.
__kernel void exact(__global const float *a, __global const float *b, __global float *o,
                    __global const double *da, __global const double *db, __global double *od,
                    int n) {
  size_t i = get_global_id(0);
  o[i] = a[i] / b[i];
  o[i + n] = sqrt(a[i]);
  od[i] = da[i] / db[i];
  od[i + n] = sqrt(da[i]);
  od[i + 2 * n] = 1.0 / db[i];
}
