/*
 * sim/kfd/kfd_topology.c — opening the software KFD, its version, the topology (nodes,
 * memory banks, caches, IO links), clock counters and the runtime-enable calls.
 *
 * The values are those ROCr 5.2.3 reads or asserts (core/runtime/amd_topology.cpp,
 * amd_cpu_agent.cpp, amd_gpu_agent.cpp, amd_memory_region.cpp, amd_aql_queue.cpp): a
 * CPU node with a SYSTEM heap and a data cache; GPU nodes with the EngineId of their target
 * (9.0.6 for gfx906, 9.0.10 for gfx90a: amdkfd's gfx_target_version; the ISA comes only from
 * there; HSACL_SIM_GPUS picks the targets, sim_gpus.c), a public frame buffer, an LDS bank at 1 << 48 and a scratch bank
 * at 2 << 48 (the gfx9 KFD apertures, which sim_isa.h's SIM_APERTURE_* agree with), data
 * caches with HSACU = 1, no SDMA engines, 64 GWS resources, doorbell type 2, and PCIe links both ways
 * (without a link from the CPU, system pools are NEVER_ALLOWED for the GPU). The GPU's
 * figures are a real board's (below); ROCr asserts the scratch wave count a multiple of
 * NumShaderBanks (amd_aql_queue.cpp InitScratchSRD), which 60 CUs x 32 slots over 4
 * engines is.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kfd_priv.h"

/* KFD ioctl interface 1.11: gfx906 needs >= 1.4 (sramecc reporting, amd_topology.cpp). */
#define KFD_VERSION_MAJOR 1
#define KFD_VERSION_MINOR 11

/*
 * A node's figures are its target's (sim_target, sim/isa/sim_target.c: a gfx90a is an
 * Instinct MI210 as rocminfo prints it); those below are what every target shares.
 *
 * The gfx906 is a Vega 20 as amdkfd describes a Radeon VII or a Radeon Instinct MI50: the values
 * rocminfo prints for them. Published rocminfo outputs of a Radeon VII show "Compute Unit: 60",
 * "SIMDs per CU: 4", "Shader Engines: 4", "Shader Arrs. per Eng.: 1", "WatchPts on Addr.
 * Ranges:4", "Cache Info: L1: 16 KB, L2: 8192 KB", "Cacheline Size: 64" (the MI50 has the
 * same die and the same figures). 10 waves per SIMD: rocminfo "Max Waves Per CU: 40"; 64 KiB
 * of LDS per work-group: the "GROUP" segment's 64 KB; 32 scratch wave slots per CU: amdkfd's
 * CRAT default; 16 GiB of HBM2 on a 4096-bit bus at 1000 MHz: AMD's specifications (the MI50
 * also comes with 32 GiB). The caches are amdkfd's vega20_cache_info (kfd_crat.c): the vector
 * L1 (TCP) 16 KiB per CU and the L2 8192 KiB, with 64-byte lines; the scalar L1 caches (32 KiB
 * instruction, 16 KiB data, per 3 CUs) are left out, as the per-CU copies of each cache are:
 * ROCr keeps the first cache of each level (HSA_AGENT_INFO_CACHE_SIZE) and drops instruction
 * caches.
 */
#define GPU_ARRAYS_PER_ENGINE 1
#define GPU_SCRATCH_SLOTS_PER_CU 32
#define GPU_WATCH_POINT_BITS 2 /* 1 << 2 watch points */
#define GPU_CACHE_LINE 64
#define GPU_LDS_SIZE (64ull << 10)
#define GPU_SCRATCH_SIZE (4ull << 30)
#define GPU_FCOMPUTE_ID_BASE 0x80000000u /* FComputeIdLo of GPU 1; +GPU_CUS*4 per GPU */

