/*
 * examples/vector_add.c — c = a + b over 1M floats on the first hsacl device.
 *
 * Finds the platform named "hsacl" among all the ICD loader offers, runs one kernel,
 * reads the result back and checks every element against the host's sum (float
 * addition is correctly rounded on both sides, so the check is exact).
 * Exit status: 0 when every element matches, 1 otherwise, 2 when no hsacl device or a
 * CL call fails.
 */
#include "example.h"

#define N (1 << 20)

static const char *source =
   "kernel void vector_add(global const float *a, global const float *b, global float *c)\n"
   "{\n"
   "   size_t i = get_global_id(0);\n"
   "   c[i] = a[i] + b[i];\n"
   "}\n";

int
main(void)
{
   cl_int err;
   cl_context ctx;
   cl_command_queue q;
   example_name = "vector_add";
   cl_device_id dev = example_open(&ctx, &q);
   cl_program prog = example_build(ctx, dev, source, NULL);
   cl_kernel k = clCreateKernel(prog, "vector_add", &err);
   CL_TRY(err);

   float *a = malloc(N * sizeof(float)), *b = malloc(N * sizeof(float));
   float *c = malloc(N * sizeof(float));
   for (int i = 0; i < N; i++) {
      a[i] = (float)i * 0.5f;
      b[i] = 1.0f / (float)(i + 1);
   }
   cl_mem ba = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * sizeof(float),
                              a, &err);
   CL_TRY(err);
   cl_mem bb = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * sizeof(float),
                              b, &err);
   CL_TRY(err);
   cl_mem bc = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, N * sizeof(float), NULL, &err);
   CL_TRY(err);
   CL_TRY(clSetKernelArg(k, 0, sizeof(cl_mem), &ba));
   CL_TRY(clSetKernelArg(k, 1, sizeof(cl_mem), &bb));
   CL_TRY(clSetKernelArg(k, 2, sizeof(cl_mem), &bc));
   size_t global = N;
   CL_TRY(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL));
   CL_TRY(clEnqueueReadBuffer(q, bc, CL_TRUE, 0, N * sizeof(float), c, 0, NULL, NULL));

   long bad = 0;
   double sum = 0;
   for (int i = 0; i < N; i++) {
      float want = a[i] + b[i];
      if (memcmp(&c[i], &want, sizeof(float)) != 0) {
         if (bad < 5)
            fprintf(stderr, "vector_add: c[%d] = %.9g, expected %.9g\n", i, c[i], want);
         bad++;
      }
      sum += c[i];
   }
   printf("vector_add: c = a + b for %d floats; c[1] = %.6g, c[%d] = %.9g, sum(c) = %.6e\n", N,
          c[1], N - 1, c[N - 1], sum);
   printf("vector_add: %s (%ld of %d elements differ from the host)\n", bad ? "FAILED" : "OK",
          bad, N);

   clReleaseMemObject(ba);
   clReleaseMemObject(bb);
   clReleaseMemObject(bc);
   clReleaseKernel(k);
   clReleaseProgram(prog);
   clReleaseCommandQueue(q);
   clReleaseContext(ctx);
   free(a);
   free(b);
   free(c);
   return bad ? EXAMPLE_WRONG : EXAMPLE_OK;
}
