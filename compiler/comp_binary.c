/*
 * compiler/comp_binary.c — program binaries: hsacl's binary for a device is the AMDGPU
 * code object itself for an executable; a compiled object (clCompileProgram) or a library
 * (clLinkProgram -create-library) is LLVM bitcode wrapped in a relocatable AMDGPU ELF
 * (ET_REL with the device's EF_AMDGPU_MACH and xnack/sramecc flags, so that the checks of
 * code objects apply) whose section ".hsacl.object" or ".hsacl.library" holds the bitcode and
 * ".hsacl.sha256" its SHA-256. Checks a binary against a device (clCreateProgramWithBinary must answer
 * CL_INVALID_BINARY for a corrupt or foreign binary, never crash) and measures its
 * program-scope variables.
 *
 * ELF layout facts: llvm-AMDGPUUsage.rst "ELF Code Object" (e_ident, e_flags,
 * EF_AMDGPU_MACH, xnack/sramecc target features for code object V4 and later).
 */
#include "comp_program_priv.h"
#include "platform/plat.h"

#include <elf.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <string.h>

#ifndef EM_AMDGPU
#define EM_AMDGPU 224
#endif
#define ELFOSABI_AMDGPU_HSA 64
#define ELFABIVERSION_AMDGPU_HSA_V4 2
#define EF_AMDGPU_MACH 0x0ffu
#define EF_AMDGPU_FEATURE_XNACK_V4 0x300u
#define EF_AMDGPU_FEATURE_XNACK_ANY_V4 0x100u
#define EF_AMDGPU_FEATURE_XNACK_OFF_V4 0x200u
#define EF_AMDGPU_FEATURE_XNACK_ON_V4 0x300u
#define EF_AMDGPU_FEATURE_SRAMECC_V4 0xc00u
#define EF_AMDGPU_FEATURE_SRAMECC_ANY_V4 0x400u
#define EF_AMDGPU_FEATURE_SRAMECC_OFF_V4 0x800u
#define EF_AMDGPU_FEATURE_SRAMECC_ON_V4 0xc00u
#define ELFABIVERSION_AMDGPU_HSA_V5 3

#define SECTION_OBJECT ".hsacl.object"
#define SECTION_LIBRARY ".hsacl.library"
#define SECTION_DIGEST ".hsacl.sha256" /* SHA-256 of the bitcode section */

/* EF_AMDGPU_MACH values of the GCN/RDNA processors (AMDGPUUsage, "AMDGPU EF_AMDGPU_MACH
 * Values"). */
static const struct {
   uint32_t mach;
   const char *name;
} mach_names[] = {
   { 0x020, "gfx600" },  { 0x021, "gfx601" },  { 0x022, "gfx700" },  { 0x023, "gfx701" },
   { 0x024, "gfx702" },  { 0x025, "gfx703" },  { 0x026, "gfx704" },  { 0x028, "gfx801" },
   { 0x029, "gfx802" },  { 0x02a, "gfx803" },  { 0x02b, "gfx810" },  { 0x02c, "gfx900" },
   { 0x02d, "gfx902" },  { 0x02e, "gfx904" },  { 0x02f, "gfx906" },  { 0x030, "gfx908" },
   { 0x031, "gfx909" },  { 0x032, "gfx90c" },  { 0x033, "gfx1010" }, { 0x034, "gfx1011" },
   { 0x035, "gfx1012" }, { 0x036, "gfx1030" }, { 0x037, "gfx1031" }, { 0x038, "gfx1032" },
   { 0x039, "gfx1033" }, { 0x03a, "gfx602" },  { 0x03b, "gfx705" },  { 0x03c, "gfx805" },
   { 0x03d, "gfx1035" }, { 0x03e, "gfx1034" }, { 0x03f, "gfx90a" },  { 0x040, "gfx940" },
   { 0x041, "gfx1100" }, { 0x042, "gfx1013" }, { 0x043, "gfx1150" }, { 0x044, "gfx1103" },
   { 0x045, "gfx1036" }, { 0x046, "gfx1101" }, { 0x047, "gfx1102" }, { 0x048, "gfx1200" },
   { 0x04a, "gfx1151" }, { 0x04b, "gfx941" },  { 0x04c, "gfx942" },  { 0x04e, "gfx1201" },
   { 0x055, "gfx1152" },
};