/*
 * What tells the two boards apart (HSACL_KFD_BOARD: "radeon-vii", the default, or "mi50").
 * The PCI device ids are libdrm's amdgpu.ids ("66AF, C1, AMD Radeon VII"; "66A1, 02, AMD
 * Instinct MI60 / MI50"). The engine clock is the top of the board's clock table as rocminfo
 * prints it ("Max Clock Freq. (MHz)"): 1801 on a Radeon VII, 1725 on an MI50 (AMD's
 * specification: peak engine clock 1725 MHz). SRAM ECC: on on the MI50, off on the Radeon VII
 * as published rocminfo outputs of it mostly show (some newer stacks report it on), and the
 * KFD reports it as Capability.SRAM_EDCSupport, from which ROCr names the ISA (rocminfo
 * "amdgcn-amd-amdhsa--gfx906:sramecc+:xnack-" on an MI50, "...:sramecc-:xnack-" on a
 * Radeon VII; ROCr's amd_topology.cpp: "gfx906 has both sramecc modes in use"). XNACK is off
 * on both (amdgpu's noretry default on gfx9 dGPUs; hsaKmtGetXNACKMode). The marketing name
 * stays ours on both: it tells a user that the GPU is the software one.
 */
typedef struct kfd_board {
   const char *name;
   uint32_t device_id;
   uint32_t max_clock_mhz;
   bool sramecc;
} kfd_board;

static const kfd_board boards[] = {
   {"radeon-vii", SIM_GPU_CHIP_ID, SIM_GPU_MAX_CLOCK_MHZ, false},
   {"mi50", 0x66a1, 1725, true},
};

static const kfd_board *board = &boards[0]; /* set at open */

static const kfd_board *
board_from_env(void)
{
   const char *e = getenv("HSACL_KFD_BOARD");
   if (!e || !*e)
      return &boards[0];
   for (size_t i = 0; i < sizeof(boards) / sizeof(boards[0]); i++) {
      if (strcmp(e, boards[i].name) == 0)
         return &boards[i];
   }
   /* A setting the user got wrong: said whatever HSACL_LOG is (as HSACL_KFD_GPUS). */
   fprintf(stderr, "hsacl-kfd: HSACL_KFD_BOARD=%s is not radeon-vii or mi50: using radeon-vii\n",
           e);
   return &boards[0];
}

/* The frame buffer a node reports: the board's, but no more than the software device heap
 * can give (SIM_DEVICE_MEMORY_SIZE: the gfx906's 16 GiB; a gfx90a has 64). */
static uint64_t
gpu_vram(const sim_target *t)
{
   return t->vram < SIM_DEVICE_MEMORY_SIZE ? t->vram : SIM_DEVICE_MEMORY_SIZE;
}

static pthread_mutex_t open_lock = PTHREAD_MUTEX_INITIALIZER;
static uint32_t open_count;
static _Atomic bool is_open;
static uint32_t gpu_count = 1;

bool
kfd_is_open(void)
{
   return atomic_load_explicit(&is_open, memory_order_acquire);
}

uint32_t
kfd_gpu_count(void)
{
   return gpu_count;
}

KFD_EXPORT HSAKMT_STATUS HSAKMTAPI
hsaKmtOpenKFD(void)
{
   HSAKMT_STATUS st = HSAKMT_STATUS_SUCCESS;
   pthread_mutex_lock(&open_lock);
   if (open_count == 0) {
      gpu_count = sim__gpus_from_env(); /* shared with the software HSA runtime */
      if (gpu_count == 0) {
         /* HSACL_SIM_GPUS named an unknown target (sim_gpus.c said so): no KFD to open. */
         gpu_count = 1;
         st = HSAKMT_STATUS_ERROR;
         goto out_unlock;
      }
      board = board_from_env();
      if (kfd_memory_open() != HSA_STATUS_SUCCESS) {
         st = HSAKMT_STATUS_NO_MEMORY;
         goto out_unlock;
      }
      if (!kfd_event_open()) {
         kfd_memory_close();
         st = HSAKMT_STATUS_NO_MEMORY;
         goto out_unlock;
      }
      atomic_store_explicit(&is_open, true, memory_order_release);
      SIM_LOGI("kfd", "software KFD opened: 1 CPU node, %u GPU node(s), the first a %s (%s)",
               gpu_count, sim__gpu_target(0)->name, board->name);
   }
   open_count++;
out_unlock:
   pthread_mutex_unlock(&open_lock);
   return st;
}

