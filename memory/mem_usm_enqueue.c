/*
 * memory/mem_usm_enqueue.c — the commands of cl_intel_unified_shared_memory:
 * clEnqueueMemcpyINTEL, clEnqueueMemFillINTEL, clEnqueueMemsetINTEL (the deprecated
 * one-byte fill), clEnqueueMigrateMemINTEL and clEnqueueMemAdviseINTEL.
 *
 * Every USM allocation is memory the host reaches at the address kernels use (mem_usm.c),
 * so copies and fills run on the host once their dependencies are complete, as the SVM
 * commands do (the same host commands, mem_svm_enqueue.c); the queue and the system-scope
 * fences of the kernels before them order them against device work. Migration and advice
 * are hints with nothing to move (host, device and shared memory stay where they were
 * allocated, reachable by every GPU of the context): those commands only order.
 */
#include "memory/mem_priv.h"
#include "dispatch/disp.h"

/* The largest integer or floating-point vector type of every hsacl device: long16. */
#define USM_MAX_PATTERN 128u

/* CL_INVALID_VALUE when a side inside a USM allocation of `ctx` runs past its end (the host
 * copy would run off the allocation). */
static cl_int
check_side(struct _cl_context *ctx, const void *ptr, size_t size, const char *what)
{
   struct mem_alloc_info a;
   if (mem__alloc_lookup(ctx, ptr, &a) &&
       size > a.size - (size_t)((const char *)ptr - (const char *)a.base))
      return ICD_ERROR(CL_INVALID_VALUE, "%s %p + %zu runs past its allocation of %zu bytes",
                       what, ptr, size, a.size);
   return CL_SUCCESS;
}

cl_int CL_API_CALL
mem_EnqueueMemcpyINTEL(cl_command_queue command_queue, cl_bool blocking, void *dst_ptr,
                       const void *src_ptr, size_t size, cl_uint num_events_in_wait_list,
                       const cl_event *event_wait_list, cl_event *event)
{
   QUEUE_OR_RETURN(q, command_queue);
   struct _cl_context *ctx = disp_queue_context(q);
   cl_int err = mem__check_wait_list_context(q, num_events_in_wait_list, event_wait_list);
   if (err != CL_SUCCESS)
      return err;
   if (!dst_ptr || !src_ptr)
      return ICD_ERROR(CL_INVALID_VALUE, "dst_ptr %p or src_ptr %p is NULL", dst_ptr,
                       (void *)src_ptr);
   err = check_side(ctx, dst_ptr, size, "dst_ptr");
   if (err == CL_SUCCESS)
      err = check_side(ctx, src_ptr, size, "src_ptr");
   if (err != CL_SUCCESS)
      return err;
   err = disp_validate_wait_list(ctx, num_events_in_wait_list, event_wait_list);
   if (err != CL_SUCCESS)
      return err;
   err = mem__check_copy_ranges(dst_ptr, src_ptr, size);
   if (err != CL_SUCCESS)
      return err;
   return mem__enqueue_host_copy(q, CL_COMMAND_MEMCPY_INTEL, dst_ptr, src_ptr, size, blocking,
                                 num_events_in_wait_list, event_wait_list, event);
}

/* The fill of clEnqueueMemFillINTEL and clEnqueueMemsetINTEL (command type
 * CL_COMMAND_MEMFILL_INTEL for both, as the deprecated memset is a one-byte fill). */
static cl_int
usm_fill(cl_command_queue command_queue, void *dst_ptr, const void *pattern,
         size_t pattern_size, size_t size, cl_uint num_events_in_wait_list,
         const cl_event *event_wait_list, cl_event *event)
{
   QUEUE_OR_RETURN(q, command_queue);
   struct _cl_context *ctx = disp_queue_context(q);
   cl_int err = mem__check_wait_list_context(q, num_events_in_wait_list, event_wait_list);
   if (err != CL_SUCCESS)
      return err;
   if (!dst_ptr)
      return ICD_ERROR(CL_INVALID_VALUE, "dst_ptr is NULL");
   if (!pattern)
      return ICD_ERROR(CL_INVALID_VALUE, "pattern is NULL");
   if (pattern_size == 0 || pattern_size > USM_MAX_PATTERN || (pattern_size & (pattern_size - 1)))
      return ICD_ERROR(CL_INVALID_VALUE, "pattern_size %zu is not a power of two up to %u",
                       pattern_size, USM_MAX_PATTERN);
   if ((uintptr_t)dst_ptr % pattern_size)
      return ICD_ERROR(CL_INVALID_VALUE, "dst_ptr %p is not aligned to the pattern size %zu",
                       dst_ptr, pattern_size);
   if (size % pattern_size)
      return ICD_ERROR(CL_INVALID_VALUE, "size %zu is not a multiple of the pattern size %zu",
                       size, pattern_size);
   /* The region must be memory of a USM allocation of the context (the extension: "must
    * be valid for the context associated with command_queue"). */
   struct mem_alloc_info a;
   if (!mem__alloc_lookup(ctx, dst_ptr, &a) || a.kind == MEM_ALLOC_SVM ||
       size > a.size - (size_t)((char *)dst_ptr - (char *)a.base))
      return ICD_ERROR(CL_INVALID_VALUE, "[%p, +%zu) is not inside a USM allocation of the "
                       "queue's context", dst_ptr, size);
   err = disp_validate_wait_list(ctx, num_events_in_wait_list, event_wait_list);
   if (err != CL_SUCCESS)
      return err;
   return mem__enqueue_host_fill(q, CL_COMMAND_MEMFILL_INTEL, dst_ptr, pattern, pattern_size,
                                 size, num_events_in_wait_list, event_wait_list, event);
}

