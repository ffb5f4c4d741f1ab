#!/bin/bash
# Session 21 run 3: stage M's and the chain's progress words read with acquire and written with
# release (run 2's .106 hash differed and .77 hung: a wait's data reads were not ordered after
# it); hashes of every game, the profiled build (phases of the chain's round), speculation.
set -u
B=.exp
for g in .6:1e6 .106:1e6 .16:1e6 .36:1e6 .64:1e6 .74:1e6 .77:1e6 .6:2^26; do
  c=${g%%:*}; n=${g#*:}
  echo "m512 $c $n $(timeout 60 $B/octal-m512 solve $c -n $n --gpu --json -q 2>/tmp/err | python3 -c "import json,sys; d=json.load(sys.stdin); print(d['fnv1a64'], d['verified'], round(d['values_per_second']))" 2>&1 | tail -1) $(head -c 200 /tmp/err)" | tee -a $OUT/res.txt
done
one() { # label bin kernel flags n [far]
  local lab=$1 bin=$2 k=$3 fl=$4 n=$5 far=${6:-32}
  OCTAL_GPU_FAR_BLOCKS=$far OCTAL_GPU_KERNEL=$k timeout 100 $bin solve .6 -n $n --gpu $fl --json -q > /tmp/$lab.json 2> /tmp/$lab.err
  echo "$lab far=$far n=$n $(python3 -c "import json; d=json.load(open('/tmp/$lab.json')); print(d['fnv1a64'], d['verified'], round(d['values_per_second']), round(d['seconds'],2))" 2>&1 | tail -1) $(grep -o 'gpu: speculated.*' /tmp/$lab.err | head -1 | cut -c1-150) $(grep -v 'gpu: speculated' /tmp/$lab.err | head -c 300)" | tee -a $OUT/res.txt
}
OCTAL_GPU_FAR_BLOCKS=32 timeout 60 $B/octal-prof solve .6 -n 2e8 --gpu --speculate-only --json -q 2>&1 | grep PROF | tail -6 | tee -a $OUT/res.txt
one so-m512 $B/octal-m512 chain --speculate-only 2e8
