#!/bin/bash
# Session 17 run 139: H1 (an entering heap's far options split with an idle warp of its block, the halves joined at a named barrier) against 4.6 (debebb0).
set -u
nvidia-smi -L | tee -a $OUT/res.txt
one() { # label bin W flags n
  local lab=$1 bin=$2 w=$3 fl=$4 n=$5
  OCTAL_GPU_WINDOW=$w timeout 100 $bin solve .6 -n $n --gpu $fl --json -q > /tmp/$lab.json 2> /tmp/$lab.err
  echo "$lab W=$w n=$n $(python3 -c "import json; d=json.load(open('/tmp/$lab.json')); print(d['fnv1a64'], d['verified'], round(d['values_per_second']), round(d['seconds'],2))" 2>&1) $(grep -o 'gpu: spec.*beside it\|gpu: spec.*only)' /tmp/$lab.err | head -1)" | tee -a $OUT/res.txt
}
one chk-h1 .exp/octal-h1 3072 "" 2^26
one chk-h1w2048 .exp/octal-h1 2048 "" 2^26
for i in 1 2; do
  one s46-$i .exp/octal-46c 3072 --speculate-only 2e8
  for w in 3072 2560 2048; do one sh1w$w-$i .exp/octal-h1 $w --speculate-only 2e8; done
done
one v46 .exp/octal-46c 3072 "" 1e9
one vh1 .exp/octal-h1 3072 "" 1e9
