#!/bin/bash
# Vectorised ring reloads and an acquire/release grid barrier (spec); verification overlapped.
set -u
B=.carry-gpu/octal
j() { python3 -c "import json,sys; d=json.load(sys.stdin); print(d['engine'], d['fnv1a64'], round(d['values_per_second']), d.get('max_value'), d['n'])"; }
for args in ".6 -n 2^22" ".16 -n 1e6" ".127 -n 1e6" ".45 -n 1e6" ".356 -n 1e6" ".14 -n 3e5"; do
  g=$(timeout 120 $B solve $args --gpu --json -q 2>>$OUT/gpu-stderr.txt | j)
  c=$(timeout 120 $B solve $args --json -q 2>/dev/null | j)
  echo "$args | gpu: $g | cpu: $c" | tee -a $OUT/check.txt
done
for w in 1024 2048 4096 8192; do
  echo "window $w: $(OCTAL_GPU_WINDOW=$w timeout 120 $B solve .6 -n 2^24 --gpu --json -q 2>&1 >/dev/null | grep 'gpu:')" | tee -a $OUT/sweep.txt
done
echo "== officers 1e8 gpu (cpu 16 cores, run 3: unrolled c1f38820d36ecd12 2124341/s)" | tee -a $OUT/bench.txt
timeout 100 $B solve .6 -n 1e8 --gpu --json -q 2>>$OUT/bench.txt | j | tee -a $OUT/bench.txt
echo "== officers 1e9 gpu" | tee -a $OUT/bench.txt
( time timeout 200 $B solve .6 -n 1e9 --gpu --json -q > $OUT/gpu-1e9.json 2> $OUT/gpu-1e9.err ) 2>> $OUT/bench.txt
j < $OUT/gpu-1e9.json | tee -a $OUT/bench.txt; cat $OUT/gpu-1e9.err | tee -a $OUT/bench.txt
