/*
 * sim/tests/sim_test_basic.c — system, agents, pools, memory and signals of the software
 * HSA runtime, through the public HSA API only. Also built linked against Debian's
 * libhsa-runtime64 and run with LD_LIBRARY_PATH at the build's sim/ folder, which checks
 * that the library stands in for ROCr.
 */
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sim_test_common.h"

static void
test_not_initialized(void)
{
   hsa_agent_t a = {0};
   uint32_t v;
   CHECK(hsa_agent_get_info(a, HSA_AGENT_INFO_NODE, &v) == HSA_STATUS_ERROR_NOT_INITIALIZED);
   CHECK(hsa_shut_down() == HSA_STATUS_ERROR_NOT_INITIALIZED);
   const char *s = NULL;
   CHECK_HSA(hsa_status_string(HSA_STATUS_ERROR_INVALID_AGENT, &s));
   CHECK(s && strstr(s, "INVALID_AGENT"));
}

static void
test_system(void)
{
   uint16_t major, minor;
   uint64_t t0, t1, freq;
   hsa_endianness_t endian;
   hsa_machine_model_t model;
   uint8_t ext[128];
   CHECK_HSA(hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &major));
   CHECK_HSA(hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MINOR, &minor));
   CHECK(major == 1);
   CHECK_HSA(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &t0));
   CHECK_HSA(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &freq));
   CHECK(freq >= 1000000);
   CHECK_HSA(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &t1));
   CHECK(t1 >= t0);
   CHECK_HSA(hsa_system_get_info(HSA_SYSTEM_INFO_ENDIANNESS, &endian));
   CHECK(endian == HSA_ENDIANNESS_LITTLE);
   CHECK_HSA(hsa_system_get_info(HSA_SYSTEM_INFO_MACHINE_MODEL, &model));
   CHECK(model == HSA_MACHINE_MODEL_LARGE);
   CHECK_HSA(hsa_system_get_info(HSA_SYSTEM_INFO_EXTENSIONS, ext));
   CHECK(hsa_system_get_info((hsa_system_info_t)0x7777, &t0) == HSA_STATUS_ERROR_INVALID_ARGUMENT);
}

static hsa_status_t
count_cache(hsa_cache_t cache, void *data)
{
   uint32_t *sizes = data;
   uint8_t level;
   uint32_t size;
   CHECK_HSA(hsa_cache_get_info(cache, HSA_CACHE_INFO_LEVEL, &level));
   CHECK_HSA(hsa_cache_get_info(cache, HSA_CACHE_INFO_SIZE, &size));
   if (level >= 1 && level <= 2)
      sizes[level - 1] = size;
   return HSA_STATUS_SUCCESS;
}

static hsa_status_t
first_isa(hsa_isa_t isa, void *data)
{
   *(hsa_isa_t *)data = isa;
   return HSA_STATUS_INFO_BREAK;
}

