/* Harness: sim__mem_find over test allocations, assembly (sim_isa_test_asm.cpp), wave runner. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "sim_isa_test.h"
#include "sim_isa_test_asm.h"

int t_failures;
const char *t_current = "";
const char *t_only;
sim_fault t_fault;
uint8_t t_lds[65536];
uint32_t t_lds_size = sizeof(t_lds);
uint8_t *t_scratch;
uint64_t t_scratch_size;

sim_gws *t_gws;

/* The tests' allocations are never freed: room for all of them, checked. */
#define T_MAX_ALLOCS 4096
static sim_alloc t_allocs[T_MAX_ALLOCS];
static unsigned t_nallocs;

const sim_alloc *
sim__mem_find(uint64_t va)
{
   for (unsigned i = 0; i < t_nallocs; i++)
      if (va - t_allocs[i].va < t_allocs[i].reach)
         return &t_allocs[i];
   return NULL;
}

void
t_register(void *p, size_t size, uint32_t flags)
{
   if (t_nallocs == T_MAX_ALLOCS) {
      fprintf(stderr, "sim_isa_test: more than %d allocations (T_MAX_ALLOCS)\n", T_MAX_ALLOCS);
      abort();
   }
   size_t rounded = (size + 4095) & ~(size_t)4095;
   memset(p, 0, rounded);
   sim_alloc *a = &t_allocs[t_nallocs++];
   a->va = (uint64_t)(uintptr_t)p;
   a->size = size;
   a->reach = rounded;
   a->view = p;
   a->flags = flags;
   atomic_init(&a->isa_program, NULL);
}

void *
t_alloc(size_t size, uint32_t flags)
{
   size_t rounded = (size + 4095) & ~(size_t)4095;
   void *p = aligned_alloc(4096, rounded);
   t_register(p, size, flags);
   return p;
}

static uint32_t t_vgprs[SIM_WAVE_ROWS][64];
static sim_wave t_w;
/* The target t_run assembles for: the last t_wave_target's. */
static const char *t_mcpu = "gfx906";

sim_wave *
t_wave(void)
{
   return t_wave_target(sim__target(SIM_TARGET_GFX906));
}

sim_wave *
t_wave_target(const sim_target *target)
{
   memset(&t_w, 0, sizeof(t_w));
   memset(t_vgprs, 0, sizeof(t_vgprs));
   t_w.v = t_vgprs;
   t_w.nvgpr = 256;
   t_w.nagpr = target->agprs ? 256 : 0;
   t_w.target = target;
   t_mcpu = target->name;
   SIM_EXEC(&t_w) = ~0ull;
   t_w.denorm32 = 3;
   t_w.denorm16_64 = 3;
   t_w.ieee = 1;
   t_w.dx10_clamp = 1;
   memset(t_lds, 0, sizeof(t_lds));
   t_lds_size = sizeof(t_lds);
   return &t_w;
}

/* Assembles with LLVM's MC layer into an ELF relocatable object and returns its .text. */
static uint8_t *
assemble(const char *src, size_t *len)
{
   size_t n = strlen(src);
   char *text_src = malloc(n + sizeof("\ns_endpgm\n"));
   if (!text_src)
      return NULL;
   memcpy(text_src, src, n);
   memcpy(text_src + n, "\ns_endpgm\n", sizeof("\ns_endpgm\n"));
   size_t objsize = 0;
   uint8_t *elf = t_assemble_object(t_mcpu, text_src, &objsize);
   free(text_src);
   if (!elf || objsize < 0x40) {
      fprintf(stderr, "the assembler failed on:\n%s\n", src);
      free(elf);
      return NULL;
   }
   /* ELF64: section headers at e_shoff, e_shentsize 64, names in e_shstrndx. */
   uint64_t shoff;
   uint16_t shnum, shstrndx;
   memcpy(&shoff, elf + 0x28, 8);
   memcpy(&shnum, elf + 0x3C, 2);
   memcpy(&shstrndx, elf + 0x3E, 2);
   const uint8_t *shstr = elf + shoff + (uint64_t)shstrndx * 64;
   uint64_t stroff;
   memcpy(&stroff, shstr + 0x18, 8);
   uint8_t *text = NULL;
   for (unsigned i = 0; i < shnum; i++) {
      const uint8_t *sh = elf + shoff + (uint64_t)i * 64;
      uint32_t name;
      uint64_t off, size;
      memcpy(&name, sh, 4);
      memcpy(&off, sh + 0x18, 8);
      memcpy(&size, sh + 0x20, 8);
      if (strcmp((const char *)elf + stroff + name, ".text") == 0) {
         text = malloc(size);
         memcpy(text, elf + off, size);
         *len = size;
      }
   }
   free(elf);
   return text;
}

