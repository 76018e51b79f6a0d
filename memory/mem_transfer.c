/*
 * memory/mem_transfer.c — buffer commands: read, write, copy, fill and their rectangular
 * forms, map/unmap and migrate (OpenCL 3.0 API §5.2.2–§5.2.4, §5.4.3).
 *
 * Device-only memory (coarse-grained device pool) is reached only through
 * hsa_amd_memory_async_copy; host-visible buffers (USE_HOST_PTR, ALLOC_HOST_PTR, SVM) are
 * read and written by the host when the command runs. A transfer is a list of byte ranges
 * ("pieces") copied by one command: the work signal starts at the number of pieces and
 * every async copy decrements it by one.
 *
 * A read or write of device-only memory in one piece copies between the buffer and the
 * application's memory directly when the GPU can reach that memory: HSA memory (a mapped
 * ALLOC_HOST_PTR buffer, SVM) as it is, any other memory of at least PIN_MIN bytes once
 * locked for the command (hsa_amd_memory_lock; unlocked when the command is released).
 * A rectangular read or write of at least PIN_MIN bytes' span does the same with one
 * rectangular copy (hsa_amd_memory_async_copy_rect): a 1 GiB image read, staged, took
 * 9.5 s in fresh staging pages, and 0.16 s so. ROCr makes rectangular copies
 * only on SDMA engines and refuses them otherwise; the refused command copies row by row
 * from the locked memory, and the device's later rectangular transfers are staged (its
 * copies of rows adjacent in the buffer merge; on ROCr each copy is a blit kernel).
 * Other transfers go through staging memory (mem_staging.c): a write copies the data into
 * it at enqueue, a read out of it on completion. Staging a large transfer costs a second
 * copy and, past the staging cache, fresh pages for every command (a 256 MiB write ran
 * 60x slower than one memcpy, mostly in page faults); pinning costs a lock, which pays
 * for itself above a few hundred KiB.
 */
#include "memory/mem_priv.h"
#include "dispatch/disp.h"
#include "runtime/rt.h"
#include "platform/plat.h"

#include <string.h>

/* Bytes from which a read or write of device-only memory locks the application's memory
 * and copies directly instead of staging (measured with bench/transfer on the software
 * runtime: below it the staging cache's memcpy costs less than a lock and an unlock). */
#define PIN_MIN (256u << 10)

/* One contiguous copy of a transfer. */
struct piece {
   size_t buf_off;  /* offset in the buffer (from its first byte) */
   size_t host_off; /* offset in the host side (user pointer or staging) */
   size_t size;
   size_t stage_off; /* staged reads/writes with `copies`: this row's offset in staging */
};

enum xfer_kind { XFER_READ, XFER_WRITE, XFER_COPY, XFER_FILL, XFER_MAP, XFER_UNMAP, XFER_NOP };

struct xfer {
   enum xfer_kind kind;
   struct _cl_mem *mem;      /* internal reference (dst for copies) */
   struct _cl_mem *src;      /* copies: internal reference */
   void *user;               /* read: destination; write: source (host-visible path) */
   void *staging;            /* device-only path, staged */
   size_t staging_size;
   void *direct;             /* device-only path, direct: agent address of the host bytes
                              * at user + direct_off (the one piece's, or a rectangle's
                              * first) */
   size_t direct_off;
   void *locked;             /* the host address hsa_amd_memory_lock locked, or NULL */
   /* A rectangular read or write (mem__enqueue_rect_rw): its row and slice pitches, buffer
    * and host side, and its extent in bytes, rows and slices; `rect` says a direct one is
    * tried as one rectangular copy. */
   bool rect;
   size_t buf_row, buf_slice, host_row, host_slice, region[3];
   struct piece *pieces;     /* XFER_READ/WRITE: buffer <-> user/staging; COPY: dst/src */
   size_t num_pieces;
   struct piece one;         /* storage when there is a single piece */
   /* Staged reads/writes: the async copies, buffer <-> staging (host_off: staging offset),
    * fewer than the rows when rows merge (coalesce_staged); NULL: one copy per piece. */
   struct piece *copies;
   size_t num_copies;
   const void *pattern;      /* fill: in staging or inline */
   size_t pattern_size;
   unsigned char pattern_buf[128];
   struct mem_map *map;      /* map/unmap bookkeeping */
   void *owned;              /* heap memory the command frees (image fills) */
};

static void *
host_view(struct _cl_mem *mem)
{
   return mem->host_ptr ? mem->host_ptr : (void *)(uintptr_t)mem->device_va;
}

/* ---- command callbacks -------------------------------------------------------------- */

static void
xfer_release(struct disp_command *cmd)
{
   struct xfer *x = cmd->payload;
   if (!x)
      return;
   if (x->staging && x->kind != XFER_MAP && x->kind != XFER_UNMAP)
      mem_staging_free(x->mem->device, x->staging, x->staging_size);
   if (x->locked)
      rt_hsa()->hsa_amd_memory_unlock(x->locked);
   if (x->kind == XFER_UNMAP && x->map) {
      if (x->map->staging)
         mem_staging_free(x->map->staging_dev, x->map->staging, x->map->staging_size);
      icd_free(x->map);
   }
   if (x->pieces != &x->one)
      icd_free(x->pieces);
   icd_free(x->copies);
   icd_free(x->owned);
   if (x->mem)
      mem_release_internal(x->mem);
   if (x->src)
      mem_release_internal(x->src);
   icd_free(x);
}

/* Host part of a command whose buffer the host can reach (or of a staged read/map). */
static cl_int
xfer_host_complete(struct disp_command *cmd)
{
   struct xfer *x = cmd->payload;
   unsigned char *buf = host_view(x->mem);
   switch (x->kind) {
   case XFER_READ:
      for (size_t i = 0; i < x->num_pieces; i++) {
         const struct piece *p = &x->pieces[i];
         const char *from = !x->staging ? (char *)buf + p->buf_off
                            : (char *)x->staging + (x->copies ? p->stage_off : p->host_off);
         memcpy((char *)x->user + p->host_off, from, p->size);
      }
      break;
   case XFER_WRITE:
      for (size_t i = 0; i < x->num_pieces; i++) {
         const struct piece *p = &x->pieces[i];
         memcpy(buf + p->buf_off, (char *)x->user + p->host_off, p->size);
      }
      break;
   case XFER_COPY: {
      unsigned char *src = host_view(x->src);
      for (size_t i = 0; i < x->num_pieces; i++) {
         const struct piece *p = &x->pieces[i];
         memmove(buf + p->buf_off, src + p->host_off, p->size);
      }
      break;
   }
   case XFER_FILL: {
      const struct piece *p = &x->pieces[0];
      for (size_t off = 0; off < p->size; off += x->pattern_size)
         memcpy(buf + p->buf_off + off, x->pattern, x->pattern_size);
      break;
   }
   case XFER_MAP:
   case XFER_UNMAP:
   case XFER_NOP:
      break;
   }
   return CL_SUCCESS;
}