static void
test_agents(const test_env *env)
{
   char name[64], vendor[64], product[64];
   uint32_t u32;
   uint16_t dims[3];
   CHECK_HSA(hsa_agent_get_info(env->gpu, HSA_AGENT_INFO_NAME, name));
   CHECK(strcmp(name, "gfx906") == 0);
   CHECK_HSA(hsa_agent_get_info(env->gpu, HSA_AGENT_INFO_VENDOR_NAME, vendor));
   CHECK(strcmp(vendor, "AMD") == 0);
   CHECK_HSA(hsa_agent_get_info(env->gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_PRODUCT_NAME,
                                product));
   CHECK(strlen(product) > 0);
   CHECK_HSA(hsa_agent_get_info(env->gpu, HSA_AGENT_INFO_WAVEFRONT_SIZE, &u32));
   CHECK(u32 == 64);
   CHECK_HSA(hsa_agent_get_info(env->gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT,
                                &u32));
   CHECK(u32 == 60);
   CHECK_HSA(hsa_agent_get_info(env->gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_NUM_SIMDS_PER_CU,
                                &u32));
   CHECK(u32 == 4);
   CHECK_HSA(hsa_agent_get_info(env->gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU,
                                &u32));
   CHECK(u32 == 40);
   CHECK_HSA(hsa_agent_get_info(env->gpu,
                                (hsa_agent_info_t)HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY, &u32));
   CHECK(u32 == 1801);
   CHECK_HSA(hsa_agent_get_info(env->gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_CHIP_ID, &u32));
   CHECK(u32 == 0x66af);
   CHECK_HSA(hsa_agent_get_info(env->gpu, HSA_AGENT_INFO_WORKGROUP_MAX_SIZE, &u32));
   CHECK(u32 == 1024);
   CHECK_HSA(hsa_agent_get_info(env->gpu, HSA_AGENT_INFO_WORKGROUP_MAX_DIM, dims));
   CHECK(dims[0] == 1024 && dims[1] == 1024 && dims[2] == 1024);
   CHECK_HSA(hsa_agent_get_info(env->gpu, HSA_AGENT_INFO_QUEUE_MAX_SIZE, &u32));
   CHECK(u32 >= 4096 && (u32 & (u32 - 1)) == 0);
   CHECK_HSA(hsa_agent_get_info(env->gpu, HSA_AGENT_INFO_QUEUE_MIN_SIZE, &u32));
   CHECK(u32 > 0 && (u32 & (u32 - 1)) == 0);
   hsa_queue_type32_t qtype;
   CHECK_HSA(hsa_agent_get_info(env->gpu, HSA_AGENT_INFO_QUEUE_TYPE, &qtype));
   CHECK(qtype == HSA_QUEUE_TYPE_MULTI);
   hsa_agent_feature_t feature;
   CHECK_HSA(hsa_agent_get_info(env->gpu, HSA_AGENT_INFO_FEATURE, &feature));
   CHECK(feature & HSA_AGENT_FEATURE_KERNEL_DISPATCH);

   uint32_t caches[2] = {0, 0};
   CHECK_HSA(hsa_agent_iterate_caches(env->gpu, count_cache, caches));
   CHECK(caches[0] == 16 * 1024 && caches[1] == 8 * 1024 * 1024);

   hsa_isa_t isa = {0};
   CHECK(hsa_agent_iterate_isas(env->gpu, first_isa, &isa) == HSA_STATUS_INFO_BREAK);
   uint32_t len;
   CHECK_HSA(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME_LENGTH, &len));
   char *isa_name = calloc(1, len + 1);
   CHECK_HSA(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME, isa_name));
   CHECK(strcmp(isa_name, "amdgcn-amd-amdhsa--gfx906:sramecc-:xnack-") == 0);
   free(isa_name);
   hsa_isa_t by_name;
   CHECK_HSA(hsa_isa_from_name("amdgcn-amd-amdhsa--gfx906:sramecc-:xnack-", &by_name));
   CHECK(by_name.handle == isa.handle);

   hsa_agent_t bogus = {0x1234};
   CHECK(hsa_agent_get_info(bogus, HSA_AGENT_INFO_NAME, name) == HSA_STATUS_ERROR_INVALID_AGENT);
   CHECK(hsa_agent_get_info(env->gpu, HSA_AGENT_INFO_NAME, NULL) ==
         HSA_STATUS_ERROR_INVALID_ARGUMENT);
}

