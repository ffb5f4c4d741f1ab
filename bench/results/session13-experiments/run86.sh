#!/bin/bash
# Session 13 run 86: M2 = the mailboxes read once the grid has arrived at a relaxed counter (no
# release fence before the arrival: the entries' tags make them safe; mailbox-counter.patch)
# against A = kernels-gen 4.3 (.carry-gpu/octal-base, 2051168) and H (half-reload.patch),
# alternating, Officers 2^24.
set -u
A=.carry-gpu/octal-base; H=.carry-gpu/octal-h; M2=.carry-gpu/octal-m2
nvidia-smi -L | tee -a $OUT/res.txt
for i in 1 2; do
  for x in A H M2; do
    bin=${!x}
    timeout 60 $bin bench .6 --gpu -n 2^24 --cpu-max 2^18 --json $OUT/bench-$x$i.json > $OUT/bench-$x$i.log 2>&1
    echo "$x$i $(tail -1 $OUT/bench-$x$i.log)" | tee -a $OUT/res.txt
  done
done
