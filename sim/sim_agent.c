/*
 * sim/sim_agent.c — agents, caches, ISA, wavefronts, memory pools and regions as objects
 * (HSA Runtime PRM §2.3 "System and agent information", §2.9 "Code objects and
 * executables: ISA", AMD extensions "Memory pools").
 *
 * The system has one CPU agent and 1-8 GPU agents (HSACL_SIM_GPUS or HSACL_KFD_GPUS:
 * sim_gpus.c), each a target of the interpreter (sim_isa.h's sim_target: a gfx906 as a
 * Radeon VII, a gfx90a as an MI210) with the attributes ROCr reports for that board and
 * the node id, UUID and PCI location ROCr reports for the same GPU of the software KFD.
 * Each target is an ISA object: the handle of an ISA is its sim_target's address. The CPU agent owns the system pools, which every GPU reaches; each GPU owns
 * a device pool (coarse-grained device memory, its own budget) and a group pool. Every
 * handle is the address of a static object and is validated against the agents and pools
 * of this hsa_init.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <hsa/hsa_ext_image.h>

#include "sim_priv.h"

/* The CPU, then GPU 0..SIM_MAX_GPUS-1; the first 1 + gpu_count are this system's. */
static const sim_agent agents[1 + SIM_MAX_GPUS] = {
   {SIM_AGENT_CPU, 0}, {SIM_AGENT_GPU, 0}, {SIM_AGENT_GPU, 1}, {SIM_AGENT_GPU, 2},
   {SIM_AGENT_GPU, 3}, {SIM_AGENT_GPU, 4}, {SIM_AGENT_GPU, 5}, {SIM_AGENT_GPU, 6},
   {SIM_AGENT_GPU, 7},
};
_Static_assert(SIM_MAX_GPUS == 8, "agents[] and pools[] list SIM_MAX_GPUS GPUs");

/* Set by hsa_init (sim__agents_init) while no other thread uses the runtime. */
static uint32_t gpu_count = 1;

/* Figures every gfx9 target shares; the rest are the target's (sim_target: what amdkfd
 * reports and rocminfo prints for the board, as the software KFD does in
 * kfd/kfd_topology.c, so that the runtimes agree). */
enum {
   GFX9_LDS_SIZE = 64 * 1024,
   GFX9_WORKGROUP_MAX = 1024,
   QUEUE_MIN_SIZE = 64,
   QUEUE_MAX_SIZE = 131072,
   QUEUES_MAX = 128,
};

#define SYSTEM_POOL_COUNT 3

/* The system pools (the CPU agent's, shared by every GPU), then each GPU's device and
 * group pools. */
#define GPU_POOLS(g)                                                                          \
   {SIM_POOL_DEVICE, SIM_AGENT_GPU, g, HSA_AMD_SEGMENT_GLOBAL,                                \
    HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED, true, true, SIM_DEVICE_MEMORY_SIZE},      \
   {SIM_POOL_GROUP, SIM_AGENT_GPU, g, HSA_AMD_SEGMENT_GROUP, 0, false, false, GFX9_LDS_SIZE}
static const sim_pool pools[SYSTEM_POOL_COUNT + 2 * SIM_MAX_GPUS] = {
   {SIM_POOL_SYSTEM, SIM_AGENT_CPU, 0, HSA_AMD_SEGMENT_GLOBAL,
    HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED, true, false, 0},
   {SIM_POOL_KERNARG, SIM_AGENT_CPU, 0, HSA_AMD_SEGMENT_GLOBAL,
    HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED | HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT,
    true, false, 0},
   {SIM_POOL_SYSTEM_COARSE, SIM_AGENT_CPU, 0, HSA_AMD_SEGMENT_GLOBAL,
    HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED, true, false, 0},
   GPU_POOLS(0), GPU_POOLS(1), GPU_POOLS(2), GPU_POOLS(3),
   GPU_POOLS(4), GPU_POOLS(5), GPU_POOLS(6), GPU_POOLS(7),
};
#define POOL_COUNT (SYSTEM_POOL_COUNT + 2 * gpu_count)

typedef struct sim_cache {
   enum sim_agent_kind owner;
   const char *name;
   uint8_t level;
   int sysconf_name; /* CPU caches: size from sysconf; 0: use `size` */
   uint32_t size;
} sim_cache;

static const sim_cache caches[] = {
   {SIM_AGENT_CPU, "L1", 1, _SC_LEVEL1_DCACHE_SIZE, 32 * 1024},
   {SIM_AGENT_CPU, "L2", 2, _SC_LEVEL2_CACHE_SIZE, 512 * 1024},
   {SIM_AGENT_CPU, "L3", 3, _SC_LEVEL3_CACHE_SIZE, 16 * 1024 * 1024},
   /* gfx906 and gfx90a alike (sim_target.l1_kib / l2_kib) */
   {SIM_AGENT_GPU, "L1", 1, 0, 16 * 1024},
   {SIM_AGENT_GPU, "L2", 2, 0, 8 * 1024 * 1024},
};
#define CACHE_COUNT (sizeof(caches) / sizeof(caches[0]))

/* Each ISA's one wavefront (PRM §2.9.1): every target has 64-lane waves. */
static const char wavefront_object = 0;

/* HDP flush registers: the software device has none; these are harmless targets. */
static uint32_t hdp_mem_flush_cntl, hdp_reg_flush_cntl;

bool
sim__agents_init(void)
{
   gpu_count = sim__gpus_from_env();
   return gpu_count != 0;
}

uint32_t
sim__gpu_count(void)
{
   return gpu_count;
}

hsa_agent_t
sim__agent_cpu(void)
{
   return (hsa_agent_t){(uint64_t)(uintptr_t)&agents[0]};
}

hsa_agent_t
sim__agent_gpu(uint32_t gpu)
{
   return (hsa_agent_t){(uint64_t)(uintptr_t)&agents[1 + gpu]};
}

