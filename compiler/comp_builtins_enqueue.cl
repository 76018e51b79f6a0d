/*
 * comp_builtins_enqueue.cl — device-side enqueue (OpenCL C 3.0 §6.15.15, feature
 * __opencl_c_device_enqueue): what clang-19 lowers enqueue_kernel to
 * (__enqueue_kernel_basic, _basic_events, _varargs, _events_varargs), enqueue_marker and the
 * device events (create_user_event, retain_event, release_event, set_user_event_status,
 * capture_event_profiling_info). Included by comp_builtins.cl. get_default_queue and
 * ndrange_* are opencl.bc's (they read hidden_default_queue and fill clang's ndrange_t).
 *
 * Debian's ROCm 5.2 opencl.bc defines the same names over AMD's device-queue format, which
 * only AMD's runtime (ROCclr) and its scheduler kernel understand. hsacl has its own format,
 * written by dispatch/disp_devq.c (which also holds the scheduler that turns the records into
 * AQL packets); the two files must agree on the layout below.
 *
 * A queue_t is the address of a device queue (global memory the driver allocates):
 *   header (DQ_HDR bytes), then nrec records of DQ_REC bytes, then nev events of DQ_EV bytes.
 * enqueue_kernel claims a FREE record (compare-and-swap from a rotating hint, which the
 * scheduler sets back to 0 when a tree ends, so a tree's records are the lowest ones, and
 * rec_used bounds what the scheduler scans), writes the
 * dispatch packet body (grid, work-group sizes, segment sizes from the block's runtime
 * handle, which the driver fills at load: { kernel_object, private size, group size }) and
 * the kernarg (the block literal, then one 32-bit LDS offset per local argument, then the
 * code object V5 implicit arguments at the next multiple of 8), counts itself as a pending
 * child of its parent (the record whose kernel is running, found in
 * hidden_completion_action; 0 for the kernel the host launched) and publishes the record
 * READY. Nothing here touches the hardware queue: the scheduler does.
 *
 * Events are DQ_EV-byte slots: status (CL_SUBMITTED 2, CL_RUNNING 1, CL_COMPLETE 0, or a
 * negative error), reference count (0 = free). The event of a command is complete when its
 * kernel and all the kernels that kernel enqueued (recursively) are.
 */
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable

#define DQ_MAGIC 0x51564544u /* "DEVQ" */
#define DQ_HDR 256u
#define DQ_REC 1024u
#define DQ_EV 64u
#define DQ_MAX_WAIT 12
#define DQ_KERNARG 256u      /* record offset of the kernarg */
#define DQ_KERNARG_MAX 768u  /* its size */
#define DQ_IMPLICIT 256u     /* code object V5 implicit arguments */
#define DQ_MAX_WG 256u       /* work-group size every kernel is built for */

/* record states */
#define DQ_FREE 0u
#define DQ_BUILDING 1u
#define DQ_READY 2u
/* 3 LAUNCHED, 4 EXECUTED: the scheduler's */

/* record kinds */
#define DQ_KERNEL 1u
#define DQ_MARKER 2u

/* event kinds */
#define DQ_EV_COMMAND 1u
#define DQ_EV_USER 2u

typedef struct {
   uint magic, nrec, nev, flags;          /* 0 */
   ulong rec_base, ev_base;               /* 16 */
   uint rec_hint, ev_hint, root_pending, failed; /* 32 */
   ulong sched_ko;                        /* 48 */
   uint sched_private, sched_group;       /* 56 */
   ulong tick_num, tick_den;              /* 64: ns = ticks * num / den */
   ulong launches;                        /* 80 */
   uint rec_used, pad;                    /* 88: records [0, rec_used) may be taken */
} dq_hdr;

