#!/bin/bash
# Session 18 run 152: kernels-gen 4.7 with the streams' priorities: the random codes' GPU test.
set -u
mkdir -p /work && ln -sfn "$PWD" /work/main
.exp/s18/gpu-test --nocapture --test-threads 1 gpu_values_equal 2>&1 | tail -30 > $OUT/gputest.log
tail -3 $OUT/gputest.log
