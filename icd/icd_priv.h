/* icd/icd_priv.h — shared between the files of icd/ only. */
#ifndef ICD_PRIV_H
#define ICD_PRIV_H

#include "icd.h"

/* Logs (once per entry point) that an application called an entry point a later
 * version of hsacl implements. */
void icd__not_implemented(const char *entry_point);

/* Declarations of the generated stubs (build dir icd_stubs.c). */
#define ICD_ENTRY(slot, fn)
#define ICD_NONE(slot)
#define ICD_LATER(slot) extern __typeof__(*(cl_api_##slot)0) icd_stub_##slot;
#include "icd_entry_points.def"
#undef ICD_ENTRY
#undef ICD_NONE
#undef ICD_LATER

#endif
