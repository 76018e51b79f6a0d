/*
 * sim/sim_queue.c — user-mode queues of the software HSA runtime (HSA Runtime PRM §2.7
 * "Queues"), dispatch profiling. The packet processor is the command processor shared with
 * the software KFD (sim_cp.h: packet order, barriers, vendor packets, completion); this
 * file gives it the runtime's rings, signals and doorbells.
 *
 * The ring is system memory (GPU VA == host pointer, entered in the allocation table so
 * the interpreter can read the dispatch packet). One CP thread per queue. Its idle sleep is
 * the eventcount of sim_priv.h on the doorbell signal: a ring costs the producer a system
 * call only while the CP sleeps. The doorbell signal is AMD_SIGNAL_KIND_DOORBELL, as ROCr's:
 * its value operations act on a doorbell word of the queue's own (SIM_ALLOC_DOORBELL
 * system memory), which a kernel writes through the signal too (ockl's
 * __ockl_hsa_signal_store); such a write reaches doorbell_hook, which wakes the CP. The CP
 * reads packets only after a ring (sim_cp.h). Barrier waits watch their signals and sleep on the epoch.
 * Fence scopes are recorded only: host memory is coherent and the interpreter's stores are
 * visible on return.
 *
 * Errors (invalid packet, failed dispatch) call the error callback with the status and the
 * queue, from the CP thread, with no runtime lock held; the queue then stays in the error
 * state, as in ROCr: no later packet is processed and the faulting packet's completion
 * signal is not decremented. Waiters with a timeout return; the callback is the place to
 * fail outstanding work.
 */
#include <stdlib.h>
#include <string.h>

#include "sim_cp.h"
#include "sim_priv.h"

#define QUEUE_LIVE 0x51554555u /* "QUEU" */
#define QUEUE_MIN 64u
#define QUEUE_MAX 131072u
#define IDLE_WAIT_NS 1000000000ull   /* safety poll of a sleeping processor */

typedef void (*sim_queue_callback)(hsa_status_t status, hsa_queue_t *source, void *data);

typedef struct sim_queue {
   hsa_queue_t q; /* first: the application's hsa_queue_t* points here */
   _Atomic uint64_t write_index;
   _Atomic uint64_t read_index;
   uint32_t check;
   bool soft; /* hsa_soft_queue_create: no packet processor, doorbell owned by the app */
   hsa_signal_t doorbell;
   sim_signal *doorbell_sig;
   _Atomic int64_t *doorbell_word; /* SIM_ALLOC_DOORBELL memory; NULL for a soft queue */
   sim_queue_callback callback; /* called on the processor thread, no lock held */
   void *data;
   pthread_t thread;
   bool thread_started;
   sim_cp cp;                 /* the command processor's state: stop, error, indices */
   _Atomic bool self_destroy; /* destroyed from its own callback: the thread cleans up */
   _Atomic bool profiling;
   uint32_t private_segment_size, group_segment_size;
   uint32_t cu_mask[(60 + 31) / 32];
   hsa_amd_queue_priority_t priority;
   uint32_t gpu; /* the GPU agent whose command processor serves it */
   struct sim_queue *next;
} sim_queue;

static pthread_mutex_t queues_lock = PTHREAD_MUTEX_INITIALIZER;
static sim_queue *queues;
static _Atomic uint64_t next_queue_id;

static sim_queue *
queue_of(const hsa_queue_t *q)
{
   return (sim_queue *)q;
}

/* The live queue for an application pointer, or NULL. */
static sim_queue *
queue_lookup(const hsa_queue_t *q)
{
   sim_queue *found = NULL;
   pthread_mutex_lock(&queues_lock);
   for (sim_queue *s = queues; s; s = s->next) {
      if (&s->q == q) {
         found = s;
         break;
      }
   }
   pthread_mutex_unlock(&queues_lock);
   return found;
}

static void
header_store(void *packet, uint16_t header)
{
   atomic_store_explicit((_Atomic uint16_t *)packet, header, memory_order_release);
}

/* ---- the command processor's hooks (sim_cp.h) -------------------------------------------- */

