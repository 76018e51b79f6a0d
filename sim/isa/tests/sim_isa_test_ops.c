/*
 * Instruction tests for the compute instructions of the ISA no corpus kernel emits
 * (issue 25): conversions with their own rounding (flr/rpi/off/norm/pk), the legacy DX9
 * float ops, cube map helpers, sums of absolute differences, LDS float and src2 atomics,
 * scalar atomics. Each expected value is worked out by hand from the instruction's
 * definition in AMD's "Vega" ISA guide, quoted above each group.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
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

static void
vset64(sim_wave *w, unsigned v, unsigned lane, uint64_t x)
{
   w->v[v][lane] = (uint32_t)x;
   w->v[v + 1][lane] = (uint32_t)(x >> 32);
}

/* ---- VOP1 conversions ------------------------------------------------------------------ */

/* V_CVT_FLR_I32_F32: D.i = (int)floor(S0.f); V_CVT_RPI_I32_F32: D.i = (int)floor(S0.f + 0.5)
 * (the f32 sum). Out-of-range values and infinities saturate, NaN saturates by its sign;
 * denormal inputs follow MODE. */
TEST(cvt_flr_rpi)
{
   static const uint32_t in[] = {
      0x40200000, /* 2.5 */       0xC0200000, /* -2.5 */     0x80000000, /* -0 */
      0x4F32D05E, /* 3e9 */       0xCF32D05E, /* -3e9 */     0x7FC00000, /* NaN */
      0xFFC00000, /* -NaN */      0x3EFFFFFF, /* 0.5 - 2^-25 */
      0x7F800000, /* inf */       0xFF800000, /* -inf */     0x80000001, /* -denormal */
   };
   static const uint32_t flr[] = {2, 0xFFFFFFFD, 0, 0x7FFFFFFF, 0x80000000, 0x7FFFFFFF,
                                  0x80000000, 0, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF};
   /* 0.5 - 2^-25 + 0.5 is a tie in f32, rounded to even: 1.0. */
   static const uint32_t rpi[] = {3, 0xFFFFFFFE, 0, 0x7FFFFFFF, 0x80000000, 0x7FFFFFFF,
                                  0x80000000, 1, 0x7FFFFFFF, 0x80000000, 0};
   sim_wave *w = t_wave();
   for (unsigned l = 0; l < 11; l++)
      w->v[1][l] = in[l];
   CHECK_EQ(t_run(w, "v_cvt_flr_i32_f32 v2, v1\n v_cvt_rpi_i32_f32 v3, v1\n"
                     "v_cvt_flr_i32_f32_e64 v4, -v1\n"
                     "v_cvt_flr_i32_f32_sdwa v5, v1 dst_sel:WORD_1 dst_unused:UNUSED_PAD"),
            SIM_FAULT_NONE);
   for (unsigned l = 0; l < 11; l++) {
      CHECK_EQ(w->v[2][l], flr[l]);
      CHECK_EQ(w->v[3][l], rpi[l]);
   }
   CHECK_EQ(w->v[4][0], 0xFFFFFFFD); /* floor(-2.5) */
   CHECK_EQ(w->v[4][1], 2);
   CHECK_EQ(w->v[5][0], 0x00020000); /* SDWA: the result's low word into bits 31:16 */
   CHECK_EQ(w->v[5][1], 0xFFFD0000);

   /* Denormals flushed on input (MODE.FP_DENORM f32 = 0): -denormal is -0, floor 0. */
   w = t_wave();
   w->denorm32 = 0;
   vset(w, 1, 0x80000001);
   CHECK_EQ(t_run(w, "v_cvt_flr_i32_f32 v2, v1"), SIM_FAULT_NONE);
   CHECK_EQ(w->v[2][0], 0);
}

/* V_CVT_OFF_F32_I4: D.f = S0.i[3:0] / 16 (0x8 -> -0.5, 0x7 -> 0.4375, 0xF -> -0.0625);
 * clamp applies to the result. V_SAT_PK_U8_I16: D.u[15:0] = {sat_u8(S0.i16[31:16]),
 * sat_u8(S0.i16[15:0])}, bits 31:16 zero. */
TEST(cvt_off_satpk)
{
   sim_wave *w = t_wave();
   static const uint32_t x[] = {0, 7, 8, 0xF, 0x12345671};
   static const uint32_t f[] = {0, 0x3EE00000, 0xBF000000, 0xBD800000, 0x3D800000};
   for (unsigned l = 0; l < 5; l++)
      w->v[1][l] = x[l];
   w->v[2][0] = 0x7FFF8000;
   w->v[2][1] = 0x00FF0100;
   w->v[2][2] = 0x0012FFFF;
   w->v[2][3] = 0x80000080;
   CHECK_EQ(t_run(w, "v_cvt_off_f32_i4 v3, v1\n v_cvt_off_f32_i4_e64 v4, v1 clamp\n"
                     "v_sat_pk_u8_i16 v5, v2"),
            SIM_FAULT_NONE);
   for (unsigned l = 0; l < 5; l++)
      CHECK_EQ(w->v[3][l], f[l]);
   CHECK_EQ(w->v[4][2], 0);          /* -0.5 clamped */
   CHECK_EQ(w->v[4][1], 0x3EE00000);
   CHECK_EQ(w->v[4][3], 0);
   CHECK_EQ(w->v[5][0], 0x0000FF00);
   CHECK_EQ(w->v[5][1], 0x0000FFFF);
   CHECK_EQ(w->v[5][2], 0x00001200);
   CHECK_EQ(w->v[5][3], 0x00000080);
}

