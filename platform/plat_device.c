/*
 * platform/plat_device.c — devices: one per HSA GPU agent, every clGetDeviceInfo query
 * answered from HSA agent queries plus the target's capability record
 * (plat_gpu_info.c), sub-device partitioning (none), and the device/host timers.
 *
 * What a device claims is what works at this commit: images where the runtime's image
 * extension serves the agent (plat_device_image.c), no extensions or OpenCL C
 * features beyond its lists (plat_device_ext.c, from plat_extensions.def), the OpenCL
 * version of the profile (platform/plat.h plat_opencl_version).
 */
#include "platform/plat.h"
#include "platform/plat_priv.h"
#include "runtime/rt.h"

#include <stdio.h>
#include <string.h>

#define AMD_VENDOR_ID 0x1002u

/* ---- discovery --------------------------------------------------------------------- */

static hsa_status_t
first_isa(hsa_isa_t isa, void *data)
{
   *(hsa_isa_t *)data = isa;
   return HSA_STATUS_INFO_BREAK;
}

struct pool_search {
   struct _cl_device_id *dev;
   bool gpu; /* iterating the GPU agent's pools (else the CPU agent's) */
};

static hsa_status_t
pick_pool(hsa_amd_memory_pool_t pool, void *data)
{
   const struct rt_hsa *hsa = rt_hsa();
   struct pool_search *s = data;
   hsa_amd_segment_t segment;
   uint32_t flags = 0;
   bool alloc_ok = false;
   if (hsa->hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &segment) !=
          HSA_STATUS_SUCCESS ||
       segment != HSA_AMD_SEGMENT_GLOBAL)
      return HSA_STATUS_SUCCESS;
   hsa->hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags);
   hsa->hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED,
                                     &alloc_ok);
   if (!alloc_ok)
      return HSA_STATUS_SUCCESS;
   struct _cl_device_id *dev = s->dev;
   if (s->gpu) {
      if ((flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED) && !dev->device_pool.handle)
         dev->device_pool = pool;
   } else {
      if ((flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT) && !dev->has_kernarg_pool) {
         dev->kernarg_pool = pool;
         dev->has_kernarg_pool = true;
      } else if ((flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED) &&
                 !dev->has_system_pool) {
         dev->system_pool = pool;
         dev->has_system_pool = true;
      }
   }
   return HSA_STATUS_SUCCESS;
}

static hsa_status_t
find_cpu_agent(hsa_agent_t agent, void *data)
{
   const struct rt_hsa *hsa = rt_hsa();
   hsa_device_type_t type;
   if (hsa->hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type) == HSA_STATUS_SUCCESS &&
       type == HSA_DEVICE_TYPE_CPU) {
      *(hsa_agent_t *)data = agent;
      return HSA_STATUS_INFO_BREAK;
   }
   return HSA_STATUS_SUCCESS;
}

/* dev->limits, from what is known of the device at the end of its creation: the target
 * record (overridden by the agent's queries), the pools, the timestamp frequency, the
 * extensions and features. */
static void
device_limits_init(struct _cl_device_id *dev)
{
   struct plat_device_limits *l = &dev->limits;
   const plat_gpu_info *gi = &dev->info;
   l->max_work_item_dimensions = 3;
   l->address_bits = 64;
   l->max_parameter_size = 4096;
   l->mem_base_addr_align = 2048; /* bits: 256-byte sub-buffer origins */
   l->min_data_type_align_size = 128;
   l->max_constant_buffer_size = dev->max_alloc_size;
   l->max_constant_args = 8;
   uint64_t f = dev->timestamp_frequency ? dev->timestamp_frequency : 1000000000ull;
   l->profiling_timer_resolution = f >= 1000000000ull ? 1 : (1000000000ull + f - 1) / f;
   l->printf_buffer_size = 1024 * 1024;
   /* A sub-group is a wavefront; the most a work-group holds. */
   l->max_num_sub_groups = plat_device_has_extension(dev, "cl_khr_subgroups")
                              ? (cl_uint)(gi->max_workgroup_size / gi->wavefront_size)
                              : 0;
   /* The minimum §4.2 asks of devices with program-scope global variables. */
   if (plat_device_has_feature(dev, "__opencl_c_program_scope_global_variables")) {
      l->max_global_variable_size = 64 * 1024;
      l->global_variable_preferred_total_size = 1024 * 1024;
   }
   /* Device-side enqueue (dispatch/disp_devq.c): one device queue per device, of up to
    * 8 MiB (1 KiB a command), 1024 device events. */
   if (plat_device_has_feature(dev, "__opencl_c_device_enqueue")) {
      l->queue_on_device_preferred_size = PLAT_DEVQ_PREFERRED_SIZE;
      l->queue_on_device_max_size = PLAT_DEVQ_MAX_SIZE;
      l->max_on_device_queues = PLAT_DEVQ_MAX_QUEUES;
      l->max_on_device_events = PLAT_DEVQ_MAX_EVENTS;
   }
   if (plat_device_has_feature(dev, "__opencl_c_pipes")) {
      /* API §4.2: at least 16 with pipes. Pipe arguments are pointers in the kernarg
       * segment and reservations hold no device state (comp_builtins_pipe.cl), so neither
       * has a limit of its own; 16 is what the specification asks. */
      l->max_pipe_args = 16;
      l->pipe_max_active_reservations = 16;
      /* Any size works (packets are copied in units of their alignment); 1024 bytes
       * (a long16[8]) bounds what one work-item copies per call. */
      l->pipe_max_packet_size = 1024;
   }
   plat__device_image_limits_init(dev);
}

