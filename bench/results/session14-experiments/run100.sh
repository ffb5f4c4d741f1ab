#!/bin/bash
# Session 14 run 100: where the end-to-end rate stands against the speculation alone, HEAD
# (0e2b3b1), Officers 10^9: --speculate-only (no verify kernel beside it) and the verified run,
# alternating, twice.
set -u
for i in 1 2; do
  for mode in spec verified; do
    flag=$([ $mode = spec ] && echo --speculate-only || echo)
    timeout 60 .carry-gpu/octal-h solve .6 -n 1e9 --gpu $flag --json -q > $OUT/$mode$i.json 2> $OUT/$mode$i.err
    echo "$mode$i $(python3 -c "import json; d=json.load(open('$OUT/$mode$i.json')); print(d['fnv1a64'], d['verified'], round(d['values_per_second']), round(d['seconds'],2))") $(grep -o 'gpu: spec.*beside it' $OUT/$mode$i.err)" | tee -a $OUT/res.txt
  done
done
