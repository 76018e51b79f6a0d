/*
 * The integer operations the translator lowers in sim_xlate_int.c, each against its ISA
 * description computed here, over lanes of varied bits (shifts and widths past 31, zero
 * widths, negative values) with part of EXEC off: what the interpreter computes, and under
 * HSACL_SIM_XLATE=check (sim_xlate_check_unit) what the translated blocks compute too.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim_isa_test.h"
#include "sim_xlate_priv.h"

typedef uint32_t (*int_ref)(uint32_t a, uint32_t b, uint32_t c, unsigned lane);

static uint32_t
sx(uint32_t v, unsigned bits)
{
   return bits >= 32 ? v : (uint32_t)((int32_t)(v << (32 - bits)) >> (32 - bits));
}
static uint32_t
umin(uint32_t a, uint32_t b)
{
   return a < b ? a : b;
}
static uint32_t
umax(uint32_t a, uint32_t b)
{
   return a > b ? a : b;
}
static int32_t
imin(int32_t a, int32_t b)
{
   return a < b ? a : b;
}
static int32_t
imax(int32_t a, int32_t b)
{
   return a > b ? a : b;
}

static uint32_t r_bfi(uint32_t a, uint32_t b, uint32_t c, unsigned l) { return (a & b) | (~a & c); }
static uint32_t
r_bfe_u(uint32_t a, uint32_t b, uint32_t c, unsigned l)
{
   unsigned w = c & 31;
   return w ? (a >> (b & 31)) & ((1u << w) - 1) : 0;
}
static uint32_t
r_bfe_i(uint32_t a, uint32_t b, uint32_t c, unsigned l)
{
   unsigned w = c & 31;
   return w ? sx((a >> (b & 31)) & ((1u << w) - 1), w) : 0;
}
static uint32_t r_bfm(uint32_t a, uint32_t b, uint32_t c, unsigned l) { return ((1u << (a & 31)) - 1) << (b & 31); }
static uint32_t
r_alignbit(uint32_t a, uint32_t b, uint32_t c, unsigned l)
{
   return (uint32_t)((((uint64_t)a << 32) | b) >> (c & 31));
}
static uint32_t
r_alignbyte(uint32_t a, uint32_t b, uint32_t c, unsigned l)
{
   return (uint32_t)((((uint64_t)a << 32) | b) >> (8 * (c & 3)));
}
static uint32_t r_bcnt(uint32_t a, uint32_t b, uint32_t c, unsigned l) { return (uint32_t)__builtin_popcount(a) + b; }
static uint32_t r_not(uint32_t a, uint32_t b, uint32_t c, unsigned l) { return ~a; }
static uint32_t r_or3(uint32_t a, uint32_t b, uint32_t c, unsigned l) { return a | b | c; }
static uint32_t r_xor3(uint32_t a, uint32_t b, uint32_t c, unsigned l) { return a ^ b ^ c; }
static uint32_t r_xad(uint32_t a, uint32_t b, uint32_t c, unsigned l) { return (a ^ b) + c; }
static uint32_t r_mulhi_u(uint32_t a, uint32_t b, uint32_t c, unsigned l) { return (uint32_t)(((uint64_t)a * b) >> 32); }
static uint32_t
r_mulhi_i(uint32_t a, uint32_t b, uint32_t c, unsigned l)
{
   return (uint32_t)((uint64_t)((int64_t)(int32_t)a * (int32_t)b) >> 32);
}
static uint32_t
r_mulhi_u24(uint32_t a, uint32_t b, uint32_t c, unsigned l)
{
   return (uint32_t)(((uint64_t)(a & 0xFFFFFF) * (b & 0xFFFFFF)) >> 32);
}
static uint32_t
r_mulhi_i24(uint32_t a, uint32_t b, uint32_t c, unsigned l)
{
   return (uint32_t)((uint64_t)((int64_t)(int32_t)sx(a, 24) * (int32_t)sx(b, 24)) >> 32);
}
static uint32_t r_min3_u(uint32_t a, uint32_t b, uint32_t c, unsigned l) { return umin(umin(a, b), c); }
static uint32_t r_max3_u(uint32_t a, uint32_t b, uint32_t c, unsigned l) { return umax(umax(a, b), c); }
static uint32_t
r_med3_u(uint32_t a, uint32_t b, uint32_t c, unsigned l)
{
   return a + b + c - umin(umin(a, b), c) - umax(umax(a, b), c); /* wraps back exactly */
}
static uint32_t r_min3_i(uint32_t a, uint32_t b, uint32_t c, unsigned l) { return (uint32_t)imin(imin((int32_t)a, (int32_t)b), (int32_t)c); }
static uint32_t r_max3_i(uint32_t a, uint32_t b, uint32_t c, unsigned l) { return (uint32_t)imax(imax((int32_t)a, (int32_t)b), (int32_t)c); }
static uint32_t
r_med3_i(uint32_t a, uint32_t b, uint32_t c, unsigned l)
{
   return a + b + c - r_min3_i(a, b, c, l) - r_max3_i(a, b, c, l);
}
static uint32_t
r_mbcnt_lo(uint32_t a, uint32_t b, uint32_t c, unsigned l)
{
   uint64_t below = (1ull << l) - 1;
   return (uint32_t)__builtin_popcount(a & (uint32_t)below) + b;
}
static uint32_t
r_mbcnt_hi(uint32_t a, uint32_t b, uint32_t c, unsigned l)
{
   uint64_t below = l ? (~0ull >> (64 - l)) : 0;
   return (uint32_t)__builtin_popcount(a & (uint32_t)(below >> 32)) + b;
}
/* 16-bit: the low halves, the result's high half zero. */
static uint32_t r_add16(uint32_t a, uint32_t b, uint32_t c, unsigned l) { return (a + b) & 0xFFFF; }
static uint32_t r_sub16(uint32_t a, uint32_t b, uint32_t c, unsigned l) { return (a - b) & 0xFFFF; }
static uint32_t r_subrev16(uint32_t a, uint32_t b, uint32_t c, unsigned l) { return (b - a) & 0xFFFF; }
static uint32_t r_mul16(uint32_t a, uint32_t b, uint32_t c, unsigned l) { return (a * b) & 0xFFFF; }
static uint32_t r_shl16(uint32_t a, uint32_t b, uint32_t c, unsigned l) { return ((b & 0xFFFF) << (a & 15)) & 0xFFFF; }
static uint32_t r_lshr16(uint32_t a, uint32_t b, uint32_t c, unsigned l) { return (b & 0xFFFF) >> (a & 15); }
static uint32_t r_ashr16(uint32_t a, uint32_t b, uint32_t c, unsigned l) { return (uint32_t)((int32_t)sx(b & 0xFFFF, 16) >> (a & 15)) & 0xFFFF; }
static uint32_t r_maxu16(uint32_t a, uint32_t b, uint32_t c, unsigned l) { return umax(a & 0xFFFF, b & 0xFFFF); }
static uint32_t r_minu16(uint32_t a, uint32_t b, uint32_t c, unsigned l) { return umin(a & 0xFFFF, b & 0xFFFF); }
static uint32_t r_maxi16(uint32_t a, uint32_t b, uint32_t c, unsigned l) { return (uint32_t)imax((int32_t)sx(a & 0xFFFF, 16), (int32_t)sx(b & 0xFFFF, 16)) & 0xFFFF; }
static uint32_t r_mini16(uint32_t a, uint32_t b, uint32_t c, unsigned l) { return (uint32_t)imin((int32_t)sx(a & 0xFFFF, 16), (int32_t)sx(b & 0xFFFF, 16)) & 0xFFFF; }

