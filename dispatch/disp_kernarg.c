/*
 * dispatch/disp_kernarg.c — kernarg segments of kernel launches: the queue's ring of
 * kernarg-pool memory the segments come from (disp.h says who allocates and who returns),
 * and the writer that fills a segment from the code object's signature (offsets and kinds
 * from compiler/comp_meta.c) and the argument values the kernel holds: explicit arguments
 * (buffers, SVM pointers, pipes, images and samplers as descriptor addresses, __local sizes
 * as LDS offsets, device queues, bytes by value) and the hidden arguments of code object V5.
 * Every write is checked against the segment size the metadata gives (kernarg_fits).
 */
#include "dispatch/disp.h"
#include "dispatch/disp_priv.h"
#include "dispatch/disp_devq.h"
#include "compiler/comp.h"
#include "memory/mem.h"
#include "platform/plat.h"

#include <assert.h>
#include <string.h>

/* ---- the ring ----------------------------------------------------------------------- */

/* The first ring of a queue. A full ring is replaced by one with twice what ran out, entries
 * or bytes (disp_priv.h): the allocator walks all of a ring's bytes round and round, so
 * they are what the enqueueing thread's stores miss in the cache, and a ring only grows its
 * bytes for segments that need them (a kernel without hidden arguments takes 64 bytes a
 * launch, one with them ~320). Launches take one entry each until the AQL ring
 * (DISP_AQL_QUEUE_PACKETS, disp_queue.c) is full; segments still held by commands waiting
 * for the completion path make a queue grow its ring, once or twice. */
#define RING_BYTES (256u << 10)
#define RING_ENTRIES 4096u

static void
ring_destroy(struct disp_kernarg_ring *r)
{
   if (!r)
      return;
   if (r->base)
      rt_hsa()->hsa_amd_memory_pool_free(r->base);
   icd_free(r->ends);
   icd_free(r);
}

/* A new, empty ring of at least `bytes` and `entries` (rounded up to powers of two). */
static cl_int
ring_create(struct _cl_command_queue *q, uint64_t bytes, uint32_t entries,
            struct disp_kernarg_ring **out)
{
   const struct rt_hsa *hsa = rt_hsa();
   struct _cl_device_id *dev = q->device;
   uint64_t b = RING_BYTES;
   uint32_t e = RING_ENTRIES;
   while (b < bytes)
      b *= 2;
   while (e < entries)
      e *= 2;
   if (b > UINT32_MAX || e > (1u << 30))
      return ICD_ERROR(CL_OUT_OF_RESOURCES, "kernarg ring of %llu bytes, %u entries: too "
                       "large", (unsigned long long)b, e);
   struct disp_kernarg_ring *r = icd_calloc(1, sizeof(*r));
   if (!r)
      return ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "allocating a kernarg ring");
   r->bytes = (uint32_t)b;
   r->entries = e;
   r->ends = icd_calloc(e, sizeof(*r->ends));
   if (!r->ends) {
      ring_destroy(r);
      return ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "allocating kernarg ring bookkeeping");
   }
   hsa_amd_memory_pool_t pool = dev->has_kernarg_pool ? dev->kernarg_pool : dev->system_pool;
   hsa_status_t st = hsa->hsa_amd_memory_pool_allocate(pool, r->bytes, 0, &r->base);
   if (st != HSA_STATUS_SUCCESS) {
      r->base = NULL;
      ring_destroy(r);
      return rt_status_to_cl(st, "allocating the kernarg ring");
   }
   st = hsa->hsa_amd_agents_allow_access(1, &dev->agent, NULL, r->base);
   if (st != HSA_STATUS_SUCCESS) {
      ring_destroy(r);
      return rt_status_to_cl(st, "granting the GPU access to the kernarg ring");
   }
   *out = r;
   return CL_SUCCESS;
}

/* Kernarg memory of `bytes` that `dev` may read, outside any ring: a command buffer's
 * pre-built segments (disp_cmdbuf_image.c), which live as long as the command buffer's image. */
