/*
 * dispatch/disp_kernel.c — kernel launches (OpenCL 3.0 API §5.10):
 * clEnqueueNDRangeKernel/clEnqueueTask validate in the order of §5.10's errors, then take
 * named steps: the local size, the code that runs it (the default build or the wide
 * variant, compiler/), the launch command, the kernarg segment (disp_kernarg.c, from the
 * argument values the kernel holds: compiler/comp_kernel_args.c sets them, a launch only
 * reads them), the printf buffer, and the AQL kernel-dispatch packet; the command's
 * submission and completion hooks (launch_submit, launch_complete, launch_release).
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

struct launch {
   /* The kernel's arguments as enqueued (disp_args.c), held: it holds the kernel and the
    * objects the arguments name. */
   struct disp__args *args;
   struct disp_devq *devq;          /* device-side enqueue: the device queue children go to */
   /* The device's default device queue when enqueued, for a kernel that calls
    * get_default_queue() (its hidden argument is written at submission); or NULL. */
   struct disp_devq *default_devq;
   /* Complete but for header, signal and kernarg address (launch_submit). With `offset`, the
    * range the hidden arguments describe. */
   hsa_kernel_dispatch_packet_t packet;
   size_t offset[3];                /* global offsets */
   struct disp_kernarg_slot slot;   /* kernarg memory, from submission on */
   void *printf_buffer;             /* staging memory, host visible; or NULL */
   const struct comp_program_info *printf_info;
   struct disp_devq_tree *tree;     /* its launch (disp_devq.c), once submitted */
};

/* Launches are recycled: the steady-state enqueue path does not call malloc. */
static struct disp_pool launch_pool = DISP_POOL_INIT(sizeof(struct launch), DISP_POOL_MAX);

/* ---- the launch command ------------------------------------------------------------- */

/* The printf buffer of one launch of a kernel that calls printf: the device's
 * CL_DEVICE_PRINTF_BUFFER_SIZE (its header holds the size in 32 bits). */
static uint32_t
printf_buffer_bytes(const struct _cl_device_id *dev)
{
   return (uint32_t)plat_device_limits(dev)->printf_buffer_size;
}

