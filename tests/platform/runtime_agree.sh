#!/usr/bin/env bash
# The two runtimes describe one device: every value clinfo reads (`clinfo --raw`: every
# platform and device query) must be the same on hsacl's software runtime and on AMD's ROCr
# over the software KFD, except CL_DRIVER_VERSION, which names the runtime. Both front ends
# model the same GPU (the first of HSACL_SIM_GPUS, gfx906 by default); a difference is a bug in one of them (or in how the driver reads
# it). Found by the CTS smoke tier on both runtimes (conformance/cts/RESULTS.md).
# usage: runtime_agree.sh CLINFO KFD_DIR   (environment: the build tree's HSACL_TEST_ENV)
set -u
clinfo=$1 kfd=$2
fail=0
bad() { echo "FAILED: $*"; fail=1; }
sim=$(HSACL_RUNTIME=sim "$clinfo" --raw 2>&1) || bad "clinfo on the software runtime: exit $?"
rocr=$(HSACL_RUNTIME=rocr LD_LIBRARY_PATH="$kfd${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
       "$clinfo" --raw 2>&1) || bad "clinfo on ROCr: exit $?"
target=${HSACL_SIM_GPUS:-gfx906}
target=${target%%,*}
grep -q "CL_DRIVER_VERSION .*(HSA runtime: software $target agent)" <<<"$sim" ||
   bad "the first run is not on the software runtime"
grep -q 'CL_DRIVER_VERSION .*(HSA runtime: ROCr)' <<<"$rocr" || bad "the second run is not on ROCr"
for out in "$sim" "$rocr"; do
   grep -Eq "CL_DEVICE_NAME +$target\$" <<<"$out" || bad "no $target device"
done
n=$(grep -c 'CL_DEVICE_' <<<"$sim")
[ "$n" -ge 50 ] || bad "only $n device queries answered"
d=$(diff <(grep -v CL_DRIVER_VERSION <<<"$sim") <(grep -v CL_DRIVER_VERSION <<<"$rocr"))
[ -z "$d" ] || bad "the runtimes differ (< software runtime, > ROCr):"$'\n'"$d"
echo "runtime_agree: $n device queries compared"
[ $fail -eq 0 ] && echo "1 passed, 0 failed" || echo "0 passed, 1 failed"
exit $fail
