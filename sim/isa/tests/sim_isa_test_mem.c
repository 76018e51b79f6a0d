/* Memory instruction tests: SMEM, DS, FLAT/GLOBAL, MUBUF scratch, faults. */
#include "sim_isa_test.h"

void
t_mem_tests(void)
{
}
