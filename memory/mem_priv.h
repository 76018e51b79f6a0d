/*
 * memory/mem_priv.h — what the files of memory/ share: the context's agents for access
 * grants (mem_staging.c), buffer creation and host-to-device copies (mem_buffer.c).
 */
#ifndef MEM_PRIV_H
#define MEM_PRIV_H

#include "memory/mem.h"

/* The GPU agents of the context's devices, for access grants. At most MEM_MAX_AGENTS. */
#define MEM_MAX_AGENTS 16
uint32_t mem__context_agents(const struct _cl_context *ctx, hsa_agent_t *agents);

/*
 * Returns a new buffer with one API reference (mem_buffer.c; also the storage of a pipe,
 * mem_pipe.c). Inputs validated by the entry point: `flags` consistent, `dev` one of the
 * context's devices whose allocation limit fits `size`, host_ptr present exactly when
 * USE/COPY_HOST_PTR is set, `svm_host_ptr` true when host_ptr lies in an SVM allocation of
 * the context. `props` is copied.
 */
cl_int mem__buffer_create(struct _cl_context *ctx, struct _cl_device_id *dev, cl_mem_flags flags,
                          size_t size, void *host_ptr, bool svm_host_ptr,
                          const cl_mem_properties *props, size_t num_props, struct _cl_mem **out);

/* Copies `size` bytes of host memory into device-only memory of `dev` through staging
 * memory; the next kernel acquires at system scope (disp_fence_host_wrote). */
cl_int mem__copy_to_device(struct _cl_device_id *dev, uint64_t device_va, const void *src,
                           size_t size);

/*
 * True when [host_ptr, +size) lies inside one HSA allocation the host can reach (a mapped
 * CL_MEM_ALLOC_HOST_PTR buffer, staging memory, host-visible device memory): its GPU
 * address goes to *device_va. Such memory must not be locked again.
 */
bool mem__hsa_host_memory(const void *host_ptr, size_t size, uint64_t *device_va);

/* ---- the allocation registry: SVM and USM (mem_svm.c) ---- */

/* What an entry of the registry is. */
enum mem_alloc_kind {
   MEM_ALLOC_SVM = 1,    /* clSVMAlloc, coarse- or fine-grained */
   MEM_ALLOC_USM_HOST,   /* clHostMemAllocINTEL */
   MEM_ALLOC_USM_DEVICE, /* clDeviceMemAllocINTEL */
   MEM_ALLOC_USM_SHARED, /* clSharedMemAllocINTEL */
};

struct mem_alloc_info {
   void *base;
   size_t size;
   enum mem_alloc_kind kind;
   struct _cl_device_id *device; /* USM: the associated device, or NULL */
   cl_bitfield flags;            /* USM: CL_MEM_ALLOC_FLAGS_INTEL */
};

/* The allocation of `ctx` that `ptr` points into (interior pointers too); false if none. */
bool mem__alloc_lookup(struct _cl_context *ctx, const void *ptr, struct mem_alloc_info *out);

/*
 * Returns a new allocation of `ctx` in *out, registered as `kind` (associated device
 * `assoc`, allocation flags `flags`). Fine-grained: `dev`'s system_pool with every GPU of
 * the context granted access; else `dev`'s device_pool with the CPU agent and the context's
 * GPUs granted access (the system_pool when the runtime refuses the CPU), counted in
 * `dev`'s free memory. `alignment` a power of two up to 2 MiB; validated by the caller.
 */
cl_int mem__alloc_create(struct _cl_context *ctx, struct _cl_device_id *dev, size_t size,
                         size_t alignment, bool fine, enum mem_alloc_kind kind,
                         struct _cl_device_id *assoc, cl_bitfield flags, void **out);

/* Frees the allocation of `ctx` based at `ptr` if it is of the family `usm` says (USM
 * kinds, or SVM); CL_INVALID_VALUE otherwise. */
cl_int mem__alloc_free(struct _cl_context *ctx, void *ptr, bool usm);

/* ---- host-run commands over allocations (mem_svm_enqueue.c) ---- */

/* CL_INVALID_CONTEXT when a valid event of the wait list is of another context than `q`. */
cl_int mem__check_wait_list_context(const struct _cl_command_queue *q, cl_uint num_events,
                                    const cl_event *wait_list);

/* CL_INVALID_VALUE when [dst, +size) or [src, +size) wraps the address space,
 * CL_MEM_COPY_OVERLAP when they overlap (the pointer copies of SVM and USM). */
cl_int mem__check_copy_ranges(const void *dst, const void *src, size_t size);

/* Enqueue a command of `type` that the host runs once its dependencies are complete:
 * copy `size` bytes from `src` to `dst`; fill [dst, +size) with the pattern (copied now, at
 * most 128 bytes); or only order. Inputs validated by the caller, wait list included. */
