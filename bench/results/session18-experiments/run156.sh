#!/bin/bash
# Session 18 run 156: the review's settle call (two plain calls instead of a loop over passes; same
# meaning): Officers 2^26 and games to 10^6 against the CPU engine's hashes (run 150), speculation
# 2*10^8 against 4.7.
set -u
B=.exp/s18
for g in .6:2^26 .6:1e6 .106:1e6 .16:1e6 .36:1e6 .64:1e6 .74:1e6 .77:1e6; do
  c=${g%%:*}; n=${g#*:}
  timeout 60 $B/octal-r18 solve $c -n $n --gpu --json -q 2>/dev/null | python3 -c "import json,sys; d=json.load(sys.stdin); print('$c', '$n', d['fnv1a64'], d['verified'])" | tee -a $OUT/res.txt
done
for b in 47 r18; do
  timeout 60 $B/octal-$b solve .6 -n 2e8 --gpu --speculate-only --json -q > /tmp/$b.json 2> /tmp/$b.err
  echo "$b $(python3 -c "import json; print(json.load(open('/tmp/$b.json'))['fnv1a64'])") $(grep -o 'gpu: spec.*only)' /tmp/$b.err)" | tee -a $OUT/res.txt
done
