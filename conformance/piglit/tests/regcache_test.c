/* conformance/piglit/tests/regcache_test.c — the preloaded regular-expression cache
 * (conformance/piglit/regcache.c), run with LD_PRELOAD set to it (conformance/CMakeLists.txt):
 * one compile per (pattern, flags), copies that match as the C library's own compile does,
 * regfree of copies, patterns that do not compile, and copies used from several threads. */
#define _GNU_SOURCE /* regex_t's field names */
#include <pthread.h>
#include <regex.h>
#include <stdio.h>
#include <string.h>

static int failures;

#define CHECK(cond)                                                                   \
   do {                                                                               \
      if (!(cond)) {                                                                  \
         fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);     \
         failures++;                                                                  \
      }                                                                               \
   } while (0)

/* 1 when `text` matches, with the first group's bounds in *so, *eo. */
static int match(const regex_t *re, const char *text, int *so, int *eo)
{
   regmatch_t m[2];
   if (regexec(re, text, 2, m, 0) != 0)
      return 0;
   *so = (int)m[1].rm_so;
   *eo = (int)m[1].rm_eo;
   return 1;
}

static void test_one_compile_per_pattern(void)
{
   const char *pat = "^[[:space:]]*arg_in:[[:space:]]*([0-9]+)";
   regex_t a, b, c;
   CHECK(regcomp(&a, pat, REG_EXTENDED) == 0);
   CHECK(regcomp(&b, pat, REG_EXTENDED) == 0);
   /* The preload is in effect: the second compile is the first one's copy. */
   CHECK(a.buffer == b.buffer);
   CHECK(regcomp(&c, pat, REG_EXTENDED | REG_NEWLINE) == 0);
   CHECK(c.buffer != a.buffer);
   int so = -1, eo = -1;
   CHECK(match(&a, "  arg_in: 42 buffer", &so, &eo) && so == 10 && eo == 12);
   CHECK(match(&b, "arg_in:7", &so, &eo) && so == 7 && eo == 8);
   CHECK(!match(&b, "arg_out: 7", &so, &eo));
   CHECK(a.re_nsub == 1 && b.re_nsub == 1);
   regfree(&a);
   /* Freeing one copy leaves the others usable. */
   CHECK(match(&b, "arg_in: 9", &so, &eo) && so == 8 && eo == 9);
   regfree(&b);
   regfree(&c);
   regex_t d;
   CHECK(regcomp(&d, pat, REG_EXTENDED) == 0);
   CHECK(match(&d, "arg_in: 123", &so, &eo) && so == 8 && eo == 11);
   regfree(&d);
}

static void test_flags_are_part_of_the_key(void)
{
   regex_t exact, icase, nosub;
   CHECK(regcomp(&exact, "kernel", 0) == 0);
   CHECK(regcomp(&icase, "kernel", REG_ICASE) == 0);
   CHECK(regcomp(&nosub, "kernel", REG_NOSUB) == 0);
   CHECK(regexec(&exact, "KERNEL", 0, NULL, 0) == REG_NOMATCH);
   CHECK(regexec(&icase, "KERNEL", 0, NULL, 0) == 0);
   CHECK(regexec(&nosub, "a kernel", 0, NULL, 0) == 0);
   /* Basic syntax: the parentheses are literal without REG_EXTENDED. */
   regex_t basic, extended;
   CHECK(regcomp(&basic, "(a)", 0) == 0);
   CHECK(regcomp(&extended, "(a)", REG_EXTENDED) == 0);
   CHECK(regexec(&basic, "a", 0, NULL, 0) == REG_NOMATCH);
   CHECK(regexec(&basic, "(a)", 0, NULL, 0) == 0);
   CHECK(regexec(&extended, "a", 0, NULL, 0) == 0);
   regfree(&exact);
   regfree(&icase);
   regfree(&nosub);
   regfree(&basic);
   regfree(&extended);
}

static void test_bad_pattern(void)
{
   for (int i = 0; i < 2; i++) {
      regex_t re;
      int rc = regcomp(&re, "([unclosed", REG_EXTENDED);
      CHECK(rc != 0);
      char msg[128];
      CHECK(regerror(rc, &re, msg, sizeof(msg)) > 1);
   }
}

/* More distinct patterns than the cache holds: those past it compile and free as before. */
static void test_many_patterns(void)
{
   for (int i = 0; i < 10000; i++) {
      char pat[32], text[32];
      snprintf(pat, sizeof(pat), "^x%d$", i);
      snprintf(text, sizeof(text), "x%d", i);
      regex_t re;
      if (regcomp(&re, pat, REG_EXTENDED) != 0) {
         CHECK(!"regcomp failed");
         return;
      }
      CHECK(regexec(&re, text, 0, NULL, 0) == 0);
      CHECK(regexec(&re, "x", 0, NULL, 0) == REG_NOMATCH);
      regfree(&re);
   }
}

static void *thread_main(void *arg)
{
   int id = (int)(long)arg;
   for (int i = 0; i < 2000; i++) {
      regex_t re;
      if (regcomp(&re, "^([a-z]+)=([0-9]+)$", REG_EXTENDED) != 0) {
         CHECK(!"regcomp failed");
         return NULL;
      }
      char text[32];
      snprintf(text, sizeof(text), "key=%d", id * 10000 + i);
      regmatch_t m[3];
      CHECK(regexec(&re, text, 3, m, 0) == 0 && m[1].rm_eo == 3 && m[2].rm_so == 4);
      regfree(&re);
   }
   return NULL;
}

static void test_threads(void)
{
   pthread_t t[4];
   for (long i = 0; i < 4; i++)
      CHECK(pthread_create(&t[i], NULL, thread_main, (void *)i) == 0);
   for (int i = 0; i < 4; i++)
      pthread_join(t[i], NULL);
}

int main(void)
{
   test_one_compile_per_pattern();
   test_flags_are_part_of_the_key();
   test_bad_pattern();
   test_many_patterns();
   test_threads();
   if (failures) {
      fprintf(stderr, "regcache_test: %d check(s) failed\n", failures);
      return 1;
   }
   printf("regcache_test: passed\n");
   return 0;
}
