#!/bin/bash
# Session 7, run 51: a fresh heap marks its far options over several rounds (far_step a round,
# OCTAL_GPU_FAR_STEP; 0 = all in its first round, the committed behaviour), same binary.
set -u
mkdir -p /work && ln -sfn "$PWD" /work/main
C=.carry-gpu/octal-step
j() { python3 -c "import json,sys; d=json.load(sys.stdin); print(d['engine'], d['fnv1a64'], round(d['values_per_second']), d.get('max_value'), d['n'], d.get('table_corrections'))" 2>/dev/null || echo none; }
r() { local label="$1" t="$2" e="$3"; shift 3
  local out; out=$(env $e timeout $t $C solve "$@" --json -q 2>$OUT/err.tmp | j)
  echo "$label | $* | $out | $(grep -o 'gpu: spec[^;]*' $OUT/err.tmp | head -1)" | tee -a $OUT/res.txt; }
nvidia-smi -L | tee $OUT/res.txt
for i in 1 2; do for s in 0 256 384 512; do r "step $s" 40 "OCTAL_GPU_FAR_STEP=$s" .6 -n 2^26 --gpu; done; done
for s in 0 384 0 384; do r "step $s" 80 "OCTAL_GPU_FAR_STEP=$s" .6 -n 1e9 --gpu; done
OCTAL_GPU_FAR_STEP=384 timeout 280 .carry-gpu/gpu-test --nocapture --test-threads 1 2>&1 | tee $OUT/gpu-test.log | grep -E "test |result|differ|panicked" | tee -a $OUT/res.txt
