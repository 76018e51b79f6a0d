/*
 * gfx1030 (RDNA2) instruction tests: wave32 lane masks (32-bit VCC, v_cmp results, carries and
 * EXEC; EXEC_HI and the null SGPR), the lane-count-dependent instructions (v_readlane,
 * ds_bpermute), the gfx10 instructions (v_cmpx writing EXEC only, the renamed adds, v_fmamk,
 * v_permlanex16, DPP8 and row_share, s_*_saveexec_b32) and a gfx10 literal in VOP3. A wave32
 * test wave has lanes 32-63 off; results worked by hand in the comments.
 */
#include <math.h>
#include <string.h>

#include "sim_isa_test.h"

static sim_wave *
wave32(void)
{
   sim_wave *w = t_wave_target(sim__target(SIM_TARGET_GFX1030));
   w->lanes = 32;
   SIM_EXEC(w) = 0xFFFFFFFFull;
   return w;
}

/* v1 = lane; v_cmp_gt_u32 vcc_lo, 5, v1: lanes 6..31 -> VCC_LO = 0xFFFFFFC0, VCC_HI kept;
 * the e64 form into s10 leaves s11; v_cndmask reads s10 alone (s11 = -1 ignored);
 * s_cbranch_vccz looks at VCC_LO only. */
TEST(w32_compare_masks)
{
   sim_wave *w = wave32();
   for (unsigned l = 0; l < 64; l++)
      w->v[1][l] = l;
   w->s[107] = 0x12345678; /* VCC_HI */
   w->s[11] = 0xFFFFFFFF;
   CHECK_EQ(t_run(w, "v_cmp_gt_u32 vcc_lo, 5, v1\n"
                     "v_cmp_lt_u32_e64 s10, v1, 3\n"
                     "v_cndmask_b32_e64 v2, 10, 20, s10\n"
                     "s_mov_b32 vcc_lo, 0\n"
                     "s_cbranch_vccz skip\n"
                     "v_mov_b32 v3, 1\n"
                     "skip:\n"
                     "s_nop 0"),
            SIM_FAULT_NONE);
   CHECK_EQ(w->s[107], 0x12345678u);
   CHECK_EQ(w->s[10], 0x7u);
   CHECK_EQ(w->s[11], 0xFFFFFFFFu);
   for (unsigned l = 0; l < 32; l++)
      CHECK_EQ(w->v[2][l], l < 3 ? 20u : 10u);
   CHECK_EQ(w->v[2][40], 0u); /* lane 40 is no lane of a wave32 */
   CHECK_EQ(w->v[3][0], 0u);  /* VCC_LO = 0: branched, whatever VCC_HI holds */
}

/* The first comparison again, for its VCC: v_cmp_gt_u32 sets VCC_LO = 0xFFFFFFC0. */
TEST(w32_vcc)
{
   sim_wave *w = wave32();
   for (unsigned l = 0; l < 64; l++)
      w->v[1][l] = l;
   CHECK_EQ(t_run(w, "v_cmp_lt_u32 vcc_lo, 5, v1"), SIM_FAULT_NONE);
   CHECK_EQ(w->s[106], 0xFFFFFFC0u);
   CHECK_EQ(w->s[107], 0u);
}

/* 64-bit adds through 32-bit carries: v[2:3] = 0xFFFFFFFF + lane, v[4:5] = 1 + 0:
 * v_add_co_u32 v6, s12, v2, v4 carries out of lanes 0..31 (all wrap: 0xFFFFFFFF + lane + 1);
 * v_add_co_ci_u32 v7, s13, v3, v5, s12 adds the carry: v7 = 0 + 0 + 1. */
TEST(w32_carries)
{
   sim_wave *w = wave32();
   for (unsigned l = 0; l < 64; l++) {
      w->v[2][l] = 0xFFFFFFFFu - (l & 1);
      w->v[3][l] = 0;
      w->v[4][l] = 1;
      w->v[5][l] = 0;
   }
   w->s[13] = 0xAAAAAAAA;
   CHECK_EQ(t_run(w, "v_add_co_u32 v6, s12, v2, v4\n"
                     "v_add_co_ci_u32_e64 v7, s14, v3, v5, s12\n"
                     "v_add_co_ci_u32 v8, vcc_lo, 0, v3, vcc_lo"),
            SIM_FAULT_NONE);
   CHECK_EQ(w->s[12], 0x55555555u); /* even lanes wrapped */
   CHECK_EQ(w->s[13], 0xAAAAAAAAu); /* a 32-bit carry-out */
   CHECK_EQ(w->s[14], 0u);
   for (unsigned l = 0; l < 32; l++) {
      CHECK_EQ(w->v[6][l], (l & 1) ? 0xFFFFFFFFu : 0u);
      CHECK_EQ(w->v[7][l], (l & 1) ? 0u : 1u);
   }
}

/* The translator's 64-bit multiply-add in a wave32 (sim_xlate_alu.c): the carry a 32-bit
 * mask in SDST alone (s11 kept), lanes off EXEC neither written nor carrying, the null
 * SDST (gfx10's v_mad_u64_u32 v[a:b], null, ... of 64-bit indices) dropped. */
