#!/bin/bash
# Session 9, run 57: the record of 0969ed6 (octal-s9: verify kernels-gen 4.3): bench --gpu to
# 10^9 with the CPU engine to 10^8 on the 16 cores, then Officers 10^10.
set -u
nvidia-smi -L | tee -a $OUT/res.txt
/usr/bin/time -f "wall %e s, max rss %M kB" timeout 420 .carry-gpu/octal-s9 bench --gpu -n 1e9 --cpu-max 1e8 --json $OUT/bench.json > $OUT/bench.log 2>&1
tail -30 $OUT/bench.log
/usr/bin/time -f "wall %e s, max rss %M kB" timeout 330 .carry-gpu/octal-s9 solve .6 -n 1e10 --gpu --json -q > $OUT/e10.json 2> $OUT/e10.err
cat $OUT/e10.json | head -c 1500; echo; cat $OUT/e10.err
