/*
 * dispatch/disp_devq.c — device-side enqueue (OpenCL 3.0 §5.1 device queues, OpenCL C
 * §6.15.15): the device queue's memory, the scheduler kernel the driver provides, and the
 * launch of a kernel that may enqueue (a "tree": the host's kernel and every kernel enqueued
 * from it, recursively).
 *
 * Offered wherever the device reports __opencl_c_device_enqueue (OpenCL C 2.0 and later, in
 * every profile); docs/devenq.md describes the whole mechanism.
 *
 * Memory (one allocation, fine-grained system memory the GPU and the host both access; the
 * layout is compiler/comp_builtins_enqueue.cl's): header, records, events, the scheduler's
 * kernarg. The built-ins (on the GPU) claim records and events; the scheduler (on the GPU)
 * turns READY records into AQL kernel-dispatch packets.
 *
 * A tree runs on an AQL queue of its own, C, created for it (the host's queue Q cannot hold
 * the children: packets the host wrote after the parent would sit in front of them):
 *   Q: parent kernel (completion S_p), then barrier-AND(S_done) completing the command;
 *   C: barrier-AND(S_p), scheduler (barrier bit), and from there on only what the GPU
 *      writes: each scheduler run writes the children that may start, then itself again
 *      (barrier bit: it runs when they all completed), or — when no record is left — a
 *      barrier-AND whose completion signal is S_done.
 * The host moves C's write index far ahead once; the GPU fills the slots in order, round
 * the ring (when a scheduler runs, every earlier packet has been consumed), publishes
 * each packet's header last (HSA PSA §2.9.3), and before the scheduler returns rings C's
 * doorbell with the index of the last packet it wrote, as a command processor reads no
 * packet before its doorbell is written: ockl's __ockl_hsa_signal_store on C's doorbell
 * signal (an AMD_SIGNAL_KIND_DOORBELL signal on both runtimes: on gfx9 a release store of
 * the index to its hardware_doorbell_ptr). The scheduler runs with the barrier bit, so no
 * kernel of the tree runs while it does.
 *
 * Completion rules (§3.2.5 / OpenCL C §6.15.15.4): every child starts after its parent
 * kernel finished (allowed for all three CLK_ENQUEUE_FLAGS_*: NO_WAIT and WAIT_WORK_GROUP
 * only permit earlier starts); a command's event completes when its kernel and all its
 * children did; the host's kernel completes (S_done) when its whole tree did.
 * One tree at a time per device queue (the header's ring fields are per tree): a launch's
 * parent and C's first packet wait on the GPU for the previous tree's S_done.
 */
#include <stdlib.h>
#include <string.h>

#include "compiler/comp.h"
#include "dispatch/disp.h"
#include "dispatch/disp_devq.h"
#include "dispatch/disp_priv.h"
#include "platform/plat.h"

#define DQ_MAGIC 0x51564544u
#define DQ_HDR 256u
#define DQ_REC 1024u
#define DQ_EV 64u
#define DQ_RING 4096u /* AQL slots of a tree's queue */
#define DQ_WRITE_AHEAD (1ull << 40) /* its write index, set once */

struct dq_hdr {
   uint32_t magic, nrec, nev, flags;
   uint64_t rec_base, ev_base;
   uint32_t rec_hint, ev_hint, root_pending, failed;
   uint64_t sched_ko;
   uint32_t sched_private, sched_group;
   uint64_t tick_num, tick_den;
   uint64_t launches;
   uint32_t rec_used, pad; /* records [0, rec_used) may be taken (the built-ins' max) */
};
/* A tree's block (its own allocation: the scheduler's kernarg at 0, this at DQ_TREE_AT). */
struct dq_tree {
   uint64_t hdr, ring_base;
   uint32_t ring_mask, pad;
   uint64_t ring_next, self_index, done_signal, hsa_queue, sched_kernarg, printf_buffer;
   uint64_t doorbell_signal; /* C's hsa_queue_t.doorbell_signal */
};
#define DQ_TREE_AT 512u
#define DQ_TREE_BYTES 1024u
_Static_assert(sizeof(struct dq_hdr) <= DQ_HDR, "device queue header");

/* The scheduler (OpenCL C, built for the queue's device when the queue is created). The
 * structures repeat compiler/comp_builtins_enqueue.cl's. */
