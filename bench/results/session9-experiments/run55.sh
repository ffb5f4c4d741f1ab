#!/bin/bash
# Session 9, run 55: the shared-memory carveout set to the largest for every kernel (octal-vc: verify v5;
# octal-vpc: verify v5 and packed options) against octal-v and octal-s8b (run 54).
set -u
mkdir -p /work && ln -sfn "$PWD" /work/main
j() { python3 -c "import json,sys; d=json.load(sys.stdin); print(d['engine'], d['fnv1a64'], round(d['values_per_second']), d.get('max_value'), d['n'], d.get('table_corrections'), round(d.get('seconds', 0), 2))" 2>/dev/null || echo none; }
r() { local label="$1" t="$2" bin="$3"; shift 3
  local out; out=$( { /usr/bin/time -f "wall %e s, max rss %M kB" timeout $t $bin solve "$@" --json -q 2>$OUT/err.tmp; } 2>$OUT/time.tmp | j)
  echo "$label | $* | $out | $(grep -o 'gpu: spec.*' $OUT/err.tmp | head -1) | $(grep -v 'gpu: spec' $OUT/err.tmp | tail -1) | $(cat $OUT/time.tmp)" | tee -a $OUT/res.txt; }
nvidia-smi -L | tee -a $OUT/res.txt
for k in 1 2; do
r "vc" 80 .carry-gpu/octal-vc .6 -n 1e9 --gpu
r "vpc" 80 .carry-gpu/octal-vpc .6 -n 1e9 --gpu
r "v" 80 .carry-gpu/octal-v .6 -n 1e9 --gpu
r "s8b" 80 .carry-gpu/octal-s8b .6 -n 1e9 --gpu
done
r "vpc, speculate-only" 80 .carry-gpu/octal-vpc .6 -n 1e9 --gpu --speculate-only
r "vc, speculate-only" 80 .carry-gpu/octal-vc .6 -n 1e9 --gpu --speculate-only