/* One instruction: `text` with %u for the destination VGPR (sources v0, v1, v2 = a, b, c;
 * s0 = lane 0's a for a uniform source, 7 the constant c), its reference. */
typedef struct {
   const char *text;
   int_ref ref;
   int uniform_a; /* source a is s0 (lane 0's a) */
   int const_c;   /* source c is the constant 7 */
} int_case;

static const int_case int_cases[] = {
   {"v_bfi_b32 v%u, v0, v1, v2", r_bfi},
   {"v_bfe_u32 v%u, v0, v1, v2", r_bfe_u},
   {"v_bfe_i32 v%u, v0, v1, v2", r_bfe_i},
   {"v_bfe_u32 v%u, s0, v1, 7", r_bfe_u, 1, 1},
   {"v_bfm_b32 v%u, v0, v1", r_bfm},
   {"v_alignbit_b32 v%u, v0, v1, v2", r_alignbit},
   {"v_alignbit_b32 v%u, v0, v1, 7", r_alignbit, 0, 1},
   {"v_alignbyte_b32 v%u, v0, v1, v2", r_alignbyte},
   {"v_bcnt_u32_b32 v%u, v0, v1", r_bcnt},
   {"v_not_b32 v%u, v0", r_not},
   {"v_or3_b32 v%u, v0, v1, v2", r_or3},
   {"v_xad_u32 v%u, v0, v1, v2", r_xad},
   {"v_mul_hi_u32 v%u, v0, v1", r_mulhi_u},
   {"v_mul_hi_i32 v%u, v0, v1", r_mulhi_i},
   {"v_mul_hi_i32 v%u, s0, v1", r_mulhi_i, 1},
   {"v_mul_hi_u32_u24 v%u, v0, v1", r_mulhi_u24},
   {"v_mul_hi_i32_i24 v%u, v0, v1", r_mulhi_i24},
   {"v_min3_u32 v%u, v0, v1, v2", r_min3_u},
   {"v_max3_u32 v%u, v0, v1, v2", r_max3_u},
   {"v_med3_u32 v%u, v0, v1, v2", r_med3_u},
   {"v_min3_i32 v%u, v0, v1, v2", r_min3_i},
   {"v_max3_i32 v%u, v0, v1, v2", r_max3_i},
   {"v_med3_i32 v%u, v0, v1, v2", r_med3_i},
   {"v_mbcnt_lo_u32_b32 v%u, v0, v1", r_mbcnt_lo},
   {"v_mbcnt_hi_u32_b32 v%u, v0, v1", r_mbcnt_hi},
   {"v_add_u16 v%u, v0, v1", r_add16},
   {"v_add_u16_e64 v%u, s0, v1", r_add16, 1},
   {"v_sub_u16 v%u, v0, v1", r_sub16},
   {"v_subrev_u16 v%u, v0, v1", r_subrev16},
   {"v_mul_lo_u16 v%u, v0, v1", r_mul16},
   {"v_lshlrev_b16 v%u, v0, v1", r_shl16},
   {"v_lshrrev_b16 v%u, v0, v1", r_lshr16},
   {"v_ashrrev_i16 v%u, v0, v1", r_ashr16},
   {"v_max_u16 v%u, v0, v1", r_maxu16},
   {"v_min_u16 v%u, v0, v1", r_minu16},
   {"v_max_i16 v%u, v0, v1", r_maxi16},
   {"v_min_i16 v%u, v0, v1", r_mini16},
};
#define N_INT_CASES (sizeof(int_cases) / sizeof(int_cases[0]))

