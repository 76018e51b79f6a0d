/*
 * comp_api_kernel_test — cl_kernel through the system ICD loader (OpenCL 3.0 API §5.9):
 * clCreateKernel errors, clCreateKernelsInProgram, clCloneKernel, reference counts, every
 * kernel query with the size-query protocol, argument info with and without
 * -cl-kernel-arg-info, work-group info (reqd_work_group_size, local memory, private
 * memory), sub-group info on a device without sub-groups.
 */
#include "comp_api_test.h"

static const char *src =
   "typedef struct { int a; float b; } pair;\n"
   "kernel void plain(global float *out, global const float *restrict in,\n"
   "                  constant int *table, local float *scratch, int n, pair p,\n"
   "                  volatile global uint *flags)\n"
   "{ size_t i = get_global_id(0); scratch[get_local_id(0)] = in[i] * table[0] + p.b;\n"
   "  barrier(CLK_LOCAL_MEM_FENCE); out[i] = scratch[0] + n + p.a; flags[0] = 1; }\n"
   "__attribute__((reqd_work_group_size(8, 4, 2)))\n"
   "__attribute__((vec_type_hint(float4)))\n"
   "kernel void sized(global int *out)\n"
   "{ local int tile[256]; tile[get_local_id(0)] = 1; barrier(CLK_LOCAL_MEM_FENCE);\n"
   "  out[get_global_id(0)] = tile[get_local_size(0) - 1 - get_local_id(0)]; }\n"
   "__attribute__((work_group_size_hint(64, 1, 1)))\n"
   "kernel void noargs(void) {}\n"
   "kernel void priv(global int *out, int n)\n"
   "{ int buf[64]; for (int i = 0; i < 64; i++) buf[i] = out[i] * n;\n"
   "  out[get_global_id(0)] = buf[(n + get_global_id(0)) & 63]; }\n";

static cl_int
get_kernel(void *o, cl_uint p, size_t s, void *v, size_t *r)
{
   return clGetKernelInfo(o, p, s, v, r);
}

static cl_uint arg_index;

static cl_int
get_arg(void *o, cl_uint p, size_t s, void *v, size_t *r)
{
   return clGetKernelArgInfo(o, arg_index, p, s, v, r);
}

static cl_int
get_wg(void *o, cl_uint p, size_t s, void *v, size_t *r)
{
   return clGetKernelWorkGroupInfo(o, device, p, s, v, r);
}

static cl_program
built(const char *options)
{
   cl_program p = program_from_source(src);
   build_expect(p, options, CL_SUCCESS);
   return p;
}

static void
test_create(cl_program p)
{
   cl_int err;
   CHECK(!clCreateKernel(NULL, "plain", &err));
   CHECK_EQ_INT(err, CL_INVALID_PROGRAM);
   CHECK(!clCreateKernel(p, "nope", &err));
   CHECK_EQ_INT(err, CL_INVALID_KERNEL_NAME);
   CHECK(!clCreateKernel(p, NULL, &err));
   CHECK_EQ_INT(err, CL_INVALID_VALUE);

   cl_uint n = 0;
   CHECK_EQ_INT(clCreateKernelsInProgram(p, 0, NULL, &n), CL_SUCCESS);
   CHECK_EQ_INT(n, 4);
   cl_kernel ks[4];
   CHECK_EQ_INT(clCreateKernelsInProgram(p, 3, ks, NULL), CL_INVALID_VALUE);
   cl_int made = clCreateKernelsInProgram(p, 4, ks, &n);
   CHECK_EQ_INT(made, CL_SUCCESS);
   if (made != CL_SUCCESS)
      return;
   CHECK_EQ_INT(n, 4);
   int seen = 0;
   for (int i = 0; i < 4; i++) {
      char name[32];
      CHECK_EQ_INT(clGetKernelInfo(ks[i], CL_KERNEL_FUNCTION_NAME, sizeof(name), name, NULL),
                   CL_SUCCESS);
      seen |= !strcmp(name, "plain") << 0 | !strcmp(name, "sized") << 1 |
              !strcmp(name, "noargs") << 2 | !strcmp(name, "priv") << 3;
      CHECK_EQ_INT(clReleaseKernel(ks[i]), CL_SUCCESS);
   }
   CHECK_EQ_INT(seen, 15);
   CHECK_EQ_INT(clRetainKernel(NULL), CL_INVALID_KERNEL);
   CHECK_EQ_INT(clReleaseKernel((cl_kernel)p), CL_INVALID_KERNEL);
}