TEST(w32_mad64)
{
   sim_wave *w = wave32();
   for (unsigned l = 0; l < 64; l++) {
      w->v[1][l] = 0xFFFF0000u + l * 0x1111u;
      w->v[2][l] = 0x10001u * (l + 1);
      w->v[3][l] = 0xFFFFFFFFu - l;
      w->v[4][l] = l & 1 ? 0xFFFFFFFFu : 0;
      w->v[20][l] = w->v[21][l] = w->v[22][l] = 0xDEAD;
   }
   w->s[11] = 0xAAAAAAAA;
   SIM_EXEC(w) = 0x0FFFFFFF;
   CHECK_EQ(t_run(w, "v_mad_u64_u32 v[20:21], s10, v1, v2, v[3:4]\n"
                     "v_mad_i64_i32 v[22:23], null, v2, v1, v[3:4]"),
            SIM_FAULT_NONE);
   uint32_t cy = 0;
   for (unsigned l = 0; l < 32; l++) {
      uint64_t c = w->v[3][l] | (uint64_t)w->v[4][l] << 32;
      uint64_t u = (uint64_t)w->v[1][l] * w->v[2][l] + c;
      uint64_t i = (uint64_t)((int64_t)(int32_t)w->v[2][l] * (int32_t)w->v[1][l]) + c;
      bool on = l < 28;
      cy |= (uint32_t)(on && u < c) << l;
      CHECK_EQ(w->v[20][l], on ? (uint32_t)u : 0xDEAD);
      CHECK_EQ(w->v[21][l], on ? (uint32_t)(u >> 32) : 0xDEAD);
      CHECK_EQ(w->v[22][l], on ? (uint32_t)i : 0xDEAD);
   }
   CHECK(cy != 0 && cy != 0x0FFFFFFF);
   CHECK_EQ(w->s[10], cy);
   CHECK_EQ(w->s[11], 0xAAAAAAAAu);
   CHECK_EQ(w->v[20][40], 0xDEAD); /* lane 40 is no lane of a wave32 */
}

/* gfx10's v_cmpx writes EXEC alone (VCC kept; the VOP3 form has no destination), in the
 * wave's 32 lanes; the next instruction runs under it. */
TEST(w32_cmpx_block)
{
   sim_wave *w = wave32();
   for (unsigned l = 0; l < 64; l++) {
      w->v[1][l] = l;
      w->v[5][l] = 0xAAAA;
   }
   w->s[SIM_SRC_VCC] = 0x12345678;
   SIM_EXEC(w) = 0xFFFF0FFFull;
   CHECK_EQ(t_run(w, "v_cmpx_gt_u32 20, v1\n"
                     "v_mov_b32 v5, 1\n"
                     "v_cmpx_le_u32_e64 3, v1\n"
                     "v_mov_b32 v5, 2"),
            SIM_FAULT_NONE);
   CHECK_EQ(w->s[SIM_SRC_VCC], 0x12345678u);
   CHECK_EQ(SIM_EXEC(w), 0x000FFFF8ull & 0xFFFF0FFFull);
   for (unsigned l = 0; l < 64; l++) {
      uint32_t want = l >= 32 || !((0xFFFF0FFFu >> l) & 1) || l >= 20 ? 0xAAAA
                      : l >= 3 ? 2 : 1;
      CHECK_EQ(w->v[5][l], want);
   }
}

/* s_and_saveexec_b32 s20, s21 (s21 = 0xF0F0F0F0, EXEC_LO = 0xFFFF00FF): s20 = old EXEC_LO,
 * EXEC_LO = 0xF0F000F0, SCC = 1; writes to EXEC_HI are dropped in a wave32; null reads 0
 * and its writes vanish. */
TEST(w32_exec)
{
   sim_wave *w = wave32();
   SIM_EXEC(w) = 0xFFFF00FFull;
   w->s[21] = 0xF0F0F0F0;
   CHECK_EQ(t_run(w, "s_and_saveexec_b32 s20, s21\n"
                     "s_mov_b32 exec_hi, -1\n"
                     "s_mov_b32 null, 7\n"
                     "s_add_u32 s22, null, 5\n"
                     "v_mov_b32 v1, 9"),
            SIM_FAULT_NONE);
   CHECK_EQ(w->s[20], 0xFFFF00FFu);
   CHECK_EQ(SIM_EXEC(w), 0xF0F000F0ull);
   CHECK_EQ(w->s[22], 5u);
   CHECK_EQ(w->v[1][4], 9u);
   CHECK_EQ(w->v[1][0], 0u);
   CHECK_EQ(w->v[1][36], 0u);
}

/* gfx10's v_cmpx writes EXEC only: VCC keeps its value. */
TEST(w32_cmpx)
{
   sim_wave *w = wave32();
   for (unsigned l = 0; l < 64; l++)
      w->v[1][l] = l;
   w->s[106] = 0x1234;
   CHECK_EQ(t_run(w, "v_cmpx_gt_u32 8, v1"), SIM_FAULT_NONE);
   CHECK_EQ(SIM_EXEC(w), 0xFFull);
   CHECK_EQ(w->s[106], 0x1234u);
}

/* Lane indices modulo the wave size: v_readlane_b32 s2, v1, 33 reads lane 1;
 * ds_bpermute_b32 with address 4 * (lane + 33) reads lane (lane + 1) % 32. */
TEST(w32_lane_indices)
{
   sim_wave *w = wave32();
   for (unsigned l = 0; l < 64; l++) {
      w->v[1][l] = 100 + l;
      w->v[2][l] = 4 * (l + 33);
   }
   CHECK_EQ(t_run(w, "v_readlane_b32 s2, v1, 33\n"
                     "ds_bpermute_b32 v3, v2, v1\n"
                     "s_waitcnt lgkmcnt(0)"),
            SIM_FAULT_NONE);
   CHECK_EQ(w->s[2], 101u);
   for (unsigned l = 0; l < 32; l++)
      CHECK_EQ(w->v[3][l], 100 + (l + 1) % 32);
}

/* v_permlanex16_b32 v2, v1, s4, s5 with selects 0xFEDCBA98:0x76543210 (identity): lane i of
 * a row reads lane i of the other row; DPP8 [7,6,5,4,3,2,1,0] reverses each eight lanes;
 * row_share:3 gives every lane of a row its lane 3. */
