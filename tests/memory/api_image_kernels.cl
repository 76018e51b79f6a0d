/* tests/memory/api_image_kernels.cl — image kernels the build turns into SPIR-V (clang-15 and
 * llvm-spirv-15, tests/CMakeLists.txt) for tests/memory/api_image_ext_test.c: a sampler argument,
 * a literal sampler and a samplerless read; a read_write image. */
kernel void cp(read_only image2d_t src, write_only image2d_t dst, sampler_t s) {
   int2 p = (int2)(get_global_id(0), get_global_id(1));
   float4 a = read_imagef(src, s, p);
   float4 b = read_imagef(src, CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE |
                          CLK_FILTER_NEAREST, p);
   write_imagef(dst, p, a + b + read_imagef(src, p));
}
kernel void rw(read_write image2d_t img) {
   int2 p = (int2)(get_global_id(0), get_global_id(1));
   write_imagef(img, p, read_imagef(img, p) * 2.0f);
}
