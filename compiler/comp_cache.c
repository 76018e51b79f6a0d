/*
 * compiler/comp_cache.c — the on-disk kernel cache: build results keyed by a SHA-256 of
 * everything that determines them.
 *
 * Directory: HSACL_CACHE_DIR, else $XDG_CACHE_HOME/hsacl, else $HOME/.cache/hsacl.
 * HSACL_CACHE=0 disables the cache; HSACL_CACHE_MAX_SIZE (bytes, K/M/G suffixes allowed)
 * bounds its size (default 256 MiB): past it, least recently used entries (file mtime,
 * touched on every hit) are evicted first, down to seven eighths of the bound.
 *
 * Entry "<key>.hco": a header (magic, format version, payload and log sizes, SHA-256 of
 * payload and log), then the code object, then the build log. Entries are written to a
 * temporary file in the same directory and renamed into place, so a reader sees a whole
 * entry or none; several processes may write the same key (the last rename wins, both are
 * whole). A truncated or corrupt entry fails its hash check, is removed and rebuilt.
 * Eviction may unlink an entry another process is reading: it keeps its open file.
 *
 * Eviction scans the directory (a stat a file), so a process does not scan at every store:
 * it keeps the total its last scan found plus what it stored since, and scans again when
 * that passes the bound, when the directory differs, or when the scan is a minute old
 * (other processes store too; until then the directory may pass the bound by what they
 * stored). A scan at every store made filling a cache quadratic: the CTS core tier's 27,000
 * entries cost each store 27,000 stats, 62% of test_c11_atomics' time in perf.
 */
#define _GNU_SOURCE
#include "comp_priv.h"
#include "comp_program_priv.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <openssl/evp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define CACHE_MAGIC "HSACLCO\0"
#define CACHE_FORMAT 1u
#define CACHE_SUFFIX ".hco"
#define CACHE_DEFAULT_MAX_SIZE (256ull << 20)

struct cache_header {
   char magic[8];
   uint32_t format;
   uint32_t reserved;
   uint64_t data_size;
   uint64_t log_size;
   unsigned char digest[32]; /* SHA-256 of data then log */
};
_Static_assert(sizeof(struct cache_header) == 64, "cache header layout");

static bool
cache_enabled(void)
{
   const char *e = getenv("HSACL_CACHE");
   return !(e && (!strcmp(e, "0") || !strcasecmp(e, "off") || !strcasecmp(e, "false")));
}

/* The cache directory into `buf`; false when no directory can be named. */
static bool
cache_dir(char *buf, size_t size)
{
   const char *d = getenv("HSACL_CACHE_DIR");
   int n;
   if (d && *d) {
      n = snprintf(buf, size, "%s", d);
   } else if ((d = getenv("XDG_CACHE_HOME")) && d[0] == '/') {
      n = snprintf(buf, size, "%s/hsacl", d);
   } else if ((d = getenv("HOME")) && *d) {
      n = snprintf(buf, size, "%s/.cache/hsacl", d);
   } else {
      return false;
   }
   return n > 0 && (size_t)n < size;
}

static uint64_t
cache_max_size(void)
{
   const char *e = getenv("HSACL_CACHE_MAX_SIZE");
   if (!e || !*e)
      return CACHE_DEFAULT_MAX_SIZE;
   char *end;
   errno = 0;
   unsigned long long v = strtoull(e, &end, 10);
   if (errno || end == e)
      return CACHE_DEFAULT_MAX_SIZE;
   switch (*end) {
   case 'k': case 'K': v <<= 10; break;
   case 'm': case 'M': v <<= 20; break;
   case 'g': case 'G': v <<= 30; break;
   default: break;
   }
   return v;
}

/* mkdir -p with mode 0700 for the components it creates. */
static bool
make_dirs(const char *path)
{
   char tmp[PATH_MAX];
   if (snprintf(tmp, sizeof(tmp), "%s", path) >= (int)sizeof(tmp))
      return false;
   for (char *p = tmp + 1; *p; p++) {
      if (*p != '/')
         continue;
      *p = '\0';
      if (mkdir(tmp, 0700) < 0 && errno != EEXIST)
         return false;
      *p = '/';
   }
   return mkdir(tmp, 0700) == 0 || errno == EEXIST;
}

static void
hash_field(EVP_MD_CTX *md, const void *data, size_t size)
{
   uint64_t n = size;
   EVP_DigestUpdate(md, &n, sizeof(n));
   if (size)
      EVP_DigestUpdate(md, data, size);
}

static void
hash_string(EVP_MD_CTX *md, const char *s)
{
   hash_field(md, s ? s : "", s ? strlen(s) : 0);
}

