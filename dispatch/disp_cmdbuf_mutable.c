/*
 * dispatch/disp_cmdbuf_mutable.c — cl_khr_command_buffer_mutable_dispatch 0.9.5:
 * clUpdateMutableCommandsKHR and clGetMutableCommandInfoKHR.
 *
 * A recorded launch keeps its arguments in a clone of the application's kernel
 * (disp_cmdbuf_record.c). An update builds the new state on a fresh clone of that clone
 * (arguments, SVM arguments, exec info) and new work sizes, checks the launch with them in
 * dry-run mode, and only when every configuration passed swaps them in: an update that
 * fails changes nothing. Updates and replays exclude each other through the command
 * buffer's lock, so a replay enqueues either the old or the new state, never a mix; replays
 * already enqueued keep the kernel state they were enqueued with (a launch writes its kernarg
 * segment when it is enqueued; a pre-built replay holds the image it was enqueued with).
 */
#include "dispatch/disp.h"
#include "dispatch/disp_priv.h"
#include "compiler/comp.h"
#include "platform/plat.h"

#include <string.h>

/* The fields of `l` an update may change: what the command's properties named, else every
 * field the device can update. */
cl_mutable_dispatch_fields_khr
disp__mutable_updatable(const struct _cl_mutable_command_khr *l)
{
   for (cl_uint i = 0; i + 1 < l->num_props && l->props[i]; i += 2)
      if (l->props[i] == CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR)
         return l->updatable;
   return ICD_CMDBUF_MUTABLE_CAPABILITIES;
}

/* One configuration's new state, before it is committed. */
struct update {
   struct _cl_mutable_command_khr *l;
   cl_kernel clone; /* the new arguments (an API reference); NULL: unchanged */
   size_t offset[3], global[3], local[3];
   bool has_offset, has_local;
   bool args_pending;
   struct disp__launch_plan plan;
};

static cl_int
need_field(const struct _cl_mutable_command_khr *l, cl_mutable_dispatch_fields_khr f,
           const char *what)
{
   if (!(disp__mutable_updatable(l) & f))
      return ICD_ERROR(CL_INVALID_OPERATION, "the command's %s is not updatable", what);
   return CL_SUCCESS;
}

static cl_int
apply_args(const struct icd_mutable_dispatch_config *cfg, cl_kernel k)
{
   cl_int err = CL_SUCCESS;
   for (cl_uint i = 0; i < cfg->num_args && err == CL_SUCCESS; i++)
      err = comp_SetKernelArg(k, cfg->arg_list[i].arg_index, cfg->arg_list[i].arg_size,
                              cfg->arg_list[i].arg_value);
   for (cl_uint i = 0; i < cfg->num_svm_args && err == CL_SUCCESS; i++)
      err = comp_SetKernelArgSVMPointer(k, cfg->arg_svm_list[i].arg_index,
                                        cfg->arg_svm_list[i].arg_value);
   for (cl_uint i = 0; i < cfg->num_exec_infos && err == CL_SUCCESS; i++)
      err = comp_SetKernelExecInfo(k, cfg->exec_info_list[i].param_name,
                                   cfg->exec_info_list[i].param_value_size,
                                   cfg->exec_info_list[i].param_value);
   return err;
}

