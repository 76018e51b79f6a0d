// il_recursion.cl — SPIR-V with recursion (comp_api_il_test test_recursion): OpenCL C forbids
// it, clang-15 and the translator do not, so the build of the module must refuse it.
int odd(int n);

int
even(int n)
{
   return n == 0 ? 1 : odd(n - 1);
}

int
odd(int n)
{
   return n == 0 ? 0 : even(n - 1);
}

int
fact(int n)
{
   return n <= 1 ? 1 : n * fact(n - 1);
}

kernel void
parity(global int *o)
{
   o[0] = even(o[1]) + fact(o[2]);
}
