#!/bin/bash
# Session 3, run 19: HEAD's engine: SPEC_UNROLL 4 / 8 / 16 (OCTAL_GPU_SOURCE variants of the
# generated Officers source) and windows 3072 / 4096 / 6144 on Officers 2^26; then the gpu test
# binary (table and random codes against the generic CPU engine), per-code lines on stderr.
set -u
B=.carry-gpu/octal-final; X=.carry-gpu/octal-exp; E=$PWD/.carry-gpu/exp
j() { python3 -c "import json,sys; d=json.load(sys.stdin); print(d['fnv1a64'], round(d['values_per_second']), d.get('max_value'), d['n'])" 2>/dev/null || echo none; }
r() { local label="$1" env="$2" bin="$3"; shift 3
  local out; out=$(env $env timeout 30 $bin solve "$@" --gpu --json -q 2>$OUT/err.tmp | j)
  echo "$label | $* | $out | $(grep -o 'gpu: spec.*' $OUT/err.tmp | head -1)" | tee -a $OUT/res.txt; }
r "head W4096" "A=1" $B .6 -n 2^26
r "unroll4" "OCTAL_GPU_SOURCE=$E/unroll4.cu" $X .6 -n 2^26
r "unroll16" "OCTAL_GPU_SOURCE=$E/unroll16.cu" $X .6 -n 2^26
r "head W3072" "OCTAL_GPU_WINDOW=3072" $B .6 -n 2^26
r "head W6144" "OCTAL_GPU_WINDOW=6144" $B .6 -n 2^26
r "head W4096" "A=1" $B .6 -n 2^26
mkdir -p /work && ln -sfn "$PWD" /work/main 2>/dev/null
( time timeout 420 .carry-gpu/gpu-test --test-threads 1 --nocapture ) > $OUT/gpu-test.txt 2>&1; tail -4 $OUT/gpu-test.txt
