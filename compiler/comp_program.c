/*
 * compiler/comp_program.c — the cl_program object (OpenCL 3.0 API §5.8): creation from
 * source, IL and binaries, specialization constants, reference counting and release
 * callbacks, loading a code object into one HSA executable per device, and the program
 * queries. Builds (clBuildProgram, clCompileProgram, clLinkProgram) are in
 * comp_program_build.c.
 *
 * Locking: program->lock guards the build state of every device entry and the counters of
 * struct _cl_program. A build marks the program `building` under the lock, compiles and
 * loads with no lock held (builds of different programs run concurrently; the engine is
 * thread-safe), then publishes the results under the lock. Lock order: program -> nothing
 * else of the driver is taken under it.
 */
#define _GNU_SOURCE
#include "comp_program_priv.h"
#include "comp_priv.h"
#include "runtime/rt.h"
#include "platform/plat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- small growing string for build logs ------------------------------------------- */

void
comp__log_append(char **log, const char *fmt, ...)
{
   va_list ap;
   char *add = NULL;
   va_start(ap, fmt);
   int n = vasprintf(&add, fmt, ap);
   va_end(ap);
   if (n < 0)
      return;
   size_t old = *log ? strlen(*log) : 0;
   char *s = icd_realloc(*log, old + (size_t)n + 1);
   if (s) {
      memcpy(s + old, add, (size_t)n + 1);
      *log = s;
   }
   free(add);
}

/* ---- lifetime ------------------------------------------------------------------------ */

void
comp__program_device_unload(struct comp_program_device *pd)
{
   const struct rt_hsa *hsa = rt_hsa();
   if (pd->loaded && hsa)
      rt_executable_destroy(&(struct rt_executable){ pd->reader, pd->executable });
   pd->loaded = false;
   icd_free(pd->kernels);
   pd->kernels = NULL;
}

/* Forgets everything a build left on one device (the device pointer stays). */
void
comp__program_device_reset(struct comp_program_device *pd)
{
   comp__program_device_unload(pd);
   comp__wide_destroy(pd->wide);
   pd->wide = NULL;
   pd->wide_buildable = false;
   atomic_store(&pd->wide_failed, false);
   icd_free(pd->spec_constants);
   pd->spec_constants = NULL;
   pd->num_spec_constants = 0;
   for (size_t i = 0; i < pd->num_link_inputs; i++)
      icd_free((void *)pd->link_inputs[i].data);
   icd_free(pd->link_inputs);
   pd->link_inputs = NULL;
   pd->num_link_inputs = 0;
   icd_free(pd->binary);
   icd_free(pd->log);
   icd_free(pd->options);
   comp_program_info_destroy(pd->info);
   pd->binary = NULL;
   pd->binary_size = 0;
   pd->log = NULL;
   pd->options = NULL;
   pd->info = NULL;
   pd->global_variable_size = 0;
   pd->status = CL_BUILD_NONE;
   pd->binary_type = CL_PROGRAM_BINARY_TYPE_NONE;
}

/* Accepts a half-built program. Runs the release callbacks first (OpenCL 3.0 §5.8.8:
 * after program-scope destructors, before the object is deleted), with no lock held. */
static void
program_destroy(struct _cl_program *prog)
{
   struct comp_program_release_callback *cb = prog->release_callbacks;
   while (cb) {
      struct comp_program_release_callback *next = cb->next;
      cb->fn(comp_program_to_handle(prog), cb->user_data);
      icd_free(cb);
      cb = next;
   }
   for (cl_uint i = 0; prog->devices && i < prog->num_devices; i++)
      comp__program_device_reset(&prog->devices[i]);
   icd_free(prog->devices);
   icd_free(prog->source);
   icd_free(prog->il);
   icd_free(prog->spec_constants);
   pthread_mutex_destroy(&prog->lock);
   pthread_mutex_destroy(&prog->wide_lock);
   if (prog->context)
      plat_context_release_internal(prog->context);
   icd_object_finish(&prog->obj);
   icd_free(prog);
}

/* Returns a new program (one API reference) on `devices` of `ctx`, or NULL on
 * out-of-memory. */