/* A direct rectangular read or write as one rectangular copy; false when the runtime
 * refuses it (nothing started: the caller copies row by row; when the runtime cannot make
 * rectangular copies at all, the device's later rectangular transfers are staged). */
static bool
xfer_submit_rect(struct disp_command *cmd, struct xfer *x, const hsa_signal_t *deps,
                 uint32_t num_deps, hsa_signal_t signal)
{
   const struct rt_hsa *hsa = rt_hsa();
   struct _cl_device_id *dev = disp_queue_device(cmd->queue);
   bool read = x->kind == XFER_READ;
   hsa_pitched_ptr_t buf = {
      .base = (void *)(uintptr_t)(x->mem->device_va + x->pieces[0].buf_off),
      .pitch = x->buf_row, .slice = x->buf_slice };
   hsa_pitched_ptr_t host = { .base = x->direct, .pitch = x->host_row,
                              .slice = x->host_slice };
   hsa_dim3_t zero = { 0, 0, 0 };
   hsa_dim3_t range = { (uint32_t)x->region[0], (uint32_t)x->region[1],
                        (uint32_t)x->region[2] };
   hsa->hsa_signal_store_relaxed(signal, 1);
   hsa_status_t st = hsa->hsa_amd_memory_async_copy_rect(
      read ? &host : &buf, &zero, read ? &buf : &host, &zero, &range, dev->agent,
      read ? hsaDeviceToHost : hsaHostToDevice, num_deps, deps, signal);
   if (st == HSA_STATUS_SUCCESS)
      return true;
   /* The runtime cannot (no SDMA engine on ROCr); another status is this rectangle's. */
   if (st == HSA_STATUS_ERROR_OUT_OF_RESOURCES || st == HSA_STATUS_ERROR_INVALID_AGENT)
      atomic_store(&dev->rect_copy_refused, true);
   return false;
}

/* Starts the async copies of a device-only transfer; `signal` counts the pieces. */
static cl_int
xfer_submit(struct disp_command *cmd, const hsa_signal_t *deps, uint32_t num_deps,
            hsa_signal_t signal)
{
   const struct rt_hsa *hsa = rt_hsa();
   struct xfer *x = cmd->payload;
   struct _cl_device_id *dev = disp_queue_device(cmd->queue);
   hsa_agent_t gpu = dev->agent, cpu = dev->cpu_agent;
   const struct piece *list = x->copies ? x->copies : x->pieces;
   size_t n = x->kind == XFER_FILL ? 1 : x->copies ? x->num_copies : x->num_pieces;
   if (x->rect && xfer_submit_rect(cmd, x, deps, num_deps, signal))
      return CL_SUCCESS;
   hsa->hsa_signal_store_relaxed(signal, (hsa_signal_value_t)(n ? n : 1));
   if (n == 0) {
      hsa->hsa_signal_store_screlease(signal, 0);
      return CL_SUCCESS;
   }
   for (size_t i = 0; i < n; i++) {
      const struct piece *p = &list[i];
      void *dst;
      const void *src;
      hsa_agent_t dst_agent, src_agent;
      switch (x->kind) {
      case XFER_READ:
      case XFER_MAP:
         dst = x->direct ? (char *)x->direct + (p->host_off - x->direct_off)
                         : (char *)x->staging + p->host_off;
         dst_agent = cpu;
         src = (const void *)(uintptr_t)(x->mem->device_va + p->buf_off);
         src_agent = gpu;
         break;
      case XFER_COPY:
         dst = (void *)(uintptr_t)(x->mem->device_va + p->buf_off);
         dst_agent = x->mem->host_accessible ? cpu : gpu;
         src = (const void *)(uintptr_t)(x->src->device_va + p->host_off);
         src_agent = x->src->host_accessible ? cpu : gpu;
         break;
      default: /* WRITE, FILL, UNMAP: host (direct or staging) -> device */
         dst = (void *)(uintptr_t)(x->mem->device_va + p->buf_off);
         dst_agent = gpu;
         src = x->direct ? (const char *)x->direct + (p->host_off - x->direct_off)
                         : (const char *)x->staging + p->host_off;
         src_agent = cpu;
         break;
      }
      hsa_status_t st = hsa->hsa_amd_memory_async_copy(dst, dst_agent, src, src_agent, p->size,
                                                       num_deps, deps, signal);
      if (st != HSA_STATUS_SUCCESS) {
         /* Pieces not started will never decrement the signal. */
         hsa->hsa_signal_subtract_screlease(signal, (hsa_signal_value_t)(n - i));
         return rt_status_to_cl(st, "starting an async copy");
      }
   }
   return CL_SUCCESS;
}

/* ---- building commands ------------------------------------------------------------- */

static cl_int
xfer_create(struct _cl_command_queue *q, cl_command_type type, enum xfer_kind kind,
            struct _cl_mem *mem, cl_uint num_events, const cl_event *wait_list,
            struct disp_command **cmd_out, struct xfer **x_out)
{
   struct xfer *x = icd_calloc(1, sizeof(*x));
   if (!x)
      return ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "allocating a transfer");
   struct disp_command *cmd = NULL;
   cl_int err = disp_command_create(q, type, num_events, wait_list, &cmd);
   if (err != CL_SUCCESS) {
      icd_free(x);
      return err;
   }
   x->kind = kind;
   x->pieces = &x->one;
   x->mem = mem;
   mem_retain_internal(mem);
   cmd->payload = x;
   cmd->release = xfer_release;
   *cmd_out = cmd;
   *x_out = x;
   return CL_SUCCESS;
}

/* Rows of a rectangular region as pieces (§5.2.3): row r of slice s starts at
 * origin[0] + (origin[1] + r) * row_pitch + (origin[2] + s) * slice_pitch. */
static cl_int
rect_pieces(struct xfer *x, const size_t *buf_origin, const size_t *host_origin,
            const size_t *region, size_t buf_row, size_t buf_slice, size_t host_row,
            size_t host_slice)
{
   size_t n = region[1] * region[2];
   struct piece *p = n == 1 ? &x->one : icd_malloc(n * sizeof(*p));
   if (!p)
      return ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "allocating %zu rows of a rectangular copy", n);
   size_t k = 0;
   for (size_t s = 0; s < region[2]; s++) {
      for (size_t r = 0; r < region[1]; r++, k++) {
         p[k].buf_off = buf_origin[0] + (buf_origin[1] + r) * buf_row +
                        (buf_origin[2] + s) * buf_slice;
         p[k].host_off = host_origin[0] + (host_origin[1] + r) * host_row +
                         (host_origin[2] + s) * host_slice;
         p[k].size = region[0];
      }
   }
   x->pieces = p;
   x->num_pieces = n;
   return CL_SUCCESS;
}

