#!/bin/bash
# Session 13 run 95: Officers to 10^10 with this tree (3396655's engine: kernels-gen 4.4, one
# spec block an SM), as session 9's run 57 did with kernels-gen 4.3 (57.8 M values/s, fnv1a64
# ef8e6a13609a282b).
set -u
nvidia-smi -L | tee -a $OUT/res.txt
/usr/bin/time -f "wall %e s, max rss %M kB" timeout 330 target/release/octal solve .6 -n 1e10 --gpu --json -q > $OUT/e10.json 2> $OUT/e10.err
python3 -c "import json; d=json.load(open('$OUT/e10.json')); print(d['fnv1a64'], d['n'], d['seconds'], d['n']/d['seconds'])" | tee -a $OUT/res.txt
cat $OUT/e10.err | tee -a $OUT/res.txt
