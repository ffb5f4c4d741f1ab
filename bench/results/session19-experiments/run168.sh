#!/bin/bash
# Session 19 run 168: r19g (mk.py sm on 4.9: the settle loop through the lanes' own bitsets and
# mark_options, then or-ed into the slot) against 4.9 (r19e): hashes of Officers 2^26 and games to 10^6 (the
# CPU's, run 160), speculation alone at 2*10^8 and 10^9 verified, alternating.
set -u
B=.exp/s19
for v in r19g; do
for g in .6:2^26 .6:1e6 .106:1e6 .16:1e6 .36:1e6 .64:1e6 .74:1e6 .77:1e6; do
  c=${g%%:*}; n=${g#*:}
  echo "$v $c $n $(timeout 60 $B/octal-$v solve $c -n $n --gpu --json -q 2>/dev/null | python3 -c "import json,sys; d=json.load(sys.stdin); print(d['fnv1a64'], d['verified'])")" | tee -a $OUT/res.txt
done; done
one() { # label bin W flags n [env]
  local lab=$1 bin=$2 w=$3 fl=$4 n=$5
  env ${6:-X=1} OCTAL_GPU_WINDOW=$w timeout 100 $bin solve .6 -n $n --gpu $fl --json -q > /tmp/$lab.json 2> /tmp/$lab.err
  echo "$lab W=$w n=$n $(python3 -c "import json; d=json.load(open('/tmp/$lab.json')); print(d['fnv1a64'], d['verified'], round(d['values_per_second']), round(d['seconds'],2))" 2>&1 | tail -1) $(grep -o 'gpu: spec.*beside it\|gpu: spec.*only)' /tmp/$lab.err | head -1)" | tee -a $OUT/res.txt
}
for i in 1 2; do for v in r19e r19g; do one so-$v-$i $B/octal-$v 3072 --speculate-only 2e8; done; done
for i in 1 2; do for v in r19e r19g; do one v-$v-$i $B/octal-$v 3072 "" 1e9; done; done
