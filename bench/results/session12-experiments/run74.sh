#!/bin/bash
# Session 12 run 74: where a front round's time after barrier A goes: without the candidates'
# prefetch, with the proved codes stored by the publishing warp, both; ptxas -v and the SASS.
cd .carry-gpu/front
for v in 128-384 256-640; do for x in "" -no_prefetch -pub_stores -no_prefetch-pub_stores; do
  timeout 40 python3 drv.py 16777216 64 front-$v$x.ptx 2>&1 | grep -v launch | tee -a $OUT/res.txt
done; done
P=$(dirname $(command -v ptxas 2>/dev/null || ls /usr/local/cuda*/bin/ptxas | head -1))
echo "ptxas at $P" | tee -a $OUT/res.txt
$P/ptxas -arch=sm_90 -v front-128-384.ptx -o $OUT/f.cubin 2>&1 | tail -4 | tee -a $OUT/res.txt
$P/cuobjdump -sass $OUT/f.cubin > $OUT/sass.txt 2>&1; wc -l $OUT/sass.txt | tee -a $OUT/res.txt; rm -f $OUT/f.cubin
