/* platform/plat_priv.h — shared between the files of platform/ only. */
#ifndef PLAT_PRIV_H
#define PLAT_PRIV_H

#include "platform/plat.h"

/* Builds the device for GPU agent `agent` from HSA queries and the target's record.
 * Returns a new device owned by the platform (never destroyed: root devices live as long
 * as the process). */
cl_int plat__device_create(struct _cl_platform_id *plat, hsa_agent_t agent,
                           struct _cl_device_id **out);

#endif
