/*
 * platform/plat.h — platform, devices (one per HSA GPU agent), per-target capability
 * records, and contexts.
 */
#ifndef PLAT_H
#define PLAT_H

#include "icd.h"
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include <CL/cl_ext.h>

/* cl_ext_float_atomics 1.0.0 and cl_khr_kernel_clock 1.0.0 (the registry's values): Debian's
 * OpenCL headers (2023.04) predate them. */
#ifndef CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT
typedef cl_bitfield cl_device_fp_atomic_capabilities_ext;
#define CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT 0x4231
#define CL_DEVICE_DOUBLE_FP_ATOMIC_CAPABILITIES_EXT 0x4232
#define CL_DEVICE_HALF_FP_ATOMIC_CAPABILITIES_EXT 0x4233
#define CL_DEVICE_GLOBAL_FP_ATOMIC_LOAD_STORE_EXT (1 << 0)
#define CL_DEVICE_GLOBAL_FP_ATOMIC_ADD_EXT (1 << 1)
#define CL_DEVICE_GLOBAL_FP_ATOMIC_MIN_MAX_EXT (1 << 2)
#define CL_DEVICE_LOCAL_FP_ATOMIC_LOAD_STORE_EXT (1 << 16)
#define CL_DEVICE_LOCAL_FP_ATOMIC_ADD_EXT (1 << 17)
#define CL_DEVICE_LOCAL_FP_ATOMIC_MIN_MAX_EXT (1 << 18)
#endif
#ifndef CL_DEVICE_KERNEL_CLOCK_CAPABILITIES_KHR
typedef cl_bitfield cl_device_kernel_clock_capabilities_khr;
#define CL_DEVICE_KERNEL_CLOCK_CAPABILITIES_KHR 0x1076
#define CL_DEVICE_KERNEL_CLOCK_SCOPE_DEVICE_KHR (1 << 0)
#define CL_DEVICE_KERNEL_CLOCK_SCOPE_WORK_GROUP_KHR (1 << 1)
#define CL_DEVICE_KERNEL_CLOCK_SCOPE_SUB_GROUP_KHR (1 << 2)
#endif

/* cl_ext_buffer_device_address 1.0.2 (the registry's values): Debian's OpenCL headers
 * (2023.04) predate it. */
#ifndef CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT
typedef cl_ulong cl_mem_device_address_ext;
typedef cl_int CL_API_CALL clSetKernelArgDevicePointerEXT_t(cl_kernel kernel, cl_uint arg_index,
                                                            cl_mem_device_address_ext arg_value);
typedef clSetKernelArgDevicePointerEXT_t *clSetKernelArgDevicePointerEXT_fn;
#define CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT 0x5000
#define CL_MEM_DEVICE_ADDRESS_EXT 0x5001
#define CL_KERNEL_EXEC_INFO_DEVICE_PTRS_EXT 0x5002
#endif

/* cl_khr_semaphore 1.0.0's device list property (the registry's value; Debian's headers of
 * 2023.04 name a provisional one). */
#ifndef CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR
#define CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR 0x2053
#define CL_SEMAPHORE_DEVICE_HANDLE_LIST_END_KHR 0
#endif

/* ---- per-target capability record (conventions.md rule 15) -------------------------- */

/*
 * What a GPU target is, independent of any hardware: constructible from a target name so
 * compiler and memory tests run anywhere. Values describe the reference board of the
 * target; a live device overrides what its HSA agent reports (compute units, clock,
 * caches, memory).
 */
