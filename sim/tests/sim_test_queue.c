/*
 * sim/tests/sim_test_queue.c — queues and the packet processor: barrier-AND/OR ordering,
 * barrier bit, completion signals, read index and header recycling, profiling, the error
 * callback for an invalid packet and for a kernel that traps (argv[1]: trap.hsaco),
 * queue destruction while a barrier still waits, and a producer that reserves a slot
 * before there is room while a dispatch still runs in it (the ring-wrap test below), and
 * doorbells: a packet written but not rung for is not run, by the host or from a kernel
 * (argv[2]: ring.hsaco), and the threads dispatches without the barrier bit run on.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <unistd.h>

#include "sim_test_common.h"

#define MS 1000000ull

static uint16_t
header(hsa_packet_type_t type, bool barrier)
{
   return (uint16_t)((type << HSA_PACKET_HEADER_TYPE) |
                     ((barrier ? 1 : 0) << HSA_PACKET_HEADER_BARRIER) |
                     (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) |
                     (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE));
}

/* Writes a 64-byte packet whose first 32 bits are header+setup; returns its index. */
static uint64_t
submit(hsa_queue_t *q, const void *packet)
{
   uint64_t index = hsa_queue_add_write_index_scacq_screl(q, 1);
   while (index - hsa_queue_load_read_index_scacquire(q) >= q->size)
      sched_yield();
   uint8_t *slot = (uint8_t *)q->base_address + (index & (q->size - 1)) * 64;
   memcpy(slot + 4, (const uint8_t *)packet + 4, 60);
   uint32_t first;
   memcpy(&first, packet, 4);
   __atomic_store_n((uint32_t *)slot, first, __ATOMIC_RELEASE);
   hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)index);
   return index;
}

static uint64_t
submit_barrier(hsa_queue_t *q, hsa_packet_type_t type, bool barrier_bit, const hsa_signal_t *deps,
               int ndeps, hsa_signal_t completion)
{
   hsa_barrier_and_packet_t p;
   memset(&p, 0, sizeof(p));
   p.header = header(type, barrier_bit);
   for (int i = 0; i < ndeps; i++)
      p.dep_signal[i] = deps[i];
   p.completion_signal = completion;
   return submit(q, &p);
}

/* A kernel of a code object file, loaded for env->gpu. */
typedef struct loaded_kernel {
   void *elf;
   hsa_code_object_reader_t reader;
   hsa_executable_t exec;
   hsa_executable_symbol_t sym;
   uint64_t object;
} loaded_kernel;

static void
kernel_load(const test_env *env, const char *path, const char *symbol, loaded_kernel *k)
{
   size_t size;
   k->elf = test_read_file(path, &size);
   CHECK_HSA(hsa_code_object_reader_create_from_memory(k->elf, size, &k->reader));
   CHECK_HSA(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
                                       NULL, &k->exec));
   CHECK_HSA(hsa_executable_load_agent_code_object(k->exec, env->gpu, k->reader, NULL, NULL));
   CHECK_HSA(hsa_executable_freeze(k->exec, NULL));
   CHECK_HSA(hsa_executable_get_symbol_by_name(k->exec, symbol, &env->gpu, &k->sym));
   CHECK_HSA(hsa_executable_symbol_get_info(k->sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT,
                                            &k->object));
}

static void
kernel_unload(loaded_kernel *k)
{
   CHECK_HSA(hsa_executable_destroy(k->exec));
   CHECK_HSA(hsa_code_object_reader_destroy(k->reader));
   free(k->elf);
}

/* One work-group of `size` work-items of `kernel_object`, barrier bit `barrier`; returns
 * its index. */
