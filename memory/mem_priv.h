/*
 * memory/mem_priv.h — what the files of memory/ share: HSA pool allocation with access
 * grants (mem_staging.c), buffer creation and host-to-device copies (mem_buffer.c).
 */
#ifndef MEM_PRIV_H
#define MEM_PRIV_H

#include "memory/mem.h"

/*
 * Allocates `size` bytes from `pool` and allows `num_agents` agents (may be 0) to access
 * them. On failure nothing stays allocated and `fail_code` is returned (logged with the
 * HSA status and `what`; not logged when `what` is NULL, for a try with a fallback).
 */
cl_int mem__pool_alloc(hsa_amd_memory_pool_t pool, size_t size, const hsa_agent_t *agents,
                       uint32_t num_agents, cl_int fail_code, const char *what, void **out);

/* Frees what mem__pool_alloc returned; logs (never fails) on an HSA error. */
void mem__pool_free(void *ptr);

/* Logs an HSA failure of `what` and returns `code`. */
cl_int mem__hsa_error(hsa_status_t status, cl_int code, const char *what);

/* The GPU agents of the context's devices, for access grants. At most MEM_MAX_AGENTS. */
#define MEM_MAX_AGENTS 16
uint32_t mem__context_agents(const struct _cl_context *ctx, hsa_agent_t *agents);

/*
 * Returns a new buffer with one API reference (mem_buffer.c; also the storage of a pipe,
 * mem_pipe.c). Inputs validated by the entry point: `flags` consistent, `dev` one of the
 * context's devices whose allocation limit fits `size`, host_ptr present exactly when
 * USE/COPY_HOST_PTR is set, `svm_host_ptr` true when host_ptr lies in an SVM allocation of
 * the context. `props` is copied.
 */
cl_int mem__buffer_create(struct _cl_context *ctx, struct _cl_device_id *dev, cl_mem_flags flags,
                          size_t size, void *host_ptr, bool svm_host_ptr,
                          const cl_mem_properties *props, size_t num_props, struct _cl_mem **out);

/* Copies `size` bytes of host memory into device-only memory of `dev` through staging
 * memory; the next kernel acquires at system scope (disp_fence_host_wrote). */
cl_int mem__copy_to_device(struct _cl_device_id *dev, uint64_t device_va, const void *src,
                           size_t size);

#endif