/* A rectangular read or write: its rows as pieces, and the rectangle itself for a direct
 * rectangular copy (xfer_direct). */
static cl_int
rect_init(struct xfer *x, const size_t *buf_origin, const size_t *host_origin,
          const size_t *region, size_t buf_row, size_t buf_slice, size_t host_row,
          size_t host_slice)
{
   x->rect = true;
   x->buf_row = buf_row, x->buf_slice = buf_slice;
   x->host_row = host_row, x->host_slice = host_slice;
   memcpy(x->region, region, sizeof(x->region));
   return rect_pieces(x, buf_origin, host_origin, region, buf_row, buf_slice, host_row,
                      host_slice);
}

/* Copies: rows adjacent on both sides become one piece (a whole-width copy between images
 * or buffers of one pitch is then one copy per slice or fewer: on ROCr each piece is a
 * blit-kernel dispatch). The rows of either side do not overlap the other's (checked by
 * the callers), so neither do the merged runs. */
static void
merge_contiguous(struct xfer *x)
{
   size_t k = 0;
   for (size_t i = 1; i < x->num_pieces; i++) {
      struct piece *a = &x->pieces[k];
      const struct piece *b = &x->pieces[i];
      if (a->buf_off + a->size == b->buf_off && a->host_off + a->size == b->host_off)
         a->size += b->size;
      else
         x->pieces[++k] = *b;
   }
   if (x->num_pieces)
      x->num_pieces = k + 1;
}

/*
 * The async copies of a staged read or write. Every copy is a runtime call, and on ROCr
 * without SDMA engines a blit-kernel dispatch of its own (a 1 KiB row costs as much as a
 * 1 MiB one on the software GPU: the kernel's grid is fixed), so rows adjacent in the buffer
 * become one copy: staging holds each run of rows as the buffer does. A read also bridges a
 * gap between rows (the pitch beyond the region) no longer than the next row or
 * MERGE_GAP_MAX: the extra bytes land in staging and are not copied out. A write never
 * bridges (it would write the bytes between the rows). Each run starts in staging at the
 * buffer offset's residue modulo STAGE_ALIGN, so both sides share their alignment (ROCr's
 * dword copy kernel needs equal addresses mod 4; its byte kernel is the slow one): at most
 * 3 bytes more per run. Rows are in increasing buffer order (rect_pieces; pitches at least
 * the region). Sets staging_size.
 */
#define MERGE_GAP_MAX 4096u
#define STAGE_ALIGN 4u

static cl_int
coalesce_staged(struct xfer *x)
{
   size_t n = x->num_pieces, runs = 0, cursor = 0;
   bool bridge = x->kind == XFER_READ;
   /* Pass 1 assigns staging offsets and counts runs; pass 2 fills them in. */
   for (int pass = 0; pass < 2; pass++) {
      size_t k = 0, run_buf = 0, run_end = 0;
      cursor = 0;
      for (size_t i = 0; i < n; i++) {
         struct piece *p = &x->pieces[i];
         size_t gap = i ? p->buf_off - run_end : 0;
         bool join = i && p->buf_off >= run_end &&
                     (gap == 0 || (bridge && gap <= (p->size > MERGE_GAP_MAX ? p->size
                                                                           : MERGE_GAP_MAX)));
         if (!join) {
            if (i) {
               if (pass)
                  x->copies[k].size = run_end - run_buf;
               cursor += run_end - run_buf;
               k++;
            }
            size_t r = p->buf_off % STAGE_ALIGN;
            cursor = (cursor + STAGE_ALIGN - 1) / STAGE_ALIGN * STAGE_ALIGN + r;
            run_buf = p->buf_off;
            if (pass)
               x->copies[k] = (struct piece){ .buf_off = run_buf, .host_off = cursor };
         }
         p->stage_off = cursor + (p->buf_off - run_buf);
         run_end = p->buf_off + p->size;
      }
      if (n) {
         if (pass)
            x->copies[k].size = run_end - run_buf;
         cursor += run_end - run_buf;
         k++;
      }
      if (!pass) {
         runs = k;
         x->copies = icd_malloc((runs ? runs : 1) * sizeof(*x->copies));
         if (!x->copies)
            return ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "allocating %zu copies of a transfer",
                             runs);
      }
   }
   x->num_copies = runs;
   x->staging_size = cursor ? cursor : 1;
   return CL_SUCCESS;
}

/* Whether a one-piece transfer of device-only memory copies to or from the application's
 * memory directly (see the top of the file); sets x->direct, and x->locked when it locked
 * the memory. A lock the runtime refuses (a range overlapping another lock on ROCr's KFD)
 * leaves the transfer staged. */
static bool
xfer_direct(struct disp_command *cmd, struct xfer *x)
{
   const struct piece *p = &x->pieces[0];
   void *host = (char *)x->user + p->host_off;
   uint64_t va;
   size_t span = p->size;
   if (x->num_pieces != 1) {
      /* A rectangle: its rows' span, from the first row's start (rect_pieces puts the rows
       * in increasing order on both sides) to the last one's end. */
      const struct piece *last = &x->pieces[x->num_pieces - 1];
      struct _cl_device_id *dev = disp_queue_device(cmd->queue);
      if (!x->rect || x->region[0] > UINT32_MAX || x->region[1] > UINT32_MAX ||
          x->region[2] > UINT32_MAX || atomic_load(&dev->rect_copy_refused))
         return false;
      span = last->host_off + last->size - p->host_off;
   }
   x->direct_off = p->host_off;
   if (mem__hsa_host_memory(host, span, &va)) {
      x->direct = (void *)(uintptr_t)va;
      return true;
   }
   if (span < PIN_MIN)
      return false;
   hsa_agent_t gpu = disp_queue_device(cmd->queue)->agent;
   void *agent_ptr = NULL;
   if (rt_hsa()->hsa_amd_memory_lock(host, span, &gpu, 1, &agent_ptr) != HSA_STATUS_SUCCESS)
      return false;
   x->locked = host;
   x->direct = agent_ptr;
   return true;
}

/* Makes a read or write run: on the host for host-visible buffers, else directly between
 * the buffer and the application's memory, else through staging. For a staged write the
 * data is copied into staging now (the application may reuse `ptr` once the command
 * completes, §5.2.2, so a copy taken at enqueue is exact; a direct write reads `ptr` when
 * the copy runs, before completion). */
