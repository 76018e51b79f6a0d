/*
 * comp_llvm.h — the OpenCL C -> amdgcn code object engine (clang, device libraries, LLVM
 * codegen and lld, all in process) and the code object V5 metadata reader.
 *
 * Contracts common to this header:
 * - Every function is thread-safe. Builds run concurrently, each in its own LLVMContext;
 *   only the lazy initialisation and the lld step are serialised process-wide.
 * - Nothing touches the filesystem except reading the device libraries (once per process),
 *   the clang resource headers and the application's -I directories, and no temporary
 *   file. The one subprocess is Khronos' SPIR-V translator, which the IL front half runs
 *   (comp_spirv.c, docs/spirv.md); OpenCL C builds start none.
 * - Strings and arrays handed out are malloc'd and owned by the caller, released with the
 *   matching _finish/_destroy function.
 */
#ifndef COMP_LLVM_H
#define COMP_LLVM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum comp_status {
   COMP_OK = 0,
   COMP_INVALID_BUILD_OPTIONS,    /* -> CL_INVALID_BUILD_OPTIONS (clBuildProgram) */
   COMP_INVALID_COMPILER_OPTIONS, /* -> CL_INVALID_COMPILER_OPTIONS (clCompileProgram) */
   COMP_INVALID_LINKER_OPTIONS,   /* -> CL_INVALID_LINKER_OPTIONS (clLinkProgram) */
   COMP_BUILD_FAILURE,            /* source, frontend or codegen error: the log says why */
   COMP_LINK_FAILURE,             /* llvm::Linker or lld rejected the inputs: the log says why */
   COMP_INVALID_TARGET,           /* target ID unknown to this LLVM or bad feature suffix */
   COMP_INVALID_BINARY,           /* malformed ELF or NT_AMDGPU_METADATA note */
   COMP_OUT_OF_MEMORY,
   COMP_INTERNAL_ERROR,           /* device libraries missing, lld unusable, ... */
};

/* Which API call the options belong to: selects the option subset accepted (OpenCL 3.0
 * API 5.8.6.1-5.8.6.4, 5.8.7) and the error returned for an unknown or malformed one. */
enum comp_action {
   COMP_ACTION_BUILD,   /* clBuildProgram */
   COMP_ACTION_COMPILE, /* clCompileProgram */
   COMP_ACTION_LINK,    /* clLinkProgram */
};

enum comp_emit {
   COMP_EMIT_EXECUTABLE = 0, /* loadable code object (ET_DYN, lld -shared); default */
   COMP_EMIT_OBJECT,         /* relocatable ELF straight out of codegen */
   COMP_EMIT_ASM,            /* amdgcn assembly text */
   COMP_EMIT_LLVM,           /* LLVM IR text after device-library linking and optimisation */
   /* LLVM bitcode before device-library linking and optimisation, carrying the compile
    * options (clCompileProgram's compiled object). With COMP_ACTION_LINK and -create-library
    * the output is always bitcode (a library); COMP_ACTION_LINK without it treats this kind
    * as COMP_EMIT_EXECUTABLE. */
   COMP_EMIT_BITCODE,
};

/* An embedded header (clCompileProgram input_headers): `name` is what #include names. */
struct comp_header {
   const char *name;
   const char *source;
   size_t size;
};

/* One input of a link: a compiled object or a library as COMP_EMIT_BITCODE produced it. */
struct comp_link_input {
   const void *data;
   size_t size;
   bool is_library; /* link options apply to it only if created with -enable-link-options */
};

/* A specialization constant's value (clSetProgramSpecializationConstant): `size` bytes, the
 * value in the low-order bytes of `value`. */
struct comp_spec_constant {
   uint32_t id;
   uint32_t size;
   uint64_t value;
};

