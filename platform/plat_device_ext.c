/*
 * platform/plat_device_ext.c — what each device reports: its extensions and OpenCL C
 * features, one list per device built at device creation from platform/plat_extensions.def,
 * the profile (plat_opencl_version), the device's image support and the SPIR-V translator's
 * presence; and the platform's extensions, those every device reports (API §4.1).
 *
 * Every answer derives from these lists: CL_DEVICE_EXTENSIONS(_WITH_VERSION),
 * CL_DEVICE_OPENCL_C_FEATURES, CL_PLATFORM_EXTENSIONS(_WITH_VERSION), the compiler's -cl-ext
 * (plat_device_extensions), the SPIR-V queries (plat_device_spirv.c), the extension functions
 * (icd/icd_dispatch.c) and the device queries that mirror a feature (plat_device.c).
 */
#include "platform/plat_priv.h"
#include "runtime/rt_tools.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

static const struct {
   const char *name;
   cl_version version;
   unsigned when;
   bool feature;
} entries[] = {
#define PLAT_EXTENSION(name, major, minor, patch, when)                                      \
   { #name, CL_MAKE_VERSION(major, minor, patch), (when), false },
#define PLAT_FEATURE(name, major, minor, patch, when)                                        \
   { #name, CL_MAKE_VERSION(major, minor, patch), (when), true },
#include "platform/plat_extensions.def"
#undef PLAT_FEATURE
#undef PLAT_EXTENSION
};
#define NUM_ENTRIES (sizeof(entries) / sizeof(entries[0]))

/* The platform extension every ICD has; the rest are the devices' common ones. */
#define PLATFORM_ICD_EXTENSION "cl_khr_icd"

bool
plat_profile_opencl_c_20(void)
{
   return plat_opencl_version() >= CL_MAKE_VERSION(2, 0, 0);
}

static bool
entry_applies(const struct _cl_device_id *dev, unsigned when, bool il)
{
   bool c20 = plat_profile_opencl_c_20();
   if ((when & PLAT_CL20) && !c20)
      return false;
   if ((when & PLAT_IL) && !(c20 && il))
      return false;
   if ((when & PLAT_IMAGES) && !dev->image_support)
      return false;
   if ((when & PLAT_MIPMAPS) && !dev->mipmap_support)
      return false;
   if ((when & PLAT_CL30) && plat_opencl_version() < CL_MAKE_VERSION(3, 0, 0))
      return false;
   return true;
}

static pthread_once_t il_once = PTHREAD_ONCE_INIT;
static bool il_supported;

static void
il_probe(void)
{
   il_supported = rt_spirv_tools_present();
   if (!il_supported)
      icd_log(ICD_LOG_WARN, "platform", "the SPIR-V translator (llvm-spirv-15, or "
              "HSACL_SPIRV_TRANSLATOR) or validator (spirv-val, or HSACL_SPIRV_VALIDATOR) "
              "is not installed: devices report no IL support");
}

/* IL programs are taken when both SPIR-V helpers are present (looked up once). */
static bool
il_support(void)
{
   pthread_once(&il_once, il_probe);
   return il_supported;
}

/* Appends `name` and a space to `s` (sized by the caller). */
static char *
append_name(char *s, const char *name)
{
   size_t n = strlen(name);
   memcpy(s, name, n);
   s[n] = ' ';
   return s + n + 1;
}

cl_int
plat__device_lists_init(struct _cl_device_id *dev)
{
   /* In the profiles without OpenCL C 2.0 the compiler still learns of image support from
    * __opencl_c_images (compiler/comp_llvm.cpp defines __IMAGE_SUPPORT__ from it), and
    * CL_DEVICE_OPENCL_C_FEATURES stays empty. */
   static const char images_12[] = "__opencl_c_images";
   const bool il = il_support();
   const bool c20 = plat_profile_opencl_c_20();
   size_t n_ext = 0, n_feat = 0, chars = 0;
   for (size_t i = 0; i < NUM_ENTRIES; i++) {
      if (!entry_applies(dev, entries[i].when, il) || (entries[i].feature && !c20))
         continue;
      if (entries[i].feature)
         n_feat++;
      else
         n_ext++;
      chars += strlen(entries[i].name) + 1;
   }
   dev->extensions = icd_calloc(n_ext ? n_ext : 1, sizeof(cl_name_version));
   dev->features = icd_calloc(n_feat ? n_feat : 1, sizeof(cl_name_version));
   dev->extension_string = icd_malloc(chars + 1);
   dev->compiler_extensions = icd_calloc(n_ext + n_feat + 2, sizeof(*dev->compiler_extensions));
   if (!dev->extensions || !dev->features || !dev->extension_string ||
       !dev->compiler_extensions) {
      plat__device_lists_free(dev);
      return CL_OUT_OF_HOST_MEMORY;
   }
   char *es = dev->extension_string;
   const char **cs = dev->compiler_extensions;
   for (size_t i = 0; i < NUM_ENTRIES; i++) {
      if (!entry_applies(dev, entries[i].when, il) || (entries[i].feature && !c20))
         continue;
      cl_name_version *nv = entries[i].feature ? &dev->features[dev->num_features++]
                                               : &dev->extensions[dev->num_extensions++];
      nv->version = entries[i].version;
      snprintf(nv->name, sizeof(nv->name), "%s", entries[i].name);
      if (!entries[i].feature) {
         es = append_name(es, entries[i].name);
         *cs++ = entries[i].name;
      }
   }
   /* The compiler's list: the extensions, then the features. */
   for (size_t i = 0; i < NUM_ENTRIES; i++) {
      if (entries[i].feature && c20 && entry_applies(dev, entries[i].when, il))
         *cs++ = entries[i].name;
   }
   if (!c20 && dev->image_support)
      *cs++ = images_12;
   *es = '\0';
   *cs = NULL;
   return CL_SUCCESS;
}

void
plat__device_lists_free(struct _cl_device_id *dev)
{
   icd_free(dev->extensions);
   icd_free(dev->features);
   icd_free(dev->extension_string);
   icd_free(dev->compiler_extensions);
   dev->extensions = dev->features = NULL;
   dev->extension_string = NULL;
   dev->compiler_extensions = NULL;
   dev->num_extensions = dev->num_features = 0;
}

static bool
list_has(const cl_name_version *list, size_t n, const char *name)
{
   for (size_t i = 0; i < n; i++) {
      if (!strcmp(list[i].name, name))
         return true;
   }
   return false;
}

bool
plat_device_has_extension(const struct _cl_device_id *dev, const char *name)
{
   return list_has(dev->extensions, dev->num_extensions, name);
}

bool
plat_device_has_feature(const struct _cl_device_id *dev, const char *name)
{
   return list_has(dev->features, dev->num_features, name);
}

const char *const *
plat_device_extensions(const struct _cl_device_id *dev)
{
   return dev->compiler_extensions;
}

bool
plat_device_has_image_feature(const struct _cl_device_id *dev, const char *name)
{
   return dev->image_support &&
          (plat_device_has_feature(dev, name) || plat_device_has_extension(dev, name));
}

/* ---- the platform's ----------------------------------------------------------------- */

cl_int
plat__platform_lists_init(struct _cl_platform_id *plat)
{
   /* cl_khr_icd, then what the first device reports and every other one too. */
   size_t n = 1, chars = sizeof(PLATFORM_ICD_EXTENSION);
   const struct _cl_device_id *first = plat->num_devices ? plat->devices[0] : NULL;
   for (size_t i = 0; first && i < first->num_extensions; i++) {
      bool common = true;
      for (cl_uint d = 1; d < plat->num_devices && common; d++)
         common = plat_device_has_extension(plat->devices[d], first->extensions[i].name);
      if (common) {
         n++;
         chars += strlen(first->extensions[i].name) + 1;
      }
   }
   plat->extensions = icd_calloc(n, sizeof(cl_name_version));
   plat->extension_string = icd_malloc(chars);
   if (!plat->extensions || !plat->extension_string) {
      plat__platform_lists_free(plat);
      return CL_OUT_OF_HOST_MEMORY;
   }
   plat->extensions[0].version = CL_MAKE_VERSION(1, 0, 0);
   snprintf(plat->extensions[0].name, sizeof(plat->extensions[0].name), "%s",
            PLATFORM_ICD_EXTENSION);
   plat->num_extensions = 1;
   char *s = append_name(plat->extension_string, PLATFORM_ICD_EXTENSION);
   for (size_t i = 0; first && i < first->num_extensions; i++) {
      bool common = true;
      for (cl_uint d = 1; d < plat->num_devices && common; d++)
         common = plat_device_has_extension(plat->devices[d], first->extensions[i].name);
      if (common) {
         plat->extensions[plat->num_extensions++] = first->extensions[i];
         s = append_name(s, first->extensions[i].name);
      }
   }
   s[-1] = '\0'; /* no trailing space */
   return CL_SUCCESS;
}

void
plat__platform_lists_free(struct _cl_platform_id *plat)
{
   icd_free(plat->extensions);
   icd_free(plat->extension_string);
   plat->extensions = NULL;
   plat->extension_string = NULL;
   plat->num_extensions = 0;
}

bool
plat_extension_reported(const char *name)
{
   const struct _cl_platform_id *plat = plat_platform_get();
   return plat->extensions && list_has(plat->extensions, plat->num_extensions, name);
}
