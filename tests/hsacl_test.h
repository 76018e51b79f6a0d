/*
 * tests/hsacl_test.h — the minimal check harness every hsacl test program uses.
 * CHECK* record a failure with file:line and continue; test_main_end() prints
 * "N passed, N failed" and returns the exit status ctest reads.
 */
#ifndef HSACL_TEST_H
#define HSACL_TEST_H

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static unsigned test_passed, test_failed;

#define CHECK(cond)                                                                          \
   do {                                                                                     \
      if (cond) {                                                                           \
         test_passed++;                                                                     \
      } else {                                                                              \
         test_failed++;                                                                     \
         fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);           \
      }                                                                                     \
   } while (0)

#define CHECK_EQ_INT(got, want)                                                              \
   do {                                                                                     \
      long long g_ = (long long)(got), w_ = (long long)(want);                              \
      if (g_ == w_) {                                                                       \
         test_passed++;                                                                     \
      } else {                                                                              \
         test_failed++;                                                                     \
         fprintf(stderr, "%s:%d: %s = %lld, expected %s = %lld\n", __FILE__, __LINE__,     \
                 #got, g_, #want, w_);                                                      \
      }                                                                                     \
   } while (0)

#define CHECK_STR(got, want)                                                                 \
   do {                                                                                     \
      const char *g_ = (got), *w_ = (want);                                                 \
      if (g_ && w_ && !strcmp(g_, w_)) {                                                    \
         test_passed++;                                                                     \
      } else {                                                                              \
         test_failed++;                                                                     \
         fprintf(stderr, "%s:%d: %s = \"%s\", expected \"%s\"\n", __FILE__, __LINE__, #got, \
                 g_ ? g_ : "(null)", w_ ? w_ : "(null)");                                   \
      }                                                                                     \
   } while (0)

/* Seconds on the monotonic clock, for tests that bound how long something took. */
static inline double
test_now_s(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A test that could deadlock calls test_watchdog(name, seconds) first: with no end by then
 * it exits 2 with "<name>: no progress in <seconds> s" (async-signal-safe), instead of
 * waiting for ctest's timeout. */
static const char *test_watchdog_name;

static inline void
test_watchdog_fire(int sig)
{
   (void)sig;
   static const char msg[] = ": no progress before the watchdog fired (deadlock?)\n";
   (void)!write(2, test_watchdog_name, strlen(test_watchdog_name));
   (void)!write(2, msg, sizeof(msg) - 1);
   _exit(2);
}

static inline void
test_watchdog(const char *name, unsigned seconds)
{
   test_watchdog_name = name;
   signal(SIGALRM, test_watchdog_fire);
   alarm(seconds);
}

/* Captures what the process writes to stderr (hsacl's log) between test_stderr_begin and
 * test_stderr_end into `buf` (NUL-terminated, truncated to `size`). Not reentrant. */
static int test_stderr_saved = -1;
static FILE *test_stderr_file;

static inline void
test_stderr_begin(void)
{
   fflush(stderr);
   test_stderr_file = tmpfile();
   test_stderr_saved = dup(STDERR_FILENO);
   if (test_stderr_file)
      dup2(fileno(test_stderr_file), STDERR_FILENO);
}

static inline void
test_stderr_end(char *buf, size_t size)
{
   fflush(stderr);
   dup2(test_stderr_saved, STDERR_FILENO);
   close(test_stderr_saved);
   buf[0] = 0;
   if (!test_stderr_file)
      return;
   rewind(test_stderr_file);
   size_t n = fread(buf, 1, size - 1, test_stderr_file);
   buf[n] = 0;
   fclose(test_stderr_file);
   test_stderr_file = NULL;
}

/* The target of the first software GPU the run configures: the first entry of
 * HSACL_SIM_GPUS, else gfx906 (HSACL_KFD_GPUS means gfx906s; docs/sim.md "Targets"). */
static inline void
test_sim_target(char *out, size_t size)
{
   const char *l = getenv("HSACL_SIM_GPUS");
   if (!l || !*l)
      l = "gfx906";
   size_t n = strcspn(l, ",");
   snprintf(out, size, "%.*s", (int)n, l);
}

/* The wave size, and so the sub-group size, of OpenCL kernels on that GPU: 32 on gfx10 and
 * later (RDNA; the driver compiles for wave32 there, as AMD's does), 64 on GCN and CDNA. */
static inline unsigned
test_sim_wave_size(void)
{
   char t[32];
   test_sim_target(t, sizeof(t));
   return !strncmp(t, "gfx1", 4) && strlen(t) >= 7 ? 32 : 64;
}

static inline int
test_main_end(void)
{
   printf("%u passed, %u failed\n", test_passed, test_failed);
   return test_failed ? 1 : 0;
}

/* The bytes of file `path`, NUL-terminated (one byte more than *size), malloc'd; NULL with a
 * failure counted and the reason printed when it cannot be read. */
static inline char *
test_read_file(const char *path, size_t *size)
{
   FILE *f = fopen(path, "rb");
   if (!f) {
      fprintf(stderr, "cannot open %s\n", path);
      test_failed++;
      return NULL;
   }
   fseek(f, 0, SEEK_END);
   long n = ftell(f);
   fseek(f, 0, SEEK_SET);
   char *buf = malloc(n > 0 ? (size_t)n + 1 : 1);
   size_t got = buf ? fread(buf, 1, n > 0 ? (size_t)n : 0, f) : 0;
   fclose(f);
   if (buf)
      buf[got] = 0;
   if (size)
      *size = got;
   return buf;
}

#endif