KFD_EXPORT HSAKMT_STATUS HSAKMTAPI
hsaKmtCloseKFD(void)
{
   HSAKMT_STATUS st = HSAKMT_STATUS_SUCCESS;
   pthread_mutex_lock(&open_lock);
   if (open_count == 0) {
      st = HSAKMT_STATUS_KERNEL_IO_CHANNEL_NOT_OPENED;
   } else if (--open_count == 0) {
      atomic_store(&is_open, false);
      kfd_queue_close();
      kfd_event_close();
      kfd_memory_close();
   }
   pthread_mutex_unlock(&open_lock);
   return st;
}

#define CHECK_OPEN()                                                                          \
   do {                                                                                       \
      if (!kfd_is_open())                                                                     \
         return HSAKMT_STATUS_KERNEL_IO_CHANNEL_NOT_OPENED;                                   \
   } while (0)

KFD_EXPORT HSAKMT_STATUS HSAKMTAPI
hsaKmtGetVersion(HsaVersionInfo *VersionInfo)
{
   CHECK_OPEN();
   if (!VersionInfo)
      return HSAKMT_STATUS_INVALID_PARAMETER;
   VersionInfo->KernelInterfaceMajorVersion = KFD_VERSION_MAJOR;
   VersionInfo->KernelInterfaceMinorVersion = KFD_VERSION_MINOR;
   return HSAKMT_STATUS_SUCCESS;
}

/* Not a debugger-capable KFD: ROCr then stays off the exception-debugging path. */
KFD_EXPORT HSAKMT_STATUS HSAKMTAPI
hsaKmtRuntimeEnable(void *rDebug, bool setupTtmp)
{
   (void)rDebug, (void)setupTtmp;
   CHECK_OPEN();
   return HSAKMT_STATUS_NOT_SUPPORTED;
}

KFD_EXPORT HSAKMT_STATUS HSAKMTAPI
hsaKmtRuntimeDisable(void)
{
   return HSAKMT_STATUS_NOT_SUPPORTED;
}

KFD_EXPORT HSAKMT_STATUS HSAKMTAPI
hsaKmtAcquireSystemProperties(HsaSystemProperties *SystemProperties)
{
   CHECK_OPEN();
   if (!SystemProperties)
      return HSAKMT_STATUS_INVALID_PARAMETER;
   memset(SystemProperties, 0, sizeof(*SystemProperties));
   SystemProperties->NumNodes = 1 + gpu_count;
   SystemProperties->PlatformOem = 0x48534143; /* "HSAC" */
   SystemProperties->PlatformId = 1;
   SystemProperties->PlatformRev = 1;
   return HSAKMT_STATUS_SUCCESS;
}

KFD_EXPORT HSAKMT_STATUS HSAKMTAPI
hsaKmtReleaseSystemProperties(void)
{
   return HSAKMT_STATUS_SUCCESS;
}

static void
set_name(HSAuint16 *marketing, HSAuint8 *amd, const char *name)
{
   size_t n = strlen(name);
   for (size_t i = 0; i < n && i < HSA_PUBLIC_NAME_SIZE - 1; i++) {
      marketing[i] = (HSAuint16)name[i];
      amd[i] = (HSAuint8)name[i];
   }
}

static uint32_t
cpu_cores(void)
{
   long n = sysconf(_SC_NPROCESSORS_ONLN);
   return n > 0 ? (uint32_t)n : 1;
}

/* Banks, caches and links per node: the counts and the arrays below agree. */
#define CPU_BANKS 1
#define CPU_CACHES 2
#define GPU_BANKS 3
#define GPU_CACHES 2