static const char *
mach_name(uint32_t mach)
{
   for (size_t i = 0; i < sizeof(mach_names) / sizeof(mach_names[0]); i++)
      if (mach_names[i].mach == mach)
         return mach_names[i].name;
   return NULL;
}

const char *
comp__device_target_id(const struct _cl_device_id *device)
{
   const char *sep = strstr(device->isa_name, "--");
   return sep && sep[2] ? sep + 2 : device->name;
}

/* The processor of a target ID: its part before the first ':' into `buf`. */
static void
target_processor(const char *target_id, char *buf, size_t size)
{
   size_t n = strcspn(target_id, ":");
   if (n >= size)
      n = size - 1;
   memcpy(buf, target_id, n);
   buf[n] = '\0';
}

/* '+', '-' or 0 (not specified) for a feature of a target ID ("gfx906:sramecc-:xnack-"). */
static char
target_feature(const char *target_id, const char *feature)
{
   size_t len = strlen(feature);
   for (const char *p = strchr(target_id, ':'); p; p = strchr(p + 1, ':')) {
      if (!strncmp(p + 1, feature, len) && (p[1 + len] == '+' || p[1 + len] == '-'))
         return p[1 + len];
   }
   return 0;
}

static bool
feature_compatible(uint32_t setting, uint32_t on, uint32_t off, char device)
{
   if (setting == on)
      return device == '+';
   if (setting == off)
      return device == '-';
   return true; /* any, or unsupported by the processor */
}

static char *
reason(const char *fmt, const char *a, const char *b)
{
   char buf[256];
   snprintf(buf, sizeof(buf), fmt, a, b);
   return icd_strdup(buf);
}

/* Every name of a symbol table (inside the file) lies inside its linked string table. */
static bool
symbols_sound(const unsigned char *b, const Elf64_Ehdr *eh, const Elf64_Shdr *symtab)
{
   if (symtab->sh_entsize != sizeof(Elf64_Sym) || symtab->sh_size % sizeof(Elf64_Sym) ||
       symtab->sh_offset % 8)
      return false;
   Elf64_Shdr str;
   memcpy(&str, b + eh->e_shoff + (size_t)symtab->sh_link * sizeof(Elf64_Shdr), sizeof(str));
   /* sh_link < e_shnum (checked by the caller); the string table's bytes lie inside the
    * file: the caller's loop checks every section, in any order, before it accepts. */
   if (str.sh_type != SHT_STRTAB || str.sh_size == 0)
      return false;
   for (uint64_t off = 0; off < symtab->sh_size; off += sizeof(Elf64_Sym)) {
      Elf64_Sym sym;
      memcpy(&sym, b + symtab->sh_offset + off, sizeof(sym));
      if (sym.st_name >= str.sh_size)
         return false;
      /* A symbol of a loaded section lies inside it: ROCr 5.2.3's loader asserts (aborts
       * the process) on an address outside every segment (Segment::Offset); found by
       * comp_api_program's one-byte corruptions on gfx1030. */
      if (sym.st_shndx == SHN_UNDEF || sym.st_shndx >= eh->e_shnum)
         continue;
      Elf64_Shdr sec;
      memcpy(&sec, b + eh->e_shoff + (size_t)sym.st_shndx * sizeof(Elf64_Shdr), sizeof(sec));
      if ((sec.sh_flags & SHF_ALLOC) &&
          (sym.st_value < sec.sh_addr || sym.st_value - sec.sh_addr > sec.sh_size))
         return false;
   }
   return true;
}

/*
 * The section header table and the section names are sound: the table lies inside the
 * file, every section's bytes do (SHT_NOBITS aside), sh_link names a section, and every
 * sh_name is a NUL-terminated string inside .shstrtab. ROCr 5.2.3's loader (libelf) turns
 * a name outside the table into a null std::string and aborts the process on the
 * exception (hsa_ext_amd.cpp handleException asserts); the software runtime's loader
 * rejects such an object. Checked here so that both answer CL_INVALID_BINARY.
 */
