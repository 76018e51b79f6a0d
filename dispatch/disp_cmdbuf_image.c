/*
 * dispatch/disp_cmdbuf_image.c — pre-built replays of command buffers (docs/cmdbuf.md).
 *
 * When a command buffer is finalized, what its replays write is built once: for each kernel
 * command the AQL kernel-dispatch packet (all but header and completion signal) and its
 * kernarg segment (disp__launch_build_packet, the writer a launch uses), the segments in one
 * block of kernarg memory that the packets point at. A replay is then one command whose
 * submission copies the packets into the AQL ring under the queue's submit lock, in recorded
 * order with the barrier bit on each, the last one decrementing the command's signal: the
 * replay costs one command, one completion and 64 bytes per kernel, and the segments are not
 * written again. Running the commands in recorded order one after another satisfies every
 * sync point and barrier of the command buffer, so they need no packets of their own.
 *
 * The image (struct disp__cmdbuf_image) is reference counted: the command buffer holds one,
 * each replay in flight one until it completes. An update (clUpdateMutableCommandsKHR)
 * rewrites the segments and packets of the commands it changed in place when no replay holds
 * the image; otherwise it builds a new image and the old one goes with its last replay, so a
 * replay already enqueued runs the state it was enqueued with.
 *
 * What cannot be pre-built leaves the command buffer without an image, and its replays go
 * command by command (disp_cmdbuf.c): several queues, copies and fills (not AQL packets
 * here: they go through the runtime's copy engine or memory/'s own paths), kernels that
 * call printf or may enqueue kernels (a printf buffer or a device-queue tree per launch),
 * arguments still to be set. A replay that an event held on the host (a user event) would
 * hold back, in its wait list or through a held command of its queue, or on a profiling
 * queue, also goes command by command: the first would be submitted later by whichever
 * thread completes that event, possibly the completion path, which must not wait for ring
 * space for many packets; the second needs each kernel's times.
 *
 * Lock order: the command buffer's lock, then the command core's.
 */
#include "dispatch/disp.h"
#include "dispatch/disp_priv.h"
#include "compiler/comp.h"
#include "memory/mem.h"

#include <string.h>

/* Packets written between two ring-space checkpoints (disp__queue_checkpoint_locked). */
#define CHECKPOINT_EVERY 256u

/* One pre-built launch: its segment in the block and what its arguments hold. */
struct image_launch {
   uint32_t ka_offset, ka_size;
   struct _cl_kernel *kernel; /* internal reference: the code object the packet runs */
   struct disp__kernarg_refs refs;
};

struct disp__cmdbuf_image {
   atomic_uint refs;
   struct _cl_device_id *dev;
   unsigned char *kernarg; /* the segments (disp__kernarg_block_alloc) */
   cl_uint num_packets;
   hsa_kernel_dispatch_packet_t *packets;
   struct image_launch *launches; /* per packet */
   cl_uint num_commands;
   cl_uint *packet_of; /* per recorded command: its packet, or UINT32_MAX */
};

static void
launch_drop(struct image_launch *il)
{
   for (cl_uint i = 0; i < il->refs.num_mems; i++)
      mem_release_internal(il->refs.mems[i]);
   for (cl_uint i = 0; i < il->refs.num_samplers; i++)
      mem_sampler_release_internal(il->refs.samplers[i]);
   icd_free(il->refs.mems);
   icd_free(il->refs.samplers);
   memset(&il->refs, 0, sizeof(il->refs));
   if (il->kernel)
      comp_kernel_release_internal(il->kernel);
   il->kernel = NULL;
}

/* Accepts a half-built image. */
static void
image_destroy(struct disp__cmdbuf_image *img)
{
   if (!img)
      return;
   for (cl_uint i = 0; img->launches && i < img->num_packets; i++)
      launch_drop(&img->launches[i]);
   disp__kernarg_block_free(img->kernarg);
   icd_free(img->packets);
   icd_free(img->launches);
   icd_free(img->packet_of);
   icd_free(img);
}

static void
image_release(struct disp__cmdbuf_image *img)
{
   if (img && atomic_fetch_sub_explicit(&img->refs, 1, memory_order_acq_rel) == 1)
      image_destroy(img);
}

static uint32_t
segment_bytes(const struct disp__launch_plan *p)
{
   uint32_t s = p->kd->kernarg_segment_size ? p->kd->kernarg_segment_size : 64;
   return (s + 63u) & ~63u;
}

