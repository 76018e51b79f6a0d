/* rocRAND: the device API's Philox4x32-10 (every thread its own subsequence and offset)
 * against a host Philox4x32-10 written from the published algorithm (Salmon et al., SC'11)
 * and checked on Random123's known-answer vectors; and the host API's precompiled generators
 * (librocrand's own gfx906 kernels): uniform floats in (0, 1] with the right mean, the same
 * sequence for the same seed and another for another seed. XORWOW, whose set-up jumps each of
 * its many states ahead with precomputed matrices, is left out: it costs the interpreter 30 s. */
#include "hip_check.h"
#include <rocrand/rocrand.h>
#include <rocrand/rocrand_kernel.h>

#include <math.h>
#include <stdint.h>
#include <string.h>

#define ROCRAND_CHECK(call)                                                               \
   do {                                                                                   \
      rocrand_status rocrand_check_s = (call);                                            \
      if (rocrand_check_s != ROCRAND_STATUS_SUCCESS) {                                    \
         fprintf(stderr, "%s:%d: %s: rocrand status %d\n", __FILE__, __LINE__, #call,     \
                 (int)rocrand_check_s);                                                   \
         exit(1);                                                                         \
      }                                                                                   \
   } while (0)

#define THREADS 256
#define PER_THREAD 11
#define SEED 0x0123456789abcdefull

static uint32_t mulhilo(uint32_t a, uint32_t b, uint32_t *hi)
{
   uint64_t p = (uint64_t)a * b;
   *hi = (uint32_t)(p >> 32);
   return (uint32_t)p;
}

/* Philox4x32 with 10 rounds: out = philox(counter, key). */
static void philox4x32_10(const uint32_t ctr_in[4], const uint32_t key_in[2], uint32_t out[4])
{
   uint32_t c[4], k[2] = {key_in[0], key_in[1]};
   memcpy(c, ctr_in, sizeof(c));
   for (int r = 0; r < 10; r++) {
      if (r > 0) {
         k[0] += 0x9E3779B9u;
         k[1] += 0xBB67AE85u;
      }
      uint32_t hi0, hi1;
      uint32_t lo0 = mulhilo(0xD2511F53u, c[0], &hi0);
      uint32_t lo1 = mulhilo(0xCD9E8D57u, c[2], &hi1);
      uint32_t n[4] = {hi1 ^ c[1] ^ k[0], lo1, hi0 ^ c[3] ^ k[1], lo0};
      memcpy(c, n, sizeof(c));
   }
   memcpy(out, c, sizeof(c));
}

/* Random123's known answers for philox4x32 with 10 rounds. */
static int philox_known_answers(void)
{
   static const uint32_t kat[3][10] = {
      {0, 0, 0, 0, 0, 0, 0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8},
      {0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0x408f276d,
       0x41c83b0e, 0xa20bc7c6, 0x6d5451fd},
      {0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344, 0xa4093822, 0x299f31d0, 0xd16cfe09,
       0x94fdcceb, 0x5001e420, 0x24126ea1},
   };
   for (int i = 0; i < 3; i++) {
      uint32_t out[4];
      philox4x32_10(kat[i], kat[i] + 4, out);
      if (memcmp(out, kat[i] + 6, sizeof(out)) != 0)
         return 0;
   }
   return 1;
}

/* The n-th value (n from 0) of the stream of subsequence sub, as rocRAND's state walks it:
 * counter (block, 0, sub, 0), four values per block. */
static uint32_t philox_value(uint64_t seed, uint32_t sub, uint64_t n)
{
   uint32_t key[2] = {(uint32_t)seed, (uint32_t)(seed >> 32)};
   uint32_t ctr[4] = {(uint32_t)(n / 4), (uint32_t)(n / 4 >> 32), sub, 0};
   uint32_t out[4];
   philox4x32_10(ctr, key, out);
   return out[n % 4];
}

__global__ void philox_stream(unsigned *out, float *uni)
{
   int t = blockIdx.x * blockDim.x + threadIdx.x;
   rocrand_state_philox4x32_10 state;
   rocrand_init(SEED, t, t % 7, &state);
   for (int k = 0; k < PER_THREAD; k++)
      out[t * PER_THREAD + k] = rocrand(&state);
   uni[t] = rocrand_uniform(&state);
}