static cl_int
xfer_prepare_rw(struct disp_command *cmd, struct xfer *x)
{
   cmd->uses_aql = false;
   if (x->mem->host_accessible) {
      cmd->kind = DISP_COMMAND_HOST;
      cmd->complete = xfer_host_complete;
      return CL_SUCCESS;
   }
   if (xfer_direct(cmd, x)) {
      x->rect = x->rect && x->num_pieces > 1;
      cmd->kind = DISP_COMMAND_HSA;
      cmd->submit = xfer_submit;
      return CL_SUCCESS;
   }
   x->rect = false;
   cl_int err = coalesce_staged(x);
   if (err != CL_SUCCESS)
      return err;
   err = mem_staging_alloc(x->mem->device, x->staging_size, &x->staging);
   if (err != CL_SUCCESS) {
      x->staging = NULL;
      return err;
   }
   cmd->kind = DISP_COMMAND_HSA;
   cmd->submit = xfer_submit;
   if (x->kind == XFER_READ) {
      cmd->complete = xfer_host_complete;
   } else {
      for (size_t i = 0; i < x->num_pieces; i++) {
         const struct piece *p = &x->pieces[i];
         memcpy((char *)x->staging + p->stage_off, (char *)x->user + p->host_off, p->size);
      }
   }
   return CL_SUCCESS;
}

/* ---- validation helpers ------------------------------------------------------------- */

static cl_int
check_buffer(struct _cl_command_queue *q, cl_mem handle, struct _cl_mem **out, const char *what)
{
   struct _cl_mem *mem = mem_mem_from_handle(handle);
   if (!mem || !mem_is_buffer(mem))
      return ICD_ERROR(CL_INVALID_MEM_OBJECT, "%s %p is not a buffer", what, (void *)handle);
   if (mem->context != disp_queue_context(q))
      return ICD_ERROR(CL_INVALID_CONTEXT, "%s belongs to another context than the queue",
                       what);
   *out = mem;
   return CL_SUCCESS;
}

static bool
range_ok(size_t offset, size_t size, size_t total)
{
   return size <= total && offset <= total - size;
}

/* §5.2.3 rectangle checks; computes default pitches and checks that the region, with every
 * offset and pitch the caller gave, stays inside `limit` bytes. Every product and sum is
 * overflow-checked: a wrapped end offset would let huge origins or pitches reach memory
 * outside the buffer. */
static cl_int
check_rect(const size_t *origin, const size_t *region, size_t *row, size_t *slice,
           size_t limit, const char *side)
{
   if (!origin || !region)
      return ICD_ERROR(CL_INVALID_VALUE, "%s origin or region is NULL", side);
   if (region[0] == 0 || region[1] == 0 || region[2] == 0)
      return ICD_ERROR(CL_INVALID_VALUE, "a region dimension is 0");
   if (*row == 0)
      *row = region[0];
   else if (*row < region[0])
      return ICD_ERROR(CL_INVALID_VALUE, "%s_row_pitch %zu < region[0] %zu", side, *row,
                       region[0]);
   size_t plane;
   if (__builtin_mul_overflow(region[1], *row, &plane))
      return ICD_ERROR(CL_INVALID_VALUE, "%s region[1] %zu x row pitch %zu overflows", side,
                       region[1], *row);
   if (*slice == 0)
      *slice = plane;
   else if (*slice < plane || *slice % *row)
      return ICD_ERROR(CL_INVALID_VALUE, "%s_slice_pitch %zu is invalid for row pitch %zu",
                       side, *slice, *row);
   /* Last byte + 1: origin[0] + region[0] + (origin[1] + region[1] - 1) * row
    *                + (origin[2] + region[2] - 1) * slice. */
   size_t y, z, ybytes, zbytes, end;
   if (__builtin_add_overflow(origin[1], region[1] - 1, &y) ||
       __builtin_add_overflow(origin[2], region[2] - 1, &z) ||
       __builtin_mul_overflow(y, *row, &ybytes) || __builtin_mul_overflow(z, *slice, &zbytes) ||
       __builtin_add_overflow(origin[0], region[0], &end) ||
       __builtin_add_overflow(end, ybytes, &end) || __builtin_add_overflow(end, zbytes, &end))
      return ICD_ERROR(CL_INVALID_VALUE, "the %s region at origin {%zu, %zu, %zu} with pitches "
                       "%zu/%zu overflows the address range", side, origin[0], origin[1],
                       origin[2], *row, *slice);
   if (end > limit)
      return ICD_ERROR(CL_INVALID_VALUE, "the %s region reaches byte %zu of %zu", side, end,
                       limit);
   return CL_SUCCESS;
}

/* The bytes a host rectangle at `ptr` may span: to the end of the address space, and no
 * more than PTRDIFF_MAX (no C object is larger). */
static size_t
host_limit(const void *ptr)
{
   size_t to_end = (size_t)(UINTPTR_MAX - (uintptr_t)ptr);
   return to_end < PTRDIFF_MAX ? to_end : PTRDIFF_MAX;
}

static cl_int
check_host_read(const struct _cl_mem *mem)
{
   if (mem->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS))
      return ICD_ERROR(CL_INVALID_OPERATION, "buffer created with CL_MEM_HOST_WRITE_ONLY or "
                       "CL_MEM_HOST_NO_ACCESS cannot be read by the host");
   return CL_SUCCESS;
}

static cl_int
check_host_write(const struct _cl_mem *mem)
{
   if (mem->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS))
      return ICD_ERROR(CL_INVALID_OPERATION, "buffer created with CL_MEM_HOST_READ_ONLY or "
                       "CL_MEM_HOST_NO_ACCESS cannot be written by the host");
   return CL_SUCCESS;
}

cl_int
mem__check_host_read(const struct _cl_mem *mem)
{
   return check_host_read(mem);
}

cl_int
mem__check_host_write(const struct _cl_mem *mem)
{
   return check_host_write(mem);
}

/* Enqueues or, on error, frees. */
static cl_int
finish_enqueue(struct disp_command *cmd, cl_int err, cl_event *event, bool blocking)
{
   if (err != CL_SUCCESS) {
      disp_command_abort(cmd);
      return err;
   }
   return disp_command_enqueue(cmd, event, blocking);
}

/* ---- read / write ------------------------------------------------------------------- */

