/*
 * Instruction tests for the union forms no corpus kernel executes (sim_isa_coverage merges
 * these runs' HSACL_SIM_COUNTS with the kernel tests'). One test per encoding family;
 * register contents pick the edge cases (carries, sign bits, NaN operands, 16-bit halves,
 * inactive lanes) and every expected value is worked out by hand from the instruction's
 * pseudo-code in AMD's "Vega 7nm" ISA guide, quoted above each group.
 */
#include <math.h>
#include "sim_isa_test.h"

static void
vset(sim_wave *w, unsigned v, uint32_t x)
{
   for (unsigned l = 0; l < 64; l++)
      w->v[v][l] = x;
}

static uint64_t
vget64(sim_wave *w, unsigned v, unsigned lane)
{
   return w->v[v][lane] | (uint64_t)w->v[v + 1][lane] << 32;
}

static uint64_t
d2u(double d)
{
   return sim__as_u64(d);
}

/* ---- SOP2 / SOP1 / SOPC / SOPK ------------------------------------------------------- */

/* S_SUB_U32: D = S0 - S1, SCC = borrow (S1 > S0). S_SUBB_U32: D = S0 - S1 - SCC, SCC =
 * borrow. S_MIN_I32 / S_MAX_I32: signed select, SCC = (S0 < S1) / (S0 > S1).
 * S_MUL_HI_I32: D = (S0.i * S1.i) >> 32. S_XOR_B32, S_ANDN2_B32 (S0 & ~S1), S_ORN2_B64
 * (S0 | ~S1), S_NOT_B32: SCC = (D != 0). S_ASHR_I64: D = S0.i64 >> S1[5:0], SCC = (D != 0).
 * S_CMP_GE_U32: SCC = (S0.u >= S1.u). */
TEST(salu_forms)
{
   sim_wave *w = t_wave();
   w->s[0] = 5;
   w->s[1] = 7;
   w->s[2] = 0xFFFFFFF0; /* -16 */
   w->s[3] = 0x12345678;
   CHECK_EQ(t_run(w, "s_sub_u32 s10, s0, s1\n"      /* 5 - 7: borrow */
                     "s_subb_u32 s11, s1, s0\n"     /* 7 - 5 - 1 = 1, no borrow */
                     "s_cselect_b32 s12, 1, 2\n"    /* SCC after subb = 0 -> 2 */
                     "s_sub_u32 s13, 0, 0\n"        /* SCC = 0 */
                     "s_subb_u32 s14, 0, 1\n"       /* 0 - 1 - 0 = -1, borrow */
                     "s_cselect_b32 s15, 1, 2\n"    /* -> 1 */
                     "s_min_i32 s16, s2, s0\n"      /* -16, S0 chosen: SCC = 1 */
                     "s_cselect_b32 s17, 1, 2\n"
                     "s_max_i32 s18, s2, s0\n"      /* 5, S1 chosen: SCC = 0 */
                     "s_cselect_b32 s19, 1, 2\n"
                     "s_mul_hi_i32 s20, s2, s3\n"   /* -16 * 0x12345678 >> 32 = -2 */
                     "s_mul_hi_i32 s21, s3, s3\n"
                     "s_xor_b32 s22, s3, s3\n"      /* 0, SCC = 0 */
                     "s_cselect_b32 s23, 1, 2\n"
                     "s_andn2_b32 s24, s3, s2\n"    /* 0x12345678 & 0xF = 8 */
                     "s_not_b32 s25, s2\n"          /* 15 */
                     "s_cmp_ge_u32 s2, s3\n"
                     "s_cselect_b32 s26, 1, 2\n"    /* 0xFFFFFFF0 >= 0x12345678 */
                     "s_cmp_ge_u32 s0, s1\n"
                     "s_cselect_b32 s27, 1, 2\n"),
            SIM_FAULT_NONE);
   CHECK_EQ(w->s[10], 0xFFFFFFFEu);
   CHECK_EQ(w->s[11], 1);
   CHECK_EQ(w->s[12], 2);
   CHECK_EQ(w->s[14], 0xFFFFFFFFu);
   CHECK_EQ(w->s[15], 1);
   CHECK_EQ(w->s[16], 0xFFFFFFF0u);
   CHECK_EQ(w->s[17], 1);
   CHECK_EQ(w->s[18], 5);
   CHECK_EQ(w->s[19], 2);
   /* -16 * 0x12345678 = -0x123456780 -> high word of the two's complement: 0xFFFFFFFE */
   CHECK_EQ(w->s[20], 0xFFFFFFFEu);
   /* 0x12345678^2 = 0x014B66DC_1DF4D840 */
   CHECK_EQ(w->s[21], 0x014B66DCu);
   CHECK_EQ(w->s[22], 0);
   CHECK_EQ(w->s[23], 2);
   CHECK_EQ(w->s[24], 8);
   CHECK_EQ(w->s[25], 15);
   CHECK_EQ(w->s[26], 1);
   CHECK_EQ(w->s[27], 2);

   w = t_wave();
   w->s64[2] = 0x8000000000000010ull; /* s[4:5] */
   w->s64[3] = 0x00000000FFFFFFFFull; /* s[6:7] */
   w->s[8] = 68;                      /* shift uses bits 5:0 -> 4 */
   CHECK_EQ(t_run(w, "s_ashr_i64 s[10:11], s[4:5], s8\n"
                     "s_cselect_b32 s20, 1, 2\n"
                     "s_orn2_b64 s[12:13], s[6:7], s[6:7]\n" /* x | ~x = all ones */
                     "s_orn2_b64 s[14:15], 0, -1\n"          /* 0 | 0 = 0, SCC = 0 */
                     "s_cselect_b32 s21, 1, 2\n"
                     "s_not_b32 s16, -1\n"                   /* 0, SCC = 0 */
                     "s_cselect_b32 s22, 1, 2"),
            SIM_FAULT_NONE);
   CHECK_EQ(w->s64[5], 0xF800000000000001ull);
   CHECK_EQ(w->s[20], 1);
   CHECK_EQ(w->s64[6], ~0ull);
   CHECK_EQ(w->s64[7], 0);
   CHECK_EQ(w->s[21], 2);
   CHECK_EQ(w->s[16], 0);
   CHECK_EQ(w->s[22], 2);
}

