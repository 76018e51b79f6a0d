/*
 * comp_builtins_mipmap.cl — get_image_num_mip_levels (cl_khr_mipmap_image) for every image
 * type and access qualifier, and the S# of literal and program-scope samplers
 * (__translate_sampler_initializer). Included by comp_builtins.cl.
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

/* ---- Literal and program-scope samplers --------------------------------------------------
 * clang turns a sampler initialiser (`const sampler_t s = CLK_...`, `constant sampler_t`)
 * into __translate_sampler_initializer(value), which returns the address of a constant S#.
 * OpenCL C cannot name a mip filter or LOD range there: cl_khr_mipmap_image (section 5.7
 * addition) says CL_SAMPLER_MIP_FILTER_MODE_KHR, CL_SAMPLER_LOD_MIN_KHR and
 * CL_SAMPLER_LOD_MAX_KHR "cannot be specified with any samplers initialized in the OpenCL
 * program source. Only the default values for these properties will be used": NEAREST, 0 and
 * MAXFLOAT. ROCm 5.2's opencl.bc gives these samplers MIP_FILTER NONE, so read_imagef(...,
 * lod) through one read level 0 whatever the LOD. The S# below is opencl.bc's field for
 * field (same clamp, filter and per-generation bits) except gfx10's border colour (below) and
 * MIP_FILTER POINT: the nearest level, as with an API sampler of the default mip filter
 * (memory/mem_sampler.c). Images of one level sample level 0 under any mip filter.
 *
 * S# (gfx8 to gfx10 share these positions): dword 0 CLAMP_X/Y/Z [8:0] (3 bits each),
 * DEPTH_COMPARE_FUNC [14:12], FORCE_UNNORMALIZED [15], DISABLE_CUBE_WRAP [28]; dword 1
 * MIN_LOD [11:0], MAX_LOD [23:12] (unsigned 4.8); dword 2 XY_MAG_FILTER [21:20], XY_MIN_FILTER
 * [23:22], MIP_FILTER [27:26] (1: POINT), BLEND_ZERO_PRT [29] (gfx10), ANISO_OVERRIDE [31]
 * (gfx9); dword 3 BORDER_COLOR_TYPE [31:30]. The sampler value is clang's: bit 0
 * CLK_NORMALIZED_COORDS_TRUE, bits 3:1 the addressing mode (NONE, CLAMP_TO_EDGE, CLAMP,
 * REPEAT, MIRRORED_REPEAT), 0x10 CLK_FILTER_NEAREST, 0x20 CLK_FILTER_LINEAR; values 16..41,
 * index value - 16 (the addressing modes 5..7 are no mode: all-zero S#, as in opencl.bc).
 */

/* SQ_TEX_CLAMP of an addressing mode: NONE and CLAMP CLAMP_BORDER (6), CLAMP_TO_EDGE
 * CLAMP_LAST_TEXEL (2), REPEAT WRAP (0), MIRRORED_REPEAT MIRROR (1). */
#define LS_CLAMP(a) ((a) == 1 ? 2u : (a) == 3 ? 0u : (a) == 4 ? 1u : 6u)
#define LS_VALID(v) ((((v) >> 1) & 7) <= 4)
#define LS_W0(v)                                                                            \
   (LS_VALID(v) ? LS_CLAMP(((v) >> 1) & 7) * 0x49u | ((v) & 1 ? 0u : 1u << 15) | 3u << 12 |  \
                     1u << 28                                                               \
                : 0u)
#define LS_W1(v) (LS_VALID(v) ? 0xFFFu << 12 : 0u) /* MIN_LOD 0, MAX_LOD 15.996 */
#define LS_W2(v, gen)                                                                       \
   (LS_VALID(v) ? ((v) & 0x20 ? 5u << 20 : 0u) | 1u << 26 | (gen) : 0u)
#define LS_W3(v, gen) (LS_VALID(v) ? (gen) : 0u)
#define LS_S(v, g2, g3) { LS_W0(v), LS_W1(v), LS_W2(v, g2), LS_W3(v, g3) }
#define LS_TABLE(g2, g3)                                                                    \
   {                                                                                        \
      LS_S(16, g2, g3), LS_S(17, g2, g3), LS_S(18, g2, g3), LS_S(19, g2, g3),               \
      LS_S(20, g2, g3), LS_S(21, g2, g3), LS_S(22, g2, g3), LS_S(23, g2, g3),               \
      LS_S(24, g2, g3), LS_S(25, g2, g3), LS_S(26, g2, g3), LS_S(27, g2, g3),               \
      LS_S(28, g2, g3), LS_S(29, g2, g3), LS_S(30, g2, g3), LS_S(31, g2, g3),               \
      LS_S(32, g2, g3), LS_S(33, g2, g3), LS_S(34, g2, g3), LS_S(35, g2, g3),               \
      LS_S(36, g2, g3), LS_S(37, g2, g3), LS_S(38, g2, g3), LS_S(39, g2, g3),               \
      LS_S(40, g2, g3), LS_S(41, g2, g3)                                                    \
   }

static __constant uint ls_gfx8[26][4] = LS_TABLE(0u, 0u);
static __constant uint ls_gfx9[26][4] = LS_TABLE(1u << 31, 0u);
/* BORDER_COLOR_TYPE 0 (transparent black) on every generation: OpenCL's CLAMP reads
 * (0,0,0,0) outside an image with alpha (the T#'s DST_SEL gives alpha 1 to formats without).
 * opencl.bc's gfx10 table has 1, opaque black, whose alpha 1 OpenCL does not allow; ROCr's
 * API samplers use transparent black on gfx10 as on gfx9 (image_manager_nv.cpp). */
static __constant uint ls_gfx10[26][4] = LS_TABLE(1u << 29, 0u);

/* __oclc_ISA_version: see comp_builtins_bitdot.cl (declared there, folded per build). */
__constant uint *
__translate_sampler_initializer(int value)
{
   int i = value - 16;
   if (__oclc_ISA_version < 9000)
      return ls_gfx8[i];
   return __oclc_ISA_version < 10000 ? ls_gfx9[i] : ls_gfx10[i];
}

#undef LS_TABLE
#undef LS_S
#undef LS_W3
#undef LS_W2
#undef LS_W1
#undef LS_W0
#undef LS_VALID
#undef LS_CLAMP
