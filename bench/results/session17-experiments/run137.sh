#!/bin/bash
# Session 17 run 137: E1 (kill_mex: a heap's mex from its far slot's free codes struck out by
# rank, no lane bitsets, no 8-word reduction for non-fresh heaps) against 4.6 (debebb0).
set -u
nvidia-smi -L | tee -a $OUT/res.txt
one() { # label bin W flags n
  local lab=$1 bin=$2 w=$3 fl=$4 n=$5
  OCTAL_GPU_WINDOW=$w timeout 100 $bin solve .6 -n $n --gpu $fl --json -q > $OUT/$lab.json 2> $OUT/$lab.err
  echo "$lab W=$w n=$n $(python3 -c "import json; d=json.load(open('$OUT/$lab.json')); print(d['fnv1a64'], d['verified'], round(d['values_per_second']), round(d['seconds'],2))" 2>&1) $(grep -o 'gpu: spec.*beside it\|gpu: spec.*only)' $OUT/$lab.err | head -1)" | tee -a $OUT/res.txt
}
one chk-e1 .exp/octal-e1 3072 "" 2^26
for i in 1 2; do
  one s46-$i .exp/octal-46c 3072 --speculate-only 2e8
  for w in 3072 4096 2048; do one se1w$w-$i .exp/octal-e1 $w --speculate-only 2e8; done
done
one v46 .exp/octal-46c 3072 "" 1e9
one ve1 .exp/octal-e1 3072 "" 1e9
