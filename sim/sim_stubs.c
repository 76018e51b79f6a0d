/*
 * sim/sim_stubs.c — ROCR_1 entry points the software runtime does not implement: vendor
 * images from interop metadata (hsa_amd_image_create; the image extension itself is
 * sim_image.c), the HSAIL finalizer, the deprecated hsa_code_object_t API, IPC, SVM,
 * interop, migration and deallocation callbacks. They exist so every program linked against ROCr
 * loads; each validates initialisation and answers HSA_STATUS_ERROR ("not supported"),
 * except the coherency and system-event calls, which have a meaningful trivial answer.
 * Generated once from the Debian headers' prototypes; edit by hand.
 */
#include <hsa/hsa_ext_finalize.h>
#include <hsa/hsa_ext_image.h>

#include "sim_priv.h"

SIM_EXPORT hsa_status_t
hsa_ext_program_add_module(hsa_ext_program_t program, hsa_ext_module_t module)
{
   SIM_CHECK_INIT();
   return HSA_STATUS_ERROR;
}

SIM_EXPORT hsa_status_t
hsa_ext_program_create(hsa_machine_model_t machine_model, hsa_profile_t profile, hsa_default_float_rounding_mode_t default_float_rounding_mode, const char *options, hsa_ext_program_t *program)
{
   SIM_CHECK_INIT();
   return HSA_STATUS_ERROR;
}

SIM_EXPORT hsa_status_t
hsa_ext_program_destroy(hsa_ext_program_t program)
{
   SIM_CHECK_INIT();
   return HSA_STATUS_ERROR;
}

SIM_EXPORT hsa_status_t
hsa_ext_program_finalize(hsa_ext_program_t program, hsa_isa_t isa, int32_t call_convention, hsa_ext_control_directives_t control_directives, const char *options, hsa_code_object_type_t code_object_type, hsa_code_object_t *code_object)
{
   SIM_CHECK_INIT();
   return HSA_STATUS_ERROR;
}

SIM_EXPORT hsa_status_t
hsa_ext_program_get_info(hsa_ext_program_t program, hsa_ext_program_info_t attribute, void *value)
{
   SIM_CHECK_INIT();
   return HSA_STATUS_ERROR;
}

SIM_EXPORT hsa_status_t
hsa_ext_program_iterate_modules(hsa_ext_program_t program, hsa_status_t (*callback)(hsa_ext_program_t program, hsa_ext_module_t module, void* data), void* data)
{
   SIM_CHECK_INIT();
   return HSA_STATUS_ERROR;
}

SIM_EXPORT hsa_status_t
hsa_code_object_deserialize(void *serialized_code_object, size_t serialized_code_object_size, const char *options, hsa_code_object_t *code_object)
{
   SIM_CHECK_INIT();
   return HSA_STATUS_ERROR;
}

SIM_EXPORT hsa_status_t
hsa_code_object_destroy(hsa_code_object_t code_object)
{
   SIM_CHECK_INIT();
   return HSA_STATUS_ERROR;
}

SIM_EXPORT hsa_status_t
hsa_code_object_get_info(hsa_code_object_t code_object, hsa_code_object_info_t attribute, void *value)
{
   SIM_CHECK_INIT();
   return HSA_STATUS_ERROR;
}

SIM_EXPORT hsa_status_t
hsa_code_object_get_symbol(hsa_code_object_t code_object, const char *symbol_name, hsa_code_symbol_t *symbol)
{
   SIM_CHECK_INIT();
   return HSA_STATUS_ERROR;
}

SIM_EXPORT hsa_status_t
hsa_code_object_get_symbol_from_name(hsa_code_object_t code_object, const char *module_name, const char *symbol_name, hsa_code_symbol_t *symbol)
{
   SIM_CHECK_INIT();
   return HSA_STATUS_ERROR;
}

SIM_EXPORT hsa_status_t
hsa_code_object_iterate_symbols(hsa_code_object_t code_object, hsa_status_t (*callback)(hsa_code_object_t code_object, hsa_code_symbol_t symbol, void *data), void *data)
{
   SIM_CHECK_INIT();
   return HSA_STATUS_ERROR;
}

SIM_EXPORT hsa_status_t
hsa_code_object_serialize(hsa_code_object_t code_object, hsa_status_t (*alloc_callback)(size_t size, hsa_callback_data_t data, void **address), hsa_callback_data_t callback_data, const char *options, void **serialized_code_object, size_t *serialized_code_object_size)
{
   SIM_CHECK_INIT();
   return HSA_STATUS_ERROR;
}

SIM_EXPORT hsa_status_t
hsa_code_symbol_get_info(hsa_code_symbol_t code_symbol, hsa_code_symbol_info_t attribute, void *value)
{
   SIM_CHECK_INIT();
   return HSA_STATUS_ERROR;
}

SIM_EXPORT hsa_status_t
hsa_executable_load_code_object(hsa_executable_t executable, hsa_agent_t agent, hsa_code_object_t code_object, const char *options)
{
   SIM_CHECK_INIT();
   return HSA_STATUS_ERROR;
}

