/* Kernel printf (HIP's hostcall buffer, serviced by the runtime's host thread woken through
 * an interrupt signal): stdout goes to a file while the kernel runs, and every line the
 * threads print must be there exactly once with the host's formatting of the same values. */
#include "hip_check.h"
#include <string.h>
#include <unistd.h>

#define THREADS 96

__global__ void say(const char *word)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   printf("hip_printf thread %d: %s %x %5.2f %lld %c%%\n", i, word, i * 0x1010, i * 0.25,
          (long long)i << 33, 'a' + i % 26);
   if (i == 0)
      printf("hip_printf %s|%-6d|%08.3e\n", "a longer string argument, beyond one word", -42,
             1.5e-7);
}

int main(void)
{
   char path[] = "/tmp/hip_printf_XXXXXX";
   int fd = mkstemp(path);
   if (fd < 0) {
      perror("mkstemp");
      return 1;
   }
   unlink(path);
   const char word[] = "gfx906";
   char *dword;
   HIP_CHECK(hipMalloc(&dword, sizeof(word)));
   HIP_CHECK(hipMemcpy(dword, word, sizeof(word), hipMemcpyHostToDevice));

   fflush(stdout);
   int saved = dup(1);
   dup2(fd, 1);
   hipLaunchKernelGGL(say, dim3(THREADS / 32), dim3(32), 0, 0, dword);
   hipError_t launched = hipGetLastError();
   hipError_t synced = hipDeviceSynchronize();
   fflush(stdout);
   dup2(saved, 1);
   close(saved);
   HIP_CHECK(launched);
   HIP_CHECK(synced);

   off_t size = lseek(fd, 0, SEEK_END);
   char *text = (char *)calloc(1, size + 1);
   if (pread(fd, text, size, 0) != size) {
      perror("pread");
      return 1;
   }
   close(fd);
   int lines = 0;
   for (char *p = text; *p; p++)
      lines += *p == '\n';
   EXPECT(lines == THREADS + 1, "%d lines printed, host expects %d", lines, THREADS + 1);
   char want[256];
   for (int i = 0; i <= THREADS; i++) {
      if (i < THREADS)
         snprintf(want, sizeof(want), "hip_printf thread %d: %s %x %5.2f %lld %c%%\n", i,
                  word, i * 0x1010, i * 0.25, (long long)i << 33, 'a' + i % 26);
      else
         snprintf(want, sizeof(want), "hip_printf %s|%-6d|%08.3e\n",
                  "a longer string argument, beyond one word", -42, 1.5e-7);
      /* Exactly once, at a line start. */
      int found = 0;
      for (char *p = text; (p = strstr(p, want)) != NULL; p++)
         found += p == text || p[-1] == '\n';
      EXPECT(found == 1, "line \"%.*s\" printed %d times", (int)strlen(want) - 1, want, found);
   }
   if (hip_check_failures)
      fprintf(stderr, "kernel output:\n%s", text);
   free(text);
   HIP_CHECK(hipFree(dword));
   return hip_check_done("hip_printf");
}
