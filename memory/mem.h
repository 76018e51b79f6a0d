/*
 * memory/mem.h — what other modules use from memory/: cl_mem buffer objects (buffers and
 * sub-buffers over HSA memory pools), their in-flight references, the per-context table
 * of coarse-grained SVM allocations, and the staging allocator (host memory the GPU can
 * reach) the transfer code copies through; images (struct mem_image, mem_image*.c) and
 * samplers (mem_sampler.c). OpenCL 3.0 API §5.2 (buffers), §5.3 (images), §5.5 (memory
 * objects), §5.6 (SVM), §5.7 (samplers).
 *
 * Lock order: context lock, then a mem object's `lock`, then the SVM table lock, then the
 * staging lock. No HSA call is made with the SVM table lock held.
 */
#ifndef MEM_H
#define MEM_H

#include "icd.h"
#include "platform/plat.h"
#include <hsa/hsa_ext_image.h>
#include <pthread.h>

struct _cl_device_id;
struct _cl_context;

/* ---- memory objects ---------------------------------------------------------------- */

/* How a mem object's bytes are backed; decides how they are freed (mem_buffer.c). */
typedef enum mem_backing {
   MEM_BACKING_DEVICE = 1, /* coarse-grained device_pool memory: the host may not touch it */
   MEM_BACKING_SYSTEM,     /* CL_MEM_ALLOC_HOST_PTR: CPU agent's system_pool, GPU allowed */
   MEM_BACKING_LOCKED,     /* CL_MEM_USE_HOST_PTR: the application's memory, locked (not
                            * when it already is HSA memory the GPU reaches: alloc_base NULL) */
   MEM_BACKING_SVM,        /* CL_MEM_USE_HOST_PTR on an SVM pointer: the SVM allocation's */
   MEM_BACKING_SUB,        /* a sub-buffer: its parent's bytes */
} mem_backing;

typedef void(CL_CALLBACK *mem_destructor_fn)(cl_mem memobj, void *user_data);

/* clSetMemObjectDestructorCallback registrations, newest first (run in that order). */
struct mem_destructor {
   mem_destructor_fn fn;
   void *user_data;
   struct mem_destructor *next;
};

/*
 * One outstanding clEnqueueMapBuffer, kept by the transfer code (mem_transfer.c) on the
 * object's `maps` list under `lock`. Whatever is left when the object is destroyed is
 * freed by it: `staging` (if non-NULL) with mem_staging_free(staging_dev, staging,
 * staging_size), then the node with icd_free.
 */
struct mem_map {
   struct mem_map *next;
   void *host_ptr;      /* what clEnqueueMapBuffer returned */
   size_t offset, size; /* mapped region, bytes from the object's first byte */
   cl_map_flags flags;
   void *staging; /* staging copy for device-only memory, or NULL */
   size_t staging_size;
   struct _cl_device_id *staging_dev;
   /* A CL_MEM_USE_HOST_PTR image's mapping (mem_image_xfer.c): host_ptr points into the
    * application's memory; rect_origin/rect_region are the byte rectangle (struct
    * mem_image's view) the unmap writes back with the image's and the host's pitches. */
   bool rect;
   size_t rect_origin[3], rect_region[3];
};

/*
 * What an image adds to a memory object (mem_image.c). Immutable after creation. The
 * texels are linear in device memory: texel (x, y, z) of the OpenCL image is at byte
 * x * elem_size + y * row_pitch + z * slice_pitch from the object's device_va, where y is
 * the layer of a 1D array and z the layer of a 2D array (row_pitch and slice_pitch are
 * the device layout's, what the HSA image extension was created with). A mipmapped image
 * (cl_khr_mipmap_image) lays its levels out as the gfx9 address library's linear mip chain
 * (docs/images.md "Mip levels"): mem__image_level gives one level's place in that view.
 */
