/*
 * comp_api_cache_test — the on-disk kernel cache, observed through its directory (no
 * timing): a build stores an entry, an identical build is answered from it (the entry's
 * mtime is touched: LRU) with the same log, a corrupt or truncated entry is detected,
 * ignored and replaced, the size bound evicts the least recently used entries, several
 * processes building the same program at once leave one valid entry.
 *
 *   comp_api_cache_test <dir>              HSACL_CACHE_DIR=<dir>
 *   comp_api_cache_test --disabled <dir>   HSACL_CACHE=0: a build writes nothing
 *   comp_api_cache_test --child <src-id>   one concurrent builder (spawned by the test)
 *   comp_api_cache_test --engine <cold|warm|none>   a build in a process of its own and the
 *                                          compiler engine's mapping (spawned by the test)
 *
 * The engine (libhsacl-compiler.so, with libclang-cpp and libLLVM) is opened by the first
 * build that misses the cache and never before it: a process whose programs come from the
 * cache does not map it; without it (HSACL_COMPILER_LIBRARY naming no file) a build fails
 * with the reason in the log (the cache key names the engine's build ID, so no entry of
 * another engine answers it).
 */
#define _GNU_SOURCE
#include "comp_api_test.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdbool.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static const char *cache_dir;

/* Builds `src` in a new program; returns the build status and optionally the log. */
static cl_int
build_source(const char *src, char **log)
{
   cl_int err;
   cl_program p = clCreateProgramWithSource(context, 1, &src, NULL, &err);
   if (!p)
      return err;
   err = clBuildProgram(p, 1, &device, NULL, NULL, NULL);
   if (log)
      *log = build_log(p);
   if (err == CL_SUCCESS) {
      cl_kernel k = clCreateKernel(p, "k", &err);
      if (k)
         clReleaseKernel(k);
   }
   clReleaseProgram(p);
   return err;
}

/* Names of the entries (*.hco) in the cache directory; returns how many (up to max). */
static int
list_entries(char names[][96], int max)
{
   DIR *d = opendir(cache_dir);
   int n = 0;
   if (!d)
      return 0;
   struct dirent *e;
   while ((e = readdir(d))) {
      size_t len = strlen(e->d_name);
      if (len > 4 && !strcmp(e->d_name + len - 4, ".hco")) {
         if (n < max)
            snprintf(names[n], 96, "%s", e->d_name);
         n++;
      }
   }
   closedir(d);
   return n;
}

static void
clear_cache(void)
{
   DIR *d = opendir(cache_dir);
   if (!d)
      return;
   struct dirent *e;
   char path[1024];
   while ((e = readdir(d))) {
      if (e->d_name[0] == '.' && (!e->d_name[1] || (e->d_name[1] == '.' && !e->d_name[2])))
         continue;
      snprintf(path, sizeof(path), "%s/%s", cache_dir, e->d_name);
      unlink(path);
   }
   closedir(d);
}

static char *
entry_path(const char *name)
{
   static char path[1024];
   snprintf(path, sizeof(path), "%s/%s", cache_dir, name);
   return path;
}

static unsigned char *
read_file(const char *path, size_t *size)
{
   FILE *f = fopen(path, "rb");
   if (!f)
      return NULL;
   fseek(f, 0, SEEK_END);
   long n = ftell(f);
   fseek(f, 0, SEEK_SET);
   unsigned char *buf = malloc(n > 0 ? (size_t)n : 1);
   *size = fread(buf, 1, (size_t)n, f);
   fclose(f);
   return buf;
}

static void
write_file(const char *path, const void *data, size_t size)
{
   FILE *f = fopen(path, "wb");
   fwrite(data, 1, size, f);
   fclose(f);
}

/* Sets an entry's mtime `age` seconds into the past. */
static void
age_entry(const char *name, time_t age)
{
   struct timespec ts[2];
   clock_gettime(CLOCK_REALTIME, &ts[0]);
   ts[0].tv_sec -= age;
   ts[1] = ts[0];
   utimensat(AT_FDCWD, entry_path(name), ts, 0);
}

