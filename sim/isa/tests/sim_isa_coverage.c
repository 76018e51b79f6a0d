/*
 * Opcode coverage of the kernel and instruction tests. argv[1]: the union of (encoding,
 * mnemonic) forms LLVM 19 emits for gfx906 over the corpus configurations
 * (data/gfx906-opcode-union.txt); argv[2..]: HSACL_SIM_COUNTS files written by the
 * sim_isa_kernels runs and by sim_isa_test ("ENCODING:mnemonic count [lanes]" lines),
 * merged.
 *
 * Fails when no counts were recorded, when an executed form has no handler (it faulted as
 * unimplemented) and when a union form is never executed, except the instructions of
 * sim_isa_graphics_only.def (the interpreter deliberately leaves them unimplemented;
 * sim_isa_test executes each to check that it faults).
 * Executed forms outside the union are reported without failing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim_isa_priv.h"

/* The interpreter's memory lookup; nothing is executed here. */
const sim_alloc *sim__mem_find(uint64_t va);
const sim_alloc *
sim__mem_find(uint64_t va)
{
   (void)va;
   return NULL;
}

#define MAXF 2048

/* Instructions the interpreter deliberately does not implement, in every encoding: the
 * graphics-only ones and the later targets' mnemonics without a handler yet (which
 * sim_isa_test_gfx90a runs into their fault). */
static const char *const expected_illegal[] = {
#define SIM_GRAPHICS_ONLY(m, example, other, reason) #m,
#include "sim_isa_graphics_only.def"
#define SIM_UNHANDLED(m, reason) #m,
#include "sim_isa_unhandled.def"
   NULL};

static int
is_expected_illegal(const char *enc, const char *mnem)
{
   (void)enc;
   for (size_t i = 0; expected_illegal[i]; i++)
      if (!strcmp(expected_illegal[i], mnem))
         return 1;
   return 0;
}

typedef struct form {
   char enc[16], mnem[48];
   unsigned long long count;
   int in_union;
} form;

static form forms[MAXF];
static unsigned nforms;

static form *
find(const char *enc, const char *mnem, int add)
{
   for (unsigned i = 0; i < nforms; i++)
      if (!strcmp(forms[i].enc, enc) && !strcmp(forms[i].mnem, mnem))
         return &forms[i];
   if (!add || nforms == MAXF)
      return NULL;
   form *f = &forms[nforms++];
   snprintf(f->enc, sizeof(f->enc), "%s", enc);
   snprintf(f->mnem, sizeof(f->mnem), "%s", mnem);
   return f;
}

static int
has_handler(const char *mnem)
{
   for (unsigned op = 1; op < SIM_OP_COUNT; op++)
      if (!strcmp(sim__op_names[op], mnem))
         return sim__handler((sim_op)op) != NULL;
   return 0;
}

/* Union lines: "ENC (n): m1, m2+, m3*, ..." (suffixes mark the configurations). */
static void
read_union(const char *path)
{
   FILE *f = fopen(path, "r");
   if (!f) {
      perror(path);
      exit(1);
   }
   char line[16384];
   while (fgets(line, sizeof(line), f)) {
      char enc[16];
      int n, pos = 0;
      if (sscanf(line, "%15[A-Z0-9_] (%d):%n", enc, &n, &pos) != 2 || pos == 0)
         continue;
      char *p = line + pos, *tok;
      while ((tok = strtok(p, ", \n")) != NULL) {
         p = NULL;
         size_t len = strlen(tok);
         while (len && (tok[len - 1] == '+' || tok[len - 1] == '*'))
            tok[--len] = 0;
         if (len)
            find(enc, tok, 1)->in_union = 1;
      }
   }
   fclose(f);
}

int
main(int argc, char **argv)
{
   if (argc < 3) {
      fprintf(stderr, "usage: %s union.txt counts...\n", argv[0]);
      return 2;
   }
   read_union(argv[1]);
   unsigned union_n = nforms;
   int fail = 0, files = 0;
   for (int i = 2; i < argc; i++) {
      FILE *f = fopen(argv[i], "r");
      if (!f) {
         fprintf(stderr, "note: no counts file %s\n", argv[i]);
         continue;
      }
      files++;
      char line[256], enc[16], mnem[48];
      unsigned long long c;
      while (fgets(line, sizeof(line), f))
         if (sscanf(line, "%15[A-Z0-9_]:%47s %llu", enc, mnem, &c) == 3)
            find(enc, mnem, 1)->count += c;
      fclose(f);
   }
   if (!files) {
      fprintf(stderr, "FAIL: no counts recorded (run the sim_isa_kernels tests first)\n");
      return 1;
   }
   unsigned hit = 0, outside = 0, nillegal = 0, illegal_run = 0;
   unsigned long long total = 0;
   for (unsigned i = 0; i < nforms; i++) {
      form *f = &forms[i];
      total += f->count;
      if (is_expected_illegal(f->enc, f->mnem)) {
         nillegal++;
         illegal_run += f->count != 0;
         continue;
      }
      if (f->count && !has_handler(f->mnem)) {
         fprintf(stderr, "FAIL: executed without a handler: %s %s\n", f->enc, f->mnem);
         fail = 1;
      }
      if (f->in_union && f->count)
         hit++;
      if (!f->in_union && f->count)
         outside++;
   }
   unsigned target = union_n - nillegal;
   printf("coverage: %u of %u union forms executed (%.1f%%), %llu instructions counted\n", hit,
          target, 100.0 * hit / target, total);
   printf("expected illegal (%u of %u run into their fault):", illegal_run, nillegal);
   for (unsigned i = 0; i < nforms; i++)
      if (is_expected_illegal(forms[i].enc, forms[i].mnem))
         printf(" %s:%s%s", forms[i].enc, forms[i].mnem, has_handler(forms[i].mnem) ?
                " (has a handler!)" : "");
   printf("\nnever executed:");
   unsigned missing = 0;
   for (unsigned i = 0; i < nforms; i++)
      if (forms[i].in_union && !forms[i].count &&
          !is_expected_illegal(forms[i].enc, forms[i].mnem)) {
         printf(" %s:%s%s", forms[i].enc, forms[i].mnem,
                has_handler(forms[i].mnem) ? "" : "(no handler)");
         missing++;
      }
   printf(missing ? "\n" : " none\n");
   if (missing) {
      fprintf(stderr, "FAIL: %u union form(s) never executed by a test\n", missing);
      fail = 1;
   }
   printf("executed outside the union (%u):", outside);
   for (unsigned i = 0; i < nforms; i++)
      if (!forms[i].in_union && forms[i].count)
         printf(" %s:%s", forms[i].enc, forms[i].mnem);
   printf("\n");
   return fail;
}
