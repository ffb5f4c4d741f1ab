#!/bin/bash
# Session 9, run 56: verify with persistent warps taking heaps from a counter, as many blocks as
# fit beside spec (octal-vq), against octal-v (verify v5, one warp a heap) and octal-s8b; the GPU
# tests with octal-vq's code.
set -u
mkdir -p /work && ln -sfn "$PWD" /work/main
j() { python3 -c "import json,sys; d=json.load(sys.stdin); print(d['engine'], d['fnv1a64'], round(d['values_per_second']), d.get('max_value'), d['n'], d.get('table_corrections'), round(d.get('seconds', 0), 2))" 2>/dev/null || echo none; }
r() { local label="$1" t="$2" bin="$3"; shift 3
  local out; out=$( { /usr/bin/time -f "wall %e s, max rss %M kB" timeout $t $bin solve "$@" --json -q 2>$OUT/err.tmp; } 2>$OUT/time.tmp | j)
  echo "$label | $* | $out | $(grep -o 'gpu: spec.*' $OUT/err.tmp | head -1) | $(grep -v 'gpu: spec' $OUT/err.tmp | tail -1) | $(cat $OUT/time.tmp)" | tee -a $OUT/res.txt; }
nvidia-smi -L | tee -a $OUT/res.txt
r "vq 2^26" 60 .carry-gpu/octal-vq .6 -n 2^26 --gpu
for k in 1 2; do
r "vq" 80 .carry-gpu/octal-vq .6 -n 1e9 --gpu
r "v" 80 .carry-gpu/octal-v .6 -n 1e9 --gpu
r "s8b" 80 .carry-gpu/octal-s8b .6 -n 1e9 --gpu
done
timeout 300 .carry-gpu/gpu-test --nocapture --test-threads 1 2>&1 | tee $OUT/gpu-test.log | grep -E "0.6 |bit codes|test |result|skipped|differ|panicked|modules compiled" | tee -a $OUT/res.txt
