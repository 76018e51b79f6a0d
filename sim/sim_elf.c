/*
 * sim/sim_elf.c — the AMDGPU code object loader: ELF validation, segment mapping into
 * device memory, dynamic relocations, kernel descriptors and the NT_AMDGPU_METADATA note
 * (LLVM AMDGPUUsage: "ELF Code Object", "Note Records", "Relocation Records", "Kernel
 * Descriptor", "Code Object V3+ Metadata").
 *
 * Every offset and size taken from the file is checked before use; libelf and msgpack-c do
 * the parsing. The image is one device allocation (GPU VA == ELF vaddr + delta) split into
 * table entries by segment permissions: executable pages SIM_ALLOC_CODE|READ, writable
 * pages READ|WRITE, others READ.
 */
#include <gelf.h>
#include <libelf.h>
#include <msgpack.h>
#include <stdlib.h>
#include <string.h>

#include "sim_priv.h"

#define ELFOSABI_AMDGPU_HSA_ 64
#define ABI_V3 1
#define ABI_V6 4
#define NT_AMDGPU_METADATA_ 32
#define EF_MACH_MASK 0x0ffu
#define EF_MACH_GFX9_GENERIC 0x051u
#define EF_XNACK_V3 0x100u
#define EF_SRAMECC_V3 0x200u
#define EF_XNACK_V4_MASK 0x300u
#define EF_XNACK_ON_V4 0x300u
#define EF_SRAMECC_V4_MASK 0xc00u
#define EF_SRAMECC_ON_V4 0xc00u
#define EF_SRAMECC_OFF_V4 0x800u
#define MAX_IMAGE_SIZE (1ull << 32)
#define KD_SIZE 64

enum {
   R_AMDGPU_NONE_ = 0,
   R_AMDGPU_ABS32_LO_ = 1,
   R_AMDGPU_ABS32_HI_ = 2,
   R_AMDGPU_ABS64_ = 3,
   R_AMDGPU_REL32_ = 4,
   R_AMDGPU_REL64_ = 5,
   R_AMDGPU_ABS32_ = 6,
   R_AMDGPU_REL32_LO_ = 10,
   R_AMDGPU_REL32_HI_ = 11,
   R_AMDGPU_RELATIVE64_ = 13,
   R_AMDGPU_REL16_ = 14,
};

/* Per-kernel facts from the metadata note. */
typedef struct kernel_md {
   char symbol[256];
   uint32_t kernarg_size, kernarg_align, group_size, private_size;
   bool dynamic_stack;
} kernel_md;

typedef struct load_ctx {
   Elf *elf;
   const uint8_t *data;
   size_t size;
   uint64_t vmin, vmax; /* page-aligned span of the PT_LOAD segments */
   uint8_t *view;       /* agent view of vmin */
   uint64_t base;       /* GPU VA of vmin */
   kernel_md *kernels;
   uint32_t kernel_count;
   char target[128];
   const sim_target *agent; /* the target of the GPU it is loaded for */
} load_ctx;

static pthread_once_t elf_once = PTHREAD_ONCE_INIT;
static bool elf_ready;

static void
elf_init(void)
{
   elf_ready = elf_version(EV_CURRENT) != EV_NONE;
}

/* The metadata's amdhsa.target "amdgcn-amd-amdhsa--<proc>[:features]" names `proc`. */
static bool
target_matches(const char *target, const char *proc)
{
   static const char prefix[] = "amdgcn-amd-amdhsa--";
   size_t n = strlen(proc);
   if (strncmp(target, prefix, sizeof(prefix) - 1) != 0)
      return false;
   target += sizeof(prefix) - 1;
   return strncmp(target, proc, n) == 0 && (target[n] == '\0' || target[n] == ':');
}

/* ---- header ------------------------------------------------------------------------------ */

