/*
 * fuzz/fuzz_options.c — build-option parsing (compiler/comp_options.c).
 *
 * Input: one byte choosing the API call (clBuildProgram, clCompileProgram, clLinkProgram),
 * then the option string. Every string is parsed for the chosen action; a string
 * clBuildProgram accepts also goes through comp__control_module_text, which turns the parsed
 * options into the oclc_* control constants of a gfx906 build (comp_llvm.cpp).
 * Checks: a parse either succeeds with every -D/-I argument well formed, or fails with the
 * action's error status and a reason.
 */
#include "compiler/comp_priv.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static enum comp_status
error_status(enum comp_action a)
{
   return a == COMP_ACTION_COMPILE ? COMP_INVALID_COMPILER_OPTIONS
          : a == COMP_ACTION_LINK  ? COMP_INVALID_LINKER_OPTIONS
                                   : COMP_INVALID_BUILD_OPTIONS;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
   if (size < 1)
      return 0;
   enum comp_action action = (enum comp_action)(data[0] % 3);
   /* The C API hands the driver a NUL-terminated string: bytes after a NUL are unseen. */
   char *str = malloc(size);
   if (!str)
      return 0;
   memcpy(str, data + 1, size - 1);
   str[size - 1] = '\0';

   struct comp__options o;
   char *error = NULL;
   enum comp_status st = comp__options_parse(str, action, &o, &error);
   if (st == COMP_OK) {
      if (error)
         abort(); /* a reason only on failure */
      for (size_t i = 0; i < o.num_pp_args; i++) {
         const char *a = o.pp_args[i];
         if (a[0] != '-' || (a[1] != 'D' && a[1] != 'I') || a[2] == '\0')
            abort();
      }
      if (o.enable_link_options && !o.create_library)
         abort();
      comp__options_finish(&o);
      if (action == COMP_ACTION_BUILD) {
         char *text = NULL;
         st = comp__control_module_text("gfx906", str, &text);
         if (st != COMP_OK || !text)
            abort(); /* the same string parsed a moment ago */
         free(text);
      }
   } else {
      if (st != error_status(action) && st != COMP_OUT_OF_MEMORY)
         abort();
      if (!error)
         abort();
      free(error);
   }
   free(str);
   return 0;
}
