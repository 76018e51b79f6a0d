/*
 * comp_mangle.c — renaming OpenCL built-in calls from the SPIR target's address-space mangling
 * to amdgcn's.
 *
 * LLVM IR translated from SPIR-V (llvm-spirv-15 -r) calls the built-ins by the Itanium names
 * the SPIR target gives them; the AMD device library (opencl.bc) defines the same built-ins
 * under the names clang gives them for amdgcn. The two differ only in the vendor
 * address-space qualifier of pointee types:
 *
 *    OpenCL space   SPIR (input)            amdgcn (output)
 *    private        no qualifier            U3AS5
 *    global         U3AS1                   U3AS1
 *    constant       U3AS2                   U3AS4
 *    local          U3AS3                   U3AS3
 *    generic        U3AS4                   U3AS0
 *
 * e.g. _Z5fractfPf -> _Z5fractfPU3AS5f, _Z6vload4mPU3AS2Kf -> _Z6vload4mPU3AS4Kf.
 *
 * The name is parsed into types, the input's substitution table resolving every S_ and
 * S<seq-id>_ to the type it names; every pointee's address space is rewritten (a pointee
 * without one is private), and the name is mangled again with a fresh table, so that the
 * references are numbered for the new types: _Z6sincosDv4_fPS_ -> _Z6sincosDv4_fPU3AS5S_,
 * _Z3fooPU3AS4fPU3AS4f -> _Z3fooPU3AS0fS0_.
 *
 * The subset understood (anything else returns -1 and the caller keeps the name):
 *    <mangled-name> ::= _Z <source-name> <type>+
 *    <type> ::= <builtin> | Dh Dd De Df Di Ds Du Dn | DF <number> _
 *             | P <type> | Dv <number> _ <type> | A <number> _ <type> | <source-name>
 *             | <qualifiers> <type> | U7_Atomic <type> | U13block_pointer <type>
 *             | F [Y] <type> <type>+ E | S_ | S <seq-id> _
 *    <qualifiers> ::= [U3AS<n>] [r] [V] [K]
 * Substitution candidates as clang numbers them (CXXNameMangler::mangleType): every type
 * but an unqualified builtin, once mangled; a qualified type is one candidate (its
 * unqualified type another unless a builtin); the function's name is none. Clang gives
 * every pointee an address space, so a SPIR pointee without qualifiers is still the
 * qualified type "private T", a candidate mangled as T (_Z2h2PfS0_: S_ is private float, S0_
 * the pointer) — the one that becomes U3AS5T, so clang's numbering is kept. An array's
 * element carries the array's qualifiers (PA3_i -> PA3_U3AS5i). Types are interned: equal
 * types are one node, and substitution is pointer equality; "ocl_pipe" names are never
 * equal, a pipe's element type not being in its mangling (_Z2h88ocl_pipe8ocl_pipe).
 *
 * The input is untrusted: bounded length, nesting, node and candidate counts, checked
 * numbers, no recursion without a depth bound, one allocation per call, no global state.
 */
#include "comp_priv.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LEN 4096  /* input and output names */
#define MAX_PARSE 64  /* nesting of the input's types */
#define MAX_DEPTH 200 /* depth of a type node, the rewritten ones included */
#define MAX_NODES 1024
#define MAX_SUBS 512
#define MAX_PARAMS 64    /* of the function */
#define MAX_FN_PARAMS 16 /* of a function type (block) */

enum kind {
   K_BUILTIN,
   K_NAME,
   K_POINTER,
   K_VECTOR,
   K_ARRAY,
   K_QUAL,
   K_ATOMIC,
   K_BLOCK,
   K_FUNC,
   K_PARAM
};

/* K_QUAL address spaces besides the numbers of the mangling. */
#define AS_NONE (-1)    /* CV qualifiers only */
#define AS_PRIVATE (-2) /* a SPIR pointee without address-space qualifier */

#define CV_R 1u
#define CV_V 2u
#define CV_K 4u

struct node {
   enum kind kind;
   int as;       /* K_QUAL */
   unsigned cv;  /* K_QUAL */
   unsigned uid; /* K_NAME "ocl_pipe": which occurrence */
   unsigned depth;
   bool extern_c;    /* K_FUNC: Y */
   const char *text; /* K_BUILTIN code, K_NAME identifier, K_VECTOR/K_ARRAY size */
   size_t len;
   const struct node *child; /* pointee, element, qualified type, K_FUNC return, K_PARAM type */
   const struct node *next;  /* K_FUNC first K_PARAM, K_PARAM the next one */
};

