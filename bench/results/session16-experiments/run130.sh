#!/bin/bash
# Session 16 run 130: M1 (m1.patch on 4.5: a heap's options whose sources p has passed move into
# its far slot while thread 0 waits at the grid barrier, by the block's other warps, instead of
# at the start of the heap's turn) against 4.5 (new): verified at 2^26, speculation alone at 2e8
# alternating twice, verified at 1e9 alternating.
set -u
nvidia-smi -L | tee -a $OUT/res.txt
one() { # label bin W flags n
  local lab=$1 bin=$2 w=$3 fl=$4 n=$5
  OCTAL_GPU_WINDOW=$w timeout 100 $bin solve .6 -n $n --gpu $fl --json -q > $OUT/$lab.json 2> $OUT/$lab.err
  echo "$lab W=$w n=$n $(python3 -c "import json; d=json.load(open('$OUT/$lab.json')); print(d['fnv1a64'], d['verified'], round(d['values_per_second']), round(d['seconds'],2))" 2>&1) $(grep -o 'gpu: spec.*beside it\|gpu: spec.*only)' $OUT/$lab.err | head -1)" | tee -a $OUT/res.txt
}
one chk-m1 .exp/octal-m1 4096 "" 2^26
for i in 1 2; do for v in new m1; do one s$v-$i .exp/octal-$v 4096 --speculate-only 2e8; done; done
one sm1w3072 .exp/octal-m1 3072 --speculate-only 2e8
one sm1w6144 .exp/octal-m1 6144 --speculate-only 2e8
for v in m1 new; do one v$v .exp/octal-$v 4096 "" 1e9; done
