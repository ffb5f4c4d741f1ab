#!/bin/bash
# Session 13 run 91: the window again with kernels-gen 4.4 (a round now reloads one window, not
# two, so a larger window costs less than it did in sessions 2-4): OCTAL_GPU_WINDOW = 3072, 4096
# (the default), 6144, 8192, alternating, Officers 2^24 and 2^26 (this tree's binary).
set -u
B=target/release/octal
nvidia-smi -L | tee -a $OUT/res.txt
for i in 1 2; do
  for w in 3072 4096 6144 8192; do
    OCTAL_GPU_WINDOW=$w timeout 90 $B bench .6 --gpu -n 2^26 --cpu-max 2^18 --json $OUT/bench-$w-$i.json > $OUT/bench-$w-$i.log 2>&1
    echo "W=$w ($i)" | tee -a $OUT/res.txt
    tail -2 $OUT/bench-$w-$i.log | tee -a $OUT/res.txt
  done
done
