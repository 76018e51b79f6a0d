/*
 * sim/kfd/kfd_event.c — KFD events: creation, set/reset, waits with timeouts, the event
 * page and the interrupt handler, the memory (VM fault) event.
 *
 * The event page is the process's signal page (amdkfd kfd_events.c): 4096 64-bit mailbox
 * slots, mapped for every GPU as fine-grained memory (kfd_memory_events_create). A slot
 * holds UNSIGNALED (all ones) until the GPU writes it. ROCr's interrupt signals
 * (interrupt_signal.cpp) take an auto-reset SIGNAL event each and put its EventId and HWData2
 * (the address of its slot) into the amd_signal_t's event_id / event_mailbox_ptr. Whoever
 * completes such a signal on the GPU writes the event id into the slot and raises an
 * interrupt: the CP at the end of a packet (its end-of-pipe interrupt, the whole id as
 * payload) and a kernel through ockl's signal operations (s_sendmsg MSG_INTERRUPT with the
 * id's low 8 bits in M0, sim__interrupt_hook). The interrupt handler, as amdkfd's
 * kfd_signal_event_interrupt, sets the event the payload names if its slot was written, and
 * otherwise every signal event whose slot was written; it resets each slot it takes.
 *
 * Host waits spin ~200 us, then call hsaKmtWaitOnEvent(ms) in a loop re-checking the value;
 * the async-handler thread sleeps in hsaKmtWaitOnMultipleEvents (signal.cpp). So waits sleep
 * on a condition variable, never spin, and last until an event fires or the caller's
 * timeout passes (ROCr waits with 0xFFFFFFFE ms): a lost wake-up is a hang, as on hardware.
 *
 * Setting an event activates every thread then waiting for it; an auto-reset event set
 * while nobody waits stays signalled until a wait consumes it (the KFD's semantics).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kfd_priv.h"

#define KFD_EVENTS 4096u /* ids 1..4095; one 64-bit mailbox each: 32 KiB (amdkfd's limit) */
#define SLOT_UNSIGNALED UINT64_MAX /* amdkfd's UNSIGNALED_EVENT_SLOT */

typedef struct kfd_event {
   HsaEvent ev; /* first: ROCr holds HsaEvent* */
   bool manual_reset;
   bool signaled;
   uint64_t set_age; /* age_clock at its last set; 0: never set */
   uint32_t id;
} kfd_event;

/* A thread inside hsaKmtWaitOnMultipleEvents: which of its events fired while it waited. */
typedef struct kfd_waiter {
   HsaEvent **events;
   uint32_t count;
   bool *activated;
   struct kfd_waiter *next;
} kfd_waiter;

static pthread_mutex_t event_lock = PTHREAD_MUTEX_INITIALIZER;
static kfd_waiter *waiters; /* event_lock */
/* Destroyed events are kept for reuse, never freed before close: a (wrong) waiter still
 * holding one reads valid memory. Linked through ev.EventData.HWData1. */
static kfd_event *free_events;
static pthread_cond_t event_cond;
static pthread_once_t cond_once = PTHREAD_ONCE_INIT;
static kfd_event *events[KFD_EVENTS];
static uint32_t next_id = 1;

/*
 * Event ages. ROCr 5.2.3 shares one auto-reset event (AqlQueue::queue_event_) among the
 * queue_inactive_signal and the exception signal of every queue, so every thread waiting
 * for one of them sleeps on that one event: its async-event thread and each thread in
 * hsa_queue_destroy (~AqlQueue waits for its handler's -1). amdkfd's rule (set_locked) lets
 * a set reach only some of them: a thread between its check of its signal and its next
 * wait misses a set that activates another thread already asleep, or that another thread
 * entering its wait first consumes. Seen with no cap on waits: api_event.rocr (four threads
 * releasing queues at once) and api_devenq.rocr (a tree's queue destroyed), every thread
 * asleep on the event and the async thread never told of the signals they stored. The same
 * race is in ROCr 5.2.3 over amdkfd of its time; later amdkfd closes it with event ages (a
 * wait returns at once if the event was set since the age the caller passes,
 * kfd_wait_on_events' last_event_age), which ROCr 5.2.3 predates. So the KFD keeps each
 * thread's ages itself: a set advances the event's age (set_age, from age_clock), a wait
 * returns at once if the event was set after the calling thread's last wait on it returned
 * (on its first wait: if it was ever set), and every return records the ages the thread saw.
 * A wait may then return without a new set, which ROCr allows (it re-checks its signal after
 * every return); a set that never happens still never ends a wait: a lost wake-up of the KFD
 * or of a driver hangs.
 */
