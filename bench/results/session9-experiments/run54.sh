#!/bin/bash
# Session 9, run 54: verify v5 (branch-free steps with every load first, per-lane bitsets, every
# value marked and filtered at the check, the check resuming at the first open word) as
# octal-v, plus options packed in one shared word (octal-vp), against octal-s8b (db5c952).
set -u
mkdir -p /work && ln -sfn "$PWD" /work/main
j() { python3 -c "import json,sys; d=json.load(sys.stdin); print(d['engine'], d['fnv1a64'], round(d['values_per_second']), d.get('max_value'), d['n'], d.get('table_corrections'), round(d.get('seconds', 0), 2))" 2>/dev/null || echo none; }
r() { local label="$1" t="$2" bin="$3"; shift 3
  local out; out=$( { /usr/bin/time -f "wall %e s, max rss %M kB" timeout $t $bin solve "$@" --json -q 2>$OUT/err.tmp; } 2>$OUT/time.tmp | j)
  echo "$label | $* | $out | $(grep -o 'gpu: spec.*' $OUT/err.tmp | head -1) | $(grep -v 'gpu: spec' $OUT/err.tmp | tail -1) | $(cat $OUT/time.tmp)" | tee -a $OUT/res.txt; }
nvidia-smi -L | tee -a $OUT/res.txt
timeout 300 .carry-gpu/gpu-test --nocapture --test-threads 1 2>&1 | tee $OUT/gpu-test.log | grep -E "0.6 |bit codes|test |result|skipped|differ|panicked|modules compiled" | tee -a $OUT/res.txt
r "vp 2^26" 60 .carry-gpu/octal-vp .6 -n 2^26 --gpu
for k in 1 2; do
r "vp" 80 .carry-gpu/octal-vp .6 -n 1e9 --gpu
r "v" 80 .carry-gpu/octal-v .6 -n 1e9 --gpu
r "s8b" 80 .carry-gpu/octal-s8b .6 -n 1e9 --gpu
done
r "vp, speculate-only" 80 .carry-gpu/octal-vp .6 -n 1e9 --gpu --speculate-only
r "s8b, speculate-only" 80 .carry-gpu/octal-s8b .6 -n 1e9 --gpu --speculate-only