struct _cl_program *
comp__program_create(struct _cl_context *ctx, struct _cl_device_id *const *devices,
                     cl_uint num_devices, comp_program_origin origin)
{
   struct _cl_program *prog = icd_calloc(1, sizeof(*prog));
   if (!prog)
      return NULL;
   prog->devices = icd_calloc(num_devices, sizeof(*prog->devices));
   if (!prog->devices) {
      icd_free(prog);
      return NULL;
   }
   icd_object_init(&prog->obj, ICD_TYPE_PROGRAM);
   pthread_mutex_init(&prog->lock, NULL);
   pthread_mutex_init(&prog->wide_lock, NULL);
   prog->origin = origin;
   prog->num_devices = num_devices;
   for (cl_uint i = 0; i < num_devices; i++) {
      prog->devices[i].device = devices[i];
      prog->devices[i].status = CL_BUILD_NONE;
   }
   plat_context_retain_internal(ctx);
   prog->context = ctx;
   return prog;
}

void
comp_program_retain_internal(struct _cl_program *prog)
{
   icd_object_retain_internal(&prog->obj);
}

void
comp_program_release_internal(struct _cl_program *prog)
{
   if (icd_object_release_internal(&prog->obj))
      program_destroy(prog);
}

/* Index of `dev` among the program's devices, or -1. */
int
comp__program_device_index(const struct _cl_program *prog, const struct _cl_device_id *dev)
{
   for (cl_uint i = 0; i < prog->num_devices; i++)
      if (prog->devices[i].device == dev)
         return (int)i;
   return -1;
}

/* ---- creation ------------------------------------------------------------------------ */

cl_program CL_API_CALL
comp_CreateProgramWithSource(cl_context context, cl_uint count, const char **strings,
                             const size_t *lengths, cl_int *errcode_ret)
{
   struct _cl_context *ctx = plat_context_from_handle(context);
   if (!ctx) {
      icd_set_errcode(errcode_ret, ICD_ERROR(CL_INVALID_CONTEXT, "context %p is not valid",
                                             (void *)context));
      return NULL;
   }
   if (count == 0 || !strings) {
      icd_set_errcode(errcode_ret, ICD_ERROR(CL_INVALID_VALUE, "count %u, strings %p", count,
                                             (void *)strings));
      return NULL;
   }
   for (cl_uint i = 0; i < count; i++) {
      if (!strings[i]) {
         icd_set_errcode(errcode_ret, ICD_ERROR(CL_INVALID_VALUE, "strings[%u] is NULL", i));
         return NULL;
      }
   }

   /* §5.8.1: lengths NULL, or lengths[i] == 0, means a NUL-terminated string. */
   size_t total = 0;
   for (cl_uint i = 0; i < count; i++)
      total += lengths && lengths[i] ? lengths[i] : strlen(strings[i]);
   struct _cl_program *prog =
      comp__program_create(ctx, ctx->devices, ctx->num_devices, COMP_ORIGIN_SOURCE);
   char *src = prog ? icd_malloc(total + 1) : NULL;
   if (!src) {
      if (prog)
         program_destroy(prog);
      icd_set_errcode(errcode_ret, ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "program source"));
      return NULL;
   }
   size_t off = 0;
   for (cl_uint i = 0; i < count; i++) {
      size_t n = lengths && lengths[i] ? lengths[i] : strlen(strings[i]);
      memcpy(src + off, strings[i], n);
      off += n;
   }
   src[total] = '\0';
   prog->source = src;
   prog->source_size = total;
   icd_set_errcode(errcode_ret, CL_SUCCESS);
   return comp_program_to_handle(prog);
}

cl_int
comp__check_device_list(struct _cl_context *ctx, const cl_device_id *list, cl_uint n,
                        bool distinct)
{
   for (cl_uint i = 0; i < n; i++) {
      struct _cl_device_id *dev = plat_device_from_handle(list[i]);
      if (!dev || !plat_context_has_device(ctx, dev))
         return ICD_ERROR(CL_INVALID_DEVICE, "device_list[%u] is not a device of the context",
                          i);
      for (cl_uint j = 0; distinct && j < i; j++) {
         if (list[j] == list[i])
            return ICD_ERROR(CL_INVALID_DEVICE, "device_list[%u] repeats [%u]", i, j);
      }
   }
   return CL_SUCCESS;
}

