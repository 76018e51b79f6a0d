/*
 * dispatch/disp_args.c — a kernel's launch capture: its explicit arguments written once into
 * a kernarg template for the code that runs (one device's default build or wide variant),
 * holding the kernel and every memory object and sampler they name with one internal
 * reference each, and shared by the launches enqueued until an argument changes. A launch
 * holds the capture with one reference, where it held the kernel and each object, and copies
 * the template into its kernarg segment (disp_kernel.c); clSetKernelArg after the enqueue
 * makes a new capture for the next launch and leaves the enqueued one as it was.
 *
 * The kernel keeps a pointer to its current capture without holding it (comp.h), so a
 * capture lives only while launches hold it: an object the application releases still goes
 * once the launches that use it have completed. The pointer is read, set and cleared under
 * the kernel's argument lock. A capture whose count reached zero is never taken again: its
 * last holder clears the kernel's pointer under that lock before freeing it (and may be
 * waiting for the lock meanwhile), so a launch that finds it captures anew.
 */
#include "dispatch/disp.h"
#include "dispatch/disp_priv.h"
#include "compiler/comp.h"
#include "memory/mem.h"

#include <assert.h>
#include <string.h>

/* Frees a capture that no launch holds and the kernel no longer points at (or never did). */
static void
args_destroy(struct disp__args *a)
{
   for (cl_uint i = 0; i < a->refs.num_mems; i++)
      mem_release_internal(a->refs.mems[i]);
   icd_free(a->refs.mems);
   for (cl_uint i = 0; i < a->refs.num_samplers; i++)
      mem_sampler_release_internal(a->refs.samplers[i]);
   icd_free(a->refs.samplers);
   comp_kernel_release_internal(a->kernel);
   icd_free(a);
}

/* A new capture of `k`'s arguments (all set) for `kd` on `q`'s device, held once, in *out.
 * Under the kernel's argument lock. On failure *out is what to destroy once the lock is
 * dropped (or NULL). */
static cl_int
args_capture_locked(struct _cl_command_queue *q, struct _cl_kernel *k,
                    const struct comp_kernel_device *kd, struct disp__args **out)
{
   *out = NULL;
   struct disp__args *a = icd_calloc(1, sizeof(*a) + kd->kernarg_segment_size);
   if (!a)
      return ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "allocating a launch's argument capture");
   cl_uint n = comp_kernel_num_args(k);
   a->refs.mems = icd_calloc(n ? n : 1, sizeof(*a->refs.mems));
   if (!a->refs.mems) {
      icd_free(a);
      return ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "allocating a launch's buffer list");
   }
   atomic_init(&a->holders, 1);
   a->kernel = k;
   comp_kernel_retain_internal(k);
   a->kd = kd;
   *out = a;
   cl_int err = disp__kernarg_write_explicit(a->ka, q, k, kd, &a->refs, &a->lds);
   if (err == CL_SUCCESS)
      err = disp__kernarg_hidden_fit(kd);
   return err;
}

/* One more holder for `a`, unless its count already reached zero. */
static bool
args_hold(struct disp__args *a)
{
   unsigned n = atomic_load_explicit(&a->holders, memory_order_relaxed);
   while (n) {
      if (atomic_compare_exchange_weak_explicit(&a->holders, &n, n + 1, memory_order_relaxed,
                                                memory_order_relaxed))
         return true;
   }
   return false;
}

cl_int
disp__args_get(struct _cl_command_queue *q, struct _cl_kernel *k,
               const struct comp_kernel_device *kd, struct disp__args **out)
{
   assert(comp_kernel_args_all_set(k));
   comp_kernel_args_lock(k);
   struct disp__args *a = comp_kernel_capture_locked(k);
   if (a && a->kd == kd && args_hold(a)) {
      comp_kernel_args_unlock(k);
      *out = a;
      return CL_SUCCESS;
   }
   cl_int err = args_capture_locked(q, k, kd, &a);
   if (err == CL_SUCCESS)
      comp_kernel_set_capture_locked(k, a);
   comp_kernel_args_unlock(k);
   if (err != CL_SUCCESS) {
      /* The caller's reference on the kernel keeps it past this release. */
      if (a)
         args_destroy(a);
      a = NULL;
   }
   *out = a;
   return err;
}

void
disp__args_release(struct disp__args *a)
{
   if (atomic_fetch_sub_explicit(&a->holders, 1, memory_order_acq_rel) != 1)
      return;
   struct _cl_kernel *k = a->kernel;
   comp_kernel_args_lock(k);
   if (comp_kernel_capture_locked(k) == a)
      comp_kernel_set_capture_locked(k, NULL);
   comp_kernel_args_unlock(k);
   args_destroy(a);
}

cl_int
disp__args_check_set(struct _cl_kernel *k)
{
   if (comp_kernel_args_all_set(k))
      return CL_SUCCESS;
   const cl_uint n = comp_kernel_num_args(k);
   cl_uint i = 0;
   comp_kernel_args_lock(k);
   while (i < n && comp_kernel_arg(k, i)->set)
      i++;
   comp_kernel_args_unlock(k);
   if (i == n)
      return CL_SUCCESS; /* set meanwhile on another thread */
   return ICD_ERROR(CL_INVALID_KERNEL_ARGS, "argument %u of kernel %s is not set", i,
                    comp_kernel_name(k));
}
