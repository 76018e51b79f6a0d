/*
 * tests/compiler/api_subgroup_nu_test.c — cl_khr_subgroup_ballot, cl_khr_subgroup_non_uniform_vote,
 * cl_khr_subgroup_non_uniform_arithmetic and cl_khr_subgroup_clustered_reduce end to end
 * (OpenCL C 3.0 §6.15.19.x; hsacl's built-ins in compiler/comp_builtins_subgroup_nu.cl):
 * every built-in of the four extensions computed on the device and checked against a host
 * model of gfx9 sub-groups (a wavefront of 64 work-items; the last one of a work-group may
 * be partial; a non-uniform function sees only the *active* work-items).
 *
 * One kernel calls them all, for char, uchar, short, ushort, int, uint, long, ulong, float,
 * double and half (arithmetic: reduce, inclusive and exclusive scan and clustered reduce of
 * add, mul, min, max, and of and, or, xor on the integer types; broadcasts of scalars, T3
 * and T16; all_equal), logical and/or/xor on int, and the ballot, bit-field, mask and vote
 * functions. It runs in three launches (full sub-groups; a partial last sub-group; one
 * partial sub-group, whose maximum sub-group size is 48) times three activity patterns
 * (every work-item; odd sub-group local ids only; global ids that are multiples of 3,
 * inside an if), built at -O3 and with -cl-opt-disable. Inputs are small integers, mul's
 * are 1, -1 or 2: float sums and products are exact in any order, and the host combines in
 * increasing local id as the device does, so every result is compared bit for bit.
 *
 * The bit count and find functions and the ge/gt masks stop at the maximum sub-group size
 * (as SPIR-V's SubgroupSize and the Khronos CTS have it); ballot_bit_extract takes a
 * per-work-item index (the dynamic extract LLVM 19 once miscompiled).
 *
 * Argument "1.2" (run with HSACL_OPENCL_VERSION=1.2): the 1.2 profile reports none of the
 * four extensions; "2.0" (HSACL_OPENCL_VERSION=2.0): all four, in OpenCL C 2.0.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext.h>

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "hsacl_test.h"
#include "hsacl_cl_test.h"

static cl_device_id device;
static cl_context ctx;
static cl_command_queue queue;

enum { MAX_WAVE = 64, NTYPES = 11 };
/* The sub-group size: the device's wave size (64 on gfx9, 32 on gfx1030), which the host
 * model follows. */
static size_t WAVE = 64;

/* Per-type slots of one work-item (T each). */
enum {
   T_RED = 0,     /* reduce add(x), mul(m), min(x), max(x) */
   T_INC = 4,     /* inclusive scan, same four */
   T_EXC = 8,     /* exclusive scan */
   T_CL4 = 12,    /* clustered reduce, clustersize 4 */
   T_CL1 = 16,    /* clustered add, clustersize 1 */
   T_CL16 = 17,   /* clustered add, clustersize 16 */
   T_BITS = 18,   /* integers: and, or, xor of x, for reduce, inclusive, exclusive, clustered 4 */
   T_BCAST = 30,  /* non_uniform_broadcast(x, b) */
   T_FIRST = 31,  /* broadcast_first(x) */
   T_EQ_X = 32,   /* all_equal(x) != 0 */
   T_EQ_SID = 33, /* all_equal((T)sub-group id) != 0 */
   T_V3 = 34,     /* non_uniform_broadcast((T3)(x, m, x + x), b): 3 slots */
   T_V16 = 37,    /* non_uniform_broadcast(T16 of x with .sd = m, b): .s0, .sd */
   T_EQ_ODD = 39, /* all_equal((T)(lid & 1)) != 0 */
   NT = 40
};

/* Int slots of one work-item. */
enum {
   I_BALLOT = 0,  /* sub_group_ballot(in & 1): 4 words */
   I_INV = 4,     /* inverse_ballot(v) */
   I_EXTRACT = 5, /* ballot_bit_extract(v, (lid * 7 + 3) % 128) */
   I_COUNT = 6,
   I_ISCAN = 7,
   I_ESCAN = 8,
   I_LSB = 9,
   I_MSB = 10,
   I_LSB2 = 11, /* find_lsb(v2) */
   I_MSB2 = 12,
   I_MASK = 13, /* eq, ge, gt, le, lt: 4 words each */
   I_ALL = 33,  /* non_uniform_all(in & 1) != 0 */
   I_ANY = 34,
   I_ALL1 = 35, /* non_uniform_all(lid < 1000) != 0 */
   I_ANY0 = 36, /* non_uniform_any(lid > 1000) != 0 */
   I_ELECT = 37,
   I_LOGIC = 38, /* logical and, or, xor (li) x reduce, inclusive, exclusive, clustered 4 */
   NI = 50
};