uint8_t *
t_text(const char *src, size_t *len)
{
   return assemble(src, len);
}

sim_fault_kind
t_run(sim_wave *w, const char *src)
{
   size_t len = 0;
   uint8_t *text = assemble(src, &len);
   if (!text) {
      t_failures++;
      fprintf(stderr, "FAIL %s: assembly failed\n", t_current);
      return SIM_FAULT_INVALID_PACKET;
   }
   uint8_t *code = t_alloc(len + 64, SIM_ALLOC_READ | SIM_ALLOC_CODE);
   memcpy(code, text, len);
   free(text);
   if (getenv("SIM_TEST_TRACE"))
      w->trace = true;
   return sim__isa_run_wave_for_test(w, (uint64_t)(uintptr_t)code, t_gws, t_lds, t_lds_size,
                                     t_scratch, t_scratch_size, &t_fault);
}

/* SIM_ISA_BENCH=1: lane-instructions per second of a VALU-heavy loop on one thread. */
uint16_t t_kcode_extra;
uint32_t t_groups_yz[2] = {1, 1};
sim_scratch *t_qscratch;
uint32_t t_private_size;

sim_fault_kind
t_dispatch_kd(unsigned agent, const char *src, const uint32_t rsrc[3], const uint16_t wg[3],
              uint32_t groups, void *kernarg)
{
   size_t len = 0;
   uint8_t *text = assemble(src, &len);
   if (!text) {
      t_failures++;
      fprintf(stderr, "FAIL %s: assembly failed\n", t_current);
      return SIM_FAULT_INVALID_PACKET;
   }
   uint8_t *code = t_alloc(256 + len + 64, SIM_ALLOC_READ | SIM_ALLOC_CODE);
   int64_t entry = 256;
   uint16_t kcode = 1u << 3 | t_kcode_extra; /* kernarg segment pointer */
   memcpy(code + 16, &entry, 8);
   memcpy(code + 44, &rsrc[2], 4);
   memcpy(code + 48, &rsrc[0], 4);
   memcpy(code + 52, &rsrc[1], 4);
   memcpy(code + 56, &kcode, 2);
   memcpy(code + 256, text, len);
   free(text);
   hsa_kernel_dispatch_packet_t *p = t_alloc(sizeof(*p), SIM_ALLOC_READ);
   p->header = HSA_PACKET_TYPE_KERNEL_DISPATCH << HSA_PACKET_HEADER_TYPE;
   p->setup = 3;
   p->workgroup_size_x = wg[0];
   p->workgroup_size_y = wg[1];
   p->workgroup_size_z = wg[2];
   p->grid_size_x = groups * wg[0];
   p->grid_size_y = t_groups_yz[0] * wg[1];
   p->grid_size_z = t_groups_yz[1] * wg[2];
   p->kernel_object = (uint64_t)(uintptr_t)code;
   p->kernarg_address = kernarg;
   p->private_segment_size = t_private_size;
   sim__isa_dispatch_queue(agent, t_qscratch, NULL, p, (uint64_t)(uintptr_t)p, &t_fault);
   return t_fault.kind;
}

