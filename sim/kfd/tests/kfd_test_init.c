/*
 * kfd_test_init — AMD's ROCr 5.2.3 starts on the software KFD: hsa_init/hsa_shut_down
 * cycles, the agents (one CPU, HSACL_KFD_GPUS gfx906 GPUs with their ISA and the KFD's
 * names), every memory pool of every agent (allocation of every allocatable one, access
 * grants, host reads and writes where the host may access, pointer info, free), and
 * locking host memory (hsaKmtRegisterMemoryWithFlags + MapMemoryToGPUNodes); and the GPU as
 * ROCr reports it, the figures rocminfo prints for the board HSACL_KFD_BOARD names (a
 * Radeon VII by default, an MI50): shader engines and arrays, SIMDs, waves, caches and cache
 * line, LDS, watch points, PCI id, engine clock, and the ISA's sramecc/xnack settings.
 */
#include <stdint.h>

#include "kfd_test_common.h"

static unsigned isa_count;
static char isa_name[128];

static hsa_status_t
isa_cb(hsa_isa_t isa, void *data)
{
   char name[128] = {0};
   uint32_t len = 0;
   CHECK_HSA(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME_LENGTH, &len));
   CHECK(len < sizeof(name));
   CHECK_HSA(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME, name));
   CHECK(strncmp(name, "amdgcn-amd-amdhsa--gfx906", 25) == 0);
   memcpy(isa_name, name, sizeof(name));
   isa_count++;
   return HSA_STATUS_SUCCESS;
}

typedef struct pool_walk {
   kfd_test_env *env;
   hsa_agent_t owner;
   unsigned pools, allocatable;
} pool_walk;

static hsa_status_t
pool_cb(hsa_amd_memory_pool_t pool, void *data)
{
   pool_walk *w = data;
   w->pools++;
   hsa_amd_segment_t segment;
   bool alloc = false;
   size_t size = 0, granule = 0;
   CHECK_HSA(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &segment));
   CHECK_HSA(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SIZE, &size));
   CHECK(size > 0);
   if (segment == HSA_AMD_SEGMENT_GROUP)
      return HSA_STATUS_SUCCESS;
   CHECK_HSA(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED,
                                          &alloc));
   if (!alloc)
      return HSA_STATUS_SUCCESS;
   w->allocatable++;
   CHECK_HSA(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE,
                                          &granule));
   CHECK(granule >= 4096);
   /* The GPUs must be able to reach system memory (a PCIe link each way). */
   for (unsigned g = 0; g < w->env->ngpus; g++) {
      hsa_amd_memory_pool_access_t access;
      CHECK_HSA(hsa_amd_agent_memory_pool_get_info(w->env->gpus[g], pool,
                                                   HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS,
                                                   &access));
      CHECK(access != HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED);
   }
   static const size_t sizes[] = {64, 4096, 3 << 20};
   for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
      uint8_t *p = kfd_test_alloc(w->env, pool, sizes[i]);
      memset(p, 0x5a, sizes[i]);
      CHECK(p[0] == 0x5a && p[sizes[i] - 1] == 0x5a);
      hsa_amd_pointer_info_t info = {.size = sizeof(info)};
      CHECK_HSA(hsa_amd_pointer_info(p + 1, &info, NULL, NULL, NULL));
      CHECK(info.type == HSA_EXT_POINTER_TYPE_HSA);
      CHECK(info.agentBaseAddress == p && info.sizeInBytes >= sizes[i]);
      CHECK(info.agentOwner.handle == w->owner.handle);
      CHECK_HSA(hsa_amd_memory_pool_free(p));
   }
   return HSA_STATUS_SUCCESS;
}

/* What rocminfo prints for the board (HSACL_KFD_BOARD). */
typedef struct board {
   const char *name;
   uint32_t chip_id, clock_mhz;
   const char *isa;
} board;

static const board boards[] = {
   {"radeon-vii", 0x66af, 1801, "amdgcn-amd-amdhsa--gfx906:sramecc-:xnack-"},
   {"mi50", 0x66a1, 1725, "amdgcn-amd-amdhsa--gfx906:sramecc+:xnack-"},
};

static uint32_t
agent_u32(hsa_agent_t a, int attribute)
{
   uint32_t v = 0;
   CHECK_HSA(hsa_agent_get_info(a, (hsa_agent_info_t)attribute, &v));
   return v;
}

static void
check_board(hsa_agent_t gpu)
{
   const char *e = getenv("HSACL_KFD_BOARD");
   const board *b = &boards[e && strcmp(e, "mi50") == 0];
   CHECK(agent_u32(gpu, HSA_AMD_AGENT_INFO_NUM_SHADER_ENGINES) == 4);
   CHECK(agent_u32(gpu, HSA_AMD_AGENT_INFO_NUM_SHADER_ARRAYS_PER_SE) == 1);
   CHECK(agent_u32(gpu, HSA_AMD_AGENT_INFO_NUM_SIMDS_PER_CU) == 4);
   CHECK(agent_u32(gpu, HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU) == 40);
   CHECK(agent_u32(gpu, HSA_AMD_AGENT_INFO_CACHELINE_SIZE) == 64);
   CHECK(agent_u32(gpu, HSA_AMD_AGENT_INFO_MAX_ADDRESS_WATCH_POINTS) == 4);
   CHECK(agent_u32(gpu, HSA_AMD_AGENT_INFO_CHIP_ID) == b->chip_id);
   CHECK(agent_u32(gpu, HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY) == b->clock_mhz);
   uint32_t caches[4];
   CHECK_HSA(hsa_agent_get_info(gpu, HSA_AGENT_INFO_CACHE_SIZE, caches));
   CHECK(caches[0] == 16 * 1024 && caches[1] == 8192 * 1024 && caches[2] == 0);
   CHECK(strcmp(isa_name, b->isa) == 0);
   printf("board %s: chip 0x%x, %u MHz, %s\n", b->name, b->chip_id, b->clock_mhz, isa_name);
}

