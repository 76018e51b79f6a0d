/*
 * DS: local data share ([ISA] chapter 11 "Data share operations", 12.x "DS instructions").
 * ADDR = VGPR[ADDR] + {OFFSET1, OFFSET0} for single-address ops; read2/write2 address
 * VGPR[ADDR] + OFFSETn * size (st64: * 64 * size). The work-group's waves never run
 * concurrently, so LDS read-modify-writes need no host atomics. An access beyond the
 * allocation faults the dispatch. M0 does not clamp LDS on GFX9. GDS is not modelled:
 * an instruction with the GDS bit faults.
 */
#include <math.h>
#include <stdio.h>
#include "sim_isa_priv.h"

static inline uint32_t
ds_offset(const sim_inst *in)
{
   return (uint32_t)in->imm | (uint32_t)in->mem.offset1 << 8;
}

/* GDS is not modelled (no queue has a GDS allocation here): the GDS form (GDS bit set) of
 * every DS instruction faults instead of touching LDS. */
static bool
ds_no_gds(sim_wave *w, const sim_inst *in)
{
   if (in->flags & SIM_IF_GDS) {
      sim__fault_illegal(w, in, "GDS access (no GDS is allocated)");
      return false;
   }
   return true;
}

static inline bool
ds_rows(sim_wave *w, const sim_inst *in, const uint32_t **addr)
{
   if (!ds_no_gds(w, in))
      return false;
   *addr = sim__vrow(w, in, in->mem.addr);
   return *addr != NULL;
}

/* True when every active lane's `bytes` at A[l] + off lie inside the LDS allocation (the
 * same test as sim__lds_ptr, on all lanes at once): the lane loops then skip the per-lane
 * check. Otherwise they check each lane and fault at the first bad one, as before. */
static inline const uint8_t *
ds_inside(const sim_wave *w, const uint32_t *A, uint32_t off, uint32_t bytes, uint64_t m)
{
   uint32_t size = w->wg->lds_size;
   if (size < bytes)
      return NULL;
   uint32_t lim = size - bytes;
   uint8_t bad[64];
   for (unsigned l = 0; l < 64; l++)
      bad[l] = A[l] + off > lim;
   return sim__lanes_pack(bad) & m ? NULL : w->wg->lds;
}

/* True when every lane is active and lane l addresses A[0] + 4 * l (one block). */
static inline bool
ds_unit(const uint32_t *A, uint64_t m)
{
   if (m != ~0ull || A[0] > UINT32_MAX - 252)
      return false;
   uint32_t apart = 0, e = A[0];
   for (unsigned l = 0; l < 64; l++, e += 4)
      apart |= A[l] ^ e;
   return !apart;
}

/* Dword accesses whose lanes ds_inside has checked: one block, every lane, or the set bits
 * of EXEC in lane order (a later lane's store to the same address wins). A lane's address
 * is read before its own destination is written: vdst may be the address VGPR. */
static void
ds_dword_read(uint32_t *d, const uint8_t *lds, const uint32_t *A, uint32_t off, uint64_t m)
{
   if (ds_unit(A, m)) {
      memcpy(d, lds + (uint32_t)(A[0] + off), 256);
      return;
   }
   if (m == ~0ull) {
      for (unsigned l = 0; l < 64; l++)
         memcpy(&d[l], lds + (uint32_t)(A[l] + off), 4);
      return;
   }
   for (; m; m &= m - 1) {
      unsigned l = (unsigned)__builtin_ctzll(m);
      memcpy(&d[l], lds + (uint32_t)(A[l] + off), 4);
   }
}

static void
ds_dword_write(uint8_t *lds, const uint32_t *A, uint32_t off, const uint32_t *s, uint64_t m)
{
   if (ds_unit(A, m)) {
      memcpy(lds + (uint32_t)(A[0] + off), s, 256);
      return;
   }
   for (; m; m &= m - 1) {
      unsigned l = (unsigned)__builtin_ctzll(m);
      memcpy(lds + (uint32_t)(A[l] + off), &s[l], 4);
   }
}