cl_program CL_API_CALL
comp_CreateProgramWithBinary(cl_context context, cl_uint num_devices,
                             const cl_device_id *device_list, const size_t *lengths,
                             const unsigned char **binaries, cl_int *binary_status,
                             cl_int *errcode_ret)
{
   struct _cl_context *ctx = plat_context_from_handle(context);
   if (!ctx) {
      icd_set_errcode(errcode_ret, ICD_ERROR(CL_INVALID_CONTEXT, "context %p is not valid",
                                             (void *)context));
      return NULL;
   }
   if (!device_list || num_devices == 0) {
      icd_set_errcode(errcode_ret, ICD_ERROR(CL_INVALID_VALUE, "device_list %p, num_devices %u",
                                             (void *)device_list, num_devices));
      return NULL;
   }
   cl_int derr = comp__check_device_list(ctx, device_list, num_devices, true);
   if (derr != CL_SUCCESS) {
      icd_set_errcode(errcode_ret, derr);
      return NULL;
   }
   if (!lengths || !binaries) {
      icd_set_errcode(errcode_ret, ICD_ERROR(CL_INVALID_VALUE, "lengths %p, binaries %p",
                                             (void *)lengths, (void *)binaries));
      return NULL;
   }
   bool bad_value = false;
   for (cl_uint i = 0; i < num_devices; i++) {
      bool bad = !lengths[i] || !binaries[i];
      if (binary_status)
         binary_status[i] = bad ? CL_INVALID_VALUE : CL_SUCCESS;
      bad_value |= bad;
   }
   if (bad_value) {
      icd_set_errcode(errcode_ret,
                      ICD_ERROR(CL_INVALID_VALUE, "a length is zero or a binary is NULL"));
      return NULL;
   }

   struct _cl_program *prog = comp__program_create(ctx, (struct _cl_device_id *const *)device_list,
                                                   num_devices, COMP_ORIGIN_BINARY);
   if (!prog) {
      icd_set_errcode(errcode_ret, ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "program"));
      return NULL;
   }
   cl_int err = CL_SUCCESS;
   for (cl_uint i = 0; i < num_devices; i++) {
      struct comp_program_device *pd = &prog->devices[i];
      char *why = NULL;
      cl_program_binary_type type;
      struct comp_program_info *info;
      if (!comp__binary_check(binaries[i], lengths[i], pd->device, &type, &info, &why)) {
         if (binary_status)
            binary_status[i] = CL_INVALID_BINARY;
         err = ICD_ERROR(CL_INVALID_BINARY, "binary for device %u (%s): %s", i,
                         pd->device->name, why ? why : "invalid");
         icd_free(why);
         continue;
      }
      pd->binary = icd_malloc(lengths[i]);
      if (!pd->binary) {
         comp_program_info_destroy(info);
         if (binary_status)
            binary_status[i] = CL_OUT_OF_HOST_MEMORY;
         if (err == CL_SUCCESS)
            err = ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "program binary");
         continue;
      }
      memcpy(pd->binary, binaries[i], lengths[i]);
      pd->binary_size = lengths[i];
      pd->binary_type = type;
      pd->info = info;
      pd->global_variable_size = comp__binary_global_variable_size(pd->binary, lengths[i]);
   }
   if (err != CL_SUCCESS) {
      program_destroy(prog);
      icd_set_errcode(errcode_ret, err);
      return NULL;
   }
   icd_set_errcode(errcode_ret, CL_SUCCESS);
   return comp_program_to_handle(prog);
}

cl_program CL_API_CALL
comp_CreateProgramWithBuiltInKernels(cl_context context, cl_uint num_devices,
                                     const cl_device_id *device_list, const char *kernel_names,
                                     cl_int *errcode_ret)
{
   struct _cl_context *ctx = plat_context_from_handle(context);
   if (!ctx) {
      icd_set_errcode(errcode_ret, ICD_ERROR(CL_INVALID_CONTEXT, "context %p is not valid",
                                             (void *)context));
      return NULL;
   }
   if (!device_list || num_devices == 0) {
      icd_set_errcode(errcode_ret, ICD_ERROR(CL_INVALID_VALUE, "device_list %p, num_devices %u",
                                             (void *)device_list, num_devices));
      return NULL;
   }
   /* §5.8.1: CL_INVALID_VALUE for kernel names no device supports; no device has any
    * built-in kernel (CL_DEVICE_BUILT_IN_KERNELS is ""). */
   icd_set_errcode(errcode_ret, ICD_ERROR(CL_INVALID_VALUE,
                                          "no device supports built-in kernels (\"%s\")",
                                          kernel_names ? kernel_names : "(null)"));
   return NULL;
}

