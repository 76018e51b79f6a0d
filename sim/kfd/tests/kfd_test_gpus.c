/*
 * kfd_test_gpus — several GPUs through the HSA API, on both runtimes: linked against
 * Debian's ROCr, it runs on ROCr over the software KFD (LD_LIBRARY_PATH=<build>/sim/kfd) and
 * on the software HSA runtime (LD_LIBRARY_PATH=<build>/sim, whose libhsa-runtime64.so.1 is
 * libhsacl-sim.so), both with HSACL_KFD_GPUS = argv[2] (or HSACL_SIM_GPUS naming that many
 * targets: each agent must be the target its entry names, with that target's ISA):
 *   - one CPU and that many GPU agents, each with its own node id, UUID and PCI location;
 *   - per GPU its own coarse-grained device pool and group pool, the CPU's system pools
 *     shared; the access each agent has to each pool; regions as ROCr lists them;
 *   - hsa_amd_agents_allow_access per agent: pointer info names the owner and the agents;
 *   - async copies host -> GPU 0 -> GPU 1 -> host (src/dst agents), bytes checked;
 *   - one code object loaded for every GPU (symbols per agent), a queue per GPU: a kernel
 *     on GPU 1 waits behind a barrier-AND on GPU 0's completion signal and reads what GPU 0
 *     wrote; then kernels on every GPU at once.
 * Lines starting with "id:" describe what the runtime reports; kfd_test_gpus_same.sh
 * checks that both runtimes print the same ones.
 *
 * argv[1]: sim/tests' k.hsaco, or a path with "%s" where each agent's name goes (k-%s.hsaco:
 * k-gfx906.hsaco for a gfx906, k-gfx90a.hsaco for a gfx90a); argv[2]: the number of GPUs
 * expected.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <unistd.h>

#include "kfd_test_common.h"

static hsa_status_t
region_count_cb(hsa_region_t region, void *data)
{
   hsa_region_segment_t seg;
   CHECK_HSA(hsa_region_get_info(region, HSA_REGION_INFO_SEGMENT, &seg));
   ((unsigned *)data)[seg == HSA_REGION_SEGMENT_GLOBAL ? 0 : 1]++;
   return HSA_STATUS_SUCCESS;
}

typedef struct gpu_pools {
   hsa_amd_memory_pool_t vram, group;
   unsigned count;
} gpu_pools;

static hsa_status_t
gpu_pool_cb(hsa_amd_memory_pool_t pool, void *data)
{
   gpu_pools *p = data;
   hsa_amd_segment_t segment;
   CHECK_HSA(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &segment));
   p->count++;
   if (segment == HSA_AMD_SEGMENT_GROUP) {
      p->group = pool;
   } else if (segment == HSA_AMD_SEGMENT_GLOBAL) {
      uint32_t flags;
      CHECK_HSA(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS,
                                             &flags));
      if ((flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED) && !p->vram.handle)
         p->vram = pool;
   }
   return HSA_STATUS_SUCCESS;
}

static const char *
access_name(hsa_amd_memory_pool_access_t a)
{
   return a == HSA_AMD_MEMORY_POOL_ACCESS_ALLOWED_BY_DEFAULT      ? "allowed"
          : a == HSA_AMD_MEMORY_POOL_ACCESS_DISALLOWED_BY_DEFAULT ? "disallowed"
                                                                  : "never";
}

static hsa_amd_memory_pool_access_t
access_of(hsa_agent_t agent, hsa_amd_memory_pool_t pool)
{
   hsa_amd_memory_pool_access_t a;
   CHECK_HSA(hsa_amd_agent_memory_pool_get_info(agent, pool,
                                                HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS, &a));
   return a;
}

/* The name GPU `g` must have: HSACL_SIM_GPUS's entry g, else gfx906. */
static void
expected_name(unsigned g, char *out, size_t n)
{
   const char *list = getenv("HSACL_SIM_GPUS");
   snprintf(out, n, "gfx906");
   if (!list || !*list)
      return;
   for (unsigned i = 0; i < g && list; i++) {
      list = strchr(list, ',');
      list = list ? list + 1 : NULL;
   }
   CHECK(list != NULL);
   snprintf(out, n, "%.*s", (int)strcspn(list, ","), list);
}

