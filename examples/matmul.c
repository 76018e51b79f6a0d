/*
 * examples/matmul.c — C = A x B for 256x256 floats on the first hsacl device, tiled:
 * each 16x16 work-group stages a tile of A and of B in local memory per step and every
 * work-item accumulates one element of C from them. The inputs are small integers, so
 * every partial sum is an integer below 2^24 and exact in float: the check against the
 * host's product is exact whatever order or fusing either side uses.
 * Exit status: 0 right product, 1 wrong, 2 no hsacl device or a CL error.
 */
#include "example.h"

#define DIM 256
#define TILE 16

static const char *source =
   "#define TILE 16\n"
   "/* c[row][col] = sum_k a[row][k] * b[k][col] for n x n row-major matrices,\n"
   "   n a multiple of TILE, launched as n x n items in TILE x TILE groups. */\n"
   "kernel void matmul(global const float *a, global const float *b, global float *c,\n"
   "                   int n)\n"
   "{\n"
   "   local float ta[TILE][TILE], tb[TILE][TILE];\n"
   "   int col = get_global_id(0), row = get_global_id(1);\n"
   "   int lx = get_local_id(0), ly = get_local_id(1);\n"
   "   float acc = 0.0f;\n"
   "   for (int t = 0; t < n; t += TILE) {\n"
   "      ta[ly][lx] = a[row * n + t + lx];\n"
   "      tb[ly][lx] = b[(t + ly) * n + col];\n"
   "      barrier(CLK_LOCAL_MEM_FENCE);\n"
   "      for (int k = 0; k < TILE; k++)\n"
   "         acc += ta[ly][k] * tb[k][lx];\n"
   "      barrier(CLK_LOCAL_MEM_FENCE);\n"
   "   }\n"
   "   c[row * n + col] = acc;\n"
   "}\n";

int
main(void)
{
   cl_int err;
   cl_context ctx;
   cl_command_queue q;
   example_name = "matmul";
   cl_device_id dev = example_open(&ctx, &q);
   cl_program prog = example_build(ctx, dev, source, NULL);
   cl_kernel k = clCreateKernel(prog, "matmul", &err);
   CL_TRY(err);

   const size_t bytes = DIM * DIM * sizeof(float);
   float *a = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes), *want = malloc(bytes);
   for (int i = 0; i < DIM * DIM; i++) {
      a[i] = (float)((i * 7 + 3) % 9 - 4);  /* -4 .. 4 */
      b[i] = (float)((i * 5 + 1) % 11 - 5); /* -5 .. 5 */
   }
   for (int r = 0; r < DIM; r++)
      for (int col = 0; col < DIM; col++) {
         float s = 0;
         for (int kk = 0; kk < DIM; kk++)
            s += a[r * DIM + kk] * b[kk * DIM + col];
         want[r * DIM + col] = s;
      }

   cl_mem ba = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, a, &err);
   CL_TRY(err);
   cl_mem bb = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, b, &err);
   CL_TRY(err);
   cl_mem bc = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, bytes, NULL, &err);
   CL_TRY(err);
   cl_int n = DIM;
   CL_TRY(clSetKernelArg(k, 0, sizeof(cl_mem), &ba));
   CL_TRY(clSetKernelArg(k, 1, sizeof(cl_mem), &bb));
   CL_TRY(clSetKernelArg(k, 2, sizeof(cl_mem), &bc));
   CL_TRY(clSetKernelArg(k, 3, sizeof(cl_int), &n));
   size_t global[2] = { DIM, DIM }, local[2] = { TILE, TILE };
   CL_TRY(clEnqueueNDRangeKernel(q, k, 2, NULL, global, local, 0, NULL, NULL));
   CL_TRY(clEnqueueReadBuffer(q, bc, CL_TRUE, 0, bytes, c, 0, NULL, NULL));

   long bad = 0;
   double trace = 0;
   for (int i = 0; i < DIM * DIM; i++) {
      if (c[i] != want[i]) {
         if (bad < 5)
            fprintf(stderr, "matmul: c[%d][%d] = %g, expected %g\n", i / DIM, i % DIM, c[i],
                    want[i]);
         bad++;
      }
   }
   for (int i = 0; i < DIM; i++)
      trace += c[i * DIM + i];
   printf("matmul: C = A x B, %dx%d floats in %dx%d tiles; C[0][0] = %g, C[%d][%d] = %g, "
          "trace(C) = %g\n", DIM, DIM, TILE, TILE, c[0], DIM - 1, DIM - 1,
          c[DIM * DIM - 1], trace);
   printf("matmul: %s (%ld of %d elements differ from the host)\n", bad ? "FAILED" : "OK", bad,
          DIM * DIM);

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
   free(want);
   return bad ? EXAMPLE_WRONG : EXAMPLE_OK;
}
