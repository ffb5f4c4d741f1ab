#!/bin/bash
# Session 16 run 120: HEAD's grid barrier with a sleep of 32 / 64 / 128 / 256 ns between polls
# (b1.patch with the sleep changed), against HEAD, Officers 2e8 speculation alone, alternating,
# two passes; then HEAD and the best guess (64) verified at 1e9.
set -u
nvidia-smi -L | tee -a $OUT/res.txt
one() { # label bin W flags n
  local lab=$1 bin=$2 w=$3 fl=$4 n=$5
  OCTAL_GPU_WINDOW=$w timeout 100 $bin solve .6 -n $n --gpu $fl --json -q > $OUT/$lab.json 2> $OUT/$lab.err
  echo "$lab W=$w n=$n $(python3 -c "import json; d=json.load(open('$OUT/$lab.json')); print(d['fnv1a64'], d['verified'], round(d['values_per_second']), round(d['seconds'],2))" 2>&1) $(grep -o 'gpu: spec.*beside it\|gpu: spec.*only)' $OUT/$lab.err | head -1)" | tee -a $OUT/res.txt
}
for i in 1 2; do
  for v in base b1 ns64 ns128 ns256; do one s$v-$i .exp/octal-$v 4096 --speculate-only 2e8; done
done
for v in base ns128 b1; do one v$v .exp/octal-$v 4096 "" 1e9; done