/* Builds packet `i` of `img` from plan `p` on `q`, in the segment already placed. */
static cl_int
launch_build(struct disp__cmdbuf_image *img, cl_uint i, struct _cl_command_queue *q,
             const struct disp__launch_plan *p)
{
   struct image_launch *il = &img->launches[i];
   cl_uint nargs = comp_kernel_num_args(p->kernel);
   il->refs.mems = icd_calloc(nargs ? nargs : 1, sizeof(*il->refs.mems));
   if (!il->refs.mems)
      return ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "allocating a pre-built launch's buffer list");
   il->kernel = p->kernel;
   comp_kernel_retain_internal(il->kernel);
   return disp__launch_build_packet(q, p, img->kernarg + il->ka_offset, &il->refs,
                                    &img->packets[i]);
}

/* Whether every command of `cb` is one the pre-built path runs: a kernel with its arguments
 * set, or a barrier; on one queue. */
static bool
image_possible(const struct _cl_command_buffer_khr *cb)
{
   if (cb->num_queues != 1)
      return false;
   for (cl_uint i = 0; i < cb->num_commands; i++) {
      const struct disp_cmdbuf_command *c = &cb->commands[i];
      if (c->kind == DISP_CB_BARRIER)
         continue;
      if (c->kind != DISP_CB_KERNEL || c->launch->args_pending)
         return false;
   }
   return true;
}

/* A new image of `cb` (one reference) in *out, or NULL when `cb` cannot be pre-built. */
static cl_int
image_build(struct _cl_command_buffer_khr *cb, struct disp__cmdbuf_image **out)
{
   *out = NULL;
   if (!image_possible(cb))
      return CL_SUCCESS;
   struct _cl_command_queue *q = cb->queues[0];
   cl_uint n = 0;
   size_t bytes = 0;
   for (cl_uint i = 0; i < cb->num_commands; i++) {
      const struct disp_cmdbuf_command *c = &cb->commands[i];
      if (c->kind == DISP_CB_KERNEL && !c->launch->plan.empty) {
         n++;
         bytes += segment_bytes(&c->launch->plan);
      }
   }
   if (!n)
      return CL_SUCCESS;
   struct disp__cmdbuf_image *img = icd_calloc(1, sizeof(*img));
   if (!img)
      return ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "allocating a pre-built replay");
   atomic_init(&img->refs, 1);
   img->dev = q->device;
   img->packets = icd_calloc(n, sizeof(*img->packets));
   img->launches = icd_calloc(n, sizeof(*img->launches));
   img->packet_of = icd_malloc(cb->num_commands * sizeof(*img->packet_of));
   cl_int err = CL_SUCCESS;
   if (!img->packets || !img->launches || !img->packet_of)
      err = ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "allocating a pre-built replay");
   if (err == CL_SUCCESS)
      err = disp__kernarg_block_alloc(q->device, bytes, (void **)&img->kernarg);
   if (err != CL_SUCCESS) {
      image_destroy(img);
      return err;
   }
   img->num_commands = cb->num_commands;
   uint32_t off = 0;
   for (cl_uint i = 0; i < cb->num_commands && err == CL_SUCCESS; i++) {
      const struct disp_cmdbuf_command *c = &cb->commands[i];
      img->packet_of[i] = UINT32_MAX;
      if (c->kind != DISP_CB_KERNEL || c->launch->plan.empty)
         continue;
      cl_uint k = img->num_packets++;
      img->packet_of[i] = k;
      img->launches[k].ka_offset = off;
      img->launches[k].ka_size = segment_bytes(&c->launch->plan);
      off += img->launches[k].ka_size;
      err = launch_build(img, k, q, &c->launch->plan);
   }
   if (err != CL_SUCCESS) {
      image_destroy(img);
      return err;
   }
   *out = img;
   return CL_SUCCESS;
}

/* Rewrites the packets of the `changed` commands of cb's image in place; false when one of
 * them no longer fits its place (its packet would appear or vanish, or its segment grew). The
 * caller made sure no replay holds the image. */
static bool
image_update_in_place(struct _cl_command_buffer_khr *cb, const cl_uint *changed, cl_uint n)
{
   struct disp__cmdbuf_image *img = cb->image;
   for (cl_uint i = 0; i < n; i++) {
      const struct _cl_mutable_command_khr *l = cb->commands[changed[i]].launch;
      cl_uint k = img->packet_of[changed[i]];
      if (k == UINT32_MAX || l->args_pending || l->plan.empty ||
          segment_bytes(&l->plan) > img->launches[k].ka_size)
         return false;
      launch_drop(&img->launches[k]);
      if (launch_build(img, k, cb->queues[0], &l->plan) != CL_SUCCESS)
         return false;
   }
   return true;
}

void
disp__cmdbuf_image_drop_locked(struct _cl_command_buffer_khr *cb)
{
   image_release(cb->image);
   cb->image = NULL;
}

