#!/bin/bash
# Session 16 run 123: where a non-fresh heap's time goes in HEAD's spec kernel (instr4.patch:
# lane 0's clock64 at the heap's start, after the settle loop, after the marking loop, after the
# 8-word reduction, after the mex and after lane 0's store and block minimum; blocks 0 and 66),
# Officers 2e8 speculation alone, W = 4096 and 2048.
set -u
for w in 4096 2048; do
  echo "== W=$w" | tee -a $OUT/res.txt
  OCTAL_GPU_WINDOW=$w timeout 100 .exp/octal-instr4 solve .6 -n 2e8 --gpu --speculate-only -q > $OUT/i$w.out 2> $OUT/i$w.err
  grep -E "PHASES" $OUT/i$w.out | head -4 | tee -a $OUT/res.txt
  grep -o 'gpu: spec.*only)' $OUT/i$w.err | tee -a $OUT/res.txt
done
