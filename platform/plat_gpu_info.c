/*
 * platform/plat_gpu_info.c — capability records per AMD GPU target (conventions.md
 * rule 15, after Mesa's ac_gpu_info / ac_null_device). Figures are those of each target's
 * reference board, from AMD's public product specifications and the LLVM AMDGPU
 * processor table (../shared/reference/llvm-AMDGPUUsage.rst, "Processors"): compute
 * units, boost clock, LDS per work-group, cache sizes, memory bus width, wavefront size,
 * target features.
 */
#include "platform/plat.h"

#include <stdio.h>
#include <string.h>

#define KiB 1024u
#define MiB (1024u * 1024u)
#define GiB (1024ull * 1024ull * 1024ull)

/* Native float atomics (plat_gpu_info.fp32_atomic_native): LDS add, min and max of f32
 * (DS_ADD_RTN_F32, DS_MIN/MAX_RTN_F32; DS_MIN/MAX_NUM_RTN_F32 on gfx12) and LDS min and max of
 * f64 on every target; LDS f64 add from gfx90a (DS_ADD_RTN_F64) and global f32/f64 add on
 * gfx942 (GLOBAL_ATOMIC_ADD_F32/F64). */
#define FPA_LOCAL (CL_DEVICE_LOCAL_FP_ATOMIC_ADD_EXT | CL_DEVICE_LOCAL_FP_ATOMIC_MIN_MAX_EXT)
#define FPA_LOCAL_MINMAX CL_DEVICE_LOCAL_FP_ATOMIC_MIN_MAX_EXT
#define FPA_GLOBAL_ADD CL_DEVICE_GLOBAL_FP_ATOMIC_ADD_EXT

