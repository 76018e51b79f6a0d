/*
 * examples/starpu_mpi.c — a StarPU-MPI program whose OpenCL codelets run on hsacl, one
 * process (MPI rank) per device, with data that crosses processes at every step.
 *
 * Two vectors: x belongs to rank 0, y to rank 1 (StarPU-MPI runs a task on the rank that
 * owns the data it writes and moves what it reads). Each of ITERATIONS rounds is
 *    step_a (rank 0): x = x + y + 1    (reads rank 1's y)
 *    step_b (rank 1): y = y + 2x       (reads rank 0's new x)
 * so every round sends x from rank 0 to rank 1 and y back. At the end rank 0 fetches y and
 * checks x and y against the host's rounds (small integers: exact in float); every rank
 * checks that its tasks ran on its OpenCL worker and that the worker's device is on the
 * platform named "hsacl" (or HSACL_EXAMPLE_PLATFORM, e.g. PoCL's "Portable Computing
 * Language"). StarPU's own configuration picks the device: the runner and the ctest give
 * each process one OpenCL worker and no CPU worker (STARPU_NCPU=0, STARPU_NOPENCL=1).
 *
 * Run: mpirun -np 2 examples/starpu_mpi (loopback only here; across machines, see README).
 * Exit status: 0 right result, 1 wrong result, 2 no OpenCL worker, a foreign device or an
 * error.
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <starpu.h>
#include <starpu_mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { OK = 0, WRONG = 1, ERROR = 2 };
enum { N = 4096, ITERATIONS = 6, TAG_X = 10, TAG_Y = 11 };

static const char *source =
   "kernel void step_a(global float *x, uint xo, global const float *y, uint yo, uint n)\n"
   "{\n"
   "   uint i = get_global_id(0);\n"
   "   if (i < n)\n"
   "      x[xo + i] = x[xo + i] + y[yo + i] + 1.0f;\n"
   "}\n"
   "kernel void step_b(global const float *x, uint xo, global float *y, uint yo, uint n)\n"
   "{\n"
   "   uint i = get_global_id(0);\n"
   "   if (i < n)\n"
   "      y[yo + i] = y[yo + i] + 2.0f * x[xo + i];\n"
   "}\n";

static struct starpu_opencl_program program;
static int tasks_run; /* this process's codelet runs (StarPU's single OpenCL worker) */

/* One of the kernels over the two vectors, which are buffers[0] and buffers[1] either way. */
static void
run_step(const char *kernel_name, void *buffers[])
{
   cl_mem x = (cl_mem)STARPU_VECTOR_GET_DEV_HANDLE(buffers[0]);
   cl_mem y = (cl_mem)STARPU_VECTOR_GET_DEV_HANDLE(buffers[1]);
   cl_uint xo = (cl_uint)(STARPU_VECTOR_GET_OFFSET(buffers[0]) / sizeof(float));
   cl_uint yo = (cl_uint)(STARPU_VECTOR_GET_OFFSET(buffers[1]) / sizeof(float));
   cl_uint n = (cl_uint)STARPU_VECTOR_GET_NX(buffers[0]);
   int devid = starpu_worker_get_devid(starpu_worker_get_id_check());
   cl_kernel k;
   cl_command_queue q;
   cl_int err = starpu_opencl_load_kernel(&k, &q, &program, kernel_name, devid);
   if (err != CL_SUCCESS)
      STARPU_OPENCL_REPORT_ERROR(err);
   err = clSetKernelArg(k, 0, sizeof(x), &x);
   err |= clSetKernelArg(k, 1, sizeof(xo), &xo);
   err |= clSetKernelArg(k, 2, sizeof(y), &y);
   err |= clSetKernelArg(k, 3, sizeof(yo), &yo);
   err |= clSetKernelArg(k, 4, sizeof(n), &n);
   if (err != CL_SUCCESS)
      STARPU_OPENCL_REPORT_ERROR(err);
   size_t global = n;
   err = clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL);
   if (err == CL_SUCCESS)
      err = clFinish(q); /* a synchronous codelet: the data is ready when it returns */
   if (err != CL_SUCCESS)
      STARPU_OPENCL_REPORT_ERROR(err);
   starpu_opencl_release_kernel(k);
   __atomic_add_fetch(&tasks_run, 1, __ATOMIC_RELAXED);
}

static void
step_a(void *buffers[], void *arg)
{
   (void)arg;
   run_step("step_a", buffers);
}

static void
step_b(void *buffers[], void *arg)
{
   (void)arg;
   run_step("step_b", buffers);
}

/* OpenCL implementations only: a task cannot fall back to a CPU worker. */
static struct starpu_codelet cl_a = {
   .opencl_funcs = {step_a}, .nbuffers = 2, .modes = {STARPU_RW, STARPU_R}, .name = "step_a"};
static struct starpu_codelet cl_b = {
   .opencl_funcs = {step_b}, .nbuffers = 2, .modes = {STARPU_R, STARPU_RW}, .name = "step_b"};

