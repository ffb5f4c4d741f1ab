#!/bin/bash
# Session 19 run 169: the review's restatement of 4.9 (one mark_options call and one loop over the
# slot's words for fresh and deep heaps; same meaning, no version bump), r19r: hashes of Officers
# 2^26 and games to 10^6 (the CPU's, run 160), the GPU tests but the two long ones, and speed
# against 4.9 (r19e): speculation alone at 2*10^8 and 10^9 verified.
set -u
mkdir -p /work && ln -sfn "$PWD" /work/main
B=.exp/s19
for g in .6:2^26 .6:1e6 .106:1e6 .16:1e6 .36:1e6 .64:1e6 .74:1e6 .77:1e6; do
  c=${g%%:*}; n=${g#*:}
  echo "r19r $c $n $(timeout 60 $B/octal-r19r solve $c -n $n --gpu --json -q 2>/dev/null | python3 -c "import json,sys; d=json.load(sys.stdin); print(d['fnv1a64'], d['verified'])")" | tee -a $OUT/res.txt
done
$B/gpu-test --nocapture --test-threads 1 --skip gpu_games_and_officers --skip gpu_values_equal > $OUT/gputest-rest.log 2>&1; echo "rest rc=$?" | tee -a $OUT/res.txt
grep -h "test result\|equal (" $OUT/gputest-rest.log | tee -a $OUT/res.txt
one() { # label bin W flags n
  local lab=$1 bin=$2 w=$3 fl=$4 n=$5
  OCTAL_GPU_WINDOW=$w timeout 100 $bin solve .6 -n $n --gpu $fl --json -q > /tmp/$lab.json 2> /tmp/$lab.err
  echo "$lab W=$w n=$n $(python3 -c "import json; d=json.load(open('/tmp/$lab.json')); print(d['fnv1a64'], d['verified'], round(d['values_per_second']), round(d['seconds'],2))" 2>&1 | tail -1) $(grep -o 'gpu: spec.*beside it\|gpu: spec.*only)' /tmp/$lab.err | head -1)" | tee -a $OUT/res.txt
}
for v in r19e r19r; do one so-$v $B/octal-$v 3072 --speculate-only 2e8; done
for v in r19e r19r; do one v-$v $B/octal-$v 3072 "" 1e9; done
