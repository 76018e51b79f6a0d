/*
 * gfx90a (CDNA2) instruction tests: the AGPRs (v_accvgpr_*, the ACC bit of memory
 * instructions), packed FP32, v_fmac_f64, the accumulating dot products, float atomics, the
 * per-target decode tables, and a dispatch with ACCUM_OFFSET and packed work-item IDs.
 * Results worked by hand in the comments.
 */
#include "sim_isa_test.h"

static const sim_target *
gfx90a(void)
{
   return sim__target(SIM_TARGET_GFX90A);
}

#define AGPR(w, n) ((w)->v[256 + (n)])

/* a3 = v1; a5 = a3; v2 = a5; a0 = 7 (inline constant). */
TEST(accvgpr_moves)
{
   sim_wave *w = t_wave_target(gfx90a());
   for (unsigned l = 0; l < 64; l++)
      w->v[1][l] = 0x12345678u + l;
   CHECK_EQ(t_run(w, "v_accvgpr_write_b32 a3, v1\n"
                     "v_accvgpr_mov_b32 a5, a3\n"
                     "v_accvgpr_read_b32 v2, a5\n"
                     "v_accvgpr_write_b32 a0, 7"),
            SIM_FAULT_NONE);
   for (unsigned l = 0; l < 64; l += 21) {
      CHECK_EQ(AGPR(w, 3)[l], 0x12345678u + l);
      CHECK_EQ(AGPR(w, 5)[l], 0x12345678u + l);
      CHECK_EQ(w->v[2][l], 0x12345678u + l);
      CHECK_EQ(AGPR(w, 0)[l], 7);
   }
   /* AGPR 8 past the 4 the wave has: faults as a VGPR past the allocation does. */
   w = t_wave_target(gfx90a());
   w->nagpr = 4;
   CHECK_EQ(t_run(w, "v_accvgpr_write_b32 a8, v1"), SIM_FAULT_ILLEGAL_INSTRUCTION);
}

/* v[0:1] = (2, 3), v[2:3] = (5, 7), v[6:7] = (1, -1):
 *   v_pk_fma_f32 v[4:5]: (2*5+1, 3*7-1) = (11, 20)
 *   v_pk_mul_f32 op_sel:[1,0] op_sel_hi:[0,1]: lo = S0.hi * S1.lo = 3*5 = 15,
 *     hi = S0.lo * S1.hi = 2*7 = 14
 *   v_pk_add_f32 neg_lo:[0,1] neg_hi:[1,0]: lo = 2 + -5 = -3, hi = -3 + 7 = 4
 *   v_pk_mov_b32 op_sel:[1,0]: lo = S0.hi = 3, hi = S1.lo = 5 */
TEST(packed_fp32)
{
   sim_wave *w = t_wave_target(gfx90a());
   for (unsigned l = 0; l < 64; l++) {
      w->v[0][l] = t_u(2.0f);
      w->v[1][l] = t_u(3.0f);
      w->v[2][l] = t_u(5.0f);
      w->v[3][l] = t_u(7.0f);
      w->v[6][l] = t_u(1.0f);
      w->v[7][l] = t_u(-1.0f);
   }
   CHECK_EQ(t_run(w, "v_pk_fma_f32 v[4:5], v[0:1], v[2:3], v[6:7]\n"
                     "v_pk_mul_f32 v[8:9], v[0:1], v[2:3] op_sel:[1,0] op_sel_hi:[0,1]\n"
                     "v_pk_add_f32 v[10:11], v[0:1], v[2:3] neg_lo:[0,1] neg_hi:[1,0]\n"
                     "v_pk_mov_b32 v[12:13], v[0:1], v[2:3] op_sel:[1,0]"),
            SIM_FAULT_NONE);
   CHECK_EQ(w->v[4][9], t_u(11.0f));
   CHECK_EQ(w->v[5][9], t_u(20.0f));
   CHECK_EQ(w->v[8][9], t_u(15.0f));
   CHECK_EQ(w->v[9][9], t_u(14.0f));
   CHECK_EQ(w->v[10][9], t_u(-3.0f));
   CHECK_EQ(w->v[11][9], t_u(4.0f));
   CHECK_EQ(w->v[12][9], t_u(3.0f));
   CHECK_EQ(w->v[13][9], t_u(5.0f));
}

