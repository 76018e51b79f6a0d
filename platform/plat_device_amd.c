/*
 * platform/plat_device_amd.c — the device queries of cl_khr_pci_bus_info,
 * cl_khr_device_uuid, cl_khr_integer_dot_product, cl_ext_float_atomics, cl_khr_kernel_clock
 * and cl_amd_device_attribute_query (the AMD queries tuning code reads). Every value comes from an HSA agent query (the same on ROCr and on the software
 * GPU) or from the target's capability record (plat_gpu_info.c), never from a constant
 * standing in for the device.
 */
#include "platform/plat_priv.h"

#include "runtime/rt.h"

#include <CL/cl_ext.h>
#include "icd/icd_cmdbuf_ext.h"
#include <stdio.h>
#include <string.h>

/* cl_ext.h of Debian's OpenCL headers 2023.04 has both structures; spelled out here so the
 * layout is checked where it is written. */
_Static_assert(sizeof(cl_device_pci_bus_info_khr) == 16, "four cl_uint");

/* Two queries ROCm's OpenCL answers but no header documents (clinfo asks both). */
#define PLAT_DEVICE_MAX_REAL_TIME_COMPUTE_QUEUES_AMD 0x404D
#define PLAT_DEVICE_MAX_REAL_TIME_COMPUTE_UNITS_AMD 0x404E
_Static_assert(sizeof(cl_device_topology_amd) == 24, "type + 17 unused + bus/device/function");

static cl_int
ret(const void *p, size_t bytes, size_t size, void *value, size_t *size_ret)
{
   return icd_get_info(p, bytes, size, value, size_ret);
}

/* 64-bit FNV-1a of `s` from `seed`: the driver UUID's two halves. */
static uint64_t
fnv1a(const char *s, uint64_t seed)
{
   uint64_t h = seed;
   for (; *s; s++) {
      h ^= (unsigned char)*s;
      h *= 0x100000001b3ull;
   }
   return h;
}

/* The device's UUID: the HSA agent's unique id ("GPU-" and 16 hex digits: ROCr's
 * "GPU-%016lx" of the KFD node's UniqueID) in the first 8 bytes, big-endian, then the PCI
 * domain, bus/device/function and chip id, so two boards never share one. A device with no
 * unique id ("GPU-XX") has zeros in the first half. */
static void
device_uuid(const struct _cl_device_id *dev, cl_uchar out[CL_UUID_SIZE_KHR])
{
   const struct rt_hsa *hsa = rt_hsa();
   char text[32] = "";
   memset(out, 0, CL_UUID_SIZE_KHR);
   if (hsa && hsa->hsa_agent_get_info(dev->agent, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_UUID,
                                      text) == HSA_STATUS_SUCCESS) {
      text[sizeof(text) - 1] = '\0';
      unsigned long long id = 0;
      int used = 0;
      if (!strncmp(text, "GPU-", 4) && strlen(text) == 20 &&
          sscanf(text + 4, "%16llx%n", &id, &used) == 1 && used == 16)
         for (int i = 0; i < 8; i++)
            out[i] = (cl_uchar)(id >> (56 - 8 * i));
   }
   out[8] = (cl_uchar)(dev->pci_domain >> 24);
   out[9] = (cl_uchar)(dev->pci_domain >> 16);
   out[10] = (cl_uchar)(dev->pci_domain >> 8);
   out[11] = (cl_uchar)dev->pci_domain;
   out[12] = (cl_uchar)(dev->pci_bdf >> 8);
   out[13] = (cl_uchar)dev->pci_bdf;
   out[14] = (cl_uchar)(dev->chip_id >> 8);
   out[15] = (cl_uchar)dev->chip_id;
}

/* Bytes of device memory not taken by this process's buffers, KiB (what the application
 * can still allocate; the HSA runtime of ROCm 5.2 has no query for the whole machine). */
static size_t
free_kib(const struct _cl_device_id *dev)
{
   uint64_t used = atomic_load(&dev->device_bytes_in_use);
   uint64_t total = dev->global_mem_size;
   return (size_t)((used < total ? total - used : 0) / 1024);
}