static void
launch_release(struct disp_command *cmd)
{
   struct launch *l = cmd->payload;
   if (!l)
      return;
   disp__kernarg_free(&l->slot);
   if (l->tree)
      disp_devq_tree_finish(l->tree);
   l->tree = NULL;
   l->devq = NULL;
   if (l->printf_buffer)
      mem_staging_free(cmd->queue->device, l->printf_buffer,
                       printf_buffer_bytes(cmd->queue->device));
   if (l->args)
      disp__args_release(l->args);
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

/* The launch's kernarg segment, taken and written as it is submitted (under q's submit
 * lock, which is the kernarg ring's): the capture's template (explicit arguments and zeros),
 * then the hidden arguments for the packet's range. */
static cl_int
launch_kernarg_locked(struct launch *l, struct _cl_command_queue *q)
{
   const struct comp_kernel_device *kd = l->args->kd;
   const hsa_kernel_dispatch_packet_t *p = &l->packet;
   cl_int err = disp__kernarg_alloc_locked(
      q, kd->kernarg_segment_size ? kd->kernarg_segment_size : 64, &l->slot);
   if (err != CL_SUCCESS)
      return err;
   unsigned char *ka = l->slot.ptr;
   memcpy(ka, l->args->ka, kd->kernarg_segment_size);
   struct disp__range r = {
      .work_dim = p->setup >> HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS,
      .global = { p->grid_size_x, p->grid_size_y, p->grid_size_z },
      .offset = { l->offset[0], l->offset[1], l->offset[2] },
      .local = { p->workgroup_size_x, p->workgroup_size_y, p->workgroup_size_z },
   };
   err = disp__kernarg_write_hidden(ka, l->default_devq, kd, &r, p->group_segment_size,
                                    l->printf_buffer);
   l->packet.kernarg_address = ka;
   return err;
}

static cl_int
launch_submit(struct disp_command *cmd, const hsa_signal_t *deps, uint32_t num_deps,
              hsa_signal_t signal)
{
   struct launch *l = cmd->payload;
   struct _cl_command_queue *q = cmd->queue;
   const bool in_order = !(q->properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
   cl_int err = launch_kernarg_locked(l, q);
   if (err != CL_SUCCESS)
      return err;
   if (num_deps) {
      err = disp_queue_barrier_and_scoped(q, deps, num_deps, (hsa_signal_t){ 0 },
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
   err = disp_devq_tree_start(l->devq, l->printf_buffer, &parent, &done, &prev, &l->tree);
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

/* The largest divisor of `n` that is at most `cap` (>= 1). */
static size_t
divisor_upto(size_t n, size_t cap)
{
   for (size_t c = cap; c > 1; c--)
      if (n % c == 0)
         return c;
   return 1;
}

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
      size_t best = divisor_upto(g[i], want);
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
   if (comp_kernel_context(k) != q->context)
      return ICD_ERROR(CL_INVALID_CONTEXT, "kernel and queue belong to different contexts");
   const struct comp_kernel_device *kd = comp_kernel_for_device(k, q->device);
   if (!kd)
      return ICD_ERROR(CL_INVALID_PROGRAM_EXECUTABLE, "kernel %s has no executable for %s",
                       comp_kernel_name(k), q->device->name);
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

/* Work-items a small group becomes for a kernel that cannot tell how its work-items are
 * grouped (comp_kernel.work_group_free): a wave's worth of the row. */
#define DISP_FREE_GROUP 64u

/* A launch in groups of fewer than DISP_FREE_GROUP work-items (enqueued so, or chosen so for
 * a NULL local size: choose_local_size's divisor of a prime size is 1) of a kernel that
 * cannot tell its groups apart (no local or group ids or sizes, barriers, local memory,
 * group or sub-group functions, device-side enqueue: comp_wgfree.cpp) runs in groups of up
 * to DISP_FREE_GROUP work-items along x (then y): the same work-items with the same global
 * ids, one group a wave instead of a wave a few work-items (CTS test_basic's imagedim_*
 * launch a million one-work-item groups). The last group of a row may be partial where the
 * kernel allows non-uniform groups; where it requires uniform ones (`uniform`: OpenCL C
 * before 2.0, -cl-uniform-work-group-size) its code may rely on full groups (a 1.2 kernel's
 * get_global_id(1) was one row off past a partial group in y), so the sizes divide the
 * global ones. */
static void
coarsen_free_groups(struct disp__range *r, size_t max_wg, bool uniform)
{
   size_t old = r->local[0] * r->local[1] * r->local[2];
   if (old >= DISP_FREE_GROUP)
      return;
   size_t x = r->global[0] < DISP_FREE_GROUP ? r->global[0] : DISP_FREE_GROUP;
   if (uniform)
      x = divisor_upto(r->global[0], x);
   size_t y = 1;
   if (r->work_dim > 1 && x < DISP_FREE_GROUP) {
      y = DISP_FREE_GROUP / x;
      y = r->global[1] < y ? r->global[1] : y;
      if (uniform)
         y = divisor_upto(r->global[1], y);
   }
   if (x * y * r->local[2] > old && x * y * r->local[2] <= max_wg) {
      r->local[0] = x;
      r->local[1] = y;
   }
}

/* The local size of a launch, checked in the order of §5.10's errors: the application's
 * (against the device, the kernel's reqd_work_group_size and maximum, and the uniform
 * work-groups the kernel may require), else the required size, else choose_local_size's
 * (none for an empty launch); then, for a kernel that cannot tell its groups apart,
 * coarsen_free_groups'. Fills r->local. */
static cl_int
launch_local_size(struct _cl_command_queue *q, const struct _cl_kernel *k,
                  const struct comp_kernel_device *kd, const size_t *local_work_size,
                  bool empty, struct disp__range *r)
{
   const struct comp_kernel *sig = kd->sig;
   size_t max_wg = comp_kernel_max_work_group_size(k, q->device, kd);
   const bool reqd = sig->reqd_work_group_size[0] != 0;
   if (local_work_size) {
      size_t product = 1;
      for (cl_uint i = 0; i < r->work_dim; i++) {
         r->local[i] = local_work_size[i];
         if (r->local[i] == 0)
            return ICD_ERROR(CL_INVALID_WORK_GROUP_SIZE, "local_work_size[%u] is 0", i);
         if (r->local[i] > q->device->info.max_workgroup_size)
            return ICD_ERROR(CL_INVALID_WORK_ITEM_SIZE, "local_work_size[%u] = %zu exceeds "
                             "CL_DEVICE_MAX_WORK_ITEM_SIZES", i, r->local[i]);
         product *= r->local[i];
      }
      if (reqd) {
         for (cl_uint i = 0; i < 3; i++) {
            if (r->local[i] != sig->reqd_work_group_size[i])
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
      for (cl_uint i = 0; i < r->work_dim; i++) {
         if (r->global[i] % r->local[i] && uniform_required)
            return ICD_ERROR(CL_INVALID_WORK_GROUP_SIZE, "global size %zu is not a multiple "
                             "of local size %zu in dimension %u, and the kernel requires "
                             "uniform work-groups", r->global[i], r->local[i], i);
      }
   } else if (reqd) {
      for (cl_uint i = 0; i < 3; i++)
         r->local[i] = sig->reqd_work_group_size[i];
      for (cl_uint i = 0; i < r->work_dim; i++) {
         if (r->global[i] % r->local[i])
            return ICD_ERROR(CL_INVALID_WORK_GROUP_SIZE, "global size %zu is not a multiple "
                             "of reqd_work_group_size %zu", r->global[i], r->local[i]);
      }
   } else if (!empty) {
      choose_local_size(r->work_dim, r->global, max_wg, r->local);
   }
   if (sig->work_group_free && !empty)
      coarsen_free_groups(r, max_wg,
                          sig->uniform_work_group_size || sig->language_version[0] < 2);
   return CL_SUCCESS;
}

/* An empty launch (a global size of 0, OpenCL 2.1 on): nothing to run, a host command that
 * completes once its wait list has. */
static cl_int
enqueue_empty(struct _cl_command_queue *q, cl_command_type type, cl_uint num_events,
              const cl_event *wait_list, cl_event *event)
{
   struct disp_command *nop = NULL;
   cl_int err = disp_command_create(q, type, num_events, wait_list, &nop);
   if (err != CL_SUCCESS)
      return err;
   nop->kind = DISP_COMMAND_HOST;
   return disp_command_enqueue(nop, event, false);
}

/* A launch command on `q`, its payload empty. On failure nothing is left. */
static cl_int
launch_create(struct _cl_command_queue *q, cl_command_type type, cl_uint num_events,
              const cl_event *wait_list, struct disp_command **out)
{
   struct disp_command *cmd = NULL;
   struct launch *l = disp__pool_alloc(&launch_pool);
   if (!l)
      return ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "allocating a launch");
   cl_int err = disp_command_create(q, type, num_events, wait_list, &cmd);
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
   *out = cmd;
   return CL_SUCCESS;
}

/* Whether the signature has a hidden argument of `kind` (hidden arguments follow the
 * explicit ones: only they are looked at, on every launch). */
static bool
sig_has_arg(const struct comp_kernel *sig, enum comp_arg_kind kind)
{
   for (cl_uint i = sig->num_explicit_args; i < sig->num_args; i++)
      if (sig->args[i].kind == kind)
         return true;
   return false;
}

/* The launch's printf buffer, made once: for a kernel with a hidden printf buffer argument,
 * and for a kernel that may enqueue when its program prints (device-side enqueue: children
 * that call printf write the launch's buffer, which the scheduler gives them; it is flushed
 * when the whole tree is over). `info`: the printf formats of the code that runs. */
static cl_int
launch_printf_buffer(struct launch *l, struct _cl_command_queue *q,
                     const struct comp_kernel *sig, const struct comp_program_info *info)
{
   if (!sig_has_arg(sig, COMP_ARG_HIDDEN_PRINTF_BUFFER) &&
       !(l->devq && info && info->num_printfs))
      return CL_SUCCESS;
   cl_int err = mem_staging_alloc(q->device, printf_buffer_bytes(q->device), &l->printf_buffer);
   if (err != CL_SUCCESS) {
      l->printf_buffer = NULL;
      return err;
   }
   uint32_t header[2] = { 0, printf_buffer_bytes(q->device) };
   memcpy(l->printf_buffer, header, sizeof(header));
   l->printf_info = info;
   return CL_SUCCESS;
}

/* The packet, all but header and completion signal (launch_submit), for the kernarg
 * segment at `kernarg`. */
static void
launch_packet(hsa_kernel_dispatch_packet_t *p, const struct comp_kernel_device *kd,
              const struct disp__range *r, uint32_t lds, void *kernarg)
{
   p->setup = (uint16_t)(r->work_dim << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS);
   p->workgroup_size_x = (uint16_t)r->local[0];
   p->workgroup_size_y = (uint16_t)r->local[1];
   p->workgroup_size_z = (uint16_t)r->local[2];
   p->grid_size_x = (uint32_t)r->global[0];
   p->grid_size_y = (uint32_t)r->global[1];
   p->grid_size_z = (uint32_t)r->global[2];
   p->private_segment_size =
      kd->private_segment_size + (kd->dynamic_stack ? DISP_DYNAMIC_STACK_BYTES : 0);
   p->group_segment_size = lds;
   p->kernel_object = kd->kernel_object;
   p->kernarg_address = kernarg;
}

/* Fills a created launch of `k` (launch record `kd`, printf formats `info`) over `r`: the
 * capture of the explicit arguments, the device queue, the printf buffer and the packet
 * (the kernarg segment is written at submission, launch_kernarg_locked). On failure the
 * caller aborts the command, whose release drops whatever was taken. */
static cl_int
launch_build(struct disp_command *cmd, struct _cl_kernel *k, const struct comp_kernel_device *kd,
             const struct comp_program_info *info, const struct disp__range *r)
{
   struct launch *l = cmd->payload;
   struct _cl_command_queue *q = cmd->queue;
   cl_int err = disp__args_get(q, k, kd, &l->args);
   if (err != CL_SUCCESS)
      return err;
   const uint32_t lds = l->args->lds;
   l->devq = l->args->refs.devq;
   /* A kernel that calls get_default_queue() may enqueue on the device's default queue. */
   if (sig_has_arg(kd->sig, COMP_ARG_HIDDEN_DEFAULT_QUEUE))
      l->default_devq = disp_devq_default(q->device);
   if (!l->devq)
      l->devq = l->default_devq;
   err = launch_printf_buffer(l, q, kd->sig, info);
   if (err != CL_SUCCESS)
      return err;
   launch_packet(&l->packet, kd, r, lds, NULL);
   for (cl_uint i = 0; i < 3; i++)
      l->offset[i] = r->offset[i];
   /* Host work after the kernel only for profiling times and printf output; without it the
    * packet decrements the event's own signal (no second signal, disp_command.c). */
   if (!cmd->event->profiling && !l->printf_buffer)
      cmd->complete = NULL;
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
   struct disp__range r = { .work_dim = work_dim, .local = { 1, 1, 1 } };
   /* A global size of 0 is an error up to OpenCL 2.0 and an empty launch from 2.1 on
    * (API §5.10: the command does nothing and its event completes). */
   const bool zero_ok = PLAT_CL_VERSION_MAJOR * 10 + PLAT_CL_VERSION_MINOR >= 21;
   bool empty = false;
   err = check_global(work_dim, global_work_offset, global_work_size, zero_ok, r.global,
                      r.offset, &empty);
   if (err != CL_SUCCESS)
      return err;
   err = launch_local_size(q, k, kd, local_work_size, empty, &r);
   if (err != CL_SUCCESS)
      return err;
   err = disp_validate_wait_list(q->context, num_events_in_wait_list, event_wait_list);
   if (err != CL_SUCCESS)
      return err;
   err = disp__args_check_set(k);
   if (err != CL_SUCCESS)
      return err;
   if (empty)
      return enqueue_empty(q, type, num_events_in_wait_list, event_wait_list, event);

   /* The code that runs groups of this size: the default build's, or the program's wide
    * variant for groups past what the default build was made for (built on first need). */
   const struct comp_program_info *info = NULL;
   err = comp_kernel_for_group(k, q->device, r.local[0] * r.local[1] * r.local[2], &kd, &info);
   if (err != CL_SUCCESS)
      return err;
   struct disp_command *cmd = NULL;
   err = launch_create(q, type, num_events_in_wait_list, event_wait_list, &cmd);
   if (err != CL_SUCCESS)
      return err;
   err = launch_build(cmd, k, kd, info, &r);
   if (err != CL_SUCCESS) {
      disp_command_abort(cmd);
      return err;
   }
   return disp_command_enqueue(cmd, event, false);
}

/* The checks of enqueue_ndrange but the wait list's, done once for a command buffer's
 * launch (disp_cmdbuf_record.c): the kernel's code for the group size and the range,
 * which disp__launch_enqueue_plan enqueues without checking again. */
cl_int
disp__launch_prepare(cl_command_queue command_queue, cl_kernel kernel, cl_uint work_dim,
                     const size_t *global_work_offset, const size_t *global_work_size,
                     const size_t *local_work_size, struct disp__launch_plan *p)
{
   struct _cl_command_queue *q;
   const struct comp_kernel_device *kd;
   cl_int err = launch_target(command_queue, kernel, &q, &p->kernel, &kd);
   if (err != CL_SUCCESS)
      return err;
   p->range = (struct disp__range){ .work_dim = work_dim, .local = { 1, 1, 1 } };
   const bool zero_ok = PLAT_CL_VERSION_MAJOR * 10 + PLAT_CL_VERSION_MINOR >= 21;
   err = check_global(work_dim, global_work_offset, global_work_size, zero_ok, p->range.global,
                      p->range.offset, &p->empty);
   if (err != CL_SUCCESS)
      return err;
   err = launch_local_size(q, p->kernel, kd, local_work_size, p->empty, &p->range);
   if (err != CL_SUCCESS)
      return err;
   err = disp__args_check_set(p->kernel);
   if (err != CL_SUCCESS)
      return err;
   p->info = NULL;
   p->kd = kd;
   if (!p->empty)
      err = comp_kernel_for_group(p->kernel, q->device,
                                  p->range.local[0] * p->range.local[1] * p->range.local[2],
                                  &p->kd, &p->info);
   return err;
}

/* Enqueues a launch prepared by disp__launch_prepare on `q` (of the device it was prepared
 * for) after the events of `wait_list`, which the caller owns and knows valid. */
cl_int
disp__launch_enqueue_plan(struct _cl_command_queue *q, const struct disp__launch_plan *p,
                          cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
   if (p->empty)
      return enqueue_empty(q, CL_COMMAND_NDRANGE_KERNEL, num_events, wait_list, event);
   struct disp_command *cmd = NULL;
   cl_int err = launch_create(q, CL_COMMAND_NDRANGE_KERNEL, num_events, wait_list, &cmd);
   if (err != CL_SUCCESS)
      return err;
   err = launch_build(cmd, p->kernel, p->kd, p->info, &p->range);
   if (err != CL_SUCCESS) {
      disp_command_abort(cmd);
      return err;
   }
   return disp_command_enqueue(cmd, event, false);
}

/* What launch_build writes for plan `p` on a queue `q` of the plan's device, without a
 * command: the kernarg segment into `ka` (p->kd->kernarg_segment_size bytes, at least 64) and
 * the packet body (all but header and completion signal) pointing at it, for a command
 * buffer's pre-built replay (disp_cmdbuf_image.c). References on the arguments' objects go to
 * `refs` (what was taken stays there on failure). A kernel that needs per-launch host state,
 * a printf buffer or a device queue, cannot be pre-built: CL_INVALID_OPERATION, no log. */
cl_int
disp__launch_build_packet(struct _cl_command_queue *q, const struct disp__launch_plan *p,
                          unsigned char *ka, struct disp__kernarg_refs *refs,
                          hsa_kernel_dispatch_packet_t *packet)
{
   const struct comp_kernel_device *kd = p->kd;
   if (p->empty || sig_has_arg(kd->sig, COMP_ARG_HIDDEN_PRINTF_BUFFER) ||
       sig_has_arg(kd->sig, COMP_ARG_HIDDEN_DEFAULT_QUEUE))
      return CL_INVALID_OPERATION;
   memset(ka, 0, kd->kernarg_segment_size);
   uint32_t lds;
   comp_kernel_args_lock(p->kernel);
   cl_int err = disp__kernarg_write_explicit(ka, q, p->kernel, kd, refs, &lds);
   comp_kernel_args_unlock(p->kernel);
   if (err != CL_SUCCESS)
      return err;
   if (refs->devq)
      return CL_INVALID_OPERATION;
   err = disp__kernarg_write_hidden(ka, NULL, kd, &p->range, lds, NULL);
   if (err != CL_SUCCESS)
      return err;
   memset(packet, 0, sizeof(*packet));
   launch_packet(packet, kd, &p->range, lds, ka);
   return CL_SUCCESS;
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
   err = disp__args_check_set(k);
   if (err != CL_SUCCESS)
      return err;
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