cl_int
disp__kernarg_block_alloc(struct _cl_device_id *dev, size_t bytes, void **out)
{
   const struct rt_hsa *hsa = rt_hsa();
   hsa_amd_memory_pool_t pool = dev->has_kernarg_pool ? dev->kernarg_pool : dev->system_pool;
   hsa_status_t st = hsa->hsa_amd_memory_pool_allocate(pool, bytes, 0, out);
   if (st != HSA_STATUS_SUCCESS) {
      *out = NULL;
      return rt_status_to_cl(st, "allocating pre-built kernarg segments");
   }
   st = hsa->hsa_amd_agents_allow_access(1, &dev->agent, NULL, *out);
   if (st != HSA_STATUS_SUCCESS) {
      hsa->hsa_amd_memory_pool_free(*out);
      *out = NULL;
      return rt_status_to_cl(st, "granting the GPU access to pre-built kernarg segments");
   }
   return CL_SUCCESS;
}

void
disp__kernarg_block_free(void *block)
{
   if (block)
      rt_hsa()->hsa_amd_memory_pool_free(block);
}

/* Moves the ring's tail past the entries returned from the oldest on. Allocator only. */
static void
ring_reclaim(struct disp_kernarg_ring *r)
{
   while (r->count) {
      uint64_t end = atomic_load_explicit(&r->ends[r->first], memory_order_acquire);
      if (!(end >> 63))
         break;
      r->tail = end & ~(1ull << 63);
      r->first = (r->first + 1) & (r->entries - 1);
      r->count--;
   }
}

/* Takes `size` bytes from `r`, or returns false when it has no room (*no_entry: its entries
 * ran out, not its bytes). Allocator only. */
static bool
ring_take(struct disp_kernarg_ring *r, uint32_t size, struct disp_kernarg_slot *slot,
          bool *no_entry)
{
   *no_entry = false;
   if (r->count == r->entries) {
      ring_reclaim(r);
      *no_entry = r->count == r->entries;
      if (*no_entry)
         return false;
   }
   uint64_t head = r->head;
   /* Do not wrap a segment: skip to the start when it would not fit. */
   uint64_t off = head & (r->bytes - 1);
   if (off + size > r->bytes)
      head += r->bytes - off;
   if (head + size - r->tail > r->bytes) {
      ring_reclaim(r);
      if (head + size - r->tail > r->bytes)
         return false;
   }
   uint32_t idx = (r->first + r->count) & (r->entries - 1);
   atomic_store_explicit(&r->ends[idx], head + size, memory_order_relaxed);
   r->count++;
   slot->ptr = (char *)r->base + (head & (r->bytes - 1));
   slot->ring = r;
   slot->ring_index = idx;
   r->head = head + size;
   return true;
}

/*
 * Takes `size` bytes (aligned to 64) of kernarg memory for a launch of `q`, under its submit
 * lock. Entries are returned out of order; a ring reuses bytes only once every older entry
 * is back. A full ring (launches in flight faster than the completion path retires them) is
 * replaced by a larger one rather than waiting: the submitter may be the completion path,
 * which must not wait for it; the steady state allocates nothing.
 */
