/* Scalar and vector ALU tests. Expected values are computed by hand from the ISA. */
#include <math.h>
#include <string.h>

#include "sim_isa_test.h"

TEST(sop2_add_carry)
{
   sim_wave *w = t_wave();
   w->s[0] = 0xFFFFFFFF;
   w->s[1] = 2;
   CHECK_EQ(t_run(w, "s_add_u32 s2, s0, s1\n s_addc_u32 s3, 0, 0"), SIM_FAULT_NONE);
   CHECK_EQ(w->s[2], 1);
   CHECK_EQ(w->s[3], 1);
}

/* 16-bit three-way min/max/median (VOP3 500-508): low halves only, signed and unsigned
 * orders differ, the high half of the result is zero (a CTS convert_uchar_sat(short)
 * kernel faulted on v_med3_i16 before these existed). */
TEST(vop3_minmaxmed3_16)
{
   sim_wave *w = t_wave();
   w->v[1][0] = 0xAAAA0005; /* 5 */
   w->v[2][0] = 0x0000FFFE; /* -2 / 65534 */
   w->v[3][0] = 0x12340100; /* 256 */
   CHECK_EQ(t_run(w, "v_med3_i16 v4, v1, v2, v3\n v_med3_u16 v5, v1, v2, v3\n"
                     "v_min3_i16 v6, v1, v2, v3\n v_max3_u16 v7, v1, v2, v3\n"
                     "v_min3_u16 v8, v1, v2, v3\n v_max3_i16 v9, v1, v2, v3"),
            SIM_FAULT_NONE);
   CHECK_EQ(w->v[4][0], 5);
   CHECK_EQ(w->v[5][0], 256);
   CHECK_EQ(w->v[6][0], 0xFFFE);
   CHECK_EQ(w->v[7][0], 0xFFFE);
   CHECK_EQ(w->v[8][0], 5);
   CHECK_EQ(w->v[9][0], 256);
}

TEST(vop2_add_u32)
{
   sim_wave *w = t_wave();
   for (unsigned l = 0; l < 64; l++) {
      w->v[1][l] = l;
      w->v[2][l] = 100 * l;
   }
   SIM_EXEC(w) = 0x00000000FFFFFFFFull;
   w->v[0][40] = 7;
   CHECK_EQ(t_run(w, "v_add_u32 v0, v1, v2"), SIM_FAULT_NONE);
   CHECK_EQ(w->v[0][3], 303);
   CHECK_EQ(w->v[0][40], 7); /* inactive lane untouched */
}

/* Trap 1: saveexec writes old EXEC, SCC = EXEC != 0; cbranch_execz skips. */
TEST(saveexec_execz)
{
   sim_wave *w = t_wave();
   SIM_EXEC(w) = 0xFF00FF00FF00FF00ull;
   w->s[4] = 0x0000FFFF;
   w->s[5] = 0;
   CHECK_EQ(t_run(w, "s_and_saveexec_b64 s[6:7], s[4:5]\n"
                     "s_cbranch_execz skip\n"
                     "s_mov_b32 s8, 1\n"
                     "skip:\n"
                     "s_mov_b64 exec, 0\n"
                     "s_cbranch_execz skip2\n"
                     "s_mov_b32 s9, 1\n"
                     "skip2:\n"
                     "s_mov_b64 exec, s[6:7]"),
            SIM_FAULT_NONE);
   CHECK_EQ(w->s[6], 0xFF00FF00);
   CHECK_EQ(w->s[7], 0xFF00FF00);
   CHECK_EQ(w->s[8], 1);
   CHECK_EQ(w->s[9], 0);
   CHECK_EQ(SIM_EXEC(w), 0xFF00FF00FF00FF00ull);
}

/* Trap 1: VOPC results of inactive lanes are 0; e64 form writes an SGPR pair; cmpx writes
 * EXEC. */
TEST(vopc_masks)
{
   sim_wave *w = t_wave();
   for (unsigned l = 0; l < 64; l++)
      w->v[0][l] = l;
   SIM_VCC(w) = ~0ull;
   SIM_EXEC(w) = 0x00000000FFFFFFFFull;
   CHECK_EQ(t_run(w, "v_cmp_gt_u32 vcc, 10, v0\n"
                     "v_cmp_le_u32_e64 s[4:5], 30, v0\n"
                     "v_cmpx_lt_u32 vcc, 2, v0"),
            SIM_FAULT_NONE);
   CHECK_EQ(w->s[4], 0xC0000000u);
   CHECK_EQ(w->s[5], 0);
   CHECK_EQ(SIM_EXEC(w), 0x00000000FFFFFFF8ull);
   CHECK_EQ(SIM_VCC(w), 0x00000000FFFFFFF8ull);
}

/* Trap 2: 64-bit add through VCC (e32) and an SGPR pair (VOP3b e64). */
TEST(carry_chains)
{
   sim_wave *w = t_wave();
   for (unsigned l = 0; l < 64; l++) {
      w->v[0][l] = 0xFFFFFFFF;
      w->v[1][l] = l;
      w->v[2][l] = 1;
      w->v[3][l] = 0;
   }
   CHECK_EQ(t_run(w, "v_add_co_u32 v4, vcc, v0, v2\n"
                     "v_addc_co_u32 v5, vcc, v1, v3, vcc\n"
                     "v_add_co_u32_e64 v6, s[10:11], v2, v2\n"
                     "v_sub_co_u32_e64 v7, s[12:13], v3, v2\n"
                     "v_subb_co_u32_e64 v8, s[14:15], v3, 0, s[12:13]\n"
                     "v_mad_u64_u32 v[10:11], s[16:17], v0, v0, v[0:1]"),
            SIM_FAULT_NONE);
   CHECK_EQ(w->v[4][3], 0);
   CHECK_EQ(w->v[5][3], 4);
   CHECK_EQ(w->s[10], 0);
   CHECK_EQ(w->v[7][0], 0xFFFFFFFF);
   CHECK_EQ(w->s64[6], ~0ull); /* borrow everywhere */
   CHECK_EQ(w->v[8][0], 0xFFFFFFFF);
   /* 0xFFFFFFFF^2 + (l:0xFFFFFFFF) = 0xFFFFFFFE00000001 + 0x00000002FFFFFFFF (l=2) */
   CHECK_EQ(w->v[10][2], 0);
   CHECK_EQ(w->v[11][2], 1);
   CHECK_EQ(w->s[16], 0xFFFFFFFE); /* lane 0 alone has no carry out */
}

/* Trap 4/5: inline constants on 64-bit operands are f64 / sign-extended; literals. */
TEST(constants)
{
   sim_wave *w = t_wave();
   for (unsigned l = 0; l < 64; l++) {
      w->v[0][l] = 0;
      w->v[1][l] = 0x3FF00000; /* 1.0 */
   }
   CHECK_EQ(t_run(w, "v_add_f64 v[2:3], 0.5, v[0:1]\n"
                     "v_add_f32 v4, 0.5, v1\n"
                     "v_mul_f32 v5, 0x40400000, v1\n"
                     "s_mov_b64 s[0:1], -3\n"
                     "s_mov_b64 s[2:3], 0x80000000\n"
                     "v_lshlrev_b64 v[6:7], 4, -1\n"
                     "v_mov_b32 v8, 0.15915494\n"
                     "s_mov_b32 s4, -16\n"
                     "v_cvt_f32_f64 v9, 0x40080000"),
            SIM_FAULT_NONE);
   CHECK_EQ(w->v[2][0], 0);
   CHECK_EQ(w->v[3][0], 0x3FF80000); /* 1.5 */
   CHECK_EQ(w->v[4][0], t_u(0.5f + t_f(0x3FF00000)));
   CHECK_EQ(w->v[5][0], t_u(3.0f * t_f(0x3FF00000)));
   CHECK_EQ(w->s64[0], (uint64_t)-3);
   CHECK_EQ(w->s64[1], 0x80000000ull); /* b64 literal zero-extends */
   CHECK_EQ(w->v[6][0], 0xFFFFFFF0u);
   CHECK_EQ(w->v[7][0], 0xFFFFFFFFu);
   CHECK_EQ(w->v[8][0], 0x3E22F983u);
   CHECK_EQ(w->s[4], 0xFFFFFFF0u);
   CHECK_EQ(w->v[9][0], t_u(3.0f)); /* f64 literal is the high word */
}

/* Trap 3: abs/neg/clamp; integer clamp saturates. */
TEST(vop3_modifiers)
{
   sim_wave *w = t_wave();
   for (unsigned l = 0; l < 64; l++) {
      w->v[0][l] = t_u(-2.0f);
      w->v[1][l] = t_u(0.25f);
      w->v[2][l] = 0xFFFFFFF0;
   }
   CHECK_EQ(t_run(w, "v_add_f32_e64 v3, |v0|, -v1\n"
                     "v_mul_f32_e64 v4, v0, v1 clamp\n"
                     "v_add_u32_e64 v5, v2, 64 clamp\n"
                     "v_fma_f32 v6, -v0, v1, 1.0"),
            SIM_FAULT_NONE);
   CHECK_EQ(w->v[3][0], t_u(1.75f));
   CHECK_EQ(w->v[4][0], t_u(0.0f));
   CHECK_EQ(w->v[5][0], 0xFFFFFFFFu);
   CHECK_EQ(w->v[6][0], t_u(1.5f));
}

/* Trap 6: FLOAT_DENORM_MODE_32 = 0 flushes denormal inputs and outputs. */
TEST(denorm_modes)
{
   sim_wave *w = t_wave();
   for (unsigned l = 0; l < 64; l++)
      w->v[0][l] = 0x00000010; /* denormal */
   CHECK_EQ(t_run(w, "v_add_f32 v1, v0, v0"), SIM_FAULT_NONE);
   CHECK_EQ(w->v[1][0], 0x20);
   w = t_wave();
   w->denorm32 = 0;
   for (unsigned l = 0; l < 64; l++)
      w->v[0][l] = 0x00000010;
   CHECK_EQ(t_run(w, "v_add_f32 v1, v0, v0"), SIM_FAULT_NONE);
   CHECK_EQ(w->v[1][0], 0);
}

