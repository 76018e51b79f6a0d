/*
 * compiler/comp.h — what other modules use from compiler/: cl_program and cl_kernel
 * (OpenCL 3.0 API §5.8, §5.9) and the CL entry points that create, build and query them.
 *
 * dispatch/ launches kernels from `struct _cl_kernel`: per device it finds the HSA kernel
 * object, the kernarg/group/private segment sizes and the signature (explicit then hidden
 * arguments with their offsets, from the code object metadata), plus the argument values
 * clSetKernelArg stored (raw bytes, interpreted by dispatch/, which only reads them).
 *
 * Lifetimes: the API references of a program or kernel together hold one internal
 * reference; the object is destroyed when its internal count drops to zero. A kernel holds
 * an internal reference on its program, a program on its context; an in-flight launch
 * holds one on the kernel (comp_kernel_retain_internal; through its argument capture). While a kernel exists its
 * program cannot be rebuilt (CL_INVALID_OPERATION), so everything a kernel points to in
 * its program is immutable for the kernel's lifetime.
 */
#ifndef COMP_H
#define COMP_H

#include "icd.h"
#include "comp_llvm.h"

#include <hsa/hsa.h>
#include <pthread.h>

struct _cl_context;
struct _cl_device_id;

/* ---- programs ----------------------------------------------------------------------- */

typedef enum comp_program_origin {
   COMP_ORIGIN_SOURCE = 1, /* clCreateProgramWithSource */
   COMP_ORIGIN_BINARY,     /* clCreateProgramWithBinary */
   COMP_ORIGIN_LINK,       /* clLinkProgram: no source, binaries from the link only */
   COMP_ORIGIN_IL,         /* clCreateProgramWithIL: a SPIR-V module */
} comp_program_origin;

/* A kernel symbol of a loaded executable: what a launch needs on one device (immutable
 * once the build that produced it has completed). */
struct comp_kernel_device {
   const struct comp_kernel *sig;    /* signature from the code object metadata */
   uint64_t kernel_object;           /* HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT */
   uint32_t kernarg_segment_size;    /* bytes, hidden arguments included */
   uint32_t kernarg_segment_align;   /* bytes, >= 16 */
   uint32_t group_segment_size;      /* fixed LDS bytes, without dynamic local arguments */
   uint32_t private_segment_size;    /* fixed scratch bytes per work-item */
   bool dynamic_stack;               /* scratch size is a lower bound (recursion, calls) */
};

/* The program's state on one of its devices. Written by builds under the program lock;
 * immutable while kernels exist or a build is not in progress. */
struct comp_program_device {
   struct _cl_device_id *device;
   cl_build_status status;             /* CL_BUILD_NONE/ERROR/SUCCESS/IN_PROGRESS */
   cl_program_binary_type binary_type; /* CL_PROGRAM_BINARY_TYPE_* */
   char *options;                      /* of the last build/compile; NULL = "" */
   char *log;                          /* of the last build/compile; NULL = "" */
   /* code object (ET_DYN), or compiled object / library (bitcode in an ET_REL wrapper) */
   void *binary;
   size_t binary_size;
   struct comp_program_info *info;     /* metadata of `binary` */
   size_t global_variable_size;        /* program-scope global variables, bytes */
   /* Loaded when binary_type is EXECUTABLE and status is CL_BUILD_SUCCESS: */
   bool loaded;
   hsa_code_object_reader_t reader;
   hsa_executable_t executable;
   struct comp_kernel_device *kernels; /* info->num_kernels entries, metadata order */
   /* The wide variant (comp_wide.c): the same build for work-groups up to the device's
    * maximum. What it is rebuilt from besides the program's source or IL and `options`
    * is set with the build's results (owned): whether it can be rebuilt at all (built
    * executables from source, IL or a link; not binaries), the IL build's specialization
    * constants, the link's inputs. `wide` is NULL until a launch first needs it; it is
    * created under the program's wide_lock and then immutable until the next build.
    * `wide_failed` is set (under the lock, read without it) once its build has failed: the
    * kernels' CL_KERNEL_WORK_GROUP_SIZE falls back to the default build's bound. */
   bool wide_buildable;
   atomic_bool wide_failed;
   struct comp_spec_constant *spec_constants;
   size_t num_spec_constants;
   struct comp_link_input *link_inputs;
   size_t num_link_inputs;
   struct comp_wide *wide;
};