cl_int
plat__device_create(struct _cl_platform_id *plat, hsa_agent_t agent, struct _cl_device_id **out)
{
   const struct rt_hsa *hsa = rt_hsa();
   struct _cl_device_id *dev = icd_calloc(1, sizeof(*dev));
   if (!dev)
      return CL_OUT_OF_HOST_MEMORY;
   icd_object_init(&dev->obj, ICD_TYPE_DEVICE);
   dev->platform = plat;
   dev->agent = agent;

   hsa->hsa_agent_get_info(agent, HSA_AGENT_INFO_NAME, dev->name); /* char[64] */
   dev->name[sizeof(dev->name) - 1] = '\0';
   hsa_isa_t isa = { 0 };
   hsa->hsa_agent_iterate_isas(agent, first_isa, &isa);
   uint32_t isa_len = 0;
   if (isa.handle &&
       hsa->hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME_LENGTH, &isa_len) == HSA_STATUS_SUCCESS &&
       isa_len < sizeof(dev->isa_name))
      hsa->hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME, dev->isa_name);
   if (!dev->isa_name[0])
      snprintf(dev->isa_name, sizeof(dev->isa_name), "amdgcn-amd-amdhsa--%s", dev->name);

   if (plat_gpu_info_from_target(dev->isa_name, &dev->info) != CL_SUCCESS &&
       plat_gpu_info_generic(dev->isa_name, &dev->info) != CL_SUCCESS) {
      /* No AMD processor name: a neutral record, every live value below comes from HSA. */
      memset(&dev->info, 0, sizeof(dev->info));
      snprintf(dev->info.target, sizeof(dev->info.target), "%.31s", dev->name);
      dev->info.family = "unknown";
      dev->info.board = "AMD GPU";
      dev->info.wavefront_size = 64;
      dev->info.lds_size = 64 * 1024;
      dev->info.max_workgroup_size = 1024;
      dev->info.cacheline_size = 64;
   }

   /* Live values override the reference board's. */
   uint32_t u32 = 0;
   if (hsa->hsa_agent_get_info(agent, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT,
                               &u32) == HSA_STATUS_SUCCESS && u32)
      dev->info.compute_units = u32;
   if (hsa->hsa_agent_get_info(agent, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY,
                               &u32) == HSA_STATUS_SUCCESS && u32)
      dev->info.max_clock_mhz = u32;
   if (hsa->hsa_agent_get_info(agent, HSA_AGENT_INFO_WAVEFRONT_SIZE, &u32) ==
          HSA_STATUS_SUCCESS && u32)
      dev->info.wavefront_size = u32;
   if (hsa->hsa_agent_get_info(agent, HSA_AGENT_INFO_WORKGROUP_MAX_SIZE, &u32) ==
          HSA_STATUS_SUCCESS && u32)
      dev->info.max_workgroup_size = u32;
   if (hsa->hsa_agent_get_info(agent, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_NUM_SIMDS_PER_CU,
                               &u32) == HSA_STATUS_SUCCESS && u32)
      dev->info.simds_per_cu = u32;
   uint32_t caches[4] = { 0 };
   if (hsa->hsa_agent_get_info(agent, HSA_AGENT_INFO_CACHE_SIZE, caches) == HSA_STATUS_SUCCESS) {
      if (caches[0])
         dev->info.l1_cache_size = caches[0];
      if (caches[1])
         dev->info.l2_cache_size = caches[1];
   }
   if (hsa->hsa_agent_get_info(agent, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_CACHELINE_SIZE,
                               &u32) == HSA_STATUS_SUCCESS && u32)
      dev->info.cacheline_size = u32;
   if (hsa->hsa_agent_get_info(agent, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_MEMORY_WIDTH,
                               &u32) == HSA_STATUS_SUCCESS && u32)
      dev->info.memory_bus_width = u32;
   hsa->hsa_agent_get_info(agent, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_PRODUCT_NAME,
                           dev->product_name); /* char[64] */
   dev->product_name[63] = '\0';
   if (!dev->product_name[0])
      snprintf(dev->product_name, sizeof(dev->product_name), "%s", dev->info.board);
   hsa->hsa_agent_get_info(agent, HSA_AGENT_INFO_QUEUE_MAX_SIZE, &dev->queue_max_size);
   hsa->hsa_agent_get_info(agent, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_BDFID, &dev->pci_bdf);
   hsa->hsa_agent_get_info(agent, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_DOMAIN, &dev->pci_domain);
   hsa->hsa_agent_get_info(agent, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_CHIP_ID, &dev->chip_id);
   hsa->hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &dev->timestamp_frequency);

   /* LDS from the group-segment pool when the runtime reports one. */
   struct pool_search search = { .dev = dev, .gpu = true };
   hsa->hsa_amd_agent_iterate_memory_pools(agent, pick_pool, &search);
   if (!dev->device_pool.handle) {
      icd_log(ICD_LOG_WARN, "platform", "GPU agent %s has no coarse-grained global pool",
              dev->name);
      icd_free(dev);
      return CL_DEVICE_NOT_AVAILABLE;
   }
   size_t pool_size = 0, alloc_max = 0;
   hsa->hsa_amd_memory_pool_get_info(dev->device_pool, HSA_AMD_MEMORY_POOL_INFO_SIZE,
                                     &pool_size);
   hsa->hsa_amd_memory_pool_get_info(dev->device_pool, HSA_AMD_MEMORY_POOL_INFO_ALLOC_MAX_SIZE,
                                     &alloc_max);
   dev->global_mem_size = pool_size;
   dev->max_alloc_size = alloc_max && alloc_max < pool_size ? alloc_max : pool_size;

   hsa->hsa_iterate_agents(find_cpu_agent, &dev->cpu_agent);
   if (dev->cpu_agent.handle) {
      search.gpu = false;
      hsa->hsa_amd_agent_iterate_memory_pools(dev->cpu_agent, pick_pool, &search);
   }
   plat__device_image_init(dev);
   cl_int err = plat__device_lists_init(dev);
   if (err != CL_SUCCESS) {
      icd_free(dev);
      return err;
   }
   device_limits_init(dev);
   *out = dev;
   return CL_SUCCESS;
}

