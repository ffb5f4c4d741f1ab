#!/bin/bash
# Session 16 run 129: T (t.patch on 4.5: the bitset reduction by lanes, lane w oring word w of
# the warp's 32 bitsets with 16-byte loads, no REDUX) and SPREAD on T with atomic ors (v2t.patch),
# against 4.5 (new): verified at 2^26 (fnv 88bd577a8cb9383f), speculation alone at 2e8
# (072876f708fae3bf), alternating, twice.
set -u
nvidia-smi -L | tee -a $OUT/res.txt
one() { # label bin W flags n
  local lab=$1 bin=$2 w=$3 fl=$4 n=$5
  OCTAL_GPU_WINDOW=$w timeout 100 $bin solve .6 -n $n --gpu $fl --json -q > $OUT/$lab.json 2> $OUT/$lab.err
  echo "$lab W=$w n=$n $(python3 -c "import json; d=json.load(open('$OUT/$lab.json')); print(d['fnv1a64'], d['verified'], round(d['values_per_second']), round(d['seconds'],2))" 2>&1) $(grep -o 'gpu: spec.*beside it\|gpu: spec.*only)' $OUT/$lab.err | head -1)" | tee -a $OUT/res.txt
}
one chk-t .exp/octal-t 4096 "" 2^26
one chk-v2t .exp/octal-v2t 3072 "" 2^26
for i in 1 2; do
  one snew-$i .exp/octal-new 4096 --speculate-only 2e8
  one st-$i .exp/octal-t 4096 --speculate-only 2e8
  for w in 4096 3072 2048; do one sv2tw$w-$i .exp/octal-v2t $w --speculate-only 2e8; done
done
