/*
 * sim/kfd/kfd_event.c — KFD events: creation, set/reset, waits with timeouts, the event
 * mailbox page, the memory (VM fault) event.
 *
 * ROCr's interrupt signals (interrupt_signal.cpp) take an auto-reset SIGNAL event each and
 * put its EventId and HWData2 (the address of its 64-bit slot in the mailbox page) into the
 * amd_signal_t's event_id / event_mailbox_ptr; the command processor, on decrementing such
 * a signal, stores the id into the mailbox and sets the event (kfd_event_set_id), as the
 * hardware's end-of-pipe interrupt does. Host waits spin ~200 us, then call
 * hsaKmtWaitOnEvent(ms) in a loop re-checking the value; the async-handler thread sleeps in
 * hsaKmtWaitOnMultipleEvents (signal.cpp). So waits sleep on a condition variable, never
 * spin, and honour the millisecond timeout.
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

#define KFD_EVENTS 4096u /* ids 1..4095; one 64-bit mailbox each: 32 KiB */

/*
 * Longest single sleep of a wait (ms). ROCr shares one auto-reset event among the
 * queue_inactive_signals of all its queues (AqlQueue::queue_event_) and sets it only while
 * a thread waits on the signal (InterruptSignal::SetEvent): a set that finds nobody waiting
 * stays pending, and its async-event thread, re-entering its wait for another signal on
 * the same event, consumes it; the thread that was about to wait for the first signal
 * then sleeps through its change (seen: hsa_queue_destroy in ~AqlQueue, waiting for its
 * error handler's -1, under piglit's cl-api-create-command-queue). The KFD has the same
 * race. Every caller in ROCr re-checks its signal after each return, so a wait here
 * returns WAIT_TIMEOUT after at most this long: a lost wake-up costs 10 ms, not a hang.
 */
#define KFD_WAIT_SLICE_MS 10u

typedef struct kfd_event {
   HsaEvent ev; /* first: ROCr holds HsaEvent* */
   bool manual_reset;
   bool signaled;
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
static uint64_t *mailboxes; /* the event page: KFD_EVENTS slots */

static void
cond_init(void)
{
   pthread_condattr_t attr;
   pthread_condattr_init(&attr);
   pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
   pthread_cond_init(&event_cond, &attr);
   pthread_condattr_destroy(&attr);
}

void
kfd_event_open(void)
{
   pthread_once(&cond_once, cond_init);
}

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
   free(mailboxes);
   mailboxes = NULL;
   next_id = 1;
   pthread_mutex_unlock(&event_lock);
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
   if (!mailboxes) {
      mailboxes = aligned_alloc(KFD_PAGE, KFD_EVENTS * sizeof(uint64_t));
      if (!mailboxes) {
         st = HSAKMT_STATUS_NO_MEMORY;
         goto out_unlock;
      }
      memset(mailboxes, 0, KFD_EVENTS * sizeof(uint64_t));
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
      if (mailboxes)
         mailboxes[k->id] = 0;
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
   return k ? HSAKMT_STATUS_SUCCESS : HSAKMT_STATUS_INVALID_HANDLE;
}

void
kfd_event_set_id(uint32_t id)
{
   if (id == 0 || id >= KFD_EVENTS)
      return;
   pthread_mutex_lock(&event_lock);
   if (events[id])
      set_locked(events[id]);
   pthread_mutex_unlock(&event_lock);
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
   /* The host is about to sleep on the GPU: let idle command processors look now. */
   kfd_queue_kick();
   HSAuint32 ms = Milliseconds < KFD_WAIT_SLICE_MS ? Milliseconds : KFD_WAIT_SLICE_MS;
   struct timespec deadline;
   clock_gettime(CLOCK_MONOTONIC, &deadline);
   deadline.tv_sec += ms / 1000;
   deadline.tv_nsec += (long)(ms % 1000) * 1000000L;
   if (deadline.tv_nsec >= 1000000000L) {
      deadline.tv_sec++;
      deadline.tv_nsec -= 1000000000L;
   }
   HSAKMT_STATUS st;
   bool listed = false;
   pthread_mutex_lock(&event_lock);
   /* Events signalled before the wait: consumed now (auto-reset). */
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
      int rc = pthread_cond_timedwait(&event_cond, &event_lock, &deadline);
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
