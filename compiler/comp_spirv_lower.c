/*
 * comp_spirv_lower.c — the SPIR-V 1.4 instructions Khronos' translator for LLVM 15 cannot
 * read, rewritten before translation as the SPIR-V 1.0-1.3 instructions they equal.
 *
 * OpenCL 3.1 requires SPIR-V 1.0 to 1.4 (the OpenCL SPIR-V environment specification,
 * "Supported SPIR-V versions"). llvm-spirv-15 (15.0.0, the translator Debian 12 packages)
 * reads 1.4 headers and most of 1.4, but stops (an assertion or "unsupported" error) on:
 *
 *   OpPtrEqual, OpPtrNotEqual   -> OpConvertPtrToU of both operands and OpIEqual/OpINotEqual;
 *   OpPtrDiff                   -> (OpConvertPtrToU a - OpConvertPtrToU b) OpSDiv the size of
 *                                  the pointee, which is OpConvertPtrToU of OpPtrAccessChain
 *                                  (null, 1) on a CrossWorkgroup pointer to that pointee (the
 *                                  translator's own type layout, so the two sizes agree; a
 *                                  global null is address 0 on amdgcn, unlike local/private);
 *   OpCopyLogical               -> OpCompositeExtract of every member, recursively, then
 *                                  OpCompositeConstruct of the result type (the two types
 *                                  are logically equal: same shape, leaves the same type);
 *   OpDecorateString,           -> OpDecorate / OpMemberDecorate with the same operands (the
 *   OpMemberDecorateString         form SPIR-V 1.0-1.3 modules use for UserSemantic);
 *   OpCopyMemorySized with two memory-operand sets (target, then source)
 *                               -> one set that holds for both: Volatile if either is,
 *                                  Aligned only when both are (the smaller alignment),
 *                                  Nontemporal if either is;
 *   OpCopyMemory, every form    -> OpLoad of the source (with the source's memory operands)
 *                                  and OpStore to the target (the target's): the translator
 *                                  reads no OpCopyMemory at all (its validate() asks the
 *                                  type of the instruction's own id, which it has none of:
 *                                  "Invalid Id").
 *
 * And five things any SPIR-V version meets:
 *   OpCompositeConstruct whose constituents are not all module-level constants: the
 *   translator builds a ConstantVector/ConstantArray/ConstantStruct of them and crashes on
 *   the first instruction among them (it writes such values itself as insert chains): the
 *   value is built from OpUndef by OpCompositeInsert, component by component (vector
 *   constituents of a vector are taken apart by OpCompositeExtract);
 *   a UserSemantic decoration (an annotation string, no meaning to the implementation) on a
 *   BuiltIn variable makes the translator abort ("Unexpected pattern!": its built-in
 *   variables must have loads as their only users, and the annotation is another): such
 *   decorations are dropped;
 *   a Function-storage OpVariable with an initializer becomes, in the translator, one
 *   internal global shared by every work-item (and a private-address-space global amdgcn
 *   cannot select): the initializer is taken off and stored after the block's variables.
 *   OpConstantNull of a scalar type (integer, float, bool) fails an assertion of the
 *   translator's (it takes a null for a composite, pointer or opaque type only; LLVM's own
 *   SPIR-V back end writes scalar nulls, and so do the CTS's expect_assume modules): it
 *   becomes OpConstant 0 (+0.0 for floats: all bits zero) or OpConstantFalse.
 *   OpVectorShuffle of two vectors of different lengths (valid SPIR-V: only the component
 *   types must agree) fails the translator's assertion that both have one type: the result
 *   is built from OpCompositeExtract of each selected component and an insert chain.
 *
 * The module passed comp__spirv_check (SPIRV-Tools validated it as the SPIR-V version its
 * header says), so the rewriting trusts its structure. New ids are allocated past the
 * module's bound; new declarations (a 64-bit integer type, CrossWorkgroup pointer types,
 * null pointers, the constant 1) go just before the first OpFunction, and OpCapability
 * Int64 after the module's capabilities when the module lacks it. Other instructions are
 * copied word for word. A module without any of these instructions is returned unchanged.
 */