/* Lane l's sources: varied bits, shift amounts and widths over 0..63, some negative. */
static void
int_sources(unsigned l, uint32_t *a, uint32_t *b, uint32_t *c)
{
   *a = (0x9E3779B9u * (l + 1)) ^ (l & 4 ? 0x80000000u : 0);
   *b = (l * 0x01000193u) ^ (l & 2 ? 0xFFFF8000u : 0x00007FF0u) ^ l;
   *c = (l * 0x2545F491u) ^ (l * 5);
   if (l % 7 == 0)
      *c &= ~31u; /* width 0 */
}

/* Runs every case on wave `w` (lanes `lanes`, EXEC `exec`), destinations v10 up, whose
 * inactive lanes must keep their old value. */
static void
run_int_cases(sim_wave *w, unsigned lanes, uint64_t exec, const int_case *cases, unsigned n)
{
   static char prog[16384];
   int len = snprintf(prog, sizeof(prog), "s_mov_b32 exec_lo, 0x%x\n", (uint32_t)exec);
   if (lanes == 64)
      len += snprintf(prog + len, sizeof(prog) - (size_t)len, "s_mov_b32 exec_hi, 0x%x\n",
                      (uint32_t)(exec >> 32));
   for (unsigned i = 0; i < n; i++) {
      len += snprintf(prog + len, sizeof(prog) - (size_t)len, cases[i].text, 10 + i);
      len += snprintf(prog + len, sizeof(prog) - (size_t)len, "\n");
   }
   CHECK(len < (int)sizeof(prog));
   uint32_t a0, b0, c0;
   int_sources(0, &a0, &b0, &c0);
   w->s[0] = a0;
   for (unsigned l = 0; l < 64; l++) {
      uint32_t a, b, c;
      int_sources(l, &a, &b, &c);
      w->v[0][l] = a, w->v[1][l] = b, w->v[2][l] = c;
      for (unsigned i = 0; i < n; i++)
         w->v[10 + i][l] = 0xDEAD0000u + i;
   }
   CHECK_EQ(t_run(w, prog), SIM_FAULT_NONE);
   for (unsigned i = 0; i < n; i++) {
      unsigned bad = 0, first = 0;
      for (unsigned l = 0; l < lanes; l++) {
         uint32_t a, b, c;
         int_sources(l, &a, &b, &c);
         if (cases[i].uniform_a)
            a = a0;
         if (cases[i].const_c)
            c = 7;
         uint32_t want = (exec >> l) & 1 ? cases[i].ref(a, b, c, l) : 0xDEAD0000u + i;
         if (w->v[10 + i][l] != want && !bad++)
            first = l;
      }
      if (bad)
         fprintf(stderr, "FAIL %s: %s: %u lanes differ, first lane %u\n", t_current,
                 cases[i].text, bad, first);
      t_failures += bad != 0;
   }
}