void *
plat_device_slot(const struct _cl_device_id *dev, enum plat_device_slot slot, size_t size)
{
   /* The slots are the other modules' state, not part of what the device reports: writable
    * through a const device. */
   _Atomic(void *) *p = &((struct _cl_device_id *)dev)->slots[slot];
   void *state = atomic_load_explicit(p, memory_order_acquire);
   if (state)
      return state;
   void *mine = icd_calloc(1, size);
   if (!mine)
      return NULL;
   if (atomic_compare_exchange_strong_explicit(p, &state, mine, memory_order_acq_rel,
                                               memory_order_acquire))
      return mine;
   icd_free(mine); /* another thread's came first */
   return state;
}

/* ---- capabilities ----------------------------------------------------------------- */

/* The intermediate languages of clCreateProgramWithIL: SPIR-V 1.0-1.4, what OpenCL 3.1
 * requires (the 1.4 instructions the translator for LLVM 15 lacks are lowered first:
 * compiler/comp_spirv_lower.c). */
static const cl_name_version il_versions[] = {
   { CL_MAKE_VERSION(1, 0, 0), "SPIR-V" }, { CL_MAKE_VERSION(1, 1, 0), "SPIR-V" },
   { CL_MAKE_VERSION(1, 2, 0), "SPIR-V" }, { CL_MAKE_VERSION(1, 3, 0), "SPIR-V" },
   { CL_MAKE_VERSION(1, 4, 0), "SPIR-V" },
};
static const char il_version_string[] = "SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2 SPIR-V_1.3 SPIR-V_1.4";

static bool
is_opencl_30(void)
{
   return plat_opencl_version() >= CL_MAKE_VERSION(3, 0, 0);
}

/* CL_DEVICE_OPENCL_C_ALL_VERSIONS: 1.0-1.2 always, 2.0 and 3.0 in the 3.0 profile and later
 * (2.0: every 2.0 feature is supported, device-side enqueue last), 3.1 in the 3.1 profile. */
static const cl_name_version opencl_c_versions[] = {
   { CL_MAKE_VERSION(1, 0, 0), "OpenCL C" },
   { CL_MAKE_VERSION(1, 1, 0), "OpenCL C" },
   { CL_MAKE_VERSION(1, 2, 0), "OpenCL C" },
   { CL_MAKE_VERSION(2, 0, 0), "OpenCL C" },
   { CL_MAKE_VERSION(3, 0, 0), "OpenCL C" },
   { CL_MAKE_VERSION(3, 1, 0), "OpenCL C" },
};
#define NUM_OPENCL_C_VERSIONS (sizeof(opencl_c_versions) / sizeof(opencl_c_versions[0]))

/* The atomic memory capabilities the features say (API §4.2 and OpenCL C 3.0 §6.15.12):
 * relaxed order and work-group scope always, each further order and scope with its feature. */
static cl_device_atomic_capabilities
atomic_memory_capabilities(const struct _cl_device_id *dev)
{
   cl_device_atomic_capabilities caps = CL_DEVICE_ATOMIC_ORDER_RELAXED |
                                        CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP;
   if (plat_device_has_feature(dev, "__opencl_c_atomic_order_acq_rel"))
      caps |= CL_DEVICE_ATOMIC_ORDER_ACQ_REL;
   if (plat_device_has_feature(dev, "__opencl_c_atomic_order_seq_cst"))
      caps |= CL_DEVICE_ATOMIC_ORDER_SEQ_CST;
   if (plat_device_has_feature(dev, "__opencl_c_atomic_scope_device"))
      caps |= CL_DEVICE_ATOMIC_SCOPE_DEVICE;
   if (plat_device_has_feature(dev, "__opencl_c_atomic_scope_all_devices"))
      caps |= CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES;
   return caps;
}

/* Fences: the required minimum (relaxed, acq_rel, work-group scope) plus the orders and
 * scopes the atomic features add — a fence is the same s_waitcnt/cache maintenance an
 * atomic of that order and scope uses (llvm-AMDGPUUsage "Memory Model GFX942"/GFX9). */
static cl_device_atomic_capabilities
atomic_fence_capabilities(const struct _cl_device_id *dev)
{
   cl_device_atomic_capabilities caps = CL_DEVICE_ATOMIC_ORDER_RELAXED |
                                        CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
                                        CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP;
   cl_device_atomic_capabilities mem = atomic_memory_capabilities(dev);
   return caps | (mem & (CL_DEVICE_ATOMIC_ORDER_SEQ_CST | CL_DEVICE_ATOMIC_SCOPE_DEVICE |
                         CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES));
}

/*
 * clSVMAlloc (memory/mem_svm.c), the §5.6.2 commands and SVM kernel arguments work on
 * coarse-grained buffers (the device pool) and, where the CPU agent has a fine-grained
 * pool, on fine-grained buffers with atomics: memory the host and every GPU of the context
 * reach without maps, which the GPU maps uncached (ROCr's fine-grained system pool; the
 * software GPU's L2 model keeps no line of it: sim/sim_isa.h SIM_ALLOC_COARSE), so device
 * atomics at memory_scope_all_svm_devices are host-visible while a kernel runs.
 */
