#!/bin/bash
# Session 16 run 128: on kernels-gen 4.5 (new): where a heap's time goes now (i45 =
# instr4-45.patch), SPREAD with 4.5's reduction (v2f1.patch) at W = 4096 / 3072 / 2048, and 4.5
# with a 32 ns sleep between the barrier's polls (45b1); speculation alone at 2e8, alternating.
set -u
nvidia-smi -L | tee -a $OUT/res.txt
one() { # label bin W flags n
  local lab=$1 bin=$2 w=$3 fl=$4 n=$5
  OCTAL_GPU_WINDOW=$w timeout 100 $bin solve .6 -n $n --gpu $fl --json -q > $OUT/$lab.json 2> $OUT/$lab.err
  echo "$lab W=$w n=$n $(python3 -c "import json; d=json.load(open('$OUT/$lab.json')); print(d['fnv1a64'], d['verified'], round(d['values_per_second']), round(d['seconds'],2))" 2>&1) $(grep -o 'gpu: spec.*beside it\|gpu: spec.*only)' $OUT/$lab.err | head -1)" | tee -a $OUT/res.txt
}
OCTAL_GPU_WINDOW=4096 timeout 100 .exp/octal-i45 solve .6 -n 2e8 --gpu --speculate-only -q > $OUT/i45.out 2> $OUT/i45.err
grep PHASES $OUT/i45.out | head -4 | tee -a $OUT/res.txt
one chk-v2f1 .exp/octal-v2f1 4096 "" 2^26
for i in 1 2; do
  one snew-$i .exp/octal-new 4096 --speculate-only 2e8
  one s45b1-$i .exp/octal-45b1 4096 --speculate-only 2e8
  for w in 4096 3072 2048; do one sv2f1w$w-$i .exp/octal-v2f1 $w --speculate-only 2e8; done
done
