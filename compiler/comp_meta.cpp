// comp_meta.cpp — the NT_AMDGPU_METADATA note of a code object (AMDGPUUsage "Code Object V5
// Metadata") into struct comp_program_info, with LLVM's ELF and MessagePack readers. Every
// type is checked before it is read: a malformed note is an error, never a crash.

#include "comp_priv.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/BinaryFormat/MsgPackDocument.h"
#include "llvm/BinaryFormat/MsgPackReader.h"
#include "llvm/Object/ELF.h"

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

const char *const kArgKindNames[] = {
#define X(e, s) s,
#include "comp_arg_kinds.def"
#undef X
};

struct ParseError {
   std::string what;
};

char *
dup(llvm::StringRef s)
{
   char *p = static_cast<char *>(malloc(s.size() + 1));
   if (!p)
      throw ParseError{ "out of memory" };
   memcpy(p, s.data(), s.size());
   p[s.size()] = 0;
   return p;
}

template <typename T>
T *
allocArray(size_t n)
{
   if (!n)
      return nullptr;
   T *p = static_cast<T *>(calloc(n, sizeof(T)));
   if (!p)
      throw ParseError{ "out of memory" };
   return p;
}

// A map being read; `where` names it in errors.
class Map {
 public:
   Map(llvm::msgpack::DocNode &node, std::string where) : where_(std::move(where))
   {
      if (!node.isMap())
         throw ParseError{ where_ + " is not a map" };
      map_ = &node.getMap();
   }

   llvm::msgpack::DocNode *find(llvm::StringRef key)
   {
      auto it = map_->find(key);
      return it == map_->end() ? nullptr : &it->second;
   }

   llvm::msgpack::DocNode &need(llvm::StringRef key)
   {
      llvm::msgpack::DocNode *n = find(key);
      if (!n)
         throw ParseError{ where_ + ": required key " + key.str() + " is missing" };
      return *n;
   }

   uint32_t u32(llvm::msgpack::DocNode &n, llvm::StringRef key)
   {
      uint64_t v;
      if (n.getKind() == llvm::msgpack::Type::UInt) {
         v = n.getUInt();
      } else if (n.getKind() == llvm::msgpack::Type::Int && n.getInt() >= 0) {
         v = n.getInt();
      } else {
         throw ParseError{ where_ + ": " + key.str() + " is not a non-negative integer" };
      }
      if (v > UINT32_MAX)
         throw ParseError{ where_ + ": " + key.str() + " is out of range" };
      return static_cast<uint32_t>(v);
   }

   uint32_t u32(llvm::StringRef key, uint32_t dflt)
   {
      llvm::msgpack::DocNode *n = find(key);
      return n ? u32(*n, key) : dflt;
   }

   uint32_t needU32(llvm::StringRef key) { return u32(need(key), key); }

   bool boolean(llvm::StringRef key)
   {
      llvm::msgpack::DocNode *n = find(key);
      if (!n)
         return false;
      if (n->getKind() == llvm::msgpack::Type::Boolean)
         return n->getBool();
      return u32(*n, key) != 0; // ".uniform_work_group_size" is an integer
   }

   llvm::StringRef string(llvm::msgpack::DocNode &n, llvm::StringRef key)
   {
      if (!n.isString())
         throw ParseError{ where_ + ": " + key.str() + " is not a string" };
      return n.getString();
   }

   char *optString(llvm::StringRef key)
   {
      llvm::msgpack::DocNode *n = find(key);
      return n ? dup(string(*n, key)) : nullptr;
   }

   // A sequence of `count` integers; absent leaves `out` alone.
   void u32Array(llvm::StringRef key, uint32_t *out, size_t count)
   {
      llvm::msgpack::DocNode *n = find(key);
      if (!n)
         return;
      if (!n->isArray() || n->getArray().size() != count)
         throw ParseError{ where_ + ": " + key.str() + " is not a sequence of " +
                           std::to_string(count) + " integers" };
      for (size_t i = 0; i < count; i++)
         out[i] = u32(n->getArray()[i], key);
   }

   const std::string &where() const { return where_; }

 private:
   std::string where_;
   llvm::msgpack::MapDocNode *map_;
};

template <typename E, size_t N>
E
enumValue(Map &m, llvm::StringRef key, const char *const (&names)[N], E none)
{
   llvm::msgpack::DocNode *n = m.find(key);
   if (!n)
      return none;
   llvm::StringRef s = m.string(*n, key);
   for (size_t i = 0; i < N; i++)
      if (s == names[i])
         return static_cast<E>(i + 1);
   throw ParseError{ m.where() + ": unknown " + key.str() + " \"" + s.str() + "\"" };
}