#define _GNU_SOURCE
#include "comp_priv.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv-tools/libspirv.h>
#include <spirv/unified1/spirv.h>

/* Array lengths OpCopyLogical takes apart member by member; a longer array is refused. */
#define MAX_LOGICAL_ELEMENTS 4096u

struct words {
   uint32_t *w;
   size_t n, cap;
};

/* A pointee type of an OpPtrDiff operand, with the declarations its element size needs. */
struct pointee {
   uint32_t type;     /* the pointee type id */
   uint32_t cw_ptr;   /* OpTypePointer CrossWorkgroup type: existing or new */
   bool cw_ptr_new;
   uint32_t null_id;  /* new OpConstantNull of cw_ptr */
};

struct lower {
   const uint32_t *w; /* host-order module */
   size_t n;
   uint32_t bound;    /* grows as ids are allocated */
   uint32_t ids;      /* the module's own bound: the size of type_of and def */
   uint32_t *type_of; /* result id -> its result type id */
   size_t *def;       /* id -> word index of its defining instruction, 0 for none */
   size_t cursor;     /* word index of the instruction being parsed */
   size_t first_function, end_capabilities;
   bool int64_capability;
   uint32_t *builtins;  /* ids decorated BuiltIn */
   size_t num_builtins, cap_builtins;
   uint32_t *inits;     /* pending (variable, initializer) pairs of the current block */
   size_t num_inits, cap_inits;
   uint32_t ulong_type; /* OpTypeInt 64 0, 0 when the module has none */
   size_t *sites;       /* word indices of instructions to rewrite */
   size_t num_sites, cap_sites;
   bool need_ulong;
   struct pointee *pointees;
   size_t num_pointees;
   uint32_t one_id; /* new OpConstant %ulong 1, 0 when no OpPtrDiff */
   bool ulong_new;
   struct words out;
   char *why;
};

