/* Global and LDS atomics from many waves at once: counters, min/max, and/or/xor, exchange,
 * compare-and-swap loops, float and 64-bit adds; each result is fixed by the inputs alone. */
#include "hip_check.h"

struct results {
   int add;
   unsigned inc_wrap;
   int min, max;
   unsigned and_, or_, xor_;
   unsigned long long add64;
   float fadd;
   int cas_sum;
   int lds_add;
   unsigned lds_max;
   unsigned long long max64;
};

__global__ void atomics(const int *in, int n, results *r, int *slot_owner)
{
   __shared__ int lds_add;
   __shared__ unsigned lds_max;
   if (threadIdx.x == 0) {
      lds_add = 0;
      lds_max = 0;
   }
   __syncthreads();
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n) {
      int v = in[i];
      atomicAdd(&r->add, v);
      atomicInc(&r->inc_wrap, 999u);
      atomicMin(&r->min, v);
      atomicMax(&r->max, v);
      atomicAnd(&r->and_, ~(1u << (i % 32)) | (unsigned)(i & 0x10000));
      atomicOr(&r->or_, 1u << (v & 31));
      atomicXor(&r->xor_, (unsigned)v);
      atomicAdd(&r->add64, (unsigned long long)(unsigned)v << 20);
      atomicAdd(&r->fadd, 0.25f);
      atomicMax(&r->max64, (unsigned long long)(unsigned)v * 0x100000001ull);
      /* A compare-and-swap loop adding v. */
      int old = r->cas_sum, assumed;
      do {
         assumed = old;
         old = atomicCAS(&r->cas_sum, assumed, assumed + v);
      } while (old != assumed);
      /* Every thread of a slot's residue class exchanges itself in; one of them stays. */
      atomicExch(&slot_owner[i % 64], i);
      atomicAdd(&lds_add, 1);
      atomicMax(&lds_max, (unsigned)v);
   }
   __syncthreads();
   if (threadIdx.x == 0) {
      atomicAdd(&r->lds_add, lds_add);
      atomicMax(&r->lds_max, lds_max);
   }
}

int main(void)
{
   const int n = 5000;
   int *h = (int *)malloc(n * sizeof(int));
   unsigned x = 7;
   for (int i = 0; i < n; i++) {
      x = x * 1103515245u + 12345u;
      h[i] = (int)(x >> 8) % 100000 - 50000;
   }
   results init = {};
   init.min = 0x7fffffff;
   init.max = (int)0x80000000;
   init.and_ = 0xffffffffu;
   int *in, *owners;
   results *r;
   HIP_CHECK(hipMalloc(&in, n * sizeof(int)));
   HIP_CHECK(hipMalloc(&r, sizeof(results)));
   HIP_CHECK(hipMalloc(&owners, 64 * sizeof(int)));
   HIP_CHECK(hipMemcpy(in, h, n * sizeof(int), hipMemcpyHostToDevice));
   HIP_CHECK(hipMemcpy(r, &init, sizeof(results), hipMemcpyHostToDevice));
   HIP_CHECK(hipMemset(owners, 0xff, 64 * sizeof(int)));
   hipLaunchKernelGGL(atomics, dim3((n + 127) / 128), dim3(128), 0, 0, in, n, r, owners);
   HIP_CHECK(hipGetLastError());
   results d;
   int howners[64];
   HIP_CHECK(hipMemcpy(&d, r, sizeof(results), hipMemcpyDeviceToHost));
   HIP_CHECK(hipMemcpy(howners, owners, sizeof(howners), hipMemcpyDeviceToHost));

   results e = init;
   for (int i = 0; i < n; i++) {
      int v = h[i];
      e.add += v;
      e.min = v < e.min ? v : e.min;
      e.max = v > e.max ? v : e.max;
      e.and_ &= ~(1u << (i % 32)) | (unsigned)(i & 0x10000);
      e.or_ |= 1u << (v & 31);
      e.xor_ ^= (unsigned)v;
      e.add64 += (unsigned long long)(unsigned)v << 20;
      e.cas_sum += v;
      unsigned long long m = (unsigned long long)(unsigned)v * 0x100000001ull;
      e.max64 = m > e.max64 ? m : e.max64;
      e.lds_max = (unsigned)v > e.lds_max ? (unsigned)v : e.lds_max;
   }
   EXPECT(d.add == e.add, "atomicAdd %d, host %d", d.add, e.add);
   /* atomicInc wraps to 0 after 999: n increments from 0 end at n % 1000. */
   EXPECT(d.inc_wrap == (unsigned)(n % 1000), "atomicInc %u, host %u", d.inc_wrap, n % 1000);
   EXPECT(d.min == e.min, "atomicMin %d, host %d", d.min, e.min);
   EXPECT(d.max == e.max, "atomicMax %d, host %d", d.max, e.max);
   EXPECT(d.and_ == e.and_, "atomicAnd %#x, host %#x", d.and_, e.and_);
   EXPECT(d.or_ == e.or_, "atomicOr %#x, host %#x", d.or_, e.or_);
   EXPECT(d.xor_ == e.xor_, "atomicXor %#x, host %#x", d.xor_, e.xor_);
   EXPECT(d.add64 == e.add64, "64-bit atomicAdd %#llx, host %#llx", d.add64, e.add64);
   EXPECT(d.fadd == 0.25f * n, "float atomicAdd %g, host %g", d.fadd, 0.25f * n);
   EXPECT(d.cas_sum == e.cas_sum, "atomicCAS loop %d, host %d", d.cas_sum, e.cas_sum);
   EXPECT(d.lds_add == n, "LDS atomicAdd %d, host %d", d.lds_add, n);
   EXPECT(d.lds_max == e.lds_max, "LDS atomicMax %u, host %u", d.lds_max, e.lds_max);
   EXPECT(d.max64 == e.max64, "64-bit atomicMax %#llx, host %#llx", d.max64, e.max64);
   for (int s = 0; s < 64; s++)
      EXPECT(howners[s] >= 0 && howners[s] < n && howners[s] % 64 == s,
             "atomicExch slot %d holds %d", s, howners[s]);
   HIP_CHECK(hipFree(in));
   HIP_CHECK(hipFree(r));
   HIP_CHECK(hipFree(owners));
   free(h);
   return hip_check_done("hip_atomics");
}