TEST(int_lowered_ops)
{
   sim_wave *w = t_wave();
   run_int_cases(w, 64, 0xFFFF0F0F7FFFFFFEull, int_cases, N_INT_CASES);
   /* Every lane, and lane 0 alone (the translator's one-lane blocks). */
   w = t_wave();
   run_int_cases(w, 64, ~0ull, int_cases, N_INT_CASES);
   w = t_wave();
   run_int_cases(w, 64, 1, int_cases, N_INT_CASES);
}

/* The SDWA forms of the 16-bit operations: the sources' selects, then the operation on
 * their low halves, then the destination's select. */
TEST(int_lowered_sdwa16)
{
   sim_wave *w = t_wave();
   for (unsigned l = 0; l < 64; l++) {
      uint32_t a, b, c;
      int_sources(l, &a, &b, &c);
      w->v[0][l] = a, w->v[1][l] = b, w->v[2][l] = c;
      w->v[10][l] = w->v[11][l] = w->v[12][l] = 0x5A5A5A5Au;
   }
   CHECK_EQ(t_run(w, "v_add_u16_sdwa v10, v0, v1 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE "
                     "src0_sel:BYTE_1 src1_sel:WORD_1\n"
                     "v_lshlrev_b16_sdwa v11, v2, v0 dst_sel:BYTE_0 dst_unused:UNUSED_SEXT "
                     "src0_sel:BYTE_0 src1_sel:WORD_1\n"
                     "v_min_i16_sdwa v12, sext(v0), v1 dst_sel:WORD_0 dst_unused:UNUSED_PAD "
                     "src0_sel:BYTE_3 src1_sel:WORD_0"),
            SIM_FAULT_NONE);
   unsigned bad = 0;
   for (unsigned l = 0; l < 64; l++) {
      uint32_t a, b, c;
      int_sources(l, &a, &b, &c);
      uint32_t s = r_add16((a >> 8) & 0xFF, b >> 16, 0, l);
      bad += w->v[10][l] != ((s << 16) | 0x5A5Au);
      uint32_t t = r_shl16(c & 0xFF, a >> 16, 0, l) & 0xFF;
      bad += w->v[11][l] != (t & 0x80 ? t | 0xFFFFFF00u : t);
      uint32_t m = r_mini16(sx(a >> 24, 8), b & 0xFFFF, 0, l);
      bad += w->v[12][l] != m;
   }
   CHECK_EQ(bad, 0);
}

