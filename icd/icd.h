/*
 * icd/icd.h — what every driver module uses from the ICD layer: the common object header
 * that starts every CL object (cl_khr_icd), typed handle validation, the error macro and
 * log, the allocation wrapper and the clGet*Info size-query helper.
 *
 * Logging and allocation live here rather than in a grab-bag module because every CL
 * object is created through this layer; nothing here depends on another module.
 */
#ifndef ICD_H
#define ICD_H

#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_0_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_2_0_APIS
#include <CL/cl.h>
#include <CL/cl_icd.h>

#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ------------------------------------------------------------------------------------ */
/* Object header (cl_khr_icd: the dispatch pointer must be the first member).            */

typedef enum icd_type {
   ICD_TYPE_PLATFORM = 1,
   ICD_TYPE_DEVICE,
   ICD_TYPE_CONTEXT,
   ICD_TYPE_COMMAND_QUEUE,
   ICD_TYPE_MEM,
   ICD_TYPE_PROGRAM,
   ICD_TYPE_KERNEL,
   ICD_TYPE_EVENT,
   ICD_TYPE_SAMPLER,
   ICD_TYPE_COMMAND_BUFFER, /* cl_khr_command_buffer (dispatch/disp_cmdbuf.c) */
   ICD_TYPE_MUTABLE_COMMAND,
   ICD_TYPE_SEMAPHORE, /* cl_khr_semaphore (dispatch/disp_semaphore.c) */
} icd_type;

/* Alive objects carry ICD_CHECK_WORD ^ type; destroy writes 0. */
#define ICD_CHECK_WORD 0x6873636cu /* "hscl" */

/* The address of the thread-local variable `var`, computed once. libhsacl is dlopened, so
 * taking it is a call to __tls_get_addr, and GCC computes it again at each use rather than
 * keep it in a register (three calls where one was needed, on the launch path); the empty
 * asm makes it an opaque value. */
#define ICD_TLS_ADDR(var)                                                                    \
   __extension__({                                                                           \
      __typeof__(&(var)) icd_tls_p_ = &(var);                                                \
      __asm__("" : "+r"(icd_tls_p_));                                                        \
      icd_tls_p_;                                                                            \
   })

/*
 * Two reference counts (architecture.md "Every CL object starts with struct icd_object"):
 * `refcount` counts the application's references (CL_*_REFERENCE_COUNT); `internal_refs`
 * counts the driver's — the API references together hold one, and children, in-flight
 * commands and waiters hold the others. The object is destroyed when `internal_refs` drops
 * to zero, on whichever thread drops it. Platforms and devices are never destroyed and use
 * neither.
 */
struct icd_object {
   const cl_icd_dispatch *dispatch;
   uint32_t type;
   uint32_t check;
   atomic_uint refcount;      /* API references */
   atomic_uint internal_refs; /* driver references, one of them for all API references */
};

/* The one dispatch table (icd_dispatch.c): the cl_icd_dispatch of the system's headers
 * (Debian's end at OpenCL 3.0's slots), then the slots OpenCL-Headers v2026.05.29 appends for
 * OpenCL 3.1 ("OpenCL 3.1" in cl_icd.h), at the offsets a newer loader reads them. */
struct icd_dispatch_table {
   cl_icd_dispatch base;
   void *clGetKernelSuggestedLocalWorkSize; /* OpenCL 3.1 */
};
extern const struct icd_dispatch_table icd_dispatch;

/* Starts the life of an embedded header with one API and one internal reference. */
void icd_object_init(struct icd_object *obj, icd_type type);

/* Ends it: clears the check word so stale handles are rejected. */
void icd_object_finish(struct icd_object *obj);

/*
 * True when `handle` points at a live object of `type`. Never crashes on NULL or on a
 * pointer to another CL object; a pointer to arbitrary memory must be readable for the
 * header's 16 bytes.
 */
static inline bool
icd_object_is(const void *handle, icd_type type)
{
   const struct icd_object *obj = (const struct icd_object *)handle;
   if (!handle || ((uintptr_t)handle & (sizeof(void *) - 1)))
      return false;
   return obj->dispatch == &icd_dispatch.base && obj->type == (uint32_t)type &&
          obj->check == (ICD_CHECK_WORD ^ (uint32_t)type);
}

/*
 * Typed casts: `<prefix>_from_handle(h)` returns the object or NULL for a NULL or
 * wrong-type handle; the entry point turns NULL into its specific CL_INVALID_* code.
 * Every object struct starts with `struct icd_object obj`.
 */
#define ICD_DEFINE_HANDLE_CASTS(name, object_struct, cl_handle, type_tag)                   \
   ICD_HEADER_FIRST(object_struct);                                                         \
   ICD_DEFINE_OPAQUE_HANDLE_CASTS(name, object_struct, cl_handle, type_tag)

/* The struct's first member is `struct icd_object obj`. */
#define ICD_HEADER_FIRST(object_struct)                                                      \
   _Static_assert(offsetof(object_struct, obj) == 0, "ICD header must come first")

/* The casts alone, where `object_struct` is incomplete: a module whose public header keeps
 * its struct opaque (defined in its _priv.h, beside ICD_HEADER_FIRST). */
