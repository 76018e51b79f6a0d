/* Cooperative launch. HIP 5.2.3 reports hipDeviceAttributeCooperativeLaunch and
 * CooperativeMultiDeviceLaunch as 1 once the KFD reports GWS (NumGws 64), and a grid sync is
 * ockl's __ockl_grid_sync: one wave of each block in ds_gws_barrier. ROCclr runs a cooperative
 * launch on a queue it creates as HSA_QUEUE_TYPE_COOPERATIVE (ROCr gives it the GPU's GWS,
 * hsaKmtAllocQueueGWS) after its __amd_rocclr_gwsInit blit (ds_gws_init, blocks - 1); a
 * multi-grid sync is a grid sync, an exchange through memory between the grids' first blocks,
 * and a grid sync again. The program checks that it really went through GWS: the sim's
 * per-opcode counts (HSACL_SIM_COUNTS, rewritten after every dispatch) must show one
 * ds_gws_init per launch and device and one ds_gws_barrier per block and grid barrier.
 *
 * hipLaunchCooperativeKernel: the grid is what the occupancy API says fits at once (blocks per
 * CU x CUs, hundreds of blocks, so a block-0-only reduction of the partial sums would take
 * several waves), one more block is refused. Phases that read other blocks' results: block
 * sums, every block summing all the partials, then rounds of a ping-pong where each element
 * reads two elements half the array away. hipLaunchCooperativeKernelMultiDevice
 * (HSACL_KFD_GPUS=2): each GPU's grid sums its own input, the two totals meet in host memory
 * across multi-grid syncs and each block combines both. */
#include "hip_check.h"
#include <hip/hip_cooperative_groups.h>
#include <string.h>

namespace cg = cooperative_groups;

#define BLOCK 256
#define ROUNDS 4
#define N 100000u

/* The sum of v over the block, in every thread. */
__device__ static unsigned block_sum(unsigned v, unsigned *lds)
{
   lds[threadIdx.x] = v;
   __syncthreads();
   for (unsigned s = BLOCK / 2; s > 0; s >>= 1) {
      if (threadIdx.x < s)
         lds[threadIdx.x] += lds[threadIdx.x + s];
      __syncthreads();
   }
   unsigned r = lds[0];
   __syncthreads();
   return r;
}

/* One ping-pong step: element i of round r from two elements in other blocks' parts. */
__host__ __device__ static unsigned mix(const unsigned *a, unsigned n, unsigned i, unsigned r)
{
   return a[(i + n / 2 + r) % n] * 3u + (a[n - 1 - i] ^ r);
}

/* Grid barriers: 1 + ROUNDS. */
__global__ void phases(const unsigned *in, unsigned n, unsigned *partial, unsigned *totals,
                       unsigned *a, unsigned *b, unsigned *valid)
{
   cg::grid_group grid = cg::this_grid();
   __shared__ unsigned lds[BLOCK];
   if (grid.thread_rank() == 0)
      *valid = grid.is_valid();
   unsigned s = 0;
   for (unsigned i = grid.thread_rank(); i < n; i += grid.size())
      s += in[i];
   s = block_sum(s, lds);
   if (threadIdx.x == 0)
      partial[blockIdx.x] = s;
   grid.sync();
   s = 0;
   for (unsigned j = threadIdx.x; j < gridDim.x; j += BLOCK)
      s += partial[j];
   s = block_sum(s, lds);
   if (threadIdx.x == 0)
      totals[blockIdx.x] = s;
   for (unsigned r = 0; r < ROUNDS; r++) {
      grid.sync(); /* round r - 1's writes of a are done */
      for (unsigned i = grid.thread_rank(); i < n; i += grid.size())
         b[i] = mix(a, n, i, r);
      unsigned *t = a;
      a = b;
      b = t;
   }
}

/* Per grid: 1 grid barrier, 3 multi-grid syncs of 2 grid barriers each. pub[g] is grid g's
 * total, pub[2 + g] what grid g makes of both; host memory both GPUs reach. */
