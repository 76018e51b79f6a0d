/*
 * compiler/comp_program_priv.h — what the program/kernel API files of compiler/ share
 * (comp_program.c, comp_kernel.c, comp_binary.c, comp_cache.c). The engine's own shared
 * declarations are in comp_priv.h.
 */
#ifndef COMP_PROGRAM_PRIV_H
#define COMP_PROGRAM_PRIV_H

#include "comp.h"

/* ---- the objects' internals (comp.h gives other modules accessors) --------------------- */

struct _cl_program {
   struct icd_object obj;
   struct _cl_context *context;          /* internal reference */
   comp_program_origin origin;
   char *source;                         /* COMP_ORIGIN_SOURCE: the concatenated strings */
   size_t source_size;                   /* without the terminating NUL */
   void *il;                             /* COMP_ORIGIN_IL: the module as given */
   size_t il_size;
   struct comp_program_device *devices;  /* the program's devices, in creation order */
   cl_uint num_devices;
   /* Serialises the wide variants' builds (comp_wide.c); taken with no other lock held,
    * `lock` is never taken under it. */
   pthread_mutex_t wide_lock;
   pthread_mutex_t lock;                 /* guards everything below and devices[] */
   bool building;                        /* a build/compile is in progress */
   cl_uint num_kernels_attached;         /* live kernel objects (clBuildProgram refuses) */
   struct comp_program_release_callback *release_callbacks;
   /* COMP_ORIGIN_IL: clSetProgramSpecializationConstant's values, one per SpecId. */
   struct comp_spec_constant *spec_constants;
   size_t num_spec_constants;
};

ICD_HEADER_FIRST(struct _cl_program);

/* The pointer sets clSetKernelExecInfo keeps (struct _cl_kernel). */
enum { COMP_PTRS_SVM, COMP_PTRS_USM, COMP_PTRS_DEVICE, COMP_PTR_SETS };

struct _cl_kernel {
   struct icd_object obj;
   struct _cl_program *program;          /* internal reference */
   struct _cl_context *context;          /* program->context */
   const char *name;                     /* == sig->name */
   /* The signature of the first device the program is built for: explicit arguments are
    * identical on every device (CL_INVALID_KERNEL_DEFINITION otherwise). */
   const struct comp_kernel *sig;
   /* One entry per program device (program->devices order); NULL where the program has
    * no executable for that device. Points into the program. */
   const struct comp_kernel_device **devices;
   cl_uint num_devices;
   /* Explicit argument values: sig->num_explicit_args entries. clSetKernelArg on one kernel
    * from several threads is the application's problem (OpenCL 3.0 API Appendix A.2); an
    * enqueue beside it is not, so values change under args_lock. */
   struct comp_kernel_arg_value *args;
   cl_uint num_args;
   /* Guards args' values against launches capturing them (comp_kernel_args_lock), and the
    * launch capture (dispatch's, not held: comp_kernel_capture_locked). */
   pthread_mutex_t args_lock;
   void *capture;
   atomic_uint num_set;                  /* arguments set so far (written under args_lock) */
   /* clSetKernelExecInfo's pointer sets (CL_KERNEL_EXEC_INFO_SVM_PTRS, _USM_PTRS_INTEL,
    * _DEVICE_PTRS_EXT) and indirect-access flags (CL_KERNEL_EXEC_INFO_INDIRECT_*_INTEL,
    * COMP_INDIRECT_* bits), as last given; kept and cloned, but nothing needs to be made
    * resident from them: every allocation of the context is reachable by its kernels
    * (comp_kernel_args.c). */
   void **ptrs[COMP_PTR_SETS];
   size_t num_ptrs[COMP_PTR_SETS];
   unsigned indirect;
};

ICD_HEADER_FIRST(struct _cl_kernel);

/* ---- program binaries (comp_binary.c) ----------------------------------------------- */

/*
 * Checks that `binary` is an AMDGPU code object (ET_DYN: executable) or hsacl's wrapped
 * compiled object or library (ET_REL) for `device`: ELF64 little-endian, EM_AMDGPU, HSA OS
 * ABI, EF_AMDGPU_MACH of the device's processor, xnack/sramecc settings compatible with the
 * device's target ID, and a metadata note comp_parse_metadata accepts (executables; NULL
 * *info for the others) or LLVM bitcode in the wrapper. On success stores the binary type
 * and the parsed metadata (caller destroys) and returns true; otherwise false with a malloc'd
 * reason in *why (may be NULL on out-of-memory). Never crashes on arbitrary bytes.
 */
bool comp__binary_check(const void *binary, size_t size, const struct _cl_device_id *device,
                        cl_program_binary_type *type, struct comp_program_info **info,
                        char **why);

/* Wraps LLVM bitcode (type COMPILED_OBJECT or LIBRARY) into hsacl's binary for `device`
 * (see comp_binary.c). Returns a new icd_malloc'd image of *out_size bytes, or NULL on
 * out-of-memory. */
void *comp__binary_wrap_bitcode(const void *bitcode, size_t size,
                                const struct _cl_device_id *device,
                                cl_program_binary_type type, size_t *out_size);

