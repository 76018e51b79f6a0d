// tests/compiler/il/il_extern.cl — an IL program calling a function an OpenCL C
// program defines (comp_api_il_test.c test_link: clCompileProgram of both, clLinkProgram).
int il_helper(int x);

kernel void use_helper(global int *out)
{
   out[get_global_id(0)] = il_helper((int)get_global_id(0));
}
