/*
 * compiler/comp_kernel.c — cl_kernel (OpenCL 3.0 API §5.9): creation from a built
 * program, cloning, reference counting and the kernel queries. Argument values and exec
 * info are comp_kernel_args.c's.
 *
 * A kernel points into its program's per-device kernel tables; the program refuses to be
 * rebuilt while kernels exist (num_kernels_attached, under program->lock), so those
 * pointers stay valid for the kernel's lifetime.
 */
#define _GNU_SOURCE
#include "comp_program_priv.h"
#include "platform/plat.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- lifetime ------------------------------------------------------------------------ */

/* Accepts a half-built kernel (program NULL until attached). */
static void
kernel_destroy(struct _cl_kernel *k)
{
   /* A capture holds the kernel: none is left when it goes. */
   assert(!k->capture);
   comp__kernel_args_finish(k);
   pthread_mutex_destroy(&k->args_lock);
   icd_free(k->devices);
   if (k->program) {
      pthread_mutex_lock(&k->program->lock);
      k->program->num_kernels_attached--;
      pthread_mutex_unlock(&k->program->lock);
      comp_program_release_internal(k->program);
   }
   icd_object_finish(&k->obj);
   icd_free(k);
}

const char *
comp_kernel_name(const struct _cl_kernel *kernel)
{
   return kernel->name;
}

struct _cl_context *
comp_kernel_context(const struct _cl_kernel *kernel)
{
   return kernel->context;
}

cl_uint
comp_kernel_num_args(const struct _cl_kernel *kernel)
{
   return kernel->num_args;
}

const struct comp_kernel_arg_value *
comp_kernel_arg(const struct _cl_kernel *kernel, cl_uint index)
{
   assert(index < kernel->num_args);
   return &kernel->args[index];
}

void
comp_kernel_args_lock(struct _cl_kernel *kernel)
{
   pthread_mutex_lock(&kernel->args_lock);
}

void
comp_kernel_args_unlock(struct _cl_kernel *kernel)
{
   pthread_mutex_unlock(&kernel->args_lock);
}

bool
comp_kernel_args_all_set(const struct _cl_kernel *kernel)
{
   return atomic_load_explicit(&kernel->num_set, memory_order_relaxed) == kernel->num_args;
}

void *
comp_kernel_capture_locked(const struct _cl_kernel *kernel)
{
   return kernel->capture;
}

void
comp_kernel_set_capture_locked(struct _cl_kernel *kernel, void *capture)
{
   kernel->capture = capture;
}

void
comp_kernel_retain_internal(struct _cl_kernel *kernel)
{
   icd_object_retain_internal(&kernel->obj);
}

void
comp_kernel_release_internal(struct _cl_kernel *kernel)
{
   if (icd_object_release_internal(&kernel->obj))
      kernel_destroy(kernel);
}

/* Allocates a kernel of `prog` with `sig`'s explicit arguments; not yet attached. */
static struct _cl_kernel *
kernel_alloc(struct _cl_program *prog, const struct comp_kernel *sig)
{
   struct _cl_kernel *k = icd_calloc(1, sizeof(*k));
   if (!k)
      return NULL;
   icd_object_init(&k->obj, ICD_TYPE_KERNEL);
   pthread_mutex_init(&k->args_lock, NULL);
   k->context = prog->context;
   k->sig = sig;
   k->name = sig->name;
   k->num_devices = prog->num_devices;
   k->num_args = sig->num_explicit_args;
   k->devices = icd_calloc(prog->num_devices, sizeof(*k->devices));
   k->args = icd_calloc(k->num_args ? k->num_args : 1, sizeof(*k->args));
   if (!k->devices || !k->args) {
      kernel_destroy(k);
      return NULL;
   }
   return k;
}

/* Takes the kernel's internal reference on its program. Under program->lock. */
static void
kernel_attach_locked(struct _cl_kernel *k, struct _cl_program *prog)
{
   prog->num_kernels_attached++;
   comp_program_retain_internal(prog);
   k->program = prog;
}

/* True when two devices' signatures of one kernel agree on the explicit arguments
 * (§5.9.1 CL_INVALID_KERNEL_DEFINITION otherwise). */