static void
t_set64(sim_wave *w, unsigned v, uint64_t x)
{
   for (unsigned l = 0; l < 64; l++) {
      w->v[v][l] = (uint32_t)x;
      w->v[v + 1][l] = (uint32_t)(x >> 32);
   }
}

static uint64_t
t_get64(sim_wave *w, unsigned v)
{
   return w->v[v][0] | (uint64_t)w->v[v + 1][0] << 32;
}

/* Trap 7: the f64 transcendentals take and give denormals (only MODE's 16/64 flush
 * applies); ocml's rsqrt(double) depends on it. */
TEST(trans_f64_denormals)
{
   sim_wave *w = t_wave();
   t_set64(w, 0, 0x0000400000000000ull); /* 2^-1028 */
   t_set64(w, 2, 0x0008000000000000ull); /* 2^-1023 */
   t_set64(w, 4, 0x7FE0000000000000ull); /* 2^1023 */
   CHECK_EQ(t_run(w, "v_rsq_f64 v[6:7], v[0:1]\n v_rcp_f64 v[8:9], v[2:3]\n"
                     "v_rcp_f64 v[10:11], v[4:5]"),
            SIM_FAULT_NONE);
   CHECK_EQ(t_get64(w, 6), 0x6010000000000000ull); /* 2^514 */
   CHECK_EQ(t_get64(w, 8), 0x7FE0000000000000ull); /* 2^1023 */
   CHECK_EQ(t_get64(w, 10), 0x0008000000000000ull); /* 2^-1023, denormal result */
   w = t_wave();
   w->denorm16_64 = 0;
   t_set64(w, 0, 0x0000400000000000ull);
   CHECK_EQ(t_run(w, "v_rsq_f64 v[6:7], v[0:1]"), SIM_FAULT_NONE);
   CHECK_EQ(t_get64(w, 6), 0x7FF0000000000000ull); /* flushed to +0: +inf */
}

/* V_DIV_FMAS_F64 with VCC scales by 2^-128 (|S2| < 1) and rounds once: here the unscaled
 * FMA result rounds to a midpoint of the subnormal grid, so fma-then-scale would round
 * twice (to ...002); the exact value is below the midpoint (...001). 2^-900 + (3*2^43 - 1)
 * * 2^-990 = 2^-900 + 3*2^-947 - 2^-990. */
TEST(div_fmas_f64_subnormal)
{
   sim_wave *w = t_wave();
   t_set64(w, 0, 0x42B7FFFFFFFFFF00ull); /* 3*2^43 - 1 */
   t_set64(w, 2, 0x0210000000000000ull); /* 2^-990 */
   t_set64(w, 4, 0x07B0000000000000ull); /* 2^-900 */
   CHECK_EQ(t_run(w, "s_mov_b64 vcc, -1\n v_div_fmas_f64 v[6:7], v[0:1], v[2:3], v[4:5]\n"
                     "s_mov_b64 vcc, 0\n v_div_fmas_f64 v[8:9], v[0:1], v[2:3], v[4:5]"),
            SIM_FAULT_NONE);
   CHECK_EQ(t_get64(w, 6), 0x0000400000000001ull);
   CHECK_EQ(t_get64(w, 8), 0x07B0000000000060ull); /* no VCC: 2^-900 + 3*2^-947, the FMA rounded */
}

/* Trap 14: s_getpc returns the next instruction; swappc saves PC+4; setpc returns. */
TEST(calls)
{
   sim_wave *w = t_wave();
   CHECK_EQ(t_run(w, "s_getpc_b64 s[0:1]\n"
                     "s_add_u32 s0, s0, func-.\n"  /* literal: 8-byte instruction */
                     "s_addc_u32 s1, s1, 0\n"
                     "s_swappc_b64 s[30:31], s[0:1]\n"
                     "s_mov_b32 s5, 2\n"
                     "s_endpgm\n"
                     "func:\n"
                     "s_mov_b32 s4, 1\n"
                     "s_setpc_b64 s[30:31]"),
            SIM_FAULT_NONE);
   CHECK_EQ(w->s[4], 1);
   CHECK_EQ(w->s[5], 2);
}

/* Trap 16: SDWA selects, sext and dst_unused; SGPR source in SDWA. */
TEST(sdwa)
{
   sim_wave *w = t_wave();
   for (unsigned l = 0; l < 64; l++) {
      w->v[0][l] = 0x11FF2233;
      w->v[1][l] = 0x00010002;
      w->v[2][l] = 0xAAAAAAAA;
   }
   w->s[0] = 0x00000005;
   CHECK_EQ(t_run(w, "v_add_u32_sdwa v2, v0, v1 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE "
                     "src0_sel:BYTE_0 src1_sel:WORD_1\n"
                     "v_add_u32_sdwa v3, sext(v0), s0 dst_sel:DWORD src0_sel:BYTE_2 "
                     "src1_sel:DWORD\n"
                     "v_mov_b32_sdwa v4, v0 dst_sel:BYTE_1 dst_unused:UNUSED_PAD src0_sel:BYTE_3"),
            SIM_FAULT_NONE);
   CHECK_EQ(w->v[2][0], 0x0034AAAA);
   CHECK_EQ(w->v[3][0], 4); /* sext(0xFF) + 5 */
   CHECK_EQ(w->v[4][0], 0x1100);
}

/* Every SDWA select, computed here from the ISA's description: a source's BYTE_n / WORD_n
 * zero- or sign-extended (DWORD whole); a destination's field taking the result's low
 * bits, the bits outside it zero (UNUSED_PAD), the field's sign above it and zero below
 * (UNUSED_SEXT: BYTE_3 and WORD_1 have nothing above), or the old bits (UNUSED_PRESERVE);
 * with half the lanes inactive, which keep their old value. Under HSACL_SIM_XLATE=check
 * (sim_xlate_check_unit) the translated blocks are compared with these too. */
static const char *const sdwa_sel_name[7] = {"BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3",
                                             "WORD_0", "WORD_1", "DWORD"};
static uint32_t
sdwa_ref_src(uint32_t v, unsigned sel, bool sext)
{
   unsigned bits = sel <= 3 ? 8 : sel <= 5 ? 16 : 32, lo = sel <= 3 ? 8 * sel : 16 * (sel - 4);
   if (bits == 32)
      return v;
   uint32_t f = (v >> lo) & ((1u << bits) - 1);
   return sext && (f >> (bits - 1)) ? f | ~((1u << bits) - 1) : f;
}
static uint32_t
sdwa_ref_dst(uint32_t r, uint32_t old, unsigned sel, unsigned unused)
{
   unsigned bits = sel <= 3 ? 8 : sel <= 5 ? 16 : 32, lo = sel <= 3 ? 8 * sel : 16 * (sel - 4);
   if (bits == 32)
      return r;
   uint32_t field = ((1u << bits) - 1) << lo, out = (r << lo) & field;
   if (unused == 2)
      return out | (old & ~field);
   if (unused == 1 && (r >> (bits - 1)) & 1 && lo + bits < 32)
      out |= ~0u << (lo + bits);
   return out;
}

TEST(sdwa_selects)
{
   sim_wave *w = t_wave();
   static char prog[8192];
   int n = 0;
   /* v0, v1: sources with every byte's sign bit set in some lanes; v10-v30: 7 dst_sel x
    * 3 dst_unused moves; v31-v44 and v45-v58: src0's and src1's 7 selects, each plain
    * and sext; v59: a compare's and a select's selects. */
   uint32_t a[64], b[64], old[64];
   for (unsigned l = 0; l < 64; l++) {
      a[l] = (0x9C3E81F7u * (l + 1)) ^ (l << 7);
      b[l] = (0x7F80C311u * (l + 3)) ^ (l << 13);
      old[l] = 0x5A5A5A5Au ^ (l * 0x01010101u);
      w->v[0][l] = a[l];
      w->v[1][l] = b[l];
      for (unsigned r = 10; r < 60; r++)
         w->v[r][l] = old[l] + r;
   }
   n += snprintf(prog + n, sizeof(prog) - (size_t)n,
                 "s_mov_b32 exec_lo, 0x5555ffff\ns_mov_b32 exec_hi, 0xffff0f0f\n");
   static const char *const unused_name[3] = {"UNUSED_PAD", "UNUSED_SEXT", "UNUSED_PRESERVE"};
   for (unsigned d = 0; d < 7; d++)
      for (unsigned u = 0; u < 3; u++)
         n += snprintf(prog + n, sizeof(prog) - (size_t)n,
                       "v_mov_b32_sdwa v%u, v0 dst_sel:%s dst_unused:%s src0_sel:DWORD\n",
                       10 + d * 3 + u, sdwa_sel_name[d], unused_name[u]);
   for (unsigned s = 0; s < 7; s++)
      for (unsigned x = 0; x < 2; x++) {
         n += snprintf(prog + n, sizeof(prog) - (size_t)n,
                       "v_add_u32_sdwa v%u, %s, v1 dst_sel:DWORD dst_unused:UNUSED_PAD "
                       "src0_sel:%s src1_sel:WORD_1\n",
                       31 + s * 2 + x, x ? "sext(v0)" : "v0", sdwa_sel_name[s]);
         n += snprintf(prog + n, sizeof(prog) - (size_t)n,
                       "v_sub_u32_sdwa v%u, v0, %s dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE "
                       "src0_sel:BYTE_1 src1_sel:%s\n",
                       45 + s * 2 + x, x ? "sext(v1)" : "v1", sdwa_sel_name[s]);
      }
   n += snprintf(prog + n, sizeof(prog) - (size_t)n,
                 "v_cmp_gt_i32_sdwa vcc, sext(v0), v1 src0_sel:BYTE_2 src1_sel:WORD_0\n"
                 "v_cndmask_b32_sdwa v59, v0, v1, vcc dst_sel:BYTE_2 "
                 "dst_unused:UNUSED_SEXT src0_sel:WORD_1 src1_sel:BYTE_3\n"
                 "s_mov_b64 exec, -1");
   CHECK(n < (int)sizeof(prog));
   CHECK_EQ(t_run(w, prog), SIM_FAULT_NONE);
   uint64_t exec = 0x5555ffffull | 0xffff0f0full << 32;
   unsigned bad = 0;
   for (unsigned l = 0; l < 64; l++) {
      bool on = (exec >> l) & 1;
      for (unsigned d = 0; d < 7; d++)
         for (unsigned u = 0; u < 3; u++) {
            unsigned r = 10 + d * 3 + u;
            uint32_t want = on ? sdwa_ref_dst(a[l], old[l] + r, d, u) : old[l] + r;
            bad += w->v[r][l] != want;
         }
      for (unsigned s = 0; s < 7; s++)
         for (unsigned x = 0; x < 2; x++) {
            unsigned r = 31 + s * 2 + x, q = 45 + s * 2 + x;
            uint32_t want = sdwa_ref_src(a[l], s, x) + sdwa_ref_src(b[l], 5, false);
            bad += w->v[r][l] != (on ? want : old[l] + r);
            want = sdwa_ref_dst(sdwa_ref_src(a[l], 1, false) - sdwa_ref_src(b[l], s, x),
                                old[l] + q, 5, 2);
            bad += w->v[q][l] != (on ? want : old[l] + q);
         }
      bool gt = (int32_t)sdwa_ref_src(a[l], 2, true) > (int32_t)sdwa_ref_src(b[l], 4, false);
      bad += ((SIM_VCC(w) >> l) & 1) != (on && gt);
      uint32_t sel = gt ? sdwa_ref_src(b[l], 3, false) : sdwa_ref_src(a[l], 5, false);
      bad += w->v[59][l] != (on ? sdwa_ref_dst(sel, old[l] + 59, 2, 1) : old[l] + 59);
   }
   CHECK_EQ(bad, 0);
   /* The cases above reach every field: a few by hand. */
   CHECK_EQ(sdwa_ref_dst(0x80, 0, 3, 1), 0x80000000u);
   CHECK_EQ(sdwa_ref_dst(0x80, 0, 1, 1), 0xFFFF8000u);
   CHECK_EQ(sdwa_ref_src(0x00800000, 2, true), 0xFFFFFF80u);
}