static bool
cp_signal_valid(sim_cp *cp, uint64_t handle)
{
   (void)cp;
   return sim__signal_get((hsa_signal_t){handle}) != NULL;
}

static int64_t
cp_signal_load(sim_cp *cp, uint64_t handle)
{
   (void)cp;
   sim_signal *s = sim__signal_get((hsa_signal_t){handle});
   return s ? sim__signal_load(s) : 0;
}

static void
cp_signal_complete(sim_cp *cp, uint64_t handle, bool profiling, uint64_t start, uint64_t end)
{
   (void)cp;
   sim_signal *s = sim__signal_get((hsa_signal_t){handle});
   if (!s)
      return;
   sim__cp_signal_complete(sim__signal_amd(s), profiling, start, end);
   sim__signal_notify(s);
}

/* Multi-signal wait: watch the signals, sleep on the epoch (sim_priv.h). */
static bool
cp_wait_signals(sim_cp *cp, const uint64_t *handles, uint32_t count,
                bool (*ready)(sim_cp *cp, void *arg), void *arg)
{
   sim_signal *sig[5];
   uint32_t n = 0;
   for (uint32_t i = 0; i < count && n < 5; i++) {
      sig[n] = sim__signal_get((hsa_signal_t){handles[i]});
      if (sig[n])
         sim__signal_watch(sig[n++]);
   }
   bool met;
   for (bool announced = false;; announced = true) {
      uint32_t ticket = announced ? sim__epoch_prepare() : 0;
      bool stopped = atomic_load(&cp->stop);
      met = !stopped && ready(cp, arg);
      if (stopped || met) {
         if (announced)
            sim__epoch_cancel();
         break;
      }
      if (announced)
         sim__epoch_sleep(ticket, IDLE_WAIT_NS);
   }
   for (uint32_t i = 0; i < n; i++)
      sim__signal_unwatch(sig[i]);
   return met;
}

static uint32_t
cp_idle_prepare(sim_cp *cp)
{
   return sim__signal_prepare(((sim_queue *)cp->owner)->doorbell_sig);
}

static void
cp_idle_cancel(sim_cp *cp)
{
   sim__signal_cancel(((sim_queue *)cp->owner)->doorbell_sig);
}

static void
cp_idle_sleep(sim_cp *cp, uint32_t ticket)
{
   sim__signal_sleep(((sim_queue *)cp->owner)->doorbell_sig, ticket, IDLE_WAIT_NS);
}

static bool
cp_profiling(sim_cp *cp)
{
   return atomic_load(&((sim_queue *)cp->owner)->profiling);
}

static void
cp_fail(sim_cp *cp, hsa_status_t status, uint32_t error_bits, const sim_fault *fault,
        const char *what)
{
   (void)error_bits, (void)fault, (void)what;
   sim_queue *sq = cp->owner;
   if (sq->callback)
      sq->callback(status, &sq->q, sq->data);
}

static const sim_cp_ops queue_cp_ops = {
   .signal_valid = cp_signal_valid,
   .signal_load = cp_signal_load,
   .signal_complete = cp_signal_complete,
   .wait_signals = cp_wait_signals,
   .idle_prepare = cp_idle_prepare,
   .idle_cancel = cp_idle_cancel,
   .idle_sleep = cp_idle_sleep,
   .profiling = cp_profiling,
   .fail = cp_fail,
   .invalidate_code = NULL, /* code allocations here are immutable (SIM_ALLOC_CODE) */
};

static void queue_release(sim_queue *sq);

/* A wave wrote a doorbell (sim__doorbell_hook, interpreter thread): wake that queue's CP. */
static void
doorbell_hook(uint64_t va)
{
   pthread_mutex_lock(&queues_lock);
   for (sim_queue *s = queues; s; s = s->next) {
      if (s->doorbell_word && va - (uint64_t)(uintptr_t)s->doorbell_word < 8) {
         sim__signal_notify(s->doorbell_sig);
         break;
      }
   }
   pthread_mutex_unlock(&queues_lock);
}

static void *
queue_main(void *arg)
{
   sim_queue *sq = arg;
   sim__cp_run(&sq->cp);
   if (atomic_load(&sq->self_destroy)) {
      pthread_detach(pthread_self());
      queue_release(sq);
   }
   return NULL;
}