static bool
sections_sound(const unsigned char *b, size_t size, const Elf64_Ehdr *eh)
{
   if (eh->e_shnum == 0)
      return eh->e_shoff == 0;
   if (eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shoff > size ||
       (size - eh->e_shoff) / sizeof(Elf64_Shdr) < eh->e_shnum || eh->e_shstrndx >= eh->e_shnum)
      return false;
   Elf64_Shdr strtab;
   memcpy(&strtab, b + eh->e_shoff + (size_t)eh->e_shstrndx * sizeof(Elf64_Shdr),
          sizeof(strtab));
   if (strtab.sh_type != SHT_STRTAB || strtab.sh_offset > size ||
       strtab.sh_size > size - strtab.sh_offset || strtab.sh_size == 0 ||
       b[strtab.sh_offset + strtab.sh_size - 1] != '\0')
      return false;
   for (unsigned i = 0; i < eh->e_shnum; i++) {
      Elf64_Shdr sh;
      memcpy(&sh, b + eh->e_shoff + (size_t)i * sizeof(Elf64_Shdr), sizeof(sh));
      if (i == 0 && sh.sh_type == SHT_NULL)
         continue;
      if (sh.sh_name >= strtab.sh_size || sh.sh_link >= eh->e_shnum)
         return false;
      if (sh.sh_type != SHT_NOBITS && (sh.sh_offset > size || sh.sh_size > size - sh.sh_offset))
         return false;
      if ((sh.sh_type == SHT_SYMTAB || sh.sh_type == SHT_DYNSYM) &&
          !symbols_sound(b, eh, &sh))
         return false;
   }
   return true;
}

/* The offset and size of the section called `want`; false when there is none. Bounds-checked
 * against `size`. */
static bool
find_section(const unsigned char *b, size_t size, const Elf64_Ehdr *eh, const char *want,
             size_t *offset, size_t *sec_size)
{
   if (eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shoff > size ||
       (size - eh->e_shoff) / sizeof(Elf64_Shdr) < eh->e_shnum || eh->e_shstrndx >= eh->e_shnum)
      return false;
   Elf64_Shdr strtab;
   memcpy(&strtab, b + eh->e_shoff + eh->e_shstrndx * sizeof(Elf64_Shdr), sizeof(strtab));
   if (strtab.sh_offset > size || strtab.sh_size > size - strtab.sh_offset)
      return false;
   for (unsigned i = 1; i < eh->e_shnum; i++) {
      Elf64_Shdr sh;
      memcpy(&sh, b + eh->e_shoff + i * sizeof(Elf64_Shdr), sizeof(sh));
      if (sh.sh_name >= strtab.sh_size || sh.sh_offset > size || sh.sh_size > size - sh.sh_offset)
         continue;
      const char *name = (const char *)b + strtab.sh_offset + sh.sh_name;
      size_t max = strtab.sh_size - sh.sh_name;
      if (strnlen(name, max) == max || strcmp(name, want))
         continue;
      *offset = sh.sh_offset;
      *sec_size = sh.sh_size;
      return true;
   }
   return false;
}

/* The section holding the bitcode of a wrapped object or library: its type, offset and size.
 * False for any other ELF. Bounds-checked against `size`. */
static bool
find_bitcode_section(const unsigned char *b, size_t size, const Elf64_Ehdr *eh,
                     cl_program_binary_type *type, size_t *offset, size_t *bc_size)
{
   if (find_section(b, size, eh, SECTION_OBJECT, offset, bc_size)) {
      *type = CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
      return true;
   }
   if (find_section(b, size, eh, SECTION_LIBRARY, offset, bc_size)) {
      *type = CL_PROGRAM_BINARY_TYPE_LIBRARY;
      return true;
   }
   return false;
}

static bool
sha256(const void *data, size_t size, unsigned char out[32])
{
   unsigned len = 0;
   return EVP_Digest(data, size, out, &len, EVP_sha256(), NULL) == 1 && len == 32;
}

/* Whether the wrapper's SECTION_DIGEST holds the SHA-256 of its bitcode. LLVM's bitcode
 * reader is not hardened against malformed input (a flipped byte can crash it), so bitcode
 * reaches it only when it is the bitcode hsacl wrapped: a corrupt binary is
 * CL_INVALID_BINARY at clCreateProgramWithBinary. */
