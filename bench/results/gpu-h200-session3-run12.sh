#!/bin/bash
# Session 3, run 12: where a round's time goes (clock64 per phase, thread 0 of blocks 0 and 77):
# committed kernel (old-prof), change lists (new-prof), change lists polled by one warp (warp-prof).
set -u
X=.carry-gpu/octal-exp; E=$PWD/.carry-gpu/exp
for v in old-prof new-prof warp-prof old-prof; do
  for w in 4096; do
    echo "== $v W$w" | tee -a $OUT/prof.txt
    OCTAL_GPU_SOURCE=$E/$v.cu OCTAL_GPU_WINDOW=$w timeout 60 $X solve .6 -n 2^26 --gpu -q > $OUT/o.txt 2> $OUT/e.txt
    grep -h "prof\|gpu: spec\|fnv\|Fnv\|FNV" $OUT/o.txt $OUT/e.txt | tee -a $OUT/prof.txt
  done
done
