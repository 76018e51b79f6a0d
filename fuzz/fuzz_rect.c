/*
 * fuzz/fuzz_rect.c — the rectangle arithmetic of the transfer API (memory/mem_transfer.c):
 * clEnqueueReadBufferRect, clEnqueueWriteBufferRect and clEnqueueCopyBufferRect with origins,
 * regions and pitches from the fuzzer, on small buffers.
 *
 * Buffers, made anew for every input: A (`align` + 1..1024 bytes), B (1..1024 bytes) and S,
 * a sub-buffer of A at offset `align` (CL_DEVICE_MEM_BASE_ADDR_ALIGN), all device memory,
 * CL_MEM_ALLOC_HOST_PTR, or CL_MEM_USE_HOST_PTR over exactly sized malloc'd memory (so an
 * access outside them is a heap-buffer-overflow). Host memory of a read or write is exactly
 * as large as the host rectangle needs.
 * Oracle: a reference model of §5.2.3's rules (region elements non-zero; a non-zero row pitch
 * >= region[0]; a non-zero slice pitch >= region[1] x row pitch and a multiple of it; the
 * rectangle inside the buffer, computed without wrapping; for a copy within one buffer equal
 * pitches and no overlapping rows, CL_MEM_COPY_OVERLAP otherwise). The call must succeed
 * exactly when the model says so, and a successful call must leave every buffer and the
 * host memory exactly as the model's shadow copies.
 *
 * Input (little-endian; missing bytes read as 0): op byte (read, write, copy), buffer byte
 * (low nibble: the buffer or the copy's source, high nibble: the copy's destination), flags
 * byte (memory kind), three 16-bit sizes (A, B, S), then 15 values: buffer/source origin[3],
 * host/destination origin[3], region[3], four pitches. A value is a 16-bit word: below
 * 0xc000 its low 10 bits, else the next 8 bytes verbatim (huge values).
 */
#include "fuzz_cl.h"

#include <stdint.h>
#include <string.h>

static struct fuzz_cl cl;
static size_t align; /* bytes */
static unsigned generation;

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
   fuzz_default_env();
   fuzz_cl_init(&cl);
   cl_uint bits = 0;
   if (CL(clGetDeviceInfo)(cl.device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof(bits), &bits,
                           NULL) != CL_SUCCESS || bits < 8)
      abort();
   align = bits / 8;
   return 0;
}

struct reader {
   const uint8_t *p;
   size_t n;
};

static uint64_t
take(struct reader *r, unsigned bytes)
{
   uint64_t v = 0;
   for (unsigned i = 0; i < bytes; i++) {
      uint64_t b = r->n ? (r->n--, *r->p++) : 0;
      v |= b << (8 * i);
   }
   return v;
}

static size_t
value(struct reader *r)
{
   uint64_t w = take(r, 2);
   return w < 0xc000 ? (size_t)(w & 0x3ff) : (size_t)take(r, 8);
}

/* The model of one side of a rectangle: default pitches, validity, and the end offset. */
struct side {
   size_t origin[3], row, slice, end;
   bool ok;
};

static void
model_side(struct side *s, const size_t *region, size_t limit)
{
   size_t plane, y, z, yb, zb, end;
   s->ok = false;
   if (!region[0] || !region[1] || !region[2])
      return;
   if (!s->row)
      s->row = region[0];
   else if (s->row < region[0])
      return;
   if (__builtin_mul_overflow(region[1], s->row, &plane))
      return;
   if (!s->slice)
      s->slice = plane;
   else if (s->slice < plane || s->slice % s->row)
      return;
   if (__builtin_add_overflow(s->origin[1], region[1] - 1, &y) ||
       __builtin_add_overflow(s->origin[2], region[2] - 1, &z) ||
       __builtin_mul_overflow(y, s->row, &yb) || __builtin_mul_overflow(z, s->slice, &zb) ||
       __builtin_add_overflow(s->origin[0], region[0], &end) ||
       __builtin_add_overflow(end, yb, &end) || __builtin_add_overflow(end, zb, &end))
      return;
   s->end = end;
   s->ok = end <= limit;
}

static size_t
row_offset(const struct side *s, size_t y, size_t z)
{
   return s->origin[0] + (s->origin[1] + y) * s->row + (s->origin[2] + z) * s->slice;
}

