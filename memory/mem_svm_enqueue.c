/*
 * memory/mem_svm_enqueue.c — SVM commands: clEnqueueSVMFree, clEnqueueSVMMemcpy,
 * clEnqueueSVMMemFill, clEnqueueSVMMap, clEnqueueSVMUnmap and clEnqueueSVMMigrateMem
 * (OpenCL 3.0 API §5.6.2).
 *
 * Every SVM allocation (mem_svm.c), coarse- or fine-grained, is memory the CPU agent was
 * granted access to, at the address the GPU uses. The host therefore does the work itself
 * when the command runs: every command is a DISP_COMMAND_HOST command whose complete()
 * copies, fills or frees once its dependencies are done; the queue (and the system-scope
 * fences of the kernels before it) orders it against device work. Map and unmap move no
 * data and migrate has one device to migrate to: those only order. The unified shared
 * memory commands (mem_usm_enqueue.c) are the same host commands (mem__enqueue_host_*).
 *
 * Host memory is copied from and to as well (clEnqueueSVMMemcpy accepts either side as
 * "host or SVM memory"); fill, map, unmap and migrate need an SVM allocation of the
 * queue's context, since fine-grained system SVM is not supported.
 */
#include "memory/mem_priv.h"
#include "dispatch/disp.h"
#include "platform/plat.h"

#include <assert.h>
#include <string.h>

enum svm_op { SVM_OP_FREE, SVM_OP_MEMCPY, SVM_OP_FILL, SVM_OP_ORDER };

/* A command's payload; owned by the command, freed by svm_release(). */
struct svm_cmd {
   enum svm_op op;
   void *dst;                  /* memcpy, fill */
   const void *src;            /* memcpy */
   size_t size;                /* bytes copied or filled */
   unsigned char pattern[128]; /* fill: a copy taken at enqueue (§5.6.2: reusable after) */
   size_t pattern_size;
   mem_svm_free_fn free_fn;    /* free: the application's callback, or NULL */
   void *user_data;
   void **pointers;            /* free: a copy of svm_pointers (reusable after the call) */
   cl_uint num_pointers;
};

/* ---- command callbacks -------------------------------------------------------------- */

static void
svm_release(struct disp_command *cmd)
{
   struct svm_cmd *s = cmd->payload;
   if (!s)
      return;
   icd_free(s->pointers);
   icd_free(s);
}

/* Runs on the host once the dependencies are complete; no lock held. */
static cl_int
svm_complete(struct disp_command *cmd)
{
   struct svm_cmd *s = cmd->payload;
   switch (s->op) {
   case SVM_OP_MEMCPY:
      if (s->size)
         memcpy(s->dst, s->src, s->size);
      break;
   case SVM_OP_FILL:
      for (size_t off = 0; off < s->size; off += s->pattern_size)
         memcpy((unsigned char *)s->dst + off, s->pattern, s->pattern_size);
      break;
   case SVM_OP_FREE:
      if (s->free_fn) {
         /* §5.6.2: the callback frees every pointer; it gets the queue it was enqueued on
          * (alive: the command's event holds a reference on it). */
         s->free_fn(disp_queue_to_handle(cmd->queue), s->num_pointers, s->pointers,
                    s->user_data);
      } else {
         /* Validated at enqueue; freeing one twice is the application's undefined
          * behaviour, logged by mem_svm_free and otherwise ignored. */
         for (cl_uint i = 0; i < s->num_pointers; i++) {
            if (s->pointers[i])
               (void)mem_svm_free(disp_queue_context(cmd->queue), s->pointers[i]);
         }
      }
      break;
   case SVM_OP_ORDER:
      break;
   }
   return CL_SUCCESS;
}

/* Creates a host command of `type` with an empty payload of operation `op`. */
static cl_int
svm_command_create(struct _cl_command_queue *q, cl_command_type type, enum svm_op op,
                   cl_uint num_events, const cl_event *wait_list, struct disp_command **cmd_out,
                   struct svm_cmd **s_out)
{
   struct svm_cmd *s = icd_calloc(1, sizeof(*s));
   if (!s)
      return ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "allocating an SVM command");
   struct disp_command *cmd = NULL;
   cl_int err = disp_command_create(q, type, num_events, wait_list, &cmd);
   if (err != CL_SUCCESS) {
      icd_free(s);
      return err;
   }
   s->op = op;
   cmd->kind = DISP_COMMAND_HOST;
   cmd->uses_aql = false;
   cmd->payload = s;
   cmd->complete = svm_complete;
   cmd->release = svm_release;
   *cmd_out = cmd;
   *s_out = s;
   return CL_SUCCESS;
}

