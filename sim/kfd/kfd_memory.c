/*
 * sim/kfd/kfd_memory.c — memory of the software KFD: allocation, registration of user
 * memory, GPU mapping, pointer info; and the interpreter's view of it (sim__mem_find,
 * sim_isa.h).
 *
 * GPU VA == CPU VA everywhere (ROCr passes AlternateVAGPU = 0 on and uses the host
 * address, amd_memory_region.cpp Lock). Every allocation is anonymous host memory,
 * MAP_NORESERVE (ROCr reserves a 4 GiB scratch pool per GPU at start-up and the VRAM pool
 * allocates 2 MiB blocks it sub-allocates): pages cost nothing until touched.
 *
 * The table holds one entry per allocation or registration, sorted by address, under a
 * read-write lock; the interpreter's lookups take the read lock. Only entries mapped to a
 * GPU (hsaKmtMapMemoryToGPU*) are visible to the interpreter: an access anywhere else is a
 * memory violation, reported through the CP as on hardware. Registrations nested inside
 * an existing entry (hsa_amd_memory_lock of pool memory, a second lock of the same
 * buffer) are counted on the containing entry.
 *
 * Scratch: ROCr allocates one scratch pool per GPU (Scratch flag) at start-up and maps only
 * the sub-ranges it hands to queues (AcquireQueueScratch: hsaKmtMapMemoryToGPU of part of the
 * pool, hsaKmtUnmapMemoryToGPU when released). Each mapped sub-range is a window the GPU
 * reaches; the rest of the pool faults, as unmapped scratch does on hardware.
 *
 * Executable allocations (ExecuteAccess: code objects, ROCr's blit kernels) are writable
 * by the GPU — ROCr's loader copies code into them with its blit kernels — and their
 * decoded instructions are dropped when ROCr invalidates the code caches (a PM4 packet,
 * kfd_memory_invalidate_code). A dispatch may still be running a dropped decoding, so
 * dropped ones ("graves") are freed only when no queue runs a dispatch
 * (kfd_queue_quiet_locked): at a later invalidation, when a CP goes idle or a queue has
 * been destroyed (kfd_memory_reclaim_code), or at close.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kfd_priv.h"

/* GPU-executable memory the GPU may also write (SIM_ALLOC_CODE is read-only code). */
#define KFD_ALLOC_FLAGS_EXEC (SIM_ALLOC_READ | SIM_ALLOC_WRITE | SIM_ALLOC_EXEC)

typedef struct kfd_mem {
   sim_alloc a; /* first: sim__mem_find hands out &a */
   HSA_POINTER_TYPE type;
   uint32_t node;
   HsaMemFlags flags;
   void *user_data;
   bool owns;           /* we mmapped it: munmap on free */
   bool mapped;         /* visible to the GPUs */
   uint32_t refs;       /* registrations (nested ones included) */
   uint32_t nmapped;
   HSAuint32 mapped_nodes[KFD_MAX_GPUS];
   /* Registered user memory: one entry serves every registration of the range (nested
    * ones counted in refs), so its GPU mapping is counted too — each registration maps
    * and unmaps it once (hsa_amd_memory_lock/unlock), and an unlock must not take the
    * range from a registration still in use. */
   uint32_t map_refs;
   HSAuint32 registered_nodes[KFD_MAX_GPUS];
} kfd_mem;

typedef struct kfd_nested {
   uint64_t va;
   kfd_mem *parent;
   struct kfd_nested *next;
} kfd_nested;

/* A mapped sub-range of a scratch pool (table write lock). */
typedef struct kfd_window {
   sim_alloc a; /* first: sim__mem_find hands out &a */
   const struct kfd_mem *pool;
   struct kfd_window *next;
} kfd_window;

typedef struct kfd_grave {
   void *program;
   struct kfd_grave *next;
} kfd_grave;

static pthread_rwlock_t table_lock = PTHREAD_RWLOCK_INITIALIZER;
static kfd_mem **table;
static size_t table_count, table_cap;
static kfd_nested *nested; /* table write lock */
static kfd_grave *graves;  /* table write lock */
static _Atomic bool graves_pending; /* graves != NULL, readable without the lock */
static kfd_window *windows; /* table write lock */