/* Trap 15: DPP row_shr with bound_ctrl, row_bcast:15 with a row mask. */
TEST(dpp)
{
   sim_wave *w = t_wave();
   for (unsigned l = 0; l < 64; l++) {
      w->v[0][l] = l;
      w->v[1][l] = 1000;
      w->v[2][l] = 0;
      w->v[3][l] = 7;
   }
   CHECK_EQ(t_run(w, "v_mov_b32_dpp v1, v0 row_shr:1 row_mask:0xf bank_mask:0xf\n"
                     "v_mov_b32_dpp v2, v0 row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:0\n"
                     "v_add_u32_dpp v3, v0, v0 row_bcast:15 row_mask:0xa bank_mask:0xf"),
            SIM_FAULT_NONE);
   CHECK_EQ(w->v[1][0], 1000); /* out of row: not written */
   CHECK_EQ(w->v[1][5], 4);
   CHECK_EQ(w->v[1][16], 1000);
   CHECK_EQ(w->v[2][16], 0);   /* bound_ctrl: 0 */
   CHECK_EQ(w->v[3][0], 7);    /* row 0 masked */
   CHECK_EQ(w->v[3][20], 15 + 20);
   CHECK_EQ(w->v[3][40], 7);   /* row 2 masked */
   CHECK_EQ(w->v[3][50], 47 + 50);
}

/* Trap 17: VGPR index mode adds M0[7:0] to the selected operands. */
TEST(gpr_index_mode)
{
   sim_wave *w = t_wave();
   for (unsigned l = 0; l < 64; l++) {
      w->v[5][l] = 55;
      w->v[7][l] = 77;
   }
   w->s[6] = 2;
   CHECK_EQ(t_run(w, "s_set_gpr_idx_on s6, gpr_idx(SRC0)\n"
                     "v_mov_b32 v1, v5\n"
                     "s_set_gpr_idx_off\n"
                     "v_mov_b32 v2, v5\n"
                     "s_set_gpr_idx_on s6, gpr_idx(DST)\n"
                     "v_mov_b32 v1, 3\n"
                     "s_set_gpr_idx_off"),
            SIM_FAULT_NONE);
   CHECK_EQ(w->v[1][0], 77);
   CHECK_EQ(w->v[2][0], 55);
   CHECK_EQ(w->v[3][0], 3);
}

/* readlane/readfirstlane/writelane ignore EXEC; mbcnt counts lanes below. */
TEST(lanes)
{
   sim_wave *w = t_wave();
   for (unsigned l = 0; l < 64; l++)
      w->v[0][l] = 100 + l;
   SIM_EXEC(w) = 0xF0;
   w->s[2] = 9;
   CHECK_EQ(t_run(w, "v_readlane_b32 s0, v0, 3\n"
                     "v_readfirstlane_b32 s1, v0\n"
                     "v_writelane_b32 v1, s2, 60\n"
                     "s_mov_b64 exec, -1\n"
                     "v_mbcnt_lo_u32_b32 v2, -1, 0\n"
                     "v_mbcnt_hi_u32_b32 v2, -1, v2"),
            SIM_FAULT_NONE);
   CHECK_EQ(w->s[0], 103);
   CHECK_EQ(w->s[1], 104);
   CHECK_EQ(w->v[1][60], 9);
   CHECK_EQ(w->v[2][45], 45);
}

/* s_bitcmp0/1_b32: SCC from bit S1[4:0] of S0 (an index past 31 wraps), lowered by the
 * translator (the CTS image kernels test a descriptor bit with them). */
TEST(sopc_bitcmp)
{
   sim_wave *w = t_wave();
   CHECK_EQ(t_run(w, "s_mov_b32 s0, 0x80000010\n"
                     "s_mov_b32 s1, 36\n"
                     "s_bitcmp1_b32 s0, 4\n"
                     "s_cselect_b32 s2, 1, 0\n"
                     "s_bitcmp0_b32 s0, 4\n"
                     "s_cselect_b32 s3, 1, 0\n"
                     "s_bitcmp1_b32 s0, s1\n"
                     "s_cselect_b32 s4, 1, 0\n"
                     "s_bitcmp0_b32 s0, 5\n"
                     "s_cselect_b32 s5, 1, 0\n"
                     "s_bitcmp1_b32 s0, 31\n"
                     "s_cselect_b32 s6, 1, 0\n"
                     "s_bitcmp1_b32 s0, 30\n"
                     "s_cselect_b32 s7, 1, 0"),
            SIM_FAULT_NONE);
   CHECK_EQ(w->s[2], 1);
   CHECK_EQ(w->s[3], 0);
   CHECK_EQ(w->s[4], 1); /* 36 & 31 = 4 */
   CHECK_EQ(w->s[5], 1);
   CHECK_EQ(w->s[6], 1);
   CHECK_EQ(w->s[7], 0);
}

/* Trap 18: special registers by operand number: M0, VCC halves, EXEC halves, SCC sources. */
TEST(special_regs)
{
   sim_wave *w = t_wave();
   CHECK_EQ(t_run(w, "s_mov_b32 m0, 0x1234\n"
                     "s_mov_b32 vcc_lo, 5\n"
                     "s_mov_b32 vcc_hi, 6\n"
                     "s_mov_b32 exec_hi, 0\n"
                     "s_mov_b32 s0, m0\n"
                     "s_cmp_eq_u32 s0, 0x1234\n"
                     "s_cselect_b32 s1, 11, 22\n"
                     "s_mov_b64 s[2:3], vcc\n"
                     "s_mov_b32 flat_scratch_lo, 9\n"
                     "s_movk_i32 s4, 0x8000\n"
                     "s_mulk_i32 s4, 2"),
            SIM_FAULT_NONE);
   CHECK_EQ(w->s[0], 0x1234);
   CHECK_EQ(w->s[1], 11);
   CHECK_EQ(w->s[2], 5);
   CHECK_EQ(w->s[3], 6);
   CHECK_EQ(SIM_EXEC(w), 0xFFFFFFFFull);
   CHECK_EQ(w->s[SIM_SRC_FLAT_SCRATCH], 9);
   CHECK_EQ(w->s[4], 0xFFFF0000u);
}

/* v_cmpx on gfx9 writes its destination (VCC for VOPC, SDST for VOP3) and EXEC, both the
 * compare in EXEC's lanes; what follows in the block runs under the new EXEC (the
 * translator keeps EXEC in a value: sim_xlate_check_unit compares it). */
TEST(lowered_cmpx)
{
   sim_wave *w = t_wave();
   for (unsigned l = 0; l < 64; l++) {
      w->v[1][l] = l;
      w->v[2][l] = t_u((float)l - 20.5f);
      w->v[5][l] = 0xAAAA;
      w->v[6][l] = 0xBBBB;
   }
   SIM_EXEC(w) = 0xFFFFFFFF0FFFFFFFull;
   CHECK_EQ(t_run(w, "s_mov_b64 s[20:21], exec\n"
                     "v_cmpx_gt_u32 vcc, 50, v1\n"
                     "v_mov_b32 v5, 1\n"
                     "s_mov_b64 exec, s[20:21]\n"
                     "v_cmpx_lt_f32_e64 s[8:9], 0, v2\n"
                     "v_mov_b32 v6, 2"),
            SIM_FAULT_NONE);
   uint64_t first = 0x0003FFFF0FFFFFFFull; /* lanes under 50, of the old EXEC */
   CHECK_EQ(w->s64[SIM_SRC_VCC / 2], first);
   uint64_t second = 0xFFFFFFFF0FFFFFFFull & ~((1ull << 21) - 1); /* l - 20.5 > 0 */
   CHECK_EQ(w->s64[4], second);
   CHECK_EQ(SIM_EXEC(w), second);
   for (unsigned l = 0; l < 64; l++) {
      CHECK_EQ(w->v[5][l], (first >> l) & 1 ? 1u : 0xAAAAu);
      CHECK_EQ(w->v[6][l], (second >> l) & 1 ? 2u : 0xBBBBu);
   }
}