struct mem_image {
   cl_image_format format;
   cl_image_desc desc;      /* as given, with unused sizes 0 and the image type's
                             * defaults filled in (mem_image.c); desc.buffer / mem_object
                             * is the buffer a 1D-buffer or 2D image was made from, or the
                             * 2D image a 2D image (a view: same memory and pitches, a
                             * compatible format) was made from */
   size_t elem_size;        /* bytes per texel */
   size_t row_pitch;        /* device layout, bytes: level 0's (the T# PITCH; gfx9 chains:
                             * every level's) */
   size_t slice_pitch;      /* device layout, bytes (row_pitch for a 1D array); a mipmapped
                             * image's slices (layers of arrays) hold the whole chain */
   cl_uint num_levels;      /* mip levels in memory and in the T# (1 unless mipmapped) */
   bool gfx10_chain;        /* mipmapped, laid out as gfx10's linear chain (mem_image.c) */
   size_t host_row_pitch;   /* CL_MEM_USE_HOST_PTR: the application's pitches */
   size_t host_slice_pitch;
   hsa_ext_image_geometry_t geometry;
   hsa_ext_image_format_t hsa_format;
   /* One image descriptor per device of the context (ctx->devices order); its handle is
    * the address of the descriptor, which is what an image kernel argument holds. */
   hsa_ext_image_t handles[16];
   cl_uint num_handles;
};

/*
 * A memory object. Immutable after creation except the counters, `maps` and
 * `destructors` (under `lock`).
 *
 * Lifetime: obj.refcount counts API references (CL_MEM_REFERENCE_COUNT). obj.internal_refs
 * counts internal ones — each in-flight command that touches the object, each sub-buffer
 * on its parent — plus one held by all API references together. The object is destroyed
 * (destructor callbacks in reverse registration order, then the memory freed) when
 * obj.internal_refs reaches zero, on whichever thread drops the last reference.
 */
struct _cl_mem {
   struct icd_object obj;
   cl_mem_object_type type;      /* CL_MEM_OBJECT_BUFFER, CL_MEM_OBJECT_PIPE or an image
                                  * type (then `image` is set) */
   struct _cl_context *context;  /* holds an internal reference */
   struct _cl_device_id *device; /* whose pool backs the memory (first fitting device) */
   cl_mem_flags flags;           /* as given; READ_WRITE added when no access flag was;
                                  * a sub-buffer's include what it inherits (§5.2.2) */
   size_t size;                  /* bytes */
   mem_backing backing;
   uint64_t device_va;       /* GPU address of the first byte (a sub-buffer's
                              * includes its origin) */
   void *host_ptr;           /* CL_MEM_USE_HOST_PTR: the application's pointer
                              * (+ origin for a sub-buffer); else NULL. Authoritative:
                              * the GPU reads and writes it directly */
   bool host_accessible;     /* the host may dereference device_va directly (USE_HOST_PTR,
                              * ALLOC_HOST_PTR, SVM-backed); false: device-only memory,
                              * reach it only through HSA copies/fills */
   bool uses_svm_pointer;    /* CL_MEM_USES_SVM_POINTER */
   bool device_address;      /* CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT = CL_TRUE (a sub-buffer:
                              * its parent's): device_va is fixed for its lifetime and
                              * CL_MEM_DEVICE_ADDRESS_EXT answers it */
   void *alloc_base;         /* what to free: pool allocation or locked host pointer;
                              * NULL for SVM-backed and sub-buffers */
   struct _cl_mem *parent;   /* a sub-buffer's buffer, the buffer or 2D image an image is
                              * made from: holds an internal reference; else NULL */
   size_t origin;            /* sub-buffer: offset in the parent; else 0 */
   cl_mem_properties *props; /* clCreateBufferWithProperties list as given,
                              * 0-terminated; NULL when none was given */
   size_t num_props;         /* entries including the terminator; 0 when props NULL */
   cl_uint pipe_packet_size; /* a pipe's CL_PIPE_PACKET_SIZE; else 0 */
   cl_uint pipe_max_packets; /* a pipe's CL_PIPE_MAX_PACKETS; else 0 */
   struct mem_image *image;  /* an image's (type CL_MEM_OBJECT_IMAGE*); else NULL */
   atomic_uint map_count;    /* CL_MEM_MAP_COUNT: maintained by the map/unmap code */
   pthread_mutex_t lock; /* guards maps and destructors */
   struct mem_map *maps;
   struct mem_destructor *destructors;
};

ICD_DEFINE_HANDLE_CASTS(mem_mem, struct _cl_mem, cl_mem, ICD_TYPE_MEM)