/* ---- the table ------------------------------------------------------------------------ */

/* Index of the last entry with va <= addr, or -1. Lock held. */
static ptrdiff_t
floor_locked(uint64_t addr)
{
   size_t lo = 0, hi = table_count;
   while (lo < hi) {
      size_t mid = (lo + hi) / 2;
      if (table[mid]->a.va <= addr)
         lo = mid + 1;
      else
         hi = mid;
   }
   return (ptrdiff_t)lo - 1;
}

/* The entry whose bytes hold `addr`. Lock held. */
static kfd_mem *
find_locked(uint64_t addr)
{
   ptrdiff_t i = floor_locked(addr);
   if (i < 0)
      return NULL;
   kfd_mem *e = table[i];
   return addr - e->a.va < e->a.size ? e : NULL;
}

static ptrdiff_t
index_of_locked(const kfd_mem *e)
{
   ptrdiff_t i = floor_locked(e->a.va);
   while (i >= 0 && table[i] != e)
      i--;
   return i;
}

static bool
insert_locked(kfd_mem *e)
{
   if (table_count == table_cap) {
      size_t cap = table_cap ? table_cap * 2 : 256;
      kfd_mem **n = realloc(table, cap * sizeof(*table));
      if (!n)
         return false;
      table = n;
      table_cap = cap;
   }
   size_t i = (size_t)(floor_locked(e->a.va) + 1);
   memmove(&table[i + 1], &table[i], (table_count - i) * sizeof(*table));
   table[i] = e;
   table_count++;
   return true;
}

static void
remove_locked(kfd_mem *e)
{
   ptrdiff_t i = index_of_locked(e);
   if (i < 0)
      return;
   memmove(&table[i], &table[i + 1], (table_count - (size_t)i - 1) * sizeof(*table));
   table_count--;
}

/* Removes the windows of scratch pool `pool` that start at `va` (0: all of them). Table
 * write lock held. ROCr unmaps scratch only while no dispatch uses it. */
static void
windows_drop_locked(const kfd_mem *pool, uint64_t va)
{
   for (kfd_window **w = &windows; *w;) {
      if ((*w)->pool == pool && (!va || (*w)->a.va == va)) {
         kfd_window *dead = *w;
         *w = dead->next;
         free(dead);
      } else {
         w = &(*w)->next;
      }
   }
}

/* True if [va, va+size) overlaps no entry. Lock held. */
static bool
range_free_locked(uint64_t va, uint64_t size)
{
   ptrdiff_t i = floor_locked(va + size - 1);
   return i < 0 || table[i]->a.va + table[i]->a.size <= va;
}

/* System memory (allocations of the CPU node) is counted against the machine's physical
 * memory, as the KFD counts it against its system-memory limit: past it an allocation fails
 * with NO_MEMORY now instead of an OOM kill later (as in the software runtime's pools). */
static pthread_mutex_t system_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t system_used;

static bool
system_charge(uint64_t bytes)
{
   long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
   uint64_t total = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : 1ull << 32;
   pthread_mutex_lock(&system_lock);
   bool ok = bytes <= total - (system_used < total ? system_used : total);
   if (ok)
      system_used += bytes;
   pthread_mutex_unlock(&system_lock);
   return ok;
}

static void
system_uncharge(uint64_t bytes)
{
   pthread_mutex_lock(&system_lock);
   system_used -= bytes < system_used ? bytes : system_used;
   pthread_mutex_unlock(&system_lock);
}

static void
entry_destroy(kfd_mem *e)
{
   sim__isa_program_free(atomic_load(&e->a.isa_program));
   sim__cache_forget(&e->a);
   if (e->owns) {
      munmap((void *)(uintptr_t)e->a.va, sim_align_up(e->a.size, KFD_PAGE));
      if (!kfd_node_is_gpu(e->node))
         system_uncharge(sim_align_up(e->a.size, KFD_PAGE));
   }
   free(e);
}