/* ---- host-run commands, shared with the USM commands (mem_usm_enqueue.c) ---------- */

cl_int
mem__enqueue_host_copy(struct _cl_command_queue *q, cl_command_type type, void *dst,
                       const void *src, size_t size, bool blocking, cl_uint num_events,
                       const cl_event *wait_list, cl_event *event)
{
   struct disp_command *cmd;
   struct svm_cmd *s;
   cl_int err = svm_command_create(q, type, SVM_OP_MEMCPY, num_events, wait_list, &cmd, &s);
   if (err != CL_SUCCESS)
      return err;
   s->dst = dst;
   s->src = src;
   s->size = size;
   return disp_command_enqueue(cmd, event, blocking);
}

cl_int
mem__enqueue_host_fill(struct _cl_command_queue *q, cl_command_type type, void *dst,
                       const void *pattern, size_t pattern_size, size_t size,
                       cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
   assert(pattern_size <= sizeof(((struct svm_cmd *)0)->pattern));
   struct disp_command *cmd;
   struct svm_cmd *s;
   cl_int err = svm_command_create(q, type, SVM_OP_FILL, num_events, wait_list, &cmd, &s);
   if (err != CL_SUCCESS)
      return err;
   s->dst = dst;
   s->size = size;
   memcpy(s->pattern, pattern, pattern_size);
   s->pattern_size = pattern_size;
   return disp_command_enqueue(cmd, event, false);
}

cl_int
mem__enqueue_host_order(struct _cl_command_queue *q, cl_command_type type, bool blocking,
                        cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
   struct disp_command *cmd;
   struct svm_cmd *s;
   cl_int err = svm_command_create(q, type, SVM_OP_ORDER, num_events, wait_list, &cmd, &s);
   if (err != CL_SUCCESS)
      return err;
   return disp_command_enqueue(cmd, event, blocking);
}

/* ---- validation helpers ------------------------------------------------------------- */

/*
 * CL_INVALID_CONTEXT when a valid event of the wait list belongs to another context than
 * the queue. §5.6.2 lists it before CL_INVALID_VALUE, and CL_INVALID_EVENT_WAIT_LIST
 * after it, so the context is checked on its own first; disp_validate_wait_list() does the
 * rest later.
 */
cl_int
mem__check_wait_list_context(const struct _cl_command_queue *q, cl_uint num_events,
                        const cl_event *wait_list)
{
   if (!wait_list)
      return CL_SUCCESS;
   for (cl_uint i = 0; i < num_events; i++) {
      const struct _cl_event *ev = disp_event_from_handle(wait_list[i]);
      if (ev && disp_event_context(ev) != disp_queue_context(q))
         return ICD_ERROR(CL_INVALID_CONTEXT, "event_wait_list[%u] belongs to another context "
                          "than the queue", i);
   }
   return CL_SUCCESS;
}

/*
 * True when [ptr, ptr + size) lies inside one SVM allocation of `ctx` (size 0: ptr inside
 * one). Sets *found to whether ptr is in an allocation at all.
 */
static bool
svm_range_ok(struct _cl_context *ctx, const void *ptr, size_t size, bool *found)
{
   void *base;
   size_t bytes;
   *found = mem_svm_lookup(ctx, ptr, &base, &bytes);
   if (!*found)
      return false;
   size_t off = (size_t)((const char *)ptr - (const char *)base);
   return size <= bytes - off;
}

/* ---- clEnqueueSVMFree --------------------------------------------------------------- */

/*
 * §5.6.2. Without pfn_free_func every pointer must be an allocation clSVMAlloc returned
 * for the queue's context (CL_INVALID_VALUE otherwise; NULL entries are skipped, as by
 * clSVMFree); they are freed when the command runs. With it, the callback frees them,
 * whatever they are.
 */
