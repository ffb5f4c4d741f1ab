#!/bin/bash
# Session 13 run 81: kernels-gen 5 (the blocks exchange each round's codes through mailboxes,
# which are also the grid barrier: no arrival counter, no slot reads, no ring reload) against
# kernels-gen 4.3 (.carry-gpu/octal-base = 2051168) in the same run, alternating; then the values
# of both to 1e8 on the GPU (fnv1a64 compared).
set -u
A=.carry-gpu/octal-base; B=target/release/octal
nvidia-smi -L | tee -a $OUT/res.txt
for i in 1 2; do
  for x in A B; do
    bin=${!x}
    timeout 60 $bin bench .6 --gpu -n 2^24 --cpu-max 2^20 --json $OUT/bench-$x$i.json > $OUT/bench-$x$i.log 2>&1
    echo "$x$i $(tail -1 $OUT/bench-$x$i.log)" | tee -a $OUT/res.txt
  done
done
for x in A B; do
  bin=${!x}
  timeout 60 $bin solve .6 -n 1e8 --gpu --json -q > $OUT/solve-$x.json 2> $OUT/solve-$x.err
  echo "$x 1e8: $(python3 -c "import json; d=json.load(open('$OUT/solve-$x.json')); print(d['fnv1a64'], d['n'])" 2>&1) $(grep -o 'gpu: spec.*' $OUT/solve-$x.err | head -1)" | tee -a $OUT/res.txt
done