/* RETURN_DATA = MEM[ADDR] for `n` dwords, or a sub-dword value extended to 32 bits. */
static void
ds_read(sim_wave *w, const sim_inst *in, unsigned bytes, bool sx)
{
   const uint32_t *A;
   if (!ds_rows(w, in, &A))
      return;
   unsigned n = bytes < 4 ? 1 : bytes / 4;
   uint32_t *d[4];
   for (unsigned k = 0; k < n; k++)
      if (!(d[k] = sim__vrow(w, in, in->vdst + k)))
         return;
   uint64_t m = SIM_EXEC(w);
   uint32_t off = ds_offset(in);
   const uint8_t *lds = ds_inside(w, A, off, bytes, m);
   if (lds && bytes == 4) {
      ds_dword_read(d[0], lds, A, off, m);
      return;
   }
   for (unsigned l = 0; l < 64; l++) {
      if (!((m >> l) & 1))
         continue;
      const uint8_t *p = lds ? lds + (uint32_t)(A[l] + off) : sim__lds_ptr(w, A[l] + off, bytes);
      if (!p)
         return;
      if (bytes == 1)
         d[0][l] = sx ? (uint32_t)(int32_t)(int8_t)p[0] : p[0];
      else if (bytes == 2) {
         uint16_t h;
         memcpy(&h, p, 2);
         d[0][l] = sx ? (uint32_t)(int32_t)(int16_t)h : h;
      } else
         for (unsigned k = 0; k < n; k++)
            memcpy(&d[k][l], p + 4 * k, 4);
   }
}

/* D16 loads: RETURN_DATA[15:0] (or [31:16] for _hi) = MEM[ADDR] extended to 16 bits; the
 * other half of the VGPR is preserved. */
static void
ds_read_d16(sim_wave *w, const sim_inst *in, unsigned bytes, bool sx, bool hi)
{
   const uint32_t *A;
   if (!ds_rows(w, in, &A))
      return;
   uint32_t *d = sim__vrow(w, in, in->vdst);
   if (!d)
      return;
   uint64_t m = SIM_EXEC(w);
   uint32_t off = ds_offset(in);
   for (unsigned l = 0; l < 64; l++) {
      if (!((m >> l) & 1))
         continue;
      const uint8_t *p = sim__lds_ptr(w, A[l] + off, bytes);
      if (!p)
         return;
      uint16_t v;
      if (bytes == 1) {
         v = sx ? (uint16_t)(int16_t)(int8_t)p[0] : p[0];
      } else {
         memcpy(&v, p, 2);
      }
      d[l] = hi ? (d[l] & 0xFFFFu) | ((uint32_t)v << 16) : (d[l] & 0xFFFF0000u) | v;
   }
}

#define READ_D16(name, bytes, sx, hi)                                                       \
   void sim__op_##name(sim_wave *w, const sim_inst *in)                                      \
   {                                                                                        \
      ds_read_d16(w, in, bytes, sx, hi);                                                    \
   }
READ_D16(ds_read_u8_d16, 1, false, false)
READ_D16(ds_read_u8_d16_hi, 1, false, true)
READ_D16(ds_read_i8_d16, 1, true, false)
READ_D16(ds_read_i8_d16_hi, 1, true, true)
READ_D16(ds_read_u16_d16, 2, false, false)
READ_D16(ds_read_u16_d16_hi, 2, false, true)

/* MEM[ADDR] = DATA (bytes from the low end, or bits 31:16 for the d16_hi forms). */
static void
ds_write(sim_wave *w, const sim_inst *in, unsigned bytes, bool hi)
{
   const uint32_t *A;
   if (!ds_rows(w, in, &A))
      return;
   unsigned n = bytes < 4 ? 1 : bytes / 4;
   const uint32_t *s[4];
   for (unsigned k = 0; k < n; k++)
      if (!(s[k] = sim__vrow(w, in, in->mem.data0 + k)))
         return;
   uint64_t m = SIM_EXEC(w);
   uint32_t off = ds_offset(in);
   uint8_t *lds = (uint8_t *)ds_inside(w, A, off, bytes, m);
   if (lds && bytes == 4 && !hi) {
      ds_dword_write(lds, A, off, s[0], m);
      return;
   }
   for (unsigned l = 0; l < 64; l++) {
      if (!((m >> l) & 1))
         continue;
      uint8_t *p = lds ? lds + (uint32_t)(A[l] + off) : sim__lds_ptr(w, A[l] + off, bytes);
      if (!p)
         return;
      if (bytes < 4) {
         uint32_t v = hi ? s[0][l] >> 16 : s[0][l];
         memcpy(p, &v, bytes);
      } else {
         for (unsigned k = 0; k < n; k++)
            memcpy(p + 4 * k, &s[k][l], 4);
      }
   }
}

/* Two accesses of `size` (4 or 8) bytes at ADDR + OFFSET0 * stride and ADDR + OFFSET1 *
 * stride; stride = size (or 64 * size for st64). */