struct comp_program_release_callback {
   void(CL_CALLBACK *fn)(cl_program program, void *user_data);
   void *user_data;
   struct comp_program_release_callback *next; /* LIFO */
};

/* A program (struct _cl_program, comp_program_priv.h). */
ICD_DEFINE_OPAQUE_HANDLE_CASTS(comp_program, struct _cl_program, cl_program, ICD_TYPE_PROGRAM)

void comp_program_retain_internal(struct _cl_program *prog);
void comp_program_release_internal(struct _cl_program *prog);

/* ---- kernels ------------------------------------------------------------------------ */

/* One explicit argument as clSetKernelArg left it. */
struct comp_kernel_arg_value {
   void *value;     /* a copy of arg_value (size bytes); NULL when arg_value was NULL */
   size_t size;     /* arg_size as given */
   size_t capacity; /* bytes allocated at value */
   bool set;
   /* clSetKernelArgSVMPointer: `value` holds a raw pointer (void *) written as is, not a
    * cl_mem. Cleared by clSetKernelArg, copied by clCloneKernel. */
   bool svm;
};

/* A kernel (struct _cl_kernel, comp_program_priv.h). */
ICD_DEFINE_OPAQUE_HANDLE_CASTS(comp_kernel, struct _cl_kernel, cl_kernel, ICD_TYPE_KERNEL)

/* The kernel's function name, context and number of explicit arguments; fixed at creation. */
const char *comp_kernel_name(const struct _cl_kernel *kernel);
struct _cl_context *comp_kernel_context(const struct _cl_kernel *kernel);
cl_uint comp_kernel_num_args(const struct _cl_kernel *kernel);

/* Explicit argument `index` (< comp_kernel_num_args) as clSetKernelArg* left it; a launch
 * copies it (comp_kernel_args.c says who may write it when). */
const struct comp_kernel_arg_value *comp_kernel_arg(const struct _cl_kernel *kernel,
                                                    cl_uint index);

void comp_kernel_retain_internal(struct _cl_kernel *kernel);
void comp_kernel_release_internal(struct _cl_kernel *kernel);

/*
 * The kernel's argument lock. clSetKernelArg and its kin change a value under it and clear
 * the launch capture with it; whoever reads the values while other threads may set them
 * (a launch capturing them, the set-arguments check) holds it. Taken with no other lock
 * held but the driver's own short ones inside (none of this module's).
 */
void comp_kernel_args_lock(struct _cl_kernel *kernel);
void comp_kernel_args_unlock(struct _cl_kernel *kernel);

/* Whether every explicit argument has been set (they are never unset); no lock. */
bool comp_kernel_args_all_set(const struct _cl_kernel *kernel);

/* The launch capture (dispatch/disp_args.c): an object of dispatch's built from the current
 * argument values, which the kernel keeps without holding it and forgets (NULL) whenever an
 * argument changes. Under the argument lock. */
void *comp_kernel_capture_locked(const struct _cl_kernel *kernel);
void comp_kernel_set_capture_locked(struct _cl_kernel *kernel, void *capture);

/* The launch record of `kernel` on `device`; NULL when the program has no executable for
 * that device (clEnqueueNDRangeKernel: CL_INVALID_PROGRAM_EXECUTABLE). */
const struct comp_kernel_device *comp_kernel_for_device(const struct _cl_kernel *kernel,
                                                        const struct _cl_device_id *device);

/*
 * The largest work-group `kernel` runs with on `device` (CL_KERNEL_WORK_GROUP_SIZE; `kd` is
 * comp_kernel_for_device's record): the reqd_work_group_size product when it has one, else
 * the device's maximum when the program can be rebuilt for it (comp_kernel_wide) and that
 * rebuild has not failed, else what its code object was built for
 * (.max_flat_workgroup_size).
 */
