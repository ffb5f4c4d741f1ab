#!/bin/bash
# Session 22 run 1: HEAD (95fa675, kernels-gen 4.9) on the H200 again: every GPU test
# (games to 10^6, Officers to 2^26, random and wide codes, a small ring, speculation labelled),
# then the issue's benchmark (the SM clock sampled beside it): `octal bench .6 --gpu -n 1e9 --cpu-max 1e8 --json`.
set -u
mkdir -p /work && ln -sfn "$PWD" /work/main
B=.exp/s22
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv | tee $OUT/res.txt
nproc | tee -a $OUT/res.txt
start=$(date +%s)
$B/gpu-test --nocapture --test-threads 1 > $OUT/gputest.log 2>&1; echo "gpu tests rc=$? in $(( $(date +%s) - start )) s" | tee -a $OUT/res.txt
grep -h "test result\|FAIL\|panick\|skip" $OUT/gputest.log | cut -c1-250 | tee -a $OUT/res.txt
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $OUT/bench.log
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,utilization.gpu --format=csv -lms 500 > $OUT/clocks.csv 2>&1 &
SMI=$!
timeout 420 $B/octal bench .6 --gpu -n 1e9 --cpu-max 1e8 --json $OUT/bench.json >> $OUT/bench.log 2>&1
echo "bench rc=$?" >> $OUT/bench.log
kill $SMI 2>/dev/null
cat $OUT/bench.log