/* The device computes, the host models, the same values. */
static const char src[] =
   "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
   "#if !defined(cl_khr_subgroup_ballot) || !defined(cl_khr_subgroup_non_uniform_vote) || \\\n"
   "    !defined(cl_khr_subgroup_non_uniform_arithmetic) || \\\n"
   "    !defined(cl_khr_subgroup_clustered_reduce)\n"
   "#error extension macros\n"
   "#endif\n"
   "#define NT 40\n"
   "#define NI 50\n"
   "#define AR(F, o, x, m, cs) o[0] = F##_add(x cs); o[1] = F##_mul(m cs);\\\n"
   "   o[2] = F##_min(x cs); o[3] = F##_max(x cs);\n"
   "#define NOCS\n"
   "#define CS4 , 4\n"
   "#define ARITH(o, x, m)\\\n"
   "   AR(sub_group_non_uniform_reduce, o, x, m, NOCS)\\\n"
   "   AR(sub_group_non_uniform_scan_inclusive, (o + 4), x, m, NOCS)\\\n"
   "   AR(sub_group_non_uniform_scan_exclusive, (o + 8), x, m, NOCS)\\\n"
   "   AR(sub_group_clustered_reduce, (o + 12), x, m, CS4)\\\n"
   "   o[16] = sub_group_clustered_reduce_add(x, 1);\\\n"
   "   o[17] = sub_group_clustered_reduce_add(x, 16);\n"
   "#define BL(F, o, x, cs) o[0] = F##_and(x cs); o[1] = F##_or(x cs); o[2] = F##_xor(x cs);\n"
   "#define BITS(o, x, P)\\\n"
   "   BL(sub_group_non_uniform_reduce##P, o, x, NOCS)\\\n"
   "   BL(sub_group_non_uniform_scan_inclusive##P, (o + 3), x, NOCS)\\\n"
   "   BL(sub_group_non_uniform_scan_exclusive##P, (o + 6), x, NOCS)\\\n"
   "   BL(sub_group_clustered_reduce##P, (o + 9), x, CS4)\n"
   "#define BCAST(T, o, x, m) o[30] = sub_group_non_uniform_broadcast(x, b);\\\n"
   "   o[31] = sub_group_broadcast_first(x);\\\n"
   "   o[32] = (T)(sub_group_non_uniform_all_equal(x) != 0);\\\n"
   "   o[33] = (T)(sub_group_non_uniform_all_equal((T)sid) != 0);\\\n"
   "   { T##3 v3 = sub_group_non_uniform_broadcast((T##3)(x, m, (T)(x + x)), b);\\\n"
   "     o[34] = v3.s0; o[35] = v3.s1; o[36] = v3.s2; }\\\n"
   "   { T##16 v = (T##16)(x); v.sd = m; v = sub_group_non_uniform_broadcast(v, b);\\\n"
   "     o[37] = v.s0; o[38] = v.sd; }\\\n"
   "   o[39] = (T)(sub_group_non_uniform_all_equal((T)(lid & 1)) != 0);\n"
   "#define INT(T, o, xe) { T x = (xe), m = (T)mv; global T *p = o + g * NT;\\\n"
   "   ARITH(p, x, m) BITS((p + 18), x, ) BCAST(T, p, x, m) }\n"
   "#define FP(T, o, xe) { T x = (xe), m = (T)mv; global T *p = o + g * NT;\\\n"
   "   ARITH(p, x, m) BCAST(T, p, x, m) }\n"
   "kernel void nu(global const int *in, global const uint *bidx, int mode,\n"
   "               global int *oi, global char *oc, global uchar *ouc, global short *os,\n"
   "               global ushort *ous, global int *o32, global uint *ou32, global long *ol,\n"
   "               global ulong *oul, global float *of, global double *od, global half *oh) {\n"
   "  size_t g = get_global_linear_id();\n"
   "  uint lid = get_sub_group_local_id(), sid = get_sub_group_id();\n"
   "  uint gs = get_group_id(0) * get_num_sub_groups() + sid;\n"
   "  bool act = mode == 0 || (mode == 1 && (lid & 1)) || (mode == 2 && g % 3 == 0);\n"
   "  if (act) {\n"
   "    int i = in[g], mv = (i & 7) == 0 ? 2 : (i & 7) == 1 ? -1 : 1;\n"
   "    int li = i % 3 == 0 ? 0 : i;\n"
   "    uint b = bidx[gs];\n"
   "    INT(char, oc, (char)i)\n"
   "    INT(uchar, ouc, (uchar)i)\n"
   "    INT(short, os, (short)(i * 37))\n"
   "    INT(ushort, ous, (ushort)(i * 37))\n"
   "    INT(int, o32, i * 1000003)\n"
   "    INT(uint, ou32, (uint)i * 2654435761u)\n"
   "    INT(long, ol, (long)i * 1000000007L)\n"
   "    INT(ulong, oul, (ulong)(uint)i << 32 | (uint)g)\n"
   "    FP(float, of, (float)i)\n"
   "    FP(double, od, (double)i * 0.5)\n"
   "    FP(half, oh, (half)(i % 9))\n"
   "    global int *q = oi + g * NI;\n"
   "    uint4 v = (uint4)(0x9E3779B9u * (gs + 1), 0x7F4A7C15u ^ (gs * 0x01000193u),\n"
   "                      0xFFFFFFFFu, 0x80000001u);\n"
   "    uint4 v2 = (uint4)(0u, (1u << (gs % 16)) | (1u << (gs * 7 % 32)), 0xF0u, 1u);\n"
   "    uint4 bal = sub_group_ballot(i & 1);\n"
   "    q[0] = bal.x; q[1] = bal.y; q[2] = bal.z; q[3] = bal.w;\n"
   "    q[4] = sub_group_inverse_ballot(v);\n"
   "    q[5] = sub_group_ballot_bit_extract(v, (lid * 7 + 3) % 128);\n"
   "    q[6] = sub_group_ballot_bit_count(v);\n"
   "    q[7] = sub_group_ballot_inclusive_scan(v);\n"
   "    q[8] = sub_group_ballot_exclusive_scan(v);\n"
   "    q[9] = sub_group_ballot_find_lsb(v);\n"
   "    q[10] = sub_group_ballot_find_msb(v);\n"
   "    q[11] = sub_group_ballot_find_lsb(v2);\n"
   "    q[12] = sub_group_ballot_find_msb(v2);\n"
   "    uint4 mk[5] = { get_sub_group_eq_mask(), get_sub_group_ge_mask(),\n"
   "                    get_sub_group_gt_mask(), get_sub_group_le_mask(),\n"
   "                    get_sub_group_lt_mask() };\n"
   "    for (int k = 0; k < 5; k++) {\n"
   "      q[13 + 4 * k] = mk[k].x; q[14 + 4 * k] = mk[k].y;\n"
   "      q[15 + 4 * k] = mk[k].z; q[16 + 4 * k] = mk[k].w;\n"
   "    }\n"
   "    q[33] = sub_group_non_uniform_all(i & 1) != 0;\n"
   "    q[34] = sub_group_non_uniform_any(i & 1) != 0;\n"
   "    q[35] = sub_group_non_uniform_all(lid < 1000u) != 0;\n"
   "    q[36] = sub_group_non_uniform_any(lid > 1000u) != 0;\n"
   "    q[37] = sub_group_elect() != 0;\n"
   "    BITS((q + 38), li, _logical)\n"
   "  }\n"
   "}\n";

