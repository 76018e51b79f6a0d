/*
 * compiler/comp_wide.c — a program's wide variant: the same program built for work-groups up
 * to the device's maximum (gfx9: 1024 work-items), for the launches that need one.
 *
 * Why two builds: clang builds an OpenCL kernel without reqd_work_group_size for at most 256
 * work-items (amdgpu-flat-work-group-size 1,256), as AMD's OpenCL does. A 256-wide group is
 * 4 waves, one a SIMD, so each wave may use the SIMD's whole register file (256 VGPRs). A
 * 1024-wide group is 16 waves on one compute unit, 4 a SIMD: each wave gets at most 64
 * VGPRs, and code built for more cannot be placed at all. Building every kernel for 1024
 * would cost every launch the registers (spills, lower occupancy) for the few that want
 * large groups; so the default build stays, and a launch beyond it takes this variant: the
 * program built again, once, on first need, with comp_build_desc::max_work_group_size set
 * (a key of its own in the kernel cache), loaded beside the default executable, and
 * released with the program's build.
 *
 * What it is rebuilt from: the program's source or IL, the options of its last build, the
 * IL's specialization constants of that build and a link's inputs (kept by comp_program.c
 * with the build's results). A program created from a binary has nothing to rebuild from:
 * its kernels keep the bound of their code object (CL_KERNEL_WORK_GROUP_SIZE says so, and a
 * larger launch is CL_INVALID_WORK_GROUP_SIZE).
 *
 * A failed build is remembered (pd->wide_failed): the launch that needed it gets
 * CL_OUT_OF_RESOURCES with the build log in the error log, and the kernels then report the
 * default build's bound, so larger launches are CL_INVALID_WORK_GROUP_SIZE as announced.
 *
 * Locking: prog->wide_lock serialises the builds (a second thread launching meanwhile waits
 * and then uses the first one's result); nothing else is taken under it. Everything read
 * here is immutable while a kernel of the program exists (a rebuild is refused then), and
 * every caller holds a kernel.
 */
#include "comp_program_priv.h"
#include "comp_priv.h"
#include "platform/plat.h"

#include <stdlib.h>
#include <string.h>

struct comp_wide {
   cl_int error;                  /* CL_SUCCESS: built and loaded */
   void *binary;                  /* the code object */
   size_t binary_size;
   struct comp_program_info *info;
   struct comp__loaded loaded;    /* loaded.kernels: info->num_kernels entries */
};

void
comp__wide_destroy(struct comp_wide *w)
{
   if (!w)
      return;
   comp__unload_executable(&w->loaded);
   comp_program_info_destroy(w->info);
   icd_free(w->binary);
   icd_free(w);
}

/* Builds and loads the variant of `pd` into `w` (w->error says how it went). */
static void
wide_build(const struct _cl_program *prog, const struct comp_program_device *pd,
           struct comp_wide *w)
{
   const struct _cl_device_id *dev = pd->device;
   char *log = NULL;
   static const char *const no_features[] = { NULL };
   const bool link = prog->origin == COMP_ORIGIN_LINK;
   const struct comp_build_desc desc = {
      .source = prog->source,
      .source_size = prog->source_size,
      .il = prog->il,
      .il_size = prog->il_size,
      .spec_constants = pd->spec_constants,
      .num_spec_constants = pd->num_spec_constants,
      .options = pd->options,
      .target_id = comp__device_target_id(dev),
      .extensions = plat_device_extensions(dev),
      .features = no_features,
      .action = link ? COMP_ACTION_LINK : COMP_ACTION_BUILD,
      .inputs = link ? pd->link_inputs : NULL,
      .num_inputs = link ? pd->num_link_inputs : 0,
      .emit = COMP_EMIT_EXECUTABLE,
      .opencl_version = PLAT_CL_VERSION_MAJOR * 100 + PLAT_CL_VERSION_MINOR * 10,
      .restrict_includes = comp__restricted_includes(),
      .max_work_group_size = dev->info.max_workgroup_size,
   };
   icd_log(ICD_LOG_INFO, "compiler", "building the %u work-item variant of program %p for %s",
           dev->info.max_workgroup_size, (void *)prog, dev->name);
   w->error = comp__build_cached(&desc, &w->binary, &w->binary_size, &w->info, &log);
   if (w->error == CL_SUCCESS) {
      w->loaded.binary = w->binary;
      w->loaded.binary_size = w->binary_size;
      w->loaded.info = w->info;
      w->error = comp__load_executable(dev, &w->loaded, &log);
   }
   if (w->error != CL_SUCCESS)
      icd_log(ICD_LOG_ERROR, "compiler", "the %u work-item variant of program %p failed on "
              "%s (%s):\n%s", dev->info.max_workgroup_size, (void *)prog, dev->name,
              icd_error_name(w->error), log ? log : "");
   icd_free(log);
}

