#!/bin/bash
# Session 13 run 83: the mailbox exchange in three forms against kernels-gen 4.3 (A =
# .carry-gpu/octal-base, 2051168), alternating, Officers 2^24: V1 = run 82's (mailboxes 256 bytes
# apart, polled without pause), C = the mailboxes one after the other (a warp polls 512 bytes in
# a row), CS = C with __nanosleep(100) between a thread's polls (sleep.patch).
set -u
A=.carry-gpu/octal-base; V1=.carry-gpu/octal-v1; C=.carry-gpu/octal-c; CS=.carry-gpu/octal-cs
nvidia-smi -L | tee -a $OUT/res.txt
for i in 1 2; do
  for x in A V1 C CS; do
    bin=${!x}
    timeout 60 $bin bench .6 --gpu -n 2^24 --cpu-max 2^18 --json $OUT/bench-$x$i.json > $OUT/bench-$x$i.log 2>&1
    echo "$x$i $(tail -1 $OUT/bench-$x$i.log)" | tee -a $OUT/res.txt
  done
done