/* ---- host model ---------------------------------------------------------------------- */

/* The active work-items of one sub-group, in increasing local id. */
struct sgrp {
   unsigned n, max_size, sid, gs;
   unsigned lane[MAX_WAVE];
   size_t gid[MAX_WAVE];
   unsigned b; /* the lane non_uniform_broadcast reads */
};

enum { M_RED, M_INC, M_EXC, M_CL };

static bool
takes(int mode, unsigned l, unsigned me, unsigned cs)
{
   switch (mode) {
   case M_RED:
      return true;
   case M_INC:
      return l <= me;
   case M_EXC:
      return l < me;
   default:
      return l / cs == me / cs;
   }
}

/* add mul min max and or xor */
#define OPS_INT(T, U, TMIN, TMAX)                                                                  \
   static T id_##T##_(int op)                                                                      \
   {                                                                                               \
      static const T ids[7] = { 0, 1, TMAX, TMIN, (T) ~(U)0, 0, 0 };                               \
      return ids[op];                                                                              \
   }                                                                                               \
   static T op_##T##_(int op, T a, T b)                                                            \
   {                                                                                               \
      switch (op) {                                                                                \
      case 0:                                                                                      \
         return (T)((U)a + (U)b);                                                                  \
      case 1:                                                                                      \
         return (T)((U)a * (U)b);                                                                  \
      case 2:                                                                                      \
         return b < a ? b : a;                                                                     \
      case 3:                                                                                      \
         return b > a ? b : a;                                                                     \
      case 4:                                                                                      \
         return (T)(a & b);                                                                        \
      case 5:                                                                                      \
         return (T)(a | b);                                                                        \
      default:                                                                                     \
         return (T)(a ^ b);                                                                        \
      }                                                                                            \
   }