/* V_SQRT_F64: D.d = sqrt(S0.d); V_EXP_LEGACY_F32 / V_LOG_LEGACY_F32: 2^S0 / log2(S0). */
TEST(sqrt_f64_legacy_trans)
{
   sim_wave *w = t_wave();
   vset64(w, 2, 0, 0x4000000000000000ull); /* 2.0 */
   vset64(w, 2, 1, 0xBFF0000000000000ull); /* -1.0 */
   vset64(w, 2, 2, 0x8000000000000000ull); /* -0.0 */
   vset64(w, 2, 3, 0x7FF0000000000000ull); /* inf */
   vset64(w, 2, 4, 0x0000000000000004ull); /* denormal 4 * 2^-1074: sqrt = 2^-536 */
   w->v[1][0] = t_u(3.0f);
   w->v[1][1] = t_u(8.0f);
   w->v[1][2] = 0;
   w->v[1][3] = 0xFF800000;
   CHECK_EQ(t_run(w, "v_sqrt_f64 v[4:5], v[2:3]\n v_exp_legacy_f32 v6, v1\n"
                     "v_log_legacy_f32 v7, v1"),
            SIM_FAULT_NONE);
   CHECK_EQ(vget64(w, 4, 0), 0x3FF6A09E667F3BCDull);
   CHECK((vget64(w, 4, 1) & 0x7FF0000000000000ull) == 0x7FF0000000000000ull &&
         (vget64(w, 4, 1) & 0xFFFFFFFFFFFFFull) != 0);
   CHECK_EQ(vget64(w, 4, 2), 0x8000000000000000ull);
   CHECK_EQ(vget64(w, 4, 3), 0x7FF0000000000000ull);
   CHECK_EQ(vget64(w, 4, 4), 0x1E70000000000000ull);
   CHECK_EQ(w->v[6][0], t_u(8.0f));
   CHECK_EQ(w->v[6][3], 0);           /* 2^-inf */
   CHECK_EQ(w->v[7][1], t_u(3.0f));
   CHECK_EQ(w->v[7][2], 0xFF800000); /* log2(0) = -inf */
}

/* V_CVT_NORM_I16_F16 / V_CVT_NORM_U16_F16: S0.f16 * 32767 (65535), rounded to nearest even,
 * clamped to [-32767, 32767] ([0, 65535]), NaN -> 0; bits 31:16 zero. */
TEST(cvt_norm16)
{
   sim_wave *w = t_wave();
   static const uint32_t h[] = {0x3800, 0xC000, 0x7E00, 0xB800, 0xFFFF3C00};
   static const uint32_t i16[] = {0x4000, 0x8001, 0, 0xC000, 0x7FFF};
   static const uint32_t u16[] = {0x8000, 0, 0, 0, 0xFFFF};
   for (unsigned l = 0; l < 5; l++)
      w->v[1][l] = h[l];
   CHECK_EQ(t_run(w, "v_cvt_norm_i16_f16 v2, v1\n v_cvt_norm_u16_f16 v3, v1"), SIM_FAULT_NONE);
   for (unsigned l = 0; l < 5; l++) {
      CHECK_EQ(w->v[2][l], i16[l]);
      CHECK_EQ(w->v[3][l], u16[l]);
   }
}

/* ---- Legacy multiply ------------------------------------------------------------------- */

/* V_MUL_LEGACY_F32: D.f = S0.f * S1.f, 0.0 * x = +0.0 for every x (inf, NaN, -0 included).
 * V_MAD_LEGACY_F32: D.f = S0.f * S1.f + S2.f with the same product. */
TEST(mul_mad_legacy)
{
   sim_wave *w = t_wave();
   static const uint32_t a[] = {0, 0x80000000, 0, 0x40000000, 0x7F800000, 0x7FC00000,
                                0x7F800000};
   static const uint32_t b[] = {0x7F800000, 0x40A00000, 0x7FC00000, 0x40400000,
                                0x40000000, 0x3F800000, 0};
   static const uint32_t c[] = {0x3F800000, 0x80000000, 0x80000000, 0x3F800000,
                                0, 0, 0x40A00000};
   for (unsigned l = 0; l < 7; l++) {
      w->v[1][l] = a[l];
      w->v[2][l] = b[l];
      w->v[3][l] = c[l];
   }
   CHECK_EQ(t_run(w, "v_mul_legacy_f32 v4, v1, v2\n v_mul_legacy_f32_e64 v5, -v1, v2\n"
                     "v_mad_legacy_f32 v6, v1, v2, v3\n v_mul_f32 v7, v1, v2"),
            SIM_FAULT_NONE);
   CHECK_EQ(w->v[4][0], 0);
   CHECK_EQ(w->v[4][1], 0); /* -0 * 5: +0, where IEEE gives -0 */
   CHECK_EQ(w->v[4][2], 0);
   CHECK_EQ(w->v[4][3], t_u(6.0f));
   CHECK_EQ(w->v[4][4], 0x7F800000);
   CHECK(isnan(t_f(w->v[4][5])));
   CHECK_EQ(w->v[4][6], 0);
   CHECK_EQ(w->v[5][0], 0);
   CHECK_EQ(w->v[5][3], t_u(-6.0f));
   CHECK_EQ(w->v[6][0], t_u(1.0f));
   CHECK_EQ(w->v[6][1], 0); /* +0 + -0 */
   CHECK_EQ(w->v[6][2], 0);
   CHECK_EQ(w->v[6][3], t_u(7.0f));
   CHECK_EQ(w->v[6][6], t_u(5.0f));
   CHECK(isnan(t_f(w->v[7][0]))); /* the IEEE multiply for contrast */
}

/* ---- Cube map ----------------------------------------------------------------------------
 * Major axis z if |S2| >= |S0| and |S2| >= |S1|, else y if |S1| >= |S0|, else x.
 * V_CUBEID_F32: z: S2 < 0 ? 5 : 4; y: S1 < 0 ? 3 : 2; x: S0 < 0 ? 1 : 0.
 * V_CUBESC_F32: z: S2 < 0 ? -S0 : S0; y: S0; x: S0 < 0 ? S2 : -S2.
 * V_CUBETC_F32: z: -S1; y: S1 < 0 ? -S2 : S2; x: -S1.
 * V_CUBEMA_F32: 2 * the major component. */
TEST(cube)
{
   static const float x[] = {1, 1, 1, -7, 7, 2, 3}, y[] = {2, 2, -5, 2, 2, 2, 3},
                      z[] = {3, -3, 3, 3, 3, 2, 1};
   static const float id[] = {4, 5, 3, 1, 0, 4, 2}, sc[] = {1, -1, 1, 3, -3, 2, 3},
                      tc[] = {-2, -2, -3, -2, -2, -2, 1}, ma[] = {6, -6, -10, -14, 14, 4, 6};
   sim_wave *w = t_wave();
   for (unsigned l = 0; l < 7; l++) {
      w->v[1][l] = t_u(x[l]);
      w->v[2][l] = t_u(y[l]);
      w->v[3][l] = t_u(z[l]);
   }
   CHECK_EQ(t_run(w, "v_cubeid_f32 v4, v1, v2, v3\n v_cubesc_f32 v5, v1, v2, v3\n"
                     "v_cubetc_f32 v6, v1, v2, v3\n v_cubema_f32 v7, v1, v2, v3\n"
                     "v_cubeid_f32 v8, v1, v2, -v3"),
            SIM_FAULT_NONE);
   for (unsigned l = 0; l < 7; l++) {
      CHECK_EQ(w->v[4][l], t_u(id[l]));
      CHECK_EQ(w->v[5][l], t_u(sc[l]));
      CHECK_EQ(w->v[6][l], t_u(tc[l]));
      CHECK_EQ(w->v[7][l], t_u(ma[l]));
   }
   CHECK_EQ(w->v[8][0], t_u(5.0f)); /* z negated */
}

