/*
 * tests/memory/api_image_test.c — images and samplers on a device that supports neither
 * (CL_DEVICE_IMAGE_SUPPORT is CL_FALSE), through the system ICD loader:
 * clGetSupportedImageFormats succeeds with zero formats for every image type and validates
 * its arguments; creating an image or sampler is CL_INVALID_OPERATION in a valid context and
 * CL_INVALID_CONTEXT otherwise; every function given a handle that cannot be an image or
 * sampler says so after validating its queue (OpenCL 3.0 API §5.3, §5.7). A device supports
 * images exactly when its runtime provides the HSA image extension (ROCr does; the software
 * runtime once sim/ provides it): then only the handle checks below apply, and
 * tests/memory/api_image_objects_test.c and api_image_kernel_test.c cover images. Pipes: tests/memory/api_pipe_test.c.
 */
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>

#include "hsacl_test.h"

int
main(void)
{
   cl_platform_id platform;
   cl_device_id device;
   cl_int err;
   if (clGetPlatformIDs(1, &platform, NULL) != CL_SUCCESS ||
       clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL) != CL_SUCCESS) {
      fprintf(stderr, "no hsacl device\n");
      return 1;
   }
   cl_bool images = CL_TRUE;
   CHECK_EQ_INT(clGetDeviceInfo(device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL),
                CL_SUCCESS);
   const char *rt = getenv("HSACL_RUNTIME");
   if (rt && !strcmp(rt, "rocr"))
      CHECK_EQ_INT(images, CL_TRUE); /* ROCr 5.2.3 has its image extension built in */

   cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_command_queue q = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4096, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);

   if (!images) {
      /* clGetSupportedImageFormats: zero formats for every type and flag. */
      const cl_mem_object_type types[] = { CL_MEM_OBJECT_IMAGE1D, CL_MEM_OBJECT_IMAGE1D_BUFFER,
                                           CL_MEM_OBJECT_IMAGE1D_ARRAY, CL_MEM_OBJECT_IMAGE2D,
                                           CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_MEM_OBJECT_IMAGE3D };
      const cl_mem_flags flags[] = { CL_MEM_READ_WRITE, CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY,
                                     CL_MEM_KERNEL_READ_AND_WRITE };
      for (size_t t = 0; t < sizeof types / sizeof *types; t++) {
         for (size_t f = 0; f < sizeof flags / sizeof *flags; f++) {
            cl_uint n = 77;
            cl_image_format fmt[4];
            CHECK_EQ_INT(clGetSupportedImageFormats(ctx, flags[f], types[t], 0, NULL, &n),
                         CL_SUCCESS);
            CHECK_EQ_INT(n, 0);
            n = 77;
            CHECK_EQ_INT(clGetSupportedImageFormats(ctx, flags[f], types[t], 4, fmt, &n),
                         CL_SUCCESS);
            CHECK_EQ_INT(n, 0);
         }
      }
      CHECK_EQ_INT(clGetSupportedImageFormats(ctx, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0,
                                              NULL, NULL),
                   CL_SUCCESS);
      cl_image_format fmt1;
      CHECK_EQ_INT(clGetSupportedImageFormats(NULL, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0,
                                              NULL, NULL),
                   CL_INVALID_CONTEXT);
      CHECK_EQ_INT(clGetSupportedImageFormats((cl_context)q, CL_MEM_READ_WRITE,
                                              CL_MEM_OBJECT_IMAGE2D, 0, NULL, NULL),
                   CL_INVALID_CONTEXT);
      CHECK_EQ_INT(clGetSupportedImageFormats(ctx, CL_MEM_READ_WRITE, CL_MEM_OBJECT_BUFFER, 0,
                                              NULL, NULL),
                   CL_INVALID_VALUE);
      CHECK_EQ_INT(clGetSupportedImageFormats(ctx, (cl_mem_flags)1 << 40, CL_MEM_OBJECT_IMAGE2D,
                                              0, NULL, NULL),
                   CL_INVALID_VALUE);
      CHECK_EQ_INT(clGetSupportedImageFormats(ctx, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0,
                                              &fmt1, NULL),
                   CL_INVALID_VALUE);

      /* Creation: CL_INVALID_OPERATION in a valid context, CL_INVALID_CONTEXT before that. */
      cl_image_format rgba = { CL_RGBA, CL_UNORM_INT8 };
      cl_image_desc desc = { .image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 16,
                             .image_height = 16 };
      err = 0;
      CHECK(clCreateImage(ctx, CL_MEM_READ_WRITE, &rgba, &desc, NULL, &err) == NULL);
      CHECK_EQ_INT(err, CL_INVALID_OPERATION);
      CHECK(clCreateImage(NULL, CL_MEM_READ_WRITE, &rgba, &desc, NULL, &err) == NULL);
      CHECK_EQ_INT(err, CL_INVALID_CONTEXT);
      CHECK(clCreateImageWithProperties(ctx, NULL, CL_MEM_READ_WRITE, &rgba, &desc, NULL, &err) ==
            NULL);
      CHECK_EQ_INT(err, CL_INVALID_OPERATION);
      CHECK(clCreateImage2D(ctx, CL_MEM_READ_WRITE, &rgba, 16, 16, 0, NULL, &err) == NULL);
      CHECK_EQ_INT(err, CL_INVALID_OPERATION);
      CHECK(clCreateImage3D(ctx, CL_MEM_READ_WRITE, &rgba, 4, 4, 4, 0, 0, NULL, &err) == NULL);
      CHECK_EQ_INT(err, CL_INVALID_OPERATION);
      CHECK(clCreateImage(ctx, CL_MEM_READ_WRITE, &rgba, &desc, NULL, NULL) == NULL);

      CHECK(clCreateSampler(ctx, CL_FALSE, CL_ADDRESS_NONE, CL_FILTER_NEAREST, &err) == NULL);
      CHECK_EQ_INT(err, CL_INVALID_OPERATION);
      CHECK(clCreateSampler(NULL, CL_FALSE, CL_ADDRESS_NONE, CL_FILTER_NEAREST, &err) == NULL);
      CHECK_EQ_INT(err, CL_INVALID_CONTEXT);
      CHECK(clCreateSamplerWithProperties(ctx, NULL, &err) == NULL);
      CHECK_EQ_INT(err, CL_INVALID_OPERATION);
   }

   /* Handles that cannot be images or samplers. A buffer is not an image. */
   size_t v;
   CHECK_EQ_INT(clGetImageInfo(buf, CL_IMAGE_WIDTH, sizeof v, &v, NULL), CL_INVALID_MEM_OBJECT);
   CHECK_EQ_INT(clGetImageInfo(NULL, CL_IMAGE_WIDTH, sizeof v, &v, NULL), CL_INVALID_MEM_OBJECT);
   CHECK_EQ_INT(clRetainSampler(NULL), CL_INVALID_SAMPLER);
   CHECK_EQ_INT(clReleaseSampler(NULL), CL_INVALID_SAMPLER);
   CHECK_EQ_INT(clGetSamplerInfo(NULL, CL_SAMPLER_CONTEXT, sizeof ctx, &ctx, NULL),
                CL_INVALID_SAMPLER);

   size_t origin[3] = { 0, 0, 0 }, region[3] = { 1, 1, 1 };
   char host[64];
   float color[4] = { 0 };
   CHECK_EQ_INT(clEnqueueReadImage(q, buf, CL_TRUE, origin, region, 0, 0, host, 0, NULL, NULL),
                CL_INVALID_MEM_OBJECT);
   CHECK_EQ_INT(clEnqueueReadImage(NULL, buf, CL_TRUE, origin, region, 0, 0, host, 0, NULL,
                                   NULL),
                CL_INVALID_COMMAND_QUEUE);
   CHECK_EQ_INT(clEnqueueWriteImage(q, buf, CL_TRUE, origin, region, 0, 0, host, 0, NULL, NULL),
                CL_INVALID_MEM_OBJECT);
   CHECK_EQ_INT(clEnqueueCopyImage(q, buf, buf, origin, origin, region, 0, NULL, NULL),
                CL_INVALID_MEM_OBJECT);
   CHECK_EQ_INT(clEnqueueCopyImageToBuffer(q, buf, buf, origin, region, 0, 0, NULL, NULL),
                CL_INVALID_MEM_OBJECT);
   CHECK_EQ_INT(clEnqueueCopyBufferToImage(q, buf, buf, 0, origin, region, 0, NULL, NULL),
                CL_INVALID_MEM_OBJECT);
   CHECK_EQ_INT(clEnqueueFillImage(q, buf, color, origin, region, 0, NULL, NULL),
                CL_INVALID_MEM_OBJECT);
   CHECK_EQ_INT(clEnqueueFillImage(NULL, buf, color, origin, region, 0, NULL, NULL),
                CL_INVALID_COMMAND_QUEUE);
   size_t rp, sp;
   err = 0;
   CHECK(clEnqueueMapImage(q, buf, CL_TRUE, CL_MAP_READ, origin, region, &rp, &sp, 0, NULL,
                           NULL, &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_MEM_OBJECT);
   CHECK(clEnqueueMapImage(NULL, buf, CL_TRUE, CL_MAP_READ, origin, region, &rp, &sp, 0, NULL,
                           NULL, &err) == NULL);
   CHECK_EQ_INT(err, CL_INVALID_COMMAND_QUEUE);

   /* Nothing above disturbed the queue or the buffer. */
   cl_uint pattern = 0xa5a5a5a5u, back[4] = { 0 };
   CHECK_EQ_INT(clEnqueueFillBuffer(q, buf, &pattern, sizeof pattern, 0, sizeof back, 0, NULL,
                                    NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(back[3], 0xa5a5a5a5u);

   clReleaseMemObject(buf);
   clReleaseCommandQueue(q);
   clReleaseContext(ctx);
   return test_main_end();
}
