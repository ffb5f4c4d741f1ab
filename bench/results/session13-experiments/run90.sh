#!/bin/bash
# Session 13 run 90, the record: H1 = this tree (kernels-gen 4.4, one spec block an SM) with
# `octal bench --gpu -n 1e9 --cpu-max 1e8` (the CPU engine's 16 threads to 10^8 for the ratio),
# and A = kernels-gen 4.3 (.carry-gpu/octal-base, 2051168) on the same ladder to 10^9 (its CPU
# baseline only to 2^20), in the same run.
set -u
A=.carry-gpu/octal-base; H1=target/release/octal
nvidia-smi -L | tee -a $OUT/res.txt
/usr/bin/time -f "wall %e s, max rss %M kB" timeout 280 $H1 bench --gpu -n 1e9 --cpu-max 1e8 --json $OUT/bench-H1.json > $OUT/bench-H1.log 2>&1
tail -9 $OUT/bench-H1.log | tee -a $OUT/res.txt
/usr/bin/time -f "wall %e s, max rss %M kB" timeout 200 $A bench --gpu -n 1e9 --cpu-max 2^20 --json $OUT/bench-A.json > $OUT/bench-A.log 2>&1
tail -9 $OUT/bench-A.log | tee -a $OUT/res.txt
