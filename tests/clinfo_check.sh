#!/usr/bin/env bash
# clinfo (Debian's) through the system ICD loader must list the hsacl platform and its
# gfx906 device and print every field without an error. $1 = path of clinfo.
set -u
out=$("$1" 2>&1)
status=$?
fail=0
echo "$out" > clinfo.out
[ $status -eq 0 ] || { echo "clinfo exited with $status"; fail=1; }
grep -Eq '^\s*Platform Name\s+hsacl$' <<<"$out" || { echo "no hsacl platform"; fail=1; }
grep -Eq '^\s*Device Name\s+gfx906$' <<<"$out" || { echo "no gfx906 device"; fail=1; }
grep -Eq '^\s*Number of devices\s+1$' <<<"$out" || { echo "device count is not 1"; fail=1; }
# clinfo reports failing queries as "<error: ...>" or "... failed" / "Invalid ...".
bad=$(grep -Ein '<error|error:|failed|invalid|CL_INVALID|CL_OUT_OF' <<<"$out" | grep -v 'Error Correction')
if [ -n "$bad" ]; then
   echo "clinfo printed errors:"; echo "$bad"; fail=1
fi
lines=$(wc -l <<<"$out")
echo "clinfo: $lines lines; $( [ $fail -eq 0 ] && echo ok || echo FAILED)"
[ $fail -eq 0 ] && echo "1 passed, 0 failed" || echo "0 passed, 1 failed"
exit $fail
