/*
 * runtime/rt_executable.c — code objects into HSA executables (rt.h): the generic half of
 * loading a program, which knows nothing of kernels (compiler/comp_program.c finds their
 * symbols in the executable).
 */
#include "runtime/rt.h"

hsa_status_t
rt_executable_load(hsa_agent_t agent, const void *binary, size_t size,
                   struct rt_executable *out, const char **failed)
{
   const struct rt_hsa *hsa = rt_hsa();
   hsa_status_t st = hsa->hsa_code_object_reader_create_from_memory(binary, size, &out->reader);
   if (st != HSA_STATUS_SUCCESS) {
      *failed = "hsa_code_object_reader_create_from_memory";
      return st;
   }
   st = hsa->hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
                                       NULL, &out->executable);
   if (st != HSA_STATUS_SUCCESS) {
      *failed = "hsa_executable_create_alt";
      goto out_destroy_reader;
   }
   st = hsa->hsa_executable_load_agent_code_object(out->executable, agent, out->reader, NULL,
                                                   NULL);
   if (st != HSA_STATUS_SUCCESS) {
      *failed = "hsa_executable_load_agent_code_object";
      goto out_destroy_executable;
   }
   st = hsa->hsa_executable_freeze(out->executable, NULL);
   if (st != HSA_STATUS_SUCCESS) {
      *failed = "hsa_executable_freeze";
      goto out_destroy_executable;
   }
   return HSA_STATUS_SUCCESS;

out_destroy_executable:
   hsa->hsa_executable_destroy(out->executable);
out_destroy_reader:
   hsa->hsa_code_object_reader_destroy(out->reader);
   return st;
}

void
rt_executable_destroy(struct rt_executable *exe)
{
   const struct rt_hsa *hsa = rt_hsa();
   hsa->hsa_executable_destroy(exe->executable);
   hsa->hsa_code_object_reader_destroy(exe->reader);
}
