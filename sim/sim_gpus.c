/*
 * sim/sim_gpus.c — the GPUs the software GPU shows under both of its front ends: how many
 * (HSACL_KFD_GPUS) and who each one is (unique id, PCI location). The software HSA runtime
 * (sim_agent.c) and the software KFD (kfd/kfd_topology.c) both build their GPUs from here,
 * so that an application sees the same agents through libhsacl-sim.so as through ROCr over
 * the software KFD (ROCr returns the KFD's UniqueID as the agent UUID, its LocationId as
 * the BDFID and the node id as HSA_AGENT_INFO_NODE: amd_gpu_agent.cpp, rocm-5.2.3).
 */
#include <stdio.h>
#include <stdlib.h>

#include "sim_priv.h"

uint32_t
sim__gpus_from_env(void)
{
   const char *e = getenv("HSACL_KFD_GPUS");
   if (!e || !*e)
      return 1;
   char *end;
   long n = strtol(e, &end, 10);
   if (*end || n < 1 || n > SIM_MAX_GPUS) {
      /* A setting the user got wrong: said whatever HSACL_LOG is (as HSACL_SIM_WATCHDOG). */
      fprintf(stderr, "hsacl-sim: HSACL_KFD_GPUS=%s is not 1..%d: using 1\n", e, SIM_MAX_GPUS);
      return 1;
   }
   return (uint32_t)n;
}

uint64_t
sim__gpu_unique_id(uint32_t gpu)
{
   return 0x6873636c00000000ull + gpu + 1; /* "hscl", then the node id */
}

uint32_t
sim__gpu_location_id(uint32_t gpu)
{
   return (0x10u + gpu) << 8; /* bus 0x10 + gpu, device 0, function 0 */
}
