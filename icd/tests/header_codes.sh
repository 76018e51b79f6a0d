#!/bin/sh
# Writes every negative CL_* constant of the OpenCL headers in $1 as { "NAME", value },
# lines, minus the ones that are not error codes (build status values, float limits, a
# list terminator), for icd_unit_test's check of icd/icd_errors.def. Runs at build time.
set -eu
grep -hE '^#define CL_[A-Z0-9_]+[[:space:]]+-[0-9]+' "$1"/*.h |
   awk '{ print $2, $3 }' |
   grep -v -E '^CL_BUILD_(ERROR|IN_PROGRESS|NONE) |_MIN_(10_)?EXP |^CL_PARTITION_BY_NAMES_LIST_END' |
   sort -u | awk '{ printf "{ \"%s\", %s },\n", $1, $2 }' > "$2"