static void
test_kernel_info(cl_program p)
{
   cl_int err;
   cl_kernel k = clCreateKernel(p, "plain", &err);
   CHECK(k && err == CL_SUCCESS);
   static const cl_uint queries[] = { CL_KERNEL_FUNCTION_NAME, CL_KERNEL_NUM_ARGS,
                                      CL_KERNEL_REFERENCE_COUNT, CL_KERNEL_CONTEXT,
                                      CL_KERNEL_PROGRAM, CL_KERNEL_ATTRIBUTES };
   for (size_t i = 0; i < sizeof(queries) / sizeof(queries[0]); i++)
      check_info_protocol("clGetKernelInfo", get_kernel, k, queries[i]);
   cl_uint nargs, refs;
   cl_context ctx;
   cl_program prog;
   char attrs[128];
   clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof(nargs), &nargs, NULL);
   CHECK_EQ_INT(nargs, 7);
   clRetainKernel(k);
   clGetKernelInfo(k, CL_KERNEL_REFERENCE_COUNT, sizeof(refs), &refs, NULL);
   CHECK_EQ_INT(refs, 2);
   clReleaseKernel(k);
   clGetKernelInfo(k, CL_KERNEL_CONTEXT, sizeof(ctx), &ctx, NULL);
   CHECK(ctx == context);
   clGetKernelInfo(k, CL_KERNEL_PROGRAM, sizeof(prog), &prog, NULL);
   CHECK(prog == p);
   clGetKernelInfo(k, CL_KERNEL_ATTRIBUTES, sizeof(attrs), attrs, NULL);
   CHECK_STR(attrs, "");
   CHECK_EQ_INT(clGetKernelInfo(k, 0x7fff, sizeof(refs), &refs, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(clGetKernelInfo(NULL, CL_KERNEL_NUM_ARGS, sizeof(refs), &refs, NULL),
                CL_INVALID_KERNEL);

   cl_kernel s = clCreateKernel(p, "sized", &err);
   clGetKernelInfo(s, CL_KERNEL_ATTRIBUTES, sizeof(attrs), attrs, NULL);
   CHECK(strstr(attrs, "reqd_work_group_size(8,4,2)") != NULL);
   CHECK(strstr(attrs, "vec_type_hint(float4)") != NULL);
   clReleaseKernel(s);
   cl_kernel h = clCreateKernel(p, "noargs", &err);
   clGetKernelInfo(h, CL_KERNEL_ATTRIBUTES, sizeof(attrs), attrs, NULL);
   CHECK_STR(attrs, "work_group_size_hint(64,1,1)");
   clGetKernelInfo(h, CL_KERNEL_NUM_ARGS, sizeof(nargs), &nargs, NULL);
   CHECK_EQ_INT(nargs, 0);
   clReleaseKernel(h);

   /* clCloneKernel: same function, independent reference count. */
   cl_kernel c = clCloneKernel(k, &err);
   CHECK(c && err == CL_SUCCESS && c != k);
   char name[32];
   clGetKernelInfo(c, CL_KERNEL_FUNCTION_NAME, sizeof(name), name, NULL);
   CHECK_STR(name, "plain");
   clGetKernelInfo(c, CL_KERNEL_REFERENCE_COUNT, sizeof(refs), &refs, NULL);
   CHECK_EQ_INT(refs, 1);
   CHECK(!clCloneKernel(NULL, &err));
   CHECK_EQ_INT(err, CL_INVALID_KERNEL);
   clReleaseKernel(k); /* the clone outlives its source */
   clGetKernelInfo(c, CL_KERNEL_NUM_ARGS, sizeof(nargs), &nargs, NULL);
   CHECK_EQ_INT(nargs, 7);
   clReleaseKernel(c);
}

struct expected_arg {
   const char *name, *type;
   cl_kernel_arg_address_qualifier addr;
   cl_kernel_arg_type_qualifier qual;
};

static void
test_arg_info(void)
{
   cl_int err;
   /* Without -cl-kernel-arg-info. */
   cl_program p = built(NULL);
   cl_kernel k = clCreateKernel(p, "plain", &err);
   char buf[64];
   CHECK_EQ_INT(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_NAME, sizeof(buf), buf, NULL),
                CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
   CHECK_EQ_INT(clGetKernelArgInfo(k, 7, CL_KERNEL_ARG_NAME, sizeof(buf), buf, NULL),
                CL_INVALID_ARG_INDEX);
   clReleaseKernel(k);
   clReleaseProgram(p);

   /* With it: every query of every argument. */
   p = built("-cl-kernel-arg-info");
   k = clCreateKernel(p, "plain", &err);
   static const struct expected_arg want[] = {
      { "out", "float*", CL_KERNEL_ARG_ADDRESS_GLOBAL, CL_KERNEL_ARG_TYPE_NONE },
      { "in", "float*", CL_KERNEL_ARG_ADDRESS_GLOBAL,
        CL_KERNEL_ARG_TYPE_CONST | CL_KERNEL_ARG_TYPE_RESTRICT },
      { "table", "int*", CL_KERNEL_ARG_ADDRESS_CONSTANT, CL_KERNEL_ARG_TYPE_CONST },
      { "scratch", "float*", CL_KERNEL_ARG_ADDRESS_LOCAL, CL_KERNEL_ARG_TYPE_NONE },
      { "n", "int", CL_KERNEL_ARG_ADDRESS_PRIVATE, CL_KERNEL_ARG_TYPE_NONE },
      { "p", "pair", CL_KERNEL_ARG_ADDRESS_PRIVATE, CL_KERNEL_ARG_TYPE_NONE },
      { "flags", "uint*", CL_KERNEL_ARG_ADDRESS_GLOBAL, CL_KERNEL_ARG_TYPE_VOLATILE },
   };
   for (cl_uint i = 0; i < 7; i++) {
      static const cl_uint queries[] = { CL_KERNEL_ARG_ADDRESS_QUALIFIER,
                                         CL_KERNEL_ARG_ACCESS_QUALIFIER, CL_KERNEL_ARG_TYPE_NAME,
                                         CL_KERNEL_ARG_TYPE_QUALIFIER, CL_KERNEL_ARG_NAME };
      arg_index = i;
      for (size_t q = 0; q < sizeof(queries) / sizeof(queries[0]); q++)
         check_info_protocol("clGetKernelArgInfo", get_arg, k, queries[q]);
      cl_kernel_arg_address_qualifier addr;
      cl_kernel_arg_access_qualifier access;
      cl_kernel_arg_type_qualifier qual;
      char name[32], type[32];
      clGetKernelArgInfo(k, i, CL_KERNEL_ARG_NAME, sizeof(name), name, NULL);
      clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_NAME, sizeof(type), type, NULL);
      clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof(addr), &addr, NULL);
      clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof(access), &access, NULL);
      clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof(qual), &qual, NULL);
      CHECK_STR(name, want[i].name);
      CHECK_STR(type, want[i].type);
      CHECK_EQ_INT(addr, want[i].addr);
      CHECK_EQ_INT(access, CL_KERNEL_ARG_ACCESS_NONE);
      CHECK_EQ_INT(qual, want[i].qual);
   }
   CHECK_EQ_INT(clGetKernelArgInfo(k, 0, 0x7fff, sizeof(buf), buf, NULL), CL_INVALID_VALUE);
   CHECK_EQ_INT(clGetKernelArgInfo(k, 9, CL_KERNEL_ARG_NAME, sizeof(buf), buf, NULL),
                CL_INVALID_ARG_INDEX);
   CHECK_EQ_INT(clGetKernelArgInfo(NULL, 0, CL_KERNEL_ARG_NAME, sizeof(buf), buf, NULL),
                CL_INVALID_KERNEL);
   clReleaseKernel(k);
   clReleaseProgram(p);
}

