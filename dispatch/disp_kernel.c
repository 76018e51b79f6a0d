/*
 * dispatch/disp_kernel.c — kernel launches (OpenCL 3.0 API §5.10):
 * clEnqueueNDRangeKernel/clEnqueueTask with every specified error, the argument values the
 * kernel holds (compiler/comp_kernel_args.c sets them; a launch only reads them), kernarg segments from
 * the queue's ring in kernarg-pool memory filled at the signature's offsets (explicit and
 * hidden arguments), and the AQL kernel-dispatch packet.
 *
 * Fences (disp_fence.c): in a one-device context a dispatch releases at agent scope and
 * acquires at system scope only when something other than this device's kernels may have
 * written memory since; a command that is not a kernel gets a system-scope release before
 * it; several devices keep system scope both ways. AQL orders dispatches of an in-order
 * queue through the barrier bit.
 */
#include "dispatch/disp.h"
#include "dispatch/disp_priv.h"
#include "dispatch/disp_devq.h"
#include "compiler/comp.h"
#include "memory/mem.h"
#include "platform/plat.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

/* Default local size when the application passes none (one wavefront multiple). */
#define DISP_DEFAULT_WG_1D 256u
/* Scratch per work-item granted to kernels with a dynamic call stack. */
#define DISP_DYNAMIC_STACK_BYTES 16384u
/* Printf buffer per launch of a kernel that calls printf. */
#define DISP_PRINTF_BUFFER_BYTES (1u << 20)

/* Conventions rule 16: a kernarg write stays inside the segment the metadata sized. */
#define KERNARG_CHECK(a, kd)                                                                 \
   do {                                                                                     \
      if ((uint64_t)(a)->offset + (a)->size > (kd)->kernarg_segment_size) {                 \
         err = ICD_ERROR(CL_INVALID_KERNEL_DEFINITION, "argument at %u+%u is outside the " \
                         "%u-byte kernarg segment", (a)->offset, (a)->size,                \
                         (kd)->kernarg_segment_size);                                      \
         goto out_abort;                                                                    \
      }                                                                                     \
   } while (0)

#define LAUNCH_INLINE_MEMS 16

struct launch {
   struct _cl_kernel *kernel;       /* internal reference */
   struct _cl_mem **mems;           /* internal references on buffer arguments */
   cl_uint num_mems;
   struct _cl_mem *inline_mems[LAUNCH_INLINE_MEMS]; /* mems when the kernel has few args */
   struct _cl_sampler **samplers;   /* internal references on sampler arguments, or NULL */
   cl_uint num_samplers;
   hsa_kernel_dispatch_packet_t packet; /* complete but for header and signal */
   struct disp_kernarg_slot slot;   /* kernarg memory */
   void *printf_buffer;             /* staging memory, host visible; or NULL */
   const struct comp_program_info *printf_info;
   struct disp_devq *devq;          /* device-side enqueue: the default device queue */
   struct disp_devq_tree *tree;     /* its launch (disp_devq.c), once submitted */
};

/* Launches are recycled: the steady-state enqueue path does not call malloc. */
static struct disp_pool launch_pool = DISP_POOL_INIT(sizeof(struct launch), DISP_POOL_MAX);

/* ---- kernarg ring ------------------------------------------------------------------- */

/* The first ring of a queue; a full ring is replaced by one twice its size (disp.h). Launches
 * of small kernels (COV5 segments are ~320 bytes) fit one per entry until the AQL ring
 * (DISP_AQL_QUEUE_PACKETS, disp_queue.c) is full; segments still held by commands waiting
 * for the completion path or held on user events make a queue grow its ring, once. */
#define RING_BYTES (2u << 20)
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