static time_t
entry_mtime(const char *name)
{
   struct stat st;
   return stat(entry_path(name), &st) == 0 ? st.st_mtime : 0;
}

static void
unique_source(char *buf, size_t size, const char *tag)
{
   snprintf(buf, size,
            "#warning \"cache test %s\"\n"
            "kernel void k(global int *p) { p[get_global_id(0)] = %ld; }\n",
            tag, (long)getpid());
}

static void
test_miss_hit_corrupt(void)
{
   char src[256], names[8][96];
   unique_source(src, sizeof(src), "one");
   clear_cache();
   CHECK_EQ_INT(list_entries(names, 8), 0);

   /* Miss: one entry appears, the log has the warning. */
   char *log1 = NULL, *log2 = NULL;
   CHECK_EQ_INT(build_source(src, &log1), CL_SUCCESS);
   CHECK(log1 && strstr(log1, "cache test one"));
   CHECK_EQ_INT(list_entries(names, 8), 1);
   size_t size1 = 0;
   unsigned char *entry = read_file(entry_path(names[0]), &size1);
   CHECK(entry && size1 > 64 && !memcmp(entry, "HSACLCO", 7));

   /* Hit: no new entry, the entry becomes most recently used, the same log. */
   age_entry(names[0], 3600);
   time_t before = entry_mtime(names[0]);
   CHECK_EQ_INT(build_source(src, &log2), CL_SUCCESS);
   CHECK_EQ_INT(list_entries(names, 8), 1);
   CHECK(entry_mtime(names[0]) > before + 1800);
   CHECK_STR(log2, log1);
   free(log2);

   /* Different options: another entry. */
   cl_int err;
   const char *s = src;
   cl_program p = clCreateProgramWithSource(context, 1, &s, NULL, &err);
   CHECK_EQ_INT(clBuildProgram(p, 1, &device, "-cl-fast-relaxed-math", NULL, NULL), CL_SUCCESS);
   clReleaseProgram(p);
   CHECK_EQ_INT(list_entries(names, 8), 2);

   /* Corrupt payload (one flipped byte): detected, rebuilt, replaced by a valid entry. */
   clear_cache();
   CHECK_EQ_INT(build_source(src, NULL), CL_SUCCESS);
   CHECK_EQ_INT(list_entries(names, 8), 1);
   unsigned char *bad = malloc(size1);
   memcpy(bad, entry, size1);
   bad[size1 / 2] ^= 0x5a;
   write_file(entry_path(names[0]), bad, size1);
   log2 = NULL;
   CHECK_EQ_INT(build_source(src, &log2), CL_SUCCESS);
   CHECK_STR(log2, log1); /* a real build again: the warning is back */
   free(log2);
   size_t size2 = 0;
   unsigned char *fixed = read_file(entry_path(names[0]), &size2);
   CHECK(fixed && size2 == size1 && !memcmp(fixed, entry, size1));
   free(fixed);

   /* Truncated entry: same. */
   write_file(entry_path(names[0]), entry, size1 / 3);
   CHECK_EQ_INT(build_source(src, NULL), CL_SUCCESS);
   fixed = read_file(entry_path(names[0]), &size2);
   CHECK(fixed && size2 == size1 && !memcmp(fixed, entry, size1));
   free(fixed);

   /* Garbage with a valid-looking header length: same. */
   memcpy(bad, entry, size1);
   memset(bad + 8, 0xff, 16);
   write_file(entry_path(names[0]), bad, size1);
   CHECK_EQ_INT(build_source(src, NULL), CL_SUCCESS);
   fixed = read_file(entry_path(names[0]), &size2);
   CHECK(fixed && size2 == size1 && !memcmp(fixed, entry, size1));
   free(fixed);
   /* An empty file: same. */
   write_file(entry_path(names[0]), "", 0);
   CHECK_EQ_INT(build_source(src, NULL), CL_SUCCESS);
   fixed = read_file(entry_path(names[0]), &size2);
   CHECK(fixed && size2 == size1);
   free(fixed);

   free(bad);
   free(entry);
   free(log1);
}

