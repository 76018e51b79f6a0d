/* Test kernel for sim_test_queue's doorbell case. Uses only clang builtins, so it builds with
 * -nogpulib. */
/* Rings the doorbell of another queue from the GPU, as ockl's __ockl_hsa_signal_store does
 * on gfx9 for a signal that is not AMD_SIGNAL_KIND_USER (1): a release store of the value to
 * the amd_signal_t's hardware_doorbell_ptr (+8). A user signal gets the value itself. */
kernel void
ring(global long *signal, long value)
{
   if (signal[0] == 1)
      __atomic_store_n(&signal[1], value, __ATOMIC_RELEASE);
   else
      __atomic_store_n((global long *)signal[1], value, __ATOMIC_RELEASE);
}