/* The agent's ISA name (ROCr builds it from the KFD's EngineId and SRAM ECC capability). */
static void
isa_name(hsa_agent_t a, char *out, size_t n)
{
   hsa_isa_t isa;
   uint32_t len;
   CHECK_HSA(hsa_agent_get_info(a, HSA_AGENT_INFO_ISA, &isa));
   CHECK_HSA(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME_LENGTH, &len));
   CHECK(len <= n);
   CHECK_HSA(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME, out));
}

static void
test_identity(kfd_test_env *env, gpu_pools *pools)
{
   char uuids[KFD_TEST_MAX_AGENTS][24];
   uint32_t bdfs[KFD_TEST_MAX_AGENTS];
   for (unsigned g = 0; g < env->ngpus; g++) {
      hsa_agent_t a = env->gpus[g];
      uint32_t node, driver_node, bdf, chip, cus;
      char name[64], product[64], uuid[24] = {0}, want[64], isa[128], isa_want[128];
      CHECK_HSA(hsa_agent_get_info(a, HSA_AGENT_INFO_NODE, &node));
      CHECK_HSA(hsa_agent_get_info(a, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_DRIVER_NODE_ID,
                                   &driver_node));
      CHECK_HSA(hsa_agent_get_info(a, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_BDFID, &bdf));
      CHECK_HSA(hsa_agent_get_info(a, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_CHIP_ID, &chip));
      CHECK_HSA(hsa_agent_get_info(a, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT,
                                   &cus));
      CHECK_HSA(hsa_agent_get_info(a, HSA_AGENT_INFO_NAME, name));
      CHECK_HSA(hsa_agent_get_info(a, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_PRODUCT_NAME,
                                   product));
      CHECK_HSA(hsa_agent_get_info(a, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_UUID, uuid));
      /* The KFD's node ids: node 0 is the CPU, the GPUs follow in order. */
      CHECK(node == g + 1 && driver_node == node);
      CHECK(strncmp(uuid, "GPU-", 4) == 0 && strlen(uuid) == 20);
      expected_name(g, want, sizeof(want));
      CHECK(strcmp(name, want) == 0);
      isa_name(a, isa, sizeof(isa));
      snprintf(isa_want, sizeof(isa_want), "amdgcn-amd-amdhsa--%s:", want);
      CHECK(strncmp(isa, isa_want, strlen(isa_want)) == 0);
      for (unsigned h = 0; h < g; h++)
         CHECK(strcmp(uuids[h], uuid) != 0 && bdfs[h] != bdf);
      memcpy(uuids[g], uuid, sizeof(uuid));
      bdfs[g] = bdf;
      printf("id: gpu %u node %u uuid %s bdf 0x%x chip 0x%x cus %u name %s isa %s product "
             "\"%s\"\n", g, node, uuid, bdf, chip, cus, name, isa, product);

      /* Its own pools: a device pool and a group pool, distinct from every other GPU's. */
      memset(&pools[g], 0, sizeof(pools[g]));
      CHECK_HSA(hsa_amd_agent_iterate_memory_pools(a, gpu_pool_cb, &pools[g]));
      CHECK(pools[g].vram.handle && pools[g].group.handle);
      for (unsigned h = 0; h < g; h++)
         CHECK(pools[h].vram.handle != pools[g].vram.handle &&
               pools[h].group.handle != pools[g].group.handle);
      size_t size;
      bool alloc;
      CHECK_HSA(hsa_amd_memory_pool_get_info(pools[g].vram, HSA_AMD_MEMORY_POOL_INFO_SIZE,
                                             &size));
      CHECK_HSA(hsa_amd_memory_pool_get_info(
         pools[g].vram, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED, &alloc));
      CHECK(size >= (64u << 20) && alloc);
      unsigned regions[2] = {0, 0};
      CHECK_HSA(hsa_agent_iterate_regions(a, region_count_cb, regions));
      /* ROCr lists the system regions for every GPU, its own only for the first. */
      CHECK(regions[0] >= 3 && regions[1] == (g == 0));
      printf("id: gpu %u pools %u global regions %u group regions %u\n", g, pools[g].count,
             regions[0], regions[1]);
   }
   /* Who reaches what (ROCr's MemoryRegion::GetAccessInfo): own pools by default, system
    * memory and another GPU's device memory after allow_access, nobody another GPU's LDS. */
   for (unsigned g = 0; g < env->ngpus; g++) {
      CHECK(access_of(env->gpus[g], env->system_pool) ==
            HSA_AMD_MEMORY_POOL_ACCESS_DISALLOWED_BY_DEFAULT);
      CHECK(access_of(env->cpu, env->system_pool) ==
            HSA_AMD_MEMORY_POOL_ACCESS_ALLOWED_BY_DEFAULT);
      CHECK(access_of(env->gpus[g], pools[g].vram) ==
            HSA_AMD_MEMORY_POOL_ACCESS_ALLOWED_BY_DEFAULT);
      for (unsigned h = 0; h < env->ngpus; h++) {
         if (h == g)
            continue;
         CHECK(access_of(env->gpus[g], pools[h].vram) ==
               HSA_AMD_MEMORY_POOL_ACCESS_DISALLOWED_BY_DEFAULT);
         CHECK(access_of(env->gpus[g], pools[h].group) ==
               HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED);
      }
      printf("id: access cpu->gpu%u vram %s\n", g, access_name(access_of(env->cpu,
                                                                           pools[g].vram)));
   }
   /* The links: hops and NUMA distance GPU 0 -> system memory and -> GPU 1's memory. */
   hsa_amd_memory_pool_t to[2] = {env->system_pool, pools[1].vram};
   for (int i = 0; i < 2; i++) {
      uint32_t hops;
      hsa_amd_memory_pool_link_info_t link;
      CHECK_HSA(hsa_amd_agent_memory_pool_get_info(
         env->gpus[0], to[i], HSA_AMD_AGENT_MEMORY_POOL_INFO_NUM_LINK_HOPS, &hops));
      CHECK_HSA(hsa_amd_agent_memory_pool_get_info(
         env->gpus[0], to[i], HSA_AMD_AGENT_MEMORY_POOL_INFO_LINK_INFO, &link));
      CHECK(hops == 1 && link.link_type == HSA_AMD_LINK_INFO_TYPE_PCIE);
      printf("id: link gpu0->%s hops %u numa %u\n", i ? "gpu1 vram" : "system", hops,
             link.numa_distance);
   }
}

