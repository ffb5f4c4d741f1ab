#!/bin/bash
# Session 21 run 15: the multi-warp chain with the first change found in registers (the masks read
# once, turned by selects and funnel shifts: no loads or branches in between), 2 / 3 / 4 warps,
# against the committed patch's 3 warps and the rounds, same machine.
set -u
B=.exp
for g in w3reg:.6:1e6 w3reg:.106:1e6 w3reg:.74:1e6 w3reg:.77:1e6 w3reg:.6:2^26 w4reg:.6:1e6 w4reg:.77:1e6 w2reg:.6:1e6; do
  v=${g%%:*}; rest=${g#*:}; c=${rest%%:*}; n=${rest#*:}
  echo "$v $c $n $(timeout 15 $B/octal-$v solve $c -n $n --gpu --json -q 2>/tmp/err | python3 -c "import json,sys; d=json.load(sys.stdin); print(d['fnv1a64'], d['verified'])" 2>&1 | tail -1) $(grep -o 'gpu: speculated.*' /tmp/err | cut -c1-110)" | tee -a $OUT/res.txt
done
one() { # label bin kernel flags n
  local lab=$1 bin=$2 k=$3 fl=$4 n=$5
  OCTAL_GPU_KERNEL=$k timeout 40 $bin solve .6 -n $n --gpu $fl --json -q > /tmp/$lab.json 2> /tmp/$lab.err
  echo "$lab n=$n $(python3 -c "import json; d=json.load(open('/tmp/$lab.json')); print(d['fnv1a64'], d['verified'], round(d['values_per_second']), round(d['seconds'],2))" 2>&1 | tail -1) $(grep -o 'gpu: speculated.*' /tmp/$lab.err | head -1 | cut -c1-170)" | tee -a $OUT/res.txt
}
one so-w3reg $B/octal-w3reg chain --speculate-only 2e8
one so-w4reg $B/octal-w4reg chain --speculate-only 2e8
one so-w2reg $B/octal-w2reg chain --speculate-only 2e8
one so-w3 $B/octal-w3n224m512 chain --speculate-only 2e8
one so-rounds $B/octal-w3reg rounds --speculate-only 2e8
