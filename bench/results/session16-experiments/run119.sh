#!/bin/bash
# Session 16 run 119: the grid barrier of HEAD's spec kernel in four forms (b1: a 32 ns sleep
# between polls; b3: the last arriver, told by an atomic add's return, releases a flag on its own
# cache line, polled with acquire loads; b4: b3 with relaxed polls and one fence; b5: HEAD's
# counter with relaxed polls and one fence), against HEAD, Officers; verified at 2^26, then
# speculation alone at 2e8, alternating, two passes.
set -u
nvidia-smi -L | tee -a $OUT/res.txt
one() { # label bin W flags n
  local lab=$1 bin=$2 w=$3 fl=$4 n=$5
  OCTAL_GPU_WINDOW=$w timeout 100 $bin solve .6 -n $n --gpu $fl --json -q > $OUT/$lab.json 2> $OUT/$lab.err
  echo "$lab W=$w n=$n $(python3 -c "import json; d=json.load(open('$OUT/$lab.json')); print(d['fnv1a64'], d['verified'], round(d['values_per_second']), round(d['seconds'],2))" 2>&1) $(grep -o 'gpu: spec.*beside it\|gpu: spec.*only)' $OUT/$lab.err | head -1)" | tee -a $OUT/res.txt
}
for v in b1 b3 b4 b5; do one chk-$v .exp/octal-$v 4096 "" 2^26; done
for i in 1 2; do
  for v in base b1 b3 b4 b5; do one s$v-$i .exp/octal-$v 4096 --speculate-only 2e8; done
done