/* CL_DEVICE_{HALF,SINGLE,DOUBLE}_FP_ATOMIC_CAPABILITIES_EXT of floating-point type `fp`
 * ("fp16", "fp32", "fp64"): the device's __opencl_c_ext_<fp>_* features say them; load, store
 * and exchange of float and double are OpenCL C 2.0's own atomics, had with the extension. */
static cl_device_fp_atomic_capabilities_ext
fp_atomic_capabilities(const struct _cl_device_id *dev, const char *fp)
{
   static const struct {
      const char *op;
      cl_device_fp_atomic_capabilities_ext global, local;
   } ops[] = {
      { "atomic_load_store", CL_DEVICE_GLOBAL_FP_ATOMIC_LOAD_STORE_EXT,
        CL_DEVICE_LOCAL_FP_ATOMIC_LOAD_STORE_EXT },
      { "atomic_add", CL_DEVICE_GLOBAL_FP_ATOMIC_ADD_EXT, CL_DEVICE_LOCAL_FP_ATOMIC_ADD_EXT },
      { "atomic_min_max", CL_DEVICE_GLOBAL_FP_ATOMIC_MIN_MAX_EXT,
        CL_DEVICE_LOCAL_FP_ATOMIC_MIN_MAX_EXT },
   };
   cl_device_fp_atomic_capabilities_ext caps = 0;
   if (strcmp(fp, "fp16"))
      caps |= CL_DEVICE_GLOBAL_FP_ATOMIC_LOAD_STORE_EXT | CL_DEVICE_LOCAL_FP_ATOMIC_LOAD_STORE_EXT;
   for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
      char name[64];
      snprintf(name, sizeof(name), "__opencl_c_ext_%s_global_%s", fp, ops[i].op);
      if (plat_device_has_feature(dev, name))
         caps |= ops[i].global;
      snprintf(name, sizeof(name), "__opencl_c_ext_%s_local_%s", fp, ops[i].op);
      if (plat_device_has_feature(dev, name))
         caps |= ops[i].local;
   }
   return caps;
}

/* CL_DEVICE_KERNEL_CLOCK_CAPABILITIES_KHR: the scopes of the device's
 * __opencl_c_kernel_clock_scope_* features. */
static cl_device_kernel_clock_capabilities_khr
kernel_clock_capabilities(const struct _cl_device_id *dev)
{
   cl_device_kernel_clock_capabilities_khr caps = 0;
   if (plat_device_has_feature(dev, "__opencl_c_kernel_clock_scope_device"))
      caps |= CL_DEVICE_KERNEL_CLOCK_SCOPE_DEVICE_KHR;
   if (plat_device_has_feature(dev, "__opencl_c_kernel_clock_scope_work_group"))
      caps |= CL_DEVICE_KERNEL_CLOCK_SCOPE_WORK_GROUP_KHR;
   if (plat_device_has_feature(dev, "__opencl_c_kernel_clock_scope_sub_group"))
      caps |= CL_DEVICE_KERNEL_CLOCK_SCOPE_SUB_GROUP_KHR;
   return caps;
}

