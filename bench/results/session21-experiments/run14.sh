#!/bin/bash
# Session 21 run 14: the chain on one warp with the residue mapping of v6 (no shuffles, the
# ballots are the masks: no shared-memory exchange, no barrier), stage M from 129 or 161; against
# v4 (one warp, sliding window), w3n224m512 and the rounds, same machine. Hashes, speculation,
# verified 10^9.
set -u
B=.exp
for g in .6:1e6 .106:1e6 .74:1e6 .77:1e6 .16:1e6 .36:1e6 .64:1e6 .6:2^26; do
  c=${g%%:*}; n=${g#*:}
  echo "w1n128 $c $n $(timeout 15 $B/octal-w1n128 solve $c -n $n --gpu --json -q 2>/tmp/err | python3 -c "import json,sys; d=json.load(sys.stdin); print(d['fnv1a64'], d['verified'])" 2>&1 | tail -1) $(grep -o 'gpu: speculated.*' /tmp/err | cut -c1-110)" | tee -a $OUT/res.txt
done
one() { # label bin kernel flags n
  local lab=$1 bin=$2 k=$3 fl=$4 n=$5
  OCTAL_GPU_KERNEL=$k timeout 40 $bin solve .6 -n $n --gpu $fl --json -q > /tmp/$lab.json 2> /tmp/$lab.err
  echo "$lab n=$n $(python3 -c "import json; d=json.load(open('/tmp/$lab.json')); print(d['fnv1a64'], d['verified'], round(d['values_per_second']), round(d['seconds'],2))" 2>&1 | tail -1) $(grep -o 'gpu: speculated.*' /tmp/$lab.err | head -1 | cut -c1-170)" | tee -a $OUT/res.txt
}
one so-w1n128 $B/octal-w1n128 chain --speculate-only 2e8
one so-w1n160 $B/octal-w1n160 chain --speculate-only 2e8
one so-w3n224 $B/octal-w3n224m512 chain --speculate-only 2e8
one so-v4 $B/octal-v4 chain --speculate-only 2e8
one so-rounds $B/octal-w1n128 rounds --speculate-only 2e8
one v-w1n128 $B/octal-w1n128 chain "" 1e9
one v-rounds $B/octal-w1n128 rounds "" 1e9
