/*
 * sim/sim_copy.c — the copy engine: hsa_amd_memory_async_copy and _rect run on a worker
 * thread once every dependency signal reads 0, then decrement the completion signal by one
 * (hsa_ext_amd.h). Copy profiling (hsa_amd_profiling_async_copy_enable /
 * _get_async_copy_time) records start/end in the system timestamp domain on the
 * completion signal.
 *
 * Both ranges are translated to agent views when the copy is submitted, so copies reach
 * device memory the host cannot touch; the application must keep them allocated until the
 * completion signal fires.
 *
 * A linear copy of at most COPY_INLINE_MAX bytes whose dependencies are all met when it is
 * submitted runs on the submitting thread before the call returns (HSA lets a copy complete
 * at any time after its submission): handing it to the worker cost two thread switches,
 * more than the copy itself. Larger copies stay on the worker so the caller can overlap
 * them.
 */
#include <stdlib.h>
#include <string.h>

#include "sim_priv.h"

#define COPY_INLINE_MAX (256u << 10)

static sim_worker copy_worker = SIM_WORKER_INIT("copy");
static _Atomic bool copy_profiling;

typedef struct copy_job {
   uint8_t *dst, *src;
   uint64_t size;            /* linear copy: bytes; rect copy: row bytes */
   uint64_t rows, layers;    /* rect copy */
   uint64_t dst_pitch, dst_slice, src_pitch, src_slice;
   uint64_t dst_extent, src_extent; /* bytes from dst/src to one past the last byte touched */
   hsa_signal_t completion;
   sim_job job; /* last: flexible deps */
} copy_job;

static bool
copy_run(sim_job *job)
{
   copy_job *c = (copy_job *)((char *)job - offsetof(copy_job, job));
   uint64_t start = sim__timestamp();
   if (!sim__host_range_mapped(c->dst, c->dst_extent) ||
       !sim__host_range_mapped(c->src, c->src_extent)) {
      /* A memory violation, as the GPU's copy engine takes it: the access is dropped (no
       * byte is written, nothing outside the ranges is read) and the fault is reported; the
       * completion signal still completes so that dependants are not stranded. */
      SIM_LOGE("copy", "memory violation: async copy of %llu bytes from %p to %p touches "
               "unmapped memory; the copy is dropped",
               (unsigned long long)(c->rows ? c->size * c->rows * c->layers : c->size),
               (void *)c->src, (void *)c->dst);
   } else if (c->rows == 0) {
      memmove(c->dst, c->src, c->size);
   } else {
      for (uint64_t z = 0; z < c->layers; z++) {
         for (uint64_t y = 0; y < c->rows; y++)
            memmove(c->dst + z * c->dst_slice + y * c->dst_pitch,
                    c->src + z * c->src_slice + y * c->src_pitch, c->size);
      }
   }
   uint64_t end = sim__timestamp();
   sim_signal *s = sim__signal_get(c->completion);
   if (s) {
      if (atomic_load(&copy_profiling))
         sim__signal_set_times(s, start, end);
      sim__signal_sub(s, 1);
   }
   return false;
}

static void
copy_destroy(sim_job *job)
{
   free((char *)job - offsetof(copy_job, job));
}

static hsa_status_t
check_deps(uint32_t num_dep_signals, const hsa_signal_t *dep_signals)
{
   if (num_dep_signals > 0 && !dep_signals)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   for (uint32_t i = 0; i < num_dep_signals; i++) {
      if (!sim__signal_get(dep_signals[i]))
         return HSA_STATUS_ERROR_INVALID_SIGNAL;
   }
   return HSA_STATUS_SUCCESS;
}

/* Whether every dependency (condition EQ 0, as copy_job_create sets) is met now. */
static bool
deps_met(uint32_t num_dep_signals, const hsa_signal_t *dep_signals)
{
   for (uint32_t i = 0; i < num_dep_signals; i++) {
      sim_signal *s = sim__signal_get(dep_signals[i]);
      if (s && sim__signal_load(s) != 0)
         return false;
   }
   return true;
}