static cl_int
enqueue_rw(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking, bool read,
           const size_t *buf_origin, const size_t *host_origin, const size_t *region,
           size_t buf_row, size_t buf_slice, size_t host_row, size_t host_slice, void *ptr,
           cl_uint num_events, const cl_event *wait_list, cl_event *event, bool rect)
{
   QUEUE_OR_RETURN(q, command_queue);
   struct _cl_mem *mem;
   cl_int err = check_buffer(q, buffer, &mem, "buffer");
   if (err != CL_SUCCESS)
      return err;
   if (!ptr)
      return ICD_ERROR(CL_INVALID_VALUE, "ptr is NULL");
   if (rect) {
      err = check_rect(buf_origin, region, &buf_row, &buf_slice, mem->size, "buffer");
      if (err == CL_SUCCESS)
         err = check_rect(host_origin, region, &host_row, &host_slice, host_limit(ptr),
                          "host");
      if (err != CL_SUCCESS)
         return err;
   } else if (!range_ok(buf_origin[0], region[0], mem->size) || region[0] == 0) {
      return ICD_ERROR(CL_INVALID_VALUE, "offset %zu + size %zu is outside the %zu-byte buffer "
                       "or size is 0", buf_origin[0], region[0], mem->size);
   }
   err = disp_validate_wait_list(disp_queue_context(q), num_events, wait_list);
   if (err != CL_SUCCESS)
      return err;
   err = read ? check_host_read(mem) : check_host_write(mem);
   if (err != CL_SUCCESS)
      return err;

   struct disp_command *cmd;
   struct xfer *x;
   cl_command_type type = read ? (rect ? CL_COMMAND_READ_BUFFER_RECT : CL_COMMAND_READ_BUFFER)
                               : (rect ? CL_COMMAND_WRITE_BUFFER_RECT : CL_COMMAND_WRITE_BUFFER);
   err = xfer_create(q, type, read ? XFER_READ : XFER_WRITE, mem, num_events, wait_list, &cmd,
                     &x);
   if (err != CL_SUCCESS)
      return err;
   x->user = ptr;
   if (rect) {
      err = rect_init(x, buf_origin, host_origin, region, buf_row, buf_slice, host_row,
                      host_slice);
   } else {
      x->one = (struct piece){ .buf_off = buf_origin[0], .host_off = 0, .size = region[0] };
      x->num_pieces = 1;
   }
   if (err == CL_SUCCESS)
      err = xfer_prepare_rw(cmd, x);
   return finish_enqueue(cmd, err, event, blocking);
}

cl_int
mem__enqueue_rect_rw(struct _cl_command_queue *q, struct _cl_mem *mem, cl_command_type type,
                     bool read, bool blocking, const size_t *mem_origin,
                     const size_t *host_origin, const size_t *region, size_t mem_row,
                     size_t mem_slice, size_t host_row, size_t host_slice, void *ptr,
                     bool owned, cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
   struct disp_command *cmd;
   struct xfer *x;
   cl_int err = xfer_create(q, type, read ? XFER_READ : XFER_WRITE, mem, num_events, wait_list,
                            &cmd, &x);
   if (err != CL_SUCCESS) {
      if (owned)
         icd_free(ptr);
      return err;
   }
   if (owned)
      x->owned = ptr;
   x->user = ptr;
   err = rect_init(x, mem_origin, host_origin, region, mem_row, mem_slice, host_row,
                   host_slice);
   if (err == CL_SUCCESS)
      err = xfer_prepare_rw(cmd, x);
   return finish_enqueue(cmd, err, event, blocking);
}

cl_int CL_API_CALL
mem_EnqueueReadBuffer(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_read,
                      size_t offset, size_t size, void *ptr, cl_uint num_events_in_wait_list,
                      const cl_event *event_wait_list, cl_event *event)
{
   size_t origin[3] = { offset, 0, 0 }, region[3] = { size, 1, 1 };
   return enqueue_rw(command_queue, buffer, blocking_read, true, origin, NULL, region, 0, 0, 0,
                     0, ptr, num_events_in_wait_list, event_wait_list, event, false);
}

cl_int CL_API_CALL
mem_EnqueueWriteBuffer(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_write,
                       size_t offset, size_t size, const void *ptr,
                       cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                       cl_event *event)
{
   size_t origin[3] = { offset, 0, 0 }, region[3] = { size, 1, 1 };
   return enqueue_rw(command_queue, buffer, blocking_write, false, origin, NULL, region, 0, 0,
                     0, 0, (void *)ptr, num_events_in_wait_list, event_wait_list, event, false);
}

cl_int CL_API_CALL
mem_EnqueueReadBufferRect(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_read,
                          const size_t *buffer_origin, const size_t *host_origin,
                          const size_t *region, size_t buffer_row_pitch,
                          size_t buffer_slice_pitch, size_t host_row_pitch,
                          size_t host_slice_pitch, void *ptr, cl_uint num_events_in_wait_list,
                          const cl_event *event_wait_list, cl_event *event)
{
   return enqueue_rw(command_queue, buffer, blocking_read, true, buffer_origin, host_origin,
                     region, buffer_row_pitch, buffer_slice_pitch, host_row_pitch,
                     host_slice_pitch, ptr, num_events_in_wait_list, event_wait_list, event,
                     true);
}

cl_int CL_API_CALL
mem_EnqueueWriteBufferRect(cl_command_queue command_queue, cl_mem buffer,
                           cl_bool blocking_write, const size_t *buffer_origin,
                           const size_t *host_origin, const size_t *region,
                           size_t buffer_row_pitch, size_t buffer_slice_pitch,
                           size_t host_row_pitch, size_t host_slice_pitch, const void *ptr,
                           cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                           cl_event *event)
{
   return enqueue_rw(command_queue, buffer, blocking_write, false, buffer_origin, host_origin,
                     region, buffer_row_pitch, buffer_slice_pitch, host_row_pitch,
                     host_slice_pitch, (void *)ptr, num_events_in_wait_list, event_wait_list,
                     event, true);
}

/* ---- copy --------------------------------------------------------------------------- */

/* True when two byte ranges of the same allocation overlap. */
static bool
overlap(const struct _cl_mem *a, size_t a_off, const struct _cl_mem *b, size_t b_off,
        size_t size)
{
   if (mem_root((struct _cl_mem *)a) != mem_root((struct _cl_mem *)b))
      return false;
   uint64_t a0 = a->device_va + a_off, b0 = b->device_va + b_off;
   return a0 < b0 + size && b0 < a0 + size;
}

/* Whether a source row of a rectangular copy overlaps a destination row in one allocation.
 * The rows of each side are disjoint and in increasing order (row pitch >= region[0],
 * slice pitch >= region[1] * row pitch), so one merge pass decides, in linear time. */
static bool
rect_rows_overlap(const struct xfer *x, struct _cl_mem *src, struct _cl_mem *dst, size_t width)
{
   if (mem_root(src) != mem_root(dst))
      return false;
   size_t i = 0, j = 0;
   while (i < x->num_pieces && j < x->num_pieces) {
      uint64_t d0 = dst->device_va + x->pieces[i].buf_off;
      uint64_t s0 = src->device_va + x->pieces[j].host_off;
      if (d0 < s0 + width && s0 < d0 + width)
         return true;
      if (d0 < s0)
         i++;
      else
         j++;
   }
   return false;
}

