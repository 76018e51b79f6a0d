/*
 * sim/kfd/kfd_doorbell.c — trapping ROCr's doorbell stores, so a command processor that has
 * gone cold wakes when the host rings, as the doorbell BAR write reaches the CP on hardware.
 *
 * ROCr rings with a plain 64-bit store into the page Queue_DoorBell points to: no system
 * call the KFD could see. Each doorbell page is registered with one process-wide
 * userfaultfd in write-protect mode (Linux 5.7+; UFFD_USER_MODE_ONLY where unprivileged
 * userfaultfd is off). A CP about to sleep for long write-protects its page
 * (kfd_doorbell_arm), then looks at the doorbell once more: a store before the protection is
 * seen by that look, a store after it faults. The ringing thread blocks in the kernel; this
 * file's thread reads the fault, lifts the protection (which lets the store complete),
 * counts the ring and wakes that queue's CP (kfd_queue_wake). So a cold CP sleeps without a
 * timeout and an idle queue costs no wake-ups; the CP still reads packets only after a ring
 * (sim_cp.h).
 *
 * A ring through the trap costs a fault, two protection changes and two more scheduler hops
 * (the fault thread, the ringer again), on a 2-CPU VM under load from 70 us to several ms
 * (the change to read-only shoots down the other CPU's TLB): more than the hot CP's
 * polling, so the CP arms the trap only once it has gone cold (kfd_queue.c), and a ring
 * while hot is seen by polling. A SIGSEGV handler over an mprotect'ed page measured no
 * better and puts a process-wide handler under ROCr, the sanitizers and the application
 * (JVMs rely on theirs; LLVM's crash recovery re-raises without siginfo); a futex cannot see
 * a plain store. Without userfaultfd (seccomp, an old kernel) the cold CP polls with a
 * bounded sleep as before; HSACL_KFD_DOORBELL=poll chooses that, to compare.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kfd_priv.h"

#ifndef UFFD_USER_MODE_ONLY
#define UFFD_USER_MODE_ONLY 1 /* Linux 5.11 */
#endif

#define MAX_TRAPS 1024 /* queues at once; more are polled */

struct kfd_doorbell_trap {
   _Atomic uintptr_t page; /* 0: free slot */
   _Atomic uint32_t rings; /* faults taken (the fault thread counts) */
   _Atomic uint32_t wake_bits; /* kfd_queue_wake's argument */
};

static struct kfd_doorbell_trap traps[MAX_TRAPS];
static pthread_once_t open_once = PTHREAD_ONCE_INIT;
static int trap_fd = -1; /* the process's userfaultfd; -1: doorbells are polled */

static int
write_protect(uintptr_t page, bool protect)
{
   struct uffdio_writeprotect wp = {
      .range = {.start = page, .len = KFD_PAGE},
      .mode = protect ? UFFDIO_WRITEPROTECT_MODE_WP : 0, /* 0 also wakes the writer */
   };
   return ioctl(trap_fd, UFFDIO_WRITEPROTECT, &wp);
}

/* A write fault on `page`: a ring of a protected doorbell. */
static void
rung(uintptr_t page)
{
   /* Writable first, then counted: see kfd_queue.c's cp_idle_prepare. An unregistered page
    * (its queue destroyed meanwhile) fails with ENOENT: nobody waits for it. */
   if (write_protect(page, false) != 0 && errno != ENOENT)
      SIM_LOGE("kfd", "doorbell 0x%llx: unprotect failed (%s)", (unsigned long long)page,
               strerror(errno));
   for (unsigned i = 0; i < MAX_TRAPS; i++) {
      struct kfd_doorbell_trap *t = &traps[i];
      if (atomic_load_explicit(&t->page, memory_order_acquire) == page) {
         atomic_fetch_add(&t->rings, 1);
         kfd_queue_wake(atomic_load_explicit(&t->wake_bits, memory_order_relaxed));
         return;
      }
   }
}

