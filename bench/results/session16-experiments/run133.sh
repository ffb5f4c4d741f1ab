#!/bin/bash
# Session 16 run 133: kernels-gen 4.6 (settling during the barrier's wait; option_at, so that a
# table too large for shared memory is read from its table in the settle loop too). First .04 at
# 2^19 (its table passes the ~15 600 options that fit in shared memory): the CPU engine, 4.5 and
# 4.6 on the GPU; then the GPU tests.
set -u
mkdir -p /work && ln -sfn "$PWD" /work/main
nvidia-smi -L | tee -a $OUT/res.txt
for x in cpu 45 46; do
  case $x in cpu) cmd=".exp/octal-46 solve .04 -n 2^19 --json -q";; 45) cmd=".exp/octal-new solve .04 -n 2^19 --gpu --json -q";; 46) cmd=".exp/octal-46 solve .04 -n 2^19 --gpu --json -q";; esac
  timeout 120 $cmd > $OUT/d04-$x.json 2> $OUT/d04-$x.err
  echo "d04 $x $(python3 -c "import json; d=json.load(open('$OUT/d04-$x.json')); print(d['fnv1a64'], d['verified'], d.get('engine'), round(d['seconds'],2))" 2>&1) $(tail -c 300 $OUT/d04-$x.err | tr '\n' ' ')" | tee -a $OUT/res.txt
done
timeout 500 .exp/gpu-test --nocapture --test-threads 1 2>&1 | tee $OUT/gpu-test.log | grep -E "to [0-9]+ with|test |result|skipped|differ|panicked" | tee -a $OUT/res.txt
