#!/bin/bash
# Session 18 run 148: stream priorities (spec high, verify low; OCTAL_EXP_PRIO) against the
# committed engine at 10^9 verified; an nsys trace of a verified 2*10^8 run if nsys is there.
set -u
B=.exp/s18
one() { # label bin W flags n [env]
  local lab=$1 bin=$2 w=$3 fl=$4 n=$5
  env ${6:-X=1} OCTAL_GPU_WINDOW=$w timeout 100 $bin solve .6 -n $n --gpu $fl --json -q > /tmp/$lab.json 2> /tmp/$lab.err
  echo "$lab W=$w n=$n $(python3 -c "import json; d=json.load(open('/tmp/$lab.json')); print(d['fnv1a64'], d['verified'], round(d['values_per_second']), round(d['seconds'],2))" 2>&1) $(grep -o 'gpu: spec.*beside it\|gpu: spec.*only)' /tmp/$lab.err | head -1)" | tee -a $OUT/res.txt
  grep -i "error\|exp:" /tmp/$lab.err | head -3 | tee -a $OUT/res.txt
}
(which nsys ncu; nsys --version) 2>&1 | tee -a $OUT/res.txt
one chk-prio $B/octal-prio 3072 "" 2^26 OCTAL_EXP_PRIO=1
for i in 1 2; do
  one vbase-$i $B/octal-base 3072 "" 1e9
  one vprio-$i $B/octal-prio 3072 "" 1e9 OCTAL_EXP_PRIO=1
done
if which nsys >/dev/null 2>&1; then
  OCTAL_GPU_WINDOW=3072 timeout 200 nsys profile -o /tmp/prof -t cuda --force-overwrite true $B/octal-base solve .6 -n 2e8 --gpu --json -q > /tmp/prof.json 2>/tmp/prof.err
  tail -2 /tmp/prof.err | tee -a $OUT/res.txt
  nsys stats -r cuda_gpu_kern_sum /tmp/prof.nsys-rep 2>&1 | tail -12 | tee -a $OUT/res.txt
  nsys stats -r cuda_gpu_trace -f csv -o /tmp/trace /tmp/prof.nsys-rep > /dev/null 2>&1
  ls /tmp/trace* | tee -a $OUT/res.txt
  python3 - <<'PY' 2>&1 | tee -a $OUT/res.txt
import csv, glob
f = glob.glob('/tmp/trace*.csv')[0]
rows = list(csv.DictReader(open(f)))
print(rows[0].keys())
for r in rows[-40:]:
    print(r.get('Start (ns)'), r.get('Duration (ns)'), r.get('Strm'), r.get('Name')[:20])
PY
fi
