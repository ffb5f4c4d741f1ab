#!/bin/bash
# Session 12 run 76: front v7 (QL lanes a heap, the options split over them and or-ed with
# shuffles; the exact path not inlined).
cd .carry-gpu/front
for v in 128x1-384 128x2-384 128x4-384 128x4-512 192x4-640 224x4-640 256x2-640; do
  timeout 40 python3 drv.py 16777216 64 front-$v.ptx 2>&1 | grep -v launch | tee -a $OUT/res.txt
done