/* The same packed-FP32 word on a gfx906 wave: no such opcode there (its table has no
 * VOP3P 48), an illegal instruction; the code allocation decodes once per target. */
TEST(per_target_tables)
{
   sim_wave *w = t_wave_target(gfx90a());
   w->target = sim__target(SIM_TARGET_GFX906);
   CHECK_EQ(t_run(w, "v_pk_fma_f32 v[4:5], v[0:1], v[2:3], v[6:7]"),
            SIM_FAULT_ILLEGAL_INSTRUCTION);
}

/* v[4:5] = 1.5 * 4.0 + 0.25 = 6.25. */
TEST(fmac_f64)
{
   sim_wave *w = t_wave_target(gfx90a());
   double a = 1.5, b = 4.0, c = 0.25, r;
   uint64_t ua, ub, uc;
   memcpy(&ua, &a, 8), memcpy(&ub, &b, 8), memcpy(&uc, &c, 8);
   for (unsigned l = 0; l < 64; l++) {
      w->v[0][l] = (uint32_t)ua, w->v[1][l] = (uint32_t)(ua >> 32);
      w->v[2][l] = (uint32_t)ub, w->v[3][l] = (uint32_t)(ub >> 32);
      w->v[4][l] = (uint32_t)uc, w->v[5][l] = (uint32_t)(uc >> 32);
   }
   CHECK_EQ(t_run(w, "v_fmac_f64 v[4:5], v[0:1], v[2:3]"), SIM_FAULT_NONE);
   uint64_t ur = w->v[4][3] | (uint64_t)w->v[5][3] << 32;
   memcpy(&r, &ur, 8);
   CHECK(r == 6.25);
}

/* D += dot(S0, S1):
 *   dot4c_i32_i8: bytes (4, 3, 2, -1) . (8, 7, 6, 5) = 32 + 21 + 12 - 5 = 60; 100 + 60 = 160
 *   dot2c_f32_f16: (1.0, 2.0) . (3.0, 0.5) = 4; 0.5 + 4 = 4.5
 *   dot2c_i32_i16: (-2, 3) . (5, 7) = 11; 1 + 11 = 12
 *   dot8c_i32_i4: nibbles (2, 1, 0...) . (3, -1, 0...) = 5; 0 + 5 = 5 */
TEST(dot_accumulate)
{
   sim_wave *w = t_wave_target(gfx90a());
   for (unsigned l = 0; l < 64; l++) {
      w->v[0][l] = 0xFF020304u, w->v[1][l] = 0x05060708u, w->v[2][l] = 100;
      w->v[3][l] = 0x40003C00u, w->v[4][l] = 0x38004200u, w->v[5][l] = t_u(0.5f);
      w->v[6][l] = 0x0003FFFEu, w->v[7][l] = 0x00070005u, w->v[8][l] = 1;
      w->v[9][l] = 0x12u, w->v[10][l] = 0xF3u, w->v[11][l] = 0;
   }
   CHECK_EQ(t_run(w, "v_dot4c_i32_i8 v2, v0, v1\n"
                     "v_dot2c_f32_f16 v5, v3, v4\n"
                     "v_dot2c_i32_i16 v8, v6, v7\n"
                     "v_dot8c_i32_i4 v11, v9, v10"),
            SIM_FAULT_NONE);
   CHECK_EQ(w->v[2][17], 160);
   CHECK_EQ(w->v[5][17], t_u(4.5f));
   CHECK_EQ(w->v[8][17], 12);
   CHECK_EQ(w->v[11][17], 5);
}

/* The ACC bit: a global load into a1, a store from a1, an LDS write from a2 and a read into
 * a4 (each lane its own dword). */