typedef struct kfd_ages {
   uint64_t seen[KFD_EVENTS]; /* each event's set_age when this thread's last wait returned */
   struct kfd_ages *next_free;
} kfd_ages;

static uint64_t age_clock;     /* event_lock */
static kfd_ages *free_ages;    /* event_lock: tables of exited threads */
static pthread_key_t ages_key; /* the calling thread's kfd_ages */
static bool ages_key_made;
static uint64_t *mailboxes; /* the event page: KFD_EVENTS slots, between open and close */

/* A thread with a table exits: the table serves the next thread that waits. */
static void
ages_release(void *p)
{
   kfd_ages *a = p;
   pthread_mutex_lock(&event_lock);
   a->next_free = free_ages;
   free_ages = a;
   pthread_mutex_unlock(&event_lock);
}

/* The library is unloaded: no thread exit may call ages_release any more. */
__attribute__((destructor)) static void
ages_unload(void)
{
   if (ages_key_made)
      pthread_key_delete(ages_key);
}

/* The calling thread's ages, or NULL when out of memory (then only amdkfd's rule). */
static kfd_ages *
ages_get_locked(void)
{
   if (!ages_key_made)
      return NULL;
   kfd_ages *a = pthread_getspecific(ages_key);
   if (a)
      return a;
   a = free_ages;
   if (a) {
      free_ages = a->next_free;
      memset(a, 0, sizeof(*a));
   } else {
      a = calloc(1, sizeof(*a));
   }
   if (a && pthread_setspecific(ages_key, a) != 0) {
      a->next_free = free_ages;
      free_ages = a;
      a = NULL;
   }
   return a;
}

static void
cond_init(void)
{
   ages_key_made = pthread_key_create(&ages_key, ages_release) == 0;
   pthread_condattr_t attr;
   pthread_condattr_init(&attr);
   pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
   pthread_cond_init(&event_cond, &attr);
   pthread_condattr_destroy(&attr);
}

static void interrupt_hook(unsigned agent, uint32_t payload);

bool
kfd_event_open(void)
{
   pthread_once(&cond_once, cond_init);
   uint64_t *page = kfd_memory_events_create(KFD_EVENTS * sizeof(uint64_t));
   if (!page)
      return false;
   memset(page, 0xff, KFD_EVENTS * sizeof(uint64_t)); /* every slot SLOT_UNSIGNALED */
   pthread_mutex_lock(&event_lock);
   mailboxes = page;
   pthread_mutex_unlock(&event_lock);
   __atomic_store_n(&sim__interrupt_hook, interrupt_hook, __ATOMIC_RELEASE);
   return true;
}

/* After the queues: no CP or wave writes the page any more. */
void
kfd_event_close(void)
{
   pthread_mutex_lock(&event_lock);
   for (uint32_t i = 0; i < KFD_EVENTS; i++) {
      free(events[i]);
      events[i] = NULL;
   }
   while (free_events) {
      kfd_event *k = free_events;
      free_events = (kfd_event *)(uintptr_t)k->ev.EventData.HWData1;
      free(k);
   }
   uint64_t *page = mailboxes;
   mailboxes = NULL;
   next_id = 1;
   pthread_mutex_unlock(&event_lock);
   kfd_memory_events_destroy(page, KFD_EVENTS * sizeof(uint64_t));
}

/* The event `e` names, or NULL. Lock held. */
static kfd_event *
lookup_locked(const HsaEvent *e)
{
   if (!e || e->EventId == 0 || e->EventId >= KFD_EVENTS)
      return NULL;
   kfd_event *k = events[e->EventId];
   return k == (const kfd_event *)e ? k : NULL;
}

static uint32_t
alloc_id_locked(void)
{
   for (uint32_t n = 0; n < KFD_EVENTS - 1; n++) {
      uint32_t id = next_id;
      next_id = next_id + 1 >= KFD_EVENTS ? 1 : next_id + 1;
      if (!events[id])
         return id;
   }
   return 0;
}

