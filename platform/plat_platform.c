/*
 * platform/plat_platform.c — the one hsacl platform: discovery of devices (one per HSA GPU
 * agent of the runtime dispatch/ loaded), clGetPlatformIDs and clGetPlatformInfo.
 * The platform exists even when no runtime loads; it then has no devices and
 * clGetDeviceIDs answers CL_DEVICE_NOT_FOUND (the reason is logged).
 */
#include "platform/plat.h"
#include "platform/plat_priv.h"
#include "runtime/rt.h"
#include "icd/icd_cmdbuf_ext.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static struct _cl_platform_id the_platform = {
   .init_lock = PTHREAD_MUTEX_INITIALIZER,
};

struct collect {
   struct _cl_platform_id *plat;
   bool out_of_memory;
};

static hsa_status_t
collect_gpu_agent(hsa_agent_t agent, void *data)
{
   const struct rt_hsa *hsa = rt_hsa();
   struct collect *c = data;
   struct _cl_platform_id *plat = c->plat;
   hsa_device_type_t type;
   if (hsa->hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type) != HSA_STATUS_SUCCESS ||
       type != HSA_DEVICE_TYPE_GPU)
      return HSA_STATUS_SUCCESS;
   struct _cl_device_id **grown =
      icd_realloc(plat->devices, (plat->num_devices + 1) * sizeof(*plat->devices));
   if (!grown) {
      c->out_of_memory = true;
      return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
   }
   plat->devices = grown;
   struct _cl_device_id *dev = NULL;
   cl_int err = plat__device_create(plat, agent, &dev);
   if (err == CL_OUT_OF_HOST_MEMORY) {
      c->out_of_memory = true;
      return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
   }
   if (err != CL_SUCCESS) {
      icd_log(ICD_LOG_WARN, "platform", "skipping GPU agent 0x%llx: %s",
              (unsigned long long)agent.handle, icd_error_name(err));
      return HSA_STATUS_SUCCESS;
   }
   plat->devices[plat->num_devices++] = dev;
   return HSA_STATUS_SUCCESS;
}

/* Discovers the devices. Out of host memory, it keeps nothing and answers
 * CL_OUT_OF_HOST_MEMORY, and the next call tries again: a transient shortage must not
 * leave the process without devices for good, nor pass for "no device". */
static void
platform_init_locked(struct _cl_platform_id *plat)
{
   icd_object_init(&plat->obj, ICD_TYPE_PLATFORM);
   const struct rt_hsa *hsa = rt_hsa();
   if (!hsa) {
      plat->init_status = CL_DEVICE_NOT_FOUND;
      atomic_store(&plat->ready, true);
      return;
   }
   struct collect c = { .plat = plat };
   hsa_status_t st = hsa->hsa_iterate_agents(collect_gpu_agent, &c);
   if (!c.out_of_memory && plat__platform_lists_init(plat) != CL_SUCCESS)
      c.out_of_memory = true;
   if (c.out_of_memory) {
      for (cl_uint i = 0; i < plat->num_devices; i++) {
         plat__device_lists_free(plat->devices[i]);
         icd_free(plat->devices[i]);
      }
      icd_free(plat->devices);
      plat->devices = NULL;
      plat->num_devices = 0;
      plat->init_status = ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "discovering the GPU agents");
      return;
   }
   if (st != HSA_STATUS_SUCCESS && plat->num_devices == 0)
      plat->init_status = rt_status_to_cl(st, "enumerating HSA agents");
   else
      plat->init_status = plat->num_devices ? CL_SUCCESS : CL_DEVICE_NOT_FOUND;
   atomic_store(&plat->ready, true);
}

struct _cl_platform_id *
plat_platform_get(void)
{
   struct _cl_platform_id *plat = &the_platform;
   if (!atomic_load(&plat->ready)) {
      pthread_mutex_lock(&plat->init_lock);
      if (!atomic_load(&plat->ready))
         platform_init_locked(plat);
      pthread_mutex_unlock(&plat->init_lock);
   }
   return plat;
}

cl_platform_id
plat_platform_handle(void)
{
   return plat_platform_to_handle(plat_platform_get());
}

