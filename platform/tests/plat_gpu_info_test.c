/*
 * platform/tests/plat_gpu_info_test.c — capability records are constructible without
 * hardware from a target name (conventions.md rule 15) and hold the targets' facts.
 */
#include "platform/plat.h"

#include "hsacl_test.h"

int
main(void)
{
   /* dot: 8-bit dot products as one instruction, 1 = same signedness, 2 = mixed too
    * (V_DOT4_I32_IU8, gfx11 and gfx12; cl_khr_integer_dot_product's acceleration queries). */
   static const struct {
      const char *name;
      unsigned wave, major, cus, dot;
   } targets[] = {
      { "gfx900", 64, 9, 64, 0 },    { "gfx906", 64, 9, 60, 1 },    { "gfx908", 64, 9, 120, 1 },
      { "gfx90a", 64, 9, 104, 1 },   { "gfx942", 64, 9, 304, 1 },   { "gfx1030", 32, 10, 72, 1 },
      { "gfx1100", 32, 11, 96, 2 },  { "gfx1201", 32, 12, 64, 2 },
   };
   for (size_t i = 0; i < sizeof(targets) / sizeof(targets[0]); i++) {
      plat_gpu_info info;
      CHECK_EQ_INT(plat_gpu_info_from_target(targets[i].name, &info), CL_SUCCESS);
      CHECK_STR(info.target, targets[i].name);
      CHECK_EQ_INT(info.wavefront_size, targets[i].wave);
      CHECK_EQ_INT(info.gfx_major, targets[i].major);
      CHECK_EQ_INT(info.compute_units, targets[i].cus);
      CHECK_EQ_INT(info.dot4_same_sign, targets[i].dot >= 1);
      CHECK_EQ_INT(info.dot4_mixed_sign, targets[i].dot == 2);
      CHECK_EQ_INT(info.lds_size, 65536);
      CHECK_EQ_INT(info.max_workgroup_size, 1024);
      CHECK(info.l2_cache_size >= 4u << 20);
      CHECK(info.memory_size > 0 && info.max_clock_mhz > 1000);
   }
   plat_gpu_info info;
   CHECK_EQ_INT(plat_gpu_info_from_target("amdgcn-amd-amdhsa--gfx906:sramecc-:xnack-", &info),
                CL_SUCCESS);
   CHECK_STR(info.target, "gfx906");
   CHECK_EQ_INT(info.gfx_stepping, 6);
   CHECK(info.sramecc_supported && info.xnack_supported && !info.packed_fp32);
   CHECK_EQ_INT(plat_gpu_info_from_target("gfx90a:xnack+", &info), CL_SUCCESS);
   CHECK(info.packed_fp32);
   CHECK_EQ_INT(plat_gpu_info_from_target("gfx9999", &info), CL_INVALID_VALUE);
   CHECK_EQ_INT(plat_gpu_info_from_target("gfx90", &info), CL_INVALID_VALUE);
   CHECK_EQ_INT(plat_gpu_info_from_target("", &info), CL_INVALID_VALUE);
   CHECK_EQ_INT(plat_gpu_info_from_target(NULL, &info), CL_INVALID_VALUE);
   return test_main_end();
}
