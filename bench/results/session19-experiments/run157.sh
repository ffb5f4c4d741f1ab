#!/bin/bash
# Session 19 run 157: `spec` on fewer SMs, each taken whole (OCTAL_EXP_SBLOCKS blocks of
# OCTAL_EXP_SSHARED = 227 KiB of shared memory, so that no `verify` block fits beside one): the
# verification runs on the other SMs only. 10^9 verified, and speculation alone at 2*10^8.
set -u
B=.exp/s19
one() { # label bin W flags n [env]
  local lab=$1 bin=$2 w=$3 fl=$4 n=$5
  env ${6:-X=1} ${7:-Y=1} OCTAL_GPU_WINDOW=$w timeout 100 $bin solve .6 -n $n --gpu $fl --json -q > /tmp/$lab.json 2> /tmp/$lab.err
  echo "$lab W=$w n=$n $(python3 -c "import json; d=json.load(open('/tmp/$lab.json')); print(d['fnv1a64'], d['verified'], round(d['values_per_second']), round(d['seconds'],2))" 2>&1) $(grep -o 'gpu: spec.*beside it\|gpu: spec.*only)' /tmp/$lab.err | head -1)" | tee -a $OUT/res.txt
  grep -i "error" /tmp/$lab.err | head -3 | tee -a $OUT/res.txt
}
for x in 231424 230400 229376 227328 225280; do
  if OCTAL_EXP_SBLOCKS=112 OCTAL_EXP_SSHARED=$x timeout 60 $B/octal-sb solve .6 -n 1e6 --gpu -q > /dev/null 2>/tmp/probe.err; then break; fi
  echo "SSHARED $x: $(cat /tmp/probe.err)" | tee -a $OUT/res.txt
done
F=OCTAL_EXP_SSHARED=$x
echo "using $F" | tee -a $OUT/res.txt
one warm $B/octal-sb 3072 "" 1e8 OCTAL_EXP_SBLOCKS=112 $F
one so-base $B/octal-sb 3072 --speculate-only 2e8
one so-112 $B/octal-sb 3072 --speculate-only 2e8 OCTAL_EXP_SBLOCKS=112 $F
one so-100 $B/octal-sb 3072 --speculate-only 2e8 OCTAL_EXP_SBLOCKS=100 $F
one s112 $B/octal-sb 3072 "" 1e9 OCTAL_EXP_SBLOCKS=112 $F
one s100 $B/octal-sb 3072 "" 1e9 OCTAL_EXP_SBLOCKS=100 $F
one s120 $B/octal-sb 3072 "" 1e9 OCTAL_EXP_SBLOCKS=120 $F
one s88 $B/octal-sb 2816 "" 1e9 OCTAL_EXP_SBLOCKS=88 $F
one base-2 $B/octal-sb 3072 "" 1e9