static bool
same_definition(const struct comp_kernel *a, const struct comp_kernel *b)
{
   if (a->num_explicit_args != b->num_explicit_args)
      return false;
   for (uint32_t i = 0; i < a->num_explicit_args; i++) {
      const struct comp_kernel_arg *x = &a->args[i], *y = &b->args[i];
      if (x->size != y->size || x->kind != y->kind || x->address_space != y->address_space)
         return false;
   }
   return true;
}

static bool
program_has_executable_locked(const struct _cl_program *prog)
{
   if (prog->building)
      return false;
   for (cl_uint i = 0; i < prog->num_devices; i++)
      if (prog->devices[i].loaded)
         return true;
   return false;
}

/*
 * A program created from executable binaries and never built: load it now, as AMD's and
 * PoCL's OpenCL do (piglit api@clcreateprogramwithbinary creates kernels from such a
 * program directly; the executable is already complete). Called with no lock held; a
 * failed or concurrent build leaves the program as it was.
 */
static void
load_unbuilt_binary_program(struct _cl_program *prog)
{
   pthread_mutex_lock(&prog->lock);
   bool never_built = prog->origin == COMP_ORIGIN_BINARY && !prog->building;
   for (cl_uint i = 0; i < prog->num_devices && never_built; i++)
      never_built = prog->devices[i].status == CL_BUILD_NONE &&
                    prog->devices[i].binary_type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
   pthread_mutex_unlock(&prog->lock);
   if (never_built)
      comp_BuildProgram(comp_program_to_handle(prog), 0, NULL, NULL, NULL, NULL);
}

/* Creates and attaches the kernel `name`. Under program->lock; the program has an
 * executable. Returns CL_SUCCESS, CL_INVALID_KERNEL_NAME, CL_INVALID_KERNEL_DEFINITION or
 * CL_OUT_OF_HOST_MEMORY (not yet logged). */
static cl_int
kernel_create_locked(struct _cl_program *prog, const char *name, struct _cl_kernel **out)
{
   const struct comp_kernel_device *found[prog->num_devices];
   const struct comp_kernel *sig = NULL;
   bool missing = false;
   for (cl_uint d = 0; d < prog->num_devices; d++) {
      const struct comp_program_device *pd = &prog->devices[d];
      found[d] = NULL;
      if (!pd->loaded)
         continue;
      for (uint32_t i = 0; i < pd->info->num_kernels; i++) {
         if (pd->info->kernels[i].kind == COMP_KERNEL_NORMAL &&
             !strcmp(pd->info->kernels[i].name, name)) {
            found[d] = &pd->kernels[i];
            break;
         }
      }
      if (!found[d]) {
         missing = true;
         continue;
      }
      if (!sig)
         sig = found[d]->sig;
      else if (!same_definition(sig, found[d]->sig))
         return CL_INVALID_KERNEL_DEFINITION;
   }
   if (!sig)
      return CL_INVALID_KERNEL_NAME;
   if (missing)
      return CL_INVALID_KERNEL_DEFINITION;
   struct _cl_kernel *k = kernel_alloc(prog, sig);
   if (!k)
      return CL_OUT_OF_HOST_MEMORY;
   for (cl_uint d = 0; d < prog->num_devices; d++)
      k->devices[d] = found[d];
   kernel_attach_locked(k, prog);
   *out = k;
   return CL_SUCCESS;
}

const struct comp_kernel_device *
comp_kernel_for_device(const struct _cl_kernel *kernel, const struct _cl_device_id *device)
{
   for (cl_uint i = 0; i < kernel->num_devices; i++)
      if (kernel->program->devices[i].device == device)
         return kernel->devices[i];
   return NULL;
}

const struct comp_program_info *
comp_kernel_program_info(const struct _cl_kernel *kernel, const struct _cl_device_id *device)
{
   for (cl_uint i = 0; i < kernel->num_devices; i++)
      if (kernel->program->devices[i].device == device)
         return kernel->devices[i] ? kernel->program->devices[i].info : NULL;
   return NULL;
}

cl_int
comp_kernel_for_group(const struct _cl_kernel *kernel, const struct _cl_device_id *device,
                      size_t items, const struct comp_kernel_device **kd,
                      const struct comp_program_info **info)
{
   if (items <= comp_kernel_default_work_group_size(device, *kd)) {
      *info = comp_kernel_program_info(kernel, device);
      return CL_SUCCESS;
   }
   return comp_kernel_wide(kernel, device, kd, info);
}