static void
hash_list(EVP_MD_CTX *md, const char *const *list)
{
   uint64_t n = 0;
   if (!list) {
      n = UINT64_MAX; /* NULL (engine defaults) differs from an empty list */
      EVP_DigestUpdate(md, &n, sizeof(n));
      return;
   }
   while (list[n])
      n++;
   EVP_DigestUpdate(md, &n, sizeof(n));
   for (uint64_t i = 0; i < n; i++)
      hash_string(md, list[i]);
}

static void
to_hex(const unsigned char *d, size_t n, char *out)
{
   static const char hex[] = "0123456789abcdef";
   for (size_t i = 0; i < n; i++) {
      out[2 * i] = hex[d[i] >> 4];
      out[2 * i + 1] = hex[d[i] & 15];
   }
   out[2 * n] = '\0';
}

bool
comp__cache_key(const struct comp_build_desc *desc, char key[COMP_CACHE_KEY_HEX])
{
   if (!cache_enabled())
      return false;
   EVP_MD_CTX *md = EVP_MD_CTX_new();
   if (!md)
      return false;
   unsigned char digest[EVP_MAX_MD_SIZE];
   unsigned len = 0;
   bool ok = EVP_DigestInit_ex(md, EVP_sha256(), NULL) == 1;
   if (ok) {
      uint32_t kinds[3] = { (uint32_t)desc->action, (uint32_t)desc->emit,
                            desc->opencl_version };
      hash_string(md, "hsacl-kernel-cache-1");
      hash_string(md, HSACL_VERSION_STRING);
      hash_string(md, comp_identity());
      hash_field(md, kinds, sizeof(kinds));
      hash_string(md, desc->restrict_includes ? "includes=restricted" : "includes=any");
      /* Only when set: the default builds keep the keys they had. */
      if (desc->max_work_group_size) {
         uint32_t wg = desc->max_work_group_size;
         hash_string(md, "max-work-group-size");
         hash_field(md, &wg, sizeof(wg));
      }
      hash_string(md, desc->target_id);
      hash_string(md, desc->options);
      hash_list(md, desc->extensions);
      hash_list(md, desc->features);
      hash_string(md, desc->source_name);
      hash_field(md, desc->source, desc->source_size);
      /* IL programs: the translator, the module and its specialization constants, in the
       * order set. */
      if (desc->il) {
         char translator[4200];
         comp__spirv_translator_identity(translator, sizeof(translator));
         hash_string(md, translator);
      }
      hash_field(md, desc->il, desc->il ? desc->il_size : 0);
      uint64_t ns = desc->num_spec_constants;
      EVP_DigestUpdate(md, &ns, sizeof(ns));
      for (size_t i = 0; i < desc->num_spec_constants; i++) {
         const struct comp_spec_constant *c = &desc->spec_constants[i];
         uint64_t f[3] = { c->id, c->size, c->value };
         EVP_DigestUpdate(md, f, sizeof(f));
      }
      uint64_t nh = desc->num_headers;
      EVP_DigestUpdate(md, &nh, sizeof(nh));
      for (size_t i = 0; i < desc->num_headers; i++) {
         hash_string(md, desc->headers[i].name);
         hash_field(md, desc->headers[i].source, desc->headers[i].size);
      }
      ok = EVP_DigestFinal_ex(md, digest, &len) == 1 && len == 32;
   }
   EVP_MD_CTX_free(md);
   if (ok)
      to_hex(digest, 32, key);
   return ok;
}

static bool
payload_digest(const void *data, size_t size, const char *log, size_t log_size,
               unsigned char out[32])
{
   unsigned len = 0;
   EVP_MD_CTX *md = EVP_MD_CTX_new();
   if (!md)
      return false;
   bool ok = EVP_DigestInit_ex(md, EVP_sha256(), NULL) == 1 &&
             EVP_DigestUpdate(md, data, size) == 1 && EVP_DigestUpdate(md, log, log_size) == 1 &&
             EVP_DigestFinal_ex(md, out, &len) == 1 && len == 32;
   EVP_MD_CTX_free(md);
   return ok;
}

static bool
read_all(int fd, void *buf, size_t size)
{
   char *p = buf;
   while (size) {
      ssize_t n = read(fd, p, size);
      if (n < 0 && errno == EINTR)
         continue;
      if (n <= 0)
         return false;
      p += n;
      size -= (size_t)n;
   }
   return true;
}

static bool
write_all(int fd, const void *buf, size_t size)
{
   const char *p = buf;
   while (size) {
      ssize_t n = write(fd, p, size);
      if (n < 0 && errno == EINTR)
         continue;
      if (n <= 0)
         return false;
      p += n;
      size -= (size_t)n;
   }
   return true;
}

