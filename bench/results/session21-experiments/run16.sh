#!/bin/bash
# Session 21 run 16: the chain alone (alone.py): after each launch of more than 10^6 heaps, block 0
# runs the chain again on the same heaps with its entries copied from a log (no far blocks, no
# publisher, no strikes); both runs' cycles and the replay's mismatches, 1 / 3 / 4 warps.
set -u
B=.exp
for v in alone3 alone1 alone4; do
  OCTAL_GPU_KERNEL=chain timeout 40 $B/octal-$v solve .6 -n 1e8 --gpu --speculate-only --json -q > /tmp/$v.out 2> /tmp/$v.err
  echo "$v $(grep -o '"fnv1a64":"[0-9a-f]*"' /tmp/$v.out) $(grep -o 'gpu: speculated.*' /tmp/$v.err | cut -c1-120)" | tee -a $OUT/res.txt
  grep -h ALONE /tmp/$v.out /tmp/$v.err | tail -6 | tee -a $OUT/res.txt
done
