#!/bin/bash
# Session 13 run 85: H = kernels-gen 4.3 reloading only the window [p, end) after a round instead
# of two windows from p (half-reload.patch; a heap in its first round then always stores its code)
# against A = kernels-gen 4.3 (.carry-gpu/octal-base, 2051168), alternating, Officers 2^24.
set -u
A=.carry-gpu/octal-base; H=.carry-gpu/octal-h
nvidia-smi -L | tee -a $OUT/res.txt
for i in 1 2 3; do
  for x in A H; do
    bin=${!x}
    timeout 60 $bin bench .6 --gpu -n 2^24 --cpu-max 2^18 --json $OUT/bench-$x$i.json > $OUT/bench-$x$i.log 2>&1
    echo "$x$i $(tail -1 $OUT/bench-$x$i.log)" | tee -a $OUT/res.txt
  done
done
