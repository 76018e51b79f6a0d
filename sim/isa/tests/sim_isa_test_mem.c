/* Memory instruction tests: SMEM, DS, FLAT/GLOBAL, MUBUF scratch, apertures, faults. */
#include <stdlib.h>
#include "sim_isa_test.h"

static void
set_ptr_sgpr(sim_wave *w, unsigned s, const void *p)
{
   uint64_t a = (uint64_t)(uintptr_t)p;
   w->s[s] = (uint32_t)a;
   w->s[s + 1] = (uint32_t)(a >> 32);
}

static void
set_ptr_vgpr(sim_wave *w, unsigned v, const void *p, unsigned stride)
{
   for (unsigned l = 0; l < 64; l++) {
      uint64_t a = (uint64_t)(uintptr_t)p + (uint64_t)l * stride;
      w->v[v][l] = (uint32_t)a;
      w->v[v + 1][l] = (uint32_t)(a >> 32);
   }
}

static void
set_lane_ptr(sim_wave *w, unsigned v, unsigned l, const void *p)
{
   uint64_t a = (uint64_t)(uintptr_t)p;
   w->v[v][l] = (uint32_t)a;
   w->v[v + 1][l] = (uint32_t)(a >> 32);
}

/* SMEM: imm offset and SGPR offset forms. */
TEST(smem_load)
{
   uint32_t *buf = t_alloc(256, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   for (unsigned i = 0; i < 64; i++)
      buf[i] = 0x100 + i;
   sim_wave *w = t_wave();
   set_ptr_sgpr(w, 4, buf);
   w->s[20] = 16;
   CHECK_EQ(t_run(w, "s_load_dwordx4 s[8:11], s[4:5], 0x8\n s_load_dword s12, s[4:5], s20\n"
                     "s_waitcnt lgkmcnt(0)"),
            SIM_FAULT_NONE);
   CHECK_EQ(w->s[8], 0x102);
   CHECK_EQ(w->s[11], 0x105);
   CHECK_EQ(w->s[12], 0x104);
}

/* global: saddr + 32-bit VGPR offset with a negative immediate; VGPR-pair address. */
TEST(global_load_store)
{
   uint32_t *buf = t_alloc(1024, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   for (unsigned i = 0; i < 256; i++)
      buf[i] = i * 3;
   sim_wave *w = t_wave();
   set_ptr_sgpr(w, 4, buf);
   for (unsigned l = 0; l < 64; l++)
      w->v[1][l] = 4 * l + 8;
   set_ptr_vgpr(w, 2, buf + 128, 4);
   CHECK_EQ(t_run(w, "global_load_dword v4, v1, s[4:5] offset:-8\n"
                     "global_load_dwordx2 v[6:7], v[2:3], off offset:4\n"
                     "s_waitcnt vmcnt(0)\n"
                     "v_add_u32 v4, 1, v4\n"
                     "global_store_dword v[2:3], v4, off\n"
                     "global_store_short v1, v4, s[4:5] offset:2"),
            SIM_FAULT_NONE);
   CHECK_EQ(w->v[4][5], 5 * 3 + 1);
   CHECK_EQ(w->v[6][0], 129 * 3);
   CHECK_EQ(w->v[7][0], 130 * 3);
   CHECK_EQ(buf[128 + 10], 10 * 3 + 1);
   /* lane 1: short at byte 4*1+8+2 = 14 -> high half of buf[3] */
   CHECK_EQ(buf[3] >> 16, (1 * 3 + 1) & 0xFFFF);
}

/* The lowering tests' buffers: `buf` holds i * 7 + 1 at dword i, `out` is empty; 4 KiB each. */
static void
lowered_bufs(uint32_t **buf, uint32_t **out)
{
   *buf = t_alloc(4096, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   *out = t_alloc(4096, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   for (unsigned i = 0; i < 1024; i++)
      (*buf)[i] = i * 7 + 1;
}

/* The address patterns of the translator's GLOBAL/FLAT lowering (sim_xlate_mem.c; under
 * HSACL_SIM_XLATE=check every one is compared with the interpreter): consecutive dwords in
 * each 16-lane segment, one address a segment, a gather, unit-stride x2, a gather x4,
 * segment stores, a scatter whose lanes collide (the last lane wins), an x2 store whose
 * lanes overlap (through the handler), partial EXEC and EXEC zero (nothing happens, not
 * even a fault). */
TEST(global_lowered_patterns)
{
   uint32_t *buf, *out;
   lowered_bufs(&buf, &out);
   sim_wave *w = t_wave();
   for (unsigned l = 0; l < 64; l++) {
      uint64_t seg = 4 * ((l / 16) * 100 + l % 16), uni = 4 * (l / 16 * 5);
      uint64_t gat = 4 * ((l * 37) % 512);
      set_lane_ptr(w, 0, l, (uint8_t *)buf + seg);
      set_lane_ptr(w, 2, l, (uint8_t *)buf + uni);
      set_lane_ptr(w, 4, l, (uint8_t *)buf + gat);
      set_lane_ptr(w, 6, l, (uint8_t *)buf + 2048 + 8 * l);
      set_lane_ptr(w, 22, l, (uint8_t *)out + seg);
      set_lane_ptr(w, 24, l, (uint8_t *)out + 3000 + 4 * (l % 8));
      set_lane_ptr(w, 26, l, (uint8_t *)out + 2048 + 8 * l);
      set_lane_ptr(w, 30, l, (uint8_t *)out + 3200 + 4 * (l % 4));
      set_lane_ptr(w, 32, l, (void *)(uintptr_t)0x10); /* never reached: EXEC is 0 */
      w->v[28][l] = 0xDEAD;
   }
   CHECK_EQ(t_run(w, "global_load_dword v10, v[0:1], off\n"
                     "global_load_dword v11, v[2:3], off\n"
                     "global_load_dword v12, v[4:5], off offset:4\n"
                     "global_load_dwordx2 v[14:15], v[6:7], off\n"
                     "flat_load_dwordx4 v[16:19], v[4:5]\n"
                     "s_waitcnt vmcnt(0) lgkmcnt(0)\n"
                     "v_add_u32 v20, 1, v10\n"
                     "global_store_dword v[22:23], v20, off\n"
                     "global_store_dword v[24:25], v12, off\n"
                     "global_store_dwordx2 v[26:27], v[14:15], off\n"
                     "global_store_dwordx2 v[30:31], v[16:17], off\n"
                     "s_mov_b64 exec, 0x5555\n"
                     "global_load_dword v28, v[4:5], off\n"
                     "s_mov_b64 exec, 0\n"
                     "global_store_dword v[32:33], v10, off\n"
                     "global_load_dword v29, v[32:33], off"),
            SIM_FAULT_NONE);
   for (unsigned l = 0; l < 64; l++) {
      unsigned seg = (l / 16) * 100 + l % 16, gat = (l * 37) % 512;
      CHECK_EQ(w->v[10][l], seg * 7 + 1);
      CHECK_EQ(w->v[11][l], (l / 16 * 5) * 7 + 1);
      CHECK_EQ(w->v[12][l], (gat + 1) * 7 + 1);
      CHECK_EQ(w->v[14][l], (512 + 2 * l) * 7 + 1);
      CHECK_EQ(w->v[15][l], (513 + 2 * l) * 7 + 1);
      CHECK_EQ(w->v[19][l], (gat + 3) * 7 + 1);
      CHECK_EQ(out[seg], seg * 7 + 2);
      CHECK_EQ(out[512 + 2 * l + 1], (513 + 2 * l) * 7 + 1);
      CHECK_EQ(w->v[28][l], l < 16 && l % 2 == 0 ? gat * 7 + 1 : 0xDEAD);
   }
   for (unsigned j = 0; j < 8; j++) /* lane 56 + j stored last at dword j */
      CHECK_EQ(out[750 + j], (((56 + j) * 37 % 512) + 1) * 7 + 1);
   /* x2 lanes at dword 800 + l % 4: lane 63 writes 803 and 804 last (803 was lane 62's
    * second dword), 802 is lane 62's first. */
   CHECK_EQ(out[804], (63 * 37 % 512) * 7 + 8);
   CHECK_EQ(out[803], (63 * 37 % 512) * 7 + 1);
   CHECK_EQ(out[802], (62 * 37 % 512) * 7 + 1);
}

/* The byte and short forms the translator lowers (a masked gather or scatter of i8/i16):
 * zero and sign extension of bytes and shorts at every alignment, an SGPR base with an
 * offset, FLAT, stores whose lanes collide (the last lane wins), a partial EXEC (inactive
 * lanes keep their rows), the destination as its own address, a byte past the end of the
 * allocation (the handler faults as interpreted). */
static void *alloc_before_hole(size_t size);

TEST(global_lowered_sub)
{
   uint32_t *buf, *out;
   lowered_bufs(&buf, &out);
   const uint8_t *b8 = (const uint8_t *)buf;
   sim_wave *w = t_wave();
   for (unsigned l = 0; l < 64; l++) {
      unsigned at = (l * 37) % 4000;
      set_lane_ptr(w, 0, l, (uint8_t *)buf + at);
      set_lane_ptr(w, 2, l, (uint8_t *)out + 2 * (l % 8)); /* shorts that collide */
      set_lane_ptr(w, 4, l, (uint8_t *)out + 100 + l);     /* bytes, consecutive */
      w->v[6][l] = 3 * l + 1;                                /* offsets from s[10:11] */
      w->v[7][l] = 0x12345678u + l * 0x01020305u; /* four different bytes */
      for (unsigned r = 10; r < 20; r++)
         w->v[r][l] = 0xDEAD;
   }
   uint64_t base = (uint64_t)(uintptr_t)buf;
   w->s[10] = (uint32_t)base, w->s[11] = (uint32_t)(base >> 32);
   SIM_EXEC(w) = 0xFFFFFFFFFFFFFFF7ull;
   CHECK_EQ(t_run(w, "global_load_ubyte v10, v[0:1], off\n"
                     "global_load_sbyte v11, v[0:1], off offset:1\n"
                     "global_load_ushort v12, v[0:1], off offset:1\n"
                     "global_load_sshort v13, v[0:1], off offset:2\n"
                     "global_load_sbyte v14, v6, s[10:11] offset:7\n"
                     "flat_load_ushort v15, v[0:1]\n"
                     "global_store_short v[2:3], v7, off\n"
                     "global_store_byte v[4:5], v7, off\n"
                     "flat_store_byte v[4:5], v7 offset:64\n"
                     "v_mov_b32 v16, v0\n"
                     "v_mov_b32 v17, v1\n"
                     "global_load_ubyte v16, v[16:17], off offset:3"),
            SIM_FAULT_NONE);
   const uint8_t *o8 = (const uint8_t *)out;
   unsigned bad = 0;
   for (unsigned l = 0; l < 64; l++) {
      unsigned at = (l * 37) % 4000;
      if (l == 3) {
         for (unsigned r = 10; r < 16; r++)
            bad += w->v[r][l] != 0xDEAD;
         bad += o8[100 + l] != 0 || o8[164 + l] != 0;
         continue;
      }
      uint16_t u1, u2;
      memcpy(&u1, b8 + at + 1, 2);
      memcpy(&u2, b8 + at + 2, 2);
      bad += w->v[10][l] != b8[at];
      bad += w->v[11][l] != (uint32_t)(int32_t)(int8_t)b8[at + 1];
      bad += w->v[12][l] != u1;
      bad += w->v[13][l] != (uint32_t)(int32_t)(int16_t)u2;
      bad += w->v[14][l] != (uint32_t)(int32_t)(int8_t)b8[3 * l + 8];
      uint16_t u0;
      memcpy(&u0, b8 + at, 2);
      bad += w->v[15][l] != u0;
      bad += w->v[16][l] != b8[at + 3];
      bad += o8[100 + l] != (uint8_t)w->v[7][l] || o8[164 + l] != (uint8_t)w->v[7][l];
   }
   CHECK_EQ(bad, 0);
   /* Lanes l % 8 == j collide at short j: lane 56 + j stores last. */
   for (unsigned j = 0; j < 8; j++) {
      uint16_t v;
      memcpy(&v, o8 + 2 * j, 2);
      CHECK_EQ(v, (uint16_t)(0x12345678u + (56 + j) * 0x01020305u));
   }
   /* One lane's byte past an allocation's end: a fault, as interpreted. Past one whose next
    * page is no allocation: `buf`'s may be `out` (a sanitizer's heap places blocks back to
    * back; the ThreadSanitizer pass saw no fault there). */
   set_lane_ptr(w, 0, 9, (uint8_t *)alloc_before_hole(4096) + 4096);
   SIM_EXEC(w) = ~0ull;
   CHECK_EQ(t_run(w, "global_load_ubyte v18, v[0:1], off"), SIM_FAULT_MEMORY_VIOLATION);
}

/* Full waves (the constant-EXEC variant in the checking mode) at unit stride: dword and x4
 * loads and a store, the same with one lane out of step (lane 40 a dword further), with one
 * lane's high word different (lane 63's 4 GiB further: the handler, which faults), and
 * with the last lane one dword past the allocation's end (the bounds the block checks must
 * reach it: a fault, for a load and a store). */
TEST(global_lowered_unit_stride)
{
   uint32_t *buf, *out;
   lowered_bufs(&buf, &out);
   sim_wave *w = t_wave();
   for (unsigned l = 0; l < 64; l++) {
      set_lane_ptr(w, 0, l, (uint8_t *)buf + 4 * l);
      set_lane_ptr(w, 2, l, (uint8_t *)buf + 1024 + 16 * l);
      set_lane_ptr(w, 4, l, (uint8_t *)buf + 4 * l + (l == 40 ? 4 : 0));
      set_lane_ptr(w, 6, l, (uint8_t *)out + 4 * l);
   }
   CHECK_EQ(t_run(w, "global_load_dword v10, v[0:1], off\n"
                     "global_load_dwordx4 v[12:15], v[2:3], off\n"
                     "global_load_dword v11, v[4:5], off offset:8\n"
                     "s_waitcnt vmcnt(0)\n"
                     "v_add_u32 v16, v10, v15\n"
                     "global_store_dword v[6:7], v16, off"),
            SIM_FAULT_NONE);
   unsigned bad = 0;
   for (unsigned l = 0; l < 64; l++) {
      bad += w->v[10][l] != l * 7 + 1;
      bad += w->v[12][l] != (256 + 4 * l) * 7 + 1 || w->v[15][l] != (259 + 4 * l) * 7 + 1;
      bad += w->v[11][l] != (l + 2 + (l == 40)) * 7 + 1;
      bad += out[l] != l * 7 + 1 + (259 + 4 * l) * 7 + 1;
   }
   CHECK_EQ(bad, 0);
   w = t_wave();
   for (unsigned l = 0; l < 64; l++)
      set_lane_ptr(w, 0, l, (uint8_t *)buf + 4 * l);
   w->v[1][63] += 1;
   CHECK_EQ(t_run(w, "global_load_dword v10, v[0:1], off"), SIM_FAULT_MEMORY_VIOLATION);
   uint8_t *end = (uint8_t *)alloc_before_hole(4096) + 4096;
   w = t_wave();
   for (unsigned l = 0; l < 64; l++)
      set_lane_ptr(w, 0, l, end - 63 * 4 + 4 * l); /* lane 63 at the end */
   CHECK_EQ(t_run(w, "global_load_dword v10, v[0:1], off"), SIM_FAULT_MEMORY_VIOLATION);
   CHECK_EQ(t_run(w, "global_load_dword v10, v[0:1], off offset:-4"), SIM_FAULT_NONE);
   CHECK_EQ(t_run(w, "global_store_dword v[0:1], v10, off"), SIM_FAULT_MEMORY_VIOLATION);
   CHECK_EQ(t_run(w, "global_store_dword v[0:1], v10, off offset:-4"), SIM_FAULT_NONE);
}

/* One active lane (the lowering's scalar path, sim_xlate_mem.c one_lane): lanes 37, 0 and
 * 63 load and store alone, dword and multi-dword forms (an x2 store 16 bytes a lane apart
 * is not unit stride); the other lanes' registers and addresses are untouched; lane 37's
 * bounds are its own. */
TEST(global_lowered_one_lane)
{
   uint32_t *buf, *out;
   lowered_bufs(&buf, &out);
   sim_wave *w = t_wave();
   for (unsigned l = 0; l < 64; l++) {
      set_lane_ptr(w, 0, l, (uint8_t *)buf + 4 * ((l * 37) % 512));
      set_lane_ptr(w, 2, l, (uint8_t *)out + 16 * l);
      for (unsigned r = 10; r < 14; r++)
         w->v[r][l] = 0xDEAD;
      w->v[20][l] = 1000 + l;
      w->v[21][l] = 2000 + l;
   }
   CHECK_EQ(t_run(w, "s_lshl_b64 exec, 1, 37\n"
                     "global_load_dword v10, v[0:1], off\n"
                     "global_load_dwordx2 v[12:13], v[0:1], off offset:8\n"
                     "s_waitcnt vmcnt(0)\n"
                     "global_store_dwordx2 v[2:3], v[20:21], off\n"
                     "global_store_dword v[2:3], v10, off offset:8\n"
                     "s_mov_b64 exec, 1\n"
                     "global_store_dword v[2:3], v20, off offset:12\n"
                     "s_lshl_b64 exec, 1, 63\n"
                     "global_load_dword v11, v[0:1], off\n"
                     "s_waitcnt vmcnt(0)\n"
                     "global_store_dword v[2:3], v11, off offset:12"),
            SIM_FAULT_NONE);
   unsigned g37 = 37 * 37 % 512, g63 = 63 * 37 % 512;
   for (unsigned l = 0; l < 64; l++) {
      CHECK_EQ(w->v[10][l], l == 37 ? g37 * 7 + 1 : 0xDEAD);
      CHECK_EQ(w->v[11][l], l == 63 ? g63 * 7 + 1 : 0xDEAD);
      CHECK_EQ(w->v[12][l], l == 37 ? (g37 + 2) * 7 + 1 : 0xDEAD);
      CHECK_EQ(w->v[13][l], l == 37 ? (g37 + 3) * 7 + 1 : 0xDEAD);
   }
   CHECK_EQ(out[37 * 4], 1037);
   CHECK_EQ(out[37 * 4 + 1], 2037);
   CHECK_EQ(out[37 * 4 + 2], g37 * 7 + 1);
   CHECK_EQ(out[3], 1000);
   CHECK_EQ(out[63 * 4 + 3], g63 * 7 + 1);
   unsigned written = 0;
   for (unsigned i = 0; i < 1024; i++)
      written += out[i] != 0;
   CHECK_EQ(written, 5);
   /* Lane 37 alone, one dword past an allocation's end, lane 0 inside it: the bounds the
    * block checks are lane 37's (a fault; the checking mode stops a block that runs an
    * access the interpreter faults on). */
   uint8_t *end = (uint8_t *)alloc_before_hole(4096) + 4096;
   w = t_wave();
   set_lane_ptr(w, 0, 0, end - 4);
   set_lane_ptr(w, 0, 37, end);
   CHECK_EQ(t_run(w, "s_lshl_b64 exec, 1, 37\n"
                     "global_load_dword v10, v[0:1], off"),
            SIM_FAULT_MEMORY_VIOLATION);
}

/* An allocation of SIZE bytes (page-aligned) whose next page is host memory but no
 * allocation, whatever the heap's layout (a sanitizer's heap places blocks back to back):
 * an access there faults by the allocation check. */
static void *
alloc_before_hole(size_t size)
{
   size_t rounded = (size + 4095) & ~(size_t)4095;
   void *p = aligned_alloc(4096, rounded + 4096);
   t_register(p, size, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   return p;
}

/* A fault in a translated block's load or store (sim_xlate_mem.c calls the handler then):
 * the interpreter's kind and address, the lanes before the faulting one done, and nothing
 * after the faulting instruction. */
TEST(fault_lowered_access)
{
   uint32_t *buf = alloc_before_hole(4096);
   uint32_t *out = t_alloc(4096, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   for (unsigned i = 0; i < 1024; i++)
      buf[i] = i + 100;
   sim_wave *w = t_wave();
   set_ptr_vgpr(w, 0, buf, 4);
   set_lane_ptr(w, 0, 40, (uint8_t *)buf + 4096); /* the next page: no allocation */
   set_ptr_vgpr(w, 2, out, 4);
   for (unsigned l = 0; l < 64; l++)
      w->v[4][l] = 0xAAAA;
   CHECK_EQ(t_run(w, "v_mov_b32 v6, 7\n"
                     "global_load_dword v4, v[0:1], off\n"
                     "global_store_dword v[2:3], v6, off"),
            SIM_FAULT_MEMORY_VIOLATION);
   CHECK_EQ(t_fault.address, (uint64_t)(uintptr_t)buf + 4096);
   CHECK_EQ(w->v[4][39], 139);
   CHECK_EQ(w->v[4][41], 0xAAAA);
   CHECK_EQ(out[0], 0);
   w = t_wave();
   set_ptr_vgpr(w, 0, buf, 4);
   set_lane_ptr(w, 0, 40, (uint8_t *)buf + 4096);
   set_ptr_vgpr(w, 2, out, 4);
   CHECK_EQ(t_run(w, "v_mov_b32 v6, 7\n"
                     "global_store_dword v[0:1], v6, off\n"
                     "global_store_dword v[2:3], v6, off"),
            SIM_FAULT_MEMORY_VIOLATION);
   CHECK_EQ(t_fault.address, (uint64_t)(uintptr_t)buf + 4096);
   CHECK_EQ(buf[39], 7);
   CHECK_EQ(buf[41], 141);
   CHECK_EQ(out[0], 0);
   CHECK_EQ(out[63], 0);
}

/* The translator's inline allocation check (sim_wg.xlast): one global load in a loop over
 * pointers to A, A + 256 bytes, B and a range leaving B at lane 40. The first run fills
 * the instruction's slot, the second hits it, the third misses it (another allocation)
 * and the fourth goes past B's end: the handler faults with lanes 0-39 loaded. */
TEST(global_lowered_last_alloc)
{
   uint32_t *a = t_alloc(4096, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   uint32_t *b = alloc_before_hole(4096);
   for (unsigned i = 0; i < 1024; i++) {
      a[i] = 1000 + i;
      b[i] = 2000 + i;
   }
   sim_wave *w = t_wave();
   set_ptr_vgpr(w, 0, a, 4);
   set_ptr_vgpr(w, 2, a + 64, 4);
   set_ptr_vgpr(w, 4, b, 4);
   set_ptr_vgpr(w, 6, b + 512, 4);
   set_lane_ptr(w, 6, 40, (uint8_t *)b + 4096);
   w->s[10] = 4;
   CHECK_EQ(t_run(w, "loop:\n"
                     "global_load_dword v8, v[0:1], off\n"
                     "s_waitcnt vmcnt(0)\n"
                     "v_add_u32 v9, v9, v8\n"
                     "v_mov_b32 v0, v2\n"
                     "v_mov_b32 v1, v3\n"
                     "v_mov_b32 v2, v4\n"
                     "v_mov_b32 v3, v5\n"
                     "v_mov_b32 v4, v6\n"
                     "v_mov_b32 v5, v7\n"
                     "s_sub_u32 s10, s10, 1\n"
                     "s_cmp_lg_u32 s10, 0\n"
                     "s_cbranch_scc1 loop"),
            SIM_FAULT_MEMORY_VIOLATION);
   CHECK_EQ(t_fault.address, (uint64_t)(uintptr_t)b + 4096);
   for (unsigned l = 0; l < 64; l++)
      CHECK_EQ(w->v[9][l], (1000 + l) + (1064 + l) + (2000 + l));
   CHECK_EQ(w->v[8][39], 2512 + 39);
   CHECK_EQ(w->v[8][41], 2000 + 41);
}

/* The VGPR rows a translated block holds in values (sim_xlate.c's xl_rows_retire) under
 * a partial EXEC: a chain of nine rows, more than the block holds, read back in the
 * opposite order (each stored, forgotten and read again from the register file), a row
 * never read again, one written twice, a lowered load whose address rows were retired, a
 * called instruction (v_sad_u32) and a lowered load faulting at lane 40: the rows written
 * before the fault hold their values in EXEC's lanes and their old ones elsewhere, the
 * faulting load's lanes 0-39 are loaded and the row after it is untouched. */
TEST(lowered_rows_retired)
{
   uint32_t *buf = alloc_before_hole(4096);
   for (unsigned i = 0; i < 1024; i++)
      buf[i] = 3 * i + 1;
   sim_wave *w = t_wave();
   set_ptr_vgpr(w, 0, buf, 4);
   set_ptr_vgpr(w, 2, buf + 64, 4);
   set_lane_ptr(w, 2, 40, (uint8_t *)buf + 4096); /* the next page: no allocation */
   for (unsigned l = 0; l < 64; l++) {
      w->v[4][l] = l;
      for (unsigned r = 10; r < 26; r++)
         w->v[r][l] = 0xC0DE0000 + r * 64 + l;
   }
   uint64_t exec = 0xF0F0FFFF0000FFF7ull;
   SIM_EXEC(w) = exec;
   CHECK_EQ(t_run(w, "v_add_u32 v10, v4, 1\n"
                     "v_add_u32 v11, v10, v4\n"
                     "v_add_u32 v12, v11, v4\n"
                     "v_add_u32 v13, v12, v4\n"
                     "v_add_u32 v14, v13, v4\n"
                     "v_add_u32 v15, v14, v4\n"
                     "v_add_u32 v16, v15, v4\n"
                     "v_add_u32 v17, v16, v4\n"
                     "v_add_u32 v18, v17, v4\n"
                     "v_mov_b32 v19, 5\n"
                     "global_load_dword v20, v[0:1], off\n"
                     "s_waitcnt vmcnt(0)\n"
                     "v_add_u32 v21, v18, v17\n"
                     "v_add_u32 v21, v21, v16\n"
                     "v_add_u32 v21, v21, v15\n"
                     "v_add_u32 v21, v21, v14\n"
                     "v_add_u32 v21, v21, v13\n"
                     "v_add_u32 v21, v21, v12\n"
                     "v_add_u32 v21, v21, v11\n"
                     "v_add_u32 v21, v21, v10\n"
                     "v_mul_lo_u32 v10, v10, v20\n"
                     "v_sad_u32 v22, v10, v11, v12\n"
                     "v_add_u32 v23, v22, v13\n"
                     "global_load_dword v24, v[2:3], off\n"
                     "s_waitcnt vmcnt(0)\n"
                     "v_mov_b32 v25, 9"),
            SIM_FAULT_MEMORY_VIOLATION);
   CHECK_EQ(t_fault.address, (uint64_t)(uintptr_t)buf + 4096);
   for (unsigned l = 0; l < 64; l++) {
      uint32_t on = (exec >> l) & 1, chain[9], sum = 0;
      for (unsigned k = 0; k < 9; k++) {
         chain[k] = (k + 1) * l + 1;
         sum += chain[k];
         if (k > 0)
            CHECK_EQ(w->v[10 + k][l], on ? chain[k] : 0xC0DE0000 + (10 + k) * 64 + l);
      }
      uint32_t v10 = chain[0] * (3 * l + 1), v22 = v10 - chain[1] + chain[2];
      CHECK_EQ(w->v[10][l], on ? v10 : 0xC0DE0000 + 10 * 64 + l);
      CHECK_EQ(w->v[19][l], on ? 5 : 0xC0DE0000 + 19 * 64 + l);
      CHECK_EQ(w->v[20][l], on ? 3 * l + 1 : 0xC0DE0000 + 20 * 64 + l);
      CHECK_EQ(w->v[21][l], on ? sum : 0xC0DE0000 + 21 * 64 + l);
      CHECK_EQ(w->v[22][l], on ? v22 : 0xC0DE0000 + 22 * 64 + l);
      CHECK_EQ(w->v[23][l], on ? v22 + chain[3] : 0xC0DE0000 + 23 * 64 + l);
      CHECK_EQ(w->v[24][l], on && l < 40 ? 3 * (64 + l) + 1 : 0xC0DE0000 + 24 * 64 + l);
      CHECK_EQ(w->v[25][l], 0xC0DE0000 + 25 * 64 + l);
   }
}

/* The forms of the translator's SMEM lowering (sim_xlate_mem.c; HSACL_SIM_XLATE=check
 * compares each with the interpreter): s_load_dword to x16 with an immediate offset, an
 * SGPR offset, SOE (SGPR plus immediate), an unaligned offset (the address's low bits are
 * dropped), s_buffer_load through a V# whose bits 48+ are set, a pointer loaded over its
 * own base and used by the next load, and a loaded value used by a lowered SALU op. */
TEST(smem_lowered_forms)
{
   uint32_t *buf = t_alloc(4096, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   for (unsigned i = 0; i < 1024; i++)
      buf[i] = 0x1000 + i;
   uint64_t at = (uint64_t)(uintptr_t)(buf + 200);
   buf[100] = (uint32_t)at;
   buf[101] = (uint32_t)(at >> 32);
   sim_wave *w = t_wave();
   set_ptr_sgpr(w, 4, buf);
   set_ptr_sgpr(w, 60, buf);
   set_ptr_sgpr(w, 64, buf);
   w->s[65] |= 0x00AB0000u; /* V# bits 48+: not address */
   w->s[20] = 24;
   CHECK_EQ(t_run(w, "s_load_dword s8, s[4:5], 0x6\n"
                     "s_load_dwordx2 s[10:11], s[4:5], s20\n"
                     "s_load_dwordx4 s[12:15], s[4:5], s20 offset:0x10\n"
                     "s_load_dwordx8 s[16:23], s[4:5], 0x40\n"
                     "s_load_dwordx16 s[24:39], s[4:5], 0x80\n"
                     "s_buffer_load_dword s40, s[64:67], 0x8\n"
                     "s_buffer_load_dwordx2 s[42:43], s[64:67], 0x10\n"
                     "s_load_dwordx2 s[60:61], s[60:61], 0x190\n"
                     "s_load_dword s62, s[60:61], 0x4\n"
                     "s_waitcnt lgkmcnt(0)\n"
                     "s_add_u32 s63, s8, s62"),
            SIM_FAULT_NONE);
   CHECK_EQ(w->s[8], 0x1001);
   CHECK_EQ(w->s[10], 0x1006);
   CHECK_EQ(w->s[11], 0x1007);
   CHECK_EQ(w->s[12], 0x100A);
   CHECK_EQ(w->s[15], 0x100D);
   for (unsigned i = 0; i < 8; i++)
      CHECK_EQ(w->s[16 + i], 0x1010 + i);
   for (unsigned i = 0; i < 16; i++)
      CHECK_EQ(w->s[24 + i], 0x1020 + i);
   CHECK_EQ(w->s[40], 0x1002);
   CHECK_EQ(w->s[43], 0x1005);
   CHECK_EQ(w->s[60], (uint32_t)at);
   CHECK_EQ(w->s[62], 0x1000 + 201);
   CHECK_EQ(w->s[63], 0x1001 + 0x1000 + 201);
}

/* A faulting scalar load in a translated block (the handler runs then): the interpreter's
 * kind and address, the instruction before it done and the one after it not; one past
 * the end of an allocation, and one straddling it. */
TEST(fault_lowered_smem)
{
   uint32_t *buf = alloc_before_hole(4096);
   for (unsigned k = 0; k < 2; k++) {
      sim_wave *w = t_wave();
      set_ptr_sgpr(w, 4, (uint8_t *)buf + (k ? 4092 : 4096));
      CHECK_EQ(t_run(w, k ? "s_mov_b32 s8, 7\n"
                            "s_load_dwordx2 s[10:11], s[4:5], 0x0\n"
                            "s_mov_b32 s9, 7"
                          : "s_mov_b32 s8, 7\n"
                            "s_load_dword s10, s[4:5], 0x0\n"
                            "s_mov_b32 s9, 7"),
               SIM_FAULT_MEMORY_VIOLATION);
      CHECK_EQ(t_fault.address, (uint64_t)(uintptr_t)buf + (k ? 4092 : 4096));
      CHECK_EQ(w->s[8], 7);
      CHECK_EQ(w->s[9], 0);
      CHECK_EQ(w->s[10], 0);
   }
}

/* global atomics: add without return from every lane, cmpswap with return. */
TEST(global_atomics)
{
   uint32_t *buf = t_alloc(64, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   uint64_t *b64 = (uint64_t *)(buf + 8);
   buf[0] = 10;
   buf[1] = 5;
   b64[0] = 0xFFFFFFFFull;
   sim_wave *w = t_wave();
   set_ptr_sgpr(w, 4, buf);
   for (unsigned l = 0; l < 64; l++) {
      w->v[1][l] = 0;
      w->v[2][l] = 1;
      w->v[3][l] = 4;  /* offset of buf[1] */
      w->v[6][l] = 99; /* cmpswap src */
      w->v[7][l] = 5;  /* cmpswap cmp */
      w->v[8][l] = 32; /* offset of b64 */
   }
   for (unsigned l = 0; l < 64; l++)
      w->v[10][l] = 1;
   SIM_EXEC(w) = ~0ull;
   CHECK_EQ(t_run(w, "global_atomic_add v1, v2, s[4:5]\n"
                     "global_atomic_cmpswap v9, v3, v[6:7], s[4:5] glc\n"
                     "v_mov_b32 v11, 0\n"
                     "global_atomic_add_x2 v[12:13], v8, v[10:11], s[4:5] glc"),
            SIM_FAULT_NONE);
   CHECK_EQ(buf[0], 10 + 64);
   CHECK_EQ(buf[1], 99);
   CHECK_EQ(w->v[9][0], 5);  /* first lane saw the old value */
   CHECK_EQ(w->v[9][1], 99); /* later lanes saw the swapped one */
   CHECK_EQ(b64[0], 0xFFFFFFFFull + 64);
   CHECK_EQ(w->v[12][0], 0xFFFFFFFFu);
   CHECK_EQ(w->v[13][1], 1); /* carry into the high dword */
}

/* Lanes naming the same address are combined (sim__vm_atomic): still lane order, each lane
 * returns the value before its own operation, lanes of other addresses and lanes outside
 * EXEC are not mixed in. Lanes alternate between two counters; odd lanes 1..15 are off. */
TEST(global_atomics_combined)
{
   uint32_t *buf = t_alloc(64, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   buf[0] = 1000;
   buf[1] = 7;
   buf[2] = 0;
   sim_wave *w = t_wave();
   set_ptr_sgpr(w, 4, buf);
   uint64_t exec = ~0ull;
   for (unsigned l = 1; l < 16; l += 2)
      exec &= ~(1ull << l);
   for (unsigned l = 0; l < 64; l++) {
      w->v[1][l] = (l & 1) * 4; /* even lanes buf[0], odd lanes buf[1] */
      w->v[2][l] = l + 1;       /* add operand */
      w->v[3][l] = 8;           /* buf[2] */
      w->v[4][l] = 63 - l;      /* umax operand */
   }
   SIM_EXEC(w) = exec;
   CHECK_EQ(t_run(w, "global_atomic_add v5, v1, v2, s[4:5] glc\n"
                     "global_atomic_umax v6, v3, v4, s[4:5] glc"),
            SIM_FAULT_NONE);
   uint32_t even = 1000, odd = 7, mx = 0;
   bool ok = true;
   for (unsigned l = 0; l < 64; l++) {
      if (!((exec >> l) & 1))
         continue;
      uint32_t *ctr = (l & 1) ? &odd : &even;
      ok &= w->v[5][l] == *ctr;
      *ctr += l + 1;
      ok &= w->v[6][l] == mx;
      if (63 - l > mx)
         mx = 63 - l;
   }
   CHECK(ok);
   CHECK_EQ(buf[0], even);
   CHECK_EQ(buf[1], odd);
   CHECK_EQ(buf[2], 63);
   CHECK_EQ(w->v[5][0], 1000);
   CHECK_EQ(w->v[5][2], 1001);
   CHECK_EQ(w->v[5][17], 7); /* the first odd lane inside EXEC */
}

/* DS: 16-bit offsets, read2/write2 in dwords, st64, atomics with return. */
TEST(ds_ops)
{
   sim_wave *w = t_wave();
   for (unsigned l = 0; l < 64; l++) {
      w->v[0][l] = 4 * l;
      w->v[1][l] = l + 1;
      w->v[2][l] = 1000 + l;
   }
   CHECK_EQ(t_run(w, "ds_write_b32 v0, v1 offset:256\n"
                     "ds_write2_b32 v0, v1, v2 offset0:1 offset1:2\n"
                     "ds_read_b32 v3, v0 offset:256\n"
                     "ds_read2st64_b32 v[4:5], v0 offset0:1 offset1:0\n"
                     "ds_add_rtn_u32 v6, v0, v1 offset:256\n"
                     "ds_read_u8 v7, v0 offset:256\n"
                     "s_waitcnt lgkmcnt(0)"),
            SIM_FAULT_NONE);
   uint32_t v;
   memcpy(&v, t_lds + 256 + 4 * 7, 4);
   CHECK_EQ(v, 16);                 /* 8 + 8 */
   CHECK_EQ(w->v[3][7], 8);
   CHECK_EQ(w->v[4][0], 64);        /* st64: byte 256 = lane 0's first write = 1 ... */
   CHECK_EQ(w->v[6][7], 8);         /* returned pre-add value */
   /* write2: lane l writes dword l+1 = l+1 then dword l+2 = 1000+l; lane l+1 writes later */
   memcpy(&v, t_lds + 4 * 1, 4);
   CHECK_EQ(v, 1);
   memcpy(&v, t_lds + 4 * 65, 4);
   CHECK_EQ(v, 1000 + 63 + 2); /* then lane 1 of ds_add_rtn (offset 256 + 4) added 2 */
   CHECK_EQ(w->v[7][2], 6); /* (3 + 3) & 0xff, lane 2's dword at 264 */
}

/* The patterns of the translator's DS lowering (sim_xlate_mem.c; HSACL_SIM_XLATE=check
 * compares each with the interpreter): consecutive dwords (one vector store and load), a
 * gather, a scatter whose lanes collide (the last lane wins), b64 consecutive and
 * gathered, a b64 store whose lanes overlap (through the handler), consecutive lanes of a
 * partial EXEC starting past lane 0 (reduce's l[lid + s] while lid < s), a partial-EXEC
 * gather, the destination as the address, and EXEC zero with addresses beyond the LDS
 * (nothing happens, not even a fault). */
TEST(ds_lowered_patterns)
{
   sim_wave *w = t_wave();
   for (unsigned l = 0; l < 64; l++) {
      w->v[0][l] = 4 * l;
      w->v[1][l] = 100 + l;
      w->v[2][l] = 4 * ((l * 37) % 512);
      w->v[3][l] = 4096 + 4 * (l % 8);
      w->v[4][l] = 8192 + 8 * l;
      w->v[5][l] = 12288 + 4 * (l % 4);
      w->v[6][l] = 0x6000 + l;
      w->v[7][l] = 0x7000 + l;
      w->v[16][l] = 256 + 4 * ((l * 5) % 64);
      w->v[17][l] = 0x80000; /* beyond the LDS: never reached, EXEC is 0 */
      w->v[14][l] = 0xDEAD;
      w->v[15][l] = 0xDEAD;
   }
   for (unsigned i = 0; i < 1024; i++) {
      uint32_t v = 3 * i + 1;
      memcpy(t_lds + 4 * i, &v, 4);
   }
   CHECK_EQ(t_run(w, "ds_read_b32 v10, v2 offset:4\n"
                     "ds_write_b32 v0, v1 offset:256\n"
                     "ds_read_b32 v11, v0 offset:256\n"
                     "ds_write_b32 v3, v1\n"
                     "ds_write_b64 v4, v[6:7]\n"
                     "ds_read_b64 v[8:9], v4\n"
                     "ds_read_b64 v[12:13], v2\n"
                     "ds_write_b64 v5, v[6:7]\n"
                     "ds_read_b32 v16, v16\n"
                     "s_mov_b64 exec, 0xFF00\n"
                     "ds_read_b32 v14, v0 offset:256\n"
                     "ds_write_b32 v0, v14 offset:512\n"
                     "s_mov_b64 exec, 0x5555\n"
                     "ds_read_b32 v15, v2\n"
                     "s_mov_b64 exec, 0\n"
                     "ds_write_b32 v17, v1\n"
                     "ds_read_b32 v18, v17"),
            SIM_FAULT_NONE);
   for (unsigned l = 0; l < 64; l++) {
      unsigned gat = (l * 37) % 512;
      /* v10 read before the stores; v12/v13 after them (dwords 64-127 hold 100 + l). */
      CHECK_EQ(w->v[10][l], 3 * (gat + 1) + 1);
      CHECK_EQ(w->v[11][l], 100 + l);
      CHECK_EQ(t_lds32(8192 + 8 * l), 0x6000 + l);
      CHECK_EQ(w->v[8][l], 0x6000 + l);
      CHECK_EQ(w->v[9][l], 0x7000 + l);
      unsigned d0 = gat, d1 = gat + 1;
      CHECK_EQ(w->v[12][l], d0 >= 64 && d0 < 128 ? 100 + d0 - 64 : 3 * d0 + 1);
      CHECK_EQ(w->v[13][l], d1 >= 64 && d1 < 128 ? 100 + d1 - 64 : 3 * d1 + 1);
      CHECK_EQ(w->v[16][l], 100 + (l * 5) % 64);
      CHECK_EQ(w->v[14][l], l >= 8 && l < 16 ? 100 + l : 0xDEAD);
      CHECK_EQ(t_lds32(512 + 4 * l), l >= 8 && l < 16 ? 100 + l : 3 * (128 + l) + 1);
      unsigned late = gat >= 64 && gat < 128 ? 100 + gat - 64 : 3 * gat + 1;
      CHECK_EQ(w->v[15][l], l < 16 && l % 2 == 0 ? late : 0xDEAD);
   }
   for (unsigned j = 0; j < 8; j++) /* lane 56 + j stored last at dword j */
      CHECK_EQ(t_lds32(4096 + 4 * j), 100 + 56 + j);
   /* b64 lanes at 12288 + 4 * (l % 4): lane 63 writes dwords 3 and 4 last, lane 62 dword 2. */
   CHECK_EQ(t_lds32(12288 + 16), 0x7000 + 63);
   CHECK_EQ(t_lds32(12288 + 12), 0x6000 + 63);
   CHECK_EQ(t_lds32(12288 + 8), 0x6000 + 62);
   CHECK_EQ(t_lds32(12288 + 4), 0x6000 + 61);
}

/* The 96- and 128-bit DS forms the translator lowers (sim_xlate_mem.c), against the LDS
 * as the handler's lane loop leaves it: b128 consecutive (one vector access of four
 * interleaved rows), gathered, a b128 store whose lanes overlap (through the handler, lane
 * order kept), b96 consecutive, an offset, a partial EXEC starting past lane 0. In
 * sim_xlate_check_unit each block also runs translated, compared with the interpreter. */
TEST(ds_lowered_wide)
{
   sim_wave *w = t_wave();
   for (unsigned l = 0; l < 64; l++) {
      w->v[0][l] = 16 * l;
      w->v[1][l] = 2048 + 16 * ((l * 37) % 64);
      w->v[2][l] = 4096 + 12 * l;
      w->v[3][l] = 8192 + 4 * (l % 4);
      for (unsigned k = 0; k < 4; k++)
         w->v[4 + k][l] = (0x1000u << k) + l;
      for (unsigned r = 20; r < 40; r++)
         w->v[r][l] = 0xDEAD;
   }
   for (unsigned i = 0; i < 4096; i++) {
      uint32_t v = 5 * i + 3;
      memcpy(t_lds + 4 * i, &v, 4);
   }
   CHECK_EQ(t_run(w, "ds_read_b128 v[20:23], v1\n"
                     "ds_write_b128 v0, v[4:7]\n"
                     "ds_read_b128 v[24:27], v0\n"
                     "ds_write_b96 v2, v[4:6]\n"
                     "ds_read_b96 v[28:30], v2 offset:12\n"
                     "ds_write_b128 v3, v[4:7]\n"
                     "s_mov_b64 exec, 0xFFFF0000\n"
                     "ds_read_b128 v[32:35], v1 offset:16\n"
                     "ds_write_b128 v0, v[4:7] offset:1024"),
            SIM_FAULT_NONE);
   unsigned bad = 0;
   for (unsigned l = 0; l < 64; l++) {
      unsigned g = 512 + 4 * ((l * 37) % 64); /* dword of lane l's gather */
      for (unsigned k = 0; k < 4; k++) {
         bad += w->v[20 + k][l] != 5 * (g + k) + 3;
         bad += w->v[24 + k][l] != (0x1000u << k) + l;
         bad += t_lds32(16 * l + 4 * k) != (0x1000u << k) + l;
         /* offset 16: the next 16 bytes, dwords g + 4 .. g + 7, read after the stores above
          * (none of which reached 2048 + ...: b128 at 0..1023, b96 at 4096.., 8192..) */
         bool on = l >= 16 && l < 32;
         bad += w->v[32 + k][l] != (on ? 5 * (g + 4 + k) + 3 : 0xDEADu);
         bad += t_lds32(1024 + 16 * l + 4 * k) !=
                (on ? (0x1000u << k) + l : 5 * (256 + 4 * l + k) + 3);
      }
      for (unsigned k = 0; k < 3; k++) {
         bad += t_lds32(4096 + 12 * l + 4 * k) != (0x1000u << k) + l;
         /* offset 12: lane l reads lane l + 1's three dwords (lane 63 the dwords past them) */
         bad += w->v[28 + k][l] !=
                (l < 63 ? (0x1000u << k) + l + 1 : 5 * (1024 + 3 * 64 + k) + 3);
      }
   }
   CHECK_EQ(bad, 0);
   /* b128 lanes at 8192 + 4 * (l % 4): lane 63 writes dwords 3..6 last; lane 62 dword 2,
    * lane 61 dword 1, lane 60 dword 0. */
   for (unsigned k = 0; k < 4; k++)
      CHECK_EQ(t_lds32(8192 + 12 + 4 * k), (0x1000u << k) + 63);
   CHECK_EQ(t_lds32(8192 + 8), 0x1000u + 62);
   CHECK_EQ(t_lds32(8192 + 4), 0x1000u + 61);
   CHECK_EQ(t_lds32(8192), 0x1000u + 60);
}

/* The lowered-LDS fault tests' wave over 1024 bytes of LDS: v0 = 4 * lane, v1 = 512 +
 * 4 * lane, v4 = v5 = 0xAAAA; LDS dwords l and 64 + l hold 50 + l. */
static sim_wave *
lds_fault_wave(void)
{
   sim_wave *w = t_wave();
   t_lds_size = 1024;
   for (unsigned l = 0; l < 64; l++) {
      w->v[0][l] = 4 * l;
      w->v[1][l] = 512 + 4 * l;
      w->v[4][l] = w->v[5][l] = 0xAAAA;
      uint32_t v = 50 + l;
      memcpy(t_lds + 4 * l, &v, 4);
      memcpy(t_lds + 256 + 4 * l, &v, 4);
   }
   return w;
}

/* A DS access beyond the LDS in a translated block (the handler runs then): the
 * interpreter's fault and address, lanes before the faulting one done, nothing after the
 * faulting instruction. */
TEST(fault_lowered_lds)
{
   for (unsigned store = 0; store < 2; store++) {
      sim_wave *w = lds_fault_wave();
      w->v[0][40] = 1024;
      CHECK_EQ(t_run(w, store ? "v_mov_b32 v6, 7\n"
                                "ds_write_b32 v0, v6\n"
                                "ds_write_b32 v1, v6"
                              : "v_mov_b32 v6, 7\n"
                                "ds_read_b32 v4, v0\n"
                                "ds_write_b32 v1, v6"),
               SIM_FAULT_MEMORY_VIOLATION);
      CHECK_EQ(t_fault.address, SIM_APERTURE_SHARED_BASE + 1024);
      if (store) {
         CHECK_EQ(t_lds32(4 * 39), 7);
         CHECK_EQ(t_lds32(4 * 41), 50 + 41);
      } else {
         CHECK_EQ(w->v[4][39], 50 + 39);
         CHECK_EQ(w->v[4][41], 0xAAAA);
      }
      CHECK_EQ(t_lds32(512), 0);
   }
}

/* The translator's read2/write2 lowering (sim_xlate_mem.c; HSACL_SIM_XLATE=check compares
 * each with the interpreter): b32, b64 and st64 forms whose lanes are consecutive and whose
 * two ranges lie apart (two vector stores, two vector loads), a write2_b32 whose ranges
 * overlap (lane l's OFFSET1 dword is lane l + 1's OFFSET0 one: one scatter, lane order),
 * colliding lanes (the last write in lane order wins), a gathered read2, a b64 write2 whose
 * lanes overlap (through the handler), a partial EXEC starting past lane 0, the destination
 * as the address, and EXEC zero with addresses beyond the LDS (nothing happens). */
TEST(ds2_lowered_patterns)
{
   sim_wave *w = t_wave();
   for (unsigned l = 0; l < 64; l++) {
      w->v[0][l] = 4 * l;
      w->v[2][l] = 4 * ((l * 37) % 512);
      w->v[3][l] = 4096 + 4 * (l % 8);
      w->v[4][l] = 12288 + 8 * l;
      w->v[5][l] = 16384 + 8 * (l % 4);
      w->v[6][l] = 0x6000 + l;
      w->v[7][l] = 0x7000 + l;
      w->v[8][l] = 0x8000 + l;
      w->v[9][l] = 0x9000 + l;
      w->v[17][l] = 0x80000; /* beyond the LDS: never reached, EXEC is 0 */
      w->v[20][l] = 1024 + 4 * l;
      w->v[21][l] = 8192 + 4 * l;
      w->v[22][l] = 20480 + 8 * l;
      w->v[34][l] = 4 * l;
      w->v[32][l] = w->v[33][l] = w->v[36][l] = 0xDEAD;
   }
   for (unsigned i = 0; i < 16384; i++) {
      uint32_t v = 3 * i + 1;
      memcpy(t_lds + 4 * i, &v, 4);
   }
   CHECK_EQ(t_run(w, "ds_read2_b32 v[12:13], v2 offset0:1 offset1:3\n"
                     "ds_read2st64_b32 v[14:15], v0 offset0:1 offset1:2\n"
                     "ds_read2_b32 v[34:35], v34 offset1:1\n"
                     "ds_write2_b32 v0, v6, v7 offset1:64\n"
                     "ds_read2_b32 v[10:11], v0 offset1:64\n"
                     "ds_write2_b32 v20, v6, v7 offset1:1\n"
                     "ds_write2_b32 v3, v6, v7 offset1:2\n"
                     "ds_write2st64_b32 v21, v6, v7 offset1:1\n"
                     "ds_write2_b64 v4, v[6:7], v[8:9] offset1:64\n"
                     "ds_read2_b64 v[24:27], v4 offset1:64\n"
                     "ds_write2_b64 v5, v[6:7], v[8:9] offset1:1\n"
                     "ds_write2st64_b64 v22, v[6:7], v[8:9] offset1:1\n"
                     "ds_read2st64_b64 v[28:31], v22 offset1:1\n"
                     "s_mov_b64 exec, 0xFF00\n"
                     "ds_read2_b32 v[32:33], v0 offset0:2 offset1:16\n"
                     "ds_write2_b32 v0, v8, v9 offset0:128 offset1:192\n"
                     "s_mov_b64 exec, 0\n"
                     "ds_write2_b32 v17, v6, v7 offset1:1\n"
                     "ds_read2_b32 v[36:37], v17 offset1:1"),
            SIM_FAULT_NONE);
   for (unsigned l = 0; l < 64; l++) {
      unsigned gat = (l * 37) % 512;
      /* Before the stores: dword i holds 3i + 1. */
      CHECK_EQ(w->v[12][l], 3 * (gat + 1) + 1);
      CHECK_EQ(w->v[13][l], 3 * (gat + 3) + 1);
      CHECK_EQ(w->v[14][l], 3 * (l + 64) + 1);
      CHECK_EQ(w->v[15][l], 3 * (l + 128) + 1);
      CHECK_EQ(w->v[34][l], 3 * l + 1);
      CHECK_EQ(w->v[35][l], 3 * (l + 1) + 1);
      CHECK_EQ(w->v[10][l], 0x6000 + l);
      CHECK_EQ(w->v[11][l], 0x7000 + l);
      /* Overlapping ranges: lane l + 1's OFFSET0 store comes after lane l's OFFSET1 one. */
      CHECK_EQ(t_lds32(1024 + 4 * l), 0x6000 + l);
      CHECK_EQ(t_lds32(8192 + 4 * l), 0x6000 + l);
      CHECK_EQ(t_lds32(8192 + 256 + 4 * l), 0x7000 + l);
      CHECK_EQ(w->v[24][l], 0x6000 + l);
      CHECK_EQ(w->v[25][l], 0x7000 + l);
      CHECK_EQ(w->v[26][l], 0x8000 + l);
      CHECK_EQ(w->v[27][l], 0x9000 + l);
      CHECK_EQ(w->v[28][l], 0x6000 + l);
      CHECK_EQ(w->v[29][l], 0x7000 + l);
      CHECK_EQ(w->v[30][l], 0x8000 + l);
      CHECK_EQ(w->v[31][l], 0x9000 + l);
      bool on = l >= 8 && l < 16;
      /* Lanes 8-15 read dwords l + 2 and l + 16, which the write2 at v0 wrote. */
      CHECK_EQ(w->v[32][l], on ? 0x6000 + l + 2 : 0xDEAD);
      CHECK_EQ(w->v[33][l], on ? 0x6000 + l + 16 : 0xDEAD);
      CHECK_EQ(w->v[36][l], 0xDEAD);
   }
   CHECK_EQ(t_lds32(1024 + 256), 0x7000 + 63);
   /* write2 at 4096 + 4 * (l % 8) and 8 bytes on: dwords 0-1 last written by lanes 56-57's
    * OFFSET0, dwords 2-7 by lanes 58-63's OFFSET0 (after lanes 56-61's OFFSET1), dwords 8-9
    * by lanes 62-63's OFFSET1. */
   for (unsigned j = 0; j < 8; j++)
      CHECK_EQ(t_lds32(4096 + 4 * j), 0x6000 + 56 + j);
   CHECK_EQ(t_lds32(4096 + 32), 0x7000 + 62);
   CHECK_EQ(t_lds32(4096 + 36), 0x7000 + 63);
   /* write2_b64 lanes at 16384 + 8 * (l % 4), OFFSET1 8 bytes on: lane 63 writes dwords 6-7
    * and 8-9 last, lane 62 4-5 (OFFSET0) after lane 61's OFFSET1 at 4-5. */
   CHECK_EQ(t_lds32(16384 + 36), 0x9000 + 63);
   CHECK_EQ(t_lds32(16384 + 32), 0x8000 + 63);
   CHECK_EQ(t_lds32(16384 + 28), 0x7000 + 63);
   CHECK_EQ(t_lds32(16384 + 24), 0x6000 + 63);
   CHECK_EQ(t_lds32(16384 + 20), 0x7000 + 62);
   CHECK_EQ(t_lds32(16384 + 16), 0x6000 + 62);
   /* The partial-EXEC write2 (lanes 8-15) at dwords l + 128 and l + 192. */
   for (unsigned l = 0; l < 64; l++) {
      bool on = l >= 8 && l < 16;
      CHECK_EQ(t_lds32(4 * (l + 128)), on ? 0x8000 + l : 3 * (l + 128) + 1);
      CHECK_EQ(t_lds32(4 * (l + 192)), on ? 0x9000 + l : 3 * (l + 192) + 1);
   }
}

/* A read2 and a write2 beyond the LDS at lane 40 in a translated block, its OFFSET0
 * address inside and its OFFSET1 one past the end: the handler runs, faults at that
 * address, lanes 0-39 done (both of their addresses), nothing of lane 40 and after. */
TEST(fault_lowered_lds2)
{
   for (unsigned store = 0; store < 2; store++) {
      sim_wave *w = lds_fault_wave();
      w->v[0][40] = 1000;
      CHECK_EQ(t_run(w, store ? "v_mov_b32 v6, 7\n"
                                "ds_write2_b32 v0, v6, v6 offset1:8\n"
                                "ds_write_b32 v1, v6"
                              : "v_mov_b32 v6, 7\n"
                                "ds_read2_b32 v[4:5], v0 offset1:8\n"
                                "ds_write_b32 v1, v6"),
               SIM_FAULT_MEMORY_VIOLATION);
      CHECK_EQ(t_fault.address, SIM_APERTURE_SHARED_BASE + 1032);
      if (store) {
         /* Lanes 0-39 wrote dwords 0-39 and 8-47; lane 40 would write 250 and 258. */
         CHECK_EQ(t_lds32(4 * 47), 7);
         CHECK_EQ(t_lds32(4 * 48), 50 + 48);
         CHECK_EQ(t_lds32(1000), 0);
      } else {
         CHECK_EQ(w->v[4][39], 50 + 39);
         CHECK_EQ(w->v[5][39], 50 + 47);
         CHECK_EQ(w->v[4][40], 0xAAAA);
         CHECK_EQ(w->v[5][40], 0xAAAA);
      }
      CHECK_EQ(t_lds32(512), 0);
   }
}

/* s[0:3] = the scratch V# as sim_dispatch builds it: base = the scratch window, swizzled,
 * 4-byte elements, index stride 64, ADD_TID. */
static void
scratch_vsharp(sim_wave *w)
{
   w->s[0] = (uint32_t)SIM_SCRATCH_VA;
   w->s[1] = (uint32_t)(SIM_SCRATCH_VA >> 32) | 1u << 31;
   w->s[2] = (uint32_t)t_scratch_size;
   w->s[3] = 4u | 5u << 3 | 6u << 6 | 7u << 9 | 4u << 15 | 1u << 19 | 3u << 21 | 1u << 23;
}

/* MUBUF scratch with the dispatch's swizzled V# and FLAT private aperture: same bytes. */
TEST(scratch_swizzle_and_private_aperture)
{
   sim_wave *w = t_wave();
   scratch_vsharp(w);
   w->s64[SIM_SRC_FLAT_SCRATCH / 2] = SIM_SCRATCH_VA;
   for (unsigned l = 0; l < 64; l++) {
      w->v[1][l] = 0xA000 + l;
      w->v[2][l] = 8; /* private address 8 */
   }
   memset(t_scratch, 0, 4096);
   CHECK_EQ(t_run(w, "buffer_store_dword v1, off, s[0:3], 0 offset:8\n"
                     "s_mov_b64 s[4:5], src_private_base\n"
                     "v_mov_b32 v3, s5\n"
                     "flat_load_dword v4, v[2:3]\n"
                     "buffer_load_dword v5, v2, s[0:3], 0 offen\n"
                     "s_waitcnt vmcnt(0) lgkmcnt(0)"),
            SIM_FAULT_NONE);
   uint32_t v;
   memcpy(&v, t_scratch + 2 * 256 + 5 * 4, 4); /* dword 2 of lane 5 */
   CHECK_EQ(v, 0xA005);
   CHECK_EQ(w->v[4][9], 0xA009);
   CHECK_EQ(w->v[5][63], 0xA03F);
   CHECK_EQ(w->s[5], (uint32_t)(SIM_APERTURE_PRIVATE_BASE >> 32));
}

/* Scratch through the dispatch's V# (swizzled, ADD_TID, 4-byte elements, index stride 64),
 * the private-variable forms the translator lowers (sim_xlate_mem.c "Scratch loads"; the
 * checking mode compares its blocks with the interpreter): lane l's dword k at private
 * offset o lands at ((o + 4k) / 4 * 4) * 64 + 4l + (o + 4k) % 4 of the window. x4 stores at
 * per-lane offsets, then x4, x3 and x2 loads (the x2 into its own address VGPRs) with
 * lanes off; then offsets not dword-aligned in some lanes (the handler's way). */
static uint32_t
scratch_word(uint32_t o, unsigned l)
{
   uint32_t v;
   memcpy(&v, t_scratch + (o / 4 * 4) * 64 + 4 * l + o % 4, 4);
   return v;
}

TEST(scratch_dwords_lanes)
{
   sim_wave *w = t_wave();
   scratch_vsharp(w);
   memset(t_scratch, 0, 8192);
   uint32_t o[64];
   for (unsigned l = 0; l < 64; l++) {
      o[l] = 16 * (l % 5);
      w->v[2][l] = o[l];
      w->v[4][l] = o[l];
      w->v[5][l] = o[l] + (l % 7 == 3); /* not dword-aligned in some lanes */
      for (unsigned k = 0; k < 4; k++)
         w->v[10 + k][l] = 0x5C000000u + 0x10000u * k + l;
   }
   CHECK_EQ(t_run(w, "buffer_store_dwordx4 v[10:13], v4, s[0:3], 0 offen offset:8\n"
                     "s_waitcnt vmcnt(0)"),
            SIM_FAULT_NONE);
   for (unsigned l = 0; l < 64; l++)
      for (unsigned k = 0; k < 4; k++)
         CHECK_EQ(scratch_word(o[l] + 8 + 4 * k, l), 0x5C000000u + 0x10000u * k + l);
   uint64_t exec = ~0ull & ~(1ull << 2) & ~(1ull << 50);
   SIM_EXEC(w) = exec;
   CHECK_EQ(t_run(w, "buffer_load_dwordx4 v[20:23], v4, s[0:3], 0 offen offset:8\n"
                     "buffer_load_dwordx3 v[24:26], v4, s[0:3], 0 offen offset:12\n"
                     "buffer_load_dwordx2 v[2:3], v2, s[0:3], 0 offen offset:16\n"
                     "buffer_load_dword v27, v5, s[0:3], 0 offen offset:8\n"
                     "s_waitcnt vmcnt(0)"),
            SIM_FAULT_NONE);
   for (unsigned l = 0; l < 64; l++) {
      bool on = exec >> l & 1;
      for (unsigned k = 0; k < 4; k++)
         CHECK_EQ(w->v[20 + k][l], on ? 0x5C000000u + 0x10000u * k + l : 0);
      for (unsigned k = 0; k < 3; k++)
         CHECK_EQ(w->v[24 + k][l], on ? 0x5C000000u + 0x10000u * (k + 1) + l : 0);
      CHECK_EQ(w->v[2][l], on ? 0x5C000000u + 0x20000u + l : o[l]);
      CHECK_EQ(w->v[3][l], on ? 0x5C000000u + 0x30000u + l : 0);
      CHECK_EQ(w->v[27][l], on ? scratch_word(o[l] + 8 + (l % 7 == 3), l) : 0);
   }
}

/* The scratch window's last dword row and one past it, through the dispatch's V# (whose
 * range reaches further): a store and a load of the last row stay in the window (the
 * translator's window test, sim_xlate_mem.c scratch_window, takes them); an x2 whose
 * second dword is the first byte past the window faults there, as the handler's lane path
 * finds no allocation; a store at offsets that differ between lanes, one past the window,
 * faults at that lane; then the same offsets run again, the block's inline test now warm. */
TEST(scratch_window_end)
{
   sim_wave *w = t_wave();
   scratch_vsharp(w);
   w->s[2] = ~0u; /* the V#'s range past the window */
   uint32_t last = (uint32_t)(t_scratch_size >> 6) - 4;
   for (int round = 0; round < 2; round++) {
      for (unsigned l = 0; l < 64; l++) {
         w->v[1][l] = 0xB000 + l + 0x100 * round;
         w->v[2][l] = 0xC000 + l;
         w->v[3][l] = last;
         w->v[4][l] = 7;
      }
      SIM_EXEC(w) = ~0ull;
      CHECK_EQ(t_run(w, "buffer_store_dword v1, v3, s[0:3], 0 offen\n"
                        "buffer_load_dword v4, v3, s[0:3], 0 offen\n"
                        "s_waitcnt vmcnt(0)"),
               SIM_FAULT_NONE);
      CHECK_EQ(scratch_word(last, 63), 0xB03Fu + 0x100 * round);
      CHECK_EQ(w->v[4][17], 0xB011u + 0x100 * round);
      SIM_EXEC(w) = 1ull << 9;
      CHECK_EQ(t_run(w, "buffer_store_dwordx2 v[1:2], v3, s[0:3], 0 offen\n"
                        "s_waitcnt vmcnt(0)"),
               SIM_FAULT_MEMORY_VIOLATION);
      CHECK_EQ(t_fault.address, SIM_SCRATCH_VA + t_scratch_size + 4 * 9);
      /* Offsets that differ between lanes, lane 33's one row past the window: the span of
       * the rows fails, the lane path faults at lane 33's dword; lane 32 (the last row)
       * stored before it. */
      for (unsigned l = 0; l < 64; l++)
         w->v[3][l] = l == 33 ? last + 4 : l % 2 ? last - 4 * (l % 5) : last;
      SIM_EXEC(w) = ~0ull;
      CHECK_EQ(t_run(w, "buffer_store_dword v2, v3, s[0:3], 0 offen\n"
                        "s_waitcnt vmcnt(0)"),
               SIM_FAULT_MEMORY_VIOLATION);
      CHECK_EQ(t_fault.address, SIM_SCRATCH_VA + t_scratch_size + 4 * 33);
      CHECK_EQ(scratch_word(last, 32), 0xC020u);
      /* No OFFEN, SOFFSET at the last row: a dword stays in the window, an x2 faults. */
      w->s[11] = (uint32_t)t_scratch_size - 256;
      SIM_EXEC(w) = ~0ull;
      CHECK_EQ(t_run(w, "buffer_store_dword v2, off, s[0:3], s11\n"
                        "s_waitcnt vmcnt(0)"),
               SIM_FAULT_NONE);
      CHECK_EQ(scratch_word(last, 7), 0xC007u);
      SIM_EXEC(w) = 1ull << 9;
      CHECK_EQ(t_run(w, "buffer_store_dwordx2 v[1:2], off, s[0:3], s11\n"
                        "s_waitcnt vmcnt(0)"),
               SIM_FAULT_MEMORY_VIOLATION);
      CHECK_EQ(t_fault.address, SIM_SCRATCH_VA + t_scratch_size + 4 * 9);
   }
}

/* The scratch V# over a buffer rather than the window (as ROCr's over the queue's scratch):
 * each snippet loops twice, so that the translator's block finds the buffer through the
 * call the first time and through the instruction's sim_wg.xlast slot the second
 * (sim_xlate_mem.c scratch_other). Offsets that differ between lanes; one offset, the
 * buffer's last row, with EXEC holes; then, the slot warm from a first iteration in the
 * buffer, an x2 whose second dword is the first byte past it faults there, and a store one
 * row past it in one lane faults at that lane. */
#define TWICE(body) \
   "s_mov_b32 s10, 0\nloop:\n" body "s_waitcnt vmcnt(0)\nv_add_u32 v3, v3, v6\n" \
   "s_add_u32 s10, s10, 1\ns_cmp_lg_u32 s10, 2\ns_cbranch_scc1 loop"
TEST(scratch_buffer_slot)
{
   sim_wave *w = t_wave();
   uint32_t rows = 16, last = 4 * (rows - 1);
   uint8_t *buf = t_alloc(rows * 256, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   uint64_t va = (uint64_t)(uintptr_t)buf;
   scratch_vsharp(w);
   w->s[0] = (uint32_t)va;
   w->s[1] = (uint32_t)(va >> 32) | 1u << 31;
   w->s[2] = ~0u;
   uint64_t exec = ~0ull & ~(1ull << 5) & ~(1ull << 60);
   for (unsigned l = 0; l < 64; l++) {
      w->v[1][l] = 0xD000 + l;
      w->v[2][l] = 4 * ((l * 7) % rows);
      w->v[3][l] = exec >> l & 1 ? last : 0;
      w->v[6][l] = 0;
   }
   CHECK_EQ(t_run(w, TWICE("buffer_store_dword v1, v2, s[0:3], 0 offen\n"
                           "buffer_load_dword v4, v2, s[0:3], 0 offen\n")),
            SIM_FAULT_NONE);
   SIM_EXEC(w) = exec;
   CHECK_EQ(t_run(w, TWICE("buffer_store_dword v2, v3, s[0:3], 0 offen\n"
                           "buffer_load_dword v5, v3, s[0:3], 0 offen\n")),
            SIM_FAULT_NONE);
   for (unsigned l = 0; l < 64; l++) {
      uint32_t v, u;
      bool on = exec >> l & 1;
      memcpy(&v, buf + (w->v[2][l] / 4) * 256 + 4 * l, 4);
      memcpy(&u, buf + (last / 4) * 256 + 4 * l, 4);
      CHECK_EQ(w->v[4][l], 0xD000u + l);
      CHECK_EQ(v, w->v[2][l] / 4 == rows - 1 && on ? w->v[2][l] : 0xD000u + l);
      CHECK_EQ(u, on ? w->v[2][l] : (l * 7) % rows == rows - 1 ? 0xD000u + l : 0u);
      CHECK_EQ(w->v[5][l], on ? w->v[2][l] : 0u);
   }
   SIM_EXEC(w) = 1ull << 9;
   for (unsigned l = 0; l < 64; l++) {
      w->v[3][l] = last - 4;
      w->v[6][l] = 4;
   }
   CHECK_EQ(t_run(w, TWICE("buffer_store_dwordx2 v[1:2], v3, s[0:3], 0 offen\n")),
            SIM_FAULT_MEMORY_VIOLATION);
   CHECK_EQ(t_fault.address, va + rows * 256 + 4 * 9);
   SIM_EXEC(w) = ~0ull;
   for (unsigned l = 0; l < 64; l++) {
      w->v[3][l] = last;
      w->v[6][l] = l == 41 ? 4 : 0;
   }
   CHECK_EQ(t_run(w, TWICE("buffer_store_dword v2, v3, s[0:3], 0 offen\n")),
            SIM_FAULT_MEMORY_VIOLATION);
   CHECK_EQ(t_fault.address, va + rows * 256 + 4 * 41);
   /* No OFFEN (a spill's form): rows 14 and 15, then, SOFFSET a row further, 15 and 16. */
   SIM_EXEC(w) = 1ull << 9;
   w->s[11] = 0;
   CHECK_EQ(t_run(w, TWICE("buffer_store_dwordx2 v[1:2], off, s[0:3], s11 offset:56\n"
                           "s_add_u32 s11, s11, 0x100\n")),
            SIM_FAULT_MEMORY_VIOLATION);
   CHECK_EQ(t_fault.address, va + rows * 256 + 4 * 9);
   CHECK_EQ(w->s[11], 0x100u);
}
#undef TWICE

/* Scratch at one offset for every active lane (spills; a private array indexed alike in
 * each lane), which sim__mubuf_fast moves as rows: SOFFSET, OFFSET, OFFEN with the same
 * value in the active lanes (other values in the inactive ones), an offset not
 * dword-aligned, EXEC with holes and a dense run in the middle; loads into their own offset
 * VGPRs. Inactive lanes' bytes and registers stay; lane l's dword at offset o is at
 * SOFFSET + (o / 4 * 4) * 64 + 4l + o % 4 (SOFFSET unscaled). */
static uint32_t
scratch_word_at(uint32_t soffset, uint32_t o, unsigned l)
{
   uint32_t v;
   memcpy(&v, t_scratch + soffset + (o / 4 * 4) * 64 + 4 * l + o % 4, 4);
   return v;
}

TEST(scratch_rows_one_offset)
{
   sim_wave *w = t_wave();
   scratch_vsharp(w);
   w->s[4] = 0x400;
   memset(t_scratch, 0xEE, 0x400 + 160 * 64);
   uint64_t holes = 0x5FF0F00FFF0F0FF8ull, run = 0xFFFFFFull << 12;
   for (unsigned l = 0; l < 64; l++) {
      for (unsigned k = 0; k < 3; k++)
         w->v[10 + k][l] = 0x7A000000u + 0x10000u * k + l;
      w->v[5][l] = (run >> l & 1) ? 40 : 44 + 4 * (l % 3);
      w->v[9][l] = 13; /* dword 12 + 1 byte: across two lanes' dwords */
   }
   SIM_EXEC(w) = holes;
   CHECK_EQ(t_run(w, "buffer_store_dwordx3 v[10:12], off, s[0:3], s4 offset:12\n"
                     "s_waitcnt vmcnt(0)"),
            SIM_FAULT_NONE);
   SIM_EXEC(w) = run;
   CHECK_EQ(t_run(w, "buffer_store_dwordx2 v[11:12], v5, s[0:3], s4 offen offset:100\n"
                     "s_waitcnt vmcnt(0)"),
            SIM_FAULT_NONE);
   for (unsigned l = 0; l < 64; l++)
      for (unsigned k = 0; k < 3; k++) {
         bool on = holes >> l & 1, on2 = (run >> l & 1) && k < 2;
         CHECK_EQ(scratch_word_at(0x400, 12 + 4 * k, l),
                  on ? 0x7A000000u + 0x10000u * k + l : 0xEEEEEEEEu);
         CHECK_EQ(scratch_word_at(0x400, 140 + 4 * k, l),
                  on2 ? 0x7A000000u + 0x10000u * (k + 1) + l : 0xEEEEEEEEu);
      }
   uint64_t rexec = holes & ~(1ull << 20);
   SIM_EXEC(w) = rexec;
   for (unsigned l = 0; l < 64; l++)
      w->v[5][l] = (rexec >> l & 1) ? 8 : 7; /* with offset:4, dword 12 */
   CHECK_EQ(t_run(w, "buffer_load_dwordx4 v[5:8], v5, s[0:3], s4 offen offset:4\n"
                     "buffer_load_dword v9, v9, s[0:3], s4 offen\n"
                     "s_waitcnt vmcnt(0)"),
            SIM_FAULT_NONE);
   for (unsigned l = 0; l < 64; l++) {
      bool on = rexec >> l & 1;
      for (unsigned k = 0; k < 3; k++)
         CHECK_EQ(w->v[5 + k][l], on ? 0x7A000000u + 0x10000u * k + l : k == 0 ? 7 : 0);
      CHECK_EQ(w->v[8][l], on ? 0xEEEEEEEEu : 0);
      CHECK_EQ(w->v[9][l], on ? scratch_word_at(0x400, 13, l) : 13);
   }
}

/* MUBUF dword accesses lane by lane as [ISA] 9.x "Buffer addressing" places them
 * (sim__mubuf_fast moves them all at once; this pins its addresses, lane order and
 * fallbacks against that formula). A swizzled V# (STRIDE 16, ELEMENT_SIZE 4, INDEX_STRIDE
 * 64, ADD_TID) with IDXEN and OFFEN, per-lane indices (up to 65: past the index stride)
 * and offsets (some not dword-aligned), SOFFSET 32 and OFFSET 4, two lanes off: x3 stores
 * land where the formula says and nowhere else; x3 loads into the address VGPRs read them
 * back (inactive lanes keep their rows). A linear V# with every lane at one address: the
 * last active lane's store wins. A lane past the allocation faults at its address, the
 * lanes before it stored. */
static uint64_t
swz_addr(uint64_t base, uint32_t idx, uint32_t off)
{
   return base + 32 + ((uint64_t)(idx / 64) * 16 + off / 4 * 4) * 64 + (idx % 64) * 4 + off % 4;
}

TEST(mubuf_dwords_lane_addresses)
{
   enum { SIZE = 16384 };
   uint8_t *buf = t_alloc(SIZE, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   static uint8_t want[SIZE];
   uint64_t va = (uint64_t)(uintptr_t)buf;
   memset(buf, 0x5A, SIZE);
   memcpy(want, buf, SIZE);
   sim_wave *w = t_wave();
   w->s[4] = (uint32_t)va;
   w->s[5] = (uint32_t)(va >> 32) | 16u << 16 | 1u << 31;
   w->s[6] = SIZE;
   w->s[7] = 4u << 15 | 1u << 19 | 3u << 21 | 1u << 23;
   w->s[8] = 32;
   uint64_t exec = ~0ull & ~(1ull << 7) & ~(1ull << 40);
   uint32_t idx[64], off[64];
   for (unsigned l = 0; l < 64; l++) {
      idx[l] = (l * 7) % 3;
      off[l] = 4 * ((l * 5) % 9) + (l % 5 == 0);
      w->v[2][l] = idx[l];
      w->v[3][l] = off[l];
      for (unsigned k = 0; k < 3; k++)
         w->v[10 + k][l] = 0xAB0000u + 0x1000u * k + l;
   }
   for (unsigned l = 0; l < 64; l++)
      for (unsigned k = 0; (exec >> l & 1) && k < 3; k++) {
         uint32_t v = 0xAB0000u + 0x1000u * k + l;
         memcpy(want + (swz_addr(va, idx[l] + l, off[l] + 4 + 4 * k) - va), &v, 4);
      }
   SIM_EXEC(w) = exec;
   CHECK_EQ(t_run(w, "buffer_store_dwordx3 v[10:12], v[2:3], s[4:7], s8 idxen offen offset:4\n"
                     "s_waitcnt vmcnt(0)"),
            SIM_FAULT_NONE);
   CHECK(memcmp(buf, want, SIZE) == 0);
   uint64_t rexec = exec & ~(1ull << 63);
   SIM_EXEC(w) = rexec;
   CHECK_EQ(t_run(w, "buffer_load_dwordx3 v[2:4], v[2:3], s[4:7], s8 idxen offen offset:4\n"
                     "s_waitcnt vmcnt(0)"),
            SIM_FAULT_NONE);
   for (unsigned l = 0; l < 64; l++) {
      bool on = rexec >> l & 1;
      for (unsigned k = 0; k < 3; k++) {
         uint32_t v;
         memcpy(&v, want + (swz_addr(va, idx[l] + l, off[l] + 4 + 4 * k) - va), 4);
         uint32_t keep = k == 0 ? idx[l] : k == 1 ? off[l] : 0;
         CHECK_EQ(w->v[2 + k][l], on ? v : keep);
      }
   }

   /* Linear, STRIDE 0: every lane stores to base + 32 + 4; lane 62 is the last active. */
   w = t_wave();
   w->s[4] = (uint32_t)va;
   w->s[5] = (uint32_t)(va >> 32);
   w->s[6] = SIZE;
   w->s[7] = 4u << 15;
   w->s[8] = 32;
   for (unsigned l = 0; l < 64; l++) {
      w->v[3][l] = 0;
      w->v[10][l] = 0xC0000u + l;
   }
   SIM_EXEC(w) = ~0ull >> 1 & ~(1ull << 61);
   CHECK_EQ(t_run(w, "buffer_store_dword v10, v3, s[4:7], s8 offen offset:4\n"
                     "s_waitcnt vmcnt(0)"),
            SIM_FAULT_NONE);
   uint32_t got;
   memcpy(&got, buf + 36, 4);
   CHECK_EQ(got, 0xC0000u + 62);

   /* Lane 33 past the end: lanes 0-32 store, the fault names lane 33's address. */
   for (unsigned l = 0; l < 64; l++)
      w->v[3][l] = l == 33 ? SIZE : 64 + 4 * l;
   SIM_EXEC(w) = ~0ull;
   CHECK_EQ(t_run(w, "buffer_store_dword v10, v3, s[4:7], s8 offen offset:4\n"
                     "s_waitcnt vmcnt(0)"),
            SIM_FAULT_MEMORY_VIOLATION);
   CHECK_EQ(t_fault.address, va + 32 + 4 + SIZE);
   memcpy(&got, buf + 32 + 4 + 64 + 4 * 32, 4);
   CHECK_EQ(got, 0xC0000u + 32);
   memcpy(&got, buf + 32 + 4 + 64 + 4 * 34, 4);
   CHECK_EQ(got, 0x5A5A5A5Au);
}

/* buffer_store_lds_dword: lane l stores LDS[M0[15:0] + OFFSET + 4l] at the V#'s linear
 * address base + SOFFSET + index * STRIDE + OFFSET, index = l (ADD_TID). M0 = 0x10020 (bits
 * above 15 ignored: LDS 0x20), OFFSET 8, SOFFSET 4, STRIDE 8: lane l reads LDS 0x28 + 4l and
 * writes buf + 12 + 8l. Lanes 1 and 3 are off: their words stay. An LDS address past the
 * allocation faults. */
TEST(buffer_store_lds_dword)
{
   sim_wave *w = t_wave();
   uint32_t *buf = t_alloc(4096, SIM_ALLOC_READ | SIM_ALLOC_WRITE);
   uint64_t va = (uint64_t)(uintptr_t)buf;
   w->s[4] = (uint32_t)va;
   w->s[5] = (uint32_t)(va >> 32) | 8u << 16;
   w->s[6] = 4096;
   w->s[7] = 4u << 15 | 4u << 12 | 1u << 23; /* 32 UINT, ADD_TID_ENABLE */
   w->s[8] = 4;
   SIM_M0(w) = 0x10020;
   for (unsigned l = 0; l < 64; l++) {
      uint32_t v = 0xC0DE0000u + l;
      memcpy(t_lds + 0x28 + 4 * l, &v, 4);
   }
   SIM_EXEC(w) = ~0ull & ~0xAull;
   CHECK_EQ(t_run(w, "buffer_store_lds_dword s[4:7], s8 offset:8 lds\n"
                     "s_waitcnt vmcnt(0)"),
            SIM_FAULT_NONE);
   CHECK_EQ(buf[3], 0xC0DE0000u);
   CHECK_EQ(buf[3 + 2], 0);
   CHECK_EQ(buf[3 + 2 * 2], 0xC0DE0002u);
   CHECK_EQ(buf[3 + 2 * 3], 0);
   CHECK_EQ(buf[3 + 2 * 63], 0xC0DE003Fu);
   CHECK_EQ(buf[4], 0); /* only one dword a lane */
   w = t_wave();
   w->s[4] = (uint32_t)va;
   w->s[5] = (uint32_t)(va >> 32);
   w->s[6] = 4096;
   w->s[7] = 4u << 15 | 4u << 12;
   t_lds_size = 256;
   SIM_M0(w) = 0;
   CHECK_EQ(t_run(w, "buffer_store_lds_dword s[4:7], 0 offset:4 lds"),
            SIM_FAULT_MEMORY_VIOLATION);
}

/* FLAT to the shared aperture lands in LDS. */
TEST(flat_lds_aperture)
{
   sim_wave *w = t_wave();
   for (unsigned l = 0; l < 64; l++) {
      w->v[0][l] = 4 * l;
      w->v[2][l] = 7 * l;
   }
   CHECK_EQ(t_run(w, "s_mov_b64 s[0:1], src_shared_base\n"
                     "v_mov_b32 v1, s1\n"
                     "flat_store_dword v[0:1], v2\n"
                     "s_waitcnt lgkmcnt(0)\n"
                     "ds_read_b32 v3, v0"),
            SIM_FAULT_NONE);
   CHECK_EQ(w->v[3][10], 70);
}

/* The apertures as LLVM 15 (Debian's hipcc) finds them on gfx9: the high dword of each is
 * SH_MEM_BASES' 16-bit field shifted left by 16 (PRIVATE_BASE [15:0], SHARED_BASE [31:16], as
 * amdkfd's compute_sh_mem_bases_64bit sets them), read with s_getreg; a FLAT store through
 * the shared one lands in LDS, a FLAT load through the private one reads scratch. */
TEST(flat_aperture_sh_mem_bases)
{
   sim_wave *w = t_wave();
   scratch_vsharp(w);
   w->s64[SIM_SRC_FLAT_SCRATCH / 2] = SIM_SCRATCH_VA;
   for (unsigned l = 0; l < 64; l++) {
      w->v[0][l] = 4 * l;
      w->v[2][l] = 11 * l;
      w->v[4][l] = 12; /* private address 12 */
      w->v[6][l] = 0xB000 + l;
   }
   memset(t_scratch, 0, 4096);
   CHECK_EQ(t_run(w, "s_getreg_b32 s10, hwreg(HW_REG_SH_MEM_BASES, 0, 16)\n"
                     "s_getreg_b32 s11, hwreg(HW_REG_SH_MEM_BASES, 16, 16)\n"
                     "s_lshl_b32 s12, s10, 16\n"
                     "s_lshl_b32 s13, s11, 16\n"
                     "v_mov_b32 v1, s13\n"
                     "flat_store_dword v[0:1], v2\n"
                     "buffer_store_dword v6, off, s[0:3], 0 offset:12\n"
                     "s_waitcnt vmcnt(0) lgkmcnt(0)\n"
                     "v_mov_b32 v5, s12\n"
                     "flat_load_dword v7, v[4:5]\n"
                     "ds_read_b32 v3, v0\n"
                     "s_waitcnt vmcnt(0) lgkmcnt(0)"),
            SIM_FAULT_NONE);
   CHECK_EQ(w->s[10], (uint32_t)(SIM_APERTURE_PRIVATE_BASE >> 48));
   CHECK_EQ(w->s[11], (uint32_t)(SIM_APERTURE_SHARED_BASE >> 48));
   CHECK_EQ(w->s[12], (uint32_t)(SIM_APERTURE_PRIVATE_BASE >> 32));
   CHECK_EQ(w->s[13], (uint32_t)(SIM_APERTURE_SHARED_BASE >> 32));
   CHECK_EQ(w->v[3][10], 110);
   CHECK_EQ(w->v[7][9], 0xB009);
}

/* Faults: the process survives and the record names the address / PC. */
TEST(fault_global_oob)
{
   sim_wave *w = t_wave();
   set_ptr_vgpr(w, 0, (void *)(uintptr_t)0x10000, 0);
   CHECK_EQ(t_run(w, "global_store_dword v[0:1], v2, off"), SIM_FAULT_MEMORY_VIOLATION);
   CHECK_EQ(t_fault.address, 0x10000);
}

/* GPU page tables map whole 4 KiB pages: past the end of a 100-byte buffer but inside its
 * page is not a fault (real programs and piglit tests rely on it); the next page is. */
TEST(fault_page_granular)
{
   sim_wave *w = t_wave();
   uint8_t *buf = alloc_before_hole(100);
   set_ptr_vgpr(w, 0, buf + 4092, 0);
   CHECK_EQ(t_run(w, "global_store_dword v[0:1], v2, off"), SIM_FAULT_NONE);
   w = t_wave();
   set_ptr_vgpr(w, 0, buf + 4096, 0);
   CHECK_EQ(t_run(w, "global_store_dword v[0:1], v2, off"), SIM_FAULT_MEMORY_VIOLATION);
   CHECK_EQ(t_fault.address, (uint64_t)(uintptr_t)(buf + 4096));
}

/* DS_READ_*_D16(_HI): 8/16-bit LDS load into one half of the VGPR, the other half kept. */
TEST(ds_read_d16)
{
   sim_wave *w = t_wave();
   t_lds_size = 64;
   for (unsigned l = 0; l < 64; l++) {
      w->v[0][l] = 0;
      w->v[1][l] = 0x80F1u; /* LDS bytes f1 80 */
      w->v[2][l] = w->v[3][l] = w->v[4][l] = w->v[5][l] = 0xAAAABBBBu;
   }
   CHECK_EQ(t_run(w, "ds_write_b16 v0, v1\n s_waitcnt lgkmcnt(0)\n"
                     "ds_read_u16_d16_hi v2, v0\n ds_read_u16_d16 v3, v0\n"
                     "ds_read_i8_d16_hi v4, v0\n ds_read_u8_d16 v5, v0 offset:1\n"
                     "s_waitcnt lgkmcnt(0)"),
            SIM_FAULT_NONE);
   CHECK_EQ(w->v[2][7], 0x80F1BBBBu);
   CHECK_EQ(w->v[3][7], 0xAAAA80F1u);
   CHECK_EQ(w->v[4][7], 0xFFF1BBBBu); /* 0xf1 sign-extended to 16 bits */
   CHECK_EQ(w->v[5][7], 0xAAAA0080u);
}

TEST(fault_store_to_code)
{
   sim_wave *w = t_wave();
   CHECK_EQ(t_run(w, "s_getpc_b64 s[0:1]\n v_mov_b32 v0, s0\n v_mov_b32 v1, s1\n"
                     "global_store_dword v[0:1], v2, off"),
            SIM_FAULT_MEMORY_VIOLATION);
}

TEST(fault_lds_overrun)
{
   sim_wave *w = t_wave();
   t_lds_size = 1024;
   for (unsigned l = 0; l < 64; l++)
      w->v[0][l] = 1020;
   CHECK_EQ(t_run(w, "ds_write_b64 v0, v[2:3]"), SIM_FAULT_MEMORY_VIOLATION);
}

TEST(fault_illegal)
{
   sim_wave *w = t_wave();
   CHECK_EQ(t_run(w, ".long 0xFC000000"), SIM_FAULT_ILLEGAL_INSTRUCTION);
   CHECK(strstr(t_fault.message, "fc000000") != NULL);
}

TEST(fault_trap)
{
   sim_wave *w = t_wave();
   CHECK_EQ(t_run(w, "s_trap 2"), SIM_FAULT_TRAP);
}

void
t_mem_tests(void)
{
   RUN(smem_load);
   RUN(global_load_store);
   RUN(global_lowered_patterns);
   RUN(global_lowered_sub);
   RUN(global_lowered_unit_stride);
   RUN(global_lowered_one_lane);
   RUN(fault_lowered_access);
   RUN(global_lowered_last_alloc);
   RUN(lowered_rows_retired);
   RUN(smem_lowered_forms);
   RUN(fault_lowered_smem);
   RUN(global_atomics);
   RUN(global_atomics_combined);
   RUN(ds_ops);
   RUN(ds_lowered_patterns);
   RUN(ds_lowered_wide);
   RUN(fault_lowered_lds);
   RUN(ds2_lowered_patterns);
   RUN(fault_lowered_lds2);
   RUN(scratch_swizzle_and_private_aperture);
   RUN(mubuf_dwords_lane_addresses);
   RUN(scratch_dwords_lanes);
   RUN(scratch_window_end);
   RUN(scratch_buffer_slot);
   RUN(scratch_rows_one_offset);
   RUN(flat_lds_aperture);
   RUN(flat_aperture_sh_mem_bases);
   RUN(ds_read_d16);
   RUN(fault_global_oob);
   RUN(buffer_store_lds_dword);
   RUN(fault_page_granular);
   RUN(fault_store_to_code);
   RUN(fault_lds_overrun);
   RUN(fault_illegal);
   RUN(fault_trap);
}