static bool
bitcode_digest_ok(const unsigned char *b, size_t size, const Elf64_Ehdr *eh, size_t bc_off,
                  size_t bc_size)
{
   size_t off, n;
   unsigned char digest[32];
   return find_section(b, size, eh, SECTION_DIGEST, &off, &n) && n == sizeof(digest) &&
          sha256(b + bc_off, bc_size, digest) && !memcmp(digest, b + off, sizeof(digest));
}

void *
comp__binary_wrap_bitcode(const void *bitcode, size_t size, const struct _cl_device_id *device,
                          cl_program_binary_type type, size_t *out_size)
{
   const char *target_id = comp__device_target_id(device);
   char processor[32];
   target_processor(target_id, processor, sizeof(processor));
   uint32_t flags = 0;
   for (size_t i = 0; i < sizeof(mach_names) / sizeof(mach_names[0]); i++)
      if (!strcmp(mach_names[i].name, processor))
         flags = mach_names[i].mach;
   char xnack = target_feature(target_id, "xnack"), sramecc = target_feature(target_id, "sramecc");
   if (xnack)
      flags |= xnack == '+' ? EF_AMDGPU_FEATURE_XNACK_ON_V4 : EF_AMDGPU_FEATURE_XNACK_OFF_V4;
   if (sramecc)
      flags |= sramecc == '+' ? EF_AMDGPU_FEATURE_SRAMECC_ON_V4
                              : EF_AMDGPU_FEATURE_SRAMECC_OFF_V4;

   /* Layout: header, section names, bitcode, its digest, section headers (null, names,
    * bitcode, digest). */
   static const char names[] = "\0.shstrtab\0" SECTION_OBJECT "\0" SECTION_LIBRARY
                               "\0" SECTION_DIGEST;
   const size_t names_off = sizeof(Elf64_Ehdr);
   const size_t bc_off = (names_off + sizeof(names) + 7) & ~(size_t)7;
   const size_t digest_off = (bc_off + size + 7) & ~(size_t)7;
   const size_t sh_off = digest_off + 32;
   const size_t total = sh_off + 4 * sizeof(Elf64_Shdr);
   unsigned char *b = icd_calloc(1, total);
   if (!b)
      return NULL;
   if (!sha256(bitcode, size, b + digest_off)) {
      icd_free(b);
      return NULL;
   }
   Elf64_Ehdr eh = {
      .e_type = ET_REL,
      .e_machine = EM_AMDGPU,
      .e_version = EV_CURRENT,
      .e_flags = flags,
      .e_ehsize = sizeof(Elf64_Ehdr),
      .e_shoff = sh_off,
      .e_shentsize = sizeof(Elf64_Shdr),
      .e_shnum = 4,
      .e_shstrndx = 1,
   };
   memcpy(eh.e_ident, ELFMAG, SELFMAG);
   eh.e_ident[EI_CLASS] = ELFCLASS64;
   eh.e_ident[EI_DATA] = ELFDATA2LSB;
   eh.e_ident[EI_VERSION] = EV_CURRENT;
   eh.e_ident[EI_OSABI] = ELFOSABI_AMDGPU_HSA;
   eh.e_ident[EI_ABIVERSION] = ELFABIVERSION_AMDGPU_HSA_V5;
   memcpy(b, &eh, sizeof(eh));
   memcpy(b + names_off, names, sizeof(names));
   memcpy(b + bc_off, bitcode, size);
   Elf64_Shdr sh[4] = {
      { 0 },
      { .sh_name = 1, .sh_type = SHT_STRTAB, .sh_offset = names_off,
        .sh_size = sizeof(names), .sh_addralign = 1 },
      { .sh_name = type == CL_PROGRAM_BINARY_TYPE_LIBRARY ? 1 + sizeof(".shstrtab") +
                                                               sizeof(SECTION_OBJECT)
                                                          : 1 + sizeof(".shstrtab"),
        .sh_type = SHT_PROGBITS, .sh_offset = bc_off, .sh_size = size, .sh_addralign = 8 },
      { .sh_name = sizeof(names) - sizeof(SECTION_DIGEST), .sh_type = SHT_PROGBITS,
        .sh_offset = digest_off, .sh_size = 32, .sh_addralign = 8 },
   };
   memcpy(b + sh_off, sh, sizeof(sh));
   *out_size = total;
   return b;
}