KFD_EXPORT HSAKMT_STATUS HSAKMTAPI
hsaKmtCreateEvent(HsaEventDescriptor *EventDesc, bool ManualReset, bool IsSignaled,
                  HsaEvent **Event)
{
   if (!kfd_is_open())
      return HSAKMT_STATUS_KERNEL_IO_CHANNEL_NOT_OPENED;
   if (!EventDesc || !Event || EventDesc->EventType >= HSA_EVENTTYPE_MAXID)
      return HSAKMT_STATUS_INVALID_PARAMETER;
   HSAKMT_STATUS st = HSAKMT_STATUS_SUCCESS;
   pthread_mutex_lock(&event_lock);
   kfd_event *k = free_events;
   if (k) {
      free_events = (kfd_event *)(uintptr_t)k->ev.EventData.HWData1;
      memset(k, 0, sizeof(*k));
   } else {
      k = calloc(1, sizeof(*k));
      if (!k) {
         st = HSAKMT_STATUS_NO_MEMORY;
         goto out_unlock;
      }
   }
   uint32_t id = alloc_id_locked();
   if (!id) {
      st = HSAKMT_STATUS_OUT_OF_RESOURCES;
      goto out_unlock;
   }
   k->id = id;
   k->manual_reset = ManualReset;
   k->signaled = IsSignaled;
   k->ev.EventId = id;
   k->ev.EventData.EventType = EventDesc->EventType;
   k->ev.EventData.HWData1 = id;
   k->ev.EventData.HWData2 = (HSAuint64)(uintptr_t)&mailboxes[id];
   __atomic_store_n(&mailboxes[id], SLOT_UNSIGNALED, __ATOMIC_RELAXED);
   k->ev.EventData.HWData3 = id;
   if (EventDesc->EventType == HSA_EVENTTYPE_SIGNAL)
      k->ev.EventData.EventData.SyncVar = EventDesc->SyncVar;
   if (EventDesc->EventType == HSA_EVENTTYPE_MEMORY)
      k->ev.EventData.EventData.MemoryAccessFault.NodeId = EventDesc->NodeId;
   events[id] = k;
   *Event = &k->ev;
   k = NULL;
out_unlock:
   if (k) { /* not handed out: back to the free list */
      k->ev.EventId = 0;
      k->ev.EventData.HWData1 = (HSAuint64)(uintptr_t)free_events;
      free_events = k;
   }
   pthread_mutex_unlock(&event_lock);
   return st;
}

KFD_EXPORT HSAKMT_STATUS HSAKMTAPI
hsaKmtDestroyEvent(HsaEvent *Event)
{
   pthread_mutex_lock(&event_lock);
   kfd_event *k = lookup_locked(Event);
   if (k) {
      events[k->id] = NULL;
      __atomic_store_n(&mailboxes[k->id], SLOT_UNSIGNALED, __ATOMIC_RELAXED);
      k->ev.EventId = 0;
      k->ev.EventData.HWData1 = (HSAuint64)(uintptr_t)free_events;
      free_events = k;
      /* A waiter still inside WaitOnMultipleEvents re-validates on wake-up. */
      pthread_cond_broadcast(&event_cond);
   }
   pthread_mutex_unlock(&event_lock);
   return k ? HSAKMT_STATUS_SUCCESS : HSAKMT_STATUS_INVALID_HANDLE;
}

/*
 * As the KFD's set_event (amdkfd kfd_events.c): every thread waiting for the event is
 * activated, and an auto-reset event stays signalled only if nobody was waiting for it (the
 * next wait consumes it). A single "signalled" flag consumed by the first waiter to run
 * would lose the wake-up of the others: ROCr has a host thread and its async-event thread
 * wait for the same interrupt signal's event.
 */
static void
set_locked(kfd_event *k)
{
   bool woke = false;
   for (kfd_waiter *w = waiters; w; w = w->next) {
      for (uint32_t i = 0; i < w->count; i++) {
         if (lookup_locked(w->events[i]) == k) {
            w->activated[i] = true;
            woke = true;
         }
      }
   }
   k->signaled = k->manual_reset || !woke;
   k->set_age = ++age_clock;
   pthread_cond_broadcast(&event_cond);
}

