#!/bin/bash
# Session 16 run 117: where a round's cycles go in HEAD's spec kernel (instr.patch: clock64 stamps
# per round, printed by blocks 0 and 66 of every launch of more than 20000 rounds), Officers 2e8,
# speculation alone, windows 2048 / 3072 / 4096 / 6144; then the uninstrumented binary at 4096.
set -u
nvidia-smi -L | tee -a $OUT/res.txt
for w in 4096 2048 3072 6144; do
  echo "== W=$w" | tee -a $OUT/res.txt
  OCTAL_GPU_WINDOW=$w timeout 100 .exp/octal-instr solve .6 -n 2e8 --gpu --speculate-only -q > $OUT/i$w.out 2> $OUT/i$w.err
  grep INSTR $OUT/i$w.out | head -30 | tee -a $OUT/res.txt
  grep -o 'gpu: spec.*only)' $OUT/i$w.err | tee -a $OUT/res.txt
done
OCTAL_GPU_WINDOW=4096 timeout 100 .exp/octal-base solve .6 -n 2e8 --gpu --speculate-only -q 2>&1 >/dev/null | grep -o 'gpu: spec.*only)' | tee -a $OUT/res.txt