size_t
comp_kernel_default_work_group_size(const struct _cl_device_id *device,
                                    const struct comp_kernel_device *kd)
{
   size_t max = device->info.max_workgroup_size;
   if (kd->sig->max_flat_workgroup_size && kd->sig->max_flat_workgroup_size < max)
      max = kd->sig->max_flat_workgroup_size;
   return max;
}

/* The program device entry of `kernel` on `device`, or NULL. */
static const struct comp_program_device *
program_device(const struct _cl_kernel *kernel, const struct _cl_device_id *device)
{
   for (cl_uint i = 0; i < kernel->num_devices; i++)
      if (kernel->program->devices[i].device == device)
         return &kernel->program->devices[i];
   return NULL;
}

size_t
comp_kernel_max_work_group_size(const struct _cl_kernel *kernel,
                                const struct _cl_device_id *device,
                                const struct comp_kernel_device *kd)
{
   const struct comp_kernel *sig = kd->sig;
   size_t max = comp_kernel_default_work_group_size(device, kd);
   if (sig->reqd_work_group_size[0]) {
      /* Built for exactly this size (clang's flat work-group size is the product). */
      size_t r = (size_t)sig->reqd_work_group_size[0] * sig->reqd_work_group_size[1] *
                 sig->reqd_work_group_size[2];
      return r < max ? r : max;
   }
   const struct comp_program_device *pd = program_device(kernel, device);
   /* A bound of the kernel's own (amdgpu_flat_work_group_size) other than clang's default
    * stays: the variant keeps it too. */
   if (pd && pd->wide_buildable && !atomic_load(&pd->wide_failed) &&
       sig->max_flat_workgroup_size == 256)
      return device->info.max_workgroup_size;
   return max;
}

cl_int
comp_kernel_wide(const struct _cl_kernel *kernel, const struct _cl_device_id *device,
                 const struct comp_kernel_device **kd, const struct comp_program_info **info)
{
   struct _cl_program *prog = kernel->program;
   struct comp_program_device *pd = NULL;
   for (cl_uint i = 0; i < kernel->num_devices; i++)
      if (prog->devices[i].device == device)
         pd = &prog->devices[i];
   if (!pd || !pd->wide_buildable)
      return ICD_ERROR(CL_INVALID_WORK_GROUP_SIZE, "kernel %s: program %p cannot be rebuilt "
                       "for larger work-groups (created from a binary)", kernel->name,
                       (void *)prog);
   pthread_mutex_lock(&prog->wide_lock);
   if (!pd->wide) {
      struct comp_wide *w = icd_calloc(1, sizeof(*w));
      if (!w) {
         pthread_mutex_unlock(&prog->wide_lock);
         return ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "wide variant of program %p", (void *)prog);
      }
      wide_build(prog, pd, w);
      /* Out of host memory may pass; anything else would fail again the same way. */
      if (w->error == CL_OUT_OF_HOST_MEMORY) {
         comp__wide_destroy(w);
         pthread_mutex_unlock(&prog->wide_lock);
         return ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "wide variant of program %p", (void *)prog);
      }
      pd->wide = w;
      if (w->error != CL_SUCCESS)
         atomic_store(&pd->wide_failed, true);
   }
   const struct comp_wide *w = pd->wide;
   pthread_mutex_unlock(&prog->wide_lock);
   if (w->error != CL_SUCCESS)
      /* The kernel reported the size as runnable: the launch fails for want of the
       * code that runs it (§5.10 CL_OUT_OF_RESOURCES). From now on the kernel query
       * says the default bound, and larger launches are CL_INVALID_WORK_GROUP_SIZE. */
      return ICD_ERROR(CL_OUT_OF_RESOURCES,
                       "kernel %s: the wide variant of program %p did not build (%s)",
                       kernel->name, (void *)prog, icd_error_name(w->error));
   for (uint32_t i = 0; i < w->info->num_kernels; i++) {
      if (!strcmp(w->info->kernels[i].name, kernel->name)) {
         *kd = &w->loaded.kernels[i];
         *info = w->info;
         return CL_SUCCESS;
      }
   }
   return ICD_ERROR(CL_OUT_OF_RESOURCES, "kernel %s is missing from the wide variant of "
                    "program %p", kernel->name, (void *)prog);
}
