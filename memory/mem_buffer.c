/*
 * memory/mem_buffer.c — buffer objects: clCreateBuffer(WithProperties) over HSA memory
 * pools and clCreateSubBuffer (OpenCL 3.0 API §5.2.1, §5.2.2). What every memory object
 * shares (lifetime, destructor callbacks, clGetMemObjectInfo) is mem_object.c's.
 *
 * Placement (one allocation per context, on the first device whose
 * CL_DEVICE_MAX_MEM_ALLOC_SIZE fits; the context's other devices are granted access):
 *   default          device_pool (coarse grained; the host never touches it, contents are
 *                    reached with HSA copies and fills only)
 *   USE_HOST_PTR     the application's memory, locked with hsa_amd_memory_lock; the GPU
 *                    uses the agent pointer; host_ptr stays authoritative. On an SVM
 *                    pointer of the context: the SVM allocation itself (§5.6.1)
 *   ALLOC_HOST_PTR   the CPU agent's system_pool, access allowed for the GPU agents
 *   COPY_HOST_PTR    initial contents: memcpy into host-visible memory, else copied
 *                    through staging memory with hsa_memory_copy
 */
#include "memory/mem_priv.h"
#include "dispatch/disp.h"
#include "runtime/rt.h"

#include <assert.h>
#include <string.h>

/* The flags clCreateBuffer accepts (§5.2.1 "Memory flags"). CL_MEM_KERNEL_READ_AND_WRITE
 * only matters for image format queries; it is accepted and has no effect on buffers. */
#define ACCESS_FLAGS (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY)
#define HOST_PTR_FLAGS (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)
#define HOST_ACCESS_FLAGS (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)
#define BUFFER_FLAGS                                                                               \
   (ACCESS_FLAGS | HOST_PTR_FLAGS | HOST_ACCESS_FLAGS | CL_MEM_KERNEL_READ_AND_WRITE)

/* Bytes moved per hsa_memory_copy when initialising device memory from host memory. */
#define COPY_CHUNK (4u << 20)

static bool
more_than_one(cl_mem_flags bits)
{
   return (bits & (bits - 1)) != 0;
}

/* ---- buffers ------------------------------------------------------------------------ */

cl_int
mem__copy_to_device(struct _cl_device_id *dev, uint64_t device_va, const void *src, size_t size)
{
   const struct rt_hsa *hsa = rt_hsa();
   size_t chunk = size < COPY_CHUNK ? size : COPY_CHUNK;
   void *staging;
   cl_int err = mem_staging_alloc(dev, chunk, &staging);
   if (err != CL_SUCCESS)
      return err;
   for (size_t done = 0; done < size; done += chunk) {
      size_t n = size - done < chunk ? size - done : chunk;
      memcpy(staging, (const char *)src + done, n);
      hsa_status_t st = hsa->hsa_memory_copy((void *)(uintptr_t)(device_va + done), staging, n);
      if (st != HSA_STATUS_SUCCESS) {
         err = rt_error(st, CL_OUT_OF_RESOURCES, "copying CL_MEM_COPY_HOST_PTR data");
         break;
      }
   }
   mem_staging_free(dev, staging, chunk);
   /* Written behind the device's L2: the next kernel acquires at system scope. */
   disp_fence_host_wrote();
   return err;
}

bool
mem__hsa_host_memory(const void *host_ptr, size_t size, uint64_t *device_va)
{
   hsa_amd_pointer_info_t info = { .size = sizeof(info) };
   if (rt_hsa()->hsa_amd_pointer_info(host_ptr, &info, NULL, NULL, NULL) !=
          HSA_STATUS_SUCCESS ||
       info.type != HSA_EXT_POINTER_TYPE_HSA || !info.hostBaseAddress)
      return false;
   uintptr_t off = (uintptr_t)host_ptr - (uintptr_t)info.hostBaseAddress;
   if ((uintptr_t)host_ptr < (uintptr_t)info.hostBaseAddress || off > info.sizeInBytes ||
       size > info.sizeInBytes - off)
      return false;
   *device_va = (uintptr_t)info.agentBaseAddress + off;
   return true;
}