/* ---- Sums of absolute differences --------------------------------------------------------
 * V_SAD_U8: D = sum |S0.u8[i] - S1.u8[i]| + S2.u; V_SAD_HI_U8: (sum << 16) + S2.u;
 * V_MSAD_U8: bytes whose S1 byte is 0 left out; V_SAD_U16: the two 16-bit halves;
 * V_SAD_U32: |S0.u - S1.u| + S2.u. Clamp saturates the 32-bit sum. */
TEST(sad)
{
   sim_wave *w = t_wave();
   w->v[1][0] = 0x01FF1080, w->v[2][0] = 0x02001090, w->v[3][0] = 100;
   w->v[1][1] = 0, w->v[2][1] = 0x80000001, w->v[3][1] = 0;
   w->v[1][2] = 0xFFFFFFFF, w->v[2][2] = 0, w->v[3][2] = 0xFFFFFF00;
   CHECK_EQ(t_run(w, "v_sad_u8 v4, v1, v2, v3\n v_sad_hi_u8 v5, v1, v2, v3\n"
                     "v_msad_u8 v6, v1, v2, v3\n v_sad_u16 v7, v1, v2, v3\n"
                     "v_sad_u32 v8, v1, v2, v3\n v_sad_u8 v9, v1, v2, v3 clamp\n"
                     "v_sad_u32 v10, v1, v2, v3 clamp"),
            SIM_FAULT_NONE);
   /* bytes 80/90, 10/10, FF/00, 01/02: 16 + 0 + 255 + 1 = 272 */
   CHECK_EQ(w->v[4][0], 372);
   CHECK_EQ(w->v[5][0], 0x01100064);
   CHECK_EQ(w->v[6][0], 117); /* byte 2 masked: 17 + 100 */
   CHECK_EQ(w->v[7][0], 117); /* |0x1FF - 0x200| + |0x1080 - 0x1090| + 100 */
   CHECK_EQ(w->v[8][0], 0x00010074);
   CHECK_EQ(w->v[8][1], 0x80000001); /* unsigned difference */
   CHECK_EQ(w->v[4][2], 0x2FC);      /* 1020 + 0xFFFFFF00 wraps */
   CHECK_EQ(w->v[9][2], 0xFFFFFFFF); /* clamped */
   CHECK_EQ(w->v[9][0], 372);
   CHECK_EQ(w->v[10][2], 0xFFFFFFFF);
}

/* V_QSAD_PK_U16_U8: D.u16[i] = SAD_U8(S0.u64[8i+31:8i], S1.u) + S2.u16[i], i = 0..3;
 * V_MQSAD_PK_U16_U8: the masked SAD; V_MQSAD_U32_U8: 32-bit fields of S2/D (VGPR quads). */
TEST(qsad)
{
   sim_wave *w = t_wave();
   vset64(w, 4, 0, 0x0706050403020100ull);
   vset64(w, 4, 1, 0x0706050403020100ull);
   w->v[6][0] = w->v[6][1] = 0x03020100;
   vset64(w, 8, 0, 0x0004000300020001ull);
   vset64(w, 8, 1, 0x00000000FFFF0000ull);
   w->v[10][0] = 100, w->v[11][0] = 200, w->v[12][0] = 300, w->v[13][0] = 0xFFFFFFFF;
   CHECK_EQ(t_run(w, "v_qsad_pk_u16_u8 v[14:15], v[4:5], v6, v[8:9]\n"
                     "v_mqsad_pk_u16_u8 v[16:17], v[4:5], v6, v[8:9]\n"
                     "v_mqsad_u32_u8 v[20:23], v[4:5], v6, v[10:13]\n"
                     "v_qsad_pk_u16_u8 v[18:19], v[4:5], v6, v[8:9] clamp"),
            SIM_FAULT_NONE);
   /* window i vs 00 01 02 03: SAD 4i; masked (byte 0 of S1 is 0): 3i */
   CHECK_EQ(vget64(w, 14, 0), 0x0010000B00060001ull);
   CHECK_EQ(vget64(w, 16, 0), 0x000D000900050001ull);
   CHECK_EQ(w->v[20][0], 100);
   CHECK_EQ(w->v[21][0], 203);
   CHECK_EQ(w->v[22][0], 306);
   CHECK_EQ(w->v[23][0], 8); /* 0xFFFFFFFF + 9 wraps */
   CHECK_EQ(vget64(w, 14, 1), 0x000C000800030000ull); /* 0xFFFF + 4 wraps in its field */
   CHECK_EQ(vget64(w, 18, 1), 0x000C0008FFFF0000ull); /* clamped */
}

/* V_LERP_U8: D.u8[i] = (S0.u8[i] + S1.u8[i] + S2.u8[i][0]) >> 1. */
TEST(lerp_u8)
{
   sim_wave *w = t_wave();
   vset(w, 1, 0x00FF0301);
   vset(w, 2, 0x01FF0402);
   vset(w, 3, 0x01010100);
   CHECK_EQ(t_run(w, "v_lerp_u8 v4, v1, v2, v3"), SIM_FAULT_NONE);
   CHECK_EQ(w->v[4][5], 0x01FF0401);
}

/* V_MAD_U32_U16: D.u = S0.u16 * S1.u16 + S2.u; V_MAD_I32_I16: D.i = S0.i16 * S1.i16 + S2.i
 * (op_sel picks the high halves; clamp saturates). */