typedef struct plat_gpu_info {
   char target[32];           /* processor: "gfx906" */
   const char *family;        /* "Vega 20" */
   const char *board;         /* reference board: "AMD Radeon VII" */
   unsigned gfx_major, gfx_minor, gfx_stepping; /* 9, 0, 6 */
   unsigned wavefront_size;   /* default wavefront size for OpenCL: 64 (gfx9) or 32 */
   unsigned compute_units;
   unsigned simds_per_cu;
   unsigned max_waves_per_simd;
   unsigned max_clock_mhz;
   unsigned lds_size;         /* bytes available to one work-group */
   unsigned max_workgroup_size;
   unsigned l1_cache_size;    /* vector L1 / L0 per CU, bytes */
   unsigned l2_cache_size;    /* bytes */
   unsigned cacheline_size;   /* bytes */
   unsigned sgprs_per_wave;   /* addressable SGPRs */
   unsigned vgprs_per_wave;   /* addressable VGPRs (arch VGPRs) */
   uint64_t memory_size;      /* device memory of the reference board, bytes */
   unsigned memory_bus_width; /* bits, reference board (HSA_AMD_AGENT_INFO_MEMORY_WIDTH) */
   bool xnack_supported;      /* target-ID feature xnack is settable */
   bool sramecc_supported;    /* target-ID feature sramecc is settable */
   bool packed_fp32;          /* v_pk_fma_f32 and friends (gfx90a, gfx942) */
   /* 8-bit dot products hsacl's compiler makes one instruction (compiler/comp_builtins_bitdot.cl):
    * same signedness: V_DOT4_I32_I8 / V_DOT4_U32_U8 through ockl (gfx906 on, but gfx909 and
    * gfx1010), V_DOT4_I32_IU8 / V_DOT4_U32_U8 on gfx11 and gfx12; mixed signedness:
    * V_DOT4_I32_IU8's per-input sign (gfx11 and gfx12 only). */
   bool dot4_same_sign;
   bool dot4_mixed_sign;
   /* The cl_ext_float_atomics operations (CL_DEVICE_{GLOBAL,LOCAL}_FP_ATOMIC_{ADD,MIN_MAX}_EXT
    * bits) the compiler makes one instruction on this target, per type; every other one is a
    * compare-and-swap loop (half always is: a 32-bit one around the 16 bits). Every device
    * reports all of them (CL_DEVICE_*_FP_ATOMIC_CAPABILITIES_EXT, plat_device_amd.c); these
    * say what they cost. They are what LLVM 19 selects for atomicrmw fadd/fmin/fmax
    * (compiler/comp_builtins_atomic.cl), which is less than the hardware has: gfx90a's
    * global_atomic_add_f32/f64 do not work on fine-grained memory (llvm-AMDGPUUsage, "Memory
    * Model GFX90A"), which any buffer may be (SVM, host pointers), so LLVM loops there and
    * uses them on gfx940-gfx942 only. compiler/tests/comp_test_select.c checks every bit of
    * every target against the compiler's assembly. */
   cl_bitfield fp32_atomic_native, fp64_atomic_native;
} plat_gpu_info;

/*
 * Fills `out` for `target` — a processor name ("gfx906") or a full ISA name
 * ("amdgcn-amd-amdhsa--gfx906:sramecc-:xnack-"). Returns CL_INVALID_VALUE for a target the
 * table does not know.
 */
cl_int plat_gpu_info_from_target(const char *target, plat_gpu_info *out);

/*
 * A record for a target the table does not know, from its name's generation (gfx9 to gfx12:
 * wave size, SIMDs, LDS, registers, caches lines, waves per SIMD) and, for the board, the
 * smallest figures, which a live device replaces with its HSA agent's (compute units, clock,
 * caches, memory): no field is zero. No instruction is claimed (dot products, packed FP32,
 * global float atomics). CL_INVALID_VALUE for a name that is no gfx9-gfx12 processor.
 */
cl_int plat_gpu_info_generic(const char *target, plat_gpu_info *out);

/* The processor name of the table's record i, NULL past the last (tests walk the table). */
const char *plat_gpu_info_target_at(size_t i);

/* ---- platform ----------------------------------------------------------------------- */

struct _cl_platform_id {
   struct icd_object obj;
   pthread_mutex_t init_lock;      /* device discovery, until `ready` */
   _Atomic bool ready;             /* discovery ran to an answer other than out-of-memory */
   struct _cl_device_id **devices; /* every GPU agent of the HSA runtime */
   cl_uint num_devices;
   cl_int init_status;             /* why there are no devices, if none */
   /* CL_PLATFORM_EXTENSIONS(_WITH_VERSION): cl_khr_icd and what every device reports
    * (plat_device_ext.c), built with the devices. */
   cl_name_version *extensions;
   size_t num_extensions;
   char *extension_string;
};

ICD_DEFINE_HANDLE_CASTS(plat_platform, struct _cl_platform_id, cl_platform_id,
                        ICD_TYPE_PLATFORM)