static uint64_t
submit_dispatch(hsa_queue_t *q, uint64_t kernel_object, void *kernarg, uint16_t size,
                bool barrier, hsa_signal_t completion)
{
   hsa_kernel_dispatch_packet_t d;
   memset(&d, 0, sizeof(d));
   d.header = header(HSA_PACKET_TYPE_KERNEL_DISPATCH, barrier);
   d.setup = 1 << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS;
   d.workgroup_size_x = size;
   d.grid_size_x = size;
   d.workgroup_size_y = d.workgroup_size_z = d.grid_size_y = d.grid_size_z = 1;
   d.kernel_object = kernel_object;
   d.kernarg_address = kernarg;
   d.completion_signal = completion;
   return submit(q, &d);
}

/* spin_kernel (it spins until the word kernarg[0] points to is not 0): 64 work-items,
 * barrier bit clear. */
static uint64_t
submit_spin(hsa_queue_t *q, uint64_t kernel_object, void *kernarg, hsa_signal_t completion)
{
   return submit_dispatch(q, kernel_object, kernarg, 64, false, completion);
}

static hsa_signal_value_t
wait_eq(hsa_signal_t s, hsa_signal_value_t v, uint64_t timeout_ns)
{
   return hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, v, timeout_ns,
                                    HSA_WAIT_STATE_BLOCKED);
}

static void
test_barriers(const test_env *env)
{
   hsa_queue_t *q;
   CHECK(hsa_queue_create(env->gpu, 100, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX,
                          &q) == HSA_STATUS_ERROR_INVALID_ARGUMENT);
   CHECK(hsa_queue_create(env->cpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX,
                          &q) != HSA_STATUS_SUCCESS);
   CHECK_HSA(hsa_queue_create(env->gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX,
                              UINT32_MAX, &q));
   CHECK(q->size == 64 && q->base_address && q->doorbell_signal.handle);
   CHECK(hsa_queue_load_read_index_relaxed(q) == 0 && hsa_queue_load_write_index_relaxed(q) == 0);
   CHECK_HSA(hsa_amd_profiling_set_profiler_enabled(q, 1));

   hsa_signal_t d1, d2, c1, c2, c3;
   CHECK_HSA(hsa_signal_create(1, 0, NULL, &d1));
   CHECK_HSA(hsa_signal_create(1, 0, NULL, &d2));
   CHECK_HSA(hsa_signal_create(1, 0, NULL, &c1));
   CHECK_HSA(hsa_signal_create(1, 0, NULL, &c2));
   CHECK_HSA(hsa_signal_create(2, 0, NULL, &c3));

   /* Barrier-AND on d1, d2 (a zero handle in between is ignored). */
   hsa_signal_t deps[3] = {d1, {0}, d2};
   uint64_t i0 = submit_barrier(q, HSA_PACKET_TYPE_BARRIER_AND, false, deps, 3, c1);
   /* Behind it, with the barrier bit: must not complete before the first. */
   submit_barrier(q, HSA_PACKET_TYPE_BARRIER_AND, true, NULL, 0, c2);
   /* And one more: completion signals decrement by exactly one. */
   submit_barrier(q, HSA_PACKET_TYPE_BARRIER_AND, false, NULL, 0, c3);
   CHECK(i0 == 0);

   CHECK(wait_eq(c1, 0, 30 * MS) == 1);
   CHECK(hsa_signal_load_relaxed(c2) == 1 && hsa_signal_load_relaxed(c3) == 2);
   CHECK(hsa_queue_load_read_index_scacquire(q) == 0);
   hsa_signal_store_screlease(d1, 0);
   CHECK(wait_eq(c1, 0, 30 * MS) == 1);
   CHECK(hsa_signal_load_relaxed(c2) == 1);
   hsa_signal_store_screlease(d2, 0);
   CHECK(wait_eq(c1, 0, UINT64_MAX) == 0);
   CHECK(wait_eq(c2, 0, UINT64_MAX) == 0);
   CHECK(wait_eq(c3, 1, UINT64_MAX) == 1);
   CHECK(hsa_queue_load_read_index_scacquire(q) == 3);
   /* Consumed slots are INVALID again. */
   for (int i = 0; i < 3; i++) {
      uint16_t h = *(volatile uint16_t *)((uint8_t *)q->base_address + i * 64);
      CHECK((h & 0xff) == HSA_PACKET_TYPE_INVALID);
   }
   hsa_amd_profiling_dispatch_time_t t;
   CHECK_HSA(hsa_amd_profiling_get_dispatch_time(env->gpu, c1, &t));
   CHECK(t.start != 0 && t.end >= t.start);

   /* Barrier-OR: any dependency at 0 completes it; no dependency at all completes at once. */
   hsa_signal_store_relaxed(d1, 1);
   hsa_signal_store_relaxed(d2, 1);
   hsa_signal_store_relaxed(c1, 1);
   hsa_signal_t or_deps[2] = {d1, d2};
   submit_barrier(q, HSA_PACKET_TYPE_BARRIER_OR, false, or_deps, 2, c1);
   CHECK(wait_eq(c1, 0, 30 * MS) == 1);
   hsa_signal_store_screlease(d2, 0);
   CHECK(wait_eq(c1, 0, UINT64_MAX) == 0);
   hsa_signal_store_relaxed(c1, 1);
   submit_barrier(q, HSA_PACKET_TYPE_BARRIER_OR, false, NULL, 0, c1);
   CHECK(wait_eq(c1, 0, UINT64_MAX) == 0);

   /* Wrap around the ring several times. */
   hsa_signal_store_relaxed(c1, 200);
   for (int i = 0; i < 200; i++)
      submit_barrier(q, HSA_PACKET_TYPE_BARRIER_AND, i & 1, NULL, 0, c1);
   CHECK(wait_eq(c1, 0, UINT64_MAX) == 0);

   /* Destroying a queue whose barrier waits forever does not hang. */
   hsa_signal_store_relaxed(d1, 1);
   submit_barrier(q, HSA_PACKET_TYPE_BARRIER_AND, false, &d1, 1, c2);
   CHECK_HSA(hsa_queue_destroy(q));
   CHECK(hsa_queue_destroy(q) == HSA_STATUS_ERROR_INVALID_QUEUE);

   hsa_signal_destroy(d1);
   hsa_signal_destroy(d2);
   hsa_signal_destroy(c1);
   hsa_signal_destroy(c2);
   hsa_signal_destroy(c3);
}