static const char sched_src[] =
   "#define DQ_REC 1024u\n#define DQ_EV 64u\n"
   "typedef struct { uint magic, nrec, nev, flags; ulong rec_base, ev_base;\n"
   "  uint rec_hint, ev_hint, root_pending, failed; ulong sched_ko;\n"
   "  uint sched_private, sched_group; ulong tick_num, tick_den, launches;\n"
   "  uint rec_used, pad; } dq_hdr;\n"
   "typedef struct { ulong hdr, ring_base; uint ring_mask, pad;\n"
   "  ulong ring_next, self_index, done_signal, hsa_queue, sched_kernarg, printf_buffer;\n"
   "  ulong doorbell_signal; } dq_tree;\n"
   "typedef struct { uint state, kind; ulong parent; uint pending, flags; uint nwait, implicit;\n"
   "  ulong event; ulong wait[12]; ulong t_queued; uchar pad2[48];\n"
   "  uint pkt[16]; } dq_rec;\n"
   "typedef struct { int status; uint refs, kind, prof; ulong prof_ptr, t_start, t_end,\n"
   "  t_complete; ulong pad[3]; } dq_ev;\n"
"ulong __ockl_memrealtime_u64(void);\n"
   /* ockl's, hsa_signal_t passed as its handle; order 3 is __ATOMIC_RELEASE */
   "void __ockl_hsa_signal_store(ulong signal, long value, int order);\n"
   "static void ring(global dq_tree *h) {\n"
   "  __ockl_hsa_signal_store(h->doorbell_signal, (long)(h->ring_next - 1), __ATOMIC_RELEASE);\n"
   "}\n"
   "static void put(global dq_tree *h, uint w0, const uint *w) {\n"
   "  global uint *s = (global uint *)(h->ring_base + (h->ring_next & h->ring_mask) * 64);\n"
   "  h->ring_next++;\n"
   "  for (int i = 1; i < 16; i++) s[i] = w[i];\n"
   "  __atomic_store_n(s, w0, __ATOMIC_RELEASE);\n"
   "}\n"
   "static int wait_status(global dq_hdr *h, global dq_rec *r) {\n"
   "  int st = 0;\n"
   "  for (uint i = 0; i < r->nwait; i++) {\n"
   "    int s = __atomic_load_n(&((global dq_ev *)r->wait[i])->status, __ATOMIC_ACQUIRE);\n"
   "    if (s < 0) return s;\n"
   "    if (s > 0) st = 1;\n"
   "  }\n"
   "  return st;\n"
   "}\n"
   "static void complete(global dq_hdr *h, global dq_rec *r, int status, ulong now) {\n"
   "  global dq_ev *e = (global dq_ev *)r->event;\n"
   "  if (e) {\n"
   "    if (!e->t_start) e->t_start = e->t_end = now;\n"
   "    e->t_complete = now;\n"
   "    if (e->prof_ptr && e->prof) {\n"
   "      global ulong *v = (global ulong *)e->prof_ptr;\n"
   "      v[0] = (e->t_end - e->t_start) * h->tick_num / h->tick_den;\n"
   "      v[1] = (e->t_complete - e->t_start) * h->tick_num / h->tick_den;\n"
   "    }\n"
   "    __atomic_store_n(&e->status, status, __ATOMIC_RELEASE);\n"
   "    __atomic_fetch_sub(&e->refs, 1u, __ATOMIC_ACQ_REL);\n"
   "  }\n"
   "  for (uint i = 0; i < r->nwait; i++)\n"
   "    __atomic_fetch_sub(&((global dq_ev *)r->wait[i])->refs, 1u, __ATOMIC_ACQ_REL);\n"
   "  if (r->parent) __atomic_fetch_sub(&((global dq_rec *)r->parent)->pending, 1u,\n"
   "                                    __ATOMIC_ACQ_REL);\n"
   "  else __atomic_fetch_sub(&h->root_pending, 1u, __ATOMIC_ACQ_REL);\n"
   "  if (status < 0) h->failed++;\n"
   "  __atomic_store_n(&r->state, 0u, __ATOMIC_RELEASE);\n"
   "}\n"
   "kernel void hsacl_devq_scheduler(global dq_tree *t) {\n"
   "  if (get_global_id(0)) return;\n"
   "  global dq_hdr *h = (global dq_hdr *)t->hdr;\n"
   "  ulong now = __ockl_memrealtime_u64();\n"
   /* Only records a built-in took since the tree began (no kernel of the tree runs now):
    * a launch of 16384 children leaves nothing above them to look at, nor does a small
    * tree on a large queue. */
   "  uint n = min(h->nrec, h->rec_used);\n"
   "  for (uint i = 0; i < n; i++) {\n"
   "    global dq_rec *r = (global dq_rec *)(h->rec_base + (ulong)i * DQ_REC);\n"
   "    if (__atomic_load_n(&r->state, __ATOMIC_ACQUIRE) == 3u) {\n"
   "      r->state = 4u;\n"
   "      if (r->event) ((global dq_ev *)r->event)->t_end = now;\n"
   "    }\n"
   "  }\n"
   "  for (;;) {\n"
   "    bool changed = true;\n"
   "    while (changed) {\n"
   "      changed = false;\n"
   "      for (uint i = 0; i < n; i++) {\n"
   "        global dq_rec *r = (global dq_rec *)(h->rec_base + (ulong)i * DQ_REC);\n"
   "        uint st = __atomic_load_n(&r->state, __ATOMIC_ACQUIRE);\n"
   "        if (st == 4u && __atomic_load_n(&r->pending, __ATOMIC_ACQUIRE) == 0) {\n"
   "          complete(h, r, 0, now); changed = true;\n"
   "        } else if (st == 2u) {\n"
   "          int w = wait_status(h, r);\n"
   "          if (w < 0 || (w == 0 && r->kind == 2u)) { complete(h, r, w, now); changed = true; }\n"
   "        }\n"
   "      }\n"
   "    }\n"
   "    uint launched = 0, blocked = 0;\n"
   "    for (uint i = 0; i < n; i++) {\n"
   "      global dq_rec *r = (global dq_rec *)(h->rec_base + (ulong)i * DQ_REC);\n"
   "      uint st = __atomic_load_n(&r->state, __ATOMIC_ACQUIRE);\n"
   
   "      if (st != 2u) continue;\n"
   "      /* Room for it and for this run's last packet. Every packet before this run's own\n"
   "       * (self_index) has been consumed: the ring is free up to self_index + size. */\n"
   "      if (wait_status(h, r) != 0 ||\n"
   "          t->self_index + t->ring_mask + 1 - t->ring_next < 2) { blocked++; continue; }\n"
   "      uint w[16];\n"
   "      for (int k = 0; k < 16; k++) w[k] = r->pkt[k];\n"
   "      w[14] = 0; w[15] = 0;\n"
   "      ulong im = ((ulong)r->pkt[10] | (ulong)r->pkt[11] << 32) + r->implicit;\n"
   "      *(global ulong *)(im + 200) = t->hsa_queue; /* hidden_queue_ptr */\n"
   "      *(global ulong *)(im + 72) = t->printf_buffer; /* hidden_printf_buffer */\n"
   "      r->state = 3u;\n"
   "      global dq_ev *e = (global dq_ev *)r->event;\n"
   "      if (e) { e->t_start = now; __atomic_store_n(&e->status, 1, __ATOMIC_RELEASE); }\n"
   "      put(t, (2u | (2u << 9) | (2u << 11)) | (w[0] & 0xffff0000u), w);\n"
   "      launched++; h->launches++;\n"
   "    }\n"
   "    if (launched) {\n"
   "      uint w[16] = { 0 };\n"
   "      w[0] = 1u << 16; w[1] = 1u | (1u << 16); w[2] = 1u; w[3] = 1; w[4] = 1;\n"
   "      w[5] = 1; w[6] = h->sched_private; w[7] = h->sched_group;\n"
   "      w[8] = (uint)h->sched_ko; w[9] = (uint)(h->sched_ko >> 32);\n"
   "      w[10] = (uint)t->sched_kernarg; w[11] = (uint)(t->sched_kernarg >> 32);\n"
   "      t->self_index = t->ring_next;\n"
   "      put(t, 2u | (1u << 8) | (2u << 9) | (2u << 11) | (1u << 16), w);\n"
   "      ring(t);\n"
   "      return;\n"
   "    }\n"
   "    if (!blocked) break;\n"
   "    /* Nothing runs and nothing can start (a wait on an event nobody can set any more, or\n"
   "     * no ring left): those commands fail. */\n"
   "    for (uint i = 0; i < n; i++) {\n"
   "      global dq_rec *r = (global dq_rec *)(h->rec_base + (ulong)i * DQ_REC);\n"
   "      if (__atomic_load_n(&r->state, __ATOMIC_ACQUIRE) == 2u) complete(h, r, -5, now);\n"
   "    }\n"
   "  }\n"
   /* Every record is FREE: the next tree claims from record 0 again. */
   "  h->rec_hint = 0; h->rec_used = 0;\n"
   "  uint w[16] = { 0 };\n"
   "  w[14] = (uint)t->done_signal; w[15] = (uint)(t->done_signal >> 32);\n"
   "  put(t, 3u | (1u << 8) | (2u << 9) | (2u << 11), w);\n"
   "  ring(t);\n"
   "}\n";

