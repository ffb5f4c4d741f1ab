#!/bin/bash
# Session 19 run 165: Officers to 10^10 with kernels-gen 4.9 (r19e), verified end to end.
set -u
B=.exp/s19
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv | tee $OUT/res.txt
/usr/bin/time -v $B/octal-r19e solve .6 -n 1e10 --gpu --json -q > $OUT/e10.json 2> $OUT/e10.err; echo "rc=$?" | tee -a $OUT/res.txt
python3 -c "import json; d=json.load(open('$OUT/e10.json')); print({k: d[k] for k in ('n','fnv1a64','verified','values_per_second','seconds') if k in d})" | tee -a $OUT/res.txt
grep -v "^\s" $OUT/e10.err | tail -5 | tee -a $OUT/res.txt
grep "Maximum resident\|Elapsed" $OUT/e10.err | tee -a $OUT/res.txt
