#!/bin/bash
# Session 11 run 66: the device opened beside discovery (Gpu::open_beside). Small runs, old
# (d811f8e, octal-trace: the same code with timestamps) against new, alternating; the bench's
# small rows of both; then the GPU tests and the SIGKILL test of a --gpu run on the new code.
set -u
mkdir -p /work && ln -sfn "$PWD" /work/main
B=target/release/octal; OLD=.carry-gpu/octal-trace
nvidia-smi -L | tee -a $OUT/res.txt
for i in 1 2 3; do
  for b in $OLD $B; do
    for n in 1e6 1e7; do
      s=$( { /usr/bin/time -f "%e" $b solve .6 -n $n --gpu --json > $OUT/j.json; } 2>&1 | tail -1)
      echo "$b n=$n wall $s s $(python3 -c "import json;d=json.load(open('$OUT/j.json'));print(d['fnv1a64'],d['seconds'],d['values_per_second'])")" | tee -a $OUT/res.txt
    done
  done
done
for b in $OLD $B; do
  $b bench .6 --gpu -n 2^24 --cpu-max 2^22 --json $OUT/bench-$(basename $b).json 2>&1 | tail -5 | tee -a $OUT/res.txt
done
timeout 200 .carry-gpu/runs-test sigkill --nocapture --test-threads 1 2>&1 | tee $OUT/runs-test.log | tail -6 | tee -a $OUT/res.txt
timeout 330 .carry-gpu/gpu-test --nocapture --test-threads 1 2>&1 | tee $OUT/gpu-test.log | grep -E "test |result|skipped|differ|panicked" | tee -a $OUT/res.txt
