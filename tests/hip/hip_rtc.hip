/* hipRTC (AMD's comgr behind it) compiles a kernel at run time for the device's ISA; the
 * code object is loaded with hipModuleLoadData and launched with hipModuleLaunchKernel, with
 * a __constant__ symbol found through hipModuleGetGlobal. */
#include "hip_check.h"
#include <hip/hiprtc.h>
#include <string.h>

#define RTC_CHECK(call)                                                                   \
   do {                                                                                   \
      hiprtcResult rtc_check_r = (call);                                                  \
      if (rtc_check_r != HIPRTC_SUCCESS) {                                                \
         fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                    \
                 hiprtcGetErrorString(rtc_check_r));                                      \
         exit(1);                                                                         \
      }                                                                                   \
   } while (0)

static const char source[] =
   "__constant__ int scale;\n"
   "extern \"C\" __global__ void saxpy(const float *x, float *y, float a, int n)\n"
   "{\n"
   "   int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
   "   if (i < n)\n"
   "      y[i] = a * x[i] + y[i] * scale;\n"
   "}\n";

int main(void)
{
   hipDeviceProp_t prop;
   HIP_CHECK(hipGetDeviceProperties(&prop, 0));
   char arch[300];
   snprintf(arch, sizeof(arch), "--gpu-architecture=%s", prop.gcnArchName);
   hiprtcProgram prog;
   RTC_CHECK(hiprtcCreateProgram(&prog, source, "saxpy.hip", 0, NULL, NULL));
   const char *opts[] = {arch, "-O2"};
   hiprtcResult built = hiprtcCompileProgram(prog, 2, opts);
   if (built != HIPRTC_SUCCESS) {
      size_t log_size = 0;
      hiprtcGetProgramLogSize(prog, &log_size);
      char *log = (char *)calloc(1, log_size + 1);
      hiprtcGetProgramLog(prog, log);
      fprintf(stderr, "hiprtcCompileProgram (%s): %s\n%s\n", arch, hiprtcGetErrorString(built),
              log);
      return 1;
   }
   size_t size;
   RTC_CHECK(hiprtcGetCodeSize(prog, &size));
   char *code = (char *)malloc(size);
   RTC_CHECK(hiprtcGetCode(prog, code));
   RTC_CHECK(hiprtcDestroyProgram(&prog));
   EXPECT(size > 4 && memcmp(code, "\177ELF", 4) == 0, "hipRTC's code is no ELF");

   hipModule_t module;
   hipFunction_t saxpy;
   HIP_CHECK(hipModuleLoadData(&module, code));
   HIP_CHECK(hipModuleGetFunction(&saxpy, module, "saxpy"));
   hipDeviceptr_t scale_ptr;
   size_t scale_size;
   HIP_CHECK(hipModuleGetGlobal(&scale_ptr, &scale_size, module, "scale"));
   EXPECT(scale_size == sizeof(int), "__constant__ int is %zu bytes", scale_size);
   int three = 3;
   HIP_CHECK(hipMemcpyHtoD(scale_ptr, &three, sizeof(three)));

   const int n = 3000;
   static float x[3000], y[3000], out[3000];
   for (int i = 0; i < n; i++) {
      x[i] = (float)i;
      y[i] = (float)(n - i) * 0.5f;
   }
   float *dx, *dy;
   HIP_CHECK(hipMalloc(&dx, sizeof(x)));
   HIP_CHECK(hipMalloc(&dy, sizeof(y)));
   HIP_CHECK(hipMemcpy(dx, x, sizeof(x), hipMemcpyHostToDevice));
   HIP_CHECK(hipMemcpy(dy, y, sizeof(y), hipMemcpyHostToDevice));
   float a = 2.5f;
   int count = n;
   void *args[] = {&dx, &dy, &a, &count};
   HIP_CHECK(hipModuleLaunchKernel(saxpy, (n + 127) / 128, 1, 1, 128, 1, 1, 0, 0, args, NULL));
   HIP_CHECK(hipMemcpy(out, dy, sizeof(out), hipMemcpyDeviceToHost));
   for (int i = 0; i < n; i++) {
      float want = a * x[i] + y[i] * 3;
      EXPECT(out[i] == want, "saxpy[%d] = %a, host %a", i, out[i], want);
   }
   HIP_CHECK(hipFree(dx));
   HIP_CHECK(hipFree(dy));
   HIP_CHECK(hipModuleUnload(module));
   free(code);
   return hip_check_done("hip_rtc");
}
