#!/bin/bash
# Session 16 run 124: F1 (f1.patch: the 8-word reduction after marking as loads, then
# independent reductions, then clears and stores) and F12 (f12.patch: F1, and the settle loop's
# contended shared atomics on the far slot replaced by marking in the lanes' bitsets and one
# reduction or-ed into the slot) against HEAD: verified at 2^26, speculation alone at 2e8
# alternating twice, verified at 1e9.
set -u
nvidia-smi -L | tee -a $OUT/res.txt
one() { # label bin W flags n
  local lab=$1 bin=$2 w=$3 fl=$4 n=$5
  OCTAL_GPU_WINDOW=$w timeout 100 $bin solve .6 -n $n --gpu $fl --json -q > $OUT/$lab.json 2> $OUT/$lab.err
  echo "$lab W=$w n=$n $(python3 -c "import json; d=json.load(open('$OUT/$lab.json')); print(d['fnv1a64'], d['verified'], round(d['values_per_second']), round(d['seconds'],2))" 2>&1) $(grep -o 'gpu: spec.*beside it\|gpu: spec.*only)' $OUT/$lab.err | head -1)" | tee -a $OUT/res.txt
}
for v in f1 f12; do one chk-$v .exp/octal-$v 4096 "" 2^26; done
for i in 1 2; do
  for v in base f1 f12; do one s$v-$i .exp/octal-$v 4096 --speculate-only 2e8; done
done
for w in 3072 6144; do one sf12w$w .exp/octal-f12 $w --speculate-only 2e8; done
for v in f12 base; do one v$v .exp/octal-$v 4096 "" 1e9; done