static void
ds_2addr(sim_wave *w, const sim_inst *in, unsigned size, unsigned scale, bool write)
{
   const uint32_t *A;
   if (!ds_rows(w, in, &A))
      return;
   unsigned nd = size / 4;
   uint32_t *r[4];
   for (unsigned k = 0; k < 2 * nd; k++) {
      unsigned reg = write ? (k < nd ? in->mem.data0 + k : in->mem.data1 + k - nd)
                           : in->vdst + k;
      if (!(r[k] = sim__vrow(w, in, reg)))
         return;
   }
   uint64_t m = SIM_EXEC(w);
   uint32_t o0 = (uint32_t)in->imm * size * scale, o1 = in->mem.offset1 * size * scale;
   uint8_t *lds = (uint8_t *)ds_inside(w, A, o0, size, m);
   if (lds && !ds_inside(w, A, o1, size, m))
      lds = NULL;
   for (unsigned l = 0; l < 64; l++) {
      if (!((m >> l) & 1))
         continue;
      uint8_t *p0, *p1;
      if (lds) {
         p0 = lds + (uint32_t)(A[l] + o0);
         p1 = lds + (uint32_t)(A[l] + o1);
      } else {
         p0 = sim__lds_ptr(w, A[l] + o0, size);
         p1 = p0 ? sim__lds_ptr(w, A[l] + o1, size) : NULL;
      }
      if (!p1)
         return;
      for (unsigned k = 0; k < nd; k++) {
         if (write) {
            memcpy(p0 + 4 * k, &r[k][l], 4);
            memcpy(p1 + 4 * k, &r[nd + k][l], 4);
         } else {
            memcpy(&r[k][l], p0 + 4 * k, 4);
            memcpy(&r[nd + k][l], p1 + 4 * k, 4);
         }
      }
   }
}

#define READ(name, bytes, sx)                                                               \
   void sim__op_##name(sim_wave *w, const sim_inst *in)                                      \
   {                                                                                        \
      ds_read(w, in, bytes, sx);                                                            \
   }
#define WRITE(name, bytes, hi)                                                              \
   void sim__op_##name(sim_wave *w, const sim_inst *in)                                      \
   {                                                                                        \
      ds_write(w, in, bytes, hi);                                                           \
   }
#define TWO(name, size, scale, wr)                                                          \
   void sim__op_##name(sim_wave *w, const sim_inst *in)                                      \
   {                                                                                        \
      ds_2addr(w, in, size, scale, wr);                                                     \
   }

/* RETURN_DATA = MEM[ADDR] (sign/zero-extended). */
READ(ds_read_u8, 1, false)
READ(ds_read_i8, 1, true)
READ(ds_read_u16, 2, false)
READ(ds_read_i16, 2, true)
READ(ds_read_b32, 4, false)
READ(ds_read_b64, 8, false)
READ(ds_read_b96, 12, false)
READ(ds_read_b128, 16, false)
/* MEM[ADDR] = DATA. */
WRITE(ds_write_b8, 1, false)
WRITE(ds_write_b16, 2, false)
WRITE(ds_write_b8_d16_hi, 1, true)
WRITE(ds_write_b16_d16_hi, 2, true)
WRITE(ds_write_b32, 4, false)
WRITE(ds_write_b64, 8, false)
WRITE(ds_write_b96, 12, false)
WRITE(ds_write_b128, 16, false)
/* RETURN_DATA[0] = MEM[ADDR_BASE + OFFSET0 * size]; RETURN_DATA[1] = MEM[.. OFFSET1 ..]. */
TWO(ds_read2_b32, 4, 1, false)
TWO(ds_read2_b64, 8, 1, false)
TWO(ds_read2st64_b32, 4, 64, false)
TWO(ds_read2st64_b64, 8, 64, false)
/* MEM[ADDR_BASE + OFFSET0 * size] = DATA; MEM[ADDR_BASE + OFFSET1 * size] = DATA2. */
TWO(ds_write2_b32, 4, 1, true)
TWO(ds_write2_b64, 8, 1, true)
TWO(ds_write2st64_b32, 4, 64, true)
TWO(ds_write2st64_b64, 8, 64, true)

/* Read-modify-write: tmp = MEM[ADDR]; MEM[ADDR] = op(tmp, DATA[, DATA2]); RETURN_DATA = tmp
 * for the _rtn forms. ds_cmpst: MEM = (tmp == DATA) ? DATA2 : tmp. */
enum { A_ADD, A_SUB, A_RSUB, A_INC, A_DEC, A_MIN_I, A_MAX_I, A_MIN_U, A_MAX_U, A_AND, A_OR,
       A_XOR, A_MSKOR, A_XCHG, A_CMPST, A_WRAP, A_ADD_F, A_MIN_F, A_MAX_F, A_CMPST_F, A_MOV };

/* Operations that read DATA2 (data1) as well as DATA. */
static inline bool
two_data(unsigned op)
{
   return op == A_CMPST || op == A_MSKOR || op == A_WRAP || op == A_CMPST_F;
}