cl_program CL_API_CALL
comp_CreateProgramWithIL(cl_context context, const void *il, size_t length,
                         cl_int *errcode_ret)
{
   struct _cl_context *ctx = plat_context_from_handle(context);
   if (!ctx) {
      icd_set_errcode(errcode_ret, ICD_ERROR(CL_INVALID_CONTEXT, "context %p is not valid",
                                             (void *)context));
      return NULL;
   }
   if (!il || length == 0) {
      icd_set_errcode(errcode_ret, ICD_ERROR(CL_INVALID_VALUE, "il %p, length %zu",
                                             (void *)il, length));
      return NULL;
   }
   /* §5.8.1: CL_INVALID_OPERATION if no device in context supports intermediate
    * languages (CL_DEVICE_IL_VERSION is ""): those report cl_khr_il_program (the profiles
    * from 2.0 on, with the translator). clCreateProgramWithILKHR is this function. */
   bool any_il = false;
   for (cl_uint i = 0; i < ctx->num_devices; i++)
      any_il |= plat_device_has_extension(ctx->devices[i], "cl_khr_il_program");
   if (!any_il) {
      icd_set_errcode(errcode_ret, ICD_ERROR(CL_INVALID_OPERATION,
                                             "no device of the context supports IL programs "
                                             "(OpenCL 1.2 profile, or the SPIR-V translator "
                                             "llvm-spirv-15 is not installed)"));
      return NULL;
   }
   /* CL_INVALID_VALUE if il is not a well-formed IL of a supported kind: SPIR-V the
    * validator accepts and the device can run. */
   struct comp__spirv_info info;
   char *why = NULL;
   enum comp_status st = comp__spirv_check(il, length, &info, &why);
   if (st != COMP_OK) {
      cl_int err = st == COMP_OUT_OF_MEMORY
                      ? ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "validating the SPIR-V module")
                      : ICD_ERROR(CL_INVALID_VALUE, "%s", why ? why : "invalid SPIR-V");
      free(why);
      icd_set_errcode(errcode_ret, err);
      return NULL;
   }
   struct _cl_program *prog =
      comp__program_create(ctx, ctx->devices, ctx->num_devices, COMP_ORIGIN_IL);
   void *copy = icd_malloc(length);
   if (!prog || !copy) {
      icd_free(copy);
      if (prog)
         program_destroy(prog);
      icd_set_errcode(errcode_ret, ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "program IL"));
      return NULL;
   }
   memcpy(copy, il, length);
   prog->il = copy;
   prog->il_size = length;
   icd_set_errcode(errcode_ret, CL_SUCCESS);
   return comp_program_to_handle(prog);
}

cl_int CL_API_CALL
comp_SetProgramSpecializationConstant(cl_program program, cl_uint spec_id, size_t spec_size,
                                      const void *spec_value)
{
   struct _cl_program *prog = comp_program_from_handle(program);
   if (!prog || prog->origin != COMP_ORIGIN_IL)
      return ICD_ERROR(CL_INVALID_PROGRAM, "program %p is not a valid program created from "
                                           "IL", (void *)program);
   uint32_t size = comp__spirv_spec_size(prog->il, prog->il_size, spec_id);
   if (!size)
      return ICD_ERROR(CL_INVALID_SPEC_ID, "the module has no specialization constant with "
                                           "SpecId %u", spec_id);
   if (spec_size != size)
      return ICD_ERROR(CL_INVALID_VALUE, "specialization constant %u is %u bytes, not %zu",
                       spec_id, size, spec_size);
   if (!spec_value)
      return ICD_ERROR(CL_INVALID_VALUE, "spec_value is NULL");
   uint64_t value = 0;
   memcpy(&value, spec_value, spec_size); /* little-endian host: the low-order bytes */
   pthread_mutex_lock(&prog->lock);
   for (size_t i = 0; i < prog->num_spec_constants; i++)
      if (prog->spec_constants[i].id == spec_id) {
         prog->spec_constants[i].value = value;
         pthread_mutex_unlock(&prog->lock);
         return CL_SUCCESS;
      }
   struct comp_spec_constant *n = icd_realloc(
      prog->spec_constants, (prog->num_spec_constants + 1) * sizeof(*n));
   if (!n) {
      pthread_mutex_unlock(&prog->lock);
      return ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "specialization constants");
   }
   n[prog->num_spec_constants++] = (struct comp_spec_constant){ spec_id, size, value };
   prog->spec_constants = n;
   pthread_mutex_unlock(&prog->lock);
   return CL_SUCCESS;
}

