#!/bin/bash
# Session 18 run 151: kernels-gen 4.7 with the streams' priorities: the issue's benchmark, then
# the GPU tests but the games-and-Officers one (run 150) and the random codes (run 152).
set -u
mkdir -p /work && ln -sfn "$PWD" /work/main
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv | tee $OUT/bench.log
timeout 400 target/release/octal bench .6 --gpu -n 1e9 --cpu-max 1e8 --json $OUT/bench.json >> $OUT/bench.log 2>&1
cat $OUT/bench.log
.exp/s18/gpu-test --nocapture --test-threads 1 --skip gpu_games_and_officers --skip gpu_values_equal 2>&1 | tail -30 > $OUT/gputest.log
tail -3 $OUT/gputest.log