KFD_EXPORT HSAKMT_STATUS HSAKMTAPI
hsaKmtGetNodeProperties(HSAuint32 NodeId, HsaNodeProperties *NodeProperties)
{
   CHECK_OPEN();
   if (!NodeProperties)
      return HSAKMT_STATUS_INVALID_PARAMETER;
   if (!kfd_node_valid(NodeId))
      return HSAKMT_STATUS_INVALID_NODE_UNIT;
   HsaNodeProperties *p = NodeProperties;
   memset(p, 0, sizeof(*p));
   if (NodeId == 0) {
      p->NumCPUCores = cpu_cores();
      p->NumMemoryBanks = CPU_BANKS;
      p->NumCaches = CPU_CACHES;
      p->NumIOLinks = gpu_count;
      p->CComputeIdLo = 0;
      p->MaxEngineClockMhzCCompute = 3000;
      p->WaveFrontSize = 1;
      set_name(p->MarketingName, p->AMDName, "hsacl software CPU");
      return HSAKMT_STATUS_SUCCESS;
   }
   uint32_t gpu = NodeId - 1;
   const sim_target *t = sim__gpu_target(gpu);
   const bool vega20 = t->id == SIM_TARGET_GFX906; /* HSACL_KFD_BOARD picks its board */
   /* Each GPU's compute IDs follow the previous GPUs'. */
   uint32_t first_id = GPU_FCOMPUTE_ID_BASE;
   for (uint32_t g = 0; g < gpu; g++)
      first_id += sim__gpu_target(g)->cus * sim__gpu_target(g)->simds_per_cu;
   p->NumFComputeCores = t->cus * t->simds_per_cu;
   p->NumMemoryBanks = GPU_BANKS;
   p->NumCaches = GPU_CACHES;
   p->NumIOLinks = gpu_count; /* the CPU and every other GPU */
   p->FComputeIdLo = first_id;
   p->Capability.ui32.QueueSizePowerOfTwo = 1;
   p->Capability.ui32.QueueSize32bit = 1;
   p->Capability.ui32.DoorbellType = 2; /* 64-bit AQL write-pointer doorbells */
   p->Capability.ui32.SRAM_EDCSupport = vega20 ? board->sramecc : t->sramecc;
   p->Capability.ui32.WatchPointsTotalBits = GPU_WATCH_POINT_BITS;
   p->MaxWavesPerSIMD = t->waves_per_simd;
   p->LDSSizeInKB = GPU_LDS_SIZE >> 10;
   p->GDSSizeInKB = 0;
   p->WaveFrontSize = t->wave_size;
   p->NumShaderBanks = t->shader_engines;
   p->NumArrays = GPU_ARRAYS_PER_ENGINE;
   p->NumCUPerArray = t->cus / (t->shader_engines * GPU_ARRAYS_PER_ENGINE);
   p->NumSIMDPerCU = t->simds_per_cu;
   p->MaxSlotsScratchCU = GPU_SCRATCH_SLOTS_PER_CU;
   p->EngineId.ui32.uCode = 0;
   p->EngineId.ui32.Major = t->gfx_target_version / 10000;
   p->EngineId.ui32.Minor = t->gfx_target_version / 100 % 100;
   p->EngineId.ui32.Stepping = t->gfx_target_version % 100;
   p->VendorId = 0x1002;
   p->DeviceId = vega20 ? board->device_id : t->chip_id;
   p->LocationId = sim__gpu_location_id(gpu);
   p->LocalMemSize = gpu_vram(t);
   p->MaxEngineClockMhzFCompute = vega20 ? board->max_clock_mhz : t->max_clock_mhz;
   p->DrmRenderMinor = 128 + (int)gpu;
   set_name(p->MarketingName, p->AMDName, t->product_name);
   p->HiveID = 0;
   p->NumSdmaEngines = 0;
   p->NumSdmaXgmiEngines = 0;
   p->NumSdmaQueuesPerEngine = 0;
   p->NumCpQueues = 24;
   /* amdkfd: the GPU's whole GWS block (gds.gws_size, 64 on gfx9) under the HWS scheduler;
    * ROCr then offers cooperative queues and asks hsaKmtAllocQueueGWS for them. */
   p->NumGws = SIM_GWS_RESOURCES;
   p->Domain = 0;
   p->UniqueID = sim__gpu_unique_id(gpu);
   p->VGPRSizePerCU = t->simds_per_cu * t->vgprs_max * 64 * 4;
   p->SGPRSizePerCU = 800 * 4 * 4;
   return HSAKMT_STATUS_SUCCESS;
}

static uint64_t
system_memory(void)
{
   long pages = sysconf(_SC_PHYS_PAGES);
   long size = sysconf(_SC_PAGESIZE);
   return pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size : 1ull << 30;
}