static void
test_pools(const test_env *env)
{
   size_t size;
   CHECK_HSA(hsa_amd_memory_pool_get_info(env->device_pool, HSA_AMD_MEMORY_POOL_INFO_SIZE, &size));
   CHECK(size == 16ull << 30);
   hsa_amd_memory_pool_access_t access;
   CHECK_HSA(hsa_amd_agent_memory_pool_get_info(env->cpu, env->device_pool,
                                                HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS, &access));
   CHECK(access == HSA_AMD_MEMORY_POOL_ACCESS_DISALLOWED_BY_DEFAULT);
   CHECK_HSA(hsa_amd_agent_memory_pool_get_info(env->gpu, env->device_pool,
                                                HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS, &access));
   CHECK(access == HSA_AMD_MEMORY_POOL_ACCESS_ALLOWED_BY_DEFAULT);
   /* ROCr's answer for system memory from a GPU (MemoryRegion::GetAccessInfo); the GPU
    * reaches it all the same. */
   CHECK_HSA(hsa_amd_agent_memory_pool_get_info(env->gpu, env->kernarg_pool,
                                                HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS, &access));
   CHECK(access == HSA_AMD_MEMORY_POOL_ACCESS_DISALLOWED_BY_DEFAULT);
   CHECK_HSA(hsa_amd_agent_memory_pool_get_info(env->cpu, env->kernarg_pool,
                                                HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS, &access));
   CHECK(access == HSA_AMD_MEMORY_POOL_ACCESS_ALLOWED_BY_DEFAULT);
   hsa_amd_memory_pool_t bogus = {42};
   CHECK(hsa_amd_memory_pool_get_info(bogus, HSA_AMD_MEMORY_POOL_INFO_SIZE, &size) ==
         (hsa_status_t)HSA_STATUS_ERROR_INVALID_MEMORY_POOL);
}

/* Returns true if touching `p` from the host kills a child process with SIGSEGV. */
static bool
host_touch_faults(volatile uint32_t *p)
{
   fflush(NULL);
   pid_t pid = fork();
   CHECK(pid >= 0);
   if (pid == 0) {
      signal(SIGSEGV, SIG_DFL); /* sanitizers install their own handler */
      p[0] = 1;
      _exit(0);
   }
   int status;
   CHECK(waitpid(pid, &status, 0) == pid);
   return WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV;
}

