#include "sim_isa_priv.h"
