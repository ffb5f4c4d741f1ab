#!/bin/bash
# Session 18 run 149: priorities + x1 (atom arrival) against priorities alone, 10^9 verified.
set -u
B=.exp/s18
one() { # label bin W flags n [env]
  local lab=$1 bin=$2 w=$3 fl=$4 n=$5
  env ${6:-X=1} OCTAL_GPU_WINDOW=$w timeout 100 $bin solve .6 -n $n --gpu $fl --json -q > /tmp/$lab.json 2> /tmp/$lab.err
  echo "$lab W=$w n=$n $(python3 -c "import json; d=json.load(open('/tmp/$lab.json')); print(d['fnv1a64'], d['verified'], round(d['values_per_second']), round(d['seconds'],2))" 2>&1) $(grep -o 'gpu: spec.*beside it\|gpu: spec.*only)' /tmp/$lab.err | head -1)" | tee -a $OUT/res.txt
  grep -i "error" /tmp/$lab.err | head -3 | tee -a $OUT/res.txt
}
for i in 1 2; do
  one vprio-$i $B/octal-prio 3072 "" 1e9 OCTAL_EXP_PRIO=1
  one vpx1-$i $B/octal-px1 3072 "" 1e9 OCTAL_EXP_PRIO=1
done
one vpx1-4096 $B/octal-px1 4096 "" 1e9 OCTAL_EXP_PRIO=1
one vpx1-2560 $B/octal-px1 2560 "" 1e9 OCTAL_EXP_PRIO=1
