#!/bin/bash
# Session 12 run 68: run 67 again with p published (ctl[0] = 2^17) before the launch (run 67's
# helpers waited for a p the front had not yet published: deadlock).
cd .carry-gpu/front
timeout 30 python3 drv.py 1048576 64 front-256-768.ptx 2>&1 | tee -a $OUT/res.txt
for v in 256-768 256-512 128-512 512-1024 256-1024; do
  timeout 40 python3 drv.py 16777216 64,128 front-$v.ptx 2>&1 | tee -a $OUT/res.txt
done