KFD_EXPORT HSAKMT_STATUS HSAKMTAPI
hsaKmtSetEvent(HsaEvent *Event)
{
   pthread_mutex_lock(&event_lock);
   kfd_event *k = lookup_locked(Event);
   if (k)
      set_locked(k);
   pthread_mutex_unlock(&event_lock);
   /* The host is busy with the GPU (ROCr wakes its async-event thread when it arms a
    * handler for a packet it just rang): let polling command processors look now. */
   kfd_queue_host_waits();
   return k ? HSAKMT_STATUS_SUCCESS : HSAKMT_STATUS_INVALID_HANDLE;
}

/* ---- the interrupt handler ---------------------------------------------------------------- */

static bool
slot_written_locked(uint32_t id)
{
   return __atomic_load_n(&mailboxes[id], __ATOMIC_ACQUIRE) != SLOT_UNSIGNALED;
}

/* amdkfd's set_event_from_interrupt: only signal events are signalled by the GPU; the slot
 * is acknowledged (reset) before the event is set. */
static void
set_from_interrupt_locked(kfd_event *k)
{
   if (k->ev.EventData.EventType != HSA_EVENTTYPE_SIGNAL)
      return;
   __atomic_store_n(&mailboxes[k->id], SLOT_UNSIGNALED, __ATOMIC_RELAXED);
   set_locked(k);
}

/* amdkfd's lookup_signaled_event_by_partial_id: the event whose id has `id` as its low
 * `bits` bits and whose slot was written. */
static kfd_event *
partial_lookup_locked(uint32_t id, unsigned bits)
{
   uint32_t step = bits < 12 ? 1u << bits : KFD_EVENTS; /* 1 << 12 == KFD_EVENTS */
   for (; id < KFD_EVENTS; id += step) {
      if (events[id] && slot_written_locked(id))
         return events[id];
   }
   return NULL;
}

void
kfd_event_interrupt(uint32_t payload, unsigned valid_bits)
{
   uint32_t id = valid_bits < 32 ? payload & ((1u << valid_bits) - 1) : payload;
   pthread_mutex_lock(&event_lock);
   if (!mailboxes)
      goto out_unlock;
   kfd_event *k = valid_bits ? partial_lookup_locked(id, valid_bits) : NULL;
   if (k) {
      set_from_interrupt_locked(k);
      goto out_unlock;
   }
   /* The payload names no written slot (ockl sends only the id's low 8 bits): every event
    * whose slot was written, as amdkfd's exhaustive search. */
   for (uint32_t i = 1; i < KFD_EVENTS; i++) {
      if (events[i] && slot_written_locked(i))
         set_from_interrupt_locked(events[i]);
   }
out_unlock:
   pthread_mutex_unlock(&event_lock);
}

/* s_sendmsg MSG_INTERRUPT (sim__interrupt_hook, an interpreter thread): amdkfd's SQ
 * interrupt (SOC15_INTSRC_SQ_INTERRUPT_MSG) takes M0[23:0] as a 24-bit event id. The
 * process has one address space over every GPU, so the agent does not matter. */
static void
interrupt_hook(unsigned agent, uint32_t payload)
{
   (void)agent;
   kfd_event_interrupt(payload, 24);
}

void
kfd_event_memory_fault(uint32_t node, uint64_t address)
{
   pthread_mutex_lock(&event_lock);
   for (uint32_t i = 1; i < KFD_EVENTS; i++) {
      kfd_event *k = events[i];
      if (!k || k->ev.EventData.EventType != HSA_EVENTTYPE_MEMORY)
         continue;
      HsaMemoryAccessFault *f = &k->ev.EventData.EventData.MemoryAccessFault;
      memset(f, 0, sizeof(*f));
      f->NodeId = node;
      f->VirtualAddress = address;
      f->Failure.NotPresent = 1;
      f->Flags = HSA_EVENTID_MEMORY_FATAL_PROCESS;
      set_locked(k);
   }
   pthread_mutex_unlock(&event_lock);
}

KFD_EXPORT HSAKMT_STATUS HSAKMTAPI
hsaKmtResetEvent(HsaEvent *Event)
{
   pthread_mutex_lock(&event_lock);
   kfd_event *k = lookup_locked(Event);
   if (k)
      k->signaled = false;
   pthread_mutex_unlock(&event_lock);
   return k ? HSAKMT_STATUS_SUCCESS : HSAKMT_STATUS_INVALID_HANDLE;
}