static void
test_memory(const test_env *env)
{
   enum { N = 1 << 20 };
   uint32_t *host = malloc(N * 4), *back = malloc(N * 4);
   CHECK(host && back);
   for (uint32_t i = 0; i < N; i++)
      host[i] = i * 2654435761u;

   uint32_t *dev;
   CHECK_HSA(hsa_amd_memory_pool_allocate(env->device_pool, N * 4, 0, (void **)&dev));
   CHECK(host_touch_faults(dev));

   /* Synchronous copies work through the runtime even though the host cannot touch it. */
   CHECK_HSA(hsa_memory_copy(dev, host, N * 4));
   memset(back, 0, N * 4);
   CHECK_HSA(hsa_memory_copy(back, dev, N * 4));
   CHECK(memcmp(host, back, N * 4) == 0);

   /* Fill. */
   CHECK_HSA(hsa_amd_memory_fill(dev + 16, 0xdeadbeef, 100));
   CHECK_HSA(hsa_memory_copy(back, dev, 200 * 4));
   CHECK(back[15] == host[15] && back[16] == 0xdeadbeef && back[115] == 0xdeadbeef &&
         back[116] == host[116]);
   CHECK(hsa_amd_memory_fill((char *)dev + 1, 0, 1) == HSA_STATUS_ERROR_INVALID_ARGUMENT);

   /* Out-of-range copies are rejected. */
   CHECK(hsa_memory_copy(dev + N - 1, host, 8) == HSA_STATUS_ERROR_INVALID_ARGUMENT);

   /* Pointer info. */
   hsa_amd_pointer_info_t info;
   memset(&info, 0, sizeof(info));
   info.size = sizeof(info);
   CHECK_HSA(hsa_amd_pointer_info(dev + 10, &info, NULL, NULL, NULL));
   CHECK(info.type == HSA_EXT_POINTER_TYPE_HSA && info.agentBaseAddress == dev &&
         info.sizeInBytes == N * 4 && info.agentOwner.handle == env->gpu.handle);
   int marker;
   CHECK_HSA(hsa_amd_pointer_info_set_userdata(dev, &marker));
   uint32_t count = 0;
   hsa_agent_t *agents = NULL;
   CHECK_HSA(hsa_amd_pointer_info(dev, &info, malloc, &count, &agents));
   CHECK(info.userData == &marker && count == 1 && agents[0].handle == env->gpu.handle);
   free(agents);

   /* Granting the CPU agent access makes the host view usable. */
   CHECK_HSA(hsa_amd_agents_allow_access(1, &env->cpu, NULL, dev));
   CHECK(!host_touch_faults(dev));
   CHECK(dev[1] == host[1] && dev[16] == 0xdeadbeef);
   dev[2] = 77;
   CHECK_HSA(hsa_memory_copy(back, dev, 16));
   CHECK(back[2] == 77);
   CHECK_HSA(hsa_amd_memory_pool_free(dev));
   CHECK(hsa_amd_memory_pool_free(dev) == HSA_STATUS_ERROR_INVALID_ALLOCATION);

   /* More than 2 GiB from the device pool; freed pages come back zeroed. */
   char *big;
   CHECK_HSA(hsa_amd_memory_pool_allocate(env->device_pool, 3ull << 30, 0, (void **)&big));
   CHECK_HSA(hsa_memory_copy(big + (3ull << 30) - 8, host, 8));
   CHECK_HSA(hsa_amd_memory_pool_free(big));
   CHECK(hsa_amd_memory_pool_allocate(env->device_pool, 17ull << 30, 0, (void **)&big) !=
         HSA_STATUS_SUCCESS);

   /* System memory is host memory. */
   uint32_t *sys;
   CHECK_HSA(hsa_amd_memory_pool_allocate(env->kernarg_pool, 4096, 0, (void **)&sys));
   sys[0] = 5;
   CHECK_HSA(hsa_amd_memory_pool_free(sys));

   /* Locking host memory. */
   void *agent_ptr = NULL;
   hsa_agent_t gpu = env->gpu;
   CHECK_HSA(hsa_amd_memory_lock(host, N * 4, &gpu, 1, &agent_ptr));
   CHECK(agent_ptr != NULL);
   memset(&info, 0, sizeof(info));
   info.size = sizeof(info);
   CHECK_HSA(hsa_amd_pointer_info(host, &info, NULL, NULL, NULL));
   CHECK(info.type == HSA_EXT_POINTER_TYPE_LOCKED);
   CHECK_HSA(hsa_amd_memory_unlock(host));
   CHECK(hsa_amd_memory_lock(host, 0, NULL, 0, &agent_ptr) == HSA_STATUS_ERROR_INVALID_ARGUMENT);

   /* Locks inside a lock (at its start, and within) each hold it until they are unlocked,
    * whichever goes first: the driver locks part of a CL_MEM_USE_HOST_PTR buffer's memory
    * for a transfer and unlocks it while the buffer's lock stays. */
   CHECK_HSA(hsa_amd_memory_lock(host, N * 4, &gpu, 1, &agent_ptr));
   CHECK_HSA(hsa_amd_memory_lock(host, N, &gpu, 1, &agent_ptr));
   CHECK_HSA(hsa_amd_memory_lock(host + 64, 100, &gpu, 1, &agent_ptr));
   CHECK(agent_ptr == host + 64);
   CHECK_HSA(hsa_amd_memory_unlock(host));
   CHECK_HSA(hsa_amd_memory_unlock(host + 64));
   CHECK_HSA(hsa_amd_pointer_info(host + N - 1, &info, NULL, NULL, NULL));
   CHECK(info.type == HSA_EXT_POINTER_TYPE_LOCKED);
   CHECK_HSA(hsa_amd_memory_lock(host + 8, 8, &gpu, 1, &agent_ptr));
   CHECK_HSA(hsa_amd_memory_unlock(host)); /* the outer lock goes first */
   CHECK_HSA(hsa_amd_pointer_info(host + N - 1, &info, NULL, NULL, NULL));
   CHECK(info.type == HSA_EXT_POINTER_TYPE_LOCKED);
   CHECK_HSA(hsa_amd_memory_unlock(host + 8));
   CHECK_HSA(hsa_amd_pointer_info(host, &info, NULL, NULL, NULL));
   CHECK(info.type == HSA_EXT_POINTER_TYPE_UNKNOWN);

   /* A lock overlapping another's end (two transfers in flight from overlapping host
    * ranges): copies of it reach past the first lock's end. */
   uint32_t *dev2;
   CHECK_HSA(hsa_amd_memory_pool_allocate(env->device_pool, N * 2, 0, (void **)&dev2));
   CHECK_HSA(hsa_amd_memory_lock(host, N * 2, &gpu, 1, &agent_ptr));
   CHECK_HSA(hsa_amd_memory_lock(host + N / 4, N * 2, &gpu, 1, &agent_ptr));
   CHECK_HSA(hsa_memory_copy(dev2, agent_ptr, N * 2));
   CHECK_HSA(hsa_memory_copy(back, dev2, N * 2));
   CHECK(memcmp(back, host + N / 4, N * 2) == 0);
   CHECK_HSA(hsa_amd_memory_unlock(host + N / 4));
   CHECK_HSA(hsa_amd_memory_unlock(host));
   CHECK_HSA(hsa_amd_memory_pool_free(dev2));

   free(host);
   free(back);
}

