/*
 * comp_test_corpus — builds every kernel of a directory for one target and one option
 * variant, and checks each code object:
 *   - the build succeeds and the metadata parses;
 *   - kernel names, argument count/offsets/sizes/value kinds, kernarg size and segment
 *     sizes agree with `llvm-readelf --notes` (an independent MessagePack reader, run once
 *     over all the code objects);
 *   - every wavefront size is the one the target should use;
 *   - no device-library function survives as a called function: every STT_FUNC symbol of
 *     the code object is a kernel or a function the kernel source itself defines (a
 *     device-library function that was not inlined would appear as a local symbol);
 *   - no kernel is empty: every corpus kernel stores something, so code of 8 bytes or less
 *     (s_endpgm, perhaps after one s_mov) means code generation dropped what it called
 *     (issue #25; the build itself refuses that, compiler/comp_passes.cpp).
 *
 * usage: comp_test_corpus TARGET OPTIONS KERNEL_DIR READELF OUT_DIR
 * Files containing "// STD: CL2.0" get -cl-std=CL2.0.
 */
#include "comp_llvm.h"

#include <dirent.h>
#include <stdarg.h>
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int failures;

#define FAIL(...)                                                                            \
   do {                                                                                      \
      fprintf(stderr, "FAIL: " __VA_ARGS__);                                                 \
      fputc('\n', stderr);                                                                   \
      failures++;                                                                            \
   } while (0)

static char *
slurp(const char *path, size_t *size)
{
   FILE *f = fopen(path, "rb");
   if (!f)
      return NULL;
   fseek(f, 0, SEEK_END);
   long n = ftell(f);
   fseek(f, 0, SEEK_SET);
   char *buf = malloc(n + 1);
   if (buf && fread(buf, 1, n, f) != (size_t)n) {
      free(buf);
      buf = NULL;
   }
   if (buf)
      buf[n] = 0;
   fclose(f);
   *size = n;
   return buf;
}

struct strbuf {
   char *s;
   size_t n, cap;
};

static void
sb_printf(struct strbuf *b, const char *fmt, ...)
{
   va_list ap;
   for (;;) {
      va_start(ap, fmt);
      int n = vsnprintf(b->s ? b->s + b->n : NULL, b->s ? b->cap - b->n : 0, fmt, ap);
      va_end(ap);
      if (b->s && (size_t)n < b->cap - b->n) {
         b->n += n;
         return;
      }
      b->cap = (b->cap + n + 1) * 2;
      b->s = realloc(b->s, b->cap);
      if (!b->s)
         abort();
   }
}

/* Canonical text of the fields we compare, from our parsed record. */
static void
canon_from_info(const struct comp_program_info *info, struct strbuf *b)
{
   for (uint32_t i = 0; i < info->num_kernels; i++) {
      const struct comp_kernel *k = &info->kernels[i];
      sb_printf(b, "K %s %s kernarg=%u group=%u private=%u wave=%u nargs=%u\n", k->name,
                k->symbol, k->kernarg_segment_size, k->group_segment_fixed_size,
                k->private_segment_fixed_size, k->wavefront_size, k->num_args);
      for (uint32_t j = 0; j < k->num_args; j++)
         sb_printf(b, "  A %u %u %s\n", k->args[j].offset, k->args[j].size,
                   comp_arg_kind_name(k->args[j].kind));
   }
}

/* The same from `llvm-readelf --notes` YAML: kernels are "  - " items of amdhsa.kernels,
 * their keys indented by 4; arguments are "      - " items, keys indented by 8. One parser
 * state per code object: readelf runs once over all of them (loading libLLVM is most of a
 * readelf run), and each object's output starts with a "File: " line. */
struct ykernel {
   char name[256], symbol[256];
   unsigned kernarg, group, priv, wave, nargs;
   struct strbuf args;
};

struct yparse {
   struct strbuf *out;
   bool in_kernels, have, have_arg, in_args; /* in_args: between ".args:" and the next key */
   struct ykernel k;
   unsigned aoff, asize;
   char akind[64];
};

