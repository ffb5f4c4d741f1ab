#!/bin/bash
# Session 10, run 64 (target/release/octal = f56a35e + this session's test change; its kernels
# are f56a35e's): every game of games/ to 10^6 on the GPU and on the CPU (fnv1a64 compared),
# then the record: octal bench --gpu -n 1e9 --cpu-max 1e8.
set -u
B=target/release/octal
nvidia-smi -L | tee -a $OUT/res.txt
f() { python3 -c "import json,sys; d=json.load(sys.stdin); print(d['engine'], d['fnv1a64'], d['n'], d.get('max_value'))" 2>/dev/null || echo none; }
for g in .6 .77 .07 .106 .14 .16 .36 .64 .74 .76; do
  cpu=$(timeout 120 $B solve $g -n 1e6 --json -q 2>/dev/null | f)
  gpu=$(timeout 120 $B solve $g -n 1e6 --gpu --json -q 2>$OUT/err.tmp | f)
  same=$([ "${cpu#* }" = "${gpu#* }" ] && echo equal || echo DIFFER)
  echo "$g | cpu: $cpu | gpu: $gpu | $same | $(grep -o 'gpu: spec.*' $OUT/err.tmp | head -1)$(grep -v 'gpu: spec' $OUT/err.tmp | tail -1)" | tee -a $OUT/res.txt
done
/usr/bin/time -f "wall %e s, max rss %M kB" timeout 420 $B bench --gpu -n 1e9 --cpu-max 1e8 --json $OUT/bench.json > $OUT/bench.log 2>&1
tail -12 $OUT/bench.log | tee -a $OUT/res.txt
