/*
 * fuzz/fuzz_spirv.c — the parsers of SPIR-V programs' untrusted bytes (compiler/comp_spirv.c,
 * compiler/comp_mangle.c).
 *
 * Input: one byte choosing the parser, then its input.
 *   even: a SPIR-V module for comp__spirv_check (header, instruction walk, SPIRV-Tools'
 *         validator, the OpenCL environment checks, OpAtomicCompareExchangeWeak
 *         normalisation), then for a module it accepts, comp__spirv_spec_size of the SpecIds
 *         0-3 (the specialization scan clSetProgramSpecializationConstant runs) and
 *         comp__spirv_lower (the SPIR-V 1.4 rewrites before translation);
 *   odd:  a mangled name for comp__mangle_spir_to_amdgcn (the built-in renaming of IL
 *         programs' declarations), twice to check it is deterministic.
 * Checks: the checker accepts or returns COMP_INVALID_BINARY with a reason; a spec size is 0,
 * 1, 2, 4 or 8; the rewrites succeed (or refuse with a reason) and give a module of whole
 * instructions with the same header and a bound not smaller; the renamer returns -1, 0 or 1, a renamed name starts with "_Z", and the same
 * input gives the same name. The translator process is not run (a process per input).
 */
#include "compiler/comp_priv.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
   if (size < 1)
      return 0;
   if (data[0] % 2 == 0) {
      /* The driver copies the application's bytes: an aligned copy here too. */
      uint32_t *il = malloc(size - 1 + 4);
      if (!il)
         return 0;
      memcpy(il, data + 1, size - 1);
      struct comp__spirv_info info;
      char *why = NULL;
      enum comp_status st = comp__spirv_check(il, size - 1, &info, &why);
      if (st == COMP_OK) {
         if (why)
            abort();
         for (uint32_t id = 0; id < 4; id++) {
            uint32_t s = comp__spirv_spec_size(il, size - 1, id);
            if (s != 0 && s != 1 && s != 2 && s != 4 && s != 8)
               abort();
         }
         uint32_t *low = NULL;
         size_t n = 0;
         char *lwhy = NULL;
         enum comp_status ls = comp__spirv_lower(il, (size - 1) / 4, info.swapped, &low, &n, &lwhy);
         if (ls == COMP_OK) {
            uint32_t bound = info.swapped ? __builtin_bswap32(il[3]) : il[3];
            if (lwhy || n < 5 || low[0] != 0x07230203u || low[3] < bound)
               abort();
            for (size_t i = 5; i < n; i += low[i] >> 16)
               if ((low[i] >> 16) == 0 || (low[i] >> 16) > n - i)
                  abort();
         } else if ((ls != COMP_INVALID_BINARY || !lwhy) && ls != COMP_OUT_OF_MEMORY) {
            abort();
         }
         free(low);
         free(lwhy);
      } else if (st != COMP_INVALID_BINARY || !why) {
         abort();
      }
      free(why);
      free(il);
      return 0;
   }
   char *a = NULL, *b = NULL;
   int ra = comp__mangle_spir_to_amdgcn((const char *)data + 1, size - 1, &a);
   int rb = comp__mangle_spir_to_amdgcn((const char *)data + 1, size - 1, &b);
   if (ra < -1 || ra > 1 || ra != rb)
      abort();
   if (ra == 1 && (strncmp(a, "_Z", 2) || strcmp(a, b)))
      abort();
   free(a);
   free(b);
   return 0;
}
