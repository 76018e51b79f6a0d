/*
 * runtime/rt.h — the HSA seam: the bottom module of the driver, the only one that reaches
 * the HSA runtime (docs/architecture.md, conventions.md rule 14). It loads the runtime
 * HSACL_RUNTIME selects (docs/runtimes.md) into one table of function pointers that every
 * module above calls, and keeps the free list of HSA signals. It depends on icd/ only.
 */
#ifndef RT_H
#define RT_H

#include "icd.h"
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <hsa/hsa_ext_image.h>

/* ---- the function table ----------------------------------------------------------- */

typedef enum rt_runtime_kind {
   RT_RUNTIME_ROCR = 1, /* ROCr's libhsa-runtime64.so.1 */
   RT_RUNTIME_SIM,      /* hsacl's software runtime, libhsacl-sim.so */
   RT_RUNTIME_PATH,     /* HSACL_RUNTIME=<path> */
} rt_runtime_kind;

struct rt_hsa {
#define HSA_FN(name) __typeof__(name) *name;
#include "runtime/rt_hsa_functions.def"
#undef HSA_FN
   void *handle;
   rt_runtime_kind kind;
   char path[512]; /* what was dlopen'ed */
   /* The HSA image extension (v1), as ROCr's own OpenCL obtains it:
    * hsa_system_get_major_extension_table(HSA_EXTENSION_IMAGES, 1, ...). has_images is
    * false when the runtime does not provide it (then every `img` pointer is NULL). */
   bool has_images;
   hsa_ext_images_1_pfn_t img;
};

/*
 * The HSA runtime selected by HSACL_RUNTIME (auto|rocr|sim|<path>), initialised and holding
 * at least one GPU agent; NULL when none could be loaded. Loaded once per process; thread
 * safe. When NULL, rt_failure() says why (also logged, category "hsa").
 */
const struct rt_hsa *rt_hsa(void);
const char *rt_failure(void);

/* Makes `table` the runtime rt_hsa() returns, in place of loading one: unit tests of the
 * modules above run against a fake HSA table (as the Khronos loader's test/driver_stub
 * fakes a whole ICD). Only before the first rt_hsa(); false after it. */
bool rt_hsa_install(const struct rt_hsa *table);

/* Maps an HSA status to the CL error the specification names for the failing operation
 * class (CL_OUT_OF_RESOURCES unless more specific), logging the HSA status string. */
cl_int rt_status_to_cl(hsa_status_t status, const char *what);

/* Logs an HSA failure of `what` and returns `code`. */
cl_int rt_error(hsa_status_t status, cl_int code, const char *what);

/* ---- pool memory (rt_pool.c) ------------------------------------------------------ */

/*
 * Allocates `size` bytes from `pool` and allows `num_agents` agents (may be 0) to access
 * them. On failure nothing stays allocated and `fail_code` is returned (logged with the
 * HSA status and `what`; not logged when `what` is NULL, for a try with a fallback).
 */
cl_int rt_pool_alloc(hsa_amd_memory_pool_t pool, size_t size, const hsa_agent_t *agents,
                     uint32_t num_agents, cl_int fail_code, const char *what, void **out);

/* Frees what rt_pool_alloc returned; logs (never fails) on an HSA error. */
void rt_pool_free(void *ptr);

/* ---- executables (rt_executable.c) ------------------------------------------------ */

/* A code object loaded into a frozen executable for one agent. */
struct rt_executable {
   hsa_code_object_reader_t reader;
   hsa_executable_t executable;
};

/*
 * Reads the code object `binary` (`size` bytes, kept by the caller until
 * rt_executable_destroy) and loads it into a new frozen executable for `agent`: reader,
 * executable (full profile, default rounding), load, freeze. On failure nothing stays
 * created, and *failed names the HSA call that failed.
 */
hsa_status_t rt_executable_load(hsa_agent_t agent, const void *binary, size_t size,
                                struct rt_executable *out, const char **failed);

/* Destroys what rt_executable_load created. */
void rt_executable_destroy(struct rt_executable *exe);

/* ---- signals (rt_signal.c) -------------------------------------------------------- */

/* Signals from a free list, so the steady-state enqueue path makes no system call. A
 * signal handed out has the value 1; one given back may have any value (put resets it: no
 * one may wait for it any more). Thread safe. */
cl_int rt_signal_get(hsa_signal_t *out);
void rt_signal_put(hsa_signal_t signal);

#endif