cl_int CL_API_CALL
mem_EnqueueSVMFree(cl_command_queue command_queue, cl_uint num_svm_pointers,
                   void *svm_pointers[], mem_svm_free_fn pfn_free_func, void *user_data,
                   cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                   cl_event *event)
{
   QUEUE_OR_RETURN(q, command_queue);
   /* CL_INVALID_OPERATION (device without SVM) cannot happen: every hsacl device has
    * coarse-grained buffer SVM. */
   if ((num_svm_pointers == 0) != (svm_pointers == NULL))
      return ICD_ERROR(CL_INVALID_VALUE, "num_svm_pointers %u with svm_pointers %p",
                       num_svm_pointers, (void *)svm_pointers);
   if (!pfn_free_func) {
      for (cl_uint i = 0; i < num_svm_pointers; i++) {
         void *base;
         if (svm_pointers[i] &&
             (!mem_svm_lookup(disp_queue_context(q), svm_pointers[i], &base, NULL) ||
              base != svm_pointers[i]))
            return ICD_ERROR(CL_INVALID_VALUE, "svm_pointers[%u] = %p is not an SVM "
                             "allocation of the queue's context, and there is no "
                             "pfn_free_func", i, svm_pointers[i]);
      }
   }
   cl_int err = disp_validate_wait_list(disp_queue_context(q), num_events_in_wait_list,
                                        event_wait_list);
   if (err != CL_SUCCESS)
      return err;

   struct disp_command *cmd;
   struct svm_cmd *s;
   err = svm_command_create(q, CL_COMMAND_SVM_FREE, SVM_OP_FREE, num_events_in_wait_list,
                            event_wait_list, &cmd, &s);
   if (err != CL_SUCCESS)
      return err;
   if (num_svm_pointers) {
      s->pointers = icd_malloc(num_svm_pointers * sizeof(*s->pointers));
      if (!s->pointers) {
         disp_command_abort(cmd);
         return ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "copying %u SVM pointers", num_svm_pointers);
      }
      memcpy(s->pointers, svm_pointers, num_svm_pointers * sizeof(*s->pointers));
   }
   s->num_pointers = num_svm_pointers;
   s->free_fn = pfn_free_func;
   s->user_data = user_data;
   return disp_command_enqueue(cmd, event, false);
}

/* ---- clEnqueueSVMMemcpy ------------------------------------------------------------- */

/*
 * §5.6.2. Either side may be host memory or SVM memory; a side that starts inside an SVM
 * allocation of the context must also end inside it (CL_INVALID_VALUE: the copy would run
 * off the allocation). The copy happens when the command runs, so non-blocking copies
 * read `src_ptr` then, like clEnqueueWriteBuffer's `ptr`.
 */
cl_int CL_API_CALL
mem_EnqueueSVMMemcpy(cl_command_queue command_queue, cl_bool blocking_copy, void *dst_ptr,
                     const void *src_ptr, size_t size, cl_uint num_events_in_wait_list,
                     const cl_event *event_wait_list, cl_event *event)
{
   QUEUE_OR_RETURN(q, command_queue);
   cl_int err = mem__check_wait_list_context(q, num_events_in_wait_list, event_wait_list);
   if (err != CL_SUCCESS)
      return err;
   if (!dst_ptr || !src_ptr)
      return ICD_ERROR(CL_INVALID_VALUE, "dst_ptr %p or src_ptr %p is NULL", dst_ptr,
                       (void *)src_ptr);
   bool found;
   if (!svm_range_ok(disp_queue_context(q), dst_ptr, size, &found) && found)
      return ICD_ERROR(CL_INVALID_VALUE, "dst_ptr %p + %zu runs past its SVM allocation",
                       dst_ptr, size);
   if (!svm_range_ok(disp_queue_context(q), src_ptr, size, &found) && found)
      return ICD_ERROR(CL_INVALID_VALUE, "src_ptr %p + %zu runs past its SVM allocation",
                       (void *)src_ptr, size);
   err = disp_validate_wait_list(disp_queue_context(q), num_events_in_wait_list, event_wait_list);
   if (err != CL_SUCCESS)
      return err;
   err = mem__check_copy_ranges(dst_ptr, src_ptr, size);
   if (err != CL_SUCCESS)
      return err;
   return mem__enqueue_host_copy(q, CL_COMMAND_SVM_MEMCPY, dst_ptr, src_ptr, size,
                                 blocking_copy, num_events_in_wait_list, event_wait_list, event);
}

