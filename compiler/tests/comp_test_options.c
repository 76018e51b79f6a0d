/*
 * comp_test_options — the OpenCL option-string parser (comp__options_parse).
 */
#include "comp_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static enum comp_status
parse(const char *s, enum comp_action a, struct comp__options *o, char **err)
{
   *err = NULL;
   return comp__options_parse(s, a, o, err);
}

/* The option must fail with `want` and the reason must quote `needle`. */
static void
expect_error(const char *s, enum comp_action a, enum comp_status want, const char *needle)
{
   struct comp__options o;
   char *err;
   enum comp_status st = parse(s, a, &o, &err);
   if (st != want || !err || !strstr(err, needle)) {
      fprintf(stderr, "FAIL: '%s' (action %d): got %s '%s', want %s mentioning '%s'\n", s, a,
              comp_status_name(st), err ? err : "(null)", comp_status_name(want), needle);
      failures++;
   }
   CHECK(o.num_pp_args == 0 && o.pp_args == NULL);
   free(err);
   comp__options_finish(&o);
}

int
main(void)
{
   struct comp__options o;
   char *err;

   CHECK(parse(NULL, COMP_ACTION_BUILD, &o, &err) == COMP_OK);
   CHECK(o.cl_std == 120 && !o.opt_disable && o.num_pp_args == 0);
   comp__options_finish(&o);

   CHECK(parse("  -cl-std=CL2.0\t-cl-mad-enable -cl-opt-disable -w -Werror -g ", COMP_ACTION_BUILD,
               &o, &err) == COMP_OK);
   CHECK(o.cl_std == 200 && o.mad_enable && o.opt_disable && o.no_warnings && o.werror &&
         o.debug_info && !o.unsafe_math);
   comp__options_finish(&o);

   CHECK(parse("-cl-std=cl3.0 -cl-std=CL1.1", COMP_ACTION_COMPILE, &o, &err) == COMP_OK);
   CHECK(o.cl_std == 110); /* the last one wins, as in clang */
   comp__options_finish(&o);

   CHECK(parse("-D X=1 -DY -D'Z=a b' -D \"Q=\\\"s\\\"\" -I /tmp/a\\ b -I/usr -DF(x)=x",
               COMP_ACTION_BUILD, &o, &err) == COMP_OK);
   CHECK(o.num_pp_args == 7);
   if (o.num_pp_args == 7) {
      CHECK(!strcmp(o.pp_args[0], "-DX=1"));
      CHECK(!strcmp(o.pp_args[1], "-DY"));
      CHECK(!strcmp(o.pp_args[2], "-DZ=a b"));
      CHECK(!strcmp(o.pp_args[3], "-DQ=\"s\""));
      CHECK(!strcmp(o.pp_args[4], "-I/tmp/a b"));
      CHECK(!strcmp(o.pp_args[5], "-I/usr"));
      CHECK(!strcmp(o.pp_args[6], "-DF(x)=x"));
   }
   comp__options_finish(&o);

   /* 5.8.6.3 implications. */
   CHECK(parse("-cl-fast-relaxed-math", COMP_ACTION_BUILD, &o, &err) == COMP_OK);
   CHECK(o.fast_relaxed_math && o.finite_math_only && o.unsafe_math && o.mad_enable &&
         o.no_signed_zeros);
   comp__options_finish(&o);
   CHECK(parse("-cl-unsafe-math-optimizations", COMP_ACTION_BUILD, &o, &err) == COMP_OK);
   CHECK(o.unsafe_math && o.mad_enable && o.no_signed_zeros && !o.finite_math_only);
   comp__options_finish(&o);

   CHECK(parse("-cl-denorms-are-zero -cl-fp32-correctly-rounded-divide-sqrt "
               "-cl-single-precision-constant -cl-uniform-work-group-size -cl-no-subgroup-ifp "
               "-cl-kernel-arg-info -cl-strict-aliasing -cl-finite-math-only -cl-no-signed-zeros",
               COMP_ACTION_BUILD, &o, &err) == COMP_OK);
   CHECK(o.denorms_are_zero && o.correctly_rounded_sqrt && o.single_precision_constant &&
         o.uniform_work_group_size && o.no_subgroup_ifp && o.kernel_arg_info && o.strict_aliasing &&
         o.finite_math_only && o.no_signed_zeros && !o.unsafe_math);
   comp__options_finish(&o);

   /* clLinkProgram's subset (5.8.7). */
   CHECK(parse("-create-library -enable-link-options -cl-denorms-are-zero -cl-no-signed-zeros "
               "-cl-unsafe-math-optimizations -cl-finite-math-only -cl-fast-relaxed-math "
               "-cl-no-subgroup-ifp",
               COMP_ACTION_LINK, &o, &err) == COMP_OK);
   CHECK(o.create_library && o.enable_link_options);
   comp__options_finish(&o);

   /* Errors: the kind follows the API call, the reason names the option. */
   expect_error("-cl-foo", COMP_ACTION_BUILD, COMP_INVALID_BUILD_OPTIONS, "-cl-foo");
   expect_error("-cl-foo", COMP_ACTION_COMPILE, COMP_INVALID_COMPILER_OPTIONS, "-cl-foo");
   expect_error("-cl-foo", COMP_ACTION_LINK, COMP_INVALID_LINKER_OPTIONS, "-cl-foo");
   expect_error("-DX -O3", COMP_ACTION_BUILD, COMP_INVALID_BUILD_OPTIONS, "-O3");
   expect_error("-x cl", COMP_ACTION_BUILD, COMP_INVALID_BUILD_OPTIONS, "-x");
   expect_error("-D", COMP_ACTION_BUILD, COMP_INVALID_BUILD_OPTIONS, "-D");
   expect_error("-I", COMP_ACTION_COMPILE, COMP_INVALID_COMPILER_OPTIONS, "-I");
   expect_error("-D 1X", COMP_ACTION_BUILD, COMP_INVALID_BUILD_OPTIONS, "1X");
   expect_error("-D=1", COMP_ACTION_BUILD, COMP_INVALID_BUILD_OPTIONS, "=1");
   expect_error("-cl-std=CL4.0", COMP_ACTION_BUILD, COMP_INVALID_BUILD_OPTIONS, "CL4.0");
   expect_error("-cl-std=clc++", COMP_ACTION_BUILD, COMP_INVALID_BUILD_OPTIONS, "clc++");
   expect_error("-cl-std=", COMP_ACTION_BUILD, COMP_INVALID_BUILD_OPTIONS, "-cl-std=");
   expect_error("-DX='1", COMP_ACTION_BUILD, COMP_INVALID_BUILD_OPTIONS, "quote");
   expect_error("-DX=\"1", COMP_ACTION_COMPILE, COMP_INVALID_COMPILER_OPTIONS, "quote");
   expect_error("-cl-mad-enable", COMP_ACTION_LINK, COMP_INVALID_LINKER_OPTIONS, "-cl-mad-enable");
   expect_error("-DX", COMP_ACTION_LINK, COMP_INVALID_LINKER_OPTIONS, "-DX");
   expect_error("-cl-std=CL2.0", COMP_ACTION_LINK, COMP_INVALID_LINKER_OPTIONS, "-cl-std");
   expect_error("-create-library", COMP_ACTION_BUILD, COMP_INVALID_BUILD_OPTIONS,
                "-create-library");
   expect_error("-enable-link-options", COMP_ACTION_COMPILE, COMP_INVALID_COMPILER_OPTIONS,
                "-enable-link-options");
   /* 5.8.7.1: -enable-link-options only with -create-library. */
   expect_error("-enable-link-options -cl-finite-math-only", COMP_ACTION_LINK,
                COMP_INVALID_LINKER_OPTIONS, "-create-library");
   expect_error("-cl-opt-disable -g -cl-mad-enable2", COMP_ACTION_BUILD, COMP_INVALID_BUILD_OPTIONS,
                "-cl-mad-enable2");

   return comp_test_end("comp_test_options");
}
