#!/bin/bash
# Session 4, run 22: HEAD's kernel (base) against V1 (branch-free marking), V2 (V1, fresh heaps
# mark only their far options in their first round) and V3 (V2, options settle into the slot
# once their source is proved) on Officers 2^26 (speculation only, end to end), windows for V3,
# then 10^9 end to end.
set -u
X=.carry-gpu/octal-exp; E=$PWD/.carry-gpu/exp4
j() { python3 -c "import json,sys; d=json.load(sys.stdin); print(d['engine'], d['fnv1a64'], round(d['values_per_second']), d.get('max_value'), d['n'])" 2>/dev/null || echo none; }
r() { local label="$1" env="$2" bin="$3"; shift 3
  local out; out=$(env $env timeout ${T:-40} $bin solve "$@" --json -q 2>$OUT/err.tmp | j)
  echo "$label | $* | $out | $(grep -o 'gpu: spec.*' $OUT/err.tmp | head -1)" | tee -a $OUT/res.txt; tail -2 $OUT/err.tmp | sed "s/^/$label: /" >> $OUT/errs.txt; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv | tee -a $OUT/res.txt
for v in base V1 V2 V3; do
  r "$v" "OCTAL_GPU_SOURCE=$E/$v.cu" $X .6 -n 2^26 --gpu --speculate-only
done
for w in 2048 3072 6144; do
  r "V3 W$w" "OCTAL_GPU_SOURCE=$E/V3.cu OCTAL_GPU_WINDOW=$w" $X .6 -n 2^26 --gpu --speculate-only
done
for v in base V3; do
  r "$v" "OCTAL_GPU_SOURCE=$E/$v.cu" $X .6 -n 2^26 --gpu
done
for v in base V3 V2; do
  T=80 r "$v" "OCTAL_GPU_SOURCE=$E/$v.cu" $X .6 -n 1e9 --gpu
done
