#!/usr/bin/env bash
# clinfo (Debian's) through the system ICD loader must list the hsacl platform and its
# devices ($2 of them, default 1), of the software GPU's target (the first of HSACL_SIM_GPUS,
# else gfx906), and print every field without an error.
# $1 = path of clinfo.
set -u
want=${2:-1}
out=$("$1" 2>&1)
status=$?
fail=0
echo "$out" > clinfo.out
[ $status -eq 0 ] || { echo "clinfo exited with $status"; fail=1; }
grep -Eq '^\s*Platform Name\s+hsacl$' <<<"$out" || { echo "no hsacl platform"; fail=1; }
# The device list (two-space indent); the NULL-platform section repeats names deeper.
target=${HSACL_SIM_GPUS:-gfx906}
target=${target%%,*}
names=$(grep -Ec "^  Device Name\s+$target\$" <<<"$out")
[ "$names" -eq "$want" ] || { echo "$names $target devices listed, not $want"; fail=1; }
grep -Eq "^\s*Number of devices\s+$want\$" <<<"$out" || { echo "device count is not $want"; fail=1; }
# clinfo reports failing queries as "<error: ...>" or "... failed" / "Invalid ...".
bad=$(grep -Ein '<error|error:|failed|invalid|CL_INVALID|CL_OUT_OF' <<<"$out" | grep -v 'Error Correction')
if [ -n "$bad" ]; then
   echo "clinfo printed errors:"; echo "$bad"; fail=1
fi
lines=$(wc -l <<<"$out")
echo "clinfo: $lines lines; $( [ $fail -eq 0 ] && echo ok || echo FAILED)"
[ $fail -eq 0 ] && echo "1 passed, 0 failed" || echo "0 passed, 1 failed"
exit $fail