/* What the translator lowers of the integer three-operand forms, integer min/max, the
 * int-to-float conversions and floor/trunc/ceil/rndne (sim_xlate.c), over 64 lanes of edge values:
 * carries past 2^32, shift counts past 31, signed and unsigned order of values past 2^31,
 * values float cannot hold exactly (rounded to nearest even), and for the roundings signed
 * zeros, subnormals, halves, infinities and NaNs (quieted). In sim_xlate_check_unit the
 * block also runs translated, compared with the interpreter. */
TEST(lowered_alu_forms)
{
   static const uint32_t u[] = {0, 1, 0xFFFFFFFF, 0x80000000, 0x7FFFFFFF, 0x01000001,
                                0xFFFFFF7F, 0xFFFFFF80, 0x12345678, 33, 32, 31};
   static const uint32_t f[] = {0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x3FC00000,
                                0xBFC00000, 0x40200000, 0xC0200000, 0x7F800000, 0xFF800000,
                                0x7FC00001, 0xFF800123, 0x4B7FFFFF, 0xCB000001, 0x3F7FFFFF,
                                0xBF7FFFFF, 0x7149F2CA};
   sim_wave *w = t_wave();
   w->s[4] = 0x80000001u;
   for (unsigned l = 0; l < 64; l++) {
      w->v[1][l] = u[l % 12] + l / 12;
      w->v[2][l] = u[(l * 5 + 3) % 12];
      w->v[3][l] = u[(l * 7 + 1) % 12] ^ (l << 20);
      w->v[4][l] = f[l % 17];
   }
   CHECK_EQ(t_run(w, "v_add3_u32 v10, v1, v2, v3\n"
                     "v_lshl_or_b32 v11, v1, v2, v3\n"
                     "v_and_or_b32 v12, v1, v2, v3\n"
                     "v_cvt_f32_u32 v13, v1\n"
                     "v_cvt_f32_i32 v14, v1\n"
                     "v_floor_f32 v15, v4\n"
                     "v_trunc_f32 v16, v4\n"
                     "v_cvt_f32_u32_e64 v17, v2\n"
                     "v_floor_f32_e64 v18, -v4\n"
                     "v_min_i32 v19, v1, v2\n"
                     "v_max_i32_e64 v20, v2, v3\n"
                     "v_min_u32 v21, s4, v1\n"
                     "v_max_u32 v22, -1, v3\n"
                     "v_mad_u32_u24 v23, v1, v2, v3\n"
                     "v_mad_i32_i24 v24, v1, v2, v3\n"
                     "v_mad_i32_i24 v25, v3, -7, s4\n"
                     "v_ceil_f32 v26, v4\n"
                     "v_rndne_f32 v27, v4"),
            SIM_FAULT_NONE);
   unsigned bad = 0;
   for (unsigned l = 0; l < 64; l++) {
      uint32_t a = w->v[1][l], b = w->v[2][l], c = w->v[3][l], x = w->v[4][l];
      float fx, r;
      memcpy(&fx, &x, 4);
      uint32_t fl, tr, nf, ce, ne, quiet = x | 0x400000;
      r = floorf(fx), memcpy(&fl, &r, 4);
      r = ceilf(fx), memcpy(&ce, &r, 4);
      r = nearbyintf(fx), memcpy(&ne, &r, 4); /* to nearest even: 2.5 -> 2 */
      r = truncf(fx), memcpy(&tr, &r, 4);
      r = floorf(-fx), memcpy(&nf, &r, 4);
      if (fx != fx)
         fl = tr = ce = ne = quiet, nf = quiet ^ 0x80000000;
      float cu = (float)a, ci = (float)(int32_t)a, cb = (float)b;
      bad += w->v[10][l] != a + b + c;
      bad += w->v[11][l] != ((a << (b & 31)) | c);
      bad += w->v[12][l] != ((a & b) | c);
      bad += memcmp(&w->v[13][l], &cu, 4) != 0;
      bad += memcmp(&w->v[14][l], &ci, 4) != 0;
      bad += w->v[15][l] != fl;
      bad += w->v[16][l] != tr;
      bad += memcmp(&w->v[17][l], &cb, 4) != 0;
      bad += w->v[18][l] != nf;
      bad += w->v[19][l] != ((int32_t)a < (int32_t)b ? a : b);
      bad += w->v[20][l] != ((int32_t)b > (int32_t)c ? b : c);
      bad += w->v[21][l] != (0x80000001u < a ? 0x80000001u : a);
      bad += w->v[22][l] != 0xFFFFFFFFu;
      int32_t a24 = (int32_t)(a << 8) >> 8, b24 = (int32_t)(b << 8) >> 8;
      int32_t c24 = (int32_t)(c << 8) >> 8;
      bad += w->v[23][l] != (a & 0xFFFFFF) * (b & 0xFFFFFF) + c;
      bad += w->v[24][l] != (uint32_t)a24 * (uint32_t)b24 + c;
      bad += w->v[25][l] != (uint32_t)c24 * (uint32_t)-7 + 0x80000001u;
      bad += w->v[26][l] != ce;
      bad += w->v[27][l] != ne;
   }
   CHECK_EQ(bad, 0);
}

/* f32 compares with abs and neg on their sources (VOP3), which the translator lowers as
 * sign-bit operations: signed zeros, subnormals, infinities and NaNs of either sign; a
 * v_cmpx among them. In sim_xlate_check_unit also run translated. */
TEST(lowered_fcmp_modifiers)
{
   static const uint32_t f[] = {0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x3FC00000,
                                0xBFC00000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00001,
                                0x40200000, 0xC0200000, 0x3F800000};
   sim_wave *w = t_wave();
   for (unsigned l = 0; l < 64; l++) {
      w->v[1][l] = f[l % 13];
      w->v[2][l] = f[(l * 5 + 2) % 13];
   }
   CHECK_EQ(t_run(w, "v_cmp_lt_f32_e64 s[10:11], |v1|, v2\n"
                     "v_cmp_ge_f32_e64 s[12:13], -v1, |v2|\n"
                     "v_cmp_u_f32_e64 s[14:15], -|v1|, v2\n"
                     "v_cmp_neq_f32_e64 s[18:19], -v1, -v2\n"
                     "v_cmpx_nlt_f32_e64 s[16:17], |v1|, -v2\n"
                     "s_mov_b64 s[20:21], exec\n"
                     "s_mov_b64 exec, -1"),
            SIM_FAULT_NONE);
   uint64_t lt = 0, ge = 0, un = 0, nlt = 0, neq = 0;
   for (unsigned l = 0; l < 64; l++) {
      uint32_t a = w->v[1][l], b = w->v[2][l], aa = a & 0x7FFFFFFF, na = a ^ 0x80000000;
      uint32_t ab = b & 0x7FFFFFFF, nb = b ^ 0x80000000, nab = a | 0x80000000;
      float A, NA, AA, NAA, B, NB, AB;
      memcpy(&A, &a, 4), memcpy(&NA, &na, 4), memcpy(&AA, &aa, 4), memcpy(&NAA, &nab, 4);
      memcpy(&B, &b, 4), memcpy(&NB, &nb, 4), memcpy(&AB, &ab, 4);
      (void)A;
      lt |= (uint64_t)(AA < B) << l;
      ge |= (uint64_t)(NA >= AB) << l;
      un |= (uint64_t)(NAA != NAA || B != B) << l;
      neq |= (uint64_t)!(NA == NB) << l;
      nlt |= (uint64_t)!(AA < NB) << l;
   }
   CHECK_EQ(w->s64[5], lt);
   CHECK_EQ(w->s64[6], ge);
   CHECK_EQ(w->s64[7], un);
   CHECK_EQ(w->s64[9], neq);
   CHECK_EQ(w->s64[8], nlt);
   CHECK_EQ(w->s64[10], nlt); /* the v_cmpx's EXEC */
}

/* v_lshlrev_b64 by constant amounts, which the translator lowers on the two dword rows
 * (sim_xlate.c): 0, within the low word, 31, 32 (the low word moves up whole), past 32, 63,
 * and 64 and -1 (counts are taken mod 64); in place and into a pair overlapping its
 * source's high word; a partial EXEC. In sim_xlate_check_unit also run translated. */
TEST(lowered_shl64_constant)
{
   sim_wave *w = t_wave();
   for (unsigned l = 0; l < 64; l++) {
      w->v[0][l] = 0x9E3779B9u * (l + 1) ^ (l << 27);
      w->v[1][l] = l & 1 ? 0x80000001u + l : 0x7FFFFFFFu - (l << 9);
      w->v[30][l] = w->v[0][l], w->v[31][l] = w->v[1][l];
      w->v[40][l] = w->v[0][l], w->v[41][l] = w->v[1][l];
      w->v[42][l] = 0xDEADBEEF;
   }
   SIM_EXEC(w) = 0xF0F0FFFF0000FFF7ull;
   CHECK_EQ(t_run(w, "v_lshlrev_b64 v[2:3], 0, v[0:1]\n"
                     "v_lshlrev_b64 v[4:5], 1, v[0:1]\n"
                     "v_lshlrev_b64 v[6:7], 2, v[0:1]\n"
                     "v_lshlrev_b64 v[8:9], 31, v[0:1]\n"
                     "v_lshlrev_b64 v[10:11], 32, v[0:1]\n"
                     "v_lshlrev_b64 v[12:13], 33, v[0:1]\n"
                     "v_lshlrev_b64 v[14:15], 63, v[0:1]\n"
                     "v_lshlrev_b64 v[16:17], 64, v[0:1]\n"
                     "v_lshlrev_b64 v[18:19], -1, v[0:1]\n"
                     "v_lshlrev_b64 v[30:31], 3, v[30:31]\n"
                     "v_lshlrev_b64 v[41:42], 5, v[40:41]"),
            SIM_FAULT_NONE);
   static const unsigned amount[] = {0, 1, 2, 31, 32, 33, 63, 64, 63};
   unsigned bad = 0;
   for (unsigned l = 0; l < 64; l++) {
      bool on = (SIM_EXEC(w) >> l) & 1;
      uint64_t v = w->v[0][l] | (uint64_t)w->v[1][l] << 32;
      for (unsigned i = 0; i < 9; i++) {
         uint64_t r = v << (amount[i] & 63);
         bad += on && (w->v[2 + 2 * i][l] != (uint32_t)r ||
                       w->v[3 + 2 * i][l] != (uint32_t)(r >> 32));
      }
      bad += on ? w->v[30][l] != (uint32_t)(v << 3) || w->v[31][l] != (uint32_t)(v << 3 >> 32)
                : w->v[30][l] != w->v[0][l] || w->v[31][l] != w->v[1][l];
      bad += on ? w->v[41][l] != (uint32_t)(v << 5) || w->v[42][l] != (uint32_t)(v << 5 >> 32)
                : w->v[41][l] != w->v[1][l] || w->v[42][l] != 0xDEADBEEF;
      bad += w->v[40][l] != w->v[0][l];
   }
   CHECK_EQ(bad, 0);
}

