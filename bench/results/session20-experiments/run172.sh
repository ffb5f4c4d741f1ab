#!/bin/bash
# Session 20 run 172: Nsight Compute source counters (SASS) on c2's spec, Officers 2^22, second launch.
set -u
N=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
B=.exp/s20/octal-c2
OCTAL_GPU_WINDOW=3072 timeout 300 $N --kernel-name spec --launch-skip 1 --launch-count 1 --section SourceCounters --section WarpStateStats \
  --page source --print-source sass --csv $B solve .6 -n 2^22 --gpu --speculate-only -q > $OUT/src.csv 2> $OUT/src.err
echo "exit $?"; wc -l $OUT/src.csv; head -3 $OUT/src.csv | cut -c1-600; tail -3 $OUT/src.err
