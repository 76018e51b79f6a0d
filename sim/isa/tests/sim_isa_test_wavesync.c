/* Scalar scratch (S_SCRATCH_LOAD/STORE_DWORD{,X2,X4}) through the wave's FLAT_SCRATCH, the
 * GWS instructions with and without the queue's GWS allocation (sim_gws.c), and
 * ds_ordered_count, which faults because no queue has a GDS allocation (sim_ds.c), and the
 * s_sendmsg message types (sim_sopp.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim_isa_test.h"

/* FLAT_SCRATCH = scratch window + 0x1000. Stores: s1 at +0x10 (immediate), s[4:5] at
 * +2 * 64 (SGPR offset s6 = 2, scaled by the wave size), s[8:11] at +0x20 (immediate, GLC
 * is cache policy). Loads read the same places back, and an immediate offset is not scaled
 * (+0x14 is the dword after s1's). Unaligned immediates round down to the dword. */
TEST(s_scratch_load_store)
{
   memset(t_scratch, 0, 0x2000);
   sim_wave *w = t_wave();
   uint64_t fs = SIM_SCRATCH_VA + 0x1000;
   w->s[2] = (uint32_t)fs;
   w->s[3] = (uint32_t)(fs >> 32);
   w->s[1] = 0x11111111;
   w->s[4] = 0x44444444, w->s[5] = 0x55555555;
   w->s[6] = 2;
   for (unsigned i = 0; i < 4; i++)
      w->s[8 + i] = 0x80 + i;
   CHECK_EQ(t_run(w, "s_scratch_store_dword s1, s[2:3], 0x10\n"
                     "s_scratch_store_dwordx2 s[4:5], s[2:3], s6\n"
                     "s_scratch_store_dwordx4 s[8:11], s[2:3], 0x20 glc\n"
                     "s_waitcnt lgkmcnt(0)\n"
                     "s_scratch_load_dword s20, s[2:3], 0x12\n"
                     "s_scratch_load_dwordx2 s[22:23], s[2:3], s6\n"
                     "s_scratch_load_dwordx4 s[24:27], s[2:3], 0x20\n"
                     "s_scratch_load_dword s21, s[2:3], 0x14\n"
                     "s_waitcnt lgkmcnt(0)"),
            SIM_FAULT_NONE);
   uint32_t d[4];
   memcpy(d, t_scratch + 0x1010, 4);
   CHECK_EQ(d[0], 0x11111111);
   memcpy(d, t_scratch + 0x1000 + 128, 8);
   CHECK_EQ(d[0], 0x44444444);
   CHECK_EQ(d[1], 0x55555555);
   memcpy(d, t_scratch + 0x1020, 16);
   for (unsigned i = 0; i < 4; i++) {
      CHECK_EQ(d[i], 0x80 + i);
      CHECK_EQ(w->s[24 + i], 0x80 + i);
   }
   CHECK_EQ(w->s[20], 0x11111111);
   CHECK_EQ(w->s[22], 0x44444444);
   CHECK_EQ(w->s[23], 0x55555555);
   CHECK_EQ(w->s[21], 0); /* dword 0x14: the store at 0x10 was one dword */
   /* Nothing at 2 bytes * 64 or 2 dwords unscaled: the SGPR offset really was scaled. */
   memcpy(d, t_scratch + 0x1008, 8);
   CHECK_EQ(d[0], 0);
   CHECK_EQ(d[1], 0);
}

/* A scalar scratch access outside the scratch window is a memory violation at the
 * address: base + 0x40 * 64. */
TEST(s_scratch_fault)
{
   sim_wave *w = t_wave();
   uint64_t fs = SIM_SCRATCH_VA + t_scratch_size - 64;
   w->s[2] = (uint32_t)fs;
   w->s[3] = (uint32_t)(fs >> 32);
   w->s[6] = 0x40;
   CHECK_EQ(t_run(w, "s_scratch_load_dword s1, s[2:3], s6"), SIM_FAULT_MEMORY_VIOLATION);
   CHECK_EQ(t_fault.address, fs + 0x40 * 64);
   CHECK_EQ(t_run(w, "s_scratch_store_dwordx4 s[4:7], s[2:3], 0x3c"),
            SIM_FAULT_MEMORY_VIOLATION);
}

/* Without a GWS allocation every ds_gws_* ends the dispatch with an illegal-instruction
 * fault naming the resource (M0[21:16] + OFFSET0: 5 + 3 = 8) and the missing allocation,
 * and changes nothing; ds_ordered_count names its GDS address (M0[31:16] + OFFSET:
 * 0x100 + 4). */
