#!/bin/bash
# Session 12 run 69: front v2 (a publishing warp, helpers polling a line of their own, candidates
# prefetched a heap ahead in one 16-byte load, the exact path from the helpers' far bitsets).
cd .carry-gpu/front
timeout 30 python3 drv.py 1048576 64 front-256-768.ptx 2>&1 | tee -a $OUT/res.txt
for v in 256-768 256-1024 128-512 128-384 512-1536; do
  timeout 40 python3 drv.py 16777216 64,128 front-$v.ptx 2>&1 | grep -v launch | tee -a $OUT/res.txt
done
