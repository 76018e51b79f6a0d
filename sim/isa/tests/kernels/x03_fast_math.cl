// hsacl sim/isa test kernel (not from the corpus): built with -cl-fast-relaxed-math (the
// FLAGS line below; darktable builds every kernel so), under which LLVM turns (int)floor(x)
// into v_cvt_flr_i32_f32 and (int)floor(x + 0.5f) into v_cvt_rpi_i32_f32 (issue 25: the
// first faulted as an unimplemented opcode).
// FLAGS: -cl-fast-relaxed-math
__kernel void flr_rpi(__global const float *in, __global int *flr, __global int *rpi) {
  size_t i = get_global_id(0);
  flr[i] = (int)floor(in[i]);
  rpi[i] = (int)floor(in[i] + 0.5f);
}
