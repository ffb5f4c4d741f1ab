#!/bin/bash
# Session 13 run 93: BS = each block stores its round's first change and overflow in a slot of
# its own before the arrival (no atomicMin on two shared words before the release), and a warp
# of every block folds the 132 slots after the barrier, beside the reload (block-slots.patch),
# against H1 = 3396655 (kernels-gen 4.4, one spec block an SM), alternating, Officers 2^26.
set -u
H1=.carry-gpu/octal-h1; BS=.carry-gpu/octal-bs
nvidia-smi -L | tee -a $OUT/res.txt
for i in 1 2 3; do
  for x in H1 BS; do
    bin=${!x}
    timeout 90 $bin bench .6 --gpu -n 2^26 --cpu-max 2^18 --json $OUT/bench-$x$i.json > $OUT/bench-$x$i.log 2>&1
    echo "$x$i $(tail -1 $OUT/bench-$x$i.log)" | tee -a $OUT/res.txt
  done
done
timeout 60 $BS solve .6 -n 1e8 --gpu --json -q > $OUT/solve-BS.json 2> $OUT/solve-BS.err
echo "BS 1e8: $(python3 -c "import json; d=json.load(open('$OUT/solve-BS.json')); print(d['fnv1a64'], d['n'])" 2>&1) $(grep -o 'gpu: spec.*beside it' $OUT/solve-BS.err | head -1)" | tee -a $OUT/res.txt