struct ctx {
   const char *s;
   size_t len, pos;
   bool failed;
   unsigned next_uid;
   size_t num_nodes, num_in_subs, num_out_subs, out_len;
   struct node nodes[MAX_NODES];
   const struct node *in_subs[MAX_SUBS];
   const struct node *out_subs[MAX_SUBS];
   const struct node *memo[MAX_NODES]; /* rewritten node, by index in nodes */
   char out[MAX_LEN + 1];
};

static const struct node *
fail(struct ctx *c)
{
   c->failed = true;
   return NULL;
}

static bool
same_node(const struct node *a, const struct node *b)
{
   return a->kind == b->kind && a->as == b->as && a->cv == b->cv && a->uid == b->uid &&
          a->extern_c == b->extern_c && a->len == b->len && a->child == b->child &&
          a->next == b->next && (a->len == 0 || !memcmp(a->text, b->text, a->len));
}

/* The node equal to `t`, created if there is none. */
static const struct node *
intern(struct ctx *c, const struct node *t)
{
   if (c->failed)
      return NULL; /* a child is missing */
   for (size_t i = 0; i < c->num_nodes; i++)
      if (same_node(&c->nodes[i], t))
         return &c->nodes[i];
   unsigned depth = 0;
   if (t->child)
      depth = t->child->depth;
   if (t->next && t->next->depth > depth)
      depth = t->next->depth;
   if (c->num_nodes == MAX_NODES || depth >= MAX_DEPTH)
      return fail(c);
   struct node *n = &c->nodes[c->num_nodes++];
   *n = *t;
   n->depth = depth + 1;
   return n;
}

static const struct node *
make(struct ctx *c, enum kind kind, const struct node *child, const struct node *next)
{
   struct node t = { .kind = kind, .child = child, .next = next };
   return intern(c, &t);
}

static const struct node *
make_text(struct ctx *c, enum kind kind, const char *text, size_t len, const struct node *child)
{
   struct node t = { .kind = kind, .text = text, .len = len, .child = child };
   return intern(c, &t);
}

static const struct node *
make_qual(struct ctx *c, int as, unsigned cv, const struct node *child)
{
   struct node t = { .kind = K_QUAL, .as = as, .cv = cv, .child = child };
   return intern(c, &t);
}

static const struct node *
add_sub(struct ctx *c, const struct node *n)
{
   if (!n || c->num_in_subs == MAX_SUBS)
      return fail(c);
   c->in_subs[c->num_in_subs++] = n;
   return n;
}

static int
peek(const struct ctx *c, size_t ahead)
{
   return c->pos + ahead < c->len ? (unsigned char)c->s[c->pos + ahead] : -1;
}

static bool
is_digit(int ch)
{
   return ch >= '0' && ch <= '9';
}

/* A decimal <number> without sign or leading zero; the digits in *text. */
static bool
parse_number(struct ctx *c, size_t *value, const char **text, size_t *len)
{
   size_t start = c->pos, v = 0;
   if (!is_digit(peek(c, 0)) || (peek(c, 0) == '0' && is_digit(peek(c, 1))))
      return false;
   while (is_digit(peek(c, 0))) {
      if (v > MAX_LEN)
         return false;
      v = v * 10 + (size_t)(peek(c, 0) - '0');
      c->pos++;
   }
   *value = v;
   *text = c->s + start;
   *len = c->pos - start;
   return true;
}

/* <source-name> ::= <positive length number> <identifier> */
static bool
parse_source_name(struct ctx *c, const char **id, size_t *id_len)
{
   size_t n;
   const char *digits;
   size_t num_digits;
   if (!parse_number(c, &n, &digits, &num_digits) || n == 0 || n > c->len - c->pos)
      return false;
   for (size_t i = 0; i < n; i++) {
      char ch = c->s[c->pos + i];
      if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || is_digit(ch) || ch == '_' ||
            ch == '$'))
         return false;
   }
   *id = c->s + c->pos;
   *id_len = n;
   c->pos += n;
   return true;
}

static bool
name_is(const char *id, size_t len, const char *want)
{
   return len == strlen(want) && !memcmp(id, want, len);
}