#define MULTI_BARRIERS 7u
__global__ void multi(const unsigned *in, unsigned n, unsigned *partial, unsigned *pub,
                      unsigned *out, unsigned *info)
{
   cg::multi_grid_group mg = cg::this_multi_grid();
   cg::grid_group grid = cg::this_grid();
   __shared__ unsigned lds[BLOCK];
   unsigned g = mg.grid_rank();
   if (grid.thread_rank() == 0) {
      info[0] = mg.is_valid();
      info[1] = mg.num_grids();
      info[2] = g;
      info[3] = mg.size();
      info[4] = mg.thread_rank();
   }
   unsigned s = 0;
   for (unsigned i = grid.thread_rank(); i < n; i += grid.size())
      s += in[i];
   s = block_sum(s, lds);
   if (threadIdx.x == 0)
      partial[blockIdx.x] = s;
   grid.sync();
   if (blockIdx.x == 0) {
      s = 0;
      for (unsigned j = threadIdx.x; j < gridDim.x; j += BLOCK)
         s += partial[j];
      s = block_sum(s, lds);
      if (threadIdx.x == 0)
         __atomic_store_n(&pub[g], s, __ATOMIC_RELAXED);
   }
   mg.sync();
   unsigned other = __atomic_load_n(&pub[1 - g], __ATOMIC_RELAXED);
   unsigned mine = __atomic_load_n(&pub[g], __ATOMIC_RELAXED);
   mg.sync(); /* both grids read pub[0..1] before either writes pub[2..3] */
   if (blockIdx.x == 0 && threadIdx.x == 0)
      __atomic_store_n(&pub[2 + g], mine * 7u + other, __ATOMIC_RELAXED);
   mg.sync();
   if (threadIdx.x == 0)
      out[blockIdx.x] = __atomic_load_n(&pub[2 + (1 - g)], __ATOMIC_RELAXED) ^ mine;
}

/* The ds_gws_init and ds_gws_barrier executions the sim has counted so far. */
static void gws_counts(unsigned long long *init, unsigned long long *barrier)
{
   const char *path = getenv("HSACL_SIM_COUNTS");
   FILE *f = path ? fopen(path, "r") : NULL;
   if (!f) {
      fprintf(stderr, "hip_cooperative: no HSACL_SIM_COUNTS file (%s)\n", path ? path : "unset");
      exit(1);
   }
   char name[128];
   unsigned long long execs, lanes;
   *init = *barrier = 0;
   while (fscanf(f, "%127s %llu %llu", name, &execs, &lanes) == 3) {
      if (!strcmp(name, "DS:ds_gws_init"))
         *init = execs;
      else if (!strcmp(name, "DS:ds_gws_barrier"))
         *barrier = execs;
   }
   fclose(f);
}

static unsigned h_in[N], h_a[N], h_b[N], h_res[N];

