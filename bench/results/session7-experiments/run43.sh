#!/bin/bash
# Session 7, run 43: speculation by one cluster (spec_cluster + far, OCTAL_GPU_CLUSTER) against
# kernels-gen 4.1 (same binary, no variable).
set -u
C=.carry-gpu/octal-c1
j() { python3 -c "import json,sys; d=json.load(sys.stdin); print(d['engine'], d['fnv1a64'], round(d['values_per_second']), d.get('max_value'), d['n'], d.get('table_corrections'))" 2>/dev/null || echo none; }
# r LABEL SECONDS "ENV=.. ENV=.." ARGS...
r() { local label="$1" t="$2" e="$3"; shift 3
  local out; out=$(env $e timeout $t $C solve "$@" --json -q 2>$OUT/err.tmp | j)
  echo "$label | $* | $out | $(grep -o 'gpu: spec.*' $OUT/err.tmp | head -1) | $(grep -v 'gpu: spec' $OUT/err.tmp | tail -2 | tr '\n' ' ')" | tee -a $OUT/res.txt; }
nvidia-smi -L | tee $OUT/res.txt
r "kg4.1" 30 "X=1" .6 -n 2^22 --gpu
r "c16 w1024" 20 "OCTAL_GPU_CLUSTER=16 OCTAL_GPU_WINDOW=1024" .6 -n 2^22 --gpu
r "c8 w1008" 20 "OCTAL_GPU_CLUSTER=8 OCTAL_GPU_WINDOW=1008" .6 -n 2^22 --gpu
for w in 512 1024 2016; do r "c16 w$w" 40 "OCTAL_GPU_CLUSTER=16 OCTAL_GPU_WINDOW=$w" .6 -n 2^26 --gpu; done
for w in 512 1008; do r "c8 w$w" 40 "OCTAL_GPU_CLUSTER=8 OCTAL_GPU_WINDOW=$w" .6 -n 2^26 --gpu; done
r "c16 w1024 far8192" 40 "OCTAL_GPU_CLUSTER=16 OCTAL_GPU_WINDOW=1024 OCTAL_GPU_FAR=8192" .6 -n 2^26 --gpu
r "kg4.1" 40 "X=1" .6 -n 2^26 --gpu
