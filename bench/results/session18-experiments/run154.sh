#!/bin/bash
# Session 18 run 154: the verification's splits between two coverage checks, VERIFY_UNROLL 2 / 8
# against 4.7's 4 (committed 257fda4), 10^9 verified (not committable without the GPU tests: a lead).
set -u
B=.exp/s18
one() { # label bin W flags n [env]
  local lab=$1 bin=$2 w=$3 fl=$4 n=$5
  env ${6:-X=1} OCTAL_GPU_WINDOW=$w timeout 100 $bin solve .6 -n $n --gpu $fl --json -q > /tmp/$lab.json 2> /tmp/$lab.err
  echo "$lab W=$w n=$n $(python3 -c "import json; d=json.load(open('/tmp/$lab.json')); print(d['fnv1a64'], d['verified'], round(d['values_per_second']), round(d['seconds'],2))" 2>&1) $(grep -o 'gpu: spec.*beside it\|gpu: spec.*only)' /tmp/$lab.err | head -1)" | tee -a $OUT/res.txt
  grep -i "error" /tmp/$lab.err | head -3 | tee -a $OUT/res.txt
}
for v in u2 u8 47; do one chk-$v $B/octal-$v 3072 "" 2^26; done
for i in 1 2; do
  for v in 47 u8 u2; do one v$v-$i $B/octal-$v 3072 "" 1e9; done
done
