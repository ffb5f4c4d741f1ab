#!/bin/bash
# Session 21 run 7: run 6 again after its fixes (v5 hung: the window's rotation counted from heap 0
# instead of the launch's first heap, and the chain published its progress only after waiting for
# the entering heaps, which stage M waited for that progress to write). Timeouts shortened.
set -u
B=.exp
export PATH=$PATH:/usr/local/cuda/bin
cuobjdump -res-usage $B/sass/off.cubin 2>&1 | grep -A1 "Function chain" | tee -a $OUT/res.txt
for g in .6:1e6 .106:1e6 .16:1e6 .36:1e6 .64:1e6 .74:1e6 .77:1e6 .6:2^26; do
  c=${g%%:*}; n=${g#*:}
  echo "v5 $c $n $(timeout 20 $B/octal-v5 solve $c -n $n --gpu --json -q 2>/tmp/err | python3 -c "import json,sys; d=json.load(sys.stdin); print(d['fnv1a64'], d['verified'], round(d['values_per_second']))" 2>&1 | tail -1) $(head -c 200 /tmp/err)" | tee -a $OUT/res.txt
done
one() { # label bin kernel flags n [far]
  local lab=$1 bin=$2 k=$3 fl=$4 n=$5 far=${6:-32}
  OCTAL_GPU_FAR_BLOCKS=$far OCTAL_GPU_KERNEL=$k timeout 40 $bin solve .6 -n $n --gpu $fl --json -q > /tmp/$lab.json 2> /tmp/$lab.err
  echo "$lab far=$far n=$n $(python3 -c "import json; d=json.load(open('/tmp/$lab.json')); print(d['fnv1a64'], d['verified'], round(d['values_per_second']), round(d['seconds'],2))" 2>&1 | tail -1) $(grep -o 'gpu: speculated.*' /tmp/$lab.err | head -1 | cut -c1-150) $(grep -v 'gpu: speculated' /tmp/$lab.err | head -c 300)" | tee -a $OUT/res.txt
}
one so-v4 $B/octal-v4 chain --speculate-only 2e8
one so-v5 $B/octal-v5 chain --speculate-only 2e8
one so-v5m1024 $B/octal-v5m1024 chain --speculate-only 2e8
one so-v5-f16 $B/octal-v5 chain --speculate-only 2e8 16
one v-v5 $B/octal-v5 chain "" 1e9