TEST(acc_memory)
{
   sim_wave *w = t_wave_target(gfx90a());
   uint32_t *in = t_alloc(256, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   uint32_t *out = t_alloc(256, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   for (unsigned l = 0; l < 64; l++) {
      in[l] = 1000 + l;
      w->v[0][l] = 4 * l;
      AGPR(w, 2)[l] = 77 * l;
   }
   uint64_t a = (uint64_t)(uintptr_t)in, b = (uint64_t)(uintptr_t)out;
   w->s[2] = (uint32_t)a, w->s[3] = (uint32_t)(a >> 32);
   w->s[4] = (uint32_t)b, w->s[5] = (uint32_t)(b >> 32);
   CHECK_EQ(t_run(w, "global_load_dword a1, v0, s[2:3]\n"
                     "s_waitcnt vmcnt(0)\n"
                     "v_accvgpr_read_b32 v3, a1\n"
                     "global_store_dword v0, a1, s[4:5]\n"
                     "ds_write_b32 v0, a2\n"
                     "s_waitcnt lgkmcnt(0)\n"
                     "ds_read_b32 a4, v0\n"
                     "s_waitcnt vmcnt(0) lgkmcnt(0)"),
            SIM_FAULT_NONE);
   for (unsigned l = 0; l < 64; l += 13) {
      CHECK_EQ(AGPR(w, 1)[l], 1000 + l);
      CHECK_EQ(w->v[3][l], 1000 + l);
      CHECK_EQ(out[l], 1000 + l);
      CHECK_EQ(AGPR(w, 4)[l], 77 * l);
      CHECK_EQ(w->v[1][l], 0); /* no VGPR took the data */
   }
}

/* A gfx90a dispatch of one 4x4x2 work-group (one wave, lane = x + 4y + 16z): v0 holds the
 * packed work-item ID x | y << 10 | z << 20; RSRC1 allocates 2 granules of 8 (16 registers)
 * and RSRC3.ACCUM_OFFSET = 1 puts the AGPRs after 8 VGPRs, so a0-a7 exist and a8 does not. */
TEST(dispatch_packed_ids)
{
   sim__isa_agent_target_set(3, gfx90a());
   uint32_t *out = t_alloc(64 * 4, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   uint64_t *ka = t_alloc(8, SIM_ALLOC_READ);
   *ka = (uint64_t)(uintptr_t)out;
   /* RSRC1: VGPRS = 1, DX10_CLAMP, IEEE; RSRC2: 2 user SGPRs, TIDIG_COMP_CNT = 2. */
   const uint32_t rsrc[3] = {1u | 1u << 21 | 1u << 23, 2u << 1 | 2u << 11, 1u};
   const uint16_t wg[3] = {4, 4, 2};
   const char *src = "s_load_dwordx2 s[0:1], s[0:1], 0\n"
                     "s_waitcnt lgkmcnt(0)\n"
                     "v_accvgpr_write_b32 a7, v0\n"
                     "v_accvgpr_read_b32 v2, a7\n"
                     "v_mbcnt_lo_u32_b32 v1, -1, 0\n"
                     "v_mbcnt_hi_u32_b32 v1, -1, v1\n"
                     "v_lshlrev_b32 v1, 2, v1\n"
                     "global_store_dword v1, v2, s[0:1]";
   CHECK_EQ(t_dispatch_kd(3, src, rsrc, wg, 1, ka), SIM_FAULT_NONE);
   for (unsigned l = 0; l < 32; l++)
      CHECK_EQ(out[l], (l % 4) | (l / 4 % 4) << 10 | (l / 16) << 20);
   const char *past = "v_accvgpr_write_b32 a8, v0";
   CHECK_EQ(t_dispatch_kd(3, past, rsrc, wg, 1, ka), SIM_FAULT_ILLEGAL_INSTRUCTION);
}

/* Float atomics (GLC returns the old value). 64 lanes add 0.25 to one double holding 1.5, in
 * lane order: lane l reads 1.5 + 0.25 l and the double ends at 1.5 + 16 = 17.5. min/max_f64
 * of 31.5 into a double per lane holding l: min(l, 31.5), max(l, 31.5). 64 x 0.5f onto
 * 2.0f: 34.0f. flat_atomic_add_f64 of 0.25 from 64 lanes onto -1.0: 15.0. */
TEST(fp_atomics)
{
   sim_wave *w = t_wave_target(gfx90a());
   const uint32_t rw = SIM_ALLOC_READ | SIM_ALLOC_WRITE;
   double *one = t_alloc(8, rw), *lo = t_alloc(64 * 8, rw), *hi = t_alloc(64 * 8, rw);
   double *flat = t_alloc(8, rw);
   float *f = t_alloc(4, rw);
   *one = 1.5, *flat = -1.0, *f = 2.0f;
   double quarter = 0.25, bound = 31.5;
   uint64_t uq, ub, uf = (uint64_t)(uintptr_t)flat;
   memcpy(&uq, &quarter, 8), memcpy(&ub, &bound, 8);
   for (unsigned l = 0; l < 64; l++) {
      lo[l] = hi[l] = l;
      w->v[0][l] = 0, w->v[1][l] = 8 * l;
      w->v[2][l] = (uint32_t)uq, w->v[3][l] = (uint32_t)(uq >> 32);
      w->v[4][l] = (uint32_t)ub, w->v[5][l] = (uint32_t)(ub >> 32);
      w->v[6][l] = t_u(0.5f);
      w->v[10][l] = (uint32_t)uf, w->v[11][l] = (uint32_t)(uf >> 32);
   }
   const void *base[4] = {one, lo, hi, f};
   for (unsigned i = 0; i < 4; i++) {
      uint64_t a = (uint64_t)(uintptr_t)base[i];
      w->s[2 + 2 * i] = (uint32_t)a, w->s[3 + 2 * i] = (uint32_t)(a >> 32);
   }
   CHECK_EQ(t_run(w, "global_atomic_add_f64 v[12:13], v0, v[2:3], s[2:3] glc\n"
                     "global_atomic_min_f64 v1, v[4:5], s[4:5]\n"
                     "global_atomic_max_f64 v1, v[4:5], s[6:7]\n"
                     "global_atomic_add_f32 v0, v6, s[8:9]\n"
                     "flat_atomic_add_f64 v[10:11], v[2:3]\n"
                     "s_waitcnt vmcnt(0) lgkmcnt(0)"),
            SIM_FAULT_NONE);
   CHECK(*one == 17.5);
   for (unsigned l = 0; l < 64; l += 7) {
      uint64_t u = w->v[12][l] | (uint64_t)w->v[13][l] << 32;
      double old;
      memcpy(&old, &u, 8);
      CHECK(old == 1.5 + 0.25 * l);
      CHECK(lo[l] == (l < 31.5 ? (double)l : 31.5));
      CHECK(hi[l] == (l > 31.5 ? (double)l : 31.5));
   }
   CHECK(*f == 34.0f);
   CHECK(*flat == 15.0);
}

/* ---- MFMA (sim_mfma.c): layouts as the CDNA2 guide gives them, results worked by hand ---- */

static void
t_set64(sim_wave *w, unsigned row, unsigned lane, double d)
{
   uint64_t u;
   memcpy(&u, &d, 8);
   w->v[row][lane] = (uint32_t)u, w->v[row + 1][lane] = (uint32_t)(u >> 32);
}

static double
t_get64(const uint32_t *lo, const uint32_t *hi, unsigned lane)
{
   uint64_t u = lo[lane] | (uint64_t)hi[lane] << 32;
   double d;
   memcpy(&d, &u, 8);
   return d;
}

/* 4x4x1, 16 blocks: A[b][i] is lane 4b+i, B[b][j] lane 4b+j, D[b][i][j] register i of lane
 * 4b+j. v0 = lane+1, v1 = lane%4+1, C = a[0:3] = 100: D = 100 + (4b+i+1)(j+1).
 *   lane 9 (b 2, j 1), a3 (i 3): 100 + 12*2 = 124; lane 63 (b 15, j 3), a0: 100 + 61*4 = 344.
 * With CBSZ 4, ABID 3 (every block reads block 3's A: 13+i) and BLGP 4 (B from lane l%16,
 * v1 = lane+1 there): D = (13+i) ((4b+j)%16 + 1); lane 23 (b 5, j 3), i 2: 15 * 8 = 120. */
TEST(mfma_4x4x1f32)
{
   sim_wave *w = t_wave_target(gfx90a());
   for (unsigned l = 0; l < 64; l++) {
      w->v[0][l] = t_u(l + 1.0f), w->v[1][l] = t_u(l % 4 + 1.0f), w->v[2][l] = t_u(l + 1.0f);
      for (unsigned r = 0; r < 4; r++)
         AGPR(w, r)[l] = t_u(100.0f);
   }
   CHECK_EQ(t_run(w, "v_mfma_f32_4x4x1f32 a[0:3], v0, v1, a[0:3]\n"
                     "v_mfma_f32_4x4x1f32 a[4:7], v0, v2, 0 cbsz:4 abid:3 blgp:4"),
            SIM_FAULT_NONE);
   CHECK_EQ(AGPR(w, 3)[9], t_u(124.0f));
   CHECK_EQ(AGPR(w, 0)[63], t_u(344.0f));
   CHECK_EQ(AGPR(w, 0)[0], t_u(101.0f));
   CHECK_EQ(AGPR(w, 4 + 2)[23], t_u(120.0f));
   CHECK_EQ(AGPR(w, 4 + 0)[0], t_u(13.0f));
   /* A and B in AGPRs (the ACC bits), VGPRs v0/v1 cleared, C the constant 4.0: into v[8:11]
    * 4 + 12*2 = 28 (lane 9, register 3) and 4 + 61*4 = 248 (lane 63, register 0). */
   for (unsigned l = 0; l < 64; l++) {
      AGPR(w, 12)[l] = w->v[0][l], AGPR(w, 13)[l] = w->v[1][l];
      w->v[0][l] = w->v[1][l] = 0;
   }
   CHECK_EQ(t_run(w, "v_mfma_f32_4x4x1f32 v[8:11], a12, a13, 4.0"), SIM_FAULT_NONE);
   CHECK_EQ(w->v[11][9], t_u(28.0f));
   CHECK_EQ(w->v[8][63], t_u(248.0f));
}

/* 32x32x1, 2 blocks: A[b][i] lane 32b+i, B[b][j] lane 32b+j; D[b][i][j] register
 * 16b + 4(i/8) + i%4 of lane 32((i/4)%2) + j. v0 = lane, v1 = 1, C = 0: D = 32b+i.
 *   b 1, i 13, j 2: a21 lane 34 = 45; b 0, i 31, j 0: a15 lane 32 = 31.
 * 16x16x1, 4 blocks: A[b][i] lane 16b+i; D[b][i][j] register 4b + i%4 of lane 16(i/4)+j.
 * v2 = 2: D = 2(16b+i); b 3, i 6, j 0: v[10+14] lane 16 = 108. */
TEST(mfma_blocks_f32)
{
   sim_wave *w = t_wave_target(gfx90a());
   for (unsigned l = 0; l < 64; l++)
      w->v[0][l] = t_u((float)l), w->v[1][l] = t_u(1.0f), w->v[2][l] = t_u(2.0f);
   CHECK_EQ(t_run(w, "v_mfma_f32_32x32x1f32 a[0:31], v0, v1, 0\n"
                     "v_mfma_f32_16x16x1f32 v[10:25], v0, v2, 0"),
            SIM_FAULT_NONE);
   CHECK_EQ(AGPR(w, 21)[34], t_u(45.0f));
   CHECK_EQ(AGPR(w, 15)[32], t_u(31.0f));
   CHECK_EQ(AGPR(w, 0)[5], t_u(0.0f));
   CHECK_EQ(w->v[24][16], t_u(108.0f));
   CHECK_EQ(w->v[10][3], t_u(0.0f));
}

/* One block, K split over lane groups. 32x32x2: A[i][k] lane 32k+i, B[k][j] lane 32k+j.
 * v0 = lane (A[i][0] = i, A[i][1] = 32+i), v1 = 1 in lanes 0-31 and 2 above: D = i + 2(32+i)
 * = 3i + 64; i 13 is register 5 of lanes 32-63: 103; i 31 register 15 there: 157.
 * 16x16x4 into VGPRs with C = v[4:7] = 0.5: A[i][k] lane 16k+i = k+1 (v2 = lane/16 + 1),
 * B[k][j] lane 16k+j = j (v3 = lane%16): D = 0.5 + 10j in every register; lane 37: 50.5. */
TEST(mfma_k_split_f32)
{
   sim_wave *w = t_wave_target(gfx90a());
   for (unsigned l = 0; l < 64; l++) {
      w->v[0][l] = t_u((float)l), w->v[1][l] = t_u(l < 32 ? 1.0f : 2.0f);
      w->v[2][l] = t_u(l / 16 + 1.0f), w->v[3][l] = t_u((float)(l % 16));
      for (unsigned r = 4; r < 8; r++)
         w->v[r][l] = t_u(0.5f);
   }
   CHECK_EQ(t_run(w, "v_mfma_f32_32x32x2f32 a[0:15], v0, v1, 0\n"
                     "v_mfma_f32_16x16x4f32 v[4:7], v2, v3, v[4:7]"),
            SIM_FAULT_NONE);
   CHECK_EQ(AGPR(w, 5)[40], t_u(103.0f));
   CHECK_EQ(AGPR(w, 15)[33], t_u(157.0f));
   CHECK_EQ(AGPR(w, 0)[7], t_u(64.0f));
   CHECK_EQ(w->v[4][37], t_u(50.5f));
   CHECK_EQ(w->v[7][37], t_u(50.5f));
   CHECK_EQ(w->v[5][0], t_u(0.5f));
}

/* f64. 16x16x4: A[i][k] lane 16k+i = i+k (v[0:1] = lane%16 + lane/16), B[k][j] lane 16k+j
 * = k+1 (v[2:3] = lane/16 + 1): D[i][j] = sum (i+k)(k+1) = 10i + 20, in pair i/4 of lane
 * 16(i%4) + j: i 13 -> a[6:7] lane 16+j = 150, i 2 -> a[0:1] lane 32+j = 40.
 * 4x4x4, 4 blocks: A[b][i][k] lane 4b + 16k + i, B likewise with j, D[b][i][j] lane
 * 16(i%4) + 4b + j. v[4:5] = i + k + 10b (i = lane%4, b = lane/4%4, k = lane/16), v[6:7] =
 * 1: D = 4i + 6 + 40b; b 2, i 3, j 1 -> lane 57 = 98. */
TEST(mfma_f64)
{
   sim_wave *w = t_wave_target(gfx90a());
   for (unsigned l = 0; l < 64; l++) {
      t_set64(w, 0, l, l % 16 + l / 16);
      t_set64(w, 2, l, l / 16 + 1);
      t_set64(w, 4, l, l % 4 + l / 16 + 10 * (l / 4 % 4));
      t_set64(w, 6, l, 1.0);
   }
   CHECK_EQ(t_run(w, "v_mfma_f64_16x16x4f64 a[0:7], v[0:1], v[2:3], 0\n"
                     "v_mfma_f64_4x4x4f64 v[8:9], v[4:5], v[6:7], 0"),
            SIM_FAULT_NONE);
   CHECK(t_get64(AGPR(w, 6), AGPR(w, 7), 16 + 5) == 150.0);
   CHECK(t_get64(AGPR(w, 0), AGPR(w, 1), 32 + 9) == 40.0);
   CHECK(t_get64(w->v[8], w->v[9], 57) == 98.0);
   CHECK(t_get64(w->v[8], w->v[9], 0) == 6.0);
}

/* i8 16x16x16: every A byte -1, B bytes (1, 2, 3, 4) in each lane, C = 5:
 * D = 5 - 4 (1+2+3+4) = -35 everywhere. bf16_1k 4x4x4: A bf16 (1, 2 | 3, 0.5) in v[0:1],
 * B all 1.0: D = 6.5. */
TEST(mfma_i8_bf16)
{
   sim_wave *w = t_wave_target(gfx90a());
   for (unsigned l = 0; l < 64; l++) {
      w->v[0][l] = 0x40003F80u, w->v[1][l] = 0x3F004040u;
      w->v[2][l] = w->v[3][l] = 0x3F803F80u;
      w->v[4][l] = 0xFFFFFFFFu, w->v[5][l] = 0x04030201u;
   }
   CHECK_EQ(t_run(w, "v_mfma_f32_4x4x4bf16_1k a[0:3], v[0:1], v[2:3], 0\n"
                     "v_mfma_i32_16x16x16i8 a[4:7], v4, v5, 5"),
            SIM_FAULT_NONE);
   CHECK_EQ(AGPR(w, 2)[11], t_u(6.5f));
   CHECK_EQ(AGPR(w, 5)[44], (uint32_t)-35);
}

/* The buffer, global and LDS float atomics (lane order, exact sums):
 *   buffer_atomic_add_f32: 64 x 0.5f onto 2.0f = 34.0f
 *   buffer_atomic_add_f64 glc: 64 x 0.25 onto 1.0 = 17.0, lane l returns 1.0 + 0.25 l
 *   buffer_atomic_min/max_f64 of 31.5 into a double per lane holding l
 *   buffer/global_atomic_pk_add_f16: 64 x (0.5, 0.25) onto (1.0, -2.0) = (33.0, 14.0):
 *     f16 33.0 = 1.03125 * 2^5 = 0x5020, 14.0 = 1.75 * 2^3 = 0x4B00
 *   ds_add_rtn_f64: 64 x 0.25 onto 1.5 at LDS 0 = 17.5, lane l returns 1.5 + 0.25 l;
 *   ds_add_f64 likewise onto -1.0 at LDS 8 = 15.0 */
TEST(fp_atomics_buffer_lds)
{
   sim_wave *w = t_wave_target(gfx90a());
   const uint32_t rw = SIM_ALLOC_READ | SIM_ALLOC_WRITE;
   uint8_t *buf = t_alloc(2048, rw);
   uint32_t *pk = t_alloc(4, rw);
   float one_f = 2.0f;
   double one_d = 1.0, quarter = 0.25, bound = 31.5, lds0 = 1.5, lds8 = -1.0;
   memcpy(buf, &one_f, 4), memcpy(buf + 8, &one_d, 8);
   *pk = 0xC0003C00u;
   memcpy(buf + 1040, pk, 4);
   for (unsigned l = 0; l < 64; l++) {
      double d = l;
      memcpy(buf + 16 + 8 * l, &d, 8), memcpy(buf + 528 + 8 * l, &d, 8);
      t_set64(w, 2, l, quarter);
      t_set64(w, 8, l, quarter); /* data and, with GLC, the old value */
      t_set64(w, 4, l, bound);
      t_set64(w, 14, l, lds0);
      t_set64(w, 16, l, lds8);
      w->v[6][l] = t_u(0.5f), w->v[7][l] = 0x34003800u;
      w->v[20][l] = 0, w->v[21][l] = 8, w->v[22][l] = 16 + 8 * l, w->v[23][l] = 528 + 8 * l;
      w->v[24][l] = 1040, w->v[25][l] = 8;
   }
   uint64_t a = (uint64_t)(uintptr_t)buf, p = (uint64_t)(uintptr_t)pk;
   w->s[12] = (uint32_t)a, w->s[13] = (uint32_t)(a >> 32), w->s[14] = 2048;
   w->s[15] = 4u | 5u << 3 | 6u << 6 | 7u << 9 | 4u << 15 | 4u << 19;
   w->s[2] = (uint32_t)p, w->s[3] = (uint32_t)(p >> 32);
   CHECK_EQ(t_run(w, "buffer_atomic_add_f32 v6, v20, s[12:15], 0 offen\n"
                     "buffer_atomic_add_f64 v[8:9], v21, s[12:15], 0 offen glc\n"
                     "buffer_atomic_min_f64 v[4:5], v22, s[12:15], 0 offen\n"
                     "buffer_atomic_max_f64 v[4:5], v23, s[12:15], 0 offen\n"
                     "buffer_atomic_pk_add_f16 v7, v24, s[12:15], 0 offen\n"
                     "global_atomic_pk_add_f16 v20, v7, s[2:3]\n"
                     "ds_write_b64 v20, v[14:15]\n"
                     "ds_write_b64 v25, v[16:17]\n"
                     "s_waitcnt lgkmcnt(0)\n"
                     "ds_add_rtn_f64 v[10:11], v20, v[2:3]\n"
                     "ds_add_f64 v25, v[2:3]\n"
                     "s_waitcnt lgkmcnt(0)\n"
                     "ds_read_b64 v[12:13], v20\n"
                     "ds_read_b64 v[18:19], v25\n"
                     "s_waitcnt vmcnt(0) lgkmcnt(0)"),
            SIM_FAULT_NONE);
   float f;
   double d;
   uint32_t h;
   memcpy(&f, buf, 4), memcpy(&d, buf + 8, 8), memcpy(&h, buf + 1040, 4);
   CHECK(f == 34.0f);
   CHECK(d == 17.0);
   CHECK_EQ(h, 0x4B005020u);
   CHECK_EQ(*pk, 0x4B005020u);
   for (unsigned l = 0; l < 64; l += 7) {
      double lo, hi;
      memcpy(&lo, buf + 16 + 8 * l, 8), memcpy(&hi, buf + 528 + 8 * l, 8);
      CHECK(lo == (l < 31.5 ? (double)l : 31.5));
      CHECK(hi == (l > 31.5 ? (double)l : 31.5));
      CHECK(t_get64(w->v[8], w->v[9], l) == 1.0 + 0.25 * l);
      CHECK(t_get64(w->v[10], w->v[11], l) == 1.5 + 0.25 * l);
   }
   CHECK(t_get64(w->v[12], w->v[13], 5) == 17.5);
   CHECK(t_get64(w->v[18], w->v[19], 5) == 15.0);
}

/* v_pk_fmac_f16: (2.0, 3.0) * (0.5, -1.0) + (1.0, 1.0) = (2.0, -2.0) = 0xC0004000. */
TEST(pk_fmac_f16)
{
   sim_wave *w = t_wave_target(gfx90a());
   for (unsigned l = 0; l < 64; l++)
      w->v[0][l] = 0x42004000u, w->v[1][l] = 0xBC003800u, w->v[2][l] = 0x3C003C00u;
   CHECK_EQ(t_run(w, "v_pk_fmac_f16 v2, v0, v1"), SIM_FAULT_NONE);
   CHECK_EQ(w->v[2][63], 0xC0004000u);
}

void
t_gfx90a_tests(void)
{
   RUN(fp_atomics_buffer_lds);
   RUN(pk_fmac_f16);
   RUN(mfma_4x4x1f32);
   RUN(mfma_blocks_f32);
   RUN(mfma_k_split_f32);
   RUN(mfma_f64);
   RUN(mfma_i8_bf16);
   RUN(fp_atomics);
   RUN(accvgpr_moves);
   RUN(packed_fp32);
   RUN(per_target_tables);
   RUN(fmac_f64);
   RUN(dot_accumulate);
   RUN(acc_memory);
   RUN(dispatch_packed_ids);
}
