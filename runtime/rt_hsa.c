/*
 * runtime/rt_hsa.c — the one place that loads the HSA runtime (docs/runtimes.md).
 * HSACL_RUNTIME:
 *   auto (default)  ROCr's libhsa-runtime64.so.1 if it initialises and has a GPU agent,
 *                   else the software runtime installed beside libhsacl.so
 *   rocr | sim      only that one
 *   <path>          dlopen that file
 * The software runtime is found at $HSACL_SIM_LIBRARY, else libhsacl-sim.so in the folder
 * libhsacl.so was loaded from, else through the dynamic linker's search path.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* dladdr */
#endif
#include "runtime/rt.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_once_t hsa_once = PTHREAD_ONCE_INIT;
static struct rt_hsa hsa_table;
static const struct rt_hsa *hsa_loaded;
static char hsa_failure[1024];

static void
append_failure(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void
append_failure(const char *fmt, ...)
{
   size_t len = strlen(hsa_failure);
   if (len && len + 3 < sizeof(hsa_failure)) {
      strcat(hsa_failure, "; ");
      len += 2;
   }
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(hsa_failure + len, sizeof(hsa_failure) - len, fmt, ap);
   va_end(ap);
}

static hsa_status_t
count_gpu_agent(hsa_agent_t agent, void *data)
{
   hsa_device_type_t type;
   if (hsa_table.hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type) == HSA_STATUS_SUCCESS &&
       type == HSA_DEVICE_TYPE_GPU)
      (*(unsigned *)data)++;
   return HSA_STATUS_SUCCESS;
}

/*
 * GPU memory faults (HSA_AMD_GPU_MEMORY_FAULT_EVENT). ROCr 5.2.3's VM-fault handler aborts
 * the process unless a system event handler returns success (runtime.cpp VMFaultHandler);
 * OpenCL wants the faulting command's event to fail instead. The fault is logged here; the
 * faulting queue reports the error through its error callback (disp_queue.c), which fails
 * the commands in flight. Called on ROCr's event thread.
 */
static hsa_status_t
system_event(const hsa_amd_event_t *event, void *data)
{
   (void)data;
   if (!event || event->event_type != HSA_AMD_GPU_MEMORY_FAULT_EVENT)
      return HSA_STATUS_ERROR;
   const hsa_amd_gpu_memory_fault_info_t *f = &event->memory_fault;
   icd_log(ICD_LOG_ERROR, "hsa", "GPU memory fault at 0x%llx (reason mask 0x%x)",
           (unsigned long long)f->virtual_address, (unsigned)f->fault_reason_mask);
   return HSA_STATUS_SUCCESS;
}

/*
 * The image extension table (optional: a runtime without it has no image support). Taken
 * whole only when every function the driver calls is present.
 */
static void
load_image_extension(void *handle, const char *path)
{
   __typeof__(hsa_system_get_major_extension_table) *get_table =
      (__typeof__(hsa_system_get_major_extension_table) *)dlsym(
         handle, "hsa_system_get_major_extension_table");
   hsa_ext_images_1_pfn_t t;
   memset(&t, 0, sizeof(t));
   hsa_status_t st = get_table ? get_table(HSA_EXTENSION_IMAGES, 1, sizeof(t), &t)
                               : HSA_STATUS_ERROR;
   if (st != HSA_STATUS_SUCCESS || !t.hsa_ext_image_get_capability ||
       !t.hsa_ext_image_data_get_info || !t.hsa_ext_image_create ||
       !t.hsa_ext_image_destroy || !t.hsa_ext_image_copy || !t.hsa_ext_image_import ||
       !t.hsa_ext_image_export || !t.hsa_ext_image_clear || !t.hsa_ext_sampler_create ||
       !t.hsa_ext_sampler_destroy || !t.hsa_ext_image_get_capability_with_layout ||
       !t.hsa_ext_image_data_get_info_with_layout || !t.hsa_ext_image_create_with_layout) {
      icd_log(ICD_LOG_INFO, "hsa", "%s: no HSA image extension v1 (status 0x%x): no image "
              "support", path, (unsigned)st);
      return;
   }
   hsa_table.img = t;
   hsa_table.has_images = true;
}

