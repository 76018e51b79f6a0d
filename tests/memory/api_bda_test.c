/*
 * tests/memory/api_bda_test.c — buffer device addresses (cl_ext_buffer_device_address 1.0.2)
 * through the loader:
 *   - the extension and its version; CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT buffers, with and
 *     without CL_MEM_COPY_HOST_PTR and on an SVM pointer (the address is the SVM pointer);
 *   - CL_MEM_DEVICE_ADDRESS_EXT equals the pointer a kernel sees, a sub-buffer's is the
 *     parent's plus its origin, the size query protocol;
 *   - clSetKernelArgDevicePointerEXT with an interior address (the kernel reads before it),
 *     an address stored in another buffer and followed by the kernel
 *     (CL_KERNEL_EXEC_INFO_DEVICE_PTRS_EXT);
 *   - the errors: the query on a plain buffer, bad and repeated properties, arguments that
 *     are no global pointer, an invalid kernel.
 * argv[1] "2.0": HSACL_OPENCL_VERSION=2.0, where the extension (it needs OpenCL 3.0) is not
 * reported: the property is CL_INVALID_OPERATION and the function is not found.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext.h>

#include <stdbool.h>
#include <stdint.h>

#include "hsacl_cl_test.h"
#include "hsacl_test.h"

#ifndef CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT
typedef cl_ulong cl_mem_device_address_ext;
typedef cl_int CL_API_CALL clSetKernelArgDevicePointerEXT_t(cl_kernel kernel, cl_uint arg_index,
                                                            cl_mem_device_address_ext arg_value);
typedef clSetKernelArgDevicePointerEXT_t *clSetKernelArgDevicePointerEXT_fn;
#define CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT 0x5000
#define CL_MEM_DEVICE_ADDRESS_EXT 0x5001
#define CL_KERNEL_EXEC_INFO_DEVICE_PTRS_EXT 0x5002
#endif

static cl_platform_id platform;
static cl_context ctx;
static cl_device_id device;
static cl_command_queue q;
static clSetKernelArgDevicePointerEXT_fn set_dev_ptr;

static const char *source =
   "kernel void addr(global int *buf, global ulong *out) { buf[0] += 1; *out = (ulong)buf; }\n"
   "kernel void back(global const int *p, global int *out) { *out = p[-2]; }\n"
   "kernel void follow(global const ulong *where, global int *out) {\n"
   "   *out = *(global const int *)where[0];\n"
   "}\n"
   "kernel void args(global int *g, local int *l, int v) { g[0] = v; }\n";

static cl_mem
bda_buffer(cl_mem_flags flags, size_t size, void *host, cl_int *err)
{
   const cl_mem_properties props[] = { CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT, CL_TRUE, 0 };
   return clCreateBufferWithProperties(ctx, props, flags, size, host, err);
}

static cl_mem_device_address_ext
address_of(cl_mem m)
{
   cl_mem_device_address_ext a = 0;
   size_t ret = 0;
   CHECK_EQ_INT(clGetMemObjectInfo(m, CL_MEM_DEVICE_ADDRESS_EXT, sizeof(a), &a, &ret),
                CL_SUCCESS);
   CHECK_EQ_INT(ret, sizeof(a));
   return a;
}

static cl_kernel
kernel(cl_program prog, const char *name)
{
   cl_int err;
   cl_kernel k = clCreateKernel(prog, name, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   return k;
}

static void
run1(cl_kernel k)
{
   size_t one = 1;
   CHECK_EQ_INT(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, NULL, 0, NULL, NULL), CL_SUCCESS);
   CHECK_EQ_INT(clFinish(q), CL_SUCCESS);
}

static void
test_addresses(cl_program prog)
{
   cl_int err, init[64];
   for (int i = 0; i < 64; i++)
      init[i] = 100 + i;
   cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 16, NULL, &err);
   cl_mem plain = bda_buffer(CL_MEM_READ_WRITE, sizeof(init), NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_mem copied = bda_buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(init), init, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   cl_kernel k = kernel(prog, "addr");
   cl_mem bufs[] = { plain, copied };
   for (int b = 0; b < 2; b++) {
      cl_mem_device_address_ext a = address_of(bufs[b]);
      CHECK(a != 0);
      clSetKernelArg(k, 0, sizeof(cl_mem), &bufs[b]);
      clSetKernelArg(k, 1, sizeof(cl_mem), &out);
      run1(k);
      cl_ulong seen = 0;
      CHECK_EQ_INT(clEnqueueReadBuffer(q, out, CL_TRUE, 0, 8, &seen, 0, NULL, NULL), CL_SUCCESS);
      CHECK_EQ_INT(seen, a);
      CHECK_EQ_INT(address_of(bufs[b]), a); /* fixed for the buffer's lifetime */
   }
   cl_int first = 0;
   clEnqueueReadBuffer(q, copied, CL_TRUE, 0, 4, &first, 0, NULL, NULL);
   CHECK_EQ_INT(first, 101);
   clReleaseKernel(k);

   /* size protocol; a sub-buffer's address is the parent's plus its origin */
   size_t ret = 0;
   CHECK_EQ_INT(clGetMemObjectInfo(copied, CL_MEM_DEVICE_ADDRESS_EXT, 0, NULL, &ret), CL_SUCCESS);
   CHECK_EQ_INT(ret, sizeof(cl_mem_device_address_ext));
   cl_mem_device_address_ext a;
   CHECK_EQ_INT(clGetMemObjectInfo(copied, CL_MEM_DEVICE_ADDRESS_EXT, 4, &a, NULL),
                CL_INVALID_VALUE);
   cl_uint align = 0;
   clGetDeviceInfo(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof(align), &align, NULL);
   cl_buffer_region region = { align / 8, 64 };
   cl_mem parent = bda_buffer(CL_MEM_READ_WRITE, region.origin + region.size, NULL, &err);
   cl_mem sub = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   CHECK_EQ_INT(address_of(sub), address_of(parent) + region.origin);
   clReleaseMemObject(sub);
   clReleaseMemObject(parent);

   /* an interior address as an argument: the kernel reads two ints before it */
   k = kernel(prog, "back");
   CHECK_EQ_INT(set_dev_ptr(k, 0, address_of(copied) + 5 * sizeof(cl_int)), CL_SUCCESS);
   clSetKernelArg(k, 1, sizeof(cl_mem), &out);
   run1(k);
   cl_int got = 0;
   clEnqueueReadBuffer(q, out, CL_TRUE, 0, 4, &got, 0, NULL, NULL);
   CHECK_EQ_INT(got, 103);
   clReleaseKernel(k);

   /* an address stored in memory, followed by the kernel */
   k = kernel(prog, "follow");
   cl_mem_device_address_ext where = address_of(copied) + 10 * sizeof(cl_int);
   cl_mem wbuf = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof(where), &where, &err);
   CHECK_EQ_INT(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_DEVICE_PTRS_EXT, sizeof(where), &where),
                CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_DEVICE_PTRS_EXT, 3, &where),
                CL_INVALID_VALUE);
   clSetKernelArg(k, 0, sizeof(cl_mem), &wbuf);
   clSetKernelArg(k, 1, sizeof(cl_mem), &out);
   run1(k);
   clEnqueueReadBuffer(q, out, CL_TRUE, 0, 4, &got, 0, NULL, NULL);
   CHECK_EQ_INT(got, 110);
   clReleaseKernel(k);
   clReleaseMemObject(wbuf);

   /* on an SVM pointer the address is the SVM pointer */
   void *svm = clSVMAlloc(ctx, CL_MEM_READ_WRITE, 256, 0);
   cl_mem over = bda_buffer(CL_MEM_USE_HOST_PTR, 256, svm, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   CHECK_EQ_INT(address_of(over), (uintptr_t)svm);
   clReleaseMemObject(over);
   clSVMFree(ctx, svm);

   /* errors */
   CHECK_EQ_INT(clGetMemObjectInfo(out, CL_MEM_DEVICE_ADDRESS_EXT, sizeof(a), &a, NULL),
                CL_INVALID_OPERATION);
   const cl_mem_properties off[] = { CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT, CL_FALSE, 0 };
   cl_mem m = clCreateBufferWithProperties(ctx, off, 0, 16, NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   CHECK_EQ_INT(clGetMemObjectInfo(m, CL_MEM_DEVICE_ADDRESS_EXT, sizeof(a), &a, NULL),
                CL_INVALID_OPERATION);
   cl_mem_properties got_props[8];
   size_t np = 0;
   CHECK_EQ_INT(clGetMemObjectInfo(m, CL_MEM_PROPERTIES, sizeof(got_props), got_props, &np),
                CL_SUCCESS);
   CHECK(np == sizeof(off) && got_props[0] == CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT);
   clReleaseMemObject(m);
   const cl_mem_properties bad[] = { CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT, 7, 0 };
   CHECK(!clCreateBufferWithProperties(ctx, bad, 0, 16, NULL, &err) && err == CL_INVALID_PROPERTY);
   const cl_mem_properties twice[] = { CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT, CL_TRUE,
                                       CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT, CL_TRUE, 0 };
   CHECK(!clCreateBufferWithProperties(ctx, twice, 0, 16, NULL, &err) &&
         err == CL_INVALID_PROPERTY);
   k = kernel(prog, "args");
   CHECK_EQ_INT(set_dev_ptr(NULL, 0, 0), CL_INVALID_KERNEL);
   CHECK_EQ_INT(set_dev_ptr(k, 0, 0), CL_SUCCESS); /* any value the kernel does not follow */
   CHECK_EQ_INT(set_dev_ptr(k, 1, 0x15465), CL_INVALID_ARG_INDEX); /* local */
   CHECK_EQ_INT(set_dev_ptr(k, 2, 0x15465), CL_INVALID_ARG_INDEX); /* int */
   CHECK_EQ_INT(set_dev_ptr(k, 3, 0x15465), CL_INVALID_ARG_INDEX); /* no such argument */
   clReleaseKernel(k);
   clReleaseMemObject(plain);
   clReleaseMemObject(copied);
   clReleaseMemObject(out);
}

int
main(int argc, char **argv)
{
   test_watchdog("api_bda", 240);
   const bool cl20 = argc > 1 && !strcmp(argv[1], "2.0");
   cl_int err;
   if (clGetPlatformIDs(1, &platform, NULL) != CL_SUCCESS ||
       clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &device, NULL) != CL_SUCCESS) {
      fprintf(stderr, "no OpenCL GPU\n");
      return 1;
   }
   ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
   q = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
   set_dev_ptr = (clSetKernelArgDevicePointerEXT_fn)clGetExtensionFunctionAddressForPlatform(
      platform, "clSetKernelArgDevicePointerEXT");
   if (cl20) {
      CHECK(!test_device_lists(device, CL_DEVICE_EXTENSIONS, "cl_ext_buffer_device_address"));
      CHECK(set_dev_ptr == NULL);
      CHECK(!bda_buffer(0, 16, NULL, &err) && err == CL_INVALID_OPERATION);
   } else {
      cl_name_version nv[256];
      size_t size = 0;
      clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS_WITH_VERSION, sizeof(nv), nv, &size);
      cl_version version = 0;
      for (size_t i = 0; i < size / sizeof(nv[0]); i++) {
         if (!strcmp(nv[i].name, "cl_ext_buffer_device_address"))
            version = nv[i].version;
      }
      CHECK_EQ_INT(version, CL_MAKE_VERSION(1, 0, 2));
      CHECK(set_dev_ptr != NULL);
      cl_program prog = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
      CHECK_EQ_INT(clBuildProgram(prog, 1, &device, NULL, NULL, NULL), CL_SUCCESS);
      if (set_dev_ptr)
         test_addresses(prog);
      clReleaseProgram(prog);
   }
   clReleaseCommandQueue(q);
   clReleaseContext(ctx);
   return test_main_end();
}
