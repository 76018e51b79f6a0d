/*
 * fuzz/fuzz_binary.c — program binaries end to end, as an application hands them in:
 * clCreateProgramWithBinary, then clBuildProgram (an executable: checked, loaded into the
 * software runtime) or clLinkProgram (hsacl's wrapped compiled object or library: LLVM
 * bitcode, linked and compiled), then clCreateKernelsInProgram and the program and kernel
 * queries that read the code object's metadata and symbols (kernel names, argument info,
 * CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE).
 *
 * Input: the binary (seeds: hsacl's executables, compiled objects and libraries). The driver
 * copies it; the copy here is exactly sized so that a read past its end during
 * clCreateProgramWithBinary is a heap-buffer-overflow.
 * Checks: no crash, leak, hang or sanitizer report; every call returns a specified code;
 * a program that built has kernels whose queries succeed.
 */
#include "fuzz_cl.h"

#include "compiler/comp_program_priv.h"

#include <dirent.h>
#include <openssl/evp.h>
#include <string.h>

static struct fuzz_cl cl;

/*
 * clLinkProgram hands a wrapper's bitcode to LLVM's bitcode reader, which is not hardened
 * against malformed bitcode. hsacl refuses bitcode that does not match the wrapper's SHA-256
 * (comp_binary.c), which stops corrupt binaries; a caller that recomputes the digest still
 * reaches the reader, and so does libFuzzer, which copies the digest comp_binary.c compares
 * into the input (its memcmp hook). That case is outside hsacl's reach (fuzz/README.md): the
 * target links only bitcode a seed carries (obj_* and lib_* in fuzz/corpus/binary), so
 * mutations of the wrapper still reach clLinkProgram but mutated bitcode does not.
 */
#define MAX_KNOWN 16
static unsigned char known[MAX_KNOWN][32];
static unsigned num_known;

static bool
bitcode_digest(const unsigned char *bin, size_t size, unsigned char out[32])
{
   const void *bc;
   size_t bc_size;
   unsigned len = 0;
   return comp__binary_bitcode(bin, size, &bc, &bc_size) &&
          EVP_Digest(bc, bc_size, out, &len, EVP_sha256(), NULL) == 1 && len == 32;
}

static void
load_known_bitcode(const char *dir)
{
   DIR *d = opendir(dir);
   struct dirent *e;
   while (d && (e = readdir(d)) && num_known < MAX_KNOWN) {
      if (strncmp(e->d_name, "obj_", 4) && strncmp(e->d_name, "lib_", 4))
         continue;
      char path[4096];
      snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
      FILE *f = fopen(path, "rb");
      unsigned char *b = malloc(1 << 20);
      size_t n = f && b ? fread(b, 1, 1 << 20, f) : 0;
      if (n && bitcode_digest(b, n, known[num_known]))
         num_known++;
      free(b);
      if (f)
         fclose(f);
   }
   if (d)
      closedir(d);
}

static bool
known_bitcode(const unsigned char *bin, size_t size)
{
   unsigned char digest[32];
   if (!bitcode_digest(bin, size, digest))
      return false;
   for (unsigned i = 0; i < num_known; i++)
      if (!memcmp(digest, known[i], 32))
         return true;
   return false;
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
   fuzz_default_env();
   setenv("HSACL_CACHE", "0", 0); /* builds from binaries only; nothing to keep */
   fuzz_cl_init(&cl);
#ifdef HSACL_FUZZ_BINARY_SEEDS
   load_known_bitcode(HSACL_FUZZ_BINARY_SEEDS);
#endif
   return 0;
}