/* The interpreter's lookup (sim_isa.h): the mapped entry whose pages hold `va`. */
const sim_alloc *
sim__mem_find(uint64_t va)
{
   const sim_alloc *found = NULL;
   pthread_rwlock_rdlock(&table_lock);
   ptrdiff_t i = floor_locked(va);
   if (i >= 0) {
      kfd_mem *e = table[i];
      if (va - e->a.va < e->a.reach && e->mapped) {
         found = &e->a;
      } else if (va - e->a.va < e->a.size && e->flags.ui32.Scratch) {
         for (kfd_window *w = windows; w; w = w->next)
            if (va - w->a.va < w->a.reach)
               found = &w->a;
      }
   }
   pthread_rwlock_unlock(&table_lock);
   return found;
}

hsa_status_t
kfd_memory_open(void)
{
   return HSA_STATUS_SUCCESS;
}

static void
graves_free_locked(void)
{
   while (graves) {
      kfd_grave *g = graves;
      graves = g->next;
      sim__isa_program_free(g->program);
      free(g);
   }
   atomic_store(&graves_pending, false);
}

/* Frees what ROCr left behind (a process exiting without hsa_shut_down). */
void
kfd_memory_close(void)
{
   pthread_rwlock_wrlock(&table_lock);
   for (size_t i = 0; i < table_count; i++)
      entry_destroy(table[i]);
   free(table);
   table = NULL;
   table_count = table_cap = 0;
   while (nested) {
      kfd_nested *n = nested;
      nested = n->next;
      free(n);
   }
   while (windows) {
      kfd_window *w = windows;
      windows = w->next;
      free(w);
   }
   graves_free_locked();
   pthread_rwlock_unlock(&table_lock);
}

void
kfd_memory_invalidate_code(const sim_cp *self)
{
   pthread_rwlock_wrlock(&table_lock);
   for (size_t i = 0; i < table_count; i++) {
      kfd_mem *e = table[i];
      if (!(e->a.flags & SIM_ALLOC_EXEC))
         continue;
      void *p = atomic_exchange(&e->a.isa_program, NULL);
      if (!p)
         continue;
      kfd_grave *g = malloc(sizeof(*g));
      if (!g) {
         atomic_store(&e->a.isa_program, p); /* keep the stale decoding rather than crash */
         continue;
      }
      g->program = p;
      g->next = graves;
      graves = g;
   }
   /* Checked after the swap, under the write lock (kfd_queue_quiet_locked). */
   if (graves && kfd_queue_quiet_locked(self))
      graves_free_locked();
   atomic_store(&graves_pending, graves != NULL);
   pthread_rwlock_unlock(&table_lock);
}

bool
kfd_memory_code_pending(void)
{
   return atomic_load_explicit(&graves_pending, memory_order_relaxed);
}

void
kfd_memory_reclaim_code(void)
{
   pthread_rwlock_wrlock(&table_lock);
   if (graves && kfd_queue_quiet_locked(NULL))
      graves_free_locked();
   pthread_rwlock_unlock(&table_lock);
}

#define CHECK_OPEN()                                                                          \
   do {                                                                                       \
      if (!kfd_is_open())                                                                     \
         return HSAKMT_STATUS_KERNEL_IO_CHANNEL_NOT_OPENED;                                   \
   } while (0)

static kfd_mem *
entry_new(uint64_t va, uint64_t size, HSA_POINTER_TYPE type, uint32_t node, HsaMemFlags flags)
{
   kfd_mem *e = calloc(1, sizeof(*e));
   if (!e)
      return NULL;
   e->a.va = va;
   e->a.size = size;
   e->a.reach = sim_align_up(va + size, KFD_PAGE) - va;
   e->a.view = (uint8_t *)(uintptr_t)va;
   e->a.flags = flags.ui32.ExecuteAccess ? KFD_ALLOC_FLAGS_EXEC
                : flags.ui32.ReadOnly    ? SIM_ALLOC_READ
                                         : SIM_ALLOC_READ | SIM_ALLOC_WRITE;
   /* ROCr's coarse-grained pools (VRAM, coarse system memory) are cached in the GPU's L2;
    * registered user memory and code are not (sim_isa.h). */
   if (flags.ui32.CoarseGrain && !flags.ui32.ExecuteAccess && type == HSA_POINTER_ALLOCATED)
      e->a.flags |= SIM_ALLOC_COARSE;
   for (uint32_t i = 0; i < kfd_gpu_count(); i++)
      e->registered_nodes[i] = i + 1; /* every GPU: one address space */
   e->type = type;
   e->node = node;
   e->flags = flags;
   e->refs = 1;
   return e;
}

