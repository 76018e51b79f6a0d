/*
 * sim/sim_memory.c — the allocation table, the device heap, pool/region allocation, host
 * memory locking and registration, access control, synchronous copies and fills, pointer
 * info (HSA Runtime PRM §2.8 "Memory", hsa_ext_amd.h "Memory pools").
 *
 * Device heap. Coarse-grained device memory of every GPU lives in one memfd (up to 64 GiB
 * per four GPUs, sparse; each GPU's allocations count against its own device size) mapped
 * twice: the host view, whose addresses are the GPU VAs the application receives,
 * is PROT_NONE until hsa_amd_agents_allow_access grants the CPU agent access; the agent
 * view is always read/write and is what the interpreter (sim_alloc.view) and the runtime's
 * own copies use. Freed ranges are hole-punched, so new allocations read as zero; freed
 * ranges of 1 MiB and more are kept resident instead, up to a bound, and handed to the next
 * allocation of about their size zeroed (heap_keep).
 *
 * System memory (system and kernarg pools) is anonymous memory with view == VA; locked or
 * registered host memory is entered in the table with view == VA == the host pointer.
 *
 * Table. A sorted array of non-overlapping entries under a reader/writer lock; lookups are
 * binary searches under the read lock (sim__mem_find is the interpreter's hot path).
 * Lock order: table_lock, then heap_lock.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "sim_priv.h"

#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#define SIM_HAVE_VALGRIND_H 1
#endif

/* Address space reserved for each of the heap's two views: 64 GiB per four GPUs, or less
 * where the process may not have that much (heap_init). */
#define HEAP_RESERVE_MAX (64ull << 30)
#define HEAP_RESERVE_MIN (64ull << 20)
#define HEAP_RESERVE_VALGRIND (512ull << 20)

typedef struct heap_extent {
   uint64_t offset, size;
} heap_extent;

static pthread_rwlock_t table_lock = PTHREAD_RWLOCK_INITIALIZER;
static sim_mem_entry **table;
static size_t table_count, table_cap;

/* A lock of a range inside a locked entry that is not the entry's own range (HSA allows
 * overlapping locks; the table keeps one entry): it holds a count on that entry and is
 * found by its address when unlocked, as the KFD keeps nested registrations
 * (sim/kfd/kfd_memory.c). So a transfer that locks part of a CL_MEM_USE_HOST_PTR buffer's
 * memory and unlocks it leaves the buffer's lock in place. Under table_lock. */
typedef struct nested_lock {
   uint64_t va;
   sim_mem_entry *parent;
   struct nested_lock *next;
} nested_lock;
static nested_lock *nested_locks;

static pthread_mutex_t heap_lock = PTHREAD_MUTEX_INITIALIZER;
static int heap_fd = -1;
static uint8_t *heap_host;  /* host view: GPU VAs */
static uint8_t *heap_agent; /* agent view */
static heap_extent *heap_free;
static size_t heap_free_count, heap_free_cap;
static uint64_t heap_used[SIM_MAX_GPUS]; /* device memory each GPU has handed out */
static uint64_t heap_reserve_size; /* bytes of address space of each view */
static uint64_t device_size;       /* device memory each GPU agent has (<= 16 GiB) */
static uint64_t system_used;       /* system-pool bytes allocated (under heap_lock) */

/* Freed ranges kept resident (not hole-punched, not in heap_free), oldest first, for the next
 * allocation of their size: hole-punching a freed range and faulting the next one's pages
 * back in, one by one, each cleared by the kernel (and TLB-shootdown interrupts to the
 * other threads' cores for the punch) was most of a large buffer's creation (CTS
 * test_basic's async strided copies, 56 MiB buffers a type: 44 ms a fresh copy against 5
 * for a resident one); zeroing one with memset is memcpy's speed. Ranges of at least
 * HEAP_KEEP_MIN bytes, heap_keep_max bytes in all (an eighth of the heap's address space,
 * at most HEAP_KEEP_MAX), HEAP_KEEP_SLOTS of them; under heap_lock. */
#define HEAP_KEEP_MIN (1ull << 20)
#define HEAP_KEEP_MAX (512ull << 20)
#define HEAP_KEEP_SLOTS 16
static heap_extent heap_keep[HEAP_KEEP_SLOTS];
static size_t heap_keep_count;
static uint64_t heap_keep_bytes, heap_keep_max;

/* ---- device heap ------------------------------------------------------------------------ */

/*
 * Reserves the heap. Each view wants 64 GiB of address space; a process with an address
 * space limit (RLIMIT_AS: `ulimit -v`, batch schedulers) gives each view at most an eighth
 * of it, under valgrind each view has 512 MiB, and a reservation the system or a tool refuses (valgrind's address space manager
 * answers EINVAL to 64 GiB) is retried at half the size, down to 64 MiB. The GPU agent's
 * device memory is what was reserved, at most SIM_DEVICE_MEMORY_SIZE, and the device pool
 * reports that size.
 */
