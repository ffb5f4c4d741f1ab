#!/bin/bash
# Session 19 run 159: `pk` (mk.py pk: each option in shared memory one packed 32-bit word) against
# f4a5c68 (r19): Officers 2^26 hash, speculation alone at 2*10^8 and 10^9 verified, alternating.
set -u
B=.exp/s19
one() { # label bin W flags n [env]
  local lab=$1 bin=$2 w=$3 fl=$4 n=$5
  env ${6:-X=1} OCTAL_GPU_WINDOW=$w timeout 100 $bin solve .6 -n $n --gpu $fl --json -q > /tmp/$lab.json 2> /tmp/$lab.err
  echo "$lab W=$w n=$n $(python3 -c "import json; d=json.load(open('/tmp/$lab.json')); print(d['fnv1a64'], d['verified'], round(d['values_per_second']), round(d['seconds'],2))" 2>&1 | tail -1) $(grep -o 'gpu: spec.*beside it\|gpu: spec.*only)' /tmp/$lab.err | head -1)" | tee -a $OUT/res.txt
  grep -i "error" /tmp/$lab.err | head -3 | tee -a $OUT/res.txt
}
one chk-pk $B/octal-pk 3072 "" 2^26
for i in 1 2; do for v in r19 pk; do one so-$v-$i $B/octal-$v 3072 --speculate-only 2e8; done; done
for i in 1 2; do for v in r19 pk; do one v-$v-$i $B/octal-$v 3072 "" 1e9; done; done