/* The queries an application makes of a kernel; every one answers. */
static void
query_kernel(cl_kernel k)
{
   cl_uint nargs = 0;
   size_t wg = 0, len = 0;
   if (CL(clGetKernelInfo)(k, CL_KERNEL_FUNCTION_NAME, 0, NULL, &len) != CL_SUCCESS || !len)
      abort();
   char *name = malloc(len);
   if (!name || CL(clGetKernelInfo)(k, CL_KERNEL_FUNCTION_NAME, len, name, NULL) !=
                   CL_SUCCESS || strlen(name) + 1 != len)
      abort();
   free(name);
   if (CL(clGetKernelInfo)(k, CL_KERNEL_NUM_ARGS, sizeof(nargs), &nargs, NULL) != CL_SUCCESS ||
       CL(clGetKernelWorkGroupInfo)(k, cl.device, CL_KERNEL_WORK_GROUP_SIZE, sizeof(wg), &wg,
                                    NULL) != CL_SUCCESS)
      abort();
   for (cl_uint a = 0; a < nargs && a < 64; a++) {
      cl_kernel_arg_address_qualifier aq;
      cl_int err = CL(clGetKernelArgInfo)(k, a, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof(aq),
                                          &aq, NULL);
      if (err != CL_SUCCESS && err != CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
         abort();
      char type[256];
      err = CL(clGetKernelArgInfo)(k, a, CL_KERNEL_ARG_TYPE_NAME, sizeof(type), type, NULL);
      if (err != CL_SUCCESS && err != CL_KERNEL_ARG_INFO_NOT_AVAILABLE && err != CL_INVALID_VALUE)
         abort();
   }
}

static void
use_program(cl_program p)
{
   cl_uint n = 0;
   if (CL(clCreateKernelsInProgram)(p, 0, NULL, &n) != CL_SUCCESS)
      abort(); /* a built program */
   if (n > 4096)
      abort();
   cl_kernel *k = calloc(n ? n : 1, sizeof(*k));
   if (!k)
      return;
   if (CL(clCreateKernelsInProgram)(p, n, k, NULL) != CL_SUCCESS)
      abort();
   for (cl_uint i = 0; i < n; i++) {
      query_kernel(k[i]);
      CL(clReleaseKernel)(k[i]);
   }
   free(k);
   size_t names = 0, globals = 0;
   if (CL(clGetProgramInfo)(p, CL_PROGRAM_KERNEL_NAMES, 0, NULL, &names) != CL_SUCCESS ||
       CL(clGetProgramBuildInfo)(p, cl.device, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE,
                                 sizeof(globals), &globals, NULL) != CL_SUCCESS)
      abort();
}

int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
   unsigned char *bin = malloc(size ? size : 1);
   if (!bin)
      return 0;
   memcpy(bin, data, size);
   const unsigned char *bins[1] = { bin };
   cl_int err = CL_SUCCESS, status = CL_SUCCESS;
   cl_program p =
      CL(clCreateProgramWithBinary)(cl.context, 1, &cl.device, &size, bins, &status, &err);
   if (!p) {
      free(bin);
      if (err != CL_INVALID_BINARY && err != CL_INVALID_VALUE && err != CL_OUT_OF_HOST_MEMORY)
         abort();
      return 0;
   }
   if (err != CL_SUCCESS || status != CL_SUCCESS)
      abort();
   bool link_ok = known_bitcode(bin, size);
   free(bin); /* the driver keeps its own copy */

   cl_program_binary_type type = CL_PROGRAM_BINARY_TYPE_NONE;
   if (CL(clGetProgramBuildInfo)(p, cl.device, CL_PROGRAM_BINARY_TYPE, sizeof(type), &type,
                                 NULL) != CL_SUCCESS)
      abort();
   if (type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE) {
      err = CL(clBuildProgram)(p, 1, &cl.device, "", NULL, NULL);
      if (err == CL_SUCCESS)
         use_program(p);
      else if (err != CL_BUILD_PROGRAM_FAILURE && err != CL_INVALID_BINARY &&
               err != CL_OUT_OF_HOST_MEMORY && err != CL_OUT_OF_RESOURCES)
         abort();
   } else if (type == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT ||
              type == CL_PROGRAM_BINARY_TYPE_LIBRARY) {
      if (!link_ok) {
         CL(clReleaseProgram)(p);
         return 0; /* bitcode no seed carries, with a digest to match: see above */
      }
      cl_program linked = CL(clLinkProgram)(cl.context, 1, &cl.device, "", 1, &p, NULL, NULL,
                                            &err);
      if (linked && err == CL_SUCCESS)
         use_program(linked);
      else if (err != CL_LINK_PROGRAM_FAILURE && err != CL_INVALID_BINARY &&
               err != CL_OUT_OF_HOST_MEMORY && err != CL_OUT_OF_RESOURCES)
         abort();
      if (linked)
         CL(clReleaseProgram)(linked);
   } else {
      abort(); /* clCreateProgramWithBinary accepted a binary of no known type */
   }
   CL(clReleaseProgram)(p);
   return 0;
}