static cl_int
enqueue_copy(struct _cl_command_queue *q, struct _cl_mem *src, struct _cl_mem *dst,
             cl_command_type type, struct xfer **x_out, struct disp_command **cmd_out,
             cl_uint num_events, const cl_event *wait_list)
{
   cl_int err = xfer_create(q, type, XFER_COPY, dst, num_events, wait_list, cmd_out, x_out);
   if (err != CL_SUCCESS)
      return err;
   (*x_out)->src = src;
   mem_retain_internal(src);
   struct disp_command *cmd = *cmd_out;
   if (src->host_accessible && dst->host_accessible) {
      cmd->kind = DISP_COMMAND_HOST;
      cmd->complete = xfer_host_complete;
   } else {
      cmd->kind = DISP_COMMAND_HSA;
      cmd->submit = xfer_submit;
   }
   return CL_SUCCESS;
}

cl_int CL_API_CALL
mem_EnqueueCopyBuffer(cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_buffer,
                      size_t src_offset, size_t dst_offset, size_t size,
                      cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                      cl_event *event)
{
   QUEUE_OR_RETURN(q, command_queue);
   struct _cl_mem *src, *dst;
   cl_int err = check_buffer(q, src_buffer, &src, "src_buffer");
   if (err == CL_SUCCESS)
      err = check_buffer(q, dst_buffer, &dst, "dst_buffer");
   if (err != CL_SUCCESS)
      return err;
   if (size == 0 || !range_ok(src_offset, size, src->size) ||
       !range_ok(dst_offset, size, dst->size))
      return ICD_ERROR(CL_INVALID_VALUE, "copy of %zu bytes from %zu/%zu to %zu/%zu is out of "
                       "bounds or empty", size, src_offset, src->size, dst_offset, dst->size);
   err = disp_validate_wait_list(disp_queue_context(q), num_events_in_wait_list, event_wait_list);
   if (err != CL_SUCCESS)
      return err;
   if (overlap(src, src_offset, dst, dst_offset, size))
      return ICD_ERROR(CL_MEM_COPY_OVERLAP, "source and destination ranges overlap");
   struct xfer *x;
   struct disp_command *cmd;
   err = enqueue_copy(q, src, dst, CL_COMMAND_COPY_BUFFER, &x, &cmd, num_events_in_wait_list,
                      event_wait_list);
   if (err != CL_SUCCESS)
      return err;
   x->one = (struct piece){ .buf_off = dst_offset, .host_off = src_offset, .size = size };
   x->num_pieces = 1;
   return finish_enqueue(cmd, CL_SUCCESS, event, false);
}

cl_int CL_API_CALL
mem_EnqueueCopyBufferRect(cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_buffer,
                          const size_t *src_origin, const size_t *dst_origin,
                          const size_t *region, size_t src_row_pitch, size_t src_slice_pitch,
                          size_t dst_row_pitch, size_t dst_slice_pitch,
                          cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                          cl_event *event)
{
   QUEUE_OR_RETURN(q, command_queue);
   struct _cl_mem *src, *dst;
   cl_int err = check_buffer(q, src_buffer, &src, "src_buffer");
   if (err == CL_SUCCESS)
      err = check_buffer(q, dst_buffer, &dst, "dst_buffer");
   if (err == CL_SUCCESS)
      err = check_rect(src_origin, region, &src_row_pitch, &src_slice_pitch, src->size, "src");
   if (err == CL_SUCCESS)
      err = check_rect(dst_origin, region, &dst_row_pitch, &dst_slice_pitch, dst->size, "dst");
   if (err != CL_SUCCESS)
      return err;
   if (src == dst && (src_row_pitch != dst_row_pitch || src_slice_pitch != dst_slice_pitch))
      return ICD_ERROR(CL_INVALID_VALUE, "same buffer with different pitches");
   err = disp_validate_wait_list(disp_queue_context(q), num_events_in_wait_list, event_wait_list);
   if (err != CL_SUCCESS)
      return err;
   struct xfer *x;
   struct disp_command *cmd;
   err = enqueue_copy(q, src, dst, CL_COMMAND_COPY_BUFFER_RECT, &x, &cmd,
                      num_events_in_wait_list, event_wait_list);
   if (err != CL_SUCCESS)
      return err;
   err = rect_pieces(x, dst_origin, src_origin, region, dst_row_pitch, dst_slice_pitch,
                     src_row_pitch, src_slice_pitch);
   /* §5.2.3: overlapping rectangles of one buffer (or of sub-buffers of one buffer) are
    * CL_MEM_COPY_OVERLAP. */
   if (err == CL_SUCCESS && rect_rows_overlap(x, src, dst, region[0]))
      err = ICD_ERROR(CL_MEM_COPY_OVERLAP, "source and destination rectangles overlap");
   if (err == CL_SUCCESS)
      merge_contiguous(x);
   return finish_enqueue(cmd, err, event, false);
}

cl_int
mem__enqueue_rect_copy(struct _cl_command_queue *q, struct _cl_mem *src, struct _cl_mem *dst,
                       cl_command_type type, const size_t *src_origin, const size_t *dst_origin,
                       const size_t *region, size_t src_row, size_t src_slice, size_t dst_row,
                       size_t dst_slice, cl_uint num_events, const cl_event *wait_list,
                       cl_event *event)
{
   struct xfer *x;
   struct disp_command *cmd;
   cl_int err = enqueue_copy(q, src, dst, type, &x, &cmd, num_events, wait_list);
   if (err != CL_SUCCESS)
      return err;
   err = rect_pieces(x, dst_origin, src_origin, region, dst_row, dst_slice, src_row, src_slice);
   if (err == CL_SUCCESS)
      merge_contiguous(x);
   return finish_enqueue(cmd, err, event, false);
}

cl_int
mem__enqueue_nop(struct _cl_command_queue *q, struct _cl_mem *mem, cl_command_type type,
                 cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
   struct disp_command *cmd;
   struct xfer *x;
   cl_int err = xfer_create(q, type, XFER_NOP, mem, num_events, wait_list, &cmd, &x);
   if (err != CL_SUCCESS)
      return err;
   cmd->kind = DISP_COMMAND_HOST;
   return finish_enqueue(cmd, CL_SUCCESS, event, false);
}

/* ---- fill --------------------------------------------------------------------------- */