/* ---- the KFD's own pages: doorbells, the event page ----------------------------------- */

/* `size` bytes of host memory mapped for every GPU with `flags` (enum sim_alloc_flags),
 * outside ROCr's allocations; NULL when out of memory. */
static void *
internal_create(uint64_t size, uint32_t flags)
{
   void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
   if (p == MAP_FAILED)
      return NULL;
   HsaMemFlags none = {0};
   kfd_mem *e = entry_new((uint64_t)(uintptr_t)p, size, HSA_POINTER_ALLOCATED, 0, none);
   if (!e)
      goto out_unmap;
   e->a.flags = flags;
   e->owns = false; /* internal_destroy unmaps it */
   e->mapped = true;
   pthread_rwlock_wrlock(&table_lock);
   bool ok = insert_locked(e);
   pthread_rwlock_unlock(&table_lock);
   if (!ok) {
      free(e);
      goto out_unmap;
   }
   return p;

out_unmap:
   munmap(p, size);
   return NULL;
}

static void
internal_destroy(void *p, uint64_t size)
{
   if (!p)
      return;
   pthread_rwlock_wrlock(&table_lock);
   kfd_mem *e = find_locked((uint64_t)(uintptr_t)p);
   if (e)
      remove_locked(e);
   pthread_rwlock_unlock(&table_lock);
   free(e);
   munmap(p, size);
}

/* A queue's doorbell page, as the KFD maps the doorbell BAR for the GPU too (ROCr's doorbell
 * signal points there, and a kernel rings through it: ockl's __ockl_hsa_signal_store). */
void *
kfd_memory_doorbell_create(void)
{
   return internal_create(KFD_PAGE, SIM_ALLOC_READ | SIM_ALLOC_WRITE | SIM_ALLOC_DOORBELL);
}

void
kfd_memory_doorbell_destroy(void *page)
{
   internal_destroy(page, KFD_PAGE);
}

/* The event page: fine-grained (uncached) system memory mapped for every GPU, as the thunk
 * allocates it (hsaKmtCreateEvent: allocate_exec_aligned_memory_gpu, uncached, mapped to
 * all GPUs) and amdkfd adopts it as the process's signal page (kfd_event_page_set). */
void *
kfd_memory_events_create(uint64_t size)
{
   return internal_create(sim_align_up(size, KFD_PAGE), SIM_ALLOC_READ | SIM_ALLOC_WRITE);
}

void
kfd_memory_events_destroy(void *page, uint64_t size)
{
   internal_destroy(page, sim_align_up(size, KFD_PAGE));
}

/* ---- allocation ------------------------------------------------------------------------ */