const sim_agent *
sim__agent_get(hsa_agent_t agent)
{
   uint64_t first = (uint64_t)(uintptr_t)&agents[0];
   if (agent.handle < first || (agent.handle - first) % sizeof(sim_agent) != 0 ||
       (agent.handle - first) / sizeof(sim_agent) > gpu_count)
      return NULL;
   return (const sim_agent *)(uintptr_t)agent.handle;
}

bool
sim__agent_from_handle(hsa_agent_t agent, enum sim_agent_kind *kind)
{
   const sim_agent *a = sim__agent_get(agent);
   if (!a)
      return false;
   *kind = a->kind;
   return true;
}

static hsa_agent_t
agent_handle(const sim_agent *a)
{
   return (hsa_agent_t){(uint64_t)(uintptr_t)a};
}

const sim_pool *
sim__pool_system(enum sim_pool_kind kind)
{
   return kind < SYSTEM_POOL_COUNT ? &pools[kind] : NULL;
}

const sim_pool *
sim__pool_device(uint32_t gpu)
{
   return &pools[SYSTEM_POOL_COUNT + 2 * gpu];
}

hsa_agent_t
sim__pool_owner(const sim_pool *pool)
{
   return pool->owner == SIM_AGENT_CPU ? sim__agent_cpu() : sim__agent_gpu(pool->gpu);
}

hsa_amd_memory_pool_t
sim__pool_handle(const sim_pool *pool)
{
   return (hsa_amd_memory_pool_t){(uint64_t)(uintptr_t)pool};
}

const sim_pool *
sim__pool_from_handle(uint64_t handle)
{
   uint64_t first = (uint64_t)(uintptr_t)&pools[0];
   if (handle < first || (handle - first) % sizeof(sim_pool) != 0 ||
       (handle - first) / sizeof(sim_pool) >= POOL_COUNT)
      return NULL;
   return (const sim_pool *)(uintptr_t)handle;
}

/* Whether `pool` belongs to `agent` (its pools, in iteration order). */
static bool
pool_of_agent(const sim_pool *p, const sim_agent *a)
{
   return p->owner == a->kind && (a->kind == SIM_AGENT_CPU || p->gpu == a->gpu);
}

static uint64_t
pool_size(const sim_pool *pool)
{
   if (pool->device_heap)
      return sim__device_memory_size();
   if (pool->size)
      return pool->size;
   return sim__system_memory_size();
}

static uint32_t
cache_size(const sim_cache *c)
{
   if (c->sysconf_name) {
      long v = sysconf(c->sysconf_name);
      if (v > 0)
         return (uint32_t)v;
   }
   return c->size;
}

static void
cpu_model_name(char out[64])
{
   snprintf(out, 64, "Software CPU");
   FILE *f = fopen("/proc/cpuinfo", "r");
   if (!f)
      return;
   char line[256];
   while (fgets(line, sizeof(line), f)) {
      if (strncmp(line, "model name", 10) == 0) {
         char *colon = strchr(line, ':');
         if (colon) {
            colon++;
            while (*colon == ' ')
               colon++;
            colon[strcspn(colon, "\n")] = '\0';
            snprintf(out, 64, "%s", colon);
         }
         break;
      }
   }
   fclose(f);
}

static uint32_t
cpu_count(void)
{
   long n = sysconf(_SC_NPROCESSORS_ONLN);
   return n > 0 ? (uint32_t)n : 1;
}

SIM_EXPORT hsa_status_t
hsa_iterate_agents(hsa_status_t (*callback)(hsa_agent_t agent, void *data), void *data)
{
   SIM_CHECK_INIT();
   if (!callback)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   for (uint32_t i = 0; i <= gpu_count; i++) {
      hsa_status_t st = callback(agent_handle(&agents[i]), data);
      if (st != HSA_STATUS_SUCCESS)
         return st;
   }
   return HSA_STATUS_SUCCESS;
}

