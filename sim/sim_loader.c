#include "sim_priv.h"
void
sim__loader_finish(void)
{
}