bool
plat__device_info_vendor(const struct _cl_device_id *dev, cl_device_info param_name,
                         size_t size, void *value, size_t *size_ret, cl_int *err)
{
   const plat_gpu_info *gi = &dev->info;
#define SCALAR(type, v)                                                                      \
   do {                                                                                     \
      type v_ = (type)(v);                                                                  \
      *err = ret(&v_, sizeof(v_), size, value, size_ret);                                   \
      return true;                                                                          \
   } while (0)

   switch (param_name) {
   /* ---- cl_khr_integer_dot_product ---- */
   case CL_DEVICE_INTEGER_DOT_PRODUCT_CAPABILITIES_KHR:
      SCALAR(cl_device_integer_dot_product_capabilities_khr,
             CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_PACKED_KHR |
                CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_KHR);
   case CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_8BIT_KHR:
   case CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_4x8BIT_PACKED_KHR: {
      /* What the compiler makes one instruction for this target (plat_gpu_info); the
       * saturating forms are the same instructions with their clamp bit. */
      bool same = gi->dot4_same_sign, mixed = gi->dot4_mixed_sign;
      cl_device_integer_dot_product_acceleration_properties_khr p = {
         .signed_accelerated = same,
         .unsigned_accelerated = same,
         .mixed_signedness_accelerated = mixed,
         .accumulating_saturating_signed_accelerated = same,
         .accumulating_saturating_unsigned_accelerated = same,
         .accumulating_saturating_mixed_signedness_accelerated = mixed,
      };
      *err = ret(&p, sizeof(p), size, value, size_ret);
      return true;
   }
   /* ---- cl_ext_float_atomics, cl_khr_kernel_clock (where the device reports them) ---- */
   case CL_DEVICE_HALF_FP_ATOMIC_CAPABILITIES_EXT:
   case CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT:
   case CL_DEVICE_DOUBLE_FP_ATOMIC_CAPABILITIES_EXT:
      if (!plat_device_has_extension(dev, "cl_ext_float_atomics"))
         return false;
      SCALAR(cl_device_fp_atomic_capabilities_ext,
             fp_atomic_capabilities(dev, param_name == CL_DEVICE_HALF_FP_ATOMIC_CAPABILITIES_EXT
                                            ? "fp16"
                                         : param_name == CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT
                                            ? "fp32"
                                            : "fp64"));
   case CL_DEVICE_KERNEL_CLOCK_CAPABILITIES_KHR:
      if (!plat_device_has_extension(dev, "cl_khr_kernel_clock"))
         return false;
      SCALAR(cl_device_kernel_clock_capabilities_khr, kernel_clock_capabilities(dev));
   /* ---- cl_khr_command_buffer, _mutable_dispatch (dispatch/disp_cmdbuf*.c) ---- */
   case CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR:
      if (!plat_device_has_extension(dev, "cl_khr_command_buffer"))
         return false;
      SCALAR(cl_device_command_buffer_capabilities_khr,
             ICD_CMDBUF_CAPABILITIES |
                (plat_device_has_extension(dev, "cl_khr_command_buffer_multi_device")
                    ? CL_COMMAND_BUFFER_CAPABILITY_MULTIPLE_QUEUE_KHR
                    : 0) |
                (plat_profile_opencl_c_20() ? CL_COMMAND_BUFFER_CAPABILITY_DEVICE_SIDE_ENQUEUE_KHR
                                            : 0));
   case CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR:
      if (!plat_device_has_extension(dev, "cl_khr_command_buffer"))
         return false;
      SCALAR(cl_command_queue_properties, ICD_CMDBUF_SUPPORTED_QUEUE_PROPERTIES);
   case CL_DEVICE_COMMAND_BUFFER_REQUIRED_QUEUE_PROPERTIES_KHR:
      if (!plat_device_has_extension(dev, "cl_khr_command_buffer"))
         return false;
      SCALAR(cl_command_queue_properties, ICD_CMDBUF_REQUIRED_QUEUE_PROPERTIES);
   /* Every GPU waits for another's commands on the device (HSA signals in barrier packets
    * and copies' dependency lists), itself included. */
   case CL_DEVICE_COMMAND_BUFFER_NUM_SYNC_DEVICES_KHR:
   case CL_DEVICE_COMMAND_BUFFER_SYNC_DEVICES_KHR: {
      if (!plat_device_has_extension(dev, "cl_khr_command_buffer_multi_device"))
         return false;
      const struct _cl_platform_id *plat = plat_platform_get();
      if (param_name == CL_DEVICE_COMMAND_BUFFER_NUM_SYNC_DEVICES_KHR)
         SCALAR(cl_uint, plat->num_devices);
      *err = ret(plat->devices, plat->num_devices * sizeof(cl_device_id), size, value,
                 size_ret);
      return true;
   }
   case CL_DEVICE_MUTABLE_DISPATCH_CAPABILITIES_KHR:
      if (!plat_device_has_extension(dev, "cl_khr_command_buffer_mutable_dispatch"))
         return false;
      SCALAR(cl_mutable_dispatch_fields_khr, ICD_CMDBUF_MUTABLE_CAPABILITIES);
   /* ---- cl_intel_unified_shared_memory (where the device reports it) ---- */
   case CL_DEVICE_HOST_MEM_CAPABILITIES_INTEL:
   case CL_DEVICE_DEVICE_MEM_CAPABILITIES_INTEL:
   case CL_DEVICE_SINGLE_DEVICE_SHARED_MEM_CAPABILITIES_INTEL:
   case CL_DEVICE_CROSS_DEVICE_SHARED_MEM_CAPABILITIES_INTEL:
   case CL_DEVICE_SHARED_SYSTEM_MEM_CAPABILITIES_INTEL:
      if (!plat_device_has_extension(dev, "cl_intel_unified_shared_memory"))
         return false;
      SCALAR(cl_device_unified_shared_memory_capabilities_intel,
             plat_device_usm_capabilities(dev, param_name));
   /* ---- cl_khr_semaphore: binary semaphores (dispatch/disp_semaphore.c) ---- */
   case CL_DEVICE_SEMAPHORE_TYPES_KHR:
      if (!plat_device_has_extension(dev, "cl_khr_semaphore"))
         return false;
      SCALAR(cl_semaphore_type_khr, CL_SEMAPHORE_TYPE_BINARY_KHR);
   /* ---- cl_khr_pci_bus_info ---- */
   case CL_DEVICE_PCI_BUS_INFO_KHR: {
      cl_device_pci_bus_info_khr info = { dev->pci_domain, (dev->pci_bdf >> 8) & 0xff,
                                          (dev->pci_bdf >> 3) & 0x1f, dev->pci_bdf & 7 };
      *err = ret(&info, sizeof(info), size, value, size_ret);
      return true;
   }
   /* ---- cl_khr_device_uuid ---- */
   case CL_DEVICE_UUID_KHR: {
      cl_uchar uuid[CL_UUID_SIZE_KHR];
      device_uuid(dev, uuid);
      *err = ret(uuid, sizeof(uuid), size, value, size_ret);
      return true;
   }
   case CL_DRIVER_UUID_KHR: {
      /* One driver build, one UUID (whatever HSA runtime it drives). */
      char ver[64];
      snprintf(ver, sizeof(ver), "hsacl %s", HSACL_VERSION_STRING);
      uint64_t h[2] = { fnv1a(ver, 0xcbf29ce484222325ull), fnv1a(ver, 0x84222325cbf29ce4ull) };
      cl_uchar uuid[CL_UUID_SIZE_KHR];
      for (int i = 0; i < 16; i++)
         uuid[i] = (cl_uchar)(h[i / 8] >> (56 - 8 * (i % 8)));
      *err = ret(uuid, sizeof(uuid), size, value, size_ret);
      return true;
   }
   case CL_DEVICE_LUID_VALID_KHR:
      SCALAR(cl_bool, CL_FALSE); /* LUIDs are a Windows notion */
   case CL_DEVICE_LUID_KHR: {
      cl_uchar luid[CL_LUID_SIZE_KHR] = { 0 };
      *err = ret(luid, sizeof(luid), size, value, size_ret);
      return true;
   }
   case CL_DEVICE_NODE_MASK_KHR:
      SCALAR(cl_uint, 0);
   /* ---- cl_amd_device_attribute_query ---- */
   case CL_DEVICE_PROFILING_TIMER_OFFSET_AMD:
      /* Event profiling times are converted to the host timer's domain already. */
      SCALAR(cl_ulong, 0);
   case CL_DEVICE_TOPOLOGY_AMD: {
      cl_device_topology_amd t;
      memset(&t, 0, sizeof(t));
      t.pcie.type = CL_DEVICE_TOPOLOGY_TYPE_PCIE_AMD;
      t.pcie.bus = (cl_char)((dev->pci_bdf >> 8) & 0xff);
      t.pcie.device = (cl_char)((dev->pci_bdf >> 3) & 0x1f);
      t.pcie.function = (cl_char)(dev->pci_bdf & 7);
      *err = ret(&t, sizeof(t), size, value, size_ret);
      return true;
   }
   case CL_DEVICE_BOARD_NAME_AMD:
      *err = icd_get_info_string(dev->product_name, size, value, size_ret);
      return true;
   case CL_DEVICE_GLOBAL_FREE_MEMORY_AMD: {
      /* size_t[2], KiB: free memory, largest free block (one heap: the same). */
      size_t kib[2] = { free_kib(dev), free_kib(dev) };
      *err = ret(kib, sizeof(kib), size, value, size_ret);
      return true;
   }
   case CL_DEVICE_SIMD_PER_COMPUTE_UNIT_AMD:
      SCALAR(cl_uint, gi->simds_per_cu);
   case CL_DEVICE_SIMD_WIDTH_AMD:
      /* GCN: a wave64 instruction takes 4 cycles on a 16-lane SIMD; RDNA: SIMD32. */
      SCALAR(cl_uint, gi->wavefront_size == 64 ? 16 : 32);
   case CL_DEVICE_SIMD_INSTRUCTION_WIDTH_AMD:
      SCALAR(cl_uint, 1);
   case CL_DEVICE_WAVEFRONT_WIDTH_AMD:
      SCALAR(cl_uint, gi->wavefront_size);
   case CL_DEVICE_GLOBAL_MEM_CHANNELS_AMD:
      /* 32-bit channels of the memory bus (the agent's width, plat_device.c). */
      SCALAR(cl_uint, gi->memory_bus_width / 32);
   case CL_DEVICE_GLOBAL_MEM_CHANNEL_BANKS_AMD:
      SCALAR(cl_uint, 4);
   case CL_DEVICE_GLOBAL_MEM_CHANNEL_BANK_WIDTH_AMD:
      SCALAR(cl_uint, 256);
   case CL_DEVICE_LOCAL_MEM_SIZE_PER_COMPUTE_UNIT_AMD:
      SCALAR(cl_uint, gi->lds_size);
   case CL_DEVICE_LOCAL_MEM_BANKS_AMD:
      SCALAR(cl_uint, 32);
   case CL_DEVICE_THREAD_TRACE_SUPPORTED_AMD:
      SCALAR(cl_bool, CL_FALSE);
   case CL_DEVICE_GFXIP_MAJOR_AMD:
      SCALAR(cl_uint, gi->gfx_major);
   case CL_DEVICE_GFXIP_MINOR_AMD:
      SCALAR(cl_uint, gi->gfx_minor);
   case CL_DEVICE_AVAILABLE_ASYNC_QUEUES_AMD:
      /* The compute pipes the hardware scheduler maps queues onto. */
      SCALAR(cl_uint, 8);
   case PLAT_DEVICE_MAX_REAL_TIME_COMPUTE_QUEUES_AMD:
   case PLAT_DEVICE_MAX_REAL_TIME_COMPUTE_UNITS_AMD:
      /* hsacl makes no real-time queues (a queue property asking for real-time compute
       * units is refused), so none, and no compute units reserved for them. */
      SCALAR(cl_uint, 0);
   case CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_AMD:
      SCALAR(size_t, 256);
   case CL_DEVICE_MAX_WORK_GROUP_SIZE_AMD:
      /* The hardware's, as CL_DEVICE_MAX_WORK_GROUP_SIZE (plat_device.c). */
      SCALAR(size_t, dev->info.max_workgroup_size);
   case CL_DEVICE_PREFERRED_CONSTANT_BUFFER_SIZE_AMD:
      SCALAR(size_t, 16 * 1024);
   case CL_DEVICE_PCIE_ID_AMD:
      SCALAR(cl_uint, dev->chip_id);
   default:
      return false;
   }
#undef SCALAR
}