static hsa_status_t
agent_get_info_gpu(const sim_agent *a, int attribute, void *value)
{
   const sim_target *t = sim__gpu_target(a->gpu);
   switch (attribute) {
   case HSA_AGENT_INFO_NAME:
      memset(value, 0, 64);
      strcpy(value, t->name);
      return HSA_STATUS_SUCCESS;
   case HSA_AGENT_INFO_VENDOR_NAME:
      memset(value, 0, 64);
      strcpy(value, "AMD");
      return HSA_STATUS_SUCCESS;
   case HSA_AMD_AGENT_INFO_PRODUCT_NAME:
      memset(value, 0, 64);
      strcpy(value, t->product_name);
      return HSA_STATUS_SUCCESS;
   case HSA_AGENT_INFO_FEATURE:
      *(hsa_agent_feature_t *)value = HSA_AGENT_FEATURE_KERNEL_DISPATCH;
      return HSA_STATUS_SUCCESS;
   case HSA_AGENT_INFO_WAVEFRONT_SIZE:
      *(uint32_t *)value = t->wave_size;
      return HSA_STATUS_SUCCESS;
   case HSA_AGENT_INFO_WORKGROUP_MAX_DIM: {
      uint16_t *d = value;
      d[0] = d[1] = d[2] = GFX9_WORKGROUP_MAX;
      return HSA_STATUS_SUCCESS;
   }
   case HSA_AGENT_INFO_WORKGROUP_MAX_SIZE:
      *(uint32_t *)value = GFX9_WORKGROUP_MAX;
      return HSA_STATUS_SUCCESS;
   case HSA_AGENT_INFO_GRID_MAX_DIM:
      *(hsa_dim3_t *)value = (hsa_dim3_t){UINT32_MAX, UINT32_MAX, UINT32_MAX};
      return HSA_STATUS_SUCCESS;
   case HSA_AGENT_INFO_GRID_MAX_SIZE:
      *(uint32_t *)value = UINT32_MAX;
      return HSA_STATUS_SUCCESS;
   case HSA_AGENT_INFO_FBARRIER_MAX_SIZE:
      *(uint32_t *)value = 32;
      return HSA_STATUS_SUCCESS;
   case HSA_AGENT_INFO_QUEUES_MAX:
      *(uint32_t *)value = QUEUES_MAX;
      return HSA_STATUS_SUCCESS;
   case HSA_AGENT_INFO_QUEUE_MIN_SIZE:
      *(uint32_t *)value = QUEUE_MIN_SIZE;
      return HSA_STATUS_SUCCESS;
   case HSA_AGENT_INFO_QUEUE_MAX_SIZE:
      *(uint32_t *)value = QUEUE_MAX_SIZE;
      return HSA_STATUS_SUCCESS;
   case HSA_AGENT_INFO_QUEUE_TYPE:
      *(hsa_queue_type32_t *)value = HSA_QUEUE_TYPE_MULTI;
      return HSA_STATUS_SUCCESS;
   case HSA_AGENT_INFO_NODE:
   case HSA_AMD_AGENT_INFO_DRIVER_NODE_ID:
      *(uint32_t *)value = a->gpu + 1; /* the KFD's node id: node 0 is the CPU */
      return HSA_STATUS_SUCCESS;
   case HSA_AGENT_INFO_DEVICE:
      *(hsa_device_type_t *)value = HSA_DEVICE_TYPE_GPU;
      return HSA_STATUS_SUCCESS;
   case HSA_AGENT_INFO_CACHE_SIZE: {
      uint32_t *c = value;
      c[0] = t->l1_kib << 10;
      c[1] = t->l2_kib << 10;
      c[2] = c[3] = 0;
      return HSA_STATUS_SUCCESS;
   }
   case HSA_AGENT_INFO_ISA:
      ((hsa_isa_t *)value)->handle = (uint64_t)(uintptr_t)t;
      return HSA_STATUS_SUCCESS;
   case HSA_AGENT_INFO_FAST_F16_OPERATION:
      *(bool *)value = true;
      return HSA_STATUS_SUCCESS;
   case HSA_AMD_AGENT_INFO_CHIP_ID:
      *(uint32_t *)value = t->chip_id;
      return HSA_STATUS_SUCCESS;
   case HSA_AMD_AGENT_INFO_CACHELINE_SIZE:
      *(uint32_t *)value = 64;
      return HSA_STATUS_SUCCESS;
   case HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT:
   case HSA_AMD_AGENT_INFO_COOPERATIVE_COMPUTE_UNIT_COUNT:
      *(uint32_t *)value = t->cus;
      return HSA_STATUS_SUCCESS;
   case HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY:
      *(uint32_t *)value = t->max_clock_mhz;
      return HSA_STATUS_SUCCESS;
   case HSA_AMD_AGENT_INFO_MAX_ADDRESS_WATCH_POINTS:
      *(uint32_t *)value = 4;
      return HSA_STATUS_SUCCESS;
   case HSA_AMD_AGENT_INFO_BDFID:
      *(uint32_t *)value = sim__gpu_location_id(a->gpu);
      return HSA_STATUS_SUCCESS;
   case HSA_AMD_AGENT_INFO_DOMAIN:
      *(uint32_t *)value = 0;
      return HSA_STATUS_SUCCESS;
   case HSA_AMD_AGENT_INFO_MEMORY_WIDTH:
      *(uint32_t *)value = t->memory_width;
      return HSA_STATUS_SUCCESS;
   case HSA_AMD_AGENT_INFO_MEMORY_MAX_FREQUENCY:
      *(uint32_t *)value = t->memory_mhz;
      return HSA_STATUS_SUCCESS;
   case HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU:
      *(uint32_t *)value = t->simds_per_cu * t->waves_per_simd;
      return HSA_STATUS_SUCCESS;
   case HSA_AMD_AGENT_INFO_NUM_SIMDS_PER_CU:
      *(uint32_t *)value = t->simds_per_cu;
      return HSA_STATUS_SUCCESS;
   case HSA_AMD_AGENT_INFO_NUM_SHADER_ENGINES:
      *(uint32_t *)value = t->shader_engines;
      return HSA_STATUS_SUCCESS;
   case HSA_AMD_AGENT_INFO_NUM_SHADER_ARRAYS_PER_SE:
      *(uint32_t *)value = 1;
      return HSA_STATUS_SUCCESS;
   case HSA_AMD_AGENT_INFO_HDP_FLUSH:
      ((hsa_amd_hdp_flush_t *)value)->HDP_MEM_FLUSH_CNTL = &hdp_mem_flush_cntl;
      ((hsa_amd_hdp_flush_t *)value)->HDP_REG_FLUSH_CNTL = &hdp_reg_flush_cntl;
      return HSA_STATUS_SUCCESS;
   case HSA_AMD_AGENT_INFO_COOPERATIVE_QUEUES:
   case HSA_AMD_AGENT_INFO_SVM_DIRECT_HOST_ACCESS:
      *(bool *)value = false;
      return HSA_STATUS_SUCCESS;
   case HSA_AMD_AGENT_INFO_UUID:
      memset(value, 0, 21);
      snprintf(value, 21, "GPU-%016llx", (unsigned long long)sim__gpu_unique_id(a->gpu));
      return HSA_STATUS_SUCCESS;
   case HSA_AMD_AGENT_INFO_ASIC_REVISION:
      *(uint32_t *)value = 1;
      return HSA_STATUS_SUCCESS;
   default:
      if (attribute >= HSA_EXT_AGENT_INFO_IMAGE_1D_MAX_ELEMENTS &&
          attribute <= HSA_EXT_AGENT_INFO_MAX_SAMPLER_HANDLERS)
         return sim__image_agent_info(attribute, value);
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   }
}