TEST(gws_ordered_count_fault)
{
   static const char *const src[] = {
      "ds_gws_init v0 offset:3 gds",  "ds_gws_barrier v0 offset:3 gds",
      "ds_gws_sema_v offset:3 gds",   "ds_gws_sema_p offset:3 gds",
      "ds_gws_sema_br v0 offset:3 gds", "ds_gws_sema_release_all offset:3 gds",
   };
   for (unsigned i = 0; i < sizeof(src) / sizeof(src[0]); i++) {
      sim_wave *w = t_wave();
      SIM_M0(w) = 5u << 16;
      w->v[0][0] = 7;
      CHECK_EQ(t_run(w, src[i]), SIM_FAULT_ILLEGAL_INSTRUCTION);
      CHECK(strstr(t_fault.message, "GWS resource 8") != NULL);
      CHECK(strstr(t_fault.message, "no GWS allocation") != NULL);
      CHECK_EQ(w->v[0][0], 7);
   }
   sim_wave *w = t_wave();
   SIM_M0(w) = 0x100u << 16;
   w->v[1][0] = 0xABC;
   CHECK_EQ(t_run(w, "ds_ordered_count v1, v0 offset:4 gds"), SIM_FAULT_ILLEGAL_INSTRUCTION);
   CHECK(strstr(t_fault.message, "GDS 0x104") != NULL);
   CHECK_EQ(w->v[1][0], 0xABC);
}

/* An allocation of 8 resources: resource 8 is outside it, and so is 60 + 7 = 67, which wraps
 * to 3 in 6 bits... inside. */
TEST(gws_outside_allocation)
{
   sim_gws g;
   sim__gws_init(&g, 8);
   t_gws = &g;
   sim_wave *w = t_wave();
   SIM_M0(w) = 5u << 16;
   CHECK_EQ(t_run(w, "ds_gws_sema_v offset:3 gds"), SIM_FAULT_ILLEGAL_INSTRUCTION);
   CHECK(strstr(t_fault.message, "GWS resource 8: outside the queue's 8 GWS resources"));
   w = t_wave();
   SIM_M0(w) = 60u << 16 | 0xFFFF;
   CHECK_EQ(t_run(w, "ds_gws_sema_v offset:7 gds"), SIM_FAULT_NONE);
   CHECK_EQ(g.res[3].counter, 1);
   t_gws = NULL;
   sim__gws_finish(&g);
}

/* Semaphore counts: INIT takes DATA0 of the first active lane (lane 2: 9, not lane 0's 1),
 * SEMA_V adds 1 (10), SEMA_BR adds DATA0 (v1 lane 2 = 4: 14), SEMA_P takes one (13) and goes
 * on, all on resource M0[21:16] + OFFSET0 = 2 + 6 = 8. Thirteen more SEMA_Ps take the count
 * to 0; the next one waits, and with no other wave to release it that is a hang the
 * watchdog reports. */
TEST(gws_semaphore)
{
   sim_gws g;
   sim__gws_init(&g, SIM_GWS_RESOURCES);
   t_gws = &g;
   sim_wave *w = t_wave();
   SIM_M0(w) = 2u << 16;
   SIM_EXEC(w) = 4;
   w->v[0][0] = 1, w->v[0][2] = 9;
   w->v[1][0] = 100, w->v[1][2] = 4;
   CHECK_EQ(t_run(w, "ds_gws_init v0 offset:6 gds"), SIM_FAULT_NONE);
   CHECK_EQ(g.res[8].counter, 9);
   CHECK_EQ(t_run(w, "ds_gws_sema_v offset:6 gds"), SIM_FAULT_NONE);
   CHECK_EQ(g.res[8].counter, 10);
   CHECK_EQ(t_run(w, "ds_gws_sema_br v1 offset:6 gds"), SIM_FAULT_NONE);
   CHECK_EQ(g.res[8].counter, 14);
   CHECK_EQ(t_run(w, "ds_gws_sema_p offset:6 gds"), SIM_FAULT_NONE);
   CHECK_EQ(g.res[8].counter, 13);
   char src[1024] = "";
   for (int i = 0; i < 13; i++)
      strcat(src, "ds_gws_sema_p offset:6 gds\n");
   strcat(src, "v_mov_b32 v2, 7");
   CHECK_EQ(t_run(w, src), SIM_FAULT_NONE);
   CHECK_EQ(g.res[8].counter, 0);
   CHECK_EQ(w->v[2][2], 7);
   CHECK_EQ(t_run(w, "ds_gws_sema_p offset:6 gds\nv_mov_b32 v2, 8"), SIM_FAULT_WATCHDOG);
   CHECK(strstr(t_fault.message, "GWS resource 8 forever"));
   CHECK_EQ(w->v[2][2], 7); /* the wave never got past the wait */
   /* Another resource is untouched. */
   CHECK_EQ(g.res[9].counter, 0);
   t_gws = NULL;
   sim__gws_finish(&g);
}