TEST(mad_16_32)
{
   sim_wave *w = t_wave();
   vset(w, 1, 0xFFFF0003);
   vset(w, 2, 0x0002FFFB);
   vset(w, 3, 10);
   vset(w, 4, 0x00007FFF);
   vset(w, 5, 0x7FFFFFFF);
   vset(w, 6, 0xFFFFFFFF);
   CHECK_EQ(t_run(w, "v_mad_u32_u16 v10, v1, v2, v3\n"
                     "v_mad_u32_u16 v11, v1, v2, v3 op_sel:[1,1,0,0]\n"
                     "v_mad_u32_u16 v12, v1, v2, v6\n v_mad_u32_u16 v13, v1, v2, v6 clamp\n"
                     "v_mad_i32_i16 v14, v1, v2, v3\n"
                     "v_mad_i32_i16 v15, v1, v2, v3 op_sel:[1,1,0,0]\n"
                     "v_mad_i32_i16 v16, v4, v4, v5\n v_mad_i32_i16 v17, v4, v4, v5 clamp"),
            SIM_FAULT_NONE);
   CHECK_EQ(w->v[10][0], 3 * 0xFFFB + 10);
   CHECK_EQ(w->v[11][0], 0xFFFF * 2 + 10);
   CHECK_EQ(w->v[12][0], (uint32_t)(3 * 0xFFFB - 1));
   CHECK_EQ(w->v[13][0], 0xFFFFFFFF);
   CHECK_EQ(w->v[14][0], (uint32_t)-5);
   CHECK_EQ(w->v[15][0], 8);
   CHECK_EQ(w->v[16][0], 0xBFFF0000); /* 0x3FFF0001 + 0x7FFFFFFF wraps */
   CHECK_EQ(w->v[17][0], 0x7FFFFFFF);
}

/* ---- Packing conversions -------------------------------------------------------------------
 * V_CVT_PK_I16_I32: D = {sat_i16(S1.i), sat_i16(S0.i)}; V_CVT_PK_U16_U32: {min(S1, 0xFFFF),
 * min(S0, 0xFFFF)}; V_CVT_PKNORM_{I,U}16_F{32,16}: {norm16(S1), norm16(S0)} (x * 32767 or
 * 65535, round to nearest even, clamp, NaN -> 0). */
TEST(cvt_pk)
{
   sim_wave *w = t_wave();
   w->v[1][0] = 40000, w->v[2][0] = (uint32_t)-40000;
   w->v[1][1] = (uint32_t)-5, w->v[2][1] = 7;
   w->v[3][0] = 70000, w->v[4][0] = 5;
   w->v[5][0] = t_u(0.5f), w->v[6][0] = t_u(-2.0f);
   w->v[5][1] = 0x7FC00000, w->v[6][1] = t_u(1.0f);
   w->v[5][2] = t_u(-0.5f), w->v[6][2] = t_u(1e-5f);
   /* products just below a tie (1.4999999986 * ...): an f32 product would round up to 1.5 */
   w->v[5][3] = 0x38400180, w->v[6][3] = 0x37C000C0;
   w->v[7][0] = 0x3C003800, w->v[8][0] = 0xC000; /* f16: 1.0 : 0.5, -2.0 */
   CHECK_EQ(t_run(w, "v_cvt_pk_i16_i32 v10, v1, v2\n v_cvt_pk_u16_u32 v11, v3, v4\n"
                     "v_cvt_pknorm_i16_f32 v12, v5, v6\n v_cvt_pknorm_u16_f32 v13, v5, v6\n"
                     "v_cvt_pknorm_i16_f16 v14, v7, v8\n v_cvt_pknorm_u16_f16 v15, v7, v8\n"
                     "v_cvt_pknorm_i16_f16 v16, v7, v8 op_sel:[1,0,0]"),
            SIM_FAULT_NONE);
   CHECK_EQ(w->v[10][0], 0x80007FFF);
   CHECK_EQ(w->v[10][1], 0x0007FFFB);
   CHECK_EQ(w->v[11][0], 0x0005FFFF);
   CHECK_EQ(w->v[12][0], 0x80014000); /* 16383.5 rounds to even 16384; -2 clamps */
   CHECK_EQ(w->v[12][1], 0x7FFF0000);
   CHECK_EQ(w->v[12][2], 0x0000C000);
   CHECK_EQ(w->v[13][0], 0x00008000);
   CHECK_EQ(w->v[13][1], 0xFFFF0000);
   CHECK_EQ(w->v[13][2], 0x00010000); /* 0.65535 -> 1 */
   CHECK_EQ(w->v[12][3], 0x00010001);
   CHECK_EQ(w->v[13][3], 0x00010003);
   CHECK_EQ(w->v[14][0], 0x80014000);
   CHECK_EQ(w->v[15][0], 0x00008000);
   CHECK_EQ(w->v[16][0], 0x80017FFF);
}

/* V_CVT_PK_U8_F32: D = (S2 & ~(0xFF << 8 * S1[1:0])) | u8(S0.f) << 8 * S1[1:0], u8 rounding to
 * nearest even and clamping to [0, 255], NaN -> 0. V_CVT_PKACCUM_U8_F32 merges into D. */
TEST(cvt_pk_u8)
{
   sim_wave *w = t_wave();
   static const float f[] = {254.5f, 300.0f, -1.0f, NAN, 1.5f};
   static const uint32_t sel[] = {2, 0, 7, 1, 3};
   static const uint32_t want[] = {0x11FE3344, 0xAABBCCFF, 0x00BBCCDD, 0xAABB00DD, 0x02BBCCDD};
   for (unsigned l = 0; l < 5; l++) {
      w->v[1][l] = t_u(f[l]);
      w->v[2][l] = sel[l];
      w->v[3][l] = l ? 0xAABBCCDD : 0x11223344;
      w->v[4][l] = w->v[3][l];
   }
   CHECK_EQ(t_run(w, "v_cvt_pk_u8_f32 v5, v1, v2, v3\n v_cvt_pkaccum_u8_f32 v4, v1, v2"),
            SIM_FAULT_NONE);
   for (unsigned l = 0; l < 5; l++) {
      CHECK_EQ(w->v[5][l], want[l]);
      CHECK_EQ(w->v[4][l], want[l]);
   }
}

/* ---- LDS ---------------------------------------------------------------------------------- */

static void
lds_put32(uint32_t addr, uint32_t v)
{
   memcpy(t_lds + addr, &v, 4);
}

static void
lds_put64(uint32_t addr, uint64_t v)
{
   memcpy(t_lds + addr, &v, 8);
}

static uint64_t
lds_get64(uint32_t addr)
{
   uint64_t v;
   memcpy(&v, t_lds + addr, 8);
   return v;
}

/* DS_ADD_F32: MEM = MEM + DATA; DS_MIN/MAX_F32/F64: MEM = min/max(MEM, DATA) (a NaN operand
 * yields the other, -0 < +0; MODE's denormal flushing applies); DS_CMPST_F32/F64: MEM = (MEM == DATA) ? DATA2 : MEM, compared
 * as floats; DS_WRAP_RTN_B32: MEM = (MEM >= DATA) ? MEM - DATA : MEM + DATA2. _RTN forms
 * return the old value; the lanes of one instruction apply in lane order. */