cl_int CL_API_CALL
comp_RetainProgram(cl_program program)
{
   struct _cl_program *prog = comp_program_from_handle(program);
   if (!prog)
      return ICD_ERROR(CL_INVALID_PROGRAM, "program %p is not valid", (void *)program);
   icd_object_retain(&prog->obj);
   return CL_SUCCESS;
}

cl_int CL_API_CALL
comp_ReleaseProgram(cl_program program)
{
   struct _cl_program *prog = comp_program_from_handle(program);
   if (!prog)
      return ICD_ERROR(CL_INVALID_PROGRAM, "program %p is not valid", (void *)program);
   if (icd_object_release(&prog->obj))
      comp_program_release_internal(prog);
   return CL_SUCCESS;
}

cl_int CL_API_CALL
comp_SetProgramReleaseCallback(cl_program program, comp_program_notify_fn pfn_notify,
                               void *user_data)
{
   struct _cl_program *prog = comp_program_from_handle(program);
   if (!prog)
      return ICD_ERROR(CL_INVALID_PROGRAM, "program %p is not valid", (void *)program);
   if (!pfn_notify)
      return ICD_ERROR(CL_INVALID_VALUE, "pfn_notify is NULL");
   /* OpenCL 3.0 §5.8.9: CL_INVALID_OPERATION when no device supports program-scope global
    * constructors and destructors (CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT is always false
    * here). The OpenCL 1.2 profile keeps the OpenCL 2.2 behaviour: the callback runs when
    * the program is released. */
   if (PLAT_CL_VERSION_MAJOR >= 3)
      return ICD_ERROR(CL_INVALID_OPERATION, "no device supports program-scope global "
                                             "destructors (OpenCL 3.0 profile)");
   struct comp_program_release_callback *cb = icd_calloc(1, sizeof(*cb));
   if (!cb)
      return ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "release callback");
   cb->fn = pfn_notify;
   cb->user_data = user_data;
   pthread_mutex_lock(&prog->lock);
   cb->next = prog->release_callbacks; /* called in reverse registration order */
   prog->release_callbacks = cb;
   pthread_mutex_unlock(&prog->lock);
   return CL_SUCCESS;
}

cl_int CL_API_CALL
comp_UnloadPlatformCompiler(cl_platform_id platform)
{
   if (!plat_platform_from_handle(platform))
      return ICD_ERROR(CL_INVALID_PLATFORM, "platform %p is not valid", (void *)platform);
   /* A hint (§5.8.9): the in-process compiler stays loaded. */
   return CL_SUCCESS;
}

cl_int CL_API_CALL
comp_UnloadCompiler(void)
{
   return CL_SUCCESS;
}

/* ---- executables ------------------------------------------------------------------- */

static cl_int
hsa_fail(char **log, hsa_status_t st, const char *what, const struct _cl_device_id *dev)
{
   const struct rt_hsa *hsa = rt_hsa();
   const char *msg = NULL;
   if (hsa)
      hsa->hsa_status_string(st, &msg);
   comp__log_append(log, "error: %s failed on %s: %s (0x%x)\n", what, dev->name,
                    msg ? msg : "unknown status", (unsigned)st);
   return rt_status_to_cl(st, what);
}

