#!/bin/bash
# Session 3, run 21: the final commit's engine: the GPU test (table and random codes against the
# generic CPU engine) and .14 to 3e5 against the CPU.
set -u
B=.carry-gpu/octal-final
j() { python3 -c "import json,sys; d=json.load(sys.stdin); print(d['engine'], d['fnv1a64'], round(d['values_per_second']), d.get('max_value'), d['n'], d['table_corrections'])" 2>/dev/null || echo none; }
echo ".14 3e5 | gpu: $(timeout 120 $B solve .14 -n 3e5 --gpu --json -q 2>/dev/null | j) | cpu: $(timeout 120 $B solve .14 -n 3e5 --json -q 2>/dev/null | j)" | tee $OUT/res.txt
mkdir -p /work && ln -sfn "$PWD" /work/main 2>/dev/null
( time timeout 400 .carry-gpu/gpu-test --test-threads 1 --nocapture ) > $OUT/gpu-test.txt 2>&1; grep -v "not generated" $OUT/gpu-test.txt | tail -8
