/* rocPRIM's device-wide algorithms (header-only templates compiled into this program):
 * reduce, inclusive and exclusive scan, radix sort of keys and of key-value pairs, each with
 * its temporary-storage query, against the host's std:: results. */
#include "hip_check.h"
#include <rocprim/rocprim.hpp>

#include <algorithm>
#include <numeric>
#include <vector>

template <class F> static void *with_temp(F run)
{
   size_t bytes = 0;
   HIP_CHECK(run(nullptr, bytes));
   void *temp;
   HIP_CHECK(hipMalloc(&temp, bytes ? bytes : 1));
   HIP_CHECK(run(temp, bytes));
   return temp;
}

int main(void)
{
   const size_t n = 20011;
   std::vector<unsigned> keys(n);
   std::vector<int> vals(n);
   unsigned x = 2024;
   for (size_t i = 0; i < n; i++) {
      x = x * 1664525u + 1013904223u;
      keys[i] = x >> 3;
      vals[i] = (int)(x % 1000) - 500;
   }
   unsigned *dk, *dk_out;
   int *dv, *dv_out;
   long long *dsum;
   HIP_CHECK(hipMalloc(&dk, n * sizeof(unsigned)));
   HIP_CHECK(hipMalloc(&dk_out, n * sizeof(unsigned)));
   HIP_CHECK(hipMalloc(&dv, n * sizeof(int)));
   HIP_CHECK(hipMalloc(&dv_out, n * sizeof(int)));
   HIP_CHECK(hipMalloc(&dsum, sizeof(long long)));
   HIP_CHECK(hipMemcpy(dk, keys.data(), n * sizeof(unsigned), hipMemcpyHostToDevice));
   HIP_CHECK(hipMemcpy(dv, vals.data(), n * sizeof(int), hipMemcpyHostToDevice));

   /* reduce: a 64-bit sum of the values. */
   void *t = with_temp([&](void *temp, size_t &bytes) {
      return rocprim::reduce(temp, bytes, dv, dsum, 0LL, n, rocprim::plus<long long>());
   });
   long long sum;
   HIP_CHECK(hipMemcpy(&sum, dsum, sizeof(sum), hipMemcpyDeviceToHost));
   long long hsum = std::accumulate(vals.begin(), vals.end(), 0LL);
   EXPECT(sum == hsum, "rocprim::reduce %lld, host %lld", sum, hsum);
   HIP_CHECK(hipFree(t));

   /* inclusive scan (sum) and exclusive scan (max from a start value). */
   std::vector<int> got(n), want(n);
   t = with_temp([&](void *temp, size_t &bytes) {
      return rocprim::inclusive_scan(temp, bytes, dv, dv_out, n, rocprim::plus<int>());
   });
   HIP_CHECK(hipMemcpy(got.data(), dv_out, n * sizeof(int), hipMemcpyDeviceToHost));
   std::partial_sum(vals.begin(), vals.end(), want.begin());
   for (size_t i = 0; i < n; i++)
      EXPECT(got[i] == want[i], "inclusive_scan[%zu] %d, host %d", i, got[i], want[i]);
   HIP_CHECK(hipFree(t));
   t = with_temp([&](void *temp, size_t &bytes) {
      return rocprim::exclusive_scan(temp, bytes, dv, dv_out, -100, n, rocprim::maximum<int>());
   });
   HIP_CHECK(hipMemcpy(got.data(), dv_out, n * sizeof(int), hipMemcpyDeviceToHost));
   int m = -100;
   for (size_t i = 0; i < n; i++) {
      EXPECT(got[i] == m, "exclusive_scan[%zu] %d, host %d", i, got[i], m);
      m = std::max(m, vals[i]);
   }
   HIP_CHECK(hipFree(t));

   /* radix sort of keys, then of pairs (stable: equal keys keep their values' order). */
   t = with_temp([&](void *temp, size_t &bytes) {
      return rocprim::radix_sort_keys(temp, bytes, dk, dk_out, n);
   });
   std::vector<unsigned> sorted(n), hsorted(keys);
   HIP_CHECK(hipMemcpy(sorted.data(), dk_out, n * sizeof(unsigned), hipMemcpyDeviceToHost));
   std::sort(hsorted.begin(), hsorted.end());
   for (size_t i = 0; i < n; i++)
      EXPECT(sorted[i] == hsorted[i], "radix_sort_keys[%zu] %u, host %u", i, sorted[i],
             hsorted[i]);
   HIP_CHECK(hipFree(t));
   /* Keys of 8 bits, so that many are equal; sort only bits [0, 8). */
   std::vector<unsigned> small(n);
   for (size_t i = 0; i < n; i++)
      small[i] = keys[i] & 0xff;
   HIP_CHECK(hipMemcpy(dk, small.data(), n * sizeof(unsigned), hipMemcpyHostToDevice));
   t = with_temp([&](void *temp, size_t &bytes) {
      return rocprim::radix_sort_pairs(temp, bytes, dk, dk_out, dv, dv_out, n, 0, 8);
   });
   std::vector<size_t> order(n);
   std::iota(order.begin(), order.end(), 0);
   std::stable_sort(order.begin(), order.end(),
                    [&](size_t a, size_t b) { return small[a] < small[b]; });
   HIP_CHECK(hipMemcpy(sorted.data(), dk_out, n * sizeof(unsigned), hipMemcpyDeviceToHost));
   HIP_CHECK(hipMemcpy(got.data(), dv_out, n * sizeof(int), hipMemcpyDeviceToHost));
   for (size_t i = 0; i < n; i++)
      EXPECT(sorted[i] == small[order[i]] && got[i] == vals[order[i]],
             "radix_sort_pairs[%zu] (%u, %d), host (%u, %d)", i, sorted[i], got[i],
             small[order[i]], vals[order[i]]);
   HIP_CHECK(hipFree(t));

   HIP_CHECK(hipFree(dk));
   HIP_CHECK(hipFree(dk_out));
   HIP_CHECK(hipFree(dv));
   HIP_CHECK(hipFree(dv_out));
   HIP_CHECK(hipFree(dsum));
   return hip_check_done("hip_rocprim");
}
