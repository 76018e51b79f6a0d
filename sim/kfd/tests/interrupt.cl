/*
 * sim/kfd/tests/interrupt.cl — kernels that complete an interrupt signal from the device with
 * ockl's signal operations: the value changes, then, since the signal has an event mailbox,
 * ockl writes the event id there and executes s_sendmsg MSG_INTERRUPT (the id's low 8 bits in
 * M0). Each first waits `ticks` of the 100 MHz real-time clock, so that the host waiting for
 * the signal is asleep in the KFD by then.
 */
void __ockl_hsa_signal_store(ulong signal, long value, int order);
void __ockl_hsa_signal_add(ulong signal, long value, int order);
ulong __ockl_memrealtime_u64(void);

static void
delay(ulong ticks)
{
   ulong t0 = __ockl_memrealtime_u64();
   while (__ockl_memrealtime_u64() - t0 < ticks)
      __builtin_amdgcn_s_sleep(127);
}

/* Work-item 0 stores `value` (release). */
kernel void
store_late(ulong signal, long value, ulong ticks)
{
   if (get_global_id(0) == 0) {
      delay(ticks);
      __ockl_hsa_signal_store(signal, value, __ATOMIC_RELEASE);
   }
}

/* Every work-item adds -1 (release): each wave's add raises an interrupt. */
kernel void
add_each(ulong signal, ulong ticks)
{
   delay(ticks);
   __ockl_hsa_signal_add(signal, -1, __ATOMIC_RELEASE);
}
