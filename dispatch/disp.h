/*
 * dispatch/disp.h — what other modules use from dispatch/: the HSA runtime seam
 * (disp_hsa: the one table of HSA function pointers, filled by dlopen) and command queues.
 */
#ifndef DISP_H
#define DISP_H

#include "icd.h"
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <pthread.h>

/* ---- the HSA seam ------------------------------------------------------------------ */

typedef enum disp_runtime_kind {
   DISP_RUNTIME_ROCR = 1, /* ROCr's libhsa-runtime64.so.1 */
   DISP_RUNTIME_SIM,      /* hsacl's software runtime, libhsacl-sim.so */
   DISP_RUNTIME_PATH,     /* HSACL_RUNTIME=<path> */
} disp_runtime_kind;

struct disp_hsa {
#define HSA_FN(name) __typeof__(name) *name;
#include "dispatch/disp_hsa_functions.def"
#undef HSA_FN
   void *handle;
   disp_runtime_kind kind;
   char path[512]; /* what was dlopen'ed */
};

/*
 * The HSA runtime selected by HSACL_RUNTIME (auto|rocr|sim|<path>), initialised and holding
 * at least one GPU agent; NULL when none could be loaded. Loaded once per process; thread
 * safe. When NULL, disp_hsa_failure() says why (also logged, category "hsa").
 */
const struct disp_hsa *disp_hsa_get(void);
const char *disp_hsa_failure(void);

/* Maps an HSA status to the CL error the specification names for the failing operation
 * class (CL_OUT_OF_RESOURCES unless more specific), logging the HSA status string. */
cl_int disp_hsa_status_to_cl(hsa_status_t status, const char *what);

/* ---- command queues ---------------------------------------------------------------- */

struct _cl_command_queue {
   struct icd_object obj;
   struct _cl_context *context;  /* holds a reference */
   struct _cl_device_id *device;
   cl_command_queue_properties properties;
   cl_queue_properties *props;   /* as given to ...WithProperties, 0-terminated; or NULL */
   size_t num_props;             /* entries in props including the terminator */
   cl_uint size;                 /* CL_QUEUE_SIZE (device queues only) */
   hsa_queue_t *hsa_queue;       /* the AQL queue backing it */
   pthread_mutex_t lock;
};

ICD_DEFINE_HANDLE_CASTS(disp_queue, struct _cl_command_queue, cl_command_queue,
                        ICD_TYPE_COMMAND_QUEUE)

cl_int CL_API_CALL disp_Flush(cl_command_queue command_queue);
cl_int CL_API_CALL disp_Finish(cl_command_queue command_queue);
cl_command_queue CL_API_CALL disp_CreateCommandQueue(cl_context context, cl_device_id device,
                                                     cl_command_queue_properties properties,
                                                     cl_int *errcode_ret);
cl_command_queue CL_API_CALL disp_CreateCommandQueueWithProperties(
   cl_context context, cl_device_id device, const cl_queue_properties *properties,
   cl_int *errcode_ret);
cl_int CL_API_CALL disp_RetainCommandQueue(cl_command_queue command_queue);
cl_int CL_API_CALL disp_ReleaseCommandQueue(cl_command_queue command_queue);
cl_int CL_API_CALL disp_GetCommandQueueInfo(cl_command_queue command_queue,
                                            cl_command_queue_info param_name,
                                            size_t param_value_size, void *param_value,
                                            size_t *param_value_size_ret);

#endif
