#!/bin/bash
# Session 18 run 155: VERIFY_UNROLL 8 held to 32 registers (u8lb8: 4 blocks beside `spec`, as 4.7) and VERIFY_UNROLL 6 (32 registers) against 4.7, 10^9 verified (a lead, not committable without the GPU tests).
set -u
B=.exp/s18
one() { # label bin W flags n [env]
  local lab=$1 bin=$2 w=$3 fl=$4 n=$5
  env ${6:-X=1} OCTAL_GPU_WINDOW=$w timeout 100 $bin solve .6 -n $n --gpu $fl --json -q > /tmp/$lab.json 2> /tmp/$lab.err
  echo "$lab W=$w n=$n $(python3 -c "import json; d=json.load(open('/tmp/$lab.json')); print(d['fnv1a64'], d['verified'], round(d['values_per_second']), round(d['seconds'],2))" 2>&1) $(grep -o 'gpu: spec.*beside it\|gpu: spec.*only)' /tmp/$lab.err | head -1)" | tee -a $OUT/res.txt
  grep -i "error" /tmp/$lab.err | head -3 | tee -a $OUT/res.txt
}
for v in u8lb8 u6; do one chk-$v $B/octal-$v 3072 "" 2^26; done
for i in 1 2; do
  for v in 47 u8lb8 u6; do one v$v-$i $B/octal-$v 3072 "" 1e9; done
done