size_t comp_kernel_max_work_group_size(const struct _cl_kernel *kernel,
                                       const struct _cl_device_id *device,
                                       const struct comp_kernel_device *kd);

/* The largest work-group the default build of a kernel runs with (its code object's
 * .max_flat_workgroup_size, at most the device's maximum): larger launches take
 * comp_kernel_wide's record. */
size_t comp_kernel_default_work_group_size(const struct _cl_device_id *device,
                                           const struct comp_kernel_device *kd);

/*
 * The launch record of `kernel` on `device` in the program's wide variant: the program
 * rebuilt once, on first use, with every kernel without reqd_work_group_size built for
 * work-groups up to the device's maximum (comp_build_desc::max_work_group_size), through the
 * kernel cache, and loaded; kept until the program is rebuilt or destroyed. Thread-safe: a
 * second caller waits for the first build. *info receives the variant's metadata (printf
 * formats). CL_INVALID_WORK_GROUP_SIZE when the program cannot be rebuilt (binaries), the
 * build's error (logged with its build log) when it failed; a failure is remembered.
 */
cl_int comp_kernel_wide(const struct _cl_kernel *kernel, const struct _cl_device_id *device,
                        const struct comp_kernel_device **kd,
                        const struct comp_program_info **info);

/*
 * The code that runs groups of `items` work-items of `kernel` on `device`: *kd (on entry
 * comp_kernel_for_device's record) stays the default build's when it was made for groups
 * that large, else becomes comp_kernel_wide's; *info receives the printf formats of the
 * program it comes from. comp_kernel_wide's errors.
 */
cl_int comp_kernel_for_group(const struct _cl_kernel *kernel, const struct _cl_device_id *device,
                             size_t items, const struct comp_kernel_device **kd,
                             const struct comp_program_info **info);

/* The printf formats of the program `kernel` came from, on `device` ("amdhsa.printf"
 * metadata); NULL under the same condition as comp_kernel_for_device. */
const struct comp_program_info *comp_kernel_program_info(const struct _cl_kernel *kernel,
                                                         const struct _cl_device_id *device);

/* ---- entry points ------------------------------------------------------------------- */

typedef void(CL_CALLBACK *comp_program_notify_fn)(cl_program program, void *user_data);

cl_program CL_API_CALL comp_CreateProgramWithSource(cl_context context, cl_uint count,
                                                    const char **strings,
                                                    const size_t *lengths,
                                                    cl_int *errcode_ret);
cl_program CL_API_CALL comp_CreateProgramWithBinary(cl_context context, cl_uint num_devices,
                                                    const cl_device_id *device_list,
                                                    const size_t *lengths,
                                                    const unsigned char **binaries,
                                                    cl_int *binary_status,
                                                    cl_int *errcode_ret);
cl_program CL_API_CALL comp_CreateProgramWithBuiltInKernels(cl_context context,
                                                            cl_uint num_devices,
                                                            const cl_device_id *device_list,
                                                            const char *kernel_names,
                                                            cl_int *errcode_ret);
cl_program CL_API_CALL comp_CreateProgramWithIL(cl_context context, const void *il,
                                                size_t length, cl_int *errcode_ret);

cl_int CL_API_CALL comp_RetainProgram(cl_program program);
cl_int CL_API_CALL comp_ReleaseProgram(cl_program program);
cl_int CL_API_CALL comp_BuildProgram(cl_program program, cl_uint num_devices,
                                     const cl_device_id *device_list, const char *options,
                                     comp_program_notify_fn pfn_notify, void *user_data);
cl_int CL_API_CALL comp_CompileProgram(cl_program program, cl_uint num_devices,
                                       const cl_device_id *device_list, const char *options,
                                       cl_uint num_input_headers,
                                       const cl_program *input_headers,
                                       const char **header_include_names,
                                       comp_program_notify_fn pfn_notify, void *user_data);