/* Loads `path`, fills the table, initialises the runtime and checks for a GPU agent. */
static bool
try_runtime(const char *path, rt_runtime_kind kind)
{
   memset(&hsa_table, 0, sizeof(hsa_table));
   void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
   if (!handle) {
      append_failure("cannot load %s (%s)", path, dlerror());
      return false;
   }
#define HSA_FN(name)                                                                         \
   hsa_table.name = (__typeof__(name) *)dlsym(handle, #name);                               \
   if (!hsa_table.name) {                                                                   \
      append_failure("%s lacks %s", path, #name);                                           \
      goto out_close;                                                                       \
   }
#include "runtime/rt_hsa_functions.def"
#undef HSA_FN

   hsa_status_t st = hsa_table.hsa_init();
   if (st != HSA_STATUS_SUCCESS) {
      const char *msg = NULL;
      if (hsa_table.hsa_status_string(st, &msg) != HSA_STATUS_SUCCESS || !msg)
         msg = "unknown status";
      append_failure("%s: hsa_init failed (0x%x: %s)", path, (unsigned)st, msg);
      /* hsa_init undoes its partial work when it fails (ROCr: Runtime::Acquire releases
       * on error), so nothing of the runtime still runs. Unloading it also keeps its
       * thread-local state away from tools that walk every thread's TLS (LeakSanitizer
       * crashed on ROCr's after its failed hsa_init). */
      dlclose(handle);
      return false;
   }
   unsigned gpus = 0;
   hsa_table.hsa_iterate_agents(count_gpu_agent, &gpus);
   if (gpus == 0) {
      append_failure("%s: initialised but reports no GPU agent", path);
      hsa_table.hsa_shut_down();
      dlclose(handle);
      return false;
   }
   st = hsa_table.hsa_amd_register_system_event_handler(system_event, NULL);
   if (st != HSA_STATUS_SUCCESS)
      icd_log(ICD_LOG_WARN, "hsa", "%s: no system event handler (0x%x): a GPU memory fault "
              "may end the process", path, (unsigned)st);
   load_image_extension(handle, path);
   hsa_table.handle = handle;
   hsa_table.kind = kind;
   snprintf(hsa_table.path, sizeof(hsa_table.path), "%s", path);
   icd_log(ICD_LOG_INFO, "hsa", "using HSA runtime %s (%u GPU agent%s)", path, gpus,
           gpus == 1 ? "" : "s");
   return true;

out_close:
   dlclose(handle);
   return false;
}

/* Path of the software runtime (see the file comment). */
static void
sim_library_path(char *buf, size_t size)
{
   const char *env = getenv("HSACL_SIM_LIBRARY");
   if (env && *env) {
      snprintf(buf, size, "%s", env);
      return;
   }
   Dl_info info;
   if (dladdr((void *)rt_hsa, &info) && info.dli_fname && strchr(info.dli_fname, '/')) {
      const char *slash = strrchr(info.dli_fname, '/');
      snprintf(buf, size, "%.*s/libhsacl-sim.so", (int)(slash - info.dli_fname),
               info.dli_fname);
      return;
   }
   snprintf(buf, size, "libhsacl-sim.so");
}

static void
hsa_load(void)
{
   const char *mode = getenv("HSACL_RUNTIME");
   if (!mode || !*mode)
      mode = "auto";
   char sim_path[512];
   sim_library_path(sim_path, sizeof(sim_path));

   bool ok;
   if (!strcmp(mode, "auto"))
      ok = try_runtime("libhsa-runtime64.so.1", RT_RUNTIME_ROCR) ||
           try_runtime(sim_path, RT_RUNTIME_SIM);
   else if (!strcmp(mode, "rocr"))
      ok = try_runtime("libhsa-runtime64.so.1", RT_RUNTIME_ROCR);
   else if (!strcmp(mode, "sim"))
      ok = try_runtime(sim_path, RT_RUNTIME_SIM);
   else
      ok = try_runtime(mode, RT_RUNTIME_PATH);

   if (ok) {
      hsa_loaded = &hsa_table;
      if (hsa_failure[0])
         icd_log(ICD_LOG_INFO, "hsa", "runtimes tried before: %s", hsa_failure);
   } else {
      icd_log(ICD_LOG_WARN, "hsa", "no usable HSA runtime (HSACL_RUNTIME=%s): %s", mode,
              hsa_failure);
   }
}

static const struct rt_hsa *hsa_install_table;
static bool hsa_installed;

static void
hsa_install(void)
{
   hsa_table = *hsa_install_table;
   hsa_loaded = &hsa_table;
   hsa_installed = true;
}

bool
rt_hsa_install(const struct rt_hsa *table)
{
   hsa_install_table = table;
   pthread_once(&hsa_once, hsa_install);
   return hsa_installed;
}

/* hsa_loaded once loaded: every enqueue asks for the table several times, and the
 * pthread_once round trip was a tenth of a launch's instructions. */
static _Atomic(const struct rt_hsa *) hsa_ready;

const struct rt_hsa *
rt_hsa(void)
{
   const struct rt_hsa *h = atomic_load_explicit(&hsa_ready, memory_order_acquire);
   if (h)
      return h;
   pthread_once(&hsa_once, hsa_load);
   if (hsa_loaded)
      atomic_store_explicit(&hsa_ready, hsa_loaded, memory_order_release);
   return hsa_loaded;
}

const char *
rt_failure(void)
{
   pthread_once(&hsa_once, hsa_load);
   return hsa_failure;
}

cl_int
rt_status_to_cl(hsa_status_t status, const char *what)
{
   const char *msg = NULL;
   if (hsa_loaded)
      hsa_loaded->hsa_status_string(status, &msg);
   cl_int code;
   switch (status) {
   case HSA_STATUS_SUCCESS:
      return CL_SUCCESS;
   case HSA_STATUS_ERROR_OUT_OF_RESOURCES:
   case HSA_STATUS_ERROR_INVALID_ALLOCATION:
      code = CL_OUT_OF_RESOURCES;
      break;
   default:
      code = CL_OUT_OF_RESOURCES;
      break;
   }
   icd_log(ICD_LOG_ERROR, "hsa", "%s failed: HSA status 0x%x (%s)", what, (unsigned)status,
           msg ? msg : "?");
   return code;
}