struct comp_build_desc {
   const char *source; /* OpenCL C text, need not be NUL-terminated */
   size_t source_size;
   /* A SPIR-V module instead of source (clCreateProgramWithIL; COMP_ACTION_BUILD or
    * _COMPILE), checked by comp__spirv_check, and its specialization constants. */
   const void *il;
   size_t il_size;
   const struct comp_spec_constant *spec_constants;
   size_t num_spec_constants;
   const char *source_name; /* file name in diagnostics; NULL = "input.cl" */
   const char *options;     /* the application's option string; NULL = "" */
   const char *target_id;   /* "gfx906", "gfx90a:xnack-", "gfx906:sramecc-:xnack-" ... */
   /* NULL-terminated lists from the platform's device table (CL_DEVICE_EXTENSIONS and
    * CL_DEVICE_OPENCL_C_FEATURES names). When `extensions` is NULL clang's defaults for the
    * target are used; otherwise exactly these are enabled (-cl-ext=-all,+name,...). */
   const char *const *extensions;
   const char *const *features;
   const struct comp_header *headers;
   size_t num_headers;
   enum comp_action action;
   /* COMP_ACTION_LINK: what is linked, in order (`source` and `headers` unused). The
    * objects and libraries are joined (a symbol defined twice is COMP_LINK_FAILURE), then
    * -create-library stops (bitcode); otherwise the device libraries are linked, the result
    * optimised and generated as for a build, with options derived from the objects' compile
    * options and the link options (OpenCL 3.0 API 5.8.7). An undefined symbol left is
    * COMP_LINK_FAILURE naming it. */
   const struct comp_link_input *inputs;
   size_t num_inputs;
   /* __OPENCL_VERSION__ to predefine: the device's OpenCL version as 100 * major + 10 *
    * minor (OpenCL C 3.0 §6.12 "Preprocessor Directives and Macros"); 0 defines none. */
   unsigned opencl_version;
   enum comp_emit emit;
   /* Restricted includes (HSACL_BUILD_INCLUDES=restricted): only the -I folders of the
    * options, the embedded headers and clang's own headers can be read. */
   bool restrict_includes;
   /* The largest work-group a kernel without reqd_work_group_size is built for (its
    * amdgpu-flat-work-group-size 1,N, COMP_EMIT_EXECUTABLE/ASM/LLVM of a build or link). 0
    * keeps clang's OpenCL default, 256, which leaves each wave the whole register file of
    * its SIMD; a larger N limits every wave to what N/64 waves of one CU allow (1024: 64
    * VGPRs). Kernels with reqd_work_group_size or their own amdgpu_flat_work_group_size
    * keep theirs. */
   unsigned max_work_group_size;
};

struct comp_program_info;

struct comp_output {
   void *data; /* the emitted code object / object / text (text is NUL-terminated) */
   size_t size;
   char *log;  /* build log, NUL-terminated, never NULL after comp_build returns */
   struct comp_program_info *info; /* parsed metadata, COMP_EMIT_EXECUTABLE only */
   bool reads_files; /* the build read a header from disk: not covered by a cache key */
};

/* Compiles desc->source for desc->target_id. Fills *out (also on failure: the log).
 * Release with comp_output_finish. */
enum comp_status
comp_build(const struct comp_build_desc *desc, struct comp_output *out);

void
comp_output_finish(struct comp_output *out);

/* "hsacl-compiler/<version> LLVM <x.y.z> device-libs <16 hex digits>", stable for one
 * installation; a cache key component. Static storage. Loads the device libraries on first
 * use; on failure the hash part reads "device-libs missing". */
const char *
comp_identity(void);

/* Wavefront size the compiler uses for a target ID (64 for gfx9 and older, 32 for gfx10+);
 * 0 if the target is not known to this LLVM. */
unsigned
comp_target_wavefront_size(const char *target_id);

const char *
comp_status_name(enum comp_status status);

/* ---- Code object V5 metadata (AMDGPUUsage "Code Object V5 Metadata") ---- */

enum comp_arg_kind {
#define X(e, s) COMP_ARG_##e,
#include "comp_arg_kinds.def"
#undef X
   COMP_ARG_KIND_COUNT
};

enum comp_addr_space {
   COMP_ADDR_NONE = 0, /* key absent */
   COMP_ADDR_PRIVATE,
   COMP_ADDR_GLOBAL,
   COMP_ADDR_CONSTANT,
   COMP_ADDR_LOCAL,
   COMP_ADDR_GENERIC,
   COMP_ADDR_REGION,
};

enum comp_access {
   COMP_ACCESS_NONE = 0, /* key absent */
   COMP_ACCESS_READ_ONLY,
   COMP_ACCESS_WRITE_ONLY,
   COMP_ACCESS_READ_WRITE,
};