/* ---- entry points: creation ---------------------------------------------------------- */

cl_kernel CL_API_CALL
comp_CreateKernel(cl_program program, const char *kernel_name, cl_int *errcode_ret)
{
   struct _cl_program *prog = comp_program_from_handle(program);
   if (!prog) {
      icd_set_errcode(errcode_ret, ICD_ERROR(CL_INVALID_PROGRAM, "program %p is not valid",
                                             (void *)program));
      return NULL;
   }
   struct _cl_kernel *k = NULL;
   cl_int err;
   load_unbuilt_binary_program(prog);
   pthread_mutex_lock(&prog->lock);
   if (!program_has_executable_locked(prog)) {
      pthread_mutex_unlock(&prog->lock);
      icd_set_errcode(errcode_ret, ICD_ERROR(CL_INVALID_PROGRAM_EXECUTABLE,
                                             "no device has a successfully built executable"));
      return NULL;
   }
   if (!kernel_name) {
      pthread_mutex_unlock(&prog->lock);
      icd_set_errcode(errcode_ret, ICD_ERROR(CL_INVALID_VALUE, "kernel_name is NULL"));
      return NULL;
   }
   err = kernel_create_locked(prog, kernel_name, &k);
   pthread_mutex_unlock(&prog->lock);
   if (err != CL_SUCCESS) {
      icd_set_errcode(errcode_ret, ICD_ERROR(err, "kernel \"%s\"", kernel_name));
      return NULL;
   }
   icd_set_errcode(errcode_ret, CL_SUCCESS);
   return comp_kernel_to_handle(k);
}

cl_int CL_API_CALL
comp_CreateKernelsInProgram(cl_program program, cl_uint num_kernels, cl_kernel *kernels,
                            cl_uint *num_kernels_ret)
{
   struct _cl_program *prog = comp_program_from_handle(program);
   if (!prog)
      return ICD_ERROR(CL_INVALID_PROGRAM, "program %p is not valid", (void *)program);
   load_unbuilt_binary_program(prog);
   pthread_mutex_lock(&prog->lock);
   if (!program_has_executable_locked(prog)) {
      pthread_mutex_unlock(&prog->lock);
      return ICD_ERROR(CL_INVALID_PROGRAM_EXECUTABLE,
                       "no device has a successfully built executable");
   }
   const struct comp_program_device *pd = NULL;
   for (cl_uint d = 0; d < prog->num_devices && !pd; d++)
      if (prog->devices[d].loaded)
         pd = &prog->devices[d];
   cl_uint n = 0;
   for (uint32_t i = 0; i < pd->info->num_kernels; i++)
      n += pd->info->kernels[i].kind == COMP_KERNEL_NORMAL;
   if (kernels && num_kernels < n) {
      pthread_mutex_unlock(&prog->lock);
      return ICD_ERROR(CL_INVALID_VALUE, "num_kernels %u < %u kernels in the program",
                       num_kernels, n);
   }
   cl_int err = CL_SUCCESS;
   cl_uint made = 0;
   if (kernels) {
      for (uint32_t i = 0; i < pd->info->num_kernels && err == CL_SUCCESS; i++) {
         if (pd->info->kernels[i].kind != COMP_KERNEL_NORMAL)
            continue;
         struct _cl_kernel *k = NULL;
         err = kernel_create_locked(prog, pd->info->kernels[i].name, &k);
         if (err == CL_SUCCESS)
            kernels[made++] = comp_kernel_to_handle(k);
      }
   }
   pthread_mutex_unlock(&prog->lock);
   if (err != CL_SUCCESS) {
      /* All or nothing: the kernels made so far go (they drop the program lock). */
      for (cl_uint i = 0; i < made; i++)
         comp_kernel_release_internal(comp_kernel_from_handle(kernels[i]));
      return ICD_ERROR(err, "creating the program's kernels");
   }
   if (num_kernels_ret)
      *num_kernels_ret = n;
   return CL_SUCCESS;
}