static void one_device(int cus)
{
   int per_cu = 0;
   HIP_CHECK(hipOccupancyMaxActiveBlocksPerMultiprocessor(&per_cu, phases, BLOCK, 0));
   unsigned blocks = per_cu * cus;
   EXPECT(blocks > 64, "occupancy gives %d blocks per CU, %u in all", per_cu, blocks);
   unsigned *d_in, *d_partial, *d_totals, *d_a, *d_b, *d_valid;
   HIP_CHECK(hipMalloc(&d_in, N * 4));
   HIP_CHECK(hipMalloc(&d_a, N * 4));
   HIP_CHECK(hipMalloc(&d_b, N * 4));
   HIP_CHECK(hipMalloc(&d_partial, (blocks + 1) * 4));
   HIP_CHECK(hipMalloc(&d_totals, (blocks + 1) * 4));
   HIP_CHECK(hipMalloc(&d_valid, 4));
   HIP_CHECK(hipMemcpy(d_in, h_in, N * 4, hipMemcpyHostToDevice));
   HIP_CHECK(hipMemcpy(d_a, h_in, N * 4, hipMemcpyHostToDevice));
   HIP_CHECK(hipMemset(d_valid, 0, 4));
   unsigned n = N;
   void *args[] = {&d_in, &n, &d_partial, &d_totals, &d_a, &d_b, &d_valid};
   /* More blocks than can be resident at once could never all meet at a grid barrier. */
   hipError_t e = hipLaunchCooperativeKernel((void *)phases, dim3(blocks + 1), dim3(BLOCK), args,
                                             0, 0);
   EXPECT(e == hipErrorCooperativeLaunchTooLarge, "%u blocks: %s, want %s", blocks + 1,
          hipGetErrorName(e), hipGetErrorName(hipErrorCooperativeLaunchTooLarge));
   (void)hipGetLastError();

   unsigned long long init0, bar0, init1, bar1;
   HIP_CHECK(hipDeviceSynchronize());
   gws_counts(&init0, &bar0);
   HIP_CHECK(hipLaunchCooperativeKernel((void *)phases, dim3(blocks), dim3(BLOCK), args, 0, 0));
   HIP_CHECK(hipDeviceSynchronize());
   gws_counts(&init1, &bar1);
   EXPECT(init1 - init0 == 1, "ds_gws_init ran %llu times, want 1", init1 - init0);
   EXPECT(bar1 - bar0 == (unsigned long long)blocks * (1 + ROUNDS),
          "ds_gws_barrier ran %llu times, want %u blocks x %u barriers", bar1 - bar0, blocks,
          1 + ROUNDS);

   unsigned valid = 0;
   HIP_CHECK(hipMemcpy(&valid, d_valid, 4, hipMemcpyDeviceToHost));
   EXPECT(valid == 1, "grid.is_valid() = %u in a cooperative launch", valid);
   unsigned sum = 0;
   for (unsigned i = 0; i < N; i++)
      sum += h_in[i];
   HIP_CHECK(hipMemcpy(h_res, d_totals, blocks * 4, hipMemcpyDeviceToHost));
   for (unsigned i = 0; i < blocks; i++)
      EXPECT(h_res[i] == sum, "block %u's total %u, host %u", i, h_res[i], sum);
   unsigned *a = h_a, *b = h_b;
   memcpy(a, h_in, sizeof(h_in));
   for (unsigned r = 0; r < ROUNDS; r++) {
      for (unsigned i = 0; i < N; i++)
         b[i] = mix(a, N, i, r);
      unsigned *t = a;
      a = b;
      b = t;
   }
   HIP_CHECK(hipMemcpy(h_res, ROUNDS % 2 ? d_b : d_a, N * 4, hipMemcpyDeviceToHost));
   for (unsigned i = 0; i < N; i++)
      EXPECT(h_res[i] == a[i], "after %u rounds [%u] = %u, host %u", ROUNDS, i, h_res[i], a[i]);
   printf("hipLaunchCooperativeKernel: %u blocks of %u (%d per CU), %u grid barriers\n",
          blocks, BLOCK, per_cu, 1 + ROUNDS);
   HIP_CHECK(hipFree(d_in));
   HIP_CHECK(hipFree(d_a));
   HIP_CHECK(hipFree(d_b));
   HIP_CHECK(hipFree(d_partial));
   HIP_CHECK(hipFree(d_totals));
   HIP_CHECK(hipFree(d_valid));
}

