#!/bin/bash
# Session 7, run 46: a CPU stretch after each table correction (kernels compiled a few times, not
# once per correction): .14/.165 --gpu before (octal-kg41) and after (octal-stretch), the GPU tests
# with .14 .143 .165 .206 back in, and Officers 10^9 end to end with both binaries.
set -u
mkdir -p /work && ln -sfn "$PWD" /work/main
j() { python3 -c "import json,sys; d=json.load(sys.stdin); print(d['engine'], d['fnv1a64'], round(d['values_per_second']), d.get('max_value'), d['n'], d.get('table_corrections'), round(d.get('seconds', 0), 2))" 2>/dev/null || echo none; }
r() { local label="$1" t="$2" bin="$3"; shift 3
  local s=$(date +%s.%N)
  local out; out=$(timeout $t $bin solve "$@" --json -q 2>$OUT/err.tmp | j)
  echo "$label | $* | $out | wall $(python3 -c "print(round($(date +%s.%N)-$s,1))") s | $(grep -o 'gpu: spec.*' $OUT/err.tmp | head -1)" | tee -a $OUT/res.txt; }
nvidia-smi -L | tee $OUT/res.txt
r "after" 120 .carry-gpu/octal-stretch .14 -n 2^20 --gpu
r "cpu" 120 .carry-gpu/octal-stretch .14 -n 2^20
r "before" 60 .carry-gpu/octal-kg41 .14 -n 2^20 --gpu
r "after" 120 .carry-gpu/octal-stretch .165 -n 2^20 --gpu
r "after" 80 .carry-gpu/octal-stretch .6 -n 1e9 --gpu
r "before" 80 .carry-gpu/octal-kg41 .6 -n 1e9 --gpu
timeout 300 .carry-gpu/gpu-test --nocapture --test-threads 1 2>&1 | tee $OUT/gpu-test.log | grep -E "0.14 |0.143 |0.165 |0.206 |bit codes|test |result|skipped|differ|panicked|modules compiled" | tee -a $OUT/res.txt