cl_kernel CL_API_CALL
comp_CloneKernel(cl_kernel source_kernel, cl_int *errcode_ret)
{
   struct _cl_kernel *src = comp_kernel_from_handle(source_kernel);
   if (!src) {
      icd_set_errcode(errcode_ret, ICD_ERROR(CL_INVALID_KERNEL, "kernel %p is not valid",
                                             (void *)source_kernel));
      return NULL;
   }
   struct _cl_program *prog = src->program;
   struct _cl_kernel *k = kernel_alloc(prog, src->sig);
   if (!k)
      goto out_oom;
   memcpy(k->devices, src->devices, src->num_devices * sizeof(*k->devices));
   /* §5.9.2: the copy includes the argument values and the clSetKernelExecInfo state. */
   if (comp__kernel_args_copy(k, src) != CL_SUCCESS)
      goto out_destroy_kernel;
   pthread_mutex_lock(&prog->lock);
   kernel_attach_locked(k, prog);
   pthread_mutex_unlock(&prog->lock);
   icd_set_errcode(errcode_ret, CL_SUCCESS);
   return comp_kernel_to_handle(k);

out_destroy_kernel:
   kernel_destroy(k);
out_oom:
   icd_set_errcode(errcode_ret, ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "cloning a kernel"));
   return NULL;
}

cl_int CL_API_CALL
comp_RetainKernel(cl_kernel kernel)
{
   struct _cl_kernel *k = comp_kernel_from_handle(kernel);
   if (!k)
      return ICD_ERROR(CL_INVALID_KERNEL, "kernel %p is not valid", (void *)kernel);
   icd_object_retain(&k->obj);
   return CL_SUCCESS;
}

cl_int CL_API_CALL
comp_ReleaseKernel(cl_kernel kernel)
{
   struct _cl_kernel *k = comp_kernel_from_handle(kernel);
   if (!k)
      return ICD_ERROR(CL_INVALID_KERNEL, "kernel %p is not valid", (void *)kernel);
   if (icd_object_release(&k->obj))
      comp_kernel_release_internal(k);
   return CL_SUCCESS;
}

/* ---- entry points: queries ----------------------------------------------------------- */

/* The source attributes the metadata records (§5.9.3 CL_KERNEL_ATTRIBUTES), in source
 * syntax, space-separated. */
static void
kernel_attributes(const struct comp_kernel *sig, char *buf, size_t size)
{
   size_t off = 0;
   buf[0] = '\0';
   if (sig->reqd_work_group_size[0])
      off += snprintf(buf + off, size - off, "reqd_work_group_size(%u,%u,%u)",
                      sig->reqd_work_group_size[0], sig->reqd_work_group_size[1],
                      sig->reqd_work_group_size[2]);
   if (sig->work_group_size_hint[0] && off < size)
      off += snprintf(buf + off, size - off, "%swork_group_size_hint(%u,%u,%u)",
                      off ? " " : "", sig->work_group_size_hint[0],
                      sig->work_group_size_hint[1], sig->work_group_size_hint[2]);
   if (sig->vec_type_hint && off < size)
      snprintf(buf + off, size - off, "%svec_type_hint(%s)", off ? " " : "",
               sig->vec_type_hint);
}

cl_int CL_API_CALL
comp_GetKernelInfo(cl_kernel kernel, cl_kernel_info param_name, size_t param_value_size,
                   void *param_value, size_t *param_value_size_ret)
{
   struct _cl_kernel *k = comp_kernel_from_handle(kernel);
   if (!k)
      return ICD_ERROR(CL_INVALID_KERNEL, "kernel %p is not valid", (void *)kernel);
   switch (param_name) {
   case CL_KERNEL_FUNCTION_NAME:
      return icd_get_info_string(k->name, param_value_size, param_value, param_value_size_ret);
   case CL_KERNEL_NUM_ARGS:
      return ICD_GET_INFO_SCALAR(cl_uint, k->num_args, param_value_size, param_value,
                                 param_value_size_ret);
   case CL_KERNEL_REFERENCE_COUNT:
      return ICD_GET_INFO_SCALAR(cl_uint, icd_object_refcount(&k->obj), param_value_size,
                                 param_value, param_value_size_ret);
   case CL_KERNEL_CONTEXT:
      return ICD_GET_INFO_SCALAR(cl_context, plat_context_to_handle(k->context),
                                 param_value_size, param_value, param_value_size_ret);
   case CL_KERNEL_PROGRAM:
      return ICD_GET_INFO_SCALAR(cl_program, comp_program_to_handle(k->program),
                                 param_value_size, param_value, param_value_size_ret);
   case CL_KERNEL_ATTRIBUTES: {
      char buf[256];
      kernel_attributes(k->sig, buf, sizeof(buf));
      return icd_get_info_string(buf, param_value_size, param_value, param_value_size_ret);
   }
   default:
      return ICD_ERROR(CL_INVALID_VALUE, "unknown kernel query 0x%x", (unsigned)param_name);
   }
}