KFD_EXPORT HSAKMT_STATUS HSAKMTAPI
hsaKmtAllocMemory(HSAuint32 PreferredNode, HSAuint64 SizeInBytes, HsaMemFlags MemFlags,
                  void **MemoryAddress)
{
   CHECK_OPEN();
   if (!MemoryAddress || SizeInBytes == 0)
      return HSAKMT_STATUS_INVALID_PARAMETER;
   if (!kfd_node_valid(PreferredNode))
      return HSAKMT_STATUS_INVALID_NODE_UNIT;
   if (MemFlags.ui32.GDSMemory)
      return HSAKMT_STATUS_NOT_SUPPORTED; /* GDSSizeInKB = 0 (GWS is hsaKmtAllocQueueGWS's) */
   if ((MemFlags.ui32.Scratch || MemFlags.ui32.GDSMemory) && !kfd_node_is_gpu(PreferredNode))
      return HSAKMT_STATUS_INVALID_NODE_UNIT;
   uint64_t size = sim_align_up(SizeInBytes, KFD_PAGE);
   int mflags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
   void *hint = NULL;
   if (MemFlags.ui32.FixedAddress) {
      hint = *MemoryAddress;
      if (!hint || ((uintptr_t)hint & (KFD_PAGE - 1)))
         return HSAKMT_STATUS_INVALID_PARAMETER;
      mflags |= MAP_FIXED_NOREPLACE;
   }
   bool system = !kfd_node_is_gpu(PreferredNode);
   if (system && !system_charge(size)) {
      SIM_LOGW("kfd", "system memory: %llu bytes would exceed the machine's physical memory",
               (unsigned long long)size);
      return HSAKMT_STATUS_NO_MEMORY;
   }
   void *p = mmap(hint, size, PROT_READ | PROT_WRITE, mflags, -1, 0);
   if (p == MAP_FAILED || (hint && p != hint)) {
      if (p != MAP_FAILED)
         munmap(p, size);
      if (system)
         system_uncharge(size);
      return HSAKMT_STATUS_NO_MEMORY;
   }
   kfd_mem *e = entry_new((uint64_t)(uintptr_t)p, size, HSA_POINTER_ALLOCATED, PreferredNode,
                          MemFlags);
   if (!e)
      goto out_unmap;
   e->owns = true;
   pthread_rwlock_wrlock(&table_lock);
   bool ok = insert_locked(e);
   pthread_rwlock_unlock(&table_lock);
   if (!ok)
      goto out_free;
   *MemoryAddress = p;
   SIM_LOGD("kfd", "alloc node %u: %llu bytes at %p flags 0x%x", PreferredNode,
            (unsigned long long)size, p, MemFlags.Value);
   return HSAKMT_STATUS_SUCCESS;

out_free:
   free(e);
out_unmap:
   munmap(p, size);
   if (system)
      system_uncharge(size);
   return HSAKMT_STATUS_NO_MEMORY;
}

KFD_EXPORT HSAKMT_STATUS HSAKMTAPI
hsaKmtFreeMemory(void *MemoryAddress, HSAuint64 SizeInBytes)
{
   (void)SizeInBytes;
   CHECK_OPEN();
   if (!MemoryAddress)
      return HSAKMT_STATUS_INVALID_PARAMETER;
   pthread_rwlock_wrlock(&table_lock);
   kfd_mem *e = find_locked((uint64_t)(uintptr_t)MemoryAddress);
   if (!e || e->a.va != (uint64_t)(uintptr_t)MemoryAddress || e->type != HSA_POINTER_ALLOCATED) {
      pthread_rwlock_unlock(&table_lock);
      return HSAKMT_STATUS_INVALID_PARAMETER;
   }
   remove_locked(e);
   windows_drop_locked(e, 0);
   /* Registrations nested in it die with it. */
   for (kfd_nested **n = &nested; *n;) {
      if ((*n)->parent == e) {
         kfd_nested *dead = *n;
         *n = dead->next;
         free(dead);
      } else {
         n = &(*n)->next;
      }
   }
   pthread_rwlock_unlock(&table_lock);
   entry_destroy(e);
   return HSAKMT_STATUS_SUCCESS;
}

/* ---- registration of user memory (hsa_amd_memory_lock) ---------------------------------- */

KFD_EXPORT HSAKMT_STATUS HSAKMTAPI
hsaKmtRegisterMemoryWithFlags(void *MemoryAddress, HSAuint64 MemorySizeInBytes,
                              HsaMemFlags MemFlags)
{
   CHECK_OPEN();
   if (!MemoryAddress || MemorySizeInBytes == 0)
      return HSAKMT_STATUS_INVALID_PARAMETER;
   uint64_t va = (uint64_t)(uintptr_t)MemoryAddress;
   HSAKMT_STATUS st = HSAKMT_STATUS_SUCCESS;
   pthread_rwlock_wrlock(&table_lock);
   kfd_mem *outer = find_locked(va);
   if (outer && va + MemorySizeInBytes <= outer->a.va + outer->a.size) {
      kfd_nested *n = malloc(sizeof(*n));
      if (!n) {
         st = HSAKMT_STATUS_NO_MEMORY;
         goto out_unlock;
      }
      n->va = va;
      n->parent = outer;
      n->next = nested;
      nested = n;
      outer->refs++;
      goto out_unlock;
   }
   if (!range_free_locked(va, MemorySizeInBytes)) {
      st = HSAKMT_STATUS_MEMORY_ALREADY_REGISTERED;
      goto out_unlock;
   }
   kfd_mem *e = entry_new(va, MemorySizeInBytes, HSA_POINTER_REGISTERED_USER, 0, MemFlags);
   if (!e || !insert_locked(e)) {
      free(e);
      st = HSAKMT_STATUS_NO_MEMORY;
   }
out_unlock:
   pthread_rwlock_unlock(&table_lock);
   return st;
}

