#!/bin/bash
# Session 21 run 11: every chain shape of run 10 ran at 57-61 M heaps/s: the far blocks' latency
# (stage M waits for their tags) is the suspect. Stage M to 1024 back (the far blocks' slack
# doubles; the chain's ring of codes 2048 heaps), against 512 in the same run.
set -u
B=.exp
for v in w4n256m1024 w3n224m1024 w2n192m1024; do
for g in .6:1e6 .106:1e6 .74:1e6; do
  c=${g%%:*}; n=${g#*:}
  echo "$v $c $n $(timeout 10 $B/octal-$v solve $c -n $n --gpu --json -q 2>/tmp/err | python3 -c "import json,sys; d=json.load(sys.stdin); print(d['fnv1a64'], d['verified'])" 2>&1 | tail -1) $(grep -o 'gpu: speculated.*' /tmp/err | cut -c1-110)" | tee -a $OUT/res.txt
done; done
for v in w4n256m1024 w3n224m1024 w2n192m1024 w3n224m512; do
  OCTAL_GPU_KERNEL=chain timeout 15 $B/octal-$v solve .6 -n 2e8 --gpu --speculate-only --json -q > /tmp/$v.json 2> /tmp/$v.err
  echo "so-$v $(python3 -c "import json; d=json.load(open('/tmp/$v.json')); print(d['fnv1a64'], round(d['seconds'],2))" 2>&1 | tail -1) $(grep -o 'gpu: speculated.*' /tmp/$v.err | cut -c1-150)" | tee -a $OUT/res.txt
done
for v in w4n256m1024 w3n224m1024; do
  timeout 40 $B/octal-$v solve .6 -n 1e9 --gpu --json -q > /tmp/v$v.json 2> /tmp/v$v.err
  echo "v-$v $(python3 -c "import json; d=json.load(open('/tmp/v$v.json')); print(d['fnv1a64'], d['verified'], round(d['values_per_second']), round(d['seconds'],2))" 2>&1 | tail -1) $(grep -o 'gpu: speculated.*' /tmp/v$v.err | cut -c1-200)" | tee -a $OUT/res.txt
done
