#!/bin/bash
# Session 12 run 77: where the time after the round's barrier goes (a clock once the round's
# minimum is read), with and without the proved codes' stores; the SASS of the front.
cd .carry-gpu/front
for v in 128x4-384 128x4-384-pub_stores 128x4-384; do
  timeout 40 python3 drv.py 16777216 64 front-$v.ptx 2>&1 | grep -v launch | tee -a $OUT/res.txt
done
/usr/local/cuda/bin/ptxas -arch=sm_90 -v front-128x4-384.ptx -o $OUT/f.cubin 2>&1 | tail -2 | tee -a $OUT/res.txt
/usr/local/cuda/bin/cuobjdump -sass $OUT/f.cubin > $OUT/sass.txt 2>&1; rm -f $OUT/f.cubin
