/* Kernel dispatch entry of the interpreter. Until the interpreter exists, every kernel
 * dispatch fails with an illegal-instruction report, which the runtime forwards to the
 * queue's error callback (sim/sim_isa.h). */
#include <stdio.h>
#include "sim_isa.h"

hsa_status_t
sim__isa_dispatch(const hsa_kernel_dispatch_packet_t *packet, uint64_t packet_va,
                  sim_fault *fault)
{
   fault->kind = SIM_FAULT_ILLEGAL_INSTRUCTION;
   fault->address = 0;
   fault->pc = 0;
   snprintf(fault->message, sizeof(fault->message),
            "kernel execution is not implemented in this build of the software GPU");
   return HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION;
}

void
sim__isa_program_free(void *program)
{
   (void)program;
}