struct disp_devq {
   struct _cl_device_id *dev;
   void *mem;
   size_t bytes;
   cl_program prog;
   cl_kernel sched;
   pthread_mutex_t lock;
   struct disp_devq_tree *prev; /* the last tree started (a reference), or NULL */
};

struct disp_devq_tree {
   atomic_uint refs; /* the launch's, and the device queue's while it is `prev` */
   struct disp_devq *dq;
   struct disp_devq_tree *prev; /* the tree this one waits for (a reference), or NULL */
   hsa_queue_t *c;
   hsa_signal_t s_parent, s_done;
   void *block; /* DQ_TREE_BYTES: the scheduler's kernarg, then struct dq_tree */
};

static void
tree_put(struct disp_devq_tree *t)
{
   const struct rt_hsa *hsa = rt_hsa();
   if (!t || atomic_fetch_sub(&t->refs, 1) != 1)
      return;
   tree_put(t->prev);
   if (t->block)
      hsa->hsa_amd_memory_pool_free(t->block);
   if (t->c)
      hsa->hsa_queue_destroy(t->c);
   if (t->s_parent.handle)
      hsa->hsa_signal_destroy(t->s_parent);
   if (t->s_done.handle)
      hsa->hsa_signal_destroy(t->s_done);
   icd_free(t);
}