const char *const kAddrSpaces[] = { "private", "global", "constant", "local", "generic",
                                    "region" };
const char *const kAccesses[] = { "read_only", "write_only", "read_write" };

uint32_t
deriveAlign(uint32_t offset, uint32_t size)
{
   uint32_t a = 1;
   while (a < size && a < 16)
      a <<= 1;
   while (offset % a)
      a >>= 1;
   return a;
}

void
parseArg(llvm::msgpack::DocNode &node, const std::string &where, comp_kernel_arg &a)
{
   Map m(node, where);
   a.name = m.optString(".name");
   a.type_name = m.optString(".type_name");
   a.offset = m.needU32(".offset");
   a.size = m.needU32(".size");
   a.pointee_align = m.u32(".pointee_align", 0);
   llvm::StringRef kind = m.string(m.need(".value_kind"), ".value_kind");
   a.kind = COMP_ARG_KIND_COUNT;
   for (unsigned i = 0; i < COMP_ARG_KIND_COUNT; i++)
      if (kind == kArgKindNames[i])
         a.kind = static_cast<comp_arg_kind>(i);
   if (a.kind == COMP_ARG_KIND_COUNT)
      throw ParseError{ where + ": unknown .value_kind \"" + kind.str() + "\"" };
   a.address_space = enumValue(m, ".address_space", kAddrSpaces, COMP_ADDR_NONE);
   a.access = enumValue(m, ".access", kAccesses, COMP_ACCESS_NONE);
   a.actual_access = enumValue(m, ".actual_access", kAccesses, COMP_ACCESS_NONE);
   a.is_const = m.boolean(".is_const");
   a.is_restrict = m.boolean(".is_restrict");
   a.is_volatile = m.boolean(".is_volatile");
   a.is_pipe = m.boolean(".is_pipe");
   a.align = deriveAlign(a.offset, a.size);
}

void
parseKernel(llvm::msgpack::DocNode &node, const std::string &where, comp_kernel &k)
{
   Map m(node, where);
   k.name = dup(m.string(m.need(".name"), ".name"));
   Map named(node, where + " (" + k.name + ")");
   k.symbol = dup(named.string(named.need(".symbol"), ".symbol"));
   k.language = named.optString(".language");
   named.u32Array(".language_version", k.language_version, 2);
   k.kernarg_segment_size = named.needU32(".kernarg_segment_size");
   k.kernarg_segment_align = named.needU32(".kernarg_segment_align");
   k.group_segment_fixed_size = named.needU32(".group_segment_fixed_size");
   k.private_segment_fixed_size = named.needU32(".private_segment_fixed_size");
   k.wavefront_size = named.needU32(".wavefront_size");
   k.sgpr_count = named.needU32(".sgpr_count");
   k.vgpr_count = named.needU32(".vgpr_count");
   k.agpr_count = named.u32(".agpr_count", 0);
   k.sgpr_spill_count = named.u32(".sgpr_spill_count", 0);
   k.vgpr_spill_count = named.u32(".vgpr_spill_count", 0);
   k.max_flat_workgroup_size = named.needU32(".max_flat_workgroup_size");
   k.uses_dynamic_stack = named.boolean(".uses_dynamic_stack");
   k.workgroup_processor_mode = named.boolean(".workgroup_processor_mode");
   k.uniform_work_group_size = named.boolean(".uniform_work_group_size");
   named.u32Array(".reqd_workgroup_size", k.reqd_work_group_size, 3);
   named.u32Array(".workgroup_size_hint", k.work_group_size_hint, 3);
   k.vec_type_hint = named.optString(".vec_type_hint");
   k.device_enqueue_symbol = named.optString(".device_enqueue_symbol");
   static const char *const kinds[] = { "normal", "init", "fini" };
   comp_kernel_kind kk = enumValue(named, ".kind", kinds, COMP_KERNEL_NORMAL);
   k.kind = kk == COMP_KERNEL_NORMAL ? COMP_KERNEL_NORMAL : static_cast<comp_kernel_kind>(kk - 1);

   if (k.kernarg_segment_align == 0 || (k.kernarg_segment_align & (k.kernarg_segment_align - 1)))
      throw ParseError{ named.where() + ": .kernarg_segment_align is not a power of two" };

   llvm::msgpack::DocNode *args = named.find(".args");
   if (!args)
      return;
   if (!args->isArray())
      throw ParseError{ named.where() + ": .args is not a sequence" };
   auto &arr = args->getArray();
   k.args = allocArray<comp_kernel_arg>(arr.size());
   k.num_args = static_cast<uint32_t>(arr.size());
   k.num_explicit_args = k.num_args;
   for (uint32_t i = 0; i < k.num_args; i++) {
      comp_kernel_arg &a = k.args[i];
      parseArg(arr[i], named.where() + " argument " + std::to_string(i), a);
      if (uint64_t(a.offset) + a.size > k.kernarg_segment_size)
         throw ParseError{ named.where() + " argument " + std::to_string(i) +
                           " lies outside the kernarg segment" };
      if (comp_arg_kind_is_hidden(a.kind) && k.num_explicit_args == k.num_args)
         k.num_explicit_args = i;
      else if (!comp_arg_kind_is_hidden(a.kind) && k.num_explicit_args != k.num_args)
         throw ParseError{ named.where() + ": explicit argument after a hidden one" };
   }
}