/* "AS<n>" with n a number of the SPIR mangling: its value in *as. */
static bool
address_space_name(const char *id, size_t len, int *as)
{
   if (len < 3 || len > 4 || id[0] != 'A' || id[1] != 'S' || (len == 4 && id[2] == '0'))
      return false;
   int v = 0;
   for (size_t i = 2; i < len; i++) {
      if (!is_digit(id[i]))
         return false;
      v = v * 10 + (id[i] - '0');
   }
   *as = v;
   return true;
}

static const struct node *parse_type(struct ctx *c, bool pointee, unsigned depth);

/* S_ or S <seq-id> _. Clang's private pointee candidates are never named outside a
 * pointee: such a reference means another mangler's table (the translator does not count
 * them), -1 rather than a wrong name. */
static const struct node *
parse_substitution(struct ctx *c, bool pointee)
{
   size_t index = 0;
   c->pos++;
   if (peek(c, 0) != '_') {
      size_t v = 0;
      while (peek(c, 0) != '_') {
         int ch = peek(c, 0);
         if (is_digit(ch))
            v = v * 36 + (size_t)(ch - '0');
         else if (ch >= 'A' && ch <= 'Z')
            v = v * 36 + (size_t)(ch - 'A' + 10);
         else
            return fail(c); /* St, Sa... or truncated */
         if (v >= MAX_SUBS)
            return fail(c);
         c->pos++;
      }
      index = v + 1;
   }
   c->pos++;
   if (index >= c->num_in_subs)
      return fail(c);
   const struct node *n = c->in_subs[index];
   if (n->kind == K_QUAL && n->as == AS_PRIVATE && !pointee)
      return fail(c);
   return n;
}

/* F [Y] <return type> <parameter type>+ E */
static const struct node *
parse_function(struct ctx *c, unsigned depth)
{
   const struct node *params[MAX_FN_PARAMS];
   size_t n = 0;
   bool extern_c = false;
   c->pos++;
   if (peek(c, 0) == 'Y') {
      extern_c = true;
      c->pos++;
   }
   const struct node *ret = parse_type(c, false, depth + 1);
   if (!ret)
      return NULL;
   while (peek(c, 0) != 'E') {
      if (n == MAX_FN_PARAMS || peek(c, 0) < 0)
         return fail(c);
      if (!(params[n++] = parse_type(c, false, depth + 1)))
         return NULL;
   }
   c->pos++;
   if (n == 0)
      return fail(c);
   const struct node *list = NULL;
   while (n > 0)
      if (!(list = make(c, K_PARAM, params[--n], list)))
         return NULL;
   struct node t = { .kind = K_FUNC, .extern_c = extern_c, .child = ret, .next = list };
   return add_sub(c, intern(c, &t));
}

/* A type that does not begin with qualifiers. `pointee`: an array's element is the pointee. */
static const struct node *
parse_unqualified(struct ctx *c, bool pointee, unsigned depth)
{
   static const char builtins[] = "vwbcahstijlmxynofdegz";
   static const char d_builtins[] = "hdefisun";
   int ch = peek(c, 0);
   const char *text, *id;
   size_t value, len;
   if (ch < 0)
      return fail(c);
   if (ch != 0 && strchr(builtins, ch)) {
      c->pos++;
      return make_text(c, K_BUILTIN, c->s + c->pos - 1, 1, NULL);
   }
   if (is_digit(ch)) {
      if (!parse_source_name(c, &id, &len))
         return fail(c);
      struct node t = { .kind = K_NAME, .text = id, .len = len };
      if (name_is(id, len, "ocl_pipe"))
         t.uid = ++c->next_uid;
      return add_sub(c, intern(c, &t));
   }
   switch (ch) {
   case 'D':
      ch = peek(c, 1);
      if (ch > 0 && strchr(d_builtins, ch)) {
         c->pos += 2;
         return make_text(c, K_BUILTIN, c->s + c->pos - 2, 2, NULL);
      }
      if (ch == 'F') { /* DF16_ */
         size_t start = c->pos;
         c->pos += 2;
         if (!parse_number(c, &value, &text, &len) || peek(c, 0) != '_')
            return fail(c);
         c->pos++;
         return make_text(c, K_BUILTIN, c->s + start, c->pos - start, NULL);
      }
      if (ch != 'v')
         return fail(c);
      c->pos += 2;
      if (!parse_number(c, &value, &text, &len) || value == 0 || peek(c, 0) != '_')
         return fail(c);
      c->pos++;
      return add_sub(c, make_text(c, K_VECTOR, text, len, parse_type(c, false, depth + 1)));
   case 'A':
      c->pos++;
      if (!parse_number(c, &value, &text, &len) || peek(c, 0) != '_')
         return fail(c);
      c->pos++;
      return add_sub(c, make_text(c, K_ARRAY, text, len, parse_type(c, pointee, depth + 1)));
   case 'P':
      c->pos++;
      return add_sub(c, make(c, K_POINTER, parse_type(c, true, depth + 1), NULL));
   case 'U':
      c->pos++;
      if (!parse_source_name(c, &id, &len))
         return fail(c);
      if (name_is(id, len, "_Atomic"))
         return add_sub(c, make(c, K_ATOMIC, parse_type(c, false, depth + 1), NULL));
      if (name_is(id, len, "block_pointer"))
         return add_sub(c, make(c, K_BLOCK, parse_type(c, false, depth + 1), NULL));
      return fail(c);
   case 'F':
      return parse_function(c, depth);
   case 'S':
      return parse_substitution(c, pointee);
   default:
      return fail(c);
   }
}