/* True for a buffer or a sub-buffer (the objects clEnqueue*Buffer* accept). */
static inline bool
mem_is_buffer(const struct _cl_mem *mem)
{
   return mem->type == CL_MEM_OBJECT_BUFFER;
}

/* True for a pipe (mem_pipe.c): device memory that only kernels reach, through pipe
 * arguments; no host command accepts it (OpenCL 3.0 API §5.4). */
static inline bool
mem_is_pipe(const struct _cl_mem *mem)
{
   return mem->type == CL_MEM_OBJECT_PIPE;
}

/* True for an image of any type (mem_image.c). */
static inline bool
mem_is_image(const struct _cl_mem *mem)
{
   return mem->image != NULL;
}

/* The descriptor address an image kernel argument holds on `dev` (one of the context's
 * devices); 0 when `dev` is not. */
uint64_t mem_image_descriptor(const struct _cl_mem *mem, const struct _cl_device_id *dev);

/* ---- samplers (mem_sampler.c), OpenCL 3.0 API §5.7 ---------------------------------- */

/*
 * A sampler: immutable after creation but for the counters. One HSA sampler descriptor
 * per device of the context. Lifetime like a mem object's: obj.refcount counts API
 * references; obj.internal_refs counts in-flight kernels plus one for all API references.
 */
struct _cl_sampler {
   struct icd_object obj;
   struct _cl_context *context; /* holds an internal reference */
   cl_bool normalized_coords;
   cl_addressing_mode addressing_mode;
   cl_filter_mode filter_mode;
   /* cl_khr_mipmap_image: between mip levels, and the LOD range (S# MIP_FILTER, MIN_LOD,
    * MAX_LOD; mem_sampler.c) */
   cl_filter_mode mip_filter_mode;
   cl_float lod_min, lod_max;
   cl_sampler_properties *props; /* as given, 0-terminated; NULL when none */
   size_t num_props;
   hsa_ext_sampler_t handles[16];
   cl_uint num_handles;
};

ICD_DEFINE_HANDLE_CASTS(mem_sampler, struct _cl_sampler, cl_sampler, ICD_TYPE_SAMPLER)

void mem_sampler_retain_internal(struct _cl_sampler *s);
void mem_sampler_release_internal(struct _cl_sampler *s);

/* The S# address a sampler kernel argument holds on `dev`; 0 when `dev` is not one of
 * the context's devices. */
uint64_t mem_sampler_descriptor(const struct _cl_sampler *s, const struct _cl_device_id *dev);

/* The object whose allocation holds `mem`'s bytes: the end of its parent chain (a
 * sub-buffer's buffer; the buffer or image an image was made from, and theirs). */
static inline struct _cl_mem *
mem_root(struct _cl_mem *mem)
{
   while (mem->parent)
      mem = mem->parent;
   return mem;
}

/* Internal references of in-flight commands; the last one destroys the object. Never take
 * them with a mem object's lock held. */
void mem_retain_internal(struct _cl_mem *mem);
void mem_release_internal(struct _cl_mem *mem);

/* ---- coarse-grained SVM ------------------------------------------------------------ */

/*
 * Finds the SVM allocation of `ctx` that contains `ptr` (base <= ptr < base + size).
 * Returns true and fills *base and *size (either may be NULL); false when `ptr` is in no
 * SVM allocation of `ctx`. Thread safe. The allocation stays valid only until the
 * application frees it: callers that keep it past the call must hold a reference on an
 * object that forbids that (clSVMFree while in use is undefined behaviour, §5.6.1).
 *
 * SVM memory is coarse-grained device_pool memory made accessible to the CPU agent too:
 * the host may dereference it (between SVM map and unmap), the GPU uses the same address.
 */
bool mem_svm_lookup(struct _cl_context *ctx, const void *ptr, void **base, size_t *size);

/*
 * Frees an SVM allocation of `ctx` whose base is `ptr` (clSVMFree's worker, also for the
 * default free of clEnqueueSVMFree). Does not wait for commands. Returns CL_INVALID_VALUE
 * (logged) when `ptr` is not the base of one of the context's SVM allocations.
 */
cl_int mem_svm_free(struct _cl_context *ctx, void *ptr);