void
disp__cmdbuf_image_refresh_locked(struct _cl_command_buffer_khr *cb, const cl_uint *changed,
                                  cl_uint num_changed)
{
   /* No replay holds the image when the command buffer's is the only reference; replays
    * take theirs under cb->lock, which the caller holds. */
   if (cb->image && changed && atomic_load_explicit(&cb->image->refs, memory_order_acquire) == 1 &&
       image_update_in_place(cb, changed, num_changed))
      return;
   disp__cmdbuf_image_drop_locked(cb);
   if (cb->finalized && image_build(cb, &cb->image) != CL_SUCCESS)
      cb->image = NULL; /* replays go command by command */
}

/* Whether `e` is held on the host: neither terminal nor wired into HSA work. */
static bool
held(struct _cl_event *e)
{
   cl_int s = atomic_load(&e->status);
   return s != CL_COMPLETE && s >= 0 && !atomic_load(&e->submitted);
}

/* Whether a command of `q` is held on the host now (its in-order predecessor or barrier
 * would hold the replay back). Held commands are on q->commands (disp_command.c), which
 * q->lock keeps alive; a command on its way to the ring may still read as held. */
static bool
queue_holds(struct _cl_command_queue *q)
{
   bool found = false;
   pthread_mutex_lock(&q->lock);
   for (struct disp_command *c = q->commands; c && !found; c = c->next_in_queue)
      found = held(c->event);
   pthread_mutex_unlock(&q->lock);
   return found;
}

bool
disp__cmdbuf_image_usable_locked(const struct _cl_command_buffer_khr *cb,
                                 struct _cl_command_queue *q, cl_uint num_events,
                                 const cl_event *wait_list)
{
   if (!cb->image || q->device != cb->image->dev || (q->properties & CL_QUEUE_PROFILING_ENABLE))
      return false;
   for (cl_uint i = 0; i < num_events; i++)
      if (held(disp_event_from_handle(wait_list[i])))
         return false;
   return !queue_holds(q);
}

/* The replay command's submission (disp_command.c, under q->submit_lock): a barrier over
 * its dependencies, then the packets, ordered by the barrier bit; the last one decrements
 * `signal`. Fences: the first packet acquires as a launch would, the others at the scope
 * the kernels release at (they follow kernels of the same device); all release so. */
static cl_int
image_submit(struct disp_command *cmd, const hsa_signal_t *deps, uint32_t num_deps,
             hsa_signal_t signal)
{
   struct _cl_command_queue *q = cmd->queue;
   const struct disp__cmdbuf_image *img = cmd->payload;
   cl_int err = CL_SUCCESS;
   if (num_deps)
      err = disp_queue_barrier_and_scoped(q, deps, num_deps, (hsa_signal_t){ 0 },
                                          disp__fence_barrier_scopes(q));
   const uint16_t first = disp__fence_kernel_scopes(cmd);
   const uint16_t rel = (first >> HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE) &
                        ((1u << HSA_PACKET_HEADER_WIDTH_SCRELEASE_FENCE_SCOPE) - 1);
   const uint16_t inner = (uint16_t)((rel << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) |
                                     (rel << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE));
   const uint16_t type = (uint16_t)((HSA_PACKET_TYPE_KERNEL_DISPATCH << HSA_PACKET_HEADER_TYPE) |
                                    (1u << HSA_PACKET_HEADER_BARRIER));
   for (cl_uint i = 0; i < img->num_packets && err == CL_SUCCESS; i++) {
      if (i && i % CHECKPOINT_EVERY == 0) {
         cl_uint left = img->num_packets - i;
         disp__queue_checkpoint_locked(q, left < CHECKPOINT_EVERY ? left : CHECKPOINT_EVERY);
      }
      hsa_kernel_dispatch_packet_t p = img->packets[i];
      p.header = (uint16_t)(type | (i == 0 ? first : inner));
      p.completion_signal = i + 1 == img->num_packets ? signal : (hsa_signal_t){ 0 };
      err = disp_queue_write_packet(q, &p);
   }
   return err;
}

static void
image_command_release(struct disp_command *cmd)
{
   image_release(cmd->payload);
   cmd->payload = NULL;
}

cl_int
disp__cmdbuf_image_enqueue_locked(struct _cl_command_buffer_khr *cb, struct _cl_command_queue *q,
                                  cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
   struct disp__cmdbuf_image *img = cb->image;
   struct disp_command *cmd = NULL;
   cl_int err = disp_command_create(q, CL_COMMAND_COMMAND_BUFFER_KHR, num_events, wait_list, &cmd);
   if (err != CL_SUCCESS)
      return err;
   atomic_fetch_add_explicit(&img->refs, 1, memory_order_relaxed);
   cmd->payload = img;
   cmd->release = image_command_release;
   cmd->kind = DISP_COMMAND_HSA;
   cmd->uses_aql = true;
   cmd->submit = image_submit;
   cmd->complete = NULL; /* the last packet decrements the event's own signal */
   return disp_command_enqueue(cmd, event, false);
}