/* The one platform; discovers devices on first use. */
cl_platform_id plat_platform_handle(void);
struct _cl_platform_id *plat_platform_get(void);

/* Platform-wide strings; one source of truth for the compiler too. */
#define PLAT_PLATFORM_NAME "hsacl"
#define PLAT_PLATFORM_VENDOR "hsacl project"
#define PLAT_ICD_SUFFIX "HSACL"
/*
 * The OpenCL version the platform and its devices claim (CL_MAKE_VERSION): 3.1; 3.0 when the
 * environment has HSACL_OPENCL_VERSION=3.0 (the 3.1 profile less OpenCL C 3.1, local
 * arguments of size 0 and the 3.1 version strings), 2.0 with HSACL_OPENCL_VERSION=2.0 (what
 * AMD's OpenCL reports: an OpenCL 2.0 device, OpenCL C 2.0 the highest version, the queries
 * of later versions refused), 1.2 with HSACL_OPENCL_VERSION=1.2 (for applications that
 * mis-handle 3.0's optional features). Read once, on first use; any other value is logged
 * and ignored.
 */
cl_version plat_opencl_version(void);
/* True in the profiles with OpenCL C 2.0 and what it brings (SVM, pipes, device-side
 * enqueue, generic address space, ...): 2.0, 3.0 and 3.1. */
bool plat_profile_opencl_c_20(void);
/* False when the profile is an OpenCL 2.x one older than `added`, the version that introduced
 * a query: the query is then not "one of the supported values" (CL_INVALID_VALUE). The 1.2
 * profile answers every query as a device without the capability, as it did before the
 * profiles existed; the 3.x profiles have every query. */
bool plat_query_in_profile(cl_version added);
/* Its parts, e.g. for the compiler's __OPENCL_VERSION__: run-time values, not constants. */
#define PLAT_CL_VERSION_MAJOR ((unsigned)CL_VERSION_MAJOR(plat_opencl_version()))
#define PLAT_CL_VERSION_MINOR ((unsigned)CL_VERSION_MINOR(plat_opencl_version()))

/* ---- devices ------------------------------------------------------------------------ */

/* Device-side enqueue (dispatch/disp_devq.c sizes a device queue's pools by them):
 * CL_DEVICE_MAX_ON_DEVICE_QUEUES, CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE / _MAX_SIZE (one
 * command is a 1 KiB record) and CL_DEVICE_MAX_ON_DEVICE_EVENTS (the device events of one
 * device queue, the pool the built-ins allocate from). The preferred size, which a queue
 * created without CL_QUEUE_SIZE gets, holds 16384 commands: a child for every work-item of a
 * 16384-item launch pending at once (children wait for their parent to end), the CTS's
 * default element count, whose command-buffer device_enqueue kernel ignores
 * CLK_DEVICE_QUEUE_FULL. The scheduler scans only the records a tree took, so a large queue
 * costs memory, not time. */
#define PLAT_DEVQ_MAX_QUEUES 1u
#define PLAT_DEVQ_PREFERRED_SIZE (16u * 1024 * 1024)
#define PLAT_DEVQ_MAX_SIZE (64u * 1024 * 1024)
#define PLAT_DEVQ_MAX_EVENTS 1024u

/* Per-device state of the modules above platform (conventions.md rule 23): one slot per
 * module that keeps some, created by that module on first use (plat_device_slot). */
enum plat_device_slot {
   PLAT_SLOT_FENCE,   /* dispatch/disp_fence.c: the device's fence-scope counters */
   PLAT_SLOT_STAGING, /* memory/mem_staging.c: the device's staging cache */
   PLAT_NUM_SLOTS
};

/*
 * The numeric limits a device reports (OpenCL 3.0 API §4.2), filled once at creation
 * (plat_device.c, plat_device_image.c) from the target record, the agent's HSA queries, the
 * profile and the device's extensions and features; immutable after. clGetDeviceInfo returns
 * these fields, and other modules read them through plat_device_limits() (conventions.md
 * rule 23; Mesa's ac_gpu_info). A limit of a capability the device lacks is 0, as the query
 * answers. The target's own numbers (compute units, work-group size, wavefront, LDS, caches)
 * are in plat_gpu_info, the pools' sizes in global_mem_size and max_alloc_size.
 */