/* The bitcode inside a wrapped compiled object or library (points into `binary`); false
 * for any other binary. */
bool comp__binary_bitcode(const void *binary, size_t size, const void **bitcode,
                          size_t *bc_size);

/* Bytes of program-scope variables in writable allocated sections of a checked binary
 * (CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE). */
size_t comp__binary_global_variable_size(const void *binary, size_t size);

/* The device's target ID for the compiler: the part of isa_name after "--"
 * ("gfx906:sramecc-:xnack-"). Static storage inside `device`. */
const char *comp__device_target_id(const struct _cl_device_id *device);

/* ---- the program object (comp_program.c) -------------------------------------------- */

/* Appends printf-formatted text to the build log *log (grown with icd_realloc; left as it
 * was on out-of-memory). */
void comp__log_append(char **log, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Returns a new program (one API reference) on `devices` of `ctx`, or NULL on
 * out-of-memory. */
struct _cl_program *comp__program_create(struct _cl_context *ctx,
                                         struct _cl_device_id *const *devices,
                                         cl_uint num_devices, comp_program_origin origin);

/* Index of `dev` among the program's devices, or -1. */
/* CL_INVALID_DEVICE (logged) when an entry of `list` is not a device of `ctx`, or, with
 * `distinct`, repeats an earlier one; else CL_SUCCESS. */
cl_int comp__check_device_list(struct _cl_context *ctx, const cl_device_id *list, cl_uint n,
                               bool distinct);

int comp__program_device_index(const struct _cl_program *prog, const struct _cl_device_id *dev);

/* A device entry back to "never built" (source and IL programs), or only its executable
 * unloaded (binary programs keep their binary). Under the program's lock. */
void comp__program_device_reset(struct comp_program_device *pd);
void comp__program_device_unload(struct comp_program_device *pd);

/* ---- kernel arguments (comp_kernel_args.c) -------------------------------------------- */

/* clCloneKernel: copies the argument values and exec info of `src` into the new kernel `k`
 * (same signature). CL_OUT_OF_HOST_MEMORY leaves what was copied for
 * comp__kernel_args_finish. */
cl_int comp__kernel_args_copy(struct _cl_kernel *k, const struct _cl_kernel *src);

/* Frees the argument values and exec info (a half-built kernel too). */
void comp__kernel_args_finish(struct _cl_kernel *k);

/* ---- builds (comp_program_build.c) and executables (comp_program.c) ------------------ */

/* A code object loaded into an HSA executable on one device. */
struct comp__loaded {
   const void *binary; /* in: the code object */
   size_t binary_size;
   const struct comp_program_info *info; /* in: its metadata */
   hsa_code_object_reader_t reader;      /* out: */
   hsa_executable_t executable;
   struct comp_kernel_device *kernels;   /* info->num_kernels entries, metadata order */
};

/* Loads r->binary into a new HSA executable for `dev` and finds its kernels (r's outputs,
 * undone by comp__unload_executable). On failure nothing is left loaded and *log says why. */
cl_int comp__load_executable(const struct _cl_device_id *dev, struct comp__loaded *r,
                             char **log);
void comp__unload_executable(struct comp__loaded *r);

/* Builds `desc` through the on-disk kernel cache (links are not cached). On success: the
 * payload (code object, or bitcode for COMP_EMIT_BITCODE), its metadata (executables; NULL
 * otherwise) and the build log, all the caller's. On failure the CL error of the action with
 * the log in *log (and nothing else to free). */
cl_int comp__build_cached(const struct comp_build_desc *desc, void **binary, size_t *binary_size,
                          struct comp_program_info **info, char **log);

/* HSACL_BUILD_INCLUDES=restricted (comp_program.c says what it means). */
bool comp__restricted_includes(void);

/* ---- wide variants (comp_wide.c) ------------------------------------------------------ */

/* Unloads and frees a program device's wide variant; NULL is accepted. */
void comp__wide_destroy(struct comp_wide *wide);

/* ---- on-disk kernel cache (comp_cache.c) -------------------------------------------- */

#define COMP_CACHE_KEY_HEX 65 /* SHA-256 in hex plus NUL */

/* Computes the cache key of a build: SHA-256 over the hsacl version, comp_identity(), the
 * action and emit kind, the target ID, the options, the extension and feature lists, the
 * source and every embedded header (name and text). False when the cache is disabled
 * (HSACL_CACHE=0) or hashing failed: then nothing is looked up or stored. */
bool comp__cache_key(const struct comp_build_desc *desc, char key[COMP_CACHE_KEY_HEX]);

/* Looks `key` up. On a hit returns true with a malloc'd copy of the payload and of the
 * build log (NUL-terminated) and touches the entry's mtime (LRU). A truncated or corrupt
 * entry is removed and reported as a miss. Thread and process safe. */
bool comp__cache_lookup(const char *key, void **data, size_t *size, char **log);

/* Stores a build result under `key` atomically (temporary file + rename in the cache
 * directory), then evicts least recently used entries beyond HSACL_CACHE_MAX_SIZE.
 * Failures are logged and otherwise ignored. */
void comp__cache_store(const char *key, const void *data, size_t size, const char *log);

#endif /* COMP_PROGRAM_PRIV_H */
