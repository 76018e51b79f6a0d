/*
 * comp_builtins_clock.cl — cl_khr_kernel_clock 1.0.0: clock_read_{device,work_group,
 * sub_group} and their _hilo forms (the low 32 bits first). Included by comp_builtins.cl.
 *
 * A scope's clock must count on for every work-item of that scope (the extension: values read
 * by work-items of the scope are comparable). The counters (llvm-AMDGPUUsage, the GFX9, RDNA
 * and RDNA 3 ISA manuals):
 *   - the real-time counter, S_MEMREALTIME up to gfx10 and S_SENDMSG_RTN_B64
 *     MSG_RTN_GET_REALTIME on gfx11 and gfx12 (llvm.readsteadycounter selects it): one
 *     constant-rate (100 MHz) counter for the whole device, so it serves the device scope on
 *     every target, and the narrower scopes wherever nothing finer is;
 *   - S_MEMTIME (gfx9, gfx10): the 64-bit shader-clock counter of the shader engine, which
 *     a work-group (one compute unit) and its sub-groups never leave. It counts at the shader
 *     clock, finer than the real-time counter, so it is the work-group and sub-group clock
 *     there; not the device's, since two shader engines' counters are not one.
 *   - gfx11 has no S_MEMTIME and its HW_REG_SHADER_CYCLES is 20 bits (it wraps within a
 *     millisecond, no 64-bit clock); gfx12's 64-bit HW_REG_SHADER_CYCLES_HI/LO is not documented
 *     as shared beyond a compute unit's waves. Both use the real-time counter at every scope.
 */

/* __oclc_ISA_version: see comp_builtins_bitdot.cl (declared there, folded per build). */
static __attribute__((target("s-memtime-inst"))) ulong
clk_memtime(void)
{
   return __builtin_amdgcn_s_memtime();
}

/* The real-time counter. __builtin_readsteadycounter returns unsigned long long, 128 bits in
 * OpenCL C: narrowed here, where it is read, and never mixed into wider arithmetic. */
static inline __attribute__((always_inline)) ulong
clk_realtime(void)
{
   return (ulong)__builtin_readsteadycounter();
}

static inline __attribute__((always_inline)) ulong
clk_shader_engine(void)
{
   if (__oclc_ISA_version < 11000)
      return clk_memtime();
   return clk_realtime();
}

static inline __attribute__((always_inline)) uint2
clk_hilo(ulong t)
{
   return (uint2)((uint)t, (uint)(t >> 32));
}

__attribute__((overloadable)) ulong
clock_read_device(void)
{
   return clk_realtime();
}

__attribute__((overloadable)) uint2
clock_read_hilo_device(void)
{
   return clk_hilo(clk_realtime());
}

__attribute__((overloadable)) ulong
clock_read_work_group(void)
{
   return clk_shader_engine();
}

__attribute__((overloadable)) uint2
clock_read_hilo_work_group(void)
{
   return clk_hilo(clk_shader_engine());
}

__attribute__((overloadable)) ulong
clock_read_sub_group(void)
{
   return clk_shader_engine();
}

__attribute__((overloadable)) uint2
clock_read_hilo_sub_group(void)
{
   return clk_hilo(clk_shader_engine());
}