cl_device_svm_capabilities
plat_device_svm_capabilities(const struct _cl_device_id *dev)
{
   if (!plat_profile_opencl_c_20())
      return 0;
   cl_device_svm_capabilities caps = CL_DEVICE_SVM_COARSE_GRAIN_BUFFER;
   if (dev->has_system_pool)
      caps |= CL_DEVICE_SVM_FINE_GRAIN_BUFFER | CL_DEVICE_SVM_ATOMICS;
   return caps;
}

/*
 * Unified shared memory (memory/mem_usm.c). Host and shared allocations are the CPU agent's
 * fine-grained system pool with every GPU of the context granted access, the memory
 * fine-grained SVM uses: uncached on the GPU, so host and kernels (and other GPUs of the
 * context) access and update it concurrently, atomics included (api_svm_fine checks it,
 * across two GPUs too). Device allocations are the GPU's coarse-grained device pool: access
 * and atomics from the device, nothing concurrent with the host, which is not to touch
 * them. No system allocator's memory (malloc) is reachable by a kernel.
 */
cl_bitfield
plat_device_usm_capabilities(const struct _cl_device_id *dev, cl_device_info param)
{
   const cl_bitfield all = CL_UNIFIED_SHARED_MEMORY_ACCESS_INTEL |
                           CL_UNIFIED_SHARED_MEMORY_ATOMIC_ACCESS_INTEL |
                           CL_UNIFIED_SHARED_MEMORY_CONCURRENT_ACCESS_INTEL |
                           CL_UNIFIED_SHARED_MEMORY_CONCURRENT_ATOMIC_ACCESS_INTEL;
   if (!plat_device_has_extension(dev, "cl_intel_unified_shared_memory"))
      return 0;
   switch (param) {
   case CL_DEVICE_HOST_MEM_CAPABILITIES_INTEL:
   case CL_DEVICE_SINGLE_DEVICE_SHARED_MEM_CAPABILITIES_INTEL:
   case CL_DEVICE_CROSS_DEVICE_SHARED_MEM_CAPABILITIES_INTEL:
      return dev->has_system_pool ? all : 0;
   case CL_DEVICE_DEVICE_MEM_CAPABILITIES_INTEL:
      return CL_UNIFIED_SHARED_MEMORY_ACCESS_INTEL | CL_UNIFIED_SHARED_MEMORY_ATOMIC_ACCESS_INTEL;
   default: /* CL_DEVICE_SHARED_SYSTEM_MEM_CAPABILITIES_INTEL */
      return 0;
   }
}

/* ---- entry points ----------------------------------------------------------------- */

static bool
device_type_valid(cl_device_type type)
{
   const cl_device_type known = CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU |
                                CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR |
                                CL_DEVICE_TYPE_CUSTOM;
   return type == CL_DEVICE_TYPE_ALL || (type && !(type & ~known));
}

cl_int CL_API_CALL
plat_GetDeviceIDs(cl_platform_id platform, cl_device_type device_type, cl_uint num_entries,
                  cl_device_id *devices, cl_uint *num_devices)
{
   struct _cl_platform_id *plat = platform ? plat_platform_from_handle(platform)
                                           : plat_platform_get();
   if (!plat)
      return ICD_ERROR(CL_INVALID_PLATFORM, "platform %p is not an hsacl platform",
                       (void *)platform);
   if (!device_type_valid(device_type))
      return ICD_ERROR(CL_INVALID_DEVICE_TYPE, "device_type 0x%llx is not a valid type",
                       (unsigned long long)device_type);
   if ((num_entries == 0 && devices) || (!devices && !num_devices))
      return ICD_ERROR(CL_INVALID_VALUE, "num_entries %u, devices %p, num_devices %p",
                       num_entries, (void *)devices, (void *)num_devices);
   plat = plat_platform_get();
   /* Every hsacl device is a GPU, and the first is the default. */
   cl_uint found = 0;
   if (device_type & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_DEFAULT))
      found = (device_type & CL_DEVICE_TYPE_GPU) || device_type == CL_DEVICE_TYPE_ALL
                 ? plat->num_devices
                 : (plat->num_devices ? 1 : 0);
   if (found == 0) {
      if (plat->num_devices == 0 && plat->init_status == CL_OUT_OF_HOST_MEMORY)
         return CL_OUT_OF_HOST_MEMORY; /* logged by the discovery; the next call retries */
      if (plat->num_devices == 0)
         return ICD_ERROR(CL_DEVICE_NOT_FOUND, "no GPU device: %s", rt_failure());
      return ICD_ERROR(CL_DEVICE_NOT_FOUND, "hsacl has only GPU devices (asked for 0x%llx)",
                       (unsigned long long)device_type);
   }
   if (devices) {
      for (cl_uint i = 0; i < found && i < num_entries; i++)
         devices[i] = plat_device_to_handle(plat->devices[i]);
   }
   if (num_devices)
      *num_devices = found;
   return CL_SUCCESS;
}

#define RET_SCALAR(type, v) \
   return ICD_GET_INFO_SCALAR(type, (v), param_value_size, param_value, param_value_size_ret)
#define RET_STRING(s) \
   return icd_get_info_string((s), param_value_size, param_value, param_value_size_ret)
#define RET_ARRAY(ptr, bytes) \
   return icd_get_info((ptr), (bytes), param_value_size, param_value, param_value_size_ret)

/* The OpenCL version that added device query `q` (API §4.2 of OpenCL 2.1 and 3.0); 0 for
 * the queries of OpenCL 2.0 and before, and for the extensions' own (answered where the
 * device reports the extension). */
