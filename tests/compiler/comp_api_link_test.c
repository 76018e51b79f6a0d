/*
 * comp_api_link_test — separate compilation and linking through the system ICD loader
 * (OpenCL 3.0 API §5.8.5, §5.8.7): clCompileProgram with embedded headers, clLinkProgram of
 * compiled objects into an executable run on the device, -create-library and linking a
 * library, binary round trips of compiled objects and libraries, the binary type at every
 * stage, link errors in the specification's order (a failed link still returns a program
 * whose log names the symbol), asynchronous links with pfn_notify.
 */
#include "comp_api_test.h"

#include <pthread.h>
#include <stdbool.h>

#define N 16

/* The kernel calls helper(), defined in another object; SCALE comes from an embedded
 * header. */
static const char *src_kernel = "#include \"inc/scale.h\"\n"
                                "int helper(int x);\n"
                                "kernel void k(global int *p)\n"
                                "{ int i = (int)get_global_id(0); p[i] = helper(i) * SCALE; }\n";
static const char *src_header = "#define SCALE 3\n";
static const char *src_helper = "int helper(int x) { return x + 7; }\n"
                                "kernel void k2(global int *p) { p[0] = helper(1); }\n";
static const char *src_helper_again = "int helper(int x) { return x; }\n";
static const char *src_kernel_again = "kernel void k(global int *p) { p[0] = 0; }\n";

static cl_command_queue queue;

static cl_program_binary_type
binary_type(cl_program p)
{
   cl_program_binary_type t = 0xdead;
   CHECK_EQ_INT(clGetProgramBuildInfo(p, device, CL_PROGRAM_BINARY_TYPE, sizeof(t), &t, NULL),
                CL_SUCCESS);
   return t;
}

static cl_build_status
build_status(cl_program p)
{
   cl_build_status st = 0xdead;
   CHECK_EQ_INT(clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_STATUS, sizeof(st), &st,
                                      NULL),
                CL_SUCCESS);
   return st;
}

