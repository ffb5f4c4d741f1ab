#!/bin/bash
# Session 3, run 17: Nsight Compute on the committed spec kernel (Officers 2^22, one launch).
set -u
B=.carry-gpu/octal-final
N=$(command -v ncu || ls /usr/local/cuda*/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
echo "ncu: $N" | tee $OUT/ncu.txt
[ -n "$N" ] || { ls /usr/local/cuda*/bin | tee -a $OUT/ncu.txt; exit 0; }
timeout 400 $N --kernel-name spec --launch-skip 1 --launch-count 1 \
  --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section ComputeWorkloadAnalysis \
  --section MemoryWorkloadAnalysis --section InstructionStats --section Occupancy \
  $B solve .6 -n 2^22 --gpu -q >> $OUT/ncu.txt 2>&1
echo "exit $?" >> $OUT/ncu.txt
timeout 100 $N --kernel-name spec --launch-skip 1 --launch-count 1 --section SourceCounters --page source --print-source sass $B solve .6 -n 2^22 --gpu -q > $OUT/ncu-sass.txt 2>&1
echo "exit $?" >> $OUT/ncu-sass.txt
