/*
 * compiler/comp_program_build.c — clBuildProgram, clCompileProgram and clLinkProgram
 * (OpenCL 3.0 API §5.8.2-§5.8.5): the entry points validate, build_start makes a build job
 * (devices, options, headers or link inputs) and marks the program `building`, build_run
 * builds every device through the on-disk cache (comp__build_cached; links are not cached)
 * with no lock held, loads executables (comp__load_executable, comp_program.c) and publishes
 * the results under the program's lock. The program object itself is comp_program.c's.
 *
 * Locking: as comp_program.c says (program->lock; nothing of the driver is taken under it).
 */
#define _GNU_SOURCE
#include "comp_program_priv.h"
#include "comp_priv.h"
#include "platform/plat.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
      comp__log_append(log, "error: code object metadata: %s\n", why ? why : "?");
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
         comp__log_append(&r->log, "error: code object metadata: %s\n", why ? why : "?");
         free(why);
         r->error = CL_INVALID_BINARY;
         return;
      }
   } else {
      static const char *const no_features[] = { NULL };
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
         .extensions = plat_device_extensions(dev),
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
      comp__program_device_reset(pd);
      pd->status = r->status;
      pd->binary_type =
         r->status == CL_BUILD_SUCCESS ? r->binary_type : CL_PROGRAM_BINARY_TYPE_NONE;
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
      if (!dev || comp__program_device_index(prog, dev) < 0)
         return ICD_ERROR(CL_INVALID_DEVICE, "device_list[%u] is not a device of the program", i);
   }
   return CL_SUCCESS;
}

/* A new job for the listed devices (all when device_list is NULL), or NULL on
 * out-of-memory. Takes ownership of `headers` and of `inputs` (clLinkProgram: one row of
 * num_inputs inputs per listed device), on failure too. */
static struct build_job *
build_job_create(struct _cl_program *prog, enum comp_action action, cl_uint num_devices,
                 const cl_device_id *device_list, const char *options,
                 struct comp_header *headers, size_t num_headers,
                 struct comp_link_input **inputs, size_t num_inputs)
{
   cl_uint n = device_list ? num_devices : prog->num_devices;
   struct build_job *job = icd_calloc(1, sizeof(*job));
   if (!job) {
      for (size_t i = 0; i < num_headers; i++) {
         icd_free((void *)headers[i].name);
         icd_free((void *)headers[i].source);
      }
      icd_free(headers);
      link_inputs_free(inputs, n, num_inputs);
      return NULL;
   }
   job->headers = headers;
   job->num_headers = num_headers;
   job->inputs = inputs;
   job->num_inputs = num_inputs;
   job->num_indices = n;
   job->indices = icd_calloc(n, sizeof(*job->indices));
   job->results = icd_calloc(n, sizeof(*job->results));
   job->options = options ? icd_strdup(options) : NULL;
   if (!job->indices || !job->results || (options && !job->options)) {
      build_job_destroy(job);
      return NULL;
   }
   job->prog = prog;
   job->action = action;
   for (cl_uint i = 0; i < n; i++)
      job->indices[i] = device_list ? (cl_uint)comp__program_device_index(
                                         prog, plat_device_from_handle(device_list[i]))
                                    : i;
   return job;
}

/* Invalid options: no build happens; the log of each of the job's devices says why.
 * Under the program's lock. */
static void
build_fail_options_locked(struct build_job *job, const char *options, const char *opt_error)
{
   struct _cl_program *prog = job->prog;
   for (cl_uint i = 0; i < job->num_indices; i++) {
      struct comp_program_device *pd = &prog->devices[job->indices[i]];
      if (prog->origin == COMP_ORIGIN_SOURCE || prog->origin == COMP_ORIGIN_IL)
         comp__program_device_reset(pd);
      else
         comp__program_device_unload(pd);
      pd->status = CL_BUILD_ERROR;
      icd_free(pd->log);
      icd_free(pd->options);
      pd->log = NULL;
      pd->options = options ? icd_strdup(options) : NULL;
      comp__log_append(&pd->log, "error: %s\n", opt_error ? opt_error : "invalid options");
   }
}

/* Marks the program `building` and the job's devices in progress, with a copy of the
 * specialization constants in the job. False on out-of-memory (nothing marked). Under the
 * program's lock, with no build in progress. */
static bool
build_claim_locked(struct build_job *job)
{
   struct _cl_program *prog = job->prog;
   if (prog->num_spec_constants) {
      size_t bytes = prog->num_spec_constants * sizeof(*prog->spec_constants);
      job->spec_constants = icd_malloc(bytes);
      if (!job->spec_constants)
         return false;
      memcpy(job->spec_constants, prog->spec_constants, bytes);
      job->num_spec_constants = prog->num_spec_constants;
   }
   prog->building = true;
   for (cl_uint i = 0; i < job->num_indices; i++)
      prog->devices[job->indices[i]].status = CL_BUILD_IN_PROGRESS;
   return true;
}

/* Runs a claimed job, which holds an internal reference on its program: with pfn_notify on
 * a detached thread (§5.8.2: the call may return once the build can begin), else inline. */
