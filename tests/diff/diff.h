/*
 * tests/diff/diff.h — the differential test corpus: one record per kernel, run by
 * diff_runner.c on hsacl and on PoCL with the same seeded inputs and compared.
 *
 * A record says which arguments the kernel takes (buffers with their element type, count
 * and how inputs are generated; scalars with their value; local-memory sizes), how it is
 * launched and how its outputs are compared. Integer outputs must be identical; float
 * outputs must agree within `ulp` units in the last place (OpenCL C 1.2 §7.4), NaN equal
 * to NaN. Where PoCL cannot run a kernel (see `ref`), a host function computes the
 * expected outputs instead.
 */
#ifndef HSACL_DIFF_H
#define HSACL_DIFF_H

#include <stddef.h>
#include <stdint.h>

enum diff_type { T_I8, T_U8, T_I16, T_U16, T_I32, T_U32, T_I64, T_U64, T_F32, T_F64 };

enum diff_role {
   A_END = 0, /* terminates the argument list */
   A_IN,      /* global buffer, generated input */
   A_OUT,     /* global buffer, compared after the launch (filled with 0xCD first) */
   A_INOUT,   /* global buffer, generated input, compared after the launch */
   A_SCALAR,  /* by-value argument of `type` from .i or .f */
   A_LOCAL,   /* __local pointer of count elements of `type` */
};

/* How an input buffer is filled (seeded by the kernel's name, so runs repeat). */
enum diff_gen {
   G_BITS,    /* uniformly random bits */
   G_RANGE,   /* uniform in [lo, hi] (integers: inclusive; floats: real interval) */
   G_NONZERO, /* as G_RANGE but never 0 (divisors) */
   G_SPECIAL, /* floats: a mix of ±0, ±inf, NaN, denormals, huge, tiny, and G_RANGE values */
   G_INDEX,   /* element i = i */
};

struct diff_arg {
   enum diff_role role;
   enum diff_type type;
   size_t count; /* elements; 0 = one per work-item of the launch (incl. offset) */
   enum diff_gen gen;
   double lo, hi;
   int64_t i; /* A_SCALAR integer value */
   double f;  /* A_SCALAR float value */
};

enum diff_ref {
   REF_POCL,  /* hsacl's outputs against PoCL's */
   REF_HOST,  /* PoCL cannot run it (say why in .why_host): against host_ref's outputs */
};

#define DIFF_MAX_ARGS 8

/*
 * Host reference: fills the output buffers in bufs[] (indexed like args; NULL for scalars
 * and locals) from the inputs, for the kernel's launch.
 */
struct diff_kernel;
typedef void (*diff_host_fn)(const struct diff_kernel *k, void **bufs);

/* Correctly rounded (to double) reference of a one- or two-argument math builtin. */
typedef double (*diff_math1)(double);
typedef double (*diff_math2)(double, double);

struct diff_kernel {
   const char *name;     /* kernel function name, unique in the corpus */
   const char *group;    /* ctest entry that runs it */
   const char *source;   /* OpenCL C */
   const char *options;  /* build options for both devices, may be NULL */
   const char *hsacl_options; /* replaces options on hsacl (e.g. -cl-std=CL2.0) */
   const char *requires; /* extension both devices must list, or NULL */
   struct diff_arg args[DIFF_MAX_ARGS];
   unsigned dim;
   size_t global[3], local[3], offset[3]; /* local all 0 = NULL */
   double ulp;           /* float outputs: allowed error in ULPs (0 = bitwise, NaN==NaN) */
   enum diff_ref ref;
   const char *why_host; /* REF_HOST: why PoCL cannot be the reference */
   diff_host_fn host_ref;
   /* Optional: float outputs of args[out] = f(args[0][i] [, args[1][i]]) are also checked
      against the host's double-precision value within `ulp`, on every device. */
   diff_math1 math1;
   diff_math2 math2;
};

extern const struct diff_kernel diff_corpus[];
extern const size_t diff_corpus_count;

/* Kernels hsacl gets wrong today because of a bug in hsacl: their failure is reported
   with the reason and does not fail the test. Keep this list short and current. */
struct diff_known_failure {
   const char *name;
   const char *reason;
};
extern const struct diff_known_failure diff_known_failures[];

#endif
