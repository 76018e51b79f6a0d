/*
 * sim/tests/sim_test_cache.c — the L2 model: packet fences on coarse-grained memory.
 * argv[1]: k.hsaco, argv[2]: "check" (HSACL_SIM_CACHE=check: a missing fence must show
 * stale data) or "off" (no cache model: every access reaches memory at once).
 *
 * On gfx906 the CP makes coarse-grained memory coherent only at packet boundaries: a
 * system-scope release writes the L2 back, a system-scope acquire invalidates it; agent
 * scope does neither (AMDGPUUsage, memory model GFX6-GFX9). The copy engine and the host
 * see memory, not the L2.
 */
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sim_test_common.h"

/* The file HSACL_SIM_CACHE_STATS names (sim/sim_isa.h struct sim_cache_stats). */
struct cache_stats {
   uint64_t magic, checking, dispatches, system_releases, agent_releases, system_acquires,
      lines_written, lines_filled;
};

typedef struct cache_test {
   test_env env;
   hsa_queue_t *queue;
   uint64_t scale, bump; /* kernel objects */
   float *in, *out;      /* device (coarse-grained) memory, 256 floats */
   float *host;          /* fine-grained system memory, 256 floats */
   void *kernarg;
   hsa_signal_t signal;
   bool check;
   volatile struct cache_stats *stats;
} cache_test;

static uint64_t
kernel_object(hsa_executable_t exec, hsa_agent_t gpu, const char *name)
{
   hsa_executable_symbol_t s;
   uint64_t obj = 0;
   CHECK_HSA(hsa_executable_get_symbol_by_name(exec, name, &gpu, &s));
   CHECK_HSA(hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &obj));
   return obj;
}

static void
wait_done(hsa_signal_t s)
{
   CHECK(hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 0, 10ull * 1000000000ull,
                                   HSA_WAIT_STATE_BLOCKED) == 0);
}

static uint16_t
header(hsa_packet_type_t type, hsa_fence_scope_t acquire, hsa_fence_scope_t release)
{
   return (uint16_t)((type << HSA_PACKET_HEADER_TYPE) | (1u << HSA_PACKET_HEADER_BARRIER) |
                     (acquire << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) |
                     (release << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE));
}

/* Writes the packet (header last), rings the doorbell and waits for its completion. */
static void
run_packet(cache_test *t, void *packet)
{
   hsa_signal_store_relaxed(t->signal, 1);
   uint64_t index = hsa_queue_add_write_index_relaxed(t->queue, 1);
   uint32_t *slot = (uint32_t *)((char *)t->queue->base_address +
                                 (index & (t->queue->size - 1)) * 64);
   memcpy(slot + 1, (uint32_t *)packet + 1, 60);
   __atomic_store_n(slot, *(uint32_t *)packet, __ATOMIC_RELEASE);
   hsa_signal_store_screlease(t->queue->doorbell_signal, (hsa_signal_value_t)index);
   wait_done(t->signal);
}

/* scale(out, in, factor, 256): out[i] = in[255 - i] * factor, one work-group. */
static void
run_scale(cache_test *t, float factor, hsa_fence_scope_t acquire, hsa_fence_scope_t release)
{
   struct __attribute__((packed)) {
      float *out;
      const float *in;
      float factor;
      uint32_t n;
   } args = { t->out, t->in, factor, 256 };
   memcpy(t->kernarg, &args, sizeof(args));
   hsa_kernel_dispatch_packet_t p;
   memset(&p, 0, sizeof(p));
   p.setup = 1;
   p.workgroup_size_x = 256;
   p.workgroup_size_y = p.workgroup_size_z = 1;
   p.grid_size_x = 256;
   p.grid_size_y = p.grid_size_z = 1;
   p.group_segment_size = 1024;
   p.kernel_object = t->scale;
   p.kernarg_address = t->kernarg;
   p.completion_signal = t->signal;
   p.header = header(HSA_PACKET_TYPE_KERNEL_DISPATCH, acquire, release);
   run_packet(t, &p);
}

/* bump(out): out[0] = table[1 + (out[1] & 1) * 2] + table[out[2] & 3] (k.cl). */
static void
run_bump(cache_test *t, int *out, hsa_fence_scope_t release)
{
   memcpy(t->kernarg, &out, sizeof(out));
   hsa_kernel_dispatch_packet_t p;
   memset(&p, 0, sizeof(p));
   p.setup = 1;
   p.workgroup_size_x = p.workgroup_size_y = p.workgroup_size_z = 1;
   p.grid_size_x = p.grid_size_y = p.grid_size_z = 1;
   p.kernel_object = t->bump;
   p.kernarg_address = t->kernarg;
   p.completion_signal = t->signal;
   p.header = header(HSA_PACKET_TYPE_KERNEL_DISPATCH, HSA_FENCE_SCOPE_SYSTEM, release);
   run_packet(t, &p);
}