static hsa_status_t
heap_init(void)
{
   uint64_t want = HEAP_RESERVE_MAX * ((sim__gpu_count() + 3) / 4);
#ifdef SIM_HAVE_VALGRIND_H
   /* Under valgrind the agent view is "defined" memory that memcheck's leak check reads
    * page by page, faulting in every page of the memfd: 32 GiB of shared memory. */
   if (RUNNING_ON_VALGRIND)
      want = HEAP_RESERVE_VALGRIND;
#endif
   struct rlimit lim;
   if (getrlimit(RLIMIT_AS, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY &&
       lim.rlim_cur / 8 < want)
      want = (lim.rlim_cur / 8) & ~(SIM_PAGE_SIZE - 1);
   heap_fd = memfd_create("hsacl-sim-device", MFD_CLOEXEC);
   if (heap_fd < 0)
      goto out_fail;
   for (; want >= HEAP_RESERVE_MIN; want /= 2) {
      if (ftruncate(heap_fd, (off_t)want) != 0)
         goto out_close;
      heap_host = mmap(NULL, want, PROT_NONE, MAP_SHARED | MAP_NORESERVE, heap_fd, 0);
      if (heap_host == MAP_FAILED)
         continue;
      heap_agent = mmap(NULL, want, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE,
                        heap_fd, 0);
      if (heap_agent != MAP_FAILED)
         break;
      munmap(heap_host, want);
   }
   if (want < HEAP_RESERVE_MIN)
      goto out_close;
   heap_reserve_size = want;
   heap_keep_max = want / 8 < HEAP_KEEP_MAX ? want / 8 : HEAP_KEEP_MAX;
   heap_keep_count = 0;
   heap_keep_bytes = 0;
   device_size = want - SIM_PAGE_SIZE < SIM_DEVICE_MEMORY_SIZE ? want - SIM_PAGE_SIZE
                                                                : SIM_DEVICE_MEMORY_SIZE;
   if (want < HEAP_RESERVE_MAX * ((sim__gpu_count() + 3) / 4))
      SIM_LOGI("memory", "device heap: %llu MiB of address space per view (address space "
               "limit or tool); the GPU has %llu MiB of device memory",
               (unsigned long long)(want >> 20), (unsigned long long)(device_size >> 20));
   heap_free_cap = 64;
   heap_free = malloc(heap_free_cap * sizeof(*heap_free));
   if (!heap_free)
      goto out_unmap;
   /* Offset 0 is never handed out, so no device VA equals the heap base. */
   heap_free[0] = (heap_extent){SIM_PAGE_SIZE, want - SIM_PAGE_SIZE};
   heap_free_count = 1;
   memset(heap_used, 0, sizeof(heap_used));
   system_used = 0;
   return HSA_STATUS_SUCCESS;

out_unmap:
   munmap(heap_agent, want);
   munmap(heap_host, want);
out_close:
   close(heap_fd);
   heap_fd = -1;
out_fail:
   SIM_LOGE("memory", "cannot reserve the device heap (%llu MiB or less): %s",
            (unsigned long long)(HEAP_RESERVE_MIN >> 20), strerror(errno));
   return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
}

uint64_t
sim__device_memory_size(void)
{
   return device_size;
}

uint64_t
sim__system_memory_size(void)
{
   long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
   return pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : 1ull << 32;
}

static uint32_t
all_gpus(void)
{
   return (1u << sim__gpu_count()) - 1;
}

/* System-pool memory is counted against the machine's physical memory (the pool's size), as
 * the KFD counts system memory against its limit: an allocation past it fails now instead
 * of as an OOM kill later. */
static bool
system_charge(uint64_t bytes)
{
   bool ok;
   pthread_mutex_lock(&heap_lock);
   ok = bytes <= sim__system_memory_size() - system_used;
   if (ok)
      system_used += bytes;
   pthread_mutex_unlock(&heap_lock);
   return ok;
}

static void
system_uncharge(uint64_t bytes)
{
   pthread_mutex_lock(&heap_lock);
   system_used -= bytes < system_used ? bytes : system_used;
   pthread_mutex_unlock(&heap_lock);
}

static void
heap_finish(void)
{
   if (heap_fd < 0)
      return;
   munmap(heap_agent, heap_reserve_size);
   munmap(heap_host, heap_reserve_size);
   close(heap_fd);
   heap_fd = -1;
   free(heap_free);
   heap_free = NULL;
   heap_free_count = heap_free_cap = 0;
   heap_keep_count = 0;
   heap_keep_bytes = 0;
}

/* Puts [offset, offset + size) on the free list, coalescing neighbours. Its pages are
 * already dropped. heap_lock held. */
static void
free_insert_locked(uint64_t offset, uint64_t size)
{
   size_t i = 0;
   while (i < heap_free_count && heap_free[i].offset < offset)
      i++;
   bool merge_prev = i > 0 && heap_free[i - 1].offset + heap_free[i - 1].size == offset;
   bool merge_next = i < heap_free_count && offset + size == heap_free[i].offset;
   if (merge_prev && merge_next) {
      heap_free[i - 1].size += size + heap_free[i].size;
      memmove(&heap_free[i], &heap_free[i + 1], (heap_free_count - i - 1) * sizeof(*heap_free));
      heap_free_count--;
   } else if (merge_prev) {
      heap_free[i - 1].size += size;
   } else if (merge_next) {
      heap_free[i].offset = offset;
      heap_free[i].size += size;
   } else {
      if (heap_free_count == heap_free_cap) {
         heap_extent *n = realloc(heap_free, 2 * heap_free_cap * sizeof(*heap_free));
         if (!n) {
            /* Leak the range rather than corrupt the list. */
            SIM_LOGW("memory", "free-list growth failed; %llu bytes lost",
                     (unsigned long long)size);
            return;
         }
         heap_free = n;
         heap_free_cap *= 2;
      }
      memmove(&heap_free[i + 1], &heap_free[i], (heap_free_count - i) * sizeof(*heap_free));
      heap_free[i] = (heap_extent){offset, size};
      heap_free_count++;
   }
}

/* Drops a range's pages and puts it on the free list. heap_lock held. */
static void
punch_free_locked(uint64_t offset, uint64_t size)
{
   fallocate(heap_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)offset, (off_t)size);
   free_insert_locked(offset, size);
}