cl_int
disp__kernarg_alloc_locked(struct _cl_command_queue *q, uint32_t size,
                           struct disp_kernarg_slot *slot)
{
   size = (size + 63u) & ~63u;
   memset(slot, 0, sizeof(*slot));
   cl_int err = CL_SUCCESS;
   struct disp_kernarg_ring *r = q->kernarg;
   /* Rings replaced earlier go once drained (one pool free each, not per launch). */
   while (r && r->older) {
      ring_reclaim(r->older);
      if (r->older->count)
         break;
      struct disp_kernarg_ring *old = r->older;
      r->older = old->older;
      ring_destroy(old);
   }
   bool no_entry = false;
   if (!r || (uint64_t)size * 4 > r->bytes || !ring_take(r, size, slot, &no_entry)) {
      struct disp_kernarg_ring *bigger = NULL;
      uint64_t bytes = r ? (uint64_t)r->bytes * (no_entry ? 1 : 2) : 0;
      if (bytes < (uint64_t)size * 4)
         bytes = (uint64_t)size * 4;
      err = ring_create(q, bytes, r ? r->entries * (no_entry ? 2 : 1) : 0, &bigger);
      if (err == CL_SUCCESS) {
         if (r)
            icd_log(ICD_LOG_DEBUG, "dispatch", "queue %p: kernarg ring full (%u entries, "
                    "%u bytes): now %u entries, %u bytes", (void *)q, r->entries, r->bytes,
                    bigger->entries, bigger->bytes);
         bigger->older = r;
         q->kernarg = bigger;
         bool ok = ring_take(bigger, size, slot, &no_entry);
         assert(ok);
         (void)ok;
      }
   }
   return err;
}

/* Any thread, no lock: the allocator reclaims the entry (disp.h). */
void
disp__kernarg_free(struct disp_kernarg_slot *slot)
{
   if (!slot->ptr)
      return;
   atomic_fetch_or_explicit(&slot->ring->ends[slot->ring_index], 1ull << 63,
                            memory_order_release);
   slot->ptr = NULL;
}

void
disp__kernarg_ring_finish(struct _cl_command_queue *q)
{
   struct disp_kernarg_ring *r = q->kernarg;
   while (r) {
      struct disp_kernarg_ring *older = r->older;
      ring_destroy(r);
      r = older;
   }
   q->kernarg = NULL;
}

/* ---- the writer --------------------------------------------------------------------- */

/* Conventions rule 16: a kernarg write stays inside the segment the metadata sized. */
static cl_int
kernarg_fits(const struct comp_kernel_arg *a, const struct comp_kernel_device *kd)
{
   if ((uint64_t)a->offset + a->size <= kd->kernarg_segment_size)
      return CL_SUCCESS;
   return ICD_ERROR(CL_INVALID_KERNEL_DEFINITION,
                    "argument at %u+%u is outside the %u-byte kernarg segment", a->offset,
                    a->size, kd->kernarg_segment_size);
}

/* The descriptor address on q's device of an image or sampler argument (memory/mem_image.c,
 * mem_sampler.c), holding the object in `refs`; the argument was set only to an image or
 * sampler of the kernel's context. */
static cl_int
descriptor_arg(struct _cl_command_queue *q, const struct _cl_kernel *k,
               const struct comp_kernel_device *kd, cl_uint i, const struct comp_kernel_arg *a,
               const struct comp_kernel_arg_value *v, struct disp__kernarg_refs *refs,
               uint64_t *va)
{
   if (a->kind == COMP_ARG_IMAGE) {
      cl_mem h = NULL;
      memcpy(&h, v->value, sizeof(h));
      struct _cl_mem *m = mem_mem_from_handle(h);
      if (!m)
         return ICD_ERROR(CL_INVALID_MEM_OBJECT, "argument %u of %s: the image was "
                          "released", i, comp_kernel_name(k));
      *va = mem_image_descriptor(m, q->device);
      mem_retain_internal(m);
      refs->mems[refs->num_mems++] = m;
   } else {
      cl_sampler h = NULL;
      memcpy(&h, v->value, sizeof(h));
      struct _cl_sampler *s = mem_sampler_from_handle(h);
      if (!s)
         return ICD_ERROR(CL_INVALID_SAMPLER, "argument %u of %s: the sampler was "
                          "released", i, comp_kernel_name(k));
      if (!refs->samplers)
         refs->samplers = icd_calloc(kd->sig->num_explicit_args, sizeof(*refs->samplers));
      if (!refs->samplers)
         return ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "allocating a launch's sampler list");
      *va = mem_sampler_descriptor(s, q->device);
      mem_sampler_retain_internal(s);
      refs->samplers[refs->num_samplers++] = s;
   }
   if (!*va)
      return ICD_ERROR(CL_INVALID_OPERATION, "argument %u of %s: the queue's device has "
                       "no image support", i, comp_kernel_name(k));
   return CL_SUCCESS;
}

