/*
 * sim/sim_gpus.c — the GPUs the software GPU shows under both of its front ends: how many
 * and which targets (HSACL_SIM_GPUS, a comma list such as "gfx906,gfx90a"; else
 * HSACL_KFD_GPUS gfx906s) and who each one is (unique id, PCI location). The software HSA runtime
 * (sim_agent.c) and the software KFD (kfd/kfd_topology.c) both build their GPUs from here,
 * so that an application sees the same agents through libhsacl-sim.so as through ROCr over
 * the software KFD (ROCr returns the KFD's UniqueID as the agent UUID, its LocationId as
 * the BDFID and the node id as HSA_AGENT_INFO_NODE: amd_gpu_agent.cpp, rocm-5.2.3).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_priv.h"

/* Who each GPU is, from the last sim__gpus_from_env (both front ends read the same
 * environment, so they agree). */
static const sim_target *gpu_targets[SIM_MAX_GPUS];

static uint32_t
count_from_env(void)
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

/* HSACL_SIM_GPUS: "gfx906,gfx90a" -> targets; 0 (and a message) for a list that names
 * an unknown target, is empty or too long. */
static uint32_t
targets_from_list(const char *list, const sim_target **out)
{
   uint32_t n = 0;
   const char *p = list;
   for (;;) {
      size_t len = strcspn(p, ",");
      char name[32];
      if (len == 0 || len >= sizeof(name)) {
         fprintf(stderr, "hsacl-sim: HSACL_SIM_GPUS=%s: an empty or overlong entry; it is a "
                 "comma list of targets (%s)\n", list, sim__target_names());
         return 0;
      }
      memcpy(name, p, len);
      name[len] = 0;
      const sim_target *t = sim__target_by_name(name);
      if (!t) {
         fprintf(stderr, "hsacl-sim: HSACL_SIM_GPUS=%s: unknown target \"%s\"; the software "
                 "GPU models %s\n", list, name, sim__target_names());
         return 0;
      }
      if (n == SIM_MAX_GPUS) {
         fprintf(stderr, "hsacl-sim: HSACL_SIM_GPUS=%s: more than %d GPUs\n", list,
                 SIM_MAX_GPUS);
         return 0;
      }
      out[n++] = t;
      if (!p[len])
         return n;
      p += len + 1;
   }
}

uint32_t
sim__gpus_from_env(void)
{
   const sim_target *t[SIM_MAX_GPUS];
   const char *list = getenv("HSACL_SIM_GPUS");
   uint32_t n;
   if (list && *list) {
      n = targets_from_list(list, t);
      if (n == 0)
         return 0;
   } else {
      n = count_from_env();
      for (uint32_t i = 0; i < n; i++)
         t[i] = sim__target(SIM_TARGET_GFX906);
   }
   for (uint32_t i = 0; i < n; i++) {
      gpu_targets[i] = t[i];
      sim__isa_agent_target_set(i, t[i]);
   }
   return n;
}

const sim_target *
sim__gpu_target(uint32_t gpu)
{
   const sim_target *t = gpu < SIM_MAX_GPUS ? gpu_targets[gpu] : NULL;
   return t ? t : sim__target(SIM_TARGET_GFX906);
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