cl_int CL_API_CALL
mem_EnqueueFillBuffer(cl_command_queue command_queue, cl_mem buffer, const void *pattern,
                      size_t pattern_size, size_t offset, size_t size,
                      cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                      cl_event *event)
{
   QUEUE_OR_RETURN(q, command_queue);
   struct _cl_mem *mem;
   cl_int err = check_buffer(q, buffer, &mem, "buffer");
   if (err != CL_SUCCESS)
      return err;
   if (!pattern || pattern_size == 0 || pattern_size > 128 ||
       (pattern_size & (pattern_size - 1)))
      return ICD_ERROR(CL_INVALID_VALUE, "pattern %p of %zu bytes (1, 2, 4, ..., 128 allowed)",
                       pattern, pattern_size);
   if (!range_ok(offset, size, mem->size) || offset % pattern_size || size % pattern_size)
      return ICD_ERROR(CL_INVALID_VALUE, "offset %zu / size %zu out of bounds or not multiples "
                       "of the pattern size %zu", offset, size, pattern_size);
   err = disp_validate_wait_list(disp_queue_context(q), num_events_in_wait_list, event_wait_list);
   if (err != CL_SUCCESS)
      return err;
   struct disp_command *cmd;
   struct xfer *x;
   err = xfer_create(q, CL_COMMAND_FILL_BUFFER, XFER_FILL, mem, num_events_in_wait_list,
                     event_wait_list, &cmd, &x);
   if (err != CL_SUCCESS)
      return err;
   memcpy(x->pattern_buf, pattern, pattern_size);
   x->pattern = x->pattern_buf;
   x->pattern_size = pattern_size;
   x->one = (struct piece){ .buf_off = offset, .host_off = 0, .size = size };
   x->num_pieces = 1;
   if (mem->host_accessible || size == 0) {
      cmd->kind = DISP_COMMAND_HOST;
      cmd->complete = xfer_host_complete;
   } else {
      /* The pattern repeated in staging, copied in one piece. */
      x->staging_size = size;
      err = mem_staging_alloc(mem->device, size, &x->staging);
      if (err == CL_SUCCESS) {
         for (size_t off = 0; off < size; off += pattern_size)
            memcpy((char *)x->staging + off, pattern, pattern_size);
         cmd->kind = DISP_COMMAND_HSA;
         cmd->submit = xfer_submit;
      } else {
         x->staging = NULL;
      }
   }
   return finish_enqueue(cmd, err, event, false);
}

/* ---- map / unmap -------------------------------------------------------------------- */

cl_int CL_API_CALL
mem_EnqueueMigrateMemObjects(cl_command_queue command_queue, cl_uint num_mem_objects,
                             const cl_mem *mem_objects, cl_mem_migration_flags flags,
                             cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                             cl_event *event)
{
   QUEUE_OR_RETURN(q, command_queue);
   if (num_mem_objects == 0 || !mem_objects)
      return ICD_ERROR(CL_INVALID_VALUE, "no memory objects");
   for (cl_uint i = 0; i < num_mem_objects; i++) {
      struct _cl_mem *m = mem_mem_from_handle(mem_objects[i]);
      if (!m)
         return ICD_ERROR(CL_INVALID_MEM_OBJECT, "mem_objects[%u] is not a memory object", i);
      if (m->context != disp_queue_context(q))
         return ICD_ERROR(CL_INVALID_CONTEXT, "mem_objects[%u] belongs to another context", i);
   }
   if (flags & ~(cl_mem_migration_flags)(CL_MIGRATE_MEM_OBJECT_HOST |
                                         CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED))
      return ICD_ERROR(CL_INVALID_VALUE, "unknown migration flags 0x%llx",
                       (unsigned long long)flags);
   cl_int err = disp_validate_wait_list(disp_queue_context(q), num_events_in_wait_list,
                                        event_wait_list);
   if (err != CL_SUCCESS)
      return err;
   /* One device per allocation: the objects already live where the queue's device reads
    * them; the command only orders. */
   struct disp_command *cmd;
   struct xfer *x;
   err = xfer_create(q, CL_COMMAND_MIGRATE_MEM_OBJECTS, XFER_NOP,
                     mem_mem_from_handle(mem_objects[0]), num_events_in_wait_list,
                     event_wait_list, &cmd, &x);
   if (err != CL_SUCCESS)
      return err;
   cmd->kind = DISP_COMMAND_HOST;
   return finish_enqueue(cmd, CL_SUCCESS, event, false);
}

void
mem__map_add(struct _cl_mem *mem, struct mem_map *map)
{
   pthread_mutex_lock(&mem->lock);
   map->next = mem->maps;
   mem->maps = map;
   pthread_mutex_unlock(&mem->lock);
   atomic_fetch_add(&mem->map_count, 1);
}

void
mem__map_drop(struct _cl_mem *mem, struct mem_map *map)
{
   pthread_mutex_lock(&mem->lock);
   for (struct mem_map **link = &mem->maps; *link; link = &(*link)->next) {
      if (*link == map) {
         *link = map->next;
         break;
      }
   }
   pthread_mutex_unlock(&mem->lock);
   atomic_fetch_sub(&mem->map_count, 1);
   if (map->staging)
      mem_staging_free(map->staging_dev, map->staging, map->staging_size);
   icd_free(map);
}

cl_int
mem__enqueue_map(struct _cl_command_queue *q, struct _cl_mem *mem, cl_command_type type,
                 bool blocking_map, cl_map_flags map_flags, size_t offset, size_t size,
                 cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                 cl_event *event, void **out)
{
   cl_int err;
   struct mem_map *map = icd_calloc(1, sizeof(*map));
   if (!map) {
      err = ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "allocating a mapping");
      return err;
   }
   map->offset = offset;
   map->size = size;
   map->flags = map_flags;
   struct disp_command *cmd;
   struct xfer *x;
   err = xfer_create(q, type, XFER_MAP, mem, num_events_in_wait_list, event_wait_list, &cmd,
                     &x);
   if (err != CL_SUCCESS) {
      icd_free(map);
      return err;
   }
   x->map = map;
   if (mem->host_accessible) {
      /* USE_HOST_PTR: the host pointer itself (§5.2.4); other host-visible memory: its
       * own address. */
      map->host_ptr = (char *)host_view(mem) + offset;
      cmd->kind = DISP_COMMAND_HOST;
   } else {
      map->staging_dev = mem->device;
      map->staging_size = size;
      err = mem_staging_alloc(mem->device, size, &map->staging);
      if (err != CL_SUCCESS) {
         map->staging = NULL;
         icd_free(map);
         x->map = NULL;
         disp_command_abort(cmd);
         return err;
      }
      map->host_ptr = map->staging;
      if (map_flags & CL_MAP_WRITE_INVALIDATE_REGION) {
         cmd->kind = DISP_COMMAND_HOST; /* contents undefined: nothing to copy */
      } else {
         x->staging = map->staging;
         x->staging_size = size;
         x->one = (struct piece){ .buf_off = offset, .host_off = 0, .size = size };
         x->num_pieces = 1;
         cmd->kind = DISP_COMMAND_HSA;
         cmd->submit = xfer_submit;
      }
   }
   mem__map_add(mem, map);
   *out = map->host_ptr;
   err = disp_command_enqueue(cmd, event, blocking_map);
   if (err != CL_SUCCESS && blocking_map) {
      cl_int why = err;
      /* The command ended (failed): the application gets no pointer, so the mapping it
       * would have to unmap goes (the object's map count with it). */
      mem__map_drop(mem, map);
      *out = NULL;
      if (why == CL_INVALID_OPERATION) /* refused (an event callback), not run */
         return why;
      /* §5.5.5: a blocking map whose wait-list event failed; the in-order predecessor
       * counts as one, as for the blocking reads. */
      return ICD_ERROR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
                       "the blocking map failed: a command it waited for failed");
   }
   if (err != CL_SUCCESS)
      err = ICD_ERROR(CL_MAP_FAILURE, "the map command failed");
   return err;
}

