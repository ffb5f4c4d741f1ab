#!/bin/bash
# Session 18 run 150: kernels-gen 4.7 (atom arrival) with the streams' priorities: the GPU tests'
# games-and-Officers test, then the benchmark.
set -u
mkdir -p /work && ln -sfn "$PWD" /work/main
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv | tee $OUT/bench.log
.exp/s18/gpu-test --nocapture --test-threads 1 gpu_games_and_officers 2>&1 | tail -14 > $OUT/gputest.log
tail -3 $OUT/gputest.log
timeout 420 target/release/octal bench .6 --gpu -n 1e9 --cpu-max 1e8 --json > $OUT/bench.json 2>> $OUT/bench.log
tail -12 $OUT/bench.log
