/*
 * fuzz/fuzz_spirv.c — SPIR-V programs' untrusted bytes through the whole front half of an IL
 * build (compiler/comp_spirv.c, comp_spirv_lower.c, compiler/comp_mangle.c).
 *
 * Input: one byte choosing the path, then its input.
 *   even: a SPIR-V module for comp__spirv_check (header, instruction walk, SPIRV-Tools'
 *         validator, the OpenCL environment checks, OpAtomicCompareExchangeWeak
 *         normalisation), then for a module it accepts, comp__spirv_spec_size of the SpecIds
 *         0-3 (the specialization scan clSetProgramSpecializationConstant runs) and
 *         comp__spirv_lower (the SPIR-V 1.4 rewrites before translation); with bit 1 set
 *         (2, 6, ...) also comp__spirv_translate: specialization, the rewrites and the
 *         translator process (llvm-spirv-15), under HSACL_SPIRV_TIMEOUT (10 s here);
 *   odd:  a mangled name for comp__mangle_spir_to_amdgcn (the built-in renaming of IL
 *         programs' declarations), twice to check it is deterministic.
 * Checks: the checker accepts or returns COMP_INVALID_BINARY with a reason; a spec size is 0,
 * 1, 2, 4 or 8; the rewrites succeed (or refuse with a reason) and give a module of whole
 * instructions with the same header and a bound not smaller; the translation gives bitcode
 * (the wrapper's magic "BC\xc0\xde") or a build error with a log line, whatever the
 * translator does (crash, hang, junk); the renamer returns -1, 0 or 1, a renamed name
 * starts with "_Z", and the same input gives the same name.
 *
 * A structure-aware mutator (LLVMFuzzerCustomMutator) keeps a module's header and word
 * counts whole while it changes operands, opcodes and the order of instructions, so most
 * mutants are read as instructions and many pass the validator to reach the rewrites and the
 * translator; every other mutation is libFuzzer's own on the raw bytes.
 */
#include "compiler/comp_priv.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);

/* How far the inputs went, printed at exit (the run's log): checked, accepted by the checker,
 * translated to bitcode, refused by the translator step. */
static unsigned long n_checked, n_accepted, n_bitcode, n_refused;

static void
print_counts(void)
{
   fprintf(stderr, "fuzz_spirv: %lu modules checked, %lu accepted, translator: %lu bitcode, "
                   "%lu build errors\n", n_checked, n_accepted, n_bitcode, n_refused);
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
   (void)argc;
   (void)argv;
   atexit(print_counts);
   setenv("HSACL_LOG", "off", 0);
   /* Well inside libFuzzer's per-input limit (scripts/fuzz: 30 s): a translator that loops
    * is the driver's build error, not the fuzzer's timeout. */
   setenv("HSACL_SPIRV_TIMEOUT", "10", 0);
   return 0;
}

