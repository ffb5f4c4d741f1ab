#!/bin/bash
# Session 12 run 70: front v3 (helpers sleep in proportion to p's gap; per-round clocks).
cd .carry-gpu/front
for v in 256-768 256-1024 512-1536 256-512; do
  timeout 40 python3 drv.py 16777216 64 front-$v.ptx 2>&1 | grep -v launch | tee -a $OUT/res.txt
done