/* ---- staging memory ---------------------------------------------------------------- */

/*
 * Host memory of at least `size` bytes that the GPU of `dev` can access (the CPU agent's
 * system pool, access allowed for the GPU agent); page aligned. Pooled: allocations up to
 * MEM_STAGING_MAX_CACHED bytes are rounded to a power-of-two size class and come from a
 * per-device free list when one is cached, so steady-state use makes no system call.
 * Thread safe. Free with mem_staging_free and the same `dev` and `size`.
 */
#define MEM_STAGING_MAX_CACHED (64u << 20)
cl_int mem_staging_alloc(struct _cl_device_id *dev, size_t size, void **host_ptr);
void mem_staging_free(struct _cl_device_id *dev, void *host_ptr, size_t size);

/* ---- entry points ------------------------------------------------------------------ */

cl_mem CL_API_CALL mem_CreateBuffer(cl_context context, cl_mem_flags flags, size_t size,
                                    void *host_ptr, cl_int *errcode_ret);
cl_mem CL_API_CALL mem_CreateBufferWithProperties(cl_context context,
                                                  const cl_mem_properties *properties,
                                                  cl_mem_flags flags, size_t size, void *host_ptr,
                                                  cl_int *errcode_ret);
cl_mem CL_API_CALL mem_CreateSubBuffer(cl_mem buffer, cl_mem_flags flags,
                                       cl_buffer_create_type buffer_create_type,
                                       const void *buffer_create_info, cl_int *errcode_ret);
cl_int CL_API_CALL mem_RetainMemObject(cl_mem memobj);
cl_int CL_API_CALL mem_ReleaseMemObject(cl_mem memobj);
cl_int CL_API_CALL mem_GetMemObjectInfo(cl_mem memobj, cl_mem_info param_name,
                                        size_t param_value_size, void *param_value,
                                        size_t *param_value_size_ret);
cl_int CL_API_CALL mem_SetMemObjectDestructorCallback(cl_mem memobj, mem_destructor_fn pfn_notify,
                                                      void *user_data);
void *CL_API_CALL mem_SVMAlloc(cl_context context, cl_svm_mem_flags flags, size_t size,
                               cl_uint alignment);
void CL_API_CALL mem_SVMFree(cl_context context, void *svm_pointer);

/* SVM commands (mem_svm_enqueue.c), OpenCL 3.0 API §5.6.2. The free callback runs on a
 * runtime or enqueueing thread with no lock held. */
typedef void(CL_CALLBACK *mem_svm_free_fn)(cl_command_queue queue, cl_uint num_svm_pointers,
                                           void *svm_pointers[], void *user_data);
cl_int CL_API_CALL mem_EnqueueSVMFree(cl_command_queue command_queue, cl_uint num_svm_pointers,
                                      void *svm_pointers[], mem_svm_free_fn pfn_free_func,
                                      void *user_data, cl_uint num_events_in_wait_list,
                                      const cl_event *event_wait_list, cl_event *event);
cl_int CL_API_CALL mem_EnqueueSVMMemcpy(cl_command_queue command_queue, cl_bool blocking_copy,
                                        void *dst_ptr, const void *src_ptr, size_t size,
                                        cl_uint num_events_in_wait_list,
                                        const cl_event *event_wait_list, cl_event *event);
cl_int CL_API_CALL mem_EnqueueSVMMemFill(cl_command_queue command_queue, void *svm_ptr,
                                         const void *pattern, size_t pattern_size, size_t size,
                                         cl_uint num_events_in_wait_list,
                                         const cl_event *event_wait_list, cl_event *event);
cl_int CL_API_CALL mem_EnqueueSVMMap(cl_command_queue command_queue, cl_bool blocking_map,
                                     cl_map_flags map_flags, void *svm_ptr, size_t size,
                                     cl_uint num_events_in_wait_list,
                                     const cl_event *event_wait_list, cl_event *event);
cl_int CL_API_CALL mem_EnqueueSVMUnmap(cl_command_queue command_queue, void *svm_ptr,
                                       cl_uint num_events_in_wait_list,
                                       const cl_event *event_wait_list, cl_event *event);
