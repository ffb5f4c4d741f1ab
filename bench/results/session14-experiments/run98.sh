#!/bin/bash
# Session 14 run 98: the GPU tests of HEAD (0e2b3b1), with the new one: every game of games/ with
# a sparse space to 10^6 and Officers to 2^26, value by value against the CPU's generic engine.
set -u
nvidia-smi -L | tee -a $OUT/res.txt
mkdir -p /work && ln -sfn "$PWD" /work/main
timeout 560 .carry-gpu/gpu-test --nocapture --test-threads 1 2>&1 | tee $OUT/gpu-test.log | grep -E "to [0-9]+|bit codes|test |result|skipped|differ|panicked|modules compiled|refused" | tee -a $OUT/res.txt
