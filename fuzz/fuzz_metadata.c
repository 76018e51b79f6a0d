/*
 * fuzz/fuzz_metadata.c — code-object metadata: comp_elf_layout_check and comp_parse_metadata
 * (compiler/comp_meta.c), which clCreateProgramWithBinary and every build run on bytes the
 * application (or the kernel cache) hands in.
 *
 * Input: one mode byte, then
 *   even mode: a whole ELF file (seeds: real code objects and hsacl's wrapped objects);
 *   odd mode:  the contents of a note section (Elf64_Nhdr, name, descriptor, ...; seeds:
 *              the .note sections of real code objects), which this target wraps into a
 *              minimal gfx906 code object with one PT_NOTE segment, so that mutations reach
 *              the msgpack reader and the metadata mapping instead of the ELF headers.
 * Checks: no crash, leak or sanitizer report; a parse that succeeds gives a consistent record
 * (explicit arguments before hidden ones, every string readable), and implies that the
 * layout check passed.
 */
#include "compiler/comp_llvm.h"

#include <elf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A gfx906 code object (ET_DYN, HSA ABI v5) whose one segment is the PT_NOTE `notes`. */
static uint8_t *
wrap_notes(const uint8_t *notes, size_t size, size_t *out_size)
{
   const size_t off = sizeof(Elf64_Ehdr) + sizeof(Elf64_Phdr);
   uint8_t *b = calloc(1, off + size);
   if (!b)
      return NULL;
   Elf64_Ehdr eh = {
      .e_type = ET_DYN,
      .e_machine = 224 /* EM_AMDGPU */,
      .e_version = EV_CURRENT,
      .e_flags = 0x2f /* EF_AMDGPU_MACH_AMDGCN_GFX906 */,
      .e_phoff = sizeof(Elf64_Ehdr),
      .e_ehsize = sizeof(Elf64_Ehdr),
      .e_phentsize = sizeof(Elf64_Phdr),
      .e_phnum = 1,
   };
   memcpy(eh.e_ident, ELFMAG, SELFMAG);
   eh.e_ident[EI_CLASS] = ELFCLASS64;
   eh.e_ident[EI_DATA] = ELFDATA2LSB;
   eh.e_ident[EI_VERSION] = EV_CURRENT;
   eh.e_ident[EI_OSABI] = 64 /* ELFOSABI_AMDGPU_HSA */;
   eh.e_ident[EI_ABIVERSION] = 3 /* code object v5 */;
   Elf64_Phdr ph = {
      .p_type = PT_NOTE,
      .p_flags = PF_R,
      .p_offset = off,
      .p_filesz = size,
      .p_memsz = size,
      .p_align = 4,
   };
   memcpy(b, &eh, sizeof(eh));
   memcpy(b + sizeof(eh), &ph, sizeof(ph));
   memcpy(b + off, notes, size);
   *out_size = off + size;
   return b;
}

/* Reads every byte of a string the record holds (ASan checks the read). */
static size_t
touch(const char *s)
{
   return s ? strlen(s) : 0;
}

static void
check_record(const struct comp_program_info *pi)
{
   size_t sum = touch(pi->target);
   if (pi->num_kernels && !pi->kernels)
      abort();
   for (uint32_t k = 0; k < pi->num_kernels; k++) {
      const struct comp_kernel *kn = &pi->kernels[k];
      sum += touch(kn->name) + touch(kn->symbol) + touch(kn->language) +
             touch(kn->vec_type_hint) + touch(kn->device_enqueue_symbol);
      if (kn->num_explicit_args > kn->num_args || (kn->num_args && !kn->args))
         abort();
      for (uint32_t a = 0; a < kn->num_args; a++) {
         const struct comp_kernel_arg *arg = &kn->args[a];
         sum += touch(arg->name) + touch(arg->type_name);
         if ((unsigned)arg->kind >= COMP_ARG_KIND_COUNT)
            abort();
         if (comp_arg_kind_is_hidden(arg->kind) != (a >= kn->num_explicit_args))
            abort();
         sum += strlen(comp_arg_kind_name(arg->kind));
      }
   }
   if (pi->num_printfs && !pi->printfs)
      abort();
   for (uint32_t p = 0; p < pi->num_printfs; p++) {
      sum += touch(pi->printfs[p].format);
      for (uint32_t a = 0; a < pi->printfs[p].num_args; a++)
         sum += pi->printfs[p].arg_sizes[a];
   }
   /* Keeps the reads. */
   __asm__ volatile("" : : "r"(sum));
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
   if (size < 1)
      return 0;
   size_t elf_size = size - 1;
   uint8_t *elf = NULL;
   if (data[0] & 1) {
      elf = wrap_notes(data + 1, size - 1, &elf_size);
   } else {
      /* An exactly sized copy: a read past the end is a heap-buffer-overflow. */
      elf = malloc(elf_size ? elf_size : 1);
      if (elf)
         memcpy(elf, data + 1, elf_size);
   }
   if (!elf)
      return 0;

   const char *bad = comp_elf_layout_check(elf, elf_size);
   struct comp_program_info *pi = NULL;
   char *error = NULL;
   enum comp_status st = comp_parse_metadata(elf, elf_size, &pi, &error);
   if (st == COMP_OK) {
      if (bad || !pi)
         abort();
      check_record(pi);
   } else if (st != COMP_INVALID_BINARY && st != COMP_OUT_OF_MEMORY) {
      abort();
   }
   comp_program_info_destroy(pi);
   free(error);
   free(elf);
   return 0;
}
