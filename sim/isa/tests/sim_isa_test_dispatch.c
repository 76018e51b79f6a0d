/* Work-group scheduling (sim_dispatch.c): threads claim work-groups in batches of
 * consecutive ids; every work-group of a grid runs exactly once with its own id, and the
 * watchdog still stops a dispatch of many short work-groups. A partial wave's set-up, and
 * its translated blocks that hold only the lanes of its EXEC. */
#include <stdlib.h>
#include <string.h>
#include "sim_isa_test.h"

/* s2, s3, s4 = work-group id x, y, z (COMPUTE_PGM_RSRC2 bits 7-9, after 2 user SGPRs). */
static const uint32_t t_rsrc[3] = {7u | 1u << 21 | 1u << 23, 2u << 1 | 7u << 7, 0};

/* Lane 0 adds 1 to out[(z * ny + y) * nx + x] (s[0:1] = out), after `loop` iterations of a
 * scalar loop (fewer than SIM_WAVE_SLICE: the wave's first turn ends it). */
static void
t_count_src(char *src, size_t n, unsigned nx, unsigned ny, unsigned loop)
{
   snprintf(src, n,
            "s_mov_b32 s6, %u\n"
            "loop:\n"
            "s_sub_u32 s6, s6, 1\n"
            "s_cmp_lg_u32 s6, 0\n"
            "s_cbranch_scc1 loop\n"
            "s_mul_i32 s5, s4, %u\n"
            "s_add_u32 s5, s5, s3\n"
            "s_mul_i32 s5, s5, %u\n"
            "s_add_u32 s5, s5, s2\n"
            "s_lshl_b32 s5, s5, 2\n"
            "v_mov_b32 v1, s5\n"
            "v_mov_b32 v2, 1\n"
            "s_mov_b64 exec, 1\n"
            "global_atomic_add v1, v2, s[0:1]\n"
            "s_waitcnt vmcnt(0)",
            loop, ny, nx);
}

/* 37 x 5 x 3 work-groups of 64 work-items, then 20000 of one work-item: each counted once
 * at its own id (a batch's ids carry from x into y and z). */
