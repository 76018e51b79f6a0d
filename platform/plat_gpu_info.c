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

/*
 * What every target of a generation shares, from the ISA documents and LLVM's processor
 * definitions (llvm/lib/Target/AMDGPU/GCNProcessors.td, AMDGPU.td): wave size for OpenCL
 * (wave64 on gfx9; gfx10 and later compile OpenCL as wave32, LLVM's default there), SIMDs per
 * CU (4 on GCN/CDNA, 2 per CU on RDNA), LDS per work-group (64 KiB, AMDGPUUsage "Memory
 * Spaces"), work-group size 1024, addressable SGPRs (102 on gfx9, 106 on gfx10+: AMDGPUUsage
 * "GCN GFX6-GFX12 ... SGPR"), cache line (64 B on gfx9, 128 B on gfx90a/gfx94x and RDNA).
 * Which float atomics and 8-bit dot products are one instruction is what LLVM 19 selects for
 * hsacl's built-ins: the LDS f32 add/min/max and f64 min/max everywhere, the LDS f64 add from
 * gfx90a, global f32/f64 add on gfx94x (compiler/tests/comp_test_select.c checks these on
 * every target of the table against the assembly); dot4 same-sign where ockl's __ockl_sdot4
 * and __ockl_udot4 reach V_DOT4_I32_I8 / V_DOT4_U32_U8 (dot1/dot7-insts: gfx906, gfx908,
 * gfx90a, gfx94x, gfx1011, gfx1012, gfx103x) or gfx11/gfx12's V_DOT4_I32_IU8 (dot8-insts,
 * mixed signedness too), as hsacl-cc --emit=asm of dot() shows for each target. gfx90c and
 * gfx1013 have no dot1-insts (GCNProcessors.td).
 */
#define GFX9_COMMON                                                                           \
   .gfx_major = 9, .wavefront_size = 64, .simds_per_cu = 4, .lds_size = 64 * KiB,             \
   .max_workgroup_size = 1024, .sgprs_per_wave = 102, .xnack_supported = true
/* GCN/Vega: 10 waves per SIMD, 16 KiB vector L1, 64-byte lines, 256 VGPRs ([ISA] Vega). */
#define VEGA .max_waves_per_simd = 10, .l1_cache_size = 16 * KiB, .cacheline_size = 64,       \
   .vgprs_per_wave = 256, .fp32_atomic_native = FPA_LOCAL, .fp64_atomic_native = FPA_LOCAL_MINMAX
/* CDNA2/3: 8 waves per SIMD, 512 unified VGPRs/AGPRs, 128-byte lines (CDNA2/3 ISA guides),
 * packed FP32 (AMDGPU.td FeaturePackedFP32Ops), sramecc (AMDGPUUsage). */
#define CDNA_WIDE .max_waves_per_simd = 8, .cacheline_size = 128, .vgprs_per_wave = 512,      \
   .sramecc_supported = true, .packed_fp32 = true, .dot4_same_sign = true
#define RDNA_COMMON                                                                           \
   .wavefront_size = 32, .simds_per_cu = 2, .lds_size = 64 * KiB, .max_workgroup_size = 1024, \
   .cacheline_size = 128, .sgprs_per_wave = 106, .vgprs_per_wave = 256,                       \
   .fp32_atomic_native = FPA_LOCAL, .fp64_atomic_native = FPA_LOCAL_MINMAX
/* Waves per SIMD: the KFD topology's (rocminfo's "Max Waves Per CU" over the SIMDs): 10 on
 * GCN, 8 on CDNA2/3, 20 on RDNA1, 16 on RDNA2 and later. RDNA1/2's vector L0 is 16 KiB
 * (AMD "RDNA Architecture" whitepaper). */
#define RDNA1 .gfx_major = 10, .max_waves_per_simd = 20, .l1_cache_size = 16 * KiB
#define RDNA2 .gfx_major = 10, .max_waves_per_simd = 16, .l1_cache_size = 16 * KiB
/* RDNA3/4: 16 waves per SIMD, 32 KiB vector L0 (AMD "RDNA3" ISA guide, RDNA4 whitepaper);
 * V_DOT4_I32_IU8. */
#define RDNA3 .max_waves_per_simd = 16, .l1_cache_size = 32 * KiB, .dot4_same_sign = true,    \
   .dot4_mixed_sign = true