#define ICD_DEFINE_OPAQUE_HANDLE_CASTS(name, object_struct, cl_handle, type_tag)            \
   static inline object_struct *name##_from_handle(cl_handle h)                             \
   {                                                                                        \
      return icd_object_is(h, type_tag) ? (object_struct *)h : NULL;                        \
   }                                                                                        \
   static inline cl_handle name##_to_handle(object_struct *o)                               \
   {                                                                                        \
      return (cl_handle)o;                                                                  \
   }

/* Adds an API reference. */
static inline void
icd_object_retain(struct icd_object *obj)
{
   atomic_fetch_add_explicit(&obj->refcount, 1, memory_order_relaxed);
}

/* Drops an API reference; true when it was the last one (the caller destroys). */
static inline bool
icd_object_release(struct icd_object *obj)
{
   return atomic_fetch_sub_explicit(&obj->refcount, 1, memory_order_acq_rel) == 1;
}

/* Adds an internal reference. */
static inline void
icd_object_retain_internal(struct icd_object *obj)
{
   atomic_fetch_add_explicit(&obj->internal_refs, 1, memory_order_relaxed);
}

/* Drops an internal reference; true when it was the last one (the caller destroys). */
static inline bool
icd_object_release_internal(struct icd_object *obj)
{
   return atomic_fetch_sub_explicit(&obj->internal_refs, 1, memory_order_acq_rel) == 1;
}

static inline cl_uint
icd_object_refcount(const struct icd_object *obj)
{
   return atomic_load_explicit(&obj->refcount, memory_order_relaxed);
}

/* ------------------------------------------------------------------------------------ */
/* Logging: HSACL_LOG = level[:category,category...], level in error|warn|info|debug.    */
/* Unset: warnings and errors of every category but "api" (errors returned to the        */
/* application, which programs such as conformance tests provoke on purpose).            */

typedef enum icd_log_level {
   ICD_LOG_ERROR = 0,
   ICD_LOG_WARN,
   ICD_LOG_INFO,
   ICD_LOG_DEBUG,
} icd_log_level;

bool icd_log_enabled(icd_log_level level, const char *category);
void icd_log(icd_log_level level, const char *category, const char *fmt, ...)
   __attribute__((format(printf, 3, 4)));

/* Name of a CL error code ("CL_INVALID_VALUE"), or "CL_UNKNOWN_ERROR". */
const char *icd_error_name(cl_int code);

/* Logs an error returned to the application (category "api") and returns `code`. */
cl_int icd__error(const char *file, int line, const char *func, cl_int code, const char *fmt,
                  ...) __attribute__((format(printf, 5, 6)));

#define ICD_ERROR(code, ...) icd__error(__FILE__, __LINE__, __func__, (code), __VA_ARGS__)

/* For entry points that return a handle: stores `code` in *errcode_ret when non-NULL. */
static inline void
icd_set_errcode(cl_int *errcode_ret, cl_int code)
{
   if (errcode_ret)
      *errcode_ret = code;
}

/* ------------------------------------------------------------------------------------ */
/* Allocation: every heap allocation of the driver goes through these, so tests can     */
/* inject out-of-memory (HSACL_TEST_FAIL_ALLOC=N fails the N-th and later allocations). */

void *icd_calloc(size_t count, size_t size);
void *icd_malloc(size_t size);
void *icd_realloc(void *ptr, size_t size);
char *icd_strdup(const char *s);
void icd_free(void *ptr);

/* Test hook: fail every allocation from the n-th from now on (0 disables). */
void icd_test_fail_alloc_after(unsigned long n);

/* ------------------------------------------------------------------------------------ */
/* clGet*Info size-query protocol (every clGet*Info uses this).                          */

/*
 * Copies `size` bytes of `value` into param_value when it is non-NULL and large enough,
 * stores `size` in *param_value_size_ret when non-NULL. Returns CL_INVALID_VALUE when
 * param_value is non-NULL and param_value_size < size.
 */
cl_int icd_get_info(const void *value, size_t size, size_t param_value_size, void *param_value,
                    size_t *param_value_size_ret);

static inline cl_int
icd_get_info_string(const char *s, size_t param_value_size, void *param_value,
                    size_t *param_value_size_ret)
{
   size_t n = 0;
   while (s[n])
      n++;
   return icd_get_info(s, n + 1, param_value_size, param_value, param_value_size_ret);
}

/* Scalar of a given C type: ICD_GET_INFO_SCALAR(cl_uint, value, ...). */
#define ICD_GET_INFO_SCALAR(type, expr, pvs, pv, pvsr)                                      \
   ({                                                                                       \
      type icd_v__ = (type)(expr);                                                          \
      icd_get_info(&icd_v__, sizeof(icd_v__), (pvs), (pv), (pvsr));                         \
   })

/* ------------------------------------------------------------------------------------ */
/* Entry points of this layer.                                                           */

cl_int CL_API_CALL icd_IcdGetPlatformIDsKHR(cl_uint num_entries, cl_platform_id *platforms,
                                            cl_uint *num_platforms);
void *CL_API_CALL icd_GetExtensionFunctionAddress(const char *func_name);
void *CL_API_CALL icd_GetExtensionFunctionAddressForPlatform(cl_platform_id platform,
                                                             const char *func_name);

#endif
