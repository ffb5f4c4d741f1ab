#!/bin/bash
# Session 14 run 101: --speculate-only on the device after the label fix (HEAD): the stderr line,
# and the new GPU test that checks it.
set -u
mkdir -p /work && ln -sfn "$PWD" /work/main
.carry-gpu/octal-h2 solve .6 -n 1e7 --gpu --speculate-only 2>&1 | tee -a $OUT/res.txt
timeout 200 .carry-gpu/gpu-test gpu_speculation_alone --nocapture 2>&1 | grep -E "test |result|panicked|skipped" | tee -a $OUT/res.txt