/* Kept range `i` out of heap_keep. heap_lock held. */
static heap_extent
keep_take_locked(size_t i)
{
   heap_extent k = heap_keep[i];
   memmove(&heap_keep[i], &heap_keep[i + 1], (heap_keep_count - i - 1) * sizeof(*heap_keep));
   heap_keep_count--;
   heap_keep_bytes -= k.size;
   return k;
}

/* The kept range that fits `size` best, at most twice its size (a larger one is left for a
 * larger allocation); -1 when none. heap_lock held. */
static ptrdiff_t
keep_fit_locked(uint64_t size)
{
   ptrdiff_t best = -1;
   for (size_t i = 0; i < heap_keep_count; i++)
      if (heap_keep[i].size >= size && heap_keep[i].size / 2 <= size &&
          (best < 0 || heap_keep[i].size < heap_keep[best].size))
         best = (ptrdiff_t)i;
   return best;
}

/* For GPU `gpu`'s device memory, `size` a page multiple: a kept range of about that size
 * (zeroed; what is past `size` freed), else first fit on the free list, else the same after
 * every kept range is freed. The GPUs share the heap's address space; each has device_size
 * bytes. */
static bool
heap_reserve(uint64_t size, uint32_t gpu, uint64_t *offset)
{
   bool ok = false, kept = false;
   pthread_mutex_lock(&heap_lock);
   if (size > device_size - heap_used[gpu])
      goto out_unlock;
   ptrdiff_t k = keep_fit_locked(size);
   if (k >= 0) {
      heap_extent e = keep_take_locked((size_t)k);
      if (e.size > size)
         punch_free_locked(e.offset + size, e.size - size);
      *offset = e.offset;
      ok = kept = true;
   }
   for (int pass = 0; pass < 2 && !ok; pass++) {
      for (size_t i = 0; i < heap_free_count; i++) {
         if (heap_free[i].size < size)
            continue;
         *offset = heap_free[i].offset;
         heap_free[i].offset += size;
         heap_free[i].size -= size;
         if (heap_free[i].size == 0) {
            memmove(&heap_free[i], &heap_free[i + 1],
                    (heap_free_count - i - 1) * sizeof(*heap_free));
            heap_free_count--;
         }
         ok = true;
         break;
      }
      /* No room between the free ranges: the kept ones go back to the free list. */
      while (!ok && heap_keep_count) {
         heap_extent e = keep_take_locked(0);
         punch_free_locked(e.offset, e.size);
      }
   }
   if (ok)
      heap_used[gpu] += size;
out_unlock:
   pthread_mutex_unlock(&heap_lock);
   /* The range is the caller's now: zeroed outside the lock, at memset's speed. */
   if (kept)
      memset(heap_agent + *offset, 0, size);
   return ok;
}

/* Returns a range of GPU `gpu`'s: kept resident when it is large enough (the oldest kept
 * ranges freed to make room), else its pages dropped and the range put on the free list. */
static void
heap_release(uint64_t offset, uint64_t size, uint32_t gpu)
{
   mprotect(heap_host + offset, size, PROT_NONE);
   bool keep = size >= HEAP_KEEP_MIN && size <= heap_keep_max;
   if (!keep) /* the syscall outside the lock; the range is no one's meanwhile */
      fallocate(heap_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)offset, (off_t)size);
   pthread_mutex_lock(&heap_lock);
   heap_used[gpu] -= size;
   if (keep) {
      while (heap_keep_count == HEAP_KEEP_SLOTS || heap_keep_bytes + size > heap_keep_max) {
         heap_extent e = keep_take_locked(0);
         punch_free_locked(e.offset, e.size);
      }
      heap_keep[heap_keep_count++] = (heap_extent){offset, size};
      heap_keep_bytes += size;
   } else {
      free_insert_locked(offset, size);
   }
   pthread_mutex_unlock(&heap_lock);
}

/* ---- table -------------------------------------------------------------------------------- */

/* Index of the last entry with va <= addr, or -1. Table lock held. */
static ptrdiff_t
table_floor_locked(uint64_t addr)
{
   ptrdiff_t lo = 0, hi = (ptrdiff_t)table_count - 1, found = -1;
   while (lo <= hi) {
      ptrdiff_t mid = lo + (hi - lo) / 2;
      if (table[mid]->a.va <= addr) {
         found = mid;
         lo = mid + 1;
      } else {
         hi = mid - 1;
      }
   }
   return found;
}

/* `size` up to the end of its last page (sim_alloc.reach). */
static void
entry_set_reach(sim_mem_entry *e)
{
   e->a.reach = sim_align_up(e->a.va + e->a.size, SIM_PAGE_SIZE) - e->a.va;
}

/* The entry whose mapped pages hold `addr` (the GPU's view: sim__mem_find). */
static sim_mem_entry *
table_find_reach_locked(uint64_t addr)
{
   ptrdiff_t i = table_floor_locked(addr);
   if (i < 0)
      return NULL;
   sim_mem_entry *e = table[i];
   return addr - e->a.va < e->a.reach ? e : NULL;
}

