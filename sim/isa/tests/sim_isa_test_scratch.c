/* The queue scratch's wave slots (sim/isa/sim_scratch.c): claims take free slots, wait while
 * too few are free, fail when the scratch has fewer slots than asked; set() changes the
 * geometry and frees every slot. */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#include "sim_isa_test.h"

typedef struct claimer {
   sim_scratch *s;
   uint32_t n, slots[16];
   _Atomic bool done;
} claimer;

static void *
claim_main(void *arg)
{
   claimer *c = arg;
   if (sim__scratch_claim(c->s, c->n, c->slots))
      atomic_store(&c->done, true);
   return NULL;
}

TEST(scratch_slots)
{
   static const uint32_t srd[4] = {0x1000, 0x80000000u, 4096 * 4, 0x27fac};
   sim_scratch s;
   sim__scratch_init(&s);
   CHECK(sim__scratch_set(&s, 0x1000, 4096 * 4, 4096, 4, srd));
   CHECK_EQ(s.slots, 4);
   CHECK_EQ(s.srd[3], 0x27fac);
   uint32_t a[3];
   CHECK(sim__scratch_claim(&s, 3, a));
   CHECK(a[0] != a[1] && a[1] != a[2] && a[0] != a[2]);
   CHECK(a[0] < 4 && a[1] < 4 && a[2] < 4);
   CHECK_EQ(s.free_slots, 1);
   uint32_t five[5];
   CHECK(!sim__scratch_claim(&s, 5, five)); /* more than there are: never */
   CHECK_EQ(s.free_slots, 1);

   /* Two slots wanted, one free: the claimer waits until a release. */
   claimer c = {.s = &s, .n = 2};
   pthread_t th;
   CHECK(pthread_create(&th, NULL, claim_main, &c) == 0);
   usleep(50000);
   CHECK(!atomic_load(&c.done));
   sim__scratch_release(&s, 2, a);
   pthread_join(th, NULL);
   CHECK(atomic_load(&c.done));
   CHECK(c.slots[0] != c.slots[1] && c.slots[0] != a[2] && c.slots[1] != a[2]);
   CHECK_EQ(s.free_slots, 1);
   sim__scratch_release(&s, 2, c.slots);
   sim__scratch_release(&s, 1, &a[2]);
   CHECK_EQ(s.free_slots, 4);

   /* No scratch: no slots; any claim fails. */
   CHECK(sim__scratch_set(&s, 0, 0, 0, 0, srd));
   CHECK_EQ(s.slots, 0);
   CHECK(!sim__scratch_claim(&s, 1, a));
   sim__scratch_finish(&s);
}

void
t_scratch_tests(void)
{
   RUN(scratch_slots);
}
