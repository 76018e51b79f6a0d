/*
 * compiler/comp_meta.c — the NT_AMDGPU_METADATA note of a code object (AMDGPUUsage "Code
 * Object V5 Metadata") into struct comp_program_info: the ELF side with the structures of
 * <elf.h>, the MessagePack document with msgpack-c. No LLVM here: a program whose binary
 * comes from the kernel cache or the application reads its metadata without loading the
 * compiler engine.
 *
 * Every offset, size and type is checked before it is read: a malformed object or note is
 * an error, never a crash. The checks and reasons are those of LLVM's readers, which hsacl
 * used here before (object::ELFFile's note iteration, msgpack::Reader, msgpack::Document),
 * so logs and tests that name a reason keep it; where this file differs, it says so
 * (mp_validate's depth, find_in_notes' section 0).
 */
#define _GNU_SOURCE
#include "comp_priv.h"

#include <elf.h>
#include <inttypes.h>
#include <msgpack.h>
#include <msgpack/unpack_define.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NT_AMDGPU_METADATA_ 32 /* AMDGPUUsage "Note Records" */
#define MAX_DEPTH 32           /* nested containers */

/* Deeper than msgpack-c's stack would be refused by msgpack_unpack_next, as out of memory. */
_Static_assert(MAX_DEPTH <= MSGPACK_EMBED_STACK_SIZE, "msgpack-c nests less deep");

static const char *const arg_kind_names[] = {
#define X(e, s) s,
#include "comp_arg_kinds.def"
#undef X
};

static const char *const addr_space_names[] = { "private", "global",  "constant",
                                                "local",   "generic", "region" };
static const char *const access_names[] = { "read_only", "write_only", "read_write" };
static const char *const kernel_kind_names[] = { "normal", "init", "fini" };

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* ---- errors ------------------------------------------------------------------------------- */

/* The outcome of one parse: the first failure's status and malloc'd reason. */
struct parse {
   enum comp_status status;
   char *error;
};

/* Where in the document a failure is: "metadata", "kernel K", "kernel K (NAME)" once the
 * kernel's .name is read, "kernel K (NAME) argument A". */
struct where {
   bool root;
   uint32_t kernel;
   const char *name;
   bool is_arg;
   uint32_t arg;
};