// "ID:N:S[0]:...:S[N-1]:FormatString"; the format may contain ':'.
void
parsePrintf(llvm::StringRef s, comp_printf_info &p)
{
   auto field = [&](const char *what) {
      size_t colon = s.find(':');
      uint64_t v;
      if (colon == llvm::StringRef::npos || s.substr(0, colon).getAsInteger(10, v) ||
          v > UINT32_MAX)
         throw ParseError{ std::string("amdhsa.printf: malformed ") + what };
      s = s.substr(colon + 1);
      return static_cast<uint32_t>(v);
   };
   p.id = field("id");
   p.num_args = field("argument count");
   if (p.num_args > s.size())
      throw ParseError{ "amdhsa.printf: argument count larger than the entry" };
   p.arg_sizes = allocArray<uint32_t>(p.num_args);
   for (uint32_t i = 0; i < p.num_args; i++)
      p.arg_sizes[i] = field("argument size");
   // AMDGPUPrintfRuntimeBinding escapes control characters and ':' (as octal "\72").
   std::string fmt;
   for (size_t i = 0; i < s.size(); i++) {
      if (s[i] != '\\' || i + 1 == s.size()) {
         fmt += s[i];
         continue;
      }
      char c = s[++i];
      switch (c) {
      case 'a': fmt += '\a'; break;
      case 'b': fmt += '\b'; break;
      case 'f': fmt += '\f'; break;
      case 'n': fmt += '\n'; break;
      case 'r': fmt += '\r'; break;
      case 't': fmt += '\t'; break;
      case 'v': fmt += '\v'; break;
      case '\\': fmt += '\\'; break;
      default:
         if (c >= '0' && c <= '7') {
            unsigned v = 0, n = 0;
            for (; n < 3 && i < s.size() && s[i] >= '0' && s[i] <= '7'; n++, i++)
               v = v * 8 + (s[i] - '0');
            i--;
            fmt += char(v);
         } else {
            fmt += '\\';
            fmt += c;
         }
      }
   }
   p.format = dup(fmt);
}

void
parseDocument(llvm::msgpack::Document &doc, comp_program_info &info)
{
   Map root(doc.getRoot(), "metadata");
   root.u32Array("amdhsa.version", info.version, 2);
   info.target = root.optString("amdhsa.target");
   llvm::msgpack::DocNode &kernels = root.need("amdhsa.kernels");
   if (!kernels.isArray())
      throw ParseError{ "amdhsa.kernels is not a sequence" };
   auto &ka = kernels.getArray();
   info.kernels = allocArray<comp_kernel>(ka.size());
   info.num_kernels = static_cast<uint32_t>(ka.size());
   for (uint32_t i = 0; i < info.num_kernels; i++)
      parseKernel(ka[i], "kernel " + std::to_string(i), info.kernels[i]);

   llvm::msgpack::DocNode *pf = root.find("amdhsa.printf");
   if (pf) {
      if (!pf->isArray())
         throw ParseError{ "amdhsa.printf is not a sequence" };
      auto &pa = pf->getArray();
      info.printfs = allocArray<comp_printf_info>(pa.size());
      info.num_printfs = static_cast<uint32_t>(pa.size());
      for (uint32_t i = 0; i < info.num_printfs; i++) {
         if (!pa[i].isString())
            throw ParseError{ "amdhsa.printf entry is not a string" };
         parsePrintf(pa[i].getString(), info.printfs[i]);
      }
   }
}

