#!/bin/bash
# Session 3, run 11: change-list rounds (no grid atomics, no ring reload) against the committed
# kernels; the FOLLOW variant (far marks follow the window); correctness of the new kernels.
set -u
O=.carry-gpu/octal; X=.carry-gpu/octal-exp; F=$PWD/.carry-gpu/exp/follow.cu
j() { python3 -c "import json,sys; d=json.load(sys.stdin); print(d['engine'], d['fnv1a64'], round(d['values_per_second']), d.get('max_value'), d['n'])" 2>/dev/null || echo none; }
nvidia-smi -L | tee $OUT/info.txt; $X gpu-info | tee -a $OUT/info.txt
r() { # label, env, binary, args
  local label="$1" env="$2" bin="$3"; shift 3
  local out; out=$(env $env timeout 120 $bin solve "$@" --gpu --json -q 2>$OUT/err.tmp | j)
  echo "$label | $* | $out | $(grep -o 'gpu: spec.*' $OUT/err.tmp | head -1)" | tee -a $OUT/res.txt
  cat $OUT/err.tmp >> $OUT/stderr.txt
}
r "new W4096" "A=1" $X .6 -n 1e8
r "old W4096" "A=1" $O .6 -n 2^26
r "new W4096" "A=1" $X .6 -n 2^26
r "new W2048" "OCTAL_GPU_WINDOW=2048" $X .6 -n 2^26
r "new W8192" "OCTAL_GPU_WINDOW=8192" $X .6 -n 2^26
r "follow W4096" "OCTAL_GPU_SOURCE=$F" $X .6 -n 2^26
r "follow W8192" "OCTAL_GPU_SOURCE=$F OCTAL_GPU_WINDOW=8192" $X .6 -n 2^26
r "old W4096" "A=1" $O .6 -n 2^26
r "new W4096" "A=1" $X .6 -n 1e9
r "follow W8192" "OCTAL_GPU_SOURCE=$F OCTAL_GPU_WINDOW=8192" $X .6 -n 1e9
for c in .106 .36 .64 .74 .16 .127 .45 .356; do
  g=$(timeout 20 $X solve $c -n 1e6 --gpu --json -q 2>/dev/null | j)
  k=$(timeout 40 $X solve $c -n 1e6 --json -q 2>/dev/null | j)
  v=DIFFER; [ "${g#* }" = "${k#* }" ] && v=equal
  echo "$c 1e6 | $v | gpu: $g | cpu: $k" | tee -a $OUT/games.txt
done
mkdir -p /work && ln -sfn "$PWD" /work/main 2>/dev/null
( time timeout 200 .carry-gpu/gpu-test --test-threads 1 ) > $OUT/gpu-test.txt 2>&1; tail -5 $OUT/gpu-test.txt