cl_int CL_API_CALL mem_EnqueueSVMMigrateMem(cl_command_queue command_queue,
                                            cl_uint num_svm_pointers, const void **svm_pointers,
                                            const size_t *sizes, cl_mem_migration_flags flags,
                                            cl_uint num_events_in_wait_list,
                                            const cl_event *event_wait_list, cl_event *event);

/* Unified shared memory, cl_intel_unified_shared_memory (mem_usm.c, mem_usm_enqueue.c);
 * reached through clGetExtensionFunctionAddressForPlatform. */
void *CL_API_CALL mem_HostMemAllocINTEL(cl_context context,
                                        const cl_mem_properties_intel *properties, size_t size,
                                        cl_uint alignment, cl_int *errcode_ret);
void *CL_API_CALL mem_DeviceMemAllocINTEL(cl_context context, cl_device_id device,
                                          const cl_mem_properties_intel *properties,
                                          size_t size, cl_uint alignment, cl_int *errcode_ret);
void *CL_API_CALL mem_SharedMemAllocINTEL(cl_context context, cl_device_id device,
                                          const cl_mem_properties_intel *properties,
                                          size_t size, cl_uint alignment, cl_int *errcode_ret);
cl_int CL_API_CALL mem_MemFreeINTEL(cl_context context, void *ptr);
cl_int CL_API_CALL mem_MemBlockingFreeINTEL(cl_context context, void *ptr);
cl_int CL_API_CALL mem_GetMemAllocInfoINTEL(cl_context context, const void *ptr,
                                            cl_mem_info_intel param_name,
                                            size_t param_value_size, void *param_value,
                                            size_t *param_value_size_ret);
cl_int CL_API_CALL mem_EnqueueMemcpyINTEL(cl_command_queue command_queue, cl_bool blocking,
                                          void *dst_ptr, const void *src_ptr, size_t size,
                                          cl_uint num_events_in_wait_list,
                                          const cl_event *event_wait_list, cl_event *event);
cl_int CL_API_CALL mem_EnqueueMemFillINTEL(cl_command_queue command_queue, void *dst_ptr,
                                           const void *pattern, size_t pattern_size,
                                           size_t size, cl_uint num_events_in_wait_list,
                                           const cl_event *event_wait_list, cl_event *event);
cl_int CL_API_CALL mem_EnqueueMemsetINTEL(cl_command_queue command_queue, void *dst_ptr,
                                          cl_int value, size_t size,
                                          cl_uint num_events_in_wait_list,
                                          const cl_event *event_wait_list, cl_event *event);
cl_int CL_API_CALL mem_EnqueueMigrateMemINTEL(cl_command_queue command_queue, const void *ptr,
                                              size_t size, cl_mem_migration_flags flags,
                                              cl_uint num_events_in_wait_list,
                                              const cl_event *event_wait_list, cl_event *event);
cl_int CL_API_CALL mem_EnqueueMemAdviseINTEL(cl_command_queue command_queue, const void *ptr,
                                             size_t size, cl_mem_advice_intel advice,
                                             cl_uint num_events_in_wait_list,
                                             const cl_event *event_wait_list, cl_event *event);

/* Buffer commands (mem_transfer.c). */
cl_int CL_API_CALL mem_EnqueueReadBuffer(cl_command_queue command_queue, cl_mem buffer,
                                         cl_bool blocking_read, size_t offset, size_t size,
                                         void *ptr, cl_uint num_events_in_wait_list,
                                         const cl_event *event_wait_list, cl_event *event);
cl_int CL_API_CALL mem_EnqueueWriteBuffer(cl_command_queue command_queue, cl_mem buffer,
                                          cl_bool blocking_write, size_t offset, size_t size,
                                          const void *ptr, cl_uint num_events_in_wait_list,
                                          const cl_event *event_wait_list, cl_event *event);
cl_int CL_API_CALL mem_EnqueueReadBufferRect(
   cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_read,
   const size_t *buffer_origin, const size_t *host_origin, const size_t *region,
   size_t buffer_row_pitch, size_t buffer_slice_pitch, size_t host_row_pitch,
   size_t host_slice_pitch, void *ptr, cl_uint num_events_in_wait_list,
   const cl_event *event_wait_list, cl_event *event);