/* S_ADDK_I32: D = D + signext(SIMM16), SCC = signed overflow. S_CMPK_EQ/LG_I32: SCC =
 * (D.i ==/!= signext(SIMM16)); S_CMPK_GT/LT_U32: SCC = (D.u >/< zeroext(SIMM16)). */
TEST(sopk_forms)
{
   sim_wave *w = t_wave();
   w->s[0] = 0x7FFFFFF0;
   w->s[1] = 0xFFFF8000; /* -32768 */
   w->s[2] = 0x9000;
   CHECK_EQ(t_run(w, "s_addk_i32 s0, 0x20\n"  /* overflow: 0x80000010, SCC = 1 */
                     "s_cselect_b32 s10, 1, 2\n"
                     "s_addk_i32 s2, 0xFFFF\n"  /* 0x9000 - 1, no overflow */
                     "s_cselect_b32 s11, 1, 2\n"
                     "s_cmpk_eq_i32 s1, 0x8000\n" /* signext(0x8000) = -32768: equal */
                     "s_cselect_b32 s12, 1, 2\n"
                     "s_cmpk_lg_i32 s1, 0x8000\n"
                     "s_cselect_b32 s13, 1, 2\n"
                     "s_cmpk_gt_u32 s2, 0x8000\n" /* 0x8FFF > 0x8000 (zero-extended) */
                     "s_cselect_b32 s14, 1, 2\n"
                     "s_cmpk_lt_u32 s1, 0x8000\n" /* 0xFFFF8000 < 0x8000: no */
                     "s_cselect_b32 s15, 1, 2\n"
                     "s_cmpk_lt_u32 s2, 0x9000\n" /* 0x8FFF < 0x9000 */
                     "s_cselect_b32 s16, 1, 2"),
            SIM_FAULT_NONE);
   CHECK_EQ(w->s[0], 0x80000010u);
   CHECK_EQ(w->s[10], 1);
   CHECK_EQ(w->s[2], 0x8FFF);
   CHECK_EQ(w->s[11], 2);
   CHECK_EQ(w->s[12], 1);
   CHECK_EQ(w->s[13], 2);
   CHECK_EQ(w->s[14], 1);
   CHECK_EQ(w->s[15], 2);
   CHECK_EQ(w->s[16], 1);
}

/* ---- VOP1 / VOP2 ------------------------------------------------------------------------ */

/* V_NOT_B32: D = ~S0. V_SWAP_B32: tmp = D; D = S0; S0 = tmp (active lanes only).
 * V_MAC_F32: D = S0 * S1 + D. V_SUBREV_F32: D = S1 - S0. V_CVT_F16_F32: D.f16 =
 * flt32_to_flt16(S0.f), round to nearest even, bits 31:16 zeroed. */