static void fail(struct lower *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
fail(struct lower *l, const char *fmt, ...)
{
   if (l->why)
      return;
   va_list ap;
   va_start(ap, fmt);
   if (vasprintf(&l->why, fmt, ap) < 0)
      l->why = NULL;
   va_end(ap);
}

static bool
put(struct words *o, uint32_t v)
{
   if (o->n == o->cap) {
      size_t cap = o->cap ? o->cap * 2 : 1024;
      uint32_t *w = realloc(o->w, cap * sizeof(*w));
      if (!w)
         return false;
      o->w = w;
      o->cap = cap;
   }
   o->w[o->n++] = v;
   return true;
}

/* Emits one instruction: opcode and `count` operand words. */
static bool
emit(struct lower *l, uint32_t op, size_t count, const uint32_t *ops)
{
   if (!put(&l->out, (uint32_t)(count + 1) << 16 | op))
      return false;
   for (size_t i = 0; i < count; i++)
      if (!put(&l->out, ops[i]))
         return false;
   return true;
}

#define EMIT(l, op, ...)                                                                    \
   emit(l, op, sizeof((uint32_t[]){ __VA_ARGS__ }) / sizeof(uint32_t),                     \
        (uint32_t[]){ __VA_ARGS__ })

static uint32_t
new_id(struct lower *l)
{
   return l->bound++;
}

static uint32_t
op_at(const struct lower *l, size_t at)
{
   return l->w[at] & 0xffff;
}

static uint32_t
count_at(const struct lower *l, size_t at)
{
   return l->w[at] >> 16;
}

/* The defining instruction of type or constant `id` (word index), 0 when unknown. */
static size_t
def_of(const struct lower *l, uint32_t id)
{
   return id < l->ids ? l->def[id] : 0;
}

/* ---- pass 1: what the module has ------------------------------------------------------- */

static spv_result_t
on_header(void *user, spv_endianness_t endian, uint32_t magic, uint32_t version,
          uint32_t generator, uint32_t id_bound, uint32_t reserved)
{
   (void)endian, (void)magic, (void)version, (void)generator, (void)reserved;
   struct lower *l = user;
   l->bound = l->ids = id_bound;
   l->type_of = calloc(id_bound ? id_bound : 1, sizeof(*l->type_of));
   l->def = calloc(id_bound ? id_bound : 1, sizeof(*l->def));
   return l->type_of && l->def ? SPV_SUCCESS : SPV_ERROR_OUT_OF_MEMORY;
}

static bool
push_id(uint32_t **ids, size_t *num, size_t *cap, uint32_t id)
{
   if (*num == *cap) {
      size_t c = *cap ? *cap * 2 : 16;
      uint32_t *p = realloc(*ids, c * sizeof(*p));
      if (!p)
         return false;
      *ids = p;
      *cap = c;
   }
   (*ids)[(*num)++] = id;
   return true;
}

static spv_result_t
on_instruction(void *user, const spv_parsed_instruction_t *in)
{
   struct lower *l = user;
   size_t at = l->cursor;
   l->cursor += in->num_words;
   if (in->result_id && in->result_id < l->ids) {
      l->type_of[in->result_id] = in->type_id;
      l->def[in->result_id] = at;
   }
   bool site = false;
   switch (in->opcode) {
   case SpvOpCapability:
      if (in->words[1] == SpvCapabilityInt64)
         l->int64_capability = true;
      l->end_capabilities = at + in->num_words;
      break;
   case SpvOpTypeInt:
      if (in->words[2] == 64 && in->words[3] == 0)
         l->ulong_type = in->result_id;
      break;
   case SpvOpFunction:
      if (!l->first_function)
         l->first_function = at;
      break;
   case SpvOpPtrEqual:
   case SpvOpPtrNotEqual:
   case SpvOpPtrDiff:
      l->need_ulong = true;
      site = true;
      break;
   case SpvOpDecorate:
      if (in->num_words >= 3 && in->words[2] == SpvDecorationBuiltIn) {
         if (!push_id(&l->builtins, &l->num_builtins, &l->cap_builtins, in->words[1]))
            return SPV_ERROR_OUT_OF_MEMORY;
      } else if (in->num_words >= 3 && in->words[2] == SpvDecorationUserSemantic) {
         site = true;
      }
      break;
   case SpvOpVariable:
      if (in->num_words == 5 && in->words[3] == SpvStorageClassFunction)
         site = true;
      break;
   case SpvOpCompositeConstruct: /* in functions; pass 2 decides (is_constant) */
      site = l->first_function != 0;
      break;
   case SpvOpCopyLogical:
   case SpvOpDecorateString:
   case SpvOpMemberDecorateString:
      site = true;
      break;
   case SpvOpCopyMemory:
   case SpvOpCopyMemorySized:
      /* Only the two-set form needs rewriting; the count decides in pass 2. */
      site = true;
      break;
   case SpvOpConstantNull: /* of a scalar type: pass 2 decides (lower_null) */
      site = true;
      break;
   case SpvOpVectorShuffle: /* of two vector types: pass 2 decides (lower_shuffle) */
      site = true;
      break;
   default:
      break;
   }
   if (site) {
      if (l->num_sites == l->cap_sites) {
         size_t cap = l->cap_sites ? l->cap_sites * 2 : 16;
         size_t *s = realloc(l->sites, cap * sizeof(*s));
         if (!s)
            return SPV_ERROR_OUT_OF_MEMORY;
         l->sites = s;
         l->cap_sites = cap;
      }
      l->sites[l->num_sites++] = at;
   }
   return SPV_SUCCESS;
}

/* The pointee type of pointer type `ptr_type`, 0 if it is not a pointer type. */
static uint32_t
pointee_of(const struct lower *l, uint32_t ptr_type)
{
   size_t at = def_of(l, ptr_type);
   if (!at || op_at(l, at) != SpvOpTypePointer || count_at(l, at) < 4)
      return 0;
   return l->w[at + 3];
}

/* Plans the declarations the OpPtrDiff sites need: one entry per pointee type. */
static bool
plan_pointees(struct lower *l)
{
   for (size_t s = 0; s < l->num_sites; s++) {
      size_t at = l->sites[s];
      if (op_at(l, at) != SpvOpPtrDiff)
         continue;
      uint32_t a = l->w[at + 3];
      uint32_t pointee = a < l->ids ? pointee_of(l, l->type_of[a]) : 0;
      if (!pointee) {
         fail(l, "OpPtrDiff %%%u: operand %%%u is not of a pointer type", l->w[at + 2], a);
         return false;
      }
      bool known = false;
      for (size_t i = 0; i < l->num_pointees && !known; i++)
         known = l->pointees[i].type == pointee;
      if (known)
         continue;
      struct pointee *p = realloc(l->pointees, (l->num_pointees + 1) * sizeof(*p));
      if (!p)
         return false;
      l->pointees = p;
      p = &p[l->num_pointees++];
      *p = (struct pointee){ .type = pointee };
      /* An existing CrossWorkgroup pointer to the pointee, else a new one. */
      for (size_t i = 5; i < l->first_function; i += count_at(l, i))
         if (op_at(l, i) == SpvOpTypePointer && count_at(l, i) == 4 &&
             l->w[i + 2] == SpvStorageClassCrossWorkgroup && l->w[i + 3] == pointee) {
            p->cw_ptr = l->w[i + 1];
            break;
         }
      if (!p->cw_ptr) {
         p->cw_ptr = new_id(l);
         p->cw_ptr_new = true;
      }
      p->null_id = new_id(l);
      if (!l->one_id)
         l->one_id = new_id(l);
   }
   return true;
}

/* The declarations planned, emitted before the first OpFunction. */
static bool
emit_declarations(struct lower *l)
{
   if (l->ulong_new && !EMIT(l, SpvOpTypeInt, l->ulong_type, 64, 0))
      return false;
   if (l->one_id && !EMIT(l, SpvOpConstant, l->ulong_type, l->one_id, 1, 0))
      return false;
   for (size_t i = 0; i < l->num_pointees; i++) {
      const struct pointee *p = &l->pointees[i];
      if (p->cw_ptr_new &&
          !EMIT(l, SpvOpTypePointer, p->cw_ptr, SpvStorageClassCrossWorkgroup, p->type))
         return false;
      if (!EMIT(l, SpvOpConstantNull, p->cw_ptr, p->null_id))
         return false;
   }
   return true;
}

/* ---- pass 2: the rewrites -------------------------------------------------------------- */

static bool
lower_ptr_compare(struct lower *l, size_t at)
{
   uint32_t op = op_at(l, at), rt = l->w[at + 1], res = l->w[at + 2];
   uint32_t a = new_id(l), b = new_id(l);
   if (op == SpvOpPtrDiff) {
      uint32_t pa = l->w[at + 3];
      uint32_t pointee = pa < l->ids ? pointee_of(l, l->type_of[pa]) : 0;
      const struct pointee *p = NULL;
      for (size_t i = 0; i < l->num_pointees && !p; i++)
         if (l->pointees[i].type == pointee)
            p = &l->pointees[i];
      uint32_t diff = new_id(l), elem = new_id(l), size = new_id(l);
      uint32_t quot = rt == l->ulong_type ? res : new_id(l);
      if (!p || !EMIT(l, SpvOpConvertPtrToU, l->ulong_type, a, l->w[at + 3]) ||
          !EMIT(l, SpvOpConvertPtrToU, l->ulong_type, b, l->w[at + 4]) ||
          !EMIT(l, SpvOpISub, l->ulong_type, diff, a, b) ||
          !EMIT(l, SpvOpPtrAccessChain, p->cw_ptr, elem, p->null_id, l->one_id) ||
          !EMIT(l, SpvOpConvertPtrToU, l->ulong_type, size, elem) ||
          !EMIT(l, SpvOpSDiv, l->ulong_type, quot, diff, size))
         return false;
      if (quot == res)
         return true;
      /* A result narrower than the pointers (or of another 64-bit integer type). */
      size_t t = def_of(l, rt);
      bool same_width = t && op_at(l, t) == SpvOpTypeInt && l->w[t + 2] == 64;
      return EMIT(l, same_width ? SpvOpBitcast : SpvOpUConvert, rt, res, quot);
   }
   return EMIT(l, SpvOpConvertPtrToU, l->ulong_type, a, l->w[at + 3]) &&
          EMIT(l, SpvOpConvertPtrToU, l->ulong_type, b, l->w[at + 4]) &&
          EMIT(l, op == SpvOpPtrEqual ? SpvOpIEqual : SpvOpINotEqual, rt, res, a, b);
}

/* A module-level value (a constant, spec constant, undef or global variable): a Constant
 * in the translator's LLVM. Ids defined in functions are not. */
static bool
is_constant(const struct lower *l, uint32_t id)
{
   size_t at = def_of(l, id);
   return at && at < l->first_function;
}

/* `type` built from `parts` (one per member, in order) into `res`: OpUndef, then one
 * OpCompositeInsert per part. */
static bool
construct(struct lower *l, uint32_t type, uint32_t res, const uint32_t *parts, size_t num)
{
   uint32_t cur = num ? new_id(l) : res;
   if (!EMIT(l, SpvOpUndef, type, cur))
      return false;
   for (size_t i = 0; i < num; i++) {
      uint32_t next = i + 1 == num ? res : new_id(l);
      if (!EMIT(l, SpvOpCompositeInsert, type, next, parts[i], cur, (uint32_t)i))
         return false;
      cur = next;
   }
   return true;
}

/* OpCompositeConstruct with instruction constituents, as inserts (top of the file). */
static bool
lower_construct(struct lower *l, size_t at)
{
   uint32_t type = l->w[at + 1], res = l->w[at + 2];
   size_t num = count_at(l, at) - 3;
   bool constant = true;
   for (size_t i = 0; i < num; i++)
      constant = constant && is_constant(l, l->w[at + 3 + i]);
   if (constant)
      return emit(l, SpvOpCompositeConstruct, count_at(l, at) - 1, &l->w[at + 1]);
   size_t t = def_of(l, type);
   bool vector = t && op_at(l, t) == SpvOpTypeVector;
   /* A vector's components: scalars as they are, vectors taken apart (at most 16). */
   uint32_t parts[16];
   size_t n = 0;
   const uint32_t *ops = &l->w[at + 3];
   if (!vector)
      return construct(l, type, res, ops, num);
   for (size_t i = 0; i < num; i++) {
      uint32_t c = ops[i];
      size_t ct = c < l->ids ? def_of(l, l->type_of[c]) : 0;
      size_t k = ct && op_at(l, ct) == SpvOpTypeVector ? l->w[ct + 3] : 0;
      if (!k) {
         if (n == 16)
            break;
         parts[n++] = c;
         continue;
      }
      for (size_t j = 0; j < k && n < 16; j++) {
         parts[n] = new_id(l);
         if (!EMIT(l, SpvOpCompositeExtract, l->w[ct + 2], parts[n], c, (uint32_t)j))
            return false;
         n++;
      }
   }
   return construct(l, type, res, parts, n);
}

/* Value `v` of type `from` as the logically equal type `to`, into id `res` (a new id when
 * 0); returns the id holding it, 0 on failure. */
static uint32_t
copy_logical(struct lower *l, uint32_t v, uint32_t from, uint32_t to, uint32_t res, int depth)
{
   if (from == to) {
      if (!res)
         return v;
      /* The result id must be defined: an OpCopyObject names the value. */
      return EMIT(l, SpvOpCopyObject, to, res, v) ? res : 0;
   }
   size_t f = def_of(l, from), t = def_of(l, to);
   if (!f || !t || op_at(l, f) != op_at(l, t) || depth > 64) {
      fail(l, "OpCopyLogical: types %%%u and %%%u are not logically equal", from, to);
      return 0;
   }
   size_t num = 0;
   if (op_at(l, f) == SpvOpTypeStruct) {
      num = count_at(l, f) - 2;
      if (num != count_at(l, t) - 2 || num > MAX_LOGICAL_ELEMENTS) {
         fail(l, "OpCopyLogical: structures %%%u and %%%u differ in members", from, to);
         return 0;
      }
   } else if (op_at(l, f) == SpvOpTypeArray) {
      size_t c = def_of(l, l->w[f + 3]), d = def_of(l, l->w[t + 3]);
      if (!c || !d || op_at(l, c) != SpvOpConstant || op_at(l, d) != SpvOpConstant ||
          l->w[c + 3] != l->w[d + 3] || (count_at(l, c) > 4 && l->w[c + 4]) ||
          (count_at(l, d) > 4 && l->w[d + 4])) {
         fail(l, "OpCopyLogical: arrays %%%u and %%%u differ in length or it is not a "
                 "constant", from, to);
         return 0;
      }
      num = l->w[c + 3];
      if (num > MAX_LOGICAL_ELEMENTS) {
         fail(l, "OpCopyLogical: an array of %zu elements (hsacl takes %u at most)", num,
              MAX_LOGICAL_ELEMENTS);
         return 0;
      }
   } else {
      fail(l, "OpCopyLogical: types %%%u and %%%u are not logically equal", from, to);
      return 0;
   }
   uint32_t *parts = malloc((num ? num : 1) * sizeof(*parts));
   if (!parts)
      return 0;
   bool ok = true;
   for (size_t i = 0; i < num && ok; i++) {
      bool is_struct = op_at(l, f) == SpvOpTypeStruct;
      uint32_t mf = is_struct ? l->w[f + 2 + i] : l->w[f + 2];
      uint32_t mt = is_struct ? l->w[t + 2 + i] : l->w[t + 2];
      uint32_t e = new_id(l);
      ok = EMIT(l, SpvOpCompositeExtract, mf, e, v, (uint32_t)i) &&
           (parts[i] = copy_logical(l, e, mf, mt, 0, depth + 1)) != 0;
   }
   if (!res)
      res = new_id(l);
   ok = ok && construct(l, to, res, parts, num);
   free(parts);
   return ok ? res : 0;
}

/* Words a memory-operand set starting with `mask` takes, 0 for a bit hsacl does not know. */
static size_t
memory_operand_words(uint32_t mask)
{
   const uint32_t known = SpvMemoryAccessVolatileMask | SpvMemoryAccessAlignedMask |
                          SpvMemoryAccessNontemporalMask;
   if (mask & ~known)
      return 0;
   return 1 + ((mask & SpvMemoryAccessAlignedMask) ? 1 : 0);
}

static bool
lower_copy_memory(struct lower *l, size_t at)
{
   bool sized = op_at(l, at) == SpvOpCopyMemorySized;
   size_t fixed = sized ? 4 : 3, count = count_at(l, at);
   size_t first = 0, second = 0;
   if (count > fixed) {
      first = memory_operand_words(l->w[at + fixed]);
      if (first && fixed + first < count)
         second = memory_operand_words(l->w[at + fixed + first]);
      if (!first || (fixed + first < count && !second)) {
         fail(l, "OpCopyMemory: memory operands 0x%x other than Volatile, Aligned and "
                 "Nontemporal",
              l->w[at + fixed + first]);
         return false;
      }
   }
   const uint32_t *target_set = first ? &l->w[at + fixed] : NULL;
   const uint32_t *source_set = second ? &l->w[at + fixed + first] : target_set;
   size_t target_words = first, source_words = second ? second : first;
   if (!sized) {
      /* OpLoad of the source, OpStore to the target, each with its own set. */
      uint32_t source = l->w[at + 2];
      uint32_t pointee = source < l->ids ? pointee_of(l, l->type_of[source]) : 0;
      if (!pointee) {
         fail(l, "OpCopyMemory: source %%%u is not of a pointer type", source);
         return false;
      }
      uint32_t value = new_id(l), ops[8];
      size_t k = 0;
      ops[k++] = pointee;
      ops[k++] = value;
      ops[k++] = source;
      for (size_t i = 0; i < source_words; i++)
         ops[k++] = source_set[i];
      if (!emit(l, SpvOpLoad, k, ops))
         return false;
      k = 0;
      ops[k++] = l->w[at + 1];
      ops[k++] = value;
      for (size_t i = 0; i < target_words; i++)
         ops[k++] = target_set[i];
      return emit(l, SpvOpStore, k, ops);
   }
   if (!second) /* one set or none: SPIR-V 1.0 form, copied */
      return emit(l, op_at(l, at), count - 1, &l->w[at + 1]);
   uint32_t m1 = target_set[0], m2 = source_set[0];
   uint32_t a1 = (m1 & SpvMemoryAccessAlignedMask) ? target_set[1] : 0;
   uint32_t a2 = (m2 & SpvMemoryAccessAlignedMask) ? source_set[1] : 0;
   uint32_t mask = (m1 | m2) & (SpvMemoryAccessVolatileMask | SpvMemoryAccessNontemporalMask);
   uint32_t align = a1 && a2 ? (a1 < a2 ? a1 : a2) : 0;
   if (align)
      mask |= SpvMemoryAccessAlignedMask;
   uint32_t ops[6] = { l->w[at + 1], l->w[at + 2], l->w[at + 3], mask, align };
   return emit(l, SpvOpCopyMemorySized, align ? 5 : 4, ops);
}

/* OpConstantNull of a scalar: the zero of an integer or float type (as many literal words as
 * the width needs) or false; any other type's null is kept. */
static bool
lower_null(struct lower *l, size_t at)
{
   uint32_t type = l->w[at + 1], id = l->w[at + 2];
   size_t tdef = def_of(l, type);
   uint32_t top = tdef ? op_at(l, tdef) : 0;
   if (top == SpvOpTypeBool)
      return EMIT(l, SpvOpConstantFalse, type, id);
   if ((top == SpvOpTypeInt || top == SpvOpTypeFloat) && count_at(l, tdef) >= 3)
      return l->w[tdef + 2] > 32 ? EMIT(l, SpvOpConstant, type, id, 0, 0)
                                 : EMIT(l, SpvOpConstant, type, id, 0);
   return emit(l, SpvOpConstantNull, count_at(l, at) - 1, &l->w[at + 1]);
}

/* OpVectorShuffle whose two vectors have different types (valid: only their component
 * types must agree) as extracts and an insert chain; other shuffles are kept. An undefined
 * component (0xFFFFFFFF) takes the first vector's component 0: any value is right. */
static bool
lower_shuffle(struct lower *l, size_t at)
{
   uint32_t type = l->w[at + 1], res = l->w[at + 2], v1 = l->w[at + 3], v2 = l->w[at + 4];
   uint32_t t1 = v1 < l->ids ? l->type_of[v1] : 0, t2 = v2 < l->ids ? l->type_of[v2] : 0;
   size_t d1 = def_of(l, t1), dr = def_of(l, type);
   size_t num = count_at(l, at) - 5;
   if (t1 == t2 || !d1 || op_at(l, d1) != SpvOpTypeVector || !dr || num > 16)
      return emit(l, SpvOpVectorShuffle, count_at(l, at) - 1, &l->w[at + 1]);
   uint32_t n1 = l->w[d1 + 3], scalar = l->w[dr + 2], parts[16];
   for (size_t i = 0; i < num; i++) {
      uint32_t c = l->w[at + 5 + i];
      if (c == 0xffffffffu)
         c = 0;
      parts[i] = new_id(l);
      if (!EMIT(l, SpvOpCompositeExtract, scalar, parts[i], c < n1 ? v1 : v2,
                c < n1 ? c : c - n1))
         return false;
   }
   return construct(l, type, res, parts, num);
}

static bool
lower_site(struct lower *l, size_t at)
{
   uint32_t op = op_at(l, at), count = count_at(l, at);
   switch (op) {
   case SpvOpPtrEqual:
   case SpvOpPtrNotEqual:
   case SpvOpPtrDiff:
      return lower_ptr_compare(l, at);
   case SpvOpCompositeConstruct:
      return lower_construct(l, at);
   case SpvOpCopyLogical: {
      uint32_t v = l->w[at + 3];
      return copy_logical(l, v, v < l->ids ? l->type_of[v] : 0, l->w[at + 1], l->w[at + 2],
                          0) != 0;
   }
   case SpvOpDecorate:
   case SpvOpDecorateString:
      for (size_t i = 0; i < l->num_builtins; i++)
         if (l->builtins[i] == l->w[at + 1] && l->w[at + 2] == SpvDecorationUserSemantic)
            return true; /* dropped: see the top of the file */
      return emit(l, SpvOpDecorate, count - 1, &l->w[at + 1]);
   case SpvOpMemberDecorateString:
      return emit(l, SpvOpMemberDecorate, count - 1, &l->w[at + 1]);
   case SpvOpConstantNull:
      return lower_null(l, at);
   case SpvOpVectorShuffle:
      return lower_shuffle(l, at);
   case SpvOpVariable: /* Function storage with an initializer: stored by flush_inits */
      return push_id(&l->inits, &l->num_inits, &l->cap_inits, l->w[at + 2]) &&
             push_id(&l->inits, &l->num_inits, &l->cap_inits, l->w[at + 4]) &&
             emit(l, SpvOpVariable, 3, &l->w[at + 1]);
   default:
      return lower_copy_memory(l, at);
   }
}

/* The initializers of the block's Function variables, once its variables are declared. */
static bool
flush_inits(struct lower *l)
{
   for (size_t i = 0; i < l->num_inits; i += 2)
      if (!EMIT(l, SpvOpStore, l->inits[i], l->inits[i + 1]))
         return false;
   l->num_inits = 0;
   return true;
}

static bool
rewrite(struct lower *l)
{
   for (size_t i = 0; i < 5; i++)
      if (!put(&l->out, l->w[i]))
         return false;
   size_t site = 0;
   for (size_t i = 5; i < l->n; i += count_at(l, i)) {
      if (l->need_ulong && !l->int64_capability && i == l->end_capabilities &&
          !EMIT(l, SpvOpCapability, SpvCapabilityInt64))
         return false;
      if (i == l->first_function && !emit_declarations(l))
         return false;
      uint32_t op = op_at(l, i);
      if (l->num_inits && op != SpvOpVariable && op != SpvOpLine && op != SpvOpNoLine &&
          !flush_inits(l))
         return false;
      if (site < l->num_sites && l->sites[site] == i) {
         site++;
         if (!lower_site(l, i))
            return false;
         continue;
      }
      if (!emit(l, op_at(l, i), count_at(l, i) - 1, &l->w[i + 1]))
         return false;
   }
   l->out.w[3] = l->bound;
   return true;
}

enum comp_status
comp__spirv_lower(const uint32_t *words, size_t num_words, bool swapped, uint32_t **out,
                  size_t *out_words, char **why)
{
   *out = NULL;
   *out_words = 0;
   *why = NULL;
   enum comp_status st = COMP_OUT_OF_MEMORY;
   struct lower l = { .n = num_words, .cursor = 5 };
   uint32_t *host = malloc(num_words * sizeof(*host));
   if (!host)
      return COMP_OUT_OF_MEMORY;
   for (size_t i = 0; i < num_words; i++)
      host[i] = swapped ? __builtin_bswap32(words[i]) : words[i];
   l.w = host;

   spv_context ctx = spvContextCreate(SPV_ENV_UNIVERSAL_1_4);
   if (!ctx)
      goto out;
   spv_diagnostic diag = NULL;
   spv_result_t r = spvBinaryParse(ctx, &l, host, num_words, on_header, on_instruction, &diag);
   if (r != SPV_SUCCESS) {
      if (r != SPV_ERROR_OUT_OF_MEMORY) {
         fail(&l, "cannot parse the SPIR-V module: %s",
              diag && diag->error ? diag->error : "no reason given");
         st = COMP_INVALID_BINARY;
      }
      spvDiagnosticDestroy(diag);
      goto out;
   }
   spvDiagnosticDestroy(diag);
   if (!l.num_sites) { /* nothing to rewrite: the module as it is, host order */
      *out = host;
      *out_words = num_words;
      host = NULL;
      st = COMP_OK;
      goto out;
   }
   if (!l.first_function)
      l.first_function = num_words;
   if (l.need_ulong && !l.ulong_type) {
      l.ulong_type = new_id(&l);
      l.ulong_new = true;
   }
   if (!plan_pointees(&l) || !rewrite(&l)) {
      if (l.why)
         st = COMP_INVALID_BINARY;
      goto out;
   }
   *out = l.out.w;
   *out_words = l.out.n;
   l.out.w = NULL;
   st = COMP_OK;
out:
   *why = l.why;
   if (st == COMP_OK) {
      free(*why);
      *why = NULL;
   }
   spvContextDestroy(ctx);
   free(l.out.w);
   free(l.sites);
   free(l.pointees);
   free(l.builtins);
   free(l.inits);
   free(l.type_of);
   free(l.def);
   free(host);
   return st;
}