TEST(gfx10_lane_moves)
{
   sim_wave *w = wave32();
   for (unsigned l = 0; l < 64; l++)
      w->v[1][l] = l;
   w->s[4] = 0x76543210;
   w->s[5] = 0xFEDCBA98;
   CHECK_EQ(t_run(w, "v_permlanex16_b32 v2, v1, s4, s5\n"
                     "v_mov_b32_dpp v3, v1 dpp8:[7,6,5,4,3,2,1,0]\n"
                     "v_mov_b32_dpp v4, v1 row_share:3 row_mask:0xf bank_mask:0xf"),
            SIM_FAULT_NONE);
   for (unsigned l = 0; l < 32; l++) {
      CHECK_EQ(w->v[2][l], l ^ 16);
      CHECK_EQ(w->v[3][l], (l & ~7u) + 7 - (l & 7));
      CHECK_EQ(w->v[4][l], (l & ~15u) + 3);
   }
}

/* The renamed adds and the FMA with a constant: v_add_nc_u32 (no carry), v_sub_nc_u32,
 * v_fmamk_f32 v4 = v1 * 2.5 + v2, v_fma_f32 with a VOP3 literal: 3 * 1.5 + 0.5. */
TEST(gfx10_valu)
{
   sim_wave *w = wave32();
   for (unsigned l = 0; l < 64; l++) {
      w->v[1][l] = t_u(2.0f);
      w->v[2][l] = t_u(1.0f);
      w->v[5][l] = 0xFFFFFFFF;
      w->v[6][l] = 3;
   }
   CHECK_EQ(t_run(w, "v_fmamk_f32 v4, v1, 0x40200000, v2\n"
                     "v_add_nc_u32 v7, v5, v6\n"
                     "v_sub_nc_u32 v8, v6, v5\n"
                     "v_mov_b32 v9, 0x40400000\n"
                     "v_fma_f32 v10, v9, 0x3fc00000, 0.5"),
            SIM_FAULT_NONE);
   CHECK_EQ(w->v[4][0], t_u(6.0f));
   CHECK_EQ(w->v[7][5], 2u);
   CHECK_EQ(w->v[8][5], 4u);
   CHECK_EQ(w->v[10][31], t_u(5.0f));
}

/* M0-relative moves: M0 = 2; v_movrels_b32 v10, v1 reads v3; v_movreld_b32 v20, v1 writes
 * v22; gfx10's FLAT_SCRATCH is a hardware register: s_setreg/s_getreg FLAT_SCR_LO/HI. */
TEST(gfx10_movrel_flat_scratch)
{
   sim_wave *w = wave32();
   for (unsigned l = 0; l < 64; l++) {
      w->v[1][l] = 100 + l;
      w->v[3][l] = 300 + l;
   }
   w->s[4] = 0x12345000;
   w->s[5] = 0x7F;
   CHECK_EQ(t_run(w, "s_mov_b32 m0, 2\n"
                     "v_movrels_b32 v10, v1\n"
                     "v_movreld_b32 v20, v1\n"
                     "s_setreg_b32 hwreg(HW_REG_FLAT_SCR_LO), s4\n"
                     "s_setreg_b32 hwreg(HW_REG_FLAT_SCR_HI), s5\n"
                     "s_getreg_b32 s6, hwreg(HW_REG_FLAT_SCR_HI)"),
            SIM_FAULT_NONE);
   CHECK_EQ(w->v[10][7], 307u);
   CHECK_EQ(w->v[22][7], 107u);
   CHECK_EQ(w->v[20][7], 0u);
   CHECK_EQ(w->flat_scratch, 0x7F12345000ull);
   CHECK_EQ(w->s[6], 0x7Fu);
}

/* Dispatches in wave32 (kernel_code_properties.ENABLE_WAVEFRONT_SIZE32): each work-item
 * stores its lane in its wave (v_mbcnt_lo of -1), so work-item t of a 48-item group writes
 * t % 32, the second wave having 16 lanes; without the bit the group is one wave64. A 1024-item group of 120-VGPR
 * wave32s fits a work-group processor's 4 SIMDs (8 waves a SIMD, 960 of 1024 VGPRs) with
 * COMPUTE_PGM_RSRC1.WGP_MODE, not a CU's 2 (16 a SIMD). */