/* sim__fmax32 / sim__fmin32 on bits, as the lowering must match them: a signalling NaN
 * first (IEEE mode, quieted, S0 first), then a NaN yields the other, -0 < +0. */
static uint32_t
ref_minmax32(uint32_t a, uint32_t b, bool max, bool ieee)
{
   bool na = (a & 0x7FFFFFFF) > 0x7F800000, nb = (b & 0x7FFFFFFF) > 0x7F800000;
   if (na || nb) {
      if (ieee && na && !(a & 0x400000))
         return a | 0x400000;
      if (ieee && nb && !(b & 0x400000))
         return b | 0x400000;
      return na ? b : a;
   }
   float fa = t_f(a), fb = t_f(b);
   if (fa == fb)
      return max ? a & b : a | b;
   return (max ? fa > fb : fa < fb) ? a : b;
}

/* med3_f32 of sim_vop3.c on bits. */
static uint32_t
ref_med3_32(uint32_t a, uint32_t b, uint32_t c, bool ieee)
{
   bool nan = (a & 0x7FFFFFFF) > 0x7F800000 || (b & 0x7FFFFFFF) > 0x7F800000 ||
              (c & 0x7FFFFFFF) > 0x7F800000;
   if (nan)
      return ref_minmax32(ref_minmax32(a, b, false, ieee), c, false, ieee);
   float mx = t_f(ref_minmax32(ref_minmax32(a, b, true, ieee), c, true, ieee));
   if (mx == t_f(a))
      return ref_minmax32(b, c, true, ieee);
   if (mx == t_f(b))
      return ref_minmax32(a, c, true, ieee);
   return ref_minmax32(a, b, true, ieee);
}

static uint32_t
ref_ffbh_u32(uint32_t a)
{
   return a ? (uint32_t)__builtin_clz(a) : 0xFFFFFFFFu;
}

/* What sim_xlate_alu.c lowers of the 64-bit integer compares (VOPC and VOP3, VGPR pairs,
 * an SGPR pair, inline constants, v_cmpx), v_min/max_f32 in and out of IEEE mode (NaNs
 * quiet and signalling, signed zeros, subnormals, abs/neg) and the bit reversal and
 * scans, under a partial EXEC, against C references. In sim_xlate_check_unit the blocks
 * also run translated, compared with the interpreter. */
TEST(lowered_cmp64_minmax_bits)
{
   static const uint64_t q[] = {0, 1, ~0ull, 0x8000000000000000ull, 0x7FFFFFFFFFFFFFFFull,
                                0x00000001FFFFFFFFull, 0x0000000200000000ull, 0xFFFFFFFF00000000ull,
                                (uint64_t)-5, 7, 0x123456789ABCDEF0ull};
   static const uint32_t f[] = {0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x3F800000,
                                0xBF800000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00001,
                                0x7F800001, 0xFFA00000, 0x00800000, 0x3F800001};
   static const uint32_t bits[] = {0, 1, 0xFFFFFFFF, 0x80000000, 0x7FFFFFFF, 0x00010000,
                                   0xFFFEFFFF, 0x12345678, 0xC0000000, 0x3FFFFFFF};
   for (int ieee = 1; ieee >= 0; ieee--) {
      sim_wave *w = t_wave();
      w->ieee = (uint8_t)ieee;
      for (unsigned l = 0; l < 64; l++) {
         uint64_t a = q[l % 11], b = q[(l * 7 + l / 11) % 11];
         w->v[1][l] = (uint32_t)a, w->v[2][l] = (uint32_t)(a >> 32);
         w->v[3][l] = (uint32_t)b, w->v[4][l] = (uint32_t)(b >> 32);
         w->v[5][l] = f[l % 14];
         w->v[6][l] = f[(l * 5 + l / 14) % 14];
         w->v[7][l] = bits[l % 10] ^ (l / 10 << 13);
         w->v[8][l] = f[(l * 3 + 1) % 14];
         for (unsigned r = 10; r < 23; r++)
            w->v[r][l] = 0xDEADBEEF;
         w->v[41][l] = 0xAAAA;
      }
      w->s[10] = 0xFFFFFFFF, w->s[11] = 0; /* the pair 0x00000000FFFFFFFF */
      w->s[12] = 0x7FA00000;                /* a signalling NaN */
      w->s[13] = 0x0000F00D;
      uint64_t exec = 0xF0F0FFFF0000FFF7ull;
      SIM_EXEC(w) = exec;
      CHECK_EQ(t_run(w, "v_cmp_lt_u64 vcc, v[1:2], v[3:4]\n"
                        "s_mov_b64 s[20:21], vcc\n"
                        "v_cmp_lt_i64_e64 s[22:23], v[1:2], v[3:4]\n"
                        "v_cmp_eq_u64_e64 s[24:25], s[10:11], v[1:2]\n"
                        "v_cmp_ge_i64_e64 s[26:27], v[3:4], -5\n"
                        "v_cmp_ne_u64 vcc, 7, v[3:4]\n"
                        "s_mov_b64 s[28:29], vcc\n"
                        "v_cmp_gt_u64_e64 s[30:31], v[1:2], v[3:4]\n"
                        "v_cmp_le_i64_e64 s[32:33], v[1:2], v[3:4]\n"
                        "v_max_f32 v10, v5, v6\n"
                        "v_min_f32 v11, v5, v6\n"
                        "v_max_f32_e64 v12, -v5, |v6|\n"
                        "v_min_f32_e64 v13, s12, v6\n"
                        "v_bfrev_b32 v14, v7\n"
                        "v_ffbh_u32 v15, v7\n"
                        "v_ffbh_i32 v16, v7\n"
                        "v_ffbl_b32 v17, v7\n"
                        "v_bfrev_b32 v18, s13\n"
                        "v_med3_f32 v19, v5, v6, v8\n"
                        "v_min3_f32 v20, v5, -v6, v8\n"
                        "v_max3_f32 v21, v8, v6, |v5|\n"
                        "v_med3_f32 v22, -v8, 1.0, v5\n"
                        "v_cmpx_le_u64 vcc, v[1:2], v[3:4]\n"
                        "v_mov_b32 v41, 5"),
               SIM_FAULT_NONE);
      uint64_t m[7] = {0, 0, 0, 0, 0, 0, 0}, x = 0;
      unsigned bad = 0;
      for (unsigned l = 0; l < 64; l++) {
         uint64_t a = q[l % 11], b = q[(l * 7 + l / 11) % 11], bit = 1ull << l;
         if (!(exec & bit)) {
            for (unsigned r = 10; r < 23; r++)
               bad += w->v[r][l] != 0xDEADBEEF;
            continue;
         }
         m[0] |= a < b ? bit : 0;
         m[1] |= (int64_t)a < (int64_t)b ? bit : 0;
         m[2] |= a == 0xFFFFFFFFull ? bit : 0;
         m[3] |= (int64_t)b >= -5 ? bit : 0;
         m[4] |= b != 7 ? bit : 0;
         m[5] |= a > b ? bit : 0;
         m[6] |= (int64_t)a <= (int64_t)b ? bit : 0;
         x |= a <= b ? bit : 0;
         uint32_t fa = w->v[5][l], fb = w->v[6][l], v = w->v[7][l];
         bad += w->v[10][l] != ref_minmax32(fa, fb, true, ieee);
         bad += w->v[11][l] != ref_minmax32(fa, fb, false, ieee);
         bad += w->v[12][l] != ref_minmax32(fa ^ 0x80000000, fb & 0x7FFFFFFF, true, ieee);
         bad += w->v[13][l] != ref_minmax32(0x7FA00000, fb, false, ieee);
         uint32_t rev = 0;
         for (unsigned i = 0; i < 32; i++)
            rev |= (v >> i & 1) << (31 - i);
         bad += w->v[14][l] != rev;
         bad += w->v[15][l] != ref_ffbh_u32(v);
         bad += w->v[16][l] != ref_ffbh_u32((int32_t)v < 0 ? ~v : v);
         bad += w->v[17][l] != (v ? (uint32_t)__builtin_ctz(v) : 0xFFFFFFFFu);
         bad += w->v[18][l] != 0xB00F0000u;
         uint32_t fc = w->v[8][l];
         bad += w->v[19][l] != ref_med3_32(fa, fb, fc, ieee);
         bad += w->v[20][l] != ref_minmax32(ref_minmax32(fa, fb ^ 0x80000000, false, ieee), fc,
                                            false, ieee);
         bad += w->v[21][l] != ref_minmax32(ref_minmax32(fc, fb, true, ieee), fa & 0x7FFFFFFF,
                                            true, ieee);
         bad += w->v[22][l] != ref_med3_32(fc ^ 0x80000000, 0x3F800000, fa, ieee);
      }
      CHECK_EQ(bad, 0);
      CHECK_EQ(w->s64[10], m[0]);
      CHECK_EQ(w->s64[11], m[1]);
      CHECK_EQ(w->s64[12], m[2]);
      CHECK_EQ(w->s64[13], m[3]);
      CHECK_EQ(w->s64[14], m[4]);
      CHECK_EQ(w->s64[15], m[5]);
      CHECK_EQ(w->s64[16], m[6]);
      CHECK_EQ(SIM_EXEC(w), x);
      CHECK_EQ(w->s64[SIM_SRC_VCC / 2], x);
      for (unsigned l = 0; l < 64; l++)
         CHECK_EQ(w->v[41][l], (x >> l) & 1 ? 5u : 0xAAAAu);
   }
}