SIM_EXPORT hsa_status_t
hsa_amd_coherency_get_type(hsa_agent_t agent, hsa_amd_coherency_type_t* type)
{
   SIM_CHECK_INIT();
   enum sim_agent_kind kind;
   if (!sim__agent_from_handle(agent, &kind))
      return HSA_STATUS_ERROR_INVALID_AGENT;
   if (!type)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   *type = HSA_AMD_COHERENCY_TYPE_COHERENT;
   return HSA_STATUS_SUCCESS;
}

SIM_EXPORT hsa_status_t
hsa_amd_coherency_set_type(hsa_agent_t agent, hsa_amd_coherency_type_t type)
{
   SIM_CHECK_INIT();
   enum sim_agent_kind kind;
   if (!sim__agent_from_handle(agent, &kind))
      return HSA_STATUS_ERROR_INVALID_AGENT;
   return HSA_STATUS_SUCCESS; /* host memory is coherent either way */
}

SIM_EXPORT hsa_status_t
hsa_amd_deregister_deallocation_callback(void* ptr, hsa_amd_deallocation_callback_t callback)
{
   SIM_CHECK_INIT();
   return HSA_STATUS_ERROR;
}

SIM_EXPORT hsa_status_t
hsa_amd_image_create(hsa_agent_t agent, const hsa_ext_image_descriptor_t *image_descriptor, const hsa_amd_image_descriptor_t *image_layout, const void *image_data, hsa_access_permission_t access_permission, hsa_ext_image_t *image)
{
   SIM_CHECK_INIT();
   return HSA_STATUS_ERROR;
}

SIM_EXPORT hsa_status_t
hsa_amd_interop_map_buffer(uint32_t num_agents, hsa_agent_t* agents, int interop_handle, uint32_t flags, size_t* size, void** ptr, size_t* metadata_size, const void** metadata)
{
   SIM_CHECK_INIT();
   return HSA_STATUS_ERROR;
}

SIM_EXPORT hsa_status_t
hsa_amd_interop_unmap_buffer(void* ptr)
{
   SIM_CHECK_INIT();
   return HSA_STATUS_ERROR;
}

SIM_EXPORT hsa_status_t
hsa_amd_ipc_memory_attach(const hsa_amd_ipc_memory_t* handle, size_t len, uint32_t num_agents, const hsa_agent_t* mapping_agents, void** mapped_ptr)
{
   SIM_CHECK_INIT();
   return HSA_STATUS_ERROR;
}

SIM_EXPORT hsa_status_t
hsa_amd_ipc_memory_create(void* ptr, size_t len, hsa_amd_ipc_memory_t* handle)
{
   SIM_CHECK_INIT();
   return HSA_STATUS_ERROR;
}

SIM_EXPORT hsa_status_t
hsa_amd_ipc_memory_detach(void* mapped_ptr)
{
   SIM_CHECK_INIT();
   return HSA_STATUS_ERROR;
}

SIM_EXPORT hsa_status_t
hsa_amd_ipc_signal_attach(const hsa_amd_ipc_signal_t* handle, hsa_signal_t* signal)
{
   SIM_CHECK_INIT();
   return HSA_STATUS_ERROR;
}

SIM_EXPORT hsa_status_t
hsa_amd_ipc_signal_create(hsa_signal_t signal, hsa_amd_ipc_signal_t* handle)
{
   SIM_CHECK_INIT();
   return HSA_STATUS_ERROR;
}

SIM_EXPORT hsa_status_t
hsa_amd_memory_migrate(const void* ptr, hsa_amd_memory_pool_t memory_pool, uint32_t flags)
{
   SIM_CHECK_INIT();
   return HSA_STATUS_ERROR;
}

SIM_EXPORT hsa_status_t
hsa_amd_register_deallocation_callback(void* ptr, hsa_amd_deallocation_callback_t callback, void* user_data)
{
   SIM_CHECK_INIT();
   return HSA_STATUS_ERROR;
}

SIM_EXPORT hsa_status_t
hsa_amd_register_system_event_handler(hsa_amd_system_event_callback_t callback, void* data)
{
   SIM_CHECK_INIT();
   /* Accepted; the software GPU reports faults through queue error callbacks only. */
   return callback ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

SIM_EXPORT hsa_status_t
hsa_amd_svm_attributes_get(void* ptr, size_t size, hsa_amd_svm_attribute_pair_t* attribute_list, size_t attribute_count)
{
   SIM_CHECK_INIT();
   return HSA_STATUS_ERROR;
}

SIM_EXPORT hsa_status_t
hsa_amd_svm_attributes_set(void* ptr, size_t size, hsa_amd_svm_attribute_pair_t* attribute_list, size_t attribute_count)
{
   SIM_CHECK_INIT();
   return HSA_STATUS_ERROR;
}

SIM_EXPORT hsa_status_t
hsa_amd_svm_prefetch_async(void* ptr, size_t size, hsa_agent_t agent, uint32_t num_dep_signals, const hsa_signal_t* dep_signals, hsa_signal_t completion_signal)
{
   SIM_CHECK_INIT();
   return HSA_STATUS_ERROR;
}