cl_int CL_API_CALL
plat_GetPlatformIDs(cl_uint num_entries, cl_platform_id *platforms, cl_uint *num_platforms)
{
   if ((num_entries == 0 && platforms) || (!platforms && !num_platforms))
      return ICD_ERROR(CL_INVALID_VALUE, "num_entries %u, platforms %p, num_platforms %p",
                       num_entries, (void *)platforms, (void *)num_platforms);
   if (platforms)
      platforms[0] = plat_platform_handle();
   if (num_platforms)
      *num_platforms = 1;
   return CL_SUCCESS;
}

/* ---- OpenCL version profile --------------------------------------------------------- */

static pthread_once_t version_once = PTHREAD_ONCE_INIT;
static cl_version opencl_version;

static void
version_init(void)
{
   opencl_version = CL_MAKE_VERSION(3, 1, 0);
   const char *env = getenv("HSACL_OPENCL_VERSION");
   if (!env)
      return;
   if (!strcmp(env, "1.2"))
      opencl_version = CL_MAKE_VERSION(1, 2, 0);
   else if (!strcmp(env, "2.0"))
      opencl_version = CL_MAKE_VERSION(2, 0, 0);
   else if (!strcmp(env, "3.0"))
      opencl_version = CL_MAKE_VERSION(3, 0, 0);
   else if (strcmp(env, "3.1"))
      icd_log(ICD_LOG_WARN, "platform",
              "HSACL_OPENCL_VERSION=\"%s\" ignored (expected 1.2, 2.0, 3.0 or 3.1): reporting "
              "OpenCL 3.1",
              env);
}

cl_version
plat_opencl_version(void)
{
   /* Every launch asks (the meaning of a global size of 0): one load once it is known. */
   static _Atomic cl_version known;
   cl_version v = atomic_load_explicit(&known, memory_order_relaxed);
   if (v)
      return v;
   pthread_once(&version_once, version_init);
   atomic_store_explicit(&known, opencl_version, memory_order_relaxed);
   return opencl_version;
}

bool
plat_query_in_profile(cl_version added)
{
   cl_version v = plat_opencl_version();
   return v < CL_MAKE_VERSION(2, 0, 0) || v >= added;
}

