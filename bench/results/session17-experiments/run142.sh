#!/bin/bash
# Session 17 run 142: I6 (i6.patch: 4.6 with thread 0's stamps only: the compute phase's mean and
# spread, the barrier's wait when the block arrived last (the barrier's own latency) and otherwise,
# the wait by arrival position), Officers 2e8 speculation alone at W = 3072 / 2048 / 4096.
set -u
nvidia-smi -L | tee -a $OUT/res.txt
for w in 3072 2048 4096; do
  OCTAL_GPU_WINDOW=$w timeout 100 .exp/octal-i6 solve .6 -n 2e8 --gpu --speculate-only -q > /tmp/i6-$w.out 2> /tmp/i6-$w.err
  grep I6 /tmp/i6-$w.out | head -8 | tee -a $OUT/res.txt
  grep -o 'gpu: spec.*only)' /tmp/i6-$w.err | sed "s/^/i6 W=$w /" | tee -a $OUT/res.txt
done