typedef struct callback_state {
   _Atomic int calls;
   _Atomic hsa_status_t status;
   hsa_queue_t *_Atomic source;
} callback_state;

static void
on_queue_error(hsa_status_t status, hsa_queue_t *source, void *data)
{
   callback_state *cb = data;
   atomic_store(&cb->status, status);
   atomic_store(&cb->source, source);
   atomic_fetch_add(&cb->calls, 1);
}

static void
wait_callback(callback_state *cb)
{
   for (int i = 0; i < 5000 && atomic_load(&cb->calls) == 0; i++)
      usleep(1000);
   CHECK(atomic_load(&cb->calls) == 1);
}

static void
test_invalid_packet(const test_env *env)
{
   callback_state cb = {0};
   hsa_queue_t *q;
   CHECK_HSA(hsa_queue_create(env->gpu, 64, HSA_QUEUE_TYPE_SINGLE, on_queue_error, &cb,
                              UINT32_MAX, UINT32_MAX, &q));
   hsa_signal_t c;
   CHECK_HSA(hsa_signal_create(1, 0, NULL, &c));
   hsa_barrier_and_packet_t p;
   memset(&p, 0, sizeof(p));
   p.header = (uint16_t)(7 << HSA_PACKET_HEADER_TYPE); /* no such packet type */
   p.completion_signal = c;
   submit(q, &p);
   wait_callback(&cb);
   CHECK(atomic_load(&cb.status) == HSA_STATUS_ERROR_INVALID_PACKET_FORMAT);
   CHECK(atomic_load(&cb.source) == q);
   /* The queue is in the error state: later packets are not processed, waits time out. */
   hsa_signal_t c2;
   CHECK_HSA(hsa_signal_create(1, 0, NULL, &c2));
   submit_barrier(q, HSA_PACKET_TYPE_BARRIER_AND, false, NULL, 0, c2);
   CHECK(wait_eq(c2, 0, 30 * MS) == 1);
   CHECK_HSA(hsa_queue_destroy(q));

   /* A dispatch packet with zero dimensions is malformed too. */
   memset(&cb, 0, sizeof(cb));
   CHECK_HSA(hsa_queue_create(env->gpu, 64, HSA_QUEUE_TYPE_MULTI, on_queue_error, &cb,
                              UINT32_MAX, UINT32_MAX, &q));
   hsa_kernel_dispatch_packet_t d;
   memset(&d, 0, sizeof(d));
   d.header = header(HSA_PACKET_TYPE_KERNEL_DISPATCH, false);
   d.setup = 0;
   d.kernel_object = 0x1000;
   d.completion_signal = c;
   submit(q, &d);
   wait_callback(&cb);
   CHECK(atomic_load(&cb.status) == HSA_STATUS_ERROR_INVALID_PACKET_FORMAT);
   CHECK_HSA(hsa_queue_destroy(q));
   hsa_signal_destroy(c);
   hsa_signal_destroy(c2);
}

