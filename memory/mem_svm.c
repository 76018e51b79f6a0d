/*
 * memory/mem_svm.c — buffer SVM, coarse- and fine-grained: clSVMAlloc / clSVMFree and the
 * table of live SVM allocations (OpenCL 3.0 API §5.6.1).
 *
 * A coarse-grained SVM allocation is device_pool memory whose access is granted to the CPU
 * agent as well as the context's GPU agents: HSA gives host and GPU one virtual address
 * space, so the pointer the application receives is also the GPU address. When the runtime
 * refuses the CPU agent access to device memory, the CPU agent's system_pool is used
 * instead. It counts in the device's CL_DEVICE_GLOBAL_FREE_MEMORY_AMD.
 *
 * A fine-grained allocation (CL_MEM_SVM_FINE_GRAIN_BUFFER, with or without
 * CL_MEM_SVM_ATOMICS) is the CPU agent's fine-grained system_pool memory with access
 * granted to every GPU of the context, as ROCm's OpenCL allocates it on discrete GPUs: the
 * GPUs map it uncached (no L2 line of it goes stale: MTYPE UC; the KFD's coherent
 * allocation), so host and kernels see each other's stores and atomics while a kernel runs.
 * The SVM commands treat both kinds alike (maps only order).
 *
 * Table. One array for the process, sorted by base, under a reader/writer lock; each
 * entry names its context, so lookups are per context. An allocation holds an internal
 * reference on its context: the address range (and the context pointer in the entry)
 * cannot be reused while the allocation lives. The unified shared memory allocations of
 * cl_intel_unified_shared_memory (mem_usm.c) are entries of the same table, tagged with
 * their kind: one registry answers "which allocation is this pointer in" for SVM commands,
 * USM commands, buffers over host pointers and clGetMemAllocInfoINTEL alike.
 */
#include "memory/mem_priv.h"
#include "runtime/rt.h"

#include <string.h>

/* The largest alignment clSVMAlloc honours: a 2 MiB GPU page. Alignments above the pool's
 * allocation alignment are met by over-allocating. */
#define SVM_MAX_ALIGNMENT ((size_t)2 << 20)
/* Alignment 0 means the size of the largest data type, long16/double16 (§5.6.1). */
#define SVM_DEFAULT_ALIGNMENT 128u

#define SVM_ACCESS_FLAGS (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY)
#define SVM_FLAGS (SVM_ACCESS_FLAGS | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS)

struct svm_alloc {
   uintptr_t base;          /* what clSVMAlloc (clXxxMemAllocINTEL) returned */
   size_t size;             /* what it was asked for */
   void *alloc_base;        /* what HSA returned (base rounded down to it, if over-aligned) */
   struct _cl_context *ctx; /* holds an internal reference */
   /* The device whose device_bytes_in_use counts the allocation (device pool), or NULL. */
   struct _cl_device_id *counted;
   enum mem_alloc_kind kind;
   struct _cl_device_id *device; /* USM: the associated device, or NULL */
   cl_bitfield flags;            /* USM: CL_MEM_ALLOC_FLAGS_INTEL as given */
};

static pthread_rwlock_t svm_lock = PTHREAD_RWLOCK_INITIALIZER;
static struct svm_alloc *svm_table; /* sorted by base; under svm_lock */
static size_t svm_count, svm_cap;

/* Index of the last entry with base <= addr, or -1. Locked (either mode). */
static ptrdiff_t
floor_locked(uintptr_t addr)
{
   ptrdiff_t lo = 0, hi = (ptrdiff_t)svm_count - 1, found = -1;
   while (lo <= hi) {
      ptrdiff_t mid = lo + (hi - lo) / 2;
      if (svm_table[mid].base <= addr) {
         found = mid;
         lo = mid + 1;
      } else {
         hi = mid - 1;
      }
   }
   return found;
}

bool
mem__alloc_lookup(struct _cl_context *ctx, const void *ptr, struct mem_alloc_info *out)
{
   uintptr_t addr = (uintptr_t)ptr;
   bool found = false;
   pthread_rwlock_rdlock(&svm_lock);
   ptrdiff_t i = floor_locked(addr);
   if (i >= 0 && svm_table[i].ctx == ctx && addr - svm_table[i].base < svm_table[i].size) {
      const struct svm_alloc *a = &svm_table[i];
      *out = (struct mem_alloc_info){ .base = (void *)a->base, .size = a->size,
                                      .kind = a->kind, .device = a->device,
                                      .flags = a->flags };
      found = true;
   }
   pthread_rwlock_unlock(&svm_lock);
   return found;
}

bool
mem_svm_lookup(struct _cl_context *ctx, const void *ptr, void **base, size_t *size)
{
   struct mem_alloc_info a;
   if (!mem__alloc_lookup(ctx, ptr, &a))
      return false;
   if (base)
      *base = a.base;
   if (size)
      *size = a.size;
   return true;
}