cl_int
mem__buffer_create(struct _cl_context *ctx, struct _cl_device_id *dev, cl_mem_flags flags,
                   size_t size, void *host_ptr, bool svm_host_ptr, const cl_mem_properties *props,
                   size_t num_props, struct _cl_mem **out)
{
   const struct rt_hsa *hsa = rt_hsa();
   hsa_agent_t agents[MEM_MAX_AGENTS];
   uint32_t num_agents = mem__context_agents(ctx, agents);
   struct _cl_mem *mem;
   cl_int err = mem__object_create(ctx, dev, &mem);
   if (err != CL_SUCCESS)
      return err;
   mem->flags = flags & ACCESS_FLAGS ? flags : flags | CL_MEM_READ_WRITE;
   mem->size = size;
   if (props) {
      mem->props = icd_malloc(num_props * sizeof(*props));
      if (!mem->props) {
         err = ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "copying buffer properties");
         goto out_destroy;
      }
      memcpy(mem->props, props, num_props * sizeof(*props));
      mem->num_props = num_props;
   }

   if (flags & CL_MEM_USE_HOST_PTR) {
      mem->host_ptr = host_ptr;
      mem->host_accessible = true;
      if (svm_host_ptr) {
         /* §5.6.1: the buffer uses the SVM allocation as its storage. */
         mem->backing = MEM_BACKING_SVM;
         mem->uses_svm_pointer = true;
         mem->device_va = (uintptr_t)host_ptr;
      } else {
         mem->backing = MEM_BACKING_LOCKED;
         if (mem__hsa_host_memory(host_ptr, size, &mem->device_va))
            goto out_done; /* already reachable by the GPU: nothing to lock */
         void *agent_ptr = NULL;
         hsa_status_t st =
            hsa->hsa_amd_memory_lock(host_ptr, size, agents, (int)num_agents, &agent_ptr);
         if (st != HSA_STATUS_SUCCESS) {
            err = rt_error(st, CL_MEM_OBJECT_ALLOCATION_FAILURE,
                           "locking CL_MEM_USE_HOST_PTR memory");
            goto out_destroy;
         }
         mem->alloc_base = host_ptr;
         mem->device_va = (uintptr_t)agent_ptr;
      }
   } else if (flags & CL_MEM_ALLOC_HOST_PTR) {
      mem->backing = MEM_BACKING_SYSTEM;
      mem->host_accessible = true;
      if (!dev->has_system_pool) {
         err =
            ICD_ERROR(CL_MEM_OBJECT_ALLOCATION_FAILURE,
                      "device %s has no system memory pool for CL_MEM_ALLOC_HOST_PTR", dev->name);
         goto out_destroy;
      }
      err = rt_pool_alloc(dev->system_pool, size, agents, num_agents,
                          CL_MEM_OBJECT_ALLOCATION_FAILURE,
                          "allocating a CL_MEM_ALLOC_HOST_PTR buffer", &mem->alloc_base);
      if (err != CL_SUCCESS)
         goto out_destroy;
      mem->device_va = (uintptr_t)mem->alloc_base;
      if (flags & CL_MEM_COPY_HOST_PTR)
         memcpy(mem->alloc_base, host_ptr, size);
   } else {
      mem->backing = MEM_BACKING_DEVICE;
      err =
         rt_pool_alloc(dev->device_pool, size, agents, num_agents > 1 ? num_agents : 0,
                       CL_MEM_OBJECT_ALLOCATION_FAILURE, "allocating a buffer", &mem->alloc_base);
      if (err != CL_SUCCESS)
         goto out_destroy;
      atomic_fetch_add(&dev->device_bytes_in_use, size);
      mem->device_va = (uintptr_t)mem->alloc_base;
      if (flags & CL_MEM_COPY_HOST_PTR) {
         err = mem__copy_to_device(dev, mem->device_va, host_ptr, size);
         if (err != CL_SUCCESS)
            goto out_destroy;
      }
   }
out_done:
   *out = mem;
   return CL_SUCCESS;

out_destroy:
   mem__object_destroy(mem);
   return err;
}