/*
 * A kernel executing s_trap 2 fails its dispatch: the error callback is called with a
 * non-success status and the queue, and the process survives. This holds both while the
 * interpreter fails every dispatch and once it runs kernels (a trap is an exception).
 */
static void
test_dispatch_error(const test_env *env, const char *trap_path)
{
   loaded_kernel k;
   kernel_load(env, trap_path, "trap_kernel.kd", &k);
   hsa_executable_symbol_t sym = k.sym;
   uint64_t kernel_object = k.object;
   uint32_t kernarg_size;
   CHECK_HSA(hsa_executable_symbol_get_info(
      sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE, &kernarg_size));
   CHECK(kernel_object != 0 && kernarg_size == 8);

   void *kernarg;
   CHECK_HSA(hsa_amd_memory_pool_allocate(env->kernarg_pool, 64, 0, &kernarg));
   memset(kernarg, 0, 64);

   callback_state cb = {0};
   hsa_queue_t *q;
   CHECK_HSA(hsa_queue_create(env->gpu, 64, HSA_QUEUE_TYPE_MULTI, on_queue_error, &cb,
                              UINT32_MAX, UINT32_MAX, &q));
   hsa_signal_t done;
   CHECK_HSA(hsa_signal_create(1, 0, NULL, &done));
   hsa_kernel_dispatch_packet_t d;
   memset(&d, 0, sizeof(d));
   d.header = header(HSA_PACKET_TYPE_KERNEL_DISPATCH, true);
   d.setup = 1 << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS;
   d.workgroup_size_x = 64;
   d.workgroup_size_y = 1;
   d.workgroup_size_z = 1;
   d.grid_size_x = 64;
   d.grid_size_y = 1;
   d.grid_size_z = 1;
   d.kernel_object = kernel_object;
   d.kernarg_address = kernarg;
   d.completion_signal = done;
   submit(q, &d);
   wait_callback(&cb);
   CHECK(atomic_load(&cb.status) != HSA_STATUS_SUCCESS);
   CHECK(atomic_load(&cb.source) == q);
   /* Whatever the runtime does with the signal, a waiter with a timeout returns. */
   (void)wait_eq(done, 0, 20 * MS);
   CHECK_HSA(hsa_queue_destroy(q));
   hsa_signal_destroy(done);
   CHECK_HSA(hsa_amd_memory_pool_free(kernarg));
   kernel_unload(&k);
}

/*
 * Resources of a compute unit: a work-group's waves all start on one CU, spread over its 4
 * SIMDs, each with 256 VGPRs a lane. vgpr128_kernel (128 VGPRs) runs in groups of 256 and
 * 512 work-items (1 and 2 waves a SIMD) and is refused at 1024 (4 a SIMD would need 512):
 * HSA_STATUS_ERROR_OUT_OF_RESOURCES through the queue's error callback.
 */