/* Prints this rank's OpenCL device; OK when it is on the platform the example wants. */
static int
check_device(int rank)
{
   int id;
   if (starpu_worker_get_ids_by_type(STARPU_OPENCL_WORKER, &id, 1) != 1) {
      fprintf(stderr, "starpu_mpi: rank %d has no OpenCL worker\n", rank);
      return ERROR;
   }
   cl_device_id dev;
   cl_platform_id platform;
   char name[128] = "", pname[128] = "";
   starpu_opencl_get_device(starpu_worker_get_devid(id), &dev);
   clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof(name), name, NULL);
   clGetDeviceInfo(dev, CL_DEVICE_PLATFORM, sizeof(platform), &platform, NULL);
   clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof(pname), pname, NULL);
   const char *want = getenv("HSACL_EXAMPLE_PLATFORM");
   if (!want || !*want)
      want = "hsacl";
   printf("starpu_mpi: rank %d: OpenCL worker on %s device %s (pid %ld)\n", rank, pname, name,
          (long)getpid());
   if (strcmp(pname, want) != 0) {
      fprintf(stderr, "starpu_mpi: rank %d: device is not on platform %s\n", rank, want);
      return ERROR;
   }
   return OK;
}

/* The rounds on the host; OK when x and y are what the ranks computed, bit for bit. */
static int
check_result(const float *x, const float *y)
{
   int bad = 0;
   for (int i = 0; i < N; i++) {
      float hx = (float)(i % 7), hy = (float)(i % 5);
      for (int r = 0; r < ITERATIONS; r++) {
         hx = hx + hy + 1.0f;
         hy = hy + 2.0f * hx;
      }
      if (x[i] != hx || y[i] != hy) {
         if (bad++ < 5)
            fprintf(stderr, "starpu_mpi: [%d] x %g y %g, expected %g %g\n", i, x[i], y[i], hx,
                    hy);
      }
   }
   printf("starpu_mpi: %d rounds over ranks 0 and 1: %s (y[%d] = %g)\n", ITERATIONS,
          bad ? "WRONG" : "x and y as the host computes them", N - 1, y[N - 1]);
   return bad ? WRONG : OK;
}

int
main(int argc, char **argv)
{
   int rank = 0, size = 0, status = ERROR;
   float *x = NULL, *y = NULL;
   starpu_data_handle_t hx = NULL, hy = NULL;
   struct starpu_conf conf;
   starpu_conf_init(&conf);
   int err = starpu_mpi_init_conf(&argc, &argv, 1, MPI_COMM_WORLD, &conf);
   if (err != 0) {
      fprintf(stderr, "starpu_mpi: starpu_mpi_init_conf: %s\n", strerror(-err));
      return ERROR;
   }
   starpu_mpi_comm_rank(MPI_COMM_WORLD, &rank);
   starpu_mpi_comm_size(MPI_COMM_WORLD, &size);
   if (size != 2) {
      if (rank == 0)
         fprintf(stderr, "starpu_mpi: needs 2 ranks (mpirun -np 2), has %d\n", size);
      goto shutdown;
   }
   int device = check_device(rank);
   if (starpu_opencl_load_opencl_from_string(source, &program, NULL) != 0) {
      fprintf(stderr, "starpu_mpi: rank %d: the program does not build\n", rank);
      goto shutdown;
   }

   /* Each rank holds the vector it owns; the other is registered without memory (-1). */
   x = malloc(N * sizeof(float));
   y = malloc(N * sizeof(float));
   for (int i = 0; i < N; i++) {
      x[i] = (float)(i % 7);
      y[i] = (float)(i % 5);
   }
   starpu_vector_data_register(&hx, rank == 0 ? STARPU_MAIN_RAM : -1,
                               rank == 0 ? (uintptr_t)x : 0, N, sizeof(float));
   starpu_vector_data_register(&hy, rank == 1 ? STARPU_MAIN_RAM : -1,
                               rank == 1 ? (uintptr_t)y : 0, N, sizeof(float));
   starpu_mpi_data_register(hx, TAG_X, 0);
   starpu_mpi_data_register(hy, TAG_Y, 1);

   for (int r = 0; r < ITERATIONS; r++) {
      starpu_mpi_task_insert(MPI_COMM_WORLD, &cl_a, STARPU_RW, hx, STARPU_R, hy, 0);
      starpu_mpi_task_insert(MPI_COMM_WORLD, &cl_b, STARPU_R, hx, STARPU_RW, hy, 0);
   }
   starpu_mpi_get_data_on_node(MPI_COMM_WORLD, hy, 0); /* y's last value, to rank 0 */
   starpu_task_wait_for_all();

   status = device;
   if (tasks_run != ITERATIONS) {
      fprintf(stderr, "starpu_mpi: rank %d ran %d tasks, expected %d\n", rank, tasks_run,
              ITERATIONS);
      status = WRONG;
   }
   if (rank == 0) {
      starpu_data_acquire(hx, STARPU_R);
      starpu_data_acquire(hy, STARPU_R);
      const float *dx = (const float *)starpu_data_get_local_ptr(hx);
      const float *dy = (const float *)starpu_data_get_local_ptr(hy);
      int r = check_result(dx, dy);
      if (status == OK)
         status = r;
      starpu_data_release(hy);
      starpu_data_release(hx);
   }
   starpu_data_unregister(hx);
   starpu_data_unregister(hy);
   starpu_opencl_unload_opencl(&program);
shutdown:
   starpu_mpi_shutdown();
   free(x);
   free(y);
   return status;
}