static copy_job *
copy_job_create(uint32_t num_dep_signals, const hsa_signal_t *dep_signals,
                hsa_signal_t completion_signal)
{
   copy_job *c = calloc(1, sizeof(*c) + num_dep_signals * sizeof(hsa_signal_t));
   if (!c)
      return NULL;
   c->completion = completion_signal;
   c->job.run = copy_run;
   c->job.destroy = copy_destroy;
   c->job.cond = HSA_SIGNAL_CONDITION_EQ;
   c->job.value = 0;
   c->job.dep_count = num_dep_signals;
   if (num_dep_signals)
      memcpy(c->job.deps, dep_signals, num_dep_signals * sizeof(hsa_signal_t));
   return c;
}

SIM_EXPORT hsa_status_t
hsa_amd_memory_async_copy(void *dst, hsa_agent_t dst_agent, const void *src,
                          hsa_agent_t src_agent, size_t size, uint32_t num_dep_signals,
                          const hsa_signal_t *dep_signals, hsa_signal_t completion_signal)
{
   SIM_CHECK_INIT();
   enum sim_agent_kind kind;
   if (!sim__agent_from_handle(dst_agent, &kind) || !sim__agent_from_handle(src_agent, &kind))
      return HSA_STATUS_ERROR_INVALID_AGENT;
   if (!dst || !src)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   if (!sim__signal_get(completion_signal))
      return HSA_STATUS_ERROR_INVALID_SIGNAL;
   hsa_status_t st = check_deps(num_dep_signals, dep_signals);
   if (st != HSA_STATUS_SUCCESS)
      return st;
   uint8_t *d, *s;
   st = sim__mem_translate(dst, size, &d);
   if (st != HSA_STATUS_SUCCESS)
      return st;
   st = sim__mem_translate(src, size, &s);
   if (st != HSA_STATUS_SUCCESS)
      return st;
   if (size <= COPY_INLINE_MAX && deps_met(num_dep_signals, dep_signals)) {
      copy_job now = { .dst = d, .src = s, .size = size, .dst_extent = size,
                       .src_extent = size, .completion = completion_signal };
      copy_run(&now.job);
      return HSA_STATUS_SUCCESS;
   }
   copy_job *c = copy_job_create(num_dep_signals, dep_signals, completion_signal);
   if (!c)
      return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
   c->dst = d;
   c->src = s;
   c->size = size;
   c->dst_extent = c->src_extent = size;
   st = sim__worker_submit(&copy_worker, &c->job);
   if (st != HSA_STATUS_SUCCESS)
      free(c);
   return st;
}

/* Bytes from the first to one past the last byte a pitched rectangle touches, and the offset
 * of its first byte from the base; false when either overflows 64 bits. */
static bool
rect_bounds(const hsa_pitched_ptr_t *p, const hsa_dim3_t *offset, const hsa_dim3_t *range,
            uint64_t *first, uint64_t *extent)
{
   uint64_t z, y, e;
   if (__builtin_mul_overflow((uint64_t)offset->z, (uint64_t)p->slice, &z) ||
       __builtin_mul_overflow((uint64_t)offset->y, (uint64_t)p->pitch, &y) ||
       __builtin_add_overflow(z, y, first) || __builtin_add_overflow(*first, offset->x, first))
      return false;
   if (__builtin_mul_overflow((uint64_t)(range->z - 1), (uint64_t)p->slice, &z) ||
       __builtin_mul_overflow((uint64_t)(range->y - 1), (uint64_t)p->pitch, &y) ||
       __builtin_add_overflow(z, y, &e) || __builtin_add_overflow(e, range->x, extent))
      return false;
   return *first <= UINT64_MAX - (uint64_t)(uintptr_t)p->base;
}

