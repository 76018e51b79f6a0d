/* platform/plat_priv.h — shared between the files of platform/ only. */
#ifndef PLAT_PRIV_H
#define PLAT_PRIV_H

#include "platform/plat.h"

/* Builds the device for GPU agent `agent` from HSA queries and the target's record.
 * Returns a new device owned by the platform (never destroyed: root devices live as long
 * as the process). */
cl_int plat__device_create(struct _cl_platform_id *plat, hsa_agent_t agent,
                           struct _cl_device_id **out);

/* The queries of cl_khr_pci_bus_info, cl_khr_device_uuid and cl_amd_device_attribute_query
 * (plat_device_amd.c): true when `param_name` is one of them, with the result in *err. */
bool plat__device_info_vendor(const struct _cl_device_id *dev, cl_device_info param_name,
                              size_t size, void *value, size_t *size_ret, cl_int *err);

/* The queries of cl_khr_spirv_queries (plat_device_spirv.c), as plat__device_info_vendor. */
bool plat__device_info_spirv(const struct _cl_device_id *dev, cl_device_info param_name,
                             size_t size, void *value, size_t *size_ret, cl_int *err);

/* Image support and limits (plat_device_image.c): sets dev->image_support; fills the image
 * fields of dev->limits (after the feature lists); answers the CL_DEVICE_IMAGE_* queries
 * and CL_DEVICE_MAX_SAMPLERS like plat__device_info_vendor. */
void plat__device_image_init(struct _cl_device_id *dev);
void plat__device_image_limits_init(struct _cl_device_id *dev);
bool plat__device_info_image(const struct _cl_device_id *dev, cl_device_info param_name,
                             size_t size, void *value, size_t *size_ret, cl_int *err);

/* When an entry of plat_extensions.def is reported (or'ed; plat_device_ext.c). */
#define PLAT_ALWAYS 0u
#define PLAT_CL20 1u   /* profiles with OpenCL C 2.0 */
#define PLAT_IL 2u     /* profiles with IL programs, with the SPIR-V translator present */
#define PLAT_IMAGES 4u /* devices with image support */
#define PLAT_CL30 8u   /* profiles of OpenCL 3.0 and later (clCreateBufferWithProperties) */
#define PLAT_MIPMAPS 16u /* devices with mipmap support (plat_device_image.c) */

/* Builds dev->extensions, features and their strings (plat_device_ext.c): after
 * dev->image_support is known. CL_OUT_OF_HOST_MEMORY leaves nothing allocated. */
cl_int plat__device_lists_init(struct _cl_device_id *dev);
void plat__device_lists_free(struct _cl_device_id *dev);

/* Builds the platform's extension lists from its devices (after discovery). */
cl_int plat__platform_lists_init(struct _cl_platform_id *plat);
void plat__platform_lists_free(struct _cl_platform_id *plat);

#endif