static sim_mem_entry *
table_find_locked(uint64_t addr)
{
   ptrdiff_t i = table_floor_locked(addr);
   if (i < 0)
      return NULL;
   sim_mem_entry *e = table[i];
   return addr - e->a.va < e->a.size ? e : NULL;
}

/* True if [va, va+size) overlaps no entry. Table write lock held. */
static bool
table_range_free_locked(uint64_t va, uint64_t size)
{
   ptrdiff_t i = table_floor_locked(va + size - 1);
   if (i < 0)
      return true;
   return table[i]->a.va + table[i]->a.size <= va;
}

static hsa_status_t
table_insert_locked(sim_mem_entry *e)
{
   if (table_count == table_cap) {
      size_t cap = table_cap ? table_cap * 2 : 256;
      sim_mem_entry **n = realloc(table, cap * sizeof(*table));
      if (!n)
         return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
      table = n;
      table_cap = cap;
   }
   entry_set_reach(e);
   ptrdiff_t i = table_floor_locked(e->a.va) + 1;
   memmove(&table[i + 1], &table[i], (table_count - (size_t)i) * sizeof(*table));
   table[i] = e;
   table_count++;
   return HSA_STATUS_SUCCESS;
}

static void
table_remove_locked(size_t i)
{
   memmove(&table[i], &table[i + 1], (table_count - i - 1) * sizeof(*table));
   table_count--;
}

const sim_alloc *
sim__mem_find(uint64_t va)
{
   pthread_rwlock_rdlock(&table_lock);
   sim_mem_entry *e = table_find_reach_locked(va);
   pthread_rwlock_unlock(&table_lock);
   return e ? &e->a : NULL;
}

hsa_status_t
sim__mem_init(void)
{
   return heap_init();
}

/* Releases what one entry owns (not its table slot). */
static void
entry_destroy(sim_mem_entry *e)
{
   if (e->a.flags & SIM_ALLOC_CODE)
      sim__isa_program_free(atomic_exchange(&e->a.isa_program, NULL));
   sim__cache_forget(&e->a);
   if (e->heap_size)
      heap_release(e->heap_offset, e->heap_size, e->pool->gpu);
   if (e->free_backing) {
      munmap((void *)(uintptr_t)e->a.va, sim_align_up(e->a.size, SIM_PAGE_SIZE));
      system_uncharge(sim_align_up(e->a.size, SIM_PAGE_SIZE));
   }
   free(e);
}

void
sim__mem_finish(void)
{
   pthread_rwlock_wrlock(&table_lock);
   while (nested_locks) {
      nested_lock *n = nested_locks;
      nested_locks = n->next;
      free(n);
   }
   for (size_t i = 0; i < table_count; i++)
      entry_destroy(table[i]);
   free(table);
   table = NULL;
   table_count = table_cap = 0;
   pthread_rwlock_unlock(&table_lock);
   heap_finish();
}

hsa_status_t
sim__mem_alloc(const sim_pool *pool, uint64_t size, uint32_t flags, enum sim_mem_kind kind,
               void **va, sim_mem_entry **entry_out)
{
   hsa_status_t st;
   uint64_t bytes = sim_align_up(size, SIM_PAGE_SIZE);
   sim_mem_entry *e = calloc(1, sizeof(*e));
   if (!e)
      return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
   e->kind = kind;
   e->pool = pool;
   e->a.size = size;
   e->a.flags = flags;
   /* Device memory: its GPU; system memory: every GPU (PCIe links both ways). */
   e->gpu_mask = pool->device_heap ? 1u << pool->gpu : all_gpus();
   /* Coarse-grained pools are cached in the GPU's L2 (sim_isa.h); code is not. */
   if ((pool->global_flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED) &&
       !(flags & SIM_ALLOC_CODE))
      e->a.flags |= SIM_ALLOC_COARSE;
   if (pool->device_heap) {
      if (!heap_reserve(bytes, pool->gpu, &e->heap_offset)) {
         st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
         goto out_free_entry;
      }
      e->heap_size = bytes;
      e->a.va = (uint64_t)(uintptr_t)(heap_host + e->heap_offset);
      e->a.view = heap_agent + e->heap_offset;
   } else {
      if (!system_charge(bytes)) {
         SIM_LOGW("memory", "system pool: %llu bytes would exceed the %llu bytes of system "
                  "memory", (unsigned long long)bytes,
                  (unsigned long long)sim__system_memory_size());
         st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
         goto out_free_entry;
      }
      void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (p == MAP_FAILED) {
         system_uncharge(bytes);
         st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
         goto out_free_entry;
      }
      e->free_backing = true;
      e->host_access = true;
      e->a.va = (uint64_t)(uintptr_t)p;
      e->a.view = p;
   }
   e->span_base = e->a.va;
   pthread_rwlock_wrlock(&table_lock);
   st = table_insert_locked(e);
   pthread_rwlock_unlock(&table_lock);
   if (st != HSA_STATUS_SUCCESS)
      goto out_release;
   *va = (void *)(uintptr_t)e->a.va;
   if (entry_out)
      *entry_out = e;
   SIM_LOGD("memory", "alloc pool %d: %llu bytes at 0x%llx", pool->kind,
            (unsigned long long)size, (unsigned long long)e->a.va);
   return HSA_STATUS_SUCCESS;

out_release:
   entry_destroy(e);
   return st;
out_free_entry:
   free(e);
   return st;
}