static void *
fault_main(void *arg)
{
   (void)arg;
   for (;;) {
      struct uffd_msg msg;
      ssize_t n = read(trap_fd, &msg, sizeof(msg));
      if (n == (ssize_t)sizeof(msg) && msg.event == UFFD_EVENT_PAGEFAULT)
         rung((uintptr_t)msg.arg.pagefault.address & ~(uintptr_t)(KFD_PAGE - 1));
      else if (n < 0 && errno != EINTR && errno != EAGAIN)
         break;
   }
   SIM_LOGE("kfd", "doorbell traps: read failed (%s); trapped rings hang", strerror(errno));
   return NULL;
}

static void
trap_open(void)
{
   const char *mode = getenv("HSACL_KFD_DOORBELL");
   if (mode && !strcmp(mode, "poll"))
      return;
   int fd = (int)syscall(SYS_userfaultfd, O_CLOEXEC | UFFD_USER_MODE_ONLY);
   if (fd < 0)
      fd = (int)syscall(SYS_userfaultfd, O_CLOEXEC); /* kernels before 5.11 */
   if (fd < 0) {
      SIM_LOGD("kfd", "no userfaultfd (%s): doorbells are polled", strerror(errno));
      return;
   }
   struct uffdio_api api = {.api = UFFD_API, .features = UFFD_FEATURE_PAGEFAULT_FLAG_WP};
   if (ioctl(fd, UFFDIO_API, &api) != 0) {
      SIM_LOGD("kfd", "userfaultfd without write protection: doorbells are polled");
      close(fd);
      return;
   }
   trap_fd = fd;
   pthread_t thread;
   pthread_attr_t attr;
   pthread_attr_init(&attr);
   pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
   /* Lives as long as the process: queues come and go with hsa_init cycles. */
   if (pthread_create(&thread, &attr, fault_main, NULL) != 0) {
      close(fd);
      trap_fd = -1;
   }
   pthread_attr_destroy(&attr);
}

kfd_doorbell_trap *
kfd_doorbell_trap_create(void *page, uint32_t wake_bits)
{
   pthread_once(&open_once, trap_open);
   if (trap_fd < 0)
      return NULL;
   struct uffdio_register reg = {
      .range = {.start = (uintptr_t)page, .len = KFD_PAGE},
      .mode = UFFDIO_REGISTER_MODE_WP,
   };
   if (ioctl(trap_fd, UFFDIO_REGISTER, &reg) != 0) {
      SIM_LOGD("kfd", "doorbell %p: no write-protect trap (%s): polled", page,
               strerror(errno));
      return NULL;
   }
   for (unsigned i = 0; i < MAX_TRAPS; i++) {
      struct kfd_doorbell_trap *t = &traps[i];
      uintptr_t free_slot = 0;
      if (atomic_load(&t->page) != 0 ||
          !atomic_compare_exchange_strong(&t->page, &free_slot, (uintptr_t)page))
         continue;
      /* No fault reaches the slot before the page is first protected (by its CP, which
       * starts after this returns). */
      atomic_store(&t->wake_bits, wake_bits);
      atomic_store(&t->rings, 0);
      return t;
   }
   struct uffdio_range range = {.start = (uintptr_t)page, .len = KFD_PAGE};
   ioctl(trap_fd, UFFDIO_UNREGISTER, &range);
   return NULL;
}

void
kfd_doorbell_trap_destroy(kfd_doorbell_trap *t)
{
   if (!t)
      return;
   struct uffdio_range range = {.start = atomic_load(&t->page), .len = KFD_PAGE};
   ioctl(trap_fd, UFFDIO_UNREGISTER, &range); /* wakes a writer still blocked on it */
   atomic_store_explicit(&t->page, 0, memory_order_release);
}

uint32_t
kfd_doorbell_rings(kfd_doorbell_trap *t)
{
   return atomic_load(&t->rings);
}

bool
kfd_doorbell_arm(kfd_doorbell_trap *t)
{
   if (write_protect(atomic_load(&t->page), true) == 0)
      return true;
   SIM_LOGE("kfd", "doorbell 0x%llx: write protection failed (%s)",
            (unsigned long long)atomic_load(&t->page), strerror(errno));
   return false;
}