static cl_int
table_insert(const struct svm_alloc *a)
{
   cl_int err = CL_SUCCESS;
   pthread_rwlock_wrlock(&svm_lock);
   if (svm_count == svm_cap) {
      size_t cap = svm_cap ? svm_cap * 2 : 16;
      struct svm_alloc *t = icd_realloc(svm_table, cap * sizeof(*t));
      if (!t) {
         err = ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "growing the SVM allocation table");
         goto out_unlock;
      }
      svm_table = t;
      svm_cap = cap;
   }
   size_t at = (size_t)(floor_locked(a->base) + 1);
   memmove(&svm_table[at + 1], &svm_table[at], (svm_count - at) * sizeof(*svm_table));
   svm_table[at] = *a;
   svm_count++;
out_unlock:
   pthread_rwlock_unlock(&svm_lock);
   return err;
}

/* Removes the entry of `ctx` based at `ptr` into *out when `usm` says its family (SVM or
 * USM); false when there is none. */
static bool
table_remove(struct _cl_context *ctx, void *ptr, bool usm, struct svm_alloc *out)
{
   bool found = false;
   pthread_rwlock_wrlock(&svm_lock);
   ptrdiff_t i = floor_locked((uintptr_t)ptr);
   if (i >= 0 && svm_table[i].base == (uintptr_t)ptr && svm_table[i].ctx == ctx &&
       (svm_table[i].kind != MEM_ALLOC_SVM) == usm) {
      *out = svm_table[i];
      memmove(&svm_table[i], &svm_table[i + 1], (svm_count - (size_t)i - 1) * sizeof(*svm_table));
      found = true;
      if (--svm_count == 0) {
         icd_free(svm_table);
         svm_table = NULL;
         svm_cap = 0;
      }
   }
   pthread_rwlock_unlock(&svm_lock);
   return found;
}

/* Allocates `bytes` host- and GPU-accessible memory for `dev`'s context: fine-grained,
 * system_pool with access for every GPU of the context; coarse-grained, device_pool with
 * CPU access (*counted = dev), else system_pool. */
static cl_int
svm_pool_alloc(struct _cl_context *ctx, struct _cl_device_id *dev, size_t bytes, bool fine,
               void **out, struct _cl_device_id **counted)
{
   hsa_agent_t agents[MEM_MAX_AGENTS + 1];
   agents[0] = dev->cpu_agent;
   uint32_t n = 1 + mem__context_agents(ctx, agents + 1);
   *counted = NULL;
   if (fine)
      return rt_pool_alloc(dev->system_pool, bytes, agents + 1, n - 1,
                           CL_MEM_OBJECT_ALLOCATION_FAILURE,
                           "allocating fine-grained SVM memory in the system pool", out);
   /* The first try is quiet: its failure is the expected case when the runtime does not
    * grant the CPU access to device memory, and the fallback decides the outcome. */
   if (rt_pool_alloc(dev->device_pool, bytes, agents, n, CL_MEM_OBJECT_ALLOCATION_FAILURE,
                     dev->has_system_pool ? NULL : "allocating SVM memory in the device pool",
                     out) == CL_SUCCESS) {
      *counted = dev;
      return CL_SUCCESS;
   }
   if (!dev->has_system_pool)
      return CL_MEM_OBJECT_ALLOCATION_FAILURE;
   icd_log(ICD_LOG_INFO, "memory", "SVM allocation of %zu bytes from the system pool (the "
           "device pool with CPU access was refused)", bytes);
   return rt_pool_alloc(dev->system_pool, bytes, agents + 1, n - 1,
                        CL_MEM_OBJECT_ALLOCATION_FAILURE,
                        "allocating SVM memory in the system pool", out);
}

/* The pool's allocation alignment (bytes), at least a 4 KiB page. */
static size_t
pool_alignment(hsa_amd_memory_pool_t pool)
{
   size_t align = 0;
   if (rt_hsa()->hsa_amd_memory_pool_get_info(
          pool, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALIGNMENT, &align) != HSA_STATUS_SUCCESS ||
       align < 4096)
      align = 4096;
   return align;
}

cl_int
mem__alloc_create(struct _cl_context *ctx, struct _cl_device_id *dev, size_t size,
                  size_t alignment, bool fine, enum mem_alloc_kind kind,
                  struct _cl_device_id *assoc, cl_bitfield flags, void **out)
{
   /* Over-allocate only when the pool's own alignment is not enough. */
   size_t extra =
      alignment > pool_alignment(fine ? dev->system_pool : dev->device_pool) ? alignment : 0;
   if (size + extra < size)
      return ICD_ERROR(CL_INVALID_BUFFER_SIZE, "SVM size %zu with alignment %zu overflows",
                       size, alignment);
   struct svm_alloc a = { .size = size, .ctx = ctx, .kind = kind, .device = assoc,
                          .flags = flags };
   cl_int err = svm_pool_alloc(ctx, dev, size + extra, fine, &a.alloc_base, &a.counted);
   if (err != CL_SUCCESS)
      return err;
   a.base = ((uintptr_t)a.alloc_base + alignment - 1) & ~(uintptr_t)(alignment - 1);
   err = table_insert(&a);
   if (err != CL_SUCCESS)
      goto out_free;
   plat_context_retain_internal(ctx);
   if (a.counted)
      atomic_fetch_add(&a.counted->device_bytes_in_use, size);
   *out = (void *)a.base;
   return CL_SUCCESS;

out_free:
   rt_pool_free(a.alloc_base);
   return err;
}

