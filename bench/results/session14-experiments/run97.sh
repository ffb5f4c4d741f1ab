#!/bin/bash
# Session 14 run 97: VP = verify marking only the values its check looks at (rare-class and below
# the candidate; verify-pred.patch) against H = HEAD (0e2b3b1), alternating, Officers 2^26
# (bench: values checked against the CPU at 2^18), three pairs; then each at 10^9 once.
set -u
H=.carry-gpu/octal-h; VP=.carry-gpu/octal-vp
nvidia-smi -L | tee -a $OUT/res.txt
for i in 1 2 3; do
  for x in H VP; do
    bin=${!x}
    timeout 90 $bin bench .6 --gpu -n 2^26 --cpu-max 2^18 --json $OUT/bench-$x$i.json > $OUT/bench-$x$i.log 2>&1
    echo "$x$i $(tail -1 $OUT/bench-$x$i.log)" | tee -a $OUT/res.txt
  done
done
for x in VP H; do
  bin=${!x}
  timeout 60 $bin solve .6 -n 1e9 --gpu --json -q > $OUT/e9-$x.json 2> $OUT/e9-$x.err
  echo "$x 1e9 $(python3 -c "import json; d=json.load(open('$OUT/e9-$x.json')); print(d['fnv1a64'], round(d['values_per_second']))") $(grep -o 'gpu: spec.*beside it' $OUT/e9-$x.err)" | tee -a $OUT/res.txt
done
