/*
 * SOPP: program control ([ISA] 4.x "Program flow control", 12.x "SOPP instructions").
 * Branch targets are PC_next + SIMM16 * 4. Memory operations complete synchronously, so
 * s_waitcnt and hazard s_nop are no-ops.
 */
#include <time.h>
#include "sim_isa_priv.h"

/* A taken backward branch ends the wave's turn every SIM_WAVE_SLICE times. */
#define BRANCH()                                                                            \
   do {                                                                                     \
      w->pc += (int64_t)in->imm * 4;                                                        \
      if (in->imm < 0 && --w->slice == 0) {                                                 \
         w->slice = SIM_WAVE_SLICE;                                                         \
         w->status = SIM_WAVE_YIELD;                                                        \
      }                                                                                     \
   } while (0)

/* Do nothing (hazard padding). */
void
sim__op_s_nop(sim_wave *w, const sim_inst *in)
{
}

/* End of program; terminate the wavefront. */
void
sim__op_s_endpgm(sim_wave *w, const sim_inst *in)
{
   w->status = SIM_WAVE_ENDED;
}
void
sim__op_s_endpgm_saved(sim_wave *w, const sim_inst *in)
{
   w->status = SIM_WAVE_ENDED;
}
void
sim__op_s_endpgm_ordered_ps_done(sim_wave *w, const sim_inst *in)
{
   w->status = SIM_WAVE_ENDED;
}

/* PC = PC + signext(SIMM16 * 4) + 4. */
void
sim__op_s_branch(sim_wave *w, const sim_inst *in)
{
   BRANCH();
}

/* if (<cond>) PC = PC + signext(SIMM16 * 4) + 4. */
#define CBRANCH(name, cond)                                                                 \
   void sim__op_##name(sim_wave *w, const sim_inst *in)                                      \
   {                                                                                        \
      if (cond)                                                                             \
         BRANCH();                                                                          \
   }
CBRANCH(s_cbranch_scc0, w->scc == 0)
CBRANCH(s_cbranch_scc1, w->scc != 0)
CBRANCH(s_cbranch_vccz, SIM_VCC(w) == 0)
CBRANCH(s_cbranch_vccnz, SIM_VCC(w) != 0)
CBRANCH(s_cbranch_execz, SIM_EXEC(w) == 0)
CBRANCH(s_cbranch_execnz, SIM_EXEC(w) != 0)
/* No debugger is attached: the debug-status branches are never taken. */
CBRANCH(s_cbranch_cdbgsys, 0)
CBRANCH(s_cbranch_cdbguser, 0)
CBRANCH(s_cbranch_cdbgsys_or_user, 0)
CBRANCH(s_cbranch_cdbgsys_and_user, 0)

/* Synchronize waves within a threadgroup. */
void
sim__op_s_barrier(sim_wave *w, const sim_inst *in)
{
   w->status = SIM_WAVE_BARRIER;
}

/* Wait for memory counters: vmcnt = SIMM16[3:0] | SIMM16[15:14] << 4, expcnt [6:4],
 * lgkmcnt [11:8]. Every access has completed already. */
void
sim__op_s_waitcnt(sim_wave *w, const sim_inst *in)
{
}

/* Scheduling and cache hints without effect in this model. */
void
sim__op_s_wakeup(sim_wave *w, const sim_inst *in)
{
}
void
sim__op_s_setkill(sim_wave *w, const sim_inst *in)
{
}
/* Sleep: the wave gives the other waves of its work-group their turn (the hardware
 * deschedules it for 64 * SIMM16[6:0] clocks). */
void
sim__op_s_sleep(sim_wave *w, const sim_inst *in)
{
   w->status = SIM_WAVE_YIELD;
}
void
sim__op_s_setprio(sim_wave *w, const sim_inst *in)
{
}
void
sim__op_s_icache_inv(sim_wave *w, const sim_inst *in)
{
}
void
sim__op_s_incperflevel(sim_wave *w, const sim_inst *in)
{
}
void
sim__op_s_decperflevel(sim_wave *w, const sim_inst *in)
{
}
void
sim__op_s_ttracedata(sim_wave *w, const sim_inst *in)
{
}

/* Halt (SIMM16[0] = 1) or resume the wave. With no debugger to resume it, a halted wave
 * would keep the dispatch from ever completing, so halting reports an exception. */
void
sim__op_s_sethalt(sim_wave *w, const sim_inst *in)
{
   if (in->imm & 1)
      sim__fault(w, SIM_FAULT_TRAP, 0,
                 "s_sethalt at pc 0x%llx halted the wave; no debugger can resume it",
                 (unsigned long long)w->inst_pc);
}

/* s_sendmsg message types, SIMM16[3:0] ("Vega" ISA, S_SENDMSG; LLVM's SIDefines.h). */
#define MSG_INTERRUPT 1u

void (*sim__interrupt_hook)(unsigned agent, uint32_t payload);

/* The message of SIMM16. Only the interrupt reaches anybody in a compute dispatch: the GS
 * messages are for geometry shaders, and the wave-control ones (save, stall, halt waves)
 * ask the SPI for what only a debugger or the trap handler uses. */
static void
send_message(sim_wave *w, const sim_inst *in)
{
   if (((uint32_t)in->imm & 0xFu) != MSG_INTERRUPT)
      return;
   void (*hook)(unsigned, uint32_t) = __atomic_load_n(&sim__interrupt_hook, __ATOMIC_ACQUIRE);
   if (hook)
      hook(w->wg->disp->agent, SIM_M0(w) & 0xFFFFFFu);
}

/* Send a message to the host/SPI: MSG_INTERRUPT raises an interrupt with M0[23:0] as its
 * payload (sim__interrupt_hook); the other messages have no effect on a compute queue. */
void
sim__op_s_sendmsg(sim_wave *w, const sim_inst *in)
{
   send_message(w, in);
}

/* Send a message, then halt: as s_sethalt 1. */
void
sim__op_s_sendmsghalt(sim_wave *w, const sim_inst *in)
{
   send_message(w, in);
   sim__fault(w, SIM_FAULT_TRAP, 0,
              "s_sendmsghalt at pc 0x%llx halted the wave; no debugger can resume it",
              (unsigned long long)w->inst_pc);
}

/* TrapID = SIMM16[7:0]; enter the trap handler. There is none (no debugger): the
 * dispatch fails with an exception. */
void
sim__op_s_trap(sim_wave *w, const sim_inst *in)
{
   sim__fault(w, SIM_FAULT_TRAP, 0, "s_trap %u at pc 0x%llx", (unsigned)(in->imm & 0xFF),
              (unsigned long long)w->inst_pc);
}

/* MODE.gpr_idx_en = 0. */
void
sim__op_s_set_gpr_idx_off(sim_wave *w, const sim_inst *in)
{
   w->gpr_idx_en = false;
}

/* M0[15:12] = SIMM16[3:0]. */
void
sim__op_s_set_gpr_idx_mode(sim_wave *w, const sim_inst *in)
{
   SIM_M0(w) = (SIM_M0(w) & ~0xF000u) | (uint32_t)(in->imm & 0xF) << 12;
}
