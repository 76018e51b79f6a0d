/* conformance/piglit/regcache.c — a cache of compiled POSIX regular expressions, preloaded
 * (LD_PRELOAD) into piglit's test programs by conformance/piglit/run.
 *
 * piglit's cl-program-tester parses its test files with helpers that compile a pattern for
 * every match they try (tests/cl/program/program-tester.c in piglit): 33,698 regcomp calls
 * for scalar-arithmetic-int.cl, about three quarters of the process's CPU (0.75 s of 0.95 s),
 * more than hsacl's whole part in the test (start-up, a cached program, the dispatches).
 * This keeps the first compile of each (pattern, flags) and hands out copies of it: glibc's
 * regexec only reads the compiled pattern (its DFA carries its own lock), so copies can be
 * used at once from any thread. regfree of a copy does nothing; the cached patterns live
 * until exit. A pattern that fails to compile, and any pattern once the cache holds
 * REGCACHE_MAX of them, go to the C library as before.
 *
 * Nothing of hsacl is here: it changes only how fast piglit reads its own test files. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <regex.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define REGCACHE_BUCKETS 1024
#define REGCACHE_MAX 8192

struct regcache_entry {
   struct regcache_entry *next; /* same bucket of the pattern table */
   struct regcache_entry *next_buffer; /* same bucket of the buffer table */
   int cflags;
   regex_t re;
   char pattern[];
};

static pthread_mutex_t regcache_lock = PTHREAD_MUTEX_INITIALIZER;
static struct regcache_entry *regcache_patterns[REGCACHE_BUCKETS];
static struct regcache_entry *regcache_buffers[REGCACHE_BUCKETS];
static unsigned regcache_count;

typedef int (*regcache_comp_fn)(regex_t *, const char *, int);
typedef void (*regcache_free_fn)(regex_t *);

static pthread_once_t regcache_once = PTHREAD_ONCE_INIT;
static regcache_comp_fn regcache_comp_next;
static regcache_free_fn regcache_free_next;

/* The C library's functions, looked up once. */
static void regcache_init(void)
{
   regcache_comp_next = (regcache_comp_fn)dlsym(RTLD_NEXT, "regcomp");
   regcache_free_next = (regcache_free_fn)dlsym(RTLD_NEXT, "regfree");
}

static regcache_comp_fn regcache_real_comp(void)
{
   pthread_once(&regcache_once, regcache_init);
   return regcache_comp_next;
}

static regcache_free_fn regcache_real_free(void)
{
   pthread_once(&regcache_once, regcache_init);
   return regcache_free_next;
}

static unsigned regcache_hash_pattern(const char *pattern, int cflags)
{
   uint32_t h = 2166136261u ^ (uint32_t)cflags;
   for (const unsigned char *p = (const unsigned char *)pattern; *p; p++)
      h = (h ^ *p) * 16777619u;
   return h % REGCACHE_BUCKETS;
}

static unsigned regcache_hash_buffer(const void *buffer)
{
   return (unsigned)(((uintptr_t)buffer >> 4) % REGCACHE_BUCKETS);
}

static struct regcache_entry *regcache_find(const char *pattern, int cflags)
{
   struct regcache_entry *e = regcache_patterns[regcache_hash_pattern(pattern, cflags)];
   while (e && (e->cflags != cflags || strcmp(e->pattern, pattern) != 0))
      e = e->next;
   return e;
}

/* Compiles into a new entry and adds it to both tables; NULL (and *rc) on failure, NULL
 * with *rc 0 when the cache is full or out of memory. Called with the lock held. */
static struct regcache_entry *regcache_add(const char *pattern, int cflags, int *rc)
{
   *rc = 0;
   if (regcache_count >= REGCACHE_MAX)
      return NULL;
   size_t len = strlen(pattern);
   struct regcache_entry *e = calloc(1, sizeof(*e) + len + 1);
   if (!e)
      return NULL;
   *rc = regcache_real_comp()(&e->re, pattern, cflags);
   if (*rc != 0) {
      free(e);
      return NULL;
   }
   memcpy(e->pattern, pattern, len + 1);
   e->cflags = cflags;
   unsigned p = regcache_hash_pattern(pattern, cflags);
   unsigned b = regcache_hash_buffer(e->re.buffer);
   e->next = regcache_patterns[p];
   regcache_patterns[p] = e;
   e->next_buffer = regcache_buffers[b];
   regcache_buffers[b] = e;
   regcache_count++;
   return e;
}

/* Exported: the project builds with hidden visibility by default. */
__attribute__((visibility("default"))) int regcomp(regex_t *preg, const char *pattern, int cflags)
{
   if (!regcache_real_comp())
      return REG_ESPACE;
   pthread_mutex_lock(&regcache_lock);
   int rc = 0;
   struct regcache_entry *e = regcache_find(pattern, cflags);
   if (!e)
      e = regcache_add(pattern, cflags, &rc);
   if (e)
      *preg = e->re;
   pthread_mutex_unlock(&regcache_lock);
   if (e)
      return 0;
   if (rc != 0) {
      memset(preg, 0, sizeof(*preg));
      return rc;
   }
   return regcache_real_comp()(preg, pattern, cflags);
}

__attribute__((visibility("default"))) void regfree(regex_t *preg)
{
   pthread_mutex_lock(&regcache_lock);
   struct regcache_entry *e = regcache_buffers[regcache_hash_buffer(preg->buffer)];
   while (e && e->re.buffer != preg->buffer)
      e = e->next_buffer;
   pthread_mutex_unlock(&regcache_lock);
   if (e) {
      memset(preg, 0, sizeof(*preg));
      return;
   }
   if (regcache_real_free())
      regcache_real_free()(preg);
}