/* Argument information exists when the code object names every explicit argument: the
 * program was built with -cl-kernel-arg-info (names survive in binaries). */
static bool
arg_info_available(const struct comp_kernel *sig)
{
   for (uint32_t i = 0; i < sig->num_explicit_args; i++)
      if (!sig->args[i].name || !sig->args[i].type_name)
         return false;
   return true;
}

cl_int CL_API_CALL
comp_GetKernelArgInfo(cl_kernel kernel, cl_uint arg_index, cl_kernel_arg_info param_name,
                      size_t param_value_size, void *param_value, size_t *param_value_size_ret)
{
   struct _cl_kernel *k = comp_kernel_from_handle(kernel);
   if (!k)
      return ICD_ERROR(CL_INVALID_KERNEL, "kernel %p is not valid", (void *)kernel);
   if (arg_index >= k->num_args)
      return ICD_ERROR(CL_INVALID_ARG_INDEX, "argument %u of %u", arg_index, k->num_args);
   switch (param_name) {
   case CL_KERNEL_ARG_ADDRESS_QUALIFIER:
   case CL_KERNEL_ARG_ACCESS_QUALIFIER:
   case CL_KERNEL_ARG_TYPE_NAME:
   case CL_KERNEL_ARG_TYPE_QUALIFIER:
   case CL_KERNEL_ARG_NAME:
      break;
   default:
      return ICD_ERROR(CL_INVALID_VALUE, "unknown kernel argument query 0x%x",
                       (unsigned)param_name);
   }
   if (!arg_info_available(k->sig))
      return ICD_ERROR(CL_KERNEL_ARG_INFO_NOT_AVAILABLE,
                       "kernel \"%s\": built without -cl-kernel-arg-info", k->name);
   const struct comp_kernel_arg *a = &k->sig->args[arg_index];
   switch (param_name) {
   case CL_KERNEL_ARG_ADDRESS_QUALIFIER: {
      cl_kernel_arg_address_qualifier q = CL_KERNEL_ARG_ADDRESS_PRIVATE;
      if (a->address_space == COMP_ADDR_GLOBAL || a->address_space == COMP_ADDR_GENERIC ||
          a->kind == COMP_ARG_IMAGE || a->kind == COMP_ARG_PIPE)
         q = CL_KERNEL_ARG_ADDRESS_GLOBAL;
      else if (a->address_space == COMP_ADDR_CONSTANT)
         q = CL_KERNEL_ARG_ADDRESS_CONSTANT;
      else if (a->address_space == COMP_ADDR_LOCAL ||
               a->kind == COMP_ARG_DYNAMIC_SHARED_POINTER)
         q = CL_KERNEL_ARG_ADDRESS_LOCAL;
      return ICD_GET_INFO_SCALAR(cl_kernel_arg_address_qualifier, q, param_value_size,
                                 param_value, param_value_size_ret);
   }
   case CL_KERNEL_ARG_ACCESS_QUALIFIER: {
      cl_kernel_arg_access_qualifier q = CL_KERNEL_ARG_ACCESS_NONE;
      if (a->kind == COMP_ARG_IMAGE || a->kind == COMP_ARG_PIPE) {
         switch (a->access) {
         case COMP_ACCESS_READ_ONLY:
            q = CL_KERNEL_ARG_ACCESS_READ_ONLY;
            break;
         case COMP_ACCESS_WRITE_ONLY:
            q = CL_KERNEL_ARG_ACCESS_WRITE_ONLY;
            break;
         case COMP_ACCESS_READ_WRITE:
            q = CL_KERNEL_ARG_ACCESS_READ_WRITE;
            break;
         default:
            q = CL_KERNEL_ARG_ACCESS_READ_ONLY; /* images default to read_only */
            break;
         }
      }
      return ICD_GET_INFO_SCALAR(cl_kernel_arg_access_qualifier, q, param_value_size,
                                 param_value, param_value_size_ret);
   }
   case CL_KERNEL_ARG_TYPE_NAME:
      return icd_get_info_string(a->type_name, param_value_size, param_value,
                                 param_value_size_ret);
   case CL_KERNEL_ARG_TYPE_QUALIFIER: {
      cl_kernel_arg_type_qualifier q = CL_KERNEL_ARG_TYPE_NONE;
      if (a->is_const || a->address_space == COMP_ADDR_CONSTANT)
         q |= CL_KERNEL_ARG_TYPE_CONST;
      if (a->is_restrict)
         q |= CL_KERNEL_ARG_TYPE_RESTRICT;
      if (a->is_volatile)
         q |= CL_KERNEL_ARG_TYPE_VOLATILE;
      if (a->is_pipe || a->kind == COMP_ARG_PIPE)
         q |= CL_KERNEL_ARG_TYPE_PIPE;
      return ICD_GET_INFO_SCALAR(cl_kernel_arg_type_qualifier, q, param_value_size,
                                 param_value, param_value_size_ret);
   }
   default: /* CL_KERNEL_ARG_NAME */
      return icd_get_info_string(a->name, param_value_size, param_value,
                                 param_value_size_ret);
   }
}

