#!/usr/bin/env bash
# ctest hip.rocminfo: AMD's rocminfo on ROCr over the software KFD (scripts/rocminfo) reports
# the board the KFD describes (docs/kfd.md): one CPU agent, gfx906 GPU agents with 60 CUs and
# the board's ISA name, for the default board, for mi50 and for two GPUs. The system's /dev
# is left as it was, and without namespaces the script fails and says why.
# Usage: rocminfo_check.sh <scripts/rocminfo>
set -euo pipefail
run=$1
fail() { echo "rocminfo_check: $*" >&2; exit 1; }

had_kfd=0
[ -e /dev/kfd ] && had_kfd=1

# check <expected GPU count> <expected ISA name> [VAR=value...]
check() {
   local gpus=$1 isa=$2 out
   shift 2
   out=$(env "$@" "$run" 2>&1) || { echo "$out" >&2; fail "scripts/rocminfo failed ($*)"; }
   grep -q 'ROCk module is loaded' <<<"$out" || { echo "$out" >&2; fail "no 'ROCk module is loaded' ($*)"; }
   grep -q '^\*\*\* Done \*\*\*' <<<"$out" || { echo "$out" >&2; fail "rocminfo did not finish ($*)"; }
   local n
   n=$(grep -c '^  Device Type: *CPU' <<<"$out" || true)
   [ "$n" = 1 ] || fail "$n CPU agents, want 1 ($*)"
   n=$(grep -c '^  Device Type: *GPU' <<<"$out" || true)
   [ "$n" = "$gpus" ] || fail "$n GPU agents, want $gpus ($*)"
   n=$(grep -c '^  Name: *gfx906 *$' <<<"$out" || true)
   [ "$n" = "$gpus" ] || fail "$n agents named gfx906, want $gpus ($*)"
   n=$(grep -c '^  Marketing Name: *hsacl software gfx906 *$' <<<"$out" || true)
   [ "$n" = "$gpus" ] || fail "$n GPUs marketed as 'hsacl software gfx906', want $gpus ($*)"
   n=$(grep -c '^  Compute Unit: *60 *$' <<<"$out" || true)
   [ "$n" = "$gpus" ] || fail "$n GPUs with 60 compute units, want $gpus ($*)"
   n=$(grep -c "^      Name: *$isa *\$" <<<"$out" || true)
   [ "$n" = "$gpus" ] || fail "$n ISAs named $isa, want $gpus ($*)"
}

check 1 'amdgcn-amd-amdhsa--gfx906:sramecc-:xnack-'
check 1 'amdgcn-amd-amdhsa--gfx906:sramecc[+]:xnack-' HSACL_KFD_BOARD=mi50
check 2 'amdgcn-amd-amdhsa--gfx906:sramecc-:xnack-' HSACL_KFD_GPUS=2

[ -e /dev/kfd ] && [ "$had_kfd" = 0 ] && fail "/dev/kfd appeared outside the namespace"

# Without user namespaces it must fail, naming the cause (an unshare that always fails).
fake=$(mktemp -d)
trap 'rm -rf "$fake"' EXIT
printf '#!/bin/sh\necho "unshare: unshare failed: Operation not permitted" >&2\nexit 1\n' \
   > "$fake/unshare"
chmod +x "$fake/unshare"
if out=$(PATH="$fake:$PATH" "$run" 2>&1); then
   fail "scripts/rocminfo succeeded without namespaces"
fi
grep -q 'cannot make a user + mount namespace' <<<"$out" ||
   fail "scripts/rocminfo without namespaces said: $out"
echo "rocminfo_check: ok"