KFD_EXPORT HSAKMT_STATUS HSAKMTAPI
hsaKmtGetNodeMemoryProperties(HSAuint32 NodeId, HSAuint32 NumBanks,
                              HsaMemoryProperties *MemoryProperties)
{
   CHECK_OPEN();
   if (!MemoryProperties)
      return HSAKMT_STATUS_INVALID_PARAMETER;
   if (!kfd_node_valid(NodeId))
      return HSAKMT_STATUS_INVALID_NODE_UNIT;
   HsaMemoryProperties banks[GPU_BANKS];
   uint32_t count;
   memset(banks, 0, sizeof(banks));
   if (NodeId == 0) {
      count = CPU_BANKS;
      banks[0].HeapType = HSA_HEAPTYPE_SYSTEM;
      banks[0].SizeInBytes = system_memory();
      banks[0].Width = 64;
      banks[0].MemoryClockMax = 3200;
   } else {
      count = GPU_BANKS;
      banks[0].HeapType = HSA_HEAPTYPE_FRAME_BUFFER_PUBLIC;
      const sim_target *t = sim__gpu_target(NodeId - 1);
      banks[0].SizeInBytes = gpu_vram(t);
      banks[0].Width = t->memory_width;
      banks[0].MemoryClockMax = t->memory_mhz;
      banks[1].HeapType = HSA_HEAPTYPE_GPU_LDS;
      banks[1].SizeInBytes = GPU_LDS_SIZE;
      banks[1].VirtualBaseAddress = SIM_APERTURE_SHARED_BASE;
      banks[2].HeapType = HSA_HEAPTYPE_GPU_SCRATCH;
      banks[2].SizeInBytes = GPU_SCRATCH_SIZE;
      banks[2].VirtualBaseAddress = SIM_APERTURE_PRIVATE_BASE;
   }
   for (uint32_t i = 0; i < NumBanks && i < count; i++)
      MemoryProperties[i] = banks[i];
   return NumBanks < count ? HSAKMT_STATUS_BUFFER_TOO_SMALL : HSAKMT_STATUS_SUCCESS;
}

KFD_EXPORT HSAKMT_STATUS HSAKMTAPI
hsaKmtGetNodeCacheProperties(HSAuint32 NodeId, HSAuint32 ProcessorId, HSAuint32 NumCaches,
                             HsaCacheProperties *CacheProperties)
{
   CHECK_OPEN();
   if (!CacheProperties)
      return HSAKMT_STATUS_INVALID_PARAMETER;
   if (!kfd_node_valid(NodeId))
      return HSAKMT_STATUS_INVALID_NODE_UNIT;
   HsaCacheProperties c[2];
   memset(c, 0, sizeof(c));
   for (int i = 0; i < 2; i++) {
      c[i].ProcessorIdLow = ProcessorId;
      c[i].CacheLevel = (HSAuint32)i + 1;
      c[i].CacheLineSize = 64;
      c[i].CacheLinesPerTag = 1;
      c[i].CacheType.ui32.Data = 1;
      c[i].SiblingMap[0] = 1;
   }
   if (NodeId == 0) {
      c[0].CacheSize = 32; /* KiB, as the KFD's CRAT reports cache sizes */
      c[0].CacheAssociativity = 8;
      c[0].CacheType.ui32.CPU = 1;
      c[1].CacheSize = 1024;
      c[1].CacheAssociativity = 16;
      c[1].CacheType.ui32.CPU = 1;
   } else {
      const sim_target *t = sim__gpu_target(NodeId - 1);
      c[0].CacheSize = t->l1_kib;
      c[0].CacheAssociativity = 64;
      c[0].CacheType.ui32.HSACU = 1;
      c[1].CacheSize = t->l2_kib;
      c[1].CacheAssociativity = 16;
      c[1].CacheType.ui32.HSACU = 1;
      c[0].CacheLineSize = c[1].CacheLineSize = GPU_CACHE_LINE;
   }
   uint32_t count = NodeId == 0 ? CPU_CACHES : GPU_CACHES;
   for (uint32_t i = 0; i < NumCaches && i < count; i++)
      CacheProperties[i] = c[i];
   return NumCaches < count ? HSAKMT_STATUS_BUFFER_TOO_SMALL : HSAKMT_STATUS_SUCCESS;
}