/* Waits until the tree's last packet ran (S_done); false when it never will. */
static void
tree_wait(struct disp_devq_tree *t)
{
   const struct rt_hsa *hsa = rt_hsa();
   hsa->hsa_signal_wait_scacquire(t->s_done, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX,
                                  HSA_WAIT_STATE_BLOCKED);
}

bool
disp_devq_enabled(void)
{
   return plat_profile_opencl_c_20();
}

static uint64_t
hdr_addr(const struct disp_devq *dq)
{
   return (uint64_t)(uintptr_t)dq->mem;
}

uint64_t
disp_devq_address(const struct disp_devq *dq)
{
   return dq ? hdr_addr(dq) : 0;
}

static cl_int
build_scheduler(struct disp_devq *dq, cl_context ctx, cl_device_id dev_handle)
{
   cl_int err;
   const char *src = sched_src;
   dq->prog = comp_CreateProgramWithSource(ctx, 1, &src, NULL, &err);
   if (!dq->prog)
      return err;
   err = comp_BuildProgram(dq->prog, 1, &dev_handle, "", NULL, NULL);
   if (err != CL_SUCCESS)
      return ICD_ERROR(CL_OUT_OF_RESOURCES, "building the device-queue scheduler failed (%d)",
                       err);
   dq->sched = comp_CreateKernel(dq->prog, "hsacl_devq_scheduler", &err);
   return dq->sched ? CL_SUCCESS : err;
}

