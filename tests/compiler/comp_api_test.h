/*
 * tests/compiler/comp_api_test.h — what the compiler API tests share: the first GPU
 * device and a context on it, the size-query protocol check, program helpers.
 */
#ifndef COMP_API_TEST_H
#define COMP_API_TEST_H

#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_2_2_APIS
#include <CL/cl.h>
#include <CL/cl_ext.h>

#include "hsacl_test.h"

/*
 * Sanitizer builds (scripts/test): GCC 12's runtime, on each __tls_get_addr, guesses the
 * bounds of a dynamic TLS block from the 16 bytes before it when the block begins 16 bytes
 * into a page (its glibc >= 2.19 heuristic); with ASan's allocator on glibc 2.36 those bytes
 * belong to another chunk, and LeakSanitizer then scans a garbage range at exit and crashes
 * ("Tracer caught signal 11"). Whether libLLVM's TLS block lands there depends only on how
 * many small allocations preceded it. Every other block is recorded with size 0 and never
 * scanned, so not intercepting __tls_get_addr loses nothing. Unused in other builds;
 * ASAN_OPTIONS still overrides it.
 */
const char *__asan_default_options(void);
__attribute__((used, visibility("default"))) const char *
__asan_default_options(void)
{
   return "intercept_tls_get_addr=0";
}

static cl_platform_id platform;
static cl_device_id device;
static cl_context context;

/* Fails the test program when there is no device (every check needs one). */
static inline void
test_setup(void)
{
   cl_uint n = 0;
   if (clGetPlatformIDs(1, &platform, &n) != CL_SUCCESS || n == 0 ||
       clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &device, NULL) != CL_SUCCESS) {
      fprintf(stderr, "no hsacl platform or GPU device\n");
      exit(1);
   }
   cl_int err;
   context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
   if (!context || err != CL_SUCCESS) {
      fprintf(stderr, "clCreateContext: %d\n", err);
      exit(1);
   }
}

typedef cl_int (*info_fn)(void *obj, cl_uint param, size_t size, void *value, size_t *ret);

/* The size-query protocol for one query: size alone, exact size, larger, both NULL, too
 * small. Returns the size. */
static inline size_t
check_info_protocol(const char *what, info_fn get, void *obj, cl_uint param)
{
   size_t size = 0;
   cl_int err = get(obj, param, 0, NULL, &size);
   if (err != CL_SUCCESS) {
      fprintf(stderr, "%s 0x%x: size query returned %d\n", what, param, err);
      test_failed++;
      return 0;
   }
   test_passed++;
   unsigned char *buf = malloc(size + 16);
   size_t got = 12345;
   memset(buf, 0xa5, size + 16);
   CHECK_EQ_INT(get(obj, param, size, buf, &got), CL_SUCCESS);
   CHECK_EQ_INT(got, size);
   CHECK(buf[size] == 0xa5);
   CHECK_EQ_INT(get(obj, param, size + 16, buf, NULL), CL_SUCCESS);
   CHECK_EQ_INT(get(obj, param, 0, NULL, NULL), CL_SUCCESS);
   if (size > 0)
      CHECK_EQ_INT(get(obj, param, size - 1, buf, &got), CL_INVALID_VALUE);
   free(buf);
   return size;
}

static inline cl_program
program_from_source(const char *src)
{
   cl_int err;
   cl_program p = clCreateProgramWithSource(context, 1, &src, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   return p;
}

/* A malloc'd copy of the device's build log. */
static inline char *
build_log(cl_program p)
{
   size_t size = 0;
   if (clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size) != CL_SUCCESS)
      return strdup("(no log)");
   char *log = malloc(size + 1);
   clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, size, log, NULL);
   log[size] = '\0';
   return log;
}

/* clBuildProgram that prints the log when the result is not `want`. */
static inline cl_int
build_expect(cl_program p, const char *options, cl_int want)
{
   cl_int err = clBuildProgram(p, 1, &device, options, NULL, NULL);
   if (err != want) {
      char *log = build_log(p);
      fprintf(stderr, "clBuildProgram(\"%s\") = %d, expected %d; log:\n%s\n",
              options ? options : "", err, want, log);
      free(log);
   }
   CHECK_EQ_INT(err, want);
   return err;
}

/* Builds `src` (a program released again); returns clBuildProgram's status and, with
 * `needle`, checks the log contains it. */
static inline cl_int
build_expecting(const char *src, const char *needle)
{
   cl_program p = program_from_source(src);
   cl_int err = clBuildProgram(p, 1, &device, NULL, NULL, NULL);
   char *log = build_log(p);
   if (needle && !strstr(log, needle))
      fprintf(stderr, "log lacks '%s':\n%.2000s\n", needle, log);
   if (needle)
      CHECK(strstr(log, needle) != NULL);
   free(log);
   clReleaseProgram(p);
   return err;
}

#endif
