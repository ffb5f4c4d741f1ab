#!/bin/bash
# Session 16 run 118: every block's round in HEAD's spec kernel (instr2.patch: clock64 stamps and
# the options each block marks a round, printed by every block of launches over 20000 rounds),
# Officers 2e8 speculation alone, windows 4096 and 2048.
set -u
for w in 4096 2048; do
  echo "== W=$w" | tee -a $OUT/res.txt
  OCTAL_GPU_WINDOW=$w timeout 100 .exp/octal-instr2 solve .6 -n 2e8 --gpu --speculate-only -q > $OUT/i$w.out 2> $OUT/i$w.err
  python3 .exp/an117.py $OUT/i$w.out | tee -a $OUT/res.txt
  grep -o 'gpu: spec.*only)' $OUT/i$w.err | tee -a $OUT/res.txt
done
