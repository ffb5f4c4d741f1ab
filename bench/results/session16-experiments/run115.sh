#!/bin/bash
# Session 16 run 115: SPREAD (fresh heaps' far options in chunks dealt to the block's warps, the
# entering heap's first-round guess 0) against HEAD, Officers; speculation alone and verified.
set -u
B=.exp/octal-base; S=.exp/octal-spread
nvidia-smi -L | tee -a $OUT/res.txt
one() { # label bin W flags n
  local lab=$1 bin=$2 w=$3 fl=$4 n=$5
  OCTAL_GPU_WINDOW=$w timeout 100 $bin solve .6 -n $n --gpu $fl --json -q > $OUT/$lab.json 2> $OUT/$lab.err
  echo "$lab W=$w n=$n $(python3 -c "import json; d=json.load(open('$OUT/$lab.json')); print(d['fnv1a64'], d['verified'], round(d['values_per_second']), round(d['seconds'],2))" 2>&1) $(grep -o 'gpu: spec.*' $OUT/$lab.err | head -1)" | tee -a $OUT/res.txt
}
one chk-base $B 4096 "" 2^26
one chk-spread $S 4096 "" 2^26
one chk-spread2k $S 2048 "" 2^26
for i in 1 2; do
  one sb4096-$i $B 4096 --speculate-only 2e8
  for w in 1536 2048 2560 3072 4096; do one ss$w-$i $S $w --speculate-only 2e8; done
done
one vb-1e9 $B 4096 "" 1e9
one vs2048-1e9 $S 2048 "" 1e9
one vs3072-1e9 $S 3072 "" 1e9