// Checks the MessagePack grammar before msgpack::Document sees it: exactly one top-level
// object, containers complete, map keys strings (Document aborts on some malformed input,
// e.g. a container used as a map key), nesting bounded. Returns an empty string if valid.
std::string
validateMsgPack(llvm::StringRef blob)
{
   struct Level {
      uint64_t remaining; // objects still expected in this container
      bool isMap;
      uint64_t index;
   };
   std::vector<Level> stack;
   llvm::msgpack::Reader reader(blob);
   bool haveRoot = false;
   for (;;) {
      llvm::msgpack::Object obj;
      llvm::Expected<bool> more = reader.read(obj);
      if (!more)
         return llvm::toString(more.takeError());
      if (!*more)
         break;
      if (stack.empty()) {
         if (haveRoot)
            return "trailing data after the metadata map";
         haveRoot = true;
      } else {
         Level &top = stack.back();
         if (top.isMap && top.index % 2 == 0 && obj.Kind != llvm::msgpack::Type::String)
            return "map key is not a string";
         top.index++;
         top.remaining--;
      }
      if ((obj.Kind == llvm::msgpack::Type::Array || obj.Kind == llvm::msgpack::Type::Map) &&
          obj.Length) {
         bool isMap = obj.Kind == llvm::msgpack::Type::Map;
         uint64_t n = isMap ? 2 * uint64_t(obj.Length) : obj.Length;
         if (n > blob.size())
            return "container longer than the note";
         if (stack.size() >= 32)
            return "nesting too deep";
         stack.push_back({ n, isMap, 0 });
      }
      while (!stack.empty() && stack.back().remaining == 0)
         stack.pop_back();
   }
   if (!haveRoot)
      return "empty metadata";
   if (!stack.empty())
      return "truncated MessagePack container";
   return "";
}

bool
inFile(uint64_t offset, uint64_t size, uint64_t file)
{
   return size <= file && offset <= file - size;
}

} // namespace

// Every header, offset and size an ELF reader follows, checked against the buffer without
// wrapping: LLVM's ELFFile::notes() tests `offset + size > buffer size`, which a p_offset or
// sh_offset near 2^64 passes, and then reads outside the buffer.
extern "C" const char *
comp_elf_layout_check(const void *data, size_t size)
{
   using namespace llvm::ELF;
   const auto *b = static_cast<const unsigned char *>(data);
   Elf64_Ehdr eh;
   if (!data || size < sizeof(eh))
      return "shorter than an ELF64 header";
   memcpy(&eh, b, sizeof(eh));
   if (eh.e_phnum) {
      if (eh.e_phentsize != sizeof(Elf64_Phdr))
         return "e_phentsize is not the size of an ELF64 program header";
      if (eh.e_phnum == 0xffff /* PN_XNUM */ || eh.e_phoff > size ||
          (size - eh.e_phoff) / sizeof(Elf64_Phdr) < eh.e_phnum)
         return "the program header table lies outside the file";
      for (unsigned i = 0; i < eh.e_phnum; i++) {
         Elf64_Phdr ph;
         memcpy(&ph, b + eh.e_phoff + i * sizeof(ph), sizeof(ph));
         if (!inFile(ph.p_offset, ph.p_filesz, size))
            return "a segment lies outside the file";
         if (ph.p_type == PT_NOTE && ph.p_align > 1 && ph.p_offset % ph.p_align)
            return "a note segment is misaligned";
      }
   }
   if (eh.e_shoff) {
      if (eh.e_shentsize != sizeof(Elf64_Shdr))
         return "e_shentsize is not the size of an ELF64 section header";
      if (eh.e_shnum == 0)
         return "extended section numbering is not supported";
      if (eh.e_shoff > size || (size - eh.e_shoff) / sizeof(Elf64_Shdr) < eh.e_shnum)
         return "the section header table lies outside the file";
      if (eh.e_shstrndx != SHN_UNDEF && eh.e_shstrndx >= eh.e_shnum)
         return "e_shstrndx names no section";
      for (unsigned i = 1; i < eh.e_shnum; i++) {
         Elf64_Shdr sh;
         memcpy(&sh, b + eh.e_shoff + i * sizeof(sh), sizeof(sh));
         if (sh.sh_type != SHT_NOBITS && !inFile(sh.sh_offset, sh.sh_size, size))
            return "a section lies outside the file";
         if (sh.sh_type == SHT_NOTE && sh.sh_addralign > 1 && sh.sh_offset % sh.sh_addralign)
            return "a note section is misaligned";
      }
   }
   return nullptr;
}