/* Every byte of `size` at device address `dev` (through a copy) is 0. */
static bool
dev_zero(const void *dev, size_t size)
{
   uint8_t *b = malloc(size);
   bool z = b && hsa_memory_copy(b, dev, size) == HSA_STATUS_SUCCESS;
   for (size_t i = 0; z && i < size; i++)
      z = b[i] == 0;
   free(b);
   return z;
}

/* The process's resident bytes (/proc/self/statm: the device heap's pages count). */
static long
resident_bytes(void)
{
   long size = 0, resident = -1;
   FILE *f = fopen("/proc/self/statm", "r");
   if (f) {
      if (fscanf(f, "%ld %ld", &size, &resident) != 2)
         resident = -1;
      fclose(f);
   }
   return resident * sysconf(_SC_PAGESIZE);
}

/* A freed range of 1 MiB or more stays resident (its pages are not dropped) and goes to
 * the next allocation of about its size (at most twice it), zeroed, its host view as
 * inaccessible as a new one's; what is past the new size goes back to the free list, zero
 * too. */
static void
test_memory_reuse(const test_env *env)
{
   enum { MIB = 1 << 20 };
   uint8_t *pat = malloc(4 * MIB);
   CHECK(pat != NULL);
   for (size_t i = 0; i < 4 * MIB; i++)
      pat[i] = (uint8_t)(i * 7 + 1);
   uint8_t *a, *b, *c, *d;
   CHECK_HSA(hsa_amd_memory_pool_allocate(env->device_pool, 4 * MIB, 0, (void **)&a));
   CHECK_HSA(hsa_memory_copy(a, pat, 4 * MIB));
   CHECK_HSA(hsa_amd_agents_allow_access(1, &env->cpu, NULL, a));
   CHECK(!host_touch_faults((volatile uint32_t *)a));
   CHECK_HSA(hsa_amd_memory_pool_free(a));
   CHECK_HSA(hsa_amd_memory_pool_allocate(env->device_pool, 4 * MIB, 0, (void **)&b));
   CHECK(b == a);
   CHECK(dev_zero(b, 4 * MIB));
   CHECK(host_touch_faults((volatile uint32_t *)b));
   CHECK_HSA(hsa_memory_copy(b, pat, 4 * MIB));
   long before = resident_bytes();
   CHECK_HSA(hsa_amd_memory_pool_free(b));
   long dropped = before - resident_bytes();
   if (dropped >= 2 * MIB)
      fprintf(stderr, "freeing 4 MiB of device memory dropped %ld resident bytes\n", dropped);
   CHECK(before > 0 && dropped < 2 * MIB);
   /* 3 MiB from the kept 4: the last MiB freed, and zero when it is handed out. */
   CHECK_HSA(hsa_amd_memory_pool_allocate(env->device_pool, 3 * MIB, 0, (void **)&c));
   CHECK(c == a);
   CHECK(dev_zero(c, 3 * MIB));
   CHECK_HSA(hsa_amd_memory_pool_allocate(env->device_pool, MIB, 0, (void **)&d));
   CHECK(dev_zero(d, MIB));
   CHECK_HSA(hsa_amd_memory_pool_free(d));
   CHECK_HSA(hsa_memory_copy(c, pat, 3 * MIB));
   CHECK_HSA(hsa_amd_memory_pool_free(c));
   /* 1 MiB does not take the kept 3. */
   CHECK_HSA(hsa_amd_memory_pool_allocate(env->device_pool, MIB, 0, (void **)&d));
   CHECK(d != c);
   CHECK(dev_zero(d, MIB));
   CHECK_HSA(hsa_amd_memory_pool_free(d));
   free(pat);
}