TEST(vop12_forms)
{
   sim_wave *w = t_wave();
   for (unsigned l = 0; l < 64; l++) {
      w->v[0][l] = 0x0F0F0000 + l;
      w->v[1][l] = 1000 + l;
      w->v[2][l] = 2000 + l;
   }
   vset(w, 3, t_u(1.5f));
   vset(w, 4, t_u(-2.0f));
   vset(w, 5, t_u(0.25f));
   vset(w, 6, t_u(10.0f));
   vset(w, 7, 0xFFFF0000);
   vset(w, 8, 0xFFFF0000);
   vset(w, 9, 0xFFFF0000);
   vset(w, 10, 0xFFFF0000);
   w->v[11][0] = t_u(1.0f);
   w->v[11][1] = t_u(-2.5f);
   w->v[11][2] = t_u(65520.0f);  /* halfway between 65504 and 65536: rounds to +inf */
   w->v[11][3] = t_u(1e-8f);     /* below half the smallest f16 denormal: +0 */
   w->v[11][4] = t_u(0x1.8p-24f); /* 1.5 * 2^-24: ties to even -> 2 * 2^-24 */
   w->v[11][5] = 0x7FC00000;     /* qNaN */
   SIM_EXEC(w) = 0x7FFFFFFFFFFFFFFFull;
   CHECK_EQ(t_run(w, "v_not_b32 v12, v0\n"
                     "v_swap_b32 v1, v2\n"
                     "v_mac_f32 v5, v3, v4\n"          /* 1.5 * -2 + 0.25 = -2.75 */
                     "v_subrev_f32 v6, v3, v6\n"       /* 10 - 1.5 = 8.5 */
                     "v_cvt_f16_f32 v7, v11"),
            SIM_FAULT_NONE);
   CHECK_EQ(w->v[12][9], 0xF0F0FFF6u);
   CHECK_EQ(w->v[1][9], 2009);
   CHECK_EQ(w->v[2][9], 1009);
   CHECK_EQ(w->v[1][63], 1063); /* inactive lane not swapped */
   CHECK_EQ(w->v[2][63], 2063);
   CHECK_EQ(w->v[5][0], t_u(-2.75f));
   CHECK_EQ(w->v[6][0], t_u(8.5f));
   CHECK_EQ(w->v[7][0], 0x3C00);
   CHECK_EQ(w->v[7][1], 0xC100);
   CHECK_EQ(w->v[7][2], 0x7C00);
   CHECK_EQ(w->v[7][3], 0x0000);
   CHECK_EQ(w->v[7][4], 0x0002);
   CHECK_EQ(w->v[7][5] & 0x7E00, 0x7E00); /* quiet NaN */
   CHECK_EQ(w->v[7][63], 0xFFFF0000u);
}

/* ---- VOP3 -------------------------------------------------------------------------------- */

/* V_MAD_I32_I24: D.i = S0.i[23:0] * S1.i[23:0] + S2.i (24-bit operands sign-extended).
 * V_MAD_LEGACY_U16: D.u16 = S0.u16 * S1.u16 + S2.u16 (clamp saturates to 0xFFFF).
 * V_MIN3_I32: D.i = min(S0.i, S1.i, S2.i). V_XAD_U32: D.u = (S0.u ^ S1.u) + S2.u.
 * V_SUBREV_CO_U32: D.u = S1.u - S0.u; carry-out = borrow (S0.u > S1.u). */