cl_int
disp_devq_create(struct _cl_context *ctx, cl_context ctx_handle, struct _cl_device_id *dev,
                 cl_device_id dev_handle, cl_uint size, struct disp_devq **out)
{
   const struct rt_hsa *hsa = rt_hsa();
   (void)ctx;
   struct disp_devq *dq = icd_calloc(1, sizeof(*dq));
   if (!dq)
      return ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "allocating a device queue");
   pthread_mutex_init(&dq->lock, NULL);
   dq->dev = dev;
   uint32_t nrec = size / DQ_REC;
   if (nrec < 4)
      nrec = 4;
   uint32_t nev = PLAT_DEVQ_MAX_EVENTS;
   dq->bytes = DQ_HDR + (size_t)nrec * DQ_REC + (size_t)nev * DQ_EV;
   hsa_amd_memory_pool_t pool = dev->has_kernarg_pool ? dev->kernarg_pool : dev->system_pool;
   cl_int err;
   hsa_status_t st = hsa->hsa_amd_memory_pool_allocate(pool, dq->bytes, 0, &dq->mem);
   if (st != HSA_STATUS_SUCCESS) {
      dq->mem = NULL;
      err = rt_status_to_cl(st, "allocating a device queue");
      goto fail;
   }
   st = hsa->hsa_amd_agents_allow_access(1, &dev->agent, NULL, dq->mem);
   if (st != HSA_STATUS_SUCCESS) {
      err = rt_status_to_cl(st, "granting the GPU access to a device queue");
      goto fail;
   }
   memset(dq->mem, 0, dq->bytes);
   err = build_scheduler(dq, ctx_handle, dev_handle);
   if (err != CL_SUCCESS)
      goto fail;
   const struct comp_kernel_device *kd = comp_kernel_for_device(
      comp_kernel_from_handle(dq->sched), dev);
   if (!kd) {
      err = ICD_ERROR(CL_OUT_OF_RESOURCES, "the device-queue scheduler has no code");
      goto fail;
   }
   struct dq_hdr *h = dq->mem;
   h->nrec = nrec;
   h->nev = nev;
   h->rec_base = hdr_addr(dq) + DQ_HDR;
   h->ev_base = h->rec_base + (uint64_t)nrec * DQ_REC;
   h->sched_ko = kd->kernel_object;
   h->sched_private = kd->private_segment_size;
   h->sched_group = kd->group_segment_size;
   /* gfx9's s_memrealtime counts at 100 MHz: 10 ns a tick. */
   h->tick_num = 10;
   h->tick_den = 1;
   if (kd->kernarg_segment_size > DQ_TREE_AT) {
      err = ICD_ERROR(CL_OUT_OF_RESOURCES, "scheduler kernarg of %u bytes",
                      kd->kernarg_segment_size);
      goto fail;
   }
   __atomic_store_n(&h->magic, DQ_MAGIC, __ATOMIC_RELEASE);
   *out = dq;
   return CL_SUCCESS;
fail:
   disp_devq_destroy(dq);
   return err;
}

void
disp_devq_destroy(struct disp_devq *dq)
{
   const struct rt_hsa *hsa = rt_hsa();
   if (!dq)
      return;
   if (dq->prev) {
      tree_wait(dq->prev);
      tree_put(dq->prev);
   }
   if (dq->sched)
      comp_ReleaseKernel(dq->sched);
   if (dq->prog)
      comp_ReleaseProgram(dq->prog);
   if (dq->mem)
      hsa->hsa_amd_memory_pool_free(dq->mem);
   pthread_mutex_destroy(&dq->lock);
   icd_free(dq);
}

/* Writes a 64-byte packet into slot `index` of `c`, header (first 32 bits) last. */
static void
write_slot(hsa_queue_t *c, uint64_t index, const uint32_t *words)
{
   uint32_t *slot = (uint32_t *)((uint8_t *)c->base_address + (index & (c->size - 1)) * 64);
   for (int i = 1; i < 16; i++)
      slot[i] = words[i];
   __atomic_store_n(slot, words[0], __ATOMIC_RELEASE);
}

