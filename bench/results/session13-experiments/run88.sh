#!/bin/bash
# Session 13 run 88 (run 87: the shared ring cut to reach + one window, 32 KiB for Officers, made
# `spec` 30% slower): does a block's shared-memory footprint move the rates? H (half-reload.patch,
# ring 64 KiB, ~115 KiB a spec block) with 32 or 64 KiB of unused dynamic shared memory added
# (P32, P64), against A = kernels-gen 4.3 (.carry-gpu/octal-base) and H, alternating, 2^24.
set -u
A=.carry-gpu/octal-base; H=.carry-gpu/octal-h; P32=.carry-gpu/octal-p32; P64=.carry-gpu/octal-p64
nvidia-smi -L | tee -a $OUT/res.txt
for i in 1 2; do
  for x in A H P32 P64; do
    bin=${!x}
    timeout 60 $bin bench .6 --gpu -n 2^24 --cpu-max 2^18 --json $OUT/bench-$x$i.json > $OUT/bench-$x$i.log 2>&1
    echo "$x$i $(tail -1 $OUT/bench-$x$i.log)" | tee -a $OUT/res.txt
  done
done