TEST(vop3_int_forms)
{
   sim_wave *w = t_wave();
   w->v[0][0] = 0x00FFFFFF; /* -1 as i24 */
   w->v[1][0] = 5;
   w->v[2][0] = 10;
   w->v[0][1] = 0xFF800000; /* bits 23:0 = 0x800000 = -2^23 */
   w->v[1][1] = 2;
   w->v[2][1] = 0;
   w->v[0][2] = 0x12000003; /* bits 31:24 ignored */
   w->v[1][2] = 0x34000004;
   w->v[2][2] = 0xFFFFFFFF;
   for (unsigned l = 0; l < 3; l++) {
      w->v[3][l] = 0x12340000 | (l == 0 ? 0x0300 : 0x8000);
      w->v[4][l] = 0xABCD0002;
      w->v[5][l] = 0x55550010;
   }
   w->v[6][0] = (uint32_t)-5, w->v[7][0] = 3, w->v[8][0] = (uint32_t)-7;
   w->v[6][1] = 9, w->v[7][1] = 0x80000000, w->v[8][1] = 1;
   w->v[9][0] = 0xF0F0F0F0, w->v[10][0] = 0xFF00FF00, w->v[11][0] = 0x10;
   w->v[12][0] = 3, w->v[13][0] = 10; /* subrev: 10 - 3 */
   w->v[12][1] = 4, w->v[13][1] = 1;  /* 1 - 4: borrow */
   SIM_EXEC(w) = 0x7;
   CHECK_EQ(t_run(w, "v_mad_i32_i24 v20, v0, v1, v2\n"
                     "v_mad_legacy_u16 v21, v3, v4, v5\n"
                     "v_mad_legacy_u16 v22, v3, v4, v5 clamp\n"
                     "v_min3_i32 v23, v6, v7, v8\n"
                     "v_xad_u32 v24, v9, v10, v11\n"
                     "v_subrev_co_u32_e64 v25, s[0:1], v12, v13"),
            SIM_FAULT_NONE);
   CHECK_EQ(w->v[20][0], 5);
   CHECK_EQ(w->v[20][1], 0xFF000000u);
   CHECK_EQ(w->v[20][2], 11); /* 3 * 4 - 1 */
   CHECK_EQ(w->v[21][0] & 0xFFFF, 0x0610);
   CHECK_EQ(w->v[21][1] & 0xFFFF, 0x0010); /* 0x8000 * 2 + 0x10 = 0x10010 wraps */
   CHECK_EQ(w->v[22][0] & 0xFFFF, 0x0610);
   CHECK_EQ(w->v[22][1] & 0xFFFF, 0xFFFF);
   CHECK_EQ(w->v[23][0], (uint32_t)-7);
   CHECK_EQ(w->v[23][1], 0x80000000u);
   CHECK_EQ(w->v[24][0], 0x0FF00FF0u + 0x10);
   CHECK_EQ(w->v[25][0], 7);
   CHECK_EQ(w->v[25][1], 0xFFFFFFFDu);
   CHECK_EQ(w->s64[0], 0x2); /* borrow in lane 1 only; lane 2: 0 - 0 */
}

/* V_TRIG_PREOP_F64: the 53-bit segment S1[4:0] of 2/PI, starting at fraction bit
 * 1200 - S1*53 - max(0, exp(S0) - 1077), scaled by 2^(-53 - shift) (+128 when exp(S0) >=
 * 1968). Expected values: the binary expansion of 2/PI = 0.A2F9836E 4E441529 FC2757D1
 * F534DDC0 DB629599 ..., cut by hand into 53-bit segments. */
TEST(trig_preop)
{
   sim_wave *w = t_wave();
   for (unsigned l = 0; l < 64; l++) {
      uint64_t x = l < 3 ? d2u(1.0) : d2u(0x1p100);
      w->v[0][l] = (uint32_t)x;
      w->v[1][l] = (uint32_t)(x >> 32);
      w->v[2][l] = l < 3 ? l : l - 3;
   }
   CHECK_EQ(t_run(w, "v_trig_preop_f64 v[4:5], v[0:1], v2"), SIM_FAULT_NONE);
   /* segment 0: 0x1.45F306DC9C882p-1 (bits 0xA2F9836E4E441 truncated, not rounded) */
   CHECK_EQ(vget64(w, 4, 0), 0x3FE45F306DC9C882ull);
   CHECK_EQ(vget64(w, 4, 1), 0x3C94A7F09D5F47D4ull);
   CHECK_EQ(vget64(w, 4, 2), 0x394A6EE06DB14ACCull);
   /* |x| = 2^100: exponent 1123, the window moves 46 bits further */
   CHECK_EQ(vget64(w, 4, 3), 0x3CB529FC2757D1E0ull);
   CHECK_EQ(vget64(w, 4, 4), 0x39B534DDC0DB6295ull);
}

/* ---- VOPC ------------------------------------------------------------------------------- */

/* V_CMP_{op}_{type}: D[lane] = S0 op S1 for active lanes, 0 for inactive ones.
 * Ordered f64 compares (EQ, LT, LE, GE, LG) are false with a NaN operand; NEQ (!=) and
 * NGE (!(>=)) are true. 16-bit compares read bits 15:0. */