cl_int
disp_devq_tree_start(struct disp_devq *dq, void *printf_buffer, hsa_signal_t *parent_signal,
                     hsa_signal_t *done_signal, hsa_signal_t *wait_signal,
                     struct disp_devq_tree **out)
{
   const struct rt_hsa *hsa = rt_hsa();
   struct disp_devq_tree *t = icd_calloc(1, sizeof(*t));
   if (!t)
      return ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "allocating a device-enqueue launch");
   atomic_init(&t->refs, 1);
   t->dq = dq;
   struct _cl_device_id *dev = dq->dev;
   hsa_amd_memory_pool_t pool = dev->has_kernarg_pool ? dev->kernarg_pool : dev->system_pool;
   hsa_status_t st = hsa->hsa_amd_memory_pool_allocate(pool, DQ_TREE_BYTES, 0, &t->block);
   if (st != HSA_STATUS_SUCCESS)
      t->block = NULL;
   else
      st = hsa->hsa_amd_agents_allow_access(1, &dev->agent, NULL, t->block);
   if (st == HSA_STATUS_SUCCESS)
      st = hsa->hsa_signal_create(1, 0, NULL, &t->s_parent);
   if (st == HSA_STATUS_SUCCESS)
      st = hsa->hsa_signal_create(1, 0, NULL, &t->s_done);
   if (st == HSA_STATUS_SUCCESS)
      st = hsa->hsa_queue_create(dev->agent, DQ_RING, HSA_QUEUE_TYPE_MULTI, NULL, NULL,
                                 UINT32_MAX, UINT32_MAX, &t->c);
   if (st != HSA_STATUS_SUCCESS) {
      cl_int err = rt_status_to_cl(st, "creating the queue of a device-enqueue launch");
      tree_put(t);
      return err;
   }
   /* The tree's own block: the ring it writes, its end signal; the scheduler's kernarg. */
   memset(t->block, 0, DQ_TREE_BYTES);
   struct dq_tree *b = (struct dq_tree *)((uint8_t *)t->block + DQ_TREE_AT);
   uint64_t r = hsa->hsa_queue_load_write_index_relaxed(t->c);
   b->hdr = hdr_addr(dq);
   b->ring_base = (uint64_t)(uintptr_t)t->c->base_address;
   b->ring_mask = t->c->size - 1;
   b->ring_next = r + 2;
   b->self_index = r + 1;
   b->done_signal = t->s_done.handle;
   b->hsa_queue = (uint64_t)(uintptr_t)t->c;
   b->doorbell_signal = t->c->doorbell_signal.handle;
   b->sched_kernarg = (uint64_t)(uintptr_t)t->block;
   b->printf_buffer = (uint64_t)(uintptr_t)printf_buffer;
   uint64_t arg = (uint64_t)(uintptr_t)b;
   memcpy(t->block, &arg, sizeof(arg));
   const struct dq_hdr *h = dq->mem;
   /* One tree at a time per device queue: the records are shared, and a scheduler must not
    * see (and start early) the children of a parent of another tree. The parent waits on
    * the GPU for the previous tree's end (the caller puts *wait_signal before it), and so
    * does C's first packet (for a parent that never runs: disp_devq_tree_abort). */
   pthread_mutex_lock(&dq->lock);
   t->prev = dq->prev; /* its reference moves to t */
   atomic_fetch_add(&t->refs, 1);
   dq->prev = t;
   pthread_mutex_unlock(&dq->lock);
   /* barrier-AND on the parent (and the previous tree), then the first scheduler run */
   uint32_t w[16] = { 0 };
   w[2] = (uint32_t)t->s_parent.handle;
   w[3] = (uint32_t)(t->s_parent.handle >> 32);
   if (t->prev) {
      w[4] = (uint32_t)t->prev->s_done.handle;
      w[5] = (uint32_t)(t->prev->s_done.handle >> 32);
   }
   w[0] = HSA_PACKET_TYPE_BARRIER_AND | (1u << HSA_PACKET_HEADER_BARRIER) |
          (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_ACQUIRE_FENCE_SCOPE) |
          (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_RELEASE_FENCE_SCOPE);
   write_slot(t->c, r, w);
   memset(w, 0, sizeof(w));
   w[0] = HSA_PACKET_TYPE_KERNEL_DISPATCH | (1u << HSA_PACKET_HEADER_BARRIER) |
          (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_ACQUIRE_FENCE_SCOPE) |
          (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_RELEASE_FENCE_SCOPE) | (1u << 16);
   w[1] = 1u | (1u << 16); /* work-group 1 x 1 */
   w[2] = 1u;              /* x 1 */
   w[3] = w[4] = w[5] = 1; /* grid 1 x 1 x 1 */
   w[6] = h->sched_private;
   w[7] = h->sched_group;
   w[8] = (uint32_t)h->sched_ko;
   w[9] = (uint32_t)(h->sched_ko >> 32);
   w[10] = (uint32_t)b->sched_kernarg;
   w[11] = (uint32_t)(b->sched_kernarg >> 32);
   write_slot(t->c, r + 1, w);
   /* The rest of the ring is the GPU's, round and round: the write index goes far ahead
    * at once (the packet processor takes a slot once it was rung for and its header is
    * valid; the scheduler writes only slots the processor has consumed and rings them). */
   hsa->hsa_queue_add_write_index_scacq_screl(t->c, DQ_WRITE_AHEAD);
   hsa->hsa_signal_store_screlease(t->c->doorbell_signal, (hsa_signal_value_t)(r + 1));
   *wait_signal = t->prev ? t->prev->s_done : (hsa_signal_t){ 0 };
   *parent_signal = t->s_parent;
   *done_signal = t->s_done;
   *out = t;
   return CL_SUCCESS;
}

