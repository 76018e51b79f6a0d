#!/usr/bin/env bash
# The GPUs of both runtimes look the same: runs kfd_test_gpus ($1, with the code object $2 and
# $3 GPUs) on ROCr over the software KFD (LD_LIBRARY_PATH=$4) and on the software HSA runtime
# (LD_LIBRARY_PATH=$5), each must pass, and the "id:" lines (node ids, UUIDs, PCI locations,
# pools, access, pointer info) of the two runs must be identical.
set -u
exe=$1 hsaco=$2 gpus=$3 kfd_dir=$4 sim_dir=$5
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
HSACL_KFD_GPUS=$gpus LD_LIBRARY_PATH=$kfd_dir "$exe" "$hsaco" "$gpus" > "$tmp/rocr" 2>&1 ||
   { echo "on ROCr over the software KFD:"; cat "$tmp/rocr"; fail=1; }
HSACL_KFD_GPUS=$gpus LD_LIBRARY_PATH=$sim_dir "$exe" "$hsaco" "$gpus" > "$tmp/sim" 2>&1 ||
   { echo "on the software runtime:"; cat "$tmp/sim"; fail=1; }
grep '^id:' "$tmp/rocr" > "$tmp/rocr.id"
grep '^id:' "$tmp/sim" > "$tmp/sim.id"
lines=$(wc -l < "$tmp/rocr.id")
[ "$lines" -ge $((3 * gpus)) ] || { echo "only $lines id lines"; fail=1; }
if ! diff -u --label rocr --label sim "$tmp/rocr.id" "$tmp/sim.id"; then
   echo "the runtimes describe the GPUs differently"; fail=1
fi
cat "$tmp/sim.id"
[ $fail -eq 0 ] && echo "kfd_test_gpus_same: $lines id lines identical on both runtimes"
exit $fail
