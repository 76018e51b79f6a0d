/* Scalar and vector ALU tests. Expected values are computed by hand from the ISA. */
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

void
t_alu_tests(void)
{
   RUN(sop2_add_carry);
   RUN(vop2_add_u32);
}
