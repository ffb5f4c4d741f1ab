#!/bin/bash
# Session 13 run 92: OCTAL_GPU_WINDOW = 4224 (32 warps x 132 blocks: every warp of every block has
# a heap each round) against the default 4096, alternating, Officers 2^26 (this tree's binary).
set -u
B=target/release/octal
for i in 1 2 3; do
  for w in 4096 4224; do
    OCTAL_GPU_WINDOW=$w timeout 90 $B bench .6 --gpu -n 2^26 --cpu-max 2^18 --json $OUT/bench-$w-$i.json > $OUT/bench-$w-$i.log 2>&1
    echo "W=$w ($i) $(tail -1 $OUT/bench-$w-$i.log)" | tee -a $OUT/res.txt
  done
done