/* Takes `size` bytes from `r`, or returns false when it has no room. Allocator only. */
static bool
ring_take(struct disp_kernarg_ring *r, uint32_t size, struct disp_kernarg_slot *slot)
{
   if (r->count == r->entries) {
      ring_reclaim(r);
      if (r->count == r->entries)
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
 * Takes `size` bytes (aligned to 64) of kernarg memory for a launch of `q`. Entries are
 * returned out of order; a ring reuses bytes only once every older entry is back. A full
 * ring (launches in flight faster than the completion path retires them, or held on user
 * events) is replaced by a larger one rather than blocking the application thread; the
 * steady state allocates nothing.
 */
static cl_int
kernarg_alloc(struct _cl_command_queue *q, uint32_t size, struct disp_kernarg_slot *slot)
{
   size = (size + 63u) & ~63u;
   memset(slot, 0, sizeof(*slot));
   cl_int err = CL_SUCCESS;
   pthread_mutex_lock(&q->kernarg_lock);
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
   if (!r || (uint64_t)size * 4 > r->bytes || !ring_take(r, size, slot)) {
      struct disp_kernarg_ring *bigger = NULL;
      err = ring_create(q, r ? (uint64_t)r->bytes * 2 : 0, r ? r->entries * 2 : 0, &bigger);
      if (err == CL_SUCCESS && (uint64_t)size * 4 > bigger->bytes) {
         ring_destroy(bigger);
         err = ring_create(q, (uint64_t)size * 4, r ? r->entries * 2 : 0, &bigger);
      }
      if (err == CL_SUCCESS) {
         if (r)
            icd_log(ICD_LOG_DEBUG, "dispatch", "queue %p: kernarg ring full (%u entries, "
                    "%u bytes): now %u entries, %u bytes", (void *)q, r->entries, r->bytes,
                    bigger->entries, bigger->bytes);
         bigger->older = r;
         q->kernarg = bigger;
         bool ok = ring_take(bigger, size, slot);
         assert(ok);
         (void)ok;
      }
   }
   pthread_mutex_unlock(&q->kernarg_lock);
   return err;
}

/* Any thread, no lock: the allocator reclaims the entry (disp.h). */
static void
kernarg_free(struct disp_kernarg_slot *slot)
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

/* ---- the launch command ------------------------------------------------------------- */

static void
launch_release(struct disp_command *cmd)
{
   struct launch *l = cmd->payload;
   if (!l)
      return;
   kernarg_free(&l->slot);
   if (l->tree)
      disp_devq_tree_finish(l->tree);
   l->tree = NULL;
   l->devq = NULL;
   if (l->printf_buffer)
      mem_staging_free(cmd->queue->device, l->printf_buffer, DISP_PRINTF_BUFFER_BYTES);
   for (cl_uint i = 0; i < l->num_mems; i++)
      mem_release_internal(l->mems[i]);
   if (l->mems != l->inline_mems)
      icd_free(l->mems);
   for (cl_uint i = 0; i < l->num_samplers; i++)
      mem_sampler_release_internal(l->samplers[i]);
   icd_free(l->samplers);
   l->samplers = NULL;
   l->num_samplers = 0;
   if (l->kernel)
      comp_kernel_release_internal(l->kernel);
   disp__pool_free(&launch_pool, l);
}

static cl_int
launch_complete(struct disp_command *cmd)
{
   struct launch *l = cmd->payload;
   const struct rt_hsa *hsa = rt_hsa();
   struct _cl_event *ev = cmd->event;
   if (ev->profiling) {
      hsa_amd_profiling_dispatch_time_t t;
      if (hsa->hsa_amd_profiling_get_dispatch_time(cmd->queue->device->agent, cmd->work_signal,
                                                   &t) == HSA_STATUS_SUCCESS) {
         /* Device clock converted to the host's: keep QUEUED <= SUBMIT <= START <= END
          * (§5.14) despite calibration error. */
         cl_ulong start = disp__device_time_to_host(cmd->queue->device, t.start);
         cl_ulong end = disp__device_time_to_host(cmd->queue->device, t.end);
         if (start < ev->times[DISP_TIME_SUBMIT])
            start = ev->times[DISP_TIME_SUBMIT];
         if (end < start)
            end = start;
         ev->times[DISP_TIME_START] = start;
         ev->times[DISP_TIME_END] = end;
      }
   }
   if (l->printf_buffer)
      disp_printf_flush(l->printf_info, l->printf_buffer);
   return CL_SUCCESS;
}

static cl_int
launch_submit(struct disp_command *cmd, const hsa_signal_t *deps, uint32_t num_deps,
              hsa_signal_t signal)
{
   struct launch *l = cmd->payload;
   struct _cl_command_queue *q = cmd->queue;
   const bool in_order = !(q->properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
   if (num_deps) {
      cl_int err = disp_queue_barrier_and_scoped(q, deps, num_deps, (hsa_signal_t){ 0 },
                                                 disp__fence_barrier_scopes(q));
      if (err != CL_SUCCESS)
         return err;
   }
   l->packet.completion_signal = signal;
   l->packet.header = (uint16_t)((HSA_PACKET_TYPE_KERNEL_DISPATCH << HSA_PACKET_HEADER_TYPE) |
                                 ((in_order ? 1 : 0) << HSA_PACKET_HEADER_BARRIER) |
                                 disp__fence_kernel_scopes(cmd));
   if (!l->devq)
      return disp_queue_write_packet(q, &l->packet);
   /* A kernel that may enqueue: its command completes when its whole tree did. */
   hsa_signal_t parent, done, prev;
   cl_int err = disp_devq_tree_start(l->devq, l->printf_buffer, &parent, &done, &prev,
                                     &l->tree);
   if (err != CL_SUCCESS)
      return err;
   if (prev.handle)
      err = disp_queue_barrier_and_scoped(q, &prev, 1, (hsa_signal_t){ 0 },
                                          disp__fence_barrier_scopes(q));
   l->packet.completion_signal = parent;
   if (err == CL_SUCCESS)
      err = disp_queue_write_packet(q, &l->packet);
   if (err == CL_SUCCESS)
      err = disp_queue_barrier_and_scoped(q, &done, 1, signal, disp__fence_barrier_scopes(q));
   if (err != CL_SUCCESS)
      disp_devq_tree_abort(l->tree);
   return err;
}

/* ---- clEnqueueNDRangeKernel --------------------------------------------------------- */

/* A local size for dimension sizes `g` that divides them (OpenCL 1.x uniform groups). */
static void
choose_local_size(cl_uint dims, const size_t *g, size_t max_wg, size_t *l)
{
   static const size_t targets[3][3] = { { 256, 1, 1 }, { 16, 16, 1 }, { 8, 8, 4 } };
   size_t budget = max_wg < DISP_DEFAULT_WG_1D ? max_wg : DISP_DEFAULT_WG_1D;
   for (cl_uint i = 0; i < 3; i++)
      l[i] = 1;
   for (cl_uint i = 0; i < dims; i++) {
      size_t want = targets[dims - 1][i];
      if (want > budget)
         want = budget;
      size_t best = 1;
      for (size_t c = want; c >= 1; c--) {
         if (g[i] % c == 0) {
            best = c;
            break;
         }
      }
      l[i] = best;
      budget /= best;
      if (!budget)
         budget = 1;
   }
}

/* The queue, kernel and the kernel's executable on the queue's device of a launch or a
 * suggestion query, checked in the order of §5.10's errors. */
static cl_int
launch_target(cl_command_queue command_queue, cl_kernel kernel, struct _cl_command_queue **q_out,
              struct _cl_kernel **k_out, const struct comp_kernel_device **kd_out)
{
   struct _cl_command_queue *q = disp_queue_from_handle(command_queue);
   if (!q || q->devq)
      return ICD_ERROR(CL_INVALID_COMMAND_QUEUE, "command_queue %p is not an hsacl host queue",
                       (void *)command_queue);
   struct _cl_kernel *k = comp_kernel_from_handle(kernel);
   if (!k)
      return ICD_ERROR(CL_INVALID_KERNEL, "kernel %p is not an hsacl kernel", (void *)kernel);
   if (k->context != q->context)
      return ICD_ERROR(CL_INVALID_CONTEXT, "kernel and queue belong to different contexts");
   const struct comp_kernel_device *kd = comp_kernel_for_device(k, q->device);
   if (!kd)
      return ICD_ERROR(CL_INVALID_PROGRAM_EXECUTABLE, "kernel %s has no executable for %s",
                       k->name, q->device->name);
   *q_out = q;
   *k_out = k;
   *kd_out = kd;
   return CL_SUCCESS;
}

/* The global range of a launch or a suggestion query (§5.10): work_dim, sizes (0 is an empty
 * launch from OpenCL 2.1 on when `zero_ok`), offsets. Fills g and off (1 and 0 beyond
 * work_dim) and *empty. */
static cl_int
check_global(cl_uint work_dim, const size_t *global_work_offset,
             const size_t *global_work_size, bool zero_ok, size_t g[3], size_t off[3],
             bool *empty)
{
   if (work_dim < 1 || work_dim > 3)
      return ICD_ERROR(CL_INVALID_WORK_DIMENSION, "work_dim %u", work_dim);
   if (!global_work_size)
      return ICD_ERROR(CL_INVALID_GLOBAL_WORK_SIZE, "global_work_size is NULL");
   *empty = false;
   for (cl_uint i = 0; i < 3; i++) {
      g[i] = 1;
      off[i] = 0;
   }
   for (cl_uint i = 0; i < work_dim; i++) {
      g[i] = global_work_size[i];
      if ((g[i] == 0 && !zero_ok) || g[i] > UINT32_MAX)
         return ICD_ERROR(CL_INVALID_GLOBAL_WORK_SIZE, "global_work_size[%u] = %zu", i, g[i]);
      *empty |= g[i] == 0;
      if (global_work_offset) {
         off[i] = global_work_offset[i];
         if (off[i] > SIZE_MAX - g[i])
            return ICD_ERROR(CL_INVALID_GLOBAL_OFFSET, "global offset + size overflows in "
                             "dimension %u", i);
      }
   }
   return CL_SUCCESS;
}

static cl_int
enqueue_ndrange(cl_command_queue command_queue, cl_kernel kernel, cl_uint work_dim,
                const size_t *global_work_offset, const size_t *global_work_size,
                const size_t *local_work_size, cl_uint num_events_in_wait_list,
                const cl_event *event_wait_list, cl_event *event, cl_command_type type)
{
   struct _cl_command_queue *q;
   struct _cl_kernel *k;
   const struct comp_kernel_device *kd;
   cl_int err = launch_target(command_queue, kernel, &q, &k, &kd);
   if (err != CL_SUCCESS)
      return err;
   size_t g[3], off[3], lsz[3] = { 1, 1, 1 };
   /* A global size of 0 is an error up to OpenCL 2.0 and an empty launch from 2.1 on
    * (API §5.10: the command does nothing and its event completes). */
   const bool zero_ok = PLAT_CL_VERSION_MAJOR * 10 + PLAT_CL_VERSION_MINOR >= 21;
   bool empty = false;
   err = check_global(work_dim, global_work_offset, global_work_size, zero_ok, g, off,
                      &empty);
   if (err != CL_SUCCESS)
      return err;
   const struct comp_kernel *sig = kd->sig;
   size_t max_wg = comp_kernel_max_work_group_size(k, q->device, kd);
   const bool reqd = sig->reqd_work_group_size[0] != 0;
   if (local_work_size) {
      size_t product = 1;
      for (cl_uint i = 0; i < work_dim; i++) {
         lsz[i] = local_work_size[i];
         if (lsz[i] == 0)
            return ICD_ERROR(CL_INVALID_WORK_GROUP_SIZE, "local_work_size[%u] is 0", i);
         if (lsz[i] > q->device->info.max_workgroup_size)
            return ICD_ERROR(CL_INVALID_WORK_ITEM_SIZE, "local_work_size[%u] = %zu exceeds "
                             "CL_DEVICE_MAX_WORK_ITEM_SIZES", i, lsz[i]);
         product *= lsz[i];
      }
      if (reqd) {
         for (cl_uint i = 0; i < 3; i++) {
            if (lsz[i] != sig->reqd_work_group_size[i])
               return ICD_ERROR(CL_INVALID_WORK_GROUP_SIZE, "local size differs from the "
                                "kernel's reqd_work_group_size(%u,%u,%u)",
                                sig->reqd_work_group_size[0], sig->reqd_work_group_size[1],
                                sig->reqd_work_group_size[2]);
         }
      }
      if (product > max_wg)
         return ICD_ERROR(CL_INVALID_WORK_GROUP_SIZE, "work-group of %zu work-items exceeds "
                          "the kernel's maximum %zu", product, max_wg);
      /* Non-uniform work-groups: OpenCL C 2.0+ kernels not built with
       * -cl-uniform-work-group-size (§5.10: CL_INVALID_WORK_GROUP_SIZE otherwise). */
      bool uniform_required = sig->uniform_work_group_size ||
                              (sig->language_version[0] < 2);
      for (cl_uint i = 0; i < work_dim; i++) {
         if (g[i] % lsz[i] && uniform_required)
            return ICD_ERROR(CL_INVALID_WORK_GROUP_SIZE, "global size %zu is not a multiple "
                             "of local size %zu in dimension %u, and the kernel requires "
                             "uniform work-groups", g[i], lsz[i], i);
      }
   } else if (reqd) {
      for (cl_uint i = 0; i < 3; i++)
         lsz[i] = sig->reqd_work_group_size[i];
      for (cl_uint i = 0; i < work_dim; i++) {
         if (g[i] % lsz[i])
            return ICD_ERROR(CL_INVALID_WORK_GROUP_SIZE, "global size %zu is not a multiple "
                             "of reqd_work_group_size %zu", g[i], lsz[i]);
      }
   } else if (!empty) {
      choose_local_size(work_dim, g, max_wg, lsz);
   }
   err = disp_validate_wait_list(q->context, num_events_in_wait_list, event_wait_list);
   if (err != CL_SUCCESS)
      return err;
   for (cl_uint i = 0; i < k->num_args; i++) {
      if (!k->args[i].set)
         return ICD_ERROR(CL_INVALID_KERNEL_ARGS, "argument %u of kernel %s is not set", i,
                          k->name);
   }
   /* Groups past what the default build was made for run the program's wide variant
    * (built on first need, comp_wide.c); its printf formats are its own. */
   const struct comp_program_info *wide_info = NULL;
   const size_t items = lsz[0] * lsz[1] * lsz[2];
   if (!empty && items > comp_kernel_default_work_group_size(q->device, kd)) {
      err = comp_kernel_wide(k, q->device, &kd, &wide_info);
      if (err != CL_SUCCESS)
         return err;
      sig = kd->sig;
   }
   if (empty) {
      /* Nothing to run: a host command that completes once its wait list has. */
      struct disp_command *nop = NULL;
      err = disp_command_create(q, type, num_events_in_wait_list, event_wait_list, &nop);
      if (err != CL_SUCCESS)
         return err;
      nop->kind = DISP_COMMAND_HOST;
      return disp_command_enqueue(nop, event, false);
   }

   /* ---- build the launch ---- */
   struct disp_command *cmd = NULL;
   struct launch *l = disp__pool_alloc(&launch_pool);
   if (!l)
      return ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "allocating a launch");
   err = disp_command_create(q, type, num_events_in_wait_list, event_wait_list, &cmd);
   if (err != CL_SUCCESS) {
      disp__pool_free(&launch_pool, l);
      return err;
   }
   l->devq = NULL;
   l->tree = NULL;
   cmd->payload = l;
   cmd->release = launch_release;
   cmd->kind = DISP_COMMAND_HSA;
   cmd->uses_aql = true;
   cmd->submit = launch_submit;
   cmd->complete = launch_complete;
   l->kernel = k;
   comp_kernel_retain_internal(k);
   l->mems = k->num_args <= LAUNCH_INLINE_MEMS
                ? l->inline_mems
                : icd_calloc(k->num_args, sizeof(*l->mems));
   if (!l->mems) {
      err = ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "allocating a launch's buffer list");
      goto out_abort;
   }
   err = kernarg_alloc(q, kd->kernarg_segment_size ? kd->kernarg_segment_size : 64, &l->slot);
   if (err != CL_SUCCESS)
      goto out_abort;
   unsigned char *ka = l->slot.ptr;
   memset(ka, 0, kd->kernarg_segment_size);

   /* Explicit arguments; __local ones become LDS offsets after the static LDS. */
   uint32_t lds = kd->group_segment_size;
   for (cl_uint i = 0; i < sig->num_explicit_args; i++) {
      const struct comp_kernel_arg *a = &sig->args[i];
      const struct comp_kernel_arg_value *v = &k->args[i];
      KERNARG_CHECK(a, kd);
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
            if (!m) {
               err = ICD_ERROR(CL_INVALID_MEM_OBJECT, "argument %u of %s: the buffer was "
                               "released", i, k->name);
               goto out_abort;
            }
            va = m->device_va;
            mem_retain_internal(m);
            l->mems[l->num_mems++] = m;
         }
         memcpy(ka + a->offset, &va, a->size < 8 ? a->size : 8);
         break;
      }
      case COMP_ARG_PIPE: {
         /* The pipe's header address (comp_builtins_pipe.cl); set only to a pipe. */
         cl_mem h = NULL;
         memcpy(&h, v->value, sizeof(h));
         struct _cl_mem *m = mem_mem_from_handle(h);
         if (!m) {
            err = ICD_ERROR(CL_INVALID_MEM_OBJECT, "argument %u of %s: the pipe was released",
                            i, k->name);
            goto out_abort;
         }
         uint64_t va = m->device_va;
         mem_retain_internal(m);
         l->mems[l->num_mems++] = m;
         memcpy(ka + a->offset, &va, a->size < 8 ? a->size : 8);
         break;
      }
      case COMP_ARG_IMAGE:
      case COMP_ARG_SAMPLER: {
         /* The descriptor's address on the queue's device (memory/mem_image.c,
          * mem_sampler.c); set only to an image or sampler of the kernel's context. */
         uint64_t va;
         if (a->kind == COMP_ARG_IMAGE) {
            cl_mem h = NULL;
            memcpy(&h, v->value, sizeof(h));
            struct _cl_mem *m = mem_mem_from_handle(h);
            if (!m) {
               err = ICD_ERROR(CL_INVALID_MEM_OBJECT, "argument %u of %s: the image was "
                               "released", i, k->name);
               goto out_abort;
            }
            va = mem_image_descriptor(m, q->device);
            mem_retain_internal(m);
            l->mems[l->num_mems++] = m;
         } else {
            cl_sampler h = NULL;
            memcpy(&h, v->value, sizeof(h));
            struct _cl_sampler *s = mem_sampler_from_handle(h);
            if (!s) {
               err = ICD_ERROR(CL_INVALID_SAMPLER, "argument %u of %s: the sampler was "
                               "released", i, k->name);
               goto out_abort;
            }
            if (!l->samplers)
               l->samplers = icd_calloc(sig->num_explicit_args, sizeof(*l->samplers));
            if (!l->samplers) {
               err = ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "allocating a launch's sampler list");
               goto out_abort;
            }
            va = mem_sampler_descriptor(s, q->device);
            mem_sampler_retain_internal(s);
            l->samplers[l->num_samplers++] = s;
         }
         if (!va) {
            err = ICD_ERROR(CL_INVALID_OPERATION, "argument %u of %s: the queue's device has "
                            "no image support", i, k->name);
            goto out_abort;
         }
         memcpy(ka + a->offset, &va, a->size < 8 ? a->size : 8);
         break;
      }
      case COMP_ARG_DYNAMIC_SHARED_POINTER: {
         uint32_t align = a->pointee_align ? a->pointee_align : 16;
         lds = (lds + align - 1) & ~(align - 1);
         memcpy(ka + a->offset, &lds, 4);
         lds += (uint32_t)v->size;
         break;
      }
      case COMP_ARG_QUEUE: {
         /* Held by the kernel's argument, as buffers are not: a device queue must outlive
          * the launches that use it (the application's duty, §5.1). */
         cl_command_queue h;
         memcpy(&h, v->value, sizeof(h));
         struct _cl_command_queue *dq = disp_queue_from_handle(h);
         if (!dq || !dq->devq || dq->device != q->device) {
            err = ICD_ERROR(CL_INVALID_DEVICE_QUEUE, "argument %u of %s: not a device queue "
                            "of the launch's device", i, k->name);
            goto out_abort;
         }
         l->devq = dq->devq;
         uint64_t addr = disp_devq_address(dq->devq);
         memcpy(ka + a->offset, &addr, a->size < 8 ? a->size : 8);
         break;
      }
      default:
         memcpy(ka + a->offset, v->value, a->size);
         break;
      }
   }
   if (lds > q->device->info.lds_size) {
      err = ICD_ERROR(CL_OUT_OF_RESOURCES, "kernel %s needs %u bytes of local memory, the "
                      "device has %u", k->name, lds, q->device->info.lds_size);
      goto out_abort;
   }

   /* Hidden arguments (code object V5, AMDGPUUsage "Code Object V5 Metadata"). */
   for (cl_uint i = sig->num_explicit_args; i < sig->num_args; i++) {
      const struct comp_kernel_arg *a = &sig->args[i];
      uint64_t v = 0;
      switch (a->kind) {
      case COMP_ARG_HIDDEN_BLOCK_COUNT_X:
      case COMP_ARG_HIDDEN_BLOCK_COUNT_Y:
      case COMP_ARG_HIDDEN_BLOCK_COUNT_Z: {
         int d = a->kind - COMP_ARG_HIDDEN_BLOCK_COUNT_X;
         v = g[d] / lsz[d]; /* full work-groups; the remainder says the rest */
         break;
      }
      case COMP_ARG_HIDDEN_GROUP_SIZE_X:
      case COMP_ARG_HIDDEN_GROUP_SIZE_Y:
      case COMP_ARG_HIDDEN_GROUP_SIZE_Z:
         v = lsz[a->kind - COMP_ARG_HIDDEN_GROUP_SIZE_X];
         break;
      case COMP_ARG_HIDDEN_REMAINDER_X:
      case COMP_ARG_HIDDEN_REMAINDER_Y:
      case COMP_ARG_HIDDEN_REMAINDER_Z: {
         int d = a->kind - COMP_ARG_HIDDEN_REMAINDER_X;
         v = g[d] % lsz[d];
         break;
      }
      case COMP_ARG_HIDDEN_GLOBAL_OFFSET_X:
      case COMP_ARG_HIDDEN_GLOBAL_OFFSET_Y:
      case COMP_ARG_HIDDEN_GLOBAL_OFFSET_Z:
         v = off[a->kind - COMP_ARG_HIDDEN_GLOBAL_OFFSET_X];
         break;
      case COMP_ARG_HIDDEN_GRID_DIMS:
         v = work_dim;
         break;
      case COMP_ARG_HIDDEN_DYNAMIC_LDS_SIZE:
         v = lds - kd->group_segment_size;
         break;
      case COMP_ARG_HIDDEN_PRINTF_BUFFER: {
         if (!l->printf_buffer) {
            err = mem_staging_alloc(q->device, DISP_PRINTF_BUFFER_BYTES, &l->printf_buffer);
            if (err != CL_SUCCESS) {
               l->printf_buffer = NULL;
               goto out_abort;
            }
            uint32_t header[2] = { 0, DISP_PRINTF_BUFFER_BYTES };
            memcpy(l->printf_buffer, header, sizeof(header));
            l->printf_info = wide_info ? wide_info : comp_kernel_program_info(k, q->device);
         }
         v = (uint64_t)(uintptr_t)l->printf_buffer;
         break;
      }
      case COMP_ARG_HIDDEN_DEFAULT_QUEUE:
         /* get_default_queue(); 0 without a default device queue (disp_devq.c) */
         v = disp_devq_address(disp_devq_default(q->device));
         if (!l->devq)
            l->devq = disp_devq_default(q->device);
         break;
      default:
         /* Not used by OpenCL on this device (hostcall, completion action (0: the host's
          * kernel), multigrid, heap, queue/private/shared base): zero. */
         v = 0;
         break;
      }
      KERNARG_CHECK(a, kd);
      memcpy(ka + a->offset, &v, a->size < 8 ? a->size : 8);
   }

   /* Device-side enqueue: children that call printf write the launch's buffer (the
    * scheduler gives it to them), flushed when the whole tree is over. */
   if (l->devq && !l->printf_buffer) {
      const struct comp_program_info *pi = wide_info ? wide_info
                                                     : comp_kernel_program_info(k, q->device);
      if (pi && pi->num_printfs) {
         err = mem_staging_alloc(q->device, DISP_PRINTF_BUFFER_BYTES, &l->printf_buffer);
         if (err != CL_SUCCESS) {
            l->printf_buffer = NULL;
            goto out_abort;
         }
         uint32_t header[2] = { 0, DISP_PRINTF_BUFFER_BYTES };
         memcpy(l->printf_buffer, header, sizeof(header));
         l->printf_info = pi;
      }
   }

   /* The packet, all but header and completion signal (launch_submit). */
   hsa_kernel_dispatch_packet_t *p = &l->packet;
   p->setup = (uint16_t)(work_dim << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS);
   p->workgroup_size_x = (uint16_t)lsz[0];
   p->workgroup_size_y = (uint16_t)lsz[1];
   p->workgroup_size_z = (uint16_t)lsz[2];
   p->grid_size_x = (uint32_t)g[0];
   p->grid_size_y = (uint32_t)g[1];
   p->grid_size_z = (uint32_t)g[2];
   p->private_segment_size =
      kd->private_segment_size + (kd->dynamic_stack ? DISP_DYNAMIC_STACK_BYTES : 0);
   p->group_segment_size = lds;
   p->kernel_object = kd->kernel_object;
   p->kernarg_address = ka;
   /* Host work after the kernel only for profiling times and printf output; without it the
    * packet decrements the event's own signal (no second signal, disp_command.c). */
   if (!cmd->event->profiling && !l->printf_buffer)
      cmd->complete = NULL;
   return disp_command_enqueue(cmd, event, false);