cl_int CL_API_CALL
mem_EnqueueMemFillINTEL(cl_command_queue command_queue, void *dst_ptr, const void *pattern,
                        size_t pattern_size, size_t size, cl_uint num_events_in_wait_list,
                        const cl_event *event_wait_list, cl_event *event)
{
   return usm_fill(command_queue, dst_ptr, pattern, pattern_size, size,
                   num_events_in_wait_list, event_wait_list, event);
}

/* Deprecated by the extension in favour of the fill; SYCL runtimes of its time call it. */
cl_int CL_API_CALL
mem_EnqueueMemsetINTEL(cl_command_queue command_queue, void *dst_ptr, cl_int value, size_t size,
                       cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                       cl_event *event)
{
   const unsigned char byte = (unsigned char)value;
   return usm_fill(command_queue, dst_ptr, &byte, 1, size, num_events_in_wait_list,
                   event_wait_list, event);
}

/*
 * A hint: nothing migrates (see the top). Flags are CL_MIGRATE_MEM_OBJECT_HOST and
 * CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED, 0 included (migrate to the queue's device, as the
 * extension's text since revision 1.2.0 and clEnqueueSVMMigrateMem say).
 */
cl_int CL_API_CALL
mem_EnqueueMigrateMemINTEL(cl_command_queue command_queue, const void *ptr, size_t size,
                           cl_mem_migration_flags flags, cl_uint num_events_in_wait_list,
                           const cl_event *event_wait_list, cl_event *event)
{
   QUEUE_OR_RETURN(q, command_queue);
   (void)ptr;
   (void)size;
   cl_int err = mem__check_wait_list_context(q, num_events_in_wait_list, event_wait_list);
   if (err != CL_SUCCESS)
      return err;
   if (flags & ~(cl_mem_migration_flags)(CL_MIGRATE_MEM_OBJECT_HOST |
                                         CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED))
      return ICD_ERROR(CL_INVALID_VALUE, "unknown migration flags 0x%llx",
                       (unsigned long long)flags);
   err = disp_validate_wait_list(disp_queue_context(q), num_events_in_wait_list,
                                 event_wait_list);
   if (err != CL_SUCCESS)
      return err;
   return mem__enqueue_host_order(q, CL_COMMAND_MIGRATEMEM_INTEL, false,
                                  num_events_in_wait_list, event_wait_list, event);
}

/*
 * A hint. The extension defines no advice yet (0x4208-0x420F are reserved), so the only
 * advice a device supports is 0, none; anything else is CL_INVALID_VALUE.
 */
cl_int CL_API_CALL
mem_EnqueueMemAdviseINTEL(cl_command_queue command_queue, const void *ptr, size_t size,
                          cl_mem_advice_intel advice, cl_uint num_events_in_wait_list,
                          const cl_event *event_wait_list, cl_event *event)
{
   QUEUE_OR_RETURN(q, command_queue);
   (void)ptr;
   (void)size;
   cl_int err = mem__check_wait_list_context(q, num_events_in_wait_list, event_wait_list);
   if (err != CL_SUCCESS)
      return err;
   if (advice != 0)
      return ICD_ERROR(CL_INVALID_VALUE, "advice 0x%x is not supported", (unsigned)advice);
   err = disp_validate_wait_list(disp_queue_context(q), num_events_in_wait_list,
                                 event_wait_list);
   if (err != CL_SUCCESS)
      return err;
   return mem__enqueue_host_order(q, CL_COMMAND_MEMADVISE_INTEL, false,
                                  num_events_in_wait_list, event_wait_list, event);
}
