#!/bin/bash
# Session 6, run 42: kernels-gen 4 with the barrier's arrival counter on its own 128-byte line
# (split: ARRIVED word 16) against kernels-gen 4 (old: ARRIVED word 8, the line of CHANGED).
set -u
O=.carry-gpu/octal-mend; N=.carry-gpu/octal-split
j() { python3 -c "import json,sys; d=json.load(sys.stdin); print(d['engine'], d['fnv1a64'], round(d['values_per_second']), d.get('max_value'), d['n'], d.get('table_corrections'))" 2>/dev/null || echo none; }
r() { local label="$1" bin="$2"; shift 2
  local out; out=$(timeout ${T:-40} $bin solve "$@" --json -q 2>$OUT/err.tmp | j)
  echo "$label | $* | $out | $(grep -o 'gpu: spec.*' $OUT/err.tmp | head -1)" | tee -a $OUT/res.txt; }
nvidia-smi -L | tee $OUT/res.txt
for i in 1 2 3; do
  T=40 r "split2" .carry-gpu/octal-split2 .6 -n 2^26 --gpu
  T=40 r "split" $N .6 -n 2^26 --gpu
  T=40 r "old" $O .6 -n 2^26 --gpu
done
T=80 r "split" $N .6 -n 1e9 --gpu
T=80 r "split2" .carry-gpu/octal-split2 .6 -n 1e9 --gpu
T=80 r "old" $O .6 -n 1e9 --gpu
T=80 r "split" $N .6 -n 1e9 --gpu
T=80 r "split2" .carry-gpu/octal-split2 .6 -n 1e9 --gpu
T=80 r "old" $O .6 -n 1e9 --gpu