KFD_EXPORT HSAKMT_STATUS HSAKMTAPI
hsaKmtDeregisterMemory(void *MemoryAddress)
{
   CHECK_OPEN();
   uint64_t va = (uint64_t)(uintptr_t)MemoryAddress;
   HSAKMT_STATUS st = HSAKMT_STATUS_SUCCESS;
   kfd_mem *dead = NULL;
   pthread_rwlock_wrlock(&table_lock);
   for (kfd_nested **n = &nested; *n; n = &(*n)->next) {
      if ((*n)->va == va) {
         kfd_nested *gone = *n;
         kfd_mem *parent = gone->parent;
         *n = gone->next;
         free(gone);
         /* The last registration of the range (the outer one went first). */
         if (--parent->refs == 0 && parent->type == HSA_POINTER_REGISTERED_USER) {
            remove_locked(parent);
            dead = parent;
         }
         goto out_unlock;
      }
   }
   kfd_mem *e = find_locked(va);
   if (!e || e->a.va != va) {
      st = HSAKMT_STATUS_MEMORY_NOT_REGISTERED;
   } else if (e->type == HSA_POINTER_REGISTERED_USER && --e->refs == 0) {
      remove_locked(e);
      dead = e;
   }
out_unlock:
   pthread_rwlock_unlock(&table_lock);
   if (dead)
      entry_destroy(dead);
   return st;
}

/* ---- GPU mappings ------------------------------------------------------------------------ */

/* Maps [va, va + size) of scratch pool `e`. Table write lock held. */
static HSAKMT_STATUS
window_map_locked(kfd_mem *e, uint64_t va, uint64_t size)
{
   if (size == 0 || size > e->a.size - (va - e->a.va))
      return HSAKMT_STATUS_INVALID_PARAMETER;
   windows_drop_locked(e, va);
   kfd_window *w = calloc(1, sizeof(*w));
   if (!w)
      return HSAKMT_STATUS_NO_MEMORY;
   w->a.va = va;
   w->a.size = size;
   w->a.reach = sim_align_up(size, KFD_PAGE);
   w->a.view = e->a.view + (va - e->a.va);
   w->a.flags = SIM_ALLOC_READ | SIM_ALLOC_WRITE;
   w->pool = e;
   w->next = windows;
   windows = w;
   return HSAKMT_STATUS_SUCCESS;
}

static HSAKMT_STATUS
map_nodes(void *MemoryAddress, uint64_t size, HSAuint64 *AlternateVAGPU, uint64_t count,
          const HSAuint32 *nodes)
{
   CHECK_OPEN();
   if (!MemoryAddress)
      return HSAKMT_STATUS_INVALID_PARAMETER;
   for (uint64_t i = 0; i < count; i++) {
      if (!kfd_node_is_gpu(nodes[i]))
         return HSAKMT_STATUS_INVALID_NODE_UNIT;
   }
   HSAKMT_STATUS st = HSAKMT_STATUS_SUCCESS;
   pthread_rwlock_wrlock(&table_lock);
   kfd_mem *e = find_locked((uint64_t)(uintptr_t)MemoryAddress);
   if (!e) {
      st = HSAKMT_STATUS_INVALID_PARAMETER;
   } else if (e->flags.ui32.Scratch) {
      st = window_map_locked(e, (uint64_t)(uintptr_t)MemoryAddress, size);
   } else {
      e->mapped = true;
      e->nmapped = 0;
      for (uint64_t i = 0; i < count && e->nmapped < KFD_MAX_GPUS; i++)
         e->mapped_nodes[e->nmapped++] = nodes[i];
      if (e->type == HSA_POINTER_REGISTERED_USER)
         e->map_refs++;
   }
   pthread_rwlock_unlock(&table_lock);
   if (st == HSAKMT_STATUS_SUCCESS && AlternateVAGPU)
      *AlternateVAGPU = 0; /* the GPU uses the CPU address */
   return st;
}

