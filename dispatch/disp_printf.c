/*
 * dispatch/disp_printf.c — prints a launch's printf buffer when the kernel has completed.
 *
 * The buffer (AMDGPU buffer-based printf, code object V5): a header of two uint32s (bytes
 * used after the header, total size), then records of a uint32 format id followed by the
 * arguments, each of the size the code-object metadata gives (`amdhsa.printf`). Formats are
 * OpenCL C printf (OpenCL C 3.0 §6.15.14): C99's conversions, length modifiers hh, h, l
 * (and OpenCL C 3.1's z and t, for size_t and ptrdiff_t) and, for vectors, the vector specifier `vN` (N = 2, 3, 4, 8, 16) with a length modifier
 * hh, h, hl or l naming the element type; the elements print comma-separated.
 */
#include "dispatch/disp_priv.h"
#include "compiler/comp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A parsed conversion specification. */
struct conv_spec {
   char flags[8];
   char width[12];     /* digits or "*"-free: OpenCL forbids '*' */
   char precision[12]; /* ".digits" or "" */
   unsigned vec;       /* 0 scalar, else the element count */
   char len[3];        /* "", "hh", "h", "hl", "l", "z", "t" */
   char conv;
};

static bool
parse_spec(const char *s, struct conv_spec *c)
{
   memset(c, 0, sizeof(*c));
   if (*s++ != '%')
      return false;
   size_t n = 0;
   while (*s && strchr("-+ #0", *s) && n < sizeof(c->flags) - 1)
      c->flags[n++] = *s++;
   n = 0;
   while (*s >= '0' && *s <= '9' && n < sizeof(c->width) - 1)
      c->width[n++] = *s++;
   if (*s == '.') {
      n = 0;
      c->precision[n++] = *s++;
      while (*s >= '0' && *s <= '9' && n < sizeof(c->precision) - 1)
         c->precision[n++] = *s++;
   }
   if (*s == 'v') {
      s++;
      unsigned v = 0;
      while (*s >= '0' && *s <= '9')
         v = v * 10 + (unsigned)(*s++ - '0');
      if (v != 2 && v != 3 && v != 4 && v != 8 && v != 16)
         return false;
      c->vec = v;
   }
   if (s[0] == 'h' && s[1] == 'h') {
      strcpy(c->len, "hh");
      s += 2;
   } else if (s[0] == 'h' && s[1] == 'l') {
      strcpy(c->len, "hl");
      s += 2;
   } else if (s[0] == 'h' || s[0] == 'l') {
      c->len[0] = *s++;
   } else if ((s[0] == 'z' || s[0] == 't') && !c->vec) {
      /* OpenCL C 3.1: size_t and ptrdiff_t, 64 bits on this device; not for vectors. */
      c->len[0] = *s++;
   }
   c->conv = *s;
   return c->conv && strchr("diouxXcsfFeEgGaAp", c->conv) && s[1] == 0;
}

static bool
is_float_conv(char conv)
{
   return strchr("fFeEgGaA", conv) != NULL;
}

/* Element size in bytes a conversion reads; `size` is the whole argument's size. */
static uint32_t
element_size(const struct conv_spec *c, uint32_t size)
{
   if (!strcmp(c->len, "hh"))
      return 1;
   if (!strcmp(c->len, "h"))
      return 2;
   if (!strcmp(c->len, "hl"))
      return 4;
   if (!strcmp(c->len, "l") || !strcmp(c->len, "z") || !strcmp(c->len, "t"))
      return 8;
   if (c->vec) /* a vector needs a length modifier; 4-byte elements as a fallback */
      return 4;
   return size >= 8 ? 8 : size == 0 ? 4 : size;
}

static double
half_to_double(uint16_t h)
{
   uint32_t sign = h >> 15, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
   double v;
   if (exp == 0)
      v = man * 0x1p-24;
   else if (exp == 31)
      v = man ? __builtin_nan("") : __builtin_inf();
   else
      v = (1024 + man) * __builtin_ldexp(1.0, (int)exp - 25);
   return sign ? -v : v;
}

/* Prints one element (`esize` bytes at `p`) with the C format `fmt` built from `c`. */
static void
print_element(const struct conv_spec *c, const char *prefix, const unsigned char *p,
              uint32_t esize)
{
   char fmt[48];
   if (is_float_conv(c->conv)) {
      double d = 0;
      if (esize == 2) {
         uint16_t h;
         memcpy(&h, p, 2);
         d = half_to_double(h);
      } else if (esize == 4) {
         float f;
         memcpy(&f, p, 4);
         d = f;
      } else if (esize == 8) {
         memcpy(&d, p, 8);
      }
      snprintf(fmt, sizeof(fmt), "%s%c", prefix, c->conv);
      printf(fmt, d);
      return;
   }
   uint64_t u = 0;
   memcpy(&u, p, esize < 8 ? esize : 8);
   if (c->conv == 'p') {
      snprintf(fmt, sizeof(fmt), "%sp", prefix);
      printf(fmt, (void *)(uintptr_t)u);
      return;
   }
   if (c->conv == 'c') {
      snprintf(fmt, sizeof(fmt), "%sc", prefix);
      printf(fmt, (int)(unsigned char)u);
      return;
   }
   /* Integers: the value truncated to the element's size, sign- or zero-extended as the
    * conversion reads it, printed as a 64-bit value. */
   unsigned bits = esize >= 8 ? 64 : esize * 8;
   bool is_signed = c->conv == 'd' || c->conv == 'i';
   if (bits < 64) {
      uint64_t mask = (1ull << bits) - 1;
      u &= mask;
      if (is_signed && (u >> (bits - 1)))
         u |= ~mask;
   }
   snprintf(fmt, sizeof(fmt), "%sll%c", prefix, c->conv);
   if (is_signed)
      printf(fmt, (long long)u);
   else
      printf(fmt, (unsigned long long)u);
}