/* Checks one configuration of `cb` and builds its new state in *u. */
static cl_int
prepare(struct _cl_command_buffer_khr *cb, const struct icd_mutable_dispatch_config *cfg,
        struct update *u)
{
   struct _cl_mutable_command_khr *l = disp_mutable_from_handle(cfg->command);
   if (!l || l->cmdbuf != cb)
      return ICD_ERROR(CL_INVALID_MUTABLE_COMMAND_KHR,
                       "%p is not a command of this command "
                       "buffer",
                       (void *)cfg->command);
   u->l = l;
   if (cfg->work_dim && cfg->work_dim != l->work_dim)
      return ICD_ERROR(CL_INVALID_VALUE, "work_dim %u differs from the recorded %u", cfg->work_dim,
                       l->work_dim);
   if ((cfg->num_args && !cfg->arg_list) || (!cfg->num_args && cfg->arg_list) ||
       (cfg->num_svm_args && !cfg->arg_svm_list) || (!cfg->num_svm_args && cfg->arg_svm_list) ||
       (cfg->num_exec_infos && !cfg->exec_info_list) ||
       (!cfg->num_exec_infos && cfg->exec_info_list))
      return ICD_ERROR(CL_INVALID_VALUE, "an argument or exec-info list disagrees with its "
                                         "count");
   cl_int err = CL_SUCCESS;
   if (cfg->num_args || cfg->num_svm_args)
      err = need_field(l, CL_MUTABLE_DISPATCH_ARGUMENTS_KHR, "arguments");
   if (err == CL_SUCCESS && cfg->num_exec_infos)
      err = need_field(l, CL_MUTABLE_DISPATCH_EXEC_INFO_KHR, "exec info");
   if (err == CL_SUCCESS && cfg->global_work_offset)
      err = need_field(l, CL_MUTABLE_DISPATCH_GLOBAL_OFFSET_KHR, "global offset");
   if (err == CL_SUCCESS && cfg->global_work_size)
      err = need_field(l, CL_MUTABLE_DISPATCH_GLOBAL_SIZE_KHR, "global size");
   if (err == CL_SUCCESS && cfg->local_work_size)
      err = need_field(l, CL_MUTABLE_DISPATCH_LOCAL_SIZE_KHR, "local size");
   if (err != CL_SUCCESS)
      return err;
   memcpy(u->offset, l->offset, sizeof(u->offset));
   memcpy(u->global, l->global, sizeof(u->global));
   memcpy(u->local, l->local, sizeof(u->local));
   u->has_offset = l->has_offset;
   u->has_local = l->has_local;
   for (cl_uint i = 0; i < l->work_dim; i++) {
      if (cfg->global_work_offset)
         u->offset[i] = cfg->global_work_offset[i];
      if (cfg->global_work_size)
         u->global[i] = cfg->global_work_size[i];
      if (cfg->local_work_size)
         u->local[i] = cfg->local_work_size[i];
   }
   u->has_offset |= cfg->global_work_offset != NULL;
   u->has_local |= cfg->local_work_size != NULL;
   cl_kernel k = l->clone;
   if (cfg->num_args || cfg->num_svm_args || cfg->num_exec_infos) {
      u->clone = comp_CloneKernel(l->clone, &err);
      if (err != CL_SUCCESS)
         return err;
      err = apply_args(cfg, u->clone);
      if (err != CL_SUCCESS)
         return err;
      k = u->clone;
   }
   /* The launch's checks with the new state, and the plan a replay will enqueue. */
   err = disp__launch_prepare(disp_queue_to_handle(cb->queues[l->queue_index]), k, l->work_dim,
                              u->has_offset ? u->offset : NULL, u->global,
                              u->has_local ? u->local : NULL, &u->plan);
   u->args_pending = false;
   if (err == CL_INVALID_KERNEL_ARGS && l->args_pending) {
      /* Still not every argument: the command keeps waiting for another update. */
      u->args_pending = true;
      err = CL_SUCCESS;
   }
   return err;
}

static void
commit(struct update *u)
{
   struct _cl_mutable_command_khr *l = u->l;
   if (u->clone) {
      comp_ReleaseKernel(l->clone);
      l->clone = u->clone;
      u->clone = NULL;
   }
   memcpy(l->offset, u->offset, sizeof(l->offset));
   memcpy(l->global, u->global, sizeof(l->global));
   memcpy(l->local, u->local, sizeof(l->local));
   l->has_offset = u->has_offset;
   l->has_local = u->has_local;
   l->args_pending = u->args_pending;
   l->plan = u->plan;
}

/* The pre-built replay follows the committed updates: the packets of the commands they
 * changed are rebuilt (in place when no replay holds them, disp_cmdbuf_image.c). */
static void
refresh_image_locked(struct _cl_command_buffer_khr *cb, const struct update *u, cl_uint n)
{
   cl_uint *changed = icd_malloc(n * sizeof(*changed));
   cl_uint m = 0;
   for (cl_uint i = 0; changed && i < n; i++) {
      cl_uint c = 0;
      while (c < cb->num_commands && cb->commands[c].launch != u[i].l)
         c++;
      changed[m++] = c;
   }
   /* Out of memory for the list: built anew. */
   disp__cmdbuf_image_refresh_locked(cb, changed, m);
   icd_free(changed);
}

