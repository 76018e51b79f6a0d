/*
 * comp_builtins_mipmap.cl — get_image_num_mip_levels (cl_khr_mipmap_image) for every image
 * type and access qualifier. Included by comp_builtins.cl.
 *
 * ROCm 5.2's opencl.bc answers the T#'s LAST_LEVEL (__ockl_image_num_mip_levels_*: dword 3,
 * bits 19:16), which is the index of the last level, one less than the count: an image of
 * 4 levels has LAST_LEVEL 3 (memory/mem_image.c sets it so, as the texture unit needs to
 * address levels 0..3). The count is LAST_LEVEL - BASE_LEVEL + 1 (BASE_LEVEL, bits 15:12,
 * is 0 in every T# hsacl makes; images without mip levels have LAST_LEVEL 0 and answer 1).
 */

#define MIP_LEVELS(T)                                                                       \
   __attribute__((overloadable)) int get_image_num_mip_levels(T image)                     \
   {                                                                                        \
      __constant uint *t = __builtin_astype(image, __constant uint *);                      \
      return (int)(((t[3] >> 16) & 0xFu) - ((t[3] >> 12) & 0xFu) + 1u);                    \
   }

#define MIP_LEVELS_ACCESS(T)                                                                \
   MIP_LEVELS(read_only T)                                                                  \
   MIP_LEVELS(write_only T)                                                                 \
   MIP_LEVELS(read_write T)

MIP_LEVELS_ACCESS(image1d_t)
MIP_LEVELS_ACCESS(image1d_array_t)
MIP_LEVELS_ACCESS(image2d_t)
MIP_LEVELS_ACCESS(image2d_array_t)
MIP_LEVELS_ACCESS(image3d_t)
MIP_LEVELS_ACCESS(image2d_depth_t)
MIP_LEVELS_ACCESS(image2d_array_depth_t)

#undef MIP_LEVELS_ACCESS
#undef MIP_LEVELS
