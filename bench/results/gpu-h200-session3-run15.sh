#!/bin/bash
# Session 3, run 15: segments with the far-mark clearing fixed ("seg") against the committed
# kernels ("old"); Officers 2^26 value by value against the CPU; the gpu test (random codes).
set -u
O=.carry-gpu/octal; X=.carry-gpu/octal-exp; E=$PWD/.carry-gpu/exp
j() { python3 -c "import json,sys; d=json.load(sys.stdin); print(d['fnv1a64'], round(d['values_per_second']), d.get('max_value'), d['n'])" 2>/dev/null || echo none; }
r() { # label, env, binary, args
  local label="$1" env="$2" bin="$3"; shift 3
  local out; out=$(env $env timeout ${T:-30} $bin solve "$@" --gpu --json -q 2>$OUT/err.tmp | j)
  echo "$label | $* | $out | $(grep -o 'gpu: spec.*' $OUT/err.tmp | head -1)" | tee -a $OUT/res.txt
}
r "old spec-only" "A=1" $O .6 -n 2^26 --speculate-only
r "seg spec-only" "A=1" $X .6 -n 2^26 --speculate-only
r "old W4096" "A=1" $O .6 -n 2^26
r "seg W4096" "A=1" $X .6 -n 2^26
echo "== seg-prof W4096" | tee -a $OUT/prof.txt
OCTAL_GPU_SOURCE=$E/seg-prof.cu timeout 30 $X solve .6 -n 2^26 --gpu -q > $OUT/o.txt 2> $OUT/e.txt
grep -h "prof block 0\|gpu: spec" $OUT/o.txt $OUT/e.txt | tail -3 | tee -a $OUT/prof.txt
# Officers to 2^26, value by value: the committed GPU engine and the CPU engine (16 cores).
D=/tmp/cmp; mkdir -p $D
timeout 60 $O solve .6 -n 2^26 --gpu -q --values $D/gpu.txt > /dev/null 2>&1
( time timeout 120 $O solve .6 -n 2^26 -q --values $D/cpu.txt --json ) 2>&1 | tail -4 | tr '\n' ' ' | tee -a $OUT/cmp.txt
echo | tee -a $OUT/cmp.txt
echo "old gpu vs cpu 2^26: $(wc -l < $D/gpu.txt) lines, cmp: $(cmp $D/gpu.txt $D/cpu.txt && echo identical)" | tee -a $OUT/cmp.txt
rm -f $D/gpu.txt
timeout 60 $X solve .6 -n 2^26 --gpu -q --values $D/gpu.txt > /dev/null 2>&1
echo "seg gpu vs cpu 2^26: $(wc -l < $D/gpu.txt) lines, cmp: $(cmp $D/gpu.txt $D/cpu.txt && echo identical)" | tee -a $OUT/cmp.txt
mkdir -p /work && ln -sfn "$PWD" /work/main 2>/dev/null
( time timeout 200 .carry-gpu/gpu-test --test-threads 1 --nocapture ) > $OUT/gpu-test.txt 2>&1; tail -6 $OUT/gpu-test.txt