/* The LDS float atomics (f32 add; f32/f64 min, max, compare-store) follow MODE's denormal
 * flushing (LLVM relies on LDS float atomics respecting the mode register, unlike the
 * older global ones); min/max return the other operand for a NaN one (sNaN as qNaN, as
 * MODE.IEEE = 0 would), -0 < +0; the compare is the float one (-0 == +0, NaN never
 * equal); an add's NaN is the VALU's (sim__nanfix32: MEM's NaN, else DATA's, quieted; inf
 * + -inf the default NaN, not the host's 0xFFC00000). */
static inline float
ds_flush32(float x, bool flush)
{
   return flush && fpclassify(x) == FP_SUBNORMAL ? copysignf(0.0f, x) : x;
}

static inline double
ds_flush64(double x, bool flush)
{
   return flush && fpclassify(x) == FP_SUBNORMAL ? copysign(0.0, x) : x;
}

static uint64_t
rmw_float(const sim_wave *w, unsigned op, uint64_t t, uint64_t d, uint64_t d2, bool wide)
{
   if (wide) {
      bool fi = !(w->denorm16_64 & 1), fo = !(w->denorm16_64 & 2);
      double a = ds_flush64(sim__as_f64(t), fi), b = ds_flush64(sim__as_f64(d), fi);
      switch (op) {
      case A_MIN_F: return sim__as_u64(ds_flush64(sim__fmin64(a, b, false), fo));
      case A_MAX_F: return sim__as_u64(ds_flush64(sim__fmax64(a, b, false), fo));
      case A_ADD_F: return sim__as_u64(ds_flush64(sim__nanfix64(a + b, a, b, 0.0), fo));
      default: return a == b ? d2 : t;
      }
   }
   bool fi = !(w->denorm32 & 1), fo = !(w->denorm32 & 2);
   float a = ds_flush32(sim__as_f32((uint32_t)t), fi), b = ds_flush32(sim__as_f32((uint32_t)d), fi);
   switch (op) {
   case A_MIN_F: return sim__as_u32(ds_flush32(sim__fmin32(a, b, false), fo));
   case A_MAX_F: return sim__as_u32(ds_flush32(sim__fmax32(a, b, false), fo));
   case A_ADD_F: return sim__as_u32(ds_flush32(sim__nanfix32(a + b, a, b, 0.0f), fo));
   default: return a == b ? d2 : t;
   }
}

static uint64_t
rmw(const sim_wave *w, unsigned op, uint64_t t, uint64_t d, uint64_t d2, bool wide)
{
   uint64_t mask = wide ? ~0ull : 0xFFFFFFFFull;
   int64_t st = wide ? (int64_t)t : (int32_t)t, sd = wide ? (int64_t)d : (int32_t)d;
   switch (op) {
   case A_ADD: return (t + d) & mask;
   case A_SUB: return (t - d) & mask;
   case A_RSUB: return (d - t) & mask;
   case A_INC: return t >= d ? 0 : (t + 1) & mask;
   case A_DEC: return (t == 0 || t > d) ? d : t - 1;
   case A_MIN_I: return st < sd ? t : d;
   case A_MAX_I: return st > sd ? t : d;
   case A_MIN_U: return t < d ? t : d;
   case A_MAX_U: return t > d ? t : d;
   case A_AND: return t & d;
   case A_OR: return t | d;
   case A_XOR: return t ^ d;
   case A_MSKOR: return (t & ~d) | d2;
   case A_XCHG: return d;
   case A_WRAP: return ((t >= d ? t - d : t + d2) & mask);
   case A_MOV: return d;
   case A_ADD_F:
   case A_MIN_F:
   case A_MAX_F:
   case A_CMPST_F: return rmw_float(w, op, t, d, d2, wide);
   default: return t == d ? d2 : t;
   }
}

static void
ds_atomic(sim_wave *w, const sim_inst *in, unsigned op, bool wide, bool rtn)
{
   const uint32_t *A;
   if (!ds_rows(w, in, &A))
      return;
   unsigned nd = wide ? 2 : 1;
   const uint32_t *d0[2], *d1[2] = {NULL, NULL};
   uint32_t *r[2] = {NULL, NULL};
   for (unsigned k = 0; k < nd; k++) {
      if (!(d0[k] = sim__vrow(w, in, in->mem.data0 + k)))
         return;
      if (two_data(op) && !(d1[k] = sim__vrow(w, in, in->mem.data1 + k)))
         return;
      if (rtn && !(r[k] = sim__vrow(w, in, in->vdst + k)))
         return;
   }
   uint64_t m = SIM_EXEC(w);
   uint32_t off = ds_offset(in);
   for (unsigned l = 0; l < 64; l++) {
      if (!((m >> l) & 1))
         continue;
      uint8_t *p = sim__lds_ptr(w, A[l] + off, nd * 4);
      if (!p)
         return;
      uint64_t t = 0, d = d0[0][l], d2 = d1[0] ? d1[0][l] : 0;
      memcpy(&t, p, nd * 4);
      if (wide) {
         d |= (uint64_t)d0[1][l] << 32;
         if (d1[1])
            d2 |= (uint64_t)d1[1][l] << 32;
      }
      uint64_t v = rmw(w, op, t, d, d2, wide);
      memcpy(p, &v, nd * 4);
      if (rtn) {
         r[0][l] = (uint32_t)t;
         if (wide)
            r[1][l] = (uint32_t)(t >> 32);
      }
   }
}