static uint32_t
ref_bfe(uint32_t a, uint32_t b, bool sgn)
{
   uint32_t off = b & 31, width = (b >> 16) & 0x7F;
   if (!sgn)
      return width >= 32 ? a >> off : (a >> off) & ((1u << width) - 1);
   if (width == 0)
      return 0;
   if (width >= 32)
      return (uint32_t)((int32_t)a >> off);
   return (uint32_t)((int32_t)((a >> off) << (32 - width)) >> (32 - width));
}

/* What the translator lowers of s_mul_hi_u32/i32, s_bfe_u32/i32 (every offset and width
 * class: 0, inside the word, past its top, 32 and more; SCC) and v_readfirstlane_b32 (the
 * first lane of EXEC; lane 0 when EXEC is 0), against C references. */
TEST(lowered_salu_bits)
{
   static const uint32_t a[] = {0x80000001u, 0xFFFFFFFFu, 0x12345678u, 0, 0x7FFFFFFFu,
                                0xF00F00F0u};
   static const uint32_t f[] = {0x00000000u, 0x00050003u, 0x0001001Fu, 0x0020000Au,
                                0x0008001Cu, 0x007F0004u, 0x000C0000u, 0x00200000u,
                                0x001F0001u};
   static const uint64_t execs[] = {0xFFFFFFFFFFFFFFFFull, 0x0000F00000000000ull, 0};
   for (unsigned e = 0; e < 3; e++) {
      sim_wave *w = t_wave();
      for (unsigned l = 0; l < 64; l++)
         w->v[1][l] = 0x1000u + l * 3;
      for (unsigned i = 0; i < 6; i++)
         w->s[i] = a[i];
      for (unsigned i = 0; i < 9; i++)
         w->s[10 + i] = f[i];
      SIM_EXEC(w) = execs[e];
      char prog[4096];
      int n = snprintf(prog, sizeof(prog),
                       "s_mul_hi_u32 s30, s0, s1\n"
                       "s_mul_hi_i32 s31, s0, s1\n"
                       "s_mul_hi_u32 s32, s2, 0x9e3779b9\n"
                       "s_mul_hi_i32 s33, s2, -7\n"
                       "v_readfirstlane_b32 s34, v1\n");
      for (unsigned i = 0; i < 6; i++)
         for (unsigned j = 0; j < 9; j++)
            n += snprintf(prog + n, sizeof(prog) - (size_t)n,
                          "s_bfe_%c32 s%u, s%u, s%u\n"
                          "s_cselect_b32 s%u, 1, 0\n",
                          (i + j) & 1 ? 'i' : 'u', 40 + (i * 9 + j) % 50, i, 10 + j,
                          90 + (i * 9 + j) % 10);
      n += snprintf(prog + n, sizeof(prog) - (size_t)n, "s_nop 0");
      /* Each destination is checked right after the run: s40..s89 wrap around, so only
       * the last writer of each survives; check those. */
      CHECK_EQ(t_run(w, prog), SIM_FAULT_NONE);
      CHECK_EQ(w->s[30], (uint32_t)(((uint64_t)a[0] * a[1]) >> 32));
      CHECK_EQ(w->s[31], (uint32_t)(((int64_t)(int32_t)a[0] * (int32_t)a[1]) >> 32));
      CHECK_EQ(w->s[32], (uint32_t)(((uint64_t)a[2] * 0x9e3779b9u) >> 32));
      CHECK_EQ(w->s[33], (uint32_t)(((int64_t)(int32_t)a[2] * -7) >> 32));
      uint64_t ex = execs[e];
      CHECK_EQ(w->s[34], 0x1000u + (ex ? (unsigned)__builtin_ctzll(ex) : 0) * 3);
      unsigned bad = 0;
      for (unsigned k = 0; k < 54; k++) {
         unsigned i = k / 9, j = k % 9;
         if (k + 50 < 54)
            continue; /* overwritten by a later one */
         uint32_t r = ref_bfe(a[i], f[j], (i + j) & 1);
         bad += w->s[40 + k % 50] != r;
         if (k + 10 >= 54)
            bad += w->s[90 + k % 10] != (r != 0);
      }
      CHECK_EQ(bad, 0);
   }
}

/* The handlers' f32-to-integer conversions (sim_vop1.c), as the lowering must match them. */
static uint32_t
ref_cvt_u32(float f)
{
   return isnan(f) || f <= 0.0f ? 0 : f >= 4294967296.0f ? 0xFFFFFFFFu : (uint32_t)f;
}
static uint32_t
ref_cvt_i32(float f)
{
   if (isnan(f))
      return 0;
   return f >= 2147483648.0f    ? 0x7FFFFFFFu
          : f < -2147483648.0f ? 0x80000000u
                               : (uint32_t)(int32_t)f;
}
static uint32_t
ref_cvt_round(float f, float rounded)
{
   return isnan(f) ? (signbit(f) ? 0x80000000u : 0x7FFFFFFFu) : ref_cvt_i32(rounded);
}
/* An f32 result's bits, a NaN result as the source NaN quieted (sim__nanfix32). */
static uint32_t
ref_f32(float r, uint32_t src)
{
   uint32_t u;
   memcpy(&u, &r, 4);
   return r != r ? src | 0x400000 : u;
}
/* A subnormal as the zero of its sign (the transcendental unit's flushing). */
static float
ref_flush(float f)
{
   return fpclassify(f) == FP_SUBNORMAL ? copysignf(0.0f, f) : f;
}

/* What sim_xlate_alu.c lowers, over 64 lanes of edge values (in sim_xlate_check_unit also
 * run translated and compared with the interpreter): f32-to-integer conversions at and
 * past the saturation bounds, halves, signed zeros, subnormals, infinities and NaNs (the
 * floor-based ones give a NaN its sign's bound); bytes to float; v_rcp_f32 of subnormals
 * (flushed: infinities), of values whose reciprocal is subnormal (flushed to zero), of
 * zeros, infinities and NaNs, with and without -|S0|; frexp of subnormals, zeros,
 * infinities and NaNs; ldexp to subnormal results (rounded once, to nearest even), past
 * overflow and underflow and with exponents beyond +-2^31 - 1; the 64-bit multiply-adds
 * with carries out of an SGPR pair, a VGPR pair and an inline constant. */