struct plat_device_limits {
   cl_uint max_work_item_dimensions;
   cl_uint address_bits;
   size_t max_parameter_size;          /* bytes of kernel arguments */
   cl_uint mem_base_addr_align;        /* bits: sub-buffer origins (memory/mem_buffer.c) */
   cl_uint min_data_type_align_size;   /* bytes */
   cl_ulong max_constant_buffer_size;
   cl_uint max_constant_args;
   size_t profiling_timer_resolution;  /* ns */
   size_t printf_buffer_size;
   cl_uint max_num_sub_groups;         /* 0 without cl_khr_subgroups */
   size_t max_global_variable_size;    /* 0 without program-scope global variables */
   size_t global_variable_preferred_total_size;
   /* Device-side enqueue, 0 without __opencl_c_device_enqueue (PLAT_DEVQ_*). */
   cl_uint queue_on_device_preferred_size;
   cl_uint queue_on_device_max_size;
   cl_uint max_on_device_queues;
   cl_uint max_on_device_events;
   /* Pipes, 0 without __opencl_c_pipes (memory/mem_pipe.c checks packets against them). */
   cl_uint max_pipe_args;
   cl_uint pipe_max_active_reservations;
   cl_uint pipe_max_packet_size;
   /* Images, 0 without image support (plat_device_image.c; memory/mem_image.c checks
    * descriptors against them). */
   cl_uint max_read_image_args;
   cl_uint max_write_image_args;
   cl_uint max_read_write_image_args;
   cl_uint max_samplers;
   cl_uint image_pitch_alignment;         /* pixels */
   cl_uint image_base_address_alignment;  /* pixels */
   size_t image2d_max_width, image2d_max_height;
   size_t image3d_max_width, image3d_max_height, image3d_max_depth;
   size_t image_max_buffer_size;          /* texels */
   size_t image_max_array_size;
};

struct _cl_device_id {
   struct icd_object obj;
   struct _cl_platform_id *platform;
   hsa_agent_t agent;          /* the GPU agent */
   hsa_agent_t cpu_agent;      /* the host's CPU agent (system memory pools) */
   hsa_amd_memory_pool_t device_pool;  /* coarse-grained global pool of the GPU */
   hsa_amd_memory_pool_t system_pool;  /* fine-grained system pool (CPU agent) */
   hsa_amd_memory_pool_t kernarg_pool; /* kernarg-init system pool */
   bool has_system_pool, has_kernarg_pool;
   plat_gpu_info info;         /* target record, overridden by agent queries */
   char name[64];              /* target processor, "gfx906" (CL_DEVICE_NAME) */
   char isa_name[96];          /* full target ID from hsa_isa_get_info_alt */
   char product_name[128];     /* HSA_AMD_AGENT_INFO_PRODUCT_NAME */
   uint64_t global_mem_size;
   uint64_t max_alloc_size;
   uint64_t timestamp_frequency; /* Hz, HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY */
   uint32_t queue_max_size;    /* packets */
   uint32_t pci_bdf;           /* HSA_AMD_AGENT_INFO_BDFID */
   uint32_t pci_domain;
   uint32_t chip_id;
   /* CL_DEVICE_IMAGE_SUPPORT: the runtime's HSA image extension serves this agent
    * (plat_device_image.c). */
   bool image_support;
   /* Mipmapped images (cl_khr_mipmap_image): image support on a target whose T# hsacl sets
    * mip levels in and whose ISA has every sampling form the extension needs
    * (plat_device_image.c). */
   bool mipmap_support;
   /* What the device reports, built at creation (plat_device_ext.c) from
    * plat_extensions.def, the profile, image_support and the SPIR-V translator's presence:
    * its extensions (CL_DEVICE_EXTENSIONS[_WITH_VERSION]: extension_string, space
    * terminated), the OpenCL C features it has (CL_DEVICE_OPENCL_C_FEATURES in the 3.x
    * profiles; every OpenCL C 2.0 one in the 2.0 profile; none in 1.2), and what the
    * compiler enables (-cl-ext, plat_device_extensions). Immutable after creation. */
   cl_name_version *extensions;
   size_t num_extensions;
   cl_name_version *features;
   size_t num_features;
   char *extension_string;
   const char **compiler_extensions; /* NULL-terminated; the names are static */
   /* Every numeric limit the device reports, after the lists above (some limits depend on
    * a feature). */
   struct plat_device_limits limits;
   /* Other modules' per-device state, by enum plat_device_slot (plat_device_slot). */
   _Atomic(void *) slots[PLAT_NUM_SLOTS];
   /* Bytes of device_pool memory this process's buffers hold (memory/ keeps it):
    * CL_DEVICE_GLOBAL_FREE_MEMORY_AMD. */
   _Atomic uint64_t device_bytes_in_use;
   /* The runtime refused a rectangular async copy on this device (ROCr does them only on
    * SDMA engines): memory/ stages rectangular transfers from then on. */
   _Atomic bool rect_copy_refused;
};