cl_int
disp__kernarg_write_explicit(unsigned char *ka, struct _cl_command_queue *q,
                             const struct _cl_kernel *k, const struct comp_kernel_device *kd,
                             struct disp__kernarg_refs *refs, uint32_t *lds)
{
   const struct comp_kernel *sig = kd->sig;
   *lds = kd->group_segment_size;
   for (cl_uint i = 0; i < sig->num_explicit_args; i++) {
      const struct comp_kernel_arg *a = &sig->args[i];
      const struct comp_kernel_arg_value *v = comp_kernel_arg(k, i);
      cl_int err = kernarg_fits(a, kd);
      if (err != CL_SUCCESS)
         return err;
      switch (a->kind) {
      case COMP_ARG_GLOBAL_BUFFER: {
         cl_mem h = v->value && !v->svm ? *(const cl_mem *)v->value : NULL;
         uint64_t va = 0;
         if (v->svm) {
            /* clSetKernelArgSVMPointer: the raw pointer; the application keeps the SVM
             * allocation alive while the kernel runs (§5.6.1). */
            void *ptr = NULL;
            if (v->value)
               memcpy(&ptr, v->value, sizeof(ptr));
            va = (uint64_t)(uintptr_t)ptr;
         } else if (h) {
            struct _cl_mem *m = mem_mem_from_handle(h);
            if (!m)
               return ICD_ERROR(CL_INVALID_MEM_OBJECT, "argument %u of %s: the buffer was "
                                "released", i, comp_kernel_name(k));
            va = m->device_va;
            mem_retain_internal(m);
            refs->mems[refs->num_mems++] = m;
         }
         memcpy(ka + a->offset, &va, a->size < 8 ? a->size : 8);
         break;
      }
      case COMP_ARG_PIPE: {
         /* The pipe's header address (comp_builtins_pipe.cl); set only to a pipe. */
         cl_mem h = NULL;
         memcpy(&h, v->value, sizeof(h));
         struct _cl_mem *m = mem_mem_from_handle(h);
         if (!m)
            return ICD_ERROR(CL_INVALID_MEM_OBJECT, "argument %u of %s: the pipe was released",
                             i, comp_kernel_name(k));
         uint64_t va = m->device_va;
         mem_retain_internal(m);
         refs->mems[refs->num_mems++] = m;
         memcpy(ka + a->offset, &va, a->size < 8 ? a->size : 8);
         break;
      }
      case COMP_ARG_IMAGE:
      case COMP_ARG_SAMPLER: {
         uint64_t va;
         err = descriptor_arg(q, k, kd, i, a, v, refs, &va);
         if (err != CL_SUCCESS)
            return err;
         memcpy(ka + a->offset, &va, a->size < 8 ? a->size : 8);
         break;
      }
      case COMP_ARG_DYNAMIC_SHARED_POINTER: {
         uint32_t align = a->pointee_align ? a->pointee_align : 16;
         *lds = (*lds + align - 1) & ~(align - 1);
         memcpy(ka + a->offset, lds, 4);
         *lds += (uint32_t)v->size;
         break;
      }
      case COMP_ARG_QUEUE: {
         /* Held by the kernel's argument, as buffers are not: a device queue must outlive
          * the launches that use it (the application's duty, §5.1). */
         cl_command_queue h;
         memcpy(&h, v->value, sizeof(h));
         struct _cl_command_queue *dq = disp_queue_from_handle(h);
         if (!dq || !dq->devq || dq->device != q->device)
            return ICD_ERROR(CL_INVALID_DEVICE_QUEUE, "argument %u of %s: not a device queue "
                             "of the launch's device", i, comp_kernel_name(k));
         refs->devq = dq->devq;
         uint64_t addr = disp_devq_address(dq->devq);
         memcpy(ka + a->offset, &addr, a->size < 8 ? a->size : 8);
         break;
      }
      default:
         memcpy(ka + a->offset, v->value, a->size);
         break;
      }
   }
   if (*lds > q->device->info.lds_size)
      return ICD_ERROR(CL_OUT_OF_RESOURCES, "kernel %s needs %u bytes of local memory, the "
                       "device has %u", comp_kernel_name(k), *lds, q->device->info.lds_size);
   return CL_SUCCESS;
}