TEST(lowered_alu_scaling)
{
   static const uint32_t f[] = {
      0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007FFFFF, 0x807FFFFF, 0x00800000,
      0x3F800000, 0xBF800000, 0x3F000000, 0xBF000000, 0x3FC00000, 0xBFC00000, 0x40200000,
      0xC0200000, 0x4F800000, 0x4F7FFFFF, 0x4F000000, 0xCF000000, 0xCF000001, 0x4EFFFFFF,
      0x7F800000, 0xFF800000, 0x7FC00001, 0x7F800123, 0xFF800123, 0x7F7FFFFF, 0x7E800000,
      0x7F000000, 0x40400000, 0xC0E00000, 0x00FFFFFF, 0x3EFFFFFF, 0xBEFFFFFF, 0x12345678,
      0xFEDCBA98, 0x00400001};
   static const int32_t e[] = {-300, -200, -149, -150, -126, -1, 0, 1, 127, 128, 254, 300,
                               INT32_MIN, INT32_MAX, -160, 25, -24, -127};
   enum { NF = sizeof(f) / sizeof(f[0]), NE = sizeof(e) / sizeof(e[0]) };
   sim_wave *w = t_wave();
   for (unsigned l = 0; l < 64; l++) {
      w->v[1][l] = 0x9E3779B9u * (l + 1) ^ (l << 27);
      w->v[2][l] = l & 1 ? 0xFFFFFFFFu - l : 0x01234567u * l;
      w->v[3][l] = l & 2 ? 0xFFFFFFFFu - l : l;
      w->v[4][l] = l & 4 ? 0xFFFFFFFFu : 0x80000000u + l;
      w->v[5][l] = f[l % NF];
      w->v[6][l] = (uint32_t)e[(l * 7 + 3) % NE];
      w->v[7][l] = f[(l * 5 + 11) % NF];
   }
   w->s[8] = 0xFFFFFFF0u, w->s[9] = 0xFFFFFFFFu;
   CHECK_EQ(t_run(w, "v_cvt_u32_f32 v10, v5\n"
                     "v_cvt_i32_f32 v11, v5\n"
                     "v_cvt_flr_i32_f32 v12, v5\n"
                     "v_cvt_rpi_i32_f32 v13, v5\n"
                     "v_cvt_f32_ubyte0 v14, v1\n"
                     "v_cvt_f32_ubyte1 v15, v1\n"
                     "v_cvt_f32_ubyte2 v16, v1\n"
                     "v_cvt_f32_ubyte3 v17, v1\n"
                     "v_rcp_f32 v18, v5\n"
                     "v_rcp_f32_e64 v19, -|v5|\n"
                     "v_rcp_iflag_f32 v20, v7\n"
                     "v_frexp_mant_f32 v21, v5\n"
                     "v_frexp_exp_i32_f32 v22, v5\n"
                     "v_ldexp_f32 v23, v5, v6\n"
                     "v_ldexp_f32 v24, -v7, v6\n"
                     "v_cvt_i32_f32_e64 v25, -v7\n"
                     "v_mad_u64_u32 v[26:27], vcc, v1, v2, v[3:4]\n"
                     "v_mad_u64_u32 v[28:29], s[10:11], v2, v1, s[8:9]\n"
                     "v_mad_i64_i32 v[30:31], s[12:13], v1, v2, v[3:4]\n"
                     "v_mad_i64_i32 v[32:33], s[14:15], v2, v2, -1"),
            SIM_FAULT_NONE);
   unsigned bad = 0;
   uint64_t cy[4] = {0, 0, 0, 0};
   for (unsigned l = 0; l < 64; l++) {
      uint32_t ab = w->v[5][l], bb = w->v[7][l], a1 = w->v[1][l], a2 = w->v[2][l];
      int32_t n = (int32_t)w->v[6][l];
      float a, b, na, nb;
      memcpy(&a, &ab, 4), memcpy(&b, &bb, 4);
      na = -fabsf(a), nb = -b;
      uint32_t nab, nbb;
      memcpy(&nab, &na, 4), memcpy(&nbb, &nb, 4);
      int ex = 0;
      float mant = isfinite(a) ? frexpf(a, &ex) : a;
      bad += w->v[10][l] != ref_cvt_u32(a);
      bad += w->v[11][l] != ref_cvt_i32(a);
      bad += w->v[12][l] != ref_cvt_round(a, floorf(a));
      bad += w->v[13][l] != ref_cvt_round(a, floorf(a + 0.5f));
      for (unsigned k = 0; k < 4; k++)
         bad += w->v[14 + k][l] != ref_f32((float)((a1 >> 8 * k) & 0xFF), 0);
      bad += w->v[18][l] != ref_f32(ref_flush(1.0f / ref_flush(a)), ab);
      bad += w->v[19][l] != ref_f32(ref_flush(1.0f / ref_flush(na)), nab);
      bad += w->v[20][l] != ref_f32(ref_flush(1.0f / ref_flush(b)), bb);
      bad += w->v[21][l] != ref_f32(mant, ab);
      bad += w->v[22][l] != (uint32_t)ex;
      bad += w->v[23][l] != ref_f32(ldexpf(a, n), ab);
      bad += w->v[24][l] != ref_f32(ldexpf(nb, n), nbb);
      bad += w->v[25][l] != ref_cvt_i32(nb);
      uint64_t c34 = w->v[3][l] | (uint64_t)w->v[4][l] << 32, s89 = 0xFFFFFFFFFFFFFFF0ull;
      uint64_t u0 = (uint64_t)a1 * a2 + c34, u1 = (uint64_t)a2 * a1 + s89;
      __int128 i0 = (__int128)((int64_t)(int32_t)a1 * (int32_t)a2) + (int64_t)c34;
      __int128 i1 = (__int128)((int64_t)(int32_t)a2 * (int32_t)a2) - 1;
      bad += (w->v[26][l] | (uint64_t)w->v[27][l] << 32) != u0;
      bad += (w->v[28][l] | (uint64_t)w->v[29][l] << 32) != u1;
      bad += (w->v[30][l] | (uint64_t)w->v[31][l] << 32) != (uint64_t)i0;
      bad += (w->v[32][l] | (uint64_t)w->v[33][l] << 32) != (uint64_t)i1;
      cy[0] |= (uint64_t)(u0 < c34) << l;
      cy[1] |= (uint64_t)(u1 < s89) << l;
      cy[2] |= (uint64_t)(i0 != (int64_t)i0) << l;
      cy[3] |= (uint64_t)(i1 != (int64_t)i1) << l;
   }
   CHECK_EQ(bad, 0);
   CHECK_EQ(w->s64[SIM_SRC_VCC / 2], cy[0]);
   CHECK_EQ(w->s64[5], cy[1]);
   CHECK_EQ(w->s64[6], cy[2]);
   CHECK_EQ(w->s64[7], cy[3]);
   CHECK(cy[0] != 0 && cy[0] != ~0ull && cy[1] != 0 && cy[2] != 0);
}


/* Runs of lane-local VALU instructions naming more rows than a translated block holds
 * whole: the translator emits them in pieces of 16 lanes (sim_xlate.c emit_pieces), each
 * piece reading its lanes of the rows, of EXEC, of VCC (v_cndmask) and the same SGPR
 * operand. EXEC differs in every piece (one lane, all, half, alternate nibbles), inactive
 * lanes keep their markers; in a wave32 (gfx1030: two pieces) lanes 32-63 are no lanes.
 * f32 and integer forms in a wave64 and a wave32, lane masks, SGPR clashes (the f16 and
 * f64 forms: sim_isa_test_f16.c, sim_isa_test_f64.c). Results worked out here in C, lane
 * by lane (no NaN, no rounding tie the host rounds otherwise: fmaf is the fused
 * operation). The checking mode compares the pieces with the interpreter, and its test
 * (sim_xlate_check_pieces) fails when no run was in pieces. */
static void
pieces_case(sim_wave *w, unsigned lanes, uint64_t exec, uint64_t vcc, const char *src)
{
   for (unsigned l = 0; l < 64; l++) {
      w->v[1][l] = t_u(1.0f + 0.5f * l);
      w->v[2][l] = t_u(2.0f - 0.25f * l);
      w->v[3][l] = t_u(0.75f + l);
      w->v[4][l] = t_u(3.0f - 0.125f * l);
      for (unsigned r = 5; r <= 14; r++)
         w->v[r][l] = 0xDEAD0000u + r * 256 + l;
   }
   SIM_EXEC(w) = exec;
   w->s[106] = (uint32_t)vcc, w->s[107] = (uint32_t)(vcc >> 32);
   w->s[8] = 3;
   CHECK_EQ(t_run(w, src), SIM_FAULT_NONE);
   for (unsigned l = 0; l < 64; l++) {
      uint32_t want[15];
      float a = t_f(w->v[1][l]), b = t_f(w->v[2][l]), c = t_f(w->v[3][l]),
            d = t_f(w->v[4][l]);
      float f5 = fmaf(a, b, c), f6 = f5 * d, f7 = f6 + a, f13 = fmaxf(f7, f5);
      want[5] = t_u(f5);
      want[6] = t_u(f6);
      want[7] = t_u(f7);
      want[8] = (vcc >> l) & 1 ? w->v[2][l] : w->v[1][l];
      want[9] = w->v[3][l] + 3;
      want[10] = (w->v[4][l] >> 4) & 0xFF;
      want[11] = (want[9] << 2) + want[10];
      want[12] = want[11] ^ want[8];
      want[13] = t_u(f13);
      want[14] = t_u(f13 - f6);
      bool on = l < lanes && ((exec >> l) & 1);
      for (unsigned r = 5; r <= 14; r++) {
         uint32_t got = w->v[r][l], exp = on ? want[r] : 0xDEAD0000u + r * 256 + l;
         if (got != exp) {
            fprintf(stderr, "FAIL %s: wave%u v%u lane %u = 0x%x, want 0x%x\n", t_current,
                    lanes, r, l, got, exp);
            t_failures++;
         }
      }
   }
}

/* Lane masks in pieces: compares and carries write their lanes' bits of VCC and of an SGPR
 * (pair), later instructions of the run read them (v_cndmask, the carry-in), and scalar
 * code after the run reads the whole masks (s_mov). A wave64 and a wave32 (VCC_HI and s21
 * untouched there); EXEC differs in every piece, inactive lanes' bits are 0. */
static void
pieces_masks(sim_wave *w, unsigned lanes, uint64_t exec, const char *src)
{
   for (unsigned l = 0; l < 64; l++) {
      w->v[1][l] = t_u(1.0f + 0.5f * l);
      w->v[2][l] = t_u(20.0f - 0.75f * l);
      w->v[3][l] = t_u(-(0.25f * l + 0.5f));
      w->v[4][l] = t_u(1.5f * l - 30.0f);
      for (unsigned r = 5; r <= 11; r++)
         w->v[r][l] = 0xCAFE0000u + r * 256 + l;
   }
   SIM_EXEC(w) = exec;
   w->s[106] = 0x11111111u, w->s[107] = 0x22222222u;
   w->s[20] = 0x33333333u, w->s[21] = 0x44444444u;
   CHECK_EQ(t_run(w, src), SIM_FAULT_NONE);
   uint64_t vcc = 0, s20 = 0;
   for (unsigned l = 0; l < lanes; l++) {
      if (!((exec >> l) & 1)) {
         for (unsigned r = 5; r <= 11; r++)
            CHECK_EQ(w->v[r][l], 0xCAFE0000u + r * 256 + l);
         continue;
      }
      uint32_t a = w->v[1][l], b = w->v[2][l], c = w->v[3][l], d = w->v[4][l];
      uint32_t v5 = t_f(a) > t_f(b) ? d : c;
      uint64_t s6 = (uint64_t)a + c, s7 = (uint64_t)b + d + (s6 >> 32);
      uint32_t v6 = (uint32_t)s6, v7 = (uint32_t)s7;
      vcc |= (s7 >> 32) << l;
      bool lt = v6 < v7;
      s20 |= (uint64_t)lt << l;
      uint32_t v8 = lt ? b : a;
      float v9 = t_f(v5) * t_f(v8), v10 = fmaxf(v9, t_f(a)), v11 = v10 + t_f(b);
      CHECK_EQ(w->v[5][l], v5);
      CHECK_EQ(w->v[6][l], v6);
      CHECK_EQ(w->v[7][l], v7);
      CHECK_EQ(w->v[8][l], v8);
      CHECK_EQ(w->v[9][l], t_u(v9));
      CHECK_EQ(w->v[10][l], t_u(v10));
      CHECK_EQ(w->v[11][l], t_u(v11));
   }
   if (lanes == 64) {
      CHECK_EQ(w->s[106] | (uint64_t)w->s[107] << 32, vcc);
      CHECK_EQ(w->s[20] | (uint64_t)w->s[21] << 32, s20);
      CHECK_EQ(w->s[30] | (uint64_t)w->s[31] << 32, vcc);
      CHECK_EQ(w->s[32] | (uint64_t)w->s[33] << 32, s20);
   } else {
      CHECK_EQ(w->s[106], vcc);
      CHECK_EQ(w->s[107], 0x22222222u);
      CHECK_EQ(w->s[20], s20);
      CHECK_EQ(w->s[21], 0x44444444u);
      CHECK_EQ(w->s[30], vcc);
      CHECK_EQ(w->s[32], s20);
   }
}