static bool
has_agent(const hsa_agent_t *list, uint32_t n, hsa_agent_t a)
{
   for (uint32_t i = 0; i < n; i++)
      if (list[i].handle == a.handle)
         return true;
   return false;
}

static void
test_allow_access(kfd_test_env *env, gpu_pools *pools)
{
   /* GPU 0's memory, granted to the CPU and GPU 1: pointer info names GPU 0 as the owner
    * and both GPUs (and the CPU) as agents that reach it. */
   void *p;
   CHECK_HSA(hsa_amd_memory_pool_allocate(pools[0].vram, 65536, 0, &p));
   hsa_agent_t grant[2] = {env->cpu, env->gpus[1]};
   CHECK_HSA(hsa_amd_agents_allow_access(2, grant, NULL, p));
   hsa_amd_pointer_info_t info = {.size = sizeof(info)};
   uint32_t n = 0;
   hsa_agent_t *agents = NULL;
   CHECK_HSA(hsa_amd_pointer_info((char *)p + 100, &info, malloc, &n, &agents));
   CHECK(info.type == HSA_EXT_POINTER_TYPE_HSA);
   CHECK(info.agentBaseAddress == p && info.sizeInBytes >= 65536);
   CHECK(info.agentOwner.handle == env->gpus[0].handle);
   CHECK(has_agent(agents, n, env->gpus[0]) && has_agent(agents, n, env->gpus[1]));
   for (unsigned g = 2; g < env->ngpus; g++)
      CHECK(!has_agent(agents, n, env->gpus[g]));
   printf("id: allow_access gpu0 memory to cpu+gpu1: %u agents, cpu %s\n", n,
          has_agent(agents, n, env->cpu) ? "yes" : "no");
   free(agents);
   /* Memory of GPU 1's pool is owned by GPU 1. */
   void *q;
   CHECK_HSA(hsa_amd_memory_pool_allocate(pools[1].vram, 4096, 0, &q));
   CHECK_HSA(hsa_amd_pointer_info(q, &info, NULL, NULL, NULL));
   CHECK(info.agentOwner.handle == env->gpus[1].handle);
   CHECK_HSA(hsa_amd_memory_pool_free(q));
   CHECK_HSA(hsa_amd_memory_pool_free(p));
}