struct buf {
   cl_mem mem;
   size_t size, base;   /* base: offset in its root's shadow */
   int root;            /* 0: A, 1: B */
   unsigned char *host; /* CL_MEM_USE_HOST_PTR memory */
};

static void
fill(unsigned char *p, size_t n, unsigned seed)
{
   for (size_t i = 0; i < n; i++)
      p[i] = (unsigned char)(i * 13 + seed * 7 + (i >> 8));
}

static bool
read_back(const struct buf *b, const unsigned char *want)
{
   unsigned char *got = malloc(b->size);
   if (!got)
      return true;
   if (CL(clEnqueueReadBuffer)(cl.queue, b->mem, CL_TRUE, 0, b->size, got, 0, NULL, NULL) !=
       CL_SUCCESS)
      abort();
   bool same = !memcmp(got, want, b->size);
   free(got);
   return same;
}

static void
report(const char *what, int op, const size_t *region, const struct side *a,
       const struct side *b, cl_int err)
{
   fprintf(stderr,
           "fuzz_rect: %s: op %d region {%zu, %zu, %zu} side0 origin {%zu, %zu, %zu} "
           "pitches %zu/%zu ok %d, side1 origin {%zu, %zu, %zu} pitches %zu/%zu ok %d: %d\n",
           what, op, region[0], region[1], region[2], a->origin[0], a->origin[1],
           a->origin[2], a->row, a->slice, a->ok, b->origin[0], b->origin[1], b->origin[2],
           b->row, b->slice, b->ok, err);
   abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
   struct reader r = { data, size };
   int op = (int)(take(&r, 1) % 3);
   unsigned which = (unsigned)take(&r, 1);
   unsigned kind = (unsigned)take(&r, 1) % 3;
   size_t a_size = align + take(&r, 2) % 1024 + 1, b_size = take(&r, 2) % 1024 + 1;
   size_t s_size = take(&r, 2) % (a_size - align) + 1;
   struct side s0 = { 0 }, s1 = { 0 };
   size_t region[3];
   for (int i = 0; i < 3; i++)
      s0.origin[i] = value(&r);
   for (int i = 0; i < 3; i++)
      s1.origin[i] = value(&r);
   for (int i = 0; i < 3; i++)
      region[i] = value(&r);
   s0.row = value(&r);
   s0.slice = value(&r);
   s1.row = value(&r);
   s1.slice = value(&r);
   unsigned seed = ++generation;
   const struct side raw0 = s0, raw1 = s1; /* the pitches as given (0: default) */

   /* The roots' shadows and the buffers. */
   unsigned char *shadow[2] = { malloc(a_size), malloc(b_size) };
   struct buf bufs[3] = {
      { .size = a_size, .root = 0 },
      { .size = b_size, .root = 1 },
      { .size = s_size, .root = 0, .base = align },
   };
   cl_mem_flags flags = kind == 0 ? 0 : kind == 1 ? CL_MEM_ALLOC_HOST_PTR : CL_MEM_USE_HOST_PTR;
   cl_int err = CL_SUCCESS;
   if (!shadow[0] || !shadow[1])
      goto out;
   fill(shadow[0], a_size, seed);
   fill(shadow[1], b_size, seed + 1);
   for (int i = 0; i < 2; i++) {
      bufs[i].host = kind == 2 ? malloc(bufs[i].size) : NULL;
      if (bufs[i].host)
         memcpy(bufs[i].host, shadow[i], bufs[i].size);
      bufs[i].mem = CL(clCreateBuffer)(cl.context, flags | (kind == 2 ? 0 : CL_MEM_COPY_HOST_PTR),
                                       bufs[i].size, kind == 2 ? bufs[i].host : shadow[i], &err);
      if (err != CL_SUCCESS)
         abort();
   }
   cl_buffer_region sub = { align, s_size };
   bufs[2].mem = CL(clCreateSubBuffer)(bufs[0].mem, 0, CL_BUFFER_CREATE_TYPE_REGION, &sub, &err);
   if (err != CL_SUCCESS)
      abort();

   struct buf *b0 = &bufs[(which & 15) % 3], *b1 = &bufs[(which >> 4) % 3];
   model_side(&s0, region, b0->size);
   bool ok;
   if (op < 2) {
      /* s1 is the host side: exactly the bytes it spans (1 when it is invalid). */
      model_side(&s1, region, SIZE_MAX);
      size_t host_size = s1.ok ? s1.end : 1;
      if (host_size > (4u << 20))
         goto out;
      unsigned char *host = malloc(host_size), *want = malloc(host_size);
      if (!host || !want) {
         free(host);
         free(want);
         goto out;
      }
      fill(host, host_size, seed + 2);
      memcpy(want, host, host_size);
      ok = s0.ok && s1.ok;
      if (op == 0)
         err = CL(clEnqueueReadBufferRect)(cl.queue, b0->mem, CL_TRUE, s0.origin, s1.origin,
                                           region, raw0.row, raw0.slice, raw1.row, raw1.slice, host,
                                           0, NULL, NULL);
      else
         err = CL(clEnqueueWriteBufferRect)(cl.queue, b0->mem, CL_TRUE, s0.origin, s1.origin,
                                            region, raw0.row, raw0.slice, raw1.row, raw1.slice, host,
                                            0, NULL, NULL);
      if ((err == CL_SUCCESS) != ok || (err != CL_SUCCESS && err != CL_INVALID_VALUE))
         report(op ? "write" : "read", op, region, &s0, &s1, err);
      if (ok) {
         unsigned char *sh = shadow[b0->root] + b0->base;
         for (size_t z = 0; z < region[2]; z++) {
            for (size_t y = 0; y < region[1]; y++) {
               if (op == 0)
                  memcpy(want + row_offset(&s1, y, z), sh + row_offset(&s0, y, z), region[0]);
               else
                  memcpy(sh + row_offset(&s0, y, z), host + row_offset(&s1, y, z), region[0]);
            }
         }
         if (op == 0 && memcmp(host, want, host_size))
            report("read: host memory differs from the model", op, region, &s0, &s1, err);
      }
      free(host);
      free(want);
   } else {
      model_side(&s1, region, b1->size);
      ok = s0.ok && s1.ok;
      bool same = b0 == b1, overlap = false;
      if (ok && same && (s0.row != s1.row || s0.slice != s1.slice))
         ok = false; /* same buffer, different pitches: CL_INVALID_VALUE */
      else if (ok && b0->root == b1->root) {
         /* Rows of one root overlapping: a byte map of the root. */
         unsigned char *map = calloc(b0->root ? b_size : a_size, 1);
         if (!map)
            goto out;
         for (size_t z = 0; z < region[2]; z++)
            for (size_t y = 0; y < region[1]; y++)
               memset(map + b1->base + row_offset(&s1, y, z), 1, region[0]);
         for (size_t z = 0; z < region[2] && !overlap; z++)
            for (size_t y = 0; y < region[1] && !overlap; y++)
               overlap = memchr(map + b0->base + row_offset(&s0, y, z), 1, region[0]) != NULL;
         free(map);
      }
      err = CL(clEnqueueCopyBufferRect)(cl.queue, b0->mem, b1->mem, s0.origin, s1.origin,
                                        region, raw0.row, raw0.slice, raw1.row, raw1.slice, 0,
                                        NULL, NULL);
      if (err == CL_SUCCESS)
         err = CL(clFinish)(cl.queue);
      cl_int want = !ok ? CL_INVALID_VALUE : overlap ? CL_MEM_COPY_OVERLAP : CL_SUCCESS;
      if (err != want)
         report("copy", op, region, &s0, &s1, err);
      if (err == CL_SUCCESS) {
         for (size_t z = 0; z < region[2]; z++)
            for (size_t y = 0; y < region[1]; y++)
               memcpy(shadow[b1->root] + b1->base + row_offset(&s1, y, z),
                      shadow[b0->root] + b0->base + row_offset(&s0, y, z), region[0]);
      }
   }
   if (!read_back(&bufs[0], shadow[0]) || !read_back(&bufs[1], shadow[1]))
      report("buffers differ from the model", op, region, &s0, &s1, err);

out:
   for (int i = 2; i >= 0; i--)
      if (bufs[i].mem)
         CL(clReleaseMemObject)(bufs[i].mem);
   CL(clFinish)(cl.queue);
   for (int i = 0; i < 2; i++)
      free(bufs[i].host);
   free(shadow[0]);
   free(shadow[1]);
   return 0;
}
