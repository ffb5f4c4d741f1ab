#!/bin/bash
# Session 10, run 63 (f56a35e's kernels with this session's test change): the GPU tests, and the
# SIGKILL test of a run directory on the CPU and on the GPU (tests/runs.rs: Officers 2^28 with
# --gpu, the run and eight resumes killed at random moments, each checked, then finished and
# compared with an uninterrupted run).
set -u
mkdir -p /work && ln -sfn "$PWD" /work/main
nvidia-smi -L | tee -a $OUT/res.txt
timeout 200 .carry-gpu/runs-test sigkill --nocapture --test-threads 1 2>&1 | tee $OUT/runs-test.log | tail -8 | tee -a $OUT/res.txt
timeout 330 .carry-gpu/gpu-test --nocapture --test-threads 1 2>&1 | tee $OUT/gpu-test.log | grep -E "0.6 |bit codes|test |result|skipped|differ|panicked|modules compiled" | tee -a $OUT/res.txt