#define ATOM(name, op, wide, rtn)                                                           \
   void sim__op_##name(sim_wave *w, const sim_inst *in)                                      \
   {                                                                                        \
      ds_atomic(w, in, op, wide, rtn);                                                      \
   }
#define ATOM4(base, op)                                                                     \
   ATOM(ds_##base##_u32, op, false, false)                                                  \
   ATOM(ds_##base##_rtn_u32, op, false, true)                                               \
   ATOM(ds_##base##_u64, op, true, false)                                                   \
   ATOM(ds_##base##_rtn_u64, op, true, true)
#define ATOM4I(base, op)                                                                    \
   ATOM(ds_##base##_i32, op, false, false)                                                  \
   ATOM(ds_##base##_rtn_i32, op, false, true)                                               \
   ATOM(ds_##base##_i64, op, true, false)                                                   \
   ATOM(ds_##base##_rtn_i64, op, true, true)
#define ATOM4B(base, op)                                                                    \
   ATOM(ds_##base##_b32, op, false, false)                                                  \
   ATOM(ds_##base##_rtn_b32, op, false, true)                                               \
   ATOM(ds_##base##_b64, op, true, false)                                                   \
   ATOM(ds_##base##_rtn_b64, op, true, true)
ATOM4(add, A_ADD)
ATOM4(sub, A_SUB)
ATOM4(rsub, A_RSUB)
ATOM4(inc, A_INC)
ATOM4(dec, A_DEC)
ATOM4I(min, A_MIN_I)
ATOM4I(max, A_MAX_I)
ATOM4(min, A_MIN_U)
ATOM4(max, A_MAX_U)
ATOM4B(and, A_AND)
ATOM4B(or, A_OR)
ATOM4B(xor, A_XOR)
ATOM4B(mskor, A_MSKOR)
ATOM4B(cmpst, A_CMPST)
ATOM(ds_wrxchg_rtn_b32, A_XCHG, false, true)
ATOM(ds_wrxchg_rtn_b64, A_XCHG, true, true)
/* Float atomics: MEM = MEM + DATA (f32), min/max(MEM, DATA), MEM = (MEM == DATA) ? DATA2 :
 * MEM (compared as floats). */
ATOM(ds_add_f32, A_ADD_F, false, false)
ATOM(ds_add_rtn_f32, A_ADD_F, false, true)
ATOM(ds_add_f64, A_ADD_F, true, false) /* gfx90a */
ATOM(ds_add_rtn_f64, A_ADD_F, true, true)
ATOM(ds_min_f32, A_MIN_F, false, false)
ATOM(ds_min_rtn_f32, A_MIN_F, false, true)
ATOM(ds_max_f32, A_MAX_F, false, false)
ATOM(ds_max_rtn_f32, A_MAX_F, false, true)
ATOM(ds_cmpst_f32, A_CMPST_F, false, false)
ATOM(ds_cmpst_rtn_f32, A_CMPST_F, false, true)
ATOM(ds_min_f64, A_MIN_F, true, false)
ATOM(ds_min_rtn_f64, A_MIN_F, true, true)
ATOM(ds_max_f64, A_MAX_F, true, false)
ATOM(ds_max_rtn_f64, A_MAX_F, true, true)
ATOM(ds_cmpst_f64, A_CMPST_F, true, false)
ATOM(ds_cmpst_rtn_f64, A_CMPST_F, true, true)
/* tmp = MEM; MEM = (tmp >= DATA) ? tmp - DATA : tmp + DATA2; RETURN_DATA = tmp (a ring
 * buffer index that wraps). */
ATOM(ds_wrap_rtn_b32, A_WRAP, false, true)

/* Two exchanges: RETURN_DATA[0] = MEM[ADDR + OFFSET0 * size], which becomes DATA;
 * RETURN_DATA[1] = MEM[ADDR + OFFSET1 * size], which becomes DATA2 (size 4 or 8; st64:
 * offsets in units of 64 * size). */
static void
ds_wrxchg2(sim_wave *w, const sim_inst *in, unsigned size, unsigned scale)
{
   const uint32_t *A;
   if (!ds_rows(w, in, &A))
      return;
   unsigned nd = size / 4;
   const uint32_t *d[4];
   uint32_t *r[4];
   for (unsigned k = 0; k < 2 * nd; k++) {
      if (!(d[k] = sim__vrow(w, in, k < nd ? in->mem.data0 + k : in->mem.data1 + k - nd)) ||
          !(r[k] = sim__vrow(w, in, in->vdst + k)))
         return;
   }
   uint64_t m = SIM_EXEC(w);
   uint32_t o[2] = {(uint32_t)in->imm * size * scale, in->mem.offset1 * size * scale};
   for (unsigned l = 0; l < 64; l++) {
      if (!((m >> l) & 1))
         continue;
      uint32_t old[4], nv[4];
      uint8_t *p[2];
      for (unsigned j = 0; j < 2; j++)
         if (!(p[j] = sim__lds_ptr(w, A[l] + o[j], size)))
            return;
      for (unsigned k = 0; k < 2 * nd; k++)
         nv[k] = d[k][l];
      /* both old values are read before either store (the two may be one address) */
      memcpy(old, p[0], size);
      memcpy(old + nd, p[1], size);
      memcpy(p[0], nv, size);
      memcpy(p[1], nv + nd, size);
      for (unsigned k = 0; k < 2 * nd; k++)
         r[k][l] = old[k];
   }
}

void
sim__op_ds_wrxchg2_rtn_b32(sim_wave *w, const sim_inst *in)
{
   ds_wrxchg2(w, in, 4, 1);
}
void
sim__op_ds_wrxchg2_rtn_b64(sim_wave *w, const sim_inst *in)
{
   ds_wrxchg2(w, in, 8, 1);
}
void
sim__op_ds_wrxchg2st64_rtn_b32(sim_wave *w, const sim_inst *in)
{
   ds_wrxchg2(w, in, 4, 64);
}
void
sim__op_ds_wrxchg2st64_rtn_b64(sim_wave *w, const sim_inst *in)
{
   ds_wrxchg2(w, in, 8, 64);
}

/* DS_WRITE_ADDTID_B32: MEM[M0[15:0] + OFFSET + TID * 4] = DATA; DS_READ_ADDTID_B32:
 * RETURN_DATA = MEM[M0[15:0] + OFFSET + TID * 4]. No ADDR VGPR: lane l addresses dword l. */
static void
ds_addtid(sim_wave *w, const sim_inst *in, bool write)
{
   if (!ds_no_gds(w, in))
      return;
   uint32_t *v = sim__vrow(w, in, write ? in->mem.data0 : in->vdst);
   if (!v)
      return;
   uint64_t m = SIM_EXEC(w);
   uint32_t base = (SIM_M0(w) & 0xFFFF) + ds_offset(in);
   for (unsigned l = 0; l < 64; l++) {
      if (!((m >> l) & 1))
         continue;
      uint8_t *p = sim__lds_ptr(w, base + 4 * l, 4);
      if (!p)
         return;
      if (write)
         memcpy(p, &v[l], 4);
      else
         memcpy(&v[l], p, 4);
   }
}

void
sim__op_ds_write_addtid_b32(sim_wave *w, const sim_inst *in)
{
   ds_addtid(w, in, true);
}
void
sim__op_ds_read_addtid_b32(sim_wave *w, const sim_inst *in)
{
   ds_addtid(w, in, false);
}

/* Conditional write exchange of two dwords (the Vega guide names it; AMD's later guides
 * spell it out): A0 = (ADDR + OFFSET) & ~7, A1 = A0 + 4; RETURN_DATA[0] = MEM[A0], and if
 * DATA[31] then MEM[A0] = {0, DATA[30:0]}; RETURN_DATA[1] = MEM[A1], and if DATA[63] then
 * MEM[A1] = {0, DATA[62:32]}. */
void
sim__op_ds_condxchg32_rtn_b64(sim_wave *w, const sim_inst *in)
{
   const uint32_t *A, *d[2];
   uint32_t *r[2];
   if (!ds_rows(w, in, &A))
      return;
   for (unsigned k = 0; k < 2; k++)
      if (!(d[k] = sim__vrow(w, in, in->mem.data0 + k)) ||
          !(r[k] = sim__vrow(w, in, in->vdst + k)))
         return;
   uint64_t m = SIM_EXEC(w);
   uint32_t off = ds_offset(in);
   for (unsigned l = 0; l < 64; l++) {
      if (!((m >> l) & 1))
         continue;
      uint32_t *p = sim__lds_ptr(w, (A[l] + off) & ~7u, 8);
      if (!p)
         return;
      for (unsigned k = 0; k < 2; k++) {
         uint32_t old = p[k], x = d[k][l];
         if (x >> 31)
            p[k] = x & 0x7FFFFFFF;
         r[k][l] = old;
      }
   }
}

/* DS_APPEND / DS_CONSUME: one operation for the wave on the dword at M0[15:0] + OFFSET
 * (LLVM puts the LDS pointer in M0): every active lane receives the old value, and the
 * dword grows (shrinks) by the number of active lanes. Nothing happens when EXEC is 0. */
static void
ds_append(sim_wave *w, const sim_inst *in, bool consume)
{
   if (!ds_no_gds(w, in))
      return;
   uint64_t m = SIM_EXEC(w);
   if (!m)
      return;
   uint32_t *d = sim__vrow(w, in, in->vdst);
   uint32_t *p = d ? sim__lds_ptr(w, ((SIM_M0(w) & 0xFFFF) + ds_offset(in)) & ~3u, 4) : NULL;
   if (!p)
      return;
   uint32_t old = *p, n = (uint32_t)__builtin_popcountll(m);
   *p = consume ? old - n : old + n;
   for (unsigned l = 0; l < 64; l++)
      if ((m >> l) & 1)
         d[l] = old;
}

void
sim__op_ds_append(sim_wave *w, const sim_inst *in)
{
   ds_append(w, in, false);
}
void
sim__op_ds_consume(sim_wave *w, const sim_inst *in)
{
   ds_append(w, in, true);
}

/*
 * The _SRC2 forms: both operands in LDS, lane by lane in lane order, no VGPR data or result.
 *   OFFSET[15] = 1: A = ADDR[16:2] * 4 (ADDR & 0x1FFFC), B = A + 4 * sext16({ADDR[31],
 *                   ADDR[31:17]});
 *   OFFSET[15] = 0: A = ADDR, B = A + 4 * sext16({OFFSET[14], OFFSET[14:0]});
 *   MEM[A] = op(MEM[A], MEM[B]) (DS_WRITE_SRC2: MEM[A] = MEM[B]).
 * 64-bit forms align A, then B (A + 4 * step), to 8 bytes.
 */
static void
ds_src2(sim_wave *w, const sim_inst *in, unsigned op, bool wide)
{
   const uint32_t *A;
   if (!ds_rows(w, in, &A))
      return;
   uint64_t m = SIM_EXEC(w);
   uint32_t off = ds_offset(in), size = wide ? 8 : 4;
   for (unsigned l = 0; l < 64; l++) {
      if (!((m >> l) & 1))
         continue;
      uint32_t a, x = A[l];
      int32_t step;
      if (off & 0x8000) {
         a = x & 0x1FFFC;
         step = (int16_t)((x >> 17) | ((x >> 16) & 0x8000));
      } else {
         a = x;
         step = (int16_t)((off & 0x7FFF) | ((off << 1) & 0x8000));
      }
      a &= ~(size - 1);
      uint32_t b = (a + 4 * (uint32_t)step) & ~(size - 1);
      uint8_t *pa = sim__lds_ptr(w, a, size), *pb = pa ? sim__lds_ptr(w, b, size) : NULL;
      if (!pb)
         return;
      uint64_t t = 0, d = 0;
      memcpy(&t, pa, size);
      memcpy(&d, pb, size);
      uint64_t v = rmw(w, op, t, d, 0, wide);
      memcpy(pa, &v, size);
   }
}

#define SRC2(name, op, wide)                                                                \
   void sim__op_##name(sim_wave *w, const sim_inst *in)                                      \
   {                                                                                        \
      ds_src2(w, in, op, wide);                                                             \
   }
SRC2(ds_add_src2_u32, A_ADD, false)
SRC2(ds_sub_src2_u32, A_SUB, false)
SRC2(ds_rsub_src2_u32, A_RSUB, false)
SRC2(ds_inc_src2_u32, A_INC, false)
SRC2(ds_dec_src2_u32, A_DEC, false)
SRC2(ds_min_src2_i32, A_MIN_I, false)
SRC2(ds_max_src2_i32, A_MAX_I, false)
SRC2(ds_min_src2_u32, A_MIN_U, false)
SRC2(ds_max_src2_u32, A_MAX_U, false)
SRC2(ds_and_src2_b32, A_AND, false)
SRC2(ds_or_src2_b32, A_OR, false)
SRC2(ds_xor_src2_b32, A_XOR, false)
SRC2(ds_write_src2_b32, A_MOV, false)
SRC2(ds_min_src2_f32, A_MIN_F, false)
SRC2(ds_max_src2_f32, A_MAX_F, false)
SRC2(ds_add_src2_f32, A_ADD_F, false)
SRC2(ds_add_src2_u64, A_ADD, true)
SRC2(ds_sub_src2_u64, A_SUB, true)
SRC2(ds_rsub_src2_u64, A_RSUB, true)
SRC2(ds_inc_src2_u64, A_INC, true)
SRC2(ds_dec_src2_u64, A_DEC, true)
SRC2(ds_min_src2_i64, A_MIN_I, true)
SRC2(ds_max_src2_i64, A_MAX_I, true)
SRC2(ds_min_src2_u64, A_MIN_U, true)
SRC2(ds_max_src2_u64, A_MAX_U, true)
SRC2(ds_and_src2_b64, A_AND, true)
SRC2(ds_or_src2_b64, A_OR, true)
SRC2(ds_xor_src2_b64, A_XOR, true)
SRC2(ds_write_src2_b64, A_MOV, true)
SRC2(ds_min_src2_f64, A_MIN_F, true)
SRC2(ds_max_src2_f64, A_MAX_F, true)

/* Lane swizzle without LDS. The source is the ADDR VGPR (LLVM: DS_1A_RET, "ds_swizzle_b32
 * vdst, vaddr offset:..."; gem5 reads extData.ADDR). offset[15] = 1: quad permute, lane
 * 4q+i reads 4q + offset[2i+1:2i]; else within each 32-lane half, lane i reads ((i & and_mask) | or_mask)
 * ^ xor_mask with and/or/xor = offset[4:0], [9:5], [14:10]. Disabled source lanes read 0. */
void
sim__op_ds_swizzle_b32(sim_wave *w, const sim_inst *in)
{
   const uint32_t *A = sim__vrow(w, in, in->mem.addr);
   uint32_t *D = A ? sim__vrow(w, in, in->vdst) : NULL;
   if (!D)
      return;
   uint32_t off = ds_offset(in), r[64];
   uint64_t m = SIM_EXEC(w);
   for (unsigned l = 0; l < 64; l++) {
      unsigned s;
      if (off & 0x8000)
         s = (l & ~3u) | ((off >> (2 * (l & 3))) & 3);
      else
         s = (l & 32) | ((((l & 31) & (off & 31)) | ((off >> 5) & 31)) ^ ((off >> 10) & 31));
      r[l] = ((m >> s) & 1) ? A[s] : 0;
   }
   for (unsigned l = 0; l < 64; l++)
      if ((m >> l) & 1)
         D[l] = r[l];
}

/* Thread permutes through the LDS crossbar: ds_permute (push): D[ADDR[i]/4 % 64] = DATA[i];
 * ds_bpermute (pull): D[i] = DATA[ADDR[i]/4 % 64] (% 32 in a wave32). Lane ids are
 * VGPR[ADDR] + OFFSET. */
static void
permute(sim_wave *w, const sim_inst *in, bool back)
{
   const uint32_t *A = sim__vrow(w, in, in->mem.addr);
   const uint32_t *S = A ? sim__vrow(w, in, in->mem.data0) : NULL;
   uint32_t *D = S ? sim__vrow(w, in, in->vdst) : NULL;
   if (!D)
      return;
   uint64_t m = SIM_EXEC(w);
   uint32_t off = ds_offset(in), r[64] = {0};
   for (unsigned l = 0; l < 64; l++) {
      if (!((m >> l) & 1))
         continue;
      unsigned t = ((A[l] + off) >> 2) & (w->lanes - 1u);
      if (back)
         r[l] = ((m >> t) & 1) ? S[t] : 0;
      else
         r[t] = S[l];
   }
   for (unsigned l = 0; l < 64; l++)
      if ((m >> l) & 1)
         D[l] = r[l];
}

void
sim__op_ds_permute_b32(sim_wave *w, const sim_inst *in)
{
   permute(w, in, false);
}
void
sim__op_ds_bpermute_b32(sim_wave *w, const sim_inst *in)
{
   permute(w, in, true);
}

/* No-op. */
void
sim__op_ds_nop(sim_wave *w, const sim_inst *in)
{
}

/* Global wave sync (DS_GWS_*): sim_gws.c. */

/*
 * DS_ORDERED_COUNT ([ISA] 11.x "Global wave sync and atomic ordered count"): an add to a GDS
 * counter (address M0[31:16] (GDS base) + ADDR + OFFSET) performed in wave-creation
 * order — each wave's turn comes when every earlier wave of the ordered-append group has
 * done its own — returning the value before the add. It is an access to GDS whatever the
 * GDS bit says, and no queue has a GDS allocation here (GDSSizeInKB 0 on both front ends),
 * so it faults as every GDS access does (ds_no_gds) — on hardware an out-of-range GDS
 * access of a VMID with no GDS.
 */
void
sim__op_ds_ordered_count(sim_wave *w, const sim_inst *in)
{
   char why[96];
   snprintf(why, sizeof(why), "ds_ordered_count at GDS 0x%x: no GDS is allocated",
            (SIM_M0(w) >> 16) + ds_offset(in));
   sim__fault_illegal(w, in, why);
}