void *CL_API_CALL
mem_EnqueueMapBuffer(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_map,
                     cl_map_flags map_flags, size_t offset, size_t size,
                     cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                     cl_event *event, cl_int *errcode_ret)
{
   cl_int err;
   void *result = NULL;
   struct _cl_command_queue *q = disp_queue_from_handle(command_queue);
   struct _cl_mem *mem = NULL;
   if (!q) {
      err = ICD_ERROR(CL_INVALID_COMMAND_QUEUE, "command_queue %p is not an hsacl queue",
                      (void *)command_queue);
      goto out;
   }
   err = check_buffer(q, buffer, &mem, "buffer");
   if (err != CL_SUCCESS)
      goto out;
   if (!range_ok(offset, size, mem->size) || size == 0) {
      err = ICD_ERROR(CL_INVALID_VALUE, "map of %zu bytes at %zu outside the %zu-byte buffer",
                      size, offset, mem->size);
      goto out;
   }
   const cl_map_flags known = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
   if ((map_flags & ~known) ||
       ((map_flags & CL_MAP_WRITE_INVALIDATE_REGION) && (map_flags & (CL_MAP_READ | CL_MAP_WRITE)))) {
      err = ICD_ERROR(CL_INVALID_VALUE, "invalid map_flags 0x%llx",
                      (unsigned long long)map_flags);
      goto out;
   }
   err = disp_validate_wait_list(disp_queue_context(q), num_events_in_wait_list, event_wait_list);
   if (err != CL_SUCCESS)
      goto out;
   if ((map_flags & CL_MAP_READ) && (err = check_host_read(mem)) != CL_SUCCESS)
      goto out;
   if ((map_flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) &&
       (err = check_host_write(mem)) != CL_SUCCESS)
      goto out;

   err = mem__enqueue_map(q, mem, CL_COMMAND_MAP_BUFFER, blocking_map, map_flags, offset, size,
                          num_events_in_wait_list, event_wait_list, event, &result);
out:
   icd_set_errcode(errcode_ret, err);
   return err == CL_SUCCESS ? result : NULL;
}

cl_int CL_API_CALL
mem_EnqueueUnmapMemObject(cl_command_queue command_queue, cl_mem memobj, void *mapped_ptr,
                          cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                          cl_event *event)
{
   QUEUE_OR_RETURN(q, command_queue);
   struct _cl_mem *mem = mem_mem_from_handle(memobj);
   /* Its errors: "not a valid memory object or is a pipe object" (a pipe is never mapped). */
   if (!mem || mem_is_pipe(mem))
      return ICD_ERROR(CL_INVALID_MEM_OBJECT, "memobj %p is not a memory object or is a pipe",
                       (void *)memobj);
   if (mem->context != disp_queue_context(q))
      return ICD_ERROR(CL_INVALID_CONTEXT, "memobj belongs to another context");
   cl_int err = disp_validate_wait_list(disp_queue_context(q), num_events_in_wait_list,
                                        event_wait_list);
   if (err != CL_SUCCESS)
      return err;
   /* Take the mapping off the object: each map is unmapped once. */
   pthread_mutex_lock(&mem->lock);
   struct mem_map *map = NULL;
   for (struct mem_map **link = &mem->maps; *link; link = &(*link)->next) {
      if ((*link)->host_ptr == mapped_ptr) {
         map = *link;
         *link = map->next;
         break;
      }
   }
   pthread_mutex_unlock(&mem->lock);
   if (!map)
      return ICD_ERROR(CL_INVALID_VALUE, "mapped_ptr %p is not a live mapping of memobj",
                       mapped_ptr);
   if (map->rect) {
      /* A USE_HOST_PTR image's mapping: written regions go back to the device copy. */
      const struct mem_image *im = mem->image;
      if (map->flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION))
         err = mem__enqueue_rect_rw(q, mem, CL_COMMAND_UNMAP_MEM_OBJECT, false, false,
                                    map->rect_origin, map->rect_origin, map->rect_region,
                                    im->row_pitch, im->slice_pitch, im->host_row_pitch,
                                    im->host_slice_pitch, mem->host_ptr, false,
                                    num_events_in_wait_list, event_wait_list, event);
      else
         err = mem__enqueue_nop(q, mem, CL_COMMAND_UNMAP_MEM_OBJECT, num_events_in_wait_list,
                                event_wait_list, event);
      if (err != CL_SUCCESS) {
         pthread_mutex_lock(&mem->lock);
         map->next = mem->maps;
         mem->maps = map;
         pthread_mutex_unlock(&mem->lock);
         return err;
      }
      atomic_fetch_sub(&mem->map_count, 1);
      icd_free(map);
      return CL_SUCCESS;
   }
   struct disp_command *cmd;
   struct xfer *x;
   err = xfer_create(q, CL_COMMAND_UNMAP_MEM_OBJECT, XFER_UNMAP, mem, num_events_in_wait_list,
                     event_wait_list, &cmd, &x);
   if (err != CL_SUCCESS) {
      pthread_mutex_lock(&mem->lock);
      map->next = mem->maps;
      mem->maps = map;
      pthread_mutex_unlock(&mem->lock);
      return err;
   }
   x->map = map;
   atomic_fetch_sub(&mem->map_count, 1);
   if (map->staging && (map->flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION))) {
      /* Written through staging: copy it back. xfer_submit reads x->staging; the map
       * owns it and xfer_release frees it with the map. */
      x->staging = map->staging;
      x->one = (struct piece){ .buf_off = map->offset, .host_off = 0, .size = map->size };
      x->num_pieces = 1;
      cmd->kind = DISP_COMMAND_HSA;
      cmd->submit = xfer_submit;
   } else {
      cmd->kind = DISP_COMMAND_HOST;
   }
   return disp_command_enqueue(cmd, event, false);
}
