/*
 * examples/example.h — what every example shares: finding the hsacl device among the
 * platforms the ICD loader offers, and building a program with its log on failure.
 * Header-only so each example stays one C file plus this.
 */
#ifndef HSACL_EXAMPLE_H
#define HSACL_EXAMPLE_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Exit status of an example: 0 right result, 1 wrong result, 2 no device or a CL error. */
enum { EXAMPLE_OK = 0, EXAMPLE_WRONG = 1, EXAMPLE_ERROR = 2 };

static const char *example_name = "example";

/* Exits with EXAMPLE_ERROR when `call` does not return CL_SUCCESS. */
#define CL_TRY(call)                                                                         \
   do {                                                                                     \
      cl_int e_ = (call);                                                                   \
      if (e_ != CL_SUCCESS) {                                                               \
         fprintf(stderr, "%s: %s failed: %d\n", example_name, #call, e_);                   \
         exit(EXAMPLE_ERROR);                                                               \
      }                                                                                     \
   } while (0)

/*
 * The first device of the platform whose CL_PLATFORM_NAME is "hsacl" (whatever its
 * position in the loader's list), with a context and an in-order queue on it. Prints the
 * device's name and driver version. Exits with EXAMPLE_ERROR when there is none.
 * HSACL_EXAMPLE_PLATFORM=NAME picks another platform by name instead (e.g. "Portable
 * Computing Language", to compare an example's output with PoCL's).
 */
static cl_device_id
example_open(cl_context *ctx, cl_command_queue *queue)
{
   cl_platform_id platforms[16];
   cl_uint count = 0;
   cl_device_id dev = NULL;
   cl_int err;
   const char *want = getenv("HSACL_EXAMPLE_PLATFORM");
   if (!want || !*want)
      want = "hsacl";

   if (clGetPlatformIDs(16, platforms, &count) != CL_SUCCESS)
      count = 0;
   for (cl_uint i = 0; i < count && i < 16 && !dev; i++) {
      char name[128] = "";
      clGetPlatformInfo(platforms[i], CL_PLATFORM_NAME, sizeof(name), name, NULL);
      if (strcmp(name, want) != 0 ||
          clGetDeviceIDs(platforms[i], CL_DEVICE_TYPE_ALL, 1, &dev, NULL) != CL_SUCCESS)
         dev = NULL;
   }
   if (!dev) {
      fprintf(stderr, "%s: no %s platform with a device (is OCL_ICD_VENDORS set?)\n",
              example_name, want);
      exit(EXAMPLE_ERROR);
   }
   char dev_name[128] = "", driver[256] = "";
   clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof(dev_name), dev_name, NULL);
   clGetDeviceInfo(dev, CL_DRIVER_VERSION, sizeof(driver), driver, NULL);
   printf("%s: running on %s device %s, driver %s\n", example_name, want, dev_name, driver);

   *ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
   CL_TRY(err);
   *queue = clCreateCommandQueue(*ctx, dev, 0, &err);
   CL_TRY(err);
   return dev;
}

/* Builds `source` for `dev`; prints the build log and exits on failure. */
static cl_program
example_build(cl_context ctx, cl_device_id dev, const char *source, const char *options)
{
   cl_int err;
   cl_program prog = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
   CL_TRY(err);
   if (clBuildProgram(prog, 1, &dev, options, NULL, NULL) != CL_SUCCESS) {
      char log[16384] = "";
      clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof(log), log, NULL);
      fprintf(stderr, "%s: build failed:\n%s\n", example_name, log);
      exit(EXAMPLE_ERROR);
   }
   return prog;
}

#endif
