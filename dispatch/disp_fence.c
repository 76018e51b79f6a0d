/*
 * Fence scopes of the AQL packets (AMDGPUUsage "Memory Model GFX6-GFX9"; HSA PRM §2.7.3).
 *
 * On gfx9 a packet's system-scope release writes the agent's L2 back and its system-scope
 * acquire invalidates it; agent scope costs nothing, since one L2 serves the whole agent.
 * Kernels of one device see each other's writes with agent scope; the host, the copy
 * engine (SDMA or hsacl's software one) and other agents see them only after a
 * system-scope release. So, in a context with one device:
 *   - a kernel's packet releases at agent scope, and acquires at system scope only when
 *     something other than a kernel of this device may have written memory since the
 *     device's last system-scope acquire (the "write epoch": every command that is not a
 *     kernel, and every write the driver makes itself, advances it);
 *   - a command that is not a kernel (a copy, a map, a host-side transfer, a marker) and
 *     whose dependencies include an agent-released kernel, or that comes after kernels of
 *     its device completed with no system-scope release since, waits for a barrier-AND
 *     with a system-scope release on its own queue (same device, same L2) instead.
 * Kernels in a context with several devices keep system scope both ways (a kernel on one
 * device may read what one on another wrote; the second device has its own L2).
 * HSACL_FENCE_SCOPE=system puts system scope on every packet (the behaviour before).
 *
 * "Completed since the last release" is counted per device: each agent-released kernel
 * adds one to `completed` when it completes (before its event reads CL_COMPLETE, so a host
 * that saw the completion enqueues after the count moved); a release barrier covers the
 * count it read when it was written, and `covered` takes that value when the command
 * behind it completes.
 */
#include "disp_priv.h"

#include "platform/plat.h"

#include <stdlib.h>
#include <string.h>

/* Per device, in the device's PLAT_SLOT_FENCE slot. */
struct fence_device {
   _Atomic uint64_t completed; /* agent-released kernels completed */
   _Atomic uint64_t covered;   /* of those, written back by a completed system release */
   _Atomic uint64_t acquired;  /* write epoch at the device's last system-scope acquire */
};

static _Atomic uint64_t write_epoch = 1;
static int fence_mode = -1; /* 0: auto, 1: system everywhere */
static pthread_once_t mode_once = PTHREAD_ONCE_INIT;

static void
mode_init(void)
{
   const char *s = getenv("HSACL_FENCE_SCOPE");
   fence_mode = 0;
   if (s && *s) {
      if (strcmp(s, "system") == 0)
         fence_mode = 1;
      else if (strcmp(s, "auto") != 0)
         icd_log(ICD_LOG_WARN, "dispatch",
                 "HSACL_FENCE_SCOPE=%s is not 'auto' or 'system': using auto", s);
   }
}

/* The device's counters, created zeroed on first use; NULL only when out of memory (then:
 * system scope). */
static struct fence_device *
device_state(const struct _cl_device_id *dev)
{
   return plat_device_slot(dev, PLAT_SLOT_FENCE, sizeof(struct fence_device));
}

/* The counters of q's device when agent scope may be used for kernels of queue `q`; else
 * NULL. */
static struct fence_device *
agent_scope_state(const struct _cl_command_queue *q)
{
   pthread_once(&mode_once, mode_init);
   if (fence_mode != 0 || q->context->num_devices != 1)
      return NULL;
   return device_state(q->device);
}

/* Agent scope may be used for kernels of queue `q`. */
static bool
agent_scope_allowed(const struct _cl_command_queue *q)
{
   return agent_scope_state(q) != NULL;
}

void
disp_fence_host_wrote(void)
{
   atomic_fetch_add(&write_epoch, 1);
}

uint16_t
disp__fence_kernel_scopes(struct disp_command *cmd)
{
   struct fence_device *fd = agent_scope_state(cmd->queue);
   if (!fd)
      return (uint16_t)((HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) |
                        (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE));
   hsa_fence_scope_t acquire = HSA_FENCE_SCOPE_AGENT;
   uint64_t epoch = atomic_load(&write_epoch);
   /* The exchange only when the epoch moved: a locked instruction per launch on a line
    * every enqueueing thread shares. */
   if (atomic_load(&fd->acquired) != epoch && atomic_exchange(&fd->acquired, epoch) != epoch)
      acquire = HSA_FENCE_SCOPE_SYSTEM;
   /* Published to other threads by what makes the event reachable (the queue's last_event
    * exchange, the FIFO push, the application's own synchronisation): release suffices. */
   atomic_store_explicit(&cmd->event->agent_release, true, memory_order_release);
   return (uint16_t)((acquire << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) |
                     (HSA_FENCE_SCOPE_AGENT << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE));
}

uint16_t
disp__fence_barrier_scopes(const struct _cl_command_queue *q)
{
   hsa_fence_scope_t s = agent_scope_allowed(q) ? HSA_FENCE_SCOPE_AGENT : HSA_FENCE_SCOPE_SYSTEM;
   return (uint16_t)((s << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) |
                     (s << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE));
}

uint16_t
disp__fence_release_scopes(void)
{
   return (uint16_t)((HSA_FENCE_SCOPE_NONE << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) |
                     (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE));
}

void
disp__fence_kernel_completed(struct disp_command *cmd)
{
   if (!atomic_load(&cmd->event->agent_release))
      return;
   struct fence_device *fd = device_state(cmd->queue->device);
   atomic_fetch_add(&fd->completed, 1);
}

/* Whether event `ev` (a dependency) ends in an agent-scope release. */
static bool
agent_released(const struct _cl_event *ev)
{
   return ev && atomic_load(&ev->agent_release);
}

bool
disp__fence_release_needed(struct disp_command *cmd)
{
   struct _cl_command_queue *q = cmd->queue;
   cl_command_type type = cmd->event->command_type;
   if (type == CL_COMMAND_MARKER || type == CL_COMMAND_BARRIER) {
      /* Markers touch no memory: they pass their dependencies' agent-scope releases on
       * to whatever waits for them. */
      for (cl_uint i = 0; i <= cmd->num_deps; i++) {
         if (agent_released(i < cmd->num_deps ? cmd->deps[i] : cmd->prev)) {
            atomic_store(&cmd->event->agent_release, true);
            break;
         }
      }
      return false;
   }
   /* The command writes memory behind the device's L2 (or the host does after it); reads
    * and maps write only host memory (an unmap is where mapped data comes back). */
   if (type != CL_COMMAND_READ_BUFFER && type != CL_COMMAND_READ_BUFFER_RECT &&
       type != CL_COMMAND_READ_IMAGE && type != CL_COMMAND_MAP_BUFFER &&
       type != CL_COMMAND_MAP_IMAGE && type != CL_COMMAND_SVM_MAP)
      atomic_fetch_add(&write_epoch, 1);
   if (!agent_scope_allowed(q))
      return false;
   struct fence_device *fd = device_state(q->device);
   uint64_t completed = atomic_load(&fd->completed);
   bool need = completed != atomic_load(&fd->covered);
   for (cl_uint i = 0; !need && i <= cmd->num_deps; i++)
      need = agent_released(i < cmd->num_deps ? cmd->deps[i] : cmd->prev);
   if (need)
      cmd->release_covers = completed;
   return need;
}

void
disp__fence_released(struct disp_command *cmd)
{
   struct fence_device *fd = device_state(cmd->queue->device);
   if (!fd)
      return;
   uint64_t c = atomic_load(&fd->covered);
   while (c < cmd->release_covers &&
          !atomic_compare_exchange_weak(&fd->covered, &c, cmd->release_covers))
      ;
}
