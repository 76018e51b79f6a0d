/*
 * sim/kfd/tests/kfd_test_doorbell.c — ROCr's host doorbell store wakes the software KFD's
 * command processor (kfd_queue.c, kfd_doorbell.c):
 *   - a packet published but not rung for is not run, however long the CP has;
 *   - ROCr's ring (its doorbell signal's plain store) runs it, round after round while the
 *     queue is hot, each waited for in the KFD;
 *   - a cold queue does not poll: over 300 ms once the CP has gone cold (HOT_NS, 50 ms),
 *     the voluntary context switches of all the process's threads stay a handful (a CP
 *     polling its doorbell with growing naps wakes about a hundred times);
 *   - and a ring of the cold queue wakes its CP through the doorbell trap (the KFD's kick
 *     of polling CPs does not reach it): without the trap the wait would never end;
 *   - two producers of a multi-producer queue ringing out of order (the later packet's
 *     index, then the earlier one's, so the doorbell word ends below the last packet, as
 *     ROCr's blit kernels sharing one queue under separate locks do) run both packets: a
 *     ring lets the CP read up to the write pointer, as gfx9's does.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <string.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include "kfd_test_common.h"

#define ROUNDS 200
#define COLD_ROUNDS 5
#define COLD_MS 100 /* past the KFD's HOT_NS */
#define IDLE_MS 300
#define IDLE_MAX_SWITCHES 20

static hsa_signal_value_t
wait_done(hsa_signal_t s, uint64_t timeout_ns)
{
   return hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_LT, 1, timeout_ns,
                                    HSA_WAIT_STATE_BLOCKED);
}

/* The sum of voluntary_ctxt_switches over the process's threads. */
static long
voluntary_switches(void)
{
   long total = 0;
   DIR *d = opendir("/proc/self/task");
   CHECK(d);
   struct dirent *e;
   while ((e = readdir(d))) {
      if (e->d_name[0] == '.')
         continue;
      char path[300], line[128];
      snprintf(path, sizeof(path), "/proc/self/task/%s/status", e->d_name);
      FILE *f = fopen(path, "r");
      if (!f)
         continue; /* the thread ended meanwhile */
      while (fgets(line, sizeof(line), f)) {
         long v;
         if (sscanf(line, "voluntary_ctxt_switches: %ld", &v) == 1)
            total += v;
      }
      fclose(f);
   }
   closedir(d);
   return total;
}

int
main(void)
{
   CHECK_HSA(hsa_init());
   kfd_test_env env;
   kfd_test_env_init(&env);
   hsa_queue_t *q;
   CHECK_HSA(hsa_queue_create(env.gpus[0], 64, HSA_QUEUE_TYPE_MULTI, queue_error, NULL,
                              UINT32_MAX, UINT32_MAX, &q));
   hsa_signal_t done;
   CHECK_HSA(hsa_signal_create(1, 0, NULL, &done));

   /* Not rung: not run. */
   uint64_t i0 = kfd_test_write_unrung_barrier(q, done);
   CHECK(wait_done(done, 200000000ull) == 1);
   CHECK(hsa_queue_load_read_index_scacquire(q) == i0);

   /* Rung by ROCr's host store while the queue is hot. */
   for (int r = 0; r < ROUNDS; r++) {
      uint64_t i = r ? kfd_test_write_unrung_barrier(q, done) : i0;
      hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)i);
      CHECK(wait_done(done, 30000000000ull) == 0);
      hsa_signal_store_screlease(done, 1);
   }
   CHECK(atomic_load(&errors_seen) == 0);

   /* Out of order: while the CP waits in a barrier on `gate`, packets i+1 and i+2 are
    * published and rung i+2 first, then i+1; the CP sees only the last word. */
   hsa_signal_t gate, done2;
   CHECK_HSA(hsa_signal_create(1, 0, NULL, &gate));
   CHECK_HSA(hsa_signal_create(1, 0, NULL, &done2));
   uint64_t g = hsa_queue_add_write_index_scacq_screl(q, 1);
   hsa_barrier_and_packet_t *gp =
      (hsa_barrier_and_packet_t *)q->base_address + (g & (q->size - 1));
   memset((uint8_t *)gp + 4, 0, sizeof(*gp) - 4);
   gp->dep_signal[0] = gate;
   gp->completion_signal = done;
   __atomic_store_n((uint32_t *)gp, HSA_PACKET_TYPE_BARRIER_AND << HSA_PACKET_HEADER_TYPE,
                    __ATOMIC_RELEASE);
   hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)g);
   struct timespec settle = {0, 50 * 1000000L};
   nanosleep(&settle, NULL); /* the CP is in the barrier by now (not needed to pass) */
   uint64_t a = kfd_test_write_unrung_barrier(q, done2);
   uint64_t b = kfd_test_write_unrung_barrier(q, done2);
   CHECK(b == a + 1);
   hsa_signal_store_screlease(done2, 2);
   hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)b);
   hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)a);
   hsa_signal_store_screlease(gate, 0);
   CHECK(wait_done(done, 30000000000ull) == 0);
   CHECK(wait_done(done2, 30000000000ull) == 0);
   CHECK(hsa_queue_load_read_index_scacquire(q) == b + 1);
   hsa_signal_store_screlease(done, 1);
   CHECK_HSA(hsa_signal_destroy(gate));
   CHECK_HSA(hsa_signal_destroy(done2));

   /* Cold: nobody wakes. */
   struct timespec cold = {0, COLD_MS * 1000000L}, idle = {0, IDLE_MS * 1000000L};
   nanosleep(&cold, NULL);
   long before = voluntary_switches();
   nanosleep(&idle, NULL);
   long switches = voluntary_switches() - before;
   printf("voluntary context switches over %d ms idle: %ld\n", IDLE_MS, switches);
   CHECK(switches <= IDLE_MAX_SWITCHES);

   /* Rung while cold: the trap wakes the CP. */
   for (int r = 0; r < COLD_ROUNDS; r++) {
      uint64_t i = kfd_test_write_unrung_barrier(q, done);
      nanosleep(&cold, NULL);
      hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)i);
      CHECK(wait_done(done, 30000000000ull) == 0);
      hsa_signal_store_screlease(done, 1);
   }

   CHECK_HSA(hsa_signal_destroy(done));
   CHECK_HSA(hsa_queue_destroy(q));
   CHECK_HSA(hsa_shut_down());
   printf("kfd_test_doorbell: ok (%d rings hot, %d cold)\n", ROUNDS, COLD_ROUNDS);
   return 0;
}
