#!/bin/bash
# Session 6, run 37: the asynchronous pass + check (async) against kernels-gen 4 (old).
set -u
O=.carry-gpu/octal-mend; N=.carry-gpu/octal-async
j() { python3 -c "import json,sys; d=json.load(sys.stdin); print(d['engine'], d['fnv1a64'], round(d['values_per_second']), d.get('max_value'), d['n'], d.get('table_corrections'))" 2>/dev/null || echo none; }
r() { local label="$1" env="$2" bin="$3"; shift 3
  local out; out=$(env $env timeout ${T:-40} $bin solve "$@" --json -q 2>$OUT/err.tmp | j)
  echo "$label | $env | $* | $out | $(grep -o 'gpu: spec.*' $OUT/err.tmp | head -1) | $(grep -iv 'gpu: spec' $OUT/err.tmp | head -2)" | tee -a $OUT/res.txt; }
nvidia-smi -L | tee $OUT/res.txt
T=30 r "async" "OCTAL_GPU_WINDOW=2000" $N .6 -n 2^22 --gpu
grep -q 458b0a790e531012 $OUT/res.txt || { echo "2^22 wrong or hung; stop"; exit 0; }
for w in 1000 2000 4000; do T=40 r "async" "OCTAL_GPU_WINDOW=$w" $N .6 -n 2^26 --gpu; done
T=40 r "old" "A=1" $O .6 -n 2^26 --gpu
for c in .77 .106 .16 .36 .64 .74; do
  g=$(OCTAL_GPU_WINDOW=2000 timeout 30 $N solve $c -n 1e6 --gpu --json -q 2>/dev/null | j)
  k=$(timeout 30 $N solve $c -n 1e6 --json -q 2>/dev/null | j)
  v=DIFFER; [ "$(echo $g | cut -d' ' -f2)" = "$(echo $k | cut -d' ' -f2)" ] && [ "$g" != none ] && v=equal
  echo "$c 1e6 | $v | gpu: $g | cpu: $k" | tee -a $OUT/games.txt
done
T=80 r "async" "OCTAL_GPU_WINDOW=2000" $N .6 -n 1e9 --gpu
T=80 r "old" "A=1" $O .6 -n 1e9 --gpu