/*
 * §5.2.1: a property list. Core OpenCL 3.0 defines no buffer property; cl_ext_buffer_device_address
 * adds CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT (a cl_bool; CL_INVALID_OPERATION where no device of
 * the context reports the extension). Every buffer already has one fixed address, the same
 * on every device of the context (one allocation, each GPU granted access), so the property
 * only makes CL_MEM_DEVICE_ADDRESS_EXT answer. *device_address gets its value.
 */
static cl_int
check_properties(const struct _cl_context *ctx, const cl_mem_properties *properties,
                 size_t *num_out, bool *device_address)
{
   *num_out = 0;
   *device_address = false;
   if (!properties)
      return CL_SUCCESS;
   bool seen = false;
   size_t i = 0;
   for (; properties[i]; i += 2) {
      if (properties[i] != CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT)
         return ICD_ERROR(CL_INVALID_PROPERTY, "unsupported buffer property 0x%llx",
                          (unsigned long long)properties[i]);
      if (seen)
         return ICD_ERROR(CL_INVALID_PROPERTY, "CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT given twice");
      seen = true;
      if (properties[i + 1] != CL_TRUE && properties[i + 1] != CL_FALSE)
         return ICD_ERROR(CL_INVALID_PROPERTY, "CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT = %llu is not "
                          "a cl_bool", (unsigned long long)properties[i + 1]);
      bool reported = false;
      for (cl_uint d = 0; d < ctx->num_devices; d++)
         reported |= plat_device_has_extension(ctx->devices[d], "cl_ext_buffer_device_address");
      if (!reported)
         return ICD_ERROR(CL_INVALID_OPERATION, "CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT: no device of "
                          "the context supports cl_ext_buffer_device_address");
      *device_address = properties[i + 1] == CL_TRUE;
   }
   *num_out = i + 1;
   return CL_SUCCESS;
}

static cl_int
check_buffer_flags(cl_mem_flags flags)
{
   if (flags & ~(cl_mem_flags)BUFFER_FLAGS)
      return ICD_ERROR(CL_INVALID_VALUE, "unknown memory flags 0x%llx",
                       (unsigned long long)(flags & ~(cl_mem_flags)BUFFER_FLAGS));
   if (more_than_one(flags & ACCESS_FLAGS))
      return ICD_ERROR(CL_INVALID_VALUE,
                       "more than one of CL_MEM_READ_WRITE/WRITE_ONLY/READ_ONLY in 0x%llx",
                       (unsigned long long)flags);
   if ((flags & CL_MEM_USE_HOST_PTR) && (flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)))
      return ICD_ERROR(CL_INVALID_VALUE,
                       "CL_MEM_USE_HOST_PTR with CL_MEM_ALLOC_HOST_PTR or CL_MEM_COPY_HOST_PTR");
   if (more_than_one(flags & HOST_ACCESS_FLAGS))
      return ICD_ERROR(CL_INVALID_VALUE,
                       "more than one of CL_MEM_HOST_WRITE_ONLY/READ_ONLY/NO_ACCESS in 0x%llx",
                       (unsigned long long)flags);
   return CL_SUCCESS;
}