hsa_status_t
sim__mem_free(void *ptr, enum sim_mem_kind kind)
{
   uint64_t va = (uint64_t)(uintptr_t)ptr;
   pthread_rwlock_wrlock(&table_lock);
   ptrdiff_t i = table_floor_locked(va);
   if (i < 0 || table[i]->a.va != va || table[i]->kind != kind ||
       table[i]->span_base != va) {
      pthread_rwlock_unlock(&table_lock);
      return HSA_STATUS_ERROR_INVALID_ALLOCATION;
   }
   /* The entry and any pieces sim__mem_split cut from it. */
   size_t n = 1;
   while ((size_t)i + n < table_count && table[i + n]->span_base == va)
      n++;
   sim_mem_entry *pieces[n];
   memcpy(pieces, &table[i], n * sizeof(*pieces));
   for (size_t k = 0; k < n; k++)
      table_remove_locked((size_t)i);
   pthread_rwlock_unlock(&table_lock);
   for (size_t k = 0; k < n; k++)
      entry_destroy(pieces[k]);
   return HSA_STATUS_SUCCESS;
}

hsa_status_t
sim__mem_split(void *ptr, const uint64_t *cuts, const uint32_t *flags, uint32_t count)
{
   uint64_t va = (uint64_t)(uintptr_t)ptr;
   hsa_status_t st = HSA_STATUS_SUCCESS;
   pthread_rwlock_wrlock(&table_lock);
   sim_mem_entry *first = table_find_locked(va);
   if (!first || first->a.va != va) {
      st = HSA_STATUS_ERROR_INVALID_ALLOCATION;
      goto out_unlock;
   }
   uint64_t total = first->a.size;
   first->a.flags = flags[0];
   for (uint32_t i = 1; i < count; i++) {
      uint64_t start = cuts[i - 1];
      uint64_t end = i < count - 1 ? cuts[i] : total;
      if (start >= end || end > total) {
         st = HSA_STATUS_ERROR_INVALID_ARGUMENT;
         goto out_unlock;
      }
      sim_mem_entry *e = calloc(1, sizeof(*e));
      if (!e) {
         st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
         goto out_unlock;
      }
      e->kind = first->kind;
      e->pool = first->pool;
      e->a.va = va + start;
      e->a.size = end - start;
      e->a.view = first->a.view + start;
      e->a.flags = flags[i];
      e->gpu_mask = first->gpu_mask;
      e->span_base = va;
      if (i == 1) {
         first->a.size = start;
         entry_set_reach(first);
      }
      st = table_insert_locked(e);
      if (st != HSA_STATUS_SUCCESS) {
         free(e);
         goto out_unlock;
      }
   }
out_unlock:
   pthread_rwlock_unlock(&table_lock);
   return st;
}

hsa_status_t
sim__mem_translate(const void *ptr, uint64_t size, uint8_t **view)
{
   uint64_t va = (uint64_t)(uintptr_t)ptr;
   hsa_status_t st = HSA_STATUS_SUCCESS;
   if (size > UINT64_MAX - va)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT; /* wraps the address space */
   pthread_rwlock_rdlock(&table_lock);
   sim_mem_entry *e = table_find_locked(va);
   if (!e || e->kind == SIM_MEM_LOCKED) {
      /* Host memory, unregistered or locked (whose view is its address): any range of it,
       * also one past a lock's end (locks may overlap, the table keeps the first), unless
       * the range runs into device memory. */
      ptrdiff_t i = table_floor_locked(va + size - 1);
      if (size && i >= 0 && table[i]->a.va > va && table[i]->heap_size)
         st = HSA_STATUS_ERROR_INVALID_ARGUMENT;
      *view = (uint8_t *)ptr;
      goto out_unlock;
   }
   /* Pieces of one span are contiguous in the agent view: allow ranges across them. */
   uint64_t span_end = e->a.va + e->a.size;
   ptrdiff_t i = table_floor_locked(va);
   while ((size_t)i + 1 < table_count && table[i + 1]->span_base == e->span_base &&
          table[i + 1]->a.va == span_end) {
      span_end += table[i + 1]->a.size;
      i++;
   }
   if (size > span_end - va) {
      st = HSA_STATUS_ERROR_INVALID_ARGUMENT;
      goto out_unlock;
   }
   *view = e->a.view + (va - e->a.va);
out_unlock:
   pthread_rwlock_unlock(&table_lock);
   return st;
}

bool
sim__host_range_mapped(const void *ptr, uint64_t size)
{
   if (size == 0)
      return true;
   uint64_t va = (uint64_t)(uintptr_t)ptr;
   if (size > UINT64_MAX - va)
      return false;
   uint64_t first = va & ~(SIM_PAGE_SIZE - 1), end = va + size;
   unsigned char vec[256];
   /* mincore fails with ENOMEM when any page of the range is not mapped; in chunks of
    * 256 pages so that the vector stays on the stack. */
   for (uint64_t p = first; p < end; p += sizeof(vec) * SIM_PAGE_SIZE) {
      uint64_t len = end - p < sizeof(vec) * SIM_PAGE_SIZE ? end - p : sizeof(vec) * SIM_PAGE_SIZE;
      if (mincore((void *)(uintptr_t)p, len, vec) != 0 && errno == ENOMEM)
         return false;
   }
   return true;
}

/* ---- API: allocation -------------------------------------------------------------------- */