static void
test_lru_eviction(void)
{
   char src[256], names[8][96];
   clear_cache();
   unique_source(src, sizeof(src), "lru-a");
   CHECK_EQ_INT(build_source(src, NULL), CL_SUCCESS);
   CHECK_EQ_INT(list_entries(names, 8), 1);
   char first[96];
   snprintf(first, sizeof(first), "%s", names[0]);
   size_t size = 0;
   free(read_file(entry_path(first), &size));
   age_entry(first, 7200);

   unique_source(src, sizeof(src), "lru-b");
   CHECK_EQ_INT(build_source(src, NULL), CL_SUCCESS);
   CHECK_EQ_INT(list_entries(names, 8), 2);
   char second[96];
   snprintf(second, sizeof(second), "%s", strcmp(names[0], first) ? names[0] : names[1]);
   age_entry(second, 3600);

   /* Room for two entries: the third store evicts the least recently used one, unless it
    * was used since — touch the oldest by a hit first, so the second goes. */
   char bound[32];
   snprintf(bound, sizeof(bound), "%zu", size * 2 + size / 2);
   setenv("HSACL_CACHE_MAX_SIZE", bound, 1);
   unique_source(src, sizeof(src), "lru-a");
   CHECK_EQ_INT(build_source(src, NULL), CL_SUCCESS); /* hit: `first` is now the newest */
   unique_source(src, sizeof(src), "lru-c");
   CHECK_EQ_INT(build_source(src, NULL), CL_SUCCESS);
   CHECK_EQ_INT(list_entries(names, 8), 2);
   CHECK(entry_mtime(first) != 0);
   CHECK(entry_mtime(second) == 0);
   unsetenv("HSACL_CACHE_MAX_SIZE");
}

/* Plants a writer's temporary file dead for two hours: the next directory scan removes it. */
static void
plant_stale_tmp(const char *name)
{
   write_file(entry_path(name), "x", 1);
   age_entry(name, 7200);
}

/* A store scans the directory (a stat an entry) only when the process's estimate of its size
 * passes the bound (or the last scan is a minute old): a scan at every store made filling a
 * large cache quadratic. The scan's visible effect is the removal of dead writers' temporary
 * files. */
static void
test_scan_not_every_store(void)
{
   char src[256];
   clear_cache();
   /* A bound below any entry: the store is over it, so it scans. */
   setenv("HSACL_CACHE_MAX_SIZE", "1", 1);
   plant_stale_tmp(".tmp-dead-1");
   unique_source(src, sizeof(src), "scan-a");
   CHECK_EQ_INT(build_source(src, NULL), CL_SUCCESS);
   CHECK(entry_mtime(".tmp-dead-1") == 0);

   /* The default bound, a scan a second ago: the next stores do not scan. */
   unsetenv("HSACL_CACHE_MAX_SIZE");
   plant_stale_tmp(".tmp-dead-2");
   unique_source(src, sizeof(src), "scan-b");
   CHECK_EQ_INT(build_source(src, NULL), CL_SUCCESS);
   unique_source(src, sizeof(src), "scan-c");
   CHECK_EQ_INT(build_source(src, NULL), CL_SUCCESS);
   CHECK(entry_mtime(".tmp-dead-2") != 0);

   /* Over the bound again: this store scans. */
   setenv("HSACL_CACHE_MAX_SIZE", "1", 1);
   unique_source(src, sizeof(src), "scan-d");
   CHECK_EQ_INT(build_source(src, NULL), CL_SUCCESS);
   CHECK(entry_mtime(".tmp-dead-2") == 0);
   unsetenv("HSACL_CACHE_MAX_SIZE");
}