KFD_EXPORT HSAKMT_STATUS HSAKMTAPI
hsaKmtQueryEventState(HsaEvent *Event)
{
   pthread_mutex_lock(&event_lock);
   kfd_event *k = lookup_locked(Event);
   bool signaled = k && k->signaled;
   pthread_mutex_unlock(&event_lock);
   if (!k)
      return HSAKMT_STATUS_INVALID_HANDLE;
   return signaled ? HSAKMT_STATUS_SUCCESS : HSAKMT_STATUS_WAIT_TIMEOUT;
}

KFD_EXPORT HSAKMT_STATUS HSAKMTAPI
hsaKmtWaitOnMultipleEvents(HsaEvent *Events[], HSAuint32 NumEvents, bool WaitOnAll,
                           HSAuint32 Milliseconds)
{
   if (!kfd_is_open())
      return HSAKMT_STATUS_KERNEL_IO_CHANNEL_NOT_OPENED;
   if (!Events || NumEvents == 0)
      return HSAKMT_STATUS_INVALID_PARAMETER;
   bool *activated = calloc(NumEvents, sizeof(bool));
   if (!activated)
      return HSAKMT_STATUS_NO_MEMORY;
   kfd_waiter self = {Events, NumEvents, activated, NULL};
   /* The host is about to sleep on the GPU: let polling command processors look now. */
   kfd_queue_host_waits();
   struct timespec deadline;
   clock_gettime(CLOCK_MONOTONIC, &deadline);
   deadline.tv_sec += Milliseconds / 1000;
   deadline.tv_nsec += (long)(Milliseconds % 1000) * 1000000L;
   if (deadline.tv_nsec >= 1000000000L) {
      deadline.tv_sec++;
      deadline.tv_nsec -= 1000000000L;
   }
   HSAKMT_STATUS st;
   bool listed = false;
   pthread_mutex_lock(&event_lock);
   kfd_ages *ages = ages_get_locked();
   /* Events signalled before the wait: consumed now (auto-reset); events set since this
    * thread last returned from a wait on them (event ages, above). */
   for (HSAuint32 i = 0; i < NumEvents; i++) {
      kfd_event *k = lookup_locked(Events[i]);
      if (!k) {
         st = HSAKMT_STATUS_INVALID_HANDLE;
         goto out_unlock;
      }
      if (k->signaled) {
         activated[i] = true;
         if (!k->manual_reset)
            k->signaled = false;
      } else if (ages && k->set_age > ages->seen[k->id]) {
         activated[i] = true;
      }
   }
   for (;;) {
      uint32_t fired = 0;
      for (HSAuint32 i = 0; i < NumEvents; i++)
         fired += activated[i];
      if (WaitOnAll ? fired == NumEvents : fired > 0) {
         st = HSAKMT_STATUS_SUCCESS;
         break;
      }
      if (Milliseconds == 0) {
         st = HSAKMT_STATUS_WAIT_TIMEOUT;
         break;
      }
      if (!listed) {
         self.next = waiters;
         waiters = &self;
         listed = true;
      }
      int rc = Milliseconds == HSA_EVENTTIMEOUT_INFINITE
                  ? pthread_cond_wait(&event_cond, &event_lock)
                  : pthread_cond_timedwait(&event_cond, &event_lock, &deadline);
      if (rc == ETIMEDOUT) {
         st = HSAKMT_STATUS_WAIT_TIMEOUT;
         break;
      }
      /* An event destroyed under the waiter ends the wait. */
      for (HSAuint32 i = 0; i < NumEvents; i++) {
         if (!lookup_locked(Events[i])) {
            st = HSAKMT_STATUS_INVALID_HANDLE;
            goto out_unlock;
         }
      }
   }
out_unlock:
   for (HSAuint32 i = 0; ages && i < NumEvents; i++) {
      kfd_event *k = lookup_locked(Events[i]);
      if (k)
         ages->seen[k->id] = k->set_age;
   }
   if (listed) {
      for (kfd_waiter **w = &waiters; *w; w = &(*w)->next) {
         if (*w == &self) {
            *w = self.next;
            break;
         }
      }
   }
   pthread_mutex_unlock(&event_lock);
   free(activated);
   return st;
}

KFD_EXPORT HSAKMT_STATUS HSAKMTAPI
hsaKmtWaitOnEvent(HsaEvent *Event, HSAuint32 Milliseconds)
{
   return hsaKmtWaitOnMultipleEvents(&Event, 1, true, Milliseconds);
}