static hsa_status_t
agent_get_info_cpu(int attribute, void *value)
{
   switch (attribute) {
   case HSA_AGENT_INFO_NAME:
   case HSA_AMD_AGENT_INFO_PRODUCT_NAME:
      cpu_model_name(value);
      return HSA_STATUS_SUCCESS;
   case HSA_AGENT_INFO_VENDOR_NAME:
      memset(value, 0, 64);
      strcpy(value, "CPU");
      return HSA_STATUS_SUCCESS;
   case HSA_AGENT_INFO_FEATURE:
      *(hsa_agent_feature_t *)value = HSA_AGENT_FEATURE_AGENT_DISPATCH;
      return HSA_STATUS_SUCCESS;
   case HSA_AGENT_INFO_WAVEFRONT_SIZE:
   case HSA_AGENT_INFO_WORKGROUP_MAX_SIZE:
   case HSA_AGENT_INFO_GRID_MAX_SIZE:
   case HSA_AGENT_INFO_FBARRIER_MAX_SIZE:
   case HSA_AGENT_INFO_QUEUES_MAX:
   case HSA_AGENT_INFO_QUEUE_MIN_SIZE:
   case HSA_AGENT_INFO_QUEUE_MAX_SIZE:
   case HSA_AGENT_INFO_NODE:
   case HSA_AMD_AGENT_INFO_DRIVER_NODE_ID:
   case HSA_AMD_AGENT_INFO_MAX_ADDRESS_WATCH_POINTS:
   case HSA_AMD_AGENT_INFO_BDFID:
   case HSA_AMD_AGENT_INFO_DOMAIN:
   case HSA_AMD_AGENT_INFO_MEMORY_WIDTH:
   case HSA_AMD_AGENT_INFO_MEMORY_MAX_FREQUENCY:
   case HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU:
   case HSA_AMD_AGENT_INFO_NUM_SIMDS_PER_CU:
   case HSA_AMD_AGENT_INFO_NUM_SHADER_ENGINES:
   case HSA_AMD_AGENT_INFO_NUM_SHADER_ARRAYS_PER_SE:
   case HSA_AMD_AGENT_INFO_CHIP_ID:
   case HSA_AMD_AGENT_INFO_ASIC_REVISION:
   case HSA_AMD_AGENT_INFO_COOPERATIVE_COMPUTE_UNIT_COUNT:
      *(uint32_t *)value = 0;
      return HSA_STATUS_SUCCESS;
   case HSA_AGENT_INFO_WORKGROUP_MAX_DIM:
      memset(value, 0, 3 * sizeof(uint16_t));
      return HSA_STATUS_SUCCESS;
   case HSA_AGENT_INFO_GRID_MAX_DIM:
      *(hsa_dim3_t *)value = (hsa_dim3_t){0, 0, 0};
      return HSA_STATUS_SUCCESS;
   case HSA_AGENT_INFO_QUEUE_TYPE:
      *(hsa_queue_type32_t *)value = HSA_QUEUE_TYPE_MULTI;
      return HSA_STATUS_SUCCESS;
   case HSA_AGENT_INFO_DEVICE:
      *(hsa_device_type_t *)value = HSA_DEVICE_TYPE_CPU;
      return HSA_STATUS_SUCCESS;
   case HSA_AGENT_INFO_CACHE_SIZE: {
      uint32_t *c = value;
      c[0] = cache_size(&caches[0]);
      c[1] = cache_size(&caches[1]);
      c[2] = cache_size(&caches[2]);
      c[3] = 0;
      return HSA_STATUS_SUCCESS;
   }
   case HSA_AGENT_INFO_ISA:
      ((hsa_isa_t *)value)->handle = 0;
      return HSA_STATUS_SUCCESS;
   case HSA_AGENT_INFO_FAST_F16_OPERATION:
   case HSA_AMD_AGENT_INFO_COOPERATIVE_QUEUES:
   case HSA_AMD_AGENT_INFO_SVM_DIRECT_HOST_ACCESS:
      *(bool *)value = false;
      return HSA_STATUS_SUCCESS;
   case HSA_AMD_AGENT_INFO_CACHELINE_SIZE:
      *(uint32_t *)value = 64;
      return HSA_STATUS_SUCCESS;
   case HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT:
      *(uint32_t *)value = cpu_count();
      return HSA_STATUS_SUCCESS;
   case HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY:
      *(uint32_t *)value = 0;
      return HSA_STATUS_SUCCESS;
   case HSA_AMD_AGENT_INFO_UUID:
      memset(value, 0, 21);
      strcpy(value, "CPU-XX");
      return HSA_STATUS_SUCCESS;
   default:
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   }
}

/* PRM §2.3.1 hsa_agent_get_info, plus the AMD attributes of hsa_ext_amd.h. */
SIM_EXPORT hsa_status_t
hsa_agent_get_info(hsa_agent_t agent, hsa_agent_info_t attribute, void *value)
{
   SIM_CHECK_INIT();
   const sim_agent *a = sim__agent_get(agent);
   if (!a)
      return HSA_STATUS_ERROR_INVALID_AGENT;
   if (!value)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   switch ((int)attribute) {
   case HSA_AGENT_INFO_MACHINE_MODEL:
      *(hsa_machine_model_t *)value = HSA_MACHINE_MODEL_LARGE;
      return HSA_STATUS_SUCCESS;
   case HSA_AGENT_INFO_PROFILE:
      *(hsa_profile_t *)value = HSA_PROFILE_BASE;
      return HSA_STATUS_SUCCESS;
   case HSA_AGENT_INFO_DEFAULT_FLOAT_ROUNDING_MODE:
      *(hsa_default_float_rounding_mode_t *)value = HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR;
      return HSA_STATUS_SUCCESS;
   case HSA_AGENT_INFO_BASE_PROFILE_DEFAULT_FLOAT_ROUNDING_MODES:
      *(hsa_default_float_rounding_mode_t *)value =
         HSA_DEFAULT_FLOAT_ROUNDING_MODE_ZERO | HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR;
      return HSA_STATUS_SUCCESS;
   case HSA_AGENT_INFO_EXTENSIONS:
      memset(value, 0, 128);
      if (a->kind == SIM_AGENT_GPU) /* the image extension (sim_image.c) */
         ((uint8_t *)value)[HSA_EXTENSION_IMAGES / 8] |= 1u << (HSA_EXTENSION_IMAGES % 8);
      return HSA_STATUS_SUCCESS;
   case HSA_AGENT_INFO_VERSION_MAJOR:
   case HSA_AGENT_INFO_VERSION_MINOR:
      *(uint16_t *)value = 1;
      return HSA_STATUS_SUCCESS;
   default:
      break;
   }
   return a->kind == SIM_AGENT_GPU ? agent_get_info_gpu(a, (int)attribute, value)
                                   : agent_get_info_cpu((int)attribute, value);
}