SIM_EXPORT hsa_status_t
hsa_amd_memory_pool_allocate(hsa_amd_memory_pool_t memory_pool, size_t size, uint32_t flags,
                             void **ptr)
{
   SIM_CHECK_INIT();
   const sim_pool *p = sim__pool_from_handle(memory_pool.handle);
   if (!p)
      return (hsa_status_t)HSA_STATUS_ERROR_INVALID_MEMORY_POOL;
   if (!ptr || size == 0)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   if (!p->alloc_allowed)
      return HSA_STATUS_ERROR_INVALID_ALLOCATION;
   if (p->device_heap && size > device_size)
      return HSA_STATUS_ERROR_INVALID_ALLOCATION;
   return sim__mem_alloc(p, size, SIM_ALLOC_READ | SIM_ALLOC_WRITE, SIM_MEM_POOL, ptr, NULL);
}

SIM_EXPORT hsa_status_t
hsa_amd_memory_pool_free(void *ptr)
{
   SIM_CHECK_INIT();
   if (!ptr)
      return HSA_STATUS_SUCCESS;
   return sim__mem_free(ptr, SIM_MEM_POOL);
}

SIM_EXPORT hsa_status_t
hsa_memory_allocate(hsa_region_t region, size_t size, void **ptr)
{
   SIM_CHECK_INIT();
   const sim_pool *p = sim__pool_from_handle(region.handle);
   if (!p)
      return HSA_STATUS_ERROR_INVALID_REGION;
   if (!ptr || size == 0)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   if (!p->alloc_allowed || (p->device_heap && size > device_size))
      return HSA_STATUS_ERROR_INVALID_ALLOCATION;
   return sim__mem_alloc(p, size, SIM_ALLOC_READ | SIM_ALLOC_WRITE, SIM_MEM_POOL, ptr, NULL);
}

SIM_EXPORT hsa_status_t
hsa_memory_free(void *ptr)
{
   SIM_CHECK_INIT();
   if (!ptr)
      return HSA_STATUS_SUCCESS;
   return sim__mem_free(ptr, SIM_MEM_POOL);
}

SIM_EXPORT hsa_status_t
hsa_memory_assign_agent(void *ptr, hsa_agent_t agent, hsa_access_permission_t access)
{
   SIM_CHECK_INIT();
   enum sim_agent_kind kind;
   if (!sim__agent_from_handle(agent, &kind))
      return HSA_STATUS_ERROR_INVALID_AGENT;
   if (!ptr || access < HSA_ACCESS_PERMISSION_RO || access > HSA_ACCESS_PERMISSION_RW)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   return HSA_STATUS_SUCCESS;
}

/*
 * hsa_ext_amd.h: only the listed agents and the owner may access `ptr` afterwards. Naming
 * the CPU agent opens the host view of device memory; naming another GPU gives it peer
 * access to this GPU's memory (the set of GPUs pointer info reports). System memory stays
 * reachable by every GPU. The interpreter does not check a dispatch's GPU against the set,
 * as the software KFD does not check the node a mapping was made for: one address space.
 */
SIM_EXPORT hsa_status_t
hsa_amd_agents_allow_access(uint32_t num_agents, const hsa_agent_t *agents,
                            const uint32_t *flags, const void *ptr)
{
   SIM_CHECK_INIT();
   if (num_agents == 0 || !agents || flags || !ptr)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   bool cpu = false;
   uint32_t gpus = 0;
   for (uint32_t i = 0; i < num_agents; i++) {
      const sim_agent *a = sim__agent_get(agents[i]);
      if (!a)
         return HSA_STATUS_ERROR_INVALID_AGENT;
      cpu |= a->kind == SIM_AGENT_CPU;
      if (a->kind == SIM_AGENT_GPU)
         gpus |= 1u << a->gpu;
   }
   hsa_status_t st = HSA_STATUS_SUCCESS;
   pthread_rwlock_wrlock(&table_lock);
   sim_mem_entry *e = table_find_locked((uint64_t)(uintptr_t)ptr);
   if (!e || e->kind == SIM_MEM_INTERNAL) {
      st = HSA_STATUS_ERROR_INVALID_ARGUMENT;
      goto out_unlock;
   }
   if (cpu && e->heap_size && !e->host_access) {
      if (mprotect(heap_host + e->heap_offset, e->heap_size, PROT_READ | PROT_WRITE) != 0) {
         st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
         goto out_unlock;
      }
      e->host_access = true;
   }
   if (e->heap_size)
      e->gpu_mask = 1u << e->pool->gpu | gpus;
out_unlock:
   pthread_rwlock_unlock(&table_lock);
   return st;
}

/* ---- API: host memory locking and registration ------------------------------------------ */

