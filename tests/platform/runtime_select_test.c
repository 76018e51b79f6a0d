/*
 * tests/platform/runtime_select_test.c — HSACL_RUNTIME selection, run by ctest under several
 * environments. argv[1] is what must come out: "sim" (a device on the software runtime),
 * "rocr" (a device on AMD's ROCr, here over the software KFD) or "none" (the platform is
 * listed, clGetDeviceIDs says CL_DEVICE_NOT_FOUND). The device is the software GPU's target
 * (test_sim_target: HSACL_SIM_GPUS, gfx906 by default) on either runtime.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdbool.h>

#include "hsacl_test.h"

int
main(int argc, char **argv)
{
   if (argc != 2) {
      fprintf(stderr, "usage: runtime_select_test sim|rocr|none\n");
      return 2;
   }
   bool rocr = !strcmp(argv[1], "rocr");
   char target[32];
   test_sim_target(target, sizeof(target));
   const char *expect = !strcmp(argv[1], "none") ? "none" : target;
   cl_platform_id platform = NULL;
   cl_uint n = 0;
   CHECK_EQ_INT(clGetPlatformIDs(1, &platform, &n), CL_SUCCESS);
   CHECK_EQ_INT(n, 1);
   char name[64] = "";
   clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof(name), name, NULL);
   CHECK_STR(name, "hsacl");

   cl_device_id device = NULL;
   cl_int err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, &n);
   if (!strcmp(expect, "none")) {
      CHECK_EQ_INT(err, CL_DEVICE_NOT_FOUND);
      cl_context ctx = clCreateContextFromType(NULL, CL_DEVICE_TYPE_GPU, NULL, NULL, &err);
      CHECK(ctx == NULL);
      CHECK_EQ_INT(err, CL_DEVICE_NOT_FOUND);
   } else {
      CHECK_EQ_INT(err, CL_SUCCESS);
      CHECK_EQ_INT(n, 1);
      clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof(name), name, NULL);
      CHECK_STR(name, expect);
      char driver[256] = "";
      clGetDeviceInfo(device, CL_DRIVER_VERSION, sizeof(driver), driver, NULL);
      if (rocr)
         CHECK(strstr(driver, "ROCr") != NULL);
      else
         CHECK((strstr(driver, "software") != NULL && strstr(driver, target) != NULL) ||
               strstr(driver, "libhsacl-sim"));
   }
   return test_main_end();
}
