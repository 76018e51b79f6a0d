/*
 * tests/dispatch/api_printf_test.c — OpenCL C printf output, byte for byte (OpenCL C 3.0 §6.15.14):
 * scalar conversions with flags, width, precision and the hh/h/l length modifiers, %A and
 * %F, strings,
 * %%, pointers, and vectors (the vN specifier with hh/h/hl/l, including 3-vectors, which
 * the compiler pads, and small char vectors, whose elements it widens); a null %s argument
 * and NaNs of either sign (issue #29), excess arguments. stdout is
 * redirected to a file while each kernel runs; the text is compared with what the host's
 * printf gives for the same values.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <math.h>
#include <stdint.h>
#include <unistd.h>

#include "hsacl_test.h"

static cl_context ctx;
static cl_device_id device;
static cl_command_queue q;
static const char *build_options = "";

/* Runs `body` as the single work-item of a kernel with a global int* argument `p`
 * (p[0..1] receive a global address for %p) and returns what it printed (malloc'd). */
static char *
run(const char *body, uint64_t *addr)
{
   char src[4096];
   snprintf(src, sizeof(src),
            "kernel void k(global ulong *p) {\n"
            "  p[0] = (ulong)(p + 1);\n"
            "%s\n"
            "}\n",
            body);
   const char *s = src;
   cl_int err;
   cl_program pr = clCreateProgramWithSource(ctx, 1, &s, NULL, &err);
   err = clBuildProgram(pr, 1, &device, build_options, NULL, NULL);
   if (err != CL_SUCCESS) {
      char log[8192] = "";
      clGetProgramBuildInfo(pr, device, CL_PROGRAM_BUILD_LOG, sizeof(log), log, NULL);
      fprintf(stderr, "build failed (%d):\n%s\n%s\n", err, src, log);
      clReleaseProgram(pr);
      return NULL;
   }
   cl_kernel k = clCreateKernel(pr, "k", &err);
   cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 16, NULL, &err);
   clSetKernelArg(k, 0, sizeof(m), &m);

   FILE *tmp = tmpfile();
   fflush(stdout);
   int saved = dup(STDOUT_FILENO);
   dup2(fileno(tmp), STDOUT_FILENO);
   size_t one = 1;
   err = clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, 0, NULL, NULL);
   clFinish(q);
   fflush(stdout);
   dup2(saved, STDOUT_FILENO);
   close(saved);
   CHECK_EQ_INT(err, CL_SUCCESS);
   CHECK_EQ_INT(clEnqueueReadBuffer(q, m, CL_TRUE, 0, 8, addr, 0, NULL, NULL), CL_SUCCESS);

   long n = ftell(tmp);
   char *out = calloc(1, (size_t)(n > 0 ? n : 0) + 1);
   rewind(tmp);
   if (n > 0 && fread(out, 1, (size_t)n, tmp) != (size_t)n)
      out[0] = 0;
   fclose(tmp);
   clReleaseMemObject(m);
   clReleaseKernel(k);
   clReleaseProgram(pr);
   return out;
}

static void
expect(const char *body, const char *want)
{
   uint64_t addr = 0;
   char *got = run(body, &addr);
   CHECK_STR(got, want);
   free(got);
}