/* The kernel's launch record on `device` for the work-group and sub-group queries:
 * CL_INVALID_DEVICE when device is not one of the kernel's (with an executable), or NULL
 * while the kernel has several devices (§5.9.3). */
static cl_int
query_device(const struct _cl_kernel *k, cl_device_id device,
             const struct _cl_device_id **dev_out, const struct comp_kernel_device **kd_out)
{
   const struct _cl_device_id *dev = NULL;
   if (!device) {
      if (k->num_devices != 1)
         return ICD_ERROR(CL_INVALID_DEVICE, "device is NULL and the kernel has %u devices",
                          k->num_devices);
      dev = k->program->devices[0].device;
   } else {
      dev = plat_device_from_handle(device);
   }
   const struct comp_kernel_device *kd = dev ? comp_kernel_for_device(k, dev) : NULL;
   if (!kd)
      return ICD_ERROR(CL_INVALID_DEVICE, "device %p has no executable for kernel \"%s\"",
                       (void *)device, k->name);
   *dev_out = dev;
   *kd_out = kd;
   return CL_SUCCESS;
}

cl_int CL_API_CALL
comp_GetKernelWorkGroupInfo(cl_kernel kernel, cl_device_id device,
                            cl_kernel_work_group_info param_name, size_t param_value_size,
                            void *param_value, size_t *param_value_size_ret)
{
   struct _cl_kernel *k = comp_kernel_from_handle(kernel);
   if (!k)
      return ICD_ERROR(CL_INVALID_KERNEL, "kernel %p is not valid", (void *)kernel);
   const struct _cl_device_id *dev;
   const struct comp_kernel_device *kd;
   cl_int err = query_device(k, device, &dev, &kd);
   if (err != CL_SUCCESS)
      return err;
   const struct comp_kernel *sig = kd->sig;
   switch (param_name) {
   case CL_KERNEL_GLOBAL_WORK_SIZE:
      /* §5.9.3: only for custom devices or built-in kernels. */
      return ICD_ERROR(CL_INVALID_VALUE,
                       "CL_KERNEL_GLOBAL_WORK_SIZE: not a custom device or built-in kernel");
   case CL_KERNEL_WORK_GROUP_SIZE:
      /* The largest size a launch accepts: launches past the default build's bound run
       * the program's wide variant (comp_wide.c). */
      return ICD_GET_INFO_SCALAR(size_t, comp_kernel_max_work_group_size(k, dev, kd),
                                 param_value_size, param_value, param_value_size_ret);
   case CL_KERNEL_COMPILE_WORK_GROUP_SIZE: {
      size_t wg[3] = { sig->reqd_work_group_size[0], sig->reqd_work_group_size[1],
                       sig->reqd_work_group_size[2] };
      return icd_get_info(wg, sizeof(wg), param_value_size, param_value,
                          param_value_size_ret);
   }
   case CL_KERNEL_LOCAL_MEM_SIZE: {
      /* Fixed LDS plus the __local arguments set so far (sizes from clSetKernelArg). */
      cl_ulong local = kd->group_segment_size;
      pthread_mutex_lock(&k->args_lock);
      for (cl_uint i = 0; i < k->num_args; i++)
         if (sig->args[i].kind == COMP_ARG_DYNAMIC_SHARED_POINTER && k->args[i].set)
            local += k->args[i].size;
      pthread_mutex_unlock(&k->args_lock);
      return ICD_GET_INFO_SCALAR(cl_ulong, local, param_value_size, param_value,
                                 param_value_size_ret);
   }
   case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
      return ICD_GET_INFO_SCALAR(size_t,
                                 sig->wavefront_size ? sig->wavefront_size
                                                     : dev->info.wavefront_size,
                                 param_value_size, param_value, param_value_size_ret);
   case CL_KERNEL_PRIVATE_MEM_SIZE:
      return ICD_GET_INFO_SCALAR(cl_ulong, kd->private_segment_size, param_value_size,
                                 param_value, param_value_size_ret);
   default:
      return ICD_ERROR(CL_INVALID_VALUE, "unknown kernel work-group query 0x%x",
                       (unsigned)param_name);
   }
}

