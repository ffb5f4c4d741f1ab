#!/bin/bash
# Session 7, run 45: the GPU tests on the device (two-byte codes: Officers with 10- and 12-bit
# codes against the CPU engine), and Officers 10^9 end to end with the committed kernels.
set -u
mkdir -p /work && ln -sfn "$PWD" /work/main
nvidia-smi -L | tee $OUT/res.txt
timeout 400 .carry-gpu/gpu-test --nocapture --test-threads 1 2>&1 | tee $OUT/gpu-test.log | grep -E "bit codes|test |result|skipped|differ|panicked" | tee -a $OUT/res.txt
