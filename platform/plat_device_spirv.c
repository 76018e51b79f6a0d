/*
 * platform/plat_device_spirv.c — the SPIR-V queries of cl_khr_spirv_queries (OpenCL 3.1
 * core): the extended instruction sets, SPIR-V extensions and capabilities a device accepts
 * in clCreateProgramWithIL, derived from what the device reports (each row names the OpenCL
 * extension or feature that brings it, as the SPIR-V environment specification ties them),
 * never listed beside it. Empty without IL support (1.2 profile, no translator: the device
 * then reports neither cl_khr_il_program nor the cl_khr_spirv_* extensions).
 */
#include "platform/plat_priv.h"

#include <CL/cl_ext.h>
#include <string.h>

#ifndef CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR
/* cl_khr_spirv_queries: Debian's OpenCL headers 2023.04 predate it. */
#define CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR 0x12B9
#define CL_DEVICE_SPIRV_EXTENSIONS_KHR 0x12BA
#define CL_DEVICE_SPIRV_CAPABILITIES_KHR 0x12BB
#endif

/* A row applies when `requires` is NULL (always), an extension the device reports, or one of
 * the pseudo-names below. */
#define REQ_SUBGROUPS "(sub-groups or work-group collectives)"
#define REQ_GENERIC "(generic address space)"
#define REQ_PIPES "(pipes)"
#define REQ_IMAGES "(images)"
#define REQ_RW_IMAGES "(read-write images)"

/* SPIR-V capabilities (SPIR-V 1.4 §3.31) OpenCL's SPIR-V environment ties to the device. */
static const struct {
   cl_uint capability;
   const char *requires;
} capabilities[] = {
   { 4, NULL },                                /* Addresses */
   { 5, NULL },                                /* Linkage */
   { 6, NULL },                                /* Kernel */
   { 7, NULL },                                /* Vector16 */
   { 8, NULL },                                /* Float16Buffer */
   { 11, NULL },                               /* Int64: FULL_PROFILE */
   { 22, NULL },                               /* Int16 */
   { 39, NULL },                               /* Int8 */
   { 9, "cl_khr_fp16" },                       /* Float16 */
   { 10, "cl_khr_fp64" },                      /* Float64 */
   { 12, "cl_khr_int64_base_atomics" },        /* Int64Atomics */
   { 38, REQ_GENERIC },                        /* GenericPointer */
   { 17, REQ_PIPES },                          /* Pipes: __opencl_c_pipes */
   /* Image devices (OpenCL SPIR-V environment §5.1; tests/memory/api_image_ext_test.c runs an
    * image kernel from SPIR-V): */
   { 13, REQ_IMAGES },                         /* ImageBasic */
   { 20, REQ_IMAGES },                         /* LiteralSampler */
   { 43, REQ_IMAGES },                         /* Sampled1D */
   { 44, REQ_IMAGES },                         /* Image1D */
   { 46, REQ_IMAGES },                         /* SampledBuffer */
   { 47, REQ_IMAGES },                         /* ImageBuffer */
   { 14, REQ_RW_IMAGES },                      /* ImageReadWrite */
   { 18, REQ_SUBGROUPS },                      /* Groups */
   { 58, "cl_khr_subgroups" },                 /* SubgroupDispatch (SPIR-V 1.1) */
   { 61, "cl_khr_subgroup_non_uniform_vote" }, /* GroupNonUniform */
   { 62, "cl_khr_subgroup_non_uniform_vote" }, /* GroupNonUniformVote */
   { 63, "cl_khr_subgroup_non_uniform_arithmetic" }, /* GroupNonUniformArithmetic */
   { 64, "cl_khr_subgroup_ballot" },           /* GroupNonUniformBallot */
   { 67, "cl_khr_subgroup_clustered_reduce" }, /* GroupNonUniformClustered */
   { 65, "cl_khr_subgroup_shuffle" },          /* GroupNonUniformShuffle */
   { 66, "cl_khr_subgroup_shuffle_relative" }, /* GroupNonUniformShuffleRelative */
   { 6026, "cl_khr_subgroup_rotate" },         /* GroupNonUniformRotateKHR */
   { 6019, "cl_khr_integer_dot_product" },     /* DotProduct */
   { 6017, "cl_khr_integer_dot_product" },     /* DotProductInput4x8Bit */
   { 6018, "cl_khr_integer_dot_product" },     /* DotProductInput4x8BitPacked */
   { 6025, "cl_khr_extended_bit_ops" },        /* BitInstructions */
   { 5629, "cl_khr_expect_assume" },           /* ExpectAssumeKHR */
   /* The SPIR-V side of cl_ext_float_atomics (its SPIR-V environment section): the
    * translator reads OpAtomicFAddEXT / OpAtomicFMinEXT / OpAtomicFMaxEXT as the OpenCL C
    * built-ins (tests/compiler/api_float_atomics_test.c runs them from SPIR-V). No
    * AtomicFloat16AddEXT: no half add (plat_extensions.def). */
   { 6033, "cl_ext_float_atomics" },           /* AtomicFloat32AddEXT */
   { 6034, "cl_ext_float_atomics" },           /* AtomicFloat64AddEXT */
   { 5612, "cl_ext_float_atomics" },           /* AtomicFloat32MinMaxEXT */
   { 5613, "cl_ext_float_atomics" },           /* AtomicFloat64MinMaxEXT */
   { 5616, "cl_ext_float_atomics" },           /* AtomicFloat16MinMaxEXT */
   /* OpReadClockKHR at the Device, Workgroup and Subgroup scopes, read as the
    * clock_read_* built-ins (compiler/comp_spirv_clock.c). */
   { 5055, "cl_khr_kernel_clock" },            /* ShaderClockKHR */
};