/* ---- creation and destruction ------------------------------------------------------------ */

/* Frees what a (possibly half-built) queue owns. The thread has exited. */
static void
queue_release(sim_queue *sq)
{
   if (sq->doorbell.handle && !sq->soft)
      hsa_signal_destroy(sq->doorbell);
   if (sq->doorbell_word)
      sim__mem_free((void *)sq->doorbell_word, SIM_MEM_INTERNAL);
   if (sq->q.base_address)
      sim__mem_free(sq->q.base_address, SIM_MEM_INTERNAL);
   sq->check = 0;
   free(sq);
}

static hsa_status_t
queue_create(uint32_t size, hsa_queue_type32_t type, uint32_t features, hsa_signal_t doorbell,
             bool soft, sim_queue **out)
{
   hsa_status_t st;
   sim_queue *sq = calloc(1, sizeof(*sq));
   if (!sq)
      return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
   sq->soft = soft;
   void *ring;
   st = sim__mem_alloc(sim__pool_system(SIM_POOL_SYSTEM), (uint64_t)size * 64,
                       SIM_ALLOC_READ | SIM_ALLOC_WRITE, SIM_MEM_INTERNAL, &ring, NULL);
   if (st != HSA_STATUS_SUCCESS)
      goto out_release;
   for (uint32_t i = 0; i < size; i++)
      header_store((uint8_t *)ring + (uint64_t)i * 64,
                   HSA_PACKET_TYPE_INVALID << HSA_PACKET_HEADER_TYPE);
   sq->q.base_address = ring;
   if (soft) {
      sq->doorbell = doorbell;
   } else {
      void *word;
      st = sim__mem_alloc(sim__pool_system(SIM_POOL_SYSTEM), 64,
                          SIM_ALLOC_READ | SIM_ALLOC_WRITE | SIM_ALLOC_DOORBELL,
                          SIM_MEM_INTERNAL, &word, NULL);
      if (st != HSA_STATUS_SUCCESS)
         goto out_release;
      sq->doorbell_word = word;
      st = sim__signal_create_doorbell(sq->doorbell_word, &sq->doorbell);
      if (st == HSA_STATUS_SUCCESS)
         st = sim__signal_arena_register(); /* kernels read the doorbell signal */
      if (st != HSA_STATUS_SUCCESS)
         goto out_release;
   }
   sq->q.type = type;
   sq->q.features = features;
   sq->q.doorbell_signal = sq->doorbell;
   sq->q.size = size;
   sq->q.id = atomic_fetch_add(&next_queue_id, 1);
   sq->priority = HSA_AMD_QUEUE_PRIORITY_NORMAL;
   memset(sq->cu_mask, 0xff, sizeof(sq->cu_mask));
   sq->doorbell_sig = sim__signal_get(sq->doorbell);
   sim__cp_init(&sq->cp, &queue_cp_ops, sq, sq->q.id, ring, size, &sq->read_index,
                &sq->write_index, sq->doorbell_word);
   sq->check = QUEUE_LIVE;
   *out = sq;
   return HSA_STATUS_SUCCESS;

out_release:
   queue_release(sq);
   return st;
}

static void
queue_publish(sim_queue *sq)
{
   pthread_mutex_lock(&queues_lock);
   sq->next = queues;
   queues = sq;
   pthread_mutex_unlock(&queues_lock);
}

