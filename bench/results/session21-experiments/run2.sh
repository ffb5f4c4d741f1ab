#!/bin/bash
# Session 21 run 2: stage M and the far blocks in distance bands (kernels-gen 5.0 as committed
# with CH_MID 512; variants m768 / m1024), a profiled build (clock64 sums, printf), the rounds
# as the baseline in the same run.
set -u
B=.exp
for g in .6:2^26 .77:1e6 .64:1e6 .106:1e6; do
  c=${g%%:*}; n=${g#*:}
  echo "m512 $c $n $(timeout 60 $B/octal-m512 solve $c -n $n --gpu --json -q 2>/tmp/err | python3 -c "import json,sys; d=json.load(sys.stdin); print(d['fnv1a64'], d['verified'], round(d['values_per_second']))" 2>&1 | tail -1) $(head -c 200 /tmp/err)" | tee -a $OUT/res.txt
done
one() { # label bin kernel flags n [far]
  local lab=$1 bin=$2 k=$3 fl=$4 n=$5 far=${6:-32}
  OCTAL_GPU_FAR_BLOCKS=$far OCTAL_GPU_KERNEL=$k timeout 100 $bin solve .6 -n $n --gpu $fl --json -q > /tmp/$lab.json 2> /tmp/$lab.err
  echo "$lab far=$far n=$n $(python3 -c "import json; d=json.load(open('/tmp/$lab.json')); print(d['fnv1a64'], d['verified'], round(d['values_per_second']), round(d['seconds'],2))" 2>&1 | tail -1) $(grep -o 'gpu: speculated.*' /tmp/$lab.err | head -1 | cut -c1-150) $(grep -v 'gpu: speculated' /tmp/$lab.err | head -c 300)" | tee -a $OUT/res.txt
}
OCTAL_GPU_FAR_BLOCKS=32 timeout 60 $B/octal-prof solve .6 -n 2e8 --gpu --speculate-only --json -q 2>&1 | grep PROF | head -20 | tee -a $OUT/res.txt
one so-rounds $B/octal-m512 rounds --speculate-only 2e8
one so-m512 $B/octal-m512 chain --speculate-only 2e8
one so-m768 $B/octal-m768 chain --speculate-only 2e8
one so-m1024 $B/octal-m1024 chain --speculate-only 2e8
one so-m512-f64 $B/octal-m512 chain --speculate-only 2e8 64
