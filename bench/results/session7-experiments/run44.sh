#!/bin/bash
# Session 7, run 44: where a cluster round goes (SPEC_PROFILE clock64 counters), and P published relaxed.
set -u
C=.carry-gpu/octal-c2
j() { python3 -c "import json,sys; d=json.load(sys.stdin); print(d['engine'], d['fnv1a64'], round(d['values_per_second']), d.get('max_value'), d['n'], d.get('table_corrections'))" 2>/dev/null || echo none; }
r() { local label="$1" t="$2" e="$3"; shift 3
  local out; out=$(env $e timeout $t $C solve "$@" --json -q 2>$OUT/err.tmp | j)
  echo "$label | $* | $out | $(grep -o 'gpu: spec.*' $OUT/err.tmp | head -1) | $(grep profile $OUT/err.tmp | tail -1)" | tee -a $OUT/res.txt; }
nvidia-smi -L | tee $OUT/res.txt
P="OCTAL_GPU_PROFILE=1 OCTAL_GPU_DEFINES=SPEC_PROFILE=1"
r "c16 w1024 prof" 30 "OCTAL_GPU_CLUSTER=16 OCTAL_GPU_WINDOW=1024 $P" .6 -n 2^24 --gpu
r "c16 w1024 prof relaxed" 30 "OCTAL_GPU_CLUSTER=16 OCTAL_GPU_WINDOW=1024 $P,PUBLISH_RELAXED=1" .6 -n 2^24 --gpu
r "c16 w512 prof" 30 "OCTAL_GPU_CLUSTER=16 OCTAL_GPU_WINDOW=512 $P" .6 -n 2^24 --gpu
r "c8 w512 prof" 30 "OCTAL_GPU_CLUSTER=8 OCTAL_GPU_WINDOW=512 $P" .6 -n 2^24 --gpu
r "c16 w1024 noprof" 30 "OCTAL_GPU_CLUSTER=16 OCTAL_GPU_WINDOW=1024" .6 -n 2^24 --gpu