static void
check_agents(kfd_test_env *env, unsigned want_gpus)
{
   CHECK(env->ngpus == want_gpus);
   char name[64];
   CHECK_HSA(hsa_agent_get_info(env->cpu, HSA_AGENT_INFO_NAME, name));
   for (unsigned g = 0; g < env->ngpus; g++) {
      CHECK_HSA(hsa_agent_get_info(env->gpus[g], HSA_AGENT_INFO_NAME, name));
      CHECK(strcmp(name, "gfx906") == 0);
      char product[64] = {0};
      CHECK_HSA(hsa_agent_get_info(env->gpus[g],
                                   (hsa_agent_info_t)HSA_AMD_AGENT_INFO_PRODUCT_NAME, product));
      CHECK(strcmp(product, "hsacl software gfx906") == 0); /* ours, not a real thunk */
      uint32_t cus = 0, wave = 0;
      CHECK_HSA(hsa_agent_get_info(env->gpus[g],
                                   (hsa_agent_info_t)HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT, &cus));
      CHECK(cus == 60);
      CHECK_HSA(hsa_agent_get_info(env->gpus[g], HSA_AGENT_INFO_WAVEFRONT_SIZE, &wave));
      CHECK(wave == 64);
      isa_count = 0;
      CHECK_HSA(hsa_agent_iterate_isas(env->gpus[g], isa_cb, NULL));
      CHECK(isa_count == 1);
      check_board(env->gpus[g]);
      uint16_t ts_freq_ok = 0;
      uint64_t freq = 0;
      CHECK_HSA(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &freq));
      ts_freq_ok = freq == 1000000000ull;
      CHECK(ts_freq_ok);
   }
   /* Every pool of every agent. */
   pool_walk cpu_walk = {env, env->cpu, 0, 0};
   CHECK_HSA(hsa_amd_agent_iterate_memory_pools(env->cpu, pool_cb, &cpu_walk));
   CHECK(cpu_walk.allocatable == 3); /* fine-grained, kernarg, coarse-grained */
   for (unsigned g = 0; g < env->ngpus; g++) {
      pool_walk gpu_walk = {env, env->gpus[g], 0, 0};
      CHECK_HSA(hsa_amd_agent_iterate_memory_pools(env->gpus[g], pool_cb, &gpu_walk));
      CHECK(gpu_walk.allocatable >= 1); /* VRAM */
      CHECK(gpu_walk.pools >= 2);       /* and the group segment */
   }
}

static void
check_lock(kfd_test_env *env)
{
   size_t size = 3 * 4096 + 100;
   uint8_t *host = malloc(size);
   CHECK(host);
   void *agent_ptr = NULL;
   CHECK_HSA(hsa_amd_memory_lock(host + 10, size - 10, env->gpus, (int)env->ngpus, &agent_ptr));
   CHECK(agent_ptr == host + 10); /* GPU VA == CPU VA */
   hsa_amd_pointer_info_t info = {.size = sizeof(info)};
   CHECK_HSA(hsa_amd_pointer_info(host + 20, &info, NULL, NULL, NULL));
   CHECK(info.type == HSA_EXT_POINTER_TYPE_LOCKED);
   CHECK(info.hostBaseAddress == host + 10);
   CHECK_HSA(hsa_amd_memory_unlock(host + 10));
   info.size = sizeof(info);
   CHECK_HSA(hsa_amd_pointer_info(host + 20, &info, NULL, NULL, NULL));
   CHECK(info.type == HSA_EXT_POINTER_TYPE_UNKNOWN);
   free(host);
}

int
main(void)
{
   const char *e = getenv("HSACL_KFD_GPUS");
   unsigned want = e && *e ? (unsigned)atoi(e) : 1;
   for (int cycle = 0; cycle < 3; cycle++) {
      CHECK_HSA(hsa_init());
      kfd_test_env env;
      kfd_test_env_init(&env);
      check_agents(&env, want);
      check_lock(&env);
      CHECK_HSA(hsa_shut_down());
   }
   /* Nested init: two references, two shut-downs. */
   CHECK_HSA(hsa_init());
   CHECK_HSA(hsa_init());
   CHECK_HSA(hsa_shut_down());
   CHECK_HSA(hsa_shut_down());
   CHECK(hsa_shut_down() == HSA_STATUS_ERROR_NOT_INITIALIZED);
   printf("kfd_test_init: ok (%u GPU(s), 3 init cycles)\n", want);
   return 0;
}