static void
test_cu_resources(const test_env *env, const char *path)
{
   loaded_kernel k;
   kernel_load(env, path, "vgpr128_kernel.kd", &k);
   uint64_t kernel_object = k.object;
   void *kernarg;
   CHECK_HSA(hsa_amd_memory_pool_allocate(env->kernarg_pool, 64, 0, &kernarg));
   memset(kernarg, 0, 64);
   static const uint16_t sizes[3] = { 256, 512, 1024 };
   for (int i = 0; i < 3; i++) {
      callback_state cb = {0};
      hsa_queue_t *q;
      CHECK_HSA(hsa_queue_create(env->gpu, 64, HSA_QUEUE_TYPE_MULTI, on_queue_error, &cb,
                                 UINT32_MAX, UINT32_MAX, &q));
      hsa_signal_t done;
      CHECK_HSA(hsa_signal_create(1, 0, NULL, &done));
      hsa_kernel_dispatch_packet_t d;
      memset(&d, 0, sizeof(d));
      d.header = header(HSA_PACKET_TYPE_KERNEL_DISPATCH, true);
      d.setup = 1 << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS;
      d.workgroup_size_x = sizes[i];
      d.workgroup_size_y = 1;
      d.workgroup_size_z = 1;
      d.grid_size_x = 2u * sizes[i];
      d.grid_size_y = 1;
      d.grid_size_z = 1;
      d.kernel_object = kernel_object;
      d.kernarg_address = kernarg;
      d.completion_signal = done;
      submit(q, &d);
      if (sizes[i] <= 512) {
         CHECK(wait_eq(done, 0, 5000 * MS) == 0);
         CHECK(atomic_load(&cb.status) == HSA_STATUS_SUCCESS);
      } else {
         wait_callback(&cb);
         CHECK(atomic_load(&cb.status) == HSA_STATUS_ERROR_OUT_OF_RESOURCES);
         CHECK(atomic_load(&cb.source) == q);
      }
      CHECK_HSA(hsa_queue_destroy(q));
      hsa_signal_destroy(done);
   }
   CHECK_HSA(hsa_amd_memory_pool_free(kernarg));
   kernel_unload(&k);
}

/*
 * A producer may advance the write index first and wait for room afterwards (ROCr's blit
 * kernels do, on 64-packet queues). While the dispatch in slot 0 still runs and the 63
 * packets after it are done, a reservation of index 64 must not make the CP take slot 0
 * (its header is still the running dispatch's) for packet 64: that ran the dispatch twice
 * (its completion signal -1) and never ran the real packet 64 written once slot 0 retired
 * (ROCr's image transfers lost a row copy or hung; docs/sim.md, the command processor).
 */