static void
test_work_group_info(cl_program p)
{
   cl_int err;
   size_t dev_max = 0;
   clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof(dev_max), &dev_max, NULL);
   cl_kernel plain = clCreateKernel(p, "plain", &err);
   cl_kernel sized = clCreateKernel(p, "sized", &err);
   cl_kernel priv = clCreateKernel(p, "priv", &err);
   static const cl_uint queries[] = {
      CL_KERNEL_WORK_GROUP_SIZE, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, CL_KERNEL_LOCAL_MEM_SIZE,
      CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, CL_KERNEL_PRIVATE_MEM_SIZE,
   };
   for (size_t q = 0; q < sizeof(queries) / sizeof(queries[0]); q++) {
      check_info_protocol("clGetKernelWorkGroupInfo", get_wg, plain, queries[q]);
      check_info_protocol("clGetKernelWorkGroupInfo", get_wg, sized, queries[q]);
   }
   size_t wg, cwg[3], mult;
   cl_ulong local, private_size;
   clGetKernelWorkGroupInfo(plain, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof(wg), &wg, NULL);
   CHECK(wg > 0 && wg <= dev_max);
   clGetKernelWorkGroupInfo(plain, device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof(cwg), cwg,
                            NULL);
   CHECK(cwg[0] == 0 && cwg[1] == 0 && cwg[2] == 0);
   clGetKernelWorkGroupInfo(plain, device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                            sizeof(mult), &mult, NULL);
   CHECK_EQ_INT(mult, test_sim_wave_size()); /* the wave size */
   clGetKernelWorkGroupInfo(plain, device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof(local), &local,
                            NULL);
   CHECK_EQ_INT(local, 0); /* __local argument not set yet */

   clGetKernelWorkGroupInfo(sized, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof(wg), &wg, NULL);
   CHECK_EQ_INT(wg, 64); /* 8 * 4 * 2 */
   clGetKernelWorkGroupInfo(sized, device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof(cwg), cwg,
                            NULL);
   CHECK(cwg[0] == 8 && cwg[1] == 4 && cwg[2] == 2);
   clGetKernelWorkGroupInfo(sized, device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof(local), &local,
                            NULL);
   CHECK_EQ_INT(local, 1024); /* local int tile[256] */

   clGetKernelWorkGroupInfo(priv, device, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof(private_size),
                            &private_size, NULL);
   CHECK(private_size >= 256); /* int buf[64] indexed dynamically lives in scratch */

   size_t gws[3];
   CHECK_EQ_INT(clGetKernelWorkGroupInfo(plain, device, CL_KERNEL_GLOBAL_WORK_SIZE, sizeof(gws),
                                         gws, NULL),
                CL_INVALID_VALUE);
   CHECK_EQ_INT(clGetKernelWorkGroupInfo(plain, device, 0x7fff, sizeof(wg), &wg, NULL),
                CL_INVALID_VALUE);
   /* One device: NULL selects it. */
   CHECK_EQ_INT(clGetKernelWorkGroupInfo(plain, NULL, CL_KERNEL_WORK_GROUP_SIZE, sizeof(wg), &wg,
                                         NULL),
                CL_SUCCESS);
   CHECK_EQ_INT(clGetKernelWorkGroupInfo(plain, (cl_device_id)p, CL_KERNEL_WORK_GROUP_SIZE,
                                         sizeof(wg), &wg, NULL),
                CL_INVALID_DEVICE);
   CHECK_EQ_INT(clGetKernelWorkGroupInfo(NULL, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof(wg),
                                         &wg, NULL),
                CL_INVALID_KERNEL);

   /* Sub-groups: the device reports none (CL_DEVICE_MAX_NUM_SUB_GROUPS = 0). */
   size_t local_size[1] = { 64 }, out;
   cl_uint max_sg = 1;
   clGetDeviceInfo(device, CL_DEVICE_MAX_NUM_SUB_GROUPS, sizeof(max_sg), &max_sg, NULL);
   cl_int sg = clGetKernelSubGroupInfo(plain, device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                       sizeof(local_size), local_size, sizeof(out), &out, NULL);
   if (max_sg == 0) {
      CHECK_EQ_INT(sg, CL_INVALID_OPERATION);
   } else {
      CHECK_EQ_INT(sg, CL_SUCCESS);
      CHECK_EQ_INT(out, test_sim_wave_size()); /* a group of 64: one full sub-group */
   }
   CHECK_EQ_INT(clGetKernelSubGroupInfo(NULL, device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                        sizeof(local_size), local_size, sizeof(out), &out, NULL),
                CL_INVALID_KERNEL);
   clReleaseKernel(plain);
   clReleaseKernel(sized);
   clReleaseKernel(priv);
}

int
main(void)
{
   test_setup();
   cl_program p = built(NULL);
   test_create(p);
   test_kernel_info(p);
   test_arg_info();
   test_work_group_info(p);
   clReleaseProgram(p);
   clReleaseContext(context);
   return test_main_end();
}
