#!/bin/bash
# Session 21 run 1: the chain kernel (kernels-gen 5.0) against the rounds (OCTAL_GPU_KERNEL=rounds)
# on the same machine: hashes first (a hang is killed by timeout), then speculation alone and
# verified, alternating.
set -u
B=target/release/octal
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv | tee $OUT/res.txt
for k in chain; do
for g in .6:1e6 .106:1e6 .16:1e6 .36:1e6 .64:1e6 .74:1e6 .77:1e6 .6:2^26; do
  c=${g%%:*}; n=${g#*:}
  echo "$k $c $n $(OCTAL_GPU_KERNEL=$k timeout 60 $B solve $c -n $n --gpu --json -q 2>/tmp/err | python3 -c "import json,sys; d=json.load(sys.stdin); print(d['fnv1a64'], d['verified'], round(d['values_per_second']))" 2>&1 | tail -1) $(head -c 300 /tmp/err)" | tee -a $OUT/res.txt
done; done
one() { # label kernel flags n [far]
  local lab=$1 k=$2 fl=$3 n=$4 far=${5:-32}
  OCTAL_GPU_FAR_BLOCKS=$far OCTAL_GPU_KERNEL=$k timeout 100 $B solve .6 -n $n --gpu $fl --json -q > /tmp/$lab.json 2> /tmp/$lab.err
  echo "$lab far=$far n=$n $(python3 -c "import json; d=json.load(open('/tmp/$lab.json')); print(d['fnv1a64'], d['verified'], round(d['values_per_second']), round(d['seconds'],2))" 2>&1 | tail -1) $(grep -o 'gpu: speculated.*' /tmp/$lab.err | head -1) $(grep -v 'gpu: speculated' /tmp/$lab.err | head -c 300)" | tee -a $OUT/res.txt
}
one so-rounds rounds --speculate-only 2e8
one so-chain chain --speculate-only 2e8
one so-chain-16 chain --speculate-only 2e8 16
one so-chain-64 chain --speculate-only 2e8 64
one v-rounds rounds "" 1e9
one v-chain chain "" 1e9