/* gfx1030 (wave32): v_xor3_b32 and the renamed 16-bit adds. */
static const int_case int_cases_gfx10[] = {
   {"v_xor3_b32 v%u, v0, v1, v2", r_xor3},
   {"v_add_nc_u16 v%u, v0, v1", r_add16},
   {"v_sub_nc_u16 v%u, v0, v1", r_sub16},
   {"v_bfi_b32 v%u, v0, v1, v2", r_bfi},
   {"v_mbcnt_lo_u32_b32 v%u, v0, v1", r_mbcnt_lo},
};

TEST(int_lowered_gfx1030)
{
   sim_wave *w = t_wave_target(sim__target(SIM_TARGET_GFX1030));
   w->lanes = 32;
   SIM_EXEC(w) = 0xFFFFFFFFull;
   run_int_cases(w, 32, 0x7FFF0FF1ull, int_cases_gfx10,
                 sizeof(int_cases_gfx10) / sizeof(int_cases_gfx10[0]));
}

/* The scalar forms sim_xlate.c lowers past the moves and arithmetic: s_movk_i32, s_bcnt1,
 * s_brev_b32, s_not and the 64-bit compares, each SCC caught by the s_cselect after it. */
TEST(int_lowered_salu)
{
   sim_wave *w = t_wave();
   uint64_t p = 0x80F00001C0000003ull, q = 0x80F00001C0000002ull;
   w->s[0] = (uint32_t)p, w->s[1] = (uint32_t)(p >> 32);
   w->s[2] = (uint32_t)q, w->s[3] = (uint32_t)(q >> 32);
   w->s[4] = 0, w->s[5] = 0xFFFFFFFFu, w->s[6] = 0xFFFFFFFFu, w->s[7] = 0xFFFFFFFFu;
   CHECK_EQ(t_run(w, "s_movk_i32 s10, 0x8001\n"
                     "s_movk_i32 s11, 0x7fff\n"
                     "s_bcnt1_i32_b32 s12, s0\n s_cselect_b32 s13, 1, 2\n"
                     "s_bcnt1_i32_b32 s14, s4\n s_cselect_b32 s15, 1, 2\n"
                     "s_bcnt1_i32_b64 s16, s[0:1]\n s_cselect_b32 s17, 1, 2\n"
                     "s_brev_b32 s18, s2\n"
                     "s_not_b32 s19, s0\n s_cselect_b32 s20, 1, 2\n"
                     "s_not_b32 s21, s5\n s_cselect_b32 s22, 1, 2\n"
                     "s_not_b64 s[24:25], s[0:1]\n s_cselect_b32 s23, 1, 2\n"
                     "s_not_b64 s[26:27], s[6:7]\n s_cselect_b32 s28, 1, 2\n"
                     "s_cmp_eq_u64 s[0:1], s[2:3]\n s_cselect_b32 s29, 1, 2\n"
                     "s_cmp_lg_u64 s[0:1], s[2:3]\n s_cselect_b32 s30, 1, 2\n"
                     "s_cmp_eq_u64 s[0:1], s[0:1]\n s_cselect_b32 s31, 1, 2\n"
                     "s_cmp_lg_u64 s[4:5], -1\n s_cselect_b32 s32, 1, 2"),
            SIM_FAULT_NONE);
   CHECK_EQ(w->s[10], 0xFFFF8001u);
   CHECK_EQ(w->s[11], 0x7FFFu);
   CHECK_EQ(w->s[12], 4);
   CHECK_EQ(w->s[13], 1);
   CHECK_EQ(w->s[14], 0);
   CHECK_EQ(w->s[15], 2);
   CHECK_EQ(w->s[16], 10);
   CHECK_EQ(w->s[17], 1);
   CHECK_EQ(w->s[18], 0x40000003u);
   CHECK_EQ(w->s[19], 0x3FFFFFFCu);
   CHECK_EQ(w->s[20], 1);
   CHECK_EQ(w->s[21], 0);
   CHECK_EQ(w->s[22], 2);
   CHECK_EQ(w->s[24], (uint32_t)~p);
   CHECK_EQ(w->s[25], (uint32_t)(~p >> 32));
   CHECK_EQ(w->s[23], 1);
   CHECK_EQ(w->s[26], 0);
   CHECK_EQ(w->s[27], 0);
   CHECK_EQ(w->s[28], 2);
   CHECK_EQ(w->s[29], 2);
   CHECK_EQ(w->s[30], 1);
   CHECK_EQ(w->s[31], 1);
   CHECK_EQ(w->s[32], 1); /* s[4:5] = 0xFFFFFFFF00000000 is not -1 */
}