TEST(ds_float_atomics)
{
   sim_wave *w = t_wave();
   SIM_EXEC(w) = 3;
   lds_put32(0, t_u(1.5f));
   lds_put32(8, t_u(5.0f));
   lds_put32(12, 0x80000000);
   lds_put32(16, 0);
   lds_put32(20, 0x7FC00000);
   lds_put32(24, 5);
   lds_put64(32, 0x4000000000000000ull);  /* 2.0 */
   lds_put64(40, 0xFFF0000000000000ull);  /* -inf */
   lds_put64(48, 0x3FF0000000000000ull);  /* 1.0 */
   w->v[1][0] = t_u(1.0f), w->v[1][1] = t_u(2.0f);
   w->v[2][0] = 0x7FC00000, w->v[2][1] = t_u(3.0f);
   w->v[3][0] = 0, w->v[3][1] = t_u(-1.0f);
   vset(w, 4, 0x80000000);
   w->v[5][0] = t_u(7.0f), w->v[5][1] = t_u(8.0f);
   vset(w, 6, 0x7FC00000);
   vset(w, 7, t_u(1.0f));
   vset64(w, 8, 0, 0x3FF0000000000000ull), vset64(w, 8, 1, 0x4008000000000000ull);
   vset64(w, 10, 0, 0x7FF8000000000000ull), vset64(w, 10, 1, 0x4010000000000000ull);
   for (unsigned l = 0; l < 2; l++) {
      vset64(w, 12, l, 0x3FF0000000000000ull);
      vset64(w, 14, l, 0x4022000000000000ull); /* 9.0 */
   }
   vset(w, 16, 3);
   vset(w, 17, 10);
   CHECK_EQ(t_run(w, "ds_add_rtn_f32 v20, v0, v1\n"
                     "ds_min_rtn_f32 v21, v0, v2 offset:8\n"
                     "ds_max_f32 v0, v3 offset:12\n"
                     "ds_cmpst_rtn_f32 v22, v0, v4, v5 offset:16\n"
                     "ds_cmpst_f32 v0, v6, v7 offset:20\n"
                     "ds_wrap_rtn_b32 v28, v0, v16, v17 offset:24\n"
                     "ds_min_rtn_f64 v[24:25], v0, v[8:9] offset:32\n"
                     "ds_max_f64 v0, v[10:11] offset:40\n"
                     "ds_cmpst_rtn_f64 v[26:27], v0, v[12:13], v[14:15] offset:48\n"
                     "ds_add_f32 v0, v1 offset:56\n"
                     "ds_max_rtn_f32 v29, v0, v2 offset:60\n"),
            SIM_FAULT_NONE);
   CHECK_EQ(w->v[20][0], t_u(1.5f));
   CHECK_EQ(w->v[20][1], t_u(2.5f));
   CHECK_EQ(t_lds32(0), t_u(4.5f));
   CHECK_EQ(w->v[21][0], t_u(5.0f));
   CHECK_EQ(w->v[21][1], t_u(5.0f));
   CHECK_EQ(t_lds32(8), t_u(3.0f));
   CHECK_EQ(t_lds32(12), 0);          /* max(-0, +0) = +0 */
   CHECK_EQ(w->v[22][0], 0);            /* +0 == -0: stored */
   CHECK_EQ(w->v[22][1], t_u(7.0f));
   CHECK_EQ(t_lds32(16), t_u(7.0f));
   CHECK_EQ(t_lds32(20), 0x7FC00000); /* NaN never equal */
   CHECK_EQ(w->v[28][0], 5);
   CHECK_EQ(w->v[28][1], 2);
   CHECK_EQ(t_lds32(24), 12);
   CHECK_EQ(vget64(w, 24, 0), 0x4000000000000000ull);
   CHECK_EQ(vget64(w, 24, 1), 0x3FF0000000000000ull);
   CHECK_EQ(lds_get64(32), 0x3FF0000000000000ull);
   CHECK_EQ(lds_get64(40), 0x4010000000000000ull);
   CHECK_EQ(vget64(w, 26, 0), 0x3FF0000000000000ull);
   CHECK_EQ(vget64(w, 26, 1), 0x4022000000000000ull);
   CHECK_EQ(lds_get64(48), 0x4022000000000000ull);
   CHECK_EQ(t_lds32(56), t_u(3.0f));
   CHECK_EQ(w->v[29][1], 0);            /* max(0, NaN) = 0 by lane 0 */
   CHECK_EQ(t_lds32(60), t_u(3.0f));

   /* MODE's denormal flushing applies: the smallest denormal twice is 2 * 2^-149 with
    * denormals, 0 with f32 denormals flushed. */
   for (unsigned flush = 0; flush < 2; flush++) {
      w = t_wave();
      w->denorm32 = flush ? 0 : 3;
      SIM_EXEC(w) = 1;
      lds_put32(0, 1);
      vset(w, 1, 1);
      CHECK_EQ(t_run(w, "ds_add_f32 v0, v1"), SIM_FAULT_NONE);
      CHECK_EQ(t_lds32(0), flush ? 0 : 2);
   }
}

/* DS_WRXCHG2(ST64)_RTN: two exchanges at ADDR + OFFSET0/1 * size (* 64 for st64), the old
 * values returned. DS_WRITE/READ_ADDTID_B32: dword at M0[15:0] + OFFSET + 4 * lane.
 * DS_CONDXCHG32_RTN_B64: at A0 = (ADDR + OFFSET) & ~7 and A0 + 4, each dword of DATA with
 * bit 31 set is written without it; the old dwords are returned. */