static bool
entry_path(const char *key, char *buf, size_t size)
{
   char dir[PATH_MAX];
   if (!cache_dir(dir, sizeof(dir)))
      return false;
   int n = snprintf(buf, size, "%s/%s" CACHE_SUFFIX, dir, key);
   return n > 0 && (size_t)n < size;
}

bool
comp__cache_lookup(const char *key, void **data, size_t *size, char **log)
{
   char path[PATH_MAX];
   *data = NULL;
   *size = 0;
   *log = NULL;
   if (!cache_enabled() || !entry_path(key, path, sizeof(path)))
      return false;
   int fd = open(path, O_RDONLY | O_CLOEXEC);
   if (fd < 0)
      return false;

   const char *why = NULL;
   struct cache_header h;
   struct stat st;
   void *d = NULL;
   char *l = NULL;
   unsigned char digest[32];
   if (fstat(fd, &st) < 0 || !read_all(fd, &h, sizeof(h))) {
      why = "truncated header";
      goto out_corrupt;
   }
   if (memcmp(h.magic, CACHE_MAGIC, 8) || h.format != CACHE_FORMAT) {
      why = "bad magic or format";
      goto out_corrupt;
   }
   if (h.data_size == 0 || h.data_size > (uint64_t)st.st_size ||
       h.log_size > (uint64_t)st.st_size ||
       sizeof(h) + h.data_size + h.log_size != (uint64_t)st.st_size) {
      why = "sizes do not match the file";
      goto out_corrupt;
   }
   d = icd_malloc(h.data_size);
   l = icd_malloc(h.log_size + 1);
   if (!d || !l) {
      icd_free(d);
      icd_free(l);
      close(fd);
      return false; /* out of memory: a miss, the entry stays */
   }
   if (!read_all(fd, d, h.data_size) || !read_all(fd, l, h.log_size)) {
      why = "truncated payload";
      goto out_corrupt;
   }
   l[h.log_size] = '\0';
   if (!payload_digest(d, h.data_size, l, h.log_size, digest) ||
       memcmp(digest, h.digest, 32)) {
      why = "payload hash mismatch";
      goto out_corrupt;
   }
   close(fd);
   /* LRU: a hit makes the entry the most recently used. */
   utimensat(AT_FDCWD, path, NULL, 0);
   *data = d;
   *size = h.data_size;
   *log = l;
   icd_log(ICD_LOG_DEBUG, "compiler", "kernel cache hit %s", path);
   return true;

out_corrupt:
   icd_free(d);
   icd_free(l);
   close(fd);
   icd_log(ICD_LOG_WARN, "compiler", "kernel cache entry %s is corrupt (%s): removed", path,
           why);
   unlink(path);
   return false;
}

struct cache_file {
   char name[80];
   time_t mtime;
   long mtime_ns;
   uint64_t size;
};

static int
cache_file_older(const void *a, const void *b)
{
   const struct cache_file *x = a, *y = b;
   if (x->mtime != y->mtime)
      return x->mtime < y->mtime ? -1 : 1;
   if (x->mtime_ns != y->mtime_ns)
      return x->mtime_ns < y->mtime_ns ? -1 : 1;
   return strcmp(x->name, y->name);
}

/* When the directory's entries pass `max`, removes least recently used ones until they
 * fit in seven eighths of it; also
 * removes temporary files older than an hour (writers that died). `keep` is never
 * removed (the entry just written). Returns the entries' total size left (0 when the
 * directory cannot be read). */
