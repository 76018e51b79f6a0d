/*
 * compiler/comp_identity.c — comp_identity(): what a code object is built from besides its
 * source and options, one string in every kernel cache key (comp_cache.c): hsacl's
 * version, the engine's build ID, LLVM's version and a SHA-256 of the device libraries.
 *
 * Made once per process without the engine (comp_engine.c): a process whose programs all
 * come from the cache never loads it. The libraries are read and hashed, not parsed; the
 * engine's build ID is read from libhsacl-compiler.so's file, or from the binary that links
 * the engine's objects. The build ID is there because the compiler's own code is part of
 * what a code object is built from: a rebuilt or upgraded engine must not take the cache's
 * entries of another (a fixed miscompile would stay cached); hsacl's overrides of the
 * device libraries (comp_builtins.cl) are embedded in the engine, so its ID covers them.
 */
#define _GNU_SOURCE
#include "comp_engine.h"

#include <elf.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <link.h>
#include <openssl/evp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const lib_names[] = { "opencl.bc", "ocml.bc", "ockl.bc" };

static pthread_once_t identity_once = PTHREAD_ONCE_INIT;
static char identity[512];

static void
hex_of(const unsigned char *bytes, size_t n, char *out, size_t cap)
{
   static const char digits[] = "0123456789abcdef";
   size_t k = 0;
   for (size_t i = 0; i < n && k + 2 < cap; i++) {
      out[k++] = digits[bytes[i] >> 4];
      out[k++] = digits[bytes[i] & 15];
   }
   out[k] = 0;
}

/* The GNU build ID in the notes [p, end), as hex into out; false if none. */
static bool
note_build_id(const char *p, const char *end, char *out, size_t cap)
{
   while (p + sizeof(ElfW(Nhdr)) <= end) {
      const ElfW(Nhdr) *n = (const ElfW(Nhdr) *)p;
      const char *name = p + sizeof(*n);
      const char *desc = name + ((n->n_namesz + 3) & ~3u);
      if (desc > end || n->n_descsz > (size_t)(end - desc))
         return false;
      if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 && !memcmp(name, "GNU", 4)) {
         hex_of((const unsigned char *)desc, n->n_descsz, out, cap);
         return true;
      }
      p = desc + ((n->n_descsz + 3) & ~3u);
   }
   return false;
}

struct loaded_search {
   const void *base;
   char *out;
   size_t cap;
   bool found;
};

static int
loaded_object(struct dl_phdr_info *pi, size_t size, void *data)
{
   (void)size;
   struct loaded_search *s = data;
   for (int i = 0; i < pi->dlpi_phnum; i++) {
      const ElfW(Phdr) *ph = &pi->dlpi_phdr[i];
      if (ph->p_type == PT_LOAD && ph->p_offset == 0 &&
          (const void *)(pi->dlpi_addr + ph->p_vaddr) != s->base)
         return 0; /* another object */
   }
   for (int i = 0; i < pi->dlpi_phnum && !s->found; i++) {
      const ElfW(Phdr) *ph = &pi->dlpi_phdr[i];
      if (ph->p_type != PT_NOTE)
         continue;
      const char *p = (const char *)(pi->dlpi_addr + ph->p_vaddr);
      s->found = note_build_id(p, p + ph->p_memsz, s->out, s->cap);
   }
   return 1;
}

/* The build ID of the loaded object holding `addr`. */
static bool
build_id_of_loaded(const void *addr, char *out, size_t cap)
{
   Dl_info info;
   if (!dladdr(addr, &info) || !info.dli_fbase)
      return false;
   struct loaded_search s = { info.dli_fbase, out, cap, false };
   dl_iterate_phdr(loaded_object, &s);
   return s.found;
}

/* The build ID in the note sections of the ELF file at `path`. */
static bool
build_id_of_file(const char *path, char *out, size_t cap)
{
   int fd = open(path, O_RDONLY | O_CLOEXEC);
   if (fd < 0)
      return false;
   bool found = false;
   Elf *e = NULL;
   if (elf_version(EV_CURRENT) == EV_NONE)
      goto out;
   e = elf_begin(fd, ELF_C_READ, NULL);
   if (!e || elf_kind(e) != ELF_K_ELF)
      goto out;
   for (Elf_Scn *scn = elf_nextscn(e, NULL); scn && !found; scn = elf_nextscn(e, scn)) {
      GElf_Shdr sh;
      if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
         continue;
      Elf_Data *d = elf_rawdata(scn, NULL);
      if (d && d->d_buf)
         found = note_build_id(d->d_buf, (const char *)d->d_buf + d->d_size, out, cap);
   }
out:
   if (e)
      elf_end(e);
   close(fd);
   return found;
}

/* The engine's build ID: of the binary that links it, or of the module comp_build opens. */
static void
engine_build_id(char *out, size_t cap)
{
   const char *why = NULL, *path = NULL;
   bool found = comp__engine_linked()
                   ? build_id_of_loaded(comp__engine_linked_address(), out, cap)
                   : (path = comp__engine_path(&why)) && build_id_of_file(path, out, cap);
   if (!found)
      snprintf(out, cap, "none");
}

static bool
hash_file(EVP_MD_CTX *md, const char *path)
{
   int fd = open(path, O_RDONLY | O_CLOEXEC);
   if (fd < 0)
      return false;
   struct stat st;
   bool ok = false;
   if (fstat(fd, &st) == 0 && st.st_size > 0) {
      void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
      if (p != MAP_FAILED) {
         ok = EVP_DigestUpdate(md, p, (size_t)st.st_size) == 1;
         munmap(p, (size_t)st.st_size);
      }
   }
   close(fd);
   return ok;
}

/* SHA-256 of the device libraries' names and bytes, 16 hex digits; "missing" if one cannot
 * be read (the build says which, comp_llvm.cpp). */
static void
libs_hash(char *out, size_t cap)
{
   const char *env = getenv("HSACL_DEVICE_LIBS");
   const char *dir = env && *env ? env : HSACL_DEVICE_LIB_DIR;
   EVP_MD_CTX *md = EVP_MD_CTX_new();
   bool ok = md && EVP_DigestInit_ex(md, EVP_sha256(), NULL) == 1;
   for (size_t i = 0; ok && i < sizeof(lib_names) / sizeof(lib_names[0]); i++) {
      char path[4096];
      ok = (size_t)snprintf(path, sizeof(path), "%s/%s", dir, lib_names[i]) < sizeof(path) &&
           EVP_DigestUpdate(md, lib_names[i], strlen(lib_names[i]) + 1) == 1 &&
           hash_file(md, path);
   }
   unsigned char digest[EVP_MAX_MD_SIZE];
   unsigned int size = 0;
   ok = ok && EVP_DigestFinal_ex(md, digest, &size) == 1 && size >= 8;
   EVP_MD_CTX_free(md);
   if (ok)
      hex_of(digest, 8, out, cap);
   else
      snprintf(out, cap, "missing");
}

static void
make_identity(void)
{
   char id[128], libs[32];
   engine_build_id(id, sizeof(id));
   libs_hash(libs, sizeof(libs));
   snprintf(identity, sizeof(identity), "hsacl-compiler/%s build %s LLVM %s device-libs %s",
            HSACL_VERSION, id, HSACL_LLVM_VERSION, libs);
}

const char *
comp_identity(void)
{
   pthread_once(&identity_once, make_identity);
   return identity;
}
