#!/usr/bin/env bash
# hsacl from an installed tree (README "Installing"): ctest's install.setup fills PREFIX with
# `cmake --install BUILD --prefix PREFIX --component runtime`; this script then runs PROGRAM
# (examples/vector_add) with nothing of the build tree in its environment, through the
# prefix's own ICD vendors folder, on one runtime:
#   sim   hsacl's software runtime, found beside the installed libhsacl.so
#   rocr  AMD's ROCr over the installed software KFD, once through scripts/rocr
#         (HSACL_PREFIX) and once through the one-line environment the README gives
# and checks that the installed libraries are the ones loaded (ld.so's LD_DEBUG=files),
# that the device's driver string names the runtime and that the program's result is right.
# usage: install_check.sh sim|rocr PREFIX PROGRAM SOURCE_ROOT CACHE_DIR
set -u
mode=$1 prefix=$2 program=$3 root=$4 cache=$5
fail=0
bad() { echo "FAILED: $*"; fail=1; }

icd=$prefix/share/hsacl/icd-vendors/hsacl.icd
[ -f "$icd" ] || { echo "FAILED: no $icd (install.setup did not run?)"; echo "0 passed, 1 failed"; exit 1; }
lib=$(cat "$icd")
case $lib in "$prefix"/*/libhsacl.so) ;; *) bad "$icd names $lib, not the prefix's libhsacl.so" ;; esac
[ -f "$lib" ] || bad "$icd names $lib, which is not installed"
libdir=$(dirname "$lib")

# $1: label; then the command. The run's stdout is checked, ld.so's trace (stderr) too.
check_run() {
   local label=$1
   shift
   local out err status
   err=$(mktemp)
   out=$(env -u HSACL_SIM_LIBRARY -u LD_LIBRARY_PATH -u HSACL_KFD_DIR -u HSACL_BUILD_DIR \
         -u OCL_ICD_FILENAMES HSACL_CACHE_DIR="$cache" LD_DEBUG=files "$@" 2>"$err")
   status=$?
   echo "[$label] $out"
   [ $status -eq 0 ] || bad "$label: exit $status"
   grep -q "calling init: $libdir/libhsacl.so\$" "$err" || bad "$label: $libdir/libhsacl.so not loaded"
   if [ "$mode" = rocr ]; then
      grep -q 'driver hsacl .*(HSA runtime: ROCr)' <<<"$out" || bad "$label: the driver is not on ROCr"
      grep -q "calling init: $libdir/hsacl-kfd/libhsakmt.so.1\$" "$err" ||
         bad "$label: the installed software KFD ($libdir/hsacl-kfd) not loaded"
   else
      grep -q "driver hsacl .*(HSA runtime: software gfx[0-9a-f]* agent)" <<<"$out" ||
         bad "$label: the driver is not on the software runtime"
      grep -q "calling init: $libdir/libhsacl-sim.so\$" "$err" ||
         bad "$label: $libdir/libhsacl-sim.so not loaded"
      grep -q 'calling init: .*libhsa-runtime64' "$err" && bad "$label: ROCr was loaded"
   fi
   grep -q 'OK (0 of [0-9]* elements differ from the host)' <<<"$out" || bad "$label: wrong result"
   rm -f "$err"
}

if [ "$mode" = rocr ]; then
   check_run "scripts/rocr" env HSACL_PREFIX="$prefix" "$root/scripts/rocr" "$program"
   check_run "environment" env OCL_ICD_VENDORS="$prefix/share/hsacl/icd-vendors" \
      HSACL_RUNTIME=rocr LD_LIBRARY_PATH="$libdir/hsacl-kfd" "$program"
else
   check_run "sim" env OCL_ICD_VENDORS="$prefix/share/hsacl/icd-vendors" HSACL_RUNTIME=sim \
      "$program"
fi
[ $fail -eq 0 ] && echo "1 passed, 0 failed" || echo "0 passed, 1 failed"
exit $fail