cl_int CL_API_CALL
comp_GetKernelSubGroupInfo(cl_kernel kernel, cl_device_id device,
                           cl_kernel_sub_group_info param_name, size_t input_value_size,
                           const void *input_value, size_t param_value_size, void *param_value,
                           size_t *param_value_size_ret)
{
   struct _cl_kernel *k = comp_kernel_from_handle(kernel);
   if (!k)
      return ICD_ERROR(CL_INVALID_KERNEL, "kernel %p is not valid", (void *)kernel);
   const struct _cl_device_id *dev;
   const struct comp_kernel_device *kd;
   cl_int err = query_device(k, device, &dev, &kd);
   if (err != CL_SUCCESS)
      return err;
   /* §5.9.3: CL_INVALID_OPERATION when the device does not support sub-groups. */
   if (!plat_device_has_extension(dev, "cl_khr_subgroups"))
      return ICD_ERROR(CL_INVALID_OPERATION, "device %s does not support sub-groups",
                       dev->name);

   const struct comp_kernel *sig = kd->sig;
   size_t wave = sig->wavefront_size ? sig->wavefront_size : dev->info.wavefront_size;
   size_t max_wg = comp_kernel_max_work_group_size(k, dev, kd);
   switch (param_name) {
   case CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE:
   case CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE: {
      if (!input_value || input_value_size == 0 || input_value_size % sizeof(size_t) ||
          input_value_size > 3 * sizeof(size_t))
         return ICD_ERROR(CL_INVALID_VALUE, "input_value must be 1 to 3 size_t local sizes");
      const size_t *local = input_value;
      size_t items = 1;
      for (size_t i = 0; i < input_value_size / sizeof(size_t); i++)
         items *= local[i];
      size_t v = param_name == CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE
                    ? (items + wave - 1) / wave
                    : (items < wave ? items : wave);
      return ICD_GET_INFO_SCALAR(size_t, v, param_value_size, param_value,
                                 param_value_size_ret);
   }
   case CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT: {
      if (!input_value || input_value_size != sizeof(size_t))
         return ICD_ERROR(CL_INVALID_VALUE, "input_value must be one size_t");
      size_t count = *(const size_t *)input_value;
      size_t dims = param_value ? param_value_size / sizeof(size_t) : 3;
      if (param_value && (param_value_size % sizeof(size_t) || dims == 0 || dims > 3))
         return ICD_ERROR(CL_INVALID_VALUE, "param_value_size %zu", param_value_size);
      size_t local[3] = { 0, 0, 0 };
      if (count && count * wave <= max_wg) {
         local[0] = count * wave;
         local[1] = local[2] = 1;
      }
      return icd_get_info(local, dims * sizeof(size_t), param_value_size, param_value,
                          param_value_size_ret);
   }
   case CL_KERNEL_MAX_NUM_SUB_GROUPS:
      return ICD_GET_INFO_SCALAR(size_t, (max_wg + wave - 1) / wave, param_value_size,
                                 param_value, param_value_size_ret);
   case CL_KERNEL_COMPILE_NUM_SUB_GROUPS:
      return ICD_GET_INFO_SCALAR(size_t, 0, param_value_size, param_value,
                                 param_value_size_ret);
   default:
      return ICD_ERROR(CL_INVALID_VALUE, "unknown kernel sub-group query 0x%x",
                       (unsigned)param_name);
   }
}
