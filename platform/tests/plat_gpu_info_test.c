/*
 * platform/tests/plat_gpu_info_test.c — capability records are constructible without
 * hardware from a target name (conventions.md rule 15) and hold the targets' facts: every
 * target current ROCm supports resolves, no record has a zero figure, the generation's
 * facts hold (wave size, LDS, registers, packed FP32, dot products, float atomics), and a
 * target the table lacks gets its generation's values, never zeros.
 */
#include "platform/plat.h"

#include "hsacl_test.h"

/* Every figure a device reports from the record is set. */
static void
check_complete(const plat_gpu_info *g)
{
   const unsigned v[] = { g->wavefront_size, g->compute_units, g->simds_per_cu,
                          g->max_waves_per_simd, g->max_clock_mhz, g->lds_size,
                          g->max_workgroup_size, g->l1_cache_size, g->l2_cache_size,
                          g->cacheline_size, g->sgprs_per_wave, g->vgprs_per_wave,
                          g->memory_bus_width, g->gfx_major };
   for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
      if (!v[i]) {
         fprintf(stderr, "%s: figure %zu is zero\n", g->target, i);
         test_failed++;
      }
   CHECK(g->memory_size > 0 && g->family && g->board);
   CHECK(g->fp32_atomic_native & CL_DEVICE_LOCAL_FP_ATOMIC_ADD_EXT);
}