cl_program CL_API_CALL comp_LinkProgram(cl_context context, cl_uint num_devices,
                                        const cl_device_id *device_list, const char *options,
                                        cl_uint num_input_programs,
                                        const cl_program *input_programs,
                                        comp_program_notify_fn pfn_notify, void *user_data,
                                        cl_int *errcode_ret);
cl_int CL_API_CALL comp_UnloadPlatformCompiler(cl_platform_id platform);
cl_int CL_API_CALL comp_UnloadCompiler(void);
cl_int CL_API_CALL comp_GetProgramInfo(cl_program program, cl_program_info param_name,
                                       size_t param_value_size, void *param_value,
                                       size_t *param_value_size_ret);
cl_int CL_API_CALL comp_GetProgramBuildInfo(cl_program program, cl_device_id device,
                                            cl_program_build_info param_name,
                                            size_t param_value_size, void *param_value,
                                            size_t *param_value_size_ret);
cl_int CL_API_CALL comp_SetProgramReleaseCallback(cl_program program,
                                                  comp_program_notify_fn pfn_notify,
                                                  void *user_data);
cl_int CL_API_CALL comp_SetProgramSpecializationConstant(cl_program program, cl_uint spec_id,
                                                         size_t spec_size,
                                                         const void *spec_value);

cl_kernel CL_API_CALL comp_CreateKernel(cl_program program, const char *kernel_name,
                                        cl_int *errcode_ret);
cl_int CL_API_CALL comp_CreateKernelsInProgram(cl_program program, cl_uint num_kernels,
                                               cl_kernel *kernels, cl_uint *num_kernels_ret);
cl_kernel CL_API_CALL comp_CloneKernel(cl_kernel source_kernel, cl_int *errcode_ret);
/* Argument values and exec info (comp_kernel_args.c). */
cl_int CL_API_CALL comp_SetKernelArg(cl_kernel kernel, cl_uint arg_index, size_t arg_size,
                                     const void *arg_value);
cl_int CL_API_CALL comp_SetKernelArgSVMPointer(cl_kernel kernel, cl_uint arg_index,
                                               const void *arg_value);
/* cl_intel_unified_shared_memory, cl_ext_buffer_device_address (through
 * clGetExtensionFunctionAddressForPlatform). */
cl_int CL_API_CALL comp_SetKernelArgMemPointerINTEL(cl_kernel kernel, cl_uint arg_index,
                                                    const void *arg_value);
cl_int CL_API_CALL comp_SetKernelArgDevicePointerEXT(cl_kernel kernel, cl_uint arg_index,
                                                     cl_ulong arg_value);
cl_int CL_API_CALL comp_SetKernelExecInfo(cl_kernel kernel, cl_kernel_exec_info param_name,
                                          size_t param_value_size, const void *param_value);
cl_int CL_API_CALL comp_RetainKernel(cl_kernel kernel);
cl_int CL_API_CALL comp_ReleaseKernel(cl_kernel kernel);
cl_int CL_API_CALL comp_GetKernelInfo(cl_kernel kernel, cl_kernel_info param_name,
                                      size_t param_value_size, void *param_value,
                                      size_t *param_value_size_ret);
cl_int CL_API_CALL comp_GetKernelArgInfo(cl_kernel kernel, cl_uint arg_index,
                                         cl_kernel_arg_info param_name,
                                         size_t param_value_size, void *param_value,
                                         size_t *param_value_size_ret);
cl_int CL_API_CALL comp_GetKernelWorkGroupInfo(cl_kernel kernel, cl_device_id device,
                                               cl_kernel_work_group_info param_name,
                                               size_t param_value_size, void *param_value,
                                               size_t *param_value_size_ret);
cl_int CL_API_CALL comp_GetKernelSubGroupInfo(cl_kernel kernel, cl_device_id device,
                                              cl_kernel_sub_group_info param_name,
                                              size_t input_value_size,
                                              const void *input_value,
                                              size_t param_value_size, void *param_value,
                                              size_t *param_value_size_ret);

#endif /* COMP_H */