KFD_EXPORT HSAKMT_STATUS HSAKMTAPI
hsaKmtMapMemoryToGPU(void *MemoryAddress, HSAuint64 MemorySizeInBytes, HSAuint64 *AlternateVAGPU)
{
   HSAuint32 all[KFD_MAX_GPUS];
   uint32_t n = kfd_gpu_count();
   for (uint32_t i = 0; i < n; i++)
      all[i] = i + 1;
   return map_nodes(MemoryAddress, MemorySizeInBytes, AlternateVAGPU, n, all);
}

KFD_EXPORT HSAKMT_STATUS HSAKMTAPI
hsaKmtMapMemoryToGPUNodes(void *MemoryAddress, HSAuint64 MemorySizeInBytes,
                          HSAuint64 *AlternateVAGPU, HsaMemMapFlags MemMapFlags,
                          HSAuint64 NumberOfNodes, HSAuint32 *NodeArray)
{
   (void)MemMapFlags;
   if (NumberOfNodes && !NodeArray)
      return HSAKMT_STATUS_INVALID_PARAMETER;
   return map_nodes(MemoryAddress, MemorySizeInBytes, AlternateVAGPU, NumberOfNodes, NodeArray);
}

KFD_EXPORT HSAKMT_STATUS HSAKMTAPI
hsaKmtUnmapMemoryToGPU(void *MemoryAddress)
{
   CHECK_OPEN();
   if (!MemoryAddress)
      return HSAKMT_STATUS_INVALID_PARAMETER;
   HSAKMT_STATUS st = HSAKMT_STATUS_SUCCESS;
   pthread_rwlock_wrlock(&table_lock);
   kfd_mem *e = find_locked((uint64_t)(uintptr_t)MemoryAddress);
   if (!e) {
      st = HSAKMT_STATUS_INVALID_PARAMETER;
   } else if (e->flags.ui32.Scratch) {
      windows_drop_locked(e, (uint64_t)(uintptr_t)MemoryAddress);
   } else if (e->type == HSA_POINTER_REGISTERED_USER && e->map_refs > 1) {
      e->map_refs--; /* another registration of the range still maps it */
   } else {
      e->map_refs = 0;
      e->mapped = false;
      e->nmapped = 0;
   }
   pthread_rwlock_unlock(&table_lock);
   return st;
}

/* ---- pointer info ------------------------------------------------------------------------ */

KFD_EXPORT HSAKMT_STATUS HSAKMTAPI
hsaKmtQueryPointerInfo(const void *Pointer, HsaPointerInfo *PointerInfo)
{
   if (!PointerInfo)
      return HSAKMT_STATUS_INVALID_PARAMETER;
   memset(PointerInfo, 0, sizeof(*PointerInfo));
   PointerInfo->Type = HSA_POINTER_UNKNOWN;
   CHECK_OPEN();
   HSAKMT_STATUS st = HSAKMT_STATUS_ERROR;
   pthread_rwlock_rdlock(&table_lock);
   kfd_mem *e = find_locked((uint64_t)(uintptr_t)Pointer);
   if (e) {
      PointerInfo->Type = e->type;
      PointerInfo->Node = e->node;
      PointerInfo->MemFlags = e->flags;
      PointerInfo->CPUAddress = (void *)(uintptr_t)e->a.va;
      PointerInfo->GPUAddress = e->a.va;
      PointerInfo->SizeInBytes = e->a.size;
      /* Registered and mapped node lists live in the entry: valid until it is freed (ROCr
       * copies them under its memory lock). */
      PointerInfo->NMappedNodes = e->mapped ? e->nmapped : 0;
      PointerInfo->MappedNodes = e->mapped_nodes;
      PointerInfo->NRegisteredNodes = kfd_gpu_count();
      PointerInfo->RegisteredNodes = e->registered_nodes;
      PointerInfo->UserData = e->user_data;
      st = HSAKMT_STATUS_SUCCESS;
   }
   pthread_rwlock_unlock(&table_lock);
   return st;
}