/* A barrier-AND packet with no dependencies: only its fences act. */
static void
run_fence(cache_test *t, hsa_fence_scope_t acquire, hsa_fence_scope_t release)
{
   hsa_barrier_and_packet_t p;
   memset(&p, 0, sizeof(p));
   p.completion_signal = t->signal;
   p.header = header(HSA_PACKET_TYPE_BARRIER_AND, acquire, release);
   run_packet(t, &p);
}

/* The copy engine, which reads and writes memory, not an agent's L2. */
static void
copy(cache_test *t, void *dst, hsa_agent_t dst_agent, const void *src, hsa_agent_t src_agent,
     size_t bytes)
{
   hsa_signal_store_relaxed(t->signal, 1);
   CHECK_HSA(hsa_amd_memory_async_copy(dst, dst_agent, src, src_agent, bytes, 0, NULL,
                                       t->signal));
   wait_done(t->signal);
}

static void
set_device(cache_test *t, float *dev, float (*value)(unsigned))
{
   for (unsigned i = 0; i < 256; i++)
      t->host[i] = value(i);
   copy(t, dev, t->env.gpu, t->host, t->env.cpu, 256 * sizeof(float));
}

/* Device memory as the host sees it (through the copy engine). */
static void
get_device(cache_test *t, const float *dev)
{
   memset(t->host, 0, 256 * sizeof(float));
   copy(t, t->host, t->env.cpu, dev, t->env.gpu, 256 * sizeof(float));
}

static float in_first(unsigned i) { return (float)i; }
static float in_second(unsigned i) { return (float)(1000 + i); }
static float minus_one(unsigned i) { (void)i; return -1.0f; }

/* true when host[i] == f(255 - i) * factor for every i */
static bool
host_is(const cache_test *t, float (*f)(unsigned), float factor)
{
   for (unsigned i = 0; i < 256; i++)
      if (t->host[i] != f(255 - i) * factor)
         return false;
   return true;
}

static bool
host_all(const cache_test *t, float v)
{
   for (unsigned i = 0; i < 256; i++)
      if (t->host[i] != v)
         return false;
   return true;
}

/* A kernel's writes reach memory at a system-scope release, not at an agent-scope one. */
static void
test_release(cache_test *t)
{
   set_device(t, t->in, in_first);
   set_device(t, t->out, minus_one);
   uint64_t written = t->stats->lines_written, releases = t->stats->system_releases;
   run_scale(t, 2.0f, HSA_FENCE_SCOPE_SYSTEM, HSA_FENCE_SCOPE_AGENT);
   get_device(t, t->out);
   if (t->check)
      CHECK(host_all(t, -1.0f)); /* still in the agent's L2 */
   else
      CHECK(host_is(t, in_first, 2.0f));
   CHECK(t->stats->system_releases == releases);
   /* Agent scope changes nothing; system scope writes back the 16 lines (1 KiB). */
   run_fence(t, HSA_FENCE_SCOPE_NONE, HSA_FENCE_SCOPE_AGENT);
   get_device(t, t->out);
   CHECK(t->check ? host_all(t, -1.0f) : host_is(t, in_first, 2.0f));
   run_fence(t, HSA_FENCE_SCOPE_NONE, HSA_FENCE_SCOPE_SYSTEM);
   get_device(t, t->out);
   CHECK(host_is(t, in_first, 2.0f));
   CHECK(t->stats->system_releases == releases + 1);
   CHECK(t->stats->lines_written - written == (t->check ? 16u : 0u));
   /* Written back and clean: the next release writes nothing. */
   run_fence(t, HSA_FENCE_SCOPE_NONE, HSA_FENCE_SCOPE_SYSTEM);
   CHECK(t->stats->lines_written - written == (t->check ? 16u : 0u));
}

/* Lines the agent read stay in its L2 until a system-scope acquire. */
static void
test_acquire(cache_test *t)
{
   set_device(t, t->in, in_first);
   run_scale(t, 1.0f, HSA_FENCE_SCOPE_SYSTEM, HSA_FENCE_SCOPE_SYSTEM); /* reads `in` */
   set_device(t, t->in, in_second); /* memory changes behind the L2 */
   run_scale(t, 1.0f, HSA_FENCE_SCOPE_AGENT, HSA_FENCE_SCOPE_SYSTEM);
   get_device(t, t->out);
   CHECK(t->check ? host_is(t, in_first, 1.0f) : host_is(t, in_second, 1.0f));
   uint64_t acquires = t->stats->system_acquires;
   run_scale(t, 1.0f, HSA_FENCE_SCOPE_SYSTEM, HSA_FENCE_SCOPE_SYSTEM);
   get_device(t, t->out);
   CHECK(host_is(t, in_second, 1.0f));
   CHECK(t->stats->system_acquires == acquires + 1);
}

/* A write-back writes the agent's dirty bytes only: bytes of the same line the copy
 * engine wrote meanwhile survive it. */
