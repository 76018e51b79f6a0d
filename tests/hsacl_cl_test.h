/*
 * tests/hsacl_cl_test.h — helpers the OpenCL API tests share (beside hsacl_test.h, which
 * knows nothing of OpenCL).
 */
#ifndef HSACL_CL_TEST_H
#define HSACL_CL_TEST_H

#include <CL/cl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

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
