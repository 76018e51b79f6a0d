/*
 * tests/hsacl_cl_test.h — helpers the OpenCL API tests share (beside hsacl_test.h, which
 * knows nothing of OpenCL).
 */
#ifndef HSACL_CL_TEST_H
#define HSACL_CL_TEST_H

#include "hsacl_test.h"

#include <CL/cl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The first GPU of the first platform, a context on it and an in-order queue. False (and a
 * line on stderr) when there is no such device; a failed context or queue is a failed
 * check. */
static inline bool
test_cl_open(cl_device_id *device, cl_context *ctx, cl_command_queue *queue)
{
   cl_platform_id platform;
   cl_uint n = 0;
   if (clGetPlatformIDs(1, &platform, &n) != CL_SUCCESS || n == 0 ||
       clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, device, NULL) != CL_SUCCESS) {
      fprintf(stderr, "no hsacl platform or GPU device\n");
      return false;
   }
   cl_int err;
   *ctx = clCreateContext(NULL, 1, device, NULL, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   *queue = *ctx ? clCreateCommandQueueWithProperties(*ctx, *device, NULL, &err) : NULL;
   CHECK_EQ_INT(err, CL_SUCCESS);
   return *ctx && *queue;
}

/* A program from OpenCL C `source`, or from SPIR-V `il` when `source` is NULL, built for
 * `device` with `options`. A failure is a failed check with the build log on stderr, and
 * returns NULL. */
static inline cl_program
test_cl_build(cl_context ctx, cl_device_id device, const char *source, const void *il,
              size_t il_size, const char *options)
{
   cl_int err;
   cl_program p = source ? clCreateProgramWithSource(ctx, 1, &source, NULL, &err)
                         : clCreateProgramWithIL(ctx, il, il_size, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   if (!p)
      return NULL;
   err = clBuildProgram(p, 1, &device, options, NULL, NULL);
   CHECK_EQ_INT(err, CL_SUCCESS);
   if (err != CL_SUCCESS) {
      static char log[65536];
      log[0] = '\0';
      clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, sizeof(log), log, NULL);
      fprintf(stderr, "build (%s) failed: %s\n", options ? options : "", log);
      clReleaseProgram(p);
      return NULL;
   }
   return p;
}

/* A read-write buffer of `size` bytes, initialised from `init` when it is not NULL. */
static inline cl_mem
test_cl_buffer(cl_context ctx, size_t size, const void *init)
{
   cl_int err;
   cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE | (init ? CL_MEM_COPY_HOST_PTR : 0), size,
                             (void *)init, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   return m;
}

/* xorshift64: the tests' reproducible pseudo-random numbers. */
static inline uint64_t
test_xorshift64(uint64_t *state)
{
   *state ^= *state << 13;
   *state ^= *state >> 7;
   *state ^= *state << 17;
   return *state;
}

/* True when `device` lists `name` in CL_DEVICE_EXTENSIONS (a whole space-separated token)
 * or in a cl_name_version query (CL_DEVICE_EXTENSIONS_WITH_VERSION,
 * CL_DEVICE_OPENCL_C_FEATURES, ...). */
static inline bool
test_device_lists(cl_device_id device, cl_device_info what, const char *name)
{
   size_t size = 0;
   if (clGetDeviceInfo(device, what, 0, NULL, &size) != CL_SUCCESS)
      return false;
   char *buf = malloc(size + 1);
   bool found = false;
   if (buf && clGetDeviceInfo(device, what, size, buf, NULL) == CL_SUCCESS) {
      if (what == CL_DEVICE_EXTENSIONS) {
         buf[size] = 0;
         for (char *t = strtok(buf, " "); t; t = strtok(NULL, " "))
            found |= !strcmp(t, name);
      } else {
         const cl_name_version *nv = (const cl_name_version *)buf;
         for (size_t i = 0; i < size / sizeof(*nv); i++)
            found |= !strcmp(nv[i].name, name);
      }
   }
   free(buf);
   return found;
}

#endif