SIM_EXPORT hsa_status_t
hsa_queue_create(hsa_agent_t agent, uint32_t size, hsa_queue_type32_t type,
                 void (*callback)(hsa_status_t status, hsa_queue_t *source, void *data),
                 void *data, uint32_t private_segment_size, uint32_t group_segment_size,
                 hsa_queue_t **queue)
{
   SIM_CHECK_INIT();
   const sim_agent *a = sim__agent_get(agent);
   if (!a)
      return HSA_STATUS_ERROR_INVALID_AGENT;
   if (a->kind != SIM_AGENT_GPU)
      return HSA_STATUS_ERROR_INVALID_QUEUE_CREATION;
   if (type != HSA_QUEUE_TYPE_MULTI && type != HSA_QUEUE_TYPE_SINGLE)
      return HSA_STATUS_ERROR_INVALID_QUEUE_CREATION;
   if (!queue || size < QUEUE_MIN || size > QUEUE_MAX || (size & (size - 1)))
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   sim_queue *sq;
   hsa_status_t st = queue_create(size, type, HSA_QUEUE_FEATURE_KERNEL_DISPATCH,
                                  (hsa_signal_t){0}, false, &sq);
   if (st != HSA_STATUS_SUCCESS)
      return st;
   sq->callback = callback;
   sq->data = data;
   sq->gpu = a->gpu;
   sq->cp.agent = a->gpu; /* its GPU's L2 (sim_isa.h) */
   sq->private_segment_size = private_segment_size;
   sq->group_segment_size = group_segment_size;
   if (pthread_create(&sq->thread, NULL, queue_main, sq) != 0) {
      queue_release(sq);
      return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
   }
   sq->thread_started = true;
   __atomic_store_n(&sim__doorbell_hook, doorbell_hook, __ATOMIC_RELEASE);
   queue_publish(sq);
   *queue = &sq->q;
   SIM_LOGD("queue", "queue %llu created on GPU %u: %u packets at %p",
            (unsigned long long)sq->q.id, a->gpu, size, sq->q.base_address);
   return HSA_STATUS_SUCCESS;
}

/* A queue nobody processes (PRM §2.7.2): the application is the packet processor. */
SIM_EXPORT hsa_status_t
hsa_soft_queue_create(hsa_region_t region, uint32_t size, hsa_queue_type32_t type,
                      uint32_t features, hsa_signal_t doorbell_signal, hsa_queue_t **queue)
{
   SIM_CHECK_INIT();
   const sim_pool *p = sim__pool_from_handle(region.handle);
   if (!p || p->owner != SIM_AGENT_CPU)
      return HSA_STATUS_ERROR_INVALID_REGION;
   if (!queue || size == 0 || (size & (size - 1)) || size > QUEUE_MAX || features == 0 ||
       (type != HSA_QUEUE_TYPE_MULTI && type != HSA_QUEUE_TYPE_SINGLE))
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   if (!sim__signal_get(doorbell_signal))
      return HSA_STATUS_ERROR_INVALID_SIGNAL;
   sim_queue *sq;
   hsa_status_t st = queue_create(size, type, features, doorbell_signal, true, &sq);
   if (st != HSA_STATUS_SUCCESS)
      return st;
   queue_publish(sq);
   *queue = &sq->q;
   return HSA_STATUS_SUCCESS;
}

/* Unlinks the queue and stops its thread. Called without queues_lock. */
static void
queue_destroy(sim_queue *sq)
{
   atomic_store(&sq->cp.stop, true);
   if (sq->thread_started && pthread_equal(pthread_self(), sq->thread)) {
      /* Destroyed from its own error callback: the thread frees it on the way out. */
      atomic_store(&sq->self_destroy, true);
      return;
   }
   if (sq->thread_started) {
      sim__signal_store(sim__signal_get(sq->doorbell), -1); /* stop is set: wakes it */
      sim__epoch_bump();                                     /* from a barrier wait */
      pthread_join(sq->thread, NULL);
   }
   queue_release(sq);
}

SIM_EXPORT hsa_status_t
hsa_queue_destroy(hsa_queue_t *queue)
{
   SIM_CHECK_INIT();
   if (!queue)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   pthread_mutex_lock(&queues_lock);
   sim_queue *sq = NULL;
   for (sim_queue **p = &queues; *p; p = &(*p)->next) {
      if (&(*p)->q == queue) {
         sq = *p;
         *p = sq->next;
         break;
      }
   }
   pthread_mutex_unlock(&queues_lock);
   if (!sq)
      return HSA_STATUS_ERROR_INVALID_QUEUE;
   queue_destroy(sq);
   return HSA_STATUS_SUCCESS;
}