static void
test_byte_merge(cache_test *t)
{
   int *dev = (int *)t->out;
   int init[16] = { 0, 0, 0 }; /* out[1] = out[2] = 0: bump writes table[1] + table[0] */
   for (int i = 3; i < 16; i++)
      init[i] = 100 + i;
   memcpy(t->host, init, sizeof(init));
   copy(t, dev, t->env.gpu, t->host, t->env.cpu, sizeof(init));
   run_bump(t, dev, HSA_FENCE_SCOPE_AGENT); /* out[0] = 3, in the L2 */
   int later[4] = { 7, 8, 9, 10 };
   memcpy(t->host, later, sizeof(later));
   copy(t, dev + 8, t->env.gpu, t->host, t->env.cpu, sizeof(later)); /* same 64-byte line */
   run_fence(t, HSA_FENCE_SCOPE_NONE, HSA_FENCE_SCOPE_SYSTEM);
   int got[16];
   copy(t, t->host, t->env.cpu, dev, t->env.gpu, sizeof(got));
   memcpy(got, t->host, sizeof(got));
   CHECK(got[0] == 3);
   for (int i = 1; i < 16; i++)
      CHECK(got[i] == (i >= 8 && i < 12 ? later[i - 8] : init[i]));
}

int
main(int argc, char **argv)
{
   CHECK(argc == 3);
   cache_test t;
   memset(&t, 0, sizeof(t));
   t.check = strcmp(argv[2], "check") == 0;
   CHECK(t.check || strcmp(argv[2], "off") == 0);
   setenv("HSACL_SIM_CACHE", argv[2], 1);
   char stats_path[] = "/tmp/sim_test_cache_XXXXXX";
   int fd = mkstemp(stats_path);
   CHECK(fd >= 0);
   close(fd);
   setenv("HSACL_SIM_CACHE_STATS", stats_path, 1);

   test_env_init(&t.env);
   size_t size;
   void *data = test_read_file(argv[1], &size);
   hsa_code_object_reader_t reader;
   hsa_executable_t exec;
   CHECK_HSA(hsa_code_object_reader_create_from_memory(data, size, &reader));
   CHECK_HSA(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
                                       NULL, &exec));
   CHECK_HSA(hsa_executable_load_agent_code_object(exec, t.env.gpu, reader, NULL, NULL));
   CHECK_HSA(hsa_executable_freeze(exec, NULL));
   t.scale = kernel_object(exec, t.env.gpu, "scale.kd");
   t.bump = kernel_object(exec, t.env.gpu, "bump.kd");
   CHECK_HSA(hsa_queue_create(t.env.gpu, 64, HSA_QUEUE_TYPE_SINGLE, NULL, NULL, UINT32_MAX,
                              UINT32_MAX, &t.queue));
   CHECK_HSA(hsa_signal_create(1, 0, NULL, &t.signal));
   CHECK_HSA(hsa_amd_memory_pool_allocate(t.env.device_pool, 1024, 0, (void **)&t.in));
   CHECK_HSA(hsa_amd_memory_pool_allocate(t.env.device_pool, 1024, 0, (void **)&t.out));
   CHECK_HSA(hsa_amd_memory_pool_allocate(t.env.system_pool, 1024, 0, (void **)&t.host));
   CHECK_HSA(hsa_amd_memory_pool_allocate(t.env.kernarg_pool, 64, 0, &t.kernarg));
   hsa_agent_t both[2] = { t.env.gpu, t.env.cpu };
   CHECK_HSA(hsa_amd_agents_allow_access(2, both, NULL, t.host));
   CHECK_HSA(hsa_amd_agents_allow_access(2, both, NULL, t.kernarg));
   CHECK_HSA(hsa_amd_agents_allow_access(1, &t.env.gpu, NULL, t.in));
   CHECK_HSA(hsa_amd_agents_allow_access(1, &t.env.gpu, NULL, t.out));

   /* The counters exist from the first fence on. */
   run_fence(&t, HSA_FENCE_SCOPE_NONE, HSA_FENCE_SCOPE_NONE);
   fd = open(stats_path, O_RDONLY);
   CHECK(fd >= 0);
   void *m = mmap(NULL, sizeof(struct cache_stats), PROT_READ, MAP_SHARED, fd, 0);
   CHECK(m != MAP_FAILED);
   close(fd);
   unlink(stats_path);
   t.stats = m;
   CHECK(t.stats->magic == 0x3153544154534c32ull);
   CHECK(t.stats->checking == (t.check ? 1u : 0u));

   test_release(&t);
   test_acquire(&t);
   test_byte_merge(&t);

   CHECK_HSA(hsa_amd_memory_pool_free(t.in));
   CHECK_HSA(hsa_amd_memory_pool_free(t.out));
   CHECK_HSA(hsa_amd_memory_pool_free(t.host));
   CHECK_HSA(hsa_amd_memory_pool_free(t.kernarg));
   CHECK_HSA(hsa_signal_destroy(t.signal));
   CHECK_HSA(hsa_queue_destroy(t.queue));
   CHECK_HSA(hsa_executable_destroy(exec));
   CHECK_HSA(hsa_code_object_reader_destroy(reader));
   free(data);
   CHECK_HSA(hsa_shut_down());
   printf("sim_test_cache %s: ok\n", argv[2]);
   return 0;
}