/* A constant-EXEC block entered with a partial EXEC (two lanes, narrowed to 32) reads EXEC
 * through an empty inline asm, not as the constant: with the constant, LLVM 19's x86
 * instruction selection (AVX-512F without BW) looped forever on one such block of the CTS
 * math test's sincos (sim_xlate.c exec_half). Checked in the IR the block is compiled
 * from (HSACL_SIM_XLATE_DUMP), when the translator compiles every block
 * (sim_xlate_check_unit); the same block entered with every lane keeps the constant. */
static unsigned
dumped_with(const char *dir, const char *needle)
{
   unsigned n = 0;
   DIR *d = opendir(dir);
   struct dirent *e;
   while (d && (e = readdir(d))) {
      char path[512], buf[65536];
      snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
      FILE *f = e->d_name[0] == '.' ? NULL : fopen(path, "r");
      if (!f)
         continue;
      size_t len = fread(buf, 1, sizeof(buf) - 1, f);
      buf[len] = 0;
      n += strstr(buf, needle) != NULL;
      fclose(f);
      unlink(path);
   }
   if (d)
      closedir(d);
   return n;
}

TEST(xlate_partial_exec_opaque)
{
   CHECK_EQ(t_run(t_wave(), "s_nop 0"), SIM_FAULT_NONE); /* the translator's mode is set */
   if (sim__xlate_mode != 2)
      return; /* only the checking mode compiles a block on its first run */
   char dir[] = "/tmp/sim_isa_xdump.XXXXXX";
   CHECK(mkdtemp(dir) != NULL);
   setenv("HSACL_SIM_XLATE_DUMP", dir, 1);
   static const char *prog = "v_cmp_eq_u32 vcc, 0, v0\n"
                             "s_and_b64 s[4:5], vcc, exec\n"
                             "v_cndmask_b32 v1, 7, 9, s[4:5]\n"
                             "v_addc_co_u32 v2, vcc, v1, 0, s[4:5]";
   sim_wave *w = t_wave();
   for (unsigned l = 0; l < 64; l++)
      w->v[0][l] = l & 1;
   SIM_EXEC(w) = 3;
   CHECK_EQ(t_run(w, prog), SIM_FAULT_NONE);
   CHECK_EQ(w->v[1][0], 9);
   CHECK_EQ(w->v[1][1], 7);
   CHECK_EQ(dumped_with(dir, "asm \"\", \"=r,0\"(i32 3)"), 1);
   w = t_wave();
   CHECK_EQ(t_run(w, prog), SIM_FAULT_NONE);
   CHECK_EQ(dumped_with(dir, "asm \"\", \"=r,0\"(i32 -1)"), 0);
   unsetenv("HSACL_SIM_XLATE_DUMP");
   rmdir(dir);
}


/* v_readlane_b32 / v_writelane_b32 (EXEC ignored, the lane modulo 64) and s_getpc_b64,
 * which the translator lowers (sim_xlate.c emit_lane_move, XO_S_GETPC): under every lane,
 * part of EXEC, the low 32 lanes and lane 0 alone (the blocks of the last two hold 32 lanes
 * and one: lanes past them are the register file's), with lanes inside and past those. */