enum comp_kernel_kind {
   COMP_KERNEL_NORMAL = 0,
   COMP_KERNEL_INIT,
   COMP_KERNEL_FINI,
};

struct comp_kernel_arg {
   char *name;      /* ".name", NULL if absent */
   char *type_name; /* ".type_name", NULL if absent */
   uint32_t offset;
   uint32_t size;
   /* No V5 key carries it: derived as the largest power of two <= 16 that divides the
    * offset and does not exceed the size rounded up to a power of two. */
   uint32_t align;
   uint32_t pointee_align; /* 0 if absent */
   enum comp_arg_kind kind;
   enum comp_addr_space address_space;
   enum comp_access access;
   enum comp_access actual_access;
   bool is_const, is_restrict, is_volatile, is_pipe;
};

struct comp_kernel {
   char *name;   /* source name */
   char *symbol; /* kernel descriptor symbol, "<name>.kd" */
   char *language; /* NULL if absent */
   uint32_t language_version[2];
   struct comp_kernel_arg *args; /* explicit arguments first, then the hidden ones */
   uint32_t num_args;
   uint32_t num_explicit_args; /* arguments before the first hidden one */
   uint32_t kernarg_segment_size;
   uint32_t kernarg_segment_align;
   uint32_t group_segment_fixed_size;
   uint32_t private_segment_fixed_size;
   bool uses_dynamic_stack;
   bool workgroup_processor_mode;
   bool uniform_work_group_size;
   uint32_t wavefront_size;
   uint32_t sgpr_count, vgpr_count, agpr_count;
   uint32_t sgpr_spill_count, vgpr_spill_count;
   uint32_t max_flat_workgroup_size;
   uint32_t reqd_work_group_size[3]; /* 0,0,0 if absent */
   uint32_t work_group_size_hint[3]; /* 0,0,0 if absent */
   char *vec_type_hint;              /* NULL if absent */
   char *device_enqueue_symbol;      /* NULL if absent */
   enum comp_kernel_kind kind;
   /* The kernel cannot tell how its work-items are grouped (no local or group ids or sizes,
    * barriers, local memory, work-group or sub-group functions, device-side enqueue): the
    * code object holds the symbol COMP_WORK_GROUP_FREE_PREFIX + name (comp_wgfree.cpp). A
    * launch may then use other work-group sizes than it was enqueued with. */
   bool work_group_free;
};

#define COMP_WORK_GROUP_FREE_PREFIX "__hsacl_wgfree."

/* One "amdhsa.printf" entry: "ID:N:S[0]:...:S[N-1]:FormatString". `format` is decoded:
 * the C escapes (\n, \t, ...) and octal escapes (":" is "\72") the compiler wrote are
 * turned back into the characters they stand for. */
struct comp_printf_info {
   uint32_t id;
   uint32_t num_args;
   uint32_t *arg_sizes;
   char *format;
};

struct comp_program_info {
   uint32_t version[2]; /* amdhsa.version */
   char *target;        /* amdhsa.target, NULL if absent */
   struct comp_kernel *kernels;
   uint32_t num_kernels;
   struct comp_printf_info *printfs;
   uint32_t num_printfs;
};

/* Checks that the ELF header, the program and section header tables, and every segment and
 * section (but SHT_NOBITS) lie inside `size` bytes, without wrapping. NULL when they do, else
 * a static reason. Run before any ELF reader sees untrusted bytes. */
const char *
comp_elf_layout_check(const void *elf, size_t size);

/* Parses the NT_AMDGPU_METADATA note of a code object (ET_DYN or ET_REL). A malformed ELF
 * or note returns COMP_INVALID_BINARY with a malloc'd reason in *error (if error != NULL);
 * it never crashes. Returns a new record in *out, released with
 * comp_program_info_destroy. */
enum comp_status
comp_parse_metadata(const void *elf, size_t size, struct comp_program_info **out, char **error);

/* Accepts a half-built record and NULL. */
void
comp_program_info_destroy(struct comp_program_info *info);

const char *
comp_arg_kind_name(enum comp_arg_kind kind);

static inline bool
comp_arg_kind_is_hidden(enum comp_arg_kind kind)
{
   return kind >= COMP_ARG_HIDDEN_GLOBAL_OFFSET_X;
}

#ifdef __cplusplus
}
#endif

#endif /* COMP_LLVM_H */
