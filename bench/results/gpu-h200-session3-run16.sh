#!/bin/bash
# Session 3, run 16: the committed engine (HEAD): Officers 10^9 on the GPU and 10^8 on the CPU's
# 16 cores (the benchmark, in one run), the games of games/ not yet compared with these kernels
# (.106 .36 .64 .74) against the CPU, and a run larger than the device's memory.
set -u
B=.carry-gpu/octal-final
j() { python3 -c "import json,sys; d=json.load(sys.stdin); print(d['engine'], d['fnv1a64'], round(d['values_per_second']), d.get('max_value'), d['n'])" 2>/dev/null || echo none; }
nvidia-smi -L | tee $OUT/bench.txt
for c in .106 .36 .64 .74; do
  g=$(timeout 20 $B solve $c -n 1e6 --gpu --json -q 2>/dev/null | j)
  k=$(timeout 40 $B solve $c -n 1e6 --json -q 2>/dev/null | j)
  v=DIFFER; [ "$(echo $g | cut -d' ' -f2)" = "$(echo $k | cut -d' ' -f2)" ] && [ "$g" != none ] && v=equal
  echo "$c 1e6 | $v | gpu: $g | cpu: $k" | tee -a $OUT/games.txt
done
echo "== beyond device memory: octal solve .6 -n 2^40 --gpu" | tee -a $OUT/games.txt
timeout 60 $B solve .6 -n 2^40 --gpu -q > /dev/null 2> $OUT/mem.err; echo "exit $? | $(cat $OUT/mem.err)" | tee -a $OUT/games.txt
echo "== officers 1e9 gpu" | tee -a $OUT/bench.txt
( time timeout 120 $B solve .6 -n 1e9 --gpu --json -q > $OUT/gpu-1e9.json 2> $OUT/gpu-1e9.err ) 2>> $OUT/bench.txt
j < $OUT/gpu-1e9.json | tee -a $OUT/bench.txt; grep 'gpu:' $OUT/gpu-1e9.err | tee -a $OUT/bench.txt
echo "== officers 1e8 cpu (16 cores)" | tee -a $OUT/bench.txt
( time timeout 150 $B solve .6 -n 1e8 --json -q > $OUT/cpu-1e8.json ) 2>> $OUT/bench.txt
j < $OUT/cpu-1e8.json | tee -a $OUT/bench.txt
