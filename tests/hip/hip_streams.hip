/* Streams and events: kernels and copies on several streams, a cross-stream dependency
 * through hipStreamWaitEvent, event queries and elapsed times, hipStreamQuery, a host
 * callback, a non-blocking stream, stream memory operations (wait for a value, write a
 * value) and a captured graph replayed; the data flow makes any ordering error visible. */
#include "hip_check.h"

#define N 4096
#define STREAMS 4

/* Slow enough that a missing dependency lets the consumer read stale values. */
__global__ void produce(int *buf, int value, int rounds)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   int v = 0;
   for (int r = 0; r < rounds; r++)
      v += (i ^ r) & 1;
   buf[i] = value + (v > rounds ? 1 : 0);
}

__global__ void consume(const int *src, int *dst, int add)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   dst[i] = src[i] + add;
}

__global__ void read_flag(const unsigned *flag, int *out)
{
   out[threadIdx.x] = (int)*flag + threadIdx.x;
}

__global__ void add_index(int *p, int scale)
{
   p[threadIdx.x] = p[threadIdx.x] * scale + threadIdx.x;
}

static void callback(hipStream_t stream, hipError_t status, void *user)
{
   (void)stream;
   *(int *)user = status == hipSuccess ? 1 : -1;
}

int main(void)
{
   hipStream_t s[STREAMS];
   int *buf[STREAMS], *out[STREAMS];
   int *host;
   HIP_CHECK(hipHostMalloc(&host, STREAMS * N * sizeof(int), hipHostMallocDefault));
   for (int k = 0; k < STREAMS; k++) {
      if (k == STREAMS - 1)
         HIP_CHECK(hipStreamCreateWithFlags(&s[k], hipStreamNonBlocking));
      else
         HIP_CHECK(hipStreamCreate(&s[k]));
      HIP_CHECK(hipMalloc(&buf[k], N * sizeof(int)));
      HIP_CHECK(hipMalloc(&out[k], N * sizeof(int)));
   }
   hipEvent_t start, produced[STREAMS], stop;
   HIP_CHECK(hipEventCreate(&start));
   HIP_CHECK(hipEventCreate(&stop));
   for (int k = 0; k < STREAMS; k++)
      HIP_CHECK(hipEventCreateWithFlags(&produced[k], hipEventDisableTiming));

   HIP_CHECK(hipEventRecord(start, s[0]));
   /* Stream k produces k*1000 in buf[k]; stream (k+1)%STREAMS consumes it after the event. */
   for (int k = 0; k < STREAMS; k++) {
      hipLaunchKernelGGL(produce, dim3(N / 256), dim3(256), 0, s[k], buf[k], k * 1000, 200);
      HIP_CHECK(hipGetLastError());
      HIP_CHECK(hipEventRecord(produced[k], s[k]));
   }
   for (int k = 0; k < STREAMS; k++) {
      hipStream_t c = s[(k + 1) % STREAMS];
      HIP_CHECK(hipStreamWaitEvent(c, produced[k], 0));
      hipLaunchKernelGGL(consume, dim3(N / 256), dim3(256), 0, c, buf[k], out[k], k + 1);
      HIP_CHECK(hipGetLastError());
      HIP_CHECK(hipMemcpyAsync(host + k * N, out[k], N * sizeof(int), hipMemcpyDeviceToHost,
                               c));
   }
   int called = 0;
   HIP_CHECK(hipStreamAddCallback(s[1], callback, &called, 0));
   HIP_CHECK(hipEventRecord(stop, s[0]));
   HIP_CHECK(hipEventSynchronize(stop));
   EXPECT(hipEventQuery(stop) == hipSuccess, "hipEventQuery after hipEventSynchronize");
   float ms = -1;
   HIP_CHECK(hipEventElapsedTime(&ms, start, stop));
   EXPECT(ms > 0 && ms < 600000, "hipEventElapsedTime %g ms", ms);
   for (int k = 0; k < STREAMS; k++)
      HIP_CHECK(hipStreamSynchronize(s[k]));
   for (int k = 0; k < STREAMS; k++)
      EXPECT(hipStreamQuery(s[k]) == hipSuccess, "stream %d not idle after synchronize", k);
   EXPECT(called == 1, "stream callback ran: %d", called);
   for (int k = 0; k < STREAMS; k++)
      for (int i = 0; i < N; i++)
         EXPECT(host[k * N + i] == k * 1000 + k + 1, "stream %d element %d: %d, host %d", k,
                i, host[k * N + i], k * 1000 + k + 1);

   /* A device-wide barrier through hipDeviceSynchronize after work on every stream. */
   for (int k = 0; k < STREAMS; k++)
      hipLaunchKernelGGL(produce, dim3(N / 256), dim3(256), 0, s[k], out[k], 7 + k, 10);
   HIP_CHECK(hipDeviceSynchronize());
   for (int k = 0; k < STREAMS; k++) {
      HIP_CHECK(hipMemcpy(host, out[k], N * sizeof(int), hipMemcpyDeviceToHost));
      for (int i = 0; i < N; i++)
         EXPECT(host[i] == 7 + k, "after hipDeviceSynchronize stream %d element %d: %d", k, i,
                host[i]);
   }

   /* Stream memory operations: stream 1 waits for a value that a kernel on stream 0, queued
    * after it, writes; then 64-bit and 32-bit writes from the stream. */
   unsigned *flag;
   HIP_CHECK(hipExtMallocWithFlags((void **)&flag, 8, hipMallocSignalMemory));
   HIP_CHECK(hipStreamWriteValue64(s[0], flag, 0, 0));
   HIP_CHECK(hipStreamSynchronize(s[0]));
   HIP_CHECK(hipStreamWaitValue32(s[1], flag, 5, hipStreamWaitValueGte, 0xffffffffu));
   hipLaunchKernelGGL(read_flag, dim3(1), dim3(64), 0, s[1], flag, out[1]);
   hipLaunchKernelGGL(produce, dim3(1), dim3(1), 0, s[0], (int *)flag, 7, 2000);
   HIP_CHECK(hipStreamSynchronize(s[1]));
   HIP_CHECK(hipMemcpy(host, out[1], 64 * sizeof(int), hipMemcpyDeviceToHost));
   for (int i = 0; i < 64; i++)
      EXPECT(host[i] == 7 + i, "after hipStreamWaitValue32 [%d] = %d, host %d", i, host[i],
             7 + i);
   HIP_CHECK(hipStreamWriteValue64(s[2], flag, 0x123456789abcdefull, 0));
   HIP_CHECK(hipStreamSynchronize(s[2]));
   unsigned long long v64;
   HIP_CHECK(hipMemcpy(&v64, flag, 8, hipMemcpyDeviceToHost));
   EXPECT(v64 == 0x123456789abcdefull, "hipStreamWriteValue64 %#llx", v64);
   HIP_CHECK(hipStreamWriteValue32(s[2], flag, 0xfeedu, 0));
   HIP_CHECK(hipStreamSynchronize(s[2]));
   HIP_CHECK(hipMemcpy(&v64, flag, 8, hipMemcpyDeviceToHost));
   EXPECT(v64 == 0x0123456700000000ull + 0xfeedu, "hipStreamWriteValue32 %#llx", v64);
   HIP_CHECK(hipFree(flag));

   /* A graph captured from a stream (two kernels and a copy), replayed three times. */
   hipGraph_t graph;
   hipGraphExec_t exec;
   HIP_CHECK(hipMemset(buf[0], 0, 64 * sizeof(int)));
   HIP_CHECK(hipStreamBeginCapture(s[0], hipStreamCaptureModeGlobal));
   hipLaunchKernelGGL(add_index, dim3(1), dim3(64), 0, s[0], buf[0], 2);
   hipLaunchKernelGGL(add_index, dim3(1), dim3(64), 0, s[0], buf[0], 3);
   HIP_CHECK(hipMemcpyAsync(out[0], buf[0], 64 * sizeof(int), hipMemcpyDeviceToDevice, s[0]));
   HIP_CHECK(hipStreamEndCapture(s[0], &graph));
   HIP_CHECK(hipGraphInstantiate(&exec, graph, NULL, NULL, 0));
   for (int r = 0; r < 3; r++)
      HIP_CHECK(hipGraphLaunch(exec, s[0]));
   HIP_CHECK(hipStreamSynchronize(s[0]));
   HIP_CHECK(hipMemcpy(host, out[0], 64 * sizeof(int), hipMemcpyDeviceToHost));
   for (int i = 0; i < 64; i++) {
      int v = 0;
      for (int r = 0; r < 3; r++)
         v = (v * 2 + i) * 3 + i;
      EXPECT(host[i] == v, "graph replay [%d] = %d, host %d", i, host[i], v);
   }
   HIP_CHECK(hipGraphExecDestroy(exec));
   HIP_CHECK(hipGraphDestroy(graph));

   for (int k = 0; k < STREAMS; k++) {
      HIP_CHECK(hipEventDestroy(produced[k]));
      HIP_CHECK(hipStreamDestroy(s[k]));
      HIP_CHECK(hipFree(buf[k]));
      HIP_CHECK(hipFree(out[k]));
   }
   HIP_CHECK(hipEventDestroy(start));
   HIP_CHECK(hipEventDestroy(stop));
   HIP_CHECK(hipHostFree(host));
   return hip_check_done("hip_streams");
}