static void
copy_wait(void *dst, hsa_agent_t dst_agent, const void *src, hsa_agent_t src_agent,
          size_t size)
{
   hsa_signal_t done;
   CHECK_HSA(hsa_signal_create(1, 0, NULL, &done));
   CHECK_HSA(hsa_amd_memory_async_copy(dst, dst_agent, src, src_agent, size, 0, NULL, done));
   CHECK(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_LT, 1, 10000000000ull,
                                   HSA_WAIT_STATE_BLOCKED) == 0);
   CHECK_HSA(hsa_signal_destroy(done));
}

/* Host -> GPU 0 -> GPU 1 -> host: each copy names the agents of its two ends. */
static void
test_copies(kfd_test_env *env, gpu_pools *pools)
{
   const size_t size = (1u << 20) + 12;
   uint8_t *host = kfd_test_alloc(env, env->system_pool, size);
   uint8_t *back = kfd_test_alloc(env, env->system_pool, size);
   uint8_t *v0 = kfd_test_alloc(env, pools[0].vram, size);
   uint8_t *v1 = kfd_test_alloc(env, pools[1].vram, size);
   for (size_t i = 0; i < size; i++) {
      host[i] = (uint8_t)(i * 7 + 3);
      back[i] = 0;
   }
   copy_wait(v0, env->gpus[0], host, env->cpu, size);
   copy_wait(v1, env->gpus[1], v0, env->gpus[0], size);
   copy_wait(back, env->cpu, v1, env->gpus[1], size);
   size_t bad = 0;
   for (size_t i = 0; i < size; i++)
      bad += back[i] != (uint8_t)(i * 7 + 3);
   CHECK(bad == 0);
   printf("copies: host -> gpu0 -> gpu1 -> host, %zu bytes\n", size);
   CHECK_HSA(hsa_amd_memory_pool_free(v1));
   CHECK_HSA(hsa_amd_memory_pool_free(v0));
   CHECK_HSA(hsa_amd_memory_pool_free(back));
   CHECK_HSA(hsa_amd_memory_pool_free(host));
}

/* A barrier-AND packet waiting on `dep` (header last, doorbell). */
static void
barrier_and(hsa_queue_t *q, hsa_signal_t dep)
{
   uint64_t index = hsa_queue_add_write_index_scacq_screl(q, 1);
   hsa_barrier_and_packet_t *p =
      (hsa_barrier_and_packet_t *)q->base_address + (index & (q->size - 1));
   memset((uint8_t *)p + 4, 0, sizeof(*p) - 4);
   p->dep_signal[0] = dep;
   uint16_t header = HSA_PACKET_TYPE_BARRIER_AND << HSA_PACKET_HEADER_TYPE |
                     1 << HSA_PACKET_HEADER_BARRIER |
                     HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE |
                     HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE;
   __atomic_store_n((uint32_t *)p, header, __ATOMIC_RELEASE);
   hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)index);
}

