#!/bin/bash
# Session 12 run 73: front v6 (the option loop from shared memory, 8 loads at a time: small code),
# and the committed engine's speculation on the same machine for the ratio.
cd .carry-gpu/front
for v in 256-768 256-640 192-640 128-512 128-384; do
  timeout 40 python3 drv.py 16777216 64 front-$v.ptx 2>&1 | grep -v launch | tee -a $OUT/res.txt
done
timeout 40 python3 drv.py 16777216 32,100 front-256-640.ptx 2>&1 | grep -v launch | tee -a $OUT/res.txt
cd ../..
target/release/octal bench .6 --gpu -n 2^24 --cpu-max 2^20 --json $OUT/bench.json 2>&1 | tail -1 | tee -a $OUT/res.txt