SIM_EXPORT hsa_status_t
hsa_agent_get_exception_policies(hsa_agent_t agent, hsa_profile_t profile, uint16_t *mask)
{
   SIM_CHECK_INIT();
   enum sim_agent_kind kind;
   if (!sim__agent_from_handle(agent, &kind))
      return HSA_STATUS_ERROR_INVALID_AGENT;
   if (!mask || (profile != HSA_PROFILE_BASE && profile != HSA_PROFILE_FULL))
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   *mask = 0;
   return HSA_STATUS_SUCCESS;
}

/* ---- caches (PRM §2.3.1 hsa_agent_iterate_caches) ------------------------------------- */

static const sim_cache *
cache_from_handle(hsa_cache_t cache)
{
   for (size_t i = 0; i < CACHE_COUNT; i++) {
      if (cache.handle == (uint64_t)(uintptr_t)&caches[i])
         return &caches[i];
   }
   return NULL;
}

SIM_EXPORT hsa_status_t
hsa_agent_iterate_caches(hsa_agent_t agent, hsa_status_t (*callback)(hsa_cache_t cache,
                                                                      void *data),
                         void *data)
{
   SIM_CHECK_INIT();
   enum sim_agent_kind kind;
   if (!sim__agent_from_handle(agent, &kind))
      return HSA_STATUS_ERROR_INVALID_AGENT;
   if (!callback)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   for (size_t i = 0; i < CACHE_COUNT; i++) {
      if (caches[i].owner != kind)
         continue;
      hsa_status_t st = callback((hsa_cache_t){(uint64_t)(uintptr_t)&caches[i]}, data);
      if (st != HSA_STATUS_SUCCESS)
         return st;
   }
   return HSA_STATUS_SUCCESS;
}

SIM_EXPORT hsa_status_t
hsa_cache_get_info(hsa_cache_t cache, hsa_cache_info_t attribute, void *value)
{
   SIM_CHECK_INIT();
   const sim_cache *c = cache_from_handle(cache);
   if (!c)
      return HSA_STATUS_ERROR_INVALID_CACHE;
   if (!value)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   switch (attribute) {
   case HSA_CACHE_INFO_NAME_LENGTH:
      *(uint32_t *)value = (uint32_t)strlen(c->name);
      return HSA_STATUS_SUCCESS;
   case HSA_CACHE_INFO_NAME:
      memcpy(value, c->name, strlen(c->name) + 1);
      return HSA_STATUS_SUCCESS;
   case HSA_CACHE_INFO_LEVEL:
      *(uint8_t *)value = c->level;
      return HSA_STATUS_SUCCESS;
   case HSA_CACHE_INFO_SIZE:
      *(uint32_t *)value = cache_size(c);
      return HSA_STATUS_SUCCESS;
   default:
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   }
}

/* ---- ISA and wavefronts (PRM §2.9.1) -------------------------------------------------- */

/* The target an ISA handle names, or NULL. */
static const sim_target *
isa_target(hsa_isa_t isa)
{
   for (unsigned i = 0; i < SIM_TARGET_COUNT; i++) {
      if (isa.handle == (uint64_t)(uintptr_t)sim__target((sim_target_id)i))
         return sim__target((sim_target_id)i);
   }
   return NULL;
}

static bool
isa_valid(hsa_isa_t isa)
{
   return isa_target(isa) != NULL;
}

SIM_EXPORT hsa_status_t
hsa_agent_iterate_isas(hsa_agent_t agent, hsa_status_t (*callback)(hsa_isa_t isa, void *data),
                       void *data)
{
   SIM_CHECK_INIT();
   enum sim_agent_kind kind;
   if (!sim__agent_from_handle(agent, &kind))
      return HSA_STATUS_ERROR_INVALID_AGENT;
   if (!callback)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   if (kind != SIM_AGENT_GPU)
      return HSA_STATUS_SUCCESS;
   const sim_target *t = sim__gpu_target(sim__agent_get(agent)->gpu);
   return callback((hsa_isa_t){(uint64_t)(uintptr_t)t}, data);
}

/* `name` is target `t`'s ISA: its full target ID, the bare processor name, or the name
 * with one feature setting the agent has ("...--gfx906:xnack-", "...--gfx90a:sramecc+"). */
static bool
isa_name_matches(const sim_target *t, const char *name)
{
   static const char prefix[] = "amdgcn-amd-amdhsa--";
   if (strcmp(name, t->isa_name) == 0)
      return true;
   if (strncmp(name, prefix, sizeof(prefix) - 1) != 0)
      return false;
   const char *proc = name + sizeof(prefix) - 1;
   size_t n = strlen(t->name);
   if (strncmp(proc, t->name, n) != 0)
      return false;
   const char *feat = proc + n;
   if (!*feat)
      return true;
   /* One of the target ID's settings, as it appears in isa_name. */
   const char *in = strstr(t->isa_name, feat);
   return *feat == ':' && in && strchr(feat + 1, ':') == NULL &&
          (in[strlen(feat)] == '\0' || in[strlen(feat)] == ':');
}

/* Accepts the full target ID and the bare processor name (ROCr does the same). */
SIM_EXPORT hsa_status_t
hsa_isa_from_name(const char *name, hsa_isa_t *isa)
{
   SIM_CHECK_INIT();
   if (!name || !isa)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   for (unsigned i = 0; i < SIM_TARGET_COUNT; i++) {
      const sim_target *t = sim__target((sim_target_id)i);
      if (isa_name_matches(t, name)) {
         isa->handle = (uint64_t)(uintptr_t)t;
         return HSA_STATUS_SUCCESS;
      }
   }
   return HSA_STATUS_ERROR_INVALID_ISA_NAME;
}