cl_int CL_API_CALL mem_EnqueueWriteBufferRect(
   cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_write,
   const size_t *buffer_origin, const size_t *host_origin, const size_t *region,
   size_t buffer_row_pitch, size_t buffer_slice_pitch, size_t host_row_pitch,
   size_t host_slice_pitch, const void *ptr, cl_uint num_events_in_wait_list,
   const cl_event *event_wait_list, cl_event *event);
cl_int CL_API_CALL mem_EnqueueCopyBuffer(cl_command_queue command_queue, cl_mem src_buffer,
                                         cl_mem dst_buffer, size_t src_offset, size_t dst_offset,
                                         size_t size, cl_uint num_events_in_wait_list,
                                         const cl_event *event_wait_list, cl_event *event);
cl_int CL_API_CALL mem_EnqueueCopyBufferRect(
   cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_buffer,
   const size_t *src_origin, const size_t *dst_origin, const size_t *region,
   size_t src_row_pitch, size_t src_slice_pitch, size_t dst_row_pitch, size_t dst_slice_pitch,
   cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event);
cl_int CL_API_CALL mem_EnqueueFillBuffer(cl_command_queue command_queue, cl_mem buffer,
                                         const void *pattern, size_t pattern_size,
                                         size_t offset, size_t size,
                                         cl_uint num_events_in_wait_list,
                                         const cl_event *event_wait_list, cl_event *event);
void *CL_API_CALL mem_EnqueueMapBuffer(cl_command_queue command_queue, cl_mem buffer,
                                       cl_bool blocking_map, cl_map_flags map_flags,
                                       size_t offset, size_t size,
                                       cl_uint num_events_in_wait_list,
                                       const cl_event *event_wait_list, cl_event *event,
                                       cl_int *errcode_ret);
cl_int CL_API_CALL mem_EnqueueUnmapMemObject(cl_command_queue command_queue, cl_mem memobj,
                                             void *mapped_ptr, cl_uint num_events_in_wait_list,
                                             const cl_event *event_wait_list, cl_event *event);
cl_int CL_API_CALL mem_EnqueueMigrateMemObjects(cl_command_queue command_queue,
                                                cl_uint num_mem_objects, const cl_mem *mem_objects,
                                                cl_mem_migration_flags flags,
                                                cl_uint num_events_in_wait_list,
                                                const cl_event *event_wait_list, cl_event *event);

/* Images and samplers on devices supporting neither (mem_image.c): the specified
 * answers for such a context — zero image formats, CL_INVALID_OPERATION on creation,
 * CL_INVALID_MEM_OBJECT / CL_INVALID_SAMPLER for handles that cannot exist. */
cl_int CL_API_CALL mem_GetSupportedImageFormats(cl_context context, cl_mem_flags flags,
                                                cl_mem_object_type image_type,
                                                cl_uint num_entries,
                                                cl_image_format *image_formats,
                                                cl_uint *num_image_formats);
cl_mem CL_API_CALL mem_CreateImage(cl_context context, cl_mem_flags flags,
                                   const cl_image_format *image_format,
                                   const cl_image_desc *image_desc, void *host_ptr,
                                   cl_int *errcode_ret);
cl_mem CL_API_CALL mem_CreateImageWithProperties(cl_context context,
                                                 const cl_mem_properties *properties,
                                                 cl_mem_flags flags,
                                                 const cl_image_format *image_format,
                                                 const cl_image_desc *image_desc,
                                                 void *host_ptr, cl_int *errcode_ret);
cl_mem CL_API_CALL mem_CreateImage2D(cl_context context, cl_mem_flags flags,
                                     const cl_image_format *image_format, size_t image_width,
                                     size_t image_height, size_t image_row_pitch,
                                     void *host_ptr, cl_int *errcode_ret);
cl_mem CL_API_CALL mem_CreateImage3D(cl_context context, cl_mem_flags flags,
                                     const cl_image_format *image_format, size_t image_width,
                                     size_t image_height, size_t image_depth,
                                     size_t image_row_pitch, size_t image_slice_pitch,
                                     void *host_ptr, cl_int *errcode_ret);
cl_int CL_API_CALL mem_GetImageInfo(cl_mem image, cl_image_info param_name,
                                    size_t param_value_size, void *param_value,
                                    size_t *param_value_size_ret);
