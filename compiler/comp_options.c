/*
 * comp_options.c — the application's OpenCL build/compile/link option strings.
 *
 * Accepted options are those of OpenCL 3.0 API 5.8.6 (compiler options) and 5.8.7 (linker
 * options); anything else is an error reported with the option's text, so that the C API can
 * return CL_INVALID_BUILD_OPTIONS / CL_INVALID_COMPILER_OPTIONS / CL_INVALID_LINKER_OPTIONS.
 */
#define _GNU_SOURCE
#include "comp_priv.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Options that only set a flag. `link_ok`: also valid for clLinkProgram (5.8.7);
 * `link_only`: valid only there. */
struct flag_option {
   const char *name;
   size_t field;
   bool link_ok;
   bool link_only;
};

#define FLAG(n, f, l, lo) { n, offsetof(struct comp__options, f), l, lo }
static const struct flag_option flag_options[] = {
   FLAG("-cl-opt-disable", opt_disable, false, false),
   FLAG("-cl-mad-enable", mad_enable, false, false),
   FLAG("-cl-no-signed-zeros", no_signed_zeros, true, false),
   FLAG("-cl-unsafe-math-optimizations", unsafe_math, true, false),
   FLAG("-cl-finite-math-only", finite_math_only, true, false),
   FLAG("-cl-fast-relaxed-math", fast_relaxed_math, true, false),
   FLAG("-cl-denorms-are-zero", denorms_are_zero, true, false),
   FLAG("-cl-fp32-correctly-rounded-divide-sqrt", correctly_rounded_sqrt, false, false),
   FLAG("-cl-single-precision-constant", single_precision_constant, false, false),
   FLAG("-cl-uniform-work-group-size", uniform_work_group_size, false, false),
   FLAG("-cl-no-subgroup-ifp", no_subgroup_ifp, true, false),
   FLAG("-cl-kernel-arg-info", kernel_arg_info, false, false),
   FLAG("-cl-strict-aliasing", strict_aliasing, false, false),
   FLAG("-g", debug_info, false, false),
   FLAG("-w", no_warnings, false, false),
   FLAG("-Werror", werror, false, false),
   FLAG("-create-library", create_library, true, true),
   FLAG("-enable-link-options", enable_link_options, true, true),
};
#undef FLAG

struct tokens {
   char **v;
   size_t n;
};

static enum comp_status
error_for(enum comp_action action)
{
   switch (action) {
   case COMP_ACTION_COMPILE:
      return COMP_INVALID_COMPILER_OPTIONS;
   case COMP_ACTION_LINK:
      return COMP_INVALID_LINKER_OPTIONS;
   case COMP_ACTION_BUILD:
   default:
      return COMP_INVALID_BUILD_OPTIONS;
   }
}

static char *
format_error(const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   char *s = NULL;
   if (vasprintf(&s, fmt, ap) < 0)
      s = NULL;
   va_end(ap);
   return s;
}

static bool
push(char ***v, size_t *n, char *s)
{
   char **nv = realloc(*v, (*n + 1) * sizeof(**v));
   if (!nv)
      return false;
   nv[(*n)++] = s;
   *v = nv;
   return true;
}

static void
tokens_finish(struct tokens *t)
{
   for (size_t i = 0; i < t->n; i++)
      free(t->v[i]);
   free(t->v);
}

/* Splits like a POSIX shell without expansions. Returns NULL on success, else a static
 * reason (unterminated quote) or "out of memory". */
static const char *
tokenize(const char *s, struct tokens *t)
{
   size_t len = strlen(s);
   char *cur = malloc(len + 1);
   if (!cur)
      return "out of memory";
   size_t i = 0;
   const char *reason = NULL;
   while (s[i]) {
      while (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r' || s[i] == '\f' ||
             s[i] == '\v')
         i++;
      if (!s[i])
         break;
      size_t n = 0;
      while (s[i] && !(s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r' ||
                       s[i] == '\f' || s[i] == '\v')) {
         char c = s[i];
         if (c == '\'') {
            i++;
            while (s[i] && s[i] != '\'')
               cur[n++] = s[i++];
            if (!s[i]) {
               reason = "unterminated single quote";
               goto out;
            }
            i++;
         } else if (c == '"') {
            i++;
            while (s[i] && s[i] != '"') {
               if (s[i] == '\\' && (s[i + 1] == '"' || s[i + 1] == '\\'))
                  i++;
               cur[n++] = s[i++];
            }
            if (!s[i]) {
               reason = "unterminated double quote";
               goto out;
            }
            i++;
         } else if (c == '\\' && s[i + 1]) {
            cur[n++] = s[i + 1];
            i += 2;
         } else {
            cur[n++] = c;
            i++;
         }
      }
      char *tok = strndup(cur, n);
      if (!tok || !push(&t->v, &t->n, tok)) {
         free(tok);
         reason = "out of memory";
         goto out;
      }
   }
out:
   free(cur);
   return reason;
}