/* Prints one conversion `spec` (NUL-terminated, "%...c") with the argument bytes at `arg`
 * of `size`. A specification that is not OpenCL printf is printed as written. */
static void
print_conversion(const char *spec, const unsigned char *arg, uint32_t size)
{
   struct conv_spec c;
   if (!parse_spec(spec, &c) || (c.vec && (c.conv == 's' || c.conv == 'c' || c.conv == 'p'))) {
      fputs(spec, stdout);
      return;
   }
   char prefix[40];
   snprintf(prefix, sizeof(prefix), "%%%s%s%s", c.flags, c.width, c.precision);
   if (c.conv == 's') {
      /* The string's bytes are in the record, not necessarily NUL-terminated: print at
       * most `size` of them, fewer when the application's precision says so. */
      int n = (int)strnlen((const char *)arg, size);
      if (c.precision[0] && atoi(c.precision + 1) < n)
         n = atoi(c.precision + 1);
      char fmt[48];
      snprintf(fmt, sizeof(fmt), "%%%s%s.*s", c.flags, c.width);
      printf(fmt, n, (const char *)arg);
      return;
   }
   /* Elements sit in `stride`-byte slots: the compiler pads 3-vectors to 4 elements and
    * widens the elements of small vectors (a uchar2 is two 4-byte slots); the slot's low
    * `esize` bytes are the value (integers), or its size is the float type it holds. */
   uint32_t esize = element_size(&c, size);
   unsigned count = c.vec ? c.vec : 1;
   unsigned slots = c.vec == 3 ? 4 : count;
   uint32_t stride = size / slots;
   if (!c.vec || stride == 0 || stride * slots != size || stride > 8 || stride < esize)
      stride = esize;
   if (is_float_conv(c.conv) && (stride == 2 || stride == 4 || stride == 8))
      esize = stride;
   for (unsigned i = 0; i < count; i++) {
      if ((uint64_t)i * stride + esize > size)
         break; /* the record is shorter than the format says: print what is there */
      if (i)
         putchar(',');
      print_element(&c, prefix, arg + (size_t)i * stride, esize);
   }
}

/* Formats one record (format id, then arguments) and returns its size, or 0 when it does
 * not parse (the rest of the buffer is then dropped). */
static size_t
print_record(const struct comp_program_info *info, const unsigned char *rec, size_t avail)
{
   if (avail < 4)
      return 0;
   uint32_t id;
   memcpy(&id, rec, 4);
   const struct comp_printf_info *pf = NULL;
   for (uint32_t i = 0; i < info->num_printfs; i++) {
      if (info->printfs[i].id == id)
         pf = &info->printfs[i];
   }
   if (!pf)
      return 0;
   size_t total = 4;
   for (uint32_t i = 0; i < pf->num_args; i++)
      total += pf->arg_sizes[i];
   if (total > avail)
      return 0;
   const unsigned char *arg = rec + 4;
   uint32_t argi = 0;
   const char *f = pf->format;
   char spec[64];
   while (*f) {
      if (*f != '%') {
         putchar(*f++);
         continue;
      }
      if (f[1] == '%') {
         putchar('%');
         f += 2;
         continue;
      }
      size_t n = 1;
      while (f[n] && !strchr("diouxXcsfFeEgGaAp", f[n]) && n < sizeof(spec) - 2)
         n++;
      memcpy(spec, f, n + 1);
      spec[n + 1] = 0;
      f += f[n] ? n + 1 : n;
      if (argi < pf->num_args) {
         print_conversion(spec, arg, pf->arg_sizes[argi]);
         arg += pf->arg_sizes[argi++];
      }
   }
   return total;
}

void
disp_printf_flush(const struct comp_program_info *info, const unsigned char *buf)
{
   uint32_t used, size;
   memcpy(&used, buf, 4);
   memcpy(&size, buf + 4, 4);
   if (used > size - 8)
      used = size - 8;
   size_t off = 0;
   while (off < used) {
      size_t n = print_record(info, buf + 8 + off, used - off);
      if (!n) {
         icd_log(ICD_LOG_WARN, "dispatch", "printf buffer: record at %zu does not parse; "
                 "dropping the rest", off);
         break;
      }
      off += n;
   }
   if (used + 64 >= size - 8)
      icd_log(ICD_LOG_WARN, "dispatch", "printf buffer of %u bytes full: output of later "
              "printf calls of this launch was dropped", size);
   fflush(stdout);
}