cl_int
mem__alloc_free(struct _cl_context *ctx, void *ptr, bool usm)
{
   struct svm_alloc a;
   if (!table_remove(ctx, ptr, usm, &a))
      return ICD_ERROR(CL_INVALID_VALUE, "%p is not %s allocation of context %p", ptr,
                       usm ? "a unified shared memory" : "an SVM", (void *)ctx);
   rt_pool_free(a.alloc_base);
   if (a.counted)
      atomic_fetch_sub(&a.counted->device_bytes_in_use, a.size);
   plat_context_release_internal(a.ctx);
   return CL_SUCCESS;
}

cl_int
mem_svm_free(struct _cl_context *ctx, void *ptr)
{
   return mem__alloc_free(ctx, ptr, false);
}

/*
 * §5.6.1: returns NULL (no error code) for an invalid context, invalid flags (more than one
 * access flag, unknown bits, ATOMICS without FINE_GRAIN_BUFFER), flags a device of the
 * context does not support (CL_DEVICE_SVM_CAPABILITIES: coarse-grained buffers need
 * COARSE_GRAIN_BUFFER, FINE_GRAIN_BUFFER needs FINE_GRAIN_BUFFER, ATOMICS needs ATOMICS),
 * size 0 or above every device's CL_DEVICE_MAX_MEM_ALLOC_SIZE, an alignment that is
 * not a power of two or exceeds SVM_MAX_ALIGNMENT, and allocation failure.
 */
void *CL_API_CALL
mem_SVMAlloc(cl_context context, cl_svm_mem_flags flags, size_t size, cl_uint alignment)
{
   struct _cl_context *ctx = plat_context_from_handle(context);
   if (!ctx) {
      ICD_ERROR(CL_INVALID_CONTEXT, "clSVMAlloc: context %p is not an hsacl context",
                (void *)context);
      return NULL;
   }
   cl_svm_mem_flags access = flags & SVM_ACCESS_FLAGS;
   if ((flags & ~(cl_svm_mem_flags)SVM_FLAGS) || (access & (access - 1)) ||
       ((flags & CL_MEM_SVM_ATOMICS) && !(flags & CL_MEM_SVM_FINE_GRAIN_BUFFER))) {
      ICD_ERROR(CL_INVALID_VALUE, "clSVMAlloc: invalid flags 0x%llx", (unsigned long long)flags);
      return NULL;
   }
   const bool fine = (flags & CL_MEM_SVM_FINE_GRAIN_BUFFER) != 0;
   cl_device_svm_capabilities need = CL_DEVICE_SVM_COARSE_GRAIN_BUFFER;
   if (fine)
      need = CL_DEVICE_SVM_FINE_GRAIN_BUFFER |
             (flags & CL_MEM_SVM_ATOMICS ? CL_DEVICE_SVM_ATOMICS : 0);
   for (cl_uint i = 0; i < ctx->num_devices; i++) {
      if ((plat_device_svm_capabilities(ctx->devices[i]) & need) != need) {
         ICD_ERROR(CL_INVALID_OPERATION, "clSVMAlloc: device %s of the context does not "
                   "support SVM flags 0x%llx", ctx->devices[i]->name,
                   (unsigned long long)flags);
         return NULL;
      }
   }
   struct _cl_device_id *dev = NULL;
   for (cl_uint i = 0; i < ctx->num_devices && !dev; i++) {
      if (size <= ctx->devices[i]->max_alloc_size)
         dev = ctx->devices[i];
   }
   if (size == 0 || !dev) {
      ICD_ERROR(CL_INVALID_BUFFER_SIZE,
                "clSVMAlloc: size %zu is 0 or above every device's "
                "CL_DEVICE_MAX_MEM_ALLOC_SIZE",
                size);
      return NULL;
   }
   if ((alignment & (alignment - 1)) || alignment > SVM_MAX_ALIGNMENT) {
      ICD_ERROR(CL_INVALID_VALUE, "clSVMAlloc: alignment %u is not a power of two up to %zu",
                alignment, SVM_MAX_ALIGNMENT);
      return NULL;
   }
   void *ptr = NULL;
   if (mem__alloc_create(ctx, dev, size, alignment ? alignment : SVM_DEFAULT_ALIGNMENT, fine,
                         MEM_ALLOC_SVM, NULL, 0, &ptr) != CL_SUCCESS)
      return NULL;
   return ptr;
}

/* §5.6.1: does not wait for commands using the allocation; NULL is ignored. */
void CL_API_CALL
mem_SVMFree(cl_context context, void *svm_pointer)
{
   struct _cl_context *ctx = plat_context_from_handle(context);
   if (!ctx) {
      ICD_ERROR(CL_INVALID_CONTEXT, "clSVMFree: context %p is not an hsacl context",
                (void *)context);
      return;
   }
   if (svm_pointer)
      mem_svm_free(ctx, svm_pointer);
}