out_abort:
   disp_command_abort(cmd);
   return err;
}

cl_int CL_API_CALL
disp_EnqueueNDRangeKernel(cl_command_queue command_queue, cl_kernel kernel, cl_uint work_dim,
                          const size_t *global_work_offset, const size_t *global_work_size,
                          const size_t *local_work_size, cl_uint num_events_in_wait_list,
                          const cl_event *event_wait_list, cl_event *event)
{
   return enqueue_ndrange(command_queue, kernel, work_dim, global_work_offset, global_work_size,
                          local_work_size, num_events_in_wait_list, event_wait_list, event,
                          CL_COMMAND_NDRANGE_KERNEL);
}

cl_int CL_API_CALL
disp_EnqueueTask(cl_command_queue command_queue, cl_kernel kernel,
                 cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                 cl_event *event)
{
   const size_t one = 1;
   return enqueue_ndrange(command_queue, kernel, 1, NULL, &one, &one, num_events_in_wait_list,
                          event_wait_list, event, CL_COMMAND_TASK);
}

/* cl_khr_suggested_local_work_size (OpenCL 3.1 core): the local size clEnqueueNDRangeKernel
 * would choose with a NULL local_work_size for this kernel, queue and global range: the
 * kernel's reqd_work_group_size, else choose_local_size's. Errors in the extension's order;
 * a global size of 0 is CL_INVALID_GLOBAL_WORK_SIZE here whatever the version. */