KFD_EXPORT HSAKMT_STATUS HSAKMTAPI
hsaKmtSetMemoryUserData(const void *Pointer, void *UserData)
{
   CHECK_OPEN();
   HSAKMT_STATUS st = HSAKMT_STATUS_INVALID_PARAMETER;
   pthread_rwlock_wrlock(&table_lock);
   kfd_mem *e = find_locked((uint64_t)(uintptr_t)Pointer);
   if (e) {
      e->user_data = UserData;
      st = HSAKMT_STATUS_SUCCESS;
   }
   pthread_rwlock_unlock(&table_lock);
   return st;
}

/* ---- what a software GPU cannot mean ------------------------------------------------------- */

/* APE1 memory policy: Kaveri only (ROCr calls it for gfx7.0.0). */
KFD_EXPORT HSAKMT_STATUS HSAKMTAPI
hsaKmtSetMemoryPolicy(HSAuint32 Node, HSAuint32 DefaultPolicy, HSAuint32 AlternatePolicy,
                      void *MemoryAddressAlternate, HSAuint64 MemorySizeInBytes)
{
   (void)Node, (void)DefaultPolicy, (void)AlternatePolicy, (void)MemoryAddressAlternate,
      (void)MemorySizeInBytes;
   return HSAKMT_STATUS_NOT_SUPPORTED;
}

/* IPC: memory is private to this process (no dma-buf to share). */
KFD_EXPORT HSAKMT_STATUS HSAKMTAPI
hsaKmtShareMemory(void *MemoryAddress, HSAuint64 SizeInBytes,
                  HsaSharedMemoryHandle *SharedMemoryHandle)
{
   (void)MemoryAddress, (void)SizeInBytes, (void)SharedMemoryHandle;
   return HSAKMT_STATUS_NOT_SUPPORTED;
}

KFD_EXPORT HSAKMT_STATUS HSAKMTAPI
hsaKmtRegisterSharedHandle(const HsaSharedMemoryHandle *SharedMemoryHandle, void **MemoryAddress,
                           HSAuint64 *SizeInBytes)
{
   (void)SharedMemoryHandle, (void)MemoryAddress, (void)SizeInBytes;
   return HSAKMT_STATUS_NOT_SUPPORTED;
}

KFD_EXPORT HSAKMT_STATUS HSAKMTAPI
hsaKmtRegisterSharedHandleToNodes(const HsaSharedMemoryHandle *SharedMemoryHandle,
                                  void **MemoryAddress, HSAuint64 *SizeInBytes,
                                  HSAuint64 NumberOfNodes, HSAuint32 *NodeArray)
{
   (void)SharedMemoryHandle, (void)MemoryAddress, (void)SizeInBytes, (void)NumberOfNodes,
      (void)NodeArray;
   return HSAKMT_STATUS_NOT_SUPPORTED;
}

/* Graphics interop: there is no graphics driver. */
KFD_EXPORT HSAKMT_STATUS HSAKMTAPI
hsaKmtRegisterGraphicsHandleToNodes(HSAuint64 GraphicsResourceHandle,
                                    HsaGraphicsResourceInfo *GraphicsResourceInfo,
                                    HSAuint64 NumberOfNodes, HSAuint32 *NodeArray)
{
   (void)GraphicsResourceHandle, (void)GraphicsResourceInfo, (void)NumberOfNodes,
      (void)NodeArray;
   return HSAKMT_STATUS_NOT_SUPPORTED;
}

/* SVM range attributes need HMM migration; Capability.SVMAPISupported is 0. */
KFD_EXPORT HSAKMT_STATUS HSAKMTAPI
hsaKmtSVMSetAttr(void *start_addr, HSAuint64 size, unsigned int nattr, HSA_SVM_ATTRIBUTE *attrs)
{
   (void)start_addr, (void)size, (void)nattr, (void)attrs;
   return HSAKMT_STATUS_NOT_SUPPORTED;
}

KFD_EXPORT HSAKMT_STATUS HSAKMTAPI
hsaKmtSVMGetAttr(void *start_addr, HSAuint64 size, unsigned int nattr, HSA_SVM_ATTRIBUTE *attrs)
{
   (void)start_addr, (void)size, (void)nattr, (void)attrs;
   return HSAKMT_STATUS_NOT_SUPPORTED;
}
