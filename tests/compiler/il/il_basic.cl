// tests/compiler/il/il_basic.cl — kernels built both from this source and from SPIR-V
// made of it by clang-15 and llvm-spirv-15 (CL1.2 and CL2.0); comp_api_il_test.c compares
// the two builds' outputs. Each kernel touches built-ins whose mangled names carry an
// address space (private, global, local, constant, generic), or other translator output.

constant float ctab[4] = { 0.5f, 1.5f, 2.5f, 3.5f };

typedef struct {
   int a;
   float b;
   long c;
} pod;

// Private, global and local pointers into built-ins.
kernel void ptr_builtins(global const float *in, global float *out, local float *tmp)
{
   size_t i = get_global_id(0), l = get_local_id(0);
   float ip, s, c;
   int q;
   float fr = fract(in[i], &ip);
   float m = modf(in[i] * 3.0f, &s);
   float sn = sincos(in[i], &c);
   float r = remquo(in[i] * 7.0f, 1.75f, &q);
   tmp[l] = in[i];
   barrier(CLK_LOCAL_MEM_FENCE);
   float4 v = vload4(0, tmp + (l & ~3u));
   float priv[4] = { fr, ip, m, s };
   float4 w = vload4(0, priv);
   vstore4(w * 2.0f, i, out + get_global_size(0));
   out[i] = fr + ip + m + s + sn + c + r + (float)q + v.x + v.y + v.z + v.w +
            ctab[i & 3] + vload2(0, ctab + (i & 2)).y;
}

// Atomics on global and local memory.
kernel void atomics(global int *counters, global int *out, local int *lc)
{
   size_t l = get_local_id(0);
   if (l == 0)
      *lc = 0;
   barrier(CLK_LOCAL_MEM_FENCE);
   int mine = atomic_add(lc, (int)l);
   atomic_max(&counters[1], (int)get_global_id(0));
   atomic_inc(&counters[0]);
   atomic_xor(&counters[2], (int)l);
   barrier(CLK_LOCAL_MEM_FENCE);
   out[get_global_id(0)] = (mine >= 0) + *lc;
}

// Structs by value, 64-bit integers, conversions, integer built-ins, 2D ids.
kernel void mixed(pod p, global const uint *in, global long *out)
{
   size_t x = get_global_id(0), y = get_global_id(1);
   size_t i = y * get_global_size(0) + x;
   uint v = in[i];
   long r = p.c + p.a * (long)v + convert_int_sat(p.b * (float)v) + popcount(v) + clz(v) +
            rotate(v, 7u) + mul_hi(v, 0x9e3779b9u) + abs_diff((int)v, p.a) + (long)(x * 3 + y);
   out[i] = r + upsample((ushort)v, (ushort)(v >> 3)) + hadd(v, 77u);
}

// Math built-ins through the OpenCL.std extended instructions.
kernel void math(global const float *in, global float *out)
{
   size_t i = get_global_id(0);
   float x = in[i];
   out[i] = sqrt(fabs(x)) + exp(x * 0.01f) + log(fabs(x) + 1.0f) + pow(fabs(x) + 0.5f, 1.3f) +
            atan2(x, 2.0f) + floor(x) + fmin(x, 0.25f) + mad(x, 2.0f, 1.0f) + hypot(x, 3.0f) +
            native_sin(x) + half_cos(x) + copysign(1.0f, x) + ldexp(x, 3) + rsqrt(fabs(x) + 1.0f);
}

// A helper function with a private pointer parameter, called from the kernel.
static void accumulate(float *acc, float v)
{
   *acc += v * v;
}

kernel void calls(global const float *in, global float *out, int n)
{
   float acc = 0.0f;
   for (int k = 0; k < n; k++)
      accumulate(&acc, in[(get_global_id(0) + k) % get_global_size(0)]);
   out[get_global_id(0)] = acc;
}
