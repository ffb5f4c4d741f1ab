#!/bin/bash
# Session 13 run 89: H1 = this tree (kernels-gen 4.4: the round reloads its window only; and a
# spec block asks for more than half an SM's shared memory, so that no SM takes two of the grid's
# blocks) against A = kernels-gen 4.3 (.carry-gpu/octal-base, 2051168): games whose spec blocks
# took less than half an SM (.74 .36 .16 .64 .106: 71-111 KiB) to 10^7 on the GPU (values and
# rates), Officers 2^24 (bench, alternating), then the GPU tests with H1.
set -u
A=.carry-gpu/octal-base; H1=target/release/octal
nvidia-smi -L | tee -a $OUT/res.txt
f() { python3 -c "import json,sys; d=json.load(sys.stdin); print(d['fnv1a64'], d['n'])" 2>/dev/null || echo none; }
for g in .74 .36 .16 .64 .106; do
  for x in A H1; do
    bin=${!x}
    v=$(timeout 60 $bin solve $g -n 1e7 --gpu --json -q 2>$OUT/err.tmp | f)
    echo "$g $x | $v | $(grep -o 'gpu: spec.*beside it' $OUT/err.tmp | head -1)" | tee -a $OUT/res.txt
  done
done
for i in 1 2; do
  for x in A H1; do
    bin=${!x}
    timeout 60 $bin bench .6 --gpu -n 2^24 --cpu-max 2^18 --json $OUT/bench-$x$i.json > $OUT/bench-$x$i.log 2>&1
    echo "$x$i $(tail -1 $OUT/bench-$x$i.log)" | tee -a $OUT/res.txt
  done
done
mkdir -p /work && ln -sfn "$PWD" /work/main
timeout 320 .carry-gpu/gpu-test --nocapture --test-threads 1 2>&1 | tee $OUT/gpu-test.log | grep -E "0.6 |bit codes|test |result|skipped|differ|panicked|modules compiled" | tee -a $OUT/res.txt