#define OPS_FP(T, TMIN, TMAX)                                                                      \
   static T id_##T##_(int op)                                                                      \
   {                                                                                               \
      static const T ids[4] = { 0, 1, TMAX, TMIN };                                                \
      return ids[op];                                                                              \
   }                                                                                               \
   static T op_##T##_(int op, T a, T b)                                                            \
   {                                                                                               \
      switch (op) {                                                                                \
      case 0:                                                                                      \
         return (T)(a + b);                                                                        \
      case 1:                                                                                      \
         return (T)(a * b);                                                                        \
      case 2:                                                                                      \
         return b < a ? b : a;                                                                     \
      default:                                                                                     \
         return b > a ? b : a;                                                                     \
      }                                                                                            \
   }
typedef int8_t i8;
typedef uint8_t u8;
typedef int16_t i16;
typedef uint16_t u16;
typedef int32_t i32;
typedef uint32_t u32;
typedef int64_t i64;
typedef uint64_t u64;
typedef _Float16 f16;
OPS_INT(i8, uint32_t, INT8_MIN, INT8_MAX)
OPS_INT(u8, uint32_t, 0, UINT8_MAX)
OPS_INT(i16, uint32_t, INT16_MIN, INT16_MAX)
OPS_INT(u16, uint32_t, 0, UINT16_MAX)
OPS_INT(i32, uint32_t, INT32_MIN, INT32_MAX)
OPS_INT(u32, uint32_t, 0, UINT32_MAX)
OPS_INT(i64, uint64_t, INT64_MIN, INT64_MAX)
OPS_INT(u64, uint64_t, 0, UINT64_MAX)
OPS_FP(float, -INFINITY, INFINITY)
OPS_FP(double, -INFINITY, INFINITY)
OPS_FP(f16, (f16)-INFINITY, (f16)INFINITY)

/* Fills the slots of every active work-item of s; NBITS: 1 for integer types. */
#define MODEL(T, NBITS)                                                                            \
   static void model_##T(const struct sgrp *s, const T *x, const T *m, T *want)                    \
   {                                                                                               \
      for (unsigned i = 0; i < s->n; i++) {                                                        \
         unsigned me = s->lane[i];                                                                 \
         T *w = want + s->gid[i] * NT;                                                             \
         int nops = NBITS ? 7 : 4;                                                                 \
         for (int mode = M_RED; mode <= M_CL; mode++) {                                            \
            for (int op = 0; op < nops; op++) {                                                    \
               const T *v = op == 1 ? m : x;                                                       \
               T acc = id_##T##_(op);                                                              \
               for (unsigned k = 0; k < s->n; k++)                                                 \
                  if (takes(mode, s->lane[k], me, 4))                                              \
                     acc = op_##T##_(op, acc, v[s->gid[k]]);                                       \
               if (op < 4)                                                                         \
                  w[4 * mode + op] = acc;                                                          \
               else                                                                                \
                  w[T_BITS + 3 * mode + op - 4] = acc;                                             \
            }                                                                                      \
         }                                                                                         \
         T c1 = 0, c16 = 0;                                                                        \
         for (unsigned k = 0; k < s->n; k++) {                                                     \
            if (takes(M_CL, s->lane[k], me, 1))                                                    \
               c1 = op_##T##_(0, c1, x[s->gid[k]]);                                                \
            if (takes(M_CL, s->lane[k], me, 16))                                                   \
               c16 = op_##T##_(0, c16, x[s->gid[k]]);                                              \
         }                                                                                         \
         w[T_CL1] = c1, w[T_CL16] = c16;                                                           \
         size_t gb = 0;                                                                            \
         bool eq_x = true, eq_odd = true;                                                          \
         for (unsigned k = 0; k < s->n; k++) {                                                     \
            if (s->lane[k] == s->b)                                                                \
               gb = s->gid[k];                                                                     \
            eq_x &= x[s->gid[k]] == x[s->gid[0]];                                                  \
            eq_odd &= (s->lane[k] & 1) == (s->lane[0] & 1);                                        \
         }                                                                                         \
         w[T_BCAST] = x[gb];                                                                       \
         w[T_FIRST] = x[s->gid[0]];                                                                \
         w[T_EQ_X] = (T)eq_x;                                                                      \
         w[T_EQ_SID] = 1;                                                                          \
         w[T_V3] = x[gb], w[T_V3 + 1] = m[gb], w[T_V3 + 2] = (T)(x[gb] + x[gb]);                   \
         w[T_V16] = x[gb], w[T_V16 + 1] = m[gb];                                                   \
         w[T_EQ_ODD] = (T)eq_odd;                                                                  \
      }                                                                                            \
   }
