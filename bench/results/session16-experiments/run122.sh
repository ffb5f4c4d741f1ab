#!/bin/bash
# Session 16 run 122: how long a warp takes for its heap, by the options it marks (instr3.patch:
# each warp's own clock64 at the round's start and after its heaps, binned by options marked in
# steps of 128, bin -1 = no heap; blocks 0 and 66), Officers 2e8 speculation alone, W = 4096, 2048.
set -u
for w in 4096 2048; do
  echo "== W=$w" | tee -a $OUT/res.txt
  OCTAL_GPU_WINDOW=$w timeout 100 .exp/octal-instr3 solve .6 -n 2e8 --gpu --speculate-only -q > $OUT/i$w.out 2> $OUT/i$w.err
  grep -E "BINS|INSTR" $OUT/i$w.out | head -8 | tee -a $OUT/res.txt
  grep -o 'gpu: spec.*only)' $OUT/i$w.err | tee -a $OUT/res.txt
done
