/*
 * fuzz/fuzz_decode.c — the software GPU's instruction decoder (sim/isa/sim_decode.c
 * sim__decode) and disassembler (sim__disasm) on any machine words, for gfx906, gfx90a and
 * gfx1030: what a kernel's code, or garbage a program jumps into, feeds them.
 *
 * Input: a target byte, then the words. The words are copied to an allocation of exactly
 * their size and every dword offset is decoded with the bytes left after it as `avail`, as
 * the interpreter decodes a code allocation, so a read past the end is a
 * heap-buffer-overflow.
 * Checks: no sanitizer report (the decoder takes the words past `avail` as zeros and never
 * reads them); every word decodes to a handler (a faulting one for unknown encodings) and a
 * size of whole dwords between 4 and 20 bytes (NSA's longest), and disassembles to a
 * NUL-terminated line inside the buffer given.
 *
 * sim_isa_decoder_check.py compares the decoder's fields with LLVM's on every opcode and a
 * fixed random stream; this target looks for memory errors and undefined behaviour instead,
 * guided by coverage.
 */
#include "fuzz_common.h"

#include <stdio.h>
#include <string.h>
#include "sim_isa_priv.h"

/* The decoder touches no guest memory; the library's memory lookup is not linked here. */
const sim_alloc *sim__mem_find(uint64_t va);
const sim_alloc *
sim__mem_find(uint64_t va)
{
   (void)va;
   return NULL;
}

static const char *const targets[] = {"gfx906", "gfx90a", "gfx1030"};

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
   (void)argc;
   (void)argv;
   fuzz_default_env();
   for (unsigned i = 0; i < sizeof(targets) / sizeof(targets[0]); i++)
      if (!sim__target_by_name(targets[i]))
         abort();
   return 0;
}

int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
   if (size < 1 + 4)
      return 0;
   const sim_target *t = sim__target_by_name(targets[data[0] % 3]);
   size_t n = (size - 1) / 4;
   uint32_t *words = malloc(n * 4);
   if (!words)
      return 0;
   memcpy(words, data + 1, n * 4);
   for (size_t i = 0; i < n; i++) {
      sim_inst in;
      sim__decode(t, words + i, (n - i) * 4, &in);
      if (!in.fn || in.size < 4 || in.size > 20 || in.size % 4)
         abort();
      char line[256];
      memset(line, 0x7F, sizeof(line));
      sim__disasm(&in, line, sizeof(line));
      if (!memchr(line, '\0', sizeof(line)))
         abort();
   }
   free(words);
   return 0;
}
