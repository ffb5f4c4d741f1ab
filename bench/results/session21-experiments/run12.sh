#!/bin/bash
# Session 21 run 12: where the chain (3 warps, stage M from 225, far from 513) waits: the
# profiled build (prof-v6.py) to 2e8, speculation only, against the same kernel unprofiled.
set -u
B=.exp
OCTAL_GPU_KERNEL=chain timeout 30 $B/octal-prof6 solve .6 -n 2e8 --gpu --speculate-only --json -q 2>&1 | grep PROF | tail -12 | tee -a $OUT/res.txt
for v in prof6 w3n224m512; do
  OCTAL_GPU_KERNEL=chain timeout 15 $B/octal-$v solve .6 -n 2e8 --gpu --speculate-only --json -q > /tmp/$v.json 2> /tmp/$v.err
  echo "so-$v $(python3 -c "import json; d=json.load(open('/tmp/$v.json')); print(d['fnv1a64'], round(d['seconds'],2))" 2>&1 | tail -1) $(grep -o 'gpu: speculated.*' /tmp/$v.err | cut -c1-150)" | tee -a $OUT/res.txt
done
