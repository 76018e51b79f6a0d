// tests/compiler/khr31_kernels.cl — the kernels of tests/compiler/api_khr31_test.c, built there from this
// source (OpenCL C 1.2 and 3.0) and, at build time, by clang-15 and llvm-spirv-15 into
// SPIR-V with SPV_KHR_bit_instructions, SPV_KHR_integer_dot_product and
// SPV_KHR_subgroup_rotate (OpBitFieldInsert, OpSDot, OpGroupNonUniformRotateKHR, ...), which
// the test builds through clCreateProgramWithIL and checks against the same host models.

// Extended bit operations: per work-item (off[i], cnt[i]); insert, extract_signed,
// extract_unsigned and bit_reverse of each type's inputs, widened to 64 bits.
#define K(T, U, S, W)                                                                       \
   kernel void bits_##T(global const ulong *a, global const ulong *b,                       \
                        global const uint *off, global const uint *cnt, global ulong *o)    \
   {                                                                                        \
      size_t i = get_global_id(0);                                                          \
      T x = (T)a[i], y = (T)b[i];                                                           \
      o[4 * i + 0] = (ulong)(U)bitfield_insert(x, y, off[i], cnt[i]);                       \
      o[4 * i + 1] = (ulong)(long)bitfield_extract_signed(x, off[i], cnt[i]);               \
      o[4 * i + 2] = (ulong)bitfield_extract_unsigned(x, off[i], cnt[i]);                   \
      o[4 * i + 3] = (ulong)(U)bit_reverse(x);                                              \
   }
K(char, uchar, char, 8)
K(ushort, ushort, short, 16)
K(int, uint, int, 32)
K(ulong, ulong, long, 64)

kernel void bits_vec(global const uint *a, global const uint *b, global const uint *off,
                     global const uint *cnt, global uint *o)
{
   size_t i = get_global_id(0);
   uint4 x = vload4(i, a), y = vload4(i, b);
   vstore4(bitfield_insert(x, y, off[i], cnt[i]), 4 * i + 0, o);
   vstore4(as_uint4(bitfield_extract_signed(x, off[i], cnt[i])), 4 * i + 1, o);
   vstore4(bitfield_extract_unsigned(as_int4(x), off[i], cnt[i]), 4 * i + 2, o);
   vstore4(bit_reverse(x), 4 * i + 3, o);
}

// Every integer dot product function of one pair of inputs and an accumulator.
kernel void dots(global const uint *a, global const uint *b, global const int *c,
                 global int *o)
{
   size_t i = get_global_id(0);
   uint x = a[i], y = b[i];
   int acc = c[i];
   uchar4 ux = as_uchar4(x), uy = as_uchar4(y);
   char4 sx = as_char4(x), sy = as_char4(y);
   global int *r = o + 16 * i;
   r[0] = (int)dot(ux, uy);
   r[1] = dot(sx, sy);
   r[2] = dot(ux, sy);
   r[3] = dot(sx, uy);
   r[4] = (int)dot_acc_sat(ux, uy, (uint)acc);
   r[5] = dot_acc_sat(sx, sy, acc);
   r[6] = dot_acc_sat(ux, sy, acc);
   r[7] = dot_acc_sat(sx, uy, acc);
   r[8] = (int)dot_4x8packed_uu_uint(x, y);
   r[9] = dot_4x8packed_ss_int(x, y);
   r[10] = dot_4x8packed_us_int(x, y);
   r[11] = dot_4x8packed_su_int(x, y);
   r[12] = (int)dot_acc_sat_4x8packed_uu_uint(x, y, (uint)acc);
   r[13] = dot_acc_sat_4x8packed_ss_int(x, y, acc);
   r[14] = dot_acc_sat_4x8packed_us_int(x, y, acc);
   r[15] = dot_acc_sat_4x8packed_su_int(x, y, acc);
}

#ifdef cl_khr_subgroup_rotate
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
// Rotations of the global id within the sub-group and within clusters of 4 to 32.
kernel void rot(global int *o, global double *d, int delta)
{
   size_t i = get_global_id(0);
   int x = (int)i;
   o[6 * i + 0] = sub_group_rotate(x, delta);
   d[i] = sub_group_rotate((double)x + 0.5, -delta);
   o[6 * i + 1] = sub_group_clustered_rotate(x, delta, 4u);
   o[6 * i + 2] = sub_group_clustered_rotate(x, delta, 8u);
   o[6 * i + 3] = sub_group_clustered_rotate(x, delta, 16u);
   o[6 * i + 4] = sub_group_clustered_rotate(x, -delta, 32u);
   o[6 * i + 5] = (int)sub_group_rotate((uchar)(x & 0xff), delta);
}
#endif
