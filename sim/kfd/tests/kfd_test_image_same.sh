#!/usr/bin/env bash
# Both runtimes implement the image extension alike: runs kfd_test_image or
# kfd_test_image_kernel ($1, with the arguments after $3) on ROCr over the software KFD
# (LD_LIBRARY_PATH=$2) and on the software HSA runtime (LD_LIBRARY_PATH=$3); each must pass,
# and their "id:" lines (capabilities, sizes, descriptor bytes, S# words, the bytes
# import/export/copy/clear leave, what image built-ins return) must be identical.
set -u
exe=$1 kfd_dir=$2 sim_dir=$3
shift 3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
LD_LIBRARY_PATH=$kfd_dir "$exe" "$@" > "$tmp/rocr" 2>&1 ||
   { echo "on ROCr over the software KFD:"; tail -40 "$tmp/rocr"; fail=1; }
LD_LIBRARY_PATH=$sim_dir "$exe" "$@" > "$tmp/sim" 2>&1 ||
   { echo "on the software runtime:"; tail -40 "$tmp/sim"; fail=1; }
grep '^id:' "$tmp/rocr" > "$tmp/rocr.id"
grep '^id:' "$tmp/sim" > "$tmp/sim.id"
lines=$(wc -l < "$tmp/rocr.id")
[ "$lines" -ge 20 ] || { echo "only $lines id lines"; fail=1; }
if ! diff -u --label rocr --label sim "$tmp/rocr.id" "$tmp/sim.id"; then
   echo "the runtimes' image extensions differ"; fail=1
fi
grep '^info:' "$tmp/rocr" | sed 's/^/rocr /'
grep '^info:' "$tmp/sim" | sed 's/^/sim /'
[ $fail -eq 0 ] && echo "kfd_test_image_same ($(basename "$exe")): $lines id lines identical on both runtimes"
exit $fail
