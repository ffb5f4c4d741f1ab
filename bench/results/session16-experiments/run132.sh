#!/bin/bash
# Session 16 run 132: M1 (m1.patch) at windows 2560 / 3072 / 3584 / 4096 against 4.5 at 4096,
# speculation alone at 2e8; then verified at 1e9, alternating twice: 4.5 at 4096, M1 at 3072 and
# at 4096.
set -u
nvidia-smi -L | tee -a $OUT/res.txt
one() { # label bin W flags n
  local lab=$1 bin=$2 w=$3 fl=$4 n=$5
  OCTAL_GPU_WINDOW=$w timeout 100 $bin solve .6 -n $n --gpu $fl --json -q > $OUT/$lab.json 2> $OUT/$lab.err
  echo "$lab W=$w n=$n $(python3 -c "import json; d=json.load(open('$OUT/$lab.json')); print(d['fnv1a64'], d['verified'], round(d['values_per_second']), round(d['seconds'],2))" 2>&1) $(grep -o 'gpu: spec.*beside it\|gpu: spec.*only)' $OUT/$lab.err | head -1)" | tee -a $OUT/res.txt
}
for w in 2560 3584; do one sm1w$w .exp/octal-m1 $w --speculate-only 2e8; done
for i in 1 2; do
  one vnew-$i .exp/octal-new 4096 "" 1e9
  one vm1w3072-$i .exp/octal-m1 3072 "" 1e9
  one vm1w4096-$i .exp/octal-m1 4096 "" 1e9
done