typedef struct {
   uint state, kind;       /* 0 */
   ulong parent;           /* 8: record address, 0 = the host's kernel */
   uint pending, flags;    /* 16: children not complete */
   uint nwait, implicit;   /* 24: kernarg offset of the implicit arguments */
   ulong event;            /* 32: event address or 0 */
   ulong wait[DQ_MAX_WAIT]; /* 40 */
   ulong t_queued;         /* 136 */
   uchar pad2[192 - 144];
   /* 192: the AQL kernel dispatch packet without header and completion signal */
   ushort header, setup, wg[3], reserved0;
   uint grid[3], private_size, group_size;
   ulong kernel_object, kernarg_address, reserved2, completion_signal;
} dq_rec;

typedef struct {
   int status;
   uint refs, kind, prof;
   ulong prof_ptr, t_start, t_end, t_complete;
   ulong pad[3];
} dq_ev;

typedef struct {
   ulong kernel_object;
   uint private_size, group_size;
} dq_handle;

#define DQ_ENTRY __attribute__((always_inline))
#define DQ_INLINE static inline __attribute__((always_inline))

ulong __ockl_memrealtime_u64(void);

DQ_INLINE global dq_hdr *
dq_hdr_of(queue_t q)
{
   return (global dq_hdr *)__builtin_astype(q, ulong);
}

DQ_INLINE global dq_ev *
dq_ev_of(global dq_hdr *h, clk_event_t e)
{
   ulong a = __builtin_astype(e, ulong);
   if (a < h->ev_base || a >= h->ev_base + (ulong)h->nev * DQ_EV ||
       (a - h->ev_base) % DQ_EV)
      return 0;
   return (global dq_ev *)a;
}

DQ_INLINE uint
dq_cas(global uint *p, uint expected, uint desired)
{
   return __atomic_compare_exchange_n(p, &expected, desired, false, __ATOMIC_ACQ_REL,
                                      __ATOMIC_RELAXED);
}

DQ_INLINE global dq_ev *
dq_ev_alloc(global dq_hdr *h, uint kind, int status, uint refs)
{
   uint n = h->nev;
   uint start = __atomic_fetch_add(&h->ev_hint, 1u, __ATOMIC_RELAXED);
   for (uint i = 0; i < n; i++) {
      global dq_ev *e = (global dq_ev *)(h->ev_base + (ulong)((start + i) % n) * DQ_EV);
      if (__atomic_load_n(&e->refs, __ATOMIC_RELAXED) == 0 && dq_cas(&e->refs, 0u, refs)) {
         e->kind = kind;
         e->prof = 0;
         e->prof_ptr = 0;
         e->t_start = e->t_end = e->t_complete = 0;
         __atomic_store_n(&e->status, status, __ATOMIC_RELEASE);
         return e;
      }
   }
   return 0;
}

DQ_INLINE void
dq_ev_release(global dq_ev *e)
{
   __atomic_fetch_sub(&e->refs, 1u, __ATOMIC_ACQ_REL);
}

/* The record whose kernel runs (hidden_completion_action), or 0. */
DQ_INLINE ulong
dq_self(void)
{
   return *(constant ulong *)((constant uchar *)__builtin_amdgcn_implicitarg_ptr() + 112);
}

