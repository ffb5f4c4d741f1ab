#!/bin/bash
# Session 12 run 80: the publishing warp out of the rounds' barriers (it follows p through shared
# memory), against run 78's front.
cd .carry-gpu/front
for v in 128x4-512 128x4-512-shared_pub 256x2-640-shared_pub; do
  timeout 30 python3 drv.py 16777216 64 front-$v.ptx 2>&1 | grep -v launch | tee -a $OUT/res.txt
done
