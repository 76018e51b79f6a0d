/*
 * Address translation for the memory instructions: global GPU VAs through sim__mem_find
 * (with a one-entry cache per wave), the work-group's scratch window, the FLAT shared and
 * private apertures ([AMDGPUUsage] "Address Spaces", "Flat Scratch") and LDS bounds.
 */
#include "sim_isa_priv.h"

const sim_alloc *
sim__alloc_find_slow(sim_wg *wg, uint64_t va)
{
   const sim_alloc **c = wg->xcache;
   unsigned i = 1;
   const sim_alloc *a = NULL;
   for (; i < SIM_XCACHE_N; i++) {
      if (c[i] && va - c[i]->va < c[i]->reach) {
         a = c[i];
         break;
      }
   }
   if (!a) {
      a = sim__mem_find(va);
      if (!a)
         return NULL;
      i = SIM_XCACHE_N - 1;
   }
   /* Move to the front; on a miss the last entry drops out. */
   for (; i > 0; i--)
      c[i] = c[i - 1];
   c[0] = a;
   return a;
}

void *
sim__gpu_ptr(sim_wave *w, uint64_t va, uint32_t size, bool write)
{
   sim_wg *wg = w->wg;
   if (va - SIM_SCRATCH_VA < wg->scratch_size) {
      uint64_t off = va - SIM_SCRATCH_VA;
      if (off + size <= wg->scratch_size)
         return wg->scratch + off;
      goto fault;
   }
   const sim_alloc *a = sim__alloc_find(w, va);
   if (!a || va - a->va + size > a->reach)
      goto fault;
   if (write && ((a->flags & SIM_ALLOC_CODE) || !(a->flags & SIM_ALLOC_WRITE))) {
      sim__fault(w, SIM_FAULT_MEMORY_VIOLATION, va,
                 "store of %u bytes to read-only/code memory at 0x%llx (pc 0x%llx)", size,
                 (unsigned long long)va, (unsigned long long)w->inst_pc);
      return NULL;
   }
   if (SIM_UNLIKELY(a->flags & SIM_ALLOC_DOORBELL) && write)
      w->doorbell_va = va; /* the store follows: sim__wave_run calls the hook after it */
   if (SIM_UNLIKELY(sim__cache_checking) && (a->flags & SIM_ALLOC_COARSE)) {
      if (w->l1_load && !write)
         return sim__l1_load_ptr(w, a, va, size);
      if (write)
         sim__l1_drop(w, a, va, size);
      return sim__cache_ptr(w, a, va, size, write);
   }
   return a->view + (va - a->va);
fault:
   sim__fault(w, SIM_FAULT_MEMORY_VIOLATION, va,
              "%s of %u bytes at 0x%llx outside every allocation (pc 0x%llx)",
              write ? "store" : "load", size, (unsigned long long)va,
              (unsigned long long)w->inst_pc);
   return NULL;
}

void *
sim__lds_ptr(sim_wave *w, uint32_t addr, uint32_t size)
{
   sim_wg *wg = w->wg;
   if ((uint64_t)addr + size > wg->lds_size) {
      sim__fault(w, SIM_FAULT_MEMORY_VIOLATION, SIM_APERTURE_SHARED_BASE + addr,
                 "LDS access of %u bytes at 0x%x beyond the %u-byte allocation (pc 0x%llx)",
                 size, addr, wg->lds_size, (unsigned long long)w->inst_pc);
      return NULL;
   }
   return wg->lds + addr;
}

void *
sim__flat_ptr(sim_wave *w, uint64_t addr, unsigned lane, uint32_t size, bool write)
{
   uint32_t hi = (uint32_t)(addr >> 32);
   if (hi == (uint32_t)(SIM_APERTURE_SHARED_BASE >> 32))
      return sim__lds_ptr(w, (uint32_t)addr, size);
   if (hi == (uint32_t)(SIM_APERTURE_PRIVATE_BASE >> 32)) {
      return sim__gpu_ptr(w, sim__scratch_swizzle(w, (uint32_t)addr, lane), size, write);
   }
   return sim__gpu_ptr(w, addr, size, write);
}