DQ_INLINE int
dq_enqueue(queue_t q, uint flags, const ndrange_t *r, int nwl, const clk_event_t *wl,
           clk_event_t *ce, void *handle, void *capture, uint nl, const private size_t *ll,
           bool marker)
{
   global dq_hdr *h = dq_hdr_of(q);
   if (!h || h->magic != DQ_MAGIC)
      return CLK_INVALID_QUEUE;
   if (nwl < 0 || (nwl > 0 && !wl) || (nwl == 0 && wl) || nwl > DQ_MAX_WAIT)
      return CLK_INVALID_EVENT_WAIT_LIST;
   for (int i = 0; i < nwl; i++) {
      global dq_ev *w = dq_ev_of(h, wl[i]);
      if (!w || __atomic_load_n(&w->refs, __ATOMIC_RELAXED) == 0)
         return CLK_INVALID_EVENT_WAIT_LIST;
   }
   uint grid[3] = { 1, 1, 1 }, wg[3] = { 1, 1, 1 };
   ulong off[3] = { 0, 0, 0 };
   uint dims = 1, kernarg_used = 0, lds = 0;
   const dq_handle *rt = (const dq_handle *)handle;
   if (marker) {
      if (nwl == 0)
         return CLK_INVALID_EVENT_WAIT_LIST;
   } else {
      if (flags > CLK_ENQUEUE_FLAGS_WAIT_WORK_GROUP)
         return CLK_ENQUEUE_FAILURE;
      dims = r->workDimension;
      if (dims < 1 || dims > 3)
         return CLK_INVALID_NDRANGE;
      bool pick = false;
      for (uint d = 0; d < dims; d++)
         pick |= r->localWorkSize[d] == 0;
      ulong total = 1;
      for (uint d = 0; d < dims; d++) {
         size_t g = r->globalWorkSize[d];
         if (g == 0 || g > 0xffffffffu)
            return CLK_INVALID_NDRANGE;
         size_t l = r->localWorkSize[d];
         if (pick)
            l = d == 0 ? min(g, (size_t)64) : 1;
         if (l > g && !pick)
            l = g; /* a single (partial) group, as OpenCL C 2.0 allows */
         total *= l;
         grid[d] = (uint)g;
         wg[d] = (uint)l;
         off[d] = r->globalWorkOffset[d];
      }
      if (total > DQ_MAX_WG)
         return CLK_INVALID_NDRANGE;
      uint csize = ((uint *)capture)[0];
      uint at = ((csize + 3u) & ~3u) + 4u * nl;
      kernarg_used = ((at + 7u) & ~7u) + DQ_IMPLICIT;
      if (csize > DQ_KERNARG_MAX || nl > 64u || kernarg_used > DQ_KERNARG_MAX)
         return CLK_INVALID_ARG_SIZE;
      lds = rt->group_size;
      for (uint i = 0; i < nl; i++) {
         if (ll[i] == 0)
            return CLK_INVALID_ARG_SIZE;
         lds = (lds + 15u) & ~15u;
         if (ll[i] > 65536u || lds + ll[i] > 65536u)
            return CLK_OUT_OF_RESOURCES;
         lds += (uint)ll[i];
      }
   }
   global dq_ev *ev = 0;
   if (ce) {
      ev = dq_ev_alloc(h, DQ_EV_COMMAND, CL_SUBMITTED, 2u); /* the caller's and the record's */
      if (!ev)
         return CLK_EVENT_ALLOCATION_FAILURE;
   }
   uint n = h->nrec;
   uint start = __atomic_fetch_add(&h->rec_hint, 1u, __ATOMIC_RELAXED);
   global dq_rec *rec = 0;
   for (uint i = 0; i < n && !rec; i++) {
      uint at = (start + i) % n;
      global dq_rec *c = (global dq_rec *)(h->rec_base + (ulong)at * DQ_REC);
      if (__atomic_load_n(&c->state, __ATOMIC_RELAXED) == DQ_FREE &&
          dq_cas(&c->state, DQ_FREE, DQ_BUILDING)) {
         rec = c;
         /* The scheduler looks at records below rec_used only. A maximum by
          * compare-and-swap: the queue is host memory, and PCIe has atomic add, swap and
          * compare-and-swap only. */
         uint used = __atomic_load_n(&h->rec_used, __ATOMIC_RELAXED);
         while (used < at + 1u &&
                !__atomic_compare_exchange_n(&h->rec_used, &used, at + 1u, false,
                                             __ATOMIC_RELAXED, __ATOMIC_RELAXED))
            ;
      }
   }
   if (!rec) {
      if (ev) {
         dq_ev_release(ev);
         dq_ev_release(ev);
      }
      return CLK_DEVICE_QUEUE_FULL;
   }
   rec->kind = marker ? DQ_MARKER : DQ_KERNEL;
   rec->flags = flags;
   rec->nwait = (uint)nwl;
   for (int i = 0; i < nwl; i++) {
      global dq_ev *w = dq_ev_of(h, wl[i]);
      __atomic_fetch_add(&w->refs, 1u, __ATOMIC_RELAXED); /* held until the record is done */
      rec->wait[i] = (ulong)w;
   }
   rec->event = (ulong)ev;
   rec->pending = 0;
   rec->t_queued = __ockl_memrealtime_u64();
   if (!marker) {
      uint csize = ((uint *)capture)[0];
      global uchar *ka = (global uchar *)rec + DQ_KERNARG;
      for (uint i = 0; i < kernarg_used; i += 4)
         *(global uint *)(ka + i) = 0;
      for (uint i = 0; i < csize; i++)
         ka[i] = ((uchar *)capture)[i];
      uint at = (csize + 3u) & ~3u;
      uint lo = rt->group_size;
      for (uint i = 0; i < nl; i++) {
         lo = (lo + 15u) & ~15u;
         *(global uint *)(ka + at + 4u * i) = lo;
         lo += (uint)ll[i];
      }
      global uchar *im = ka + (((at + 4u * nl) + 7u) & ~7u);
      for (uint d = 0; d < 3; d++) {
         *(global uint *)(im + 4 * d) = grid[d] / wg[d];          /* hidden_block_count */
         *(global ushort *)(im + 12 + 2 * d) = (ushort)wg[d];     /* hidden_group_size */
         *(global ushort *)(im + 18 + 2 * d) = (ushort)(grid[d] % wg[d]); /* remainder */
         *(global ulong *)(im + 40 + 8 * d) = off[d];             /* hidden_global_offset */
      }
      *(global ushort *)(im + 64) = (ushort)dims;                 /* hidden_grid_dims */
      *(global ulong *)(im + 104) = (ulong)h;                     /* hidden_default_queue */
      *(global ulong *)(im + 112) = (ulong)rec;                   /* completion action */
      *(global uint *)(im + 120) = lds - rt->group_size;          /* dynamic LDS size */
      rec->implicit = (uint)(im - ka); /* hidden_queue_ptr (+200): the scheduler's */
      rec->setup = (ushort)dims;
      rec->wg[0] = (ushort)wg[0];
      rec->wg[1] = (ushort)wg[1];
      rec->wg[2] = (ushort)wg[2];
      rec->reserved0 = 0;
      rec->grid[0] = grid[0];
      rec->grid[1] = grid[1];
      rec->grid[2] = grid[2];
      rec->private_size = rt->private_size;
      rec->group_size = lds;
      rec->kernel_object = rt->kernel_object;
      rec->kernarg_address = (ulong)ka;
      rec->reserved2 = 0;
      rec->completion_signal = 0;
   }
   ulong parent = dq_self();
   rec->parent = parent;
   if (parent)
      __atomic_fetch_add(&((global dq_rec *)parent)->pending, 1u, __ATOMIC_RELAXED);
   else
      __atomic_fetch_add(&h->root_pending, 1u, __ATOMIC_RELAXED);
   __atomic_store_n(&rec->state, DQ_READY, __ATOMIC_RELEASE);
   if (ce)
      *ce = __builtin_astype((ulong)ev, clk_event_t);
   return CLK_SUCCESS;
}

