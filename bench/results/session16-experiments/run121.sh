#!/bin/bash
# Session 16 run 121: REGS (regs.patch: a lane's 26 near options in registers, 64 registers, for
# Officers at W = 4096 only) against HEAD: verified at 2^26, speculation alone at 2e8
# alternating twice, and verified at 1e9 (b1 too: HEAD with a 32 ns sleep between polls).
set -u
nvidia-smi -L | tee -a $OUT/res.txt
one() { # label bin W flags n
  local lab=$1 bin=$2 w=$3 fl=$4 n=$5
  OCTAL_GPU_WINDOW=$w timeout 100 $bin solve .6 -n $n --gpu $fl --json -q > $OUT/$lab.json 2> $OUT/$lab.err
  echo "$lab W=$w n=$n $(python3 -c "import json; d=json.load(open('$OUT/$lab.json')); print(d['fnv1a64'], d['verified'], round(d['values_per_second']), round(d['seconds'],2))" 2>&1) $(grep -o 'gpu: spec.*beside it\|gpu: spec.*only)' $OUT/$lab.err | head -1)" | tee -a $OUT/res.txt
}
one chk-regs .exp/octal-regs 4096 "" 2^26
for i in 1 2; do
  for v in base regs; do one s$v-$i .exp/octal-$v 4096 --speculate-only 2e8; done
done
for v in regs base b1; do one v$v .exp/octal-$v 4096 "" 1e9; done
