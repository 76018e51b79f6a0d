/*
 * kfd_test_copy — hsa_amd_memory_async_copy through ROCr on the software KFD. With no SDMA
 * queue (hsaKmtCreateQueue refuses them) ROCr copies with its blit kernels: AMD's own
 * gfx8-encoded ISA in an amd_kernel_code_t, run by the interpreter through the command
 * processor. Every direction (host->device, device->host, device->device, host->host,
 * locked host memory), size classes from 1 byte to several MiB, unaligned offsets, a
 * dependency signal that holds a copy back, and hsa_amd_memory_fill.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <unistd.h>

#include "kfd_test_common.h"

static void
fill_pattern(uint8_t *p, size_t n, unsigned seed)
{
   for (size_t i = 0; i < n; i++)
      p[i] = (uint8_t)(i * 131u + seed * 7u + (i >> 8));
}

static void
copy_and_wait(void *dst, hsa_agent_t dst_agent, const void *src, hsa_agent_t src_agent,
              size_t size, uint32_t ndeps, const hsa_signal_t *deps)
{
   hsa_signal_t done;
   CHECK_HSA(hsa_signal_create(1, 0, NULL, &done));
   CHECK_HSA(hsa_amd_memory_async_copy(dst, dst_agent, src, src_agent, size, ndeps, deps, done));
   hsa_signal_value_t v = hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_LT, 1,
                                                    30000000000ull, HSA_WAIT_STATE_BLOCKED);
   CHECK(v == 0);
   CHECK_HSA(hsa_signal_destroy(done));
}

typedef struct direction {
   const char *name;
   int src_kind, dst_kind; /* 0 host (system pool), 1 device (VRAM), 2 locked malloc */
} direction;

int
main(void)
{
   CHECK_HSA(hsa_init());
   kfd_test_env env;
   kfd_test_env_init(&env);
   hsa_agent_t gpu = env.gpus[0], cpu = env.cpu;

   static const size_t sizes[] = {1, 3, 64, 4095, 4096 + 17, 65536 + 5, (3u << 20) + 1};
   static const size_t offsets[] = {0, 1, 6};
   static const direction dirs[] = {
      {"host->device", 0, 1}, {"device->host", 1, 0}, {"device->device", 1, 1},
      {"host->host", 0, 0},   {"locked->device", 2, 1}, {"device->locked", 1, 2},
   };
   size_t cap = (4u << 20) + 64;
   uint8_t *check = malloc(cap);
   uint8_t *locked_mem = malloc(cap);
   CHECK(check && locked_mem);
   void *locked_agent = NULL;
   CHECK_HSA(hsa_amd_memory_lock(locked_mem, cap, &gpu, 1, &locked_agent));
   CHECK(locked_agent == locked_mem);
   uint8_t *host[2], *dev[2];
   for (int i = 0; i < 2; i++) {
      host[i] = kfd_test_alloc(&env, env.system_pool, cap);
      dev[i] = kfd_test_alloc(&env, env.vram_pool, cap);
   }
   unsigned copies = 0;
   for (unsigned d = 0; d < sizeof(dirs) / sizeof(dirs[0]); d++) {
      for (unsigned si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
         for (unsigned oi = 0; oi < sizeof(offsets) / sizeof(offsets[0]); oi++) {
            size_t n = sizes[si], so = offsets[oi], dofs = offsets[(oi + 1) % 3];
            uint8_t *src = dirs[d].src_kind == 0 ? host[0] : dirs[d].src_kind == 1 ? dev[0]
                                                                                   : locked_mem;
            uint8_t *dst = dirs[d].dst_kind == 0 ? host[1] : dirs[d].dst_kind == 1 ? dev[1]
                                                                                   : locked_mem;
            hsa_agent_t sa = dirs[d].src_kind == 1 ? gpu : cpu;
            hsa_agent_t da = dirs[d].dst_kind == 1 ? gpu : cpu;
            /* Source contents: written by the host (every pool here is host-accessible
             * after allow_access), sentinels around the destination range. */
            fill_pattern(src + so, n, si * 3 + oi + d);
            memset(dst, 0xee, n + dofs + 16);
            copy_and_wait(dst + dofs, da, src + so, sa, n, 0, NULL);
            fill_pattern(check, n, si * 3 + oi + d);
            if (memcmp(dst + dofs, check, n) != 0) {
               fprintf(stderr, "%s: %zu bytes (src +%zu, dst +%zu) differ\n", dirs[d].name, n,
                       so, dofs);
               return 1;
            }
            for (size_t k = 0; k < dofs; k++)
               CHECK(dst[k] == 0xee);
            for (size_t k = 0; k < 16; k++)
               CHECK(dst[dofs + n + k] == 0xee);
            copies++;
         }
      }
   }
   printf("async copies: %u checked in 6 directions\n", copies);

   /* A dependency holds the copy back until the host releases it. */
   hsa_signal_t dep, done;
   CHECK_HSA(hsa_signal_create(1, 0, NULL, &dep));
   CHECK_HSA(hsa_signal_create(1, 0, NULL, &done));
   fill_pattern(host[0], 4096, 99);
   memset(dev[1], 0, 4096);
   CHECK_HSA(hsa_amd_memory_async_copy(dev[1], gpu, host[0], cpu, 4096, 1, &dep, done));
   usleep(50000);
   CHECK(hsa_signal_load_scacquire(done) == 1); /* still waiting for `dep` */
   hsa_signal_store_screlease(dep, 0);
   CHECK(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_LT, 1, 30000000000ull,
                                   HSA_WAIT_STATE_BLOCKED) == 0);
   fill_pattern(check, 4096, 99);
   CHECK(memcmp(dev[1], check, 4096) == 0);
   CHECK_HSA(hsa_signal_destroy(dep));
   CHECK_HSA(hsa_signal_destroy(done));

   /* hsa_amd_memory_fill runs ROCr's fill blit kernel. */
   CHECK_HSA(hsa_amd_memory_fill(dev[0], 0xdeadbeef, 1000));
   for (int i = 0; i < 1000; i++)
      CHECK(((uint32_t *)dev[0])[i] == 0xdeadbeef);

   for (int i = 0; i < 2; i++) {
      CHECK_HSA(hsa_amd_memory_pool_free(host[i]));
      CHECK_HSA(hsa_amd_memory_pool_free(dev[i]));
   }
   CHECK_HSA(hsa_amd_memory_unlock(locked_mem));
   free(locked_mem);
   free(check);
   CHECK_HSA(hsa_shut_down());
   printf("kfd_test_copy: ok\n");
   return 0;
}