ICD_DEFINE_HANDLE_CASTS(plat_device, struct _cl_device_id, cl_device_id, ICD_TYPE_DEVICE)

/* The device's limits (what clGetDeviceInfo answers for them), for modules that check an
 * argument against one. */
static inline const struct plat_device_limits *
plat_device_limits(const struct _cl_device_id *dev)
{
   return &dev->limits;
}

/* The state the module owning `slot` keeps for `dev`: `size` zeroed bytes created on the
 * first call (by whichever thread comes first), the same pointer on every later one; NULL
 * when out of memory (the module then does without). Lives as long as the device, that is
 * the process. Thread safe, lock free. */
void *plat_device_slot(const struct _cl_device_id *dev, enum plat_device_slot slot, size_t size);

/* CL_DEVICE_SVM_CAPABILITIES of `dev`, what clSVMAlloc (memory/mem_svm.c) may allocate for
 * it: coarse-grained buffers (device pool), and with a fine-grained system pool
 * fine-grained buffers with atomics; 0 in the 1.2 profile (SVM is OpenCL 2.0). */
cl_device_svm_capabilities plat_device_svm_capabilities(const struct _cl_device_id *dev);
/* cl_intel_unified_shared_memory: the capabilities CL_DEVICE_<param>_MEM_CAPABILITIES_INTEL
 * reports for `param` (0 where the device does not report the extension); the USM
 * allocators (memory/mem_usm.c) refuse what they make 0. */
cl_bitfield plat_device_usm_capabilities(const struct _cl_device_id *dev, cl_device_info param);

/* What the compiler enables for `dev` (-cl-ext), a NULL-terminated list (as
 * comp_build_desc::extensions takes it): the extensions the device reports
 * (CL_DEVICE_EXTENSIONS) followed by the OpenCL C features it has (and, in the 1.2 profile,
 * __opencl_c_images for an image device). Lives as long as the device. */
const char *const *plat_device_extensions(const struct _cl_device_id *dev);

/* True when `dev` reports extension `name` (CL_DEVICE_EXTENSIONS). */
bool plat_device_has_extension(const struct _cl_device_id *dev, const char *name);

/* True when `dev` has OpenCL C feature `name` (CL_DEVICE_OPENCL_C_FEATURES in the 3.x
 * profiles; the 2.0 profile has every feature OpenCL C 2.0 makes core). */
bool plat_device_has_feature(const struct _cl_device_id *dev, const char *name);

/* True when `dev` supports images and has the image-related OpenCL C feature or extension
 * `name`. */
bool plat_device_has_image_feature(const struct _cl_device_id *dev, const char *name);

/* True when the platform reports extension `name` (CL_PLATFORM_EXTENSIONS: every device
 * reports it); false without devices. */
bool plat_extension_reported(const char *name);

/* ---- contexts ----------------------------------------------------------------------- */

typedef void(CL_CALLBACK *plat_context_notify_fn)(const char *errinfo, const void *private_info,
                                                  size_t cb, void *user_data);
typedef void(CL_CALLBACK *plat_context_destructor_fn)(cl_context context, void *user_data);

struct plat_context_destructor {
   plat_context_destructor_fn fn;
   void *user_data;
   struct plat_context_destructor *next;
};

struct _cl_context {
   struct icd_object obj;
   struct _cl_platform_id *platform;
   struct _cl_device_id **devices;
   cl_uint num_devices;
   cl_context_properties *props; /* as given, 0-terminated, or NULL */
   size_t num_props;             /* entries including the terminator; 0 when props NULL */
   bool interop_user_sync;
   plat_context_notify_fn notify; /* pfn_notify: may be called from any thread, no lock held */
   void *notify_user_data;
   /* obj.internal_refs: children (queues, buffers, programs) hold one each; the API
    * references together hold one. Destroyed when the internal count drops to zero. */
   pthread_mutex_t lock;
   struct plat_context_destructor *destructors; /* LIFO; under lock */
};

