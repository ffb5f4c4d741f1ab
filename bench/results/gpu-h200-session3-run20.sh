#!/bin/bash
# Session 3, run 20: HEAD (SPEC_UNROLL 8) against SPEC_UNROLL 4 on Officers 10^9, interleaved
# twice; the CPU engine on 16 cores to 10^8 for the ratio (same run).
set -u
B=.carry-gpu/octal-final; X=.carry-gpu/octal-exp; E=$PWD/.carry-gpu/exp
j() { python3 -c "import json,sys; d=json.load(sys.stdin); print(d['engine'], d['fnv1a64'], round(d['values_per_second']), d.get('max_value'), d['n'])" 2>/dev/null || echo none; }
r() { local label="$1" env="$2" bin="$3"; shift 3
  local out; out=$(env $env timeout 90 $bin solve "$@" --json -q 2>$OUT/err.tmp | j)
  echo "$label | $* | $out | $(grep -o 'gpu: spec.*' $OUT/err.tmp | head -1)" | tee -a $OUT/res.txt; }
for i in 1 2; do
  r "head" "A=1" $B .6 -n 1e9 --gpu
  r "unroll4" "OCTAL_GPU_SOURCE=$E/unroll4.cu" $X .6 -n 1e9 --gpu
done
( time r "cpu 16 cores" "A=1" $B .6 -n 1e8 ) 2>&1 | tail -4