TEST(ds_exchanges)
{
   sim_wave *w = t_wave();
   for (uint32_t i = 0; i < 1024; i++)
      lds_put32(4 * i, 0x100 + i);
   SIM_EXEC(w) = 3;
   w->v[0][1] = 16;
   w->v[4][0] = 0xA0, w->v[4][1] = 0xA1;
   w->v[5][0] = 0xB0, w->v[5][1] = 0xB1;
   vset64(w, 10, 0, 0xC1000000C0ull);
   vset64(w, 12, 0, 0xD1000000D0ull);
   vset64(w, 10, 1, 0xC3000000C2ull);
   vset64(w, 12, 1, 0xD3000000D2ull);
   w->v[14][0] = 0xE0, w->v[14][1] = 0xE1;
   vset64(w, 18, 0, 0x0000000780000005ull);
   vset64(w, 18, 1, 0xFFFFFFFF12345678ull);
   w->s[124] = 0x10040; /* M0[15:0] = 64 */
   CHECK_EQ(t_run(w, "ds_wrxchg2_rtn_b32 v[2:3], v0, v4, v5 offset0:1 offset1:2\n"
                     "ds_wrxchg2st64_rtn_b64 v[6:9], v0, v[10:11], v[12:13] offset0:1 offset1:2\n"
                     "ds_write_addtid_b32 v14 offset:2048\n"
                     "ds_read_addtid_b32 v15 offset:2052\n"
                     "ds_condxchg32_rtn_b64 v[16:17], v0, v[18:19] offset:36\n"),
            SIM_FAULT_NONE);
   CHECK_EQ(w->v[2][0], 0x101);
   CHECK_EQ(w->v[3][0], 0x102);
   CHECK_EQ(w->v[2][1], 0x105);
   CHECK_EQ(w->v[3][1], 0x106);
   CHECK_EQ(t_lds32(4), 0xA0);
   CHECK_EQ(t_lds32(8), 0xB0);
   CHECK_EQ(t_lds32(20), 0xA1);
   CHECK_EQ(t_lds32(24), 0xB1);
   CHECK_EQ(vget64(w, 6, 0), 0x0000018100000180ull); /* dwords 128, 129 (byte 512) */
   CHECK_EQ(vget64(w, 8, 0), 0x0000020100000200ull); /* dwords 256, 257 (byte 1024) */
   CHECK_EQ(vget64(w, 6, 1), 0x0000018500000184ull);
   CHECK_EQ(lds_get64(512), 0xC1000000C0ull);
   CHECK_EQ(lds_get64(1024), 0xD1000000D0ull);
   CHECK_EQ(lds_get64(1040), 0xD3000000D2ull);
   CHECK_EQ(t_lds32(2112), 0xE0);
   CHECK_EQ(t_lds32(2116), 0xE1);
   CHECK_EQ(w->v[15][0], 0xE1);
   CHECK_EQ(w->v[15][1], 0x100 + 530);
   CHECK_EQ(vget64(w, 16, 0), 0x0000010900000108ull);
   CHECK_EQ(t_lds32(32), 5);     /* bit 31 set: written without it */
   CHECK_EQ(t_lds32(36), 0x109); /* bit 63 clear: kept */
   CHECK_EQ(vget64(w, 16, 1), 0x0000010D0000010Cull);
   CHECK_EQ(t_lds32(48), 0x10C);
   CHECK_EQ(t_lds32(52), 0x7FFFFFFF);
}

/* DS_APPEND / DS_CONSUME: RETURN_DATA = MEM[M0[15:0] + OFFSET] in every active lane, then
 * MEM += (-=) popcount(EXEC); nothing with EXEC = 0. The GDS forms of DS instructions fault
 * (no GDS). */
TEST(ds_append_consume)
{
   sim_wave *w = t_wave();
   lds_put32(64, 10);
   vset(w, 1, 0xDEAD);
   vset(w, 3, 0xBEEF);
   SIM_EXEC(w) = 0xF0F;
   CHECK_EQ(t_run(w, "s_mov_b32 m0, 60\n ds_append v1 offset:4\n s_mov_b64 exec, 3\n"
                     "ds_consume v2 offset:4\n s_mov_b64 exec, 0\n ds_append v3 offset:4\n"
                     "s_mov_b64 exec, 1"),
            SIM_FAULT_NONE);
   CHECK_EQ(w->v[1][0], 10);
   CHECK_EQ(w->v[1][11], 10);
   CHECK_EQ(w->v[1][4], 0xDEAD);
   CHECK_EQ(w->v[2][1], 18);
   CHECK_EQ(w->v[3][0], 0xBEEF);
   CHECK_EQ(t_lds32(64), 16);
   w = t_wave();
   CHECK_EQ(t_run(w, "ds_append v1 gds"), SIM_FAULT_ILLEGAL_INSTRUCTION);
   w = t_wave();
   CHECK_EQ(t_run(w, "ds_write_b32 v0, v1 gds"), SIM_FAULT_ILLEGAL_INSTRUCTION);
   w = t_wave();
   CHECK_EQ(t_run(w, "ds_add_rtn_u32 v2, v0, v1 gds"), SIM_FAULT_ILLEGAL_INSTRUCTION);
}

/* DS_*_SRC2_*: MEM[A] = op(MEM[A], MEM[B]) with A = ADDR, B = A + 4 * sext16({OFFSET[14],
 * OFFSET[14:0]}) when OFFSET[15] = 0, else A = ADDR & 0x1FFFC, B = A + 4 * sext16({ADDR[31],
 * ADDR[31:17]}); 64-bit forms 8-byte aligned. */
TEST(ds_src2)
{
   sim_wave *w = t_wave();
   SIM_EXEC(w) = 1;
   lds_put32(32, 5), lds_put32(48, 7);
   lds_put32(64, 100), lds_put32(76, 30);
   lds_put32(80, 0xFFFFFFFF), lds_put32(84, 1);
   lds_put64(128, 1), lds_put64(136, 0x2222222211111111ull);
   lds_put32(160, t_u(2.0f)), lds_put32(164, t_u(-1.0f));
   w->v[0][0] = 32;
   w->v[1][0] = (3u << 17) | 0x40;
   w->v[2][0] = 84;
   w->v[3][0] = 128;
   w->v[4][0] = 160;
   w->v[5][0] = 132;
   CHECK_EQ(t_run(w, "ds_add_src2_u32 v0 offset:4\n"
                     "ds_sub_src2_u32 v1 offset:0x8000\n"
                     "ds_max_src2_i32 v2 offset:0x7fff\n"
                     "ds_read_b32 v10, v2\n"
                     "ds_max_src2_u32 v2 offset:0x7fff\n"
                     "ds_write_src2_b64 v3 offset:2\n"
                     "ds_add_src2_u64 v5 offset:3\n"
                     "ds_min_src2_f32 v4 offset:1\n"
                     "ds_read_b32 v11, v4\n"
                     "ds_add_src2_f32 v4 offset:1\n"),
            SIM_FAULT_NONE);
   CHECK_EQ(t_lds32(32), 12);
   CHECK_EQ(t_lds32(64), 70);
   CHECK_EQ(w->v[10][0], 1); /* max_i(1, -1) */
   CHECK_EQ(t_lds32(84), 0xFFFFFFFF);
   /* then A = 132 & ~7 = 128, B = (128 + 12) & ~7 = 136: doubled */
   CHECK_EQ(lds_get64(128), 0x4444444422222222ull);
   CHECK_EQ(w->v[11][0], t_u(-1.0f));
   CHECK_EQ(t_lds32(160), t_u(-2.0f));
}

