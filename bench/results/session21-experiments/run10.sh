#!/bin/bash
# Session 21 run 10: runs 8-9's hang found (stage M and the far blocks stopped 63 heaps past hi,
# a window of more than 64 heaps waits for entries past that); chain shapes warps x stage M's
# start: hashes (10 s limit), speculation to 2e8, the best verified to 10^9.
set -u
B=.exp
for v in w4n256 w4n224 w3n224 w2n192; do
for g in .6:1e6 .106:1e6 .77:1e6 .74:1e6; do
  c=${g%%:*}; n=${g#*:}
  echo "$v $c $n $(timeout 10 $B/octal-$v solve $c -n $n --gpu --json -q 2>/tmp/err | python3 -c "import json,sys; d=json.load(sys.stdin); print(d['fnv1a64'], d['verified'])" 2>&1 | tail -1) $(grep -o 'gpu: speculated.*' /tmp/err | cut -c1-110)" | tee -a $OUT/res.txt
done; done
for v in w4n256 w4n224 w3n224 w2n192; do
  OCTAL_GPU_KERNEL=chain timeout 15 $B/octal-$v solve .6 -n 2e8 --gpu --speculate-only --json -q > /tmp/$v.json 2> /tmp/$v.err
  echo "so-$v $(python3 -c "import json; d=json.load(open('/tmp/$v.json')); print(d['fnv1a64'], round(d['seconds'],2))" 2>&1 | tail -1) $(grep -o 'gpu: speculated.*' /tmp/$v.err | cut -c1-150)" | tee -a $OUT/res.txt
done
for v in w4n256 w4n224; do
  timeout 40 $B/octal-$v solve .6 -n 1e9 --gpu --json -q > /tmp/v$v.json 2> /tmp/v$v.err
  echo "v-$v $(python3 -c "import json; d=json.load(open('/tmp/v$v.json')); print(d['fnv1a64'], d['verified'], round(d['values_per_second']), round(d['seconds'],2))" 2>&1 | tail -1) $(grep -o 'gpu: speculated.*' /tmp/v$v.err | cut -c1-200)" | tee -a $OUT/res.txt
done
