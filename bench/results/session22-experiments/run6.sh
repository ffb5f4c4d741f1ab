#!/bin/bash
# Session 22 run 6: session 15's CPU chain fed by the GPU, again on today's host: the chain alone
# (chain3.c) idle and beside 8 busy loops, then hyb3 single-threaded (run 111's best, D2 = 768 and
# 1024), idle and beside 3 busy loops. Speculation only; hyb3 checks fnv1a64 at 1e8.
set -u
cd .exp/hyb
lscpu | grep -E "Model name|MHz" | tee $OUT/res.txt
export PATH=$PATH:/usr/local/cuda/bin
gcc -O3 -march=sapphirerapids -o chain3 chain3.c 2>&1 | head -3
nvcc -O3 -arch=sm_90 -Xcompiler "-O3 -march=sapphirerapids" -o hyb3 hyb3.cu -lpthread 2>&1 | grep -i error
run() { echo "== $*"; timeout 60 ./hyb3 "$@" | grep -v "^T1 [0-9]:"; }
{
echo "== chain3 alone"; taskset -c 0 ./chain3 136 1024 | tail -2
for c in 1 2 3 4 5 6 7 8; do taskset -c $c sh -c 'while :; do :; done' & done
sleep 0.5
echo "== chain3 with 8 busy loops on cpus 1-8"; taskset -c 0 ./chain3 136 1024 | tail -2
kill %1 %2 %3 %4 %5 %6 %7 %8 2>/dev/null; wait 2>/dev/null
run 1e8 136 768 0 128 8 4096 3
run 1e8 136 1024 0 128 8 4096 3
run 1e8 136 768 0 128 8 4096 3
for c in 12 13 14; do taskset -c $c sh -c 'while :; do :; done' & done
echo "with 3 busy loops"
run 1e8 136 768 0 128 8 4096 3
run 1e8 136 1024 0 128 8 4096 3
kill %1 %2 %3 2>/dev/null; wait 2>/dev/null
} 2>&1 | tee -a $OUT/res.txt
