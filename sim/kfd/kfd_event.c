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
 * Auto-reset events are reset by the wait they satisfy (KFD semantics: a wait-any consumes
 * every signalled auto-reset event of its set).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kfd_priv.h"

#define KFD_EVENTS 4096u /* ids 1..4095; one 64-bit mailbox each: 32 KiB */

typedef struct kfd_event {
   HsaEvent ev; /* first: ROCr holds HsaEvent* */
   bool manual_reset;
   bool signaled;
   uint32_t id;
} kfd_event;

static pthread_mutex_t event_lock = PTHREAD_MUTEX_INITIALIZER;
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
   kfd_event *k = calloc(1, sizeof(*k));
   if (!k)
      return HSAKMT_STATUS_NO_MEMORY;
   HSAKMT_STATUS st = HSAKMT_STATUS_SUCCESS;
   pthread_mutex_lock(&event_lock);
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
   pthread_mutex_unlock(&event_lock);
   free(k);
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
   }
   pthread_mutex_unlock(&event_lock);
   if (!k)
      return HSAKMT_STATUS_INVALID_HANDLE;
   /* A waiter still inside WaitOnMultipleEvents re-validates on wake-up. */
   pthread_cond_broadcast(&event_cond);
   free(k);
   return HSAKMT_STATUS_SUCCESS;
}

static void
set_locked(kfd_event *k)
{
   k->signaled = true;
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
   /* The host is about to sleep on the GPU: let idle command processors look now. */
   kfd_queue_kick();
   struct timespec deadline;
   clock_gettime(CLOCK_MONOTONIC, &deadline);
   deadline.tv_sec += Milliseconds / 1000;
   deadline.tv_nsec += (long)(Milliseconds % 1000) * 1000000L;
   if (deadline.tv_nsec >= 1000000000L) {
      deadline.tv_sec++;
      deadline.tv_nsec -= 1000000000L;
   }
   HSAKMT_STATUS st;
   pthread_mutex_lock(&event_lock);
   for (;;) {
      uint32_t signaled = 0;
      for (HSAuint32 i = 0; i < NumEvents; i++) {
         kfd_event *k = lookup_locked(Events[i]);
         if (!k) {
            st = HSAKMT_STATUS_INVALID_HANDLE;
            goto out_unlock;
         }
         signaled += k->signaled;
      }
      if (WaitOnAll ? signaled == NumEvents : signaled > 0) {
         for (HSAuint32 i = 0; i < NumEvents; i++) {
            kfd_event *k = lookup_locked(Events[i]);
            if (k->signaled && !k->manual_reset)
               k->signaled = false;
         }
         st = HSAKMT_STATUS_SUCCESS;
         break;
      }
      if (Milliseconds == 0) {
         st = HSAKMT_STATUS_WAIT_TIMEOUT;
         break;
      }
      int rc = Milliseconds == HSA_EVENTTIMEOUT_INFINITE
                  ? pthread_cond_wait(&event_cond, &event_lock)
                  : pthread_cond_timedwait(&event_cond, &event_lock, &deadline);
      if (rc == ETIMEDOUT) {
         st = HSAKMT_STATUS_WAIT_TIMEOUT;
         break;
      }
   }
out_unlock:
   pthread_mutex_unlock(&event_lock);
   return st;
}

KFD_EXPORT HSAKMT_STATUS HSAKMTAPI
hsaKmtWaitOnEvent(HsaEvent *Event, HSAuint32 Milliseconds)
{
   return hsaKmtWaitOnMultipleEvents(&Event, 1, true, Milliseconds);
}