/* Board figures (compute units, boost clock, L2, memory, bus) are the reference board's from
 * AMD's product specification pages; a live device overrides them with what its HSA agent
 * reports (plat_device.c). APUs share system memory: their memory size is the reference
 * system's, their bus the DDR/LPDDR channels'. Families, boards and the xnack/sramecc
 * features: AMDGPUUsage "Processors" (../shared/reference/llvm-AMDGPUUsage.rst). */
static const plat_gpu_info gpu_table[] = {
   /* ---- GFX9: GCN 5 (Vega) ---- */
   { .target = "gfx900", .family = "Vega 10", .board = "AMD Radeon RX Vega 64", GFX9_COMMON, VEGA,
     .gfx_minor = 0, .gfx_stepping = 0, .compute_units = 64, .max_clock_mhz = 1546,
     .l2_cache_size = 4 * MiB, .memory_size = 8 * GiB, .memory_bus_width = 2048 },
   { .target = "gfx902", .family = "Raven", .board = "AMD Ryzen 5 2400G (Radeon Vega 11)",
     GFX9_COMMON, VEGA, .gfx_minor = 0, .gfx_stepping = 2, .compute_units = 11,
     .max_clock_mhz = 1250, .l2_cache_size = 1 * MiB, .memory_size = 16 * GiB,
     .memory_bus_width = 128 },
   { .target = "gfx904", .family = "Vega 12", .board = "AMD Radeon Pro Vega 20", GFX9_COMMON,
     VEGA, .gfx_minor = 0, .gfx_stepping = 4, .compute_units = 20, .max_clock_mhz = 1300,
     /* one HBM2 stack: half Vega 10's memory channels, each with its 256 KiB of L2 */
     .l2_cache_size = 2 * MiB, .memory_size = 4 * GiB, .memory_bus_width = 1024 },
   { .target = "gfx906", .family = "Vega 20", .board = "AMD Radeon VII", GFX9_COMMON, VEGA,
     .gfx_minor = 0, .gfx_stepping = 6, .compute_units = 60, .max_clock_mhz = 1801,
     .l2_cache_size = 4 * MiB, .memory_size = 16 * GiB, .memory_bus_width = 4096,
     .sramecc_supported = true, .dot4_same_sign = true },
   { .target = "gfx908", .family = "Arcturus", .board = "AMD Instinct MI100", GFX9_COMMON, VEGA,
     .gfx_minor = 0, .gfx_stepping = 8, .compute_units = 120, .max_clock_mhz = 1502,
     .l2_cache_size = 8 * MiB, .memory_size = 32 * GiB, .memory_bus_width = 4096,
     .sramecc_supported = true, .dot4_same_sign = true },
   { .target = "gfx909", .family = "Raven2", .board = "AMD Ryzen 3 3250U (Radeon Vega 3)",
     GFX9_COMMON, VEGA, .gfx_minor = 0, .gfx_stepping = 9, .compute_units = 3,
     .max_clock_mhz = 1200, .l2_cache_size = 1 * MiB, .memory_size = 8 * GiB,
     .memory_bus_width = 128 },
   { .target = "gfx90a", .family = "Aldebaran", .board = "AMD Instinct MI210", GFX9_COMMON,
     CDNA_WIDE, .gfx_minor = 0, .gfx_stepping = 10, .compute_units = 104, .max_clock_mhz = 1700,
     .l1_cache_size = 16 * KiB, .l2_cache_size = 8 * MiB, .memory_size = 64 * GiB,
     .memory_bus_width = 4096, .fp32_atomic_native = FPA_LOCAL, .fp64_atomic_native = FPA_LOCAL },
   { .target = "gfx90c", .family = "Renoir", .board = "AMD Ryzen 7 4700G (Radeon Graphics)",
     GFX9_COMMON, VEGA, .gfx_minor = 0, .gfx_stepping = 12, .compute_units = 8,
     .max_clock_mhz = 2100, .l2_cache_size = 1 * MiB, .memory_size = 16 * GiB,
     .memory_bus_width = 128 },
   /* gfx940 and gfx941: the MI300A/MI300X before gfx942 (AMDGPUUsage lists no product) */
   { .target = "gfx940", .family = "Aqua Vanjaram", .board = "AMD Instinct MI300A", GFX9_COMMON,
     CDNA_WIDE, .gfx_minor = 4, .gfx_stepping = 0, .compute_units = 228, .max_clock_mhz = 2100,
     .l1_cache_size = 32 * KiB, .l2_cache_size = 4 * MiB, .memory_size = 128 * GiB,
     .memory_bus_width = 8192, .fp32_atomic_native = FPA_LOCAL | FPA_GLOBAL_ADD,
     .fp64_atomic_native = FPA_LOCAL | FPA_GLOBAL_ADD },
   { .target = "gfx941", .family = "Aqua Vanjaram", .board = "AMD Instinct MI300X", GFX9_COMMON,
     CDNA_WIDE, .gfx_minor = 4, .gfx_stepping = 1, .compute_units = 304, .max_clock_mhz = 2100,
     .l1_cache_size = 32 * KiB, .l2_cache_size = 4 * MiB, .memory_size = 192 * GiB,
     .memory_bus_width = 8192, .fp32_atomic_native = FPA_LOCAL | FPA_GLOBAL_ADD,
     .fp64_atomic_native = FPA_LOCAL | FPA_GLOBAL_ADD },
   { .target = "gfx942", .family = "Aqua Vanjaram", .board = "AMD Instinct MI300X", GFX9_COMMON,
     CDNA_WIDE, .gfx_minor = 4, .gfx_stepping = 2, .compute_units = 304, .max_clock_mhz = 2100,
     .l1_cache_size = 32 * KiB, .l2_cache_size = 4 * MiB, .memory_size = 192 * GiB,
     .memory_bus_width = 8192, .fp32_atomic_native = FPA_LOCAL | FPA_GLOBAL_ADD,
     .fp64_atomic_native = FPA_LOCAL | FPA_GLOBAL_ADD },
   /* ---- GFX10.1: RDNA1 (xnack settable: AMDGPUUsage) ---- */
   { .target = "gfx1010", .family = "Navi 10", .board = "AMD Radeon RX 5700 XT", RDNA_COMMON,
     RDNA1, .gfx_minor = 1, .gfx_stepping = 0, .compute_units = 40, .max_clock_mhz = 1905,
     .l2_cache_size = 4 * MiB, .memory_size = 8 * GiB, .memory_bus_width = 256,
     .xnack_supported = true },
   { .target = "gfx1011", .family = "Navi 12", .board = "AMD Radeon Pro V520", RDNA_COMMON,
     RDNA1, .gfx_minor = 1, .gfx_stepping = 1, .compute_units = 36, .max_clock_mhz = 1600,
     .l2_cache_size = 4 * MiB, .memory_size = 8 * GiB, .memory_bus_width = 2048,
     .xnack_supported = true, .dot4_same_sign = true },
   { .target = "gfx1012", .family = "Navi 14", .board = "AMD Radeon RX 5500 XT", RDNA_COMMON,
     RDNA1, .gfx_minor = 1, .gfx_stepping = 2, .compute_units = 22, .max_clock_mhz = 1845,
     .l2_cache_size = 2 * MiB, .memory_size = 8 * GiB, .memory_bus_width = 128,
     .xnack_supported = true, .dot4_same_sign = true },
   { .target = "gfx1013", .family = "Cyan Skillfish", .board = "AMD BC-250", RDNA_COMMON, RDNA1,
     .gfx_minor = 1, .gfx_stepping = 3, .compute_units = 24, .max_clock_mhz = 2000,
     .l2_cache_size = 4 * MiB, .memory_size = 16 * GiB, .memory_bus_width = 256,
     .xnack_supported = true },
   /* ---- GFX10.3: RDNA2 ---- */
   { .target = "gfx1030", .family = "Navi 21", .board = "AMD Radeon RX 6800 XT",
     .gfx_major = 10, .gfx_minor = 3, .gfx_stepping = 0, .wavefront_size = 32,
     .compute_units = 72, .simds_per_cu = 2, .max_waves_per_simd = 16, .max_clock_mhz = 2250,
     .lds_size = 64 * KiB, .max_workgroup_size = 1024, .l1_cache_size = 16 * KiB,
     .l2_cache_size = 4 * MiB, .cacheline_size = 128, .sgprs_per_wave = 106,
     .vgprs_per_wave = 256, .memory_size = 16 * GiB, .memory_bus_width = 256,
     .dot4_same_sign = true,
     .fp32_atomic_native = FPA_LOCAL, .fp64_atomic_native = FPA_LOCAL_MINMAX },
   { .target = "gfx1031", .family = "Navi 22", .board = "AMD Radeon RX 6700 XT", RDNA_COMMON,
     RDNA2, .gfx_minor = 3, .gfx_stepping = 1, .compute_units = 40, .max_clock_mhz = 2581,
     .l2_cache_size = 3 * MiB, .memory_size = 12 * GiB, .memory_bus_width = 192,
     .dot4_same_sign = true },
   { .target = "gfx1032", .family = "Navi 23", .board = "AMD Radeon RX 6600 XT", RDNA_COMMON,
     RDNA2, .gfx_minor = 3, .gfx_stepping = 2, .compute_units = 32, .max_clock_mhz = 2589,
     .l2_cache_size = 2 * MiB, .memory_size = 8 * GiB, .memory_bus_width = 128,
     .dot4_same_sign = true },
   { .target = "gfx1033", .family = "Van Gogh", .board = "Valve Steam Deck APU", RDNA_COMMON,
     RDNA2, .gfx_minor = 3, .gfx_stepping = 3, .compute_units = 8, .max_clock_mhz = 1600,
     .l2_cache_size = 1 * MiB, .memory_size = 16 * GiB, .memory_bus_width = 128,
     .dot4_same_sign = true },
   { .target = "gfx1034", .family = "Navi 24", .board = "AMD Radeon RX 6500 XT", RDNA_COMMON,
     RDNA2, .gfx_minor = 3, .gfx_stepping = 4, .compute_units = 16, .max_clock_mhz = 2815,
     .l2_cache_size = 1 * MiB, .memory_size = 4 * GiB, .memory_bus_width = 64,
     .dot4_same_sign = true },
   { .target = "gfx1035", .family = "Rembrandt", .board = "AMD Ryzen 7 6800U (Radeon 680M)",
     RDNA_COMMON, RDNA2, .gfx_minor = 3, .gfx_stepping = 5, .compute_units = 12,
     .max_clock_mhz = 2200, .l2_cache_size = 2 * MiB, .memory_size = 16 * GiB,
     .memory_bus_width = 128, .dot4_same_sign = true },
   { .target = "gfx1036", .family = "Raphael", .board = "AMD Ryzen 9 7950X (Radeon Graphics)",
     RDNA_COMMON, RDNA2, .gfx_minor = 3, .gfx_stepping = 6, .compute_units = 2,
     .max_clock_mhz = 2200, .l2_cache_size = 256 * KiB, .memory_size = 32 * GiB,
     .memory_bus_width = 128, .dot4_same_sign = true },
   /* ---- GFX11: RDNA3 ---- */
   { .target = "gfx1100", .family = "Navi 31", .board = "AMD Radeon RX 7900 XTX", RDNA_COMMON,
     RDNA3, .gfx_major = 11, .gfx_minor = 0, .gfx_stepping = 0, .compute_units = 96,
     .max_clock_mhz = 2500, .l2_cache_size = 6 * MiB, .memory_size = 24 * GiB,
     .memory_bus_width = 384 },
   { .target = "gfx1101", .family = "Navi 32", .board = "AMD Radeon RX 7800 XT", RDNA_COMMON,
     RDNA3, .gfx_major = 11, .gfx_minor = 0, .gfx_stepping = 1, .compute_units = 60,
     .max_clock_mhz = 2430, .l2_cache_size = 4 * MiB, .memory_size = 16 * GiB,
     .memory_bus_width = 256 },
   { .target = "gfx1102", .family = "Navi 33", .board = "AMD Radeon RX 7600", RDNA_COMMON, RDNA3,
     .gfx_major = 11, .gfx_minor = 0, .gfx_stepping = 2, .compute_units = 32,
     .max_clock_mhz = 2655, .l2_cache_size = 2 * MiB, .memory_size = 8 * GiB,
     .memory_bus_width = 128 },
   { .target = "gfx1103", .family = "Phoenix", .board = "AMD Ryzen 7 7840U (Radeon 780M)",
     RDNA_COMMON, RDNA3, .gfx_major = 11, .gfx_minor = 0, .gfx_stepping = 3,
     .compute_units = 12, .max_clock_mhz = 2700, .l2_cache_size = 2 * MiB,
     .memory_size = 16 * GiB, .memory_bus_width = 128 },
   { .target = "gfx1150", .family = "Strix Point", .board = "AMD Ryzen AI 9 HX 370 (Radeon 890M)",
     RDNA_COMMON, RDNA3, .gfx_major = 11, .gfx_minor = 5, .gfx_stepping = 0,
     .compute_units = 16, .max_clock_mhz = 2900, .l2_cache_size = 2 * MiB,
     .memory_size = 32 * GiB, .memory_bus_width = 128 },
   { .target = "gfx1151", .family = "Strix Halo",
     .board = "AMD Ryzen AI Max+ 395 (Radeon 8060S)", RDNA_COMMON, RDNA3, .gfx_major = 11,
     .gfx_minor = 5, .gfx_stepping = 1, .compute_units = 40, .max_clock_mhz = 2900,
     .l2_cache_size = 2 * MiB, .memory_size = 128 * GiB, .memory_bus_width = 256 },
   /* ---- GFX12: RDNA4 ---- */
   { .target = "gfx1200", .family = "Navi 44", .board = "AMD Radeon RX 9060 XT", RDNA_COMMON,
     RDNA3, .gfx_major = 12, .gfx_minor = 0, .gfx_stepping = 0, .compute_units = 32,
     .max_clock_mhz = 3130, .l2_cache_size = 4 * MiB, .memory_size = 16 * GiB,
     .memory_bus_width = 128 },
   { .target = "gfx1201", .family = "Navi 48", .board = "AMD Radeon RX 9070 XT", RDNA_COMMON,
     RDNA3, .gfx_major = 12, .gfx_minor = 0, .gfx_stepping = 1, .compute_units = 64,
     .max_clock_mhz = 2970, .l2_cache_size = 8 * MiB, .memory_size = 16 * GiB,
     .memory_bus_width = 256 },
};