static void two_devices(int cus)
{
   int count = 0, per_cu = 0;
   HIP_CHECK(hipGetDeviceCount(&count));
   if (count != 2) {
      fprintf(stderr, "hip_cooperative: %d devices, want 2 (HSACL_KFD_GPUS=2)\n", count);
      exit(1);
   }
   HIP_CHECK(hipOccupancyMaxActiveBlocksPerMultiprocessor(&per_cu, multi, BLOCK, 0));
   unsigned blocks = per_cu * cus;
   unsigned *pub;
   HIP_CHECK(hipHostMalloc(&pub, 4 * sizeof(unsigned), hipHostMallocCoherent));
   memset(pub, 0, 4 * sizeof(unsigned));
   hipLaunchParams lp[2];
   unsigned *in[2], *partial[2], *out[2], *info[2], n = N, sum[2] = {0, 0};
   void *args[2][6];
   for (int dev = 0; dev < 2; dev++) {
      HIP_CHECK(hipSetDevice(dev));
      for (unsigned i = 0; i < N; i++) {
         h_a[i] = h_in[i] + dev * 12345u;
         sum[dev] += h_a[i];
      }
      HIP_CHECK(hipMalloc(&in[dev], N * 4));
      HIP_CHECK(hipMalloc(&partial[dev], blocks * 4));
      HIP_CHECK(hipMalloc(&out[dev], blocks * 4));
      HIP_CHECK(hipMalloc(&info[dev], 5 * 4));
      HIP_CHECK(hipMemcpy(in[dev], h_a, N * 4, hipMemcpyHostToDevice));
      void *a[6] = {&in[dev], &n, &partial[dev], &pub, &out[dev], &info[dev]};
      memcpy(args[dev], a, sizeof(a));
      lp[dev].func = (void *)multi;
      lp[dev].gridDim = dim3(blocks);
      lp[dev].blockDim = dim3(BLOCK);
      lp[dev].args = args[dev];
      lp[dev].sharedMem = 0;
      HIP_CHECK(hipStreamCreate(&lp[dev].stream));
   }
   unsigned long long init0, bar0, init1, bar1;
   gws_counts(&init0, &bar0);
   HIP_CHECK(hipLaunchCooperativeKernelMultiDevice(lp, 2, 0));
   bool rank_seen[2] = {false, false};
   for (int dev = 0; dev < 2; dev++) {
      HIP_CHECK(hipSetDevice(dev));
      HIP_CHECK(hipDeviceSynchronize());
   }
   gws_counts(&init1, &bar1);
   EXPECT(init1 - init0 == 2, "ds_gws_init ran %llu times, want 2 (one per GPU)", init1 - init0);
   EXPECT(bar1 - bar0 == 2ull * blocks * MULTI_BARRIERS,
          "ds_gws_barrier ran %llu times, want 2 GPUs x %u blocks x %u barriers", bar1 - bar0,
          blocks, MULTI_BARRIERS);
   for (int dev = 0; dev < 2; dev++) {
      HIP_CHECK(hipSetDevice(dev));
      unsigned inf[5];
      HIP_CHECK(hipMemcpy(inf, info[dev], sizeof(inf), hipMemcpyDeviceToHost));
      unsigned g = inf[2] & 1;
      EXPECT(inf[0] == 1 && inf[1] == 2 && inf[2] < 2 && !rank_seen[g],
             "device %d: is_valid %u, num_grids %u, grid_rank %u", dev, inf[0], inf[1], inf[2]);
      rank_seen[g] = true;
      EXPECT(inf[3] == 2 * blocks * BLOCK && inf[4] == g * blocks * BLOCK,
             "device %d: multi-grid size %u, thread 0's rank %u", dev, inf[3], inf[4]);
      HIP_CHECK(hipMemcpy(h_res, out[dev], blocks * 4, hipMemcpyDeviceToHost));
      /* Grid g's input is device g's when ranks follow the launch list. */
      unsigned want = (sum[1 - g] * 7u + sum[g]) ^ sum[g];
      for (unsigned i = 0; i < blocks; i++)
         EXPECT(h_res[i] == want, "device %d block %u: %u, host %u", dev, i, h_res[i], want);
      HIP_CHECK(hipStreamDestroy(lp[dev].stream));
      HIP_CHECK(hipFree(in[dev]));
      HIP_CHECK(hipFree(partial[dev]));
      HIP_CHECK(hipFree(out[dev]));
      HIP_CHECK(hipFree(info[dev]));
   }
   EXPECT(pub[0] == sum[0] && pub[1] == sum[1], "grid totals %u %u, host %u %u", pub[0], pub[1],
          sum[0], sum[1]);
   HIP_CHECK(hipHostFree(pub));
   printf("hipLaunchCooperativeKernelMultiDevice: 2 GPUs x %u blocks, %u grid barriers each\n",
          blocks, MULTI_BARRIERS);
}

int main(void)
{
   int coop = -1, coop_multi = -1, cus = 0;
   HIP_CHECK(hipDeviceGetAttribute(&coop, hipDeviceAttributeCooperativeLaunch, 0));
   HIP_CHECK(hipDeviceGetAttribute(&coop_multi, hipDeviceAttributeCooperativeMultiDeviceLaunch,
                                   0));
   HIP_CHECK(hipDeviceGetAttribute(&cus, hipDeviceAttributeMultiprocessorCount, 0));
   EXPECT(coop == 1 && coop_multi == 1, "CooperativeLaunch %d, CooperativeMultiDeviceLaunch %d",
          coop, coop_multi);
   for (unsigned i = 0; i < N; i++)
      h_in[i] = i * 2654435761u;
   one_device(cus);
   two_devices(cus);
   return hip_check_done("hip_cooperative");
}