/* Locks [host_ptr, +size) for the GPUs in `gpus` (bit g: GPU g). */
static hsa_status_t
lock_range(void *host_ptr, size_t size, uint32_t gpus, void **agent_ptr)
{
   uint64_t va = (uint64_t)(uintptr_t)host_ptr;
   if (va + size < va)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   hsa_status_t st = HSA_STATUS_SUCCESS;
   pthread_rwlock_wrlock(&table_lock);
   sim_mem_entry *e = table_find_locked(va);
   if (e && e->kind == SIM_MEM_LOCKED && e->a.va == va && e->a.size == size) {
      e->lock_count++;
      e->gpu_mask |= gpus;
      goto out_done;
   }
   if (e && e->heap_size) {
      /* Device memory is not host memory. */
      st = HSA_STATUS_ERROR_INVALID_ARGUMENT;
      goto out_unlock;
   }
   if (e && va + size <= e->a.va + e->a.size) {
      /* Already reachable by the GPU: system pool memory, or a wider lock that must stay
       * until this one is unlocked too. */
      if (e->kind == SIM_MEM_LOCKED) {
         nested_lock *n = malloc(sizeof(*n));
         if (!n) {
            st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
            goto out_unlock;
         }
         *n = (nested_lock){ .va = va, .parent = e, .next = nested_locks };
         nested_locks = n;
         e->lock_count++;
         e->gpu_mask |= gpus;
      }
      goto out_done;
   }
   if (!table_range_free_locked(va, size)) {
      /* HSA allows overlapping locks; the table does not. The first lock stays. */
      SIM_LOGW("memory", "lock of [%p, +%zu) overlaps locked memory; not re-registered",
               host_ptr, size);
      goto out_done;
   }
   e = calloc(1, sizeof(*e));
   if (!e) {
      st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
      goto out_unlock;
   }
   e->kind = SIM_MEM_LOCKED;
   e->a.va = va;
   e->a.size = size;
   e->a.view = host_ptr;
   e->a.flags = SIM_ALLOC_READ | SIM_ALLOC_WRITE;
   e->host_ptr = host_ptr;
   e->host_access = true;
   e->gpu_mask = gpus;
   e->lock_count = 1;
   e->span_base = va;
   st = table_insert_locked(e);
   if (st != HSA_STATUS_SUCCESS) {
      free(e);
      goto out_unlock;
   }
out_done:
   *agent_ptr = host_ptr;
out_unlock:
   pthread_rwlock_unlock(&table_lock);
   return st;
}

hsa_status_t
sim__mem_register_internal(void *ptr, size_t size)
{
   void *agent_ptr;
   return lock_range(ptr, size, all_gpus(), &agent_ptr);
}

/* Unlocks the lock made at `host_ptr`: a nested one first (any of them: they count on the
 * same entry), else the entry's own. The entry goes with its last count. */
static hsa_status_t
unlock_range(void *host_ptr)
{
   uint64_t va = (uint64_t)(uintptr_t)host_ptr;
   sim_mem_entry *e = NULL, *dead = NULL;
   pthread_rwlock_wrlock(&table_lock);
   for (nested_lock **link = &nested_locks; *link; link = &(*link)->next) {
      if ((*link)->va == va) {
         nested_lock *n = *link;
         *link = n->next;
         e = n->parent;
         free(n);
         break;
      }
   }
   ptrdiff_t i = e ? table_floor_locked(e->a.va) : table_floor_locked(va);
   if (!e && i >= 0 && table[i]->kind == SIM_MEM_LOCKED && table[i]->a.va == va)
      e = table[i];
   if (e && --e->lock_count == 0) {
      table_remove_locked((size_t)i);
      dead = e;
   }
   pthread_rwlock_unlock(&table_lock);
   if (dead)
      entry_destroy(dead);
   return HSA_STATUS_SUCCESS;
}

/* The GPUs a lock names (hsa_ext_amd.h: no list means every agent). */
static hsa_status_t
check_lock_agents(const hsa_agent_t *agents, int num_agent, uint32_t *gpus)
{
   if ((agents && num_agent <= 0) || (!agents && num_agent != 0))
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   *gpus = agents ? 0 : all_gpus();
   for (int i = 0; i < num_agent; i++) {
      const sim_agent *a = sim__agent_get(agents[i]);
      if (!a)
         return HSA_STATUS_ERROR_INVALID_AGENT;
      if (a->kind == SIM_AGENT_GPU)
         *gpus |= 1u << a->gpu;
   }
   return HSA_STATUS_SUCCESS;
}

SIM_EXPORT hsa_status_t
hsa_amd_memory_lock(void *host_ptr, size_t size, hsa_agent_t *agents, int num_agent,
                    void **agent_ptr)
{
   SIM_CHECK_INIT();
   if (size == 0 || !host_ptr || !agent_ptr)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   uint32_t gpus;
   hsa_status_t st = check_lock_agents(agents, num_agent, &gpus);
   if (st != HSA_STATUS_SUCCESS)
      return st;
   return lock_range(host_ptr, size, gpus, agent_ptr);
}

SIM_EXPORT hsa_status_t
hsa_amd_memory_lock_to_pool(void *host_ptr, size_t size, hsa_agent_t *agents, int num_agent,
                            hsa_amd_memory_pool_t pool, uint32_t flags, void **agent_ptr)
{
   SIM_CHECK_INIT();
   const sim_pool *p = sim__pool_from_handle(pool.handle);
   if (!p || p->owner != SIM_AGENT_CPU || p->segment != HSA_AMD_SEGMENT_GLOBAL)
      return (hsa_status_t)HSA_STATUS_ERROR_INVALID_MEMORY_POOL;
   if (size == 0 || !host_ptr || !agent_ptr || flags != 0)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   uint32_t gpus;
   hsa_status_t st = check_lock_agents(agents, num_agent, &gpus);
   if (st != HSA_STATUS_SUCCESS)
      return st;
   return lock_range(host_ptr, size, gpus, agent_ptr);
}

SIM_EXPORT hsa_status_t
hsa_amd_memory_unlock(void *host_ptr)
{
   SIM_CHECK_INIT();
   return unlock_range(host_ptr);
}

SIM_EXPORT hsa_status_t
hsa_memory_register(void *ptr, size_t size)
{
   SIM_CHECK_INIT();
   if (!ptr && size != 0)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   if (size == 0)
      return ptr ? HSA_STATUS_ERROR_INVALID_ARGUMENT : HSA_STATUS_SUCCESS;
   void *agent_ptr;
   return lock_range(ptr, size, all_gpus(), &agent_ptr);
}

