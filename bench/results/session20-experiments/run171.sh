#!/bin/bash
# Session 20 run 171: c2 (counts, chunks of the entering heaps dealt to all warps, changes listed)
# by the changes each reload finds) against kernels-gen 4.9 (r19e): hashes, then speculation
# alone and verified, alternating.
set -u
B=.exp/s20
for v in c2; do
for g in .6:2^26 .106:1e6 .16:1e6 .36:1e6 .64:1e6 .74:1e6 .77:1e6; do
  c=${g%%:*}; n=${g#*:}
  echo "$v $c $n $(timeout 60 $B/octal-$v solve $c -n $n --gpu --json -q 2>/tmp/err-$v | python3 -c "import json,sys; d=json.load(sys.stdin); print(d['fnv1a64'], d['verified'])" 2>&1 | tail -1) $(head -c 300 /tmp/err-$v)" | tee -a $OUT/res.txt
done; done
one() { # label bin W flags n
  local lab=$1 bin=$2 w=$3 fl=$4 n=$5
  OCTAL_GPU_WINDOW=$w timeout 100 $bin solve .6 -n $n --gpu $fl --json -q > /tmp/$lab.json 2> /tmp/$lab.err
  echo "$lab W=$w n=$n $(python3 -c "import json; d=json.load(open('/tmp/$lab.json')); print(d['fnv1a64'], d['verified'], round(d['values_per_second']), round(d['seconds'],2))" 2>&1 | tail -1) $(grep -o 'gpu: spec.*beside it\|gpu: spec.*only)' /tmp/$lab.err | head -1) $(grep -v 'gpu: spec' /tmp/$lab.err | head -c 300)" | tee -a $OUT/res.txt
}
for i in 1 2; do one so-r19e-$i $B/octal-r19e 3072 --speculate-only 2e8; one so-c2-$i $B/octal-c2 3072 --speculate-only 2e8; done
one so-c2-4092 $B/octal-c2 4092 --speculate-only 2e8
one so-c2-2560 $B/octal-c2 2560 --speculate-only 2e8
one v-r19e-1 $B/octal-r19e 3072 "" 1e9; one v-c2-1 $B/octal-c2 3072 "" 1e9
one v-c2-4092 $B/octal-c2 4092 "" 1e9