static void
y_flush_arg(struct yparse *y)
{
   if (y->have_arg) {
      sb_printf(&y->k.args, "  A %u %u %s\n", y->aoff, y->asize, y->akind);
      y->k.nargs++;
   }
   y->have_arg = false;
}

static void
y_flush_kernel(struct yparse *y)
{
   y_flush_arg(y);
   if (y->have) {
      const struct ykernel *k = &y->k;
      sb_printf(y->out, "K %s %s kernarg=%u group=%u private=%u wave=%u nargs=%u\n%s", k->name,
                k->symbol, k->kernarg, k->group, k->priv, k->wave, k->nargs,
                k->args.s ? k->args.s : "");
      free(y->k.args.s);
   }
   memset(&y->k, 0, sizeof(y->k));
   y->have = false;
}

/* Sets the kernel-level (indent 4) or argument-level (indent 8) field `key`. */
static void
y_field(struct yparse *y, size_t indent, const char *key, const char *val)
{
   struct ykernel *k = &y->k;
   if (indent == 4) {
      y_flush_arg(y);
      y->in_args = !strcmp(key, ".args");
      if (!strcmp(key, ".name"))
         snprintf(k->name, sizeof(k->name), "%s", val);
      else if (!strcmp(key, ".symbol"))
         snprintf(k->symbol, sizeof(k->symbol), "%s", val);
      else if (!strcmp(key, ".kernarg_segment_size"))
         k->kernarg = strtoul(val, NULL, 0);
      else if (!strcmp(key, ".group_segment_fixed_size"))
         k->group = strtoul(val, NULL, 0);
      else if (!strcmp(key, ".private_segment_fixed_size"))
         k->priv = strtoul(val, NULL, 0);
      else if (!strcmp(key, ".wavefront_size"))
         k->wave = strtoul(val, NULL, 0);
   } else if (indent == 8) {
      if (!strcmp(key, ".offset"))
         y->aoff = strtoul(val, NULL, 0);
      else if (!strcmp(key, ".size"))
         y->asize = strtoul(val, NULL, 0);
      else if (!strcmp(key, ".value_kind"))
         snprintf(y->akind, sizeof(y->akind), "%s", val);
   }
}

/* One line of a code object's readelf output (without its newline). */
static void
y_line(struct yparse *y, char *line)
{
   if (!strncmp(line, "amdhsa.kernels:", 15)) {
      y->in_kernels = true;
      return;
   }
   if (line[0] && line[0] != ' ') {
      if (y->in_kernels)
         y_flush_kernel(y);
      y->in_kernels = false;
      return;
   }
   if (!y->in_kernels)
      return;
   size_t indent = strspn(line, " ");
   char *key = line + indent;
   if (!strncmp(key, "- ", 2)) {
      if (indent == 2) {
         y_flush_kernel(y);
         y->have = true;
         y->in_args = false;
      } else if (indent == 6) {
         if (!y->in_args)
            return; /* an item of another sequence (.language_version, ...) */
         y_flush_arg(y);
         y->have_arg = true;
      }
      indent += 2;
      key += 2;
   }
   char *colon = strchr(key, ':');
   if (!colon)
      return;
   *colon = 0;
   char *val = colon + 1;
   val += strspn(val, " ");
   size_t vl = strlen(val);
   if (vl >= 2 && (val[0] == '\'' || val[0] == '"')) {
      val[vl - 1] = 0;
      val++;
   }
   y_field(y, indent, key, val);
}

static void
y_end(struct yparse *y)
{
   if (y->in_kernels)
      y_flush_kernel(y);
   y->out = NULL;
}

/* A built code object waiting for readelf: its file and our canonical text. */
struct pending {
   char co[8300];
   const char *kname;
   struct strbuf ours, theirs;
   bool seen;
};

