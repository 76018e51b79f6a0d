/*
 * fuzz/fuzz_sim_loader.c — the software runtime's code-object loader (sim/sim_elf.c
 * sim__elf_load, sim/sim_loader.c), through the HSA API as ROCr's users call it:
 * hsa_code_object_reader_create_from_memory + hsa_executable_load_agent_code_object, then
 * freeze and every symbol's queries.
 *
 * Input: a whole code object (seeds: real gfx906 code objects). The reader copies it into
 * an exactly sized allocation, so a read past its end is a heap-buffer-overflow.
 * Checks: no crash, leak or sanitizer report; a loaded object's symbols answer their queries
 * (names of the length they report).
 */
#include "fuzz_common.h"

#include <hsa/hsa.h>
#include <stdint.h>
#include <string.h>

static hsa_agent_t gpu;

static hsa_status_t
find_gpu(hsa_agent_t agent, void *data)
{
   hsa_device_type_t type;
   if (hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type) == HSA_STATUS_SUCCESS &&
       type == HSA_DEVICE_TYPE_GPU) {
      *(hsa_agent_t *)data = agent;
      return HSA_STATUS_INFO_BREAK;
   }
   return HSA_STATUS_SUCCESS;
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
   fuzz_default_env();
   if (hsa_init() != HSA_STATUS_SUCCESS || hsa_iterate_agents(find_gpu, &gpu) !=
                                              HSA_STATUS_INFO_BREAK)
      abort();
   return 0;
}

static hsa_status_t
query_symbol(hsa_executable_t exec, hsa_executable_symbol_t s, void *data)
{
   hsa_symbol_kind_t kind;
   uint32_t len = 0;
   if (hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_TYPE, &kind) ||
       hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_NAME_LENGTH, &len))
      abort();
   char *name = malloc(len + 1u);
   if (!name)
      return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
   if (hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_NAME, name))
      abort();
   name[len] = '\0';
   hsa_executable_symbol_t again;
   if (kind == HSA_SYMBOL_KIND_KERNEL) {
      uint64_t object = 0;
      uint32_t kernarg = 0, group = 0, priv = 0;
      if (hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT,
                                         &object) ||
          hsa_executable_symbol_get_info(
             s, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE, &kernarg) ||
          hsa_executable_symbol_get_info(
             s, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE, &group) ||
          hsa_executable_symbol_get_info(
             s, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE, &priv))
         abort();
   } else if (kind == HSA_SYMBOL_KIND_VARIABLE) {
      uint64_t address = 0;
      if (hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS,
                                         &address))
         abort();
   }
   /* Lookup by name must find a symbol (names may repeat; the first is fine). */
   if (strlen(name) == len &&
       hsa_executable_get_symbol_by_name(exec, name, &gpu, &again) != HSA_STATUS_SUCCESS &&
       hsa_executable_get_symbol_by_name(exec, name, NULL, &again) != HSA_STATUS_SUCCESS)
      abort();
   free(name);
   return HSA_STATUS_SUCCESS;
}

int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
   hsa_code_object_reader_t reader;
   hsa_executable_t exec;
   if (hsa_code_object_reader_create_from_memory(data, size, &reader) != HSA_STATUS_SUCCESS)
      return 0;
   if (hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
                                 NULL, &exec) != HSA_STATUS_SUCCESS)
      abort();
   if (hsa_executable_load_agent_code_object(exec, gpu, reader, NULL, NULL) ==
          HSA_STATUS_SUCCESS &&
       hsa_executable_freeze(exec, NULL) == HSA_STATUS_SUCCESS)
      hsa_executable_iterate_symbols(exec, query_symbol, NULL);
   hsa_executable_destroy(exec);
   hsa_code_object_reader_destroy(reader);
   return 0;
}