/* clCompileProgram of `src` (with the embedded header when `with_header`). */
static cl_program
compile(const char *src, bool with_header)
{
   cl_program p = program_from_source(src);
   cl_program hdr = with_header ? program_from_source(src_header) : NULL;
   const char *names[] = { "inc/scale.h" };
   cl_int err = clCompileProgram(p, 1, &device, NULL, with_header ? 1 : 0,
                                 with_header ? &hdr : NULL, with_header ? names : NULL, NULL,
                                 NULL);
   if (err != CL_SUCCESS) {
      char *log = build_log(p);
      fprintf(stderr, "clCompileProgram: %d; log:\n%s\n", err, log);
      free(log);
   }
   CHECK_EQ_INT(err, CL_SUCCESS);
   CHECK_EQ_INT(binary_type(p), CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
   if (hdr)
      clReleaseProgram(hdr);
   return p;
}

static cl_program
link2(const char *options, cl_program a, cl_program b, cl_int want)
{
   cl_program in[2] = { a, b };
   cl_int err;
   cl_program p = clLinkProgram(context, 1, &device, options, b ? 2 : 1, in, NULL, NULL, &err);
   if (err != want && p) {
      char *log = build_log(p);
      fprintf(stderr, "clLinkProgram(\"%s\") = %d, expected %d; log:\n%s\n",
              options ? options : "", err, want, log);
      free(log);
   }
   CHECK_EQ_INT(err, want);
   return p;
}

/* Runs kernel k of `p` over N items and checks p[i] = (i + 7) * 3. */
static void
run_k(cl_program p)
{
   cl_int err;
   cl_kernel k = clCreateKernel(p, "k", &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   if (!k)
      return;
   cl_mem buf = clCreateBuffer(context, CL_MEM_READ_WRITE, N * sizeof(cl_int), NULL, &err);
   CHECK_EQ_INT(err, CL_SUCCESS);
   CHECK_EQ_INT(clSetKernelArg(k, 0, sizeof(buf), &buf), CL_SUCCESS);
   size_t global = N;
   CHECK_EQ_INT(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL, NULL),
                CL_SUCCESS);
   cl_int out[N] = { 0 };
   CHECK_EQ_INT(clEnqueueReadBuffer(queue, buf, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL),
                CL_SUCCESS);
   int bad = 0;
   for (int i = 0; i < N; i++)
      bad += out[i] != (i + 7) * 3;
   CHECK_EQ_INT(bad, 0);
   clReleaseMemObject(buf);
   clReleaseKernel(k);
}

static void
test_compile_link_run(void)
{
   cl_program src = program_from_source(src_kernel);
   CHECK_EQ_INT(binary_type(src), CL_PROGRAM_BINARY_TYPE_NONE);
   clReleaseProgram(src);

   cl_program a = compile(src_kernel, true);
   cl_program b = compile(src_helper, false);
   cl_program exe = link2(NULL, a, b, CL_SUCCESS);
   CHECK(exe != NULL);
   if (!exe)
      goto out;
   CHECK_EQ_INT(binary_type(exe), CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
   CHECK_EQ_INT(build_status(exe), CL_BUILD_SUCCESS);
   char names[64] = "";
   size_t num = 0;
   CHECK_EQ_INT(clGetProgramInfo(exe, CL_PROGRAM_KERNEL_NAMES, sizeof(names), names, NULL),
                CL_SUCCESS);
   CHECK(!strcmp(names, "k;k2") || !strcmp(names, "k2;k"));
   CHECK_EQ_INT(clGetProgramInfo(exe, CL_PROGRAM_NUM_KERNELS, sizeof(num), &num, NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(num, 2);
   cl_uint ndev = 0;
   clGetProgramInfo(exe, CL_PROGRAM_NUM_DEVICES, sizeof(ndev), &ndev, NULL);
   CHECK_EQ_INT(ndev, 1);
   run_k(exe);
   /* A linked program has neither source nor options to rebuild from. */
   CHECK_EQ_INT(clBuildProgram(exe, 0, NULL, NULL, NULL, NULL), CL_INVALID_OPERATION);
   CHECK_EQ_INT(clCompileProgram(exe, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL),
                CL_INVALID_OPERATION);
   /* Its executable is no link input. */
   cl_int err;
   cl_program in[2] = { exe, b };
   CHECK(!clLinkProgram(context, 0, NULL, NULL, 2, in, NULL, NULL, &err));
   CHECK_EQ_INT(err, CL_INVALID_OPERATION);
   clReleaseProgram(exe);
out:
   clReleaseProgram(a);
   clReleaseProgram(b);
}

/* The binary of `p` for the device, recreated with clCreateProgramWithBinary. */
static cl_program
reload(cl_program p, cl_program_binary_type want)
{
   size_t size = 0;
   CHECK_EQ_INT(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof(size), &size, NULL),
                CL_SUCCESS);
   CHECK(size > 0);
   unsigned char *bin = malloc(size ? size : 1);
   unsigned char *ptrs[1] = { bin };
   CHECK_EQ_INT(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof(ptrs), ptrs, NULL),
                CL_SUCCESS);
   cl_int status = -1, err;
   cl_program q = clCreateProgramWithBinary(context, 1, &device, &size,
                                            (const unsigned char **)ptrs, &status, &err);
   CHECK(q && err == CL_SUCCESS && status == CL_SUCCESS);
   if (q)
      CHECK_EQ_INT(binary_type(q), want);
   /* Damaged bitcode inside the wrapper: CL_INVALID_BINARY, never a crash. */
   if (size > 256) {
      memset(bin + 64, 0, 64);
      cl_program bad = clCreateProgramWithBinary(context, 1, &device, &size,
                                                 (const unsigned char **)ptrs, &status, &err);
      CHECK(!bad && err == CL_INVALID_BINARY);
   }
   free(bin);
   return q;
}

static void
test_library_and_binaries(void)
{
   cl_program a = compile(src_kernel, true);
   cl_program b = compile(src_helper, false);
   cl_program lib = link2("-create-library", b, NULL, CL_SUCCESS);
   CHECK(lib != NULL);
   if (!lib)
      goto out;
   CHECK_EQ_INT(binary_type(lib), CL_PROGRAM_BINARY_TYPE_LIBRARY);
   CHECK_EQ_INT(build_status(lib), CL_BUILD_SUCCESS);
   size_t n;
   CHECK_EQ_INT(clGetProgramInfo(lib, CL_PROGRAM_NUM_KERNELS, sizeof(n), &n, NULL),
                CL_INVALID_PROGRAM_EXECUTABLE);

   /* Object + library -> executable. */
   cl_program exe = link2("", a, lib, CL_SUCCESS);
   if (exe) {
      run_k(exe);
      clReleaseProgram(exe);
   }

   /* Round trips: the compiled object and the library reload with their types and link. */
   cl_program a2 = reload(a, CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
   cl_program lib2 = reload(lib, CL_PROGRAM_BINARY_TYPE_LIBRARY);
   if (a2 && lib2) {
      CHECK_EQ_INT(clBuildProgram(a2, 0, NULL, NULL, NULL, NULL), CL_INVALID_BINARY);
      exe = link2(NULL, a2, lib2, CL_SUCCESS);
      if (exe) {
         CHECK_EQ_INT(binary_type(exe), CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
         run_k(exe);
         clReleaseProgram(exe);
      }
   }
   if (a2)
      clReleaseProgram(a2);
   if (lib2)
      clReleaseProgram(lib2);

   /* Link options: on compiled objects, and on libraries created with
    * -enable-link-options; that one only with -create-library. */
   cl_program lib_opts = link2("-create-library -enable-link-options", b, NULL, CL_SUCCESS);
   if (lib_opts) {
      CHECK_EQ_INT(binary_type(lib_opts), CL_PROGRAM_BINARY_TYPE_LIBRARY);
      exe = link2("-cl-fast-relaxed-math -cl-denorms-are-zero", a, lib_opts, CL_SUCCESS);
      if (exe) {
         run_k(exe);
         clReleaseProgram(exe);
      }
      clReleaseProgram(lib_opts);
   }
   clReleaseProgram(lib);
out:
   clReleaseProgram(a);
   clReleaseProgram(b);
}

static void
check_log_names(cl_program p, const char *what)
{
   char *log = build_log(p);
   if (!strstr(log, what))
      fprintf(stderr, "link log does not name %s:\n%s\n", what, log);
   CHECK(strstr(log, what) != NULL);
   free(log);
}

static void
test_link_errors(void)
{
   cl_int err;
   cl_program a = compile(src_kernel, true);
   cl_program b = compile(src_helper, false);
   cl_program in[2] = { a, b };
   int user = 1;

   /* In the order of §5.8.5. */
   CHECK(!clLinkProgram(NULL, 0, NULL, NULL, 2, in, NULL, NULL, &err));
   CHECK_EQ_INT(err, CL_INVALID_CONTEXT);
   CHECK(!clLinkProgram(context, 1, NULL, NULL, 2, in, NULL, NULL, &err));
   CHECK_EQ_INT(err, CL_INVALID_VALUE);
   CHECK(!clLinkProgram(context, 0, &device, NULL, 2, in, NULL, NULL, &err));
   CHECK_EQ_INT(err, CL_INVALID_VALUE);
   CHECK(!clLinkProgram(context, 0, NULL, NULL, 0, NULL, NULL, NULL, &err));
   CHECK_EQ_INT(err, CL_INVALID_VALUE);
   CHECK(!clLinkProgram(context, 0, NULL, NULL, 0, in, NULL, NULL, &err));
   CHECK_EQ_INT(err, CL_INVALID_VALUE);
   CHECK(!clLinkProgram(context, 0, NULL, NULL, 2, NULL, NULL, NULL, &err));
   CHECK_EQ_INT(err, CL_INVALID_VALUE);
   cl_program bogus[2] = { a, (cl_program)context };
   CHECK(!clLinkProgram(context, 0, NULL, NULL, 2, bogus, NULL, NULL, &err));
   CHECK_EQ_INT(err, CL_INVALID_PROGRAM);
   CHECK(!clLinkProgram(context, 0, NULL, NULL, 2, in, NULL, &user, &err));
   CHECK_EQ_INT(err, CL_INVALID_VALUE);
   cl_device_id bad_dev = (cl_device_id)context;
   CHECK(!clLinkProgram(context, 1, &bad_dev, NULL, 2, in, NULL, NULL, &err));
   CHECK_EQ_INT(err, CL_INVALID_DEVICE);
   const char *bad_options[] = { "-invalid- --link-- options", "-enable-link-options",
                                 "-cl-mad-enable", "-DX=1", "-cl-std=CL2.0" };
   for (size_t i = 0; i < sizeof(bad_options) / sizeof(bad_options[0]); i++) {
      CHECK(!clLinkProgram(context, 0, NULL, bad_options[i], 2, in, NULL, NULL, &err));
      CHECK_EQ_INT(err, CL_INVALID_LINKER_OPTIONS);
   }
   /* Only created from source: no compiled object to link. */
   cl_program src = program_from_source(src_helper);
   CHECK(!clLinkProgram(context, 0, NULL, NULL, 1, &src, NULL, NULL, &err));
   CHECK_EQ_INT(err, CL_INVALID_OPERATION);
   cl_program mixed[2] = { a, src };
   CHECK(!clLinkProgram(context, 0, NULL, NULL, 2, mixed, NULL, NULL, &err));
   CHECK_EQ_INT(err, CL_INVALID_OPERATION);
   clReleaseProgram(src);

   /* Failures: a program comes back, CL_BUILD_ERROR, a log naming the symbol. */
   cl_program p = link2(NULL, a, NULL, CL_LINK_PROGRAM_FAILURE);
   CHECK(p != NULL);
   if (p) {
      CHECK_EQ_INT(build_status(p), CL_BUILD_ERROR);
      CHECK_EQ_INT(binary_type(p), CL_PROGRAM_BINARY_TYPE_NONE);
      check_log_names(p, "helper");
      CHECK(!clCreateKernel(p, "k", &err));
      CHECK_EQ_INT(err, CL_INVALID_PROGRAM_EXECUTABLE);
      clReleaseProgram(p);
   }
   cl_program b2 = compile(src_helper_again, false);
   p = link2(NULL, b, b2, CL_LINK_PROGRAM_FAILURE);
   if (p) {
      CHECK_EQ_INT(build_status(p), CL_BUILD_ERROR);
      check_log_names(p, "helper");
      clReleaseProgram(p);
   }
   /* The duplicate is found when making a library too. */
   p = link2("-create-library", b, b2, CL_LINK_PROGRAM_FAILURE);
   if (p)
      clReleaseProgram(p);
   clReleaseProgram(b2);
   cl_program a2 = compile(src_kernel_again, false);
   p = link2(NULL, a, a2, CL_LINK_PROGRAM_FAILURE);
   if (p) {
      check_log_names(p, "'k'");
      clReleaseProgram(p);
   }
   clReleaseProgram(a2);
   clReleaseProgram(a);
   clReleaseProgram(b);
}

struct notify_state {
   pthread_mutex_t lock;
   pthread_cond_t cond;
   int calls;
   cl_build_status status;
};

static void CL_CALLBACK
link_notify(cl_program program, void *user_data)
{
   struct notify_state *s = user_data;
   cl_build_status st = CL_BUILD_NONE;
   clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_STATUS, sizeof(st), &st, NULL);
   pthread_mutex_lock(&s->lock);
   s->status = st;
   s->calls++;
   pthread_cond_signal(&s->cond);
   pthread_mutex_unlock(&s->lock);
}

static void
test_async_link(void)
{
   cl_program a = compile(src_kernel, true);
   cl_program b = compile(src_helper, false);
   cl_program in[2] = { a, b };
   struct notify_state s = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0 };
   cl_int err;
   cl_program p = clLinkProgram(context, 1, &device, NULL, 2, in, link_notify, &s, &err);
   CHECK(p && err == CL_SUCCESS);
   pthread_mutex_lock(&s.lock);
   while (s.calls == 0)
      pthread_cond_wait(&s.cond, &s.lock);
   pthread_mutex_unlock(&s.lock);
   CHECK_EQ_INT(s.calls, 1);
   CHECK_EQ_INT(s.status, CL_BUILD_SUCCESS);
   if (p) {
      run_k(p);
      clReleaseProgram(p);
   }
   /* A failing asynchronous link: the callback sees CL_BUILD_ERROR. */
   s.calls = 0;
   p = clLinkProgram(context, 1, &device, NULL, 1, &a, link_notify, &s, &err);
   CHECK(p && err == CL_SUCCESS);
   pthread_mutex_lock(&s.lock);
   while (s.calls == 0)
      pthread_cond_wait(&s.cond, &s.lock);
   pthread_mutex_unlock(&s.lock);
   CHECK_EQ_INT(s.status, CL_BUILD_ERROR);
   if (p) {
      check_log_names(p, "helper");
      clReleaseProgram(p);
   }
   clReleaseProgram(a);
   clReleaseProgram(b);
}

int
main(void)
{
   test_setup();
   cl_int err;
   queue = clCreateCommandQueue(context, device, 0, &err);
   if (!queue) {
      fprintf(stderr, "clCreateCommandQueue: %d\n", err);
      return 1;
   }
   cl_bool linker = CL_FALSE;
   clGetDeviceInfo(device, CL_DEVICE_LINKER_AVAILABLE, sizeof(linker), &linker, NULL);
   CHECK_EQ_INT(linker, CL_TRUE);
   test_compile_link_run();
   test_library_and_binaries();
   test_link_errors();
   test_async_link();
   clReleaseCommandQueue(queue);
   clReleaseContext(context);
   return test_main_end();
}
