/*
 * fuzz/fuzz_cache.c — the kernel cache's entry reader (compiler/comp_cache.c
 * comp__cache_lookup) and what a build does with a hit (comp_program.c payload_valid: a
 * compiled object must be bitcode, anything else must carry metadata comp_parse_metadata
 * accepts).
 *
 * Input: one flag byte, then the bytes of an entry file "<key>.hco" (seeds: entries the
 * cache wrote for real builds). With flag bit 0 set the header's SHA-256 is recomputed over
 * the payload and log the header's sizes name, as an entry written by another (older,
 * buggy, hostile) writer would carry, so that mutations reach past the hash check.
 * Checks: no crash, leak or sanitizer report; a hit returns exactly the payload and a
 * NUL-terminated log of the sizes the header gives; a miss leaves no entry behind.
 */
#include "fuzz_common.h"

#include "compiler/comp_program_priv.h"

#include <fcntl.h>
#include <openssl/evp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define KEY "00000000000000000000000000000000000000000000000000000000000f022e"
#define HEADER_SIZE 64 /* comp_cache.c struct cache_header */

static char path[4096];

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
   fuzz_default_env();
   char dir[] = "/tmp/hsacl-fuzz-cache-XXXXXX";
   if (!mkdtemp(dir))
      abort();
   setenv("HSACL_CACHE_DIR", dir, 1);
   setenv("HSACL_CACHE", "1", 1);
   snprintf(path, sizeof(path), "%s/%s.hco", dir, KEY);
   return 0;
}

/* The header's digest over [64, 64 + data_size + log_size) when that lies in the entry. */
static void
fix_digest(unsigned char *e, size_t size)
{
   uint64_t data_size, log_size;
   if (size < HEADER_SIZE)
      return;
   memcpy(&data_size, e + 16, 8);
   memcpy(&log_size, e + 24, 8);
   if (data_size > size - HEADER_SIZE || log_size > size - HEADER_SIZE - data_size)
      return;
   unsigned len = 0;
   EVP_MD_CTX *md = EVP_MD_CTX_new();
   if (!md)
      return;
   EVP_DigestInit_ex(md, EVP_sha256(), NULL);
   EVP_DigestUpdate(md, e + HEADER_SIZE, data_size + log_size);
   EVP_DigestFinal_ex(md, e + 32, &len);
   EVP_MD_CTX_free(md);
}

int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
   if (size < 1)
      return 0;
   size_t n = size - 1;
   unsigned char *entry = malloc(n ? n : 1);
   if (!entry)
      return 0;
   memcpy(entry, data + 1, n);
   if (data[0] & 1)
      fix_digest(entry, n);
   int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
   if (fd < 0 || write(fd, entry, n) != (ssize_t)n)
      abort();
   close(fd);

   void *payload = NULL;
   size_t payload_size = 0;
   char *log = NULL;
   if (comp__cache_lookup(KEY, &payload, &payload_size, &log)) {
      uint64_t data_size, log_size;
      if (n < HEADER_SIZE)
         abort();
      memcpy(&data_size, entry + 16, 8);
      memcpy(&log_size, entry + 24, 8);
      if (payload_size != data_size || HEADER_SIZE + data_size + log_size != n ||
          memcmp(payload, entry + HEADER_SIZE, data_size) || log[log_size] != '\0' ||
          memcmp(log, entry + HEADER_SIZE + data_size, log_size))
         abort();
      /* What comp_program.c's payload_valid does with a hit. */
      if (!(payload_size >= 4 && !memcmp(payload, "BC\xc0\xde", 4))) {
         struct comp_program_info *info = NULL;
         char *why = NULL;
         comp_parse_metadata(payload, payload_size, &info, &why);
         comp_program_info_destroy(info);
         free(why);
      }
      icd_free(payload);
      icd_free(log);
   } else if (access(path, F_OK) == 0) {
      abort(); /* a corrupt entry is removed */
   }
   unlink(path);
   free(entry);
   return 0;
}