static void
lane_moves_case(uint64_t exec)
{
   sim_wave *w = t_wave();
   uint32_t v1[64], v2[64];
   for (unsigned l = 0; l < 64; l++) {
      w->v[1][l] = v1[l] = 0x9E3779B9u * (l + 3) ^ l;
      w->v[2][l] = v2[l] = 0xC0DE0000u + l;
   }
   w->s[0] = 5, w->s[1] = 40, w->s[2] = 127, w->s[3] = 0xAAAA5555u, w->s[4] = 0x12345678u;
   SIM_EXEC(w) = exec;
   CHECK_EQ(t_run(w, "s_getpc_b64 s[20:21]\n"
                     "v_readlane_b32 s10, v1, s0\n"
                     "v_readlane_b32 s11, v1, s1\n"
                     "v_readlane_b32 s12, v1, 17\n"
                     "v_readlane_b32 s13, v1, s2\n"
                     "s_mov_b32 m0, s0\n"
                     "v_writelane_b32 v2, s3, m0\n"
                     "v_writelane_b32 v2, s4, 40\n"
                     "v_writelane_b32 v2, -7, 0\n"
                     "v_add_u32 v3, v2, v1\n"
                     "v_readlane_b32 s14, v2, s1\n"
                     "v_readlane_b32 s15, v2, s0\n"
                     "s_mov_b32 s5, 0x12345678\n"
                     "s_getpc_b64 s[22:23]\n"
                     "s_mov_b64 exec, -1"),
            SIM_FAULT_NONE);
   CHECK_EQ(w->s[10], v1[5]);
   CHECK_EQ(w->s[11], v1[40]);
   CHECK_EQ(w->s[12], v1[17]);
   CHECK_EQ(w->s[13], v1[63]);
   v2[5] = 0xAAAA5555u, v2[40] = 0x12345678u, v2[0] = (uint32_t)-7;
   unsigned bad = 0;
   for (unsigned l = 0; l < 64; l++) {
      bad += w->v[2][l] != v2[l];
      if ((exec >> l) & 1)
         bad += w->v[3][l] != v2[l] + v1[l];
   }
   CHECK_EQ(bad, 0);
   CHECK_EQ(w->s[14], 0x12345678u);
   CHECK_EQ(w->s[15], 0xAAAA5555u);
   /* The second s_getpc is 92 bytes after the first (itself, nine VOP3 lane moves, the
    * m0 move, the add and the move of a literal). */
   uint64_t pc0 = w->s64[10], pc1 = w->s64[11];
   CHECK_EQ(pc1 - pc0, 4 + 9 * 8 + 4 + 4 + 8);
   CHECK_EQ(pc0 != 0, 1);
}

TEST(lowered_lane_moves)
{
   lane_moves_case(~0ull);
   lane_moves_case(0xF0F0FFFF0000FFF7ull);
   lane_moves_case(0xFFFFFFFFull);
   lane_moves_case(1);
}

/* sim_vopc.c's class numbering of a value whose exponent field is `e` (`emax` all ones),
 * mantissa `m` (`quiet` its top bit) and sign `neg`; of f32 and f64 bits. */
static unsigned
fclass(uint64_t e, uint64_t emax, uint64_t m, bool quiet, bool neg)
{
   if (e == emax)
      return m ? (quiet ? 1 : 0) : neg ? 2 : 9;
   if (e)
      return neg ? 3 : 8;
   if (m)
      return neg ? 4 : 7;
   return neg ? 5 : 6;
}
static unsigned
class_f32(uint32_t b)
{
   return fclass((b >> 23) & 0xFF, 0xFF, b & 0x7FFFFF, (b >> 22) & 1, b >> 31);
}
static unsigned
class_f64(uint64_t b)
{
   return fclass((b >> 52) & 0x7FF, 0x7FF, b & ((1ull << 52) - 1), (b >> 51) & 1, b >> 63);
}

/* v_cmp_class_f32/f64 and v_cmpx_class_f32, lowered (sim_xlate.c emit_class): every class
 * (signalling and quiet NaNs, infinities, normals, subnormals, zeros of both signs) against
 * masks of varied bits, with abs/neg on the value and part of EXEC off. */
