#!/bin/bash
# Session 13 run 84: the mailbox exchange with a pause between a thread's polls: S200, S400 = C with
# __nanosleep(200), (400); R200 = S200 with relaxed gpu-scoped loads and stores instead of volatile;
# against kernels-gen 4.3 (A = .carry-gpu/octal-base, 2051168), alternating, Officers 2^24.
set -u
A=.carry-gpu/octal-base; S200=.carry-gpu/octal-s200; S400=.carry-gpu/octal-s400; R200=.carry-gpu/octal-r200
nvidia-smi -L | tee -a $OUT/res.txt
for i in 1 2; do
  for x in A S200 S400 R200; do
    bin=${!x}
    timeout 60 $bin bench .6 --gpu -n 2^24 --cpu-max 2^18 --json $OUT/bench-$x$i.json > $OUT/bench-$x$i.log 2>&1
    echo "$x$i $(tail -1 $OUT/bench-$x$i.log)" | tee -a $OUT/res.txt
  done
done
