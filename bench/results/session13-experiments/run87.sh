#!/bin/bash
# Session 13 run 87: H2 = kernels-gen 4.4 (this tree: the round reloads its window only, a heap
# entering the window always stores its code, the shared ring sized for reach + one window) against
# A = kernels-gen 4.3 (.carry-gpu/octal-base, 2051168), alternating, Officers 2^24; then every game
# of games/ to 10^6 on the GPU and on the CPU (fnv1a64 compared) and the GPU tests, all with H2.
set -u
A=.carry-gpu/octal-base; H2=target/release/octal
nvidia-smi -L | tee -a $OUT/res.txt
for i in 1 2; do
  for x in A H2; do
    bin=${!x}
    timeout 60 $bin bench .6 --gpu -n 2^24 --cpu-max 2^18 --json $OUT/bench-$x$i.json > $OUT/bench-$x$i.log 2>&1
    echo "$x$i $(tail -1 $OUT/bench-$x$i.log)" | tee -a $OUT/res.txt
  done
done
f() { python3 -c "import json,sys; d=json.load(sys.stdin); print(d['engine'], d['fnv1a64'], d['n'], d.get('max_value'))" 2>/dev/null || echo none; }
for g in .6 .77 .07 .106 .14 .16 .36 .64 .74 .76; do
  cpu=$(timeout 120 $H2 solve $g -n 1e6 --json -q 2>/dev/null | f)
  gpu=$(timeout 120 $H2 solve $g -n 1e6 --gpu --json -q 2>$OUT/err.tmp | f)
  same=$([ "${cpu#* }" = "${gpu#* }" ] && echo equal || echo DIFFER)
  echo "$g | cpu: $cpu | gpu: $gpu | $same | $(grep -o 'gpu: spec.*' $OUT/err.tmp | head -1)$(grep -v 'gpu: spec' $OUT/err.tmp | tail -1)" | tee -a $OUT/res.txt
done
mkdir -p /work && ln -sfn "$PWD" /work/main
timeout 300 .carry-gpu/gpu-test --nocapture --test-threads 1 2>&1 | tee $OUT/gpu-test.log | grep -E "0.6 |bit codes|test |result|skipped|differ|panicked|modules compiled" | tee -a $OUT/res.txt
