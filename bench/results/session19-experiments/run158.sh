#!/bin/bash
# Session 19 run 158: the GPU tests on f4a5c68 (7df17b2's kernels; discovery grown by the classic
# algorithm where it has settled): games and Officers 2^26, then the rest but the random codes;
# and Officers 10^9 verified.
set -u
mkdir -p /work && ln -sfn "$PWD" /work/main
B=.exp/s19
$B/gpu-test --nocapture --test-threads 1 gpu_games_and_officers > $OUT/gputest-games.log 2>&1; echo "games rc=$?" | tee -a $OUT/res.txt
$B/gpu-test --nocapture --test-threads 1 --skip gpu_games_and_officers --skip gpu_values_equal > $OUT/gputest-rest.log 2>&1; echo "rest rc=$?" | tee -a $OUT/res.txt
grep -h "test result\|^test " $OUT/gputest-*.log | tee -a $OUT/res.txt
OCTAL_GPU_WINDOW=3072 timeout 100 $B/octal-r19 solve .6 -n 1e9 --gpu --json -q > /tmp/e9.json 2> /tmp/e9.err
echo "e9 $(python3 -c "import json; d=json.load(open('/tmp/e9.json')); print(d['fnv1a64'], d['verified'], round(d['values_per_second']), round(d['seconds'],2))") $(grep -o 'gpu: spec.*beside it' /tmp/e9.err)" | tee -a $OUT/res.txt
