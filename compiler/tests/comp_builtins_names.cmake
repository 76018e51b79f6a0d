# comp_builtins_names.cmake — every symbol comp_builtins.cl defines must be one the device
# libraries define (opencl.bc or ockl.bc): a misspelt or wrongly mangled override would be
# linked by nothing and silently leave the device library's version in place. Also checks the
# expected count, so that a dropped overload is noticed. The extension built-ins of
# comp_builtins_subgroup.cl (with comp_builtins_subgroup_nu.cl), comp_builtins_bitdot.cl,
# comp_builtins_atomic.cl and comp_builtins_clock.cl (the device libraries have none:
# sub_group_*, get_sub_group_*_mask, bitfield_*, bit_reverse, dot*, the atomics of
# atomic_half, atomic_float and atomic_double, clock_read_*) and their sg_*/bd_*/clk_* helpers
# are additions, not overrides: they are left out of both checks, as are the pp_* helpers of
# comp_builtins_pipe.cl, the dq_* ones of comp_builtins_enqueue.cl (their built-ins are
# overrides and checked) and the ls_* S# tables of comp_builtins_mipmap.cl.
# Run as: cmake -DNM=<llvm-nm> -DBUILTINS=<comp_builtins.bc> -DLIBDIR=<device libs>
#               -DEXPECT=<count> -P comp_builtins_names.cmake
execute_process(COMMAND ${NM} --defined-only --format=just-symbols ${BUILTINS}
                OUTPUT_VARIABLE ours RESULT_VARIABLE rc)
if(rc)
   message(FATAL_ERROR "llvm-nm ${BUILTINS} failed")
endif()
execute_process(COMMAND ${NM} --defined-only --format=just-symbols ${LIBDIR}/opencl.bc
                        ${LIBDIR}/ockl.bc
                OUTPUT_VARIABLE libs RESULT_VARIABLE rc)
if(rc)
   message(FATAL_ERROR "llvm-nm on the device libraries failed")
endif()
string(REGEX MATCHALL "[^\n]+" ours "${ours}")
string(REGEX MATCHALL "[^\n]+" libs "${libs}")
list(REMOVE_DUPLICATES libs)
list(FILTER ours EXCLUDE REGEX "^(sg_|bd_|pp_|dq_|clk_|ls_|_ZL[0-9]+(sg|bd|pp|dq|clk)_)")
list(FILTER ours EXCLUDE REGEX
     "^_Z[0-9]+(sub_group_|get_sub_group_[a-z]+_mask|bitfield_|bit_reverse|dot|__spirv_|clock_read_)")
list(FILTER ours EXCLUDE REGEX "^_Z[0-9]+atomic_[a-z_]+PU3AS[0-9]VU7_Atomic(Dh|f|d)")
set(missing)
foreach(sym ${ours})
   list(FIND libs ${sym} i)
   if(i LESS 0)
      list(APPEND missing ${sym})
   endif()
endforeach()
list(LENGTH ours n)
if(missing)
   message(FATAL_ERROR "overrides the device libraries do not define: ${missing}")
endif()
if(NOT n EQUAL EXPECT)
   message(FATAL_ERROR "comp_builtins.bc defines ${n} symbols, expected ${EXPECT}")
endif()
message(STATUS "comp_builtins.bc: ${n} overrides, all defined by the device libraries")
