#!/bin/bash
# Session 16 run 125: kernels-gen 4.5 (F1 in the product: the marking's 8-word reduction as loads,
# independent reductions, then stores). The GPU tests (values against the CPU engine: Officers to
# 2^26, every game to 10^6, random codes, wide codes, a small ring); HEAD (4.4) and 4.5 verified
# at 1e9, alternating, twice; the issue's benchmark with 4.5.
set -u
mkdir -p /work && ln -sfn "$PWD" /work/main
nvidia-smi -L | tee -a $OUT/res.txt
timeout 400 .exp/gpu-test --test-threads 1 2>&1 | grep -E "^test |test result|panicked|skipped" | tee -a $OUT/res.txt
one() { # label bin W flags n
  local lab=$1 bin=$2 w=$3 fl=$4 n=$5
  OCTAL_GPU_WINDOW=$w timeout 100 $bin solve .6 -n $n --gpu $fl --json -q > $OUT/$lab.json 2> $OUT/$lab.err
  echo "$lab W=$w n=$n $(python3 -c "import json; d=json.load(open('$OUT/$lab.json')); print(d['fnv1a64'], d['verified'], round(d['values_per_second']), round(d['seconds'],2))" 2>&1) $(grep -o 'gpu: spec.*beside it\|gpu: spec.*only)' $OUT/$lab.err | head -1)" | tee -a $OUT/res.txt
}
for i in 1 2; do for v in base new; do one v$v-$i .exp/octal-$v 4096 "" 1e9; done; done
timeout 400 .exp/octal-new bench .6 --gpu -n 1e9 --cpu-max 1e8 --json $OUT/bench-e9.json > $OUT/bench-e9.log 2>&1
tail -12 $OUT/bench-e9.log | tee -a $OUT/res.txt
