/*
 * SOPP: program control ([ISA] 4.x "Program flow control", 12.x "SOPP instructions").
 * Branch targets are PC_next + SIMM16 * 4. Memory operations complete synchronously, so
 * s_waitcnt and hazard s_nop are no-ops.
 */
#include <time.h>
#include <stdio.h>
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
CBRANCH(s_cbranch_vccz, SIM_VCC_LANES(w) == 0)
CBRANCH(s_cbranch_vccnz, SIM_VCC_LANES(w) != 0)
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

/*
 * s_sendmsg / s_sendmsghalt messages: type SIMM16[3:0], operation SIMM16[6:4] ("Vega" ISA,
 * S_SENDMSG and "Send message types"; the gfx9 ids as LLVM's SIDefines.h and llvm-mc-19
 * name them). What each does for a compute wave:
 *
 *   1  INTERRUPT          the SQ interrupts the host, payload M0[23:0] (sim__interrupt_hook)
 *   2  GS, 3 GS_DONE,    messages of the graphics pipeline (geometry shader emit/cut and
 *   7  ORDERED_PS_DONE,  done, pixel-shader ordering, primitive deallocation, GS output
 *   8  EARLY_PRIM_DEALLOC, allocation): a compute wave has no such stage; an illegal
 *   9  GS_ALLOC_REQ       instruction
 *   4  SAVEWAVE,         the trap handler's context save (the wave reports itself saved,
 *   10 GET_DOORBELL       asks for its queue's doorbell): this GPU runs no trap handler and
 *                         saves no context, so a wave sending them is an illegal instruction
 *   5  STALL_WAVE_GEN,   the debugger's wave control: stop launching the dispatch's waves,
 *   6  HALT_WAVES         halt its waves. Nothing could restore or resume them (no
 *                         debugger), so, as s_sethalt 1, the dispatch ends with an exception
 *   15 SYSMSG             operation 4, TTRACE_PC: a thread-trace token, nothing with thread
 *                         trace off (as s_ttracedata); 1, ECC_ERR_INTERRUPT and 2, REG_RD:
 *                         the trap handler's, an illegal instruction; others are reserved
 *   0, 11-14              reserved: an illegal instruction
 */
enum {
   MSG_INTERRUPT = 1, MSG_GS = 2, MSG_GS_DONE = 3, MSG_SAVEWAVE = 4, MSG_STALL_WAVE_GEN = 5,
   MSG_HALT_WAVES = 6, MSG_ORDERED_PS_DONE = 7, MSG_EARLY_PRIM_DEALLOC = 8,
   MSG_GS_ALLOC_REQ = 9, MSG_GET_DOORBELL = 10, MSG_SYSMSG = 15,
};
enum { SYSMSG_OP_ECC_ERR_INTERRUPT = 1, SYSMSG_OP_REG_RD = 2, SYSMSG_OP_TTRACE_PC = 4 };

void (*sim__interrupt_hook)(unsigned agent, uint32_t payload);

static void
message_illegal(sim_wave *w, const sim_inst *in, unsigned msg, const char *why)
{
   char buf[128];
   snprintf(buf, sizeof(buf), "message %u (%s)", msg, why);
   sim__fault_illegal(w, in, buf);
}

/* Sends the message of SIMM16; false when the wave faulted instead. */
static bool
send_message(sim_wave *w, const sim_inst *in)
{
   unsigned msg = (uint32_t)in->imm & 0xFu, op = ((uint32_t)in->imm >> 4) & 7u;
   switch (msg) {
   case MSG_INTERRUPT: {
      void (*hook)(unsigned, uint32_t) = __atomic_load_n(&sim__interrupt_hook,
                                                         __ATOMIC_ACQUIRE);
      if (hook)
         hook(w->wg->disp->agent, SIM_M0(w) & 0xFFFFFFu);
      return true;
   }
   case MSG_GS:
   case MSG_GS_DONE:
   case MSG_ORDERED_PS_DONE:
   case MSG_EARLY_PRIM_DEALLOC:
   case MSG_GS_ALLOC_REQ:
      message_illegal(w, in, msg, "graphics pipeline: no such stage in a compute dispatch");
      return false;
   case MSG_SAVEWAVE:
   case MSG_GET_DOORBELL:
      message_illegal(w, in, msg, "the trap handler's context save: none runs here");
      return false;
   case MSG_STALL_WAVE_GEN:
   case MSG_HALT_WAVES:
      sim__fault(w, SIM_FAULT_TRAP, 0,
                 "s_sendmsg %s at pc 0x%llx: no debugger can restore the dispatch's waves",
                 msg == MSG_HALT_WAVES ? "MSG_HALT_WAVES" : "MSG_STALL_WAVE_GEN",
                 (unsigned long long)w->inst_pc);
      return false;
   case MSG_SYSMSG:
      if (op == SYSMSG_OP_TTRACE_PC)
         return true;
      message_illegal(w, in, msg, op == SYSMSG_OP_ECC_ERR_INTERRUPT || op == SYSMSG_OP_REG_RD
                                     ? "a system message of the trap handler's"
                                     : "reserved system message");
      return false;
   default:
      message_illegal(w, in, msg, "reserved");
      return false;
   }
}

void
sim__op_s_sendmsg(sim_wave *w, const sim_inst *in)
{
   send_message(w, in);
}

/* Send a message, then halt: as s_sethalt 1. */
void
sim__op_s_sendmsghalt(sim_wave *w, const sim_inst *in)
{
   if (!send_message(w, in))
      return;
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