SIM_EXPORT hsa_status_t
hsa_memory_deregister(void *ptr, size_t size)
{
   SIM_CHECK_INIT();
   if (!ptr)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   return unlock_range(ptr);
}

/* ---- API: synchronous copy and fill ------------------------------------------------------ */

/* PRM §2.8.2 hsa_memory_copy: copies through agent views, so device memory works. */
SIM_EXPORT hsa_status_t
hsa_memory_copy(void *dst, const void *src, size_t size)
{
   SIM_CHECK_INIT();
   if (!dst || !src)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   if (size == 0)
      return HSA_STATUS_SUCCESS;
   uint8_t *d, *s;
   hsa_status_t st = sim__mem_translate(dst, size, &d);
   if (st != HSA_STATUS_SUCCESS)
      return st;
   st = sim__mem_translate(src, size, &s);
   if (st != HSA_STATUS_SUCCESS)
      return st;
   memmove(d, s, size);
   return HSA_STATUS_SUCCESS;
}

SIM_EXPORT hsa_status_t
hsa_amd_memory_fill(void *ptr, uint32_t value, size_t count)
{
   SIM_CHECK_INIT();
   if (!ptr || ((uintptr_t)ptr & 3))
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   if (count == 0)
      return HSA_STATUS_SUCCESS;
   if (count > SIZE_MAX / 4)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   if (!sim__mem_find((uint64_t)(uintptr_t)ptr))
      return HSA_STATUS_ERROR_INVALID_ALLOCATION;
   uint8_t *view;
   hsa_status_t st = sim__mem_translate(ptr, count * 4, &view);
   if (st != HSA_STATUS_SUCCESS)
      return st;
   uint32_t *p = (uint32_t *)view;
   for (size_t i = 0; i < count; i++)
      p[i] = value;
   return HSA_STATUS_SUCCESS;
}

/* ---- API: pointer info ------------------------------------------------------------------ */

SIM_EXPORT hsa_status_t
hsa_amd_pointer_info(const void *ptr, hsa_amd_pointer_info_t *info, void *(*alloc)(size_t),
                     uint32_t *num_agents_accessible, hsa_agent_t **accessible)
{
   SIM_CHECK_INIT();
   if (!ptr || !info)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   hsa_amd_pointer_info_t out;
   memset(&out, 0, sizeof(out));
   out.size = info->size < sizeof(out) ? info->size : (uint32_t)sizeof(out);
   hsa_agent_t agents[SIM_MAX_GPUS];
   uint32_t agent_count = 0;

   pthread_rwlock_rdlock(&table_lock);
   sim_mem_entry *e = table_find_locked((uint64_t)(uintptr_t)ptr);
   if (e) {
      /* Report the whole span (a split code object is one allocation to the API). */
      ptrdiff_t i = table_floor_locked(e->span_base);
      sim_mem_entry *first = table[i];
      uint64_t size = 0;
      for (size_t k = (size_t)i; k < table_count && table[k]->span_base == first->span_base; k++)
         size += table[k]->a.size;
      out.type = e->kind == SIM_MEM_LOCKED ? HSA_EXT_POINTER_TYPE_LOCKED
                                           : HSA_EXT_POINTER_TYPE_HSA;
      out.agentBaseAddress = (void *)(uintptr_t)first->a.va;
      out.hostBaseAddress = first->host_access ? (void *)(uintptr_t)first->a.va : NULL;
      out.sizeInBytes = size;
      out.userData = first->user_data;
      out.agentOwner = first->pool ? sim__pool_owner(first->pool) : sim__agent_cpu();
      out.global_flags = first->pool ? first->pool->global_flags
                                     : HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED;
      /* As ROCr lists them: the agents of the GPU nodes the memory is mapped to
       * (runtime.cpp PtrInfo, from the KFD's MappedNodes); never the CPU. */
      for (uint32_t g = 0; g < sim__gpu_count(); g++) {
         if (first->gpu_mask & (1u << g))
            agents[agent_count++] = sim__agent_gpu(g);
      }
   } else {
      out.type = HSA_EXT_POINTER_TYPE_UNKNOWN;
   }
   pthread_rwlock_unlock(&table_lock);

   memcpy(info, &out, out.size);
   if (alloc && num_agents_accessible && accessible) {
      *num_agents_accessible = agent_count;
      *accessible = NULL;
      if (agent_count) {
         *accessible = alloc(agent_count * sizeof(hsa_agent_t));
         if (!*accessible)
            return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
         memcpy(*accessible, agents, agent_count * sizeof(hsa_agent_t));
      }
   }
   return HSA_STATUS_SUCCESS;
}

SIM_EXPORT hsa_status_t
hsa_amd_pointer_info_set_userdata(const void *ptr, void *userdata)
{
   SIM_CHECK_INIT();
   if (!ptr)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   hsa_status_t st = HSA_STATUS_SUCCESS;
   pthread_rwlock_wrlock(&table_lock);
   sim_mem_entry *e = table_find_locked((uint64_t)(uintptr_t)ptr);
   if (!e) {
      st = HSA_STATUS_ERROR_INVALID_ARGUMENT;
      goto out_unlock;
   }
   table[table_floor_locked(e->span_base)]->user_data = userdata;
out_unlock:
   pthread_rwlock_unlock(&table_lock);
   return st;
}