cl_int
comp__load_executable(const struct _cl_device_id *dev, struct comp__loaded *r, char **log)
{
   const struct rt_hsa *hsa = rt_hsa();
   hsa_status_t st;
   cl_int err;
   if (!hsa) {
      comp__log_append(log, "error: no HSA runtime: %s\n", rt_failure());
      return CL_OUT_OF_RESOURCES;
   }
   r->kernels = icd_calloc(r->info->num_kernels ? r->info->num_kernels : 1, sizeof(*r->kernels));
   if (!r->kernels)
      return CL_OUT_OF_HOST_MEMORY;
   struct rt_executable exe;
   const char *failed = NULL;
   st = rt_executable_load(dev->agent, r->binary, r->binary_size, &exe, &failed);
   if (st != HSA_STATUS_SUCCESS) {
      err = hsa_fail(log, st, failed, dev);
      goto out_free_kernels;
   }
   r->reader = exe.reader;
   r->executable = exe.executable;
   for (uint32_t i = 0; i < r->info->num_kernels; i++) {
      const struct comp_kernel *k = &r->info->kernels[i];
      struct comp_kernel_device *kd = &r->kernels[i];
      hsa_executable_symbol_t sym;
      hsa_agent_t agent = dev->agent;
      uint32_t u32;
      bool b;
      kd->sig = k;
      st = hsa->hsa_executable_get_symbol_by_name(r->executable, k->symbol, &agent, &sym);
      if (st != HSA_STATUS_SUCCESS) {
         comp__log_append(log, "error: kernel symbol %s not found\n", k->symbol);
         err = hsa_fail(log, st, "hsa_executable_get_symbol_by_name", dev);
         goto out_destroy_executable;
      }
#define SYM_INFO(attr, dst)                                                                 \
   do {                                                                                     \
      st = hsa->hsa_executable_symbol_get_info(sym, attr, dst);                             \
      if (st != HSA_STATUS_SUCCESS) {                                                       \
         err = hsa_fail(log, st, "hsa_executable_symbol_get_info(" #attr ")", dev);     \
         goto out_destroy_executable;                                                       \
      }                                                                                     \
   } while (0)
      SYM_INFO(HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &kd->kernel_object);
      SYM_INFO(HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE, &u32);
      kd->kernarg_segment_size = u32;
      SYM_INFO(HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_ALIGNMENT, &u32);
      kd->kernarg_segment_align = u32 < 16 ? 16 : u32;
      SYM_INFO(HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE, &u32);
      kd->group_segment_size = u32;
      SYM_INFO(HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE, &u32);
      kd->private_segment_size = u32;
      SYM_INFO(HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_DYNAMIC_CALLSTACK, &b);
      kd->dynamic_stack = b;
#undef SYM_INFO
   }
   /* Device-side enqueue: the runtime handle of each block kernel (AMDGPUUsage
    * ".device_enqueue_symbol") receives { kernel object, private size, group size }, which
    * compiler/comp_builtins_enqueue.cl reads when it enqueues the block. */
   for (uint32_t i = 0; i < r->info->num_kernels; i++) {
      const struct comp_kernel *k = &r->info->kernels[i];
      const struct comp_kernel_device *kd = &r->kernels[i];
      if (!k->device_enqueue_symbol)
         continue;
      hsa_executable_symbol_t sym;
      hsa_agent_t agent = dev->agent;
      uint64_t addr = 0;
      st = hsa->hsa_executable_get_symbol_by_name(r->executable, k->device_enqueue_symbol,
                                                  &agent, &sym);
      if (st == HSA_STATUS_SUCCESS)
         st = hsa->hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS,
                                                  &addr);
      if (st != HSA_STATUS_SUCCESS) {
         comp__log_append(log, "error: runtime handle %s not found\n", k->device_enqueue_symbol);
         err = hsa_fail(log, st, "hsa_executable_get_symbol_by_name", dev);
         goto out_destroy_executable;
      }
      struct {
         uint64_t kernel_object;
         uint32_t private_size, group_size;
      } handle = { kd->kernel_object, kd->private_segment_size, kd->group_segment_size };
      st = hsa->hsa_memory_copy((void *)(uintptr_t)addr, &handle, sizeof(handle));
      if (st != HSA_STATUS_SUCCESS) {
         err = hsa_fail(log, st, "hsa_memory_copy (runtime handle)", dev);
         goto out_destroy_executable;
      }
   }
   return CL_SUCCESS;

out_destroy_executable:
   rt_executable_destroy(&exe);
out_free_kernels:
   icd_free(r->kernels);
   r->kernels = NULL;
   return err;
}