TEST(lowered_class)
{
   static const uint32_t f[] = {0x7F800001, 0x7FC00000, 0xFF800000, 0xBF800000, 0x80000001,
                                0x80000000, 0x00000000, 0x007FFFFF, 0x3F800000, 0x7F800000,
                                0xFFA00000, 0xFFC00001, 0x00000001};
   static const uint64_t d[] = {0x7FF0000000000001ull, 0x7FF8000000000000ull,
                                0xFFF0000000000000ull, 0xBFF0000000000000ull,
                                0x8000000000000001ull, 0x8000000000000000ull, 0,
                                0x000FFFFFFFFFFFFFull, 0x3FF0000000000000ull,
                                0x7FF0000000000000ull, 0xFFF4000000000000ull};
   sim_wave *w = t_wave();
   for (unsigned l = 0; l < 64; l++) {
      w->v[1][l] = f[l % 13];
      w->v[2][l] = (0x2A5u * (l + 1)) ^ (l << 5) ^ (l & 1 ? 0x3FF : 0);
      uint64_t v = d[(l * 3) % 11];
      w->v[4][l] = (uint32_t)v, w->v[5][l] = (uint32_t)(v >> 32);
   }
   w->s[0] = 0x3FF, w->s[1] = 0x201;
   uint64_t exec = 0xFFFF0F0FFFFFF7FEull;
   SIM_EXEC(w) = exec;
   CHECK_EQ(t_run(w, "v_cmp_class_f32 vcc, v1, v2\n"
                     "s_mov_b64 s[10:11], vcc\n"
                     "v_cmp_class_f32_e64 s[12:13], -|v1|, v2\n"
                     "v_cmp_class_f32_e64 s[14:15], -v1, s1\n"
                     "v_cmp_class_f64_e64 s[16:17], v[4:5], v2\n"
                     "v_cmp_class_f64_e64 s[18:19], -|v[4:5]|, v2\n"
                     "v_cmpx_class_f32_e64 s[20:21], v1, v2\n"
                     "s_mov_b64 s[22:23], exec\n"
                     "s_mov_b64 exec, -1"),
            SIM_FAULT_NONE);
   uint64_t c0 = 0, c1 = 0, c2 = 0, c3 = 0, c4 = 0;
   for (unsigned l = 0; l < 64; l++) {
      uint32_t a = w->v[1][l], m = w->v[2][l];
      uint64_t v = (uint64_t)w->v[5][l] << 32 | w->v[4][l];
      c0 |= (uint64_t)((m >> class_f32(a)) & 1) << l;
      c1 |= (uint64_t)((m >> class_f32(a | 0x80000000u)) & 1) << l;
      c2 |= (uint64_t)((0x201u >> class_f32(a ^ 0x80000000u)) & 1) << l;
      c3 |= (uint64_t)((m >> class_f64(v)) & 1) << l;
      c4 |= (uint64_t)((m >> class_f64(v | 1ull << 63)) & 1) << l;
   }
   CHECK_EQ(w->s64[5], c0 & exec);
   CHECK_EQ(w->s64[6], c1 & exec);
   CHECK_EQ(w->s64[7], c2 & exec);
   CHECK_EQ(w->s64[8], c3 & exec);
   CHECK_EQ(w->s64[9], c4 & exec);
   CHECK_EQ(w->s64[10], c0 & exec);
   CHECK_EQ(w->s64[11], c0 & exec); /* the v_cmpx's EXEC */
}


/* A block whose lane reads write high SGPRs asks the wave for the VGPRs it names, not for
 * as many as the SGPR's number (its entry condition, sim_xlate.c max_vgpr): a wave of 8
 * VGPRs runs it translated. Under sim_xlate_check_unit (the block compiled at its first
 * run); interpreted, no block exists to look at. */
TEST(xlate_lane_read_vgprs)
{
   sim_wave *w = t_wave();
   w->nvgpr = 8;
   for (unsigned l = 0; l < 64; l++)
      w->v[1][l] = 100 + l;
   CHECK_EQ(t_run(w, "v_readfirstlane_b32 s40, v1\n"
                     "v_readlane_b32 s41, v1, 3\n"
                     "v_add_u32 v2, v1, v1"),
            SIM_FAULT_NONE);
   CHECK_EQ(w->s[40], 100);
   CHECK_EQ(w->s[41], 103);
   for (int k = 0; k < 2; k++) {
      const sim_xlate_ent *e = w->prog ? sim__xlate_entry(w->prog, w->prog->va, k) : NULL;
      if (e && e->state == XL_ENT_DONE)
         CHECK_EQ(e->max_vgpr, 3);
   }
}

void
t_int_tests(void)
{
   RUN(xlate_partial_exec_opaque);
   RUN(int_lowered_salu);
   RUN(int_lowered_ops);
   RUN(int_lowered_sdwa16);
   RUN(int_lowered_gfx1030);
   RUN(lowered_lane_moves);
   RUN(lowered_class);
   RUN(xlate_lane_read_vgprs);
}
