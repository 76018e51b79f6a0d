/*
 * compiler/comp_program.c — cl_program (OpenCL 3.0 API §5.8): creation from source and
 * from binaries, clBuildProgram / clCompileProgram / clLinkProgram (comp_build, through the
 * on-disk cache for builds and compiles, then loading the code object into one HSA
 * executable per device; links are not cached),
 * reference counting, release callbacks and the program queries.
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

static void
log_append(char **log, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
log_append(char **log, const char *fmt, ...)
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

static void
program_device_unload(struct comp_program_device *pd)
{
   const struct rt_hsa *hsa = rt_hsa();
   if (pd->loaded && hsa) {
      hsa->hsa_executable_destroy(pd->executable);
      hsa->hsa_code_object_reader_destroy(pd->reader);
   }
   pd->loaded = false;
   icd_free(pd->kernels);
   pd->kernels = NULL;
}

/* Forgets everything a build left on one device (the device pointer stays). */
static void
program_device_reset(struct comp_program_device *pd)
{
   program_device_unload(pd);
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
      program_device_reset(&prog->devices[i]);
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
static struct _cl_program *
program_create(struct _cl_context *ctx, struct _cl_device_id *const *devices,
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
   atomic_init(&prog->internal_refs, 1);
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
   atomic_fetch_add_explicit(&prog->internal_refs, 1, memory_order_relaxed);
}

void
comp_program_release_internal(struct _cl_program *prog)
{
   if (atomic_fetch_sub_explicit(&prog->internal_refs, 1, memory_order_acq_rel) == 1)
      program_destroy(prog);
}

/* Index of `dev` among the program's devices, or -1. */
static int
program_device_index(const struct _cl_program *prog, const struct _cl_device_id *dev)
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
   struct _cl_program *prog = program_create(ctx, ctx->devices, ctx->num_devices,
                                             COMP_ORIGIN_SOURCE);
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
   for (cl_uint i = 0; i < num_devices; i++) {
      struct _cl_device_id *dev = plat_device_from_handle(device_list[i]);
      if (!dev || !plat_context_has_device(ctx, dev)) {
         icd_set_errcode(errcode_ret, ICD_ERROR(CL_INVALID_DEVICE,
                                                "device_list[%u] is not a device of the context",
                                                i));
         return NULL;
      }
      for (cl_uint j = 0; j < i; j++) {
         if (device_list[j] == device_list[i]) {
            icd_set_errcode(errcode_ret,
                            ICD_ERROR(CL_INVALID_DEVICE, "device_list[%u] repeats [%u]", i, j));
            return NULL;
         }
      }
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

   struct _cl_program *prog = program_create(ctx, (struct _cl_device_id *const *)device_list,
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

static pthread_once_t il_once = PTHREAD_ONCE_INIT;
static bool il_supported;

static void
il_probe(void)
{
   il_supported = comp__spirv_translator_available();
   if (!il_supported)
      icd_log(ICD_LOG_WARN, "compiler", "the SPIR-V translator (llvm-spirv-15, or "
              "HSACL_SPIRV_TRANSLATOR) is not installed: devices report no IL support");
}

bool
comp_il_supported(void)
{
   pthread_once(&il_once, il_probe);
   return il_supported;
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
   struct _cl_program *prog = program_create(ctx, ctx->devices, ctx->num_devices,
                                             COMP_ORIGIN_IL);
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

/* ---- builds -------------------------------------------------------------------------- */

/* The result of building for one device, published under the program lock. */
struct build_result {
   cl_build_status status;
   cl_program_binary_type binary_type;
   cl_int error;           /* what clBuildProgram returns for this device */
   char *log;
   void *binary;
   size_t binary_size;
   struct comp_program_info *info;
   size_t global_variable_size;
   bool loaded;
   hsa_code_object_reader_t reader;
   hsa_executable_t executable;
   struct comp_kernel_device *kernels;
   /* What the wide variant is rebuilt from (comp_program_device). */
   bool wide_buildable;
   struct comp_spec_constant *spec_constants;
   size_t num_spec_constants;
   struct comp_link_input *link_inputs;
   size_t num_link_inputs;
};

struct build_job {
   struct _cl_program *prog;   /* internal reference */
   enum comp_action action;
   char *options;              /* NULL = "" */
   bool create_library;        /* COMP_ACTION_LINK with -create-library */
   cl_uint *indices;           /* devices of the program to build for */
   cl_uint num_indices;
   struct comp_header *headers; /* clCompileProgram's embedded headers (owned copies) */
   size_t num_headers;
   /* clLinkProgram: per job device (num_indices rows), the bitcode of every input program
    * (num_inputs entries; owned copies). */
   struct comp_link_input **inputs;
   size_t num_inputs;
   struct build_result *results;
   /* IL programs: the specialization constants as they were when the build started. */
   struct comp_spec_constant *spec_constants;
   size_t num_spec_constants;
   comp_program_notify_fn notify;
   void *user_data;
};

static void
link_inputs_free(struct comp_link_input **rows, size_t num_rows, size_t num_inputs)
{
   for (size_t i = 0; rows && i < num_rows; i++) {
      for (size_t k = 0; rows[i] && k < num_inputs; k++)
         icd_free((void *)rows[i][k].data);
      icd_free(rows[i]);
   }
   icd_free(rows);
}

static void
build_job_destroy(struct build_job *job)
{
   link_inputs_free(job->inputs, job->num_indices, job->num_inputs);
   for (size_t i = 0; i < job->num_headers; i++) {
      icd_free((void *)job->headers[i].name);
      icd_free((void *)job->headers[i].source);
   }
   icd_free(job->headers);
   icd_free(job->results);
   icd_free(job->indices);
   icd_free(job->options);
   icd_free(job->spec_constants);
   icd_free(job);
}

const char **
comp__device_extension_list(const struct _cl_device_id *dev, char **storage)
{
   char *s = icd_strdup(plat_device_extensions(dev));
   if (!s)
      return NULL;
   size_t n = 0;
   for (char *p = s; *p; p++)
      n += (p == s || p[-1] == ' ') && *p != ' ';
   const char **list = icd_calloc(n + 1, sizeof(*list));
   if (!list) {
      icd_free(s);
      return NULL;
   }
   n = 0;
   for (char *tok = strtok(s, " "); tok; tok = strtok(NULL, " "))
      list[n++] = tok;
   list[n] = NULL;
   *storage = s;
   return list;
}

static cl_int
hsa_fail(char **log, hsa_status_t st, const char *what, const struct _cl_device_id *dev)
{
   const struct rt_hsa *hsa = rt_hsa();
   const char *msg = NULL;
   if (hsa)
      hsa->hsa_status_string(st, &msg);
   log_append(log, "error: %s failed on %s: %s (0x%x)\n", what, dev->name,
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
      log_append(log, "error: no HSA runtime: %s\n", rt_failure());
      return CL_OUT_OF_RESOURCES;
   }
   r->kernels = icd_calloc(r->info->num_kernels ? r->info->num_kernels : 1,
                           sizeof(*r->kernels));
   if (!r->kernels)
      return CL_OUT_OF_HOST_MEMORY;
   st = hsa->hsa_code_object_reader_create_from_memory(r->binary, r->binary_size, &r->reader);
   if (st != HSA_STATUS_SUCCESS) {
      err = hsa_fail(log, st, "hsa_code_object_reader_create_from_memory", dev);
      goto out_free_kernels;
   }
   st = hsa->hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
                                       NULL, &r->executable);
   if (st != HSA_STATUS_SUCCESS) {
      err = hsa_fail(log, st, "hsa_executable_create_alt", dev);
      goto out_destroy_reader;
   }
   st = hsa->hsa_executable_load_agent_code_object(r->executable, dev->agent, r->reader, NULL,
                                                   NULL);
   if (st != HSA_STATUS_SUCCESS) {
      err = hsa_fail(log, st, "hsa_executable_load_agent_code_object", dev);
      goto out_destroy_executable;
   }
   st = hsa->hsa_executable_freeze(r->executable, NULL);
   if (st != HSA_STATUS_SUCCESS) {
      err = hsa_fail(log, st, "hsa_executable_freeze", dev);
      goto out_destroy_executable;
   }
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
         log_append(log, "error: kernel symbol %s not found\n", k->symbol);
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
         log_append(log, "error: runtime handle %s not found\n", k->device_enqueue_symbol);
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
   hsa->hsa_executable_destroy(r->executable);
out_destroy_reader:
   hsa->hsa_code_object_reader_destroy(r->reader);
out_free_kernels:
   icd_free(r->kernels);
   r->kernels = NULL;
   return err;
}

void
comp__unload_executable(struct comp__loaded *r)
{
   const struct rt_hsa *hsa = rt_hsa();
   if (r->kernels && hsa) {
      hsa->hsa_executable_destroy(r->executable);
      hsa->hsa_code_object_reader_destroy(r->reader);
   }
   icd_free(r->kernels);
   r->kernels = NULL;
}

/* Loads the result's code object into a new HSA executable for `dev`. */
static cl_int
load_executable(const struct _cl_device_id *dev, struct build_result *r)
{
   struct comp__loaded l = { .binary = r->binary, .binary_size = r->binary_size,
                             .info = r->info };
   cl_int err = comp__load_executable(dev, &l, &r->log);
   if (err != CL_SUCCESS)
      return err;
   r->reader = l.reader;
   r->executable = l.executable;
   r->kernels = l.kernels;
   r->loaded = true;
   return CL_SUCCESS;
}

static cl_int
status_to_cl(enum comp_status st, enum comp_action action)
{
   switch (st) {
   case COMP_OK:
      return CL_SUCCESS;
   case COMP_INVALID_BUILD_OPTIONS:
      return CL_INVALID_BUILD_OPTIONS;
   case COMP_INVALID_COMPILER_OPTIONS:
      return CL_INVALID_COMPILER_OPTIONS;
   case COMP_INVALID_LINKER_OPTIONS:
      return CL_INVALID_LINKER_OPTIONS;
   case COMP_OUT_OF_MEMORY:
      return CL_OUT_OF_HOST_MEMORY;
   default:
      return action == COMP_ACTION_COMPILE ? CL_COMPILE_PROGRAM_FAILURE
             : action == COMP_ACTION_LINK  ? CL_LINK_PROGRAM_FAILURE
                                           : CL_BUILD_PROGRAM_FAILURE;
   }
}

static const char *
action_name(enum comp_action action)
{
   return action == COMP_ACTION_COMPILE ? "clCompileProgram"
          : action == COMP_ACTION_LINK  ? "clLinkProgram"
                                        : "clBuildProgram";
}

/* A cached or freshly built payload is usable: bitcode for a compile, else a code object
 * whose metadata parses (into *info). */
static bool
payload_valid(enum comp_action action, const void *binary, size_t size,
              struct comp_program_info **info, char **why)
{
   if (action == COMP_ACTION_COMPILE) {
      if (size >= 4 && !memcmp(binary, "BC\xc0\xde", 4))
         return true;
      *why = strdup("not LLVM bitcode");
      return false;
   }
   return *info || comp_parse_metadata(binary, size, info, why) == COMP_OK;
}

cl_int
comp__build_cached(const struct comp_build_desc *desc, void **binary, size_t *binary_size,
                   struct comp_program_info **info, char **log)
{
   /* Links are not cached: their inputs are already the product of (cached) compiles and
    * the link itself is the cheaper half. */
   char key[COMP_CACHE_KEY_HEX];
   bool cacheable = desc->action != COMP_ACTION_LINK && comp__cache_key(desc, key);
   *binary = NULL;
   *binary_size = 0;
   *info = NULL;
   *log = NULL;
   if (cacheable && comp__cache_lookup(key, binary, binary_size, log)) {
      char *why = NULL;
      if (payload_valid(desc->action, *binary, *binary_size, info, &why))
         return CL_SUCCESS;
      icd_log(ICD_LOG_WARN, "compiler", "kernel cache entry %s: bad payload (%s)", key,
              why ? why : "?");
      free(why);
      comp_program_info_destroy(*info);
      icd_free(*binary);
      icd_free(*log);
      *info = NULL;
      *binary = NULL;
      *binary_size = 0;
      *log = NULL;
   }
   struct comp_output out;
   enum comp_status st = comp_build(desc, &out);
   *log = out.log;
   out.log = NULL;
   if (st != COMP_OK) {
      comp_output_finish(&out);
      return status_to_cl(st, desc->action);
   }
   *binary = out.data;
   *binary_size = out.size;
   *info = out.info;
   /* The key covers the source, options and embedded headers, not files #included from
    * disk: caching such a build would serve it stale once a header changes. */
   if (out.reads_files && cacheable) {
      icd_log(ICD_LOG_INFO, "compiler", "not cached: the program includes files from disk");
      cacheable = false;
   }
   out.data = NULL;
   out.info = NULL;
   comp_output_finish(&out);
   char *why = NULL;
   if (desc->emit != COMP_EMIT_BITCODE &&
       !payload_valid(desc->action, *binary, *binary_size, info, &why)) {
      log_append(log, "error: code object metadata: %s\n", why ? why : "?");
      free(why);
      comp_program_info_destroy(*info);
      icd_free(*binary);
      *info = NULL;
      *binary = NULL;
      *binary_size = 0;
      return status_to_cl(COMP_INTERNAL_ERROR, desc->action);
   }
   if (cacheable)
      comp__cache_store(key, *binary, *binary_size, *log);
   return CL_SUCCESS;
}

/* Compiles (through the cache), links, or takes the program's binary, then loads it:
 * everything for the job's device `i`, with no lock held. Reads only immutable program
 * fields (source, origin, and for binary programs the binary, which no build replaces). */

/* HSACL_BUILD_INCLUDES: "any" (default) lets a program include any file the process can read;
 * "restricted" only files under the build's own -I folders (comp_include_jail.cpp), for
 * services that build kernels for remote clients. Any other value is taken as
 * "restricted" (a typo must not open the file system), with a warning. */
bool
comp__restricted_includes(void)
{
   const char *e = getenv("HSACL_BUILD_INCLUDES");
   if (!e || !*e || !strcmp(e, "any"))
      return false;
   if (strcmp(e, "restricted"))
      icd_log(ICD_LOG_WARN, "compiler", "HSACL_BUILD_INCLUDES=%s is neither 'any' nor "
              "'restricted': includes are restricted", e);
   return true;
}

static void
build_one(struct build_job *job, cl_uint i)
{
   struct _cl_program *prog = job->prog;
   struct comp_program_device *pd = &prog->devices[job->indices[i]];
   struct build_result *r = &job->results[i];
   const struct _cl_device_id *dev = pd->device;
   /* What the engine hands back is bitcode: a compiled object or a library. */
   bool bitcode = job->action == COMP_ACTION_COMPILE || job->create_library;

   r->status = CL_BUILD_ERROR;
   if (prog->origin == COMP_ORIGIN_BINARY) {
      /* Executable binaries only (§5.8.2; checked at the entry point). */
      r->binary = icd_malloc(pd->binary_size);
      char *why = NULL;
      if (!r->binary) {
         r->error = CL_OUT_OF_HOST_MEMORY;
         return;
      }
      memcpy(r->binary, pd->binary, pd->binary_size);
      r->binary_size = pd->binary_size;
      if (comp_parse_metadata(r->binary, r->binary_size, &r->info, &why) != COMP_OK) {
         log_append(&r->log, "error: code object metadata: %s\n", why ? why : "?");
         free(why);
         r->error = CL_INVALID_BINARY;
         return;
      }
   } else {
      char *ext_storage = NULL;
      const char **exts = comp__device_extension_list(dev, &ext_storage);
      static const char *const no_features[] = { NULL };
      if (!exts) {
         r->error = CL_OUT_OF_HOST_MEMORY;
         return;
      }
      bool link = job->action == COMP_ACTION_LINK;
      struct comp_build_desc desc = {
         .source = prog->source,
         .source_size = prog->source_size,
         .il = prog->il,
         .il_size = prog->il_size,
         .spec_constants = job->spec_constants,
         .num_spec_constants = job->num_spec_constants,
         .options = job->options,
         .target_id = comp__device_target_id(dev),
         .extensions = exts,
         .features = no_features,
         .headers = job->headers,
         .num_headers = job->num_headers,
         .action = job->action,
         .inputs = link ? job->inputs[i] : NULL,
         .num_inputs = link ? job->num_inputs : 0,
         .emit = bitcode ? COMP_EMIT_BITCODE : COMP_EMIT_EXECUTABLE,
         .opencl_version = PLAT_CL_VERSION_MAJOR * 100 + PLAT_CL_VERSION_MINOR * 10,
         .restrict_includes = comp__restricted_includes(),
      };
      r->error = comp__build_cached(&desc, &r->binary, &r->binary_size, &r->info, &r->log);
      icd_free(exts);
      icd_free(ext_storage);
      if (r->error != CL_SUCCESS)
         return;
   }

   if (bitcode) {
      r->binary_type = job->create_library ? CL_PROGRAM_BINARY_TYPE_LIBRARY
                                           : CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
      size_t size;
      void *wrapped = comp__binary_wrap_bitcode(r->binary, r->binary_size, dev,
                                                r->binary_type, &size);
      icd_free(r->binary);
      r->binary = wrapped;
      r->binary_size = wrapped ? size : 0;
      if (!wrapped) {
         r->error = CL_OUT_OF_HOST_MEMORY;
         return;
      }
   } else {
      r->global_variable_size = comp__binary_global_variable_size(r->binary, r->binary_size);
      r->binary_type = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
      r->error = load_executable(dev, r);
      if (r->error != CL_SUCCESS)
         return;
      /* Keep what the wide variant is rebuilt from: the link's inputs (the job's row,
       * taken over), the IL build's specialization constants. */
      if (prog->origin != COMP_ORIGIN_BINARY) {
         if (job->action == COMP_ACTION_LINK) {
            r->link_inputs = job->inputs[i];
            r->num_link_inputs = job->num_inputs;
            job->inputs[i] = NULL;
         } else if (job->num_spec_constants) {
            size_t bytes = job->num_spec_constants * sizeof(*job->spec_constants);
            r->spec_constants = icd_malloc(bytes);
            if (r->spec_constants) {
               memcpy(r->spec_constants, job->spec_constants, bytes);
               r->num_spec_constants = job->num_spec_constants;
            }
         }
         /* Without its specialization constants the variant would be another program. */
         r->wide_buildable = !job->num_spec_constants || job->action == COMP_ACTION_LINK ||
                             r->spec_constants;
      }
   }
   r->status = CL_BUILD_SUCCESS;
   r->error = CL_SUCCESS;
}

/* Runs a job: builds every device, publishes the results, calls pfn_notify (no lock
 * held), drops the job's program reference. Returns the first device's error. */
static cl_int
build_run(struct build_job *job)
{
   struct _cl_program *prog = job->prog;
   cl_int err = CL_SUCCESS;
   for (cl_uint i = 0; i < job->num_indices; i++)
      build_one(job, i);

   pthread_mutex_lock(&prog->lock);
   for (cl_uint i = 0; i < job->num_indices; i++) {
      struct comp_program_device *pd = &prog->devices[job->indices[i]];
      struct build_result *r = &job->results[i];
      if (err == CL_SUCCESS)
         err = r->error;
      program_device_reset(pd);
      pd->status = r->status;
      pd->binary_type = r->status == CL_BUILD_SUCCESS ? r->binary_type
                                                      : CL_PROGRAM_BINARY_TYPE_NONE;
      pd->options = job->options ? icd_strdup(job->options) : NULL;
      pd->log = r->log;
      /* A failed build leaves no binary (§5.8.2); a binary program keeps the one it was
       * created with. */
      if (r->status == CL_BUILD_SUCCESS || prog->origin == COMP_ORIGIN_BINARY) {
         pd->binary = r->binary;
         pd->binary_size = r->binary_size;
         pd->info = r->info;
         pd->global_variable_size = r->global_variable_size;
         if (prog->origin == COMP_ORIGIN_BINARY && r->status != CL_BUILD_SUCCESS)
            pd->binary_type = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
      } else {
         icd_free(r->binary);
         comp_program_info_destroy(r->info);
      }
      pd->loaded = r->loaded;
      pd->reader = r->reader;
      pd->executable = r->executable;
      pd->kernels = r->kernels;
      pd->wide_buildable = r->wide_buildable;
      pd->spec_constants = r->spec_constants;
      pd->num_spec_constants = r->num_spec_constants;
      pd->link_inputs = r->link_inputs;
      pd->num_link_inputs = r->num_link_inputs;
   }
   prog->building = false;
   pthread_mutex_unlock(&prog->lock);

   if (job->notify)
      job->notify(comp_program_to_handle(prog), job->user_data);
   build_job_destroy(job);
   comp_program_release_internal(prog);
   return err;
}

static void *
build_thread(void *arg)
{
   build_run(arg);
   return NULL;
}

/* Device-list validation shared by clBuildProgram and clCompileProgram (§5.8.2, §5.8.4). */
static cl_int
check_device_list(const struct _cl_program *prog, cl_uint num_devices,
                  const cl_device_id *device_list)
{
   for (cl_uint i = 0; i < num_devices; i++) {
      struct _cl_device_id *dev = plat_device_from_handle(device_list[i]);
      if (!dev || program_device_index(prog, dev) < 0)
         return ICD_ERROR(CL_INVALID_DEVICE, "device_list[%u] is not a device of the program",
                          i);
   }
   return CL_SUCCESS;
}

/* Starts a build job on the listed devices (all when device_list is NULL) once the
 * entry point has validated its arguments. Takes ownership of `headers` and of `inputs`
 * (clLinkProgram: one row of num_inputs inputs per listed device). */
static cl_int
build_start(struct _cl_program *prog, enum comp_action action, cl_uint num_devices,
            const cl_device_id *device_list, const char *options, struct comp_header *headers,
            size_t num_headers, struct comp_link_input **inputs, size_t num_inputs,
            comp_program_notify_fn pfn_notify, void *user_data)
{
   struct comp__options parsed;
   char *opt_error = NULL;
   enum comp_status ost = comp__options_parse(options, action, &parsed, &opt_error);
   bool create_library = ost == COMP_OK && parsed.create_library;
   comp__options_finish(&parsed);

   struct build_job *job = icd_calloc(1, sizeof(*job));
   cl_uint n = device_list ? num_devices : prog->num_devices;
   if (job) {
      job->indices = icd_calloc(n, sizeof(*job->indices));
      job->results = icd_calloc(n, sizeof(*job->results));
      job->options = options ? icd_strdup(options) : NULL;
   }
   if (!job || !job->indices || !job->results || (options && !job->options)) {
      free(opt_error);
      if (job) {
         job->headers = headers;
         job->num_headers = num_headers;
         job->inputs = inputs;
         job->num_inputs = num_inputs;
         job->num_indices = n;
         build_job_destroy(job);
      } else {
         for (size_t i = 0; i < num_headers; i++) {
            icd_free((void *)headers[i].name);
            icd_free((void *)headers[i].source);
         }
         icd_free(headers);
         link_inputs_free(inputs, n, num_inputs);
      }
      return ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "build job");
   }
   job->prog = prog;
   job->action = action;
   job->create_library = create_library;
   job->headers = headers;
   job->num_headers = num_headers;
   job->inputs = inputs;
   job->num_inputs = num_inputs;
   job->num_indices = n;
   job->notify = pfn_notify;
   job->user_data = user_data;
   for (cl_uint i = 0; i < n; i++)
      job->indices[i] = device_list
                           ? (cl_uint)program_device_index(prog, plat_device_from_handle(
                                                                    device_list[i]))
                           : i;

   pthread_mutex_lock(&prog->lock);
   if (prog->building) {
      pthread_mutex_unlock(&prog->lock);
      free(opt_error);
      build_job_destroy(job);
      return ICD_ERROR(CL_INVALID_OPERATION, "a build of the program is in progress");
   }
   if (prog->num_kernels_attached) {
      cl_uint k = prog->num_kernels_attached;
      pthread_mutex_unlock(&prog->lock);
      free(opt_error);
      build_job_destroy(job);
      return ICD_ERROR(CL_INVALID_OPERATION, "%u kernel objects are attached to the program", k);
   }
   if (ost != COMP_OK) {
      /* Invalid options: no build happens; the log of each listed device says why. */
      for (cl_uint i = 0; i < n; i++) {
         struct comp_program_device *pd = &prog->devices[job->indices[i]];
         if (prog->origin == COMP_ORIGIN_SOURCE || prog->origin == COMP_ORIGIN_IL)
            program_device_reset(pd);
         else
            program_device_unload(pd);
         pd->status = CL_BUILD_ERROR;
         icd_free(pd->log);
         icd_free(pd->options);
         pd->log = NULL;
         pd->options = options ? icd_strdup(options) : NULL;
         log_append(&pd->log, "error: %s\n", opt_error ? opt_error : "invalid options");
      }
      pthread_mutex_unlock(&prog->lock);
      cl_int err = ICD_ERROR(status_to_cl(ost, action), "%s", opt_error ? opt_error : "?");
      free(opt_error);
      build_job_destroy(job);
      return err;
   }
   if (prog->num_spec_constants) {
      size_t bytes = prog->num_spec_constants * sizeof(*prog->spec_constants);
      job->spec_constants = icd_malloc(bytes);
      if (!job->spec_constants) {
         pthread_mutex_unlock(&prog->lock);
         build_job_destroy(job);
         return ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "build job");
      }
      memcpy(job->spec_constants, prog->spec_constants, bytes);
      job->num_spec_constants = prog->num_spec_constants;
   }
   prog->building = true;
   for (cl_uint i = 0; i < n; i++)
      prog->devices[job->indices[i]].status = CL_BUILD_IN_PROGRESS;
   pthread_mutex_unlock(&prog->lock);

   comp_program_retain_internal(prog);
   if (pfn_notify) {
      /* §5.8.2: with pfn_notify the call may return once the build can begin. */
      pthread_t t;
      pthread_attr_t attr;
      pthread_attr_init(&attr);
      pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
      int rc = pthread_create(&t, &attr, build_thread, job);
      pthread_attr_destroy(&attr);
      if (rc == 0)
         return CL_SUCCESS;
      icd_log(ICD_LOG_WARN, "compiler", "cannot start a build thread (%s): building inline",
              strerror(rc));
      build_run(job);
      return CL_SUCCESS;
   }
   cl_int err = build_run(job);
   if (err != CL_SUCCESS)
      return ICD_ERROR(err, "%s failed; see the build log", action_name(action));
   return CL_SUCCESS;
}

cl_int CL_API_CALL
comp_BuildProgram(cl_program program, cl_uint num_devices, const cl_device_id *device_list,
                  const char *options, comp_program_notify_fn pfn_notify, void *user_data)
{
   struct _cl_program *prog = comp_program_from_handle(program);
   if (!prog)
      return ICD_ERROR(CL_INVALID_PROGRAM, "program %p is not valid", (void *)program);
   if ((!device_list && num_devices > 0) || (device_list && num_devices == 0))
      return ICD_ERROR(CL_INVALID_VALUE, "device_list %p with num_devices %u",
                       (void *)device_list, num_devices);
   if (!pfn_notify && user_data)
      return ICD_ERROR(CL_INVALID_VALUE, "user_data without pfn_notify");
   cl_int err = check_device_list(prog, num_devices, device_list);
   if (err != CL_SUCCESS)
      return err;
   if (prog->origin == COMP_ORIGIN_LINK)
      return ICD_ERROR(CL_INVALID_OPERATION, "program was created by clLinkProgram, not from "
                                             "source, IL or binaries");
   if (prog->origin == COMP_ORIGIN_BINARY) {
      /* The binary of a binary program is fixed at creation: no lock needed. */
      cl_uint n = device_list ? num_devices : prog->num_devices;
      for (cl_uint i = 0; i < n; i++) {
         int idx = device_list ? program_device_index(prog, plat_device_from_handle(
                                                               device_list[i]))
                               : (int)i;
         if (!prog->devices[idx].binary ||
             prog->devices[idx].binary_type != CL_PROGRAM_BINARY_TYPE_EXECUTABLE)
            return ICD_ERROR(CL_INVALID_BINARY,
                             "device %s has a compiled object or library, not an executable "
                             "binary (clLinkProgram makes one)",
                             prog->devices[idx].device->name);
      }
      /* Its executables are loaded already (clCreateKernel loads a never-built binary
       * program): building the same binary again changes nothing, even while launches of
       * released kernels are still in flight. */
      pthread_mutex_lock(&prog->lock);
      bool all_loaded = !prog->building;
      for (cl_uint i = 0; i < n && all_loaded; i++) {
         int idx = device_list ? program_device_index(prog, plat_device_from_handle(
                                                               device_list[i]))
                               : (int)i;
         all_loaded = prog->devices[idx].loaded &&
                      prog->devices[idx].status == CL_BUILD_SUCCESS;
      }
      pthread_mutex_unlock(&prog->lock);
      if (all_loaded) {
         if (pfn_notify)
            pfn_notify(program, user_data);
         return CL_SUCCESS;
      }
   }
   return build_start(prog, COMP_ACTION_BUILD, num_devices, device_list, options, NULL, 0,
                      NULL, 0, pfn_notify, user_data);
}

cl_int CL_API_CALL
comp_CompileProgram(cl_program program, cl_uint num_devices, const cl_device_id *device_list,
                    const char *options, cl_uint num_input_headers,
                    const cl_program *input_headers, const char **header_include_names,
                    comp_program_notify_fn pfn_notify, void *user_data)
{
   struct _cl_program *prog = comp_program_from_handle(program);
   if (!prog)
      return ICD_ERROR(CL_INVALID_PROGRAM, "program %p is not valid", (void *)program);
   if ((!device_list && num_devices > 0) || (device_list && num_devices == 0))
      return ICD_ERROR(CL_INVALID_VALUE, "device_list %p with num_devices %u",
                       (void *)device_list, num_devices);
   if (num_input_headers == 0 && (header_include_names || input_headers))
      return ICD_ERROR(CL_INVALID_VALUE, "headers given with num_input_headers 0");
   if (num_input_headers && (!header_include_names || !input_headers))
      return ICD_ERROR(CL_INVALID_VALUE, "num_input_headers %u without headers or names",
                       num_input_headers);
   if (!pfn_notify && user_data)
      return ICD_ERROR(CL_INVALID_VALUE, "user_data without pfn_notify");
   cl_int err = check_device_list(prog, num_devices, device_list);
   if (err != CL_SUCCESS)
      return err;
   for (cl_uint i = 0; i < num_input_headers; i++) {
      struct _cl_program *h = comp_program_from_handle(input_headers[i]);
      if (!h || h->origin != COMP_ORIGIN_SOURCE || !header_include_names[i] ||
          !header_include_names[i][0])
         return ICD_ERROR(CL_INVALID_VALUE,
                          "input_headers[%u] is not a source program or has no name", i);
   }
   if (prog->origin != COMP_ORIGIN_SOURCE && prog->origin != COMP_ORIGIN_IL)
      return ICD_ERROR(CL_INVALID_OPERATION, "program has no source or IL to compile");

   struct comp_header *headers = NULL;
   if (num_input_headers) {
      headers = icd_calloc(num_input_headers, sizeof(*headers));
      if (!headers)
         return ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "headers");
      for (cl_uint i = 0; i < num_input_headers; i++) {
         struct _cl_program *h = comp_program_from_handle(input_headers[i]);
         char *src = icd_malloc(h->source_size + 1);
         headers[i].name = icd_strdup(header_include_names[i]);
         headers[i].source = src;
         headers[i].size = h->source_size;
         if (!src || !headers[i].name) {
            for (cl_uint j = 0; j <= i; j++) {
               icd_free((void *)headers[j].name);
               icd_free((void *)headers[j].source);
            }
            icd_free(headers);
            return ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "headers");
         }
         memcpy(src, h->source, h->source_size + 1);
      }
   }
   return build_start(prog, COMP_ACTION_COMPILE, num_devices, device_list, options, headers,
                      num_input_headers, NULL, 0, pfn_notify, user_data);
}