cl_int CL_API_CALL mem_EnqueueReadImage(cl_command_queue command_queue, cl_mem image,
                                        cl_bool blocking_read, const size_t *origin,
                                        const size_t *region, size_t row_pitch,
                                        size_t slice_pitch, void *ptr,
                                        cl_uint num_events_in_wait_list,
                                        const cl_event *event_wait_list, cl_event *event);
cl_int CL_API_CALL mem_EnqueueWriteImage(cl_command_queue command_queue, cl_mem image,
                                         cl_bool blocking_write, const size_t *origin,
                                         const size_t *region, size_t input_row_pitch,
                                         size_t input_slice_pitch, const void *ptr,
                                         cl_uint num_events_in_wait_list,
                                         const cl_event *event_wait_list, cl_event *event);
cl_int CL_API_CALL mem_EnqueueCopyImage(cl_command_queue command_queue, cl_mem src_image,
                                        cl_mem dst_image, const size_t *src_origin,
                                        const size_t *dst_origin, const size_t *region,
                                        cl_uint num_events_in_wait_list,
                                        const cl_event *event_wait_list, cl_event *event);
cl_int CL_API_CALL mem_EnqueueCopyImageToBuffer(cl_command_queue command_queue,
                                                cl_mem src_image, cl_mem dst_buffer,
                                                const size_t *src_origin,
                                                const size_t *region, size_t dst_offset,
                                                cl_uint num_events_in_wait_list,
                                                const cl_event *event_wait_list,
                                                cl_event *event);
cl_int CL_API_CALL mem_EnqueueCopyBufferToImage(cl_command_queue command_queue,
                                                cl_mem src_buffer, cl_mem dst_image,
                                                size_t src_offset, const size_t *dst_origin,
                                                const size_t *region,
                                                cl_uint num_events_in_wait_list,
                                                const cl_event *event_wait_list,
                                                cl_event *event);
void *CL_API_CALL mem_EnqueueMapImage(cl_command_queue command_queue, cl_mem image,
                                      cl_bool blocking_map, cl_map_flags map_flags,
                                      const size_t *origin, const size_t *region,
                                      size_t *image_row_pitch, size_t *image_slice_pitch,
                                      cl_uint num_events_in_wait_list,
                                      const cl_event *event_wait_list, cl_event *event,
                                      cl_int *errcode_ret);
cl_int CL_API_CALL mem_EnqueueFillImage(cl_command_queue command_queue, cl_mem image,
                                        const void *fill_color, const size_t *origin,
                                        const size_t *region, cl_uint num_events_in_wait_list,
                                        const cl_event *event_wait_list, cl_event *event);
cl_sampler CL_API_CALL mem_CreateSampler(cl_context context, cl_bool normalized_coords,
                                         cl_addressing_mode addressing_mode,
                                         cl_filter_mode filter_mode, cl_int *errcode_ret);
cl_sampler CL_API_CALL mem_CreateSamplerWithProperties(
   cl_context context, const cl_sampler_properties *sampler_properties, cl_int *errcode_ret);
cl_int CL_API_CALL mem_RetainSampler(cl_sampler sampler);
cl_int CL_API_CALL mem_ReleaseSampler(cl_sampler sampler);
cl_int CL_API_CALL mem_GetSamplerInfo(cl_sampler sampler, cl_sampler_info param_name,
                                      size_t param_value_size, void *param_value,
                                      size_t *param_value_size_ret);

/* Pipes (mem_pipe.c), OpenCL 3.0 API §5.4; MEM_PIPE_HEADER_BYTES precede the packets
 * (the layout compiler/comp_builtins_pipe.cl reads). */
#define MEM_PIPE_HEADER_BYTES 128u
cl_mem CL_API_CALL mem_CreatePipe(cl_context context, cl_mem_flags flags,
                                  cl_uint pipe_packet_size, cl_uint pipe_max_packets,
                                  const cl_pipe_properties *properties, cl_int *errcode_ret);
cl_int CL_API_CALL mem_GetPipeInfo(cl_mem pipe, cl_pipe_info param_name,
                                   size_t param_value_size, void *param_value,
                                   size_t *param_value_size_ret);

#endif
