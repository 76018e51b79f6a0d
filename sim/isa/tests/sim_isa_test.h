/* Single-wave test harness of the interpreter (gfx906; gfx90a through t_wave_target):
 * assembles snippets with LLVM's MC layer in the process (sim_isa_test_asm.h), runs them on
 * one wave through sim__isa_run_wave_for_test, checks hand-computed results. */
#ifndef SIM_ISA_TEST_H
#define SIM_ISA_TEST_H

#include <stdio.h>
#include <string.h>
#include "sim_isa_priv.h"

extern int t_failures;
extern const char *t_current;

#define CHECK_EQ(got, want)                                                                 \
   do {                                                                                     \
      unsigned long long g_ = (unsigned long long)(got), w_ = (unsigned long long)(want);    \
      if (g_ != w_) {                                                                       \
         fprintf(stderr, "FAIL %s: %s:%d: %s = 0x%llx, want 0x%llx\n", t_current, __FILE__, \
                 __LINE__, #got, g_, w_);                                                   \
         t_failures++;                                                                      \
      }                                                                                     \
   } while (0)

#define CHECK(cond)                                                                         \
   do {                                                                                     \
      if (!(cond)) {                                                                        \
         fprintf(stderr, "FAIL %s: %s:%d: %s\n", t_current, __FILE__, __LINE__, #cond);     \
         t_failures++;                                                                      \
      }                                                                                     \
   } while (0)

/* A fresh wave: 256 VGPRs (zero), SGPRs zero, EXEC all ones, MODE as LLVM's default
 * kernel descriptor (IEEE, DX10 clamp, no denormal flushing). */
sim_wave *t_wave(void);
/* t_wave for `target` (gfx906 is t_wave's): with AGPRs, 256 of them at rows 256..511; t_run
 * then assembles for that target until the next t_wave. */
sim_wave *t_wave_target(const sim_target *target);
/* Assembles `src` (s_endpgm appended) and runs it on `w`. Returns the fault kind; the
 * fault record is in t_fault. */
sim_fault_kind t_run(sim_wave *w, const char *src);
/* What t_run runs for `src`: its machine code (malloc'd), *len bytes; NULL when it does
 * not assemble. */
uint8_t *t_text(const char *src, size_t *len);
extern sim_fault t_fault;
/* The GWS allocation t_run's waves have (NULL: none). */
extern sim_gws *t_gws;
/* Assembles `src` (s_endpgm appended) as a kernel and dispatches `groups` work-groups of
 * `wgsize` work-items (x only) on the interpreter's threads, with GWS allocation `gws`:
 * s[0:1] = `kernarg`, s2 = work-group id, v0 = work-item id, 32 VGPRs, 4 KiB of LDS. Returns the fault
 * kind (t_fault). */
sim_fault_kind t_dispatch(const char *src, uint32_t groups, uint32_t wgsize, void *kernarg,
                          sim_gws *gws);

/* Work-groups along y and z of t_dispatch_kd's dispatches (1 and 1 unless a test sets
 * them). */
extern uint32_t t_groups_yz[2];
/* Dispatches `groups` work-groups (along x; t_groups_yz along y and z) of wg[0] x wg[1] x wg[2] work-items of `src`
 * on GPU agent `agent` with COMPUTE_PGM_RSRC1/2/3 = rsrc[0..2] in the kernel descriptor and
 * s[0:1] = `kernarg` (user SGPRs as rsrc[1] says). Returns the fault kind (t_fault). */
/* kernel_code_properties bits t_dispatch_kd adds (ENABLE_WAVEFRONT_SIZE32: 1 << 10). */
extern uint16_t t_kcode_extra;
/* The queue scratch t_dispatch_kd's dispatches have (NULL: none) and their packets'
 * private_segment_size. */
extern sim_scratch *t_qscratch;
extern uint32_t t_private_size;
sim_fault_kind t_dispatch_kd(unsigned agent, const char *src, const uint32_t rsrc[3],
                             const uint16_t wg[3], uint32_t groups, void *kernarg);

/* Test memory the harness's sim__mem_find knows: host pointer == GPU VA. */
void *t_alloc(size_t size, uint32_t flags);
/* Registers `size` bytes at `p` (page-aligned; zeroed up to the next page) as a guest
 * allocation, as t_alloc does with memory of its own. */
void t_register(void *p, size_t size, uint32_t flags);
extern uint8_t t_lds[65536];
/* The dword of t_lds at byte `addr` (any alignment). */
static inline uint32_t
t_lds32(uint32_t addr)
{
   uint32_t v;
   memcpy(&v, t_lds + addr, 4);
   return v;
}
extern uint32_t t_lds_size;
extern uint8_t *t_scratch;
extern uint64_t t_scratch_size;

static inline float
t_f(uint32_t u)
{
   return sim__as_f32(u);
}
static inline uint32_t
t_u(float f)
{
   return sim__as_u32(f);
}

void t_alu_tests(void);
void t_mem_tests(void);
void t_cover_tests(void);
void t_mimg_tests(void);
void t_mimg_fast_tests(void);
void t_f16_tests(void);
void t_f64_tests(void);
void t_scratch_tests(void);
void t_ops_tests(void);
void t_sample_tests(void);
void t_wavesync_tests(void);
void t_dispatch_tests(void);
void t_nan_tests(void);
void t_int_tests(void);
void t_gfx90a_tests(void);
void t_gfx1030_tests(void);
void t_cache_tests(void);

#define TEST(name) static void name(void)
/* SIM_ISA_ONLY=<test>[,<test>...] runs those tests alone (the whole program takes
 * minutes). */
extern const char *t_only;
bool t_selected(const char *name);
#define RUN(name)                                                                           \
   do {                                                                                     \
      t_current = #name;                                                                    \
      if (t_selected(#name))                                                                \
         name();                                                                            \
   } while (0)

#endif