static hsa_status_t
check_header(load_ctx *c, GElf_Ehdr *eh)
{
   if (elf_kind(c->elf) != ELF_K_ELF || gelf_getclass(c->elf) != ELFCLASS64 ||
       !gelf_getehdr(c->elf, eh))
      return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
   if (eh->e_ident[EI_DATA] != ELFDATA2LSB || eh->e_type != ET_DYN)
      return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
   if (eh->e_machine != EM_AMDGPU || eh->e_ident[EI_OSABI] != ELFOSABI_AMDGPU_HSA_)
      return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
   /* Both header tables inside the file, checked without wrapping: a code object has
    * both (the symbols and the metadata note are found through the section headers). */
   if (eh->e_phentsize != sizeof(Elf64_Phdr) || eh->e_phoff > c->size ||
       (c->size - eh->e_phoff) / sizeof(Elf64_Phdr) < eh->e_phnum ||
       eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shoff == 0 || eh->e_shnum == 0 ||
       eh->e_shoff > c->size || (c->size - eh->e_shoff) / sizeof(Elf64_Shdr) < eh->e_shnum)
      return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
   uint8_t abi = eh->e_ident[EI_ABIVERSION];
   if (abi < ABI_V3 || abi > ABI_V6)
      return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
   uint32_t mach = eh->e_flags & EF_MACH_MASK;
   /* gfx9-generic (LLVM's AMDGPUUsage "Generic processors") runs on gfx900-gfx90c, not
    * on gfx90a. */
   const sim_target *t = c->agent;
   if (mach != t->elf_mach &&
       !(abi == ABI_V6 && mach == EF_MACH_GFX9_GENERIC && t->id == SIM_TARGET_GFX906))
      return HSA_STATUS_ERROR_INVALID_ISA_NAME;
   /* The agent's settings (sim_target.isa_name): XNACK off; SRAMECC off on the gfx906, on
    * on the gfx90a. An object requiring the other setting does not run. */
   if (abi == ABI_V3) {
      if ((eh->e_flags & EF_XNACK_V3) || !(eh->e_flags & EF_SRAMECC_V3) != !t->sramecc)
         return HSA_STATUS_ERROR_INVALID_ISA_NAME;
   } else if ((eh->e_flags & EF_XNACK_V4_MASK) == EF_XNACK_ON_V4 ||
              (eh->e_flags & EF_SRAMECC_V4_MASK) == (t->sramecc ? EF_SRAMECC_OFF_V4
                                                                 : EF_SRAMECC_ON_V4)) {
      return HSA_STATUS_ERROR_INVALID_ISA_NAME;
   }
   return HSA_STATUS_SUCCESS;
}

/* ---- segments ----------------------------------------------------------------------------- */

static hsa_status_t
scan_segments(load_ctx *c, size_t *phnum)
{
   if (elf_getphdrnum(c->elf, phnum) != 0 || *phnum == 0)
      return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
   uint64_t lo = UINT64_MAX, hi = 0;
   for (size_t i = 0; i < *phnum; i++) {
      GElf_Phdr ph;
      if (!gelf_getphdr(c->elf, (int)i, &ph))
         return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
      /* Every segment lies inside the file, whether or not the loader reads it (a
       * PT_NOTE at 2^64 - 1 is a malformed object, not one to run). */
      if (ph.p_offset > c->size || ph.p_filesz > c->size - ph.p_offset)
         return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
      if (ph.p_type != PT_LOAD || ph.p_memsz == 0)
         continue;
      if (ph.p_filesz > ph.p_memsz || ph.p_offset > c->size ||
          ph.p_filesz > c->size - ph.p_offset || ph.p_memsz > MAX_IMAGE_SIZE ||
          ph.p_vaddr > MAX_IMAGE_SIZE)
         return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
      if (ph.p_vaddr < lo)
         lo = ph.p_vaddr;
      if (ph.p_vaddr + ph.p_memsz > hi)
         hi = ph.p_vaddr + ph.p_memsz;
   }
   if (lo == UINT64_MAX)
      return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
   c->vmin = lo & ~(SIM_PAGE_SIZE - 1);
   c->vmax = sim_align_up(hi, SIM_PAGE_SIZE);
   if (c->vmax - c->vmin > MAX_IMAGE_SIZE)
      return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
   return HSA_STATUS_SUCCESS;
}

static void
copy_segments(load_ctx *c, size_t phnum)
{
   for (size_t i = 0; i < phnum; i++) {
      GElf_Phdr ph;
      if (!gelf_getphdr(c->elf, (int)i, &ph) || ph.p_type != PT_LOAD || ph.p_memsz == 0)
         continue;
      /* The heap hands out zeroed pages, so bss needs no clearing. */
      memcpy(c->view + (ph.p_vaddr - c->vmin), c->data + ph.p_offset, ph.p_filesz);
   }
}