SIM_EXPORT hsa_status_t
hsa_amd_memory_async_copy_rect(const hsa_pitched_ptr_t *dst, const hsa_dim3_t *dst_offset,
                               const hsa_pitched_ptr_t *src, const hsa_dim3_t *src_offset,
                               const hsa_dim3_t *range, hsa_agent_t copy_agent,
                               hsa_amd_copy_direction_t dir, uint32_t num_dep_signals,
                               const hsa_signal_t *dep_signals, hsa_signal_t completion_signal)
{
   SIM_CHECK_INIT();
   enum sim_agent_kind kind;
   if (!sim__agent_from_handle(copy_agent, &kind))
      return HSA_STATUS_ERROR_INVALID_AGENT;
   if (kind != SIM_AGENT_GPU)
      return HSA_STATUS_ERROR_INVALID_AGENT;
   if (!dst || !src || !dst_offset || !src_offset || !range || !dst->base || !src->base ||
       dir < hsaHostToHost || dir > hsaDeviceToDevice)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   uint64_t dst_plane, src_plane;
   if (range->x == 0 || range->y == 0 || range->z == 0 || dst->pitch < range->x ||
       src->pitch < range->x ||
       __builtin_mul_overflow((uint64_t)dst->pitch, (uint64_t)range->y, &dst_plane) ||
       __builtin_mul_overflow((uint64_t)src->pitch, (uint64_t)range->y, &src_plane) ||
       (range->z > 1 && (dst->slice < dst_plane || src->slice < src_plane)))
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   if (!sim__signal_get(completion_signal))
      return HSA_STATUS_ERROR_INVALID_SIGNAL;
   hsa_status_t st = check_deps(num_dep_signals, dep_signals);
   if (st != HSA_STATUS_SUCCESS)
      return st;
   uint64_t dst_off, dst_extent, src_off, src_extent;
   if (!rect_bounds(dst, dst_offset, range, &dst_off, &dst_extent) ||
       !rect_bounds(src, src_offset, range, &src_off, &src_extent))
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   uint8_t *dst_first = (uint8_t *)(uintptr_t)((uint64_t)(uintptr_t)dst->base + dst_off);
   const uint8_t *src_first =
      (const uint8_t *)(uintptr_t)((uint64_t)(uintptr_t)src->base + src_off);
   uint8_t *d, *s;
   st = sim__mem_translate(dst_first, dst_extent, &d);
   if (st != HSA_STATUS_SUCCESS)
      return st;
   st = sim__mem_translate(src_first, src_extent, &s);
   if (st != HSA_STATUS_SUCCESS)
      return st;
   copy_job *c = copy_job_create(num_dep_signals, dep_signals, completion_signal);
   if (!c)
      return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
   c->dst = d;
   c->src = s;
   c->size = range->x;
   c->rows = range->y;
   c->layers = range->z;
   c->dst_pitch = dst->pitch;
   c->dst_slice = dst->slice;
   c->src_pitch = src->pitch;
   c->src_slice = src->slice;
   c->dst_extent = dst_extent;
   c->src_extent = src_extent;
   st = sim__worker_submit(&copy_worker, &c->job);
   if (st != HSA_STATUS_SUCCESS)
      free(c);
   return st;
}

SIM_EXPORT hsa_status_t
hsa_amd_profiling_async_copy_enable(bool enable)
{
   SIM_CHECK_INIT();
   atomic_store(&copy_profiling, enable);
   return HSA_STATUS_SUCCESS;
}

SIM_EXPORT hsa_status_t
hsa_amd_profiling_get_async_copy_time(hsa_signal_t signal,
                                      hsa_amd_profiling_async_copy_time_t *time)
{
   SIM_CHECK_INIT();
   sim_signal *s = sim__signal_get(signal);
   if (!s)
      return HSA_STATUS_ERROR_INVALID_SIGNAL;
   if (!time)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   sim__signal_get_times(s, &time->start, &time->end);
   return HSA_STATUS_SUCCESS;
}

void
sim__copy_finish(void)
{
   sim__worker_finish(&copy_worker);
   atomic_store(&copy_profiling, false);
}