MODEL(i8, 1)
MODEL(u8, 1)
MODEL(i16, 1)
MODEL(u16, 1)
MODEL(i32, 1)
MODEL(u32, 1)
MODEL(i64, 1)
MODEL(u64, 1)
MODEL(float, 0)
MODEL(double, 0)
MODEL(f16, 0)

/* Bit i of a 128-bit mask held as 4 words. */
static unsigned
bit_of(const uint32_t v[4], unsigned i)
{
   return v[i / 32] >> (i % 32) & 1;
}

static void
model_ints(const struct sgrp *s, const int *in, int32_t *want)
{
   unsigned gs = s->gs, maxs = s->max_size;
   uint32_t v[4] = { 0x9E3779B9u * (gs + 1), 0x7F4A7C15u ^ (gs * 0x01000193u), 0xFFFFFFFFu,
                     0x80000001u };
   uint32_t v2[4] = { 0, (1u << (gs % 16)) | (1u << (gs * 7 % 32)), 0xF0u, 1u };
   uint32_t bal[4] = { 0 };
   bool all = true, any = false;
   for (unsigned k = 0; k < s->n; k++) {
      if (in[s->gid[k]] & 1)
         bal[s->lane[k] / 32] |= 1u << (s->lane[k] % 32), any = true;
      else
         all = false;
   }
   for (unsigned i = 0; i < s->n; i++) {
      unsigned me = s->lane[i];
      int32_t *w = want + s->gid[i] * NI;
      for (int j = 0; j < 4; j++)
         w[I_BALLOT + j] = (int32_t)bal[j];
      w[I_INV] = (int)bit_of(v, me);
      w[I_EXTRACT] = (int)bit_of(v, (me * 7 + 3) % 128);
      int count = 0, iscan = 0, escan = 0, lsb = -1, msb = -1, lsb2 = -1, msb2 = -1;
      for (unsigned b = 0; b < maxs; b++) {
         if (bit_of(v, b)) {
            count++, iscan += b <= me, escan += b < me;
            lsb = lsb < 0 ? (int)b : lsb, msb = (int)b;
         }
         if (bit_of(v2, b))
            lsb2 = lsb2 < 0 ? (int)b : lsb2, msb2 = (int)b;
      }
      w[I_COUNT] = count, w[I_ISCAN] = iscan, w[I_ESCAN] = escan;
      w[I_LSB] = lsb, w[I_MSB] = msb, w[I_LSB2] = lsb2, w[I_MSB2] = msb2;
      for (unsigned b = 0; b < 128; b++) {
         bool in_mask[5] = { b == me, b >= me && b<maxs, b> me && b < maxs, b <= me, b < me };
         for (int k = 0; k < 5; k++)
            if (in_mask[k])
               w[I_MASK + 4 * k + b / 32] |= (int32_t)(1u << (b % 32));
      }
      w[I_ALL] = all, w[I_ANY] = any, w[I_ALL1] = 1, w[I_ANY0] = 0;
      w[I_ELECT] = i == 0;
      for (int mode = M_RED; mode <= M_CL; mode++) {
         int land = 1, lor = 0, lxor = 0;
         for (unsigned k = 0; k < s->n; k++) {
            if (!takes(mode, s->lane[k], me, 4))
               continue;
            int x = in[s->gid[k]], t = x % 3 == 0 ? 0 : x;
            land &= t != 0, lor |= t != 0, lxor ^= t != 0;
         }
         w[I_LOGIC + 3 * mode] = land, w[I_LOGIC + 3 * mode + 1] = lor;
         w[I_LOGIC + 3 * mode + 2] = lxor;
      }
   }
}