static void
test_concurrent_processes(const char *self)
{
   char names[8][96];
   clear_cache();
   pid_t pids[4];
   char *argv[] = { (char *)self, "--child", "shared", NULL };
   for (int i = 0; i < 4; i++)
      CHECK_EQ_INT(posix_spawn(&pids[i], self, NULL, NULL, argv, environ), 0);
   for (int i = 0; i < 4; i++) {
      int status = -1;
      waitpid(pids[i], &status, 0);
      CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
   }
   CHECK_EQ_INT(list_entries(names, 8), 1);
   /* No temporary file left behind. */
   DIR *d = opendir(cache_dir);
   struct dirent *e;
   int tmp = 0;
   while (d && (e = readdir(d)))
      tmp += !strncmp(e->d_name, ".tmp-", 5);
   if (d)
      closedir(d);
   CHECK_EQ_INT(tmp, 0);
   /* The entry is valid: a build from it succeeds without replacing it. */
   size_t size = 0;
   unsigned char *before = read_file(entry_path(names[0]), &size);
   CHECK_EQ_INT(build_source("kernel void k(global int *p) { p[0] = 7; }\n", NULL), CL_SUCCESS);
   size_t size2 = 0;
   unsigned char *after = read_file(entry_path(names[0]), &size2);
   CHECK(before && after && size == size2 && !memcmp(before, after, size));
   free(before);
   free(after);
}

/* A program that #includes a file from disk is not cached: the key covers the source and
 * options, not the header, so a cached build would be served stale after the header changed
 * (a header edited to #error still "built"). */
static cl_int
build_with(const char *src, const char *options)
{
   cl_int err;
   cl_program p = clCreateProgramWithSource(context, 1, &src, NULL, &err);
   err = clBuildProgram(p, 1, &device, options, NULL, NULL);
   clReleaseProgram(p);
   return err;
}

static void
test_disk_headers_not_cached(void)
{
   char dir[] = "/tmp/hsacl-cache-inc-XXXXXX", hdr[128], opt[160], names[8][96];
   CHECK(mkdtemp(dir) != NULL);
   snprintf(hdr, sizeof(hdr), "%s/v.h", dir);
   snprintf(opt, sizeof(opt), "-I%s", dir);
   clear_cache();
   FILE *f = fopen(hdr, "w");
   fputs("#define V 1\n", f);
   fclose(f);
   const char *src = "#include \"v.h\"\nkernel void k(global int *p) { p[0] = V; }\n";
   CHECK_EQ_INT(build_with(src, opt), CL_SUCCESS);
   CHECK_EQ_INT(list_entries(names, 8), 0);
   f = fopen(hdr, "w");
   fputs("#error the header changed\n", f);
   fclose(f);
   CHECK_EQ_INT(build_with(src, opt), CL_BUILD_PROGRAM_FAILURE);
   unlink(hdr);
   rmdir(dir);
}

/* Whether a library whose file name contains `name` is mapped in this process. */
static bool
mapped(const char *name)
{
   FILE *f = fopen("/proc/self/maps", "r");
   char line[1024];
   bool found = false;
   while (f && !found && fgets(line, sizeof(line), f))
      found = strstr(line, name) != NULL;
   if (f)
      fclose(f);
   return found;
}

static const char engine_src[] = "kernel void k(global int *p) { p[0] = 11; } // engine\n";

/* --engine MODE: cold (a miss maps the engine, and nothing maps it before), warm (a hit
 * maps none of it), none (no engine: a build fails with the reason). */
