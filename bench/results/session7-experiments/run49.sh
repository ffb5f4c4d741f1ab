#!/bin/bash
# Session 7, run 49: Officers to 10^10 on the GPU (kernels-gen 4.2: the 2^26-heap ring wraps ~150
# times; host values in memory), how the rate holds with n.
set -u
j() { python3 -c "import json,sys; d=json.load(sys.stdin); print(d['engine'], d['fnv1a64'], round(d['values_per_second']), d.get('max_value'), d['n'], d.get('table_corrections'), round(d.get('seconds', 0), 2))" 2>/dev/null || echo none; }
nvidia-smi -L | tee $OUT/res.txt
/usr/bin/time -v .carry-gpu/octal-ring solve .6 -n 1e10 --gpu --json -q 2>$OUT/e10.err | j | tee -a $OUT/res.txt
grep -E "gpu: spec|Maximum resident|Elapsed" $OUT/e10.err | tee -a $OUT/res.txt
