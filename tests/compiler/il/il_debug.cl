// cl_khr_spirv_extended_debug_info (comp_api_il_ext_test): compiled with clang-15 -g and
// Khronos' translator for LLVM 15, whose module carries OpenCL.DebugInfo.100 instructions
// (some of which SPIRV-Tools rejects: DebugInfoNone as a DebugSource's text).
// out[g] = a * g + 3 + helper(g), helper a function of its own, so that the module has more
// than one DebugFunction and a DebugScope per call.
static int helper(int x)
{
   int y = x ^ 5;
   return y * 2;
}

kernel void debug_kernel(global int *out, int a)
{
   size_t g = get_global_id(0);
   int t = a * (int)g;
   out[g] = t + 3 + helper((int)g);
}