/* Splits the image's table entry by page permissions. */
static hsa_status_t
protect_segments(load_ctx *c, size_t phnum)
{
   uint64_t pages = (c->vmax - c->vmin) / SIM_PAGE_SIZE;
   uint8_t *perm = calloc(pages, 1);
   if (!perm)
      return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
   for (size_t i = 0; i < phnum; i++) {
      GElf_Phdr ph;
      if (!gelf_getphdr(c->elf, (int)i, &ph) || ph.p_type != PT_LOAD || ph.p_memsz == 0)
         continue;
      uint32_t f = SIM_ALLOC_READ;
      if (ph.p_flags & PF_X)
         f |= SIM_ALLOC_CODE;
      if (ph.p_flags & PF_W)
         f |= SIM_ALLOC_WRITE;
      uint64_t first = (ph.p_vaddr - c->vmin) / SIM_PAGE_SIZE;
      uint64_t last = (sim_align_up(ph.p_vaddr + ph.p_memsz, SIM_PAGE_SIZE) - c->vmin) /
                      SIM_PAGE_SIZE;
      for (uint64_t p = first; p < last; p++)
         perm[p] |= (uint8_t)f;
   }
   /* Runs of equal permissions; gaps between segments are read-only. */
   uint32_t runs = 0;
   for (uint64_t p = 0; p < pages; p++) {
      if (!perm[p])
         perm[p] = SIM_ALLOC_READ;
      if (p == 0 || perm[p] != perm[p - 1])
         runs++;
   }
   uint64_t *cuts = malloc(runs * sizeof(*cuts));
   uint32_t *flags = malloc(runs * sizeof(*flags));
   hsa_status_t st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
   if (!cuts || !flags)
      goto out_free;
   uint32_t r = 0;
   for (uint64_t p = 0; p < pages; p++) {
      if (p == 0 || perm[p] != perm[p - 1]) {
         if (r > 0)
            cuts[r - 1] = p * SIM_PAGE_SIZE;
         flags[r++] = perm[p];
      }
   }
   st = sim__mem_split((void *)(uintptr_t)c->base, cuts, flags, runs);
out_free:
   free(cuts);
   free(flags);
   free(perm);
   return st;
}

/* True if [vaddr, vaddr+len) lies inside the loaded span. */
static bool
in_image(const load_ctx *c, uint64_t vaddr, uint64_t len)
{
   return vaddr >= c->vmin && vaddr <= c->vmax && len <= c->vmax - vaddr;
}

/* ---- relocations -------------------------------------------------------------------------- */

static hsa_status_t
symbol_value(load_ctx *c, Elf_Scn *symtab, size_t index, sim_elf_resolve_fn resolve, void *ctx,
             uint64_t *value)
{
   if (index == 0) {
      *value = 0;
      return HSA_STATUS_SUCCESS;
   }
   GElf_Shdr sh;
   Elf_Data *d = symtab ? elf_getdata(symtab, NULL) : NULL;
   GElf_Sym sym;
   if (!d || !gelf_getshdr(symtab, &sh) || !gelf_getsym(d, (int)index, &sym))
      return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
   if (sym.st_shndx != SHN_UNDEF) {
      *value = sym.st_value - c->vmin + c->base;
      return HSA_STATUS_SUCCESS;
   }
   const char *name = elf_strptr(c->elf, sh.sh_link, sym.st_name);
   if (name && resolve && resolve(ctx, name, value))
      return HSA_STATUS_SUCCESS;
   if (GELF_ST_BIND(sym.st_info) == STB_WEAK) {
      *value = 0;
      return HSA_STATUS_SUCCESS;
   }
   SIM_LOGE("loader", "undefined symbol '%s'", name ? name : "?");
   return HSA_STATUS_ERROR_VARIABLE_UNDEFINED;
}

