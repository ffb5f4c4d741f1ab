#!/bin/bash
# Session 19 run 161: the random-code GPU test on kernels-gen 4.8, then 4.8 (r19b) against 4.7
# (r19): speculation alone at 2*10^8 and Officers 10^9 verified, alternating.
set -u
mkdir -p /work && ln -sfn "$PWD" /work/main
B=.exp/s19
$B/gpu-test --nocapture --test-threads 1 gpu_values_equal > $OUT/gputest-values.log 2>&1; echo "values rc=$?" | tee -a $OUT/res.txt
grep -h "test result\|FAIL\|panick" $OUT/gputest-values.log | cut -c1-250 | tee -a $OUT/res.txt
one() { # label bin W flags n [env]
  local lab=$1 bin=$2 w=$3 fl=$4 n=$5
  env ${6:-X=1} OCTAL_GPU_WINDOW=$w timeout 100 $bin solve .6 -n $n --gpu $fl --json -q > /tmp/$lab.json 2> /tmp/$lab.err
  echo "$lab W=$w n=$n $(python3 -c "import json; d=json.load(open('/tmp/$lab.json')); print(d['fnv1a64'], d['verified'], round(d['values_per_second']), round(d['seconds'],2))" 2>&1 | tail -1) $(grep -o 'gpu: spec.*beside it\|gpu: spec.*only)' /tmp/$lab.err | head -1)" | tee -a $OUT/res.txt
}
for i in 1 2; do for v in r19 r19b; do one so-$v-$i $B/octal-$v 3072 --speculate-only 2e8; done; done
for i in 1 2; do for v in r19 r19b; do one v-$v-$i $B/octal-$v 3072 "" 1e9; done; done
