/*
 * sim/isa/sim_target.c — the GPU targets the interpreter models, and which one each GPU
 * agent is.
 *
 * Figures of the boards: gfx906 as a Radeon VII (published rocminfo outputs; sim/kfd's
 * kfd_topology.c cites them), gfx90a as an Instinct MI210 (rocminfo: "Chip ID: 29711
 * (0x740f)", "Compute Unit: 104", "SIMDs per CU: 4", "Shader Engines: 8", "Max Waves Per
 * CU: 32", "Max Clock Freq. (MHz): 1700", "L1: 16 KB, L2: 8192 KB"; AMD's specification:
 * 64 GB HBM2e on a 4096-bit bus at 1.6 GHz), gfx1030 as a Radeon RX 6800 XT (rocminfo:
 * "Chip ID: 29631 (0x73bf)", "Compute Unit: 72", "SIMDs per CU: 2", "Shader Engines: 4",
 * "Max Waves Per CU: 32", "L1: 16 KB, L2: 4096 KB"; AMD's specification: boost clock
 * 2250 MHz, 16 GB GDDR6 on a 256-bit bus at 2 GHz (16 Gbps)), the figures
 * platform/plat_gpu_info.c gives too. gfx_target_version and the ELF machine are amdkfd's
 * (kfd_device.c: gfx906 90006, gfx90a 90010, gfx1030 100300) and LLVM's
 * (EF_AMDGPU_MACH_AMDGCN_GFX906 0x2f, GFX90A 0x3f, GFX1030 0x36). Register files:
 * AMDGPUUsage "AMDGPU Processors" and the COMPUTE_PGM_RSRC1 table: gfx906 256 VGPRs in
 * granules of 4; gfx90a 512 unified VGPR/AGPR registers in granules of 8; gfx1030 256 VGPRs
 * a lane, in granules of 8 in wave32 (4 in wave64).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include "sim_isa.h"

static const sim_target targets[SIM_TARGET_COUNT] = {
   [SIM_TARGET_GFX906] = {
      .id = SIM_TARGET_GFX906,
      .name = "gfx906",
      .isa_name = "amdgcn-amd-amdhsa--gfx906:sramecc-:xnack-",
      .gfx_target_version = 90006,
      .elf_mach = 0x2f,
      .gfx_major = 9,
      .wave_size = 64,
      .image_sample = true,
      .vgpr_granule = 4,
      .vgprs_max = 256,
      .product_name = "hsacl software gfx906",
      .chip_id = 0x66af,
      .max_clock_mhz = 1801,
      .cus = 60, .simds_per_cu = 4, .waves_per_simd = 10, .shader_engines = 4,
      .l1_kib = 16, .l2_kib = 8192, .memory_width = 4096, .memory_mhz = 1000,
      .vram = 16ull << 30,
   },
   [SIM_TARGET_GFX90A] = {
      .id = SIM_TARGET_GFX90A,
      .name = "gfx90a",
      .isa_name = "amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-",
      .gfx_target_version = 90010,
      .elf_mach = 0x3f,
      .sramecc = true,
      .gfx_major = 9,
      .wave_size = 64,
      .agprs = true,
      .unified_agprs = true,
      .packed_fp32 = true,
      .fp64_atomics = true,
      .tg_split = true,
      .packed_tid = true,
      .vgpr_granule = 8,
      .vgprs_max = 512,
      .product_name = "hsacl software gfx90a",
      .chip_id = 0x740f,
      .max_clock_mhz = 1700,
      .cus = 104, .simds_per_cu = 4, .waves_per_simd = 8, .shader_engines = 8,
      .l1_kib = 16, .l2_kib = 8192, .memory_width = 4096, .memory_mhz = 1600,
      .vram = 64ull << 30,
   },
   [SIM_TARGET_GFX1030] = {
      .id = SIM_TARGET_GFX1030,
      .name = "gfx1030",
      .isa_name = "amdgcn-amd-amdhsa--gfx1030",
      .gfx_target_version = 100300,
      .elf_mach = 0x36,
      .gfx_major = 10,
      .wave_size = 32,
      .image_sample = true,
      .vgpr_granule = 8,
      .vgprs_max = 256,
      .product_name = "hsacl software gfx1030",
      .chip_id = 0x73bf,
      .max_clock_mhz = 2250,
      .cus = 72, .simds_per_cu = 2, .waves_per_simd = 16, .shader_engines = 4,
      .l1_kib = 16, .l2_kib = 4096, .memory_width = 256, .memory_mhz = 2000,
      .vram = 16ull << 30,
   },
};

const sim_target *
sim__target(sim_target_id id)
{
   return id < SIM_TARGET_COUNT ? &targets[id] : NULL;
}

const sim_target *
sim__target_by_name(const char *name)
{
   for (unsigned i = 0; i < SIM_TARGET_COUNT; i++) {
      if (strcmp(name, targets[i].name) == 0)
         return &targets[i];
   }
   return NULL;
}

static char target_names[64];
static pthread_once_t names_once = PTHREAD_ONCE_INIT;

static void
names_init(void)
{
   size_t n = 0;
   for (unsigned i = 0; i < SIM_TARGET_COUNT; i++)
      n += (size_t)snprintf(target_names + n, sizeof(target_names) - n, "%s%s", i ? ", " : "",
                            targets[i].name);
}

const char *
sim__target_names(void)
{
   pthread_once(&names_once, names_init);
   return target_names;
}

/* Written by the front end before it dispatches on the agent, read by dispatches. */
static _Atomic(const sim_target *) agent_targets[SIM_CACHE_AGENTS];

void
sim__isa_agent_target_set(unsigned agent, const sim_target *t)
{
   if (agent < SIM_CACHE_AGENTS)
      atomic_store_explicit(&agent_targets[agent], t, memory_order_release);
}

const sim_target *
sim__isa_agent_target(unsigned agent)
{
   const sim_target *t = agent < SIM_CACHE_AGENTS
                            ? atomic_load_explicit(&agent_targets[agent], memory_order_acquire)
                            : NULL;
   return t ? t : &targets[SIM_TARGET_GFX906];
}
