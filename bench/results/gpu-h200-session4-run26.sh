#!/bin/bash
# Session 4, run 26: the benchmark in one run: Officers 10^9 on the GPU with the committed kernels
# (new, twice) and HEAD~'s (old), E3 once, and the CPU engine on 16 cores to 10^8 for the ratio.
set -u
O=.carry-gpu/octal-final; N=.carry-gpu/octal-new; X=.carry-gpu/octal-exp; E=$PWD/.carry-gpu/exp5
j() { python3 -c "import json,sys; d=json.load(sys.stdin); print(d['engine'], d['fnv1a64'], round(d['values_per_second']), d.get('max_value'), d['n'], d.get('table_corrections'))" 2>/dev/null || echo none; }
r() { local label="$1" env="$2" bin="$3"; shift 3
  local out; out=$(env $env timeout ${T:-40} $bin solve "$@" --json -q 2>$OUT/err.tmp | j)
  echo "$label | $* | $out | $(grep -o 'gpu: spec.*' $OUT/err.tmp | head -1)" | tee -a $OUT/res.txt; }
nvidia-smi -L | tee $OUT/res.txt
T=80 r "new" "A=1" $N .6 -n 1e9 --gpu
T=80 r "old" "A=1" $O .6 -n 1e9 --gpu
T=80 r "new" "A=1" $N .6 -n 1e9 --gpu
T=80 r "E3" "OCTAL_GPU_SOURCE=$E/E3.cu" $X .6 -n 1e9 --gpu
( time T=120 r "cpu 16 cores" "A=1" $N .6 -n 1e8 ) 2>&1 | tail -4