/* A -D argument: NAME, NAME=VALUE or NAME(ARGS)=VALUE with NAME an identifier. */
static bool
valid_define(const char *d)
{
   if (!((*d >= 'A' && *d <= 'Z') || (*d >= 'a' && *d <= 'z') || *d == '_'))
      return false;
   for (d++; *d && *d != '=' && *d != '('; d++)
      if (!((*d >= 'A' && *d <= 'Z') || (*d >= 'a' && *d <= 'z') || (*d >= '0' && *d <= '9') ||
            *d == '_'))
         return false;
   return true;
}

static bool
parse_std(const char *v, unsigned *std)
{
   static const struct {
      const char *name;
      unsigned version;
   } stds[] = {
      { "CL1.0", 100 }, { "CL1.1", 110 }, { "CL1.2", 120 }, { "CL2.0", 200 }, { "CL3.0", 300 },
      { "CL3.1", 310 },
   };
   if (!(v[0] == 'C' || v[0] == 'c') || !(v[1] == 'L' || v[1] == 'l'))
      return false;
   for (size_t i = 0; i < sizeof(stds) / sizeof(stds[0]); i++) {
      if (!strcmp(v + 2, stds[i].name + 2)) {
         *std = stds[i].version;
         return true;
      }
   }
   return false;
}

void
comp__options_finish(struct comp__options *opts)
{
   for (size_t i = 0; i < opts->num_pp_args; i++)
      free(opts->pp_args[i]);
   free(opts->pp_args);
   opts->pp_args = NULL;
   opts->num_pp_args = 0;
}

enum comp_status
comp__options_parse(const char *str, enum comp_action action, struct comp__options *out,
                    char **error)
{
   struct tokens t = { 0 };
   enum comp_status status = COMP_OK;
   char *reason = NULL;

   memset(out, 0, sizeof(*out));
   out->cl_std = 120;
   if (!str)
      str = "";

   const char *terr = tokenize(str, &t);
   if (terr) {
      status = strcmp(terr, "out of memory") ? error_for(action) : COMP_OUT_OF_MEMORY;
      reason = format_error("malformed options: %s", terr);
      goto out_tokens;
   }

   for (size_t i = 0; i < t.n; i++) {
      const char *tok = t.v[i];
      bool matched = false;

      for (size_t f = 0; f < sizeof(flag_options) / sizeof(flag_options[0]); f++) {
         const struct flag_option *fo = &flag_options[f];
         if (strcmp(tok, fo->name))
            continue;
         if (action == COMP_ACTION_LINK ? !fo->link_ok : fo->link_only) {
            status = error_for(action);
            reason = format_error("option '%s' is not valid for %s", tok,
                                  action == COMP_ACTION_LINK ? "clLinkProgram"
                                  : action == COMP_ACTION_COMPILE ? "clCompileProgram"
                                                                  : "clBuildProgram");
            goto out_tokens;
         }
         *(bool *)((char *)out + fo->field) = true;
         matched = true;
         break;
      }
      if (matched)
         continue;

      if (action != COMP_ACTION_LINK && !strncmp(tok, "-cl-std=", 8)) {
         if (!parse_std(tok + 8, &out->cl_std)) {
            status = error_for(action);
            reason = format_error("invalid OpenCL C version in '%s' (expected CL1.0, CL1.1, "
                                  "CL1.2, CL2.0, CL3.0 or CL3.1)", tok);
            goto out_tokens;
         }
         continue;
      }

      if (action != COMP_ACTION_LINK && (!strncmp(tok, "-D", 2) || !strncmp(tok, "-I", 2))) {
         bool is_define = tok[1] == 'D';
         const char *arg = tok + 2;
         if (!*arg) {
            if (i + 1 >= t.n) {
               status = error_for(action);
               reason = format_error("option '%s' requires an argument", tok);
               goto out_tokens;
            }
            arg = t.v[++i];
         }
         if (is_define ? !valid_define(arg) : !*arg) {
            status = error_for(action);
            reason = format_error("malformed argument '%s' to option '-%c'", arg, tok[1]);
            goto out_tokens;
         }
         char *pp = format_error("-%c%s", tok[1], arg);
         if (!pp || !push(&out->pp_args, &out->num_pp_args, pp)) {
            free(pp);
            status = COMP_OUT_OF_MEMORY;
            reason = format_error("out of memory");
            goto out_tokens;
         }
         continue;
      }

      status = error_for(action);
      reason = format_error("unknown option '%s'", tok);
      goto out_tokens;
   }

   /* 5.8.7.1: -enable-link-options must be specified with -create-library. */
   if (out->enable_link_options && !out->create_library) {
      status = error_for(action);
      reason = format_error("option '-enable-link-options' requires '-create-library'");
      goto out_tokens;
   }

   /* 5.8.6.3: -cl-fast-relaxed-math implies -cl-finite-math-only and
    * -cl-unsafe-math-optimizations, which implies -cl-no-signed-zeros and -cl-mad-enable. */
   if (out->fast_relaxed_math)
      out->finite_math_only = out->unsafe_math = true;
   if (out->unsafe_math)
      out->no_signed_zeros = out->mad_enable = true;

out_tokens:
   tokens_finish(&t);
   if (status != COMP_OK) {
      comp__options_finish(out);
      if (error)
         *error = reason;
      else
         free(reason);
   }
   return status;
}