/* Runs `readelf --notes` once over every pending code object and fills their `theirs`. */
static void
canon_from_readelf(const char *readelf, struct pending *pend, unsigned npend)
{
   struct strbuf cmd = { 0 };
   sb_printf(&cmd, "%s --notes", readelf);
   for (unsigned i = 0; i < npend; i++)
      sb_printf(&cmd, " '%s'", pend[i].co);
   FILE *p = npend ? popen(cmd.s, "r") : NULL;
   if (npend && !p)
      FAIL("cannot run %s", readelf);
   char line[4096];
   struct yparse y = { 0 };
   if (npend == 1) /* readelf names the files only when it has several */
      pend[0].seen = true, y.out = &pend[0].theirs;
   while (p && fgets(line, sizeof(line), p)) {
      line[strcspn(line, "\n")] = 0;
      if (!strncmp(line, "File: ", 6)) {
         y_end(&y);
         for (unsigned i = 0; i < npend && !y.out; i++)
            if (!pend[i].seen && !strcmp(line + 6, pend[i].co))
               pend[i].seen = true, y.out = &pend[i].theirs;
         if (!y.out)
            FAIL("readelf printed a file it was not given: %s", line + 6);
         continue;
      }
      if (y.out)
         y_line(&y, line);
   }
   y_end(&y);
   if (p && pclose(p) != 0)
      FAIL("%s --notes failed", readelf);
   free(cmd.s);
}

/* True if `name` occurs in `text` as a whole identifier. */
static bool
has_identifier(const char *text, const char *name)
{
   size_t n = strlen(name);
   for (const char *s = strstr(text, name); s; s = strstr(s + 1, name)) {
      bool before = s == text || !(s[-1] == '_' || (s[-1] >= '0' && s[-1] <= '9') ||
                                   ((s[-1] | 32) >= 'a' && (s[-1] | 32) <= 'z'));
      char c = s[n];
      bool after = !(c == '_' || (c >= '0' && c <= '9') || ((c | 32) >= 'a' && (c | 32) <= 'z'));
      if (before && after)
         return true;
   }
   return false;
}

/* No kernel symbol may be empty, and (unless `calls_expected`) every STT_FUNC symbol must be
 * a kernel or a function of the source. */
static void
check_functions(const char *kname, const void *elf, size_t size, const char *source,
                const struct comp_program_info *info, bool calls_expected)
{
   const Elf64_Ehdr *eh = elf;
   if (size < sizeof(*eh) || eh->e_shoff + (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr) > size) {
      FAIL("%s: bad ELF", kname);
      return;
   }
   const Elf64_Shdr *sh = (const Elf64_Shdr *)((const char *)elf + eh->e_shoff);
   for (unsigned i = 0; i < eh->e_shnum; i++) {
      if (sh[i].sh_type != SHT_SYMTAB)
         continue;
      const Elf64_Sym *sym = (const Elf64_Sym *)((const char *)elf + sh[i].sh_offset);
      const char *str = (const char *)elf + sh[sh[i].sh_link].sh_offset;
      size_t n = sh[i].sh_size / sizeof(Elf64_Sym);
      for (size_t j = 0; j < n; j++) {
         if (ELF64_ST_TYPE(sym[j].st_info) != STT_FUNC || sym[j].st_shndx == SHN_UNDEF)
            continue;
         const char *name = str + sym[j].st_name;
         bool ok = false;
         for (uint32_t k = 0; k < info->num_kernels && !ok; k++)
            ok = !strcmp(name, info->kernels[k].name);
         if (ok && sym[j].st_size <= 8)
            FAIL("%s: kernel '%s' is %lu bytes of code: it does nothing", kname, name,
                 (unsigned long)sym[j].st_size);
         if (!ok && (calls_expected || has_identifier(source, name)))
            ok = true;
         if (!ok)
            FAIL("%s: function '%s' (not a kernel nor in the source) remains in the code "
                 "object: a device-library call was not inlined",
                 kname, name);
      }
   }
}

static int
filter_cl(const struct dirent *d)
{
   size_t n = strlen(d->d_name);
   return n > 3 && !strcmp(d->d_name + n - 3, ".cl");
}