/* An SGPR read as a value and then written as a lane mask (matmul_tiled's first block: s2
 * added to every lane, then v_mad_u64_u32's carry to s[2:3]): the run in pieces ends before
 * the write, or a later piece would add the earlier pieces' bits of the mask. After the
 * write the SGPR is the whole mask, read as a value again by the last instruction. */
/* The run both programs below start with after v5: v6..v12 from v5 and v1..v4. */
#define CLASH_CHAIN                                                                        \
   "v_mul_lo_u32 v6, v5, v2\n"                                                             \
   "v_add_u32 v7, v6, v3\n"                                                                \
   "v_xor_b32 v8, v7, v4\n"                                                                \
   "v_add_u32 v9, v8, v1\n"                                                                \
   "v_sub_u32 v10, v9, v2\n"                                                               \
   "v_or_b32 v11, v10, v3\n"                                                               \
   "v_and_b32 v12, v11, v4\n"
static uint32_t
clash_chain(uint32_t v5, uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
   return ((((v5 * b + c) ^ d) + a - b) | c) & d;
}

static void
pieces_sgpr_clash(void)
{
   sim_wave *w = t_wave();
   uint64_t exec = 0xFFFF0FF0F00FFFFFull;
   for (unsigned l = 0; l < 64; l++) {
      w->v[1][l] = 0x01010101u * l + 7;
      w->v[2][l] = 3u + (l % 5);
      w->v[3][l] = 0x9E3779B9u * (l + 1);
      w->v[4][l] = 0xF0F0F0F0u ^ (l << 9);
      for (unsigned r = 5; r <= 15; r++)
         w->v[r][l] = 0xABCD0000u + r * 256 + l;
   }
   SIM_EXEC(w) = exec;
   w->s[20] = 0x1234, w->s[21] = 0x5678;
   CHECK_EQ(t_run(w, "v_add_u32 v5, s20, v1\n" CLASH_CHAIN
                     "v_cmp_lt_u32_e64 s[20:21], v12, v5\n"
                     "v_cndmask_b32_e64 v13, v1, v2, s[20:21]\n"
                     "v_add_u32 v14, v13, v5\n"
                     "v_add_u32 v15, s20, v14\n"),
            SIM_FAULT_NONE);
   uint64_t mask = 0;
   uint32_t want[64][16];
   for (unsigned l = 0; l < 64; l++) {
      uint32_t *v = want[l], a = w->v[1][l], b = w->v[2][l], c = w->v[3][l], d = w->v[4][l];
      v[5] = 0x1234 + a;
      v[6] = v[5] * b;
      v[7] = v[6] + c;
      v[8] = v[7] ^ d;
      v[9] = v[8] + a;
      v[10] = v[9] - b;
      v[11] = v[10] | c;
      v[12] = clash_chain(v[5], a, b, c, d);
      if (((exec >> l) & 1) && v[12] < v[5])
         mask |= 1ull << l;
   }
   for (unsigned l = 0; l < 64; l++) {
      uint32_t *v = want[l];
      v[13] = (mask >> l) & 1 ? w->v[2][l] : w->v[1][l];
      v[14] = v[13] + v[5];
      v[15] = (uint32_t)mask + v[14];
      bool on = (exec >> l) & 1;
      for (unsigned r = 5; r <= 15; r++)
         if (w->v[r][l] != (on ? v[r] : 0xABCD0000u + r * 256 + l)) {
            fprintf(stderr, "FAIL %s: clash v%u lane %u = 0x%x, want 0x%x\n", t_current, r,
                    l, w->v[r][l], on ? v[r] : 0xABCD0000u + r * 256 + l);
            t_failures++;
         }
   }
   CHECK_EQ(w->s[20] | (uint64_t)w->s[21] << 32, mask);

   /* One instruction both: v_cmp_gt_u32 s[22:23], v12, s22 reads s22 in every lane. */
   w->s[22] = 0x40000000u, w->s[23] = 0x9999u;
   for (unsigned l = 0; l < 64; l++)
      w->v[13][l] = 0xABCD0000u + 13 * 256 + l;
   CHECK_EQ(t_run(w, "v_add_u32 v5, v1, v2\n" CLASH_CHAIN
                     "v_cmp_gt_u32_e64 s[22:23], v12, s22\n"
                     "v_cndmask_b32_e64 v13, v1, v2, s[22:23]\n"),
            SIM_FAULT_NONE);
   mask = 0;
   for (unsigned l = 0; l < 64; l++) {
      uint32_t a = w->v[1][l], b = w->v[2][l], c = w->v[3][l], d = w->v[4][l];
      uint32_t v12 = clash_chain(a + b, a, b, c, d);
      bool on = (exec >> l) & 1, gt = on && v12 > 0x40000000u;
      mask |= (uint64_t)gt << l;
      CHECK_EQ(w->v[12][l], on ? v12 : 0xABCD0000u + 12 * 256 + l);
      CHECK_EQ(w->v[13][l], !on ? 0xABCD0000u + 13 * 256 + l : gt ? b : a);
   }
   CHECK_EQ(w->s[22] | (uint64_t)w->s[23] << 32, mask);
}

TEST(lowered_pieces)
{
   pieces_case(t_wave(), 64, 0xF0F000FFFFFF0001ull, 0x5555AAAA3333CCCCull,
               "v_fma_f32 v5, v1, v2, v3\n"
               "v_mul_f32 v6, v5, v4\n"
               "v_add_f32 v7, v6, v1\n"
               "v_cndmask_b32 v8, v1, v2, vcc\n"
               "v_add_u32 v9, s8, v3\n"
               "v_bfe_u32 v10, v4, 4, 8\n"
               "v_lshl_add_u32 v11, v9, 2, v10\n"
               "v_xor_b32 v12, v11, v8\n"
               "v_max_f32 v13, v7, v5\n"
               "v_sub_f32 v14, v13, v6\n");
   sim_wave *w = t_wave_target(sim__target(SIM_TARGET_GFX1030));
   w->lanes = 32;
   pieces_case(w, 32, 0x00FFF00Full, 0x3C3CA5A5ull,
               "v_fma_f32 v5, v1, v2, v3\n"
               "v_mul_f32 v6, v5, v4\n"
               "v_add_f32 v7, v6, v1\n"
               "v_cndmask_b32 v8, v1, v2, vcc_lo\n"
               "v_add_nc_u32 v9, s8, v3\n"
               "v_bfe_u32 v10, v4, 4, 8\n"
               "v_lshl_add_u32 v11, v9, 2, v10\n"
               "v_xor_b32 v12, v11, v8\n"
               "v_max_f32 v13, v7, v5\n"
               "v_sub_f32 v14, v13, v6\n");
   pieces_sgpr_clash();
   pieces_masks(t_wave(), 64, 0xFF0F00FFFFFF8001ull,
                "v_cmp_gt_f32 vcc, v1, v2\n"
                "v_cndmask_b32 v5, v3, v4, vcc\n"
                "v_add_co_u32 v6, vcc, v1, v3\n"
                "v_addc_co_u32 v7, vcc, v2, v4, vcc\n"
                "v_cmp_lt_u32_e64 s[20:21], v6, v7\n"
                "v_cndmask_b32_e64 v8, v1, v2, s[20:21]\n"
                "v_mul_f32 v9, v5, v8\n"
                "v_max_f32 v10, v9, v1\n"
                "v_add_f32 v11, v10, v2\n"
                "s_mov_b64 s[30:31], vcc\n"
                "s_mov_b64 s[32:33], s[20:21]\n");
   sim_wave *w32 = t_wave_target(sim__target(SIM_TARGET_GFX1030));
   w32->lanes = 32;
   pieces_masks(w32, 32, 0x80FFF00Eull,
                "v_cmp_gt_f32 vcc_lo, v1, v2\n"
                "v_cndmask_b32 v5, v3, v4, vcc_lo\n"
                "v_add_co_u32 v6, vcc_lo, v1, v3\n"
                "v_add_co_ci_u32 v7, vcc_lo, v2, v4, vcc_lo\n"
                "v_cmp_lt_u32_e64 s20, v6, v7\n"
                "v_cndmask_b32_e64 v8, v1, v2, s20\n"
                "v_mul_f32 v9, v5, v8\n"
                "v_max_f32 v10, v9, v1\n"
                "v_add_f32 v11, v10, v2\n"
                "s_mov_b32 s30, vcc_lo\n"
                "s_mov_b32 s32, s20\n");
}

void
t_alu_tests(void)
{
   RUN(lowered_pieces);
   RUN(lowered_alu_forms);
   RUN(lowered_fcmp_modifiers);
   RUN(lowered_shl64_constant);
   RUN(lowered_cmp64_minmax_bits);
   RUN(lowered_salu_bits);
   RUN(lowered_cmpx);
   RUN(lowered_alu_scaling);
   RUN(saveexec_execz);
   RUN(vopc_masks);
   RUN(carry_chains);
   RUN(constants);
   RUN(vop3_modifiers);
   RUN(denorm_modes);
   RUN(calls);
   RUN(sdwa);
   RUN(sdwa_selects);
   RUN(dpp);
   RUN(gpr_index_mode);
   RUN(lanes);
   RUN(sopc_bitcmp);
   RUN(special_regs);
   RUN(sop2_add_carry);
   RUN(vop2_add_u32);
   RUN(vop3_minmaxmed3_16);
   RUN(trans_f64_denormals);
   RUN(div_fmas_f64_subnormal);
}
