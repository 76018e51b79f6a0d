/*
 * memory/mem_pipe.c — pipe objects (OpenCL 3.0 API §5.4): clCreatePipe, clGetPipeInfo.
 *
 * A pipe is a cl_mem of type CL_MEM_OBJECT_PIPE over device memory allocated as a buffer
 * (mem__buffer_create: coarse-grained device_pool memory, the same lifetime, retain/release
 * and in-flight references), MEM_PIPE_HEADER_BYTES of indices followed by max_packets
 * packets. Only kernels touch it, through the built-ins of compiler/comp_builtins_pipe.cl,
 * which say what the header holds; clCreatePipe writes the header through the path a
 * buffer's CL_MEM_COPY_HOST_PTR data takes. No host command accepts a pipe: the buffer
 * commands take buffers only (mem_is_buffer), so a pipe gets CL_INVALID_MEM_OBJECT there.
 */
#include "memory/mem_priv.h"
#include "platform/plat.h"

#include <string.h>

/* The header compiler/comp_builtins_pipe.cl reads: both indices 0 (empty), the capacity. */
struct pipe_header {
   uint64_t read_idx;
   uint64_t write_idx;
   uint64_t end_idx;
   uint8_t pad[MEM_PIPE_HEADER_BYTES - 3 * sizeof(uint64_t)];
};
_Static_assert(sizeof(struct pipe_header) == MEM_PIPE_HEADER_BYTES, "pipe header size");

/* The flags a pipe takes (§5.4.1); 0 means both. */
#define PIPE_FLAGS (CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS)

/* CL_DEVICE_PIPE_SUPPORT. */
static bool
device_supports_pipes(const struct _cl_device_id *dev)
{
   return plat_device_has_feature(dev, "__opencl_c_pipes");
}

/* Returns a new pipe with one API reference over `bytes` of `dev`'s memory. */
static cl_int
mem_pipe_create(struct _cl_context *ctx, struct _cl_device_id *dev, cl_mem_flags flags,
                cl_uint packet_size, cl_uint max_packets, size_t bytes, struct _cl_mem **out)
{
   struct _cl_mem *mem;
   cl_int err = mem__buffer_create(ctx, dev, CL_MEM_READ_WRITE, bytes, NULL, false, NULL, 0, &mem);
   if (err != CL_SUCCESS)
      return err;
   struct pipe_header h = { .read_idx = 0, .write_idx = 0, .end_idx = max_packets };
   err = mem__copy_to_device(dev, mem->device_va, &h, sizeof(h));
   if (err != CL_SUCCESS) {
      /* Never seen by the application: its one API reference is the last reference. */
      if (icd_object_release(&mem->obj))
         mem_release_internal(mem);
      return err;
   }
   mem->type = CL_MEM_OBJECT_PIPE;
   mem->flags = flags;
   mem->pipe_packet_size = packet_size;
   mem->pipe_max_packets = max_packets;
   *out = mem;
   return CL_SUCCESS;
}