static hsa_status_t
apply_rela(load_ctx *c, const GElf_Rela *r, uint64_t s, uint64_t b)
{
   uint32_t type = (uint32_t)GELF_R_TYPE(r->r_info);
   uint64_t a = (uint64_t)r->r_addend;
   uint64_t p = r->r_offset - c->vmin + c->base;
   uint32_t width = 4;
   uint64_t v;
   switch (type) {
   case R_AMDGPU_NONE_: return HSA_STATUS_SUCCESS;
   case R_AMDGPU_ABS32_LO_: v = (s + a) & 0xffffffffu; break;
   case R_AMDGPU_ABS32_HI_: v = (s + a) >> 32; break;
   case R_AMDGPU_ABS64_: v = s + a; width = 8; break;
   case R_AMDGPU_REL32_: v = s + a - p; break;
   case R_AMDGPU_REL64_: v = s + a - p; width = 8; break;
   case R_AMDGPU_ABS32_: v = s + a; break;
   case R_AMDGPU_REL32_LO_: v = (s + a - p) & 0xffffffffu; break;
   case R_AMDGPU_REL32_HI_: v = (s + a - p) >> 32; break;
   case R_AMDGPU_RELATIVE64_: v = b + a; width = 8; break;
   case R_AMDGPU_REL16_: v = ((s + a - p) - 4) / 4; width = 2; break;
   default:
      SIM_LOGE("loader", "unsupported relocation type %u", type);
      return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
   }
   if (!in_image(c, r->r_offset, width))
      return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
   memcpy(c->view + (r->r_offset - c->vmin), &v, width); /* little endian */
   return HSA_STATUS_SUCCESS;
}

static hsa_status_t
apply_relocations(load_ctx *c, sim_elf_resolve_fn resolve, void *ctx)
{
   uint64_t b = c->base - c->vmin; /* load bias */
   Elf_Scn *scn = NULL;
   while ((scn = elf_nextscn(c->elf, scn))) {
      GElf_Shdr sh;
      if (!gelf_getshdr(scn, &sh))
         return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
      if (sh.sh_type == SHT_REL && (sh.sh_flags & SHF_ALLOC))
         return HSA_STATUS_ERROR_INVALID_CODE_OBJECT; /* AMDGPU uses RELA only */
      if (sh.sh_type != SHT_RELA || !(sh.sh_flags & SHF_ALLOC))
         continue;
      Elf_Scn *symtab = sh.sh_link ? elf_getscn(c->elf, sh.sh_link) : NULL;
      Elf_Data *d = elf_getdata(scn, NULL);
      if (!d || sh.sh_entsize != sizeof(Elf64_Rela))
         return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
      size_t n = d->d_size / sizeof(Elf64_Rela);
      for (size_t i = 0; i < n; i++) {
         GElf_Rela r;
         if (!gelf_getrela(d, (int)i, &r))
            return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
         uint64_t s = 0;
         hsa_status_t st = symbol_value(c, symtab, GELF_R_SYM(r.r_info), resolve, ctx, &s);
         if (st != HSA_STATUS_SUCCESS)
            return st;
         st = apply_rela(c, &r, s, b);
         if (st != HSA_STATUS_SUCCESS)
            return st;
      }
   }
   return HSA_STATUS_SUCCESS;
}

/* ---- metadata note ------------------------------------------------------------------------ */

static bool
mp_key_is(const msgpack_object *k, const char *s)
{
   size_t n = strlen(s);
   return k->type == MSGPACK_OBJECT_STR && k->via.str.size == n &&
          memcmp(k->via.str.ptr, s, n) == 0;
}

static uint32_t
mp_u32(const msgpack_object *o)
{
   if (o->type == MSGPACK_OBJECT_POSITIVE_INTEGER)
      return o->via.u64 > UINT32_MAX ? UINT32_MAX : (uint32_t)o->via.u64;
   return 0;
}

static void
mp_str(const msgpack_object *o, char *out, size_t cap)
{
   out[0] = '\0';
   if (o->type != MSGPACK_OBJECT_STR)
      return;
   size_t n = o->via.str.size < cap - 1 ? o->via.str.size : cap - 1;
   memcpy(out, o->via.str.ptr, n);
   out[n] = '\0';
}

static hsa_status_t
parse_kernel_md(const msgpack_object *map, kernel_md *k)
{
   if (map->type != MSGPACK_OBJECT_MAP)
      return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
   memset(k, 0, sizeof(*k));
   k->kernarg_align = 16;
   for (uint32_t i = 0; i < map->via.map.size; i++) {
      const msgpack_object *key = &map->via.map.ptr[i].key;
      const msgpack_object *val = &map->via.map.ptr[i].val;
      if (mp_key_is(key, ".symbol"))
         mp_str(val, k->symbol, sizeof(k->symbol));
      else if (mp_key_is(key, ".kernarg_segment_size"))
         k->kernarg_size = mp_u32(val);
      else if (mp_key_is(key, ".kernarg_segment_align"))
         k->kernarg_align = mp_u32(val);
      else if (mp_key_is(key, ".group_segment_fixed_size"))
         k->group_size = mp_u32(val);
      else if (mp_key_is(key, ".private_segment_fixed_size"))
         k->private_size = mp_u32(val);
      else if (mp_key_is(key, ".uses_dynamic_stack"))
         k->dynamic_stack = val->type == MSGPACK_OBJECT_BOOLEAN && val->via.boolean;
   }
   return k->symbol[0] ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
}

