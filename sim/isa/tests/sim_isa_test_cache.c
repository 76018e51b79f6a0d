/* The checking mode's vector caches per target (sim_l1.c): gfx10's two L0s of a work-group
 * processor and the shader array's GL1, gfx90a's TG_SPLIT. The kernels run with
 * sim__cache_checking on; their data is coarse-grained (cached), their results fine-grained
 * (never cached), so the host reads the results from memory. */
#include "sim_isa_test.h"

#include <string.h>

#define RSRC1_WGP_MODE (1u << 29)
#define RSRC3_TG_SPLIT (1u << 16)

/* Two waves of one work-group: both load X (each fills its CU's cache), wave 0 stores 2 to
 * X and waits for the store, a barrier, then wave 1 runs `acquire` and loads X again into
 * out[0] (a load with cache-policy bits `cpol`). X is 1 before the kernel; `lanes` is the
 * wave size. */
static uint32_t
producer_consumer(unsigned agent, unsigned lanes, const char *acquire, const char *cpol,
                  const uint32_t rsrc[3], bool checking)
{
   uint32_t *x = t_alloc(64, SIM_ALLOC_READ | SIM_ALLOC_WRITE | SIM_ALLOC_COARSE);
   uint32_t *out = t_alloc(64, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   uint64_t *ka = t_alloc(16, SIM_ALLOC_READ);
   x[0] = 1;
   out[0] = 0xDEAD;
   ka[0] = (uint64_t)(uintptr_t)x;
   ka[1] = (uint64_t)(uintptr_t)out;
   const bool gfx10 = lanes == 32;
   char src[1024];
   snprintf(src, sizeof(src),
            "s_load_dwordx4 s[4:7], s[0:1], 0\n"
            "s_waitcnt lgkmcnt(0)\n"
            "v_mov_b32 v1, 0\n"
            "global_load_dword v2, v1, s[4:5]\n"
            "s_waitcnt vmcnt(0)\n"
            "s_barrier\n"
            "v_readfirstlane_b32 s8, v0\n"
            "s_cmp_lt_u32 s8, %u\n"
            "s_cbranch_scc0 consumer\n"
            "v_mov_b32 v3, 2\n"
            "global_store_dword v1, v3, s[4:5]\n"
            "%s\n"
            "s_barrier\n"
            "s_endpgm\n"
            "consumer:\n"
            "s_barrier\n"
            "%s\n"
            "global_load_dword v2, v1, s[4:5]%s\n"
            "s_waitcnt vmcnt(0)\n"
            "global_store_dword v1, v2, s[6:7]",
            lanes, gfx10 ? "s_waitcnt_vscnt null, 0" : "s_waitcnt vmcnt(0)", acquire, cpol);
   const uint16_t wg[3] = {(uint16_t)(2 * lanes), 1, 1};
   bool was = sim__cache_checking;
   sim__cache_checking = checking;
   t_kcode_extra = gfx10 ? 1u << 10 : 0; /* ENABLE_WAVEFRONT_SIZE32 */
   CHECK_EQ(t_dispatch_kd(agent, src, rsrc, wg, 1, ka), SIM_FAULT_NONE);
   t_kcode_extra = 0;
   sim__cache_checking = was;
   return out[0];
}

/* gfx10 WGP mode: waves 0 and 1 run on the two CUs of the WGP, each with its L0. A
 * work-group-scope acquire without buffer_gl0_inv reads the consumer's stale L0 line; with
 * it (LLVM's sequence for WGP mode), or with a GLC load (LLVM's monotonic work-group load
 * in WGP mode), the new value. In CU mode both waves share one L0 and the store dropped the
 * line: no invalidate is needed, as LLVM omits it there. Without the checking mode there is
 * no cache at all. */
TEST(gfx10_wgp_l0)
{
   sim__isa_agent_target_set(4, sim__target(SIM_TARGET_GFX1030));
   t_wave_target(sim__target(SIM_TARGET_GFX1030)); /* llvm-mc for gfx1030 */
   uint32_t wgp[3] = {1u | 1u << 21 | 1u << 23 | RSRC1_WGP_MODE, 2u << 1, 0};
   uint32_t cu[3] = {1u | 1u << 21 | 1u << 23, 2u << 1, 0};
   CHECK_EQ(producer_consumer(4, 32, "", "", wgp, true), 1u);
   CHECK_EQ(producer_consumer(4, 32, "buffer_gl0_inv", "", wgp, true), 2u);
   CHECK_EQ(producer_consumer(4, 32, "", " glc", wgp, true), 2u);
   CHECK_EQ(producer_consumer(4, 32, "", "", cu, true), 2u);
   CHECK_EQ(producer_consumer(4, 32, "", "", wgp, false), 2u);
}

/* gfx90a TG_SPLIT: a work-group's waves spread over two CUs, each with its vector L1, so a
 * work-group-scope acquire needs buffer_wbinvl1_vol (AMDGPUUsage, "Memory Model GFX90A");
 * without TG_SPLIT both waves share one L1. */
TEST(gfx90a_tg_split_l1)
{
   sim__isa_agent_target_set(3, sim__target(SIM_TARGET_GFX90A));
   t_wave_target(sim__target(SIM_TARGET_GFX90A));
   uint32_t split[3] = {1u | 1u << 21 | 1u << 23, 2u << 1, 1u | RSRC3_TG_SPLIT};
   uint32_t one[3] = {1u | 1u << 21 | 1u << 23, 2u << 1, 1u};
   CHECK_EQ(producer_consumer(3, 64, "", "", split, true), 1u);
   CHECK_EQ(producer_consumer(3, 64, "buffer_wbinvl1_vol", "", split, true), 2u);
   CHECK_EQ(producer_consumer(3, 64, "", "", one, true), 2u);
}

/* The GL1 of a shader array, through the cache API with two host threads' caches (two
 * shader arrays) and waves made by hand: wave `a` (SA 0, CU 0), `a1` (SA 0, CU 1) and `b`
 * (SA 1) of a gfx1030 WGP-mode dispatch. */
static uint32_t
load(sim_wave *w, uint32_t *x, uint8_t policy)
{
   w->l1_load = policy;
   uint32_t *p = sim__gpu_ptr(w, (uint64_t)(uintptr_t)x, 4, false);
   w->l1_load = SIM_L1_NONE;
   return p ? *p : 0xDEADu;
}

static void
store(sim_wave *w, uint32_t *x, uint32_t v)
{
   uint32_t *p = sim__gpu_ptr(w, (uint64_t)(uintptr_t)x, 4, true);
   if (p)
      *p = v;
}

TEST(gfx10_gl1)
{
   const sim_target *gfx1030 = sim__target(SIM_TARGET_GFX1030);
   static sim_disp d;
   static sim_wg sa0, sa1;
   static sim_wave a, a1, b;
   static struct sim_l1 *c0, *c1;
   memset(&d, 0, sizeof(d));
   d.target = gfx1030;
   d.agent = 4;
   d.rsrc1 = RSRC1_WGP_MODE;
   CHECK(sim__l1_begin(&c0) != NULL);
   CHECK(sim__l1_begin(&c1) != NULL);
   sa0 = (sim_wg){ .disp = &d, .l1 = c0 };
   sa1 = (sim_wg){ .disp = &d, .l1 = c1 };
   a = (sim_wave){ .wg = &sa0, .target = gfx1030, .id = 0 };
   a1 = (sim_wave){ .wg = &sa0, .target = gfx1030, .id = 1 };
   b = (sim_wave){ .wg = &sa1, .target = gfx1030, .id = 0 };
   uint32_t *x = t_alloc(64, SIM_ALLOC_READ | SIM_ALLOC_WRITE | SIM_ALLOC_COARSE);
   x[0] = 1;
   bool was = sim__cache_checking;
   sim__cache_checking = true;
   sim__cache_fence(4, HSA_FENCE_SCOPE_NONE, HSA_FENCE_SCOPE_NONE); /* the L2 set up */
   const uint8_t plain = SIM_L1_LOAD;
   CHECK_EQ(load(&a, x, plain), 1u); /* fills a's L0 and SA 0's GL1 */
   store(&b, x, 2);                   /* SA 1: the L2 */
   CHECK_EQ(load(&a, x, plain), 1u); /* the L0's line */
   sim__l1_invalidate(&a);
   CHECK_EQ(load(&a, x, plain), 1u); /* buffer_gl0_inv alone: the GL1's line */
   CHECK_EQ(load(&a, x, plain | SIM_L1_GLC), 1u); /* GLC misses the L0 only */
   sim__gl1_invalidate(&a);
   sim__l1_invalidate(&a);
   CHECK_EQ(load(&a, x, plain), 2u); /* LLVM's agent-scope acquire: both invalidates */
   store(&b, x, 3);
   CHECK_EQ(load(&a, x, plain | SIM_L1_GLC | SIM_L1_DLC), 3u); /* agent-scope load */
   CHECK_EQ(load(&a, x, plain), 3u); /* refills the L0 and the GL1 */
   store(&a1, x, 4); /* the other CU of a's WGP: through SA 0's GL1, which drops the line */
   CHECK_EQ(load(&a, x, plain), 3u); /* a's L0 still holds it */
   sim__l1_invalidate(&a);
   CHECK_EQ(load(&a, x, plain), 4u); /* the GL1 is coherent within its shader array */
   store(&b, x, 5);
   CHECK_EQ(load(&a, x, plain | SIM_L1_GLC), 4u);
   CHECK_EQ(load(&a, x, plain | SIM_L1_GLC | SIM_L1_SLC), 5u); /* nontemporal: past both */
   sim__cache_checking = was;
}

/* gfx90a's buffer_wbl2 / buffer_invl2 in a running wave (t_run: agent 0's L2, no L1): the
 * L2's dirty bytes reach memory at buffer_wbl2, not before; memory the host changed shows
 * after buffer_invl2, not before (in a line the wave has not written: the bytes it wrote
 * stay dirty, and so its line stays, until the next packet fence, sim_cache.c). */
TEST(gfx90a_wbl2_invl2)
{
   sim_wave *w = t_wave_target(sim__target(SIM_TARGET_GFX90A));
   uint32_t *x = t_alloc(128, SIM_ALLOC_READ | SIM_ALLOC_WRITE | SIM_ALLOC_COARSE);
   x[0] = 1;
   x[1] = 10;
   x[16] = 20; /* the next line */
   w->s[0] = (uint32_t)(uintptr_t)x;
   w->s[1] = (uint32_t)((uintptr_t)x >> 32);
   for (unsigned l = 0; l < 64; l++) {
      w->v[2][l] = 2;
      w->v[4][l] = 64;
   }
   bool was = sim__cache_checking;
   sim__cache_checking = true;
   sim__cache_fence(0, HSA_FENCE_SCOPE_NONE, HSA_FENCE_SCOPE_NONE); /* the L2 set up */
   CHECK_EQ(t_run(w, "global_store_dword v1, v2, s[0:1]"), SIM_FAULT_NONE);
   CHECK_EQ(x[0], 1u); /* memory: the store is in the L2 */
   CHECK_EQ(t_run(w, "buffer_wbl2"), SIM_FAULT_NONE);
   CHECK_EQ(x[0], 2u);
   CHECK_EQ(x[1], 10u); /* clean bytes of the line are not written */
   const char *reload = "global_load_dword v3, v4, s[0:1]\n s_waitcnt vmcnt(0)";
   CHECK_EQ(t_run(w, reload), SIM_FAULT_NONE);
   CHECK_EQ(w->v[3][5], 20u);
   x[16] = 21; /* the host (or another agent) writes memory */
   CHECK_EQ(t_run(w, reload), SIM_FAULT_NONE);
   CHECK_EQ(w->v[3][5], 20u);
   CHECK_EQ(t_run(w, "buffer_invl2"), SIM_FAULT_NONE);
   CHECK_EQ(t_run(w, reload), SIM_FAULT_NONE);
   CHECK_EQ(w->v[3][5], 21u);
   sim__cache_fence(0, HSA_FENCE_SCOPE_NONE, HSA_FENCE_SCOPE_SYSTEM);
   sim__cache_checking = was;
}

void
t_cache_tests(void)
{
   RUN(gfx90a_wbl2_invl2);
   RUN(gfx10_wgp_l0);
   RUN(gfx10_gl1);
   RUN(gfx90a_tg_split_l1);
}
