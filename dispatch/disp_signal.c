/*
 * dispatch/disp_signal.c — a free list of HSA signals, so the steady-state enqueue path
 * creates none (hsa_signal_create may be a system call on ROCr). A signal handed out has
 * the value 1; one returned may have any value.
 */
#include "dispatch/disp.h"
#include "dispatch/disp_priv.h"

#define SIGNAL_CACHE_MAX 8192 /* above the commands a queue keeps in flight (AQL ring) */

static pthread_mutex_t signal_lock = DISP_MUTEX_INITIALIZER;
static hsa_signal_t signal_cache[SIGNAL_CACHE_MAX];
static unsigned signal_count;

cl_int
disp__signal_get(hsa_signal_t *out)
{
   const struct disp_hsa *hsa = disp_hsa_get();
   pthread_mutex_lock(&signal_lock);
   if (signal_count) {
      *out = signal_cache[--signal_count];
      pthread_mutex_unlock(&signal_lock);
      hsa->hsa_signal_store_relaxed(*out, 1);
      return CL_SUCCESS;
   }
   pthread_mutex_unlock(&signal_lock);
   /* Created with no consumer list, like ROCclr's, so any agent may wait on it. */
   hsa_status_t st = hsa->hsa_amd_signal_create(1, 0, NULL, 0, out);
   if (st != HSA_STATUS_SUCCESS)
      return disp_hsa_status_to_cl(st, "creating an HSA signal");
   return CL_SUCCESS;
}

void
disp__signal_put(hsa_signal_t signal)
{
   pthread_mutex_lock(&signal_lock);
   if (signal_count < SIGNAL_CACHE_MAX) {
      signal_cache[signal_count++] = signal;
      pthread_mutex_unlock(&signal_lock);
      return;
   }
   pthread_mutex_unlock(&signal_lock);
   disp_hsa_get()->hsa_signal_destroy(signal);
}