static bool fail(struct parse *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail_at(struct parse *p, const struct where *w, const char *fmt, ...)
   __attribute__((format(printf, 3, 4)));

/* Records an invalid binary; returns false for `return fail(...)`. */
static bool
fail(struct parse *p, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   p->status = COMP_INVALID_BINARY;
   free(p->error);
   if (vasprintf(&p->error, fmt, ap) < 0)
      p->error = NULL;
   va_end(ap);
   return false;
}

static bool
fail_oom(struct parse *p)
{
   p->status = COMP_OUT_OF_MEMORY;
   free(p->error);
   p->error = strdup("out of memory");
   return false;
}

/* As fail, the message prefixed with the place `w`. */
static bool
fail_at(struct parse *p, const struct where *w, const char *fmt, ...)
{
   char place[64], *msg = NULL;
   va_list ap;
   if (w->root)
      snprintf(place, sizeof(place), "metadata");
   else
      snprintf(place, sizeof(place), "kernel %" PRIu32, w->kernel);
   va_start(ap, fmt);
   if (vasprintf(&msg, fmt, ap) < 0)
      msg = NULL;
   va_end(ap);
   if (!msg)
      return fail_oom(p);
   char arg[32] = "";
   if (w->is_arg)
      snprintf(arg, sizeof(arg), " argument %" PRIu32, w->arg);
   /* The name is the kernel's own (it may be long): not put through a fixed buffer. */
   if (w->name)
      fail(p, "%s (%s)%s%s", place, w->name, arg, msg);
   else
      fail(p, "%s%s%s", place, arg, msg);
   free(msg);
   return false;
}

/* ---- allocation --------------------------------------------------------------------------- */

/* A zeroed array of n elements; NULL for none (ok stays true) or on failure (ok false). */
static void *
alloc_array(size_t n, size_t size, bool *ok)
{
   *ok = true;
   if (!n)
      return NULL;
   void *a = calloc(n, size);
   *ok = a != NULL;
   return a;
}

/* A NUL-terminated copy of n bytes (which may hold a NUL themselves). */
static char *
dup_bytes(const char *s, size_t n)
{
   char *d = malloc(n + 1);
   if (!d)
      return NULL;
   memcpy(d, s, n);
   d[n] = '\0';
   return d;
}

/* ---- MessagePack grammar ------------------------------------------------------------------ */

enum mp_kind { MP_SCALAR, MP_STRING, MP_BINARY, MP_ARRAY, MP_MAP, MP_EXT };

static uint64_t
be(const uint8_t *p, unsigned n)
{
   uint64_t v = 0;
   for (unsigned i = 0; i < n; i++)
      v = (v << 8) | p[i];
   return v;
}

/*
 * Reads the header of the object at blob[*pos] and skips its payload (not a container's
 * elements, which follow as objects of their own); *length is a container's element count.
 * NULL or the reason the bytes are not MessagePack (the strings of LLVM's msgpack::Reader).
 */
static const char *
mp_read(const uint8_t *blob, size_t size, size_t *pos, enum mp_kind *kind, uint64_t *length)
{
   size_t i = *pos;
   uint8_t t = blob[i++];
   unsigned hdr = 0; /* bytes of a length field */
   uint64_t skip = 0;
   const char *short_hdr = NULL, *short_payload = NULL;

   *kind = MP_SCALAR;
   *length = 0;
   if (t <= 0x7f || t >= 0xe0 || t == 0xc0 || t == 0xc2 || t == 0xc3) {
      /* fixint, nil, bool */
   } else if (t <= 0x8f) {
      *kind = MP_MAP;
      *length = t & 0x0f;
   } else if (t <= 0x9f) {
      *kind = MP_ARRAY;
      *length = t & 0x0f;
   } else if (t <= 0xbf) {
      *kind = MP_STRING;
      skip = t & 0x1f;
      short_payload = "Invalid Raw with insufficient payload";
   } else {
      switch (t) {
      case 0xc4: case 0xc5: case 0xc6: /* bin8/16/32 */
      case 0xd9: case 0xda: case 0xdb: /* str8/16/32 */
         *kind = t >= 0xd9 ? MP_STRING : MP_BINARY;
         hdr = t >= 0xd9 ? 1u << (t - 0xd9) : 1u << (t - 0xc4);
         short_hdr = short_payload = "Invalid Raw with insufficient payload";
         break;
      case 0xc7: case 0xc8: case 0xc9: /* ext8/16/32 */
         *kind = MP_EXT;
         hdr = 1u << (t - 0xc7);
         short_hdr = "Invalid Ext with invalid length";
         break;
      case 0xd4: case 0xd5: case 0xd6: case 0xd7: case 0xd8: /* fixext 1..16 */
         *kind = MP_EXT;
         skip = 1u << (t - 0xd4);
         break;
      case 0xca:
         skip = 4;
         short_payload = "Invalid Float32 with insufficient payload";
         break;
      case 0xcb:
         skip = 8;
         short_payload = "Invalid Float64 with insufficient payload";
         break;
      case 0xcc: case 0xcd: case 0xce: case 0xcf: /* uint8..64 */
      case 0xd0: case 0xd1: case 0xd2: case 0xd3: /* int8..64 */
         skip = 1u << (t & 3);
         short_payload = "Invalid Int with insufficient payload";
         break;
      case 0xdc: case 0xdd: /* array16/32 */
      case 0xde: case 0xdf: /* map16/32 */
         *kind = t <= 0xdd ? MP_ARRAY : MP_MAP;
         hdr = t & 1 ? 4 : 2;
         short_hdr = "Invalid Map/Array with invalid length";
         break;
      default: /* 0xc1, never used */
         return "Invalid first byte";
      }
   }
   if (hdr) {
      if (size - i < hdr)
         return short_hdr;
      uint64_t n = be(blob + i, hdr);
      i += hdr;
      if (*kind == MP_ARRAY || *kind == MP_MAP)
         *length = n;
      else
         skip += n;
   }
   if (*kind == MP_EXT) {
      /* The type byte, then the payload. */
      if (i == size)
         return "Invalid Ext with no type";
      i++;
      short_payload = "Invalid Ext with insufficient payload";
   }
   if (skip > size - i)
      return short_payload;
   *pos = i + skip;
   return NULL;
}

/*
 * Checks the MessagePack grammar before msgpack-c sees the bytes: exactly one top-level
 * object, every container complete, map keys strings, containers nested at most MAX_DEPTH
 * deep (msgpack-c's limit). msgpack-c sizes each container's allocation from the count in
 * its header before it reads the elements: a container claiming more elements than the
 * note has bytes is refused here, and every count is checked against the elements actually
 * present (the walk reaches the end of the note with no container open), so what msgpack-c
 * allocates is bounded by the note's size. NULL when valid, else the reason.
 */
static const char *
mp_validate(const uint8_t *blob, size_t size)
{
   struct level {
      uint64_t remaining; /* objects still expected in this container */
      uint64_t index;
      bool is_map;
   } stack[MAX_DEPTH];
   unsigned depth = 0;
   bool have_root = false;
   size_t pos = 0;

   while (pos < size) {
      enum mp_kind kind;
      uint64_t length;
      const char *bad = mp_read(blob, size, &pos, &kind, &length);
      if (bad)
         return bad;
      if (depth == 0) {
         if (have_root)
            return "trailing data after the metadata map";
         have_root = true;
      } else {
         struct level *top = &stack[depth - 1];
         if (top->is_map && top->index % 2 == 0 && kind != MP_STRING)
            return "map key is not a string";
         top->index++;
         top->remaining--;
      }
      if (kind == MP_ARRAY || kind == MP_MAP) {
         uint64_t n = kind == MP_MAP ? 2 * length : length;
         if (n > size)
            return "container longer than the note";
         /* msgpack-c holds at most MAX_DEPTH open containers and counts an empty one too
          * (LLVM's reader counted only non-empty ones: it took one empty container more,
          * innermost, which no metadata has: the schema nests five deep). */
         if (depth >= MAX_DEPTH)
            return "nesting too deep";
         if (n)
            stack[depth++] = (struct level){ .remaining = n, .is_map = kind == MP_MAP };
      }
      while (depth && stack[depth - 1].remaining == 0)
         depth--;
   }
   if (!have_root)
      return "empty metadata";
   if (depth)
      return "truncated MessagePack container";
   return NULL;
}

/* Orders map keys (strings: mp_validate checked) by length, then bytes. */
static int
key_cmp(const void *a, const void *b)
{
   const msgpack_object_str *x = *(const msgpack_object_str *const *)a;
   const msgpack_object_str *y = *(const msgpack_object_str *const *)b;
   if (x->size != y->size)
      return x->size < y->size ? -1 : 1;
   return memcmp(x->ptr, y->ptr, x->size);
}

/* Whether a map holds a key twice: 1, 0, or -1 out of memory. The keys (strings:
 * mp_validate checked) are sorted in a copy: a map may have many. */
static int
map_has_duplicate(const msgpack_object_map *m)
{
   if (m->size < 2)
      return 0;
   const msgpack_object_str **keys = malloc(m->size * sizeof(*keys));
   if (!keys)
      return -1;
   for (uint32_t i = 0; i < m->size; i++)
      keys[i] = &m->ptr[i].key.via.str;
   qsort(keys, m->size, sizeof(*keys), key_cmp);
   int dup = 0;
   for (uint32_t i = 1; i < m->size && !dup; i++)
      dup = key_cmp(&keys[i - 1], &keys[i]) == 0;
   free(keys);
   return dup;
}

/*
 * What LLVM's msgpack::Document refused in a grammatically valid note: extension objects,
 * and a key repeated in one map (it keeps one value per key, and failed rather than
 * choose). Recursion is bounded by mp_validate's depth limit.
 */
static bool
doc_check(const msgpack_object *o, struct parse *p)
{
   switch (o->type) {
   case MSGPACK_OBJECT_EXT:
      return fail(p, "NT_AMDGPU_METADATA is not valid MessagePack");
   case MSGPACK_OBJECT_ARRAY:
      for (uint32_t i = 0; i < o->via.array.size; i++)
         if (!doc_check(&o->via.array.ptr[i], p))
            return false;
      return true;
   case MSGPACK_OBJECT_MAP:
      switch (map_has_duplicate(&o->via.map)) {
      case 1: return fail(p, "NT_AMDGPU_METADATA is not valid MessagePack");
      case -1: return fail_oom(p);
      }
      for (uint32_t i = 0; i < o->via.map.size; i++)
         if (!doc_check(&o->via.map.ptr[i].val, p))
            return false;
      return true;
   default:
      return true;
   }
}

/* ---- reading the document ----------------------------------------------------------------- */

static bool
str_is(const msgpack_object *o, const char *s)
{
   size_t n = strlen(s);
   return o->type == MSGPACK_OBJECT_STR && o->via.str.size == n &&
          memcmp(o->via.str.ptr, s, n) == 0;
}

/* The value of `key` in a map, or NULL (keys are unique: doc_check). */
static const msgpack_object *
find(const msgpack_object *map, const char *key)
{
   for (uint32_t i = 0; i < map->via.map.size; i++)
      if (str_is(&map->via.map.ptr[i].key, key))
         return &map->via.map.ptr[i].val;
   return NULL;
}

static bool
check_map(const msgpack_object *o, const struct where *w, struct parse *p)
{
   return o->type == MSGPACK_OBJECT_MAP || fail_at(p, w, " is not a map");
}

static const msgpack_object *
need(const msgpack_object *map, const char *key, const struct where *w, struct parse *p)
{
   const msgpack_object *v = find(map, key);
   if (!v)
      fail_at(p, w, ": required key %s is missing", key);
   return v;
}

static bool
u32_of(const msgpack_object *o, const char *key, const struct where *w, struct parse *p,
       uint32_t *out)
{
   uint64_t v;
   /* msgpack-c types every non-negative value POSITIVE_INTEGER, whatever its encoding
    * (int8 ... int64 included); a non-negative NEGATIVE_INTEGER is taken all the same. */
   if (o->type == MSGPACK_OBJECT_POSITIVE_INTEGER)
      v = o->via.u64;
   else if (o->type == MSGPACK_OBJECT_NEGATIVE_INTEGER && o->via.i64 >= 0)
      v = (uint64_t)o->via.i64;
   else
      return fail_at(p, w, ": %s is not a non-negative integer", key);
   if (v > UINT32_MAX)
      return fail_at(p, w, ": %s is out of range", key);
   *out = (uint32_t)v;
   return true;
}

/* An optional integer: `dflt` when absent. */
static bool
opt_u32(const msgpack_object *map, const char *key, uint32_t dflt, const struct where *w,
        struct parse *p, uint32_t *out)
{
   const msgpack_object *v = find(map, key);
   *out = dflt;
   return !v || u32_of(v, key, w, p, out);
}

static bool
need_u32(const msgpack_object *map, const char *key, const struct where *w, struct parse *p,
         uint32_t *out)
{
   const msgpack_object *v = need(map, key, w, p);
   return v && u32_of(v, key, w, p, out);
}

/* Absent is false; ".uniform_work_group_size" is an integer, not a boolean. */
static bool
opt_bool(const msgpack_object *map, const char *key, const struct where *w, struct parse *p,
         bool *out)
{
   const msgpack_object *v = find(map, key);
   uint32_t u;
   *out = false;
   if (!v)
      return true;
   if (v->type == MSGPACK_OBJECT_BOOLEAN) {
      *out = v->via.boolean;
      return true;
   }
   if (!u32_of(v, key, w, p, &u))
      return false;
   *out = u != 0;
   return true;
}

static const msgpack_object_str *
string_of(const msgpack_object *o, const char *key, const struct where *w, struct parse *p)
{
   if (o->type != MSGPACK_OBJECT_STR) {
      fail_at(p, w, ": %s is not a string", key);
      return NULL;
   }
   return &o->via.str;
}

/* A copy of a required string. */
static bool
need_string(const msgpack_object *map, const char *key, const struct where *w, struct parse *p,
            char **out)
{
   const msgpack_object *v = need(map, key, w, p);
   const msgpack_object_str *s = v ? string_of(v, key, w, p) : NULL;
   if (!s)
      return false;
   *out = dup_bytes(s->ptr, s->size);
   return *out || fail_oom(p);
}

/* A copy of an optional string, NULL when absent. */
static bool
opt_string(const msgpack_object *map, const char *key, const struct where *w, struct parse *p,
           char **out)
{
   const msgpack_object *v = find(map, key);
   *out = NULL;
   if (!v)
      return true;
   const msgpack_object_str *s = string_of(v, key, w, p);
   if (!s)
      return false;
   *out = dup_bytes(s->ptr, s->size);
   return *out || fail_oom(p);
}

/* A sequence of `count` integers; absent leaves `out` alone. */
static bool
u32_array(const msgpack_object *map, const char *key, uint32_t *out, uint32_t count,
          const struct where *w, struct parse *p)
{
   const msgpack_object *v = find(map, key);
   if (!v)
      return true;
   if (v->type != MSGPACK_OBJECT_ARRAY || v->via.array.size != count)
      return fail_at(p, w, ": %s is not a sequence of %" PRIu32 " integers", key, count);
   for (uint32_t i = 0; i < count; i++)
      if (!u32_of(&v->via.array.ptr[i], key, w, p, &out[i]))
         return false;
   return true;
}

/* An optional string out of `names`: 1 + its index, `none` (0) when absent. */
static bool
enum_value(const msgpack_object *map, const char *key, const char *const *names, size_t n,
           const struct where *w, struct parse *p, unsigned *out)
{
   const msgpack_object *v = find(map, key);
   *out = 0;
   if (!v)
      return true;
   const msgpack_object_str *s = string_of(v, key, w, p);
   if (!s)
      return false;
   for (size_t i = 0; i < n; i++)
      if (strlen(names[i]) == s->size && memcmp(names[i], s->ptr, s->size) == 0) {
         *out = (unsigned)i + 1;
         return true;
      }
   return fail_at(p, w, ": unknown %s \"%.*s\"", key, (int)s->size, s->ptr);
}

/* No V5 key carries an argument's alignment (comp_llvm.h). */
static uint32_t
derive_align(uint32_t offset, uint32_t size)
{
   uint32_t a = 1;
   while (a < size && a < 16)
      a <<= 1;
   while (offset % a)
      a >>= 1;
   return a;
}

static bool
parse_arg(const msgpack_object *m, const struct where *w, struct parse *p,
          struct comp_kernel_arg *a)
{
   unsigned e;
   if (!check_map(m, w, p) || !opt_string(m, ".name", w, p, &a->name) ||
       !opt_string(m, ".type_name", w, p, &a->type_name) ||
       !need_u32(m, ".offset", w, p, &a->offset) || !need_u32(m, ".size", w, p, &a->size) ||
       !opt_u32(m, ".pointee_align", 0, w, p, &a->pointee_align))
      return false;

   const msgpack_object *v = need(m, ".value_kind", w, p);
   const msgpack_object_str *kind = v ? string_of(v, ".value_kind", w, p) : NULL;
   if (!kind)
      return false;
   a->kind = COMP_ARG_KIND_COUNT;
   for (unsigned i = 0; i < COMP_ARG_KIND_COUNT; i++)
      if (strlen(arg_kind_names[i]) == kind->size &&
          memcmp(arg_kind_names[i], kind->ptr, kind->size) == 0)
         a->kind = (enum comp_arg_kind)i;
   if (a->kind == COMP_ARG_KIND_COUNT)
      return fail_at(p, w, ": unknown .value_kind \"%.*s\"", (int)kind->size, kind->ptr);

   if (!enum_value(m, ".address_space", addr_space_names, COUNT(addr_space_names), w, p, &e))
      return false;
   a->address_space = (enum comp_addr_space)e;
   if (!enum_value(m, ".access", access_names, COUNT(access_names), w, p, &e))
      return false;
   a->access = (enum comp_access)e;
   if (!enum_value(m, ".actual_access", access_names, COUNT(access_names), w, p, &e))
      return false;
   a->actual_access = (enum comp_access)e;
   if (!opt_bool(m, ".is_const", w, p, &a->is_const) ||
       !opt_bool(m, ".is_restrict", w, p, &a->is_restrict) ||
       !opt_bool(m, ".is_volatile", w, p, &a->is_volatile) ||
       !opt_bool(m, ".is_pipe", w, p, &a->is_pipe))
      return false;
   a->align = derive_align(a->offset, a->size);
   return true;
}

static bool
parse_kernel(const msgpack_object *m, uint32_t index, struct parse *p, struct comp_kernel *k)
{
   struct where w = { .kernel = index };
   unsigned e;
   bool ok;

   if (!check_map(m, &w, p) || !need_string(m, ".name", &w, p, &k->name))
      return false;
   /* From here on errors name the kernel. */
   w.name = k->name;
   if (!need_string(m, ".symbol", &w, p, &k->symbol) ||
       !opt_string(m, ".language", &w, p, &k->language) ||
       !u32_array(m, ".language_version", k->language_version, 2, &w, p) ||
       !need_u32(m, ".kernarg_segment_size", &w, p, &k->kernarg_segment_size) ||
       !need_u32(m, ".kernarg_segment_align", &w, p, &k->kernarg_segment_align) ||
       !need_u32(m, ".group_segment_fixed_size", &w, p, &k->group_segment_fixed_size) ||
       !need_u32(m, ".private_segment_fixed_size", &w, p, &k->private_segment_fixed_size) ||
       !need_u32(m, ".wavefront_size", &w, p, &k->wavefront_size) ||
       !need_u32(m, ".sgpr_count", &w, p, &k->sgpr_count) ||
       !need_u32(m, ".vgpr_count", &w, p, &k->vgpr_count) ||
       !opt_u32(m, ".agpr_count", 0, &w, p, &k->agpr_count) ||
       !opt_u32(m, ".sgpr_spill_count", 0, &w, p, &k->sgpr_spill_count) ||
       !opt_u32(m, ".vgpr_spill_count", 0, &w, p, &k->vgpr_spill_count) ||
       !need_u32(m, ".max_flat_workgroup_size", &w, p, &k->max_flat_workgroup_size) ||
       !opt_bool(m, ".uses_dynamic_stack", &w, p, &k->uses_dynamic_stack) ||
       !opt_bool(m, ".workgroup_processor_mode", &w, p, &k->workgroup_processor_mode) ||
       !opt_bool(m, ".uniform_work_group_size", &w, p, &k->uniform_work_group_size) ||
       !u32_array(m, ".reqd_workgroup_size", k->reqd_work_group_size, 3, &w, p) ||
       !u32_array(m, ".workgroup_size_hint", k->work_group_size_hint, 3, &w, p) ||
       !opt_string(m, ".vec_type_hint", &w, p, &k->vec_type_hint) ||
       !opt_string(m, ".device_enqueue_symbol", &w, p, &k->device_enqueue_symbol) ||
       !enum_value(m, ".kind", kernel_kind_names, COUNT(kernel_kind_names), &w, p, &e))
      return false;
   /* "normal" and absent are both COMP_KERNEL_NORMAL. */
   k->kind = e ? (enum comp_kernel_kind)(e - 1) : COMP_KERNEL_NORMAL;

   if (k->kernarg_segment_align == 0 || (k->kernarg_segment_align & (k->kernarg_segment_align - 1)))
      return fail_at(p, &w, ": .kernarg_segment_align is not a power of two");

   const msgpack_object *args = find(m, ".args");
   if (!args)
      return true;
   if (args->type != MSGPACK_OBJECT_ARRAY)
      return fail_at(p, &w, ": .args is not a sequence");
   k->args = alloc_array(args->via.array.size, sizeof(*k->args), &ok);
   if (!ok)
      return fail_oom(p);
   k->num_args = args->via.array.size;
   k->num_explicit_args = k->num_args;
   for (uint32_t i = 0; i < k->num_args; i++) {
      struct comp_kernel_arg *a = &k->args[i];
      struct where aw = w;
      aw.is_arg = true;
      aw.arg = i;
      if (!parse_arg(&args->via.array.ptr[i], &aw, p, a))
         return false;
      if ((uint64_t)a->offset + a->size > k->kernarg_segment_size)
         return fail_at(p, &aw, " lies outside the kernarg segment");
      if (comp_arg_kind_is_hidden(a->kind) && k->num_explicit_args == k->num_args)
         k->num_explicit_args = i;
      else if (!comp_arg_kind_is_hidden(a->kind) && k->num_explicit_args != k->num_args)
         return fail_at(p, &w, ": explicit argument after a hidden one");
   }
   return true;
}

/* The next ':'-terminated decimal field of a printf entry, at most UINT32_MAX. */
static bool
printf_field(const char **s, const char *end, const char *what, struct parse *p, uint32_t *out)
{
   const char *colon = memchr(*s, ':', (size_t)(end - *s));
   uint64_t v = 0;
   if (!colon || colon == *s)
      return fail(p, "amdhsa.printf: malformed %s", what);
   for (const char *c = *s; c < colon; c++) {
      if (*c < '0' || *c > '9')
         return fail(p, "amdhsa.printf: malformed %s", what);
      v = v * 10 + (uint64_t)(*c - '0');
      if (v > UINT32_MAX) /* also keeps the next step from wrapping */
         return fail(p, "amdhsa.printf: malformed %s", what);
   }
   *s = colon + 1;
   *out = (uint32_t)v;
   return true;
}

/*
 * "ID:N:S[0]:...:S[N-1]:FormatString"; the format may contain ':'. AMDGPUPrintfRuntimeBinding
 * escapes control characters and ':' (as octal "\72"): decoded here.
 */
static bool
parse_printf(const msgpack_object_str *str, struct parse *p, struct comp_printf_info *pf)
{
   const char *s = str->ptr, *end = str->ptr + str->size;
   bool ok;

   if (!printf_field(&s, end, "id", p, &pf->id) ||
       !printf_field(&s, end, "argument count", p, &pf->num_args))
      return false;
   if (pf->num_args > (size_t)(end - s))
      return fail(p, "amdhsa.printf: argument count larger than the entry");
   pf->arg_sizes = alloc_array(pf->num_args, sizeof(*pf->arg_sizes), &ok);
   if (!ok)
      return fail_oom(p);
   for (uint32_t i = 0; i < pf->num_args; i++)
      if (!printf_field(&s, end, "argument size", p, &pf->arg_sizes[i]))
         return false;

   /* Decoding never lengthens the text. */
   size_t n = (size_t)(end - s), len = 0;
   char *fmt = malloc(n + 1);
   if (!fmt)
      return fail_oom(p);
   for (size_t i = 0; i < n; i++) {
      if (s[i] != '\\' || i + 1 == n) {
         fmt[len++] = s[i];
         continue;
      }
      char c = s[++i];
      switch (c) {
      case 'a': fmt[len++] = '\a'; break;
      case 'b': fmt[len++] = '\b'; break;
      case 'f': fmt[len++] = '\f'; break;
      case 'n': fmt[len++] = '\n'; break;
      case 'r': fmt[len++] = '\r'; break;
      case 't': fmt[len++] = '\t'; break;
      case 'v': fmt[len++] = '\v'; break;
      case '\\': fmt[len++] = '\\'; break;
      default:
         if (c >= '0' && c <= '7') {
            unsigned v = 0, digits = 0;
            for (; digits < 3 && i < n && s[i] >= '0' && s[i] <= '7'; digits++, i++)
               v = v * 8 + (unsigned)(s[i] - '0');
            i--;
            fmt[len++] = (char)v;
         } else {
            fmt[len++] = '\\';
            fmt[len++] = c;
         }
      }
   }
   fmt[len] = '\0';
   pf->format = fmt;
   return true;
}

static bool
parse_document(const msgpack_object *root, struct parse *p, struct comp_program_info *info)
{
   const struct where w = { .root = true };
   bool ok;

   if (!check_map(root, &w, p) || !u32_array(root, "amdhsa.version", info->version, 2, &w, p) ||
       !opt_string(root, "amdhsa.target", &w, p, &info->target))
      return false;
   const msgpack_object *kernels = need(root, "amdhsa.kernels", &w, p);
   if (!kernels)
      return false;
   if (kernels->type != MSGPACK_OBJECT_ARRAY)
      return fail(p, "amdhsa.kernels is not a sequence");
   info->kernels = alloc_array(kernels->via.array.size, sizeof(*info->kernels), &ok);
   if (!ok)
      return fail_oom(p);
   info->num_kernels = kernels->via.array.size;
   for (uint32_t i = 0; i < info->num_kernels; i++)
      if (!parse_kernel(&kernels->via.array.ptr[i], i, p, &info->kernels[i]))
         return false;

   const msgpack_object *pf = find(root, "amdhsa.printf");
   if (!pf)
      return true;
   if (pf->type != MSGPACK_OBJECT_ARRAY)
      return fail(p, "amdhsa.printf is not a sequence");
   info->printfs = alloc_array(pf->via.array.size, sizeof(*info->printfs), &ok);
   if (!ok)
      return fail_oom(p);
   info->num_printfs = pf->via.array.size;
   for (uint32_t i = 0; i < info->num_printfs; i++) {
      const msgpack_object *e = &pf->via.array.ptr[i];
      if (e->type != MSGPACK_OBJECT_STR)
         return fail(p, "amdhsa.printf entry is not a string");
      if (!parse_printf(&e->via.str, p, &info->printfs[i]))
         return false;
   }
   return true;
}

/* ---- ELF ---------------------------------------------------------------------------------- */

static bool
in_file(uint64_t offset, uint64_t size, uint64_t file)
{
   return size <= file && offset <= file - size;
}

/* Every header, offset and size a note reader follows, checked against the buffer without
 * wrapping (LLVM's ELFFile::notes(), which hsacl once used, tested `offset + size > buffer
 * size`, which a p_offset or sh_offset near 2^64 passes). */
const char *
comp_elf_layout_check(const void *data, size_t size)
{
   const unsigned char *b = data;
   Elf64_Ehdr eh;
   if (!data || size < sizeof(eh))
      return "shorter than an ELF64 header";
   memcpy(&eh, b, sizeof(eh));
   if (eh.e_phnum) {
      if (eh.e_phentsize != sizeof(Elf64_Phdr))
         return "e_phentsize is not the size of an ELF64 program header";
      if (eh.e_phnum == PN_XNUM || eh.e_phoff > size ||
          (size - eh.e_phoff) / sizeof(Elf64_Phdr) < eh.e_phnum)
         return "the program header table lies outside the file";
      for (unsigned i = 0; i < eh.e_phnum; i++) {
         Elf64_Phdr ph;
         memcpy(&ph, b + eh.e_phoff + i * sizeof(ph), sizeof(ph));
         if (!in_file(ph.p_offset, ph.p_filesz, size))
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
         if (sh.sh_type != SHT_NOBITS && !in_file(sh.sh_offset, sh.sh_size, size))
            return "a section lies outside the file";
         if (sh.sh_type == SHT_NOTE && sh.sh_addralign > 1 && sh.sh_offset % sh.sh_addralign)
            return "a note section is misaligned";
      }
   }
   return NULL;
}

static uint64_t
align_up(uint64_t v, uint64_t a)
{
   return (v + a - 1) & ~(a - 1);
}

/*
 * Looks for the NT_AMDGPU_METADATA note among the notes of one segment or section, walked
 * as gABI "Note Section" lays them out for `align` (0, 1, 4 or 8). 1 and its descriptor in
 * *desc, 0 if none, -1 (p says why) if the notes do not fit.
 */
static int
find_in_notes(const unsigned char *b, size_t size, uint64_t offset, uint64_t bytes, uint64_t align,
              struct parse *p, const unsigned char **desc, uint32_t *desc_size)
{
   if (!in_file(offset, bytes, size)) {
      /* Only a note section 0 gets here: comp_elf_layout_check skips that one. */
      fail(p, "invalid offset (0x%" PRIx64 ") or size (0x%" PRIx64 ")", offset, bytes);
      return -1;
   }
   if (align != 0 && align != 1 && align != 4 && align != 8) {
      fail(p, "alignment (%" PRIu64 ") is not 4 or 8", align);
      return -1;
   }
   if (align < 4)
      align = 4;
   const unsigned char *note = b + offset;
   uint64_t remaining = bytes;
   while (remaining) {
      Elf64_Nhdr nh;
      if (remaining < sizeof(nh)) {
         fail(p, "ELF note overflows container");
         return -1;
      }
      memcpy(&nh, note, sizeof(nh));
      uint64_t note_size =
         align_up(sizeof(nh) + (uint64_t)nh.n_namesz, align) + align_up(nh.n_descsz, align);
      if (note_size > remaining) {
         fail(p, "ELF note overflows container");
         return -1;
      }
      /* The name's terminating NUL is not compared; the descriptor starts at a 4-byte
       * boundary whatever the container's alignment, as the LLVM reader had it. */
      if (nh.n_namesz == 7 && memcmp(note + sizeof(nh), "AMDGPU", 6) == 0 &&
          nh.n_type == NT_AMDGPU_METADATA_) {
         *desc = note + align_up(sizeof(nh) + nh.n_namesz, 4);
         *desc_size = nh.n_descsz;
         return 1;
      }
      note += note_size;
      remaining -= note_size;
   }
   return 0;
}

/* Finds the NT_AMDGPU_METADATA descriptor in PT_NOTE segments, or SHT_NOTE sections for a
 * relocatable object. `b` passed comp_elf_layout_check. */
static bool
find_note(const unsigned char *b, size_t size, struct parse *p, const unsigned char **desc,
          uint32_t *desc_size)
{
   Elf64_Ehdr eh;
   int found;

   memcpy(&eh, b, sizeof(eh));
   if (!eh.e_phnum && eh.e_phoff > size)
      return fail(p,
                  "program headers are longer than binary of size %zu: e_phoff = 0x%" PRIx64
                  ", e_phnum = 0, e_phentsize = %u",
                  size, (uint64_t)eh.e_phoff, eh.e_phentsize);
   for (unsigned i = 0; i < eh.e_phnum; i++) {
      Elf64_Phdr ph;
      memcpy(&ph, b + eh.e_phoff + i * sizeof(ph), sizeof(ph));
      if (ph.p_type != PT_NOTE)
         continue;
      found = find_in_notes(b, size, ph.p_offset, ph.p_filesz, ph.p_align, p, desc, desc_size);
      if (found)
         return found > 0;
   }
   for (unsigned i = 0; eh.e_shoff && i < eh.e_shnum; i++) {
      Elf64_Shdr sh;
      memcpy(&sh, b + eh.e_shoff + i * sizeof(sh), sizeof(sh));
      if (sh.sh_type != SHT_NOTE)
         continue;
      found = find_in_notes(b, size, sh.sh_offset, sh.sh_size, sh.sh_addralign, p, desc, desc_size);
      if (found)
         return found > 0;
   }
   return fail(p, "no NT_AMDGPU_METADATA note");
}

/* ---- entry points ------------------------------------------------------------------------- */

/* The kernel of `info` named `name` (`len` bytes), or NULL. */
static struct comp_kernel *
kernel_named(struct comp_program_info *info, const char *name, size_t len)
{
   for (uint32_t i = 0; i < info->num_kernels; i++)
      if (info->kernels[i].name && strlen(info->kernels[i].name) == len &&
          !memcmp(info->kernels[i].name, name, len))
         return &info->kernels[i];
   return NULL;
}

/* Sets work_group_free on the kernels whose marker symbol (COMP_WORK_GROUP_FREE_PREFIX +
 * name, comp_wgfree.cpp) the ELF's symbol tables hold. The layout was checked
 * (comp_elf_layout_check); headers and symbols are copied out byte-wise, since nothing
 * aligns them in `data`. */
static void
mark_work_group_free(const void *data, size_t size, struct comp_program_info *info)
{
   const unsigned char *b = data;
   const size_t plen = strlen(COMP_WORK_GROUP_FREE_PREFIX);
   Elf64_Ehdr eh;
   memcpy(&eh, b, sizeof(eh));
   if (!eh.e_shoff || eh.e_shentsize != sizeof(Elf64_Shdr))
      return;
   for (unsigned i = 1; i < eh.e_shnum; i++) {
      Elf64_Shdr st, str;
      memcpy(&st, b + eh.e_shoff + (size_t)i * sizeof(st), sizeof(st));
      if (st.sh_type != SHT_SYMTAB || st.sh_entsize != sizeof(Elf64_Sym) ||
          st.sh_link == 0 || st.sh_link >= eh.e_shnum || st.sh_offset > size ||
          st.sh_size > size - st.sh_offset)
         continue;
      memcpy(&str, b + eh.e_shoff + (size_t)st.sh_link * sizeof(str), sizeof(str));
      if (str.sh_type != SHT_STRTAB || str.sh_offset > size || str.sh_size > size - str.sh_offset)
         continue;
      const char *names = (const char *)b + str.sh_offset;
      for (size_t k = 0; k < st.sh_size / sizeof(Elf64_Sym); k++) {
         Elf64_Sym sym;
         memcpy(&sym, b + st.sh_offset + k * sizeof(sym), sizeof(sym));
         if (ELF64_ST_TYPE(sym.st_info) != STT_OBJECT || sym.st_name >= str.sh_size)
            continue;
         const char *name = names + sym.st_name;
         size_t len = strnlen(name, str.sh_size - sym.st_name);
         if (len == str.sh_size - sym.st_name || len <= plen ||
             memcmp(name, COMP_WORK_GROUP_FREE_PREFIX, plen))
            continue;
         struct comp_kernel *kern = kernel_named(info, name + plen, len - plen);
         if (kern)
            kern->work_group_free = true;
      }
   }
}

enum comp_status
comp_parse_metadata(const void *data, size_t size, struct comp_program_info **out, char **error)
{
   struct parse p = { .status = COMP_OK };
   struct comp_program_info *info = NULL;
   const unsigned char *desc = NULL;
   uint32_t desc_size = 0;
   const char *bad;
   msgpack_unpacked doc;
   size_t off = 0;

   *out = NULL;
   if (error)
      *error = NULL;
   bad = comp_elf_layout_check(data, size);
   if (bad) {
      fail(&p, "malformed ELF: %s", bad);
      goto out_fail;
   }
   uint16_t machine;
   memcpy(&machine, (const unsigned char *)data + offsetof(Elf64_Ehdr, e_machine), sizeof(machine));
   if (machine != EM_AMDGPU) {
      fail(&p, "not an AMDGPU object");
      goto out_fail;
   }
   if (!find_note(data, size, &p, &desc, &desc_size))
      goto out_fail;
   bad = mp_validate(desc, desc_size);
   if (bad) {
      fail(&p, "NT_AMDGPU_METADATA: %s", bad);
      goto out_fail;
   }

   msgpack_unpacked_init(&doc);
   switch (msgpack_unpack_next(&doc, (const char *)desc, desc_size, &off)) {
   case MSGPACK_UNPACK_SUCCESS:
      break;
   case MSGPACK_UNPACK_NOMEM_ERROR:
      fail_oom(&p);
      goto out_destroy;
   default:
      fail(&p, "NT_AMDGPU_METADATA is not valid MessagePack");
      goto out_destroy;
   }
   if (!doc_check(&doc.data, &p))
      goto out_destroy;
   info = calloc(1, sizeof(*info));
   if (!info) {
      fail_oom(&p);
      goto out_destroy;
   }
   parse_document(&doc.data, &p, info);
   if (p.status == COMP_OK)
      mark_work_group_free(data, size, info);

out_destroy:
   msgpack_unpacked_destroy(&doc);
out_fail:
   if (p.status != COMP_OK) {
      comp_program_info_destroy(info);
      if (error)
         *error = p.error;
      else
         free(p.error);
      return p.status;
   }
   *out = info;
   return COMP_OK;
}

void
comp_program_info_destroy(struct comp_program_info *info)
{
   if (!info)
      return;
   for (uint32_t i = 0; info->kernels && i < info->num_kernels; i++) {
      struct comp_kernel *k = &info->kernels[i];
      for (uint32_t j = 0; k->args && j < k->num_args; j++) {
         free(k->args[j].name);
         free(k->args[j].type_name);
      }
      free(k->args);
      free(k->name);
      free(k->symbol);
      free(k->language);
      free(k->vec_type_hint);
      free(k->device_enqueue_symbol);
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

const char *
comp_arg_kind_name(enum comp_arg_kind kind)
{
   return (unsigned)kind < COMP_ARG_KIND_COUNT ? arg_kind_names[kind] : "unknown";
}
