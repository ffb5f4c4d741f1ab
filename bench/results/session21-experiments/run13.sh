#!/bin/bash
# Session 21 run 13: the chain warps' round by phase (prof-v6b.py), and "quiet": stage M polls the
# far tags with relaxed loads and sleeps (one fence after), the publisher publishes 64 heaps or
# more at a time; against w3n224m512 (the same kernel otherwise).
set -u
B=.exp
OCTAL_GPU_KERNEL=chain timeout 30 $B/octal-prof6b solve .6 -n 2e8 --gpu --speculate-only --json -q 2>&1 | grep PROF | tail -12 | tee -a $OUT/res.txt
for g in .6:1e6 .106:1e6 .74:1e6 .6:2^26; do
  c=${g%%:*}; n=${g#*:}
  echo "quiet $c $n $(timeout 15 $B/octal-quiet solve $c -n $n --gpu --json -q 2>/tmp/err | python3 -c "import json,sys; d=json.load(sys.stdin); print(d['fnv1a64'], d['verified'])" 2>&1 | tail -1) $(grep -o 'gpu: speculated.*' /tmp/err | cut -c1-110)" | tee -a $OUT/res.txt
done
for v in quiet w3n224m512 quiet w3n224m512; do
  OCTAL_GPU_KERNEL=chain timeout 15 $B/octal-$v solve .6 -n 2e8 --gpu --speculate-only --json -q > /tmp/$v.json 2> /tmp/$v.err
  echo "so-$v $(python3 -c "import json; d=json.load(open('/tmp/$v.json')); print(d['fnv1a64'], round(d['seconds'],2))" 2>&1 | tail -1) $(grep -o 'gpu: speculated.*' /tmp/$v.err | cut -c1-150)" | tee -a $OUT/res.txt
done