/* SEMA_RELEASE_ALL releases the waves then waiting in SEMA_P without taking a count. Two
 * waves of one work-group: wave 1 sets an LDS flag and waits in SEMA_P on resource 1 (count
 * 0); wave 0 spins until it sees the flag (wave 1 is waiting by then: the waves of a
 * work-group take turns), releases resource 1, and both store their id + 1 to out[id]. The
 * count stays 0, and one release was counted. */
TEST(gws_release_all)
{
   sim_gws g;
   sim__gws_init(&g, SIM_GWS_RESOURCES);
   uint32_t *out = t_alloc(64, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   CHECK_EQ(t_dispatch("s_mov_b32 m0, 0\n"
                       "v_mov_b32 v1, 0\n"
                       "v_readfirstlane_b32 s3, v0\n"
                       "s_cmp_eq_u32 s3, 0\n"
                       "s_cbranch_scc1 wave0\n"
                       "v_mov_b32 v2, 1\n"
                       "ds_write_b32 v1, v2\n"
                       "s_waitcnt lgkmcnt(0)\n"
                       "ds_gws_sema_p offset:1 gds\n"
                       "s_branch done\n"
                       "wave0:\n"
                       "ds_read_b32 v2, v1\n"
                       "s_waitcnt lgkmcnt(0)\n"
                       "v_readfirstlane_b32 s4, v2\n"
                       "s_cmp_eq_u32 s4, 0\n"
                       "s_cbranch_scc1 wave0\n"
                       "ds_gws_sema_release_all offset:1 gds\n"
                       "done:\n"
                       "s_mov_b64 exec, 1\n"
                       "s_lshr_b32 s3, s3, 6\n"
                       "s_add_u32 s4, s3, 1\n"
                       "v_mov_b32 v3, s4\n"
                       "s_lshl_b32 s3, s3, 2\n"
                       "v_mov_b32 v4, s3\n"
                       "global_store_dword v4, v3, s[0:1]",
                       1, 128, out, &g),
            SIM_FAULT_NONE);
   CHECK_EQ(out[0], 1);
   CHECK_EQ(out[1], 2);
   CHECK_EQ(g.res[1].counter, 0);
   CHECK_EQ(g.res[1].released, 1);
   sim__gws_finish(&g);
}

/* A barrier across the work-groups of a dispatch, as ockl's grid sync uses it: one wave of
 * each of 12 work-groups adds 1 to a global counter, waits in DS_GWS_BARRIER (12 - 1), then
 * reads the counter: every work-group reads 12, though the interpreter runs fewer
 * work-groups at once than that until they wait. A second round (the barrier re-armed by its
 * last wave) on a second counter reads 12 again. An init kernel sets the barrier first, as
 * the runtime does before a cooperative launch. The barrier is left armed (11) with its flag
 * flipped twice. */
#define T_GWS_GROUPS 12
static const char t_gws_barrier_src[] =
   "s_mov_b64 exec, 1\n"
   "s_mov_b32 m0, 0\n"
   "v_mov_b32 v1, 0\n"
   "v_mov_b32 v2, 1\n"
   "v_mov_b32 v3, s3\n"
   "v_lshlrev_b32_e64 v5, 2, s2\n"
   "global_atomic_add v1, v2, s[0:1]\n"
   "s_waitcnt vmcnt(0)\n"
   "ds_gws_barrier v3 gds\n"
   "s_waitcnt lgkmcnt(0)\n"
   "global_load_dword v4, v1, s[0:1] glc\n"
   "s_waitcnt vmcnt(0)\n"
   "global_store_dword v5, v4, s[0:1] offset:8\n"
   "v_mov_b32 v6, 4\n"
   "global_atomic_add v6, v2, s[0:1]\n"
   "s_waitcnt vmcnt(0)\n"
   "ds_gws_barrier v3 gds\n"
   "s_waitcnt lgkmcnt(0)\n"
   "global_load_dword v4, v6, s[0:1] glc\n"
   "s_waitcnt vmcnt(0)\n"
   "global_store_dword v5, v4, s[0:1] offset:56";

TEST(gws_barrier_across_workgroups)
{
   sim_gws g;
   sim__gws_init(&g, SIM_GWS_RESOURCES);
   uint32_t *buf = t_alloc(4 * (2 + 2 * T_GWS_GROUPS), SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   CHECK_EQ(t_dispatch("s_mov_b32 m0, 0\n"
                       "v_mov_b32 v1, 11\n"
                       "ds_gws_init v1 gds", 1, 64, buf, &g),
            SIM_FAULT_NONE);
   CHECK_EQ(g.res[0].counter, T_GWS_GROUPS - 1);
   char src[sizeof(t_gws_barrier_src) + 32];
   snprintf(src, sizeof(src), "s_mov_b32 s3, %d\n%s", T_GWS_GROUPS - 1, t_gws_barrier_src);
   CHECK_EQ(t_dispatch(src, T_GWS_GROUPS, 64, buf, &g), SIM_FAULT_NONE);
   CHECK_EQ(buf[0], T_GWS_GROUPS);
   CHECK_EQ(buf[1], T_GWS_GROUPS);
   for (int i = 0; i < T_GWS_GROUPS; i++) {
      CHECK_EQ(buf[2 + i], T_GWS_GROUPS);
      CHECK_EQ(buf[2 + T_GWS_GROUPS + i], T_GWS_GROUPS);
   }
   CHECK_EQ(g.res[0].counter, T_GWS_GROUPS - 1);
   CHECK_EQ(g.res[0].flag, 0);
   sim__gws_finish(&g);
}

/* A barrier waiting for one wave more than the dispatch has hangs; the watchdog (set to 2 s
 * for this process's dispatches before the first one) ends the dispatch, and the dispatch
 * after it runs. Without an allocation a dispatch's GWS instruction faults as in t_run. */
TEST(gws_barrier_hang)
{
   sim_gws g;
   sim__gws_init(&g, SIM_GWS_RESOURCES);
   uint32_t *buf = t_alloc(4 * (2 + 2 * T_GWS_GROUPS), SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   g.res[0].counter = 4;
   char src[sizeof(t_gws_barrier_src) + 32];
   snprintf(src, sizeof(src), "s_mov_b32 s3, 4\n%s", t_gws_barrier_src);
   CHECK_EQ(t_dispatch(src, 4, 64, buf, &g), SIM_FAULT_WATCHDOG);
   CHECK_EQ(buf[0], 4);
   CHECK_EQ(buf[2], 0); /* nobody got past the barrier */
   CHECK_EQ(t_dispatch("ds_gws_barrier v0 gds", 2, 64, buf, NULL),
            SIM_FAULT_ILLEGAL_INSTRUCTION);
   CHECK(strstr(t_fault.message, "no GWS allocation"));
   sim__gws_finish(&g);
}

static unsigned t_irq_count, t_irq_agent;
static uint32_t t_irq_payload;

static void
t_irq(unsigned agent, uint32_t payload)
{
   t_irq_count++;
   t_irq_agent = agent;
   t_irq_payload = payload;
}

/* s_sendmsg: MSG_INTERRUPT interrupts the host with M0[23:0] (M0 = 0xAB123456: 0x123456);
 * SYSMSG TTRACE_PC does nothing (thread trace off); the graphics messages, the trap
 * handler's, the reserved ids and SYSMSG operations are illegal instructions naming the
 * message; STALL_WAVE_GEN and HALT_WAVES end the dispatch with an exception (no debugger).
 * s_sendmsghalt sends, then halts (exception); with an illegal message it is that fault. */
TEST(sendmsg_types)
{
   __atomic_store_n(&sim__interrupt_hook, t_irq, __ATOMIC_RELEASE);
   sim_wave *w = t_wave();
   SIM_M0(w) = 0xAB123456u;
   t_irq_count = 0;
   CHECK_EQ(t_run(w, "s_sendmsg sendmsg(MSG_INTERRUPT)\n"
                     "s_sendmsg sendmsg(MSG_SYSMSG, SYSMSG_OP_TTRACE_PC)\n"
                     "s_mov_b32 s1, 5"),
            SIM_FAULT_NONE);
   CHECK_EQ(t_irq_count, 1);
   CHECK_EQ(t_irq_payload, 0x123456);
   CHECK_EQ(t_irq_agent, 0);
   CHECK_EQ(w->s[1], 5);
   static const struct {
      const char *src, *msg;
      sim_fault_kind kind;
   } cases[] = {
      {"s_sendmsg sendmsg(MSG_GS, GS_OP_EMIT, 0)", "message 2 (graphics",
       SIM_FAULT_ILLEGAL_INSTRUCTION},
      {"s_sendmsg sendmsg(MSG_GS_DONE, GS_OP_NOP)", "message 3 (graphics",
       SIM_FAULT_ILLEGAL_INSTRUCTION},
      {"s_sendmsg sendmsg(MSG_ORDERED_PS_DONE)", "message 7 (graphics",
       SIM_FAULT_ILLEGAL_INSTRUCTION},
      {"s_sendmsg sendmsg(MSG_EARLY_PRIM_DEALLOC)", "message 8 (graphics",
       SIM_FAULT_ILLEGAL_INSTRUCTION},
      {"s_sendmsg sendmsg(MSG_GS_ALLOC_REQ)", "message 9 (graphics",
       SIM_FAULT_ILLEGAL_INSTRUCTION},
      {"s_sendmsg sendmsg(MSG_SAVEWAVE)", "message 4 (the trap handler's context save",
       SIM_FAULT_ILLEGAL_INSTRUCTION},
      {"s_sendmsg sendmsg(MSG_GET_DOORBELL)", "message 10 (the trap handler's context save",
       SIM_FAULT_ILLEGAL_INSTRUCTION},
      {"s_sendmsg sendmsg(MSG_SYSMSG, SYSMSG_OP_ECC_ERR_INTERRUPT)",
       "message 15 (a system message of the trap handler's", SIM_FAULT_ILLEGAL_INSTRUCTION},
      {"s_sendmsg sendmsg(MSG_SYSMSG, SYSMSG_OP_REG_RD)",
       "message 15 (a system message of the trap handler's", SIM_FAULT_ILLEGAL_INSTRUCTION},
      {"s_sendmsg sendmsg(15, 3, 0)", "message 15 (reserved system message",
       SIM_FAULT_ILLEGAL_INSTRUCTION},
      {"s_sendmsg sendmsg(0, 0, 0)", "message 0 (reserved", SIM_FAULT_ILLEGAL_INSTRUCTION},
      {"s_sendmsg sendmsg(11, 0, 0)", "message 11 (reserved", SIM_FAULT_ILLEGAL_INSTRUCTION},
      {"s_sendmsg sendmsg(14, 0, 0)", "message 14 (reserved", SIM_FAULT_ILLEGAL_INSTRUCTION},
      {"s_sendmsg sendmsg(MSG_STALL_WAVE_GEN)", "MSG_STALL_WAVE_GEN", SIM_FAULT_TRAP},
      {"s_sendmsg sendmsg(MSG_HALT_WAVES)", "MSG_HALT_WAVES", SIM_FAULT_TRAP},
      {"s_sendmsghalt sendmsg(MSG_GS_ALLOC_REQ)", "message 9 (graphics",
       SIM_FAULT_ILLEGAL_INSTRUCTION},
      {"s_sendmsghalt sendmsg(MSG_INTERRUPT)", "s_sendmsghalt", SIM_FAULT_TRAP},
   };
   for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
      w = t_wave();
      SIM_M0(w) = 0x42;
      t_irq_count = 0;
      char src[160];
      snprintf(src, sizeof(src), "%s\ns_mov_b32 s1, 5", cases[i].src);
      if (t_run(w, src) != cases[i].kind || !strstr(t_fault.message, cases[i].msg)) {
         fprintf(stderr, "FAIL %s: %s: %s\n", t_current, cases[i].src, t_fault.message);
         t_failures++;
      }
      CHECK_EQ(w->s[1], 0); /* the wave stopped there */
   }
   CHECK_EQ(t_irq_count, 1); /* s_sendmsghalt sent its interrupt before halting */
   CHECK_EQ(t_irq_payload, 0x42);
   __atomic_store_n(&sim__interrupt_hook, NULL, __ATOMIC_RELEASE);
}

void
t_wavesync_tests(void)
{
   RUN(s_scratch_load_store);
   RUN(s_scratch_fault);
   RUN(gws_ordered_count_fault);
   RUN(sendmsg_types);
   RUN(gws_outside_allocation);
   RUN(gws_semaphore);
   /* Before the first dispatch of the process: gws_barrier_hang's watchdog. */
   setenv("HSACL_SIM_WATCHDOG", "2", 1);
   RUN(gws_release_all);
   RUN(gws_barrier_across_workgroups);
   RUN(gws_barrier_hang);
}