static const struct node *
parse_type(struct ctx *c, bool pointee, unsigned depth)
{
   int as = AS_NONE;
   unsigned cv = 0;
   const char *id;
   size_t len;
   if (c->failed || depth > MAX_PARSE)
      return fail(c);
   if (peek(c, 0) == 'U') {
      size_t save = c->pos++;
      if (!parse_source_name(c, &id, &len))
         return fail(c);
      if (!address_space_name(id, len, &as))
         c->pos = save; /* U7_Atomic, U13block_pointer */
   }
   static const struct {
      char code;
      unsigned bit;
   } cvs[] = { { 'r', CV_R }, { 'V', CV_V }, { 'K', CV_K } };
   for (size_t i = 0; i < sizeof(cvs) / sizeof(cvs[0]); i++) {
      if (peek(c, 0) == cvs[i].code) {
         cv |= cvs[i].bit;
         c->pos++;
      }
   }
   if (as != AS_NONE || cv) {
      if (as == AS_NONE && pointee)
         as = AS_PRIVATE;
      const struct node *inner = parse_type(c, false, depth + 1);
      if (!inner || inner->kind == K_QUAL)
         return fail(c); /* qualifiers out of order */
      return add_sub(c, make_qual(c, as, cv, inner));
   }
   const struct node *n = parse_unqualified(c, pointee, depth);
   if (n && pointee && n->kind != K_QUAL && n->kind != K_ARRAY)
      n = add_sub(c, make_qual(c, AS_PRIVATE, 0, n)); /* clang's candidate, mangled as n */
   return n;
}

/* SPIR's address space in amdgcn's numbering; false for one SPIR does not have. */
static bool
map_as(int as, int *out)
{
   /* private (explicit U3AS0 taken as private too), global, constant, local, generic */
   static const int amdgcn[] = { 5, 1, 4, 3, 0 };
   if (as == AS_NONE || as == AS_PRIVATE) {
      *out = as == AS_NONE ? AS_NONE : 5;
      return true;
   }
   if (as < 0 || as > 4)
      return false;
   *out = amdgcn[as];
   return true;
}

static const struct node *rewrite(struct ctx *c, const struct node *n);

/* The type a pointer points to, with amdgcn's address space. */
static const struct node *
rewrite_pointee(struct ctx *c, const struct node *n)
{
   int as;
   switch (n->kind) {
   case K_ARRAY:
      return make_text(c, K_ARRAY, n->text, n->len, rewrite_pointee(c, n->child));
   case K_QUAL:
      if (!map_as(n->as, &as))
         return fail(c);
      return make_qual(c, as == AS_NONE ? 5 : as, n->cv, rewrite(c, n->child));
   default:
      return make_qual(c, 5, 0, rewrite(c, n));
   }
}

/* Recursion is bounded by the node depth (MAX_DEPTH), work by the memo. */
static const struct node *
rewrite(struct ctx *c, const struct node *n)
{
   if (!n || c->failed)
      return fail(c);
   size_t index = (size_t)(n - c->nodes);
   if (c->memo[index])
      return c->memo[index];
   const struct node *r = NULL;
   struct node t = *n;
   switch (n->kind) {
   case K_BUILTIN:
   case K_NAME:
      r = n;
      break;
   case K_POINTER:
      r = make(c, K_POINTER, rewrite_pointee(c, n->child), NULL);
      break;
   case K_QUAL:
      if (!map_as(n->as, &t.as))
         return fail(c);
      /* fall through */
   default:
      t.child = n->child ? rewrite(c, n->child) : NULL;
      t.next = n->next ? rewrite(c, n->next) : NULL;
      if ((n->child && !t.child) || (n->next && !t.next))
         return NULL;
      r = intern(c, &t);
      break;
   }
   if (r)
      c->memo[index] = r;
   return r;
}