/* Translation of a module the checker accepted: bitcode, or a build error with a log. */
static void
translate(const uint32_t *il, size_t size)
{
   void *bc = NULL;
   size_t bc_size = 0;
   char *log = NULL;
   enum comp_status st = comp__spirv_translate(il, size, NULL, 0, &bc, &bc_size, &log);
   if (st == COMP_OK) {
      if (!bc || bc_size < 4 || memcmp(bc, "BC\xc0\xde", 4) || log)
         abort();
      n_bitcode++;
   } else if (st == COMP_BUILD_FAILURE) {
      if (bc || !log || !*log)
         abort();
      n_refused++;
   } else if (st != COMP_OUT_OF_MEMORY) {
      abort(); /* COMP_INTERNAL_ERROR: the translator cannot run here */
   }
   free(bc);
   free(log);
}

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
      n_checked++;
      if (st == COMP_OK) {
         n_accepted++;
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
         if (data[0] & 2)
            translate(il, size - 1);
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

/* ---- the structure-aware mutator ------------------------------------------------------- */

static uint32_t
rng(uint32_t *state)
{
   *state ^= *state << 13;
   *state ^= *state >> 17;
   *state ^= *state << 5;
   return *state;
}

static uint32_t
get_word(const uint8_t *m, size_t i)
{
   uint32_t v;
   memcpy(&v, m + 4 * i, 4);
   return v;
}

static void
set_word(uint8_t *m, size_t i, uint32_t v)
{
   memcpy(m + 4 * i, &v, 4);
}

/* Where each instruction of the module at `m` (n words, host order) starts, up to `max`;
 * the count, or 0 when the word counts do not tile the module. */
static size_t
instruction_starts(const uint8_t *m, size_t n, size_t *starts, size_t max)
{
   size_t k = 0;
   for (size_t i = 5; i < n;) {
      uint32_t count = get_word(m, i) >> 16;
      if (count == 0 || count > n - i || k == max)
         return 0;
      starts[k++] = i;
      i += count;
   }
   return k;
}

/* One change that keeps the module a sequence of whole instructions: an operand word set
 * to a nearby id, a small number or a random value; an opcode replaced by another of the
 * module's; an instruction removed, duplicated or moved. */
static size_t
mutate_module(uint8_t *m, size_t n, size_t max_words, uint32_t *state)
{
   enum { MAX_INSNS = 1 << 16 };
   static size_t starts[MAX_INSNS];
   size_t k = instruction_starts(m, n, starts, MAX_INSNS);
   if (k == 0)
      return 0;
   size_t a = starts[rng(state) % k], b = starts[rng(state) % k];
   uint32_t ca = get_word(m, a) >> 16, cb = get_word(m, b) >> 16;
   uint32_t bound = get_word(m, 3);
   switch (rng(state) % 6) {
   case 0: /* an operand */
   case 1:
      if (ca < 2)
         return 0;
      {
         size_t at = a + 1 + rng(state) % (ca - 1);
         uint32_t r = rng(state), v;
         switch (r % 4) {
         case 0:
            v = bound ? 1 + r / 4 % bound : 1; /* an id */
            break;
         case 1:
            v = r / 4 % 16; /* an enumerant, a literal */
            break;
         case 2:
            v = get_word(m, at) + (r & 4 ? 1 : -1);
            break;
         default:
            v = r;
            break;
         }
         set_word(m, at, v);
      }
      return n;
   case 2: /* an opcode of another instruction, the word count kept */
      set_word(m, a, (get_word(m, a) & 0xffff0000u) | (get_word(m, b) & 0xffffu));
      return n;
   case 3: /* remove an instruction */
      memmove(m + 4 * a, m + 4 * (a + ca), 4 * (n - a - ca));
      return n - ca;
   case 4: /* duplicate an instruction before another */
      if (n + cb > max_words)
         return 0;
      {
         uint32_t copy[1024];
         if (cb > 1024)
            return 0;
         memcpy(copy, m + 4 * b, 4 * cb);
         memmove(m + 4 * (a + cb), m + 4 * a, 4 * (n - a));
         memcpy(m + 4 * a, copy, 4 * cb);
      }
      return n + cb;
   default: /* move an instruction before another */
      if (a == b || cb > 1024)
         return 0;
      {
         uint32_t copy[1024];
         memcpy(copy, m + 4 * b, 4 * cb);
         memmove(m + 4 * b, m + 4 * (b + cb), 4 * (n - b - cb));
         size_t at = a > b ? a - cb : a;
         memmove(m + 4 * (at + cb), m + 4 * at, 4 * (n - cb - at));
         memcpy(m + 4 * at, copy, 4 * cb);
      }
      return n;
   }
}

size_t
LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
   uint32_t state = seed | 1;
   /* Names, malformed modules and every other turn: libFuzzer's byte-level mutations. */
   if (size < 21 || data[0] % 2 || (size - 1) % 4 || rng(&state) % 2 == 0)
      return LLVMFuzzerMutate(data, size, max_size);
   if (rng(&state) % 8 == 0) {
      data[0] ^= 2; /* to or from the translator */
      return size;
   }
   size_t words = mutate_module(data + 1, (size - 1) / 4, (max_size - 1) / 4, &state);
   return words ? 1 + 4 * words : LLVMFuzzerMutate(data, size, max_size);
}