static uint64_t
be(const uint8_t *p, int n)
{
   uint64_t v = 0;
   for (int i = 0; i < n; i++)
      v = (v << 8) | p[i];
   return v;
}

/*
 * Checks that a MessagePack document is well formed and that no array or map claims more
 * elements than bytes remain, before msgpack-c sizes its allocations from those counts.
 */
static bool
msgpack_sane(const uint8_t *p, size_t len)
{
   uint64_t pending = 1;
   size_t i = 0;
   while (pending > 0) {
      if (i >= len)
         return false;
      uint8_t t = p[i++];
      uint64_t skip = 0, items = 0;
      int hdr = 0;
      pending--;
      if (t <= 0x7f || t >= 0xe0 || t == 0xc0 || t == 0xc2 || t == 0xc3) {
         /* fixint, nil, bool */
      } else if (t >= 0x80 && t <= 0x8f) {
         items = 2u * (t & 0x0f);
      } else if (t >= 0x90 && t <= 0x9f) {
         items = t & 0x0f;
      } else if (t >= 0xa0 && t <= 0xbf) {
         skip = t & 0x1f;
      } else {
         switch (t) {
         case 0xc4: case 0xd9: hdr = 1; break;              /* bin8, str8 */
         case 0xc5: case 0xda: hdr = 2; break;              /* bin16, str16 */
         case 0xc6: case 0xdb: hdr = 4; break;              /* bin32, str32 */
         case 0xc7: hdr = 1; skip = 1; break;               /* ext8 */
         case 0xc8: hdr = 2; skip = 1; break;               /* ext16 */
         case 0xc9: hdr = 4; skip = 1; break;               /* ext32 */
         case 0xca: skip = 4; break;
         case 0xcb: skip = 8; break;
         case 0xcc: case 0xd0: skip = 1; break;
         case 0xcd: case 0xd1: skip = 2; break;
         case 0xce: case 0xd2: skip = 4; break;
         case 0xcf: case 0xd3: skip = 8; break;
         case 0xd4: skip = 2; break;
         case 0xd5: skip = 3; break;
         case 0xd6: skip = 5; break;
         case 0xd7: skip = 9; break;
         case 0xd8: skip = 17; break;
         case 0xdc: case 0xde: hdr = 2; break;
         case 0xdd: case 0xdf: hdr = 4; break;
         default: return false; /* 0xc1 */
         }
         if (hdr) {
            if (len - i < (size_t)hdr)
               return false;
            uint64_t n = be(p + i, hdr);
            i += (size_t)hdr;
            if (t == 0xdc || t == 0xdd)
               items = n;
            else if (t == 0xde || t == 0xdf)
               items = 2 * n;
            else
               skip += n;
         }
      }
      if (skip > len - i)
         return false;
      i += (size_t)skip;
      pending += items;
      if (pending > len - i)
         return false;
   }
   return true;
}

static hsa_status_t
parse_metadata(load_ctx *c, const void *desc, size_t len)
{
   if (!msgpack_sane(desc, len))
      return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
   hsa_status_t st = HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
   msgpack_unpacked u;
   msgpack_unpacked_init(&u);
   size_t off = 0;
   if (msgpack_unpack_next(&u, desc, len, &off) != MSGPACK_UNPACK_SUCCESS ||
       u.data.type != MSGPACK_OBJECT_MAP)
      goto out_destroy;
   const msgpack_object *root = &u.data;
   for (uint32_t i = 0; i < root->via.map.size; i++) {
      const msgpack_object *key = &root->via.map.ptr[i].key;
      const msgpack_object *val = &root->via.map.ptr[i].val;
      if (mp_key_is(key, "amdhsa.target")) {
         mp_str(val, c->target, sizeof(c->target));
      } else if (mp_key_is(key, "amdhsa.kernels")) {
         if (val->type != MSGPACK_OBJECT_ARRAY || c->kernels)
            goto out_destroy;
         uint32_t n = val->via.array.size;
         c->kernels = calloc(n ? n : 1, sizeof(*c->kernels));
         if (!c->kernels) {
            st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
            goto out_destroy;
         }
         for (uint32_t k = 0; k < n; k++) {
            if (parse_kernel_md(&val->via.array.ptr[k], &c->kernels[k]) != HSA_STATUS_SUCCESS)
               goto out_destroy;
         }
         c->kernel_count = n;
      }
   }
   st = HSA_STATUS_SUCCESS;
out_destroy:
   msgpack_unpacked_destroy(&u);
   return st;
}

