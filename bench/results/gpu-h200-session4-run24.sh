#!/bin/bash
# Session 4, run 24: the new generator (kernels-gen 4: branch-free marking, fresh heaps mark only
# their far options in their first round): GPU test, fnv checks; speculation rates against HEAD's
# kernels (old) and two experiments (E1 unroll 8, E2 settling); Officers 10^9 end to end; the CPU
# engine on 16 cores to 10^8 for the ratio.
set -u
O=.carry-gpu/octal-final; N=.carry-gpu/octal-new; X=.carry-gpu/octal-exp; E=$PWD/.carry-gpu/exp5
j() { python3 -c "import json,sys; d=json.load(sys.stdin); print(d['engine'], d['fnv1a64'], round(d['values_per_second']), d.get('max_value'), d['n'], d.get('table_corrections'))" 2>/dev/null || echo none; }
r() { local label="$1" env="$2" bin="$3"; shift 3
  local out; out=$(env $env timeout ${T:-40} $bin solve "$@" --json -q 2>$OUT/err.tmp | j)
  echo "$label | $* | $out | $(grep -o 'gpu: spec.*' $OUT/err.tmp | head -1)" | tee -a $OUT/res.txt; }
mkdir -p /work && ln -sfn "$PWD" /work/main 2>/dev/null
( time timeout 300 .carry-gpu/gpu-test --test-threads 1 --nocapture ) > $OUT/gpu-test.txt 2>&1; grep -v "not generated" $OUT/gpu-test.txt | tail -5
T=90 r "new .14" "A=1" $N .14 -n 3e5 --gpu
T=90 r "cpu .14" "A=1" $N .14 -n 3e5
for v in old new; do b=$O; [ $v = new ] && b=$N; r "$v" "A=1" $b .6 -n 2^26 --gpu --speculate-only; done
r "E1" "OCTAL_GPU_SOURCE=$E/E1.cu" $X .6 -n 2^26 --gpu --speculate-only
r "E2" "OCTAL_GPU_SOURCE=$E/E2.cu" $X .6 -n 2^26 --gpu --speculate-only
r "E2 W3072" "OCTAL_GPU_SOURCE=$E/E2.cu OCTAL_GPU_WINDOW=3072" $X .6 -n 2^26 --gpu --speculate-only
r "E2 W6144" "OCTAL_GPU_SOURCE=$E/E2.cu OCTAL_GPU_WINDOW=6144" $X .6 -n 2^26 --gpu --speculate-only
r "new" "A=1" $N .6 -n 2^26 --gpu
T=80 r "old" "A=1" $O .6 -n 1e9 --gpu
T=80 r "new" "A=1" $N .6 -n 1e9 --gpu
T=80 r "E2" "OCTAL_GPU_SOURCE=$E/E2.cu" $X .6 -n 1e9 --gpu
( time T=120 r "cpu 16 cores" "A=1" $N .6 -n 1e8 ) 2>&1 | tail -4
