#!/bin/bash
# Session 18 run 153: the verification's blocks padded with unused dynamic shared memory
# (OCTAL_EXP_VSMEM bytes), so that fewer of them sit beside `spec` on an SM: 0 (4 blocks of 256
# threads beside it), 20 KiB (3), 32 KiB (2); 10^9 verified, the committed 4.7 with priorities.
set -u
B=.exp/s18
one() { # label bin W flags n [env]
  local lab=$1 bin=$2 w=$3 fl=$4 n=$5
  env ${6:-X=1} OCTAL_GPU_WINDOW=$w timeout 100 $bin solve .6 -n $n --gpu $fl --json -q > /tmp/$lab.json 2> /tmp/$lab.err
  echo "$lab W=$w n=$n $(python3 -c "import json; d=json.load(open('/tmp/$lab.json')); print(d['fnv1a64'], d['verified'], round(d['values_per_second']), round(d['seconds'],2))" 2>&1) $(grep -o 'gpu: spec.*beside it\|gpu: spec.*only)' /tmp/$lab.err | head -1)" | tee -a $OUT/res.txt
  grep -i "error" /tmp/$lab.err | head -3 | tee -a $OUT/res.txt
}
one warm $B/octal-vsm 3072 "" 1e8
for i in 1 2; do
  for pad in 0 20480 32768; do one v$pad-$i $B/octal-vsm 3072 "" 1e9 OCTAL_EXP_VSMEM=$pad; done
done
