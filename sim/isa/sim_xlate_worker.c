/*
 * The translator's compile worker (docs/sim.md "Speed"): one thread, started with the first
 * hot block, compiles blocks in the order they became hot while waves go on interpreting; a
 * block runs translated from the first time a wave finds its entry published (release
 * store of `state`).
 *
 * Exit. Exit handlers (atexit, __cxa_atexit destructors of C++ statics, a library's own
 * when it is dlclose'd) run last-registered first. LLVM builds some static objects the
 * first time a compile needs them; had the worker been inside such a compile when the
 * process exits, those objects would be destroyed under it (LLVM aborted, or the process
 * crashed at exit). So before the worker exists, sim__xlate_warm opens libLLVM, makes the
 * JIT and compiles a throw-away block on the calling thread (every static a compile makes
 * exists from then on, the ones libLLVM's constructors made when it was opened too), and
 * only after that the stop-and-join handler is registered: it runs before any of LLVM's
 * destructors, stops the worker between compiles and waits for the compile in progress,
 * which the compile budget bounds (sim_xlate.c, xl_emit). That is why the thread that
 * found the first hot block, not the worker, pays for loading LLVM: on the worker, an exit
 * during that first compile would meet LLVM's destructors with nothing to stop it.
 */
#include <stdlib.h>
#include <time.h>
#include "sim_xlate_priv.h"

/* A hot block waiting for the compile worker. The instructions are pointers into the
 * program's decoded slots (stable until the program is freed, which first takes the
 * program's jobs out of the queue: sim__xlate_program_free). */
typedef struct xl_job {
   struct xl_job *next;
   sim_program *p;
   uint64_t pc;
   sim_xlate_ent *e;
   unsigned n;
   const sim_inst *insts[SIM_XLATE_MAX_INSTS];
} xl_job;

static struct {
   pthread_mutex_t lock;
   pthread_cond_t cond; /* a job queued, stop, fork, the current job finished or cancelled */
   xl_job *head, *tail;
   xl_job *cur;         /* taken by the worker */
   bool cur_cancelled;  /* its program is being freed: publish nothing */
   bool started, stop;
   bool forking;        /* a fork waits for the worker to hold no job: take none */
   pthread_t thread;
} xl_q = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER};

/* Waits HSACL_SIM_XLATE_STALL_MS before a compile, or less when the job is cancelled or the
 * worker stops: lets a test hold a block in the worker while its dispatch runs and its
 * program is freed. Under xl_q.lock. */
static void
xl_stall(void)
{
   struct timespec until;
   clock_gettime(CLOCK_REALTIME, &until);
   until.tv_sec += sim__xlate_stall_ms / 1000;
   until.tv_nsec += (long)(sim__xlate_stall_ms % 1000) * 1000000;
   if (until.tv_nsec >= 1000000000) {
      until.tv_sec++;
      until.tv_nsec -= 1000000000;
   }
   while (!xl_q.cur_cancelled && !xl_q.stop &&
          pthread_cond_timedwait(&xl_q.cond, &xl_q.lock, &until) == 0)
      ;
}

static void *
xl_worker(void *arg)
{
   (void)arg;
   pthread_mutex_lock(&xl_q.lock);
   for (;;) {
      while ((!xl_q.head || xl_q.forking) && !xl_q.stop)
         pthread_cond_wait(&xl_q.cond, &xl_q.lock);
      if (xl_q.stop)
         break;
      xl_job *j = xl_q.head;
      xl_q.head = j->next;
      if (!xl_q.head)
         xl_q.tail = NULL;
      xl_q.cur = j;
      xl_q.cur_cancelled = false;
      if (sim__xlate_stall_ms)
         xl_stall();
      sim_xlate_fn fn = NULL;
      if (!xl_q.cur_cancelled && !xl_q.stop) {
         pthread_mutex_unlock(&xl_q.lock);
         fn = sim__xlate_compile(j->p, j->pc, j->e, j->insts, j->n);
         pthread_mutex_lock(&xl_q.lock);
      }
      if (!xl_q.cur_cancelled && !xl_q.stop) {
         j->e->fn = fn;
         __atomic_store_n(&j->e->state, fn ? XL_ENT_DONE : XL_ENT_NEVER, __ATOMIC_RELEASE);
      }
      xl_q.cur = NULL;
      pthread_cond_broadcast(&xl_q.cond);
      free(j);
   }
   pthread_mutex_unlock(&xl_q.lock);
   return NULL;
}

/* At exit (or when the library is unloaded): the worker finishes the block it compiles, if
 * any, and ends before LLVM's static objects are destroyed; queued blocks are dropped. */
static void
xl_q_shutdown(void)
{
   pthread_mutex_lock(&xl_q.lock);
   bool started = xl_q.started;
   xl_q.stop = true;
   pthread_cond_broadcast(&xl_q.cond);
   while (xl_q.head) {
      xl_job *j = xl_q.head;
      xl_q.head = j->next;
      free(j);
   }
   xl_q.tail = NULL;
   xl_q.started = false;
   pthread_mutex_unlock(&xl_q.lock);
   if (started)
      pthread_join(xl_q.thread, NULL);
}

