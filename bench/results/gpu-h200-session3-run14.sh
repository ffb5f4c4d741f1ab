#!/bin/bash
# Session 3, run 14: segments (a warp's lanes take 32 consecutive heaps and the same options;
# far marks shared by all blocks, one round late) = "seg", against the committed kernels ("old").
set -u
O=.carry-gpu/octal; X=.carry-gpu/octal-exp; E=$PWD/.carry-gpu/exp
j() { python3 -c "import json,sys; d=json.load(sys.stdin); print(d['fnv1a64'], round(d['values_per_second']), d.get('max_value'), d['n'])" 2>/dev/null || echo none; }
r() { # label, env, binary, args
  local label="$1" env="$2" bin="$3"; shift 3
  local out; out=$(env $env timeout ${T:-30} $bin solve "$@" --gpu --json -q 2>$OUT/err.tmp | j)
  echo "$label | $* | $out | $(grep -o 'gpu: spec.*' $OUT/err.tmp | head -1) $(grep -v 'gpu: spec' $OUT/err.tmp | head -2)" | tee -a $OUT/res.txt
}
T=20 r "seg W4096" "A=1" $X .6 -n 2^22
r "old W4096" "A=1" $O .6 -n 2^26
r "seg W4096" "A=1" $X .6 -n 2^26
r "seg W2048" "OCTAL_GPU_WINDOW=2048" $X .6 -n 2^26
r "seg W8192" "OCTAL_GPU_WINDOW=8192" $X .6 -n 2^26
r "seg W3072" "OCTAL_GPU_WINDOW=3072" $X .6 -n 2^26
r "old W4096" "A=1" $O .6 -n 2^26
echo "== seg-prof W4096" | tee -a $OUT/prof.txt
OCTAL_GPU_SOURCE=$E/seg-prof.cu timeout 30 $X solve .6 -n 2^26 --gpu -q > $OUT/o.txt 2> $OUT/e.txt
grep -h "prof block 0\|gpu: spec" $OUT/o.txt $OUT/e.txt | tail -4 | tee -a $OUT/prof.txt
r "seg spec-only" "A=1" $X .6 -n 2^26 --speculate-only
r "old spec-only" "A=1" $O .6 -n 2^26 --speculate-only
r "seg W4096" "A=1" $X .6 -n 1e8
T=60 r "seg W4096" "A=1" $X .6 -n 1e9
for c in .106 .36 .64 .74 .16 .127 .45 .356 .14; do
  g=$(timeout 20 $X solve $c -n 1e6 --gpu --json -q 2>/dev/null | j)
  k=$(timeout 40 $X solve $c -n 1e6 --json -q 2>/dev/null | j)
  v=DIFFER; [ "${g%% *}" = "${k%% *}" ] && [ "$g" != none ] && v=equal
  echo "$c 1e6 | $v | gpu: $g | cpu: $k" | tee -a $OUT/games.txt
done
