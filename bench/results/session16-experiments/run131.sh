#!/bin/bash
# Session 16 run 131: M2 (m2.patch: M1, and the far options of the block's next 1024 heaps
# (grid-wide) marked into their slots during the barrier's wait, so that an entering heap does
# nothing in its first round but take its guess from the slot) against 4.5 (new) and M1:
# verified at 2^26 (W = 4096, 3072), speculation alone at 2e8 alternating twice, windows 4096 /
# 3072 / 2048.
set -u
nvidia-smi -L | tee -a $OUT/res.txt
one() { # label bin W flags n
  local lab=$1 bin=$2 w=$3 fl=$4 n=$5
  OCTAL_GPU_WINDOW=$w timeout 100 $bin solve .6 -n $n --gpu $fl --json -q > $OUT/$lab.json 2> $OUT/$lab.err
  echo "$lab W=$w n=$n $(python3 -c "import json; d=json.load(open('$OUT/$lab.json')); print(d['fnv1a64'], d['verified'], round(d['values_per_second']), round(d['seconds'],2))" 2>&1) $(grep -o 'gpu: spec.*beside it\|gpu: spec.*only)' $OUT/$lab.err | head -1)" | tee -a $OUT/res.txt
}
one chk-m2w4096 .exp/octal-m2 4096 "" 2^26
one chk-m2w3072 .exp/octal-m2 3072 "" 2^26
for i in 1 2; do
  one snew-$i .exp/octal-new 4096 --speculate-only 2e8
  one sm1w3072-$i .exp/octal-m1 3072 --speculate-only 2e8
  for w in 4096 3072 2048; do one sm2w$w-$i .exp/octal-m2 $w --speculate-only 2e8; done
done