/* ---- one launch ----------------------------------------------------------------------- */

struct launch {
   const char *what;
   size_t global, local;
};

static const size_t sizes[NTYPES] = { 1, 1, 2, 2, 4, 4, 8, 8, 4, 8, 2 };
static const char *const names[NTYPES] = { "char", "uchar", "short", "ushort", "int", "uint",
                                           "long", "ulong", "float", "double", "half" };

static bool
active(int mode, unsigned lane, size_t g)
{
   return mode == 0 || (mode == 1 && (lane & 1)) || (mode == 2 && g % 3 == 0);
}

/* Compares the slots of the active work-items; inactive ones must keep the 0x5A fill. */
static int
compare(const char *what, const char *options, const struct launch *L, int mode,
        const unsigned char *got, const unsigned char *want, const bool *act, size_t slots,
        size_t elem, bool fp)
{
   int bad = 0;
   for (size_t g = 0; g < L->global; g++) {
      for (size_t s = 0; s < slots; s++) {
         if (fp && s >= T_BITS && s < T_BCAST)
            continue; /* and/or/xor: integer types only */
         const unsigned char *a = got + (g * slots + s) * elem;
         const unsigned char *b = want + (g * slots + s) * elem;
         bool ok = true;
         if (act[g])
            ok = !memcmp(a, b, elem);
         else
            for (size_t j = 0; j < elem; j++)
               ok &= a[j] == 0x5A;
         if (!ok) {
            if (bad < 5) {
               uint64_t x = 0, y = 0;
               memcpy(&x, a, elem);
               memcpy(&y, b, elem);
               fprintf(stderr,
                       "%s [%s] mode %d %s: item %zu slot %zu = 0x%llx, expected 0x%llx%s\n",
                       L->what, options, mode, what, g, s, (unsigned long long)x,
                       (unsigned long long)y, act[g] ? "" : " (inactive)");
            }
            bad++;
         }
      }
   }
   if (bad)
      fprintf(stderr, "%s [%s] mode %d %s: %d mismatches\n", L->what, options, mode, what, bad);
   return bad;
}