/* ---- Scalar atomics -------------------------------------------------------------------------
 * S_ATOMIC_<op> SDATA, SBASE, OFFSET: tmp = MEM[SBASE + OFFSET]; MEM = op(tmp, SDATA); SDATA =
 * tmp with GLC. CMPSWAP: SDATA = {src, cmp}. S_BUFFER_ATOMIC_*: base from the V# in SBASE. */
TEST(smem_atomics)
{
   uint32_t *buf = t_alloc(256, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   uint64_t va = (uint64_t)(uintptr_t)buf, vb = va + 64;
   buf[4] = 100, buf[5] = 50, buf[6] = 9;
   buf[8] = 0, buf[9] = 1; /* 0x100000000 at byte 0x20 */
   buf[16] = 3, buf[17] = 0xF0;
   sim_wave *w = t_wave();
   w->s[2] = (uint32_t)va, w->s[3] = (uint32_t)(va >> 32);
   w->s[4] = (uint32_t)vb, w->s[5] = (uint32_t)(vb >> 32) & 0xFFFF;
   w->s[6] = 256, w->s[7] = 0;
   w->s[10] = 5, w->s[11] = 7;
   w->s[12] = 0xAA, w->s[13] = 9;
   w->s[14] = 0xBB, w->s[15] = 1;
   w->s[16] = 0xFFFFFFFF, w->s[17] = 0;
   w->s[20] = 0x22222222, w->s[21] = 0x11111111, w->s[22] = 0, w->s[23] = 1;
   w->s[24] = 3, w->s[25] = 0xFF, w->s[26] = 4;
   CHECK_EQ(t_run(w, "s_atomic_add s10, s[2:3], 0x10 glc\n"
                     "s_atomic_sub s11, s[2:3], 0x14\n"
                     "s_atomic_cmpswap s[12:13], s[2:3], 0x18 glc\n"
                     "s_atomic_cmpswap s[14:15], s[2:3], 0x18 glc\n"
                     "s_atomic_umax_x2 s[16:17], s[2:3], 0x20 glc\n"
                     "s_atomic_cmpswap_x2 s[20:23], s[2:3], 0x20 glc\n"
                     "s_buffer_atomic_inc s24, s[4:7], 0x0 glc\n"
                     "s_buffer_atomic_xor s25, s[4:7], s26 glc\n"
                     "s_dcache_discard s[2:3], s26\n s_atc_probe 7, s[2:3], 0x0\n"
                     "s_waitcnt lgkmcnt(0)"),
            SIM_FAULT_NONE);
   CHECK_EQ(buf[4], 105);
   CHECK_EQ(w->s[10], 100);
   CHECK_EQ(buf[5], 43);
   CHECK_EQ(w->s[11], 7); /* no GLC: SDATA kept */
   CHECK_EQ(buf[6], 0xAA);
   CHECK_EQ(w->s[12], 9);
   CHECK_EQ(w->s[13], 9);
   CHECK_EQ(w->s[14], 0xAA); /* compare failed: old value returned, memory kept */
   CHECK_EQ(w->s[16], 0);
   CHECK_EQ(w->s[17], 1);
   CHECK_EQ(buf[8], 0x22222222);
   CHECK_EQ(buf[9], 0x11111111);
   CHECK_EQ(w->s[20], 0);
   CHECK_EQ(w->s[21], 1);
   CHECK_EQ(buf[16], 0); /* inc wraps at SDATA: 3 >= 3 -> 0 */
   CHECK_EQ(w->s[24], 3);
   CHECK_EQ(buf[17], 0x0F);
   CHECK_EQ(w->s[25], 0xF0);
}

/* ---- Buffer formats ---------------------------------------------------------------------
 * BUFFER_LOAD_FORMAT_D16_HI_X: VDATA[31:16] = x as 16 bits (f16 for float formats),
 * VDATA[15:0] kept; BUFFER_STORE_FORMAT_D16_HI_X stores x from VDATA[31:16]. TBUFFER_*: the
 * MUBUF format access with DATA_FORMAT / NUM_FORMAT from the instruction, not the V#. */
#define DST_SEL_XYZW (4u | 5u << 3 | 6u << 6 | 7u << 9)
TEST(buffer_d16_hi_tbuffer)
{
   uint8_t *buf = t_alloc(4096, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   uint64_t a = (uint64_t)(uintptr_t)buf;
   for (unsigned l = 0; l < 64; l++) {
      uint16_t one = 0x3C00;
      memcpy(buf + 2 * l, &one, 2);
   }
   sim_wave *w = t_wave();
   w->s[0] = (uint32_t)a;
   w->s[1] = (uint32_t)(a >> 32) | 4u << 16;
   w->s[2] = 4096;
   w->s[3] = DST_SEL_XYZW | 7u << 12 | 2u << 15; /* 16, FLOAT */
   w->s[4] = (uint32_t)a;
   w->s[5] = (uint32_t)(a >> 32) | 4u << 16;
   w->s[6] = 4096;
   w->s[7] = DST_SEL_XYZW | 4u << 12 | 10u << 15; /* 8_8_8_8 UINT: overridden by MTBUF */
   for (unsigned l = 0; l < 64; l++) {
      w->v[4][l] = 2 * l;
      w->v[5][l] = 4 * l;
   }
   vset(w, 1, 0x1234ABCD);
   vset(w, 2, 0x4000FFFF);
   vset(w, 6, t_u(1.5f));
   vset(w, 7, t_u(-2.0f));
   CHECK_EQ(t_run(w, "buffer_load_format_d16_hi_x v1, v4, s[0:3], 0 offen\n"
                     "buffer_store_format_d16_hi_x v2, v4, s[0:3], 0 offen offset:256\n"
                     "tbuffer_store_format_xy v[6:7], v5, s[4:7], 0 "
                     "format:[BUF_DATA_FORMAT_16_16,BUF_NUM_FORMAT_FLOAT] offen offset:512\n"
                     "s_waitcnt vmcnt(0)\n"
                     "tbuffer_load_format_xy v[8:9], v5, s[4:7], 0 "
                     "format:[BUF_DATA_FORMAT_16_16,BUF_NUM_FORMAT_FLOAT] offen offset:512\n"
                     "tbuffer_load_format_d16_x v10, v5, s[4:7], 0 "
                     "format:[BUF_DATA_FORMAT_16_16,BUF_NUM_FORMAT_FLOAT] offen offset:512\n"
                     "tbuffer_load_format_x v11, v5, s[4:7], 0 "
                     "format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_UINT] offen offset:512\n"
                     "s_waitcnt vmcnt(0)"),
            SIM_FAULT_NONE);
   CHECK_EQ(w->v[1][9], 0x3C00ABCD);
   uint16_t h;
   memcpy(&h, buf + 256 + 2 * 9, 2);
   CHECK_EQ(h, 0x4000);
   uint32_t d;
   memcpy(&d, buf + 512 + 4 * 9, 4);
   CHECK_EQ(d, 0xC0003E00);
   CHECK_EQ(w->v[8][9], t_u(1.5f));
   CHECK_EQ(w->v[9][9], t_u(-2.0f));
   CHECK_EQ(w->v[10][9], 0x3E00);
   CHECK_EQ(w->v[11][9], 0xC0003E00);
}

/* ---- Branch stack, exception return --------------------------------------------------------
 * S_CBRANCH_G_FORK / I_FORK: pass = mask & EXEC, fail = ~mask & EXEC; all pass: jump; all
 * fail: fall through; else the side with fewer lanes runs first and {PC, EXEC} of the other
 * is pushed to SGPR[CSP * 4], CSP++. S_CBRANCH_JOIN S0: CSP == S0 ? fall through : pop. */
TEST(cbranch_fork_join_rfe)
{
   sim_wave *w = t_wave();
   SIM_EXEC(w) = 0xF;
   w->s[10] = 0x1, w->s[11] = 0;
   w->s[14] = 0x7, w->s[15] = 0;
   w->s[16] = 0xFF, w->s[17] = 0;
   CHECK_EQ(t_run(w, "s_getreg_b32 s20, hwreg(HW_REG_MODE, 29, 3)\n"
                     "s_cbranch_i_fork s[10:11], taken\n"
                     "v_mov_b32 v1, 2\n"
                     "s_getreg_b32 s22, hwreg(HW_REG_MODE, 29, 3)\n"
                     "s_branch join\n"
                     "taken:\n"
                     "v_mov_b32 v1, 1\n"
                     "s_getreg_b32 s21, hwreg(HW_REG_MODE, 29, 3)\n"
                     "s_mov_b64 s[26:27], exec\n"
                     "join:\n"
                     "s_cbranch_join s20\n"
                     "v_mov_b32 v2, 5\n"
                     "s_mov_b64 exec, 15\n"
                     "s_getpc_b64 s[12:13]\n"
                     "gpc:\n"
                     "s_add_u32 s12, s12, gtarget-gpc\n"
                     "s_addc_u32 s13, s13, 0\n"
                     "s_cbranch_g_fork s[14:15], s[12:13]\n"
                     "v_mov_b32 v3, 3\n"
                     "s_branch gjoin\n"
                     "gtarget:\n"
                     "v_mov_b32 v3, 4\n"
                     "gjoin:\n"
                     "s_cbranch_join s20\n"
                     "s_mov_b64 exec, 15\n"
                     "s_cbranch_i_fork s[16:17], all\n"
                     "v_mov_b32 v4, 9\n"
                     "all:\n"
                     "s_getreg_b32 s23, hwreg(HW_REG_MODE, 29, 3)\n"
                     "s_getpc_b64 s[24:25]\n"
                     "rpc:\n"
                     "s_add_u32 s24, s24, rdone-rpc\n"
                     "s_addc_u32 s25, s25, 0\n"
                     "s_rfe_b64 s[24:25]\n"
                     "v_mov_b32 v5, 1\n"
                     "rdone:\n"
                     "v_mov_b32 v6, 1"),
            SIM_FAULT_NONE);
   /* i_fork: 1 lane passes, 3 fail: the taken side (EXEC = 1) runs first, CSP 1 */
   CHECK_EQ(w->s[20], 0);
   CHECK_EQ(w->s[21], 1);
   CHECK_EQ(w->s[26], 1);
   CHECK_EQ(w->s[22], 0); /* the fall-through side runs after the pop */
   CHECK_EQ(w->v[1][0], 1);
   CHECK_EQ(w->v[1][1], 2);
   CHECK_EQ(w->v[1][3], 2);
   CHECK_EQ(w->v[2][0], 0); /* EXEC after the join: the last side's lanes */
   CHECK_EQ(w->v[2][1], 5);
   /* g_fork: 3 lanes pass, 1 fails: the fall-through (lane 3) runs first */
   CHECK_EQ(w->v[3][3], 3);
   CHECK_EQ(w->v[3][0], 4);
   CHECK_EQ(w->v[3][2], 4);
   /* every lane passes: a plain jump, nothing pushed */
   CHECK_EQ(w->v[4][0], 0);
   CHECK_EQ(w->s[23], 0);
   /* s_rfe_b64 jumps to S0 */
   CHECK_EQ(w->v[5][0], 0);
   CHECK_EQ(w->v[6][0], 1);
}

/* ---- Graphics-only instructions --------------------------------------------------------------
 * Every instruction of sim_isa_graphics_only.def, in each of its encodings, stops the wave
 * with an illegal-instruction fault at that instruction; the rest of the program does not
 * run. */
TEST(graphics_only_faults)
{
   static const struct {
      const char *name, *asm0, *asm1;
   } g[] = {
#define SIM_GRAPHICS_ONLY(m, example, other, reason) {#m, example, other},
#include "sim_isa_graphics_only.def"
   };
   for (size_t i = 0; i < sizeof(g) / sizeof(g[0]); i++) {
      for (unsigned k = 0; k < 2; k++) {
         const char *a = k ? g[i].asm1 : g[i].asm0;
         if (!*a)
            continue;
         char src[256];
         snprintf(src, sizeof(src), "s_mov_b32 s0, 1\n%s\ns_mov_b32 s1, 1", a);
         sim_wave *w = t_wave();
         t_current = g[i].name;
         CHECK_EQ(t_run(w, src), SIM_FAULT_ILLEGAL_INSTRUCTION);
         CHECK_EQ(w->s[0], 1);
         CHECK_EQ(w->s[1], 0);
      }
   }
   t_current = "graphics_only_faults";
}

void
t_ops_tests(void)
{
   RUN(cvt_flr_rpi);
   RUN(cvt_off_satpk);
   RUN(sqrt_f64_legacy_trans);
   RUN(cvt_norm16);
   RUN(mul_mad_legacy);
   RUN(cube);
   RUN(sad);
   RUN(qsad);
   RUN(lerp_u8);
   RUN(mad_16_32);
   RUN(cvt_pk);
   RUN(cvt_pk_u8);
   RUN(ds_float_atomics);
   RUN(ds_exchanges);
   RUN(ds_append_consume);
   RUN(ds_src2);
   RUN(smem_atomics);
   RUN(buffer_d16_hi_tbuffer);
   RUN(cbranch_fork_join_rfe);
   RUN(graphics_only_faults);
}