TEST(workgroups_exactly_once)
{
   char src[512];
   const uint16_t wg64[3] = {64, 1, 1}, wg1[3] = {1, 1, 1};
   uint32_t *out = t_alloc(4 * 20000, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   /* No watchdog: 20000 work-groups take more than t_wavesync_tests' 2 s in the
    * translator's checking mode under AddressSanitizer on a slow host. */
   uint64_t watchdog = sim__watchdog_swap(0);
   t_count_src(src, sizeof(src), 37, 5, 1);
   t_groups_yz[0] = 5, t_groups_yz[1] = 3;
   CHECK_EQ(t_dispatch_kd(0, src, t_rsrc, wg64, 37, out), SIM_FAULT_NONE);
   t_groups_yz[0] = t_groups_yz[1] = 1;
   unsigned bad = 0;
   for (unsigned i = 0; i < 37 * 5 * 3; i++)
      bad += out[i] != 1;
   CHECK_EQ(bad, 0);
   CHECK_EQ(out[37 * 5 * 3], 0);
   memset(out, 0, 4 * 20000);
   t_count_src(src, sizeof(src), 20000, 1, 1);
   CHECK_EQ(t_dispatch_kd(0, src, t_rsrc, wg1, 20000, out), SIM_FAULT_NONE);
   bad = 0;
   for (unsigned i = 0; i < 20000; i++)
      bad += out[i] != 1;
   CHECK_EQ(bad, 0);
   sim__watchdog_swap(watchdog);
}

/* 2^24 work-groups of 1000 loop iterations whose waves end in one turn, so only the checks
 * between claims see the clock: the 2 s watchdog stops the dispatch part way, and no
 * work-group ran twice. Without a watchdog they take 9.4 s on two cores, 20.7 s on one
 * (translated loops; 2^21 of them finished inside the 2 s, and the test passed only with
 * ctest's per-opcode counters slowing the waves). */
TEST(watchdog_between_claims)
{
   enum { N = 1u << 24 };
   char src[512];
   const uint16_t wg1[3] = {1, 1, 1};
   uint32_t *out = t_alloc(4 * (size_t)N, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   t_count_src(src, sizeof(src), N, 1, 1000);
   CHECK_EQ(t_dispatch_kd(0, src, t_rsrc, wg1, N, out), SIM_FAULT_WATCHDOG);
   unsigned ran = 0, twice = 0;
   for (unsigned i = 0; i < N; i++)
      ran += out[i] != 0, twice += out[i] > 1;
   CHECK(ran > 0 && ran < N);
   CHECK_EQ(twice, 0);
}

/* out[id] = id for every work-item (global id along x), through VGPR `v`: s2 = work-group
 * id x, `shift` = log2 of the work-group size. */
static void
t_ids_src(char *src, size_t n, unsigned v, unsigned shift)
{
   snprintf(src, n,
            "s_lshl_b32 s5, s2, %u\n"
            "v_add_u32 v%u, s5, v0\n"
            "v_lshlrev_b32 v1, 2, v%u\n"
            "global_store_dword v1, v%u, s[0:1]\n"
            "s_waitcnt vmcnt(0)",
            shift, v, v, v);
}

/* A host thread's home keeps the wave slots' per-dispatch state (VGPR rows, VGPR count, wave
 * size, id) from one work-group to the next of a dispatch, and sets it again for the next
 * dispatch: one-wave work-groups of 8 VGPRs, then four-wave ones of 32 VGPRs using v31 (a
 * slot set only for the first dispatch would have no VGPR rows, or 8 VGPRs), then 8 VGPRs
 * again, where v9 must fault (a count left at 32 would let it run). */
TEST(home_state_per_dispatch)
{
   char src[512];
   const uint16_t wg64[3] = {64, 1, 1}, wg256[3] = {256, 1, 1};
   const uint32_t r8[3] = {1u | 1u << 21 | 1u << 23, t_rsrc[1], 0};
   uint32_t *out = t_alloc(4 * 4096, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   t_ids_src(src, sizeof(src), 7, 6);
   CHECK_EQ(t_dispatch_kd(0, src, r8, wg64, 16, out), SIM_FAULT_NONE);
   unsigned bad = 0;
   for (unsigned i = 0; i < 1024; i++)
      bad += out[i] != i;
   CHECK_EQ(bad, 0);
   memset(out, 0, 4 * 4096);
   t_ids_src(src, sizeof(src), 31, 8);
   CHECK_EQ(t_dispatch_kd(0, src, t_rsrc, wg256, 16, out), SIM_FAULT_NONE);
   bad = 0;
   for (unsigned i = 0; i < 4096; i++)
      bad += out[i] != i;
   CHECK_EQ(bad, 0);
   t_ids_src(src, sizeof(src), 9, 6);
   CHECK_EQ(t_dispatch_kd(0, src, r8, wg64, 16, out), SIM_FAULT_ILLEGAL_INSTRUCTION);
   t_ids_src(src, sizeof(src), 7, 6);
   CHECK_EQ(t_dispatch_kd(0, src, r8, wg64, 16, out), SIM_FAULT_NONE);
}

/* The work-item id rows v0-v2 of a partial wave: the live lanes' ids, 0 in the others, over
 * rows a previous wave of the same home filled with ones (the set-up clears them whole;
 * the other VGPRs keep what that wave left). Work-groups of 3 x 2 x 2 and of one work-item
 * (a one-work-item wave: copy1's), each the only one of its dispatch, so the dispatching
 * thread runs it after the filling one. */
TEST(id_rows_partial_wave)
{
   static const char *fill = "s_mov_b64 exec, -1\n"
                             "v_mov_b32 v0, -1\n"
                             "v_mov_b32 v1, -1\n"
                             "v_mov_b32 v2, -1";
   static const char *dump = "s_mov_b64 exec, -1\n"
                             "v_mbcnt_lo_u32_b32 v4, -1, 0\n"
                             "v_mbcnt_hi_u32_b32 v4, -1, v4\n"
                             "v_lshlrev_b32 v3, 2, v4\n"
                             "global_store_dword v3, v0, s[0:1]\n"
                             "global_store_dword v3, v1, s[0:1] offset:256\n"
                             "global_store_dword v3, v2, s[0:1] offset:512\n"
                             "s_waitcnt vmcnt(0)";
   const uint32_t rsrc[3] = {t_rsrc[0], t_rsrc[1] | 2u << 11, 0}; /* ids x, y and z */
   const uint16_t wg64[3] = {64, 1, 1}, sizes[2][3] = {{3, 2, 2}, {1, 1, 1}};
   uint32_t *out = t_alloc(1024 + 64 * 8, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   double *in = (double *)(out + 256);
   for (unsigned l = 0; l < 64; l++)
      in[l] = l;
   for (unsigned c = 0; c < 2; c++) {
      const uint16_t *wg = sizes[c];
      unsigned items = wg[0] * wg[1] * wg[2], bad = 0;
      CHECK_EQ(t_dispatch_kd(0, fill, rsrc, wg64, 1, out), SIM_FAULT_NONE);
      CHECK_EQ(t_dispatch_kd(0, dump, rsrc, wg, 1, out), SIM_FAULT_NONE);
      for (unsigned l = 0; l < 64; l++) {
         uint32_t x = l < items ? l % wg[0] : 0, y = l < items ? l / wg[0] % wg[1] : 0;
         uint32_t z = l < items ? l / (wg[0] * wg[1]) : 0;
         bad += out[l] != x || out[64 + l] != y || out[128 + l] != z;
      }
      CHECK_EQ(bad, 0);
   }
}

/* Partial waves whose blocks hold only their EXEC's 32 lanes (sim_xlate.c
 * xl_compile; the checking mode compiles each block on its first run): a branch on VCC
 * reads VCC's lanes past the held ones, an EXEC widened to the whole wave leaves the
 * block at the next instruction (exec_guard), and the lanes past the held ones keep what
 * was there. Work-groups of one and of 20 work-items. */
TEST(narrow_block_exec_widens)
{
   static const char *src = "v_mov_b32 v5, 7\n"
                            "s_lshl_b64 vcc, 1, 40\n"
                            "s_cbranch_vccz skip\n"
                            "v_mov_b32 v5, 8\n"
                            "skip:\n"
                            "s_or_saveexec_b64 s[4:5], -1\n"
                            "v_mov_b32 v6, 9\n"
                            "v_mbcnt_lo_u32_b32 v4, -1, 0\n"
                            "v_mbcnt_hi_u32_b32 v4, -1, v4\n"
                            "v_lshlrev_b32 v3, 2, v4\n"
                            "global_store_dword v3, v6, s[0:1]\n"
                            "s_mov_b64 exec, s[4:5]\n"
                            "global_store_dword v3, v5, s[0:1] offset:256\n"
                            "s_waitcnt vmcnt(0)";
   static const char *fill = "s_mov_b64 exec, -1\n"
                             "v_mov_b32 v5, 5\n"
                             "v_mov_b32 v6, 6";
   const uint16_t wg64[3] = {64, 1, 1}, sizes[2][3] = {{1, 1, 1}, {20, 1, 1}};
   uint32_t *out = t_alloc(2 * 256, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   for (unsigned c = 0; c < 2; c++) {
      unsigned items = sizes[c][0], bad = 0;
      memset(out, 0xAB, 2 * 256);
      CHECK_EQ(t_dispatch_kd(0, fill, t_rsrc, wg64, 1, out), SIM_FAULT_NONE);
      CHECK_EQ(t_dispatch_kd(0, src, t_rsrc, sizes[c], 1, out), SIM_FAULT_NONE);
      for (unsigned l = 0; l < 64; l++)
         bad += out[l] != 9 || out[64 + l] != (l < items ? 8u : 0xABABABABu);
      CHECK_EQ(bad, 0);
   }
}

/* A 64-bit float compare's mask and a loaded one combined in a narrowed block (the shape
 * of the CTS remquo block whose 16-lane form LLVM's x86 back end never finished compiling,
 * sim_xlate.c xl_narrow): the masks are ANDed with EXEC, ORed, and select per lane. Lane
 * l (in[l] = l, the loaded mask 7): out[l] = l < 3 || l == 4 ? 0 : 1, out[64 + l] = the
 * opposite. */
TEST(narrow_block_f64_masks)
{
   static const char *src = "s_load_dwordx2 s[6:7], s[0:1], 0x200\n"
                            "s_waitcnt lgkmcnt(0)\n"
                            "s_and_b64 s[6:7], s[6:7], exec\n"
                            "v_lshlrev_b32 v10, 3, v0\n"
                            "global_load_dwordx2 v[8:9], v10, s[0:1] offset:1024\n"
                            "s_waitcnt vmcnt(0)\n"
                            "v_cmp_eq_f64 vcc, 4.0, v[8:9]\n"
                            "v_cndmask_b32_e64 v2, 1, 0, s[6:7]\n"
                            "v_cndmask_b32_e64 v3, v2, 0, vcc\n"
                            "s_or_b64 s[8:9], vcc, s[6:7]\n"
                            "v_cndmask_b32_e64 v4, 0, 1, s[8:9]\n"
                            "v_lshlrev_b32 v10, 2, v0\n"
                            "global_store_dword v10, v3, s[0:1]\n"
                            "global_store_dword v10, v4, s[0:1] offset:256\n"
                            "s_waitcnt vmcnt(0)";
   const uint16_t sizes[2][3] = {{1, 1, 1}, {12, 1, 1}};
   uint32_t *out = t_alloc(1024 + 64 * 8, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   double *in = (double *)(out + 256);
   for (unsigned l = 0; l < 64; l++)
      in[l] = l;
   for (unsigned c = 0; c < 2; c++) {
      unsigned items = sizes[c][0], bad = 0;
      memset(out, 0xAB, 2 * 256);
      out[128] = 7, out[129] = 0;
      CHECK_EQ(t_dispatch_kd(0, src, t_rsrc, sizes[c], 1, out), SIM_FAULT_NONE);
      for (unsigned l = 0; l < 64; l++) {
         unsigned hit = l < 3 || l == 4;
         bad += out[l] != (l < items ? 1u - hit : 0xABABABABu) ||
                out[64 + l] != (l < items ? hit : 0xABABABABu);
      }
      CHECK_EQ(bad, 0);
   }
}

void
t_dispatch_tests(void)
{
   RUN(workgroups_exactly_once);
   RUN(watchdog_between_claims);
   RUN(home_state_per_dispatch);
   RUN(id_rows_partial_wave);
   RUN(narrow_block_exec_widens);
   RUN(narrow_block_f64_masks);
}
