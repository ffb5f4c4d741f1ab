#!/bin/bash
# Session 8, run 53: blocks queued three deep (octal-s8b: the host takes the oldest block while the
# device speculates and verifies the next ones; fallocate; the summary folded during the run)
# against octal-bench (a9c8261, the engine of 167cbc1): the GPU tests, then Officers 10^9
# interleaved. E10=1: Officers 10^10 with octal-s8b.
set -u
mkdir -p /work && ln -sfn "$PWD" /work/main
j() { python3 -c "import json,sys; d=json.load(sys.stdin); print(d['engine'], d['fnv1a64'], round(d['values_per_second']), d.get('max_value'), d['n'], d.get('table_corrections'), round(d.get('seconds', 0), 2))" 2>/dev/null || echo none; }
r() { local label="$1" t="$2" bin="$3"; shift 3
  local out; out=$( { /usr/bin/time -f "wall %e s, max rss %M kB" timeout $t $bin solve "$@" --json -q 2>$OUT/err.tmp; } 2>$OUT/time.tmp | j)
  echo "$label | $* | $out | $(grep -o 'gpu: spec.*' $OUT/err.tmp | head -1) | $(grep -v 'gpu: spec' $OUT/err.tmp | tail -1) | $(cat $OUT/time.tmp)" | tee -a $OUT/res.txt; }
nvidia-smi -L | tee -a $OUT/res.txt
if [ "${E10:-0}" = 0 ]; then
timeout 300 .carry-gpu/gpu-test --nocapture --test-threads 1 2>&1 | tee $OUT/gpu-test.log | grep -E "0.6 |bit codes|test |result|skipped|differ|panicked|modules compiled" | tee -a $OUT/res.txt
for k in 1 2; do
r "queued" 80 .carry-gpu/octal-s8b .6 -n 1e9 --gpu
r "before" 80 .carry-gpu/octal-bench .6 -n 1e9 --gpu
done
r "queued, speculate-only" 80 .carry-gpu/octal-s8b .6 -n 1e9 --gpu --speculate-only
exit 0
fi
r "queued" 330 .carry-gpu/octal-s8b .6 -n 1e10 --gpu