TEST(vopc_forms)
{
   sim_wave *w = t_wave();
   /* lanes 0-3: a < b, a == b, a > b, NaN; -0 == +0 in lane 4. */
   static const double a[5] = {1.0, 2.5, -1.0, NAN, -0.0}, b[5] = {2.0, 2.5, -3.0, 1.0, 0.0};
   for (unsigned l = 0; l < 64; l++) {
      uint64_t x = d2u(a[l % 5]), y = d2u(b[l % 5]);
      w->v[0][l] = (uint32_t)x, w->v[1][l] = (uint32_t)(x >> 32);
      w->v[2][l] = (uint32_t)y, w->v[3][l] = (uint32_t)(y >> 32);
   }
   SIM_EXEC(w) = 0x1F;
   CHECK_EQ(t_run(w, "v_cmp_eq_f64 vcc, v[0:1], v[2:3]\n s_mov_b64 s[10:11], vcc\n"
                     "v_cmp_lt_f64 vcc, v[0:1], v[2:3]\n s_mov_b64 s[12:13], vcc\n"
                     "v_cmp_le_f64 vcc, v[0:1], v[2:3]\n s_mov_b64 s[14:15], vcc\n"
                     "v_cmp_ge_f64 vcc, v[0:1], v[2:3]\n s_mov_b64 s[16:17], vcc\n"
                     "v_cmp_lg_f64 vcc, v[0:1], v[2:3]\n s_mov_b64 s[18:19], vcc\n"
                     "v_cmp_neq_f64 vcc, v[0:1], v[2:3]\n s_mov_b64 s[20:21], vcc\n"
                     "v_cmp_nge_f64 vcc, v[0:1], v[2:3]\n s_mov_b64 s[22:23], vcc\n"
                     "v_cmp_le_f64_e64 s[24:25], v[0:1], v[2:3]\n"
                     "v_cmp_lg_f64_e64 s[26:27], -v[0:1], v[2:3]"),
            SIM_FAULT_NONE);
   CHECK_EQ(w->s64[5], 0x12);  /* eq: lanes 1, 4 */
   CHECK_EQ(w->s64[6], 0x01);  /* lt */
   CHECK_EQ(w->s64[7], 0x13);  /* le */
   CHECK_EQ(w->s64[8], 0x16);  /* ge */
   CHECK_EQ(w->s64[9], 0x05);  /* lg */
   CHECK_EQ(w->s64[10], 0x0D); /* neq: lanes 0, 2, 3 */
   CHECK_EQ(w->s64[11], 0x09); /* nge: lanes 0, 3 */
   CHECK_EQ(w->s64[12], 0x13);
   /* -a: -1 vs 2, -2.5 vs 2.5, 1 vs -3, NaN, +0 vs +0 */
   CHECK_EQ(w->s64[13], 0x07);

   /* f32 NGE, i32 GE/LE, u64 GE/LE, i64 LE. */
   w = t_wave();
   static const float fa[4] = {1.0f, 2.0f, 3.0f, NAN}, fb[4] = {2.0f, 2.0f, 1.0f, 0.0f};
   static const int32_t ia[4] = {-1, 5, 7, INT32_MIN}, ib[4] = {1, 5, -7, 0};
   static const uint64_t ua[4] = {1, 0x100000000ull, ~0ull, 5},
                         ub[4] = {0x100000000ull, 0x100000000ull, 1, 5};
   for (unsigned l = 0; l < 64; l++) {
      w->v[0][l] = t_u(fa[l & 3]), w->v[1][l] = t_u(fb[l & 3]);
      w->v[2][l] = (uint32_t)ia[l & 3], w->v[3][l] = (uint32_t)ib[l & 3];
      w->v[4][l] = (uint32_t)ua[l & 3], w->v[5][l] = (uint32_t)(ua[l & 3] >> 32);
      w->v[6][l] = (uint32_t)ub[l & 3], w->v[7][l] = (uint32_t)(ub[l & 3] >> 32);
   }
   SIM_EXEC(w) = 0xF;
   CHECK_EQ(t_run(w, "v_cmp_nge_f32 vcc, v0, v1\n s_mov_b64 s[10:11], vcc\n"
                     "v_cmp_ge_i32 vcc, v2, v3\n s_mov_b64 s[12:13], vcc\n"
                     "v_cmp_le_i32 vcc, v2, v3\n s_mov_b64 s[14:15], vcc\n"
                     "v_cmp_ge_u64 vcc, v[4:5], v[6:7]\n s_mov_b64 s[16:17], vcc\n"
                     "v_cmp_le_u64 vcc, v[4:5], v[6:7]\n s_mov_b64 s[18:19], vcc\n"
                     "v_cmp_le_i64 vcc, v[4:5], v[6:7]\n s_mov_b64 s[20:21], vcc"),
            SIM_FAULT_NONE);
   CHECK_EQ(w->s64[5], 0x9);  /* 1 < 2, NaN */
   CHECK_EQ(w->s64[6], 0x6);  /* 5 >= 5, 7 >= -7 */
   CHECK_EQ(w->s64[7], 0xB);  /* -1 <= 1, 5 <= 5, INT_MIN <= 0 */
   CHECK_EQ(w->s64[8], 0xE);
   CHECK_EQ(w->s64[9], 0xB);
   CHECK_EQ(w->s64[10], 0xF); /* ~0 is -1 as i64 */

   /* 16-bit: bits 31:16 ignored; e32 and e64. */
   w = t_wave();
   static const uint32_t ha[4] = {0xAAAA0001, 0x00008000, 0x12347FFF, 0x0000FFFF},
                         hb[4] = {0xBBBB0001, 0x00000001, 0x00008000, 0x55550000};
   for (unsigned l = 0; l < 64; l++)
      w->v[0][l] = ha[l & 3], w->v[1][l] = hb[l & 3];
   SIM_EXEC(w) = 0xF;
   CHECK_EQ(t_run(w, "v_cmp_eq_u16 vcc, v0, v1\n s_mov_b64 s[10:11], vcc\n"
                     "v_cmp_ne_u16 vcc, v0, v1\n s_mov_b64 s[12:13], vcc\n"
                     "v_cmp_lt_u16 vcc, v0, v1\n s_mov_b64 s[14:15], vcc\n"
                     "v_cmp_gt_u16 vcc, v0, v1\n s_mov_b64 s[16:17], vcc\n"
                     "v_cmp_gt_i16 vcc, v0, v1\n s_mov_b64 s[18:19], vcc\n"
                     "v_cmp_gt_i16_e64 s[20:21], v1, v0"),
            SIM_FAULT_NONE);
   CHECK_EQ(w->s64[5], 0x1);
   CHECK_EQ(w->s64[6], 0xE);
   CHECK_EQ(w->s64[7], 0x4); /* 0x7FFF < 0x8000 */
   CHECK_EQ(w->s64[8], 0xA); /* 0x8000 > 1, 0xFFFF > 0 */
   CHECK_EQ(w->s64[9], 0x4); /* signed: -32768 > 1 no, 32767 > -32768 yes, -1 > 0 no */
   CHECK_EQ(w->s64[10], 0xA);
}