static void
link_fill(HsaIoLinkProperties *l, uint32_t from, uint32_t to)
{
   memset(l, 0, sizeof(*l));
   l->IoLinkType = HSA_IOLINKTYPE_PCIEXPRESS;
   l->VersionMajor = 3;
   l->NodeFrom = from;
   l->NodeTo = to;
   /* KFD weights: 20 CPU<->GPU, 40 GPU<->GPU through the root complex. */
   l->Weight = (from == 0 || to == 0) ? 20 : 40;
   l->MinimumBandwidth = 16000;
   l->MaximumBandwidth = 16000;
   l->RecTransferSize = 64;
}

KFD_EXPORT HSAKMT_STATUS HSAKMTAPI
hsaKmtGetNodeIoLinkProperties(HSAuint32 NodeId, HSAuint32 NumIoLinks,
                              HsaIoLinkProperties *IoLinkProperties)
{
   CHECK_OPEN();
   if (!IoLinkProperties)
      return HSAKMT_STATUS_INVALID_PARAMETER;
   if (!kfd_node_valid(NodeId))
      return HSAKMT_STATUS_INVALID_NODE_UNIT;
   uint32_t n = 0;
   for (uint32_t to = 0; to <= gpu_count && n < NumIoLinks; to++) {
      if (to == NodeId)
         continue;
      link_fill(&IoLinkProperties[n++], NodeId, to);
   }
   return n < gpu_count ? HSAKMT_STATUS_BUFFER_TOO_SMALL : HSAKMT_STATUS_SUCCESS;
}

/* One clock for every node and domain: CLOCK_MONOTONIC in ns, as the CP's timestamps. */
KFD_EXPORT HSAKMT_STATUS HSAKMTAPI
hsaKmtGetClockCounters(HSAuint32 NodeId, HsaClockCounters *Counters)
{
   CHECK_OPEN();
   if (!Counters)
      return HSAKMT_STATUS_INVALID_PARAMETER;
   if (!kfd_node_valid(NodeId))
      return HSAKMT_STATUS_INVALID_NODE_UNIT;
   uint64_t now = sim__cp_clock();
   Counters->GPUClockCounter = now;
   Counters->CPUClockCounter = now;
   Counters->SystemClockCounter = now;
   Counters->SystemClockFrequencyHz = KFD_CLOCK_HZ;
   return HSAKMT_STATUS_SUCCESS;
}

/* XNACK (retry on page faults) is off: the interpreter's GPU never retries. */
KFD_EXPORT HSAKMT_STATUS HSAKMTAPI
hsaKmtGetXNACKMode(HSAint32 *enable)
{
   CHECK_OPEN();
   if (!enable)
      return HSAKMT_STATUS_INVALID_PARAMETER;
   *enable = 0;
   return HSAKMT_STATUS_SUCCESS;
}

KFD_EXPORT HSAKMT_STATUS HSAKMTAPI
hsaKmtSetXNACKMode(HSAint32 enable)
{
   CHECK_OPEN();
   return enable ? HSAKMT_STATUS_NOT_SUPPORTED : HSAKMT_STATUS_SUCCESS;
}

/* Only GbAddrConfig is read on gfx9 (image_manager_ai.cpp); Vega's golden value. */
KFD_EXPORT HSAKMT_STATUS HSAKMTAPI
hsaKmtGetTileConfig(HSAuint32 NodeId, HsaGpuTileConfig *config)
{
   CHECK_OPEN();
   if (!config)
      return HSAKMT_STATUS_INVALID_PARAMETER;
   if (!kfd_node_is_gpu(NodeId))
      return HSAKMT_STATUS_INVALID_NODE_UNIT;
   config->NumTileConfigs = 0;
   config->NumMacroTileConfigs = 0;
   config->GbAddrConfig = 0x2a114042;
   config->NumBanks = 16;
   config->NumRanks = 1;
   return HSAKMT_STATUS_SUCCESS;
}
