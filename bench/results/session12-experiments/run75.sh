#!/bin/bash
# Session 12 run 75: the candidates read with weak L2 loads (ld.global.cg) instead of volatile
# (system-scope strong) ones.
cd .carry-gpu/front
for v in 128-384 256-640 128-512; do for x in "" -weak_cand; do
  timeout 40 python3 drv.py 16777216 64 front-$v$x.ptx 2>&1 | grep -v launch | tee -a $OUT/res.txt
done; done