TEST(gfx10_dispatch_wave32)
{
   wave32(); /* llvm-mc for gfx1030 */
   sim__isa_agent_target_set(4, sim__target(SIM_TARGET_GFX1030));
   uint32_t *out = t_alloc(1024 * 4, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   uint64_t *ka = t_alloc(8, SIM_ALLOC_READ);
   *ka = (uint64_t)(uintptr_t)out;
   for (unsigned i = 0; i < 1024; i++)
      out[i] = 0xDEAD;
   /* RSRC1: VGPRS = 1 (16), DX10_CLAMP, IEEE; RSRC2: 2 user SGPRs. */
   uint32_t rsrc[3] = {1u | 1u << 21 | 1u << 23, 2u << 1, 0};
   const uint16_t wg[3] = {48, 1, 1};
   const char *src = "s_load_dwordx2 s[0:1], s[0:1], 0\n"
                     "s_waitcnt lgkmcnt(0)\n"
                     "v_mbcnt_lo_u32_b32 v1, -1, 0\n"
                     "v_lshlrev_b32 v2, 2, v0\n"
                     "global_store_dword v2, v1, s[0:1]";
   t_kcode_extra = 1u << 10;
   CHECK_EQ(t_dispatch_kd(4, src, rsrc, wg, 1, ka), SIM_FAULT_NONE);
   for (unsigned t = 0; t < 48; t++)
      CHECK_EQ(out[t], t % 32);
   CHECK_EQ(out[48], 0xDEADu);
   /* Without the bit, a wave64: one wave of 48 lanes, where v_mbcnt_lo counts lanes 0-31. */
   t_kcode_extra = 0;
   CHECK_EQ(t_dispatch_kd(4, src, rsrc, wg, 1, ka), SIM_FAULT_NONE);
   for (unsigned t = 0; t < 48; t++)
      CHECK_EQ(out[t], t < 32 ? t : 32u);
   t_kcode_extra = 1u << 10;
   const uint16_t big[3] = {1024, 1, 1};
   rsrc[0] = 14u | 1u << 21 | 1u << 23 | 1u << 29; /* 120 VGPRs, WGP_MODE */
   CHECK_EQ(t_dispatch_kd(4, src, rsrc, big, 1, ka), SIM_FAULT_NONE);
   CHECK_EQ(out[1023], 31u);
   rsrc[0] &= ~(1u << 29);
   CHECK_EQ(t_dispatch_kd(4, src, rsrc, big, 1, ka), SIM_FAULT_OUT_OF_RESOURCES);
   t_kcode_extra = 0;
}

/* Private memory through ROCr's gfx10 scratch V# (amd_queue_t's, word 3 0x21814fac: FORMAT
 * 32_UINT, ADD_TID_ENABLE, RESOURCE_LEVEL, OOB_SELECT 2 and INDEX_STRIDE 0, which the CP
 * fills in from the wave size). Each lane stores 200 + lane at offset 0 and 100 + lane at
 * offset 4 and reads offset 4 back. Swizzled with index stride 32 (wave32), dword d of
 * lane l is at slot + d * 128 + l * 4; with 64 (wave64) at slot + d * 256 + l * 4. With
 * the V#'s stride of 8, lanes l and l + 8 would share a dword. */
TEST(gfx10_rocr_scratch_swizzle)
{
   wave32(); /* llvm-mc for gfx1030 */
   sim__isa_agent_target_set(4, sim__target(SIM_TARGET_GFX1030));
   uint32_t *out = t_alloc(64 * 4, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   uint32_t *mem = t_alloc(4096, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   uint64_t *ka = t_alloc(8, SIM_ALLOC_READ);
   *ka = (uint64_t)(uintptr_t)out;
   uint64_t base = (uint64_t)(uintptr_t)mem;
   const uint32_t srd[4] = {(uint32_t)base, (uint32_t)(base >> 32) | 1u << 31, 4096,
                            0x21814fac};
   sim_scratch qs;
   sim__scratch_init(&qs);
   CHECK(sim__scratch_set(&qs, base, 4096, 1024, 1, srd)); /* one slot: the wave's is 0 */
   /* RSRC1: 16 VGPRs, DX10_CLAMP, IEEE; RSRC2: SCRATCH_EN, 6 user SGPRs (V#, kernarg
    * pointer): the wave's scratch offset in s6. */
   const uint32_t rsrc[3] = {1u | 1u << 21 | 1u << 23, 1u | 6u << 1, 0};
   const char *src = "v_add_nc_u32 v1, 0x64, v0\n"
                     "v_add_nc_u32 v2, 0xc8, v0\n"
                     "buffer_store_dword v1, off, s[0:3], s6 offset:4\n"
                     "buffer_store_dword v2, off, s[0:3], s6\n"
                     "s_waitcnt_vscnt null, 0\n"
                     "buffer_load_dword v3, off, s[0:3], s6 offset:4\n"
                     "s_load_dwordx2 s[8:9], s[4:5], 0\n"
                     "s_waitcnt vmcnt(0) lgkmcnt(0)\n"
                     "v_lshlrev_b32 v4, 2, v0\n"
                     "global_store_dword v4, v3, s[8:9]";
   t_qscratch = &qs;
   t_private_size = 8;
   for (unsigned wave64 = 0; wave64 < 2; wave64++) {
      unsigned lanes = wave64 ? 64 : 32;
      const uint16_t wg[3] = {(uint16_t)lanes, 1, 1};
      memset(mem, 0, 4096);
      t_kcode_extra = 1u | (wave64 ? 0 : 1u << 10); /* private segment buffer, wave32 */
      CHECK_EQ(t_dispatch_kd(4, src, rsrc, wg, 1, ka), SIM_FAULT_NONE);
      for (unsigned l = 0; l < lanes; l++) {
         CHECK_EQ(out[l], 100 + l);
         CHECK_EQ(mem[l], 200 + l);
         CHECK_EQ(mem[lanes + l], 100 + l);
      }
   }
   t_kcode_extra = 0;
   t_private_size = 0;
   t_qscratch = NULL;
   sim__scratch_finish(&qs);
}

/* A gfx10 V#'s typed format is the one FORMAT field of word 3 (bits 18:12, gfx10's combined
 * table), not gfx9's DATA_FORMAT/NUM_FORMAT pair. FORMAT 56 is 8_8_8_8_UNORM: bytes
 * (0xFF, 0, 0x80, 0x33) of element 1 (stride 4, idxen) load as (1, 0, 128/255, 51/255).
 * FORMAT 22 is 32_FLOAT: buffer_store_format_x stores 2.5 as its bits. (gfx9's reading of
 * FORMAT 56 is DATA_FORMAT 7, 11_11_10, which the texture model lacks: a fault.) */
TEST(gfx10_vsharp_format)
{
   sim_wave *w = wave32();
   uint8_t *buf = t_alloc(64, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   const uint8_t texel[4] = {0xFF, 0x00, 0x80, 0x33};
   memcpy(buf + 4, texel, 4);
   uint64_t base = (uint64_t)(uintptr_t)buf;
   uint32_t w3 = 4u | 5u << 3 | 6u << 6 | 7u << 9 | 1u << 24 | 3u << 28; /* XYZW, raw OOB */
   w->s[8] = (uint32_t)base;
   w->s[9] = (uint32_t)(base >> 32) | 4u << 16; /* STRIDE 4 */
   w->s[10] = 16;                               /* NUM_RECORDS: elements */
   w->s[11] = w3 | 56u << 12;
   w->s[12] = w->s[8];
   w->s[13] = w->s[9];
   w->s[14] = w->s[10];
   w->s[15] = w3 | 22u << 12;
   for (unsigned l = 0; l < 64; l++) {
      w->v[1][l] = 1;
      w->v[2][l] = t_u(2.5f);
      w->v[3][l] = 2 + (l & 1); /* two lanes store the same element: the same value */
   }
   SIM_EXEC(w) = 3;
   CHECK_EQ(t_run(w, "buffer_load_format_xyzw v[4:7], v1, s[8:11], 0 idxen\n"
                     "buffer_store_format_x v2, v3, s[12:15], 0 idxen"),
            SIM_FAULT_NONE);
   CHECK_EQ(w->v[4][0], t_u(1.0f));
   CHECK_EQ(w->v[5][0], t_u(0.0f));
   CHECK_EQ(w->v[6][1], t_u(128.0f / 255.0f));
   CHECK_EQ(w->v[7][1], t_u(51.0f / 255.0f));
   uint32_t f[2];
   memcpy(f, buf + 8, 8);
   CHECK_EQ(f[0], t_u(2.5f));
   CHECK_EQ(f[1], t_u(2.5f));
}

/* A hand-built gfx10 T# (ROCr's gfx10 layout): 2D, 5 x 3 texels of FORMAT 56
 * (8_8_8_8_UNORM), WIDTH-1 = 4 split as bits 1:0 in word 1 [31:30] (0) and bits 13:2 in
 * word 2 (1), HEIGHT-1 = 2 in word 2 [27:14], PITCH-1 = 63 in word 4 (gfx10.3, 2D): texel
 * (x, y) at base + (y * 64 + x) * 4. Texel (4, 2) holds (0xFF, 0, 0x80, 0x33) -> (1, 0,
 * 128/255, 51/255); (5, 2) is outside the width: zero memory, alpha 0. As a 2D array (one
 * layers) the row is the width rounded up to 256 bytes, 64 texels again (no PITCH field),
 * and BASE_ARRAY is word 4 [28:16]: with BASE_ARRAY 1 and last layer (DEPTH) 1, layer 0 is
 * slice 1, where texel (2, 1) holds (0, 0xFF, 0, 0xFF). */
TEST(gfx10_tsharp)
{
   sim_wave *w = wave32();
   uint8_t *img = t_alloc(64 * 4 * 3 * 2 + 256, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   uint8_t *base = (uint8_t *)(((uintptr_t)img + 255) & ~(uintptr_t)255);
   const uint8_t texel[4] = {0xFF, 0x00, 0x80, 0x33}, texel1[4] = {0x00, 0xFF, 0x00, 0xFF};
   memcpy(base + (2 * 64 + 4) * 4, texel, 4);
   memcpy(base + 64 * 4 * 3 + (1 * 64 + 2) * 4, texel1, 4); /* slice 1, (2, 1) */
   uint64_t va = (uint64_t)(uintptr_t)base;
   uint32_t t[8] = {(uint32_t)(va >> 8), (uint32_t)(va >> 40) | 56u << 20 | 0u << 30,
                    1u | 2u << 14 | 1u << 31, 4u | 5u << 3 | 6u << 6 | 7u << 9 | 9u << 28,
                    63, 0, 0, 0};
   memcpy(&w->s[16], t, sizeof(t));
   uint32_t t2d[8];
   memcpy(t2d, t, sizeof(t));
   t[3] = (t[3] & 0x0FFFFFFF) | 13u << 28; /* 2D array */
   t[4] = 1u | 1u << 16;                   /* last layer 1, BASE_ARRAY 1 */
   memcpy(&w->s[24], t, sizeof(t));
   for (unsigned l = 0; l < 64; l++) {
      w->v[1][l] = 4 + l; /* lane 0: x 4, lane 1: x 5 */
      w->v[2][l] = 2;
      w->v[8][l] = 2;
      w->v[9][l] = 1;
      w->v[10][l] = 0;
   }
   SIM_EXEC(w) = 3;
   CHECK_EQ(t_run(w, "image_load v[4:7], v[1:2], s[16:23] dmask:0xf dim:SQ_RSRC_IMG_2D unorm\n"
                     "image_load v[12:15], v[8:10], s[24:31] dmask:0xf "
                     "dim:SQ_RSRC_IMG_2D_ARRAY unorm"),
            SIM_FAULT_NONE);
   CHECK_EQ(w->v[4][0], t_u(1.0f));
   CHECK_EQ(w->v[5][0], t_u(0.0f));
   CHECK_EQ(w->v[6][0], t_u(128.0f / 255.0f));
   CHECK_EQ(w->v[7][0], t_u(51.0f / 255.0f));
   CHECK_EQ(w->v[4][1], 0u);
   CHECK_EQ(w->v[7][1], 0u);
   CHECK_EQ(w->v[12][0], t_u(0.0f));
   CHECK_EQ(w->v[13][0], t_u(1.0f));
   CHECK_EQ(w->v[15][0], t_u(1.0f));
   /* The first T#'s dwords in a gfx906 wave right after: gfx9's layout, in which word 1's
    * DATA_FORMAT 56 is no format (an illegal-instruction fault), whatever this thread
    * decoded last (sim_mimg.c keeps its last decodes per target). */
   sim_wave *w9 = t_wave();
   memcpy(&w9->s[16], t2d, sizeof(t2d));
   SIM_EXEC(w9) = 1;
   CHECK_EQ(t_run(w9, "image_load v[4:7], v[1:2], s[16:23] dmask:0xf unorm"),
            SIM_FAULT_ILLEGAL_INSTRUCTION);
}

/* gfx10 NSA (non-sequential address) MIMG: the address dwords are VADDR and then one VGPR
 * per NSA byte, in any order, as LLVM encodes image accesses of three or more address dwords
 * (2D arrays, 3D) not in consecutive registers. Gfx10 T#s of ROCr's layout, FORMAT 56
 * (8_8_8_8_UNORM), 5 x 3 texels, 2 slices (DEPTH 1), no PITCH field: a row is 64 texels
 * (256 bytes), a slice 3 * 256 bytes. The VGPRs after each VADDR hold 0, so reading the
 * address as a contiguous tuple would reach (x, 0, 0), a zero texel (alpha 0), or store there.
 *   image_load  [v20, v3, v11] = (2, 1, 1) of the 2D array: (0, 0xFF, 0, 0xFF) -> (0, 1, 0, 1)
 *   image_store [v24, v2, v9] = (1, 2, 1) of the 3D image: (1, 0, 1, 0) -> bytes FF 00 FF 00
 *               at ((1 * 3 + 2) * 64 + 1) * 4
 *   image_sample_lz [v28, v31, v27] = (0.5, 0.5, 1.0) of the 2D array, point, normalized:
 *               texel (floor(2.5), floor(1.5)) = (2, 1) of slice 1 -> (0, 1, 0, 1) */
TEST(gfx10_mimg_nsa)
{
   sim_wave *w = wave32();
   const unsigned slice = 64 * 4 * 3;
   uint8_t *mem = t_alloc(4 * slice + 256, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   uint8_t *arr = (uint8_t *)(((uintptr_t)mem + 255) & ~(uintptr_t)255), *vol = arr + 2 * slice;
   const uint8_t texel[4] = {0x00, 0xFF, 0x00, 0xFF};
   memcpy(arr + slice + (1 * 64 + 2) * 4, texel, 4);
   uint64_t va = (uint64_t)(uintptr_t)arr, vb = (uint64_t)(uintptr_t)vol;
   const uint32_t sel = 4u | 5u << 3 | 6u << 6 | 7u << 9;
   uint32_t ta[8] = {(uint32_t)(va >> 8), (uint32_t)(va >> 40) | 56u << 20, 1u | 2u << 14,
                     sel | 13u << 28, 1, 0, 0, 0};
   uint32_t tb[8] = {(uint32_t)(vb >> 8), (uint32_t)(vb >> 40) | 56u << 20, 1u | 2u << 14,
                     sel | 10u << 28, 1, 0, 0, 0};
   memcpy(&w->s[16], ta, sizeof(ta));
   memcpy(&w->s[24], tb, sizeof(tb));
   w->s[32] = 2u | 2u << 3 | 2u << 6; /* S#: clamp to edge, point, normalized */
   w->s[33] = 0xFFFu << 12;
   w->s[34] = w->s[35] = 0;
   static const struct {
      unsigned v;
      uint32_t x;
   } regs[] = {
      {20, 2}, {3, 1}, {11, 1}, /* load address */
      {24, 1}, {2, 2}, {9, 1},  /* store address */
      {28, 0x3F000000}, {31, 0x3F000000}, {27, 0x3F800000}, /* sample: 0.5, 0.5, 1.0 */
      {21, 0}, {22, 0}, {25, 0}, {26, 0}, {29, 0}, {30, 0}, /* after each VADDR */
      {12, 0x3F800000}, {13, 0}, {14, 0x3F800000}, {15, 0}, /* store data (1, 0, 1, 0) */
   };
   for (unsigned i = 0; i < sizeof(regs) / sizeof(regs[0]); i++)
      for (unsigned l = 0; l < 64; l++)
         w->v[regs[i].v][l] = regs[i].x;
   SIM_EXEC(w) = 1;
   CHECK_EQ(t_run(w, "image_load v[4:7], [v20, v3, v11], s[16:23] dmask:0xf "
                     "dim:SQ_RSRC_IMG_2D_ARRAY unorm\n"
                     "image_store v[12:15], [v24, v2, v9], s[24:31] dmask:0xf "
                     "dim:SQ_RSRC_IMG_3D unorm\n"
                     "image_sample_lz v[40:43], [v28, v31, v27], s[16:23], s[32:35] dmask:0xf "
                     "dim:SQ_RSRC_IMG_2D_ARRAY"),
            SIM_FAULT_NONE);
   const uint32_t want[4] = {t_u(0.0f), t_u(1.0f), t_u(0.0f), t_u(1.0f)};
   for (unsigned c = 0; c < 4; c++) {
      CHECK_EQ(w->v[4 + c][0], want[c]);
      CHECK_EQ(w->v[40 + c][0], want[c]);
   }
   const uint8_t stored[4] = {0xFF, 0x00, 0xFF, 0x00}, zero[4] = {0};
   CHECK(memcmp(vol + slice + (2 * 64 + 1) * 4, stored, 4) == 0);
   CHECK(memcmp(vol + 1 * 4, zero, 4) == 0); /* (1, 0, 0): not written */
}

/* A gfx10 linear mip chain (the gfx10 address library's: smallest level first, each level's
 * own pitch, its width rounded up to 256 bytes): a 2D T# of 5 x 3 texels of FORMAT 56
 * (8_8_8_8_UNORM), PITCH-1 63, LAST_LEVEL and MAX_MIP (word 5 [7:4]) 2. Level 2 (1 x 1,
 * pitch 64) is at byte 0, level 1 (2 x 1, pitch 64) at 256, level 0 (5 x 3, pitch 64) at 512;
 * a slice is 1280 bytes. As a 1D array of 2 layers with MAX_MIP 1 (levels of 5 and 2 texels,
 * each one row of 64), a layer is 512 bytes: level 1 at 0, level 0 at 256.
 *   image_load_mip (4, 2, 0) -> byte 512 + (2 * 64 + 4) * 4: (0xFF, 0, 0x80, 0x33)
 *   image_load_mip (1, 0, 1) -> byte 256 + 4: (0, 0xFF, 0, 0xFF)
 *   image_load_mip (0, 0, 2) -> byte 0: (0x33, 0x33, 0x33, 0x33)
 *   image_store_mip (1, 0, 1) of the 1D array's layer 1 (x 1, layer 1, level 0) -> byte
 *   512 + 256 + 4; (1, 1, 1) (level 1 of layer 1) -> byte 512 + 4
 *   image_sample_l at LOD 1 (S# MIP_FILTER POINT), (0.75, 0.5): level 1 texel (1, 0). */
TEST(gfx10_mip_chain)
{
   sim_wave *w = wave32();
   uint8_t *mem = t_alloc(1280 + 1024 + 256, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   uint8_t *base = (uint8_t *)(((uintptr_t)mem + 255) & ~(uintptr_t)255), *arr = base + 1280;
   const uint8_t t0[4] = {0xFF, 0x00, 0x80, 0x33}, t1[4] = {0x00, 0xFF, 0x00, 0xFF},
                 t2[4] = {0x33, 0x33, 0x33, 0x33};
   memcpy(base + 512 + (2 * 64 + 4) * 4, t0, 4);
   memcpy(base + 256 + 4, t1, 4);
   memcpy(base, t2, 4);
   uint64_t va = (uint64_t)(uintptr_t)base, vb = (uint64_t)(uintptr_t)arr;
   const uint32_t sel = 4u | 5u << 3 | 6u << 6 | 7u << 9;
   uint32_t t[8] = {(uint32_t)(va >> 8), (uint32_t)(va >> 40) | 56u << 20, 1u | 2u << 14,
                    sel | 2u << 16 | 9u << 28, 63, 2u << 4, 0, 0};
   uint32_t ta[8] = {(uint32_t)(vb >> 8), (uint32_t)(vb >> 40) | 56u << 20, 1u,
                     sel | 1u << 16 | 12u << 28, 1, 1u << 4, 0, 0};
   memcpy(&w->s[16], t, sizeof(t));
   memcpy(&w->s[24], ta, sizeof(ta));
   w->s[32] = 2u | 2u << 3 | 2u << 6; /* S#: clamp to edge, point, normalized */
   w->s[33] = 0xFFFu << 12;
   w->s[34] = 1u << 26; /* MIP_FILTER POINT */
   w->s[35] = 0;
   static const uint32_t lane_xyz[3][3] = {{4, 2, 0}, {1, 0, 1}, {0, 0, 2}};
   static const uint32_t store_xyz[2][3] = {{1, 1, 0}, {1, 1, 1}}; /* x, layer, level */
   for (unsigned l = 0; l < 3; l++)
      for (unsigned c = 0; c < 3; c++)
         w->v[1 + c][l] = lane_xyz[l][c];
   for (unsigned l = 0; l < 2; l++) {
      for (unsigned c = 0; c < 3; c++)
         w->v[8 + c][l] = store_xyz[l][c];
      w->v[12][l] = t_u(1.0f);
      w->v[13][l] = t_u(0.0f);
      w->v[14][l] = t_u(l ? 0.0f : 1.0f);
      w->v[15][l] = t_u(1.0f);
   }
   for (unsigned l = 0; l < 32; l++) {
      w->v[20][l] = t_u(0.75f); /* s, t, LOD */
      w->v[21][l] = t_u(0.5f);
      w->v[22][l] = t_u(1.0f);
   }
   SIM_EXEC(w) = 7;
   CHECK_EQ(t_run(w, "image_load_mip v[4:7], v[1:3], s[16:23] dmask:0xf "
                     "dim:SQ_RSRC_IMG_2D unorm\n"
                     "image_sample_l v[40:43], v[20:22], s[16:23], s[32:35] dmask:0xf "
                     "dim:SQ_RSRC_IMG_2D"),
            SIM_FAULT_NONE);
   SIM_EXEC(w) = 3;
   CHECK_EQ(t_run(w, "image_store_mip v[12:15], v[8:10], s[24:31] dmask:0xf "
                     "dim:SQ_RSRC_IMG_1D_ARRAY unorm"),
            SIM_FAULT_NONE);
   const uint8_t *want[3] = {t0, t1, t2};
   for (unsigned l = 0; l < 3; l++)
      for (unsigned c = 0; c < 4; c++)
         CHECK_EQ(w->v[4 + c][l], t_u(want[l][c] / 255.0f));
   for (unsigned c = 0; c < 4; c++)
      CHECK_EQ(w->v[40 + c][0], t_u(t1[c] / 255.0f));
   const uint8_t s0[4] = {0xFF, 0x00, 0xFF, 0xFF}, s1[4] = {0xFF, 0x00, 0x00, 0xFF};
   CHECK(memcmp(arr + 512 + 256 + 4, s0, 4) == 0);
   CHECK(memcmp(arr + 512 + 4, s1, 4) == 0);
}

/* gfx10's float atomics and csub, one lane per dword (lanes 0-3, returning the old value):
 *   fmin  MEM (3, -0, qNaN, 1) with DATA (5, +0, 2, sNaN)  -> (3, -0, 2, sNaN quieted)
 *   fmax  MEM (3, -0, qNaN, 1) with DATA (5, +0, 2, 0.5)   -> (5, +0, 2, 1)
 *   fcmpswap (src 7, cmp): MEM (-0, qNaN, 1.5, 2) cmp (+0, qNaN, 1.5, 3)
 *                                                           -> (7, qNaN, 7, 2): float ==
 *   fcmpswap_x2 (f64): MEM -0.0 cmp +0.0 -> 7.0; fmin_x2: MEM 2.0 DATA -1.0 -> -1.0
 *   csub  MEM (10, 3, 0, 7) DATA (4, 5, 0, 7)              -> (6, 0, 0, 0)
 * and buffer_atomic_fmax through a raw V#: MEM 1 DATA 4 -> 4. */
TEST(gfx10_float_atomics)
{
   sim_wave *w = wave32();
   uint32_t *m = t_alloc(6 * 16 + 32, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   const uint32_t qnan = 0x7FC00000, snan = 0x7F800001, nz = 0x80000000;
   const uint32_t init[6][4] = {
      {t_u(3), nz, qnan, t_u(1)},     {t_u(3), nz, qnan, t_u(1)},
      {nz, qnan, t_u(1.5f), t_u(2)},  {10, 3, 0, 7},
      {t_u(1), 0, 0, 0},              {0, 0, 0, 0},
   };
   memcpy(m, init, sizeof(init));
   double *d = (double *)(void *)&m[24];
   d[0] = -0.0;
   d[1] = 2.0;
   uint64_t base = (uint64_t)(uintptr_t)m;
   w->s[0] = (uint32_t)base;
   w->s[1] = (uint32_t)(base >> 32);
   w->s[4] = (uint32_t)base + 64; /* the V#: raw, the fifth row */
   w->s[5] = (uint32_t)((base + 64) >> 32);
   w->s[6] = 16;
   w->s[7] = 4u | 5u << 3 | 6u << 6 | 7u << 9 | 22u << 12 | 1u << 24 | 3u << 28;
   const uint32_t mind[4] = {t_u(5), 0, t_u(2), snan}, maxd[4] = {t_u(5), 0, t_u(2), t_u(0.5f)};
   const uint32_t cmpv[4] = {0, qnan, t_u(1.5f), t_u(3)}, subd[4] = {4, 5, 0, 7};
   for (unsigned l = 0; l < 4; l++) {
      w->v[1][l] = l * 4;
      w->v[2][l] = mind[l];
      w->v[3][l] = maxd[l];
      w->v[4][l] = t_u(7);
      w->v[5][l] = cmpv[l];
      w->v[6][l] = subd[l];
   }
   /* f64: v[20:21] = 7.0, v[22:23] = +0.0 (fcmpswap_x2); v[24:25] = -1.0 (fmin_x2). */
   w->v[20][0] = 0;
   w->v[21][0] = 0x401C0000;
   w->v[22][0] = w->v[23][0] = 0;
   w->v[24][0] = 0;
   w->v[25][0] = 0xBFF00000;
   w->v[26][0] = 0;
   w->v[27][0] = 4;
   SIM_EXEC(w) = 0xF;
   CHECK_EQ(t_run(w, "global_atomic_fmin v10, v1, v2, s[0:1] glc\n"
                     "global_atomic_fmax v11, v1, v3, s[0:1] offset:16 glc\n"
                     "global_atomic_fcmpswap v12, v1, v[4:5], s[0:1] offset:32 glc\n"
                     "global_atomic_csub v13, v1, v6, s[0:1] offset:48 glc\n"
                     "s_mov_b32 exec_lo, 1\n"
                     "global_atomic_fcmpswap_x2 v[14:15], v26, v[20:23], s[0:1] offset:96 glc\n"
                     "global_atomic_fmin_x2 v[16:17], v26, v[24:25], s[0:1] offset:104 glc\n"
                     "v_mov_b32 v18, 4.0\n"
                     "buffer_atomic_fmax v18, off, s[4:7], 0 glc"),
            SIM_FAULT_NONE);
   const uint32_t want[4][4] = {
      {t_u(3), nz, t_u(2), snan | 0x400000},
      {t_u(5), 0, t_u(2), t_u(1)},
      {t_u(7), qnan, t_u(7), t_u(2)},
      {6, 0, 0, 0},
   };
   for (unsigned r = 0; r < 4; r++)
      for (unsigned l = 0; l < 4; l++)
         CHECK_EQ(m[r * 4 + l], want[r][l]);
   for (unsigned l = 0; l < 4; l++) {
      CHECK_EQ(w->v[10][l], init[0][l]);
      CHECK_EQ(w->v[13][l], init[3][l]);
   }
   CHECK_EQ(w->v[12][1], qnan);
   CHECK(d[0] == 7.0);
   CHECK(d[1] == -1.0);
   CHECK_EQ(w->v[15][0], 0x80000000u); /* the old -0.0 */
   CHECK_EQ(m[16], t_u(4));
   CHECK_EQ(w->v[18][0], t_u(1));
}

/* v_fma_legacy_f32 (fused, DX9 zero rule) and v_fmac_legacy_f32 (S2 = D), lanes 0-3:
 *   (0, inf, 5) -> 5;  (0, NaN, -0) -> +0 (the product is +0);  (2, 3, 1) -> 7;
 *   (1 + 2^-23, 1 - 2^-23, -1) -> -2^-46 (one rounding: the unfused result is 0). */
TEST(gfx10_fma_legacy)
{
   sim_wave *w = wave32();
   const float one_p = 1.0f + 0x1p-23f, one_m = 1.0f - 0x1p-23f;
   const uint32_t a[4] = {0, 0, t_u(2), t_u(one_p)};
   const uint32_t b[4] = {t_u(INFINITY), 0x7FC00000, t_u(3), t_u(one_m)};
   const uint32_t c[4] = {t_u(5), 0x80000000, t_u(1), t_u(-1)};
   for (unsigned l = 0; l < 4; l++) {
      w->v[0][l] = a[l];
      w->v[1][l] = b[l];
      w->v[2][l] = c[l];
      w->v[4][l] = c[l];
   }
   SIM_EXEC(w) = 0xF;
   CHECK_EQ(t_run(w, "v_fma_legacy_f32 v3, v0, v1, v2\n"
                     "v_fmac_legacy_f32 v4, v0, v1"),
            SIM_FAULT_NONE);
   const uint32_t want[4] = {t_u(5), 0, t_u(7), t_u(-0x1p-46f)};
   for (unsigned l = 0; l < 4; l++) {
      CHECK_EQ(w->v[3][l], want[l]);
      CHECK_EQ(w->v[4][l], want[l]);
   }
}

void
t_gfx1030_tests(void)
{
   RUN(gfx10_fma_legacy);
   RUN(gfx10_float_atomics);
   RUN(gfx10_tsharp);
   RUN(gfx10_mimg_nsa);
   RUN(gfx10_mip_chain);
   RUN(gfx10_vsharp_format);
   RUN(gfx10_rocr_scratch_swizzle);
   RUN(gfx10_dispatch_wave32);
   RUN(gfx10_movrel_flat_scratch);
   RUN(w32_compare_masks);
   RUN(w32_vcc);
   RUN(w32_carries);
   RUN(w32_mad64);
   RUN(w32_cmpx_block);
   RUN(w32_exec);
   RUN(w32_cmpx);
   RUN(w32_lane_indices);
   RUN(gfx10_lane_moves);
   RUN(gfx10_valu);
}