sim_fault_kind
t_dispatch(const char *src, uint32_t groups, uint32_t wgsize, void *kernarg, sim_gws *gws)
{
   size_t len = 0;
   uint8_t *text = assemble(src, &len);
   if (!text) {
      t_failures++;
      fprintf(stderr, "FAIL %s: assembly failed\n", t_current);
      return SIM_FAULT_INVALID_PACKET;
   }
   /* Kernel descriptor (AMDGPUUsage "Kernel Descriptor"), the code 256 bytes after it. */
   uint8_t *code = t_alloc(256 + len + 64, SIM_ALLOC_READ | SIM_ALLOC_CODE);
   int64_t entry = 256;
   uint32_t rsrc1 = 7u | 1u << 21 | 1u << 23; /* 32 VGPRs, DX10_CLAMP, IEEE */
   uint32_t rsrc2 = 2u << 1 | 1u << 7;        /* 2 user SGPRs, work-group id x */
   uint16_t kcode = 1u << 3;                  /* kernarg segment pointer */
   memcpy(code + 16, &entry, 8);
   memcpy(code + 48, &rsrc1, 4);
   memcpy(code + 52, &rsrc2, 4);
   memcpy(code + 56, &kcode, 2);
   memcpy(code + 256, text, len);
   free(text);
   hsa_kernel_dispatch_packet_t *p = t_alloc(sizeof(*p), SIM_ALLOC_READ);
   p->header = HSA_PACKET_TYPE_KERNEL_DISPATCH << HSA_PACKET_HEADER_TYPE;
   p->setup = 1;
   p->workgroup_size_x = (uint16_t)wgsize;
   p->workgroup_size_y = p->workgroup_size_z = 1;
   p->grid_size_x = groups * wgsize;
   p->grid_size_y = p->grid_size_z = 1;
   p->kernel_object = (uint64_t)(uintptr_t)code;
   p->kernarg_address = kernarg;
   p->group_segment_size = 4096;
   sim__isa_dispatch_queue(0, NULL, gws, p, (uint64_t)(uintptr_t)p, &t_fault);
   return t_fault.kind;
}

static void
bench(void)
{
   sim_wave *w = t_wave();
   struct timespec a, b;
   const char *src = "s_mov_b32 s0, 200000\n"
                     "loop:\n"
                     "v_add_u32 v1, v1, v2\n v_fma_f32 v3, v4, v5, v3\n"
                     "v_xor_b32 v6, v1, v3\n v_mul_f32 v7, v3, v4\n"
                     "v_add_co_u32 v8, vcc, v1, v6\n v_addc_co_u32 v9, vcc, v9, 0, vcc\n"
                     "v_lshlrev_b32 v10, 2, v1\n v_cndmask_b32 v11, v1, v10, vcc\n"
                     "s_sub_u32 s0, s0, 1\n s_cmp_lg_u32 s0, 0\n s_cbranch_scc1 loop";
   clock_gettime(CLOCK_MONOTONIC, &a);
   t_run(w, src);
   clock_gettime(CLOCK_MONOTONIC, &b);
   double s = (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) * 1e-9;
   double lanes = 200000.0 * 8 * 64, insts = 200000.0 * 11;
   printf("bench: %.3f s, %.3g VALU lane-instructions/s, %.3g instructions/s (1 thread)\n", s,
          lanes / s, insts / s);
}

bool
t_selected(const char *name)
{
   size_t n = strlen(name);
   for (const char *p = t_only; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
      if (!strncmp(p, name, n) && (p[n] == ',' || !p[n]))
         return true;
   return !t_only;
}

int
main(int argc, char **argv)
{
   if (getenv("SIM_ISA_BENCH")) {
      t_scratch_size = 1 << 20;
      t_scratch = calloc(1, t_scratch_size);
      bench();
      return 0;
   }
   t_scratch_size = 1 << 20;
   t_scratch = calloc(1, t_scratch_size);
   t_only = getenv("SIM_ISA_ONLY");
   t_alu_tests();
   t_mem_tests();
   t_cover_tests();
   t_mimg_tests();
   t_mimg_fast_tests();
   t_f16_tests();
   t_f64_tests();
   t_scratch_tests();
   t_ops_tests();
   t_sample_tests();
   t_wavesync_tests();
   t_dispatch_tests(); /* after t_wavesync_tests: the 2 s watchdog */
   t_nan_tests();
   t_int_tests();
   t_gfx90a_tests();
   t_gfx1030_tests();
   t_cache_tests();
   if (t_failures) {
      fprintf(stderr, "%d check(s) failed\n", t_failures);
      return 1;
   }
   printf("sim_isa_test: all checks passed\n");
   return 0;
}