ICD_DEFINE_HANDLE_CASTS(plat_context, struct _cl_context, cl_context, ICD_TYPE_CONTEXT)

/* True when `dev` is one of the context's devices. */
bool plat_context_has_device(const struct _cl_context *ctx, const struct _cl_device_id *dev);

/* Internal references of child objects (queues, buffers, programs) on their context. */
void plat_context_retain_internal(struct _cl_context *ctx);
void plat_context_release_internal(struct _cl_context *ctx);

/* Reports an asynchronous error to the application's pfn_notify, if any. */
void plat_context_notify(struct _cl_context *ctx, const char *errinfo);

/* ---- entry points ------------------------------------------------------------------- */

cl_int CL_API_CALL plat_GetPlatformIDs(cl_uint num_entries, cl_platform_id *platforms,
                                       cl_uint *num_platforms);
cl_int CL_API_CALL plat_GetPlatformInfo(cl_platform_id platform, cl_platform_info param_name,
                                        size_t param_value_size, void *param_value,
                                        size_t *param_value_size_ret);
cl_int CL_API_CALL plat_GetDeviceIDs(cl_platform_id platform, cl_device_type device_type,
                                     cl_uint num_entries, cl_device_id *devices,
                                     cl_uint *num_devices);
/* clGetDeviceInfo without the profile's refusal: every query, answered for what the device
 * does in the profile (the worker of plat_GetDeviceInfoAPI). Modules read limits from the
 * device record (plat_device_limits), not through this. */
cl_int CL_API_CALL plat_GetDeviceInfo(cl_device_id device, cl_device_info param_name,
                                      size_t param_value_size, void *param_value,
                                      size_t *param_value_size_ret);
/* clGetDeviceInfo as applications call it (the ICD slot): the queries later OpenCL versions
 * added are refused in the 2.0 profile, then plat_GetDeviceInfo. */
cl_int CL_API_CALL plat_GetDeviceInfoAPI(cl_device_id device, cl_device_info param_name,
                                         size_t param_value_size, void *param_value,
                                         size_t *param_value_size_ret);
cl_int CL_API_CALL plat_CreateSubDevices(cl_device_id in_device,
                                         const cl_device_partition_property *properties,
                                         cl_uint num_devices, cl_device_id *out_devices,
                                         cl_uint *num_devices_ret);
cl_int CL_API_CALL plat_RetainDevice(cl_device_id device);
cl_int CL_API_CALL plat_ReleaseDevice(cl_device_id device);
cl_int CL_API_CALL plat_GetDeviceAndHostTimer(cl_device_id device, cl_ulong *device_timestamp,
                                              cl_ulong *host_timestamp);
cl_int CL_API_CALL plat_GetHostTimer(cl_device_id device, cl_ulong *host_timestamp);

cl_context CL_API_CALL plat_CreateContext(const cl_context_properties *properties,
                                          cl_uint num_devices, const cl_device_id *devices,
                                          plat_context_notify_fn pfn_notify, void *user_data,
                                          cl_int *errcode_ret);
cl_context CL_API_CALL plat_CreateContextFromType(const cl_context_properties *properties,
                                                  cl_device_type device_type,
                                                  plat_context_notify_fn pfn_notify,
                                                  void *user_data, cl_int *errcode_ret);
cl_int CL_API_CALL plat_RetainContext(cl_context context);
cl_int CL_API_CALL plat_ReleaseContext(cl_context context);
cl_int CL_API_CALL plat_GetContextInfo(cl_context context, cl_context_info param_name,
                                       size_t param_value_size, void *param_value,
                                       size_t *param_value_size_ret);
cl_int CL_API_CALL plat_SetContextDestructorCallback(cl_context context,
                                                     plat_context_destructor_fn pfn_notify,
                                                     void *user_data);

/* Host timer in nanoseconds (CLOCK_MONOTONIC_RAW), the domain of profiling results. */
uint64_t plat_host_timer_ns(void);

#endif
