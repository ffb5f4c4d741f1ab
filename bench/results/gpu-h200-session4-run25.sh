#!/bin/bash
# Session 4, run 25: the committed kernels (kernels-gen 4: branch-free marking, first round on
# far options only, settling): GPU test; Officers 2^26 value by value against the CPU; every game
# of games/ to 10^6 against the CPU; the benchmark: Officers 10^9 on the GPU, HEAD~ (old) and new
# interleaved twice, E3 once, and the CPU engine on 16 cores to 10^8 for the ratio.
set -u
O=.carry-gpu/octal-final; N=.carry-gpu/octal-new; X=.carry-gpu/octal-exp; E=$PWD/.carry-gpu/exp5
j() { python3 -c "import json,sys; d=json.load(sys.stdin); print(d['engine'], d['fnv1a64'], round(d['values_per_second']), d.get('max_value'), d['n'], d.get('table_corrections'))" 2>/dev/null || echo none; }
r() { local label="$1" env="$2" bin="$3"; shift 3
  local out; out=$(env $env timeout ${T:-40} $bin solve "$@" --json -q 2>$OUT/err.tmp | j)
  echo "$label | $* | $out | $(grep -o 'gpu: spec.*' $OUT/err.tmp | head -1)" | tee -a $OUT/res.txt; }
nvidia-smi -L | tee $OUT/res.txt
mkdir -p /work && ln -sfn "$PWD" /work/main 2>/dev/null
( time timeout 300 .carry-gpu/gpu-test --test-threads 1 --nocapture ) > $OUT/gpu-test.txt 2>&1; grep -v "not generated" $OUT/gpu-test.txt | tail -5
D=/tmp/cmp; mkdir -p $D
timeout 60 $N solve .6 -n 2^26 --gpu -q --values $D/gpu.txt > /dev/null 2>&1
timeout 120 $N solve .6 -n 2^26 -q --values $D/cpu.txt > /dev/null 2>&1
echo "new gpu vs cpu 2^26: $(wc -l < $D/gpu.txt) lines, cmp: $(cmp $D/gpu.txt $D/cpu.txt && echo identical)" | tee -a $OUT/res.txt
rm -rf $D
for c in .6 .07 .77 .106 .16 .36 .64 .74 .76 .14; do
  g=$(timeout 60 $N solve $c -n 1e6 --gpu --json -q 2>/dev/null | j)
  k=$(timeout 60 $N solve $c -n 1e6 --json -q 2>/dev/null | j)
  v=DIFFER; [ "$(echo $g | cut -d' ' -f2)" = "$(echo $k | cut -d' ' -f2)" ] && [ "$g" != none ] && v=equal
  echo "$c 1e6 | $v | gpu: $g | cpu: $k" | tee -a $OUT/games.txt
done
for i in 1 2; do
  T=80 r "old" "A=1" $O .6 -n 1e9 --gpu
  T=80 r "new" "A=1" $N .6 -n 1e9 --gpu
done
T=80 r "E3" "OCTAL_GPU_SOURCE=$E/E3.cu" $X .6 -n 1e9 --gpu
( time T=120 r "cpu 16 cores" "A=1" $N .6 -n 1e8 ) 2>&1 | tail -4