cl_mem CL_API_CALL
mem_CreateBufferWithProperties(cl_context context, const cl_mem_properties *properties,
                               cl_mem_flags flags, size_t size, void *host_ptr, cl_int *errcode_ret)
{
   struct _cl_mem *mem = NULL;
   struct _cl_device_id *dev = NULL;
   size_t num_props = 0;
   bool svm_host_ptr = false;
   cl_int err;

   struct _cl_context *ctx = plat_context_from_handle(context);
   if (!ctx) {
      err = ICD_ERROR(CL_INVALID_CONTEXT, "context %p is not an hsacl context", (void *)context);
      goto out;
   }
   bool device_address;
   err = check_properties(ctx, properties, &num_props, &device_address);
   if (err != CL_SUCCESS)
      goto out;
   err = check_buffer_flags(flags);
   if (err != CL_SUCCESS)
      goto out;
   /* Too large only when no device of the context can hold it (§5.2.1). */
   for (cl_uint i = 0; i < ctx->num_devices && !dev; i++) {
      if (size <= ctx->devices[i]->max_alloc_size)
         dev = ctx->devices[i];
   }
   if (size == 0 || !dev) {
      err = ICD_ERROR(CL_INVALID_BUFFER_SIZE,
                      "size %zu is 0 or above every device's "
                      "CL_DEVICE_MAX_MEM_ALLOC_SIZE",
                      size);
      goto out;
   }
   bool wants_ptr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
   if (!host_ptr && wants_ptr) {
      err = ICD_ERROR(CL_INVALID_HOST_PTR, "host_ptr is NULL with USE/COPY_HOST_PTR");
      goto out;
   }
   if (host_ptr && !wants_ptr) {
      err = ICD_ERROR(CL_INVALID_HOST_PTR, "host_ptr %p given without USE/COPY_HOST_PTR", host_ptr);
      goto out;
   }
   if (flags & CL_MEM_USE_HOST_PTR) {
      void *svm_base;
      size_t svm_size;
      svm_host_ptr = mem_svm_lookup(ctx, host_ptr, &svm_base, &svm_size);
      /* §5.6.1: size may not exceed what the SVM allocation holds past host_ptr. */
      if (svm_host_ptr && size > svm_size - (size_t)((char *)host_ptr - (char *)svm_base)) {
         err =
            ICD_ERROR(CL_INVALID_BUFFER_SIZE,
                      "size %zu runs past the SVM allocation host_ptr %p lies in", size, host_ptr);
         goto out;
      }
   }

   err = mem__buffer_create(ctx, dev, flags, size, host_ptr, svm_host_ptr, properties, num_props,
                            &mem);
   if (err != CL_SUCCESS)
      goto out;
   mem->device_address = device_address;
   if (svm_host_ptr) {
      /* The same storage for a USM allocation, which is no SVM pointer to the query. */
      struct mem_alloc_info a;
      mem->uses_svm_pointer = mem__alloc_lookup(ctx, host_ptr, &a) && a.kind == MEM_ALLOC_SVM;
   }
   icd_set_errcode(errcode_ret, CL_SUCCESS);
   return mem_mem_to_handle(mem);

out:
   icd_set_errcode(errcode_ret, err);
   return NULL;
}

cl_mem CL_API_CALL
mem_CreateBuffer(cl_context context, cl_mem_flags flags, size_t size, void *host_ptr,
                 cl_int *errcode_ret)
{
   return mem_CreateBufferWithProperties(context, NULL, flags, size, host_ptr, errcode_ret);
}

/* ---- sub-buffers -------------------------------------------------------------------- */

/* Returns a new sub-buffer with one API reference; region and flags validated. */
static cl_int
mem_sub_buffer_create(struct _cl_mem *parent, cl_mem_flags flags, size_t origin, size_t size,
                      struct _cl_mem **out)
{
   struct _cl_mem *mem;
   cl_int err = mem__object_alloc(&mem);
   if (err != CL_SUCCESS)
      return err;
   /* §5.2.2: access and host-access flags not given, and the host-pointer flags, are
    * inherited from the parent. */
   cl_mem_flags inherited = parent->flags & HOST_PTR_FLAGS;
   if (!(flags & ACCESS_FLAGS))
      inherited |= parent->flags & ACCESS_FLAGS;
   if (!(flags & HOST_ACCESS_FLAGS))
      inherited |= parent->flags & HOST_ACCESS_FLAGS;
   mem_retain_internal(parent);
   mem->parent = parent;
   plat_context_retain_internal(parent->context);
   mem->context = parent->context;
   mem->device = parent->device;
   mem->flags = flags | inherited;
   mem->size = size;
   mem->origin = origin;
   mem->backing = MEM_BACKING_SUB;
   mem->device_va = parent->device_va + origin;
   mem->host_ptr = parent->host_ptr ? (char *)parent->host_ptr + origin : NULL;
   mem->host_accessible = parent->host_accessible;
   mem->uses_svm_pointer = parent->uses_svm_pointer;
   mem->device_address = parent->device_address; /* the parent's address + origin */
   *out = mem;
   return CL_SUCCESS;
}

