#!/bin/bash
# Session 12 run 78: the round's first change from per-warp slots (a warp reduction each) instead
# of one shared word every changed heap's atomicMin hit (run 77: reading it took ~1 200 cycles).
cd .carry-gpu/front
for v in 128x4-384 128x4-512 192x4-640 224x4-640 256x2-640; do
  timeout 40 python3 drv.py 16777216 64 front-$v.ptx 2>&1 | grep -v launch | tee -a $OUT/res.txt
done
