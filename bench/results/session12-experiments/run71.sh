#!/bin/bash
# Session 12 run 71: front v4 (options unrolled with immediates in blocks of 8: hit-only, dead-only or mixed per warp).
cd .carry-gpu/front
for v in 256-768 256-640 256-1024 128-512 512-1536; do
  timeout 40 python3 drv.py 16777216 64 front-$v.ptx 2>&1 | grep -v launch | tee -a $OUT/res.txt
done