cl_int
mem__check_copy_ranges(const void *dst, const void *src, size_t size)
{
   uintptr_t d = (uintptr_t)dst, s = (uintptr_t)src;
   if (size > UINTPTR_MAX - d || size > UINTPTR_MAX - s)
      return ICD_ERROR(CL_INVALID_VALUE, "%zu bytes at %p or %p wrap the address space", size,
                       dst, src);
   if (size && d < s + size && s < d + size)
      return ICD_ERROR(CL_MEM_COPY_OVERLAP, "[%p, +%zu) and [%p, +%zu) overlap", dst, size, src,
                       size);
   return CL_SUCCESS;
}

/* ---- clEnqueueSVMMemFill ------------------------------------------------------------ */

/* §5.6.2. The region must lie in one SVM allocation of the queue's context. */
cl_int CL_API_CALL
mem_EnqueueSVMMemFill(cl_command_queue command_queue, void *svm_ptr, const void *pattern,
                      size_t pattern_size, size_t size, cl_uint num_events_in_wait_list,
                      const cl_event *event_wait_list, cl_event *event)
{
   QUEUE_OR_RETURN(q, command_queue);
   cl_int err = mem__check_wait_list_context(q, num_events_in_wait_list, event_wait_list);
   if (err != CL_SUCCESS)
      return err;
   if (!svm_ptr)
      return ICD_ERROR(CL_INVALID_VALUE, "svm_ptr is NULL");
   if (!pattern || pattern_size == 0 || pattern_size > 128 ||
       (pattern_size & (pattern_size - 1)))
      return ICD_ERROR(CL_INVALID_VALUE, "pattern %p of %zu bytes (1, 2, 4, ..., 128 allowed)",
                       pattern, pattern_size);
   if ((uintptr_t)svm_ptr % pattern_size)
      return ICD_ERROR(CL_INVALID_VALUE, "svm_ptr %p is not aligned to the pattern size %zu",
                       svm_ptr, pattern_size);
   if (size % pattern_size)
      return ICD_ERROR(CL_INVALID_VALUE, "size %zu is not a multiple of the pattern size %zu",
                       size, pattern_size);
   bool found;
   if (!svm_range_ok(disp_queue_context(q), svm_ptr, size, &found))
      return ICD_ERROR(CL_INVALID_VALUE, "[%p, +%zu) is not inside an SVM allocation of the "
                       "queue's context", svm_ptr, size);
   err = disp_validate_wait_list(disp_queue_context(q), num_events_in_wait_list, event_wait_list);
   if (err != CL_SUCCESS)
      return err;

   return mem__enqueue_host_fill(q, CL_COMMAND_SVM_MEMFILL, svm_ptr, pattern, pattern_size, size,
                                 num_events_in_wait_list, event_wait_list, event);
}

/* ---- clEnqueueSVMMap / clEnqueueSVMUnmap -------------------------------------------- */

/*
 * §5.6.2. The region is already in the host's address space: mapping only orders (the
 * host may touch it once the command completes) and moves no data. The region must lie in
 * one SVM allocation of the queue's context.
 */
