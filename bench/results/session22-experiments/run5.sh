#!/bin/bash
# Session 22 runs 2-5: the lean chain alone (lean.cu, built here with nvcc), one warp, a window of
# 32 heaps: candidates from the options reaching DS or more back (made on the host from Officers'
# true codes, off22.bin = `octal export` of `octal solve .6 -n 2^22 --out d`, not committed: 8 MiB;
# opts.h from gen.py), the chain striking [32, DS) as heaps enter and comparing the 14 options
# under 32 every round with 4 * NW candidates. This is run 5's form (lean.cu as committed: the
# candidates queued in shared memory by cp.async, phase stamps). Runs 2-4 looped over
# DS in 32 64 128 256 (512) and NW in 1 2 with earlier lean.cu versions (see the record).
set -u
cd .exp/lean
export PATH=$PATH:/usr/local/cuda/bin
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee $OUT/res.txt
for ds in 32 128; do for nw in 1; do
  nvcc -O3 -arch=sm_90 -std=c++17 --extended-lambda -DDS=$ds -DNW=$nw -o lean_${ds}_${nw} lean.cu 2>&1 | grep -v "^$" | head -5
  timeout 120 ./lean_${ds}_${nw} 2 2>&1 | tee -a $OUT/res.txt
done; done
cuobjdump -sass ./lean_32_1 > $OUT/sass32.txt 2>&1