static cl_int
build_launch(struct build_job *job)
{
   enum comp_action action = job->action;
   if (job->notify) {
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

   struct build_job *job = build_job_create(prog, action, num_devices, device_list, options,
                                            headers, num_headers, inputs, num_inputs);
   if (!job) {
      free(opt_error);
      return ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "build job");
   }
   job->create_library = create_library;
   job->notify = pfn_notify;
   job->user_data = user_data;

   pthread_mutex_lock(&prog->lock);
   bool busy = prog->building;
   cl_uint attached = prog->num_kernels_attached;
   bool claimed = false;
   if (!busy && !attached) {
      if (ost != COMP_OK)
         build_fail_options_locked(job, options, opt_error);
      else
         claimed = build_claim_locked(job);
   }
   pthread_mutex_unlock(&prog->lock);

   cl_int err = CL_SUCCESS;
   if (busy)
      err = ICD_ERROR(CL_INVALID_OPERATION, "a build of the program is in progress");
   else if (attached)
      err = ICD_ERROR(CL_INVALID_OPERATION, "%u kernel objects are attached to the program",
                      attached);
   else if (ost != COMP_OK)
      err = ICD_ERROR(status_to_cl(ost, action), "%s", opt_error ? opt_error : "?");
   else if (!claimed)
      err = ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "build job");
   free(opt_error);
   if (err != CL_SUCCESS) {
      build_job_destroy(job);
      return err;
   }
   comp_program_retain_internal(prog);
   return build_launch(job);
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
         int idx = device_list
                      ? comp__program_device_index(prog, plat_device_from_handle(device_list[i]))
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
         int idx = device_list
                      ? comp__program_device_index(prog, plat_device_from_handle(device_list[i]))
                      : (int)i;
         all_loaded = prog->devices[idx].loaded && prog->devices[idx].status == CL_BUILD_SUCCESS;
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

/* The link inputs of every device (rows[d][k]: input k's bitcode for devs[d], copied under
 * the input's lock, so that a later build of an input does not change this link) and how
 * many inputs have one on each device (counts[d]). */
static cl_int
link_collect_inputs(const cl_program *input_programs, cl_uint num_input_programs,
                    struct _cl_device_id *const *devs, cl_uint ndev,
                    struct comp_link_input **rows, cl_uint *counts)
{
   for (cl_uint k = 0; k < num_input_programs; k++) {
      struct _cl_program *in = comp_program_from_handle(input_programs[k]);
      pthread_mutex_lock(&in->lock);
      if (in->building) {
         pthread_mutex_unlock(&in->lock);
         return ICD_ERROR(CL_INVALID_OPERATION, "input_programs[%u] is being built", k);
      }
      for (cl_uint d = 0; d < ndev; d++) {
         int idx = comp__program_device_index(in, devs[d]);
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
            return ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "link input");
         }
         memcpy(copy, bc, bc_size);
         rows[d][k].data = copy;
         rows[d][k].size = bc_size;
         rows[d][k].is_library = pd->binary_type == CL_PROGRAM_BINARY_TYPE_LIBRARY;
         counts[d]++;
      }
      pthread_mutex_unlock(&in->lock);
   }
   return CL_SUCCESS;
}

/* §5.8.5 input_programs: on each device either every input has a compiled object or a
 * library (linked) or none has (no executable for the device); anything else is
 * CL_INVALID_OPERATION.
 * Compacts `rows` to the devices that link (their handles in link_devs, *nlink of them, in
 * order) and frees the other rows (empty). */
static cl_int
link_select_devices(struct comp_link_input **rows, const cl_uint *counts,
                    struct _cl_device_id *const *devs, cl_uint ndev, cl_uint num_input_programs,
                    cl_device_id *link_devs, cl_uint *nlink_out)
{
   cl_uint nlink = 0;
   for (cl_uint d = 0; d < ndev; d++) {
      if (counts[d] && counts[d] != num_input_programs)
         return ICD_ERROR(CL_INVALID_OPERATION,
                          "%u of %u input programs have a compiled object or library for "
                          "device %s: all or none must",
                          counts[d], num_input_programs, devs[d]->name);
   }
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
   if (nlink == 0)
      return ICD_ERROR(CL_INVALID_OPERATION,
                       "no input program has a compiled object or library for any device "
                       "(compile them with clCompileProgram)");
   *nlink_out = nlink;
   return CL_SUCCESS;
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
   cl_int derr = comp__check_device_list(ctx, device_list, num_devices, false);
   if (derr != CL_SUCCESS) {
      icd_set_errcode(errcode_ret, derr);
      return NULL;
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
   cl_uint nlink = 0;
   struct comp_link_input **rows = icd_calloc(ndev, sizeof(*rows));
   cl_device_id *link_devs = icd_calloc(ndev, sizeof(*link_devs));
   cl_uint *counts = icd_calloc(ndev, sizeof(*counts));
   for (cl_uint d = 0; rows && d < ndev; d++) {
      rows[d] = icd_calloc(num_input_programs, sizeof(**rows));
      if (!rows[d])
         break;
   }
   if (!rows || !link_devs || !counts || (ndev && !rows[ndev - 1])) {
      err = ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "link inputs");
      goto out_free;
   }
   err = link_collect_inputs(input_programs, num_input_programs, devs, ndev, rows, counts);
   if (err != CL_SUCCESS)
      goto out_free;
   err = link_select_devices(rows, counts, devs, ndev, num_input_programs, link_devs, &nlink);
   if (err != CL_SUCCESS)
      goto out_free;

   prog = comp__program_create(ctx, devs, ndev, COMP_ORIGIN_LINK);
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
