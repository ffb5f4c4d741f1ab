#!/bin/bash
# Session 7, run 47: the device keeps a prefix and a ring (kernels-gen 4.2, octal-ring) instead of
# every heap: the GPU tests (a 2^18-heap ring wrapping 8 times), Officers 10^9 (the default 2^26
# ring wraps 15 times) against kernels-gen 4.1 (octal-stretch), and Officers 10^10.
set -u
mkdir -p /work && ln -sfn "$PWD" /work/main
j() { python3 -c "import json,sys; d=json.load(sys.stdin); print(d['engine'], d['fnv1a64'], round(d['values_per_second']), d.get('max_value'), d['n'], d.get('table_corrections'), round(d.get('seconds', 0), 2))" 2>/dev/null || echo none; }
r() { local label="$1" t="$2" bin="$3"; shift 3
  local out; out=$(timeout $t $bin solve "$@" --json -q 2>$OUT/err.tmp | j)
  echo "$label | $* | $out | $(grep -o 'gpu: spec.*' $OUT/err.tmp | head -1) | $(grep -v 'gpu: spec' $OUT/err.tmp | tail -1)" | tee -a $OUT/res.txt; }
nvidia-smi -L | tee $OUT/res.txt
if [ "${E10:-0}" = 0 ]; then
timeout 300 .carry-gpu/gpu-test --nocapture --test-threads 1 2>&1 | tee $OUT/gpu-test.log | grep -E "0.6 |bit codes|test |result|skipped|differ|panicked|modules compiled" | tee -a $OUT/res.txt
r "ring" 80 .carry-gpu/octal-ring .6 -n 1e9 --gpu
r "kg4.1" 80 .carry-gpu/octal-stretch .6 -n 1e9 --gpu
r "ring" 80 .carry-gpu/octal-ring .6 -n 1e9 --gpu
r "kg4.1" 80 .carry-gpu/octal-stretch .6 -n 1e9 --gpu
fi
[ "${E10:-0}" = 1 ] || exit 0
/usr/bin/time -v .carry-gpu/octal-ring solve .6 -n 1e10 --gpu --json -q 2>$OUT/e10.err | j | tee -a $OUT/res.txt
grep -E "gpu: spec|Maximum resident|Elapsed" $OUT/e10.err | tee -a $OUT/res.txt