cl_program CL_API_CALL
comp_LinkProgram(cl_context context, cl_uint num_devices, const cl_device_id *device_list,
                 const char *options, cl_uint num_input_programs,
                 const cl_program *input_programs, comp_program_notify_fn pfn_notify,
                 void *user_data, cl_int *errcode_ret)
{
   struct _cl_context *ctx = plat_context_from_handle(context);
   if (!ctx) {
      icd_set_errcode(errcode_ret, ICD_ERROR(CL_INVALID_CONTEXT, "context %p is not valid",
                                             (void *)context));
      return NULL;
   }
   if ((!device_list && num_devices > 0) || (device_list && num_devices == 0)) {
      icd_set_errcode(errcode_ret, ICD_ERROR(CL_INVALID_VALUE, "device_list %p, num_devices %u",
                                             (void *)device_list, num_devices));
      return NULL;
   }
   if (num_input_programs == 0 || !input_programs) {
      icd_set_errcode(errcode_ret,
                      ICD_ERROR(CL_INVALID_VALUE, "num_input_programs %u, input_programs %p",
                                num_input_programs, (void *)input_programs));
      return NULL;
   }
   for (cl_uint i = 0; i < num_input_programs; i++) {
      struct _cl_program *p = comp_program_from_handle(input_programs[i]);
      if (!p || p->context != ctx) {
         icd_set_errcode(errcode_ret,
                         ICD_ERROR(CL_INVALID_PROGRAM, "input_programs[%u] is not valid", i));
         return NULL;
      }
   }
   if (!pfn_notify && user_data) {
      icd_set_errcode(errcode_ret, ICD_ERROR(CL_INVALID_VALUE, "user_data without pfn_notify"));
      return NULL;
   }
   for (cl_uint i = 0; i < num_devices; i++) {
      struct _cl_device_id *dev = plat_device_from_handle(device_list[i]);
      if (!dev || !plat_context_has_device(ctx, dev)) {
         icd_set_errcode(errcode_ret, ICD_ERROR(CL_INVALID_DEVICE,
                                                "device_list[%u] is not a device of the context",
                                                i));
         return NULL;
      }
   }
   struct comp__options parsed;
   char *opt_error = NULL;
   enum comp_status ost = comp__options_parse(options, COMP_ACTION_LINK, &parsed, &opt_error);
   comp__options_finish(&parsed);
   if (ost != COMP_OK) {
      icd_set_errcode(errcode_ret, ICD_ERROR(ost == COMP_OUT_OF_MEMORY ? CL_OUT_OF_HOST_MEMORY
                                                                        : CL_INVALID_LINKER_OPTIONS,
                                             "%s", opt_error ? opt_error : "invalid options"));
      free(opt_error);
      return NULL;
   }

   struct _cl_device_id *const *devs =
      device_list ? (struct _cl_device_id *const *)device_list : ctx->devices;
   cl_uint ndev = device_list ? num_devices : ctx->num_devices;
   cl_int err = CL_SUCCESS;
   struct _cl_program *prog;
   struct comp_link_input **rows = NULL;
   cl_device_id *link_devs = NULL;
   cl_uint *counts = NULL;
   cl_uint nlink = 0;
   rows = icd_calloc(ndev, sizeof(*rows));
   link_devs = icd_calloc(ndev, sizeof(*link_devs));
   counts = icd_calloc(ndev, sizeof(*counts));
   for (cl_uint d = 0; rows && d < ndev; d++) {
      rows[d] = icd_calloc(num_input_programs, sizeof(**rows));
      if (!rows[d])
         break;
   }
   if (!rows || !link_devs || !counts || (ndev && !rows[ndev - 1])) {
      err = ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "link inputs");
      goto out_free;
   }

   /* §5.8.5 input_programs: on each device either every input has a compiled object or a
    * library (linked) or none has (no executable for the device); anything else is
    * CL_INVALID_OPERATION. The bitcode is copied under each input's lock: a later build of
    * an input does not change this link. */
   for (cl_uint k = 0; k < num_input_programs; k++) {
      struct _cl_program *in = comp_program_from_handle(input_programs[k]);
      pthread_mutex_lock(&in->lock);
      if (in->building) {
         pthread_mutex_unlock(&in->lock);
         err = ICD_ERROR(CL_INVALID_OPERATION, "input_programs[%u] is being built", k);
         goto out_free;
      }
      for (cl_uint d = 0; d < ndev; d++) {
         int idx = program_device_index(in, devs[d]);
         const struct comp_program_device *pd = idx >= 0 ? &in->devices[idx] : NULL;
         const void *bc;
         size_t bc_size;
         if (!pd || !pd->binary ||
             (pd->binary_type != CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT &&
              pd->binary_type != CL_PROGRAM_BINARY_TYPE_LIBRARY) ||
             !comp__binary_bitcode(pd->binary, pd->binary_size, &bc, &bc_size))
            continue;
         void *copy = icd_malloc(bc_size);
         if (!copy) {
            pthread_mutex_unlock(&in->lock);
            err = ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "link input");
            goto out_free;
         }
         memcpy(copy, bc, bc_size);
         rows[d][k].data = copy;
         rows[d][k].size = bc_size;
         rows[d][k].is_library = pd->binary_type == CL_PROGRAM_BINARY_TYPE_LIBRARY;
         counts[d]++;
      }
      pthread_mutex_unlock(&in->lock);
   }
   for (cl_uint d = 0; d < ndev; d++) {
      if (counts[d] && counts[d] != num_input_programs) {
         err = ICD_ERROR(CL_INVALID_OPERATION,
                         "%u of %u input programs have a compiled object or library for "
                         "device %s: all or none must",
                         counts[d], num_input_programs, devs[d]->name);
         goto out_free;
      }
   }
   /* Compact the rows to the devices that link, in order; free the others (empty). */
   for (cl_uint d = 0; d < ndev; d++) {
      struct comp_link_input *row = rows[d];
      rows[d] = NULL;
      if (counts[d]) {
         link_devs[nlink] = plat_device_to_handle(devs[d]);
         rows[nlink++] = row;
      } else {
         icd_free(row);
      }
   }
   if (nlink == 0) {
      err = ICD_ERROR(CL_INVALID_OPERATION,
                      "no input program has a compiled object or library for any device "
                      "(compile them with clCompileProgram)");
      goto out_free;
   }

   prog = program_create(ctx, devs, ndev, COMP_ORIGIN_LINK);
   if (!prog) {
      err = ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "program");
      goto out_free;
   }
   icd_free(counts);
   /* build_start owns the rows from here, on success and failure. */
   err = build_start(prog, COMP_ACTION_LINK, nlink, link_devs, options, NULL, 0, rows,
                     num_input_programs, pfn_notify, user_data);
   icd_free(link_devs);
   /* §5.8.5: a link failure still returns a program, whose build log says why. */
   if (err != CL_SUCCESS && err != CL_LINK_PROGRAM_FAILURE) {
      comp_ReleaseProgram(comp_program_to_handle(prog));
      icd_set_errcode(errcode_ret, err);
      return NULL;
   }
   icd_set_errcode(errcode_ret, err);
   return comp_program_to_handle(prog);

out_free:
   link_inputs_free(rows, ndev, num_input_programs);
   icd_free(link_devs);
   icd_free(counts);
   icd_set_errcode(errcode_ret, err);
   return NULL;
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
   int idx = dev ? program_device_index(prog, dev) : -1;
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
