/*
 * sim/sim_runtime.c — runtime lifetime (hsa_init / hsa_shut_down, HSA Runtime PRM §2.1),
 * system information (§2.3), status strings (§2.2) and extension queries (§2.4).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <hsa/hsa_ext_image.h>

#include "sim_priv.h"

static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic uint32_t init_count;

bool
sim__initialized(void)
{
   return atomic_load_explicit(&init_count, memory_order_acquire) != 0;
}

uint64_t
sim__timestamp(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* PRM §2.1.1: reference counted; the first call builds the runtime's state. */
SIM_EXPORT hsa_status_t
hsa_init(void)
{
   hsa_status_t st = HSA_STATUS_SUCCESS;
   pthread_mutex_lock(&init_lock);
   uint32_t n = atomic_load(&init_count);
   if (n == UINT32_MAX) {
      st = HSA_STATUS_ERROR_REFCOUNT_OVERFLOW;
      goto out_unlock;
   }
   if (n == 0) {
      if (!sim__agents_init()) {
         st = HSA_STATUS_ERROR;
         goto out_unlock;
      }
      st = sim__mem_init();
      if (st != HSA_STATUS_SUCCESS)
         goto out_unlock;
      sim__wake_delay_enabled = getenv("HSACL_SIM_WAKE_DELAY") != NULL;
      SIM_LOGI("runtime", "initialised: %u software GPU agent(s), the first a %s",
               sim__gpu_count(), sim__gpu_target(0)->name);
   }
   atomic_store_explicit(&init_count, n + 1, memory_order_release);
out_unlock:
   pthread_mutex_unlock(&init_lock);
   return st;
}

/* PRM §2.1.2: the last call releases every resource the runtime still holds. */
SIM_EXPORT hsa_status_t
hsa_shut_down(void)
{
   pthread_mutex_lock(&init_lock);
   uint32_t n = atomic_load(&init_count);
   if (n == 0) {
      pthread_mutex_unlock(&init_lock);
      return HSA_STATUS_ERROR_NOT_INITIALIZED;
   }
   if (n == 1) {
      sim__queue_finish();
      sim__copy_finish();
      sim__async_finish();
      sim__loader_finish();
      sim__image_finish();
      sim__mem_finish();
      sim__signal_finish();
      SIM_LOGI("runtime", "shut down");
   }
   atomic_store_explicit(&init_count, n - 1, memory_order_release);
   pthread_mutex_unlock(&init_lock);
   return HSA_STATUS_SUCCESS;
}

SIM_EXPORT hsa_status_t
hsa_system_get_info(hsa_system_info_t attribute, void *value)
{
   SIM_CHECK_INIT();
   if (!value)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   switch ((int)attribute) {
   case HSA_SYSTEM_INFO_VERSION_MAJOR:
      *(uint16_t *)value = 1;
      break;
   case HSA_SYSTEM_INFO_VERSION_MINOR:
      *(uint16_t *)value = 1;
      break;
   case HSA_SYSTEM_INFO_TIMESTAMP:
      *(uint64_t *)value = sim__timestamp();
      break;
   case HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY:
      *(uint64_t *)value = SIM_TIMESTAMP_HZ;
      break;
   case HSA_SYSTEM_INFO_SIGNAL_MAX_WAIT:
      *(uint64_t *)value = UINT64_MAX;
      break;
   case HSA_SYSTEM_INFO_ENDIANNESS:
      *(hsa_endianness_t *)value = HSA_ENDIANNESS_LITTLE;
      break;
   case HSA_SYSTEM_INFO_MACHINE_MODEL:
      *(hsa_machine_model_t *)value = HSA_MACHINE_MODEL_LARGE;
      break;
   case HSA_SYSTEM_INFO_EXTENSIONS:
      /* uint8_t[128] bit mask of supported extensions: images (sim_image.c). */
      memset(value, 0, 128);
      ((uint8_t *)value)[HSA_EXTENSION_IMAGES / 8] |= 1u << (HSA_EXTENSION_IMAGES % 8);
      break;
   case HSA_AMD_SYSTEM_INFO_BUILD_VERSION:
      *(const char **)value = "hsacl-sim 0.1";
      break;
   case HSA_AMD_SYSTEM_INFO_SVM_SUPPORTED:
   case HSA_AMD_SYSTEM_INFO_SVM_ACCESSIBLE_BY_DEFAULT:
      *(bool *)value = false;
      break;
   default:
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   }
   return HSA_STATUS_SUCCESS;
}

SIM_EXPORT hsa_status_t
hsa_status_string(hsa_status_t status, const char **status_string)
{
   if (!status_string)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   switch ((int)status) {
#define SIM_STATUS(code, text)                                                                \
   case code:                                                                                 \
      *status_string = text;                                                                  \
      return HSA_STATUS_SUCCESS;
#include "sim_status.def"
#undef SIM_STATUS
   default:
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   }
}

