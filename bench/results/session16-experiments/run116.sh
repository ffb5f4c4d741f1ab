#!/bin/bash
# Session 16 run 116: V0 = HEAD with the block's first heap kept incrementally (no 64-bit division
# a round); V2 = V0 + SPREAD (fresh heaps' far options in chunks over the block's warps, guess 0,
# indices kept incrementally); against HEAD, Officers, speculation alone at 2e8, alternating.
set -u
nvidia-smi -L | tee -a $OUT/res.txt
one() { # label bin W flags n
  local lab=$1 bin=$2 w=$3 fl=$4 n=$5
  OCTAL_GPU_WINDOW=$w timeout 100 $bin solve .6 -n $n --gpu $fl --json -q > $OUT/$lab.json 2> $OUT/$lab.err
  echo "$lab W=$w n=$n $(python3 -c "import json; d=json.load(open('$OUT/$lab.json')); print(d['fnv1a64'], d['verified'], round(d['values_per_second']), round(d['seconds'],2))" 2>&1) $(grep -o 'gpu: spec.*beside it\|gpu: spec.*only)' $OUT/$lab.err | head -1)" | tee -a $OUT/res.txt
}
one chk-v0 .exp/octal-v0 4096 "" 2^26
one chk-v2 .exp/octal-v2 4096 "" 2^26
for i in 1 2; do
  one b-$i .exp/octal-base 4096 --speculate-only 2e8
  one v0-$i .exp/octal-v0 4096 --speculate-only 2e8
  for w in 2048 3072 4096; do one v2w$w-$i .exp/octal-v2 $w --speculate-only 2e8; done
done