static void
test_ring_wrap(const test_env *env, const char *path)
{
   loaded_kernel k;
   kernel_load(env, path, "spin_kernel.kd", &k);
   uint64_t kernel_object = k.object;
   uint32_t *flag;
   void **kernarg;
   CHECK_HSA(hsa_amd_memory_pool_allocate(env->kernarg_pool, 64, 0, (void **)&flag));
   CHECK_HSA(hsa_amd_memory_pool_allocate(env->kernarg_pool, 64, 0, (void **)&kernarg));
   __atomic_store_n(flag, 0, __ATOMIC_RELEASE);
   kernarg[0] = flag;

   hsa_queue_t *q;
   CHECK_HSA(hsa_queue_create(env->gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX,
                              UINT32_MAX, &q));
   hsa_signal_t spun, rest, last, gate;
   CHECK_HSA(hsa_signal_create(1, 0, NULL, &spun));
   CHECK_HSA(hsa_signal_create(1, 0, NULL, &gate));
   CHECK_HSA(hsa_signal_create(63, 0, NULL, &rest));
   CHECK_HSA(hsa_signal_create(1, 0, NULL, &last));
   CHECK(submit_spin(q, kernel_object, kernarg, spun) == 0);
   for (int i = 0; i < 63; i++)
      submit_barrier(q, HSA_PACKET_TYPE_BARRIER_AND, false, NULL, 0, rest);
   CHECK(wait_eq(rest, 0, 5000 * MS) == 0);
   CHECK(hsa_queue_load_read_index_scacquire(q) == 0);
   /* Index 64 reserved, not written: slot 0 is not the producer's until index 0 retires. */
   CHECK(hsa_queue_add_write_index_scacq_screl(q, 1) == 64);
   hsa_signal_store_screlease(q->doorbell_signal, 64);
   usleep(100 * 1000); /* time for the CP to come round to slot 0 */
   CHECK(hsa_signal_load_scacquire(spun) == 1);
   __atomic_store_n(flag, 1, __ATOMIC_RELEASE);
   CHECK(wait_eq(spun, 0, 5000 * MS) == 0);
   while (hsa_queue_load_read_index_scacquire(q) < 64)
      sched_yield();
   usleep(20 * 1000);
   /* Packet 64 is not written yet: it cannot have been consumed. */
   CHECK(hsa_queue_load_read_index_scacquire(q) == 64);
   /* Now packet 64 itself, in slot 0 (as ROCr writes it once there is room): a barrier
    * waiting for `gate`, so that nothing but its own dependency can complete it. */
   hsa_barrier_and_packet_t b;
   memset(&b, 0, sizeof(b));
   b.dep_signal[0] = gate;
   b.completion_signal = last;
   uint8_t *slot = (uint8_t *)q->base_address;
   memcpy(slot + 4, (const uint8_t *)&b + 4, 60);
   uint32_t first = header(HSA_PACKET_TYPE_BARRIER_AND, false);
   __atomic_store_n((uint32_t *)slot, first, __ATOMIC_RELEASE);
   hsa_signal_store_screlease(q->doorbell_signal, 64);
   CHECK(wait_eq(last, 0, 50 * MS) == 1);
   hsa_signal_store_screlease(gate, 0);
   CHECK(wait_eq(last, 0, 5000 * MS) == 0);
   CHECK(hsa_queue_load_read_index_scacquire(q) == 65);
   CHECK(hsa_signal_load_scacquire(spun) == 0); /* the dispatch ran once */

   CHECK_HSA(hsa_queue_destroy(q));
   hsa_signal_destroy(spun);
   hsa_signal_destroy(rest);
   hsa_signal_destroy(last);
   hsa_signal_destroy(gate);
   CHECK_HSA(hsa_amd_memory_pool_free(kernarg));
   CHECK_HSA(hsa_amd_memory_pool_free(flag));
   kernel_unload(&k);
}

/* Publishes `packet` at the next index without ringing the doorbell; returns the index. */
static uint64_t
write_unrung(hsa_queue_t *q, const void *packet)
{
   uint64_t index = hsa_queue_add_write_index_scacq_screl(q, 1);
   uint8_t *slot = (uint8_t *)q->base_address + (index & (q->size - 1)) * 64;
   memcpy(slot + 4, (const uint8_t *)packet + 4, 60);
   uint32_t first;
   memcpy(&first, packet, 4);
   __atomic_store_n((uint32_t *)slot, first, __ATOMIC_RELEASE);
   return index;
}

static uint64_t
write_unrung_barrier(hsa_queue_t *q, hsa_signal_t completion)
{
   hsa_barrier_and_packet_t p;
   memset(&p, 0, sizeof(p));
   p.header = header(HSA_PACKET_TYPE_BARRIER_AND, false);
   p.completion_signal = completion;
   return write_unrung(q, &p);
}

