#!/bin/sh
# The software KFD exports exactly the hsaKmt* functions ROCr imports, at HSAKMT_1.
# $1: libhsakmt.so.1, $2: ROCr's libhsa-runtime64.so.1
set -eu
want=$(nm -D --undefined-only "$2" | grep -o 'hsaKmt[A-Za-z]*@HSAKMT_1' | sort -u)
have=$(nm -D --defined-only "$1" | awk '$2 == "T" {print $3}' | sed 's/@@/@/' | sort -u)
if [ "$want" != "$have" ]; then
   echo "exports differ from ROCr's imports:"
   printf '%s\n' "$want" > /tmp/kfd_want.$$; printf '%s\n' "$have" > /tmp/kfd_have.$$
   diff /tmp/kfd_want.$$ /tmp/kfd_have.$$ || true
   rm -f /tmp/kfd_want.$$ /tmp/kfd_have.$$
   exit 1
fi
echo "kfd_test_symbols: $(printf '%s\n' "$have" | wc -l) exports, all imported by ROCr"
