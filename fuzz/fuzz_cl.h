/*
 * fuzz/fuzz_cl.h — the OpenCL objects the driver-level targets share, reached through the
 * driver's own dispatch table (hsacl_core linked in: no ICD loader, one process image for
 * coverage). Set up once, in LLVMFuzzerInitialize.
 */
#ifndef FUZZ_CL_H
#define FUZZ_CL_H

#include "fuzz_common.h"

#include "icd/icd.h"

#include <stdio.h>

/* An entry point of the driver, as the ICD loader would call it. */
#define CL(fn) (icd_dispatch.base.fn)

struct fuzz_cl {
   cl_platform_id platform;
   cl_device_id device;
   cl_context context;
   cl_command_queue queue;
};

/* Aborts when there is no platform, device, context or queue: no input can be tried. */
static inline void
fuzz_cl_init(struct fuzz_cl *f)
{
   cl_uint n = 0;
   cl_int err = CL_SUCCESS;
   if (icd_IcdGetPlatformIDsKHR(1, &f->platform, &n) != CL_SUCCESS || n == 0 ||
       CL(clGetDeviceIDs)(f->platform, CL_DEVICE_TYPE_GPU, 1, &f->device, NULL) !=
          CL_SUCCESS) {
      fprintf(stderr, "fuzz: no hsacl platform or GPU device (HSACL_SIM_LIBRARY?)\n");
      abort();
   }
   f->context = CL(clCreateContext)(NULL, 1, &f->device, NULL, NULL, &err);
   if (err == CL_SUCCESS)
      f->queue = CL(clCreateCommandQueueWithProperties)(f->context, f->device, NULL, &err);
   if (err != CL_SUCCESS) {
      fprintf(stderr, "fuzz: context or queue: %d\n", err);
      abort();
   }
}

#endif /* FUZZ_CL_H */