typedef struct handler_state {
   hsa_signal_t done;
   int calls;
} handler_state;

static bool
on_signal(hsa_signal_value_t value, void *arg)
{
   handler_state *h = arg;
   h->calls++;
   CHECK(value == 3);
   hsa_signal_store_screlease(h->done, 1);
   return false;
}

static void *
delayed_store(void *arg)
{
   hsa_signal_t *s = arg;
   struct timespec ts = {0, 20 * 1000 * 1000};
   nanosleep(&ts, NULL);
   hsa_signal_store_screlease(*s, 0);
   return NULL;
}

static void
test_signals(const test_env *env)
{
   hsa_signal_t s;
   CHECK_HSA(hsa_signal_create(10, 0, NULL, &s));
   CHECK(hsa_signal_load_relaxed(s) == 10);
   hsa_signal_add_relaxed(s, 5);
   hsa_signal_subtract_scacq_screl(s, 3);
   CHECK(hsa_signal_load_scacquire(s) == 12);
   hsa_signal_and_screlease(s, 0xc);
   hsa_signal_or_acq_rel(s, 1);
   hsa_signal_xor_scacquire(s, 0x10);
   CHECK(hsa_signal_load_acquire(s) == 0x1d);
   CHECK(hsa_signal_exchange_release(s, 4) == 0x1d);
   CHECK(hsa_signal_cas_scacq_screl(s, 4, 9) == 4);
   CHECK(hsa_signal_cas_relaxed(s, 4, 11) == 9);
   hsa_signal_silent_store_relaxed(s, 2);
   CHECK(hsa_signal_load_relaxed(s) == 2);

   /* A wait with a timeout returns although the condition never holds. */
   uint64_t t0;
   CHECK_HSA(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &t0));
   hsa_signal_value_t v =
      hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 0, 50 * 1000 * 1000,
                                HSA_WAIT_STATE_BLOCKED);
   uint64_t t1;
   CHECK_HSA(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &t1));
   CHECK(v == 2);
   CHECK(t1 - t0 >= 40 * 1000 * 1000 && t1 - t0 < 5000ull * 1000 * 1000);

   /* A blocked waiter wakes up on a store from another thread. */
   pthread_t th;
   CHECK(pthread_create(&th, NULL, delayed_store, &s) == 0);
   v = hsa_signal_wait_relaxed(s, HSA_SIGNAL_CONDITION_LT, 1, UINT64_MAX, HSA_WAIT_STATE_ACTIVE);
   CHECK(v == 0);
   pthread_join(th, NULL);

   /* wait_any. */
   hsa_signal_t two[2];
   CHECK_HSA(hsa_amd_signal_create(1, 0, NULL, 0, &two[0]));
   CHECK_HSA(hsa_signal_create(5, 0, NULL, &two[1]));
   hsa_signal_condition_t conds[2] = {HSA_SIGNAL_CONDITION_EQ, HSA_SIGNAL_CONDITION_EQ};
   hsa_signal_value_t vals[2] = {0, 5};
   hsa_signal_value_t sat = -1;
   CHECK(hsa_amd_signal_wait_any(2, two, conds, vals, UINT64_MAX, HSA_WAIT_STATE_BLOCKED, &sat) ==
         1);
   CHECK(sat == 5);
   vals[1] = 6;
   CHECK(hsa_amd_signal_wait_any(2, two, conds, vals, 10 * 1000 * 1000, HSA_WAIT_STATE_BLOCKED,
                                 &sat) == UINT32_MAX);

   /* Async handler. */
   handler_state h = {.calls = 0};
   CHECK_HSA(hsa_signal_create(0, 0, NULL, &h.done));
   CHECK_HSA(hsa_amd_signal_async_handler(two[0], HSA_SIGNAL_CONDITION_EQ, 3, on_signal, &h));
   hsa_signal_store_screlease(two[0], 3);
   CHECK(hsa_signal_wait_scacquire(h.done, HSA_SIGNAL_CONDITION_EQ, 1, 5000ull * 1000 * 1000,
                                   HSA_WAIT_STATE_BLOCKED) == 1);
   CHECK(h.calls == 1);

   /* Signal groups. */
   hsa_signal_group_t group;
   CHECK_HSA(hsa_signal_group_create(2, two, 1, &env->cpu, &group));
   hsa_signal_t which;
   hsa_signal_value_t gv;
   vals[0] = 3;
   CHECK_HSA(hsa_signal_group_wait_any_relaxed(group, conds, vals, HSA_WAIT_STATE_BLOCKED, &which,
                                               &gv));
   CHECK(which.handle == two[0].handle && gv == 3);
   CHECK_HSA(hsa_signal_group_destroy(group));

   /* Invalid handles are errors, not crashes. */
   hsa_signal_t bogus = {0xdead0000};
   CHECK(hsa_signal_destroy(bogus) == HSA_STATUS_ERROR_INVALID_SIGNAL);
   CHECK(hsa_signal_load_relaxed(bogus) == 0);
   CHECK_HSA(hsa_signal_destroy(two[0]));
   CHECK(hsa_signal_destroy(two[0]) == HSA_STATUS_ERROR_INVALID_SIGNAL);
   CHECK_HSA(hsa_signal_destroy(two[1]));
   CHECK_HSA(hsa_signal_destroy(h.done));
   CHECK_HSA(hsa_signal_destroy(s));
}

