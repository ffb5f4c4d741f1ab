#!/bin/bash
# Session 19 run 163: the GPU tests on kernels-gen 4.9 (a heap's or-ed bitset in registers, the
# lanes' words cleared by atomicExch; options packed as in 4.8): games to 10^6 and Officers 2^26,
# then the rest but the random codes.
set -u
mkdir -p /work && ln -sfn "$PWD" /work/main
B=.exp/s19
$B/gpu-test --nocapture --test-threads 1 gpu_games_and_officers > $OUT/gputest-games.log 2>&1; echo "games rc=$?" | tee -a $OUT/res.txt
$B/gpu-test --nocapture --test-threads 1 --skip gpu_games_and_officers --skip gpu_values_equal > $OUT/gputest-rest.log 2>&1; echo "rest rc=$?" | tee -a $OUT/res.txt
grep -h "test result\|^test \|FAIL\|panick" $OUT/gputest-*.log | cut -c1-250 | tee -a $OUT/res.txt