static hsa_status_t
isa_info(const sim_target *t, hsa_isa_info_t attribute, void *value)
{
   switch (attribute) {
   case HSA_ISA_INFO_NAME_LENGTH:
      /* ROCr counts the NUL terminator; so do we. */
      *(uint32_t *)value = (uint32_t)strlen(t->isa_name) + 1;
      return HSA_STATUS_SUCCESS;
   case HSA_ISA_INFO_NAME:
      memcpy(value, t->isa_name, strlen(t->isa_name) + 1);
      return HSA_STATUS_SUCCESS;
   case HSA_ISA_INFO_CALL_CONVENTION_COUNT:
      *(uint32_t *)value = 1;
      return HSA_STATUS_SUCCESS;
   case HSA_ISA_INFO_CALL_CONVENTION_INFO_WAVEFRONT_SIZE:
      *(uint32_t *)value = t->wave_size;
      return HSA_STATUS_SUCCESS;
   case HSA_ISA_INFO_CALL_CONVENTION_INFO_WAVEFRONTS_PER_COMPUTE_UNIT:
      *(uint32_t *)value = t->simds_per_cu * t->waves_per_simd;
      return HSA_STATUS_SUCCESS;
   case HSA_ISA_INFO_MACHINE_MODELS: {
      bool *m = value;
      m[HSA_MACHINE_MODEL_SMALL] = false;
      m[HSA_MACHINE_MODEL_LARGE] = true;
      return HSA_STATUS_SUCCESS;
   }
   case HSA_ISA_INFO_PROFILES: {
      bool *p = value;
      p[HSA_PROFILE_BASE] = true;
      p[HSA_PROFILE_FULL] = false;
      return HSA_STATUS_SUCCESS;
   }
   case HSA_ISA_INFO_DEFAULT_FLOAT_ROUNDING_MODES:
   case HSA_ISA_INFO_BASE_PROFILE_DEFAULT_FLOAT_ROUNDING_MODES: {
      bool *r = value;
      r[HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT] = false;
      r[HSA_DEFAULT_FLOAT_ROUNDING_MODE_ZERO] = true;
      r[HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR] = true;
      return HSA_STATUS_SUCCESS;
   }
   case HSA_ISA_INFO_FAST_F16_OPERATION:
      *(bool *)value = true;
      return HSA_STATUS_SUCCESS;
   case HSA_ISA_INFO_WORKGROUP_MAX_DIM: {
      uint16_t *d = value;
      d[0] = d[1] = d[2] = GFX9_WORKGROUP_MAX;
      return HSA_STATUS_SUCCESS;
   }
   case HSA_ISA_INFO_WORKGROUP_MAX_SIZE:
      *(uint32_t *)value = GFX9_WORKGROUP_MAX;
      return HSA_STATUS_SUCCESS;
   case HSA_ISA_INFO_GRID_MAX_DIM:
      *(hsa_dim3_t *)value = (hsa_dim3_t){UINT32_MAX, UINT32_MAX, UINT32_MAX};
      return HSA_STATUS_SUCCESS;
   case HSA_ISA_INFO_GRID_MAX_SIZE:
      *(uint64_t *)value = UINT64_MAX;
      return HSA_STATUS_SUCCESS;
   case HSA_ISA_INFO_FBARRIER_MAX_SIZE:
      *(uint32_t *)value = 32;
      return HSA_STATUS_SUCCESS;
   default:
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   }
}

SIM_EXPORT hsa_status_t
hsa_isa_get_info_alt(hsa_isa_t isa, hsa_isa_info_t attribute, void *value)
{
   SIM_CHECK_INIT();
   if (!isa_valid(isa))
      return HSA_STATUS_ERROR_INVALID_ISA;
   if (!value)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   return isa_info(isa_target(isa), attribute, value);
}

SIM_EXPORT hsa_status_t
hsa_isa_get_info(hsa_isa_t isa, hsa_isa_info_t attribute, uint32_t index, void *value)
{
   SIM_CHECK_INIT();
   if (!isa_valid(isa))
      return HSA_STATUS_ERROR_INVALID_ISA;
   if (!value)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   if ((attribute == HSA_ISA_INFO_CALL_CONVENTION_INFO_WAVEFRONT_SIZE ||
        attribute == HSA_ISA_INFO_CALL_CONVENTION_INFO_WAVEFRONTS_PER_COMPUTE_UNIT) &&
       index != 0)
      return HSA_STATUS_ERROR_INVALID_INDEX;
   return isa_info(isa_target(isa), attribute, value);
}

SIM_EXPORT hsa_status_t
hsa_isa_get_exception_policies(hsa_isa_t isa, hsa_profile_t profile, uint16_t *mask)
{
   SIM_CHECK_INIT();
   if (!isa_valid(isa))
      return HSA_STATUS_ERROR_INVALID_ISA;
   if (!mask || (profile != HSA_PROFILE_BASE && profile != HSA_PROFILE_FULL))
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   *mask = 0;
   return HSA_STATUS_SUCCESS;
}

SIM_EXPORT hsa_status_t
hsa_isa_get_round_method(hsa_isa_t isa, hsa_fp_type_t fp_type, hsa_flush_mode_t flush_mode,
                         hsa_round_method_t *round_method)
{
   SIM_CHECK_INIT();
   if (!isa_valid(isa))
      return HSA_STATUS_ERROR_INVALID_ISA;
   if (!round_method)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   *round_method = HSA_ROUND_METHOD_SINGLE;
   return HSA_STATUS_SUCCESS;
}

SIM_EXPORT hsa_status_t
hsa_isa_compatible(hsa_isa_t code_object_isa, hsa_isa_t agent_isa, bool *result)
{
   SIM_CHECK_INIT();
   if (!isa_valid(code_object_isa) || !isa_valid(agent_isa))
      return HSA_STATUS_ERROR_INVALID_ISA;
   if (!result)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   *result = code_object_isa.handle == agent_isa.handle;
   return HSA_STATUS_SUCCESS;
}