bool
comp__binary_bitcode(const void *binary, size_t size, const void **bitcode, size_t *bc_size)
{
   Elf64_Ehdr eh;
   cl_program_binary_type type;
   size_t off;
   if (size < sizeof(eh))
      return false;
   memcpy(&eh, binary, sizeof(eh));
   if (!find_bitcode_section(binary, size, &eh, &type, &off, bc_size))
      return false;
   *bitcode = (const unsigned char *)binary + off;
   return true;
}

bool
comp__binary_check(const void *binary, size_t size, const struct _cl_device_id *device,
                   cl_program_binary_type *type, struct comp_program_info **info, char **why)
{
   const unsigned char *b = binary;
   const char *target_id = comp__device_target_id(device);
   char processor[32];
   Elf64_Ehdr eh;

   *info = NULL;
   *why = NULL;
   target_processor(target_id, processor, sizeof(processor));
   if (!binary || size < sizeof(eh) || memcmp(b, ELFMAG, SELFMAG)) {
      *why = reason("not an ELF file%s%s", "", "");
      return false;
   }
   memcpy(&eh, b, sizeof(eh));
   if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB ||
       eh.e_machine != EM_AMDGPU || eh.e_ident[EI_OSABI] != ELFOSABI_AMDGPU_HSA) {
      *why = reason("not an AMDGPU HSA code object%s%s", "", "");
      return false;
   }
   const char *bad = comp_elf_layout_check(b, size);
   if (bad) {
      *why = reason("malformed ELF: %s%s", bad, "");
      return false;
   }
   if (eh.e_type != ET_DYN && eh.e_type != ET_REL) {
      *why = reason("neither a code object (ET_DYN) nor a compiled object (ET_REL)%s%s", "",
                    "");
      return false;
   }
   const char *bin_proc = mach_name(eh.e_flags & EF_AMDGPU_MACH);
   if (!bin_proc || strcmp(bin_proc, processor)) {
      *why = reason("code object for %s, device is %s", bin_proc ? bin_proc : "unknown GPU",
                    processor);
      return false;
   }
   if (eh.e_ident[EI_ABIVERSION] >= ELFABIVERSION_AMDGPU_HSA_V4) {
      if (!feature_compatible(eh.e_flags & EF_AMDGPU_FEATURE_XNACK_V4,
                              EF_AMDGPU_FEATURE_XNACK_ON_V4, EF_AMDGPU_FEATURE_XNACK_OFF_V4,
                              target_feature(target_id, "xnack"))) {
         *why = reason("code object xnack setting does not match the device (%s)%s",
                       target_id, "");
         return false;
      }
      if (!feature_compatible(eh.e_flags & EF_AMDGPU_FEATURE_SRAMECC_V4,
                              EF_AMDGPU_FEATURE_SRAMECC_ON_V4,
                              EF_AMDGPU_FEATURE_SRAMECC_OFF_V4,
                              target_feature(target_id, "sramecc"))) {
         *why = reason("code object sramecc setting does not match the device (%s)%s",
                       target_id, "");
         return false;
      }
   }

   if (eh.e_type == ET_REL) {
      /* A compiled object or a library: hsacl's bitcode wrapper. A relocatable object
       * straight from codegen holds no bitcode clLinkProgram could link. */
      size_t off, bc_size;
      cl_program_binary_type t;
      if (!find_bitcode_section(b, size, &eh, &t, &off, &bc_size)) {
         *why = reason("relocatable object without hsacl bitcode (%s or %s section): "
                       "nothing clLinkProgram can link",
                       SECTION_OBJECT, SECTION_LIBRARY);
         return false;
      }
      if (bc_size < 4 || memcmp(b + off, "BC\xc0\xde", 4)) {
         *why = reason("the %s%s section does not hold LLVM bitcode",
                       t == CL_PROGRAM_BINARY_TYPE_LIBRARY ? SECTION_LIBRARY : SECTION_OBJECT,
                       "");
         return false;
      }
      if (!bitcode_digest_ok(b, size, &eh, off, bc_size)) {
         *why = reason("the bitcode does not match its %s digest: a corrupt binary%s",
                       SECTION_DIGEST, "");
         return false;
      }
      *type = t;
      return true;
   }

   if (!sections_sound(b, size, &eh)) {
      *why = reason("malformed section headers or section names%s%s", "", "");
      return false;
   }
   char *err = NULL;
   struct comp_program_info *pi = NULL;
   enum comp_status st = comp_parse_metadata(binary, size, &pi, &err);
   if (st != COMP_OK) {
      *why = reason("code object metadata: %s%s", err ? err : comp_status_name(st), "");
      free(err); /* the engine's strings are malloc'd */
      comp_program_info_destroy(pi);
      return false;
   }
   if (pi->target) {
      const char *t = strstr(pi->target, "--");
      char meta_proc[32];
      target_processor(t ? t + 2 : pi->target, meta_proc, sizeof(meta_proc));
      if (strcmp(meta_proc, processor)) {
         *why = reason("metadata target %s does not match the device (%s)", pi->target,
                       processor);
         comp_program_info_destroy(pi);
         return false;
      }
   }
   *type = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
   *info = pi;
   return true;
}