cl_int CL_API_CALL
mem_EnqueueSVMMap(cl_command_queue command_queue, cl_bool blocking_map, cl_map_flags map_flags,
                  void *svm_ptr, size_t size, cl_uint num_events_in_wait_list,
                  const cl_event *event_wait_list, cl_event *event)
{
   QUEUE_OR_RETURN(q, command_queue);
   cl_int err = mem__check_wait_list_context(q, num_events_in_wait_list, event_wait_list);
   if (err != CL_SUCCESS)
      return err;
   if (!svm_ptr)
      return ICD_ERROR(CL_INVALID_VALUE, "svm_ptr is NULL");
   if (size == 0)
      return ICD_ERROR(CL_INVALID_VALUE, "size is 0");
   const cl_map_flags known = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
   if ((map_flags & ~known) || ((map_flags & CL_MAP_WRITE_INVALIDATE_REGION) &&
                                (map_flags & (CL_MAP_READ | CL_MAP_WRITE))))
      return ICD_ERROR(CL_INVALID_VALUE, "invalid map_flags 0x%llx",
                       (unsigned long long)map_flags);
   bool found;
   if (!svm_range_ok(disp_queue_context(q), svm_ptr, size, &found))
      return ICD_ERROR(CL_INVALID_VALUE, "[%p, +%zu) is not inside an SVM allocation of the "
                       "queue's context", svm_ptr, size);
   err = disp_validate_wait_list(disp_queue_context(q), num_events_in_wait_list, event_wait_list);
   if (err != CL_SUCCESS)
      return err;

   return mem__enqueue_host_order(q, CL_COMMAND_SVM_MAP, blocking_map, num_events_in_wait_list,
                                  event_wait_list, event);
}

/* §5.6.2. Nothing to write back (see clEnqueueSVMMap); svm_ptr must be in an SVM
 * allocation of the queue's context. */
cl_int CL_API_CALL
mem_EnqueueSVMUnmap(cl_command_queue command_queue, void *svm_ptr,
                    cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                    cl_event *event)
{
   QUEUE_OR_RETURN(q, command_queue);
   cl_int err = mem__check_wait_list_context(q, num_events_in_wait_list, event_wait_list);
   if (err != CL_SUCCESS)
      return err;
   if (!svm_ptr)
      return ICD_ERROR(CL_INVALID_VALUE, "svm_ptr is NULL");
   if (!mem_svm_lookup(disp_queue_context(q), svm_ptr, NULL, NULL))
      return ICD_ERROR(CL_INVALID_VALUE, "svm_ptr %p is not in an SVM allocation of the "
                       "queue's context", svm_ptr);
   err = disp_validate_wait_list(disp_queue_context(q), num_events_in_wait_list, event_wait_list);
   if (err != CL_SUCCESS)
      return err;

   return mem__enqueue_host_order(q, CL_COMMAND_SVM_UNMAP, false, num_events_in_wait_list,
                                  event_wait_list, event);
}

/* ---- clEnqueueSVMMigrateMem --------------------------------------------------------- */

/*
 * §5.6.2. Every allocation already lives where the queue's device reads it (one device
 * per allocation, reachable by the host too): the command only orders. Each pointer must
 * be inside an SVM allocation of the context; with a non-zero size, the whole range.
 */
cl_int CL_API_CALL
mem_EnqueueSVMMigrateMem(cl_command_queue command_queue, cl_uint num_svm_pointers,
                         const void **svm_pointers, const size_t *sizes,
                         cl_mem_migration_flags flags, cl_uint num_events_in_wait_list,
                         const cl_event *event_wait_list, cl_event *event)
{
   QUEUE_OR_RETURN(q, command_queue);
   cl_int err = mem__check_wait_list_context(q, num_events_in_wait_list, event_wait_list);
   if (err != CL_SUCCESS)
      return err;
   if (num_svm_pointers == 0 || !svm_pointers)
      return ICD_ERROR(CL_INVALID_VALUE, "no SVM pointers");
   if (flags & ~(cl_mem_migration_flags)(CL_MIGRATE_MEM_OBJECT_HOST |
                                         CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED))
      return ICD_ERROR(CL_INVALID_VALUE, "unknown migration flags 0x%llx",
                       (unsigned long long)flags);
   for (cl_uint i = 0; i < num_svm_pointers; i++) {
      bool found;
      size_t size = sizes ? sizes[i] : 0;
      if (!svm_range_ok(disp_queue_context(q), svm_pointers[i], size, &found))
         return ICD_ERROR(CL_INVALID_VALUE, "svm_pointers[%u] = %p (+%zu) is not inside an SVM "
                          "allocation of the queue's context", i, svm_pointers[i], size);
   }
   err = disp_validate_wait_list(disp_queue_context(q), num_events_in_wait_list, event_wait_list);
   if (err != CL_SUCCESS)
      return err;

   return mem__enqueue_host_order(q, CL_COMMAND_SVM_MIGRATE_MEM, false, num_events_in_wait_list,
                                  event_wait_list, event);
}