SIM_EXPORT hsa_status_t
hsa_queue_inactivate(hsa_queue_t *queue)
{
   SIM_CHECK_INIT();
   if (!queue)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   sim_queue *sq = queue_lookup(queue);
   if (!sq)
      return HSA_STATUS_ERROR_INVALID_QUEUE;
   atomic_store(&sq->cp.error, true);
   return HSA_STATUS_SUCCESS;
}

void
sim__queue_finish(void)
{
   pthread_mutex_lock(&queues_lock);
   sim_queue *list = queues;
   queues = NULL;
   pthread_mutex_unlock(&queues_lock);
   while (list) {
      sim_queue *next = list->next;
      queue_destroy(list);
      list = next;
   }
}

/* ---- AMD queue controls and dispatch profiling -------------------------------------------- */

SIM_EXPORT hsa_status_t
hsa_amd_queue_cu_set_mask(const hsa_queue_t *queue, uint32_t num_cu_mask_count,
                          const uint32_t *cu_mask)
{
   SIM_CHECK_INIT();
   sim_queue *sq = queue ? queue_lookup(queue) : NULL;
   if (!sq)
      return HSA_STATUS_ERROR_INVALID_QUEUE;
   if (num_cu_mask_count == 0 || (num_cu_mask_count % 32) != 0 || !cu_mask)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   uint32_t words = num_cu_mask_count / 32;
   bool reduced = false;
   for (uint32_t i = 0; i < sizeof(sq->cu_mask) / 4; i++)
      sq->cu_mask[i] = i < words ? cu_mask[i] : 0;
   sq->cu_mask[1] &= (1u << (60 - 32)) - 1;
   for (uint32_t i = 2; i < words; i++)
      reduced |= cu_mask[i] != 0;
   if (words >= 2 && (cu_mask[1] >> (60 - 32)))
      reduced = true;
   return reduced ? (hsa_status_t)HSA_STATUS_CU_MASK_REDUCED : HSA_STATUS_SUCCESS;
}

SIM_EXPORT hsa_status_t
hsa_amd_queue_cu_get_mask(const hsa_queue_t *queue, uint32_t num_cu_mask_count,
                          uint32_t *cu_mask)
{
   SIM_CHECK_INIT();
   sim_queue *sq = queue ? queue_lookup(queue) : NULL;
   if (!sq)
      return HSA_STATUS_ERROR_INVALID_QUEUE;
   if (num_cu_mask_count == 0 || (num_cu_mask_count % 32) != 0 || !cu_mask)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   for (uint32_t i = 0; i < num_cu_mask_count / 32; i++)
      cu_mask[i] = i < sizeof(sq->cu_mask) / 4 ? sq->cu_mask[i] : 0;
   return HSA_STATUS_SUCCESS;
}

SIM_EXPORT hsa_status_t
hsa_amd_queue_set_priority(hsa_queue_t *queue, hsa_amd_queue_priority_t priority)
{
   SIM_CHECK_INIT();
   sim_queue *sq = queue ? queue_lookup(queue) : NULL;
   if (!sq || sq->soft)
      return HSA_STATUS_ERROR_INVALID_QUEUE;
   if (priority < HSA_AMD_QUEUE_PRIORITY_LOW || priority > HSA_AMD_QUEUE_PRIORITY_HIGH)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   sq->priority = priority;
   return HSA_STATUS_SUCCESS;
}

SIM_EXPORT hsa_status_t
hsa_amd_profiling_set_profiler_enabled(hsa_queue_t *queue, int enable)
{
   SIM_CHECK_INIT();
   sim_queue *sq = queue ? queue_lookup(queue) : NULL;
   if (!sq)
      return HSA_STATUS_ERROR_INVALID_QUEUE;
   atomic_store(&sq->profiling, enable != 0);
   return HSA_STATUS_SUCCESS;
}

/* Start/end of the packet's processing, system timestamp domain (ns). */
SIM_EXPORT hsa_status_t
hsa_amd_profiling_get_dispatch_time(hsa_agent_t agent, hsa_signal_t signal,
                                    hsa_amd_profiling_dispatch_time_t *time)
{
   SIM_CHECK_INIT();
   enum sim_agent_kind kind;
   if (!sim__agent_from_handle(agent, &kind) || kind != SIM_AGENT_GPU)
      return HSA_STATUS_ERROR_INVALID_AGENT;
   sim_signal *s = sim__signal_get(signal);
   if (!s)
      return HSA_STATUS_ERROR_INVALID_SIGNAL;
   if (!time)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   sim__signal_get_times(s, &time->start, &time->end);
   return HSA_STATUS_SUCCESS;
}