/* ---- SDWA ------------------------------------------------------------------------------- */

/* [ISA] 6.x SDWA: sources are selected (BYTE_n / WORD_n, zero- or sign-extended), the
 * result is placed by dst_sel, other bits padded with 0 or preserved. */
TEST(sdwa_forms)
{
   sim_wave *w = t_wave();
   vset(w, 0, 0xFFFFFFFF);
   vset(w, 1, 0x80001234);
   vset(w, 2, 0x00000004);
   vset(w, 3, 0xAAAAAAAA);
   vset(w, 4, 0x3C00C000); /* f16: high 1.0, low -2.0 */
   vset(w, 5, 0x00C80000); /* byte 2 = 200 */
   vset(w, 6, 0x0000FFFF); /* word 0 = -1 as i16 */
   vset(w, 7, 0x00010000); /* word 1 = 1 */
   SIM_VCC(w) = 0;
   CHECK_EQ(t_run(w, "v_add_co_u32_sdwa v10, vcc, v0, v2 dst_sel:DWORD "
                     "dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:BYTE_0\n"
                     "v_sub_u32_sdwa v11, v2, v1 dst_sel:DWORD dst_unused:UNUSED_PAD "
                     "src0_sel:DWORD src1_sel:WORD_0\n"
                     "v_lshrrev_b32_sdwa v12, v2, v1 dst_sel:WORD_0 dst_unused:UNUSED_PAD "
                     "src0_sel:BYTE_0 src1_sel:WORD_1\n"
                     "v_ashrrev_i16_sdwa v3, v2, v1 dst_sel:WORD_1 "
                     "dst_unused:UNUSED_PRESERVE src0_sel:BYTE_0 src1_sel:WORD_1\n"
                     "v_lshrrev_b16_sdwa v13, v2, v1 dst_sel:WORD_0 dst_unused:UNUSED_PAD "
                     "src0_sel:DWORD src1_sel:WORD_1\n"
                     "v_cvt_f32_f16_sdwa v14, v4 dst_sel:DWORD dst_unused:UNUSED_PAD "
                     "src0_sel:WORD_1\n"
                     "v_cvt_f32_u32_sdwa v15, v5 dst_sel:DWORD dst_unused:UNUSED_PAD "
                     "src0_sel:BYTE_2\n"
                     "v_add_u32_sdwa v16, v2, v2 dst_sel:BYTE_3 dst_unused:UNUSED_PAD "
                     "src0_sel:BYTE_0 src1_sel:BYTE_0\n"
                     "s_mov_b64 s[10:11], vcc\n"
                     "v_cmp_lt_i16_sdwa vcc, v6, v7 src0_sel:WORD_0 src1_sel:WORD_1\n"
                     "s_mov_b64 s[12:13], vcc\n"
                     "v_cmp_lt_u16_sdwa s[14:15], v6, v7 src0_sel:WORD_0 src1_sel:WORD_1"),
            SIM_FAULT_NONE);
   CHECK_EQ(w->v[10][0], 3);           /* 0xFFFFFFFF + 4 */
   CHECK_EQ(w->s64[5], ~0ull);         /* carry out in every lane */
   CHECK_EQ(w->v[11][0], 4 - 0x1234u); /* v_sub_u32: S0 - S1 */
   CHECK_EQ(w->v[12][0], 0x0800);      /* 0x8000 >> 4, placed in word 0 */
   CHECK_EQ(w->v[3][0], 0xF800AAAAu);  /* arithmetic 0x8000 >> 4 into word 1 */
   CHECK_EQ(w->v[13][0], 0x0800);
   CHECK_EQ(w->v[14][0], t_u(1.0f));
   CHECK_EQ(w->v[15][0], t_u(200.0f));
   CHECK_EQ(w->v[16][0], 0x08000000u);
   CHECK_EQ(w->s64[6], ~0ull);         /* -1 < 1 signed */
   CHECK_EQ(w->s64[7], 0);             /* 0xFFFF < 1 unsigned: no */
}

