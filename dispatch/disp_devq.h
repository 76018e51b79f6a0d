/*
 * dispatch/disp_devq.h — device-side enqueue's driver half (disp_devq.c): device queues and
 * the launch of a kernel whose children the GPU schedules (docs/devenq.md).
 */
#ifndef DISP_DEVQ_H
#define DISP_DEVQ_H

#include <stdbool.h>
#include <stdint.h>
#include <CL/cl.h>
#include <hsa/hsa.h>

struct _cl_context;
struct _cl_device_id;
struct disp_devq;
struct disp_devq_tree;

/* True when the device supports device-side enqueue (the OpenCL 3.0 profile: the feature
 * __opencl_c_device_enqueue): on-device queues may be created. */
bool disp_devq_enabled(void);

/* A device queue of about `size` bytes of records, with its scheduler built for `dev`. */
cl_int disp_devq_create(struct _cl_context *ctx, cl_context ctx_handle, struct _cl_device_id *dev,
                        cl_device_id dev_handle, cl_uint size, struct disp_devq **out);
void disp_devq_destroy(struct disp_devq *dq);

/* The queue_t value kernels see (hidden_default_queue), 0 for NULL. */
uint64_t disp_devq_address(const struct disp_devq *dq);

/* Records `dq` (of cl_command_queue `owner`) as a device queue of `dev`: CL_OUT_OF_RESOURCES
 * beyond PLAT_DEVQ_MAX_QUEUES (platform/plat.h). disp_devq_forget undoes it. */
cl_int disp_devq_register(const struct _cl_device_id *dev, struct disp_devq *dq, void *owner);
void disp_devq_forget(struct disp_devq *dq);

/* The default device queue of `dev` (CL_QUEUE_ON_DEVICE_DEFAULT, clSetDefaultDevice-
 * CommandQueue) or NULL; its cl_command_queue; making `dq` (registered) the default. */
struct disp_devq *disp_devq_default(const struct _cl_device_id *dev);
void *disp_devq_default_owner(const struct _cl_device_id *dev);
void disp_devq_set_default(const struct _cl_device_id *dev, struct disp_devq *dq);

/* Starts a tree before its parent kernel is written to the host's queue: the parent's
 * packet completes `*parent_signal` and must wait for `*wait_signal` (when its handle is not
 * 0: the device queue's previous tree); `*done_signal` reaches 0 when the tree is over.
 * Children get `printf_buffer` (may be NULL) as hidden_printf_buffer. */
cl_int disp_devq_tree_start(struct disp_devq *dq, void *printf_buffer, hsa_signal_t *parent_signal,
                            hsa_signal_t *done_signal, hsa_signal_t *wait_signal,
                            struct disp_devq_tree **out);
/* The parent's packet could not be written: the tree never runs. */
void disp_devq_tree_abort(struct disp_devq_tree *t);
/* The launch is over. */
void disp_devq_tree_finish(struct disp_devq_tree *t);

#endif