/* The GPU's ticks are system timestamps already. */
SIM_EXPORT hsa_status_t
hsa_amd_profiling_convert_tick_to_system_domain(hsa_agent_t agent, uint64_t agent_tick,
                                                uint64_t *system_tick)
{
   SIM_CHECK_INIT();
   enum sim_agent_kind kind;
   if (!sim__agent_from_handle(agent, &kind))
      return HSA_STATUS_ERROR_INVALID_AGENT;
   if (!system_tick)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   *system_tick = agent_tick;
   return HSA_STATUS_SUCCESS;
}

/* ---- read/write index API (PRM §2.7.1): every memory-order variant the header declares ---- */

#define QMO_relaxed memory_order_relaxed
#define QMO_scacquire memory_order_acquire
#define QMO_acquire memory_order_acquire
#define QMO_screlease memory_order_release
#define QMO_release memory_order_release
#define QMO_scacq_screl memory_order_acq_rel
#define QMO_acq_rel memory_order_acq_rel

#define SIM_QUEUE_LOAD(which, order)                                                          \
   SIM_EXPORT uint64_t hsa_queue_load_##which##_index_##order(const hsa_queue_t *queue)       \
   {                                                                                          \
      return queue ? atomic_load_explicit(&queue_of(queue)->which##_index, QMO_##order) : 0;  \
   }

#define SIM_QUEUE_STORE(which, order)                                                         \
   SIM_EXPORT void hsa_queue_store_##which##_index_##order(const hsa_queue_t *queue,          \
                                                           uint64_t value)                    \
   {                                                                                          \
      if (queue)                                                                              \
         atomic_store_explicit(&queue_of(queue)->which##_index, value, QMO_##order);          \
   }

#define SIM_QUEUE_CAS(order)                                                                  \
   SIM_EXPORT uint64_t hsa_queue_cas_write_index_##order(const hsa_queue_t *queue,            \
                                                         uint64_t expected, uint64_t value)   \
   {                                                                                          \
      if (!queue)                                                                             \
         return 0;                                                                            \
      uint64_t seen = expected;                                                               \
      atomic_compare_exchange_strong_explicit(&queue_of(queue)->write_index, &seen, value,    \
                                              QMO_##order, memory_order_relaxed);             \
      return seen;                                                                            \
   }

#define SIM_QUEUE_ADD(order)                                                                  \
   SIM_EXPORT uint64_t hsa_queue_add_write_index_##order(const hsa_queue_t *queue,            \
                                                         uint64_t value)                      \
   {                                                                                          \
      return queue ? atomic_fetch_add_explicit(&queue_of(queue)->write_index, value,          \
                                               QMO_##order)                                   \
                   : 0;                                                                       \
   }

#define SIM_QUEUE_RMW_ORDERS(X)                                                               \
   X(relaxed) X(scacquire) X(screlease) X(scacq_screl) X(acquire) X(release) X(acq_rel)

SIM_QUEUE_LOAD(read, relaxed)
SIM_QUEUE_LOAD(read, scacquire)
SIM_QUEUE_LOAD(read, acquire)
SIM_QUEUE_LOAD(write, relaxed)
SIM_QUEUE_LOAD(write, scacquire)
SIM_QUEUE_LOAD(write, acquire)
SIM_QUEUE_STORE(write, relaxed)
SIM_QUEUE_STORE(write, screlease)
SIM_QUEUE_STORE(write, release)
SIM_QUEUE_STORE(read, relaxed)
SIM_QUEUE_STORE(read, screlease)
SIM_QUEUE_STORE(read, release)
SIM_QUEUE_RMW_ORDERS(SIM_QUEUE_CAS)
SIM_QUEUE_RMW_ORDERS(SIM_QUEUE_ADD)