static bool
put(struct ctx *c, const char *s, size_t n)
{
   if (n > MAX_LEN - c->out_len) {
      c->failed = true;
      return false;
   }
   memcpy(c->out + c->out_len, s, n);
   c->out_len += n;
   return true;
}

static bool
put_number(struct ctx *c, size_t v, unsigned base)
{
   static const char digits[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
   char buf[32];
   size_t i = sizeof(buf);
   do {
      buf[--i] = digits[v % base];
      v /= base;
   } while (v);
   return put(c, buf + i, sizeof(buf) - i);
}

/* Mangles `n` with clang's substitutions; recursion bounded by the node depth. */
static bool
emit(struct ctx *c, const struct node *n)
{
   if (n->kind == K_BUILTIN)
      return put(c, n->text, n->len);
   for (size_t i = 0; i < c->num_out_subs; i++) {
      if (c->out_subs[i] == n)
         return put(c, "S", 1) && (i == 0 || put_number(c, i - 1, 36)) && put(c, "_", 1);
   }
   bool ok = true;
   switch (n->kind) {
   case K_NAME:
      ok = put_number(c, n->len, 10) && put(c, n->text, n->len);
      break;
   case K_POINTER:
      ok = put(c, "P", 1) && emit(c, n->child);
      break;
   case K_VECTOR:
   case K_ARRAY:
      ok = put(c, n->kind == K_VECTOR ? "Dv" : "A", n->kind == K_VECTOR ? 2 : 1) &&
           put(c, n->text, n->len) && put(c, "_", 1) && emit(c, n->child);
      break;
   case K_QUAL:
      ok = (n->as == AS_NONE || (put(c, "U3AS", 4) && put_number(c, (size_t)n->as, 10))) &&
           (!(n->cv & CV_R) || put(c, "r", 1)) && (!(n->cv & CV_V) || put(c, "V", 1)) &&
           (!(n->cv & CV_K) || put(c, "K", 1)) && emit(c, n->child);
      break;
   case K_ATOMIC:
      ok = put(c, "U7_Atomic", 9) && emit(c, n->child);
      break;
   case K_BLOCK:
      ok = put(c, "U13block_pointer", 16) && emit(c, n->child);
      break;
   case K_FUNC:
      ok = put(c, n->extern_c ? "FY" : "F", n->extern_c ? 2 : 1) && emit(c, n->child);
      for (const struct node *p = n->next; ok && p; p = p->next)
         ok = emit(c, p->child);
      ok = ok && put(c, "E", 1);
      break;
   default:
      ok = false;
      break;
   }
   if (!ok || c->num_out_subs == MAX_SUBS)
      return false;
   c->out_subs[c->num_out_subs++] = n;
   return true;
}

int
comp__mangle_spir_to_amdgcn(const char *name, size_t len, char **out)
{
   if (len < 2 || name[0] != '_' || name[1] != 'Z')
      return 0;
   if (len > MAX_LEN)
      return -1;
   int ret = -1;
   char *s;
   const struct node *params[MAX_PARAMS];
   size_t num_params = 0;
   const char *id;
   size_t id_len;
   struct ctx *c = calloc(1, sizeof(*c));
   if (!c)
      return -1;
   c->s = name;
   c->len = len;
   c->pos = 2;
   if (!parse_source_name(c, &id, &id_len))
      goto out;
   while (c->pos < c->len) {
      if (num_params == MAX_PARAMS || !(params[num_params++] = parse_type(c, false, 0)))
         goto out;
   }
   if (num_params == 0 || !put(c, name, (size_t)(id + id_len - name)))
      goto out;
   for (size_t i = 0; i < num_params; i++) {
      const struct node *p = rewrite(c, params[i]);
      if (!p || !emit(c, p))
         goto out;
   }
   if (c->out_len == len && !memcmp(c->out, name, len)) {
      ret = 0;
      goto out;
   }
   s = malloc(c->out_len + 1);
   if (!s)
      goto out;
   memcpy(s, c->out, c->out_len);
   s[c->out_len] = '\0';
   *out = s;
   ret = 1;
out:
   free(c);
   return ret;
}