cl_int mem__enqueue_host_copy(struct _cl_command_queue *q, cl_command_type type, void *dst,
                              const void *src, size_t size, bool blocking, cl_uint num_events,
                              const cl_event *wait_list, cl_event *event);
cl_int mem__enqueue_host_fill(struct _cl_command_queue *q, cl_command_type type, void *dst,
                              const void *pattern, size_t pattern_size, size_t size,
                              cl_uint num_events, const cl_event *wait_list, cl_event *event);
cl_int mem__enqueue_host_order(struct _cl_command_queue *q, cl_command_type type,
                               bool blocking, cl_uint num_events, const cl_event *wait_list,
                               cl_event *event);

/* ---- every memory object (mem_object.c) ---- */

/* A zeroed memory object (type CL_MEM_OBJECT_BUFFER) with one API and one internal
 * reference; the caller fills it, context included. */
cl_int mem__object_alloc(struct _cl_mem **out);
/* The same, holding an internal reference on `ctx`, on `dev`. */
cl_int mem__object_create(struct _cl_context *ctx, struct _cl_device_id *dev,
                          struct _cl_mem **out);
/* Ends a memory object, possibly half built (images: their descriptors too). */
void mem__object_destroy(struct _cl_mem *mem);

/* ---- images (mem_image.c) ---- */

/* Destroys an image's descriptors and frees mem->image (mem_destroy calls it). */
void mem__image_finish(struct _cl_mem *mem);

/* The image's extent in the byte-rectangle view of struct mem_image: {width, rows,
 * slices}. */
void mem__image_extent(const struct mem_image *im, size_t ext[3]);

/* One mip level of an image in the byte-rectangle view: its first texel `offset` bytes from
 * the image's device_va, its row pitch (layer pitch of a 1D array) and slice pitch, and its
 * extent as mem__image_extent gives it. Level 0 of an image without mip levels is the
 * image. */
struct mem_level {
   size_t offset, row_pitch, slice_pitch, ext[3];
};
void mem__image_level(const struct mem_image *im, cl_uint level, struct mem_level *out);

/* ---- transfers shared by buffer and image commands (mem_transfer.c) ---- */

/*
 * Enqueues a read (`read`) or write of a rectangle of `mem`, validated by the caller: byte
 * origins/region, the memory side's pitches `mem_row`/`mem_slice` and the host side's,
 * all non-zero. `type` is the command type events report. When `owned` is true, `ptr` is
 * heap memory the command frees when it is released.
 */
cl_int mem__enqueue_rect_rw(struct _cl_command_queue *q, struct _cl_mem *mem,
                            cl_command_type type, bool read, bool blocking,
                            const size_t *mem_origin, const size_t *host_origin,
                            const size_t *region, size_t mem_row, size_t mem_slice,
                            size_t host_row, size_t host_slice, void *ptr, bool owned,
                            cl_uint num_events, const cl_event *wait_list, cl_event *event);

/* Enqueues a rectangle copy from `src` to `dst` (validated; pitches non-zero). */
cl_int mem__enqueue_rect_copy(struct _cl_command_queue *q, struct _cl_mem *src,
                              struct _cl_mem *dst, cl_command_type type,
                              const size_t *src_origin, const size_t *dst_origin,
                              const size_t *region, size_t src_row, size_t src_slice,
                              size_t dst_row, size_t dst_slice, cl_uint num_events,
                              const cl_event *wait_list, cl_event *event);

/* Enqueues a map of bytes [offset, offset + size) of `mem` (validated); *out gets the host
 * pointer. Unmapped by clEnqueueUnmapMemObject like a buffer mapping. */
cl_int mem__enqueue_map(struct _cl_command_queue *q, struct _cl_mem *mem, cl_command_type type,
                        bool blocking, cl_map_flags flags, size_t offset, size_t size,
                        cl_uint num_events, const cl_event *wait_list, cl_event *event,
                        void **out);

/* Enqueues a command of `type` that only orders (its event completes after the wait list). */
cl_int mem__enqueue_nop(struct _cl_command_queue *q, struct _cl_mem *mem, cl_command_type type,
                        cl_uint num_events, const cl_event *wait_list, cl_event *event);

/* Host access checks of §5.2.2 / §5.3.3 (CL_INVALID_OPERATION, logged). */
/* Puts `map` on mem->maps (counted in map_count), or takes it off again and frees it with
 * its staging copy (a map command that failed or was refused). Take mem->lock. */
void mem__map_add(struct _cl_mem *mem, struct mem_map *map);
void mem__map_drop(struct _cl_mem *mem, struct mem_map *map);

cl_int mem__check_host_read(const struct _cl_mem *mem);
cl_int mem__check_host_write(const struct _cl_mem *mem);

#endif