static cl_version
query_version(cl_device_info q)
{
   switch (q) {
   case CL_DEVICE_IL_VERSION: /* also CL_DEVICE_IL_VERSION_KHR: see plat_GetDeviceInfoAPI */
   case CL_DEVICE_MAX_NUM_SUB_GROUPS:
   case CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS:
      return CL_MAKE_VERSION(2, 1, 0);
   case CL_DEVICE_NUMERIC_VERSION:
   case CL_DEVICE_EXTENSIONS_WITH_VERSION:
   case CL_DEVICE_ILS_WITH_VERSION:
   case CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION:
   case CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES:
   case CL_DEVICE_ATOMIC_FENCE_CAPABILITIES:
   case CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT:
   case CL_DEVICE_OPENCL_C_ALL_VERSIONS:
   case CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
   case CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT:
   case CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT:
   case CL_DEVICE_OPENCL_C_FEATURES:
   case CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES:
   case CL_DEVICE_PIPE_SUPPORT:
   case CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED:
      return CL_MAKE_VERSION(3, 0, 0);
   default:
      return 0;
   }
}

cl_int CL_API_CALL
plat_GetDeviceInfoAPI(cl_device_id device, cl_device_info param_name, size_t param_value_size,
                      void *param_value, size_t *param_value_size_ret)
{
   struct _cl_device_id *dev = plat_device_from_handle(device);
   if (!dev)
      return ICD_ERROR(CL_INVALID_DEVICE, "device %p is not an hsacl device", (void *)device);
   /* The 2.0 profile is an OpenCL 2.0 device: a query a later version added is not "one of
    * the supported values" (API 2.0 §4.2, CL_INVALID_VALUE), except CL_DEVICE_IL_VERSION_KHR
    * with cl_khr_il_program. (The 1.2 profile answers them as a device without the
    * capability, as it did before the profiles existed.) */
   cl_version added = query_version(param_name);
   if (added && !plat_query_in_profile(added) &&
       !(param_name == CL_DEVICE_IL_VERSION &&
         plat_device_has_extension(dev, "cl_khr_il_program")))
      return ICD_ERROR(CL_INVALID_VALUE, "device query 0x%x is not part of OpenCL %u.%u",
                       (unsigned)param_name, PLAT_CL_VERSION_MAJOR, PLAT_CL_VERSION_MINOR);
   return plat_GetDeviceInfo(device, param_name, param_value_size, param_value,
                             param_value_size_ret);
}