/* The launch is over (its command completed, or failed before running). */
void
disp_devq_tree_finish(struct disp_devq_tree *t)
{
   tree_put(t);
}

void
disp_devq_tree_abort(struct disp_devq_tree *t)
{
   const struct rt_hsa *hsa = rt_hsa();
   /* The first packets of C wait on S_p: let them run (the scheduler finds no record) so
    * that S_done fires and the next tree does not wait forever. */
   hsa->hsa_signal_store_screlease(t->s_parent, 0);
}

/* ---- device queues of each device, and its default ------------------------------------ */

/* OpenCL 3.0 CL_DEVICE_MAX_ON_DEVICE_QUEUES: one device queue per device (device events
 * live in their queue's pool, and event built-ins find it through the default queue). */
#define LIVE_MAX 16
static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
   const struct _cl_device_id *dev;
   struct disp_devq *dq;
   void *owner;     /* its cl_command_queue */
   bool is_default;
} live[LIVE_MAX];

cl_int
disp_devq_register(const struct _cl_device_id *dev, struct disp_devq *dq, void *owner)
{
   cl_int err = CL_SUCCESS;
   pthread_mutex_lock(&live_lock);
   int slot = -1;
   for (int i = 0; i < LIVE_MAX; i++) {
      if (live[i].dev == dev) {
         err = ICD_ERROR(CL_OUT_OF_RESOURCES, "the device already has a device queue "
                         "(CL_DEVICE_MAX_ON_DEVICE_QUEUES is %u)", PLAT_DEVQ_MAX_QUEUES);
         break;
      }
      if (slot < 0 && !live[i].dev)
         slot = i;
   }
   if (err == CL_SUCCESS && slot < 0)
      err = ICD_ERROR(CL_OUT_OF_RESOURCES, "too many device queues");
   if (err == CL_SUCCESS) {
      live[slot].dev = dev;
      live[slot].dq = dq;
      live[slot].owner = owner;
      live[slot].is_default = false;
   }
   pthread_mutex_unlock(&live_lock);
   return err;
}

void
disp_devq_forget(struct disp_devq *dq)
{
   pthread_mutex_lock(&live_lock);
   for (int i = 0; i < LIVE_MAX; i++)
      if (live[i].dq == dq)
         memset(&live[i], 0, sizeof(live[i]));
   pthread_mutex_unlock(&live_lock);
}

struct disp_devq *
disp_devq_default(const struct _cl_device_id *dev)
{
   struct disp_devq *dq = NULL;
   pthread_mutex_lock(&live_lock);
   for (int i = 0; i < LIVE_MAX; i++)
      if (live[i].dev == dev && live[i].is_default)
         dq = live[i].dq;
   pthread_mutex_unlock(&live_lock);
   return dq;
}

void *
disp_devq_default_owner(const struct _cl_device_id *dev)
{
   void *owner = NULL;
   pthread_mutex_lock(&live_lock);
   for (int i = 0; i < LIVE_MAX; i++)
      if (live[i].dev == dev && live[i].is_default)
         owner = live[i].owner;
   pthread_mutex_unlock(&live_lock);
   return owner;
}

void
disp_devq_set_default(const struct _cl_device_id *dev, struct disp_devq *dq)
{
   pthread_mutex_lock(&live_lock);
   for (int i = 0; i < LIVE_MAX; i++)
      if (live[i].dev == dev)
         live[i].is_default = live[i].dq == dq;
   pthread_mutex_unlock(&live_lock);
}