cl_mem CL_API_CALL
mem_CreatePipe(cl_context context, cl_mem_flags flags, cl_uint pipe_packet_size,
               cl_uint pipe_max_packets, const cl_pipe_properties *properties, cl_int *errcode_ret)
{
   struct _cl_mem *mem = NULL;
   cl_int err;

   struct _cl_context *ctx = plat_context_from_handle(context);
   if (!ctx) {
      err = ICD_ERROR(CL_INVALID_CONTEXT, "context %p is not an hsacl context", (void *)context);
      goto out;
   }
   if (flags & ~(cl_mem_flags)PIPE_FLAGS) {
      err = ICD_ERROR(CL_INVALID_VALUE,
                      "pipe flags 0x%llx: only CL_MEM_READ_WRITE and "
                      "CL_MEM_HOST_NO_ACCESS are allowed",
                      (unsigned long long)flags);
      goto out;
   }
   if (properties) {
      err = ICD_ERROR(CL_INVALID_VALUE, "pipe properties must be NULL (OpenCL 3.0 §5.4.1)");
      goto out;
   }
   /* Too large a packet only when no device of the context takes it. */
   cl_uint max_packet_size = 0;
   bool supported = false;
   for (cl_uint i = 0; i < ctx->num_devices; i++) {
      if (!device_supports_pipes(ctx->devices[i]))
         continue;
      supported = true;
      cl_uint m = plat_device_limits(ctx->devices[i])->pipe_max_packet_size;
      if (m > max_packet_size)
         max_packet_size = m;
   }
   if (supported &&
       (pipe_packet_size == 0 || pipe_packet_size > max_packet_size || pipe_max_packets == 0)) {
      err = ICD_ERROR(CL_INVALID_PIPE_SIZE,
                      "pipe of %u packets of %u bytes: a size is 0 or the "
                      "packet is above CL_DEVICE_PIPE_MAX_PACKET_SIZE (%u)",
                      pipe_max_packets, pipe_packet_size, max_packet_size);
      goto out;
   }
   if (!supported) {
      err = ICD_ERROR(CL_INVALID_OPERATION, "cannot create a pipe: no device of the context "
                                            "supports pipes (CL_DEVICE_PIPE_SUPPORT is CL_FALSE)");
      goto out;
   }
   /* Header and packets: at most 2^32 * 2^32 bytes, no overflow in 64 bits. */
   uint64_t bytes = MEM_PIPE_HEADER_BYTES + (uint64_t)pipe_packet_size * pipe_max_packets;
   struct _cl_device_id *dev = NULL;
   for (cl_uint i = 0; i < ctx->num_devices && !dev; i++) {
      struct _cl_device_id *d = ctx->devices[i];
      if (device_supports_pipes(d) &&
          pipe_packet_size <= plat_device_limits(d)->pipe_max_packet_size &&
          bytes <= d->max_alloc_size && bytes <= SIZE_MAX)
         dev = d;
   }
   if (!dev) {
      err = ICD_ERROR(CL_MEM_OBJECT_ALLOCATION_FAILURE,
                      "a pipe of %llu bytes is above every "
                      "device's CL_DEVICE_MAX_MEM_ALLOC_SIZE",
                      (unsigned long long)bytes);
      goto out;
   }

   /* §5.4.1: 0 means CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS; kernels always may read and
    * write a pipe, so READ_WRITE is reported when only HOST_NO_ACCESS was given. */
   err = mem_pipe_create(ctx, dev, flags ? flags | CL_MEM_READ_WRITE : PIPE_FLAGS, pipe_packet_size,
                         pipe_max_packets, (size_t)bytes, &mem);
   if (err != CL_SUCCESS)
      goto out;
   icd_set_errcode(errcode_ret, CL_SUCCESS);
   return mem_mem_to_handle(mem);

out:
   icd_set_errcode(errcode_ret, err);
   return NULL;
}

cl_int CL_API_CALL
mem_GetPipeInfo(cl_mem pipe, cl_pipe_info param_name, size_t param_value_size, void *param_value,
                size_t *param_value_size_ret)
{
   struct _cl_mem *mem = mem_mem_from_handle(pipe);
   if (!mem || !mem_is_pipe(mem))
      return ICD_ERROR(CL_INVALID_MEM_OBJECT, "%p is not a pipe object", (void *)pipe);
   switch (param_name) {
   case CL_PIPE_PACKET_SIZE:
      return ICD_GET_INFO_SCALAR(cl_uint, mem->pipe_packet_size, param_value_size, param_value,
                                 param_value_size_ret);
   case CL_PIPE_MAX_PACKETS:
      return ICD_GET_INFO_SCALAR(cl_uint, mem->pipe_max_packets, param_value_size, param_value,
                                 param_value_size_ret);
   case CL_PIPE_PROPERTIES:
      /* §5.4.2: no properties can be given, so the list is empty (size 0). */
      return icd_get_info(NULL, 0, param_value_size, param_value, param_value_size_ret);
   default:
      return ICD_ERROR(CL_INVALID_VALUE, "unknown pipe query 0x%x", (unsigned)param_name);
   }
}