typedef struct copy_case {
   const test_env *env;
} copy_case;

static void
test_async_copy(const test_env *env)
{
   enum { N = 1 << 16 };
   uint8_t *a = malloc(N), *b = malloc(N);
   CHECK(a && b);
   for (int i = 0; i < N; i++)
      a[i] = (uint8_t)(i * 7);
   void *dev;
   CHECK_HSA(hsa_amd_memory_pool_allocate(env->device_pool, N, 0, &dev));
   CHECK_HSA(hsa_amd_profiling_async_copy_enable(true));

   hsa_signal_t gate, up, down;
   CHECK_HSA(hsa_signal_create(1, 0, NULL, &gate));
   CHECK_HSA(hsa_signal_create(1, 0, NULL, &up));
   CHECK_HSA(hsa_signal_create(1, 0, NULL, &down));
   /* host -> device waits for `gate`; device -> host waits for the first copy. */
   CHECK_HSA(hsa_amd_memory_async_copy(dev, env->gpu, a, env->cpu, N, 1, &gate, up));
   CHECK_HSA(hsa_amd_memory_async_copy(b, env->cpu, dev, env->gpu, N, 1, &up, down));
   CHECK(hsa_signal_wait_scacquire(down, HSA_SIGNAL_CONDITION_EQ, 0, 20 * 1000 * 1000,
                                   HSA_WAIT_STATE_BLOCKED) == 1);
   CHECK(hsa_signal_load_relaxed(up) == 1);
   hsa_signal_store_screlease(gate, 0);
   CHECK(hsa_signal_wait_scacquire(down, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX,
                                   HSA_WAIT_STATE_BLOCKED) == 0);
   CHECK(memcmp(a, b, N) == 0);
   hsa_amd_profiling_async_copy_time_t t;
   CHECK_HSA(hsa_amd_profiling_get_async_copy_time(down, &t));
   CHECK(t.start != 0 && t.end >= t.start);

   CHECK(hsa_amd_memory_async_copy(dev, env->gpu, a, env->cpu, N + 1, 0, NULL, up) ==
         HSA_STATUS_ERROR_INVALID_ARGUMENT);

   /* A small copy whose dependencies are met is done when the call returns (no worker
    * hand-off), profiled like the others; one whose dependency is not met waits. */
   memset(b, 0, N);
   hsa_signal_store_screlease(up, 1);
   hsa_signal_store_screlease(down, 1);
   CHECK_HSA(hsa_amd_memory_async_copy(dev, env->gpu, a + 1, env->cpu, 4096, 1, &gate, up));
   CHECK(hsa_signal_load_scacquire(up) == 0);
   CHECK_HSA(hsa_amd_profiling_get_async_copy_time(up, &t));
   CHECK(t.start != 0 && t.end >= t.start);
   hsa_signal_store_screlease(gate, 1);
   CHECK_HSA(hsa_amd_memory_async_copy(b, env->cpu, dev, env->gpu, 4096, 1, &gate, down));
   CHECK(hsa_signal_load_scacquire(down) == 1);
   hsa_signal_store_screlease(gate, 0);
   CHECK(hsa_signal_wait_scacquire(down, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX,
                                   HSA_WAIT_STATE_BLOCKED) == 0);
   CHECK(memcmp(a + 1, b, 4096) == 0);

   /* Ranges that wrap the address space are refused at submission (issue #17: a wrapped
    * rectangle crashed the copy worker). */
   CHECK(hsa_amd_memory_async_copy(b, env->cpu, (void *)(uintptr_t)(UINT64_MAX - 15),
                                   env->cpu, 64, 0, NULL, up) ==
         HSA_STATUS_ERROR_INVALID_ARGUMENT);
   hsa_pitched_ptr_t pd = { dev, 64, SIZE_MAX / 4 }, ps = { a, 64, 64 * 16 };
   hsa_dim3_t zero = { 0, 0, 0 }, huge = { 0, 0, UINT32_MAX }, box = { 16, 4, 2 };
   CHECK(hsa_amd_memory_async_copy_rect(&pd, &huge, &ps, &zero, &box, env->gpu,
                                        hsaHostToDevice, 0, NULL, up) ==
         HSA_STATUS_ERROR_INVALID_ARGUMENT);
   hsa_pitched_ptr_t pw = { a, SIZE_MAX / 2, SIZE_MAX / 2 };
   CHECK(hsa_amd_memory_async_copy_rect(&pd, &zero, &pw, &zero, &box, env->gpu,
                                        hsaHostToDevice, 0, NULL, up) ==
         HSA_STATUS_ERROR_INVALID_ARGUMENT);

   /* Host memory unmapped between submission and execution: the copy engine takes a memory
    * violation (the copy is dropped, the signal completes), not a SIGSEGV. */
   uint8_t *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
   CHECK(page != MAP_FAILED);
   memset(page, 0x5a, 4096);
   memset(b, 0x11, N);
   hsa_signal_store_screlease(gate, 1);
   hsa_signal_store_screlease(down, 1);
   CHECK_HSA(hsa_amd_memory_async_copy(b, env->cpu, page, env->cpu, 4096, 1, &gate, down));
   CHECK(munmap(page, 4096) == 0);
   hsa_signal_store_screlease(gate, 0);
   CHECK(hsa_signal_wait_scacquire(down, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX,
                                   HSA_WAIT_STATE_BLOCKED) == 0);
   CHECK(b[0] == 0x11 && b[4095] == 0x11);
   hsa_signal_destroy(gate);
   hsa_signal_destroy(up);
   hsa_signal_destroy(down);
   CHECK_HSA(hsa_amd_memory_pool_free(dev));
   free(a);
   free(b);
}

int
main(void)
{
   test_not_initialized();
   test_env env;
   test_env_init(&env);
   CHECK_HSA(hsa_init()); /* reference counted */
   CHECK_HSA(hsa_shut_down());
   test_system();
   test_agents(&env);
   test_pools(&env);
   test_memory(&env);
   test_memory_reuse(&env);
   test_signals(&env);
   test_async_copy(&env);
   CHECK_HSA(hsa_shut_down());
   CHECK(hsa_shut_down() == HSA_STATUS_ERROR_NOT_INITIALIZED);
   /* The runtime comes back after a full shutdown. */
   test_env_init(&env);
   CHECK_HSA(hsa_shut_down());
   printf("sim_test_basic: ok\n");
   return 0;
}
