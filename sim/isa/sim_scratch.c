/*
 * Scratch wave slots of a queue's scratch (sim_isa.h "sim_scratch"): the SPI's view of
 * COMPUTE_TMPRING_SIZE. A work-group takes one slot per wave before its waves start and
 * gives them back when the last one ends; a work-group that finds too few free slots waits,
 * as waves wait for a scratch slot on hardware ([AMDGPUUsage] "Private Segment Buffer":
 * the wave offset is the wave's slot in the queue's scratch).
 */
#include <stdlib.h>
#include <string.h>

#include "sim_isa_priv.h"

void
sim__scratch_init(sim_scratch *s)
{
   memset(s, 0, sizeof(*s));
   pthread_mutex_init(&s->lock, NULL);
   pthread_cond_init(&s->freed, NULL);
}

bool
sim__scratch_set(sim_scratch *s, uint64_t base, uint64_t size, uint32_t wave_bytes,
                 uint32_t slots, const uint32_t srd[4])
{
   uint8_t *used = slots ? calloc(slots, 1) : NULL;
   bool ok = !slots || used;
   pthread_mutex_lock(&s->lock);
   free(s->used);
   s->used = used;
   s->base = base;
   s->size = size;
   s->wave_bytes = wave_bytes;
   s->slots = ok ? slots : 0;
   s->free_slots = s->slots;
   memcpy(s->srd, srd, sizeof(s->srd));
   pthread_mutex_unlock(&s->lock);
   return ok;
}

void
sim__scratch_finish(sim_scratch *s)
{
   free(s->used);
   s->used = NULL;
   pthread_mutex_destroy(&s->lock);
   pthread_cond_destroy(&s->freed);
}

static bool
claim(sim_scratch *s, uint32_t n, uint32_t *slots, bool wait)
{
   pthread_mutex_lock(&s->lock);
   if (n > s->slots || (!wait && s->free_slots < n)) {
      pthread_mutex_unlock(&s->lock);
      return false;
   }
   while (s->free_slots < n)
      pthread_cond_wait(&s->freed, &s->lock);
   uint32_t k = 0;
   for (uint32_t i = 0; i < s->slots && k < n; i++) {
      if (!s->used[i]) {
         s->used[i] = 1;
         slots[k++] = i;
      }
   }
   s->free_slots -= n;
   pthread_mutex_unlock(&s->lock);
   return true;
}

bool
sim__scratch_claim(sim_scratch *s, uint32_t n, uint32_t *slots)
{
   return claim(s, n, slots, true);
}

/* A thread whose resident work-groups wait on GWS must not wait for slots they hold. */
bool
sim__scratch_try_claim(sim_scratch *s, uint32_t n, uint32_t *slots)
{
   return claim(s, n, slots, false);
}

void
sim__scratch_release(sim_scratch *s, uint32_t n, const uint32_t *slots)
{
   pthread_mutex_lock(&s->lock);
   for (uint32_t i = 0; i < n; i++)
      s->used[slots[i]] = 0;
   s->free_slots += n;
   pthread_cond_broadcast(&s->freed);
   pthread_mutex_unlock(&s->lock);
}