cl_int CL_API_CALL
plat_GetDeviceInfo(cl_device_id device, cl_device_info param_name, size_t param_value_size,
                   void *param_value, size_t *param_value_size_ret)
{
   struct _cl_device_id *dev = plat_device_from_handle(device);
   if (!dev)
      return ICD_ERROR(CL_INVALID_DEVICE, "device %p is not an hsacl device", (void *)device);
   const plat_gpu_info *gi = &dev->info;
   const struct plat_device_limits *lim = &dev->limits;
   char buf[640];

   switch (param_name) {
   case CL_DEVICE_TYPE:
      RET_SCALAR(cl_device_type, CL_DEVICE_TYPE_GPU);
   case CL_DEVICE_VENDOR_ID:
      RET_SCALAR(cl_uint, AMD_VENDOR_ID);
   case CL_DEVICE_MAX_COMPUTE_UNITS:
      RET_SCALAR(cl_uint, gi->compute_units);
   case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS:
      RET_SCALAR(cl_uint, lim->max_work_item_dimensions);
   case CL_DEVICE_MAX_WORK_ITEM_SIZES: {
      size_t sizes[3] = { gi->max_workgroup_size, gi->max_workgroup_size,
                          gi->max_workgroup_size };
      RET_ARRAY(sizes, sizeof(sizes));
   }
   case CL_DEVICE_MAX_WORK_GROUP_SIZE:
      /* The hardware's. Kernels are built for 256 work-items (clang's OpenCL default, which
       * leaves each wave its SIMD's whole register file); a larger launch runs the program
       * rebuilt for this size (compiler/comp_wide.c), and CL_KERNEL_WORK_GROUP_SIZE says
       * what each kernel takes. */
      RET_SCALAR(size_t, gi->max_workgroup_size);
   case CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR:
   case CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR:
      RET_SCALAR(cl_uint, 4);
   case CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT:
   case CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT:
      RET_SCALAR(cl_uint, 2);
   case CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT:
   case CL_DEVICE_NATIVE_VECTOR_WIDTH_INT:
   case CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG:
   case CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG:
   case CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT:
   case CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT:
      RET_SCALAR(cl_uint, 1);
   case CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE:
   case CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE:
      RET_SCALAR(cl_uint, plat_device_has_extension(dev, "cl_khr_fp64") ? 1 : 0);
   case CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF:
   case CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF:
      /* 0 without cl_khr_fp16 (OpenCL 3.0 §4.2 table); gfx9 packs two halves a register
       * (v_pk_*_f16), like shorts. */
      RET_SCALAR(cl_uint, plat_device_has_extension(dev, "cl_khr_fp16") ? 2 : 0);
   case CL_DEVICE_MAX_CLOCK_FREQUENCY:
      RET_SCALAR(cl_uint, gi->max_clock_mhz);
   case CL_DEVICE_ADDRESS_BITS:
      RET_SCALAR(cl_uint, lim->address_bits);
   case CL_DEVICE_MAX_MEM_ALLOC_SIZE:
      RET_SCALAR(cl_ulong, dev->max_alloc_size);
   case CL_DEVICE_MAX_PARAMETER_SIZE:
      RET_SCALAR(size_t, lim->max_parameter_size);
   case CL_DEVICE_MEM_BASE_ADDR_ALIGN:
      RET_SCALAR(cl_uint, lim->mem_base_addr_align);
   case CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE:
      RET_SCALAR(cl_uint, lim->min_data_type_align_size);
   case CL_DEVICE_SINGLE_FP_CONFIG:
      /* -cl-fp32-correctly-rounded-divide-sqrt gives IEEE division and sqrt (the ROCm
       * device libraries' __oclc_correctly_rounded_sqrt32, no 2.5-ulp fpmath on fdiv):
       * tests/platform/api_fp_config_test.c checks them bit for bit. */
      RET_SCALAR(cl_device_fp_config, CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST |
                                         CL_FP_FMA | CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT);
   case CL_DEVICE_DOUBLE_FP_CONFIG:
      /* The set cl_khr_fp64 requires (OpenCL 3.0 §4.2): gfx9+ has all of it in hardware. */
      RET_SCALAR(cl_device_fp_config,
                 plat_device_has_extension(dev, "cl_khr_fp64")
                    ? CL_FP_FMA | CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO |
                         CL_FP_ROUND_TO_INF | CL_FP_INF_NAN | CL_FP_DENORM
                    : 0);
   case CL_DEVICE_HALF_FP_CONFIG:
      /* cl_khr_fp16 requires round to nearest (or zero) and INF/NaN; gfx9 also keeps f16
       * denormals (MODE FP_DENORM f16/f64 on, as LLVM sets it) and has a fused v_fma_f16. */
      RET_SCALAR(cl_device_fp_config,
                 plat_device_has_extension(dev, "cl_khr_fp16")
                    ? CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST | CL_FP_FMA
                    : 0);
   case CL_DEVICE_GLOBAL_MEM_CACHE_TYPE:
      RET_SCALAR(cl_device_mem_cache_type, CL_READ_WRITE_CACHE);
   case CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE:
      RET_SCALAR(cl_uint, gi->cacheline_size);
   case CL_DEVICE_GLOBAL_MEM_CACHE_SIZE:
      RET_SCALAR(cl_ulong, gi->l2_cache_size);
   case CL_DEVICE_GLOBAL_MEM_SIZE:
      RET_SCALAR(cl_ulong, dev->global_mem_size);
   case CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE:
      RET_SCALAR(cl_ulong, lim->max_constant_buffer_size);
   case CL_DEVICE_MAX_CONSTANT_ARGS:
      RET_SCALAR(cl_uint, lim->max_constant_args);
   case CL_DEVICE_LOCAL_MEM_TYPE:
      RET_SCALAR(cl_device_local_mem_type, CL_LOCAL);
   case CL_DEVICE_LOCAL_MEM_SIZE:
      RET_SCALAR(cl_ulong, gi->lds_size);
   case CL_DEVICE_ERROR_CORRECTION_SUPPORT:
      RET_SCALAR(cl_bool, strstr(dev->isa_name, "sramecc+") ? CL_TRUE : CL_FALSE);
   case CL_DEVICE_HOST_UNIFIED_MEMORY:
      RET_SCALAR(cl_bool, CL_FALSE);
   case CL_DEVICE_PROFILING_TIMER_RESOLUTION:
      RET_SCALAR(size_t, lim->profiling_timer_resolution);
   case CL_DEVICE_ENDIAN_LITTLE:
   case CL_DEVICE_AVAILABLE:
   case CL_DEVICE_PREFERRED_INTEROP_USER_SYNC:
      RET_SCALAR(cl_bool, CL_TRUE);
   case CL_DEVICE_COMPILER_AVAILABLE:
   case CL_DEVICE_LINKER_AVAILABLE:
      /* One in-process compiler does both (compiler/comp_llvm.cpp); §4.2 requires the
       * linker whenever the compiler is available. */
      RET_SCALAR(cl_bool, CL_TRUE);
   case CL_DEVICE_EXECUTION_CAPABILITIES:
      RET_SCALAR(cl_device_exec_capabilities, CL_EXEC_KERNEL);
   case CL_DEVICE_QUEUE_ON_HOST_PROPERTIES:
      RET_SCALAR(cl_command_queue_properties,
                 CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE);
   case CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES:
      RET_SCALAR(cl_command_queue_properties,
                 plat_device_has_feature(dev, "__opencl_c_device_enqueue")
                    ? CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE
                    : 0);
   case CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE:
      RET_SCALAR(cl_uint, lim->queue_on_device_preferred_size);
   case CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE:
      RET_SCALAR(cl_uint, lim->queue_on_device_max_size);
   case CL_DEVICE_MAX_ON_DEVICE_QUEUES:
      RET_SCALAR(cl_uint, lim->max_on_device_queues);
   case CL_DEVICE_MAX_ON_DEVICE_EVENTS:
      RET_SCALAR(cl_uint, lim->max_on_device_events);
   case CL_DEVICE_MAX_PIPE_ARGS:
      RET_SCALAR(cl_uint, lim->max_pipe_args);
   case CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS:
      RET_SCALAR(cl_uint, lim->pipe_max_active_reservations);
   case CL_DEVICE_PIPE_MAX_PACKET_SIZE:
      RET_SCALAR(cl_uint, lim->pipe_max_packet_size);
   case CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT:
   case CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT:
   case CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT:
      RET_SCALAR(cl_uint, 0);
   case CL_DEVICE_MAX_NUM_SUB_GROUPS:
      RET_SCALAR(cl_uint, lim->max_num_sub_groups);
   case CL_DEVICE_NAME:
      RET_STRING(dev->name);
   case CL_DEVICE_VENDOR:
      RET_STRING("Advanced Micro Devices, Inc.");
   case CL_DRIVER_VERSION: {
      const struct rt_hsa *hsa = rt_hsa();
      if (hsa && hsa->kind == RT_RUNTIME_SIM) /* the agent's target: HSACL_SIM_GPUS */
         snprintf(buf, sizeof(buf), "hsacl %s (HSA runtime: software %s agent)",
                  HSACL_VERSION_STRING, dev->name);
      else
         snprintf(buf, sizeof(buf), "hsacl %s (HSA runtime: %s)", HSACL_VERSION_STRING,
                  !hsa ? "none" : hsa->kind == RT_RUNTIME_ROCR ? "ROCr" : hsa->path);
      RET_STRING(buf);
   }
   case CL_DEVICE_PROFILE:
      RET_STRING("FULL_PROFILE");
   case CL_DEVICE_VERSION:
      snprintf(buf, sizeof(buf), "OpenCL %u.%u hsacl %s", PLAT_CL_VERSION_MAJOR,
               PLAT_CL_VERSION_MINOR, HSACL_VERSION_STRING);
      RET_STRING(buf);
   case CL_DEVICE_NUMERIC_VERSION:
      RET_SCALAR(cl_version, plat_opencl_version());
   case CL_DEVICE_OPENCL_C_VERSION:
      /* "The highest fully backwards compatible OpenCL C version" (API §4.2): 2.0 in the 2.0
       * and 3.x profiles, where every OpenCL C 2.0 feature is supported (the CTS compiler
       * opencl_c_versions checks the list); 1.2 in the 1.2 profile. */
      RET_STRING(plat_profile_opencl_c_20() ? "OpenCL C 2.0 " : "OpenCL C 1.2 ");
   case CL_DEVICE_OPENCL_C_ALL_VERSIONS:
      RET_ARRAY(opencl_c_versions,
                (plat_opencl_version() >= CL_MAKE_VERSION(3, 1, 0) ? NUM_OPENCL_C_VERSIONS
                 : is_opencl_30()                                   ? NUM_OPENCL_C_VERSIONS - 1
                                                                    : NUM_OPENCL_C_VERSIONS - 3) *
                   sizeof(cl_name_version));
   case CL_DEVICE_OPENCL_C_FEATURES:
      /* The features are listed from OpenCL 3.0 on (the 2.0 profile refuses the query). */
      RET_ARRAY(dev->features, is_opencl_30() ? dev->num_features * sizeof(cl_name_version) : 0);
   case CL_DEVICE_EXTENSIONS:
      RET_STRING(dev->extension_string);
   case CL_DEVICE_EXTENSIONS_WITH_VERSION:
      RET_ARRAY(dev->extensions, dev->num_extensions * sizeof(cl_name_version));
   case CL_DEVICE_PLATFORM:
      RET_SCALAR(cl_platform_id, plat_platform_to_handle(dev->platform));
   case CL_DEVICE_PRINTF_BUFFER_SIZE:
      RET_SCALAR(size_t, lim->printf_buffer_size);
   case CL_DEVICE_BUILT_IN_KERNELS:
      RET_STRING("");
   case CL_DEVICE_IL_VERSION:
      /* SPIR-V 1.0-1.4 (il_versions) where IL programs are taken (cl_khr_il_program: the
       * profiles from 2.0 on, with the translator; CL_DEVICE_IL_VERSION_KHR is the same
       * query); "" otherwise. */
      RET_STRING(plat_device_has_extension(dev, "cl_khr_il_program") ? il_version_string : "");
   case CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION:
      RET_ARRAY(NULL, 0);
   case CL_DEVICE_ILS_WITH_VERSION:
      if (!plat_device_has_extension(dev, "cl_khr_il_program"))
         RET_ARRAY(NULL, 0);
      RET_ARRAY(il_versions, sizeof(il_versions));
   case CL_DEVICE_PARENT_DEVICE:
      RET_SCALAR(cl_device_id, NULL);
   case CL_DEVICE_PARTITION_MAX_SUB_DEVICES:
      RET_SCALAR(cl_uint, 0);
   case CL_DEVICE_PARTITION_PROPERTIES:
      RET_SCALAR(cl_device_partition_property, 0);
   case CL_DEVICE_PARTITION_AFFINITY_DOMAIN:
      RET_SCALAR(cl_device_affinity_domain, 0);
   case CL_DEVICE_PARTITION_TYPE:
      /* A root device: no partition type (OpenCL 3.0 §4.2, size 0 allowed). */
      RET_ARRAY(NULL, 0);
   case CL_DEVICE_REFERENCE_COUNT:
      RET_SCALAR(cl_uint, 1); /* root devices are not reference counted */
   case CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE:
      RET_SCALAR(size_t, lim->max_global_variable_size);
   case CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE:
      RET_SCALAR(size_t, lim->global_variable_preferred_total_size);
   case CL_DEVICE_SVM_CAPABILITIES:
      RET_SCALAR(cl_device_svm_capabilities, plat_device_svm_capabilities(dev));
   case CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT:
      /* dispatch/disp_kernel.c launches partial work-groups of OpenCL C 2.0+ kernels (AQL
       * grid sizes need no multiple; hidden_remainder_*): claimed in the profiles that build
       * such kernels (a 3.0 query: the 2.0 profile, where OpenCL C 2.0 has them, refuses it). */
      RET_SCALAR(cl_bool, plat_profile_opencl_c_20() ? CL_TRUE : CL_FALSE);
   case CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT:
      RET_SCALAR(cl_bool, plat_device_has_feature(dev, "__opencl_c_work_group_collective_functions")
                             ? CL_TRUE
                             : CL_FALSE);
   case CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT:
      RET_SCALAR(cl_bool, plat_device_has_feature(dev, "__opencl_c_generic_address_space")
                             ? CL_TRUE
                             : CL_FALSE);
   case CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS:
      /* The waves of a work-group run interleaved (cl_khr_subgroups requires it). */
      RET_SCALAR(cl_bool, plat_device_has_extension(dev, "cl_khr_subgroups") ? CL_TRUE : CL_FALSE);
   case CL_DEVICE_PIPE_SUPPORT:
      RET_SCALAR(cl_bool, plat_device_has_feature(dev, "__opencl_c_pipes") ? CL_TRUE : CL_FALSE);
   case CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES:
      RET_SCALAR(cl_device_atomic_capabilities, atomic_memory_capabilities(dev));
   case CL_DEVICE_ATOMIC_FENCE_CAPABILITIES:
      RET_SCALAR(cl_device_atomic_capabilities, atomic_fence_capabilities(dev));
   case CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
      RET_SCALAR(size_t, gi->wavefront_size);
   case CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES:
      RET_SCALAR(cl_device_device_enqueue_capabilities,
                 plat_device_has_feature(dev, "__opencl_c_device_enqueue")
                    ? CL_DEVICE_QUEUE_SUPPORTED | CL_DEVICE_QUEUE_REPLACEABLE_DEFAULT
                    : 0);
   case CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED:
      /* Not conformant yet. The 3.0 profile answers a well-formed vYYYY-MM-DD-XX date. */
      RET_STRING(is_opencl_30() ? "v0000-01-01-00" : "v0000-00-00-00");
   default: {
      cl_int err;
      if (plat__device_info_vendor(dev, param_name, param_value_size, param_value,
                                   param_value_size_ret, &err) ||
          plat__device_info_spirv(dev, param_name, param_value_size, param_value,
                                  param_value_size_ret, &err) ||
          plat__device_info_image(dev, param_name, param_value_size, param_value,
                                  param_value_size_ret, &err))
         return err;
      return ICD_ERROR(CL_INVALID_VALUE, "unknown or unsupported device query 0x%x",
                       (unsigned)param_name);
   }
   }
}

