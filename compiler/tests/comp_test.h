/*
 * compiler/tests/comp_test.h — what the compiler's unit tests share: checks that record a
 * failure with file:line and go on, one source through comp_build, counting a string in
 * emitted text, and the exit status.
 */
#ifndef COMP_TEST_H
#define COMP_TEST_H

#include "comp_priv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

#define CHECK(cond)                                                                                \
   do {                                                                                            \
      if (!(cond)) {                                                                               \
         fprintf(stderr, "%s:%d: FAIL: %s\n", __FILE__, __LINE__, #cond);                          \
         failures++;                                                                               \
      }                                                                                            \
   } while (0)

/* CHECK with a printf-style message saying which case failed. */
#define CHECK_MSG(cond, ...)                                                                       \
   do {                                                                                            \
      if (!(cond)) {                                                                               \
         fprintf(stderr, "%s:%d: FAIL: %s: ", __FILE__, __LINE__, #cond);                          \
         fprintf(stderr, __VA_ARGS__);                                                             \
         fputc('\n', stderr);                                                                      \
         failures++;                                                                               \
      }                                                                                            \
   } while (0)

/* Builds `src` as described by `desc` (options, target, lists, emit; the source name
 * defaults to "test.cl"). */
static inline enum comp_status
comp_test_build(const char *src, struct comp_build_desc desc, struct comp_output *out)
{
   desc.source = src;
   desc.source_size = strlen(src);
   if (!desc.source_name)
      desc.source_name = "test.cl";
   return comp_build(&desc, out);
}

/* How many times `what` occurs in `text` (0 for NULL text). */
static inline unsigned
comp_test_count(const char *text, const char *what)
{
   unsigned n = 0;
   for (const char *s = text ? strstr(text, what) : NULL; s; s = strstr(s + 1, what))
      n++;
   return n;
}

/* The exit status of test program `name`, after a summary line. */
static inline int
comp_test_end(const char *name)
{
   if (failures)
      fprintf(stderr, "%s: %d failure(s)\n", name, failures);
   else
      printf("%s: all passed\n", name);
   return failures ? 1 : 0;
}

#endif
