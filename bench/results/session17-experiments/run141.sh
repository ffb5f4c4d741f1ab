#!/bin/bash
# Session 17 run 141: I5 (i5.patch: 4.6 with clock64 stamps: the round's phases, when its last
# fresh and last other heap finish, when the settling in the barrier's wait finishes), Officers
# 2e8 speculation alone at W = 2048 / 3072 / 4096; then 4.6 itself at 3072 for the stamps' cost.
set -u
nvidia-smi -L | tee -a $OUT/res.txt
for w in 3072 2048 4096; do
  OCTAL_GPU_WINDOW=$w timeout 100 .exp/octal-i5 solve .6 -n 2e8 --gpu --speculate-only -q > /tmp/i5-$w.out 2> /tmp/i5-$w.err
  grep I5 /tmp/i5-$w.out | tee -a $OUT/res.txt
  grep -o 'gpu: spec.*only)' /tmp/i5-$w.err | sed "s/^/i5 W=$w /" | tee -a $OUT/res.txt
done
OCTAL_GPU_WINDOW=3072 timeout 100 .exp/octal-46c solve .6 -n 2e8 --gpu --speculate-only -q > /dev/null 2> /tmp/b.err
grep -o 'gpu: spec.*only)' /tmp/b.err | sed "s/^/4.6 W=3072 /" | tee -a $OUT/res.txt