static hsa_status_t
read_notes(load_ctx *c)
{
   Elf_Scn *scn = NULL;
   while ((scn = elf_nextscn(c->elf, scn))) {
      GElf_Shdr sh;
      if (!gelf_getshdr(scn, &sh))
         return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
      if (sh.sh_type != SHT_NOTE)
         continue;
      Elf_Data *d = elf_getdata(scn, NULL);
      if (!d)
         return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
      size_t off = 0, name_off, desc_off;
      GElf_Nhdr nh;
      while (off < d->d_size && (off = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > 0) {
         const char *name = (const char *)d->d_buf + name_off;
         if (nh.n_type == NT_AMDGPU_METADATA_ && nh.n_namesz == 7 &&
             memcmp(name, "AMDGPU", 7) == 0) {
            hsa_status_t st =
               parse_metadata(c, (const char *)d->d_buf + desc_off, nh.n_descsz);
            if (st != HSA_STATUS_SUCCESS)
               return st;
         }
      }
   }
   if (c->target[0] && !target_matches(c->target, c->agent->name) &&
       !(c->agent->id == SIM_TARGET_GFX906 &&
         target_matches(c->target, "gfx9-generic")))
      return HSA_STATUS_ERROR_INVALID_ISA_NAME;
   return HSA_STATUS_SUCCESS;
}

/* ---- symbols ------------------------------------------------------------------------------ */

static bool
ends_with_kd(const char *name)
{
   size_t n = strlen(name);
   return n > 3 && strcmp(name + n - 3, ".kd") == 0;
}

static bool
vaddr_writable(load_ctx *c, uint64_t vaddr)
{
   size_t phnum;
   if (elf_getphdrnum(c->elf, &phnum) != 0)
      return false;
   for (size_t i = 0; i < phnum; i++) {
      GElf_Phdr ph;
      if (gelf_getphdr(c->elf, (int)i, &ph) && ph.p_type == PT_LOAD && vaddr >= ph.p_vaddr &&
          vaddr - ph.p_vaddr < ph.p_memsz)
         return (ph.p_flags & PF_W) != 0;
   }
   return false;
}

static hsa_status_t
collect_symbols(load_ctx *c, sim_code_image *img)
{
   /* The dynamic symbol table is what a loader sees; .symtab only if there is none. */
   Elf_Scn *scn = NULL, *symtab = NULL;
   while ((scn = elf_nextscn(c->elf, scn))) {
      GElf_Shdr sh;
      if (!gelf_getshdr(scn, &sh))
         return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
      if (sh.sh_type == SHT_DYNSYM || (sh.sh_type == SHT_SYMTAB && !symtab))
         symtab = scn;
   }
   if (!symtab)
      return HSA_STATUS_SUCCESS;
   GElf_Shdr sh;
   Elf_Data *d = elf_getdata(symtab, NULL);
   if (!d || !gelf_getshdr(symtab, &sh) || sh.sh_entsize != sizeof(Elf64_Sym))
      return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
   size_t n = d->d_size / sizeof(Elf64_Sym);
   img->symbols = calloc(n ? n : 1, sizeof(*img->symbols));
   if (!img->symbols)
      return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
   for (size_t i = 1; i < n; i++) {
      GElf_Sym sym;
      if (!gelf_getsym(d, (int)i, &sym))
         return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
      int bind = GELF_ST_BIND(sym.st_info);
      if ((bind != STB_GLOBAL && bind != STB_WEAK) || sym.st_shndx == SHN_UNDEF ||
          GELF_ST_TYPE(sym.st_info) != STT_OBJECT)
         continue;
      const char *name = elf_strptr(c->elf, sh.sh_link, sym.st_name);
      if (!name || !*name)
         return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
      if (!in_image(c, sym.st_value, sym.st_size))
         return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
      sim_elf_symbol *s = &img->symbols[img->symbol_count];
      s->name = strdup(name);
      if (!s->name)
         return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
      img->symbol_count++;
      s->address = sym.st_value - c->vmin + c->base;
      s->size = sym.st_size;
      s->align = 1;
      if (ends_with_kd(name) && sym.st_size == KD_SIZE) {
         /* Kernel descriptor: group/private/kernarg sizes at byte 0/4/8 (AMDGPUUsage). */
         const uint8_t *kd = c->view + (sym.st_value - c->vmin);
         s->kernel = true;
         s->align = KD_SIZE;
         memcpy(&s->group_size, kd + 0, 4);
         memcpy(&s->private_size, kd + 4, 4);
         memcpy(&s->kernarg_size, kd + 8, 4);
         s->kernarg_align = 16;
         for (uint32_t k = 0; k < c->kernel_count; k++) {
            if (strcmp(c->kernels[k].symbol, name) != 0)
               continue;
            s->kernarg_size = c->kernels[k].kernarg_size;
            s->kernarg_align = c->kernels[k].kernarg_align ? c->kernels[k].kernarg_align : 16;
            s->group_size = c->kernels[k].group_size;
            s->private_size = c->kernels[k].private_size;
            s->dynamic_callstack = c->kernels[k].dynamic_stack;
         }
      } else {
         s->is_const = !vaddr_writable(c, sym.st_value);
         /* ELF carries no alignment for symbols: report the natural one of the address. */
         uint64_t v = sym.st_value;
         s->align = v ? (uint32_t)(v & -v) : 256;
         if (s->align > 256)
            s->align = 256;
      }
   }
   return HSA_STATUS_SUCCESS;
}

/* ---- entry points ------------------------------------------------------------------------ */

hsa_status_t
sim__elf_load(const uint8_t *data, size_t size, uint32_t gpu, sim_elf_resolve_fn resolve,
              void *ctx, sim_code_image *img)
{
   hsa_status_t st;
   memset(img, 0, sizeof(*img));
   pthread_once(&elf_once, elf_init);
   if (!elf_ready)
      return HSA_STATUS_ERROR;
   load_ctx c;
   memset(&c, 0, sizeof(c));
   c.data = data;
   c.size = size;
   c.agent = sim__gpu_target(gpu);
   c.elf = elf_memory((char *)data, size);
   if (!c.elf)
      return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
   GElf_Ehdr eh;
   size_t phnum;
   st = check_header(&c, &eh);
   if (st != HSA_STATUS_SUCCESS)
      goto out_end;
   st = scan_segments(&c, &phnum);
   if (st != HSA_STATUS_SUCCESS)
      goto out_end;
   st = read_notes(&c);
   if (st != HSA_STATUS_SUCCESS)
      goto out_end;
   void *base;
   sim_mem_entry *entry;
   st = sim__mem_alloc(sim__pool_device(gpu), c.vmax - c.vmin,
                       SIM_ALLOC_READ | SIM_ALLOC_CODE, SIM_MEM_INTERNAL, &base, &entry);
   if (st != HSA_STATUS_SUCCESS)
      goto out_end;
   img->base = base;
   img->size = c.vmax - c.vmin;
   img->delta = (int64_t)((uint64_t)(uintptr_t)base - c.vmin);
   c.base = (uint64_t)(uintptr_t)base;
   c.view = entry->a.view;
   copy_segments(&c, phnum);
   st = apply_relocations(&c, resolve, ctx);
   if (st != HSA_STATUS_SUCCESS)
      goto out_unload;
   st = collect_symbols(&c, img);
   if (st != HSA_STATUS_SUCCESS)
      goto out_unload;
   st = protect_segments(&c, phnum);
   if (st != HSA_STATUS_SUCCESS)
      goto out_unload;
   SIM_LOGD("loader", "code object loaded at %p (%llu bytes, %u symbols)", base,
            (unsigned long long)img->size, img->symbol_count);
   goto out_end;

out_unload:
   sim__elf_unload(img);
out_end:
   free(c.kernels);
   elf_end(c.elf);
   return st;
}

void
sim__elf_unload(sim_code_image *img)
{
   if (img->base)
      sim__mem_free(img->base, SIM_MEM_INTERNAL);
   for (uint32_t i = 0; i < img->symbol_count; i++)
      free(img->symbols[i].name);
   free(img->symbols);
   memset(img, 0, sizeof(*img));
}