cl_int CL_API_CALL
plat_CreateSubDevices(cl_device_id in_device, const cl_device_partition_property *properties,
                      cl_uint num_devices, cl_device_id *out_devices, cl_uint *num_devices_ret)
{
   struct _cl_device_id *dev = plat_device_from_handle(in_device);
   if (!dev)
      return ICD_ERROR(CL_INVALID_DEVICE, "in_device %p is not an hsacl device",
                       (void *)in_device);
   if (!properties)
      return ICD_ERROR(CL_INVALID_VALUE, "properties is NULL");
   switch (properties[0]) {
   case CL_DEVICE_PARTITION_EQUALLY:
   case CL_DEVICE_PARTITION_BY_COUNTS:
   case CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN:
      /* CL_DEVICE_PARTITION_PROPERTIES reports none of these. */
      return ICD_ERROR(CL_INVALID_VALUE, "partition type 0x%llx is not supported by %s",
                       (unsigned long long)properties[0], dev->name);
   default:
      return ICD_ERROR(CL_INVALID_VALUE, "unknown partition property 0x%llx",
                       (unsigned long long)properties[0]);
   }
}

cl_int CL_API_CALL
plat_RetainDevice(cl_device_id device)
{
   if (!plat_device_from_handle(device))
      return ICD_ERROR(CL_INVALID_DEVICE, "device %p is not an hsacl device", (void *)device);
   return CL_SUCCESS; /* root devices: no-op (OpenCL 3.0 §4.3) */
}