cl_int
disp__kernarg_hidden_fit(const struct comp_kernel_device *kd)
{
   const struct comp_kernel *sig = kd->sig;
   for (cl_uint i = sig->num_explicit_args; i < sig->num_args; i++) {
      cl_int err = kernarg_fits(&sig->args[i], kd);
      if (err != CL_SUCCESS)
         return err;
   }
   return CL_SUCCESS;
}

cl_int
disp__kernarg_write_hidden(unsigned char *ka, struct disp_devq *default_queue,
                           const struct comp_kernel_device *kd, const struct disp__range *r,
                           uint32_t lds, void *printf_buffer)
{
   const struct comp_kernel *sig = kd->sig;
   for (cl_uint i = sig->num_explicit_args; i < sig->num_args; i++) {
      const struct comp_kernel_arg *a = &sig->args[i];
      uint64_t v = 0;
      switch (a->kind) {
      case COMP_ARG_HIDDEN_BLOCK_COUNT_X:
      case COMP_ARG_HIDDEN_BLOCK_COUNT_Y:
      case COMP_ARG_HIDDEN_BLOCK_COUNT_Z: {
         int d = a->kind - COMP_ARG_HIDDEN_BLOCK_COUNT_X;
         v = r->global[d] / r->local[d]; /* full work-groups; the remainder says the rest */
         break;
      }
      case COMP_ARG_HIDDEN_GROUP_SIZE_X:
      case COMP_ARG_HIDDEN_GROUP_SIZE_Y:
      case COMP_ARG_HIDDEN_GROUP_SIZE_Z:
         v = r->local[a->kind - COMP_ARG_HIDDEN_GROUP_SIZE_X];
         break;
      case COMP_ARG_HIDDEN_REMAINDER_X:
      case COMP_ARG_HIDDEN_REMAINDER_Y:
      case COMP_ARG_HIDDEN_REMAINDER_Z: {
         int d = a->kind - COMP_ARG_HIDDEN_REMAINDER_X;
         v = r->global[d] % r->local[d];
         break;
      }
      case COMP_ARG_HIDDEN_GLOBAL_OFFSET_X:
      case COMP_ARG_HIDDEN_GLOBAL_OFFSET_Y:
      case COMP_ARG_HIDDEN_GLOBAL_OFFSET_Z:
         v = r->offset[a->kind - COMP_ARG_HIDDEN_GLOBAL_OFFSET_X];
         break;
      case COMP_ARG_HIDDEN_GRID_DIMS:
         v = r->work_dim;
         break;
      case COMP_ARG_HIDDEN_DYNAMIC_LDS_SIZE:
         v = lds - kd->group_segment_size;
         break;
      case COMP_ARG_HIDDEN_PRINTF_BUFFER:
         v = (uint64_t)(uintptr_t)printf_buffer;
         break;
      case COMP_ARG_HIDDEN_DEFAULT_QUEUE:
         /* get_default_queue(); 0 without a default device queue (disp_devq.c) */
         v = disp_devq_address(default_queue);
         break;
      default:
         /* Not used by OpenCL on this device (hostcall, completion action (0: the host's
          * kernel), multigrid, heap, queue/private/shared base): zero. */
         v = 0;
         break;
      }
      cl_int err = kernarg_fits(a, kd);
      if (err != CL_SUCCESS)
         return err;
      memcpy(ka + a->offset, &v, a->size < 8 ? a->size : 8);
   }
   return CL_SUCCESS;
}