static void host_generator(rocrand_rng_type type, const char *name)
{
   const size_t n = 1 << 14;
   float *d;
   float *a = (float *)malloc(n * sizeof(float)), *b = (float *)malloc(n * sizeof(float));
   HIP_CHECK(hipMalloc(&d, n * sizeof(float)));
   rocrand_generator gen;
   for (int pass = 0; pass < 3; pass++) {
      ROCRAND_CHECK(rocrand_create_generator(&gen, type));
      ROCRAND_CHECK(rocrand_set_seed(gen, pass < 2 ? 1234 : 4321));
      ROCRAND_CHECK(rocrand_generate_uniform(gen, d, n));
      HIP_CHECK(hipDeviceSynchronize());
      ROCRAND_CHECK(rocrand_destroy_generator(gen));
      HIP_CHECK(hipMemcpy(pass == 0 ? a : b, d, n * sizeof(float), hipMemcpyDeviceToHost));
      if (pass == 0) {
         double sum = 0;
         size_t outside = 0;
         for (size_t i = 0; i < n; i++) {
            sum += a[i];
            outside += !(a[i] > 0.0f && a[i] <= 1.0f);
         }
         EXPECT(outside == 0, "%s: %zu values outside (0, 1]", name, outside);
         /* The mean of 2^14 uniforms has a standard deviation of 0.0023. */
         EXPECT(fabs(sum / n - 0.5) < 0.015, "%s: mean %f", name, sum / n);
      } else if (pass == 1) {
         EXPECT(memcmp(a, b, n * sizeof(float)) == 0, "%s: same seed, another sequence", name);
      } else {
         size_t same = 0;
         for (size_t i = 0; i < n; i++)
            same += a[i] == b[i];
         EXPECT(same < n / 100, "%s: another seed repeats %zu of %zu values", name, same, n);
      }
   }
   HIP_CHECK(hipFree(d));
   free(a);
   free(b);
   if (getenv("HIP_ROCRAND_TIMES"))
      fprintf(stderr, "%s done\n", name);
}

int main(void)
{
   if (!philox_known_answers()) {
      fprintf(stderr, "hip_rocrand: the host Philox4x32-10 misses Random123's known answers\n");
      return 1;
   }
   unsigned *d_out;
   float *d_uni;
   HIP_CHECK(hipMalloc(&d_out, THREADS * PER_THREAD * sizeof(unsigned)));
   HIP_CHECK(hipMalloc(&d_uni, THREADS * sizeof(float)));
   hipLaunchKernelGGL(philox_stream, dim3(THREADS / 64), dim3(64), 0, 0, d_out, d_uni);
   HIP_CHECK(hipGetLastError());
   static unsigned out[THREADS * PER_THREAD];
   static float uni[THREADS];
   HIP_CHECK(hipMemcpy(out, d_out, sizeof(out), hipMemcpyDeviceToHost));
   HIP_CHECK(hipMemcpy(uni, d_uni, sizeof(uni), hipMemcpyDeviceToHost));
   for (int t = 0; t < THREADS; t++) {
      for (int k = 0; k < PER_THREAD; k++) {
         uint32_t want = philox_value(SEED, t, t % 7 + k);
         EXPECT(out[t * PER_THREAD + k] == want, "thread %d value %d: %#x, host %#x", t, k,
                out[t * PER_THREAD + k], want);
      }
      /* rocrand_uniform maps the next value v to (v + 1) / 2^32 in float. */
      uint32_t v = philox_value(SEED, t, t % 7 + PER_THREAD);
      float want = (float)v * 2.3283064e-10f + 2.3283064e-10f;
      EXPECT(fabsf(uni[t] - want) <= 1.2e-7f, "thread %d uniform %a, host %a", t, uni[t],
             want);
   }
   HIP_CHECK(hipFree(d_out));
   HIP_CHECK(hipFree(d_uni));

   host_generator(ROCRAND_RNG_PSEUDO_PHILOX4_32_10, "philox4x32-10");
   host_generator(ROCRAND_RNG_PSEUDO_MRG32K3A, "mrg32k3a");
   host_generator(ROCRAND_RNG_PSEUDO_MTGP32, "mtgp32");
   return hip_check_done("hip_rocrand");
}