static const plat_gpu_info gpu_table[] = {
   { .target = "gfx900", .family = "Vega 10", .board = "AMD Radeon RX Vega 64",
     .gfx_major = 9, .gfx_minor = 0, .gfx_stepping = 0, .wavefront_size = 64,
     .compute_units = 64, .simds_per_cu = 4, .max_waves_per_simd = 10, .max_clock_mhz = 1546,
     .lds_size = 64 * KiB, .max_workgroup_size = 1024, .l1_cache_size = 16 * KiB,
     .l2_cache_size = 4 * MiB, .cacheline_size = 64, .sgprs_per_wave = 102,
     .vgprs_per_wave = 256, .memory_size = 8 * GiB, .memory_bus_width = 2048, .xnack_supported = true,
     .fp32_atomic_native = FPA_LOCAL, .fp64_atomic_native = FPA_LOCAL_MINMAX },
   { .target = "gfx906", .family = "Vega 20", .board = "AMD Radeon VII",
     .gfx_major = 9, .gfx_minor = 0, .gfx_stepping = 6, .wavefront_size = 64,
     .compute_units = 60, .simds_per_cu = 4, .max_waves_per_simd = 10, .max_clock_mhz = 1801,
     .lds_size = 64 * KiB, .max_workgroup_size = 1024, .l1_cache_size = 16 * KiB,
     .l2_cache_size = 4 * MiB, .cacheline_size = 64, .sgprs_per_wave = 102,
     .vgprs_per_wave = 256, .memory_size = 16 * GiB, .memory_bus_width = 4096, .xnack_supported = true,
     .sramecc_supported = true, .dot4_same_sign = true,
     .fp32_atomic_native = FPA_LOCAL, .fp64_atomic_native = FPA_LOCAL_MINMAX },
   { .target = "gfx908", .family = "Arcturus", .board = "AMD Instinct MI100",
     .gfx_major = 9, .gfx_minor = 0, .gfx_stepping = 8, .wavefront_size = 64,
     .compute_units = 120, .simds_per_cu = 4, .max_waves_per_simd = 10, .max_clock_mhz = 1502,
     .lds_size = 64 * KiB, .max_workgroup_size = 1024, .l1_cache_size = 16 * KiB,
     .l2_cache_size = 8 * MiB, .cacheline_size = 64, .sgprs_per_wave = 102,
     .vgprs_per_wave = 256, .memory_size = 32 * GiB, .memory_bus_width = 4096, .xnack_supported = true,
     .sramecc_supported = true, .dot4_same_sign = true,
     .fp32_atomic_native = FPA_LOCAL, .fp64_atomic_native = FPA_LOCAL_MINMAX },
   { .target = "gfx90a", .family = "Aldebaran", .board = "AMD Instinct MI210",
     .gfx_major = 9, .gfx_minor = 0, .gfx_stepping = 10, .wavefront_size = 64,
     .compute_units = 104, .simds_per_cu = 4, .max_waves_per_simd = 8, .max_clock_mhz = 1700,
     .lds_size = 64 * KiB, .max_workgroup_size = 1024, .l1_cache_size = 16 * KiB,
     .l2_cache_size = 8 * MiB, .cacheline_size = 128, .sgprs_per_wave = 102,
     .vgprs_per_wave = 512, .memory_size = 64 * GiB, .memory_bus_width = 4096, .xnack_supported = true,
     .sramecc_supported = true, .packed_fp32 = true, .dot4_same_sign = true,
     .fp32_atomic_native = FPA_LOCAL, .fp64_atomic_native = FPA_LOCAL },
   { .target = "gfx942", .family = "Aqua Vanjaram", .board = "AMD Instinct MI300X",
     .gfx_major = 9, .gfx_minor = 4, .gfx_stepping = 2, .wavefront_size = 64,
     .compute_units = 304, .simds_per_cu = 4, .max_waves_per_simd = 8, .max_clock_mhz = 2100,
     .lds_size = 64 * KiB, .max_workgroup_size = 1024, .l1_cache_size = 32 * KiB,
     .l2_cache_size = 4 * MiB, .cacheline_size = 128, .sgprs_per_wave = 102,
     .vgprs_per_wave = 512, .memory_size = 192 * GiB, .memory_bus_width = 8192, .xnack_supported = true,
     .sramecc_supported = true, .packed_fp32 = true, .dot4_same_sign = true,
     .fp32_atomic_native = FPA_LOCAL | FPA_GLOBAL_ADD, .fp64_atomic_native = FPA_LOCAL | FPA_GLOBAL_ADD },
   { .target = "gfx1030", .family = "Navi 21", .board = "AMD Radeon RX 6800 XT",
     .gfx_major = 10, .gfx_minor = 3, .gfx_stepping = 0, .wavefront_size = 32,
     .compute_units = 72, .simds_per_cu = 2, .max_waves_per_simd = 16, .max_clock_mhz = 2250,
     .lds_size = 64 * KiB, .max_workgroup_size = 1024, .l1_cache_size = 16 * KiB,
     .l2_cache_size = 4 * MiB, .cacheline_size = 128, .sgprs_per_wave = 106,
     .vgprs_per_wave = 256, .memory_size = 16 * GiB, .memory_bus_width = 256,
     .dot4_same_sign = true,
     .fp32_atomic_native = FPA_LOCAL, .fp64_atomic_native = FPA_LOCAL_MINMAX },
   { .target = "gfx1100", .family = "Navi 31", .board = "AMD Radeon RX 7900 XTX",
     .gfx_major = 11, .gfx_minor = 0, .gfx_stepping = 0, .wavefront_size = 32,
     .compute_units = 96, .simds_per_cu = 2, .max_waves_per_simd = 16, .max_clock_mhz = 2500,
     .lds_size = 64 * KiB, .max_workgroup_size = 1024, .l1_cache_size = 32 * KiB,
     .l2_cache_size = 6 * MiB, .cacheline_size = 128, .sgprs_per_wave = 106,
     .vgprs_per_wave = 256, .memory_size = 24 * GiB, .memory_bus_width = 384,
     .dot4_same_sign = true,
     .dot4_mixed_sign = true,
     .fp32_atomic_native = FPA_LOCAL, .fp64_atomic_native = FPA_LOCAL_MINMAX },
   { .target = "gfx1201", .family = "Navi 48", .board = "AMD Radeon RX 9070 XT",
     .gfx_major = 12, .gfx_minor = 0, .gfx_stepping = 1, .wavefront_size = 32,
     .compute_units = 64, .simds_per_cu = 2, .max_waves_per_simd = 16, .max_clock_mhz = 2970,
     .lds_size = 64 * KiB, .max_workgroup_size = 1024, .l1_cache_size = 32 * KiB,
     .l2_cache_size = 8 * MiB, .cacheline_size = 128, .sgprs_per_wave = 106,
     .vgprs_per_wave = 256, .memory_size = 16 * GiB, .memory_bus_width = 256,
     .dot4_same_sign = true,
     .dot4_mixed_sign = true,
     .fp32_atomic_native = FPA_LOCAL, .fp64_atomic_native = FPA_LOCAL_MINMAX },
};

cl_int
plat_gpu_info_from_target(const char *target, plat_gpu_info *out)
{
   if (!target)
      return CL_INVALID_VALUE;
   /* "amdgcn-amd-amdhsa--gfx906:sramecc-:xnack-" -> "gfx906" */
   const char *p = strstr(target, "--");
   p = p ? p + 2 : target;
   size_t len = strcspn(p, ":");
   for (size_t i = 0; i < sizeof(gpu_table) / sizeof(gpu_table[0]); i++) {
      if (strlen(gpu_table[i].target) == len && !strncmp(gpu_table[i].target, p, len)) {
         *out = gpu_table[i];
         return CL_SUCCESS;
      }
   }
   icd_log(ICD_LOG_WARN, "platform", "no capability record for GPU target '%s'", target);
   return CL_INVALID_VALUE;
}
