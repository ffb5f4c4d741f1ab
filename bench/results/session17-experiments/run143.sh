#!/bin/bash
# Session 17 run 143: the review's kernel tidy-up (R1: one if/else for fresh and other heaps,
# settled[] written only for a fresh heap; same meaning) through the GPU tests (games and
# Officers 2^26), then 2e8 speculation alone alternating with 4.6 (debebb0).
set -u
mkdir -p /work && ln -sfn "$PWD" /work/main
.exp/gpu-test --nocapture --test-threads 1 gpu_games_and_officers 2>&1 | tail -14 | tee -a $OUT/res.txt
for i in 1 2; do
  for b in 46c r1; do
    OCTAL_GPU_WINDOW=3072 timeout 100 .exp/octal-$b solve .6 -n 2e8 --gpu --speculate-only --json -q > /tmp/$b.json 2> /tmp/$b.err
    echo "$b-$i $(python3 -c "import json; d=json.load(open('/tmp/$b.json')); print(d['fnv1a64'])") $(grep -o 'gpu: spec.*only)' /tmp/$b.err)" | tee -a $OUT/res.txt
  done
done