SIM_EXPORT hsa_status_t
hsa_isa_iterate_wavefronts(hsa_isa_t isa,
                           hsa_status_t (*callback)(hsa_wavefront_t wavefront, void *data),
                           void *data)
{
   SIM_CHECK_INIT();
   if (!isa_valid(isa))
      return HSA_STATUS_ERROR_INVALID_ISA;
   if (!callback)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   return callback((hsa_wavefront_t){(uint64_t)(uintptr_t)&wavefront_object}, data);
}

SIM_EXPORT hsa_status_t
hsa_wavefront_get_info(hsa_wavefront_t wavefront, hsa_wavefront_info_t attribute, void *value)
{
   SIM_CHECK_INIT();
   if (wavefront.handle != (uint64_t)(uintptr_t)&wavefront_object)
      return HSA_STATUS_ERROR_INVALID_WAVEFRONT;
   if (!value || attribute != HSA_WAVEFRONT_INFO_SIZE)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   *(uint32_t *)value = 64;
   return HSA_STATUS_SUCCESS;
}

/* ---- memory pools (hsa_ext_amd.h "Memory pools") -------------------------------------- */

SIM_EXPORT hsa_status_t
hsa_amd_agent_iterate_memory_pools(hsa_agent_t agent,
                                   hsa_status_t (*callback)(hsa_amd_memory_pool_t memory_pool,
                                                            void *data),
                                   void *data)
{
   SIM_CHECK_INIT();
   const sim_agent *a = sim__agent_get(agent);
   if (!a)
      return HSA_STATUS_ERROR_INVALID_AGENT;
   if (!callback)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   for (uint32_t i = 0; i < POOL_COUNT; i++) {
      if (!pool_of_agent(&pools[i], a))
         continue;
      hsa_status_t st = callback(sim__pool_handle(&pools[i]), data);
      if (st != HSA_STATUS_SUCCESS)
         return st;
   }
   return HSA_STATUS_SUCCESS;
}

SIM_EXPORT hsa_status_t
hsa_amd_memory_pool_get_info(hsa_amd_memory_pool_t memory_pool,
                             hsa_amd_memory_pool_info_t attribute, void *value)
{
   SIM_CHECK_INIT();
   const sim_pool *p = sim__pool_from_handle(memory_pool.handle);
   if (!p)
      return (hsa_status_t)HSA_STATUS_ERROR_INVALID_MEMORY_POOL;
   if (!value)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   switch (attribute) {
   case HSA_AMD_MEMORY_POOL_INFO_SEGMENT:
      *(hsa_amd_segment_t *)value = p->segment;
      return HSA_STATUS_SUCCESS;
   case HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS:
      *(uint32_t *)value = p->global_flags;
      return HSA_STATUS_SUCCESS;
   case HSA_AMD_MEMORY_POOL_INFO_SIZE:
      *(size_t *)value = pool_size(p);
      return HSA_STATUS_SUCCESS;
   case HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED:
      *(bool *)value = p->alloc_allowed;
      return HSA_STATUS_SUCCESS;
   case HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE:
   case HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALIGNMENT:
      *(size_t *)value = p->alloc_allowed ? SIM_PAGE_SIZE : 0;
      return HSA_STATUS_SUCCESS;
   case HSA_AMD_MEMORY_POOL_INFO_ACCESSIBLE_BY_ALL:
      *(bool *)value = p->owner == SIM_AGENT_CPU;
      return HSA_STATUS_SUCCESS;
   case HSA_AMD_MEMORY_POOL_INFO_ALLOC_MAX_SIZE:
      *(size_t *)value = p->alloc_allowed ? pool_size(p) : 0;
      return HSA_STATUS_SUCCESS;
   default:
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   }
}

/* What ROCr answers over a KFD with PCIe links both ways (amd_memory_region.cpp
 * MemoryRegion::GetAccessInfo, rocm-5.2.3): an agent's own pools are allowed by default;
 * system memory and another GPU's coarse-grained device memory are "disallowed by default"
 * (the GPU reaches system memory all the same: the KFD maps it to every GPU, and so does
 * this runtime); nobody else reaches a GPU's LDS. */
static hsa_amd_memory_pool_access_t
pool_access(const sim_agent *a, const sim_pool *p)
{
   if (pool_of_agent(p, a))
      return HSA_AMD_MEMORY_POOL_ACCESS_ALLOWED_BY_DEFAULT;
   if (p->segment != HSA_AMD_SEGMENT_GLOBAL)
      return HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED;
   return HSA_AMD_MEMORY_POOL_ACCESS_DISALLOWED_BY_DEFAULT;
}

SIM_EXPORT hsa_status_t
hsa_amd_agent_memory_pool_get_info(hsa_agent_t agent, hsa_amd_memory_pool_t memory_pool,
                                   hsa_amd_agent_memory_pool_info_t attribute, void *value)
{
   SIM_CHECK_INIT();
   const sim_agent *a = sim__agent_get(agent);
   if (!a)
      return HSA_STATUS_ERROR_INVALID_AGENT;
   const sim_pool *p = sim__pool_from_handle(memory_pool.handle);
   if (!p)
      return (hsa_status_t)HSA_STATUS_ERROR_INVALID_MEMORY_POOL;
   if (!value)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   hsa_amd_memory_pool_access_t access = pool_access(a, p);
   bool remote = !pool_of_agent(p, a) && access != HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED;
   switch (attribute) {
   case HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS:
      *(hsa_amd_memory_pool_access_t *)value = access;
      return HSA_STATUS_SUCCESS;
   case HSA_AMD_AGENT_MEMORY_POOL_INFO_NUM_LINK_HOPS:
      *(uint32_t *)value = remote ? 1 : 0;
      return HSA_STATUS_SUCCESS;
   case HSA_AMD_AGENT_MEMORY_POOL_INFO_LINK_INFO:
      if (remote) {
         hsa_amd_memory_pool_link_info_t *l = value;
         memset(l, 0, sizeof(*l));
         l->min_latency = 0;
         l->max_latency = 0;
         l->min_bandwidth = 0;
         l->max_bandwidth = 16000; /* PCIe 3.0 x16, MB/s */
         l->atomic_support_32bit = true;
         l->atomic_support_64bit = true;
         l->coherent_support = false;
         l->link_type = HSA_AMD_LINK_INFO_TYPE_PCIE;
         /* The KFD's link weights: 20 CPU<->GPU, 40 GPU<->GPU (kfd_topology.c). */
         l->numa_distance = a->kind == SIM_AGENT_GPU && p->owner == SIM_AGENT_GPU ? 40 : 20;
      }
      return HSA_STATUS_SUCCESS;
   default:
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   }
}