static const struct {
   const char *name;
   const char *requires;
} spirv_extensions[] = {
   { "SPV_KHR_bit_instructions", "cl_khr_extended_bit_ops" },
   { "SPV_KHR_integer_dot_product", "cl_khr_integer_dot_product" },
   { "SPV_KHR_subgroup_rotate", "cl_khr_subgroup_rotate" },
   { "SPV_KHR_no_integer_wrap_decoration", "cl_khr_spirv_no_integer_wrap_decoration" },
   { "SPV_KHR_linkonce_odr", "cl_khr_spirv_linkonce_odr" },
   { "SPV_KHR_expect_assume", "cl_khr_expect_assume" },
   { "SPV_EXT_shader_atomic_float_add", "cl_ext_float_atomics" },
   { "SPV_EXT_shader_atomic_float_min_max", "cl_ext_float_atomics" },
   { "SPV_KHR_shader_clock", "cl_khr_kernel_clock" },
};

static const struct {
   const char *name;
   const char *requires;
} instruction_sets[] = {
   { "OpenCL.std", NULL },
   { "OpenCL.DebugInfo.100", "cl_khr_spirv_extended_debug_info" },
};

static bool
applies(const struct _cl_device_id *dev, const char *requires)
{
   if (!requires)
      return true;
   if (!strcmp(requires, REQ_IMAGES))
      return dev->image_support;
   if (!strcmp(requires, REQ_RW_IMAGES))
      return plat_device_has_image_feature(dev, "__opencl_c_read_write_images");
   if (!strcmp(requires, REQ_GENERIC))
      return plat_device_has_feature(dev, "__opencl_c_generic_address_space");
   if (!strcmp(requires, REQ_SUBGROUPS))
      return plat_device_has_feature(dev, "__opencl_c_subgroups") ||
             plat_device_has_feature(dev, "__opencl_c_work_group_collective_functions");
   if (!strcmp(requires, REQ_PIPES))
      return plat_device_has_feature(dev, "__opencl_c_pipes");
   return plat_device_has_extension(dev, requires);
}

bool
plat__device_info_spirv(const struct _cl_device_id *dev, cl_device_info param_name, size_t size,
                        void *value, size_t *size_ret, cl_int *err)
{
   /* Rows only where IL programs are taken (the translator's presence included). */
   bool il = plat_device_has_extension(dev, "cl_khr_il_program");
   switch (param_name) {
   case CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR: {
      const char *list[sizeof(instruction_sets) / sizeof(instruction_sets[0])];
      size_t n = 0;
      for (size_t i = 0; il && i < sizeof(list) / sizeof(list[0]); i++)
         if (applies(dev, instruction_sets[i].requires))
            list[n++] = instruction_sets[i].name;
      *err = icd_get_info(list, n * sizeof(list[0]), size, value, size_ret);
      return true;
   }
   case CL_DEVICE_SPIRV_EXTENSIONS_KHR: {
      const char *list[sizeof(spirv_extensions) / sizeof(spirv_extensions[0])];
      size_t n = 0;
      for (size_t i = 0; il && i < sizeof(list) / sizeof(list[0]); i++)
         if (applies(dev, spirv_extensions[i].requires))
            list[n++] = spirv_extensions[i].name;
      *err = icd_get_info(list, n * sizeof(list[0]), size, value, size_ret);
      return true;
   }
   case CL_DEVICE_SPIRV_CAPABILITIES_KHR: {
      cl_uint list[sizeof(capabilities) / sizeof(capabilities[0])];
      size_t n = 0;
      for (size_t i = 0; il && i < sizeof(list) / sizeof(list[0]); i++)
         if (applies(dev, capabilities[i].requires))
            list[n++] = capabilities[i].capability;
      *err = icd_get_info(list, n * sizeof(list[0]), size, value, size_ret);
      return true;
   }
   default:
      return false;
   }
}