void
comp__unload_executable(struct comp__loaded *r)
{
   const struct rt_hsa *hsa = rt_hsa();
   if (r->kernels && hsa)
      rt_executable_destroy(&(struct rt_executable){ r->reader, r->executable });
   icd_free(r->kernels);
   r->kernels = NULL;
}

/* ---- queries ------------------------------------------------------------------------- */

/* The first device with a loaded executable, or NULL. Under the program lock. */
static const struct comp_program_device *
first_executable_locked(const struct _cl_program *prog)
{
   if (prog->building)
      return NULL;
   for (cl_uint i = 0; i < prog->num_devices; i++)
      if (prog->devices[i].loaded)
         return &prog->devices[i];
   return NULL;
}

cl_int CL_API_CALL
comp_GetProgramInfo(cl_program program, cl_program_info param_name, size_t param_value_size,
                    void *param_value, size_t *param_value_size_ret)
{
   struct _cl_program *prog = comp_program_from_handle(program);
   if (!prog)
      return ICD_ERROR(CL_INVALID_PROGRAM, "program %p is not valid", (void *)program);
   cl_int err;
   switch (param_name) {
   case CL_PROGRAM_REFERENCE_COUNT:
      return ICD_GET_INFO_SCALAR(cl_uint, icd_object_refcount(&prog->obj), param_value_size,
                                 param_value, param_value_size_ret);
   case CL_PROGRAM_CONTEXT:
      return ICD_GET_INFO_SCALAR(cl_context, plat_context_to_handle(prog->context),
                                 param_value_size, param_value, param_value_size_ret);
   case CL_PROGRAM_NUM_DEVICES:
      return ICD_GET_INFO_SCALAR(cl_uint, prog->num_devices, param_value_size, param_value,
                                 param_value_size_ret);
   case CL_PROGRAM_DEVICES: {
      cl_device_id ids[prog->num_devices];
      for (cl_uint i = 0; i < prog->num_devices; i++)
         ids[i] = plat_device_to_handle(prog->devices[i].device);
      return icd_get_info(ids, sizeof(ids), param_value_size, param_value,
                          param_value_size_ret);
   }
   case CL_PROGRAM_SOURCE:
      /* Binary programs: the empty string (§5.8.10). */
      return icd_get_info_string(prog->source ? prog->source : "", param_value_size,
                                 param_value, param_value_size_ret);
   case CL_PROGRAM_IL:
      /* The IL given at creation; other programs: nothing written, size 0 (§5.8.10). */
      return icd_get_info(prog->il, prog->il ? prog->il_size : 0, param_value_size,
                          param_value, param_value_size_ret);
   case CL_PROGRAM_BINARY_SIZES: {
      size_t sizes[prog->num_devices];
      pthread_mutex_lock(&prog->lock);
      for (cl_uint i = 0; i < prog->num_devices; i++)
         sizes[i] = prog->devices[i].binary_size;
      pthread_mutex_unlock(&prog->lock);
      return icd_get_info(sizes, sizeof(sizes), param_value_size, param_value,
                          param_value_size_ret);
   }
   case CL_PROGRAM_BINARIES: {
      /* param_value is an array of num_devices pointers the application allocated with
       * the sizes of CL_PROGRAM_BINARY_SIZES; NULL entries are skipped. */
      size_t size = prog->num_devices * sizeof(unsigned char *);
      if (param_value && param_value_size < size)
         return ICD_ERROR(CL_INVALID_VALUE, "param_value_size %zu < %zu", param_value_size,
                          size);
      if (param_value_size_ret)
         *param_value_size_ret = size;
      if (param_value) {
         unsigned char **dst = param_value;
         pthread_mutex_lock(&prog->lock);
         for (cl_uint i = 0; i < prog->num_devices; i++)
            if (dst[i] && prog->devices[i].binary)
               memcpy(dst[i], prog->devices[i].binary, prog->devices[i].binary_size);
         pthread_mutex_unlock(&prog->lock);
      }
      return CL_SUCCESS;
   }
   case CL_PROGRAM_NUM_KERNELS:
   case CL_PROGRAM_KERNEL_NAMES: {
      pthread_mutex_lock(&prog->lock);
      const struct comp_program_device *pd = first_executable_locked(prog);
      if (!pd) {
         pthread_mutex_unlock(&prog->lock);
         return ICD_ERROR(CL_INVALID_PROGRAM_EXECUTABLE,
                          "no device has a successfully built executable");
      }
      if (param_name == CL_PROGRAM_NUM_KERNELS) {
         size_t n = 0;
         for (uint32_t i = 0; i < pd->info->num_kernels; i++)
            n += pd->info->kernels[i].kind == COMP_KERNEL_NORMAL;
         pthread_mutex_unlock(&prog->lock);
         return ICD_GET_INFO_SCALAR(size_t, n, param_value_size, param_value,
                                    param_value_size_ret);
      }
      size_t len = 1;
      for (uint32_t i = 0; i < pd->info->num_kernels; i++)
         if (pd->info->kernels[i].kind == COMP_KERNEL_NORMAL)
            len += strlen(pd->info->kernels[i].name) + 1;
      char *names = icd_malloc(len);
      if (!names) {
         pthread_mutex_unlock(&prog->lock);
         return ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "kernel names");
      }
      names[0] = '\0';
      for (uint32_t i = 0; i < pd->info->num_kernels; i++) {
         if (pd->info->kernels[i].kind != COMP_KERNEL_NORMAL)
            continue;
         if (names[0])
            strcat(names, ";");
         strcat(names, pd->info->kernels[i].name);
      }
      pthread_mutex_unlock(&prog->lock);
      err = icd_get_info_string(names, param_value_size, param_value, param_value_size_ret);
      icd_free(names);
      return err;
   }
   case CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT:
   case CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT:
      /* OpenCL 2.2 queries: not part of the 2.0 profile. */
      if (!plat_query_in_profile(CL_MAKE_VERSION(2, 2, 0)))
         return ICD_ERROR(CL_INVALID_VALUE, "program query 0x%x is not part of OpenCL %u.%u",
                          (unsigned)param_name, PLAT_CL_VERSION_MAJOR, PLAT_CL_VERSION_MINOR);
      return ICD_GET_INFO_SCALAR(cl_bool, CL_FALSE, param_value_size, param_value,
                                 param_value_size_ret);
   default:
      return ICD_ERROR(CL_INVALID_VALUE, "unknown program query 0x%x", (unsigned)param_name);
   }
}