static void
run(cl_kernel k, const char *options, const struct launch *L, int mode)
{
   size_t n = L->global, nsg_wg = (L->local + WAVE - 1) / WAVE;
   size_t nsg = n / L->local * nsg_wg;
   cl_int err;
   int *in = malloc(n * sizeof(int));
   uint32_t seed = 777u + (uint32_t)mode;
   for (size_t i = 0; i < n; i++) {
      seed = seed * 1103515245u + 12345u;
      in[i] = (int)((seed >> 16) % 2001) - 1000;
   }
   /* The host's sub-groups: members and broadcast lanes. */
   struct sgrp *sg = calloc(nsg, sizeof(*sg));
   uint32_t *bidx = calloc(nsg, sizeof(uint32_t));
   bool *act = calloc(n, sizeof(bool));
   for (size_t g = 0; g < n; g++) {
      size_t l = g % L->local, gs = g / L->local * nsg_wg + l / WAVE;
      unsigned lane = (unsigned)(l % WAVE);
      struct sgrp *s = &sg[gs];
      s->sid = (unsigned)(l / WAVE), s->gs = (unsigned)gs;
      s->max_size = L->local < WAVE ? (unsigned)L->local : (unsigned)WAVE;
      if (!active(mode, lane, g))
         continue;
      act[g] = true;
      s->lane[s->n] = lane, s->gid[s->n] = g, s->n++;
   }
   for (size_t i = 0; i < nsg; i++) {
      if (sg[i].n)
         sg[i].b = sg[i].lane[(i * 5 + 1) % sg[i].n];
      bidx[i] = sg[i].b;
   }

   /* Inputs of each type, as the kernel converts them. */
   void *x[NTYPES], *mv[NTYPES], *want[NTYPES];
   for (int t = 0; t < NTYPES; t++) {
      x[t] = malloc(n * sizes[t]), mv[t] = malloc(n * sizes[t]);
      want[t] = malloc(n * NT * sizes[t]);
      memset(want[t], 0x5A, n * NT * sizes[t]);
   }
   for (size_t g = 0; g < n; g++) {
      int i = in[g], m = (i & 7) == 0 ? 2 : (i & 7) == 1 ? -1 : 1;
      ((i8 *)x[0])[g] = (i8)i, ((i8 *)mv[0])[g] = (i8)m;
      ((u8 *)x[1])[g] = (u8)i, ((u8 *)mv[1])[g] = (u8)m;
      ((i16 *)x[2])[g] = (i16)(i * 37), ((i16 *)mv[2])[g] = (i16)m;
      ((u16 *)x[3])[g] = (u16)(i * 37), ((u16 *)mv[3])[g] = (u16)m;
      ((i32 *)x[4])[g] = i * 1000003, ((i32 *)mv[4])[g] = m;
      ((u32 *)x[5])[g] = (u32)i * 2654435761u, ((u32 *)mv[5])[g] = (u32)m;
      ((i64 *)x[6])[g] = (i64)i * 1000000007LL, ((i64 *)mv[6])[g] = m;
      ((u64 *)x[7])[g] = (u64)(u32)i << 32 | (u32)g, ((u64 *)mv[7])[g] = (u64)(i64)m;
      ((float *)x[8])[g] = (float)i, ((float *)mv[8])[g] = (float)m;
      ((double *)x[9])[g] = (double)i * 0.5, ((double *)mv[9])[g] = m;
      ((f16 *)x[10])[g] = (f16)(i % 9), ((f16 *)mv[10])[g] = (f16)m;
   }
   int32_t *want_i = malloc(n * NI * 4);
   memset(want_i, 0x5A, n * NI * 4);
   for (size_t g = 0; g < n; g++)
      if (act[g])
         memset(want_i + g * NI + I_MASK, 0, 20 * 4);
   for (size_t i = 0; i < nsg; i++) {
      const struct sgrp *s = &sg[i];
      model_i8(s, x[0], mv[0], want[0]);
      model_u8(s, x[1], mv[1], want[1]);
      model_i16(s, x[2], mv[2], want[2]);
      model_u16(s, x[3], mv[3], want[3]);
      model_i32(s, x[4], mv[4], want[4]);
      model_u32(s, x[5], mv[5], want[5]);
      model_i64(s, x[6], mv[6], want[6]);
      model_u64(s, x[7], mv[7], want[7]);
      model_float(s, x[8], mv[8], want[8]);
      model_double(s, x[9], mv[9], want[9]);
      model_f16(s, x[10], mv[10], want[10]);
      model_ints(s, in, want_i);
   }

   /* The device. */
   cl_mem b_in = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, n * 4, in, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_mem b_idx = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, nsg * 4, bidx, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_mem b_out[NTYPES + 1];
   unsigned char fill = 0x5A;
   for (int t = 0; t <= NTYPES; t++) {
      size_t bytes = t == 0 ? n * NI * 4 : n * NT * sizes[t - 1];
      b_out[t] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
      CHECK_EQ_INT(err, CL_SUCCESS);
      CHECK_EQ_INT(clEnqueueFillBuffer(queue, b_out[t], &fill, 1, 0, bytes, 0, NULL, NULL),
                   CL_SUCCESS);
      CHECK_EQ_INT(clSetKernelArg(k, 3 + t, sizeof(cl_mem), &b_out[t]), CL_SUCCESS);
   }
   clSetKernelArg(k, 0, sizeof(cl_mem), &b_in);
   clSetKernelArg(k, 1, sizeof(cl_mem), &b_idx);
   clSetKernelArg(k, 2, sizeof(int), &mode);
   CHECK_EQ_INT(clEnqueueNDRangeKernel(queue, k, 1, NULL, &L->global, &L->local, 0, NULL, NULL),
                CL_SUCCESS);

   int bad = 0;
   unsigned char *got = malloc(n * NI * 8);
   CHECK_EQ_INT(clEnqueueReadBuffer(queue, b_out[0], CL_TRUE, 0, n * NI * 4, got, 0, NULL, NULL),
                CL_SUCCESS);
   bad += compare("ints", options, L, mode, got, (unsigned char *)want_i, act, NI, 4, false);
   for (int t = 0; t < NTYPES; t++) {
      CHECK_EQ_INT(clEnqueueReadBuffer(queue, b_out[t + 1], CL_TRUE, 0, n * NT * sizes[t], got, 0,
                                       NULL, NULL),
                   CL_SUCCESS);
      bad += compare(names[t], options, L, mode, got, want[t], act, NT, sizes[t], t >= 8);
   }
   CHECK_EQ_INT(bad, 0);

   free(got);
   for (int t = 0; t <= NTYPES; t++)
      clReleaseMemObject(b_out[t]);
   clReleaseMemObject(b_in);
   clReleaseMemObject(b_idx);
   for (int t = 0; t < NTYPES; t++)
      free(x[t]), free(mv[t]), free(want[t]);
   free(want_i), free(act), free(bidx), free(sg), free(in);
}