int
main(int argc, char **argv)
{
   if (argc != 6) {
      fprintf(stderr, "usage: %s TARGET OPTIONS KERNEL_DIR READELF OUT_DIR\n", argv[0]);
      return 2;
   }
   const char *target = argv[1], *variant = argv[2], *dir = argv[3], *readelf = argv[4],
              *outdir = argv[5];
   unsigned wave = comp_target_wavefront_size(target);
   if (!wave) {
      fprintf(stderr, "unknown target %s\n", target);
      return 2;
   }
   struct dirent **ents;
   int n = scandir(dir, &ents, filter_cl, alphasort);
   if (n <= 0) {
      fprintf(stderr, "no kernels in %s\n", dir);
      return 2;
   }
   struct timespec t0, t1;
   clock_gettime(CLOCK_MONOTONIC, &t0);
   unsigned kernels = 0, npend = 0;
   struct pending *pend = calloc(n, sizeof(*pend));
   if (!pend)
      abort();
   for (int i = 0; i < n; i++) {
      char path[4096], opts[1024];
      snprintf(path, sizeof(path), "%s/%s", dir, ents[i]->d_name);
      size_t size;
      char *src = slurp(path, &size);
      if (!src) {
         FAIL("cannot read %s", path);
         continue;
      }
      snprintf(opts, sizeof(opts), "%s%s", variant,
               strstr(src, "// STD: CL2.0") ? " -cl-std=CL2.0" : "");
      struct comp_build_desc desc = {
         .source = src,
         .source_size = size,
         .source_name = ents[i]->d_name,
         .options = opts,
         .target_id = target,
      };
      struct comp_output out;
      enum comp_status st = comp_build(&desc, &out);
      if (st != COMP_OK || !out.info || !out.info->num_kernels) {
         FAIL("%s %s [%s]: %s\n%s", target, ents[i]->d_name, opts, comp_status_name(st),
              out.log);
         goto next;
      }
      kernels += out.info->num_kernels;
      for (uint32_t k = 0; k < out.info->num_kernels; k++)
         if (out.info->kernels[k].wavefront_size != wave)
            FAIL("%s %s: kernel %s has wavefront size %u, want %u", target, ents[i]->d_name,
                 out.info->kernels[k].name, out.info->kernels[k].wavefront_size, wave);
      /* -O0 runs no inliner: device-library calls are expected there. */
      check_functions(ents[i]->d_name, out.data, out.size, src, out.info,
                      strstr(variant, "-cl-opt-disable") != NULL);

      struct pending *pe = &pend[npend];
      snprintf(pe->co, sizeof(pe->co), "%s/%s.co", outdir, ents[i]->d_name);
      FILE *f = fopen(pe->co, "wb");
      if (!f || fwrite(out.data, 1, out.size, f) != out.size || fclose(f)) {
         FAIL("cannot write %s", pe->co);
         goto next;
      }
      pe->kname = ents[i]->d_name;
      canon_from_info(out.info, &pe->ours);
      npend++;
   next:
      comp_output_finish(&out);
      free(src);
   }
   canon_from_readelf(readelf, pend, npend);
   for (unsigned i = 0; i < npend; i++) {
      const struct pending *pe = &pend[i];
      if (!pe->theirs.s || strcmp(pe->ours.s, pe->theirs.s))
         FAIL("%s %s: metadata differs from llvm-readelf\n--- ours\n%s--- readelf\n%s", target,
              pe->kname, pe->ours.s, pe->theirs.s ? pe->theirs.s : "(nothing)\n");
      free(pe->ours.s);
      free(pe->theirs.s);
   }
   free(pend);
   for (int i = 0; i < n; i++)
      free(ents[i]);
   free(ents);
   clock_gettime(CLOCK_MONOTONIC, &t1);
   printf("%s [%s]: %d programs, %u kernels, %.2f s, %d failures\n", target, variant, n,
          kernels, (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9, failures);
   return failures ? 1 : 0;
}
