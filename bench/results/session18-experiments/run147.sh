#!/bin/bash
# Session 18 run 147: x1 (arrival by atom.acq_rel returning the count), x3 (codes stored by an atomic
# xor on their aligned word; the reload covers the next round's entering heaps), x1x3, against the
# committed kernels (caf71d3, "base").
set -u
nvidia-smi -L | tee -a $OUT/res.txt
one() { # label bin W flags n
  local lab=$1 bin=$2 w=$3 fl=$4 n=$5
  OCTAL_GPU_WINDOW=$w timeout 100 $bin solve .6 -n $n --gpu $fl --json -q > /tmp/$lab.json 2> /tmp/$lab.err
  echo "$lab W=$w n=$n $(python3 -c "import json; d=json.load(open('/tmp/$lab.json')); print(d['fnv1a64'], d['verified'], round(d['values_per_second']), round(d['seconds'],2))" 2>&1) $(grep -o 'gpu: spec.*beside it\|gpu: spec.*only)' /tmp/$lab.err | head -1)" | tee -a $OUT/res.txt
  grep -i error /tmp/$lab.err | head -3 | tee -a $OUT/res.txt
}
B=.exp/s18
for v in x1 x3 x1x3; do one chk-$v $B/octal-$v 3072 "" 2^26; done
for i in 1 2; do
  for v in base x1 x3 x1x3; do one s$v-$i $B/octal-$v 3072 --speculate-only 2e8; done
done
for v in base x1 x3 x1x3; do one v$v $B/octal-$v 3072 "" 1e9; done