static const struct launch launches[] = {
   { "full sub-groups (256 / 128)", 256, 128 },
   { "partial last sub-group (300 / 100)", 300, 100 },
   { "one partial sub-group (96 / 48)", 96, 48 },
};

static void
test_builtins(const char *options)
{
   cl_int err;
   const char *s = src;
   cl_program p = clCreateProgramWithSource(ctx, 1, &s, NULL, &err);
   err = clBuildProgram(p, 1, &device, options, NULL, NULL);
   CHECK_EQ_INT(err, CL_SUCCESS);
   if (err != CL_SUCCESS) {
      char log[8192] = "";
      clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, sizeof(log), log, NULL);
      fprintf(stderr, "build [%s]:\n%s\n", options, log);
      clReleaseProgram(p);
      return;
   }
   cl_kernel k = clCreateKernel(p, "nu", &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   for (size_t i = 0; i < sizeof(launches) / sizeof(launches[0]); i++)
      for (int mode = 0; mode < 3; mode++)
         run(k, options, &launches[i], mode);
   clReleaseKernel(k);
   clReleaseProgram(p);
}

/* The 2.0 profile (argument "2.0"): CL_DEVICE_EXTENSIONS_WITH_VERSION is a 3.0 query. */
static bool profile20;

static void
test_device_queries(bool v30)
{
   static const char *const exts[] = { "cl_khr_subgroup_ballot", "cl_khr_subgroup_non_uniform_vote",
                                       "cl_khr_subgroup_non_uniform_arithmetic",
                                       "cl_khr_subgroup_clustered_reduce" };
   for (int i = 0; i < 4; i++) {
      CHECK_EQ_INT(test_device_lists(device, CL_DEVICE_EXTENSIONS, exts[i]), v30);
      if (!profile20)
         CHECK_EQ_INT(test_device_lists(device, CL_DEVICE_EXTENSIONS_WITH_VERSION, exts[i]),
                      v30);
   }
}

int
main(int argc, char **argv)
{
   bool v30 = argc < 2 || strcmp(argv[1], "1.2");
   profile20 = argc >= 2 && !strcmp(argv[1], "2.0");
   cl_platform_id platform;
   cl_uint n = 0;
   if (clGetPlatformIDs(1, &platform, &n) != CL_SUCCESS || n == 0 ||
       clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &device, NULL) != CL_SUCCESS) {
      fprintf(stderr, "no hsacl platform or GPU device\n");
      return 1;
   }
   test_watchdog("api_subgroup_nu", 300);
   cl_uint wave = 0;
   if (clGetDeviceInfo(device, CL_DEVICE_WAVEFRONT_WIDTH_AMD, sizeof(wave), &wave, NULL) ==
          CL_SUCCESS &&
       (wave == 32 || wave == 64))
      WAVE = wave;
   cl_int err;
   ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   queue = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);

   test_device_queries(v30);
   if (v30) {
      test_builtins(profile20 ? "-cl-std=CL2.0" : "-cl-std=CL3.0");
      test_builtins(profile20 ? "-cl-std=CL2.0 -cl-opt-disable" : "-cl-std=CL3.0 -cl-opt-disable");
   }

   clReleaseCommandQueue(queue);
   clReleaseContext(ctx);
   return test_main_end();
}