int
main(void)
{
   cl_platform_id platform;
   cl_int err;
   if (clGetPlatformIDs(1, &platform, NULL) != CL_SUCCESS ||
       clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL) != CL_SUCCESS) {
      fprintf(stderr, "no hsacl device\n");
      return 1;
   }
   ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
   q = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);

   char want[512];
   /* Scalars: integers with flags, width, precision, length modifiers. */
   snprintf(want, sizeof(want), "[%5d|%-5d|%+d|%05d|%x|%#X|%o|%u|%hhd|%hd|%ld|%lu|%c]\n", 42,
            42, 42, -42, 255u, 255u, 8u, 4000000000u, (signed char)300, (short)70000,
            -1234567890123l, 18446744073709551615ul, 'Z');
   expect("printf(\"[%5d|%-5d|%+d|%05d|%x|%#X|%o|%u|%hhd|%hd|%ld|%lu|%c]\\n\", 42, 42, 42, "
          "-42, 255u, 255u, 8u, 4000000000u, 300, 70000, -1234567890123l, "
          "18446744073709551615ul, 'Z');",
          want);
   /* Floats and doubles. */
   snprintf(want, sizeof(want), "[%f|%.2f|%10.3e|%g|%G|%a|%.1f|%e]\n", 1.5, 3.14159, 12345.678,
            0.0001, 1e20, 1.0, -2.25, 6.02214076e23);
   expect("printf(\"[%f|%.2f|%10.3e|%g|%G|%a|%.1f|%e]\\n\", 1.5f, 3.14159f, 12345.678f, "
          "0.0001f, 1e20f, 1.0f, -2.25, 6.02214076e23);",
          want);
   /* %A and %F (LLVM 19's printf binding knows neither: compiler/comp_passes.cpp), with a
    * ':' and a tab in the format, %a and %f beside them in the same and another printf,
    * and an argument after them (it must not shift). */
   snprintf(want, sizeof(want), "[%A|%.1A|%F|%F:\t%a|%f|%d]\n", 1.0, -0.5, 2.5, 1.0 / 0.0,
            1.0, 0.25, 7);
   expect("printf(\"[%A|%.1A|%F|%F:\\t%a|%f|%d]\\n\", 1.0f, -0.5f, 2.5f, INFINITY, 1.0f, "
          "0.25f, 7);",
          want);
   snprintf(want, sizeof(want), "%F %a\n", -1.0 / 0.0, 3.0);
   expect("printf(\"%F %a\\n\", -INFINITY, 3.0f);", want);
   /* Strings, %%, and a global pointer (the kernel stores the same address in p[0]). */
   expect("printf(\"[%s|%5.2s|%-4s|%.1s|100%%]\\n\", \"gpu\", \"abc\", \"x\", \"yz\");",
          "[gpu|   ab|x   |y|100%]\n");
   uint64_t addr = 0;
   char *got = run("printf(\"%p\\n\", (global void *)(p + 1));", &addr);
   snprintf(want, sizeof(want), "%p\n", (void *)(uintptr_t)addr);
   CHECK(addr != 0);
   CHECK_STR(got, want);
   free(got);
   /* Vectors. */
   expect("printf(\"%2.2v4hlf|%v2hlf|%v3hlf\\n\", (float4)(1.0f, 2.0f, 3.0f, 4.0f), "
          "(float2)(0.5f, -1.0f), (float3)(1.5f, 2.0f, 3.0f));",
          "1.00,2.00,3.00,4.00|0.500000,-1.000000|1.500000,2.000000,3.000000\n");
   expect("printf(\"%#v2hhx|%v4hhd|%v3hhd|%v8hhu\\n\", (uchar2)(0xFA, 0xFB), "
          "(char4)(1, -2, 3, 4), (char3)(1, 2, -3), (uchar8)(1, 2, 3, 4, 5, 6, 7, 255));",
          "0xfa,0xfb|1,-2,3,4|1,2,-3|1,2,3,4,5,6,7,255\n");
   expect("printf(\"%v2hd|%v3hd|%#v2hlx|%v4hli\\n\", (short2)(1, -2), (short3)(7, 8, -9), "
          "(uint2)(0x12345678, 0x87654321), (int4)(-1, 0, 1, 2147483647));",
          "1,-2|7,8,-9|0x12345678,0x87654321|-1,0,1,2147483647\n");
   expect("printf(\"%v2ld|%v3lu|%v16hlx\\n\", (long2)(12345678, -98765432), "
          "(ulong3)(1, 2, 18446744073709551615ul), (uint16)(10));",
          "12345678,-98765432|1,2,18446744073709551615|a,a,a,a,a,a,a,a,a,a,a,a,a,a,a,a\n");
   expect("printf(\"%v2lf|%.3v4lf\\n\", (double2)(1.5, -2.0), (double4)(0.25, 1.0/3.0, 2.0, "
          "-0.0));",
          "1.500000,-2.000000|0.250,0.333,2.000,-0.000\n");
   /* OpenCL C 3.1's z and t length modifiers: size_t and ptrdiff_t are 64 bits here. */
   expect("printf(\"%zu|%zx|%td|%5zu\\n\", (size_t)18446744073709551615ul, "
          "(size_t)0x123456789ul, (ptrdiff_t)-9876543210l, (size_t)7);",
          "18446744073709551615|123456789|-9876543210|    7\n");
   /* A null %s argument prints "(null)", as glibc and PoCL print it, with the width and
    * precision applied to that text; at -cl-opt-disable as well (the compiler rewrites the
    * argument before LLVM's printf binding, which stored "???" for it). Other arguments
    * stay literals, and a %s after them is not shifted. */
   static const char null_body[] =
      "printf(\"[%s|%8s|%-8s|%.3s|%d|%s]\\n\", NULL, (constant char *)0, "
      "(constant char *)0, (constant char *)0, 5, \"ok\");";
   expect(null_body, "[(null)|  (null)|(null)  |(nu|5|ok]\n");
   build_options = "-cl-opt-disable";
   expect(null_body, "[(null)|  (null)|(null)  |(nu|5|ok]\n");
   build_options = "";
   /* Arguments past the format's last conversion are evaluated and ignored (OpenCL C 3.0
    * §6.15.14); LLVM's binding counted them without sizing them, and the code object's
    * printf metadata was refused, failing the build. */
   static const char excess_body[] =
      "int n = 0;\n"
      "printf(\"[%d]\\n\", 1, n++, 2.0f, \"y\");\n"
      "printf(\"[%d|%s|%%]\\n\", n, \"z\", NULL, (int2)(1, 2));\n"
      "printf(\"[]\\n\", n++);\n"
      "printf(\"[%d]\\n\", n);";
   expect(excess_body, "[1]\n[1|z|%]\n[]\n[2]\n");
   build_options = "-cl-opt-disable";
   expect(excess_body, "[1]\n[1|z|%]\n[]\n[2]\n");
   build_options = "";
   /* NaNs print as the host's C library prints the same value: "[-]nan" (OpenCL C 3.0
    * §6.15.14), the sign from the sign bit, through the promotion of a float to double, for
    * every floating conversion and with the sign, space and width flags. */
   snprintf(want, sizeof(want), "[%f|%e|%g|%a|%F|%+f|% f|%6.1f|%-6f]\n", (double)NAN,
            (double)NAN, (double)NAN, (double)NAN, (double)NAN, (double)NAN, (double)NAN,
            (double)NAN, (double)NAN);
   expect("float n = as_float(0x7FC00000u);\n"
          "printf(\"[%f|%e|%g|%a|%F|%+f|% f|%6.1f|%-6f]\\n\", n, n, n, n, n, n, n, n, n);",
          want);
   CHECK_STR(want, "[nan|nan|nan|nan|NAN|+nan| nan|   nan|nan   ]\n");
   snprintf(want, sizeof(want), "[%f|%e|%g|%a|%F|%+f|% f|%6.1f|%-6f]\n", -(double)NAN,
            -(double)NAN, -(double)NAN, -(double)NAN, -(double)NAN, -(double)NAN,
            -(double)NAN, -(double)NAN, -(double)NAN);
   expect("float n = as_float(0xFFC00000u);\n"
          "printf(\"[%f|%e|%g|%a|%F|%+f|% f|%6.1f|%-6f]\\n\", n, n, n, n, n, n, n, n, n);",
          want);
   CHECK_STR(want, "[-nan|-nan|-nan|-nan|-NAN|-nan|-nan|  -nan|-nan  ]\n");
   expect("printf(\"%f %f %f %f %v2hlf %v2lf\\n\", NAN, -NAN, as_double(0x7FF8000000000000ul), "
          "as_double(0xFFF8000000000000ul), (float2)(NAN, -NAN), "
          "(double2)(-NAN, as_double(0x7FF0000000000001ul)));",
          "nan -nan nan -nan nan,-nan -nan,nan\n");

   /* Several calls in order, and text around conversions. */
   expect("for (int i = 0; i < 3; i++) printf(\"line %d of %d\\n\", i, 3);",
          "line 0 of 3\nline 1 of 3\nline 2 of 3\n");

   clReleaseCommandQueue(q);
   clReleaseContext(ctx);
   return test_main_end();
}
