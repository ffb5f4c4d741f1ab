#!/bin/bash
# Session 14 run 99: the benchmark in one run with HEAD (0e2b3b1): Officers on the GPU at
# 2^20 .. 10^9, the CPU engine on the machine's 16 cores up to 10^8 (now measured at 10^8 itself).
set -u
nvidia-smi -L | tee -a $OUT/res.txt
nproc | tee -a $OUT/res.txt
/usr/bin/time -v .carry-gpu/octal-h bench .6 --gpu -n 1e9 --cpu-max 1e8 --json $OUT/bench-e9.json > $OUT/bench-e9.log 2> $OUT/bench-e9.err
cat $OUT/bench-e9.log | tee -a $OUT/res.txt
grep -E "Elapsed|Maximum resident" $OUT/bench-e9.err | tee -a $OUT/res.txt