/* fork: the parent forks only while the worker holds no job and no thread holds the JIT (a
 * child must not inherit a lock nobody will release). The child does not compile: ORC runs
 * tasks on threads of its own (its task dispatcher), which the child does not have and whose
 * locks and counts it inherits as they were, so a compile in the child could wait for them
 * for ever (seen under ASan: 1 child of 3). It runs the blocks the parent published (their
 * code is in its memory) and interprets the rest; its queued blocks are dropped. */
static void
xl_fork_prepare(void)
{
   pthread_mutex_lock(&xl_q.lock);
   xl_q.forking = true;
   while (xl_q.cur)
      pthread_cond_wait(&xl_q.cond, &xl_q.lock);
   pthread_mutex_lock(&sim__xlate_jit_lock);
}

static void
xl_fork_parent(void)
{
   pthread_mutex_unlock(&sim__xlate_jit_lock);
   xl_q.forking = false;
   pthread_cond_broadcast(&xl_q.cond);
   pthread_mutex_unlock(&xl_q.lock);
}

static void
xl_fork_child(void)
{
   pthread_mutex_unlock(&sim__xlate_jit_lock);
   while (xl_q.head) {
      xl_job *j = xl_q.head;
      xl_q.head = j->next;
      __atomic_store_n(&j->e->state, XL_ENT_NEVER, __ATOMIC_RELAXED);
      free(j);
   }
   xl_q.tail = NULL;
   xl_q.started = false;
   xl_q.forking = false;
   sim__xlate_forked = true;
   pthread_cond_init(&xl_q.cond, NULL);
   pthread_mutex_unlock(&xl_q.lock);
}

bool sim__xlate_forked;

static pthread_once_t xl_start_once = PTHREAD_ONCE_INIT;

static void
xl_start_once_fn(void)
{
   sim__xlate_warm();
   /* After the warm-up: runs before the destructors of what LLVM made in it. */
   atexit(xl_q_shutdown);
   pthread_atfork(xl_fork_prepare, xl_fork_parent, xl_fork_child);
}

void
sim__xlate_start(void)
{
   pthread_once(&xl_start_once, xl_start_once_fn);
}

void
sim__xlate_enqueue(sim_wave *w, sim_program *p, uint64_t pc, sim_xlate_ent *e)
{
   uint32_t cold = XL_ENT_COLD;
   if (!__atomic_compare_exchange_n(&e->state, &cold, XL_ENT_QUEUED, false, __ATOMIC_RELAXED,
                                    __ATOMIC_RELAXED))
      return; /* another wave queued it */
   sim__xlate_take(w, p, e); /* published with the entry's state */
   xl_job *j = malloc(sizeof(*j));
   if (j)
      j->n = sim__xlate_form(w, p, pc, j->insts, SIM_XLATE_MAX_INSTS);
   if (!j || !j->n) {
      free(j);
      __atomic_store_n(&e->state, XL_ENT_NEVER, __ATOMIC_RELEASE);
      return;
   }
   j->next = NULL;
   j->p = p;
   j->pc = pc;
   j->e = e;
   sim__xlate_start();
   if (!sim__xlate_jit_ready()) {
      free(j);
      __atomic_store_n(&e->state, XL_ENT_NEVER, __ATOMIC_RELEASE);
      return;
   }
   pthread_mutex_lock(&xl_q.lock);
   if (!xl_q.started && !xl_q.stop && !sim__xlate_forked &&
       pthread_create(&xl_q.thread, NULL, xl_worker, NULL) == 0)
      xl_q.started = true;
   if (!xl_q.started) {
      pthread_mutex_unlock(&xl_q.lock);
      free(j);
      __atomic_store_n(&e->state, XL_ENT_NEVER, __ATOMIC_RELEASE);
      return;
   }
   if (xl_q.tail)
      xl_q.tail->next = j;
   else
      xl_q.head = j;
   xl_q.tail = j;
   pthread_cond_signal(&xl_q.cond);
   pthread_mutex_unlock(&xl_q.lock);
}

/* The program's queued blocks leave the queue; a block of it the worker has taken is
 * cancelled (a stalled one at once, one in LLVM when it is done: a compile is not
 * interruptible), so that no job outlives the slots and entries it points into. */
unsigned
sim__xlate_q_drop(sim_program *p)
{
   unsigned lost = 0;
   pthread_mutex_lock(&xl_q.lock);
   xl_job **pp = &xl_q.head, *last = NULL;
   while (*pp) {
      xl_job *j = *pp;
      if (j->p == p) {
         *pp = j->next;
         free(j);
      } else {
         last = j;
         pp = &j->next;
      }
   }
   xl_q.tail = last;
   if (xl_q.cur && xl_q.cur->p == p) {
      lost = 1;
      xl_q.cur_cancelled = true;
      pthread_cond_broadcast(&xl_q.cond);
      while (xl_q.cur && xl_q.cur->p == p)
         pthread_cond_wait(&xl_q.cond, &xl_q.lock);
   }
   pthread_mutex_unlock(&xl_q.lock);
   return lost;
}
