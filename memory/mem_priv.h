/*
 * memory/mem_priv.h — what the files of memory/ share: HSA pool allocation with access
 * grants (mem_staging.c).
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

#endif
