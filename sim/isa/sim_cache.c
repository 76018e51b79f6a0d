/*
 * The GPU agents' L2 caches of coarse-grained memory, and the packet fences that make them
 * coherent (sim_isa.h: "The GPU agents' L2 caches").
 *
 * Checking mode (HSACL_SIM_CACHE=check). Each agent keeps, per coarse-grained allocation
 * it touched, a shadow of the allocation in 64-byte lines:
 *   - a line is valid when it was filled from memory since the agent's last system-scope
 *     acquire (its `epoch` is the agent's), or when it holds dirty bytes;
 *   - an access fills the lines it covers that are not valid, then reads or writes the
 *     shadow; a write marks its bytes dirty (a 64-bit mask per line) before it is made;
 *   - a system-scope release writes the dirty bytes of every line back to memory (bytes,
 *     not whole lines: bytes another agent or the host wrote stay theirs) and leaves the
 *     lines valid; a system-scope acquire invalidates the clean lines (a new epoch), so the
 *     next access reads memory again. Dirty lines stay: they are the agent's newest data
 *     and a missing release must still show.
 * The host, the copy engine and other agents read and write memory itself, so they see an
 * agent's writes only after its system-scope release, and the agent sees theirs only after
 * its system-scope acquire: a missing fence shows as stale data, as on hardware.
 *
 * Concurrency: dispatches of one agent hold its lock shared while their waves run; fences
 * take it exclusively, so a write-back or invalidation never races a wave's access (a
 * wave marks bytes dirty before it writes them, and fills a line under a per-line state).
 * So in checking mode a fence waits for the agent's running dispatches: kernels that wait
 * for each other across queues of one agent (not promised by OpenCL or HSA) can deadlock
 * until the watchdog stops them.
 */
#include "sim_isa_priv.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

bool sim__cache_checking;

#define LINE SIM_CACHE_LINE
#define FILLING 1u    /* state of a line being filled */
#define FIRST_EPOCH 2u

/* One agent's shadow of one allocation. */
typedef struct shadow {
   const sim_alloc *alloc;
   unsigned agent;
   uint64_t lines;
   uint8_t *data;                 /* lines * 64 bytes */
   _Atomic uint32_t *state;       /* per line: 0, FILLING or the epoch it was filled in */
   _Atomic uint64_t *dirty;       /* per line: dirty byte mask */
   _Atomic uint64_t *dirty_group; /* a bit per 64 lines holding dirty bytes */
   uint64_t map_bytes;
   struct shadow *next;           /* the agent's list */
   struct shadow *prev;
} shadow;

/* The per-allocation record sim_alloc.cache_lines points to. */
typedef struct alloc_lines {
   _Atomic(shadow *) per_agent[SIM_CACHE_AGENTS];
} alloc_lines;

typedef struct agent_cache {
   pthread_rwlock_t lock;   /* shared: dispatches running; exclusive: fences */
   _Atomic uint32_t epoch;  /* lines filled in another epoch are invalid */
   pthread_mutex_t list_lock;
   shadow *list;
} agent_cache;

static agent_cache agents[SIM_CACHE_AGENTS];
static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static struct sim_cache_stats local_stats;
static struct sim_cache_stats *stats = &local_stats;

/* The interpreter has no logger of its own (sim_dispatch.c's watchdog warns the same way). */
#define CACHE_WARN(...) fprintf(stderr, "hsacl-sim: cache: " __VA_ARGS__)

