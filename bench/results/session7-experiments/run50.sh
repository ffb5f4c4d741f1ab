#!/bin/bash
# Session 7, run 50: `octal bench --gpu -n 1e9` (GPU engine against the CPU engine on 16 cores,
# one run), and the no-GPU CLI test's other branch (gpu-info succeeds here).
set -u
nvidia-smi -L | tee $OUT/res.txt
.carry-gpu/octal-bench gpu-info | tee -a $OUT/res.txt
timeout 560 .carry-gpu/octal-bench bench .6 -n 1e9 --gpu --json $OUT/bench-gpu.json 2>&1 | tee -a $OUT/res.txt
