/*
 * runtime/rt_pool.c — memory-pool allocation with access grants, and the logging of HSA
 * failures with the CL code the caller names. Memory objects, SVM and staging allocate
 * through it (memory/).
 */
#include "runtime/rt.h"

cl_int
rt_error(hsa_status_t status, cl_int code, const char *what)
{
   const char *msg = NULL;
   const struct rt_hsa *hsa = rt_hsa();
   if (hsa)
      hsa->hsa_status_string(status, &msg);
   return ICD_ERROR(code, "%s: HSA status 0x%x (%s)", what, (unsigned)status, msg ? msg : "?");
}

cl_int
rt_pool_alloc(hsa_amd_memory_pool_t pool, size_t size, const hsa_agent_t *agents,
              uint32_t num_agents, cl_int fail_code, const char *what, void **out)
{
   const struct rt_hsa *hsa = rt_hsa();
   void *ptr = NULL;
   hsa_status_t st = hsa->hsa_amd_memory_pool_allocate(pool, size, 0, &ptr);
   if (st != HSA_STATUS_SUCCESS)
      return what ? rt_error(st, fail_code, what) : fail_code;
   if (num_agents) {
      st = hsa->hsa_amd_agents_allow_access(num_agents, agents, NULL, ptr);
      if (st != HSA_STATUS_SUCCESS)
         goto out_free;
   }
   *out = ptr;
   return CL_SUCCESS;

out_free:
   hsa->hsa_amd_memory_pool_free(ptr);
   return what ? rt_error(st, fail_code, what) : fail_code;
}

void
rt_pool_free(void *ptr)
{
   hsa_status_t st = rt_hsa()->hsa_amd_memory_pool_free(ptr);
   if (st != HSA_STATUS_SUCCESS)
      rt_error(st, CL_OUT_OF_RESOURCES, "freeing pool memory");
}