/* ---- DS ----------------------------------------------------------------------------------- */

/* DS_READ_U16: D = zero-extended 16 bits at ADDR + OFFSET. DS_WRITE2ST64_B32: M[ADDR +
 * OFFSET0 * 256] = DATA0, M[ADDR + OFFSET1 * 256] = DATA1. DS_SWIZZLE_B32 (no LDS access):
 * offset[15] = 1: lane 4q+i reads lane 4q + offset[2i+1:2i]; else within 32-lane halves
 * lane i reads ((i & and) | or) ^ xor, and/or/xor = offset[4:0]/[9:5]/[14:10]. */
TEST(ds_forms)
{
   sim_wave *w = t_wave();
   for (unsigned l = 0; l < 64; l++) {
      w->v[0][l] = 4 * l;        /* address */
      w->v[1][l] = 0x1000 + l;   /* data0 */
      w->v[2][l] = 0x2000 + l;   /* data1 */
      w->v[3][l] = 100 + l;      /* swizzle source */
   }
   t_lds[2] = 0xCD, t_lds[3] = 0xAB; /* u16 at byte 2 */
   SIM_EXEC(w) = 0x7FFFFFFFFFFFFFFFull;
   CHECK_EQ(t_run(w, "ds_read_u16 v4, v0 offset:2\n"
                     "s_waitcnt lgkmcnt(0)\n"
                     "ds_write2st64_b32 v0, v1, v2 offset0:1 offset1:3\n"
                     "ds_swizzle_b32 v5, v3 offset:0x801B\n"   /* quad reverse */
                     "ds_swizzle_b32 v6, v3 offset:0x041F\n"   /* xor 1 */
                     "ds_swizzle_b32 v7, v3 offset:0x00A0\n"   /* and 0, or 5: lane 5 */
                     "s_waitcnt lgkmcnt(0)"),
            SIM_FAULT_NONE);
   CHECK_EQ(w->v[4][0], 0xABCD);
   uint32_t x;
   memcpy(&x, t_lds + 256 + 4 * 7, 4);
   CHECK_EQ(x, 0x1007);
   memcpy(&x, t_lds + 768 + 4 * 7, 4);
   CHECK_EQ(x, 0x2007);
   memcpy(&x, t_lds + 256 + 4 * 63, 4);
   CHECK_EQ(x, 0); /* inactive lane 63 */
   CHECK_EQ(w->v[5][0], 103);
   CHECK_EQ(w->v[5][6], 105);
   CHECK_EQ(w->v[5][61], 162); /* reads lane 62 */
   CHECK_EQ(w->v[6][0], 101);
   CHECK_EQ(w->v[6][33], 132);
   CHECK_EQ(w->v[7][20], 105);
   CHECK_EQ(w->v[7][40], 137); /* upper half: lane 32 + 5 */
}

