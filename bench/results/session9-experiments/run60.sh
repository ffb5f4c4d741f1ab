#!/bin/bash
# Session 9, run 60: the speculation window with verify 4.3 (octal-s9 = 0969ed6), Officers 10^9,
# OCTAL_GPU_WINDOW = 3072, 4096 (the default), 6144, 8192, 4096 again.
set -u
j() { python3 -c "import json,sys; d=json.load(sys.stdin); print(d['engine'], d['fnv1a64'], round(d['values_per_second']), d.get('max_value'), d['n'], d.get('table_corrections'), round(d.get('seconds', 0), 2))" 2>/dev/null || echo none; }
r() { local label="$1" t="$2" bin="$3"; shift 3
  local out; out=$( { /usr/bin/time -f "wall %e s, max rss %M kB" timeout $t $bin solve "$@" --json -q 2>$OUT/err.tmp; } 2>$OUT/time.tmp | j)
  echo "$label | $* | $out | $(grep -o 'gpu: spec.*' $OUT/err.tmp | head -1) | $(cat $OUT/time.tmp)" | tee -a $OUT/res.txt; }
nvidia-smi -L | tee -a $OUT/res.txt
for w in 3072 4096 6144 8192 4096; do
OCTAL_GPU_WINDOW=$w r "window $w" 80 .carry-gpu/octal-s9 .6 -n 1e9 --gpu
done
