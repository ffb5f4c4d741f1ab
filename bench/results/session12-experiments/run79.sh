#!/bin/bash
# Session 12 run 79: the candidates read with gpu-scoped relaxed loads (STRONG.GPU) instead of
# volatile ones (STRONG.SYS).
cd .carry-gpu/front
for v in 128x4-384-gpu_cand 256x2-640-gpu_cand; do
  timeout 30 python3 drv.py 16777216 64 front-$v.ptx 2>&1 | grep -v launch | tee -a $OUT/res.txt
done