static int
engine_child(const char *mode)
{
   test_setup();
   CHECK(!mapped("libhsacl-compiler.so"));
   CHECK(!mapped("libclang-cpp"));
   char *log = NULL;
   if (!strcmp(mode, "none")) {
      char src[256];
      unique_source(src, sizeof(src), "no-engine");
      CHECK_EQ_INT(build_source(src, &log), CL_BUILD_PROGRAM_FAILURE);
      bool said = log && strstr(log, "cannot load the compiler engine") &&
                  strstr(log, "/nonexistent/libhsacl-compiler.so");
      if (!said)
         fprintf(stderr, "log: %s\n", log ? log : "(null)");
      CHECK(said);
      free(log);
      clReleaseContext(context);
      return test_main_end();
   }
   CHECK_EQ_INT(build_source(engine_src, &log), CL_SUCCESS);
   free(log);
   bool cold = !strcmp(mode, "cold");
   if (mapped("libhsacl-compiler.so") != cold)
      fprintf(stderr, "--engine %s: libhsacl-compiler.so %smapped\n", mode, cold ? "not " : "");
   CHECK(mapped("libhsacl-compiler.so") == cold);
   CHECK(mapped("libclang-cpp") == cold);
   if (!cold)
      CHECK(!mapped("libLLVM"));
   clReleaseContext(context);
   return test_main_end();
}

static void
run_engine_child(const char *self, const char *mode)
{
   char *argv[] = { (char *)self, "--engine", (char *)mode, NULL };
   if (!strcmp(mode, "none"))
      setenv("HSACL_COMPILER_LIBRARY", "/nonexistent/libhsacl-compiler.so", 1);
   pid_t pid;
   CHECK_EQ_INT(posix_spawn(&pid, self, NULL, NULL, argv, environ), 0);
   unsetenv("HSACL_COMPILER_LIBRARY");
   int status = -1;
   waitpid(pid, &status, 0);
   if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
      fprintf(stderr, "--engine %s: status %d\n", mode, status);
   CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void
test_engine_on_demand(const char *self)
{
   clear_cache();
   run_engine_child(self, "cold");
   run_engine_child(self, "warm");
   run_engine_child(self, "none");
}

int
main(int argc, char **argv)
{
   if (argc == 3 && !strcmp(argv[1], "--engine")) {
      const char *env_dir = getenv("HSACL_CACHE_DIR");
      cache_dir = env_dir && *env_dir ? env_dir : "";
      return engine_child(argv[2]);
   }
   if (argc == 3 && !strcmp(argv[1], "--child")) {
      test_setup();
      cl_int err = build_source("kernel void k(global int *p) { p[0] = 7; }\n", NULL);
      clReleaseContext(context);
      return err == CL_SUCCESS ? 0 : 1;
   }
   bool disabled = argc == 3 && !strcmp(argv[1], "--disabled");
   if (argc != 2 && !disabled) {
      fprintf(stderr, "usage: %s [--disabled] <cache dir>\n", argv[0]);
      return 2;
   }
   /* The driver's cache is HSACL_CACHE_DIR; a variant of the test (the ROCr one) may give
    * it a folder of its own, which wins over the argument. */
   const char *env_dir = getenv("HSACL_CACHE_DIR");
   cache_dir = env_dir && *env_dir ? env_dir : argv[argc - 1];
   test_setup();
   if (disabled) {
      char src[256], names[8][96];
      clear_cache();
      unique_source(src, sizeof(src), "disabled");
      CHECK_EQ_INT(build_source(src, NULL), CL_SUCCESS);
      CHECK_EQ_INT(build_source(src, NULL), CL_SUCCESS);
      CHECK_EQ_INT(list_entries(names, 8), 0);
      struct stat st;
      DIR *d = opendir(cache_dir);
      int any = 0;
      struct dirent *e;
      while (d && (e = readdir(d)))
         any += e->d_name[0] != '.';
      if (d)
         closedir(d);
      CHECK_EQ_INT(any, 0);
      (void)st;
   } else {
      test_miss_hit_corrupt();
      test_disk_headers_not_cached();
      test_lru_eviction();
      test_scan_not_every_store();
      test_concurrent_processes("/proc/self/exe");
      test_engine_on_demand("/proc/self/exe");
   }
   clReleaseContext(context);
   return test_main_end();
}