/* ---- FLAT atomics ------------------------------------------------------------------------- */

/* FLAT_ATOMIC_AND/OR/UMAX: tmp = M[ADDR]; M[ADDR] = op(tmp, DATA); return tmp when GLC. */
TEST(flat_atomic_forms)
{
   uint32_t *buf = t_alloc(3 * 256, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   sim_wave *w = t_wave();
   for (unsigned l = 0; l < 64; l++) {
      buf[l] = 0xF0F0F0F0;
      buf[64 + l] = 0x0000FF00;
      buf[128 + l] = 100 + l;
      uint64_t a = (uint64_t)(uintptr_t)&buf[l];
      w->v[0][l] = (uint32_t)a, w->v[1][l] = (uint32_t)(a >> 32);
      a += 256;
      w->v[2][l] = (uint32_t)a, w->v[3][l] = (uint32_t)(a >> 32);
      a += 256;
      w->v[4][l] = (uint32_t)a, w->v[5][l] = (uint32_t)(a >> 32);
      w->v[6][l] = 0x3C3C3C3C;
      w->v[7][l] = 2 * (100 + l) - 150; /* > old for lanes above 50 */
   }
   SIM_EXEC(w) = 0x7FFFFFFFFFFFFFFFull;
   CHECK_EQ(t_run(w, "flat_atomic_and v[0:1], v6\n"
                     "flat_atomic_or v8, v[2:3], v6 glc\n"
                     "flat_atomic_umax v9, v[4:5], v7 glc\n"
                     "s_waitcnt vmcnt(0) lgkmcnt(0)"),
            SIM_FAULT_NONE);
   CHECK_EQ(buf[0], 0x30303030u);
   CHECK_EQ(buf[63], 0xF0F0F0F0u);
   CHECK_EQ(buf[64 + 1], 0x3C3CFF3Cu);
   CHECK_EQ(w->v[8][1], 0x0000FF00u);
   CHECK_EQ(buf[128 + 10], 110);
   CHECK_EQ(buf[128 + 60], 2 * 160 - 150);
   CHECK_EQ(w->v[9][60], 160);
   CHECK_EQ(buf[128 + 63], 163);
}

/* V_CMP_CLASS_F32: D = S0 is in a class of the mask S1 (bit 3 -normal, 4 -denormal,
 * 7 +denormal, 8 +normal). An f32 subnormal is a denormal, even though it would be a
 * normal double (the classification is of the 32-bit value). */
TEST(cmp_class_f32_denormal)
{
   sim_wave *w = t_wave();
   for (unsigned l = 0; l < 64; l++)
      w->v[0][l] = l & 1 ? 0x00800000u /* FLT_MIN */ : (l & 2 ? 0x80000001u : 0x00000001u);
   vset(w, 2, 0x108); /* normal */
   vset(w, 3, 0x090); /* denormal */
   CHECK_EQ(t_run(w, "v_cmp_class_f32 vcc, v0, v2\n s_mov_b64 s[10:11], vcc\n"
                     "v_cmp_class_f32 vcc, v0, v3\n s_mov_b64 s[12:13], vcc"),
            SIM_FAULT_NONE);
   CHECK_EQ(w->s[10], 0xAAAAAAAAu); /* odd lanes: FLT_MIN is normal */
   CHECK_EQ(w->s[11], 0xAAAAAAAAu);
   CHECK_EQ(w->s[12], 0x55555555u); /* even lanes: +-2^-149 is denormal */
   CHECK_EQ(w->s[13], 0x55555555u);
}

void
t_cover_tests(void)
{
   RUN(cmp_class_f32_denormal);
   RUN(salu_forms);
   RUN(sopk_forms);
   RUN(vop12_forms);
   RUN(vop3_int_forms);
   RUN(trig_preop);
   RUN(vopc_forms);
   RUN(sdwa_forms);
   RUN(ds_forms);
   RUN(flat_atomic_forms);
}
