#!/bin/bash
# Session 21 run 9: which chain shapes hang (run 8: 4 warps with stage M from 257 hung, 2 warps
# from 193 ran): warps x stage M's start, Officers 10^6 (10 s limit), then speculation to 2e8.
set -u
B=.exp
for v in w2n256 w3n256 w4n256 w4n320; do
  echo "$v .6 1e6 $(timeout 10 $B/octal-$v solve .6 -n 1e6 --gpu --json -q 2>/tmp/err | python3 -c "import json,sys; d=json.load(sys.stdin); print(d['fnv1a64'], d['verified'])" 2>&1 | tail -1) $(grep -o 'gpu: speculated.*' /tmp/err | cut -c1-120)" | tee -a $OUT/res.txt
done
for v in w2n256 w3n256 w4n256 w4n320; do
  OCTAL_GPU_KERNEL=chain timeout 15 $B/octal-$v solve .6 -n 2e8 --gpu --speculate-only --json -q > /tmp/$v.json 2> /tmp/$v.err
  echo "so-$v $(python3 -c "import json; d=json.load(open('/tmp/$v.json')); print(d['fnv1a64'], round(d['seconds'],2))" 2>&1 | tail -1) $(grep -o 'gpu: speculated.*' /tmp/$v.err | cut -c1-150)" | tee -a $OUT/res.txt
done