cl_int CL_API_CALL
disp_GetKernelSuggestedLocalWorkSizeKHR(cl_command_queue command_queue, cl_kernel kernel,
                                       cl_uint work_dim, const size_t *global_work_offset,
                                       const size_t *global_work_size,
                                       size_t *suggested_local_work_size)
{
   struct _cl_command_queue *q;
   struct _cl_kernel *k;
   const struct comp_kernel_device *kd;
   cl_int err = launch_target(command_queue, kernel, &q, &k, &kd);
   if (err != CL_SUCCESS)
      return err;
   for (cl_uint i = 0; i < k->num_args; i++)
      if (!k->args[i].set)
         return ICD_ERROR(CL_INVALID_KERNEL_ARGS, "argument %u of kernel %s is not set", i,
                          k->name);
   size_t g[3], off[3], lsz[3] = { 1, 1, 1 };
   bool empty;
   err = check_global(work_dim, global_work_offset, global_work_size, false, g, off, &empty);
   if (err != CL_SUCCESS)
      return err;
   if (!suggested_local_work_size)
      return ICD_ERROR(CL_INVALID_VALUE, "suggested_local_work_size is NULL");
   const struct comp_kernel *sig = kd->sig;
   if (sig->reqd_work_group_size[0]) {
      for (cl_uint i = 0; i < 3; i++)
         lsz[i] = sig->reqd_work_group_size[i];
   } else {
      choose_local_size(work_dim, g, comp_kernel_max_work_group_size(k, q->device, kd), lsz);
   }
   for (cl_uint i = 0; i < work_dim; i++)
      suggested_local_work_size[i] = lsz[i];
   return CL_SUCCESS;
}