/*
 * The command processor reads a packet only once a ring came after its slot was taken
 * (sim_cp.h), as hardware does: published packets nobody rang for stay where they are; a
 * ring lets the CP read up to the write index, so a ring for the first of two published
 * packets runs both (gfx9's CP reads its write pointer from memory); a ring from a kernel
 * (a wave's store through the doorbell signal) wakes the CP like a host ring.
 */
static void
test_doorbell(const test_env *env, const char *path)
{
   hsa_queue_t *q, *other;
   CHECK_HSA(hsa_queue_create(env->gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX,
                              UINT32_MAX, &q));
   hsa_signal_t c1, c2;
   CHECK_HSA(hsa_signal_create(1, 0, NULL, &c1));
   CHECK_HSA(hsa_signal_create(1, 0, NULL, &c2));
   CHECK(write_unrung_barrier(q, c1) == 0);
   CHECK(write_unrung_barrier(q, c2) == 1);
   CHECK(wait_eq(c1, 0, 200 * MS) == 1);
   CHECK(hsa_queue_load_read_index_scacquire(q) == 0);
   hsa_signal_store_screlease(q->doorbell_signal, 0);
   CHECK(wait_eq(c1, 0, 5000 * MS) == 0);
   CHECK(wait_eq(c2, 0, 5000 * MS) == 0);
   CHECK(hsa_queue_load_read_index_scacquire(q) == 2);
   /* The doorbell's value reads back (ROCr: the last value written). */
   CHECK(hsa_signal_load_relaxed(q->doorbell_signal) == 0);
   hsa_signal_store_screlease(q->doorbell_signal, 1);
   /* An older value rung late (producers of a multi-producer queue race) takes nothing
    * back: packet 2 was rung by the ring for 3. */
   hsa_signal_store_relaxed(c1, 1);
   hsa_signal_store_relaxed(c2, 1);
   write_unrung_barrier(q, c1);
   write_unrung_barrier(q, c2);
   hsa_signal_store_screlease(q->doorbell_signal, 3);
   hsa_signal_store_screlease(q->doorbell_signal, 2);
   CHECK(wait_eq(c1, 0, 5000 * MS) == 0);
   CHECK(wait_eq(c2, 0, 5000 * MS) == 0);

   /* From a kernel: `ring` on queue q stores 0 to the doorbell of `other`, whose packet 0
    * waits unrung until then. */
   loaded_kernel k;
   kernel_load(env, path, "ring.kd", &k);
   uint64_t kernel_object = k.object;
   CHECK_HSA(hsa_queue_create(env->gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX,
                              UINT32_MAX, &other));
   hsa_signal_store_relaxed(c1, 1);
   hsa_signal_store_relaxed(c2, 1);
   CHECK(write_unrung_barrier(other, c2) == 0);
   uint64_t *kernarg;
   CHECK_HSA(hsa_amd_memory_pool_allocate(env->kernarg_pool, 64, 0, (void **)&kernarg));
   kernarg[0] = other->doorbell_signal.handle;
   kernarg[1] = 0;
   CHECK(wait_eq(c2, 0, 200 * MS) == 1);
   submit_dispatch(q, kernel_object, kernarg, 1, true, c1);
   CHECK(wait_eq(c1, 0, 5000 * MS) == 0);
   /* No host ring for `other`: only the kernel's store wakes its CP, at once (well within
    * the idle CP's 1 s safety timeout). */
   CHECK(wait_eq(c2, 0, 300 * MS) == 0);
   CHECK(hsa_signal_load_relaxed(other->doorbell_signal) == 0);

   CHECK_HSA(hsa_queue_destroy(other));
   CHECK_HSA(hsa_queue_destroy(q));
   hsa_signal_destroy(c1);
   hsa_signal_destroy(c2);
   CHECK_HSA(hsa_amd_memory_pool_free(kernarg));
   kernel_unload(&k);
}

/* Threads started by any library of the process: this executable's pthread_create, exported
 * (sim/tests/CMakeLists.txt), comes first in symbol lookup and forwards to the next
 * definition (libc's, or a sanitizer's). */