DQ_ENTRY int
__enqueue_kernel_basic(queue_t q, kernel_enqueue_flags_t f, const ndrange_t r, void *block,
                       void *capture)
{
   return dq_enqueue(q, (uint)f, &r, 0, 0, 0, block, capture, 0, 0, false);
}

DQ_ENTRY int
__enqueue_kernel_basic_events(queue_t q, kernel_enqueue_flags_t f, const ndrange_t r, int nwl,
                              const clk_event_t *wl, clk_event_t *ce, void *block,
                              void *capture)
{
   return dq_enqueue(q, (uint)f, &r, nwl, wl, ce, block, capture, 0, 0, false);
}

DQ_ENTRY int
__enqueue_kernel_varargs(queue_t q, kernel_enqueue_flags_t f, const ndrange_t r, void *block,
                         void *capture, uint nl, __private size_t *ll)
{
   return dq_enqueue(q, (uint)f, &r, 0, 0, 0, block, capture, nl, ll, false);
}

DQ_ENTRY int
__enqueue_kernel_events_varargs(queue_t q, kernel_enqueue_flags_t f, const ndrange_t r,
                                int nwl, const clk_event_t *wl, clk_event_t *ce, void *block,
                                void *capture, uint nl, __private size_t *ll)
{
   return dq_enqueue(q, (uint)f, &r, nwl, wl, ce, block, capture, nl, ll, false);
}

