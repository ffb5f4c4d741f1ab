#!/bin/bash
# Session 16 run 126: the GPU tests left unfinished by run 125's time limit (kernels-gen 4.5).
set -u
mkdir -p /work && ln -sfn "$PWD" /work/main
timeout 540 .exp/gpu-test gpu_values_equal gpu_wide_codes --nocapture --test-threads 1 2>&1 | tee $OUT/gpu-test.log | grep -E "to [0-9]+|bit codes|test |result|skipped|differ|panicked|refused" | tee -a $OUT/res.txt