cl_int CL_API_CALL
comp_GetProgramBuildInfo(cl_program program, cl_device_id device,
                         cl_program_build_info param_name, size_t param_value_size,
                         void *param_value, size_t *param_value_size_ret)
{
   struct _cl_program *prog = comp_program_from_handle(program);
   if (!prog)
      return ICD_ERROR(CL_INVALID_PROGRAM, "program %p is not valid", (void *)program);
   struct _cl_device_id *dev = plat_device_from_handle(device);
   int idx = dev ? comp__program_device_index(prog, dev) : -1;
   if (idx < 0)
      return ICD_ERROR(CL_INVALID_DEVICE, "device %p is not a device of the program",
                       (void *)device);
   const struct comp_program_device *pd = &prog->devices[idx];
   cl_int err;
   pthread_mutex_lock(&prog->lock);
   switch (param_name) {
   case CL_PROGRAM_BUILD_STATUS:
      err = ICD_GET_INFO_SCALAR(cl_build_status, pd->status, param_value_size, param_value,
                                param_value_size_ret);
      break;
   case CL_PROGRAM_BUILD_OPTIONS:
      err = icd_get_info_string(pd->options ? pd->options : "", param_value_size, param_value,
                                param_value_size_ret);
      break;
   case CL_PROGRAM_BUILD_LOG:
      err = icd_get_info_string(pd->log ? pd->log : "", param_value_size, param_value,
                                param_value_size_ret);
      break;
   case CL_PROGRAM_BINARY_TYPE:
      err = ICD_GET_INFO_SCALAR(cl_program_binary_type, pd->binary_type, param_value_size,
                                param_value, param_value_size_ret);
      break;
   case CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE:
      err = ICD_GET_INFO_SCALAR(size_t, pd->global_variable_size, param_value_size,
                                param_value, param_value_size_ret);
      break;
   default:
      err = ICD_ERROR(CL_INVALID_VALUE, "unknown program build query 0x%x",
                      (unsigned)param_name);
      break;
   }
   pthread_mutex_unlock(&prog->lock);
   return err;
}