static atomic_uint thread_creates;

__attribute__((visibility("default"))) int
pthread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
   static int (*next)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
   if (!next)
      next = (int (*)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *))dlsym(
         RTLD_NEXT, "pthread_create");
   atomic_fetch_add(&thread_creates, 1);
   return next(thread, attr, fn, arg);
}

/*
 * Dispatches without the barrier bit run beside each other (a later one completes while an
 * earlier one still spins), on threads the queue keeps: one short dispatch after another,
 * as ROCr's blit kernels come, starts no thread each (sim_cp.c; a thread, its stack and its
 * mappings a copy made ROCr's image transfers twice as slow). At most SIM_CP_MAX_ASYNC (8)
 * threads: a dispatch that finds its thread still finishing the last may start another.
 */
static void
test_dispatch_threads(const test_env *env, const char *path)
{
   loaded_kernel k;
   kernel_load(env, path, "spin_kernel.kd", &k);
   uint32_t *flags;
   void **kernarg;
   CHECK_HSA(hsa_amd_memory_pool_allocate(env->kernarg_pool, 64, 0, (void **)&flags));
   CHECK_HSA(hsa_amd_memory_pool_allocate(env->kernarg_pool, 64, 0, (void **)&kernarg));
   __atomic_store_n(&flags[0], 0, __ATOMIC_RELEASE);
   __atomic_store_n(&flags[1], 0, __ATOMIC_RELEASE);
   kernarg[0] = &flags[0];
   kernarg[2] = &flags[1];
   hsa_queue_t *q;
   CHECK_HSA(hsa_queue_create(env->gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX,
                              UINT32_MAX, &q));
   hsa_signal_t a, b;
   CHECK_HSA(hsa_signal_create(1, 0, NULL, &a));
   CHECK_HSA(hsa_signal_create(1, 0, NULL, &b));
   submit_spin(q, k.object, &kernarg[0], a);
   submit_spin(q, k.object, &kernarg[2], b);
   __atomic_store_n(&flags[1], 1, __ATOMIC_RELEASE);
   CHECK(wait_eq(b, 0, 5000 * MS) == 0);
   CHECK(hsa_signal_load_scacquire(a) == 1); /* still spinning */
   __atomic_store_n(&flags[0], 1, __ATOMIC_RELEASE);
   CHECK(wait_eq(a, 0, 5000 * MS) == 0);

   unsigned before = atomic_load(&thread_creates);
   for (int i = 0; i < 64; i++) {
      hsa_signal_store_relaxed(b, 1);
      submit_spin(q, k.object, &kernarg[2], b);
      CHECK(wait_eq(b, 0, 5000 * MS) == 0);
   }
   unsigned started = atomic_load(&thread_creates) - before;
   if (started >= 8)
      fprintf(stderr, "64 dispatches one after another started %u threads\n", started);
   CHECK(started < 8);

   CHECK_HSA(hsa_queue_destroy(q));
   hsa_signal_destroy(a);
   hsa_signal_destroy(b);
   CHECK_HSA(hsa_amd_memory_pool_free(kernarg));
   CHECK_HSA(hsa_amd_memory_pool_free(flags));
   kernel_unload(&k);
}

int
main(int argc, char **argv)
{
   CHECK(argc == 3);
   test_env env;
   test_env_init(&env);
   test_barriers(&env);
   test_invalid_packet(&env);
   test_dispatch_error(&env, argv[1]);
   test_cu_resources(&env, argv[1]);
   test_ring_wrap(&env, argv[1]);
   test_doorbell(&env, argv[2]);
   test_dispatch_threads(&env, argv[1]);
   /* A queue left alive is torn down by the last hsa_shut_down. */
   hsa_queue_t *q;
   CHECK_HSA(hsa_queue_create(env.gpu, 128, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX,
                              UINT32_MAX, &q));
   CHECK_HSA(hsa_shut_down());
   printf("sim_test_queue: ok\n");
   return 0;
}