/* The processor name inside `target`: "amdgcn-amd-amdhsa--gfx906:sramecc-:xnack-" ->
 * "gfx906" (*len characters). */
static const char *
processor(const char *target, size_t *len)
{
   const char *p = strstr(target, "--");
   p = p ? p + 2 : target;
   *len = strcspn(p, ":");
   return p;
}

const char *
plat_gpu_info_target_at(size_t i)
{
   return i < sizeof(gpu_table) / sizeof(gpu_table[0]) ? gpu_table[i].target : NULL;
}

cl_int
plat_gpu_info_from_target(const char *target, plat_gpu_info *out)
{
   if (!target)
      return CL_INVALID_VALUE;
   size_t len;
   const char *p = processor(target, &len);
   for (size_t i = 0; i < sizeof(gpu_table) / sizeof(gpu_table[0]); i++) {
      if (strlen(gpu_table[i].target) == len && !strncmp(gpu_table[i].target, p, len)) {
         *out = gpu_table[i];
         return CL_SUCCESS;
      }
   }
   icd_log(ICD_LOG_WARN, "platform", "no capability record for GPU target '%s'", target);
   return CL_INVALID_VALUE;
}

/* One hexadecimal digit's value, or -1. */
static int
hex(char c)
{
   return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

cl_int
plat_gpu_info_generic(const char *target, plat_gpu_info *out)
{
   if (!target)
      return CL_INVALID_VALUE;
   size_t len;
   const char *p = processor(target, &len);
   /* gfx<major><minor><stepping>: a decimal major of one or two digits, one hex digit each
    * for minor and stepping (AMDGPUUsage "Processors"). */
   if (len < 6 || len > 7 || strncmp(p, "gfx", 3))
      return CL_INVALID_VALUE;
   unsigned major = 0;
   for (size_t i = 3; i < len - 2; i++) {
      if (p[i] < '0' || p[i] > '9')
         return CL_INVALID_VALUE;
      major = major * 10 + (unsigned)(p[i] - '0');
   }
   int minor = hex(p[len - 2]), stepping = hex(p[len - 1]);
   if (minor < 0 || stepping < 0 || major < 9 || major > 12)
      return CL_INVALID_VALUE;
   static const plat_gpu_info gfx9 = { GFX9_COMMON, VEGA };
   static const plat_gpu_info gfx10 = { RDNA_COMMON, RDNA2 };
   static const plat_gpu_info gfx11 = { RDNA_COMMON, RDNA3 };
   *out = major == 9 ? gfx9 : major == 10 ? gfx10 : gfx11;
   snprintf(out->target, sizeof(out->target), "%.*s", (int)len, p);
   out->family = "unknown";
   out->board = "AMD GPU";
   out->gfx_major = major;
   out->gfx_minor = (unsigned)minor;
   out->gfx_stepping = (unsigned)stepping;
   /* The smallest part of the generation, until the runtime's figures replace these
    * (plat_device.c): one CU, the lowest clock and L2 and memory of the table's boards. */
   out->compute_units = 1;
   out->max_clock_mhz = 1100;
   out->l2_cache_size = 256 * KiB;
   out->memory_size = 1 * GiB;
   out->memory_bus_width = 64;
   out->xnack_supported = false;
   out->dot4_same_sign = false;
   out->dot4_mixed_sign = false;
   return CL_SUCCESS;
}