namespace {

// Finds the NT_AMDGPU_METADATA descriptor in PT_NOTE segments, or SHT_NOTE sections for a
// relocatable object.
bool
findNote(const llvm::object::ELF64LEFile &elf, llvm::ArrayRef<uint8_t> &desc, std::string &why)
{
   auto match = [&](const auto &note) {
      if (note.getName() == "AMDGPU" && note.getType() == llvm::ELF::NT_AMDGPU_METADATA) {
         desc = note.getDesc(4);
         return true;
      }
      return false;
   };
   auto phdrs = elf.program_headers();
   if (!phdrs) {
      why = llvm::toString(phdrs.takeError());
      return false;
   }
   for (const auto &ph : *phdrs) {
      if (ph.p_type != llvm::ELF::PT_NOTE)
         continue;
      llvm::Error err = llvm::Error::success();
      for (const auto &note : elf.notes(ph, err))
         if (match(note)) {
            llvm::consumeError(std::move(err));
            return true;
         }
      if (err) {
         why = llvm::toString(std::move(err));
         return false;
      }
   }
   auto shdrs = elf.sections();
   if (!shdrs) {
      why = llvm::toString(shdrs.takeError());
      return false;
   }
   for (const auto &sh : *shdrs) {
      if (sh.sh_type != llvm::ELF::SHT_NOTE)
         continue;
      llvm::Error err = llvm::Error::success();
      for (const auto &note : elf.notes(sh, err))
         if (match(note)) {
            llvm::consumeError(std::move(err));
            return true;
         }
      if (err) {
         why = llvm::toString(std::move(err));
         return false;
      }
   }
   why = "no NT_AMDGPU_METADATA note";
   return false;
}

} // namespace

extern "C" enum comp_status
comp_parse_metadata(const void *data, size_t size, struct comp_program_info **out, char **error)
{
   *out = nullptr;
   if (error)
      *error = nullptr;
   std::string why;
   comp_program_info *info = nullptr;
   try {
      llvm::StringRef bytes(static_cast<const char *>(data), data ? size : 0);
      if (const char *bad = comp_elf_layout_check(data, size))
         throw ParseError{ std::string("malformed ELF: ") + bad };
      auto elf = llvm::object::ELF64LEFile::create(bytes);
      if (!elf)
         throw ParseError{ "not an ELF64 little-endian object: " +
                           llvm::toString(elf.takeError()) };
      if (elf->getHeader().e_machine != llvm::ELF::EM_AMDGPU)
         throw ParseError{ "not an AMDGPU object" };
      llvm::ArrayRef<uint8_t> desc;
      if (!findNote(*elf, desc, why))
         throw ParseError{ why };
      llvm::StringRef blob(reinterpret_cast<const char *>(desc.data()), desc.size());
      std::string bad = validateMsgPack(blob);
      if (!bad.empty())
         throw ParseError{ "NT_AMDGPU_METADATA: " + bad };
      llvm::msgpack::Document doc;
      if (!doc.readFromBlob(blob, /*Multi=*/false))
         throw ParseError{ "NT_AMDGPU_METADATA is not valid MessagePack" };
      info = static_cast<comp_program_info *>(calloc(1, sizeof(*info)));
      if (!info)
         throw ParseError{ "out of memory" };
      parseDocument(doc, *info);
   } catch (const ParseError &e) {
      comp_program_info_destroy(info);
      if (error)
         *error = strdup(e.what.c_str());
      return e.what == "out of memory" ? COMP_OUT_OF_MEMORY : COMP_INVALID_BINARY;
   }
   *out = info;
   return COMP_OK;
}

extern "C" void
comp_program_info_destroy(struct comp_program_info *info)
{
   if (!info)
      return;
   for (uint32_t i = 0; info->kernels && i < info->num_kernels; i++) {
      comp_kernel &k = info->kernels[i];
      for (uint32_t j = 0; k.args && j < k.num_args; j++) {
         free(k.args[j].name);
         free(k.args[j].type_name);
      }
      free(k.args);
      free(k.name);
      free(k.symbol);
      free(k.language);
      free(k.vec_type_hint);
      free(k.device_enqueue_symbol);
   }
   free(info->kernels);
   for (uint32_t i = 0; info->printfs && i < info->num_printfs; i++) {
      free(info->printfs[i].arg_sizes);
      free(info->printfs[i].format);
   }
   free(info->printfs);
   free(info->target);
   free(info);
}

extern "C" const char *
comp_arg_kind_name(enum comp_arg_kind kind)
{
   return unsigned(kind) < COMP_ARG_KIND_COUNT ? kArgKindNames[kind] : "unknown";
}