cl_int CL_API_CALL
plat_ReleaseDevice(cl_device_id device)
{
   if (!plat_device_from_handle(device))
      return ICD_ERROR(CL_INVALID_DEVICE, "device %p is not an hsacl device", (void *)device);
   return CL_SUCCESS;
}

cl_int CL_API_CALL
plat_GetHostTimer(cl_device_id device, cl_ulong *host_timestamp)
{
   if (!plat_device_from_handle(device))
      return ICD_ERROR(CL_INVALID_DEVICE, "device %p is not an hsacl device", (void *)device);
   if (!host_timestamp)
      return ICD_ERROR(CL_INVALID_VALUE, "host_timestamp is NULL");
   *host_timestamp = plat_host_timer_ns();
   return CL_SUCCESS;
}

cl_int CL_API_CALL
plat_GetDeviceAndHostTimer(cl_device_id device, cl_ulong *device_timestamp,
                           cl_ulong *host_timestamp)
{
   struct _cl_device_id *dev = plat_device_from_handle(device);
   if (!dev)
      return ICD_ERROR(CL_INVALID_DEVICE, "device %p is not an hsacl device", (void *)device);
   if (!device_timestamp || !host_timestamp)
      return ICD_ERROR(CL_INVALID_VALUE, "device_timestamp or host_timestamp is NULL");
   const struct rt_hsa *hsa = rt_hsa();
   uint64_t ticks = 0;
   hsa_status_t st = hsa->hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &ticks);
   *host_timestamp = plat_host_timer_ns();
   if (st != HSA_STATUS_SUCCESS)
      return rt_status_to_cl(st, "reading the HSA system timestamp");
   uint64_t f = dev->timestamp_frequency ? dev->timestamp_frequency : 1000000000ull;
   *device_timestamp = (cl_ulong)((unsigned __int128)ticks * 1000000000ull / f);
   return CL_SUCCESS;
}
