#!/bin/bash
# Session 19 run 164: the random-code GPU test on kernels-gen 4.9, then the benchmark with
# 4.9 (r19e): `octal bench .6 --gpu -n 1e9 --cpu-max 1e8 --json`.
set -u
mkdir -p /work && ln -sfn "$PWD" /work/main
B=.exp/s19
$B/gpu-test --nocapture --test-threads 1 gpu_values_equal > $OUT/gputest-values.log 2>&1; echo "values rc=$?" | tee -a $OUT/res.txt
grep -h "test result\|FAIL\|panick" $OUT/gputest-values.log | cut -c1-250 | tee -a $OUT/res.txt
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv | tee $OUT/bench.log
timeout 400 $B/octal-r19e bench .6 --gpu -n 1e9 --cpu-max 1e8 --json $OUT/bench.json >> $OUT/bench.log 2>&1
cat $OUT/bench.log