int
main(void)
{
   /* dot: 8-bit dot products as one instruction, 1 = same signedness, 2 = mixed too
    * (V_DOT4_I32_IU8, gfx11 and gfx12; cl_khr_integer_dot_product's acceleration queries).
    * fa: 1 = LDS f64 add, 2 = global f32/f64 add too. The targets of AMDGPUUsage's
    * "Processors" that ROCm supports, gfx9 to gfx12. */
   static const struct {
      const char *name;
      unsigned wave, major, minor, stepping, dot, packed, fa, vgprs;
   } targets[] = {
      { "gfx900", 64, 9, 0, 0, 0, 0, 0, 256 },      { "gfx902", 64, 9, 0, 2, 0, 0, 0, 256 },
      { "gfx904", 64, 9, 0, 4, 0, 0, 0, 256 },      { "gfx906", 64, 9, 0, 6, 1, 0, 0, 256 },
      { "gfx908", 64, 9, 0, 8, 1, 0, 0, 256 },      { "gfx909", 64, 9, 0, 9, 0, 0, 0, 256 },
      { "gfx90a", 64, 9, 0, 10, 1, 1, 1, 512 },     { "gfx90c", 64, 9, 0, 12, 0, 0, 0, 256 },
      { "gfx940", 64, 9, 4, 0, 1, 1, 2, 512 },      { "gfx941", 64, 9, 4, 1, 1, 1, 2, 512 },
      { "gfx942", 64, 9, 4, 2, 1, 1, 2, 512 },      { "gfx1010", 32, 10, 1, 0, 0, 0, 0, 256 },
      { "gfx1011", 32, 10, 1, 1, 1, 0, 0, 256 },    { "gfx1012", 32, 10, 1, 2, 1, 0, 0, 256 },
      { "gfx1013", 32, 10, 1, 3, 0, 0, 0, 256 },    { "gfx1030", 32, 10, 3, 0, 1, 0, 0, 256 },
      { "gfx1031", 32, 10, 3, 1, 1, 0, 0, 256 },    { "gfx1032", 32, 10, 3, 2, 1, 0, 0, 256 },
      { "gfx1033", 32, 10, 3, 3, 1, 0, 0, 256 },    { "gfx1034", 32, 10, 3, 4, 1, 0, 0, 256 },
      { "gfx1035", 32, 10, 3, 5, 1, 0, 0, 256 },    { "gfx1036", 32, 10, 3, 6, 1, 0, 0, 256 },
      { "gfx1100", 32, 11, 0, 0, 2, 0, 0, 256 },    { "gfx1101", 32, 11, 0, 1, 2, 0, 0, 256 },
      { "gfx1102", 32, 11, 0, 2, 2, 0, 0, 256 },    { "gfx1103", 32, 11, 0, 3, 2, 0, 0, 256 },
      { "gfx1150", 32, 11, 5, 0, 2, 0, 0, 256 },    { "gfx1151", 32, 11, 5, 1, 2, 0, 0, 256 },
      { "gfx1200", 32, 12, 0, 0, 2, 0, 0, 256 },    { "gfx1201", 32, 12, 0, 1, 2, 0, 0, 256 },
   };
   const cl_bitfield ladd = CL_DEVICE_LOCAL_FP_ATOMIC_ADD_EXT,
                     gadd = CL_DEVICE_GLOBAL_FP_ATOMIC_ADD_EXT;
   size_t n = sizeof(targets) / sizeof(targets[0]);
   for (size_t i = 0; i < n; i++) {
      plat_gpu_info info;
      CHECK_EQ_INT(plat_gpu_info_from_target(targets[i].name, &info), CL_SUCCESS);
      CHECK_STR(info.target, targets[i].name);
      CHECK_EQ_INT(info.wavefront_size, targets[i].wave);
      CHECK_EQ_INT(info.gfx_major, targets[i].major);
      CHECK_EQ_INT(info.gfx_minor, targets[i].minor);
      CHECK_EQ_INT(info.gfx_stepping, targets[i].stepping);
      CHECK_EQ_INT(info.dot4_same_sign, targets[i].dot >= 1);
      CHECK_EQ_INT(info.dot4_mixed_sign, targets[i].dot == 2);
      CHECK_EQ_INT(info.packed_fp32, targets[i].packed);
      CHECK_EQ_INT(!!(info.fp64_atomic_native & ladd), targets[i].fa >= 1);
      CHECK_EQ_INT(!!(info.fp64_atomic_native & gadd), targets[i].fa == 2);
      CHECK_EQ_INT(!!(info.fp32_atomic_native & gadd), targets[i].fa == 2);
      CHECK_EQ_INT(info.vgprs_per_wave, targets[i].vgprs);
      CHECK_EQ_INT(info.sgprs_per_wave, targets[i].major == 9 ? 102 : 106);
      CHECK_EQ_INT(info.simds_per_cu, targets[i].major == 9 ? 4 : 2);
      CHECK_EQ_INT(info.lds_size, 65536);
      CHECK_EQ_INT(info.max_workgroup_size, 1024);
      CHECK(info.max_clock_mhz > 1000);
      check_complete(&info);
   }
   /* The table holds exactly these. */
   size_t rows = 0;
   while (plat_gpu_info_target_at(rows))
      rows++;
   CHECK_EQ_INT(rows, n);
   /* Boards: the reference ones' compute units. */
   plat_gpu_info info;
   static const struct {
      const char *name;
      unsigned cus;
   } boards[] = { { "gfx906", 60 }, { "gfx90a", 104 }, { "gfx942", 304 }, { "gfx1030", 72 },
                  { "gfx1100", 96 }, { "gfx1201", 64 } };
   for (size_t i = 0; i < sizeof(boards) / sizeof(boards[0]); i++) {
      CHECK_EQ_INT(plat_gpu_info_from_target(boards[i].name, &info), CL_SUCCESS);
      CHECK_EQ_INT(info.compute_units, boards[i].cus);
   }
   CHECK_EQ_INT(plat_gpu_info_from_target("amdgcn-amd-amdhsa--gfx906:sramecc-:xnack-", &info),
                CL_SUCCESS);
   CHECK_STR(info.target, "gfx906");
   CHECK_EQ_INT(info.gfx_stepping, 6);
   CHECK(info.sramecc_supported && info.xnack_supported && !info.packed_fp32);
   CHECK_EQ_INT(plat_gpu_info_from_target("gfx90a:xnack+", &info), CL_SUCCESS);
   CHECK(info.packed_fp32 && info.sramecc_supported);
   CHECK_EQ_INT(plat_gpu_info_from_target("gfx1030", &info), CL_SUCCESS);
   CHECK(!info.xnack_supported && !info.sramecc_supported);
   CHECK_EQ_INT(plat_gpu_info_from_target("gfx9999", &info), CL_INVALID_VALUE);
   CHECK_EQ_INT(plat_gpu_info_from_target("gfx90", &info), CL_INVALID_VALUE);
   CHECK_EQ_INT(plat_gpu_info_from_target("", &info), CL_INVALID_VALUE);
   CHECK_EQ_INT(plat_gpu_info_from_target(NULL, &info), CL_INVALID_VALUE);

   /* Targets the table lacks: the generation's values, the smallest board, no zero. */
   CHECK_EQ_INT(plat_gpu_info_generic("amdgcn-amd-amdhsa--gfx1152:xnack-", &info), CL_SUCCESS);
   CHECK_STR(info.target, "gfx1152");
   CHECK(info.gfx_major == 11 && info.gfx_minor == 5 && info.gfx_stepping == 2);
   CHECK_EQ_INT(info.wavefront_size, 32);
   CHECK(!info.dot4_same_sign && !info.packed_fp32);
   check_complete(&info);
   CHECK_EQ_INT(plat_gpu_info_generic("gfx950", &info), CL_SUCCESS);
   CHECK(info.gfx_major == 9 && info.gfx_minor == 5 && info.gfx_stepping == 0);
   CHECK_EQ_INT(info.wavefront_size, 64);
   CHECK_EQ_INT(info.lds_size, 65536);
   check_complete(&info);
   CHECK_EQ_INT(plat_gpu_info_generic("gfx10-3-generic", &info), CL_INVALID_VALUE);
   CHECK_EQ_INT(plat_gpu_info_generic("gfx803", &info), CL_INVALID_VALUE);
   CHECK_EQ_INT(plat_gpu_info_generic("gfx90", &info), CL_INVALID_VALUE);
   CHECK_EQ_INT(plat_gpu_info_generic("gfx9z0", &info), CL_INVALID_VALUE);
   CHECK_EQ_INT(plat_gpu_info_generic(NULL, &info), CL_INVALID_VALUE);
   return test_main_end();
}