static bool
extension_valid(uint16_t extension)
{
   return extension <= HSA_EXTENSION_STD_LAST ||
          (extension >= HSA_AMD_FIRST_EXTENSION && extension <= HSA_AMD_LAST_EXTENSION);
}

SIM_EXPORT hsa_status_t
hsa_extension_get_name(uint16_t extension, const char **name)
{
   SIM_CHECK_INIT();
   if (!name || !extension_valid(extension))
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   switch (extension) {
   case HSA_EXTENSION_FINALIZER: *name = "HSA_EXTENSION_FINALIZER"; break;
   case HSA_EXTENSION_IMAGES: *name = "HSA_EXTENSION_IMAGES"; break;
   case HSA_EXTENSION_PERFORMANCE_COUNTERS: *name = "HSA_EXTENSION_PERFORMANCE_COUNTERS"; break;
   case HSA_EXTENSION_PROFILING_EVENTS: *name = "HSA_EXTENSION_PROFILING_EVENTS"; break;
   case HSA_EXTENSION_AMD_PROFILER: *name = "HSA_EXTENSION_AMD_PROFILER"; break;
   case HSA_EXTENSION_AMD_LOADER: *name = "HSA_EXTENSION_AMD_LOADER"; break;
   default: *name = "HSA_EXTENSION_INVALID"; break;
   }
   return HSA_STATUS_SUCCESS;
}

/* The one extension provided is HSA_EXTENSION_IMAGES version 1.0 (sim_image.c); every
 * other query answers "not supported". */
static bool
images_1(uint16_t extension, uint16_t version_major)
{
   return extension == HSA_EXTENSION_IMAGES && version_major == 1;
}

SIM_EXPORT hsa_status_t
hsa_system_extension_supported(uint16_t extension, uint16_t version_major,
                               uint16_t version_minor, bool *result)
{
   SIM_CHECK_INIT();
   if (!result || !extension_valid(extension))
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   *result = images_1(extension, version_major) && version_minor == 0;
   return HSA_STATUS_SUCCESS;
}

SIM_EXPORT hsa_status_t
hsa_system_major_extension_supported(uint16_t extension, uint16_t version_major,
                                     uint16_t *version_minor, bool *result)
{
   SIM_CHECK_INIT();
   if (!result || !version_minor || !extension_valid(extension))
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   *result = images_1(extension, version_major);
   if (*result)
      *version_minor = 0;
   return HSA_STATUS_SUCCESS;
}

SIM_EXPORT hsa_status_t
hsa_system_get_extension_table(uint16_t extension, uint16_t version_major,
                               uint16_t version_minor, void *table)
{
   SIM_CHECK_INIT();
   if (!table || !extension_valid(extension))
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   if (!images_1(extension, version_major) || version_minor != 0)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   sim__image_table(table, sizeof(hsa_ext_images_1_00_pfn_t));
   return HSA_STATUS_SUCCESS;
}

SIM_EXPORT hsa_status_t
hsa_system_get_major_extension_table(uint16_t extension, uint16_t version_major,
                                     size_t table_length, void *table)
{
   SIM_CHECK_INIT();
   if (!table || table_length == 0 || !extension_valid(extension))
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   if (extension != HSA_EXTENSION_IMAGES)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   if (version_major != 1)
      return HSA_STATUS_ERROR; /* as ROCr answers a major version it does not have */
   sim__image_table(table, table_length);
   return HSA_STATUS_SUCCESS;
}

SIM_EXPORT hsa_status_t
hsa_agent_extension_supported(uint16_t extension, hsa_agent_t agent, uint16_t version_major,
                              uint16_t version_minor, bool *result)
{
   SIM_CHECK_INIT();
   enum sim_agent_kind kind;
   if (!sim__agent_from_handle(agent, &kind))
      return HSA_STATUS_ERROR_INVALID_AGENT;
   if (!result || !extension_valid(extension))
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   *result = kind == SIM_AGENT_GPU && images_1(extension, version_major) && version_minor == 0;
   return HSA_STATUS_SUCCESS;
}

SIM_EXPORT hsa_status_t
hsa_agent_major_extension_supported(uint16_t extension, hsa_agent_t agent,
                                    uint16_t version_major, uint16_t *version_minor,
                                    bool *result)
{
   SIM_CHECK_INIT();
   enum sim_agent_kind kind;
   if (!sim__agent_from_handle(agent, &kind))
      return HSA_STATUS_ERROR_INVALID_AGENT;
   if (!result || !version_minor || !extension_valid(extension))
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   *result = kind == SIM_AGENT_GPU && images_1(extension, version_major);
   if (*result)
      *version_minor = 0;
   return HSA_STATUS_SUCCESS;
}