size_t
comp__binary_global_variable_size(const void *binary, size_t size)
{
   const unsigned char *b = binary;
   Elf64_Ehdr eh;
   if (size < sizeof(eh))
      return 0;
   memcpy(&eh, b, sizeof(eh));
   if (eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shoff > size ||
       (size - eh.e_shoff) / sizeof(Elf64_Shdr) < eh.e_shnum)
      return 0;
   /* Section headers are copied out byte-wise: e_shoff need not be 8-byte aligned, and a
    * misaligned Elf64_Shdr pointer is undefined behaviour. */
   const unsigned char *sh0 = b + eh.e_shoff;
   size_t total = 0;
   for (unsigned i = 0; i < eh.e_shnum; i++) {
      Elf64_Shdr symtab;
      memcpy(&symtab, sh0 + i * sizeof(Elf64_Shdr), sizeof(symtab));
      if (symtab.sh_type != SHT_SYMTAB || symtab.sh_entsize != sizeof(Elf64_Sym) ||
          symtab.sh_offset > size || symtab.sh_size > size - symtab.sh_offset)
         continue;
      size_t nsyms = symtab.sh_size / sizeof(Elf64_Sym);
      Elf64_Shdr strtab = { 0 };
      if (symtab.sh_link < eh.e_shnum)
         memcpy(&strtab, sh0 + symtab.sh_link * sizeof(Elf64_Shdr), sizeof(strtab));
      for (size_t s = 0; s < nsyms; s++) {
         Elf64_Sym sym;
         memcpy(&sym, b + symtab.sh_offset + s * sizeof(Elf64_Sym), sizeof(sym));
         if (ELF64_ST_TYPE(sym.st_info) != STT_OBJECT || sym.st_shndx == SHN_UNDEF ||
             sym.st_shndx >= eh.e_shnum)
            continue;
         Elf64_Shdr sec;
         memcpy(&sec, sh0 + sym.st_shndx * sizeof(Elf64_Shdr), sizeof(sec));
         /* Global-address-space variables live in writable sections; kernel descriptors
          * and constants are read-only. */
         if ((sec.sh_flags & (SHF_ALLOC | SHF_WRITE)) != (SHF_ALLOC | SHF_WRITE))
            continue;
         if (strtab.sh_type == SHT_STRTAB && sym.st_name < strtab.sh_size &&
             strtab.sh_offset <= size && strtab.sh_size <= size - strtab.sh_offset) {
            const char *name = (const char *)b + strtab.sh_offset + sym.st_name;
            size_t max = strtab.sh_size - sym.st_name;
            size_t len = strnlen(name, max);
            /* Compiler-internal objects (e.g. "__hip_cuid", "llvm.*") are not program
             * variables. */
            if (len == max || (len >= 2 && name[0] == '_' && name[1] == '_') ||
                !strncmp(name, "llvm.", 5))
               continue;
         }
         total += sym.st_size;
      }
   }
   return total;
}
