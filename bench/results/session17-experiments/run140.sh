#!/bin/bash
# Session 17 run 140: F1 (a non-fresh heap marks only the codes its far slot lacks: the slot's 8 words in registers, selected without shared memory; __launch_bounds__(1024, 1): 48 registers) and B1 (4.6 with __launch_bounds__(1024, 1) alone: 40 registers) against 4.6 (debebb0, 32 registers).
set -u
nvidia-smi -L | tee -a $OUT/res.txt
one() { # label bin W flags n
  local lab=$1 bin=$2 w=$3 fl=$4 n=$5
  OCTAL_GPU_WINDOW=$w timeout 100 $bin solve .6 -n $n --gpu $fl --json -q > /tmp/$lab.json 2> /tmp/$lab.err
  echo "$lab W=$w n=$n $(python3 -c "import json; d=json.load(open('/tmp/$lab.json')); print(d['fnv1a64'], d['verified'], round(d['values_per_second']), round(d['seconds'],2))" 2>&1) $(grep -o 'gpu: spec.*beside it\|gpu: spec.*only)' /tmp/$lab.err | head -1)" | tee -a $OUT/res.txt
}
one chk-f1 .exp/octal-f1 3072 "" 2^26
for i in 1 2; do
  one s46-$i .exp/octal-46c 3072 --speculate-only 2e8
  one sf1-$i .exp/octal-f1 3072 --speculate-only 2e8
  one sb1-$i .exp/octal-b1 3072 --speculate-only 2e8
done
one v46 .exp/octal-46c 3072 "" 1e9
one vf1 .exp/octal-f1 3072 "" 1e9
one vb1 .exp/octal-b1 3072 "" 1e9