cl_int CL_API_CALL
plat_GetPlatformInfo(cl_platform_id platform, cl_platform_info param_name,
                     size_t param_value_size, void *param_value, size_t *param_value_size_ret)
{
   /* OpenCL 3.0 §4.1: a NULL platform selects the implementation-defined one. */
   struct _cl_platform_id *plat = platform ? plat_platform_from_handle(platform)
                                           : plat_platform_get();
   if (!plat)
      return ICD_ERROR(CL_INVALID_PLATFORM, "platform %p is not an hsacl platform",
                       (void *)platform);
   /* The 2.0 profile is an OpenCL 2.0 platform: the queries OpenCL 2.1 (host timer
    * resolution) and 3.0 (numeric version, extensions with versions) added are not "one of
    * the supported values" (API 2.0 §4.1). */
   if ((param_name == CL_PLATFORM_HOST_TIMER_RESOLUTION &&
        !plat_query_in_profile(CL_MAKE_VERSION(2, 1, 0))) ||
       ((param_name == CL_PLATFORM_NUMERIC_VERSION ||
         param_name == CL_PLATFORM_EXTENSIONS_WITH_VERSION) &&
        !plat_query_in_profile(CL_MAKE_VERSION(3, 0, 0))))
      return ICD_ERROR(CL_INVALID_VALUE, "platform query 0x%x is not part of OpenCL %u.%u",
                       (unsigned)param_name, PLAT_CL_VERSION_MAJOR, PLAT_CL_VERSION_MINOR);
   switch (param_name) {
   case CL_PLATFORM_PROFILE:
      return icd_get_info_string("FULL_PROFILE", param_value_size, param_value,
                                 param_value_size_ret);
   case CL_PLATFORM_VERSION: {
      /* §4.1: "OpenCL<space><major_version.minor_version><space><platform-specific>". */
      char version[64];
      snprintf(version, sizeof(version), "OpenCL %u.%u hsacl %s", PLAT_CL_VERSION_MAJOR,
               PLAT_CL_VERSION_MINOR, HSACL_VERSION_STRING);
      return icd_get_info_string(version, param_value_size, param_value,
                                 param_value_size_ret);
   }
   case CL_PLATFORM_NUMERIC_VERSION:
      return ICD_GET_INFO_SCALAR(cl_version, plat_opencl_version(), param_value_size,
                                 param_value, param_value_size_ret);
   case CL_PLATFORM_NAME:
      return icd_get_info_string(PLAT_PLATFORM_NAME, param_value_size, param_value,
                                 param_value_size_ret);
   case CL_PLATFORM_VENDOR:
      return icd_get_info_string(PLAT_PLATFORM_VENDOR, param_value_size, param_value,
                                 param_value_size_ret);
   /* cl_khr_icd (this library is an ICD) and the extensions every device reports (API
    * §4.1), plat_device_ext.c. */
   case CL_PLATFORM_EXTENSIONS:
      return icd_get_info_string(plat->extension_string ? plat->extension_string : "cl_khr_icd",
                                 param_value_size, param_value, param_value_size_ret);
   case CL_PLATFORM_EXTENSIONS_WITH_VERSION:
      if (!plat->extensions) {
         static const cl_name_version icd_only = { CL_MAKE_VERSION(1, 0, 0), "cl_khr_icd" };
         return icd_get_info(&icd_only, sizeof(icd_only), param_value_size, param_value,
                             param_value_size_ret);
      }
      return icd_get_info(plat->extensions, plat->num_extensions * sizeof(cl_name_version),
                          param_value_size, param_value, param_value_size_ret);
   case CL_PLATFORM_HOST_TIMER_RESOLUTION: {
      struct timespec res;
      clock_getres(CLOCK_MONOTONIC_RAW, &res);
      return ICD_GET_INFO_SCALAR(cl_ulong, (cl_ulong)res.tv_sec * 1000000000ull + res.tv_nsec,
                                 param_value_size, param_value, param_value_size_ret);
   }
   /* cl_khr_command_buffer_multi_device (dispatch/disp_cmdbuf.c): sync points between
    * the queues of any devices (event wait lists, which every device waits for on the
    * device through HSA signals), explicit and automatic remapping. */
   case CL_PLATFORM_COMMAND_BUFFER_CAPABILITIES_KHR:
      if (!plat_extension_reported("cl_khr_command_buffer_multi_device"))
         return ICD_ERROR(CL_INVALID_VALUE, "platform query 0x%x needs "
                          "cl_khr_command_buffer_multi_device", (unsigned)param_name);
      return ICD_GET_INFO_SCALAR(icd_platform_command_buffer_capabilities_khr,
                                 CL_COMMAND_BUFFER_PLATFORM_UNIVERSAL_SYNC_KHR |
                                    CL_COMMAND_BUFFER_PLATFORM_REMAP_QUEUES_KHR |
                                    CL_COMMAND_BUFFER_PLATFORM_AUTOMATIC_REMAP_KHR,
                                 param_value_size, param_value, param_value_size_ret);
   case CL_PLATFORM_SEMAPHORE_TYPES_KHR:
      /* cl_khr_semaphore: binary semaphores, where every device reports it. */
      if (!plat_extension_reported("cl_khr_semaphore"))
         return ICD_ERROR(CL_INVALID_VALUE, "CL_PLATFORM_SEMAPHORE_TYPES_KHR without "
                          "cl_khr_semaphore");
      return ICD_GET_INFO_SCALAR(cl_semaphore_type_khr, CL_SEMAPHORE_TYPE_BINARY_KHR,
                                 param_value_size, param_value, param_value_size_ret);
   case CL_PLATFORM_ICD_SUFFIX_KHR:
      return icd_get_info_string(PLAT_ICD_SUFFIX, param_value_size, param_value,
                                 param_value_size_ret);
   default:
      return ICD_ERROR(CL_INVALID_VALUE, "unknown platform query 0x%x", (unsigned)param_name);
   }
}

uint64_t
plat_host_timer_ns(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
   return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}