SIM_EXPORT hsa_status_t
hsa_amd_memory_pool_can_migrate(hsa_amd_memory_pool_t src_memory_pool,
                                hsa_amd_memory_pool_t dst_memory_pool, bool *result)
{
   SIM_CHECK_INIT();
   if (!sim__pool_from_handle(src_memory_pool.handle) ||
       !sim__pool_from_handle(dst_memory_pool.handle))
      return (hsa_status_t)HSA_STATUS_ERROR_INVALID_MEMORY_POOL;
   if (!result)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   *result = false;
   return HSA_STATUS_SUCCESS;
}

/* ---- regions (PRM §2.8.1): the same objects as the pools ----------------------------- */

SIM_EXPORT hsa_status_t
hsa_agent_iterate_regions(hsa_agent_t agent,
                          hsa_status_t (*callback)(hsa_region_t region, void *data), void *data)
{
   SIM_CHECK_INIT();
   const sim_agent *a = sim__agent_get(agent);
   if (!a)
      return HSA_STATUS_ERROR_INVALID_AGENT;
   if (!callback)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   /* As ROCr's GpuAgent::VisitRegion(include_peer): a GPU lists the system regions it
    * reaches after its own, and only the first GPU (ROCr's "blit agent") lists its own. */
   const sim_pool *list[SYSTEM_POOL_COUNT + 2];
   uint32_t n = 0;
   if (a->kind == SIM_AGENT_CPU || a->gpu == 0) {
      for (uint32_t i = 0; i < POOL_COUNT; i++)
         if (pool_of_agent(&pools[i], a))
            list[n++] = &pools[i];
   }
   if (a->kind == SIM_AGENT_GPU) {
      for (uint32_t i = 0; i < SYSTEM_POOL_COUNT; i++)
         list[n++] = &pools[i];
   }
   for (uint32_t i = 0; i < n; i++) {
      hsa_status_t st = callback((hsa_region_t){(uint64_t)(uintptr_t)list[i]}, data);
      if (st != HSA_STATUS_SUCCESS)
         return st;
   }
   return HSA_STATUS_SUCCESS;
}

SIM_EXPORT hsa_status_t
hsa_region_get_info(hsa_region_t region, hsa_region_info_t attribute, void *value)
{
   SIM_CHECK_INIT();
   const sim_pool *p = sim__pool_from_handle(region.handle);
   if (!p)
      return HSA_STATUS_ERROR_INVALID_REGION;
   if (!value)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   switch ((int)attribute) {
   case HSA_REGION_INFO_SEGMENT:
      *(hsa_region_segment_t *)value = p->segment == HSA_AMD_SEGMENT_GROUP
                                          ? HSA_REGION_SEGMENT_GROUP
                                          : HSA_REGION_SEGMENT_GLOBAL;
      return HSA_STATUS_SUCCESS;
   case HSA_REGION_INFO_GLOBAL_FLAGS: {
      uint32_t f = 0;
      if (p->global_flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT)
         f |= HSA_REGION_GLOBAL_FLAG_KERNARG;
      if (p->global_flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED)
         f |= HSA_REGION_GLOBAL_FLAG_FINE_GRAINED;
      if (p->global_flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED)
         f |= HSA_REGION_GLOBAL_FLAG_COARSE_GRAINED;
      *(uint32_t *)value = f;
      return HSA_STATUS_SUCCESS;
   }
   case HSA_REGION_INFO_SIZE:
      *(size_t *)value = pool_size(p);
      return HSA_STATUS_SUCCESS;
   case HSA_REGION_INFO_ALLOC_MAX_SIZE:
      *(size_t *)value = p->alloc_allowed ? pool_size(p) : 0;
      return HSA_STATUS_SUCCESS;
   case HSA_REGION_INFO_ALLOC_MAX_PRIVATE_WORKGROUP_SIZE:
      *(uint32_t *)value = GFX9_WORKGROUP_MAX;
      return HSA_STATUS_SUCCESS;
   case HSA_REGION_INFO_RUNTIME_ALLOC_ALLOWED:
      *(bool *)value = p->alloc_allowed;
      return HSA_STATUS_SUCCESS;
   case HSA_REGION_INFO_RUNTIME_ALLOC_GRANULE:
   case HSA_REGION_INFO_RUNTIME_ALLOC_ALIGNMENT:
      *(size_t *)value = p->alloc_allowed ? SIM_PAGE_SIZE : 0;
      return HSA_STATUS_SUCCESS;
   case HSA_AMD_REGION_INFO_HOST_ACCESSIBLE:
      *(bool *)value = p->owner == SIM_AGENT_CPU;
      return HSA_STATUS_SUCCESS;
   case HSA_AMD_REGION_INFO_BASE:
      *(void **)value = NULL;
      return HSA_STATUS_SUCCESS;
   case HSA_AMD_REGION_INFO_BUS_WIDTH:
      *(uint32_t *)value = p->owner == SIM_AGENT_GPU ? sim__gpu_target(p->gpu)->memory_width : 0;
      return HSA_STATUS_SUCCESS;
   case HSA_AMD_REGION_INFO_MAX_CLOCK_FREQUENCY:
      *(uint32_t *)value = p->owner == SIM_AGENT_GPU ? sim__gpu_target(p->gpu)->memory_mhz : 0;
      return HSA_STATUS_SUCCESS;
   default:
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   }
}