DQ_ENTRY int __attribute__((overloadable))
enqueue_marker(queue_t q, uint nwl, const clk_event_t *wl, clk_event_t *ce)
{
   return dq_enqueue(q, 0, 0, (int)nwl, wl, ce, 0, 0, 0, 0, true);
}

/* The device queue of an event: events only exist in the default queue's pool or in the
 * queue of the kernel that runs; both are found through hidden_default_queue. */
DQ_INLINE global dq_hdr *
dq_default(void)
{
   return (global dq_hdr *)*(constant ulong *)((constant uchar *)
                                                    __builtin_amdgcn_implicitarg_ptr() + 104);
}

DQ_ENTRY clk_event_t __attribute__((overloadable))
create_user_event(void)
{
   global dq_hdr *h = dq_default();
   global dq_ev *e = h && h->magic == DQ_MAGIC ? dq_ev_alloc(h, DQ_EV_USER, CL_SUBMITTED, 1u)
                                              : 0;
   return e ? __builtin_astype((ulong)e, clk_event_t) : CLK_NULL_EVENT;
}

DQ_ENTRY void __attribute__((overloadable))
retain_event(clk_event_t event)
{
   global dq_hdr *h = dq_default();
   global dq_ev *e = h ? dq_ev_of(h, event) : 0;
   if (e)
      __atomic_fetch_add(&e->refs, 1u, __ATOMIC_RELAXED);
}

DQ_ENTRY void __attribute__((overloadable))
release_event(clk_event_t event)
{
   global dq_hdr *h = dq_default();
   global dq_ev *e = h ? dq_ev_of(h, event) : 0;
   if (e && __atomic_load_n(&e->refs, __ATOMIC_RELAXED))
      dq_ev_release(e);
}

DQ_ENTRY void __attribute__((overloadable))
set_user_event_status(clk_event_t event, int status)
{
   global dq_hdr *h = dq_default();
   global dq_ev *e = h ? dq_ev_of(h, event) : 0;
   if (e && e->kind == DQ_EV_USER && (status == CL_COMPLETE || status < 0)) {
      ulong now = __ockl_memrealtime_u64();
      e->t_start = e->t_end = e->t_complete = now;
      __atomic_store_n(&e->status, status, __ATOMIC_RELEASE);
   }
}

DQ_ENTRY void __attribute__((overloadable))
capture_event_profiling_info(clk_event_t event, clk_profiling_info name, global void *value)
{
   global dq_hdr *h = dq_default();
   global dq_ev *e = h ? dq_ev_of(h, event) : 0;
   if (!e || name != CLK_PROFILING_COMMAND_EXEC_TIME || e->kind != DQ_EV_COMMAND)
      return;
   e->prof_ptr = (ulong)value;
   if (__atomic_load_n(&e->status, __ATOMIC_ACQUIRE) == CL_COMPLETE) {
      ((global ulong *)value)[0] = (e->t_end - e->t_start) * h->tick_num / h->tick_den;
      ((global ulong *)value)[1] = (e->t_complete - e->t_start) * h->tick_num / h->tick_den;
   } else {
      __atomic_store_n(&e->prof, 1u, __ATOMIC_RELEASE); /* the scheduler writes them */
   }
}
