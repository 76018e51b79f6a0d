# hsacl_devlib_link(<out> <bitcode-dir> <isa-version> [WAVE32] [DAZ]): the clang options that
# link the ROCm device libraries into a test kernel compiled outside the driver (clang -x cl
# -nogpulib), in the order the driver's compiler links them: opencl, ocml, ockl, then the
# oclc control libraries for the ISA version (906, 1030, ...), ABI 5, denormals flushed
# (DAZ) or kept, finite-only and unsafe math off, correctly rounded sqrt, wave64 unless
# WAVE32.
function(hsacl_devlib_link out dir isa)
   cmake_parse_arguments(A "WAVE32;DAZ" "" "" ${ARGN})
   set(daz oclc_daz_opt_off)
   if(A_DAZ)
      set(daz oclc_daz_opt_on)
   endif()
   set(wave oclc_wavefrontsize64_on)
   if(A_WAVE32)
      set(wave oclc_wavefrontsize64_off)
   endif()
   set(link)
   foreach(bc opencl ocml ockl oclc_isa_version_${isa} oclc_abi_version_500 ${daz}
           oclc_finite_only_off oclc_unsafe_math_off oclc_correctly_rounded_sqrt_on ${wave})
      list(APPEND link -Xclang -mlink-builtin-bitcode -Xclang ${dir}/${bc}.bc)
   endforeach()
   set(${out} ${link} PARENT_SCOPE)
endfunction()
