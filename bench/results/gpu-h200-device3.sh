#!/bin/bash
# Third run: the chain tile (OCTAL_GPU_TILE) against the speculative rate, Officers 10^6 and 2^24.
O=.carry-gpu/octal
for t in 1024 512 256 128 64; do
  echo "tile $t: $(OCTAL_GPU_TILE=$t timeout 8 $O solve .6 -n 1e6 --gpu 2>&1 | grep -E 'gpu:|fnv' | tr '\n' ' ')"
done | tee $OUT/log3.txt