static uint64_t
cache_evict(const char *dir, uint64_t max, const char *keep)
{
   DIR *d = opendir(dir);
   if (!d)
      return 0;
   int dfd = dirfd(d);
   struct cache_file *files = NULL;
   size_t n = 0, cap = 0;
   uint64_t total = 0;
   time_t now = time(NULL);
   struct dirent *e;
   while ((e = readdir(d))) {
      size_t len = strlen(e->d_name);
      struct stat st;
      bool is_tmp = !strncmp(e->d_name, ".tmp-", 5);
      bool is_entry = len > 4 && !strcmp(e->d_name + len - 4, CACHE_SUFFIX) && e->d_name[0] != '.';
      if ((!is_tmp && !is_entry) || len >= sizeof(files[0].name))
         continue;
      if (fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISREG(st.st_mode))
         continue;
      if (is_tmp) {
         if (now - st.st_mtime > 3600)
            unlinkat(dfd, e->d_name, 0);
         continue;
      }
      total += (uint64_t)st.st_size;
      if (n == cap) {
         size_t ncap = cap ? cap * 2 : 64;
         struct cache_file *nf = icd_realloc(files, ncap * sizeof(*files));
         if (!nf)
            goto out_free;
         files = nf;
         cap = ncap;
      }
      snprintf(files[n].name, sizeof(files[n].name), "%s", e->d_name);
      files[n].mtime = st.st_mtim.tv_sec;
      files[n].mtime_ns = st.st_mtim.tv_nsec;
      files[n].size = (uint64_t)st.st_size;
      n++;
   }
   if (total > max) {
      /* Down to seven eighths of the bound: a full cache does not scan again at once. */
      uint64_t low = max - max / 8;
      qsort(files, n, sizeof(*files), cache_file_older);
      for (size_t i = 0; i < n && total > low; i++) {
         if (keep && !strcmp(files[i].name, keep))
            continue;
         if (unlinkat(dfd, files[i].name, 0) == 0 || errno == ENOENT) {
            total -= files[i].size;
            icd_log(ICD_LOG_DEBUG, "compiler", "kernel cache: evicted %s", files[i].name);
         }
      }
   }
out_free:
   icd_free(files);
   closedir(d);
   return total;
}

/* What this process knows of the cache directory's size (file comment: "Eviction"). */
#define CACHE_RESCAN_SECONDS 60
static struct {
   pthread_mutex_t lock;
   bool known;
   char dir[PATH_MAX];
   uint64_t total; /* the last scan's total plus what this process stored since */
   time_t at;      /* when the last scan ran */
} cache_est = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* Counts `bytes` just stored in `dir`; true when the directory should be scanned now. */
static bool
cache_scan_due(const char *dir, uint64_t bytes, uint64_t max)
{
   time_t now = time(NULL);
   pthread_mutex_lock(&cache_est.lock);
   bool due = !cache_est.known || strcmp(cache_est.dir, dir) ||
              now - cache_est.at >= CACHE_RESCAN_SECONDS;
   if (!due) {
      cache_est.total += bytes;
      due = cache_est.total > max;
   }
   pthread_mutex_unlock(&cache_est.lock);
   return due;
}

static void
cache_scanned(const char *dir, uint64_t total)
{
   pthread_mutex_lock(&cache_est.lock);
   cache_est.known = true;
   snprintf(cache_est.dir, sizeof(cache_est.dir), "%s", dir);
   cache_est.total = total;
   cache_est.at = time(NULL);
   pthread_mutex_unlock(&cache_est.lock);
}

void
comp__cache_store(const char *key, const void *data, size_t size, const char *log)
{
   char dir[PATH_MAX], tmp[PATH_MAX], path[PATH_MAX], name[80];
   if (!cache_enabled() || !cache_dir(dir, sizeof(dir)))
      return;
   if (!make_dirs(dir)) {
      icd_log(ICD_LOG_WARN, "compiler", "kernel cache: cannot create %s: %s", dir,
              strerror(errno));
      return;
   }
   static atomic_uint seq;
   snprintf(name, sizeof(name), "%s" CACHE_SUFFIX, key);
   if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path) ||
       snprintf(tmp, sizeof(tmp), "%s/.tmp-%s-%ld-%u", dir, key, (long)getpid(),
                atomic_fetch_add(&seq, 1)) >= (int)sizeof(tmp))
      return;

   size_t log_size = log ? strlen(log) : 0;
   struct cache_header h;
   memset(&h, 0, sizeof(h));
   memcpy(h.magic, CACHE_MAGIC, 8);
   h.format = CACHE_FORMAT;
   h.data_size = size;
   h.log_size = log_size;
   if (!payload_digest(data, size, log ? log : "", log_size, h.digest))
      return;

   int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
   if (fd < 0) {
      icd_log(ICD_LOG_WARN, "compiler", "kernel cache: cannot create %s: %s", tmp,
              strerror(errno));
      return;
   }
   bool ok = write_all(fd, &h, sizeof(h)) && write_all(fd, data, size) &&
             write_all(fd, log ? log : "", log_size);
   if (close(fd) < 0)
      ok = false;
   if (!ok || rename(tmp, path) < 0) {
      icd_log(ICD_LOG_WARN, "compiler", "kernel cache: cannot write %s: %s", path,
              strerror(errno));
      unlink(tmp);
      return;
   }
   icd_log(ICD_LOG_DEBUG, "compiler", "kernel cache: stored %s", path);
   uint64_t max = cache_max_size();
   if (cache_scan_due(dir, sizeof(h) + size + log_size, max))
      cache_scanned(dir, cache_evict(dir, max, name));
}