/* §5.2.2 CL_MISALIGNED_SUB_BUFFER_OFFSET: aligned for at least one device of the context. */
static bool
origin_aligned(const struct _cl_context *ctx, size_t origin)
{
   for (cl_uint i = 0; i < ctx->num_devices; i++) {
      cl_uint bits = plat_device_limits(ctx->devices[i])->mem_base_addr_align;
      if (bits < 8)
         continue;
      if (origin % (bits / 8) == 0)
         return true;
   }
   return false;
}

cl_mem CL_API_CALL
mem_CreateSubBuffer(cl_mem buffer, cl_mem_flags flags, cl_buffer_create_type buffer_create_type,
                    const void *buffer_create_info, cl_int *errcode_ret)
{
   struct _cl_mem *mem = NULL;
   cl_int err;

   struct _cl_mem *parent = mem_mem_from_handle(buffer);
   if (!parent || !mem_is_buffer(parent) || parent->parent) {
      err = ICD_ERROR(CL_INVALID_MEM_OBJECT, "%p is not a buffer (or is a sub-buffer)",
                      (void *)buffer);
      goto out;
   }
   cl_mem_flags pf = parent->flags;
   if (flags & ~(cl_mem_flags)(ACCESS_FLAGS | HOST_ACCESS_FLAGS | CL_MEM_KERNEL_READ_AND_WRITE)) {
      err = ICD_ERROR(CL_INVALID_VALUE, "sub-buffer flags 0x%llx: unknown or host-pointer flags",
                      (unsigned long long)flags);
      goto out;
   }
   if (more_than_one(flags & ACCESS_FLAGS) ||
       ((pf & CL_MEM_WRITE_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))) ||
       ((pf & CL_MEM_READ_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY)))) {
      err = ICD_ERROR(CL_INVALID_VALUE, "sub-buffer access flags 0x%llx conflict with 0x%llx",
                      (unsigned long long)flags, (unsigned long long)pf);
      goto out;
   }
   if (more_than_one(flags & HOST_ACCESS_FLAGS) ||
       ((pf & CL_MEM_HOST_WRITE_ONLY) && (flags & CL_MEM_HOST_READ_ONLY)) ||
       ((pf & CL_MEM_HOST_READ_ONLY) && (flags & CL_MEM_HOST_WRITE_ONLY)) ||
       ((pf & CL_MEM_HOST_NO_ACCESS) &&
        (flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY)))) {
      err = ICD_ERROR(CL_INVALID_VALUE, "sub-buffer host access flags 0x%llx conflict with 0x%llx",
                      (unsigned long long)flags, (unsigned long long)pf);
      goto out;
   }
   if (buffer_create_type != CL_BUFFER_CREATE_TYPE_REGION) {
      err = ICD_ERROR(CL_INVALID_VALUE,
                      "buffer_create_type 0x%x is not "
                      "CL_BUFFER_CREATE_TYPE_REGION",
                      (unsigned)buffer_create_type);
      goto out;
   }
   const cl_buffer_region *region = buffer_create_info;
   if (!region) {
      err = ICD_ERROR(CL_INVALID_VALUE, "buffer_create_info is NULL");
      goto out;
   }
   if (region->origin > parent->size || region->size > parent->size - region->origin) {
      err = ICD_ERROR(CL_INVALID_VALUE, "region [%zu, +%zu) is outside the %zu-byte buffer",
                      region->origin, region->size, parent->size);
      goto out;
   }
   if (!origin_aligned(parent->context, region->origin)) {
      err = ICD_ERROR(CL_MISALIGNED_SUB_BUFFER_OFFSET,
                      "origin %zu is not aligned to CL_DEVICE_MEM_BASE_ADDR_ALIGN", region->origin);
      goto out;
   }
   if (region->size == 0) {
      err = ICD_ERROR(CL_INVALID_BUFFER_SIZE, "sub-buffer size is 0");
      goto out;
   }

   err = mem_sub_buffer_create(parent, flags, region->origin, region->size, &mem);
   if (err != CL_SUCCESS)
      goto out;
   icd_set_errcode(errcode_ret, CL_SUCCESS);
   return mem_mem_to_handle(mem);

out:
   icd_set_errcode(errcode_ret, err);
   return NULL;
}