typedef struct scale_args {
   float *out;
   const float *in;
   float factor;
   uint32_t n;
} scale_args;

static void *
kernarg_for(kfd_test_env *env, scale_args args)
{
   uint8_t *k = kfd_test_alloc(env, env->kernarg_pool, 4096);
   memset(k, 0, 4096);
   memcpy(k, &args, sizeof(args));
   return k;
}

static bool
wait_done(hsa_signal_t s)
{
   return hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_LT, 1, 30000000000ull,
                                    HSA_WAIT_STATE_BLOCKED) == 0;
}

static void
test_kernels(kfd_test_env *env, gpu_pools *pools, const char *hsaco)
{
   /* One executable, a code object loaded for every GPU (its target's): a symbol per agent. */
   hsa_executable_t exec;
   CHECK_HSA(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
                                       NULL, &exec));
   for (unsigned g = 0; g < env->ngpus; g++) {
      char name[64], path[4096];
      CHECK_HSA(hsa_agent_get_info(env->gpus[g], HSA_AGENT_INFO_NAME, name));
      const char *at = strstr(hsaco, "%s");
      if (at)
         snprintf(path, sizeof(path), "%.*s%s%s", (int)(at - hsaco), hsaco, name, at + 2);
      else
         snprintf(path, sizeof(path), "%s", hsaco);
      size_t size;
      uint8_t *data = kfd_test_read_file(path, &size);
      hsa_code_object_reader_t reader;
      CHECK_HSA(hsa_code_object_reader_create_from_memory(data, size, &reader));
      CHECK_HSA(hsa_executable_load_agent_code_object(exec, env->gpus[g], reader, NULL, NULL));
      CHECK_HSA(hsa_code_object_reader_destroy(reader));
      free(data);
   }
   CHECK_HSA(hsa_executable_freeze(exec, NULL));
   kfd_test_kernel k[KFD_TEST_MAX_AGENTS];
   hsa_queue_t *q[KFD_TEST_MAX_AGENTS];
   for (unsigned g = 0; g < env->ngpus; g++) {
      k[g] = kfd_test_find_kernel(exec, env->gpus[g], "scale.kd");
      hsa_executable_symbol_t sym;
      hsa_agent_t owner;
      CHECK_HSA(hsa_executable_get_symbol_by_name(exec, "scale.kd", &env->gpus[g], &sym));
      CHECK_HSA(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_AGENT, &owner));
      CHECK(owner.handle == env->gpus[g].handle);
      for (unsigned h = 0; h < g; h++)
         CHECK(k[h].object != k[g].object); /* each GPU's copy of the code */
      CHECK_HSA(hsa_queue_create(env->gpus[g], 128, HSA_QUEUE_TYPE_MULTI, NULL, NULL,
                                 UINT32_MAX, UINT32_MAX, &q[g]));
   }

   /* GPU 1 waits on GPU 0's completion signal, then reads what GPU 0 wrote into its own
    * memory (peer access granted). */
   const uint32_t grid = 4096;
   float *in = kfd_test_alloc(env, env->system_pool, grid * sizeof(float));
   float *mid = kfd_test_alloc(env, pools[0].vram, grid * sizeof(float));
   float *out = kfd_test_alloc(env, env->system_pool, grid * sizeof(float));
   for (uint32_t i = 0; i < grid; i++) {
      in[i] = (float)i + 0.25f;
      out[i] = -1.0f;
   }
   void *ka0 = kernarg_for(env, (scale_args){mid, in, 3.0f, grid});
   void *ka1 = kernarg_for(env, (scale_args){out, mid, 2.0f, grid});
   hsa_signal_t done0, done1;
   CHECK_HSA(hsa_signal_create(1, 0, NULL, &done0));
   CHECK_HSA(hsa_signal_create(1, 0, NULL, &done1));
   barrier_and(q[1], done0);
   kfd_test_dispatch(q[1], &k[1], ka1, grid, 256, done1);
   usleep(50000);
   CHECK(hsa_signal_load_scacquire(done1) == 1); /* held by the barrier */
   kfd_test_dispatch(q[0], &k[0], ka0, grid, 256, done0);
   CHECK(wait_done(done1));
   CHECK(hsa_signal_load_scacquire(done0) == 0);
   uint32_t bad = 0;
   for (uint32_t i = 0; i < grid; i++) /* reversed within 256 twice: in order again */
      bad += out[i] != ((float)i + 0.25f) * 6.0f;
   CHECK(bad == 0);
   printf("kernels: gpu1 waited for gpu0's signal and read its memory (%u items)\n", grid);

   /* A kernel on every GPU at once, each writing its own GPU's memory. */
   float *per[KFD_TEST_MAX_AGENTS];
   void *ka[KFD_TEST_MAX_AGENTS];
   hsa_signal_t done[KFD_TEST_MAX_AGENTS];
   for (unsigned g = 0; g < env->ngpus; g++) {
      per[g] = kfd_test_alloc(env, pools[g].vram, grid * sizeof(float));
      ka[g] = kernarg_for(env, (scale_args){per[g], in, (float)(g + 1), grid});
      CHECK_HSA(hsa_signal_create(1, 0, NULL, &done[g]));
   }
   for (unsigned g = 0; g < env->ngpus; g++)
      kfd_test_dispatch(q[g], &k[g], ka[g], grid, 256, done[g]);
   for (unsigned g = 0; g < env->ngpus; g++) {
      CHECK(wait_done(done[g]));
      copy_wait(out, env->cpu, per[g], env->gpus[g], grid * sizeof(float));
      bad = 0;
      for (uint32_t i = 0; i < grid; i++) {
         uint32_t r = (i & ~255u) + 255 - (i & 255);
         bad += out[i] != ((float)r + 0.25f) * (float)(g + 1);
      }
      CHECK(bad == 0);
      CHECK_HSA(hsa_signal_destroy(done[g]));
      CHECK_HSA(hsa_amd_memory_pool_free(ka[g]));
      CHECK_HSA(hsa_amd_memory_pool_free(per[g]));
   }
   printf("kernels: %u GPUs at once\n", env->ngpus);

   for (unsigned g = 0; g < env->ngpus; g++)
      CHECK_HSA(hsa_queue_destroy(q[g]));
   CHECK_HSA(hsa_signal_destroy(done0));
   CHECK_HSA(hsa_signal_destroy(done1));
   CHECK_HSA(hsa_amd_memory_pool_free(ka0));
   CHECK_HSA(hsa_amd_memory_pool_free(ka1));
   CHECK_HSA(hsa_amd_memory_pool_free(in));
   CHECK_HSA(hsa_amd_memory_pool_free(mid));
   CHECK_HSA(hsa_amd_memory_pool_free(out));
   CHECK_HSA(hsa_executable_destroy(exec));
}

int
main(int argc, char **argv)
{
   CHECK(argc == 3);
   unsigned want = (unsigned)atoi(argv[2]);
   CHECK(want >= 2 && want <= KFD_TEST_MAX_AGENTS);
   CHECK_HSA(hsa_init());
   kfd_test_env env;
   kfd_test_env_init(&env);
   CHECK(env.ncpus == 1 && env.ngpus == want);
   gpu_pools pools[KFD_TEST_MAX_AGENTS];
   test_identity(&env, pools);
   test_allow_access(&env, pools);
   test_copies(&env, pools);
   test_kernels(&env, pools, argv[1]);
   CHECK_HSA(hsa_shut_down());
   printf("kfd_test_gpus: ok\n");
   return 0;
}