cl_int CL_API_CALL
disp_UpdateMutableCommandsKHR(cl_command_buffer_khr command_buffer, cl_uint num_configs,
                              const icd_command_buffer_update_type_khr *config_types,
                              const void **configs)
{
   struct _cl_command_buffer_khr *cb = disp_cmdbuf_from_handle(command_buffer);
   if (!cb)
      return ICD_ERROR(CL_INVALID_COMMAND_BUFFER_KHR, "%p is not a command buffer",
                       (void *)command_buffer);
   if (!(cb->flags & CL_COMMAND_BUFFER_MUTABLE_KHR))
      return ICD_ERROR(CL_INVALID_OPERATION, "the command buffer was not created mutable");
   if (!num_configs || !config_types || !configs)
      return ICD_ERROR(CL_INVALID_VALUE, "no configurations");
   for (cl_uint i = 0; i < num_configs; i++) {
      if (config_types[i] != ICD_STRUCTURE_TYPE_MUTABLE_DISPATCH_CONFIG_KHR)
         return ICD_ERROR(CL_INVALID_VALUE, "config_types[%u] = %u is unknown", i, config_types[i]);
      if (!configs[i])
         return ICD_ERROR(CL_INVALID_VALUE, "configs[%u] is NULL", i);
   }
   struct update *u = icd_calloc(num_configs, sizeof(*u));
   if (!u)
      return ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "allocating an update");
   cl_int err = CL_SUCCESS;
   pthread_mutex_lock(&cb->lock);
   if (!cb->finalized)
      err = ICD_ERROR(CL_INVALID_OPERATION, "the command buffer is not finalized");
   for (cl_uint i = 0; i < num_configs && err == CL_SUCCESS; i++)
      err = prepare(cb, configs[i], &u[i]);
   for (cl_uint i = 0; i < num_configs && err == CL_SUCCESS; i++)
      commit(&u[i]);
   if (err == CL_SUCCESS)
      refresh_image_locked(cb, u, num_configs);
   pthread_mutex_unlock(&cb->lock);
   for (cl_uint i = 0; i < num_configs; i++)
      if (u[i].clone)
         comp_ReleaseKernel(u[i].clone);
   icd_free(u);
   return err;
}

cl_int CL_API_CALL
disp_GetMutableCommandInfoKHR(cl_mutable_command_khr command,
                              cl_mutable_command_info_khr param_name, size_t param_value_size,
                              void *param_value, size_t *param_value_size_ret)
{
   struct _cl_mutable_command_khr *l = disp_mutable_from_handle(command);
   if (!l)
      return ICD_ERROR(CL_INVALID_MUTABLE_COMMAND_KHR, "%p is not a mutable command",
                       (void *)command);
   const size_t pvs = param_value_size;
   void *pv = param_value;
   size_t *pvsr = param_value_size_ret;
   struct _cl_command_buffer_khr *cb = l->cmdbuf;
   switch (param_name) {
   case CL_MUTABLE_COMMAND_COMMAND_QUEUE_KHR:
      return ICD_GET_INFO_SCALAR(cl_command_queue, disp_queue_to_handle(cb->queues[l->queue_index]),
                                 pvs, pv, pvsr);
   case CL_MUTABLE_COMMAND_COMMAND_BUFFER_KHR:
      return ICD_GET_INFO_SCALAR(cl_command_buffer_khr, disp_cmdbuf_to_handle(cb), pvs, pv, pvsr);
   case CL_MUTABLE_COMMAND_COMMAND_TYPE_KHR:
      return ICD_GET_INFO_SCALAR(cl_command_type, CL_COMMAND_NDRANGE_KERNEL, pvs, pv, pvsr);
   case CL_MUTABLE_COMMAND_PROPERTIES_ARRAY_KHR:
      return icd_get_info(l->props, l->num_props * sizeof(l->props[0]), pvs, pv, pvsr);
   case CL_MUTABLE_DISPATCH_KERNEL_KHR:
      return ICD_GET_INFO_SCALAR(cl_kernel, l->kernel, pvs, pv, pvsr);
   case CL_MUTABLE_DISPATCH_DIMENSIONS_KHR:
      return ICD_GET_INFO_SCALAR(cl_uint, l->work_dim, pvs, pv, pvsr);
   case CL_MUTABLE_DISPATCH_GLOBAL_WORK_OFFSET_KHR: {
      pthread_mutex_lock(&cb->lock);
      size_t v[3];
      memcpy(v, l->offset, sizeof(v));
      pthread_mutex_unlock(&cb->lock);
      return icd_get_info(v, l->work_dim * sizeof(size_t), pvs, pv, pvsr);
   }
   case CL_MUTABLE_DISPATCH_GLOBAL_WORK_SIZE_KHR: {
      pthread_mutex_lock(&cb->lock);
      size_t v[3];
      memcpy(v, l->global, sizeof(v));
      pthread_mutex_unlock(&cb->lock);
      return icd_get_info(v, l->work_dim * sizeof(size_t), pvs, pv, pvsr);
   }
   case CL_MUTABLE_DISPATCH_LOCAL_WORK_SIZE_KHR: {
      pthread_mutex_lock(&cb->lock);
      size_t v[3];
      memcpy(v, l->local, sizeof(v));
      bool has = l->has_local;
      pthread_mutex_unlock(&cb->lock);
      if (!has)
         memset(v, 0, sizeof(v));
      return icd_get_info(v, l->work_dim * sizeof(size_t), pvs, pv, pvsr);
   }
   default:
      return ICD_ERROR(CL_INVALID_VALUE, "unknown mutable-command info 0x%x", param_name);
   }
}