static void
stats_map(const char *path)
{
   int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
   if (fd < 0) {
      CACHE_WARN("HSACL_SIM_CACHE_STATS=%s: %s; counters not written\n", path, strerror(errno));
      return;
   }
   void *m = MAP_FAILED;
   if (ftruncate(fd, sizeof(struct sim_cache_stats)) == 0)
      m = mmap(NULL, sizeof(struct sim_cache_stats), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
   close(fd);
   if (m == MAP_FAILED) {
      CACHE_WARN("HSACL_SIM_CACHE_STATS=%s: cannot map it; counters not written\n", path);
      return;
   }
   stats = m;
}

static void
cache_init(void)
{
   const char *mode = getenv("HSACL_SIM_CACHE");
   if (mode && *mode && strcmp(mode, "off") != 0) {
      if (strcmp(mode, "check") == 0)
         sim__cache_checking = true;
      else
         CACHE_WARN("HSACL_SIM_CACHE=%s is not 'check' or 'off': caches off\n", mode);
   }
   pthread_rwlockattr_t attr;
   pthread_rwlockattr_init(&attr);
   /* A fence waiting for the lock holds back new dispatches, or a busy agent would starve it. */
   pthread_rwlockattr_setkind_np(&attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
   for (unsigned i = 0; i < SIM_CACHE_AGENTS; i++) {
      pthread_rwlock_init(&agents[i].lock, &attr);
      pthread_mutex_init(&agents[i].list_lock, NULL);
      atomic_init(&agents[i].epoch, FIRST_EPOCH);
   }
   pthread_rwlockattr_destroy(&attr);
   const char *path = getenv("HSACL_SIM_CACHE_STATS");
   if (path && *path)
      stats_map(path);
   stats->magic = SIM_CACHE_STATS_MAGIC;
   stats->checking = sim__cache_checking;
}

static inline void
count(uint64_t *counter, uint64_t n)
{
   __atomic_fetch_add(counter, n, __ATOMIC_RELAXED);
}

/* ---- shadows ------------------------------------------------------------------------- */

static void
shadow_free(shadow *s)
{
   if (s->data)
      munmap(s->data, s->map_bytes);
   free(s);
}

static shadow *
shadow_new(const sim_alloc *a, unsigned agent)
{
   shadow *s = calloc(1, sizeof(*s));
   if (!s)
      return NULL;
   s->alloc = a;
   s->agent = agent;
   s->lines = (a->reach + LINE - 1) / LINE;
   uint64_t groups = (s->lines + 63) / 64;
   uint64_t data = s->lines * LINE, state = s->lines * 4, dirty = s->lines * 8,
            grp = (groups + 63) / 64 * 8;
   s->map_bytes = data + dirty + state + grp;
   /* Untouched pages cost nothing: a shadow is as large as the allocation's mapping. */
   void *m = mmap(NULL, s->map_bytes, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
   if (m == MAP_FAILED) {
      free(s);
      return NULL;
   }
   s->data = m;
   s->dirty = (_Atomic uint64_t *)(s->data + data);
   s->state = (_Atomic uint32_t *)(s->data + data + dirty);
   s->dirty_group = (_Atomic uint64_t *)(s->data + data + dirty + state);
   return s;
}

/* The agent's shadow of `a`, made on first use; NULL when out of memory. */
static shadow *
shadow_get(const sim_alloc *a, unsigned agent)
{
   sim_alloc *ma = (sim_alloc *)a; /* the cache_lines slot is ours */
   alloc_lines *al = atomic_load_explicit(&ma->cache_lines, memory_order_acquire);
   if (!al) {
      alloc_lines *fresh = calloc(1, sizeof(*fresh));
      if (!fresh)
         return NULL;
      void *expected = NULL;
      if (atomic_compare_exchange_strong(&ma->cache_lines, &expected, fresh)) {
         al = fresh;
      } else {
         free(fresh);
         al = expected;
      }
   }
   shadow *s = atomic_load_explicit(&al->per_agent[agent], memory_order_acquire);
   if (s)
      return s;
   agent_cache *c = &agents[agent];
   pthread_mutex_lock(&c->list_lock);
   s = atomic_load_explicit(&al->per_agent[agent], memory_order_acquire);
   if (!s) {
      s = shadow_new(a, agent);
      if (s) {
         s->next = c->list;
         if (c->list)
            c->list->prev = s;
         c->list = s;
         atomic_store_explicit(&al->per_agent[agent], s, memory_order_release);
      }
   }
   pthread_mutex_unlock(&c->list_lock);
   return s;
}

/* Makes line `l` of `s` valid in epoch `epoch`. */
static void
line_fill(shadow *s, uint64_t l, uint32_t epoch)
{
   for (;;) {
      uint32_t st = atomic_load_explicit(&s->state[l], memory_order_acquire);
      if (st == epoch || atomic_load_explicit(&s->dirty[l], memory_order_relaxed))
         return;
      if (st == FILLING) {
         sched_yield();
         continue;
      }
      if (!atomic_compare_exchange_weak(&s->state[l], &st, FILLING))
         continue;
      uint64_t off = l * LINE;
      uint64_t n = s->alloc->reach - off < LINE ? s->alloc->reach - off : LINE;
      memcpy(s->data + off, s->alloc->view + off, n);
      count(&stats->lines_filled, 1);
      atomic_store_explicit(&s->state[l], epoch, memory_order_release);
      return;
   }
}

void *
sim__cache_ptr(sim_wave *w, const sim_alloc *a, uint64_t va, uint32_t size, bool write)
{
   unsigned agent = w->wg->disp->agent;
   shadow *s = shadow_get(a, agent);
   if (!s) {
      sim__fault(w, SIM_FAULT_OUT_OF_RESOURCES, va,
                 "no host memory for the L2 model's lines of 0x%llx", (unsigned long long)va);
      return NULL;
   }
   uint64_t off = va - a->va;
   uint64_t first = off / LINE, last = (off + (size ? size : 1) - 1) / LINE;
   uint32_t epoch = atomic_load_explicit(&agents[agent].epoch, memory_order_relaxed);
   for (uint64_t l = first; l <= last; l++) {
      line_fill(s, l, epoch);
      if (write) {
         uint64_t lo = l == first ? off % LINE : 0;
         uint64_t hi = l == last ? (off + size - 1) % LINE : LINE - 1;
         uint64_t mask = (hi - lo == 63) ? ~0ull : (((1ull << (hi - lo + 1)) - 1) << lo);
         atomic_fetch_or_explicit(&s->dirty[l], mask, memory_order_relaxed);
         atomic_fetch_or_explicit(&s->dirty_group[l / 4096], 1ull << ((l / 64) % 64),
                                  memory_order_relaxed);
      }
   }
   return s->data + off;
}

/* ---- fences -------------------------------------------------------------------------- */

/* Copies the bytes of `m` (one bit a byte) of line `src` to `dst`, run by run. */
static void
copy_dirty_bytes(uint8_t *dst, const uint8_t *src, uint64_t m)
{
   if (m == ~0ull) {
      memcpy(dst, src, LINE);
      return;
   }
   while (m) {
      unsigned b = (unsigned)__builtin_ctzll(m);
      unsigned e = b;
      while (e < 64 && (m >> e) & 1)
         e++;
      memcpy(dst + b, src + b, e - b);
      m = e < 64 ? m & ~((1ull << e) - 1) : 0;
   }
}

/* Writes the dirty bytes of every line of agent `c` to memory and returns how many lines it
 * wrote. At a packet fence (the agent's lock held exclusively) the lines become clean and
 * valid in the current epoch; with `keep_dirty` (buffer_wbl2, waves running: see
 * write_back_running) their marks stay. */
static uint64_t
write_back_lines(agent_cache *c, bool keep_dirty)
{
   uint64_t written = 0;
   pthread_mutex_lock(&c->list_lock);
   for (shadow *s = c->list; s; s = s->next) {
      uint64_t groups = (s->lines + 63) / 64;
      for (uint64_t gw = 0; gw < (groups + 63) / 64; gw++) {
         uint64_t bits = keep_dirty
                            ? atomic_load_explicit(&s->dirty_group[gw], memory_order_acquire)
                            : atomic_exchange_explicit(&s->dirty_group[gw], 0,
                                                       memory_order_relaxed);
         while (bits) {
            uint64_t g = gw * 64 + (uint64_t)__builtin_ctzll(bits);
            bits &= bits - 1;
            uint64_t end = (g + 1) * 64 < s->lines ? (g + 1) * 64 : s->lines;
            for (uint64_t l = g * 64; l < end; l++) {
               uint64_t m = keep_dirty
                               ? atomic_load_explicit(&s->dirty[l], memory_order_acquire)
                               : atomic_exchange_explicit(&s->dirty[l], 0, memory_order_relaxed);
               if (!m)
                  continue;
               copy_dirty_bytes(s->alloc->view + l * LINE, s->data + l * LINE, m);
               if (!keep_dirty) /* still valid and now clean: in this epoch, as filled */
                  atomic_store_explicit(&s->state[l], atomic_load(&c->epoch),
                                        memory_order_relaxed);
               written++;
            }
         }
      }
   }
   pthread_mutex_unlock(&c->list_lock);
   return written;
}

static uint64_t
write_back(agent_cache *c)
{
   return write_back_lines(c, false);
}

static void
fence_locked(agent_cache *c, unsigned acquire, unsigned release)
{
   if (release == HSA_FENCE_SCOPE_SYSTEM) {
      uint64_t n = write_back(c);
      count(&stats->lines_written, n);
   }
   if (acquire == HSA_FENCE_SCOPE_SYSTEM) {
      uint32_t e = atomic_load(&c->epoch) + 1;
      if (e < FIRST_EPOCH)
         e = FIRST_EPOCH; /* 2^32 acquires later: lines of the first epoch read as valid */
      atomic_store(&c->epoch, e);
   }
}

static void
count_fences(unsigned acquire, unsigned release)
{
   if (release == HSA_FENCE_SCOPE_SYSTEM)
      count(&stats->system_releases, 1);
   else if (release == HSA_FENCE_SCOPE_AGENT)
      count(&stats->agent_releases, 1);
   if (acquire == HSA_FENCE_SCOPE_SYSTEM)
      count(&stats->system_acquires, 1);
}

void
sim__cache_fence(unsigned agent, unsigned acquire, unsigned release)
{
   pthread_once(&init_once, cache_init);
   count_fences(acquire, release);
   if (!sim__cache_checking || agent >= SIM_CACHE_AGENTS)
      return;
   if (acquire != HSA_FENCE_SCOPE_SYSTEM && release != HSA_FENCE_SCOPE_SYSTEM)
      return;
   agent_cache *c = &agents[agent];
   pthread_rwlock_wrlock(&c->lock);
   fence_locked(c, acquire, release);
   pthread_rwlock_unlock(&c->lock);
}

/* gfx90a's buffer_wbl2 and buffer_invl2, from a wave while its dispatch holds the agent's
 * lock shared. The write-back copies the dirty bytes to memory but leaves them dirty: a wave
 * of another thread may be between marking bytes dirty and writing them (sim__cache_ptr),
 * and clearing its marks would lose its bytes from every later write-back. So the packet
 * fence at the dispatch's end writes them again, which changes nothing that was already
 * written. The invalidation is the acquire's new epoch; a fill racing with it keeps the old
 * epoch, so the line is filled again on its next access. */
static uint64_t
write_back_running(agent_cache *c)
{
   return write_back_lines(c, true);
}

void
sim__cache_wave_release(sim_wave *w)
{
   unsigned agent = w->wg->disp->agent;
   if (!sim__cache_checking || agent >= SIM_CACHE_AGENTS)
      return;
   count(&stats->lines_written, write_back_running(&agents[agent]));
}

void
sim__cache_wave_acquire(sim_wave *w)
{
   unsigned agent = w->wg->disp->agent;
   if (!sim__cache_checking || agent >= SIM_CACHE_AGENTS)
      return;
   uint32_t e = atomic_fetch_add(&agents[agent].epoch, 1) + 1;
   if (e < FIRST_EPOCH)
      atomic_store(&agents[agent].epoch, FIRST_EPOCH); /* see fence_locked */
}

void
sim__cache_dispatch_begin(unsigned agent, unsigned acquire)
{
   pthread_once(&init_once, cache_init);
   count(&stats->dispatches, 1);
   if (acquire == HSA_FENCE_SCOPE_SYSTEM)
      count(&stats->system_acquires, 1);
   if (!sim__cache_checking || agent >= SIM_CACHE_AGENTS)
      return;
   agent_cache *c = &agents[agent];
   if (acquire == HSA_FENCE_SCOPE_SYSTEM) {
      pthread_rwlock_wrlock(&c->lock);
      fence_locked(c, acquire, HSA_FENCE_SCOPE_NONE);
      pthread_rwlock_unlock(&c->lock);
   }
   pthread_rwlock_rdlock(&c->lock);
}

void
sim__cache_dispatch_end(unsigned agent, unsigned release)
{
   count_fences(HSA_FENCE_SCOPE_NONE, release);
   if (!sim__cache_checking || agent >= SIM_CACHE_AGENTS)
      return;
   agent_cache *c = &agents[agent];
   pthread_rwlock_unlock(&c->lock);
   if (release == HSA_FENCE_SCOPE_SYSTEM) {
      pthread_rwlock_wrlock(&c->lock);
      fence_locked(c, HSA_FENCE_SCOPE_NONE, release);
      pthread_rwlock_unlock(&c->lock);
   }
}

void
sim__cache_forget(sim_alloc *a)
{
   alloc_lines *al = atomic_exchange(&a->cache_lines, NULL);
   if (!al)
      return;
   for (unsigned i = 0; i < SIM_CACHE_AGENTS; i++) {
      shadow *s = atomic_load(&al->per_agent[i]);
      if (!s)
         continue;
      agent_cache *c = &agents[i];
      pthread_mutex_lock(&c->list_lock);
      if (s->prev)
         s->prev->next = s->next;
      else
         c->list = s->next;
      if (s->next)
         s->next->prev = s->prev;
      pthread_mutex_unlock(&c->list_lock);
      shadow_free(s);
   }
   free(al);
}
